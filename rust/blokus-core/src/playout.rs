//! Whole games played inside Rust: uniform random or greedy, on one or many threads.

use std::sync::Arc;

use crate::bits::{nth_one_in, Bits};
use crate::directed::{Available, DirSlice, DirSlices};
use crate::footprint::Footprint;
use crate::position::{Position, NO_COLOR};
use crate::rng::Rng;
use crate::score;
use crate::slices::{Slice, Slices};
use crate::table::{Directed, Tables, MAX_PIECE_CELLS};
use crate::variant::MAX_COLORS;

/// How a colour chooses its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Uniformly among the legal moves.
    Uniform,
    /// Uniformly among the legal moves of the largest piece.
    Greedy,
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Placements in order of play, when asked for (empty otherwise).
    pub moves: Vec<u32>,
    /// Number of placements.
    pub plies: u32,
    /// Points per colour, in the variant's scoring.
    pub points: Vec<i32>,
}

/// The seed of game `index` of a run, so that each game is the same however games are split
/// over threads.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(17)
}

/// Plays one game from the empty board.
pub fn play_game(
    t: &Tables,
    rng: &mut Rng,
    policy: Policy,
    buf: &mut Vec<u32>,
    keep_moves: bool,
) -> GameRecord {
    let mut pos = Position::start(t);
    let mut moves = Vec::new();
    let mut scratch = Vec::new();
    // The turn passes to the next colour without asking whether it can move: its own choice
    // finds out, which saves a search per move. The colours found without a move since the
    // last placement are the only ones `advance_with` is told cannot move (the rules of who
    // is out and when the game ends stay there).
    let n = t.variant.num_colors();
    let mut without_move = 0u32;
    while pos.to_move != NO_COLOR {
        let c = pos.to_move as usize;
        let chosen = match policy {
            // Without bit-sliced tables (and outside the stacking rule, which samples by
            // drawing candidates), one listing beats counting and then walking again.
            Policy::Uniform if t.slices.is_none() && t.stacking.is_none() => {
                buf.clear();
                pos.legal_moves_into(t, buf);
                (!buf.is_empty()).then(|| buf[rng.below(buf.len() as u64) as usize])
            }
            Policy::Uniform => pos.sample_move(t, rng, &mut scratch),
            Policy::Greedy => {
                buf.clear();
                pos.legal_moves_into(t, buf);
                let size = |id: u32| t.placements[id as usize].len;
                buf.iter().map(|&id| size(id)).max().map(|best| {
                    buf.retain(|&id| size(id) == best);
                    buf[rng.below(buf.len() as u64) as usize]
                })
            }
        };
        let after = match chosen {
            Some(id) => {
                if keep_moves {
                    moves.push(id);
                }
                pos.place(t, c, id);
                without_move = 0;
                c
            }
            None => {
                // Asked again from the colour before it, which it is told it cannot.
                without_move |= 1 << c;
                (c + n - 1) % n
            }
        };
        pos.advance_with(t, after, |_, d| without_move & (1 << d) == 0);
    }
    GameRecord {
        moves,
        plies: plies(&pos),
        points: score::points(t, &pos, t.variant.scoring),
    }
}

/// Number of placements made in a game.
fn plies(pos: &Position) -> u32 {
    pos.placed.iter().map(|&n| u32::from(n)).sum()
}

