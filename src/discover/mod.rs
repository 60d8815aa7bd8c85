//! `ansatz discover`: balanced cycles found automatically on any deck, by the ansatz route in
//! stages, one per file: [`frame`] (the frame from the deck's face kinds), [`heads`] (the filter
//! and the head sweep: pieces and their accumulation), [`census`] (every deck around each
//! accumulator shape), [`balance`] (families by backward play, mirror pairs, replay), [`fill`]
//! (every deck around the balance-making pieces of the balanced cycles found). Each step's
//! result goes to a [`checkpoint`], so an interrupted run resumes to the same answer; every step
//! merges its parallel work in a fixed order, so the answer does not depend on the thread count.

pub mod balance;
pub mod census;
pub mod checkpoint;
pub mod clock;
pub mod fill;
pub mod frame;
pub mod heads;
pub mod insertion;
pub mod options;
pub mod steps;
pub mod whole;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::assemble::CycleHit;
use crate::assemble::records::FamilyDone;
use crate::backward::closure::Config as ClosureConfig;
use crate::card::{Card, DeckSpec, symbol};
use balance::{BalancedCycle, Found};
use census::CensusDone;
use checkpoint::Checkpoint;
use clock::{Clock, RunTime};
use frame::DeckFrame;
use heads::{BareDone, FilterDone, HeadDone, HeadScope};
use insertion::{Grown, InsertScope};
use steps::Steps;

/// Why a discovery cannot run or stopped.
#[derive(Debug, thiserror::Error)]
pub enum DiscoverError {
    #[error("deck {0} holds {1} cards; discovery handles at most 52")]
    DeckTooLarge(String, usize),
    #[error("deck {0} has no penalty cards (J, Q, K, A): every game ends")]
    NoPenaltyCards(String),
    #[error("deck {0} holds {1} cards, an odd number: no deal is balanced")]
    OddDeck(String, usize),
    #[error(
        "deck {0} has no frame: it needs at least 2 cards of the separator kind (its lowest face kind unless --separator says), another face kind for the pieces, and 2 number cards"
    )]
    NoFrame(String),
    #[error("--frame {0}: {1}")]
    BadFrame(String, String),
    #[error("--filter {0}: {1}")]
    BadFilter(String, String),
    #[error("deck {0} holds no {1}: it cannot be the separator")]
    NoSeparator(String, char),
    #[error("--separator {0}: give a face kind, J, Q, K or A")]
    BadSeparator(char),
    #[error("invalid value '{value}' for '{flag} <N>': {value} is not in {lo}..=100000")]
    OutOfRange {
        flag: &'static str,
        value: u64,
        lo: u64,
    },
    #[error("invalid value '{0}' for '--route <ROUTE>' [possible values: both, ansatz, insertion]")]
    BadRoute(String),
    #[error("no checkpoint to resume: {0}")]
    NoCheckpoint(String),
    #[error("the checkpoint {0}")]
    Checkpoint(String),
    #[error("a balanced deal failed its replay with the reference engine: {0}")]
    Replay(String),
    #[error("stopped after {0} censuses (as an interruption would); finish with --resume")]
    Stopped(usize),
}

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
    /// The frame sweep ([`frame::sweep`]) with the ansatz route: every other frame searched whole
    /// when it has at most `frame_sweep_limit` decks, smallest first, while the decks of the
    /// frames run stay within this many (0: no sweep).
    pub frame_sweep: u64,
    pub frame_sweep_limit: u64,
    /// A deck of at most this many deals is played whole ([`whole`]) instead of taking the
    /// routes (0: never). Only when both routes run on the deck's own frame.
    pub whole_deck_limit: u64,
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
        frame_sweep_limit: 200_000_000,
        whole_deck_limit: 100_000_000,
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
    fn key(&self) -> String {
        let h = &self.heads;
        let own = match self.name {
            "quick" => Some(Scope::QUICK),
            "default" => Some(Scope::DEFAULT),
            _ => None,
        };
        let extra = match own {
            Some(o)
                if (
                    o.heads.bare_len,
                    o.heads.bare_faces,
                    o.heads.bare_census_limit,
                ) == (h.bare_len, h.bare_faces, h.bare_census_limit)
                    && (o.frame_sweep, o.frame_sweep_limit)
                        == (self.frame_sweep, self.frame_sweep_limit) =>
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
    Both,
    Ansatz,
    Insertion,
}

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

/// What one stage did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StageReport {
    pub name: String,
    /// Work done, in `unit`s (candidates, decks, families).
    pub work: u64,
    pub unit: String,
    /// Distinct cycles known after the stage, and how many have balanced deals.
    pub cycles: u64,
    pub balanced_cycles: u64,
    /// Cycles by reach (the most cards the smaller hand holds in the family), once known.
    pub reach_histogram: BTreeMap<u8, u64>,
    /// What the stage found, in words.
    pub summary: String,
    pub seconds: f64,
}

