//! What a piece going down touches, packed for the hot paths: per placement its piece, its
//! cells, the cells sharing an edge with it and those touching it at a corner only.
//!
//! Each record lies within one 64-byte cache line: `[piece, #cells, #edges, #corners, base
//! (2 bytes), offsets...]`, a cell being `base + offset`. The flat games' records take 32
//! bytes (Trigon's 64), half of what the same lists take as 16-bit cell numbers, so more of
//! them stay in the core's cache while random games sample placements all over the board.
//! Where some placement spans more than 256 cell numbers (only large custom boards), records
//! hold the 16-bit numbers themselves.

use crate::table::Placement;

/// The footprints of every placement of a variant.
#[derive(Debug)]
pub struct Footprints {
    /// Records of `stride` bytes from `start`, or of `stride` 16-bit values when `wide`.
    narrow: Vec<u8>,
    wide: Vec<u16>,
    start: usize,
    stride: usize,
}

/// Bytes (or 16-bit values) of a record's header.
const HEADER: usize = 6;

impl Footprints {
    /// The footprints of `placements`, in id order.
    pub fn new(placements: &[Placement]) -> Footprints {
        let lists: Vec<(u8, Vec<u16>, usize, usize)> = placements
            .iter()
            .map(|p| {
                let values: Vec<u16> = p
                    .cells()
                    .iter()
                    .copied()
                    .chain(p.edges.iter().map(|c| c as u16))
                    .chain(p.corners.iter().map(|c| c as u16))
                    .collect();
                (p.piece, values, p.len as usize, p.edges.count() as usize)
            })
            .collect();
        let longest = lists.iter().map(|l| l.1.len()).max().unwrap_or(0);
        let span = |v: &[u16]| {
            let lo = v.iter().min().copied().unwrap_or(0);
            let hi = v.iter().max().copied().unwrap_or(0);
            usize::from(hi - lo)
        };
        let narrow = lists.iter().all(|l| span(&l.1) <= usize::from(u8::MAX));
        // A power of two of at least 32 bytes, so that records on a line boundary never cross one.
        let bytes_per_value = if narrow { 1 } else { 2 };
        let stride = ((HEADER + longest) * bytes_per_value)
            .next_power_of_two()
            .max(32)
            / bytes_per_value;
        let record = |(piece, values, n, e): &(u8, Vec<u16>, usize, usize)| {
            let k = values.len() - n - e;
            // Wide records hold the cell numbers themselves (a base of 0).
            let base = if narrow {
                values.iter().min().copied().unwrap_or(0)
            } else {
                0
            };
            let mut r = vec![
                u16::from(*piece),
                *n as u16,
                *e as u16,
                k as u16,
                base & 0xff,
                base >> 8,
            ];
            r.extend(values.iter().map(|&v| v - base));
            r.resize(stride, 0);
            r
        };
        if narrow {
            let mut bytes = vec![0u8; placements.len() * stride + 64];
            let start = (64 - bytes.as_ptr() as usize % 64) % 64;
            for (id, l) in lists.iter().enumerate() {
                let at = start + id * stride;
                for (b, v) in bytes[at..at + stride].iter_mut().zip(record(l)) {
                    *b = v as u8;
                }
            }
            Footprints {
                narrow: bytes,
                wide: Vec::new(),
                start,
                stride,
            }
        } else {
            let mut values = vec![0u16; placements.len() * stride + 32];
            let start = (64 - values.as_ptr() as usize % 64) % 64 / 2;
            for (id, l) in lists.iter().enumerate() {
                let at = start + id * stride;
                values[at..at + stride].copy_from_slice(&record(l));
            }
            Footprints {
                narrow: Vec::new(),
                wide: values,
                start,
                stride,
            }
        }
    }

    /// The footprint of placement `id`, in the table's width. Hot paths match once and run
    /// code made for that width (see [`with_footprint`]).
    #[inline]
    pub fn get(&self, id: u32) -> FootprintRef<'_> {
        let at = self.start + id as usize * self.stride;
        if self.wide.is_empty() {
            FootprintRef::Narrow(Footprint::decode(&self.narrow[at..at + self.stride]))
        } else {
            FootprintRef::Wide(Footprint::decode(&self.wide[at..at + self.stride]))
        }
    }

    /// Whether the records hold offsets of one byte (every built-in variant).
    pub fn is_narrow(&self) -> bool {
        self.wide.is_empty()
    }
}

/// A footprint in the width of its table.
#[derive(Clone, Copy, Debug)]
pub enum FootprintRef<'a> {
    /// Offsets of one byte from a base cell.
    Narrow(Footprint<'a, u8>),
    /// Cell numbers.
    Wide(Footprint<'a, u16>),
}

/// Runs `$body` with `$fp` bound to the footprint `$get` in its own width, so that the body's
/// loops are made for that width.
#[macro_export]
#[doc(hidden)]
macro_rules! with_footprint {
    ($get:expr, $fp:ident => $body:expr) => {
        match $get {
            $crate::footprint::FootprintRef::Narrow($fp) => $body,
            $crate::footprint::FootprintRef::Wide($fp) => $body,
        }
    };
}
pub use with_footprint;

/// One placement's footprint; cells are `base + value`.
#[derive(Clone, Copy, Debug)]
pub struct Footprint<'a, T> {
    /// The piece.
    pub piece: usize,
    base: usize,
    n: usize,
    e: usize,
    values: &'a [T],
}

impl<'a, T: Copy + Into<usize>> Footprint<'a, T> {
    #[inline]
    fn decode(r: &'a [T]) -> Footprint<'a, T> {
        let at = |i: usize| -> usize { r[i].into() };
        let (n, e, k) = (at(1), at(2), at(3));
        Footprint {
            piece: at(0),
            base: at(4) | at(5) << 8,
            n,
            e,
            values: &r[HEADER..HEADER + n + e + k],
        }
    }

    /// The cells under the piece, in increasing order.
    #[inline]
    pub fn cells(&self) -> impl ExactSizeIterator<Item = usize> + 'a {
        let base = self.base;
        self.values[..self.n].iter().map(move |&v| base + v.into())
    }

    /// The cells sharing an edge with the piece, in increasing order.
    #[inline]
    pub fn edges(&self) -> impl ExactSizeIterator<Item = usize> + 'a {
        let base = self.base;
        self.values[self.n..self.n + self.e]
            .iter()
            .map(move |&v| base + v.into())
    }

    /// The cells touching the piece at a corner only, in increasing order.
    #[inline]
    pub fn corners(&self) -> impl ExactSizeIterator<Item = usize> + 'a {
        let base = self.base;
        self.values[self.n + self.e..]
            .iter()
            .map(move |&v| base + v.into())
    }
}
