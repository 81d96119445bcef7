//! Replays the Blokus 3D conformance games (`../shared/conformance/3d_*.jsonl.gz`): the colour to
//! move and its player, the exact legal move set at every turn, each colour knocked out exactly
//! where the record says, and the visible columns, pieces left, points and winners at the end.

mod common;

use blokus_core::{tables, Board, Scoring};
use serde_json::Value;

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect()
}

fn replay(variant: &str) {
    let t = tables(variant).unwrap();
    let n = t.variant().num_colors();
    for (games, game) in common::conformance_games(variant).into_iter().enumerate() {
        assert_eq!(game["variant"], variant);
        assert_eq!(game["num_colors"].as_u64().unwrap() as usize, n);
        let mut board = Board::new(t.clone());
        // Colours our rules knocked out since the last move, in turn order, not yet matched
        // against the record's `move: null` plies.
        let mut newly_out: Vec<usize> = (0..n).filter(|&c| board.position().is_out(c)).collect();
        for ply in game["plies"].as_array().unwrap() {
            let at = format!("{variant} game {games} ply {}", ply["ply"]);
            let color = ply["color"].as_u64().unwrap() as usize;
            let Some(text) = ply["move"].as_str() else {
                assert!(ply["legal"].as_array().unwrap().is_empty(), "{at}");
                assert_eq!(
                    newly_out.first(),
                    Some(&color),
                    "{at}: the record knocks out colour {color}"
                );
                newly_out.remove(0);
                continue;
            };
            assert!(newly_out.is_empty(), "{at}: we knocked out {newly_out:?}");
            assert_eq!(board.turn(), Some(color), "{at}");
            assert_eq!(board.player(), Some(common::field(ply, "player")), "{at}");
            let ours = common::our_legal_texts(&board);
            let theirs = common::legal_texts(ply);
            assert_eq!(
                ours.len(),
                ply["n_legal"].as_u64().unwrap() as usize,
                "{at}"
            );
            assert_eq!(ours, theirs, "{at}");
            let before = *board.position();
            board
                .play_text(text)
                .unwrap_or_else(|e| panic!("{at}: {e:?}"));
            assert_eq!(board.move_text(board.moves().last().unwrap()), text, "{at}");
            let now = board.position();
            newly_out = (1..=n)
                .map(|i| (color + i) % n)
                .filter(|&c| now.is_out(c) && !before.is_out(c))
                .collect();
        }
        assert!(
            newly_out.is_empty(),
            "{variant} game {games}: {newly_out:?}"
        );
        assert_eq!(board.turn(), None, "{variant} game {games} should be over");
        let fin = &game["final"];
        let pos = board.position();
        let mut visible = vec![0i64; n];
        for c in board.top_colors().into_iter().flatten() {
            visible[c] += 1;
        }
        assert_eq!(
            visible,
            ints(&fin["visible"]),
            "{variant} game {games} visible"
        );
        let left: Vec<i64> = (0..n)
            .map(|c| (t.variant().pieces_per_color() - pos.placed(c)) as i64)
            .collect();
        assert_eq!(
            left,
            ints(&fin["pieces_left"]),
            "{variant} game {games} left"
        );
        let points = board.points(Scoring::Advanced);
        let as_i64: Vec<i64> = points.iter().map(|&p| i64::from(p)).collect();
        assert_eq!(
            as_i64,
            ints(&fin["points_per_color"]),
            "{variant} game {games}"
        );
        let winners: Vec<i64> = board.winners().iter().map(|&p| p as i64).collect();
        assert_eq!(
            winners,
            ints(&fin["winners"]),
            "{variant} game {games} winners"
        );
        let line: Vec<String> = points.iter().map(|p| p.to_string()).collect();
        assert_eq!(board.result_line(), line.join(" "));
    }
}

#[test]
fn tower() {
    replay("3d_tower");
}

#[test]
fn wall() {
    replay("3d_wall");
}

#[test]
fn steps() {
    replay("3d_steps");
}

#[test]
fn pyramid() {
    replay("3d_pyramid");
}

#[test]
fn pyramid_3() {
    replay("3d_pyramid_3");
}

#[test]
fn steps_2() {
    replay("3d_steps_2");
}
