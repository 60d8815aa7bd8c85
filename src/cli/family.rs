//! `ansatz family`: a position's cycle and its backward closure, with the balanced deals in it.
//! Also the helpers `extend` shares: an open-ended progress counter and result-file writes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::bench::pool;
use super::cluster::{DistArgs, Mode, recorded_command};
use super::merge::decode;
use super::output::{BadInput, Out};
use super::play::{PAPER_DEAL, parse_position};
use crate::backward::closure::Node;
use crate::backward::closure::{Closure, Config};
use crate::backward::family::{cycle_of, family_of_cycle_resumable};
use crate::backward::level_checkpoint::{self, LevelState};
use crate::backward::{Family, FamilyError, family};
use crate::dist::closure::{
    ClusterFamilyError, LevelHook, Stopped, cluster_cycle, family_on_cluster,
    family_on_cluster_resumable,
};
use crate::dist::family::{ClosurePart, family_from_parts, family_part};
use crate::dist::shard::{Shard, ShardFile, beside, encode_part};
use crate::engine::CycleInfo;
use crate::library::fnv1a;
use crate::notation::Notation;
use crate::position::PACK_MAX_CARDS;
use crate::position::Position;

/// Play POSITION to its cycle, then find every position whose game reaches that cycle (the
/// backward closure of the cycle's positions) and the balanced deals among them.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz family
  ansatz family --json 'J--/-J-'
  ansatz family --graph out/family.svg    # the family drawn: one dot per position, one arrow each
  ansatz family --graph out/family.dot    # the same graph for Graphviz (twopi)
  ansatz family --threads 2 --out out/family-2024.json '---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)'
  ansatz family --out out/fam.json '---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA'
  ansatz family --out out/fam.json --resume '---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA'
  ansatz family --hosts hosts.txt --process 0 --workers 8 --json    # one closure over a cluster
  ansatz family --shard 0/4 --out out/fam.json    # a job array task (0/4 .. 3/4): out/fam.json.shard-0-of-4
  ansatz merge fam.json.shard-*-of-4 --json   # the single run's answer; writes fam.json

