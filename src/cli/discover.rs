//! `ansatz discover`: balanced cycles found automatically on any deck (the ansatz route in
//! stages), with progress bars, checkpoint and resume, and result files.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::Result;
use indicatif::ProgressBar;
use serde_json::json;

use super::output::{BadInput, Out};
use super::progress;
use crate::card::DeckSpec;
use crate::discover::{Config, DiscoverError, Discovery, Observer, Scope, StageReport};
use crate::library::write_atomic;
use crate::provenance::Run;

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
    let started = Instant::now();
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
    let name = format!(
        "discover-{}{}",
        if deck.is_standard() {
            "standard".to_string()
        } else if deck == DeckSpec::CAMICIA {
            "camicia".to_string()
        } else {
            deck.to_string()
        },
        if args.quick { "-quick" } else { "" }
    );
    let work = crate::provenance::work_dir(&args.out)
        .join("work")
        .join(format!("{name}.checkpoint"));
    let pool = super::bench::pool(args.threads)?;
    let bars = Bars {
        quiet: args.quiet || args.json,
        bar: Mutex::new(None),
    };
    let found = match pool.install(|| crate::discover::run(&config, &work, args.resume, &bars)) {
        Ok(d) => d,
        Err(e @ DiscoverError::Stopped(_)) => {
            eprintln!("ansatz: {e}");
            return Ok(ExitCode::from(1));
        }
        Err(e @ (DiscoverError::Checkpoint(_) | DiscoverError::Replay(_))) => return Err(e.into()),
        Err(e) => return Err(BadInput(e.to_string()).into()),
    };
    let seconds = started.elapsed().as_secs_f64();
    let run = Run::here(
        crate::provenance::this_command(),
        pool.current_num_threads(),
        seconds,
    );
    let files = write_files(&args.out, &name, &found, &run)?;
    let mut out = Out::new();
    if args.json {
        let mut v = serde_json::to_value(&found)?;
        v["seconds"] = json!((seconds * 1000.0).round() / 1000.0);
        v["threads"] = json!(pool.current_num_threads());
        v["files"] = json!(files);
        out.json(&v)?;
    } else {
        out.write_all(text(&found).as_bytes())?;
        writeln!(out, "files     {}", files.join(", "))?;
        writeln!(out, "seconds   {seconds:.1}")?;
    }
    Ok(if found.balanced_cycles.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The readable report (without the run).
fn text(d: &Discovery) -> String {
    let mut s = format!(
        "deck      {}\nscope     {}\nframe     {}\nfilter    {}\n",
        d.deck,
        d.scope,
        d.frame,
        d.filter.as_deref().unwrap_or("none")
    );
    s.push_str(&format!(
        "accumulators (accumulation >= {}): {}\n",
        d.accumulation_threshold,
        d.accumulators.len()
    ));
    for a in &d.accumulators {
        s.push_str(&format!(
            "  {}  accumulation {}  (head {}, piece {})\n",
            a.shape, a.accumulation, a.head, a.piece
        ));
    }
    s.push_str("censuses\n");
    for c in &d.censuses {
        s.push_str(&format!(
            "  {}  {} decks, {} never end, {} cycles{}\n",
            c.shape,
            c.decks,
            c.non_terminating,
            c.cycles,
            c.skipped
                .as_deref()
                .map(|r| format!(" (skipped: {r})"))
                .unwrap_or_default()
        ));
    }
    s.push_str(&format!("cycles by reach  {:?}\n", d.reach_histogram));
    let deals: usize = d.balanced_cycles.iter().map(|b| b.balanced.len()).sum();
    s.push_str(&format!(
        "balanced cycles  {} (up to exchanging the players), {deals} deals\n",
        d.balanced_cycles.len()
    ));
    for (i, b) in d.balanced_cycles.iter().enumerate() {
        s.push_str(&format!(
            "  {:>3}  {}  period {}  closure {}  {} deals  (census {})\n",
            i + 1,
            b.cycle_id,
            b.period,
            b.closure_size,
            b.balanced.len(),
            b.census
        ));
    }
    s
}

/// DIR/NAME.jsonl (a summary line, one line per balanced cycle with its deals, one per stage, the
/// run line) and DIR/NAME.txt.
fn write_files(dir: &std::path::Path, name: &str, d: &Discovery, run: &Run) -> Result<Vec<String>> {
    std::fs::create_dir_all(dir).map_err(|e| anyhow::anyhow!("creating {}: {e}", dir.display()))?;
    let mut lines = vec![
        json!({"summary": {
            "deck": d.deck, "scope": d.scope, "frame": d.frame, "filter": d.filter,
            "accumulation_threshold": d.accumulation_threshold,
            "accumulators": d.accumulators, "censuses": d.censuses,
            "reach_histogram": d.reach_histogram,
            "balanced_cycles": d.balanced_cycles.len(),
            "balanced_deals": d.balanced_cycles.iter().map(|b| b.balanced.len()).sum::<usize>(),
        }})
        .to_string(),
    ];
    lines.extend(
        d.balanced_cycles
            .iter()
            .map(|b| json!({ "cycle": b }).to_string()),
    );
    lines.extend(d.stages.iter().map(|s| {
        json!({"stage": {"name": s.name, "work": s.work, "unit": s.unit, "cycles": s.cycles,
            "balanced_cycles": s.balanced_cycles, "reach_histogram": s.reach_histogram,
            "summary": s.summary}})
        .to_string()
    }));
    lines.push(run.line());
    let jsonl = dir.join(format!("{name}.jsonl"));
    let txt = dir.join(format!("{name}.txt"));
    write_atomic(&jsonl, (lines.join("\n") + "\n").as_bytes())?;
    let mut t = text(d);
    for b in &d.balanced_cycles {
        t.push_str(&format!(
            "\ncycle {}  (mirror {})\n",
            b.cycle_id, b.mirror_cycle_id
        ));
        for deal in &b.balanced {
            t.push_str(&format!("  {deal}\n"));
        }
    }
    t.push_str(&run.text_block());
    write_atomic(&txt, t.as_bytes())?;
    Ok(vec![jsonl.display().to_string(), txt.display().to_string()])
}
