//! Searches run as asked: on one machine (the whole run or one `--shard I/N` of it) or on a
//! cluster in lockstep batches, each with its checkpoint, so `--resume` finishes an interrupted
//! run (a cluster and a single run share the checkpoint: process 0 keeps it).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;
use serde::de::DeserializeOwned;
use thiserror::Error;

use crate::library::{WriteError, fnv1a};
use crate::run::cluster::{Cluster, ClusterError};
use crate::run::lockstep::{Lockstep, lockstep};
use crate::run::shard::Shard;
use crate::search::checkpoint::{self, CheckpointError};
use crate::search::exhaustive::run::{self, ExhaustiveConfig, Work};
use crate::search::exhaustive::{ExhaustiveStats, TaskScratch};
use crate::search::random::{self, RandomConfig};
use crate::search::stats::GameStats;

#[derive(Debug, Error)]
pub enum SplitError {
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    #[error("checkpoint: {0}")]
    Save(WriteError),
    #[error(transparent)]
    Cluster(#[from] ClusterError),
}

/// A search's checkpoint: loaded on resume; saved at most once a second, and always once all
/// `total` units are done, so the last batch is never lost. It carries the job's wall time over
/// its runs, so a run resumed after `kill -9` still counts the time of the runs before it (up to
/// their last save).
pub struct Checkpointer<C> {
    path: PathBuf,
    kind: &'static str,
    cfg: C,
    total: u64,
    last: Instant,
    began: Instant,
    earlier: f64,
}

impl<C: Serialize> Checkpointer<C> {
    pub fn new(path: PathBuf, kind: &'static str, cfg: C, total: u64) -> Checkpointer<C> {
        Checkpointer {
            path,
            kind,
            cfg,
            total,
            last: Instant::now(),
            began: Instant::now(),
            earlier: 0.0,
        }
    }

    /// The units done and the state of the interrupted run, when `resume`; the seconds its runs
    /// spent become [`Checkpointer::earlier`]. Without `resume`, a checkpoint of this very run
    /// left unfinished is refused rather than overwritten (its work would be lost for a
    /// forgotten `--resume`); a finished one, or another run's, is replaced.
    pub fn load<S: DeserializeOwned>(
        &mut self,
        resume: bool,
    ) -> Result<Option<(u64, S)>, SplitError> {
        if !resume {
            return match checkpoint::load::<_, serde::de::IgnoredAny>(
                &self.path, self.kind, &self.cfg,
            ) {
                Ok(l) if l.done < self.total => {
                    Err(CheckpointError::Unfinished(self.path.clone()).into())
                }
                _ => Ok(None),
            };
        }
        let loaded = checkpoint::load(&self.path, self.kind, &self.cfg)?;
        self.earlier = loaded.seconds;
        Ok(Some((loaded.done, loaded.state)))
    }

    /// The seconds the runs before this one spent (0 for a fresh run).
    pub fn earlier(&self) -> f64 {
        self.earlier
    }

