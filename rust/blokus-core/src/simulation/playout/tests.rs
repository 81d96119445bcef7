use std::collections::HashSet;

use super::policy::MOST_LOCAL;
use super::{Engine, Game, Playout, PlayoutPolicy, Replies};
use crate::geometry::{Coord, Geometry};
use crate::position::Position;
use crate::reference;
use crate::rng::Rng;
use crate::tables;
use crate::testing::{assert_uniform, odd_variants};
use crate::variant::MAX_COLORS;

#[test]
fn playouts_keep_the_legal_moves_the_reference_finds() {
    // Along games a playout drives itself: the moves its caches hold, and those it
    // enumerates one by one (each once), are the reference's at every position.
    for (id, t) in odd_variants() {
        let mut rng = Rng::new(4);
        let mut game = Playout::new(&t);
        for _ in 0..2 {
            game.reset();
            while !game.is_game_over() {
                let pos = game.position();
                let c = pos.turn().unwrap();
                let legal = reference::legal_moves(&t, &pos, c);
                assert!(!legal.is_empty(), "{id}: the colour to move has a move");
                assert_eq!(
                    game.cached_moves(),
                    legal,
                    "{id} after {} moves",
                    pos.plies()
                );
                let mut listed = Vec::new();
                game.for_each_move(|m| {
                    listed.push(m);
                    true
                });
                listed.sort_unstable();
                assert_eq!(listed, legal, "{id}: listed once each");
                let m = game.sample(&mut rng).unwrap();
                assert!(legal.binary_search(&m).is_ok(), "{id}: sampled {m}");
                game.play(m);
            }
            assert_eq!(game.sample(&mut rng), None, "{id}");
        }
    }
}

#[test]
fn playouts_sample_uniformly() {
    // Chi-square of the playout's sampler (slots counted per attach cell, a placement
    // through m live cells kept with probability 1/m) against the legal list of mid-game
    // positions. The caches are left as the moves left them (placements made illegal since
    // are cleared when a draw meets them), and every draw is made from a copy of that
    // state, so that the lazy clearing is part of every draw.
    for (id, plies) in [
        ("duo", 6),
        ("duo", 16),
        ("classic", 12),
        ("classic", 40),
        ("trigon", 30),
    ] {
        let t = tables(id).unwrap();
        let mut rng = Rng::new(21);
        let mut game = Playout::new(&t);
        for _ in 0..plies {
            let m = game.sample(&mut rng).unwrap();
            game.play(m);
        }
        let pos = game.position();
        let moves = reference::legal_moves(&t, &pos, pos.turn().unwrap());
        assert!(moves.len() > 50, "{id}: a position with a choice");
        let label = format!("{id} after {plies} plies");
        assert_uniform(&label, &moves, 100, || {
            game.clone().sample(&mut rng).unwrap()
        });
    }
}

/// The most any legal move of the colour to move on `board` scores as an answer to the
/// last three moves (`Engine::answer`), each move's score worked out from the rules' notions
/// and the geometry's neighbour formulas: a cell counts if it touches one of those moves
/// of another player at a corner only, is free and shares no edge with that colour, or if
/// it shares an edge with such a cell and is free and shares no edge with that colour; it
/// counts twice if it also touches the colour to move at a corner.
fn best_answer(board: &crate::Board, legal: &[u32]) -> (u32, Vec<u32>) {
    let t = board.tables();
    let v = &t.variant;
    let pos = board.position();
    let c = pos.turn().unwrap();
    let mine = &v.players[v.player_of(c, pos.placed(c))];
    let at: std::collections::HashMap<_, _> =
        v.cells.iter().enumerate().map(|(x, &k)| (k, x)).collect();
    let colors = board.cell_colors();
    let free = |k| at.get(&k).is_some_and(|&x| colors[x].is_none());
    let touches = |k, d, by: fn(Geometry, Coord) -> Vec<Coord>| {
        by(v.geometry, k)
            .into_iter()
            .any(|n| at.get(&n).is_some_and(|&x| colors[x] == Some(d)))
    };
    let mut near = HashSet::new();
    let recent: Vec<(u32, usize)> = board.moves().zip(board.move_colors()).collect();
    for &(m, d) in &recent[recent.len().saturating_sub(3)..] {
        if d == c || mine.contains(&d) {
            continue;
        }
        for &y in t.get(m).cells() {
            for k in v.geometry.corner_neighbours(v.cells[usize::from(y)]) {
                if !free(k) || touches(k, d, Geometry::edge_neighbours) {
                    continue;
                }
                near.insert(k);
                for e in v.geometry.edge_neighbours(k) {
                    if free(e) && !touches(e, d, Geometry::edge_neighbours) {
                        near.insert(e);
                    }
                }
            }
        }
    }
    let scores: Vec<u32> = legal
        .iter()
        .map(|&m| {
            let k: u32 = t
                .get(m)
                .cells()
                .iter()
                .map(|&x| v.cells[usize::from(x)])
                .filter(|k| near.contains(k))
                .map(|k| 1 + u32::from(touches(k, c, Geometry::corner_neighbours)))
                .sum();
            k.min(MOST_LOCAL)
        })
        .collect();
    (scores.iter().copied().max().unwrap_or(0), scores)
}