/// An accumulator shape and where it came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accumulator {
    pub shape: String,
    pub accumulation: u8,
    /// The first head and piece that gave it.
    pub head: String,
    pub piece: String,
}

/// A discovery's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Discovery {
    pub deck: String,
    pub scope: String,
    pub frame: String,
    pub filter: Option<String>,
    pub accumulation_threshold: u8,
    pub accumulators: Vec<Accumulator>,
    pub censuses: Vec<CensusSummary>,
    /// The fills around balance-making pieces (`shape` is the fill's template).
    pub fills: Vec<CensusSummary>,
    pub reach_histogram: BTreeMap<u8, u64>,
    pub balanced_cycles: Vec<BalancedCycle>,
    pub stages: Vec<StageReport>,
}

/// One census, without its cycles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CensusSummary {
    pub shape: String,
    pub decks: u64,
    pub non_terminating: u64,
    pub cycles: u64,
    pub skipped: Option<String>,
}

/// What a discovery tells its caller as it goes (progress bars at the edge).
pub trait Observer: Sync {
    /// A stage starts with `total` units of work.
    fn start(&self, stage: &str, total: u64, unit: &str);
    fn advance(&self, n: u64);
    fn finish(&self, report: &StageReport);
}

/// An observer that ignores everything.
pub struct Silent;

impl Observer for Silent {
    fn start(&self, _: &str, _: u64, _: &str) {}
    fn advance(&self, _: u64) {}
    fn finish(&self, _: &StageReport) {}
}

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
        format!(
            "discover v2 deck={} scope={} max_positions={}{sep}{ends}{filter}{growth}{lateral}{whole}",
            self.deck,
            self.scope.key(),
            self.max_positions
        )
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

/// Arrangements of the cards a frame leaves (a multinomial), saturating.
fn whole_frame_decks(df: &DeckFrame) -> u64 {
    let Some(budget) = df.frame.budget(df.k) else {
        return 0;
    };
    let mut counts: Vec<u128> = budget.iter().map(|&c| c as u128).collect();
    counts[df.separator as usize] += (df.k - 1) as u128;
    let mut n = 0u128;
    let mut ways = 1u128;
    for c in counts {
        for i in 1..=c {
            n += 1;
            ways = match ways.checked_mul(n) {
                Some(w) => w / i,
                None => return u64::MAX,
            };
        }
    }
    u64::try_from(ways).unwrap_or(u64::MAX)
}

/// What the insertion route grew.
struct Insertion {
    seeds: usize,
    seed_decks: String,
    /// The size it grew from.
    from: u8,
    /// Children played.
    games: u64,
    /// The beam at the deck's size.
    finalists: Vec<Grown>,
    /// Each size grown to.
    levels: Vec<Level>,
}

/// One size of the insertion route.
struct Level {
    cards: u8,
    /// Cycles kept (0: the beam died out at this size).
    kept: usize,
    /// The best reach among them.
    reach: u8,
    /// Grown by two cards from the size two below (the size between died out).
    two_cards: bool,
    /// Grown by one card from cycles found by lateral moves at the size below (one and two cards
    /// died out there).
    lateral: bool,
}

/// How many parts each level of the insertion is cut into.
const INSERT_PARTS: usize = 16;

