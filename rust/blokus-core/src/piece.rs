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
const CUBE_PIECES: &str = include_str!("../data/pieces_cube.txt");

/// The standard pieces of a geometry, in their fixed order.
pub fn standard_shapes(geometry: Geometry) -> Vec<Shape> {
    match geometry {
        Geometry::Square => parse_art(SQUARE_PIECES),
        Geometry::Cube => parse_coords(CUBE_PIECES),
    }
}

/// Reads `piece NAME` lines each followed by one line of cells as `x,y,z` separated by spaces.
fn parse_coords(text: &str) -> Vec<Shape> {
    let mut shapes: Vec<Shape> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(n) = line.strip_prefix("piece ") {
            shapes.push(Shape {
                name: n.trim().to_string(),
                cells: Vec::new(),
            });
            continue;
        }
        let shape = shapes.last_mut().expect("cells follow a piece line");
        for item in line.split_whitespace() {
            let v: Vec<i32> = item
                .split(',')
                .map(|n| n.parse().expect("a coordinate is an integer"))
                .collect();
            shape.cells.push([v[0], v[1], v[2]]);
        }
    }
    shapes
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

    #[test]
    fn cube_set_is_the_11_polycubes_of_2_to_4_with_104_orientations() {
        let g = Geometry::Cube;
        let shapes = standard_shapes(g);
        let names: Vec<&str> = shapes.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "I2",
                "I3",
                "V3",
                "I4",
                "L4",
                "T4",
                "O4",
                "S4",
                "tripod",
                "screw-right",
                "screw-left"
            ]
        );
        assert_eq!(shapes.iter().map(|s| s.cells.len()).sum::<usize>(), 40);
        let counts: Vec<usize> = shapes
            .iter()
            .map(|s| g.orientations(&s.cells).len())
            .collect();
        assert_eq!(counts, [3, 3, 12, 3, 24, 12, 3, 12, 8, 12, 12]);
        assert_eq!(counts.iter().sum::<usize>(), 104);
        // Each piece is connected through faces, and no two are the same up to rotation (the
        // screws are mirror images, which rotations cannot join).
        for s in &shapes {
            let mut seen = vec![s.cells[0]];
            let mut i = 0;
            while i < seen.len() {
                for n in g.edge_neighbours(seen[i]) {
                    if s.cells.contains(&n) && !seen.contains(&n) {
                        seen.push(n);
                    }
                }
                i += 1;
            }
            assert_eq!(seen.len(), s.cells.len(), "{} is connected", s.name);
        }
        for i in 0..shapes.len() {
            for j in 0..i {
                let a = g.orientations(&shapes[i].cells);
                assert!(!a.contains(&g.normalize(&shapes[j].cells)), "{}", names[i]);
            }
        }
    }
}
