//! The mutation operators (add, remove, swap one card) and the search over positions that applies
//! up to three of them in a row, optionally with every split of the cards between the hands.
//! The same operators link pieces into classes (`piece.rs`).

use std::collections::HashSet;
use std::fmt;

use rayon::prelude::*;

use crate::card::{Card, KINDS, symbol};
use crate::engine::{CycleInfo, Outcome};
use crate::position::Position;

/// One operation on a sequence of cards; `at` counts from 0 at the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SeqOp {
    /// Insert `card` before the card at `at` (`at == len` appends).
    Add {
        at: usize,
        card: Card,
    },
    Remove {
        at: usize,
    },
    /// Replace the card at `at` by `card` (another kind).
    Swap {
        at: usize,
        card: Card,
    },
}

impl SeqOp {
    pub fn apply(self, seq: &[Card]) -> Vec<Card> {
        let mut v = seq.to_vec();
        match self {
            SeqOp::Add { at, card } => v.insert(at, card),
            SeqOp::Remove { at } => {
                v.remove(at);
            }
            SeqOp::Swap { at, card } => v[at] = card,
        }
        v
    }
}

/// Every add (each kind of `alphabet` at each place), remove and swap (to each other kind of
/// `alphabet`) on a sequence of `seq`, in a fixed order.
pub fn seq_ops(seq: &[Card], alphabet: &[Card]) -> Vec<SeqOp> {
    let mut ops = Vec::with_capacity((seq.len() + 1) * alphabet.len() * 2);
    for at in 0..=seq.len() {
        for &card in alphabet {
            ops.push(SeqOp::Add { at, card });
        }
    }
    for (at, &old) in seq.iter().enumerate() {
        ops.push(SeqOp::Remove { at });
        for &card in alphabet {
            if card != old {
                ops.push(SeqOp::Swap { at, card });
            }
        }
    }
    ops
}

/// The sequences one remove or one swap away from `seq`. Adds are not listed: B is one add from A
/// exactly when A is one remove from B, so a symmetric relation over a set needs only these.
pub fn shrink_and_swap_neighbours(seq: &[Card], alphabet: &[Card]) -> Vec<Vec<Card>> {
    seq_ops(seq, alphabet)
        .into_iter()
        .filter(|op| !matches!(op, SeqOp::Add { .. }))
        .map(|op| op.apply(seq))
        .collect()
}

/// One operation on a position: a sequence operation on one hand, or a new split point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    Hand {
        hand: u8,
        op: SeqOp,
    },
    /// All cards (hand 1 then hand 2) re-split with `at` cards in hand 1.
    Split {
        at: usize,
    },
}

impl fmt::Display for Op {
    /// `add Q at 1:5`, `remove 2:3`, `swap 1:4 to A`, `split at 20`; places count from 1.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Op::Hand { hand, op } => match op {
                SeqOp::Add { at, card } => {
                    write!(f, "add {} at {}:{}", symbol(card), hand + 1, at + 1)
                }
                SeqOp::Remove { at } => write!(f, "remove {}:{}", hand + 1, at + 1),
                SeqOp::Swap { at, card } => {
                    write!(f, "swap {}:{} to {}", hand + 1, at + 1, symbol(card))
                }
            },
            Op::Split { at } => write!(f, "split at {at}"),
        }
    }
}

fn apply(pos: &Position, op: Op) -> Position {
    match op {
        Op::Hand { hand, op } => {
            let mut p = pos.clone();
            p.hands[hand as usize] = op.apply(&pos.hands[hand as usize]);
            p
        }
        Op::Split { at } => {
            let mut all: Vec<Card> = pos.hands[0].iter().chain(&pos.hands[1]).copied().collect();
            let h2 = all.split_off(at);
            Position::new(all, h2, pos.to_move)
        }
    }
}

/// Every hand operation on a position, in a fixed order.
fn position_ops(pos: &Position) -> Vec<Op> {
    const ALL: [Card; KINDS] = [0, 1, 2, 3, 4];
    (0..2u8)
        .flat_map(|hand| {
            seq_ops(&pos.hands[hand as usize], &ALL)
                .into_iter()
                .map(move |op| Op::Hand { hand, op })
        })
        .collect()
}

/// What to try around a position.
#[derive(Clone, Debug)]
pub struct MutateConfig {
    /// Operations in a row: 1 to 3 (default 1).
    pub ops: usize,
    /// Also try every split of the cards between the hands, after the operations.
    pub split_points: bool,
}

/// A position near the start that never ends, with the operations that lead to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mutant {
    pub position: Position,
    pub ops: Vec<Op>,
    pub cycle: CycleInfo,
}

