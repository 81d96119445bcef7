//! Corner-directed slot layouts: the narrow tables of every move after a colour's first.
//!
//! An attach cell `a` of a colour touches one of the colour's cells `d` at a corner. The cells
//! sharing an edge with `d` are forbidden to the colour and `d` is occupied, so a legal
//! placement through `a` never covers them: of the slots [`Full`] keeps for `a`, only those
//! whose piece leaves `d` and its edge neighbours free can ever be legal. Keeping a slot layout
//! per (cell class, direction of `d` from `a`) leaves 127 slots of the 414 of the classic piece
//! set (two words instead of seven), 57 of 189 for Junior's and 164 to 224 of 413 for Trigon's.
//! Any one direction toward a cell of the colour gives an exact set: the legal placements
//! through `a` avoid the neighbourhood of every such cell, so the direction is chosen once, when
//! the cell becomes an attach cell.
//!
//! The placements covering blocked cells are cleared from a slice by a [`Window`] where the
//! board's numbering allows (the rectangles), otherwise by a step per blocked cell near the
//! attach cell, from per-cell lists.

use std::collections::HashMap;

use super::full::{each_covering, word_range, Full, Slice, SLICE_WORDS};
use super::window::{Diagonals, Window};
use crate::bits::{nth_one_in, Bits};
use crate::geometry::Coord;
use crate::placement::Placement;
use crate::position::{Common, CornerState};
use crate::rng::Rng;
use crate::variant::Variant;

/// The most (class, direction) layouts of a geometry: 2 classes of 9 directions on triangles.
pub(crate) const MAX_LAYOUTS: usize = 18;

/// Per (class, direction): the slots of the pieces a colour has.
pub(crate) type Available<const W: usize> = [DirSlice<W>; MAX_LAYOUTS];

/// The placement ids of a cell's slots in a direction's layout.
#[derive(Clone, Copy)]
struct SlotIds<'a> {
    /// The cell's ids by full slot.
    ids: &'a [u16],
    /// The full slot of each slot of the direction's layout.
    slots: &'a [u16],
}

impl SlotIds<'_> {
    #[inline(always)]
    fn get(&self, j: usize) -> u32 {
        u32::from(self.ids[usize::from(self.slots[j])])
    }
}

/// Number of slots in `slots`.
#[inline(always)]
pub(crate) fn slots_in<const W: usize>(slots: &DirSlice<W>) -> u32 {
    slots.iter().map(|w| w.count_ones()).sum()
}

/// The slots of one (cell, direction): `W` words.
pub(crate) type DirSlice<const W: usize> = [u64; W];

/// Slot layouts and per-(cell, direction) slices with `W` words per slice.
#[derive(Debug)]
pub(crate) struct Directed<const W: usize> {
    /// Directions per cell: the most corner-only neighbours a cell has (4 on squares, 9 on
    /// triangles).
    dirs: usize,
    num_layouts: usize,
    /// Per cell: its corner-only neighbours on the board and the direction of each (the
    /// first `len` of a fixed array, so that finding a cell's direction reads one place).
    corner_dirs: Vec<CornerDirs>,
    /// Per piece: its slots in every (class, direction), so that the slots of the pieces a
    /// colour has are a few whole-array ORs.
    piece_slots: Vec<Available<W>>,
    /// Per (class, direction, slot): the slot of [`Full`] it stands for.
    full_slot: Vec<u16>,
    /// Per (cell, direction): the slots holding a placement on the board.
    fits: Vec<DirSlice<W>>,
    /// Per (cell, direction): where to find the other cells its placements cover and their
    /// full.
    near: Vec<NearRef>,
    /// The words of the near sets that are not zero (a set spans two to four words of a
    /// board's bitset), kept apart so that the sets take a third of the room full bitsets take.
    near_bits: Vec<u64>,
    /// Runs of indices into `slice_table`, one per cell of a near set in increasing order.
    near_index: Vec<u16>,
    /// The distinct slices: the slots whose placement covers a given near cell.
    slice_table: Vec<DirSlice<W>>,
    /// The near cells of every layout gathered into one word, where the board's numbering
    /// allows.
    window: Option<Window<W>>,
    /// The corner neighbours at fixed distances in cell index, where the numbering allows.
    diagonals: Option<Diagonals>,
}

