//! What an assembly logs and hands on: finished units of decks and finished families (the
//! checkpoint records and shard file records), the family of one cycle as the result needs it, and
//! the mirror image of a cycle.

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::candidates::Frame;
use super::{CycleHit, UnitDone};
use crate::backward::closure::Config as ClosureConfig;
use crate::backward::family::family;
use crate::card::Card;
use crate::position::Position;

/// One checkpoint record: a finished unit of decks, or a finished family.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub enum Record {
    Unit(UnitDone),
    Family(FamilyDone),
}

/// What a cycle's family contributes to the result.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct FamilyDone {
    pub cycle_key: u128,
    pub closure_size: u64,
    pub complete: bool,
    pub max_depth: u64,
    pub balanced: Vec<String>,
}

/// The family of one cycle, reached from a deck (player 1's hand) that plays into it. It depends
/// on the cycle alone, whichever deck reaches it.
pub fn family_done(key: u128, deck: &[Card], frame: &Frame, cfg: &ClosureConfig) -> FamilyDone {
    let pos = Position::new(deck.to_vec(), frame.other.clone(), frame.to_move);
    let fam = family(&pos, cfg, &|_| {}).expect("the deck was seen to cycle");
    FamilyDone {
        cycle_key: key,
        closure_size: fam.closure_size,
        complete: fam.complete,
        max_depth: fam.max_depth,
        balanced: fam.balanced.iter().map(|p| p.to_string()).collect(),
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
