//! The fully fixed games of the exhaustive search in the vector lanes, counted in the lanes:
//! each game is written straight into the lanes' arrays when the tree walk queues it (no array of
//! games to transpose later), and a game that ends shorter than the longest so far leaves the
//! lanes as one count of its winner (no per-game results to store and read back). Only the rare
//! others (as long as the longest so far, or past the trick limit) come back one by one, for
//! the tree walk (`search/exhaustive/bulk.rs`) to record as the general path does.
//!
//! One batch, generic over the lane element: `u32` lanes for decks of up to 34 cards (33 and
//! 34 with at most 15 face cards: `search::exhaustive`'s narrow walk), `u64` lanes for the
//! larger decks. The lanes play the kinds step (`kinds.rs`; the batch's planes turned into kinds
//! by `tally/arrays.rs`) when the batch's games have at most 15 face cards (`u32`) or 31 (`u64`).
//! A deck with more face cards never comes here: the tree walk plays its games one by one,
//! which was measured faster than a planes loop in the lanes for such decks. A `u64` batch whose
//! games have at most 60 cards and 15 face cards plays in `u32` lanes instead where the forms
//! run split lanes, each face plane in two words (`tally/split.rs`). Which loop runs in which
//! form is the forms' constants (`isa::Forms`: `TALLY_NARROW`, `TALLY_SPLIT`, `TALLY_WIDE`). The
//! reference is the reference engine's play of every game from its move (`reference::play_on`):
//! the tests hold every loop, in every form the processor has, to it.
//!
//! | file | what it owns |
//! |---|---|
//! | `soa.rs` | the arrays, one per field of the games |
//! | `batch.rs` | the batch: games queued, and what the lanes report |
//! | `arrays.rs` | the kinds step's feed: the batch's planes turned into kinds, lane by lane |
//! | `split.rs` | the split lanes' feed: `u64` games in two `u32` words a face plane |
//! | `play.rs` | the batch played: the kernels, each element's loops, the counting sink |

mod arrays;
mod batch;
mod play;
mod soa;
mod split;

pub(crate) use batch::{BATCH, NarrowBatch, TallyBatch};
pub(crate) use play::TallyPlane;
