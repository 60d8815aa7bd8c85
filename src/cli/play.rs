//! `ansatz play`: one game, its outcome, and optionally every position at trick boundaries.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use serde_json::{Value, json};

use super::output::{BadInput, Out};
use crate::card::DeckSpec;
use crate::engine::trace::{TraceLine, trace};
use crate::engine::{Outcome, reference};
use crate::notation::Notation;
use crate::position::Position;

/// Play one game forward and report its outcome (exact cycle detection).
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz play '---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)'
  ansatz play --json --deck standard '10S 9C KH .../...'
  ansatz play --notation digits '0020/1000 (2)'
  ansatz play --trace 'J--/-J-'
  ansatz play --plot out/game.svg '---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---'

Counting (rules.md): cards = cards put on the pile; tricks = piles taken, plus the last partial
trick. For a cycle, tricks and cards count play until a position first repeats.")]
pub struct Args {
    /// The position: HAND1/HAND2 [(1)|(2)], top card first. Default: the balanced
    /// non-terminating deal of the 2024 paper.
    #[arg(allow_hyphen_values = true, default_value = PAPER_DEAL)]
    position: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Print every position at trick boundaries until the game ends or a position repeats.
    #[arg(long)]
    trace: bool,
    /// Check the position against a deck: standard, camicia, or counts like 8-2J2Q2K2A.
    #[arg(long, value_name = "SPEC")]
    deck: Option<String>,
    /// How to read the position: auto, dash, cards or digits.
    #[arg(long, default_value = "auto", value_name = "NOTATION")]
    notation: Notation,
    /// Use the reference engine (the slow oracle) instead of the fast one.
    #[arg(long)]
    reference: bool,
    /// Also draw the game into FILE (.svg or .png): both hand sizes and player 1's face cards per
    /// trick, with the preperiod and period of a cycle, or the final collapse of a game that ends.
    #[arg(long, value_name = "FILE")]
    plot: Option<std::path::PathBuf>,
}

/// The first balanced non-terminating deal (arXiv:2403.13855, 2024).
pub const PAPER_DEAL: &str = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)";

/// Parses a position and checks it against `--deck` when given: the shared validation of every
/// subcommand that takes a position.
pub fn parse_position(text: &str, notation: Notation, deck: Option<&str>) -> Result<Position> {
    let pos = Position::parse(text, notation)
        .map_err(|e| BadInput(format!("bad position {text:?}: {e}")))?;
    if let Some(spec) = deck {
        let deck = parse_deck(spec)?;
        pos.check_deck(&deck)
            .map_err(|e| BadInput(format!("bad position {text:?}: {e}")))?;
    }
    Ok(pos)
}

pub fn parse_deck(spec: &str) -> Result<DeckSpec> {
    Ok(spec
        .parse::<DeckSpec>()
        .map_err(|e| BadInput(e.to_string()))?)
}

/// The JSON object of an outcome, as `play --json` prints it.
pub fn outcome_json(pos: &Position, outcome: &Outcome) -> Value {
    match outcome {
        Outcome::Terminates {
            winner,
            tricks,
            cards,
        } => json!({
            "position": pos.to_string(),
            "outcome": "terminates",
            "winner": winner + 1,
            "tricks": tricks,
            "cards": cards,
        }),
        Outcome::Cycle(c) => json!({
            "position": pos.to_string(),
            "outcome": "cycle",
            "tricks": c.tricks,
            "cards": c.cards,
            "preperiod": c.preperiod,
            "period": c.period,
            "cycle_cards": c.cycle_cards,
            "cycle_id": c.cycle_id.to_string(),
        }),
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    let pos = parse_position(&args.position, args.notation, args.deck.as_deref())?;
    let outcome = if args.reference {
        reference::play(&pos)
    } else {
        crate::engine::play(&pos)
    };
    if let Some(path) = &args.plot {
        crate::picture::game::plot(path, &pos).map_err(|e| BadInput(e.to_string()))?;
    }
    let mut out = Out::new();
    let mut lines: Vec<TraceLine> = Vec::new();
    if args.trace {
        trace(&pos, |l| lines.push(l.clone()));
    }
    if args.json {
        let mut v = outcome_json(&pos, &outcome);
        if args.trace {
            v["trace"] = lines
                .iter()
                .map(|l| json!({"trick": l.trick, "cards": l.cards, "position": l.position.to_string()}))
                .collect();
        }
        out.json(&v)?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.trace {
        writeln!(out, "{:>6} {:>8}  position", "trick", "cards")?;
        for l in &lines {
            writeln!(out, "{:>6} {:>8}  {}", l.trick, l.cards, l.position)?;
        }
        writeln!(out)?;
    }
    writeln!(out, "position     {pos}")?;
    match &outcome {
        Outcome::Terminates {
            winner,
            tricks,
            cards,
        } => {
            writeln!(out, "outcome      terminates")?;
            writeln!(out, "winner       player {}", winner + 1)?;
            writeln!(out, "tricks       {tricks}")?;
            writeln!(out, "cards        {cards}")?;
        }
        Outcome::Cycle(c) => {
            writeln!(out, "outcome      cycle (never ends)")?;
            writeln!(out, "preperiod    {} tricks", c.preperiod)?;
            writeln!(
                out,
                "period       {} tricks, {} cards",
                c.period, c.cycle_cards
            )?;
            writeln!(out, "until repeat {} tricks, {} cards", c.tricks, c.cards)?;
            writeln!(out, "cycle_id     {}", c.cycle_id)?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
