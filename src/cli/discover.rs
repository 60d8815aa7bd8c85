//! `ansatz discover`: balanced cycles found automatically on any deck (the ansatz route in
//! stages), with progress bars, checkpoint and resume, and result files.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;

use anyhow::Result;
use indicatif::ProgressBar;
use serde_json::json;

use super::cluster::DistArgs;
use super::output::{BadInput, Out, run_job};
use super::progress;
use crate::card::DeckSpec;
use crate::discover::options::Options;
use crate::discover::{Observer, Route, StageReport};
use crate::run::discover::{DiscoverAnswer, DiscoverJob, text};

/// Find balanced non-terminating cycles of a deck automatically: frame, filter, head sweep,
/// censuses around the accumulators, balance by backward play.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz discover --quick                       # the standard deck, the smaller scope
  ansatz discover --deck 16-2J2Q2K2A --json     # a small deck: every deal played
  ansatz discover --deck 23-2J2Q2K2A --quick    # an odd deck: the extra card with either player
  ansatz discover --deck camicia --quick --out out/camicia
  ansatz discover --quick --resume              # finish an interrupted run
  ansatz discover --quick --shard 0/4 --out /shared/d   # task 0 of 4 (then: ansatz merge /shared/d/*.bin)
  ansatz discover --quick --hosts hosts.txt --process 0 --workers 2
  ansatz discover --route insertion --beam 128  # the second route alone, a wider beam
  ansatz discover --quick --route insertion --lateral 16  # past dead sizes by lateral moves
  ansatz discover --quick --separator Q --route ansatz   # the frame Δ1 Q Δ2 Q Δ3 Q--/Q--
  ansatz discover --quick --frame='--/J-' --route ansatz  # the frame Δ1 J Δ2 J Δ3 J--/J-
  ansatz discover --deck 30-2J2Q2K2A --separator K --frame='---/-J-' --route ansatz  # Δ1 K Δ2 K---/-J-
  ansatz discover --quick --route ansatz --filter=--------Q-AQ-Q-  # heads beside another piece
  ansatz discover --deck 24-2J2Q2K --whole-deck-limit 0  # the routes on a deck small enough to play whole
  ansatz discover --deck 27-2J2Q2K2A --quick --split-positions 1000000000  # the split route further
  ansatz discover --fill-limit 3000000000       # also the fills around the 2024 pieces (+20 min)
  ansatz discover --quick --route ansatz --filter=--Q-Q-Q-Q- --census-limit 10000000000  # skip censuses of more than 1e10 decks

