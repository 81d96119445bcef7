//! Core benchmarks: uniform random games from the empty board, legal-move enumeration on
//! fixed mid-game positions, perft, table building and the batch environment's steps. Run with
//! `cargo bench -p blokus-core`.

use std::hint::black_box;

use blokus_core::{selfplay, tables, time_replay, Board, Playout, Policy, Rng, Tables, Variant};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const VARIANTS: &[&str] = &[
    "duo",
    "junior",
    "classic",
    "classic_3",
    "trigon",
    "trigon_3",
    "3d_tower",
    "3d_wall",
    "3d_steps",
    "3d_pyramid",
];

fn random_games(c: &mut Criterion) {
    // The selfplay path: a playout (incremental on flat boards) reused from game to game.
    let mut g = c.benchmark_group("random_game");
    g.throughput(Throughput::Elements(1));
    for &id in VARIANTS {
        let t = tables(id).unwrap();
        let mut rng = Rng::new(1);
        let mut game = Playout::new(&t);
        g.bench_function(id, |b| b.iter(|| black_box(game.play_out(&mut rng, None))));
    }
    g.finish();
    // The plain path: a board, a move sampled from its position each turn, played unchecked.
    let mut g = c.benchmark_group("random_game_by_position");
    g.throughput(Throughput::Elements(1));
    for &id in VARIANTS {
        let t = tables(id).unwrap();
        let mut rng = Rng::new(1);
        g.bench_function(id, |b| {
            b.iter(|| {
                let mut board = Board::new(t.clone());
                while let Some(m) = board.sample_move(&mut rng) {
                    board.play_unchecked(m);
                }
                black_box(board.ply())
            })
        });
    }
    g.finish();
}

/// A position after `plies` random moves of a fixed seed.
fn midgame(id: &str, plies: usize) -> Board {
    let mut board = Board::new(tables(id).unwrap());
    let mut rng = Rng::new(42);
    for _ in 0..plies {
        match board.sample_move(&mut rng) {
            Some(m) => board.play_unchecked(m),
            None => break,
        }
    }
    board
}

fn legal_moves(c: &mut Criterion) {
    let mut g = c.benchmark_group("legal_moves");
    for &id in VARIANTS {
        let board = midgame(id, 12);
        if board.count_moves() == 0 {
            continue;
        }
        let n = board.count_moves() as u64;
        g.throughput(Throughput::Elements(n));
        let mut buf = Vec::with_capacity(4096);
        g.bench_function(format!("{id}_list"), |b| {
            b.iter(|| {
                buf.clear();
                board.legal_moves_into(&mut buf);
                black_box(buf.len())
            })
        });
        g.bench_function(format!("{id}_count"), |b| {
            b.iter(|| black_box(board.count_moves()))
        });
    }
    g.finish();
}

fn perft(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    for (id, depth) in [("duo", 2), ("classic", 3), ("trigon", 2)] {
        let board = Board::new(tables(id).unwrap());
        g.throughput(Throughput::Elements(board.perft(depth)));
        g.bench_function(format!("{id}_{depth}"), |b| {
            b.iter(|| black_box(board.perft(depth)))
        });
    }
    g.finish();
}

fn table_build(c: &mut Criterion) {
    let mut g = c.benchmark_group("tables");
    g.sample_size(10);
    for id in ["duo", "classic", "trigon", "3d_wall"] {
        let v = Variant::builtin(id).unwrap();
        g.bench_function(id, |b| b.iter(|| black_box(Tables::new(v.clone()))));
    }
    g.finish();
}

/// A batch of 64 recorded random games replayed through the batch environment's step and
/// write (observations and legal action masks after every step); one element is one game.
fn batch_env(c: &mut Criterion) {
    let games = 64;
    let mut g = c.benchmark_group("batch_env");
    g.throughput(Throughput::Elements(games as u64));
    for id in ["duo", "classic", "trigon", "3d_tower"] {
        let t = tables(id).unwrap();
        let records = selfplay(&t, 0..games as u64, 5, 1, Policy::Uniform, true);
        let steps = records.iter().map(|r| r.plies as usize).max().unwrap_or(0);
        let mut actions = vec![0i64; steps * games];
        for (game, r) in records.iter().enumerate() {
            for (step, &id) in r.moves.iter().enumerate() {
                actions[step * games + game] = i64::from(id);
            }
        }
        g.bench_function(id, |b| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| {
                        let seconds = time_replay(&t, &actions, games, 1).expect("legal replay");
                        std::time::Duration::from_secs_f64(seconds)
                    })
                    .sum()
            })
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    random_games,
    legal_moves,
    perft,
    table_build,
    batch_env
);
criterion_main!(benches);
