//! The portable form of the lane vector: four lanes in plain `u64`s, for any processor (ARM
//! included). It is the specification of the vector forms (their tests hold each op to it) and
//! the lanes of the portable path's tests.

use super::Vec64;
use std::ops::{BitAnd, BitOr, Not};

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
