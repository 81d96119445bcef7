//! The state of a game: what every rule family keeps ([`Common`]: the cells of each colour, the
//! pieces in hand, whose turn it is, who is out, a hash) and the sub-state of the variant's rule
//! family ([`CornerState`] or [`StackingState`]), which the rules layer (`crate::rules`) keeps
//! up to date and the move generators read.
//!
//! A position is small and `Copy`: undo restores a snapshot (copy-make). Outside the crate it is
//! read-only; [`crate::Board`] is the checked way to change it.

use crate::bits::Bits;
use crate::variant::{Variant, MAX_COLORS, MAX_PIECES};

/// Marker for "nobody to move": the game is over.
pub(crate) const NO_COLOR: u8 = u8::MAX;

/// What every rule family keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Common {
    /// Cells covered by any colour.
    pub(crate) occupied: Bits,
    /// Cells covered by each colour.
    pub(crate) cells: [Bits; MAX_COLORS],
    /// Copies left of each piece, per colour.
    pub(crate) left: [[u8; MAX_PIECES]; MAX_COLORS],
    /// Bit `p` set when piece `p` has a copy left, per colour.
    pub(crate) available: [u32; MAX_COLORS],
    /// Pieces placed per colour.
    pub(crate) placed: [u8; MAX_COLORS],
    /// Last piece placed per colour (meaningful when `placed > 0`).
    pub(crate) last_piece: [u8; MAX_COLORS],
    /// Bit `c` set when colour `c` can no longer move.
    pub(crate) out: u8,
    /// Colour to move, or [`NO_COLOR`] when the game is over.
    pub(crate) to_move: u8,
    /// Zobrist hash of the cells of each colour, the pieces in hand and the colour to move
    /// (the last pieces and the colours out are mixed in by [`Position::hash`]).
    pub(crate) hash: u64,
}

/// The corner rule's sub-state (flat boards).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CornerState {
    /// Cells each colour may not cover: occupied, or sharing an edge with its own cells.
    pub(crate) forbidden: [Bits; MAX_COLORS],
    /// Cells each colour's next piece may attach through: corner-only neighbours of its cells
    /// that it may cover, or its start points before its first piece.
    pub(crate) attach: [Bits; MAX_COLORS],
}

impl CornerState {
    /// Cells `color` may not cover: occupied, or sharing an edge with its own cells.
    pub fn forbidden(&self, color: usize) -> &Bits {
        &self.forbidden[color]
    }

    /// Cells `color`'s next piece may attach through (its start points before its first piece).
    pub fn attach(&self, color: usize) -> &Bits {
        &self.attach[color]
    }
}

/// The stacking rule's sub-state (Blokus 3D).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StackingState {
    /// The lowest free cell of each column that has room: where a column's next cube goes.
    pub(crate) surface: Bits,
    /// Cells sharing a face with each colour's cubes (some may be occupied): a later piece of
    /// the colour must cover one.
    pub(crate) contact: [Bits; MAX_COLORS],
}

impl StackingState {
    /// The lowest free cell of each column that has room.
    pub fn surface(&self) -> &Bits {
        &self.surface
    }

    /// Cells sharing a face with `color`'s cubes (some may be occupied).
    pub fn contact(&self, color: usize) -> &Bits {
        &self.contact[color]
    }
}

/// The sub-state of the variant's rule family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RuleState {
    Corner(CornerState),
    Stacking(StackingState),
}

/// A position: the state of a game between two moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) common: Common,
    pub(crate) rules: RuleState,
}

