//! Windows: the cells near an attach cell gathered into one word, on boards numbered so that a
//! cell's neighbours at a given offset are always the same number of indices away.
//!
//! On such a board (a rectangle numbered row by row: classic, Duo, Junior), the cells a
//! placement through an attach cell `a` may cover lie in a few runs of a bitset, each at a fixed
//! distance from `a`'s index whatever `a` is. Gathering those runs into one word (the
//! *window*, 30 bits for the pentominoes of a corner-directed layout: two 64-bit reads of the
//! bitset, masked and rotated) lets the placements covering a blocked cell be cleared from a
//! slice by eight table lookups, one per four bits of the window, instead of a step per blocked
//! cell, whose loop ends at a branch the processor cannot predict. Bits of a window outside the
//! board read whatever the bitset holds there: no placement that fits the board covers them, so
//! their value never matters.
//!
//! The corner neighbours are found the same way: the direction from `a` toward one of its
//! colour's cells comes from a test of four bits at fixed distances, without a loop.

use super::directed::{CornerDirs, DirSlice};
use crate::bits::Bits;
use crate::variant::Variant;

/// The most runs of a window (one per row a pentomino through a cell can reach, in a
/// corner-directed layout).
const MAX_RUNS: usize = 8;
/// The 64-bit reads of the board's bitset a window is gathered from.
const READS: usize = 2;
/// The most bits of a window.
const WINDOW_BITS: usize = 32;
/// Groups of four bits of a window, each looked up in a table of 16.
const NIBBLES: usize = WINDOW_BITS / 4;

/// Where a layout's window comes from: 64 bits of the board's bitset from `reads[r]` indices
/// past the attach cell's, and in them its runs: run `k` is the bits `mask[r][k]` of read `r`
/// (zero for the other reads), rotated right by `rotate[k]` into their place in the window. The
/// runs are kept one array per field so that each is one vector.
#[derive(Clone, Copy, Debug, Default)]
struct Gather {
    reads: [i32; READS],
    mask: [[u64; MAX_RUNS]; READS],
    rotate: [u64; MAX_RUNS],
}

/// The windows of the layouts of a [`Directed`](super::directed::Directed) with `W`-word
/// slices.
#[derive(Debug)]
pub(crate) struct Window<const W: usize> {
    /// Directions per cell.
    dirs: usize,
    /// Per (cell, direction): its layout.
    layout_of: Vec<u8>,
    /// Per layout: where its window comes from (the unused runs with mask 0).
    gather: Vec<Gather>,
    /// Per layout, group of four bits of the window and value of the group: the slots whose
    /// placement covers the cell of a bit set in it.
    covering: Vec<[[DirSlice<W>; 16]; NIBBLES]>,
    /// Per (layout, slot): the window bits its placement covers.
    cover: Vec<u64>,
}

/// Word `i` of `cells`, 0 for an index before or after the set.
#[inline(always)]
fn word(cells: &Bits, i: i32) -> u64 {
    // A negative index turns into a huge one, which `get` refuses.
    cells.0.get(i as usize).copied().unwrap_or(0)
}

/// 64 bits of `cells` from index `p` on (bits before or after the set read as 0).
#[inline(always)]
fn bits_from(cells: &Bits, p: i32) -> u64 {
    let (i, s) = (p >> 6, (p & 63) as u32);
    (word(cells, i) >> s) | ((word(cells, i + 1) << 1) << (63 - s))
}

