//! The search: legal choices on every board, the same search for the same seed, budgets, the
//! subtree kept between moves, analyses that add up, and evaluators.

use std::sync::Arc;

use super::{Budget, Evaluation, Search, SearchConfig};
use crate::game::board::Board;
use crate::position::Position;
use crate::rng::Rng;
use crate::tables::{tables, Tables};
use crate::testing::odd_variants;

fn search_of(t: &Arc<Tables>, seed: u64) -> Search {
    let config = SearchConfig {
        seed,
        ..SearchConfig::for_variant(&t.variant)
    };
    Search::new(Arc::clone(t), config)
}

/// A game with the search choosing every move in `sims` simulations; its moves.
fn searched_game(t: &Arc<Tables>, seed: u64, sims: u64) -> Vec<u32> {
    game_of(search_of(t, seed), sims)
}

/// A game with `search` choosing every move in `sims` simulations; its moves.
fn game_of(mut search: Search, sims: u64) -> Vec<u32> {
    let t = search.tables();
    let mut board = Board::new(t);
    while !board.position().is_game_over() {
        search.set_board(&board);
        let a = search.run(Budget::simulations(sims), &mut || true);
        assert_eq!(a.simulations, sims);
        let best = a.moves[0].id;
        board
            .play(best)
            .unwrap_or_else(|e| panic!("the search chose {best}: {e}"));
    }
    board.moves().collect()
}

#[test]
fn the_search_chooses_legal_moves_on_every_board() {
    for (id, t) in odd_variants() {
        let moves = searched_game(&t, 1, 12);
        assert!(!moves.is_empty(), "{id}");
    }
}

/// A game with a search whose playouts play the last good replies or not (`replies`)
/// choosing every move in `sims` simulations on `threads` threads; its moves.
fn replying_game(t: &Arc<Tables>, seed: u64, sims: u64, threads: usize, replies: bool) -> Vec<u32> {
    let config = SearchConfig {
        seed,
        threads,
        replies,
        ..SearchConfig::for_variant(&t.variant)
    };
    game_of(Search::new(Arc::clone(t), config), sims)
}

#[test]
fn searches_whose_playouts_reply_play_by_the_rules_and_the_seed() {
    // On every board (Blokus 3D plays on without replies), on one thread and on two that
    // share the replies; one thread and one seed search the same way, the replies change
    // the search, and the default search replies.
    for (id, t) in odd_variants() {
        assert!(!replying_game(&t, 1, 24, 1, true).is_empty(), "{id}");
        assert!(!replying_game(&t, 1, 24, 2, true).is_empty(), "{id}");
    }
    let t = tables("duo").unwrap();
    let replying = replying_game(&t, 5, 200, 1, true);
    assert_eq!(replying, replying_game(&t, 5, 200, 1, true));
    assert_ne!(replying, replying_game(&t, 5, 200, 1, false));
    assert_eq!(replying, searched_game(&t, 5, 200));
}

#[test]
fn each_board_gets_its_tuning() {
    let of = |id: &str| SearchConfig::for_variant(&tables(id).unwrap().variant);
    let plain = SearchConfig::default();
    for id in ["duo", "junior", "classic", "classic_2", "classic_3"] {
        let c = of(id);
        assert_eq!(
            (c.max_children, c.first_children, c.widening, c.expand_after),
            (plain.max_children, 16, 2.0, plain.expand_after),
            "{id}"
        );
        assert_ne!(c.prior_weights, plain.prior_weights, "{id}: learned priors");
        assert!(c.replies && !plain.replies, "{id}: replies");
    }
    for id in ["trigon", "trigon_2", "trigon_3"] {
        let c = of(id);
        assert_eq!(
            (c.max_children, c.first_children, c.expand_after),
            (plain.max_children, 0, 4),
            "{id}"
        );
        assert_ne!(
            c.prior_weights,
            of("duo").prior_weights,
            "{id}: its own priors"
        );
        assert!(c.replies, "{id}: replies");
    }
    assert_eq!(of("3d_tower"), plain);
}

#[test]
fn one_thread_and_one_seed_search_the_same_way() {
    let t = tables("duo").unwrap();
    assert_eq!(searched_game(&t, 5, 60), searched_game(&t, 5, 60));
    assert_ne!(searched_game(&t, 5, 60), searched_game(&t, 6, 60));
}

