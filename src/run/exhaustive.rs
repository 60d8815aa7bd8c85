//! `search exhaustive` as a job: its units are the prefix-sharing tasks (or rank ranges of the
//! every-deal path), and the answer is the census of every deal with its result file
//! `exhaustive-DECK-2p[-extra2].json`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::job::{Job, Ran, checkpoint_path, ran_in, shard_path};
use super::random::split_error;
use super::search as split;
use super::shard::Shard;
use super::write;
use super::{Mode, RunError};
use crate::card::DeckSpec;
use crate::engine::{self, Outcome};
use crate::library::fnv1a;
use crate::notation::Notation;
use crate::position::Position;
use crate::provenance::Run;
use crate::search::exhaustive::run::{ExhaustiveConfig, Work};
use crate::search::exhaustive::{ExhaustiveStats, Extra};

/// An exhaustive search to run.
pub struct ExhaustiveJob<'a> {
    pub cfg: ExhaustiveConfig,
    /// Every deal of the deck.
    pub deals: u64,
    pub work: std::sync::Arc<Work>,
    pub out: PathBuf,
    pub resume: bool,
    pub threads: Option<usize>,
    /// Sees the deals counted.
    pub progress: &'a (dyn Fn(u64) + Sync),
}

/// What merge needs, besides the statistics, to write the single run's answer.
#[derive(Serialize, Deserialize)]
pub struct ExhaustiveContext {
    pub players: usize,
    pub deck: String,
    pub deals: u64,
    pub method: String,
    pub extra: Extra,
    /// The command as the single run records it (merged shards record the run, not the merge).
    pub command: String,
}

/// The answer: the census as JSON (with wall time and threads) and the result file written
/// (none for `merge --partial`, whose JSON names the shards it covers).
pub struct ExhaustiveAnswer {
    pub json: Value,
    pub stats: ExhaustiveStats,
    pub result: Option<PathBuf>,
}

impl ExhaustiveJob<'_> {
    /// The name of the run's files: deck, players, who holds the extra card, the path.
    pub fn stem(&self) -> String {
        let c = &self.cfg;
        format!(
            "exhaustive-{}-{}p{}{}",
            c.deck,
            c.players,
            if c.extra == Extra::Second {
                "-extra2"
            } else {
                ""
            },
            if c.naive { "-naive" } else { "" }
        )
    }

    /// The path that counts the deals, as the answer and a slice's report name it.
    fn method(&self) -> &'static str {
        match *self.work {
            Work::Tasks(_) => "prefix-sharing",
            Work::Ranks { .. } => "every deal",
        }
    }

    /// The loop the lanes play the fully fixed games in, or `None`: one by one.
    pub fn lanes(&self) -> Option<crate::engine::lanes::Shape> {
        match &*self.work {
            Work::Tasks(plan) => plan.shape(),
            Work::Ranks { .. } => None,
        }
    }

    /// The deals `mode` counts here (for a progress bar).
    pub fn deals_here(&self, mode: &Mode) -> u64 {
        mode.shard()
            .map_or(self.deals, |s| self.deals / s.count as u64)
    }
}

