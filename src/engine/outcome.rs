//! How a game ends: the outcome every engine reports ([`Outcome`], [`CycleInfo`]), and how a game
//! left the lanes or a bounded replay ([`Finish`]).

use crate::position::Position;

/// How a game ends, under the counting conventions of `rules.md`:
/// `cards` are the cards put on the pile; `tricks` count every taken pile and the last, partial trick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The game ends; `winner` is 0 for player 1, 1 for player 2.
    Terminates { winner: u8, tricks: u64, cards: u64 },
    /// The game reaches a position it has been in before.
    Cycle(CycleInfo),
}

/// A non-terminating game. `tricks` and `cards` count play until a position first repeats
/// (`tricks == preperiod + period`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CycleInfo {
    pub preperiod: u64,
    pub period: u64,
    pub tricks: u64,
    pub cards: u64,
    /// Cards played in one period.
    pub cycle_cards: u64,
    /// The smallest position on the cycle in the order of [`Position::key_cmp`]: two games that reach the
    /// same cycle report the same id.
    pub cycle_id: Position,
}

impl Outcome {
    pub fn is_cycle(&self) -> bool {
        matches!(self, Outcome::Cycle(_))
    }
    pub fn tricks(&self) -> u64 {
        match self {
            Outcome::Terminates { tricks, .. } => *tricks,
            Outcome::Cycle(c) => c.tricks,
        }
    }
    pub fn cards(&self) -> u64 {
        match self {
            Outcome::Terminates { cards, .. } => *cards,
            Outcome::Cycle(c) => c.cards,
        }
    }
}

/// How a game left the lanes (or a bounded replay of the reference engine).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// The game ended: `tricks` and `cards` count the tricks and cards played there (a last,
    /// unfinished trick counted as a trick).
    Won { winner: u8, tricks: u64, cards: u64 },
    /// It had played its trick limit without ending: the caller plays it on with the cycle
    /// engine.
    TooLong,
}

impl Finish {
    /// The finish of a lane that stopped: `ended` (else too long), its winner, the tricks and
    /// cards of its finished tricks, and `last` cards of an unfinished last trick.
    #[inline(always)]
    pub(crate) fn of_lane(ended: bool, winner: u32, tricks: u32, cards: u32, last: u32) -> Finish {
        if ended {
            Finish::Won {
                winner: winner as u8,
                tricks: u64::from(tricks) + u64::from(last > 0),
                cards: u64::from(cards) + u64::from(last),
            }
        } else {
            Finish::TooLong
        }
    }
}
