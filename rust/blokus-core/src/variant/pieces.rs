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

const SQUARE_PIECES: &str = include_str!("../../data/pieces_square.txt");
const TRIANGLE_PIECES: &str = include_str!("../../data/pieces_triangle.txt");
const CUBE_PIECES: &str = include_str!("../../data/pieces_cube.txt");

/// The standard pieces of a geometry, in their fixed order.
pub fn standard_shapes(geometry: Geometry) -> Vec<Shape> {
    match geometry {
        Geometry::Square => parse_art(SQUARE_PIECES)
            .into_iter()
            .map(|(name, cells)| Shape {
                name,
                cells: cells.into_iter().map(|(c, _)| c).collect(),
            })
            .collect(),
        Geometry::Triangle { .. } => parse_art(TRIANGLE_PIECES)
            .into_iter()
            .map(|(name, cells)| Shape {
                cells: place_triangles(geometry, &name, &cells),
                name,
            })
            .collect(),
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

/// Shifts a drawn polyiamond by a column if needed so that every `^` lands on an up triangle of
/// the geometry and every `v` on a down one.
fn place_triangles(geometry: Geometry, name: &str, cells: &[(Coord, char)]) -> Vec<Coord> {
    let drawn_up = |ch: char| ch == '^';
    let shift = match cells.first() {
        Some(&(c, ch)) if geometry.points_up(c) != Some(drawn_up(ch)) => 1,
        _ => 0,
    };
    cells
        .iter()
        .map(|&([x, y, z], ch)| {
            let c = [x + shift, y, z];
            assert_eq!(
                geometry.points_up(c),
                Some(drawn_up(ch)),
                "piece {name}: triangles must alternate along rows and columns"
            );
            c
        })
        .collect()
}

/// Reads `piece NAME` blocks of rows drawn top to bottom, `.` for no cell and any other
/// character for a cell (kept with the cell).
fn parse_art(text: &str) -> Vec<(String, Vec<(Coord, char)>)> {
    let mut shapes = Vec::new();
    let mut name: Option<String> = None;
    let mut rows: Vec<&str> = Vec::new();
    let flush = |name: &mut Option<String>,
                 rows: &mut Vec<&str>,
                 shapes: &mut Vec<(String, Vec<(Coord, char)>)>| {
        if let Some(n) = name.take() {
            let height = rows.len() as i32;
            let mut cells = Vec::new();
            for (r, row) in rows.iter().enumerate() {
                for (x, ch) in row.chars().enumerate() {
                    if ch != '.' {
                        cells.push(([x as i32, height - 1 - r as i32, 0], ch));
                    }
                }
            }
            shapes.push((n, cells));
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

    /// Checks a standard set: pieces per size, cells, fixed orientations, no free shape twice,
    /// every piece connected through edges.
    fn check_set(geometry: Geometry, per_size: &[usize], cells: usize, orientations: usize) {
        let shapes = standard_shapes(geometry);
        assert_eq!(shapes.len(), per_size.iter().sum::<usize>());
        let sizes: Vec<usize> = shapes.iter().map(|s| s.cells.len()).collect();
        assert_eq!(sizes.iter().sum::<usize>(), cells);
        for (n, &expected) in per_size.iter().enumerate() {
            let n = n + 1;
            let count = sizes.iter().filter(|&&s| s == n).count();
            assert_eq!(count, expected, "size {n}");
        }
        let canon: Vec<Vec<Vec<Coord>>> = shapes
            .iter()
            .map(|s| geometry.orientations(&s.cells))
            .collect();
        assert_eq!(canon.iter().map(Vec::len).sum::<usize>(), orientations);
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
        for s in &shapes {
            let mut reached = vec![s.cells[0]];
            let mut i = 0;
            while i < reached.len() {
                for n in geometry.edge_neighbours(reached[i]) {
                    if s.cells.contains(&n) && !reached.contains(&n) {
                        reached.push(n);
                    }
                }
                i += 1;
            }
            assert_eq!(reached.len(), s.cells.len(), "{} is not connected", s.name);
        }
    }

    #[test]
    fn square_set_is_the_21_polyominoes_with_91_orientations() {
        check_set(Geometry::Square, &[1, 1, 2, 5, 12], 89, 91);
    }

    #[test]
    fn triangle_set_is_the_22_polyiamonds_with_155_orientations() {
        for odd_up in [false, true] {
            check_set(
                Geometry::Triangle { odd_up },
                &[1, 1, 1, 3, 4, 12],
                110,
                155,
            );
        }
        let names: Vec<String> = standard_shapes(Geometry::Triangle { odd_up: true })
            .into_iter()
            .map(|s| s.name)
            .collect();
        assert_eq!(
            names.join(" "),
            "1 2 I3 I4 C4 A4 I5 L5 C5 P5 F A6 G I6 L6 O P6 S V W X Y"
        );
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
