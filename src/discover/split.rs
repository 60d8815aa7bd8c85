//! The split route's search (its stage is `stages/split.rs`): every position of the deck with
//! player 1 to move, grouped by [`Composition`] (how many cards and which face cards each hand
//! holds, and the face card each hand ends with), smallest compositions first, each played to
//! its end or its cycle. It knows no frame, piece or template, so it reaches the cycles that pass
//! through none: a cycle whose short hand never holds one face card, or no short hand at all.
//!
//! Two facts of every cycle make the search smaller than the deals without losing a class:
//! - at a trick boundary on a cycle, both hands end with a penalty card and the number cards it
//!   was paid with (the mover took the last pile; the other player's hand still ends with the
//!   last pile it took, since a hand that never wins runs out), so each hand's last cards are
//!   fixed by its last face card;
//! - a class is a cycle and its mirror image, and the mirror of `A/B (2)` is `B/A (1)`: leader
//!   first (the hand to move, then the other's), so player 1 moves in every position searched.

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::card::{Card, DASH_SYMBOLS, DeckSpec, KINDS, NUMBER};
use crate::engine::lanes::Batch;
use crate::engine::{Game, Outcome, cycle};
use crate::position::Position;
use crate::search::multiset::{multinomial, next_arrangement, unrank};

/// How much the split route searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SplitScope {
    /// Compositions run smallest first while their positions add up to at most this many.
    pub positions: u64,
}

/// A class of positions, player 1 to move: hand `p` holds `free[p]` (by kind) in every order,
/// then its last face card `ends[p]` and the number cards that card demands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Composition {
    pub free: [[u8; KINDS]; 2],
    pub ends: [Card; 2],
    /// The arrangements of each hand's free cards.
    pub arrangements: [u64; 2],
}

impl Composition {
    /// Its positions: every arrangement of one hand with every arrangement of the other.
    pub fn positions(&self) -> u64 {
        self.arrangements[0].saturating_mul(self.arrangements[1])
    }

    /// Hand `p` whose free cards are the arrangement of rank `rank`.
    fn hand(&self, p: usize, rank: u64) -> Vec<Card> {
        let counts = self.free[p].map(u32::from);
        let mut h = unrank(&counts, u128::from(rank)).expect("a rank within the arrangements");
        close(&mut h, self.ends[p]);
        h
    }

    /// How many cards hand `p` holds.
    fn len(&self, p: usize) -> usize {
        self.free[p].iter().map(|&c| c as usize).sum::<usize>() + 1 + self.ends[p] as usize
    }

    /// `13/17 J2.Q0.K0 end J / J0.Q2.K1 end K`: the hands' sizes, each hand's free faces by
    /// kind and its last face card.
    pub fn label(&self) -> String {
        let side = |p: usize| {
            let faces: Vec<String> = (1..KINDS)
                .filter(|&k| self.free.iter().any(|f| f[k] > 0) || self.ends.contains(&(k as u8)))
                .map(|k| format!("{}{}", DASH_SYMBOLS[k], self.free[p][k]))
                .collect();
            format!(
                "{} end {}",
                faces.join("."),
                DASH_SYMBOLS[self.ends[p] as usize]
            )
        };
        format!("{}/{} {} / {}", self.len(0), self.len(1), side(0), side(1))
    }
}

/// Appends a hand's end: its last face card `end` and the number cards it demands.
fn close(h: &mut Vec<Card>, end: Card) {
    h.push(end);
    h.extend(std::iter::repeat_n(NUMBER, end as usize));
}

/// The arrangements of `counts`, saturated at `u64::MAX`.
fn arrangements(counts: &[u8; KINDS]) -> u64 {
    multinomial(&counts.map(u32::from))
        .and_then(|n| u64::try_from(n).ok())
        .unwrap_or(u64::MAX)
}

/// Every composition of `deck` in which both hands hold a face card, smallest first (then by
/// the hands' counts, so the order is the same on every machine).
pub fn compositions(deck: DeckSpec) -> Vec<Composition> {
    let counts: [u8; KINDS] = deck.counts.map(|c| c.min(255) as u8);
    let faces: Vec<usize> = (1..KINDS).filter(|&k| counts[k] > 0).collect();
    let mut out = Vec::new();
    // Hand 1's share of each face kind, as a mixed-radix counter over the kinds present.
    let mut share = [0u8; KINDS];
    loop {
        let other: [u8; KINDS] = std::array::from_fn(|k| counts[k] - share[k]);
        for e0 in faces.iter().filter(|&&k| share[k] > 0) {
            for e1 in faces.iter().filter(|&&k| other[k] > 0) {
                let (e0, e1) = (*e0 as Card, *e1 as Card);
                // The ends' number cards come out of the deck's; hand 1 takes any share of the rest.
                let Some(numbers) = counts[0].checked_sub(e0 + e1) else {
                    continue;
                };
                for n0 in 0..=numbers {
                    let mut free = [share, other];
                    free[0][e0 as usize] -= 1;
                    free[1][e1 as usize] -= 1;
                    free[0][0] = n0;
                    free[1][0] = numbers - n0;
                    out.push(Composition {
                        arrangements: [arrangements(&free[0]), arrangements(&free[1])],
                        free,
                        ends: [e0, e1],
                    });
                }
            }
        }
        // The next share: the first kind below its count goes up, those before it back to 0.
        let Some(&k) = faces.iter().find(|&&k| share[k] < counts[k]) else {
            break;
        };
        for &j in faces.iter().take_while(|&&j| j != k) {
            share[j] = 0;
        }
        share[k] += 1;
    }
    out.sort_by_key(|c| (c.positions(), c.free, c.ends));
    out
}

