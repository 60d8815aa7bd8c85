//! Command-line face: clap structs, one file per subcommand, progress bars in `progress.rs`.
//! Each subcommand turns its arguments into validated library values and calls the library.

mod assemble;
mod beat_it;
mod beat_it_play;
mod bench;
mod catalogue;
mod cluster;
mod discover;
mod extend;
mod family;
mod find_pieces;
mod inspect;
mod merge;
mod mutate;
mod output;
mod play;
mod predecessors;
mod progress;
mod recall;
mod reproduce;
mod run_flags;
mod search;
mod search_exhaustive;
mod search_table;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use output::{BadInput, Out};

/// Constructive search of Beggar-My-Neighbour games: play, play backwards, build non-terminating
/// deals from pieces (Casella's Ansatz), and search.
#[derive(Parser, Debug)]
#[command(name = "ansatz", version, about, long_about = None, after_help = EXAMPLES)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

const EXAMPLES: &str = "\
Examples:
  ansatz play '---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)'
  ansatz play --trace 'J--/-J-'
  ansatz bench --games 1000000 --threads 2 --json
  ansatz predecessors 'J--/-J- (2)'
  ansatz family --json
  ansatz assemble --balance
  ansatz assemble --require=--------X---------X-XX---XXXX --rest all --balance
  ansatz catalogue
  ansatz reproduce results/assemble/paper-2024-k3.jsonl
  ansatz search random --games 1000000 --plot out/lengths.svg
  ansatz search exhaustive --deck 6-2J2Q2K2A
  ansatz beat-it solve 'AQT98.KJ/KJ.AQT98 (1)'

Positions are HAND1/HAND2 (n), top card first: dash notation (-JQKA), playing cards
(10S 9♣ KH ...) or Paulhus digits (--notation digits). Exit codes: 0 ok, 1 nothing found,
2 bad input.";

#[derive(Subcommand, Debug)]
enum Command {
    Play(play::Args),
    Assemble(assemble::Args),
    Bench(bench::Args),
    Predecessors(predecessors::Args),
    Family(family::Args),
    Extend(extend::Args),
    FindPieces(find_pieces::Args),
    Inspect(inspect::Args),
    Mutate(mutate::Args),
    /// Search many deals: random deals with statistics, or every deal of a small deck.
    Search(search::Args),
    Merge(merge::Args),
    /// Gather the balanced cycles of assemble result files into one verified catalogue.
    Catalogue(catalogue::Args),
    /// Rerun the command recorded in result files and check that their facts come out the same.
    Reproduce(reproduce::Args),
    /// Beat It or Eat It (Taylor, 1993): solve positions, the census of layouts, play.
    BeatIt(beat_it::Args),
    /// Find balanced non-terminating cycles of a deck automatically (the ansatz route in stages).
    Discover(discover::Args),
    /// Judge `discover` on every deck whose every deal has been played: the recall table.
    Recall(recall::Args),
}

/// Runs the command line and maps errors to exit codes. A broken pipe is not an error.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    // The docs test parses every command the manual shows without running it.
    if std::env::var_os("ANSATZ_PARSE_ONLY").is_some() {
        return ExitCode::SUCCESS;
    }
    let result = match cli.command {
        Command::Play(a) => play::run(a),
        Command::Assemble(a) => assemble::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Predecessors(a) => predecessors::run(a),
        Command::Family(a) => family::run(a),
        Command::Extend(a) => extend::run(a),
        Command::FindPieces(a) => find_pieces::run(a),
        Command::Inspect(a) => inspect::run(a),
        Command::Mutate(a) => mutate::run(a),
        Command::Search(a) => search::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Catalogue(a) => catalogue::run(a),
        Command::Reproduce(a) => reproduce::run(a),
        Command::BeatIt(a) => beat_it::run(a),
        Command::Discover(a) => discover::run(a),
        Command::Recall(a) => recall::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            if output::is_broken_pipe(&e) {
                return ExitCode::SUCCESS;
            }
            eprintln!("ansatz: {e:#}");
            ExitCode::from(2)
        }
    }
}
