//! The placement tables and perft from the empty board, pinned to RULES.md.

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

/// Draws `per_move` times the number of `moves` from `sample` and checks the counts with a
/// chi-square test: for n-1 degrees of freedom the statistic has mean n-1 and sd sqrt(2(n-1));
/// 5 sd are allowed. Every move must come up.
fn assert_uniform(label: &str, moves: &[u32], per_move: u32, mut sample: impl FnMut() -> u32) {
    let index: std::collections::HashMap<u32, usize> =
        moves.iter().enumerate().map(|(i, &m)| (m, i)).collect();
    let mut counts = vec![0u32; moves.len()];
    for _ in 0..per_move as usize * moves.len() {
        counts[index[&sample()]] += 1;
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

#[test]
fn sampling_is_uniform_over_the_legal_moves() {
    // Chi-square check of the sampler against the move list on a mid-game duo position.
    let mut board = Board::new(tables("duo").unwrap());
    for text in ["e10,e11", "j5,j6", "f12,g12,h12", "k7,l7,m7"] {
        board.play_text(text).unwrap();
    }
    let mut rng = blokus_core::rng::Rng::new(9);
    assert_uniform("duo", &board.legal_moves(), 200, || {
        board.sample_move(&mut rng).unwrap()
    });
}

#[test]
fn blokus_3d_sampling_is_uniform_over_the_legal_moves() {
    use blokus_core::stacking::{sample_drawing, DRAWS, LATE_DRAWS};
    for id in ["3d_tower", "3d_pyramid"] {
        let t = tables(id).unwrap();
        let mut board = Board::new(t.clone());
        let mut rng = blokus_core::rng::Rng::new(3);
        for _ in 0..10 {
            let m = board.sample_move(&mut rng).unwrap();
            board.play(m).unwrap();
        }
        let pos = board.position();
        let moves = board.legal_moves();
        assert!(moves.len() > 20, "{id}: a position with a choice");
        // Without draws the legal candidates are always counted; with a few, often; with
        // more, seldom.
        for draws in [0, LATE_DRAWS, DRAWS] {
            let mut rng = blokus_core::rng::Rng::new(11);
            let color = pos.to_move as usize;
            assert_uniform(&format!("{id}, {draws} draws"), &moves, 100, || {
                sample_drawing(pos, &t, color, &mut rng, draws).unwrap()
            });
        }
    }
}

#[test]
fn blokus_3d_sampling_finds_a_move_exactly_when_there_is_one() {
    // Along random games, for every colour (not only the one to move): the sampler, which
    // scans for any legal placement after a few missed draws, returns one exactly when the
    // colour has one, and a legal one.
    use blokus_core::stacking::sample_move;
    let (mut with, mut without) = (0, 0);
    for id in ["3d_tower", "3d_steps_3", "3d_wall_2"] {
        let t = tables(id).unwrap();
        let mut rng = blokus_core::rng::Rng::new(5);
        for _ in 0..20 {
            let mut board = Board::new(t.clone());
            while let Some(turn) = board.turn() {
                let pos = board.position();
                for c in 0..t.variant.num_colors() {
                    let drawn = sample_move(pos, &t, c, &mut rng);
                    let mut legal = Vec::new();
                    blokus_core::stacking::for_each_move(pos, &t, c, |m| {
                        legal.push(m);
                        true
                    });
                    assert_eq!(drawn.is_some(), !legal.is_empty(), "{id} colour {c}");
                    if let Some(m) = drawn {
                        assert!(legal.contains(&m), "{id}: drew {m}");
                        with += 1;
                    } else {
                        without += 1;
                    }
                }
                let m = sample_move(pos, &t, turn, &mut rng).unwrap();
                board.play(m).unwrap();
            }
        }
    }
    assert!(
        with > 100 && without > 100,
        "{with} with a move, {without} without"
    );
}

#[test]
fn footprints_give_each_placements_cells_edges_and_corners() {
    let mut all = corner_variants();
    all.push(("3d_wall".into(), tables("3d_wall").unwrap()));
    for (id, t) in &all {
        for (pid, p) in t.placements.iter().enumerate() {
            let fp = t.footprint(pid as u32);
            assert_eq!(fp.piece, usize::from(p.piece), "{id} {pid}");
            assert_eq!(fp.cells, p.cells(), "{id} {pid}");
            let masks = t.footprints().masks(&fp);
            assert_eq!(masks.cells, p.mask, "{id} {pid}");
            assert_eq!(masks.edges, p.edges, "{id} {pid}");
            assert_eq!(masks.corners, p.corners, "{id} {pid}");
        }
    }
}

#[test]
fn slots_name_the_cells_of_their_placements() {
    for (id, t) in corner_variants() {
        let s = t.slices.as_ref().unwrap();
        let mut checked = 0;
        for a in 0..t.variant.num_cells() {
            for slot in 0..s.ids_of(a).len() {
                if !s.fits(a, slot) {
                    continue;
                }
                let fp = t.footprint(s.id(a, slot));
                let mut cells = [0u16; blokus_core::table::MAX_PIECE_CELLS];
                let (piece, len) = s.slot_cells(a, slot, &mut cells);
                let mut cells = cells[..len].to_vec();
                cells.sort_unstable();
                assert_eq!(
                    (piece, cells.as_slice()),
                    (fp.piece, fp.cells),
                    "{id} cell {a} slot {slot}"
                );
                checked += 1;
            }
        }
        assert!(
            checked > 5 * t.num_placements() / 2,
            "{id}: {checked} slots"
        );
    }
}

/// Built-in corner-rule variants and custom boards (holes, a small hexagon, a piece subset, a
/// long board), for the generators' cross-checks.
fn corner_variants() -> Vec<(String, std::sync::Arc<blokus_core::Tables>)> {
    let mut out: Vec<_> = [
        "duo",
        "classic",
        "classic_3",
        "junior",
        "trigon",
        "trigon_3",
    ]
    .iter()
    .map(|id| (id.to_string(), tables(id).unwrap()))
    .collect();
    for json in [
        r#"{"id": "holes", "board": {"geometry": "square", "width": 9, "height": 7,
            "holes": ["b2", "e4", "h6", "a7"]}, "colors": ["Blue", "Red"],
            "players": [[0], [1]], "start_points": [["a1"], ["i7"]],
            "pieces": {"only": ["1", "V3", "L4", "T4", "F", "W", "X", "I5"]}}"#,
        r#"{"id": "hexagon", "board": {"geometry": "triangle", "edge": 4, "holes": ["h5"]},
            "colors": ["Blue", "Red"], "players": [[0], [1]],
            "start_points": [["d3"], ["l5"]], "pieces": {}}"#,
        // 512 cells, the most a board may have.
        r#"{"id": "long", "board": {"geometry": "square", "width": 64, "height": 8},
            "colors": ["Blue", "Red"], "players": [[0], [1]],
            "start_points": [["a1"], ["bl8"]], "pieces": {}}"#,
    ] {
        let v = blokus_core::Variant::from_json(json).unwrap();
        out.push((
            v.id.clone(),
            std::sync::Arc::new(blokus_core::Tables::new(v)),
        ));
    }
    out
}

