//! The cubic lattice of Blokus 3D: 6 face neighbours, symmetry group the 24 proper rotations
//! (pieces are never reflected).

use super::Coord;

pub(super) const SYMMETRIES: usize = 24;

/// The 24 rotations as signed permutations of the axes: image axis `i` takes source axis
/// `perm[i]` times `sign[i]`. Built from all 48 signed permutations by keeping those with
/// determinant +1, identity first.
const ROTATIONS: [([usize; 3], [i32; 3]); SYMMETRIES] = rotations();

const fn rotations() -> [([usize; 3], [i32; 3]); SYMMETRIES] {
    const PERMS: [([usize; 3], i32); 6] = [
        ([0, 1, 2], 1),
        ([0, 2, 1], -1),
        ([1, 0, 2], -1),
        ([1, 2, 0], 1),
        ([2, 0, 1], 1),
        ([2, 1, 0], -1),
    ];
    let mut out = [([0usize; 3], [0i32; 3]); SYMMETRIES];
    let mut n = 0;
    let mut p = 0;
    while p < PERMS.len() {
        let (perm, parity) = PERMS[p];
        let mut signs = 0;
        while signs < 8 {
            let sign = [
                if signs & 1 != 0 { -1 } else { 1 },
                if signs & 2 != 0 { -1 } else { 1 },
                if signs & 4 != 0 { -1 } else { 1 },
            ];
            if parity * sign[0] * sign[1] * sign[2] == 1 {
                out[n] = (perm, sign);
                n += 1;
            }
            signs += 1;
        }
        p += 1;
    }
    out
}

pub(super) fn transform(s: usize, c: Coord) -> Coord {
    let (perm, sign) = ROTATIONS[s];
    [
        sign[0] * c[perm[0]],
        sign[1] * c[perm[1]],
        sign[2] * c[perm[2]],
    ]
}

pub(super) fn normalize(shape: &[Coord]) -> Vec<Coord> {
    let min = |i: usize| shape.iter().map(|c| c[i]).min().unwrap_or(0);
    let (mx, my, mz) = (min(0), min(1), min(2));
    let mut out: Vec<Coord> = shape
        .iter()
        .map(|c| [c[0] - mx, c[1] - my, c[2] - mz])
        .collect();
    out.sort_by_key(|c| (c[2], c[1], c[0]));
    out
}

pub(super) fn face_neighbours([x, y, z]: Coord) -> Vec<Coord> {
    vec![
        [x, y, z - 1],
        [x, y - 1, z],
        [x - 1, y, z],
        [x + 1, y, z],
        [x, y + 1, z],
        [x, y, z + 1],
    ]
}

/// The 20 cells touching `c` along an edge or at a corner only (no face shared).
pub(super) fn corner_neighbours([x, y, z]: Coord) -> Vec<Coord> {
    let mut out = Vec::with_capacity(20);
    for dz in -1..=1 {
        for dy in -1..=1 {
            for dx in -1..=1 {
                let nonzero = (dx != 0) as u8 + (dy != 0) as u8 + (dz != 0) as u8;
                if nonzero >= 2 {
                    out.push([x + dx, y + dy, z + dz]);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn det(s: usize) -> i32 {
        let m: Vec<Coord> = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
            .iter()
            .map(|&e| transform(s, e))
            .collect();
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    }

    #[test]
    fn the_24_rotations_are_distinct_proper_and_closed() {
        let probe: Coord = [1, 2, 3];
        let images: Vec<Coord> = (0..SYMMETRIES).map(|s| transform(s, probe)).collect();
        assert_eq!(images[0], probe, "identity first");
        for s in 0..SYMMETRIES {
            assert_eq!(det(s), 1, "rotation {s} is a reflection");
            assert!(!images[..s].contains(&images[s]), "rotation {s} repeats");
            for r in 0..SYMMETRIES {
                let composed = transform(r, transform(s, probe));
                assert!(images.contains(&composed), "not closed: {r} after {s}");
            }
        }
    }

    #[test]
    fn neighbours_share_a_face_or_only_an_edge_or_corner() {
        assert_eq!(face_neighbours([0, 0, 0]).len(), 6);
        let c = corner_neighbours([0, 0, 0]);
        assert_eq!(c.len(), 20);
        assert!(c
            .iter()
            .all(|n| n.iter().map(|v| v.abs()).sum::<i32>() >= 2));
    }
}
