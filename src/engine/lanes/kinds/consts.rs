//! The constants of the kinds step, made once a run (splats of the lane vector).

use crate::engine::vector::Vector;

/// The constants of a step, in every lane: `trick` is `1 << (BITS / 2)` and `limit` the trick
/// limit times `trick`.
#[derive(Clone, Copy)]
pub(crate) struct KindsConsts<V> {
    pub(crate) zero: V,
    pub(crate) one: V,
    pub(crate) two: V,
    pub(crate) three: V,
    pub(crate) five: V,
    pub(crate) trick: V,
    pub(crate) limit: V,
    /// The lane's bits, and twice them (for `Split`).
    pub(crate) word: V,
    pub(crate) word2: V,
}

impl<V: Vector> KindsConsts<V> {
    /// The constants for the trick limit `limit`.
    ///
    /// # Safety
    /// The processor has `V`'s features.
    #[inline(always)]
    pub(crate) unsafe fn new(limit: u32) -> Self {
        // SAFETY: the caller's contract.
        unsafe {
            KindsConsts {
                zero: V::splat(0),
                one: V::splat(1),
                two: V::splat(2),
                three: V::splat(3),
                five: V::splat(5),
                trick: V::splat(1 << (V::BITS / 2)),
                limit: V::splat(u64::from(limit) << (V::BITS / 2)),
                word: V::splat(u64::from(V::BITS)),
                word2: V::splat(2 * u64::from(V::BITS)),
            }
        }
    }
}
