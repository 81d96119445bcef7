//! From the points of the colours to the players' scores, the winners and Pentobi's result line
//! (docs/RULES.md, "Points and results"). The points themselves are each rule family's
//! (`corner::points`, `stacking::points`).

use crate::variant::{PlayerScore, Rules, Variant};

/// Score of each player: the points of the colours it owns, summed or its best colour's as the
/// variant says (shared colours count for nobody).
///
/// ```
/// use blokus_core::{scores, Variant};
/// let v = Variant::builtin("classic_2").unwrap();
/// assert_eq!(scores(&v, &[10, 20, 30, 40]), [40, 60]);
/// ```
pub fn scores(v: &Variant, points: &[i32]) -> Vec<i32> {
    let of_colors = |cs: &Vec<usize>| -> i32 {
        let each = cs.iter().map(|&c| points[c]);
        match v.player_score {
            PlayerScore::Sum => each.sum(),
            PlayerScore::Best => each.max().unwrap_or(0),
        }
    };
    v.players.iter().map(of_colors).collect()
}

/// The players with the highest score (all of them on a tie).
///
/// ```
/// assert_eq!(blokus_core::winners(&[3, 7, 7]), [1, 2]);
/// ```
pub fn winners(scores: &[i32]) -> Vec<usize> {
    let best = scores.iter().copied().max().unwrap_or(0);
    (0..scores.len()).filter(|&p| scores[p] == best).collect()
}

/// Pentobi's result line: `B+n`, `W+n` or `0` for two players; else every colour's points.
/// Blokus 3D (which Pentobi does not play) always gives every colour's points: with two colours
/// per player the winner is the owner of the best colour, which no difference line can show.
///
/// ```
/// use blokus_core::{result_line, Variant};
/// let duo = Variant::builtin("duo").unwrap();
/// assert_eq!(result_line(&duo, &[50, 47]), "B+3");
/// let classic = Variant::builtin("classic").unwrap();
/// assert_eq!(result_line(&classic, &[64, 66, 66, 61]), "64 66 66 61");
/// ```
pub fn result_line(v: &Variant, points: &[i32]) -> String {
    if v.num_players() == 2 && v.rules == Rules::Corner {
        let s = scores(v, points);
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

/// Reinforcement-learning rewards of a finished game, per player: +1 for a sole winner, 0 for
/// tied winners, -1 for the others.
pub fn rewards(v: &Variant, points: &[i32]) -> Vec<f32> {
    let winners = winners(&scores(v, points));
    (0..v.num_players())
        .map(|p| match (winners.contains(&p), winners.len()) {
            (false, _) => -1.0,
            (true, 1) => 1.0,
            (true, _) => 0.0,
        })
        .collect()
}
