//! The full slot layout of the corner rule: every placement through a cell, used for a colour's
//! first piece (whose attach cells are start points, touching none of its cells) and as the
//! numbering the corner-directed layouts ([`super::directed`]) refer to.
//!
//! For every cell `a`, the placements covering it are laid out in *slots* of a small bitset (a
//! [`Slice`]): one slot per (piece, orientation, cell of the orientation) that can sit on `a`.
//! The layout depends only on the cell's class (its direction on triangle boards), so the slots
//! of the pieces a colour still has form one mask per class, computed once per generation.
//! For each other cell `x` near `a`, a precomputed slice marks the slots whose placement covers
//! `x`. The legal placements through an attach cell `a` are then
//! `available & fits(a) & !(OR of the slices of the blocked cells near a)`: a few word
//! operations per blocked neighbour instead of a full mask test per placement. Attach cells
//! already handled count as blocked, so each placement is produced once.

use crate::bits::Bits;
use crate::placement::{Placement, MAX_PIECE_CELLS};
use crate::position::{Common, CornerState};
use crate::variant::Variant;

/// Words of a [`Slice`]: 512 slots, more than any standard piece set needs (classic 414); eight
/// words make two 256-bit vector operations.
pub(crate) const SLICE_WORDS: usize = 8;
/// A set of slots.
pub(crate) type Slice = [u64; SLICE_WORDS];
const NO_PLACEMENT: u16 = u16::MAX;

/// The full slot layout and per-cell slices of a variant.
#[derive(Debug, Default)]
pub(crate) struct Full {
    /// Class of each cell (0 on square boards; 0 down, 1 up on triangle boards).
    class: Vec<u8>,
    /// Per class and piece: the slots of that piece.
    piece_slots: Vec<Vec<Slice>>,
    /// The slots of the whole piece set, per class: what a colour's first move draws from
    /// (kept, rather than ORed from every piece's on every first move).
    all_slots: [Slice; 2],
    /// Per cell: the slots that hold a placement on the board.
    fits: Vec<Slice>,
    /// Per cell: `stride` placement ids, one per slot (NO_PLACEMENT for an empty slot), in 16
    /// bits: the table is read once per random move and its 32-bit form (660 KB in classic)
    /// left less of the core's cache to the rest.
    ids: Vec<u16>,
    stride: usize,
    /// Per cell `a`: the other cells covered by placements through `a`.
    near: Vec<Bits>,
    /// Per cell `a`: where its slices start in `near_slices`, one slice per cell of `near[a]` in
    /// increasing order, marking the slots whose placement covers that cell.
    near_start: Vec<u32>,
    /// Per cell: the range of words of `near` that are not zero.
    near_words: Vec<(u8, u8)>,
    near_slices: Vec<Slice>,
    /// Per class: the (piece, orientation, cell of the orientation) of each slot.
    slot_keys: Vec<Vec<(usize, usize, usize)>>,
    /// How to name the cells of a slot's placement from the cell alone.
    cells_of_slots: SlotCells,
}

/// The cells of a slot's placement as fixed offsets on a padded grid of the board: the
/// placement through `a` in slot `j` covers the cells at `grid_of[a] + offsets[j][i]`.
#[derive(Debug, Default)]
struct SlotCells {
    /// Per cell: its point on the grid.
    grid_of: Vec<u32>,
    /// Per grid point: the cell there (only points a fitting slot reaches are read).
    cell_at: Vec<u16>,
    /// Per (class, slot): its piece, its number of cells, and `MAX_PIECE_CELLS` offsets.
    piece: Vec<u8>,
    len: Vec<u8>,
    offsets: Vec<i32>,
}

