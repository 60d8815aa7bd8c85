//! Where the lanes take their random games from ([`Games`]): a slice of positions, or numbered
//! random deals made while the lanes play ([`Dealer`]); and the driver's [`Feed`] of them.
//!
//! A deal's shuffle is a chain of 51 dependent byte swaps, scalar loads and stores, and the lanes'
//! moves are vector operations: made in a pass of their own, the deals took a fifth of
//! `ansatz bench`'s time. The dealer instead shuffles a few swaps at every step of the lanes
//! (`Games::work`), where the processor runs them beside the vector work, and keeps a few deals
//! ready for the lanes that stop.

use super::drive::{Feed, LaneGroup, Sink};
use super::layout;
use crate::card::Card;
use crate::engine::game::Game;
use crate::engine::isa::Forms;
use crate::engine::vector::Vector;
use crate::rng::{SplitMix64, StepShuffle};

/// A source of games for the lanes: each with its number, which the lanes report it by.
pub(crate) trait Games {
    /// The next game and its number, or `None` when there are no more.
    fn next(&mut self) -> Option<(usize, Game<u64>)>;
    /// Whether games are left.
    fn left(&self) -> bool;
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
    pub(crate) fn of(games: &[Game<u64>]) -> Most {
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
    games: &'a [Game<u64>],
    next: usize,
}

impl<'a> Slice<'a> {
    pub(crate) fn new(games: &'a [Game<u64>]) -> Self {
        Slice { games, next: 0 }
    }
}

impl Games for Slice<'_> {
    #[inline(always)]
    fn next(&mut self) -> Option<(usize, Game<u64>)> {
        let g = *self.games.get(self.next)?;
        self.next += 1;
        Some((self.next - 1, g))
    }
    #[inline(always)]
    fn left(&self) -> bool {
        self.next < self.games.len()
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
/// [`Game::from_deal_order`] deals it, in the forms `F` (their draws and planes); game `i` is
/// deal `lo + i`.
pub(crate) struct Dealer<F> {
    deck: [Card; 64],
    n: usize,
    seed: u64,
    lo: u64,
    next: u64,
    hi: u64,
    faces: u32,
    /// The shuffle in progress (finished when none is), its deal and its slots: kept in place,
    /// not moved in and out of an `Option` (copies of 64-byte arrays).
    shuffle: StepShuffle,
    index: u64,
    slots: [Card; 64],
    /// Deals ready, in a stack (their order does not matter).
    ready: [(u64, Game<u64>); READY],
    count: usize,
    forms: std::marker::PhantomData<F>,
}

impl<F: Forms> Dealer<F> {
    /// # Safety
    /// The processor has `F`'s features (the dealer's draws and planes use them).
    pub(crate) unsafe fn new(
        deck: [Card; 64],
        n: usize,
        seed: u64,
        deals: std::ops::Range<u64>,
    ) -> Self {
        assert!(n <= 64, "a lane deal holds at most 64 cards");
        Dealer {
            deck,
            n,
            seed,
            lo: deals.start,
            next: deals.start,
            hi: deals.end.max(deals.start),
            faces: deck[..n].iter().filter(|&&c| c != 0).count() as u32,
            shuffle: StepShuffle::default(),
            index: 0,
            slots: deck,
            ready: [(0, Game::<u64>::default()); READY],
            count: 0,
            forms: std::marker::PhantomData,
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
            // SAFETY: the processor has `F`'s features (`Dealer::new`).
            let held = unsafe { F::draws(rng.state(), self.n, self.shuffle.draws_mut()) };
            if rng.begin_shuffle64(self.n, held, &mut self.shuffle) {
                return;
            }
            rng.shuffle(&mut self.slots[..self.n]);
        }
        self.push();
    }

    /// Makes the deal of the finished shuffle ready.
    #[inline(always)]
    fn push(&mut self) {
        // SAFETY: as above.
        let planes = unsafe { F::planes(&self.slots) };
        self.ready[self.count] = (self.index, layout::cut(planes, self.n));
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

impl<F: Forms> Games for Dealer<F> {
    #[inline(always)]
    fn next(&mut self) -> Option<(usize, Game<u64>)> {
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
    fn left(&self) -> bool {
        self.count > 0 || !self.shuffle.finished() || self.next < self.hi
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

/// The driver's feed of a [`Games`] source: a lane that stops takes the next game at once (its
/// pile, debt and counts cleared, its hands written into the registers).
pub(crate) struct Feeding<'a, S>(pub &'a mut S);

impl<V: Vector, L: LaneGroup<V>, S: Games> Feed<V, L> for Feeding<'_, S> {
    const EAGER: bool = true;
    #[inline(always)]
    fn work(&mut self) {
        self.0.work();
    }
    #[inline(always)]
    fn left(&self) -> bool {
        self.0.left()
    }
    #[inline(always)]
    fn fill(&mut self, g: &mut L, slots: &mut [usize; 16], idle: u32, sink: &mut impl Sink<V>) {
        g.clear(idle);
        let mut s = idle;
        'lanes: while s != 0 {
            let i = s.trailing_zeros() as usize;
            s &= s - 1;
            while let Some((number, game)) = self.0.next() {
                if let Some(winner) = game.over_at_start() {
                    sink.over(number, winner);
                    continue;
                }
                g.load(i, &game);
                slots[i] = number;
                *g.active() |= 1 << i;
                continue 'lanes;
            }
            break;
        }
    }
}
