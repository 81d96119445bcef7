//! Cheap features of a move, for the search's priors and the greedy bot's tie-break: what a
//! piece going down gains now and later, computed from its cells and the position's sub-state in
//! a few word operations.

use crate::bits::Bits;
use crate::position::{Position, RuleState};
use crate::tables::Tables;

/// Number of features of a move.
pub const NUM_FEATURES: usize = 9;

/// What a move does, in numbers (see each field); [`Features::vector`] lists them in this order.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Features {
    /// The piece (its index in the variant's set; its weight is the search's
    /// [`crate::SearchConfig::piece_weights`], not one of the vector's).
    pub piece: usize,
    /// Cells (cubes) of the piece.
    pub size: f32,
    /// Flat boards: new attach cells the move opens for its colour (corner-only neighbours that
    /// are free, not already attach cells, and not beside its own cells). Blokus 3D: columns
    /// the move newly tops (its columns whose top cube was not its colour's).
    pub gain: f32,
    /// Flat boards: usable attach cells of other players' colours the move covers. Blokus 3D:
    /// columns topped by other players' colours that the move covers.
    pub blocks: f32,
    /// Flat boards: the colour's own usable attach cells the move spoils by sharing an edge
    /// with them (they become forbidden to it). Blokus 3D: 0.
    pub own_loss: f32,
    /// Flat boards: cells of the move beside (sharing an edge with) other players' usable
    /// attach cells, which narrows what those can hold. Blokus 3D: the move's cubes above
    /// level 1 (height, which tops more columns later).
    pub near_opponents: f32,
    /// During a colour's first four pieces, how close the move comes to the middle of the
    /// board: `1 - d / D`, `d` the distance of its cell nearest the middle and `D` half the
    /// board's diagonal; 0 later on (and in Blokus 3D).
    pub centre: f32,
    /// Cells of the move touching (at an edge or a corner; a face in Blokus 3D) the piece
    /// placed last, by any colour: an answer to the last move.
    pub local: f32,
    /// Flat boards: how many more cells the colour can reach after the move, a cell reached
    /// if it is free, not forbidden to the colour and at most two steps (through edges or
    /// corners) from one of its usable attach cells. Blokus 3D: 0.
    pub reach: f32,
    /// Flat boards: how many free cells the other players' colours reach (as above, by their
    /// usable attach cells) no longer once the move is made. Blokus 3D: 0.
    pub cut: f32,
}

impl Features {
    /// The features as a vector, in the order of the fields.
    pub fn vector(&self) -> [f32; NUM_FEATURES] {
        [
            self.size,
            self.gain,
            self.blocks,
            self.own_loss,
            self.near_opponents,
            self.centre,
            self.local,
            self.reach,
            self.cut,
        ]
    }
}

/// The features of placement `id` for the colour to move in `pos`, where `last` is the
/// placement put down last (if any).
pub(crate) fn features(t: &Tables, pos: &Position, id: u32, last: Option<u32>) -> Features {
    Scorer::new(t, pos, last).features(id)
}

/// What the features of every move of one position share, worked out once.
pub(crate) struct Scorer<'a> {
    t: &'a Tables,
    pos: &'a Position,
    color: usize,
    me: usize,
    /// Flat boards: other players' usable attach cells, the cells beside them (sharing an
    /// edge), and the mover's usable attach cells.
    theirs: Bits,
    beside_theirs: Bits,
    own: Bits,
    /// The cells touching the piece put down last.
    near_last: Bits,
    /// Flat boards: what the mover's usable attach cells and other players' reach (see
    /// [`Features::reach`]), the free cells of the latter, and the number of cells the mover's
    /// colour reaches.
    own_reached: Reached,
    their_reached: Reached,
    their_reach: Bits,
    own_reach: u32,
}

