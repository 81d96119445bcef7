//! The position: per-colour bitsets, the rules of placement, and move generation.

use crate::bits::{nth_one_in, Bits};
use crate::footprint::{Footprint, Masks};
use crate::rng::Rng;
use crate::slices::Slice;
use crate::stacking;
use crate::table::{with_directed, Tables};
use crate::variant::{Rules, MAX_COLORS, MAX_PIECES};

/// Marker for "nobody to move": the game is over.
pub const NO_COLOR: u8 = u8::MAX;

/// A position. Small and `Copy`: undo restores a snapshot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Cells covered by any colour.
    pub occupied: Bits,
    /// Cells covered by each colour.
    pub cells: [Bits; MAX_COLORS],
    /// Cells a colour may not cover: occupied, or sharing an edge with its own cells (under the
    /// stacking rule: occupied).
    pub forbidden: [Bits; MAX_COLORS],
    /// Cells a colour's next piece may attach through: corner neighbours of its cells, or its
    /// start points before its first piece (minus `forbidden` when used). Under the stacking
    /// rule: cells sharing a face with its cubes (some may be occupied).
    pub attach: [Bits; MAX_COLORS],
    /// Stacking rule: the lowest free cell of each column that has room (empty on flat boards).
    pub surface: Bits,
    /// Copies left of each piece, per colour.
    pub left: [[u8; MAX_PIECES]; MAX_COLORS],
    /// Bit `p` set when piece `p` has a copy left, per colour.
    pub available: [u32; MAX_COLORS],
    /// Pieces placed per colour.
    pub placed: [u8; MAX_COLORS],
    /// Last piece placed per colour (meaningful when `placed > 0`).
    pub last_piece: [u8; MAX_COLORS],
    /// Bit `c` set when colour `c` can no longer move.
    pub out: u8,
    /// Colour to move, or [`NO_COLOR`] when the game is over.
    pub to_move: u8,
    /// Zobrist hash of the cells of each colour and the colour to move.
    pub hash: u64,
}

/// Why a placement is not legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// Nobody can move any more.
    GameOver,
    /// The colour has no copy of the piece left.
    PieceUsed {
        /// Piece index.
        piece: usize,
    },
    /// A cell is already covered.
    Overlap {
        /// The first covered cell.
        cell: usize,
    },
    /// A cell shares an edge with the colour's own pieces.
    OwnEdge {
        /// The first such cell.
        cell: usize,
    },
    /// The first piece covers no start point available to the colour.
    NoStartPoint,
    /// The piece touches no piece of its colour at a corner.
    NoCornerContact,
    /// A cube would have an empty cell beneath it (stacking rule).
    Unsupported {
        /// The first such cube.
        cell: usize,
    },
    /// The piece shares no face with a cube of its colour (stacking rule).
    NoFaceContact,
    /// A first piece (not colour 0's) shares no face with any cube on the board (stacking rule).
    FirstNotTouching,
    /// A first piece (not colour 0's) has no cube on level 1 (stacking rule).
    FirstOffGround,
}

