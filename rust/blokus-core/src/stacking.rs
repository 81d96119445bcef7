//! The 3D stacking rule of Blokus 3D (RULES.md): support, height limits, face contact, first
//! moves, and the score of columns seen from above.
//!
//! The board is a height map: every column is one run of cubes from the ground, because a cube
//! needs a cube (or the ground) beneath it and every column of a piece is one run. So a
//! placement fits exactly when the lowest cube of each of its columns goes in the lowest free
//! cell of that column. The position keeps those cells as `surface`; a placement keeps its
//! lowest cubes as `bottoms`. Legal is then `bottoms ⊆ surface` plus contact, and every
//! placement is listed once under its lowest-numbered bottom cube, so the generator needs no
//! duplicate check. Height limits need no check at all: cells above a limit do not exist.
//!
//! The generator is bound by memory, not arithmetic: its lists hold compact copies of what it
//! tests (bottoms and cubes, over as few words as the structure needs: 2 up to 128 cells), in
//! list order and one array per word, so it reads memory in sequence instead of jumping between
//! placements, and a run of candidates is tested without branches in vector registers.
//!
//! ```
//! use blokus_core::{stacking, tables, Board, Scoring};
//! let mut board = Board::new(tables("3d_tower").unwrap());
//! assert_eq!(board.count_moves(), 513);
//! board.play_text("a1@1,b1@1").unwrap(); // colour 0 starts anywhere
//! board.play_text("a1@2,b1@2").unwrap_err(); // colour 1 needs a cube on level 1 ...
//! board.play_text("c1@1,c1@2,b1@2").unwrap(); // ... and a face on a placed cube
//! let (t, pos) = (board.tables(), board.position());
//! assert_eq!(stacking::heights(t, pos)[..4], [1, 2, 2, 0]);
//! assert_eq!(board.points(Scoring::Advanced), [1 - 10, 2 - 10, -11, -11]);
//! assert_eq!(board.result_line(), "-9 -8 -11 -11");
//! ```

use crate::bits::{nth_one, Bits, WORDS};
use crate::footprint::Footprint;
use crate::position::{Illegal, Position};
use crate::rng::Rng;
use crate::table::{Placement, Tables};
use crate::variant::Variant;

const NO_CELL: u16 = u16::MAX;

/// What the stacking rule needs of one placement.
#[derive(Clone, Debug)]
pub struct Stack {
    /// The placement's cubes (a copy of its mask, kept next to `bottoms` for the generator).
    pub mask: Bits,
    /// The lowest cube of each of its columns; each must go in the lowest free cell there.
    pub bottoms: Bits,
    /// The cells that must already be occupied: those right beneath `bottoms` (off the ground).
    pub beneath: Bits,
    /// The cells right above each of its columns, within the limits: where the next cubes go.
    pub tops: Bits,
    /// Whether a cube is on level 1.
    pub on_ground: bool,
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

    /// Whether candidate `i` is legal and of a piece in `available`.
    #[inline]
    fn is_legal(&self, i: usize, surface: &[u64; W], contact: &[u64; W], available: u32) -> bool {
        self.run(i..i + 1).is_legal(0, surface, contact, available)
    }

    /// The legal candidates of `range` (at most 64) whose piece is in `available`, bit `j` for
    /// candidate `range.start + j`: a test without a branch per candidate, which vectorises.
    #[inline]
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
        for i in 0..run.len() {
            bits |= u64::from(run.is_legal(i, surface, contact, available)) << i;
        }
        bits
    }

    /// Number of legal candidates in `range` whose piece is in `available`: the test of
    /// [`Columns::legal_bits`], summed rather than packed into bits (which costs more).
    #[inline]
    fn count(
        &self,
        range: std::ops::Range<usize>,
        surface: &[u64; W],
        contact: &[u64; W],
        available: u32,
    ) -> u32 {
        let run = self.run(range);
        let mut count = 0;
        for i in 0..run.len() {
            count += u32::from(run.is_legal(i, surface, contact, available));
        }
        count
    }

    /// The candidates of `range`, as slices of one length (so that their indexing needs no
    /// checks in the loops).
    #[inline]
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
    #[inline]
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
    #[inline]
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
        let mut unsupported = 0;
        let mut touching = 0;
        for w in 0..W {
            unsupported |= self.bottoms[w][i] & !surface[w];
            touching |= self.mask[w][i] & contact[w];
        }
        (unsupported == 0) & (touching != 0) & (available >> self.piece[i] & 1 != 0)
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

