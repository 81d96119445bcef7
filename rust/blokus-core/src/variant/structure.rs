//! Blokus 3D structures as data: a footprint of columns, each with a height limit.
//!
//! A structure is drawn as text, as in docs/RULES.md: one line per row, the back row first and row 1
//! last, one character per column from column `a`: a digit `L` (1 to 9) is a column whose cubes
//! may reach level `L` with 4 players, `.` is no column. With `p` players every limit becomes
//! `max(1, L - (4 - p))`.
//!
//! ```
//! use blokus_core::Structure;
//! let rows = ["66......", "66666666"].map(String::from);
//! let s = Structure::parse(&rows, 2).unwrap();
//! assert_eq!(s.columns.len(), 10);
//! assert_eq!(s.limit_at(0, 0), Some(4)); // a1: 6 with 4 players, 4 with 2
//! assert_eq!(s.limit_at(2, 1), None); // c2 is no column
//! ```

use super::SpecError;
use crate::bits::MAX_CELLS;
use crate::geometry::{column_name, Coord};

/// The number of players the drawn limits are for.
pub const DRAWN_FOR_PLAYERS: usize = 4;

/// A validated structure with its limits for a number of players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Structure {
    /// The picture as given (limits for `DRAWN_FOR_PLAYERS`, four, players).
    pub rows: Vec<String>,
    /// The number of players the limits below are for.
    pub players: usize,
    /// The columns as `[x, y]` (`y` = row - 1), row 1 first, then by column: the order of the
    /// cells of each layer.
    pub columns: Vec<[i32; 2]>,
    /// The highest level (1-based) of each column, in the order of `columns`.
    pub limits: Vec<u8>,
}

fn err<T>(field: &str, message: String) -> Result<T, SpecError> {
    Err(SpecError::new(field, message))
}

impl Structure {
    /// Reads a picture and lowers its limits for `players` players (1 to 4).
    pub fn parse(rows: &[String], players: usize) -> Result<Structure, SpecError> {
        if !(1..=DRAWN_FOR_PLAYERS).contains(&players) {
            return err(
                "board.limits_for_players",
                format!("{players}, must be 1 to {DRAWN_FOR_PLAYERS}"),
            );
        }
        if rows.is_empty() {
            return err("board.structure", "no rows".into());
        }
        if rows.len() > 64 {
            return err(
                "board.structure",
                format!("{} rows, at most 64", rows.len()),
            );
        }
        let width = rows[0].chars().count();
        if width == 0 {
            return err("board.structure", "the first line is empty".into());
        }
        if width > 64 {
            return err("board.structure", format!("{width} columns, at most 64"));
        }
        let n = rows.len();
        let mut drawn = vec![vec![0u8; width]; n];
        for (line, text) in rows.iter().enumerate() {
            let row = n - line;
            let len = text.chars().count();
            if len != width {
                return err(
                    "board.structure",
                    format!(
                        "line {} (row {row}) has {len} characters, the first line has {width}; \
                         every line must be as wide",
                        line + 1
                    ),
                );
            }
            for (x, ch) in text.chars().enumerate() {
                drawn[n - 1 - line][x] = match ch {
                    '.' => 0,
                    '1'..='9' => ch as u8 - b'0',
                    '0' => {
                        return err(
                            "board.structure",
                            format!(
                                "{}{row} has height 0; heights are 1 to 9, '.' for no column",
                                column_name(x as i32)
                            ),
                        )
                    }
                    _ => {
                        return err(
                            "board.structure",
                            format!(
                                "{}{row} is {ch:?}, not a height 1 to 9 or '.'",
                                column_name(x as i32)
                            ),
                        )
                    }
                };
            }
        }
        let lower = (DRAWN_FOR_PLAYERS - players) as i32;
        let mut columns = Vec::new();
        let mut limits = Vec::new();
        for (y, line) in drawn.iter().enumerate() {
            for (x, &l) in line.iter().enumerate() {
                if l > 0 {
                    columns.push([x as i32, y as i32]);
                    limits.push((i32::from(l) - lower).max(1) as u8);
                }
            }
        }
        if columns.is_empty() {
            return err(
                "board.structure",
                "no column (every character is '.')".into(),
            );
        }
        let cubes: usize = limits.iter().map(|&l| usize::from(l)).sum();
        if cubes > MAX_CELLS {
            return err(
                "board.structure",
                format!("holds {cubes} cubes with {players} players, at most {MAX_CELLS}"),
            );
        }
        Ok(Structure {
            rows: rows.to_vec(),
            players,
            columns,
            limits,
        })
    }

    /// The limit of the column at `x`, `y` (`y` = row - 1), if there is a column.
    pub fn limit_at(&self, x: i32, y: i32) -> Option<u8> {
        self.columns
            .iter()
            .position(|&c| c == [x, y])
            .map(|i| self.limits[i])
    }

    /// The highest limit.
    pub fn max_level(&self) -> u8 {
        self.limits.iter().copied().max().unwrap_or(0)
    }

    /// The cells, layer by layer from the ground, each layer in column order: cell `i` of the
    /// ground layer is column `i`.
    pub fn cells(&self) -> Vec<Coord> {
        (0..self.max_level())
            .flat_map(|z| {
                self.columns
                    .iter()
                    .zip(&self.limits)
                    .filter(move |(_, &l)| l > z)
                    .map(move |(&[x, y], _)| [x, y, i32::from(z)])
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(rows: &[&str], players: usize) -> Result<Structure, SpecError> {
        let rows: Vec<String> = rows.iter().map(|r| r.to_string()).collect();
        Structure::parse(&rows, players)
    }

    #[test]
    fn limits_drop_one_level_per_missing_player_down_to_one() {
        let s = parse(&["123", "459"], 2).unwrap();
        // Row 1 is the last line.
        assert_eq!(s.columns, [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1]]);
        assert_eq!(s.limits, [2, 3, 7, 1, 1, 1]);
        let cells = s.cells();
        assert_eq!(cells.len(), 15);
        let ground: Vec<Coord> = s.columns.iter().map(|&[x, y]| [x, y, 0]).collect();
        assert_eq!(cells[..6], ground[..]);
    }

    #[test]
    fn bad_structures_are_rejected_with_the_reason() {
        let cases: &[(&[&str], &str)] = &[
            (&[], "no rows"),
            (&[""], "first line is empty"),
            (&["...", "..."], "no column"),
            (&["88", "8"], "line 2 (row 1) has 1 characters"),
            (&["80"], "b1 has height 0"),
            (&["8x"], "b1 is 'x'"),
            (&["8-1"], "b1 is '-'"),
            (&["99999999"; 8], "holds 576 cubes"),
        ];
        for (rows, msg) in cases {
            let e = parse(rows, 4).unwrap_err();
            assert!(e.to_string().contains(msg), "{rows:?}: {e}");
        }
        assert!(parse(&["8"], 0)
            .unwrap_err()
            .to_string()
            .contains("limits_for_players"));
        assert!(parse(&["8"], 5).is_err());
    }
}