/// Where one (cell, direction)'s near set and its slices are.
#[derive(Clone, Copy, Debug, Default)]
struct NearRef {
    /// Where its slice indices start in `near_index`, one per cell of the set in increasing
    /// order, for the slice marking the slots whose placement covers that cell (runs that are
    /// the same are shared).
    slices: u32,
    /// Where its words start in `near_bits`.
    bits: u32,
    /// The first word of the board's bitset it covers, and how many.
    lo: u8,
    len: u8,
}

/// The most corner-only neighbours of a cell (9 on triangles).
const MAX_CORNERS: usize = 12;

/// A cell's corner-only neighbours on the board, with the direction of each.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CornerDirs {
    len: u8,
    list: [(u16, u8); MAX_CORNERS],
}

impl CornerDirs {
    /// The neighbours and the direction of each.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.list[..self.len as usize]
            .iter()
            .map(|&(x, dir)| (usize::from(x), usize::from(dir)))
    }
}

/// The slots of every direction of every cell class: per (class, direction), the slots of
/// [`Full`] whose piece leaves the corner neighbour in that direction and its edge
/// neighbours free. `None` if the geometry's corner neighbours are not the same offsets for
/// every cell of a class.
pub(crate) struct DirLayout {
    dirs: usize,
    classes: usize,
    /// Per (class, direction): the full slots kept, in increasing order.
    kept: Vec<Vec<u16>>,
    /// Per cell: its corner-only neighbours on the board and the direction of each.
    corner_dirs: Vec<CornerDirs>,
}

impl DirLayout {
    /// Works out the layout of a variant.
    pub(crate) fn new(
        variant: &Variant,
        full: &Full,
        orientations: &[Vec<Vec<[i32; 3]>>],
    ) -> Option<DirLayout> {
        let g = variant.geometry;
        let classes = full.slot_keys().len();
        // A reference cell of each class and the offsets of its corner neighbours.
        let mut offsets: Vec<Option<(Coord, Vec<Coord>)>> = vec![None; classes];
        for (i, &c) in variant.cells.iter().enumerate() {
            let cl = full.class(i);
            if offsets[cl].is_none() {
                let around = g.corner_neighbours(c);
                offsets[cl] = Some((c, around));
            }
        }
        let dirs = offsets
            .iter()
            .flatten()
            .map(|(_, around)| around.len())
            .max()
            .unwrap_or(0);
        if dirs == 0 || classes * dirs > MAX_LAYOUTS {
            return None;
        }
        let mut kept = vec![Vec::new(); classes * dirs];
        for (cl, keys) in full.slot_keys().iter().enumerate() {
            let Some((r, around)) = &offsets[cl] else {
                continue;
            };
            for (slot, &(p, o, k)) in keys.iter().enumerate() {
                let shape = &orientations[p][o];
                let tr = g.translation(shape[k], *r)?;
                let placed: Vec<[i32; 3]> = shape
                    .iter()
                    .map(|c| [c[0] + tr[0], c[1] + tr[1], c[2] + tr[2]])
                    .collect();
                for (dir, d) in around.iter().enumerate() {
                    let clear = !placed.contains(d)
                        && g.edge_neighbours(*d).iter().all(|e| !placed.contains(e));
                    if clear {
                        kept[cl * dirs + dir].push(slot as u16);
                    }
                }
            }
        }
        let mut corner_dirs = Vec::with_capacity(variant.num_cells());
        for (i, &c) in variant.cells.iter().enumerate() {
            let (r, around) = offsets[full.class(i)].as_ref()?;
            let mut list = CornerDirs {
                len: 0,
                list: [(0, 0); MAX_CORNERS],
            };
            for y in g.corner_neighbours(c) {
                let Some(cell) = variant.cell_at(y) else {
                    continue;
                };
                let offset = [y[0] - c[0], y[1] - c[1], y[2] - c[2]];
                let dir = around
                    .iter()
                    .position(|d| [d[0] - r[0], d[1] - r[1], d[2] - r[2]] == offset)?;
                *list.list.get_mut(list.len as usize)? = (cell as u16, dir as u8);
                list.len += 1;
            }
            corner_dirs.push(list);
        }
        Some(DirLayout {
            dirs,
            classes,
            kept,
            corner_dirs,
        })
    }

