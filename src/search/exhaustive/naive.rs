//! The checker: every deal played by itself, in rank order (rank/unrank and the cycle engine);
//! the tree walk is held to it.

use std::ops::Range;

use super::super::multiset::{multinomial, next_arrangement, unrank};
use super::stats::{ExhaustiveStats, Extra, Longest};
use crate::card::{Card, DeckSpec};
use crate::engine::Outcome;
use crate::engine::cycle::play_state;
use crate::engine::game::Game;
use crate::engine::multi::{self, MultiOutcome};

/// Every distinct deal of `deck` for `players` players, or `None` past `u128`.
pub fn deal_count(deck: &DeckSpec) -> Option<u128> {
    multinomial(&deck.counts)
}

/// Plays one deal (cards in deal order) and adds it to `stats`: the shared per-deal path of
/// [`naive`] for any number of players.
pub fn play_deal(
    cards: &[Card],
    players: usize,
    extra: Extra,
    stats: &mut ExhaustiveStats,
    scratch: &mut multi::Scratch,
) {
    let (winner, tricks, played) = if players == 2 && cards.len() <= 64 {
        let h1 = extra.first_hand(cards.len());
        match play_state(&Game::<u64>::from_hands(&cards[..h1], &cards[h1..], 0)) {
            Outcome::Terminates {
                winner,
                tricks,
                cards,
            } => (winner, tricks, cards),
            Outcome::Cycle(c) => {
                stats.add_cycle(c.cycle_id.to_string(), c.period, 1);
                return;
            }
        }
    } else {
        match multi::play(&extra.position(cards, players), scratch) {
            MultiOutcome::Terminates {
                winner,
                tricks,
                cards,
            } => (winner, tricks, cards),
            MultiOutcome::Cycle {
                period, cycle_id, ..
            } => {
                stats.add_cycle(cycle_id.to_string(), period, 1);
                return;
            }
        }
    };
    stats.deals += 1;
    stats.wins[winner as usize] += 1;
    // Its own test, not `may_be_longest`: the checker must not share the search's shortcut
    // (a shortcut that never offered a game would leave both without a longest, and agree).
    let longer = |b: &Longest| (played, tricks) >= (b.cards, b.tricks);
    if stats.longest.as_ref().is_none_or(longer) {
        stats.offer_longest(Longest {
            deal: cards.to_vec(),
            cards: played,
            tricks,
        });
    }
}

/// The checker: plays every deal of rank in `ranks` one by one.
pub fn naive(deck: &DeckSpec, players: usize, ranks: Range<u128>) -> ExhaustiveStats {
    naive_split(deck, players, Extra::First, ranks)
}

/// [`naive`] with the extra card of an odd two-player deal where `extra` says.
pub fn naive_split(
    deck: &DeckSpec,
    players: usize,
    extra: Extra,
    ranks: Range<u128>,
) -> ExhaustiveStats {
    let mut stats = ExhaustiveStats::new(players);
    let mut scratch = multi::Scratch::default();
    if ranks.is_empty() {
        return stats;
    }
    let Some(mut cards) = unrank(&deck.counts, ranks.start) else {
        return stats;
    };
    for _ in ranks {
        play_deal(&cards, players, extra, &mut stats, &mut scratch);
        next_arrangement(&mut cards);
    }
    stats
}
