//! Exact cycle detection (Brent's method), written once for every game that plays tricks: whole
//! positions are compared at trick boundaries, never a hash alone. The preperiod, card counts and
//! the cycle's least position come from a second pass, which only cycling games pay for. The
//! two-player form ([`Game`]) and the games of more players (`multi.rs`) both go through it.

use super::game::{Game, Plane};
use super::trick::Step;
use super::{CycleInfo, Outcome};
use crate::position::Position;

/// What cycle detection needs of a game: a trick at a time, whole-position equality at trick
/// boundaries, and the order that names a cycle.
pub trait Tricks: Clone + PartialEq {
    /// Buffers a trick may use (cleared before use, capacity kept).
    type Scratch;
    /// Plays one trick: [`Step::Next`] or [`Step::End`] (every card is known).
    fn play_trick(&mut self, scratch: &mut Self::Scratch) -> Step;
    /// The fixed total order whose least position names a cycle.
    fn key_cmp(&self, other: &Self) -> std::cmp::Ordering;
}

impl<H: Plane> Tricks for Game<H> {
    type Scratch = ();
    #[inline(always)]
    fn play_trick(&mut self, _: &mut ()) -> Step {
        self.trick()
    }
    fn key_cmp(&self, other: &Self) -> std::cmp::Ordering {
        Game::key_cmp(self, other)
    }
}

/// How a game went: it ended, or it cycles.
pub enum Run<S> {
    /// The game ends (counting as `rules.md` does: a last, partial trick counts).
    Ends {
        winner: u8,
        tricks: u64,
        cards: u64,
    },
    Cycle(Found<S>),
}

/// A game that cycles.
pub struct Found<S> {
    pub preperiod: u64,
    pub period: u64,
    /// Cards played until a position first repeats, and in one period.
    pub cards: u64,
    pub cycle_cards: u64,
    /// The least position of the cycle in [`Tricks::key_cmp`]'s order.
    pub least: S,
}

/// Plays `start` to its end or its cycle.
pub fn run<S: Tricks>(start: &S, scratch: &mut S::Scratch) -> Run<S> {
    match brent(start, scratch) {
        Brent::Ends {
            winner,
            tricks,
            cards,
        } => Run::Ends {
            winner,
            tricks,
            cards,
        },
        Brent::Cycle { period } => Run::Cycle(describe(start, period, scratch)),
    }
}

/// Plays a position to its end or its cycle: in `u64` planes (every deck of up to 64 cards), in
/// `u128` planes up to 128, and with the reference engine past that.
pub fn play(pos: &Position) -> Outcome {
    match pos.total() {
        0..=64 => play_state(&Game::<u64>::from_position(pos)),
        65..=128 => play_state(&Game::<u128>::from_position(pos)),
        _ => super::reference::play(pos),
    }
}

/// Only whether the game from `start` ends; cheaper than [`play_state`] for cycling games.
pub fn terminates<H: Plane>(start: &Game<H>) -> bool {
    matches!(brent(start, &mut ()), Brent::Ends { .. })
}

/// Plays a two-player game at a trick boundary to its end or its cycle.
pub fn play_state<H: Plane>(start: &Game<H>) -> Outcome {
    match run(start, &mut ()) {
        Run::Ends {
            winner,
            tricks,
            cards,
        } => Outcome::Terminates {
            winner,
            tricks,
            cards,
        },
        Run::Cycle(f) => Outcome::Cycle(CycleInfo {
            preperiod: f.preperiod,
            period: f.period,
            tricks: f.preperiod + f.period,
            cards: f.cards,
            cycle_cards: f.cycle_cards,
            cycle_id: f.least.to_position(),
        }),
    }
}

enum Brent {
    Ends { winner: u8, tricks: u64, cards: u64 },
    Cycle { period: u64 },
}

/// Brent's method: the saved state jumps to the current one at every power of two; a repeat of the
/// saved state within the current window gives the exact period.
#[inline]
fn brent<S: Tricks>(start: &S, scratch: &mut S::Scratch) -> Brent {
    let mut hare = start.clone();
    let mut saved = start.clone();
    let mut power: u64 = 1;
    let mut lam: u64 = 0;
    let mut tricks: u64 = 0;
    let mut cards: u64 = 0;
    loop {
        match hare.play_trick(scratch) {
            Step::Next { cards: c } => {
                tricks += 1;
                cards += u64::from(c);
            }
            Step::End { winner, cards: c } => {
                return Brent::Ends {
                    winner,
                    tricks: tricks + u64::from(c > 0),
                    cards: cards + u64::from(c),
                };
            }
            Step::Unread => unreachable!("every card of a whole game is known"),
        }
        lam += 1;
        if hare == saved {
            return Brent::Cycle { period: lam };
        }
        if lam == power {
            saved.clone_from(&hare);
            power *= 2;
            lam = 0;
        }
    }
}

/// Advances `s` one trick that is known not to end the game; returns the cards played.
#[inline]
fn step<S: Tricks>(s: &mut S, scratch: &mut S::Scratch) -> u64 {
    match s.play_trick(scratch) {
        Step::Next { cards } => u64::from(cards),
        _ => unreachable!("a cycling game does not end"),
    }
}

/// Second pass for a game known to cycle with `period`: the preperiod, the card counts and the
/// least position.
fn describe<S: Tricks>(start: &S, period: u64, scratch: &mut S::Scratch) -> Found<S> {
    let mut lead = start.clone();
    let mut lead_cards = 0;
    for _ in 0..period {
        lead_cards += step(&mut lead, scratch);
    }
    let mut trail = start.clone();
    let mut trail_cards = 0;
    let mut preperiod = 0;
    while lead != trail {
        lead_cards += step(&mut lead, scratch);
        trail_cards += step(&mut trail, scratch);
        preperiod += 1;
    }
    // `trail` is the first position that recurs; walk the cycle once for its least position.
    let mut least = trail.clone();
    let mut walk = trail;
    for _ in 1..period {
        step(&mut walk, scratch);
        if walk.key_cmp(&least).is_lt() {
            least.clone_from(&walk);
        }
    }
    Found {
        preperiod,
        period,
        cards: lead_cards,
        cycle_cards: lead_cards - trail_cards,
        least,
    }
}
