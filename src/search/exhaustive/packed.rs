//! The deal as the tree walk fixes it: three bits a card, `u128` words.

use crate::card::Card;

/// A card of the deal not fixed yet.
pub(super) const UNKNOWN: Card = 0xF;

/// The deal as the search fixes it, in deal order, `UNKNOWN` where not fixed. One `u128` holds
/// [`PACKED_CARDS`] cards (three bits a card: the five kinds and `UNKNOWN`), two hold 64.
pub trait Packed: Copy + Send + Sync + 'static {
    /// `n` cards, none fixed.
    fn unknown(n: usize) -> Self;
    /// Card `i`.
    fn nibble(self, i: u32) -> Card;
    /// Fixes card `at` (unknown) to `kind`.
    fn fix(&mut self, at: u32, kind: Card);
    /// Fixes every unknown card to `kind`.
    fn fill(self, kind: Card) -> Self;
    /// `*x`, read a `u64` at a time: the deal is written that way (by [`Packed::fix`]), and a wider
    /// load of it right after the narrow stores misses store forwarding (a stall of a dozen
    /// cycles or more, once a node).
    fn fresh(x: &Self) -> Self;
}

/// Bits a card of a packed deal.
const CARD_BITS: u32 = 3;

/// An unknown card in its field.
const UNKNOWN_FIELD: u128 = (1 << CARD_BITS) - 1;

/// The cards one `u128` holds: the `u32` form's decks (up to 34 cards) in one word.
pub const PACKED_CARDS: usize = (128 / CARD_BITS) as usize;

/// Bit 0 of every card's field.
const FIELD_LOW: u128 = {
    let mut m = 0u128;
    let mut i = 0;
    while i < PACKED_CARDS {
        m |= 1 << (CARD_BITS as usize * i);
        i += 1;
    }
    m
};

impl Packed for u128 {
    #[inline(always)]
    fn unknown(n: usize) -> u128 {
        debug_assert!(n <= PACKED_CARDS);
        if n == 0 {
            0
        } else {
            u128::MAX >> (128 - CARD_BITS as usize * n)
        }
    }
    #[inline(always)]
    fn nibble(self, i: u32) -> Card {
        let f = (self >> (CARD_BITS * i)) & UNKNOWN_FIELD;
        if f == UNKNOWN_FIELD {
            UNKNOWN
        } else {
            f as Card
        }
    }
    #[inline(always)]
    fn fix(&mut self, at: u32, kind: Card) {
        *self ^= (UNKNOWN_FIELD ^ kind as u128) << (CARD_BITS * at);
    }
    #[inline(always)]
    fn fill(self, kind: Card) -> u128 {
        // One bit at the bottom of every all-ones field of the deal; times (UNKNOWN_FIELD ^ kind)
        // flips each to `kind` without carries.
        let d = self;
        let unknown = d & (d >> 1) & (d >> 2) & FIELD_LOW;
        d ^ (unknown * (UNKNOWN_FIELD ^ kind as u128))
    }
    #[inline(always)]
    fn fresh(x: &u128) -> u128 {
        // SAFETY: `x` is a reference to an initialised, aligned `u128`; a volatile `u128` load
        // is two `u64` loads in general registers.
        unsafe { std::ptr::read_volatile(x) }
    }
}

impl Packed for [u128; 2] {
    #[inline(always)]
    fn unknown(n: usize) -> Self {
        [
            u128::unknown(n.min(32)),
            u128::unknown(n.saturating_sub(32)),
        ]
    }
    #[inline(always)]
    fn nibble(self, i: u32) -> Card {
        self[(i / 32) as usize].nibble(i % 32)
    }
    #[inline(always)]
    fn fix(&mut self, at: u32, kind: Card) {
        self[(at / 32) as usize].fix(at % 32, kind);
    }
    #[inline(always)]
    fn fill(self, kind: Card) -> Self {
        [self[0].fill(kind), self[1].fill(kind)]
    }
    #[inline(always)]
    fn fresh(x: &Self) -> Self {
        [u128::fresh(&x[0]), u128::fresh(&x[1])]
    }
}
