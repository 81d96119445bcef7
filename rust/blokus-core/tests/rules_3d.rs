//! Blokus 3D rules on hand-worked positions (docs/RULES.md, "Blokus 3D"): support, height limits,
//! first moves, face contact, elimination and the skip option, scoring, the `_2x2` winner, move
//! text, and user-defined structures.

use std::sync::Arc;

use blokus_core::{
    scores, tables, winners, Board, Illegal, MoveTextError, Rng, Scoring, Tables, Variant,
};

fn board(id: &str) -> Board {
    Board::new(tables(id).unwrap())
}

fn custom(json: &str) -> Board {
    Board::new(Arc::new(Tables::new(Variant::from_json(json).unwrap())))
}

fn play(b: &mut Board, moves: &[&str]) {
    for m in moves {
        b.play_text(m).unwrap_or_else(|e| panic!("{m}: {e:?}"));
    }
}

/// Why the move is illegal for the colour to move (`None`: legal).
fn why(b: &Board, text: &str) -> Option<Illegal> {
    let id = b
        .tables()
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    let reason = b.why_illegal(id).unwrap();
    assert_eq!(reason.is_none(), b.legal_moves().contains(&id), "{text}");
    reason
}

fn cell(b: &Board, name: &str) -> usize {
    b.tables().variant().parse_cell(name).unwrap()
}

#[test]
fn every_cube_rests_on_the_ground_an_earlier_cube_or_its_own_piece() {
    let mut b = board("3d_tower");
    assert_eq!(why(&b, "a1@1,a1@2"), None);
    assert_eq!(why(&b, "a1@1,b1@1,b1@2"), None);
    let a1_2 = cell(&b, "a1@2");
    assert_eq!(
        why(&b, "a1@2,b1@2"),
        Some(Illegal::Unsupported { cell: a1_2 })
    );
    let b1_2 = cell(&b, "b1@2");
    assert_eq!(
        why(&b, "a1@1,a1@2,b1@2"),
        Some(Illegal::Unsupported { cell: b1_2 })
    );
    play(&mut b, &["a1@1,b1@1"]);
    // Colour 1 may rest cubes on colour 0's.
    assert_eq!(why(&b, "c1@1,c1@2,b1@2"), None);
    assert_eq!(why(&b, "c1@1,c1@2,b1@2,a1@2"), None);
    let b2_2 = cell(&b, "b2@2");
    assert_eq!(
        why(&b, "c1@1,c1@2,b1@2,b2@2"),
        Some(Illegal::Unsupported { cell: b2_2 })
    );
    assert_eq!(
        why(&b, "a1@1,a2@1"),
        Some(Illegal::Overlap {
            cell: cell(&b, "a1@1")
        })
    );
}

#[test]
fn no_cube_goes_above_its_column_limit() {
    // Two players: the tower's 8 becomes 6.
    let mut b = board("3d_tower_2");
    let t = Arc::clone(b.tables());
    assert_eq!(
        t.parse_move("a1@6,a1@7"),
        Err(MoveTextError::AboveLimit {
            index: 1,
            text: "a1@7".into(),
            limit: 6
        })
    );
    play(&mut b, &["a1@1,a1@2,a1@3,a1@4", "b1@1,b1@2", "a1@5,a1@6"]);
    assert_eq!(b.heights()[0], 6);
    // Column a1 is full: no move of colour 1 (whose cubes touch it) uses it any more.
    assert!(b
        .legal_moves()
        .iter()
        .all(|&id| !b.move_text(id).contains("a1@")));
    assert!(!b.legal_moves().is_empty());
    // The pyramid's rim is one cube high, its centre four.
    let p = tables("3d_pyramid").unwrap();
    assert!(matches!(
        p.parse_move("a1@1,a1@2"),
        Err(MoveTextError::AboveLimit { limit: 1, .. })
    ));
    assert!(matches!(
        p.parse_move("d4@4,d4@5"),
        Err(MoveTextError::AboveLimit { limit: 4, .. })
    ));
    assert!(p.parse_move("d4@3,d4@4").is_ok());
}

#[test]
fn colour_0_starts_anywhere_that_holds_it() {
    let b = board("3d_tower");
    // Not touching anything is fine for the very first piece.
    assert_eq!(why(&b, "c3@1,c4@1,c3@2"), None);
    assert_eq!(why(&b, "d4@1,d4@2,d4@3,d4@4"), None);
    // The first moves are exactly the placements whose every cube is on level 1 or on a cube of
    // the same piece.
    let t = b.tables();
    let cells = t.variant().cells();
    let standing = (0..t.num_placements() as u32)
        .map(|id| t.placement(id).unwrap())
        .filter(|p| {
            p.cells().iter().all(|&c| {
                let [x, y, z] = cells[c as usize];
                z == 0
                    || p.cells()
                        .iter()
                        .any(|&d| cells[d as usize] == [x, y, z - 1])
            })
        })
        .count();
    assert_eq!(standing, 513);
    assert_eq!(b.count_moves(), 513);
}

