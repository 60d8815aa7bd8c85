//! Assembly (Casella's Ansatz §5–6): decks built from library pieces, each followed by the template's
//! separator, tested with the fast engine; the distinct cycles they reach, and (through backward play)
//! the balanced deals of each cycle's family.
//!
//! The work is a list of *units* (one ordered tuple of piece patterns each, with every face
//! assignment); units run in parallel and their results merge in unit order, so the answer does not
//! depend on the thread count, and a run can resume from its finished units.

pub mod candidates;
pub mod catalogue;
mod error;
pub mod records;
pub mod rest;

pub use error::PlanError;

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::engine::Outcome;
use crate::engine::cycle::play_state;
use crate::engine::game::Game;
use crate::engine::lanes::Batch;
use candidates::{Frame, Pattern, build_hand1, first_assignment, next_permutation};

/// A cycle met while testing decks: the first deck (in enumeration order) that reaches it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CycleHit {
    /// Packed id (`Position::pack` of the cycle's smallest position).
    pub cycle_key: u128,
    pub period: u64,
    /// Player 1's hand of the first deck reaching the cycle (player 2 holds the frame's other hand).
    pub deck: Vec<Card>,
    /// How many tested decks reach this cycle.
    pub decks: u64,
}

/// The result of one unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitDone {
    pub index: u32,
    pub decks: u64,
    pub non_terminating: u64,
    /// Distinct cycles of the unit, by key.
    pub cycles: Vec<CycleHit>,
    /// Every non-terminating deck (player 1's hand), when asked for.
    pub non_terminating_decks: Vec<Vec<Card>>,
}

/// How the pieces' face cards are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Faces {
    /// Every assignment of face kinds to the face slots of each tuple of piece *shapes* (face
    /// swaps of every kind): every deck the shapes can make. The default for small libraries.
    #[default]
    Assign,
    /// The library's pieces as they are (their own face kinds), in every order.
    Members,
}

/// One unit of work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unit {
    /// `Faces::Assign`: one ordered tuple of pattern indices, with every face assignment; with a
    /// required piece, that piece goes in at position `at` (its face cards as they are).
    Tuple { tuple: Vec<u32>, at: Option<u8> },
    /// `Faces::Members`: every deck whose first piece is this one.
    First(u32),
    /// Around a required piece ([`rest`]): one range of the arrangements of the rest of the deck,
    /// for one assignment of the piece's wildcards.
    Rest { assignment: u32, range: u32 },
}

/// The enumeration: the frame, the piece shapes or members, and the units.
#[derive(Clone, Debug)]
pub struct Plan {
    pub frame: Frame,
    pub faces: Faces,
    pub k: usize,
    /// Cards of each kind the pieces share.
    pub budget: [u32; crate::card::KINDS],
    /// Distinct piece shapes (`Faces::Assign`).
    pub patterns: Vec<Pattern>,
    /// A piece every deck holds (with its own face cards), if asked for.
    pub required: Option<Vec<Card>>,
    /// Face cards of each kind left for the other pieces' face slots.
    pub assign_budget: [u32; crate::card::KINDS],
    /// Distinct usable pieces, sorted (`Faces::Members`).
    pub members: Vec<Vec<Card>>,
    /// Members by count key.
    buckets: Vec<Vec<u32>>,
    pub units: Vec<Unit>,
    /// Decks of each unit.
    pub unit_decks: Vec<u64>,
    /// The decks around one required piece, when the rest of the deck is enumerated.
    pub rest: Option<rest::Rest>,
}

/// Mixed-radix index of a count vector `c <= budget` (one digit per kind).
fn count_key(c: &[u32; crate::card::KINDS], budget: &[u32; crate::card::KINDS]) -> Option<usize> {
    let mut key = 0usize;
    for kind in 0..crate::card::KINDS {
        if c[kind] > budget[kind] {
            return None;
        }
        key = key * (budget[kind] as usize + 1) + c[kind] as usize;
    }
    Some(key)
}

