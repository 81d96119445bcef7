//! Setup positions: a position rebuilt from its pieces, its turn and its out colours behaves like
//! the position reached by play; broken setups are refused with the reason.

use std::sync::Arc;

use blokus_core::notation::parse_move;
use blokus_core::position::NO_COLOR;
use blokus_core::rng::Rng;
use blokus_core::setup::pieces_of_cells;
use blokus_core::variant::builtin_ids;
use blokus_core::{tables, Board, Position, Scoring, Setup, SetupError, SetupTurn, Tables};

fn rebuilt(board: &Board) -> Board {
    let (t, pos) = (board.tables(), board.position());
    let turn = if pos.to_move == NO_COLOR {
        SetupTurn::GameOver
    } else {
        SetupTurn::Color(pos.to_move as usize)
    };
    let setup = Setup {
        placements: board.placements(),
        turn,
        out: pos.out,
    };
    Board::from_setup(t.clone(), &setup).unwrap_or_else(|e| panic!("{}", e.describe(t)))
}

fn same_behaviour(t: &Tables, a: &Position, b: &Position, at: &str) {
    assert_eq!(a.to_move, b.to_move, "{at}: to move");
    assert_eq!(a.out, b.out, "{at}: out");
    assert_eq!(a.hash, b.hash, "{at}: hash");
    assert_eq!(a.occupied, b.occupied, "{at}: occupied");
    assert_eq!(a.cells, b.cells, "{at}: cells");
    assert_eq!(a.forbidden, b.forbidden, "{at}: forbidden");
    assert_eq!(a.left, b.left, "{at}: pieces left");
    assert_eq!(a.placed, b.placed, "{at}: placed");
    assert_eq!(a.last_piece, b.last_piece, "{at}: last piece");
    // Play leaves cells other colours covered later in `attach`; only the usable ones matter.
    let usable =
        |p: &Position| -> Vec<_> { (0..4).map(|c| p.attach[c] & !p.forbidden[c]).collect() };
    assert_eq!(usable(a), usable(b), "{at}: attach");
    assert_eq!(a.surface, b.surface, "{at}: surface");
    let mut ma = a.legal_moves(t);
    let mut mb = b.legal_moves(t);
    ma.sort_unstable();
    mb.sort_unstable();
    assert_eq!(ma, mb, "{at}: legal moves");
    for scoring in [Scoring::Advanced, Scoring::Basic] {
        assert_eq!(
            blokus_core::score::points(t, a, scoring),
            blokus_core::score::points(t, b, scoring),
            "{at}: points"
        );
    }
}

#[test]
fn every_position_of_random_games_can_be_set_up() {
    for id in builtin_ids() {
        random_games_set_up(tables(id).unwrap(), id);
    }
    // Blokus 3D where blocked colours are skipped instead of knocked out.
    let spec = r#"{"id": "hut", "board": {"geometry": "cube", "structure": ["444", "445"]},
        "colors": ["Blue", "Red"], "players": [[0], [1]], "pieces": {}, "blocked": "skip"}"#;
    let hut = Arc::new(Tables::new(blokus_core::Variant::from_json(spec).unwrap()));
    random_games_set_up(hut, "hut");
}

fn random_games_set_up(t: Arc<Tables>, id: &str) {
    for game in 0..3 {
        let mut rng = Rng::new(7 + game);
        let mut board = Board::new(t.clone());
        loop {
            let at = format!("{id} game {game} ply {}", board.ply());
            let pos = *board.position();
            let set_up_board = rebuilt(&board);
            assert_eq!(set_up_board.placements(), board.placements(), "{at}");
            let set_up = *set_up_board.position();
            same_behaviour(&t, &pos, &set_up, &at);
            // Under the corner rule the cells alone say where the pieces are.
            if let Some(found) = pos.placements_from_cells(&t) {
                let sorted = |mut p: Vec<Vec<u32>>| {
                    p.iter_mut().for_each(|ids| ids.sort_unstable());
                    p
                };
                assert_eq!(sorted(found), sorted(board.placements()), "{at}");
            }
            // The game goes on the same from the set-up position.
            let Some(id) = board.sample_move(&mut rng) else {
                break;
            };
            let mut a = pos;
            let mut b = set_up;
            a.play(&t, id);
            b.play(&t, id);
            same_behaviour(&t, &a, &b, &at);
            board.play(id).unwrap();
        }
    }
}

