//! The stacking rule's move generator (Blokus 3D): every placement is listed once, under its
//! *base* (the lowest-numbered of its columns' lowest cubes); a placement is legal exactly when
//! its bottoms are on the surface (so its cubes are free and supported) and it covers a contact
//! cell (`rules::stacking`).
//!
//! The generator is bound by memory, not arithmetic: its lists hold compact copies of what it
//! tests (bottoms and cubes, over as few words as the structure needs: 2 up to 128 cells), in
//! list order and one array per word, so it reads memory in sequence instead of jumping between
//! placements, and a run of candidates is tested without branches in vector registers.

use crate::bits::{nth_one, Bits, WORDS};
use crate::placement::Placement;
use crate::position::{Common, StackingState};
use crate::rng::Rng;
use crate::rules::stacking::{faces_of_all, StackCells};
use crate::variant::Variant;

/// What the generator tests of one placement.
#[derive(Clone, Debug)]
struct Stack {
    /// The placement's cubes.
    mask: Bits,
    /// The lowest cube of each of its columns; each must go in the lowest free cell there.
    bottoms: Bits,
}

/// What the generator tests of the placements, over the first `W` words of the cell sets, in
/// columns (one array per word) so that testing a run of placements vectorises.
#[derive(Debug)]
struct Columns<const W: usize> {
    bottoms: [Vec<u64>; W],
    mask: [Vec<u64>; W],
    /// The rank of the piece, to test against a colour's pieces in hand (ranked): a byte,
    /// as the arrays the generator reads are what bounds it.
    piece: Vec<u8>,
    id: Vec<u32>,
}

impl<const W: usize> Columns<W> {
    fn new(ids: &[usize], stacks: &[Stack], pieces: &[u32]) -> Columns<W> {
        let word = |w: usize, f: &dyn Fn(&Stack) -> &Bits| -> Vec<u64> {
            ids.iter().map(|&id| f(&stacks[id]).0[w]).collect()
        };
        Columns {
            bottoms: std::array::from_fn(|w| word(w, &|s| &s.bottoms)),
            mask: std::array::from_fn(|w| word(w, &|s| &s.mask)),
            piece: ids.iter().map(|&id| pieces[id] as u8).collect(),
            id: ids.iter().map(|&id| id as u32).collect(),
        }
    }

    /// Whether candidate `i` is legal and of a piece in `available`: [`Run::is_legal`] for a
    /// candidate tested on its own, whose answer a branch takes. What is missing is gathered
    /// in one integer rather than joined as three conditions: the compiler turns a join of
    /// comparisons that a branch takes into a branch each, and for a drawn candidate each is
    /// a coin toss the CPU mispredicts; one test is one branch. (In the loops over runs the
    /// join stays, as no branch takes it there and it vectorises better.)
    #[inline(always)]
    fn is_legal(&self, i: usize, surface: &[u64; W], contact: &[u64; W], available: u32) -> bool {
        let run = self.run(i..i + 1);
        let (unsupported, touching) = run.cells(0, surface, contact);
        let missing = u32::from(unsupported != 0)
            | u32::from(touching == 0)
            | (!available >> run.piece[0] & 1);
        missing == 0
    }

    /// The legal candidates of `range` (at most 64) whose piece is in `available`, bit `j` for
    /// candidate `range.start + j`: a test without a branch per candidate, which vectorises.
    #[inline(always)]
    fn legal_bits(
        &self,
        range: std::ops::Range<usize>,
        surface: &[u64; W],
        contact: &[u64; W],
        available: u32,
    ) -> u64 {
        debug_assert!(range.len() <= 64);
        let run = self.run(range);
        let mut bits = 0;
        // In blocks of eight first, as in `count`.
        let mut at = 0;
        while at + 8 <= run.len() {
            for i in at..at + 8 {
                bits |= u64::from(run.is_legal(i, surface, contact, available)) << i;
            }
            at += 8;
        }
        for i in at..run.len() {
            bits |= u64::from(run.is_legal(i, surface, contact, available)) << i;
        }
        bits
    }

