//! Many games stepped at once, for reinforcement learning: pgx-style arrays written in place.
//!
//! Each game is a [`Position`]. The caller owns the output buffers (numpy arrays on the Python
//! side); [`Batch::write`] fills them for a range of games, so games can be split over threads.

use crate::position::{Position, NO_COLOR};
use crate::score;
use crate::table::Tables;
use crate::variant::Variant;

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
    pub fn observe(&self, t: &Tables, pos: &Position, color: usize, out: &mut [u8]) {
        let nc = t.variant.num_colors();
        let gs = self.size();
        out.fill(0);
        for c in 0..nc {
            let plane = (c + nc - color) % nc;
            for cell in pos.cells[c].iter() {
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
    },
}

/// A batch of games of one variant.
#[derive(Clone, Debug)]
pub struct Batch {
    /// The games.
    pub games: Vec<Position>,
}

impl Batch {
    /// `n` games at the start.
    pub fn new(t: &Tables, n: usize) -> Batch {
        Batch {
            games: vec![Position::start(t); n],
        }
    }

    /// Checks every action first (so a bad one changes nothing), then plays them; finished games
    /// ignore their action. Returns which games ended in this step.
    pub fn step(
        t: &Tables,
        games: &mut [Position],
        actions: &[i64],
        ended: &mut [bool],
    ) -> Result<(), StepError> {
        for (g, (pos, &a)) in games.iter().zip(actions).enumerate() {
            if pos.is_game_over() {
                continue;
            }
            if a < 0 || a as usize >= t.num_placements() || !pos.is_legal(t, a as u32) {
                return Err(StepError::Illegal { game: g, action: a });
            }
        }
        for ((pos, &a), e) in games.iter_mut().zip(actions).zip(ended.iter_mut()) {
            *e = false;
            if !pos.is_game_over() {
                pos.play(t, a as u32);
                *e = pos.is_game_over();
            }
        }
        Ok(())
    }

    /// [`Batch::write`] on `threads` threads, each writing the rows of a run of games.
    pub fn write_on_threads(
        t: &Tables,
        grid: &Grid,
        games: &[Position],
        ended: &[bool],
        out: Outputs<'_>,
        threads: usize,
    ) {
        let chunk = games.len().div_ceil(threads.max(1)).max(1);
        if chunk >= games.len() {
            Batch::write(t, grid, games, ended, out, &mut Vec::with_capacity(4096));
            return;
        }
        std::thread::scope(|s| {
            let mut rest = out;
            for (games, ended) in games.chunks(chunk).zip(ended.chunks(chunk)) {
                let (part, others) = rest.split_first(games.len(), t, grid);
                rest = others;
                s.spawn(move || {
                    Batch::write(t, grid, games, ended, part, &mut Vec::with_capacity(4096))
                });
            }
        });
    }

    /// Writes the outputs of `games` (the slices are those games' rows). `ended[g]` says the
    /// game ended in the step just taken, so its rewards are due.
    pub fn write(
        t: &Tables,
        grid: &Grid,
        games: &[Position],
        ended: &[bool],
        out: Outputs<'_>,
        buf: &mut Vec<u32>,
    ) {
        let nc = t.variant.num_colors();
        let np = t.variant.num_players();
        let na = t.num_placements();
        let gs = grid.size();
        for (g, pos) in games.iter().enumerate() {
            let obs = &mut out.observation[g * nc * gs..(g + 1) * nc * gs];
            obs.fill(0);
            let mover = if pos.to_move == NO_COLOR {
                0
            } else {
                pos.to_move as usize
            };
            for c in 0..nc {
                let plane = (c + nc - mover) % nc;
                for cell in pos.cells[c].iter() {
                    obs[plane * gs + grid.index[cell]] = 1;
                }
            }
            let mask = &mut out.legal_action_mask[g * na..(g + 1) * na];
            mask.fill(false);
            buf.clear();
            pos.legal_moves_into(t, buf);
            for &id in buf.iter() {
                mask[id as usize] = true;
            }
            let rewards = &mut out.rewards[g * np..(g + 1) * np];
            rewards.fill(0.0);
            if ended[g] {
                rewards.copy_from_slice(&score::rewards(t, pos));
            }
            if pos.is_game_over() {
                out.current_player[g] = -1;
                out.current_color[g] = -1;
            } else {
                let c = pos.to_move as usize;
                out.current_color[g] = c as i32;
                out.current_player[g] = t.variant.player_of(c, pos.placed[c] as usize) as i32;
            }
            out.terminated[g] = pos.is_game_over();
        }
    }
}
