//! Simulation on top of the rules and generators: playouts (whole random games), selfplay over
//! threads, batches of games for reinforcement learning, and what the benchmarks measure.

pub(crate) mod batch;
pub(crate) mod measure;
mod parallel;
pub(crate) mod playout;
pub(crate) mod selfplay;
