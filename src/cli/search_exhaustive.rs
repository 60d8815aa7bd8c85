//! `ansatz search exhaustive`: arguments → an [`ExhaustiveJob`] run by the run layer → the census
//! printed.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

use super::output::{BadInput, Out, run_job};
use super::play::parse_deck;
use super::progress;
use super::run_flags::RunFlags;
use crate::run::exhaustive::{ExhaustiveAnswer, ExhaustiveJob};
use crate::run::ran_in;
use crate::search::exhaustive::Extra;
use crate::search::exhaustive::run::ExhaustiveConfig;

/// Play every distinct deal of a small deck (hands split as equally as possible, player 1 first).
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz search exhaustive --deck 6-2J2Q2K2A          # Paulhus 1999: 7567560 deals, 1260 cycles
  ansatz search exhaustive --deck 16-2J2Q2K2A --threads 2 --json
  ansatz search exhaustive --deck 3-1J1Q1K1A --players 3
  ansatz search exhaustive --deck 16-2J2Q2K2A --resume
  ansatz search exhaustive --deck 16-2J2Q2K2A --shard 1/8   # then: ansatz merge out/*.shard-*-of-8.bin
  ansatz search exhaustive --deck 16-2J2Q2K2A --hosts hosts.txt --process 0 --workers 2

Two-player decks of up to 52 cards share the play of deals that agree on every card read so far
(one game per subtree, weighted by the arrangements of the unread cards); --naive plays every
deal separately (the checker). The result (with the command and version) and a checkpoint go to
--out (default out/); --resume finishes an interrupted run. --shard I/N runs the units u (tasks
or rank ranges) with u % N == I and writes a shard file for `ansatz merge`; --hosts runs on a
cluster (unit u on worker u % workers; process 0 prints and keeps the checkpoint for --resume).")]
pub(super) struct ExhaustiveArgs {
    /// Deck: counts like 6-2J2Q2K2A (standard and camicia are far too large to exhaust).
    #[arg(long, value_name = "SPEC")]
    deck: String,
    /// Number of players.
    #[arg(long, default_value_t = 2)]
    players: usize,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Play every deal separately (rank/unrank + engine) instead of sharing prefixes.
    #[arg(long)]
    naive: bool,
    /// Which player holds the extra card of an odd two-player deck: 1 (the leader) or 2.
    #[arg(long, value_name = "1|2", default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    extra_card: u8,
    #[command(flatten)]
    run: RunFlags,
}

pub(super) fn run(a: ExhaustiveArgs) -> Result<ExitCode> {
    let deck = parse_deck(&a.deck)?;
    let extra = if a.extra_card == 2 {
        Extra::Second
    } else {
        Extra::First
    };
    let cfg = ExhaustiveConfig {
        deck,
        players: a.players,
        naive: a.naive,
        extra,
    };
    let (deals, work) = cfg.plan().map_err(|e| BadInput(e.to_string()))?;
    // Distribution (`--shard`, `--hosts`): without those flags this is the single-process run.
    let mode = a.run.dist.mode()?;
    let pb = progress::bar(0, "deals", a.run.quiet || a.run.json);
    let progress = |n| pb.inc(n);
    let job = ExhaustiveJob {
        cfg,
        deals,
        work: work.into(),
        out: a.run.out.clone(),
        resume: a.run.resume,
        threads: a.threads,
        progress: &progress,
    };
    pb.set_length(job.deals_here(&mode));
    match run_job(&job, &mode, &[&pb], a.run.json)? {
        Ok(mut answer) => {
            ran_in(&mut answer.json, job.lanes());
            print_exhaustive(&answer, a.run.json)?
        }
        Err(code) => return Ok(code),
    }
    Ok(ExitCode::SUCCESS)
}

/// The answer of an exhaustive search (single run, cluster or merged shards) on stdout.
pub(super) fn print_exhaustive(r: &ExhaustiveAnswer, as_json: bool) -> Result<()> {
    let mut out = Out::new();
    if as_json {
        out.json(&r.json)?;
        return Ok(());
    }
    let (v, stats) = (&r.json, &r.stats);
    writeln!(
        out,
        "deck              {}, {} players ({})",
        v["deck"].as_str().unwrap_or(""),
        v["players"],
        v["method"].as_str().unwrap_or("")
    )?;
    if let Some(p) = v.get("partial") {
        writeln!(
            out,
            "partial           shards {} of {} only: {} of the deck's {} deals",
            p["shards"].as_array().map_or(0, Vec::len),
            p["of"],
            stats.deals,
            v["deals_of_deck"]
        )?;
    }
    writeln!(out, "deals             {}", stats.deals)?;
    writeln!(
        out,
        "cycles            {} deals never end, {} distinct cycles",
        stats.cycles,
        stats.distinct_cycles.len()
    )?;
    for (p, w) in stats.wins.iter().enumerate() {
        writeln!(out, "player {} wins    {w}", p + 1)?;
    }
    if let Some(l) = &v["longest"].as_object() {
        writeln!(
            out,
            "longest           {} cards, {} tricks: {}",
            l["cards"],
            l["tricks"],
            l["position"].as_str().unwrap_or("")
        )?;
    }
    for (id, c) in &stats.distinct_cycles {
        writeln!(out, "  cycle {id}  period {}  deals {}", c.period, c.deals)?;
    }
    writeln!(
        out,
        "seconds           {:.2} ({} threads)",
        v["seconds"].as_f64().unwrap_or(0.0),
        v["threads"]
    )?;
    if let Some(result) = &r.result {
        writeln!(out, "results           {}", result.display())?;
    }
    out.flush()?;
    Ok(())
}
