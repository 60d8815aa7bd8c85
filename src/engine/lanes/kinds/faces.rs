//! The face planes of the kinds step's hands and pile: the lane word itself, or [`Split`] into
//! two `u32` words for decks of up to 60 cards.

use super::consts::KindsConsts;
use crate::engine::vector::{Funnel, Vector};

/// The face planes of a group's hands and pile (card `i` from the top at bit `BITS - 1 - i`):
/// one lane word ([`Vector`] itself), or two (`Split`: 64 cards in two `u32` words, so that
/// `u32` lanes hold decks of up to 60 cards). The operations are the step's, no more.
pub(crate) trait Faces<V: Vector>: Copy {
    /// Empty planes.
    ///
    /// # Safety
    /// The processor has `V`'s features (and the form's own).
    unsafe fn zero() -> Self;
    /// The leading zeros: the first face card's position, or at least the plane's cards when
    /// there is none.
    fn first(self, k: &KindsConsts<V>) -> V;
    /// The planes less their first `p` cards (`p` the cards a move gives up: see `Split`).
    fn drop_top(self, p: V) -> Self;
    /// With a face card at position `n2 - 1` where `m` (a pile of `n2` cards after the move).
    fn put(self, m: V::Mask, n2: V, k: &KindsConsts<V>) -> Self;
    /// With `pile`'s cards below the first `at` where `m` (nothing wraps: the hand and the pile
    /// hold at most the deck).
    fn append(self, m: V::Mask, pile: Self, at: V, k: &KindsConsts<V>) -> Self;
    fn pick(m: V::Mask, t: Self, f: Self) -> Self;
    fn only(m: V::Mask, x: Self) -> Self;
    /// `self` with lane `i` set to the top-down plane `x` (card `i` at bit `63 - i`).
    fn with_lane(self, i: usize, x: u64) -> Self;
}

impl<V: Vector> Faces<V> for V {
    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: the caller's contract.
        unsafe { V::splat(0) }
    }
    /// Sparse ([`Vector::lzcnt_sparse`]): a plane holds a game's face cards, and the `u32`
    /// lanes, the only ones whose sparse count differs from the loose one, take games of at most
    /// 16 (`kinds::max_faces(32)`, `queue::counted_max_faces(32)`).
    #[inline(always)]
    fn first(self, _: &KindsConsts<V>) -> V {
        self.lzcnt_sparse()
    }
    #[inline(always)]
    fn drop_top(self, p: V) -> Self {
        self.shl(p)
    }
    /// The pile's card `n2 - 1` from the top is bit `BITS - n2`. A pile past `BITS` cards
    /// (the `u32` lanes' decks of 33 and 34 cards) leaves its player's opponent at most one
    /// card, and the game ends before the plane is read again; so [`Vector::top_bit`]'s "any
    /// value" there is harmless.
    #[inline(always)]
    fn put(self, m: V::Mask, n2: V, _: &KindsConsts<V>) -> Self {
        self.or(V::keep(m, V::top_bit(n2)))
    }
    /// A shift, as nothing passes the plane's last bit in a game that goes on: the taker's
    /// cards and the pile's face cards (all but its last card, the payment that completes
    /// the trick) fill at most `BITS` cards, or the opponent is left with none.
    #[inline(always)]
    fn append(self, m: V::Mask, pile: Self, at: V, _: &KindsConsts<V>) -> Self {
        self.or(V::keep(m, pile.shr(at)))
    }
    #[inline(always)]
    fn pick(m: V::Mask, t: Self, f: Self) -> Self {
        V::select(m, t, f)
    }
    #[inline(always)]
    fn only(m: V::Mask, x: Self) -> Self {
        V::keep(m, x)
    }
    /// The plane's first `BITS` cards (all of them, in the games these lanes take).
    #[inline(always)]
    fn with_lane(self, i: usize, x: u64) -> Self {
        V::with_lane(self, i, x >> (64 - V::BITS))
    }
}

/// The most cards of a game in [`Split`] planes.
pub(crate) const SPLIT_MAX_CARDS: u32 = 60;