#[test]
fn a_later_colours_first_piece_touches_a_cube_and_stands_on_the_ground() {
    let mut b = board("3d_tower");
    play(&mut b, &["a1@1,b1@1"]);
    // c2 meets b1 along an edge only.
    assert_eq!(why(&b, "c2@1,d2@1"), Some(Illegal::FirstNotTouching));
    assert_eq!(why(&b, "c3@1,d3@1"), Some(Illegal::FirstNotTouching));
    // Resting on colour 0 touches it, but no cube is on level 1.
    assert_eq!(why(&b, "a1@2,b1@2"), Some(Illegal::FirstOffGround));
    assert_eq!(why(&b, "a2@1,b2@1"), None);
    assert_eq!(why(&b, "c1@1,c1@2,b1@2"), None);
    play(&mut b, &["c1@1,d1@1"]);
    // Any colour's cube counts: d2 touches only colour 1.
    assert_eq!(why(&b, "d2@1,d3@1"), None);
    assert_eq!(why(&b, "d3@1,d4@1"), Some(Illegal::FirstNotTouching));
}

#[test]
fn a_later_piece_shares_a_face_with_its_own_colour() {
    let mut b = board("3d_tower");
    play(
        &mut b,
        &["a1@1,b1@1", "c1@1,d1@1", "d2@1,d3@1", "c2@1,c3@1"],
    );
    assert_eq!(b.turn(), Some(0));
    // Colour 0 has used its I2.
    assert_eq!(why(&b, "a2@1,a3@1"), Some(Illegal::PieceUsed { piece: 0 }));
    assert_eq!(why(&b, "a2@1,a3@1,a4@1"), None);
    assert_eq!(why(&b, "b2@1,b3@1,b4@1"), None);
    // Resting on its own cubes is sharing a face; no ground cube is needed any more.
    assert_eq!(why(&b, "a1@2,b1@2,c1@2"), None);
    assert_eq!(why(&b, "b1@2,c1@2,d1@2"), None);
    // Touching only other colours, or its own only along an edge (c1@2 and b1@1), is not enough.
    assert_eq!(why(&b, "a3@1,b3@1,b4@1"), Some(Illegal::NoFaceContact));
    assert_eq!(why(&b, "c1@2,d1@2,d2@2"), Some(Illegal::NoFaceContact));
}

/// A structure where colour 1 cannot place its first piece until colour 0 has stacked on row 2:
///
/// ```text
/// 3331    row 2: a2..c2 three high, d2 one
/// .3..    row 1: only b1, three high
/// ```
///
/// With I4 and L4 only, colour 0's I4 along row 2 leaves b1 as the only free ground cell, and
/// no I4 or L4 through b1@1 fits (b1 is 3 high, b2@2 is still empty). Once colour 0 has put
/// L4 `a2@2,b2@2,c2@2,c2@3` on top, colour 1's L4 `b1@1,b1@2,b1@3,b2@3` rests on it.
fn gap_structure(blocked: &str) -> Board {
    custom(&format!(
        r#"{{"id": "gap", "board": {{"geometry": "cube", "structure": ["3331", ".3.."],
             "limits_for_players": 4}},
            "colors": ["Blue", "Yellow"], "players": [[0], [1]],
            "pieces": {{"only": ["I4", "L4"]}}, "blocked": "{blocked}"}}"#
    ))
}

#[test]
fn a_blocked_colour_is_out_for_good() {
    let mut b = gap_structure("out");
    play(&mut b, &["a2@1,b2@1,c2@1,d2@1"]);
    // Colour 1 cannot move: it is out, and colour 0, left alone, keeps playing.
    assert_eq!(b.turn(), Some(0));
    assert!(!b.position().is_out(0) && b.position().is_out(1));
    play(&mut b, &["a2@2,b2@2,c2@2,c2@3"]);
    // Room has opened for colour 1, but it stays out; colour 0 has no piece left.
    assert_eq!(b.turn(), None);
    assert_eq!(b.points(Scoring::Advanced), [4, -2]);
    assert_eq!(b.result_line(), "4 -2");
}

