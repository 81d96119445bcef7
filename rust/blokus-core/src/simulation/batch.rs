//! Many games stepped at once, for reinforcement learning: pgx-style arrays written in place.
//!
//! Each game is a [`Position`]. The caller owns the output buffers (numpy arrays on the Python
//! side); [`Batch::write`] fills them, splitting the games over threads. A mask row is not
//! cleared whole (30,433 entries in classic): the ids the last write set are unset.
//!
//! An illegal action is refused ([`Batch::step`]: nothing changes) or, as pgx does, loses its
//! game ([`Batch::step_or_lose`]): the game ends at once, -1 for the player who chose the
//! action and +(players - 1) for each of the others.

use std::collections::TryReserveError;

use crate::cpu::multiversion;
use crate::position::Position;
use crate::rules::score;
use crate::rules::Illegal;
use crate::tables::Tables;
use crate::variant::Variant;

use super::parallel::share;

/// The dense grid observations are drawn on: `(layers, rows, columns)` and each cell's index.
#[derive(Clone, Debug)]
pub struct Grid {
    /// Layers (1 on flat boards), rows, columns.
    pub shape: [usize; 3],
    /// Index of each cell in the flattened grid; row 0 is the top row, as the board is drawn.
    pub index: Vec<usize>,
}

impl Grid {
    /// The grid of a variant's cells.
    pub fn new(variant: &Variant) -> Grid {
        let cells = &variant.cells;
        let dim = |k: usize| cells.iter().map(|c| c[k]).max().unwrap_or(0) as usize + 1;
        let (w, h, l) = (dim(0), dim(1), dim(2));
        let index = cells
            .iter()
            .map(|c| (c[2] as usize * h + (h - 1 - c[1] as usize)) * w + c[0] as usize)
            .collect();
        Grid {
            shape: [l, h, w],
            index,
        }
    }

    /// Draws the colours' cells as planes from `color`'s point of view: plane k holds the cells
    /// of colour (color + k) mod colours. `out` has `colours * size()` entries.
    pub fn observe(&self, pos: &Position, num_colors: usize, color: usize, out: &mut [u8]) {
        let nc = num_colors;
        let gs = self.size();
        out.fill(0);
        for c in 0..nc {
            let plane = (c + nc - color) % nc;
            for cell in pos.cells(c).iter() {
                out[plane * gs + self.index[cell]] = 1;
            }
        }
    }

    /// Number of grid points.
    pub fn size(&self) -> usize {
        self.shape.iter().product()
    }
}

/// Per-game outputs of one step, borrowed from the caller's buffers.
pub struct Outputs<'a> {
    /// `(games, colours, grid)`: plane k holds the cells of colour (mover + k) mod colours.
    pub observation: &'a mut [u8],
    /// `(games, placements)`.
    pub legal_action_mask: &'a mut [bool],
    /// `(games, players)`: +1 for a sole winner, 0 for tied winners, -1 for the others, written
    /// on the step that ends a game (for a game lost by an illegal action: -1 for its player,
    /// +(players - 1) for the others); 0 otherwise.
    pub rewards: &'a mut [f32],
    /// `(games,)`: the player to move (-1 once the game is over).
    pub current_player: &'a mut [i32],
    /// `(games,)`: the colour to move (-1 once the game is over).
    pub current_color: &'a mut [i32],
    /// `(games,)`.
    pub terminated: &'a mut [bool],
}

impl<'a> Outputs<'a> {
    /// Splits off the rows of the first `k` games.
    fn split_first(self, k: usize, t: &Tables, grid: &Grid) -> (Outputs<'a>, Outputs<'a>) {
        let v = &t.variant;
        let (o1, o2) = self
            .observation
            .split_at_mut(k * v.num_colors() * grid.size());
        let (m1, m2) = self.legal_action_mask.split_at_mut(k * t.num_placements());
        let (r1, r2) = self.rewards.split_at_mut(k * v.num_players());
        let (p1, p2) = self.current_player.split_at_mut(k);
        let (c1, c2) = self.current_color.split_at_mut(k);
        let (e1, e2) = self.terminated.split_at_mut(k);
        let first = Outputs {
            observation: o1,
            legal_action_mask: m1,
            rewards: r1,
            current_player: p1,
            current_color: c1,
            terminated: e1,
        };
        let rest = Outputs {
            observation: o2,
            legal_action_mask: m2,
            rewards: r2,
            current_player: p2,
            current_color: c2,
            terminated: e2,
        };
        (first, rest)
    }
}

