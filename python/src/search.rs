//! The searches, each a job of the run layer run as the CLI runs it: `exhaustive` (`search
//! exhaustive`), `assemble` and `discover`, their options as keyword arguments and their answers
//! the JSON facts `--json` prints; `read_library`, the records `inspect --json` lists. Each long
//! call records the `ansatz` command it stands for in its result files, so `ansatz reproduce`
//! reruns it.

use std::path::PathBuf;
use std::sync::Arc;

use ansatz::discover::options::Options;
use ansatz::discover::{Observer, StageReport};
use ansatz::run::assemble::{AssembleJob, Phase};
use ansatz::run::assemble_setup::AssembleOptions;
use ansatz::run::discover::DiscoverJob;
use ansatz::run::exhaustive::ExhaustiveJob;
use ansatz::run::shard::Shard;
use ansatz::run::{Done, Job, Mode, ran_in};
use ansatz::search::exhaustive::Extra;
use ansatz::search::exhaustive::run::ExhaustiveConfig;
use pyo3::prelude::*;
use serde_json::{Value, json};

use crate::call::{Cancel, Error, Result, long};
use crate::game::deck;

/// The `ansatz` command a call stands for, as its result files record it: only the options that
/// differ from the CLI's defaults, in the CLI's spelling.
pub struct Argv(Vec<String>);

impl Argv {
    pub fn new(command: &[&str]) -> Argv {
        Argv(
            std::iter::once("ansatz")
                .chain(command.iter().copied())
                .map(String::from)
                .collect(),
        )
    }

    /// `flag value`, when there is a value.
    pub fn value(mut self, flag: &str, value: Option<impl std::fmt::Display>) -> Argv {
        if let Some(v) = value.map(|v| v.to_string()) {
            if v.starts_with('-') {
                // A piece: `--flag=value`, or the value would read as a flag.
                self.0.push(format!("{flag}={v}"));
            } else {
                self.0.extend([flag.to_string(), v]);
            }
        }
        self
    }

    /// `flag`, when on.
    pub fn switch(mut self, flag: &str, on: bool) -> Argv {
        if on {
            self.0.push(flag.to_string());
        }
        self
    }

    /// A positional argument.
    pub fn arg(mut self, value: &str) -> Argv {
        self.0.push(value.to_string());
        self
    }
}

impl From<Argv> for Vec<String> {
    fn from(a: Argv) -> Vec<String> {
        a.0
    }
}

/// A single run, or the shard `I/N` of a job array (the CLI's `--shard`, with its message).
pub fn mode(shard: Option<&str>) -> Result<Mode> {
    match shard {
        None => Ok(Mode::Single),
        Some(s) => Ok(Mode::Shard(s.parse::<Shard>().map_err(Error::input)?)),
    }
}

/// JSON text as Python values (dicts, lists, numbers, strings, None).
pub fn to_python<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// Runs `job` as `mode` says: the answer's JSON facts, or a shard's summary (its file for
/// `ansatz merge`). A run that stops without an answer (nothing to find) is bad input, with the
/// CLI's message.
fn facts<J: Job>(job: &J, mode: &Mode, answer: impl FnOnce(J::Answer) -> Value) -> Result<String> {
    match ansatz::run::run(job, mode)? {
        Done::Answer(a) => Ok(answer(a).to_string()),
        Done::Shard(s) => Ok(s.summary.to_string()),
        Done::Stopped(stop) => Err(Error::Input(stop.why)),
        Done::Follower => Err(Error::Failed("a cluster follower has no answer".into())),
    }
}

