//! What a piece going down touches, kept small for the hot paths: per placement its piece and
//! cells in a 16-byte record (32 bytes for pieces of more than six cells), and per cell the
//! cells sharing an edge or only a corner with it, from which a placement's edge and corner
//! neighbours are a few word operations.
//!
//! Random games sample placements all over the board, so the record of the placement played
//! is seldom in cache: a 16-byte record puts classic's 30,433 placements in 487 KB, which stays
//! in the core's cache beside the other tables, where lists of cells, edges and corners took a
//! 64-byte line each (1.9 MB).

use super::Placement;
use crate::bits::Bits;

/// The footprints of every placement of a variant.
#[derive(Debug)]
pub(crate) struct Footprints {
    /// Records of `stride` values from `start`: `[piece, cells, cell...]`.
    records: Vec<u16>,
    start: usize,
    stride: usize,
    /// Per cell: the cells sharing an edge with it, then those touching it at a corner only,
    /// side by side (the pair of lines a placement's cell reads is fetched together).
    around: Vec<Around>,
    /// Per cell: the cells at most two steps away, a step going to a cell that shares an edge
    /// or a corner (the cell itself included).
    near: Vec<Bits>,
    /// Per cell: the cells of every placement that covers it.
    span: Vec<Bits>,
}

/// A cell's edge and corner-only neighbours, on one 128-byte pair of lines.
#[derive(Debug)]
#[repr(align(128))]
struct Around([Bits; 2]);

impl Footprints {
    /// The footprints of `placements`, in id order; `edge[c]` and `corner[c]` are the edge and
    /// corner-only neighbours of cell `c` on the board.
    pub(crate) fn new(placements: &[Placement], edge: Vec<Bits>, corner: Vec<Bits>) -> Footprints {
        let largest = placements
            .iter()
            .map(|p| p.cells().len())
            .max()
            .unwrap_or(0);
        // A power of two of at least 16 bytes, so that records on a line boundary never cross
        // one.
        let stride = (2 + largest).next_power_of_two().max(8);
        let mut records = vec![0u16; placements.len() * stride + 32];
        let start = (64 - records.as_ptr() as usize % 64) % 64 / 2;
        for (id, p) in placements.iter().enumerate() {
            let r = &mut records[start + id * stride..start + (id + 1) * stride];
            r[0] = u16::from(p.piece);
            r[1] = u16::from(p.len);
            r[2..2 + p.cells().len()].copy_from_slice(p.cells());
        }
        let step = |from: &Bits| {
            let mut to = *from;
            for x in from.iter() {
                to |= edge[x] | corner[x];
            }
            to
        };
        let near = (0..edge.len())
            .map(|x| {
                let mut cell = Bits::EMPTY;
                cell.insert(x);
                step(&step(&cell))
            })
            .collect();
        let mut span = vec![Bits::EMPTY; edge.len()];
        for p in placements {
            let cells = Bits::from_cells(p.cells().iter().map(|&x| usize::from(x)));
            for &x in p.cells() {
                span[usize::from(x)] |= cells;
            }
        }
        Footprints {
            records,
            start,
            stride,
            near,
            span,
            around: edge
                .into_iter()
                .zip(corner)
                .map(|(e, c)| Around([e, c]))
                .collect(),
        }
    }

    /// The cells sharing an edge with `cell`.
    #[inline(always)]
    pub(crate) fn edges(&self, cell: usize) -> &Bits {
        &self.around[cell].0[0]
    }

    /// The cells at most two steps (through edges or corners) from `cell`, itself included.
    #[inline(always)]
    pub(crate) fn near(&self, cell: usize) -> &Bits {
        &self.near[cell]
    }

    /// The cells of every placement that covers `cell`.
    #[inline(always)]
    pub(crate) fn span(&self, cell: usize) -> &Bits {
        &self.span[cell]
    }

    /// The footprint of placement `id`.
    #[inline(always)]
    pub(crate) fn get(&self, id: u32) -> Footprint<'_> {
        let at = self.start + id as usize * self.stride;
        let r = &self.records[at..at + self.stride];
        Footprint {
            piece: usize::from(r[0]),
            cells: &r[2..2 + usize::from(r[1])],
        }
    }

    /// The cells of `fp`, the cells sharing an edge with it and those touching it at a corner
    /// only, as sets.
    #[inline(always)]
    pub(crate) fn masks(&self, fp: &Footprint<'_>) -> Masks {
        let (mut cells, mut edges, mut corners) = (Bits::EMPTY, Bits::EMPTY, Bits::EMPTY);
        for &x in fp.cells {
            let x = usize::from(x);
            cells.insert(x);
            let Around([edge, corner]) = &self.around[x];
            edges |= *edge;
            corners |= *corner;
        }
        edges &= !cells;
        corners &= !(cells | edges);
        Masks {
            cells,
            edges,
            corners,
        }
    }
}

/// One placement's piece and cells.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Footprint<'a> {
    /// The piece.
    pub(crate) piece: usize,
    /// The cells, in increasing order.
    pub(crate) cells: &'a [u16],
}

/// A placement's cells and neighbours as sets ([`Footprints::masks`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Masks {
    /// The cells under the piece.
    pub(crate) cells: Bits,
    /// The cells sharing an edge with the piece.
    pub(crate) edges: Bits,
    /// The cells touching the piece at a corner only.
    pub(crate) corners: Bits,
}

#[cfg(test)]
mod tests {
    use crate::bits::Bits;
    use crate::testing::odd_variants;

    #[test]
    fn footprints_give_each_placements_cells_edges_and_corners() {
        for (id, t) in odd_variants() {
            let (v, g) = (&t.variant, t.variant.geometry);
            for (pid, p) in t.placements.list.iter().enumerate() {
                let fp = t.placements.footprint(pid as u32);
                assert_eq!((fp.piece, fp.cells), (p.piece(), p.cells()), "{id} {pid}");
                let masks = t.placements.footprints.masks(&fp);
                // The neighbours, from the geometry's coordinates.
                let around = |f: &dyn Fn(crate::geometry::Coord) -> Vec<crate::geometry::Coord>| {
                    let mut set = Bits::EMPTY;
                    for &c in p.cells() {
                        for n in f(v.cells[usize::from(c)]) {
                            if let Some(i) = v.cell_at(n) {
                                set.insert(i);
                            }
                        }
                    }
                    set
                };
                let edges = around(&|c| g.edge_neighbours(c)) & !p.mask;
                let corners = around(&|c| g.corner_neighbours(c)) & !(p.mask | edges);
                assert_eq!(masks.cells, p.mask, "{id} {pid}");
                assert_eq!(masks.edges, edges, "{id} {pid}");
                assert_eq!(masks.corners, corners, "{id} {pid}");
            }
        }
    }
}