closure_size counts distinct positions (hands and player to move), the cycle's own included;
balanced lists the positions whose hands differ by at most one card (26/26 for the standard deck),
sorted as strings; max_depth is the most tricks any of them stands before the cycle; reach is the
most cards the smaller hand holds in any of them (26 for the standard deck exactly when there are
balanced deals; below that, how close to balance the family comes).
Exit 1 when the game terminates (no cycle) or --max-positions stops the search (partial counts).
At most every 5 s, at a level boundary, the BFS (next level and totals) is saved atomically to
FILE.checkpoint beside --out FILE (else out/family-HASH.checkpoint); after Ctrl-C or kill -9
run the same command with --resume (on every process of a cluster: process 0 reads it).
--shard I/N takes the cycle positions s (in play order from the cycle id) with s % N == I and the
positions whose games first meet the cycle there; `ansatz merge` joins the parts into the single
run's answer (--max-positions then applies to each shard's part). Without --out the shard file is
out/family-HASH.shard-I-of-N.bin.")]
pub struct Args {
    /// The position: HAND1/HAND2 [(1)|(2)], top card first. Default: the balanced
    /// non-terminating deal of the 2024 paper.
    #[arg(allow_hyphen_values = true, default_value = PAPER_DEAL)]
    position: String,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Stop once more than N positions are found (the batch in progress, up to 65536 positions
    /// expanded, is finished) and exit 1 with the partial counts.
    #[arg(long, value_name = "N", default_value_t = Config::default().max_positions)]
    max_positions: u64,
    /// Also write the JSON object (with the command that made it) to FILE, atomically.
    #[arg(long, value_name = "FILE")]
    out: Option<std::path::PathBuf>,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Also keep a visited set keyed by the packed u128 (at most 52 cards) and count positions
    /// met twice: a check on the predecessors, at about half the speed.
    #[arg(long)]
    visited_set: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    /// Check the position against a deck: standard, camicia, or counts like 8-2J2Q2K2A.
    #[arg(long, value_name = "SPEC")]
    deck: Option<String>,
    /// How to read the position: auto, dash, cards or digits.
    #[arg(long, default_value = "auto", value_name = "NOTATION")]
    notation: Notation,
    /// Continue the run saved in its checkpoint (FILE.checkpoint beside --out FILE, else
    /// out/family-HASH.checkpoint) from its last saved level.
    #[arg(long, conflicts_with_all = ["visited_set", "shard"])]
    resume: bool,
    /// Seconds between checkpoint saves (at level boundaries).
    #[arg(long, value_name = "S", default_value_t = 5.0, hide = true)]
    checkpoint_every: f64,
    /// Stop after N levels, as an interruption would (for testing --resume): saves the checkpoint
    /// and exits 1.
    #[arg(long, value_name = "N", hide = true)]
    stop_after_levels: Option<u32>,
    /// Also draw the family into FILE: .svg (drawn by ansatz, one dot per position and one arrow
    /// to its successor) or .dot (Graphviz). Single process only.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["resume", "shard", "hosts"])]
    graph: Option<PathBuf>,
    #[command(flatten)]
    dist: DistArgs,
}

/// An open-ended counter of positions with their rate, for searches of unknown size.
pub(super) fn counter(unit: &str, quiet: bool) -> ProgressBar {
    let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if quiet {
        pb.set_draw_target(ProgressDrawTarget::hidden());
    }
    let template = format!("{{elapsed_precise}} {{spinner}} {{human_pos}} {unit} ({{per_sec}})");
    pb.set_style(ProgressStyle::with_template(&template).expect("static template"));
    pb
}

/// Writes `text` to `path` atomically (`library::atomic`), naming the file on failure.
pub(super) fn write_atomic(path: &Path, text: &str) -> Result<()> {
    crate::library::atomic::write_atomic(path, text.as_bytes())
        .with_context(|| format!("writing {}", path.display()))
}

/// The command line that is running, as a user types it, for result files.
pub(super) fn command_line() -> String {
    crate::provenance::this_command()
}

fn family_json(f: &Family, threads: usize) -> Value {
    json!({
        "cycle_id": f.cycle.cycle_id.to_string(),
        "preperiod": f.cycle.preperiod,
        "period": f.cycle.period,
        "cycle_cards": f.cycle.cycle_cards,
        "closure_size": f.closure_size,
        "balanced": f.balanced.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
        "balanced_count": f.balanced.len(),
        "max_depth": f.max_depth,
        "reach": f.reach,
        "deepest": f.deepest.to_string(),
        "complete": f.complete,
        "duplicates": f.duplicates,
        "seconds": f.seconds,
        "positions_per_second": f.positions_per_second(),
        "threads": threads,
    })
}

pub fn run(args: Args) -> Result<ExitCode> {
    let pos = parse_position(&args.position, args.notation, args.deck.as_deref())?;
    if args.max_positions == 0 {
        return Err(BadInput("--max-positions must be at least 1".into()).into());
    }
    let pool = pool(args.threads)?;
    let cfg = Config {
        max_positions: args.max_positions,
        visited_set: args.visited_set,
        ..Config::default()
    };
    let mode = args.dist.mode()?;
    if args.resume && pos.total() > PACK_MAX_CARDS {
        return Err(BadInput(format!(
            "--resume: checkpoints hold positions of at most {PACK_MAX_CARDS} cards, not {}",
            pos.total()
        ))
        .into());
    }
    let quiet = args.quiet || args.json;
    if let Some(path) = &args.graph {
        let pb = counter("positions drawn", quiet);
        match crate::picture::graph::write_graph(path, &pos, &|n| pb.inc(n)) {
            Ok(_) => pb.finish_and_clear(),
            Err(crate::picture::PictureError::Family(e)) => return family_error(e),
            Err(e) => return Err(BadInput(e.to_string()).into()),
        }
    }
    let (result, threads) = match &mode {
        Mode::Shard(s) => {
            let pb = counter("positions", quiet);
            let start = Instant::now();
            let part = pool.install(|| family_part(&pos, *s, &cfg, &|n| pb.inc(n)));
            pb.finish_and_clear();
            return match part {
                Ok(part) => write_shard(
                    &args,
                    &pos,
                    *s,
                    &part,
                    start.elapsed().as_secs_f64(),
                    pool.current_num_threads(),
                ),
                Err(e) => family_error(e),
            };
        }
        Mode::Cluster(cluster) if args.visited_set => {
            let pb = counter("positions", quiet || cluster.process != 0);
            let progress = move |n| pb.inc(n);
            match family_on_cluster(cluster, &pos, &cfg, progress) {
                Ok(None) => return Ok(ExitCode::SUCCESS),
                Ok(Some(f)) => (Ok(f), cluster.total_workers()),
                Err(ClusterFamilyError::Family(e)) => (Err(e), 0),
                Err(e) => return Err(BadInput(e.to_string()).into()),
            }
        }
        Mode::Cluster(cluster) => {
            let info = match cluster_cycle(&pos) {
                Ok(info) => info,
                Err(ClusterFamilyError::Family(e)) => return family_error(e),
                Err(e) => return Err(BadInput(e.to_string()).into()),
            };
            // Process 0 alone keeps the checkpoint and reads it on resume; it routes the saved
            // frontier to the owners, so the others need no shared filesystem.
            let ck = LevelCheckpoint::new(&args, &info, "cluster")?;
            let lead = cluster.process == 0;
            let from = if lead { ck.start(args.resume)? } else { None };
            let saver = Arc::new(Mutex::new(
                ck.saver(args.checkpoint_every, args.stop_after_levels),
            ));
            let pb = counter("positions", quiet || !lead);
            let progress = move |n| pb.inc(n);
            let hook: Arc<Mutex<dyn LevelHook>> = saver.clone();
            match family_on_cluster_resumable(
                cluster,
                &pos,
                &cfg,
                progress,
                args.resume,
                from,
                Some(hook),
            ) {
                Ok(None) => return Ok(ExitCode::SUCCESS),
                Ok(Some(Err(Stopped))) => {
                    let saver = std::mem::replace(&mut *saver.lock().unwrap(), ck.saver(0.0, None));
                    return saver.stopped();
                }
                Ok(Some(Ok(f))) => {
                    return ck.report(&f, &pos, cluster.total_workers(), &args);
                }
                Err(ClusterFamilyError::Family(e)) => (Err(e), 0),
                Err(e) => return Err(BadInput(e.to_string()).into()),
            }
        }
        Mode::Single if args.visited_set || pos.total() > PACK_MAX_CARDS => {
            let pb = counter("positions", quiet);
            let result = pool.install(|| family(&pos, &cfg, &|n| pb.inc(n)));
            pb.finish_and_clear();
            (result, pool.current_num_threads())
        }
        Mode::Single => {
            let info = match cycle_of(&pos, &cfg) {
                Ok(info) => info,
                Err(e) => return family_error(e),
            };
            let ck = LevelCheckpoint::new(&args, &info, "single")?;
            let from = ck.start(args.resume)?;
            let pb = counter("positions", quiet);
            let mut saver = ck.saver(args.checkpoint_every, args.stop_after_levels);
            let found = pool.install(|| {
                family_of_cycle_resumable(info, &cfg, &|n| pb.inc(n), from, &mut |out, next| {
                    saver.on_level(out, next)
                })
            });
            pb.finish_and_clear();
            let Some(f) = found else {
                return saver.stopped();
            };
            return ck.report(&f, &pos, pool.current_num_threads(), &args);
        }
    };
    match result {
        Ok(f) => report(
            &f,
            &pos,
            threads,
            args.out.as_deref(),
            &command_line(),
            args.json,
            args.max_positions,
        ),
        Err(e) => family_error(e),
    }
}

/// The checkpoint of a family run (single process, or process 0 of a cluster): the BFS saved at a level boundary, named by the
/// job (the cycle, its card count and `--max-positions`: what changes the answer).
#[derive(Clone)]
struct LevelCheckpoint {
    path: PathBuf,
    fingerprint: String,
}

impl LevelCheckpoint {
    fn new(args: &Args, info: &CycleInfo, mode: &str) -> Result<LevelCheckpoint> {
        let fingerprint = format!(
            "family v1 cycle={} cards={} max_positions={} mode={mode}",
            info.cycle_id,
            info.cycle_id.total(),
            args.max_positions
        );
        let path = match &args.out {
            Some(out) => {
                let mut name = out.as_os_str().to_os_string();
                name.push(".checkpoint");
                crate::provenance::work_path(&PathBuf::from(name))
            }
            None => PathBuf::from(crate::provenance::DEFAULT_OUT).join(format!(
                "family-{:016x}.checkpoint",
                fnv1a(fingerprint.as_bytes())
            )),
        };
        Ok(LevelCheckpoint { path, fingerprint })
    }

