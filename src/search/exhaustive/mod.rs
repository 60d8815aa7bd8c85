//! Exhaustive search of a small deck: every distinct deal (arrangement of the multiset, hands split
//! as equally as possible, player 1 first), counted by outcome.
//!
//! The fast path shares prefixes. A game reads each player's original cards in order, and until it
//! has read one its course cannot depend on it. So the search plays one game per *set of deals that
//! agree on every card read so far*: when a player must play an original card not yet fixed, it
//! branches over the kinds still left in the multiset; when the game ends first, the whole subtree
//! (every arrangement of the unfixed cards: a multinomial) shares its winner, tricks and cards. When
//! every card is fixed the subtree is one deal: it is played on in place and, if it has not ended
//! after `IN_PLACE_TRICKS` tricks, by the exact cycle engine (cycles are only ever reported from
//! such fully fixed deals). [`naive()`] plays every deal separately (rank/unrank + engine) and is the
//! checker; `tests/search.rs` demands equal statistics from both on random small decks.
//!
//! Work split: [`Plan`] cuts the tree into subtrees of bounded weight, in a fixed order, so task `i`
//! is the same for any thread count. A task is named by the cards fixed on its path, in the order
//! they were first played; that is a different order from the deal's, so these tasks are not rank
//! ranges of the deal multiset. Rank ranges ([`naive()`]) split the deal-by-deal path.
//!
//! | file | what it owns |
//! |---|---|
//! | `stats.rs` | the result types: totals, cycle classes, the longest game, the extra card |
//! | `naive.rs` | the checker: every deal played by itself |
//! | `packed.rs` | the deal as the walk fixes it, three bits a card |
//! | `node.rs` | the node (a game with unread cards), the fixed data of a search, the two widths |
//! | `fixed.rs` | a fully fixed game played one by one, and the counting of a finished subtree |
//! | `bulk.rs` | fully fixed games played in bulk: the counting batch of the lanes |
//! | `walk.rs` | the tree walk: play on, branch over the kinds left |
//! | `plan.rs` | the search cut into tasks, [`Plan`] and its [`Options`] |
//! | `run.rs` | running it in parallel and in resumable batches |

mod bulk;
mod fixed;
mod naive;
mod node;
mod packed;
mod plan;
pub mod run;
mod stats;
mod walk;

pub use naive::{deal_count, naive, naive_split, play_deal};
pub use node::{MAX_CARDS, NARROW_CARDS};
pub use packed::PACKED_CARDS;
pub use plan::{Options, Plan, TaskScratch, prefix_sharing, prefix_sharing_with};
pub use stats::{CycleClass, ExhaustiveStats, Extra, Longest};
