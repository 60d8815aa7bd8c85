//! Beat It or Eat It (Bill Taylor, 1993): a two-suit card game of choice, solved exactly.
//!
//! Shares nothing with the Beggar-My-Neighbour engines. The pieces, bottom up:
//!
//! | file | what it owns |
//! |---|---|
//! | [`cards`] | cards, hands and the notation `AQT98.KJ/KJ.AQT98 (1)` with a table `8h Jh` |
//! | [`state`] | a position seen from the player to move, its legal moves and their results |
//! | [`dense`] | retrograde analysis over every position of an `n`-card suit (the census) |
//! | [`graph`] | retrograde analysis over the positions reachable from one, under a node limit |
//! | [`mod@reference`] | the plain fixpoint solver the two above are held to |
//! | [`line`](mod@line) | best moves and principal lines from any solved table |
//! | [`census`] | every symmetric layout of a suit length, with each player leading |
//!
//! Values are from the point of view of the player to move; `plies` counts the moves to the
//! end when the winner hurries and the loser delays (the depth of the retrograde analysis).

pub mod cards;
pub mod census;
pub mod dense;
pub mod graph;
pub mod line;
pub mod reference;
pub mod state;

pub use cards::{Card, GameSetup, NotationError};
pub use state::{Move, State, Step};

/// The game value for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Win,
    Loss,
    Draw,
}

impl Value {
    pub fn as_str(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Loss => "loss",
            Value::Draw => "draw",
        }
    }

    /// The same outcome seen by the other player.
    pub fn flip(self) -> Value {
        match self {
            Value::Win => Value::Loss,
            Value::Loss => Value::Win,
            Value::Draw => Value::Draw,
        }
    }
}

/// A solved position: its value and, unless drawn, the plies to the end under perfect play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Solved {
    pub value: Value,
    pub plies: Option<u32>,
}

/// Anything that knows the exact value of positions (a solved table).
pub trait Values {
    /// The value of `s`, or `None` when `s` lies outside what was solved.
    fn solved(&self, s: &State) -> Option<Solved>;
}
