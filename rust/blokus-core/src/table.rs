//! Placement tables: every placement of every piece that fits the board, with a dense id.

use std::collections::HashMap;

use crate::batch::Grid;
use crate::bits::Bits;
use crate::directed::{DirLayout, DirSlices};
use crate::footprint::{Footprint, Footprints};
use crate::geometry::Coord;
use crate::slices::Slices;
use crate::stacking::StackTables;
use crate::variant::{Rules, Variant};

/// The most cells a piece may have.
pub const MAX_PIECE_CELLS: usize = 8;

/// One piece in one orientation at one place; its index in [`Tables::placements`] is its id.
#[derive(Clone, Debug)]
pub struct Placement {
    /// Index of the piece in the variant's piece list.
    pub piece: u8,
    /// Index of the orientation among the piece's orientations.
    pub orientation: u8,
    /// Number of cells.
    pub len: u8,
    /// The cells, sorted by cell number; the first `len` are used.
    pub cells: [u16; MAX_PIECE_CELLS],
    /// The cells as a set.
    pub mask: Bits,
    /// Cells sharing an edge with the placement, not in it.
    pub edges: Bits,
    /// Cells touching the placement at a corner only.
    pub corners: Bits,
}

impl Placement {
    /// The cells, sorted by cell number.
    pub fn cells(&self) -> &[u16] {
        &self.cells[..self.len as usize]
    }
}

/// Everything precomputed for a variant.
#[derive(Debug)]
pub struct Tables {
    /// The variant.
    pub variant: Variant,
    /// All placements; the index is the move id.
    pub placements: Vec<Placement>,
    /// Number of orientations of each piece.
    pub orientations: Vec<usize>,
    /// The orientations of each piece, as normalized shapes.
    pub shapes: Vec<Vec<Vec<Coord>>>,
    /// Per placement its piece and cells in 16 bytes, and per cell its neighbours: what a piece
    /// going down touches, in a quarter of a cache line where the placement's masks take twelve.
    footprints: Footprints,
    /// The dense grid observations are drawn on.
    pub grid: Grid,
    /// Bit-sliced generation tables (`None` if a piece set is too large for them, or there are
    /// 65,535 placements or more).
    pub slices: Option<Slices>,
    /// The narrower corner-directed slices of the incremental playout (with `slices`).
    pub directed: Option<Directed>,
    /// `by_cell_piece[cell * num_pieces + piece]`: range into `list` of the placements of that
    /// piece covering that cell.
    by_cell_piece: Vec<(u32, u32)>,
    list: Vec<u32>,
    by_cells: HashMap<Vec<u16>, u32>,
    /// Edge neighbours of each cell, on the board.
    pub edge_neighbours: Vec<Vec<u16>>,
    /// Corner-only neighbours of each cell, on the board.
    pub corner_neighbours: Vec<Vec<u16>>,
    /// The tables of the stacking rule (Blokus 3D); `None` under the corner rule.
    pub stacking: Option<StackTables>,
}

/// Evaluates `$body` with `$ds` bound to the [`DirSlices`] inside a [`Directed`], whatever
/// its width.
macro_rules! with_directed {
    ($directed:expr, $ds:ident => $body:expr) => {
        match $directed {
            $crate::table::Directed::W1($ds) => $body,
            $crate::table::Directed::W2($ds) => $body,
            $crate::table::Directed::W4($ds) => $body,
            $crate::table::Directed::W8($ds) => $body,
        }
    };
}
pub(crate) use with_directed;

/// [`DirSlices`] of the width the piece set needs.
#[derive(Debug)]
pub enum Directed {
    /// One word per slice (Junior's pieces).
    W1(DirSlices<1>),
    /// Two words (the 21 polyominoes).
    W2(DirSlices<2>),
    /// Four words (Trigon's pieces).
    W4(DirSlices<4>),
    /// Eight words.
    W8(DirSlices<8>),
}

impl Directed {
    fn new(
        variant: &Variant,
        placements: &[Placement],
        slices: &Slices,
        shapes: &[Vec<Vec<Coord>>],
    ) -> Option<Directed> {
        let layout = DirLayout::new(variant, slices, shapes)?;
        Some(match layout.words() {
            1 => Directed::W1(DirSlices::new(variant, placements, slices, layout)),
            2 => Directed::W2(DirSlices::new(variant, placements, slices, layout)),
            4 => Directed::W4(DirSlices::new(variant, placements, slices, layout)),
            8 => Directed::W8(DirSlices::new(variant, placements, slices, layout)),
            _ => return None,
        })
    }
}

