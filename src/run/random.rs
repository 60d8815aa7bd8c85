//! `search random` as a job: its units are chunks of deals, a shard plays the chunks it owns, and
//! the answer is the statistics of every game with the result files `NAME.jsonl` and `NAME.txt`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::job::{Job, Ran, checkpoint_path, plain_name, shard_path};
use super::search::{self as split, SplitError};
use super::shard::Shard;
use super::write;
use super::{Mode, RunError};
use crate::engine::multi::{self, MultiOutcome};
use crate::engine::{Outcome, reference};
use crate::library::fnv1a;
use crate::position::Position;
use crate::provenance::Run;
use crate::search::random::{self, RandomConfig};
use crate::search::stats::{GameStats, Ranked};

/// A random search to run.
pub struct RandomJob<'a> {
    pub cfg: RandomConfig,
    /// Where the results (and, under `work/`, checkpoints and shard files) go.
    pub out: PathBuf,
    pub resume: bool,
    pub threads: Option<usize>,
    /// Sees the games played (first those a resumed run found done).
    pub progress: &'a (dyn Fn(u64) + Sync),
}

/// What merge needs, besides the statistics, to write the single run's answer.
#[derive(Serialize, Deserialize)]
pub struct RandomContext {
    pub cfg: RandomConfig,
    pub name: String,
    /// The command as the single run records it (merged shards record the run, not the merge).
    pub command: String,
}

/// A run's statistics, wall seconds (with those of the runs it resumed) and threads (and the
/// games and seconds a resumed run found done, which the rate leaves out; never in a shard file).
#[derive(Serialize, Deserialize)]
pub struct RandomPart {
    pub stats: GameStats,
    pub seconds: f64,
    pub threads: usize,
    #[serde(skip)]
    pub resumed: u64,
    #[serde(skip)]
    pub earlier_seconds: f64,
}

/// The answer: the statistics, its JSON, and the result file written.
pub struct RandomAnswer {
    pub cfg: RandomConfig,
    pub stats: GameStats,
    pub json: Value,
    pub seconds: f64,
    pub rate: f64,
    pub threads: usize,
    pub results: PathBuf,
}

impl RandomJob<'_> {
    /// The name of the run's files: deck, players, faces and seed.
    pub fn name(&self) -> String {
        let c = &self.cfg;
        format!(
            "random-{}-{}p{}-seed{}",
            c.deck,
            c.players,
            if c.balanced_faces { "-balanced" } else { "" },
            c.seed
        )
    }

    /// The games `mode` plays here (all of them but in a shard).
    pub fn games(&self, mode: &Mode) -> u64 {
        split::random_games(&self.cfg, mode.shard())
    }
}

/// Checkpoint errors come from what the user pointed at (missing, foreign, another search), so
/// they are bad input; so are clusters that do not form; a failed save is a failure of its own.
pub(super) fn split_error(e: SplitError) -> RunError {
    match e {
        SplitError::Save(_) => RunError::failed(e),
        e => RunError::input(e),
    }
}

