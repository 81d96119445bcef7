//! A fixed-width bitset over the cells of a board.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// Number of 64-bit words in a [`Bits`]; boards hold at most `64 * WORDS` cells.
pub const WORDS: usize = 8;
// `BitsIter` keeps one bit per word in a `u8`.
const _: () = assert!(WORDS <= 8);

/// The largest number of cells a board may have.
pub const MAX_CELLS: usize = 64 * WORDS;

/// A set of cells, one bit per cell index.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Bits(pub [u64; WORDS]);

impl Bits {
    /// The empty set.
    pub const EMPTY: Bits = Bits([0; WORDS]);

    /// A set holding the given cells.
    pub fn from_cells<I: IntoIterator<Item = usize>>(cells: I) -> Bits {
        let mut b = Bits::EMPTY;
        for c in cells {
            b.insert(c);
        }
        b
    }

    /// Adds a cell.
    #[inline(always)]
    pub fn insert(&mut self, cell: usize) {
        self.0[cell >> 6] |= 1u64 << (cell & 63);
    }

    /// Removes a cell.
    #[inline(always)]
    pub fn remove(&mut self, cell: usize) {
        self.0[cell >> 6] &= !(1u64 << (cell & 63));
    }

    /// Whether the cell is in the set.
    #[inline(always)]
    pub fn contains(&self, cell: usize) -> bool {
        self.0[cell >> 6] >> (cell & 63) & 1 != 0
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Whether the two sets share a cell.
    #[inline(always)]
    pub fn intersects(&self, other: &Bits) -> bool {
        self.0.iter().zip(other.0.iter()).any(|(a, b)| a & b != 0)
    }

    /// Whether every cell of the set is in `other`.
    #[inline(always)]
    pub fn is_subset_of(&self, other: &Bits) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a & !b == 0)
    }

    /// Number of cells in the set.
    #[inline(always)]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The cells in increasing order.
    #[inline(always)]
    pub fn iter(&self) -> BitsIter {
        let mut nonzero = 0u8;
        for (i, &w) in self.0.iter().enumerate() {
            nonzero |= u8::from(w != 0) << i;
        }
        BitsIter {
            words: self.0,
            nonzero,
        }
    }
}

/// Iterator over the cells of a [`Bits`], in increasing order. It keeps a mask of the words
/// not yet exhausted, so sparse sets cost little.
pub struct BitsIter {
    words: [u64; WORDS],
    nonzero: u8,
}

impl Iterator for BitsIter {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.nonzero == 0 {
            return None;
        }
        let i = self.nonzero.trailing_zeros() as usize;
        let w = self.words[i];
        let rest = w & (w - 1);
        self.words[i] = rest;
        if rest == 0 {
            self.nonzero &= self.nonzero - 1;
        }
        Some(i * 64 + w.trailing_zeros() as usize)
    }
}

impl BitAnd for Bits {
    type Output = Bits;
    #[inline(always)]
    fn bitand(mut self, rhs: Bits) -> Bits {
        self &= rhs;
        self
    }
}

impl BitOr for Bits {
    type Output = Bits;
    #[inline(always)]
    fn bitor(mut self, rhs: Bits) -> Bits {
        self |= rhs;
        self
    }
}

impl BitAndAssign for Bits {
    #[inline(always)]
    fn bitand_assign(&mut self, rhs: Bits) {
        for (a, b) in self.0.iter_mut().zip(rhs.0.iter()) {
            *a &= b;
        }
    }
}

impl BitOrAssign for Bits {
    #[inline(always)]
    fn bitor_assign(&mut self, rhs: Bits) {
        for (a, b) in self.0.iter_mut().zip(rhs.0.iter()) {
            *a |= b;
        }
    }
}

impl Not for Bits {
    type Output = Bits;
    #[inline(always)]
    fn not(mut self) -> Bits {
        for a in self.0.iter_mut() {
            *a = !*a;
        }
        self
    }
}

/// The position of the `k`-th lowest set bit of `word` (counted from 0), which has more than
/// `k` set bits: found by halving, six steps without a data-dependent branch (clearing the
/// lowest bit `k` times costs up to 63 dependent steps and a mispredicted exit).
#[inline(always)]
pub fn nth_one(word: u64, k: u32) -> u32 {
    debug_assert!(k < word.count_ones());
    let (mut x, mut k, mut at) = (word, k, 0);
    for half in [32, 16, 8, 4, 2, 1] {
        let low = (x & ((1u64 << half) - 1)).count_ones();
        if k >= low {
            k -= low;
            x >>= half;
            at += half;
        }
    }
    at
}

/// The position of the `k`-th lowest set bit of the words taken as one bitset (word `w` holds
/// bits `64 * w..64 * w + 64`), which has more than `k` set bits.
#[inline(always)]
pub fn nth_one_in(words: &[u64], mut k: usize) -> usize {
    for (w, &word) in words.iter().enumerate() {
        let n = word.count_ones() as usize;
        if k < n {
            return w * 64 + nth_one(word, k as u32) as usize;
        }
        k -= n;
    }
    unreachable!("k is below the number of set bits")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations_follow_the_cells() {
        let a = Bits::from_cells([0, 63, 64, 511]);
        let b = Bits::from_cells([63, 100]);
        assert_eq!((a & b).iter().collect::<Vec<_>>(), vec![63]);
        assert_eq!((a | b).count(), 5);
        assert!(a.intersects(&b));
        assert!(!a.intersects(&Bits::from_cells([1, 2])));
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![0, 63, 64, 511]);
        assert!((!Bits::EMPTY).contains(300));
        assert!(b.is_subset_of(&(a | b)));
        assert!(!a.is_subset_of(&b));
    }

    #[test]
    fn nth_one_finds_each_set_bit_in_order() {
        let mut rng = crate::rng::Rng::new(7);
        let mut words = vec![1, 1 << 63, !0, 0x8000_0000_0000_0001, 0x00ff_0000_ff00_0f0f];
        // Sparse, dense and even words.
        words.extend((0..300).map(|i| match i % 3 {
            0 => rng.next_u64() & rng.next_u64() & rng.next_u64(),
            1 => rng.next_u64() | rng.next_u64(),
            _ => rng.next_u64(),
        }));
        for word in words.into_iter().filter(|&w| w != 0) {
            let ones: Vec<u32> = (0..64).filter(|&b| word >> b & 1 != 0).collect();
            for (k, &at) in ones.iter().enumerate() {
                assert_eq!(nth_one(word, k as u32), at, "{word:#x} k {k}");
            }
        }
        let words = [0x8000_0000_0000_0001, 0, 0b110];
        let ones: Vec<usize> = (0..3).map(|k| nth_one_in(&words, k)).collect();
        assert_eq!(ones, [0, 63, 129]);
        assert_eq!(nth_one_in(&words, 3), 130);
    }
}
