//! What `blokus bench` measures besides whole games: legal moves listed from the positions of
//! random games, and enumerated as a playout keeps them.

use crate::position::Position;
use crate::rng::Rng;
use crate::tables::Tables;

use super::playout::{Game, Playout};
use super::selfplay::game_seed;

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
        while !pos.is_game_over() {
            positions.push(pos);
            buf.clear();
            pos.legal_moves_into(t, &mut buf);
            pos.play_unchecked(t, buf[rng.below(buf.len() as u64) as usize]);
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

/// Enumerates the legal moves at every position of `games` uniformly random games as the
/// incremental playout keeps them (which clears each cache as it reaches it: that is timed
/// too); where the variant has no incremental playout (Blokus 3D), [`list_in_games`]. Returns
/// the number of moves enumerated and the seconds spent enumerating (timed per position, so the
/// clock's own cost is counted against it).
pub fn enumerate_in_playouts(t: &Tables, games: usize, seed: u64) -> (u64, f64) {
    let mut game = Playout::new(t);
    if let Game::Plain(_) = game.0 {
        return list_in_games(t, games, seed);
    }
    let mut moves = 0u64;
    let mut seconds = 0.0;
    for i in 0..games {
        let mut rng = Rng::new(game_seed(seed, i as u64));
        game.reset();
        while !game.is_game_over() {
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
