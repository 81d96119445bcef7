//! Last good replies: what a search's playouts learn from the playouts before them. After each
//! simulation, every move of a colour whose player won it is kept as the reply of that colour
//! to the move played just before it; a move of a colour whose player lost is forgotten if it
//! was kept. A playout then plays, where it can, the kept reply to the move just made, and
//! otherwise follows its policy. A reply that won once is likely to win again where the same
//! move was just made, and what the playouts learn this way is the search's own, position by
//! position, as no fixed policy can be.

use std::sync::atomic::{AtomicU32, Ordering};

use super::{Engine, Pick};
use crate::position::{Position, NO_COLOR};
use crate::rng::Rng;
use crate::rules::corner;
use crate::tables::Tables;
use crate::variant::MAX_COLORS;

/// No reply kept.
const NONE: u32 = u32::MAX;

/// The last good reply of each colour to each placement, shared by the threads of a search
/// (each entry read and written on its own: a thread may read a reply another is replacing,
/// which is as good as either).
pub(crate) struct Replies {
    /// `replies[color * placements + previous]`.
    replies: Vec<AtomicU32>,
    placements: usize,
}

impl Replies {
    /// No reply known, for the variant of `t`.
    pub(crate) fn new(t: &Tables) -> Replies {
        let placements = t.num_placements();
        Replies {
            replies: (0..t.variant.num_colors() * placements)
                .map(|_| AtomicU32::new(NONE))
                .collect(),
            placements,
        }
    }

    /// The reply kept for `color` to placement `previous`, if any.
    #[inline(always)]
    pub(crate) fn reply(&self, color: usize, previous: u32) -> Option<u32> {
        let id = self.replies[color * self.placements + previous as usize].load(Ordering::Relaxed);
        (id != NONE).then_some(id)
    }

    /// Learns from a finished simulation: `moves` (placement, colour) were played in turn
    /// from `root`, after `before` (the move played last before it, if any); `values` are the
    /// players' values of the game's end. A player won if no other player's value is higher.
    pub(crate) fn learn(
        &self,
        t: &Tables,
        root: &Position,
        before: Option<u32>,
        moves: impl Iterator<Item = (u32, u8)>,
        values: &[f32; MAX_COLORS],
    ) {
        let v = &t.variant;
        let best = values[..v.num_players()]
            .iter()
            .fold(f32::NEG_INFINITY, |m, &x| m.max(x));
        let mut placed: [usize; MAX_COLORS] = std::array::from_fn(|c| root.placed(c));
        let mut previous = before;
        for (id, color) in moves {
            let c = usize::from(color);
            if let Some(p) = previous {
                let entry = &self.replies[c * self.placements + p as usize];
                if values[v.player_of(c, placed[c])] >= best {
                    entry.store(id, Ordering::Relaxed);
                } else {
                    // Forgotten only if it is still this move.
                    let _ = entry.compare_exchange(id, NONE, Ordering::Relaxed, Ordering::Relaxed);
                }
            }
            placed[c] += 1;
            previous = Some(id);
        }
    }
}

impl<'t, const W: usize> Engine<'t, W> {
    /// [`Engine::finish`], but each move is the reply `replies` keep for the colour to move to
    /// the move just made (`last` before the first) if that is legal.
    #[inline(always)]
    pub(super) fn finish_replying(
        &mut self,
        rng: &mut Rng,
        moves: &mut Vec<(u32, u8)>,
        replies: &Replies,
        mut last: Option<u32>,
    ) -> Vec<i32> {
        loop {
            let c = self.common.to_move;
            if c == NO_COLOR {
                break;
            }
            let kept = last
                .and_then(|previous| replies.reply(usize::from(c), previous))
                .filter(|&id| self.fits(id));
            let Some(pick) = kept.map(Pick::Id).or_else(|| self.choose(rng)) else {
                break;
            };
            let id = self.id_of(&pick);
            moves.push((id, c));
            self.play_pick(pick);
            last = Some(id);
        }
        corner::points(&self.t.variant, &self.common, self.t.variant.scoring)
    }

    /// Whether placement `id` is legal for the colour to move: its piece in hand, and its
    /// cells within the corner rule.
    #[inline(always)]
    fn fits(&self, id: u32) -> bool {
        let c = usize::from(self.common.to_move);
        let p = self.t.get(id);
        self.common.available[c] & (1 << p.piece()) != 0
            && corner::why_illegal(&self.common, &self.corner, c, p.mask()).is_none()
    }
}
