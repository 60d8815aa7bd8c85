//! The random games' kernel: games from a slice or numbered random deals, played in the loop
//! their most face cards and cards allow, each one reported as it ends.

use super::drive::{Sink, Stopped};
use super::shape::{Loop, Shape};
use super::source::{self, Feeding, Games, Most, Slice};
use super::{kinds, planes, with_groups};
use crate::card::Card;
use crate::engine::Finish;
use crate::engine::game::Game;
use crate::engine::isa::{self, Form, Forms, Isa, Kernel};
use crate::engine::vector::Vector;

/// Tricks the lanes play before a game is handed back. Terminating games of a standard deck are
/// far shorter (the tail halves every ~20 tricks), and a cycling game wastes only these tricks,
/// at about a third of their cost in the scalar engine.
pub(crate) const LIMIT: u32 = 256;

/// Whether random games of `most` take the split lanes under `limit` (see `kinds::fits_split`).
fn split_fits(most: Most, limit: u32) -> bool {
    kinds::fits_split(most) && limit < 1 << 10
}

/// The loop random games of `most` play in, in the forms `F` with the trick limit `limit`.
fn random_shape<F: Forms>(most: Most, limit: u32) -> Shape {
    if F::RANDOM_SPLIT > 0 && split_fits(most, limit) {
        Shape::of::<F::Split>(Loop::Split, F::RANDOM_SPLIT, F::FORM)
    } else if F::RANDOM_KINDS > 0 && kinds::fits(most) {
        Shape::of::<F::Wide>(Loop::Kinds, F::RANDOM_KINDS, F::FORM)
    } else {
        Shape::of::<F::Wide>(Loop::Planes, F::RANDOM_PLANES, F::FORM)
    }
}

/// The shape random games of `most` face cards and cards play in on this processor (what
/// `ansatz bench` and `search random` report), for the trick limit of the random batches.
pub fn random_games_shape(faces: u32, cards: u32) -> Shape {
    struct Of(Most);
    impl Kernel for Of {
        type Out = Shape;
        unsafe fn run<F: Forms>(self) -> Shape {
            random_shape::<F>(self.0, LIMIT)
        }
    }
    isa::dispatch(Of(Most { faces, cards }))
}

/// A source of random games made in the kernel's forms (the dealer uses their draws and planes).
pub(crate) trait Source {
    type Games<F: Forms>: Games;
    /// # Safety
    /// The processor has `F`'s features.
    unsafe fn games<F: Forms>(self) -> Self::Games<F>;
}

impl<'a> Source for &'a [Game<u64>] {
    type Games<F: Forms> = Slice<'a>;
    unsafe fn games<F: Forms>(self) -> Slice<'a> {
        Slice::new(self)
    }
}

/// The deals `range` under `seed` of a deck in deal order (`deck`'s first `n` slots).
pub(crate) struct Deals {
    pub deck: [Card; 64],
    pub n: usize,
    pub seed: u64,
    pub range: std::ops::Range<u64>,
}

impl Source for Deals {
    type Games<F: Forms> = source::Dealer<F>;
    unsafe fn games<F: Forms>(self) -> source::Dealer<F> {
        // SAFETY: the caller's contract.
        unsafe { source::Dealer::new(self.deck, self.n, self.seed, self.range) }
    }
}

/// The random games' kernel: every game of `source`, in the loop [`random_shape`] picks (or
/// `force`'s, for the tests), reported to `done`.
struct Random<S, D> {
    source: S,
    limit: u32,
    done: D,
    force: Option<Loop>,
}

impl<S: Source, D: FnMut(usize, Finish)> Kernel for Random<S, D> {
    type Out = Shape;
    #[inline(always)]
    unsafe fn run<F: Forms>(self) -> Shape {
        // SAFETY: the caller's contract.
        let mut games = unsafe { self.source.games::<F>() };
        let mut shape = random_shape::<F>(games.most(), self.limit);
        if let Some(step) = self.force {
            let (groups, v) = (1, F::FORM);
            shape = match step {
                Loop::Split => Shape::of::<F::Split>(step, groups, v),
                _ => Shape::of::<F::Wide>(step, groups, v),
            };
        }
        let (feed, sink, limit) = (&mut Feeding(&mut games), &mut Done(self.done), self.limit);
        // SAFETY (each loop): the caller's contract.
        with_groups!(shape.groups, G => unsafe {
            match shape.step {
                Loop::Split => kinds::run_split::<F::Split, G>(feed, limit, sink),
                Loop::Kinds => kinds::run::<F::Wide, G>(feed, limit, sink),
                Loop::Planes => planes::run::<F::Wide, G>(feed, limit, sink),
            }
        });
        shape
    }
}

/// The random games' sink: each game's finish to a callback, as its lane stops.
struct Done<D>(D);

impl<V: Vector, D: FnMut(usize, Finish)> Sink<V> for Done<D> {
    const ALWAYS: bool = false;
    #[inline(always)]
    fn report(&mut self, r: &Stopped<V>, stopped: u32, slots: &[usize; 16]) {
        let [mut tc, mut last] = [[0u64; 16]; 2];
        r.tc.store(&mut tc);
        r.last.store(&mut last);
        // Tricks in the high half of a lane, cards in the low half.
        let half = V::BITS / 2;
        let mut s = stopped;
        while s != 0 {
            let i = s.trailing_zeros() as usize;
            s &= s - 1;
            let finish = Finish::of_lane(
                r.ended >> i & 1 == 1,
                r.winner >> i & 1,
                (tc[i] >> half) as u32,
                (tc[i] & ((1 << half) - 1)) as u32,
                last[i] as u32,
            );
            (self.0)(slots[i], finish);
        }
    }
    #[inline(always)]
    fn over(&mut self, number: usize, winner: u8) {
        let finish = Finish::Won {
            winner,
            tricks: 0,
            cards: 0,
        };
        (self.0)(number, finish);
    }
}

/// Plays every game of `games` until it ends or has played `limit` tricks, and reports each with
/// `done(index in games, finish)`, in no particular order, in the lanes of the forms chosen for
/// this process (`ANSATZ_ISA` and the processor); the answers are the same whichever. Returns the
/// shape that ran.
pub fn run(games: &[Game<u64>], limit: u32, done: impl FnMut(usize, Finish)) -> Shape {
    isa::dispatch(Random {
        source: games,
        limit,
        done,
        force: None,
    })
}

/// [`run`] of the deals of `deals`, numbered from its range's start (game `i` is deal
/// `range.start + i`).
pub(crate) fn run_deals(deals: Deals, limit: u32, done: impl FnMut(usize, Finish)) -> Shape {
    isa::dispatch(Random {
        source: deals,
        limit,
        done,
        force: None,
    })
}

/// Plays `games` as [`run`] does, but in the lanes of `isa` (its best form this processor has)
/// whatever `ANSATZ_ISA` says; `None` (nothing played) when the processor lacks `isa`. For tests
/// that hold every form to the reference engine on one machine.
pub fn run_with_isa(
    isa: Isa,
    games: &[Game<u64>],
    limit: u32,
    done: impl FnMut(usize, Finish),
) -> Option<Shape> {
    let form = Form::ALL
        .into_iter()
        .find(|f| f.isa() == isa && f.detected())?;
    let k = Random {
        source: games,
        limit,
        done,
        force: None,
    };
    isa::run_in(form, k).ok()
}

#[cfg(test)]
mod tests;
