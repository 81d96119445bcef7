//! Monte Carlo tree search for every variant: PUCT over a shared tree, priors from cheap move
//! features, values from playouts biased toward large pieces (and on flat boards toward
//! answers to the last moves), one value per player.
//!
//! A simulation descends the tree from the root by [`tree::Tree::select`], plays the moves on a
//! playout set to the root position, expands the leaf once it has been reached often enough
//! (its moves with their priors, the best [`SearchConfig::max_children`] kept), and plays the
//! game out; the finished game's value for every player is backed up along the path. Threads
//! share the tree: a lock is held only to descend and to back up, not for the playouts, and
//! simulations under way count as losses where they pass, so that threads spread over the tree.
//! One thread with a given seed always searches the same way.
//!
//! ```
//! use blokus_core::{tables, Board, Budget, Search, SearchConfig};
//! let board = Board::new(tables("duo").unwrap());
//! let mut search = Search::new(board.tables().clone(), SearchConfig::default());
//! search.set_board(&board);
//! let analysis = search.run(Budget::simulations(200), &mut || true);
//! assert_eq!(analysis.simulations, 200);
//! assert!(board.legal_moves().contains(&analysis.moves[0].id));
//! ```

mod config;
mod evaluated;
pub(crate) mod features;
#[cfg(test)]
mod tests;
mod tree;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::cpu::multiversion;
use crate::game::board::Board;
use crate::geometry::Geometry;
use crate::position::Position;
use crate::rng::Rng;
use crate::rules::score;
use crate::simulation::playout::{Playout, Replies};
use crate::simulation::selfplay::{game_seed, play_games, GameRecord};
use crate::tables::Tables;
use crate::variant::{Variant, MAX_COLORS};
use tree::{Selection, Tree, NONE};

pub use config::SearchConfig;
pub use evaluated::{Evaluation, Evaluator};
pub use features::{Features, NUM_FEATURES};

/// The [`Features`] of placement `id` (legal or not) for the colour to move on `board`; all
/// zero when the game is over.
pub fn move_features(board: &Board, id: u32) -> Features {
    let pos = board.position();
    let last = board.moves().last();
    match (pos.turn(), board.tables().placement(id)) {
        (Some(_), Some(_)) => features::features(board.tables(), pos, id, last),
        _ => Features::default(),
    }
}

/// When a search stops: after a number of simulations, after a time, or at whichever comes
/// first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// The most simulations.
    pub simulations: Option<u64>,
    /// The most seconds.
    pub seconds: Option<f64>,
}

impl Budget {
    /// `n` simulations.
    pub fn simulations(n: u64) -> Budget {
        Budget {
            simulations: Some(n),
            seconds: None,
        }
    }

    /// `s` seconds of searching.
    pub fn seconds(s: f64) -> Budget {
        Budget {
            simulations: None,
            seconds: Some(s),
        }
    }
}

/// What the search found for one move of the root.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootMove {
    /// The placement.
    pub id: u32,
    /// Simulations through it.
    pub visits: u32,
    /// Their mean value for the player to move (the prior's stand-in before any).
    pub value: f32,
    /// The prior the search gave it.
    pub prior: f32,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The root's moves that the search kept, most visited first (the first is its choice).
    pub moves: Vec<RootMove>,
    /// The root's value for each player: its chance of winning, as the search sees it.
    pub value: Vec<f32>,
    /// The principal variation: the most visited move at the root, then at its node, ...
    pub pv: Vec<u32>,
    /// Simulations run by this search (the tree may hold more, kept from earlier moves).
    pub simulations: u64,
    /// Simulations in the tree below the root.
    pub root_visits: u32,
    /// Seconds the search ran.
    pub seconds: f64,
    /// Nodes in the tree.
    pub nodes: usize,
}

/// A search over the positions of one variant, keeping its tree from move to move.
pub struct Search {
    t: Arc<Tables>,
    config: SearchConfig,
    tree: Tree,
    /// The game the tree's root is the position of.
    root: Option<Board>,
    /// Searches run so far (each draws its own random numbers).
    runs: u64,
}

impl Search {
    /// A search of `t`'s variant.
    pub fn new(t: Arc<Tables>, config: SearchConfig) -> Search {
        Search {
            t,
            config,
            tree: Tree::new(),
            root: None,
            runs: 0,
        }
    }