impl Plan {
    pub fn new(
        frame: Frame,
        pieces: &[Vec<Card>],
        k: usize,
        faces: Faces,
        required: Option<Vec<Card>>,
    ) -> Result<Plan, PlanError> {
        if frame.deck.total() > crate::position::PACK_MAX_CARDS {
            return Err(PlanError::DeckTooLarge(frame.deck.total()));
        }
        let budget = frame
            .budget(k)
            .ok_or_else(|| PlanError::FrameDoesNotFit(frame.deck.to_string()))?;
        // Pieces holding cards the frame reserves (e.g. a Jack in a jack-template piece) cannot be used.
        let mut usable: Vec<Vec<Card>> = pieces
            .iter()
            .filter(|p| p.iter().all(|&c| c == 0 || frame.face_kinds.contains(&c)))
            .cloned()
            .collect();
        usable.sort_by(|a, b| a.len().cmp(&b.len()).then(a.cmp(b)));
        usable.dedup();
        let mut plan = Plan {
            frame,
            faces,
            k,
            budget,
            required: required.clone(),
            assign_budget: budget,
            patterns: Vec::new(),
            members: Vec::new(),
            buckets: Vec::new(),
            units: Vec::new(),
            unit_decks: Vec::new(),
            rest: None,
        };
        match faces {
            Faces::Assign => {
                plan.patterns = candidates::patterns(&usable);
                let free = match &required {
                    None => k,
                    Some(r) => {
                        let c = crate::card::DeckSpec::of_cards(r).counts;
                        for kind in 0..crate::card::KINDS {
                            plan.assign_budget[kind] =
                                budget[kind].checked_sub(c[kind]).ok_or_else(|| {
                                    PlanError::RequiredDoesNotFit(crate::notation::format_hand(r))
                                })?;
                        }
                        k - 1
                    }
                };
                let tuples = candidates::tuples(&plan.patterns, free, &plan.assign_budget);
                let n_faces: u64 = plan.assign_budget[1..].iter().map(|&c| c as u64).sum();
                let mut per = factorial(n_faces);
                for &c in &plan.assign_budget[1..] {
                    per /= factorial(c as u64);
                }
                for tuple in tuples {
                    match required {
                        None => plan.units.push(Unit::Tuple { tuple, at: None }),
                        Some(_) => plan.units.extend((0..k as u8).map(|at| Unit::Tuple {
                            tuple: tuple.clone(),
                            at: Some(at),
                        })),
                    }
                }
                plan.unit_decks = vec![per; plan.units.len()];
            }
            Faces::Members => {
                if required.is_some() {
                    return Err(PlanError::RequiredWithMembers);
                }
                let size: usize = budget.iter().map(|&c| c as usize + 1).product();
                plan.buckets = vec![Vec::new(); size];
                for p in usable {
                    let counts = crate::card::DeckSpec::of_cards(&p).counts;
                    if let Some(key) = count_key(&counts, &budget) {
                        plan.buckets[key].push(plan.members.len() as u32);
                        plan.members.push(p);
                    }
                }
                // ways[j][key]: ordered j-tuples of members whose counts sum to the vector `key`.
                let hist: Vec<u64> = plan.buckets.iter().map(|b| b.len() as u64).collect();
                let mut ways = hist.clone();
                for _ in 2..k {
                    ways = plan.convolve(&ways, &hist);
                }
                for (i, p) in plan.members.iter().enumerate() {
                    let decks = if k == 1 {
                        u64::from(crate::card::DeckSpec::of_cards(p).counts == budget)
                    } else {
                        let mut rest = budget;
                        let c = crate::card::DeckSpec::of_cards(p).counts;
                        for kind in 0..crate::card::KINDS {
                            rest[kind] -= c[kind];
                        }
                        count_key(&rest, &budget).map_or(0, |key| ways[key])
                    };
                    if decks > 0 {
                        plan.units.push(Unit::First(i as u32));
                        plan.unit_decks.push(decks);
                    }
                }
            }
        }
        Ok(plan)
    }

