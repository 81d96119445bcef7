//! Many games stepped at once, for reinforcement learning: pgx-style arrays written in place.
//!
//! Each game is a [`Position`]. The caller owns the output buffers (numpy arrays on the Python
//! side); [`Batch::write`] fills them, splitting the games over threads. A mask row is not
//! cleared whole (30,433 entries in classic): the ids the last write set are unset.

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
    /// on the step that ends a game; 0 otherwise.
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
        let mut listed = Vec::new();
        listed.try_reserve_exact(n)?;
        listed.resize_with(n, Vec::new);
        Ok(Batch {
            games,
            ended,
            listed,
            grid: Grid::new(&t.variant),
        })
    }

    /// The grid the observations are drawn on.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The games' positions.
    pub fn positions(&self) -> &[Position] {
        &self.games
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
        for (g, (pos, ended)) in self.games.iter_mut().zip(&mut self.ended).enumerate() {
            if which.is_none_or(|w| w[g]) {
                *pos = start;
                *ended = false;
            }
        }
    }

    /// Checks every action first (so a bad one changes nothing), then plays them; finished games
    /// ignore their action. Marks which games ended in this step.
    pub fn step(&mut self, t: &Tables, actions: &[i64]) -> Result<(), StepError> {
        step(self, t, actions)
    }

    #[inline(always)]
    fn step_here(&mut self, t: &Tables, actions: &[i64]) -> Result<(), StepError> {
        for (g, (pos, &a)) in self.games.iter().zip(actions).enumerate() {
            if pos.is_game_over() {
                continue;
            }
            let id = u32::try_from(a)
                .ok()
                .filter(|&id| (id as usize) < t.num_placements());
            let reason = match id {
                None => Some(None),
                Some(id) => pos.why_illegal(t, id).map(Some),
            };
            if let Some(reason) = reason {
                return Err(StepError::Illegal {
                    game: g,
                    action: a,
                    reason,
                });
            }
        }
        for ((pos, &a), e) in self.games.iter_mut().zip(actions).zip(&mut self.ended) {
            *e = false;
            if !pos.is_game_over() {
                pos.play_unchecked(t, a as u32);
                *e = pos.is_game_over();
            }
        }
        Ok(())
    }

    /// Writes every game's outputs, on `threads` threads each writing the rows of a run of
    /// games. The mask rows must hold what the last write put there (all false at first):
    /// only the ids set then are cleared.
    pub fn write(&mut self, t: &Tables, out: Outputs<'_>, threads: usize) {
        let chunk = self.games.len().div_ceil(threads.max(1)).max(1);
        let (games, ended, grid) = (&self.games, &self.ended, &self.grid);
        if chunk >= games.len() {
            write_rows(t, grid, games, ended, &mut self.listed, out);
            return;
        }
        let mut rest = out;
        let mut parts = Vec::new();
        let runs = games
            .chunks(chunk)
            .zip(ended.chunks(chunk))
            .zip(self.listed.chunks_mut(chunk));
        for ((games, ended), listed) in runs {
            let (part, others) = rest.split_first(games.len(), t, grid);
            rest = others;
            parts.push((games, ended, listed, part));
        }
        share(parts, threads, |parts| {
            for (games, ended, listed, part) in parts {
                write_rows(t, grid, games, ended, listed, part);
            }
        });
    }
}

multiversion! {
    /// Writes the outputs of `games` (the slices are those games' rows). `ended[g]` says the game
    /// ended in the step just taken, so its rewards are due; `listed[g]` holds the ids set in its
    /// mask row, and is replaced by the ones set now.
    /// Compiled per CPU level.
    fn write_rows(t: &Tables, grid: &Grid, games: &[Position], ended: &[bool], listed: &mut [Vec<u32>], out: Outputs<'_>) {
        let nc = t.variant.num_colors();
        let np = t.variant.num_players();
        let na = t.num_placements();
        let gs = grid.size();
        for (g, pos) in games.iter().enumerate() {
            let mover = pos.turn().unwrap_or(0);
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
            pos.legal_moves_into(t, ids);
            for &id in ids.iter() {
                mask[id as usize] = true;
            }
            let rewards = &mut out.rewards[g * np..(g + 1) * np];
            rewards.fill(0.0);
            if ended[g] {
                let points = t.rules.points(&t.variant, pos, t.variant.scoring);
                rewards.copy_from_slice(&score::rewards(&t.variant, &points));
            }
            match pos.turn() {
                None => {
                    out.current_player[g] = -1;
                    out.current_color[g] = -1;
                }
                Some(c) => {
                    out.current_color[g] = c as i32;
                    out.current_player[g] = t.variant.player_of(c, pos.placed(c)) as i32;
                }
            }
            out.terminated[g] = pos.is_game_over();
        }
    }
}

multiversion! {
    /// [`Batch::step`], compiled per CPU level.
    fn step(batch: &mut Batch, t: &Tables, actions: &[i64]) -> Result<(), StepError> {
        batch.step_here(t, actions)
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
