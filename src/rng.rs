//! Seeded, portable randomness: SplitMix64 streams and an unbiased Fisher–Yates shuffle.
//!
//! Every random deal is a pure function of `(seed, index)`, so results do not depend on how work is
//! split between threads or machines.

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast and well mixed, enough for shuffling deals.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The stream of deal `index` under `seed`: independent of every other index.
    pub fn for_index(seed: u64, index: u64) -> Self {
        let mut s = SplitMix64(seed ^ 0x6A09_E667_F3BC_C909);
        let a = s.next_u64();
        SplitMix64(mix(a ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    /// Uniform in `0..n` (Lemire's multiply-and-reject, no modulo bias). The division that sets
    /// the rejection threshold runs only when the low half falls below `n`, which is rare.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let mut m = (self.next_u64() as u128) * (n as u128);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = (self.next_u64() as u128) * (n as u128);
            }
        }
        (m >> 64) as u64
    }

    /// Fisher–Yates shuffle.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }
}

#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_is_in_range_and_covers() {
        let mut r = SplitMix64::new(1);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            seen[r.below(7) as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn streams_are_deterministic() {
        let a: Vec<u64> = (0..4)
            .map(|i| SplitMix64::for_index(9, i).next_u64())
            .collect();
        let b: Vec<u64> = (0..4)
            .map(|i| SplitMix64::for_index(9, i).next_u64())
            .collect();
        assert_eq!(a, b);
        assert_ne!(a[0], a[1]);
    }
}
