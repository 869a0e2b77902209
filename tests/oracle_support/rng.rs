//! The generator's random source: proptest's seeded ChaCha generator (`TestRng`), so a printed
//! seed regenerates exactly the same cases, with the few helpers the generator needs.

use proptest::prelude::RngExt;
use proptest::test_runner::{RngAlgorithm, TestRng};
use sha2::{Digest, Sha256};

/// A seeded generator for one case.
pub struct Rng(TestRng);

impl Rng {
    /// The generator of case `index` of a run seeded with `seed` (independent per case, so
    /// one case can be regenerated without the others).
    pub fn for_case(seed: u64, index: u64) -> Self {
        let mut hasher = Sha256::new();
        hasher.update(seed.to_le_bytes());
        hasher.update(index.to_le_bytes());
        Rng(TestRng::from_seed(RngAlgorithm::ChaCha, &hasher.finalize()))
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { self.0.random_range(0..n) }
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi.saturating_sub(lo) + 1)
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// Lowercase hex digits.
    pub fn hex(&mut self, len: usize) -> String {
        (0..len)
            .map(|_| char::from(b"0123456789abcdef"[self.below(16)]))
            .collect()
    }

    /// Lowercase hex digits, between `lo` and `hi` of them.
    pub fn hex_between(&mut self, lo: usize, hi: usize) -> String {
        let n = self.range(lo, hi);
        self.hex(n)
    }

    /// Letters and digits, between `lo` and `hi` of them.
    pub fn alnum_between(&mut self, lo: usize, hi: usize) -> String {
        let n = self.range(lo, hi);
        self.alnum(n)
    }

    /// Letters and digits.
    pub fn alnum(&mut self, len: usize) -> String {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        (0..len)
            .map(|_| char::from(ALPHABET[self.below(ALPHABET.len())]))
            .collect()
    }
}
