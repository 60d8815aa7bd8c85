//! What a discovery reports: each stage's [`StageReport`], the answer ([`Discovery`]), and the
//! [`Observer`] that hears of the stages as they run.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::balance::BalancedCycle;

/// What one stage did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StageReport {
    pub name: String,
    /// Work done, in `unit`s (candidates, decks, families).
    pub work: u64,
    pub unit: String,
    /// Distinct cycles known after the stage, and how many have balanced deals.
    pub cycles: u64,
    pub balanced_cycles: u64,
    /// Cycles by reach (the most cards the smaller hand holds in the family), once known.
    pub reach_histogram: BTreeMap<u8, u64>,
    /// What the stage found, in words.
    pub summary: String,
    pub seconds: f64,
}

/// An accumulator shape and where it came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accumulator {
    pub shape: String,
    pub accumulation: u8,
    /// The first head and piece that gave it.
    pub head: String,
    pub piece: String,
}

/// A discovery's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Discovery {
    pub deck: String,
    pub scope: String,
    pub frame: String,
    pub filter: Option<String>,
    pub accumulation_threshold: u8,
    pub accumulators: Vec<Accumulator>,
    pub censuses: Vec<CensusSummary>,
    /// The fills around balance-making pieces (`shape` is the fill's template).
    pub fills: Vec<CensusSummary>,
    pub reach_histogram: BTreeMap<u8, u64>,
    pub balanced_cycles: Vec<BalancedCycle>,
    pub stages: Vec<StageReport>,
}

/// One census, without its cycles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CensusSummary {
    pub shape: String,
    pub decks: u64,
    pub non_terminating: u64,
    pub cycles: u64,
    pub skipped: Option<String>,
}

/// What a discovery tells its caller as it goes (progress bars at the edge).
pub trait Observer: Sync {
    /// A stage starts with `total` units of work.
    fn start(&self, stage: &str, total: u64, unit: &str);
    fn advance(&self, n: u64);
    fn finish(&self, report: &StageReport);
}

/// An observer that ignores everything.
pub struct Silent;

impl Observer for Silent {
    fn start(&self, _: &str, _: u64, _: &str) {}
    fn advance(&self, _: u64) {}
    fn finish(&self, _: &StageReport) {}
}
