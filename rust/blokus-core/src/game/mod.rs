//! Games: a position played by the rules ([`board`]), setup positions ([`setup`]), and what
//! a position does with its tables ([`play`]: turns, listing, perft).

pub(crate) mod board;
pub(crate) mod play;
pub(crate) mod setup;