    /// Every deck of `k` pieces that holds `shape` (its wildcards filled in every way), with the
    /// rest of the deck in every arrangement ([`rest`]); about `units` units of work.
    pub fn around(
        frame: Frame,
        k: usize,
        shape: rest::Shape,
        units: u64,
    ) -> Result<Plan, PlanError> {
        if frame.deck.total() > crate::position::PACK_MAX_CARDS {
            return Err(PlanError::DeckTooLarge(frame.deck.total()));
        }
        let r = rest::Rest::new(frame.clone(), k, shape, units)?;
        let budget = frame.budget(k).expect("checked by Rest::new");
        let mut plan = Plan {
            frame,
            faces: Faces::Assign,
            k,
            budget,
            patterns: Vec::new(),
            required: None,
            assign_budget: budget,
            members: Vec::new(),
            buckets: Vec::new(),
            units: Vec::new(),
            unit_decks: Vec::new(),
            rest: None,
        };
        for a in 0..r.assignments.len() {
            let e = r.enumerator(a);
            for range in 0..e.ranges() {
                plan.units.push(Unit::Rest {
                    assignment: a as u32,
                    range: range as u32,
                });
                plan.unit_decks.push(e.range_candidates(range));
            }
        }
        plan.rest = Some(r);
        Ok(plan)
    }

    /// Convolution of two count histograms over vectors `<= budget`.
    fn convolve(&self, a: &[u64], b: &[u64]) -> Vec<u64> {
        let dims: Vec<usize> = self.budget.iter().map(|&c| c as usize + 1).collect();
        let decode = |mut key: usize| {
            let mut v = [0u32; crate::card::KINDS];
            for kind in (0..crate::card::KINDS).rev() {
                v[kind] = (key % dims[kind]) as u32;
                key /= dims[kind];
            }
            v
        };
        let mut out = vec![0u64; a.len()];
        for (ka, &wa) in a.iter().enumerate().filter(|(_, w)| **w > 0) {
            let va = decode(ka);
            for (kb, &wb) in b.iter().enumerate().filter(|(_, w)| **w > 0) {
                let vb = decode(kb);
                let sum: [u32; crate::card::KINDS] = std::array::from_fn(|i| va[i] + vb[i]);
                if let Some(key) = count_key(&sum, &self.budget) {
                    out[key] += wa * wb;
                }
            }
        }
        out
    }

    pub fn units(&self) -> usize {
        self.units.len()
    }

    pub fn total_decks(&self) -> u64 {
        self.unit_decks.iter().sum()
    }

    /// Units a run of at most `limit_decks` decks takes.
    pub fn units_within(&self, limit_decks: u64) -> usize {
        let mut acc = 0u64;
        self.unit_decks
            .iter()
            .take_while(|&&d| {
                let inside = acc < limit_decks;
                acc += d;
                inside
            })
            .count()
    }

    /// Tests every deck of unit `index`, at most `limit` of them (in enumeration order).
    pub fn run_unit(&self, index: u32, limit: u64, keep_decks: bool) -> UnitDone {
        let mut tester = Tester {
            frame: &self.frame,
            limit,
            keep_decks,
            cycles: BTreeMap::new(),
            done: UnitDone {
                index,
                decks: 0,
                non_terminating: 0,
                cycles: Vec::new(),
                non_terminating_decks: Vec::new(),
            },
            batch: Batch::new(),
        };
        let mut hand1: Vec<Card> = Vec::with_capacity(64);
        match &self.units[index as usize] {
            Unit::Tuple { tuple, at } => {
                let mut assignment = first_assignment(&self.assign_budget);
                let placed = at.map(|at| (at as usize, self.required.as_deref().unwrap_or(&[])));
                loop {
                    // With a required piece at `at`, a deck whose earlier piece is that same piece
                    // belongs to an earlier placement: skip it, so each deck is tested once.
                    let fresh = build_hand1(
                        &self.frame,
                        &self.patterns,
                        tuple,
                        &assignment,
                        placed,
                        &mut hand1,
                    );
                    if fresh && !tester.test(&hand1) {
                        break;
                    }
                    if !next_permutation(&mut assignment) {
                        break;
                    }
                }
            }
            Unit::First(first) => {
                let mut chosen = vec![*first];
                self.members_rec(&mut chosen, &mut hand1, &mut tester);
            }
            Unit::Rest { assignment, range } => {
                // A range is played whole (its decks are counted, not visited one by one).
                let r = self
                    .rest
                    .as_ref()
                    .expect("rest units come with a rest plan");
                debug_assert!(
                    limit >= self.unit_decks[index as usize],
                    "whole ranges only"
                );
                let e = r.enumerator(*assignment as usize);
                tester.done.decks = e.range_candidates(*range as usize);
                for rest in e.run_range(*range as usize) {
                    hand1.clear();
                    hand1.extend_from_slice(&rest);
                    hand1.extend_from_slice(&e.template().after);
                    tester.record(&hand1);
                }
            }
        }
        tester.finish()
    }

