//! Exact rules and fast move generation for the Blokus family of games.
//!
//! ```
//! use blokus_core::{Board, tables};
//! let mut board = Board::new(tables("duo").unwrap());
//! assert_eq!(board.count_moves(), 414);
//! board.play_text("j5").unwrap_err(); // colour 0 starts at e10, not j5
//! board.play_text("d10,e10").unwrap();
//! assert_eq!(board.turn(), Some(1));
//! ```
#![deny(missing_docs)]

pub mod batch;
pub mod bits;
pub mod board;
pub mod directed;
pub mod footprint;
pub mod geometry;
pub mod notation;
pub mod piece;
pub mod playout;
pub mod position;
pub mod rng;
pub mod score;
pub mod setup;
pub mod slices;
pub mod stacking;
pub mod structure;
pub mod table;
pub mod variant;
pub mod window;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

pub use board::{Board, PlayError};
pub use position::{Illegal, Position};
pub use setup::{Setup, SetupError, SetupTurn};
pub use table::Tables;
pub use variant::{Scoring, SpecError, Variant};

/// The tables of a built-in variant, built once per process and shared.
pub fn tables(id: &str) -> Option<Arc<Tables>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<Tables>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(t) = map.get(id) {
        return Some(Arc::clone(t));
    }
    let t = Arc::new(Tables::new(Variant::builtin(id)?));
    map.insert(id.to_string(), Arc::clone(&t));
    Some(t)
}