#[test]
fn the_last_piece_decides_the_bonus() {
    // Duo: colour 0 ends with the 1-cell piece or with another one; the order of the list says.
    let t = tables("duo").unwrap();
    let mut board = Board::new(t.clone());
    let mut rng = Rng::new(3);
    while let Some(id) = board.sample_move(&mut rng) {
        board.play(id).unwrap();
    }
    let pos = *board.position();
    let placements = pos.placements_from_cells(&t).unwrap();
    assert_eq!(
        placements.iter().map(|ids| ids.last()).collect::<Vec<_>>(),
        board
            .placements()
            .iter()
            .map(|ids| ids.last())
            .collect::<Vec<_>>()
    );
    let last = *placements[0].last().unwrap();
    assert_eq!(t.placements[last as usize].piece, pos.last_piece[0]);
    let setup = Setup {
        placements: placements.clone(),
        turn: SetupTurn::GameOver,
        out: pos.out,
    };
    let again = Position::from_setup(&t, &setup).unwrap();
    assert_eq!(again.last_piece[..2], pos.last_piece[..2]);
}

#[test]
fn first_from_skips_colours_that_cannot_move() {
    let t = tables("duo").unwrap();
    let setup = Setup {
        placements: vec![],
        turn: SetupTurn::FirstFrom(1),
        out: 0,
    };
    let pos = Position::from_setup(&t, &setup).unwrap();
    assert_eq!(pos.to_move, 1);
    assert_eq!(pos.count_moves(&t), 414);
}

fn err(id: &str, placements: &[&[&str]], turn: SetupTurn, out: u8) -> (SetupError, String) {
    let t = tables(id).unwrap();
    let placements = placements
        .iter()
        .map(|ms| ms.iter().map(|m| parse_move(&t, m).unwrap()).collect())
        .collect();
    let e = Position::from_setup(
        &t,
        &Setup {
            placements,
            turn,
            out,
        },
    )
    .unwrap_err();
    let text = e.describe(&t);
    (e, text)
}

#[test]
fn broken_setups_say_what_is_wrong() {
    let (e, text) = err("duo", &[&["e10,f10"], &["f10,g10"]], SetupTurn::Color(0), 0);
    assert_eq!(
        e,
        SetupError::Overlap {
            color: 1,
            index: 0,
            cell: 131
        }
    );
    assert_eq!(text, "1st piece of Orange: f10 is already covered");
    assert_eq!(e.placement(), Some((1, 0)));

    let (e, text) = err("duo", &[&["e10,f10", "e11"]], SetupTurn::Color(0), 0);
    assert_eq!(e.kind(), "own_edge");
    assert_eq!(
        text,
        "2nd piece of Purple: e11 shares an edge with another piece of Purple"
    );

    let (e, text) = err("duo", &[&["a1", "c1"]], SetupTurn::Color(0), 0);
    assert_eq!(e.kind(), "too_many_copies");
    assert_eq!(
        text,
        "2nd piece of Purple: Purple has only 1 copy of piece 1"
    );

    let (e, text) = err("junior", &[&["a1", "c1", "e1"]], SetupTurn::Color(0), 0);
    assert_eq!(e.kind(), "too_many_copies");
    assert_eq!(
        text,
        "3rd piece of Green: Green has only 2 copies of piece 1"
    );

    let (e, text) = err("duo", &[], SetupTurn::Color(2), 0);
    assert_eq!(e, SetupError::NoColor { color: 2 });
    assert_eq!(text, "duo has no colour 2 (colours are 0..1)");

    let (e, text) = err("duo", &[], SetupTurn::GameOver, 0);
    assert_eq!(e, SetupError::NotOver { color: 0 });
    assert_eq!(
        text,
        "the game is said to be over, but Purple has a legal move"
    );

    let (e, text) = err("duo", &[], SetupTurn::Color(1), 0b10);
    assert_eq!(e, SetupError::CanMove { color: 1 });
    assert_eq!(text, "Orange is listed as out but has a legal move");

    // Orange's start point is covered by Purple: Orange cannot move.
    let (e, text) = err("duo", &[&["j5"]], SetupTurn::Color(1), 0);
    assert_eq!(e, SetupError::CannotMove { color: 1 });
    assert_eq!(text, "Orange is to move but has no legal move");

    let (e, _) = err("duo", &[&["j5"]], SetupTurn::Color(1), 0b10);
    assert_eq!(e, SetupError::ToMoveIsOut { color: 1 });

    let (e, _) = err("duo", &[&[], &[], &[]], SetupTurn::Color(0), 0);
    assert_eq!(e, SetupError::TooManyColors { given: 3 });
}