    /// Completes `chosen` to `k` members in every way that fills the budget, testing each deck.
    /// Returns false once the unit's limit is reached.
    fn members_rec(&self, chosen: &mut Vec<u32>, hand1: &mut Vec<Card>, t: &mut Tester) -> bool {
        let mut rest = self.budget;
        for &m in chosen.iter() {
            let c = crate::card::DeckSpec::of_cards(&self.members[m as usize]).counts;
            for kind in 0..crate::card::KINDS {
                match rest[kind].checked_sub(c[kind]) {
                    Some(r) => rest[kind] = r,
                    None => return true,
                }
            }
        }
        let last: Vec<u32> = if chosen.len() + 1 == self.k {
            match count_key(&rest, &self.budget) {
                Some(key) => self.buckets[key].clone(),
                None => return true,
            }
        } else if chosen.len() == self.k {
            Vec::new()
        } else {
            // A middle piece: any member; the next level drops those that overfill the budget.
            (0..self.members.len() as u32).collect()
        };
        if chosen.len() == self.k {
            hand1.clear();
            for &m in chosen.iter() {
                hand1.extend_from_slice(&self.members[m as usize]);
                hand1.push(self.frame.separator);
            }
            hand1.extend_from_slice(&self.frame.tail);
            return t.test(hand1);
        }
        for m in last {
            chosen.push(m);
            let go_on = self.members_rec(chosen, hand1, t);
            chosen.pop();
            if !go_on {
                return false;
            }
        }
        true
    }

    /// Runs the units not in `done` on the current rayon pool (at most `limit_decks` decks in all,
    /// counted in enumeration order); `on_done` sees each finished unit (to checkpoint it). Units
    /// not yet started when `stop` returns true are skipped: the result is then incomplete.
    /// `stop` is asked exactly once per unit, just before it would start (so it may count).
    pub fn run(
        &self,
        done: &[UnitDone],
        limit_decks: u64,
        keep_decks: bool,
        on_done: &(dyn Fn(&UnitDone) + Sync),
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Vec<UnitDone> {
        self.run_some(done, limit_decks, keep_decks, &|_| true, on_done, stop)
    }

    /// Each unit with its deck limit under a run limit of `limit_decks` (counted in enumeration
    /// order); units past the limit are left out.
    pub fn unit_limits(&self, limit_decks: u64) -> Vec<(u32, u64)> {
        let mut before = 0u64;
        (0..self.units() as u32)
            .map(|i| {
                let size = self.unit_decks[i as usize];
                let lim = limit_decks.saturating_sub(before).min(size);
                before += size;
                (i, lim)
            })
            .filter(|&(_, lim)| lim > 0)
            .collect()
    }

    /// [`Plan::run`] over the units `owns` accepts only (a shard of the run, see `run::shard`).
    pub fn run_some(
        &self,
        done: &[UnitDone],
        limit_decks: u64,
        keep_decks: bool,
        owns: &(dyn Fn(u32) -> bool + Sync),
        on_done: &(dyn Fn(&UnitDone) + Sync),
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Vec<UnitDone> {
        let finished: std::collections::HashSet<u32> = done.iter().map(|u| u.index).collect();
        let todo: Vec<(u32, u64)> = self
            .unit_limits(limit_decks)
            .into_iter()
            .filter(|&(i, _)| owns(i) && !finished.contains(&i))
            .collect();
        let mut out: Vec<UnitDone> = todo
            .par_iter()
            .with_max_len(1)
            .filter_map(|&(i, lim)| {
                if stop() {
                    return None;
                }
                let u = self.run_unit(i, lim, keep_decks);
                on_done(&u);
                Some(u)
            })
            .collect();
        out.extend(done.iter().cloned());
        out.sort_by_key(|u| u.index);
        out
    }
}

/// Tests decks of one unit and collects its cycles.
struct Tester<'a> {
    frame: &'a Frame,
    limit: u64,
    keep_decks: bool,
    cycles: BTreeMap<u128, CycleHit>,
    done: UnitDone,
    /// With AVX-512, decks wait here for the 64-card lanes, and only those still going after the
    /// lanes' trick limit are played by the cycle engine (in the order they came, so each cycle
    /// still keeps the first deck that reached it).
    batch: Option<Batch>,
}

impl Tester<'_> {
    /// Tests one deck; false once the unit's limit is reached.
    fn test(&mut self, hand1: &[Card]) -> bool {
        if self.done.decks >= self.limit {
            return false;
        }
        self.done.decks += 1;
        self.record(hand1);
        self.done.decks < self.limit
    }

