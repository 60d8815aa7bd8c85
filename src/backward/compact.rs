//! `Compact`: the fixed, `Copy` position layout backward play works on (both hands in one array).

use std::cmp::Ordering;

use crate::card::Card;
use crate::position::{PACK_MAX_CARDS, Position};

/// The most cards a [`Compact`] holds.
pub const COMPACT_MAX_CARDS: usize = 64;

/// A position laid out for backward play: hand 1 in `cards[..len0]`, hand 2 right after it, every
/// slot past the last card zero. Keeping the tail zero makes the derived equality, hash and order
/// whole-array operations; for positions of one card count the derived order is the cycle-id order
/// of [`Position::key_cmp`] (cards, then the size of hand 1, then the player to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Compact {
    pub cards: [Card; COMPACT_MAX_CARDS],
    pub len0: u8,
    pub len1: u8,
    pub to_move: u8,
}

impl Compact {
    /// `None` when the position holds more than [`COMPACT_MAX_CARDS`] cards.
    pub fn from_position(pos: &Position) -> Option<Compact> {
        Compact::from_hands(&pos.hands[0], &pos.hands[1], pos.to_move)
    }

    pub fn from_hands(h0: &[Card], h1: &[Card], to_move: u8) -> Option<Compact> {
        if h0.len() + h1.len() > COMPACT_MAX_CARDS {
            return None;
        }
        let mut cards = [0; COMPACT_MAX_CARDS];
        cards[..h0.len()].copy_from_slice(h0);
        cards[h0.len()..h0.len() + h1.len()].copy_from_slice(h1);
        Some(Compact {
            cards,
            len0: h0.len() as u8,
            len1: h1.len() as u8,
            to_move,
        })
    }

    pub fn to_position(&self) -> Position {
        Position::new(self.hand(0).to_vec(), self.hand(1).to_vec(), self.to_move)
    }

    #[inline(always)]
    pub fn total(&self) -> usize {
        self.len0 as usize + self.len1 as usize
    }

    #[inline(always)]
    pub fn hand(&self, p: usize) -> &[Card] {
        let n0 = self.len0 as usize;
        if p == 0 {
            &self.cards[..n0]
        } else {
            &self.cards[n0..n0 + self.len1 as usize]
        }
    }

    /// Cards in the smaller hand: half the deck (rounded down) exactly when balanced.
    #[inline(always)]
    pub fn smaller_hand(&self) -> u8 {
        self.len0.min(self.len1)
    }

    /// Hand sizes differ by at most one (rules.md: 26/26 for the standard deck).
    #[inline(always)]
    pub fn is_balanced(&self) -> bool {
        self.len0.abs_diff(self.len1) <= 1
    }

    /// The packed key of [`Position::pack`], for positions of at most 52 cards. Two Horner chains of
    /// at most 26 base-5 digits each run in `u64` (5^26 < 2^61) and meet in one `u128` multiply:
    /// the same value as one chain over all cards, at a fraction of the cost.
    #[inline]
    pub fn pack(&self) -> u128 {
        let n = self.total();
        debug_assert!(n <= PACK_MAX_CARDS);
        let k = n.min(26);
        let (hi_cards, lo_cards) = self.cards[..n].split_at(n - k);
        let hi = hi_cards.iter().fold(0u64, |v, &c| v * 5 + c as u64);
        let lo = lo_cards.iter().fold(0u64, |v, &c| v * 5 + c as u64);
        let v = hi as u128 * POW5[k] as u128 + lo as u128;
        (v << 7) | ((self.len0 as u128) << 1) | self.to_move as u128
    }

    /// The cycle-id order; for positions of one card count it is the derived order.
    pub fn key_cmp(&self, other: &Compact) -> Ordering {
        self.cards[..self.total()]
            .cmp(&other.cards[..other.total()])
            .then(self.len0.cmp(&other.len0))
            .then(self.to_move.cmp(&other.to_move))
    }
}

/// 5^k for k in 0..=26.
const POW5: [u64; 27] = {
    let mut t = [1u64; 27];
    let mut i = 1;
    while i < 27 {
        t[i] = t[i - 1] * 5;
        i += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;

    #[test]
    fn pack_agrees_with_position() {
        for s in [
            "--K---A----AAJ--J--------K---------Q-Q-K---Q-KAQJ-/J- (1)",
            "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (2)",
            "J--/-J- (2)",
            "/-A (1)",
        ] {
            let p = Position::parse(s, Notation::Auto).unwrap();
            let c = Compact::from_position(&p).unwrap();
            assert_eq!(c.pack(), p.pack().unwrap(), "{s}");
            assert_eq!(c.to_position(), p);
        }
    }

    #[test]
    fn size_is_pinned() {
        assert!(size_of::<Compact>() <= 72);
    }
}
