//! Stage 5, balance: the family of every cycle the censuses found, by backward play; the cycles
//! whose families hold balanced deals, one per pair of mirror images; every balanced deal replayed
//! with the reference engine before it is reported.

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::assemble::CycleHit;
use crate::assemble::records::{FamilyDone, family_done, mirror_cycles};
use crate::backward::closure::Config as ClosureConfig;
use crate::engine::Outcome;
use crate::notation::Notation;
use crate::position::Position;

use super::DiscoverError;
use super::frame::DeckFrame;

/// A balanced cycle as `discover` reports it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BalancedCycle {
    /// The cycle's smallest position (as in `assemble`).
    pub cycle_id: String,
    /// The cycle of the mirror image (players exchanged); may equal `cycle_id`.
    pub mirror_cycle_id: String,
    pub period: u64,
    pub closure_size: u64,
    pub reach: u8,
    /// Every balanced deal of the family, sorted.
    pub balanced: Vec<String>,
    /// Which route found it (`ansatz`).
    pub found_by: String,
    /// The census that first reached it (a shape, or `*` for every deck of the frame).
    pub census: String,
    /// A deck of that census that reaches it (player 1's hand; player 2 holds the frame's).
    pub deck: String,
}

/// Families of `cycles` (sorted by key) on the current pool; `progress` once per family.
pub fn families(
    df: &DeckFrame,
    cycles: &[CycleHit],
    cfg: &ClosureConfig,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<FamilyDone> {
    cycles
        .par_iter()
        .map(|h| {
            let f = family_done(h.cycle_key, &h.deck, &df.frame, cfg);
            progress(1);
            f
        })
        .collect()
}

/// The balanced cycles, one per mirror pair (the one with the smaller key when both were met),
/// each deal replayed with the reference engine.
pub fn balanced(
    df: &DeckFrame,
    cycles: &[(CycleHit, String)],
    fams: &[FamilyDone],
) -> Result<Vec<BalancedCycle>, DiscoverError> {
    let cards = df.deck.total();
    let keys: Vec<u128> = fams
        .iter()
        .filter(|f| !f.balanced.is_empty())
        .map(|f| f.cycle_key)
        .collect();
    let mirrors = mirror_cycles(&keys, cards);
    let mut out: BTreeMap<u128, BalancedCycle> = BTreeMap::new();
    for ((hit, census), fam) in cycles.iter().zip(fams) {
        if fam.balanced.is_empty() {
            continue;
        }
        let key = hit.cycle_key;
        let mirror = *mirrors.get(&key).ok_or(DiscoverError::Replay(format!(
            "the mirror image of cycle {} does not cycle",
            Position::unpack(key, cards)
        )))?;
        if mirror < key && keys.binary_search(&mirror).is_ok() {
            continue;
        }
        for deal in &fam.balanced {
            replay(deal, key, df)?;
        }
        out.insert(
            key,
            BalancedCycle {
                cycle_id: Position::unpack(key, cards).to_string(),
                mirror_cycle_id: Position::unpack(mirror, cards).to_string(),
                period: hit.period,
                closure_size: fam.closure_size,
                reach: fam.reach,
                balanced: fam.balanced.clone(),
                found_by: "ansatz".into(),
                census: census.clone(),
                deck: crate::notation::Dash(&hit.deck).to_string(),
            },
        );
    }
    Ok(out.into_values().collect())
}

/// Checks one balanced deal with the reference engine: the deck, half the cards each, never ends,
/// reaches the cycle `key`.
fn replay(deal: &str, key: u128, df: &DeckFrame) -> Result<(), DiscoverError> {
    let bad = |why: &str| DiscoverError::Replay(format!("{deal}: {why}"));
    let pos = Position::parse(deal, Notation::Dash).map_err(|e| bad(&e.to_string()))?;
    if pos.deck() != df.deck || !pos.is_balanced() {
        return Err(bad("not a balanced deal of the deck"));
    }
    match crate::engine::reference::play(&pos) {
        Outcome::Cycle(c) if c.cycle_id.pack() == Some(key) => Ok(()),
        Outcome::Cycle(_) => Err(bad("reaches another cycle")),
        Outcome::Terminates { .. } => Err(bad("ends")),
    }
}
