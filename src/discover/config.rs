//! A validated discovery ([`Config`]): its deck, scope and options, the checkpoint's
//! fingerprint that names the run, and the input check every home runs first.

use super::error::DiscoverError;
use super::frame::{self, whole_frame_decks};
use super::heads;
use super::scope::Scope;
use super::whole;
use crate::card::{Card, DeckSpec, symbol};

/// A validated discovery.
#[derive(Clone, Debug)]
pub struct Config {
    pub deck: DeckSpec,
    pub scope: Scope,
    /// The frame's separator kind when not the deck's lowest face kind (`--separator`).
    pub separator: Option<Card>,
    /// The frame's ends when not the 2024 frame's (`--frame`).
    pub ends: Option<frame::Ends>,
    /// Cycles of the insertion beam that move sideways where one and two cards both fail (0:
    /// none; `--lateral`).
    pub lateral: usize,
    /// The head sweep's filter when not the one the filter stage picks (`--filter`, dash
    /// notation, checked by [`heads::check_filter`]).
    pub filter: Option<String>,
    /// Fills of more than this many arrangements are skipped (0: no fills); see
    /// [`Scope::fill_limit`].
    pub fill_limit: u64,
    /// Censuses of more than this many decks are skipped and listed (`--census-limit`; `None`:
    /// every census runs). A hand-given filter or another frame can propose shapes whose
    /// censuses run to 10^12 decks.
    pub census_limit: Option<u64>,
    /// Most positions of one family's backward closure.
    pub max_positions: u64,
    /// Stop after this many census parts (or parts of a deck played whole), as an interruption would (for testing resume).
    pub stop_after_censuses: Option<usize>,
}

impl Config {
    /// The discovery `ansatz discover [--quick]` runs on `deck` when no other option is given:
    /// both routes, the deck's own frame and filter, the scope's fill limit, every census.
    pub fn new(deck: DeckSpec, scope: Scope) -> Config {
        Config {
            deck,
            scope,
            separator: None,
            ends: None,
            lateral: 0,
            filter: None,
            fill_limit: scope.fill_limit(),
            census_limit: None,
            max_positions: DEFAULT_MAX_POSITIONS,
            stop_after_censuses: None,
        }
    }
}

impl Config {
    /// The deals of the deck when it is played whole instead of taking the routes: a deck of at
    /// most the scope's `whole_deck_limit` deals, on its own frame with both routes (a frame, a
    /// separator or a filter asked for is that route's run).
    pub fn whole_deck(&self) -> Option<u64> {
        if self.ends.is_some() || self.separator.is_some() || self.filter.is_some() {
            return None;
        }
        whole::deals_within(&self.deck, self.scope.whole_deck_limit)
    }
}

/// The most positions of one family's backward closure unless `--max-positions` says otherwise.
pub const DEFAULT_MAX_POSITIONS: u64 = 20_000_000;

impl Config {
    /// Names the run in its checkpoint: a checkpoint is resumed only by the same run.
    pub fn fingerprint(&self) -> String {
        let sep = self
            .separator
            .map_or(String::new(), |c| format!(" separator={}", symbol(c)));
        // The insertion route's steps after a dead size changed with the two-card growth: a
        // checkpoint of an insertion run from before it holds empty steps there and is refused
        // (runs without insertion keep their checkpoints).
        let growth = if self.scope.insertion.is_some() {
            " growth=two-card"
        } else {
            ""
        };
        let ends = self
            .ends
            .as_ref()
            .map_or(String::new(), |e| format!(" frame={}", e.text()));
        let filter = self
            .filter
            .as_ref()
            .map_or(String::new(), |f| format!(" filter={f}"));
        let lateral = if self.lateral > 0 && self.scope.insertion.is_some() {
            format!(" lateral={}", self.lateral)
        } else {
            String::new()
        };
        // Named only where it runs, so the checkpoints of decks too large for it keep resuming.
        let whole = self
            .whole_deck()
            .map_or(String::new(), |n| format!(" whole_deck={n}"));
        // The sweep's frames are named by their place in its order, which changed from smallest
        // first to `frame::sweep_rank`: a checkpoint of the older order is refused.
        let sweep = if self.sweeps_frames() {
            " sweep=ranked"
        } else {
            ""
        };
        format!(
            "discover v2 deck={} scope={} max_positions={}{sep}{ends}{filter}{growth}{lateral}{whole}{sweep}",
            self.deck,
            self.scope.key(),
            self.max_positions
        )
    }
}

impl Config {
    /// Whether the frame sweep runs: with the ansatz route on the deck's own frame (a frame asked
    /// for with `--frame` or `--separator` is searched alone), when the deck is not played whole.
    pub fn sweeps_frames(&self) -> bool {
        self.scope.ansatz
            && self.scope.frame_sweep > 0
            && self.ends.is_none()
            && self.separator.is_none()
            && self.whole_deck().is_none()
    }
}

impl Config {
    /// Whether the split route runs: on the deck's own frame (a frame, separator or filter asked
    /// for is the ansatz route's run), when the deck is not played whole.
    pub fn splits(&self) -> bool {
        self.scope.split.is_some()
            && self.ends.is_none()
            && self.separator.is_none()
            && self.filter.is_none()
            && self.whole_deck().is_none()
    }
}

/// Checks a discovery's input before any work: the deck has a frame, and a filter given by hand
/// fits it and has a head sweep to filter (a frame small enough to be searched whole has none).
pub fn check(config: &Config) -> Result<(), DiscoverError> {
    let df = frame::derive(config.deck, config.separator, config.ends.as_ref())?;
    if let Some(f) = &config.filter {
        heads::check_filter(&df, f)?;
        let whole = whole_frame_decks(&df);
        if !config.scope.ansatz || df.k < 2 || whole <= config.scope.whole_frame_limit {
            return Err(DiscoverError::BadFilter(
                f.clone(),
                if config.scope.ansatz {
                    format!(
                        "this frame is searched whole ({whole} arrangements), with no head sweep to filter"
                    )
                } else {
                    "the insertion route alone has no head sweep to filter".into()
                },
            ));
        }
    }
    Ok(())
}