impl SlotCells {
    fn new(
        variant: &Variant,
        orientations: &[Vec<Vec<[i32; 3]>>],
        slot_keys: &[Vec<(usize, usize, usize)>],
        stride: usize,
    ) -> SlotCells {
        // Padding as wide as a piece is long, so that every offset of a slot that fits stays
        // on the grid.
        let pad = MAX_PIECE_CELLS as i32;
        let coords = &variant.cells;
        let (min_x, min_y) = (
            coords.iter().map(|c| c[0]).min().unwrap_or(0),
            coords.iter().map(|c| c[1]).min().unwrap_or(0),
        );
        let width = coords.iter().map(|c| c[0] - min_x).max().unwrap_or(0) + 1 + 2 * pad;
        let height = coords.iter().map(|c| c[1] - min_y).max().unwrap_or(0) + 1 + 2 * pad;
        let point = |c: [i32; 3]| ((c[1] - min_y + pad) * width + c[0] - min_x + pad) as u32;
        let mut cell_at = vec![u16::MAX; (width * height) as usize];
        let grid_of: Vec<u32> = coords.iter().map(|&c| point(c)).collect();
        for (cell, &g) in grid_of.iter().enumerate() {
            cell_at[g as usize] = cell as u16;
        }
        let classes = slot_keys.len();
        let mut piece = vec![0u8; classes * stride];
        let mut len = vec![0u8; classes * stride];
        let mut offsets = vec![0i32; classes * stride * MAX_PIECE_CELLS];
        for (cl, keys) in slot_keys.iter().enumerate() {
            for (slot, &(p, o, k)) in keys.iter().enumerate() {
                let shape = &orientations[p][o];
                let at = cl * stride + slot;
                piece[at] = p as u8;
                len[at] = shape.len() as u8;
                for (i, c) in shape.iter().enumerate() {
                    let (dx, dy) = (c[0] - shape[k][0], c[1] - shape[k][1]);
                    offsets[at * MAX_PIECE_CELLS + i] = dy * width + dx;
                }
            }
        }
        SlotCells {
            grid_of,
            cell_at,
            piece,
            len,
            offsets,
        }
    }
}

#[inline(always)]
fn set(s: &mut Slice, bit: usize) {
    s[bit >> 6] |= 1 << (bit & 63);
}

