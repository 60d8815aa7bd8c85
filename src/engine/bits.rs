//! The bitboard engine for decks of up to 64 cards: each hand is a 64-slot ring of card values plus a
//! `u64` mask of the slots that hold face cards, so a trick costs a few bit operations per *face card*
//! instead of a branch per card. Number cards are never written: a slot's value is read only where
//! its mask bit is set.
//!
//! `fast.rs` keeps the plain per-card ring engine; both are checked against `reference.rs`.

use std::cmp::Ordering;

use super::fast::{GameState, Step};
use crate::card::Card;
use crate::position::Position;

/// The ring size: every card of the position fits in one hand.
pub const CAP: usize = 64;

/// A hand: `len` cards starting at slot `head` of `vals`, top first. `faces` is relative to the top:
/// bit `i` is set when the `i`-th card from the top is a face card (its penalty is in `vals`); bits at
/// and above `len` are always clear. Values of number-card slots are stale and never read.
#[derive(Clone, Copy, Debug)]
pub struct BitHand {
    vals: [Card; CAP],
    faces: u64,
    head: u8,
    len: u8,
}

impl BitHand {
    fn new(cards: &[Card]) -> Self {
        let mut h = BitHand {
            vals: [0; CAP],
            faces: 0,
            head: 0,
            len: 0,
        };
        for (i, &c) in cards.iter().enumerate() {
            h.vals[i] = c;
            h.faces |= u64::from(c != 0) << i;
        }
        h.len = cards.len() as u8;
        h
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `i`-th card from the top.
    #[inline(always)]
    pub fn get(&self, i: usize) -> Card {
        debug_assert!(i < self.len());
        if (self.faces >> i) & 1 == 1 {
            self.face_value(i as u32)
        } else {
            0
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = Card> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }

    /// The penalty of the `i`-th card from the top, which must be a face card.
    #[inline(always)]
    fn face_value(&self, i: u32) -> Card {
        self.vals[(self.head as usize + i as usize) & (CAP - 1)]
    }

    /// Removes the top `k` cards.
    #[inline(always)]
    fn pop(&mut self, k: u32) {
        debug_assert!(k <= self.len as u32);
        self.faces = self.faces.checked_shr(k).unwrap_or(0);
        self.head = ((self.head as u32 + k) & (CAP as u32 - 1)) as u8;
        self.len -= k as u8;
    }

    /// Puts a pile of `n` cards under the hand: its face cards are the bits of `pile_faces`, with
    /// values `pile[i]`.
    #[inline(always)]
    fn append(&mut self, n: u32, pile_faces: u64, pile: &[Card; CAP]) {
        debug_assert!(n >= 1 && self.len as u32 + n <= CAP as u32);
        let len = self.len as u32;
        self.faces |= pile_faces << len;
        let tail = self.head as u32 + len;
        let mut m = pile_faces;
        while m != 0 {
            let i = m.trailing_zeros();
            self.vals[((tail + i) & (CAP as u32 - 1)) as usize] = pile[i as usize];
            m &= m - 1;
        }
        self.len += n as u8;
    }
}

impl PartialEq for BitHand {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        if self.len != other.len {
            return false;
        }
        if self.faces != other.faces {
            return false;
        }
        let mut m = self.faces;
        while m != 0 {
            let i = m.trailing_zeros();
            if self.face_value(i) != other.face_value(i) {
                return false;
            }
            m &= m - 1;
        }
        true
    }
}

/// A position of at most 64 cards in the bitboard layout. `Copy`, on the stack.
#[derive(Clone, Copy, Debug)]
pub struct BitState {
    pub hands: [BitHand; 2],
    pub to_move: u8,
}

impl BitState {
    /// Panics if the position holds more than 64 cards: callers pick the layout by size.
    pub fn from_position(pos: &Position) -> Self {
        Self::from_hands(&pos.hands[0], &pos.hands[1], pos.to_move)
    }

    pub fn from_hands(h1: &[Card], h2: &[Card], to_move: u8) -> Self {
        assert!(
            h1.len() + h2.len() <= CAP,
            "the bitboard layout holds at most 64 cards"
        );
        BitState {
            hands: [BitHand::new(h1), BitHand::new(h2)],
            to_move,
        }
    }

    pub fn to_position(&self) -> Position {
        Position::new(
            self.hands[0].iter().collect(),
            self.hands[1].iter().collect(),
            self.to_move,
        )
    }

    pub fn total(&self) -> usize {
        self.hands[0].len() + self.hands[1].len()
    }

