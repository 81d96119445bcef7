use blokus_core::playout::{play_game, Policy};
use blokus_core::rng::Rng;
use blokus_core::{Tables, Variant};
use std::time::Instant;
fn main() {
    for id in ["duo", "classic", "trigon", "trigon_3"] {
        let s = Instant::now();
        let t = Tables::new(Variant::builtin(id).unwrap());
        let build = s.elapsed();
        let mut rng = Rng::new(1);
        let mut buf = Vec::new();
        let n = 2000;
        let s = Instant::now();
        for _ in 0..n {
            play_game(&t, &mut rng, Policy::Uniform, &mut buf, false);
        }
        let dt = s.elapsed().as_secs_f64();
        println!("{id}: build {:?}, {:.0} games/s", build, n as f64 / dt);
    }
}
