//! `family` as a job array: the backward closure of a cycle split by its seeds (the cycle's
//! positions), and the merge of the parts into the single run's closure.
//!
//! The closure is a forest hanging off the cycle: forward play is a function, so every position
//! has one successor, and every position outside the cycle lies in the backward subtree of exactly
//! one cycle position (the one its game first meets). Shard `I/N` takes the seeds at indices `s`
//! (in play order from the cycle id) with `s % N == I`, counts those seeds and their subtrees, and
//! nothing else; the parts are disjoint and together make the whole closure. The merge adds sizes,
//! takes the deepest level over all parts (its smallest position in cycle-id order), and joins the
//! balanced positions (the family sorts them by string, so their order does not matter).
//! `max_positions` applies to each shard's part alone, so partial counts differ from a single
//! run's; complete closures merge into exactly the single run's.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::shard::Shard;
use crate::backward::closure::{self, Closure, Config, Node, Seed};
use crate::backward::compact::Compact;
use crate::backward::family::{
    Family, FamilyError, cycle_of, cycle_positions, cycle_seeds, family_from_closure,
};
use crate::card::Card;
use crate::position::Position;

/// Shard `shard`'s part of the family of `pos`: plays it to its cycle (checked as
/// [`crate::backward::family::family`] does) and takes the part of the closure the shard owns.
pub fn family_part(
    pos: &Position,
    shard: Shard,
    cfg: &Config,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Closure, FamilyError> {
    let info = cycle_of(pos, cfg)?;
    Ok(closure_part(
        &cycle_seeds(&cycle_positions(&info)),
        shard,
        cfg,
        progress,
    ))
}

/// The family of `pos` from the parts of every shard (the cycle is played again: it is cheap, and
/// the parts need not carry it); `seconds` is the closure search's time.
pub fn family_from_parts(
    pos: &Position,
    cfg: &Config,
    parts: Vec<Closure>,
    seconds: f64,
) -> Result<Family, FamilyError> {
    let info = cycle_of(pos, cfg)?;
    let whole = merge(parts);
    if whole.deepest.is_none() {
        return Err(FamilyError::EmptyClosure);
    }
    Ok(family_from_closure(info, whole, seconds))
}

/// The seeds shard `shard` owns: the seeds at indices `s` with `s % N == I`.
pub fn shard_seeds(seeds: &[Seed], shard: Shard) -> Vec<Seed> {
    seeds
        .iter()
        .enumerate()
        .filter(|(i, _)| shard.owns(*i as u64))
        .map(|(_, s)| *s)
        .collect()
}

/// The part of the closure of `seeds` (the seeds of one cycle, from
/// [`crate::backward::family::cycle_seeds`]) that `shard` owns: its seeds and their backward
/// subtrees.
pub fn closure_part(
    seeds: &[Seed],
    shard: Shard,
    cfg: &Config,
    progress: &(dyn Fn(u64) + Sync),
) -> Closure {
    closure::closure(&shard_seeds(seeds, shard), cfg, progress)
}

/// Joins the parts of one closure (all shards of it, in any order) into the whole closure.
pub fn merge(parts: impl IntoIterator<Item = Closure>) -> Closure {
    let mut out = Closure {
        size: 0,
        max_depth: 0,
        deepest: None,
        balanced: Vec::new(),
        reach: 0,
        complete: true,
        duplicates: 0,
    };
    for p in parts {
        out.size += p.size;
        out.reach = out.reach.max(p.reach);
        out.complete &= p.complete;
        out.duplicates += p.duplicates;
        out.balanced.extend(p.balanced);
        let Some(d) = p.deepest else { continue };
        // The deepest level of the whole closure is the union of the parts' levels at that depth.
        let deeper = p.max_depth > out.max_depth || out.deepest.is_none();
        if deeper {
            out.max_depth = p.max_depth;
            out.deepest = Some(d);
        } else if p.max_depth == out.max_depth && out.deepest.is_none_or(|o| d.pos < o.pos) {
            out.deepest = Some(d);
        }
    }
    out
}

/// A node in a shard file: both hands, the player to move, tricks and cards to the cycle.
type WireNode = (Vec<Card>, Vec<Card>, u8, u32, u32);

/// A closure part as a shard file stores it (positions of up to 64 cards, so not packed keys).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClosurePart {
    size: u64,
    max_depth: u32,
    deepest: Option<WireNode>,
    balanced: Vec<WireNode>,
    complete: bool,
    duplicates: u64,
    reach: u8,
}

