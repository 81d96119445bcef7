//! The conformance games, read in place from `$BLOKUS_CONFORMANCE` or else
//! `../shared/conformance/` beside the repository, as the Python tests read them.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;

use flate2::read::GzDecoder;
use serde_json::Value;

/// The games of one conformance file, one JSON value each; fails if there are none.
pub fn conformance_games(variant: &str) -> Vec<Value> {
    let dir = match std::env::var_os("BLOKUS_CONFORMANCE") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/conformance"),
    };
    assert!(
        dir.is_dir(),
        "conformance games not found at {} (set BLOKUS_CONFORMANCE to their folder)",
        dir.display()
    );
    let path = dir.join(format!("{variant}.jsonl.gz"));
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let games: Vec<Value> = BufReader::new(GzDecoder::new(file))
        .lines()
        .map(|line| serde_json::from_str(&line.unwrap()).unwrap())
        .collect();
    assert!(!games.is_empty(), "no games in {}", path.display());
    games
}

/// A legal move list of a ply as sorted text.
pub fn legal_texts(ply: &Value) -> Vec<String> {
    ply["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// The legal moves of the board as sorted text, checked against the count.
pub fn our_legal_texts(board: &blokus_core::Board) -> Vec<String> {
    let mut ours: Vec<String> = board
        .legal_moves()
        .iter()
        .map(|&id| board.move_text(id))
        .collect();
    ours.sort();
    assert_eq!(ours.len(), board.count_moves());
    ours
}

/// An unsigned field of a ply as `usize`.
pub fn field(ply: &Value, name: &str) -> usize {
    ply[name].as_u64().unwrap() as usize
}
