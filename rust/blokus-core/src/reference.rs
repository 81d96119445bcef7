//! A deliberately plain legal-move generator and scorer, written from docs/RULES.md with cell
//! coordinates only: no bitsets, no engine state (`forbidden`, `attach`, `surface`, `contact`),
//! and neighbours from the formulas of the rules rather than the engine's geometry. It reads of a
//! position only what the rules speak of: which colour covers each cell, the pieces each colour
//! has in hand, and whether it has placed a piece yet. It is slow (every placement is tested on
//! every call) and it is the yardstick the fast generators are tested against, from Rust and
//! from Python. Compiled with the `reference` feature (and in the crate's own tests).
//!
//! ```
//! use blokus_core::{reference, tables, Board};
//! let mut board = Board::new(tables("duo").unwrap());
//! board.play_text("e10,d11,e11,f11,e12").unwrap();
//! let mut ours = board.legal_moves();
//! ours.sort_unstable();
//! assert_eq!(reference::legal_moves(board.tables(), board.position(), 1), ours);
//! ```

use crate::geometry::{Coord, Geometry};
use crate::placement::MAX_PIECE_CELLS;
use crate::position::Position;
use crate::tables::Tables;
use crate::variant::{Scoring, Variant};

/// The board as the rules see it: the colour on each coordinate (`None` for an empty cell and
/// for a coordinate off the board), on a grid with a margin wider than any neighbour's offset.
struct Cells<'a> {
    v: &'a Variant,
    /// `x + y` of up triangles, modulo 2.
    up_parity: i32,
    min: Coord,
    size: Coord,
    color: Vec<Option<usize>>,
}

/// How far a neighbour may lie from a cell in any coordinate (two columns on triangles).
const MARGIN: i32 = 2;

impl<'a> Cells<'a> {
    fn of(t: &'a Tables, pos: &Position) -> Cells<'a> {
        let v = &t.variant;
        let low = |k: usize| v.cells.iter().map(|c| c[k]).min().unwrap_or(0) - MARGIN;
        let high = |k: usize| v.cells.iter().map(|c| c[k]).max().unwrap_or(0) + MARGIN;
        let min = [low(0), low(1), low(2)];
        let size = [
            high(0) - min[0] + 1,
            high(1) - min[1] + 1,
            high(2) - min[2] + 1,
        ];
        let top = v.cells.iter().map(|c| c[1]).max().unwrap_or(0);
        let left = v
            .cells
            .iter()
            .filter(|c| c[1] == top)
            .map(|c| c[0])
            .min()
            .unwrap_or(0);
        let mut cells = Cells {
            v,
            up_parity: (left + top).rem_euclid(2),
            min,
            size,
            color: vec![None; (size[0] * size[1] * size[2]) as usize],
        };
        for (i, &c) in v.cells.iter().enumerate() {
            let at = cells.index(c).expect("a cell lies inside its board's grid");
            cells.color[at] = pos.color_at(i);
        }
        cells
    }

    fn index(&self, c: Coord) -> Option<usize> {
        let mut at = 0;
        for k in (0..3).rev() {
            let d = c[k] - self.min[k];
            if !(0..self.size[k]).contains(&d) {
                return None;
            }
            at = at * self.size[k] + d;
        }
        Some(at as usize)
    }

    fn color(&self, c: Coord) -> Option<usize> {
        self.index(c).and_then(|at| self.color[at])
    }

    fn is(&self, c: Coord, color: usize) -> bool {
        self.color(c) == Some(color)
    }

    fn occupied(&self, c: Coord) -> bool {
        self.color(c).is_some()
    }
}

/// Up to nine neighbouring coordinates.
struct Around {
    list: [Coord; 9],
    len: usize,
}

impl Around {
    fn of(cells: &[Coord]) -> Around {
        let mut list = [[0; 3]; 9];
        list[..cells.len()].copy_from_slice(cells);
        Around {
            list,
            len: cells.len(),
        }
    }

    fn iter(&self) -> impl Iterator<Item = &Coord> {
        self.list[..self.len].iter()
    }
}

impl Cells<'_> {
    /// Whether a triangle points up: with `r` the 1-based row, `x + r` even on the board of
    /// edge 9 (Trigon), odd on the board of edge 8 (Trigon for three); the parity follows the
    /// leftmost cell of the top row, which points up on every hexagon.
    fn points_up(&self, [x, y, _]: Coord) -> bool {
        (x + y).rem_euclid(2) == self.up_parity
    }

