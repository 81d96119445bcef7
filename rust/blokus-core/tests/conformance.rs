//! Replays Pentobi's conformance games (`../shared/conformance/`) through the core: the colour
//! to move, the exact legal move set at every turn, and the points and result line at the end.

mod common;

use blokus_core::{tables, Board, Scoring};

fn replay(variant: &str) {
    let t = tables(variant).unwrap();
    for (games, game) in common::conformance_games(variant).into_iter().enumerate() {
        let mut board = Board::new(t.clone());
        for ply in game["plies"].as_array().unwrap() {
            let Some(text) = ply["move"].as_str() else {
                // A skipped colour: it must not be the one we think is to move.
                assert_ne!(board.turn(), Some(ply["color"].as_u64().unwrap() as usize));
                continue;
            };
            let at = format!("{variant} game {games} ply {}", ply["ply"]);
            assert_eq!(board.turn(), Some(common::field(ply, "color")), "{at}");
            assert_eq!(board.player(), Some(common::field(ply, "player")), "{at}");
            let ours = common::our_legal_texts(&board);
            let theirs = common::legal_texts(ply);
            assert_eq!(ours, theirs, "{at}");
            board
                .play_text(text)
                .unwrap_or_else(|e| panic!("{at}: {e:?}"));
        }
        assert_eq!(board.turn(), None, "{variant} game {games} should be over");
        let points: Vec<i64> = board
            .points(Scoring::Advanced)
            .iter()
            .map(|&p| i64::from(p))
            .collect();
        let expected: Vec<i64> = game["final"]["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_i64().unwrap())
            .collect();
        assert_eq!(points, expected, "{variant} game {games} points");
        assert_eq!(
            board.result_line(),
            game["final"]["final_score"].as_str().unwrap()
        );
    }
}

#[test]
fn classic() {
    replay("classic");
}

#[test]
fn classic_2() {
    replay("classic_2");
}

#[test]
fn classic_3() {
    replay("classic_3");
}

#[test]
fn duo() {
    replay("duo");
}

#[test]
fn junior() {
    replay("junior");
}

#[test]
fn trigon() {
    replay("trigon");
}

#[test]
fn trigon_2() {
    replay("trigon_2");
}

#[test]
fn trigon_3() {
    replay("trigon_3");
}