/// Why a step could not be taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepError {
    /// The action of game `game` is not a legal placement there.
    Illegal {
        /// Game index.
        game: usize,
        /// The action.
        action: i64,
        /// The rule the placement breaks; `None` when the action is no placement id.
        reason: Option<Illegal>,
    },
}

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StepError::Illegal {
                game,
                action,
                reason: Some(reason),
            } => write!(f, "game {game}: action {action} is illegal: {reason}"),
            StepError::Illegal {
                game,
                action,
                reason: None,
            } => write!(f, "game {game}: action {action} is no placement"),
        }
    }
}

impl std::error::Error for StepError {}

/// A batch of games of one variant, with what [`Batch::write`] needs to update the outputs.
#[derive(Clone, Debug)]
pub struct Batch {
    /// The games.
    games: Vec<Position>,
    /// Which games ended in the last step (their rewards are due).
    ended: Vec<bool>,
    /// Per game, the player who lost it by an illegal action ([`Batch::step_or_lose`]); such
    /// a game is over though its position is not.
    lost: Vec<Option<usize>>,
    /// Per game, the ids set in its row of the legal action mask by the last write, so the
    /// next write clears just those instead of the whole row.
    listed: Vec<Vec<u32>>,
    /// The grid the observations are drawn on.
    grid: Grid,
}

impl Batch {
    /// `n` games at the start (their mask rows are taken to be all false).
    pub fn new(t: &Tables, n: usize) -> Batch {
        Batch {
            games: vec![Position::start(t); n],
            ended: vec![false; n],
            lost: vec![None; n],
            listed: vec![Vec::new(); n],
            grid: Grid::new(&t.variant),
        }
    }

    /// [`Batch::new`] that reports a failed allocation instead of aborting, for a caller that
    /// takes `n` from a user.
    pub fn try_new(t: &Tables, n: usize) -> Result<Batch, TryReserveError> {
        let mut games = Vec::new();
        games.try_reserve_exact(n)?;
        games.resize(n, Position::start(t));
        let mut ended = Vec::new();
        ended.try_reserve_exact(n)?;
        ended.resize(n, false);
        let mut lost = Vec::new();
        lost.try_reserve_exact(n)?;
        lost.resize(n, None);
        let mut listed = Vec::new();
        listed.try_reserve_exact(n)?;
        listed.resize_with(n, Vec::new);
        Ok(Batch {
            games,
            ended,
            lost,
            listed,
            grid: Grid::new(&t.variant),
        })
    }

    /// The grid the observations are drawn on.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The games' positions (a game lost by an illegal action keeps the position it had).
    pub fn positions(&self) -> &[Position] {
        &self.games
    }

    /// Per game, the player who lost it by an illegal action, if one did.
    pub fn losers(&self) -> &[Option<usize>] {
        &self.lost
    }

    /// Whether game `g` is over: nobody can move, or an illegal action lost it.
    pub fn is_over(&self, g: usize) -> bool {
        self.games[g].is_game_over() || self.lost[g].is_some()
    }

    /// Number of games.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether there are no games.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Starts again the games where `which` is true (all when `None`). `which` has one entry
    /// per game.
    pub fn reset(&mut self, t: &Tables, which: Option<&[bool]>) {
        let start = Position::start(t);
        let games = self
            .games
            .iter_mut()
            .zip(&mut self.ended)
            .zip(&mut self.lost);
        for (g, ((pos, ended), lost)) in games.enumerate() {
            if which.is_none_or(|w| w[g]) {
                *pos = start;
                *ended = false;
                *lost = None;
            }
        }
    }

    /// Checks every action first (so a bad one changes nothing), then plays them; finished games
    /// ignore their action. Marks which games ended in this step.
    pub fn step(&mut self, t: &Tables, actions: &[i64]) -> Result<(), StepError> {
        step(self, t, actions, false)
    }

