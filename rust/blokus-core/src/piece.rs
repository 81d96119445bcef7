//! Piece shapes: the standard sets of each geometry, read from data files.

use crate::geometry::{Coord, Geometry};

/// A free piece: a name and its cells in one orientation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Pentobi's name of the piece (`"1"`, `"I5"`, `"Z4"`, ...).
    pub name: String,
    /// The cells, in the geometry's coordinates.
    pub cells: Vec<Coord>,
}

const SQUARE_PIECES: &str = include_str!("../data/pieces_square.txt");

/// The standard pieces of a geometry, in their fixed order.
pub fn standard_shapes(geometry: Geometry) -> Vec<Shape> {
    match geometry {
        Geometry::Square => parse_art(SQUARE_PIECES),
    }
}

/// Reads `piece NAME` blocks of rows drawn top to bottom with `X` for a cell.
fn parse_art(text: &str) -> Vec<Shape> {
    let mut shapes = Vec::new();
    let mut name: Option<String> = None;
    let mut rows: Vec<&str> = Vec::new();
    let flush = |name: &mut Option<String>, rows: &mut Vec<&str>, shapes: &mut Vec<Shape>| {
        if let Some(n) = name.take() {
            let height = rows.len() as i32;
            let mut cells = Vec::new();
            for (r, row) in rows.iter().enumerate() {
                for (x, ch) in row.chars().enumerate() {
                    if ch == 'X' {
                        cells.push([x as i32, height - 1 - r as i32, 0]);
                    }
                }
            }
            shapes.push(Shape { name: n, cells });
        }
        rows.clear();
    };
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(n) = line.strip_prefix("piece ") {
            flush(&mut name, &mut rows, &mut shapes);
            name = Some(n.trim().to_string());
        } else {
            rows.push(line);
        }
    }
    flush(&mut name, &mut rows, &mut shapes);
    shapes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_set_is_the_21_polyominoes_with_91_orientations() {
        let shapes = standard_shapes(Geometry::Square);
        assert_eq!(shapes.len(), 21);
        let sizes: Vec<usize> = shapes.iter().map(|s| s.cells.len()).collect();
        assert_eq!(sizes.iter().sum::<usize>(), 89);
        for n in 1..=5 {
            let expected = [0, 1, 1, 2, 5, 12][n];
            assert_eq!(
                sizes.iter().filter(|&&s| s == n).count(),
                expected,
                "size {n}"
            );
        }
        let orientations: usize = shapes
            .iter()
            .map(|s| Geometry::Square.orientations(&s.cells).len())
            .sum();
        assert_eq!(orientations, 91);
        // No two pieces are the same free shape.
        let canon: Vec<Vec<Vec<Coord>>> = shapes
            .iter()
            .map(|s| Geometry::Square.orientations(&s.cells))
            .collect();
        for i in 0..canon.len() {
            for j in 0..i {
                assert!(
                    !canon[i].contains(&canon[j][0]),
                    "{} and {}",
                    shapes[i].name,
                    shapes[j].name
                );
            }
        }
    }
}
