//! The triangle lattice of Blokus Trigon, in Pentobi's coordinates (docs/RULES.md): one triangle per
//! column and row, neighbouring columns alternating up- and down-pointing triangles, and the
//! triangles of one column alternating too. Whether the cell at `(x, y)` points up depends on the
//! parity of `x + y` and on the board (`odd_up`).
//!
//! An up triangle shares edges with its left and right neighbours and with the cell below; a down
//! triangle with its left and right neighbours and the cell above.
//!
//! Symmetries are computed on the vertices of the lattice. With the basis `e1 = (1, 0)` and
//! `e2 = (1/2, √3/2)`, vertices have integer coordinates `(a, b)`, and a triangle is named by
//! the sum of its three vertices: `(3a + 1, 3b + 1)` for the up triangle with lower-left vertex
//! `(a, b)`, `(3a + 2, 3b + 2)` for the down triangle with upper-left vertex `(a, b + 1)`. The
//! twelve symmetries about a vertex (D6) are linear maps of that lattice, so they act on the
//! sums directly.

use super::Coord;

pub(super) const SYMMETRIES: usize = 12;

/// Whether the cell points up: `x + y` odd when `odd_up`, even otherwise.
pub(super) fn is_up(odd_up: bool, [x, y, _]: Coord) -> bool {
    (x + y).rem_euclid(2) == i32::from(odd_up)
}

/// The sum of the cell's three vertices in the lattice basis (see the module docs).
fn vertex_sum(odd_up: bool, c @ [x, y, _]: Coord) -> (i32, i32) {
    // Shifting the column makes `u + y` even exactly for up triangles, on either board.
    let u = x + i32::from(odd_up);
    if is_up(odd_up, c) {
        let a = (u - y).div_euclid(2);
        (3 * a + 1, 3 * y + 1)
    } else {
        let a = (u - y - 1).div_euclid(2);
        (3 * a + 2, 3 * y + 2)
    }
}

/// The cell whose vertices sum to `(sa, sb)`; the inverse of [`vertex_sum`].
fn from_vertex_sum(odd_up: bool, (sa, sb): (i32, i32), z: i32) -> Coord {
    let (y, u) = if sa.rem_euclid(3) == 1 {
        let (a, y) = ((sa - 1).div_euclid(3), (sb - 1).div_euclid(3));
        (y, 2 * a + y)
    } else {
        let (a, y) = ((sa - 2).div_euclid(3), (sb - 2).div_euclid(3));
        (y, 2 * a + y + 1)
    };
    [u - i32::from(odd_up), y, z]
}

/// Symmetry `s`: rotation by `s * 60°` for `s < 6`, else a reflection followed by rotation by
/// `(s - 6) * 60°`.
pub(super) fn transform(odd_up: bool, s: usize, c: Coord) -> Coord {
    let (mut sa, mut sb) = vertex_sum(odd_up, c);
    if s >= 6 {
        // Reflection in the line through e1: e2 -> e1 - e2.
        (sa, sb) = (sa + sb, -sb);
    }
    for _ in 0..s % 6 {
        // Rotation by 60°: e1 -> e2, e2 -> e2 - e1.
        (sa, sb) = (-sb, sa + sb);
    }
    from_vertex_sum(odd_up, (sa, sb), c[2])
}

/// Moves the lowest row to 0 and the leftmost column to 0, or to 1 where a shift by an odd
/// number of columns would turn up triangles into down ones; then sorts by row and column.
pub(super) fn normalize(shape: &[Coord]) -> Vec<Coord> {
    let min_x = shape.iter().map(|c| c[0]).min().unwrap_or(0);
    let min_y = shape.iter().map(|c| c[1]).min().unwrap_or(0);
    let dx = if (min_x + min_y).rem_euclid(2) == 0 {
        -min_x
    } else {
        1 - min_x
    };
    let mut out: Vec<Coord> = shape
        .iter()
        .map(|c| [c[0] + dx, c[1] - min_y, c[2]])
        .collect();
    out.sort_by_key(|c| (c[2], c[1], c[0]));
    out
}

/// A translation keeps every cell's direction only if it moves by an even `dx + dy`.
pub(super) fn translation(from: Coord, to: Coord) -> Option<Coord> {
    let d = [to[0] - from[0], to[1] - from[1], to[2] - from[2]];
    ((d[0] + d[1]).rem_euclid(2) == 0).then_some(d)
}

/// The cell across the horizontal edge: below an up triangle, above a down one.
fn vertical(odd_up: bool, c: Coord) -> i32 {
    if is_up(odd_up, c) {
        -1
    } else {
        1
    }
}

pub(super) fn edge_neighbours(odd_up: bool, c @ [x, y, z]: Coord) -> Vec<Coord> {
    let v = vertical(odd_up, c);
    vec![[x - 1, y, z], [x + 1, y, z], [x, y + v, z]]
}

