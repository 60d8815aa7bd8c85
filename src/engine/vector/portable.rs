//! The portable forms of the lane vector: four `u64` lanes ([`Plain64x4`]) or eight `u32` lanes
//! ([`Plain32x8`]) in plain Rust, for any processor (ARM included). They are the specification
//! of the vector forms (their checks hold each op to the same scalar meaning) and the lanes of
//! the portable path's tests: production plays one game at a time without vector units, which is
//! faster than plain lanes. Also the face planes of 64 slots, one card at a time.

use super::{Funnel, Vector};
use crate::card::Card;
use std::ops::{BitAnd, BitOr, Not};

/// A portable lane mask: all ones or zero per lane.
#[derive(Clone, Copy)]
pub(crate) struct PlainMask<T, const N: usize>([T; N]);

macro_rules! plain {
    ($name:ident, $t:ty, $n:literal) => {
        /// Plain lanes in an array, for any processor.
        #[derive(Clone, Copy)]
        pub(crate) struct $name([$t; $n]);

        impl BitAnd for PlainMask<$t, $n> {
            type Output = Self;
            #[inline(always)]
            fn bitand(self, o: Self) -> Self {
                PlainMask(std::array::from_fn(|i| self.0[i] & o.0[i]))
            }
        }

        impl BitOr for PlainMask<$t, $n> {
            type Output = Self;
            #[inline(always)]
            fn bitor(self, o: Self) -> Self {
                PlainMask(std::array::from_fn(|i| self.0[i] | o.0[i]))
            }
        }

        impl Not for PlainMask<$t, $n> {
            type Output = Self;
            #[inline(always)]
            fn not(self) -> Self {
                PlainMask(self.0.map(|a| !a))
            }
        }

        impl $name {
            #[inline(always)]
            fn map2(self, o: Self, f: impl Fn($t, $t) -> $t) -> Self {
                $name(std::array::from_fn(|i| f(self.0[i], o.0[i])))
            }
            #[inline(always)]
            fn test(self, o: Self, f: impl Fn($t, $t) -> bool) -> PlainMask<$t, $n> {
                PlainMask(std::array::from_fn(|i| {
                    <$t>::from(f(self.0[i], o.0[i])).wrapping_neg()
                }))
            }
        }

        impl Vector for $name {
            const LANES: usize = $n;
            const BITS: u32 = <$t>::BITS;
            type Elem = $t;
            type Mask = PlainMask<$t, $n>;
            #[inline(always)]
            unsafe fn splat(x: u64) -> Self {
                $name([x as $t; $n])
            }
            #[inline(always)]
            fn store(self, a: &mut [u64; 16]) {
                for (a, &x) in a.iter_mut().zip(&self.0) {
                    *a = u64::from(x);
                }
            }
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                self.map2(o, <$t>::wrapping_add)
            }
            #[inline(always)]
            fn sub(self, o: Self) -> Self {
                self.map2(o, <$t>::wrapping_sub)
            }
            #[inline(always)]
            fn and(self, o: Self) -> Self {
                self.map2(o, |a, b| a & b)
            }
            #[inline(always)]
            fn or(self, o: Self) -> Self {
                self.map2(o, |a, b| a | b)
            }
            #[inline(always)]
            fn xor(self, o: Self) -> Self {
                self.map2(o, |a, b| a ^ b)
            }
            #[inline(always)]
            fn shr(self, s: Self) -> Self {
                self.map2(s, |a, s| {
                    a.checked_shr(s.min(<$t>::BITS as $t) as u32).unwrap_or(0)
                })
            }
            #[inline(always)]
            fn shl(self, s: Self) -> Self {
                self.map2(s, |a, s| {
                    a.checked_shl(s.min(<$t>::BITS as $t) as u32).unwrap_or(0)
                })
            }
            #[inline(always)]
            fn shr1(self) -> Self {
                $name(self.0.map(|a| a >> 1))
            }
            #[inline(always)]
            fn shr2(self) -> Self {
                $name(self.0.map(|a| a >> 2))
            }
            #[inline(always)]
            fn lzcnt(self) -> Self {
                $name(self.0.map(|a| a.leading_zeros() as $t))
            }
            #[inline(always)]
            fn rotr(self, s: Self) -> Self {
                self.map2(s, |a, s| a.rotate_right(s as u32 % <$t>::BITS))
            }
            #[inline(always)]
            fn eq(self, o: Self) -> Self::Mask {
                self.test(o, |a, b| a == b)
            }
            #[inline(always)]
            fn lt(self, o: Self) -> Self::Mask {
                self.test(o, |a, b| a < b)
            }
            #[inline(always)]
            fn min(self, o: Self) -> Self {
                self.map2(o, <$t>::min)
            }
            #[inline(always)]
            fn select(m: Self::Mask, t: Self, f: Self) -> Self {
                $name(std::array::from_fn(|i| {
                    (t.0[i] & m.0[i]) | (f.0[i] & !m.0[i])
                }))
            }
            #[inline(always)]
            fn keep(m: Self::Mask, x: Self) -> Self {
                $name(std::array::from_fn(|i| x.0[i] & m.0[i]))
            }
            #[inline(always)]
            fn tz_min(self, n: Self) -> Self {
                self.map2(n, |x, n| (x.trailing_zeros() as $t).min(n))
            }
            #[inline(always)]
            fn bits(m: Self::Mask) -> u32 {
                (0..$n).map(|i| ((m.0[i] & 1) as u32) << i).sum()
            }
            #[inline(always)]
            fn mask(self, bits: u32) -> Self::Mask {
                PlainMask(std::array::from_fn(|i| {
                    <$t>::from(bits >> i & 1 == 1).wrapping_neg()
                }))
            }
            #[inline(always)]
            fn with_lane(mut self, i: usize, x: u64) -> Self {
                self.0[i % $n] = x as $t;
                self
            }
            #[inline(always)]
            unsafe fn load(src: *const $t) -> Self {
                // SAFETY: the caller's contract.
                $name(std::array::from_fn(|i| unsafe { *src.add(i) }))
            }
            #[inline(always)]
            unsafe fn store_to(self, dst: *mut $t) {
                for (i, &x) in self.0.iter().enumerate() {
                    // SAFETY: the caller's contract.
                    unsafe { *dst.add(i) = x }
                }
            }
            #[inline(always)]
            fn reverse(self) -> Self {
                $name(self.0.map(<$t>::reverse_bits))
            }
        }

        /// Each lane's shifts of two words, as the specification says: counts from the width on
        /// give `self` shifted out entirely and the other word's bits that remain.
        impl Funnel for $name {
            #[inline(always)]
            fn funnel_shl(self, lo: Self, s: Self) -> Self {
                let w = <$t>::BITS;
                // As the AVX2 form: each shift gives 0 past the width (`w - s` wraps past it
                // for `s > w`), which `Split::append` relies on.
                $name(std::array::from_fn(|i| {
                    let s = s.0[i] as u32;
                    let hi = self.0[i].checked_shl(s).unwrap_or(0);
                    hi | lo.0[i].checked_shr(w.wrapping_sub(s)).unwrap_or(0)
                }))
            }
            #[inline(always)]
            fn funnel_shr(self, hi: Self, s: Self) -> Self {
                let w = <$t>::BITS;
                $name(std::array::from_fn(|i| {
                    let s = s.0[i] as u32;
                    let lo = self.0[i].checked_shr(s).unwrap_or(0);
                    lo | hi.0[i].checked_shl(w.wrapping_sub(s)).unwrap_or(0)
                }))
            }
        }
    };
}

plain!(Plain64x4, u64, 4);
plain!(Plain32x8, u32, 8);

/// The face planes of 64 slots, bit `j` for slot `j`: face, `(penalty - 1) & 1` and
/// `(penalty - 1) >> 1`, one card at a time (the other forms' reference).
#[inline]
pub(crate) fn planes(buf: &[Card; 64]) -> (u64, u64, u64) {
    let (mut faces, mut lo, mut hi) = (0u64, 0u64, 0u64);
    for (i, &c) in buf.iter().enumerate() {
        let c = u64::from(c);
        let face = u64::from(c != 0);
        let k = c.wrapping_sub(1) & face.wrapping_neg();
        faces |= face << i;
        lo |= (k & 1) << i;
        hi |= (k >> 1 & 1) << i;
    }
    (faces, lo, hi)
}