/// Plays the games numbered `range` on `threads` threads; game `i` uses
/// [`game_seed`]`(seed, i)`, so the records are the same for any number of threads and any
/// split of a run into ranges.
pub fn selfplay(
    t: &Arc<Tables>,
    range: std::ops::Range<u64>,
    seed: u64,
    threads: usize,
    policy: Policy,
    keep_moves: bool,
) -> Vec<GameRecord> {
    let (first, games) = (range.start, range.end.saturating_sub(range.start) as usize);
    let threads = threads.clamp(1, games.max(1));
    let mut records: Vec<Option<GameRecord>> = vec![None; games];
    let chunk = games.div_ceil(threads).max(1);
    std::thread::scope(|s| {
        for (k, slot) in records.chunks_mut(chunk).enumerate() {
            let t = Arc::clone(t);
            s.spawn(move || {
                let mut buf = Vec::with_capacity(2048);
                // One incremental playout per thread, reused from game to game.
                let mut fast = Playout::new(&t);
                for (j, r) in slot.iter_mut().enumerate() {
                    let i = first + (k * chunk + j) as u64;
                    let mut rng = Rng::new(game_seed(seed, i));
                    *r = Some(match (policy, fast.as_mut()) {
                        (Policy::Uniform, Some(game)) => {
                            let mut moves = Vec::new();
                            let points = game.play_out(&mut rng, keep_moves.then_some(&mut moves));
                            let plies = plies(game.pos());
                            GameRecord {
                                moves,
                                plies,
                                points,
                            }
                        }
                        _ => play_game(&t, &mut rng, policy, &mut buf, keep_moves),
                    });
                }
            });
        }
    });
    records
        .into_iter()
        .map(|r| r.expect("every game was played"))
        .collect()
}

/// Lists the legal moves at every position of `games` uniformly random games, each position
/// once (the next move is drawn from the list). Returns the number of moves listed and the
/// seconds spent listing. A game's positions are kept as it is played, then listed again one
/// after another, timed together: a clock read per position costs about as much as listing
/// a dozen moves, which timed the clock more than the listing.
pub fn list_in_games(t: &Tables, games: usize, seed: u64) -> (u64, f64) {
    let mut buf = Vec::with_capacity(4096);
    let mut positions = Vec::with_capacity(256);
    let (mut moves, mut seconds) = (0u64, 0.0);
    for i in 0..games {
        let mut rng = Rng::new(game_seed(seed, i as u64));
        let mut pos = Position::start(t);
        positions.clear();
        while pos.to_move != NO_COLOR {
            positions.push(pos);
            buf.clear();
            pos.legal_moves_into(t, &mut buf);
            pos.play(t, buf[rng.below(buf.len() as u64) as usize]);
        }
        let start = std::time::Instant::now();
        for pos in &positions {
            buf.clear();
            pos.legal_moves_into(t, &mut buf);
            moves += buf.len() as u64;
        }
        seconds += start.elapsed().as_secs_f64();
    }
    (moves, seconds)
}

/// Enumerates the legal moves at every position of `games` uniformly random games as a
/// playout keeps them ([`Playout::for_each_move`], which clears each cache as it reaches it:
/// that is timed too; [`list_in_games`] where the variant has no incremental tables). Returns
/// the number of moves enumerated and the seconds spent enumerating (timed per position, so the
/// clock's own cost is counted against it).
pub fn enumerate_in_playouts(t: &Tables, games: usize, seed: u64) -> (u64, f64) {
    let mut moves = 0u64;
    let mut seconds = 0.0;
    let Some(mut game) = Playout::new(t) else {
        return list_in_games(t, games, seed);
    };
    for i in 0..games {
        let mut rng = Rng::new(game_seed(seed, i as u64));
        game.reset();
        while !game.pos().is_game_over() {
            let start = std::time::Instant::now();
            let (mut n, mut check) = (0u64, 0u32);
            game.for_each_move(|id| {
                // Every id is read: nothing is counted that was not named.
                n += 1;
                check ^= id;
                true
            });
            std::hint::black_box(check);
            seconds += start.elapsed().as_secs_f64();
            moves += n;
            let id = game.sample(&mut rng).expect("a colour to move has a move");
            game.play(id);
        }
    }
    (moves, seconds)
}

