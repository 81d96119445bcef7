//! The search with an outside evaluator (a neural network, say) giving the leaves' priors and
//! values: [`Search::run_evaluated`], which gathers leaves in batches for one call each.

use std::time::{Duration, Instant};

use super::{values, Analysis, Budget, Path, Search, Worker};
use crate::position::Position;
use crate::simulation::selfplay::game_seed;
use crate::variant::MAX_COLORS;

/// What an evaluator (a neural network, say) says of a position: a prior per placement (the
/// search keeps those of the legal moves, normalised; all zero: alike), and each player's value
/// (a win probability), or `None` to have a playout find it.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// One number per placement id.
    pub priors: Vec<f32>,
    /// One value per player, in [0, 1].
    pub values: Option<Vec<f32>>,
}

/// An evaluator of leaves: given their positions and the moves from the root to each, an
/// [`Evaluation`] of each, or `None` to stop the search.
pub type Evaluator<'a> = dyn FnMut(&[Position], &[Vec<u32>]) -> Option<Vec<Evaluation>> + 'a;

impl Search {
    /// Searches from the root with `evaluate` giving the priors (and values) of the leaves, on
    /// one thread: up to `batch_size` leaves are gathered (simulations under way count as
    /// losses where they pass, so that a batch spreads over the tree), then evaluated in one
    /// call (given the leaves' positions and the moves from the root to each), expanded and
    /// backed up. `evaluate` returns `None` to stop the search.
    pub fn run_evaluated(
        &mut self,
        budget: Budget,
        batch_size: usize,
        evaluate: &mut Evaluator<'_>,
    ) -> Analysis {
        let seed = self.config.seed;
        self.searched(budget, |context, runs| {
            Worker::new(context, game_seed(seed, runs)).run_evaluated(batch_size.max(1), evaluate)
        })
    }
}

impl Worker<'_> {
    /// The evaluated search's loop ([`Search::run_evaluated`]); returns the simulations done.
    fn run_evaluated(&mut self, batch_size: usize, evaluate: &mut Evaluator<'_>) -> u64 {
        let c = self.c;
        let mut done = 0u64;
        // The root first, so that every move has the evaluator's prior.
        let root = c.lock().root;
        self.game.set_position(c.root);
        let Some(first) = evaluate(&[*c.root], &[Vec::new()]).and_then(|e| e.into_iter().next())
        else {
            return 0;
        };
        let moves = self.moves_from(&first.priors);
        self.expand(root, &moves);
        let mut batch: Vec<(Path, Position)> = Vec::with_capacity(batch_size);
        let mut positions = Vec::with_capacity(batch_size);
        let mut ways: Vec<Vec<u32>> = Vec::with_capacity(batch_size);
        // A batch is not begun if one as long as the last would end past the deadline: an
        // evaluator call (a network's) is long beside the search's own work, so checking the
        // clock between batches alone would overrun the budget by up to a call.
        let mut last_batch = Duration::ZERO;
        loop {
            let started = Instant::now();
            if done >= c.most || c.deadline.is_some_and(|d| started + last_batch >= d) {
                return done;
            }
            batch.clear();
            positions.clear();
            ways.clear();
            while batch.len() < batch_size.min((c.most - done) as usize) {
                let path = self.descend();
                self.played_out.clear();
                let finished = path.final_values.is_some() || {
                    self.reach(&path);
                    self.game.turn().is_none()
                };
                if finished {
                    // The end of the game: its value is known.
                    match path.final_values {
                        Some(values) => self.back_up(&path, &values),
                        None => self.back_up_final(&path),
                    }
                    done += 1;
                    // Near the end of a game every leaf may be a final one, which needs no
                    // evaluator call: the clock is looked at here too.
                    if c.deadline.is_some_and(|d| Instant::now() >= d) {
                        break;
                    }
                    continue;
                }
                let position = self.game.snapshot();
                positions.push(position);
                ways.push(path.moves.clone());
                batch.push((path, position));
            }
            if batch.is_empty() {
                continue;
            }
            let Some(evaluations) = evaluate(&positions, &ways) else {
                // Stopped: the simulations under way are backed up as nothing learnt.
                for (path, _) in &batch {
                    c.lock().cancel(&path.steps, path.leaf);
                }
                return done;
            };
            for ((path, position), evaluation) in batch.iter().zip(evaluations) {
                self.game.set_position(position);
                let unexpanded = {
                    let tree = c.lock();
                    !tree.nodes[path.leaf as usize].expanded
                        && tree.nodes.len() < c.config.max_nodes
                };
                if unexpanded {
                    let moves = self.moves_from(&evaluation.priors);
                    self.expand(path.leaf, &moves);
                }
                self.played_out.clear();
                let values = match evaluation.values {
                    Some(v) => {
                        let mut out = [0.0; MAX_COLORS];
                        for (slot, x) in out.iter_mut().zip(v) {
                            *slot = x.clamp(0.0, 1.0);
                        }
                        out
                    }
                    None => {
                        let points = self.game.finish(&mut self.rng, &mut self.played_out);
                        values(&c.t.variant, &points, c.config.margin_weight)
                    }
                };
                self.back_up(path, &values);
                done += 1;
            }
            last_batch = started.elapsed();
        }
    }

    /// The legal moves of the playout's position with the evaluator's `priors` (one per
    /// placement; the best `max_children` kept, normalised as [`Worker::normalised`] says;
    /// alike if they are all zero).
    fn moves_from(&mut self, priors: &[f32]) -> Vec<(u32, f32)> {
        self.list_legal();
        self.scored.clear();
        for &id in &self.legal {
            let p = priors.get(id as usize).copied().unwrap_or(0.0);
            self.scored
                .push((id, if p.is_finite() { p.max(0.0) } else { 0.0 }));
        }
        self.keep_best();
        let normalised = &self.scored[..self.normalised()];
        let total: f32 = normalised.iter().map(|m| m.1).sum();
        let n = normalised.len() as f32;
        self.scored
            .iter()
            .map(|&(id, p)| (id, if total > 0.0 { p / total } else { 1.0 / n }))
            .collect()
    }
}
