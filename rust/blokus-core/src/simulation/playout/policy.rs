//! The playout's policy: how an [`Engine`] chooses among the legal moves it keeps. A move is
//! drawn uniformly and kept with its piece's weight ([`SizeBias`]), or is the best of a few by
//! what it does to the attach cells (a tournament), or answers the other players' last moves
//! ([`Engine::answer`]).

use super::{Engine, Pick};
use crate::bits::Bits;
use crate::position::NO_COLOR;
use crate::rng::Rng;
use crate::tables::Tables;
use crate::variant::{Variant, MAX_PIECES};

/// How many of the last moves a playout answers ([`PlayoutPolicy::local`]).
pub(super) const RECENT: usize = 3;

/// The most a move's answer counts ([`Engine::answer`]): more is no better.
pub(super) const MOST_LOCAL: u32 = 4;

impl<'t, const W: usize> Engine<'t, W> {
    /// Plays by `policy` from now on (`bias`: its weights as an acceptance test).
    pub(super) fn follow(&mut self, policy: PlayoutPolicy, bias: SizeBias) {
        self.bias = bias;
        (self.tournament, self.tournament_weights) = (policy.tournament, policy.tournament_weights);
        self.local = policy.local;
    }

    /// Takes `moves` (placement, colour; oldest first) as the last moves played before the
    /// position the game was set to, for the answers to them ([`Engine::answer`]).
    pub(super) fn recall(&mut self, moves: &[(u32, u8)]) {
        if !self.local {
            return;
        }
        for &(id, c) in moves.iter().rev().take(RECENT).rev() {
            let t = self.t;
            let masks = t.placements.footprints.masks(&t.placements.footprint(id));
            self.remember(c, masks.corners);
        }
    }

    /// Keeps a move of colour `c`, touching `corners` at a corner only, as the last of the
    /// recent moves.
    #[inline(always)]
    pub(super) fn remember(&mut self, c: u8, corners: Bits) {
        self.recent.rotate_left(1);
        self.recent[RECENT - 1] = (c, corners);
        self.recent_len = (self.recent_len + 1).min(RECENT);
    }

    /// The move to play: an answer to the last moves ([`Engine::answer`]) if the policy
    /// answers and there is one, else [`Engine::pick`]'s, or with a tournament the best of
    /// several.
    #[inline(always)]
    pub(super) fn choose(&mut self, rng: &mut Rng) -> Option<Pick> {
        if self.local {
            if let Some(id) = self.answer(rng) {
                return Some(Pick::Id(id));
            }
        }
        let first = self.pick(rng)?;
        if self.tournament <= 1 {
            return Some(first);
        }
        let c = usize::from(self.common.to_move);
        let mut theirs = Bits::EMPTY;
        let v = &self.t.variant;
        let me = v.player_of(c, usize::from(self.common.placed[c]));
        for d in (0..v.num_colors()).filter(|&d| d != c && !v.players[me].contains(&d)) {
            theirs |= self.corner.attach[d] & !self.corner.forbidden[d];
        }
        let own = self.corner.attach[c] & !self.corner.forbidden[c];
        let (mut best, mut best_score) = (first, self.score(&first, &theirs, &own));
        for _ in 1..self.tournament {
            let Some(other) = self.pick(rng) else { break };
            let score = self.score(&other, &theirs, &own);
            if score > best_score {
                (best, best_score) = (other, score);
            }
        }
        Some(best)
    }

    /// A move that answers the other players' last moves, if one does: each cell it covers
    /// counts 1 if it is an attach cell that one of the last [`RECENT`] moves of another player
    /// gave its colour (one that colour may still use), or shares an edge with one (and is not
    /// forbidden to that colour), and 2 if it is also an attach cell of the colour to move.
    /// Among the legal moves of the highest count (at most [`MOST_LOCAL`]), one is drawn by
    /// the size bias. Blocking where the opponents just opened is what players do, and what
    /// random moves almost never do.
    #[inline(always)]
    pub(super) fn answer(&mut self, rng: &mut Rng) -> Option<u32> {
        let (near, twice, through) = self.answer_cells()?;
        let mut answers = std::mem::take(&mut self.answers);
        answers.clear();
        self.answers_by_counts(&through, &near, &twice, &mut answers);
        let chosen = (!answers.is_empty()).then(|| {
            let pieces = answers.iter().fold(0u32, |m, &(_, p)| m | 1 << p);
            let largest = self.bias.largest(pieces);
            loop {
                let (id, piece) = answers[rng.below(answers.len() as u64) as usize];
                if self.bias.accepts(rng, usize::from(piece), largest) {
                    break id;
                }
            }
        });
        self.answers = answers;
        chosen
    }