/// Play every distinct deal of a small deck (hands split as equally as possible, player 1
/// first), as ``ansatz search exhaustive --deck DECK --json``, and return its JSON facts: deals,
/// cycles (deals that never end), wins, the distinct cycles, the longest game.
///
/// Options are the CLI's: ``shard="I/N"`` (one slice of a job array: returns its summary, its
/// file for ``ansatz merge``), ``threads`` (default every core), ``players``, ``naive`` (every
/// deal played separately, the checker), ``extra_card`` (1 or 2: who holds the extra card of an
/// odd deck), ``out`` (the result file and checkpoint's folder, default ``out``), ``resume``
/// (finish a run stopped by Ctrl-C; a fresh run over its checkpoint is refused, as by the CLI).
/// Ctrl-C stops it at the end of the units running.
///
/// >>> r = ansatz.exhaustive("6-2J2Q2K2A", out=tmp)
/// >>> r["deals"], r["cycles"], len(r["distinct_cycles"])
/// (7567560, 1260, 36)
#[pyfunction]
#[pyo3(signature = (deck, shard=None, *, threads=None, players=2, naive=false, extra_card=1,
    out=PathBuf::from("out"), resume=false),
    text_signature = "(deck, shard=None, *, threads=None, players=2, naive=False, extra_card=1, \
        out='out', resume=False)")]
#[allow(clippy::too_many_arguments)]
pub fn exhaustive<'py>(
    py: Python<'py>,
    deck: &str,
    shard: Option<&str>,
    threads: Option<usize>,
    players: usize,
    naive: bool,
    extra_card: u8,
    out: PathBuf,
    resume: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let spec = self::deck(deck)?;
    let extra = match extra_card {
        1 => Extra::First,
        2 => Extra::Second,
        n => {
            return Err(Error::Input(format!(
                "invalid value '{n}' for '--extra-card <1|2>': {n} is not in 1..=2"
            ))
            .into());
        }
    };
    let cfg = ExhaustiveConfig {
        deck: spec,
        players,
        naive,
        extra,
    };
    let (deals, work) = cfg.plan().map_err(Error::input)?;
    let mode = mode(shard)?;
    let argv = Argv::new(&["search", "exhaustive"])
        .value("--deck", Some(deck))
        .value("--players", (players != 2).then_some(players))
        .switch("--naive", naive)
        .value("--extra-card", (extra_card != 1).then_some(extra_card))
        .value("--out", out_flag(&out))
        .into();
    let text = long(py, Some(argv), move |stop| {
        let stop = stop.clone();
        let progress = move |_| stop.check();
        let job = ExhaustiveJob {
            cfg,
            deals,
            work: work.into(),
            out,
            resume,
            threads,
            progress: &progress,
        };
        // The instruction set and lane loop that ran, as the CLI's answer reports them.
        facts(&job, &mode, |a| {
            let mut v = a.json;
            ran_in(&mut v, job.lanes());
            v
        })
    })?;
    to_python(py, &text)
}

/// `--out DIR` as typed, unless it is the CLI's default.
fn out_flag(out: &std::path::Path) -> Option<String> {
    (out != std::path::Path::new(ansatz::provenance::DEFAULT_OUT))
        .then(|| out.display().to_string())
}

/// Build decks from pieces, find the cycles they reach and the balanced deals of each cycle's
/// family, as ``ansatz assemble --json``, and return its JSON facts (decks tested, cycles,
/// balanced cycles and deals, reach histogram, ...).
///
/// Keyword arguments are the CLI's options: ``library`` (a path or a list of paths; default the
/// published 2024 pieces, built in), ``template``, ``pieces`` (3), ``faces`` (``"assign"`` or
/// ``"members"``), ``require`` (a piece every deck holds), ``rest`` (``"library"`` or
/// ``"all"``), ``balance``, ``limit``, ``deck``, ``max_positions``, ``out`` (``"out"``),
/// ``name``, ``resume``, ``threads``, ``shard``. Ctrl-C stops it at the end of the units
/// running; ``resume=True`` finishes it.
///
/// >>> r = ansatz.assemble(balance=True, out=tmp)
/// >>> r["decks_tested"], r["balanced_total"]
/// (2598750, 120)
#[pyfunction]
#[pyo3(signature = (*, library=None, template=None, pieces=3, faces="assign", require=None,
    rest="library", balance=false, limit=None, deck="standard", max_positions=20_000_000,
    out=PathBuf::from("out"), name=None, resume=false, threads=None, shard=None),
    text_signature = "(*, library=None, template=None, pieces=3, faces='assign', require=None, \
        rest='library', balance=False, limit=None, deck='standard', max_positions=20000000, \
        out='out', name=None, resume=False, threads=None, shard=None)")]