/// The compositions the route runs: smallest first while their positions stay within
/// `scope.positions`; and how many the deck has.
pub fn plan(deck: DeckSpec, scope: &SplitScope) -> (Vec<Composition>, usize) {
    let all = compositions(deck);
    let listed = all.len();
    let mut sum = 0u64;
    let run = all
        .into_iter()
        .take_while(|c| {
            sum = sum.saturating_add(c.positions());
            sum <= scope.positions
        })
        .collect();
    (run, listed)
}

/// A cycle the route met: its key and period, the first position (in the route's order) that
/// reaches it, the composition that position is in, and how many positions reach it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SplitHit {
    pub key: u128,
    pub period: u64,
    pub hands: [Vec<Card>; 2],
    pub composition: usize,
    pub positions: u64,
}

impl SplitHit {
    /// The position it was met from (player 1 to move).
    pub fn position(&self) -> Position {
        Position::new(self.hands[0].clone(), self.hands[1].clone(), 0)
    }
}

/// What a part of the route found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartDone {
    pub positions: u64,
    pub non_terminating: u64,
    /// Distinct cycles, by key.
    pub hits: Vec<SplitHit>,
}

impl PartDone {
    /// Adds `later`'s counts and the cycles it met first (`self` comes first in the route's order).
    fn merge(&mut self, later: PartDone) {
        self.positions += later.positions;
        self.non_terminating += later.non_terminating;
        let mut by_key: BTreeMap<u128, SplitHit> = std::mem::take(&mut self.hits)
            .into_iter()
            .map(|h| (h.key, h))
            .collect();
        for h in later.hits {
            by_key
                .entry(h.key)
                .and_modify(|e| e.positions += h.positions)
                .or_insert(h);
        }
        self.hits = by_key.into_values().collect();
    }
}

/// The positions of `plan` in the route's order, cut at `[lo, hi)`: plays them all, each to its
/// end or its cycle, in the lanes where the processor has them (`lanes`), else one by one.
fn run_span(plan: &[Composition], lo: u64, hi: u64, lanes: bool) -> PartDone {
    let mut done = PartDone::default();
    let mut hits: BTreeMap<u128, SplitHit> = BTreeMap::new();
    let mut batch = if lanes { Batch::new() } else { None };
    let mut start = 0u64;
    for (i, c) in plan.iter().enumerate() {
        let n = c.positions();
        let (a, b) = (lo.max(start), hi.min(start + n));
        start += n;
        if a >= b {
            continue;
        }
        let (r0, r1) = (a - (start - n), b - (start - n));
        let per = c.arrangements[1];
        let (mut h0, mut h1) = (c.hand(0, r0 / per), c.hand(1, r0 % per));
        let (f0, f1) = (
            h0.len() - 1 - c.ends[0] as usize,
            h1.len() - 1 - c.ends[1] as usize,
        );
        // The payload names the position: hand 1's length, then both hands.
        let mut item: Vec<Card> = Vec::with_capacity(1 + h0.len() + h1.len());
        let mut long = |item: &[Card]| {
            let (h0, h1) = item[1..].split_at(item[0] as usize);
            let pos = Position::new(h0.to_vec(), h1.to_vec(), 0);
            if let Outcome::Cycle(cy) = crate::engine::play(&pos) {
                done.non_terminating += 1;
                let key = cy.cycle_id.pack().expect("at most 64 cards");
                hits.entry(key)
                    .and_modify(|h| h.positions += 1)
                    .or_insert(SplitHit {
                        key,
                        period: cy.period,
                        hands: [h0.to_vec(), h1.to_vec()],
                        composition: i,
                        positions: 1,
                    });
            }
        };
        for _ in r0..r1 {
            let g = Game::<u64>::from_hands(&h0, &h1, 0);
            item.clear();
            item.push(h0.len() as Card);
            item.extend_from_slice(&h0);
            item.extend_from_slice(&h1);
            if let Some(bt) = batch.as_mut() {
                // A full batch is played at once.
                if bt.push(g, &item) {
                    bt.flush(|_, it| long(it));
                }
            } else if !cycle::terminates(&g) {
                // One by one: only the games that never end are played again for their cycle.
                long(&item);
            }
            // Hand 2's free cards step first; when they wrap, hand 1's step.
            if !next_arrangement(&mut h1[..f1]) {
                next_arrangement(&mut h0[..f0]);
            }
        }
        // Flushed before the next composition, whose index the hits carry.
        if let Some(bt) = batch.as_mut() {
            bt.flush(|_, it| long(it));
        }
        done.positions += r1 - r0;
    }
    done.hits = hits.into_values().collect();
    done
}