    /// What [`Engine::answer`] counts, if the colour to move has a piece down and there is
    /// anything to count: the cells that count, those of them that count twice, and the
    /// colour's live cells through which a placement can cover one.
    #[inline(always)]
    pub(super) fn answer_cells(&self) -> Option<(Bits, Bits, Bits)> {
        let c = usize::from(self.common.to_move);
        if c == usize::from(NO_COLOR) || self.common.placed[c] == 0 {
            return None;
        }
        let t = self.t;
        let v = &t.variant;
        let me = &v.players[v.player_of(c, usize::from(self.common.placed[c]))];
        let mut near = Bits::EMPTY;
        for &(d, corners) in &self.recent[RECENT - self.recent_len..] {
            let d = usize::from(d);
            if d == c || me.contains(&d) {
                continue;
            }
            let open = corners & self.corner.attach[d] & !self.corner.forbidden[d];
            near |= open;
            for x in open.iter() {
                near |= *t.placements.footprints.edges(x) & !self.corner.forbidden[d];
            }
        }
        if near.is_empty() {
            return None;
        }
        let twice = near & self.corner.attach[c];
        let mut through = Bits::EMPTY;
        for a in self.live[c].iter() {
            if t.placements.footprints.span(a).intersects(&near) {
                through.insert(a);
            }
        }
        Some((near, twice, through))
    }

    /// Appends to `answers` the legal moves (with their pieces) of the colour to move through
    /// the cells of `through` that count the most toward [`Engine::answer`] (more than 1,
    /// at most [`MOST_LOCAL`]): each move listed, and its cells looked up in `near` and
    /// `twice`. The reference [`Engine::answers_by_counts`] is tested against.
    #[cfg(test)]
    pub(super) fn answers_by_listing(
        &mut self,
        through: &Bits,
        near: &Bits,
        twice: &Bits,
        answers: &mut Vec<(u32, u8)>,
    ) {
        let t = self.t;
        let mut best = 1;
        self.for_each_move_through(through, |id| {
            let fp = t.placements.footprint(id);
            let mut k = 0;
            for &x in fp.cells {
                let x = usize::from(x);
                k += u32::from(near.contains(x)) + u32::from(twice.contains(x));
            }
            let k = k.min(MOST_LOCAL);
            if k > best {
                best = k;
                answers.clear();
            }
            if k == best {
                answers.push((id, fp.piece as u8));
            }
            true
        });
    }