    /// The tables of the variant it searches.
    pub fn tables(&self) -> Arc<Tables> {
        Arc::clone(&self.t)
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Changes the configuration (the tree is kept).
    pub fn set_config(&mut self, config: SearchConfig) {
        self.config = config;
    }

    /// Forgets the tree (a new game).
    pub fn clear(&mut self) {
        self.tree = Tree::new();
        self.root = None;
    }

    /// Makes `board`'s position the root. When it continues the game of the current root (the
    /// same start, the same moves and then more), the subtree of the moves played since is
    /// kept; otherwise the tree starts afresh.
    pub fn set_board(&mut self, board: &Board) {
        let kept = self.root.as_ref().and_then(|root| {
            let same = Arc::ptr_eq(root.tables(), board.tables())
                && root.start_position() == board.start_position()
                && root.ply() <= board.ply()
                && root.moves().zip(board.moves()).all(|(a, b)| a == b);
            if !same {
                return None;
            }
            let mut node = self.tree.root;
            for id in board.moves().skip(root.ply()) {
                let n = &self.tree.nodes[node as usize];
                if !n.expanded {
                    return None;
                }
                let e = self.tree.edges_of(node).iter().find(|e| e.id == id)?;
                if e.child == NONE {
                    return None;
                }
                node = e.child;
            }
            Some(node)
        });
        self.tree = match kept {
            Some(node) if node == self.tree.root => std::mem::replace(&mut self.tree, Tree::new()),
            Some(node) => self.tree.subtree(node),
            None => Tree::new(),
        };
        assert!(
            Arc::ptr_eq(&self.t, board.tables()),
            "a search plays the variant it was made for"
        );
        self.root = Some(board.clone());
    }

    /// Searches from the root within `budget`, asking `go_on` now and then (every 20 ms or so,
    /// from one thread) whether to continue; returns the analysis of the root.
    pub fn run(&mut self, budget: Budget, go_on: &mut dyn FnMut() -> bool) -> Analysis {
        let (seed, threads) = (self.config.seed, self.config.threads.max(1));
        self.searched(budget, |context, runs| {
            let mut first = Worker::new(context, game_seed(seed, runs));
            first.expand_root();
            std::thread::scope(|s| {
                for k in 1..threads {
                    let seed = game_seed(seed, runs ^ (k as u64) << 40);
                    s.spawn(move || Worker::new(context, seed).run(&mut || true));
                }
                first.run(go_on);
                context.stop.store(true, Ordering::Relaxed);
            });
            context.started.load(Ordering::Relaxed).min(context.most)
        })
    }

    /// Runs `search` (which returns the simulations done) on the tree from the root within
    /// `budget`, and gives the analysis of the root after it.
    fn searched(
        &mut self,
        budget: Budget,
        search: impl FnOnce(&Context<'_>, u64) -> u64,
    ) -> Analysis {
        let start = Instant::now();
        let Some(root_board) = self.root.clone() else {
            return self.analysis(0, 0.0);
        };
        let root = *root_board.position();
        if root.is_game_over() {
            return self.analysis(0, 0.0);
        }
        self.runs += 1;
        let context = Context {
            t: &self.t,
            config: self.config,
            root: &root,
            last: root_board.moves().last(),
            before: root_board
                .moves()
                .zip(root_board.move_colors())
                .map(|(id, c)| (id, c as u8))
                .collect(),
            tree: Mutex::new(std::mem::replace(&mut self.tree, Tree::new())),
            replies: (self.config.replies && self.t.variant.geometry != Geometry::Cube)
                .then(|| Replies::new(&self.t)),
            started: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            deadline: budget
                .seconds
                .map(|s| start + Duration::from_secs_f64(s.clamp(0.0, 1e9))),
            most: budget.simulations.unwrap_or(u64::MAX),
        };
        let done = search(&context, self.runs);
        self.tree = context
            .tree
            .into_inner()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        self.analysis(done, start.elapsed().as_secs_f64())
    }

    /// The analysis of the root as the tree stands.
    fn analysis(&self, simulations: u64, seconds: f64) -> Analysis {
        let tree = &self.tree;
        let root = &tree.nodes[tree.root as usize];
        let players = self.t.variant.num_players();
        let mut moves: Vec<RootMove> = if root.expanded {
            tree.edges_of(tree.root)
                .iter()
                .map(|e| RootMove {
                    id: e.id,
                    visits: e.visits,
                    value: if e.visits > 0 {
                        e.value / e.visits as f32
                    } else {
                        f32::NAN
                    },
                    prior: e.prior,
                })
                .collect()
        } else {
            Vec::new()
        };
        moves.sort_by(|a, b| {
            b.visits
                .cmp(&a.visits)
                .then(b.value.total_cmp(&a.value))
                .then(b.prior.total_cmp(&a.prior))
        });
        let value = (0..players)
            .map(|p| root.mean(p).unwrap_or(1.0 / players as f32))
            .collect();
        let mut pv = Vec::new();
        let mut node = tree.root;
        while let Some(e) = tree.best(node) {
            let edge = &tree.edges[e as usize];
            pv.push(edge.id);
            if edge.child == NONE {
                break;
            }
            node = edge.child;
        }
        Analysis {
            moves,
            value,
            pv,
            simulations,
            root_visits: root.visits,
            seconds,
            nodes: tree.nodes.len(),
        }
    }
}

/// What the threads of one search share.
struct Context<'a> {
    t: &'a Tables,
    config: SearchConfig,
    root: &'a Position,
    /// The move played last before the root, if any.
    last: Option<u32>,
    /// The moves that led to the root, with their colours (the playouts answer the last).
    before: Vec<(u32, u8)>,
    tree: Mutex<Tree>,
    /// The playouts' last good replies ([`SearchConfig::replies`]).
    replies: Option<Replies>,
    /// Simulations begun.
    started: AtomicU64,
    stop: AtomicBool,
    deadline: Option<Instant>,
    most: u64,
}

impl Context<'_> {
    fn lock(&self) -> std::sync::MutexGuard<'_, Tree> {
        self.tree
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// A simulation's way down the tree: the nodes and the edges taken, the moves with the colours
/// that played them, the leaf reached, whether to expand it, and its values if it is a
/// finished game met before.
#[derive(Default)]
struct Path {
    steps: Vec<(u32, u32)>,
    moves: Vec<u32>,
    colors: Vec<u8>,
    leaf: u32,
    expand: bool,
    final_values: Option<[f32; MAX_COLORS]>,
}

/// One thread's share of a search: its own playout and random numbers.
struct Worker<'a> {
    c: &'a Context<'a>,
    game: Playout<'a>,
    rng: Rng,
    legal: Vec<u32>,
    scored: Vec<(u32, f32)>,
    how: Selection,
    /// The moves of the playout, with their colours.
    played_out: Vec<(u32, u8)>,
    /// Per colour, a bit per placement played from the point of the path being backed up on.
    played: Vec<u64>,
    words: usize,
    /// The way down of the simulation under way (kept to reuse its vectors).
    path: Path,
}

