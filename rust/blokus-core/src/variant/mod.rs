//! Variants as data: a spec (what a user writes: [`VariantSpec`]) and the validated [`Variant`]
//! the tables and the rules are built from.
//!
//! The built-in variants are specs too, in `variants/*.json`; a user-defined spec goes through
//! exactly the same validation ([`Variant::from_spec`]).

mod builtin;
pub(crate) mod pieces;
mod spec;
pub(crate) mod structure;

use std::collections::HashMap;

use serde::Deserialize;

use crate::bits::Bits;
use crate::geometry::{column_name, parse_cell_name, Coord, Geometry};

pub use builtin::{builtin_ids, builtin_spec_json};
pub use spec::{Blocked, BoardSpec, BonusSpec, PiecesSpec, VariantSpec};
pub use structure::Structure;

/// Most colours a variant may have.
pub const MAX_COLORS: usize = 4;
/// Most distinct pieces in a colour's set.
pub const MAX_PIECES: usize = 24;

/// How points are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub enum Scoring {
    /// Cells placed plus bonuses (Pentobi's points).
    Advanced,
    /// Minus one per cell left in hand.
    Basic,
}

impl TryFrom<String> for Scoring {
    type Error = String;

    fn try_from(name: String) -> Result<Scoring, String> {
        match name.as_str() {
            "advanced" => Ok(Scoring::Advanced),
            "basic" => Ok(Scoring::Basic),
            _ => Err(unknown_name(&name, "advanced, basic")),
        }
    }
}

/// The message for a name that is not one of `known` (quoting a long name briefly).
pub(crate) fn unknown_name(name: &str, known: &str) -> String {
    format!("unknown value {} (known: {known})", excerpt(name))
}

/// A user's text for a message: quoted, and cut to a few dozen characters, so that a message
/// stays short however long the text.
pub(crate) fn excerpt(text: &str) -> String {
    const MOST: usize = 24;
    match text.char_indices().nth(MOST) {
        Some((end, _)) => format!("{:?}...", &text[..end]),
        None => format!("{text:?}"),
    }
}

/// The rule family a variant is played under; the position dispatches on it by `match`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    /// Flat boards: a first piece covers a start point, later pieces touch their colour at
    /// corners only.
    Corner,
    /// Blokus 3D: cubes stacked over a structure, later pieces share a face with their colour.
    Stacking {
        /// A colour that cannot place on its turn is skipped and tries again on its next turn,
        /// instead of being out for the rest of the game.
        skip_blocked: bool,
    },
}

impl Rules {
    /// Whether a colour that cannot move on its turn never moves again.
    pub fn knocks_out(self) -> bool {
        match self {
            Rules::Corner => true,
            Rules::Stacking { skip_blocked } => !skip_blocked,
        }
    }

    /// Whether being out is a fact of the game's history rather than of the position: under the
    /// stacking rule with knock-out, a colour that could not move once stays out even when room
    /// opens later, so an out colour may have a legal move. (Under the corner rule a colour out
    /// of moves never gets one back.)
    pub fn out_by_history(self) -> bool {
        matches!(
            self,
            Rules::Stacking {
                skip_blocked: false
            }
        )
    }
}

/// How a player's score comes from the points of its colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub enum PlayerScore {
    /// The sum of its colours' points.
    Sum,
    /// The points of its best colour (Blokus 3D `_2x2`: the owner of the best colour wins).
    Best,
}

impl TryFrom<String> for PlayerScore {
    type Error = String;

    fn try_from(name: String) -> Result<PlayerScore, String> {
        match name.as_str() {
            "sum" => Ok(PlayerScore::Sum),
            "best" => Ok(PlayerScore::Best),
            _ => Err(unknown_name(&name, "sum, best")),
        }
    }
}

/// A piece of a validated variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceKind {
    /// Pentobi's name.
    pub name: String,
    /// Cells in one orientation.
    pub cells: Vec<Coord>,
    /// Copies each colour has.
    pub copies: u8,
}

