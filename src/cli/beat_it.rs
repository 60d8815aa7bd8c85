//! `ansatz beat-it`: Beat It or Eat It (Taylor, 1993): solve a position, the census of a suit
//! length, or play a game in the terminal against perfect play.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use serde_json::{Value as Json, json};

use super::output::{BadInput, Out};
use super::progress;
use crate::beatit::cards::{GameSetup, MAX_SUIT, format_hand};
use crate::beatit::census::{Census, census};
use crate::beatit::dense::MAX_DENSE;
use crate::beatit::graph::Graph;
use crate::beatit::line::{best_move, line_names, principal_line};
use crate::beatit::{State, Value, Values};
use crate::library::atomic::write_atomic;
use crate::provenance::Run;
use crate::rng::SplitMix64;

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
    Play(PlayArgs),
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
value is reported unknown and the exit code is 1. Memory is about 100 bytes a position.")]
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
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz beat-it play --suit 4 --seed 7
  ansatz beat-it play --layout 'AQT98.KJ/KJ.AQT98' --human 2
  printf '1\\n1\\n1\\n' | ansatz beat-it play --suit 3 --seed 1

Type a card (Ks), eat, or the number of a listed move; quit ends the game. After every move the
solver's verdict for the position is shown.")]
struct PlayArgs {
    /// The suit length of a random layout.
    #[arg(long, default_value_t = 5, value_name = "N")]
    suit: usize,
    /// A symmetric layout HAND1/HAND2 instead of a random one.
    #[arg(long, value_name = "LAYOUT")]
    layout: Option<String>,
    /// Seed of the random layout.
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// The player you are (1 or 2).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    human: u8,
    /// The player who leads first (1 or 2).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    lead: u8,
    /// Give up past this many reachable positions.
    #[arg(long, default_value_t = 20_000_000, value_name = "N")]
    node_limit: u64,
}

pub fn run(args: Args) -> Result<ExitCode> {
    match args.command {
        Sub::Solve(a) => solve(a),
        Sub::Census(a) => run_census(a),
        Sub::Play(a) => play(a),
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

fn census_json(c: &Census) -> Json {
    let results: Vec<Json> = c
        .games
        .iter()
        .map(|g| json!({"position": g.position, "winner": g.winner, "plies": g.plies}))
        .collect();
    json!({
        "suit": c.suit, "layouts": c.layouts, "games": c.games.len(),
        "leader_wins": c.leader_wins, "follower_wins": c.follower_wins, "draws": c.draws,
        "positions": {
            "slots": c.table.slots, "valid": c.table.positions, "wins": c.table.wins,
            "losses": c.table.losses, "draws": c.table.draws, "max_plies": c.table.max_plies,
        },
        "results": results,
    })
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
        let path = dir.join(format!("beat-it-{}.json", a.suit));
        // The file carries its provenance (`ansatz reproduce` reruns the command and compares
        // everything else).
        let command = format!(
            "ansatz beat-it census --suit {} --out {}",
            a.suit,
            dir.display()
        );
        let run = Run::here(command, 1, started.elapsed().as_secs_f64());
        let mut file = v.clone();
        file["run"] = run.to_json();
        let mut text = serde_json::to_string_pretty(&file)?;
        text.push('\n');
        write_atomic(&path, text.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
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

fn play(a: PlayArgs) -> Result<ExitCode> {
    let mut g = match &a.layout {
        Some(l) => {
            let mut g = GameSetup::parse_layout(l).map_err(|e| BadInput(e.to_string()))?;
            g.to_move = a.lead;
            g
        }
        None => {
            if a.suit == 0 || a.suit > MAX_SUIT {
                return Err(BadInput(format!("--suit {}: outside 1..={MAX_SUIT}", a.suit)).into());
            }
            let set = SplitMix64::new(a.seed).below(1 << a.suit) as u32;
            GameSetup::layout(a.suit, set, a.lead)
        }
    };
    let graph = Graph::solve(State::from_setup(&g), a.node_limit)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = Out::new();
    play_loop(&mut g, &graph, a.human, &mut input, &mut out)?;
    Ok(ExitCode::SUCCESS)
}

/// The game loop: show, ask the human or play the solver's best move, repeat until a win.
fn play_loop(
    g: &mut GameSetup,
    graph: &Graph,
    human: u8,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<()> {
    writeln!(
        out,
        "Beat It or Eat It, suits of {}: you are player {human}, perfect play is player {}.",
        g.n,
        3 - human
    )?;
    loop {
        let s = State::from_setup(g);
        let table = if g.table.is_empty() {
            "(empty)".to_string()
        } else {
            g.table_string()
        };
        writeln!(out)?;
        writeln!(out, "  player 1: {}", show_hand(g.hands[0], g.n))?;
        writeln!(out, "  player 2: {}", show_hand(g.hands[1], g.n))?;
        writeln!(out, "  table:    {table}")?;
        let to_do = match g.card_to_beat() {
            Some(c) => format!("to beat {c} or eat"),
            None => "to lead".to_string(),
        };
        let solved = graph
            .solved(&s)
            .expect("every reachable position is solved");
        let verdict = match solved.value {
            Value::Draw => "a draw with perfect play".to_string(),
            v => {
                let w = if v == Value::Win {
                    g.to_move
                } else {
                    3 - g.to_move
                };
                format!(
                    "player {w} wins with perfect play in {} plies",
                    solved.plies.expect("decided")
                )
            }
        };
        writeln!(out, "  player {} {to_do}; solver: {verdict}", g.to_move)?;
        let mv = if g.to_move == human {
            let moves: Vec<_> = s.moves().collect();
            let listed: Vec<String> = moves
                .iter()
                .enumerate()
                .map(|(i, &m)| format!("{}) {}", i + 1, s.move_name(m)))
                .collect();
            writeln!(out, "  your moves: {}", listed.join("  "))?;
            loop {
                write!(out, "> ")?;
                out.flush()?;
                let mut line = String::new();
                if input.read_line(&mut line)? == 0 {
                    writeln!(out, "\ninput ended; game abandoned.")?;
                    out.flush()?;
                    return Ok(());
                }
                let t = line.trim();
                if t == "quit" || t == "q" {
                    writeln!(out, "game abandoned.")?;
                    out.flush()?;
                    return Ok(());
                }
                let chosen = match t.parse::<usize>() {
                    Ok(k) if (1..=moves.len()).contains(&k) => Some(moves[k - 1]),
                    _ => s.parse_move(t),
                };
                match chosen {
                    Some(m) => break m,
                    None => writeln!(out, "  not a legal move: {t:?}")?,
                }
            }
        } else {
            let (m, _) = best_move(graph, s).expect("every reachable position is solved");
            m
        };
        let who = g.to_move;
        let name = s.move_name(mv);
        let ended = g.play(mv).expect("the move is legal");
        if name == "eat" {
            writeln!(out, "player {who} eats.")?;
        } else {
            writeln!(out, "player {who} plays {name}.")?;
        }
        if let Some(w) = ended {
            writeln!(out, "player {w} played their last card and wins.")?;
            out.flush()?;
            return Ok(());
        }
    }
}

fn show_hand(mask: u32, n: usize) -> String {
    let h = format_hand(mask, n);
    let (hearts, spades) = h.split_once('.').unwrap_or((&h, ""));
    format!("{h:<12} (hearts {hearts:<13} spades {spades})")
}
