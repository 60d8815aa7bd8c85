//! The census stage: every deck of the frame around each shape (`*`: every deck of the frame),
//! each census in parts; the distinct cycles they reach join the list.

use std::collections::BTreeMap;

use crate::assemble::CycleHit;
use crate::discover::balance::Found;
use crate::discover::census::{self, CensusDone};
use crate::discover::error::DiscoverError;
use crate::discover::stage::{Context, Done, Log, add_new, run_plans};

/// The censuses of `shapes` (within `--census-limit`); their cycles are added to `list`, each
/// with the first census (in shape order) that reached it.
pub fn run(
    cx: &Context,
    log: &mut Log,
    shapes: &[String],
    list: &mut Vec<Found>,
) -> Result<Vec<CensusDone>, DiscoverError> {
    log.stage("census", |start| {
        let plans: Vec<census::Census> = shapes
            .iter()
            .map(|s| census::census(&cx.df, s).within(cx.config.census_limit))
            .collect();
        start(plans.iter().map(|p| p.decks()).sum(), "decks");
        let censuses = run_plans(cx, "census", &plans, shapes, true)?;
        // In cycle order, as the list has always held them (the families' steps follow it).
        let mut cycles: BTreeMap<u128, (CycleHit, String)> = BTreeMap::new();
        for c in &censuses {
            for h in &c.cycles {
                cycles
                    .entry(h.cycle_key)
                    .or_insert_with(|| (h.clone(), c.shape.clone()));
            }
        }
        let skipped = match censuses.iter().filter(|c| c.skipped.is_some()).count() {
            0 => String::new(),
            k => format!(" ({k} skipped)"),
        };
        let summary = format!(
            "{} censuses{skipped}, {} decks never end, {} distinct cycles",
            censuses.len(),
            censuses.iter().map(|c| c.non_terminating).sum::<u64>(),
            cycles.len()
        );
        let done = Done::new(censuses.iter().map(|c| c.decks).sum(), "decks", summary)
            .cycles(cycles.len());
        add_new(
            list,
            cycles
                .values()
                .map(|(hit, shape)| Found::census(&cx.df, hit, shape)),
        );
        Ok((censuses, done))
    })
}