    pub fn save<S: Serialize>(&mut self, done: u64, state: &S) -> Result<(), SplitError> {
        if done < self.total && self.last.elapsed().as_secs_f64() < 1.0 {
            return Ok(());
        }
        self.last = Instant::now();
        let seconds = self.earlier + self.began.elapsed().as_secs_f64();
        checkpoint::save(&self.path, self.kind, &self.cfg, done, state, seconds)
            .map_err(SplitError::Save)
    }
}

/// What a run gives: the statistics, the games (or deals) a resumed run found already done, and
/// the seconds the runs before it spent.
pub struct Local<S> {
    pub stats: S,
    pub resumed: u64,
    pub earlier_seconds: f64,
}

/// Whether `shard` (none: the whole run) owns unit `u`.
fn owner(shard: Option<Shard>) -> impl Fn(u64) -> bool + Sync {
    move |u| shard.is_none_or(|s| s.owns(u))
}

/// The games of a random search that `shard` plays (all of them without a shard).
pub fn random_games(cfg: &RandomConfig, shard: Option<Shard>) -> u64 {
    let owns = owner(shard);
    (0..random::chunks(cfg.games))
        .filter(|&c| owns(c))
        .map(|c| (cfg.games - c * crate::deal::CHUNK).min(crate::deal::CHUNK))
        .sum()
}

fn random_checkpointer(cfg: &RandomConfig, path: PathBuf) -> Checkpointer<RandomConfig> {
    Checkpointer::new(path, "random", cfg.clone(), random::chunks(cfg.games))
}

/// A random search on this machine (run it inside the rayon pool): the chunks `shard` owns, in
/// parallel, resumed from and saved to the checkpoint at `ckpt`. `progress` sees
/// the games played (first those a resumed run found done).
pub fn random_local(
    cfg: &RandomConfig,
    shard: Option<Shard>,
    ckpt: PathBuf,
    resume: bool,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Local<GameStats>, SplitError> {
    let mut saver = random_checkpointer(cfg, ckpt);
    let start: Option<(u64, GameStats)> = saver.load(resume)?;
    let resumed = start.as_ref().map_or(0, |(_, s)| s.games);
    let earlier_seconds = saver.earlier();
    progress(resumed);
    let stats = random::run(cfg, start, &owner(shard), progress, &mut |done, s| {
        saver.save(done, s)
    })?;
    Ok(Local {
        stats,
        resumed,
        earlier_seconds,
    })
}

/// The fingerprint of a cluster job: its kind, configuration and workers per process.
fn job<C: Serialize>(kind: &str, cfg: &C, cluster: &Cluster) -> u64 {
    let cfg = serde_json::to_string(cfg).expect("configurations serialise");
    fnv1a(format!("{kind} {cfg} workers={}", cluster.workers).as_bytes())
}

/// Process 0 loads the checkpoint (before connecting, so a bad --resume fails at once); then the
/// lockstep run. Returns the state at process 0 with the seconds of the runs before, `None`
/// elsewhere.
fn cluster_run<C, S>(
    cluster: &Cluster,
    mut saver: Checkpointer<C>,
    resume: bool,
    fingerprint: u64,
    fresh: S,
    job: Lockstep<S, SplitError>,
) -> Result<Option<(S, f64)>, SplitError>
where
    C: Serialize + Send + 'static,
    S: timely::ExchangeData + Clone + Send + Serialize + DeserializeOwned + 'static,
{
    // Only process 0 keeps the checkpoint: the others neither resume nor check it.
    let start = if cluster.process == 0 {
        saver.load(resume)?
    } else {
        None
    };
    let earlier = saver.earlier();
    let connection = cluster.connect()?;
    let job = Lockstep {
        start: start.unwrap_or((0, fresh)),
        save: Box::new(move |done, s: &S| saver.save(done, s)),
        ..job
    };
    let done = lockstep(cluster, connection, fingerprint, job)?.transpose()?;
    Ok(done.map(|s| (s, earlier)))
}

/// A random search on a cluster: chunk `c` runs on global worker `c % workers`, 16 chunks per
/// worker and batch; process 0 keeps the single run's checkpoint at `ckpt` (so `--resume` works
/// across single and cluster runs). Returns the statistics at process 0, `None` elsewhere.
pub fn random_cluster(
    cluster: &Cluster,
    cfg: &RandomConfig,
    ckpt: PathBuf,
    resume: bool,
) -> Result<Option<(GameStats, f64)>, SplitError> {
    let (c1, c2) = (Arc::new(cfg.clone()), Arc::new(cfg.clone()));
    let fresh = GameStats::new(cfg.players, cfg.top).trimmed();
    cluster_run(
        cluster,
        random_checkpointer(cfg, ckpt),
        resume,
        job("search random", cfg, cluster),
        fresh.clone(),
        Lockstep {
            start: (0, fresh),
            total: random::chunks(cfg.games),
            per_worker: 16,
            play: Arc::new(move |c: u64| {
                let mut s = GameStats::new(c1.players, c1.top);
                let lo = c * crate::deal::CHUNK;
                let hi = (lo + crate::deal::CHUNK).min(c1.games);
                random::play_range(&c1, lo, hi, &mut s, &mut random::Scratch::default());
                s.trimmed()
            }),
            empty: Arc::new(move || GameStats::new(c2.players, c2.top).trimmed()),
            merge: |a: &mut GameStats, b: GameStats| a.merge(&b),
            save: Box::new(|_, _| Ok(())),
        },
    )
}

/// The checkpoint kind of an exhaustive search. Prefix sharing past
/// [`NARROW_CARDS`](crate::search::exhaustive::NARROW_CARDS) splits into tasks, where earlier builds played
/// such decks deal by deal over rank ranges: a distinct kind keeps an old checkpoint or shard of
/// such a deck from being resumed or merged into the new units.
pub fn exhaustive_kind(cfg: &ExhaustiveConfig, work: &Work) -> &'static str {
    match work {
        Work::Tasks(_) if cfg.deck.total() > crate::search::exhaustive::NARROW_CARDS => {
            "exhaustive-wide"
        }
        _ => "exhaustive",
    }
}

/// An exhaustive search on this machine (run it inside the rayon pool): the units `shard` owns,
/// in parallel, resumed from and saved to the checkpoint at `ckpt`. (`resumed` is not counted:
/// 0.)
pub fn exhaustive_local(
    cfg: &ExhaustiveConfig,
    work: &Work,
    shard: Option<Shard>,
    ckpt: PathBuf,
    resume: bool,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Local<ExhaustiveStats>, SplitError> {
    let kind = exhaustive_kind(cfg, work);
    let mut saver = Checkpointer::new(ckpt, kind, cfg.clone(), work.units());
    let start = saver.load(resume)?;
    let earlier_seconds = saver.earlier();
    let head = shard.is_none_or(|s| s.index == 0);
    let stats = run::run(
        cfg,
        work,
        start,
        &owner(shard),
        head,
        progress,
        &mut |done, s| saver.save(done, s),
    )?;
    Ok(Local {
        stats,
        resumed: 0,
        earlier_seconds,
    })
}

/// An exhaustive search on a cluster: unit `u` runs on global worker `u % workers`, 64 units per
/// worker and batch; process 0 keeps the single run's checkpoint at `ckpt`. Returns the
/// statistics and the seconds of the runs before at process 0, `None` elsewhere.
pub fn exhaustive_cluster(
    cluster: &Cluster,
    cfg: &ExhaustiveConfig,
    work: Arc<Work>,
    ckpt: PathBuf,
    resume: bool,
) -> Result<Option<(ExhaustiveStats, f64)>, SplitError> {
    let total = work.units();
    // Worker 0 of a fresh run starts from the shared head of prefix-sharing tasks.
    let fresh = match &*work {
        Work::Tasks(p) => p.head.clone(),
        Work::Ranks { .. } => ExhaustiveStats::new(cfg.players),
    };
    let saver = Checkpointer::new(ckpt, exhaustive_kind(cfg, &work), cfg.clone(), total);
    let fingerprint = job("search exhaustive", cfg, cluster);
    let (c1, players) = (Arc::new(cfg.clone()), cfg.players);
    cluster_run(
        cluster,
        saver,
        resume,
        fingerprint,
        fresh.clone(),
        Lockstep {
            start: (0, fresh),
            total,
            per_worker: 64,
            play: Arc::new(move |u: u64| {
                work.run_unit(&c1, u, &mut TaskScratch::default(), &|_| {})
            }),
            empty: Arc::new(move || ExhaustiveStats::new(players)),
            merge: |a: &mut ExhaustiveStats, b: ExhaustiveStats| a.merge(b),
            save: Box::new(|_, _| Ok(())),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    // Saves at most once a second, but always the last one; a resumed run reads what was saved.
    #[test]
    fn checkpoints_are_throttled_but_never_lose_the_end() {
        let dir = std::env::temp_dir().join(format!("ansatz-split-{}", std::process::id()));
        let path = dir.join("c.checkpoint.json");
        let mut c = Checkpointer::new(path.clone(), "test", 5u32, 10);
        assert!(c.load::<u64>(false).unwrap().is_none());
        c.save(3, &33u64).unwrap();
        assert!(!path.exists(), "saved within the first second");
        c.save(10, &100u64).unwrap();
        assert_eq!(c.load::<u64>(true).unwrap(), Some((10, 100)));
        let mut other = Checkpointer::new(path.clone(), "test", 6u32, 10);
        assert!(matches!(
            other.load::<u64>(true),
            Err(SplitError::Checkpoint(_))
        ));
        // A fresh run replaces a finished checkpoint, or another run's, but not an unfinished
        // one of its own.
        assert!(other.load::<u64>(false).unwrap().is_none());
        assert!(c.load::<u64>(false).unwrap().is_none());
        checkpoint::save(&path, "test", &5u32, 9, &99u64, 1.0).unwrap();
        assert!(matches!(
            c.load::<u64>(false),
            Err(SplitError::Checkpoint(CheckpointError::Unfinished(_)))
        ));
        assert_eq!(c.load::<u64>(true).unwrap(), Some((9, 99)));
        let _ = std::fs::remove_dir_all(dir);
    }

    // A resumed run starts from the seconds the checkpoint holds and saves them plus its own;
    // a checkpoint without them (written before they were kept) counts as 0.
    #[test]
    fn checkpoints_carry_the_time_of_earlier_runs() {
        let dir = std::env::temp_dir().join(format!("ansatz-split-t-{}", std::process::id()));
        let path = dir.join("c.checkpoint.json");
        checkpoint::save(&path, "test", &5u32, 4, &44u64, 1000.0).unwrap();
        let mut c = Checkpointer::new(path.clone(), "test", 5u32, 10);
        assert_eq!(c.load::<u64>(true).unwrap(), Some((4, 44)));
        assert_eq!(c.earlier(), 1000.0);
        c.save(10, &100u64).unwrap();
        let loaded = checkpoint::load::<_, u64>(&path, "test", &5u32).unwrap();
        assert!((1000.0..1100.0).contains(&loaded.seconds), "{loaded:?}");
        let mut v: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        v.as_object_mut().unwrap().remove("seconds");
        std::fs::write(&path, v.to_string()).unwrap();
        let mut old = Checkpointer::new(path, "test", 5u32, 10);
        assert_eq!(old.load::<u64>(true).unwrap(), Some((10, 100)));
        assert_eq!(old.earlier(), 0.0);
        let _ = std::fs::remove_dir_all(dir);
    }
}
