//! `find-pieces` as a job: its units are the enumeration's ranges, the checkpoint logs each
//! finished range ([`RangeDone`]) with the run's time so far ([`FindRecord`]), and the answer is
//! the piece library written to `--out`.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::find_cluster::run_cluster;
use super::job::{Job, Ran, Stop, checkpoint_beside};
use super::shard::{Shard, beside};
use super::start::{Resume, Started, start};
use super::{Mode, RunError};
use crate::ansatz::enumerate::Params;
use crate::ansatz::find::{RunReport, Search, build_library};
use crate::ansatz::template::Template;
use crate::card::{Card, KINDS};
use crate::library::checkpoint::{Checkpoint, Elapsed, RangeDone};
use crate::library::{self, Enumeration, Library, fnv1a};

/// A piece enumeration to run.
pub struct FindJob {
    pub search: Arc<Search>,
    pub params: Params,
    /// The template file's text (`None`: the built-in jack template) and its name.
    pub template_text: Option<String>,
    pub template_name: String,
    /// The method as the library records it.
    pub method: String,
    /// The library file.
    pub out: PathBuf,
    pub resume: bool,
    pub threads: Option<usize>,
    /// Stop after this many ranges, as an interruption would (for testing `--resume`).
    pub stop_after_ranges: Option<usize>,
    /// Sees the candidates enumerated.
    pub progress: Arc<dyn Fn(u64) + Send + Sync>,
    log: Mutex<Option<Checkpoint<FindRecord>>>,
}

/// One record of the checkpoint: a finished range, or the seconds the run had spent when it
/// logged one (after each range, and when it stops), so that a resumed run, even after
/// `kill -9`, reports the time of all its runs.
///
/// Bincode knows variants by their index: new kinds of record only ever go at the end.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub enum FindRecord {
    Range(RangeDone),
    Elapsed(Elapsed),
}

/// Added to the fingerprint in the checkpoint: logs of plain ranges (before the time was
/// logged) are then refused with the mismatch error rather than misread.
const TIMED_LOG: &str = " log=timed";

/// What merge needs, besides the shards' pieces, to write the single-run library.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct FindContext {
    /// The template file's text (`None`: the built-in jack template).
    template_text: Option<String>,
    template_name: String,
    method: String,
    /// min_len, max_len, max_faces, max_per_kind.
    params: [u32; 4],
    command: String,
    /// The library the run writes.
    out: String,
    ranges: u32,
}

/// The pieces a run found, with its counts and its seconds (of all its runs when resumed).
#[derive(Serialize, Deserialize)]
pub struct FindPart {
    pub pieces: Vec<Vec<Card>>,
    pub candidates: u64,
    pub ranges: u64,
    pub seconds: f64,
    #[serde(skip)]
    pub resumed: bool,
}

/// The answer: the library written, with the run's counts.
pub struct FindAnswer {
    pub library: Library,
    pub path: PathBuf,
    pub candidates: u64,
    pub seconds: f64,
    pub resumed: bool,
    pub ranges: usize,
    /// How many shard files the answer merges (1 for a run of its own): `seconds` is then the
    /// sum of their times, the machine time of the job array, so the rate is one machine's.
    pub shards: usize,
    /// `merge --partial`: the shards the library covers, and of how many.
    pub partial: Option<(Vec<u32>, u32)>,
}

/// The command line as recorded in the library: an interrupted and resumed run records the same
/// command as an uninterrupted one, and a split run the same as a single run.
pub fn recorded_command() -> String {
    super::recorded_command(&["--stop-after-ranges"], &["--resume"])
}

impl FindJob {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        search: Search,
        params: Params,
        template_text: Option<String>,
        template_name: String,
        method: String,
        out: PathBuf,
        resume: bool,
        threads: Option<usize>,
        stop_after_ranges: Option<usize>,
        progress: Arc<dyn Fn(u64) + Send + Sync>,
    ) -> FindJob {
        FindJob {
            search: Arc::new(search),
            params,
            template_text,
            template_name,
            method,
            out,
            resume,
            threads,
            stop_after_ranges,
            progress,
            log: Mutex::new(None),
        }
    }
}

/// The template a context names.
fn template_of(ctx: &FindContext) -> Result<Template, RunError> {
    match &ctx.template_text {
        None => Ok(Template::jack()),
        Some(text) => {
            let mut t = Template::parse(text, &ctx.template_name).map_err(RunError::input)?;
            t.name = ctx.template_name.clone();
            Ok(t)
        }
    }
}

impl Job for FindJob {
    const COMMAND: &'static str = "find-pieces";
    type Entry = RangeDone;
    type Part = FindPart;
    type Context = FindContext;
    type Answer = FindAnswer;

    fn units(&self) -> u64 {
        self.search.ranges() as u64
    }

    fn fingerprint(&self) -> String {
        self.search.config().fingerprint()
    }

