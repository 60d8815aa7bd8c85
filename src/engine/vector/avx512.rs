//! The AVX-512 forms of the lane vector: eight `u64` lanes ([`Avx512U64x8`], the random games' and
//! the wide exhaustive batches' lanes) and sixteen `u32` lanes ([`Avx512U32x16`], the exhaustive
//! search's batch of decks of up to 34 cards), with the funnel shifts of AVX-512 VBMI2 that
//! the split lanes use.

use super::{Funnel, Vector};
use std::arch::x86_64::*;

/// Eight lanes in a 512-bit AVX-512 register (F, CD, BW, DQ, VL).
#[derive(Clone, Copy)]
pub(crate) struct Avx512U64x8(__m512i);

// SAFETY (every `unsafe` block below): a value of this type exists only when the processor
// has AVX-512 F, CD, BW, DQ and VL (see the module head).
impl Vector for Avx512U64x8 {
    const LANES: usize = 8;
    const BITS: u32 = 64;
    type Elem = u64;
    type Mask = u8;
    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        Avx512U64x8(unsafe { _mm512_set1_epi64(x as i64) })
    }
    #[inline(always)]
    fn store(self, a: &mut [u64; 16]) {
        // SAFETY: `a` holds 16 writable values; the store is unaligned.
        unsafe { _mm512_storeu_si512(a.as_mut_ptr() as *mut __m512i, self.0) }
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        Avx512U64x8(unsafe { _mm512_add_epi64(self.0, o.0) })
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        Avx512U64x8(unsafe { _mm512_sub_epi64(self.0, o.0) })
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        Avx512U64x8(unsafe { _mm512_and_si512(self.0, o.0) })
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        Avx512U64x8(unsafe { _mm512_or_si512(self.0, o.0) })
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        Avx512U64x8(unsafe { _mm512_xor_si512(self.0, o.0) })
    }
    #[inline(always)]
    fn shr(self, s: Self) -> Self {
        Avx512U64x8(unsafe { _mm512_srlv_epi64(self.0, s.0) })
    }
    #[inline(always)]
    fn shl(self, s: Self) -> Self {
        Avx512U64x8(unsafe { _mm512_sllv_epi64(self.0, s.0) })
    }
    #[inline(always)]
    fn shr1(self) -> Self {
        Avx512U64x8(unsafe { _mm512_srli_epi64::<1>(self.0) })
    }
    #[inline(always)]
    fn shr2(self) -> Self {
        Avx512U64x8(unsafe { _mm512_srli_epi64::<2>(self.0) })
    }
    #[inline(always)]
    fn lzcnt(self) -> Self {
        Avx512U64x8(unsafe { _mm512_lzcnt_epi64(self.0) })
    }
    #[inline(always)]
    fn rotr(self, s: Self) -> Self {
        Avx512U64x8(unsafe { _mm512_rorv_epi64(self.0, s.0) })
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
        Avx512U64x8(unsafe { _mm512_min_epu64(self.0, o.0) })
    }
    #[inline(always)]
    fn select(m: u8, t: Self, f: Self) -> Self {
        Avx512U64x8(unsafe { _mm512_mask_blend_epi64(m, f.0, t.0) })
    }
    #[inline(always)]
    fn keep(m: u8, x: Self) -> Self {
        Avx512U64x8(unsafe { _mm512_maskz_mov_epi64(m, x.0) })
    }
    /// `64 - lzcnt(!x & (x - 1))`: the bits below the lowest set one, counted.
    #[inline(always)]
    fn tz_min(self, n: Self) -> Self {
        unsafe {
            let x = self.0;
            let below = _mm512_andnot_si512(x, _mm512_sub_epi64(x, _mm512_set1_epi64(1)));
            let tz = _mm512_sub_epi64(_mm512_set1_epi64(64), _mm512_lzcnt_epi64(below));
            Avx512U64x8(_mm512_min_epu64(tz, n.0))
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
        Avx512U64x8(unsafe { _mm512_mask_set1_epi64(self.0, 1 << (i & 7), x as i64) })
    }
    /// One expand-load: the set lanes read consecutive values.
    #[inline(always)]
    unsafe fn expand_load(self, bits: u32, src: *const u64) -> Self {
        // SAFETY: the caller's contract (the load reads `bits.count_ones()` values).
        Avx512U64x8(unsafe { _mm512_mask_expandloadu_epi64(self.0, bits as u8, src as *const i64) })
    }
    #[inline(always)]
    unsafe fn load(src: *const u64) -> Self {
        // SAFETY: the caller's contract; the load is unaligned.
        Avx512U64x8(unsafe { _mm512_loadu_si512(src as *const __m512i) })
    }
    #[inline(always)]
    unsafe fn store_to(self, dst: *mut u64) {
        // SAFETY: the caller's contract; the store is unaligned.
        unsafe { _mm512_storeu_si512(dst as *mut __m512i, self.0) }
    }
    #[inline(always)]
    fn reverse(self) -> Self {
        Avx512U64x8(unsafe { reverse_bytes_bits(self.0, super::BYTES_REVERSED_64) })
    }
    #[inline(always)]
    fn face_kinds(self, faces: u64, lo: u64, hi: u64) -> u64 {
        // SAFETY: the lane features include BMI2 (checked with them by `Isa::get`).
        unsafe { super::face_kinds_bmi2(faces, lo, hi) }
    }
}

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
            o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10], o[11], o[12], o[13],
            o[14], o[15],
        ));
        _mm512_shuffle_epi8(bytes, order)
    }
}

