//! Move text in Pentobi's notation: cells separated by commas, e.g. `e10,d11,e11`.

use crate::geometry::Geometry;
use crate::table::Tables;

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
        /// The cell's name.
        text: String,
    },
    /// The cells form no piece of the variant.
    NoPiece {
        /// The canonical text of the cells.
        cells: String,
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
            MoveTextError::Repeated { text } => write!(f, "cell {text} is named twice"),
            MoveTextError::NoPiece { cells } => {
                write!(f, "cells {cells} do not form a piece of this variant")
            }
        }
    }
}

impl std::error::Error for MoveTextError {}

/// The canonical text of a placement: cells sorted by row, then column, lower case (on cube
/// boards by level, row, column: `a1@1,b1@1,b1@2`).
pub fn move_text(t: &Tables, id: u32) -> String {
    cells_text(t, t.placements[id as usize].cells())
}

/// Canonical text of a set of cells.
pub fn cells_text(t: &Tables, cells: &[u16]) -> String {
    let v = &t.variant;
    let mut sorted: Vec<u16> = cells.to_vec();
    sorted.sort_by_key(|&c| {
        let [x, y, z] = v.cells[c as usize];
        (z, y, x)
    });
    sorted
        .iter()
        .map(|&c| v.cell_name(c as usize))
        .collect::<Vec<_>>()
        .join(",")
}

/// Parses move text (any cell order, any case) into a placement id.
pub fn parse_move(t: &Tables, text: &str) -> Result<u32, MoveTextError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(MoveTextError::Empty);
    }
    let mut cells: Vec<u16> = Vec::new();
    for (index, item) in text.split(',').enumerate() {
        let item = item.trim();
        let Some(coord) = t.variant.cell_coord(item) else {
            let text = item.to_string();
            return Err(match t.variant.geometry {
                Geometry::Cube => MoveTextError::BadCube { index, text },
                _ => MoveTextError::BadCell { index, text },
            });
        };
        let cell = t.variant.cell_at(coord).ok_or_else(|| {
            let text = item.to_ascii_lowercase();
            match t.variant.limit_over(coord) {
                Some(limit) if coord[2] >= 0 => MoveTextError::AboveLimit { index, text, limit },
                _ => MoveTextError::OffBoard { index, text },
            }
        })?;
        if cells.contains(&(cell as u16)) {
            return Err(MoveTextError::Repeated {
                text: item.to_ascii_lowercase(),
            });
        }
        cells.push(cell as u16);
    }
    let canonical = cells_text(t, &cells);
    cells.sort_unstable();
    t.placement_of_cells(&cells)
        .ok_or(MoveTextError::NoPiece { cells: canonical })
}
