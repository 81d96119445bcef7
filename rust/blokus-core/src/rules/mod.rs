//! The rules, once: what makes a placement legal, why one is not, how a placement changes the
//! position, how points are counted and whose turn it is. One module per rule family ([`corner`]
//! for the flat boards, [`stacking`] for Blokus 3D), written to be read beside docs/RULES.md;
//! the move generators (`crate::movegen`) are the fast form of the same rules and are tested
//! against the reference generator (`crate::reference`), which is written from docs/RULES.md alone.

pub(crate) mod corner;
pub(crate) mod score;
pub(crate) mod stacking;
pub(crate) mod turn;

use crate::placement::footprint::{Footprint, Footprints};
use crate::placement::Placement;
use crate::position::{Common, Position, RuleState};
use crate::variant::{Rules, Scoring, Variant};

use stacking::StackCells;

/// Why a placement is not legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// Nobody can move any more.
    GameOver,
    /// The colour has no copy of the piece left.
    PieceUsed {
        /// Piece index.
        piece: usize,
    },
    /// A cell is already covered.
    Overlap {
        /// The first covered cell.
        cell: usize,
    },
    /// A cell shares an edge with the colour's own pieces.
    OwnEdge {
        /// The first such cell.
        cell: usize,
    },
    /// The first piece covers no start point available to the colour.
    NoStartPoint,
    /// The piece touches no piece of its colour at a corner.
    NoCornerContact,
    /// A cube would have an empty cell beneath it (stacking rule).
    Unsupported {
        /// The first such cube.
        cell: usize,
    },
    /// The piece shares no face with a cube of its colour (stacking rule).
    NoFaceContact,
    /// A first piece (not colour 0's) shares no face with any cube on the board (stacking rule).
    FirstNotTouching,
    /// A first piece (not colour 0's) has no cube on level 1 (stacking rule).
    FirstOffGround,
}

impl Illegal {
    /// The rule broken, in words, naming cells by their board names.
    pub fn describe(&self, v: &Variant) -> String {
        match self {
            Illegal::GameOver => "the game is over".to_string(),
            Illegal::PieceUsed { piece } => {
                format!("piece {} is already used", v.pieces[*piece].name)
            }
            Illegal::Overlap { cell } => {
                format!("overlap: {} is already covered", v.cell_name(*cell))
            }
            Illegal::OwnEdge { cell } => format!(
                "own edge: {} shares an edge with a piece of the same colour",
                v.cell_name(*cell)
            ),
            Illegal::NoStartPoint => {
                "no start point: a colour's first piece must cover a free start point".to_string()
            }
            Illegal::NoCornerContact => {
                "no corner contact: the piece must touch its own colour at a corner".to_string()
            }
            Illegal::Unsupported { cell } => format!(
                "unsupported: the cell beneath {} is empty",
                v.cell_name(*cell)
            ),
            Illegal::NoFaceContact => {
                "no face contact: the piece must share a face with a cube of its colour".to_string()
            }
            Illegal::FirstNotTouching => {
                "first piece not touching: it must share a face with a cube already placed"
                    .to_string()
            }
            Illegal::FirstOffGround => {
                "first piece off the ground: it must have a cube on level 1".to_string()
            }
        }
    }

    /// A short stable name of the rule (`overlap`, `own_edge`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            Illegal::GameOver => "game_over",
            Illegal::PieceUsed { .. } => "piece_used",
            Illegal::Overlap { .. } => "overlap",
            Illegal::OwnEdge { .. } => "own_edge",
            Illegal::NoStartPoint => "no_start_point",
            Illegal::NoCornerContact => "no_corner_contact",
            Illegal::Unsupported { .. } => "unsupported",
            Illegal::NoFaceContact => "no_face_contact",
            Illegal::FirstNotTouching => "first_not_touching",
            Illegal::FirstOffGround => "first_off_ground",
        }
    }

    /// The cell the rule is broken at, where there is one.
    pub fn cell(&self) -> Option<usize> {
        match *self {
            Illegal::Overlap { cell }
            | Illegal::OwnEdge { cell }
            | Illegal::Unsupported { cell } => Some(cell),
            _ => None,
        }
    }
}

impl std::fmt::Display for Illegal {
    /// The rule broken, with cells by number ([`Illegal::describe`] names them).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.kind())?;
        match self.cell() {
            Some(cell) => write!(f, " at cell {cell}"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for Illegal {}

/// What a variant's rule family needs beyond the placements: nothing for the corner rule, how
/// cells stack for the stacking rule.
#[derive(Debug)]
pub(crate) enum RuleTables {
    Corner,
    Stacking(StackCells),
}

impl RuleTables {
    pub(crate) fn new(v: &Variant) -> RuleTables {
        match v.rules {
            Rules::Corner => RuleTables::Corner,
            Rules::Stacking { .. } => RuleTables::Stacking(StackCells::new(v)),
        }
    }

    /// The empty board, nobody to move yet.
    pub(crate) fn empty(&self, v: &Variant) -> Position {
        let rules = match self {
            RuleTables::Corner => RuleState::Corner(corner::start(v)),
            RuleTables::Stacking(cells) => RuleState::Stacking(stacking::start(cells)),
        };
        Position {
            common: Common::empty(v),
            rules,
        }
    }

    /// Why placement `p` is not legal for the colour to move, or `None`.
    pub(crate) fn why_illegal(&self, pos: &Position, p: &Placement) -> Option<Illegal> {
        let Some(c) = pos.turn() else {
            return Some(Illegal::GameOver);
        };
        if pos.common.left[c][p.piece()] == 0 {
            return Some(Illegal::PieceUsed { piece: p.piece() });
        }
        match (self, &pos.rules) {
            (RuleTables::Corner, RuleState::Corner(s)) => {
                corner::why_illegal(&pos.common, s, c, &p.mask)
            }
            (RuleTables::Stacking(cells), RuleState::Stacking(s)) => {
                stacking::why_illegal(cells, &pos.common, s, c, p.cells(), &p.mask)
            }
            _ => unreachable!("a position is of the rules it was made by"),
        }
    }

    /// Colour `c` puts placement `fp` down (legal or not: setups come here too); the turn is
    /// the caller's.
    #[inline(always)]
    pub(crate) fn place(
        &self,
        footprints: &Footprints,
        num_colors: usize,
        pos: &mut Position,
        c: usize,
        fp: &Footprint<'_>,
    ) {
        let masks = footprints.masks(fp);
        match (self, &mut pos.rules) {
            (RuleTables::Corner, RuleState::Corner(s)) => {
                corner::place(
                    &mut pos.common,
                    s,
                    num_colors,
                    c,
                    fp.piece,
                    fp.cells,
                    &masks,
                );
            }
            (RuleTables::Stacking(cells), RuleState::Stacking(s)) => {
                stacking::place(cells, &mut pos.common, s, c, fp.piece, fp.cells, &masks);
            }
            _ => unreachable!("a position is of the rules it was made by"),
        }
    }

    /// Points of each colour. Blokus 3D has one way to count and ignores `scoring`.
    pub(crate) fn points(&self, v: &Variant, pos: &Position, scoring: Scoring) -> Vec<i32> {
        match (self, &pos.rules) {
            (RuleTables::Stacking(cells), RuleState::Stacking(s)) => {
                stacking::points(v, cells, &pos.common, s)
            }
            _ => corner::points(v, &pos.common, scoring),
        }
    }

    /// The stacking cells, under the stacking rule.
    pub(crate) fn stack_cells(&self) -> Option<&StackCells> {
        match self {
            RuleTables::Stacking(cells) => Some(cells),
            RuleTables::Corner => None,
        }
    }
}