/// Sixteen `u32` lanes in a 512-bit AVX-512 register (F, CD, BW, DQ, VL): the exhaustive
/// search's batch of decks of up to 32 cards (`engine/lanes/tally/`).
#[derive(Clone, Copy)]
pub(crate) struct Avx512U32x16(__m512i);

/// Funnel shifts of two words with AVX-512 VBMI2, which the callers check besides the lanes'
/// features (`lanes::kinds::Split`, in the exhaustive search's split lanes).
impl Funnel for Avx512U32x16 {
    /// `s` modulo 32.
    #[inline(always)]
    fn funnel_shl(self, lo: Self, s: Self) -> Self {
        // SAFETY: the caller's contract above.
        Avx512U32x16(unsafe { _mm512_shldv_epi32(self.0, lo.0, s.0) })
    }
    /// `s` modulo 32.
    #[inline(always)]
    fn funnel_shr(self, hi: Self, s: Self) -> Self {
        // SAFETY: the caller's contract above.
        Avx512U32x16(unsafe { _mm512_shrdv_epi32(self.0, hi.0, s.0) })
    }
}

// SAFETY (every `unsafe` block below): as for `Avx512U64x8`.
impl Vector for Avx512U32x16 {
    const LANES: usize = 16;
    const BITS: u32 = 32;
    type Elem = u32;
    type Mask = u16;
    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        Avx512U32x16(unsafe { _mm512_set1_epi32(x as i32) })
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
        Avx512U32x16(unsafe { _mm512_add_epi32(self.0, o.0) })
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        Avx512U32x16(unsafe { _mm512_sub_epi32(self.0, o.0) })
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        Avx512U32x16(unsafe { _mm512_and_si512(self.0, o.0) })
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        Avx512U32x16(unsafe { _mm512_or_si512(self.0, o.0) })
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        Avx512U32x16(unsafe { _mm512_xor_si512(self.0, o.0) })
    }
    #[inline(always)]
    fn shr(self, s: Self) -> Self {
        Avx512U32x16(unsafe { _mm512_srlv_epi32(self.0, s.0) })
    }
    #[inline(always)]
    fn shl(self, s: Self) -> Self {
        Avx512U32x16(unsafe { _mm512_sllv_epi32(self.0, s.0) })
    }
    #[inline(always)]
    fn shr1(self) -> Self {
        Avx512U32x16(unsafe { _mm512_srli_epi32::<1>(self.0) })
    }
    #[inline(always)]
    fn shr2(self) -> Self {
        Avx512U32x16(unsafe { _mm512_srli_epi32::<2>(self.0) })
    }
    #[inline(always)]
    fn lzcnt(self) -> Self {
        Avx512U32x16(unsafe { _mm512_lzcnt_epi32(self.0) })
    }
    #[inline(always)]
    fn rotr(self, s: Self) -> Self {
        Avx512U32x16(unsafe { _mm512_rorv_epi32(self.0, s.0) })
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
        Avx512U32x16(unsafe { _mm512_min_epu32(self.0, o.0) })
    }
    #[inline(always)]
    fn select(m: u16, t: Self, f: Self) -> Self {
        Avx512U32x16(unsafe { _mm512_mask_blend_epi32(m, f.0, t.0) })
    }
    #[inline(always)]
    fn keep(m: u16, x: Self) -> Self {
        Avx512U32x16(unsafe { _mm512_maskz_mov_epi32(m, x.0) })
    }
    /// `32 - lzcnt(!x & (x - 1))`, as `Avx512U64x8`'s.
    #[inline(always)]
    fn tz_min(self, n: Self) -> Self {
        unsafe {
            let x = self.0;
            let below = _mm512_andnot_si512(x, _mm512_sub_epi32(x, _mm512_set1_epi32(1)));
            let tz = _mm512_sub_epi32(_mm512_set1_epi32(32), _mm512_lzcnt_epi32(below));
            Avx512U32x16(_mm512_min_epu32(tz, n.0))
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
        Avx512U32x16(unsafe { _mm512_mask_set1_epi32(self.0, 1 << (i & 15), x as i32) })
    }
    /// One expand-load: the set lanes read consecutive values.
    #[inline(always)]
    unsafe fn expand_load(self, bits: u32, src: *const u32) -> Self {
        // SAFETY: the caller's contract (the load reads `bits.count_ones()` values).
        Avx512U32x16(unsafe {
            _mm512_mask_expandloadu_epi32(self.0, bits as u16, src as *const i32)
        })
    }
    #[inline(always)]
    unsafe fn load(src: *const u32) -> Self {
        // SAFETY: the caller's contract; the load is unaligned.
        Avx512U32x16(unsafe { _mm512_loadu_si512(src as *const __m512i) })
    }
    #[inline(always)]
    unsafe fn store_to(self, dst: *mut u32) {
        // SAFETY: the caller's contract; the store is unaligned.
        unsafe { _mm512_storeu_si512(dst as *mut __m512i, self.0) }
    }
    #[inline(always)]
    fn reverse(self) -> Self {
        Avx512U32x16(unsafe { reverse_bytes_bits(self.0, super::BYTES_REVERSED_32) })
    }
    #[inline(always)]
    fn face_kinds(self, faces: u64, lo: u64, hi: u64) -> u64 {
        // SAFETY: the lane features include BMI2 (checked with them by `Isa::get`).
        unsafe { super::face_kinds_bmi2(faces, lo, hi) }
    }
}

/// The face planes of 64 slots of cards (see `portable::planes`): three byte compares.
///
/// # Safety
/// The processor has AVX-512 F and BW.
#[inline(always)]
pub(crate) unsafe fn planes(buf: &[crate::card::Card; 64]) -> (u64, u64, u64) {
    // SAFETY: `buf` is 64 readable bytes and the load is unaligned; the caller's contract.
    unsafe {
        let v = _mm512_loadu_si512(buf.as_ptr() as *const __m512i);
        let faces = _mm512_test_epi8_mask(v, v);
        let lo = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(2))
            | _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(4));
        let hi = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(3));
        (faces, lo, hi)
    }
}
