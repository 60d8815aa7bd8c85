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
        self.0 = self.0.wrapping_add(GAMMA);
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

    /// [`SplitMix64::shuffle`] of `v[..n]` (`n <= 64`): the same permutation, the stream left
    /// in the same state, but faster. SplitMix64 is a counter: draw `k` is
    /// `mix(state + (k + 1) * GAMMA)`, independent of the draws before it, so every draw of the
    /// shuffle and its multiply-and-shift (Lemire) is computed in one pass that the compiler
    /// turns into vector code (eight draws per AVX-512 register), and only the swaps are left in
    /// sequence. A draw that [`SplitMix64::below`] could reject (probability below `n / 2^64`)
    /// sends the whole shuffle to the plain loop, so the answer never differs. (The deals of
    /// `ansatz bench` and `search random`: with AVX-512 the draws take about 7% of the bench's
    /// time, the swaps 11%, against 23% for the whole shuffle before.)
    ///
    /// `draws(state, n, js)` is [`batch_draws`] compiled for the processor's vectors, negated:
    /// true when it filled `js` exactly; false sends the shuffle to the plain loop (as does a
    /// processor without vectors to run it).
    #[inline]
    pub fn shuffle64<T>(
        &mut self,
        v: &mut [T; 64],
        n: usize,
        draws: impl FnOnce(u64, usize, &mut [u8; 64]) -> bool,
    ) {
        assert!(n <= 64, "shuffle64 shuffles at most 64 items");
        if n < 2 {
            return;
        }
        let mut js = [0u8; 64];
        if !draws(self.0, n, &mut js) {
            return self.shuffle(&mut v[..n]);
        }
        for (k, &j) in js[..n - 1].iter().enumerate() {
            v.swap(n - 1 - k, usize::from(j) & 63);
        }
        self.0 = self.0.wrapping_add(GAMMA.wrapping_mul(n as u64 - 1));
    }
}

/// [`SplitMix64::shuffle64`] a few swaps at a time ([`SplitMix64::start_shuffle64`]), so that
/// the swaps, a chain of scalar loads and stores, can run between the steps of the vector lanes.
#[derive(Clone, Debug)]
pub struct StepShuffle {
    js: [u8; 64],
    /// The next draw to apply, and the draws in all (`n - 1`).
    k: usize,
    draws: usize,
}

impl Default for StepShuffle {
    /// A finished shuffle.
    fn default() -> Self {
        StepShuffle {
            js: [0; 64],
            k: 0,
            draws: 0,
        }
    }
}

impl StepShuffle {
    /// Where a shuffle's draws go ([`SplitMix64::begin_shuffle64`]).
    #[inline(always)]
    pub fn draws_mut(&mut self) -> &mut [u8; 64] {
        &mut self.js
    }

    /// Whether every swap is applied.
    #[inline(always)]
    pub fn finished(&self) -> bool {
        self.k == self.draws
    }

    /// Applies up to `count` more swaps to `v`; true when the shuffle is finished.
    #[inline(always)]
    pub fn swaps<T>(&mut self, v: &mut [T; 64], count: usize) -> bool {
        let end = (self.k + count).min(self.draws);
        let last = self.draws;
        for k in self.k..end {
            // Both below 64 (`k < draws < 64`): the masks only spare the bounds checks.
            v.swap((last - k) & 63, usize::from(self.js[k & 63]) & 63);
        }
        self.k = end;
        end == self.draws
    }
}

impl SplitMix64 {
    /// The start of [`SplitMix64::shuffle64`] of `n` items (`2 <= n <= 64`) into `st`: its
    /// draws, with the swaps left to [`StepShuffle::swaps`], which then give the same
    /// permutation. False (`st` finished, the stream untouched) where `shuffle64` would take the
    /// plain loop: the caller shuffles with [`SplitMix64::shuffle`].
    #[inline]
    pub fn start_shuffle64(
        &mut self,
        n: usize,
        draws: impl FnOnce(u64, usize, &mut [u8; 64]) -> bool,
        st: &mut StepShuffle,
    ) -> bool {
        let held = draws(self.0, n, st.draws_mut());
        self.begin_shuffle64(n, held, st)
    }

