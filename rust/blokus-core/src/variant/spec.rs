//! What a user writes: the variant spec (JSON, TOML or a Python mapping), and its validation
//! into a [`Variant`].

use std::collections::HashMap;

use serde::Deserialize;

use super::pieces::{standard_shapes, Shape};
use super::structure::Structure;
use super::{
    excerpt, unknown_name, PieceKind, PlayerScore, Rules, Scoring, SpecError, Variant, MAX_COLORS,
    MAX_PIECES,
};
use crate::bits::{Bits, MAX_CELLS};
use crate::geometry::{parse_cell_name, Coord, Geometry};

/// What happens to a colour that cannot place on its turn (Blokus 3D).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub enum Blocked {
    /// Out for the rest of the game, even if room opens later.
    Out,
    /// Skipped; it tries again on its next turn.
    Skip,
}

impl TryFrom<String> for Blocked {
    type Error = String;

    fn try_from(name: String) -> Result<Blocked, String> {
        match name.as_str() {
            "out" => Ok(Blocked::Out),
            "skip" => Ok(Blocked::Skip),
            _ => Err(unknown_name(&name, "out, skip")),
        }
    }
}

/// A variant as written by a user or in `variants/*.json`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantSpec {
    /// Short id, e.g. `classic`.
    pub id: String,
    /// Human name; defaults to the id.
    #[serde(default)]
    pub name: Option<String>,
    /// The `GM[...]` value of SGF files, if Pentobi knows the variant.
    #[serde(default)]
    pub sgf_name: Option<String>,
    /// The board.
    pub board: BoardSpec,
    /// Colour names, in move order.
    pub colors: Vec<String>,
    /// For each player, the colours it plays.
    pub players: Vec<Vec<usize>>,
    /// Colours played by all players in turn (their n-th piece by player n mod players).
    #[serde(default)]
    pub shared_colors: Vec<usize>,
    /// Start points for each colour (cell names), one list per colour.
    #[serde(default)]
    pub start_points: Option<Vec<Vec<String>>>,
    /// Start points any colour may use; a covered one is gone.
    #[serde(default)]
    pub shared_start_points: Option<Vec<String>>,
    /// The piece set of every colour.
    pub pieces: PiecesSpec,
    /// `advanced` (default) or `basic`.
    #[serde(default)]
    pub scoring: Option<Scoring>,
    /// Bonuses for placing every piece.
    #[serde(default)]
    pub bonus: BonusSpec,
    /// Cube boards: `out` (default) or `skip`, for a colour that cannot place on its turn.
    #[serde(default)]
    pub blocked: Option<Blocked>,
    /// `sum` (default) or `best`: how a player's score comes from its colours' points.
    #[serde(default)]
    pub player_score: Option<PlayerScore>,
}

/// The board of a spec.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardSpec {
    /// `square` (a rectangle of squares), `triangle` (a hexagon of triangles, as in Trigon) or
    /// `cube` (a structure of stacked cubes, as in Blokus 3D).
    pub geometry: String,
    /// Columns (square boards).
    #[serde(default)]
    pub width: Option<i32>,
    /// Rows (square boards).
    #[serde(default)]
    pub height: Option<i32>,
    /// Triangles along each side of the hexagon (triangle boards): 9 for Trigon, 8 for
    /// Trigon for three players. The hexagon of edge `n` lies on a grid of `4n - 1` columns and
    /// `2n` rows and has `6n²` cells.
    #[serde(default)]
    pub edge: Option<i32>,
    /// Cells left out of the rectangle or hexagon, by name.
    #[serde(default)]
    pub holes: Vec<String>,
    /// Cube boards: the structure drawn as text (see [`Structure`](crate::Structure)), back row first, a
    /// digit per column (its height limit with 4 players) or `.` for no column.
    #[serde(default)]
    pub structure: Option<Vec<String>>,
    /// Cube boards: the number of players the limits are lowered for (default: the variant's).
    #[serde(default)]
    pub limits_for_players: Option<usize>,
}

/// The pieces of a spec.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PiecesSpec {
    /// Only these standard pieces (by name), in the standard order; all if absent.
    #[serde(default)]
    pub only: Option<Vec<String>>,
    /// Copies of each piece (default 1).
    #[serde(default)]
    pub copies: Option<u8>,
}

