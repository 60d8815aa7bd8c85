//! The second route of a discovery, by insertion: grow non-terminating positions card by card
//! toward the deck, steering toward balance, independently of frames, pieces and templates.
//!
//! 1. **Seeds.** Every cycle of small decks made of the deck's own kinds (each face kind at most
//!    twice, few number cards), found by the exhaustive search of every deal.
//! 2. **Growth.** A cycle of `L` cards grows by one card: its cycle-id position (the smallest
//!    position of the cycle) with one card of a kind the deck still has to spare inserted at any
//!    place of either hand (the add operation of `mutate`). A child is kept when its game never
//!    ends; it is then known by the cycle it reaches. Of the cycles of `L + 1` cards (and the seeds
//!    of that size) a beam of the best goes on.
//! 3. **Steering.** A cycle's *reach* on its own is the most cards the smaller hand holds at the
//!    start of a trick of the cycle: 0 for a lopsided cycle, half the cards for a cycle that
//!    passes through an even split. Each parent's children are ranked by reach (then the longest
//!    period, then the smallest id), and the beam takes the best child of every parent before the
//!    second best of any: growth heads toward cycles whose families hold balanced deals without
//!    the beam filling with the offspring of one cycle.
//! 4. At the deck's size, the cycles of the beam get their families by backward play (the
//!    balanced deals), as the ansatz route's do.
//!
//! Each level is cut into parts (one step each, see `steps`); a part keeps its own best `beam`
//! cycles, and since a cycle's score is a function of the cycle, the best of the union of the
//! parts is the best of the level: the answer does not depend on how the parts ran.

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::card::{Card, DeckSpec, KINDS};
use crate::engine::Outcome;
use crate::engine::fast::{GameState, Ring64, Step};
use crate::position::Position;

/// How much the insertion route searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InsertScope {
    /// Cycles kept at each size.
    pub beam: usize,
    /// Seed decks of at most this many deals are searched whole.
    pub seed_deals: u64,
}

/// A cycle met on the way: its id packed, its size, its period and its reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grown {
    pub key: u128,
    pub cards: u8,
    pub period: u64,
    pub reach: u8,
    /// Its place among the children of the parent it grew from (0 for the best child, and for a
    /// seed); a cycle grown from several parents keeps its best place.
    pub round: u32,
}

impl Grown {
    /// The cycle-id position.
    pub fn position(&self) -> Position {
        Position::unpack(self.key, self.cards as usize)
    }

    /// Better first: the best children of every parent before the second best of any (so the
    /// beam keeps many lineages, not the offspring of one), then higher reach, then longer
    /// period, then the smaller id.
    fn rank(&self) -> (u32, std::cmp::Reverse<u8>, std::cmp::Reverse<u64>, u128) {
        (
            self.round,
            std::cmp::Reverse(self.reach),
            std::cmp::Reverse(self.period),
            self.key,
        )
    }

    /// The cycle reached from `pos`, if its game never ends.
    pub fn of(pos: &Position) -> Option<Grown> {
        let Outcome::Cycle(c) = crate::engine::play(pos) else {
            return None;
        };
        let key = c.cycle_id.pack()?;
        Some(Grown {
            key,
            cards: pos.total() as u8,
            period: c.period,
            reach: cycle_reach(&c.cycle_id, c.period),
            round: 0,
        })
    }
}

/// The most cards the smaller hand holds at the start of a trick of the cycle through `id`.
pub fn cycle_reach(id: &Position, period: u64) -> u8 {
    let mut s = Ring64::from_position(id);
    let mut pile = vec![0 as Card; s.capacity()];
    let mut best = s.hands[0].len().min(s.hands[1].len());
    for _ in 0..period {
        match GameState::trick(&mut s, &mut pile) {
            Step::Next { .. } => best = best.max(s.hands[0].len().min(s.hands[1].len())),
            Step::End { .. } => unreachable!("a cycle position plays on"),
        }
    }
    best as u8
}

/// The seed decks of `deck`: its face kinds at most twice each, and 0, 1, 2, ... of its number
/// cards while a deck has at most `max_deals` deals. Odd decks give the extra card to player 1.
pub fn seed_decks(deck: DeckSpec, max_deals: u64) -> Vec<DeckSpec> {
    let mut faces = deck;
    faces.counts[0] = 0;
    for c in faces.counts.iter_mut().skip(1) {
        *c = (*c).min(2);
    }
    let mut out = Vec::new();
    for n in 0..=deck.counts[0] {
        let mut d = faces;
        d.counts[0] = n;
        if d.total() < 4 {
            continue;
        }
        match crate::search::exhaustive::deal_count(&d) {
            Some(x) if x <= max_deals as u128 => out.push(d),
            _ => break,
        }
    }
    out
}

/// Every cycle of every deal of the seed decks, sorted by rank.
pub fn seeds(deck: DeckSpec, max_deals: u64) -> Vec<Grown> {
    let mut all: BTreeMap<u128, Grown> = BTreeMap::new();
    for d in seed_decks(deck, max_deals) {
        let plan = crate::search::exhaustive::Plan::new(&d, u64::MAX);
        let mut stats = plan.head.clone();
        let parts: Vec<_> = (0..plan.tasks())
            .into_par_iter()
            .map(|i| plan.run_task(i))
            .collect();
        for p in parts {
            stats.merge(p);
        }
        for (id, class) in &stats.distinct_cycles {
            let pos = Position::parse(id, crate::notation::Notation::Dash)
                .expect("the search writes cycle ids it can read");
            if let Some(key) = pos.pack() {
                all.entry(key).or_insert(Grown {
                    key,
                    cards: pos.total() as u8,
                    period: class.period,
                    reach: cycle_reach(&pos, class.period),
                    round: 0,
                });
            }
        }
    }
    let mut v: Vec<Grown> = all.into_values().collect();
    v.sort_by_key(Grown::rank);
    v
}

