//! The search's speed and a quick look at its strength, without Python:
//!
//! ```text
//! cargo run --release -p blokus-core --example search -- speed duo classic trigon
//! cargo run --release -p blokus-core --example search -- duel duo 20 2000
//! ```
//!
//! `speed` prints simulations per second on one thread at the empty board and at a mid-game
//! position (after half a greedy game). `duel VARIANT GAMES SIMS` plays the search with SIMS
//! simulations a move against uniformly random and against largest-piece-first play, seats
//! alternating, and prints its share of first places.

use std::time::Instant;

use blokus_core::{tables, Board, Budget, Rng, Search, SearchConfig};

/// The position halfway through a largest-piece-first game.
fn midgame(id: &str) -> Board {
    let t = tables(id).unwrap();
    let mut rng = Rng::new(1);
    let mut whole = Board::new(t.clone());
    while let Some(m) = greedy(&whole, &mut rng) {
        whole.play_unchecked(m);
    }
    let mut board = Board::new(t);
    for m in whole.moves().take(whole.ply() / 2) {
        board.play_unchecked(m);
    }
    board
}

fn greedy(board: &Board, rng: &mut Rng) -> Option<u32> {
    let moves = board.legal_moves();
    let size = |m: u32| board.tables().placement(m).unwrap().cells().len();
    let best = moves.iter().map(|&m| size(m)).max()?;
    let top: Vec<u32> = moves.into_iter().filter(|&m| size(m) == best).collect();
    Some(top[rng.below(top.len() as u64) as usize])
}

fn speed(ids: &[String]) {
    for id in ids {
        let t = tables(id).unwrap_or_else(|| panic!("unknown variant {id}"));
        for (label, board) in [("empty", Board::new(t.clone())), ("midgame", midgame(id))] {
            let mut search = Search::new(t.clone(), SearchConfig::default());
            search.set_board(&board);
            let a = search.run(Budget::seconds(2.0), &mut || true);
            println!(
                "{id} {label}: {:.0} simulations/s ({} in {:.2} s, {} nodes)",
                a.simulations as f64 / a.seconds,
                a.simulations,
                a.seconds,
                a.nodes
            );
        }
    }
}

fn duel(id: &str, games: usize, sims: u64) {
    let t = tables(id).unwrap();
    let players = t.variant().num_players();
    for (name, opponent) in [("random", 0), ("greedy", 1)] {
        let mut firsts = 0.0;
        let start = Instant::now();
        for g in 0..games {
            let mut rng = Rng::new(g as u64);
            let seat = g % players;
            let mut board = Board::new(t.clone());
            let config = SearchConfig {
                seed: g as u64,
                ..SearchConfig::default()
            };
            let mut search = Search::new(t.clone(), config);
            while let Some(p) = board.player() {
                let m = if p == seat {
                    search.set_board(&board);
                    search.run(Budget::simulations(sims), &mut || true).moves[0].id
                } else if opponent == 0 {
                    board.sample_move(&mut rng).unwrap()
                } else {
                    greedy(&board, &mut rng).unwrap()
                };
                board.play(m).unwrap();
            }
            let winners = board.winners();
            if winners.contains(&seat) {
                firsts += 1.0 / winners.len() as f64;
            }
        }
        println!(
            "{id}: search ({sims} simulations) vs {name}: first place {:.1}% of {games} games ({:.1} s)",
            100.0 * firsts / games as f64,
            start.elapsed().as_secs_f64()
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("speed") => speed(&args[1..]),
        Some("duel") => duel(&args[1], args[2].parse().unwrap(), args[3].parse().unwrap()),
        _ => eprintln!("usage: search speed VARIANT... | search duel VARIANT GAMES SIMS"),
    }
}
