//! How a search searches: [`SearchConfig`], with what is learned of each geometry's moves
//! (the weights of the priors' features and pieces) for [`SearchConfig::for_variant`].

use super::features::NUM_FEATURES;
use crate::geometry::Geometry;
use crate::simulation::playout::PlayoutPolicy;
use crate::variant::{Variant, MAX_PIECES};

/// How the search searches. The defaults are what the strength tables were measured with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Threads sharing the tree.
    pub threads: usize,
    /// Seed of the random numbers (one thread with one seed always searches the same way).
    pub seed: u64,
    /// PUCT's weight of the prior against the values found.
    pub exploration: f32,
    /// How much worse than its node's mean an untried move is assumed to be.
    pub first_play_reduction: f32,
    /// RAVE (all moves as first): the number of a move's own simulations at which the values
    /// of the simulations in which its colour played it later and its own values weigh the
    /// same (0: no RAVE).
    pub rave_equivalence: f32,
    /// A leaf is expanded once this many simulations have reached it (0: at once).
    pub expand_after: u32,
    /// The most moves kept at a node: those of the highest priors. Fewer make a short search
    /// spend its simulations on the likely moves, which pays where the priors are good; on
    /// square boards [`SearchConfig::for_variant`] gets that by widening from 16 of the 64.
    pub max_children: usize,
    /// Progressive widening: the moves of its [`SearchConfig::max_children`] a node considers
    /// at first (0: all of them, from its first simulation). A node that `n` simulations have
    /// gone through considers its best `max(first_children, widening * sqrt(n))` kept moves,
    /// so that a short search spends its simulations on the likely moves while the root and
    /// the nodes near it, which many simulations reach, come to try more. The priors are
    /// normalised over the first `first_children`, so that a node is searched at first as if
    /// it kept only those.
    pub first_children: usize,
    /// How fast a node considers more of its moves: see [`SearchConfig::first_children`].
    pub widening: f32,
    /// Weights of a move's [`Features`](super::Features) (in the order of
    /// [`Features::vector`](super::Features::vector)) in its prior:
    /// `exp(prior_weights . features + piece_weights[piece])`, normalised over the moves kept
    /// (over the first [`SearchConfig::first_children`] of them, where that is set).
    pub prior_weights: [f32; NUM_FEATURES],
    /// The prior's weight of each piece (by index in the variant's set), which orders pieces
    /// of one size: see [`SearchConfig::prior_weights`].
    pub piece_weights: [f32; MAX_PIECES],
    /// How the playouts choose their moves.
    pub playout: PlayoutPolicy,
    /// The share of a value that comes from the score margin rather than the result: a value
    /// is `(1 - w) * result + w * sigmoid(margin / scale)`, the result 1 for a sole win, 1/k
    /// for a win shared by k, 0 for a loss.
    pub margin_weight: f32,
    /// The most nodes the tree grows to; past it, leaves are no longer expanded.
    pub max_nodes: usize,
    /// Flat boards: the playouts play the last good reply to the move just made where it is
    /// legal (each colour's move that its player won with, as the reply to the move before
    /// it, kept for the rest of the search; see `simulation::playout::replies`).
    pub replies: bool,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            threads: 1,
            seed: 0,
            exploration: 1.0,
            first_play_reduction: 0.2,
            rave_equivalence: 300.0,
            expand_after: 1,
            max_children: 64,
            first_children: 0,
            widening: 0.0,
            prior_weights: [1.193, 0.273, 0.493, -1.060, 0.480, 3.261, 0.216, 0.0, 0.0],
            piece_weights: [0.0; MAX_PIECES],
            playout: PlayoutPolicy {
                size_bias: 1.0,
                piece_weights: [0.0; MAX_PIECES],
                tournament: 1,
                tournament_weights: [0.4, 0.6, -0.9],
                // Answering costs simulations, but scores higher at equal time against
                // Pentobi, in Trigon by far.
                local: true,
            },
            margin_weight: 0.2,
            max_nodes: 4_000_000,
            replies: false,
        }
    }
}

