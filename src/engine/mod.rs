//! Forward play: the outcome type shared by every engine, and the engines themselves.
//!
//! - [`reference`](mod@reference): VecDeque + HashMap, as plain as the rules read; the oracle.
//! - [`game`]: the one scalar form of a two-player game ([`game::Game`], hands and pile as bit
//!   planes, at any move boundary); [`trick`]: its one trick, whole runs of cards at a time.
//! - [`cycle`]: exact cycle detection (Brent), one loop for two players and more ([`multi`]:
//!   the position and trick of three players or more).
//! - [`lanes`]: many games at a time, one lane of a vector register each: one driver, the planes
//!   and kinds steps written once over a lane vector (`vector/`, a module per instruction set),
//!   the random batch and the exhaustive search's counting batch.
//! - [`isa`]: the one choice of instruction set and the one dispatch point: every
//!   `#[target_feature]` wrapper is generated there from one feature list.
//! - [`trace`]: every position at trick boundaries, for `ansatz play --trace`.
//!
//! # Which engine plays what
//!
//! The instruction set is chosen once ([`isa::Isa::get`]: the best the processor has, or a
//! smaller one named by `ANSATZ_ISA`); every answer is the same whichever runs. The lanes' loops
//! are named as [`lanes::Shape`] spells them, which is what `ansatz bench --json`,
//! `search random --json` and `search exhaustive --json` report as `lanes` (`tests/search.rs`
//! holds this table to those reports under each `ANSATZ_ISA`); "one by one" is the scalar form.
//!
//! | work | AVX-512 | AVX2 | portable (any processor, ARM) |
//! |---|---|---|---|
//! | one game (`play`, replay, cycles, backward play) | one by one | one by one | one by one |
//! | random deals of two players and up to 60 cards and 16 face cards (`bench`, `search random`) | with VBMI2 `kinds step, 16 u32 lanes of split planes, 1 group`, else `kinds step, 8 u64 lanes, 2 groups` | `kinds step, 8 u32 lanes of split planes, 1 group` | one by one |
//! | other random deals of two players and up to 64 cards | `kinds step, 8 u64 lanes, 2 groups` (up to 31 face cards), else `planes step, 8 u64 lanes, 2 groups` | `kinds step, 4 u64 lanes, 2 groups`, else `planes step, 4 u64 lanes, 2 groups` | one by one |
//! | exhaustive search, decks of up to 34 cards (`search exhaustive`) | `kinds step, 16 u32 lanes, 1 group` | `kinds step, 8 u32 lanes, 1 group` | one by one |
//! | exhaustive search, 35 to 52 cards | with VBMI2 `kinds step, 16 u32 lanes of split planes, 2 groups` (up to 60 cards and 16 face cards), else `kinds step, 8 u64 lanes, 2 groups` | `kinds step, 8 u32 lanes of split planes, 1 group`, else `kinds step, 4 u64 lanes, 1 group` | one by one |
//! | exhaustive search of a deck past the kinds queue (more than 15 face cards in up to 34 cards, 31 in more) | one by one | one by one | one by one |
//!
//! Why: one game has no lanes to fill (Brent needs its states); `u32` lanes are twice as many a
//! register as `u64` ones, so they run wherever the games fit; the portable lanes (plain arrays)
//! are slower than the scalar form and run only in the tests; on decks past the kinds queue the
//! planes step in the lanes is slower than one by one. The exhaustive search plays in `u32`
//! hands up to 34 cards (`search/exhaustive/node.rs`), where only the `u32` kinds lanes take its
//! games. ARM runs the portable column (no NEON form yet: none was measured on ARM hardware).

pub mod cycle;
pub mod game;
pub mod isa;
pub mod lanes;
pub mod multi;
mod outcome;
pub mod reference;
pub mod trace;
pub mod trick;
pub(crate) mod vector;

pub use cycle::play;
pub use game::Game;
pub use isa::Isa;
pub use outcome::{CycleInfo, Finish, Outcome};