#[test]
fn analyses_add_up() {
    for id in ["duo", "classic_3", "trigon_2", "3d_tower_2x2"] {
        let t = tables(id).unwrap();
        let mut board = Board::new(Arc::clone(&t));
        let mut rng = Rng::new(2);
        for _ in 0..6 {
            board.play(board.sample_move(&mut rng).unwrap()).unwrap();
        }
        let mut search = search_of(&t, 3);
        search.set_board(&board);
        let a = search.run(Budget::simulations(400), &mut || true);
        assert_eq!(a.simulations, 400, "{id}");
        let visits: u32 = a.moves.iter().map(|m| m.visits).sum();
        assert_eq!(
            visits, 400,
            "{id}: every simulation goes through one root move"
        );
        assert_eq!(a.root_visits, 400, "{id}");
        assert!(
            a.moves.windows(2).all(|w| w[0].visits >= w[1].visits),
            "{id}"
        );
        assert_eq!(a.pv.first(), Some(&a.moves[0].id), "{id}");
        let legal = board.legal_moves();
        assert!(a.moves.iter().all(|m| legal.contains(&m.id)), "{id}");
        assert!(a.value.iter().all(|v| (0.0..=1.0).contains(v)), "{id}");
        let total: f32 = a.value.iter().sum();
        // Win shares sum to 1; the margin part adds a little for more than two players.
        assert!(
            (0.95..=1.05 + 0.2).contains(&total),
            "{id}: values sum to {total}"
        );
        // The priors of the moves a node considers at first sum to 1 (all of them where it
        // does not widen).
        let mut priors: Vec<f32> = a.moves.iter().map(|m| m.prior).collect();
        priors.sort_by(|a, b| b.total_cmp(a));
        let first = match search.config().first_children {
            0 => priors.len(),
            k => k.min(priors.len()),
        };
        let total: f32 = priors[..first].iter().sum();
        assert!((total - 1.0).abs() < 1e-3, "{id}: priors sum to {total}");
        assert!(priors.iter().all(|&p| p > 0.0), "{id}");
    }
}

#[test]
fn the_subtree_of_the_moves_played_is_kept() {
    let t = tables("duo").unwrap();
    let mut board = Board::new(Arc::clone(&t));
    let mut search = search_of(&t, 4);
    search.set_board(&board);
    let a = search.run(Budget::simulations(2000), &mut || true);
    board.play(a.pv[0]).unwrap();
    board.play(a.pv[1]).unwrap();
    search.set_board(&board);
    let kept = search.analysis(0, 0.0).root_visits;
    assert!(kept > 0, "the reply's node keeps its simulations");
    let b = search.run(Budget::simulations(100), &mut || true);
    assert_eq!(b.root_visits, kept + 100);
    // An earlier position is another game for the tree: it starts afresh.
    search.set_board(&Board::new(Arc::clone(&t)));
    assert_eq!(search.analysis(0, 0.0).root_visits, 0);
}

/// Each finished game in `search`'s tree (from the root `board`), checked against its position:
/// the game is over there, its values are those of its points, and every simulation that
/// reached it backed them up. Returns how many there are.
fn check_finals(search: &Search, board: &Board) -> usize {
    let (tree, cfg, v) = (&search.tree, &search.config, &search.t.variant);
    let mut stack = vec![(tree.root, board.clone())];
    let mut finals = 0;
    while let Some((node, at)) = stack.pop() {
        let n = &tree.nodes[node as usize];
        if let Some(values) = tree.final_values(node) {
            assert!(
                at.position().is_game_over(),
                "a finished node's game goes on"
            );
            let points = at.points(v.scoring);
            assert_eq!(values, super::values(v, &points, cfg.margin_weight));
            for (p, &v) in values.iter().enumerate() {
                let backed_up = n.visits as f32 * v;
                assert!((n.value[p] - backed_up).abs() <= 1e-3 * backed_up.max(1.0));
            }
            finals += 1;
            continue;
        }
        assert!(
            !(n.expanded && n.len == 0),
            "an expanded node without moves is a finished game"
        );
        for e in tree
            .edges_of(node)
            .iter()
            .filter(|e| e.child != super::tree::NONE)
        {
            let mut next = at.clone();
            next.play(e.id).unwrap();
            stack.push((e.child, next));
        }
    }
    finals
}

