//! The split route's stage (the search is in [`split`]): the deck's positions by composition,
//! smallest compositions first within the scope's budget, in parts; the cycles they reach join
//! the list (`found_by: split`).

use crate::discover::balance::Found;
use crate::discover::error::DiscoverError;
use crate::discover::split::{self, PartDone, SplitScope};
use crate::discover::stage::{Context, Done, Log, add_new};
use crate::discover::steps;

/// How many parts (steps) the route is cut into.
pub const PARTS: usize = 16;

/// Plays the compositions the scope allows; their new cycles join `list`.
pub fn run(
    cx: &Context,
    log: &mut Log,
    scope: &SplitScope,
    list: &mut Vec<Found>,
) -> Result<(), DiscoverError> {
    log.stage("split", |start| {
        let (plan, listed) = split::plan(cx.config.deck, scope);
        let total = split::total(&plan);
        start(total, "positions");
        let names: Vec<String> = (0..PARTS).map(|p| format!("split-{p}")).collect();
        let obs = cx.obs;
        let parts: Vec<PartDone> = steps::run(
            cx.steps,
            &names,
            |p| Ok(split::run_part(&plan, p, PARTS, &|n| obs.advance(n))),
            &|p| {
                let (a, b) = split::part_span(&plan, p, PARTS);
                obs.advance(b - a)
            },
        )?;
        let (mut positions, mut never) = (0u64, 0u64);
        let mut finds = Vec::new();
        // Parts in order, so each cycle is credited to the first position that reaches it.
        for part in parts {
            positions += part.positions;
            never += part.non_terminating;
            finds.extend(part.hits);
        }
        let found: Vec<Found> = finds
            .iter()
            .map(|h| {
                let start = h.position();
                Found {
                    key: h.key,
                    period: h.period,
                    deck: start.to_string(),
                    start,
                    found_by: "split",
                    source: format!("split {}", plan[h.composition].label()),
                }
            })
            .collect();
        let distinct = {
            let mut k: Vec<u128> = finds.iter().map(|h| h.key).collect();
            k.sort_unstable();
            k.dedup();
            k.len()
        };
        let new = add_new(list, found);
        let last = plan.last().map_or("none".into(), |c| {
            format!("{} ({} positions)", c.label(), c.positions())
        });
        let summary = format!(
            "{} of {listed} compositions played (smallest first, {} positions in all at most; the last {}), {never} positions never end, {distinct} cycles, {new} new",
            plan.len(),
            scope.positions,
            last,
        );
        Ok(((), Done::new(positions, "positions", summary).cycles(list.len())))
    })
}
