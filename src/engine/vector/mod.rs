//! The lane vector: the handful of operations the lane loops need (`engine/lanes/`: the planes
//! step, the kinds step, the driver, the counting batch), written once as the trait [`Vector`]
//! (with [`Funnel`] for the split planes), and one thin module of instructions per instruction
//! set:
//!
//! | module | forms | lanes |
//! |---|---|---|
//! | `portable.rs` | [`Plain64x4`], [`Plain32x8`] | four `u64` or eight `u32` in plain Rust, any processor (ARM included) |
//! | `avx2.rs` | [`Avx2U64x4`], [`Avx2U32x8`] | four `u64` or eight `u32` in a 256-bit register |
//! | `avx512.rs` | [`Avx512U64x8`], [`Avx512U32x16`] | eight `u64` or sixteen `u32` in a 512-bit register; VBMI2's funnel shifts for the split lanes |
//!
//! Each module also holds the few operations of its instruction set outside the lanes: the
//! face planes of 64 slots of cards (`planes`) and, for AVX2, the draws of a shuffle. Which
//! form runs is chosen once, by `engine/isa.rs`, which groups them per instruction set
//! (`isa::Forms`) and compiles the kernels under `#[target_feature]`.
//!
//! Soundness: a value of an x86 form can only be made by [`Vector::splat`], which is `unsafe`
//! and requires the processor to have that form's features; so every other operation, given
//! such a value, may use the features, and is safe. The operations are `#[inline(always)]` and
//! reach their instructions once inlined into a kernel compiled with the features.

use std::ops::{BitAnd, BitOr, Not};

/// A vector of `LANES` (at most 16) lanes of `BITS` bits (`Elem`). "Small" operands are counts
/// below `2^(BITS - 1)`. Scalars come and go as `u64` (a `u32` lane takes the low half).
pub(crate) trait Vector: Copy {
    const LANES: usize;
    /// Bits of a lane: 64, or 32 for [`Avx512U32x16`].
    const BITS: u32;
    /// A lane's value in memory.
    type Elem: Copy + Default + Into<u64>;
    /// One bit of truth per lane.
    type Mask: Copy
        + BitAnd<Output = Self::Mask>
        + BitOr<Output = Self::Mask>
        + Not<Output = Self::Mask>;

