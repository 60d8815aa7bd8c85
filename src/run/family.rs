//! `family` as a job: the backward closure of a cycle, run level by level. A single run and a
//! cluster save the BFS at level boundaries (the checkpoint entry: [`LevelState`]) and resume
//! from it; shard `I/N` takes the cycle positions `s` with `s % N == I` and the positions whose
//! games first meet the cycle there, and merge joins the parts. The answer is the family, also
//! written with its run to `--out`.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::closure::{
    ClusterFamilyError, LevelHook, Stopped, cluster_cycle, family_on_cluster,
    family_on_cluster_resumable,
};
use super::family_parts::{ClosurePart, family_from_parts, family_part};
use super::job::{Job, Ran, checkpoint_beside};
use super::shard::{Shard, beside};
use super::write;
use super::{Mode, RunError, Stop};
use crate::backward::closure::{Closure, Config, Node};
use crate::backward::family::{cycle_of, family_of_cycle_resumable};
use crate::backward::level_checkpoint::{self, LevelState};
use crate::backward::{Family, FamilyError, family};
use crate::engine::CycleInfo;
use crate::library::fnv1a;
use crate::notation::Notation;
use crate::position::{PACK_MAX_CARDS, Position};

/// A family to find.
pub struct FamilyJob {
    pub pos: Position,
    pub cfg: Config,
    /// The JSON file the answer is also written to.
    pub out: Option<PathBuf>,
    pub resume: bool,
    pub threads: Option<usize>,
    /// Seconds between checkpoint saves (at level boundaries).
    pub checkpoint_every: f64,
    /// Stop after this many levels, as an interruption would (for testing `--resume`).
    pub stop_after_levels: Option<u32>,
    /// Sees the positions found.
    pub progress: Arc<dyn Fn(u64) + Send + Sync>,
}

/// What merge needs, besides the closure parts, to give the single run's answer.
#[derive(Serialize, Deserialize)]
pub struct FamilyContext {
    /// The position in dash notation.
    position: String,
    max_positions: u64,
    visited_set: bool,
    /// The JSON file the single run writes (`--out`), if any.
    out: Option<String>,
    /// The command line without its distribution flags.
    command: String,
}

/// A finished run: a shard's part of the closure, or a whole family (never in a shard file).
pub enum FamilyPart {
    Part(ClosurePart, f64, usize),
    Whole(Family, usize),
}

/// A shard file holds the part as `(part, seconds, threads)`.
impl Serialize for FamilyPart {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            FamilyPart::Part(p, secs, threads) => (p, secs, threads).serialize(s),
            FamilyPart::Whole(..) => Err(serde::ser::Error::custom(
                "a whole family is answered, never sent",
            )),
        }
    }
}

impl<'de> Deserialize<'de> for FamilyPart {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<FamilyPart, D::Error> {
        let (p, secs, threads) = <(ClosurePart, f64, usize)>::deserialize(d)?;
        Ok(FamilyPart::Part(p, secs, threads))
    }
}

/// The answer: the family of the position, as JSON (with the position), and whether it is whole.
pub struct FamilyAnswer {
    pub family: Family,
    pub position: Position,
    pub threads: usize,
    pub json: Value,
    pub max_positions: u64,
}

/// A game that ends has no family: the run ends without an answer (exit 1); other errors are
/// bad input.
fn family_error<T>(e: FamilyError) -> Result<Ran<T>, RunError> {
    match e {
        FamilyError::Terminates { .. } => Ok(Ran::Stopped(Stop::with(e.to_string()))),
        e => Err(RunError::input(e)),
    }
}

fn cluster_error<T>(e: ClusterFamilyError) -> Result<Ran<T>, RunError> {
    match e {
        ClusterFamilyError::Family(e) => family_error(e),
        e => Err(RunError::input(e)),
    }
}

impl FamilyJob {
    fn whole(&self, f: Family, threads: usize) -> Ran<FamilyPart> {
        Ran::Part(FamilyPart::Whole(f, threads))
    }

