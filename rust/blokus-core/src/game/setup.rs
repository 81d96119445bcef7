//! Setup positions: pieces put on the board as they are, not played by the rules of play, as in
//! the setup properties of SGF files and in position strings.
//!
//! A setup may put any piece anywhere on free cells, but it must still describe a board of the
//! game: no two pieces overlap and a colour has no more copies of a piece than the variant gives
//! it. Each rule family adds what its boards always have:
//!
//! - the corner rule: no two pieces of one colour share an edge (so each piece is one
//!   edge-connected group of its colour's cells, and the cells alone say where the pieces are);
//! - the stacking rule (Blokus 3D): nothing empty beneath a cube (the board is a height map).
//!   Pieces of one colour share faces there, so the cells do not say where the pieces are: a
//!   setup lists them, and a [`crate::Board`] remembers them.
//!
//! The order of the pieces does not matter, except that a colour's last piece comes last: a
//! cube may be listed before the one it rests on.

use crate::bits::Bits;
use crate::position::{Position, RuleState};
use crate::tables::Tables;

/// Who is to move in a setup position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupTurn {
    /// Exactly this colour, which must be able to move and must not be out.
    Color(usize),
    /// This colour if it can move, else the first colour after it that can; nobody if none can.
    FirstFrom(usize),
    /// Nobody: the game is over, so no colour may have a legal move.
    GameOver,
}

/// A position to set up: the pieces of each colour, whose turn it is, and which colours are out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Placement ids of each colour, in the order they are put down; the last one of a colour is
    /// its last piece (which decides the bonus for ending on the 1-cell piece).
    pub placements: Vec<Vec<u32>>,
    /// Who is to move.
    pub turn: SetupTurn,
    /// Bit `c` set when colour `c` is already out of the game. Under the corner rule (and under
    /// the stacking rule with blocked colours skipped) it must have no legal move; under the
    /// stacking rule with knock-out it may have one: it could not move on an earlier turn, and
    /// stays out even though room has opened since.
    pub out: u8,
}

/// Why a setup describes no position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// More colours than the variant has.
    TooManyColors {
        /// The number of colours given.
        given: usize,
    },
    /// A colour number the variant does not have.
    NoColor {
        /// The colour number.
        color: usize,
    },
    /// An id that is no placement of the variant.
    NoPlacement {
        /// The colour.
        color: usize,
        /// Index in the colour's list.
        index: usize,
        /// The id.
        id: u32,
    },
    /// A colour would use more copies of a piece than it has.
    TooManyCopies {
        /// The colour.
        color: usize,
        /// Index in the colour's list of the placement that is one too many.
        index: usize,
        /// The piece.
        piece: usize,
    },
    /// A piece covers a cell that is already covered.
    Overlap {
        /// The colour.
        color: usize,
        /// Index in the colour's list.
        index: usize,
        /// The first covered cell.
        cell: usize,
    },
    /// A piece shares an edge with another piece of its colour.
    OwnEdge {
        /// The colour.
        color: usize,
        /// Index in the colour's list.
        index: usize,
        /// The first cell sharing an edge.
        cell: usize,
    },
    /// A cube has an empty cell beneath it (stacking rule).
    Unsupported {
        /// The colour.
        color: usize,
        /// Index in the colour's list.
        index: usize,
        /// The first such cube.
        cell: usize,
    },
    /// A colour is listed as out where blocked colours are only skipped (stacking rule with
    /// `blocked = skip`): nobody is out before the game is over.
    NeverOut {
        /// The colour.
        color: usize,
    },
    /// The colour to move has no legal move.
    CannotMove {
        /// The colour.
        color: usize,
    },
    /// The colour to move is listed as out.
    ToMoveIsOut {
        /// The colour.
        color: usize,
    },
    /// A colour listed as out can still move.
    CanMove {
        /// The colour.
        color: usize,
    },
    /// The game is said to be over, but a colour can still move.
    NotOver {
        /// The first colour that can move.
        color: usize,
    },
}