    /// Every lane `x`.
    ///
    /// # Safety
    /// The processor has the form's features.
    unsafe fn splat(x: u64) -> Self;
    /// The lanes into the first `LANES` values of `a`.
    fn store(self, a: &mut [u64; 16]);
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    fn xor(self, o: Self) -> Self;
    /// `self >> s` per lane, 0 once `s >= BITS`.
    fn shr(self, s: Self) -> Self;
    /// `self << s` per lane, 0 once `s >= BITS`.
    fn shl(self, s: Self) -> Self;
    fn shr1(self) -> Self;
    fn shr2(self) -> Self;
    /// Leading zeros per lane (`BITS` for 0).
    fn lzcnt(self) -> Self;
    /// `self` rotated right by `s % BITS` per lane.
    fn rotr(self, s: Self) -> Self;
    /// Leading zeros per lane as [`Vector::lzcnt`], except that a zero lane may give any value
    /// from `BITS` to 255: AVX2 counts from a float's exponent, and the clamp of a zero lane
    /// costs two operations a count where the loops only ask "at least the plane's cards".
    #[inline(always)]
    fn lzcnt_loose(self) -> Self {
        self.lzcnt()
    }
    /// [`Vector::lzcnt_loose`] for lanes with no run of 24 set bits (a face plane of at most 23
    /// face cards): AVX2's count then needs no guard against a float rounding up to the next
    /// power of two.
    #[inline(always)]
    fn lzcnt_sparse(self) -> Self {
        self.lzcnt_loose()
    }
    /// `self >> 2` where `m`, `self` elsewhere.
    #[inline(always)]
    fn shr2_where(self, m: Self::Mask) -> Self {
        Self::select(m, self.shr2(), self)
    }
    /// `self + 1` where `m`, `self` elsewhere.
    #[inline(always)]
    fn inc_where(self, m: Self::Mask) -> Self {
        // SAFETY: `self` vouches for the processor's features.
        Self::select(m, self.add(unsafe { Self::splat(1) }), self)
    }
    /// The index of each lane's highest set bit, for lanes from 1 to `2^(BITS - 1) - 1`; any
    /// value otherwise (AVX2 reads it off a float's exponent).
    #[inline(always)]
    fn top_index(self) -> Self {
        // SAFETY: `self` vouches for the processor's features.
        unsafe { Self::splat(u64::from(Self::BITS) - 1) }.sub(self.lzcnt())
    }
    /// Bit `BITS - n` alone (1 rotated right by `n`: a top-down plane's card `n - 1`), for
    /// `1 <= n <= BITS`; any value otherwise (AVX2: one shift of 1, where a rotation is four
    /// operations and a mask).
    #[inline(always)]
    fn top_bit(n: Self) -> Self {
        // SAFETY: `n` vouches for the processor's features.
        unsafe { Self::splat(1) }.rotr(n)
    }
    fn eq(self, o: Self) -> Self::Mask;
    /// `self < o` for small lanes.
    fn lt(self, o: Self) -> Self::Mask;
    /// The smaller of lanes below `2^31` (counts; AVX2 compares the 32-bit halves).
    fn min(self, o: Self) -> Self;
    /// `if m { t } else { f }` per lane.
    fn select(m: Self::Mask, t: Self, f: Self) -> Self;
    /// `if m { x } else { 0 }` per lane.
    fn keep(m: Self::Mask, x: Self) -> Self;
    /// `min(trailing zeros of self, n)` per lane, for `n <= BITS`.
    fn tz_min(self, n: Self) -> Self;
    /// Bit `i` for lane `i`.
    fn bits(m: Self::Mask) -> u32;
    /// The mask of the lanes `i` with bit `i` of `bits` set ([`Vector::bits`] inverted); `self`
    /// only vouches for the processor's features.
    fn mask(self, bits: u32) -> Self::Mask;
    /// `self` with lane `i` (below `LANES`) set to `x`: a refill writes a new game into the
    /// registers, not through memory (a spill, eight-byte stores and a reload stalled on them).
    fn with_lane(self, i: usize, x: u64) -> Self;
    /// `LANES` values from `src`.
    ///
    /// # Safety
    /// The processor has the form's features, and `src` is readable for `LANES` values.
    unsafe fn load(src: *const Self::Elem) -> Self;
    /// The lanes into `LANES` values at `dst`.
    ///
    /// # Safety
    /// `dst` is writable for `LANES` values.
    unsafe fn store_to(self, dst: *mut Self::Elem);
    /// Each lane's bits in reverse order (bit `i` to bit `BITS - 1 - i`).
    fn reverse(self) -> Self;
    /// `self` with the lanes `i` of `bits` (below `LANES`) set to the next values of `src`, in
    /// lane order (the lowest set lane takes `src[0]`): a refill's load of the next games from
    /// arrays into its idle lanes.
    ///
    /// # Safety
    /// `src` is readable for `LANES` values (the AVX2 forms load them whole and permute; the
    /// callers' arrays are padded for it).
    #[inline(always)]
    unsafe fn expand_load(self, bits: u32, src: *const Self::Elem) -> Self {
        let mut v = self;
        let mut s = bits;
        let mut k = 0;
        while s != 0 {
            let i = s.trailing_zeros() as usize;
            s &= s - 1;
            // SAFETY: `k < bits.count_ones()`, the caller's contract.
            v = v.with_lane(i, unsafe { *src.add(k) }.into());
            k += 1;
        }
        v
    }
    /// The kinds of a hand's face cards in order (`penalty - 1`, two bits each, the first
    /// lowest), a 1 above the last: from its planes `faces`, `lo` and `hi` (at most 31 faces;
    /// the caller checks that the result fits a lane).
    fn face_kinds(self, faces: u64, lo: u64, hi: u64) -> u64 {
        let mut kinds = 0;
        let mut at = 0;
        let mut f = faces;
        while f != 0 {
            let i = f.trailing_zeros();
            f &= f - 1;
            // Past 31 faces the kinds no longer fit (the caller refuses such a game): shifted
            // out rather than overflowing, as the checked build would.
            kinds |= ((lo >> i & 1) | (hi >> i & 1) << 1)
                .checked_shl(at)
                .unwrap_or(0);
            at += 2;
        }
        kinds | 1u64.checked_shl(at).unwrap_or(0)
    }
}

/// [`Vector::face_kinds`] with BMI2: each plane's face bits gathered (`pext`) and spread to
/// every other bit (`pdep`).
///
/// # Safety
/// The processor has BMI2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn face_kinds_bmi2(faces: u64, lo: u64, hi: u64) -> u64 {
    use std::arch::x86_64::{_pdep_u64, _pext_u64};
    // SAFETY: the caller's contract.
    unsafe {
        let l = _pdep_u64(_pext_u64(lo, faces), 0x5555_5555_5555_5555);
        let h = _pdep_u64(_pext_u64(hi, faces), 0xAAAA_AAAA_AAAA_AAAA);
        l | h | 1 << (2 * faces.count_ones())
    }
}

