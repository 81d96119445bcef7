//! Uniform random games per second, one thread, for the variants named on the command line,
//! and legal moves enumerated per second along such games (from a position, and as the
//! playout keeps them):
//!
//! ```text
//! cargo run --release -p blokus-core --example playouts -- 20000 3d_tower 3d_pyramid classic
//! ```

use std::time::Instant;

use blokus_core::{enumerate_in_playouts, list_in_games, selfplay, tables, Policy};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args
        .next()
        .and_then(|g| g.parse().ok())
        .expect("usage: playouts GAMES VARIANT...");
    for id in args {
        let t = tables(&id).unwrap_or_else(|| panic!("unknown variant {id}"));
        selfplay(&t, 0..games as u64 / 10 + 1, 1, 1, Policy::Uniform, false); // warm up
        let start = Instant::now();
        selfplay(&t, 0..games as u64, 7, 1, Policy::Uniform, false);
        let seconds = start.elapsed().as_secs_f64();
        let (listed, listing) = list_in_games(&t, 300, 3);
        let by_position = listed as f64 / listing;
        let (enumerated, spent) = enumerate_in_playouts(&t, 300, 3);
        println!(
            "{id}: {:.0} games/s; legal moves/s {:.0}M from positions, {:.0}M in playouts",
            games as f64 / seconds,
            by_position / 1e6,
            enumerated as f64 / spent / 1e6
        );
    }
}