    /// Plays every action as [`Batch::step`] does, except that an illegal placement in an
    /// unfinished game ends that game at once as a loss for the player who chose it (pgx's
    /// rule); the other games step normally. An action that is no placement id at all is still
    /// an error, and changes nothing.
    pub fn step_or_lose(&mut self, t: &Tables, actions: &[i64]) -> Result<(), StepError> {
        step(self, t, actions, true)
    }

    #[inline(always)]
    fn step_here(&mut self, t: &Tables, actions: &[i64], lose: bool) -> Result<(), StepError> {
        let n = self.games.len();
        for (g, &a) in actions.iter().take(n).enumerate() {
            if self.is_over(g) {
                continue;
            }
            let id = u32::try_from(a)
                .ok()
                .filter(|&id| (id as usize) < t.num_placements());
            let reason = match id {
                None => Some(None),
                // Checked once, in the second pass, when it does not make the step fail.
                Some(_) if lose => None,
                Some(id) => self.games[g].why_illegal(t, id).map(Some),
            };
            if let Some(reason) = reason {
                return Err(StepError::Illegal {
                    game: g,
                    action: a,
                    reason,
                });
            }
        }
        for (g, &a) in actions.iter().take(n).enumerate() {
            self.ended[g] = false;
            if self.is_over(g) {
                continue;
            }
            let pos = &mut self.games[g];
            if lose && pos.why_illegal(t, a as u32).is_some() {
                let c = pos.turn().unwrap_or(0);
                self.lost[g] = Some(t.variant.player_of(c, pos.placed(c)));
            } else {
                pos.play_unchecked(t, a as u32);
            }
            self.ended[g] = self.is_over(g);
        }
        Ok(())
    }

    /// Writes every game's outputs, on `threads` threads each writing the rows of a run of
    /// games. The mask rows must hold what the last write put there (all false at first):
    /// only the ids set then are cleared.
    pub fn write(&mut self, t: &Tables, out: Outputs<'_>, threads: usize) {
        let chunk = self.games.len().div_ceil(threads.max(1)).max(1);
        let (games, grid) = (&self.games, &self.grid);
        let (ended, lost) = (&self.ended, &self.lost);
        if chunk >= games.len() {
            write_rows(t, grid, games, ended, lost, &mut self.listed, out);
            return;
        }
        let mut rest = out;
        let mut parts = Vec::new();
        let runs = games
            .chunks(chunk)
            .zip(ended.chunks(chunk))
            .zip(lost.chunks(chunk))
            .zip(self.listed.chunks_mut(chunk));
        for (((games, ended), lost), listed) in runs {
            let (part, others) = rest.split_first(games.len(), t, grid);
            rest = others;
            parts.push((games, ended, lost, listed, part));
        }
        share(parts, threads, |parts| {
            for (games, ended, lost, listed, part) in parts {
                write_rows(t, grid, games, ended, lost, listed, part);
            }
        });
    }
}

multiversion! {
    /// Writes the outputs of `games` (the slices are those games' rows). `ended[g]` says the game
    /// ended in the step just taken, so its rewards are due; `lost[g]` names the player who lost
    /// it by an illegal action; `listed[g]` holds the ids set in its mask row, and is replaced by
    /// the ones set now. A game lost by an illegal action is drawn as a finished one.
    /// Compiled per CPU level.
    fn write_rows(
        t: &Tables,
        grid: &Grid,
        games: &[Position],
        ended: &[bool],
        lost: &[Option<usize>],
        listed: &mut [Vec<u32>],
        out: Outputs<'_>,
    ) {
        let nc = t.variant.num_colors();
        let np = t.variant.num_players();
        let na = t.num_placements();
        let gs = grid.size();
        for (g, pos) in games.iter().enumerate() {
            let turn = if lost[g].is_some() { None } else { pos.turn() };
            let mover = turn.unwrap_or(0);
            grid.observe(
                pos,
                nc,
                mover,
                &mut out.observation[g * nc * gs..(g + 1) * nc * gs],
            );
            let mask = &mut out.legal_action_mask[g * na..(g + 1) * na];
            let ids = &mut listed[g];
            for &id in ids.iter() {
                mask[id as usize] = false;
            }
            ids.clear();
            if turn.is_some() {
                pos.legal_moves_into(t, ids);
            }
            for &id in ids.iter() {
                mask[id as usize] = true;
            }
            let rewards = &mut out.rewards[g * np..(g + 1) * np];
            rewards.fill(0.0);
            match (ended[g], lost[g]) {
                (false, _) => {}
                (true, Some(loser)) => {
                    // pgx's formula: +1 for the other player of a two-player game, and
                    // +(players - 1) for each of the others in general.
                    rewards.fill((np - 1) as f32);
                    rewards[loser] = -1.0;
                }
                (true, None) => {
                    let points = t.rules.points(&t.variant, pos, t.variant.scoring);
                    rewards.copy_from_slice(&score::rewards(&t.variant, &points));
                }
            }
            match turn {
                None => {
                    out.current_player[g] = -1;
                    out.current_color[g] = -1;
                }
                Some(c) => {
                    out.current_color[g] = c as i32;
                    out.current_player[g] = t.variant.player_of(c, pos.placed(c)) as i32;
                }
            }
            out.terminated[g] = turn.is_none();
        }
    }
}

