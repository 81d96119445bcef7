//! A game in progress: the position, the moves played, and undo by snapshot.

use std::sync::Arc;

use crate::movegen::Scratch;
use crate::notation::MoveTextError;
use crate::position::Position;
use crate::rng::Rng;
use crate::rules::score;
use crate::rules::Illegal;
use crate::tables::Tables;
use crate::variant::Scoring;

use super::setup::{Setup, SetupError};

/// Why a move could not be played. The board is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The text names no placement.
    Text(MoveTextError),
    /// The id is not a placement of this variant.
    UnknownId(u32),
    /// The placement is not legal here.
    Illegal {
        /// The placement.
        id: u32,
        /// The rule it breaks.
        reason: Illegal,
    },
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::Text(e) => write!(f, "invalid move text: {e}"),
            PlayError::UnknownId(id) => write!(f, "no placement {id}"),
            PlayError::Illegal { id, reason } => write!(f, "illegal move {id}: {reason}"),
        }
    }
}

impl std::error::Error for PlayError {}

/// A game: its tables, the current position, the history needed to undo, and the pieces of the
/// setup it started from (the position alone does not say where the pieces of Blokus 3D are).
///
/// ```
/// use blokus_core::{tables, Board};
/// let mut board = Board::new(tables("duo").unwrap());
/// assert_eq!(board.count_moves(), 414);
/// board.play_text("j5").unwrap_err(); // colour 0 starts at e10, not j5
/// let id = board.play_text("d10,e10").unwrap();
/// assert_eq!(board.turn(), Some(1));
/// assert_eq!(board.undo(), Some(id));
/// ```
#[derive(Clone, Debug)]
pub struct Board {
    tables: Arc<Tables>,
    position: Position,
    history: Vec<(Position, u32)>,
    setup: Vec<Vec<u32>>,
}

impl Board {
    /// The empty board of a variant.
    pub fn new(tables: Arc<Tables>) -> Board {
        let position = Position::start(&tables);
        let setup = vec![Vec::new(); tables.variant.num_colors()];
        Board {
            tables,
            position,
            history: Vec::new(),
            setup,
        }
    }

    /// A game that starts from a setup (checked: see [`Setup`]) instead of the empty board.
    ///
    /// ```
    /// use blokus_core::{tables, Board, Setup, SetupTurn};
    /// let t = tables("3d_tower").unwrap();
    /// let ids = |texts: &[&str]| -> Vec<u32> {
    ///     texts.iter().map(|m| t.parse_move(m).unwrap()).collect()
    /// };
    /// // Yellow's cube rests on Blue's: listed first all the same.
    /// let setup = Setup {
    ///     placements: vec![ids(&["a1@1,b1@1"]), ids(&["a1@2,a2@1,a2@2"])],
    ///     turn: SetupTurn::Color(2),
    ///     out: 0,
    /// };
    /// let board = Board::from_setup(t.clone(), &setup).unwrap();
    /// assert_eq!(board.turn(), Some(2));
    /// assert_eq!(board.placements()[1], ids(&["a1@2,a2@1,a2@2"]));
    /// ```
    pub fn from_setup(tables: Arc<Tables>, setup: &Setup) -> Result<Board, SetupError> {
        let position = Position::from_setup(&tables, setup)?;
        let mut pieces = setup.placements.clone();
        pieces.resize(tables.variant.num_colors(), Vec::new());
        Ok(Board {
            tables,
            position,
            history: Vec::new(),
            setup: pieces,
        })
    }

    /// The position the game started from: the empty board, or a setup.
    pub fn start_position(&self) -> &Position {
        self.history.first().map_or(&self.position, |(p, _)| p)
    }

    /// The game at its start (the empty board or its setup), without the moves.
    pub fn start(&self) -> Board {
        Board {
            tables: Arc::clone(&self.tables),
            position: *self.start_position(),
            history: Vec::new(),
            setup: self.setup.clone(),
        }
    }

    /// Whether the game started from a setup rather than the empty board.
    pub fn has_setup(&self) -> bool {
        *self.start_position() != Position::start(&self.tables)
    }