    /// Words a slice needs: the most slots of any (class, direction), rounded up to 1, 2, 4 or
    /// 8 words.
    pub(crate) fn words(&self) -> usize {
        let most = self.kept.iter().map(Vec::len).max().unwrap_or(0);
        let words = most.div_ceil(64).max(1);
        words.next_power_of_two()
    }
}

#[inline(always)]
fn set<const W: usize>(s: &mut DirSlice<W>, bit: usize) {
    s[bit >> 6] |= 1 << (bit & 63);
}

impl<const W: usize> Directed<W> {
    /// Builds the slices of `layout` (whose [`DirLayout::words`] must not exceed `W`).
    pub(crate) fn new(
        variant: &Variant,
        placements: &[Placement],
        full: &Full,
        layout: DirLayout,
    ) -> Directed<W> {
        assert!(layout.words() <= W, "slices too narrow for the layout");
        let dirs = layout.dirs;
        let num_pieces = variant.pieces.len();
        let n = variant.num_cells();
        let num_layouts = layout.classes * dirs;
        let mut piece_slots = vec![[[0u64; W]; MAX_LAYOUTS]; num_pieces];
        let mut full_slot = vec![u16::MAX; layout.classes * dirs * 64 * W];
        for (cd, kept) in layout.kept.iter().enumerate() {
            let cl = cd / dirs;
            for (j, &slot) in kept.iter().enumerate() {
                let piece = full.slot_keys()[cl][slot as usize].0;
                set(&mut piece_slots[piece][cd], j);
                full_slot[cd * 64 * W + j] = slot;
            }
        }
        let mut fits = vec![[0u64; W]; n * dirs];
        let mut near = vec![Bits::EMPTY; n * dirs];
        let mut near_start = vec![0u32; n * dirs];
        // A slice depends only on the cell's class, the direction and where the other cell lies
        // from it: the union of the slices met for that (class, direction, offset) serves every
        // cell, since the slots a cell keeps are among those that fit it, and for those the
        // union says the same as the cell's own slice. So the slices are few (classic: about a
        // hundred) and stay in the first-level cache; each (cell, direction) has a run of
        // indices into them, and cells with the same near cells share their run.
        let coords = &variant.cells;
        let offset = |a: usize, x: usize| {
            let (p, q) = (coords[a], coords[x]);
            [q[0] - p[0], q[1] - p[1], q[2] - p[2]]
        };
        type Key = (usize, usize, [i32; 3]);
        let mut unions: HashMap<Key, DirSlice<W>> = HashMap::new();
        let mut keys_of: Vec<Vec<Key>> = vec![Vec::new(); n * dirs];
        // Per cell, the slice being built for the current (cell, direction).
        let mut by_cell = vec![[0u64; W]; n];
        for a in 0..n {
            let cl = full.class(a);
            for dir in 0..dirs {
                // Only directions toward a cell on the board are ever used.
                if !layout.corner_dirs[a].list[..layout.corner_dirs[a].len as usize]
                    .iter()
                    .any(|&(_, d)| d as usize == dir)
                {
                    continue;
                }
                let u = a * dirs + dir;
                let mut touched = Bits::EMPTY;
                for (j, &slot) in layout.kept[cl * dirs + dir].iter().enumerate() {
                    let slot = slot as usize;
                    if !full.fits(a, slot) {
                        continue;
                    }
                    set(&mut fits[u], j);
                    let id = full.id(a, slot);
                    for &x in placements[id as usize].cells() {
                        let x = x as usize;
                        if x != a {
                            set(&mut by_cell[x], j);
                            touched.insert(x);
                        }
                    }
                }
                near[u] = touched;
                for x in touched.iter() {
                    let slice = std::mem::replace(&mut by_cell[x], [0; W]);
                    let key = (cl, dir, offset(a, x));
                    let union = unions.entry(key).or_insert([0; W]);
                    for w in 0..W {
                        union[w] |= slice[w];
                    }
                    keys_of[u].push(key);
                }
            }
        }
        let mut keys: Vec<Key> = unions.keys().copied().collect();
        keys.sort_unstable();
        let slice_table: Vec<DirSlice<W>> = keys.iter().map(|k| unions[k]).collect();
        let index_of: HashMap<Key, u16> = keys
            .iter()
            .enumerate()
            .map(|(i, &k)| (k, i as u16))
            .collect();
        let mut near_index: Vec<u16> = Vec::new();
        let mut runs: HashMap<Vec<u16>, u32> = HashMap::new();
        for (u, keys) in keys_of.iter().enumerate() {
            let run: Vec<u16> = keys.iter().map(|k| index_of[k]).collect();
            near_start[u] = *runs.entry(run).or_insert_with_key(|run| {
                let start = near_index.len() as u32;
                near_index.extend_from_slice(run);
                start
            });
        }
        assert!(
            slice_table.len() <= usize::from(u16::MAX),
            "slices fit 16-bit indices"
        );
        let fitting = |a: usize, dir: usize| {
            let kept = &layout.kept[full.class(a) * dirs + dir];
            let slots = kept.iter().map(|&slot| usize::from(slot)).enumerate();
            slots
                .filter(|&(_, slot)| full.fits(a, slot))
                .map(|(j, slot)| (j, placements[full.id(a, slot) as usize].cells()))
                .collect()
        };
        let window = Window::new(
            variant,
            &layout.corner_dirs,
            num_layouts,
            |a, dir| full.class(a) * dirs + dir,
            fitting,
        );
        let diagonals = Diagonals::new(&layout.corner_dirs);
        let mut near_bits = Vec::new();
        let near = near
            .iter()
            .zip(near_start)
            .map(|(set, slices)| {
                let (lo, hi) = word_range(set);
                let bits = near_bits.len() as u32;
                near_bits.extend_from_slice(&set.0[lo as usize..hi as usize]);
                NearRef {
                    slices,
                    bits,
                    lo,
                    len: hi - lo,
                }
            })
            .collect();
        Directed {
            dirs,
            num_layouts,
            corner_dirs: layout.corner_dirs,
            piece_slots,
            full_slot,
            fits,
            near,
            near_bits,
            near_index,
            slice_table,
            window,
            diagonals,
        }
    }

