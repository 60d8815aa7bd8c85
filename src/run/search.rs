//! Searches run as asked: on one machine (the whole run or one `--shard I/N` of it) or on a
//! cluster in lockstep batches, each with its checkpoint, so `--resume` finishes an interrupted
//! run (a cluster and a single run share the checkpoint: process 0 keeps it).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;
use serde::de::DeserializeOwned;
use thiserror::Error;

use crate::library::fnv1a;
use crate::run::cluster::{Cluster, ClusterError};
use crate::run::lockstep::{Lockstep, lockstep};
use crate::run::shard::Shard;
use crate::search::checkpoint::{self, CheckpointError};
use crate::search::exhaustive::ExhaustiveStats;
use crate::search::exhaustive_run::{self, ExhaustiveConfig, Work};
use crate::search::random::{self, RandomConfig};
use crate::search::stats::GameStats;

#[derive(Debug, Error)]
pub enum SplitError {
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    #[error("writing checkpoint {path}: {source}")]
    Save {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Cluster(#[from] ClusterError),
}

/// A search's checkpoint: loaded on resume; saved at most once a second, and always once all
/// `total` units are done, so the last batch is never lost.
pub struct Checkpointer<C> {
    path: PathBuf,
    kind: &'static str,
    cfg: C,
    total: u64,
    last: Instant,
}

impl<C: Serialize> Checkpointer<C> {
    pub fn new(path: PathBuf, kind: &'static str, cfg: C, total: u64) -> Checkpointer<C> {
        Checkpointer {
            path,
            kind,
            cfg,
            total,
            last: Instant::now(),
        }
    }

    /// The units done and the state of the interrupted run, when `resume`.
    pub fn load<S: DeserializeOwned>(&self, resume: bool) -> Result<Option<(u64, S)>, SplitError> {
        if !resume {
            return Ok(None);
        }
        Ok(Some(checkpoint::load(&self.path, self.kind, &self.cfg)?))
    }

    pub fn save<S: Serialize>(&mut self, done: u64, state: &S) -> Result<(), SplitError> {
        if done < self.total && self.last.elapsed().as_secs_f64() < 1.0 {
            return Ok(());
        }
        self.last = Instant::now();
        checkpoint::save(&self.path, self.kind, &self.cfg, done, state).map_err(|source| {
            SplitError::Save {
                path: self.path.clone(),
                source,
            }
        })
    }
}

/// What a run on one machine gives: the statistics and the games (or deals) a resumed run found
/// already done.
pub struct Local<S> {
    pub stats: S,
    pub resumed: u64,
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
    progress(resumed);
    let stats = random::run(cfg, start, &owner(shard), progress, &mut |done, s| {
        saver.save(done, s)
    })?;
    Ok(Local { stats, resumed })
}

/// The fingerprint of a cluster job: its kind, configuration and workers per process.
fn job<C: Serialize>(kind: &str, cfg: &C, cluster: &Cluster) -> u64 {
    let cfg = serde_json::to_string(cfg).expect("configurations serialise");
    fnv1a(format!("{kind} {cfg} workers={}", cluster.workers).as_bytes())
}

/// Process 0 loads the checkpoint (before connecting, so a bad --resume fails at once); then the
/// lockstep run. Returns the state at process 0, `None` elsewhere.
fn cluster_run<C, S>(
    cluster: &Cluster,
    mut saver: Checkpointer<C>,
    resume: bool,
    fingerprint: u64,
    fresh: S,
    job: Lockstep<S, SplitError>,
) -> Result<Option<S>, SplitError>
where
    C: Serialize + Send + 'static,
    S: timely::ExchangeData + Clone + Send + Serialize + DeserializeOwned + 'static,
{
    let start = saver.load(resume && cluster.process == 0)?;
    let connection = cluster.connect()?;
    let job = Lockstep {
        start: start.unwrap_or((0, fresh)),
        save: Box::new(move |done, s: &S| saver.save(done, s)),
        ..job
    };
    lockstep(cluster, connection, fingerprint, job)?.transpose()
}

/// A random search on a cluster: chunk `c` runs on global worker `c % workers`, 16 chunks per
/// worker and batch; process 0 keeps the single run's checkpoint at `ckpt` (so `--resume` works
/// across single and cluster runs). Returns the statistics at process 0, `None` elsewhere.
pub fn random_cluster(
    cluster: &Cluster,
    cfg: &RandomConfig,
    ckpt: PathBuf,
    resume: bool,
) -> Result<Option<GameStats>, SplitError> {
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
/// in parallel, resumed from and saved to the checkpoint at `ckpt`.
pub fn exhaustive_local(
    cfg: &ExhaustiveConfig,
    work: &Work,
    shard: Option<Shard>,
    ckpt: PathBuf,
    resume: bool,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<ExhaustiveStats, SplitError> {
    let kind = exhaustive_kind(cfg, work);
    let mut saver = Checkpointer::new(ckpt, kind, cfg.clone(), work.units());
    let start = saver.load(resume)?;
    let head = shard.is_none_or(|s| s.index == 0);
    exhaustive_run::run(
        cfg,
        work,
        start,
        &owner(shard),
        head,
        progress,
        &mut |done, s| saver.save(done, s),
    )
}

/// An exhaustive search on a cluster: unit `u` runs on global worker `u % workers`, 64 units per
/// worker and batch; process 0 keeps the single run's checkpoint at `ckpt`. Returns the
/// statistics at process 0, `None` elsewhere.
pub fn exhaustive_cluster(
    cluster: &Cluster,
    cfg: &ExhaustiveConfig,
    work: Arc<Work>,
    ckpt: PathBuf,
    resume: bool,
) -> Result<Option<ExhaustiveStats>, SplitError> {
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
            play: Arc::new(move |u: u64| work.run_unit(&c1, u, &|_| {})),
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
        let other = Checkpointer::new(path, "test", 6u32, 10);
        assert!(matches!(
            other.load::<u64>(true),
            Err(SplitError::Checkpoint(_))
        ));
        let _ = std::fs::remove_dir_all(dir);
    }
}
