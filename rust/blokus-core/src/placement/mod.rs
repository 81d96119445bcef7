//! Placements: every piece of a variant in every orientation at every place it fits the board,
//! each once, with a dense id (its index). The id space is the move space (and the RL action
//! space), so its order is fixed: pieces in the variant's order, their orientations in the order
//! the geometry's symmetries first produce them, then anchor cells in cell order. A checksum of it
//! is pinned by a test.

pub(crate) mod footprint;

use std::collections::HashMap;

use crate::bits::Bits;
use crate::geometry::Coord;
use crate::variant::Variant;

use footprint::{Footprint, Footprints};

/// The most cells a piece may have.
pub const MAX_PIECE_CELLS: usize = 8;

/// One piece in one orientation at one place.
#[derive(Clone, Debug)]
pub struct Placement {
    pub(crate) piece: u8,
    pub(crate) orientation: u8,
    pub(crate) len: u8,
    /// The cells, sorted by cell number; the first `len` are used.
    pub(crate) cells: [u16; MAX_PIECE_CELLS],
    /// The cells as a set.
    pub(crate) mask: Bits,
}

impl Placement {
    /// The piece (its index in the variant's piece list).
    pub fn piece(&self) -> usize {
        usize::from(self.piece)
    }

    /// The orientation (its index among the piece's orientations).
    pub fn orientation(&self) -> usize {
        usize::from(self.orientation)
    }

    /// The cells, sorted by cell number.
    pub fn cells(&self) -> &[u16] {
        &self.cells[..usize::from(self.len)]
    }

    /// The cells as a set.
    pub fn mask(&self) -> &Bits {
        &self.mask
    }
}

/// Every placement of a variant, and the ways the rest of the engine looks them up.
#[derive(Debug)]
pub(crate) struct Placements {
    /// By id.
    pub(crate) list: Vec<Placement>,
    /// The orientations of each piece, as normalized shapes.
    pub(crate) shapes: Vec<Vec<Vec<Coord>>>,
    /// Per placement its piece and cells in a small record, and per cell its neighbours.
    pub(crate) footprints: Footprints,
    by_cells: HashMap<Vec<u16>, u32>,
    /// Cells sharing an edge (a face in 3D) with each cell, on the board.
    pub(crate) edge_neighbours: Vec<Vec<u16>>,
}

impl Placements {
    /// Enumerates the placements of a variant.
    pub(crate) fn new(variant: &Variant) -> Placements {
        let g = variant.geometry;
        let on_board = |c| variant.cell_at(c);
        let neighbour_lists = |around: &dyn Fn(Coord) -> Vec<Coord>| -> Vec<Vec<u16>> {
            variant
                .cells
                .iter()
                .map(|&c| {
                    around(c)
                        .into_iter()
                        .filter_map(on_board)
                        .map(|i| i as u16)
                        .collect()
                })
                .collect()
        };
        let edge_neighbours = neighbour_lists(&|c| g.edge_neighbours(c));
        let corner_neighbours = neighbour_lists(&|c| g.corner_neighbours(c));
        let mut list = Vec::new();
        let mut shapes = Vec::new();
        for (pi, piece) in variant.pieces.iter().enumerate() {
            let orientations = g.orientations(&piece.cells);
            for (oi, shape) in orientations.iter().enumerate() {
                for &anchor in &variant.cells {
                    let Some(t) = g.translation(shape[0], anchor) else {
                        continue;
                    };
                    let cells: Option<Vec<usize>> = shape
                        .iter()
                        .map(|c| on_board([c[0] + t[0], c[1] + t[1], c[2] + t[2]]))
                        .collect();
                    let Some(mut cells) = cells else { continue };
                    cells.sort_unstable();
                    let mut arr = [0u16; MAX_PIECE_CELLS];
                    for (i, &c) in cells.iter().enumerate() {
                        arr[i] = c as u16;
                    }
                    list.push(Placement {
                        piece: pi as u8,
                        orientation: oi as u8,
                        len: cells.len() as u8,
                        cells: arr,
                        mask: Bits::from_cells(cells.iter().copied()),
                    });
                }
            }
            shapes.push(orientations);
        }
        let by_cells = list
            .iter()
            .enumerate()
            .map(|(id, p)| (p.cells().to_vec(), id as u32))
            .collect();
        let sets = |lists: &[Vec<u16>]| -> Vec<Bits> {
            lists
                .iter()
                .map(|l| Bits::from_cells(l.iter().map(|&x| usize::from(x))))
                .collect()
        };
        let footprints = Footprints::new(&list, sets(&edge_neighbours), sets(&corner_neighbours));
        Placements {
            list,
            shapes,
            footprints,
            by_cells,
            edge_neighbours,
        }
    }

    /// Number of placements.
    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    /// The piece and cells of placement `id`, from the small records the hot paths read.
    #[inline(always)]
    pub(crate) fn footprint(&self, id: u32) -> Footprint<'_> {
        self.footprints.get(id)
    }

    /// The placement with exactly these cells (sorted by cell number), if any.
    pub(crate) fn of_cells(&self, sorted_cells: &[u16]) -> Option<u32> {
        self.by_cells.get(sorted_cells).copied()
    }

    /// A checksum of the id order: FNV-1a over every placement's cells, in id order.
    pub(crate) fn id_checksum(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for p in &self.list {
            for &c in p.cells() {
                for byte in c.to_le_bytes() {
                    h ^= u64::from(byte);
                    h = h.wrapping_mul(0x0100_0000_01b3);
                }
            }
            h ^= 0xff;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h
    }
}