    /// The windows, if the board's numbering allows them: then [`Directed::clear_near`] costs
    /// the same however many cells it is given.
    #[inline(always)]
    pub(crate) fn window(&self) -> Option<&Window<W>> {
        self.window.as_ref()
    }

    /// Number of (class, direction) pairs: the length of an availability table.
    pub(crate) fn num_layouts(&self) -> usize {
        self.num_layouts
    }

    /// The direction from `a` toward a cell of `own`, if `a` touches one at a corner.
    #[inline(always)]
    pub(crate) fn dir_toward(&self, a: usize, own: &Bits) -> Option<usize> {
        if let Some(diagonals) = &self.diagonals {
            return diagonals.toward(a, own);
        }
        let around = &self.corner_dirs[a];
        around.list[..around.len as usize]
            .iter()
            .find(|&&(d, _)| own.contains(d as usize))
            .map(|&(_, dir)| dir as usize)
    }

    /// Index of (class of `a`, `dir`) in an availability table.
    #[inline(always)]
    pub(crate) fn layout_of(&self, full: &Full, a: usize, dir: usize) -> usize {
        full.class(a) * self.dirs + dir
    }

    /// Per (class, direction): the slots of the pieces in `available` (bit p = piece p).
    #[inline(always)]
    pub(crate) fn available(&self, available: u32) -> Available<W> {
        // Whole fixed-size arrays vectorise; squares use 4 layouts of the 18.
        if self.num_layouts <= 4 {
            self.available_first::<4>(available)
        } else {
            self.available_first::<MAX_LAYOUTS>(available)
        }
    }

