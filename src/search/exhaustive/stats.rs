//! What an exhaustive search reports: the totals over a set of deals, their cycle classes and
//! longest game, and who holds the extra card of an odd deck.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::card::{Card, DeckSpec, KINDS};
use crate::engine::multi::MultiPosition;
use crate::search::stats::checked_sum;

/// Which player holds the extra card of a two-player deal of an odd number of cards. Paulhus's
/// Table 1 deals the first player the extra card; the census counts both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Extra {
    /// Player 1 (who leads) holds the extra card.
    #[default]
    First,
    /// Player 2 holds it.
    Second,
}

impl Extra {
    /// The cards player 1 is dealt from `n`: the first cards of the deal, the rest to player 2.
    pub fn first_hand(self, n: usize) -> usize {
        match self {
            Extra::First => n.div_ceil(2),
            Extra::Second => n / 2,
        }
    }

    /// The deal's position: `cards` dealt in order, player 1 first and to move.
    pub fn position(self, cards: &[Card], players: usize) -> MultiPosition {
        if players == 2 {
            let h1 = self.first_hand(cards.len());
            MultiPosition {
                hands: vec![cards[..h1].to_vec(), cards[h1..].to_vec()],
                to_move: 0,
            }
        } else {
            MultiPosition::deal(cards, players)
        }
    }
}

/// A class of non-terminating deals: those that reach one cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CycleClass {
    pub period: u64,
    pub deals: u64,
}

/// The longest terminating game: most cards, then most tricks, then the smallest deal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Longest {
    pub deal: Vec<Card>,
    pub cards: u64,
    pub tricks: u64,
}

impl Longest {
    pub(super) fn beats(&self, o: &Longest) -> bool {
        (self.cards, self.tricks, std::cmp::Reverse(&self.deal))
            > (o.cards, o.tricks, std::cmp::Reverse(&o.deal))
    }
}

/// Totals over a set of deals. Merging is commutative, so any split of the work gives one answer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExhaustiveStats {
    pub deals: u64,
    /// Deals that never end.
    pub cycles: u64,
    /// Terminating deals won by each seat.
    pub wins: Vec<u64>,
    /// Cycle id (position text) -> its period and how many deals reach it.
    pub distinct_cycles: BTreeMap<String, CycleClass>,
    pub longest: Option<Longest>,
}

impl ExhaustiveStats {
    pub fn new(players: usize) -> Self {
        ExhaustiveStats {
            wins: vec![0; players],
            ..Default::default()
        }
    }

    pub fn merge(&mut self, o: ExhaustiveStats) {
        self.deals += o.deals;
        self.cycles += o.cycles;
        for (a, b) in self.wins.iter_mut().zip(&o.wins) {
            *a += b;
        }
        for (id, c) in o.distinct_cycles {
            let e = self.distinct_cycles.entry(id).or_default();
            e.period = c.period;
            e.deals += c.deals;
        }
        if let Some(l) = o.longest {
            self.offer_longest(l);
        }
    }

    pub(super) fn offer_longest(&mut self, l: Longest) {
        if self.longest.as_ref().is_none_or(|b| l.beats(b)) {
            self.longest = Some(l);
        }
    }

    /// Whether a game of `cards`/`tricks` could replace the longest (ties need the deal).
    #[inline]
    pub(super) fn may_be_longest(&self, cards: u64, tricks: u64) -> bool {
        self.longest
            .as_ref()
            .is_none_or(|b| (cards, tricks) >= (b.cards, b.tricks))
    }

    pub(super) fn add_cycle(&mut self, id: String, period: u64, deals: u64) {
        self.deals += deals;
        self.cycles += deals;
        let e = self.distinct_cycles.entry(id).or_default();
        e.period = period;
        e.deals += deals;
    }
}

impl ExhaustiveStats {
    /// Checks totals read from a file (a shard file to merge) against what any run of `players`
    /// on `deck` reports: a seat count for each player, wins and cycles adding up to the deals,
    /// the cycle classes to the cycles, and a longest game dealt from `deck`. The sums are
    /// checked, so totals that pass merge without overflow up to `deals` of the run.
    pub fn check(&self, players: usize, deck: &DeckSpec, deals: u64) -> Result<(), String> {
        if self.wins.len() != players {
            return Err(format!(
                "{} win counts for {players} players",
                self.wins.len()
            ));
        }
        let won = checked_sum(self.wins.iter().copied()).and_then(|w| w.checked_add(self.cycles));
        if won != Some(self.deals) || self.deals > deals {
            return Err(format!(
                "wins and cycles do not add up to the {} deals (of {deals})",
                self.deals
            ));
        }
        if checked_sum(self.distinct_cycles.values().map(|c| c.deals)) != Some(self.cycles) {
            return Err(format!(
                "cycle classes do not add up to the {} cycles",
                self.cycles
            ));
        }
        match &self.longest {
            Some(l) if l.deal.iter().any(|&c| c as usize >= KINDS) => {
                Err("the longest game holds a card that is no card".into())
            }
            Some(l) if DeckSpec::of_cards(&l.deal) != *deck => {
                Err(format!("the longest game is not a deal of {deck}"))
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Damage = fn(&mut ExhaustiveStats);

    /// The totals of a run of two players on `1-1J` (2 deals, one won by each seat).
    fn two_deals() -> ExhaustiveStats {
        ExhaustiveStats {
            deals: 2,
            cycles: 0,
            wins: vec![1, 1],
            distinct_cycles: BTreeMap::new(),
            longest: Some(Longest {
                deal: vec![0, 1],
                cards: 2,
                tricks: 1,
            }),
        }
    }

    #[test]
    fn check_passes_what_a_run_reports_and_names_what_no_run_could() {
        let deck: DeckSpec = "1-1J".parse().unwrap();
        assert_eq!(two_deals().check(2, &deck, 2), Ok(()));
        let broken: [(&str, Damage); 6] = [
            ("win counts", |s| s.wins.push(0)),
            ("add up", |s| s.wins[0] = u64::MAX),
            ("add up", |s| s.deals = 3),
            ("cycle classes", |s| {
                s.cycles = 1;
                s.deals = 3;
            }),
            ("no card", |s| s.longest.as_mut().unwrap().deal[0] = 5),
            ("not a deal", |s| s.longest.as_mut().unwrap().deal[0] = 1),
        ];
        for (says, damage) in broken {
            let mut s = two_deals();
            damage(&mut s);
            let e = s.check(2, &deck, 3).unwrap_err();
            assert!(e.contains(says), "{e:?} should say {says:?}");
        }
        // More deals than the run has.
        assert!(two_deals().check(2, &deck, 1).is_err());
    }
}
