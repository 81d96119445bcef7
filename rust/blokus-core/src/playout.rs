//! Whole games played inside Rust: uniform random or greedy, on one or many threads.

use std::sync::Arc;

use crate::position::{Position, NO_COLOR};
use crate::rng::Rng;
use crate::score;
use crate::table::Tables;

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
                for (j, r) in slot.iter_mut().enumerate() {
                    let i = (k * chunk + j) as u64;
                    let mut rng = Rng::new(game_seed(seed, i));
                    *r = Some(play_game(&t, &mut rng, policy, &mut buf, keep_moves));
                }
            });
        }
    });
    records
        .into_iter()
        .map(|r| r.expect("every game was played"))
        .collect()
}

/// Plays `games` uniformly random games and lists every legal move of every position on the
/// way (the work of a move-generation benchmark). Returns the moves listed and the positions.
pub fn list_moves_along_games(t: &Tables, games: usize, seed: u64) -> (u64, u64) {
    let mut buf = Vec::with_capacity(4096);
    let (mut moves, mut positions) = (0u64, 0u64);
    for i in 0..games {
        let mut rng = Rng::new(game_seed(seed, i as u64));
        let mut pos = Position::start(t);
        while pos.to_move != NO_COLOR {
            buf.clear();
            pos.legal_moves_into(t, &mut buf);
            moves += buf.len() as u64;
            positions += 1;
            pos.play(t, buf[rng.below(buf.len() as u64) as usize]);
        }
    }
    (moves, positions)
}
