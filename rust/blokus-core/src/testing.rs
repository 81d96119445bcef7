//! What the crate's own tests share: variants from the built-ins to odd user boards, positions
//! along random games, and a check that a sampler is uniform.

use std::collections::HashMap;
use std::sync::Arc;

use crate::game::board::Board;
use crate::position::Position;
use crate::rng::Rng;
use crate::tables::{tables, Tables};
use crate::variant::Variant;

/// Every built-in variant, and user boards that stress the generators: holes, a 1xN strip, the
/// largest board (64x8, 512 cells), a small hexagon with a hole, copies of pieces, start points
/// shared by every colour, a colour count other than the built-ins', and Blokus 3D structures
/// of one column, of more than 128 cells, and with blocked colours skipped.
pub(crate) fn odd_variants() -> Vec<(String, Arc<Tables>)> {
    let mut out: Vec<(String, Arc<Tables>)> = crate::variant::builtin_ids()
        .into_iter()
        .map(|id| (id.to_string(), tables(id).unwrap()))
        .collect();
    for json in [
        r#"{"id": "holes", "board": {"geometry": "square", "width": 9, "height": 7,
            "holes": ["b2", "e4", "h6", "a7"]}, "colors": ["Blue", "Red"],
            "players": [[0], [1]], "start_points": [["a1"], ["i7"]],
            "pieces": {"only": ["1", "V3", "L4", "T4", "F", "W", "X", "I5"]}}"#,
        r#"{"id": "strip", "board": {"geometry": "square", "width": 1, "height": 30},
            "colors": ["Blue", "Red", "Green"], "players": [[0], [1], [2]],
            "start_points": [["a1"], ["a30"], ["a15"]], "pieces": {}}"#,
        r#"{"id": "long", "board": {"geometry": "square", "width": 64, "height": 8},
            "colors": ["Blue", "Red"], "players": [[0], [1]],
            "start_points": [["a1"], ["bl8"]], "pieces": {}}"#,
        r#"{"id": "hexagon", "board": {"geometry": "triangle", "edge": 4, "holes": ["h5"]},
            "colors": ["Blue", "Red"], "players": [[0], [1]],
            "start_points": [["d3"], ["l5"]], "pieces": {}}"#,
        r#"{"id": "copies", "board": {"geometry": "square", "width": 10, "height": 10},
            "colors": ["Blue", "Red"], "players": [[0], [1]],
            "start_points": [["a1"], ["j10"]],
            "pieces": {"only": ["1", "2", "I3", "V3", "O", "P"], "copies": 3}}"#,
        r#"{"id": "shared", "board": {"geometry": "square", "width": 12, "height": 12},
            "colors": ["Blue", "Yellow", "Red"], "players": [[0], [1], [2]],
            "shared_start_points": ["d4", "i9", "d9"], "pieces": {}}"#,
        r#"{"id": "column", "board": {"geometry": "cube", "structure": ["9"]},
            "colors": ["Blue", "Red"], "players": [[0], [1]], "pieces": {}}"#,
        r#"{"id": "hall", "board": {"geometry": "cube",
            "structure": ["999999999", "999999999", "999.99999"]},
            "colors": ["Blue", "Red", "Green"], "players": [[0], [1], [2]], "pieces": {}}"#,
        r#"{"id": "skipping", "board": {"geometry": "cube", "structure": ["3333", "3..3", "3333"]},
            "colors": ["Blue", "Red"], "players": [[0], [1]], "pieces": {},
            "blocked": "skip"}"#,
    ] {
        let v = Variant::from_json(json).unwrap();
        out.push((v.id.clone(), Arc::new(Tables::new(v))));
    }
    out
}

/// The positions along `games` uniformly random games of `t`'s variant (from the empty board
/// to the end).
pub(crate) fn random_positions(t: &Arc<Tables>, games: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut board = Board::new(Arc::clone(t));
        out.push(*board.position());
        while let Some(m) = board.sample_move(&mut rng) {
            board.play(m).unwrap();
            out.push(*board.position());
        }
    }
    out
}

/// Draws `per_move` times the number of `moves` from `sample` and checks the counts with a
/// chi-square test: for n-1 degrees of freedom the statistic has mean n-1 and sd sqrt(2(n-1));
/// 5 sd are allowed. Every move must come up, and nothing else.
pub(crate) fn assert_uniform(
    label: &str,
    moves: &[u32],
    per_move: u32,
    mut sample: impl FnMut() -> u32,
) {
    let index: HashMap<u32, usize> = moves.iter().enumerate().map(|(i, &m)| (m, i)).collect();
    let mut counts = vec![0u32; moves.len()];
    for _ in 0..per_move as usize * moves.len() {
        let m = sample();
        let i = index
            .get(&m)
            .unwrap_or_else(|| panic!("{label}: drew {m}, not a legal move"));
        counts[*i] += 1;
    }
    let expected = f64::from(per_move);
    let chi2: f64 = counts
        .iter()
        .map(|&c| (f64::from(c) - expected).powi(2) / expected)
        .sum();
    let dof = (moves.len() - 1) as f64;
    assert!(
        chi2 < dof + 5.0 * (2.0 * dof).sqrt(),
        "{label}: chi2 {chi2} for {} moves",
        moves.len()
    );
    assert!(counts.iter().all(|&c| c > 0), "{label}: a move never drawn");
}