#[allow(clippy::too_many_arguments)]
pub fn assemble<'py>(
    py: Python<'py>,
    library: Option<Libraries>,
    template: Option<PathBuf>,
    pieces: usize,
    faces: &str,
    require: Option<String>,
    rest: &str,
    balance: bool,
    limit: Option<u64>,
    deck: &str,
    max_positions: u64,
    out: PathBuf,
    name: Option<String>,
    resume: bool,
    threads: Option<usize>,
    shard: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let faces_kind = match faces {
        "assign" => ansatz::assemble::Faces::Assign,
        "members" => ansatz::assemble::Faces::Members,
        _ => {
            return Err(Error::Input(format!(
                "invalid value '{faces}' for '--faces <FACES>': unknown --faces {faces:?} (assign or members)"
            ))
            .into());
        }
    };
    let rest_all = match rest {
        "library" => false,
        "all" if require.is_some() => true,
        "all" => {
            return Err(Error::Input(
                "the argument '--rest all' requires '--require <PIECE>'".into(),
            )
            .into());
        }
        _ => {
            return Err(Error::Input(format!(
                "invalid value '{rest}' for '--rest <REST>' [possible values: library, all]"
            ))
            .into());
        }
    };
    if let Some(n) = &name {
        check_name(n)?;
    }
    let libraries = library.map_or_else(Vec::new, |l| l.0);
    let mut argv = Argv::new(&["assemble"]);
    for l in &libraries {
        argv = argv.value("--library", Some(l.display()));
    }
    let argv = argv
        .value("--template", template.as_ref().map(|t| t.display()))
        .value("--pieces", (pieces != 3).then_some(pieces))
        .value("--faces", (faces != "assign").then_some(faces))
        .value("--require", require.as_deref())
        .value("--rest", rest_all.then_some("all"))
        .switch("--balance", balance)
        .value("--limit", limit)
        .value("--deck", (deck != "standard").then_some(deck))
        .value(
            "--max-positions",
            (max_positions != 20_000_000).then_some(max_positions),
        )
        .value("--out", out_flag(&out))
        .value("--name", name.as_deref())
        .into();
    let opts = AssembleOptions {
        libraries,
        template,
        pieces,
        faces: faces_kind,
        require,
        rest_all,
        balance,
        limit,
        deck: deck.to_string(),
        max_positions,
        name,
    };
    let mode = mode(shard)?;
    let text = long(py, Some(argv), move |stop| {
        let stop = stop.clone();
        let job = AssembleJob::new(
            opts,
            out,
            resume,
            threads,
            None,
            Arc::new(move |_: Phase| stop.check()),
        )?;
        facts(&job, &mode, |a| a.summary)
    })?;
    to_python(py, &text)
}

/// `library=`: one path or a list of them.
pub struct Libraries(Vec<PathBuf>);

impl<'a, 'py> FromPyObject<'a, 'py> for Libraries {
    type Error = PyErr;

