//! `assemble` as a job: its units are the plan's units of decks; the checkpoint logs each finished
//! unit and each family built ([`Record`]); phase 2 builds the family of every distinct cycle
//! (a shard, those of its own cycles). The answer is the summary with its result files
//! ([`super::assemble_report`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::assemble_cluster::{ClusterJob, run_cluster};
use super::assemble_report::{RunContext, collect, finish, merge_shards};
use super::assemble_setup::{AssembleOptions, Setup};
use super::job::{Job, Ran, Stop, shard_path};
use super::shard::Shard;
use super::start::{Resume, Started, start};
use super::{Mode, RunError};
use crate::assemble::records::{Elapsed, FamilyDone, Record, families_of, upgrade_all};
use crate::assemble::{CycleHit, UnitDone, merge};
use crate::backward::closure::Config as ClosureConfig;
use crate::library::checkpoint::Checkpoint;
use crate::library::fnv1a;

/// A run's finished units and the families of their cycles.
type Finished = (Vec<UnitDone>, Vec<FamilyDone>);

/// What the progress bars see.
pub enum Phase {
    /// Decks tested (first those a resumed run found done).
    Decks(u64),
    /// Phase 2 begins: this many families to build.
    Families(u64),
    /// A family is built.
    Family,
}

/// An assembly to run.
pub struct AssembleJob {
    pub opts: AssembleOptions,
    pub setup: Setup,
    /// The directory of the result files (checkpoints and shard files under its `work/`).
    pub out: PathBuf,
    pub resume: bool,
    pub threads: Option<usize>,
    /// Stop after this many units, as an interruption would (for testing `--resume`).
    pub stop_after_units: Option<usize>,
    pub progress: Arc<dyn Fn(Phase) + Send + Sync>,
    log: Arc<Mutex<Option<Checkpoint<Record>>>>,
    checkpoint_error: Arc<Mutex<Option<String>>>,
}

/// A run's finished units and families, as a shard file carries them (the wall clock and threads
/// of a single run never travel).
#[derive(Serialize, Deserialize)]
#[serde(transparent)]
pub struct AssemblePart {
    pub records: Vec<Record>,
    #[serde(skip)]
    threads: usize,
    #[serde(skip)]
    started: Option<Instant>,
    /// The seconds of the runs this one resumed (their records are among `records` too).
    #[serde(skip)]
    earlier_seconds: f64,
}

/// The answer: the summary JSON and the meta of the run (what was assembled).
pub struct AssembleAnswer {
    pub summary: Value,
    pub meta: Value,
}

impl AssembleJob {
    pub fn new(
        opts: AssembleOptions,
        out: PathBuf,
        resume: bool,
        threads: Option<usize>,
        stop_after_units: Option<usize>,
        progress: Arc<dyn Fn(Phase) + Send + Sync>,
    ) -> Result<AssembleJob, RunError> {
        let setup = super::assemble_setup::setup(&opts)?;
        Ok(AssembleJob {
            opts,
            setup,
            out,
            resume,
            threads,
            stop_after_units,
            progress,
            log: Arc::new(Mutex::new(None)),
            checkpoint_error: Arc::new(Mutex::new(None)),
        })
    }

    /// The decks the run tests (all shards together).
    pub fn decks(&self) -> u64 {
        self.setup.plan.total_decks().min(self.setup.limit)
    }

    fn checkpoint_path(&self, shard: Option<Shard>) -> PathBuf {
        super::job::checkpoint_path(&self.out, &self.setup.stem, shard, "checkpoint")
    }