    fn context(&self) -> FindContext {
        let p = &self.params;
        FindContext {
            template_text: self.template_text.clone(),
            template_name: self.template_name.clone(),
            method: self.method.clone(),
            params: [p.min_len, p.max_len, p.max_faces, p.max_per_kind].map(|x| x as u32),
            command: recorded_command(),
            out: self.out.display().to_string(),
            ranges: self.search.ranges() as u32,
        }
    }

    fn shard_file(&self, s: Shard) -> PathBuf {
        beside(&self.out, s)
    }

    fn out(&self) -> Option<&Path> {
        Some(&self.out)
    }

    fn execute(&self, mode: &Mode) -> Result<Ran<FindPart>, RunError> {
        let pool = super::pool(self.threads)?;
        let fingerprint = self.fingerprint();
        // A shard keeps its own checkpoint, so each array task resumes alone.
        let (ck_path, fingerprint) = match mode.shard() {
            Some(s) => (
                checkpoint_beside(&beside(&self.out, s)),
                format!("{fingerprint} shard={s}"),
            ),
            None => (checkpoint_beside(&self.out), fingerprint),
        };
        // A cluster connects first: if it never forms, no checkpoint is left behind.
        let resume = if self.resume {
            Resume::OrStart
        } else {
            Resume::No
        };
        let Started {
            connection,
            log,
            previous,
        } = start::<FindRecord>(mode, &ck_path, &format!("{fingerprint}{TIMED_LOG}"), resume)
            .map_err(RunError::input)?;
        let (mut done, mut earlier) = (Vec::new(), Vec::new());
        for r in previous {
            match r {
                FindRecord::Range(r) => done.push(r),
                FindRecord::Elapsed(e) => earlier.push(e),
            }
        }
        let resumed = !done.is_empty();
        let earlier = Elapsed::total(&earlier).unwrap_or(0.0);
        *self.log.lock().unwrap() = log;
        let began = Instant::now();
        let segment = Elapsed::segment_now();
        let now = move || Elapsed {
            segment,
            seconds: began.elapsed().as_secs_f64(),
        };
        // A range carries the run's time with it, so a resumed run still counts it.
        let log_range = move |log: &mut Checkpoint<FindRecord>, r: &RangeDone| {
            log.append(&FindRecord::Range(r.clone()))?;
            log.append(&FindRecord::Elapsed(now()))
        };
        let record = |r: &RangeDone| match self.log.lock().unwrap().as_mut() {
            Some(c) => log_range(c, r),
            None => Ok(()),
        };
        let report: RunReport = if let Mode::Cluster(cluster) = mode {
            let log = Arc::new(Mutex::new(self.log.lock().unwrap().take()));
            let keep = log.clone();
            let progress = self.progress.clone();
            let found = run_cluster(
                cluster,
                connection.expect("connected at the start"),
                fnv1a(format!("find-pieces {fingerprint} workers={}", cluster.workers).as_bytes()),
                self.search.clone(),
                done,
                Arc::new(move |r: &RangeDone| match log.lock().unwrap().as_mut() {
                    Some(c) => log_range(c, r),
                    None => Ok(()),
                }),
                Arc::new(move |n| progress(n)),
            )
            .map_err(RunError::input)?;
            *self.log.lock().unwrap() = keep.lock().unwrap().take();
            match found {
                Some(r) => r,
                None => return Ok(Ran::Follower),
            }
        } else {
            let shard = mode.shard();
            let owns = |i: usize| shard.is_none_or(|s| s.owns(i as u64));
            pool.install(|| {
                crate::ansatz::find::run_some(
                    &self.search,
                    done,
                    &owns,
                    &record,
                    self.stop_after_ranges,
                    &*self.progress,
                )
            })
            .map_err(RunError::input)?
        };
        let seconds = earlier + began.elapsed().as_secs_f64();
        if !report.complete {
            if let Some(c) = self.log.lock().unwrap().as_mut() {
                c.append(&FindRecord::Elapsed(now()))
                    .map_err(RunError::input)?;
            }
            let ranges = self.search.ranges();
            return Ok(Ran::Stopped(Stop {
                why: format!(
                    "stopped with {} of {ranges} ranges done; run again with --resume to finish",
                    report.ranges_done
                ),
                report: Some(
                    json!({"complete": false, "ranges_done": report.ranges_done, "ranges": ranges, "checkpoint": ck_path.display().to_string()}),
                ),
                code: 0,
            }));
        }
        Ok(Ran::Part(FindPart {
            pieces: report.pieces,
            candidates: report.candidates,
            ranges: report.ranges_done as u64,
            seconds,
            resumed,
        }))
    }

    fn close(&self) -> Result<(), RunError> {
        match self.log.lock().unwrap().take() {
            Some(c) => c.finish().map_err(RunError::input),
            None => Ok(()),
        }
    }