Stages: deck (a deck of at most --whole-deck-limit deals is played whole, no route taken), frame
(the separator is the deck's lowest face kind, as the Jack of the 2024 frame Δ1 J Δ2 J Δ3 J-/J-, or
--separator's; the pieces hold the other face kinds; --frame gives other ends, a piece more when
player 2 holds no separator), filter (the piece of the bare frame with the most faces, or --filter), heads (every head template PREFIX FILTER J HEAD {TEST} J-/J- with HEAD = a
number cards, one face, b number cards: its pieces, exactly, and their accumulation), census (every
deck holding each accumulator shape, and each shape of the bare frame's pieces whose census is
small, the rest of the deck in every arrangement; a deck whose frame has at most 2e8 arrangements
is searched whole instead), frames (other frames searched whole, smallest first: every separator
kind with a tail of the number cards it demands, player 2 holding one face card of any kind with
up to one number card before it and two after; 2e9 decks in all with --quick, else 1e10),
insertion (the second route: every cycle of small decks of the deck's kinds, grown card by card toward the deck by inserting one card anywhere
in either hand, the beam of cycles that pass closest to an even split kept at each size; two cards
at once where one card leaves no cycle; with --lateral, lateral moves where two cards fail too), balance
(each cycle's family by backward play; the balanced cycles up to exchanging the players, every deal
replayed with the reference engine), fill (for each balanced cycle a census reached, its deck with
the last piece's place, TEST, taking every arrangement of the cards left: P1 J P2 J {TEST} J-/J-;
the new cycles' families; fills larger than --fill-limit are skipped and listed). Writes DIR/NAME.jsonl and DIR/NAME.txt (NAME =
discover-DECK[-quick][-sepS][-frameENDS][-filterPIECE][-ansatz|-insertion][-beamN][-lateralN][-fillN][-censusN][-wholeN]); the checkpoint
goes to DIR/work (out/work/... under results/). The tasks of a job array (--shard I/N) share that
step folder (give them one --out on a shared file system): each does its own steps first, then any
left undone, so they split the work side by side and a task alone still finishes; every task
writes the whole answer to its shard file, and `ansatz merge` checks they agree. Exit code 1 when
no balanced cycle is found.")]
pub struct Args {
    /// Deck: standard, camicia, or counts such as 16-2J2Q2K2A.
    #[arg(long, default_value = "standard", value_name = "SPEC")]
    deck: String,
    /// The smaller documented scope (heads of at most 12 number cards either side, TEST of at
    /// most 12 cards); the default scope sweeps 16 and 14 (as scripts/head-sweep.sh).
    #[arg(long)]
    quick: bool,
    /// Directory for the result files.
    #[arg(long, default_value = crate::provenance::DEFAULT_OUT, value_name = "DIR")]
    out: PathBuf,
    /// Finish an interrupted run from its checkpoint.
    #[arg(long)]
    resume: bool,
    /// Which routes to take: both, ansatz (frame, heads, censuses) or insertion (cycles grown card
    /// by card from the cycles of small decks).
    #[arg(long, value_enum, default_value = "both", value_name = "ROUTE")]
    route: RouteArg,
    /// Cycles the insertion route keeps at each size (default: 64 with --quick, else 256).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    beam: Option<u64>,
    /// Where the insertion beam dies out by one card and by two, its best N cycles make lateral
    /// moves at their own size (two cards exchanged, or one card moved to the other hand) and
    /// the new cycles grow on by one card. 0: off.
    #[arg(long, default_value_t = 0, value_name = "N", value_parser = clap::value_parser!(u64).range(0..=100_000))]
    lateral: u64,
    /// The frame's separator kind (J, Q, K or A): the card closing each piece and in player 2's
    /// hand. Default: the deck's lowest face kind (the Jack of the 2024 frame).
    #[arg(long, value_name = "KIND")]
    separator: Option<char>,
    /// The frame's ends, TAIL/OTHER or TAIL/OTHER (P): player 1's cards after the last separator,
    /// player 2's hand, and who moves first (1 unless given), in dash notation: the tail of number
    /// cards and separators, player 2's hand of any kinds. Default: the 2024 frame's, -/J- for
    /// the Jack (the separator with as many number cards as it demands).
    #[arg(long, value_name = "ENDS", allow_hyphen_values = true)]
    frame: Option<String>,
    /// The head sweep's filter, the piece before each head (dash notation, number cards and the
    /// pieces' face kinds), instead of the one the filter stage picks from the bare frame's
    /// pieces: accumulators that never end beside another balance-making piece.
    #[arg(long, value_name = "PIECE", allow_hyphen_values = true)]
    filter: Option<String>,
    /// Fills (every deck around the balance-making pieces of a balanced cycle, the accumulator's
    /// place taking every arrangement of the cards left) of at most N arrangements run; larger
    /// ones are skipped and listed. 0: no fills. Default: 5e8 with --quick, else 2e9.
    #[arg(long, value_name = "N")]
    fill_limit: Option<u64>,
    /// Censuses around accumulator shapes of more than N decks are skipped and listed (default:
    /// none is; a short --filter or another frame can propose censuses of 10^12 decks).
    #[arg(long, value_name = "N")]
    census_limit: Option<u64>,
    /// A deck of at most N deals is played whole (every class it has), with both routes on its own
    /// frame, instead of taking them; 0: never. Default: 1e8 with --quick, else 2e9.
    #[arg(long, value_name = "N")]
    whole_deck_limit: Option<u64>,
    /// The split route plays compositions smallest first while their positions add up to at most
    /// N; 0: the route is not taken. Default: 2e8 with --quick, else 2e9 (both routes only).
    #[arg(long, value_name = "N")]
    split_positions: Option<u64>,
    /// Most positions of one family's backward closure.
    #[arg(long, default_value_t = crate::discover::DEFAULT_MAX_POSITIONS, value_name = "N")]
    max_positions: u64,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// No progress bars or stage lines.
    #[arg(long, short)]
    quiet: bool,
    /// Stop after N census parts (or parts of a deck played whole), as an interruption would (for testing resume); exit 1.
    #[arg(long, hide = true, value_name = "N")]
    stop_after_censuses: Option<usize>,
    #[command(flatten)]
    dist: DistArgs,
}