    /// Number of legal candidates in `range` whose piece is in `available`: the test of
    /// [`Columns::legal_bits`], summed rather than packed into bits (which costs more).
    #[inline(always)]
    fn count(
        &self,
        range: std::ops::Range<usize>,
        surface: &[u64; W],
        contact: &[u64; W],
        available: u32,
    ) -> u32 {
        let run = self.run(range);
        let mut count = 0;
        // Blocks of eight first: a loop of fixed length is vectorised whatever the run's
        // length, while a loop over the whole run is vectorised in steps of many candidates
        // (32 with AVX-512), which leaves the shorter runs (most of them) to scalar code.
        let mut at = 0;
        while at + 8 <= run.len() {
            for i in at..at + 8 {
                count += u32::from(run.is_legal(i, surface, contact, available));
            }
            at += 8;
        }
        for i in at..run.len() {
            count += u32::from(run.is_legal(i, surface, contact, available));
        }
        count
    }

    /// The candidates of `range`, as slices of one length (so that their indexing needs no
    /// checks in the loops).
    #[inline(always)]
    fn run(&self, range: std::ops::Range<usize>) -> Run<'_, W> {
        let n = range.len();
        Run {
            bottoms: std::array::from_fn(|w| &self.bottoms[w][range.clone()][..n]),
            mask: std::array::from_fn(|w| &self.mask[w][range.clone()][..n]),
            piece: &self.piece[range][..n],
        }
    }

    /// The `k`-th legal candidate of `range` whose piece is in `available` (there are more
    /// than `k`).
    #[inline(always)]
    fn nth_legal(
        &self,
        range: std::ops::Range<usize>,
        mut k: u32,
        surface: &[u64; W],
        contact: &[u64; W],
        available: u32,
    ) -> usize {
        let mut at = range.start;
        while at < range.end {
            let end = range.end.min(at + 64);
            let bits = self.legal_bits(at..end, surface, contact, available);
            let n = bits.count_ones();
            if k < n {
                return at + nth_one(bits, k) as usize;
            }
            k -= n;
            at = end;
        }
        unreachable!("k is below the number of legal candidates")
    }

    /// Calls `f` with each legal candidate of `range` whose piece is in `available` (by index,
    /// in order); stops when `f` returns `false`, and then returns `false`.
    #[inline(always)]
    fn for_each_legal(
        &self,
        range: std::ops::Range<usize>,
        surface: &[u64; W],
        contact: &[u64; W],
        available: u32,
        mut f: impl FnMut(usize) -> bool,
    ) -> bool {
        let mut at = range.start;
        while at < range.end {
            let end = range.end.min(at + 64);
            let mut bits = self.legal_bits(at..end, surface, contact, available);
            while bits != 0 {
                if !f(at + bits.trailing_zeros() as usize) {
                    return false;
                }
                bits &= bits - 1;
            }
            at = end;
        }
        true
    }
}

/// A run of [`Columns`].
struct Run<'a, const W: usize> {
    bottoms: [&'a [u64]; W],
    mask: [&'a [u64]; W],
    piece: &'a [u8],
}

impl<const W: usize> Run<'_, W> {
    fn len(&self) -> usize {
        self.piece.len()
    }

    /// Whether candidate `i` of the run is legal and of a piece in `available`, computed
    /// without a branch: its bottoms on the surface (so its cubes are free and supported: they
    /// never overlap then) and a cube on a contact cell.
    #[inline(always)]
    fn is_legal(&self, i: usize, surface: &[u64; W], contact: &[u64; W], available: u32) -> bool {
        let (unsupported, touching) = self.cells(i, surface, contact);
        (unsupported == 0) & (touching != 0) & (available >> self.piece[i] & 1 != 0)
    }

    /// The bottoms of candidate `i` off the surface, and its cubes on contact cells.
    #[inline(always)]
    fn cells(&self, i: usize, surface: &[u64; W], contact: &[u64; W]) -> (u64, u64) {
        let mut unsupported = 0;
        let mut touching = 0;
        for w in 0..W {
            unsupported |= self.bottoms[w][i] & !surface[w];
            touching |= self.mask[w][i] & contact[w];
        }
        (unsupported, touching)
    }
}

fn prefix<const W: usize>(b: &Bits) -> [u64; W] {
    b.0[..W].try_into().expect("W <= WORDS")
}

/// Candidates of every (base cell, piece), list after list, over as few words as the cells need.
#[derive(Debug)]
enum Candidates {
    W2(Columns<2>),
    W3(Columns<3>),
    W4(Columns<4>),
    Wide(Columns<WORDS>),
}

/// Runs `$body` with `$c` bound to the candidate columns, whatever their width.
macro_rules! with_columns {
    ($candidates:expr, $c:ident => $body:expr) => {
        match $candidates {
            Candidates::W2($c) => $body,
            Candidates::W3($c) => $body,
            Candidates::W4($c) => $body,
            Candidates::Wide($c) => $body,
        }
    };
}