/// The two-word shifts of the split face planes (`lanes::kinds::Split`: a plane of up to 64 cards in
/// two words of `u32` lanes, `hi` its first 32 cards), for the `u32` forms.
pub(crate) trait Funnel: Vector {
    /// The high word of `self:lo` shifted left by `s`: `self << s | lo >> (BITS - s)`, for
    /// `s < BITS`.
    fn funnel_shl(self, lo: Self, s: Self) -> Self;
    /// The low word of `hi:self` shifted right by `s`: `self >> s | hi << (BITS - s)`, for
    /// `s < BITS`. From `BITS` on the forms differ (VBMI2 takes `s` modulo `BITS`, the AVX2
    /// form's shifts give 0 past `BITS`): `Split::append` reads it only where both are right.
    fn funnel_shr(self, hi: Self, s: Self) -> Self;
}

pub(crate) mod portable;
pub(crate) use portable::{Plain32x8, Plain64x4};

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512;
#[cfg(target_arch = "x86_64")]
pub(crate) use avx2::{Avx2U32x8, Avx2U64x4};
#[cfg(target_arch = "x86_64")]
pub(crate) use avx512::{Avx512U32x16, Avx512U64x8};

/// Byte indices (within each 128-bit block, as `vpshufb` reads them) that reverse the bytes
/// of each 64-bit lane, and of each 32-bit lane.
#[cfg(target_arch = "x86_64")]
const BYTES_REVERSED_64: [i8; 16] = [7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8];
#[cfg(target_arch = "x86_64")]
const BYTES_REVERSED_32: [i8; 16] = [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12];

/// The checks of every vector form, op by op, against the plain scalar meaning of each op at its
/// lane width, on random lanes and the edge values (0, 1, the top bit, all ones): `engine/isa.rs`
/// runs them in every form the processor has.
#[cfg(test)]
pub(crate) mod checks {
    use super::*;
    use crate::rng::SplitMix64;

    /// The lanes of `v` as `u64`s.
    fn lanes<V: Vector>(v: V) -> Vec<u64> {
        let mut a = [0u64; 16];
        v.store(&mut a);
        a[..V::LANES].to_vec()
    }

    /// A vector of the lanes `x` (values within the lane width).
    fn of<V: Vector>(proof: V, x: &[u64]) -> V {
        let mut v = proof;
        for (i, &x) in x.iter().enumerate().take(V::LANES) {
            v = v.with_lane(i, x);
        }
        v
    }