    /// The saved state with `--resume` (which needs the checkpoint); without it, refuses to start
    /// over an unfinished run's checkpoint, as `assemble` does.
    fn start(&self, resume: bool) -> Result<Option<LevelState>> {
        let p = self.path.display();
        if !resume {
            if self.path.exists() {
                return Err(BadInput(format!(
                    "{p}: a checkpoint of an unfinished run exists: add --resume to finish it, or delete it to start over"
                ))
                .into());
            }
            return Ok(None);
        }
        if !self.path.exists() {
            return Err(BadInput(format!(
                "--resume: no checkpoint at {p} (run without --resume to start)"
            ))
            .into());
        }
        let state = level_checkpoint::load(&self.path, &self.fingerprint)
            .map_err(|e| BadInput(e.to_string()))?;
        Ok(Some(state))
    }

    fn saver(&self, every: f64, stop_after: Option<u32>) -> Saver {
        Saver {
            ck: self.clone(),
            every: Duration::from_secs_f64(every.max(0.0)),
            last: Instant::now(),
            cost: Duration::ZERO,
            stop_after,
            error: None,
        }
    }

    /// Reports a finished closure (recording the command without `--resume`) and removes the
    /// checkpoint, which is no longer needed.
    fn report(&self, f: &Family, pos: &Position, threads: usize, args: &Args) -> Result<ExitCode> {
        let code = report(
            f,
            pos,
            threads,
            args.out.as_deref(),
            &resumed_command(),
            args.json,
            args.max_positions,
        )?;
        self.finish()?;
        Ok(code)
    }