impl<'a> Worker<'a> {
    fn new(c: &'a Context<'a>, seed: u64) -> Worker<'a> {
        Worker {
            c,
            game: Playout::with_policy(c.t, c.config.playout),
            rng: Rng::new(seed),
            legal: Vec::new(),
            scored: Vec::new(),
            how: Selection {
                exploration: c.config.exploration,
                first_play_reduction: c.config.first_play_reduction,
                rave_equivalence: c.config.rave_equivalence,
                first_children: c.config.first_children.min(u32::MAX as usize) as u32,
                widening: c.config.widening,
            },
            played_out: Vec::new(),
            played: vec![0; MAX_COLORS * c.t.num_placements().div_ceil(64)],
            words: c.t.num_placements().div_ceil(64),
            path: Path::default(),
        }
    }

    /// Gives the root its moves before any simulation, so that even a search of one
    /// simulation has every move with its prior to show.
    fn expand_root(&mut self) {
        let root = self.c.lock().root;
        self.game.set_position(self.c.root);
        let moves = self.moves_with_priors(self.c.last);
        self.expand(root, &moves);
    }

    fn run(&mut self, go_on: &mut dyn FnMut() -> bool) {
        let mut asked = Instant::now();
        loop {
            if self.c.stop.load(Ordering::Relaxed) {
                return;
            }
            if let Some(deadline) = self.c.deadline {
                if Instant::now() >= deadline {
                    self.c.stop.store(true, Ordering::Relaxed);
                    return;
                }
            }
            if self.c.started.fetch_add(1, Ordering::Relaxed) >= self.c.most {
                return;
            }
            self.simulate();
            if asked.elapsed() >= Duration::from_millis(20) {
                asked = Instant::now();
                if !go_on() {
                    self.c.stop.store(true, Ordering::Relaxed);
                    return;
                }
            }
        }
    }

    /// The player and the colour to move in the playout's position (which is not over).
    fn mover(&self) -> (u32, u8) {
        let v = &self.c.t.variant;
        let c = self.game.turn().expect("a position with a move");
        (
            v.player_of(c, self.game.snapshot().placed(c)) as u32,
            c as u8,
        )
    }

    fn simulate(&mut self) {
        let mut path = std::mem::take(&mut self.path);
        self.descend_into(&mut path);
        self.simulate_from(&path);
        self.path = path;
    }

    /// The rest of a simulation once `path` is descended.
    fn simulate_from(&mut self, path: &Path) {
        self.played_out.clear();
        if let Some(values) = path.final_values {
            self.back_up(path, &values);
            return;
        }
        self.reach(path);
        if self.game.turn().is_none() {
            self.back_up_final(path);
            return;
        }
        if path.expand {
            let last = path.moves.last().copied().or(self.c.last);
            let moves = self.moves_with_priors(last);
            self.expand(path.leaf, &moves);
        }
        let points = match &self.c.replies {
            Some(replies) => {
                let last = path.moves.last().copied().or(self.c.last);
                self.game
                    .finish_replying(&mut self.rng, &mut self.played_out, replies, last)
            }
            None => self.game.finish(&mut self.rng, &mut self.played_out),
        };
        let values = values(&self.c.t.variant, &points, self.c.config.margin_weight);
        if let Some(replies) = &self.c.replies {
            let moves = path.moves.iter().copied().zip(path.colors.iter().copied());
            let moves = moves.chain(self.played_out.iter().copied());
            replies.learn(self.c.t, self.c.root, self.c.last, moves, &values);
        }
        self.back_up(path, &values);
    }

    /// Backs up the values of the finished game the playout's position is, the leaf of
    /// `path`, and marks the leaf with them: the next simulations to reach it back them up
    /// without replaying the moves to it.
    fn back_up_final(&mut self, path: &Path) {
        let points = self.game.finish(&mut self.rng, &mut self.played_out);
        debug_assert!(self.played_out.is_empty(), "a finished game has no moves");
        let values = values(&self.c.t.variant, &points, self.c.config.margin_weight);
        self.c.lock().finish(path.leaf, &values);
        self.back_up(path, &values);
    }

    /// Descends from the root while nodes are expanded, marking the path as under way.
    fn descend(&self) -> Path {
        let mut path = Path::default();
        self.descend_into(&mut path);
        path
    }

    /// [`Worker::descend`] into `path`, whose vectors are reused: near the end of a game,
    /// where most simulations reach a finished game and play no playout, allocating them
    /// anew each time is about an eighth of a simulation's cost.
    fn descend_into(&self, path: &mut Path) {
        let c = self.c;
        let mut tree = c.lock();
        path.steps.clear();
        path.moves.clear();
        path.colors.clear();
        let mut node = tree.root;
        while tree.nodes[node as usize].expanded && tree.nodes[node as usize].len > 0 {
            let e = tree.select(node, &self.how);
            path.steps.push((node, e));
            path.moves.push(tree.edges[e as usize].id);
            path.colors.push(tree.nodes[node as usize].color);
            node = tree.child(e);
        }
        tree.begin(&path.steps, node);
        path.final_values = tree.final_values(node);
        let n = &tree.nodes[node as usize];
        path.leaf = node;
        path.expand = !n.expanded
            && n.visits + n.pending > c.config.expand_after
            && tree.nodes.len() < c.config.max_nodes;
    }

    /// Sets the playout to the position at the end of `path`.
    fn reach(&mut self, path: &Path) {
        self.game.set_position(self.c.root);
        self.game.recall(&self.c.before);
        for &id in &path.moves {
            self.game.play(id);
        }
    }

    /// Expands `leaf`, the playout's position, with `moves`.
    fn expand(&mut self, leaf: u32, moves: &[(u32, f32)]) {
        let (player, color) = self.mover();
        self.c.lock().expand(leaf, moves, player, color);
    }

    /// Backs up a finished simulation's `values` along its path (and, with RAVE, for every
    /// node the moves its colour played from there on, those of the playout in
    /// `self.played_out` included).
    fn back_up(&mut self, path: &Path, values: &[f32; MAX_COLORS]) {
        let c = self.c;
        let mut tree = c.lock();
        if c.config.rave_equivalence > 0.0 {
            // From the leaf up: each node's moves that its colour played from there on.
            for k in 0..self.played_out.len() {
                let (id, color) = self.played_out[k];
                self.mark(color, id, true);
            }
            for d in (0..path.steps.len()).rev() {
                self.mark(path.colors[d], path.moves[d], true);
                let (played, words) = (&self.played, self.words);
                tree.back_up_amaf(path.steps[d].0, values, |color, id| {
                    played[usize::from(color) * words + id as usize / 64] >> (id % 64) & 1 != 0
                });
            }
            for k in 0..self.played_out.len() {
                let (id, color) = self.played_out[k];
                self.mark(color, id, false);
            }
            for d in 0..path.steps.len() {
                self.mark(path.colors[d], path.moves[d], false);
            }
        }
        tree.back_up(&path.steps, path.leaf, values);
    }

    /// Sets or clears the bit of placement `id` played by `color`.
    #[inline]
    fn mark(&mut self, color: u8, id: u32, on: bool) {
        let word = &mut self.played[usize::from(color) * self.words + id as usize / 64];
        let bit = 1u64 << (id % 64);
        if on {
            *word |= bit;
        } else {
            *word &= !bit;
        }
    }

    /// Lists the legal moves of the playout's position in `self.legal`, in the generator's
    /// order: [`Worker::keep_best`] orders them by prior and then by id, so what a node keeps
    /// does not depend on that order.
    fn list_legal(&mut self) {
        self.legal.clear();
        let legal = &mut self.legal;
        self.game.for_each_move(|id| {
            legal.push(id);
            true
        });
    }

    /// Keeps the best `max_children` of `self.scored` (see [`keep_best`]).
    fn keep_best(&mut self) {
        keep_best(&mut self.scored, self.c.config.max_children);
    }

    /// How many of the moves kept in `self.scored` (best first) a node's priors are normalised
    /// over: those it considers at first (see [`SearchConfig::first_children`]).
    fn normalised(&self) -> usize {
        self.how.considered(self.scored.len() as u32, 0) as usize
    }

    /// The legal moves of the playout's position with their priors, the best
    /// `max_children` of them.
    fn moves_with_priors(&mut self, last: Option<u32>) -> Vec<(u32, f32)> {
        let t = self.c.t;
        let cfg = &self.c.config;
        let pos = self.game.snapshot();
        self.list_legal();
        self.scored.clear();
        let scorer = features::Scorer::new(t, &pos, last);
        score_moves(&scorer, &self.legal, cfg, &mut self.scored);
        self.keep_best();
        let top = self.scored.first().map_or(0.0, |m| m.1);
        let total: f32 = self.scored[..self.normalised()]
            .iter()
            .map(|m| (m.1 - top).exp())
            .sum();
        self.scored
            .iter()
            .map(|&(id, logit)| (id, (logit - top).exp() / total))
            .collect()
    }
}