    #[inline(always)]
    fn available_first<const L: usize>(&self, available: u32) -> Available<W> {
        // Gathered in a local array of the first `L` layouts (kept in registers), then copied
        // out: ORed in place, each piece reloaded what the last had just stored.
        let mut first = [[0u64; W]; L];
        let mut pieces = available;
        while pieces != 0 {
            let p = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let slots = &self.piece_slots[p];
            for l in 0..L {
                for w in 0..W {
                    first[l][w] |= slots[l][w];
                }
            }
        }
        let mut out = [[0u64; W]; MAX_LAYOUTS];
        out[..L].copy_from_slice(&first);
        out
    }

    /// Visits the attach cells of `color` (which has a piece on the board) in increasing
    /// order, calling `g(a, ids, ok)` with the legal slots `ok` of the placements through `a`
    /// not through an earlier attach cell, and the ids of those slots (`ids.get(j)` for slot
    /// `j`); stops early when `g` returns `false`. Returns `false` if stopped early.
    #[inline(always)]
    fn for_each_cell<G: FnMut(usize, SlotIds<'_>, &DirSlice<W>) -> bool>(
        &self,
        full: &Full,
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
        for a in candidates.iter() {
            let dir = self.dir_of(a, &common.cells[color]);
            let cd = self.layout_of(full, a, dir);
            let ok = self.through(a, dir, &available[cd], &blocked);
            let ids = SlotIds {
                ids: full.ids_of(a),
                slots: &self.full_slot[cd * 64 * W..(cd + 1) * 64 * W],
            };
            if !g(a, ids, &ok) {
                return false;
            }
            // Placements through this cell are done; later cells must not list them again.
            blocked.insert(a);
        }
        true
    }

    /// The direction from attach cell `a` toward a cell of its colour's `own` cells: every
    /// attach cell after a colour's first piece is a corner neighbour of one of them (the rules
    /// make it so: `rules::corner::place`).
    #[inline(always)]
    pub(crate) fn dir_of(&self, a: usize, own: &Bits) -> usize {
        self.dir_toward(a, own)
            .expect("an attach cell touches its colour at a corner")
    }

    /// Calls `f` with every legal placement of `color` (which has a piece on the board), each
    /// once; stops early when `f` returns `false`. Returns `false` if stopped early.
    #[inline(always)]
    pub(crate) fn for_each_move<F: FnMut(u32) -> bool>(
        &self,
        full: &Full,
        common: &Common,
        state: &CornerState,
        color: usize,
        mut f: F,
    ) -> bool {
        self.for_each_cell(
            full,
            common,
            state,
            color,
            #[inline(always)]
            |_, ids, ok| {
                for (w, &word) in ok.iter().enumerate() {
                    let mut bits = word;
                    while bits != 0 {
                        let j = w * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        if !f(ids.get(j)) {
                            return false;
                        }
                    }
                }
                true
            },
        )
    }

    /// Number of legal placements of `color` (which has a piece on the board).
    #[inline(always)]
    pub(crate) fn count(
        &self,
        full: &Full,
        common: &Common,
        state: &CornerState,
        color: usize,
    ) -> usize {
        let mut n = 0;
        self.for_each_cell(
            full,
            common,
            state,
            color,
            #[inline(always)]
            |_, _, ok| {
                n += slots_in(ok) as usize;
                true
            },
        );
        n
    }

    /// Appends the legal placements of `color` (which has a piece on the board) to `out`, in
    /// the order of [`Directed::for_each_move`]: the same work without a call per move.
    #[inline(always)]
    pub(crate) fn list_into(
        &self,
        full: &Full,
        common: &Common,
        state: &CornerState,
        color: usize,
        out: &mut Vec<u32>,
    ) {
        self.for_each_cell(
            full,
            common,
            state,
            color,
            #[inline(always)]
            |_, ids, ok| {
                // Room for the cell's moves first, so that no push has to grow the list.
                out.reserve(slots_in(ok) as usize);
                for (w, &word) in ok.iter().enumerate() {
                    let mut bits = word;
                    while bits != 0 {
                        let j = w * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        out.push(ids.get(j));
                    }
                }
                true
            },
        );
    }