/// The insertion route (see [`insertion`]): the seeds, then one level a card, each in parts.
fn insertion_stage(
    deck: DeckSpec,
    ins: &InsertScope,
    lateral: usize,
    steps: &dyn Steps,
    obs: &dyn Observer,
) -> Result<Insertion, DiscoverError> {
    let decks = insertion::seed_decks(deck, ins.seed_deals);
    let seed_decks = format!(
        "{} to {}",
        decks.first().map_or("none".into(), |d| d.to_string()),
        decks.last().map_or("none".into(), |d| d.to_string())
    );
    let seeds: Vec<Grown> = steps::run(
        steps,
        &["insert-seeds".to_string()],
        |_| Ok(insertion::seeds(deck, ins.seed_deals)),
        &|_| {},
    )?
    .remove(0);
    let total = deck.total() as u8;
    let from = seeds.iter().map(|g| g.cards).min().unwrap_or(total);
    obs.start("insertion", u64::from(total - from), "levels");
    let at = |l: u8| seeds.iter().filter(move |g| g.cards == l).copied();
    let mut beam = insertion::best(at(from), ins.beam);
    let mut games = 0u64;
    let mut levels: Vec<Level> = Vec::new();
    // One level by one card, then, if its beam died out, the level after it by two cards from
    // the best of the last beam; if that dies too (and `lateral` allows), the level by one card
    // from the new cycles of lateral moves of the best of the last beam.
    let mut grow = |l: u8,
                    cards: usize,
                    parents: &[Grown],
                    sideways: bool|
     -> Result<Vec<Grown>, DiscoverError> {
        let prefix = match (cards, sideways) {
            (1, false) => "insert",
            (_, false) => "insert2",
            _ => "insertL",
        };
        let names: Vec<String> = (0..INSERT_PARTS)
            .map(|p| format!("{prefix}-{l}-{p}"))
            .collect();
        let parts: Vec<insertion::Part> = steps::run(
            steps,
            &names,
            |p| {
                Ok(insertion::grow_part(
                    &deck,
                    parents,
                    p,
                    INSERT_PARTS,
                    ins.beam,
                    cards,
                ))
            },
            &|_| {},
        )?;
        games += parts.iter().map(|p| p.games).sum::<u64>();
        let next = insertion::best(
            parts.into_iter().flat_map(|p| p.cycles).chain(at(l)),
            ins.beam,
        );
        obs.advance(1);
        levels.push(Level {
            cards: l,
            kept: next.len(),
            reach: next.first().map_or(0, |g| g.reach),
            two_cards: cards == 2,
            lateral: sideways,
        });
        if std::env::var_os("ANSATZ_TRACE_INSERTION").is_some() {
            eprintln!(
                "insertion {l} cards (by {cards}{}): {} cycles, best reach {}, first {}",
                if sideways { " after lateral moves" } else { "" },
                next.len(),
                levels.last().unwrap().reach,
                next.first()
                    .map_or(String::new(), |g| g.position().to_string())
            );
        }
        Ok(next)
    };
    let mut lateral_games = 0u64;
    let mut l = from + 1;
    while l <= total {
        let mut next = grow(l, 1, &beam, false)?;
        if next.is_empty() && !beam.is_empty() && l < total {
            next = grow(
                l + 1,
                2,
                &beam[..beam.len().min(insertion::TWO_CARD_PARENTS)],
                false,
            )?;
            if !next.is_empty() || lateral == 0 {
                l += 1;
            } else {
                // Sideways at the size of the beam: its best `lateral` cycles' lateral moves,
                // the new cycles among them, then one card more.
                let parents = &beam[..beam.len().min(lateral)];
                let known: BTreeSet<u128> = beam.iter().map(|g| g.key).collect();
                let names: Vec<String> = (0..INSERT_PARTS)
                    .map(|p| format!("lateral-{}-{p}", l - 1))
                    .collect();
                let parts: Vec<insertion::Part> = steps::run(
                    steps,
                    &names,
                    |p| {
                        Ok(insertion::lateral_part(
                            parents,
                            &known,
                            p,
                            INSERT_PARTS,
                            ins.beam,
                        ))
                    },
                    &|_| {},
                )?;
                lateral_games += parts.iter().map(|p| p.games).sum::<u64>();
                let side = insertion::shortest(parts.into_iter().flat_map(|p| p.cycles), ins.beam);
                if std::env::var_os("ANSATZ_TRACE_INSERTION").is_some() {
                    eprintln!(
                        "insertion: lateral moves of {} cycles of {} cards: {} new cycles",
                        parents.len(),
                        l - 1,
                        side.len()
                    );
                }
                next = grow(l, 1, &side, true)?;
            }
        }
        beam = next;
        l += 1;
    }
    Ok(Insertion {
        seeds: seeds.len(),
        seed_decks,
        from,
        games: games + lateral_games,
        finalists: beam,
        levels,
    })
}

/// What the insertion route's levels say beside their sizes: where two cards were inserted at
/// once, and where the beam died out for good.
fn insertion_path(levels: &[Level]) -> String {
    let jumps: Vec<String> = levels
        .iter()
        .filter(|l| l.two_cards && l.kept > 0)
        .map(|l| format!("{} to {}", l.cards - 2, l.cards))
        .collect();
    let mut out = String::new();
    if !jumps.is_empty() {
        out += &format!(" (by two cards at once: {})", jumps.join(", "));
    }
    let sideways: Vec<String> = levels
        .iter()
        .filter(|l| l.lateral && l.kept > 0)
        .map(|l| format!("{} to {}", l.cards - 1, l.cards))
        .collect();
    if !sideways.is_empty() {
        out += &format!(" (after lateral moves: {})", sideways.join(", "));
    }
    let dead = levels.iter().rposition(|l| l.kept > 0).map_or(0, |i| i + 1);
    if let Some(l) = levels.get(dead) {
        let mut also = match levels.get(dead + 1) {
            Some(n) if n.two_cards => format!(", nor of {} by two cards", n.cards),
            _ => String::new(),
        };
        if let Some(n) = levels.get(dead + 2).filter(|n| n.lateral) {
            also += &format!(", nor of {} after lateral moves", n.cards);
        }
        out += &format!(" (no cycle of {} cards{also}: the beam died out)", l.cards);
    }
    out
}