/// The Zobrist key of a colour's cell (or, with `cell` 0xffff, of the colour to move): a fixed
/// pseudo-random value (SplitMix64 of the pair) without a table.
#[inline(always)]
pub(crate) fn zobrist(cell: u64, color: u64) -> u64 {
    let mut z = cell
        .wrapping_mul(8)
        .wrapping_add(color)
        .wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The key of the colour to move in the hash.
pub(crate) const TO_MOVE_KEY: u64 = 0xffff;
/// Keys of the pieces in hand: `LEFT_KEY + 16 * piece + copies left` (a piece has at most 9).
const LEFT_KEY: u64 = 0x1_0000;
/// Keys of each colour's last piece: `LAST_KEY + piece`.
const LAST_KEY: u64 = 0x2_0000;
/// The key of a colour being out.
const OUT_KEY: u64 = 0x3_0000;

impl Common {
    /// No piece on the board, every piece in hand, nobody to move yet.
    pub(crate) fn empty(v: &Variant) -> Common {
        let mut left = [[0u8; MAX_PIECES]; MAX_COLORS];
        let mut available = [0u32; MAX_COLORS];
        for c in 0..v.num_colors() {
            for (p, piece) in v.pieces.iter().enumerate() {
                left[c][p] = piece.copies;
                available[c] |= 1 << p;
            }
        }
        Common {
            occupied: Bits::EMPTY,
            cells: [Bits::EMPTY; MAX_COLORS],
            left,
            available,
            placed: [0; MAX_COLORS],
            last_piece: [0; MAX_COLORS],
            out: 0,
            to_move: NO_COLOR,
            hash: 0,
        }
    }

    /// Colour `c` puts a copy of `piece` on `cells`: its cells, its hand and the hash change.
    #[inline(always)]
    pub(crate) fn put(&mut self, c: usize, piece: usize, cells: &[u16], mask: &Bits) {
        self.occupied |= *mask;
        self.cells[c] |= *mask;
        self.left[c][piece] -= 1;
        // The key of each count of a piece left goes in as the count is reached, so the hash
        // holds a function of the count (Blokus 3D's cells do not tell which pieces made them).
        self.hash ^= zobrist(
            LEFT_KEY + 16 * piece as u64 + u64::from(self.left[c][piece]),
            c as u64,
        );
        if self.left[c][piece] == 0 {
            self.available[c] &= !(1 << piece);
        }
        self.placed[c] += 1;
        self.last_piece[c] = piece as u8;
        for &cell in cells {
            self.hash ^= zobrist(u64::from(cell), c as u64);
        }
    }

    /// Number of placements made.
    pub(crate) fn plies(&self) -> u32 {
        self.placed.iter().map(|&n| u32::from(n)).sum()
    }
}

impl Position {
    /// The colour to move, or `None` when the game is over.
    pub fn turn(&self) -> Option<usize> {
        (self.common.to_move != NO_COLOR).then_some(usize::from(self.common.to_move))
    }

    /// Whether nobody can move.
    pub fn is_game_over(&self) -> bool {
        self.common.to_move == NO_COLOR
    }

    /// Cells covered by any colour.
    pub fn occupied(&self) -> &Bits {
        &self.common.occupied
    }

    /// Cells covered by `color`.
    pub fn cells(&self, color: usize) -> &Bits {
        &self.common.cells[color]
    }

    /// The colour covering `cell`, if any.
    pub fn color_at(&self, cell: usize) -> Option<usize> {
        self.common.cells.iter().position(|c| c.contains(cell))
    }

    /// Copies of `piece` that `color` has left.
    pub fn copies_left(&self, color: usize, piece: usize) -> u8 {
        self.common.left[color][piece]
    }

    /// Pieces `color` has placed.
    pub fn placed(&self, color: usize) -> usize {
        usize::from(self.common.placed[color])
    }

    /// The last piece `color` placed, if it has placed one.
    pub fn last_piece(&self, color: usize) -> Option<usize> {
        (self.common.placed[color] > 0).then_some(usize::from(self.common.last_piece[color]))
    }

    /// Whether `color` is out of the game (it had no move on a turn and, where the rules say
    /// so, never moves again).
    pub fn is_out(&self, color: usize) -> bool {
        self.common.out & (1 << color) != 0
    }

    /// A 64-bit key of the position, for transposition tables: a Zobrist hash of everything
    /// that makes two positions equal (each colour's cells, pieces in hand and last piece, the
    /// colours out and the colour to move), so the same however the position was reached, by
    /// moves or as a setup, and the same from run to run.
    pub fn hash(&self) -> u64 {
        let c = &self.common;
        let mut hash = c.hash;
        for color in 0..MAX_COLORS {
            if c.placed[color] > 0 {
                hash ^= zobrist(LAST_KEY + u64::from(c.last_piece[color]), color as u64);
            }
            if c.out & (1 << color) != 0 {
                hash ^= zobrist(OUT_KEY, color as u64);
            }
        }
        hash
    }

    /// Number of placements made.
    pub fn plies(&self) -> u32 {
        self.common.plies()
    }

    /// The corner rule's sub-state, on flat boards.
    pub fn corner(&self) -> Option<&CornerState> {
        match &self.rules {
            RuleState::Corner(s) => Some(s),
            RuleState::Stacking(_) => None,
        }
    }

    /// The stacking rule's sub-state, in Blokus 3D.
    pub fn stacking(&self) -> Option<&StackingState> {
        match &self.rules {
            RuleState::Stacking(s) => Some(s),
            RuleState::Corner(_) => None,
        }
    }
}