multiversion! {
    /// Appends each of `legal` with its prior's logit (the features weighed by `cfg`) to
    /// `out`. Compiled per CPU level: scoring the moves of every new node is most of what a
    /// simulation costs, and counting the cells of sets wants the CPU's `popcnt`.
    fn score_moves(scorer: &features::Scorer<'_>, legal: &[u32], cfg: &SearchConfig, out: &mut Vec<(u32, f32)>) {
        for &id in legal {
            let f = scorer.features(id);
            let logit: f32 = f
                .vector()
                .iter()
                .zip(&cfg.prior_weights)
                .map(|(x, w)| x * w)
                .sum::<f32>()
                + cfg.piece_weights[f.piece];
            out.push((id, logit));
        }
    }
}

/// Keeps the best `k` (at least one) of `scored`'s moves, best first: by score, and moves of one
/// score by id. As the moves' ids differ, this is one order whatever order `scored` came in.
fn keep_best(scored: &mut Vec<(u32, f32)>, k: usize) {
    let k = k.max(1);
    let order = |a: &(u32, f32), b: &(u32, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
    if scored.len() > k {
        scored.select_nth_unstable_by(k - 1, order);
        scored.truncate(k);
    }
    scored.sort_unstable_by(order);
}

/// The value of a finished game with `points` per colour for each player: mostly the result
/// (1 for a sole win, 1/k for a win shared by k, 0 for a loss), partly the score margin over
/// the best other player, squashed into [0, 1].
pub(crate) fn values(v: &Variant, points: &[i32], margin_weight: f32) -> [f32; MAX_COLORS] {
    let scores = score::scores(v, points);
    let winners = score::winners(&scores);
    // Points of a colour's piece set, to scale margins alike on every board.
    let cells: i32 = v
        .pieces
        .iter()
        .map(|p| p.cells.len() as i32 * i32::from(p.copies))
        .sum();
    let scale = (cells as f32 / 20.0).max(1.0);
    let mut out = [0.0; MAX_COLORS];
    for (p, slot) in out.iter_mut().enumerate().take(scores.len()) {
        let result = if winners.contains(&p) {
            1.0 / winners.len() as f32
        } else {
            0.0
        };
        let best_other = (0..scores.len())
            .filter(|&q| q != p)
            .map(|q| scores[q])
            .max()
            .unwrap_or(scores[p]);
        let margin = (scores[p] - best_other) as f32 / scale;
        let squashed = 1.0 / (1.0 + (-margin).exp());
        *slot = (1.0 - margin_weight) * result + margin_weight * squashed;
    }
    out
}

/// Plays the games numbered `range` with the search choosing every move (`simulations` a
/// move, `config` otherwise, on one thread per game), on `threads` threads; game `i` depends
/// only on `seed` and `i`, as in [`crate::selfplay`].
///
/// ```
/// use blokus_core::{search_selfplay, tables, SearchConfig};
/// let t = tables("duo").unwrap();
/// let games = search_selfplay(&t, 0..2, 7, 2, SearchConfig::default(), 50, true);
/// assert_eq!(games, search_selfplay(&t, 0..2, 7, 1, SearchConfig::default(), 50, true));
/// assert!(games.iter().all(|g| g.moves.len() == g.plies as usize));
/// ```
pub fn search_selfplay(
    t: &Arc<Tables>,
    range: std::ops::Range<u64>,
    seed: u64,
    threads: usize,
    config: SearchConfig,
    simulations: u64,
    keep_moves: bool,
) -> Vec<GameRecord> {
    play_games(range, seed, threads, &|| {
        Box::new(move |rng: &mut Rng| {
            let mut config = config;
            config.threads = 1;
            config.seed = rng.next_u64();
            let mut search = Search::new(Arc::clone(t), config);
            let mut board = Board::new(Arc::clone(t));
            while !board.position().is_game_over() {
                search.set_board(&board);
                let best = search
                    .run(Budget::simulations(simulations.max(1)), &mut || true)
                    .moves[0]
                    .id;
                board.play_unchecked(best);
            }
            let v = &t.variant;
            GameRecord {
                moves: if keep_moves {
                    board.moves().collect()
                } else {
                    Vec::new()
                },
                plies: board.ply() as u32,
                points: board.points(v.scoring),
            }
        })
    })
}

/// Each player's mean value (as the search values a finished game) over `playouts` games
/// played on from `board`'s position by the search's playout policy: a Monte Carlo estimate of
/// the position, for evaluators and tests.
pub fn playout_values(board: &Board, playouts: u32, seed: u64, config: &SearchConfig) -> Vec<f32> {
    let t = board.tables();
    let v = &t.variant;
    let mut sums = vec![0.0f32; v.num_players()];
    if playouts == 0 {
        return sums;
    }
    let mut game = Playout::with_policy(t, config.playout);
    let mut rng = Rng::new(seed);
    let mut moves = Vec::new();
    for _ in 0..playouts {
        game.set_position(board.position());
        moves.clear();
        let points = game.finish(&mut rng, &mut moves);
        for (sum, x) in sums
            .iter_mut()
            .zip(values(v, &points, config.margin_weight))
        {
            *sum += x;
        }
    }
    sums.iter().map(|s| s / playouts as f32).collect()
}
