//! `ansatz discover`: balanced cycles found automatically on any deck (the ansatz route in
//! stages), with progress bars, checkpoint and resume, and result files.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;

use anyhow::Result;
use indicatif::ProgressBar;
use serde_json::json;

use super::output::{BadInput, Out};
use super::progress;
use crate::card::DeckSpec;
use crate::discover::{Config, Observer, Scope, StageReport};
use crate::run::discover::text;

/// Find balanced non-terminating cycles of a deck automatically: frame, filter, head sweep,
/// censuses around the accumulators, balance by backward play.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz discover --quick                       # the standard deck, the smaller scope
  ansatz discover --deck 16-2J2Q2K2A --json     # a small deck: every deck of its frame
  ansatz discover --deck camicia --quick --out out/camicia
  ansatz discover --quick --resume              # finish an interrupted run

Stages: frame (the separator is the deck's lowest face kind, as the Jack of the 2024 frame
Δ1 J Δ2 J Δ3 J-/J-; the pieces hold the other face kinds), filter (the piece of the bare frame
with the most faces), heads (every head template PREFIX FILTER J HEAD {TEST} J-/J- with HEAD = a
number cards, one face, b number cards: its pieces, exactly, and their accumulation), census (every
deck holding each accumulator shape, the rest of the deck in every arrangement; a deck whose frame
has at most 2e8 arrangements is searched whole instead), balance (each cycle's family by backward
play; the balanced cycles up to exchanging the players, every deal replayed with the reference
engine). Writes DIR/NAME.jsonl and DIR/NAME.txt (NAME = discover-DECK[-quick]); the checkpoint
goes to DIR/work (out/work/... under results/). Exit code 1 when no balanced cycle is found.")]
pub struct Args {
    /// Deck: standard, camicia, or counts such as 16-2J2Q2K2A.
    #[arg(long, default_value = "standard", value_name = "SPEC")]
    deck: String,
    /// The smaller documented scope (heads of at most 12 number cards either side, TEST of at
    /// most 12 cards); the default scope sweeps 16 and 14 (as scripts/head-sweep.sh).
    #[arg(long)]
    quick: bool,
    /// Directory for the result files.
    #[arg(long, default_value = crate::provenance::DEFAULT_OUT, value_name = "DIR")]
    out: PathBuf,
    /// Finish an interrupted run from its checkpoint.
    #[arg(long)]
    resume: bool,
    /// Most positions of one family's backward closure.
    #[arg(long, default_value_t = 20_000_000, value_name = "N")]
    max_positions: u64,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// No progress bars or stage lines.
    #[arg(long, short)]
    quiet: bool,
    /// Stop after N censuses, as an interruption would (for testing resume); exit 1.
    #[arg(long, hide = true, value_name = "N")]
    stop_after_censuses: Option<usize>,
}

/// Progress bars and stage lines on stderr.
struct Bars {
    quiet: bool,
    bar: Mutex<Option<ProgressBar>>,
}

impl Observer for Bars {
    fn start(&self, stage: &str, total: u64, unit: &str) {
        let pb = progress::bar(total, &format!("{unit} ({stage})"), self.quiet);
        *self.bar.lock().unwrap() = Some(pb);
    }
    fn advance(&self, n: u64) {
        if let Some(pb) = self.bar.lock().unwrap().as_ref() {
            pb.inc(n);
        }
    }
    fn finish(&self, r: &StageReport) {
        if let Some(pb) = self.bar.lock().unwrap().take() {
            pb.finish_and_clear();
        }
        if !self.quiet {
            eprintln!(
                "stage {:8} {:>16} {:12} {:8.1} s  {}",
                r.name, r.work, r.unit, r.seconds, r.summary
            );
        }
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    let deck: DeckSpec = args
        .deck
        .parse()
        .map_err(|e: crate::card::DeckError| BadInput(e.to_string()))?;
    // Checked before any work or checkpoint, so bad decks exit 2 at once.
    crate::discover::frame::derive(deck).map_err(|e| BadInput(e.to_string()))?;
    let config = Config {
        deck,
        scope: if args.quick {
            Scope::QUICK
        } else {
            Scope::DEFAULT
        },
        max_positions: args.max_positions,
        stop_after_censuses: args.stop_after_censuses,
    };
    let bars = Bars {
        quiet: args.quiet || args.json,
        bar: Mutex::new(None),
    };
    let a = match crate::run::discover::run(
        &config,
        &args.out,
        args.quick,
        args.resume,
        args.threads,
        &bars,
    )? {
        Ok(a) => a,
        Err(stopped) => {
            eprintln!("ansatz: {stopped}");
            return Ok(ExitCode::from(1));
        }
    };
    let mut out = Out::new();
    if args.json {
        let mut v = serde_json::to_value(&a.found)?;
        v["seconds"] = json!((a.seconds * 1000.0).round() / 1000.0);
        v["threads"] = json!(a.threads);
        v["files"] = json!(a.files);
        out.json(&v)?;
    } else {
        out.write_all(text(&a.found).as_bytes())?;
        writeln!(out, "files     {}", a.files.join(", "))?;
        writeln!(out, "seconds   {:.1}", a.seconds)?;
    }
    Ok(if a.found.balanced_cycles.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
