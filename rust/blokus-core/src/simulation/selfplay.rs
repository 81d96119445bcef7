//! Many whole games played inside Rust on a thread pool: uniformly random or greedy, each game
//! seeded by its number so that any split of a run over threads or machines gives the same
//! games.

use std::sync::Arc;

use crate::cpu::multiversion;
use crate::position::Position;
use crate::rng::Rng;
use crate::tables::Tables;

use super::parallel::share;
use super::playout::Playout;

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

/// Plays the games numbered `range` on `threads` threads; game `i` uses
/// [`game_seed`]`(seed, i)`, so the records are the same for any number of threads and any
/// split of a run into ranges.
///
/// ```
/// use blokus_core::{selfplay, tables, Policy};
/// let t = tables("duo").unwrap();
/// let all = selfplay(&t, 0..6, 1, 2, Policy::Uniform, false);
/// let (a, b) = (selfplay(&t, 0..2, 1, 1, Policy::Uniform, false), selfplay(&t, 2..6, 1, 3, Policy::Uniform, false));
/// assert_eq!(all, [a, b].concat());
/// ```
pub fn selfplay(
    t: &Arc<Tables>,
    range: std::ops::Range<u64>,
    seed: u64,
    threads: usize,
    policy: Policy,
    keep_moves: bool,
) -> Vec<GameRecord> {
    play_games(range, seed, threads, &|| {
        // One playout per thread, reused from game to game.
        let mut game = Playout::new(t);
        let mut greedy = Greedy::default();
        Box::new(move |rng: &mut Rng| {
            let mut moves = Vec::new();
            let kept = keep_moves.then_some(&mut moves);
            let (points, plies) = match policy {
                Policy::Uniform => (game.play_out(rng, kept), game.plies()),
                Policy::Greedy => greedy_play_out(&mut greedy, t, rng, kept),
            };
            GameRecord {
                moves,
                plies,
                points,
            }
        })
    })
}

/// A game player of one thread: plays a whole game with the random numbers it is given.
pub(crate) type PlayGame<'a> = Box<dyn FnMut(&mut Rng) -> GameRecord + 'a>;

/// Plays the games numbered `range` on `threads` threads, each thread with its own player made
/// by `player`; game `i` is played with the random numbers of [`game_seed`]`(seed, i)`.
pub(crate) fn play_games<'t>(
    range: std::ops::Range<u64>,
    seed: u64,
    threads: usize,
    player: &(dyn Fn() -> PlayGame<'t> + Sync),
) -> Vec<GameRecord> {
    let (first, games) = (range.start, range.end.saturating_sub(range.start) as usize);
    let threads = threads.clamp(1, games.max(1));
    let mut records: Vec<Option<GameRecord>> = vec![None; games];
    let chunk = games.div_ceil(threads).max(1);
    let runs: Vec<(usize, &mut [Option<GameRecord>])> =
        records.chunks_mut(chunk).enumerate().collect();
    share(runs, threads, |runs| {
        let mut play = player();
        for (k, slot) in runs {
            for (j, r) in slot.iter_mut().enumerate() {
                let i = first + (k * chunk + j) as u64;
                *r = Some(play(&mut Rng::new(game_seed(seed, i))));
            }
        }
    });
    records.into_iter().flatten().collect()
}

multiversion! {
    /// [`Greedy::play_out`], compiled per CPU level.
    fn greedy_play_out(greedy: &mut Greedy, t: &Tables, rng: &mut Rng, moves: Option<&mut Vec<u32>>) -> (Vec<i32>, u32) {
        greedy.play_out(t, rng, moves)
    }
}

/// Games of largest-piece-first play: each turn, uniformly among the legal moves of the
/// largest piece.
#[derive(Default)]
struct Greedy {
    listed: Vec<u32>,
}

impl Greedy {
    /// Plays a whole game; returns the points and the number of placements.
    #[inline(always)]
    fn play_out(
        &mut self,
        t: &Tables,
        rng: &mut Rng,
        mut moves: Option<&mut Vec<u32>>,
    ) -> (Vec<i32>, u32) {
        let mut pos = Position::start(t);
        while let Some(c) = pos.turn() {
            self.listed.clear();
            t.generator.list_into(&pos, c, &mut self.listed);
            let size = |id: u32| t.get(id).cells().len();
            let Some(best) = self.listed.iter().map(|&id| size(id)).max() else {
                unreachable!("the colour to move has a move");
            };
            self.listed.retain(|&id| size(id) == best);
            let id = self.listed[rng.below(self.listed.len() as u64) as usize];
            if let Some(m) = moves.as_deref_mut() {
                m.push(id);
            }
            pos.play_unchecked(t, id);
        }
        (
            t.rules.points(&t.variant, &pos, t.variant.scoring),
            pos.plies(),
        )
    }
}
