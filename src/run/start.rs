//! The start of a run that may be split: a cluster connects first (so a cluster that never forms
//! leaves nothing behind), then the process that keeps the run's log (the only process, a shard,
//! or process 0 of a cluster) creates its checkpoint or, on resume, reads the finished records.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;
use thiserror::Error;

use super::Mode;
use super::cluster::{ClusterError, Connection};
use crate::library::checkpoint::{Checkpoint, CheckpointError};

/// A started run.
pub struct Started<R> {
    /// The cluster's connections (cluster runs only), for [`super::cluster::Cluster::run_job`].
    pub connection: Option<Connection>,
    /// The checkpoint log (`None` on a cluster's other processes).
    pub log: Option<Checkpoint<R>>,
    /// The records an interrupted run logged (empty unless resuming).
    pub previous: Vec<R>,
}

#[derive(Debug, Error)]
pub enum StartError {
    #[error(transparent)]
    Cluster(#[from] ClusterError),
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    #[error("--resume: no checkpoint at {0} (run without --resume to start)")]
    NoCheckpoint(PathBuf),
}

/// Whether a run resumes, and whether resuming needs a checkpoint to be there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resume {
    /// A fresh run: the checkpoint must not exist yet.
    No,
    /// Resume, or start when there is no checkpoint.
    OrStart,
    /// Resume from the checkpoint, which must exist.
    Existing,
}

/// Connects (cluster runs), then opens the checkpoint at `path` for the run named by
/// `fingerprint` where this process keeps the log.
pub fn start<R: Serialize + DeserializeOwned>(
    mode: &Mode,
    path: &Path,
    fingerprint: &str,
    resume: Resume,
) -> Result<Started<R>, StartError> {
    let connection = match mode {
        Mode::Cluster(c) => Some(c.connect()?),
        _ => None,
    };
    let (log, previous) = if !mode.lead() {
        (None, Vec::new())
    } else {
        match resume {
            Resume::No => (Some(Checkpoint::create(path, fingerprint)?), Vec::new()),
            Resume::Existing if !path.exists() => {
                return Err(StartError::NoCheckpoint(path.to_path_buf()));
            }
            Resume::Existing | Resume::OrStart => {
                let (log, previous) = Checkpoint::resume(path, fingerprint)?;
                (Some(log), previous)
            }
        }
    };
    Ok(Started {
        connection,
        log,
        previous,
    })
}