    /// Runs every op of `V` on random and edge lanes against the scalar model.
    pub(crate) fn check_form<V: Vector>(proof: V) {
        let w = V::BITS;
        let full = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
        let edges = [
            0,
            1,
            2,
            3,
            1 << (w - 1),
            full,
            full >> 1,
            0x5555_5555_5555_5555 & full,
        ];
        let mut rng = SplitMix64::new(53);
        let mut pick = || -> u64 {
            match rng.below(4) {
                0 => edges[rng.below(edges.len() as u64) as usize],
                1 => rng.next_u64() & full & (rng.next_u64() & full),
                _ => rng.next_u64() & full,
            }
        };
        for _ in 0..4000 {
            let a: Vec<u64> = (0..V::LANES).map(|_| pick()).collect();
            let b: Vec<u64> = (0..V::LANES).map(|_| pick()).collect();
            // Shift counts up to and past the width; small operands below 2^(w - 1).
            let s: Vec<u64> = b.iter().map(|&x| x % (u64::from(w) + 3)).collect();
            let small: Vec<u64> = b.iter().map(|&x| x >> 1).collect();
            let small_a: Vec<u64> = a.iter().map(|&x| x >> 1).collect();
            // `min`'s operands, counts below 2^31.
            let count: Vec<u64> = b.iter().map(|&x| x & 0x7FFF_FFFF).collect();
            let count_a: Vec<u64> = a.iter().map(|&x| x & 0x7FFF_FFFF).collect();
            let (va, vb, vs) = (of(proof, &a), of(proof, &b), of(proof, &s));
            let (vsa, vsb) = (of(proof, &small_a), of(proof, &small));
            let map = |f: &dyn Fn(usize) -> u64| -> Vec<u64> { (0..V::LANES).map(f).collect() };
            let mask_lanes = |m: V::Mask| -> Vec<u64> { map(&|i| u64::from(V::bits(m) >> i & 1)) };
            assert_eq!(lanes(va), a, "with_lane/store");
            assert_eq!(lanes(va.add(vb)), map(&|i| a[i].wrapping_add(b[i]) & full));
            assert_eq!(lanes(va.sub(vb)), map(&|i| a[i].wrapping_sub(b[i]) & full));
            assert_eq!(lanes(va.and(vb)), map(&|i| a[i] & b[i]));
            assert_eq!(lanes(va.or(vb)), map(&|i| a[i] | b[i]));
            assert_eq!(lanes(va.xor(vb)), map(&|i| a[i] ^ b[i]));
            let shr = |x: u64, s: u64| if s >= u64::from(w) { 0 } else { x >> s };
            let shl = |x: u64, s: u64| {
                if s >= u64::from(w) {
                    0
                } else {
                    (x << s) & full
                }
            };
            assert_eq!(
                lanes(va.shr(vs)),
                map(&|i| shr(a[i], s[i])),
                "shr {a:x?} {s:?}"
            );
            assert_eq!(
                lanes(va.shl(vs)),
                map(&|i| shl(a[i], s[i])),
                "shl {a:x?} {s:?}"
            );
            assert_eq!(lanes(va.shr1()), map(&|i| a[i] >> 1));
            assert_eq!(lanes(va.shr2()), map(&|i| a[i] >> 2));
            let lz = |x: u64| u64::from(x.leading_zeros()) - (64 - u64::from(w));
            assert_eq!(lanes(va.lzcnt()), map(&|i| lz(a[i])), "lzcnt {a:x?}");
            let rotr = |x: u64, s: u64| {
                let s = s % u64::from(w);
                if s == 0 {
                    x
                } else {
                    (x >> s) | shl(x, u64::from(w) - s)
                }
            };
            assert_eq!(lanes(va.rotr(vs)), map(&|i| rotr(a[i], s[i])), "rotr");
            // The top bit from 1 on, the highest bit's index of lanes below the top bit.
            let from1: Vec<u64> = s.iter().map(|&x| x.clamp(1, u64::from(w))).collect();
            assert_eq!(
                lanes(V::top_bit(of(proof, &from1))),
                map(&|i| 1 << (u64::from(w) - from1[i])),
                "top_bit"
            );
            for (i, &x) in small_a.iter().enumerate() {
                if x != 0 {
                    let top = u64::from(63 - x.leading_zeros());
                    assert_eq!(lanes(vsa.top_index())[i], top, "top_index {x:x}");
                }
            }
            // A zero lane's loose count is anything from the width to 255.
            let loose = lanes(va.lzcnt_loose());
            for (i, &x) in a.iter().enumerate() {
                if x == 0 {
                    assert!((u64::from(w)..256).contains(&loose[i]), "lzcnt_loose of 0");
                } else {
                    assert_eq!(loose[i], lz(x), "lzcnt_loose {x:x}");
                }
            }
            // A sparse lane: no run of 24 set bits (bits 0, 23 and 46 cleared, so all ones
            // leaves runs of 22).
            let sparse: Vec<u64> = a
                .iter()
                .map(|&x| x & !(1 | 1 << 23 | 1 << 46) & full)
                .collect();
            let vsp = of(proof, &sparse);
            for (i, &x) in lanes(vsp.lzcnt_sparse()).iter().enumerate() {
                if sparse[i] == 0 {
                    assert!((u64::from(w)..256).contains(&x), "lzcnt_sparse of 0");
                } else {
                    assert_eq!(x, lz(sparse[i]), "lzcnt_sparse {:x}", sparse[i]);
                }
            }
            assert_eq!(mask_lanes(va.eq(vb)), map(&|i| u64::from(a[i] == b[i])));
            assert_eq!(mask_lanes(va.eq(va)), map(&|_| 1));
            assert_eq!(
                mask_lanes(vsa.lt(vsb)),
                map(&|i| u64::from(small_a[i] < small[i])),
                "lt"
            );
            assert_eq!(
                lanes(of(proof, &count_a).min(of(proof, &count))),
                map(&|i| count_a[i].min(count[i])),
                "min"
            );
            let m = va.lt(vb) | va.eq(vb);
            let mb = mask_lanes(m);
            assert_eq!(
                lanes(V::select(m, va, vb)),
                map(&|i| if mb[i] == 1 { a[i] } else { b[i] })
            );
            assert_eq!(
                lanes(V::keep(m, va)),
                map(&|i| if mb[i] == 1 { a[i] } else { 0 })
            );
            assert_eq!(
                lanes(va.shr2_where(m)),
                map(&|i| if mb[i] == 1 { a[i] >> 2 } else { a[i] }),
                "shr2_where"
            );
            assert_eq!(
                lanes(va.inc_where(m)),
                map(&|i| if mb[i] == 1 {
                    a[i].wrapping_add(1) & full
                } else {
                    a[i]
                }),
                "inc_where"
            );
            assert_eq!(mask_lanes(!m), map(&|i| 1 - mb[i]));
            assert_eq!(mask_lanes(m & va.eq(va)), mb);
            let n: Vec<u64> = s.iter().map(|&x| x.min(u64::from(w))).collect();
            let tz = |x: u64| u64::from(x.trailing_zeros()).min(u64::from(w));
            assert_eq!(
                lanes(va.tz_min(of(proof, &n))),
                map(&|i| tz(a[i]).min(n[i])),
                "tz_min {a:x?}"
            );
            let bits = (b[0] as u32) & ((1u32 << V::LANES) - 1);
            assert_eq!(V::bits(va.mask(bits)), bits, "mask");
            let rev = |x: u64| x.reverse_bits() >> (64 - w);
            assert_eq!(lanes(va.reverse()), map(&|i| rev(a[i])), "reverse");
            // An expand-load from a padded array: the set lanes take consecutive values.
            // Values of `b`'s lanes then `a`'s, as elements (`store_to` checked on the way).
            let mut src = vec![V::Elem::default(); 2 * V::LANES];
            // SAFETY: `src` holds 2 * LANES values, LANES written from each of `vb`, `va`.
            unsafe {
                vb.store_to(src.as_mut_ptr());
                va.store_to(src.as_mut_ptr().add(V::LANES));
            }
            let both: Vec<u64> = b.iter().chain(a.iter()).copied().collect();
            assert_eq!(
                src.iter().map(|&x| x.into()).collect::<Vec<u64>>(),
                both,
                "store_to"
            );
            let at = (a[0] % V::LANES as u64) as usize;
            // SAFETY: `src` holds 2 * LANES values; at most LANES are read from `at < LANES`.
            let got = unsafe { va.expand_load(bits, src.as_ptr().add(at)) };
            let mut k = at;
            let mut want = Vec::new();
            for (i, &x) in a.iter().enumerate() {
                if bits >> i & 1 == 1 {
                    want.push(src[k].into());
                    k += 1;
                } else {
                    want.push(x);
                }
            }
            assert_eq!(lanes(got), want, "expand_load {bits:b}");
            // SAFETY: as above.
            assert_eq!(
                lanes(unsafe { V::load(src.as_ptr().add(at)) }),
                map(&|i| src[at + i].into())
            );
            let (f, lo, hi) = (a[0] & full, b[0] & full, pick());
            if f.count_ones() <= 31 {
                // SAFETY: the portable form needs no feature.
                let plain = unsafe { Plain64x4::splat(0) }.face_kinds(f, lo, hi);
                assert_eq!(va.face_kinds(f, lo, hi), plain, "face_kinds");
            }
        }
    }

