//! The lanes: many games at a time, one lane of a vector register each, from their move to their
//! end or a trick limit; games still going at the limit (the cycling ones, and very long
//! terminating ones) go back to the exact cycle engine. One module for every lane engine:
//!
//! | file | what it owns |
//! |---|---|
//! | `mod.rs` | the index: the public face re-exported |
//! | `shape.rs` | what runs: [`available`], the [`Loop`] a batch plays and the [`Shape`] that names it |
//! | `random.rs` | the random games' kernel: [`run`], from a slice or numbered random deals |
//! | `layout.rs` | the deal layout: games made from 64 slots of cards at once |
//! | `source.rs` | where random games come from: a slice, or numbered random deals shuffled while the lanes play |
//! | `drive.rs` | the one driver: groups of lanes stepped side by side, refilled as they stop |
//! | `planes.rs` | the planes step: the general move, any number of face cards |
//! | `kinds.rs` | the kinds step: the same move with fewer operations for games of few face cards, in one word or split in two |
//! | `batch.rs` | the random batch: games with payloads, the long ones handed back in order |
//! | `tally.rs` | the counting batch: the exhaustive search's fixed games, counted in the lanes |
//!
//! Each step is written once over the lane vector (`engine/vector`), and every kernel runs in the
//! forms of the instruction set chosen (`engine/isa.rs`, the one dispatch point); which loop runs
//! in which form is the `Forms` constants, and [`Shape`] names it. The tests hold every loop,
//! in every form the processor has, to the reference engine.

mod batch;
mod drive;
mod kinds;
pub(crate) mod layout;
mod planes;
mod random;
mod shape;
pub(crate) mod source;
pub(crate) mod tally;

pub use batch::Batch;
pub(crate) use kinds::max_faces;
pub use random::{random_games_shape, run, run_with_isa};
pub(crate) use shape::with_groups;
pub use shape::{Loop, Shape, available};
