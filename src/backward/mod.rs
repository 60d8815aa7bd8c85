//! Backward play (rules.md, "Playing backwards"): predecessors, the backward closure of a set of
//! positions, cycle families with their balanced deals, and longer games grown backwards.
//!
//! - [`compact`]: the fixed `Copy` layout the hot loops work on.
//! - [`predecessors`](mod@predecessors): one trick back, in time proportional to the answer.
//! - [`reference`](mod@reference): the plain replay and a visited-set BFS, the oracles of the two above.
//! - [`closure`]: the parallel BFS over the predecessor tree.
//! - [`family`](mod@family): a cycle and its backward closure.
//! - [`level_checkpoint`]: a closure search saved at a level boundary, to continue it.
//! - [`extend`]: balanced deals whose games run longer than a given game.

pub mod closure;
pub mod compact;
pub mod extend;
pub mod family;
pub mod level_checkpoint;
pub mod predecessors;
pub mod reference;

pub use compact::{COMPACT_MAX_CARDS, Compact};
pub use family::{Family, FamilyError, family, family_of_cycle};

use crate::engine::reference::{Trick, trick};
use crate::position::Position;

/// A predecessor that forward play does not confirm: a bug, reported rather than printed.
#[derive(Debug, thiserror::Error)]
#[error("internal error: predecessor {pred} does not lead to {pos}")]
pub struct Unverified {
    pub pred: String,
    pub pos: String,
}

/// Every predecessor of `pos`, each checked by a forward trick with the reference engine; the fast
/// path for positions of up to 64 cards, the plain replay beyond.
pub fn predecessors(pos: &Position) -> Result<Vec<Position>, Unverified> {
    let preds: Vec<Position> = match Compact::from_position(pos) {
        Some(c) => predecessors::predecessors(&c)
            .iter()
            .map(Compact::to_position)
            .collect(),
        None => reference::predecessors(pos),
    };
    for p in &preds {
        if !matches!(trick(p), Trick::Next { ref next, .. } if next == pos) {
            return Err(Unverified {
                pred: p.to_string(),
                pos: pos.to_string(),
            });
        }
    }
    Ok(preds)
}