/// How many parts each census is cut into: the steps a resume redoes at most one of, and that the
/// tasks of a job array or the processes of a cluster share out.
const CENSUS_PARTS: usize = 16;

/// The most blocks the families of a discovery are cut into (one step each).
const FAMILY_BLOCKS: usize = 64;

/// Runs a discovery on the current rayon pool, with its checkpoint in `work` (resumed with
/// `resume`); the checkpoint is removed once the answer is there.
pub fn run(
    config: &Config,
    work: &Path,
    resume: bool,
    obs: &dyn Observer,
) -> Result<Discovery, DiscoverError> {
    Ok(run_timed(config, work, resume, obs)?.0)
}

/// [`run`], and the seconds of the runs before this one (a resumed run; 0 for a fresh one),
/// which the stages' seconds include (see `clock.rs`).
pub fn run_timed(
    config: &Config,
    work: &Path,
    resume: bool,
    obs: &dyn Observer,
) -> Result<(Discovery, f64), DiscoverError> {
    check(config)?;
    let ckpt = Checkpoint::open(work, &config.fingerprint(), resume)?;
    let earlier = RunTime::earlier(&ckpt);
    let local = steps::Local { checkpoint: ckpt };
    let mut d = run_steps(config, &local, &Clock::new(obs, &local.checkpoint))?;
    let seconds = RunTime::add_to(&earlier, &mut d);
    local.checkpoint.remove();
    Ok((d, seconds))
}

