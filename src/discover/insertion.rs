//! The second route of a discovery, by insertion: grow non-terminating positions card by card
//! toward the deck, steering toward balance, independently of frames, pieces and templates.
//!
//! 1. **Seeds.** Every cycle of small decks made of the deck's own kinds (each face kind at most
//!    twice, few number cards), found by the exhaustive search of every deal.
//! 2. **Growth.** A cycle of `L` cards grows by one card: every position of its cycle (the start
//!    of each trick) with one card of a kind the deck still has to spare inserted at any place of
//!    either hand (the add operation of `mutate`). A child is kept when its game never ends; it is
//!    then known by the cycle it reaches. Of the cycles of `L + 1` cards (and the seeds of that
//!    size) a beam of the best goes on. When no child of any cycle of the beam never ends, the
//!    best [`TWO_CARD_PARENTS`] of them grow by two cards at once to `L + 2`: on the standard deck
//!    no 28-card position one card from the 27-card beam cycles, but thousands of 29-card ones two
//!    cards away do.
//!    With a lateral budget (`--lateral N`), when two cards fail too, the best N cycles of the
//!    beam move sideways at their own size (two cards exchanged, or one card moved to the other
//!    hand: the swaps and re-splits of `mutate`), and their new cycles grow on by one card.
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

use std::collections::{BTreeMap, BTreeSet};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::card::{Card, DeckSpec, KINDS};
use crate::engine::Outcome;
use crate::engine::game::Game;
use crate::engine::trick::Step;
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
    let mut s = Game::<u64>::from_position(id);
    let mut best = s.len[0].min(s.len[1]);
    for _ in 0..period {
        match s.trick() {
            Step::Next { .. } => best = best.max(s.len[0].min(s.len[1])),
            _ => unreachable!("a cycle position plays on"),
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
        let stats = super::whole::play(&d);
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
pub fn cycle_positions(g: &Grown) -> Vec<Position> {
    let mut s = Game::<u64>::from_position(&g.position());
    let mut out = Vec::with_capacity(g.period as usize);
    for _ in 0..g.period {
        out.push(s.to_position());
        let _ = s.trick();
    }
    out
}

/// How many of a level's cycles, the best first, grow by two cards when none of their one-card
/// children's games never ends (a level whose beam dies out is skipped over, not the end).
pub const TWO_CARD_PARENTS: usize = 16;

/// Calls `f` with every way of inserting `n` cards into `pos`, each of a kind spare after the
/// ones before it, at places from `from` (a hand and a place in it) on, in order of place: a pair
/// of cards is put in once, not once per order.
pub fn insertions(
    deck: &DeckSpec,
    pos: &Position,
    n: usize,
    from: (usize, usize),
    f: &mut impl FnMut(&Position),
) {
    if n == 0 {
        return f(pos);
    }
    let kinds = spare(deck, pos);
    for hand in from.0..2 {
        let first = if hand == from.0 { from.1 } else { 0 };
        for at in first..=pos.hands[hand].len() {
            for &k in &kinds {
                let mut child = pos.clone();
                child.hands[hand].insert(at, k);
                insertions(deck, &child, n - 1, (hand, at + 1), f);
            }
        }
    }
}

/// The children of `parent` (`cards` cards of spare kinds inserted anywhere in either hand of any
/// position of its cycle) whose games never end, by cycle, the best `beam` of them.
fn children(deck: &DeckSpec, parent: &Grown, beam: usize, cards: usize) -> (Vec<Grown>, u64) {
    let mut found: BTreeMap<u128, Grown> = BTreeMap::new();
    let mut games = 0;
    for pos in cycle_positions(parent) {
        insertions(deck, &pos, cards, (0, 0), &mut |child| {
            games += 1;
            if let Some(g) = Grown::of(child) {
                found.entry(g.key).or_insert(g);
            }
        });
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

/// Calls `f` with every lateral move of `pos`, which keeps its cards: two cards of different kinds
/// exchanged (anywhere in either hand), or one card moved to any place of the other hand (a
/// re-split), both hands kept non-empty.
pub fn laterals(pos: &Position, f: &mut impl FnMut(&Position)) {
    let places: Vec<(usize, usize)> = (0..2)
        .flat_map(|h| (0..pos.hands[h].len()).map(move |i| (h, i)))
        .collect();
    for (a, &(ha, ia)) in places.iter().enumerate() {
        for &(hb, ib) in &places[a + 1..] {
            if pos.hands[ha][ia] != pos.hands[hb][ib] {
                let mut c = pos.clone();
                c.hands[ha][ia] = pos.hands[hb][ib];
                c.hands[hb][ib] = pos.hands[ha][ia];
                f(&c);
            }
        }
    }
    for h in 0..2 {
        if pos.hands[h].len() < 2 {
            continue;
        }
        for i in 0..pos.hands[h].len() {
            for at in 0..=pos.hands[h ^ 1].len() {
                let mut c = pos.clone();
                let card = c.hands[h].remove(i);
                c.hands[h ^ 1].insert(at, card);
                f(&c);
            }
        }
    }
}

/// The lateral children of `parent` (every lateral move of every position of its cycle) whose
/// games never end in a cycle not in `known`, by cycle, the best `beam` of them.
fn lateral_children(parent: &Grown, known: &BTreeSet<u128>, beam: usize) -> (Vec<Grown>, u64) {
    let mut found: BTreeMap<u128, Grown> = BTreeMap::new();
    let mut games = 0;
    for pos in cycle_positions(parent) {
        laterals(&pos, &mut |child| {
            games += 1;
            if let Some(g) = Grown::of(child)
                && !known.contains(&g.key)
            {
                found.entry(g.key).or_insert(g);
            }
        });
    }
    (shortest(found.into_values(), beam), games)
}

/// The `beam` of `cycles` with the shortest periods (then the higher reach, then the smaller id),
/// each once. A lateral step keeps these, not the best by reach: its point is to leave a family
/// whose cycles no card can be added to, and its new cycles of high reach are that family's
/// own long cycles; a short cycle is also the cheapest to grow (a child per position of its
/// cycle). (On the standard deck's 36-card beam the reach-ranked ones gave no 37-card cycle,
/// the shortest did.)
pub fn shortest(cycles: impl IntoIterator<Item = Grown>, beam: usize) -> Vec<Grown> {
    let mut by_key: BTreeMap<u128, Grown> = BTreeMap::new();
    for g in cycles {
        by_key.entry(g.key).or_insert(Grown { round: 0, ..g });
    }
    let mut v: Vec<Grown> = by_key.into_values().collect();
    v.sort_by_key(|g| (g.period, std::cmp::Reverse(g.reach), g.key));
    v.truncate(beam);
    v
}

/// Part `part` of `parts` of a lateral step: the parents in a contiguous block, each moved
/// sideways, the best `beam` of their new cycles (none of `known`).
pub fn lateral_part(
    parents: &[Grown],
    known: &BTreeSet<u128>,
    part: usize,
    parts: usize,
    beam: usize,
) -> Part {
    part_of(
        parents,
        part,
        parts,
        |p| lateral_children(p, known, beam),
        |kids| shortest(kids, beam),
    )
}

/// Part `part` of `parts` of a step over `parents`: the parents in a contiguous block, each
/// expanded by `each` (its cycles and the games it played), the cycles kept by `keep`.
fn part_of(
    parents: &[Grown],
    part: usize,
    parts: usize,
    each: impl Fn(&Grown) -> (Vec<Grown>, u64) + Sync + Send,
    keep: impl FnOnce(Vec<Grown>) -> Vec<Grown>,
) -> Part {
    let range = (part * parents.len() / parts)..((part + 1) * parents.len() / parts);
    let kids: Vec<(Vec<Grown>, u64)> = parents[range].par_iter().map(each).collect();
    let games = kids.iter().map(|k| k.1).sum();
    Part {
        cycles: keep(kids.into_iter().flat_map(|k| k.0).collect()),
        games,
    }
}

/// What one part of a level grew: its best cycles and the children it played.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    pub cycles: Vec<Grown>,
    pub games: u64,
}

/// Part `part` of `parts` of one level's growth by `cards` cards: the parents in a contiguous
/// block, each grown, the best `beam` of their children.
pub fn grow_part(
    deck: &DeckSpec,
    parents: &[Grown],
    part: usize,
    parts: usize,
    beam: usize,
    cards: usize,
) -> Part {
    part_of(
        parents,
        part,
        parts,
        |p| children(deck, p, beam, cards),
        |kids| best(kids, beam),
    )
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
        let (kids, games) = children(&d, &seeds[0], 50, 1);
        assert!(games > 0);
        for k in &kids {
            assert_eq!(k.cards, seeds[0].cards + 1);
            match crate::engine::reference::play(&k.position()) {
                Outcome::Cycle(c) => assert_eq!(c.cycle_id.pack(), Some(k.key)),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn two_cards_are_inserted_once_per_placement_and_every_placement_is_met() {
        // 22 cards, two of each face: the share bound lets each kind have one card more at 23
        // and at 24 cards alike, so the order the two cards go in cannot matter.
        let d: DeckSpec = "standard".parse().unwrap();
        let pos = Position::parse("--J-Q-K-A/--J-Q-K-A---- (1)", Notation::Dash).unwrap();
        let mut ordered = Vec::new();
        insertions(&d, &pos, 2, (0, 0), &mut |c| ordered.push(c.clone()));
        // Every pair of one-card insertions in either order.
        let mut any_order = std::collections::BTreeSet::new();
        let mut first = Vec::new();
        insertions(&d, &pos, 1, (0, 0), &mut |c| first.push(c.clone()));
        for c in &first {
            insertions(&d, c, 1, (0, 0), &mut |cc| {
                any_order.insert(cc.to_string());
            });
        }
        let distinct: std::collections::BTreeSet<String> =
            ordered.iter().map(|c| c.to_string()).collect();
        assert_eq!(distinct, any_order);
        assert!(ordered.iter().all(|c| c.total() == 24));
        // Each placement once: far fewer than the pairs in either order.
        let pairs = first.len() * (first.len() + 1);
        assert!(
            ordered.len() * 2 < pairs + first.len(),
            "{} of {pairs}",
            ordered.len()
        );
    }

    #[test]
    fn two_card_children_are_two_cards_larger_and_never_end() {
        let d: DeckSpec = "standard".parse().unwrap();
        let seeds = seeds(d, 10_000_000);
        let (kids, games) = children(&d, &seeds[0], 20, 2);
        assert!(games > 0 && !kids.is_empty());
        for k in &kids {
            assert_eq!(k.cards, seeds[0].cards + 2);
            match crate::engine::reference::play(&k.position()) {
                Outcome::Cycle(c) => assert_eq!(c.cycle_id.pack(), Some(k.key)),
                other => panic!("{other:?}"),
            }
        }
    }

    /// Every lateral move keeps the position's cards and both hands, and each is met once: the
    /// exchanges of two cards of different kinds, then the moves of one card to every place of
    /// the other hand.
    #[test]
    fn lateral_moves_keep_the_cards_and_are_all_met() {
        let pos = Position::parse("-QK/J-A (1)", Notation::Auto).unwrap();
        let mut seen = Vec::new();
        laterals(&pos, &mut |c| {
            assert_eq!(c.deck(), pos.deck());
            assert!(!c.hands[0].is_empty() && !c.hands[1].is_empty());
            assert_ne!(c, &pos);
            seen.push(c.to_string());
        });
        // 6 cards, 5 kinds (two number cards): 15 pairs less the one pair of number cards; then
        // each of 3 cards to 4 places of the other hand, both ways.
        assert_eq!(seen.len(), 14 + 2 * 3 * 4);
        assert!(seen.contains(&"JQK/--A (1)".to_string()));
        assert!(seen.contains(&"QK/J--A (1)".to_string()));
        let one = Position::parse("J/-- (1)", Notation::Auto).unwrap();
        let mut n = 0;
        laterals(&one, &mut |c| {
            assert!(!c.hands[0].is_empty());
            n += 1;
        });
        // Two exchanges (J with either number card), and no move that empties player 1's hand:
        // each number card to 2 places of player 1's hand.
        assert_eq!(n, 2 + 2 * 2);
    }

    /// The lateral step's cycles never end, are the size of their parent, and are none of the
    /// known ones.
    #[test]
    fn lateral_children_are_new_cycles_of_the_same_size() {
        let d: DeckSpec = "standard".parse().unwrap();
        let seeds = seeds(d, 10_000_000);
        let parents = &seeds[..4];
        let known: BTreeSet<u128> = parents.iter().map(|g| g.key).collect();
        let part = lateral_part(parents, &known, 0, 1, 50);
        assert!(part.games > 0 && !part.cycles.is_empty());
        for k in &part.cycles {
            assert!(!known.contains(&k.key));
            assert!(parents.iter().any(|p| p.cards == k.cards));
            match crate::engine::reference::play(&k.position()) {
                Outcome::Cycle(c) => assert_eq!(c.cycle_id.pack(), Some(k.key)),
                other => panic!("{other:?}"),
            }
        }
    }
}