#[test]
fn groups_of_cells_are_the_pieces() {
    let t = tables("duo").unwrap();
    let mut colors = vec![None; t.variant.num_cells()];
    for name in ["e10", "f10", "g11"] {
        colors[t.variant.parse_cell(name).unwrap()] = Some(0);
    }
    colors[t.variant.parse_cell("e11").unwrap()] = Some(1);
    let groups = pieces_of_cells(&t, &colors);
    let texts: Vec<(usize, String, bool)> = groups
        .iter()
        .map(|g| {
            (
                g.color,
                blokus_core::notation::cells_text(&t, &g.cells),
                g.placement.is_some(),
            )
        })
        .collect();
    assert_eq!(
        texts,
        vec![
            (0, "e10,f10".to_string(), true),
            (1, "e11".to_string(), true),
            (0, "g11".to_string(), true),
        ]
    );
}

fn ids(t: &Tables, texts: &[&str]) -> Vec<u32> {
    texts.iter().map(|m| parse_move(t, m).unwrap()).collect()
}

#[test]
fn stacked_pieces_may_come_in_any_order() {
    // Blue's second piece rests on Yellow's c1@1, which the setup puts down after it.
    let t = tables("3d_tower").unwrap();
    let moves = [
        "a1@1,b1@1",
        "c1@1,c2@1",
        "d1@1,d2@1",
        "d3@1,d4@1",
        "a1@2,b1@2,c1@2",
    ];
    let mut played = Board::new(t.clone());
    for m in moves {
        played.play_text(m).unwrap();
    }
    let setup = Setup {
        placements: vec![
            ids(&t, &[moves[0], moves[4]]),
            ids(&t, &[moves[1]]),
            ids(&t, &[moves[2]]),
            ids(&t, &[moves[3]]),
        ],
        turn: SetupTurn::Color(1),
        out: 0,
    };
    let b = Board::from_setup(t.clone(), &setup).unwrap();
    same_behaviour(&t, played.position(), b.position(), "3d_tower");
    assert_eq!(b.placements(), played.placements());
    // The top piece first: the same board, only another last piece.
    let mut top_first = setup.clone();
    top_first.placements[0].reverse();
    let c = Position::from_setup(&t, &top_first).unwrap();
    assert_eq!(c.surface, played.position().surface);
    assert_eq!(c.legal_moves(&t), played.legal_moves());
}

