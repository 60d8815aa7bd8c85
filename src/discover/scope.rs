//! How much a discovery searches ([`Scope`], the `--quick` and default scopes) and which routes
//! it takes ([`Route`]).

use serde::{Deserialize, Serialize};

use super::heads::HeadScope;
use super::insertion::InsertScope;
use super::split::SplitScope;

/// The split route's positions with `--quick`: see [`SplitScope`].
pub const QUICK_SPLIT: u64 = 200_000_000;
/// The split route's positions in the default scope.
pub const DEFAULT_SPLIT: u64 = 2_000_000_000;

/// How much a discovery searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scope {
    pub name: &'static str,
    pub heads: HeadScope,
    /// An accumulator brings the other hand within this many cards of half the deck.
    pub accumulation_margin: u8,
    /// Decks of at most this many arrangements of the frame are searched whole instead.
    pub whole_frame_limit: u64,
    /// The insertion route, if it runs.
    pub insertion: Option<InsertScope>,
    /// Whether the ansatz route (filter, heads, censuses) runs.
    pub ansatz: bool,
    /// The frame sweep ([`super::frame::sweep`]) with the ansatz route: every other frame searched whole
    /// when it has at most `frame_sweep_limit` decks, in the order of [`super::frame::sweep_rank`] and
    /// then smallest first, while the decks of the frames run stay within this many (0: no
    /// sweep).
    pub frame_sweep: u64,
    pub frame_sweep_limit: u64,
    /// A deck of at most this many deals is played whole ([`super::whole`]) instead of taking the
    /// routes (0: never). Only when both routes run on the deck's own frame.
    pub whole_deck_limit: u64,
    /// The split route ([`super::split`]: positions by composition, smallest first), if it runs.
    pub split: Option<SplitScope>,
}

impl Scope {
    /// `--quick`: heads of at most 12 number cards either side, TEST of at most 12 cards.
    pub const QUICK: Scope = Scope {
        name: "quick",
        heads: HeadScope {
            max_around: 12,
            max_len: 12,
            max_faces: 7,
            filter_len: 13,
            filter_faces: 4,
            bare_len: 14,
            bare_faces: 7,
            bare_census_limit: 10_000_000,
        },
        accumulation_margin: 4,
        whole_frame_limit: 200_000_000,
        insertion: Some(InsertScope {
            beam: 64,
            seed_deals: 20_000_000,
        }),
        ansatz: true,
        frame_sweep: 2_000_000_000,
        frame_sweep_limit: 600_000_000,
        whole_deck_limit: 100_000_000,
        split: Some(SplitScope {
            positions: QUICK_SPLIT,
        }),
    };
    /// The default: heads of at most 16 number cards either side, TEST of at most 14 cards (the
    /// hand-run sweep of `scripts/head-sweep.sh`).
    pub const DEFAULT: Scope = Scope {
        name: "default",
        heads: HeadScope {
            max_around: 16,
            max_len: 14,
            max_faces: 7,
            filter_len: 13,
            filter_faces: 4,
            bare_len: 16,
            bare_faces: 7,
            bare_census_limit: 100_000_000,
        },
        accumulation_margin: 4,
        whole_frame_limit: 200_000_000,
        insertion: Some(InsertScope {
            beam: 256,
            seed_deals: 40_000_000,
        }),
        ansatz: true,
        frame_sweep: 10_000_000_000,
        frame_sweep_limit: 600_000_000,
        whole_deck_limit: 2_000_000_000,
        split: Some(SplitScope {
            positions: DEFAULT_SPLIT,
        }),
    };

    /// The largest fill (arrangements of its TEST) the scope runs by default: with `--quick` the
    /// fills around the four-card balance-making pieces of period-31 cycles (3·10^8 arrangements
    /// each on the standard deck), by default every fill up to 2·10^9 (about 100 s each on two
    /// cores); the four fills around the 2024 balance-making pieces (2.2·10^9 each, about 5
    /// minutes) need `--fill-limit`. The limit is not part of the checkpoint's fingerprint: a
    /// fill's steps are its own, so a resume with another limit runs the fills it now allows.
    pub fn fill_limit(&self) -> u64 {
        if self.name == "quick" {
            500_000_000
        } else {
            2_000_000_000
        }
    }

    /// The scope in a checkpoint's fingerprint. The bare pieces and the frame sweep add steps of
    /// their own (and censuses after the others), so a checkpoint written before them resumes
    /// and runs them; they are named only when a scope differs from its named one there.
    pub(super) fn key(&self) -> String {
        let h = &self.heads;
        let own = match self.name {
            "quick" => Some(Scope::QUICK),
            "default" => Some(Scope::DEFAULT),
            _ => None,
        };
        let bare_frames = (
            h.bare_len,
            h.bare_faces,
            h.bare_census_limit,
            self.frame_sweep,
            self.frame_sweep_limit,
        );
        let mut extra = match own {
            Some(o)
                if (
                    o.heads.bare_len,
                    o.heads.bare_faces,
                    o.heads.bare_census_limit,
                    o.frame_sweep,
                    o.frame_sweep_limit,
                ) == bare_frames =>
            {
                String::new()
            }
            _ => format!(
                " bare=({}, {}, {}) frames=({}, {})",
                h.bare_len,
                h.bare_faces,
                h.bare_census_limit,
                self.frame_sweep,
                self.frame_sweep_limit
            ),
        };
        // The split route came later still: named wherever it runs, so a checkpoint written
        // before it (whose step list lacks it) is refused, and a run without it (one route
        // alone) keeps the fingerprint it had.
        if let Some(s) = self.split {
            extra += &format!(" split={}", s.positions);
        }
        format!(
            "Scope {{ name: {:?}, heads: HeadScope {{ max_around: {}, max_len: {}, max_faces: {}, filter_len: {}, filter_faces: {} }}, accumulation_margin: {}, whole_frame_limit: {}, insertion: {:?}, ansatz: {} }}{extra}",
            self.name,
            h.max_around,
            h.max_len,
            h.max_faces,
            h.filter_len,
            h.filter_faces,
            self.accumulation_margin,
            self.whole_frame_limit,
            self.insertion,
            self.ansatz
        )
    }

    /// The scope with the routes `route` names, and the insertion's beam `beam` when given. One
    /// route alone is that route's run: no deck is played whole instead.
    pub fn with(mut self, route: Route, beam: Option<usize>) -> Scope {
        self.ansatz = route != Route::Insertion;
        if route != Route::Both {
            self.whole_deck_limit = 0;
            // The split route runs beside the others (`--route both`, the default) only.
            self.split = None;
        }
        if route == Route::Ansatz {
            self.insertion = None;
        }
        if let (Some(b), Some(ins)) = (beam, self.insertion.as_mut()) {
            ins.beam = b;
        }
        self
    }
}

/// Which routes a discovery takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Route {
    /// Every route (the default), the split route included.
    Both,
    Ansatz,
    Insertion,
}