    /// Placement ids of each colour's pieces on the board, in the order they were put down:
    /// the setup's, then the moves played; each colour's last piece comes last.
    pub fn placements(&self) -> Vec<Vec<u32>> {
        let mut out = self.setup.clone();
        for (before, id) in &self.history {
            out[usize::from(before.common.to_move)].push(*id);
        }
        out
    }

    /// The tables.
    pub fn tables(&self) -> &Arc<Tables> {
        &self.tables
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The colour to move, or `None` at the end.
    pub fn turn(&self) -> Option<usize> {
        self.position.turn()
    }

    /// The player who moves the colour to move.
    pub fn player(&self) -> Option<usize> {
        let c = self.turn()?;
        Some(self.tables.variant.player_of(c, self.position.placed(c)))
    }

    /// Moves played so far, as placement ids.
    pub fn moves(&self) -> impl Iterator<Item = u32> + '_ {
        self.history.iter().map(|(_, id)| *id)
    }

    /// Colours of the moves played so far.
    pub fn move_colors(&self) -> impl Iterator<Item = usize> + '_ {
        self.history
            .iter()
            .map(|(p, _)| usize::from(p.common.to_move))
    }

    /// Number of moves played.
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// Legal placements of the colour to move.
    pub fn legal_moves(&self) -> Vec<u32> {
        self.position.legal_moves(&self.tables)
    }

    /// Appends the legal placements of the colour to move to `out`.
    pub fn legal_moves_into(&self, out: &mut Vec<u32>) {
        self.position.legal_moves_into(&self.tables, out);
    }

    /// Calls `f` with every legal placement of the colour to move; stops when `f` returns
    /// `false`.
    pub fn for_each_move(&self, f: impl FnMut(u32) -> bool) {
        if let Some(c) = self.turn() {
            self.tables.generator.for_each_move(&self.position, c, f);
        }
    }

    /// Whether `color` has a legal placement here (whether or not it is its turn; in Blokus 3D
    /// an out colour may have one and still never move again).
    pub fn has_move(&self, color: usize) -> bool {
        color < self.tables.variant.num_colors() && self.position.has_move(&self.tables, color)
    }

    /// Number of legal placements.
    pub fn count_moves(&self) -> usize {
        self.position.count_moves(&self.tables)
    }

    /// A uniformly random legal placement, without building the list.
    pub fn sample_move(&self, rng: &mut Rng) -> Option<u32> {
        self.position
            .sample_move(&self.tables, rng, &mut Scratch::default())
    }

    /// Why a placement is illegal here, or `None`.
    pub fn why_illegal(&self, id: u32) -> Result<Option<Illegal>, PlayError> {
        self.check_id(id)?;
        Ok(self.position.why_illegal(&self.tables, id))
    }

    /// Whether a placement is legal here (an id that is no placement is not).
    pub fn is_legal(&self, id: u32) -> bool {
        matches!(self.why_illegal(id), Ok(None))
    }

    fn check_id(&self, id: u32) -> Result<(), PlayError> {
        if (id as usize) < self.tables.num_placements() {
            Ok(())
        } else {
            Err(PlayError::UnknownId(id))
        }
    }

    /// Plays a placement if it is legal; otherwise the board is unchanged.
    pub fn play(&mut self, id: u32) -> Result<(), PlayError> {
        self.check_id(id)?;
        if let Some(reason) = self.position.why_illegal(&self.tables, id) {
            return Err(PlayError::Illegal { id, reason });
        }
        self.play_unchecked(id);
        Ok(())
    }

    /// Plays a placement without checking it: `id` must be legal here, as every id the move
    /// generator gives is ([`Board::legal_moves`], [`Board::sample_move`]). An illegal one
    /// leaves a board the rules cannot reach.
    pub fn play_unchecked(&mut self, id: u32) {
        self.history.push((self.position, id));
        self.position.play_unchecked(&self.tables, id);
    }

    /// Plays move text.
    pub fn play_text(&mut self, text: &str) -> Result<u32, PlayError> {
        let id = self.tables.parse_move(text).map_err(PlayError::Text)?;
        self.play(id)?;
        Ok(id)
    }

    /// Takes back the last move; `None` if there is none.
    pub fn undo(&mut self) -> Option<u32> {
        let (pos, id) = self.history.pop()?;
        self.position = pos;
        Some(id)
    }

    /// Canonical text of a placement.
    pub fn move_text(&self, id: u32) -> String {
        self.tables.move_text(id)
    }

    /// Points per colour under a scoring style (Blokus 3D has one way to count).
    pub fn points(&self, scoring: Scoring) -> Vec<i32> {
        self.tables
            .rules
            .points(&self.tables.variant, &self.position, scoring)
    }

    /// Score per player, in the variant's scoring.
    pub fn scores(&self) -> Vec<i32> {
        let v = &self.tables.variant;
        score::scores(v, &self.points(v.scoring))
    }

    /// The players with the best score (all of them on a tie).
    pub fn winners(&self) -> Vec<usize> {
        score::winners(&self.scores())
    }

    /// Pentobi's result line (advanced points).
    pub fn result_line(&self) -> String {
        score::result_line(&self.tables.variant, &self.points(Scoring::Advanced))
    }

    /// The colour on each cell, by cell number.
    pub fn cell_colors(&self) -> Vec<Option<usize>> {
        (0..self.tables.variant.num_cells())
            .map(|cell| self.position.color_at(cell))
            .collect()
    }

    /// Blokus 3D: the number of cubes in each column, in column order (the ground layer's
    /// cells); empty on flat boards.
    pub fn heights(&self) -> Vec<u8> {
        self.tables.rules.stack_cells().map_or(Vec::new(), |cells| {
            cells.heights(&self.position.common.occupied)
        })
    }

    /// Blokus 3D: the top cube (a cell) of each column, `None` for an empty column, in column
    /// order; empty on flat boards.
    pub fn top_cubes(&self) -> Vec<Option<usize>> {
        self.tables.rules.stack_cells().map_or(Vec::new(), |cells| {
            cells.tops(&self.position.common.occupied)
        })
    }

    /// Blokus 3D: the colour of each column's top cube (`None` for an empty column), in column
    /// order; empty on flat boards.
    pub fn top_colors(&self) -> Vec<Option<usize>> {
        self.top_cubes()
            .into_iter()
            .map(|top| top.and_then(|c| self.position.color_at(c)))
            .collect()
    }

    /// Number of move sequences of length `depth` from the current position.
    pub fn perft(&self, depth: u32) -> u64 {
        self.perft_until(depth, &mut || true)
            .expect("a count that is never stopped finishes")
    }

    /// [`Board::perft`] that asks `go_on` now and then whether to continue, and is `None` if
    /// it was told to stop (for a caller that must answer an interrupt).
    pub fn perft_until(&self, depth: u32, go_on: &mut dyn FnMut() -> bool) -> Option<u64> {
        self.position.perft(&self.tables, depth, go_on)
    }

    /// Perft split by first move: each legal move with the number of move sequences of length
    /// `depth` that start with it (`perft(depth - 1)` after it), sorted by placement id; the
    /// counts add up to [`Board::perft`]. What an author of another generator compares first
    /// when a count disagrees. Empty at depth 0 and when the game is over.
    ///
    /// ```
    /// use blokus_core::{tables, Board};
    /// let board = Board::new(tables("duo").unwrap());
    /// let divide = board.perft_divide(2);
    /// assert_eq!(divide.len(), 414);
    /// assert_eq!(divide.iter().map(|&(_, n)| n).sum::<u64>(), board.perft(2));
    /// ```
    pub fn perft_divide(&self, depth: u32) -> Vec<(u32, u64)> {
        self.perft_divide_until(depth, &mut || true)
            .expect("a count that is never stopped finishes")
    }

    /// [`Board::perft_divide`] that asks `go_on` now and then whether to continue, and is
    /// `None` if it was told to stop.
    pub fn perft_divide_until(
        &self,
        depth: u32,
        go_on: &mut dyn FnMut() -> bool,
    ) -> Option<Vec<(u32, u64)>> {
        let mut out = self.position.perft_divide(&self.tables, depth, go_on)?;
        out.sort_unstable();
        Some(out)
    }
}
