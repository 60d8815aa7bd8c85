//! The frame sweep (with the ansatz route): other frames of the deck, each searched whole, in the
//! order of [`frame::sweep_rank`] and then smallest first, within the scope's limits
//! ([`frame::sweep`]).

use crate::card::DeckSpec;
use crate::discover::balance::Found;
use crate::discover::census;
use crate::discover::error::DiscoverError;
use crate::discover::frame::{self, DeckFrame, whole_frame_decks};
use crate::discover::scope::Scope;
use crate::discover::stage::{Context, Done, Log, add_new, run_plans};

/// The frames the sweep runs, in order, each with its decks and name; and how many it listed
/// (those of at most `frame_sweep_limit` decks) before the budget of `frame_sweep` decks.
pub fn plan(deck: DeckSpec, scope: &Scope) -> (Vec<(u64, String, DeckFrame)>, usize) {
    let mut frames: Vec<(u64, String, DeckFrame)> = frame::sweep(deck)
        .into_iter()
        .map(|d| (whole_frame_decks(&d), d.display(), d))
        .filter(|(n, _, _)| *n > 0 && *n <= scope.frame_sweep_limit)
        .collect();
    frames.sort_by_cached_key(|(n, label, d)| (frame::sweep_rank(d), *n, label.clone()));
    let (mut sum, listed) = (0u64, frames.len());
    frames.retain(|(n, _, _)| {
        sum += n;
        sum <= scope.frame_sweep
    });
    (frames, listed)
}

/// Searches the swept frames whole; their new cycles join `list` (`found_by: frames`).
pub fn run(cx: &Context, log: &mut Log, list: &mut Vec<Found>) -> Result<(), DiscoverError> {
    let scope = &cx.config.scope;
    log.stage("frames", |start| {
        let (frames, listed) = plan(cx.config.deck, scope);
        let plans: Vec<census::Census> = frames
            .iter()
            .map(|(_, _, d)| census::census(d, "*"))
            .collect();
        let labels: Vec<String> = frames.iter().map(|(_, l, _)| l.clone()).collect();
        start(plans.iter().map(|p| p.decks()).sum(), "decks");
        let done = run_plans(cx, "frames", &plans, &labels, false)?;
        let never: u64 = done.iter().map(|c| c.non_terminating).sum();
        let finds = frames.iter().zip(&done).flat_map(|((_, label, d), c)| {
            c.cycles.iter().map(move |h| Found {
                found_by: "frames",
                ..Found::census(d, h, label)
            })
        });
        let new = add_new(list, finds);
        let summary = format!(
            "{} other frames searched whole ({} of at most {} decks each, {} in all at most), {never} decks never end, {new} new cycles",
            done.len(),
            listed,
            scope.frame_sweep_limit,
            scope.frame_sweep
        );
        let work = done.iter().map(|c| c.decks).sum();
        Ok(((), Done::new(work, "decks", summary).cycles(list.len())))
    })
}