/// Every distinct position within `cfg.ops` operations of `start` (each then re-split when asked)
/// whose game never ends, with the operations that lead to it. Each position is reported once, with
/// the first list of operations in the order tried (level by level, so the fewest operations
/// first); the order does not depend on the thread count. `start` itself is not reported.
/// `progress` receives the number of games played.
///
/// Levels below `cfg.ops` are kept (deduplicated) in memory; the last level and the splits are
/// streamed, so memory stays at the size of level `ops - 1` (about 3·10^5 positions for 52 cards).
pub fn mutate(
    start: &Position,
    cfg: &MutateConfig,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<Mutant> {
    let mut seen: HashSet<Position> = HashSet::new();
    seen.insert(start.clone());
    let mut levels: Vec<Vec<(Position, Vec<Op>)>> = vec![vec![(start.clone(), Vec::new())]];
    for _ in 1..cfg.ops.max(1) {
        let children: Vec<(Position, Vec<Op>)> = levels
            .last()
            .unwrap()
            .par_iter()
            .flat_map_iter(|(p, ops)| children(p, ops))
            .collect();
        let next: Vec<_> = children
            .into_iter()
            .filter(|(p, _)| seen.insert(p.clone()))
            .collect();
        levels.push(next);
    }
    let last = levels.len() - 1;
    let jobs: Vec<(usize, &Position, &Vec<Op>)> = levels
        .iter()
        .enumerate()
        .flat_map(|(l, v)| v.iter().map(move |(p, ops)| (l, p, ops)))
        .collect();
    let found: Vec<Vec<Mutant>> = jobs
        .par_iter()
        .map(|&(level, p, ops)| {
            let mut out = Vec::new();
            if level > 0 {
                try_position(p.clone(), ops.clone(), cfg.split_points, &mut out, progress);
            } else if cfg.split_points {
                splits(p, ops, &mut out, progress);
            }
            if level == last && cfg.ops > 0 {
                for (q, path) in children(p, ops) {
                    if !seen.contains(&q) {
                        try_position(q, path, cfg.split_points, &mut out, progress);
                    }
                }
            }
            out
        })
        .collect();
    let mut reported: HashSet<Position> = HashSet::new();
    let mut out: Vec<Mutant> = found
        .into_iter()
        .flatten()
        .filter(|m| m.position != *start && reported.insert(m.position.clone()))
        .collect();
    // Fewest operations first; the sort is stable, so the order stays thread-independent.
    out.sort_by_key(|m| m.ops.len());
    out
}

fn children<'a>(p: &'a Position, ops: &'a [Op]) -> impl Iterator<Item = (Position, Vec<Op>)> + 'a {
    position_ops(p).into_iter().map(move |op| {
        let mut path = ops.to_vec();
        path.push(op);
        (apply(p, op), path)
    })
}

/// Plays `p` (and its re-splits when asked), keeping those that never end.
fn try_position(
    p: Position,
    ops: Vec<Op>,
    split: bool,
    out: &mut Vec<Mutant>,
    progress: &(dyn Fn(u64) + Sync),
) {
    if split {
        let (q, path) = (p.clone(), ops.clone());
        play_into(p, ops, out, progress);
        splits(&q, &path, out, progress);
    } else {
        play_into(p, ops, out, progress);
    }
}

fn splits(p: &Position, ops: &[Op], out: &mut Vec<Mutant>, progress: &(dyn Fn(u64) + Sync)) {
    for at in 0..=p.total() {
        if at != p.hands[0].len() {
            let mut path = ops.to_vec();
            path.push(Op::Split { at });
            play_into(apply(p, Op::Split { at }), path, out, progress);
        }
    }
}

fn play_into(
    position: Position,
    ops: Vec<Op>,
    out: &mut Vec<Mutant>,
    progress: &(dyn Fn(u64) + Sync),
) {
    let outcome = crate::engine::play(&position);
    progress(1);
    if let Outcome::Cycle(cycle) = outcome {
        out.push(Mutant {
            position,
            ops,
            cycle,
        });
    }
}

/// How many games [`mutate`] will play, for a progress bar: an upper bound (duplicates are
/// removed before playing).
pub fn games_bound(start: &Position, cfg: &MutateConfig) -> u64 {
    let n = start.total() as u64;
    // Per level: (n + 2) places x 5 adds, n removes, 4n swaps; the size grows by one per add.
    let mut total = 0u64;
    let mut level = 1u64;
    for k in 0..cfg.ops as u64 {
        level = level.saturating_mul(5 * (n + k + 2) + 5 * (n + k));
        total = total.saturating_add(level);
    }
    if cfg.split_points {
        total = total
            .saturating_add(1)
            .saturating_mul(n + cfg.ops as u64 + 1);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::{ACE, NUMBER, QUEEN};

    /// What `mutate --json` prints for each kind of operation: places count from 1, hands too.
    #[test]
    fn an_op_prints_its_kind_hand_and_place() {
        let hand = |hand, op| Op::Hand { hand, op }.to_string();
        let add = SeqOp::Add { at: 4, card: QUEEN };
        assert_eq!(hand(0, add), "add Q at 1:5");
        assert_eq!(hand(1, SeqOp::Remove { at: 2 }), "remove 2:3");
        assert_eq!(hand(0, SeqOp::Swap { at: 3, card: ACE }), "swap 1:4 to A");
        let to_number = SeqOp::Swap {
            at: 0,
            card: NUMBER,
        };
        assert_eq!(hand(1, to_number), "swap 2:1 to -");
        assert_eq!(Op::Split { at: 20 }.to_string(), "split at 20");
    }
}
