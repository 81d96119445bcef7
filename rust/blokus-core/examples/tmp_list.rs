use blokus_core::playout::{list_moves_of, positions_of_games, Playout};
use blokus_core::rng::Rng;
use blokus_core::tables;
use std::time::Instant;
fn main() {
    for id in ["duo", "classic", "trigon"] {
        let t = tables(id).unwrap();
        let pos = positions_of_games(&t, 300, 1);
        let mut best = 0.0f64;
        for _ in 0..5 {
            let s = Instant::now();
            let n = list_moves_of(&t, &pos);
            best = best.max(n as f64 / s.elapsed().as_secs_f64());
        }
        let mut game = Playout::new(&t).unwrap();
        let mut rng = Rng::new(3);
        let mut buf = Vec::with_capacity(4096);
        let (mut listed, mut list_time, mut total_time) = (0u64, 0.0, 0.0);
        for _ in 0..5 {
            let s0 = Instant::now();
            for _ in 0..300 {
                game.reset();
                loop {
                    let s = Instant::now();
                    buf.clear();
                    game.legal_moves_into(&mut buf);
                    list_time += s.elapsed().as_secs_f64();
                    listed += buf.len() as u64;
                    match game.sample(&mut rng) {
                        Some(m) => game.play(m),
                        None => break,
                    }
                }
            }
            total_time += s0.elapsed().as_secs_f64();
        }
        println!("{id}: by position {:.0}M moves/s; incremental {:.0}M/s listing only, {:.0}M/s with play", best / 1e6, listed as f64 / list_time / 1e6, listed as f64 / total_time / 1e6);
    }
}
