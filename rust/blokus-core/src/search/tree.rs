//! The search tree: nodes (positions) and edges (moves) in two arrays, indices instead of
//! pointers, so a whole tree is two allocations and a subtree is kept by copying it out.
//!
//! Values are win probabilities in [0, 1]: an edge keeps the sum of the values, for the player
//! who chose it, of the simulations that went through it; a node keeps the sum of every
//! player's values.

use crate::variant::MAX_COLORS;

/// No node yet (an edge not tried), or no player (the game is over).
pub(crate) const NONE: u32 = u32::MAX;

/// A position in the tree. A finished game's node is expanded with no edges and no player;
/// its `first` is the index of its values in [`Tree::finals`].
#[derive(Clone, Debug)]
pub(crate) struct Node {
    /// Its edges: `edges[first..first + len]`, once expanded.
    pub(crate) first: u32,
    pub(crate) len: u32,
    pub(crate) expanded: bool,
    /// The player to move (known once the node is expanded).
    pub(crate) player: u32,
    /// The colour to move (known once the node is expanded).
    pub(crate) color: u8,
    pub(crate) visits: u32,
    /// Simulations on their way through the node and not yet back.
    pub(crate) pending: u32,
    /// Per player, the sum of the values of the simulations through the node.
    pub(crate) value: [f32; MAX_COLORS],
}

impl Node {
    fn new() -> Node {
        Node {
            first: 0,
            len: 0,
            expanded: false,
            player: NONE,
            color: 0,
            visits: 0,
            pending: 0,
            value: [0.0; MAX_COLORS],
        }
    }

    /// The mean value for `player` of the simulations through the node (`None` before any).
    pub(crate) fn mean(&self, player: usize) -> Option<f32> {
        (self.visits > 0).then(|| self.value[player] / self.visits as f32)
    }
}

/// A move from a node.
#[derive(Clone, Debug)]
pub(crate) struct Edge {
    /// The placement.
    pub(crate) id: u32,
    /// The prior probability the search gives the move before trying it.
    pub(crate) prior: f32,
    /// The node it leads to, `NONE` until the move is tried.
    pub(crate) child: u32,
    pub(crate) visits: u32,
    pub(crate) pending: u32,
    /// The sum of the values of its simulations for the player who chose it.
    pub(crate) value: f32,
    /// All-moves-as-first: simulations through the node in which the node's colour played
    /// this move at any later point, and the sum of their values for the node's player.
    pub(crate) amaf_visits: u32,
    pub(crate) amaf_value: f32,
}

/// How a node's move is chosen while descending.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Selection {
    /// Weight of the prior against the values found (PUCT's c).
    pub(crate) exploration: f32,
    /// How much worse than its node's mean an untried move is assumed to be.
    pub(crate) first_play_reduction: f32,
    /// RAVE: the number of a move's own simulations at which its all-moves-as-first value
    /// and its own weigh the same (0: no RAVE).
    pub(crate) rave_equivalence: f32,
    /// Progressive widening (see `SearchConfig::first_children`): the moves a node considers
    /// at first (0: all), and how their number grows with the square root of its simulations.
    pub(crate) first_children: u32,
    pub(crate) widening: f32,
}

impl Selection {
    /// How many of its `len` moves (best prior first) a node that `n` simulations have gone
    /// through considers.
    pub(crate) fn considered(&self, len: u32, n: u32) -> u32 {
        if self.first_children == 0 {
            return len;
        }
        let wide = (self.widening * (n as f32).sqrt()) as u32;
        self.first_children.max(wide).min(len)
    }
}

/// The tree.
#[derive(Clone, Debug)]
pub(crate) struct Tree {
    pub(crate) nodes: Vec<Node>,
    pub(crate) edges: Vec<Edge>,
    /// The values of the finished games among the nodes (one per player, as backed up), so
    /// that a simulation that reaches one again needs neither its position nor a playout.
    pub(crate) finals: Vec<[f32; MAX_COLORS]>,
    pub(crate) root: u32,
}