#[test]
fn finished_games_in_the_tree_keep_their_own_values() {
    for id in ["duo", "classic_2", "trigon_2"] {
        let t = tables(id).unwrap();
        // Late in a game, where the search reaches the end of the game.
        let mut board = Board::new(Arc::clone(&t));
        let mut rng = Rng::new(7);
        while board.legal_moves().len() > 4 || board.ply() < 8 {
            let Some(id) = board.sample_move(&mut rng) else {
                break;
            };
            board.play(id).unwrap();
        }
        let mut search = search_of(&t, 1);
        search.set_board(&board);
        search.run(Budget::simulations(3000), &mut || true);
        assert!(
            check_finals(&search, &board) > 0,
            "{id}: the search met no end of the game"
        );
        // The kept subtree keeps them, and the evaluated search (values by playouts) too.
        let next = search.analysis(0, 0.0).pv[0];
        board.play(next).unwrap();
        search.set_board(&board);
        check_finals(&search, &board);
        let mut evaluate = |positions: &[Position], _: &[Vec<u32>]| {
            let none = Evaluation {
                priors: vec![0.0; t.num_placements()],
                values: None,
            };
            Some(vec![none; positions.len()])
        };
        search.run_evaluated(Budget::simulations(2000), 8, &mut evaluate);
        assert!(check_finals(&search, &board) > 0, "{id}");
    }
}

#[test]
fn a_time_budget_stops_the_search_and_so_does_go_on() {
    let t = tables("classic").unwrap();
    let mut search = search_of(&t, 1);
    search.set_board(&Board::new(Arc::clone(&t)));
    let a = search.run(Budget::seconds(0.05), &mut || true);
    assert!(a.simulations > 0 && a.seconds >= 0.05, "{a:?}");
    let mut asked = 0;
    let b = search.run(Budget::seconds(1e6), &mut || {
        asked += 1;
        asked < 3
    });
    assert!(b.simulations > 0 && asked == 3);
}

#[test]
fn threads_share_one_tree() {
    let t = tables("duo").unwrap();
    let config = SearchConfig {
        threads: 2,
        ..SearchConfig::for_variant(&t.variant)
    };
    let mut search = Search::new(Arc::clone(&t), config);
    search.set_board(&Board::new(Arc::clone(&t)));
    let a = search.run(Budget::simulations(3000), &mut || true);
    assert_eq!(a.root_visits, 3000);
    assert_eq!(a.moves.iter().map(|m| m.visits).sum::<u32>(), 3000);
}

#[test]
fn evaluators_give_the_priors_and_the_values() {
    let t = tables("duo").unwrap();
    let n = t.num_placements();
    let board = Board::new(Arc::clone(&t));
    let favourite = board.legal_moves()[7];
    // All the prior on one move, and values that always favour player 0.
    let mut calls = Vec::new();
    let mut search = search_of(&t, 1);
    search.set_board(&board);
    let a = search.run_evaluated(Budget::simulations(64), 8, &mut |positions, ways| {
        calls.push(positions.len());
        assert_eq!(positions.len(), ways.len());
        Some(
            positions
                .iter()
                .map(|_| {
                    let mut priors = vec![0.0; n];
                    priors[favourite as usize] = 1.0;
                    Evaluation {
                        priors,
                        values: Some(vec![0.9, 0.1]),
                    }
                })
                .collect(),
        )
    });
    assert_eq!(a.simulations, 64);
    assert_eq!(a.moves[0].id, favourite);
    assert!((a.value[0] - 0.9).abs() < 1e-4, "{:?}", a.value);
    assert_eq!(calls[0], 1, "the root first");
    assert!(calls[1..].iter().all(|&k| (1..=8).contains(&k)) && calls.len() >= 9);
    // Priors all zero: every move alike; values None: playouts.
    let mut search = search_of(&t, 1);
    search.set_board(&board);
    let b = search.run_evaluated(Budget::simulations(64), 16, &mut |positions, _| {
        Some(
            positions
                .iter()
                .map(|_| Evaluation {
                    priors: vec![0.0; n],
                    values: None,
                })
                .collect(),
        )
    });
    assert!(b
        .moves
        .iter()
        .all(|m| (m.prior - b.moves[0].prior).abs() < 1e-6));
    assert_eq!(b.root_visits, 64);
    // An evaluator that stops the search.
    let mut search = search_of(&t, 1);
    search.set_board(&board);
    let c = search.run_evaluated(Budget::simulations(64), 4, &mut |_, _| None);
    assert_eq!(c.simulations, 0);
}

