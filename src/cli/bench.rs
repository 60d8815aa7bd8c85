//! `ansatz bench`: the fast engine's rate on seeded random standard deals.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use serde_json::json;

use super::output::{BadInput, Out};
use super::progress;
use crate::bench;

/// Play N seeded, uniformly shuffled standard 26/26 deals and report the rate.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz bench
  ansatz bench --games 10000000 --threads 1 --json
  ansatz bench --games 10000000 --threads 2 --json
  ansatz bench --engine bits --threads 1      # the scalar engine, one game at a time, for the ratio

The same seed gives the same deals (and totals) for any thread count and any engine; the JSON
names the engine that ran (auto picks the lanes where the processor has AVX-512 or AVX2;
ANSATZ_ISA=avx2 or portable forces a smaller instruction set, for comparisons).")]
pub struct Args {
    /// Number of deals to play.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..), default_value_t = 2_000_000)]
    games: u64,
    /// Seed of the deals.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Engine: auto (the fastest exact engine for this processor: the lanes with AVX-512 or
    /// AVX2, else the scalar engine), bits (the scalar engine: one game at a time in bit planes),
    /// reference (the oracle) or lanes (many games at a time in vector registers: sixteen
    /// standard deals with AVX-512, eight with AVX2). Compare rates for the ratios.
    #[arg(long, default_value = "auto", value_parser = parse_engine)]
    engine: bench::Engine,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

fn parse_engine(s: &str) -> Result<bench::Engine, String> {
    let lanes = crate::engine::lanes::available();
    match s {
        "auto" if lanes => Ok(bench::Engine::Lanes),
        "auto" => Ok(bench::Engine::Bits),
        "bits" => Ok(bench::Engine::Bits),
        "reference" => Ok(bench::Engine::Reference),
        "lanes" if lanes => Ok(bench::Engine::Lanes),
        "lanes" => Err("the lanes need a processor with AVX-512 or AVX2".into()),
        _ => Err(format!(
            "unknown engine {s:?} (auto, bits, reference or lanes)"
        )),
    }
}

/// A rayon pool of `threads` workers (every core when `None`).
pub fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    crate::run::pool(threads).map_err(|e| match e {
        crate::run::RunError::Input(m) => BadInput(m).into(),
        e => anyhow::anyhow!(e),
    })
}

pub fn run(args: Args) -> Result<ExitCode> {
    let pool = pool(args.threads)?;
    let pb = progress::bar(args.games, "games", args.quiet || args.json);
    let report = pool.install(|| bench::run(args.games, args.seed, args.engine, &|n| pb.inc(n)));
    pb.finish_and_clear();
    let t = &report.totals;
    let secs = report.seconds.max(1e-9);
    let games = t.games.max(1) as f64;
    let v = json!({
        "games": t.games,
        "cycles": t.cycles,
        "seconds": report.seconds,
        "games_per_second": t.games as f64 / secs,
        "games_per_second_per_thread": t.games as f64 / secs / report.threads as f64,
        "cards_per_second": t.cards as f64 / secs,
        "mean_cards": t.cards as f64 / games,
        "mean_tricks": t.tricks as f64 / games,
        "threads": report.threads,
        "seed": args.seed,
        "engine": format!("{:?}", args.engine).to_lowercase(),
    });
    // What the lanes ran in, as the batches report it.
    let mut v = v;
    crate::run::ran_in(&mut v, report.lanes);
    let mut out = Out::new();
    if args.json {
        out.json(&v)?;
    } else {
        writeln!(
            out,
            "engine            {}",
            v["engine"].as_str().unwrap_or("")
        )?;
        if let Some(isa) = v["isa"].as_str() {
            writeln!(out, "isa               {isa}")?;
        }
        if let Some(lanes) = v["lanes"].as_str() {
            writeln!(out, "lanes             {lanes}")?;
        }
        writeln!(out, "games             {}", t.games)?;
        writeln!(out, "cycles            {}", t.cycles)?;
        writeln!(out, "threads           {}", report.threads)?;
        writeln!(out, "seconds           {:.3}", report.seconds)?;
        writeln!(
            out,
            "games/s           {:.0} ({:.0} per thread)",
            t.games as f64 / secs,
            t.games as f64 / secs / report.threads as f64
        )?;
        writeln!(out, "cards/s           {:.3e}", t.cards as f64 / secs)?;
        writeln!(out, "mean cards        {:.2}", t.cards as f64 / games)?;
        writeln!(out, "mean tricks       {:.2}", t.tricks as f64 / games)?;
    }
    Ok(ExitCode::SUCCESS)
}
