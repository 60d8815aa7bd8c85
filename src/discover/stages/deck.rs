//! The deck stage: a deck of few enough deals is played whole ([`whole`]), so every cycle is
//! known and the routes are not taken.

use crate::discover::balance::Found;
use crate::discover::error::DiscoverError;
use crate::discover::stage::{Context, Done, Log};
use crate::discover::steps;
use crate::discover::whole;
use crate::search::exhaustive::ExhaustiveStats;

/// Plays every one of the deck's `deals` in [`whole::PARTS`] steps; the distinct cycles.
pub fn run(cx: &Context, log: &mut Log, deals: u64) -> Result<Vec<Found>, DiscoverError> {
    log.stage("deck", |start| {
        start(deals, "deals");
        let plans = whole::plan(&cx.config.deck, deals);
        let (obs, gate) = (cx.obs, &cx.gate);
        let names: Vec<String> = (0..whole::PARTS).map(|p| format!("deck-{p}")).collect();
        let parts: Vec<ExhaustiveStats> = steps::run(
            cx.steps,
            &names,
            |p| {
                gate.pass()?;
                Ok(whole::run_part(&plans, p, whole::PARTS, &|d| obs.advance(d)))
            },
            &|p| obs.advance(whole::part_deals(p, whole::PARTS, deals)),
        )?;
        let mut stats = ExhaustiveStats::new(2);
        for p in parts {
            stats.merge(p);
        }
        let list = whole::found(&stats);
        let summary = format!(
            "every deal played (at most {} deals are played whole): {} never end, {} distinct cycles; the routes are not needed",
            cx.config.scope.whole_deck_limit,
            stats.cycles,
            list.len()
        );
        let done = Done::new(stats.deals, "deals", summary).cycles(list.len());
        Ok((list, done))
    })
}