/// A game played forward only, as fast as possible. For every colour and every attach cell it
/// can still use, a cache holds slots (in the cell's [corner-directed layout](crate::directed))
/// of the placements through that cell: all the legal ones, and possibly some that pieces put
/// down since made illegal. A move changes no cache but the mover's new attach cells' (which
/// start with every slot that fits the board): the caches are cleared lazily, a cell at a time,
/// when a draw meets a placement that is no longer legal, or when the turn passes to the colour
/// and it must be shown to have a move. Moves are sampled from the multiset of (attach cell,
/// slot) pairs; a draw that is not legal clears its cell's cache and draws again (which leaves
/// every legal pair equally likely), and a legal placement through `m` attach cells is accepted
/// with probability `1/m`, which makes the choice uniform over distinct legal placements. A
/// colour's first piece (through its start points) comes from [`Position::sample_move`].
#[derive(Clone)]
pub struct Engine<'t, const W: usize> {
    t: &'t Tables,
    s: &'t Slices,
    ds: &'t DirSlices<W>,
    pos: Position,
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
    /// The empty board, and its legal moves in the order [`Position::sample_move`] counts them
    /// (every game starts there: the first move is drawn from the list, the same draw).
    start: Position,
    opening: Vec<u32>,
}

impl<'t, const W: usize> Engine<'t, W> {
    fn new(t: &'t Tables, s: &'t Slices, ds: &'t DirSlices<W>) -> Engine<'t, W> {
        let n = t.variant.num_cells();
        let all_pieces = ds.available((1u32 << t.variant.pieces.len()) - 1);
        let start = Position::start(t);
        let mut e = Engine {
            t,
            s,
            ds,
            pos: start,
            cache: vec![[0; W]; MAX_COLORS * n],
            dir: vec![0; MAX_COLORS * n],
            cleared: vec![0; MAX_COLORS * n],
            history: Vec::with_capacity(256 * MAX_COLORS),
            scratch: Vec::with_capacity(64),
            live: [Bits::EMPTY; MAX_COLORS],
            avail: [all_pieces; MAX_COLORS],
            all_pieces,
            first_scratch: Vec::with_capacity(64),
            start,
            opening: start.legal_moves(t),
        };
        e.reset();
        e
    }

    /// Back to the start of a game, keeping the buffers (the caches of cells that are not live
    /// are never read, so they need no clearing).
    fn reset(&mut self) {
        self.pos = self.start;
        self.live = [Bits::EMPTY; MAX_COLORS];
        self.avail = [self.all_pieces; MAX_COLORS];
        self.history.clear();
        self.history.extend_from_slice(&self.pos.forbidden);
    }

    fn play_out(&mut self, rng: &mut Rng, mut moves: Option<&mut Vec<u32>>) -> Vec<i32> {
        self.reset();
        while let Some(pick) = self.pick(rng) {
            if let Some(m) = moves.as_deref_mut() {
                m.push(self.id_of(&pick));
            }
            self.play_pick(pick);
        }
        score::points(self.t, &self.pos, self.t.variant.scoring)
    }

    /// Starts the caches of new attach cells of `c` with the placements through them that fit
    /// the board with a piece `c` has (what covers their cells is looked at when they are
    /// drawn).
    fn add_cells(&mut self, c: usize, cells: &Bits) {
        let (s, ds) = (self.s, self.ds);
        let n = self.t.variant.num_cells();
        for a in cells.iter() {
            let dir = ds
                .dir_toward(a, &self.pos.cells[c])
                .expect("an attach cell touches its colour at a corner");
            let avail = &self.avail[c][ds.layout_of(s, a, dir)];
            let ok = ds.fitting(a, dir, avail);
            if ok.iter().any(|&w| w != 0) {
                self.cache[c * n + a] = ok;
                self.dir[c * n + a] = dir as u8;
                self.cleared[c * n + a] = 0;
                self.live[c].insert(a);
            }
        }
    }

    fn play(&mut self, id: u32) {
        self.play_pick(Pick::Id(id));
    }

    /// Passes the turn to the first colour after `after` that may have a move: a colour with
    /// a piece down may if it has live cells ([`Engine::settle`] makes sure).
    fn advance(&mut self, after: usize) {
        let (t, live) = (self.t, &self.live);
        self.pos.advance_with(t, after, |pos, d| {
            if pos.placed[d] == 0 {
                pos.has_move(t, d)
            } else {
                !live[d].is_empty()
            }
        });
    }

    /// Makes sure the colour to move has a legal placement: its live cells are made exact
    /// until one has a placement left; a colour left without live cells is out, and the turn
    /// passes on.
    fn settle(&mut self) {
        loop {
            let c = self.pos.to_move;
            if c == NO_COLOR || self.pos.placed[c as usize] == 0 {
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
    #[inline]
    fn exact(&self, c: usize, a: usize, blocked: &Bits) -> DirSlice<W> {
        let n = self.t.variant.num_cells();
        let dir = self.dir[c * n + a] as usize;
        let mut ok = self.in_hand(c, a, self.ds.layout_of(self.s, a, dir));
        self.ds.clear_near(a, dir, &mut ok, blocked);
        ok
    }

    /// The placements of `c`'s live cell `a`'s cache (layout `l`) that use a piece `c` has.
    #[inline]
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
    #[inline]
    fn refresh(&mut self, c: usize, a: usize) -> bool {
        let n = self.t.variant.num_cells();
        // Only the cells forbidden since the cache was last cleared need clearing, which saves
        // steps where a step is taken per cell; a window clears them all at the same cost.
        let fresh;
        let blocked = if self.ds.window().is_some() {
            &self.pos.forbidden[c]
        } else {
            let since = &self.history[usize::from(self.cleared[c * n + a]) * MAX_COLORS + c];
            fresh = self.pos.forbidden[c] & !*since;
            &fresh
        };
        let ok = self.exact(c, a, blocked);
        self.cleared[c * n + a] = self.moves_played() as u16;
        self.set_cache(c, a, ok)
    }

    /// Puts `ok` (exact) in the cache of `c`'s live cell `a`, dropping the cell if it is empty;
    /// returns whether it is not.
    #[inline]
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
    #[inline]
    fn recount(&mut self, i: usize, c: usize, a: usize) -> u64 {
        let n = self.t.variant.num_cells();
        let k = slots_in(&self.cache[c * n + a]);
        let lost = self.scratch[i].1 - k;
        self.scratch[i].1 = k;
        u64::from(lost)
    }

    /// Number of moves since the start.
    #[inline]
    fn moves_played(&self) -> usize {
        self.history.len() / MAX_COLORS - 1
    }

    /// Plays a chosen move, with the cells [`Engine::pick`] derived if it drew it (no record
    /// read).
    fn play_pick(&mut self, pick: Pick) {
        let fp = match &pick {
            Pick::Derived {
                piece, len, cells, ..
            } => Footprint {
                piece: usize::from(*piece),
                cells: &cells[..usize::from(*len)],
            },
            Pick::Id(id) => self.t.footprint(*id),
        };
        self.play_footprint(fp);
        self.settle();
    }

    /// The placement id of a chosen move.
    fn id_of(&self, pick: &Pick) -> u32 {
        match *pick {
            Pick::Id(id) => id,
            Pick::Derived { a, slot, .. } => self.s.id(a, slot),
        }
    }

    /// Puts a piece down for the colour to move and passes the turn (to a colour that may
    /// move: [`Engine::settle`] checks).
    fn play_footprint(&mut self, fp: Footprint<'_>) {
        let (t, ds) = (self.t, self.ds);
        let c = self.pos.to_move as usize;
        let masks = t.footprints().masks(&fp);
        self.pos.place_corner_masks(t, c, fp, &masks);
        self.history.extend_from_slice(&self.pos.forbidden);
        // Cells forbidden to a colour are no longer attach cells of it; the caches near the
        // piece are left as they are.
        for d in 0..t.variant.num_colors() {
            self.live[d] &= !self.pos.forbidden[d];
        }
        let piece = fp.piece;
        if self.pos.available[c] & (1 << piece) == 0 {
            for (cd, avail) in self.avail[c].iter_mut().enumerate().take(ds.num_layouts()) {
                let gone = ds.piece_slots(cd, piece);
                for w in 0..W {
                    avail[w] &= !gone[w];
                }
            }
        }
        let fresh = masks.corners & self.pos.attach[c] & !self.live[c];
        self.add_cells(c, &fresh);
        self.advance(c);
    }

    /// Calls `f` with every legal placement of the colour to move, each once (after the
    /// colour's first piece, from the caches, each made exact as it is reached); stops early
    /// when `f` returns `false`, leaving the caches not reached as they were.
    fn for_each_move<F: FnMut(u32) -> bool>(&mut self, mut f: F) -> bool {
        let (t, s, ds) = (self.t, self.s, self.ds);
        let n = t.variant.num_cells();
        if self.pos.to_move == NO_COLOR {
            return true;
        }
        let c = self.pos.to_move as usize;
        if self.pos.placed[c] == 0 {
            return self.pos.for_each_move(t, c, f);
        }
        // Each live cell is made exact, then listed. A placement through several live cells is
        // listed from the first of them: the placements through cells already visited are
        // cleared first.
        let mut done = Bits::EMPTY;
        for a in self.live[c].iter() {
            if !self.refresh(c, a) {
                continue;
            }
            let dir = self.dir[c * n + a] as usize;
            let mut ok = self.cache[c * n + a];
            ds.clear_near(a, dir, &mut ok, &done);
            let base = ds.full_slots(s, a, dir);
            for (w, &word) in ok.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let j = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if !f(s.id(a, base[j] as usize)) {
                        return false;
                    }
                }
            }
            done.insert(a);
        }
        true
    }

    fn cached_moves(&self) -> Vec<u32> {
        let (t, s, ds) = (self.t, self.s, self.ds);
        let n = t.variant.num_cells();
        if self.pos.to_move == NO_COLOR {
            return Vec::new();
        }
        let c = self.pos.to_move as usize;
        if self.pos.placed[c] == 0 {
            let mut out = self.pos.legal_moves(t);
            out.sort_unstable();
            return out;
        }
        let mut out = Vec::new();
        for a in self.live[c].iter() {
            let dir = self.dir[c * n + a] as usize;
            for (w, &word) in self.exact(c, a, &self.pos.forbidden[c]).iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let j = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    out.push(s.id(a, ds.full_slot(s, a, dir, j)));
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    fn sample(&mut self, rng: &mut Rng) -> Option<u32> {
        self.pick(rng).map(|p| self.id_of(&p))
    }

    /// [`Engine::sample`], naming a later move by its slot.
    fn pick(&mut self, rng: &mut Rng) -> Option<Pick> {
        let (t, s, ds) = (self.t, self.s, self.ds);
        let n = t.variant.num_cells();
        let c = self.pos.to_move;
        if c == NO_COLOR {
            return None;
        }
        let c = c as usize;
        if self.moves_played() == 0 {
            let k = rng.below(self.opening.len() as u64) as usize;
            return Some(Pick::Id(self.opening[k]));
        }
        if self.pos.placed[c] == 0 {
            return self
                .pos
                .sample_move(t, rng, &mut self.first_scratch)
                .map(Pick::Id);
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
                let (l, window) = win.gather(a, dir, &self.pos.forbidden[c]);
                let gone = self.avail[c][l][j / 64] >> (j % 64) & 1 == 0;
                if gone || win.covers(l, j, window) {
                    let mut ok = self.in_hand(c, a, l);
                    win.clear_window(l, &mut ok, window);
                    self.set_cache(c, a, ok);
                    total -= self.recount(i, c, a);
                    continue;
                }
            }
            let slot = ds.full_slot(s, a, dir, j);
            // The cells come from the slot's shape on a padded grid (a few KB) rather than the
            // placement's record, which a random draw would read cold (duo 1.03x, classic
            // 1.07x, trigon 1.1x).
            let mut cells = [0u16; MAX_PIECE_CELLS];
            let (piece, len) = s.slot_cells(a, slot, &mut cells);
            let listed = &cells[..len];
            if ds.window().is_none()
                && (self.pos.available[c] & (1 << piece) == 0
                    || listed
                        .iter()
                        .any(|&x| self.pos.forbidden[c].contains(usize::from(x))))
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
            if through <= 1 || rng.below(through) == 0 {
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

/// Number of slots in `slots`.
#[inline]
fn slots_in<const W: usize>(slots: &DirSlice<W>) -> u32 {
    slots.iter().map(|w| w.count_ones()).sum()
}

/// An incremental playout ([`Engine`]) with slices as wide as the variant's pieces need.
#[derive(Clone)]
pub enum Playout<'t> {
    /// One-word slices.
    W1(Box<Engine<'t, 1>>),
    /// Two-word slices.
    W2(Box<Engine<'t, 2>>),
    /// Four-word slices.
    W4(Box<Engine<'t, 4>>),
    /// Eight-word slices.
    W8(Box<Engine<'t, 8>>),
}

macro_rules! each_width {
    ($self:expr, $e:ident => $body:expr) => {
        match $self {
            Playout::W1($e) => $body,
            Playout::W2($e) => $body,
            Playout::W4($e) => $body,
            Playout::W8($e) => $body,
        }
    };
}

impl<'t> Playout<'t> {
    /// A game at the start, or `None` if the variant has no corner-directed tables.
    pub fn new(t: &'t Tables) -> Option<Playout<'t>> {
        let s = t.slices.as_ref()?;
        Some(match t.directed.as_ref()? {
            Directed::W1(ds) => Playout::W1(Box::new(Engine::new(t, s, ds))),
            Directed::W2(ds) => Playout::W2(Box::new(Engine::new(t, s, ds))),
            Directed::W4(ds) => Playout::W4(Box::new(Engine::new(t, s, ds))),
            Directed::W8(ds) => Playout::W8(Box::new(Engine::new(t, s, ds))),
        })
    }

    /// The position.
    pub fn pos(&self) -> &Position {
        each_width!(self, e => &e.pos)
    }

    /// Back to the start of a game.
    pub fn reset(&mut self) {
        each_width!(self, e => e.reset())
    }

    /// Plays a whole uniformly random game from the start; returns the points per colour and
    /// appends the moves to `moves` if given.
    pub fn play_out(&mut self, rng: &mut Rng, moves: Option<&mut Vec<u32>>) -> Vec<i32> {
        each_width!(self, e => e.play_out(rng, moves))
    }

    /// Plays placement `id` (legal for the colour to move) and finds the next colour to move.
    pub fn play(&mut self, id: u32) {
        each_width!(self, e => e.play(id))
    }

    /// The distinct placements the caches hold for the colour to move, without those of
    /// pieces gone or covering a forbidden cell, sorted: the legal moves, if every cache holds
    /// all the legal placements through its cell (for tests).
    pub fn cached_moves(&self) -> Vec<u32> {
        each_width!(self, e => e.cached_moves())
    }

    /// A uniformly random legal placement of the colour to move.
    pub fn sample(&mut self, rng: &mut Rng) -> Option<u32> {
        each_width!(self, e => e.sample(rng))
    }

    /// Calls `f` with every legal placement of the colour to move, each once, in no particular
    /// order; stops early when `f` returns `false`. Returns `false` if stopped early.
    pub fn for_each_move<F: FnMut(u32) -> bool>(&mut self, f: F) -> bool {
        each_width!(self, e => e.for_each_move(f))
    }

    /// Appends the legal placements of the colour to move to `out`, in no particular order.
    pub fn legal_moves_into(&mut self, out: &mut Vec<u32>) {
        self.for_each_move(|id| {
            out.push(id);
            true
        });
    }
}

/// Plays one uniformly random game with [`Playout`] (falling back to [`play_game`] where the
/// variant has no bit-sliced tables). Returns the points per colour.
pub fn play_uniform_fast(t: &Tables, rng: &mut Rng, moves: Option<&mut Vec<u32>>) -> Vec<i32> {
    match Playout::new(t) {
        Some(mut game) => game.play_out(rng, moves),
        None => {
            let record = play_game(t, rng, Policy::Uniform, &mut Vec::new(), moves.is_some());
            if let Some(m) = moves {
                *m = record.moves;
            }
            record.points
        }
    }
}