/// Runs a discovery whose steps run and are kept as `steps` says (one machine, a task of a job
/// array, a process of a cluster): every home gives the same answer.
pub fn run_steps(
    config: &Config,
    steps: &dyn Steps,
    obs: &dyn Observer,
) -> Result<Discovery, DiscoverError> {
    // Every home (one machine, a task of a job array, a cluster process) checks its input here.
    check(config)?;
    let df = frame::derive(config.deck, config.separator, config.ends.as_ref())?;
    let scope = config.scope;
    let half = (config.deck.total() / 2) as u8;
    let threshold = half.saturating_sub(scope.accumulation_margin);
    let mut stages = Vec::new();
    let report = |name: &str, work: u64, unit: &str, summary: String, t: Instant| StageReport {
        name: name.into(),
        work,
        unit: unit.into(),
        cycles: 0,
        balanced_cycles: 0,
        reach_histogram: BTreeMap::new(),
        summary,
        seconds: t.elapsed().as_secs_f64(),
    };

    // Stage 1: the frame.
    let t = Instant::now();
    obs.start("frame", 1, "decks");
    let whole = whole_frame_decks(&df);
    let by_shapes = df.k >= 2 && whole > scope.whole_frame_limit;
    let r = report(
        "frame",
        1,
        "decks",
        format!(
            "{} (separator {}, pieces of number cards and {}); {} arrangements of the frame: {}",
            df.display(),
            crate::card::symbol(df.separator),
            df.faces_text(),
            whole,
            if config.whole_deck().is_some() {
                "the deck is played whole instead"
            } else if by_shapes {
                "census around accumulator shapes"
            } else {
                "census of every deck"
            }
        ),
        t,
    );
    obs.finish(&r);
    stages.push(r);

    // A test's interruption: after so many census parts (or parts of the whole deck) computed
    // here, stop as a kill would (the parts finished so far are kept).
    let ran = std::sync::atomic::AtomicUsize::new(0);
    let gate = || {
        let k = ran.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        match config.stop_after_censuses {
            Some(stop) if k >= stop => Err(DiscoverError::Stopped(stop)),
            _ => Ok(()),
        }
    };

    // Stage 1b: a deck small enough is played whole; every cycle is then known and the routes
    // are not taken.
    let mut list: Vec<Found> = Vec::new();
    let whole_deck = config.whole_deck();
    if let Some(deals) = whole_deck {
        let t = Instant::now();
        obs.start("deck", deals, "deals");
        let plan = whole::plan(&config.deck, deals);
        let names: Vec<String> = (0..whole::PARTS).map(|p| format!("deck-{p}")).collect();
        let parts: Vec<crate::search::exhaustive::ExhaustiveStats> = steps::run(
            steps,
            &names,
            |p| {
                gate()?;
                Ok(whole::run_part(&plan, p, whole::PARTS, &|d| obs.advance(d)))
            },
            &|p| obs.advance(whole::part_deals(p, whole::PARTS, deals)),
        )?;
        let mut stats = crate::search::exhaustive::ExhaustiveStats::new(2);
        for p in parts {
            stats.merge(p);
        }
        list = whole::found(&stats);
        let mut r = report(
            "deck",
            stats.deals,
            "deals",
            format!(
                "every deal played (at most {} deals are played whole): {} never end, {} distinct cycles; the routes are not needed",
                scope.whole_deck_limit,
                stats.cycles,
                list.len()
            ),
            t,
        );
        r.cycles = list.len() as u64;
        obs.finish(&r);
        stages.push(r);
    }
    let routes = whole_deck.is_none();

    let mut filter_text = None;
    let mut accumulators: Vec<Accumulator> = Vec::new();
    let mut shapes: Vec<String> = Vec::new();
    if routes && scope.ansatz && by_shapes {
        // Stage 2: the filter.
        let t = Instant::now();
        obs.start("filter", 1, "templates");
        let f: FilterDone = steps::run(
            steps,
            &["filter".to_string()],
            |_| {
                let f = match &config.filter {
                    Some(given) => heads::given_filter(&df, given)?,
                    None => heads::filter(&df, &scope.heads),
                };
                obs.advance(1);
                Ok(f)
            },
            &|_| obs.advance(1),
        )?
        .remove(0);
        let r = report(
            "filter",
            f.candidates,
            "candidates",
            match &config.filter {
                Some(given) => format!("{}: filter {given} (given by --filter)", f.template),
                None => format!(
                    "{}: {} pieces; filter {}",
                    f.template,
                    f.pieces,
                    f.filter.as_deref().unwrap_or("none")
                ),
            },
            t,
        );
        obs.finish(&r);
        stages.push(r);
        filter_text = f.filter.clone();

        // Stage 3: the head sweep, one step per row of heads (one face kind and one a).
        let t = Instant::now();
        let all = heads::heads(&df, &scope.heads);
        obs.start("heads", all.len() as u64, "heads");
        let rows: Vec<&[String]> = all.chunks(scope.heads.max_around + 1).collect();
        let names: Vec<String> = (0..rows.len()).map(|r| format!("heads-{r}")).collect();
        let done: Vec<Vec<HeadDone>> = steps::run(
            steps,
            &names,
            |r| {
                use rayon::prelude::*;
                Ok(rows[r]
                    .par_iter()
                    .map(|head| {
                        // A head about to be swept is heard of with no heads done: an observer
                        // can stop the run there (the Python module does on Ctrl-C).
                        obs.advance(0);
                        let d = heads::sweep_one(
                            &df,
                            &scope.heads,
                            filter_text.as_deref(),
                            head,
                            threshold,
                        );
                        obs.advance(1);
                        d
                    })
                    .collect())
            },
            &|r| obs.advance(rows[r].len() as u64),
        )?;
        let done: Vec<HeadDone> = done.into_iter().flatten().collect();
        let mut by_shape: BTreeMap<String, Accumulator> = BTreeMap::new();
        for h in &done {
            for (piece, acc) in &h.accumulators {
                let shape = heads::shape_of(&h.head, piece);
                let e = by_shape.entry(shape.clone()).or_insert(Accumulator {
                    shape,
                    accumulation: *acc,
                    head: h.head.clone(),
                    piece: piece.clone(),
                });
                e.accumulation = e.accumulation.max(*acc);
            }
        }
        let heads_shapes = by_shape.len();
        // The bare frame's pieces: shapes whose censuses are small, beside the accumulators'.
        let mut bare_note = String::new();
        // After the accumulators' shapes, so that each census keeps its index (and step names)
        // in a checkpoint written before the bare pieces were censused.
        let mut bare_shapes: Vec<Accumulator> = Vec::new();
        if scope.heads.bare_census_limit > 0 {
            let b: BareDone = steps::run(
                steps,
                &["bare".to_string()],
                |_| Ok(heads::bare(&df, &scope.heads)),
                &|_| {},
            )?
            .remove(0);
            let (mut added, mut decks) = (0, 0u64);
            let mut sized: Vec<(u64, String, &(String, u8))> = b
                .pieces
                .iter()
                .map(|p| {
                    let shape = heads::shape_of("", &p.0);
                    (census::census(&df, &shape).decks(), shape, p)
                })
                .filter(|(n, _, _)| *n > 0 && *n <= scope.heads.bare_census_limit)
                .collect();
            sized.sort();
            for (n, shape, (piece, acc)) in sized {
                if by_shape.contains_key(&shape) || bare_shapes.iter().any(|a| a.shape == shape) {
                    continue;
                }
                added += 1;
                decks += n;
                bare_shapes.push(Accumulator {
                    shape,
                    accumulation: *acc,
                    head: String::new(),
                    piece: piece.clone(),
                });
            }
            bare_note = format!(
                "; bare frame {}: {} pieces ({} candidates), {added} more shapes with censuses of at most {} decks ({decks} in all)",
                b.template,
                b.pieces.len(),
                b.candidates,
                scope.heads.bare_census_limit
            );
        }
        accumulators = by_shape.into_values().chain(bare_shapes).collect();
        shapes = accumulators.iter().map(|a| a.shape.clone()).collect();
        let with_pieces = done.iter().filter(|h| h.pieces > 0).count();
        let too_large = done.iter().filter(|h| h.too_large).count();
        let mut acc_hist: BTreeMap<u8, u64> = BTreeMap::new();
        for h in done.iter().filter(|h| h.pieces > 0) {
            *acc_hist.entry(h.accumulation).or_default() += 1;
        }
        let r = report(
            "heads",
            done.iter().map(|h| h.candidates).sum(),
            "candidates",
            format!(
                "{} heads ({} too large), {} with pieces; heads by accumulation {:?}; {} accumulator shapes (accumulation >= {threshold}){bare_note}",
                done.len(),
                too_large,
                with_pieces,
                acc_hist,
                heads_shapes
            ),
            t,
        );
        obs.finish(&r);
        stages.push(r);
    } else if routes && scope.ansatz {
        shapes.push("*".into());
    }

    // Stage 4: the censuses, each in parts.
    let t = Instant::now();
    let plans: Vec<census::Census> = shapes
        .iter()
        .map(|s| census::census(&df, s).within(config.census_limit))
        .collect();
    let total: u64 = plans.iter().map(|p| p.decks()).sum();
    obs.start("census", total, "decks");
    let censuses = run_plans("census", &plans, &shapes, steps, obs, &gate)?;
    // Distinct cycles, each with the first census (in shape order) that reached it.
    let mut cycles: BTreeMap<u128, (CycleHit, String)> = BTreeMap::new();
    for c in &censuses {
        for h in &c.cycles {
            cycles
                .entry(h.cycle_key)
                .or_insert_with(|| (h.clone(), c.shape.clone()));
        }
    }
    let mut r = report(
        "census",
        censuses.iter().map(|c| c.decks).sum(),
        "decks",
        format!(
            "{} censuses{}, {} decks never end, {} distinct cycles",
            censuses.len(),
            match censuses.iter().filter(|c| c.skipped.is_some()).count() {
                0 => String::new(),
                k => format!(" ({k} skipped)"),
            },
            censuses.iter().map(|c| c.non_terminating).sum::<u64>(),
            cycles.len()
        ),
        t,
    );
    r.cycles = cycles.len() as u64;
    if routes && scope.ansatz {
        obs.finish(&r);
        stages.push(r);
    }
    list.extend(
        cycles
            .values()
            .map(|(hit, shape)| Found::census(&df, hit, shape)),
    );

    // Stage 4b: the frame sweep, other frames searched whole, smallest first.
    // Only on the deck's own frame: a frame asked for (`--frame`, `--separator`) is searched alone.
    if routes
        && scope.ansatz
        && scope.frame_sweep > 0
        && config.ends.is_none()
        && config.separator.is_none()
    {
        let t = Instant::now();
        let mut frames: Vec<(u64, String, DeckFrame)> = frame::sweep(config.deck)
            .into_iter()
            .map(|d| (whole_frame_decks(&d), d.display(), d))
            .filter(|(n, _, _)| *n > 0 && *n <= scope.frame_sweep_limit)
            .collect();
        frames.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
        let (mut sum, listed) = (0u64, frames.len());
        frames.retain(|(n, _, _)| {
            sum += n;
            sum <= scope.frame_sweep
        });
        let plans: Vec<census::Census> = frames
            .iter()
            .map(|(_, _, d)| census::census(d, "*"))
            .collect();
        let labels: Vec<String> = frames.iter().map(|(_, l, _)| l.clone()).collect();
        obs.start("frames", plans.iter().map(|p| p.decks()).sum(), "decks");
        let done = run_plans("frames", &plans, &labels, steps, obs, &|| Ok(()))?;
        let mut known: BTreeSet<u128> = list.iter().map(|f| f.key).collect();
        let (mut new, mut never) = (0, 0);
        for ((_, label, d), c) in frames.iter().zip(&done) {
            never += c.non_terminating;
            for h in &c.cycles {
                if known.insert(h.cycle_key) {
                    new += 1;
                    let mut f = Found::census(d, h, label);
                    f.found_by = "frames";
                    list.push(f);
                }
            }
        }
        let mut r = report(
            "frames",
            done.iter().map(|c| c.decks).sum(),
            "decks",
            format!(
                "{} other frames searched whole ({} of at most {} decks each, {} in all at most), {never} decks never end, {new} new cycles",
                done.len(),
                listed,
                scope.frame_sweep_limit,
                scope.frame_sweep
            ),
            t,
        );
        r.cycles = list.len() as u64;
        obs.finish(&r);
        stages.push(r);
    }

    // Stage 5 (the second route): insertion.
    if let Some(ins) = scope.insertion.filter(|_| routes) {
        let t = Instant::now();
        let grown = insertion_stage(config.deck, &ins, config.lateral, steps, obs)?;
        let mut known: std::collections::BTreeSet<u128> = list.iter().map(|f| f.key).collect();
        let mut new = 0;
        for g in &grown.finalists {
            if known.insert(g.key) {
                new += 1;
                let start = g.position();
                list.push(Found {
                    key: g.key,
                    period: g.period,
                    deck: start.to_string(),
                    start,
                    found_by: "insertion",
                    source: "insertion".into(),
                });
            }
        }
        let mut hist: BTreeMap<u8, u64> = BTreeMap::new();
        for g in &grown.finalists {
            *hist.entry(g.reach).or_default() += 1;
        }
        let mut r = report(
            "insertion",
            grown.games,
            "games",
            format!(
                "{} seed cycles ({}); grown {} to {} cards, beam {}{}; {} cycles of the deck's size ({} new), by reach on the cycle {:?}",
                grown.seeds,
                grown.seed_decks,
                grown.from,
                config.deck.total(),
                ins.beam,
                insertion_path(&grown.levels),
                grown.finalists.len(),
                new,
                hist
            ),
            t,
        );
        r.cycles = list.len() as u64;
        obs.finish(&r);
        stages.push(r);
    }

    // Stage 6: balance, the families in blocks of cycles.
    let t = Instant::now();
    obs.start("balance", list.len() as u64, "families");
    let cfg = ClosureConfig {
        max_positions: config.max_positions,
        ..ClosureConfig::default()
    };
    // Named `cycles-B` since the frame sweep joined the list: a block of an older checkpoint
    // (`families-B`) holds other cycles.
    let mut fams = families_in_steps("cycles", &list, &cfg, steps, obs)?;
    let mut reach_histogram = reach_of(&fams);
    let mut balanced = balance::balanced(config.deck, &list, &fams)?;
    let deals: usize = balanced.iter().map(|b| b.balanced.len()).sum();
    let mut r = report(
        "balance",
        fams.len() as u64,
        "families",
        format!(
            "{} cycles with balanced deals ({} up to exchanging the players), {deals} deals, each replayed with the reference engine",
            fams.iter().filter(|f| !f.balanced.is_empty()).count(),
            balanced.len()
        ),
        t,
    );
    r.cycles = fams.len() as u64;
    r.balanced_cycles = balanced.len() as u64;
    r.reach_histogram = reach_histogram.clone();
    obs.finish(&r);
    stages.push(r);

    // Stage 7: the fills around the balance-making pieces of the balanced cycles the censuses
    // reached (both of a mirror pair when both were met), then the families of their new cycles.
    let mut fills: Vec<CensusDone> = Vec::new();
    if routes && scope.ansatz && by_shapes && config.fill_limit > 0 {
        let t = Instant::now();
        let decks = list
            .iter()
            .zip(&fams)
            .filter(|(f, fam)| !fam.balanced.is_empty() && f.found_by == "ansatz")
            .map(|(f, _)| f.start.hands[0].as_slice());
        let befores = fill::befores(&df, decks);
        let plans: Vec<census::Census> = befores
            .iter()
            .map(|b| fill::plan(&df, b, config.fill_limit))
            .collect();
        obs.start("fill", plans.iter().map(|p| p.decks()).sum(), "decks");
        let labels: Vec<String> = befores
            .iter()
            .map(|b| fill::template(&df, b).display())
            .collect();
        fills = run_plans("fill", &plans, &labels, steps, obs, &|| Ok(()))?;
        let mut known: BTreeSet<u128> = list.iter().map(|f| f.key).collect();
        let mut new: Vec<Found> = Vec::new();
        for done in &fills {
            for h in &done.cycles {
                if known.insert(h.cycle_key) {
                    new.push(Found::census(&df, h, &format!("fill {}", done.shape)));
                }
            }
        }
        let new_fams = families_in_steps("fill-families", &new, &cfg, steps, obs)?;
        let found_new = new_fams.iter().filter(|f| !f.balanced.is_empty()).count();
        let new_cycles = new.len();
        list.extend(new);
        fams.extend(new_fams);
        reach_histogram = reach_of(&fams);
        balanced = balance::balanced(config.deck, &list, &fams)?;
        let ran = fills.iter().filter(|c| c.skipped.is_none()).count();
        let mut r = report(
            "fill",
            fills.iter().map(|c| c.decks).sum(),
            "decks",
            format!(
                "{} fills around the balance-making pieces ({} run, {} skipped: more than {} arrangements), {} decks never end, {} new cycles, {} of them with balanced deals",
                fills.len(),
                ran,
                fills.len() - ran,
                config.fill_limit,
                fills.iter().map(|c| c.non_terminating).sum::<u64>(),
                new_cycles,
                found_new
            ),
            t,
        );
        r.cycles = fams.len() as u64;
        r.balanced_cycles = balanced.len() as u64;
        r.reach_histogram = reach_histogram.clone();
        obs.finish(&r);
        stages.push(r);
    }

    Ok(Discovery {
        deck: config.deck.to_string(),
        scope: scope.name.into(),
        frame: df.display(),
        filter: filter_text,
        accumulation_threshold: threshold,
        accumulators,
        censuses: censuses.iter().map(summary).collect(),
        fills: fills.iter().map(summary).collect(),
        reach_histogram,
        balanced_cycles: balanced,
        stages,
    })
}