/// Calls `f` at each position of `games` random games of variant `id` (up to the end)
/// with the board and an answering playout set to it and told the moves before it.
fn along_random_games(
    id: &str,
    seed: u64,
    games: usize,
    mut f: impl FnMut(&crate::Board, &mut Playout<'_>, &mut Rng),
) {
    let t = tables(id).unwrap();
    let policy = PlayoutPolicy {
        local: true,
        ..PlayoutPolicy::UNIFORM
    };
    let mut rng = Rng::new(seed);
    for _ in 0..games {
        let mut board = crate::Board::new(t.clone());
        while let Some(m) = board.sample_move(&mut rng) {
            board.play(m).unwrap();
            if board.position().is_game_over() {
                break;
            }
            let mut game = Playout::with_policy(&t, policy);
            game.set_position(board.position());
            let recent: Vec<(u32, u8)> = board
                .moves()
                .zip(board.move_colors())
                .map(|(m, d)| (m, d as u8))
                .collect();
            game.recall(&recent);
            f(&board, &mut game, &mut rng);
        }
    }
}

#[test]
fn answers_cover_the_most_cells_the_last_moves_opened() {
    // Along random games, a playout set to each position (told the moves before it)
    // answers with a move of the highest score there is, and with none when no move scores
    // or when the colour to move has yet to put its first piece down.
    for id in [
        "duo",
        "classic",
        "classic_2",
        "classic_3",
        "trigon",
        "trigon_3",
    ] {
        let mut answered = 0;
        along_random_games(id, 31, 2, |board, game, rng| {
            let c = board.position().turn().unwrap();
            let legal = reference::legal_moves(board.tables(), board.position(), c);
            let (mut best, scores) = best_answer(board, &legal);
            if board.position().placed(c) == 0 {
                best = 0; // a colour's first piece answers nothing
            }
            let answer = match &mut game.0 {
                Game::W1(e) => e.answer(rng),
                Game::W2(e) => e.answer(rng),
                Game::W4(e) => e.answer(rng),
                Game::Plain(_) => unreachable!("{id} is a flat board"),
            };
            let label = format!("{id} after {} moves", board.ply());
            match answer {
                None => assert_eq!(best, 0, "{label}: a move scores {best}"),
                Some(a) => {
                    let i = legal.binary_search(&a).expect("a legal answer");
                    assert_eq!(scores[i], best, "{label}: answered {a}");
                    answered += 1;
                }
            }
        });
        assert!(answered > 10, "{id}: answered {answered} times");
    }
}

/// The answers of `e` by listing and by counts, each on a copy of the engine as it was.
fn answers_both_ways<const W: usize>(e: &Engine<'_, W>) -> Option<[Vec<(u32, u8)>; 2]> {
    let (near, twice, through) = e.answer_cells()?;
    let mut answers = [Vec::new(), Vec::new()];
    e.clone()
        .answers_by_listing(&through, &near, &twice, &mut answers[0]);
    e.clone()
        .answers_by_counts(&through, &near, &twice, &mut answers[1]);
    Some(answers)
}

#[test]
fn answers_by_counts_are_the_answers_by_listing() {
    // Along random games on flat boards, the two ways of finding a playout's answers give
    // the same moves with the same pieces in the same order (so a seeded playout draws the
    // same answer either way).
    for id in [
        "duo",
        "junior",
        "classic",
        "classic_2",
        "classic_3",
        "trigon",
        "trigon_3",
    ] {
        let (mut compared, mut answered) = (0, 0);
        along_random_games(id, 5, 3, |board, game, _| {
            let both = match &game.0 {
                Game::W1(e) => answers_both_ways(e),
                Game::W2(e) => answers_both_ways(e),
                Game::W4(e) => answers_both_ways(e),
                Game::Plain(_) => unreachable!("{id} is a flat board"),
            };
            if let Some([listing, counted]) = both {
                assert_eq!(listing, counted, "{id} after {} moves", board.ply());
                compared += 1;
                answered += usize::from(!listing.is_empty());
            }
        });
        assert!(
            compared > 20 && answered > 10,
            "{id}: {compared} compared, {answered} answered"
        );
    }
}

#[test]
fn playouts_that_answer_play_games_of_the_rules() {
    // Games finished by the answering, size-biased policy (on every odd board, holes and
    // shared start points included), replayed on a Board: every move legal, the same
    // points.
    let policy = PlayoutPolicy {
        local: true,
        size_bias: 1.0,
        ..PlayoutPolicy::UNIFORM
    };
    for (id, t) in odd_variants() {
        let mut game = Playout::with_policy(&t, policy);
        let mut rng = Rng::new(9);
        for _ in 0..3 {
            game.reset();
            let mut moves = Vec::new();
            let points = game.finish(&mut rng, &mut moves);
            let mut board = crate::Board::new(t.clone());
            for &(m, c) in &moves {
                assert_eq!(board.position().turn(), Some(usize::from(c)), "{id}");
                board.play(m).unwrap_or_else(|e| panic!("{id}: {e}"));
            }
            assert!(board.position().is_game_over(), "{id}: the game ended");
            assert_eq!(board.points(t.variant.scoring), points, "{id}");
        }
    }
}

#[test]
fn playouts_follow_every_policy_they_accept_to_the_end_of_the_game() {
    // At the widest spread of piece weights a policy may have, a playout still ends (the
    // lightest piece's moves are kept about once in exp(spread) draws); wider ones, and
    // weights that are no numbers, are refused.
    for (id, t) in odd_variants() {
        let sizes = t.variant.pieces.iter().map(|p| p.cells.len() as f64);
        let (small, large) = sizes.fold((f64::MAX, 0.0f64), |(s, l), n| (s.min(n), l.max(n)));
        assert!(crate::SearchConfig::for_variant(&t.variant)
            .check(&t.variant)
            .is_ok());
        if large == small {
            continue;
        }
        let widest = PlayoutPolicy::MOST_SPREAD / (std::f64::consts::LN_2 * (large - small));
        let policy = |size_bias: f64| PlayoutPolicy {
            size_bias: size_bias as f32,
            ..PlayoutPolicy::UNIFORM
        };
        assert!(policy(widest * 0.999).check(&t.variant).is_ok(), "{id}");
        assert!(policy(-widest * 0.999).check(&t.variant).is_ok(), "{id}");
        assert!(policy(widest * 1.01).check(&t.variant).is_err(), "{id}");
        assert!(policy(f64::NAN).check(&t.variant).is_err(), "{id}");
        let mut game = Playout::with_policy(&t, policy(widest * 0.999));
        let mut moves = Vec::new();
        let points = game.finish(&mut Rng::new(5), &mut moves);
        let mut board = crate::Board::new(t.clone());
        for &(m, _) in &moves {
            board.play(m).unwrap_or_else(|e| panic!("{id}: {e}"));
        }
        assert_eq!(board.points(t.variant.scoring), points, "{id}");
    }
    let duo = tables("duo").unwrap();
    let mut heavy_i5 = PlayoutPolicy::UNIFORM;
    let i5 = duo
        .variant
        .pieces
        .iter()
        .position(|p| p.name == "I5")
        .unwrap();
    heavy_i5.piece_weights[i5] = 20.0;
    let refused = heavy_i5.check(&duo.variant).unwrap_err();
    assert!(
        refused.contains("differ by 20.0") && refused.contains("duo"),
        "{refused}"
    );
}

#[test]
fn a_playout_plays_the_games_selfplay_records() {
    // play_out's games (lazy turns) are games of the rules: replayed move by move on a
    // Board, each move is legal and the points are the same.
    for (id, t) in odd_variants() {
        let mut game = Playout::new(&t);
        let mut rng = Rng::new(17);
        for _ in 0..3 {
            let mut moves = Vec::new();
            let points = game.play_out(&mut rng, Some(&mut moves));
            let mut board = crate::Board::new(t.clone());
            for &m in &moves {
                board.play(m).unwrap_or_else(|e| panic!("{id}: {e}"));
            }
            assert!(board.position().is_game_over(), "{id}: the game ended");
            assert_eq!(board.points(t.variant.scoring), points, "{id}");
            assert_eq!(game.plies() as usize, moves.len(), "{id}");
        }
    }
}

#[test]
fn kept_replies_replay_a_game_and_give_way_where_they_are_illegal() {
    // Every move of a game kept as the reply to the move before it (a tie: every player won),
    // a playout from the position after the first move plays the same game again. A reply
    // that is not legal (the move just made) gives way to the policy: the game goes on by
    // the rules.
    for (id, t) in odd_variants() {
        if t.variant.geometry == Geometry::Cube {
            continue;
        }
        let policy = crate::SearchConfig::for_variant(&t.variant).playout;
        let mut game = Playout::with_policy(&t, policy);
        let mut rng = Rng::new(3);
        let mut moves = Vec::new();
        game.finish(&mut rng, &mut moves);
        let start = Position::start(&t);
        let mut first = crate::Board::new(t.clone());
        first.play(moves[0].0).unwrap();

        let replies = Replies::new(&t);
        replies.learn(&t, &start, None, moves.iter().copied(), &[0.5; MAX_COLORS]);
        game.set_position(first.position());
        let mut again = Vec::new();
        let points = game.finish_replying(&mut rng, &mut again, &replies, Some(moves[0].0));
        let once = t.variant.pieces.iter().all(|p| p.copies == 1);
        if once {
            // (With copies a placement may come twice, and keep one reply for both.)
            assert_eq!(again, moves[1..], "{id}");
        }

        let illegal = Replies::new(&t);
        let (m, c) = moves[0];
        let next = first.position().turn().unwrap() as u8;
        illegal.learn(
            &t,
            &start,
            None,
            [(m, c), (m, next)].into_iter(),
            &[0.5; MAX_COLORS],
        );
        assert_eq!(illegal.reply(usize::from(next), m), Some(m), "{id}");
        game.set_position(first.position());
        let mut on = Vec::new();
        let points_on = game.finish_replying(&mut rng, &mut on, &illegal, Some(m));
        let mut board = first.clone();
        for &(m, c) in &on {
            assert_eq!(board.position().turn(), Some(usize::from(c)), "{id}");
            board.play(m).unwrap_or_else(|e| panic!("{id}: {e}"));
        }
        assert!(board.position().is_game_over(), "{id}: the game ended");
        assert_eq!(board.points(t.variant.scoring), points_on, "{id}");
        if once {
            let mut replayed = first.clone();
            for &(m, _) in &again {
                replayed.play(m).unwrap();
            }
            assert_eq!(replayed.points(t.variant.scoring), points, "{id}");
        }
    }
}

#[test]
fn replies_keep_the_winners_moves_and_forget_the_losers() {
    let t = tables("duo").unwrap();
    let mut game = Playout::new(&t);
    let mut moves = Vec::new();
    game.finish(&mut Rng::new(8), &mut moves);
    let start = Position::start(&t);
    let replies = Replies::new(&t);
    let won_by = |p: usize| {
        let mut values = [0.0; MAX_COLORS];
        values[p] = 1.0;
        values
    };
    let kept = |replies: &Replies, c: u8| {
        moves
            .windows(2)
            .filter(|w| w[1].1 == c)
            .all(|w| replies.reply(usize::from(c), w[0].0) == Some(w[1].0))
    };
    let none = |replies: &Replies, c: u8| {
        moves
            .windows(2)
            .filter(|w| w[1].1 == c)
            .all(|w| replies.reply(usize::from(c), w[0].0).is_none())
    };
    replies.learn(&t, &start, None, moves.iter().copied(), &won_by(0));
    assert!(kept(&replies, 0) && none(&replies, 1));
    replies.learn(&t, &start, None, moves.iter().copied(), &won_by(1));
    assert!(none(&replies, 0) && kept(&replies, 1));
    // A loss forgets only the reply it played: one kept since stays.
    let other = moves[3].0;
    replies.learn(
        &t,
        &start,
        Some(moves[0].0),
        [(other, moves[1].1)].into_iter(),
        &won_by(1),
    );
    replies.learn(
        &t,
        &start,
        Some(moves[0].0),
        [(moves[1].0, moves[1].1)].into_iter(),
        &won_by(0),
    );
    assert_eq!(
        replies.reply(usize::from(moves[1].1), moves[0].0),
        Some(other)
    );
}
