//! `ansatz beat-it`: Beat It or Eat It (Taylor, 1993): solve a position, the census of a suit
//! length, or play a game in the terminal against perfect play.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use serde_json::json;

use super::output::{BadInput, Out};
use super::progress;
use crate::beatit::cards::GameSetup;
use crate::beatit::census::census;
use crate::beatit::dense::MAX_DENSE;
use crate::beatit::graph::Graph;
use crate::beatit::line::{best_move, line_names, principal_line};
use crate::beatit::{State, Value, Values};
use crate::run::beat_it::{census_json, write_census};

/// Beat It or Eat It: exact values of positions, the census of layouts, a game against perfect play.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz beat-it solve 'AQT98.KJ/KJ.AQT98 (1)'
  ansatz beat-it solve 'AQT.K/.AQT (1)' --table '8h Jh 8s Js 9h Kh 9s' --json
  ansatz beat-it census --suit 6 --json
  ansatz beat-it census --suit 8 --out results/beat-it
  ansatz beat-it play --suit 4 --seed 7

Hands are hearts, a dot, spades, highest first (AQT98.KJ); a position is HAND1/HAND2 (m) with m
the player to move; the table is given oldest first (8h Jh 8s). Rules: docs/beat-it.md.")]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(clap::Subcommand, Debug)]
enum Sub {
    Solve(SolveArgs),
    Census(CensusArgs),
    Play(super::beat_it_play::PlayArgs),
}

/// The exact value of a position for the player to move, the best move and a principal line.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz beat-it solve 'AQT98.KJ/KJ.AQT98 (1)'
  ansatz beat-it solve 'AQT.K/.AQT (1)' --table '8h Jh 8s Js 9h Kh 9s' --json
  ansatz beat-it solve 'AKQJT98765432./.AKQJT98765432 (1)' --node-limit 1000000

Every position reachable from POSITION is stored once and solved by retrograde analysis (exact
on repeating play). With more than --node-limit reachable positions nothing is guessed: the
value is reported unknown and the exit code is 1. Memory is about 70–100 bytes a position.")]
struct SolveArgs {
    /// HAND1/HAND2 (m), hands like AQT98.KJ.
    position: String,
    /// The table, oldest first (8h Jh 8s); with an odd count the top card is to be beaten.
    #[arg(long, default_value = "", value_name = "CARDS")]
    table: String,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Give up (value unknown) past this many reachable positions.
    #[arg(long, default_value_t = 20_000_000, value_name = "N")]
    node_limit: u64,
}

/// Every symmetric layout of a suit length, each player leading, solved exactly.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz beat-it census --suit 5
  ansatz beat-it census --suit 7 --json -q
  ansatz beat-it census --suit 8 --out results/beat-it

Solves every position of the suit length at once (retrograde analysis, 2 bytes a position,
3^(2n-1)(2n+3) positions: n = 8 takes 0.55 GB plus its queue), then reads the 2^n layouts.
With --out, writes DIR/beat-it-N.json: the JSON printed by --json plus its `run` (command,
version, seconds, machine), which `ansatz reproduce` checks.")]
struct CensusArgs {
    /// The suit length n (1..=9).
    #[arg(long, value_name = "N")]
    suit: usize,
    /// Print one JSON object with every game.
    #[arg(long)]
    json: bool,
    /// Write DIR/beat-it-N.json.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
}

/// A game in the terminal against perfect play, both hands face up.
pub fn run(args: Args) -> Result<ExitCode> {
    match args.command {
        Sub::Solve(a) => solve(a),
        Sub::Census(a) => run_census(a),
        Sub::Play(a) => super::beat_it_play::play(a),
    }
}

fn solve(a: SolveArgs) -> Result<ExitCode> {
    let g = GameSetup::parse(&a.position, &a.table).map_err(|e| BadInput(e.to_string()))?;
    let s = State::from_setup(&g);
    let mut out = Out::new();
    let graph = match Graph::solve(s, a.node_limit) {
        Ok(graph) => graph,
        Err(e) => {
            if a.json {
                out.json(&json!({
                    "position": g.position_string(), "table": g.table_string(),
                    "value": "unknown", "exact": false, "to_move": g.to_move, "winner": null,
                    "best": null, "line": [], "plies": null, "reason": e.to_string(),
                }))?;
            } else {
                writeln!(out, "{}: value unknown ({e})", g.position_string())?;
                out.flush()?;
            }
            return Ok(ExitCode::from(1));
        }
    };
    let solved = graph.solved(&s).expect("the root is in its graph");
    let best = best_move(&graph, s).map(|(m, _)| s.move_name(m));
    let line = line_names(s, &principal_line(&graph, s, 200));
    let winner = match solved.value {
        Value::Win => Some(g.to_move),
        Value::Loss => Some(3 - g.to_move),
        Value::Draw => None,
    };
    if a.json {
        out.json(&json!({
            "position": g.position_string(), "table": g.table_string(),
            "value": solved.value.as_str(), "exact": true, "to_move": g.to_move,
            "winner": winner, "best": best, "line": line, "plies": solved.plies,
            "positions": graph.positions(),
        }))?;
    } else {
        let verdict = match winner {
            Some(w) => format!(
                "player {w} wins in {} plies",
                solved.plies.expect("decided")
            ),
            None => "draw".to_string(),
        };
        writeln!(
            out,
            "{}{}: {} for player {} to move ({verdict})",
            g.position_string(),
            if g.table.is_empty() {
                String::new()
            } else {
                format!(" table {}", g.table_string())
            },
            solved.value.as_str(),
            g.to_move
        )?;
        writeln!(out, "best: {}", best.unwrap_or_default())?;
        writeln!(out, "line: {}", line.join(" "))?;
        writeln!(out, "reachable positions: {}", graph.positions())?;
        out.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}

fn run_census(a: CensusArgs) -> Result<ExitCode> {
    if a.suit == 0 || a.suit > MAX_DENSE {
        return Err(BadInput(format!(
            "--suit {}: the census solves suit lengths 1..={MAX_DENSE}",
            a.suit
        ))
        .into());
    }
    let started = std::time::Instant::now();
    let pb = progress::bar(1, "steps", a.quiet || a.json);
    let c = census(a.suit, &mut |done, total| {
        pb.set_length(total);
        pb.set_position(done);
    })?;
    pb.finish_and_clear();
    let v = census_json(&c);
    if let Some(dir) = &a.out {
        write_census(dir, &c, &v, started.elapsed().as_secs_f64())?;
    }
    let mut out = Out::new();
    if a.json {
        out.json(&v)?;
    } else {
        let games = c.games.len();
        writeln!(
            out,
            "suit {}: {} layouts, {} games: leader wins {}, follower wins {}, draws {}",
            c.suit, c.layouts, games, c.leader_wins, c.follower_wins, c.draws
        )?;
        writeln!(
            out,
            "all positions: {} (wins {}, losses {}, draws {} for the player to move), longest decided game {} plies",
            c.table.positions, c.table.wins, c.table.losses, c.table.draws, c.table.max_plies
        )?;
        out.flush()?;
    }
    Ok(ExitCode::SUCCESS)
}