/// The cells at most two steps from a cell of `from` (see [`Features::reach`]).
#[inline(always)]
fn reached(t: &Tables, from: &Bits) -> Bits {
    let mut to = Bits::EMPTY;
    for x in from.iter() {
        to |= *t.placements.footprints.near(x);
    }
    to
}

/// The cells a set of cells reaches, with how many of its cells reach each (one, two, more),
/// so that what the set reaches once a move takes one or two of its cells away is a few word
/// operations instead of a walk over all the others: a move takes at least one of the
/// mover's attach cells, and seldom more than two.
struct Reached {
    from: Bits,
    any: Bits,
    once: Bits,
    twice: Bits,
}

impl Reached {
    fn new(t: &Tables, from: Bits) -> Reached {
        let (mut any, mut two, mut three) = (Bits::EMPTY, Bits::EMPTY, Bits::EMPTY);
        for x in from.iter() {
            let near = *t.placements.footprints.near(x);
            three |= two & near;
            two |= any & near;
            any |= near;
        }
        Reached {
            from,
            any,
            once: any & !two,
            twice: two & !three,
        }
    }

    /// The cells reached by the cells of the set outside `gone`: those no longer reached are
    /// the ones every cell reaching them from the set is gone.
    #[inline(always)]
    fn without(&self, t: &Tables, gone: &Bits) -> Bits {
        let gone = self.from & *gone;
        let near = |x: usize| *t.placements.footprints.near(x);
        let mut cells = gone.iter();
        match (cells.next(), cells.next(), cells.next()) {
            (None, _, _) => self.any,
            (Some(a), None, _) => self.any & !(self.once & near(a)),
            (Some(a), Some(b), None) => {
                let (a, b) = (near(a), near(b));
                self.any & !((self.once & (a | b)) | (self.twice & a & b))
            }
            _ => reached(t, &(self.from & !gone)),
        }
    }
}

