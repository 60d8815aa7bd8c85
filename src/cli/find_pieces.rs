//! `ansatz find-pieces`: enumerate TEST sequences of a template and write the pieces to a library,
//! in parallel ranges with a checkpoint and `--resume`; or import a text list of pieces.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::bench::pool;
use super::cluster::{DistArgs, Mode};
use super::merge::decode;
use super::output::{BadInput, Out};
use super::progress;
use crate::ansatz::enumerate::{DEFAULT_RANGES, Params};
use crate::ansatz::find::{FindConfig, Method, RunReport, Search, build_library};
use crate::run::find_cluster::run_cluster;
use crate::ansatz::template::Template;
use crate::card::{Card, DeckSpec, KINDS, NUMBER, symbol};
use crate::run::shard::{ShardFile, beside, encode_part};
use crate::run::start::{Resume, Started, start};
use crate::library::checkpoint::{CheckpointError, RangeDone};
use crate::library::fnv1a;
use crate::library::{self, Enumeration, Library};
use crate::notation::{Notation, parse_hand};

/// Find every piece of a template: the TEST sequences whose template game never ends.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz find-pieces                                   # lengths 1..=24, at most 5 faces (47 M candidates)
  ansatz find-pieces --max-len 20 --max-faces 6 --out out/len20-faces6.bin
  ansatz find-pieces --max-len 32 --max-faces 7 --faces-as K --out out/len32-K.bin
  ansatz find-pieces --resume                          # finish an interrupted run
  ansatz find-pieces --max-len 28 --shard 3/16 --out out/len28.bin   # job array; then merge
  ansatz find-pieces --max-len 28 --hosts hosts.txt --process 1 --workers 32   # cluster
  ansatz find-pieces --from-text tests/data/pieces-2024.txt --out pieces/paper-2024.bin
  ansatz find-pieces --fill --out out/jack-fill.bin   # every full deck of the jack template

Candidates are all sequences of --min-len..=--max-len cards over number cards and the template's
face kinds (Q, K, A for templates/jack.txt), with at most --max-faces faces and at most
--max-per-kind of each kind. The search is exact: a depth-first walk over TEST cards that shares
the game played before each card. --faces-as KIND is the paper's heuristic speed-up (it can miss
pieces whose all-one-kind form terminates). --fill instead gives TEST exactly the cards the deck
(--deck, default standard) leaves once the template's own cards are taken out, in every order
(multiset permutations, with the same prefix sharing): each piece found is then a whole deck that
never ends (the jack template leaves 31 cards, 2,208,843,000 arrangements). Finished ranges go to OUT.checkpoint at once; after
Ctrl-C or kill -9, run the same command with --resume. Exit code 1 when no piece is found.")]
pub struct Args {
    /// Template file (key = value; see templates/jack.txt). Default: the built-in jack template.
    #[arg(long, value_name = "FILE")]
    template: Option<PathBuf>,
    /// Longest candidate.
    #[arg(long, default_value_t = 24, value_name = "L")]
    max_len: usize,
    /// Shortest candidate.
    #[arg(long, default_value_t = 1, value_name = "M")]
    min_len: usize,
    /// Most face cards in a candidate.
    #[arg(long, default_value_t = 5, value_name = "F")]
    max_faces: usize,
    /// Most cards of one face kind (a standard deck holds 4).
    #[arg(long, default_value_t = 4, value_name = "N")]
    max_per_kind: usize,
    /// Heuristic: enumerate with every face as KIND (Q, K, A or J), then test the face
    /// assignments of each hit.
    #[arg(long, value_name = "KIND")]
    faces_as: Option<char>,
    /// TEST takes exactly the cards the deck leaves once the template's own cards are out, in
    /// every order: every full deck of the template (instead of --min-len .. --max-per-kind).
    #[arg(long, conflicts_with_all = ["faces_as", "min_len", "max_len", "max_faces", "max_per_kind"])]
    fill: bool,
    /// The deck a --fill completes.
    #[arg(
        long,
        default_value = "standard",
        value_name = "SPEC",
        requires = "fill"
    )]
    deck: String,
    /// Test every candidate with its own game from scratch (exact and slow: the checker).
    #[arg(long, conflicts_with = "faces_as")]
    naive: bool,
    /// Output library.
    #[arg(long, default_value = "out/found.bin", value_name = "FILE")]
    out: PathBuf,
    /// Continue the run recorded in OUT.checkpoint.
    #[arg(long)]
    resume: bool,
    /// Import a text list of pieces (one dash sequence a line, `#` comments) instead of
    /// enumerating; each must be a piece of the template.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["resume", "naive", "faces_as"])]
    from_text: Option<PathBuf>,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// About how many ranges to split the candidates into (threads and the checkpoint take
    /// whole ranges; ranges hold similar numbers of candidates).
    #[arg(long, default_value_t = DEFAULT_RANGES, value_name = "N")]
    ranges: u64,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
    /// Stop after this many ranges (simulates an interruption; for tests).
    #[arg(long, hide = true)]
    stop_after_ranges: Option<usize>,
    #[command(flatten)]
    dist: DistArgs,
}

