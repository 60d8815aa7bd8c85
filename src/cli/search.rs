//! `ansatz search random|exhaustive`: arguments → validated configurations → `search::*`, with a
//! progress bar, checkpoints under `--out`, results files and text or JSON output.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use super::output::{BadInput, Out, run_job};
use super::play::parse_deck;
use super::progress;
use super::run_flags::RunFlags;
use crate::run::ran_in;
use crate::run::random::{RandomAnswer, RandomJob};
use crate::search::plot::{Series, histogram};
use crate::search::random::{self, RandomConfig};
use crate::search::stats::GameStats;

/// Search many deals: random deals with statistics, or every deal of a small deck.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: SearchCommand,
}

#[derive(clap::Subcommand, Debug)]
enum SearchCommand {
    Random(RandomArgs),
    Exhaustive(super::search_exhaustive::ExhaustiveArgs),
    /// Gather exhaustive-search result files into one census table (JSON lines and markdown).
    Table(super::search_table::TableArgs),
}

/// Play seeded random deals: cycles found (verified), the longest games, means, medians, wins per
/// seat, length histograms and the half-life of the tail.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz search random --games 10000000 --threads 2
  ansatz search random --games 1000000 --plot out/lengths.svg --overlay-balanced
  ansatz search random --games 1000000 --plot out/lengths.png   # the same chart as a PNG
  ansatz search random --players 4 --games 100000 --json
  ansatz search random --deck camicia --balanced-faces --top 5
  ansatz search random --games 100000000 --resume      # after Ctrl-C or kill -9
  ansatz search random --games 100000000 --shard 0/4   # one task of a job array (0/4 .. 3/4)
  ansatz merge out/random-36-4J4Q4K4A-2p-seed1.shard-*-of-4.bin
  ansatz search random --games 100000000 --hosts hosts.txt --process 0 --workers 2

Deal i under seed s is a pure function of (s, i); deals are played in fixed chunks of 4096, so
the results are the same for any thread count. Found cycles, the longest games and a summary go
to --out (default out/); a checkpoint there lets --resume finish an interrupted run with the
same result. Means, medians and histograms count terminating games. --shard I/N plays the chunks c
with c % N == I and writes a shard file for `ansatz merge` (no --plot); --hosts runs on a cluster
(chunk c on worker c % workers; process 0 prints and keeps the checkpoint for --resume).")]
pub struct RandomArgs {
    /// Number of deals to play.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..), default_value_t = 1_000_000)]
    games: u64,
    /// Seed of the deals.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Deck: standard, camicia, or counts like 16-2J2Q2K2A.
    #[arg(long, default_value = "standard", value_name = "SPEC")]
    deck: String,
    /// Number of players (multi-player rules: docs/multiplayer-rules.md).
    #[arg(long, default_value_t = 2)]
    players: usize,
    /// Deal each player the same number of each face card.
    #[arg(long)]
    balanced_faces: bool,
    /// How many longest games to list (by cards and by tricks).
    #[arg(long, default_value_t = 10)]
    top: usize,
    /// Draw the histogram of game lengths (cards, log scale) into this file: a PNG when its name
    /// ends in .png, an SVG otherwise.
    #[arg(long, value_name = "FILE.svg|FILE.png")]
    plot: Option<PathBuf>,
    /// With --plot: also play as many balanced-face deals and overlay their histogram.
    #[arg(long, requires = "plot")]
    overlay_balanced: bool,
    #[command(flatten)]
    run: RunFlags,
}

pub fn run(args: Args) -> Result<ExitCode> {
    match args.command {
        SearchCommand::Random(a) => run_random(a),
        SearchCommand::Exhaustive(a) => super::search_exhaustive::run(a),
        SearchCommand::Table(a) => super::search_table::run(a),
    }
}

