//! Move generation: the fast form of the rules (`crate::rules`), one generator per rule family,
//! chosen once per variant when its tables are built. Every entry point (listing, counting,
//! sampling, "has a move?") asks the generator of its tables; nothing else chooses a path.
//!
//! Each entry point runs in the clone of the CPU level chosen at start-up (`crate::cpu`), with
//! the generator's body inlined into it.
//!
//! The generators are tested against the reference generator (`crate::reference`), which
//! works from the board's coordinates and the rules alone.

pub(crate) mod corner;
pub(crate) mod stacking;
#[cfg(test)]
mod tests;

use crate::cpu::multiversion;
use crate::placement::Placements;
use crate::position::{Position, RuleState};
use crate::rng::Rng;
use crate::rules::RuleTables;
use crate::variant::Variant;

use corner::full::Slice;
use corner::AnyCornerGen;
use stacking::StackGen;

/// The move generator of a variant.
pub(crate) enum Generator {
    Corner(AnyCornerGen),
    Stacking(Box<StackGen>),
}

impl std::fmt::Debug for Generator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Generator::Corner(_) => "Generator::Corner",
            Generator::Stacking(_) => "Generator::Stacking",
        })
    }
}

/// Evaluates `$corner` with `$g` bound to the corner generator (whatever its width) and `$s`
/// to the corner sub-state, or `$stacking` with `$g` the stacking generator and `$s` its
/// sub-state.
macro_rules! dispatch {
    ($gen:expr, $pos:expr, $g:ident, $s:ident => $corner:expr, $stacking:expr) => {
        match ($gen, &$pos.rules) {
            (Generator::Corner(AnyCornerGen::W1($g)), RuleState::Corner($s)) => $corner,
            (Generator::Corner(AnyCornerGen::W2($g)), RuleState::Corner($s)) => $corner,
            (Generator::Corner(AnyCornerGen::W4($g)), RuleState::Corner($s)) => $corner,
            (Generator::Stacking($g), RuleState::Stacking($s)) => $stacking,
            _ => unreachable!("a position is of the rules it was made by"),
        }
    };
}

/// What [`Generator::sample`] keeps between calls, so that it allocates once.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    slots: Vec<(u16, Slice)>,
}

impl Generator {
    pub(crate) fn new(v: &Variant, placements: &Placements, rules: &RuleTables) -> Generator {
        match rules {
            RuleTables::Corner => Generator::Corner(AnyCornerGen::new(v, placements)),
            RuleTables::Stacking(cells) => {
                Generator::Stacking(Box::new(StackGen::new(v, &placements.list, cells)))
            }
        }
    }

    /// Calls `f` with every legal placement of `color`, each once; stops early when `f`
    /// returns `false`. Returns `false` if stopped early.
    #[inline]
    pub(crate) fn for_each_move<F: FnMut(u32) -> bool>(
        &self,
        pos: &Position,
        color: usize,
        f: F,
    ) -> bool {
        for_each_move(self, pos, color, f)
    }

    /// Appends the legal placements of `color` to `out`.
    #[inline]
    pub(crate) fn list_into(&self, pos: &Position, color: usize, out: &mut Vec<u32>) {
        list_into(self, pos, color, out)
    }

    /// Number of legal placements of `color`.
    #[inline]
    pub(crate) fn count(&self, pos: &Position, color: usize) -> usize {
        count(self, pos, color)
    }

    /// Whether `color` has a legal placement.
    #[inline]
    pub(crate) fn has_move(&self, pos: &Position, color: usize) -> bool {
        has_move(self, pos, color)
    }

    /// A uniformly random legal placement of `color`, `None` if it has none, drawn without
    /// listing the moves.
    #[inline]
    pub(crate) fn sample(
        &self,
        pos: &Position,
        color: usize,
        rng: &mut Rng,
        scratch: &mut Scratch,
    ) -> Option<u32> {
        sample(self, pos, color, rng, scratch)
    }
}

// The generator's entry points, each compiled per CPU level.

multiversion! {
    fn for_each_move(gen: &Generator, pos: &Position, color: usize, f: impl FnMut(u32) -> bool) -> bool {
        let c = &pos.common;
        dispatch!(gen, pos, g, s => g.for_each_move(c, s, color, f), g.for_each_move(c, s, color, f))
    }
}

multiversion! {
    fn list_into(gen: &Generator, pos: &Position, color: usize, out: &mut Vec<u32>) {
        let c = &pos.common;
        dispatch!(gen, pos, g, s => g.list_into(c, s, color, out), g.list_into(c, s, color, out))
    }
}

multiversion! {
    fn count(gen: &Generator, pos: &Position, color: usize) -> usize {
        let c = &pos.common;
        dispatch!(gen, pos, g, s => g.count(c, s, color), g.count(c, s, color))
    }
}

multiversion! {
    fn has_move(gen: &Generator, pos: &Position, color: usize) -> bool {
        let c = &pos.common;
        dispatch!(gen, pos, g, s => g.has_move(c, s, color), g.has_move(c, s, color))
    }
}

multiversion! {
    fn sample(gen: &Generator, pos: &Position, color: usize, rng: &mut Rng, scratch: &mut Scratch) -> Option<u32> {
        let c = &pos.common;
        dispatch!(gen, pos, g, s => g.sample(c, s, color, rng, &mut scratch.slots), g.sample(c, s, color, rng))
    }
}