/// The command line as recorded in the library: an interrupted and resumed run records the same
/// command as an uninterrupted one, and a split run the same as a single run.
fn recorded_command() -> String {
    super::cluster::recorded_command(&["--stop-after-ranges"], &["--resume"])
}

fn face_kind(c: char) -> Result<Card> {
    Ok(match c.to_ascii_uppercase() {
        'J' => 1,
        'Q' => 2,
        'K' => 3,
        'A' => 4,
        _ => return Err(BadInput(format!("--faces-as {c:?}: expected Q, K, A or J")).into()),
    })
}

/// `number cards`, or a face kind's letter, for messages.
fn kind_name(kind: Card) -> String {
    if kind == NUMBER {
        "number cards".into()
    } else {
        symbol(kind).to_string()
    }
}

/// The parameters of `--fill`: exactly the cards `deck` leaves once the template's own are out.
fn fill_params(template: &Template, deck: &str) -> Result<Params> {
    let deck: DeckSpec = deck
        .parse()
        .map_err(|e: crate::card::DeckError| BadInput(e.to_string()))?;
    let fixed = DeckSpec::of_cards(
        template
            .before
            .iter()
            .chain(&template.after)
            .chain(&template.other),
    );
    let mut left = [0u8; KINDS];
    for (kind, slot) in left.iter_mut().enumerate() {
        let n = deck.counts[kind]
            .checked_sub(fixed.counts[kind])
            .ok_or_else(|| {
                BadInput(format!(
                    "--fill: template {} holds {} {} but deck {deck} has only {}",
                    template.name,
                    fixed.counts[kind],
                    kind_name(kind as Card),
                    deck.counts[kind]
                ))
            })?;
        if n > 0 && kind != NUMBER as usize && !template.faces.contains(&(kind as Card)) {
            return Err(BadInput(format!(
                "--fill: deck {deck} leaves {n} {} for TEST, but template {} lets TEST hold only {}",
                kind_name(kind as Card),
                template.name,
                crate::ansatz::find::template_info(template).faces
            ))
            .into());
        }
        *slot =
            u8::try_from(n).map_err(|_| BadInput(format!("--fill: deck {deck} is too large")))?;
    }
    if left.iter().all(|&n| n == 0) {
        return Err(BadInput(format!(
            "--fill: template {} already holds all of deck {deck}",
            template.name
        ))
        .into());
    }
    Ok(Params::fill(left))
}

fn checkpoint_path(out: &Path) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(".checkpoint");
    crate::provenance::work_path(&out.with_file_name(name))
}

