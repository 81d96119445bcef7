//! The stacking rule of Blokus 3D (docs/RULES.md, "Blokus 3D"): cubes go on free cells over the
//! structure with nothing empty beneath them; colour 0's first piece goes anywhere, every other
//! colour's first piece touches a cube already placed and has a cube on the ground, and every
//! later piece shares a face with a cube of its own colour. Points are the columns whose top
//! cube is the colour's, minus one per piece left in hand.
//!
//! The board is a height map: every column is one run of cubes from the ground, because a cube
//! needs a cube (or the ground) beneath it and every column of a piece is one run. So a
//! placement fits exactly when the lowest cube of each of its columns (its *bottoms*) goes in the
//! lowest free cell of that column; the sub-state ([`StackingState`]) keeps those cells as the
//! `surface`, and per colour the cells sharing a face with its cubes as `contact`. Height limits
//! need no check: cells above a column's limit do not exist.
//!
//! ```
//! use blokus_core::{tables, Board, Scoring};
//! let mut board = Board::new(tables("3d_tower").unwrap());
//! assert_eq!(board.count_moves(), 513);
//! board.play_text("a1@1,b1@1").unwrap(); // colour 0 starts anywhere
//! board.play_text("a1@2,b1@2").unwrap_err(); // colour 1 needs a cube on level 1 ...
//! board.play_text("c1@1,c1@2,b1@2").unwrap(); // ... and a face on a placed cube
//! assert_eq!(board.heights()[..4], [1, 2, 2, 0]);
//! assert_eq!(board.points(Scoring::Advanced), [1 - 10, 2 - 10, -11, -11]);
//! assert_eq!(board.result_line(), "-9 -8 -11 -11");
//! ```

use crate::bits::Bits;
use crate::placement::footprint::Masks;
use crate::position::{Common, StackingState};
use crate::rules::Illegal;
use crate::variant::{Variant, MAX_COLORS};

const NO_CELL: u16 = u16::MAX;

/// How the cells of a structure stack: what is above and below each, and the ground.
#[derive(Debug)]
pub(crate) struct StackCells {
    above: Vec<u16>,
    below: Vec<u16>,
    /// The ground layer (level 1): cells `0..num_columns`, one per column.
    pub(crate) ground: Bits,
    /// The highest cell of each column.
    summits: Bits,
    /// Number of columns of the structure.
    pub(crate) num_columns: usize,
}

impl StackCells {
    pub(crate) fn new(v: &Variant) -> StackCells {
        let n = v.num_cells();
        let step = |cell: usize, dz: i32| {
            let [x, y, z] = v.cells[cell];
            v.cell_at([x, y, z + dz]).map_or(NO_CELL, |c| c as u16)
        };
        let above: Vec<u16> = (0..n).map(|c| step(c, 1)).collect();
        let below: Vec<u16> = (0..n).map(|c| step(c, -1)).collect();
        let ground = Bits::from_cells((0..n).filter(|&c| v.cells[c][2] == 0));
        let num_columns = ground.count() as usize;
        debug_assert!(
            (0..num_columns).all(|c| ground.contains(c)),
            "cells are numbered layer by layer"
        );
        StackCells {
            summits: Bits::from_cells((0..n).filter(|&c| above[c] == NO_CELL)),
            above,
            below,
            ground,
            num_columns,
        }
    }

    /// The cell right above `cell`, if it is under the limit.
    pub(crate) fn above(&self, cell: usize) -> Option<usize> {
        (self.above[cell] != NO_CELL).then_some(usize::from(self.above[cell]))
    }

    /// The cell right beneath `cell`, if it is not on the ground.
    pub(crate) fn below(&self, cell: usize) -> Option<usize> {
        (self.below[cell] != NO_CELL).then_some(usize::from(self.below[cell]))
    }

    /// The lowest cube of each column of a piece on `cells` (the set `mask`), and the cells
    /// right above each of its columns within the limits (where those columns' next cubes go).
    #[inline(always)]
    pub(crate) fn bottoms_and_tops(&self, cells: &[u16], mask: &Bits) -> (Bits, Bits) {
        let (mut bottoms, mut tops) = (Bits::EMPTY, Bits::EMPTY);
        for &x in cells {
            let x = usize::from(x);
            let (below, above) = (self.below[x], self.above[x]);
            if below == NO_CELL || !mask.contains(usize::from(below)) {
                bottoms.insert(x);
            }
            if above != NO_CELL && !mask.contains(usize::from(above)) {
                tops.insert(usize::from(above));
            }
        }
        (bottoms, tops)
    }

    /// The first cube of a piece on `cells` (the set `mask`) with an empty cell beneath it, on
    /// a board whose cells `occupied` are covered.
    pub(crate) fn unsupported(&self, cells: &[u16], mask: &Bits, occupied: &Bits) -> Option<usize> {
        let (bottoms, _) = self.bottoms_and_tops(cells, mask);
        bottoms
            .iter()
            .find(|&c| self.below(c).is_some_and(|b| !occupied.contains(b)))
    }