/// The kinds a card of which may be inserted into `pos`: those the deck has to spare, each while it
/// keeps its share of the cards, within one card of its share of the deck (so a cycle grows
/// toward the deck's own mix, not into a corner of it that no card can be added to).
fn spare(deck: &DeckSpec, pos: &Position) -> Vec<Card> {
    let have = pos.deck();
    let next = pos.total() + 1;
    let total = deck.total();
    (0..KINDS as Card)
        .filter(|&k| {
            let (h, d) = (
                have.counts[k as usize] as usize,
                deck.counts[k as usize] as usize,
            );
            h < d && h < (d * next).div_ceil(total) + 1
        })
        .collect()
}

/// The positions of the cycle through `id` at the start of each trick.
fn cycle_positions(g: &Grown) -> Vec<Position> {
    let mut s = Ring64::from_position(&g.position());
    let mut pile = vec![0 as Card; s.capacity()];
    let mut out = Vec::with_capacity(g.period as usize);
    for _ in 0..g.period {
        out.push(s.to_position());
        let _ = GameState::trick(&mut s, &mut pile);
    }
    out
}

/// The children of `parent` (one card of a spare kind inserted anywhere in either hand of any
/// position of its cycle) whose games never end, by cycle, the best `beam` of them.
fn children(deck: &DeckSpec, parent: &Grown, beam: usize) -> (Vec<Grown>, u64) {
    let mut found: BTreeMap<u128, Grown> = BTreeMap::new();
    let mut games = 0;
    for pos in cycle_positions(parent) {
        let kinds = spare(deck, &pos);
        for hand in 0..2 {
            for at in 0..=pos.hands[hand].len() {
                for &k in &kinds {
                    let mut child = pos.clone();
                    child.hands[hand].insert(at, k);
                    games += 1;
                    if let Some(g) = Grown::of(&child) {
                        found.entry(g.key).or_insert(g);
                    }
                }
            }
        }
    }
    let mut kids = best(found.into_values(), beam);
    for (i, k) in kids.iter_mut().enumerate() {
        k.round = i as u32;
    }
    (kids, games)
}

/// The best `beam` of `cycles` (each once, at its best place), in rank order.
pub fn best(cycles: impl IntoIterator<Item = Grown>, beam: usize) -> Vec<Grown> {
    let mut by_key: BTreeMap<u128, Grown> = BTreeMap::new();
    for g in cycles {
        by_key
            .entry(g.key)
            .and_modify(|e| e.round = e.round.min(g.round))
            .or_insert(g);
    }
    let mut v: Vec<Grown> = by_key.into_values().collect();
    v.sort_by_key(Grown::rank);
    v.truncate(beam);
    v
}

/// What one part of a level grew: its best cycles and the children it played.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    pub cycles: Vec<Grown>,
    pub games: u64,
}

/// Part `part` of `parts` of one level's growth: the parents in a contiguous block, each grown,
/// the best `beam` of their children.
pub fn grow_part(
    deck: &DeckSpec,
    parents: &[Grown],
    part: usize,
    parts: usize,
    beam: usize,
) -> Part {
    let range = (part * parents.len() / parts)..((part + 1) * parents.len() / parts);
    let kids: Vec<(Vec<Grown>, u64)> = parents[range]
        .par_iter()
        .map(|p| children(deck, p, beam))
        .collect();
    let games = kids.iter().map(|k| k.1).sum();
    Part {
        cycles: best(kids.into_iter().flat_map(|k| k.0), beam),
        games,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;

    #[test]
    fn reach_is_the_most_even_split_on_the_cycle() {
        // The 2024 deal's cycle: its reach on the cycle is at most half the deck.
        let p = Position::parse(
            "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)",
            Notation::Dash,
        )
        .unwrap();
        let g = Grown::of(&p).unwrap();
        assert_eq!(g.period, 62);
        assert!(g.reach <= 26);
        // A position is on its own cycle: the reach from the id equals the reach from any of its
        // positions' cycle.
        let again = Grown::of(&g.position()).unwrap();
        assert_eq!(again, g);
    }

    #[test]
    fn seed_decks_keep_the_deck_kinds_and_stop_at_the_bound() {
        let d: DeckSpec = "standard".parse().unwrap();
        let s = seed_decks(d, 10_000_000);
        assert!(!s.is_empty());
        for x in &s {
            assert_eq!(&x.counts[1..], &[2, 2, 2, 2]);
            assert!(crate::search::exhaustive::deal_count(x).unwrap() <= 10_000_000);
        }
        let camicia: DeckSpec = "camicia".parse().unwrap();
        for x in seed_decks(camicia, 1_000_000) {
            assert_eq!(x.counts[4], 0, "no Aces in a Camicia seed");
        }
    }

    #[test]
    fn children_are_one_card_larger_and_never_end() {
        let d: DeckSpec = "standard".parse().unwrap();
        let seeds = seeds(d, 10_000_000);
        assert!(!seeds.is_empty());
        let (kids, games) = children(&d, &seeds[0], 50);
        assert!(games > 0);
        for k in &kids {
            assert_eq!(k.cards, seeds[0].cards + 1);
            match crate::engine::reference::play(&k.position()) {
                Outcome::Cycle(c) => assert_eq!(c.cycle_id.pack(), Some(k.key)),
                other => panic!("{other:?}"),
            }
        }
    }
}