impl<'a> Scorer<'a> {
    pub(crate) fn new(t: &'a Tables, pos: &'a Position, last: Option<u32>) -> Scorer<'a> {
        let v = &t.variant;
        let common = &pos.common;
        let c = usize::from(common.to_move);
        let me = v.player_of(c, usize::from(common.placed[c]));
        let (mut theirs, mut own) = (Bits::EMPTY, Bits::EMPTY);
        if let RuleState::Corner(state) = &pos.rules {
            for d in (0..v.num_colors()).filter(|&d| d != c && !v.players[me].contains(&d)) {
                theirs |= state.attach[d] & !state.forbidden[d];
            }
            own = state.attach[c] & !state.forbidden[c];
        }
        let mut beside_theirs = Bits::EMPTY;
        for x in theirs.iter() {
            for &n in t.edge_neighbours(x) {
                beside_theirs.insert(usize::from(n));
            }
        }
        let (own_reached, their_reached) = (Reached::new(t, own), Reached::new(t, theirs));
        let (mut their_reach, mut own_reach) = (Bits::EMPTY, 0);
        if let RuleState::Corner(state) = &pos.rules {
            their_reach = their_reached.any & !common.occupied;
            own_reach = (own_reached.any & !state.forbidden[c]).count();
        }
        let near_last = last.map_or(Bits::EMPTY, |last| {
            let masks = t.placements.footprints.masks(&t.placements.footprint(last));
            masks.edges | masks.corners
        });
        Scorer {
            t,
            pos,
            color: c,
            me,
            theirs,
            beside_theirs,
            own,
            near_last,
            own_reached,
            their_reached,
            their_reach,
            own_reach,
        }
    }

    /// The features of placement `id` for the colour to move (inlined into the callers
    /// compiled per CPU level).
    #[inline(always)]
    pub(crate) fn features(&self, id: u32) -> Features {
        let (t, pos, c) = (self.t, self.pos, self.color);
        let v = &t.variant;
        let common = &pos.common;
        let fp = t.placements.footprint(id);
        let masks = t.placements.footprints.masks(&fp);
        let count = |b: Bits| b.count() as f32;
        let size = fp.cells.len() as f32;
        let local = count(self.near_last & masks.cells);
        match &pos.rules {
            RuleState::Corner(state) => {
                let fresh = masks.corners & !state.forbidden[c] & !state.attach[c];
                // What the colour reaches from its attach cells after the move: those the move
                // neither covers nor spoils, and the new ones.
                let spoiled = masks.cells | masks.edges;
                let forbidden = state.forbidden[c] | spoiled;
                let kept = self.own_reached.without(t, &spoiled);
                let reach = ((kept | reached(t, &fresh)) & !forbidden).count() as f32
                    - self.own_reach as f32;
                // The others lose the cells the move covers, and what only the attach cells it
                // covers reached.
                let covered = masks.cells & self.theirs;
                let cut = if covered.is_empty() {
                    count(self.their_reach & masks.cells)
                } else {
                    let still = self.their_reached.without(t, &masks.cells) & !common.occupied;
                    count(self.their_reach & (masks.cells | !still))
                };
                let centre = if common.placed[c] < 4 {
                    fp.cells
                        .iter()
                        .map(|&x| t.centre[usize::from(x)])
                        .fold(0.0, f32::max)
                } else {
                    0.0
                };
                Features {
                    piece: fp.piece,
                    size,
                    gain: count(fresh),
                    blocks: count(covered),
                    own_loss: count(masks.edges & self.own),
                    near_opponents: count(masks.cells & self.beside_theirs),
                    centre,
                    local,
                    reach,
                    cut,
                }
            }
            RuleState::Stacking(_) => {
                let cells = t
                    .rules
                    .stack_cells()
                    .expect("a stacking position has stacking cells");
                let (bottoms, _) = cells.bottoms_and_tops(fp.cells, &masks.cells);
                let (mut gain, mut blocks) = (0.0, 0.0);
                for b in bottoms.iter() {
                    match cells.below(b).and_then(|x| pos.color_at(x)) {
                        Some(d) if d == c || v.players[self.me].contains(&d) => {}
                        Some(_) => {
                            gain += 1.0;
                            blocks += 1.0;
                        }
                        None => gain += 1.0,
                    }
                }
                let raised = fp
                    .cells
                    .iter()
                    .filter(|&&x| v.cells[usize::from(x)][2] > 0)
                    .count();
                Features {
                    piece: fp.piece,
                    size,
                    gain,
                    blocks,
                    own_loss: 0.0,
                    near_opponents: raised as f32,
                    centre: 0.0,
                    local,
                    reach: 0.0,
                    cut: 0.0,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{reached, Reached};
    use crate::bits::Bits;
    use crate::rng::Rng;
    use crate::tables::tables;

    /// What a set reaches without some of its cells, by the counts, is what the rest of it
    /// reaches, for every number of cells taken away (one and two by the counts, more by the
    /// walk).
    #[test]
    fn the_reach_without_some_cells_is_the_reach_of_the_rest() {
        let mut rng = Rng::new(9);
        for id in ["duo", "classic", "trigon"] {
            let t = tables(id).unwrap();
            let cells = t.variant.num_cells() as u64;
            for round in 0..400 {
                let pick = |rng: &mut Rng, n: usize| {
                    Bits::from_cells((0..n).map(|_| rng.below(cells) as usize))
                };
                let from = pick(&mut rng, 1 + round % 20);
                let inside = from.iter().collect::<Vec<_>>();
                let mut gone = pick(&mut rng, round % 3);
                for _ in 0..round % 5 {
                    gone.insert(inside[rng.below(inside.len() as u64) as usize]);
                }
                let set = Reached::new(&t, from);
                assert_eq!(set.any, reached(&t, &from), "{id}");
                assert_eq!(
                    set.without(&t, &gone),
                    reached(&t, &(from & !gone)),
                    "{id}: {:?} without {:?}",
                    inside,
                    gone.iter().collect::<Vec<_>>()
                );
            }
        }
    }
}
