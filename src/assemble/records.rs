//! What an assembly logs and hands on: finished units of decks, finished families and the time
//! spent (the checkpoint records and shard file records), the family of one cycle as the result
//! needs it, and the mirror image of a cycle.

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::candidates::Frame;
use super::{CycleHit, UnitDone};
use crate::backward::closure::Config as ClosureConfig;
use crate::backward::family::{Family, family, family_of_cycle, play_to_cycle};
use crate::card::Card;
pub use crate::library::checkpoint::Elapsed;
use crate::position::Position;

/// One checkpoint record: a finished unit of decks, a finished family, or the time a run has
/// spent so far.
///
/// Records are bincode, which knows variants by their index, so new kinds of record only ever go
/// at the end and old ones stay readable.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub enum Record {
    Unit(UnitDone),
    /// A family as logs and shard files written before the reach hold it: read, never written
    /// ([`Record::upgrade`] rebuilds it).
    FamilyWithoutReach(FamilyWithoutReach),
    Family(FamilyDone),
    /// Logged beside each finished unit and at the end of a run, so the time of a run resumed
    /// after `kill -9` still counts up to its last unit (files before it have none).
    Elapsed(Elapsed),
}

/// What a cycle's family contributes to the result.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct FamilyDone {
    pub cycle_key: u128,
    pub closure_size: u64,
    pub complete: bool,
    pub max_depth: u64,
    pub balanced: Vec<String>,
    /// [`crate::backward::family::Family::reach`]: how close to balance the family comes.
    pub reach: u8,
}

/// [`FamilyDone`] before the reach.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct FamilyWithoutReach {
    pub cycle_key: u128,
    pub closure_size: u64,
    pub complete: bool,
    pub max_depth: u64,
    pub balanced: Vec<String>,
}

impl Record {
    /// The record as this version writes it: a family without its reach is built again from its
    /// cycle key (positions of `cards` cards), with the limit that stops at the same batch when the
    /// old search was partial, so every count it had stays the same.
    pub fn upgrade(self, cards: usize, cfg: &ClosureConfig) -> Record {
        let Record::FamilyWithoutReach(old) = self else {
            return self;
        };
        let cfg = ClosureConfig {
            // A partial search stopped at the first batch that took it past the limit; any limit
            // in [that batch's start, its end) stops it there again, and its end less one is one.
            max_positions: if old.complete {
                cfg.max_positions.max(old.closure_size)
            } else {
                old.closure_size - 1
            },
            ..*cfg
        };
        let info = play_to_cycle(&Position::unpack(old.cycle_key, cards))
            .expect("a cycle key is a position of its cycle");
        Record::Family(FamilyDone::of(
            old.cycle_key,
            &family_of_cycle(info, &cfg, &|_| {}),
        ))
    }
}

/// [`Record::upgrade`] over a list of records, in parallel, keeping their order.
pub fn upgrade_all(records: Vec<Record>, cards: usize, cfg: &ClosureConfig) -> Vec<Record> {
    records
        .into_par_iter()
        .map(|r| r.upgrade(cards, cfg))
        .collect()
}

/// The family of one cycle, reached from a deck (player 1's hand) that plays into it. It depends
/// on the cycle alone, whichever deck reaches it.
pub fn family_done(key: u128, deck: &[Card], frame: &Frame, cfg: &ClosureConfig) -> FamilyDone {
    let pos = Position::new(deck.to_vec(), frame.other.clone(), frame.to_move);
    family_done_from(key, &pos, cfg)
}

/// The family of the cycle `key`, reached from the position `pos` that plays into it.
pub fn family_done_from(key: u128, pos: &Position, cfg: &ClosureConfig) -> FamilyDone {
    let fam = family(pos, cfg, &|_| {}).expect("the position was seen to cycle");
    FamilyDone::of(key, &fam)
}

impl FamilyDone {
    /// What `fam`, the family of the cycle `key`, contributes to the result.
    fn of(key: u128, fam: &Family) -> FamilyDone {
        FamilyDone {
            cycle_key: key,
            closure_size: fam.closure_size,
            complete: fam.complete,
            max_depth: fam.max_depth,
            balanced: fam.balanced.iter().map(|p| p.to_string()).collect(),
            reach: fam.reach,
        }
    }
}

/// The families of `cycles` (in their order) on the current rayon pool: those in `done` (from a
/// checkpoint) as they are, the others built and passed to `note` as they finish (the checkpoint).
/// `progress` is called once per family.
pub fn families_of(
    cycles: &[&CycleHit],
    done: &BTreeMap<u128, FamilyDone>,
    frame: &Frame,
    cfg: &ClosureConfig,
    note: &(dyn Fn(&Record) + Sync),
    progress: &(dyn Fn() + Sync),
) -> Vec<FamilyDone> {
    cycles
        .par_iter()
        .map(|hit| {
            let f = match done.get(&hit.cycle_key) {
                Some(f) => f.clone(),
                None => {
                    let f = family_done(hit.cycle_key, &hit.deck, frame, cfg);
                    note(&Record::Family(f.clone()));
                    f
                }
            };
            progress();
            f
        })
        .collect()
}

/// The cycle key of the mirror image (players exchanged) of each cycle in `keys` of `cards`-card
/// positions. The rules treat both players alike, so the mirror of a cycle position plays the
/// mirror game and reaches the mirror cycle; its key is that cycle's smallest position, which may
/// be the key of `keys` itself when a cycle is its own mirror image.
pub fn mirror_cycles(keys: &[u128], cards: usize) -> BTreeMap<u128, u128> {
    keys.par_iter()
        .filter_map(
            |&key| match crate::engine::play(&Position::unpack(key, cards).mirrored()) {
                crate::engine::Outcome::Cycle(c) => c.cycle_id.pack().map(|m| (key, m)),
                crate::engine::Outcome::Terminates { .. } => None,
            },
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::DeckSpec;
    use crate::notation::{Notation, parse_hand};

    fn without_reach(f: &FamilyDone) -> Record {
        Record::FamilyWithoutReach(FamilyWithoutReach {
            cycle_key: f.cycle_key,
            closure_size: f.closure_size,
            complete: f.complete,
            max_depth: f.max_depth,
            balanced: f.balanced.clone(),
        })
    }

    // Source: results/README.md: this deck reaches the 2024 paper's cycle (period 62, 30 balanced
    // deals, closure 2670 positions).
    #[test]
    fn upgrade_rebuilds_a_family_without_its_reach() {
        let deck = parse_hand(
            "--J--------K---------Q-Q-K---Q-KAQJ--------A-KAAJ-",
            Notation::Dash,
        )
        .unwrap();
        let frame = Frame::jack(DeckSpec::STANDARD);
        let pos = Position::new(deck.clone(), frame.other.clone(), frame.to_move);
        let crate::engine::Outcome::Cycle(info) = crate::engine::play(&pos) else {
            panic!("the deck cycles")
        };
        let key = info.cycle_id.pack().unwrap();
        let full = ClosureConfig::default();
        let done = family_done(key, &deck, &frame, &full);
        assert!(done.complete && done.reach == 26 && !done.balanced.is_empty());
        // A partial family (the limit stops it inside a batch) comes back exactly as it was, even
        // though the upgrade only knows the default limit.
        let small = ClosureConfig {
            max_positions: 1000,
            ..full
        };
        let partial = family_done(key, &deck, &frame, &small);
        assert!(!partial.complete && partial.closure_size < done.closure_size);
        for f in [done, partial] {
            match without_reach(&f).upgrade(52, &full) {
                Record::Family(up) => assert_eq!(up, f),
                _ => panic!("not upgraded"),
            }
        }
    }
}