#[test]
fn an_evaluated_search_does_not_begin_a_batch_it_has_no_time_for() {
    let t = tables("duo").unwrap();
    let n = t.num_placements();
    let mut search = search_of(&t, 1);
    search.set_board(&Board::new(Arc::clone(&t)));
    // Calls of 30 ms within 0.1 s: the root's, then batches ending at about 60 and 90 ms;
    // one more would end past the budget, so the search stops at about 90 ms.
    let even = |positions: &[Position]| {
        positions
            .iter()
            .map(|_| Evaluation {
                priors: vec![0.0; n],
                values: Some(vec![0.5, 0.5]),
            })
            .collect()
    };
    let a = search.run_evaluated(Budget::seconds(0.1), 8, &mut |positions, _| {
        std::thread::sleep(std::time::Duration::from_millis(30));
        Some(even(positions))
    });
    assert!(a.simulations >= 8, "{a:?}");
    assert!(a.seconds < 0.1, "{} s for a budget of 0.1 s", a.seconds);
    // Two plies before the end of a game every leaf is soon a final one, which asks the
    // evaluator nothing: the clock stops the search all the same.
    let mut board = Board::new(Arc::clone(&t));
    let mut rng = Rng::new(5);
    while let Some(id) = board.sample_move(&mut rng) {
        board.play(id).unwrap();
    }
    board.undo();
    board.undo();
    search.set_board(&board);
    let budget = Budget {
        simulations: Some(1 << 40),
        seconds: Some(0.05),
    };
    let b = search.run_evaluated(budget, 8, &mut |positions, _| Some(even(positions)));
    assert!(b.seconds < 0.5, "{} s for a budget of 0.05 s", b.seconds);
}