/// How many positions one parallel chunk of a part plays (about a second's work).
const CHUNK: u64 = 1 << 20;

/// The total positions of `plan`.
pub fn total(plan: &[Composition]) -> u64 {
    plan.iter().map(|c| c.positions()).sum()
}

/// The positions of part `part` of `parts` (contiguous in the route's order).
pub fn part_span(plan: &[Composition], part: usize, parts: usize) -> (u64, u64) {
    let t = u128::from(total(plan));
    let at = |p: usize| (t * p as u128 / parts as u128) as u64;
    (at(part), at(part + 1))
}

/// Part `part` of `parts` on the current pool, in chunks merged in order (the first position
/// reaching each cycle is the same for any thread count); `progress` gets each chunk's positions.
pub fn run_part(
    plan: &[Composition],
    part: usize,
    parts: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> PartDone {
    let (lo, hi) = part_span(plan, part, parts);
    let chunks: Vec<(u64, u64)> = (lo..hi)
        .step_by(CHUNK as usize)
        .map(|a| (a, (a + CHUNK).min(hi)))
        .collect();
    let done: Vec<PartDone> = chunks
        .par_iter()
        .map(|&(a, b)| {
            let d = run_span(plan, a, b, true);
            progress(b - a);
            d
        })
        .collect();
    let mut all = PartDone::default();
    for d in done {
        all.merge(d);
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every position with player 1 to move whose hands both end with a face card and the number
    /// cards it demands is in exactly one composition, and each composition's positions are all
    /// distinct and of the deck: the compositions count them, checked on a small deck by
    /// playing through every arrangement.
    #[test]
    fn compositions_cover_each_position_once() {
        let deck: DeckSpec = "3-1J1Q1K".parse().unwrap();
        let all = compositions(deck);
        let mut seen = std::collections::BTreeSet::new();
        for c in &all {
            for r in 0..c.positions() {
                let h = (
                    c.hand(0, r / c.arrangements[1]),
                    c.hand(1, r % c.arrangements[1]),
                );
                let p = Position::new(h.0.clone(), h.1.clone(), 0);
                assert_eq!(p.deck(), deck);
                assert!(seen.insert(p.to_string()), "{p} twice");
            }
        }
        // By hand: a split of the 6 cards into two non-empty hands, each ending with a face card
        // followed by as many number cards as it demands.
        let mut expect = 0;
        let mut cards: Vec<Card> = vec![0, 0, 0, 1, 2, 3];
        loop {
            for split in 1..cards.len() {
                let ok = |h: &[Card]| match h.iter().rposition(|&c| c != NUMBER) {
                    Some(i) => h.len() - 1 - i == h[i] as usize,
                    None => false,
                };
                if ok(&cards[..split]) && ok(&cards[split..]) {
                    expect += 1;
                }
            }
            if !next_arrangement(&mut cards) {
                break;
            }
        }
        assert_eq!(seen.len(), expect);
        let sizes: Vec<u64> = all.iter().map(|c| c.positions()).collect();
        assert!(sizes.is_sorted(), "smallest first");
    }

    /// The route's parts, in the lanes, add up to one run over the plan one game at a time.
    #[test]
    fn parts_add_up_to_the_whole_plan() {
        // Source: results/census/table1.jsonl: 8-2J2Q2K has four classes of cycles.
        let deck: DeckSpec = "8-2J2Q2K".parse().unwrap();
        let (plan, _) = plan(deck, &SplitScope { positions: 400_000 });
        let whole = run_span(&plan, 0, total(&plan), false);
        let mut parts = PartDone::default();
        for p in 0..5 {
            parts.merge(run_part(&plan, p, 5, &|_| {}));
        }
        // The parts ran in the lanes where there are any: the same answer as one by one.
        assert_eq!(parts, whole);
        assert!(!whole.hits.is_empty(), "the small deck's cycles are met");
        assert_eq!(whole.positions, total(&plan));
        // Every cycle met is met from a position that really reaches it.
        for h in &whole.hits {
            match crate::engine::reference::play(&h.position()) {
                Outcome::Cycle(c) => assert_eq!(c.cycle_id.pack(), Some(h.key)),
                Outcome::Terminates { .. } => panic!("{} ends", h.position()),
            }
        }
    }
}
