//! Whole games played inside Rust: uniform random or greedy, on one or many threads.

use std::sync::Arc;

use crate::bits::Bits;
use crate::position::{Position, NO_COLOR};
use crate::rng::Rng;
use crate::score;
use crate::slices::{Slice, Slices, SLICE_WORDS};
use crate::table::Tables;
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
    /// Placements in order of play.
    pub moves: Vec<u32>,
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
    while pos.to_move != NO_COLOR {
        let id = match policy {
            // Without bit-sliced tables, one listing beats counting and then walking again.
            Policy::Uniform if t.slices.is_none() => {
                buf.clear();
                pos.legal_moves_into(t, buf);
                buf[rng.below(buf.len() as u64) as usize]
            }
            Policy::Uniform => pos
                .sample_move(t, rng, &mut scratch)
                .expect("a colour to move has a move"),
            Policy::Greedy => {
                buf.clear();
                pos.legal_moves_into(t, buf);
                let size = |id: u32| t.placements[id as usize].len;
                let best = buf
                    .iter()
                    .map(|&id| size(id))
                    .max()
                    .expect("a colour to move has a move");
                buf.retain(|&id| size(id) == best);
                buf[rng.below(buf.len() as u64) as usize]
            }
        };
        if keep_moves {
            moves.push(id);
        }
        pos.play(t, id);
    }
    GameRecord {
        moves,
        points: score::points(t, &pos, t.variant.scoring),
    }
}

