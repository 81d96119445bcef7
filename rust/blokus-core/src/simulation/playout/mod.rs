//! Playouts: games played forward, from the empty board or a search's position, as fast as
//! possible, by random moves. On flat boards an incremental engine ([`Engine`]) keeps, per colour
//! and attach cell, the placements through the cell and clears them lazily; elsewhere (Blokus 3D)
//! a plain position is sampled by its generator each turn. How the engine chooses among the moves
//! it keeps (uniformly, by piece weights, by a tournament, or answering the last moves) is
//! [`policy`]'s.

use crate::bits::{nth_one_in, Bits};
use crate::cpu::multiversion;
use crate::movegen::corner::directed::{slots_in, Available, DirSlice, Directed};
use crate::movegen::corner::full::{Full, Slice};
use crate::movegen::corner::{AnyCornerGen, CornerGen};
use crate::movegen::{Generator, Scratch};
use crate::placement::footprint::Footprint;
use crate::placement::MAX_PIECE_CELLS;
use crate::position::{Common, CornerState, Position, RuleState, NO_COLOR};
use crate::rng::Rng;
use crate::rules::corner;
use crate::rules::turn::next_turn;
use crate::tables::Tables;
use crate::variant::MAX_COLORS;

mod policy;
mod replies;
#[cfg(test)]
mod tests;

pub use policy::PlayoutPolicy;
pub(crate) use policy::SizeBias;
use policy::RECENT;
pub(crate) use replies::Replies;

/// A corner-rule game played forward only, as fast as possible. For every colour and every
/// attach cell it can still use, a cache holds slots (in the cell's corner-directed layout,
/// `movegen::corner::directed`)
/// of the placements through that cell: all the legal ones, and possibly some that pieces put
/// down since made illegal. A move changes no cache but the mover's new attach cells' (which
/// start with every slot that fits the board): the caches are cleared lazily, a cell at a time,
/// when a draw meets a placement that is no longer legal, or when the turn passes to the colour
/// and it must be shown to have a move. Moves are sampled from the multiset of (attach cell,
/// slot) pairs; a draw that is not legal clears its cell's cache and draws again (which leaves
/// every legal pair equally likely), and a legal placement through `m` attach cells is accepted
/// with probability `1/m`, which makes the choice uniform over distinct legal placements. A
/// colour's first piece (through its start points) comes from the generator's sampler.
#[derive(Clone)]
pub(crate) struct Engine<'t, const W: usize> {
    t: &'t Tables,
    g: &'t CornerGen<W>,
    full: &'t Full,
    ds: &'t Directed<W>,
    common: Common,
    corner: CornerState,
    /// `cache[color * cells + cell]`: the legal placements through the cell and possibly some
    /// that are no longer legal, meaningful for the cells of `live[color]`.
    cache: Vec<DirSlice<W>>,
    /// `dir[color * cells + cell]`: the direction of the cell's layout.
    dir: Vec<u8>,
    /// `cleared[color * cells + cell]`: the number of moves after which the cell's cache was
    /// last cleared of what covers a forbidden cell (0 for a cache never cleared: no cell is
    /// forbidden before the first move).
    cleared: Vec<u16>,
    /// `history[k * MAX_COLORS + color]`: the cells forbidden to the colour after `k` moves,
    /// so that clearing a cache looks only at the cells forbidden since it was last cleared.
    history: Vec<Bits>,
    /// Attach cells not forbidden to the colour whose cache is not empty: every attach cell
    /// with a legal placement through it, and maybe some without.
    live: [Bits; MAX_COLORS],
    all_pieces: Available<W>,
    /// Per colour and layout: the slots of the pieces it still has.
    avail: [Available<W>; MAX_COLORS],
    scratch: Vec<(u16, u32)>,
    first_scratch: Vec<(u16, Slice)>,
    /// The empty board, and its legal moves in the order the sampler counts them (every game
    /// from the start begins there: the first move is drawn from the list, the same draw).
    start: (Common, CornerState),
    opening: Vec<u32>,
    /// Whether the game is at `start` (not at another position it was set to).
    at_start: bool,
    bias: SizeBias,
    tournament: u8,
    tournament_weights: [f32; 3],
    /// Whether moves answer the other players' last moves ([`PlayoutPolicy::local`]).
    local: bool,
    /// The last [`RECENT`] moves, oldest first: their colour and the cells touching them at a
    /// corner only (`recent_len` of them since the game was set).
    recent: [(u8, Bits); RECENT],
    recent_len: usize,
    /// The moves of the colour to move that answer best, as [`Engine::answer`] finds them.
    answers: Vec<(u32, u8)>,
}

