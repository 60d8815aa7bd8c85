//! The AVX2 forms of the lane vector: four `u64` lanes ([`Avx2U64x4`], the random games' lanes past
//! 16 face cards or 60 cards) and eight `u32` lanes ([`Avx2U32x8`], the random games' split lanes
//! and the exhaustive search's batch of decks of up to 34 cards),
//! with the per-lane counts AVX2 lacks (leading and trailing zeros) built from float
//! conversions, and expand-loads from a permutation table; and AVX2's face planes of 64 slots and
//! draws of a shuffle (`engine/isa.rs` calls them in its AVX2 kernels).

use super::{Funnel, Vector};
use std::arch::x86_64::*;
use std::ops::{BitAnd, BitOr, Not};

/// Four lanes in a 256-bit AVX2 register (AVX2 and BMI1 needed).
#[derive(Clone, Copy)]
pub(crate) struct Avx2U64x4(__m256i);

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

impl Vector for Avx2U64x4 {
    const LANES: usize = 4;
    const BITS: u32 = 64;
    type Elem = u64;
    type Mask = Avx2Mask;
    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        Avx2U64x4(unsafe { _mm256_set1_epi64x(x as i64) })
    }
    #[inline(always)]
    fn store(self, a: &mut [u64; 16]) {
        // SAFETY: `a` holds 16 writable values; the store is unaligned.
        unsafe { _mm256_storeu_si256(a.as_mut_ptr() as *mut __m256i, self.0) }
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        Avx2U64x4(unsafe { _mm256_add_epi64(self.0, o.0) })
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        Avx2U64x4(unsafe { _mm256_sub_epi64(self.0, o.0) })
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        Avx2U64x4(unsafe { _mm256_and_si256(self.0, o.0) })
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        Avx2U64x4(unsafe { _mm256_or_si256(self.0, o.0) })
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        Avx2U64x4(unsafe { _mm256_xor_si256(self.0, o.0) })
    }
    #[inline(always)]
    fn shr(self, s: Self) -> Self {
        Avx2U64x4(unsafe { _mm256_srlv_epi64(self.0, s.0) })
    }
    #[inline(always)]
    fn shl(self, s: Self) -> Self {
        Avx2U64x4(unsafe { _mm256_sllv_epi64(self.0, s.0) })
    }
    #[inline(always)]
    fn shr1(self) -> Self {
        Avx2U64x4(unsafe { _mm256_srli_epi64::<1>(self.0) })
    }
    #[inline(always)]
    fn shr2(self) -> Self {
        Avx2U64x4(unsafe { _mm256_srli_epi64::<2>(self.0) })
    }
    #[inline(always)]
    fn lzcnt(self) -> Self {
        Avx2U64x4(unsafe { _mm256_min_epu32(self.lzcnt_loose().0, _mm256_set1_epi64x(64)) })
    }
    /// AVX2 has no per-lane count: the count of each 32-bit half from a float's exponent
    /// ([`exponent32`]), the high half's as is (158 for an empty half) and the low half's
    /// with 32 added; the smaller of the two is the lane's count (158 for a zero lane).
    #[inline(always)]
    fn lzcnt_loose(self) -> Self {
        unsafe {
            // 2^k has exponent 127 + k: 31 - k leading zeros in the high half, 63 - k counted
            // from the lane's top in the low half. A half with its top bit set reads as negative
            // (its exponent past 256 with the sign) and is floored at 0, or 32 in the low half.
            let e = exponent32(self.0);
            let z = _mm256_max_epi32(
                _mm256_sub_epi32(_mm256_set1_epi64x(158 << 32 | 190), e),
                _mm256_set1_epi64x(32),
            );
            // The high dword of each lane ends 0: min(high count, 0).
            Avx2U64x4(_mm256_min_epu32(z, _mm256_srli_epi64::<32>(z)))
        }
    }
    /// 63 less the loose count: a nonzero lane's count is exact.
    #[inline(always)]
    fn top_index(self) -> Self {
        Avx2U64x4(unsafe { _mm256_sub_epi64(_mm256_set1_epi64x(63), self.lzcnt_loose().0) })
    }
    #[inline(always)]
    fn top_bit(n: Self) -> Self {
        unsafe {
            let s = _mm256_sub_epi64(_mm256_set1_epi64x(64), n.0);
            Avx2U64x4(_mm256_sllv_epi64(_mm256_set1_epi64x(1), s))
        }
    }
    /// Two shifts: a shift by 64 gives 0, so a rotation by 0 is `x | 0`.
    #[inline(always)]
    fn rotr(self, s: Self) -> Self {
        unsafe {
            let s = _mm256_and_si256(s.0, _mm256_set1_epi64x(63));
            let r = _mm256_sub_epi64(_mm256_set1_epi64x(64), s);
            Avx2U64x4(_mm256_or_si256(
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
    /// The lanes are below 2^31: the high halves are 0, and the low halves' minimum is the
    /// lanes'.
    #[inline(always)]
    fn min(self, o: Self) -> Self {
        Avx2U64x4(unsafe { _mm256_min_epu32(self.0, o.0) })
    }
    #[inline(always)]
    fn select(m: Avx2Mask, t: Self, f: Self) -> Self {
        Avx2U64x4(unsafe { _mm256_blendv_epi8(f.0, t.0, m.0) })
    }
    #[inline(always)]
    fn keep(m: Avx2Mask, x: Self) -> Self {
        Avx2U64x4(unsafe { _mm256_and_si256(m.0, x.0) })
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
            Avx2U64x4(t).min(n)
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
            let at =
                _mm256_cmpeq_epi64(_mm256_setr_epi64x(0, 1, 2, 3), _mm256_set1_epi64x(i as i64));
            Avx2U64x4(_mm256_blendv_epi8(self.0, _mm256_set1_epi64x(x as i64), at))
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
            Avx2U64x4(_mm256_blendv_epi8(
                self.0,
                _mm256_permutevar8x32_epi32(v, idx),
                m.0,
            ))
        }
    }
    #[inline(always)]
    unsafe fn load(src: *const u64) -> Self {
        // SAFETY: the caller's contract; the load is unaligned.
        Avx2U64x4(unsafe { _mm256_loadu_si256(src as *const __m256i) })
    }
    #[inline(always)]
    unsafe fn store_to(self, dst: *mut u64) {
        // SAFETY: the caller's contract; the store is unaligned.
        unsafe { _mm256_storeu_si256(dst as *mut __m256i, self.0) }
    }
    #[inline(always)]
    fn reverse(self) -> Self {
        Avx2U64x4(unsafe { reverse_bytes_bits_avx2(self.0, super::BYTES_REVERSED_64) })
    }
    #[inline(always)]
    fn face_kinds(self, faces: u64, lo: u64, hi: u64) -> u64 {
        // SAFETY: the lane features include BMI2 (checked with them by `Isa::get`).
        unsafe { super::face_kinds_bmi2(faces, lo, hi) }
    }
}

/// The float exponent of each 32-bit element's highest set bit, as AVX2, which has no count of
/// leading zeros, reads it: the bit kept with the bits below it that follow a clear bit
/// (`x & !(x >> 1)`: no two adjacent ones, so the conversion to a float never rounds up to the
/// next power of two), converted, and the exponent field read with the sign above it. So
/// 2^k gives 127 + k, 0 gives 0, and an element with its top bit set (negative to the signed
/// conversion) 256 + 157 or 256 + 158.
///
/// # Safety
/// The processor has AVX2.
#[inline(always)]
unsafe fn exponent32(x: __m256i) -> __m256i {
    unsafe {
        let t = _mm256_andnot_si256(_mm256_srli_epi32::<1>(x), x);
        _mm256_srli_epi32::<23>(_mm256_castps_si256(_mm256_cvtepi32_ps(t)))
    }
}

/// `avx512::reverse_bytes_bits` in AVX2 registers.
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
            o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10], o[11], o[12], o[13],
            o[14], o[15],
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

/// Eight `u32` lanes in a 256-bit AVX2 register (AVX2 and BMI1 needed): the split lanes of
/// random standard deals, and the exhaustive search's batch of decks of up to 34 cards, on
/// processors without AVX-512.
#[derive(Clone, Copy)]
pub(crate) struct Avx2U32x8(__m256i);

/// Two shifts and an or: AVX2's variable shifts give 0 past 31, so `s = 0` needs no care.
impl Funnel for Avx2U32x8 {
    #[inline(always)]
    fn funnel_shl(self, lo: Self, s: Self) -> Self {
        // SAFETY: as for `Avx2U64x4` (`self` vouches for the features).
        let w = unsafe { Self::splat(32) };
        self.shl(s).or(lo.shr(w.sub(s)))
    }
    #[inline(always)]
    fn funnel_shr(self, hi: Self, s: Self) -> Self {
        // SAFETY: as above.
        let w = unsafe { Self::splat(32) };
        self.shr(s).or(hi.shl(w.sub(s)))
    }
}

// SAFETY (every `unsafe` block below): as for `Avx2U64x4`.
impl Vector for Avx2U32x8 {
    const LANES: usize = 8;
    const BITS: u32 = 32;
    type Elem = u32;
    type Mask = Avx2Mask;
    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        Avx2U32x8(unsafe { _mm256_set1_epi32(x as i32) })
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
        Avx2U32x8(unsafe { _mm256_add_epi32(self.0, o.0) })
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        Avx2U32x8(unsafe { _mm256_sub_epi32(self.0, o.0) })
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        Avx2U32x8(unsafe { _mm256_and_si256(self.0, o.0) })
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        Avx2U32x8(unsafe { _mm256_or_si256(self.0, o.0) })
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        Avx2U32x8(unsafe { _mm256_xor_si256(self.0, o.0) })
    }
    #[inline(always)]
    fn shr(self, s: Self) -> Self {
        Avx2U32x8(unsafe { _mm256_srlv_epi32(self.0, s.0) })
    }
    #[inline(always)]
    fn shl(self, s: Self) -> Self {
        Avx2U32x8(unsafe { _mm256_sllv_epi32(self.0, s.0) })
    }
    #[inline(always)]
    fn shr1(self) -> Self {
        Avx2U32x8(unsafe { _mm256_srli_epi32::<1>(self.0) })
    }
    #[inline(always)]
    fn shr2(self) -> Self {
        Avx2U32x8(unsafe { _mm256_srli_epi32::<2>(self.0) })
    }
    #[inline(always)]
    fn lzcnt(self) -> Self {
        Avx2U32x8(unsafe { _mm256_min_epu32(self.lzcnt_loose().0, _mm256_set1_epi32(32)) })
    }
    /// `158 - exponent` ([`exponent32`]): 31 - k for 2^k, 158 for 0, and below 0 (floored
    /// at 0) for the top bit.
    #[inline(always)]
    fn lzcnt_loose(self) -> Self {
        unsafe {
            let e = exponent32(self.0);
            Avx2U32x8(_mm256_max_epi32(
                _mm256_sub_epi32(_mm256_set1_epi32(158), e),
                _mm256_setzero_si256(),
            ))
        }
    }
    /// [`Vector::lzcnt_loose`] without [`exponent32`]'s guard: the float of a lane with no run
    /// of 24 set bits cannot round up to the next power of two.
    #[inline(always)]
    fn lzcnt_sparse(self) -> Self {
        unsafe {
            let e = _mm256_srli_epi32::<23>(_mm256_castps_si256(_mm256_cvtepi32_ps(self.0)));
            Avx2U32x8(_mm256_max_epi32(
                _mm256_sub_epi32(_mm256_set1_epi32(158), e),
                _mm256_setzero_si256(),
            ))
        }
    }
    /// A shift by 2 or 0 (the mask's bit 1): two operations, where a shift and a blend are
    /// four micro-operations on recent Intel cores.
    #[inline(always)]
    fn shr2_where(self, m: Avx2Mask) -> Self {
        unsafe {
            Avx2U32x8(_mm256_srlv_epi32(
                self.0,
                _mm256_and_si256(m.0, _mm256_set1_epi32(2)),
            ))
        }
    }
    /// Less the mask (all ones is -1): one operation.
    #[inline(always)]
    fn inc_where(self, m: Avx2Mask) -> Self {
        unsafe { Avx2U32x8(_mm256_sub_epi32(self.0, m.0)) }
    }
    /// The exponent less 127 ([`exponent32`]: the lane's top bit is clear).
    #[inline(always)]
    fn top_index(self) -> Self {
        unsafe { Avx2U32x8(_mm256_sub_epi32(exponent32(self.0), _mm256_set1_epi32(127))) }
    }
    #[inline(always)]
    fn top_bit(n: Self) -> Self {
        unsafe {
            let s = _mm256_sub_epi32(_mm256_set1_epi32(32), n.0);
            Avx2U32x8(_mm256_sllv_epi32(_mm256_set1_epi32(1), s))
        }
    }
    #[inline(always)]
    fn rotr(self, s: Self) -> Self {
        unsafe {
            let s = _mm256_and_si256(s.0, _mm256_set1_epi32(31));
            let r = _mm256_sub_epi32(_mm256_set1_epi32(32), s);
            Avx2U32x8(_mm256_or_si256(
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
        Avx2U32x8(unsafe { _mm256_min_epu32(self.0, o.0) })
    }
    #[inline(always)]
    fn select(m: Avx2Mask, t: Self, f: Self) -> Self {
        Avx2U32x8(unsafe { _mm256_blendv_epi8(f.0, t.0, m.0) })
    }
    #[inline(always)]
    fn keep(m: Avx2Mask, x: Self) -> Self {
        Avx2U32x8(unsafe { _mm256_and_si256(m.0, x.0) })
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
            Avx2U32x8(_mm256_min_epu32(t, n.0))
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
            Avx2U32x8(_mm256_blendv_epi8(self.0, _mm256_set1_epi32(x as i32), at))
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
            Avx2U32x8(_mm256_blendv_epi8(
                self.0,
                _mm256_permutevar8x32_epi32(v, idx),
                m.0,
            ))
        }
    }
    #[inline(always)]
    unsafe fn load(src: *const u32) -> Self {
        // SAFETY: the caller's contract; the load is unaligned.
        Avx2U32x8(unsafe { _mm256_loadu_si256(src as *const __m256i) })
    }
    #[inline(always)]
    unsafe fn store_to(self, dst: *mut u32) {
        // SAFETY: the caller's contract; the store is unaligned.
        unsafe { _mm256_storeu_si256(dst as *mut __m256i, self.0) }
    }
    #[inline(always)]
    fn reverse(self) -> Self {
        Avx2U32x8(unsafe { reverse_bytes_bits_avx2(self.0, super::BYTES_REVERSED_32) })
    }
    #[inline(always)]
    fn face_kinds(self, faces: u64, lo: u64, hi: u64) -> u64 {
        // SAFETY: the lane features include BMI2 (checked with them by `Isa::get`).
        unsafe { super::face_kinds_bmi2(faces, lo, hi) }
    }
}

/// The face planes of 64 slots of cards (see `portable::planes`): each half of 32 slots compared
/// bytewise, its signs gathered by `movemask`. (No closures here or in [`draws`]: a closure is a
/// function of its own, compiled without the kernel's features, and its intrinsics would be
/// calls.)
///
/// # Safety
/// The processor has AVX2.
#[inline(always)]
pub(crate) unsafe fn planes(buf: &[crate::card::Card; 64]) -> (u64, u64, u64) {
    /// Half `h` of the slots' planes, in place.
    #[inline(always)]
    unsafe fn half(buf: &[crate::card::Card; 64], h: usize) -> (u64, u64, u64) {
        // SAFETY: `buf` holds 64 readable bytes, so 32 from slot 0 or 32; the load is
        // unaligned; the processor has AVX2 (the caller's contract).
        unsafe {
            let v = _mm256_loadu_si256(buf.as_ptr().add(32 * h) as *const __m256i);
            let shift = 32 * h;
            let is0 = _mm256_cmpeq_epi8(v, _mm256_setzero_si256());
            let is2 = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(2));
            let is3 = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(3));
            let is4 = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(4));
            let number = u64::from(_mm256_movemask_epi8(is0) as u32) << shift;
            let lo = u64::from(_mm256_movemask_epi8(_mm256_or_si256(is2, is4)) as u32) << shift;
            let hi = u64::from(_mm256_movemask_epi8(_mm256_or_si256(is3, is4)) as u32) << shift;
            (!number & (u64::from(u32::MAX) << shift), lo, hi)
        }
    }
    // SAFETY: the caller's contract.
    let ((f0, l0, h0), (f1, l1, h1)) = unsafe { (half(buf, 0), half(buf, 1)) };
    (f0 | f1, l0 | l1, h0 | h1)
}