impl SetupError {
    /// The colour and list index of the placement at fault, if one is.
    pub fn placement(&self) -> Option<(usize, usize)> {
        match *self {
            SetupError::NoPlacement { color, index, .. }
            | SetupError::TooManyCopies { color, index, .. }
            | SetupError::Overlap { color, index, .. }
            | SetupError::OwnEdge { color, index, .. }
            | SetupError::Unsupported { color, index, .. } => Some((color, index)),
            _ => None,
        }
    }

    /// The colour the problem is about, if one is.
    pub fn color(&self) -> Option<usize> {
        match *self {
            SetupError::TooManyColors { .. } => None,
            SetupError::NoColor { color }
            | SetupError::NoPlacement { color, .. }
            | SetupError::TooManyCopies { color, .. }
            | SetupError::Overlap { color, .. }
            | SetupError::OwnEdge { color, .. }
            | SetupError::Unsupported { color, .. }
            | SetupError::NeverOut { color }
            | SetupError::CannotMove { color }
            | SetupError::ToMoveIsOut { color }
            | SetupError::CanMove { color }
            | SetupError::NotOver { color } => Some(color),
        }
    }

    /// A short stable name of the problem (`overlap`, `own_edge`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            SetupError::TooManyColors { .. } => "too_many_colors",
            SetupError::NoColor { .. } => "no_color",
            SetupError::NoPlacement { .. } => "no_placement",
            SetupError::TooManyCopies { .. } => "too_many_copies",
            SetupError::Overlap { .. } => "overlap",
            SetupError::OwnEdge { .. } => "own_edge",
            SetupError::Unsupported { .. } => "unsupported",
            SetupError::NeverOut { .. } => "never_out",
            SetupError::CannotMove { .. } => "cannot_move",
            SetupError::ToMoveIsOut { .. } => "to_move_is_out",
            SetupError::CanMove { .. } => "can_move",
            SetupError::NotOver { .. } => "not_over",
        }
    }

    /// What is wrong, in words, naming colours, pieces and cells.
    pub fn describe(&self, t: &Tables) -> String {
        let v = &t.variant;
        let color = |c: usize| v.colors.get(c).map_or(format!("colour {c}"), Clone::clone);
        let piece = |color: usize, index: usize| -> String {
            format!(
                "{} piece {}",
                self::ordinal(index + 1),
                color_name(t, color)
            )
        };
        match *self {
            SetupError::TooManyColors { given } => format!(
                "pieces given for {given} colours, but {} has {}",
                v.id,
                v.num_colors()
            ),
            SetupError::NoColor { color } => {
                format!(
                    "{} has no colour {color} (colours are 0..{})",
                    v.id,
                    v.num_colors() - 1
                )
            }
            SetupError::NoPlacement { color, index, id } => format!(
                "{}: no placement {id} in {} (ids are 0..{})",
                piece(color, index),
                v.id,
                t.num_placements() - 1
            ),
            SetupError::TooManyCopies {
                color: c,
                index,
                piece: p,
            } => {
                let copies = v.pieces[p].copies;
                format!(
                    "{}: {} has only {copies} {} of piece {}",
                    piece(c, index),
                    color(c),
                    if copies == 1 { "copy" } else { "copies" },
                    v.pieces[p].name
                )
            }
            SetupError::Overlap { color, index, cell } => format!(
                "{}: {} is already covered",
                piece(color, index),
                v.cell_name(cell)
            ),
            SetupError::OwnEdge {
                color: c,
                index,
                cell,
            } => format!(
                "{}: {} shares an edge with another piece of {}",
                piece(c, index),
                v.cell_name(cell),
                color(c)
            ),
            SetupError::Unsupported { color, index, cell } => {
                let below = t
                    .rules
                    .stack_cells()
                    .and_then(|cells| cells.below(cell))
                    .map_or(String::new(), |b| format!(" ({} is empty)", v.cell_name(b)));
                format!(
                    "{}: nothing beneath {}{below}",
                    piece(color, index),
                    v.cell_name(cell)
                )
            }
            SetupError::NeverOut { color: c } => format!(
                "{} is listed as out, but {} skips a blocked colour instead: nobody is out \
                 before the game is over",
                color(c),
                v.id
            ),
            SetupError::CannotMove { color: c } => {
                format!("{} is to move but has no legal move", color(c))
            }
            SetupError::ToMoveIsOut { color: c } => {
                format!("{} is to move but is listed as out", color(c))
            }
            SetupError::CanMove { color: c } => {
                format!("{} is listed as out but has a legal move", color(c))
            }
            SetupError::NotOver { color: c } => {
                format!(
                    "the game is said to be over, but {} has a legal move",
                    color(c)
                )
            }
        }
    }
}