/// A validated variant: everything the tables and the rules need. Only [`Variant::from_spec`]
/// (and the built-ins) make one, so every variant the engine sees is valid.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Short id.
    pub(crate) id: String,
    /// Human name.
    pub(crate) name: String,
    /// SGF `GM` value, if any.
    pub(crate) sgf_name: Option<String>,
    /// The lattice.
    pub(crate) geometry: Geometry,
    /// Cell coordinates, indexed by cell number.
    pub(crate) cells: Vec<Coord>,
    /// Colour names.
    pub(crate) colors: Vec<String>,
    /// Colours of each player.
    pub(crate) players: Vec<Vec<usize>>,
    /// Colours shared by all players in turn.
    pub(crate) shared_colors: Vec<usize>,
    /// Start points per colour (a shared point appears in every colour's set).
    pub(crate) start_points: Vec<Bits>,
    /// The piece set of every colour.
    pub(crate) pieces: Vec<PieceKind>,
    /// Default scoring.
    pub(crate) scoring: Scoring,
    /// Bonus for placing every piece.
    pub(crate) bonus_all_placed: u32,
    /// Bonus instead when the last piece was the 1-cell piece.
    pub(crate) bonus_last_monomino: u32,
    /// The rule family.
    pub(crate) rules: Rules,
    /// How a player's score comes from its colours' points.
    pub(crate) player_score: PlayerScore,
    /// The structure of a cube board; its ground layer is cells `0..columns.len()`.
    pub(crate) structure: Option<Structure>,
    pub(crate) index: HashMap<Coord, usize>,
}

/// A spec that cannot become a variant: where (the field) and what is wrong there.
///
/// ```
/// use blokus_core::Variant;
/// let e = Variant::from_json(r#"{"id": "x", "board": {"geometry": "square", "width": 0,
///     "height": 5}, "colors": ["Blue"], "players": [[0]], "pieces": {}}"#).unwrap_err();
/// assert_eq!(e.field, "board");
/// assert_eq!(e.to_string(), "board: 0x5 is not a size from 1x1 to 64x64");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    /// The path of the field at fault, as `board.holes[3]`; empty when the fault is the spec
    /// as a whole (not JSON, not a table).
    pub field: String,
    /// What is wrong there, in at most [`SpecError::MAX_MESSAGE`] characters.
    pub message: String,
}

impl SpecError {
    /// The most characters of a message (quoted input is cut to fit).
    pub const MAX_MESSAGE: usize = 200;

