//! Stage 5, balance: the family of every cycle the censuses found, by backward play; the cycles
//! whose families hold balanced deals, one per pair of mirror images; every balanced deal replayed
//! with the reference engine before it is reported.

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::assemble::CycleHit;
use crate::assemble::records::{FamilyDone, family_done_from, mirror_cycles};
use crate::backward::closure::Config as ClosureConfig;
use crate::card::DeckSpec;
use crate::engine::Outcome;
use crate::notation::Notation;
use crate::position::Position;

use super::error::DiscoverError;
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
    /// Which route found it first (`ansatz`, `frames`, `insertion`), or `deck` when every deal
    /// of the deck was played.
    pub found_by: String,
    /// The census that first reached it (a shape, or `*` for every deck of the frame), the frame
    /// of the sweep, `insertion`, or `whole deck`.
    pub census: String,
    /// What reaches it: a deck of that census (player 1's hand; player 2 holds the frame's), or
    /// the position the insertion grew.
    pub deck: String,
}

/// A cycle found by a route, with what the report says of where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub key: u128,
    pub period: u64,
    /// A position whose game reaches the cycle (where its family is taken from).
    pub start: Position,
    /// `ansatz`, `frames`, `insertion`, or `deck` (every deal played).
    pub found_by: &'static str,
    /// The census that first reached it (a shape, `*` for every deck of the frame), the sweep's
    /// frame, `insertion`, or `whole deck`.
    pub source: String,
    /// What reached it: player 1's hand in the frame, or the position the insertion grew.
    pub deck: String,
}

impl Found {
    /// A cycle met by a census of the ansatz route: `hit.deck` is player 1's hand in the frame.
    pub fn census(df: &DeckFrame, hit: &CycleHit, shape: &str) -> Found {
        Found {
            key: hit.cycle_key,
            period: hit.period,
            start: Position::new(hit.deck.clone(), df.frame.other.clone(), df.frame.to_move),
            found_by: "ansatz",
            source: shape.to_string(),
            deck: crate::notation::Dash(&hit.deck).to_string(),
        }
    }
}

/// Families of `found` on the current pool; `progress` once per family.
pub fn families(
    found: &[Found],
    cfg: &ClosureConfig,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<FamilyDone> {
    found
        .par_iter()
        .map(|f| {
            let fam = family_done_from(f.key, &f.start, cfg);
            progress(1);
            fam
        })
        .collect()
}

/// The balanced cycles, one per mirror pair (the one with the smaller key when both were met, and
/// the first route's record of it), each deal replayed with the reference engine.
pub fn balanced(
    deck: DeckSpec,
    found: &[Found],
    fams: &[FamilyDone],
) -> Result<Vec<BalancedCycle>, DiscoverError> {
    let cards = deck.total();
    let mut keys: Vec<u128> = fams
        .iter()
        .filter(|f| !f.balanced.is_empty())
        .map(|f| f.cycle_key)
        .collect();
    keys.sort_unstable();
    keys.dedup();
    let mirrors = mirror_cycles(&keys, cards);
    // The route that met a cycle first (routes run in order): a pair is credited to the route that
    // met either of its two cycles first.
    let mut first: BTreeMap<u128, usize> = BTreeMap::new();
    for (i, f) in found.iter().enumerate() {
        first.entry(f.key).or_insert(i);
    }
    let mut out: BTreeMap<u128, BalancedCycle> = BTreeMap::new();
    for (f, fam) in found.iter().zip(fams) {
        if fam.balanced.is_empty() || out.contains_key(&f.key) {
            continue;
        }
        let key = f.key;
        let mirror = *mirrors.get(&key).ok_or(DiscoverError::Replay(format!(
            "the mirror image of cycle {} does not cycle",
            Position::unpack(key, cards)
        )))?;
        if mirror < key && keys.binary_search(&mirror).is_ok() {
            continue;
        }
        for deal in &fam.balanced {
            replay(deal, key, deck)?;
        }
        let credited = first
            .get(&mirror)
            .map_or(f, |&i| &found[i.min(first[&key])]);
        out.insert(
            key,
            BalancedCycle {
                cycle_id: Position::unpack(key, cards).to_string(),
                mirror_cycle_id: Position::unpack(mirror, cards).to_string(),
                period: f.period,
                closure_size: fam.closure_size,
                reach: fam.reach,
                balanced: fam.balanced.clone(),
                found_by: credited.found_by.into(),
                census: credited.source.clone(),
                deck: credited.deck.clone(),
            },
        );
    }
    Ok(out.into_values().collect())
}

/// Checks one balanced deal with the reference engine: the deck, half the cards each, never ends,
/// reaches the cycle `key`.
fn replay(deal: &str, key: u128, deck: DeckSpec) -> Result<(), DiscoverError> {
    let bad = |why: &str| DiscoverError::Replay(format!("{deal}: {why}"));
    let pos = Position::parse(deal, Notation::Dash).map_err(|e| bad(&e.to_string()))?;
    if pos.deck() != deck || !pos.is_balanced() {
        return Err(bad("not a balanced deal of the deck"));
    }
    match crate::engine::reference::play(&pos) {
        Outcome::Cycle(c) if c.cycle_id.pack() == Some(key) => Ok(()),
        Outcome::Cycle(_) => Err(bad("reaches another cycle")),
        Outcome::Terminates { .. } => Err(bad("ends")),
    }
}