/// A census or a fill without its cycles.
fn summary(c: &CensusDone) -> CensusSummary {
    CensusSummary {
        shape: c.shape.clone(),
        decks: c.decks,
        non_terminating: c.non_terminating,
        cycles: c.cycles.len() as u64,
        skipped: c.skipped.clone(),
    }
}

/// Cycles by reach.
fn reach_of(fams: &[FamilyDone]) -> BTreeMap<u8, u64> {
    let mut h = BTreeMap::new();
    for f in fams {
        *h.entry(f.reach).or_default() += 1;
    }
    h
}

/// The families of `list`, in at most [`FAMILY_BLOCKS`] steps named `PREFIX-B`.
fn families_in_steps(
    prefix: &str,
    list: &[Found],
    cfg: &ClosureConfig,
    steps: &dyn Steps,
    obs: &dyn Observer,
) -> Result<Vec<FamilyDone>, DiscoverError> {
    let blocks = list.len().min(FAMILY_BLOCKS);
    let block = |b: usize| (b * list.len() / blocks)..((b + 1) * list.len() / blocks);
    let names: Vec<String> = (0..blocks).map(|b| format!("{prefix}-{b}")).collect();
    let fams: Vec<Vec<FamilyDone>> = steps::run(
        steps,
        &names,
        |b| Ok(balance::families(&list[block(b)], cfg, &|n| obs.advance(n))),
        &|b| obs.advance(block(b).len() as u64),
    )?;
    Ok(fams.into_iter().flatten().collect())
}