/// A face plane of up to 64 cards in two words of `u32` lanes: cards 0 to 31 from the top in
/// `hi` (card `i` at bit `31 - i`), cards 32 to 63 in `lo` (card `i` at bit `63 - i`). For
/// games of at most 60 cards, where a move gives up fewer than 32 cards, so one funnel shift
/// drops them: a lead phase gives up at most one card more than the shorter hand holds (at
/// most 30 of 60), a payment at most four. The exhaustive search's batch plays its games of
/// 35 to 60 cards in sixteen such lanes (AVX-512 with VBMI2), and the random games play
/// standard deals in eight (AVX2); the tests that hold them to the general lanes
/// (`tally.rs`, `mod.rs`) play random games of 35 to 60 cards.
#[derive(Clone, Copy)]
pub(crate) struct Split<V> {
    pub(crate) hi: V,
    pub(crate) lo: V,
}

impl<V: Funnel> Faces<V> for Split<V> {
    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: the caller's contract.
        let z = unsafe { V::splat(0) };
        Split { hi: z, lo: z }
    }
    /// `hi`'s leading zeros alone: at least 32 where the first face card is in `lo`, which the
    /// step never tells from its true place. Such a hand holds at least 33 cards, so the other
    /// at most 27 (60 in all): in a lead phase the other hand's first face card or last card
    /// comes first either way, and a payment only asks whether the first face card is among
    /// the first four.
    #[inline(always)]
    fn first(self, _: &KindsConsts<V>) -> V {
        self.hi.lzcnt_sparse()
    }
    #[inline(always)]
    fn drop_top(self, p: V) -> Self {
        Split {
            hi: self.hi.funnel_shl(self.lo, p),
            lo: self.lo.shl(p),
        }
    }
    /// The card's bit is 1 shifted left by `32 - n2` in `hi` and by `64 - n2` in `lo`: the
    /// shift that does not fit its word (a count past 31, or below 0, which wraps past it)
    /// gives 0.
    #[inline(always)]
    fn put(self, m: V::Mask, n2: V, k: &KindsConsts<V>) -> Self {
        Split {
            hi: self.hi.or(V::keep(m, k.one.shl(k.word.sub(n2)))),
            lo: self.lo.or(V::keep(m, k.one.shl(k.word2.sub(n2)))),
        }
    }
    /// The 64-bit shift right by `at` of `hi:lo`. Below 32, `lo` gets the funnel shift's low
    /// word, and the shift by the wrapped `at - 32` gives 0. From 32 on, `lo` gets `hi` shifted
    /// by `at - 32`, and the funnel shift gives `hi` (at 32, in the AVX2 form) or 0: the pile
    /// then holds at most `60 - at` cards, none in its `lo`, and the left shift of its `hi` by
    /// `64 - at` (VBMI2 takes `at` modulo 32) or by a count past 31 (AVX2) pushes every one of
    /// them out.
    #[inline(always)]
    fn append(self, m: V::Mask, pile: Self, at: V, k: &KindsConsts<V>) -> Self {
        let low = pile
            .lo
            .funnel_shr(pile.hi, at)
            .or(pile.hi.shr(at.sub(k.word)));
        Split {
            hi: self.hi.or(V::keep(m, pile.hi.shr(at))),
            lo: self.lo.or(V::keep(m, low)),
        }
    }
    #[inline(always)]
    fn pick(m: V::Mask, t: Self, f: Self) -> Self {
        Split {
            hi: V::select(m, t.hi, f.hi),
            lo: V::select(m, t.lo, f.lo),
        }
    }
    #[inline(always)]
    fn only(m: V::Mask, x: Self) -> Self {
        Split {
            hi: V::keep(m, x.hi),
            lo: V::keep(m, x.lo),
        }
    }
    #[inline(always)]
    fn with_lane(self, i: usize, x: u64) -> Self {
        Split {
            hi: self.hi.with_lane(i, x >> 32),
            lo: self.lo.with_lane(i, x & 0xFFFF_FFFF),
        }
    }
}