impl<const W: usize> Window<W> {
    /// Works out the windows of `num_layouts` layouts, or `None` if the board's numbering does
    /// not allow them or a window would not fit [`WINDOW_BITS`]. `corner_dirs` gives each
    /// cell's directions, `layout(a, dir)` the layout of (`a`, `dir`) and `fitting(a, dir)` the
    /// slots of that layout that fit the board at `a` with the cells of their placement.
    pub(crate) fn new<'p>(
        variant: &Variant,
        corner_dirs: &[CornerDirs],
        num_layouts: usize,
        layout: impl Fn(usize, usize) -> usize,
        fitting: impl Fn(usize, usize) -> Vec<(usize, &'p [u16])>,
    ) -> Option<Window<W>> {
        let coords = &variant.cells;
        let n = coords.len();
        let dirs = corner_dirs
            .iter()
            .flat_map(CornerDirs::iter)
            .map(|(_, dir)| dir + 1)
            .max()?;
        let offset = |a: usize, x: usize| {
            let (p, q) = (coords[a], coords[x]);
            [q[0] - p[0], q[1] - p[1], q[2] - p[2]]
        };
        // Per layout: a row per offset alike but for the first coordinate, spanning the
        // offsets of the cells other than `a` that its placements cover; and the cells using it.
        // Given up as soon as the rows are too many or too wide.
        let mut rows: Vec<Vec<([i32; 2], i32, i32)>> = vec![Vec::new(); num_layouts];
        let mut users = vec![Vec::new(); num_layouts];
        let mut layout_of = vec![0u8; n * dirs];
        for (a, around) in corner_dirs.iter().enumerate() {
            for (_, dir) in around.iter() {
                let l = layout(a, dir);
                layout_of[a * dirs + dir] = u8::try_from(l).ok()?;
                users[l].push(a);
                let rows = &mut rows[l];
                for (_, cells) in fitting(a, dir) {
                    for x in cells.iter().map(|&x| usize::from(x)).filter(|&x| x != a) {
                        let o = offset(a, x);
                        match rows.iter_mut().find(|(row, _, _)| *row == [o[1], o[2]]) {
                            Some((_, lo, hi)) => (*lo, *hi) = ((*lo).min(o[0]), (*hi).max(o[0])),
                            None => rows.push(([o[1], o[2]], o[0], o[0])),
                        }
                    }
                }
                let width: i32 = rows.iter().map(|(_, lo, hi)| hi - lo + 1).sum();
                if rows.len() > MAX_RUNS || width > WINDOW_BITS as i32 {
                    return None;
                }
            }
        }
        // Per layout and row: its distance in indices from the attach cell and its place in
        // the window.
        let mut placed = vec![Vec::new(); num_layouts];
        let mut gather = vec![Gather::default(); num_layouts];
        for l in 0..num_layouts {
            let mut shift = 0;
            for &([y, z], lo, hi) in &rows[l] {
                // Each cell of the row on the board must lie `delta + (dx - lo)` indices past
                // every user's own.
                let mut delta = None;
                for &a in &users[l] {
                    let c = coords[a];
                    for dx in lo..=hi {
                        if let Some(x) = variant.cell_at([c[0] + dx, c[1] + y, c[2] + z]) {
                            let d = x as i32 - a as i32 - (dx - lo);
                            if *delta.get_or_insert(d) != d {
                                return None;
                            }
                        }
                    }
                }
                let width = hi - lo + 1;
                placed[l].push((delta?, width, shift));
                shift += width;
            }
            // The rows in order of distance, a read starting at the first row that does not
            // fit the last read.
            let mut order = placed[l].clone();
            order.sort_unstable();
            let mut reads: Vec<i32> = Vec::new();
            for (k, &(delta, width, shift)) in order.iter().enumerate() {
                if reads.last().is_none_or(|&r| delta + width - r > 64) {
                    reads.push(delta);
                }
                let (read, start) = (reads.len() - 1, delta - reads[reads.len() - 1]);
                if k >= MAX_RUNS || read >= READS {
                    return None;
                }
                gather[l].mask[read][k] = ((1u64 << width) - 1) << start;
                gather[l].rotate[k] = (start - shift).rem_euclid(64) as u64;
            }
            // A read not needed reads what the first does (and none of its bits is kept).
            for (r, read) in gather[l].reads.iter_mut().enumerate() {
                *read = reads.get(r).or(reads.first()).copied().unwrap_or(0);
            }
        }
        let mut by_bit = vec![[[0u64; W]; WINDOW_BITS]; num_layouts];
        let mut cover = vec![0u64; num_layouts * 64 * W];
        for (a, around) in corner_dirs.iter().enumerate() {
            for (_, dir) in around.iter() {
                let l = layout(a, dir);
                for (j, cells) in fitting(a, dir) {
                    for x in cells.iter().map(|&x| usize::from(x)).filter(|&x| x != a) {
                        let o = offset(a, x);
                        let k = rows[l]
                            .iter()
                            .position(|(row, _, _)| *row == [o[1], o[2]])
                            .expect("every offset has its row");
                        let bit = placed[l][k].2 + o[0] - rows[l][k].1;
                        by_bit[l][bit as usize][j / 64] |= 1 << (j % 64);
                        cover[l * 64 * W + j] |= 1 << bit;
                    }
                }
            }
        }
        let covering = by_bit
            .iter()
            .map(|by_bit| {
                std::array::from_fn(|k| {
                    std::array::from_fn(|v| {
                        let mut slots = [0u64; W];
                        for (i, bit) in by_bit[4 * k..4 * k + 4].iter().enumerate() {
                            if v >> i & 1 != 0 {
                                for w in 0..W {
                                    slots[w] |= bit[w];
                                }
                            }
                        }
                        slots
                    })
                })
            })
            .collect();
        Some(Window {
            dirs,
            layout_of,
            gather,
            covering,
            cover,
        })
    }

