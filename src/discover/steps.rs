//! Where a discovery's steps run and where their results are kept. A stage is a list of named
//! steps (the filter, each row of heads, each part of a census, each block of families);
//! [`Steps`] runs the ones still to do and hands back every step's result in order, as JSON
//! bytes. Two homes live here, both on one machine's files:
//!
//! - [`Local`], the single run: the steps in parallel, each result saved to the [`Checkpoint`] as
//!   it finishes, so a resume redoes at most the steps under way.
//! - [`Shared`], one task of a job array: the tasks share one checkpoint folder (the `--out`
//!   folder on a file system every task sees) and exchange steps through it. Task `I` of `N` first
//!   does the steps `s` with `s % N == I`, then any step nobody has claimed, then any step still
//!   missing (whose claimant may have died); so tasks that run side by side split the work, a task
//!   that runs alone still finishes the whole discovery, and no task ever waits for another.
//!
//! The cluster's home (steps spread over processes, results exchanged over the network) is in the
//! run layer, which alone knows clusters.

use rayon::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::DiscoverError;
use super::checkpoint::Checkpoint;

/// A step's work: its result as JSON bytes (so that results can be kept and exchanged), or why the
/// discovery stops.
pub type Work<'a> = &'a (dyn Fn(usize) -> Result<Vec<u8>, DiscoverError> + Sync);

/// Runs the steps of each stage and keeps their results.
pub trait Steps {
    /// The result of every step of `names`, in order. A step finished before (or by another
    /// process) is taken as it is, and `elsewhere(i)` is called for it; any other is computed by
    /// `work(i)` and kept before this returns.
    fn run(
        &self,
        names: &[String],
        work: Work<'_>,
        elsewhere: &(dyn Fn(usize) + Sync),
    ) -> Result<Vec<Vec<u8>>, DiscoverError>;
}

/// [`Steps::run`] with typed results.
pub fn run<T, F>(
    steps: &dyn Steps,
    names: &[String],
    work: F,
    elsewhere: &(dyn Fn(usize) + Sync),
) -> Result<Vec<T>, DiscoverError>
where
    T: Serialize + DeserializeOwned,
    F: Fn(usize) -> Result<T, DiscoverError> + Sync,
{
    let bytes = steps.run(
        names,
        &|i| Ok(serde_json::to_vec(&work(i)?).expect("step results serialize")),
        elsewhere,
    )?;
    bytes
        .iter()
        .zip(names)
        .map(|(b, name)| {
            serde_json::from_slice(b).map_err(|e| {
                DiscoverError::Checkpoint(format!("step {name} does not read back: {e}"))
            })
        })
        .collect()
}

/// The single run: steps in parallel on the current pool, each saved to the checkpoint.
pub struct Local {
    pub checkpoint: Checkpoint,
}

impl Steps for Local {
    fn run(
        &self,
        names: &[String],
        work: Work<'_>,
        elsewhere: &(dyn Fn(usize) + Sync),
    ) -> Result<Vec<Vec<u8>>, DiscoverError> {
        names
            .par_iter()
            .enumerate()
            .map(|(i, name)| match self.checkpoint.load_bytes(name) {
                Some(b) => {
                    elsewhere(i);
                    Ok(b)
                }
                None => {
                    let b = work(i)?;
                    self.checkpoint.save_bytes(name, &b)?;
                    Ok(b)
                }
            })
            .collect()
    }
}

/// Task `index` of a job array of `count` tasks sharing the checkpoint folder.
pub struct Shared {
    pub checkpoint: Checkpoint,
    pub index: usize,
    pub count: usize,
}

impl Shared {
    /// Computes step `i` unless some task has finished it meanwhile; true when this task did.
    fn compute(&self, names: &[String], i: usize, work: Work<'_>) -> Result<bool, DiscoverError> {
        if self.checkpoint.has(&names[i]) {
            return Ok(false);
        }
        let b = work(i)?;
        self.checkpoint.save_bytes(&names[i], &b)?;
        Ok(true)
    }
}

impl Steps for Shared {
    fn run(
        &self,
        names: &[String],
        work: Work<'_>,
        elsewhere: &(dyn Fn(usize) + Sync),
    ) -> Result<Vec<Vec<u8>>, DiscoverError> {
        let n = names.len();
        // First the task's own steps (claimed, so that the other tasks leave them alone)...
        let own: Vec<usize> = (self.index..n).step_by(self.count.max(1)).collect();
        let mine: Vec<bool> = {
            let done = own
                .par_iter()
                .map(|&i| {
                    self.checkpoint.claim(&names[i]);
                    self.compute(names, i, work)
                })
                .collect::<Result<Vec<bool>, DiscoverError>>()?;
            let mut mine = vec![false; n];
            for (&i, d) in own.iter().zip(done) {
                mine[i] = d;
            }
            mine
        };
        let mut mine = mine;
        // ...then the steps no task has claimed (a task that never started), one at a time from
        // the end, so that two idle tasks meet rather than race...
        for i in (0..n).rev() {
            if !self.checkpoint.has(&names[i]) && self.checkpoint.claim(&names[i]) {
                mine[i] |= self.compute(names, i, work)?;
            }
        }
        // ...then whatever is still missing: its claimant is slower, or died (kill -9). Doing it
        // here costs no more than waiting would, and never waits for a task that is gone.
        for i in (0..n).rev() {
            mine[i] |= self.compute(names, i, work)?;
        }
        (0..n)
            .map(|i| {
                let b = self.checkpoint.load_bytes(&names[i]).ok_or_else(|| {
                    DiscoverError::Checkpoint(format!("step {} vanished", names[i]))
                })?;
                if !mine[i] {
                    elsewhere(i);
                }
                Ok(b)
            })
            .collect()
    }
}