/// Bonus points for a colour that placed all its pieces.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BonusSpec {
    /// Bonus for placing every piece.
    #[serde(default)]
    pub all_placed: u32,
    /// Bonus instead of `all_placed` when the last piece was the 1-cell piece.
    #[serde(default)]
    pub last_monomino: u32,
}

/// The largest bonus a spec may give (points are `i32`: a few thousand cells plus bonuses).
pub const MAX_BONUS: u32 = 1000;
/// The most characters of a variant's id.
const MAX_ID_CHARS: usize = 64;
/// The most characters of its name and SGF game name.
const MAX_NAME_CHARS: usize = 100;
/// The most characters of a colour's name.
const MAX_COLOR_CHARS: usize = 32;

fn err<T>(field: impl Into<String>, message: impl Into<String>) -> Result<T, SpecError> {
    Err(SpecError::new(field, message))
}

/// Refuses a text longer than `most` characters.
fn bounded(field: &str, text: &str, most: usize) -> Result<(), SpecError> {
    match text.chars().nth(most) {
        Some(_) => err(
            field,
            format!("{} is longer than {most} characters", excerpt(text)),
        ),
        None => Ok(()),
    }
}

impl Variant {
    /// Validates a spec. Lists are measured before they are read, so a huge spec is refused
    /// as quickly as a small one.
    pub fn from_spec(spec: &VariantSpec) -> Result<Variant, SpecError> {
        bounded("id", &spec.id, MAX_ID_CHARS)?;
        if spec.id.is_empty()
            || !spec
                .id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-".contains(c))
        {
            return err(
                "id",
                format!(
                    "{} must be non-empty letters, digits, '_' or '-'",
                    excerpt(&spec.id)
                ),
            );
        }
        if let Some(name) = &spec.name {
            bounded("name", name, MAX_NAME_CHARS)?;
        }
        if let Some(name) = &spec.sgf_name {
            bounded("sgf_name", name, MAX_NAME_CHARS)?;
            if name.is_empty() {
                return err(
                    "sgf_name",
                    "empty: leave it out if Pentobi has no name for the game",
                );
            }
        }
        let num_colors = spec.colors.len();
        if num_colors == 0 || num_colors > MAX_COLORS {
            return err(
                "colors",
                format!("{num_colors} colours given, a variant has 1 to {MAX_COLORS}"),
            );
        }
        for (c, name) in spec.colors.iter().enumerate() {
            bounded(&format!("colors[{c}]"), name, MAX_COLOR_CHARS)?;
            if name.is_empty() {
                return err(format!("colors[{c}]"), "a colour needs a name");
            }
        }
        let (geometry, cells, structure) = match spec.board.geometry.as_str() {
            "cube" => cube_cells(spec)?,
            _ => {
                let (geometry, cells) = board_cells(&spec.board)?;
                (geometry, cells, None)
            }
        };
        let index: HashMap<Coord, usize> = cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
        if spec.players.is_empty() {
            return err("players", "at least one player is needed");
        }
        if spec.players.len() > num_colors {
            return err(
                "players",
                format!(
                    "{} players but only {num_colors} colours",
                    spec.players.len()
                ),
            );
        }
        let mut owner = vec![None; num_colors];
        for (p, colors) in spec.players.iter().enumerate() {
            let field = format!("players[{p}]");
            if colors.is_empty() {
                return err(field, "a player must play at least one colour");
            }
            for &c in colors {
                if c >= num_colors {
                    return err(
                        field,
                        format!("colour {c} does not exist (there are {num_colors})"),
                    );
                }
                if owner[c].is_some() {
                    return err(field, format!("colour {c} is already played by a player"));
                }
                owner[c] = Some(p);
            }
        }
        for &c in &spec.shared_colors {
            if c >= num_colors {
                return err(
                    "shared_colors",
                    format!("colour {c} does not exist (there are {num_colors})"),
                );
            }
            if owner[c] == Some(usize::MAX) {
                return err("shared_colors", format!("colour {c} is listed twice"));
            }
            if owner[c].is_some() {
                return err(
                    "shared_colors",
                    format!("colour {c} is also given to a player"),
                );
            }
            owner[c] = Some(usize::MAX);
        }
        if let Some(c) = owner.iter().position(|o| o.is_none()) {
            return err(
                "players",
                format!("colour {c} ({}) is played by nobody", spec.colors[c]),
            );
        }
        // Start points: no list longer than the board, no point twice.
        let points = |field: &str, names: &[String]| -> Result<Bits, SpecError> {
            if names.len() > cells.len() {
                return err(
                    field,
                    format!(
                        "{} start points, but the board has only {} cells",
                        names.len(),
                        cells.len()
                    ),
                );
            }
            if names.is_empty() {
                return err(field, "no start point");
            }
            let mut b = Bits::EMPTY;
            for name in names {
                let (x, row) = parse_cell_name(name).ok_or_else(|| {
                    SpecError::new(field, format!("{} is not a cell name", excerpt(name)))
                })?;
                let cell = index
                    .get(&[x, row - 1, 0])
                    .copied()
                    .ok_or_else(|| SpecError::new(field, format!("{name} is off the board")))?;
                if b.contains(cell) {
                    return err(field, format!("{name} is listed twice"));
                }
                b.insert(cell);
            }
            Ok(b)
        };
        let start_points = match (&spec.start_points, &spec.shared_start_points) {
            // Blokus 3D has no start points: colour 0 starts anywhere, the others by contact.
            (None, None) if geometry == Geometry::Cube => vec![Bits::EMPTY; num_colors],
            _ if geometry == Geometry::Cube => {
                return err(
                    "start_points",
                    "cube boards have none (docs/RULES.md, Blokus 3D)",
                )
            }
            (Some(_), Some(_)) => {
                return err(
                    "start_points",
                    "give start_points or shared_start_points, not both",
                )
            }
            (None, None) => return err("start_points", "none given"),
            (Some(per_color), None) => {
                if per_color.len() != num_colors {
                    return err(
                        "start_points",
                        format!("{} lists for {num_colors} colours", per_color.len()),
                    );
                }
                per_color
                    .iter()
                    .enumerate()
                    .map(|(c, names)| points(&format!("start_points[{c}]"), names))
                    .collect::<Result<Vec<Bits>, SpecError>>()?
            }
            (None, Some(names)) => vec![points("shared_start_points", names)?; num_colors],
        };
        let standard = standard_shapes(geometry);
        let copies = spec.pieces.copies.unwrap_or(1);
        if copies == 0 || copies > 9 {
            return err("pieces.copies", format!("{copies} copies, allowed 1 to 9"));
        }
        let chosen: Vec<Shape> = match &spec.pieces.only {
            None => standard,
            Some(names) => {
                if names.is_empty() {
                    return err("pieces.only", "the list is empty");
                }
                let mut seen = std::collections::HashSet::new();
                for n in names {
                    if !standard.iter().any(|s| &s.name == n) {
                        let known: Vec<&str> = standard.iter().map(|s| s.name.as_str()).collect();
                        return err(
                            "pieces.only",
                            format!("unknown piece {} (known: {})", excerpt(n), known.join(" ")),
                        );
                    }
                    if !seen.insert(n.as_str()) {
                        return err(
                            "pieces.only",
                            format!("{n:?} is listed twice; use pieces.copies"),
                        );
                    }
                }
                standard
                    .into_iter()
                    .filter(|s| names.contains(&s.name))
                    .collect()
            }
        };
        if chosen.len() > MAX_PIECES {
            return err(
                "pieces",
                format!("{} pieces, at most {MAX_PIECES}", chosen.len()),
            );
        }
        let rules = match geometry {
            Geometry::Cube => Rules::Stacking {
                skip_blocked: spec.blocked == Some(Blocked::Skip),
            },
            _ if spec.blocked.is_some() => {
                return err(
                    "blocked",
                    "only cube boards have this option (on flat boards a colour that cannot \
                     move never can again)",
                )
            }
            _ => Rules::Corner,
        };
        for (field, bonus) in [
            ("bonus.all_placed", spec.bonus.all_placed),
            ("bonus.last_monomino", spec.bonus.last_monomino),
        ] {
            if bonus > MAX_BONUS {
                return err(
                    field,
                    format!("{bonus} points; a bonus is 0 to {MAX_BONUS} points"),
                );
            }
        }
        if geometry == Geometry::Cube {
            if spec.scoring.is_some() {
                return err(
                    "scoring",
                    "cube boards always score visible columns minus pieces left",
                );
            }
            if spec.bonus.all_placed != 0 || spec.bonus.last_monomino != 0 {
                return err("bonus", "cube boards have no bonus");
            }
        }
        let pieces = chosen
            .into_iter()
            .map(|s| PieceKind {
                name: s.name,
                cells: s.cells,
                copies,
            })
            .collect();
        Ok(Variant {
            id: spec.id.clone(),
            name: spec.name.clone().unwrap_or_else(|| spec.id.clone()),
            sgf_name: spec.sgf_name.clone(),
            geometry,
            cells,
            colors: spec.colors.clone(),
            players: spec.players.clone(),
            shared_colors: spec.shared_colors.clone(),
            start_points,
            pieces,
            scoring: spec.scoring.unwrap_or(Scoring::Advanced),
            bonus_all_placed: spec.bonus.all_placed,
            bonus_last_monomino: spec.bonus.last_monomino,
            rules,
            player_score: spec.player_score.unwrap_or(PlayerScore::Sum),
            structure,
            index,
        })
    }
}

