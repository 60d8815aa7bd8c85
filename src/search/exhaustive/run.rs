//! Running an exhaustive search in parallel and in resumable batches. Two-player decks of up to 52
//! cards take the prefix-sharing path, cut into tasks by the first cards fixed; other player counts
//! (and `naive`) play every deal, cut into ranges of multiset ranks.

use thiserror::Error;

use super::super::random::{ConfigError, check_players};
use super::naive::{deal_count, naive_split};
use super::node::MAX_CARDS;
use super::plan::{Options, Plan, TaskScratch};
use super::stats::{ExhaustiveStats, Extra};
use crate::card::DeckSpec;

/// Deals per unit of work of the naive path (a range of ranks).
pub const RANK_CHUNK: u64 = 1 << 16;
/// The prefix-sharing tree is cut into subtrees of at most 1/SPLIT_PARTS of all deals: enough tasks
/// to keep every core busy and to checkpoint often.
pub const SPLIT_PARTS: u64 = 1 << 14;

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ExhaustiveConfig {
    #[serde(with = "crate::search::checkpoint::deck_text")]
    pub deck: DeckSpec,
    /// Number of players, 2 or more (default 2).
    pub players: usize,
    /// Play every deal separately even where prefix sharing applies (the checker; slower).
    pub naive: bool,
    /// Who holds the extra card of an odd two-player deck (absent in older checkpoints: the
    /// first player).
    #[serde(default)]
    pub extra: Extra,
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum ExhaustiveError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("--extra-card 2 needs a two-player deck with an odd number of cards")]
    Extra,
    #[error("deck {deck} has {deals} distinct deals: too many to play every one")]
    TooMany { deck: String, deals: String },
}

/// How the work is cut.
pub enum Work {
    /// Prefix-sharing tasks.
    Tasks(Box<Plan>),
    /// Rank ranges of [`RANK_CHUNK`] deals.
    Ranks { deals: u64 },
}

impl ExhaustiveConfig {
    /// Validates the configuration and plans the work.
    pub fn plan(&self) -> Result<(u64, Work), ExhaustiveError> {
        check_players(&self.deck, self.players)?;
        if self.extra == Extra::Second && (self.players != 2 || self.deck.total().is_multiple_of(2))
        {
            return Err(ExhaustiveError::Extra);
        }
        let deals = deal_count(&self.deck)
            .and_then(|d| u64::try_from(d).ok())
            .ok_or_else(|| ExhaustiveError::TooMany {
                deck: self.deck.to_string(),
                deals: deal_count(&self.deck).map_or("more than 2^128".into(), |d| format!("{d}")),
            })?;
        if self.players == 2 && !self.naive && self.deck.total() <= MAX_CARDS {
            Ok((
                deals,
                Work::Tasks(Box::new(Plan::new(
                    &self.deck,
                    Options::new((deals / SPLIT_PARTS).max(1)).extra(self.extra),
                ))),
            ))
        } else {
            Ok((deals, Work::Ranks { deals }))
        }
    }
}

impl Work {
    /// Units of work (tasks or rank ranges).
    pub fn units(&self) -> u64 {
        match self {
            Work::Tasks(p) => p.tasks() as u64,
            Work::Ranks { deals } => deals.div_ceil(RANK_CHUNK),
        }
    }

    /// Counts unit `u` in `scratch` (a thread's, kept from unit to unit); `progress` gets its
    /// deals.
    pub fn run_unit(
        &self,
        cfg: &ExhaustiveConfig,
        u: u64,
        scratch: &mut TaskScratch,
        progress: &(dyn Fn(u64) + Sync),
    ) -> ExhaustiveStats {
        let s = match self {
            Work::Tasks(p) => p.run_task_in(u as usize, scratch),
            Work::Ranks { deals } => {
                let lo = u * RANK_CHUNK;
                let hi = (lo + RANK_CHUNK).min(*deals);
                naive_split(&cfg.deck, cfg.players, cfg.extra, lo as u128..hi as u128)
            }
        };
        progress(s.deals);
        s
    }
}

/// The whole search, unit by unit on the current rayon pool (see [`crate::search::ordered`]): whenever the
/// finished units form a longer prefix, `checkpoint(units_done, &stats)` may save the state.
/// `start` resumes from a saved state (which already holds the planning phase's counts). Only the
/// units `u` with `owns(u)` run; the planning phase's counts join only when `head` is set (so a
/// split run counts them once).
pub fn run<E: Send>(
    cfg: &ExhaustiveConfig,
    work: &Work,
    start: Option<(u64, ExhaustiveStats)>,
    owns: &(dyn Fn(u64) -> bool + Sync),
    head: bool,
    progress: &(dyn Fn(u64) + Sync),
    checkpoint: &mut (dyn FnMut(u64, &ExhaustiveStats) -> Result<(), E> + Send),
) -> Result<ExhaustiveStats, E> {
    let (done, stats) = match start {
        Some(s) => s,
        None => {
            let head = match work {
                Work::Tasks(p) if head => p.head.clone(),
                Work::Tasks(_) => ExhaustiveStats::new(cfg.players),
                Work::Ranks { .. } => ExhaustiveStats::new(cfg.players),
            };
            (0, head)
        }
    };
    progress(stats.deals);
    crate::search::ordered::run(
        done,
        work.units(),
        stats,
        owns,
        &TaskScratch::default,
        &|scratch, u| work.run_unit(cfg, u, scratch, progress),
        &|total, s| total.merge(s),
        checkpoint,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deck is cut into subtrees of at most 1/[`SPLIT_PARTS`] of its deals: so into at least
    /// about that many tasks (enough for every core and for frequent checkpoints), and not into
    /// many more (each task has its own cost: its scratch, its checkpoint entry).
    #[test]
    fn a_deck_is_cut_into_about_split_parts_tasks() {
        for deck in ["16-2J2Q2K2A", "20-2J2Q2K"] {
            let cfg = ExhaustiveConfig {
                deck: deck.parse().unwrap(),
                players: 2,
                naive: false,
                extra: Extra::First,
            };
            let (_, work) = cfg.plan().unwrap();
            let units = work.units();
            eprintln!("{deck}: {units} tasks");
            assert!(
                (SPLIT_PARTS / 2..=8 * SPLIT_PARTS).contains(&units),
                "{deck}: {units} tasks"
            );
        }
    }
}