/// The stacking rule's generator: the candidates of every (base, piece), and what a colour's
/// contact cells can reach.
#[derive(Debug)]
pub(crate) struct StackGen {
    /// The ground layer (level 1).
    ground: Bits,
    num_pieces: usize,
    /// Pieces of each colour (counting copies).
    pieces_per_color: usize,
    /// Per piece: its rank, the order of the pieces in a base's candidates (and the bit of
    /// the piece in a ranked set of pieces): by decreasing number of placements, the order in
    /// which random play tends to use them up, so that the pieces gone are mostly the first
    /// ones, which the draws skip.
    rank: Vec<u8>,
    /// `by_base_piece[cell * num_pieces + rank]`: range into `candidates` of the placements of
    /// the piece of that rank whose lowest-numbered bottom cube is that cell.
    by_base_piece: Vec<(u32, u32)>,
    /// Per cell: the base cells (lowest-numbered bottom cubes) of the placements covering it,
    /// so the generator visits only bases whose placements can reach a contact cell.
    reach: Vec<Bits>,
    candidates: Candidates,
}

impl StackGen {
    /// The generator of a cube variant's placements.
    pub(crate) fn new(variant: &Variant, placements: &[Placement], cells: &StackCells) -> StackGen {
        let n = variant.num_cells();
        let num_pieces = variant.pieces.len();
        let mut per_piece = vec![0usize; num_pieces];
        for p in placements {
            per_piece[p.piece()] += 1;
        }
        let mut order: Vec<usize> = (0..num_pieces).collect();
        order.sort_by_key(|&p| (std::cmp::Reverse(per_piece[p]), p));
        let mut rank = vec![0u8; num_pieces];
        for (r, &p) in order.iter().enumerate() {
            rank[p] = r as u8;
        }
        let mut stacks = Vec::with_capacity(placements.len());
        let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); n * num_pieces];
        let mut reach = vec![Bits::EMPTY; n];
        for (id, p) in placements.iter().enumerate() {
            let (bottoms, _) = cells.bottoms_and_tops(p.cells(), &p.mask);
            let base = bottoms.iter().next().expect("a piece has a lowest cube");
            for &c in p.cells() {
                reach[usize::from(c)].insert(base);
            }
            buckets[base * num_pieces + usize::from(rank[p.piece()])].push(id as u32);
            stacks.push(Stack {
                mask: p.mask,
                bottoms,
            });
        }
        let mut by_base_piece = Vec::with_capacity(buckets.len());
        let mut base_list: Vec<usize> = Vec::with_capacity(placements.len());
        for b in buckets {
            let start = base_list.len() as u32;
            base_list.extend(b.iter().map(|&id| id as usize));
            by_base_piece.push((start, base_list.len() as u32));
        }
        let pieces: Vec<u32> = placements
            .iter()
            .map(|p| u32::from(rank[p.piece()]))
            .collect();
        let (ids, pieces) = (&base_list, &pieces);
        let candidates = match n.div_ceil(64) {
            0..=2 => Candidates::W2(Columns::new(ids, &stacks, pieces)),
            3 => Candidates::W3(Columns::new(ids, &stacks, pieces)),
            4 => Candidates::W4(Columns::new(ids, &stacks, pieces)),
            _ => Candidates::Wide(Columns::new(ids, &stacks, pieces)),
        };
        StackGen {
            ground: cells.ground,
            num_pieces,
            pieces_per_color: variant.pieces_per_color(),
            rank,
            by_base_piece,
            reach,
            candidates,
        }
    }

    /// `pieces` (bit p for piece p) as a ranked set (bit r for the piece of rank r).
    #[inline(always)]
    fn ranked(&self, pieces: u32) -> u32 {
        let mut ranked = 0;
        let mut rest = pieces;
        while rest != 0 {
            ranked |= 1 << self.rank[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        ranked
    }

    /// The candidates of `base` from its first piece in `available` (a ranked set, not empty)
    /// to its last, with those of the pieces gone in between (to be tested against
    /// `available`).
    #[inline(always)]
    fn run(&self, base: usize, available: u32) -> std::ops::Range<usize> {
        let (first, last) = (
            available.trailing_zeros() as usize,
            31 - available.leading_zeros() as usize,
        );
        let row = &self.by_base_piece[base * self.num_pieces..];
        row[first].0 as usize..row[last].1 as usize
    }

    /// The cells a piece of `color` must share a face with, and the cells its lowest-numbered
    /// bottom cube may go in: own cubes' faces once it has a piece down; any cube's faces and
    /// the ground for a later colour's first piece; anywhere for colour 0's first piece.
    #[inline(always)]
    fn contact_and_bases(
        &self,
        common: &Common,
        state: &StackingState,
        color: usize,
    ) -> (Bits, Bits) {
        let (contact, bases) = if common.placed[color] > 0 {
            (state.contact[color], state.surface)
        } else if color == 0 {
            return (!Bits::EMPTY, state.surface);
        } else {
            (faces_of_all(common, state), state.surface & self.ground)
        };
        // Only bases whose placements can cover a free contact cell can give a legal move.
        let mut reachable = Bits::EMPTY;
        for x in (contact & !common.occupied).iter() {
            reachable |= self.reach[x];
        }
        (contact, bases & reachable)
    }

    /// Calls `f` with every legal placement of `color`, each once; stops early when `f`
    /// returns `false`, and then returns `false`.
    #[inline(always)]
    pub(crate) fn for_each_move<F: FnMut(u32) -> bool>(
        &self,
        common: &Common,
        state: &StackingState,
        color: usize,
        mut f: F,
    ) -> bool {
        let (contact, bases) = self.contact_and_bases(common, state, color);
        with_columns!(&self.candidates, c => self.scan(c, common, state, color, bases, &contact, &mut f))
    }

    /// Appends the legal placements of `color` to `out`.
    #[inline(always)]
    pub(crate) fn list_into(
        &self,
        common: &Common,
        state: &StackingState,
        color: usize,
        out: &mut Vec<u32>,
    ) {
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

    /// Number of legal placements of `color`.
    #[inline(always)]
    pub(crate) fn count(&self, common: &Common, state: &StackingState, color: usize) -> usize {
        let available = self.ranked(common.available[color]);
        if available == 0 {
            return 0;
        }
        let (contact, bases) = self.contact_and_bases(common, state, color);
        with_columns!(&self.candidates, c => {
            let surface = prefix(&state.surface);
            let contact = prefix(&contact);
            bases
                .iter()
                .map(|base| c.count(self.run(base, available), &surface, &contact, available) as usize)
                .sum()
        })
    }

    /// Whether `color` has a legal placement.
    #[inline(always)]
    pub(crate) fn has_move(&self, common: &Common, state: &StackingState, color: usize) -> bool {
        !self.for_each_move(
            common,
            state,
            color,
            #[inline(always)]
            |_| false,
        )
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn scan<const W: usize, F: FnMut(u32) -> bool>(
        &self,
        candidates: &Columns<W>,
        common: &Common,
        state: &StackingState,
        color: usize,
        bases: Bits,
        contact: &Bits,
        f: &mut F,
    ) -> bool {
        let surface: [u64; W] = prefix(&state.surface);
        let contact: [u64; W] = prefix(contact);
        let available = self.ranked(common.available[color]);
        if available == 0 {
            return true;
        }
        for base in bases.iter() {
            let run = self.run(base, available);
            if !candidates.for_each_legal(
                run,
                &surface,
                &contact,
                available,
                #[inline(always)]
                |i| f(candidates.id[i]),
            ) {
                return false;
            }
        }
        true
    }

    /// A uniformly random legal placement of `color`, `None` if it has none, without listing
    /// the moves when it can: [`DRAWS`] draws while the colour has placed fewer than half its
    /// pieces, [`LATE_DRAWS`] after, then a count (see [`StackGen::sample_drawing`]).
    #[inline(always)]
    pub(crate) fn sample(
        &self,
        common: &Common,
        state: &StackingState,
        color: usize,
        rng: &mut Rng,
    ) -> Option<u32> {
        let late = 2 * usize::from(common.placed[color]) >= self.pieces_per_color;
        let draws = if late { LATE_DRAWS } else { DRAWS };
        self.sample_drawing(common, state, color, rng, draws)
    }

    /// A uniformly random legal placement with up to `draws` draws before counting (any
    /// number gives the same distribution; with none it always counts). Each legal placement
    /// is in exactly one base's run of candidates (its lowest-numbered bottom cube's), so a
    /// candidate drawn uniformly from the runs of the colour's bases is, when its piece is in
    /// hand and it passes the test, uniform among the legal placements. The runs are drawn
    /// from whole, from a base's first piece in hand to its last: a candidate of a piece gone
    /// is one more miss, cheaper than walking the pieces in hand on every draw. After the
    /// draws the legal candidates of each base are counted (a test without branches, which
    /// vectorises over the run), one is picked by number and its base's run is walked to it:
    /// every legal placement keeps the same chance either way, and a colour without a move is
    /// found out by the count.
    #[inline(always)]
    pub(crate) fn sample_drawing(
        &self,
        common: &Common,
        state: &StackingState,
        color: usize,
        rng: &mut Rng,
        draws: usize,
    ) -> Option<u32> {
        let available = self.ranked(common.available[color]);
        if available == 0 {
            return None;
        }
        let (contact, bases) = self.contact_and_bases(common, state, color);
        let drawing = Drawing {
            generator: self,
            common,
            state,
            color,
            bases,
            contact: &contact,
            available,
        };
        with_columns!(&self.candidates, c => match drawing.draw(c, rng, draws) {
            Drawn::Found(id) => Some(id),
            Drawn::NoMove => None,
            Drawn::Missed => drawing.pick_counted(c, rng),
        })
    }
}

/// Draws before [`StackGen::sample`] counts the legal moves instead, while the colour has placed
/// fewer than half its pieces: legal placements are then common among the candidates of its
/// runs (random games on the wall, 11 pieces: with 0 to 5 placed, 300 to 25 legal among 860 to
/// 370 candidates).
pub(crate) const DRAWS: usize = 64;
/// Draws once the colour has placed half its pieces or more: legal placements are then rare
/// (6 to 10 placed: 16 to 1 legal among 300 to 30 candidates, and often none), so that draws
/// would mostly miss before the count anyway, and counting at once is cheaper.
pub(crate) const LATE_DRAWS: usize = 4;
/// Most bases [`StackGen::sample`] keeps counts for (one per column); larger structures list.
const MAX_BASES: usize = 64;

/// What the draws of [`StackGen::sample`] found.
enum Drawn {
    Found(u32),
    /// The colour has no candidate at all.
    NoMove,
    /// No draw was legal.
    Missed,
}

/// What [`StackGen::sample`] draws from: the candidates of `bases` of the `available` pieces.
struct Drawing<'a> {
    generator: &'a StackGen,
    common: &'a Common,
    state: &'a StackingState,
    color: usize,
    bases: Bits,
    contact: &'a Bits,
    /// The pieces in hand, ranked.
    available: u32,
}

impl Drawing<'_> {
    #[inline(always)]
    fn run(&self, base: usize) -> std::ops::Range<usize> {
        self.generator.run(base, self.available)
    }

    /// Up to `draws` candidates drawn uniformly; the first legal one.
    #[inline(always)]
    fn draw<const W: usize>(&self, candidates: &Columns<W>, rng: &mut Rng, draws: usize) -> Drawn {
        // The number of candidates up to the end of each run (past the last, more than any),
        // and what turns a number among them all into a candidate of its run.
        let mut ends = [u32::MAX; MAX_BASES];
        let mut offset = [0u32; MAX_BASES];
        let mut used = 0;
        let mut total = 0u32;
        for base in self.bases.iter() {
            let run = self.run(base);
            if !run.is_empty() {
                if used == MAX_BASES {
                    return Drawn::Missed;
                }
                offset[used] = (run.start as u32).wrapping_sub(total);
                total += run.len() as u32;
                ends[used] = total;
                used += 1;
            }
        }
        if total == 0 {
            return Drawn::NoMove;
        }
        let surface: [u64; W] = prefix(&self.state.surface);
        let contact: [u64; W] = prefix(self.contact);
        // The runs a draw is looked for in: a fixed number, most often 16 (one vector).
        let ends = if used <= 16 { &ends[..16] } else { &ends[..] };
        for _ in 0..draws {
            let k = rng.below(u64::from(total)) as u32;
            // The run it falls in, counted without a branch.
            let j = ends.iter().map(|&e| u32::from(e <= k)).sum::<u32>() as usize;
            let i = offset[j].wrapping_add(k) as usize;
            if candidates.is_legal(i, &surface, &contact, self.available) {
                return Drawn::Found(candidates.id[i]);
            }
        }
        Drawn::Missed
    }

    /// A uniformly random legal candidate, from the number of legal ones of each base.
    #[inline(always)]
    fn pick_counted<const W: usize>(&self, candidates: &Columns<W>, rng: &mut Rng) -> Option<u32> {
        let available = self.available;
        let surface: [u64; W] = prefix(&self.state.surface);
        let contact: [u64; W] = prefix(self.contact);
        let mut counts = [(0u16, 0u32); MAX_BASES];
        let mut used = 0;
        let mut total = 0;
        for base in self.bases.iter() {
            let k = candidates.count(self.run(base), &surface, &contact, available);
            if k > 0 {
                let Some(slot) = counts.get_mut(used) else {
                    return self.pick_listed(rng);
                };
                *slot = (base as u16, k);
                used += 1;
                total += k;
            }
        }
        if total == 0 {
            return None;
        }
        let (base, k) = nth_in(&counts[..used], rng.below(u64::from(total)) as u32);
        let i = candidates.nth_legal(
            self.run(usize::from(base)),
            k,
            &surface,
            &contact,
            available,
        );
        Some(candidates.id[i])
    }
}

impl Drawing<'_> {
    /// A uniformly random legal placement from the full list (structures with more bases than
    /// the counts keep).
    #[inline(always)]
    fn pick_listed(&self, rng: &mut Rng) -> Option<u32> {
        let mut legal = Vec::new();
        let generator = self.generator;
        with_columns!(&generator.candidates, c => generator.scan(c, self.common, self.state, self.color, self.bases, self.contact, &mut |id| {
            legal.push(id);
            true
        }));
        (!legal.is_empty()).then(|| legal[rng.below(legal.len() as u64) as usize])
    }
}

