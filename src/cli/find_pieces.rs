//! `ansatz find-pieces`: enumerate TEST sequences of a template and write the pieces to a library,
//! in parallel ranges with a checkpoint and `--resume`; or import a text list of pieces.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use serde_json::json;

use super::cluster::{DistArgs, Mode};
use super::output::{BadInput, Out, run_job};
use super::progress;
use crate::ansatz::enumerate::{DEFAULT_RANGES, Params};
use crate::ansatz::find::{FindConfig, Method, Search};
use crate::ansatz::import::fill_params;
use crate::ansatz::template::Template;
use crate::card::{Card, DeckSpec};
use crate::run::find_pieces::{FindAnswer, FindJob};

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

fn face_kind(c: char) -> Result<Card> {
    Ok(match c.to_ascii_uppercase() {
        'J' => 1,
        'Q' => 2,
        'K' => 3,
        'A' => 4,
        _ => return Err(BadInput(format!("--faces-as {c:?}: expected Q, K, A or J")).into()),
    })
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
        let deck: DeckSpec = args
            .deck
            .parse()
            .map_err(|e: crate::card::DeckError| BadInput(e.to_string()))?;
        fill_params(&template, deck).map_err(|e| BadInput(e.to_string()))?
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
    crate::run::pool(args.threads)?;
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
    let search = Search::new(config).map_err(|e| BadInput(e.to_string()))?;
    let template_text = match &args.template {
        Some(p) => {
            Some(std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?)
        }
        None => None,
    };
    let pb = progress::bar(
        search.enumerated_candidates(),
        "candidates",
        args.quiet || args.json || !mode.lead(),
    );
    let bar = pb.clone();
    let job = FindJob::new(
        search,
        params,
        template_text,
        template.name.clone(),
        method_name,
        args.out.clone(),
        args.resume,
        args.threads,
        args.stop_after_ranges,
        Arc::new(move |n| bar.inc(n)),
    );
    match run_job(&job, &mode, &[&pb], args.json)? {
        Ok(answer) => print(&answer, args.json),
        Err(code) => Ok(code),
    }
}

/// The answer of a run, an import or a merge on stdout; exit 1 when nothing of what was asked
/// was found (the library is written), like every search.
pub(super) fn print(a: &FindAnswer, json: bool) -> Result<ExitCode> {
    let (lib, candidates, seconds, path) = (&a.library, a.candidates, a.seconds, &a.path);
    let (resumed, ranges) = (a.resumed, a.ranges);
    let mut out = Out::new();
    let code = if lib.pieces.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    };
    let classes = lib.classes().len();
    // Over all the runs of a resumed job: its seconds are theirs (logged in the checkpoint).
    let rate = candidates as f64 / seconds.max(1e-9);
    let heuristic = lib.header.enumeration.method.starts_with("faces-as");
    let summed = (a.shards > 1 || a.partial.is_some()).then_some(a.shards);
    if json {
        let mut v = json!({
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
        });
        // Only a merge says how many shards its seconds sum over, and only a partial one which
        // shards it covers (as `assemble`'s does): a run's own answer is unchanged.
        if let Some(n) = summed {
            v["seconds_summed_over_shards"] = json!(n);
        }
        if let Some((shards, of)) = &a.partial {
            v["partial"] = json!({"shards": shards, "of": of});
        }
        out.json(&v)?;
        return Ok(code);
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
    let over = summed.map_or(String::new(), |n| format!(" (summed over {n} shards)"));
    writeln!(out, "seconds      {seconds:.3}{over}")?;
    let again = if resumed { " (over all its runs)" } else { "" };
    writeln!(out, "rate         {rate:.0} candidates/s{again}")?;
    writeln!(out, "library      {}", path.display())?;
    if let Some((shards, of)) = &a.partial {
        let list: Vec<String> = shards.iter().map(u32::to_string).collect();
        writeln!(
            out,
            "partial      shards {} of {of} only: not the run's answer",
            list.join(", ")
        )?;
    }
    Ok(code)
}

/// `--from-text`: a list of published pieces, each checked in the template.
fn import(args: &Args, template: &Template, text_path: &Path) -> Result<ExitCode> {
    let a = crate::run::find_pieces::import_library(template, text_path, &args.out)?;
    print(&a, args.json)?;
    Ok(ExitCode::SUCCESS)
}