/// `--route`.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum RouteArg {
    Both,
    Ansatz,
    Insertion,
}

/// Progress bars and stage lines on stderr.
pub(super) struct Bars {
    quiet: bool,
    bar: Mutex<Option<ProgressBar>>,
}

impl Bars {
    pub(super) fn new(quiet: bool) -> Bars {
        Bars {
            quiet,
            bar: Mutex::new(None),
        }
    }

    /// Clears a bar left by a stage that did not finish (a stop, a shard's end).
    pub(super) fn clear(&self) {
        if let Some(pb) = self.bar.lock().unwrap().take() {
            pb.finish_and_clear();
        }
    }
}

impl Observer for Bars {
    fn start(&self, stage: &str, total: u64, unit: &str) {
        let pb = progress::bar(total, &format!("{unit} ({stage})"), self.quiet);
        *self.bar.lock().unwrap() = Some(pb);
    }
    fn advance(&self, n: u64) {
        if let Some(pb) = self.bar.lock().unwrap().as_ref() {
            pb.inc(n);
        }
    }
    fn finish(&self, r: &StageReport) {
        if let Some(pb) = self.bar.lock().unwrap().take() {
            pb.finish_and_clear();
        }
        if !self.quiet {
            eprintln!(
                "stage {:8} {:>16} {:12} {:8.1} s  {}",
                r.name, r.work, r.unit, r.seconds, r.summary
            );
        }
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    let deck: DeckSpec = args
        .deck
        .parse()
        .map_err(|e: crate::card::DeckError| BadInput(e.to_string()))?;
    let options = Options {
        quick: args.quick,
        route: match args.route {
            RouteArg::Both => Route::Both,
            RouteArg::Ansatz => Route::Ansatz,
            RouteArg::Insertion => Route::Insertion,
        },
        beam: args.beam,
        lateral: args.lateral,
        separator: args.separator,
        frame: args.frame.clone(),
        filter: args.filter.clone(),
        fill_limit: args.fill_limit,
        census_limit: args.census_limit,
        whole_deck_limit: args.whole_deck_limit,
        split_positions: args.split_positions,
        max_positions: args.max_positions,
        stop_after_censuses: args.stop_after_censuses,
        ..Options::new(deck)
    };
    // Checked before any work or checkpoint, so bad input exits 2 at once.
    let config = options.config().map_err(|e| BadInput(e.to_string()))?;
    let bars = Bars {
        quiet: args.quiet || args.json,
        bar: Mutex::new(None),
    };
    let mode = args.dist.mode()?;
    let job = DiscoverJob {
        config,
        out: args.out.clone(),
        quick: args.quick,
        resume: args.resume,
        threads: args.threads,
        observer: &bars,
    };
    let a = match run_job(&job, &mode, &[], args.json)? {
        Ok(a) => a,
        Err(code) => {
            bars.clear();
            return Ok(code);
        }
    };
    bars.clear();
    print(&a, args.json)
}

/// Prints a discovery's answer (also `ansatz merge`'s, for the shard files of a job array).
pub fn print(a: &DiscoverAnswer, json_out: bool) -> Result<ExitCode> {
    let mut out = Out::new();
    if json_out {
        let mut v = serde_json::to_value(&a.found)?;
        v["seconds"] = json!((a.seconds * 1000.0).round() / 1000.0);
        v["threads"] = json!(a.threads);
        v["files"] = json!(a.files);
        out.json(&v)?;
    } else {
        out.write_all(text(&a.found).as_bytes())?;
        writeln!(out, "files     {}", a.files.join(", "))?;
        writeln!(out, "seconds   {:.1}", a.seconds)?;
    }
    Ok(if a.found.balanced_cycles.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