fn cube_cells(spec: &VariantSpec) -> Result<(Geometry, Vec<Coord>, Option<Structure>), SpecError> {
    let board = &spec.board;
    if board.width.is_some() || board.height.is_some() || !board.holes.is_empty() {
        return err(
            "board",
            "a cube board has a structure, not width, height or holes",
        );
    }
    let rows = board
        .structure
        .as_ref()
        .ok_or_else(|| SpecError::new("board", "a cube board needs a structure"))?;
    let players = board.limits_for_players.unwrap_or(spec.players.len());
    let structure = Structure::parse(rows, players)?;
    Ok((Geometry::Cube, structure.cells(), Some(structure)))
}

fn board_cells(board: &BoardSpec) -> Result<(Geometry, Vec<Coord>), SpecError> {
    let (geometry, grid, shape) = match board.geometry.as_str() {
        "square" => {
            if board.edge.is_some() {
                return err(
                    "board.edge",
                    "only triangle boards have an edge; give width and height",
                );
            }
            if board.structure.is_some() || board.limits_for_players.is_some() {
                return err("board", "a square board has no structure");
            }
            let (w, h) = match (board.width, board.height) {
                (Some(w), Some(h)) => (w, h),
                _ => return err("board", "a square board needs width and height"),
            };
            if !(1..=64).contains(&w) || !(1..=64).contains(&h) {
                return err("board", format!("{w}x{h} is not a size from 1x1 to 64x64"));
            }
            let cells: Vec<Coord> = (0..h)
                .flat_map(|y| (0..w).map(move |x| [x, y, 0]))
                .collect();
            (Geometry::Square, cells, format!("{w}x{h} board"))
        }
        "triangle" => {
            if board.structure.is_some() || board.limits_for_players.is_some() {
                return err("board", "a triangle board has no structure");
            }
            if board.width.is_some() || board.height.is_some() {
                return err(
                    "board",
                    "a triangle board is a hexagon; give its edge, not width and height",
                );
            }
            let Some(n) = board.edge else {
                return err("board", "a triangle board needs edge (9 for Trigon)");
            };
            let max_edge = (1..)
                .take_while(|&e| 6 * e * e <= MAX_CELLS)
                .last()
                .unwrap_or(0);
            if !(1..=max_edge as i32).contains(&n) {
                return err(
                    "board.edge",
                    format!(
                        "{n} is not from 1 to {max_edge} (a hexagon of edge n has 6n² cells, at \
                         most {MAX_CELLS})"
                    ),
                );
            }
            // The leftmost cell of the top row points up (docs/RULES.md): x = n - 1, y = 2n - 1.
            let odd_up = n % 2 == 1;
            (
                Geometry::Triangle { odd_up },
                hexagon_cells(n),
                format!("hexagon of edge {n}"),
            )
        }
        other => {
            return err(
                "board.geometry",
                format!(
                    "unknown geometry {} (known: square, triangle, cube)",
                    excerpt(other)
                ),
            )
        }
    };
    // Measured first: a hole can be named once per cell at most.
    if board.holes.len() > grid.len() {
        return err(
            "board.holes",
            format!(
                "{} holes, but the {shape} has only {} cells",
                board.holes.len(),
                grid.len()
            ),
        );
    }
    let on_grid: std::collections::HashSet<Coord> = grid.iter().copied().collect();
    let mut holes = std::collections::HashSet::new();
    for name in &board.holes {
        let (x, row) = parse_cell_name(name).ok_or_else(|| {
            SpecError::new(
                "board.holes",
                format!("{} is not a cell name", excerpt(name)),
            )
        })?;
        let c = [x, row - 1, 0];
        if !on_grid.contains(&c) {
            return err("board.holes", format!("{name} is off the {shape}"));
        }
        if !holes.insert(c) {
            return err("board.holes", format!("{name} is listed twice"));
        }
    }
    let cells: Vec<Coord> = grid.into_iter().filter(|c| !holes.contains(c)).collect();
    if cells.is_empty() {
        return err("board", "every cell is a hole");
    }
    if cells.len() > MAX_CELLS {
        return err(
            "board",
            format!("{} cells, at most {MAX_CELLS}", cells.len()),
        );
    }
    Ok((geometry, cells))
}