/// The tables of the stacking rule, beside the generic placement tables.
#[derive(Debug)]
pub struct StackTables {
    /// Per placement id.
    pub stacks: Vec<Stack>,
    /// The ground layer (level 1): cells `0..num_columns`, one per column.
    pub ground: Bits,
    /// The highest cell of each column.
    summits: Bits,
    /// Number of columns of the structure.
    pub num_columns: usize,
    above: Vec<u16>,
    below: Vec<u16>,
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

impl StackTables {
    /// Builds the tables for the placements of a cube variant.
    pub fn new(variant: &Variant, placements: &[Placement]) -> StackTables {
        let n = variant.num_cells();
        let step = |cell: usize, dz: i32| {
            let [x, y, z] = variant.cells[cell];
            variant
                .cell_at([x, y, z + dz])
                .map_or(NO_CELL, |c| c as u16)
        };
        let above: Vec<u16> = (0..n).map(|c| step(c, 1)).collect();
        let below: Vec<u16> = (0..n).map(|c| step(c, -1)).collect();
        let ground = Bits::from_cells((0..n).filter(|&c| variant.cells[c][2] == 0));
        let num_columns = ground.count() as usize;
        debug_assert!(
            (0..num_columns).all(|c| ground.contains(c)),
            "layer-major cells"
        );
        let num_pieces = variant.pieces.len();
        let mut per_piece = vec![0usize; num_pieces];
        for p in placements {
            per_piece[usize::from(p.piece)] += 1;
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
            let mut s = Stack {
                mask: p.mask,
                bottoms: Bits::EMPTY,
                beneath: Bits::EMPTY,
                tops: Bits::EMPTY,
                on_ground: false,
            };
            for &c in p.cells() {
                let (c, b, a) = (c as usize, below[c as usize], above[c as usize]);
                if b == NO_CELL {
                    s.on_ground = true;
                    s.bottoms.insert(c);
                } else if !p.mask.contains(b as usize) {
                    s.bottoms.insert(c);
                    s.beneath.insert(b as usize);
                }
                if a != NO_CELL && !p.mask.contains(a as usize) {
                    s.tops.insert(a as usize);
                }
            }
            let base = s.bottoms.iter().next().expect("a piece has a lowest cube");
            for &c in p.cells() {
                reach[c as usize].insert(base);
            }
            buckets[base * num_pieces + usize::from(rank[usize::from(p.piece)])].push(id as u32);
            stacks.push(s);
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
            .map(|p| u32::from(rank[usize::from(p.piece)]))
            .collect();
        let (ids, pieces) = (&base_list, &pieces);
        let candidates = match n.div_ceil(64) {
            0..=2 => Candidates::W2(Columns::new(ids, &stacks, pieces)),
            3 => Candidates::W3(Columns::new(ids, &stacks, pieces)),
            4 => Candidates::W4(Columns::new(ids, &stacks, pieces)),
            _ => Candidates::Wide(Columns::new(ids, &stacks, pieces)),
        };
        StackTables {
            stacks,
            ground,
            summits: Bits::from_cells((0..n).filter(|&c| above[c] == NO_CELL)),
            num_columns,
            above,
            below,
            num_pieces,
            pieces_per_color: variant.pieces_per_color(),
            rank,
            by_base_piece,
            reach,
            candidates,
        }
    }

    /// `pieces` (bit p for piece p) as a ranked set (bit r for the piece of rank r).
    #[inline]
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
    #[inline]
    fn run(&self, base: usize, available: u32) -> std::ops::Range<usize> {
        let (first, last) = (
            available.trailing_zeros() as usize,
            31 - available.leading_zeros() as usize,
        );
        let row = &self.by_base_piece[base * self.num_pieces..];
        row[first].0 as usize..row[last].1 as usize
    }

    /// The cell right above `cell`, if it is under the limit.
    pub fn above(&self, cell: usize) -> Option<usize> {
        (self.above[cell] != NO_CELL).then_some(self.above[cell] as usize)
    }

    /// The cell right beneath `cell`, if it is not on the ground.
    pub fn below(&self, cell: usize) -> Option<usize> {
        (self.below[cell] != NO_CELL).then_some(self.below[cell] as usize)
    }
}

fn stack_tables(t: &Tables) -> &StackTables {
    t.stacking
        .as_ref()
        .expect("a variant under the stacking rule has stacking tables")
}

/// The cells a piece of `color` must share a face with, and the cells its lowest-numbered bottom
/// cube may go in: own cubes' faces once it has a piece down; any cube's faces and the ground
/// for a later colour's first piece; anywhere for colour 0's first piece.
#[inline]
fn contact_and_bases(pos: &Position, st: &StackTables, color: usize) -> (Bits, Bits) {
    let (contact, bases) = if pos.placed[color] > 0 {
        (pos.attach[color], pos.surface)
    } else if color == 0 {
        return (!Bits::EMPTY, pos.surface);
    } else {
        (faces_of_all(pos), pos.surface & st.ground)
    };
    // Only bases whose placements can cover a free contact cell can give a legal move.
    let mut reachable = Bits::EMPTY;
    for x in (contact & !pos.occupied).iter() {
        reachable |= st.reach[x];
    }
    (contact, bases & reachable)
}

/// Cells sharing a face with any cube on the board (some may be occupied).
fn faces_of_all(pos: &Position) -> Bits {
    let mut faces = Bits::EMPTY;
    for (attach, &placed) in pos.attach.iter().zip(&pos.placed) {
        if placed > 0 {
            faces |= *attach;
        }
    }
    faces
}

/// Calls `f` with every legal placement of `color`, each once; stops early when `f` returns
/// `false`, and then returns `false`.
#[inline]
pub fn for_each_move<F: FnMut(u32) -> bool>(
    pos: &Position,
    t: &Tables,
    color: usize,
    mut f: F,
) -> bool {
    let st = stack_tables(t);
    let (contact, bases) = contact_and_bases(pos, st, color);
    with_columns!(&st.candidates, c => scan(st, c, pos, color, bases, &contact, &mut f))
}

#[inline]
fn scan<const W: usize, F: FnMut(u32) -> bool>(
    st: &StackTables,
    candidates: &Columns<W>,
    pos: &Position,
    color: usize,
    bases: Bits,
    contact: &Bits,
    f: &mut F,
) -> bool {
    let surface: [u64; W] = prefix(&pos.surface);
    let contact: [u64; W] = prefix(contact);
    let available = st.ranked(pos.available[color]);
    if available == 0 {
        return true;
    }
    for base in bases.iter() {
        let run = st.run(base, available);
        if !candidates.for_each_legal(run, &surface, &contact, available, |i| f(candidates.id[i])) {
            return false;
        }
    }
    true
}

/// Draws before [`sample_move`] counts the legal moves instead, while the colour has placed
/// fewer than half its pieces: legal placements are then common among the candidates of its
/// runs (random games on the wall, 11 pieces: with 0 to 5 placed, 300 to 25 legal among 860 to
/// 370 candidates).
pub const DRAWS: usize = 64;
/// Draws once the colour has placed half its pieces or more: legal placements are then rare
/// (6 to 10 placed: 16 to 1 legal among 300 to 30 candidates, and often none), so that draws
/// would mostly miss before the count anyway, and counting at once is cheaper.
pub const LATE_DRAWS: usize = 4;
/// Most bases [`sample_move`] keeps counts for (one per column); larger structures list.
const MAX_BASES: usize = 64;

/// A uniformly random legal placement of `color`, `None` if it has none, without listing the
/// moves when it can. Each legal placement is in exactly one base's run of candidates (its
/// lowest-numbered bottom cube's), so a candidate drawn uniformly from the runs of the colour's
/// bases is, when its piece is in hand and it passes the test, uniform among the legal
/// placements. The runs are drawn from whole, from a base's first piece in hand to its last:
/// a candidate of a piece gone is one more miss, cheaper than walking the pieces in hand on
/// every draw. After [`DRAWS`] misses ([`LATE_DRAWS`] once the colour has placed half its
/// pieces) the legal candidates of each base are counted (a test without branches, which
/// vectorises over the run), one is picked by number and its base's run is walked to it: every
/// legal placement keeps the same chance either way, and a colour without a move is found out
/// by the count.
pub fn sample_move(pos: &Position, t: &Tables, color: usize, rng: &mut Rng) -> Option<u32> {
    let late = 2 * usize::from(pos.placed[color]) >= stack_tables(t).pieces_per_color;
    let draws = if late { LATE_DRAWS } else { DRAWS };
    sample_drawing(pos, t, color, rng, draws)
}

/// [`sample_move`] with up to `draws` draws before counting (any number gives the same
/// distribution; with none it always counts).
pub fn sample_drawing(
    pos: &Position,
    t: &Tables,
    color: usize,
    rng: &mut Rng,
    draws: usize,
) -> Option<u32> {
    let st = stack_tables(t);
    let available = st.ranked(pos.available[color]);
    if available == 0 {
        return None;
    }
    let (contact, bases) = contact_and_bases(pos, st, color);
    let drawing = Drawing {
        st,
        pos,
        color,
        bases,
        contact: &contact,
        available,
    };
    with_columns!(&st.candidates, c => match drawing.draw(c, rng, draws) {
        Drawn::Found(id) => Some(id),
        Drawn::NoMove => None,
        Drawn::Missed => drawing.pick_counted(c, rng),
    })
}

/// What the draws of [`sample_move`] found.
enum Drawn {
    Found(u32),
    /// The colour has no candidate at all.
    NoMove,
    /// No draw was legal.
    Missed,
}

/// What [`sample_move`] draws from: the candidates of `bases` of the `available` pieces.
struct Drawing<'a> {
    st: &'a StackTables,
    pos: &'a Position,
    color: usize,
    bases: Bits,
    contact: &'a Bits,
    /// The pieces in hand, ranked.
    available: u32,
}

impl Drawing<'_> {
    #[inline]
    fn run(&self, base: usize) -> std::ops::Range<usize> {
        self.st.run(base, self.available)
    }