/// The flat-board features of a move, counted cell by cell from the geometry's neighbour
/// formulas and the colours' attach and forbidden cells (no sets of the placement).
fn plain_corner_features(
    t: &Tables,
    pos: &crate::position::Position,
    id: u32,
    last: Option<u32>,
) -> [f32; 8] {
    use crate::position::RuleState;
    use std::collections::{HashMap, HashSet};
    let v = &t.variant;
    let index: HashMap<[i32; 3], usize> =
        v.cells().iter().enumerate().map(|(i, &c)| (c, i)).collect();
    let around = |cells: &[u16], corner: bool| -> HashSet<usize> {
        let cells: HashSet<usize> = cells.iter().map(|&x| usize::from(x)).collect();
        let edges: HashSet<usize> = cells
            .iter()
            .flat_map(|&x| v.geometry.edge_neighbours(v.cells()[x]))
            .filter_map(|c| index.get(&c).copied())
            .filter(|x| !cells.contains(x))
            .collect();
        if !corner {
            return edges;
        }
        cells
            .iter()
            .flat_map(|&x| v.geometry.corner_neighbours(v.cells()[x]))
            .filter_map(|c| index.get(&c).copied())
            .filter(|x| !cells.contains(x) && !edges.contains(x))
            .collect()
    };
    let RuleState::Corner(state) = &pos.rules else {
        unreachable!("a flat board")
    };
    let c = pos.turn().unwrap();
    let me = v.player_of(c, usize::from(pos.common.placed[c]));
    let usable =
        |d: usize, x: usize| state.attach[d].contains(x) && !state.forbidden[d].contains(x);
    let theirs = |x: usize| {
        (0..v.num_colors()).any(|d| d != c && !v.players[me].contains(&d) && usable(d, x))
    };
    let cells = t.get(id).cells();
    let edge_cells = |x: usize| {
        v.geometry
            .edge_neighbours(v.cells()[x])
            .into_iter()
            .filter_map(|c| index.get(&c).copied())
            .collect::<Vec<_>>()
    };
    let near_last: HashSet<usize> = last.map_or_else(HashSet::new, |l| {
        let lc = t.get(l).cells();
        around(lc, false)
            .union(&around(lc, true))
            .copied()
            .collect()
    });
    let n = |it: &mut dyn Iterator<Item = usize>| it.count() as f32;
    // Reach: the free cells not forbidden to a colour at most two steps (edge or corner) from
    // a set of cells.
    let step = |from: &HashSet<usize>| -> HashSet<usize> {
        let mut to = from.clone();
        for &x in from {
            let c = v.cells()[x];
            for nb in v
                .geometry
                .edge_neighbours(c)
                .into_iter()
                .chain(v.geometry.corner_neighbours(c))
            {
                to.extend(index.get(&nb).copied());
            }
        }
        to
    };
    let near = |from: &HashSet<usize>| step(&step(from));
    let occupied = |x: usize| pos.color_at(x).is_some();
    let covered: HashSet<usize> = cells.iter().map(|&x| usize::from(x)).collect();
    let spoiled: HashSet<usize> = covered.union(&around(cells, false)).copied().collect();
    let own: HashSet<usize> = (0..v.num_cells()).filter(|&x| usable(c, x)).collect();
    let own_after: HashSet<usize> = own
        .iter()
        .copied()
        .filter(|x| !spoiled.contains(x))
        .chain(
            around(cells, true)
                .into_iter()
                .filter(|&x| !state.forbidden[c].contains(x) && !spoiled.contains(&x)),
        )
        .collect();
    let reach_before = near(&own)
        .into_iter()
        .filter(|&x| !state.forbidden[c].contains(x))
        .count() as f32;
    let reach_after = near(&own_after)
        .into_iter()
        .filter(|&x| !state.forbidden[c].contains(x) && !spoiled.contains(&x))
        .count() as f32;
    let others: HashSet<usize> = (0..v.num_cells()).filter(|&x| theirs(x)).collect();
    let others_after: HashSet<usize> = others.difference(&covered).copied().collect();
    let still = near(&others_after);
    let cut = near(&others)
        .into_iter()
        .filter(|&x| !occupied(x) && (covered.contains(&x) || !still.contains(&x)))
        .count() as f32;
    [
        n(&mut around(cells, true)
            .into_iter()
            .filter(|&x| !state.forbidden[c].contains(x) && !state.attach[c].contains(x))),
        n(&mut cells.iter().map(|&x| usize::from(x)).filter(|&x| theirs(x))),
        n(&mut around(cells, false).into_iter().filter(|&x| usable(c, x))),
        n(&mut cells
            .iter()
            .map(|&x| usize::from(x))
            .filter(|&x| edge_cells(x).into_iter().any(theirs))),
        n(&mut cells
            .iter()
            .map(|&x| usize::from(x))
            .filter(|x| near_last.contains(x))),
        cells.len() as f32,
        reach_after - reach_before,
        cut,
    ]
}

/// The centre feature from the coordinates: during the mover's first four pieces,
/// `1 - d / D` for the move's cell nearest the middle (`D` half the grid's diagonal, Trigon's
/// columns half as wide), at least 0; 0 later.
fn plain_centre(t: &Tables, pos: &Position, id: u32) -> f32 {
    let v = &t.variant;
    let c = usize::from(pos.common.to_move);
    if pos.common.placed[c] >= 4 {
        return 0.0;
    }
    let scale = if matches!(v.geometry, crate::geometry::Geometry::Triangle { .. }) {
        0.5
    } else {
        1.0
    };
    let width = v.cells().iter().map(|c| c[0]).max().unwrap() as f64 * scale;
    let height = v.cells().iter().map(|c| c[1]).max().unwrap() as f64;
    let (cx, cy) = (width / 2.0, height / 2.0);
    let nearest = t
        .placements
        .footprint(id)
        .cells
        .iter()
        .map(|&x| {
            let [x, y, _] = v.cells()[usize::from(x)];
            (x as f64 * scale - cx).hypot(y as f64 - cy)
        })
        .fold(f64::INFINITY, f64::min);
    (1.0 - nearest / cx.hypot(cy).max(1.0)).max(0.0) as f32
}

