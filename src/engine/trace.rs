//! Every position of a game at trick boundaries, as the 2024 paper's Appendix D prints them.

use super::reference::{Trick, trick};
use crate::position::Position;
use std::collections::HashSet;

/// One line of a trace: the position before trick `trick` (0-based) and the cards played so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceLine {
    pub trick: u64,
    pub cards: u64,
    pub position: Position,
}

/// Positions at trick boundaries from `start` until the game ends or a position repeats (the repeated
/// position is included as the last line). `emit` is called once per line.
pub fn trace(start: &Position, mut emit: impl FnMut(&TraceLine)) {
    let mut seen: HashSet<Position> = HashSet::new();
    let mut line = TraceLine {
        trick: 0,
        cards: 0,
        position: start.clone(),
    };
    loop {
        emit(&line);
        if !seen.insert(line.position.clone()) {
            return;
        }
        match trick(&line.position) {
            Trick::Next { next, cards } => {
                line.trick += 1;
                line.cards += cards;
                line.position = next;
            }
            Trick::End { .. } => return,
        }
    }
}
