//! `family`: the backward closure of a position's cycle, run as the CLI runs it (a `FamilyJob`
//! through the run layer, so `out`, `resume` and `shard` work alike), and the `Family` it gives;
//! its `positions` are listed on demand by the graph builder of `family --graph`.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use ansatz::backward::closure::Config;
use ansatz::picture::PictureError;
use ansatz::picture::graph::{MAX_NODES, family_graph};
use ansatz::position::Position;
use ansatz::run::family::{FamilyAnswer, FamilyJob};
use ansatz::run::{Done, Mode};
use pyo3::prelude::*;

use crate::call::{Error, Result, long, short};
use crate::game::{PAPER_DEAL, position};
use crate::search::{Argv, mode, to_python};

/// A cycle's family: every position whose game reaches the cycle (its backward closure), as
/// ``ansatz family`` reports it.
///
/// ``size`` counts the positions (the cycle's own included), ``depth`` is the most tricks any
/// of them stands before the cycle, ``reach`` the most cards the smaller hand holds in any of
/// them (half the deck exactly when there are balanced deals), ``balanced`` the balanced
/// positions (hands differing by at most one card) sorted as strings. ``positions`` lists every
/// position (the cycle first, in play order from its id, then by depth), built on first use (at
/// most 200,000). ``json`` is the object ``ansatz family --json`` prints. ``complete`` is False
/// when ``max_positions`` stopped the search (the counts are then partial).
#[pyclass(frozen, module = "ansatz")]
pub struct Family {
    /// The position whose cycle this is, in dash notation.
    #[pyo3(get)]
    position: String,
    #[pyo3(get)]
    cycle_id: String,
    #[pyo3(get)]
    preperiod: u64,
    #[pyo3(get)]
    period: u64,
    #[pyo3(get)]
    period_cards: u64,
    /// Positions in the family, the cycle's own included.
    #[pyo3(get)]
    size: u64,
    /// The most tricks a position of the family stands before the cycle.
    #[pyo3(get)]
    depth: u64,
    /// The most cards the smaller hand holds in any position.
    #[pyo3(get)]
    reach: u8,
    /// The balanced positions, sorted as strings.
    #[pyo3(get)]
    balanced: Vec<String>,
    /// A position at `depth` (the smallest in cycle-id order).
    #[pyo3(get)]
    deepest: String,
    /// False when `max_positions` stopped the search.
    #[pyo3(get)]
    complete: bool,
    /// `ansatz family --json`'s object, as text.
    facts: String,
    /// Every position, listed on first use.
    listed: OnceLock<Vec<String>>,
}

impl Family {
    fn of(a: &FamilyAnswer) -> Family {
        let f = &a.family;
        Family {
            position: a.position.to_string(),
            cycle_id: f.cycle.cycle_id.to_string(),
            preperiod: f.cycle.preperiod,
            period: f.cycle.period,
            period_cards: f.cycle.cycle_cards,
            size: f.closure_size,
            depth: f.max_depth,
            reach: f.reach,
            balanced: f.balanced.iter().map(Position::to_string).collect(),
            deepest: f.deepest.to_string(),
            complete: f.complete,
            facts: a.json.to_string(),
            listed: OnceLock::new(),
        }
    }
}

#[pymethods]
impl Family {
    /// Every position of the family: the cycle first, in play order from its id, then the others
    /// by depth (as ``ansatz family --graph`` draws them). At most 200,000.
    #[getter]
    fn positions(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        if let Some(p) = self.listed.get() {
            return Ok(p.clone());
        }
        let listed = short(py, || {
            let pos = position(&self.position, "dash", None)?;
            match family_graph(&pos, &|_| {}) {
                Ok(g) => Ok(g.positions.iter().map(Position::to_string).collect()),
                Err(PictureError::TooLarge(_)) => Err(Error::Input(format!(
                    "the family holds more than {MAX_NODES} positions: too many to list"
                ))),
                Err(e) => Err(Error::input(e)),
            }
        })?;
        Ok(self.listed.get_or_init(|| listed).clone())
    }

