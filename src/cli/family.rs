//! `ansatz family`: arguments → a [`FamilyJob`] run by the run layer → the family printed (and
//! drawn with `--graph`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Result;

use super::cluster::DistArgs;
use super::output::{BadInput, Out, run_job};
use super::play::{PAPER_DEAL, parse_position};
pub(super) use super::progress::counter;
use crate::backward::closure::Config;
use crate::notation::Notation;
use crate::run::family::{FamilyAnswer, FamilyJob};

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

pub fn run(args: Args) -> Result<ExitCode> {
    let pos = parse_position(&args.position, args.notation, args.deck.as_deref())?;
    if args.max_positions == 0 {
        return Err(BadInput("--max-positions must be at least 1".into()).into());
    }
    let mode = args.dist.mode()?;
    let quiet = args.quiet || args.json;
    if let Some(path) = &args.graph {
        let pb = counter("positions drawn", quiet);
        match crate::picture::graph::write_graph(path, &pos, &|n| pb.inc(n)) {
            Ok(_) => pb.finish_and_clear(),
            Err(crate::picture::PictureError::Family(
                e @ crate::backward::FamilyError::Terminates { .. },
            )) => {
                eprintln!("ansatz: {e}");
                return Ok(ExitCode::from(1));
            }
            Err(e) => return Err(BadInput(e.to_string()).into()),
        }
    }
    let pb = counter("positions", quiet || !mode.lead());
    let bar = pb.clone();
    let job = FamilyJob {
        pos,
        cfg: Config {
            max_positions: args.max_positions,
            visited_set: args.visited_set,
            ..Config::default()
        },
        out: args.out.clone(),
        resume: args.resume,
        threads: args.threads,
        checkpoint_every: args.checkpoint_every,
        stop_after_levels: args.stop_after_levels,
        progress: Arc::new(move |n| bar.inc(n)),
    };
    match run_job(&job, &mode, &[&pb], args.json)? {
        Ok(answer) => print(&answer, args.json),
        Err(code) => Ok(code),
    }
}

/// The answer of a family (single run, cluster or merged shards) on stdout; exit 1 when
/// `--max-positions` stopped the search.
pub(super) fn print(a: &FamilyAnswer, as_json: bool) -> Result<ExitCode> {
    let (f, pos) = (&a.family, &a.position);
    let mut out = Out::new();
    if as_json {
        out.json(&a.json)?;
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
            a.threads,
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
            a.max_positions
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