pub fn run(args: Args) -> Result<ExitCode> {
    let template = match &args.template {
        Some(path) => Template::read(path).map_err(|e| BadInput(e.to_string()))?,
        None => Template::jack(),
    };
    if args.min_len > args.max_len {
        return Err(BadInput(format!(
            "--min-len {} is above --max-len {}",
            args.min_len, args.max_len
        ))
        .into());
    }
    let params = if args.fill {
        fill_params(&template, &args.deck)?
    } else {
        Params {
            min_len: args.min_len,
            max_len: args.max_len,
            max_faces: args.max_faces,
            max_per_kind: args.max_per_kind,
            kinds: template.faces.clone(),
            exact: None,
        }
    };
    let pool = pool(args.threads)?;
    let mode = args.dist.mode()?;
    if let Some(text) = &args.from_text {
        if !matches!(mode, Mode::Single) {
            return Err(
                BadInput("--from-text runs on one machine (no --shard or --hosts)".into()).into(),
            );
        }
        return import(&args, &template, text);
    }
    let method = match (args.naive, args.faces_as) {
        (true, _) => Method::Naive,
        (false, Some(c)) => {
            let k = face_kind(c)?;
            if !template.faces.contains(&k) {
                return Err(BadInput(format!(
                    "--faces-as {c}: the template's pieces hold only {}",
                    crate::ansatz::find::template_info(&template).faces
                ))
                .into());
            }
            Method::FacesAs(k)
        }
        (false, None) => Method::Exact,
    };
    // A fill records what it fills with, so `inspect` tells it from a length-bounded run.
    let method_name = match params.exact {
        Some(c) => format!(
            "{} fill {}",
            method.name(),
            DeckSpec {
                counts: c.map(u32::from)
            }
        ),
        None => method.name(),
    };
    let config = FindConfig {
        template: template.clone(),
        params: params.clone(),
        method,
        ranges: args.ranges,
    };
    let fingerprint = config.fingerprint();
    let search = Arc::new(Search::new(config).map_err(|e| BadInput(e.to_string()))?);
    let shard = mode.shard();
    // A shard keeps its own checkpoint, so each array task resumes alone.
    let (ck_path, fingerprint) = match shard {
        Some(s) => (
            checkpoint_path(&beside(&args.out, s)),
            format!("{fingerprint} shard={s}"),
        ),
        None => (checkpoint_path(&args.out), fingerprint),
    };
    let lead = mode.lead();
    // A cluster connects first: if it never forms, no checkpoint is left behind.
    let resume = if args.resume {
        Resume::OrStart
    } else {
        Resume::No
    };
    let Started {
        mut connection,
        log: checkpoint,
        previous: done,
    } = start::<RangeDone>(&mode, &ck_path, &fingerprint, resume)
        .map_err(|e| BadInput(e.to_string()))?;
    let resumed_ranges = done.len();
    let checkpoint = Arc::new(Mutex::new(checkpoint));
    let pb = progress::bar(
        search.enumerated_candidates(),
        "candidates",
        args.quiet || args.json || !lead,
    );
    let start = Instant::now();
    let record = {
        let checkpoint = checkpoint.clone();
        move |r: &RangeDone| match checkpoint.lock().unwrap().as_mut() {
            Some(c) => c.append(r),
            None => Ok(()),
        }
    };
    let report: RunReport = if let Mode::Cluster(cluster) = &mode {
        let connection = connection.take().expect("connected above");
        let bar = pb.clone();
        match run_cluster(
            cluster,
            connection,
            fnv1a(format!("find-pieces {fingerprint} workers={}", cluster.workers).as_bytes()),
            search.clone(),
            done,
            Arc::new(record),
            Arc::new(move |n| bar.inc(n)),
        )
        .map_err(|e| BadInput(e.to_string()))?
        {
            Some(r) => r,
            None => return Ok(ExitCode::SUCCESS),
        }
    } else {
        let owns = |i: usize| shard.is_none_or(|s| s.owns(i as u64));
        pool.install(|| {
            crate::ansatz::find::run_some(
                &search,
                done,
                &owns,
                &record,
                args.stop_after_ranges,
                &|n| pb.inc(n),
            )
        })
        .map_err(checkpoint_error)?
    };
    let seconds = start.elapsed().as_secs_f64();
    pb.finish_and_clear();
    let mut out = Out::new();
    if !report.complete {
        let msg = format!(
            "stopped with {} of {} ranges done; run again with --resume to finish",
            report.ranges_done,
            search.ranges()
        );
        if args.json {
            out.json(&json!({"complete": false, "ranges_done": report.ranges_done, "ranges": search.ranges(), "checkpoint": ck_path.display().to_string()}))?;
        } else {
            writeln!(out, "{msg}")?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let finish_checkpoint = || -> Result<()> {
        if let Some(c) = checkpoint.lock().unwrap().take() {
            c.finish().map_err(checkpoint_error)?;
        }
        Ok(())
    };
    if let Some(s) = shard {
        let path = beside(&args.out, s);
        let context = FindContext {
            template_text: match &args.template {
                Some(p) => Some(
                    std::fs::read_to_string(p)
                        .with_context(|| format!("reading {}", p.display()))?,
                ),
                None => None,
            },
            template_name: template.name.clone(),
            method: method_name.clone(),
            params: [
                params.min_len,
                params.max_len,
                params.max_faces,
                params.max_per_kind,
            ]
            .map(|x| x as u32),
            command: recorded_command(),
            out: args.out.display().to_string(),
            ranges: search.ranges() as u32,
        };
        let file = ShardFile {
            command: "find-pieces".into(),
            fingerprint: fingerprint
                .rsplit_once(" shard=")
                .map_or(fingerprint.as_str(), |(a, _)| a)
                .to_string(),
            shard: s,
            context: encode_part(&context),
            records: encode_part(&(
                &report.pieces,
                report.candidates,
                report.ranges_done as u64,
                seconds,
            )),
        };
        file.write(&path)
            .map_err(|e| anyhow::anyhow!(e.to_string()))?;
        finish_checkpoint()?;
        let v = json!({
            "shard": s.to_string(),
            "file": path.display().to_string(),
            "ranges": report.ranges_done,
            "candidates": report.candidates,
            "pieces": report.pieces.len(),
        });
        if args.json {
            out.json(&v)?;
        } else {
            writeln!(
                out,
                "shard {s}: {} ranges, {} candidates, {} pieces -> {}",
                report.ranges_done,
                report.candidates,
                report.pieces.len(),
                path.display()
            )?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let enumeration = Enumeration {
        method: method_name,
        min_len: params.min_len as u32,
        max_len: params.max_len as u32,
        max_faces: params.max_faces as u32,
        max_per_kind: params.max_per_kind as u32,
        candidates: report.candidates,
    };
    let (lib, _) =
        pool.install(|| build_library(&template, enumeration, report.pieces, recorded_command()));
    library::write(&args.out, &lib).map_err(|e| BadInput(e.to_string()))?;
    finish_checkpoint()?;
    // A resumed run's time covers only part of the work, so it reports no rate.
    summary(
        &mut out,
        args.json,
        &args.out,
        &lib,
        report.candidates,
        seconds,
        resumed_ranges > 0,
        search.ranges(),
    )?;
    // Like every search: exit 1 when nothing of what was asked was found (the library is written).
    Ok(if lib.pieces.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn checkpoint_error(e: CheckpointError) -> anyhow::Error {
    BadInput(e.to_string()).into()
}

// The summary of a run, an import and a merge: each passes its own values.
#[allow(clippy::too_many_arguments)]
fn summary(
    out: &mut Out,
    json: bool,
    path: &Path,
    lib: &Library,
    candidates: u64,
    seconds: f64,
    resumed: bool,
    ranges: usize,
) -> Result<()> {
    let classes = lib.classes().len();
    let rate = if resumed {
        None
    } else {
        Some(candidates as f64 / seconds.max(1e-9))
    };
    let heuristic = lib.header.enumeration.method.starts_with("faces-as");
    if json {
        out.json(&json!({
            "candidates": candidates,
            "pieces": lib.pieces.len(),
            "classes": classes,
            "seconds": seconds,
            "candidates_per_second": rate,
            "method": lib.header.enumeration.method,
            "heuristic": heuristic,
            "resumed": resumed,
            "ranges": ranges,
            "out": path.display().to_string(),
        }))?;
        return Ok(());
    }
    writeln!(out, "template     {}", lib.header.template.game)?;
    writeln!(
        out,
        "method       {}{}",
        lib.header.enumeration.method,
        if heuristic {
            " (heuristic: can miss pieces whose all-one-kind form terminates)"
        } else {
            ""
        }
    )?;
    writeln!(out, "candidates   {candidates}")?;
    writeln!(out, "pieces       {}", lib.pieces.len())?;
    writeln!(out, "classes      {classes}")?;
    writeln!(out, "seconds      {seconds:.3}")?;
    match rate {
        Some(r) => writeln!(out, "rate         {r:.0} candidates/s")?,
        None => writeln!(out, "rate         (resumed run: see the first run's rate)")?,
    }
    writeln!(out, "library      {}", path.display())?;
    Ok(())
}

/// `--from-text`: a list of published pieces, each checked in the template.
fn import(args: &Args, template: &Template, text_path: &Path) -> Result<ExitCode> {
    let text = std::fs::read_to_string(text_path)
        .with_context(|| format!("reading {}", text_path.display()))?;
    let mut pieces = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let seq = parse_hand(line, Notation::Dash).map_err(|e| {
            BadInput(format!(
                "{}, line {}: bad piece {line:?}: {e}",
                text_path.display(),
                i + 1
            ))
        })?;
        if let Some(&c) = seq
            .iter()
            .find(|&&c| c != NUMBER && !template.faces.contains(&c))
        {
            return Err(BadInput(format!(
                "{}, line {}: {line:?} holds {}, which the template's pieces may not",
                text_path.display(),
                i + 1,
                crate::card::symbol(c)
            ))
            .into());
        }
        if !crate::engine::play(&template.fill(&seq)).is_cycle() {
            return Err(BadInput(format!(
                "{}, line {}: {line:?} is not a piece of template {}: its game ends",
                text_path.display(),
                i + 1,
                template.display()
            ))
            .into());
        }
        pieces.push(seq);
    }
    let n = pieces.len();
    let enumeration = Enumeration {
        method: format!("import {}", text_path.display()),
        min_len: pieces.iter().map(|p| p.len()).min().unwrap_or(0) as u32,
        max_len: pieces.iter().map(|p| p.len()).max().unwrap_or(0) as u32,
        // The limits the imported pieces actually reach.
        max_faces: pieces
            .iter()
            .map(|p| p.iter().filter(|&&c| c != NUMBER).count())
            .max()
            .unwrap_or(0) as u32,
        max_per_kind: pieces
            .iter()
            .flat_map(|p| {
                template
                    .faces
                    .iter()
                    .map(|&k| p.iter().filter(|&&c| c == k).count())
            })
            .max()
            .unwrap_or(0) as u32,
        candidates: n as u64,
    };
    let start = Instant::now();
    let (lib, _) = build_library(template, enumeration, pieces, recorded_command());
    library::write(&args.out, &lib).map_err(|e| BadInput(e.to_string()))?;
    let mut out = Out::new();
    summary(
        &mut out,
        args.json,
        &args.out,
        &lib,
        n as u64,
        start.elapsed().as_secs_f64(),
        false,
        0,
    )?;
    Ok(ExitCode::SUCCESS)
}

/// What `ansatz merge` needs, besides the shards' pieces, to write the single-run library.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
struct FindContext {
    /// The template file's text (`None`: the built-in jack template).
    template_text: Option<String>,
    template_name: String,
    method: String,
    /// min_len, max_len, max_faces, max_per_kind.
    params: [u32; 4],
    command: String,
    /// The library the run writes.
    out: String,
    ranges: u32,
}

/// Merges the shard files of one `find-pieces` run into its library (at `out`, or where the
/// shards were told to write it) and prints the single-run summary.
pub(super) fn merge_shards(
    files: &[ShardFile],
    out_path: Option<&Path>,
    json: bool,
) -> Result<ExitCode> {
    let bad = |what: &str| BadInput(format!("shard file: {what}"));
    let ctx: FindContext = decode(&files[0].context, "find-pieces context")?;
    let template = match &ctx.template_text {
        None => Template::jack(),
        Some(text) => {
            let mut t =
                Template::parse(text, &ctx.template_name).map_err(|e| BadInput(e.to_string()))?;
            t.name = ctx.template_name.clone();
            t
        }
    };
    let mut pieces = Vec::new();
    let mut candidates = 0u64;
    let mut ranges = 0u64;
    let mut seconds = 0f64;
    for f in files {
        type Rec = (Vec<Vec<Card>>, u64, u64, f64);
        let (p, c, r, s): Rec = decode(&f.records, "find-pieces records")?;
        pieces.extend(p);
        candidates += c;
        ranges += r;
        // The shards run side by side: the run takes as long as the slowest.
        seconds = seconds.max(s);
    }
    if ranges != ctx.ranges as u64 {
        return Err(bad(&format!(
            "the shards cover {ranges} of {} ranges",
            ctx.ranges
        ))
        .into());
    }
    let [min_len, max_len, max_faces, max_per_kind] = ctx.params;
    let enumeration = Enumeration {
        method: ctx.method.clone(),
        min_len,
        max_len,
        max_faces,
        max_per_kind,
        candidates,
    };
    let (lib, _) = build_library(&template, enumeration, pieces, ctx.command.clone());
    let path = out_path.map_or_else(|| PathBuf::from(&ctx.out), Path::to_path_buf);
    library::write(&path, &lib).map_err(|e| BadInput(e.to_string()))?;
    let mut out = Out::new();
    summary(
        &mut out,
        json,
        &path,
        &lib,
        candidates,
        seconds,
        false,
        ctx.ranges as usize,
    )?;
    Ok(if lib.pieces.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
