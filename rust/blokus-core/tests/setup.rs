//! Setup positions: a position rebuilt from its pieces, its turn and its out colours behaves like
//! the position reached by play; broken setups are refused with the reason.

use blokus_core::notation::parse_move;
use blokus_core::position::NO_COLOR;
use blokus_core::rng::Rng;
use blokus_core::setup::pieces_of_cells;
use blokus_core::variant::builtin_ids;
use blokus_core::{tables, Board, Position, Scoring, Setup, SetupError, SetupTurn, Tables};

fn rebuilt(t: &Tables, pos: &Position) -> Position {
    let turn = if pos.to_move == NO_COLOR {
        SetupTurn::GameOver
    } else {
        SetupTurn::Color(pos.to_move as usize)
    };
    let setup = Setup {
        placements: pos.placements(t),
        turn,
        out: pos.out,
    };
    Position::from_setup(t, &setup).unwrap_or_else(|e| panic!("{}", e.describe(t)))
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
        let t = tables(id).unwrap();
        for game in 0..3 {
            let mut rng = Rng::new(7 + game);
            let mut board = Board::new(t.clone());
            loop {
                let at = format!("{id} game {game} ply {}", board.ply());
                let pos = *board.position();
                let set_up = rebuilt(&t, &pos);
                same_behaviour(&t, &pos, &set_up, &at);
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
    let placements = pos.placements(&t);
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