    /// The error at `field`, its message cut to [`SpecError::MAX_MESSAGE`] characters.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> SpecError {
        let mut message = message.into();
        if let Some((end, _)) = message.char_indices().nth(SpecError::MAX_MESSAGE - 3) {
            message.truncate(end);
            message.push_str("...");
        }
        let mut field = field.into();
        if let Some((end, _)) = field.char_indices().nth(40) {
            field.truncate(end);
            field.push_str("...");
        }
        SpecError { field, message }
    }
}

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.field.is_empty() {
            write!(f, "variant spec: {}", self.message)
        } else {
            write!(f, "{}: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for SpecError {}

impl Variant {
    /// A built-in variant by id.
    ///
    /// ```
    /// use blokus_core::Variant;
    /// let duo = Variant::builtin("duo").unwrap();
    /// assert_eq!((duo.num_colors(), duo.num_cells()), (2, 196));
    /// assert!(Variant::builtin("chess").is_none());
    /// ```
    pub fn builtin(id: &str) -> Option<Variant> {
        let json = builtin_spec_json(id)?;
        Some(Variant::from_json(json).expect("built-in specs are valid"))
    }

    /// Reads and validates a JSON spec.
    ///
    /// Tables (`board`, `pieces`, `bonus` and the spec itself) must be JSON objects: serde
    /// would also read a list as a table, by position.
    pub fn from_json(json: &str) -> Result<Variant, SpecError> {
        // serde_json refuses nesting deeper than 128 levels, so reading cannot overflow the stack.
        let value: serde_json::Value = serde_json::from_str(json)
            .map_err(|e| SpecError::new("", format!("not a JSON spec: {e}")))?;
        check_tables(&value)?;
        let spec: VariantSpec = serde_path_to_error::deserialize(&value).map_err(|e| {
            let path = e.path().to_string();
            let field = if path == "." { String::new() } else { path };
            SpecError::new(field, e.into_inner().to_string())
        })?;
        Variant::from_spec(&spec)
    }

    /// Short id (`classic`, `3d_tower_2`, a user's own).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Human name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The `GM[...]` value of SGF files, if the variant has one.
    pub fn sgf_name(&self) -> Option<&str> {
        self.sgf_name.as_deref()
    }

    /// The lattice the board is made of.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The coordinates of every cell, by cell number (row by row on flat boards, layer by layer
    /// in Blokus 3D).
    pub fn cells(&self) -> &[Coord] {
        &self.cells
    }

    /// Colour names, in move order.
    pub fn colors(&self) -> &[String] {
        &self.colors
    }

    /// For each player, the colours it plays (shared colours are not listed).
    pub fn players(&self) -> &[Vec<usize>] {
        &self.players
    }

    /// Colours the players take turns to play (the fourth colour of `classic_3`).
    pub fn shared_colors(&self) -> &[usize] {
        &self.shared_colors
    }

    /// Start points of each colour (a shared point is in every colour's set).
    pub fn start_points(&self) -> &[Bits] {
        &self.start_points
    }

    /// The piece set of every colour.
    pub fn pieces(&self) -> &[PieceKind] {
        &self.pieces
    }

    /// How points are counted by default.
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    /// The bonus for placing every piece, and the bonus instead when the last was the 1-cell
    /// piece.
    pub fn bonuses(&self) -> (u32, u32) {
        (self.bonus_all_placed, self.bonus_last_monomino)
    }

    /// The rule family.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// How a player's score comes from its colours' points.
    pub fn player_score(&self) -> PlayerScore {
        self.player_score
    }

    /// The structure of a Blokus 3D board.
    pub fn structure(&self) -> Option<&Structure> {
        self.structure.as_ref()
    }

    /// One letter per colour, as position strings and text pictures write colours: the
    /// initials of the colour names when they are distinct ASCII letters, else `a`, `b`, ...
    ///
    /// ```
    /// use blokus_core::Variant;
    /// assert_eq!(Variant::builtin("duo").unwrap().color_letters(), ['p', 'o']);
    /// ```
    pub fn color_letters(&self) -> Vec<char> {
        let initials: Vec<char> = self
            .colors
            .iter()
            .map(|c| c.chars().next().unwrap_or('?').to_ascii_lowercase())
            .collect();
        let distinct = initials
            .iter()
            .enumerate()
            .all(|(i, a)| a.is_ascii_lowercase() && !initials[..i].contains(a));
        if distinct {
            initials
        } else {
            (b'a'..).take(self.num_colors()).map(char::from).collect()
        }
    }

    /// The cells as they are drawn: row by row from the top row down, each row left to right
    /// (a Trigon row holds only its triangles). In Blokus 3D the columns of the ground layer,
    /// back row first.
    pub fn rows(&self) -> Vec<Vec<usize>> {
        let mut by_row: std::collections::BTreeMap<i32, Vec<(i32, usize)>> = Default::default();
        for (cell, &[x, y, z]) in self.cells.iter().enumerate() {
            if z == 0 {
                by_row.entry(y).or_default().push((x, cell));
            }
        }
        by_row
            .into_values()
            .rev()
            .map(|mut row| {
                row.sort_unstable();
                row.into_iter().map(|(_, cell)| cell).collect()
            })
            .collect()
    }

    /// `cells` in the order move text writes them: by level, row, then column.
    pub fn sort_cells(&self, cells: &mut [u16]) {
        cells.sort_by_key(|&c| {
            let [x, y, z] = self.cells[usize::from(c)];
            (z, y, x)
        });
    }

    /// Number of colours.
    pub fn num_colors(&self) -> usize {
        self.colors.len()
    }

    /// Number of players.
    pub fn num_players(&self) -> usize {
        self.players.len()
    }

    /// Number of cells of the board.
    pub fn num_cells(&self) -> usize {
        self.cells.len()
    }

    /// The cell at the given coordinates, if it is on the board.
    pub fn cell_at(&self, c: Coord) -> Option<usize> {
        self.index.get(&c).copied()
    }

    /// The cell's name in move text (`e10`, `aa7`; with the level on cube boards, `a1@2`).
    pub fn cell_name(&self, cell: usize) -> String {
        let [x, y, z] = self.cells[cell];
        match self.geometry {
            Geometry::Cube => format!("{}{}@{}", column_name(x), y + 1, z + 1),
            _ => format!("{}{}", column_name(x), y + 1),
        }
    }

    /// The cell a name denotes, if it is on the board.
    pub fn parse_cell(&self, name: &str) -> Option<usize> {
        self.cell_at(self.cell_coord(name)?)
    }

    /// The coordinates a cell name denotes, on the board or not; `None` if the text is not a
    /// cell name of this geometry (case is ignored).
    pub fn cell_coord(&self, name: &str) -> Option<Coord> {
        match self.geometry {
            Geometry::Cube => {
                let (column, level) = name.split_once('@')?;
                let (x, row) = parse_cell_name(column)?;
                let digits = !level.is_empty() && level.bytes().all(|b| b.is_ascii_digit());
                if !digits || level.len() > 3 || level.starts_with('0') {
                    return None;
                }
                let level: i32 = level.parse().ok()?;
                Some([x, row - 1, level - 1])
            }
            _ => {
                let (x, row) = parse_cell_name(name)?;
                Some([x, row - 1, 0])
            }
        }
    }

    /// The height limit of the column under `c` on a cube board, if there is a column there.
    pub fn limit_over(&self, c: Coord) -> Option<u8> {
        self.structure.as_ref()?.limit_at(c[0], c[1])
    }

    /// Width and height of the grid the cells lie on.
    pub fn extent(&self) -> (i32, i32) {
        let w = self.cells.iter().map(|c| c[0]).max().unwrap_or(-1) + 1;
        let h = self.cells.iter().map(|c| c[1]).max().unwrap_or(-1) + 1;
        (w, h)
    }

    /// Per cell, how close it lies to the middle of the board: `1 - d / D` (at least 0), `d`
    /// its distance from the middle and `D` half the diagonal of the grid the cells lie on
    /// (Trigon's columns are half a triangle wide).
    pub(crate) fn closeness_to_centre(&self) -> Vec<f32> {
        let (w, h) = self.extent();
        let x_scale = if matches!(self.geometry, Geometry::Triangle { .. }) {
            0.5
        } else {
            1.0
        };
        let (cx, cy) = ((w - 1) as f32 / 2.0 * x_scale, (h - 1) as f32 / 2.0);
        let half_diagonal = (cx * cx + cy * cy).sqrt().max(1.0);
        self.cells
            .iter()
            .map(|&[x, y, _]| {
                let (dx, dy) = (x as f32 * x_scale - cx, y as f32 - cy);
                (1.0 - (dx * dx + dy * dy).sqrt() / half_diagonal).max(0.0)
            })
            .collect()
    }

    /// The player who moves `color` when it has already placed `placed` pieces.
    pub fn player_of(&self, color: usize, placed: usize) -> usize {
        if self.shared_colors.contains(&color) {
            placed % self.num_players()
        } else {
            self.players
                .iter()
                .position(|cs| cs.contains(&color))
                .expect("validated")
        }
    }

    /// Total number of pieces each colour has.
    pub fn pieces_per_color(&self) -> usize {
        self.pieces.iter().map(|p| p.copies as usize).sum()
    }
}

/// Refuses a spec, or a table of it (`board`, `pieces`, `bonus`), that is not a JSON object.
fn check_tables(value: &serde_json::Value) -> Result<(), SpecError> {
    let kind = |v: &serde_json::Value| match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "a list",
        serde_json::Value::Object(_) => "a table",
    };
    let Some(top) = value.as_object() else {
        return Err(SpecError::new(
            "",
            format!(
                "a spec is a table (an object) of fields, not {}",
                kind(value)
            ),
        ));
    };
    for field in ["board", "pieces", "bonus"] {
        match top.get(field) {
            None | Some(serde_json::Value::Object(_)) => {}
            Some(other) => {
                return Err(SpecError::new(
                    field,
                    format!(
                        "expected a table (an object) of fields, found {}",
                        kind(other)
                    ),
                ))
            }
        }
    }
    Ok(())
}