/// The plans that are not skipped, each in [`CENSUS_PARTS`] steps named `PREFIX-I-P`, finished in
/// plan order and named by `labels`. Skipped plans have no steps (a resume that now runs one
/// computes its parts then). `gate` runs before each part computed here.
fn run_plans(
    prefix: &str,
    plans: &[census::Census],
    labels: &[String],
    steps: &dyn Steps,
    obs: &dyn Observer,
    gate: &(dyn Fn() -> Result<(), DiscoverError> + Sync),
) -> Result<Vec<CensusDone>, DiscoverError> {
    let owner: Vec<(usize, usize)> = plans
        .iter()
        .enumerate()
        .filter(|(_, p)| !matches!(p, census::Census::Skipped(_)))
        .flat_map(|(i, _)| (0..CENSUS_PARTS).map(move |part| (i, part)))
        .collect();
    let names: Vec<String> = owner
        .iter()
        .map(|(i, part)| format!("{prefix}-{i}-{part}"))
        .collect();
    let parts: Vec<Vec<crate::assemble::UnitDone>> = steps::run(
        steps,
        &names,
        |n| {
            gate()?;
            let (i, p) = owner[n];
            Ok(plans[i].run_part(p, CENSUS_PARTS, &|d| obs.advance(d)))
        },
        &|n| {
            let (i, p) = owner[n];
            obs.advance(plans[i].part_decks(p, CENSUS_PARTS));
        },
    )?;
    let mut units: Vec<Vec<crate::assemble::UnitDone>> = vec![Vec::new(); plans.len()];
    for (n, u) in parts.into_iter().enumerate() {
        units[owner[n].0].extend(u);
    }
    Ok(plans
        .iter()
        .zip(labels)
        .zip(&units)
        .map(|((p, label), u)| p.finish(label, u))
        .collect())
}
