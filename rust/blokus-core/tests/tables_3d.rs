//! Blokus 3D tables and perft from the empty structure, pinned to docs/RULES.md. (The placement id
//! order is pinned with the flat variants' in `tests/data/id_checksums.txt`.)

use blokus_core::{builtin_ids, tables, Board, Variant};

const STRUCTURES: [&str; 4] = ["tower", "wall", "steps", "pyramid"];

#[test]
fn sixteen_ids_four_structures_four_player_modes() {
    let ids: Vec<&str> = builtin_ids()
        .into_iter()
        .filter(|id| id.starts_with("3d_"))
        .collect();
    assert_eq!(ids.len(), 16);
    for s in STRUCTURES {
        for (suffix, colors, players) in [("", 4, 4), ("_3", 3, 3), ("_2", 2, 2), ("_2x2", 4, 2)] {
            let id = format!("3d_{s}{suffix}");
            let v = Variant::builtin(&id).unwrap();
            assert_eq!((v.num_colors(), v.num_players()), (colors, players), "{id}");
            // All four modes draw the same structure; only the limits derived from it differ.
            let drawn = Variant::builtin(&format!("3d_{s}")).unwrap();
            assert_eq!(
                v.structure().unwrap().rows,
                drawn.structure().unwrap().rows,
                "{id}"
            );
        }
        let v = Variant::builtin(&format!("3d_{s}_2x2")).unwrap();
        assert_eq!(v.players(), [vec![0, 2], vec![1, 3]]);
    }
}

#[test]
fn structures_hold_the_cubes_of_rules_md() {
    // 4 players (and _2x2, which keeps the 4-player limits).
    for (s, cubes) in [
        ("tower", 128),
        ("wall", 168),
        ("steps", 126),
        ("pyramid", 120),
    ] {
        for suffix in ["", "_2x2"] {
            let v = Variant::builtin(&format!("3d_{s}{suffix}")).unwrap();
            assert_eq!(v.num_cells(), cubes, "{s}{suffix}");
        }
    }
    // Limits L become max(1, L - (4 - p)): tower 8 -> 7 -> 6 over 16 columns.
    assert_eq!(tables("3d_tower_3").unwrap().variant().num_cells(), 16 * 7);
    assert_eq!(tables("3d_tower_2").unwrap().variant().num_cells(), 16 * 6);
    // The pyramid's rim stays at 1 for two players; 2 -> 1, 3 -> 1, 4 -> 2.
    let p2 = Variant::builtin("3d_pyramid_2").unwrap();
    assert_eq!(p2.num_cells(), 28 + 20 + 12 + 4 * 2);
}

#[test]
fn cells_are_numbered_layer_by_layer() {
    let v = Variant::builtin("3d_steps").unwrap();
    let levels: Vec<i32> = v.cells().iter().map(|c| c[2]).collect();
    assert!(levels.windows(2).all(|w| w[0] <= w[1]));
    assert_eq!(v.cell_name(0), "a1@1");
    assert_eq!(v.cell_name(35), "f6@1");
    assert_eq!(v.cell_name(36), "a2@2"); // row 1 of the steps is 1 high
    assert_eq!(v.cell_name(v.num_cells() - 1), "f6@6");
}

#[test]
fn every_variant_has_the_11_pieces_in_104_orientations() {
    for s in STRUCTURES {
        let t = tables(&format!("3d_{s}")).unwrap();
        assert_eq!(t.variant().pieces().len(), 11);
        assert_eq!((0..11).map(|p| t.orientations(p)).sum::<usize>(), 104);
    }
}

#[test]
fn placement_counts_match_the_rules() {
    for (s, counts) in [
        ("tower", [6704, 5739, 4774]),
        ("wall", [7220, 5746, 4272]),
        ("steps", [5984, 3881, 2300]),
        ("pyramid", [4956, 2335, 1354]),
    ] {
        for (suffix, n) in ["", "_3", "_2"].into_iter().zip(counts) {
            let id = format!("3d_{s}{suffix}");
            assert_eq!(tables(&id).unwrap().num_placements(), n, "{id}");
        }
        let id = format!("3d_{s}_2x2");
        assert_eq!(tables(&id).unwrap().num_placements(), counts[0], "{id}");
    }
}

#[test]
fn first_moves_on_the_empty_structure() {
    for (s, n) in [
        ("tower", 513),
        ("wall", 769),
        ("steps", 1292),
        ("pyramid", 2153),
    ] {
        assert_eq!(
            Board::new(tables(&format!("3d_{s}")).unwrap()).count_moves(),
            n,
            "{s}"
        );
    }
}

#[test]
fn perft_from_the_empty_structure() {
    for (s, p2) in [
        ("tower", 101_336),
        ("wall", 105_028),
        ("steps", 438_446),
        ("pyramid", 857_920),
    ] {
        let b = Board::new(tables(&format!("3d_{s}")).unwrap());
        assert_eq!(b.perft(2), p2, "{s}");
    }
}

#[test]
#[ignore = "several seconds in release; run with --ignored"]
fn perft_depth_3_on_every_structure() {
    for (s, p3) in [
        ("tower", 17_397_872),
        ("wall", 15_679_810),
        ("steps", 180_723_592),
        ("pyramid", 458_208_352),
    ] {
        let b = Board::new(tables(&format!("3d_{s}")).unwrap());
        assert_eq!(b.perft(3), p3, "{s}");
    }
}