    /// Appends to `answers` the legal moves (with their pieces) of the colour to move through
    /// the cells of `through` that count the most toward [`Engine::answer`] (more than 1, at
    /// most [`MOST_LOCAL`]), in the order the caches list them. Rather than each move listed
    /// and its cells looked up (as the reference, `answers_by_listing`, does), the counts of
    /// all the slots through a cell are added up at once from the slots covering each counted
    /// cell, a few word operations per cell, so that only the moves kept are named and no
    /// placement's record is read for the others.
    #[inline(always)]
    pub(super) fn answers_by_counts(
        &mut self,
        through: &Bits,
        near: &Bits,
        twice: &Bits,
        answers: &mut Vec<(u32, u8)>,
    ) {
        let (full, ds) = (self.full, self.ds);
        let mut best = 1;
        self.for_each_slice_through(
            through,
            #[inline(always)]
            |a, dir, ok| {
                // Per slot, how many of the counted cells other than `a` its placement covers (a
                // cell of `twice` counted again), in binary: ones, twos, and "four or more" (which
                // is all a count needs while no count is kept above 4).
                const { assert!(MOST_LOCAL <= 4) };
                let mut planes = [[0u64; W]; 3];
                for counted in [near, twice] {
                    ds.each_covering(
                        a,
                        dir,
                        counted,
                        #[inline(always)]
                        |covering| {
                            for w in 0..W {
                                let carry = planes[0][w] & covering[w];
                                planes[0][w] ^= covering[w];
                                planes[2][w] |= planes[1][w] & carry;
                                planes[1][w] ^= carry;
                            }
                        },
                    );
                }
                // The attach cell itself, which every placement through it covers.
                let at_a = u32::from(near.contains(a)) + u32::from(twice.contains(a));
                let base = ds.full_slots(full, a, dir);
                for (w, &word) in ok.iter().enumerate() {
                    let mut bits = word;
                    while bits != 0 {
                        let i = bits.trailing_zeros();
                        let j = w * 64 + i as usize;
                        bits &= bits - 1;
                        let bit = |plane: &[u64; W]| (plane[w] >> i & 1) as u32;
                        let k = if bit(&planes[2]) == 1 {
                            MOST_LOCAL
                        } else {
                            (at_a + 2 * bit(&planes[1]) + bit(&planes[0])).min(MOST_LOCAL)
                        };
                        if k > best {
                            best = k;
                            answers.clear();
                        }
                        if k == best {
                            let slot = base[j] as usize;
                            answers.push((full.id(a, slot), full.slot_piece(a, slot) as u8));
                        }
                    }
                }
                true
            },
        );
    }

    /// A tournament's score of a move: its piece's weight and what its cells do to the
    /// colours' attach cells.
    #[inline(always)]
    pub(super) fn score(&self, pick: &Pick, theirs: &Bits, own: &Bits) -> f32 {
        let fp = pick.footprint(self.t);
        let masks = self.t.placements.footprints.masks(&fp);
        let c = usize::from(self.common.to_move);
        let fresh = masks.corners & !self.corner.forbidden[c] & !self.corner.attach[c];
        let w = &self.tournament_weights;
        self.bias.weight_of(fp.piece)
            + w[0] * fresh.count() as f32
            + w[1] * (masks.cells & *theirs).count() as f32
            + w[2] * (masks.edges & *own).count() as f32
    }
}

/// How a playout chooses among the legal moves: uniformly, or with a weight per piece (large
/// pieces, and awkward ones, early is how good players play, and it makes random games much
/// better estimates of who is ahead).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutPolicy {
    /// A legal move is taken with weight `2^(size_bias * size) * exp(piece_weights[piece])`
    /// (relative to the heaviest piece the colour has in hand; all zero: uniform).
    pub size_bias: f32,
    /// Natural-log weight of each piece (by its index in the variant's set).
    pub piece_weights: [f32; MAX_PIECES],
    /// Flat boards: each move is the best by `tournament_weights` of this many legal moves
    /// drawn by the weights above (1: the move drawn).
    pub tournament: u8,
    /// Weights of the new attach cells a move opens, of the other players' attach cells it
    /// covers, and of its own attach cells it spoils, in a tournament.
    pub tournament_weights: [f32; 3],
    /// Flat boards: a move that covers the cells the other players' last moves opened (their
    /// new attach cells and the cells beside them) is preferred to every other, the moves
    /// covering the most such cells first; the weights above choose among them.
    pub local: bool,
}

impl PlayoutPolicy {
    /// Every legal move equally likely.
    pub const UNIFORM: PlayoutPolicy = PlayoutPolicy {
        size_bias: 0.0,
        piece_weights: [0.0; MAX_PIECES],
        tournament: 1,
        tournament_weights: [0.0; 3],
        local: false,
    };

    /// The most the natural-log weights of two of a variant's pieces may differ. A move is
    /// drawn uniformly and kept with its weight relative to the heaviest piece in hand, so when
    /// only the lightest piece can move, about `exp(spread)` draws make one move: at this
    /// spread some 160,000, beyond it a playout (and so a search) could all but never end.
    pub const MOST_SPREAD: f64 = 12.0;

