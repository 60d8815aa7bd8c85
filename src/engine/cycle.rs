//! Exact cycle detection over the fast engine (Brent's method): whole positions are compared at trick
//! boundaries, never a hash alone. The preperiod, card counts and cycle id come from a second pass,
//! which only cycling games pay for.

use super::fast::{GameState, Large, SMALL_CAP, Small, Step};
use super::{CycleInfo, Outcome};
use crate::card::Card;
use crate::position::Position;

/// Plays `pos` with the fast engine, choosing the stack layout when the deck fits in it.
pub fn play(pos: &Position) -> Outcome {
    if pos.total() <= SMALL_CAP {
        play_state(&Small::from_position(pos))
    } else {
        play_state(&Large::from_position(pos))
    }
}

/// Only whether the game from `start` ends; cheaper than [`play_state`] for cycling games.
pub fn terminates<S: GameState>(start: &S) -> bool {
    let mut pile = vec_or_stack(start);
    matches!(brent(start, pile.as_mut()), Brent::Ends { .. })
}

/// Plays `start` to its end or its cycle.
pub fn play_state<S: GameState>(start: &S) -> Outcome {
    let mut pile = vec_or_stack(start);
    let pile = pile.as_mut();
    match brent(start, pile) {
        Brent::Ends {
            winner,
            tricks,
            cards,
        } => Outcome::Terminates {
            winner,
            tricks,
            cards,
        },
        Brent::Cycle { period } => Outcome::Cycle(describe_cycle(start, period, pile)),
    }
}

/// A pile buffer: on the stack for the small layout.
enum Pile {
    Stack([Card; SMALL_CAP]),
    Heap(Vec<Card>),
}

impl Pile {
    fn as_mut(&mut self) -> &mut [Card] {
        match self {
            Pile::Stack(a) => a,
            Pile::Heap(v) => v,
        }
    }
}

fn vec_or_stack<S: GameState>(start: &S) -> Pile {
    let cap = start.capacity();
    if cap <= SMALL_CAP {
        Pile::Stack([0; SMALL_CAP])
    } else {
        Pile::Heap(vec![0; cap])
    }
}

enum Brent {
    Ends { winner: u8, tricks: u64, cards: u64 },
    Cycle { period: u64 },
}

/// Brent's method: the saved state jumps to the current one at every power of two; a repeat of the
/// saved state within the current window gives the exact period.
#[inline]
fn brent<S: GameState>(start: &S, pile: &mut [Card]) -> Brent {
    let mut hare = start.clone();
    let mut saved = start.clone();
    let mut power: u64 = 1;
    let mut lam: u64 = 0;
    let mut tricks: u64 = 0;
    let mut cards: u64 = 0;
    loop {
        match hare.trick(pile) {
            Step::Next { cards: c } => {
                tricks += 1;
                cards += c as u64;
            }
            Step::End { winner, cards: c } => {
                return Brent::Ends {
                    winner,
                    tricks: tricks + u64::from(c > 0),
                    cards: cards + c as u64,
                };
            }
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
fn step<S: GameState>(s: &mut S, pile: &mut [Card]) -> u64 {
    match s.trick(pile) {
        Step::Next { cards } => cards as u64,
        Step::End { .. } => unreachable!("a cycling game does not end"),
    }
}

/// Second pass for a game known to cycle with `period`: the preperiod, the card counts and the id.
fn describe_cycle<S: GameState>(start: &S, period: u64, pile: &mut [Card]) -> CycleInfo {
    let mut lead = start.clone();
    let mut lead_cards = 0;
    for _ in 0..period {
        lead_cards += step(&mut lead, pile);
    }
    let mut trail = start.clone();
    let mut trail_cards = 0;
    let mut preperiod = 0;
    while lead != trail {
        lead_cards += step(&mut lead, pile);
        trail_cards += step(&mut trail, pile);
        preperiod += 1;
    }
    // `trail` is the first position that recurs; walk the cycle once for its smallest position.
    let mut best = trail.clone();
    let mut walk = trail;
    for _ in 1..period {
        step(&mut walk, pile);
        if walk.key_cmp(&best).is_lt() {
            best.clone_from(&walk);
        }
    }
    CycleInfo {
        preperiod,
        period,
        tricks: preperiod + period,
        cards: lead_cards,
        cycle_cards: lead_cards - trail_cards,
        cycle_id: best.to_position(),
    }
}