multiversion! {
    /// [`Batch::step`] (`lose` false) and [`Batch::step_or_lose`], compiled per CPU level.
    fn step(batch: &mut Batch, t: &Tables, actions: &[i64], lose: bool) -> Result<(), StepError> {
        batch.step_here(t, actions, lose)
    }
}

/// Output buffers owned in Rust, for using [`Batch`] without Python (which owns numpy arrays).
#[derive(Clone, Debug)]
pub struct Buffers {
    observation: Vec<u8>,
    legal_action_mask: Vec<bool>,
    rewards: Vec<f32>,
    current_player: Vec<i32>,
    current_color: Vec<i32>,
    terminated: Vec<bool>,
}

impl Buffers {
    /// Buffers for `games` games (mask rows all false, as [`Batch::new`] expects).
    pub fn new(t: &Tables, games: usize) -> Buffers {
        let v = &t.variant;
        Buffers {
            observation: vec![0; games * v.num_colors() * Grid::new(v).size()],
            legal_action_mask: vec![false; games * t.num_placements()],
            rewards: vec![0.0; games * v.num_players()],
            current_player: vec![0; games],
            current_color: vec![0; games],
            terminated: vec![false; games],
        }
    }

    /// The buffers as the outputs [`Batch::write`] fills.
    pub fn outputs(&mut self) -> Outputs<'_> {
        Outputs {
            observation: &mut self.observation,
            legal_action_mask: &mut self.legal_action_mask,
            rewards: &mut self.rewards,
            current_player: &mut self.current_player,
            current_color: &mut self.current_color,
            terminated: &mut self.terminated,
        }
    }
}

