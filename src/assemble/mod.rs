//! Assembly (Casella's Ansatz §5–6): decks built from library pieces, each followed by the template's
//! separator, tested with the fast engine; the distinct cycles they reach, and (through backward play)
//! the balanced deals of each cycle's family.
//!
//! The work is a list of *units* (one ordered tuple of piece patterns each, with every face
//! assignment); units run in parallel and their results merge in unit order, so the answer does not
//! depend on the thread count, and a run can resume from its finished units.

pub mod candidates;

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::engine::Outcome;
use crate::engine::bits::BitState;
use crate::engine::cycle::play_state;
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

/// The enumeration: the frame, the distinct patterns and the tuples (one unit each).
#[derive(Clone, Debug)]
pub struct Plan {
    pub frame: Frame,
    pub patterns: Vec<Pattern>,
    pub tuples: Vec<Vec<u32>>,
    /// Face cards of each kind the pieces share.
    pub budget: [u32; crate::card::KINDS],
    /// Decks per unit (all face assignments of one tuple).
    pub decks_per_unit: u64,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PlanError {
    #[error("the frame (separators, tail, other hand) does not fit deck {0}")]
    FrameDoesNotFit(String),
    #[error("assembly needs a deck of at most 52 cards, not {0}")]
    DeckTooLarge(usize),
}

impl Plan {
    pub fn new(frame: Frame, pieces: &[Vec<Card>], k: usize) -> Result<Plan, PlanError> {
        if frame.deck.total() > crate::position::PACK_MAX_CARDS {
            return Err(PlanError::DeckTooLarge(frame.deck.total()));
        }
        let budget = frame
            .budget(k)
            .ok_or_else(|| PlanError::FrameDoesNotFit(frame.deck.to_string()))?;
        // Pieces holding cards the frame reserves (e.g. a Jack in a jack-template piece) cannot be used.
        let usable: Vec<Vec<Card>> = pieces
            .iter()
            .filter(|p| p.iter().all(|&c| c == 0 || frame.face_kinds.contains(&c)))
            .cloned()
            .collect();
        let patterns = candidates::patterns(&usable);
        let tuples = candidates::tuples(&patterns, k, &budget);
        let faces: u64 = budget[1..].iter().map(|&c| c as u64).sum();
        let mut decks_per_unit = factorial(faces);
        for &c in &budget[1..] {
            decks_per_unit /= factorial(c as u64);
        }
        Ok(Plan {
            frame,
            patterns,
            tuples,
            budget,
            decks_per_unit,
        })
    }

    /// Units a run of at most `limit_decks` decks takes.
    pub fn units_within(&self, limit_decks: u64) -> usize {
        (0..self.units() as u64)
            .take_while(|&i| i * self.decks_per_unit < limit_decks)
            .count()
    }

    pub fn units(&self) -> usize {
        self.tuples.len()
    }

    pub fn total_decks(&self) -> u64 {
        self.decks_per_unit * self.units() as u64
    }

    /// Tests every deck of unit `index`, at most `limit` of them (in enumeration order).
    pub fn run_unit(&self, index: u32, limit: u64, keep_decks: bool) -> UnitDone {
        let tuple = &self.tuples[index as usize];
        let mut assignment = first_assignment(&self.budget);
        let mut hand1: Vec<Card> = Vec::with_capacity(64);
        let mut cycles: BTreeMap<u128, CycleHit> = BTreeMap::new();
        let mut done = UnitDone {
            index,
            decks: 0,
            non_terminating: 0,
            cycles: Vec::new(),
            non_terminating_decks: Vec::new(),
        };
        loop {
            if done.decks >= limit {
                break;
            }
            build_hand1(&self.frame, &self.patterns, tuple, &assignment, &mut hand1);
            let state = BitState::from_hands(&hand1, &self.frame.other, self.frame.to_move);
            done.decks += 1;
            if let Outcome::Cycle(c) = play_state(&state) {
                done.non_terminating += 1;
                let key = c.cycle_id.pack().expect("decks of at most 52 cards");
                cycles
                    .entry(key)
                    .and_modify(|h| h.decks += 1)
                    .or_insert_with(|| CycleHit {
                        cycle_key: key,
                        period: c.period,
                        deck: hand1.clone(),
                        decks: 1,
                    });
                if keep_decks {
                    done.non_terminating_decks.push(hand1.clone());
                }
            }
            if !next_permutation(&mut assignment) {
                break;
            }
        }
        done.cycles = cycles.into_values().collect();
        done
    }

    /// Runs the units not in `done` on the current rayon pool (at most `limit_decks` decks in all,
    /// counted in enumeration order); `on_done` sees each finished unit (to checkpoint it). Units
    /// not yet started when `stop` returns true are skipped: the result is then incomplete.
    pub fn run(
        &self,
        done: &[UnitDone],
        limit_decks: u64,
        keep_decks: bool,
        on_done: &(dyn Fn(&UnitDone) + Sync),
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Vec<UnitDone> {
        let finished: std::collections::HashSet<u32> = done.iter().map(|u| u.index).collect();
        let todo: Vec<(u32, u64)> = (0..self.units() as u32)
            .map(|i| {
                let before = i as u64 * self.decks_per_unit;
                (
                    i,
                    limit_decks.saturating_sub(before).min(self.decks_per_unit),
                )
            })
            .filter(|&(i, lim)| lim > 0 && !finished.contains(&i))
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
