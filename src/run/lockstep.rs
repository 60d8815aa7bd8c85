//! Lockstep cluster runs for searches whose state merges (statistics): batches of units run on
//! every worker, their partial states gather at worker 0, which merges them and saves a
//! checkpoint after each batch, so a restarted job resumes from the last finished batch.

use std::sync::{Arc, Mutex};

use super::cluster::{Cluster, ClusterError, Connection, position, round, round_collect};

/// Plays unit `u` into a fresh partial state.
pub type PlayFn<S> = Arc<dyn Fn(u64) -> S + Send + Sync>;
/// Process 0's checkpoint writer: `(units_done, &state)`.
pub type SaveFn<S, E> = Box<dyn FnMut(u64, &S) -> Result<(), E> + Send>;

/// A lockstep run: units `0..total`, of which the first `start.0` are done (merged into
/// `start.1`, which only process 0's value counts); `per_worker` units per worker and batch.
pub struct Lockstep<S, E> {
    pub start: (u64, S),
    pub total: u64,
    pub per_worker: u64,
    pub play: PlayFn<S>,
    pub empty: Arc<dyn Fn() -> S + Send + Sync>,
    pub merge: fn(&mut S, S),
    pub save: SaveFn<S, E>,
}

/// Runs `job` (fingerprint `fingerprint`, checked on every worker first) in lockstep batches:
/// worker 0 tells every worker where to begin; each batch runs unit `u` on global worker
/// `u % workers`; the partial states gather at worker 0, which merges them and calls `save`.
/// Returns the state (or the first save error) at process 0, `None` elsewhere.
pub fn lockstep<S, E>(
    cluster: &Cluster,
    connection: Connection,
    fingerprint: u64,
    job: Lockstep<S, E>,
) -> Result<Option<Result<S, E>>, ClusterError>
where
    S: timely::ExchangeData + Clone + Send + 'static,
    E: Send + 'static,
{
    let Lockstep {
        start,
        total,
        per_worker,
        play,
        empty,
        merge,
        save,
    } = job;
    let start = Mutex::new(Some(start));
    let save = Mutex::new(save);
    cluster.run_job(connection, fingerprint, move |w| {
        let (me, peers) = position(w);
        let mut state = if me == 0 {
            start.lock().unwrap().take()
        } else {
            None
        };
        // Round 1: worker 0 tells every worker how many units are done.
        let seed: Vec<(u64, u64)> = match &state {
            Some((done, _)) => (0..peers as u64).map(|t| (t, *done)).collect(),
            None => Vec::new(),
        };
        let mut done = round_collect(w, seed, |x| x.0).pop().map_or(0, |x| x.1);
        let mut failure: Option<E> = None;
        while done < total {
            let to = (done + per_worker.max(1) * peers as u64).min(total);
            let mut mine = empty();
            for u in (done..to).filter(|u| u % peers as u64 == me as u64) {
                merge(&mut mine, play(u));
            }
            round(w, std::iter::once(mine), |_| 0, &mut |s: S| {
                if let Some((_, st)) = &mut state {
                    merge(st, s);
                }
            });
            done = to;
            if let Some((_, st)) = &state
                && failure.is_none()
                && let Err(e) = (save.lock().unwrap())(done, st)
            {
                failure = Some(e);
            }
        }
        match (state, failure) {
            (None, _) => None,
            (Some(_), Some(e)) => Some(Err(e)),
            (Some((_, st)), None) => Some(Ok(st)),
        }
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn job(start: (u64, Vec<u64>), saves: Arc<Mutex<Vec<u64>>>) -> Lockstep<Vec<u64>, String> {
        Lockstep {
            start,
            total: 50,
            per_worker: 2,
            play: Arc::new(|u| vec![u]),
            empty: Arc::new(Vec::new),
            merge: |a, b| a.extend(b),
            save: Box::new(move |done, _| {
                saves.lock().unwrap().push(done);
                Ok(())
            }),
        }
    }

    // Three workers in one process: every unit is played once, after the units a resumed run
    // found done, and process 0 saves after every batch of 3 workers x 2 units.
    #[test]
    fn lockstep_plays_every_unit_once_and_saves_after_each_batch() {
        let c = Cluster::new(vec!["localhost:1".into()], 0, 3, Duration::from_secs(1)).unwrap();
        for done in [0u64, 20] {
            let saves = Arc::new(Mutex::new(Vec::new()));
            let start = (done, (0..done).collect());
            let got = lockstep(&c, c.connect().unwrap(), 7, job(start, saves.clone()))
                .unwrap()
                .unwrap()
                .unwrap();
            let mut sorted = got.clone();
            sorted.sort();
            assert_eq!(sorted, (0..50).collect::<Vec<u64>>());
            let want: Vec<u64> = (done..50).step_by(6).skip(1).chain([50]).collect();
            assert_eq!(*saves.lock().unwrap(), want);
        }
    }
}
