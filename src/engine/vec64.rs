//! The lane vector of the 64-card lanes: a few `u64` lanes and the handful of operations the
//! move loops of `moves64.rs` and `kinds64.rs` need, in three forms: eight lanes in AVX-512
//! registers, four in AVX2 registers and four in plain `u64`s (any processor); and a fourth form,
//! sixteen `u32` lanes in AVX-512 registers, in which the exhaustive search plays the kinds loop
//! for decks of up to 32 cards. The move loops are written once over [`Vec64`]; each form is a
//! thin wrapper of its instructions.
//!
//! Soundness: a value of an x86 form can only be made by [`Vec64::splat`], which is `unsafe`
//! and requires the processor to have that form's features; so every other
//! operation, given such a value, may use the features, and is safe. The operations are
//! `#[inline(always)]` and reach their instructions once inlined into the caller compiled with
//! the features (`lanes64.rs` instantiates the loop under `#[target_feature]`).

#![cfg_attr(
    not(target_arch = "x86_64"),
    allow(dead_code, unused_imports, unused_variables)
)]
// Elsewhere (ARM) the batch plays one by one: the vector loops are reached only from the
// tests of their portable form, so their x86-only callers leave parts unused there.

use std::ops::{BitAnd, BitOr, Not};

/// A vector of `LANES` (at most 16) lanes of `BITS` bits (`Elem`). "Small" operands are counts
/// below `2^(BITS - 1)`. Scalars come and go as `u64` (a `u32` lane takes the low half).
pub(crate) trait Vec64: Copy {
    const LANES: usize;
    /// Bits of a lane: 64, or 32 for [`Avx512x16`].
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
    /// `self` rotated left by `s % BITS` per lane.
    fn rotl(self, s: Self) -> Self;
    /// `self` rotated right by `s % BITS` per lane.
    fn rotr(self, s: Self) -> Self;
    fn eq(self, o: Self) -> Self::Mask;
    /// `self < o` for small lanes.
    fn lt(self, o: Self) -> Self::Mask;
    /// The smaller of small lanes.
    fn min(self, o: Self) -> Self;
    /// `if m { t } else { f }` per lane.
    fn select(m: Self::Mask, t: Self, f: Self) -> Self;
    /// `if m { x } else { 0 }` per lane.
    fn keep(m: Self::Mask, x: Self) -> Self;
    /// `min(trailing zeros of self, n)` per lane, for `n <= BITS`.
    fn tz_min(self, n: Self) -> Self;
    /// Bit `i` for lane `i`.
    fn bits(m: Self::Mask) -> u32;
    /// The mask of the lanes `i` with bit `i` of `bits` set ([`Vec64::bits`] inverted); `self`
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
            kinds |= ((lo >> i & 1) | (hi >> i & 1) << 1) << at;
            at += 2;
        }
        kinds | 1 << at
    }
}

/// [`Vec64::face_kinds`] with BMI2: each plane's face bits gathered (`pext`) and spread to
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

/// Four lanes in plain `u64`s, for any processor (the specification of the vector forms).
#[derive(Clone, Copy)]
pub(crate) struct Portable([u64; 4]);

/// A portable lane mask: all ones or zero per lane.
#[derive(Clone, Copy)]
pub(crate) struct PortableMask([u64; 4]);

#[inline(always)]
fn map2(a: [u64; 4], b: [u64; 4], f: impl Fn(u64, u64) -> u64) -> [u64; 4] {
    [f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2]), f(a[3], b[3])]
}

impl BitAnd for PortableMask {
    type Output = Self;
    #[inline(always)]
    fn bitand(self, o: Self) -> Self {
        PortableMask(map2(self.0, o.0, |a, b| a & b))
    }
}

impl BitOr for PortableMask {
    type Output = Self;
    #[inline(always)]
    fn bitor(self, o: Self) -> Self {
        PortableMask(map2(self.0, o.0, |a, b| a | b))
    }
}

impl Not for PortableMask {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        PortableMask(self.0.map(|a| !a))
    }
}

