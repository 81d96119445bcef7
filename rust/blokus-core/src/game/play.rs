//! Playing on a position: a placement goes down by the rules (`crate::rules`), the turn passes
//! to the next colour that can move (asked of the generator, `crate::movegen`), and the legal
//! moves are listed, counted, sampled and counted to a depth (perft).

use crate::cpu::multiversion;
use crate::movegen::Scratch;
use crate::position::Position;
use crate::rng::Rng;
use crate::rules::turn::next_turn;
use crate::rules::Illegal;
use crate::tables::Tables;

impl Position {
    /// The empty board of `t`'s variant, with colour 0 to move (or the first colour that can).
    pub(crate) fn start(t: &Tables) -> Position {
        let mut pos = t.rules.empty(&t.variant);
        pos.pass_turn(t, t.variant.num_colors() - 1);
        pos
    }

    /// Puts placement `id` down for colour `c` by the rules of play, without checking them or
    /// passing the turn: the step that play and setups share.
    #[inline(always)]
    pub(crate) fn place(&mut self, t: &Tables, c: usize, id: u32) {
        let fp = t.placements.footprint(id);
        t.rules.place(
            &t.placements.footprints,
            t.variant.num_colors(),
            self,
            c,
            &fp,
        );
    }

    /// Plays placement `id`, which must be legal for the colour to move (it is not checked:
    /// [`crate::Board::play`] is the checked way), and passes the turn.
    #[inline(always)]
    pub(crate) fn play_unchecked(&mut self, t: &Tables, id: u32) {
        let c = usize::from(self.common.to_move);
        self.place(t, c, id);
        self.pass_turn(t, c);
    }

    /// Makes the first colour after `after` (cyclically, `after` itself last) that can move
    /// the colour to move, marking those that cannot as the rules say.
    #[inline(always)]
    pub(crate) fn pass_turn(&mut self, t: &Tables, after: usize) {
        let v = &t.variant;
        let turn = next_turn(
            v.num_colors(),
            self.common.out,
            after,
            v.rules.knocks_out(),
            #[inline(always)]
            |d| t.generator.has_move(self, d),
        );
        self.common.set_turn(turn);
    }

    /// Makes `color` the colour to move if it can move, else the first colour after it that
    /// can: the turn of a setup position.
    pub(crate) fn set_turn_from(&mut self, t: &Tables, color: usize) {
        let n = t.variant.num_colors();
        self.pass_turn(t, (color + n - 1) % n);
    }

    /// Whether `color` has a legal placement.
    pub(crate) fn has_move(&self, t: &Tables, color: usize) -> bool {
        t.generator.has_move(self, color)
    }

    /// Appends the legal placements of the colour to move to `out`.
    #[inline(always)]
    pub(crate) fn legal_moves_into(&self, t: &Tables, out: &mut Vec<u32>) {
        if let Some(c) = self.turn() {
            t.generator.list_into(self, c, out);
        }
    }

    /// The legal placements of the colour to move.
    pub(crate) fn legal_moves(&self, t: &Tables) -> Vec<u32> {
        let mut out = Vec::new();
        self.legal_moves_into(t, &mut out);
        out
    }

    /// Number of legal placements of the colour to move, without listing them.
    #[inline(always)]
    pub(crate) fn count_moves(&self, t: &Tables) -> usize {
        self.turn().map_or(0, |c| t.generator.count(self, c))
    }

    /// A uniformly random legal placement of the colour to move, without listing the moves.
    #[inline(always)]
    pub(crate) fn sample_move(
        &self,
        t: &Tables,
        rng: &mut Rng,
        scratch: &mut Scratch,
    ) -> Option<u32> {
        let c = self.turn()?;
        t.generator.sample(self, c, rng, scratch)
    }

    /// Why placement `id` (which must exist) is not legal for the colour to move, or `None`.
    pub(crate) fn why_illegal(&self, t: &Tables, id: u32) -> Option<Illegal> {
        t.rules.why_illegal(self, t.get(id))
    }

    /// Number of move sequences of length `depth` from here (a game that ends earlier counts
    /// nothing). `go_on` is asked now and then (at every node above the last two levels)
    /// whether to continue; if it says no, the count stops and is `None`.
    pub(crate) fn perft(
        &self,
        t: &Tables,
        depth: u32,
        go_on: &mut dyn FnMut() -> bool,
    ) -> Option<u64> {
        if depth == 0 {
            return Some(1);
        }
        if self.is_game_over() {
            return Some(0);
        }
        if depth == 1 {
            return Some(self.count_moves(t) as u64);
        }
        if depth == 2 {
            return Some(perft_2(self, t));
        }
        if !go_on() {
            return None;
        }
        let mut total = 0;
        for id in self.legal_moves(t) {
            let mut next = *self;
            next.play_unchecked(t, id);
            total += next.perft(t, depth - 1, go_on)?;
        }
        Some(total)
    }

    /// The perft count below each legal move of the colour to move: `(id, perft(depth - 1)
    /// after it)`, in the generator's order; empty at depth 0 and at the end of the game.
    /// `None` if `go_on` said to stop.
    pub(crate) fn perft_divide(
        &self,
        t: &Tables,
        depth: u32,
        go_on: &mut dyn FnMut() -> bool,
    ) -> Option<Vec<(u32, u64)>> {
        if depth == 0 {
            return Some(Vec::new());
        }
        let mut out = Vec::new();
        for id in self.legal_moves(t) {
            let mut next = *self;
            next.play_unchecked(t, id);
            out.push((id, next.perft(t, depth - 1, go_on)?));
        }
        Some(out)
    }
}

multiversion! {
    /// `perft(2)` of a position whose game is not over: the last two levels, where nearly all
    /// the work is, in one body compiled per CPU level (the levels above recurse).
    fn perft_2(pos: &Position, t: &Tables) -> u64 {
        let mut moves = Vec::with_capacity(512);
        pos.legal_moves_into(t, &mut moves);
        let mut total = 0;
        for id in moves {
            let mut next = *pos;
            next.play_unchecked(t, id);
            total += next.count_moves(t) as u64;
        }
        total
    }
}

impl Tables {
    /// The legal placements of the colour to move in `pos`, a position of this variant (from a
    /// [`crate::Board`] of these tables, or a search's leaf).
    pub fn legal_moves(&self, pos: &Position) -> Vec<u32> {
        pos.legal_moves(self)
    }
}
