//! Uniform random games per second, one thread, for the variants named on the command line:
//!
//! ```text
//! cargo run --release -p blokus-core --example playouts -- 20000 3d_tower 3d_pyramid classic
//! ```

use std::time::Instant;

use blokus_core::playout::{selfplay, Policy};
use blokus_core::tables;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args
        .next()
        .and_then(|g| g.parse().ok())
        .expect("usage: playouts GAMES VARIANT...");
    for id in args {
        let t = tables(&id).unwrap_or_else(|| panic!("unknown variant {id}"));
        selfplay(&t, games / 10 + 1, 1, 1, Policy::Uniform, false); // warm up
        let start = Instant::now();
        selfplay(&t, games, 7, 1, Policy::Uniform, false);
        let seconds = start.elapsed().as_secs_f64();
        println!("{id}: {:.0} games/s", games as f64 / seconds);
    }
}
