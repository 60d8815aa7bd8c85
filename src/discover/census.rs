//! Stage 4, the census: every deck of the frame that holds an accumulator shape (its `X`s any
//! face kind, the rest of the deck in every arrangement before it: `assemble --require SHAPE
//! --rest all`), and for a frame of one piece (too few separators for a shape and a rest) every
//! deck of the frame at all. Each census gives the distinct cycles its decks reach.

use serde::{Deserialize, Serialize};

use crate::ansatz::enumerate::{Enumerator, Params};
use crate::assemble::rest::{parse_shape, test_before};
use crate::assemble::{CycleHit, Plan, merge};
use crate::card::KINDS;
use crate::engine::Outcome;
use crate::position::Position;

use super::frame::DeckFrame;

/// About how many units one census is cut into (threads take whole units).
const UNITS: u64 = 1024;

/// What one census found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CensusDone {
    /// The shape (`X` any face), or `*` for every deck of the frame.
    pub shape: String,
    pub decks: u64,
    pub non_terminating: u64,
    /// Distinct cycles, by key; each keeps the first deck (in enumeration order) reaching it.
    pub cycles: Vec<CycleHit>,
    /// Why the shape was not searched (it does not fit the deck), if so.
    pub skipped: Option<String>,
}

/// How many decks the census of `shape` tests (0 when the shape does not fit).
pub fn size(df: &DeckFrame, shape: &str) -> u64 {
    plan(df, shape).map_or(0, |p| p.total_decks())
}

fn plan(df: &DeckFrame, shape: &str) -> Result<Plan, String> {
    let s = parse_shape(shape)?;
    Plan::around(df.frame.clone(), df.k, s, UNITS).map_err(|e| e.to_string())
}

/// Every deck holding `shape` last; `progress` gets the decks of each finished unit.
pub fn around(df: &DeckFrame, shape: &str, progress: &(dyn Fn(u64) + Sync)) -> CensusDone {
    let plan = match plan(df, shape) {
        Ok(p) => p,
        Err(e) => {
            return CensusDone {
                shape: shape.into(),
                decks: 0,
                non_terminating: 0,
                cycles: Vec::new(),
                skipped: Some(e),
            };
        }
    };
    let units = plan.run(&[], u64::MAX, false, &|u| progress(u.decks), &|| false);
    let m = merge(&units);
    CensusDone {
        shape: shape.into(),
        decks: m.decks,
        non_terminating: m.non_terminating,
        cycles: m.cycles.into_values().collect(),
        skipped: None,
    }
}

/// The enumeration of every deck of a one-piece frame: TEST is player 1's whole hand before the
/// separator.
fn whole_frame(df: &DeckFrame) -> Enumerator {
    let f = &df.frame;
    let mut after = vec![f.separator];
    after.extend_from_slice(&f.tail);
    let mut counts = [0u8; KINDS];
    let budget = f.budget(df.k).expect("derive checked the frame fits");
    for (kind, slot) in counts.iter_mut().enumerate() {
        *slot = budget[kind] as u8;
    }
    // The separators of the pieces before the last (none with one piece).
    counts[f.separator as usize] += (df.k - 1) as u8;
    let params = Params::fill(counts);
    let template = test_before("whole", f, after, &params);
    Enumerator::new(&template, &params, UNITS).expect("a deck of at most 52 cards fits")
}

/// How many decks [`every_deck`] tests.
pub fn every_deck_size(df: &DeckFrame) -> u64 {
    whole_frame(df).total_candidates()
}

/// Every deck of the frame (for frames of one piece); `progress` as in [`around`].
pub fn every_deck(df: &DeckFrame, progress: &(dyn Fn(u64) + Sync)) -> CensusDone {
    use rayon::prelude::*;
    let e = whole_frame(df);
    let f = &df.frame;
    let per_range: Vec<Vec<CycleHit>> = (0..e.ranges())
        .into_par_iter()
        .map(|i| {
            let mut hits: Vec<CycleHit> = Vec::new();
            for test in e.run_range(i) {
                let mut hand = test;
                hand.push(f.separator);
                hand.extend_from_slice(&f.tail);
                let pos = Position::new(hand.clone(), f.other.clone(), f.to_move);
                if let Outcome::Cycle(c) = crate::engine::play(&pos) {
                    hits.push(CycleHit {
                        cycle_key: c.cycle_id.pack().expect("at most 52 cards"),
                        period: c.period,
                        deck: hand,
                        decks: 1,
                    });
                }
            }
            progress(e.range_candidates(i));
            hits
        })
        .collect();
    let mut cycles = std::collections::BTreeMap::<u128, CycleHit>::new();
    let mut non_terminating = 0;
    for h in per_range.into_iter().flatten() {
        non_terminating += 1;
        cycles
            .entry(h.cycle_key)
            .and_modify(|c| c.decks += 1)
            .or_insert(h);
    }
    CensusDone {
        shape: "*".into(),
        decks: e.total_candidates(),
        non_terminating,
        cycles: cycles.into_values().collect(),
        skipped: None,
    }
}