    /// The level-by-level closure with its checkpoint: on one process, or (a cluster) process 0
    /// keeps the checkpoint and routes the saved frontier to the owners.
    fn levels(&self, mode: &Mode) -> Result<Ran<FamilyPart>, RunError> {
        let cluster = match mode {
            Mode::Cluster(c) => Some(c),
            _ => None,
        };
        let info = match cluster {
            Some(_) => match cluster_cycle(&self.pos) {
                Ok(info) => info,
                Err(e) => return cluster_error(e),
            },
            None => match cycle_of(&self.pos, &self.cfg) {
                Ok(info) => info,
                Err(e) => return family_error(e),
            },
        };
        let kind = if cluster.is_some() {
            "cluster"
        } else {
            "single"
        };
        let ck = LevelCheckpoint::new(self, &info, kind);
        let lead = mode.lead();
        let (from, earlier) = match lead.then(|| ck.start(self.resume)).transpose()?.flatten() {
            Some((state, seconds)) => (Some(state), seconds),
            None => (None, 0.0),
        };
        let saver = Arc::new(Mutex::new(ck.saver(
            self.checkpoint_every,
            self.stop_after_levels,
            earlier,
        )));
        let (found, threads) = match cluster {
            Some(cluster) => {
                let hook: Arc<Mutex<dyn LevelHook>> = saver.clone();
                let progress = self.progress.clone();
                match family_on_cluster_resumable(
                    cluster,
                    &self.pos,
                    &self.cfg,
                    move |n| progress(n),
                    self.resume,
                    from,
                    Some(hook),
                ) {
                    Ok(None) => return Ok(Ran::Follower),
                    Ok(Some(Err(Stopped))) => (None, 0),
                    Ok(Some(Ok(f))) => (Some(f), cluster.total_workers()),
                    Err(e) => return cluster_error(e),
                }
            }
            None => {
                let pool = super::pool(self.threads)?;
                let found = pool.install(|| {
                    family_of_cycle_resumable(
                        info,
                        &self.cfg,
                        &*self.progress,
                        from,
                        &mut |o, n| saver.lock().unwrap().on_level(o, n),
                    )
                });
                (found, pool.current_num_threads())
            }
        };
        let Some(mut f) = found else {
            let saver = saver.lock().unwrap();
            return match &saver.error {
                Some(e) => Err(RunError::failed(format!("writing the checkpoint: {e}"))),
                None => Ok(Ran::Stopped(Stop::with(format!(
                    "stopped after {} levels; saved {}: finish with --resume",
                    saver.stop_after.unwrap_or(0),
                    ck.path.display()
                )))),
            };
        };
        // The job's time: the runs before this one (up to their last save) and this one.
        f.seconds += earlier;
        // A finished run leaves no checkpoint.
        match std::fs::remove_file(&ck.path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(RunError::failed(format!(
                "removing {}: {e}",
                ck.path.display()
            ))),
            _ => Ok(self.whole(f, threads)),
        }
    }
}

impl Job for FamilyJob {
    const COMMAND: &'static str = "family";
    type Entry = LevelState;
    type Part = FamilyPart;
    type Context = FamilyContext;
    type Answer = FamilyAnswer;

    /// The cycle's positions: a shard owns the closure below the cycle positions it owns.
    fn units(&self) -> u64 {
        cycle_of(&self.pos, &self.cfg).map_or(0, |c| c.period)
    }

    fn fingerprint(&self) -> String {
        format!(
            "family v1 position={} max_positions={} visited_set={}",
            self.pos, self.cfg.max_positions, self.cfg.visited_set
        )
    }

    fn context(&self) -> FamilyContext {
        FamilyContext {
            position: self.pos.to_string(),
            max_positions: self.cfg.max_positions,
            visited_set: self.cfg.visited_set,
            out: self.out.as_ref().map(|p| p.display().to_string()),
            command: super::recorded_command(&[], &[]),
        }
    }

    /// `OUT.shard-I-of-N` beside `--out OUT`, else `out/family-HASH.shard-I-of-N.bin` (HASH: of
    /// the position).
    fn shard_file(&self, s: Shard) -> PathBuf {
        match &self.out {
            Some(p) => beside(p, s),
            None => PathBuf::from(crate::provenance::DEFAULT_OUT).join(format!(
                "family-{:016x}.{}.bin",
                fnv1a(self.pos.to_string().as_bytes()),
                s.suffix()
            )),
        }
    }

    fn out(&self) -> Option<&Path> {
        self.out.as_deref()
    }