    /// The pile scratch a caller must pass to [`BitState::trick`].
    pub fn capacity(&self) -> usize {
        CAP
    }

    /// Plays one trick. `pile` is scratch of at least 64 cards. On `End` the state is left mid-trick.
    #[inline(always)]
    pub fn trick(&mut self, pile: &mut [Card]) -> Step {
        let pile: &mut [Card; CAP] = (&mut pile[..CAP]).try_into().expect("pile of 64 cards");
        let a = self.to_move as usize;
        let b = a ^ 1;
        let (la, lb) = (self.hands[a].len as u32, self.hands[b].len as u32);
        if la == 0 || lb == 0 {
            return Step::End {
                winner: u8::from(la == 0) ^ a as u8,
                cards: 0,
            };
        }
        // Lead phase: A's i-th card is pile card 2i, B's is 2i+1; the first face (or empty hand) ends it.
        let ea = self.hands[a].faces.trailing_zeros().min(la);
        let eb = self.hands[b].faces.trailing_zeros().min(lb);
        let mut n: u32;
        let mut pile_faces: u64;
        let mut payer: usize;
        let mut debt: u32;
        if ea <= eb {
            if ea == la {
                return Step::End {
                    winner: b as u8,
                    cards: 2 * ea,
                };
            }
            let v = self.hands[a].face_value(ea);
            n = 2 * ea + 1;
            pile[(n - 1) as usize] = v;
            pile_faces = 1 << (n - 1);
            self.hands[a].pop(ea + 1);
            self.hands[b].pop(ea);
            payer = b;
            debt = v as u32;
        } else {
            if eb == lb {
                return Step::End {
                    winner: a as u8,
                    cards: 2 * eb + 1,
                };
            }
            let v = self.hands[b].face_value(eb);
            n = 2 * eb + 2;
            pile[(n - 1) as usize] = v;
            pile_faces = 1 << (n - 1);
            self.hands[a].pop(eb + 1);
            self.hands[b].pop(eb + 1);
            payer = a;
            debt = v as u32;
        }
        // Payment phase: the payer pays number cards until the debt is paid, a face card hands a
        // new debt back, or the payer runs out.
        loop {
            let h = &mut self.hands[payer];
            let f = h.faces.trailing_zeros();
            if f < debt {
                let v = h.face_value(f);
                n += f + 1;
                pile[(n - 1) as usize] = v;
                pile_faces |= 1 << (n - 1);
                h.pop(f + 1);
                debt = v as u32;
                payer ^= 1;
                continue;
            }
            if (h.len as u32) < debt {
                return Step::End {
                    winner: (payer ^ 1) as u8,
                    cards: n + h.len as u32,
                };
            }
            n += debt;
            h.pop(debt);
            break;
        }
        let w = payer ^ 1;
        self.hands[w].append(n, pile_faces, pile);
        self.to_move = w as u8;
        if self.hands[payer].is_empty() {
            return Step::End {
                winner: w as u8,
                cards: n,
            };
        }
        Step::Next { cards: n }
    }

    /// The cycle-id order of `Position::key_cmp`, without building positions.
    pub fn key_cmp(&self, other: &Self) -> Ordering {
        crate::position::key_order(
            (
                self.hands[0].iter().chain(self.hands[1].iter()),
                self.hands[0].len(),
                self.to_move,
            ),
            (
                other.hands[0].iter().chain(other.hands[1].iter()),
                other.hands[0].len(),
                other.to_move,
            ),
        )
    }

    /// The packed `u128` key of `Position::pack` (at most 52 cards).
    pub fn pack(&self) -> u128 {
        debug_assert!(self.total() <= crate::position::PACK_MAX_CARDS);
        crate::position::pack_key(
            self.hands[0].iter().chain(self.hands[1].iter()),
            self.hands[0].len(),
            self.to_move,
        )
    }
}

impl PartialEq for BitState {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.to_move == other.to_move
            && self.hands[0].len == other.hands[0].len
            && self.hands[0] == other.hands[0]
            && self.hands[1] == other.hands[1]
    }
}

impl GameState for BitState {
    #[inline(always)]
    fn trick(&mut self, pile: &mut [Card]) -> Step {
        BitState::trick(self, pile)
    }
    fn key_cmp(&self, other: &Self) -> Ordering {
        BitState::key_cmp(self, other)
    }
    fn to_position(&self) -> Position {
        BitState::to_position(self)
    }
    fn capacity(&self) -> usize {
        CAP
    }
}
