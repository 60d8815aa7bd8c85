//! The fast forward engine's layouts and the per-card ring engine: hands in fixed ring buffers, a trick
//! loop that never allocates or hashes.
//!
//! [`Small`] (decks of up to 64 cards) is the bitboard engine of `bits.rs`. [`State`] is the plain
//! per-card ring engine: over a boxed power-of-two slice it is the general path for decks of any size
//! ([`Large`]); over `[u8; 64]` ([`Ring64`]) it is a second, simpler check on the bitboard engine.
//! Both are tested against `reference.rs`.

use std::cmp::Ordering;

use crate::card::Card;
use crate::position::Position;

/// Storage of a ring: a power-of-two slice of cards.
pub trait Buf: Clone {
    fn slice(&self) -> &[Card];
    fn slice_mut(&mut self) -> &mut [Card];
    /// A zeroed buffer of at least `cap` cards (power of two).
    fn with_capacity(cap: usize) -> Self;
}

/// Capacity of the stack layout.
pub const SMALL_CAP: usize = 64;

impl Buf for [Card; SMALL_CAP] {
    #[inline(always)]
    fn slice(&self) -> &[Card] {
        self
    }
    #[inline(always)]
    fn slice_mut(&mut self) -> &mut [Card] {
        self
    }
    fn with_capacity(cap: usize) -> Self {
        assert!(cap <= SMALL_CAP);
        [0; SMALL_CAP]
    }
}

impl Buf for Box<[Card]> {
    #[inline(always)]
    fn slice(&self) -> &[Card] {
        self
    }
    #[inline(always)]
    fn slice_mut(&mut self) -> &mut [Card] {
        self
    }
    fn with_capacity(cap: usize) -> Self {
        vec![0; cap.next_power_of_two().max(1)].into_boxed_slice()
    }
}

/// A hand: cards `buf[head & mask] ..` for `len` cards, top first. `head` wraps freely: the
/// capacity divides 2^32.
#[derive(Clone, Copy, Debug)]
pub struct Ring<B> {
    buf: B,
    head: u32,
    len: u32,
}

impl<B: Buf> Ring<B> {
    fn new(cards: &[Card], cap: usize) -> Self {
        let mut r = Ring {
            buf: B::with_capacity(cap),
            head: 0,
            len: 0,
        };
        r.extend(cards);
        r
    }

    #[inline(always)]
    fn mask(&self) -> u32 {
        self.buf.slice().len() as u32 - 1
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
        self.buf.slice()[(self.head.wrapping_add(i as u32) & self.mask()) as usize]
    }

    #[inline(always)]
    fn pop(&mut self) -> Card {
        debug_assert!(self.len > 0);
        let c = self.buf.slice()[(self.head & self.mask()) as usize];
        self.head = self.head.wrapping_add(1);
        self.len -= 1;
        c
    }

    /// Puts `cards` under the hand, first card nearest the top.
    #[inline(always)]
    fn extend(&mut self, cards: &[Card]) {
        let mask = self.mask();
        let mut tail = self.head.wrapping_add(self.len);
        let buf = self.buf.slice_mut();
        debug_assert!(cards.len() + self.len as usize <= buf.len());
        for &c in cards {
            buf[(tail & mask) as usize] = c;
            tail = tail.wrapping_add(1);
        }
        self.len += cards.len() as u32;
    }

    pub fn iter(&self) -> impl Iterator<Item = Card> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }

    fn to_vec(&self) -> Vec<Card> {
        self.iter().collect()
    }
}

impl<B: Buf> PartialEq for Ring<B> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && (0..self.len()).all(|i| self.get(i) == other.get(i))
    }
}

/// A position in the fast layout: two rings and the player to move.
#[derive(Clone, Copy, Debug)]
pub struct State<B> {
    pub hands: [Ring<B>; 2],
    pub to_move: u8,
}

/// The fast layout for decks of up to 64 cards: the bitboard engine.
pub type Small = super::bits::BitState;
/// The per-card ring engine on the stack (decks of up to 64 cards), kept as a check on [`Small`].
pub type Ring64 = State<[Card; SMALL_CAP]>;

