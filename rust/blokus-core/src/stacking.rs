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
//! tests (bottoms and cubes, 4 words when the structure has at most 256 cells), in list order, so
//! it reads memory in sequence instead of jumping between placements.
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

use crate::bits::{Bits, WORDS};
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

/// What the generator tests of a placement, over the first `W` words of the cell sets.
#[derive(Clone, Copy, Debug)]
struct Candidate<const W: usize> {
    bottoms: [u64; W],
    mask: [u64; W],
    id: u32,
}

impl<const W: usize> Candidate<W> {
    fn new(id: usize, s: &Stack) -> Candidate<W> {
        Candidate {
            bottoms: prefix(&s.bottoms),
            mask: prefix(&s.mask),
            id: id as u32,
        }
    }
}

impl<const W: usize> Candidate<W> {
    /// Whether the candidate (of a piece in hand) is legal: its bottoms on the surface (so its
    /// cubes are free and supported: they never overlap then) and a cube on a contact cell.
    #[inline]
    fn is_legal(&self, surface: &[u64; W], contact: &[u64; W]) -> bool {
        let mut unsupported = 0;
        let mut touching = 0;
        for w in 0..W {
            unsupported |= self.bottoms[w] & !surface[w];
            touching |= self.mask[w] & contact[w];
        }
        unsupported == 0 && touching != 0
    }
}

fn prefix<const W: usize>(b: &Bits) -> [u64; W] {
    b.0[..W].try_into().expect("W <= WORDS")
}

/// Candidates of every (base cell, piece), list after list; narrow when the cells fit 4 words.
#[derive(Debug)]
enum Candidates {
    Narrow(Vec<Candidate<4>>),
    Wide(Vec<Candidate<WORDS>>),
}

/// The tables of the stacking rule, beside the generic placement tables.
#[derive(Debug)]
pub struct StackTables {
    /// Per placement id.
    pub stacks: Vec<Stack>,
    /// The ground layer (level 1): cells `0..num_columns`, one per column.
    pub ground: Bits,
    /// Number of columns of the structure.
    pub num_columns: usize,
    above: Vec<u16>,
    below: Vec<u16>,
    num_pieces: usize,
    /// `by_base_piece[cell * num_pieces + piece]`: range into `candidates` of the placements of
    /// that piece whose lowest-numbered bottom cube is that cell.
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
            buckets[base * num_pieces + p.piece as usize].push(id as u32);
            stacks.push(s);
        }
        let mut by_base_piece = Vec::with_capacity(buckets.len());
        let mut base_list: Vec<usize> = Vec::with_capacity(placements.len());
        for b in buckets {
            let start = base_list.len() as u32;
            base_list.extend(b.iter().map(|&id| id as usize));
            by_base_piece.push((start, base_list.len() as u32));
        }
        let candidates = if n <= 4 * 64 {
            Candidates::Narrow(
                base_list
                    .iter()
                    .map(|&id| Candidate::new(id, &stacks[id]))
                    .collect(),
            )
        } else {
            Candidates::Wide(
                base_list
                    .iter()
                    .map(|&id| Candidate::new(id, &stacks[id]))
                    .collect(),
            )
        };
        StackTables {
            stacks,
            ground,
            num_columns,
            above,
            below,
            num_pieces,
            by_base_piece,
            reach,
            candidates,
        }
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
    match &st.candidates {
        Candidates::Narrow(c) => scan(st, c, pos, color, bases, &contact, &mut f),
        Candidates::Wide(c) => scan(st, c, pos, color, bases, &contact, &mut f),
    }
}

#[inline]
fn scan<const W: usize, F: FnMut(u32) -> bool>(
    st: &StackTables,
    candidates: &[Candidate<W>],
    pos: &Position,
    color: usize,
    bases: Bits,
    contact: &Bits,
    f: &mut F,
) -> bool {
    let surface: [u64; W] = prefix(&pos.surface);
    let contact: [u64; W] = prefix(contact);
    let available = pos.available[color];
    for base in bases.iter() {
        let row = &st.by_base_piece[base * st.num_pieces..(base + 1) * st.num_pieces];
        let mut pieces = available;
        while pieces != 0 {
            let piece = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let (a, b) = row[piece];
            for c in &candidates[a as usize..b as usize] {
                if c.is_legal(&surface, &contact) && !f(c.id) {
                    return false;
                }
            }
        }
    }
    true
}

/// Draws before [`sample_move`] lists the moves instead.
pub const DRAWS: usize = 128;
/// Most bases [`sample_move`] draws among (one per column); larger structures list.
const MAX_BASES: usize = 64;

/// A uniformly random legal placement of `color`, without listing the moves when it can:
/// each legal placement is in exactly one candidate list (its lowest-numbered bottom cube's,
/// its piece's), so a candidate drawn uniformly from the lists of the colour's bases and pieces
/// is, when it passes the test, uniform among the legal placements. After a few misses a scan
/// makes sure there is a legal placement at all (`None` if not); after [`DRAWS`] misses the
/// moves are listed and one is picked: every legal placement keeps the same chance either way.
pub fn sample_move(pos: &Position, t: &Tables, color: usize, rng: &mut Rng) -> Option<u32> {
    sample_drawing(pos, t, color, rng, DRAWS)
}

