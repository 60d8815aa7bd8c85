//! The whole-deck stage: a deck with few enough deals is played deal by deal by the exhaustive
//! search, so every cycle a deal of its own split reaches is known exactly and the routes have
//! nothing to add. An odd deck has two splits, the extra card with either player (Table 1's two
//! rows of it), and both are played. The work is the search's prefix-sharing tasks, dealt
//! round-robin into [`PARTS`] steps so that a discovery checkpoints and shares it out as it does
//! a census.

use rayon::prelude::*;

use super::balance::Found;
use crate::card::DeckSpec;
use crate::notation::Notation;
use crate::position::Position;
use crate::search::exhaustive::{
    ExhaustiveStats, Extra, MAX_CARDS, Options, Plan, TaskScratch, deal_count,
};

/// How many steps the deck's deals are cut into.
pub const PARTS: usize = 16;

/// How many tasks the search is cut into (more than the parts, so that each part's tasks share
/// the threads evenly).
const TASKS: u64 = 4096;

/// The splits of `deck`'s deals: an even deck's one, and an odd deck's two (the extra card with
/// player 1, then with player 2), each a row of Table 1.
pub fn splits(deck: &DeckSpec) -> &'static [Extra] {
    if deck.total() % 2 == 1 {
        &[Extra::First, Extra::Second]
    } else {
        &[Extra::First]
    }
}

/// The deals of `deck`, of every split ([`splits`]), when it is small enough to be played whole
/// within `limit` deals (and the exhaustive search takes it); `None` otherwise or when `limit`
/// is 0.
pub fn deals_within(deck: &DeckSpec, limit: u64) -> Option<u64> {
    if limit == 0 || deck.total() > MAX_CARDS || deck.total() < 2 {
        return None;
    }
    let one = u64::try_from(deal_count(deck)?).ok()?;
    let n = one.checked_mul(splits(deck).len() as u64)?;
    (n <= limit).then_some(n)
}

/// The search of every deal of `deck` (`deals` of them), one plan per split, each cut into
/// tasks.
pub fn plan(deck: &DeckSpec, deals: u64) -> Vec<Plan> {
    splits(deck)
        .iter()
        .map(|&extra| split_plan(deck, deals, extra))
        .collect()
}

/// The search of the deals of `deck` with the extra card, if any, to `extra`, cut into tasks of
/// at most a `TASKS`-th of `deals`.
fn split_plan(deck: &DeckSpec, deals: u64, extra: Extra) -> Plan {
    Plan::new(deck, Options::new((deals / TASKS).max(1)).extra(extra))
}

/// Part `p` of `parts` of each split's plan: the tasks `p`, `p + parts`, ... (the planning
/// phase's counts go with part 0), merged in split and task order so the answer does not depend
/// on the threads. `progress` gets each task's deals.
pub fn run_part(
    plans: &[Plan],
    p: usize,
    parts: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> ExhaustiveStats {
    let mut stats = ExhaustiveStats::new(2);
    for plan in plans {
        let mine: Vec<usize> = (p..plan.tasks()).step_by(parts).collect();
        let done: Vec<ExhaustiveStats> = mine
            .par_iter()
            .map_init(TaskScratch::default, |scratch, &i| {
                let s = plan.run_task_in(i, scratch);
                progress(s.deals);
                s
            })
            .collect();
        if p == 0 {
            progress(plan.head.deals);
            stats.merge(plan.head.clone());
        }
        for s in done {
            stats.merge(s);
        }
    }
    stats
}

/// Every deal of `deck` with the extra card, if any, to player 1 (at most `u64::MAX` deals), all
/// parts here: the totals of the search (the insertion route's seeds).
pub fn play(deck: &DeckSpec) -> ExhaustiveStats {
    let deals = u64::try_from(deal_count(deck).expect("a deck the exhaustive search takes"))
        .expect("at most u64::MAX deals");
    // Player 1's split alone: the seeds are what they were for odd decks.
    let plans = [split_plan(deck, deals, Extra::First)];
    let mut stats = ExhaustiveStats::new(2);
    for p in 0..PARTS {
        stats.merge(run_part(&plans, p, PARTS, &|_| {}));
    }
    stats
}

/// About the deals of one part, for the progress of a part run elsewhere: the tasks' deals are
/// the search's own business, and an even share is near enough for a bar.
pub fn part_deals(p: usize, parts: usize, deals: u64) -> u64 {
    deals / parts as u64 + u64::from((p as u64) < deals % parts as u64)
}

/// Every cycle the search met, in cycle-id order: the cycle's own position reaches it.
pub fn found(stats: &ExhaustiveStats) -> Vec<Found> {
    stats
        .distinct_cycles
        .iter()
        .filter_map(|(id, class)| {
            let pos = Position::parse(id, Notation::Dash)
                .expect("the exhaustive search writes cycle ids it can read");
            let key = pos.pack()?;
            Some(Found {
                key,
                period: class.period,
                deck: id.clone(),
                start: pos,
                found_by: "deck",
                source: "whole deck".into(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cut into parts or not, the search counts the same deals and cycles as the single run.
    #[test]
    fn the_parts_add_up_to_the_whole_search() {
        let deck: DeckSpec = "6-2J2Q2K2A".parse().unwrap();
        let deals = deals_within(&deck, u64::MAX).unwrap();
        let p = plan(&deck, deals);
        assert_eq!(p.len(), 1, "an even deck has one split");
        assert!(p[0].tasks() > PARTS, "enough tasks to share out");
        let mut all = ExhaustiveStats::new(2);
        for part in 0..PARTS {
            all.merge(run_part(&p, part, PARTS, &|_| {}));
        }
        let whole = crate::search::exhaustive::prefix_sharing(&deck);
        assert_eq!(all, whole);
        assert_eq!(all.deals, deals);
        // Table 1 (results/census/table1.jsonl): 36 cycles of 6-2J2Q2K2A.
        assert_eq!(found(&all).len(), 36);
    }

    /// An odd deck is played in both its splits: Table 1's two rows of 2J2Q2K + 7
    /// (results/census/table1.jsonl: 84 deals that never end with the extra card to player 1, 108
    /// with it to player 2, the same 6 distinct cycles in both; 13!/(7! 2! 2! 2!) = 154,440 deals a row).
    #[test]
    fn an_odd_deck_is_played_in_both_splits() {
        let deck: DeckSpec = "7-2J2Q2K".parse().unwrap();
        let deals = deals_within(&deck, u64::MAX).unwrap();
        assert_eq!(deals, 2 * 154_440);
        let p = plan(&deck, deals);
        let mut all = ExhaustiveStats::new(2);
        for part in 0..PARTS {
            all.merge(run_part(&p, part, PARTS, &|_| {}));
        }
        assert_eq!((all.deals, all.cycles), (deals, 84 + 108));
        let first = play(&deck);
        assert_eq!(
            (first.deals, first.cycles),
            (154_440, 84),
            "play: player 1's split"
        );
        assert_eq!((found(&all).len(), found(&first).len()), (6, 6));
    }

    #[test]
    fn only_decks_within_the_limit_are_played_whole() {
        let small: DeckSpec = "6-2J2Q2K2A".parse().unwrap();
        let n = deals_within(&small, u64::MAX).unwrap();
        assert_eq!(deals_within(&small, n), Some(n));
        assert_eq!(deals_within(&small, n - 1), None);
        assert_eq!(deals_within(&small, 0), None);
        assert_eq!(deals_within(&DeckSpec::STANDARD, u64::MAX), None);
    }
}
