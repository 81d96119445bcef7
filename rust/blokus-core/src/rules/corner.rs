//! The corner rule of the flat boards (Classic, Duo, Junior, Trigon; docs/RULES.md, "Flat
//! boards"): a colour's first piece covers one of its start points; every later piece touches
//! the colour's own pieces at a corner and never along an edge. Points are the cells placed
//! plus the bonuses for placing every piece.
//!
//! The sub-state ([`CornerState`]) keeps, per colour, the cells it may not cover (`forbidden`:
//! occupied, or edge neighbours of its own cells) and the cells its next piece may attach
//! through (`attach`: corner-only neighbours of its cells that are not forbidden; before the
//! first piece, its start points). A placement is then legal exactly when it covers no
//! forbidden cell and covers an attach cell: set algebra, which the move generators
//! (`crate::movegen::corner`) precompute per cell.

use crate::bits::Bits;
use crate::placement::footprint::Masks;
use crate::position::{Common, CornerState};
use crate::rules::Illegal;
use crate::variant::{Scoring, Variant, MAX_COLORS};

/// The empty board: no cell forbidden, every colour attaching through its start points.
pub(crate) fn start(v: &Variant) -> CornerState {
    let mut attach = [Bits::EMPTY; MAX_COLORS];
    attach[..v.num_colors()].copy_from_slice(&v.start_points);
    CornerState {
        forbidden: [Bits::EMPTY; MAX_COLORS],
        attach,
    }
}

/// Why a placement on `cells` breaks the corner rule for `color` (whose piece is in hand), or
/// `None`.
pub(crate) fn why_illegal(
    common: &Common,
    state: &CornerState,
    color: usize,
    cells: &Bits,
) -> Option<Illegal> {
    if let Some(cell) = (*cells & common.occupied).iter().next() {
        return Some(Illegal::Overlap { cell });
    }
    if let Some(cell) = (*cells & state.forbidden[color]).iter().next() {
        return Some(Illegal::OwnEdge { cell });
    }
    if !cells.intersects(&state.attach[color]) {
        return Some(if common.placed[color] == 0 {
            Illegal::NoStartPoint
        } else {
            Illegal::NoCornerContact
        });
    }
    None
}

/// Colour `c` (one of `num_colors`) puts `piece` on the cells of `masks`, whose edge and
/// corner-only neighbours it also gives.
#[inline(always)]
pub(crate) fn place(
    common: &mut Common,
    state: &mut CornerState,
    num_colors: usize,
    c: usize,
    piece: usize,
    cells: &[u16],
    masks: &Masks,
) {
    if common.placed[c] == 0 {
        // Start points stop counting once the colour has a piece on the board.
        state.attach[c] = Bits::EMPTY;
    }
    common.put(c, piece, cells, &masks.cells);
    forbid_to_all(state, num_colors, &masks.cells);
    state.forbidden[c] |= masks.edges;
    state.attach[c] |= masks.corners;
    state.attach[c] &= !state.forbidden[c];
}

/// Forbids `cells` to every one of the `n` colours.
#[inline(always)]
fn forbid_to_all(state: &mut CornerState, n: usize, cells: &Bits) {
    // Over every slot with a condition rather than `take(n)`: a loop of unknown length is
    // vectorised across colours into gathers and scatters, which cost more than the rest of a
    // placement.
    for (d, forbidden) in state.forbidden.iter_mut().enumerate() {
        if d < n {
            *forbidden |= *cells;
        }
    }
}

/// Points of each colour: cells placed plus bonus (`Advanced`), or minus one per cell left in
/// hand (`Basic`).
pub(crate) fn points(v: &Variant, common: &Common, scoring: Scoring) -> Vec<i32> {
    let total_cells: i64 = v
        .pieces
        .iter()
        .map(|p| p.cells.len() as i64 * i64::from(p.copies))
        .sum();
    (0..v.num_colors())
        .map(|c| {
            let placed = i64::from(common.cells[c].count());
            let points = match scoring {
                Scoring::Basic => placed - total_cells,
                Scoring::Advanced => placed + i64::from(bonus(v, common, c)),
            };
            points as i32
        })
        .collect()
}

/// The bonus a colour earned: for placing all its pieces, more if the last was the 1-cell piece.
pub(crate) fn bonus(v: &Variant, common: &Common, color: usize) -> u32 {
    if usize::from(common.placed[color]) < v.pieces_per_color() {
        return 0;
    }
    let last_is_monomino = v.pieces[usize::from(common.last_piece[color])].cells.len() == 1;
    if last_is_monomino && v.bonus_last_monomino > 0 {
        v.bonus_last_monomino
    } else {
        v.bonus_all_placed
    }
}
