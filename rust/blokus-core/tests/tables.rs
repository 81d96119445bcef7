//! The placement tables and perft from the empty board, pinned to docs/RULES.md.

use blokus_core::{tables, Board};

#[test]
fn placement_counts_match_the_rules() {
    for (id, n) in [
        ("classic", 30433),
        ("classic_2", 30433),
        ("classic_3", 30433),
        ("duo", 13729),
        ("junior", 7217),
        ("trigon", 32131),
        ("trigon_2", 32131),
        ("trigon_3", 24859),
    ] {
        assert_eq!(tables(id).unwrap().num_placements(), n, "{id}");
    }
}

#[test]
fn id_order_is_pinned() {
    // Changing the order of placement ids changes the RL action space: do it on purpose only,
    // and update tests/data/id_checksums.txt with the lines this test prints.
    let expected = include_str!("../../../tests/data/id_checksums.txt");
    let mut actual = String::new();
    for line in expected.lines() {
        let id = line.split_whitespace().next().unwrap();
        actual += &format!("{id} {:016x}\n", tables(id).unwrap().id_checksum());
    }
    assert_eq!(actual, expected);
}

#[test]
fn first_moves_on_the_empty_board() {
    for (id, n) in [
        ("classic", 58),
        ("duo", 414),
        ("junior", 189),
        ("trigon", 2478),
        ("trigon_2", 2478),
        ("trigon_3", 2478),
    ] {
        assert_eq!(Board::new(tables(id).unwrap()).count_moves(), n, "{id}");
    }
}

#[test]
fn perft_duo() {
    let b = Board::new(tables("duo").unwrap());
    assert_eq!(b.perft(1), 414);
    assert_eq!(b.perft(2), 171_396);
}

#[test]
fn perft_classic() {
    let b = Board::new(tables("classic").unwrap());
    assert_eq!(b.perft(1), 58);
    assert_eq!(b.perft(2), 3_364);
    assert_eq!(b.perft(3), 195_112);
}

#[test]
fn perft_trigon() {
    let b = Board::new(tables("trigon").unwrap());
    assert_eq!(b.perft(1), 2_478);
    assert_eq!(b.perft(2), 5_117_070);
}

#[test]
fn perft_duo_depth_3() {
    // 89 million leaves: a fraction of a second in release, a few seconds in debug.
    let b = Board::new(tables("duo").unwrap());
    assert_eq!(b.perft(3), 89_204_762);
}

#[test]
fn sampling_is_uniform_over_the_legal_moves() {
    // Chi-square check of Board::sample_move against the move list on a mid-game position.
    // (The samplers inside are checked the same way by the crate's own tests.)
    let mut board = Board::new(tables("duo").unwrap());
    for text in ["e10,e11", "j5,j6", "f12,g12,h12", "k7,l7,m7"] {
        board.play_text(text).unwrap();
    }
    let moves = board.legal_moves();
    let index: std::collections::HashMap<u32, usize> =
        moves.iter().enumerate().map(|(i, &m)| (m, i)).collect();
    let mut counts = vec![0u32; moves.len()];
    let mut rng = blokus_core::Rng::new(9);
    let per_move = 200;
    for _ in 0..per_move * moves.len() {
        counts[index[&board.sample_move(&mut rng).unwrap()]] += 1;
    }
    let expected = f64::from(per_move as u32);
    let chi2: f64 = counts
        .iter()
        .map(|&c| (f64::from(c) - expected).powi(2) / expected)
        .sum();
    let dof = (moves.len() - 1) as f64;
    assert!(
        chi2 < dof + 5.0 * (2.0 * dof).sqrt(),
        "chi2 {chi2} for {} moves",
        moves.len()
    );
}