/// The cells of the hexagon of edge `n`, row by row from the bottom (docs/RULES.md): the row `d` rows
/// away from the nearer of the top and bottom edges holds columns `n - 1 - d ..= 3n - 1 + d`.
fn hexagon_cells(n: i32) -> Vec<Coord> {
    (0..2 * n)
        .flat_map(|y| {
            let d = y.min(2 * n - 1 - y);
            (n - 1 - d..=3 * n - 1 + d).map(move |x| [x, y, 0])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec_error(board: &str, start: &str) -> String {
        let json = format!(
            r#"{{"id": "t", "board": {board}, "colors": ["Blue", "Yellow"],
                "players": [[0], [1]], "shared_start_points": [{start}], "pieces": {{}}}}"#
        );
        Variant::from_json(&json).unwrap_err().to_string()
    }

    #[test]
    fn trigon_boards_are_hexagons_of_6n2_triangles() {
        for (id, cells, extent) in [
            ("trigon", 486, (35, 18)),
            ("trigon_2", 486, (35, 18)),
            ("trigon_3", 384, (31, 16)),
        ] {
            let v = Variant::builtin(id).unwrap();
            assert_eq!(v.num_cells(), cells, "{id}");
            assert_eq!(v.extent(), extent, "{id}");
            assert_eq!(v.start_points[0].count(), 6, "{id}");
            assert!(
                v.start_points.iter().all(|s| *s == v.start_points[0]),
                "{id}"
            );
        }
    }

    #[test]
    fn trigon_directions_follow_the_parity_rule_of_each_board() {
        // docs/RULES.md: with r the 1-based row, up iff x + r is even on edge 9, odd on edge 8.
        for (id, up_parity) in [("trigon", 0), ("trigon_3", 1)] {
            let v = Variant::builtin(id).unwrap();
            for &c in &v.cells {
                let up = (c[0] + c[1] + 1).rem_euclid(2) == up_parity;
                assert_eq!(v.geometry.points_up(c), Some(up), "{id} {c:?}");
            }
        }
        let v = Variant::builtin("trigon").unwrap();
        assert_eq!(
            v.parse_cell("a9").map(|c| v.cell_name(c)),
            Some("a9".into())
        );
        assert_eq!(
            v.parse_cell("AI10").map(|c| v.cell_name(c)),
            Some("ai10".into())
        );
        assert_eq!(v.parse_cell("a1"), None);
        assert_eq!(v.parse_cell("aj9"), None);
    }

    #[test]
    fn triangle_specs_are_validated() {
        let start = r#""r15""#;
        assert!(spec_error(r#"{"geometry": "triangle"}"#, start).contains("needs edge"));
        assert!(spec_error(r#"{"geometry": "triangle", "edge": 10}"#, start)
            .contains("10 is not from 1 to 9"));
        assert!(spec_error(r#"{"geometry": "triangle", "edge": 0}"#, start)
            .contains("0 is not from 1 to 9"));
        assert!(spec_error(
            r#"{"geometry": "triangle", "edge": 9, "width": 20, "height": 20}"#,
            start
        )
        .contains("not width and height"));
        assert!(spec_error(
            r#"{"geometry": "square", "width": 9, "height": 9, "edge": 9}"#,
            start
        )
        .contains("only triangle boards have an edge"));
        assert_eq!(
            spec_error(
                r#"{"geometry": "triangle", "edge": 9, "holes": ["a1"]}"#,
                start
            ),
            "board.holes: a1 is off the hexagon of edge 9"
        );
        assert_eq!(
            spec_error(r#"{"geometry": "triangle", "edge": 8}"#, r#""a16""#),
            "shared_start_points: a16 is off the board"
        );
        assert!(spec_error(r#"{"geometry": "hex", "edge": 8}"#, start)
            .contains("known: square, triangle"));
    }

    #[test]
    fn lists_are_measured_before_they_are_read() {
        let square = r#"{"geometry": "square", "width": 3, "height": 3, "holes": HOLES}"#;
        let holes = |names: &[&str]| {
            let list: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
            square.replace("HOLES", &format!("[{}]", list.join(",")))
        };
        assert_eq!(
            spec_error(&holes(&["a1"; 10]), r#""c3""#),
            "board.holes: 10 holes, but the 3x3 board has only 9 cells"
        );
        assert_eq!(
            spec_error(&holes(&["a1", "b1", "a1"]), r#""c3""#),
            "board.holes: a1 is listed twice"
        );
        let board = r#"{"geometry": "square", "width": 3, "height": 3}"#;
        let many = [r#""c3""#; 10].join(",");
        assert_eq!(
            spec_error(board, &many),
            "shared_start_points: 10 start points, but the board has only 9 cells"
        );
        assert_eq!(
            spec_error(board, r#""c3", "a1", "c3""#),
            "shared_start_points: c3 is listed twice"
        );
    }

    #[test]
    fn tables_are_objects_and_names_are_strings() {
        let spec = |extra: &str| {
            format!(
                r#"{{"id": "t", "board": {{"geometry": "square", "width": 3, "height": 3}},
                    "colors": ["Blue"], "players": [[0]], "shared_start_points": ["a1"],
                    "pieces": {{}}{extra}}}"#
            )
        };
        let error = |extra: &str| Variant::from_json(&spec(extra)).unwrap_err();
        let e = error(r#", "bonus": [1, 2]"#);
        assert_eq!(
            (e.field.as_str(), e.message.as_str()),
            (
                "bonus",
                "expected a table (an object) of fields, found a list"
            )
        );
        assert_eq!(error(r#", "scoring": 1"#).field, "scoring");
        assert_eq!(
            error(r#", "scoring": "fancy""#).to_string(),
            r#"scoring: unknown value "fancy" (known: advanced, basic)"#
        );
        assert_eq!(
            error(r#", "bonus": {"all_placed": 1001}"#).to_string(),
            "bonus.all_placed: 1001 points; a bonus is 0 to 1000 points"
        );
        assert!(Variant::from_json(&spec(r#", "bonus": {"all_placed": 1000}"#)).is_ok());
        assert_eq!(Variant::from_json("[]").unwrap_err().field, "");
        let long = format!(r#", "name": "{}""#, "n".repeat(10_000));
        assert!(error(&long).to_string().len() < 250);
    }

    #[test]
    fn a_small_hexagon_with_holes_and_some_pieces_is_a_variant() {
        let json = r#"{"id": "tiny", "board": {"geometry": "triangle", "edge": 2, "holes": ["d2"]},
            "colors": ["Blue", "Yellow"], "players": [[0], [1]],
            "shared_start_points": ["c1", "e4"], "pieces": {"only": ["1", "2", "I3"]}}"#;
        let v = Variant::from_json(json).unwrap();
        assert_eq!(v.num_cells(), 6 * 2 * 2 - 1);
        assert_eq!(v.geometry, Geometry::Triangle { odd_up: false });
        assert_eq!(v.pieces.len(), 3);
        assert!(v.parse_cell("d2").is_none());
        // 23 monominoes; 30 inner edges of the hexagon less the 3 of the hole, one domino each.
        let t = crate::Tables::new(v);
        let per_piece = |p: u8| t.placements.list.iter().filter(|pl| pl.piece == p).count();
        assert_eq!((per_piece(0), per_piece(1)), (23, 27));
    }
}