    /// Plays a deck, now or in a batch; records it (and its cycle) when it never ends.
    fn record(&mut self, hand1: &[Card]) {
        let Some(batch) = &mut self.batch else {
            return self.play(hand1);
        };
        let mut deal = Game::<u64> {
            next: u32::from(self.frame.to_move),
            ..Game::default()
        };
        deal.set_hand_slice(0, hand1);
        deal.set_hand_slice(1, &self.frame.other);
        if batch.push(deal, hand1) {
            self.flush();
        }
    }

    /// Plays the decks waiting in the batch.
    fn flush(&mut self) {
        if let Some(mut batch) = self.batch.take() {
            batch.flush(|_, hand1| self.play(hand1));
            self.batch = Some(batch);
        }
    }

    /// Plays a deck with the cycle engine; records it (and its cycle) when it never ends.
    fn play(&mut self, hand1: &[Card]) {
        let state = Game::<u64>::from_hands(hand1, &self.frame.other, self.frame.to_move);
        if let Outcome::Cycle(c) = play_state(&state) {
            self.done.non_terminating += 1;
            let key = c.cycle_id.pack().expect("decks of at most 52 cards");
            self.cycles
                .entry(key)
                .and_modify(|h| h.decks += 1)
                .or_insert_with(|| CycleHit {
                    cycle_key: key,
                    period: c.period,
                    deck: hand1.to_vec(),
                    decks: 1,
                });
            if self.keep_decks {
                self.done.non_terminating_decks.push(hand1.to_vec());
            }
        }
    }

    fn finish(mut self) -> UnitDone {
        self.flush();
        self.done.cycles = self.cycles.into_values().collect();
        self.done
    }
}

fn factorial(n: u64) -> u64 {
    (1..=n).product::<u64>().max(1)
}

/// Totals and distinct cycles over finished units, merged in unit order: each cycle keeps the first
/// deck of the first unit that reached it, so the result is the same for any thread count.
#[derive(Clone, Debug, Default)]
pub struct Merged {
    pub decks: u64,
    pub non_terminating: u64,
    pub cycles: BTreeMap<u128, CycleHit>,
}

pub fn merge(units: &[UnitDone]) -> Merged {
    let mut m = Merged::default();
    let mut sorted: Vec<&UnitDone> = units.iter().collect();
    sorted.sort_by_key(|u| u.index);
    for u in sorted {
        m.decks += u.decks;
        m.non_terminating += u.non_terminating;
        for c in &u.cycles {
            m.cycles
                .entry(c.cycle_key)
                .and_modify(|h| h.decks += c.decks)
                .or_insert_with(|| c.clone());
        }
    }
    m
}
