//! Move text in Pentobi's notation (docs/RULES.md, "Move text"): cells separated by commas, e.g.
//! `e10,d11,e11`; in Blokus 3D each cube with its level, `a1@1,b1@1,b1@2`.
//!
//! ```
//! use blokus_core::tables;
//! let duo = tables("duo").unwrap();
//! let id = duo.parse_move("E12,d11,e11,f11,e10").unwrap(); // any order, any case
//! assert_eq!(duo.move_text(id), "e10,d11,e11,f11,e12"); // by row, then column
//! assert!(duo.parse_move("e10,e12").is_err()); // two cells that form no piece
//! ```

use crate::geometry::Geometry;
use crate::placement::MAX_PIECE_CELLS;
use crate::tables::Tables;

pub use crate::geometry::column_name;

/// The most characters of the user's text an error quotes.
const QUOTED: usize = 24;

/// Why a move text names no placement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveTextError {
    /// The text is empty.
    Empty,
    /// An item is not a cell name.
    BadCell {
        /// 0-based item index.
        index: usize,
        /// The item.
        text: String,
    },
    /// An item is not a cube like `a1@2` (cube boards).
    BadCube {
        /// 0-based item index.
        index: usize,
        /// The item.
        text: String,
    },
    /// A cube lies above its column's height limit (cube boards).
    AboveLimit {
        /// 0-based item index.
        index: usize,
        /// The item.
        text: String,
        /// The column's highest level.
        limit: u8,
    },
    /// A cell name lies off the board.
    OffBoard {
        /// 0-based item index.
        index: usize,
        /// The item.
        text: String,
    },
    /// A cell is named twice.
    Repeated {
        /// 0-based index of the item that names it again.
        index: usize,
        /// The cell's name.
        text: String,
    },
    /// The cells form no piece of the variant.
    NoPiece {
        /// The canonical text of the cells.
        cells: String,
    },
    /// More cells than any piece has.
    TooManyCells {
        /// The most cells a piece has.
        most: usize,
    },
}

impl std::fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveTextError::Empty => write!(f, "empty move text"),
            MoveTextError::BadCell { index, text } => {
                write!(
                    f,
                    "item {} ({text:?}) is not a cell name like e10",
                    index + 1
                )
            }
            MoveTextError::BadCube { index, text } => {
                write!(
                    f,
                    "item {} ({text:?}) is not a cube like a1@2 (column, row, @, level)",
                    index + 1
                )
            }
            MoveTextError::AboveLimit { index, text, limit } => {
                write!(
                    f,
                    "item {} ({text}) is above the height limit of its column (level {limit})",
                    index + 1
                )
            }
            MoveTextError::OffBoard { index, text } => {
                write!(f, "item {} ({text}) is not a cell of this board", index + 1)
            }
            MoveTextError::Repeated { text, .. } => write!(f, "cell {text} is named twice"),
            MoveTextError::NoPiece { cells } => {
                write!(f, "cells {cells} do not form a piece of this variant")
            }
            MoveTextError::TooManyCells { most } => {
                write!(f, "more than {most} cells: no piece has that many")
            }
        }
    }
}

impl MoveTextError {
    /// The 0-based index of the item (a comma-separated cell) at fault, where one is.
    pub fn index(&self) -> Option<usize> {
        match self {
            MoveTextError::BadCell { index, .. }
            | MoveTextError::BadCube { index, .. }
            | MoveTextError::AboveLimit { index, .. }
            | MoveTextError::OffBoard { index, .. }
            | MoveTextError::Repeated { index, .. } => Some(*index),
            MoveTextError::TooManyCells { most } => Some(*most),
            MoveTextError::Empty | MoveTextError::NoPiece { .. } => None,
        }
    }
}

impl std::error::Error for MoveTextError {}

/// At most [`QUOTED`] characters of `text`, marked when cut.
fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

impl Tables {
    /// The canonical text of placement `id` (which must exist): cells sorted by row, then
    /// column, lower case (on cube boards by level, row, column: `a1@1,b1@1,b1@2`).
    pub fn move_text(&self, id: u32) -> String {
        self.cells_text(self.get(id).cells())
    }

    /// Canonical text of a set of cells.
    pub fn cells_text(&self, cells: &[u16]) -> String {
        let mut sorted: Vec<u16> = cells.to_vec();
        self.variant.sort_cells(&mut sorted);
        sorted
            .iter()
            .map(|&c| self.variant.cell_name(usize::from(c)))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The placement move text names (any cell order, any case).
    pub fn parse_move(&self, text: &str) -> Result<u32, MoveTextError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(MoveTextError::Empty);
        }
        let v = &self.variant;
        let mut cells: Vec<u16> = Vec::new();
        for (index, item) in text.split(',').enumerate() {
            if index == MAX_PIECE_CELLS {
                return Err(MoveTextError::TooManyCells {
                    most: MAX_PIECE_CELLS,
                });
            }
            let item = item.trim();
            let Some(coord) = v.cell_coord(item) else {
                let text = quoted(item);
                return Err(match v.geometry {
                    Geometry::Cube => MoveTextError::BadCube { index, text },
                    _ => MoveTextError::BadCell { index, text },
                });
            };
            let cell = v.cell_at(coord).ok_or_else(|| {
                let text = item.to_ascii_lowercase();
                match v.limit_over(coord) {
                    Some(limit) if coord[2] >= 0 => {
                        MoveTextError::AboveLimit { index, text, limit }
                    }
                    _ => MoveTextError::OffBoard { index, text },
                }
            })?;
            if cells.contains(&(cell as u16)) {
                return Err(MoveTextError::Repeated {
                    index,
                    text: item.to_ascii_lowercase(),
                });
            }
            cells.push(cell as u16);
        }
        let canonical = self.cells_text(&cells);
        cells.sort_unstable();
        self.placement_of_cells(&cells)
            .ok_or(MoveTextError::NoPiece { cells: canonical })
    }
}
