//! The lazy template game of the enumeration: a game whose TEST hand is known only down to the
//! next TEST card, which can stop in the middle of a trick when that card is needed.
//!
//! The TEST hand is held as *front* ++ *back* in one ring: `front` counts the cards above the
//! unknown rest of TEST; the back (the template's cards below TEST, then the piles taken) goes
//! under it. Piles are put under the back, which is right because the unknown part is played
//! before any card below it. A chosen TEST card is pushed on top when `front` is 0, the only moment
//! the game can look at it. `enumerate.rs` copies a stopped game once per child.

use crate::card::{Card, KINDS, NUMBER};
use crate::engine::cycle;

/// A ring of at most 64 cards, top first; `head` wraps freely (64 divides 256).
#[derive(Clone, Copy)]
pub(super) struct Ring {
    buf: [Card; 64],
    head: u8,
    pub(super) len: u8,
}

impl Ring {
    pub(super) fn new(cards: &[Card]) -> Ring {
        let mut r = Ring {
            buf: [0; 64],
            head: 0,
            len: 0,
        };
        r.extend(cards);
        r
    }
    #[inline(always)]
    fn pop(&mut self) -> Card {
        let c = self.buf[(self.head & 63) as usize];
        self.head = self.head.wrapping_add(1);
        self.len -= 1;
        c
    }
    #[inline(always)]
    fn push_top(&mut self, c: Card) {
        self.head = self.head.wrapping_sub(1);
        self.buf[(self.head & 63) as usize] = c;
        self.len += 1;
    }
    #[inline(always)]
    fn extend(&mut self, cards: &[Card]) {
        let mut tail = self.head.wrapping_add(self.len);
        for &c in cards {
            self.buf[(tail & 63) as usize] = c;
            tail = tail.wrapping_add(1);
        }
        self.len += cards.len() as u8;
    }
    fn write_to(&self, out: &mut [Card; 64]) -> usize {
        for (i, slot) in out.iter_mut().take(self.len as usize).enumerate() {
            *slot = self.buf[(self.head.wrapping_add(i as u8) & 63) as usize];
        }
        self.len as usize
    }
}

/// A template game that can stop in the middle of a trick, when the next TEST card is needed.
#[derive(Clone, Copy)]
pub(super) struct Game {
    pub(super) hands: [Ring; 2],
    pub(super) pile: [Card; 64],
    /// Cards on the pile.
    pub(super) n: u8,
    /// The player who plays the next card (at a trick boundary: the player to move).
    pub(super) p: u8,
    /// Cards still owed by `p`; 0 in the lead phase.
    pub(super) left: u8,
    /// Cards of the TEST hand above the unknown rest of TEST.
    pub(super) front: u8,
    /// TEST may still grow.
    pub(super) open: bool,
    /// TEST cards chosen so far, in all and by kind.
    pub(super) len: u8,
    pub(super) faces: u8,
    pub(super) count: [u8; KINDS],
}

/// Why [`Game::run`] stopped.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Stop {
    /// TEST is open and its next card (or its end) must be chosen.
    NeedTest,
    /// The game is over.
    End,
    /// TEST is closed and a trick boundary is reached.
    Boundary,
}

impl Game {
    /// Plays card by card until a TEST decision is needed, the game ends, or (TEST closed) a trick
    /// boundary. The same rules as `engine::trick`, one card per iteration so that the
    /// game can stop anywhere.
    #[inline]
    pub(super) fn run(&mut self, th: usize) -> Stop {
        loop {
            if self.open && self.front == 0 {
                return Stop::NeedTest;
            }
            if self.n == 0 && self.left == 0 {
                if !self.open {
                    return Stop::Boundary;
                }
                if self.hands[0].len == 0 || self.hands[1].len == 0 {
                    return Stop::End;
                }
            }
            let p = self.p as usize;
            if self.hands[p].len == 0 {
                return Stop::End;
            }
            let c = self.hands[p].pop();
            if self.open && p == th {
                self.front -= 1;
            }
            self.pile[self.n as usize] = c;
            self.n += 1;
            if c != NUMBER {
                self.left = c;
                self.p ^= 1;
            } else if self.left == 0 {
                self.p ^= 1;
            } else {
                self.left -= 1;
                if self.left == 0 {
                    let w = p ^ 1;
                    let n = self.n as usize;
                    let pile = self.pile;
                    self.hands[w].extend(&pile[..n]);
                    self.n = 0;
                    self.p = w as u8;
                }
            }
        }
    }

    /// Chooses `c` as the next TEST card (only when `front == 0`).
    #[inline]
    pub(super) fn push(&mut self, th: usize, c: Card) {
        self.hands[th].push_top(c);
        self.front = 1;
        self.len += 1;
        self.count[c as usize] += 1;
        self.faces += u8::from(c != NUMBER);
    }

    /// Ends TEST and finishes the game: true when it never ends.
    pub(super) fn close_and_finish(mut self, th: usize) -> bool {
        self.open = false;
        match self.run(th) {
            Stop::End => false,
            Stop::NeedTest => unreachable!("TEST is closed"),
            Stop::Boundary => {
                let mut a = [0; 64];
                let mut b = [0; 64];
                let na = self.hands[0].write_to(&mut a);
                let nb = self.hands[1].write_to(&mut b);
                let state = crate::engine::Game::<u64>::from_hands(&a[..na], &b[..nb], self.p);
                !cycle::terminates(&state)
            }
        }
    }

    /// Ends TEST and plays on to the next trick boundary: the position there in the lanes' form,
    /// or `None` when the game ends first.
    #[inline]
    pub(super) fn close_to_deal(mut self, th: usize) -> Option<crate::engine::Game<u64>> {
        self.open = false;
        match self.run(th) {
            Stop::End => None,
            Stop::NeedTest => unreachable!("TEST is closed"),
            Stop::Boundary => {
                let mut d = crate::engine::Game::<u64> {
                    next: u32::from(self.p),
                    ..crate::engine::Game::default()
                };
                for (p, r) in self.hands.iter().enumerate() {
                    d.set_hand_ring(p, &r.buf, r.head, r.len);
                }
                Some(d)
            }
        }
    }
}
