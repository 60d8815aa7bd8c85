//! The time of a discovery over its runs. A run on one machine logs its seconds, in all and by
//! stage, in its checkpoint folder as it goes (one file per run, `clock-SEGMENT.json`, rewritten
//! atomically at most once a second and at each stage's end); a resumed run adds the earlier
//! runs' files to its own time, so `--resume` after an interruption, even `kill -9`, reports the
//! time of the whole job (up to the last write of each run) and not only its own.
//!
//! The tasks of a job array share the folder but not this: each reports its own time, and the
//! merge the longest (see `run::discover`).

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::checkpoint::Checkpoint;
use super::report::{Discovery, Observer, StageReport};

/// The prefix of the clock files; no step is named so.
const PREFIX: &str = "clock-";

/// What one run logged: its seconds in all and by stage name (a stage under way counted so far).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct RunTime {
    pub seconds: f64,
    pub stages: BTreeMap<String, f64>,
}

impl RunTime {
    /// The time the runs in `ck` logged before this one.
    pub fn earlier(ck: &Checkpoint) -> Vec<RunTime> {
        ck.load_prefixed(PREFIX)
    }

    /// Adds the `earlier` runs' time to `d`'s stages (by name); their seconds in all.
    pub fn add_to(earlier: &[RunTime], d: &mut Discovery) -> f64 {
        for s in &mut d.stages {
            s.seconds += earlier
                .iter()
                .filter_map(|r| r.stages.get(&s.name))
                .sum::<f64>();
        }
        earlier.iter().map(|r| r.seconds).sum()
    }
}

/// An observer that passes everything on to `inner` and logs the run's time to `ck`.
pub struct Clock<'a> {
    inner: &'a dyn Observer,
    ck: &'a Checkpoint,
    name: String,
    began: Instant,
    state: Mutex<State>,
}

struct State {
    finished: BTreeMap<String, f64>,
    current: Option<(String, Instant)>,
    written: Option<Instant>,
}

impl<'a> Clock<'a> {
    /// A clock for a run starting now, logging to `ck` under a name of its own.
    pub fn new(inner: &'a dyn Observer, ck: &'a Checkpoint) -> Clock<'a> {
        let segment = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        Clock {
            inner,
            ck,
            name: format!("{PREFIX}{segment}"),
            began: Instant::now(),
            state: Mutex::new(State {
                finished: BTreeMap::new(),
                current: None,
                written: None,
            }),
        }
    }

    /// Logs the time so far: always when `now`, else at most once a second. A failed write is
    /// only a lost figure (the steps' own writes report a full disk), so it is not an error.
    fn log(&self, state: &mut State, now: bool) {
        if !now
            && state
                .written
                .is_some_and(|t| t.elapsed() < Duration::from_secs(1))
        {
            return;
        }
        let mut stages = state.finished.clone();
        if let Some((name, t)) = &state.current {
            *stages.entry(name.clone()).or_insert(0.0) += t.elapsed().as_secs_f64();
        }
        let run = RunTime {
            seconds: self.began.elapsed().as_secs_f64(),
            stages,
        };
        let _ = self.ck.save(&self.name, &run);
        state.written = Some(Instant::now());
    }
}

impl Observer for Clock<'_> {
    fn start(&self, stage: &str, total: u64, unit: &str) {
        self.inner.start(stage, total, unit);
        let mut s = self.state.lock().unwrap();
        s.current = Some((stage.to_string(), Instant::now()));
        self.log(&mut s, true);
    }

    fn advance(&self, n: u64) {
        self.inner.advance(n);
        let mut s = self.state.lock().unwrap();
        self.log(&mut s, false);
    }

    fn finish(&self, report: &StageReport) {
        self.inner.finish(report);
        let mut s = self.state.lock().unwrap();
        s.current = None;
        *s.finished.entry(report.name.clone()).or_insert(0.0) += report.seconds;
        self.log(&mut s, true);
    }
}