    /// Phase 1 tests every unit of decks not yet done (of this shard); phase 2 builds the family
    /// of every distinct cycle. `None` when `--stop-after-units` stopped phase 1.
    fn local(
        &self,
        shard: Option<Shard>,
        (done_units, done_families): (&[UnitDone], &BTreeMap<u128, FamilyDone>),
        cfg: &ClosureConfig,
        note: &(dyn Fn(&Record) + Sync),
    ) -> Result<Result<Finished, (usize, usize)>, RunError> {
        let (plan, limit) = (&self.setup.plan, self.setup.limit);
        let pool = super::pool(self.threads)?;
        let owns = |i: u32| shard.is_none_or(|s| s.owns(i as u64));
        let progress = &*self.progress;
        progress(Phase::Decks(done_units.iter().map(|u| u.decks).sum()));
        // A unit takes its place in the count before it starts (`run_some` asks once per unit):
        // counting finished units let each other thread start one more while the last counted
        // one still ran, so `--stop-after-units N` ran more than N units with several threads.
        let started = AtomicUsize::new(0);
        let stop_after = self.stop_after_units.unwrap_or(usize::MAX);
        let units = pool.install(|| {
            plan.run_some(
                done_units,
                limit,
                !self.opts.balance,
                &owns,
                &|u| {
                    note(&Record::Unit(u.clone()));
                    progress(Phase::Decks(u.decks));
                },
                &|| {
                    // Each unit is heard of as it starts too, with no decks yet: a caller's
                    // progress callback can stop the run there, before the unit's work (the
                    // Python module does on Ctrl-C; the units run in one parallel loop).
                    progress(Phase::Decks(0));
                    started.fetch_add(1, Ordering::SeqCst) >= stop_after
                },
            )
        });
        let expected = plan
            .unit_limits(limit)
            .iter()
            .filter(|(i, _)| owns(*i))
            .count();
        if units.len() < expected {
            return Ok(Err((units.len(), expected)));
        }
        let merged = merge(&units);
        // Phase 2: the family of every distinct cycle (in cycle-key order). A shard takes the
        // families of its own cycles: a cycle several shards reach is built by each of them (a
        // family depends on the cycle alone, so they agree, and merge keeps one).
        let cycles: Vec<&CycleHit> = merged.cycles.values().collect();
        progress(Phase::Families(cycles.len() as u64));
        let frame = &self.setup.frame;
        let families = pool.install(|| {
            families_of(&cycles, done_families, frame, cfg, note, &|| {
                progress(Phase::Family)
            })
        });
        Ok(Ok((units, families)))
    }
}

impl Job for AssembleJob {
    const COMMAND: &'static str = "assemble";
    type Entry = Record;
    type Part = AssemblePart;
    type Context = RunContext;
    type Answer = AssembleAnswer;

    fn units(&self) -> u64 {
        self.setup.plan.unit_limits(self.setup.limit).len() as u64
    }

    fn fingerprint(&self) -> String {
        self.setup.fingerprint.clone()
    }

    fn context(&self) -> RunContext {
        let meta = json!({
            "command": crate::provenance::this_command(),
            "ansatz_version": env!("CARGO_PKG_VERSION"),
            "libraries": self.setup.lib_names,
            "template": self.setup.template.game,
            "pieces": self.opts.pieces,
            "deck": self.setup.deck.to_string(),
        });
        RunContext {
            stem: self.setup.stem.clone(),
            meta: meta.to_string(),
            other: self.setup.frame.other.clone(),
            to_move: self.setup.frame.to_move,
            cards: self.setup.deck.total(),
            balance: self.opts.balance,
        }
    }

    fn shard_file(&self, shard: Shard) -> PathBuf {
        shard_path(&self.out, &self.setup.stem, shard)
    }

    fn out(&self) -> Option<&Path> {
        Some(&self.out)
    }