impl Job for ExhaustiveJob<'_> {
    const COMMAND: &'static str = "search-exhaustive";
    type Entry = ExhaustiveStats;
    type Part = (ExhaustiveStats, f64, usize);
    type Context = ExhaustiveContext;
    type Answer = ExhaustiveAnswer;

    fn units(&self) -> u64 {
        self.work.units()
    }

    /// The wide form's units are tasks, not rank ranges: its kind keeps its shards from merging
    /// with shards of the same deck written before.
    fn fingerprint(&self) -> String {
        let kind = split::exhaustive_kind(&self.cfg, &self.work);
        let cfg = serde_json::to_string(&(&self.cfg, kind)).expect("configurations serialise");
        format!("{} v1 {:016x}", Self::COMMAND, fnv1a(cfg.as_bytes()))
    }

    fn context(&self) -> ExhaustiveContext {
        ExhaustiveContext {
            players: self.cfg.players,
            deck: self.cfg.deck.to_string(),
            deals: self.deals,
            method: self.method().into(),
            extra: self.cfg.extra,
            command: super::recorded_command(&[], &[]),
        }
    }

    fn shard_file(&self, shard: Shard) -> PathBuf {
        shard_path(&self.out, &self.stem(), shard)
    }

    fn out(&self) -> Option<&Path> {
        Some(&self.out)
    }

    fn execute(&self, mode: &Mode) -> Result<Ran<Self::Part>, RunError> {
        let began = Instant::now();
        let ckpt = checkpoint_path(&self.out, &self.stem(), mode.shard(), "checkpoint.json");
        let (stats, earlier, threads) = if let Mode::Cluster(cluster) = mode {
            let work = self.work.clone();
            match split::exhaustive_cluster(cluster, &self.cfg, work, ckpt, self.resume)
                .map_err(split_error)?
            {
                None => return Ok(Ran::Follower),
                Some((s, earlier)) => (s, earlier, cluster.total_workers()),
            }
        } else {
            let pool = super::pool(self.threads)?;
            let run = pool
                .install(|| {
                    split::exhaustive_local(
                        &self.cfg,
                        &self.work,
                        mode.shard(),
                        ckpt,
                        self.resume,
                        self.progress,
                    )
                })
                .map_err(split_error)?;
            (run.stats, run.earlier_seconds, pool.current_num_threads())
        };
        // A resumed run counts the runs before it (up to their last checkpoint), so a census
        // slice interrupted and resumed still reports all the time it took.
        let seconds = earlier + began.elapsed().as_secs_f64();
        Ok(Ran::Part((stats, seconds, threads)))
    }

    /// A slice's totals, with the path that counted them (issue 25: a run says which path it
    /// took, in `--json` too).
    fn summary(&self, (stats, _, _): &Self::Part) -> Value {
        let mut v = json!({
            "deals": stats.deals,
            "cycles": stats.cycles,
            "wins": stats.wins,
            "method": self.method(),
        });
        ran_in(&mut v, self.lanes());
        v
    }

    fn finish(
        ctx: ExhaustiveContext,
        parts: Vec<Self::Part>,
        out: Option<&Path>,
    ) -> Result<ExhaustiveAnswer, RunError> {
        let (stats, seconds, threads) = combine(&ctx, parts)?;
        if stats.deals != ctx.deals {
            return Err(RunError::failed(format!(
                "internal error: counted {} deals of {}",
                stats.deals, ctx.deals
            )));
        }
        let dir = out.map_or_else(
            || PathBuf::from(crate::provenance::DEFAULT_OUT),
            Path::to_path_buf,
        );
        let json = census_json(&ctx, &stats, seconds, threads);
        let result = write_census(&dir, &ctx, &json, seconds, threads)?;
        Ok(ExhaustiveAnswer {
            json,
            stats,
            result: Some(result),
        })
    }
}

/// The parts' statistics merged, their seconds summed and their threads; an input error if a
/// part could not have come from a run of the context's deck (a damaged or forged shard file).
fn combine(
    ctx: &ExhaustiveContext,
    parts: Vec<(ExhaustiveStats, f64, usize)>,
) -> Result<(ExhaustiveStats, f64, usize), RunError> {
    let bad = |e: String| RunError::Input(format!("shard file of search exhaustive: {e}"));
    let deck: DeckSpec = ctx.deck.parse().map_err(|e| bad(format!("{e}")))?;
    crate::search::random::check_players(&deck, ctx.players).map_err(|e| bad(e.to_string()))?;
    let mut left = ctx.deals;
    for (s, _, _) in &parts {
        s.check(ctx.players, &deck, left).map_err(bad)?;
        left -= s.deals;
    }
    let single = parts.len() == 1;
    let mut stats = ExhaustiveStats::new(ctx.players);
    let (mut seconds, mut threads) = (0.0, 0);
    for (s, secs, th) in parts {
        if single {
            stats = s;
        } else {
            stats.merge(s);
        }
        seconds += secs;
        threads += th;
    }
    Ok((stats, seconds, threads))
}