impl std::fmt::Display for SetupError {
    /// What is wrong, with colours, pieces and cells by number ([`SetupError::describe`] names
    /// them).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.kind())?;
        if let Some((color, index)) = self.placement() {
            write!(f, ": placement {index} of colour {color}")
        } else if let Some(color) = self.color() {
            write!(f, ": colour {color}")
        } else {
            Ok(())
        }
    }
}

impl std::error::Error for SetupError {}

fn color_name(t: &Tables, c: usize) -> String {
    t.variant
        .colors
        .get(c)
        .map_or(format!("of colour {c}"), |name| format!("of {name}"))
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

impl Position {
    /// The position a setup describes, checked: pieces on free cells, no more copies than the
    /// variant gives, what the variant's rule family demands of every board (see the module
    /// docs), out colours as the rules allow, and a colour to move that can move (or no moves
    /// left at all when the game is said to be over).
    pub(crate) fn from_setup(t: &Tables, setup: &Setup) -> Result<Position, SetupError> {
        let n = t.variant.num_colors();
        let rules = t.variant.rules;
        if setup.placements.len() > n {
            return Err(SetupError::TooManyColors {
                given: setup.placements.len(),
            });
        }
        let mut pos = t.rules.empty(&t.variant);
        for (color, ids) in setup.placements.iter().enumerate() {
            for (index, &id) in ids.iter().enumerate() {
                let Some(p) = t.placement(id) else {
                    return Err(SetupError::NoPlacement { color, index, id });
                };
                let piece = p.piece();
                if pos.common.left[color][piece] == 0 {
                    return Err(SetupError::TooManyCopies {
                        color,
                        index,
                        piece,
                    });
                }
                if let Some(cell) = (p.mask & pos.common.occupied).iter().next() {
                    return Err(SetupError::Overlap { color, index, cell });
                }
                if let RuleState::Corner(state) = &pos.rules {
                    if let Some(cell) = (p.mask & state.forbidden[color]).iter().next() {
                        return Err(SetupError::OwnEdge { color, index, cell });
                    }
                }
                pos.place(t, color, id);
            }
        }
        if let (Some(cells), RuleState::Stacking(state)) = (t.rules.stack_cells(), &mut pos.rules) {
            // Pieces came in any order, so support is checked on the whole board, and the
            // surface (kept up to date by play) is found afresh.
            let occupied = pos.common.occupied;
            for (color, ids) in setup.placements.iter().enumerate() {
                for (index, &id) in ids.iter().enumerate() {
                    let p = t.get(id);
                    if let Some(cell) = cells.unsupported(p.cells(), &p.mask, &occupied) {
                        return Err(SetupError::Unsupported { color, index, cell });
                    }
                }
            }
            state.surface = cells.surface(&occupied);
        }
        let all = ((1u16 << n) - 1) as u8;
        for c in 0..8 {
            if setup.out & (1 << c) != 0 && c >= n {
                return Err(SetupError::NoColor { color: c });
            }
        }
        if !rules.out_by_history() {
            for c in (0..n).filter(|c| setup.out & (1 << c) != 0) {
                if pos.has_move(t, c) {
                    return Err(SetupError::CanMove { color: c });
                }
            }
        }
        pos.common.out = setup.out & all;
        match setup.turn {
            SetupTurn::Color(c) | SetupTurn::FirstFrom(c) if c >= n => {
                return Err(SetupError::NoColor { color: c })
            }
            SetupTurn::Color(c) => {
                if pos.is_out(c) {
                    return Err(SetupError::ToMoveIsOut { color: c });
                }
                if !pos.has_move(t, c) {
                    return Err(SetupError::CannotMove { color: c });
                }
                pos.set_turn_from(t, c);
            }
            SetupTurn::FirstFrom(c) => pos.set_turn_from(t, c),
            SetupTurn::GameOver => {
                if let Some(c) = (0..n).find(|&c| !pos.is_out(c) && pos.has_move(t, c)) {
                    return Err(SetupError::NotOver { color: c });
                }
                pos.set_turn_from(t, 0);
            }
        }
        if !rules.knocks_out() && !pos.is_game_over() {
            // Blocked colours are skipped, so nobody is out while the game goes on.
            if let Some(c) = (0..n).find(|&c| setup.out & (1 << c) != 0) {
                return Err(SetupError::NeverOut { color: c });
            }
        }
        debug_assert!(setup.turn != SetupTurn::GameOver || pos.is_game_over());
        Ok(pos)
    }

    /// Placement ids of each colour's pieces on the board, found from the cells (pieces of a
    /// colour never share an edge); each colour's last piece comes last.
    ///
    /// `None` under the stacking rule: there pieces of a colour share faces, so the cells do not
    /// say where the pieces are ([`crate::Board::placements`] knows them). Only for positions
    /// reached by play or setup, where every group is a placement.
    pub fn placements_from_cells(&self, t: &Tables) -> Option<Vec<Vec<u32>>> {
        self.corner()?;
        let n = t.variant.num_colors();
        let mut colors = vec![None; t.variant.num_cells()];
        for (c, cells) in self.common.cells[..n].iter().enumerate() {
            for cell in cells.iter() {
                colors[cell] = Some(c);
            }
        }
        let mut out = vec![Vec::new(); n];
        for group in pieces_of_cells(t, &colors) {
            if let Some(id) = group.placement {
                out[group.color].push(id);
            }
        }
        for (c, ids) in out.iter_mut().enumerate() {
            let last = self.common.last_piece[c];
            if let Some(i) = ids.iter().rposition(|&id| t.get(id).piece == last) {
                let id = ids.remove(i);
                ids.push(id);
            }
        }
        Some(out)
    }
}

/// One edge-connected group of cells of one colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The colour.
    pub color: usize,
    /// The cells, increasing.
    pub cells: Vec<u16>,
    /// The placement with exactly these cells, if they form a piece.
    pub placement: Option<u32>,
}

/// The groups of edge-connected cells of one colour each, given the colour of every cell (or
/// `None`), ordered by their first cell. On a board reached by play each group is a piece.
pub fn pieces_of_cells(t: &Tables, colors: &[Option<usize>]) -> Vec<Group> {
    let mut seen = Bits::EMPTY;
    let mut groups = Vec::new();
    for (start, &color) in colors.iter().enumerate() {
        let Some(color) = color else { continue };
        if seen.contains(start) {
            continue;
        }
        seen.insert(start);
        let mut cells = vec![start as u16];
        let mut next = 0;
        while next < cells.len() {
            let cell = cells[next] as usize;
            next += 1;
            for &nb in t.edge_neighbours(cell) {
                let nb = nb as usize;
                if colors.get(nb) == Some(&Some(color)) && !seen.contains(nb) {
                    seen.insert(nb);
                    cells.push(nb as u16);
                }
            }
        }
        cells.sort_unstable();
        let placement = t.placement_of_cells(&cells);
        groups.push(Group {
            color,
            cells,
            placement,
        });
    }
    groups
}
