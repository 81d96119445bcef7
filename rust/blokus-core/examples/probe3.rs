use blokus_core::playout::play_uniform_fast;
use blokus_core::rng::Rng;
use blokus_core::tables;
fn main() {
    let id = std::env::args().nth(1).unwrap_or("classic".into());
    let t = tables(&id).unwrap();
    let mut rng = Rng::new(1);
    let s = std::time::Instant::now();
    for _ in 0..20000 {
        play_uniform_fast(&t, &mut rng, None);
    }
    println!("{:.0} games/s", 20000.0 / s.elapsed().as_secs_f64());
}
