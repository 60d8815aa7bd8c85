//! `ansatz extend`: balanced deals whose games run longer than a given terminating game, grown
//! backwards from its path; games past the record go to `out/` (or `--results DIR`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use serde_json::json;

use super::bench::pool;
use super::output::{BadInput, Out};
use super::play::parse_position;
use super::progress::counter;
use crate::backward::extend::{
    ExtendConfig, ExtendError, Extension, RECORD_CARDS, RECORD_TRICKS, extend,
};
use crate::notation::Notation;
use crate::run::extend::{game_json, save_record};

/// Play a terminating game, play backwards from every position on its path, and report the
/// balanced deals whose games run longest (each replayed by the forward engine).
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz extend '--K---Q----A-----J-----A-Q/--J---K----K---J-AQ--A-- (1)'
  ansatz extend --top 3 --json --max-positions 100000000 'AJ-J---A---A----J--Q--A--K/---Q-K-J---------KK----Q-Q'

Every position in the backward tree reaches the original game, so its length is known; every
balanced one is still replayed forward, and the K longest by cards and by tricks are printed. A game
longer than the record (8344 cards or 1164 tricks) is written to --results (default out/).
Exit 1 when the tree holds no balanced position; a search cut by --max-positions says so.")]
pub struct Args {
    /// The position: HAND1/HAND2 [(1)|(2)], top card first. Its game must terminate.
    #[arg(allow_hyphen_values = true)]
    position: String,
    /// How many games to report, by cards and by tricks.
    #[arg(long, value_name = "K", default_value_t = ExtendConfig::default().top)]
    top: usize,
    /// Stop the backward search once more than N positions are found (the batch in progress is
    /// finished); the games reported then come from the partial tree.
    #[arg(long, value_name = "N", default_value_t = ExtendConfig::default().max_positions)]
    max_positions: u64,
    /// Where games longer than the record are written.
    #[arg(long, value_name = "DIR", default_value = crate::provenance::DEFAULT_OUT)]
    results: PathBuf,
    /// Write games with more cards than this (the record by default).
    #[arg(long, value_name = "CARDS", default_value_t = RECORD_CARDS)]
    record_cards: u64,
    /// Write games with more tricks than this (the record by default).
    #[arg(long, value_name = "TRICKS", default_value_t = RECORD_TRICKS)]
    record_tricks: u64,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    /// Check the position against a deck: standard, camicia, or counts like 8-2J2Q2K2A.
    #[arg(long, value_name = "SPEC")]
    deck: Option<String>,
    /// How to read the position: auto, dash, cards or digits.
    #[arg(long, default_value = "auto", value_name = "NOTATION")]
    notation: Notation,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let pos = parse_position(&args.position, args.notation, args.deck.as_deref())?;
    if args.top == 0 {
        return Err(BadInput("--top must be at least 1".into()).into());
    }
    if args.max_positions == 0 {
        return Err(BadInput("--max-positions must be at least 1".into()).into());
    }
    let pool = pool(args.threads)?;
    let cfg = ExtendConfig {
        top: args.top,
        max_positions: args.max_positions,
    };
    let pb = counter("positions", args.quiet || args.json);
    let result = pool.install(|| extend(&pos, &cfg, &|n| pb.inc(n)));
    pb.finish_and_clear();
    let x: Extension = match result {
        Ok(x) => x,
        Err(e @ ExtendError::Cycle(_)) => {
            eprintln!("ansatz: {e}");
            return Ok(ExitCode::from(1));
        }
        Err(e @ ExtendError::TooManyCards(_)) => return Err(BadInput(e.to_string()).into()),
        Err(e) => return Err(e.into()),
    };
    let mut written = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for g in x.by_cards.iter().chain(&x.by_tricks) {
        if g.longer_than(args.record_cards, args.record_tricks)
            && seen.insert(g.position.to_string())
        {
            written.push(save_record(&args.results, g)?.display().to_string());
        }
    }
    let rate = x.closure_size as f64 / x.seconds.max(1e-9);
    let mut out = Out::new();
    if args.json {
        let v = json!({
            "position": pos.to_string(),
            "winner": x.game.winner + 1,
            "tricks": x.game.tricks,
            "cards": x.game.cards,
            "path": x.path,
            "closure_size": x.closure_size,
            "max_depth": x.max_depth,
            "balanced": x.balanced,
            "complete": x.complete,
            "seconds": x.seconds,
            "positions_per_second": rate,
            "by_cards": x.by_cards.iter().map(game_json).collect::<Vec<_>>(),
            "by_tricks": x.by_tricks.iter().map(game_json).collect::<Vec<_>>(),
            "written": written,
        });
        out.json(&v)?;
    } else {
        writeln!(out, "position      {pos}")?;
        writeln!(
            out,
            "game          player {} wins after {} tricks, {} cards",
            x.game.winner + 1,
            x.game.tricks,
            x.game.cards
        )?;
        writeln!(
            out,
            "backward tree {} positions from {} on the path, {} tricks deep{}",
            x.closure_size,
            x.path,
            x.max_depth,
            if x.complete {
                ""
            } else {
                " (cut by --max-positions)"
            }
        )?;
        writeln!(out, "balanced      {}", x.balanced)?;
        writeln!(out, "rate          {rate:.0} positions/s")?;
        for (title, games) in [("by cards", &x.by_cards), ("by tricks", &x.by_tricks)] {
            writeln!(out, "longest {title}:")?;
            writeln!(
                out,
                "  {:>6} {:>6} {:>6}  position",
                "cards", "tricks", "winner"
            )?;
            for g in games {
                writeln!(
                    out,
                    "  {:>6} {:>6} {:>6}  {}",
                    g.cards,
                    g.tricks,
                    g.winner + 1,
                    g.position
                )?;
            }
        }
        for w in &written {
            writeln!(out, "written       {w}")?;
        }
        out.flush()?;
    }
    if x.by_cards.is_empty() {
        eprintln!("ansatz: no balanced position in the backward tree");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