    /// The natural-log weight of each of `v`'s pieces: `size_bias * ln 2 * size +
    /// piece_weights[piece]`.
    fn log_weights<'v>(&self, v: &'v Variant) -> impl Iterator<Item = f64> + 'v {
        let (bias, weights) = (f64::from(self.size_bias), self.piece_weights);
        v.pieces.iter().enumerate().map(move |(p, piece)| {
            bias * std::f64::consts::LN_2 * piece.cells.len() as f64 + f64::from(weights[p])
        })
    }

    /// Whether playouts of `v` can follow the policy: its weights finite and their spread over
    /// the pieces at most [`PlayoutPolicy::MOST_SPREAD`]; else what is wrong.
    ///
    /// ```
    /// use blokus_core::{tables, PlayoutPolicy};
    /// let v = tables("duo").unwrap().variant().clone();
    /// let policy = |size_bias| PlayoutPolicy { size_bias, ..PlayoutPolicy::UNIFORM };
    /// assert!(policy(2.0).check(&v).is_ok());
    /// assert!(policy(8.0).check(&v).unwrap_err().contains("at most 12"));
    /// ```
    pub fn check(&self, v: &Variant) -> Result<(), String> {
        let (mut lightest, mut heaviest) = (f64::INFINITY, f64::NEG_INFINITY);
        for w in self.log_weights(v) {
            if !w.is_finite() {
                return Err(format!(
                    "the playouts' piece weights must be finite, not {w}"
                ));
            }
            (lightest, heaviest) = (lightest.min(w), heaviest.max(w));
        }
        let spread = heaviest - lightest;
        if spread > Self::MOST_SPREAD {
            return Err(format!(
                "the playouts' piece weights (size_bias and playout_piece_weights) differ by \
                 {spread:.1} between {}'s lightest and heaviest pieces, and may differ by at most \
                 {} (a natural log): beyond it a playout draws about exp({spread:.0}) moves \
                 to keep one",
                v.id(),
                Self::MOST_SPREAD
            ));
        }
        Ok(())
    }
}

/// Steps of a log-weight per unit (weights are kept in eighths).
const STEPS: f64 = 8.0;

/// A [`PlayoutPolicy`] as an acceptance test: a legal move drawn uniformly is kept with its
/// weight, relative to the heaviest piece in hand, as probability (draws are cheap), which
/// makes the moves kept follow the weights.
#[derive(Clone, Debug)]
pub(crate) struct SizeBias {
    biased: bool,
    /// Log-weight of each piece, in eighths.
    weight: [i32; MAX_PIECES],
    /// Per difference of log-weights (in eighths), the weight as a threshold on 32 random bits.
    accept: Vec<u64>,
}

impl SizeBias {
    pub(crate) fn new(t: &Tables, policy: PlayoutPolicy) -> SizeBias {
        let mut weight = [0i32; MAX_PIECES];
        for (p, w) in policy.log_weights(&t.variant).enumerate() {
            weight[p] = (w * STEPS).round() as i32;
        }
        let accept = (0..=255)
            .map(|d| ((-f64::from(d) / STEPS).exp() * f64::from(u32::MAX)).round() as u64)
            .collect();
        SizeBias {
            biased: weight[..t.variant.pieces.len()]
                .iter()
                .any(|&w| w != weight[0]),
            weight,
            accept,
        }
    }

    /// The natural-log weight of `piece`.
    #[inline]
    pub(crate) fn weight_of(&self, piece: usize) -> f32 {
        self.weight[piece] as f32 / STEPS as f32
    }

    /// The log-weight of the heaviest piece among `available` (bit p for piece p).
    #[inline]
    pub(crate) fn largest(&self, available: u32) -> i32 {
        if !self.biased {
            return 0;
        }
        let mut most = i32::MIN;
        let mut rest = available;
        while rest != 0 {
            most = most.max(self.weight[rest.trailing_zeros() as usize]);
            rest &= rest - 1;
        }
        most
    }

    /// Whether a legal move of `piece` is kept when the heaviest piece in hand weighs
    /// `largest` (always, and without drawing, when the policy is uniform).
    #[inline]
    pub(crate) fn accepts(&self, rng: &mut Rng, piece: usize, largest: i32) -> bool {
        if !self.biased {
            return true;
        }
        let d = (largest - self.weight[piece]).clamp(0, 255) as usize;
        rng.next_u64() >> 32 < self.accept[d]
    }
}
