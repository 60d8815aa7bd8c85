//! The run layer: a splittable job (a [`Job`]) run as asked. One process, one `--shard I/N` slice
//! of a job array (with its shard file for `ansatz merge`), or one process of a cluster on
//! timely-dataflow (`--hosts`); `--resume` from a checkpoint; and the merge of shard files into the
//! single run's answer. The pipelines below (`search`, `ansatz`, `assemble`, `backward`) know
//! nothing of this layer: each splittable command implements [`Job`] once, here, on top of them.
//!
//! ```text
//! job.rs        the Job contract and `run` / `merge`: the one place a job becomes a run
//! merge.rs      shard files of any job into its answer (dispatch on the command they name)
//! random.rs  exhaustive.rs  family.rs  find_pieces.rs  assemble.rs     the five jobs
//! search.rs  assemble_cluster.rs  find_cluster.rs  closure.rs  family_parts.rs
//!               how each job's units run locally, in lockstep or on a cluster
//! shard.rs  start.rs  cluster.rs  lockstep.rs  owner.rs
//!               shard files, checkpoints at start, the cluster transport, ownership
//! recall.rs     discover judged on decks whose every deal has been played
//! games.rs      every game of a run of random deals, one by one (the Python module's arrays)
//! ```

pub mod assemble;
pub mod assemble_cluster;
pub mod assemble_report;
pub mod assemble_setup;
pub mod beat_it;
pub mod catalogue;
pub mod closure;
pub mod cluster;
pub mod discover;
pub mod exhaustive;
pub mod extend;
pub mod family;
pub mod family_parts;
pub mod find_cluster;
pub mod find_pieces;
pub mod games;
pub mod job;
pub mod lockstep;
pub mod merge;
pub mod owner;
pub mod random;
pub mod recall;
pub mod search;
pub mod shard;
pub mod start;
pub mod table;

use thiserror::Error;

pub use job::{Done, Job, Ran, ShardDone, Stop, merge_parts, ran_in, run};

/// How a run is split: one process, one shard of a job array, or one process of a cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    Single,
    Shard(shard::Shard),
    Cluster(cluster::Cluster),
}

impl Mode {
    /// The shard of a job-array run.
    pub fn shard(&self) -> Option<shard::Shard> {
        match self {
            Mode::Shard(s) => Some(*s),
            _ => None,
        }
    }

    /// Whether this process keeps the run's log and gives the answer: every process but the
    /// non-zero processes of a cluster.
    pub fn lead(&self) -> bool {
        !matches!(self, Mode::Cluster(c) if c.process != 0)
    }
}

/// What goes wrong in a run. `Input` is what the user pointed at (a foreign checkpoint, a cluster
/// that does not form, shard files of another run); the others are failures of this machine.
#[derive(Debug, Error)]
pub enum RunError {
    #[error("{0}")]
    Input(String),
    #[error("{0}")]
    Failed(String),
}

impl RunError {
    pub fn input(e: impl std::fmt::Display) -> RunError {
        RunError::Input(e.to_string())
    }
    pub fn failed(e: impl std::fmt::Display) -> RunError {
        RunError::Failed(e.to_string())
    }
}

/// Writes a result file atomically (`library::atomic`); the error names the file.
pub(crate) fn write(path: &std::path::Path, bytes: &[u8]) -> Result<(), RunError> {
    crate::library::write_atomic(path, bytes).map_err(RunError::failed)
}

/// Checks a result-file name (`--name`): 1 to 60 letters, digits, `-`, `_` or `.`, not starting
/// with `.` (so it stays one plain file name); the error is the message a user sees.
pub fn check_name(s: &str) -> Result<(), String> {
    let ok = !s.is_empty()
        && s.len() <= 60
        && !s.starts_with('.')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{s:?}: a name is 1 to 60 letters, digits, `-`, `_` or `.`, not starting with `.`"
        ))
    }
}

/// A rayon pool of `threads` workers (every core when `None`).
pub fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, RunError> {
    if threads == Some(0) {
        return Err(RunError::Input("--threads must be at least 1".into()));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| RunError::Failed(format!("starting worker threads: {e}")))
}

/// The distribution flags, each followed by its value: they steer how a run is split, not what
/// it finds.
const DIST_FLAGS: &[&str] = &[
    "--shard",
    "--hosts",
    "--process",
    "--workers",
    "--connect-timeout",
];

/// The command line as recorded in result files: without the flags that only steer this
/// invocation (the distribution flags, the provenance module's steering flags, and `steering`,
/// each with its value, and the `switches`), so a cluster run, a merged job array, an
/// interrupted and resumed run and a single run record the same command.
pub fn recorded_command(steering: &[&str], switches: &[&str]) -> String {
    use crate::provenance::{STEERING_SWITCH, STEERING_VALUE, user_command};
    let values: Vec<&str> = DIST_FLAGS
        .iter()
        .chain(STEERING_VALUE)
        .chain(steering)
        .copied()
        .collect();
    let switches: Vec<&str> = STEERING_SWITCH.iter().chain(switches).copied().collect();
    user_command(crate::provenance::args(), &values, &switches)
}