impl Vec64 for Portable {
    const LANES: usize = 4;
    const BITS: u32 = 64;
    type Elem = u64;
    type Mask = PortableMask;
    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        Portable([x; 4])
    }
    #[inline(always)]
    fn store(self, a: &mut [u64; 16]) {
        a[..4].copy_from_slice(&self.0);
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        Portable(map2(self.0, o.0, u64::wrapping_add))
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        Portable(map2(self.0, o.0, u64::wrapping_sub))
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        Portable(map2(self.0, o.0, |a, b| a & b))
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        Portable(map2(self.0, o.0, |a, b| a | b))
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        Portable(map2(self.0, o.0, |a, b| a ^ b))
    }
    #[inline(always)]
    fn shr(self, s: Self) -> Self {
        Portable(map2(self.0, s.0, |a, s| {
            a.checked_shr(s.min(64) as u32).unwrap_or(0)
        }))
    }
    #[inline(always)]
    fn shl(self, s: Self) -> Self {
        Portable(map2(self.0, s.0, |a, s| {
            a.checked_shl(s.min(64) as u32).unwrap_or(0)
        }))
    }
    #[inline(always)]
    fn shr1(self) -> Self {
        Portable(self.0.map(|a| a >> 1))
    }
    #[inline(always)]
    fn shr2(self) -> Self {
        Portable(self.0.map(|a| a >> 2))
    }
    #[inline(always)]
    fn lzcnt(self) -> Self {
        Portable(self.0.map(|a| u64::from(a.leading_zeros())))
    }
    #[inline(always)]
    fn rotl(self, s: Self) -> Self {
        Portable(map2(self.0, s.0, |a, s| a.rotate_left(s as u32 & 63)))
    }
    #[inline(always)]
    fn rotr(self, s: Self) -> Self {
        Portable(map2(self.0, s.0, |a, s| a.rotate_right(s as u32 & 63)))
    }
    #[inline(always)]
    fn eq(self, o: Self) -> PortableMask {
        PortableMask(map2(self.0, o.0, |a, b| u64::from(a == b).wrapping_neg()))
    }
    #[inline(always)]
    fn lt(self, o: Self) -> PortableMask {
        PortableMask(map2(self.0, o.0, |a, b| u64::from(a < b).wrapping_neg()))
    }
    #[inline(always)]
    fn min(self, o: Self) -> Self {
        Portable(map2(self.0, o.0, u64::min))
    }
    #[inline(always)]
    fn select(m: PortableMask, t: Self, f: Self) -> Self {
        let tm = map2(t.0, m.0, |t, m| t & m);
        Portable(map2(tm, map2(f.0, m.0, |f, m| f & !m), |a, b| a | b))
    }
    #[inline(always)]
    fn keep(m: PortableMask, x: Self) -> Self {
        Portable(map2(x.0, m.0, |x, m| x & m))
    }
    #[inline(always)]
    fn tz_min(self, n: Self) -> Self {
        Portable(map2(self.0, n.0, |x, n| {
            u64::from(x.trailing_zeros()).min(n)
        }))
    }
    #[inline(always)]
    fn bits(m: PortableMask) -> u32 {
        (0..4).map(|i| ((m.0[i] & 1) as u32) << i).sum()
    }
    #[inline(always)]
    fn mask(self, bits: u32) -> PortableMask {
        PortableMask(std::array::from_fn(|i| {
            u64::from(bits >> i & 1 == 1).wrapping_neg()
        }))
    }
    #[inline(always)]
    fn with_lane(mut self, i: usize, x: u64) -> Self {
        self.0[i & 3] = x;
        self
    }
    #[inline(always)]
    unsafe fn load(src: *const u64) -> Self {
        // SAFETY: the caller's contract.
        Portable(std::array::from_fn(|i| unsafe { *src.add(i) }))
    }
    #[inline(always)]
    unsafe fn store_to(self, dst: *mut u64) {
        for (i, &x) in self.0.iter().enumerate() {
            // SAFETY: the caller's contract.
            unsafe { *dst.add(i) = x }
        }
    }
    #[inline(always)]
    fn reverse(self) -> Self {
        Portable(self.0.map(u64::reverse_bits))
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use x86::{Avx2, Avx2x8, Avx512, Avx512x16};

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::Vec64;
    use std::arch::x86_64::*;
    use std::ops::{BitAnd, BitOr, Not};

    /// Four lanes in a 256-bit AVX2 register (AVX2 and BMI1 needed).
    #[derive(Clone, Copy)]
    pub(crate) struct Avx2(__m256i);

    /// An AVX2 lane mask: all ones or zero per lane.
    #[derive(Clone, Copy)]
    pub(crate) struct Avx2Mask(__m256i);

    // SAFETY (every `unsafe` block below): a value of these types exists only when the processor
    // has AVX2 (see the module head), and the intrinsics need nothing more.
    impl BitAnd for Avx2Mask {
        type Output = Self;
        #[inline(always)]
        fn bitand(self, o: Self) -> Self {
            Avx2Mask(unsafe { _mm256_and_si256(self.0, o.0) })
        }
    }

    impl BitOr for Avx2Mask {
        type Output = Self;
        #[inline(always)]
        fn bitor(self, o: Self) -> Self {
            Avx2Mask(unsafe { _mm256_or_si256(self.0, o.0) })
        }
    }

    impl Not for Avx2Mask {
        type Output = Self;
        #[inline(always)]
        fn not(self) -> Self {
            Avx2Mask(unsafe { _mm256_xor_si256(self.0, _mm256_set1_epi64x(-1)) })
        }
    }

    impl Vec64 for Avx2 {
        const LANES: usize = 4;
        const BITS: u32 = 64;
        type Elem = u64;
        type Mask = Avx2Mask;
        #[inline(always)]
        unsafe fn splat(x: u64) -> Self {
            Avx2(unsafe { _mm256_set1_epi64x(x as i64) })
        }
        #[inline(always)]
        fn store(self, a: &mut [u64; 16]) {
            // SAFETY: `a` holds 16 writable values; the store is unaligned.
            unsafe { _mm256_storeu_si256(a.as_mut_ptr() as *mut __m256i, self.0) }
        }
        #[inline(always)]
        fn add(self, o: Self) -> Self {
            Avx2(unsafe { _mm256_add_epi64(self.0, o.0) })
        }
        #[inline(always)]
        fn sub(self, o: Self) -> Self {
            Avx2(unsafe { _mm256_sub_epi64(self.0, o.0) })
        }
        #[inline(always)]
        fn and(self, o: Self) -> Self {
            Avx2(unsafe { _mm256_and_si256(self.0, o.0) })
        }
        #[inline(always)]
        fn or(self, o: Self) -> Self {
            Avx2(unsafe { _mm256_or_si256(self.0, o.0) })
        }
        #[inline(always)]
        fn xor(self, o: Self) -> Self {
            Avx2(unsafe { _mm256_xor_si256(self.0, o.0) })
        }
        #[inline(always)]
        fn shr(self, s: Self) -> Self {
            Avx2(unsafe { _mm256_srlv_epi64(self.0, s.0) })
        }
        #[inline(always)]
        fn shl(self, s: Self) -> Self {
            Avx2(unsafe { _mm256_sllv_epi64(self.0, s.0) })
        }
        #[inline(always)]
        fn shr1(self) -> Self {
            Avx2(unsafe { _mm256_srli_epi64::<1>(self.0) })
        }
        #[inline(always)]
        fn shr2(self) -> Self {
            Avx2(unsafe { _mm256_srli_epi64::<2>(self.0) })
        }
        /// AVX2 has no per-lane count: the count of each 32-bit half ([`lzcnt32`]), the low
        /// half's added where the high half is empty.
        #[inline(always)]
        fn lzcnt(self) -> Self {
            unsafe {
                let l = lzcnt32(self.0);
                let hi = _mm256_srli_epi64::<32>(l);
                let lo = _mm256_and_si256(l, _mm256_set1_epi64x(0xFFFF_FFFF));
                let empty = _mm256_cmpeq_epi64(hi, _mm256_set1_epi64x(32));
                Avx2(_mm256_add_epi64(hi, _mm256_and_si256(empty, lo)))
            }
        }
        /// Two shifts: a shift by 64 gives 0, so a rotation by 0 is `x | 0`.
        #[inline(always)]
        fn rotl(self, s: Self) -> Self {
            unsafe {
                let s = _mm256_and_si256(s.0, _mm256_set1_epi64x(63));
                let r = _mm256_sub_epi64(_mm256_set1_epi64x(64), s);
                Avx2(_mm256_or_si256(
                    _mm256_sllv_epi64(self.0, s),
                    _mm256_srlv_epi64(self.0, r),
                ))
            }
        }
        #[inline(always)]
        fn rotr(self, s: Self) -> Self {
            unsafe {
                let s = _mm256_and_si256(s.0, _mm256_set1_epi64x(63));
                let r = _mm256_sub_epi64(_mm256_set1_epi64x(64), s);
                Avx2(_mm256_or_si256(
                    _mm256_srlv_epi64(self.0, s),
                    _mm256_sllv_epi64(self.0, r),
                ))
            }
        }
        #[inline(always)]
        fn eq(self, o: Self) -> Avx2Mask {
            Avx2Mask(unsafe { _mm256_cmpeq_epi64(self.0, o.0) })
        }
        #[inline(always)]
        fn lt(self, o: Self) -> Avx2Mask {
            // Signed, which is right for small lanes.
            Avx2Mask(unsafe { _mm256_cmpgt_epi64(o.0, self.0) })
        }
        #[inline(always)]
        fn min(self, o: Self) -> Self {
            Self::select(self.lt(o), self, o)
        }
        #[inline(always)]
        fn select(m: Avx2Mask, t: Self, f: Self) -> Self {
            Avx2(unsafe { _mm256_blendv_epi8(f.0, t.0, m.0) })
        }
        #[inline(always)]
        fn keep(m: Avx2Mask, x: Self) -> Self {
            Avx2(unsafe { _mm256_and_si256(m.0, x.0) })
        }
        /// AVX2 has no per-lane bit count, so: isolate the lowest set bit, convert each 32-bit
        /// half to a float and read its exponent (127 + k for 2^k, 0 for no bit). Only one half
        /// holds the bit; `e - 126` in the low half and `e - 94` in the high one, clamped at 0,
        /// give `k + 1` counted from lane bit 0; their sum less one is the count (127 for a zero
        /// lane, which the `min` with `n <= 64` makes `n`).
        #[inline(always)]
        fn tz_min(self, n: Self) -> Self {
            unsafe {
                let x = self.0;
                let low = _mm256_and_si256(x, _mm256_sub_epi64(_mm256_setzero_si256(), x));
                let f = _mm256_castps_si256(_mm256_cvtepi32_ps(low));
                let e = _mm256_and_si256(_mm256_srli_epi32::<23>(f), _mm256_set1_epi32(0xff));
                let off = _mm256_set1_epi64x((94 << 32) | 126);
                let g = _mm256_max_epi32(_mm256_sub_epi32(e, off), _mm256_setzero_si256());
                let s = _mm256_add_epi64(g, _mm256_srli_epi64::<32>(g));
                let t = _mm256_and_si256(
                    _mm256_sub_epi64(s, _mm256_set1_epi64x(1)),
                    _mm256_set1_epi64x(127),
                );
                Avx2(t).min(n)
            }
        }
        #[inline(always)]
        fn bits(m: Avx2Mask) -> u32 {
            (unsafe { _mm256_movemask_pd(_mm256_castsi256_pd(m.0)) }) as u32
        }
        #[inline(always)]
        fn mask(self, bits: u32) -> Avx2Mask {
            unsafe {
                let lane_bits = _mm256_setr_epi64x(1, 2, 4, 8);
                let b = _mm256_and_si256(_mm256_set1_epi64x(i64::from(bits)), lane_bits);
                Avx2Mask(_mm256_cmpeq_epi64(b, lane_bits))
            }
        }
        #[inline(always)]
        fn with_lane(self, i: usize, x: u64) -> Self {
            unsafe {
                let at = _mm256_cmpeq_epi64(
                    _mm256_setr_epi64x(0, 1, 2, 3),
                    _mm256_set1_epi64x(i as i64),
                );
                Avx2(_mm256_blendv_epi8(self.0, _mm256_set1_epi64x(x as i64), at))
            }
        }
        /// One load and one permutation of its 32-bit halves ([`EXPAND`]), blended in.
        #[inline(always)]
        unsafe fn expand_load(self, bits: u32, src: *const u64) -> Self {
            // SAFETY: the caller's contract (four values readable); the loads are unaligned.
            unsafe {
                let v = _mm256_loadu_si256(src as *const __m256i);
                let b = (bits & 15) as usize;
                let idx = _mm256_loadu_si256(EXPAND64[b].as_ptr() as *const __m256i);
                let m = self.mask(bits);
                Avx2(_mm256_blendv_epi8(
                    self.0,
                    _mm256_permutevar8x32_epi32(v, idx),
                    m.0,
                ))
            }
        }
        #[inline(always)]
        unsafe fn load(src: *const u64) -> Self {
            // SAFETY: the caller's contract; the load is unaligned.
            Avx2(unsafe { _mm256_loadu_si256(src as *const __m256i) })
        }
        #[inline(always)]
        unsafe fn store_to(self, dst: *mut u64) {
            // SAFETY: the caller's contract; the store is unaligned.
            unsafe { _mm256_storeu_si256(dst as *mut __m256i, self.0) }
        }
        #[inline(always)]
        fn reverse(self) -> Self {
            Avx2(unsafe { reverse_bytes_bits_avx2(self.0, BYTES_REVERSED_64) })
        }
        #[inline(always)]
        fn face_kinds(self, faces: u64, lo: u64, hi: u64) -> u64 {
            // SAFETY: the lane features include BMI2 (checked with them by `Isa::get`).
            unsafe { super::face_kinds_bmi2(faces, lo, hi) }
        }
    }

    /// Leading zeros of each 32-bit element (32 for 0), for AVX2, which has no such count: the
    /// element's highest set bit kept with the bits below it that follow a clear bit
    /// (`x & !(x >> 1)`: no two adjacent ones, so converting it to a float never rounds up to
    /// the next power of two) and read off the float's exponent. An element with its top bit
    /// set, which the signed conversion reads as negative, is answered 0 by its sign.
    ///
    /// # Safety
    /// The processor has AVX2.
    #[inline(always)]
    unsafe fn lzcnt32(x: __m256i) -> __m256i {
        unsafe {
            let t = _mm256_andnot_si256(_mm256_srli_epi32::<1>(x), x);
            let e = _mm256_srli_epi32::<23>(_mm256_castps_si256(_mm256_cvtepi32_ps(t)));
            // 2^k has exponent 127 + k and 31 - k leading zeros; 0 has exponent 0 (158 -> 32).
            let z = _mm256_min_epu32(
                _mm256_sub_epi32(_mm256_set1_epi32(158), e),
                _mm256_set1_epi32(32),
            );
            _mm256_andnot_si256(_mm256_srai_epi32::<31>(x), z)
        }
    }

    /// [`reverse_bytes_bits`] in AVX2 registers.
    ///
    /// # Safety
    /// The processor has AVX2.
    #[inline(always)]
    unsafe fn reverse_bytes_bits_avx2(x: __m256i, order: [i8; 16]) -> __m256i {
        unsafe {
            let nibbles = _mm256_broadcastsi128_si256(_mm_setr_epi8(
                0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15,
            ));
            let low = _mm256_set1_epi8(0x0F);
            let lo = _mm256_and_si256(x, low);
            let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(x), low);
            let bytes = _mm256_or_si256(
                _mm256_slli_epi16::<4>(_mm256_shuffle_epi8(nibbles, lo)),
                _mm256_shuffle_epi8(nibbles, hi),
            );
            let o = order;
            let order = _mm256_broadcastsi128_si256(_mm_setr_epi8(
                o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10], o[11], o[12],
                o[13], o[14], o[15],
            ));
            _mm256_shuffle_epi8(bytes, order)
        }
    }

    /// For each set of eight lanes, the index of the value each set lane takes in an expand-load
    /// (the number of set lanes below it; 0 for clear lanes, which keep their value).
    static EXPAND: [[u32; 8]; 256] = {
        let mut t = [[0u32; 8]; 256];
        let mut m = 0;
        while m < 256 {
            let mut i = 0;
            let mut k = 0;
            while i < 8 {
                if m >> i & 1 == 1 {
                    t[m][i] = k;
                    k += 1;
                }
                i += 1;
            }
            m += 1;
        }
        t
    };

    /// [`EXPAND`] for four `u64` lanes, as the indices of their 32-bit halves.
    static EXPAND64: [[u32; 8]; 16] = {
        let mut t = [[0u32; 8]; 16];
        let mut m = 0;
        while m < 16 {
            let mut i = 0;
            let mut k = 0;
            while i < 4 {
                if m >> i & 1 == 1 {
                    t[m][2 * i] = 2 * k;
                    t[m][2 * i + 1] = 2 * k + 1;
                    k += 1;
                }
                i += 1;
            }
            m += 1;
        }
        t
    };

    /// Eight `u32` lanes in a 256-bit AVX2 register (AVX2 and BMI1 needed): the exhaustive
    /// search's batch of decks of up to 34 cards on processors without AVX-512.
    #[derive(Clone, Copy)]
    pub(crate) struct Avx2x8(__m256i);

    // SAFETY (every `unsafe` block below): as for `Avx2`.
    impl Vec64 for Avx2x8 {
        const LANES: usize = 8;
        const BITS: u32 = 32;
        type Elem = u32;
        type Mask = Avx2Mask;
        #[inline(always)]
        unsafe fn splat(x: u64) -> Self {
            Avx2x8(unsafe { _mm256_set1_epi32(x as i32) })
        }
        #[inline(always)]
        fn store(self, a: &mut [u64; 16]) {
            // SAFETY: `a` holds 16 writable values; the stores are unaligned.
            unsafe {
                let lo = _mm256_cvtepu32_epi64(_mm256_castsi256_si128(self.0));
                let hi = _mm256_cvtepu32_epi64(_mm256_extracti128_si256::<1>(self.0));
                _mm256_storeu_si256(a.as_mut_ptr() as *mut __m256i, lo);
                _mm256_storeu_si256(a.as_mut_ptr().add(4) as *mut __m256i, hi);
            }
        }
        #[inline(always)]
        fn add(self, o: Self) -> Self {
            Avx2x8(unsafe { _mm256_add_epi32(self.0, o.0) })
        }
        #[inline(always)]
        fn sub(self, o: Self) -> Self {
            Avx2x8(unsafe { _mm256_sub_epi32(self.0, o.0) })
        }
        #[inline(always)]
        fn and(self, o: Self) -> Self {
            Avx2x8(unsafe { _mm256_and_si256(self.0, o.0) })
        }
        #[inline(always)]
        fn or(self, o: Self) -> Self {
            Avx2x8(unsafe { _mm256_or_si256(self.0, o.0) })
        }
        #[inline(always)]
        fn xor(self, o: Self) -> Self {
            Avx2x8(unsafe { _mm256_xor_si256(self.0, o.0) })
        }
        #[inline(always)]
        fn shr(self, s: Self) -> Self {
            Avx2x8(unsafe { _mm256_srlv_epi32(self.0, s.0) })
        }
        #[inline(always)]
        fn shl(self, s: Self) -> Self {
            Avx2x8(unsafe { _mm256_sllv_epi32(self.0, s.0) })
        }
        #[inline(always)]
        fn shr1(self) -> Self {
            Avx2x8(unsafe { _mm256_srli_epi32::<1>(self.0) })
        }
        #[inline(always)]
        fn shr2(self) -> Self {
            Avx2x8(unsafe { _mm256_srli_epi32::<2>(self.0) })
        }
        #[inline(always)]
        fn lzcnt(self) -> Self {
            Avx2x8(unsafe { lzcnt32(self.0) })
        }
        #[inline(always)]
        fn rotl(self, s: Self) -> Self {
            unsafe {
                let s = _mm256_and_si256(s.0, _mm256_set1_epi32(31));
                let r = _mm256_sub_epi32(_mm256_set1_epi32(32), s);
                Avx2x8(_mm256_or_si256(
                    _mm256_sllv_epi32(self.0, s),
                    _mm256_srlv_epi32(self.0, r),
                ))
            }
        }
        #[inline(always)]
        fn rotr(self, s: Self) -> Self {
            unsafe {
                let s = _mm256_and_si256(s.0, _mm256_set1_epi32(31));
                let r = _mm256_sub_epi32(_mm256_set1_epi32(32), s);
                Avx2x8(_mm256_or_si256(
                    _mm256_srlv_epi32(self.0, s),
                    _mm256_sllv_epi32(self.0, r),
                ))
            }
        }
        #[inline(always)]
        fn eq(self, o: Self) -> Avx2Mask {
            Avx2Mask(unsafe { _mm256_cmpeq_epi32(self.0, o.0) })
        }
        #[inline(always)]
        fn lt(self, o: Self) -> Avx2Mask {
            // Signed, which is right for small lanes.
            Avx2Mask(unsafe { _mm256_cmpgt_epi32(o.0, self.0) })
        }
        #[inline(always)]
        fn min(self, o: Self) -> Self {
            Avx2x8(unsafe { _mm256_min_epu32(self.0, o.0) })
        }
        #[inline(always)]
        fn select(m: Avx2Mask, t: Self, f: Self) -> Self {
            Avx2x8(unsafe { _mm256_blendv_epi8(f.0, t.0, m.0) })
        }
        #[inline(always)]
        fn keep(m: Avx2Mask, x: Self) -> Self {
            Avx2x8(unsafe { _mm256_and_si256(m.0, x.0) })
        }
        /// The lowest set bit's float exponent less 127; a zero lane's wraps past `n`.
        #[inline(always)]
        fn tz_min(self, n: Self) -> Self {
            unsafe {
                let x = self.0;
                let low = _mm256_and_si256(x, _mm256_sub_epi32(_mm256_setzero_si256(), x));
                let f = _mm256_castps_si256(_mm256_cvtepi32_ps(low));
                let e = _mm256_and_si256(_mm256_srli_epi32::<23>(f), _mm256_set1_epi32(0xff));
                let t = _mm256_sub_epi32(e, _mm256_set1_epi32(127));
                Avx2x8(_mm256_min_epu32(t, n.0))
            }
        }
        #[inline(always)]
        fn bits(m: Avx2Mask) -> u32 {
            (unsafe { _mm256_movemask_ps(_mm256_castsi256_ps(m.0)) }) as u32
        }
        #[inline(always)]
        fn mask(self, bits: u32) -> Avx2Mask {
            unsafe {
                let lane_bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
                let b = _mm256_and_si256(_mm256_set1_epi32(bits as i32), lane_bits);
                Avx2Mask(_mm256_cmpeq_epi32(b, lane_bits))
            }
        }
        #[inline(always)]
        fn with_lane(self, i: usize, x: u64) -> Self {
            unsafe {
                let at = _mm256_cmpeq_epi32(
                    _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                    _mm256_set1_epi32(i as i32),
                );
                Avx2x8(_mm256_blendv_epi8(self.0, _mm256_set1_epi32(x as i32), at))
            }
        }
        /// One load and one permutation ([`EXPAND`]), blended in.
        #[inline(always)]
        unsafe fn expand_load(self, bits: u32, src: *const u32) -> Self {
            // SAFETY: the caller's contract (eight values readable); the loads are unaligned.
            unsafe {
                let v = _mm256_loadu_si256(src as *const __m256i);
                let b = (bits & 255) as usize;
                let idx = _mm256_loadu_si256(EXPAND[b].as_ptr() as *const __m256i);
                let m = self.mask(bits);
                Avx2x8(_mm256_blendv_epi8(
                    self.0,
                    _mm256_permutevar8x32_epi32(v, idx),
                    m.0,
                ))
            }
        }
        #[inline(always)]
        unsafe fn load(src: *const u32) -> Self {
            // SAFETY: the caller's contract; the load is unaligned.
            Avx2x8(unsafe { _mm256_loadu_si256(src as *const __m256i) })
        }
        #[inline(always)]
        unsafe fn store_to(self, dst: *mut u32) {
            // SAFETY: the caller's contract; the store is unaligned.
            unsafe { _mm256_storeu_si256(dst as *mut __m256i, self.0) }
        }
        #[inline(always)]
        fn reverse(self) -> Self {
            Avx2x8(unsafe { reverse_bytes_bits_avx2(self.0, BYTES_REVERSED_32) })
        }
        #[inline(always)]
        fn face_kinds(self, faces: u64, lo: u64, hi: u64) -> u64 {
            // SAFETY: the lane features include BMI2 (checked with them by `Isa::get`).
            unsafe { super::face_kinds_bmi2(faces, lo, hi) }
        }
    }

    /// Eight lanes in a 512-bit AVX-512 register (F, CD, BW, DQ, VL).
    #[derive(Clone, Copy)]
    pub(crate) struct Avx512(__m512i);

    // SAFETY (every `unsafe` block below): a value of this type exists only when the processor
    // has AVX-512 F, CD, BW, DQ and VL (see the module head).
    impl Vec64 for Avx512 {
        const LANES: usize = 8;
        const BITS: u32 = 64;
        type Elem = u64;
        type Mask = u8;
        #[inline(always)]
        unsafe fn splat(x: u64) -> Self {
            Avx512(unsafe { _mm512_set1_epi64(x as i64) })
        }
        #[inline(always)]
        fn store(self, a: &mut [u64; 16]) {
            // SAFETY: `a` holds 16 writable values; the store is unaligned.
            unsafe { _mm512_storeu_si512(a.as_mut_ptr() as *mut __m512i, self.0) }
        }
        #[inline(always)]
        fn add(self, o: Self) -> Self {
            Avx512(unsafe { _mm512_add_epi64(self.0, o.0) })
        }
        #[inline(always)]
        fn sub(self, o: Self) -> Self {
            Avx512(unsafe { _mm512_sub_epi64(self.0, o.0) })
        }
        #[inline(always)]
        fn and(self, o: Self) -> Self {
            Avx512(unsafe { _mm512_and_si512(self.0, o.0) })
        }
        #[inline(always)]
        fn or(self, o: Self) -> Self {
            Avx512(unsafe { _mm512_or_si512(self.0, o.0) })
        }
        #[inline(always)]
        fn xor(self, o: Self) -> Self {
            Avx512(unsafe { _mm512_xor_si512(self.0, o.0) })
        }
        #[inline(always)]
        fn shr(self, s: Self) -> Self {
            Avx512(unsafe { _mm512_srlv_epi64(self.0, s.0) })
        }
        #[inline(always)]
        fn shl(self, s: Self) -> Self {
            Avx512(unsafe { _mm512_sllv_epi64(self.0, s.0) })
        }
        #[inline(always)]
        fn shr1(self) -> Self {
            Avx512(unsafe { _mm512_srli_epi64::<1>(self.0) })
        }
        #[inline(always)]
        fn shr2(self) -> Self {
            Avx512(unsafe { _mm512_srli_epi64::<2>(self.0) })
        }
        #[inline(always)]
        fn lzcnt(self) -> Self {
            Avx512(unsafe { _mm512_lzcnt_epi64(self.0) })
        }
        #[inline(always)]
        fn rotl(self, s: Self) -> Self {
            Avx512(unsafe { _mm512_rolv_epi64(self.0, s.0) })
        }
        #[inline(always)]
        fn rotr(self, s: Self) -> Self {
            Avx512(unsafe { _mm512_rorv_epi64(self.0, s.0) })
        }
        #[inline(always)]
        fn eq(self, o: Self) -> u8 {
            unsafe { _mm512_cmpeq_epi64_mask(self.0, o.0) }
        }
        #[inline(always)]
        fn lt(self, o: Self) -> u8 {
            unsafe { _mm512_cmplt_epu64_mask(self.0, o.0) }
        }
        #[inline(always)]
        fn min(self, o: Self) -> Self {
            Avx512(unsafe { _mm512_min_epu64(self.0, o.0) })
        }
        #[inline(always)]
        fn select(m: u8, t: Self, f: Self) -> Self {
            Avx512(unsafe { _mm512_mask_blend_epi64(m, f.0, t.0) })
        }
        #[inline(always)]
        fn keep(m: u8, x: Self) -> Self {
            Avx512(unsafe { _mm512_maskz_mov_epi64(m, x.0) })
        }
        /// `64 - lzcnt(!x & (x - 1))`: the bits below the lowest set one, counted.
        #[inline(always)]
        fn tz_min(self, n: Self) -> Self {
            unsafe {
                let x = self.0;
                let below = _mm512_andnot_si512(x, _mm512_sub_epi64(x, _mm512_set1_epi64(1)));
                let tz = _mm512_sub_epi64(_mm512_set1_epi64(64), _mm512_lzcnt_epi64(below));
                Avx512(_mm512_min_epu64(tz, n.0))
            }
        }
        #[inline(always)]
        fn bits(m: u8) -> u32 {
            u32::from(m)
        }
        #[inline(always)]
        fn mask(self, bits: u32) -> u8 {
            bits as u8
        }
        #[inline(always)]
        fn with_lane(self, i: usize, x: u64) -> Self {
            Avx512(unsafe { _mm512_mask_set1_epi64(self.0, 1 << (i & 7), x as i64) })
        }
        /// One expand-load: the set lanes read consecutive values.
        #[inline(always)]
        unsafe fn expand_load(self, bits: u32, src: *const u64) -> Self {
            // SAFETY: the caller's contract (the load reads `bits.count_ones()` values).
            Avx512(unsafe { _mm512_mask_expandloadu_epi64(self.0, bits as u8, src as *const i64) })
        }
        #[inline(always)]
        unsafe fn load(src: *const u64) -> Self {
            // SAFETY: the caller's contract; the load is unaligned.
            Avx512(unsafe { _mm512_loadu_si512(src as *const __m512i) })
        }
        #[inline(always)]
        unsafe fn store_to(self, dst: *mut u64) {
            // SAFETY: the caller's contract; the store is unaligned.
            unsafe { _mm512_storeu_si512(dst as *mut __m512i, self.0) }
        }
        #[inline(always)]
        fn reverse(self) -> Self {
            Avx512(unsafe { reverse_bytes_bits(self.0, BYTES_REVERSED_64) })
        }
        #[inline(always)]
        fn face_kinds(self, faces: u64, lo: u64, hi: u64) -> u64 {
            // SAFETY: the lane features include BMI2 (checked with them by `Isa::get`).
            unsafe { super::face_kinds_bmi2(faces, lo, hi) }
        }
    }

    /// Byte indices (within each 128-bit block, as `vpshufb` reads them) that reverse the bytes
    /// of each 64-bit lane, and of each 32-bit lane.
    const BYTES_REVERSED_64: [i8; 16] = [7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8];
    const BYTES_REVERSED_32: [i8; 16] = [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12];

    /// Every lane's bits reversed: each byte's bits by two table lookups of its nibbles (`vpshufb`,
    /// AVX-512 BW), then the lane's bytes by the shuffle `order`.
    ///
    /// # Safety
    /// The processor has AVX-512 F and BW.
    #[inline(always)]
    unsafe fn reverse_bytes_bits(x: __m512i, order: [i8; 16]) -> __m512i {
        unsafe {
            // The nibble `i` bit-reversed, in every 128-bit block.
            let nibbles = _mm512_broadcast_i32x4(_mm_setr_epi8(
                0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15,
            ));
            let low = _mm512_set1_epi8(0x0F);
            let lo = _mm512_and_si512(x, low);
            let hi = _mm512_and_si512(_mm512_srli_epi16::<4>(x), low);
            // The low nibble reversed goes high, the high one low (shifts within 16 bits: no bit
            // crosses a byte, the values being at most 15).
            let bytes = _mm512_or_si512(
                _mm512_slli_epi16::<4>(_mm512_shuffle_epi8(nibbles, lo)),
                _mm512_shuffle_epi8(nibbles, hi),
            );
            let o = order;
            let order = _mm512_broadcast_i32x4(_mm_setr_epi8(
                o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10], o[11], o[12],
                o[13], o[14], o[15],
            ));
            _mm512_shuffle_epi8(bytes, order)
        }
    }

    /// Sixteen `u32` lanes in a 512-bit AVX-512 register (F, CD, BW, DQ, VL): the exhaustive
    /// search's batch of decks of up to 32 cards (`search/exhaustive/tally/kinds.rs`).
    #[derive(Clone, Copy)]
    pub(crate) struct Avx512x16(__m512i);

    /// Funnel shifts of two words (AVX-512 VBMI2, which the callers of these check besides the
    /// lanes' features: `kinds64::Split`).
    impl Avx512x16 {
        /// `self:lo` (`self` the high word) shifted left by `s` modulo 32, its high word: `self
        /// << s | lo >> (32 - s)`.
        #[inline(always)]
        pub(crate) fn funnel_shl(self, lo: Self, s: Self) -> Self {
            // SAFETY: the caller's contract above.
            Avx512x16(unsafe { _mm512_shldv_epi32(self.0, lo.0, s.0) })
        }
        /// `hi:self` (`self` the low word) shifted right by `s` modulo 32, its low word: `self
        /// >> s | hi << (32 - s)`.
        #[inline(always)]
        pub(crate) fn funnel_shr(self, hi: Self, s: Self) -> Self {
            // SAFETY: the caller's contract above.
            Avx512x16(unsafe { _mm512_shrdv_epi32(self.0, hi.0, s.0) })
        }
    }

    // SAFETY (every `unsafe` block below): as for `Avx512`.
    impl Vec64 for Avx512x16 {
        const LANES: usize = 16;
        const BITS: u32 = 32;
        type Elem = u32;
        type Mask = u16;
        #[inline(always)]
        unsafe fn splat(x: u64) -> Self {
            Avx512x16(unsafe { _mm512_set1_epi32(x as i32) })
        }
        #[inline(always)]
        fn store(self, a: &mut [u64; 16]) {
            // SAFETY: `a` holds 16 writable values; the stores are unaligned.
            unsafe {
                let lo = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(self.0));
                let hi = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64::<1>(self.0));
                _mm512_storeu_si512(a.as_mut_ptr() as *mut __m512i, lo);
                _mm512_storeu_si512(a.as_mut_ptr().add(8) as *mut __m512i, hi);
            }
        }
        #[inline(always)]
        fn add(self, o: Self) -> Self {
            Avx512x16(unsafe { _mm512_add_epi32(self.0, o.0) })
        }
        #[inline(always)]
        fn sub(self, o: Self) -> Self {
            Avx512x16(unsafe { _mm512_sub_epi32(self.0, o.0) })
        }
        #[inline(always)]
        fn and(self, o: Self) -> Self {
            Avx512x16(unsafe { _mm512_and_si512(self.0, o.0) })
        }
        #[inline(always)]
        fn or(self, o: Self) -> Self {
            Avx512x16(unsafe { _mm512_or_si512(self.0, o.0) })
        }
        #[inline(always)]
        fn xor(self, o: Self) -> Self {
            Avx512x16(unsafe { _mm512_xor_si512(self.0, o.0) })
        }
        #[inline(always)]
        fn shr(self, s: Self) -> Self {
            Avx512x16(unsafe { _mm512_srlv_epi32(self.0, s.0) })
        }
        #[inline(always)]
        fn shl(self, s: Self) -> Self {
            Avx512x16(unsafe { _mm512_sllv_epi32(self.0, s.0) })
        }
        #[inline(always)]
        fn shr1(self) -> Self {
            Avx512x16(unsafe { _mm512_srli_epi32::<1>(self.0) })
        }
        #[inline(always)]
        fn shr2(self) -> Self {
            Avx512x16(unsafe { _mm512_srli_epi32::<2>(self.0) })
        }
        #[inline(always)]
        fn lzcnt(self) -> Self {
            Avx512x16(unsafe { _mm512_lzcnt_epi32(self.0) })
        }
        #[inline(always)]
        fn rotl(self, s: Self) -> Self {
            Avx512x16(unsafe { _mm512_rolv_epi32(self.0, s.0) })
        }
        #[inline(always)]
        fn rotr(self, s: Self) -> Self {
            Avx512x16(unsafe { _mm512_rorv_epi32(self.0, s.0) })
        }
        #[inline(always)]
        fn eq(self, o: Self) -> u16 {
            unsafe { _mm512_cmpeq_epi32_mask(self.0, o.0) }
        }
        #[inline(always)]
        fn lt(self, o: Self) -> u16 {
            unsafe { _mm512_cmplt_epu32_mask(self.0, o.0) }
        }
        #[inline(always)]
        fn min(self, o: Self) -> Self {
            Avx512x16(unsafe { _mm512_min_epu32(self.0, o.0) })
        }
        #[inline(always)]
        fn select(m: u16, t: Self, f: Self) -> Self {
            Avx512x16(unsafe { _mm512_mask_blend_epi32(m, f.0, t.0) })
        }
        #[inline(always)]
        fn keep(m: u16, x: Self) -> Self {
            Avx512x16(unsafe { _mm512_maskz_mov_epi32(m, x.0) })
        }
        /// `32 - lzcnt(!x & (x - 1))`, as `Avx512`'s.
        #[inline(always)]
        fn tz_min(self, n: Self) -> Self {
            unsafe {
                let x = self.0;
                let below = _mm512_andnot_si512(x, _mm512_sub_epi32(x, _mm512_set1_epi32(1)));
                let tz = _mm512_sub_epi32(_mm512_set1_epi32(32), _mm512_lzcnt_epi32(below));
                Avx512x16(_mm512_min_epu32(tz, n.0))
            }
        }
        #[inline(always)]
        fn bits(m: u16) -> u32 {
            u32::from(m)
        }
        #[inline(always)]
        fn mask(self, bits: u32) -> u16 {
            bits as u16
        }
        #[inline(always)]
        fn with_lane(self, i: usize, x: u64) -> Self {
            Avx512x16(unsafe { _mm512_mask_set1_epi32(self.0, 1 << (i & 15), x as i32) })
        }
        /// One expand-load: the set lanes read consecutive values.
        #[inline(always)]
        unsafe fn expand_load(self, bits: u32, src: *const u32) -> Self {
            // SAFETY: the caller's contract (the load reads `bits.count_ones()` values).
            Avx512x16(unsafe {
                _mm512_mask_expandloadu_epi32(self.0, bits as u16, src as *const i32)
            })
        }
        #[inline(always)]
        unsafe fn load(src: *const u32) -> Self {
            // SAFETY: the caller's contract; the load is unaligned.
            Avx512x16(unsafe { _mm512_loadu_si512(src as *const __m512i) })
        }
        #[inline(always)]
        unsafe fn store_to(self, dst: *mut u32) {
            // SAFETY: the caller's contract; the store is unaligned.
            unsafe { _mm512_storeu_si512(dst as *mut __m512i, self.0) }
        }
        #[inline(always)]
        fn reverse(self) -> Self {
            Avx512x16(unsafe { reverse_bytes_bits(self.0, BYTES_REVERSED_32) })
        }
        #[inline(always)]
        fn face_kinds(self, faces: u64, lo: u64, hi: u64) -> u64 {
            // SAFETY: the lane features include BMI2 (checked with them by `Isa::get`).
            unsafe { super::face_kinds_bmi2(faces, lo, hi) }
        }
    }
}