impl Job for RandomJob<'_> {
    const COMMAND: &'static str = "search-random";
    type Entry = GameStats;
    type Part = RandomPart;
    type Context = RandomContext;
    type Answer = RandomAnswer;

    fn units(&self) -> u64 {
        random::chunks(self.cfg.games)
    }

    fn fingerprint(&self) -> String {
        let cfg = serde_json::to_string(&self.cfg).expect("configurations serialise");
        format!("{} v1 {:016x}", Self::COMMAND, fnv1a(cfg.as_bytes()))
    }

    fn context(&self) -> RandomContext {
        RandomContext {
            cfg: self.cfg.clone(),
            name: self.name(),
            command: super::recorded_command(&[], &[]),
        }
    }

    fn shard_file(&self, shard: Shard) -> PathBuf {
        shard_path(&self.out, &self.name(), shard)
    }

    fn out(&self) -> Option<&Path> {
        Some(&self.out)
    }

    fn execute(&self, mode: &Mode) -> Result<Ran<RandomPart>, RunError> {
        let began = Instant::now();
        let ckpt = checkpoint_path(&self.out, &self.name(), mode.shard(), "checkpoint.json");
        let (stats, resumed, earlier_seconds, threads) = if let Mode::Cluster(cluster) = mode {
            match split::random_cluster(cluster, &self.cfg, ckpt, self.resume)
                .map_err(split_error)?
            {
                None => return Ok(Ran::Follower),
                Some((s, earlier)) => (s, 0, earlier, cluster.total_workers()),
            }
        } else {
            let pool = super::pool(self.threads)?;
            let run = pool
                .install(|| {
                    split::random_local(&self.cfg, mode.shard(), ckpt, self.resume, self.progress)
                })
                .map_err(split_error)?;
            (
                run.stats,
                run.resumed,
                run.earlier_seconds,
                pool.current_num_threads(),
            )
        };
        // Every cycle is checked with the reference engine before it is reported.
        for c in &stats.cycles {
            verify_cycle(&self.cfg, c.index, &c.cycle_id)?;
        }
        Ok(Ran::Part(RandomPart {
            stats,
            seconds: earlier_seconds + began.elapsed().as_secs_f64(),
            threads,
            resumed,
            earlier_seconds,
        }))
    }

    fn summary(&self, part: &RandomPart) -> Value {
        json!({"games": part.stats.games, "cycles": part.stats.cycles.len()})
    }

    fn finish(
        ctx: RandomContext,
        parts: Vec<RandomPart>,
        out: Option<&Path>,
    ) -> Result<RandomAnswer, RunError> {
        let cfg = ctx.cfg;
        // The context comes from a file: a damaged or forged one may name a deal that cannot be
        // made, which the cycles' replay below would deal.
        let bad = |e: String| RunError::Input(format!("shard file of search random: {e}"));
        cfg.validate().map_err(|e| bad(e.to_string()))?;
        let (mut left, mut sums) = (cfg.games, Some((0u64, 0u64)));
        for p in &parts {
            p.stats
                .check(cfg.players, cfg.top, left, cfg.games)
                .map_err(bad)?;
            left -= p.stats.games;
            sums = sums.and_then(|(c, t)| {
                Some((
                    c.checked_add(p.stats.cards_sum)?,
                    t.checked_add(p.stats.tricks_sum)?,
                ))
            });
        }
        if sums.is_none() {
            return Err(bad("the card or trick sums overflow".into()));
        }
        let mut stats = GameStats::new(cfg.players, cfg.top).trimmed();
        let (mut seconds, mut threads, mut resumed, mut earlier) = (0.0, 0, 0, 0.0);
        let single = parts.len() == 1;
        for p in parts {
            if single {
                stats = p.stats;
            } else {
                stats.merge(&p.stats);
            }
            seconds += p.seconds;
            threads += p.threads;
            resumed += p.resumed;
            earlier += p.earlier_seconds;
        }
        if stats.games != cfg.games {
            return Err(RunError::failed(format!(
                "internal error: the shards hold {} games of {}",
                stats.games, cfg.games
            )));
        }
        for c in &stats.cycles {
            verify_cycle(&cfg, c.index, &c.cycle_id)?;
        }
        // The rate of the games this run played, over this run's time (a resumed cluster run
        // does not know its resumed games and counts them all, as before).
        let rate = (stats.games - resumed) as f64 / (seconds - earlier).max(1e-9);
        let dir = out.map_or_else(
            || PathBuf::from(crate::provenance::DEFAULT_OUT),
            Path::to_path_buf,
        );
        let v = random_json(&cfg, &stats, seconds, rate, threads);
        let run = Run::here(ctx.command, threads, seconds);
        let results = write_results(&dir, plain_name(&ctx.name)?, &cfg, &stats, &v, &run)?;
        Ok(RandomAnswer {
            cfg,
            stats,
            json: v,
            seconds,
            rate,
            threads,
            results,
        })
    }
}

/// Replays deal `index` with the reference engine and checks it cycles with the same id.
fn verify_cycle(cfg: &RandomConfig, index: u64, id: &str) -> Result<(), RunError> {
    let pos = cfg.position(index);
    let ok = if cfg.players == 2 {
        let p = Position::new(pos.hands[0].clone(), pos.hands[1].clone(), 0);
        matches!(reference::play(&p), Outcome::Cycle(c) if c.cycle_id.to_string() == id)
    } else {
        matches!(multi::reference_play(&pos), MultiOutcome::Cycle { cycle_id, .. } if cycle_id.to_string() == id)
    };
    if !ok {
        return Err(RunError::failed(format!(
            "internal error: deal {index} ({pos}) did not verify as a cycle"
        )));
    }
    Ok(())
}

fn ranked_json(cfg: &RandomConfig, list: &[Ranked]) -> Value {
    list.iter()
        .map(|r| json!({"index": r.index, "position": cfg.position(r.index).to_string(), "cards": r.cards, "tricks": r.tricks}))
        .collect()
}