    fn execute(&self, mode: &Mode) -> Result<Ran<FamilyPart>, RunError> {
        if self.resume && self.pos.total() > PACK_MAX_CARDS {
            return Err(RunError::Input(format!(
                "--resume: checkpoints hold positions of at most {PACK_MAX_CARDS} cards, not {}",
                self.pos.total()
            )));
        }
        match mode {
            Mode::Shard(s) => {
                let start = Instant::now();
                let pool = super::pool(self.threads)?;
                match pool.install(|| family_part(&self.pos, *s, &self.cfg, &*self.progress)) {
                    Ok(part) => Ok(Ran::Part(FamilyPart::Part(
                        ClosurePart::from(&part),
                        start.elapsed().as_secs_f64(),
                        pool.current_num_threads(),
                    ))),
                    Err(e) => family_error(e),
                }
            }
            Mode::Cluster(cluster) if self.cfg.visited_set => {
                let progress = self.progress.clone();
                match family_on_cluster(cluster, &self.pos, &self.cfg, move |n| progress(n)) {
                    Ok(None) => Ok(Ran::Follower),
                    Ok(Some(f)) => Ok(self.whole(f, cluster.total_workers())),
                    Err(e) => cluster_error(e),
                }
            }
            Mode::Single if self.cfg.visited_set || self.pos.total() > PACK_MAX_CARDS => {
                let pool = super::pool(self.threads)?;
                match pool.install(|| family(&self.pos, &self.cfg, &*self.progress)) {
                    Ok(f) => Ok(self.whole(f, pool.current_num_threads())),
                    Err(e) => family_error(e),
                }
            }
            _ => self.levels(mode),
        }
    }

    fn summary(&self, part: &FamilyPart) -> Value {
        match part {
            FamilyPart::Part(p, _, _) => json!({
                "closure_size": p.size(),
                "balanced_count": p.balanced_count(),
                "complete": p.complete(),
            }),
            FamilyPart::Whole(f, _) => json!({"closure_size": f.closure_size}),
        }
    }

    fn finish(
        ctx: FamilyContext,
        parts: Vec<FamilyPart>,
        out: Option<&Path>,
    ) -> Result<FamilyAnswer, RunError> {
        let bad = |what: String| RunError::Input(format!("shard file: {what}"));
        let pos = Position::parse(&ctx.position, Notation::Dash)
            .map_err(|e| bad(format!("bad position: {e}")))?;
        let cfg = Config {
            max_positions: ctx.max_positions,
            visited_set: ctx.visited_set,
            ..Config::default()
        };
        let mut parts = parts.into_iter().peekable();
        let (f, threads) = match parts.peek() {
            Some(FamilyPart::Whole(..)) => match parts.next() {
                Some(FamilyPart::Whole(f, threads)) => (f, threads),
                _ => unreachable!("peeked"),
            },
            _ => {
                let (mut closures, mut seconds, mut threads) = (Vec::new(), 0.0, 0);
                for p in parts {
                    let FamilyPart::Part(part, secs, th) = p else {
                        return Err(RunError::failed("a whole family among shard parts"));
                    };
                    closures.push(Closure::try_from(&part).map_err(|e| bad(e.to_string()))?);
                    seconds += secs;
                    threads += th;
                }
                let f = family_from_parts(&pos, &cfg, closures, seconds)
                    .map_err(|e| bad(e.to_string()))?;
                (f, threads)
            }
        };
        let mut v = family_json(&f, threads);
        v["position"] = Value::from(pos.to_string());
        let out_file = out.map(Path::to_path_buf).or(ctx.out.map(PathBuf::from));
        if let Some(path) = out_file {
            // Facts, and apart from them the run's provenance (the closure's duplicate count
            // depends on how the threads met, so it goes with the run too).
            let mut saved = v.clone();
            for k in ["seconds", "positions_per_second", "threads", "duplicates"] {
                saved.as_object_mut().unwrap().remove(k);
            }
            let mut run = crate::provenance::Run::here(ctx.command, threads, f.seconds).to_json();
            run["duplicates"] = Value::from(f.duplicates);
            saved["run"] = run;
            write(&path, format!("{saved}\n").as_bytes())?;
        }
        Ok(FamilyAnswer {
            family: f,
            position: pos,
            threads,
            json: v,
            max_positions: ctx.max_positions,
        })
    }
}

