//! `ansatz family`: a position's cycle and its backward closure, with the balanced deals in it.
//! Also the helpers `extend` shares: an open-ended progress counter and result-file writes.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{Value, json};

use super::bench::pool;
use super::cluster::{DistArgs, Mode};
use super::output::{BadInput, Out};
use super::play::{PAPER_DEAL, parse_position};
use crate::backward::closure::Config;
use crate::backward::{Family, FamilyError, family};
use crate::notation::Notation;

/// Play POSITION to its cycle, then find every position whose game reaches that cycle (the
/// backward closure of the cycle's positions) and the balanced deals among them.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz family
  ansatz family --json 'J--/-J-'
  ansatz family --threads 2 --out family-2024.json '---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)'
  ansatz family --hosts hosts.txt --process 0 --workers 8 --json    # one closure over a cluster

closure_size counts distinct positions (hands and player to move), the cycle's own included;
balanced lists the positions whose hands differ by at most one card (26/26 for the standard deck),
sorted as strings; max_depth is the most tricks any of them stands before the cycle.
Exit 1 when the game terminates (no cycle) or --max-positions stops the search (partial counts).")]
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

/// The command line that is running, for result files.
pub(super) fn command_line() -> String {
    std::env::args().collect::<Vec<_>>().join(" ")
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
    let mut threads = pool.current_num_threads();
    let result = match &mode {
        Mode::Shard(_) => {
            return Err(BadInput(
                "family has no units to shard: run it on a cluster with --hosts instead".into(),
            )
            .into());
        }
        Mode::Cluster(cluster) => {
            threads = cluster.total_workers();
            match family_on_cluster(cluster, &pos, &cfg, args.quiet || args.json)? {
                None => return Ok(ExitCode::SUCCESS),
                Some(r) => r,
            }
        }
        Mode::Single => {
            let pb = counter("positions", args.quiet || args.json);
            let result = pool.install(|| family(&pos, &cfg, &|n| pb.inc(n)));
            pb.finish_and_clear();
            result
        }
    };
    let f = match result {
        Ok(f) => f,
        Err(e @ FamilyError::Terminates { .. }) => {
            eprintln!("ansatz: {e}");
            return Ok(ExitCode::from(1));
        }
        Err(e) => return Err(BadInput(e.to_string()).into()),
    };
    let mut v = family_json(&f, threads);
    v["position"] = Value::from(pos.to_string());
    if let Some(path) = &args.out {
        let mut saved = v.clone();
        saved["command"] = Value::from(command_line());
        saved["version"] = Value::from(env!("CARGO_PKG_VERSION"));
        write_atomic(path, &format!("{saved}\n"))?;
    }
    let mut out = Out::new();
    if args.json {
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
        eprintln!(
            "ansatz: --max-positions {} reached: the counts are partial",
            args.max_positions
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// The family on a cluster: every process plays the position to its cycle; the closure's
/// positions are spread over all workers by a fixed hash of their packed key (`dist::closure`).
/// Returns the family at process 0, `None` elsewhere.
fn family_on_cluster(
    cluster: &crate::dist::cluster::Cluster,
    pos: &crate::position::Position,
    cfg: &Config,
    quiet: bool,
) -> Result<Option<Result<Family, FamilyError>>> {
    use crate::backward::family::{cycle_positions, cycle_seeds, family_from_closure};
    use crate::dist::cluster::same_job;
    if pos.total() > crate::position::PACK_MAX_CARDS {
        return Err(BadInput(format!(
            "a cluster closure handles at most {} cards, not {}",
            crate::position::PACK_MAX_CARDS,
            pos.total()
        ))
        .into());
    }
    let info = match crate::engine::play(pos) {
        crate::engine::Outcome::Cycle(info) => info,
        crate::engine::Outcome::Terminates {
            winner,
            tricks,
            cards,
        } => {
            return Ok(Some(Err(FamilyError::Terminates {
                winner,
                tricks,
                cards,
            })));
        }
    };
    let seeds = cycle_seeds(&cycle_positions(&info));
    let fingerprint = crate::library::fnv1a(
        format!(
            "family {} max_positions={} workers={}",
            info.cycle_id, cfg.max_positions, cluster.workers
        )
        .as_bytes(),
    );
    let connection = cluster.connect().map_err(|e| BadInput(e.to_string()))?;
    let lead = cluster.process == 0;
    let pb = counter("positions", quiet || !lead);
    let cfg = *cfg;
    let start = std::time::Instant::now();
    let results = cluster
        .execute(connection, move |w| {
            if !same_job(w, fingerprint) {
                return Err(());
            }
            Ok(crate::dist::closure::closure(w, &seeds, &cfg, &|n| {
                pb.inc(n)
            }))
        })
        .map_err(|e| BadInput(e.to_string()))?;
    let results: Vec<_> = results.into_iter().collect::<Result<_, ()>>().map_err(|_| {
        BadInput(
            "the cluster's processes run different jobs: start every process with the same command, arguments and --workers (only --process differs)".into(),
        )
    })?;
    let seconds = start.elapsed().as_secs_f64();
    Ok(results
        .into_iter()
        .flatten()
        .next()
        .map(|found| Ok(family_from_closure(info, found, seconds))))
}