/// Every lane `x`.
#[inline(always)]
unsafe fn splat64(x: u64) -> __m256i {
    // SAFETY: the caller's contract (the processor has AVX2).
    unsafe { _mm256_set1_epi64x(x as i64) }
}

/// `z * c` modulo 2^64: `lo(z) lo(c) + (hi(z) lo(c) + lo(z) hi(c)) << 32`.
#[inline(always)]
unsafe fn mul64(z: __m256i, c: u64) -> __m256i {
    // SAFETY: as above.
    unsafe {
        let (lo, hi) = (splat64(c & 0xFFFF_FFFF), splat64(c >> 32));
        let cross = _mm256_add_epi64(
            _mm256_mul_epu32(_mm256_srli_epi64::<32>(z), lo),
            _mm256_mul_epu32(z, hi),
        );
        _mm256_add_epi64(_mm256_mul_epu32(z, lo), _mm256_slli_epi64::<32>(cross))
    }
}

/// SplitMix64's mix of each lane.
#[inline(always)]
unsafe fn mix64(z: __m256i) -> __m256i {
    use crate::rng::MIX;
    // SAFETY: as above.
    unsafe {
        let z = mul64(_mm256_xor_si256(z, _mm256_srli_epi64::<30>(z)), MIX[0]);
        let z = mul64(_mm256_xor_si256(z, _mm256_srli_epi64::<27>(z)), MIX[1]);
        _mm256_xor_si256(z, _mm256_srli_epi64::<31>(z))
    }
}

