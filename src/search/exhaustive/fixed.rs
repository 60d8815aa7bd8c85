//! A fully fixed game (one deal) of the tree walk played one by one: in place for a while, then by
//! the exact cycle engine; and the counting of a finished subtree into the totals.

use super::node::{Ctx, Node, Width};
use super::packed::{Packed, UNKNOWN};
use super::stats::{ExhaustiveStats, Longest};
use crate::card::{Card, KINDS};
use crate::engine::Outcome;
use crate::engine::cycle::play_state;
use crate::engine::game::Game;
use crate::engine::trick::Step;

/// Tricks a fully fixed game plays in place before the exact cycle engine takes over: more than
/// almost every terminating game of a small deck needs, so Brent's bookkeeping is rarely paid.
pub(super) const IN_PLACE_TRICKS: u64 = 1000;

/// What the search keeps of a fully fixed game while it waits for the lanes.
#[derive(Clone, Copy)]
pub struct Leaf<W: Width> {
    pub(super) deal: W::Deal,
    pub(super) tricks: u64,
    pub(super) cards: u64,
}

impl<W: Width> Leaf<W> {
    pub(super) fn node(&self, game: Game<W>) -> Node<W> {
        Node {
            game,
            deal: self.deal,
            unknown: [W::ZERO; 2],
            unread: [0; 2],
            present: 0,
            remaining: [0; KINDS],
            weight_index: 0,
            tricks: self.tricks,
            cards: self.cards,
        }
    }
}

/// Counts a game that ended after `tricks` tricks and `played` cards, for the `weight` deals of
/// its subtree.
#[inline]
pub(super) fn record_end<W: Width>(
    ctx: &Ctx,
    node: &Node<W>,
    stats: &mut ExhaustiveStats,
    weight: u64,
    winner: u8,
    tricks: u64,
    played: u64,
) {
    let deal = node.deal;
    record(
        ctx,
        deal,
        &node.remaining,
        stats,
        weight,
        winner,
        tricks,
        played,
    );
}

/// [`record_end`] of the subtree of `deal` with the cards `remaining` not fixed.
#[inline]
#[allow(clippy::too_many_arguments)]
pub(super) fn record<D: Packed>(
    ctx: &Ctx,
    deal: D,
    remaining: &[u8; KINDS],
    stats: &mut ExhaustiveStats,
    weight: u64,
    winner: u8,
    tricks: u64,
    played: u64,
) {
    stats.deals += weight;
    stats.wins[winner as usize] += weight;
    if stats.may_be_longest(played, tricks) {
        stats.offer_longest(Longest {
            deal: smallest_completion(ctx, deal, remaining),
            cards: played,
            tricks,
        });
    }
}

/// Plays a node without unread cards (one deal) to its end: in place for [`IN_PLACE_TRICKS`], then
/// with the exact cycle engine.
pub(super) fn play_fixed<W: Width>(ctx: &Ctx, node: &mut Node<W>, stats: &mut ExhaustiveStats) {
    let limit = node.tricks + IN_PLACE_TRICKS;
    while node.tricks < limit {
        match node.trick::<true>() {
            Step::Next { .. } => {}
            Step::End { winner, cards } => {
                let tricks = node.tricks + u64::from(cards > 0);
                let played = node.cards + u64::from(cards);
                return record_end(ctx, node, stats, 1, winner, tricks, played);
            }
            Step::Unread => unreachable!("every card is fixed"),
        }
    }
    finish(ctx, node, stats);
}

/// The smallest deal of the subtree: the unfixed places filled with the remaining cards in order.
pub(super) fn smallest_completion<D: Packed>(
    ctx: &Ctx,
    deal: D,
    remaining: &[u8; KINDS],
) -> Vec<Card> {
    let mut rest = *remaining;
    let mut kind = 0;
    (0..ctx.n as u32)
        .map(|i| {
            let d = deal.nibble(i);
            if d != UNKNOWN {
                return d;
            }
            while rest[kind] == 0 {
                kind += 1;
            }
            rest[kind] -= 1;
            kind as Card
        })
        .collect()
}

/// A node whose cards are all fixed and that has played [`IN_PLACE_TRICKS`] tricks without ending:
/// the rest of its one deal is played by the exact cycle engine.
pub(super) fn finish<W: Width>(ctx: &Ctx, node: &Node<W>, stats: &mut ExhaustiveStats) {
    debug_assert!(
        node.game.n == 0 && node.game.debt == 0,
        "at a trick boundary"
    );
    let state = Game::<u64>::from_hands(&node.hand(0), &node.hand(1), node.game.next as u8);
    let deal: Vec<Card> = (0..ctx.n as u32).map(|i| node.deal.nibble(i)).collect();
    match play_state(&state) {
        Outcome::Terminates {
            winner,
            tricks,
            cards,
        } => {
            let tricks = node.tricks + tricks;
            let played = node.cards + cards;
            stats.deals += 1;
            stats.wins[winner as usize] += 1;
            if stats.may_be_longest(played, tricks) {
                stats.offer_longest(Longest {
                    deal,
                    cards: played,
                    tricks,
                });
            }
        }
        Outcome::Cycle(_) => {
            // Rare: replay the whole deal for the cycle's id and period.
            let h1 = ctx.offset[1] as usize;
            let Outcome::Cycle(c) =
                play_state(&Game::<u64>::from_hands(&deal[..h1], &deal[h1..], 0))
            else {
                unreachable!("the same deal cycles from its start")
            };
            stats.add_cycle(c.cycle_id.to_string(), c.period, 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::naive::{deal_count, naive};
    use super::super::node::root;
    use super::super::stats::Extra;
    use super::*;
    use crate::card::DeckSpec;
    use crate::search::multiset::{next_arrangement, unrank};

    /// Every deal of `deck` handed to [`finish`] from its start, in the form `W`, as the walk
    /// hands it a fully fixed deal.
    fn finish_every_deal<W: Width>(deck: &DeckSpec) -> ExhaustiveStats {
        let (ctx, _) = root::<W>(deck, false, Extra::First);
        let h1 = ctx.offset[1] as usize;
        let mut cards = unrank(&deck.counts, 0).unwrap();
        let mut stats = ExhaustiveStats::new(2);
        for _ in 0..deal_count(deck).unwrap() {
            let mut deal = W::Deal::unknown(cards.len());
            for (i, &c) in cards.iter().enumerate() {
                deal.fix(i as u32, c);
            }
            let leaf = Leaf::<W> {
                deal,
                tricks: 0,
                cards: 0,
            };
            let node = leaf.node(Game::from_hands(&cards[..h1], &cards[h1..], 0));
            finish(&ctx, &node, &mut stats);
            next_arrangement(&mut cards);
        }
        stats
    }

    /// [`finish`] runs only for a game still going after [`IN_PLACE_TRICKS`] tricks, which no
    /// deck small enough for the suite has: so here it is handed every deal of a deck with
    /// cycles from its start, in both forms, and its totals (wins, cycles, the longest game) are
    /// held to the checker's.
    #[test]
    fn finish_counts_every_deal_as_the_checker_does() {
        // 73,440 deals, 14 of which never end (the census row of results/census/table1.jsonl).
        let deck: DeckSpec = "14-1J1Q1K1A".parse().unwrap();
        let want = naive(&deck, 2, 0..deal_count(&deck).unwrap());
        assert_eq!((want.deals, want.cycles), (73_440, 14));
        assert_eq!(finish_every_deal::<u32>(&deck), want);
        assert_eq!(finish_every_deal::<u64>(&deck), want);
    }
}
