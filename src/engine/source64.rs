//! Where the 64-card lanes take their games from (`Games`): a slice of positions, or numbered
//! random deals made while the lanes play ([`Dealer`]).
//!
//! A deal's shuffle is a chain of 51 dependent byte swaps, scalar loads and stores, and the lanes'
//! moves are vector operations: made in a pass of their own, the deals took a fifth of
//! `ansatz bench`'s time. The dealer instead shuffles a few swaps at every step of the lanes
//! (`Games::work`), where the processor runs them beside the vector work, and keeps a few deals
//! ready for the lanes that stop.

#![cfg_attr(
    not(target_arch = "x86_64"),
    allow(dead_code, unused_imports, unused_variables)
)]
// Elsewhere (ARM) the batch plays one by one: the vector loops are reached only from the
// tests of their portable form, so their x86-only callers leave parts unused there.

use crate::card::Card;
use crate::engine::lanes64::Deal64;
use crate::rng::{SplitMix64, StepShuffle};

/// A source of games for the lanes: each with its number, which the lanes report it by.
pub(crate) trait Games {
    /// The next game and its number, or `None` when there are no more.
    fn next(&mut self) -> Option<(usize, Deal64)>;
    /// Some work towards the next games, once a step of the lanes.
    fn work(&mut self);
    /// The most face cards and cards of its games (which loops can play them).
    fn most(&self) -> Most;
}

/// The most face cards and the most cards of any game of a source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Most {
    pub faces: u32,
    pub cards: u32,
}

impl Most {
    /// Of the games of `games`.
    pub(crate) fn of(games: &[Deal64]) -> Most {
        games.iter().fold(Most::default(), |m, g| Most {
            faces: m
                .faces
                .max(g.faces[0].count_ones() + g.faces[1].count_ones()),
            cards: m.cards.max(g.len[0] + g.len[1]),
        })
    }
}

/// The games of a slice, numbered by their index in it.
pub(crate) struct Slice<'a> {
    games: &'a [Deal64],
    next: usize,
}

impl<'a> Slice<'a> {
    pub(crate) fn new(games: &'a [Deal64]) -> Self {
        Slice { games, next: 0 }
    }
}

impl Games for Slice<'_> {
    #[inline(always)]
    fn next(&mut self) -> Option<(usize, Deal64)> {
        let g = *self.games.get(self.next)?;
        self.next += 1;
        Some((self.next - 1, g))
    }
    #[inline(always)]
    fn work(&mut self) {}
    fn most(&self) -> Most {
        Most::of(self.games)
    }
}

/// Deals ready ahead of the lanes: enough that a step's stopped lanes rarely wait.
const READY: usize = 4;

/// Swaps of the shuffle in progress a step of the lanes: a little more than the deals the lanes
/// take (with 16 lanes and about 115 steps a standard game, 0.14 deals a step, 7 swaps).
const SWAPS: usize = 8;

/// The deals `lo..hi` under `seed` of a deck in deal order (`deck`'s first `n` slots, the rest
/// number cards), each shuffled as `deal::shuffle64` shuffles it and dealt as
/// [`Deal64::from_deal_order`] deals it; game `i` is deal `lo + i`. `draws` is the shuffle's
/// draws for the processor ([`SplitMix64::shuffle64`]).
pub struct Dealer<D> {
    deck: [Card; 64],
    n: usize,
    seed: u64,
    lo: u64,
    next: u64,
    hi: u64,
    draws: D,
    faces: u32,
    /// The shuffle in progress (finished when none is), its deal and its slots: kept in place,
    /// not moved in and out of an `Option` (copies of 64-byte arrays).
    shuffle: StepShuffle,
    index: u64,
    slots: [Card; 64],
    /// Deals ready, in a stack (their order does not matter).
    ready: [(u64, Deal64); READY],
    count: usize,
}

impl<D: Fn(u64, usize, &mut [u8; 64]) -> bool> Dealer<D> {
    pub fn new(
        deck: [Card; 64],
        n: usize,
        seed: u64,
        deals: std::ops::Range<u64>,
        draws: D,
    ) -> Self {
        assert!(n <= 64, "a lane deal holds at most 64 cards");
        Dealer {
            deck,
            n,
            seed,
            lo: deals.start,
            next: deals.start,
            hi: deals.end.max(deals.start),
            draws,
            faces: deck[..n].iter().filter(|&&c| c != 0).count() as u32,
            shuffle: StepShuffle::default(),
            index: 0,
            slots: deck,
            ready: [(0, Deal64::default()); READY],
            count: 0,
        }
    }

    /// Starts the next deal's shuffle, if any is left; a deal that the batched draws cannot
    /// shuffle (or of fewer than 2 cards) is shuffled whole at once and made ready.
    #[inline(always)]
    fn start(&mut self) {
        if self.next == self.hi {
            return;
        }
        self.index = self.next;
        self.next += 1;
        self.slots = self.deck;
        let mut rng = SplitMix64::for_index(self.seed, self.index);
        if self.n >= 2 {
            if rng.start_shuffle64(self.n, &self.draws, &mut self.shuffle) {
                return;
            }
            rng.shuffle(&mut self.slots[..self.n]);
        }
        self.push();
    }

    /// Makes the deal of the finished shuffle ready.
    #[inline(always)]
    fn push(&mut self) {
        self.ready[self.count] = (self.index, Deal64::from_deal_order(&self.slots, self.n));
        self.count += 1;
    }

    /// `count` more swaps of the shuffle in progress (starting one if none is); a finished
    /// shuffle's deal is made ready.
    #[inline(always)]
    fn advance(&mut self, count: usize) {
        if self.shuffle.finished() {
            self.start();
        } else if self.shuffle.swaps(&mut self.slots, count) {
            self.push();
        }
    }
}

impl<D: Fn(u64, usize, &mut [u8; 64]) -> bool> Games for Dealer<D> {
    #[inline(always)]
    fn next(&mut self) -> Option<(usize, Deal64)> {
        while self.count == 0 {
            if self.shuffle.finished() && self.next == self.hi {
                return None;
            }
            self.advance(64);
        }
        self.count -= 1;
        let (index, deal) = self.ready[self.count];
        Some(((index - self.lo) as usize, deal))
    }
    #[inline(always)]
    fn work(&mut self) {
        if self.count < READY {
            self.advance(SWAPS);
        }
    }
    fn most(&self) -> Most {
        Most {
            faces: self.faces,
            cards: self.n as u32,
        }
    }
}
