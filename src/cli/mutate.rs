//! `ansatz mutate`: every position within a few add / remove / swap operations (and, optionally,
//! every split of the cards) of a position whose game never ends.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use serde_json::json;

use super::bench::pool;
use super::output::{BadInput, Out};
use super::play::parse_position;
use super::progress;
use crate::ansatz::mutate::{MutateConfig, games_bound, mutate};
use crate::notation::Notation;

/// Try every add, remove and swap of one card, up to K in a row, and print the positions whose
/// game never ends.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz mutate '--K---A----AAJ--J--------K---------Q-Q-K---Q-KAQJ-/J- (1)'
  ansatz mutate --ops 2 --json '---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA'
  ansatz mutate --split-points '--J--K---A----AAJ--J-/J- (1)'

Operations: add a card of each kind (-, J, Q, K, A) at each place of each hand, remove a card,
swap a card to each other kind; written `add Q at 1:5` (hand 1, place 5), `remove 2:3`,
`swap 1:4 to A`, `split at 20` (the first 20 cards to hand 1). Each resulting position is played
with exact cycle detection and reported once, with the first operations found that reach it.
A 52-card position has about 540 neighbours; --ops 2 plays ~3e5 games, --ops 3 ~1.5e8.
Exit code 1 when no position near it cycles.")]
pub struct Args {
    /// The position: HAND1/HAND2 [(1)|(2)], top card first.
    #[arg(allow_hyphen_values = true)]
    position: String,
    /// Operations applied in a row: 1, 2 or 3.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=3))]
    ops: u8,
    /// Also try every split of all the cards between the two hands.
    #[arg(long)]
    split_points: bool,
    /// How to read the position: auto, dash, cards or digits.
    #[arg(long, default_value = "auto", value_name = "NOTATION")]
    notation: Notation,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let start = parse_position(&args.position, args.notation, None)?;
    if start.total() == 0 {
        return Err(BadInput("the position holds no cards".into()).into());
    }
    let cfg = MutateConfig {
        ops: args.ops as usize,
        split_points: args.split_points,
    };
    let pool = pool(args.threads)?;
    let pb = progress::bar(games_bound(&start, &cfg), "games", args.quiet || args.json);
    let found = pool.install(|| mutate(&start, &cfg, &|n| pb.inc(n)));
    pb.finish_and_clear();
    let mut out = Out::new();
    if args.json {
        out.json(&json!({
            "position": start.to_string(),
            "ops": args.ops,
            "split_points": args.split_points,
            "count": found.len(),
            "results": found.iter().map(|m| json!({
                "position": m.position.to_string(),
                "ops": m.ops.iter().map(|o| o.to_string()).collect::<Vec<_>>(),
                "preperiod": m.cycle.preperiod,
                "period": m.cycle.period,
                "cycle_id": m.cycle.cycle_id.to_string(),
            })).collect::<Vec<_>>(),
        }))?;
    } else {
        writeln!(out, "start     {start}")?;
        writeln!(out, "found     {} positions that never end\n", found.len())?;
        for m in &found {
            let ops: Vec<String> = m.ops.iter().map(|o| o.to_string()).collect();
            writeln!(
                out,
                "{}  period {}  [{}]",
                m.position,
                m.cycle.period,
                ops.join(", ")
            )?;
        }
        out.flush()?;
    }
    Ok(if found.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
