//! Forward play: the outcome type shared by every engine, and the engines themselves.
//!
//! - [`reference`](mod@reference): VecDeque + HashMap, as plain as the rules read; the oracle.
//! - [`bits`]: the bitboard engine for decks of up to 64 cards (a few bit operations per face card).
//! - [`fast`]: the engine layouts and the per-card ring engine (any size), no allocation in the trick loop.
//! - [`cycle`]: exact cycle detection (Brent) over the fast engine's states.
//! - [`lanes`]: the lanes' game form ([`lanes::Game`], with [`lanes::Game::finish`], the plain
//!   one-card-at-a-time oracle of every lane engine from any move boundary), and [`lanes::Plane`].
//! - [`lanes64`]: whole-deck games, one `u64` lane each: the planes loop (`moves64.rs`) and the
//!   kinds-queue loop (`kinds64.rs`), each written once over a lane vector (`vec64/`, a module per
//!   instruction set) and run by one driver (`drive64.rs`: report, refill, step); [`batch64`]:
//!   games waiting for them, the ones still going handed back in order.
//! - [`isa`]: the one choice of instruction set, and each vector form's feature list.
//! - [`trace`]: every position at trick boundaries, for `ansatz play --trace`.
//!
//! # Which engine plays what
//!
//! The instruction set is chosen once ([`isa::Isa::get`]: the best the processor has, or a
//! smaller one named by `ANSATZ_ISA`); every answer is the same whichever runs.
//!
//! | work | AVX-512 | AVX2 | portable (any x86, ARM) | why |
//! |---|---|---|---|---|
//! | one game (`play`, replay, cycles) | [`cycle`] over [`fast`] / [`bits`] | same | same | one game has no lanes to fill; Brent needs the states |
//! | random batches (`bench`, `search random`) | [`lanes64`]: kinds loop, 8 `u64` lanes, 2 groups (planes loop past 31 face cards) | [`lanes64`]: kinds loop in split planes, 8 `u32` lanes (up to 60 cards and 16 face cards, every standard deal), else 4 `u64` lanes, 2 groups | [`bits`] one by one | plain `u64` lanes are slower than the bitboard engine; `u32` lanes are twice as many a register |
//! | exhaustive search, decks of up to 34 cards | kinds loop, 16 `u32` lanes (`search/exhaustive/tally`) | kinds loop, 8 `u32` lanes | one by one (`Node::trick`) | the fully fixed games of the tree walk, counted in the lanes |
//! | exhaustive search, 35 to 52 cards | split lanes, 16 `u32` lanes (with VBMI2), else kinds loop in 8 `u64` lanes | split lanes, 8 `u32` lanes (else kinds loop, 4 `u64` lanes) | one by one | as above; the split lanes take games of up to 60 cards and 15 face cards |
//! | exhaustive search of a deck past the kinds queue (more than 15 face cards in up to 34 cards, 31 in more) | one by one | one by one | one by one | faster than a planes loop in the lanes on such decks |
//! | reference, tests | [`reference`](mod@reference), [`lanes::Game::finish`] | same | same | the oracles, plain code |
//!
//! ARM runs the portable column (no NEON form yet: none was measured on ARM hardware).

pub mod batch64;
pub mod bits;
pub mod cycle;
mod drive64;
pub mod fast;
pub mod isa;
pub(crate) mod kinds64;
pub mod lanes;
pub mod lanes64;
mod moves64;
pub mod multi;
pub mod reference;
pub mod source64;
pub mod trace;
pub(crate) mod vec64;

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

/// Plays a position to its end or its cycle with the fast engine (any hand sizes).
pub fn play(pos: &Position) -> Outcome {
    cycle::play(pos)
}
