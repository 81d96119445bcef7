//! The corner rule's move generator: the legal placements through each attach cell, as a
//! bitset of *slots* computed by a few word operations instead of a test per placement.
//!
//! Every placement through a cell `a` has a slot in `a`'s slot layout; which placements are
//! legal through `a` is then `pieces in hand & fits the board & !(covers a blocked cell)`, with
//! the last term cleared from precomputed sets per nearby cell. Two layouts:
//!
//! - [`full`]: every placement through the cell (414 slots for the 21 polyominoes, eight
//!   words), for a colour's first piece, whose attach cells are its start points;
//! - [`directed`]: after the first piece every attach cell touches the colour at a corner, in
//!   one of a few directions, and a legal placement never covers that corner cell or its edge
//!   neighbours; one layout per (cell class, direction) keeps only the slots that leave them
//!   free (127 of 414 slots, two words, for the polyominoes; one word for Junior's pieces, four
//!   for Trigon's). `W` is that width.
//!
//! The placements covering blocked cells are cleared by a [`window`] where the board is numbered
//! so that a cell's neighbours at each offset are a fixed number of indices away (rectangles:
//! Classic, Duo, Junior), by a step per blocked nearby cell otherwise (Trigon, boards with
//! holes); a test pins the two to the same answer.
//!
//! Each placement is produced once: attach cells are visited in order and the ones already
//! visited count as blocked for the later ones.

pub(crate) mod directed;
pub(crate) mod full;
pub(crate) mod window;

use crate::bits::nth_one_in;
use crate::placement::Placements;
use crate::position::{Common, CornerState};
use crate::rng::Rng;
use crate::variant::Variant;

use directed::{DirLayout, Directed};
use full::{Full, Slice};

/// The corner rule's generator with `W`-word directed slots.
#[derive(Debug)]
pub(crate) struct CornerGen<const W: usize> {
    pub(crate) full: Full,
    pub(crate) directed: Directed<W>,
}

/// The widths of directed slots the standard piece sets need (and their subsets).
pub(crate) enum AnyCornerGen {
    W1(Box<CornerGen<1>>),
    W2(Box<CornerGen<2>>),
    W4(Box<CornerGen<4>>),
}

impl AnyCornerGen {
    /// The generator of a flat variant. Every piece set a spec can name (a subset of a
    /// geometry's standard set, in copies) fits the layouts: the test
    /// `every_flat_piece_set_has_a_generator` pins that, so failing here is a bug, not bad input.
    pub(crate) fn new(v: &Variant, placements: &Placements) -> AnyCornerGen {
        let full = Full::new(v, &placements.list, &placements.shapes)
            .expect("the standard piece sets fit the full slot layout");
        let layout = DirLayout::new(v, &full, &placements.shapes)
            .expect("every flat geometry has corner directions");
        match layout.words() {
            1 => AnyCornerGen::W1(Box::new(CornerGen::new(v, placements, full, layout))),
            2 => AnyCornerGen::W2(Box::new(CornerGen::new(v, placements, full, layout))),
            4 => AnyCornerGen::W4(Box::new(CornerGen::new(v, placements, full, layout))),
            words => unreachable!("directed layouts of {words} words"),
        }
    }
}

impl<const W: usize> CornerGen<W> {
    fn new(v: &Variant, placements: &Placements, full: Full, layout: DirLayout) -> CornerGen<W> {
        let directed = Directed::new(v, &placements.list, &full, layout);
        CornerGen { full, directed }
    }

    /// Calls `f` with every legal placement of `color`, each once; stops early when `f`
    /// returns `false`. Returns `false` if stopped early.
    #[inline(always)]
    pub(crate) fn for_each_move<F: FnMut(u32) -> bool>(
        &self,
        common: &Common,
        state: &CornerState,
        color: usize,
        mut f: F,
    ) -> bool {
        if common.placed[color] > 0 {
            return self
                .directed
                .for_each_move(&self.full, common, state, color, f);
        }
        let full = &self.full;
        full.for_each_cell(
            common,
            state,
            color,
            #[inline(always)]
            |cell, ok| {
                for (w, &word) in ok.iter().enumerate() {
                    let mut bits = word;
                    while bits != 0 {
                        let slot = w * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        if !f(full.id(cell, slot)) {
                            return false;
                        }
                    }
                }
                true
            },
        )
    }

    /// Appends the legal placements of `color` to `out`.
    #[inline(always)]
    pub(crate) fn list_into(
        &self,
        common: &Common,
        state: &CornerState,
        color: usize,
        out: &mut Vec<u32>,
    ) {
        if common.placed[color] > 0 {
            self.directed
                .list_into(&self.full, common, state, color, out);
        } else {
            self.for_each_move(
                common,
                state,
                color,
                #[inline(always)]
                |id| {
                    out.push(id);
                    true
                },
            );
        }
    }

    /// Number of legal placements of `color`: each legal slot is one move, counted without
    /// naming it.
    #[inline(always)]
    pub(crate) fn count(&self, common: &Common, state: &CornerState, color: usize) -> usize {
        if common.placed[color] > 0 {
            return self.directed.count(&self.full, common, state, color);
        }
        let mut n = 0;
        self.full.for_each_cell(
            common,
            state,
            color,
            #[inline(always)]
            |_, ok| {
                n += ok.iter().map(|w| w.count_ones() as usize).sum::<usize>();
                true
            },
        );
        n
    }

    /// Whether `color` has a legal placement.
    #[inline(always)]
    pub(crate) fn has_move(&self, common: &Common, state: &CornerState, color: usize) -> bool {
        !self.for_each_move(
            common,
            state,
            color,
            #[inline(always)]
            |_| false,
        )
    }

    /// A uniformly random legal placement of `color`, without listing the moves: the legal
    /// slots of every attach cell are counted and kept in `scratch`, then one is picked.
    #[inline(always)]
    pub(crate) fn sample(
        &self,
        common: &Common,
        state: &CornerState,
        color: usize,
        rng: &mut Rng,
        scratch: &mut Vec<(u16, Slice)>,
    ) -> Option<u32> {
        if common.placed[color] > 0 {
            return self
                .directed
                .sample(&self.full, common, state, color, rng, scratch);
        }
        scratch.clear();
        let mut total = 0u64;
        self.full.for_each_cell(
            common,
            state,
            color,
            #[inline(always)]
            |cell, ok| {
                let n: u32 = ok.iter().map(|w| w.count_ones()).sum();
                if n > 0 {
                    total += u64::from(n);
                    scratch.push((cell as u16, *ok));
                }
                true
            },
        );
        if total == 0 {
            return None;
        }
        let mut k = rng.below(total);
        for (cell, ok) in scratch.iter() {
            let n: u64 = ok.iter().map(|w| u64::from(w.count_ones())).sum();
            if k < n {
                return Some(self.full.id(usize::from(*cell), nth_one_in(ok, k as usize)));
            }
            k -= n;
        }
        unreachable!("k is below the total")
    }
}