    /// Cells sharing an edge (a face in Blokus 3D) with `c`, on the board or not.
    fn edge_neighbours(&self, [x, y, z]: Coord) -> Around {
        match self.v.geometry {
            Geometry::Square => {
                Around::of(&[[x + 1, y, z], [x - 1, y, z], [x, y + 1, z], [x, y - 1, z]])
            }
            // An up triangle shares edges with its left and right neighbours and the cell
            // below; a down triangle with its left and right neighbours and the cell above.
            Geometry::Triangle { .. } => {
                let dy = if self.points_up([x, y, z]) { -1 } else { 1 };
                Around::of(&[[x - 1, y, z], [x + 1, y, z], [x, y + dy, z]])
            }
            Geometry::Cube => Around::of(&[
                [x + 1, y, z],
                [x - 1, y, z],
                [x, y + 1, z],
                [x, y - 1, z],
                [x, y, z + 1],
                [x, y, z - 1],
            ]),
        }
    }

    /// Cells touching `c` at a corner only, on flat boards.
    fn corner_neighbours(&self, [x, y, z]: Coord) -> Around {
        match self.v.geometry {
            Geometry::Square => Around::of(&[
                [x + 1, y + 1, z],
                [x - 1, y + 1, z],
                [x + 1, y - 1, z],
                [x - 1, y - 1, z],
            ]),
            // Of an up triangle with row r: (x±2, r), (x±1, r-1), (x±2, r-1), (x±1, r+1),
            // (x, r+1); a down triangle mirrors that vertically.
            Geometry::Triangle { .. } => {
                let d = if self.points_up([x, y, z]) { -1 } else { 1 };
                Around::of(&[
                    [x - 2, y, z],
                    [x + 2, y, z],
                    [x - 1, y + d, z],
                    [x + 1, y + d, z],
                    [x - 2, y + d, z],
                    [x + 2, y + d, z],
                    [x - 1, y - d, z],
                    [x + 1, y - d, z],
                    [x, y - d, z],
                ])
            }
            Geometry::Cube => Around::of(&[]),
        }
    }
}

/// The legal placements of `color` in `pos` (whether or not it is its turn), sorted by id.
pub fn legal_moves(t: &Tables, pos: &Position, color: usize) -> Vec<u32> {
    let v = &t.variant;
    let cells = Cells::of(t, pos);
    let first = pos.placed(color) == 0;
    (0..t.num_placements() as u32)
        .filter(|&id| {
            let p = t.get(id);
            if pos.copies_left(color, p.piece()) == 0 {
                return false;
            }
            let mut buffer = [[0; 3]; MAX_PIECE_CELLS];
            let coords = &mut buffer[..p.cells().len()];
            for (x, &c) in coords.iter_mut().zip(p.cells()) {
                *x = v.cells[usize::from(c)];
            }
            let coords = &*coords;
            if coords.iter().any(|&c| cells.occupied(c)) {
                return false;
            }
            match v.geometry {
                Geometry::Cube => stacking_allows(&cells, coords, color, first),
                _ => corner_allows(&cells, coords, color, first),
            }
        })
        .collect()
}

/// Perft by the reference alone: the number of move sequences of length `depth` from `pos`,
/// each move listed by [`legal_moves`] for the colour to move, and the turn passed by the
/// rules of docs/RULES.md (the next colour not out that has a legal move by [`legal_moves`];
/// one without is out for good on flat boards and in Blokus 3D, unless the variant skips
/// blocked colours). Only the board's update after a move (which cells a colour covers, which
/// pieces it has left) is the engine's: nothing of its generator, turn order or `forbidden`/
/// `attach`/`surface` sets is used. It is slow: the tests confirm the engine's perft with it at
/// small depths.
///
/// ```
/// use blokus_core::{reference, tables, Board};
/// let board = Board::new(tables("duo").unwrap());
/// assert_eq!(reference::perft(board.tables(), board.position(), 2), board.perft(2));
/// ```
pub fn perft(t: &Tables, pos: &Position, depth: u32) -> u64 {
    let n = t.variant.num_colors();
    let out = (0..n)
        .filter(|&c| pos.is_out(c))
        .fold(0u8, |o, c| o | 1 << c);
    match pos.turn() {
        None => 0,
        Some(c) => perft_from(t, pos, c, out, legal_moves(t, pos, c), depth),
    }
}