#[cfg(test)]
mod tests {
    //! Every vector form, op by op, against the plain scalar meaning of each op at its lane
    //! width, on random lanes and the edge values (0, 1, the top bit, all ones). A form whose
    //! instructions this processor lacks is skipped, and says so.
    use super::*;
    use crate::engine::isa::Isa;
    use crate::rng::SplitMix64;

    /// The lanes of `v` as `u64`s.
    fn lanes<V: Vec64>(v: V) -> Vec<u64> {
        let mut a = [0u64; 16];
        v.store(&mut a);
        a[..V::LANES].to_vec()
    }

    /// A vector of the lanes `x` (values within the lane width).
    fn of<V: Vec64>(proof: V, x: &[u64]) -> V {
        let mut v = proof;
        for (i, &x) in x.iter().enumerate().take(V::LANES) {
            v = v.with_lane(i, x);
        }
        v
    }

    /// Runs every op of `V` on random and edge lanes against the scalar model.
    fn check_form<V: Vec64>(proof: V) {
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
            let rot = |x: u64, s: u64, left: bool| {
                let s = s % u64::from(w);
                if s == 0 {
                    x
                } else if left {
                    shl(x, s) | (x >> (u64::from(w) - s))
                } else {
                    (x >> s) | shl(x, u64::from(w) - s)
                }
            };
            assert_eq!(lanes(va.rotl(vs)), map(&|i| rot(a[i], s[i], true)), "rotl");
            assert_eq!(lanes(va.rotr(vs)), map(&|i| rot(a[i], s[i], false)), "rotr");
            assert_eq!(mask_lanes(va.eq(vb)), map(&|i| u64::from(a[i] == b[i])));
            assert_eq!(mask_lanes(va.eq(va)), map(&|_| 1));
            assert_eq!(
                mask_lanes(vsa.lt(vsb)),
                map(&|i| u64::from(small_a[i] < small[i])),
                "lt"
            );
            assert_eq!(
                lanes(vsa.min(vsb)),
                map(&|i| small_a[i].min(small[i])),
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
                let plain = unsafe { Portable::splat(0) }.face_kinds(f, lo, hi);
                assert_eq!(va.face_kinds(f, lo, hi), plain, "face_kinds");
            }
        }
    }

    #[test]
    fn every_vector_form_computes_what_its_scalar_model_does() {
        // SAFETY: the portable form needs no feature.
        check_form(unsafe { Portable::splat(0) });
        let mut skipped = Vec::new();
        for isa in [Isa::Avx512, Isa::Avx2] {
            if !isa.supported() {
                skipped.push(isa.name());
                continue;
            }
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the processor has the form's features (checked above).
            unsafe {
                match isa {
                    Isa::Avx512 => {
                        check_form(Avx512::splat(0));
                        check_form(Avx512x16::splat(0));
                    }
                    _ => {
                        check_form(Avx2::splat(0));
                        check_form(Avx2x8::splat(0));
                    }
                }
            }
        }
        if !skipped.is_empty() {
            eprintln!(
                "skipped (this processor lacks them): {}",
                skipped.join(", ")
            );
        }
    }
}