    /// The lowest free cell of each column that has room, on a board where nothing empty is
    /// beneath a cube.
    pub(crate) fn surface(&self, occupied: &Bits) -> Bits {
        let n = self.above.len();
        Bits::from_cells((0..n).filter(|&c| {
            !occupied.contains(c) && self.below(c).is_none_or(|b| occupied.contains(b))
        }))
    }

    /// The cells of every column from the ground up to its top cube, in column order.
    fn columns<'a>(&'a self, occupied: &'a Bits) -> impl Iterator<Item = Vec<usize>> + 'a {
        (0..self.num_columns).map(move |column| {
            let mut cubes = Vec::new();
            let mut cell = Some(column);
            while let Some(c) = cell.filter(|&c| occupied.contains(c)) {
                cubes.push(c);
                cell = self.above(c);
            }
            cubes
        })
    }

    /// Number of cubes in each column, in column order (the order of the ground layer's cells).
    pub(crate) fn heights(&self, occupied: &Bits) -> Vec<u8> {
        self.columns(occupied).map(|c| c.len() as u8).collect()
    }

    /// The top cube of each column (`None` for an empty column), in column order.
    pub(crate) fn tops(&self, occupied: &Bits) -> Vec<Option<usize>> {
        self.columns(occupied).map(|c| c.last().copied()).collect()
    }

    /// Columns whose top cube is each colour's (the columns seen from above).
    pub(crate) fn visible(&self, common: &Common, state: &StackingState, n: usize) -> Vec<u32> {
        // The top cube of a column is right beneath its lowest free cell (the surface), or its
        // highest cell when it is full: no column needs climbing.
        let mut tops = self.summits & common.occupied;
        for free in state.surface.iter() {
            if let Some(top) = self.below(free) {
                tops.insert(top);
            }
        }
        common.cells[..n]
            .iter()
            .map(|cells| (tops & *cells).count())
            .collect()
    }
}

/// The empty structure: every column's next cube goes on the ground, nobody has contact.
pub(crate) fn start(cells: &StackCells) -> StackingState {
    StackingState {
        surface: cells.ground,
        contact: [Bits::EMPTY; MAX_COLORS],
    }
}

/// Cells sharing a face with any cube on the board (some may be occupied).
pub(crate) fn faces_of_all(common: &Common, state: &StackingState) -> Bits {
    let mut faces = Bits::EMPTY;
    for (contact, &placed) in state.contact.iter().zip(&common.placed) {
        if placed > 0 {
            faces |= *contact;
        }
    }
    faces
}

/// Why a piece on `cells` (the set `mask`) breaks the stacking rule for `color` (whose piece is
/// in hand), or `None`.
pub(crate) fn why_illegal(
    stack: &StackCells,
    common: &Common,
    state: &StackingState,
    color: usize,
    cells: &[u16],
    mask: &Bits,
) -> Option<Illegal> {
    if let Some(cell) = (*mask & common.occupied).iter().next() {
        return Some(Illegal::Overlap { cell });
    }
    if let Some(cell) = stack.unsupported(cells, mask, &common.occupied) {
        return Some(Illegal::Unsupported { cell });
    }
    if common.placed[color] > 0 {
        if !mask.intersects(&state.contact[color]) {
            return Some(Illegal::NoFaceContact);
        }
    } else if color != 0 {
        if !mask.intersects(&faces_of_all(common, state)) {
            return Some(Illegal::FirstNotTouching);
        }
        if !mask.intersects(&stack.ground) {
            return Some(Illegal::FirstOffGround);
        }
    }
    None
}

/// Colour `c` puts `piece` on the cells of `masks` (whose edge neighbours are the cells sharing
/// a face with it).
#[inline(always)]
pub(crate) fn place(
    stack: &StackCells,
    common: &mut Common,
    state: &mut StackingState,
    c: usize,
    piece: usize,
    cells: &[u16],
    masks: &Masks,
) {
    let (bottoms, tops) = stack.bottoms_and_tops(cells, &masks.cells);
    common.put(c, piece, cells, &masks.cells);
    state.surface = (state.surface & !bottoms) | tops;
    state.contact[c] |= masks.edges;
}

/// Points of each colour: visible columns minus pieces left in hand.
pub(crate) fn points(
    v: &Variant,
    stack: &StackCells,
    common: &Common,
    state: &StackingState,
) -> Vec<i32> {
    let pieces = v.pieces_per_color() as i32;
    stack
        .visible(common, state, v.num_colors())
        .iter()
        .enumerate()
        .map(|(c, &seen)| seen as i32 - (pieces - i32::from(common.placed[c])))
        .collect()
}