    fn execute(&self, mode: &Mode) -> Result<Ran<AssemblePart>, RunError> {
        let shard = mode.shard();
        // A shard keeps its own checkpoint (and fingerprint), so each array task resumes alone.
        let fingerprint = match shard {
            Some(s) => format!("{} shard={s}", self.setup.fingerprint),
            None => self.setup.fingerprint.clone(),
        };
        let ckpt = self.checkpoint_path(shard);
        // A cluster connects first: if it never forms, no checkpoint is left behind.
        let resume = if self.resume {
            Resume::Existing
        } else {
            Resume::No
        };
        let Started {
            connection,
            log,
            previous,
        } = start::<Record>(mode, &ckpt, &fingerprint, resume).map_err(RunError::input)?;
        *self.log.lock().unwrap() = log;
        let cfg = ClosureConfig {
            max_positions: self.opts.max_positions,
            ..ClosureConfig::default()
        };
        let mut done_units = Vec::new();
        let mut done_families = BTreeMap::new();
        let mut earlier = Vec::new();
        let pool = super::pool(self.threads)?;
        for r in pool.install(|| upgrade_all(previous, self.setup.deck.total(), &cfg)) {
            match r {
                Record::Unit(u) => done_units.push(u),
                Record::Family(f) => {
                    done_families.insert(f.cycle_key, f);
                }
                Record::Elapsed(e) => earlier.push(e),
                Record::FamilyWithoutReach(_) => unreachable!("upgraded"),
            }
        }
        let started = Instant::now();
        let segment = Elapsed::segment_now();
        let now = move || Elapsed {
            segment,
            seconds: started.elapsed().as_secs_f64(),
        };
        let note = {
            let (log, error) = (self.log.clone(), self.checkpoint_error.clone());
            move |r: &Record| {
                if let Some(log) = log.lock().unwrap().as_mut() {
                    // A unit carries the run's time with it, so a resumed run still counts it.
                    let timed = matches!(r, Record::Unit(_)).then(|| Record::Elapsed(now()));
                    if let Err(e) = std::iter::once(r)
                        .chain(&timed)
                        .try_for_each(|r| log.append(r))
                    {
                        error.lock().unwrap().get_or_insert(e.to_string());
                    }
                }
            }
        };
        let threads = pool.current_num_threads();
        let (units, families) = if let Mode::Cluster(cluster) = mode {
            let job = ClusterJob {
                plan: self.setup.plan.clone(),
                limit: self.setup.limit,
                keep_decks: !self.opts.balance,
                cfg,
                done_units,
                done_families,
            };
            let progress = self.progress.clone();
            match run_cluster(
                cluster,
                connection.expect("connected at the start"),
                fnv1a(format!("assemble {fingerprint} workers={}", cluster.workers).as_bytes()),
                job,
                Arc::new(note),
                Arc::new(move |n| progress(Phase::Decks(n))),
            )
            .map_err(RunError::input)?
            {
                None => return Ok(Ran::Follower),
                Some(r) => r,
            }
        } else {
            match self.local(shard, (&done_units, &done_families), &cfg, &note)? {
                Ok(done) => done,
                Err((done, expected)) => {
                    return Ok(Ran::Stopped(Stop::with(format!(
                        "stopped after {done} of {expected} units; finish with --resume"
                    ))));
                }
            }
        };
        if let Some(e) = self.checkpoint_error.lock().unwrap().take() {
            // The error names the checkpoint already.
            return Err(RunError::Failed(format!("writing the checkpoint {e}")));
        }
        let earlier = Elapsed::latest(earlier);
        let earlier_seconds = Elapsed::total(&earlier).unwrap_or(0.0);
        let records = units
            .into_iter()
            .map(Record::Unit)
            .chain(families.into_iter().map(Record::Family))
            .chain(earlier.into_iter().map(Record::Elapsed))
            .chain([Record::Elapsed(now())])
            .collect();
        Ok(Ran::Part(AssemblePart {
            records,
            threads,
            started: Some(started),
            earlier_seconds,
        }))
    }

    fn close(&self) -> Result<(), RunError> {
        match self.log.lock().unwrap().take() {
            Some(log) => log.finish().map_err(RunError::failed),
            None => Ok(()),
        }
    }

    fn summary(&self, part: &AssemblePart) -> Value {
        let (mut units, mut decks, mut families, mut elapsed) = (0, 0, 0, Vec::new());
        for r in &part.records {
            match r {
                Record::Unit(u) => {
                    units += 1;
                    decks += u.decks;
                }
                Record::Elapsed(e) => elapsed.push(*e),
                _ => families += 1,
            }
        }
        json!({"units": units, "decks_tested": decks, "families": families,
               "seconds": Elapsed::total(&elapsed)})
    }

    fn finish(
        ctx: RunContext,
        parts: Vec<AssemblePart>,
        out: Option<&Path>,
    ) -> Result<AssembleAnswer, RunError> {
        let mut started = Instant::now();
        let (mut threads, mut earlier) = (0, 0f64);
        let mut units = Vec::new();
        let mut families = BTreeMap::new();
        for p in parts {
            started = started.min(p.started.unwrap_or(started));
            threads += p.threads;
            // Parts run side by side (cluster processes): the longest earlier time, not the sum.
            earlier = earlier.max(p.earlier_seconds);
            collect(
                p.records,
                ctx.cards,
                &mut units,
                &mut families,
                &mut Vec::new(),
            );
        }
        units.sort_by_key(|u| u.index);
        let families: Vec<FamilyDone> = families.into_values().collect();
        let threads = if threads == 0 {
            rayon::current_num_threads()
        } else {
            threads
        };
        let dir = out.map_or_else(
            || PathBuf::from(crate::provenance::DEFAULT_OUT),
            Path::to_path_buf,
        );
        // A resumed run counts the runs before it, up to their last finished unit.
        let seconds = earlier + started.elapsed().as_secs_f64();
        let summary = finish(&ctx, Some(&dir), &units, &families, seconds, threads)?;
        let meta: Value = serde_json::from_str(&ctx.meta).map_err(RunError::input)?;
        Ok(AssembleAnswer { summary, meta })
    }
}

/// Merges the shard files of an assembly: every shard into the single run's answer (result files
/// in `out`), or (`out` = `None`, `merge --partial`) the shards done so far into an answer that
/// names them and writes no file.
pub fn merge_assemble(
    files: &[super::shard::ShardFile],
    out: Option<&Path>,
) -> Result<AssembleAnswer, RunError> {
    let (summary, meta) = merge_shards(files, out)?;
    Ok(AssembleAnswer { summary, meta })
}