/// What is learned of a geometry's moves: the weights of the features and of the standard
/// pieces by name (pieces not named weigh 0).
struct Learned {
    features: [f32; NUM_FEATURES],
    pieces: &'static [(&'static str, f32)],
}

/// The squares' priors, fitted (as `benches/learn_priors.py --teacher` does) to the moves
/// Pentobi's level 6 chose in 9,148 Duo positions.
const SQUARES: Learned = Learned {
    features: [
        1.056, -0.040, -0.348, -0.610, 0.277, 0.546, 0.161, 0.170, 0.246,
    ],
    pieces: &[
        ("1", 1.153),
        ("2", 0.114),
        ("I3", -0.550),
        ("V3", -0.805),
        ("I4", -0.500),
        ("L4", -1.048),
        ("T4", -0.734),
        ("O", -0.503),
        ("Z4", -0.516),
        ("F", 0.539),
        ("I5", -0.005),
        ("L5", -0.449),
        ("N", -0.060),
        ("P", -0.518),
        ("T5", 0.152),
        ("U", -0.015),
        ("V5", -0.164),
        ("W", 0.840),
        ("X", 2.887),
        ("Y", -0.146),
        ("Z5", 0.328),
    ],
};

/// Trigon's priors, learned the same way from the moves Pentobi's level 5 chose in 4,403
/// Trigon Two-Player positions.
const TRIANGLES: Learned = Learned {
    features: [
        0.894, -0.224, 0.017, -0.795, 0.410, 3.357, 0.155, 0.082, 0.218,
    ],
    pieces: &[
        ("1", 1.277),
        ("2", 0.519),
        ("I3", -0.339),
        ("I4", -0.883),
        ("C4", -0.697),
        ("A4", -0.280),
        ("I5", -0.767),
        ("L5", -1.054),
        ("C5", -1.549),
        ("P5", -1.249),
        ("F", 0.040),
        ("A6", 0.182),
        ("G", -0.256),
        ("I6", 1.036),
        ("L6", 0.200),
        ("O", 0.738),
        ("P6", 0.212),
        ("S", 0.528),
        ("V", 0.984),
        ("W", 0.540),
        ("X", 0.611),
        ("Y", 0.206),
    ],
};

impl SearchConfig {
    /// The defaults, with what is learned of `v`'s geometry: on square and Trigon boards the
    /// weights of the priors' features and of the standard pieces, and on square boards
    /// progressive widening: a node considers its best 16 moves at first and more of the 64 it
    /// keeps as simulations go through it ([`SearchConfig::first_children`], `widening` 2). At
    /// equal time per move against Pentobi's levels 16 moves score higher there than 64 from
    /// the start, and widening from 16 higher again in Duo (level 6), no lower in Blokus
    /// Two-Player (level 5), whose short searches hardly widen. On Trigon's
    /// boards a leaf is expanded only after 4 simulations, which spares scoring the many
    /// moves of nodes the search seldom comes back to (at equal time against Pentobi this
    /// scores higher there; on square boards, not). On both, the playouts play the last good
    /// replies ([`SearchConfig::replies`]), which score higher at equal time against Pentobi's
    /// levels and against the search without them.
    pub fn for_variant(v: &Variant) -> SearchConfig {
        let mut config = SearchConfig::default();
        let learned = match v.geometry {
            Geometry::Square => {
                config.first_children = 16;
                config.widening = 2.0;
                SQUARES
            }
            Geometry::Triangle { .. } => {
                config.expand_after = 4;
                TRIANGLES
            }
            Geometry::Cube => return config,
        };
        config.replies = true;
        config.prior_weights = learned.features;
        for (p, piece) in v.pieces.iter().enumerate() {
            if let Some(&(_, w)) = learned.pieces.iter().find(|(name, _)| *name == piece.name) {
                config.piece_weights[p] = w;
            }
        }
        config
    }

    /// Whether a search of `v` can run with this configuration; else what is wrong (see
    /// [`PlayoutPolicy::check`]).
    pub fn check(&self, v: &Variant) -> Result<(), String> {
        self.playout.check(v)
    }
}
