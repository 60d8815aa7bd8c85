//! What every stage of a discovery shares: the run's [`Context`], the [`Log`] that does each
//! stage's timer, progress and report, and the step helpers (one step, census plans in parts,
//! families in blocks, new finds added once). The stages themselves are in `stages/`.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::balance::{self, Found};
use super::census::{self, CensusDone};
use super::config::Config;
use super::error::DiscoverError;
use super::frame::{self, DeckFrame};
use super::report::{CensusSummary, Observer, StageReport};
use super::steps::{self, Steps};
use crate::assemble::UnitDone;
use crate::assemble::records::FamilyDone;
use crate::backward::closure::Config as ClosureConfig;

/// How many parts each census is cut into: the steps a resume redoes at most one of, and that the
/// tasks of a job array or the processes of a cluster share out.
pub const CENSUS_PARTS: usize = 16;

/// The most blocks the families of a discovery are cut into (one step each).
pub const FAMILY_BLOCKS: usize = 64;

/// What every stage reads: the run's input, its frame, where its steps run and who hears of them.
pub struct Context<'a> {
    pub config: &'a Config,
    pub df: DeckFrame,
    pub steps: &'a dyn Steps,
    pub obs: &'a dyn Observer,
    pub gate: Gate,
}

/// A test's interruption ([`Config::stop_after_censuses`]): after so many census parts (or parts
/// of the whole deck) computed here, stop as a kill would (the parts finished so far are kept).
/// Apart from the context, which is not `Sync`, so that parallel steps can pass it.
pub struct Gate {
    stop: Option<usize>,
    ran: AtomicUsize,
}

impl Gate {
    /// Counts a part about to be computed; the error once the stop is reached.
    pub fn pass(&self) -> Result<(), DiscoverError> {
        let k = self.ran.fetch_add(1, Ordering::SeqCst);
        match self.stop {
            Some(stop) if k >= stop => Err(DiscoverError::Stopped(stop)),
            _ => Ok(()),
        }
    }
}

impl<'a> Context<'a> {
    /// The context of `config`, its frame derived.
    pub fn new(
        config: &'a Config,
        steps: &'a dyn Steps,
        obs: &'a dyn Observer,
    ) -> Result<Context<'a>, DiscoverError> {
        Ok(Context {
            df: frame::derive(config.deck, config.separator, config.ends.as_ref())?,
            config,
            steps,
            obs,
            gate: Gate {
                stop: config.stop_after_censuses,
                ran: AtomicUsize::new(0),
            },
        })
    }

    /// The closure settings of the families' backward play.
    pub fn closure(&self) -> ClosureConfig {
        ClosureConfig {
            max_positions: self.config.max_positions,
            ..ClosureConfig::default()
        }
    }

    /// The one result of a stage's single step `name`.
    pub fn one_step<T, F>(&self, name: &str, work: F) -> Result<T, DiscoverError>
    where
        T: Serialize + DeserializeOwned,
        F: Fn() -> Result<T, DiscoverError> + Sync,
    {
        let first = steps::run(self.steps, &[name.to_string()], |_| work(), &|_| {})?;
        Ok(first.into_iter().next().expect("one step, one result"))
    }
}

/// What a stage reports when it ends (its [`StageReport`] but the name and the seconds).
pub struct Done {
    pub work: u64,
    pub unit: &'static str,
    pub summary: String,
    pub cycles: u64,
    pub balanced_cycles: u64,
    pub reach_histogram: BTreeMap<u8, u64>,
}

impl Done {
    /// `work` units of `unit`, what was found in words, and no cycle counts.
    pub fn new(work: u64, unit: &'static str, summary: String) -> Done {
        Done {
            work,
            unit,
            summary,
            cycles: 0,
            balanced_cycles: 0,
            reach_histogram: BTreeMap::new(),
        }
    }

    /// With the distinct cycles known after the stage.
    pub fn cycles(mut self, cycles: usize) -> Done {
        self.cycles = cycles as u64;
        self
    }
}

/// The stages' reports, in order, each told to the observer as it ends.
pub struct Log<'a> {
    obs: &'a dyn Observer,
    pub reports: Vec<StageReport>,
}

