//! `ansatz predecessors`: every position from which one trick leads to the given one.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use serde_json::Value;

use super::output::Out;
use super::play::parse_position;
use crate::backward;
use crate::notation::Notation;

/// Print every position from which one trick leads to POSITION (one trick back).
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz predecessors 'K---A----AAJ--J--------K---------Q-Q-K---Q-KAQJ-/--J- (2)'
  ansatz predecessors --json 'J--/-J- (2)'

The pile of the last trick is a suffix of the hand of the player to move (the trick's winner);
each suffix and leader that replays as a whole trick gives one predecessor (rules.md, Playing
backwards). Every predecessor printed is checked by playing its trick forward. A position with
no predecessor prints nothing (or []) and exits 1, like every command that finds nothing. A
position with an empty hand has none: a trick that empties a hand ends the game.")]
pub struct Args {
    /// The position: HAND1/HAND2 [(1)|(2)], top card first.
    #[arg(allow_hyphen_values = true)]
    position: String,
    /// Print a JSON array of position strings.
    #[arg(long)]
    json: bool,
    /// Check the position against a deck: standard, camicia, or counts like 8-2J2Q2K2A.
    #[arg(long, value_name = "SPEC")]
    deck: Option<String>,
    /// How to read the position: auto, dash, cards or digits.
    #[arg(long, default_value = "auto", value_name = "NOTATION")]
    notation: Notation,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let pos = parse_position(&args.position, args.notation, args.deck.as_deref())?;
    let preds = backward::predecessors(&pos)?;
    let mut out = Out::new();
    if args.json {
        let v: Value = preds.iter().map(|p| Value::from(p.to_string())).collect();
        out.json(&v)?;
    } else {
        for p in &preds {
            writeln!(out, "{p}")?;
        }
        out.flush()?;
    }
    // Exit 1 on an empty answer, as mutate, family and extend do, so a script can tell
    // "no predecessor" from a list without reading it.
    Ok(if preds.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