pub(super) fn corner_neighbours(odd_up: bool, c @ [x, y, z]: Coord) -> Vec<Coord> {
    // docs/RULES.md for an up triangle (v = -1): (x±2, r), (x±1, r-1), (x±2, r-1), (x±1, r+1),
    // (x, r+1); a down triangle is the mirror image (v = +1).
    let v = vertical(odd_up, c);
    vec![
        [x - 2, y, z],
        [x + 2, y, z],
        [x - 1, y + v, z],
        [x + 1, y + v, z],
        [x - 2, y + v, z],
        [x + 2, y + v, z],
        [x - 1, y - v, z],
        [x + 1, y - v, z],
        [x, y - v, z],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// The lattice vertices of a cell, from its vertex sum.
    fn vertices(odd_up: bool, c: Coord) -> HashSet<(i32, i32)> {
        let (sa, sb) = vertex_sum(odd_up, c);
        if sa.rem_euclid(3) == 1 {
            let (a, b) = ((sa - 1) / 3, (sb - 1) / 3);
            [(a, b), (a + 1, b), (a, b + 1)].into()
        } else {
            let (a, b) = ((sa - 2) / 3, (sb - 2) / 3);
            [(a, b + 1), (a + 1, b + 1), (a + 1, b)].into()
        }
    }

    fn region() -> Vec<Coord> {
        (-6..6)
            .flat_map(|y| (-6..6).map(move |x| [x, y, 0]))
            .collect()
    }

    #[test]
    fn neighbours_are_the_cells_sharing_two_or_one_vertices() {
        for odd_up in [false, true] {
            for c in region() {
                let vc = vertices(odd_up, c);
                let mut edges = HashSet::new();
                let mut corners = HashSet::new();
                for dy in -3..=3 {
                    for dx in -4..=4 {
                        let d = [c[0] + dx, c[1] + dy, 0];
                        if d == c {
                            continue;
                        }
                        match vertices(odd_up, d).intersection(&vc).count() {
                            2 => edges.insert(d),
                            1 => corners.insert(d),
                            _ => false,
                        };
                    }
                }
                let e: HashSet<Coord> = edge_neighbours(odd_up, c).into_iter().collect();
                let k: HashSet<Coord> = corner_neighbours(odd_up, c).into_iter().collect();
                assert_eq!((e.len(), k.len()), (3, 9));
                assert_eq!(e, edges, "{c:?}");
                assert_eq!(k, corners, "{c:?}");
            }
        }
    }

    #[test]
    fn up_triangles_have_their_neighbour_below() {
        // Edge 9 (odd_up): a1 is x = 0, row 1, so x + r is odd: a down triangle.
        assert!(!is_up(true, [0, 0, 0]));
        assert_eq!(edge_neighbours(true, [0, 0, 0])[2], [0, 1, 0]);
        assert!(is_up(true, [1, 0, 0]));
        assert_eq!(edge_neighbours(true, [1, 0, 0])[2], [1, -1, 0]);
        // Edge 8: the other parity.
        assert!(is_up(false, [0, 0, 0]));
    }

    #[test]
    fn the_twelve_symmetries_are_distinct_and_keep_adjacency() {
        for odd_up in [false, true] {
            let shape = [[0, 0, 0], [1, 0, 0], [2, 0, 0], [2, 1, 0]];
            let mut images = HashSet::new();
            for s in 0..SYMMETRIES {
                let image: Vec<Coord> = shape.iter().map(|&c| transform(odd_up, s, c)).collect();
                images.insert(image);
                for c in region() {
                    let t = transform(odd_up, s, c);
                    let mut e: Vec<Coord> = edge_neighbours(odd_up, c)
                        .into_iter()
                        .map(|n| transform(odd_up, s, n))
                        .collect();
                    let mut want = edge_neighbours(odd_up, t);
                    e.sort();
                    want.sort();
                    assert_eq!(e, want);
                    let mut k: Vec<Coord> = corner_neighbours(odd_up, c)
                        .into_iter()
                        .map(|n| transform(odd_up, s, n))
                        .collect();
                    let mut want = corner_neighbours(odd_up, t);
                    k.sort();
                    want.sort();
                    assert_eq!(k, want);
                }
            }
            assert_eq!(images.len(), SYMMETRIES);
            for c in region() {
                assert_eq!(from_vertex_sum(odd_up, vertex_sum(odd_up, c), 0), c);
                assert_eq!(transform(odd_up, 0, c), c);
            }
        }
    }

    #[test]
    fn normalize_and_translation_keep_directions() {
        for odd_up in [false, true] {
            for c in region() {
                let n = normalize(&[c]);
                assert_eq!(is_up(odd_up, n[0]), is_up(odd_up, c));
                assert!(n[0][0] <= 1 && n[0][1] == 0);
                for d in region() {
                    match translation(c, d) {
                        Some(_) => assert_eq!(is_up(odd_up, c), is_up(odd_up, d)),
                        None => assert_ne!(is_up(odd_up, c), is_up(odd_up, d)),
                    }
                }
            }
        }
    }
}
