//! A game in progress: the position, the moves played, and undo by snapshot.

use std::sync::Arc;

use crate::notation::{move_text, parse_move, MoveTextError};
use crate::position::{Illegal, Position, NO_COLOR};
use crate::rng::Rng;
use crate::score;
use crate::setup::{Setup, SetupError};
use crate::table::Tables;
use crate::variant::Scoring;

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

/// A game: tables, the current position, the history needed to undo, and the pieces of the
/// setup it started from (the position alone does not say where the pieces of Blokus 3D are).
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

    /// A game that starts from a setup (checked by [`Position::from_setup`]) instead of the
    /// empty board.
    ///
    /// ```
    /// use blokus_core::{tables, Board, Setup, SetupTurn};
    /// let t = tables("3d_tower").unwrap();
    /// let ids = |texts: &[&str]| -> Vec<u32> {
    ///     texts.iter().map(|m| blokus_core::notation::parse_move(&t, m).unwrap()).collect()
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

    /// Placement ids of each colour's pieces on the board, in the order they were put down:
    /// the setup's, then the moves played; each colour's last piece comes last.
    pub fn placements(&self) -> Vec<Vec<u32>> {
        let mut out = self.setup.clone();
        for (before, id) in &self.history {
            out[before.to_move as usize].push(*id);
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
        (self.position.to_move != NO_COLOR).then_some(self.position.to_move as usize)
    }

    /// The player who moves the colour to move.
    pub fn player(&self) -> Option<usize> {
        let c = self.turn()?;
        Some(
            self.tables
                .variant
                .player_of(c, self.position.placed[c] as usize),
        )
    }

    /// Moves played so far, as placement ids.
    pub fn moves(&self) -> impl Iterator<Item = u32> + '_ {
        self.history.iter().map(|(_, id)| *id)
    }

    /// Colours of the moves played so far.
    pub fn move_colors(&self) -> impl Iterator<Item = usize> + '_ {
        self.history.iter().map(|(p, _)| p.to_move as usize)
    }

    /// Number of moves played.
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// Legal placements of the colour to move.
    pub fn legal_moves(&self) -> Vec<u32> {
        self.position.legal_moves(&self.tables)
    }

    /// Number of legal placements.
    pub fn count_moves(&self) -> usize {
        self.position.count_moves(&self.tables)
    }

    /// A uniformly random legal placement, without building the list.
    pub fn sample_move(&self, rng: &mut Rng) -> Option<u32> {
        let n = self.count_moves();
        if n == 0 {
            return None;
        }
        self.position
            .nth_move(&self.tables, rng.below(n as u64) as usize)
    }

    /// Why a placement is illegal here, or `None`.
    pub fn why_illegal(&self, id: u32) -> Result<Option<Illegal>, PlayError> {
        self.check_id(id)?;
        Ok(self.position.why_illegal(&self.tables, id))
    }

    fn check_id(&self, id: u32) -> Result<(), PlayError> {
        if (id as usize) < self.tables.num_placements() {
            Ok(())
        } else {
            Err(PlayError::UnknownId(id))
        }
    }

    /// Plays a placement if it is legal.
    pub fn play(&mut self, id: u32) -> Result<(), PlayError> {
        self.check_id(id)?;
        if let Some(reason) = self.position.why_illegal(&self.tables, id) {
            return Err(PlayError::Illegal { id, reason });
        }
        self.play_unchecked(id);
        Ok(())
    }

    /// Plays a placement known to be legal (from the move generator).
    pub fn play_unchecked(&mut self, id: u32) {
        self.history.push((self.position, id));
        self.position.play(&self.tables, id);
    }

    /// Plays move text.
    pub fn play_text(&mut self, text: &str) -> Result<u32, PlayError> {
        let id = parse_move(&self.tables, text).map_err(PlayError::Text)?;
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
        move_text(&self.tables, id)
    }

    /// Points per colour under a scoring style.
    pub fn points(&self, scoring: Scoring) -> Vec<i32> {
        score::points(&self.tables, &self.position, scoring)
    }

    /// Pentobi's result line (advanced points).
    pub fn result_line(&self) -> String {
        score::result_line(&self.tables, &self.points(Scoring::Advanced))
    }

    /// perft from the current position.
    pub fn perft(&self, depth: u32) -> u64 {
        self.position.perft(&self.tables, depth)
    }
}