    /// Up to `draws` candidates drawn uniformly; the first legal one.
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
        let surface: [u64; W] = prefix(&self.pos.surface);
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
    fn pick_counted<const W: usize>(&self, candidates: &Columns<W>, rng: &mut Rng) -> Option<u32> {
        let available = self.available;
        let surface: [u64; W] = prefix(&self.pos.surface);
        let contact: [u64; W] = prefix(self.contact);
        let mut counts = [(0u16, 0u32); MAX_BASES];
        let mut used = 0;
        let mut total = 0;
        for base in self.bases.iter() {
            let k = candidates.count(self.run(base), &surface, &contact, available);
            if k > 0 {
                let Some(slot) = counts.get_mut(used) else {
                    let (pos, color, bases) = (self.pos, self.color, self.bases);
                    return pick_listed(pos, self.st, color, self.contact, bases, rng);
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

/// The base of `counts` (base, number of candidates there) that candidate `k` of them all
/// falls in, and its number there.
#[inline]
fn nth_in(counts: &[(u16, u32)], mut k: u32) -> (u16, u32) {
    for &(base, n) in counts {
        if k < n {
            return (base, k);
        }
        k -= n;
    }
    unreachable!("k is below the total")
}

/// A uniformly random legal placement of `color` from the full list.
fn pick_listed(
    pos: &Position,
    st: &StackTables,
    color: usize,
    contact: &Bits,
    bases: Bits,
    rng: &mut Rng,
) -> Option<u32> {
    let mut legal = Vec::new();
    with_columns!(&st.candidates, c => scan(st, c, pos, color, bases, contact, &mut |id| {
        legal.push(id);
        true
    }));
    (!legal.is_empty()).then(|| legal[rng.below(legal.len() as u64) as usize])
}

/// Why placement `id` breaks the stacking rule for `color`, whose piece is still in hand.
pub fn why_illegal(pos: &Position, t: &Tables, color: usize, id: u32) -> Option<Illegal> {
    let st = stack_tables(t);
    let s = &st.stacks[id as usize];
    if let Some(cell) = (s.mask & pos.occupied).iter().next() {
        return Some(Illegal::Overlap { cell });
    }
    if let Some(cell) = unsupported(t, pos, id) {
        return Some(Illegal::Unsupported { cell });
    }
    if pos.placed[color] > 0 {
        if !s.mask.intersects(&pos.attach[color]) {
            return Some(Illegal::NoFaceContact);
        }
    } else if color != 0 {
        if !s.mask.intersects(&faces_of_all(pos)) {
            return Some(Illegal::FirstNotTouching);
        }
        if !s.on_ground {
            return Some(Illegal::FirstOffGround);
        }
    }
    None
}

/// Puts the placement `fp` down for `color` (the piece bookkeeping is the caller's). What it
/// changes comes from its cells and small per-cell tables: a placement's [`Stack`] (four cell
/// sets) would be read cold on every move.
#[inline]
pub fn place(pos: &mut Position, t: &Tables, color: usize, fp: &Footprint<'_>) {
    let masks = t.footprints().masks(fp);
    let (bottoms, tops) = bottoms_and_tops(t, fp, &masks.cells);
    pos.occupied |= masks.cells;
    pos.cells[color] |= masks.cells;
    pos.forbid_to_all(t, &masks.cells);
    pos.surface = (pos.surface & !bottoms) | tops;
    // Cells sharing a face with the piece, the "edges" of cube geometry.
    pos.attach[color] |= masks.edges;
}

/// The lowest cube of each column of the placement `fp` (cells `cells`) and the cells right
/// above each of its columns within the height limits: [`Stack::bottoms`] and
/// [`Stack::tops`] from the cells alone.
#[inline]
pub fn bottoms_and_tops(t: &Tables, fp: &Footprint<'_>, cells: &Bits) -> (Bits, Bits) {
    let st = stack_tables(t);
    let (mut bottoms, mut tops) = (Bits::EMPTY, Bits::EMPTY);
    for &x in fp.cells {
        let x = usize::from(x);
        let (below, above) = (st.below[x], st.above[x]);
        if below == NO_CELL || !cells.contains(usize::from(below)) {
            bottoms.insert(x);
        }
        if above != NO_CELL && !cells.contains(usize::from(above)) {
            tops.insert(usize::from(above));
        }
    }
    (bottoms, tops)
}

/// The first cube of placement `id` with an empty cell beneath it, if any: for setups, whose
/// pieces come in any order, so support is checked once the board is complete.
pub fn unsupported(t: &Tables, pos: &Position, id: u32) -> Option<usize> {
    let st = stack_tables(t);
    let s = &st.stacks[id as usize];
    s.bottoms
        .iter()
        .find(|&c| st.below(c).is_some_and(|b| !pos.occupied.contains(b)))
}

/// The lowest free cell of each column that has room, on a board where nothing empty is
/// beneath a cube: what play keeps as the position's `surface`.
pub fn surface(t: &Tables, occupied: &Bits) -> Bits {
    let st = stack_tables(t);
    Bits::from_cells((0..t.variant.num_cells()).filter(|&c| {
        !occupied.contains(c)
            && match st.below(c) {
                Some(b) => occupied.contains(b),
                None => true,
            }
    }))
}

/// The surface of the empty structure: the ground layer.
pub fn start_surface(t: &Tables) -> Bits {
    stack_tables(t).ground
}

/// Number of cubes in each column, in column order (the order of the ground layer's cells).
pub fn heights(t: &Tables, pos: &Position) -> Vec<u8> {
    let st = stack_tables(t);
    (0..st.num_columns)
        .map(|column| {
            let mut h = 0;
            let mut cell = Some(column);
            while let Some(c) = cell.filter(|&c| pos.occupied.contains(c)) {
                h += 1;
                cell = st.above(c);
            }
            h
        })
        .collect()
}

/// The colour of the top cube of each column (`None` for an empty column), in column order.
pub fn top_colors(t: &Tables, pos: &Position) -> Vec<Option<usize>> {
    let st = stack_tables(t);
    let n = t.variant.num_colors();
    (0..st.num_columns)
        .map(|column| {
            let mut top = None;
            let mut cell = Some(column);
            while let Some(c) = cell.filter(|&c| pos.occupied.contains(c)) {
                top = Some(c);
                cell = st.above(c);
            }
            top.map(|c| {
                (0..n)
                    .find(|&d| pos.cells[d].contains(c))
                    .expect("a colour")
            })
        })
        .collect()
}

/// Columns whose top cube is each colour's (the columns seen from above).
pub fn visible(t: &Tables, pos: &Position) -> Vec<u32> {
    // The top cube of a column is right beneath its lowest free cell (the surface), or its
    // highest cell when it is full.
    let st = stack_tables(t);
    let mut tops = st.summits & pos.occupied;
    for free in pos.surface.iter() {
        if let Some(top) = st.below(free) {
            tops.insert(top);
        }
    }
    pos.cells[..t.variant.num_colors()]
        .iter()
        .map(|cells| (tops & *cells).count())
        .collect()
}

/// Points of each colour: visible columns minus pieces left in hand.
pub fn points(t: &Tables, pos: &Position) -> Vec<i32> {
    let v = &t.variant;
    visible(t, pos)
        .iter()
        .enumerate()
        .map(|(c, &seen)| seen as i32 - (v.pieces_per_color() - usize::from(pos.placed[c])) as i32)
        .collect()
}