/// Plays `actions` (one row of `games` actions per step, each legal or ignored as
/// [`Batch::step`] takes them) through a batch of `games` games, writing every output after
/// every step, as the Python batch environment does; returns the seconds the steps took. This
/// is the batch environment's work without Python, to compare against it.
pub fn time_replay(
    t: &Tables,
    actions: &[i64],
    games: usize,
    threads: usize,
) -> Result<f64, StepError> {
    let mut buffers = Buffers::new(t, games);
    let mut batch = Batch::new(t, games);
    batch.write(t, buffers.outputs(), threads);
    let start = std::time::Instant::now();
    for row in actions.chunks(games.max(1)) {
        batch.step(t, row)?;
        batch.write(t, buffers.outputs(), threads);
    }
    Ok(start.elapsed().as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::tables;

    /// Placement `text` of `t`'s variant.
    fn id(t: &Tables, text: &str) -> i64 {
        i64::from(t.parse_move(text).unwrap())
    }

    /// Steps `batch` and writes its outputs, losing illegal actions.
    fn step_or_lose(batch: &mut Batch, t: &Tables, b: &mut Buffers, actions: &[i64]) {
        batch.step_or_lose(t, actions).unwrap();
        batch.write(t, b.outputs(), 2);
    }

    #[test]
    fn an_illegal_action_loses_its_game_and_the_others_step() {
        let t = tables("duo").unwrap();
        let mut b = Buffers::new(&t, 4);
        let mut batch = Batch::new(&t, 4);
        batch.write(&t, b.outputs(), 2);
        let (e10, j5, a1) = (id(&t, "e10"), id(&t, "j5"), id(&t, "a1"));
        step_or_lose(&mut batch, &t, &mut b, &[e10, e10, e10, e10]);
        // Orange to move: e10 overlaps, a1 touches nothing of Orange's, j5 is its start point.
        step_or_lose(&mut batch, &t, &mut b, &[j5, e10, a1, j5]);
        assert_eq!(b.terminated, [false, true, true, false]);
        assert_eq!(batch.losers(), [None, Some(1), Some(1), None]);
        assert_eq!(b.rewards, [0.0, 0.0, 1.0, -1.0, 1.0, -1.0, 0.0, 0.0]);
        assert_eq!(b.current_player, [0, -1, -1, 0]);
        assert_eq!(b.current_color, [0, -1, -1, 0]);
        let na = t.num_placements();
        let legal = |b: &Buffers, g: usize| {
            b.legal_action_mask[g * na..(g + 1) * na]
                .iter()
                .filter(|&&x| x)
                .count()
        };
        assert_eq!((legal(&b, 1), legal(&b, 2)), (0, 0));
        assert!(legal(&b, 0) > 0 && legal(&b, 3) > 0);
        // The lost games keep their position (Purple's e10 only) and ignore what follows,
        // legal or not; their rewards were due once. a1 loses the other two for Purple.
        let lost = batch.positions()[1];
        assert_eq!((lost.plies(), lost.turn()), (1, Some(1)));
        step_or_lose(&mut batch, &t, &mut b, &[a1, j5, a1, a1]);
        assert_eq!(b.terminated, [true, true, true, true]);
        assert_eq!(b.rewards, [-1.0, 1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 1.0]);
        assert_eq!(batch.positions()[1], lost);
        batch.reset(&t, Some(&[false, true, false, false]));
        batch.write(&t, b.outputs(), 2);
        assert_eq!(batch.losers(), [Some(0), None, Some(1), Some(0)]);
        assert_eq!(
            (b.terminated[1], b.current_player[1], legal(&b, 1)),
            (false, 0, 414)
        );
    }

    #[test]
    fn pgx_rewards_the_others_by_their_number() {
        // Four players: the offender -1, each other player +3. Classic_3's shared colour: the
        // player whose turn it is with it loses.
        for (variant, moves, expected) in [
            ("classic", vec!["a20"], vec![3.0, -1.0, 3.0, 3.0]),
            ("classic_3", vec!["a20", "t20", "t1"], vec![-1.0, 2.0, 2.0]),
        ] {
            let t = tables(variant).unwrap();
            let mut b = Buffers::new(&t, 1);
            let mut batch = Batch::new(&t, 1);
            for m in moves {
                step_or_lose(&mut batch, &t, &mut b, &[id(&t, m)]);
            }
            let mover = b.current_player[0];
            // a20 again: covered.
            step_or_lose(&mut batch, &t, &mut b, &[id(&t, "a20")]);
            assert!(b.terminated[0], "{variant}");
            assert_eq!(batch.losers()[0], Some(mover as usize), "{variant}");
            assert_eq!(b.rewards, expected, "{variant}");
        }
    }

    #[test]
    fn no_placement_id_is_an_error_either_way_and_changes_nothing() {
        let t = tables("duo").unwrap();
        let mut batch = Batch::new(&t, 2);
        let e10 = id(&t, "e10");
        for bad in [-1, t.num_placements() as i64] {
            let err = batch.step_or_lose(&t, &[e10, bad]).unwrap_err();
            assert_eq!(
                err,
                StepError::Illegal {
                    game: 1,
                    action: bad,
                    reason: None
                }
            );
            assert!(batch.step(&t, &[e10, bad]).is_err());
        }
        // The default refuses an illegal placement, and nothing changes.
        batch.step(&t, &[e10, e10]).unwrap();
        assert!(batch.step(&t, &[id(&t, "j5"), e10]).is_err());
        assert!(batch.positions().iter().all(|p| p.plies() == 1));
        assert_eq!(batch.losers(), [None, None]);
    }
}