    /// A uniformly random legal placement of `color` (which has a piece on the board), without
    /// listing: the legal slots of every attach cell are counted (each placement once, under the
    /// first attach cell it covers), kept in `scratch`, and one is picked by number.
    #[inline(always)]
    pub(crate) fn sample(
        &self,
        full: &Full,
        common: &Common,
        state: &CornerState,
        color: usize,
        rng: &mut Rng,
        scratch: &mut Vec<(u16, Slice)>,
    ) -> Option<u32> {
        scratch.clear();
        let mut total = 0u64;
        self.for_each_cell(
            full,
            common,
            state,
            color,
            #[inline(always)]
            |a, _, ok| {
                let n = slots_in(ok);
                if n > 0 {
                    total += u64::from(n);
                    let mut padded = [0u64; SLICE_WORDS];
                    padded[..W].copy_from_slice(ok);
                    scratch.push((a as u16, padded));
                }
                true
            },
        );
        if total == 0 {
            return None;
        }
        let mut k = rng.below(total);
        for (a, ok) in scratch.iter() {
            let n = u64::from(slots_in(ok));
            if k < n {
                let a = usize::from(*a);
                let dir = self.dir_of(a, &common.cells[color]);
                let slot = self.full_slot(full, a, dir, nth_one_in(ok, k as usize));
                return Some(full.id(a, slot));
            }
            k -= n;
        }
        unreachable!("k is below the total")
    }

    /// The slots of `piece` in layout `cd`.
    #[inline(always)]
    pub(crate) fn piece_slots(&self, cd: usize, piece: usize) -> &DirSlice<W> {
        &self.piece_slots[piece][cd]
    }

    /// The slots of the placements through `a` in direction `dir` that avoid `blocked` and use
    /// a piece of `avail` (the availability of the layout of (`a`, `dir`)).
    #[inline(always)]
    pub(crate) fn through(
        &self,
        a: usize,
        dir: usize,
        avail: &DirSlice<W>,
        blocked: &Bits,
    ) -> DirSlice<W> {
        let mut ok = self.fitting(a, dir, avail);
        self.clear_near(a, dir, &mut ok, blocked);
        ok
    }

    /// The slots of the placements through `a` in direction `dir` on the board with a piece of
    /// `avail`, whatever covers their cells.
    #[inline(always)]
    pub(crate) fn fitting(&self, a: usize, dir: usize, avail: &DirSlice<W>) -> DirSlice<W> {
        let fits = &self.fits[a * self.dirs + dir];
        let mut ok = [0u64; W];
        for w in 0..W {
            ok[w] = avail[w] & fits[w];
        }
        ok
    }

    /// Clears from `ok` (slots of `a` in direction `dir`) the placements that cover a cell of
    /// `cells`.
    #[inline(always)]
    pub(crate) fn clear_near(&self, a: usize, dir: usize, ok: &mut DirSlice<W>, cells: &Bits) {
        match &self.window {
            Some(window) => window.clear(a, dir, ok, cells),
            None => self.clear_near_by_list(a, dir, ok, cells),
        }
    }

    /// [`Directed::clear_near`] by the lists of near cells: a step per cell of `cells` near
    /// `a`.
    #[inline(always)]
    fn clear_near_by_list(&self, a: usize, dir: usize, ok: &mut DirSlice<W>, cells: &Bits) {
        self.each_covering(a, dir, cells, |slice| {
            for w in 0..W {
                ok[w] &= !slice[w];
            }
        });
    }