fn family_json(f: &Family, threads: usize) -> Value {
    json!({
        "cycle_id": f.cycle.cycle_id.to_string(),
        "preperiod": f.cycle.preperiod,
        "period": f.cycle.period,
        "cycle_cards": f.cycle.cycle_cards,
        "closure_size": f.closure_size,
        "balanced": f.balanced.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
        "balanced_count": f.balanced.len(),
        "max_depth": f.max_depth,
        "reach": f.reach,
        "deepest": f.deepest.to_string(),
        "complete": f.complete,
        "duplicates": f.duplicates,
        "seconds": f.seconds,
        "positions_per_second": f.positions_per_second(),
        "threads": threads,
    })
}

/// The checkpoint of a family run (single process, or process 0 of a cluster): the BFS saved at
/// a level boundary, named by the job (the cycle, its card count and `--max-positions`: what
/// changes the answer).
#[derive(Clone)]
struct LevelCheckpoint {
    path: PathBuf,
    fingerprint: String,
}

impl LevelCheckpoint {
    fn new(job: &FamilyJob, info: &CycleInfo, mode: &str) -> LevelCheckpoint {
        let fingerprint = format!(
            "family v1 cycle={} cards={} max_positions={} mode={mode}",
            info.cycle_id,
            info.cycle_id.total(),
            job.cfg.max_positions
        );
        let path = match &job.out {
            Some(out) => checkpoint_beside(out),
            None => PathBuf::from(crate::provenance::DEFAULT_OUT).join(format!(
                "family-{:016x}.checkpoint",
                fnv1a(fingerprint.as_bytes())
            )),
        };
        LevelCheckpoint { path, fingerprint }
    }

    /// The saved state and the job's seconds so far with `--resume` (which needs the
    /// checkpoint); without it, refuses to start over an unfinished run's checkpoint, as
    /// `assemble` does.
    fn start(&self, resume: bool) -> Result<Option<(LevelState, f64)>, RunError> {
        let p = self.path.display();
        if !resume {
            if self.path.exists() {
                return Err(RunError::Input(format!(
                    "{p}: a checkpoint of an unfinished run exists: add --resume to finish it, or delete it to start over"
                )));
            }
            return Ok(None);
        }
        if !self.path.exists() {
            return Err(RunError::Input(format!(
                "--resume: no checkpoint at {p} (run without --resume to start)"
            )));
        }
        level_checkpoint::load(&self.path, &self.fingerprint)
            .map(Some)
            .map_err(RunError::input)
    }

    fn saver(&self, every: f64, stop_after: Option<u32>, earlier: f64) -> Saver {
        Saver {
            ck: self.clone(),
            every: Duration::from_secs_f64(every.max(0.0)),
            earlier,
            began: Instant::now(),
            last: Instant::now(),
            cost: Duration::ZERO,
            stop_after,
            error: None,
        }
    }
}

/// Saves the BFS at level boundaries, at most every `every`, and stops it after `stop_after`
/// levels (saved first) or when a save fails.
struct Saver {
    ck: LevelCheckpoint,
    every: Duration,
    /// The seconds of the job's earlier runs, and when this one began: each save holds the
    /// job's time so far, so a run resumed after `kill -9` counts up to the last save.
    earlier: f64,
    began: Instant,
    last: Instant,
    /// How long the last save took: saves wait ten times that, so a huge frontier is not
    /// written over and over.
    cost: Duration,
    stop_after: Option<u32>,
    error: Option<String>,
}

impl Saver {
    fn on_level(&mut self, out: &Closure, next: &[Node]) -> bool {
        !self.due(out) || self.save(&LevelState::of(out, next))
    }

    fn stopping(&self, out_depth: u32) -> bool {
        self.stop_after.is_some_and(|n| out_depth >= n)
    }
}

impl LevelHook for Saver {
    fn due(&mut self, out: &Closure) -> bool {
        self.stopping(out.max_depth) || self.last.elapsed() >= self.every.max(self.cost * 10)
    }

    fn save(&mut self, state: &LevelState) -> bool {
        let start = Instant::now();
        let seconds = self.earlier + self.began.elapsed().as_secs_f64();
        if let Err(e) = level_checkpoint::save(&self.ck.path, &self.ck.fingerprint, state, seconds)
        {
            self.error = Some(e.to_string());
            return false;
        }
        self.last = Instant::now();
        self.cost = start.elapsed();
        !self.stopping(state.max_depth)
    }
}