/// [`sample_move`] with up to `draws` draws before listing (any number gives the same
/// distribution; fewer draws list more often).
pub fn sample_drawing(
    pos: &Position,
    t: &Tables,
    color: usize,
    rng: &mut Rng,
    draws: usize,
) -> Option<u32> {
    let st = stack_tables(t);
    let (contact, bases) = contact_and_bases(pos, st, color);
    let mut counts = [(0u16, 0u32); MAX_BASES];
    let mut used = 0;
    let mut total = 0u64;
    let available = pos.available[color];
    // A base's candidates are one run, piece after piece: count those of the available pieces
    // or take those of the others from the run, whichever visits fewer pieces.
    let gone = ((1u64 << st.num_pieces) - 1) as u32 & !available;
    let by_gone = gone.count_ones() < available.count_ones();
    for base in bases.iter() {
        let row = &st.by_base_piece[base * st.num_pieces..(base + 1) * st.num_pieces];
        let mut pieces = if by_gone { gone } else { available };
        let mut k = 0;
        while pieces != 0 {
            let piece = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            k += row[piece].1 - row[piece].0;
        }
        if by_gone {
            k = row[st.num_pieces - 1].1 - row[0].0 - k;
        }
        if k > 0 {
            let Some(slot) = counts.get_mut(used) else {
                return pick_listed(pos, t, color, rng);
            };
            *slot = (base as u16, k);
            used += 1;
            total += u64::from(k);
        }
    }
    if total == 0 {
        return None;
    }
    let drawing = Drawing {
        st,
        pos,
        color,
        bases,
        contact: &contact,
        counts: &counts[..used],
        total,
        available,
    };
    let drawn = match &st.candidates {
        Candidates::Narrow(c) => drawing.draw(c, rng, draws),
        Candidates::Wide(c) => drawing.draw(c, rng, draws),
    };
    match drawn {
        Drawn::Found(id) => Some(id),
        Drawn::NoMove => None,
        Drawn::Missed => pick_listed(pos, t, color, rng),
    }
}

/// Misses after which [`sample_move`] first makes sure the colour has a legal placement at
/// all (a scan that stops at the first one), so that a colour without a move is found out
/// without the [`DRAWS`] draws and the listing.
const DRAWS_BEFORE_SCAN: usize = 8;

/// What the draws of [`sample_move`] found.
enum Drawn {
    Found(u32),
    /// The colour has no legal placement.
    NoMove,
    /// No draw was legal.
    Missed,
}

/// What [`sample_move`] draws from: the candidate lists of `counts` (base, number of
/// candidates of the `available` pieces there; `total` in all).
struct Drawing<'a> {
    st: &'a StackTables,
    pos: &'a Position,
    color: usize,
    bases: Bits,
    contact: &'a Bits,
    counts: &'a [(u16, u32)],
    total: u64,
    available: u32,
}

impl Drawing<'_> {
    /// Up to `draws` candidates drawn uniformly; the first legal one.
    fn draw<const W: usize>(
        &self,
        candidates: &[Candidate<W>],
        rng: &mut Rng,
        draws: usize,
    ) -> Drawn {
        let st = self.st;
        let surface: [u64; W] = prefix(&self.pos.surface);
        let contact: [u64; W] = prefix(self.contact);
        for i in 0..draws {
            if i == DRAWS_BEFORE_SCAN {
                let (pos, color, bases) = (self.pos, self.color, self.bases);
                if scan(st, candidates, pos, color, bases, self.contact, &mut |_| {
                    false
                }) {
                    return Drawn::NoMove;
                }
            }
            let mut k = rng.below(self.total) as u32;
            let &(base, _) = self
                .counts
                .iter()
                .find(|&&(_, n)| {
                    let here = k < n;
                    if !here {
                        k -= n;
                    }
                    here
                })
                .expect("k is below the total");
            let row = &st.by_base_piece[base as usize * st.num_pieces..];
            let mut pieces = self.available;
            while pieces != 0 {
                let piece = pieces.trailing_zeros() as usize;
                pieces &= pieces - 1;
                let (a, b) = row[piece];
                if k < b - a {
                    let c = &candidates[(a + k) as usize];
                    if c.is_legal(&surface, &contact) {
                        return Drawn::Found(c.id);
                    }
                    break;
                }
                k -= b - a;
            }
        }
        Drawn::Missed
    }
}

/// A uniformly random legal placement of `color` from the full list.
fn pick_listed(pos: &Position, t: &Tables, color: usize, rng: &mut Rng) -> Option<u32> {
    let mut legal = Vec::new();
    for_each_move(pos, t, color, |id| {
        legal.push(id);
        true
    });
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
    let mut out = vec![0; t.variant.num_colors()];
    for c in top_colors(t, pos).into_iter().flatten() {
        out[c] += 1;
    }
    out
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