#[test]
fn listing_counting_and_sampling_match_a_plain_scan() {
    // The generators (bit-sliced, corner-directed after a colour's first piece) against a scan
    // of every placement with the rule written out, along random games.
    for (id, t) in corner_variants() {
        assert!(t.directed.is_some(), "{id} has corner-directed tables");
        let mut rng = blokus_core::rng::Rng::new(8);
        for _ in 0..3 {
            let mut board = Board::new(t.clone());
            while let Some(c) = board.turn() {
                let pos = board.position();
                let plain: Vec<u32> = (0..t.num_placements() as u32)
                    .filter(|&id| {
                        let p = &t.placements[id as usize];
                        pos.left[c][p.piece as usize] > 0
                            && !p.mask.intersects(&pos.forbidden[c])
                            && p.mask.intersects(&pos.attach[c])
                    })
                    .collect();
                let mut listed = board.legal_moves();
                listed.sort_unstable();
                assert_eq!(listed, plain, "{id} at ply {}", board.ply());
                assert_eq!(board.count_moves(), plain.len(), "{id}");
                let m = board.sample_move(&mut rng).unwrap();
                assert!(plain.binary_search(&m).is_ok(), "{id}: sampled {m}");
                board.play(m).unwrap();
            }
            assert!(board.ply() >= 4, "{id}: a game of {} plies", board.ply());
        }
    }
}

#[test]
fn incremental_playout_keeps_the_legal_moves() {
    use blokus_core::playout::Playout;
    for (id, t) in corner_variants() {
        let mut rng = blokus_core::rng::Rng::new(4);
        for _ in 0..5 {
            let mut game = Playout::new(&t).unwrap();
            while !game.pos().is_game_over() {
                let mut legal = game.pos().legal_moves(&t);
                legal.sort_unstable();
                assert_eq!(game.cached_moves(), legal, "{id}");
                let mut listed = Vec::new();
                game.legal_moves_into(&mut listed);
                listed.sort_unstable();
                assert_eq!(listed, legal, "{id}: listed once each");
                let m = game.sample(&mut rng).unwrap();
                assert!(game.pos().is_legal(&t, m));
                game.play(m);
            }
            assert_eq!(game.sample(&mut rng), None);
        }
    }
}

#[test]
fn incremental_playout_samples_uniformly() {
    // Chi-square of the playout's sampler (slots counted per attach cell, a placement through
    // m live cells kept with probability 1/m) against the legal list of mid-game positions.
    // The caches are left as the moves left them (placements made illegal since are cleared
    // when a draw meets them), and every draw is made from a copy of that state, so that the
    // lazy clearing is part of every draw.
    use blokus_core::playout::Playout;
    for (id, plies) in [
        ("duo", 6),
        ("duo", 16),
        ("classic", 12),
        ("classic", 40),
        ("trigon", 30),
    ] {
        let t = tables(id).unwrap();
        let mut rng = blokus_core::rng::Rng::new(21);
        let mut game = Playout::new(&t).unwrap();
        for _ in 0..plies {
            let m = game.sample(&mut rng).unwrap();
            game.play(m);
        }
        let moves = game.pos().legal_moves(&t);
        assert!(moves.len() > 50, "{id}: a position with a choice");
        let label = format!("{id} after {plies} plies");
        assert_uniform(&label, &moves, 100, || {
            game.clone().sample(&mut rng).unwrap()
        });
    }
}