/// `t = hi(x) b + (lo(x) b >> 32)` (the bounds in the low halves of `b`).
#[inline(always)]
unsafe fn draw64(x: __m256i, b: __m256i) -> __m256i {
    // SAFETY: as above.
    unsafe {
        let high = _mm256_mul_epu32(_mm256_srli_epi64::<32>(x), b);
        _mm256_add_epi64(high, _mm256_srli_epi64::<32>(_mm256_mul_epu32(x, b)))
    }
}

/// `crate::rng::batch_draws` written out for AVX2, which has no 64-bit multiply (what the
/// compiler makes of `batch_draws` takes twice the operations): eight draws a round in two
/// vectors of four `u64`s. The counters step by `8 * GAMMA` (no multiply); each 64-bit product by
/// a constant is three 32-bit ones (`vpmuludq`); the bounds step down by 8, floored at 1 past the
/// last draw. The rejection test is looser, never missing one: `below(b)` rejects only where the
/// low half of `x * b` is under `b < 2^32`, so its high 32 bits are 0; those bits are the low half
/// of `t = hi(x) * b + (lo(x) * b >> 32)`, whose high half is the draw. So true also where only
/// those bits are 0 (one draw in 2^32), and the plain loop shuffles: the same permutation. True
/// (as `batch_draws`) when the plain loop must shuffle.
///
/// # Safety
/// The processor has AVX2.
#[inline(always)]
pub(crate) unsafe fn draws(state: u64, n: usize, js: &mut [u8; 64]) -> bool {
    use crate::rng::GAMMA;
    let g = |k: u64| state.wrapping_add(GAMMA.wrapping_mul(k)) as i64;
    let (g1, g2, g3, g4, g5, g6, g7, g8) = (g(1), g(2), g(3), g(4), g(5), g(6), g(7), g(8));
    // SAFETY: the caller's contract.
    unsafe {
        let mut s = [
            _mm256_setr_epi64x(g1, g2, g3, g4),
            _mm256_setr_epi64x(g5, g6, g7, g8),
        ];
        let step = splat64(GAMMA.wrapping_mul(8));
        let n = n as i64;
        let mut b = [
            _mm256_setr_epi64x(n, n - 1, n - 2, n - 3),
            _mm256_setr_epi64x(n - 4, n - 5, n - 6, n - 7),
        ];
        let (one, eight) = (splat64(1), splat64(8));
        // The draws' bytes (byte 4 of each `t`, its high half, below 64) in lane order: after the
        // blend, each 128-bit half holds draws `2h, 4 + 2h, 2h + 1, 5 + 2h`; the byte shuffle puts
        // `2h, 2h + 1` in its first word and `4 + 2h, 5 + 2h` in its second, and the unpack
        // interleaves the halves' words.
        let order = _mm256_setr_epi8(
            0, 8, 4, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 8, 4, 12, -1, -1, -1,
            -1, -1, -1, -1, -1, -1, -1, -1, -1,
        );
        let zero = _mm256_setzero_si256();
        let mut low_zero = zero;
        for round in 0..(n as usize - 1).div_ceil(8) {
            let mut t = [zero; 2];
            for h in 0..2 {
                let bound = _mm256_max_epi32(b[h], one);
                t[h] = draw64(mix64(s[h]), bound);
                low_zero = _mm256_or_si256(low_zero, _mm256_cmpeq_epi32(t[h], zero));
                s[h] = _mm256_add_epi64(s[h], step);
                b[h] = _mm256_sub_epi64(b[h], eight);
            }
            let both = _mm256_blend_epi32::<0b1010_1010>(_mm256_srli_epi64::<32>(t[0]), t[1]);
            let bytes = _mm256_shuffle_epi8(both, order);
            let words = _mm_unpacklo_epi16(
                _mm256_castsi256_si128(bytes),
                _mm256_extracti128_si256::<1>(bytes),
            );
            // SAFETY: `round < 8`, so the eight bytes at `8 * round` are within `js`.
            _mm_storel_epi64(js.as_mut_ptr().add(8 * round) as *mut __m128i, words);
        }
        // The low halves' compares only (bits 0, 2, 4 and 6 of the mask).
        _mm256_movemask_ps(_mm256_castsi256_ps(low_zero)) & 0b0101_0101 != 0
    }
}