impl<'a> Log<'a> {
    pub fn new(obs: &'a dyn Observer) -> Log<'a> {
        Log {
            obs,
            reports: Vec::new(),
        }
    }

    /// Runs the stage `name`: `body` gets the call that starts its progress bar (total and
    /// unit) and returns its result and [`Done`]; the report, timed from here, is told to the
    /// observer and kept.
    pub fn stage<T>(
        &mut self,
        name: &str,
        body: impl FnOnce(&dyn Fn(u64, &str)) -> Result<(T, Done), DiscoverError>,
    ) -> Result<T, DiscoverError> {
        let t = Instant::now();
        let obs = self.obs;
        let (out, d) = body(&|total, unit| obs.start(name, total, unit))?;
        let r = StageReport {
            name: name.into(),
            work: d.work,
            unit: d.unit.into(),
            cycles: d.cycles,
            balanced_cycles: d.balanced_cycles,
            reach_histogram: d.reach_histogram,
            summary: d.summary,
            seconds: t.elapsed().as_secs_f64(),
        };
        obs.finish(&r);
        self.reports.push(r);
        Ok(out)
    }
}

/// Adds to `list` each of `finds` whose cycle it does not hold yet, in order; how many.
pub fn add_new(list: &mut Vec<Found>, finds: impl IntoIterator<Item = Found>) -> usize {
    let mut known: BTreeSet<u128> = list.iter().map(|f| f.key).collect();
    let before = list.len();
    list.extend(finds.into_iter().filter(|f| known.insert(f.key)));
    list.len() - before
}

/// A census or a fill without its cycles.
pub fn summary(c: &CensusDone) -> CensusSummary {
    CensusSummary {
        shape: c.shape.clone(),
        decks: c.decks,
        non_terminating: c.non_terminating,
        cycles: c.cycles.len() as u64,
        skipped: c.skipped.clone(),
    }
}

/// Cycles by reach.
pub fn reach_of(fams: &[FamilyDone]) -> BTreeMap<u8, u64> {
    let mut h = BTreeMap::new();
    for f in fams {
        *h.entry(f.reach).or_default() += 1;
    }
    h
}

/// The families of `list`, in at most [`FAMILY_BLOCKS`] steps named `PREFIX-B`.
pub fn families_in_steps(
    cx: &Context,
    prefix: &str,
    list: &[Found],
) -> Result<Vec<FamilyDone>, DiscoverError> {
    let (cfg, obs) = (cx.closure(), cx.obs);
    let blocks = list.len().min(FAMILY_BLOCKS);
    let block = |b: usize| (b * list.len() / blocks)..((b + 1) * list.len() / blocks);
    let names: Vec<String> = (0..blocks).map(|b| format!("{prefix}-{b}")).collect();
    let fams: Vec<Vec<FamilyDone>> = steps::run(
        cx.steps,
        &names,
        |b| {
            Ok(balance::families(&list[block(b)], &cfg, &|n| {
                obs.advance(n)
            }))
        },
        &|b| obs.advance(block(b).len() as u64),
    )?;
    Ok(fams.into_iter().flatten().collect())
}

/// The plans that are not skipped, each in [`CENSUS_PARTS`] steps named `PREFIX-I-P`, finished in
/// plan order and named by `labels`. Skipped plans have no steps (a resume that now runs one
/// computes its parts then). With `gated`, [`Context::gate`] runs before each part computed here.
pub fn run_plans(
    cx: &Context,
    prefix: &str,
    plans: &[census::Census],
    labels: &[String],
    gated: bool,
) -> Result<Vec<CensusDone>, DiscoverError> {
    let owner: Vec<(usize, usize)> = plans
        .iter()
        .enumerate()
        .filter(|(_, p)| !matches!(p, census::Census::Skipped(_)))
        .flat_map(|(i, _)| (0..CENSUS_PARTS).map(move |part| (i, part)))
        .collect();
    let names: Vec<String> = owner
        .iter()
        .map(|(i, part)| format!("{prefix}-{i}-{part}"))
        .collect();
    let (obs, gate) = (cx.obs, &cx.gate);
    let parts: Vec<Vec<UnitDone>> = steps::run(
        cx.steps,
        &names,
        |n| {
            if gated {
                gate.pass()?;
            }
            let (i, p) = owner[n];
            Ok(plans[i].run_part(p, CENSUS_PARTS, &|d| obs.advance(d)))
        },
        &|n| {
            let (i, p) = owner[n];
            obs.advance(plans[i].part_decks(p, CENSUS_PARTS));
        },
    )?;
    let mut units: Vec<Vec<UnitDone>> = vec![Vec::new(); plans.len()];
    for (n, u) in parts.into_iter().enumerate() {
        units[owner[n].0].extend(u);
    }
    Ok(plans
        .iter()
        .zip(labels)
        .zip(&units)
        .map(|((p, label), u)| p.finish(label, u))
        .collect())
}