fn zobrist(placement_cell: u64, color: u64) -> u64 {
    // SplitMix64 of (cell, colour): a fixed pseudo-random key without a table.
    let mut z = placement_cell
        .wrapping_mul(8)
        .wrapping_add(color)
        .wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Position {
    /// The empty board with colour 0 to move.
    pub fn start(t: &Tables) -> Position {
        let v = &t.variant;
        let mut left = [[0u8; MAX_PIECES]; MAX_COLORS];
        let mut available = [0u32; MAX_COLORS];
        for c in 0..v.num_colors() {
            for (p, piece) in v.pieces.iter().enumerate() {
                left[c][p] = piece.copies;
                available[c] |= 1 << p;
            }
        }
        let mut attach = [Bits::EMPTY; MAX_COLORS];
        attach[..v.num_colors()].copy_from_slice(&v.start_points);
        let surface = match v.rules {
            Rules::Corner => Bits::EMPTY,
            Rules::Stacking { .. } => stacking::start_surface(t),
        };
        let mut pos = Position {
            occupied: Bits::EMPTY,
            cells: [Bits::EMPTY; MAX_COLORS],
            forbidden: [Bits::EMPTY; MAX_COLORS],
            attach,
            surface,
            left,
            available,
            placed: [0; MAX_COLORS],
            last_piece: [0; MAX_COLORS],
            out: 0,
            to_move: NO_COLOR,
            hash: 0,
        };
        pos.advance_from(t, v.num_colors() - 1);
        pos
    }

    /// Whether nobody can move.
    pub fn is_game_over(&self) -> bool {
        self.to_move == NO_COLOR
    }

    /// Calls `f` with every legal placement of `color`, each once; stops early when `f` returns
    /// `false`. Returns `false` if stopped early.
    #[inline]
    pub fn for_each_move<F: FnMut(u32) -> bool>(&self, t: &Tables, color: usize, f: F) -> bool {
        match t.variant.rules {
            Rules::Corner => self.for_each_corner_move(t, color, f),
            Rules::Stacking { .. } => stacking::for_each_move(self, t, color, f),
        }
    }

    /// The corner rule's generation: bit-sliced where the tables allow it.
    #[inline]
    fn for_each_corner_move<F: FnMut(u32) -> bool>(
        &self,
        t: &Tables,
        color: usize,
        mut f: F,
    ) -> bool {
        let Some(slices) = &t.slices else {
            return self.for_each_move_by_lists(t, color, f);
        };
        // After its first piece, a colour's attach cells touch it at a corner and the
        // narrower corner-directed slices apply.
        if let (Some(directed), true) = (&t.directed, self.placed[color] > 0) {
            return with_directed!(directed, ds => ds.for_each_move(slices, self, color, f));
        }
        slices.for_each_cell(self, color, |cell, ok| {
            for (w, &word) in ok.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let slot = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if !f(slices.id(cell, slot)) {
                        return false;
                    }
                }
            }
            true
        })
    }

    /// A uniformly random legal placement of the colour to move, without listing the moves:
    /// the legal slots of every attach cell are counted, then one is picked (under the
    /// stacking rule, candidates are drawn and tested: [`stacking::sample_move`]). `scratch` is
    /// reused between calls.
    pub fn sample_move(
        &self,
        t: &Tables,
        rng: &mut Rng,
        scratch: &mut Vec<(u16, Slice)>,
    ) -> Option<u32> {
        if self.to_move == NO_COLOR {
            return None;
        }
        let color = self.to_move as usize;
        if let Rules::Stacking { .. } = t.variant.rules {
            return stacking::sample_move(self, t, color, rng);
        }
        let Some(slices) = &t.slices else {
            let n = self.count_moves(t);
            return self.nth_move(t, rng.below(n as u64) as usize);
        };
        scratch.clear();
        // Count the legal slots of every attach cell, keeping them; then pick one.
        let directed = if self.placed[color] > 0 {
            t.directed.as_ref()
        } else {
            None
        };
        let total = match directed {
            Some(directed) => {
                with_directed!(directed, ds => ds.collect_slots(slices, self, color, scratch))
            }
            None => {
                let mut total = 0u64;
                slices.for_each_cell(self, color, |cell, ok| {
                    let n: u32 = ok.iter().map(|w| w.count_ones()).sum();
                    if n > 0 {
                        total += u64::from(n);
                        scratch.push((cell as u16, *ok));
                    }
                    true
                });
                total
            }
        };
        if total == 0 {
            return None;
        }
        let mut k = rng.below(total);
        for (cell, ok) in scratch.iter() {
            let cell = *cell as usize;
            let n: u64 = ok.iter().map(|w| u64::from(w.count_ones())).sum();
            if k < n {
                let slot = nth_one_in(ok, k as usize);
                return Some(match directed {
                    Some(directed) => {
                        with_directed!(directed, ds => ds.slot_id(slices, self, color, cell, slot))
                    }
                    None => slices.id(cell, slot),
                });
            }
            k -= n;
        }
        None
    }

    /// [`Position::for_each_move`] by testing every placement of the per-cell lists: the
    /// fallback for piece sets too large for [`crate::slices`].
    fn for_each_move_by_lists<F: FnMut(u32) -> bool>(
        &self,
        t: &Tables,
        color: usize,
        mut f: F,
    ) -> bool {
        let mut blocked = self.forbidden[color];
        let candidates = self.attach[color] & !blocked;
        let available = self.available[color];
        for cell in candidates.iter() {
            let mut pieces = available;
            while pieces != 0 {
                let piece = pieces.trailing_zeros() as usize;
                pieces &= pieces - 1;
                for &id in t.covering(cell, piece) {
                    if !t.placements[id as usize].mask.intersects(&blocked) && !f(id) {
                        return false;
                    }
                }
            }
            blocked.insert(cell);
        }
        true
    }

    /// Appends the legal placements of the colour to move to `out`.
    pub fn legal_moves_into(&self, t: &Tables, out: &mut Vec<u32>) {
        if self.to_move == NO_COLOR {
            return;
        }
        let c = self.to_move as usize;
        if let (Some(slices), Some(directed), true) = (&t.slices, &t.directed, self.placed[c] > 0) {
            with_directed!(directed, ds => ds.list_into(slices, self, c, out));
        } else {
            self.for_each_move(t, c, |id| {
                out.push(id);
                true
            });
        }
    }

    /// The legal placements of the colour to move.
    pub fn legal_moves(&self, t: &Tables) -> Vec<u32> {
        let mut out = Vec::new();
        self.legal_moves_into(t, &mut out);
        out
    }

    /// Number of legal placements of the colour to move, without building a list.
    pub fn count_moves(&self, t: &Tables) -> usize {
        if self.to_move == NO_COLOR {
            return 0;
        }
        let c = self.to_move as usize;
        if let (Some(slices), Some(directed), true) = (&t.slices, &t.directed, self.placed[c] > 0) {
            return with_directed!(directed, ds => ds.count_moves(slices, self, c));
        }
        if let (Some(slices), Rules::Corner) = (&t.slices, t.variant.rules) {
            // Each legal slot is one move: count them without naming them.
            let mut n = 0;
            slices.for_each_cell(self, c, |_, ok| {
                n += ok.iter().map(|w| w.count_ones() as usize).sum::<usize>();
                true
            });
            return n;
        }
        let mut n = 0;
        self.for_each_move(t, c, |_| {
            n += 1;
            true
        });
        n
    }

    /// Whether `color` has any legal placement.
    pub fn has_move(&self, t: &Tables, color: usize) -> bool {
        !self.for_each_move(t, color, |_| false)
    }

    /// The `k`-th legal placement (in generation order) of the colour to move.
    pub fn nth_move(&self, t: &Tables, k: usize) -> Option<u32> {
        let mut i = 0;
        let mut found = None;
        if self.to_move != NO_COLOR {
            self.for_each_move(t, self.to_move as usize, |id| {
                if i == k {
                    found = Some(id);
                    return false;
                }
                i += 1;
                true
            });
        }
        found
    }

    /// Why placement `id` is not legal for the colour to move, or `None` if it is legal.
    pub fn why_illegal(&self, t: &Tables, id: u32) -> Option<Illegal> {
        if self.to_move == NO_COLOR {
            return Some(Illegal::GameOver);
        }
        let c = self.to_move as usize;
        let p = &t.placements[id as usize];
        if self.left[c][p.piece as usize] == 0 {
            return Some(Illegal::PieceUsed {
                piece: p.piece as usize,
            });
        }
        if let Rules::Stacking { .. } = t.variant.rules {
            return stacking::why_illegal(self, t, c, id);
        }
        if let Some(cell) = (p.mask & self.occupied).iter().next() {
            return Some(Illegal::Overlap { cell });
        }
        if let Some(cell) = (p.mask & self.forbidden[c]).iter().next() {
            return Some(Illegal::OwnEdge { cell });
        }
        if !p.mask.intersects(&self.attach[c]) {
            return Some(if self.placed[c] == 0 {
                Illegal::NoStartPoint
            } else {
                Illegal::NoCornerContact
            });
        }
        None
    }

    /// Whether placement `id` is legal for the colour to move.
    pub fn is_legal(&self, t: &Tables, id: u32) -> bool {
        self.why_illegal(t, id).is_none()
    }

    /// Plays placement `id` for the colour to move, which must be legal, and finds the next
    /// colour that can move.
    pub fn play(&mut self, t: &Tables, id: u32) {
        let c = self.to_move as usize;
        self.place(t, c, id);
        self.advance_from(t, c);
    }

    /// Puts placement `id` down for colour `c` without checking the rules or changing the
    /// colour to move: the step of [`Position::play`] that setup positions use.
    #[inline]
    pub fn place(&mut self, t: &Tables, c: usize, id: u32) {
        let fp = t.footprint(id);
        match t.variant.rules {
            Rules::Corner => {
                let masks = t.footprints().masks(&fp);
                self.place_corner(t, c, &masks);
            }
            Rules::Stacking { .. } => stacking::place(self, t, c, &fp),
        }
        self.place_piece(c, fp);
    }

    /// [`Position::place`] for the corner rule, with the placement's footprint and masks at
    /// hand.
    #[inline]
    pub(crate) fn place_corner_masks(
        &mut self,
        t: &Tables,
        c: usize,
        fp: Footprint<'_>,
        masks: &Masks,
    ) {
        self.place_corner(t, c, masks);
        self.place_piece(c, fp);
    }

    /// The piece of `fp` leaves `c`'s hand and its cells enter the hash.
    #[inline]
    fn place_piece(&mut self, c: usize, fp: Footprint<'_>) {
        let piece = fp.piece;
        self.left[c][piece] -= 1;
        if self.left[c][piece] == 0 {
            self.available[c] &= !(1 << piece);
        }
        self.placed[c] += 1;
        self.last_piece[c] = piece as u8;
        for &cell in fp.cells {
            self.hash ^= zobrist(u64::from(cell), c as u64);
        }
    }

    #[inline]
    fn place_corner(&mut self, t: &Tables, c: usize, masks: &Masks) {
        self.occupied |= masks.cells;
        self.cells[c] |= masks.cells;
        self.forbid_to_all(t, &masks.cells);
        self.forbidden[c] |= masks.edges;
        if self.placed[c] == 0 {
            // Start points stop counting once the colour has a piece on the board.
            self.attach[c] = Bits::EMPTY;
        }
        self.attach[c] |= masks.corners;
        self.attach[c] &= !self.forbidden[c];
    }

    /// Forbids `cells` to every colour of the variant.
    #[inline]
    pub(crate) fn forbid_to_all(&mut self, t: &Tables, cells: &Bits) {
        // Over every slot with a condition rather than `take(n)`: a loop of unknown length is
        // vectorised across colours into gathers and scatters, which cost more than the rest
        // of a placement.
        let n = t.variant.num_colors();
        for (d, forbidden) in self.forbidden.iter_mut().enumerate() {
            if d < n {
                *forbidden |= *cells;
            }
        }
    }

    /// Makes `color` the colour to move if it can move, else the first colour after it that
    /// can (marking the ones that cannot as out): the turn of a setup position.
    pub fn set_turn(&mut self, t: &Tables, color: usize) {
        let n = t.variant.num_colors();
        self.advance_from(t, (color + n - 1) % n);
    }

    /// Sets `to_move` to the first colour after `after` (in cyclic order, `after` itself last)
    /// that can move, marking the ones that cannot as out (or, where the rules skip blocked
    /// colours, only when nobody can move).
    fn advance_from(&mut self, t: &Tables, after: usize) {
        self.advance_with(t, after, |pos, d| pos.has_move(t, d));
    }

    /// `advance_from` with the question "can colour d move?" answered by
    /// `can_move`, for callers that know more (the incremental playout).
    pub fn advance_with<F: FnMut(&Position, usize) -> bool>(
        &mut self,
        t: &Tables,
        after: usize,
        mut can_move: F,
    ) {
        let n = t.variant.num_colors();
        if self.to_move != NO_COLOR {
            self.hash ^= zobrist(0xffff, self.to_move as u64);
        }
        self.to_move = NO_COLOR;
        for i in 1..=n {
            let d = (after + i) % n;
            if self.out & (1 << d) != 0 {
                continue;
            }
            if can_move(self, d) {
                self.to_move = d as u8;
                self.hash ^= zobrist(0xffff, d as u64);
                return;
            }
            if t.variant.rules.knocks_out() {
                self.out |= 1 << d;
            }
        }
        // Nobody can move, so nobody ever will.
        self.out = ((1u16 << n) - 1) as u8;
    }

    /// Number of move sequences of length `depth` (a game that ends earlier counts nothing).
    pub fn perft(&self, t: &Tables, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.to_move == NO_COLOR {
            return 0;
        }
        match depth {
            1 => self.count_moves(t) as u64,
            _ => {
                let mut total = 0;
                for id in self.legal_moves(t) {
                    let mut next = *self;
                    next.play(t, id);
                    total += next.perft(t, depth - 1);
                }
                total
            }
        }
    }

    /// Cells placed by a colour.
    pub fn cells_placed(&self, color: usize) -> u32 {
        self.cells[color].count()
    }
}