#[test]
fn move_features_are_what_they_say_on_flat_boards() {
    for id in ["duo", "classic_3", "trigon", "junior"] {
        let t = tables(id).unwrap();
        let mut rng = Rng::new(4);
        let mut board = Board::new(Arc::clone(&t));
        let mut checked = 0;
        while let Some(m) = board.sample_move(&mut rng) {
            let last = board.moves().last();
            let scorer = super::features::Scorer::new(&t, board.position(), last);
            // Every ninth move: the plain count of the reach takes a while.
            for id in board.legal_moves().into_iter().step_by(9) {
                let f = scorer.features(id);
                let ours = [
                    f.gain,
                    f.blocks,
                    f.own_loss,
                    f.near_opponents,
                    f.local,
                    f.size,
                    f.reach,
                    f.cut,
                ];
                assert_eq!(
                    ours,
                    plain_corner_features(&t, board.position(), id, last),
                    "{id}"
                );
                let centre = plain_centre(&t, board.position(), id);
                assert!(
                    (f.centre - centre).abs() < 1e-5,
                    "{id}: {} {centre}",
                    f.centre
                );
                checked += 1;
            }
            board.play(m).unwrap();
        }
        assert!(checked > 300, "{id}: {checked}");
    }
}

/// What a node keeps of its moves is the best by prior and then by id, whatever order the
/// generator lists them in: scored in its order, in reverse and shuffled, the same moves come
/// out in the same order, and they are the first of all the moves sorted.
#[test]
fn the_moves_a_node_keeps_do_not_depend_on_the_order_they_are_listed_in() {
    for id in ["duo", "classic_2", "trigon_2"] {
        let t = tables(id).unwrap();
        let config = SearchConfig::for_variant(&t.variant);
        let mut rng = Rng::new(11);
        let mut board = Board::new(Arc::clone(&t));
        let mut ties = 0;
        while let Some(m) = board.sample_move(&mut rng) {
            let last = board.moves().last();
            let scorer = super::features::Scorer::new(&t, board.position(), last);
            let mut legal = board.legal_moves();
            let mut scored = Vec::new();
            super::score_moves(&scorer, &legal, &config, &mut scored);
            let mut sorted = scored.clone();
            sorted.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            ties += sorted.windows(2).filter(|w| w[0].1 == w[1].1).count();
            for k in [1, 16, legal.len() + 1] {
                let kept = |legal: &[u32]| {
                    let mut scored = Vec::new();
                    super::score_moves(&scorer, legal, &config, &mut scored);
                    super::keep_best(&mut scored, k);
                    scored
                };
                let first = kept(&legal);
                assert_eq!(first[..], sorted[..k.min(sorted.len())], "{id}: k {k}");
                legal.reverse();
                assert_eq!(kept(&legal), first, "{id}: k {k}, reversed");
                for i in (1..legal.len()).rev() {
                    legal.swap(i, rng.below(i as u64 + 1) as usize);
                }
                assert_eq!(kept(&legal), first, "{id}: k {k}, shuffled");
            }
            board.play(m).unwrap();
        }
        // Moves of one prior are common, so the order by id is what the test checks.
        assert!(ties > 100, "{id}: {ties} ties");
    }
}

#[test]
fn a_node_that_widens_from_k_moves_searches_at_first_as_one_that_keeps_k() {
    // With no widening, a node that keeps 64 moves and considers its best 16 searches as
    // one that keeps 16: the same priors for those 16, the same visits and values (the
    // other 48 are never tried). Widening then tries more of them at the root.
    let t = tables("duo").unwrap();
    let mut board = Board::new(Arc::clone(&t));
    for id in [0u64, 3, 5] {
        let moves = board.legal_moves();
        board.play_unchecked(moves[(id as usize * 7) % moves.len()]);
    }
    let search = |max_children: usize, first_children: usize, widening: f32| {
        let config = SearchConfig {
            seed: 3,
            max_children,
            first_children,
            widening,
            ..SearchConfig::for_variant(&t.variant)
        };
        let mut s = Search::new(Arc::clone(&t), config);
        s.set_board(&board);
        s.run(Budget::simulations(2_000), &mut || true)
    };
    let kept = search(16, 0, 0.0);
    let considered = search(64, 16, 0.0);
    assert_eq!(kept.moves.len(), 16);
    assert_eq!(considered.moves.len(), 64);
    assert_eq!(kept.moves[..], considered.moves[..16]);
    assert!(considered.moves[16..].iter().all(|m| m.visits == 0));
    assert_eq!(kept.pv, considered.pv);
    // sqrt(2000) is about 45: with widening 1 the root comes to consider 44 moves.
    let widened = search(64, 16, 1.0);
    let tried = widened.moves.iter().filter(|m| m.visits > 0).count();
    assert!(tried > 16, "the root tried {tried} moves");
    assert!(tried <= 45, "the root tried {tried} moves");
}
