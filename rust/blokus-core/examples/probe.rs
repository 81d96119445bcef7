use blokus_core::playout::{play_game, play_uniform_fast, Policy};
use blokus_core::rng::Rng;
use blokus_core::{Tables, Variant};
use std::time::Instant;
fn main() {
    for id in ["duo", "classic", "trigon", "trigon_3"] {
        let t = Tables::new(Variant::builtin(id).unwrap());
        let n = 3000;
        let mut rng = Rng::new(1);
        let mut buf = Vec::new();
        let s = Instant::now();
        for _ in 0..n {
            play_game(&t, &mut rng, Policy::Uniform, &mut buf, false);
        }
        let a = n as f64 / s.elapsed().as_secs_f64();
        let s = Instant::now();
        for _ in 0..n {
            play_uniform_fast(&t, &mut rng, None);
        }
        let b = n as f64 / s.elapsed().as_secs_f64();
        println!("{id}: sample {a:.0} games/s, incremental {b:.0} games/s");
    }
}