    fn extract(ob: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Libraries> {
        if let Ok(one) = ob.extract::<PathBuf>() {
            return Ok(Libraries(vec![one]));
        }
        Ok(Libraries(ob.extract::<Vec<PathBuf>>()?))
    }
}

/// A result-file name, as the CLI's `--name` accepts it (the library's check, in clap's words).
fn check_name(s: &str) -> Result<()> {
    ansatz::run::check_name(s)
        .map_err(|e| Error::Input(format!("invalid value '{s}' for '--name <NAME>': {e}")))
}

/// Progress of a discovery: nothing shown, but every report is where Ctrl-C stops it.
struct Stopper(Cancel);

impl Observer for Stopper {
    fn start(&self, _: &str, _: u64, _: &str) {
        self.0.check();
    }
    fn advance(&self, _: u64) {
        self.0.check();
    }
    fn finish(&self, _: &StageReport) {}
}

/// Find balanced non-terminating cycles of a deck automatically (frame, filter, head sweep,
/// censuses, insertion, balance, fills), as ``ansatz discover --json``, and return its JSON
/// facts (the stages, the balanced cycles with their deals, the files written).
///
/// Keyword arguments are the CLI's options: ``deck`` (``"standard"``), ``quick``, ``route``
/// (``"both"``, ``"ansatz"`` or ``"insertion"``), ``beam``, ``lateral``, ``separator``
/// (``"J"``, ...), ``frame``, ``filter``, ``fill_limit``, ``census_limit``,
/// ``whole_deck_limit``, ``split_positions``, ``max_positions``,
/// ``out`` (``"out"``), ``resume``, ``threads``, ``shard``. Ctrl-C stops it at its next
/// progress report; ``resume=True`` finishes it from its finished steps.
///
/// >>> r = ansatz.discover(deck="8-2J2Q2K2A", out=tmp)
/// >>> len(r["balanced_cycles"]) > 0
/// True
#[pyfunction]
#[pyo3(signature = (*, deck="standard", quick=false, route="both", beam=None, lateral=0,
    separator=None, frame=None, filter=None, fill_limit=None, census_limit=None,
    whole_deck_limit=None, split_positions=None, max_positions=20_000_000,
    out=PathBuf::from("out"), resume=false, threads=None, shard=None),
    text_signature = "(*, deck='standard', quick=False, route='both', beam=None, lateral=0, \
        separator=None, frame=None, filter=None, fill_limit=None, census_limit=None, \
        whole_deck_limit=None, split_positions=None, max_positions=20000000, out='out', \
        resume=False, threads=None, shard=None)")]
#[allow(clippy::too_many_arguments)]
pub fn discover<'py>(
    py: Python<'py>,
    deck: &str,
    quick: bool,
    route: &str,
    beam: Option<u64>,
    lateral: u64,
    separator: Option<char>,
    frame: Option<String>,
    filter: Option<String>,
    fill_limit: Option<u64>,
    census_limit: Option<u64>,
    whole_deck_limit: Option<u64>,
    split_positions: Option<u64>,
    max_positions: u64,
    out: PathBuf,
    resume: bool,
    threads: Option<usize>,
    shard: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    // Validated as `ansatz discover` validates its flags: one library call, one set of messages.
    let options = Options {
        quick,
        route: route.parse().map_err(Error::input)?,
        beam,
        lateral,
        separator,
        frame: frame.clone(),
        filter: filter.clone(),
        fill_limit,
        census_limit,
        whole_deck_limit,
        split_positions,
        max_positions,
        ..Options::new(self::deck(deck)?)
    };
    let config = options.config().map_err(Error::input)?;
    let argv = Argv::new(&["discover"])
        .value("--deck", (deck != "standard").then_some(deck))
        .switch("--quick", quick)
        .value("--route", (route != "both").then_some(route))
        .value("--beam", beam)
        .value("--lateral", (lateral != 0).then_some(lateral))
        .value("--separator", separator)
        .value("--frame", frame.as_deref())
        .value("--filter", filter.as_deref())
        .value("--fill-limit", fill_limit)
        .value("--census-limit", census_limit)
        .value("--whole-deck-limit", whole_deck_limit)
        .value("--split-positions", split_positions)
        .value(
            "--max-positions",
            (max_positions != 20_000_000).then_some(max_positions),
        )
        .value("--out", out_flag(&out))
        .into();
    let mode = mode(shard)?;
    let text = long(py, Some(argv), move |stop| {
        let observer = Stopper(stop.clone());
        let job = DiscoverJob {
            config,
            out,
            quick,
            resume,
            threads,
            observer: &observer,
        };
        facts(&job, &mode, |a| {
            // The object `ansatz discover --json` prints.
            let mut v = serde_json::to_value(&a.found).unwrap_or(Value::Null);
            v["seconds"] = json!((a.seconds * 1000.0).round() / 1000.0);
            v["threads"] = json!(a.threads);
            v["files"] = json!(a.files);
            v
        })
    })?;
    to_python(py, &text)
}