impl ClosurePart {
    /// Positions in the part.
    pub fn size(&self) -> u64 {
        self.size
    }
    /// Balanced positions in the part.
    pub fn balanced_count(&self) -> usize {
        self.balanced.len()
    }
    /// False when `max_positions` stopped the part.
    pub fn complete(&self) -> bool {
        self.complete
    }
}

#[derive(Debug, Error, PartialEq, Eq)]
#[error("a closure part holds a position of more than 64 cards or an invalid player")]
pub struct BadPart;

fn to_wire(n: &Node) -> WireNode {
    let p = n.pos.to_position();
    let [h0, h1] = p.hands;
    (h0, h1, p.to_move, n.tricks, n.cards)
}

fn from_wire(w: &WireNode) -> Result<Node, BadPart> {
    if w.2 > 1 || w.0.iter().chain(&w.1).any(|&c| c > 4) {
        return Err(BadPart);
    }
    Ok(Node {
        pos: Compact::from_hands(&w.0, &w.1, w.2).ok_or(BadPart)?,
        tricks: w.3,
        cards: w.4,
    })
}

impl From<&Closure> for ClosurePart {
    fn from(c: &Closure) -> ClosurePart {
        ClosurePart {
            size: c.size,
            max_depth: c.max_depth,
            deepest: c.deepest.as_ref().map(to_wire),
            balanced: c.balanced.iter().map(to_wire).collect(),
            complete: c.complete,
            duplicates: c.duplicates,
            reach: c.reach,
        }
    }
}

impl TryFrom<&ClosurePart> for Closure {
    type Error = BadPart;
    fn try_from(p: &ClosurePart) -> Result<Closure, BadPart> {
        Ok(Closure {
            size: p.size,
            max_depth: p.max_depth,
            deepest: p.deepest.as_ref().map(from_wire).transpose()?,
            balanced: p.balanced.iter().map(from_wire).collect::<Result<_, _>>()?,
            complete: p.complete,
            duplicates: p.duplicates,
            reach: p.reach,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backward::family::{cycle_positions, cycle_seeds};
    use crate::engine::Outcome;
    use proptest::prelude::*;

    fn sorted(c: &Closure) -> Vec<Compact> {
        let mut v: Vec<Compact> = c.balanced.iter().map(|n| n.pos).collect();
        v.sort();
        v
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        // Random small deals that cycle: the shards' parts (N from 1 to beyond the period),
        // through their file form and merged in any order, give the single closure.
        #[test]
        fn shards_merge_into_the_single_closure(seed in 0u64..1_000_000, n in 1u32..9, rev: bool) {
            let deck: crate::card::DeckSpec = "8-2J2Q2K2A".parse().unwrap();
            let info = (0..1_000_000u64)
                .find_map(|i| match crate::engine::play(&crate::deal::random_deal(&deck, seed, i)) {
                    Outcome::Cycle(info) => Some(info),
                    _ => None,
                });
            // Cycles are rare but not that rare: every seed finds one well within the bound.
            let info = info.expect("a cycle among a million deals");
            let seeds = cycle_seeds(&cycle_positions(&info));
            let cfg = Config::default();
            let single = closure::closure(&seeds, &cfg, &|_| {});
            let mut parts: Vec<Closure> = (0..n)
                .map(|i| {
                    let part = closure_part(&seeds, Shard { index: i, count: n }, &cfg, &|_| {});
                    Closure::try_from(&ClosurePart::from(&part)).unwrap()
                })
                .collect();
            if rev {
                parts.reverse();
            }
            let merged = merge(parts);
            prop_assert_eq!(merged.size, single.size);
            prop_assert_eq!(merged.max_depth, single.max_depth);
            prop_assert_eq!(merged.reach, single.reach);
            prop_assert_eq!(merged.deepest, single.deepest);
            prop_assert!(merged.complete);
            prop_assert_eq!(sorted(&merged), sorted(&single));
        }
    }

    #[test]
    fn damaged_parts_are_refused() {
        let bad = ClosurePart {
            size: 1,
            max_depth: 0,
            deepest: Some((vec![7], vec![0], 0, 0, 0)),
            balanced: Vec::new(),
            complete: true,
            duplicates: 0,
            reach: 0,
        };
        assert_eq!(Closure::try_from(&bad).unwrap_err(), BadPart);
    }
}
