//! Cycle families: play a position to its cycle, then take the backward closure of the cycle's
//! positions: every position whose game reaches that cycle, and the balanced deals among them.

use std::time::Instant;

use thiserror::Error;

use super::closure::{self, Closure, Config, Node, Seed};
use super::compact::{COMPACT_MAX_CARDS, Compact};
use super::level_checkpoint::LevelState;
use crate::engine::game::Game;
use crate::engine::trick::Step;
use crate::engine::{CycleInfo, Outcome};
use crate::position::{PACK_MAX_CARDS, Position};

/// Why a family cannot be built.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum FamilyError {
    /// The game ends, so there is no cycle to take the family of. `winner` is 0-based.
    #[error("terminates after {tricks} tricks: no cycle")]
    Terminates { winner: u8, tricks: u64, cards: u64 },
    #[error("position holds {0} cards; backward play handles at most {COMPACT_MAX_CARDS}")]
    TooManyCards(usize),
    #[error("position holds {0} cards; the visited set's u128 key holds at most {PACK_MAX_CARDS}")]
    TooManyCardsForKey(usize),
    /// Closure parts read from files that hold no position, not even the cycle's own.
    #[error("the closure's parts hold no position, not even the cycle's")]
    EmptyClosure,
}

/// A cycle and its backward closure.
#[derive(Clone, Debug)]
pub struct Family {
    pub cycle: CycleInfo,
    /// Distinct positions (hands and player to move) whose game reaches the cycle, the cycle's own
    /// positions included.
    pub closure_size: u64,
    /// Every balanced position of the closure, sorted by its string.
    pub balanced: Vec<Position>,
    /// The most cards the smaller hand holds in any position of the closure: half the deck when
    /// there are balanced deals, and otherwise how close to balance the family comes.
    pub reach: u8,
    /// The most tricks any position of the closure stands before the cycle.
    pub max_depth: u64,
    /// A position at `max_depth` (the smallest in cycle-id order).
    pub deepest: Position,
    /// False when `max_positions` stopped the search: the counts are then partial.
    pub complete: bool,
    /// Positions met twice; counted only with `Config::visited_set`, and always 0.
    pub duplicates: u64,
    /// Wall time of the closure search alone.
    pub seconds: f64,
}

impl Family {
    pub fn positions_per_second(&self) -> f64 {
        self.closure_size as f64 / self.seconds.max(1e-9)
    }
}

/// Plays `pos` forward to its cycle and returns the cycle's family.
pub fn family(
    pos: &Position,
    cfg: &Config,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Family, FamilyError> {
    cycle_of(pos, cfg).map(|info| family_of_cycle(info, cfg, progress))
}

/// Plays `pos` forward to its cycle, after checking that backward play (and, with
/// `cfg.visited_set`, the packed key) can handle its size: the cycle whose family [`family`]
/// takes.
pub fn cycle_of(pos: &Position, cfg: &Config) -> Result<CycleInfo, FamilyError> {
    if pos.total() > COMPACT_MAX_CARDS {
        return Err(FamilyError::TooManyCards(pos.total()));
    }
    if cfg.visited_set && pos.total() > PACK_MAX_CARDS {
        return Err(FamilyError::TooManyCardsForKey(pos.total()));
    }
    play_to_cycle(pos)
}

/// Plays `pos` forward: its cycle, or the error that it terminates.
pub fn play_to_cycle(pos: &Position) -> Result<CycleInfo, FamilyError> {
    match crate::engine::play(pos) {
        Outcome::Terminates {
            winner,
            tricks,
            cards,
        } => Err(FamilyError::Terminates {
            winner,
            tricks,
            cards,
        }),
        Outcome::Cycle(info) => Ok(info),
    }
}

/// The positions of a cycle in play order, starting from its id.
pub fn cycle_positions(info: &CycleInfo) -> Vec<Compact> {
    let mut state = Game::<u64>::from_position(&info.cycle_id);
    let mut out = Vec::with_capacity(info.period as usize);
    for _ in 0..info.period {
        out.push(Compact::from_position(&state.to_position()).expect("checked size"));
        let step = state.trick();
        debug_assert!(matches!(step, Step::Next { .. }), "a cycle does not end");
    }
    out
}

/// The seeds of a cycle's closure: each position of `cycle` (in play order), at distance 0, with
/// its predecessor on the cycle to skip.
pub fn cycle_seeds(cycle: &[Compact]) -> Vec<Seed> {
    let k = cycle.len();
    (0..k)
        .map(|i| Seed {
            node: Node {
                pos: cycle[i],
                tricks: 0,
                cards: 0,
            },
            skip: Some(cycle[(i + k - 1) % k]),
        })
        .collect()
}

/// The family of a cycle already found (e.g. by `assemble`); the id must hold at most 64 cards
/// (52 with `cfg.visited_set`).
/// Cheap for small closures: one pass over the cycle, then the BFS.
pub fn family_of_cycle(info: CycleInfo, cfg: &Config, progress: &(dyn Fn(u64) + Sync)) -> Family {
    let seeds = cycle_seeds(&cycle_positions(&info));
    let start = Instant::now();
    let found: Closure = closure::closure(&seeds, cfg, progress);
    let seconds = start.elapsed().as_secs_f64();
    family_from_closure(info, found, seconds)
}

/// [`family_of_cycle`] that can be saved and continued at level boundaries (no visited set): see
/// [`closure::closure_resumable`]. `None` when `on_level` stopped it.
pub fn family_of_cycle_resumable(
    info: CycleInfo,
    cfg: &Config,
    progress: &(dyn Fn(u64) + Sync),
    from: Option<LevelState>,
    on_level: &mut dyn FnMut(&Closure, &[Node]) -> bool,
) -> Option<Family> {
    let seeds = cycle_seeds(&cycle_positions(&info));
    let start = Instant::now();
    let found = closure::closure_resumable(&seeds, cfg, progress, from, on_level)?;
    let seconds = start.elapsed().as_secs_f64();
    Some(family_from_closure(info, found, seconds))
}

/// The family of a cycle from its closure (however the closure was computed, e.g. on a cluster
/// by `run::closure`); `seconds` is the closure search's wall time.
pub fn family_from_closure(info: CycleInfo, found: Closure, seconds: f64) -> Family {
    let mut balanced: Vec<(String, Position)> = found
        .balanced
        .iter()
        .map(|n| {
            let p = n.pos.to_position();
            (p.to_string(), p)
        })
        .collect();
    balanced.sort_by(|a, b| a.0.cmp(&b.0));
    let deepest = found.deepest.expect("a cycle has positions");
    Family {
        cycle: info,
        closure_size: found.size,
        balanced: balanced.into_iter().map(|(_, p)| p).collect(),
        reach: found.reach,
        max_depth: found.max_depth as u64,
        deepest: deepest.pos.to_position(),
        complete: found.complete,
        duplicates: found.duplicates,
        seconds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;

    /// A small family's size and depth, and the rate it reports: its positions over its seconds
    /// (a closure too quick to time still gives a finite rate).
    #[test]
    fn a_small_family_and_its_rate() {
        let pos = Position::parse("J--/-J-", Notation::Dash).unwrap();
        let mut f = family(&pos, &Config::default(), &|_| {}).unwrap();
        // `J--/-J-` plays one trick before its cycle: a family one level deep (`ansatz family`).
        assert_eq!((f.closure_size, f.max_depth), (6, 1));
        f.seconds = 4.0;
        assert_eq!(f.positions_per_second(), f.closure_size as f64 / 4.0);
        f.seconds = 0.0;
        assert!(f.positions_per_second().is_finite());
    }
}
