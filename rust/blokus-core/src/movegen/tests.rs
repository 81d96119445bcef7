//! The generators against the reference generator, which knows only the rules and the board's
//! coordinates: every built-in variant and odd user boards, every colour (not only the one to
//! move), along random games.

use super::Scratch;
use crate::position::Position;
use crate::reference;
use crate::rng::Rng;
use crate::tables::Tables;
use crate::testing::{odd_variants, random_positions};

/// Checks listing, counting, "has a move", one-by-one enumeration and sampling of every colour
/// at `pos` against the reference.
fn agrees(id: &str, t: &Tables, pos: &Position, rng: &mut Rng, scratch: &mut Scratch) {
    for color in 0..t.variant.num_colors() {
        let expected = reference::legal_moves(t, pos, color);
        let mut listed = Vec::new();
        t.generator.list_into(pos, color, &mut listed);
        listed.sort_unstable();
        let at = format!("{id} colour {color} after {} placements", pos.plies());
        assert_eq!(listed, expected, "listed: {at}");
        let mut one_by_one = Vec::new();
        t.generator.for_each_move(pos, color, |m| {
            one_by_one.push(m);
            true
        });
        one_by_one.sort_unstable();
        assert_eq!(one_by_one, expected, "enumerated: {at}");
        assert_eq!(
            t.generator.count(pos, color),
            expected.len(),
            "counted: {at}"
        );
        assert_eq!(
            t.generator.has_move(pos, color),
            !expected.is_empty(),
            "{at}"
        );
        match t.generator.sample(pos, color, rng, scratch) {
            Some(m) => assert!(expected.binary_search(&m).is_ok(), "sampled {m}: {at}"),
            None => assert!(expected.is_empty(), "sampled nothing: {at}"),
        }
    }
}

#[test]
fn every_generator_lists_what_the_reference_lists() {
    let mut rng = Rng::new(3);
    let mut scratch = Scratch::default();
    for (id, t) in odd_variants() {
        let positions = random_positions(&t, 2, 11);
        // Every third position, and the last ones, where most colours are blocked.
        let n = positions.len();
        for (k, pos) in positions.iter().enumerate() {
            if k % 3 == 0 || k + 3 >= n {
                agrees(&id, &t, pos, &mut rng, &mut scratch);
            }
        }
    }
}

#[test]
fn the_reference_finds_the_first_moves_rules_md_counts() {
    // docs/RULES.md: first moves on the empty board.
    for (id, n) in [
        ("classic", 58),
        ("duo", 414),
        ("junior", 189),
        ("trigon", 2478),
        ("3d_tower", 513),
        ("3d_wall", 769),
        ("3d_steps", 1292),
        ("3d_pyramid", 2153),
    ] {
        let t = crate::tables(id).unwrap();
        let start = Position::start(&t);
        assert_eq!(reference::legal_moves(&t, &start, 0).len(), n, "{id}");
    }
}

#[test]
fn the_reference_counts_the_points_the_rules_count() {
    use crate::variant::Scoring;
    for (id, t) in odd_variants() {
        for pos in random_positions(&t, 2, 5) {
            for scoring in [Scoring::Advanced, Scoring::Basic] {
                let ours = t.rules.points(&t.variant, &pos, scoring);
                assert_eq!(
                    ours,
                    reference::points(&t, &pos, scoring),
                    "{id} {scoring:?}"
                );
            }
        }
    }
}