    /// The layout of (`a`, `dir`) and the window of `cells` there.
    #[inline(always)]
    pub(crate) fn gather(&self, a: usize, dir: usize, cells: &Bits) -> (usize, u64) {
        let l = usize::from(self.layout_of[a * self.dirs + dir]);
        let gather = &self.gather[l];
        let words = gather.reads.map(|d| bits_from(cells, a as i32 + d));
        let mut window = 0;
        for (k, &rotate) in gather.rotate.iter().enumerate() {
            let mut run = 0;
            for (word, mask) in words.iter().zip(&gather.mask) {
                run |= word & mask[k];
            }
            window |= run.rotate_right(rotate as u32);
        }
        (l, window)
    }

    /// Whether the placement of slot `j` of layout `l` covers a cell of `window`.
    #[inline(always)]
    pub(crate) fn covers(&self, l: usize, j: usize, window: u64) -> bool {
        self.cover[l * 64 * W + j] & window != 0
    }

    /// Clears from `ok` (slots of layout `l`) the placements that cover a cell of `window`.
    #[inline(always)]
    pub(crate) fn clear_window(&self, l: usize, ok: &mut DirSlice<W>, window: u64) {
        // A fixed number of steps, without a branch: the slots covering a cell of each group
        // of four bits of the window, looked up.
        let mut gone = [0u64; W];
        for (k, by_value) in self.covering[l].iter().enumerate() {
            let slots = &by_value[(window >> (4 * k) & 15) as usize];
            for w in 0..W {
                gone[w] |= slots[w];
            }
        }
        for w in 0..W {
            ok[w] &= !gone[w];
        }
    }

    /// Clears from `ok` (slots of `a` in direction `dir`) the placements that cover a cell of
    /// `cells`.
    #[inline(always)]
    pub(crate) fn clear(&self, a: usize, dir: usize, ok: &mut DirSlice<W>, cells: &Bits) {
        let (l, window) = self.gather(a, dir, cells);
        self.clear_window(l, ok, window);
    }
}

/// The most directions [`Diagonals`] handles (those of squares).
const DIAGONALS: usize = 4;

/// Corner neighbours at fixed distances: each direction's cell the same number of indices
/// away from every cell that has one.
#[derive(Debug)]
pub(crate) struct Diagonals {
    /// Per direction: how many indices away its cell is.
    delta: [i32; DIAGONALS],
    /// Per cell: the directions with a cell on the board, a bit each.
    on_board: Vec<u8>,
}

impl Diagonals {
    /// The distances of `corner_dirs` (each cell's corner neighbours with their directions), or
    /// `None` if the board's numbering does not give them.
    pub(crate) fn new(corner_dirs: &[CornerDirs]) -> Option<Diagonals> {
        let mut delta = [None; DIAGONALS];
        let mut on_board = vec![0u8; corner_dirs.len()];
        for (a, around) in corner_dirs.iter().enumerate() {
            for (x, dir) in around.iter() {
                // The first in the list is the lowest direction, as `toward` finds it.
                if on_board[a] >> dir != 0 {
                    return None;
                }
                let d = x as i32 - a as i32;
                if *delta.get_mut(dir)?.get_or_insert(d) != d {
                    return None;
                }
                on_board[a] |= 1 << dir;
            }
        }
        Some(Diagonals {
            delta: delta.map(|d| d.unwrap_or(0)),
            on_board,
        })
    }

    /// The first direction from `a` toward a cell of `own`, if any.
    #[inline(always)]
    pub(crate) fn toward(&self, a: usize, own: &Bits) -> Option<usize> {
        let mut found = 0u32;
        for (dir, &d) in self.delta.iter().enumerate() {
            let x = a as i32 + d;
            found |= ((word(own, x >> 6) >> (x & 63) & 1) as u32) << dir;
        }
        found &= u32::from(self.on_board[a]);
        (found != 0).then(|| found.trailing_zeros() as usize)
    }
}
