//! What an assembly logs and hands on: finished units of decks and finished families (the
//! checkpoint records and shard file records), and the family of one cycle as the result needs it.

use serde::{Deserialize, Serialize};

use super::UnitDone;
use super::candidates::Frame;
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