impl Tables {
    /// Builds the tables of a variant.
    pub fn new(variant: Variant) -> Tables {
        let g = variant.geometry;
        let n = variant.num_cells();
        let on_board = |c| variant.cell_at(c);
        let edge_neighbours: Vec<Vec<u16>> = variant
            .cells
            .iter()
            .map(|&c| {
                g.edge_neighbours(c)
                    .into_iter()
                    .filter_map(on_board)
                    .map(|i| i as u16)
                    .collect()
            })
            .collect();
        let corner_neighbours: Vec<Vec<u16>> = variant
            .cells
            .iter()
            .map(|&c| {
                g.corner_neighbours(c)
                    .into_iter()
                    .filter_map(on_board)
                    .map(|i| i as u16)
                    .collect()
            })
            .collect();
        let mut placements = Vec::new();
        let mut orientations = Vec::new();
        let mut all_shapes = Vec::new();
        for (pi, piece) in variant.pieces.iter().enumerate() {
            let shapes = g.orientations(&piece.cells);
            orientations.push(shapes.len());
            for (oi, shape) in shapes.iter().enumerate() {
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
                    let mask = Bits::from_cells(cells.iter().copied());
                    let mut edges = Bits::EMPTY;
                    let mut corners = Bits::EMPTY;
                    for &c in &cells {
                        edges |= Bits::from_cells(edge_neighbours[c].iter().map(|&x| x as usize));
                        corners |=
                            Bits::from_cells(corner_neighbours[c].iter().map(|&x| x as usize));
                    }
                    edges &= !mask;
                    corners &= !(mask | edges);
                    let mut arr = [0u16; MAX_PIECE_CELLS];
                    for (i, &c) in cells.iter().enumerate() {
                        arr[i] = c as u16;
                    }
                    placements.push(Placement {
                        piece: pi as u8,
                        orientation: oi as u8,
                        len: cells.len() as u8,
                        cells: arr,
                        mask,
                        edges,
                        corners,
                    });
                }
            }
            all_shapes.push(shapes);
        }
        // The bit-sliced generator serves the corner rule; the stacking rule has its own tables.
        let (slices, stacking) = match variant.rules {
            Rules::Corner => (Slices::new(&variant, &placements, &all_shapes), None),
            Rules::Stacking { .. } => (None, Some(StackTables::new(&variant, &placements))),
        };
        let directed = slices
            .as_ref()
            .and_then(|s| Directed::new(&variant, &placements, s, &all_shapes));
        let np = variant.pieces.len();
        let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); n * np];
        let mut by_cells = HashMap::with_capacity(placements.len());
        for (id, p) in placements.iter().enumerate() {
            for &c in p.cells() {
                buckets[c as usize * np + p.piece as usize].push(id as u32);
            }
            by_cells.insert(p.cells().to_vec(), id as u32);
        }
        let mut by_cell_piece = Vec::with_capacity(buckets.len());
        let mut list = Vec::new();
        for b in buckets {
            let start = list.len() as u32;
            list.extend(b);
            by_cell_piece.push((start, list.len() as u32));
        }
        let neighbours = |lists: &[Vec<u16>]| -> Vec<Bits> {
            lists
                .iter()
                .map(|l| Bits::from_cells(l.iter().map(|&x| usize::from(x))))
                .collect()
        };
        let footprints = Footprints::new(
            &placements,
            neighbours(&edge_neighbours),
            neighbours(&corner_neighbours),
        );
        Tables {
            grid: Grid::new(&variant),
            footprints,
            stacking,
            variant,
            placements,
            orientations,
            shapes: all_shapes,
            slices,
            directed,
            by_cell_piece,
            list,
            by_cells,
            edge_neighbours,
            corner_neighbours,
        }
    }

    /// Number of placements (the size of the move-id space).
    pub fn num_placements(&self) -> usize {
        self.placements.len()
    }

    /// The placements of `piece` that cover `cell`.
    #[inline]
    pub fn covering(&self, cell: usize, piece: usize) -> &[u32] {
        let (a, b) = self.by_cell_piece[cell * self.variant.pieces.len() + piece];
        &self.list[a as usize..b as usize]
    }

    /// The piece and cells of placement `id` ([`Footprints::masks`] adds its neighbours).
    #[inline]
    pub fn footprint(&self, id: u32) -> Footprint<'_> {
        self.footprints.get(id)
    }

    /// All the footprints.
    pub fn footprints(&self) -> &Footprints {
        &self.footprints
    }

    /// The placement with exactly these cells (sorted), if any.
    pub fn placement_of_cells(&self, sorted_cells: &[u16]) -> Option<u32> {
        self.by_cells.get(sorted_cells).copied()
    }

    /// A checksum of the id order: FNV-1a over every placement's cells, in id order.
    pub fn id_checksum(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for p in &self.placements {
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