impl Tree {
    /// A tree of one unexpanded node.
    pub(crate) fn new() -> Tree {
        Tree {
            nodes: vec![Node::new()],
            edges: Vec::new(),
            finals: Vec::new(),
            root: 0,
        }
    }

    /// The edges of `node`.
    pub(crate) fn edges_of(&self, node: u32) -> &[Edge] {
        let n = &self.nodes[node as usize];
        &self.edges[n.first as usize..(n.first + n.len) as usize]
    }

    /// The edge of `node` to descend, by PUCT: the mean value for the node's player (untried:
    /// the node's mean less `first_play_reduction`; simulations still on their way count as
    /// losses, so that threads spread out) plus `exploration * prior * sqrt(N) / (1 + n)`.
    pub(crate) fn select(&self, node: u32, how: &Selection) -> u32 {
        let n = &self.nodes[node as usize];
        let player = n.player as usize;
        let parent_mean = n.mean(player).unwrap_or(0.5);
        let untried = (parent_mean - how.first_play_reduction).max(0.0);
        let total = (n.visits + n.pending) as f32;
        let scale = how.exploration * total.max(1.0).sqrt();
        let mut best = (f32::NEG_INFINITY, n.first);
        let considered = how.considered(n.len, n.visits + n.pending) as usize;
        for (k, e) in self.edges_of(node)[..considered].iter().enumerate() {
            let tried = e.visits + e.pending;
            let own = (tried > 0).then(|| e.value / tried as f32);
            let q = match (own, e.amaf_visits > 0 && how.rave_equivalence > 0.0) {
                (None, false) => untried,
                (Some(own), false) => own,
                (own, true) => {
                    // The weight of the all-moves-as-first value falls as the move's own
                    // simulations grow (the "minimum MSE" schedule with a fixed equivalence).
                    let (n, m) = (tried as f32, e.amaf_visits as f32);
                    let beta = m / (m + n + n * m / how.rave_equivalence);
                    let amaf = e.amaf_value / m;
                    beta * amaf + (1.0 - beta) * own.unwrap_or(amaf)
                }
            };
            let score = q + scale * e.prior / (1 + tried) as f32;
            if score > best.0 {
                best = (score, n.first + k as u32);
            }
        }
        best.1
    }

    /// The node edge `e` leads to, made if the move was not tried before.
    pub(crate) fn child(&mut self, e: u32) -> u32 {
        let child = self.edges[e as usize].child;
        if child != NONE {
            return child;
        }
        let child = self.nodes.len() as u32;
        self.nodes.push(Node::new());
        self.edges[e as usize].child = child;
        child
    }

    /// Gives `node` its moves (placement, prior) and its player to move, if no other
    /// simulation did meanwhile.
    pub(crate) fn expand(&mut self, node: u32, moves: &[(u32, f32)], player: u32, color: u8) {
        let n = &mut self.nodes[node as usize];
        if n.expanded {
            return;
        }
        n.expanded = true;
        n.player = player;
        n.color = color;
        n.first = self.edges.len() as u32;
        n.len = moves.len() as u32;
        self.edges.extend(moves.iter().map(|&(id, prior)| Edge {
            id,
            prior,
            child: NONE,
            visits: 0,
            pending: 0,
            value: 0.0,
            amaf_visits: 0,
            amaf_value: 0.0,
        }));
    }

    /// Marks `node` a finished game whose simulations are worth `values`, if it is not
    /// expanded yet.
    pub(crate) fn finish(&mut self, node: u32, values: &[f32; MAX_COLORS]) {
        let n = &mut self.nodes[node as usize];
        if n.expanded {
            return;
        }
        n.expanded = true;
        n.player = NONE;
        n.first = self.finals.len() as u32;
        n.len = 0;
        self.finals.push(*values);
    }

    /// The values of `node` if it is a finished game marked by [`Tree::finish`].
    pub(crate) fn final_values(&self, node: u32) -> Option<[f32; MAX_COLORS]> {
        let n = &self.nodes[node as usize];
        (n.expanded && n.player == NONE).then(|| self.finals[n.first as usize])
    }