impl<'t, const W: usize> Engine<'t, W> {
    fn common(&self) -> &Common {
        &self.common
    }

    #[cfg(test)]
    fn position(&self) -> Position {
        Position {
            common: self.common,
            rules: RuleState::Corner(self.corner),
        }
    }

    fn new(t: &'t Tables, g: &'t CornerGen<W>) -> Engine<'t, W> {
        let n = t.variant.num_cells();
        let ds = &g.directed;
        let all_pieces = ds.available((1u32 << t.variant.pieces.len()) - 1);
        let start = Position::start(t);
        let RuleState::Corner(corner) = start.rules else {
            unreachable!("a corner generator belongs to a corner variant")
        };
        let mut opening = Vec::new();
        g.list_into(
            &start.common,
            &corner,
            usize::from(start.common.to_move),
            &mut opening,
        );
        let mut e = Engine {
            t,
            g,
            full: &g.full,
            ds,
            common: start.common,
            corner,
            cache: vec![[0; W]; MAX_COLORS * n],
            dir: vec![0; MAX_COLORS * n],
            cleared: vec![0; MAX_COLORS * n],
            history: Vec::with_capacity(256 * MAX_COLORS),
            scratch: Vec::with_capacity(64),
            live: [Bits::EMPTY; MAX_COLORS],
            avail: [all_pieces; MAX_COLORS],
            all_pieces,
            first_scratch: Vec::with_capacity(64),
            start: (start.common, corner),
            opening,
            at_start: true,
            bias: SizeBias::new(t, PlayoutPolicy::UNIFORM),
            tournament: 1,
            tournament_weights: [0.0; 3],
            local: false,
            recent: [(0, Bits::EMPTY); RECENT],
            recent_len: 0,
            answers: Vec::new(),
        };
        e.reset();
        e
    }

    /// Back to the start of a game, keeping the buffers (the caches of cells that are not live
    /// are never read, so they need no clearing).
    fn reset(&mut self) {
        (self.common, self.corner) = self.start;
        self.live = [Bits::EMPTY; MAX_COLORS];
        self.avail = [self.all_pieces; MAX_COLORS];
        self.history.clear();
        self.history.extend_from_slice(&self.corner.forbidden);
        self.at_start = true;
        self.recent_len = 0;
    }

    /// The game at `pos` (a position of the variant, reached by play or setup): each colour's
    /// usable attach cells start with the placements that fit there with the pieces it has,
    /// to be cleared lazily as in play (from the start of the history, when nothing was
    /// forbidden, so the first clearing looks at every forbidden cell).
    fn set_position(&mut self, pos: &Position) {
        let RuleState::Corner(corner) = pos.rules else {
            unreachable!("a corner engine plays corner positions")
        };
        (self.common, self.corner) = (pos.common, corner);
        self.live = [Bits::EMPTY; MAX_COLORS];
        self.history.clear();
        self.history.extend_from_slice(&[Bits::EMPTY; MAX_COLORS]);
        self.at_start = false;
        self.recent_len = 0;
        for c in 0..self.t.variant.num_colors() {
            self.avail[c] = self.ds.available(self.common.available[c]);
            if self.common.placed[c] > 0 {
                let usable = self.corner.attach[c] & !self.corner.forbidden[c];
                self.add_cells(c, &usable);
            }
        }
    }

    fn snapshot(&self) -> Position {
        Position {
            common: self.common,
            rules: RuleState::Corner(self.corner),
        }
    }

    #[inline(always)]
    fn finish(&mut self, rng: &mut Rng, moves: &mut Vec<(u32, u8)>) -> Vec<i32> {
        while let Some(pick) = self.choose(rng) {
            moves.push((self.id_of(&pick), self.common.to_move));
            self.play_pick(pick);
        }
        corner::points(&self.t.variant, &self.common, self.t.variant.scoring)
    }

    #[inline(always)]
    fn play_out(&mut self, rng: &mut Rng, mut moves: Option<&mut Vec<u32>>) -> Vec<i32> {
        self.reset();
        while let Some(pick) = self.pick(rng) {
            if let Some(m) = moves.as_deref_mut() {
                m.push(self.id_of(&pick));
            }
            self.play_pick(pick);
        }
        corner::points(&self.t.variant, &self.common, self.t.variant.scoring)
    }

    /// Starts the caches of new attach cells of `c` with the placements through them that fit
    /// the board with a piece `c` has (what covers their cells is looked at when they are
    /// drawn).
    #[inline(always)]
    fn add_cells(&mut self, c: usize, cells: &Bits) {
        let (full, ds) = (self.full, self.ds);
        let n = self.t.variant.num_cells();
        for a in cells.iter() {
            let dir = ds.dir_of(a, &self.common.cells[c]);
            let avail = &self.avail[c][ds.layout_of(full, a, dir)];
            let ok = ds.fitting(a, dir, avail);
            if ok.iter().any(|&w| w != 0) {
                self.cache[c * n + a] = ok;
                self.dir[c * n + a] = dir as u8;
                self.cleared[c * n + a] = 0;
                self.live[c].insert(a);
            }
        }
    }

    #[inline(always)]
    fn play(&mut self, id: u32) {
        self.play_pick(Pick::Id(id));
    }

    /// Passes the turn to the first colour after `after` that may have a move: a colour with
    /// a piece down may if it has live cells ([`Engine::settle`] makes sure).
    #[inline(always)]
    fn advance(&mut self, after: usize) {
        let (g, common, corner, live) = (self.g, &self.common, &self.corner, &self.live);
        let turn = next_turn(
            self.t.variant.num_colors(),
            common.out,
            after,
            true,
            #[inline(always)]
            |d| {
                if common.placed[d] == 0 {
                    g.has_move(common, corner, d)
                } else {
                    !live[d].is_empty()
                }
            },
        );
        self.common.set_turn(turn);
    }

    /// Makes sure the colour to move has a legal placement: its live cells are made exact
    /// until one has a placement left; a colour left without live cells is out, and the turn
    /// passes on.
    #[inline(always)]
    fn settle(&mut self) {
        loop {
            let c = self.common.to_move;
            if c == NO_COLOR || self.common.placed[c as usize] == 0 {
                return;
            }
            let c = c as usize;
            for a in self.live[c].iter() {
                if self.refresh(c, a) {
                    return;
                }
            }
            self.advance(c);
        }
    }

    /// The placements of `c`'s live cell `a`'s cache that cover no cell of `blocked` and use a
    /// piece `c` has: the legal ones through `a` if `blocked` holds the cells forbidden to `c`
    /// since the cache was last cleared.
    #[inline(always)]
    fn exact(&self, c: usize, a: usize, blocked: &Bits) -> DirSlice<W> {
        let n = self.t.variant.num_cells();
        let dir = self.dir[c * n + a] as usize;
        let mut ok = self.in_hand(c, a, self.ds.layout_of(self.full, a, dir));
        self.ds.clear_near(a, dir, &mut ok, blocked);
        ok
    }

    /// The placements of `c`'s live cell `a`'s cache (layout `l`) that use a piece `c` has.
    #[inline(always)]
    fn in_hand(&self, c: usize, a: usize, l: usize) -> DirSlice<W> {
        let n = self.t.variant.num_cells();
        let mut ok = self.cache[c * n + a];
        for (w, have) in ok.iter_mut().zip(&self.avail[c][l]) {
            *w &= have;
        }
        ok
    }

    /// Makes the cache of `c`'s live cell `a` exact, dropping the cell if it has no legal
    /// placement left; returns whether it has one.
    #[inline(always)]
    fn refresh(&mut self, c: usize, a: usize) -> bool {
        let n = self.t.variant.num_cells();
        // Only the cells forbidden since the cache was last cleared need clearing, which saves
        // steps where a step is taken per cell; a window clears them all at the same cost.
        let fresh;
        let blocked = if self.ds.window().is_some() {
            &self.corner.forbidden[c]
        } else {
            let since = &self.history[usize::from(self.cleared[c * n + a]) * MAX_COLORS + c];
            fresh = self.corner.forbidden[c] & !*since;
            &fresh
        };
        let ok = self.exact(c, a, blocked);
        self.cleared[c * n + a] = self.moves_played() as u16;
        self.set_cache(c, a, ok)
    }

    /// Puts `ok` (exact) in the cache of `c`'s live cell `a`, dropping the cell if it is empty;
    /// returns whether it is not.
    #[inline(always)]
    fn set_cache(&mut self, c: usize, a: usize, ok: DirSlice<W>) -> bool {
        let n = self.t.variant.num_cells();
        self.cache[c * n + a] = ok;
        let any = ok.iter().any(|&w| w != 0);
        if !any {
            self.live[c].remove(a);
        }
        any
    }

    /// After the cache of `c`'s cell `a` (entry `i` of the draw's counts) was made exact: its
    /// new count kept, and the number of slots it lost returned.
    #[inline(always)]
    fn recount(&mut self, i: usize, c: usize, a: usize) -> u64 {
        let n = self.t.variant.num_cells();
        let k = slots_in(&self.cache[c * n + a]);
        let lost = self.scratch[i].1 - k;
        self.scratch[i].1 = k;
        u64::from(lost)
    }

    /// Number of moves since the start.
    #[inline(always)]
    fn moves_played(&self) -> usize {
        self.history.len() / MAX_COLORS - 1
    }

    /// Plays a chosen move, with the cells [`Engine::pick`] derived if it drew it (no record
    /// read).
    #[inline(always)]
    fn play_pick(&mut self, pick: Pick) {
        self.at_start = false;
        let fp = pick.footprint(self.t);
        self.play_footprint(fp);
        self.settle();
    }

    /// The placement id of a chosen move.
    #[inline(always)]
    fn id_of(&self, pick: &Pick) -> u32 {
        match *pick {
            Pick::Id(id) => id,
            Pick::Derived { a, slot, .. } => self.full.id(a, slot),
        }
    }

    /// Puts a piece down for the colour to move and passes the turn (to a colour that may
    /// move: [`Engine::settle`] checks).
    #[inline(always)]
    fn play_footprint(&mut self, fp: Footprint<'_>) {
        let (t, ds) = (self.t, self.ds);
        let c = self.common.to_move as usize;
        let masks = t.placements.footprints.masks(&fp);
        let n = t.variant.num_colors();
        corner::place(
            &mut self.common,
            &mut self.corner,
            n,
            c,
            fp.piece,
            fp.cells,
            &masks,
        );
        self.history.extend_from_slice(&self.corner.forbidden);
        if self.local {
            self.remember(c as u8, masks.corners);
        }
        // Cells forbidden to a colour are no longer attach cells of it; the caches near the
        // piece are left as they are.
        for d in 0..n {
            self.live[d] &= !self.corner.forbidden[d];
        }
        let piece = fp.piece;
        if self.common.available[c] & (1 << piece) == 0 {
            for (cd, avail) in self.avail[c].iter_mut().enumerate().take(ds.num_layouts()) {
                let gone = ds.piece_slots(cd, piece);
                for w in 0..W {
                    avail[w] &= !gone[w];
                }
            }
        }
        let fresh = masks.corners & self.corner.attach[c] & !self.live[c];
        self.add_cells(c, &fresh);
        self.advance(c);
    }

    /// Calls `f` with every legal placement of the colour to move, each once (after the
    /// colour's first piece, from the caches, each made exact as it is reached); stops early
    /// when `f` returns `false`, leaving the caches not reached as they were.
    #[inline(always)]
    fn for_each_move<F: FnMut(u32) -> bool>(&mut self, f: F) -> bool {
        if self.common.to_move == NO_COLOR {
            return true;
        }
        let c = self.common.to_move as usize;
        if self.common.placed[c] == 0 {
            return self.g.for_each_move(&self.common, &self.corner, c, f);
        }
        let live = self.live[c];
        self.for_each_move_through(&live, f)
    }

    /// Calls `f` with every legal placement of the colour to move (which has a piece down)
    /// through a cell of `cells` (of its live cells), each once, as [`Engine::for_each_move`]
    /// does.
    #[inline(always)]
    fn for_each_move_through<F: FnMut(u32) -> bool>(&mut self, cells: &Bits, mut f: F) -> bool {
        let (full, ds) = (self.full, self.ds);
        self.for_each_slice_through(
            cells,
            #[inline(always)]
            |a, dir, ok| {
                let base = ds.full_slots(full, a, dir);
                for (w, &word) in ok.iter().enumerate() {
                    let mut bits = word;
                    while bits != 0 {
                        let j = w * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        if !f(full.id(a, base[j] as usize)) {
                            return false;
                        }
                    }
                }
                true
            },
        )
    }

    /// Calls `f` with each cell `a` of `cells` (of the live cells of the colour to move, which
    /// has a piece down), its direction and the legal placements through it not through a cell
    /// before it, so that every legal placement through the cells comes once; stops early when
    /// `f` returns `false` (and returns `false`).
    #[inline(always)]
    fn for_each_slice_through<F>(&mut self, cells: &Bits, mut f: F) -> bool
    where
        F: FnMut(usize, usize, &DirSlice<W>) -> bool,
    {
        let n = self.t.variant.num_cells();
        let c = self.common.to_move as usize;
        // Each cell is made exact, then listed. A placement through several of the cells is
        // listed from the first of them: the placements through cells already visited are
        // cleared first.
        let mut done = Bits::EMPTY;
        for a in cells.iter() {
            if !self.refresh(c, a) {
                continue;
            }
            let dir = self.dir[c * n + a] as usize;
            let mut ok = self.cache[c * n + a];
            self.ds.clear_near(a, dir, &mut ok, &done);
            if !f(a, dir, &ok) {
                return false;
            }
            done.insert(a);
        }
        true
    }

    /// The distinct placements the caches hold for the colour to move, without those of
    /// pieces gone or covering a forbidden cell, sorted: the legal moves, if every cache holds
    /// all the legal placements through its cell (what the tests check).
    #[cfg(test)]
    fn cached_moves(&self) -> Vec<u32> {
        let (t, full, ds) = (self.t, self.full, self.ds);
        let n = t.variant.num_cells();
        if self.common.to_move == NO_COLOR {
            return Vec::new();
        }
        let c = self.common.to_move as usize;
        if self.common.placed[c] == 0 {
            let mut out = Vec::new();
            self.g.list_into(&self.common, &self.corner, c, &mut out);
            out.sort_unstable();
            return out;
        }
        let mut out = Vec::new();
        for a in self.live[c].iter() {
            let dir = self.dir[c * n + a] as usize;
            for (w, &word) in self
                .exact(c, a, &self.corner.forbidden[c])
                .iter()
                .enumerate()
            {
                let mut bits = word;
                while bits != 0 {
                    let j = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    out.push(full.id(a, ds.full_slot(full, a, dir, j)));
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    #[inline(always)]
    fn sample(&mut self, rng: &mut Rng) -> Option<u32> {
        self.pick(rng).map(|p| self.id_of(&p))
    }

    /// [`Engine::sample`], naming a later move by its slot.
    #[inline(always)]
    fn pick(&mut self, rng: &mut Rng) -> Option<Pick> {
        let (t, full, ds) = (self.t, self.full, self.ds);
        let n = t.variant.num_cells();
        let c = self.common.to_move;
        if c == NO_COLOR {
            return None;
        }
        let c = c as usize;
        let largest = self.bias.largest(self.common.available[c]);
        if self.at_start {
            loop {
                let id = self.opening[rng.below(self.opening.len() as u64) as usize];
                if self
                    .bias
                    .accepts(rng, self.t.placements.footprint(id).piece, largest)
                {
                    return Some(Pick::Id(id));
                }
            }
        }
        if self.common.placed[c] == 0 {
            loop {
                let id =
                    self.g
                        .sample(&self.common, &self.corner, c, rng, &mut self.first_scratch)?;
                if self
                    .bias
                    .accepts(rng, self.t.placements.footprint(id).piece, largest)
                {
                    return Some(Pick::Id(id));
                }
            }
        }
        self.scratch.clear();
        let mut total = 0u64;
        for a in self.live[c].iter() {
            let k = slots_in(&self.cache[c * n + a]);
            total += u64::from(k);
            self.scratch.push((a as u16, k));
        }
        if total == 0 {
            return None;
        }
        loop {
            let mut k = rng.below(total);
            let mut pick = None;
            for (i, &(a, count)) in self.scratch.iter().enumerate() {
                if k < u64::from(count) {
                    pick = Some((i, a as usize, k as usize));
                    break;
                }
                k -= u64::from(count);
            }
            let (i, a, k) = pick.expect("k is below the total");
            let j = nth_one_in(&self.cache[c * n + a], k);
            let dir = self.dir[c * n + a] as usize;
            // A placement no longer legal: the cell's cache is made exact (which leaves the
            // legal pairs as likely as before) and the draw is made again. The colour has a
            // move ([`Engine::settle`]), so the total stays above zero. With windows the draw
            // is tested against the window of the cells forbidden to the colour, which then
            // clears the cache too, before its cells are worked out.
            if let Some(win) = ds.window() {
                let (l, window) = win.gather(a, dir, &self.corner.forbidden[c]);
                let gone = self.avail[c][l][j / 64] >> (j % 64) & 1 == 0;
                if gone || win.covers(l, j, window) {
                    let mut ok = self.in_hand(c, a, l);
                    win.clear_window(l, &mut ok, window);
                    self.set_cache(c, a, ok);
                    total -= self.recount(i, c, a);
                    continue;
                }
            }
            let slot = ds.full_slot(full, a, dir, j);
            // The cells come from the slot's shape on a padded grid (a few KB) rather than the
            // placement's record, which a random draw would read cold.
            let mut cells = [0u16; MAX_PIECE_CELLS];
            let (piece, len) = full.slot_cells(a, slot, &mut cells);
            let listed = &cells[..len];
            if ds.window().is_none()
                && (self.common.available[c] & (1 << piece) == 0
                    || listed
                        .iter()
                        .any(|&x| self.corner.forbidden[c].contains(usize::from(x))))
            {
                self.refresh(c, a);
                total -= self.recount(i, c, a);
                continue;
            }
            let live = &self.live[c];
            let through = listed
                .iter()
                .filter(|&&x| live.contains(usize::from(x)))
                .count() as u64;
            if (through <= 1 || rng.below(through) == 0) && self.bias.accepts(rng, piece, largest) {
                return Some(Pick::Derived {
                    a,
                    slot,
                    piece: piece as u8,
                    len: len as u8,
                    cells,
                });
            }
        }
    }
}

/// A move an [`Engine`] chose: by its id (a colour's first piece, or a move played from
/// outside), or by the attach cell and (full-layout) slot it was drawn from, with the piece and
/// cells derived for it.
#[derive(Clone, Copy, Debug)]
enum Pick {
    Id(u32),
    Derived {
        a: usize,
        slot: usize,
        piece: u8,
        len: u8,
        cells: [u16; MAX_PIECE_CELLS],
    },
}

impl Pick {
    /// The piece and cells of the move: derived ones as they are, else the placement's.
    #[inline(always)]
    fn footprint<'a>(&'a self, t: &'a Tables) -> Footprint<'a> {
        match self {
            Pick::Derived {
                piece, len, cells, ..
            } => Footprint {
                piece: usize::from(*piece),
                cells: &cells[..usize::from(*len)],
            },
            Pick::Id(id) => t.placements.footprint(*id),
        }
    }
}

/// A uniformly random game played forward from the empty board, reusing its buffers from game
/// to game: the incremental engine on flat boards, a plain position elsewhere.
///
/// ```
/// use blokus_core::{tables, Playout, Rng};
/// let t = tables("duo").unwrap();
/// let mut game = Playout::new(&t);
/// let mut moves = Vec::new();
/// let points = game.play_out(&mut Rng::new(7), Some(&mut moves));
/// assert_eq!(points.len(), 2);
/// assert_eq!(game.plies() as usize, moves.len());
/// ```
#[derive(Clone)]
pub struct Playout<'t>(pub(crate) Game<'t>);

#[derive(Clone)]
pub(crate) enum Game<'t> {
    W1(Box<Engine<'t, 1>>),
    W2(Box<Engine<'t, 2>>),
    W4(Box<Engine<'t, 4>>),
    Plain(Box<Plain<'t>>),
}

macro_rules! each_game {
    ($self:expr, $e:ident => $body:expr) => {
        match $self {
            Game::W1($e) => $body,
            Game::W2($e) => $body,
            Game::W4($e) => $body,
            Game::Plain($e) => $body,
        }
    };
}

impl<'t> Playout<'t> {
    /// A game of `t`'s variant at its start.
    pub fn new(t: &'t Tables) -> Playout<'t> {
        Playout(match &t.generator {
            Generator::Corner(AnyCornerGen::W1(g)) => Game::W1(Box::new(Engine::new(t, g))),
            Generator::Corner(AnyCornerGen::W2(g)) => Game::W2(Box::new(Engine::new(t, g))),
            Generator::Corner(AnyCornerGen::W4(g)) => Game::W4(Box::new(Engine::new(t, g))),
            Generator::Stacking(_) => Game::Plain(Box::new(Plain::new(t))),
        })
    }

    /// Plays a whole uniformly random game from the start; returns the points per colour in
    /// the variant's scoring, and appends the moves to `moves` if given.
    pub fn play_out(&mut self, rng: &mut Rng, moves: Option<&mut Vec<u32>>) -> Vec<i32> {
        play_out(self, rng, moves)
    }

    /// A playout with a policy other than uniform.
    pub fn with_policy(t: &'t Tables, policy: PlayoutPolicy) -> Playout<'t> {
        let mut game = Playout::new(t);
        let bias = SizeBias::new(t, policy);
        match &mut game.0 {
            Game::W1(e) => e.follow(policy, bias),
            Game::W2(e) => e.follow(policy, bias),
            Game::W4(e) => e.follow(policy, bias),
            Game::Plain(e) => e.bias = bias,
        }
        game
    }

    /// The game at `pos`, a position of the variant (from here, [`Playout::finish`] plays on).
    pub(crate) fn set_position(&mut self, pos: &Position) {
        each_game!(&mut self.0, e => e.set_position(pos))
    }

    /// Takes `moves` (placement, colour; oldest first) as the moves played last before the
    /// position the game was set to, which the policy may answer.
    pub(crate) fn recall(&mut self, moves: &[(u32, u8)]) {
        match &mut self.0 {
            Game::W1(e) => e.recall(moves),
            Game::W2(e) => e.recall(moves),
            Game::W4(e) => e.recall(moves),
            Game::Plain(_) => {}
        }
    }

    /// Plays the game on from where it is to the end by the playout's policy, appending each
    /// move (placement, colour) to `moves`; returns the points per colour in the variant's
    /// scoring.
    pub(crate) fn finish(&mut self, rng: &mut Rng, moves: &mut Vec<(u32, u8)>) -> Vec<i32> {
        finish(self, rng, moves)
    }

    /// [`Playout::finish`], playing on flat boards the reply `replies` keep to the move just
    /// made wherever it is legal (`last`: the move made last before this position).
    pub(crate) fn finish_replying(
        &mut self,
        rng: &mut Rng,
        moves: &mut Vec<(u32, u8)>,
        replies: &Replies,
        last: Option<u32>,
    ) -> Vec<i32> {
        finish_replying(self, rng, moves, replies, last)
    }

    /// The colour to move, `None` at the end.
    pub(crate) fn turn(&self) -> Option<usize> {
        let c = each_game!(&self.0, e => e.common().to_move);
        (c != NO_COLOR).then_some(usize::from(c))
    }

    /// The position (a copy).
    pub(crate) fn snapshot(&self) -> Position {
        each_game!(&self.0, e => e.snapshot())
    }

    /// Number of placements made so far.
    pub fn plies(&self) -> u32 {
        each_game!(&self.0, e => e.common().plies())
    }

    /// Back to the start of a game.
    pub(crate) fn reset(&mut self) {
        each_game!(&mut self.0, e => e.reset())
    }

    /// The position.
    #[cfg(test)]
    pub(crate) fn position(&self) -> Position {
        each_game!(&self.0, e => e.position())
    }

    /// Whether the game is over.
    pub(crate) fn is_game_over(&self) -> bool {
        each_game!(&self.0, e => e.common().to_move == NO_COLOR)
    }

    /// Plays placement `id` (legal for the colour to move) and finds the next colour to move.
    pub(crate) fn play(&mut self, id: u32) {
        play(self, id)
    }

    /// A uniformly random legal placement of the colour to move.
    pub(crate) fn sample(&mut self, rng: &mut Rng) -> Option<u32> {
        sample(self, rng)
    }

    /// Calls `f` with every legal placement of the colour to move, each once, in no particular
    /// order; stops early when `f` returns `false`. Returns `false` if stopped early.
    pub(crate) fn for_each_move<F: FnMut(u32) -> bool>(&mut self, f: F) -> bool {
        for_each_move(self, f)
    }

    /// The legal moves as the playout keeps them, sorted (for tests: see
    /// `Engine::cached_moves`).
    #[cfg(test)]
    pub(crate) fn cached_moves(&self) -> Vec<u32> {
        each_game!(&self.0, e => e.cached_moves())
    }
}

// The playout's entry points, each compiled per CPU level.

multiversion! {
    fn play_out(game: &mut Playout<'_>, rng: &mut Rng, moves: Option<&mut Vec<u32>>) -> Vec<i32> {
        each_game!(&mut game.0, e => e.play_out(rng, moves))
    }
}

multiversion! {
    fn finish(game: &mut Playout<'_>, rng: &mut Rng, moves: &mut Vec<(u32, u8)>) -> Vec<i32> {
        each_game!(&mut game.0, e => e.finish(rng, moves))
    }
}

multiversion! {
    fn finish_replying(
        game: &mut Playout<'_>,
        rng: &mut Rng,
        moves: &mut Vec<(u32, u8)>,
        replies: &Replies,
        last: Option<u32>,
    ) -> Vec<i32> {
        match &mut game.0 {
            Game::W1(e) => e.finish_replying(rng, moves, replies, last),
            Game::W2(e) => e.finish_replying(rng, moves, replies, last),
            Game::W4(e) => e.finish_replying(rng, moves, replies, last),
            Game::Plain(e) => e.finish(rng, moves),
        }
    }
}

multiversion! {
    fn play(game: &mut Playout<'_>, id: u32) {
        each_game!(&mut game.0, e => e.play(id))
    }
}

multiversion! {
    fn sample(game: &mut Playout<'_>, rng: &mut Rng) -> Option<u32> {
        each_game!(&mut game.0, e => e.sample(rng))
    }
}

multiversion! {
    fn for_each_move(game: &mut Playout<'_>, f: impl FnMut(u32) -> bool) -> bool {
        each_game!(&mut game.0, e => e.for_each_move(f))
    }
}

/// A game on a plain position, sampled by the variant's generator each turn.
#[derive(Clone)]
pub(crate) struct Plain<'t> {
    t: &'t Tables,
    start: Position,
    pos: Position,
    scratch: Scratch,
    bias: SizeBias,
    /// Bit `c` set for the colours found without a move since the last placement.
    without_move: u32,
}

impl<'t> Plain<'t> {
    fn new(t: &'t Tables) -> Plain<'t> {
        let start = Position::start(t);
        Plain {
            t,
            start,
            pos: start,
            scratch: Scratch::default(),
            bias: SizeBias::new(t, PlayoutPolicy::UNIFORM),
            without_move: 0,
        }
    }

    fn snapshot(&self) -> Position {
        self.pos
    }

    fn set_position(&mut self, pos: &Position) {
        self.pos = *pos;
        self.without_move = 0;
    }

    #[inline(always)]
    fn finish(&mut self, rng: &mut Rng, moves: &mut Vec<(u32, u8)>) -> Vec<i32> {
        while !self.pos.is_game_over() {
            let chosen = self.sample(rng);
            if let Some(id) = chosen {
                moves.push((id, self.pos.common.to_move));
            }
            self.advance(chosen);
        }
        let t = self.t;
        t.rules.points(&t.variant, &self.pos, t.variant.scoring)
    }

    fn common(&self) -> &Common {
        &self.pos.common
    }

    #[cfg(test)]
    fn position(&self) -> Position {
        self.pos
    }

    fn reset(&mut self) {
        self.pos = self.start;
        self.without_move = 0;
    }

    #[inline(always)]
    fn play_out(&mut self, rng: &mut Rng, mut moves: Option<&mut Vec<u32>>) -> Vec<i32> {
        self.reset();
        while !self.pos.is_game_over() {
            let chosen = self.sample(rng);
            if let (Some(id), Some(m)) = (chosen, moves.as_deref_mut()) {
                m.push(id);
            }
            self.advance(chosen);
        }
        let t = self.t;
        t.rules.points(&t.variant, &self.pos, t.variant.scoring)
    }

    #[inline(always)]
    fn sample(&mut self, rng: &mut Rng) -> Option<u32> {
        let c = self.pos.turn()?;
        let largest = self.bias.largest(self.pos.common.available[c]);
        loop {
            let id = self.pos.sample_move(self.t, rng, &mut self.scratch)?;
            if self
                .bias
                .accepts(rng, self.t.placements.footprint(id).piece, largest)
            {
                return Some(id);
            }
        }
    }

    /// Plays `id` and passes the turn exactly (to a colour that has a move), as a game driven
    /// from outside needs.
    #[inline(always)]
    fn play(&mut self, id: u32) {
        self.pos.play_unchecked(self.t, id);
        self.without_move = 0;
    }

    /// Plays `chosen` for the colour to move (`None`: it has no move) and passes the turn to
    /// the next colour without asking whether it can move: its own choice finds out, which
    /// saves a search per move. The colours found without a move since the last placement are
    /// the only ones the turn order is told cannot move (who is out, and when the game ends,
    /// stay the rules').
    #[inline(always)]
    fn advance(&mut self, chosen: Option<u32>) {
        let t = self.t;
        let n = t.variant.num_colors();
        let c = usize::from(self.pos.common.to_move);
        let after = match chosen {
            Some(id) => {
                self.pos.place(t, c, id);
                self.without_move = 0;
                c
            }
            None => {
                // Asked again from the colour before it, which it is told it cannot.
                self.without_move |= 1 << c;
                (c + n - 1) % n
            }
        };
        let without = self.without_move;
        let turn = next_turn(
            n,
            self.pos.common.out,
            after,
            t.variant.rules.knocks_out(),
            |d| without & (1 << d) == 0,
        );
        self.pos.common.set_turn(turn);
    }

    #[inline(always)]
    fn for_each_move<F: FnMut(u32) -> bool>(&mut self, f: F) -> bool {
        match self.pos.turn() {
            Some(c) => self.t.generator.for_each_move(&self.pos, c, f),
            None => true,
        }
    }

    #[cfg(test)]
    fn cached_moves(&self) -> Vec<u32> {
        let mut out = self.pos.legal_moves(self.t);
        out.sort_unstable();
        out
    }
}