impl Full {
    /// Builds the slices, or `None` if some cell class needs more than `64 * SLICE_WORDS` slots
    /// or there are 65,535 placements or more (ids are kept in 16 bits, which keeps the table
    /// small enough to stay in cache; every built-in variant has at most 32,131).
    pub(crate) fn new(
        variant: &Variant,
        placements: &[Placement],
        orientations: &[Vec<Vec<[i32; 3]>>],
    ) -> Option<Full> {
        if placements.len() >= usize::from(NO_PLACEMENT) {
            return None;
        }
        let g = variant.geometry;
        let class_of = |c: [i32; 3]| u8::from(g.points_up(c).unwrap_or(false));
        let class: Vec<u8> = variant.cells.iter().map(|&c| class_of(c)).collect();
        let num_classes = 2;
        let num_pieces = variant.pieces.len();
        // Slot numbering per class: pieces in order, their orientations, the cells of each
        // orientation whose class matches.
        let mut slot_of: Vec<std::collections::HashMap<(usize, usize, usize), usize>> =
            vec![Default::default(); num_classes];
        let mut piece_slots = vec![vec![[0u64; SLICE_WORDS]; num_pieces]; num_classes];
        let mut counts = vec![0usize; num_classes];
        let mut slot_keys = vec![Vec::new(); num_classes];
        for (p, shapes) in orientations.iter().enumerate() {
            for (o, shape) in shapes.iter().enumerate() {
                for (k, &c) in shape.iter().enumerate() {
                    let cl = class_of(c) as usize;
                    let slot = counts[cl];
                    if slot >= 64 * SLICE_WORDS {
                        return None;
                    }
                    counts[cl] += 1;
                    slot_of[cl].insert((p, o, k), slot);
                    slot_keys[cl].push((p, o, k));
                    set(&mut piece_slots[cl][p], slot);
                }
            }
        }
        let stride = counts.iter().copied().max().unwrap_or(0);
        let n = variant.num_cells();
        let mut ids = vec![NO_PLACEMENT; n * stride];
        let mut fits = vec![[0u64; SLICE_WORDS]; n];
        for (id, pl) in placements.iter().enumerate() {
            let shape = &orientations[pl.piece as usize][pl.orientation as usize];
            let shape_cells = placement_cells_in_shape_order(variant, pl, shape);
            for (k, cell) in shape_cells.into_iter().enumerate() {
                let cl = class[cell] as usize;
                let slot = slot_of[cl][&(pl.piece as usize, pl.orientation as usize, k)];
                ids[cell * stride + slot] = id as u16;
                set(&mut fits[cell], slot);
            }
        }
        let mut near = Vec::with_capacity(n);
        let mut near_start = Vec::with_capacity(n + 1);
        let mut near_slices = Vec::new();
        for a in 0..n {
            near_start.push(near_slices.len() as u32);
            let mut by_cell: std::collections::BTreeMap<usize, Slice> = Default::default();
            for slot in 0..stride {
                let id = ids[a * stride + slot];
                if id == NO_PLACEMENT {
                    continue;
                }
                for &x in placements[id as usize].cells() {
                    if x as usize != a {
                        set(by_cell.entry(x as usize).or_insert([0; SLICE_WORDS]), slot);
                    }
                }
            }
            near.push(Bits::from_cells(by_cell.keys().copied()));
            near_slices.extend(by_cell.into_values());
        }
        near_start.push(near_slices.len() as u32);
        let near_words = near.iter().map(word_range).collect();
        let cells_of_slots = SlotCells::new(variant, orientations, &slot_keys, stride);
        let mut all_slots = [[0u64; SLICE_WORDS]; 2];
        for (cl, slots) in piece_slots.iter().enumerate() {
            for piece in slots {
                for w in 0..SLICE_WORDS {
                    all_slots[cl][w] |= piece[w];
                }
            }
        }
        Some(Full {
            class,
            piece_slots,
            all_slots,
            fits,
            ids,
            stride,
            near,
            near_start,
            near_words,
            near_slices,
            slot_keys,
            cells_of_slots,
        })
    }

    /// The piece of the placement in slot `slot` of cell `a` (which must fit there), and its
    /// cells into `out` (in the order of its shape); returns the piece and the number of cells.
    /// Computed from the slot's shape, without reading the placement's record.
    #[inline(always)]
    pub(crate) fn slot_cells(
        &self,
        a: usize,
        slot: usize,
        out: &mut [u16; MAX_PIECE_CELLS],
    ) -> (usize, usize) {
        let sc = &self.cells_of_slots;
        let at = self.class[a] as usize * self.stride + slot;
        let (piece, len) = (sc.piece[at] as usize, sc.len[at] as usize);
        let base = sc.grid_of[a] as usize;
        // All MAX_PIECE_CELLS offsets (those past `len` are 0, the cell itself): a loop of fixed
        // length has no exit to mispredict.
        let offsets = &sc.offsets[at * MAX_PIECE_CELLS..(at + 1) * MAX_PIECE_CELLS];
        for (o, &d) in out.iter_mut().zip(offsets) {
            *o = sc.cell_at[base.wrapping_add_signed(d as isize)];
        }
        (piece, len)
    }

    /// The piece of the placement in slot `slot` of cell `a`, without reading its record.
    #[inline(always)]
    pub(crate) fn slot_piece(&self, a: usize, slot: usize) -> usize {
        usize::from(self.cells_of_slots.piece[self.class[a] as usize * self.stride + slot])
    }

    /// The slots of the pieces in `available` (bit p = piece p), one slice per cell class.
    #[inline(always)]
    pub(crate) fn available(&self, available: u32) -> [Slice; 2] {
        let num_pieces = self.piece_slots.first().map_or(0, Vec::len);
        if u64::from(available) == (1u64 << num_pieces) - 1 {
            return self.all_slots;
        }
        let mut out = [[0u64; SLICE_WORDS]; 2];
        for (cl, slots) in self.piece_slots.iter().enumerate() {
            let mut pieces = available;
            while pieces != 0 {
                let p = pieces.trailing_zeros() as usize;
                pieces &= pieces - 1;
                for w in 0..SLICE_WORDS {
                    out[cl][w] |= slots[p][w];
                }
            }
        }
        out
    }