/// `merge --partial` of some shards of an exhaustive job array (one still running): the census
/// of the deals those shards hold, with `partial` naming them and `deals_of_deck` the deck's
/// count; no result file, since it is not the deck's answer.
pub fn finish_partial(
    ctx: ExhaustiveContext,
    parts: Vec<(ExhaustiveStats, f64, usize)>,
    shards: Vec<u32>,
    of: u32,
) -> Result<ExhaustiveAnswer, RunError> {
    let (stats, seconds, threads) = combine(&ctx, parts)?;
    let mut json = census_json(&ctx, &stats, seconds, threads);
    json["partial"] = json!({"shards": shards, "of": of});
    json["deals_of_deck"] = json!(ctx.deals);
    Ok(ExhaustiveAnswer {
        json,
        stats,
        result: None,
    })
}

/// The cards of one period of the cycle named by `id` (replayed with the reference engine), for
/// two-player cycle ids; `None` for others.
fn cycle_cards(id: &str) -> Option<u64> {
    let pos = Position::parse(id, Notation::Dash).ok()?;
    match engine::reference::play(&pos) {
        Outcome::Cycle(info) => Some(info.cycle_cards),
        Outcome::Terminates { .. } => None,
    }
}

/// The census as JSON.
fn census_json(
    ctx: &ExhaustiveContext,
    stats: &ExhaustiveStats,
    seconds: f64,
    threads: usize,
) -> Value {
    let (method, deck) = (ctx.method.as_str(), ctx.deck.as_str());
    let longest = stats.longest.as_ref().map(|l| {
        let pos = ctx.extra.position(&l.deal, ctx.players);
        json!({"position": pos.to_string(), "cards": l.cards, "tricks": l.tricks})
    });
    // Who holds the extra card of an odd two-player deck (none for an even one).
    let cards = deck.parse::<DeckSpec>().map_or(0, |d| d.total());
    let odd = ctx.players == 2 && cards % 2 == 1;
    let extra_card = odd.then_some(if ctx.extra == Extra::Second { 2 } else { 1 });
    let distinct: Vec<Value> = stats
        .distinct_cycles
        .iter()
        .map(|(id, c)| {
            json!({
                "cycle_id": id,
                "period": c.period,
                "cycle_cards": cycle_cards(id),
                "deals": c.deals,
            })
        })
        .collect();
    json!({
        "deck": deck,
        "players": ctx.players,
        "deals": stats.deals,
        "cycles": stats.cycles,
        "non_terminating": stats.cycles,
        "extra_card": extra_card,
        "first_player_wins": stats.wins[0],
        "second_player_wins": stats.wins[1],
        "wins": stats.wins,
        "distinct_cycles": distinct,
        "longest": longest,
        "seconds": seconds,
        "threads": threads,
        "method": method,
    })
}

/// The census's result file in `dir`: the facts of `v`, and apart from them the run.
fn write_census(
    dir: &Path,
    ctx: &ExhaustiveContext,
    v: &Value,
    seconds: f64,
    threads: usize,
) -> Result<PathBuf, RunError> {
    let deck = ctx.deck.as_str();
    let mut record = v.clone();
    for k in ["seconds", "threads"] {
        record.as_object_mut().unwrap().remove(k);
    }
    record["run"] = Run::here(ctx.command.clone(), threads, seconds).to_json();
    let result = dir.join(format!(
        "exhaustive-{deck}-{}p{}.json",
        ctx.players,
        if ctx.extra == Extra::Second {
            "-extra2"
        } else {
            ""
        }
    ));
    write(&result, format!("{record}\n").as_bytes())?;
    Ok(result)
}
