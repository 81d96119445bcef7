//! Setup positions: a position rebuilt from its pieces, its turn and its out colours behaves like
//! the position reached by play; broken setups are refused with the reason.

use std::sync::Arc;

use blokus_core::{
    builtin_ids, pieces_of_cells, tables, Board, Rng, Scoring, Setup, SetupError, SetupTurn,
    Tables, Variant,
};

fn out_bits(board: &Board) -> u8 {
    let n = board.tables().variant().num_colors();
    (0..n)
        .filter(|&c| board.position().is_out(c))
        .fold(0, |bits, c| bits | 1 << c)
}

fn rebuilt(board: &Board) -> Board {
    let t = board.tables();
    let turn = match board.turn() {
        None => SetupTurn::GameOver,
        Some(c) => SetupTurn::Color(c),
    };
    let setup = Setup {
        placements: board.placements(),
        turn,
        out: out_bits(board),
    };
    Board::from_setup(t.clone(), &setup).unwrap_or_else(|e| panic!("{}", e.describe(t)))
}

/// Two boards whose positions are the same state of the game: every part the rules keep, and
/// what follows from it.
fn same_behaviour(a: &Board, b: &Board, at: &str) {
    let (p, q) = (a.position(), b.position());
    let n = a.tables().variant().num_colors();
    let pieces = a.tables().variant().pieces().len();
    assert_eq!(p.turn(), q.turn(), "{at}: to move");
    assert_eq!(out_bits(a), out_bits(b), "{at}: out");
    assert_eq!(p.hash(), q.hash(), "{at}: hash");
    assert_eq!(p.occupied(), q.occupied(), "{at}: occupied");
    for c in 0..n {
        assert_eq!(p.cells(c), q.cells(c), "{at}: cells");
        assert_eq!(p.placed(c), q.placed(c), "{at}: placed");
        assert_eq!(p.last_piece(c), q.last_piece(c), "{at}: last piece");
        for piece in 0..pieces {
            assert_eq!(
                p.copies_left(c, piece),
                q.copies_left(c, piece),
                "{at}: pieces left"
            );
        }
        if let (Some(r), Some(s)) = (p.corner(), q.corner()) {
            assert_eq!(r.forbidden(c), s.forbidden(c), "{at}: forbidden");
            // Play leaves cells other colours covered later in `attach`; only the usable ones
            // matter.
            let usable = |x: &blokus_core::CornerState| *x.attach(c) & !*x.forbidden(c);
            assert_eq!(usable(r), usable(s), "{at}: attach");
        }
    }
    if let (Some(r), Some(s)) = (p.stacking(), q.stacking()) {
        assert_eq!(r.surface(), s.surface(), "{at}: surface");
    }
    let mut ma = a.legal_moves();
    let mut mb = b.legal_moves();
    ma.sort_unstable();
    mb.sort_unstable();
    assert_eq!(ma, mb, "{at}: legal moves");
    for scoring in [Scoring::Advanced, Scoring::Basic] {
        assert_eq!(a.points(scoring), b.points(scoring), "{at}: points");
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
    let hut = Arc::new(Tables::new(Variant::from_json(spec).unwrap()));
    random_games_set_up(hut, "hut");
}

fn random_games_set_up(t: Arc<Tables>, id: &str) {
    for game in 0..3 {
        let mut rng = Rng::new(7 + game);
        let mut board = Board::new(t.clone());
        loop {
            let at = format!("{id} game {game} ply {}", board.ply());
            let pos = *board.position();
            let mut set_up = rebuilt(&board);
            assert_eq!(set_up.placements(), board.placements(), "{at}");
            same_behaviour(&board, &set_up, &at);
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
            board.play(id).unwrap();
            set_up.play(id).unwrap();
            same_behaviour(&board, &set_up, &at);
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
    assert_eq!(Some(t.placement(last).unwrap().piece()), pos.last_piece(0));
    let setup = Setup {
        placements: placements.clone(),
        turn: SetupTurn::GameOver,
        out: out_bits(&board),
    };
    let again = Board::from_setup(t.clone(), &setup).unwrap();
    for c in 0..2 {
        assert_eq!(again.position().last_piece(c), pos.last_piece(c));
    }
    assert_eq!(
        again.points(Scoring::Advanced),
        board.points(Scoring::Advanced)
    );
}

#[test]
fn first_from_skips_colours_that_cannot_move() {
    let t = tables("duo").unwrap();
    let setup = Setup {
        placements: vec![],
        turn: SetupTurn::FirstFrom(1),
        out: 0,
    };
    let b = Board::from_setup(t, &setup).unwrap();
    assert_eq!(b.turn(), Some(1));
    assert_eq!(b.count_moves(), 414);
}

fn err(id: &str, placements: &[&[&str]], turn: SetupTurn, out: u8) -> (SetupError, String) {
    let t = tables(id).unwrap();
    let placements = placements
        .iter()
        .map(|ms| ms.iter().map(|m| t.parse_move(m).unwrap()).collect())
        .collect();
    let e = Board::from_setup(
        t.clone(),
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
    let v = t.variant();
    let mut colors = vec![None; v.num_cells()];
    for name in ["e10", "f10", "g11"] {
        colors[v.parse_cell(name).unwrap()] = Some(0);
    }
    colors[v.parse_cell("e11").unwrap()] = Some(1);
    let groups = pieces_of_cells(&t, &colors);
    let texts: Vec<(usize, String, bool)> = groups
        .iter()
        .map(|g| (g.color, t.cells_text(&g.cells), g.placement.is_some()))
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
    texts.iter().map(|m| t.parse_move(m).unwrap()).collect()
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
    same_behaviour(&played, &b, "3d_tower");
    assert_eq!(b.placements(), played.placements());
    // The top piece first: the same board, only another last piece.
    let mut top_first = setup.clone();
    top_first.placements[0].reverse();
    let c = Board::from_setup(t.clone(), &top_first).unwrap();
    assert_eq!(c.position().stacking(), played.position().stacking());
    assert_eq!(c.legal_moves(), played.legal_moves());
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
    assert!(Board::from_setup(t, &setup).is_ok());
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
    let mut b = Board::from_setup(t.clone(), &setup).unwrap();
    assert!(b.has_move(1));
    assert_eq!((b.turn(), out_bits(&b)), (Some(2), 0b0010));
    b.play_text("c1@1,d1@1").unwrap();
    assert_eq!(b.turn(), Some(3), "Yellow stays out");

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
    let b = Board::from_setup(t, &over).unwrap();
    assert_eq!((b.turn(), out_bits(&b)), (None, 0b1111));
    assert_eq!(b.count_moves(), 0);
}

#[test]
fn where_blocked_colours_are_skipped_nobody_is_out_before_the_end() {
    let spec = r#"{"id": "hut", "board": {"geometry": "cube", "structure": ["44", "45"]},
        "colors": ["Blue", "Red"], "players": [[0], [1]], "pieces": {}, "blocked": "skip"}"#;
    let t = Arc::new(Tables::new(Variant::from_json(spec).unwrap()));
    let setup = |out: u8, turn: SetupTurn| Setup {
        placements: vec![],
        turn,
        out,
    };
    // Red cannot move yet (its first piece must touch a cube), but is not out: it is skipped.
    let e = Board::from_setup(t.clone(), &setup(0b10, SetupTurn::Color(0))).unwrap_err();
    assert_eq!(e, SetupError::NeverOut { color: 1 });
    assert_eq!(
        e.describe(&t),
        "Red is listed as out, but hut skips a blocked colour instead: nobody is out before \
         the game is over"
    );
    let e = Board::from_setup(t.clone(), &setup(0b01, SetupTurn::Color(1))).unwrap_err();
    assert_eq!(e, SetupError::CanMove { color: 0 });
    let b = Board::from_setup(t, &setup(0, SetupTurn::Color(0))).unwrap();
    assert_eq!((b.turn(), out_bits(&b)), (Some(0), 0));
}