#[test]
fn with_the_skip_option_a_blocked_colour_tries_again() {
    let mut b = gap_structure("skip");
    play(&mut b, &["a2@1,b2@1,c2@1,d2@1"]);
    assert_eq!(b.turn(), Some(0));
    assert!(!b.position().is_out(0) && !b.position().is_out(1));
    play(&mut b, &["a2@2,b2@2,c2@2,c2@3"]);
    assert_eq!(b.turn(), Some(1));
    assert_eq!(b.legal_moves().len(), 1);
    play(&mut b, &["b1@1,b1@2,b1@3,b2@3"]);
    // Colour 0 has no piece left, colour 1's I4 fits nowhere: the game is over.
    assert_eq!(b.turn(), None);
    // Seen from above: colour 0 a2, c2, d2; colour 1 b1, b2 with its I4 still in hand.
    assert_eq!(b.points(Scoring::Advanced), [3, 1]);
}

#[test]
fn points_are_columns_seen_from_above_minus_pieces_in_hand() {
    let mut b = board("3d_tower");
    play(
        &mut b,
        &[
            "a1@1,b1@1",
            "c1@1,d1@1",
            "a2@1,b2@1",
            "c2@1,d2@1",
            // Colour 0's I3 on its own a1, b1 and on colour 1's c1, which is now hidden.
            "a1@2,b1@2,c1@2",
        ],
    );
    let t = Arc::clone(b.tables());
    let mut heights = vec![2, 2, 2, 1, 1, 1, 1, 1];
    heights.resize(16, 0);
    assert_eq!(b.heights(), heights);
    let mut tops: Vec<Option<usize>> = [0, 0, 0, 1, 2, 2, 3, 3].map(Some).to_vec();
    tops.resize(16, None);
    assert_eq!(b.top_colors(), tops);
    // Pieces in hand: 11 - 2 for colour 0, 11 - 1 for the others.
    let points = b.points(Scoring::Advanced);
    assert_eq!(points, [3 - 9, 1 - 10, 2 - 10, 2 - 10]);
    assert_eq!(b.points(Scoring::Basic), points, "one way to count in 3D");
    assert_eq!(b.result_line(), "-6 -9 -8 -8");
    assert_eq!(winners(&scores(t.variant(), &points)), [0]);
}

#[test]
fn points_are_the_columns_each_colour_tops_minus_its_pieces_in_hand() {
    // The points read the top cubes off the surface; `top_colors` climbs each column.
    for id in ["3d_tower", "3d_wall", "3d_steps", "3d_pyramid"] {
        let t = tables(id).unwrap();
        let n = t.variant().num_colors();
        after_every_random_move(&t, 5, 7, |b| {
            let mut expected: Vec<i32> =
                (0..n).map(|c| b.position().placed(c) as i32 - 11).collect();
            for c in b.top_colors().into_iter().flatten() {
                expected[c] += 1;
            }
            assert_eq!(b.points(Scoring::Advanced), expected, "{id}");
        });
    }
}

/// Plays `games` uniformly random games from the empty board, calling `f` after every move.
fn after_every_random_move(t: &Arc<Tables>, games: usize, seed: u64, mut f: impl FnMut(&Board)) {
    let mut rng = Rng::new(seed);
    for _ in 0..games {
        let mut b = Board::new(Arc::clone(t));
        while b.turn().is_some() {
            let id = b.sample_move(&mut rng).unwrap();
            b.play(id).unwrap();
            f(&b);
        }
    }
}

#[test]
fn in_2x2_the_owner_of_the_single_best_colour_wins() {
    let t = tables("3d_tower_2x2").unwrap();
    let winners_of = |points: [i32; 4]| winners(&scores(t.variant(), &points));
    // Player 0 (colours 0, 2) owns the best colour, though player 1's colours sum higher.
    assert_eq!(scores(t.variant(), &[5, 3, -10, 4]), [5, 4]);
    assert_eq!(winners_of([5, 3, -10, 4]), [0]);
    // Colours of both players tie for best: both win.
    assert_eq!(winners_of([2, 6, 6, 1]), [0, 1]);
    // A tie between one player's own colours is still that player's win.
    assert_eq!(winners_of([6, 1, 6, 1]), [0]);
    // The result line shows every colour.
    let mut b = Board::new(t);
    play(&mut b, &["a1@1,b1@1"]);
    assert_eq!(b.result_line(), "-8 -11 -11 -11");
}

#[test]
fn move_text_names_cubes_by_column_row_and_level() {
    let t = tables("3d_tower").unwrap();
    // Written sorted by level, then row, then column; read in any order and case.
    let id = t.parse_move("a1@2, A2@1,b1@1 ,a1@1").unwrap();
    assert_eq!(t.move_text(id), "a1@1,b1@1,a2@1,a1@2");
    assert_eq!(
        t.variant().pieces()[t.placement(id).unwrap().piece()].name,
        "tripod"
    );
    for (text, expected) in [
        ("a1", "BadCube"),
        ("a1@0", "BadCube"),
        ("a1@x", "BadCube"),
        ("a1@1@2", "BadCube"),
        ("e1@1", "OffBoard"),
        ("a1@9", "AboveLimit"),
        ("a1@1,a1@1", "Repeated"),
        ("a1@1,c1@1", "NoPiece"),
    ] {
        let e = t.parse_move(text).unwrap_err();
        assert!(format!("{e:?}").starts_with(expected), "{text}: {e:?}");
    }
}

