//! Stage 4, the census: every deck of the frame that holds an accumulator shape (its `X`s any
//! face kind, the rest of the deck in every arrangement before it: `assemble --require SHAPE
//! --rest all`), and for a frame of one piece (too few separators for a shape and a rest) every
//! deck of the frame at all. Each census gives the distinct cycles its decks reach.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::ansatz::enumerate::{Enumerator, Params};
use crate::assemble::rest::{parse_shape, test_before};
use crate::assemble::{CycleHit, Plan, UnitDone, merge};
use crate::card::KINDS;
use crate::engine::Outcome;

use super::frame::DeckFrame;

/// About how many units one census is cut into (threads take whole units).
pub(super) const UNITS: u64 = 1024;

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

/// A census ready to run in parts: around a shape (an `assemble` plan), every arrangement of a
/// template's TEST (every deck of a one-piece frame, or a fill: see [`super::fill`]), or a shape
/// that does not fit the deck.
pub enum Census {
    Around(Plan),
    Whole(Enumerator),
    Skipped(String),
}

/// The census of `shape` (`*`: every deck of the frame).
pub fn census(df: &DeckFrame, shape: &str) -> Census {
    if shape == "*" {
        return Census::Whole(whole_frame(df));
    }
    match parse_shape(shape)
        .and_then(|s| Plan::around(df.frame.clone(), df.k, s, UNITS).map_err(|e| e.to_string()))
    {
        Ok(p) => Census::Around(p),
        Err(e) => Census::Skipped(e),
    }
}

/// Unit `unit` of `units` falls in part `part` of `parts`: the units in contiguous blocks, so
/// that parts can run, be kept and be exchanged as steps.
fn in_part(unit: usize, units: usize, part: usize, parts: usize) -> bool {
    unit * parts / units.max(1) == part
}

impl Census {
    /// The decks it tests.
    pub fn decks(&self) -> u64 {
        match self {
            Census::Around(p) => p.total_decks(),
            Census::Whole(e) => e.total_candidates(),
            Census::Skipped(_) => 0,
        }
    }

    /// The census, or skipped when it has more decks than `limit` (a fill's limit is applied
    /// where it is planned, [`super::fill::plan`]).
    pub fn within(self, limit: Option<u64>) -> Census {
        match limit {
            Some(l) if self.decks() > l => Census::Skipped(format!(
                "{} decks, more than the census limit {l}",
                self.decks()
            )),
            _ => self,
        }
    }

    /// The decks of part `part` of `parts`.
    pub fn part_decks(&self, part: usize, parts: usize) -> u64 {
        match self {
            Census::Around(plan) => {
                let units = plan.units();
                (0..units)
                    .filter(|&u| in_part(u, units, part, parts))
                    .map(|u| plan.unit_decks[u])
                    .sum()
            }
            Census::Whole(e) => {
                let ranges = e.ranges();
                (0..ranges)
                    .filter(|&i| in_part(i, ranges, part, parts))
                    .map(|i| e.range_candidates(i))
                    .sum()
            }
            Census::Skipped(_) => 0,
        }
    }

    /// Runs part `part` of `parts`; `progress` gets the decks of each finished unit. The units are
    /// the plan's, or the enumeration's ranges for a whole frame.
    pub fn run_part(
        &self,
        part: usize,
        parts: usize,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Vec<UnitDone> {
        match self {
            Census::Around(plan) => {
                let units = plan.units();
                plan.run_some(
                    &[],
                    u64::MAX,
                    false,
                    &|u| in_part(u as usize, units, part, parts),
                    &|u| progress(u.decks),
                    &|| false,
                )
            }
            Census::Whole(e) => {
                let ranges = e.ranges();
                (0..ranges)
                    .filter(|&i| in_part(i, ranges, part, parts))
                    .collect::<Vec<_>>()
                    .into_par_iter()
                    .map(|i| {
                        let u = whole_range(e, i);
                        progress(u.decks);
                        u
                    })
                    .collect()
            }
            Census::Skipped(_) => Vec::new(),
        }
    }

    /// The census of `shape` from the units of all its parts (merged in unit order, so the first
    /// deck reaching each cycle is the same however the parts ran).
    pub fn finish(&self, shape: &str, units: &[UnitDone]) -> CensusDone {
        if let Census::Skipped(why) = self {
            return CensusDone {
                shape: shape.into(),
                decks: 0,
                non_terminating: 0,
                cycles: Vec::new(),
                skipped: Some(why.clone()),
            };
        }
        let m = merge(units);
        CensusDone {
            shape: shape.into(),
            decks: m.decks,
            non_terminating: m.non_terminating,
            cycles: m.cycles.into_values().collect(),
            skipped: None,
        }
    }
}

/// Every deck holding `shape` last (`*`: every deck of the frame), in one go; `progress` as in
/// [`Census::run_part`].
pub fn around(df: &DeckFrame, shape: &str, progress: &(dyn Fn(u64) + Sync)) -> CensusDone {
    let c = census(df, shape);
    c.finish(shape, &c.run_part(0, 1, progress))
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

/// Range `i` of an enumeration of whole decks (its template's TEST filled is a deck) as a unit:
/// its decks, those that never end, and the distinct cycles they reach (each with the first deck
/// reaching it, player 1's hand, and how many do).
fn whole_range(e: &Enumerator, i: usize) -> UnitDone {
    let mut u = UnitDone {
        index: i as u32,
        decks: e.range_candidates(i),
        non_terminating: 0,
        cycles: Vec::new(),
        non_terminating_decks: Vec::new(),
    };
    let mut cycles = std::collections::BTreeMap::<u128, CycleHit>::new();
    for test in e.run_range(i) {
        let pos = e.template().fill(&test);
        if let Outcome::Cycle(c) = crate::engine::play(&pos) {
            u.non_terminating += 1;
            let key = c.cycle_id.pack().expect("at most 52 cards");
            cycles
                .entry(key)
                .and_modify(|h| h.decks += 1)
                .or_insert(CycleHit {
                    cycle_key: key,
                    period: c.period,
                    deck: pos.hands[0].clone(),
                    decks: 1,
                });
        }
    }
    // The first deck of each cycle in enumeration order, as `merge` expects of a unit.
    let mut hits: Vec<CycleHit> = cycles.into_values().collect();
    hits.sort_by_key(|h| h.cycle_key);
    u.cycles = hits;
    u
}
