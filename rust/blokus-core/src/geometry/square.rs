//! The square lattice: 4 edge neighbours, 4 corner neighbours, symmetry group D4.

use super::Coord;

pub(super) const SYMMETRIES: usize = 8;

pub(super) fn transform(s: usize, [x, y, z]: Coord) -> Coord {
    let (x, y) = if s & 4 != 0 { (y, x) } else { (x, y) };
    let x = if s & 1 != 0 { -x } else { x };
    let y = if s & 2 != 0 { -y } else { y };
    [x, y, z]
}

pub(super) fn normalize(shape: &[Coord]) -> Vec<Coord> {
    let min_x = shape.iter().map(|c| c[0]).min().unwrap_or(0);
    let min_y = shape.iter().map(|c| c[1]).min().unwrap_or(0);
    let mut out: Vec<Coord> = shape
        .iter()
        .map(|c| [c[0] - min_x, c[1] - min_y, c[2]])
        .collect();
    out.sort_by_key(|c| (c[2], c[1], c[0]));
    out
}

pub(super) fn edge_neighbours([x, y, z]: Coord) -> Vec<Coord> {
    vec![[x, y - 1, z], [x - 1, y, z], [x + 1, y, z], [x, y + 1, z]]
}

pub(super) fn corner_neighbours([x, y, z]: Coord) -> Vec<Coord> {
    vec![
        [x - 1, y - 1, z],
        [x + 1, y - 1, z],
        [x - 1, y + 1, z],
        [x + 1, y + 1, z],
    ]
}
