//! A discovery's pipeline: [`run_steps`] runs the stages of `stages/` in order on any home of
//! its steps; [`run`] and [`run_timed`] are the single run with its checkpoint.

use std::path::Path;

use super::checkpoint::Checkpoint;
use super::clock::{Clock, RunTime};
use super::config::{Config, check};
use super::error::DiscoverError;
use super::report::{Discovery, Observer};
use super::stage::{Context, Log, summary};
use super::stages;
use super::steps::{self, Steps};

/// Runs a discovery on the current rayon pool, with its checkpoint in `work` (resumed with
/// `resume`); the checkpoint is removed once the answer is there.
pub fn run(
    config: &Config,
    work: &Path,
    resume: bool,
    obs: &dyn Observer,
) -> Result<Discovery, DiscoverError> {
    Ok(run_timed(config, work, resume, obs)?.0)
}

/// [`run`], and the seconds of the runs before this one (a resumed run; 0 for a fresh one),
/// which the stages' seconds include (see `clock.rs`).
pub fn run_timed(
    config: &Config,
    work: &Path,
    resume: bool,
    obs: &dyn Observer,
) -> Result<(Discovery, f64), DiscoverError> {
    check(config)?;
    let ckpt = Checkpoint::open(work, &config.fingerprint(), resume)?;
    let earlier = RunTime::earlier(&ckpt);
    let local = steps::Local { checkpoint: ckpt };
    let mut d = run_steps(config, &local, &Clock::new(obs, &local.checkpoint))?;
    let seconds = RunTime::add_to(&earlier, &mut d);
    local.checkpoint.remove();
    Ok((d, seconds))
}

/// Runs a discovery whose steps run and are kept as `steps` says (one machine, a task of a job
/// array, a process of a cluster): every home gives the same answer.
pub fn run_steps(
    config: &Config,
    steps: &dyn Steps,
    obs: &dyn Observer,
) -> Result<Discovery, DiscoverError> {
    // Every home (one machine, a task of a job array, a cluster process) checks its input here.
    check(config)?;
    let cx = Context::new(config, steps, obs)?;
    let scope = config.scope;
    let mut log = Log::new(obs);
    let by_shapes = stages::frame::run(&cx, &mut log)?;
    let whole_deck = config.whole_deck();
    let mut list = match whole_deck {
        Some(deals) => stages::deck::run(&cx, &mut log, deals)?,
        None => Vec::new(),
    };
    let routes = whole_deck.is_none();
    let ansatz = routes && scope.ansatz;
    let threshold = ((config.deck.total() / 2) as u8).saturating_sub(scope.accumulation_margin);
    let (mut filter, mut accumulators) = (None, Vec::new());
    if ansatz && by_shapes {
        filter = stages::heads::filter(&cx, &mut log)?;
        accumulators = stages::heads::heads(&cx, &mut log, filter.as_deref(), threshold)?;
    }
    let mut censuses = Vec::new();
    if ansatz {
        let shapes: Vec<String> = match by_shapes {
            true => accumulators.iter().map(|a| a.shape.clone()).collect(),
            false => vec!["*".into()],
        };
        censuses = stages::census::run(&cx, &mut log, &shapes, &mut list)?;
    }
    if config.sweeps_frames() {
        stages::frames::run(&cx, &mut log, &mut list)?;
    }
    if let Some(ins) = scope.insertion.filter(|_| routes) {
        stages::insertion::run(&cx, &mut log, &ins, &mut list)?;
    }
    if let Some(s) = scope.split.filter(|_| config.splits()) {
        stages::split::run(&cx, &mut log, &s, &mut list)?;
    }
    let mut families = stages::balance::run(&cx, &mut log, &list)?;
    let mut fills = Vec::new();
    if ansatz && by_shapes && config.fill_limit > 0 {
        fills = stages::fill::run(&cx, &mut log, &mut list, &mut families)?;
    }
    Ok(Discovery {
        deck: config.deck.to_string(),
        scope: scope.name.into(),
        frame: cx.df.display(),
        filter,
        accumulation_threshold: threshold,
        accumulators,
        censuses: censuses.iter().map(summary).collect(),
        fills: fills.iter().map(summary).collect(),
        reach_histogram: families.reach_histogram,
        balanced_cycles: families.balanced,
        stages: log.reports,
    })
}