#[test]
fn users_define_their_own_structures() {
    // A plus: four arms 2 high around a centre 4 high (for 4 players), played by 2 players on the
    // limits lowered by 2.
    let spec = r#"{"id": "plus", "board": {"geometry": "cube", "structure": [".2.", "242", ".2."]},
                   "colors": ["Blue", "Yellow"], "players": [[0], [1]], "pieces": {}}"#;
    let v = Variant::from_json(spec).unwrap();
    let limits = v.structure().unwrap().limits.clone();
    assert_eq!(limits, [1, 1, 2, 1, 1]);
    assert_eq!(v.num_cells(), 6);
    let t = Arc::new(Tables::new(v));
    let mut centre_full = false;
    after_every_random_move(&t, 20, 3, |b| {
        let heights = b.heights();
        assert!(
            heights.iter().zip(&limits).all(|(h, l)| h <= l),
            "{heights:?}"
        );
        centre_full |= heights[2] == 2;
    });
    assert!(
        centre_full,
        "the centre column is filled to its limit in some game"
    );
}

#[test]
fn bad_cube_specs_are_rejected_with_the_reason() {
    let with_board = |board: &str, extra: &str| {
        format!(
            r#"{{"id": "x", "board": {board}, "colors": ["A", "B"], "players": [[0], [1]],
                "pieces": {{}}{extra}}}"#
        )
    };
    let cube = r#"{"geometry": "cube", "structure": ["22", "22"]}"#;
    for (json, msg) in [
        (
            with_board(r#"{"geometry": "cube"}"#, ""),
            "needs a structure",
        ),
        (
            with_board(r#"{"geometry": "cube", "structure": []}"#, ""),
            "no rows",
        ),
        (
            with_board(r#"{"geometry": "cube", "structure": ["22", "2"]}"#, ""),
            "line 2 (row 1) has 1 characters",
        ),
        (
            with_board(r#"{"geometry": "cube", "structure": ["20"]}"#, ""),
            "b1 has height 0",
        ),
        (
            with_board(r#"{"geometry": "cube", "structure": ["2-"]}"#, ""),
            "b1 is '-'",
        ),
        (
            with_board(r#"{"geometry": "cube", "structure": ["..", ".."]}"#, ""),
            "no column",
        ),
        (
            with_board(
                r#"{"geometry": "cube", "structure": ["22"], "width": 2}"#,
                "",
            ),
            "not width, height or holes",
        ),
        (
            with_board(
                r#"{"geometry": "cube", "structure": ["22"], "limits_for_players": 7}"#,
                "",
            ),
            "limits_for_players",
        ),
        (
            with_board(cube, r#", "start_points": [["a1@1"], ["b1@1"]]"#),
            "cube boards have none",
        ),
        (
            with_board(cube, r#", "scoring": "basic""#),
            "visible columns",
        ),
        (
            with_board(cube, r#", "bonus": {"all_placed": 15}"#),
            "no bonus",
        ),
        (
            with_board(cube, r#", "blocked": "sometimes""#),
            r#"blocked: unknown value "sometimes" (known: out, skip)"#,
        ),
        (
            with_board(
                r#"{"geometry": "square", "width": 5, "height": 5}"#,
                r#", "start_points": [["a1"], ["e5"]], "blocked": "skip""#,
            ),
            "only cube boards",
        ),
        (
            with_board(
                r#"{"geometry": "square", "width": 5, "height": 5, "structure": ["1"]}"#,
                r#", "start_points": [["a1"], ["e5"]]"#,
            ),
            "no structure",
        ),
    ] {
        let e = Variant::from_json(&json).unwrap_err();
        assert!(
            e.to_string().contains(msg),
            "{json}\n  gave: {e}\n  expected: {msg}"
        );
    }
    // Too many cubes: 8 x 8 columns of 9 is 576 > 512 with 4 players, 448 with 2.
    let rows = serde_json::to_string(&["99999999"; 8]).unwrap();
    let two = with_board(
        &format!(r#"{{"geometry": "cube", "structure": {rows}}}"#),
        "",
    );
    assert_eq!(Variant::from_json(&two).unwrap().num_cells(), 8 * 8 * 7);
    let four = with_board(
        &format!(r#"{{"geometry": "cube", "structure": {rows}, "limits_for_players": 4}}"#),
        "",
    );
    let e = Variant::from_json(&four).unwrap_err();
    assert!(e.to_string().contains("holds 576 cubes"), "{e}");
}
