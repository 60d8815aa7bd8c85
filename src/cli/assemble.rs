//! `ansatz assemble`: arguments → an [`AssembleJob`] run by the run layer → the summary printed.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Result;

use super::cluster::DistArgs;
use super::output::{Out, run_job};
use super::progress;
use crate::assemble::Faces;
use crate::run::assemble::{AssembleAnswer, AssembleJob, Phase};
use crate::run::assemble_report::print_text;
use crate::run::assemble_setup::AssembleOptions;

/// Build decks from pieces (Δ1 J Δ2 J Δ3 J- / J-), find the cycles they reach, and the balanced
/// 26/26 deals of each cycle's family (backward play).
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz assemble --balance                         # the published pieces (built in)
  ansatz assemble --library pieces/found.bin --balance --json
  ansatz assemble --library a.bin --library b.bin --out out/run1 --resume
  ansatz assemble --limit 100000                    # the first 100000 decks only
  ansatz assemble --library pieces/len24-faces6.bin --faces members --balance   # pieces as they are
  ansatz assemble --library pieces/len24-faces7.bin --require=--K---A----AA --balance
  ansatz assemble --require=--------X---------X-X-X---X-XXX --rest all --balance   # every deck
  ansatz assemble --balance --shard 2/8 --out out/shards   # slice 2 of a job array; then ansatz merge
  ansatz assemble --balance --hosts hosts.txt --process 0 --workers 16   # cluster (see README)

Every ordered choice of K piece shapes whose cards fill the deck is tried with every assignment
of face kinds to its face slots (--faces assign), or every ordered choice of K pieces as they are
(--faces members), so each deck is tested once. With --rest all no library is used: every deck
that holds the --require piece (last, X marking a face slot of any kind) is tested, with the rest
of the deck (the other pieces and separators) in every arrangement. Results go to DIR (default out/)
as JSON lines and a readable summary; a checkpoint there lets --resume finish an interrupted run.
Every cycle's family has a reach, the most cards the smaller hand holds in any of its positions
(26: it has balanced deals); the summary counts the cycles by reach (reach_histogram) and lists the
unbalanced cycles that come closest to balance (nearest_unbalanced), even with --balance.")]
pub struct Args {
    /// Piece library (repeatable). Default: the published 2024 pieces, built in.
    #[arg(long = "library", value_name = "LIB")]
    libraries: Vec<PathBuf>,
    /// Template the pieces were found in (default: the built-in jack template).
    #[arg(long, value_name = "FILE")]
    template: Option<PathBuf>,
    /// Pieces per deck.
    #[arg(long = "pieces", default_value_t = 3, value_name = "K")]
    pieces: usize,
    /// Face cards: `assign` tries every assignment of face kinds to the face slots of each tuple of
    /// piece shapes (all face swaps); `members` uses the library's pieces as they are.
    #[arg(long, default_value = "assign", value_parser = parse_faces)]
    faces: Faces,
    /// A piece every deck must hold, face cards as written (dash notation), e.g. --require
    /// --K---A----AA: the other pieces' face slots share the rest of the deck's face cards.
    #[arg(long, value_name = "PIECE", allow_hyphen_values = true)]
    require: Option<String>,
    /// What the rest of each deck is made of: `library` pieces, or `all`, every arrangement of
    /// the rest of the deck around the --require piece, whose `X`s then stand for any face kind.
    #[arg(long, default_value = "library", value_parser = ["library", "all"], requires = "require")]
    rest: String,
    /// Keep only cycles whose family holds balanced deals, and list those deals.
    #[arg(long)]
    balance: bool,
    /// Test at most N decks (the first N in enumeration order).
    #[arg(long, value_name = "N")]
    limit: Option<u64>,
    /// Deck the assembled decks must make.
    #[arg(long, default_value = "standard", value_name = "SPEC")]
    deck: String,
    /// Most positions of one family's backward closure; larger families are reported as partial.
    #[arg(long, default_value_t = 20_000_000, value_name = "N")]
    max_positions: u64,
    /// Directory for the result files (and the checkpoint, except under results/, whose
    /// checkpoints go to out/work/).
    #[arg(long, default_value = crate::provenance::DEFAULT_OUT, value_name = "DIR")]
    out: PathBuf,
    /// Name of the result files (DIR/NAME.jsonl, DIR/NAME.txt) instead of one made from the
    /// options.
    #[arg(long, value_name = "NAME", value_parser = parse_name)]
    name: Option<String>,
    /// Finish an interrupted run from its checkpoint.
    #[arg(long)]
    resume: bool,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// No progress bars.
    #[arg(long, short)]
    quiet: bool,
    /// Stop after N units of decks, as an interruption would (for testing resume); exit 1.
    #[arg(long, hide = true, value_name = "N")]
    stop_after_units: Option<usize>,
    #[command(flatten)]
    dist: DistArgs,
}

/// A result-file name ([`crate::run::check_name`]).
pub(super) fn parse_name(s: &str) -> Result<String, String> {
    crate::run::check_name(s).map(|()| s.to_string())
}

fn parse_faces(s: &str) -> Result<Faces, String> {
    match s {
        "assign" => Ok(Faces::Assign),
        "members" => Ok(Faces::Members),
        _ => Err(format!("unknown --faces {s:?} (assign or members)")),
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    let opts = AssembleOptions {
        libraries: args.libraries.clone(),
        template: args.template.clone(),
        pieces: args.pieces,
        faces: args.faces,
        require: args.require.clone(),
        rest_all: args.rest == "all",
        balance: args.balance,
        limit: args.limit,
        deck: args.deck.clone(),
        max_positions: args.max_positions,
        name: args.name.clone(),
    };
    // Distribution (`--shard`, `--hosts`): without those flags this is the single-process run.
    let mode = args.dist.mode()?;
    let quiet = args.quiet || args.json || !mode.lead();
    let decks = progress::bar(0, "decks", quiet);
    let families = progress::bar(0, "families", true);
    let (d, f) = (decks.clone(), families.clone());
    let job = AssembleJob::new(
        opts,
        args.out.clone(),
        args.resume,
        args.threads,
        args.stop_after_units,
        Arc::new(move |phase| match phase {
            Phase::Decks(n) => d.inc(n),
            Phase::Families(n) => {
                d.finish_and_clear();
                if !quiet {
                    f.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                }
                f.set_length(n);
            }
            Phase::Family => f.inc(1),
        }),
    )?;
    decks.set_length(job.decks());
    match run_job(&job, &mode, &[&decks, &families], args.json)? {
        Ok(answer) => print(&answer, args.json)?,
        Err(code) => return Ok(code),
    }
    Ok(ExitCode::SUCCESS)
}

/// The answer of an assembly (single run, cluster or merged shards) on stdout.
pub(super) fn print(a: &AssembleAnswer, as_json: bool) -> Result<()> {
    let mut out = Out::new();
    if as_json {
        out.json(&a.summary)?;
    } else {
        print_text(&mut out, &a.summary, &a.meta)?;
        out.flush()?;
    }
    Ok(())
}
