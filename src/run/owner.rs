//! Owners of keys: a fixed, well-mixed hash of a packed position picks the worker that owns it.
//!
//! Every process must route a key the same way, so this is never a randomly seeded hasher: it is
//! the SplitMix64 finaliser applied to both halves of the u128, a pure function of the key.

/// A well-mixed 64-bit hash of a packed position (the same on every machine and every run).
pub fn mix(key: u128) -> u64 {
    let lo = mix64(key as u64);
    mix64(lo ^ ((key >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// The SplitMix64 finaliser (Steele, Lea, Flood 2014).
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The worker (of `workers`) that owns `key`.
pub fn owner(key: u128, workers: usize) -> usize {
    // Multiply-shift maps the hash onto 0..workers without the bias of `%` on small counts.
    ((mix(key) as u128 * workers as u128) >> 64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owners_are_fixed_and_spread() {
        // Fixed: the same key always maps to the same owner (no per-process seed).
        assert_eq!(owner(12345, 7), owner(12345, 7));
        let mut counts = [0u32; 4];
        for k in 0..4000u128 {
            counts[owner(k << 70 | k, 4)] += 1;
        }
        assert!(counts.iter().all(|&c| c > 800), "{counts:?}");
    }
}