    /// Deletes the checkpoint once the answer is out (a finished run leaves none).
    fn finish(&self) -> Result<()> {
        match std::fs::remove_file(&self.path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(anyhow::anyhow!("removing {}: {e}", self.path.display()))
            }
            _ => Ok(()),
        }
    }
}

/// Saves the BFS at level boundaries, at most every `every`, and stops it after `stop_after`
/// levels (saved first) or when a save fails.
struct Saver {
    ck: LevelCheckpoint,
    every: Duration,
    last: Instant,
    /// How long the last save took: saves wait ten times that, so a huge frontier is not
    /// written over and over.
    cost: Duration,
    stop_after: Option<u32>,
    error: Option<String>,
}

impl Saver {
    fn on_level(&mut self, out: &Closure, next: &[Node]) -> bool {
        !self.due(out) || self.save(&LevelState::of(out, next))
    }

    fn stopping(&self, out_depth: u32) -> bool {
        self.stop_after.is_some_and(|n| out_depth >= n)
    }

    /// The exit of a run `on_level` stopped: 2 on a failed save, else 1 with where to resume.
    fn stopped(self) -> Result<ExitCode> {
        if let Some(e) = self.error {
            return Err(anyhow::anyhow!("writing the checkpoint: {e}"));
        }
        eprintln!(
            "ansatz: stopped after {} levels; saved {}: finish with --resume",
            self.stop_after.unwrap_or(0),
            self.ck.path.display()
        );
        Ok(ExitCode::from(1))
    }
}

