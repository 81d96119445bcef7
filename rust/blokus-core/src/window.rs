//! Windows: the cells near an attach cell gathered into one word, on boards numbered so that a
//! cell's neighbours at a given offset are always the same number of indices away.
//!
//! On such a board (a rectangle numbered row by row: classic, Duo, Junior), the cells a
//! placement through an attach cell `a` may cover lie in a few runs of a bitset, each at a fixed
//! distance from `a`'s index whatever `a` is. Gathering those runs into one word (the
//! *window*, 30 bits for the pentominoes of a corner-directed layout) lets the placements
//! covering a blocked cell be cleared from a slice by a fixed sequence of vector operations
//! instead of a step per blocked cell, whose loop ends at a branch the processor cannot
//! predict. Bits of a window outside the board read whatever the bitset holds there: no
//! placement that fits the board covers them, so their value never matters.
//!
//! The corner neighbours are found the same way: the direction from `a` toward one of its
//! colour's cells comes from a test of four bits at fixed distances, without a loop.

use crate::bits::Bits;
use crate::directed::{CornerDirs, DirSlice};
use crate::variant::Variant;

/// The most runs of a window (one per row a pentomino through a cell can reach).
const MAX_RUNS: usize = 9;
/// The most bits of a window.
const WINDOW_BITS: usize = 32;

/// One run of a layout's window: `mask` (low bits) of the board's bitset from `delta` indices
/// past the attach cell's, put at bit `shift` of the window.
#[derive(Clone, Copy, Debug, Default)]
struct Run {
    delta: i32,
    mask: u64,
    shift: u32,
}

/// The windows of the layouts of a [`DirSlices`](crate::directed::DirSlices) with `W`-word
/// slices.
#[derive(Debug)]
pub struct Window<const W: usize> {
    /// Directions per cell.
    dirs: usize,
    /// Per (cell, direction): its layout.
    layout_of: Vec<u8>,
    /// Per layout: its runs (the unused ones with mask 0).
    runs: Vec<[Run; MAX_RUNS]>,
    /// Per layout, word of a slice and window bit: the slots whose placement covers the bit's
    /// cell.
    covering: Vec<[[u64; WINDOW_BITS]; W]>,
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
    pub fn new<'p>(
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
        let mut runs = vec![[Run::default(); MAX_RUNS]; num_layouts];
        for l in 0..num_layouts {
            let mut shift = 0;
            for (k, &([y, z], lo, hi)) in rows[l].iter().enumerate() {
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
                let width = (hi - lo + 1) as u32;
                runs[l][k] = Run {
                    delta: delta?,
                    mask: (1 << width) - 1,
                    shift,
                };
                shift += width;
            }
        }
        let mut covering = vec![[[0u64; WINDOW_BITS]; W]; num_layouts];
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
                        let bit = runs[l][k].shift as i32 + o[0] - rows[l][k].1;
                        covering[l][j / 64][bit as usize] |= 1 << (j % 64);
                    }
                }
            }
        }
        Some(Window {
            dirs,
            layout_of,
            runs,
            covering,
        })
    }

    /// Clears from `ok` (slots of `a` in direction `dir`) the placements that cover a cell of
    /// `cells`.
    #[inline(always)]
    pub fn clear(&self, a: usize, dir: usize, ok: &mut DirSlice<W>, cells: &Bits) {
        let l = usize::from(self.layout_of[a * self.dirs + dir]);
        let mut window = 0;
        for run in &self.runs[l] {
            window |= (bits_from(cells, a as i32 + run.delta) & run.mask) << run.shift;
        }
        // A fixed number of steps, without a branch: the slots covering each bit of the
        // window, kept where the bit is set.
        for (word, covering) in ok.iter_mut().zip(&self.covering[l]) {
            let mut gone = 0;
            for (b, slots) in covering.iter().enumerate() {
                gone |= slots & 0u64.wrapping_sub(window >> b & 1);
            }
            *word &= !gone;
        }
    }
}

/// The most directions [`Diagonals`] handles (those of squares).
const DIAGONALS: usize = 4;

/// Corner neighbours at fixed distances: each direction's cell the same number of indices
/// away from every cell that has one.
#[derive(Debug)]
pub struct Diagonals {
    /// Per direction: how many indices away its cell is.
    delta: [i32; DIAGONALS],
    /// Per cell: the directions with a cell on the board, a bit each.
    on_board: Vec<u8>,
}

impl Diagonals {
    /// The distances of `corner_dirs` (each cell's corner neighbours with their directions), or
    /// `None` if the board's numbering does not give them.
    pub fn new(corner_dirs: &[CornerDirs]) -> Option<Diagonals> {
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
    pub fn toward(&self, a: usize, own: &Bits) -> Option<usize> {
        let mut found = 0u32;
        for (dir, &d) in self.delta.iter().enumerate() {
            let x = a as i32 + d;
            found |= ((word(own, x >> 6) >> (x & 63) & 1) as u32) << dir;
        }
        found &= u32::from(self.on_board[a]);
        (found != 0).then(|| found.trailing_zeros() as usize)
    }
}