    fn summary(&self, part: &FindPart) -> Value {
        json!({"ranges": part.ranges, "candidates": part.candidates, "pieces": part.pieces.len(), "seconds": part.seconds})
    }

    fn finish(
        ctx: FindContext,
        parts: Vec<FindPart>,
        out: Option<&Path>,
    ) -> Result<FindAnswer, RunError> {
        build_answer(ctx, parts, out, None)
    }
}

/// The library of the shards `partial` names (`merge --partial`: a job array still running),
/// written to `out`, which must not be the run's own library: a library of some shards only is
/// not the run's answer, so it goes elsewhere and its method says which shards it covers.
pub fn finish_partial(
    ctx: FindContext,
    parts: Vec<FindPart>,
    out: Option<&Path>,
    shards: Vec<u32>,
    of: u32,
) -> Result<FindAnswer, RunError> {
    let Some(out) = out else {
        return Err(RunError::Input(format!(
            "merge --partial of find-pieces shards writes a library of the shards given: name it with --out (not {}, the run's own library)",
            ctx.out
        )));
    };
    if out == Path::new(&ctx.out) {
        return Err(RunError::Input(format!(
            "--out {}: that is the run's own library; a partial library goes to another file",
            ctx.out
        )));
    }
    build_answer(ctx, parts, Some(out), Some((shards, of)))
}

/// The library of `parts` (every shard, or those `partial` names) written to `out` (`None`: the
/// run's `--out`).
fn build_answer(
    ctx: FindContext,
    parts: Vec<FindPart>,
    out: Option<&Path>,
    partial: Option<(Vec<u32>, u32)>,
) -> Result<FindAnswer, RunError> {
    let template = template_of(&ctx)?;
    // A single run's one part, or some shards of a partial merge: no range count to check.
    let shards = parts.len();
    let whole_array = shards > 1 && partial.is_none();
    let (mut pieces, mut candidates, mut ranges, mut seconds) = (Vec::new(), 0, 0, 0f64);
    let mut resumed = false;
    for p in parts {
        // A shard file is read from disk: a card past the kinds is a corrupt file, not a piece.
        if let Some(bad) = p
            .pieces
            .iter()
            .flatten()
            .find(|&&c| usize::from(c) >= KINDS)
        {
            return Err(RunError::Input(format!(
                "shard file: a piece holds card {bad}, which is no card kind (0 to {})",
                KINDS - 1
            )));
        }
        pieces.extend(p.pieces);
        candidates += p.candidates;
        ranges += p.ranges;
        // Summed, not the slowest: the slices of a job array may have run one after another on
        // one machine, and the sum over the machine time gives a rate that means the same
        // either way (as the census's merged `seconds` does).
        seconds += p.seconds;
        resumed |= p.resumed;
    }
    if whole_array && ranges != ctx.ranges as u64 {
        return Err(RunError::Input(format!(
            "shard file: the shards cover {ranges} of {} ranges",
            ctx.ranges
        )));
    }
    let [min_len, max_len, max_faces, max_per_kind] = ctx.params;
    let method = match &partial {
        Some((shards, of)) => format!(
            "{} (partial: shards {} of {of})",
            ctx.method,
            shards
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => ctx.method.clone(),
    };
    let enumeration = Enumeration {
        method,
        min_len,
        max_len,
        max_faces,
        max_per_kind,
        candidates,
    };
    let (library, _) = build_library(&template, enumeration, pieces, ctx.command.clone());
    let path = out.map_or_else(|| PathBuf::from(&ctx.out), Path::to_path_buf);
    library::write(&path, &library).map_err(RunError::input)?;
    Ok(FindAnswer {
        library,
        path,
        candidates,
        seconds,
        resumed,
        ranges: ctx.ranges as usize,
        shards,
        partial,
    })
}

/// `find-pieces --from-text`: the pieces listed in the file at `text_path`, each checked in
/// `template`, written as a library to `out`.
pub fn import_library(
    template: &Template,
    text_path: &Path,
    out: &Path,
) -> Result<FindAnswer, RunError> {
    let text = std::fs::read_to_string(text_path)
        .map_err(|e| RunError::Input(format!("reading {}: {e}", text_path.display())))?;
    let (pieces, enumeration) =
        crate::ansatz::import::import_pieces(template, &text, &text_path.display().to_string())
            .map_err(RunError::input)?;
    let candidates = pieces.len() as u64;
    let start = Instant::now();
    let (library, _) = build_library(template, enumeration, pieces, recorded_command());
    library::write(out, &library).map_err(RunError::input)?;
    Ok(FindAnswer {
        library,
        path: out.to_path_buf(),
        candidates,
        seconds: start.elapsed().as_secs_f64(),
        resumed: false,
        partial: None,
        ranges: 0,
        shards: 1,
    })
}
