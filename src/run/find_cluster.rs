//! A piece search on a cluster (timely-dataflow): range `i` runs on worker `i % workers`;
//! finished ranges stream to worker 0 (process 0), which logs them to the checkpoint, so a
//! restarted job with `--resume` skips them.

use std::collections::HashSet;
use std::sync::Arc;

use thiserror::Error;

use crate::ansatz::find::{RunReport, Search};
use crate::library::checkpoint::{CheckpointError, RangeDone};
use crate::run::cluster::{Cluster, ClusterError, Connection, position, round, round_collect};

#[derive(Debug, Error)]
pub enum FindClusterError {
    #[error(transparent)]
    Cluster(#[from] ClusterError),
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
}

/// Logs a finished range to the checkpoint (process 0).
pub type Recorder = dyn Fn(&RangeDone) -> Result<(), CheckpointError> + Send + Sync;

/// The cluster run: range `i` runs on worker `i % workers`; finished ranges go to worker 0
/// (process 0), which logs them. Returns the report at process 0, `None` elsewhere.
pub fn run_cluster(
    cluster: &Cluster,
    connection: Connection,
    fingerprint: u64,
    search: Arc<Search>,
    done: Vec<RangeDone>,
    record: Arc<Recorder>,
    progress: Arc<dyn Fn(u64) + Send + Sync>,
) -> Result<Option<RunReport>, FindClusterError> {
    let done = Arc::new(done);
    let total_ranges = search.ranges();
    progress(done.iter().map(|r| r.candidates).sum());
    let found = cluster.run_job(connection, fingerprint, move |w| {
        let (me, peers) = position(w);
        // Round 1: worker 0 tells every worker which ranges are already done.
        let seed: Vec<(u64, Vec<u32>)> = if me == 0 {
            let idx: Vec<u32> = done.iter().map(|r| r.index).collect();
            (0..peers as u64).map(|t| (t, idx.clone())).collect()
        } else {
            Vec::new()
        };
        let finished: HashSet<u32> = round_collect(w, seed, |x| x.0)
            .pop()
            .map(|x| x.1)
            .unwrap_or_default()
            .into_iter()
            .collect();
        // Round 2: ranges run where they belong; each streams to worker 0 when finished.
        let s = search.clone();
        let mine = (0..search.ranges())
            .filter(move |&i| i % peers == me && !finished.contains(&(i as u32)))
            .map(move |i| s.run_range(i));
        let mut got: Vec<RangeDone> = Vec::new();
        let mut failure: Option<CheckpointError> = None;
        round(w, mine, |_| 0, &mut |r: RangeDone| {
            if let Err(e) = record(&r) {
                failure.get_or_insert(e);
            }
            progress(r.candidates);
            got.push(r);
        });
        if me != 0 {
            return None;
        }
        if let Some(e) = failure {
            return Some(Err(e));
        }
        got.extend(done.iter().cloned());
        got.sort_by_key(|r| r.index);
        Some(Ok(got))
    })?;
    let Some(ranges) = found else {
        return Ok(None);
    };
    let ranges = ranges?;
    Ok(Some(RunReport {
        complete: ranges.len() == total_ranges,
        ranges_done: ranges.len(),
        candidates: ranges.iter().map(|r| r.candidates).sum(),
        pieces: ranges.into_iter().flat_map(|r| r.pieces).collect(),
    }))
}
