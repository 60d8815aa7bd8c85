//! `ansatz beat-it play`: a game of Beat It or Eat It against the solver, at the terminal.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::Result;

use super::output::{BadInput, Out};
use crate::beatit::cards::{GameSetup, MAX_SUIT, format_hand};
use crate::beatit::graph::Graph;
use crate::beatit::line::best_move;
use crate::beatit::{State, Value, Values};
use crate::rng::SplitMix64;

#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz beat-it play --suit 4 --seed 7
  ansatz beat-it play --layout 'AQT98.KJ/KJ.AQT98' --human 2
  printf '1\\n1\\n1\\n' | ansatz beat-it play --suit 3 --seed 1

Type a card (Ks), eat, or the number of a listed move; quit ends the game. After every move the
solver's verdict for the position is shown.")]
pub(super) struct PlayArgs {
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

pub(super) fn play(a: PlayArgs) -> Result<ExitCode> {
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