    /// The slots of the placements through `a` that avoid `blocked` and use an available piece.
    #[inline(always)]
    pub(crate) fn through(&self, a: usize, available: &[Slice; 2], blocked: &Bits) -> Slice {
        let avail = &available[self.class[a] as usize];
        let fits = &self.fits[a];
        let mut ok = [0u64; SLICE_WORDS];
        for w in 0..SLICE_WORDS {
            ok[w] = avail[w] & fits[w];
        }
        self.clear_near(a, &mut ok, blocked);
        ok
    }

    /// Visits the attach cells of `color` in increasing order, calling `g(cell, ok)` with the
    /// legal slots `ok` of the placements through the cell and through no earlier attach cell
    /// (those count as blocked); stops early when `g` returns `false`. Returns `false` if
    /// stopped early.
    #[inline(always)]
    pub(crate) fn for_each_cell<G: FnMut(usize, &Slice) -> bool>(
        &self,
        common: &Common,
        state: &CornerState,
        color: usize,
        mut g: G,
    ) -> bool {
        let mut blocked = state.forbidden[color];
        let candidates = state.attach[color] & !blocked;
        if candidates.is_empty() {
            return true;
        }
        let available = self.available(common.available[color]);
        for cell in candidates.iter() {
            let ok = self.through(cell, &available, &blocked);
            if !g(cell, &ok) {
                return false;
            }
            blocked.insert(cell);
        }
        true
    }

    /// Clears from `ok` (slots of cell `a`) the placements that cover a cell of `cells`.
    #[inline(always)]
    pub(crate) fn clear_near(&self, a: usize, ok: &mut Slice, cells: &Bits) {
        let slices = &self.near_slices[self.near_start[a] as usize..];
        let (lo, hi) = self.near_words[a];
        let words = &self.near[a].0[lo as usize..hi as usize];
        clear_covering(words, lo as usize, |k| &slices[k], ok, cells);
    }

    /// The class of cell `a` (0 on square boards; 0 down, 1 up on triangle boards).
    #[inline(always)]
    pub(crate) fn class(&self, a: usize) -> usize {
        self.class[a] as usize
    }

    /// Per class: the piece, orientation and cell of the orientation of each slot.
    pub(crate) fn slot_keys(&self) -> &[Vec<(usize, usize, usize)>] {
        &self.slot_keys
    }

    /// Whether slot `slot` of cell `a` holds a placement on the board.
    pub(crate) fn fits(&self, a: usize, slot: usize) -> bool {
        self.fits[a][slot >> 6] >> (slot & 63) & 1 != 0
    }

    /// The placement ids of the slots of cell `a`.
    #[inline(always)]
    pub(crate) fn ids_of(&self, a: usize) -> &[u16] {
        &self.ids[a * self.stride..(a + 1) * self.stride]
    }

    /// The placement id in slot `slot` of cell `a`.
    #[inline(always)]
    pub(crate) fn id(&self, a: usize, slot: usize) -> u32 {
        u32::from(self.ids[a * self.stride + slot])
    }
}

/// The first and one past the last word of `b` that is not zero (`(0, 0)` if `b` is empty).
pub(crate) fn word_range(b: &Bits) -> (u8, u8) {
    let lo = b.0.iter().position(|&w| w != 0).unwrap_or(0);
    let hi = b.0.iter().rposition(|&w| w != 0).map_or(0, |i| i + 1);
    (lo as u8, hi as u8)
}