/// [`perft`] from `pos` with `color` to move, `out` the colours out and `moves` its legal
/// moves (by [`legal_moves`]).
fn perft_from(
    t: &Tables,
    pos: &Position,
    color: usize,
    out: u8,
    moves: Vec<u32>,
    depth: u32,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    let n = t.variant.num_colors();
    let knocks_out = t.variant.rules.knocks_out();
    let mut total = 0;
    for id in moves {
        let mut next = *pos;
        next.place(t, color, id);
        let mut out = out;
        // The next colour after `color` (itself last) that is not out and can move.
        for i in 1..=n {
            let d = (color + i) % n;
            if out & (1 << d) != 0 {
                continue;
            }
            let replies = legal_moves(t, &next, d);
            if !replies.is_empty() {
                total += perft_from(t, &next, d, out, replies, depth - 1);
                break;
            }
            if knocks_out {
                out |= 1 << d;
            }
        }
    }
    total
}

/// The corner rule for a piece on free cells `coords`.
fn corner_allows(cells: &Cells<'_>, coords: &[Coord], color: usize, first: bool) -> bool {
    let v = cells.v;
    let own_edge = coords
        .iter()
        .any(|&c| cells.edge_neighbours(c).iter().any(|&n| cells.is(n, color)));
    if own_edge {
        return false;
    }
    if first {
        let starts = &v.start_points[color];
        return coords
            .iter()
            .any(|&c| v.cell_at(c).is_some_and(|i| starts.contains(i)));
    }
    coords.iter().any(|&c| {
        cells
            .corner_neighbours(c)
            .iter()
            .any(|&n| cells.is(n, color))
    })
}

/// The stacking rule for a piece on free cells `coords`.
fn stacking_allows(cells: &Cells<'_>, coords: &[Coord], color: usize, first: bool) -> bool {
    let supported = coords.iter().all(|&[x, y, z]| {
        z == 0 || cells.occupied([x, y, z - 1]) || coords.contains(&[x, y, z - 1])
    });
    if !supported {
        return false;
    }
    let touches = |own: bool| {
        coords.iter().any(|&c| {
            cells
                .edge_neighbours(c)
                .iter()
                .filter(|n| !coords.contains(n))
                .any(|&n| match own {
                    true => cells.is(n, color),
                    false => cells.occupied(n),
                })
        })
    };
    match (first, color) {
        (true, 0) => true,
        (true, _) => touches(false) && coords.iter().any(|c| c[2] == 0),
        (false, _) => touches(true),
    }
}

/// Points of each colour: cells placed plus the bonus for placing every piece (more if the
/// last was the 1-cell piece), or with `Scoring::Basic` minus one per cell left in hand; in
/// Blokus 3D (whatever `scoring` says) the columns whose top cube is the colour's, minus one
/// per piece left.
pub fn points(t: &Tables, pos: &Position, scoring: Scoring) -> Vec<i32> {
    let v = &t.variant;
    let cells = Cells::of(t, pos);
    let per_color: i32 = v.pieces.iter().map(|p| i32::from(p.copies)).sum();
    (0..v.num_colors())
        .map(|color| {
            let left: Vec<i32> = v
                .pieces
                .iter()
                .enumerate()
                .map(|(p, _)| i32::from(pos.copies_left(color, p)))
                .collect();
            let pieces_left: i32 = left.iter().sum();
            if v.geometry == Geometry::Cube {
                let seen = columns_topped_by(&cells, color);
                return seen - pieces_left;
            }
            let placed = (0..v.num_cells())
                .filter(|&i| pos.color_at(i) == Some(color))
                .count() as i32;
            match scoring {
                Scoring::Basic => {
                    let in_hand: i32 = v
                        .pieces
                        .iter()
                        .zip(&left)
                        .map(|(p, &n)| p.cells.len() as i32 * n)
                        .sum();
                    -in_hand
                }
                Scoring::Advanced => {
                    let all_placed = pos.placed(color) as i32 == per_color;
                    let last_monomino = pos
                        .last_piece(color)
                        .is_some_and(|p| v.pieces[p].cells.len() == 1);
                    let bonus = match (all_placed, last_monomino && v.bonus_last_monomino > 0) {
                        (false, _) => 0,
                        (true, true) => v.bonus_last_monomino,
                        (true, false) => v.bonus_all_placed,
                    };
                    placed + bonus as i32
                }
            }
        })
        .collect()
}

/// Columns whose top cube (climbing from the ground while cells are covered) is `color`'s.
fn columns_topped_by(cells: &Cells<'_>, color: usize) -> i32 {
    let v = cells.v;
    let columns: Vec<Coord> = v.cells.iter().copied().filter(|c| c[2] == 0).collect();
    columns
        .iter()
        .filter(|&&[x, y, _]| {
            let mut z = 0;
            while cells.occupied([x, y, z + 1]) {
                z += 1;
            }
            cells.is([x, y, z], color)
        })
        .count() as i32
}