impl LevelHook for Saver {
    fn due(&mut self, out: &Closure) -> bool {
        self.stopping(out.max_depth) || self.last.elapsed() >= self.every.max(self.cost * 10)
    }

    fn save(&mut self, state: &LevelState) -> bool {
        let start = Instant::now();
        if let Err(e) = level_checkpoint::save(&self.ck.path, &self.ck.fingerprint, state) {
            self.error = Some(e.to_string());
            return false;
        }
        self.last = Instant::now();
        self.cost = start.elapsed();
        !self.stopping(state.max_depth)
    }
}

/// The command line for result files: a resumed run records the command that started it.
fn resumed_command() -> String {
    crate::provenance::this_command()
}

/// A game that ends has no family: exit 1 with the reason; other errors are bad input.
fn family_error(e: FamilyError) -> Result<ExitCode> {
    match e {
        FamilyError::Terminates { .. } => {
            eprintln!("ansatz: {e}");
            Ok(ExitCode::from(1))
        }
        e => Err(BadInput(e.to_string()).into()),
    }
}

/// The answer of a family (single run, cluster or merged shards): the JSON or text on stdout, the
/// JSON with `command` in `out`; exit 1 when `--max-positions` stopped the search.
fn report(
    f: &Family,
    pos: &Position,
    threads: usize,
    out_file: Option<&Path>,
    command: &str,
    as_json: bool,
    max_positions: u64,
) -> Result<ExitCode> {
    let mut v = family_json(f, threads);
    v["position"] = Value::from(pos.to_string());
    if let Some(path) = out_file {
        // Facts, and apart from them the run's provenance (the closure's duplicate count depends
        // on how the threads met, so it goes with the run too).
        let mut saved = v.clone();
        for k in ["seconds", "positions_per_second", "threads", "duplicates"] {
            saved.as_object_mut().unwrap().remove(k);
        }
        let mut run =
            crate::provenance::Run::here(command.to_string(), threads, f.seconds).to_json();
        run["duplicates"] = Value::from(f.duplicates);
        saved["run"] = run;
        write_atomic(path, &format!("{saved}\n"))?;
    }
    let mut out = Out::new();
    if as_json {
        out.json(&v)?;
    } else {
        writeln!(out, "position      {pos}")?;
        writeln!(out, "cycle_id      {}", f.cycle.cycle_id)?;
        writeln!(out, "preperiod     {} tricks", f.cycle.preperiod)?;
        writeln!(
            out,
            "period        {} tricks, {} cards",
            f.cycle.period, f.cycle.cycle_cards
        )?;
        writeln!(out, "closure_size  {} positions", f.closure_size)?;
        writeln!(out, "max_depth     {} tricks", f.max_depth)?;
        writeln!(out, "reach         {} cards in the smaller hand", f.reach)?;
        writeln!(out, "deepest       {}", f.deepest)?;
        writeln!(
            out,
            "rate          {:.0} positions/s ({} threads, {:.3} s)",
            f.positions_per_second(),
            threads,
            f.seconds
        )?;
        writeln!(out, "balanced      {}", f.balanced.len())?;
        for b in &f.balanced {
            writeln!(out, "  {b}")?;
        }
        out.flush()?;
    }
    if !f.complete {
        eprintln!("ansatz: --max-positions {max_positions} reached: the counts are partial");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// What `ansatz merge` needs, besides the closure parts, to give the single-run answer.
#[derive(Serialize, Deserialize)]
struct FamilyContext {
    /// The position in dash notation.
    position: String,
    max_positions: u64,
    visited_set: bool,
    /// The JSON file the single run writes (`--out`), if any.
    out: Option<String>,
    /// The command line without its distribution flags.
    command: String,
}

/// The shard file of a `family --shard I/N` run: `OUT.shard-I-of-N` beside `--out OUT`, else
/// `out/family-HASH.shard-I-of-N.bin` (HASH: of the position).
fn shard_file_path(out: Option<&Path>, pos: &Position, s: Shard) -> PathBuf {
    match out {
        Some(p) => beside(p, s),
        None => PathBuf::from(crate::provenance::DEFAULT_OUT).join(format!(
            "family-{:016x}.{}.bin",
            fnv1a(pos.to_string().as_bytes()),
            s.suffix()
        )),
    }
}

/// Writes a shard's part of the closure for `ansatz merge` and reports it.
fn write_shard(
    args: &Args,
    pos: &Position,
    s: Shard,
    part: &Closure,
    seconds: f64,
    threads: usize,
) -> Result<ExitCode> {
    let path = shard_file_path(args.out.as_deref(), pos, s);
    let context = FamilyContext {
        position: pos.to_string(),
        max_positions: args.max_positions,
        visited_set: args.visited_set,
        out: args.out.as_ref().map(|p| p.display().to_string()),
        command: recorded_command(&[], &[]),
    };
    let file = ShardFile {
        command: "family".into(),
        fingerprint: format!(
            "family v1 position={} max_positions={} visited_set={}",
            context.position, context.max_positions, context.visited_set
        ),
        shard: s,
        context: encode_part(&context),
        records: encode_part(&(ClosurePart::from(part), seconds, threads)),
    };
    file.write(&path)
        .map_err(|e| anyhow::anyhow!(e.to_string()))?;
    let v = json!({
        "shard": s.to_string(),
        "file": path.display().to_string(),
        "closure_size": part.size,
        "balanced_count": part.balanced.len(),
        "complete": part.complete,
    });
    let mut out = Out::new();
    if args.json {
        out.json(&v)?;
    } else {
        let mut every = path.display().to_string();
        every = every.replace(&s.suffix(), &format!("shard-*-of-{}", s.count));
        writeln!(
            out,
            "shard {s}: {} positions, {} balanced -> {}\nmerge every shard with: ansatz merge {every}",
            part.size,
            part.balanced.len(),
            path.display()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Merges the shard files of one `family --shard I/N` run into its single-run answer (the same
/// JSON, and the same `--out` file: at `out`, else where the shards were told to write it).
pub(super) fn merge_shards(
    files: &[ShardFile],
    out: Option<&Path>,
    as_json: bool,
) -> Result<ExitCode> {
    let bad = |what: &str| BadInput(format!("shard file: {what}"));
    let ctx: FamilyContext = decode(&files[0].context, "family context")?;
    let pos = Position::parse(&ctx.position, Notation::Dash)
        .map_err(|e| bad(&format!("bad position: {e}")))?;
    let (mut parts, mut seconds, mut threads) = (Vec::new(), 0.0, 0);
    for f in files {
        let (part, secs, th): (ClosurePart, f64, usize) = decode(&f.records, "family records")?;
        parts.push(Closure::try_from(&part).map_err(|e| bad(&e.to_string()))?);
        seconds += secs;
        threads += th;
    }
    let cfg = Config {
        max_positions: ctx.max_positions,
        visited_set: ctx.visited_set,
        ..Config::default()
    };
    let f = match family_from_parts(&pos, &cfg, parts, seconds) {
        Ok(f) => f,
        Err(e) => return Err(bad(&e.to_string()).into()),
    };
    let out_file = out.map(Path::to_path_buf).or(ctx.out.map(PathBuf::from));
    report(
        &f,
        &pos,
        threads,
        out_file.as_deref(),
        &ctx.command,
        as_json,
        ctx.max_positions,
    )
}