    /// Calls `f` with the slots of `a` in direction `dir` whose placement covers the cell, for
    /// each cell of `cells` near `a` (but `a` itself), in increasing cell order.
    #[inline(always)]
    pub(crate) fn each_covering(
        &self,
        a: usize,
        dir: usize,
        cells: &Bits,
        f: impl FnMut(&DirSlice<W>),
    ) {
        let r = self.near[a * self.dirs + dir];
        let words = &self.near_bits[r.bits as usize..r.bits as usize + r.len as usize];
        let index = &self.near_index[r.slices as usize..];
        let table = &self.slice_table;
        each_covering(
            words,
            r.lo as usize,
            |k| &table[index[k] as usize],
            cells,
            f,
        );
    }

    /// The slots of [`Full`] that the slots of (class of `a`, `dir`) stand for.
    #[inline(always)]
    pub(crate) fn full_slots(&self, full: &Full, a: usize, dir: usize) -> &[u16] {
        let cd = self.layout_of(full, a, dir);
        &self.full_slot[cd * 64 * W..(cd + 1) * 64 * W]
    }

    /// The slot of [`Full`] that slot `j` of (class of `a`, `dir`) stands for.
    #[inline(always)]
    pub(crate) fn full_slot(&self, full: &Full, a: usize, dir: usize, j: usize) -> usize {
        self.full_slot[self.layout_of(full, a, dir) * 64 * W + j] as usize
    }
}

#[cfg(test)]
mod tests {
    use super::super::{AnyCornerGen, CornerGen};
    use super::*;
    use crate::movegen::Generator;
    use crate::rng::Rng;

    /// Random sets of cells, from sparse to dense.
    fn random_sets(n: usize, rng: &mut Rng) -> Vec<Bits> {
        (0..40)
            .map(|k| Bits::from_cells((0..n).filter(|_| rng.below(40) < k)))
            .collect()
    }

    fn windows_agree<const W: usize>(id: &str, g: &CornerGen<W>, v: &Variant, rng: &mut Rng) {
        let (full, ds, n) = (&g.full, &g.directed, v.num_cells());
        assert!(ds.window.is_some() && ds.diagonals.is_some(), "{id}");
        let every_piece = ds.available((1 << v.pieces.len()) - 1);
        for cells in random_sets(n, rng) {
            for a in 0..n {
                for (_, dir) in ds.corner_dirs[a].iter() {
                    let avail = &every_piece[ds.layout_of(full, a, dir)];
                    let all = ds.fitting(a, dir, avail);
                    let (mut by_window, mut by_list) = (all, all);
                    ds.clear_near(a, dir, &mut by_window, &cells);
                    ds.clear_near_by_list(a, dir, &mut by_list, &cells);
                    assert_eq!(by_window, by_list, "{id} cell {a} direction {dir}");
                    let window = ds.window().unwrap();
                    let (l, bits) = window.gather(a, dir, &cells);
                    let has = |set: &DirSlice<W>, j: usize| set[j / 64] >> (j % 64) & 1 != 0;
                    for j in (0..64 * W).filter(|&j| has(&all, j)) {
                        let cleared = !has(&by_list, j);
                        assert_eq!(window.covers(l, j, bits), cleared, "{id} {a} {j}");
                    }
                }
                let first = ds.corner_dirs[a]
                    .iter()
                    .find(|&(x, _)| cells.contains(x))
                    .map(|(_, dir)| dir);
                assert_eq!(ds.dir_toward(a, &cells), first, "{id} cell {a}");
            }
        }
    }

    #[test]
    fn windows_clear_what_the_near_lists_clear() {
        let mut rng = Rng::new(7);
        for id in ["classic", "duo", "junior"] {
            let t = crate::tables(id).unwrap();
            match &t.generator {
                Generator::Corner(AnyCornerGen::W1(g)) => {
                    windows_agree(id, g, &t.variant, &mut rng)
                }
                Generator::Corner(AnyCornerGen::W2(g)) => {
                    windows_agree(id, g, &t.variant, &mut rng)
                }
                Generator::Corner(AnyCornerGen::W4(g)) => {
                    windows_agree(id, g, &t.variant, &mut rng)
                }
                Generator::Stacking(_) => unreachable!("{id} is flat"),
            }
        }
    }
}
