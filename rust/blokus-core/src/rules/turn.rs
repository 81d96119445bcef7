//! Turn order (docs/RULES.md): colours move in a fixed cyclic order; a colour with no legal move on
//! its turn is skipped. On flat boards it never gets a move back, and in Blokus 3D it is out for
//! good unless the variant skips blocked colours. The game ends when nobody can move.

use crate::position::{zobrist, Common, NO_COLOR, TO_MOVE_KEY};

/// Who moves after a move (or at the start of a setup), and who is out then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Turn {
    /// The colour to move, or `None` at the end of the game.
    pub(crate) next: Option<usize>,
    /// Bit `c` set for every colour out of the game.
    pub(crate) out: u8,
}

/// The turn after colour `after` (in cyclic order, `after` itself last) among `n` colours:
/// the first colour not yet out that `can_move`. Colours asked and unable to move are out where
/// the rules `knock_out`; when nobody can move, everybody is out.
#[inline(always)]
pub(crate) fn next_turn(
    n: usize,
    out: u8,
    after: usize,
    knocks_out: bool,
    mut can_move: impl FnMut(usize) -> bool,
) -> Turn {
    let mut out = out;
    for i in 1..=n {
        let d = (after + i) % n;
        if out & (1 << d) != 0 {
            continue;
        }
        if can_move(d) {
            return Turn { next: Some(d), out };
        }
        if knocks_out {
            out |= 1 << d;
        }
    }
    // Nobody can move, so nobody ever will.
    Turn {
        next: None,
        out: ((1u16 << n) - 1) as u8,
    }
}

impl Common {
    /// Makes `turn` the state of the game, keeping the hash of the colour to move.
    #[inline(always)]
    pub(crate) fn set_turn(&mut self, turn: Turn) {
        if self.to_move != NO_COLOR {
            self.hash ^= zobrist(TO_MOVE_KEY, u64::from(self.to_move));
        }
        self.out = turn.out;
        self.to_move = match turn.next {
            Some(c) => {
                self.hash ^= zobrist(TO_MOVE_KEY, c as u64);
                c as u8
            }
            None => NO_COLOR,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_turn_goes_to_the_next_colour_that_can_move() {
        let turn = next_turn(4, 0, 1, true, |d| d != 2);
        assert_eq!(
            turn,
            Turn {
                next: Some(3),
                out: 0b0100
            }
        );
        // Out colours are not asked again, and the mover itself comes last.
        let turn = next_turn(4, 0b1000, 2, true, |d| d == 2);
        assert_eq!(
            turn,
            Turn {
                next: Some(2),
                out: 0b1011
            }
        );
    }

    #[test]
    fn skipped_colours_stay_in_where_the_rules_skip_them() {
        let turn = next_turn(3, 0, 0, false, |d| d == 0);
        assert_eq!(
            turn,
            Turn {
                next: Some(0),
                out: 0
            }
        );
    }

    #[test]
    fn when_nobody_can_move_everybody_is_out() {
        assert_eq!(
            next_turn(2, 0, 0, false, |_| false),
            Turn {
                next: None,
                out: 0b11
            }
        );
    }
}
