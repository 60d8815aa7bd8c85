//! `ansatz search random|exhaustive`: arguments → validated configurations → `search::*`, with a
//! progress bar, checkpoints under `--out`, results files and text or JSON output.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use serde_json::{Value, json};

use super::bench::pool;
use super::cluster::{DistArgs, Mode};
use super::merge::decode;
use super::output::{BadInput, Out};
use super::play::parse_deck;
use super::progress;
use crate::card::DeckSpec;
use crate::dist::shard::{Shard, ShardFile, encode_part};
use crate::engine::multi::{self, MultiOutcome};
use crate::engine::{self as engine, Outcome, reference};
use crate::library::fnv1a;
use crate::position::Position;
use crate::provenance::Run;
use crate::search::checkpoint::write_atomic;
use crate::search::exhaustive::{ExhaustiveStats, Extra};
use crate::search::exhaustive_run::{ExhaustiveConfig, Work};
use crate::search::plot::{Series, histogram};
use crate::search::random::{self, RandomConfig};
use crate::search::split::{self, SplitError};
use crate::search::stats::{GameStats, Ranked};

/// Search many deals: random deals with statistics, or every deal of a small deck.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: SearchCommand,
}

#[derive(clap::Subcommand, Debug)]
enum SearchCommand {
    Random(RandomArgs),
    Exhaustive(ExhaustiveArgs),
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
    #[arg(long, default_value_t = 1_000_000)]
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

Two-player decks of up to 32 cards share the play of deals that agree on every card read so far
(one game per subtree, weighted by the arrangements of the unread cards); --naive plays every
deal separately (the checker). The result (with the command and version) and a checkpoint go to
--out (default out/); --resume finishes an interrupted run. --shard I/N runs the units u (tasks
or rank ranges) with u % N == I and writes a shard file for `ansatz merge`; --hosts runs on a
cluster (unit u on worker u % workers; process 0 prints and keeps the checkpoint for --resume).")]
pub struct ExhaustiveArgs {
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

/// The flags both searches share: where results and checkpoints go, resuming, output, splitting.
#[derive(clap::Args, Debug)]
struct RunFlags {
    /// Directory of results and checkpoints (checkpoints of a run into results/ go to out/work/).
    #[arg(long, default_value = crate::provenance::DEFAULT_OUT, value_name = "DIR")]
    out: PathBuf,
    /// Continue the interrupted run with the same options from its checkpoint.
    #[arg(long)]
    resume: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    dist: DistArgs,
}

pub fn run(args: Args) -> Result<ExitCode> {
    match args.command {
        SearchCommand::Random(a) => run_random(a),
        SearchCommand::Exhaustive(a) => run_exhaustive(a),
        SearchCommand::Table(a) => super::search_table::run(a),
    }
}

/// The command line as a user types it, for results files.
fn command_line() -> String {
    crate::provenance::this_command()
}

/// Checkpoint errors come from what the user pointed at (missing, foreign, another search), so
/// they are bad input; so are clusters that do not form; a failed save is an error of its own.
fn split_error(e: SplitError) -> anyhow::Error {
    match e {
        SplitError::Save { .. } => anyhow::anyhow!(e),
        e => BadInput(e.to_string()).into(),
    }
}

/// `DIR/NAME.checkpoint.json`: a shard keeps its own checkpoint
/// (`NAME.shard-I-of-N.checkpoint.json`), so each array task resumes alone; a cluster shares the
/// single run's.
fn checkpoint_path(dir: &Path, name: &str, shard: Option<Shard>) -> PathBuf {
    crate::provenance::work_dir(dir).join(match shard {
        Some(s) => format!("{name}.{}.checkpoint.json", s.suffix()),
        None => format!("{name}.checkpoint.json"),
    })
}

fn deck_tag(deck: &DeckSpec) -> String {
    deck.to_string()
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
    if a.overlay_balanced {
        RandomConfig {
            balanced_faces: true,
            ..cfg.clone()
        }
        .validate()
        .map_err(|e| BadInput(e.to_string()))?;
    }
    // Distribution (`--shard`, `--hosts`): without those flags this is the single-process run.
    let mode = a.run.dist.mode()?;
    let shard = mode.shard();
    if shard.is_some() && a.plot.is_some() {
        return Err(BadInput(
            "--plot needs every deal: it cannot be drawn from one --shard (use a cluster run, or a single run)".into(),
        )
        .into());
    }
    let pool = pool(a.threads)?;
    let name = format!(
        "random-{}-{}p{}-seed{}",
        deck_tag(&deck),
        a.players,
        if a.balanced_faces { "-balanced" } else { "" },
        a.seed
    );
    let quiet = a.run.quiet || a.run.json;
    let total_chunks = random::chunks(a.games);
    let began = Instant::now();
    let ckpt = checkpoint_path(&a.run.out, &name, shard);
    let (stats, resumed_games, threads) = if let Mode::Cluster(cluster) = &mode {
        match split::random_cluster(cluster, &cfg, ckpt, a.run.resume).map_err(split_error)? {
            None => return Ok(ExitCode::SUCCESS),
            Some(s) => (s, 0, cluster.total_workers()),
        }
    } else {
        let pb = progress::bar(split::random_games(&cfg, shard), "games", quiet);
        let run = pool
            .install(|| split::random_local(&cfg, shard, ckpt, a.run.resume, &|n| pb.inc(n)))
            .map_err(split_error)?;
        pb.finish_and_clear();
        (run.stats, run.resumed, pool.current_num_threads())
    };
    let seconds = began.elapsed().as_secs_f64();

    // Every cycle is checked with the reference engine before it is reported.
    for c in &stats.cycles {
        verify_cycle(&cfg, c.index, &c.cycle_id)?;
    }

    if let Some(s) = shard {
        return write_shard(
            &a.run.out,
            &name,
            s,
            "search-random",
            &cfg,
            &RandomContext {
                cfg: cfg.clone(),
                name: name.clone(),
            },
            &(stats.clone(), seconds, threads),
            json!({"games": stats.games, "cycles": stats.cycles.len()}),
            a.run.json,
        );
    }

    let mut overlay = None;
    if a.overlay_balanced && !a.balanced_faces {
        let bcfg = RandomConfig {
            balanced_faces: true,
            ..cfg.clone()
        };
        let pb = progress::bar(a.games, "balanced games", quiet);
        let s = pool.install(|| random::play_chunks(&bcfg, 0, total_chunks, &|n| pb.inc(n)));
        pb.finish_and_clear();
        overlay = Some(s);
    }
    if let Some(path) = &a.plot {
        let label = |balanced: bool, s: &GameStats| {
            format!(
                "{} deals ({}, mean {:.0} cards)",
                if balanced { "balanced-face" } else { "uniform" },
                s.terminating,
                s.mean_cards()
            )
        };
        let mut series = vec![Series {
            label: label(a.balanced_faces, &stats),
            hist: &stats.hist_cards,
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
    let rate = (stats.games - resumed_games) as f64 / seconds.max(1e-9);
    report_random(
        &a.run.out, &name, &cfg, &stats, seconds, rate, threads, a.run.json,
    )?;
    Ok(ExitCode::SUCCESS)
}

/// What `ansatz merge` needs, besides the statistics, to write the single-run answer of a random
/// search.
#[derive(serde::Serialize, serde::Deserialize)]
struct RandomContext {
    cfg: RandomConfig,
    name: String,
}

/// Writes a shard's file `DIR/NAME.shard-I-of-N.bin` and reports it (`summary` names its totals).
#[allow(clippy::too_many_arguments)]
fn write_shard<C: serde::Serialize, X: serde::Serialize, R: serde::Serialize>(
    dir: &Path,
    name: &str,
    s: Shard,
    command: &str,
    cfg: &C,
    context: &X,
    records: &R,
    mut summary: Value,
    as_json: bool,
) -> Result<ExitCode> {
    let path = crate::provenance::work_dir(dir).join(format!("{name}.{}.bin", s.suffix()));
    let file = ShardFile {
        command: command.into(),
        fingerprint: format!(
            "{command} v1 {:016x}",
            fnv1a(serde_json::to_string(cfg)?.as_bytes())
        ),
        shard: s,
        context: encode_part(context),
        records: encode_part(records),
    };
    file.write(&path)
        .map_err(|e| anyhow::anyhow!(e.to_string()))?;
    summary["shard"] = json!(s.to_string());
    summary["file"] = json!(path.display().to_string());
    let mut out = Out::new();
    if as_json {
        out.json(&summary)?;
    } else {
        writeln!(
            out,
            "shard {s}: {} -> {}\nmerge every shard with: ansatz merge {}",
            summary
                .as_object()
                .into_iter()
                .flatten()
                .filter(|(k, _)| *k != "shard" && *k != "file")
                .map(|(k, v)| format!("{v} {k}"))
                .collect::<Vec<_>>()
                .join(", "),
            path.display(),
            crate::provenance::work_dir(dir)
                .join(format!("{name}.shard-*-of-{}.bin", s.count))
                .display()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Merges the shard files of one `search random` run into its single-run answer (the same JSON and
/// result files, in `out`, default out/).
pub(super) fn merge_random(files: &[ShardFile], out: Option<&Path>, as_json: bool) -> Result<()> {
    let ctx: RandomContext = decode(&files[0].context, "search random context")?;
    let mut stats = GameStats::new(ctx.cfg.players, ctx.cfg.top).trimmed();
    let (mut seconds, mut threads) = (0.0, 0);
    for f in files {
        let (s, secs, th): (GameStats, f64, usize) = decode(&f.records, "search random records")?;
        stats.merge(&s);
        seconds += secs;
        threads += th;
    }
    anyhow::ensure!(
        stats.games == ctx.cfg.games,
        "internal error: the shards hold {} games of {}",
        stats.games,
        ctx.cfg.games
    );
    for c in &stats.cycles {
        verify_cycle(&ctx.cfg, c.index, &c.cycle_id)?;
    }
    let rate = stats.games as f64 / f64::max(seconds, 1e-9);
    let dir = out.map_or_else(
        || PathBuf::from(crate::provenance::DEFAULT_OUT),
        Path::to_path_buf,
    );
    report_random(
        &dir, &ctx.name, &ctx.cfg, &stats, seconds, rate, threads, as_json,
    )
}

/// The answer of a random search: the JSON or text on stdout, the result files in `dir`.
#[allow(clippy::too_many_arguments)]
fn report_random(
    dir: &Path,
    name: &str,
    cfg: &RandomConfig,
    stats: &GameStats,
    seconds: f64,
    rate: f64,
    threads: usize,
    as_json: bool,
) -> Result<()> {
    let deck = cfg.deck;
    let v = random_json(cfg, stats, seconds, rate, threads);
    let run = Run::here(command_line(), threads, seconds);
    write_random_results(dir, name, cfg, stats, &v, &run)?;
    let mut out = Out::new();
    if as_json {
        out.json(&v)?;
        return Ok(());
    }
    writeln!(
        out,
        "deck              {deck}, {} players{}",
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
        "games/s           {rate:.0} ({:.0} per thread, {threads} threads, {seconds:.2} s)",
        rate / threads as f64
    )?;
    for (title, list) in [
        ("longest by cards", &stats.longest_by_cards),
        ("longest by tricks", &stats.longest_by_tricks),
    ] {
        writeln!(out, "{title}:")?;
        for r in list.iter() {
            writeln!(
                out,
                "  {:>5} cards {:>4} tricks  deal {:>12}  {}",
                r.cards,
                r.tricks,
                r.index,
                cfg.position(r.index)
            )?;
        }
    }
    writeln!(out, "histogram (cards, games per 50-card bin):")?;
    for (bin, n) in binned(&stats.hist_cards, 50) {
        writeln!(out, "  {:>5}-{:<5} {n}", bin, bin + 49)?;
    }
    writeln!(
        out,
        "results           {}",
        dir.join(format!("{name}.jsonl")).display()
    )?;
    out.flush()?;
    Ok(())
}

/// Sums of `hist` over bins of `width`, non-empty bins only.
fn binned(hist: &[u64], width: usize) -> Vec<(usize, u64)> {
    hist.chunks(width)
        .enumerate()
        .map(|(i, c)| (i * width, c.iter().sum()))
        .filter(|&(_, n)| n > 0)
        .collect()
}

/// Replays deal `index` with the reference engine and checks it cycles with the same id.
fn verify_cycle(cfg: &RandomConfig, index: u64, id: &str) -> Result<()> {
    let pos = cfg.position(index);
    let ok = if cfg.players == 2 {
        let p = Position::new(pos.hands[0].clone(), pos.hands[1].clone(), 0);
        matches!(reference::play(&p), Outcome::Cycle(c) if c.cycle_id.to_string() == id)
    } else {
        matches!(multi::reference_play(&pos), MultiOutcome::Cycle { cycle_id, .. } if cycle_id.to_string() == id)
    };
    anyhow::ensure!(
        ok,
        "internal error: deal {index} ({pos}) did not verify as a cycle"
    );
    Ok(())
}

fn ranked_json(cfg: &RandomConfig, list: &[Ranked]) -> Value {
    list.iter()
        .map(|r| json!({"index": r.index, "position": cfg.position(r.index).to_string(), "cards": r.cards, "tricks": r.tricks}))
        .collect()
}

fn random_json(
    cfg: &RandomConfig,
    s: &GameStats,
    seconds: f64,
    rate: f64,
    threads: usize,
) -> Value {
    let term = s.terminating.max(1) as f64;
    json!({
        "deck": cfg.deck.to_string(),
        "players": cfg.players,
        "balanced_faces": cfg.balanced_faces,
        "seed": cfg.seed,
        "games": s.games,
        "terminating": s.terminating,
        "cycles": s.cycles.iter().map(|c| json!({
            "index": c.index,
            "position": cfg.position(c.index).to_string(),
            "preperiod": c.preperiod,
            "period": c.period,
            "tricks": c.tricks,
            "cards": c.cards,
            "cycle_cards": c.cycle_cards,
            "cycle_id": c.cycle_id,
            "verified": true,
        })).collect::<Value>(),
        "longest_by_cards": ranked_json(cfg, &s.longest_by_cards),
        "longest_by_tricks": ranked_json(cfg, &s.longest_by_tricks),
        "mean_cards": s.mean_cards(),
        "mean_tricks": s.mean_tricks(),
        "median_cards": s.median_cards(),
        "median_tricks": s.median_tricks(),
        "wins": s.wins,
        "win_shares": s.wins.iter().map(|&w| w as f64 / term).collect::<Vec<_>>(),
        "half_life_tricks": s.half_life_tricks(),
        "histogram_cards": s.hist_cards,
        "histogram_tricks": s.hist_tricks,
        "seconds": seconds,
        "threads": threads,
        "games_per_second": rate,
        "games_per_second_per_thread": rate / threads as f64,
    })
}

/// `DIR/NAME.jsonl` (a header line, then one line per cycle and per longest game) and `DIR/NAME.txt`
/// (a readable summary), each naming the command and version.
fn write_random_results(
    dir: &Path,
    name: &str,
    cfg: &RandomConfig,
    s: &GameStats,
    v: &Value,
    run: &Run,
) -> Result<()> {
    let mut lines = vec![
        json!({"kind": "header", "deck": v["deck"], "players": cfg.players, "balanced_faces": cfg.balanced_faces, "seed": cfg.seed, "games": s.games}),
    ];
    for c in v["cycles"].as_array().into_iter().flatten() {
        let mut c = c.clone();
        c["kind"] = json!("cycle");
        lines.push(c);
    }
    for key in ["longest_by_cards", "longest_by_tricks"] {
        for (rank, g) in v[key].as_array().into_iter().flatten().enumerate() {
            let mut g = g.clone();
            g["kind"] = json!(key);
            g["rank"] = json!(rank + 1);
            lines.push(g);
        }
    }
    let mut text = String::new();
    for l in &lines {
        text.push_str(&l.to_string());
        text.push('\n');
    }
    text.push_str(&run.line());
    text.push('\n');
    let jsonl = dir.join(format!("{name}.jsonl"));
    write_atomic(&jsonl, text.as_bytes())
        .with_context(|| format!("writing {}", jsonl.display()))?;
    let mut summary = format!(
        "deck {} players {} balanced_faces {} seed {}\ngames {} cycles {}\nmean_cards {:.3} median_cards {}\nmean_tricks {:.3} median_tricks {}\nwins {:?}\nhalf_life_tricks {}\n{}",
        v["deck"].as_str().unwrap_or(""),
        cfg.players,
        cfg.balanced_faces,
        cfg.seed,
        s.games,
        s.cycles.len(),
        s.mean_cards(),
        s.median_cards().unwrap_or(0),
        s.mean_tricks(),
        s.median_tricks().unwrap_or(0),
        s.wins,
        s.half_life_tricks()
            .map_or("-".into(), |h| format!("{h:.3}")),
        s.cycles
            .iter()
            .map(|c| format!(
                "cycle deal {} {} period {} id {}\n",
                c.index,
                cfg.position(c.index),
                c.period,
                c.cycle_id
            ))
            .collect::<String>(),
    );
    summary.push_str(&run.text_block());
    let txt = dir.join(format!("{name}.txt"));
    write_atomic(&txt, summary.as_bytes()).with_context(|| format!("writing {}", txt.display()))?;
    Ok(())
}

fn run_exhaustive(a: ExhaustiveArgs) -> Result<ExitCode> {
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
    let began = Instant::now();
    let (deals, work) = cfg.plan().map_err(|e| BadInput(e.to_string()))?;
    let kind = split::exhaustive_kind(&cfg, &work);
    // Distribution (`--shard`, `--hosts`): without those flags this is the single-process run.
    let mode = a.run.dist.mode()?;
    let shard = mode.shard();
    let pool = pool(a.threads)?;
    let stem = format!(
        "exhaustive-{}-{}p{}{}",
        deck_tag(&deck),
        a.players,
        if extra == Extra::Second {
            "-extra2"
        } else {
            ""
        },
        if a.naive { "-naive" } else { "" }
    );
    let method = match work {
        Work::Tasks(_) => "prefix-sharing",
        Work::Ranks { .. } => "every deal",
    };
    let ckpt = checkpoint_path(&a.run.out, &stem, shard);
    let (stats, threads) = if let Mode::Cluster(cluster) = &mode {
        match split::exhaustive_cluster(cluster, &cfg, work, ckpt, a.run.resume)
            .map_err(split_error)?
        {
            None => return Ok(ExitCode::SUCCESS),
            Some(s) => (s, cluster.total_workers()),
        }
    } else {
        let pb = progress::bar(
            shard.map_or(deals, |s| deals / s.count as u64),
            "deals",
            a.run.quiet || a.run.json,
        );
        let stats = pool
            .install(|| {
                split::exhaustive_local(&cfg, &work, shard, ckpt, a.run.resume, &|n| pb.inc(n))
            })
            .map_err(split_error)?;
        pb.finish_and_clear();
        (stats, pool.current_num_threads())
    };
    let seconds = began.elapsed().as_secs_f64();
    let ctx = ExhaustiveContext {
        players: a.players,
        deck: deck.to_string(),
        deals,
        method: method.into(),
        extra,
    };
    if let Some(s) = shard {
        return write_shard(
            &a.run.out,
            &stem,
            s,
            "search-exhaustive",
            // The wide form's units are tasks, not rank ranges: its shards must not merge with
            // shards of the same deck written before.
            &(&cfg, kind),
            &ctx,
            &(stats.clone(), seconds, threads),
            json!({"deals": stats.deals, "cycles": stats.cycles}),
            a.run.json,
        );
    }
    report_exhaustive(&a.run.out, &ctx, &stats, seconds, threads, a.run.json)?;
    Ok(ExitCode::SUCCESS)
}

/// What `ansatz merge` needs, besides the statistics, to write the single-run answer of an
/// exhaustive search.
#[derive(serde::Serialize, serde::Deserialize)]
struct ExhaustiveContext {
    players: usize,
    deck: String,
    deals: u64,
    method: String,
    extra: Extra,
}

/// Merges the shard files of one `search exhaustive` run into its single-run answer (the same
/// JSON and result file, in `out`, default out/).
pub(super) fn merge_exhaustive(
    files: &[ShardFile],
    out: Option<&Path>,
    as_json: bool,
) -> Result<()> {
    let ctx: ExhaustiveContext = decode(&files[0].context, "search exhaustive context")?;
    let mut stats = ExhaustiveStats::new(ctx.players);
    let (mut seconds, mut threads) = (0.0, 0);
    for f in files {
        let (s, secs, th): (ExhaustiveStats, f64, usize) =
            decode(&f.records, "search exhaustive records")?;
        stats.merge(s);
        seconds += secs;
        threads += th;
    }
    let dir = out.map_or_else(
        || PathBuf::from(crate::provenance::DEFAULT_OUT),
        Path::to_path_buf,
    );
    report_exhaustive(&dir, &ctx, &stats, seconds, threads, as_json)
}

/// The cards of a deck spec such as `9-2J2Q2K2A`.
fn stats_cards(deck: &str) -> usize {
    deck.parse::<DeckSpec>().map_or(0, |d| d.total())
}

/// The cards of one period of the cycle named by `id` (replayed with the reference engine), for
/// two-player cycle ids; `None` for others.
fn cycle_cards(id: &str) -> Option<u64> {
    let pos = crate::position::Position::parse(id, crate::notation::Notation::Dash).ok()?;
    match engine::reference::play(&pos) {
        engine::Outcome::Cycle(info) => Some(info.cycle_cards),
        engine::Outcome::Terminates { .. } => None,
    }
}

/// The answer of an exhaustive search: the JSON or text on stdout, the result file in `dir`.
fn report_exhaustive(
    dir: &Path,
    ctx: &ExhaustiveContext,
    stats: &ExhaustiveStats,
    seconds: f64,
    threads: usize,
    as_json: bool,
) -> Result<()> {
    let (deals, method, deck) = (ctx.deals, ctx.method.as_str(), ctx.deck.as_str());
    anyhow::ensure!(
        stats.deals == deals,
        "internal error: counted {} deals of {deals}",
        stats.deals
    );
    let longest = stats.longest.as_ref().map(|l| {
        let pos = ctx.extra.position(&l.deal, ctx.players);
        json!({"position": pos.to_string(), "cards": l.cards, "tricks": l.tricks})
    });
    // Who holds the extra card of an odd two-player deck (none for an even one).
    let odd = ctx.players == 2 && stats_cards(deck) % 2 == 1;
    let extra_card = odd.then_some(if ctx.extra == Extra::Second { 2 } else { 1 });
    let distinct: Vec<Value> = stats
        .distinct_cycles
        .iter()
        .map(|(id, c)| {
            json!({
                "cycle_id": id,
                "period": c.period,
                "cycle_cards": cycle_cards(id),
                "deals": c.deals,
            })
        })
        .collect();
    let v = json!({
        "deck": deck,
        "players": ctx.players,
        "deals": stats.deals,
        "cycles": stats.cycles,
        "non_terminating": stats.cycles,
        "extra_card": extra_card,
        "first_player_wins": stats.wins[0],
        "second_player_wins": stats.wins[1],
        "wins": stats.wins,
        "distinct_cycles": distinct,
        "longest": longest,
        "seconds": seconds,
        "threads": threads,
        "method": method,
    });
    // The file holds the facts and, apart, the run's provenance.
    let mut record = v.clone();
    for k in ["seconds", "threads"] {
        record.as_object_mut().unwrap().remove(k);
    }
    record["run"] = Run::here(command_line(), threads, seconds).to_json();
    let result = dir.join(format!(
        "exhaustive-{deck}-{}p{}.json",
        ctx.players,
        if ctx.extra == Extra::Second {
            "-extra2"
        } else {
            ""
        }
    ));
    write_atomic(&result, format!("{record}\n").as_bytes())
        .with_context(|| format!("writing {}", result.display()))?;
    let mut out = Out::new();
    if as_json {
        out.json(&v)?;
        return Ok(());
    }
    writeln!(
        out,
        "deck              {deck}, {} players ({method})",
        ctx.players
    )?;
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
    writeln!(out, "seconds           {seconds:.2} ({threads} threads)")?;
    writeln!(out, "results           {}", result.display())?;
    out.flush()?;
    Ok(())
}