/// Plays `games` games on `threads` threads; game `i` uses [`game_seed`]`(seed, i)`, so the
/// records are the same for any number of threads.
pub fn selfplay(
    t: &Arc<Tables>,
    games: usize,
    seed: u64,
    threads: usize,
    policy: Policy,
    keep_moves: bool,
) -> Vec<GameRecord> {
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
                    let i = (k * chunk + j) as u64;
                    let mut rng = Rng::new(game_seed(seed, i));
                    *r = Some(match (policy, fast.as_mut()) {
                        (Policy::Uniform, Some(game)) => {
                            let mut moves = Vec::new();
                            let points = game.play_out(&mut rng, Some(&mut moves));
                            GameRecord { moves, points }
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

/// The positions of `games` uniformly random games (each position where a colour is to move).
pub fn positions_of_games(t: &Tables, games: usize, seed: u64) -> Vec<Position> {
    let mut out = Vec::new();
    let mut buf = Vec::with_capacity(4096);
    for i in 0..games {
        let mut rng = Rng::new(game_seed(seed, i as u64));
        let mut pos = Position::start(t);
        while pos.to_move != NO_COLOR {
            out.push(pos);
            buf.clear();
            pos.legal_moves_into(t, &mut buf);
            pos.play(t, buf[rng.below(buf.len() as u64) as usize]);
        }
    }
    out
}

/// Lists every legal move of every position (the work a move-generation benchmark times).
/// Returns the number of moves listed.
pub fn list_moves_of(t: &Tables, positions: &[Position]) -> u64 {
    let mut buf = Vec::with_capacity(4096);
    let mut moves = 0u64;
    for pos in positions {
        buf.clear();
        pos.legal_moves_into(t, &mut buf);
        moves += buf.len() as u64;
    }
    moves
}

/// A game played forward only, as fast as possible: for every colour and every attach cell it
/// can still use, the slots of the placements through that cell that avoid the colour's
/// forbidden cells are kept up to date as pieces go down, so a move costs work only near the
/// piece just placed. Moves are sampled from the multiset of (attach cell, slot) pairs and a
/// placement through `m` attach cells is accepted with probability `1/m`, which makes the
/// choice uniform over distinct legal placements.
pub struct Playout<'t> {
    t: &'t Tables,
    s: &'t Slices,
    /// The position.
    pub pos: Position,
    /// `cache[color * cells + cell]`, meaningful for the cells of `live[color]`.
    cache: Vec<Slice>,
    /// Attach cells not forbidden through which some placement still fits.
    live: [Bits; MAX_COLORS],
    all_pieces: [Slice; 2],
    /// Per colour, the slots of the pieces it still has (changes only when it moves).
    avail: [[Slice; 2]; MAX_COLORS],
    scratch: Vec<(u16, u32)>,
}

impl<'t> Playout<'t> {
    /// A game at the start, or `None` if the variant has no bit-sliced tables.
    pub fn new(t: &'t Tables) -> Option<Playout<'t>> {
        let s = t.slices.as_ref()?;
        let n = t.variant.num_cells();
        let all = (1u32 << t.variant.pieces.len()) - 1;
        let mut p = Playout {
            t,
            s,
            pos: Position::start(t),
            cache: vec![[0; SLICE_WORDS]; MAX_COLORS * n],
            live: [Bits::EMPTY; MAX_COLORS],
            all_pieces: s.available(all),
            avail: [s.available(all); MAX_COLORS],
            scratch: Vec::with_capacity(64),
        };
        p.reset();
        Some(p)
    }

    /// Back to the start of a game, keeping the buffers (the caches of cells that are not live
    /// are never read, so they need no clearing).
    pub fn reset(&mut self) {
        self.pos = Position::start(self.t);
        self.live = [Bits::EMPTY; MAX_COLORS];
        self.avail = [self.all_pieces; MAX_COLORS];
        for c in 0..self.t.variant.num_colors() {
            let fresh = self.pos.attach[c] & !self.pos.forbidden[c];
            self.add_cells(c, &fresh);
        }
    }

    /// Plays a whole uniformly random game from the start; returns the points per colour and
    /// appends the moves to `moves` if given.
    pub fn play_out(&mut self, rng: &mut Rng, mut moves: Option<&mut Vec<u32>>) -> Vec<i32> {
        self.reset();
        while let Some(id) = self.sample(rng) {
            if let Some(m) = moves.as_deref_mut() {
                m.push(id);
            }
            self.play(id);
        }
        score::points(self.t, &self.pos, self.t.variant.scoring)
    }

    /// Computes the slots of new attach cells of `c` and keeps those where something fits.
    fn add_cells(&mut self, c: usize, cells: &Bits) {
        let n = self.t.variant.num_cells();
        for a in cells.iter() {
            let ok = self.s.through(a, &self.all_pieces, &self.pos.forbidden[c]);
            if ok.iter().any(|&w| w != 0) {
                self.cache[c * n + a] = ok;
                self.live[c].insert(a);
            }
        }
    }

    /// Plays placement `id` (legal for the colour to move) and finds the next colour to move.
    pub fn play(&mut self, id: u32) {
        let (t, s) = (self.t, self.s);
        let n = t.variant.num_cells();
        let c = self.pos.to_move as usize;
        let before = self.pos.forbidden;
        let first = self.pos.placed[c] == 0;
        self.pos.place(t, c, id);
        for (d, before) in before.iter().enumerate().take(t.variant.num_colors()) {
            let newly = self.pos.forbidden[d] & !*before;
            self.live[d] &= !self.pos.forbidden[d];
            if d == c && first {
                // Start points stop counting after the first piece.
                self.live[d] &= self.pos.attach[d];
            }
            let mut reach = Bits::EMPTY;
            for x in newly.iter() {
                reach |= *s.near(x);
            }
            for a in (self.live[d] & reach).iter() {
                let slot = &mut self.cache[d * n + a];
                s.clear_near(a, slot, &newly);
                if slot.iter().all(|&w| w == 0) {
                    self.live[d].remove(a);
                }
            }
        }
        let (piece, _, _, corners) = t.footprint(id);
        let mut fresh = Bits::EMPTY;
        for &x in corners {
            let x = x as usize;
            if self.pos.attach[c].contains(x) && !self.live[c].contains(x) {
                fresh.insert(x);
            }
        }
        self.add_cells(c, &fresh);
        if self.pos.available[c] & (1 << piece) == 0 {
            s.remove_piece(&mut self.avail[c], piece);
        }
        let (cache, live, avail) = (&self.cache, &self.live, &self.avail);
        self.pos.advance_with(t, c, |_, d| {
            live[d]
                .iter()
                .any(|a| s.any_available(&cache[d * n + a], &avail[d], a))
        });
    }

    /// The distinct placements the caches hold for the colour to move, sorted: the legal moves,
    /// if the caches are right (for tests).
    pub fn cached_moves(&self) -> Vec<u32> {
        let (t, s) = (self.t, self.s);
        let n = t.variant.num_cells();
        if self.pos.to_move == NO_COLOR {
            return Vec::new();
        }
        let c = self.pos.to_move as usize;
        let avail = s.available(self.pos.available[c]);
        let mut out = Vec::new();
        for a in self.live[c].iter() {
            let k = s.count_available(&self.cache[c * n + a], &avail, a);
            for i in 0..k as usize {
                out.push(s.id(a, s.nth_available(&self.cache[c * n + a], &avail, a, i)));
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// A uniformly random legal placement of the colour to move.
    pub fn sample(&mut self, rng: &mut Rng) -> Option<u32> {
        let (t, s) = (self.t, self.s);
        let n = t.variant.num_cells();
        let c = self.pos.to_move;
        if c == NO_COLOR {
            return None;
        }
        let c = c as usize;
        let avail = self.avail[c];
        self.scratch.clear();
        let mut total = 0u64;
        for a in self.live[c].iter() {
            let k = s.count_available(&self.cache[c * n + a], &avail, a);
            if k > 0 {
                total += u64::from(k);
                self.scratch.push((a as u16, k));
            }
        }
        if total == 0 {
            return None;
        }
        loop {
            let mut k = rng.below(total);
            let mut pick = None;
            for &(a, count) in &self.scratch {
                if k < u64::from(count) {
                    pick = Some((a as usize, k as usize));
                    break;
                }
                k -= u64::from(count);
            }
            let (a, k) = pick.expect("k is below the total");
            let slot = s.nth_available(&self.cache[c * n + a], &avail, a, k);
            let entry = s.entry(a, slot);
            let live = &self.live[c];
            let through = entry
                .cells
                .iter()
                .filter(|&&x| x != u16::MAX && live.contains(x as usize))
                .count() as u64;
            let id = entry.id;
            if through <= 1 || rng.below(through) == 0 {
                return Some(id);
            }
        }
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
