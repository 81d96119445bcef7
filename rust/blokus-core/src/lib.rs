//! Exact rules and fast move generation for the Blokus family of games: Classic (for 4, 2 and
//! 3 players), Duo, Junior, Trigon (4, 2 and 3 players), Blokus 3D on four structures, and
//! variants a user defines as data.
//!
//! # A tour
//!
//! A variant's [`Tables`] (every placement with its dense id, the rules' data and the move
//! generator) are built once and shared; a [`Board`] is a game on them:
//!
//! ```
//! use blokus_core::{tables, Board, Illegal, PlayError, Scoring};
//! let duo = tables("duo").unwrap();
//! let mut board = Board::new(duo.clone());
//! assert_eq!(board.count_moves(), 414); // Purple's first moves, through e10
//! let x = board.play_text("e10,d11,e11,f11,e12").unwrap(); // move text, any order and case
//! assert_eq!(board.turn(), Some(1));
//! // Checked play: an illegal move is refused with the rule it breaks; the board is unchanged.
//! let e = board.play_text("e11").unwrap_err();
//! assert!(matches!(e, PlayError::Illegal { reason: Illegal::Overlap { .. }, .. }));
//! board.undo();
//! assert_eq!(board.ply(), 0);
//! // Listing, counting and sampling use the same generator.
//! let moves = board.legal_moves();
//! assert!(moves.contains(&x) && moves.len() == board.count_moves());
//! assert_eq!(board.perft(2), 171_396);
//! assert_eq!(board.points(Scoring::Advanced), [0, 0]);
//! ```
//!
//! A finished position has points per colour, scores per player and Pentobi's result line;
//! [`selfplay`] plays many games on several threads, [`Playout`] one after another on this
//! thread, and [`Batch`] steps games in lockstep for reinforcement learning:
//!
//! ```
//! use blokus_core::{selfplay, tables, Policy};
//! let classic = tables("classic").unwrap();
//! let games = selfplay(&classic, 0..8, 42, 2, Policy::Uniform, false);
//! assert!(games.iter().all(|g| g.points.len() == 4 && g.plies > 0));
//! ```
//!
//! Variants are data ([`VariantSpec`], JSON): the built-ins are specs too.
//!
//! ```
//! use blokus_core::{Tables, Variant};
//! let mini = Variant::from_json(r#"{"id": "mini", "board": {"geometry": "square", "width": 6,
//!     "height": 6}, "colors": ["Purple", "Orange"], "players": [[0], [1]],
//!     "start_points": [["b5"], ["e2"]], "pieces": {"only": ["1", "2", "V3"]}}"#).unwrap();
//! assert_eq!(Tables::new(mini).num_placements(), 36 + 60 + 100);
//! ```
//!
//! # Layers
//!
//! `geometry` and `variant` describe boards; `placement` enumerates the move space; `position`
//! is the state; `rules` the rules, once, per rule family; `movegen` their fast form, one
//! generator per family chosen in [`Tables::new`]; `game` plays by the rules ([`Board`],
//! setups, perft); `simulation` plays many games; `search` is Monte Carlo tree search on top
//! of them ([`Search`]). Each layer uses only those before it;
//! docs/ARCHITECTURE.md in the repository tells the whole story. Beneath them all, `cpu`
//! compiles the hot entry points once per x86-64 level and runs the best one the CPU has
//! ([`cpu_level`]).
//!
//! ```
//! use blokus_core::{cpu_level, tables, Board};
//! println!("the generators run at {}", cpu_level()); // x86-64-v3 on a recent x86-64 CPU
//! let board = Board::new(tables("junior").unwrap());
//! let divide = board.perft_divide(2); // perft(1) below each first move
//! assert_eq!(divide.iter().map(|&(_, n)| n).sum::<u64>(), board.perft(2));
//! ```
#![deny(missing_docs)]

mod bits;
mod cpu;
mod game;
mod geometry;
mod movegen;
mod notation;
mod placement;
mod position;
#[cfg(any(test, feature = "reference"))]
pub mod reference;
mod rng;
mod rules;
mod search;
mod simulation;
mod tables;
#[cfg(test)]
mod testing;
mod variant;

pub use bits::Bits;
pub use cpu::{cpu_level, try_cpu_level, CpuLevel, CpuLevelError, CPU_LEVEL_VAR};
pub use game::board::{Board, PlayError};
pub use game::setup::{pieces_of_cells, Group, Setup, SetupError, SetupTurn};
pub use geometry::{Coord, Geometry};
pub use notation::{column_name, MoveTextError};
pub use placement::{Placement, MAX_PIECE_CELLS};
pub use position::{CornerState, Position, StackingState};
pub use rng::Rng;
pub use rules::score::{result_line, rewards, scores, winners};
pub use rules::Illegal;
pub use search::{
    move_features, playout_values, search_selfplay, Analysis, Budget, Evaluation, Evaluator,
    Features, RootMove, Search, SearchConfig, NUM_FEATURES,
};
pub use simulation::batch::{time_replay, Batch, Buffers, Grid, Outputs, StepError};
pub use simulation::measure::{enumerate_in_playouts, list_in_games};
pub use simulation::playout::{Playout, PlayoutPolicy};
pub use simulation::selfplay::{game_seed, selfplay, GameRecord, Policy};
pub use tables::{tables, Tables};
pub use variant::{
    builtin_ids, builtin_spec_json, Blocked, BoardSpec, BonusSpec, PieceKind, PiecesSpec,
    PlayerScore, Rules, Scoring, SpecError, Structure, Variant, VariantSpec, MAX_COLORS,
    MAX_PIECES,
};