    /// The funnel shifts of `V` against their scalar model, for counts below the lane width
    /// (where every form agrees: see [`Funnel`]).
    pub(crate) fn check_funnel<V: Funnel>(proof: V) {
        let w = V::BITS;
        let full = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
        let mut rng = SplitMix64::new(59);
        for _ in 0..4000 {
            let a: Vec<u64> = (0..V::LANES).map(|_| rng.next_u64() & full).collect();
            let b: Vec<u64> = (0..V::LANES).map(|_| rng.next_u64() & full).collect();
            let s: Vec<u64> = (0..V::LANES).map(|_| rng.below(u64::from(w))).collect();
            let (va, vb, vs) = (of(proof, &a), of(proof, &b), of(proof, &s));
            // `x:y` as one number of two lanes' width.
            let cat = |x: u64, y: u64| (u128::from(x) << w) | u128::from(y);
            let low = |x: u128| (x as u64) & full;
            let want_shl: Vec<u64> = (0..V::LANES)
                .map(|i| low((cat(a[i], b[i]) << s[i]) >> w))
                .collect();
            let want_shr: Vec<u64> = (0..V::LANES)
                .map(|i| low(cat(b[i], a[i]) >> s[i]))
                .collect();
            assert_eq!(lanes(va.funnel_shl(vb, vs)), want_shl, "funnel_shl {s:?}");
            assert_eq!(lanes(va.funnel_shr(vb, vs)), want_shr, "funnel_shr {s:?}");
        }
    }
}