    /// [`SplitMix64::start_shuffle64`] with the draws made by the caller into
    /// [`StepShuffle::draws_mut`] from this stream ([`SplitMix64::state`]), `held` when they were
    /// (the lanes' dealer makes them in its kernel's vector forms, with no closure between).
    #[inline(always)]
    pub fn begin_shuffle64(&mut self, n: usize, held: bool, st: &mut StepShuffle) -> bool {
        assert!(
            (2..=64).contains(&n),
            "start_shuffle64 shuffles 2 to 64 items"
        );
        st.k = 0;
        if !held {
            st.draws = 0;
            return false;
        }
        st.draws = n - 1;
        self.0 = self.0.wrapping_add(GAMMA.wrapping_mul(n as u64 - 1));
        true
    }

    /// The stream's state, where a shuffle's draws start (`batch_draws`'s `state`).
    #[inline(always)]
    pub fn state(&self) -> u64 {
        self.0
    }
}

/// The increment of SplitMix64's counter (the golden ratio, odd).
pub(crate) const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The multipliers of SplitMix64's mix.
pub(crate) const MIX: [u64; 2] = [0xBF58_476D_1CE4_E5B9, 0x94D0_49BB_1331_11EB];

/// The `n - 1` draws of a Fisher–Yates shuffle of `n` items (`2 <= n <= 64`) from a SplitMix64
/// counter at `state`, into `js`: `js[k] = below(n - k)` for the `k`-th draw. Returns true when
/// some draw lands where `below` might reject it (`js` is then unspecified).
///
/// Eight draws at a time (whole groups, so the compiler keeps every group one vector, with no
/// remainder loop), inlined into a caller compiled for AVX-512 or AVX2 (`deal.rs`), where it
/// becomes vector code; in scalar code its four multiplies a draw are slower than the plain
/// loop's three. `below(b)` is the high half of the 128-bit product `x * b`; for `b < 2^32` it
/// is `(hi(x) * b + (lo(x) * b >> 32)) >> 32` in `u64`s, and the low half, which decides a
/// rejection, is `lo(x) * b + (hi(x) * b << 32)` wrapped. `below` rejects only when the low half
/// is under `b`, so when none is the draws are exact.
#[inline(always)]
pub fn batch_draws(state: u64, n: usize, js: &mut [u8; 64]) -> bool {
    let draws = n - 1;
    let mut rare = 0u64;
    for g in 0..draws.div_ceil(8) {
        for l in 0..8 {
            let k = g * 8 + l;
            let x = mix(state.wrapping_add(GAMMA.wrapping_mul(k as u64 + 1)));
            // The bound of draw k; past the last draw any positive bound will do.
            // (Masked to 32 bits so the compiler multiplies 32 by 32 bits, `vpmuludq`.)
            let b = (n as u64).saturating_sub(k as u64).max(1) & 0xFFFF_FFFF;
            let high = (x >> 32) * b;
            let low = (x & 0xFFFF_FFFF) * b;
            js[k] = ((high + (low >> 32)) >> 32) as u8;
            let wrapped = low.wrapping_add(high << 32);
            rare |= u64::from(wrapped < b) & u64::from(k < draws);
        }
    }
    rare != 0
}

#[inline(always)]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(MIX[0]);
    z = (z ^ (z >> 27)).wrapping_mul(MIX[1]);
    z ^ (z >> 31)
}

#[cfg(test)]
pub(crate) mod tests {
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