/// Clears from `ok` the slots whose placement covers a cell of `cells` (see
/// [`each_covering`] for `near`, `lo` and `slice`).
#[inline(always)]
pub(crate) fn clear_covering<'s, const W: usize, F: Fn(usize) -> &'s [u64; W]>(
    near: &[u64],
    lo: usize,
    slice: F,
    ok: &mut [u64; W],
    cells: &Bits,
) {
    each_covering(near, lo, slice, cells, |slice| {
        for i in 0..W {
            ok[i] &= !slice[i];
        }
    });
}

/// Calls `f` with the slice of each cell of `cells` that the slots' placements may cover:
/// `near` are those cells, as the words of a board's bitset from word `lo` on (the others are
/// zero), and `slice(k)` is the slice of the slots covering the `k`-th of them (in increasing
/// cell order). A cell's slice is found by its rank in `near`, so only the given cells among
/// the near ones are visited.
#[inline(always)]
pub(crate) fn each_covering<'s, const W: usize, S, F>(
    near: &[u64],
    lo: usize,
    slice: S,
    cells: &Bits,
    mut f: F,
) where
    S: Fn(usize) -> &'s [u64; W],
    F: FnMut(&[u64; W]),
{
    let mut rank = 0usize;
    for (&word, &other) in near.iter().zip(&cells.0[lo..]) {
        let mut hit = word & other;
        while hit != 0 {
            let below = word & ((1u64 << hit.trailing_zeros()) - 1);
            f(slice(rank + below.count_ones() as usize));
            hit &= hit - 1;
        }
        rank += word.count_ones() as usize;
    }
}

/// The cells of a placement ordered like the cells of its orientation's shape.
fn placement_cells_in_shape_order(
    variant: &Variant,
    pl: &Placement,
    shape: &[[i32; 3]],
) -> Vec<usize> {
    // The placement is the shape translated; find the translation from the cell sets' minima
    // (both sorted the same way by the geometry), then map each shape cell.
    let cells: Vec<[i32; 3]> = pl
        .cells()
        .iter()
        .map(|&c| variant.cells[c as usize])
        .collect();
    let key = |c: &[i32; 3]| (c[2], c[1], c[0]);
    let min_shape = *shape
        .iter()
        .min_by_key(|c| key(c))
        .expect("non-empty shape");
    let min_cells = *cells
        .iter()
        .min_by_key(|c| key(c))
        .expect("non-empty placement");
    let t = [
        min_cells[0] - min_shape[0],
        min_cells[1] - min_shape[1],
        min_cells[2] - min_shape[2],
    ];
    shape
        .iter()
        .map(|c| {
            variant
                .cell_at([c[0] + t[0], c[1] + t[1], c[2] + t[2]])
                .expect("placement cell on the board")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::movegen::corner::AnyCornerGen;
    use crate::movegen::Generator;
    use crate::placement::MAX_PIECE_CELLS;
    use crate::testing::odd_variants;

    #[test]
    fn slots_name_the_cells_of_their_placements() {
        for (id, t) in odd_variants() {
            let full = match &t.generator {
                Generator::Corner(AnyCornerGen::W1(g)) => &g.full,
                Generator::Corner(AnyCornerGen::W2(g)) => &g.full,
                Generator::Corner(AnyCornerGen::W4(g)) => &g.full,
                Generator::Stacking(_) => continue,
            };
            let mut checked = 0;
            for a in 0..t.variant.num_cells() {
                for slot in 0..full.ids_of(a).len() {
                    if !full.fits(a, slot) {
                        continue;
                    }
                    let p = t.get(full.id(a, slot));
                    let mut cells = [0u16; MAX_PIECE_CELLS];
                    let (piece, len) = full.slot_cells(a, slot, &mut cells);
                    let mut cells = cells[..len].to_vec();
                    cells.sort_unstable();
                    assert_eq!(
                        (piece, cells.as_slice()),
                        (p.piece(), p.cells()),
                        "{id} {a} {slot}"
                    );
                    checked += 1;
                }
            }
            // Each placement has a slot at each of its cells.
            let cells: usize = t.placements.list.iter().map(|p| p.cells().len()).sum();
            assert_eq!(checked, cells, "{id}");
        }
    }
}
