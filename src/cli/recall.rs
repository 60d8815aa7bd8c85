//! `ansatz recall`: `discover` judged on every deck whose every deal has been played, written as
//! the recall table (`recall.jsonl`, `recall.md`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use serde_json::json;

use super::discover::Bars;
use super::output::{BadInput, Out};
use crate::discover::Observer;
use crate::run::RunError;
use crate::run::recall::{DeckRecall, Recall, RecallObserver};

/// Judge `discover` on every deck whose every deal has been played.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz recall --scope quick --deck 30-2J2Q2K2A     # one deck, the smaller scope
  ansatz recall --out results/discover               # rebuild the tracked table (hours)
  ansatz recall --scope quick --json

The decks: every deck of Table 1 (results/census/table1.jsonl) with a deal that never ends (an odd
deck's two rows, the extra card with either player, as one deck),
the Camicia deck (its public census, tests/data/camicia-never-ending.txt), and the standard deck
(against the catalogue, results/balanced/: no census). For each deck and scope, `ansatz discover
--deck DECK [--quick]` with nothing else set, so every deck gets the same stages and settings.
A class is a cycle with its mirror image (the players exchanged). Each finished discovery is
kept under the work folder (DIR/work/recall, or out/work/... when DIR is in results/): a rerun
reads it back, and the discovery under way resumes from its checkpoint, so an interrupted run
(Ctrl-C, kill -9) goes on where it stopped. Writes DIR/recall.jsonl (a `known` line per deck, a
`recall` line per deck and scope, the run line with each discovery's seconds) and DIR/recall.md.
The table holds the rows of this run and of every discovery read back; a run that would drop a
row of the table already in DIR (a fresh clone has no step files) is refused unless --replace.
Run from the repository's root (the known answers are read from there, or from --root).")]
pub struct Args {
    /// Directory for recall.jsonl and recall.md.
    #[arg(long, default_value = crate::provenance::DEFAULT_OUT, value_name = "DIR")]
    out: PathBuf,
    /// Which scopes of discover to run.
    #[arg(long, value_enum, default_value = "both")]
    scope: ScopeArg,
    /// Only this deck (repeat for more): a deck as the table names it (30-2J2Q2K2A, camicia,
    /// standard).
    #[arg(long, value_name = "SPEC")]
    deck: Vec<String>,
    /// The repository root the known answers are read from.
    #[arg(long, default_value = ".", value_name = "DIR")]
    root: PathBuf,
    /// Write the table even where it drops rows of the table already in DIR (those of decks and
    /// scopes this run leaves out and has no finished discovery of this version for).
    #[arg(long)]
    replace: bool,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// No progress bars or stage lines.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum ScopeArg {
    Both,
    Quick,
    Default,
}

struct Lines {
    bars: Bars,
    quiet: bool,
}

impl RecallObserver for Lines {
    fn deck_start(&self, deck: &str, scope: &str, index: usize, total: usize) {
        if !self.quiet {
            eprintln!("[{}/{total}] discover --deck {deck} ({scope})", index + 1);
        }
    }
    fn deck_done(&self, r: &DeckRecall, seconds: f64) {
        if !self.quiet {
            eprintln!(
                "    {} {}: {}/{} classes{}{} in {seconds:.1} s",
                r.deck,
                r.scope,
                r.found.len(),
                r.known,
                if r.whole_deck {
                    " (every deal played)"
                } else if r.searched_whole {
                    " (frame searched whole)"
                } else {
                    ""
                },
                r.refused
                    .as_ref()
                    .map_or(String::new(), |w| format!(" (refused: {w})"))
            );
        }
    }
    fn stages(&self) -> &dyn Observer {
        &self.bars
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    let scopes = match args.scope {
        ScopeArg::Both => vec![true, false],
        ScopeArg::Quick => vec![true],
        ScopeArg::Default => vec![false],
    };
    if args.threads == Some(0) {
        return Err(BadInput("--threads 0: give at least one thread".into()).into());
    }
    let quiet = args.quiet || args.json;
    let lines = Lines {
        bars: Bars::new(quiet),
        quiet,
    };
    let recall = Recall {
        root: args.root.clone(),
        out: args.out.clone(),
        scopes,
        only: args.deck.clone(),
        replace: args.replace,
        threads: args.threads,
        observer: &lines,
    };
    let a = match recall.run(crate::provenance::this_command()) {
        Ok(a) => a,
        Err(RunError::Input(m)) => return Err(BadInput(m).into()),
        Err(e) => {
            lines.bars.clear();
            return Err(e.into());
        }
    };
    lines.bars.clear();
    let mut out = Out::new();
    if args.json {
        let rows: Vec<_> = a
            .rows
            .iter()
            .map(|(r, s)| {
                let mut v = serde_json::to_value(r).unwrap_or_default();
                v["seconds"] = json!((s * 10.0).round() / 10.0);
                v
            })
            .collect();
        out.json(&json!({ "known": a.decks, "recall": rows, "files": a.files }))?;
    } else {
        writeln!(
            out,
            "{:<16} {:>5} {:>8} {:>7} {:>9}  routes",
            "deck", "cards", "scope", "found", "seconds"
        )?;
        for (r, s) in &a.rows {
            let mut routes: Vec<&str> = r.found.iter().map(|f| f.found_by.as_str()).collect();
            routes.sort();
            routes.dedup();
            writeln!(
                out,
                "{:<16} {:>5} {:>8} {:>7} {:>9.1}  {}{}",
                r.deck,
                r.cards,
                r.scope,
                format!("{}/{}", r.found.len(), r.known),
                s,
                routes.join(","),
                if r.whole_deck {
                    " (whole deck)"
                } else if r.searched_whole {
                    " (whole frame)"
                } else {
                    ""
                }
            )?;
        }
        writeln!(out, "files     {}", a.files.join(", "))?;
    }
    Ok(ExitCode::SUCCESS)
}