#[test]
fn broken_3d_setups_say_what_is_wrong() {
    let (e, text) = err("3d_tower", &[&["a1@2,b1@2,b1@1"]], SetupTurn::Color(1), 0);
    assert_eq!(e.kind(), "unsupported");
    assert_eq!(e.placement(), Some((0, 0)));
    assert_eq!(
        text,
        "1st piece of Blue: nothing beneath a1@2 (a1@1 is empty)"
    );

    // Support is judged on the whole board: a cube over another colour's later piece is fine,
    // a cube over an empty cell is not, whoever is at fault.
    let (e, text) = err(
        "3d_tower",
        &[&["c1@2,d1@2"], &["c1@1,b1@1"]],
        SetupTurn::Color(2),
        0,
    );
    assert_eq!(e.placement(), Some((0, 0)));
    assert_eq!(
        text,
        "1st piece of Blue: nothing beneath d1@2 (d1@1 is empty)"
    );

    let (e, text) = err(
        "3d_tower",
        &[&["a1@1,b1@1"], &["b1@1,c1@1"]],
        SetupTurn::Color(0),
        0,
    );
    assert_eq!(e.kind(), "overlap");
    assert_eq!(text, "1st piece of Yellow: b1@1 is already covered");

    let (e, text) = err(
        "3d_tower",
        &[&["a1@1,b1@1", "a2@1,b2@1"]],
        SetupTurn::Color(0),
        0,
    );
    assert_eq!(e.kind(), "too_many_copies");
    assert_eq!(text, "2nd piece of Blue: Blue has only 1 copy of piece I2");

    // Pieces of one colour may share faces (unlike on flat boards).
    let t = tables("3d_tower").unwrap();
    let setup = Setup {
        placements: vec![ids(&t, &["a1@1,b1@1", "a2@1,b2@1,c2@1", "a1@2,a2@2,b2@2"])],
        turn: SetupTurn::Color(0),
        out: 0,
    };
    assert!(Position::from_setup(&t, &setup).is_ok());
}

#[test]
fn out_colours_under_knock_out_may_have_moves() {
    // Blokus 3D knocks a colour out for good once it cannot move; room may open later, so an
    // out colour with a legal move is a position of the game.
    let t = tables("3d_tower").unwrap();
    let pieces = vec![ids(&t, &["a1@1,b1@1"])];
    let setup = Setup {
        placements: pieces.clone(),
        turn: SetupTurn::Color(2),
        out: 0b0010,
    };
    let pos = Position::from_setup(&t, &setup).unwrap();
    assert!(pos.has_move(&t, 1));
    assert_eq!((pos.to_move, pos.out), (2, 0b0010));
    let mut next = pos;
    next.play(&t, parse_move(&t, "c1@1,d1@1").unwrap());
    assert_eq!(next.to_move, 3, "Yellow stays out");

    // The colour to move cannot be out; a finished game needs every colour out or blocked.
    let (e, _) = err("3d_tower", &[&["a1@1,b1@1"]], SetupTurn::Color(1), 0b0010);
    assert_eq!(e, SetupError::ToMoveIsOut { color: 1 });
    let (e, text) = err("3d_tower", &[&["a1@1,b1@1"]], SetupTurn::GameOver, 0b1101);
    assert_eq!(e, SetupError::NotOver { color: 1 });
    assert_eq!(
        text,
        "the game is said to be over, but Yellow has a legal move"
    );
    let over = Setup {
        placements: pieces,
        turn: SetupTurn::GameOver,
        out: 0b1111,
    };
    let pos = Position::from_setup(&t, &over).unwrap();
    assert_eq!((pos.to_move, pos.out), (NO_COLOR, 0b1111));
    assert_eq!(pos.count_moves(&t), 0);
}

#[test]
fn where_blocked_colours_are_skipped_nobody_is_out_before_the_end() {
    let spec = r#"{"id": "hut", "board": {"geometry": "cube", "structure": ["44", "45"]},
        "colors": ["Blue", "Red"], "players": [[0], [1]], "pieces": {}, "blocked": "skip"}"#;
    let t = Tables::new(blokus_core::Variant::from_json(spec).unwrap());
    let setup = |out: u8, turn: SetupTurn| Setup {
        placements: vec![],
        turn,
        out,
    };
    // Red cannot move yet (its first piece must touch a cube), but is not out: it is skipped.
    let e = Position::from_setup(&t, &setup(0b10, SetupTurn::Color(0))).unwrap_err();
    assert_eq!(e, SetupError::NeverOut { color: 1 });
    assert_eq!(
        e.describe(&t),
        "Red is listed as out, but hut skips a blocked colour instead: nobody is out before \
         the game is over"
    );
    let e = Position::from_setup(&t, &setup(0b01, SetupTurn::Color(1))).unwrap_err();
    assert_eq!(e, SetupError::CanMove { color: 0 });
    let pos = Position::from_setup(&t, &setup(0, SetupTurn::Color(0))).unwrap();
    assert_eq!((pos.to_move, pos.out), (0, 0));
}