fn run_random(a: RandomArgs) -> Result<ExitCode> {
    let deck = parse_deck(&a.deck)?;
    let cfg = RandomConfig {
        deck,
        players: a.players,
        balanced_faces: a.balanced_faces,
        seed: a.seed,
        games: a.games,
        top: a.top,
    };
    cfg.validate().map_err(|e| BadInput(e.to_string()))?;
    let balanced = RandomConfig {
        balanced_faces: true,
        ..cfg.clone()
    };
    if a.overlay_balanced {
        balanced.validate().map_err(|e| BadInput(e.to_string()))?;
    }
    // Distribution (`--shard`, `--hosts`): without those flags this is the single-process run.
    let mode = a.run.dist.mode()?;
    if mode.shard().is_some() && a.plot.is_some() {
        return Err(BadInput(
            "--plot needs every deal: it cannot be drawn from one --shard (use a cluster run, or a single run)".into(),
        )
        .into());
    }
    let quiet = a.run.quiet || a.run.json;
    let pb = progress::bar(0, "games", quiet);
    let progress = |n| pb.inc(n);
    let job = RandomJob {
        cfg,
        out: a.run.out.clone(),
        resume: a.run.resume,
        threads: a.threads,
        progress: &progress,
    };
    pb.set_length(job.games(&mode));
    let mut answer = match run_job(&job, &mode, &[&pb], a.run.json)? {
        Ok(answer) => answer,
        Err(code) => return Ok(code),
    };
    if let Some(path) = &a.plot {
        let mut overlay = None;
        if a.overlay_balanced && !a.balanced_faces {
            let pool = crate::run::pool(a.threads)?;
            let pb = progress::bar(a.games, "balanced games", quiet);
            let chunks = random::chunks(a.games);
            overlay =
                Some(pool.install(|| random::play_chunks(&balanced, 0, chunks, &|n| pb.inc(n))));
            pb.finish_and_clear();
        }
        let label = |balanced: bool, s: &GameStats| {
            format!(
                "{} deals ({}, mean {:.0} cards)",
                if balanced { "balanced-face" } else { "uniform" },
                s.terminating,
                s.mean_cards()
            )
        };
        let mut series = vec![Series {
            label: label(a.balanced_faces, &answer.stats),
            hist: &answer.stats.hist_cards,
        }];
        if let Some(o) = &overlay {
            series.push(Series {
                label: label(true, o),
                hist: &o.hist_cards,
            });
        }
        let title = format!("Game lengths, deck {deck}, {} players", a.players);
        histogram(path, &title, "cards played", &series)?;
    }
    ran_in(&mut answer.json, random::lanes_shape(&answer.cfg));
    print_random(&answer, a.run.json)?;
    Ok(ExitCode::SUCCESS)
}

/// The answer of a random search (single run, cluster or merged shards) on stdout.
pub(super) fn print_random(r: &RandomAnswer, as_json: bool) -> Result<()> {
    let mut out = Out::new();
    if as_json {
        out.json(&r.json)?;
        return Ok(());
    }
    let (cfg, stats, rate, threads) = (&r.cfg, &r.stats, r.rate, r.threads);
    writeln!(
        out,
        "deck              {}, {} players{}",
        cfg.deck,
        cfg.players,
        if cfg.balanced_faces {
            ", balanced faces"
        } else {
            ""
        }
    )?;
    writeln!(out, "games             {}", stats.games)?;
    writeln!(out, "cycles            {}", stats.cycles.len())?;
    for c in &stats.cycles {
        writeln!(
            out,
            "  deal {:>12}  {}  preperiod {} period {}  cycle_id {}",
            c.index,
            cfg.position(c.index),
            c.preperiod,
            c.period,
            c.cycle_id
        )?;
    }
    writeln!(
        out,
        "mean cards        {:.2}   median {}",
        stats.mean_cards(),
        stats.median_cards().unwrap_or(0)
    )?;
    writeln!(
        out,
        "mean tricks       {:.2}   median {}",
        stats.mean_tricks(),
        stats.median_tricks().unwrap_or(0)
    )?;
    let shares: Vec<String> = stats
        .wins
        .iter()
        .enumerate()
        .map(|(p, &w)| {
            format!(
                "player {} {:.2}%",
                p + 1,
                100.0 * w as f64 / stats.terminating.max(1) as f64
            )
        })
        .collect();
    writeln!(out, "wins              {}", shares.join(", "))?;
    match stats.half_life_tricks() {
        Some(h) => writeln!(out, "tail half-life    {h:.2} tricks")?,
        None => writeln!(out, "tail half-life    (too few games)")?,
    }
    writeln!(
        out,
        "games/s           {rate:.0} ({:.0} per thread, {threads} threads, {:.2} s)",
        rate / threads as f64,
        r.seconds
    )?;
    for (title, list) in [
        ("longest by cards", &stats.longest_by_cards),
        ("longest by tricks", &stats.longest_by_tricks),
    ] {
        writeln!(out, "{title}:")?;
        for g in list.iter() {
            writeln!(
                out,
                "  {:>5} cards {:>4} tricks  deal {:>12}  {}",
                g.cards,
                g.tricks,
                g.index,
                cfg.position(g.index)
            )?;
        }
    }
    writeln!(out, "histogram (cards, games per 50-card bin):")?;
    for (i, bin) in stats.hist_cards.chunks(50).enumerate() {
        let n: u64 = bin.iter().sum();
        if n > 0 {
            writeln!(out, "  {:>5}-{:<5} {n}", i * 50, i * 50 + 49)?;
        }
    }
    writeln!(out, "results           {}", r.results.display())?;
    out.flush()?;
    Ok(())
}