    /// The batched shuffle gives the plain loop's permutation and leaves the stream where it
    /// leaves it, for every length, many seeds, and items that tell every slot apart.
    #[test]
    fn shuffle64_equals_the_plain_shuffle() {
        for n in 0..=64 {
            for index in 0..300 {
                let mut a = SplitMix64::for_index(n as u64, index);
                let mut b = a.clone();
                let mut va: [u16; 64] = std::array::from_fn(|i| i as u16);
                let mut vb = va;
                a.shuffle(&mut va[..n]);
                b.shuffle64(&mut vb, n, |s, n, js| !batch_draws(s, n, js));
                assert_eq!(va, vb, "n {n} index {index}");
                assert_eq!(
                    a.next_u64(),
                    b.next_u64(),
                    "stream state, n {n} index {index}"
                );
            }
        }
    }

    /// The shuffle in steps gives [`SplitMix64::shuffle64`]'s permutation, whatever the steps.
    #[test]
    fn step_shuffle_equals_shuffle64() {
        for n in 2..=64 {
            for index in 0..100 {
                let mut a = SplitMix64::for_index(n as u64, index);
                let mut b = a.clone();
                let mut va: [u16; 64] = std::array::from_fn(|i| i as u16);
                let mut vb = va;
                a.shuffle64(&mut va, n, |s, n, js| !batch_draws(s, n, js));
                let mut st = StepShuffle::default();
                assert!(b.start_shuffle64(n, |s, n, js| !batch_draws(s, n, js), &mut st));
                let count = 1 + index as usize % 9;
                while !st.swaps(&mut vb, count) {}
                assert!(st.finished());
                assert_eq!(va, vb, "n {n} index {index}");
                assert_eq!(a.next_u64(), b.next_u64(), "n {n} index {index}");
            }
        }
    }

    /// The draws that `below` might reject are found: a state whose first draw's low half is
    /// forced under its bound takes the plain loop, and both loops still agree.
    #[test]
    fn rejection_draws_fall_back_to_the_plain_loop() {
        // `draws` flags exactly the draws `below` would examine further.
        for n in 2..=64usize {
            for seed in 0..200u64 {
                let state = mix(seed ^ ((n as u64) << 40));
                let mut js = [0u8; 64];
                let rare = batch_draws(state, n, &mut js);
                let mut r = SplitMix64(state);
                let mut want = false;
                for (k, &j) in js[..n - 1].iter().enumerate() {
                    let b = (n - k) as u64;
                    let x = r.next_u64();
                    want |= x.wrapping_mul(b) < b;
                    if !want {
                        assert_eq!(u64::from(j), ((x as u128 * b as u128) >> 64) as u64);
                    }
                }
                assert_eq!(rare, want);
            }
        }
        // A state whose first draw is 0: its low half 0 is under any bound, so `below` looks
        // at the threshold; the batched shuffle must take the plain loop and agree with it.
        let zero_state = unmix(0).wrapping_sub(GAMMA);
        assert_eq!(SplitMix64(zero_state).next_u64(), 0);
        let mut js = [0u8; 64];
        assert!(batch_draws(zero_state, 52, &mut js));
        let mut va: [u16; 64] = std::array::from_fn(|i| i as u16);
        let mut vb = va;
        SplitMix64(zero_state).shuffle(&mut va[..52]);
        SplitMix64(zero_state).shuffle64(&mut vb, 52, |s, n, js| !batch_draws(s, n, js));
        assert_eq!(va, vb);
    }

    /// The inverse of `mix` (each step of it is invertible), to build a state with a chosen draw.
    pub(crate) fn unmix(mut z: u64) -> u64 {
        z ^= (z >> 31) ^ (z >> 62);
        z = z.wrapping_mul(inverse(0x94D0_49BB_1331_11EB));
        z ^= (z >> 27) ^ (z >> 54);
        z = z.wrapping_mul(inverse(0xBF58_476D_1CE4_E5B9));
        z ^ (z >> 30) ^ (z >> 60)
    }

    /// The inverse of odd `a` modulo 2^64 (Newton's iteration).
    fn inverse(a: u64) -> u64 {
        let mut x = a;
        for _ in 0..6 {
            x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
        }
        x
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
