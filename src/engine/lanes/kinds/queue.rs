//! Where a hand's kinds end in a kinds loop: at a [`Marker`], or at a [`Counted`] count.

use super::consts::KindsConsts;
use crate::engine::vector::Vector;

/// Where a hand's kinds end, which the player who takes the pile needs (its kinds go above its
/// own): a [`Marker`] above the last kind, or a [`Counted`] count beside them.
pub(crate) trait Queue<V: Vector>: Copy {
    /// No game.
    ///
    /// # Safety
    /// The processor has `V`'s features.
    unsafe fn zero() -> Self;
    /// b's kinds' end (twice its face cards), from its kinds `vb`, `self` and the pile's `pr`
    /// before the move.
    fn end_b(self, vb: V, pr: V) -> V;
    /// The field a kind takes on the pile (see `KindsGroup::pv`).
    fn field(kind: V, k: &KindsConsts<V>) -> V;
    /// After the move: `a_put` where a put a face card, `pr` the pile's `pr` after it, `swap`
    /// where the players swap.
    fn next(self, a_put: V::Mask, pr: V, swap: V::Mask, k: &KindsConsts<V>) -> Self;
    /// Lane `i` of a game with `faces` face cards, `fa` of them in a's hand.
    fn with_lane(self, i: usize, fa: u32, faces: u32) -> Self;
    /// A hand's kinds in this form, from [`Vector::face_kinds`] of its `f` face cards.
    fn kinds(marked: u64, f: u32) -> u64;
}

/// The kinds end at a 1 above the last (the highest set bit): the taker's marker is one
/// operation away with AVX-512 (leading zeros) and takes no register, but the kinds of all
/// faces and the marker need `2 * faces + 1` bits.
#[derive(Clone, Copy)]
pub(crate) struct Marker;

impl<V: Vector> Queue<V> for Marker {
    #[inline(always)]
    unsafe fn zero() -> Self {
        Marker
    }
    #[inline(always)]
    fn end_b(self, vb: V, _: V) -> V {
        vb.top_index()
    }
    /// `kind ^ 5` is the kind and a marker above it, less the marker below.
    #[inline(always)]
    fn field(kind: V, k: &KindsConsts<V>) -> V {
        kind.xor(k.five)
    }
    #[inline(always)]
    fn next(self, _: V::Mask, _: V, _: V::Mask, _: &KindsConsts<V>) -> Self {
        self
    }
    #[inline(always)]
    fn with_lane(self, _: usize, _: u32, _: u32) -> Self {
        self
    }
    #[inline(always)]
    fn kinds(marked: u64, _: u32) -> u64 {
        marked
    }
}

/// The most face cards a game may hold in lanes of `bits` bits with [`Counted`] kinds (with a
/// [`Marker`]: `kinds::max_faces`).
pub(crate) const fn counted_max_faces(bits: u32) -> u32 {
    bits / 2
}

/// The kinds alone, and twice a's face cards (`a`) beside them: b's are the rest of the game's
/// (`all`, twice its face cards) less the pile's. Two registers and a few operations more than
/// [`Marker`], but the kinds need only `2 * faces` bits: a standard deal's 16 face cards fit
/// `u32` lanes.
#[derive(Clone, Copy)]
pub(crate) struct Counted<V> {
    a: V,
    all: V,
}

impl<V: Vector> Queue<V> for Counted<V> {
    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: the caller's contract.
        let z = unsafe { V::splat(0) };
        Counted { a: z, all: z }
    }
    #[inline(always)]
    fn end_b(self, _: V, pr: V) -> V {
        self.all.sub(pr).sub(self.a)
    }
    #[inline(always)]
    fn field(kind: V, _: &KindsConsts<V>) -> V {
        kind
    }
    #[inline(always)]
    fn next(self, a_put: V::Mask, pr: V, swap: V::Mask, k: &KindsConsts<V>) -> Self {
        let a = self.a.sub(V::keep(a_put, k.two));
        let b = self.all.sub(a).sub(pr);
        Counted {
            a: V::select(swap, b, a),
            all: self.all,
        }
    }
    #[inline(always)]
    fn with_lane(self, i: usize, fa: u32, faces: u32) -> Self {
        Counted {
            a: self.a.with_lane(i, 2 * u64::from(fa)),
            all: self.all.with_lane(i, 2 * u64::from(faces)),
        }
    }
    /// Without the marker (at bit `2 * f`).
    #[inline(always)]
    fn kinds(marked: u64, f: u32) -> u64 {
        marked ^ 1 << (2 * f)
    }
}