fn random_json(
    cfg: &RandomConfig,
    s: &GameStats,
    seconds: f64,
    rate: f64,
    threads: usize,
) -> Value {
    let term = s.terminating.max(1) as f64;
    json!({
        "deck": cfg.deck.to_string(),
        "players": cfg.players,
        "balanced_faces": cfg.balanced_faces,
        "seed": cfg.seed,
        "games": s.games,
        "terminating": s.terminating,
        "cycles": s.cycles.iter().map(|c| json!({
            "index": c.index,
            "position": cfg.position(c.index).to_string(),
            "preperiod": c.preperiod,
            "period": c.period,
            "tricks": c.tricks,
            "cards": c.cards,
            "cycle_cards": c.cycle_cards,
            "cycle_id": c.cycle_id,
            "verified": true,
        })).collect::<Value>(),
        "longest_by_cards": ranked_json(cfg, &s.longest_by_cards),
        "longest_by_tricks": ranked_json(cfg, &s.longest_by_tricks),
        "mean_cards": s.mean_cards(),
        "mean_tricks": s.mean_tricks(),
        "median_cards": s.median_cards(),
        "median_tricks": s.median_tricks(),
        "wins": s.wins,
        "win_shares": s.wins.iter().map(|&w| w as f64 / term).collect::<Vec<_>>(),
        "half_life_tricks": s.half_life_tricks(),
        "histogram_cards": s.hist_cards,
        "histogram_tricks": s.hist_tricks,
        "seconds": seconds,
        "threads": threads,
        "games_per_second": rate,
        "games_per_second_per_thread": rate / threads as f64,
    })
}

/// `DIR/NAME.jsonl` (a header line, then one line per cycle and per longest game) and `DIR/NAME.txt`
/// (a readable summary), each naming the command and version; the first is returned.
fn write_results(
    dir: &Path,
    name: &str,
    cfg: &RandomConfig,
    s: &GameStats,
    v: &Value,
    run: &Run,
) -> Result<PathBuf, RunError> {
    let mut lines = vec![
        json!({"kind": "header", "deck": v["deck"], "players": cfg.players, "balanced_faces": cfg.balanced_faces, "seed": cfg.seed, "games": s.games}),
    ];
    for c in v["cycles"].as_array().into_iter().flatten() {
        let mut c = c.clone();
        c["kind"] = json!("cycle");
        lines.push(c);
    }
    for key in ["longest_by_cards", "longest_by_tricks"] {
        for (rank, g) in v[key].as_array().into_iter().flatten().enumerate() {
            let mut g = g.clone();
            g["kind"] = json!(key);
            g["rank"] = json!(rank + 1);
            lines.push(g);
        }
    }
    let mut text = String::new();
    for l in &lines {
        text.push_str(&l.to_string());
        text.push('\n');
    }
    text.push_str(&run.line());
    text.push('\n');
    let jsonl = dir.join(format!("{name}.jsonl"));
    write(&jsonl, text.as_bytes())?;
    let mut summary = format!(
        "deck {} players {} balanced_faces {} seed {}\ngames {} cycles {}\nmean_cards {:.3} median_cards {}\nmean_tricks {:.3} median_tricks {}\nwins {:?}\nhalf_life_tricks {}\n{}",
        v["deck"].as_str().unwrap_or(""),
        cfg.players,
        cfg.balanced_faces,
        cfg.seed,
        s.games,
        s.cycles.len(),
        s.mean_cards(),
        s.median_cards().unwrap_or(0),
        s.mean_tricks(),
        s.median_tricks().unwrap_or(0),
        s.wins,
        s.half_life_tricks()
            .map_or("-".into(), |h| format!("{h:.3}")),
        s.cycles
            .iter()
            .map(|c| format!(
                "cycle deal {} {} period {} id {}\n",
                c.index,
                cfg.position(c.index),
                c.period,
                c.cycle_id
            ))
            .collect::<String>(),
    );
    summary.push_str(&run.text_block());
    write(&dir.join(format!("{name}.txt")), summary.as_bytes())?;
    Ok(jsonl)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shard file's context that names a deal no run could make (one player) is refused as bad
    /// input before anything is replayed or written.
    #[test]
    fn finish_refuses_a_context_that_cannot_deal() {
        let cfg = RandomConfig {
            deck: "standard".parse().unwrap(),
            players: 1,
            balanced_faces: false,
            seed: 7,
            games: 0,
            top: 10,
        };
        let ctx = RandomContext {
            cfg,
            name: "forged".into(),
            command: "ansatz search random".into(),
        };
        let part = RandomPart {
            stats: GameStats::new(1, 10),
            seconds: 0.0,
            threads: 1,
            resumed: 0,
            earlier_seconds: 0.0,
        };
        let out = std::env::temp_dir().join(format!("ansatz-forged-random-{}", std::process::id()));
        let got = RandomJob::finish(ctx, vec![part], Some(&out));
        let _ = std::fs::remove_dir_all(&out);
        match got {
            Err(RunError::Input(e)) => assert!(e.contains("players"), "{e}"),
            Err(e) => panic!("not an input error: {e}"),
            Ok(_) => panic!("a one-player context was merged"),
        }
    }
}