/// The base of `counts` (base, number of candidates there) that candidate `k` of them all
/// falls in, and its number there.
#[inline(always)]
fn nth_in(counts: &[(u16, u32)], mut k: u32) -> (u16, u32) {
    for &(base, n) in counts {
        if k < n {
            return (base, k);
        }
        k -= n;
    }
    unreachable!("k is below the total")
}

#[cfg(test)]
mod tests {
    use crate::movegen::Generator;
    use crate::position::RuleState;
    use crate::reference;
    use crate::rng::Rng;
    use crate::testing::{assert_uniform, odd_variants, random_positions};
    use crate::{tables, Board};

    use super::{DRAWS, LATE_DRAWS};

    #[test]
    fn the_sampler_is_uniform_with_any_number_of_draws() {
        for id in ["3d_tower", "3d_pyramid"] {
            let t = tables(id).unwrap();
            let mut board = Board::new(t.clone());
            let mut rng = Rng::new(3);
            for _ in 0..10 {
                let m = board.sample_move(&mut rng).unwrap();
                board.play(m).unwrap();
            }
            let (pos, moves) = (*board.position(), board.legal_moves());
            assert!(moves.len() > 20, "{id}: a position with a choice");
            let (Generator::Stacking(g), RuleState::Stacking(s)) = (&t.generator, &pos.rules)
            else {
                unreachable!("{id} is a Blokus 3D variant")
            };
            // Without draws the legal candidates are always counted; with a few, often; with
            // more, seldom.
            for draws in [0, LATE_DRAWS, DRAWS] {
                let mut rng = Rng::new(11);
                let color = pos.turn().unwrap();
                assert_uniform(&format!("{id}, {draws} draws"), &moves, 100, || {
                    g.sample_drawing(&pos.common, s, color, &mut rng, draws)
                        .unwrap()
                });
            }
        }
    }

    #[test]
    fn the_sampler_finds_a_move_exactly_when_there_is_one() {
        // For every colour (not only the one to move) and every number of draws: a legal move
        // exactly when the reference finds one.
        let (mut with, mut without) = (0, 0);
        let mut rng = Rng::new(5);
        for (id, t) in odd_variants() {
            let Generator::Stacking(g) = &t.generator else {
                continue;
            };
            for pos in random_positions(&t, 6, 9) {
                let RuleState::Stacking(s) = &pos.rules else {
                    unreachable!()
                };
                for c in 0..t.variant.num_colors() {
                    let legal = reference::legal_moves(&t, &pos, c);
                    for draws in [0, LATE_DRAWS, DRAWS] {
                        let drawn = g.sample_drawing(&pos.common, s, c, &mut rng, draws);
                        assert_eq!(drawn.is_some(), !legal.is_empty(), "{id} colour {c}");
                        if let Some(m) = drawn {
                            assert!(legal.binary_search(&m).is_ok(), "{id}: drew {m}");
                            with += 1;
                        } else {
                            without += 1;
                        }
                    }
                }
            }
        }
        assert!(
            with > 100 && without > 100,
            "{with} with a move, {without} without"
        );
    }
}