    /// Adds a simulation's value for `node`'s player to the all-moves-as-first statistics of
    /// the node's moves that its colour played from the node on (`played(colour, move)`).
    pub(crate) fn back_up_amaf(
        &mut self,
        node: u32,
        values: &[f32; MAX_COLORS],
        played: impl Fn(u8, u32) -> bool,
    ) {
        let n = &self.nodes[node as usize];
        let (first, len, color, value) = (n.first, n.len, n.color, values[n.player as usize]);
        for e in &mut self.edges[first as usize..(first + len) as usize] {
            if played(color, e.id) {
                e.amaf_visits += 1;
                e.amaf_value += value;
            }
        }
    }

    /// Marks the path of a simulation under way (nodes and the edges taken from them).
    pub(crate) fn begin(&mut self, path: &[(u32, u32)], leaf: u32) {
        for &(node, e) in path {
            self.nodes[node as usize].pending += 1;
            self.edges[e as usize].pending += 1;
        }
        self.nodes[leaf as usize].pending += 1;
    }

    /// Adds a finished simulation's values (one per player) along its path.
    pub(crate) fn back_up(&mut self, path: &[(u32, u32)], leaf: u32, values: &[f32; MAX_COLORS]) {
        for &(node, e) in path {
            let n = &mut self.nodes[node as usize];
            n.pending -= 1;
            n.visits += 1;
            for (sum, v) in n.value.iter_mut().zip(values) {
                *sum += v;
            }
            let player = n.player as usize;
            let edge = &mut self.edges[e as usize];
            edge.pending -= 1;
            edge.visits += 1;
            edge.value += values[player];
        }
        let n = &mut self.nodes[leaf as usize];
        n.pending -= 1;
        n.visits += 1;
        for (sum, v) in n.value.iter_mut().zip(values) {
            *sum += v;
        }
    }

    /// Takes back the marks of a simulation under way that will not finish.
    pub(crate) fn cancel(&mut self, path: &[(u32, u32)], leaf: u32) {
        for &(node, e) in path {
            self.nodes[node as usize].pending -= 1;
            self.edges[e as usize].pending -= 1;
        }
        self.nodes[leaf as usize].pending -= 1;
    }