impl Illegal {
    /// The rule broken, in words, naming cells by their board names.
    pub fn describe(&self, t: &Tables) -> String {
        let v = &t.variant;
        match self {
            Illegal::GameOver => "the game is over".to_string(),
            Illegal::PieceUsed { piece } => {
                format!("piece {} is already used", v.pieces[*piece].name)
            }
            Illegal::Overlap { cell } => {
                format!("overlap: {} is already covered", v.cell_name(*cell))
            }
            Illegal::OwnEdge { cell } => {
                format!(
                    "own edge: {} shares an edge with a piece of the same colour",
                    v.cell_name(*cell)
                )
            }
            Illegal::NoStartPoint => {
                "no start point: a colour's first piece must cover a free start point".to_string()
            }
            Illegal::NoCornerContact => {
                "no corner contact: the piece must touch its own colour at a corner".to_string()
            }
            Illegal::Unsupported { cell } => {
                format!(
                    "unsupported: the cell beneath {} is empty",
                    v.cell_name(*cell)
                )
            }
            Illegal::NoFaceContact => {
                "no face contact: the piece must share a face with a cube of its colour".to_string()
            }
            Illegal::FirstNotTouching => {
                "first piece not touching: it must share a face with a cube already placed"
                    .to_string()
            }
            Illegal::FirstOffGround => {
                "first piece off the ground: it must have a cube on level 1".to_string()
            }
        }
    }

    /// A short stable name of the rule (`overlap`, `own_edge`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            Illegal::GameOver => "game_over",
            Illegal::PieceUsed { .. } => "piece_used",
            Illegal::Overlap { .. } => "overlap",
            Illegal::OwnEdge { .. } => "own_edge",
            Illegal::NoStartPoint => "no_start_point",
            Illegal::NoCornerContact => "no_corner_contact",
            Illegal::Unsupported { .. } => "unsupported",
            Illegal::NoFaceContact => "no_face_contact",
            Illegal::FirstNotTouching => "first_not_touching",
            Illegal::FirstOffGround => "first_off_ground",
        }
    }
}