/// What the cycle detector needs from an engine layout.
pub trait GameState: Clone + PartialEq {
    /// Plays one trick; `pile` is scratch of at least [`GameState::capacity`] cards.
    fn trick(&mut self, pile: &mut [Card]) -> Step;
    /// The cycle-id order (`Position::key_cmp`).
    fn key_cmp(&self, other: &Self) -> Ordering;
    fn to_position(&self) -> Position;
    /// The pile scratch size.
    fn capacity(&self) -> usize;
}

impl<B: Buf> GameState for State<B> {
    #[inline(always)]
    fn trick(&mut self, pile: &mut [Card]) -> Step {
        State::trick(self, pile)
    }
    fn key_cmp(&self, other: &Self) -> Ordering {
        State::key_cmp(self, other)
    }
    fn to_position(&self) -> Position {
        State::to_position(self)
    }
    fn capacity(&self) -> usize {
        State::capacity(self)
    }
}
/// The heap layout, for larger decks (multi-deck test hands).
pub type Large = State<Box<[Card]>>;

/// What one call of [`State::trick`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A pile of `cards` cards was taken; the game goes on.
    Next { cards: u32 },
    /// The game ended during (or, for a position with an empty hand, before) this trick.
    End { winner: u8, cards: u32 },
}

impl<B: Buf> State<B> {
    /// Copies `pos` into a ring layout with room for every card of the position.
    pub fn from_position(pos: &Position) -> Self {
        let cap = pos.total().max(1).next_power_of_two();
        State {
            hands: [Ring::new(&pos.hands[0], cap), Ring::new(&pos.hands[1], cap)],
            to_move: pos.to_move,
        }
    }

    /// Builds a state from two hands without going through a `Position`.
    pub fn from_hands(h1: &[Card], h2: &[Card], to_move: u8) -> Self {
        let cap = (h1.len() + h2.len()).max(1).next_power_of_two();
        State {
            hands: [Ring::new(h1, cap), Ring::new(h2, cap)],
            to_move,
        }
    }

    pub fn to_position(&self) -> Position {
        Position::new(self.hands[0].to_vec(), self.hands[1].to_vec(), self.to_move)
    }

    /// Cards in both hands.
    pub fn total(&self) -> usize {
        self.hands[0].len() + self.hands[1].len()
    }

    /// The capacity a pile buffer needs.
    pub fn capacity(&self) -> usize {
        self.hands[0].buf.slice().len()
    }

    /// Plays one trick. `pile` is scratch of at least [`State::capacity`] cards (contents ignored).
    /// On `End` the state is left mid-trick and must not be played on.
    #[inline]
    pub fn trick(&mut self, pile: &mut [Card]) -> Step {
        let mut p = self.to_move as usize;
        if self.hands[0].is_empty() || self.hands[1].is_empty() {
            let winner = u8::from(!self.hands[1].is_empty());
            return Step::End { winner, cards: 0 };
        }
        let mut n = 0usize;
        // Lead phase: alternate until a penalty card appears.
        let mut debt;
        loop {
            let h = &mut self.hands[p];
            if h.is_empty() {
                return Step::End {
                    winner: (p ^ 1) as u8,
                    cards: n as u32,
                };
            }
            let c = h.pop();
            pile[n] = c;
            n += 1;
            p ^= 1;
            if c != 0 {
                debt = c;
                break;
            }
        }
        // Payment phase: `p` owes `debt`; a penalty card hands the debt back.
        let mut paid = 0;
        while paid < debt {
            let h = &mut self.hands[p];
            if h.is_empty() {
                return Step::End {
                    winner: (p ^ 1) as u8,
                    cards: n as u32,
                };
            }
            let c = h.pop();
            pile[n] = c;
            n += 1;
            paid += 1;
            if c != 0 {
                debt = c;
                paid = 0;
                p ^= 1;
            }
        }
        let w = p ^ 1;
        self.hands[w].extend(&pile[..n]);
        self.to_move = w as u8;
        if self.hands[p].is_empty() {
            return Step::End {
                winner: w as u8,
                cards: n as u32,
            };
        }
        Step::Next { cards: n as u32 }
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

impl<B: Buf> PartialEq for State<B> {
    /// Whole-position equality; the cheap fields first, since they differ most of the time.
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.to_move == other.to_move
            && self.hands[0].len == other.hands[0].len
            && self.hands[0] == other.hands[0]
            && self.hands[1] == other.hands[1]
    }
}