    /// The most visited edge of `node` (ties: the better value), if it has tried one.
    pub(crate) fn best(&self, node: u32) -> Option<u32> {
        let n = &self.nodes[node as usize];
        if !n.expanded || n.player == NONE {
            return None;
        }
        let key = |e: &Edge| (e.visits, e.value / e.visits.max(1) as f32);
        self.edges_of(node)
            .iter()
            .enumerate()
            .filter(|(_, e)| e.visits > 0)
            .max_by(|(_, a), (_, b)| {
                key(a)
                    .partial_cmp(&key(b))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
            .map(|(k, _)| n.first + k as u32)
    }

    /// A tree of the subtree under `node` alone (the nodes of the rest are dropped).
    pub(crate) fn subtree(&self, node: u32) -> Tree {
        let mut out = Tree {
            nodes: Vec::new(),
            edges: Vec::new(),
            finals: Vec::new(),
            root: 0,
        };
        // Depth first; each node is copied, then its edges, then the nodes they lead to.
        let mut stack = vec![(node, NONE)];
        while let Some((old, from_edge)) = stack.pop() {
            let new = out.nodes.len() as u32;
            if from_edge != NONE {
                out.edges[from_edge as usize].child = new;
            }
            let mut n = self.nodes[old as usize].clone();
            n.pending = 0;
            let (first, len) = (n.first, n.len);
            if let Some(values) = self.final_values(old) {
                n.first = out.finals.len() as u32;
                out.finals.push(values);
                out.nodes.push(n);
                continue;
            }
            n.first = out.edges.len() as u32;
            out.nodes.push(n);
            if self.nodes[old as usize].expanded {
                for k in 0..len {
                    let mut e = self.edges[(first + k) as usize].clone();
                    e.pending = 0;
                    let child = e.child;
                    e.child = NONE;
                    out.edges.push(e);
                    if child != NONE {
                        stack.push((child, out.edges.len() as u32 - 1));
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_level() -> Tree {
        let mut t = Tree::new();
        t.expand(0, &[(10, 0.5), (11, 0.3), (12, 0.2)], 0, 0);
        let c = t.child(1);
        t.expand(c, &[(20, 1.0)], 1, 1);
        t.child(t.nodes[c as usize].first);
        t
    }

    #[test]
    fn values_are_backed_up_for_the_player_who_chose() {
        let mut t = two_level();
        let child = t.edges[1].child;
        let path = [(0, 1), (child, t.nodes[child as usize].first)];
        let leaf = t.edges[t.nodes[child as usize].first as usize].child;
        t.begin(&path, leaf);
        assert_eq!(t.edges[1].pending, 1);
        t.back_up(&path, leaf, &[0.25, 0.75, 0.0, 0.0]);
        assert_eq!((t.edges[1].visits, t.edges[1].value), (1, 0.25));
        let second = t.nodes[child as usize].first as usize;
        assert_eq!((t.edges[second].visits, t.edges[second].value), (1, 0.75));
        assert_eq!(t.nodes[0].value[1], 0.75);
        assert!(t.nodes.iter().all(|n| n.pending == 0));
        assert_eq!(t.best(0), Some(1));
    }

    #[test]
    fn selection_follows_priors_first_then_values() {
        let mut t = two_level();
        let how = Selection {
            exploration: 1.0,
            first_play_reduction: 0.0,
            rave_equivalence: 0.0,
            first_children: 0,
            widening: 0.0,
        };
        assert_eq!(t.select(0, &how), 0, "the highest prior first");
        // A move that lost 20 times gives way to the others.
        t.edges[0].visits = 20;
        t.nodes[0].visits = 20;
        t.nodes[0].value[0] = 10.0;
        assert_eq!(t.select(0, &how), 1);
        // Simulations under way count as losses: the next thread takes another move.
        t.edges[1].pending = 30;
        assert_eq!(t.select(0, &how), 2);
    }

    #[test]
    fn a_widening_node_considers_more_moves_as_its_simulations_grow() {
        let mut how = Selection {
            exploration: 1.0,
            first_play_reduction: 0.0,
            rave_equivalence: 0.0,
            first_children: 1,
            widening: 0.5,
        };
        assert_eq!(how.considered(3, 0), 1);
        assert_eq!(how.considered(3, 15), 1);
        assert_eq!(how.considered(3, 16), 2);
        assert_eq!(how.considered(3, 10_000), 3);
        how.first_children = 0;
        assert_eq!(how.considered(3, 0), 3);
        // A node that considers one move takes it, however it did.
        let mut t = two_level();
        how.first_children = 1;
        t.edges[0].visits = 9;
        t.nodes[0].visits = 9;
        assert_eq!(t.select(0, &how), 0);
        // At 16 simulations it considers two, and the untried second comes first.
        t.edges[0].visits = 16;
        t.nodes[0].visits = 16;
        assert_eq!(t.select(0, &how), 1);
    }

    #[test]
    fn a_subtree_keeps_its_nodes_edges_and_counts() {
        let t = two_level();
        let child = t.edges[1].child;
        let sub = t.subtree(child);
        assert_eq!(sub.nodes.len(), 2);
        assert_eq!(sub.edges.len(), 1);
        assert_eq!(sub.edges[0].id, 20);
        assert_eq!(sub.edges[0].child, 1);
        assert_eq!(sub.nodes[0].player, 1);
    }

    #[test]
    fn a_finished_game_keeps_its_values_in_a_subtree() {
        let mut t = two_level();
        let child = t.edges[1].child;
        let leaf = t.edges[t.nodes[child as usize].first as usize].child;
        let values = [0.9, 0.1, 0.0, 0.0];
        assert_eq!(t.final_values(leaf), None);
        t.finish(leaf, &values);
        t.finish(leaf, &[0.0; MAX_COLORS]); // once marked, kept
        assert_eq!(t.final_values(leaf), Some(values));
        assert_eq!(t.best(leaf), None);
        let sub = t.subtree(child);
        assert_eq!(sub.final_values(sub.edges[0].child), Some(values));
        assert_eq!(sub.final_values(0), None);
    }
}