    /// The object ``ansatz family --json`` prints, as a dict.
    #[getter]
    fn json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &self.facts)
    }

    fn __repr__(&self) -> String {
        format!(
            "Family(cycle_id='{}', size={}, depth={}, reach={}, balanced=[{} deals])",
            self.cycle_id,
            self.size,
            self.depth,
            self.reach,
            self.balanced.len()
        )
    }
}

/// Play ``position`` to its cycle and find its family: every position whose game reaches that
/// cycle (backward play), and the balanced deals among them, as ``ansatz family`` does.
///
/// Options are the CLI's: ``max_positions`` (stop past that many, the counts then partial),
/// ``threads``, ``visited_set``, ``deck`` and ``notation`` (as for ``play``), ``out`` (also
/// write the JSON result file), ``resume`` (finish a run interrupted by Ctrl-C from its
/// checkpoint), ``shard="I/N"`` (one slice of a job array: returns the slice's summary dict, its
/// file for ``ansatz merge``). A game that ends has no family: ValueError with the CLI's
/// message. Ctrl-C stops it at the next batch of positions.
///
/// >>> f = ansatz.family()
/// >>> f.size, len(f.balanced), f.reach
/// (2670, 30, 26)
/// >>> ansatz.PAPER_DEAL in f.balanced
/// True
#[pyfunction]
#[pyo3(signature = (position=PAPER_DEAL, *, max_positions=Config::default().max_positions,
    threads=None, visited_set=false, deck=None, notation="auto", out=None, resume=false,
    shard=None),
    text_signature = "(position=PAPER_DEAL, *, max_positions=50000000, threads=None, \
        visited_set=False, deck=None, notation='auto', out=None, resume=False, shard=None)")]
#[allow(clippy::too_many_arguments)]
pub fn family(
    py: Python<'_>,
    position: &str,
    max_positions: u64,
    threads: Option<usize>,
    visited_set: bool,
    deck: Option<&str>,
    notation: &str,
    out: Option<PathBuf>,
    resume: bool,
    shard: Option<&str>,
) -> PyResult<Py<PyAny>> {
    let pos = self::position(position, notation, deck)?;
    if max_positions == 0 {
        return Err(Error::Input("--max-positions must be at least 1".into()).into());
    }
    if resume && (visited_set || shard.is_some()) {
        return Err(
            Error::Input("--resume cannot be used with --visited-set or --shard".into()).into(),
        );
    }
    let mode = mode(shard)?;
    let argv = Argv::new(&["family"])
        .value(
            "--max-positions",
            (max_positions != Config::default().max_positions).then_some(max_positions),
        )
        .switch("--visited-set", visited_set)
        .value("--deck", deck)
        .value("--notation", (notation != "auto").then_some(notation))
        .value("--out", out.as_ref().map(|p| p.display()))
        .arg(position)
        .into();
    let done = long(py, Some(argv), move |stop| {
        let stop = stop.clone();
        let job = FamilyJob {
            pos,
            cfg: Config {
                max_positions,
                visited_set,
                ..Config::default()
            },
            out,
            resume,
            threads,
            checkpoint_every: 5.0,
            stop_after_levels: None,
            progress: Arc::new(move |_| stop.check()),
        };
        run(&job, &mode)
    })?;
    match done {
        Ran::Family(a) => Ok(Py::new(py, Family::of(&a))?.into_any()),
        Ran::Summary(v) => Ok(to_python(py, &v)?.unbind()),
    }
}

/// What a family call gives: the family, or a shard's summary (JSON text).
enum Ran {
    Family(Box<FamilyAnswer>),
    Summary(String),
}

fn run(job: &FamilyJob, mode: &Mode) -> Result<Ran> {
    match ansatz::run::run(job, mode)? {
        Done::Answer(a) => Ok(Ran::Family(Box::new(a))),
        Done::Shard(s) => Ok(Ran::Summary(s.summary.to_string())),
        // A game that ends has no family.
        Done::Stopped(stop) => Err(Error::Input(stop.why)),
        Done::Follower => Err(Error::Failed("a cluster follower has no answer".into())),
    }
}
