//! Points, scores and results (RULES.md, "Common rules" and "Blokus 3D").

use crate::position::Position;
use crate::stacking;
use crate::table::Tables;
use crate::variant::{PlayerScore, Rules, Scoring};

/// Points of each colour under a scoring style. Blokus 3D has one way to count (visible columns
/// minus pieces left) and ignores the style.
pub fn points(t: &Tables, pos: &Position, scoring: Scoring) -> Vec<i32> {
    let v = &t.variant;
    if let Rules::Stacking { .. } = v.rules {
        return stacking::points(t, pos);
    }
    let total_cells: u32 = v
        .pieces
        .iter()
        .map(|p| p.cells.len() as u32 * u32::from(p.copies))
        .sum();
    (0..v.num_colors())
        .map(|c| {
            let placed = pos.cells_placed(c);
            match scoring {
                Scoring::Basic => placed as i32 - total_cells as i32,
                Scoring::Advanced => placed as i32 + bonus(t, pos, c) as i32,
            }
        })
        .collect()
}

/// The bonus a colour earned: all pieces placed, more if the last was the 1-cell piece.
pub fn bonus(t: &Tables, pos: &Position, color: usize) -> u32 {
    let v = &t.variant;
    if usize::from(pos.placed[color]) < v.pieces_per_color() {
        return 0;
    }
    let last_is_monomino = v.pieces[pos.last_piece[color] as usize].cells.len() == 1;
    if last_is_monomino && v.bonus_last_monomino > 0 {
        v.bonus_last_monomino
    } else {
        v.bonus_all_placed
    }
}

/// Score of each player: the points of the colours it owns, summed or its best colour's as the
/// variant says (shared colours count for nobody).
pub fn scores(t: &Tables, points: &[i32]) -> Vec<i32> {
    let of_colors = |cs: &Vec<usize>| -> i32 {
        let each = cs.iter().map(|&c| points[c]);
        match t.variant.player_score {
            PlayerScore::Sum => each.sum(),
            PlayerScore::Best => each.max().expect("a player has a colour"),
        }
    };
    t.variant.players.iter().map(of_colors).collect()
}

/// The players with the highest score (all of them on a tie).
pub fn winners(scores: &[i32]) -> Vec<usize> {
    let best = scores.iter().copied().max().unwrap_or(0);
    (0..scores.len()).filter(|&p| scores[p] == best).collect()
}

/// Pentobi's result line: `B+n`, `W+n` or `0` for two players; else every colour's points.
/// Blokus 3D (which Pentobi does not play) always gives every colour's points: with two colours
/// per player the winner is the owner of the best colour, which no difference line can show.
pub fn result_line(t: &Tables, points: &[i32]) -> String {
    if t.variant.num_players() == 2 && t.variant.rules == Rules::Corner {
        let s = scores(t, points);
        let diff = s[0] - s[1];
        match diff.signum() {
            1 => format!("B+{diff}"),
            -1 => format!("W+{}", -diff),
            _ => "0".to_string(),
        }
    } else {
        points
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The players who win a finished position (all of the tied ones).
pub fn winners_of(t: &Tables, pos: &Position) -> Vec<usize> {
    let points = points(t, pos, t.variant.scoring);
    winners(&scores(t, &points))
}

/// Reinforcement-learning rewards of a finished game, per player: +1 for a sole winner, 0 for
/// tied winners, -1 for the others.
pub fn rewards(t: &Tables, pos: &Position) -> Vec<f32> {
    let winners = winners_of(t, pos);
    (0..t.variant.num_players())
        .map(|p| match (winners.contains(&p), winners.len()) {
            (false, _) => -1.0,
            (true, 1) => 1.0,
            (true, _) => 0.0,
        })
        .collect()
}
