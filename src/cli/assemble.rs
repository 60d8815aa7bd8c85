//! `ansatz assemble`: decks from library pieces, their cycles, and the balanced deals of each cycle's
//! family, with checkpoints, resume and results files.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::{Context, Result};
use serde_json::json;

use super::assemble_report::{RunContext, finish, print_text};
use super::cluster::{DistArgs, Mode};
use super::output::{BadInput, Out};
use super::progress;
use crate::ansatz::template::Template;
use crate::assemble::candidates::Frame;
use crate::run::assemble_cluster::{ClusterJob, run_cluster};
use crate::assemble::records::{FamilyDone, Record, families_of, upgrade_all};
use crate::assemble::rest::parse_shape;
use crate::assemble::{CycleHit, Faces, Plan, UnitDone, merge};
use crate::backward::closure::Config as ClosureConfig;
use crate::card::{Card, DeckSpec};
use crate::run::shard::{ShardFile, encode_part};
use crate::run::start::{Resume, Started, start};
use crate::library::fnv1a;
use crate::library::{self, Library};

/// About how many units `--rest all` cuts its decks into (threads and the checkpoint take whole
/// units).
const REST_UNITS: u64 = 4096;

/// The published pieces of 2024, built in so that `ansatz assemble --balance` works anywhere.
const PAPER_LIBRARY: &[u8] = include_bytes!("../../pieces/paper-2024.bin");
const PAPER_LIBRARY_NAME: &str = "pieces/paper-2024.bin (built in)";

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
of the deck (the other pieces and separators) in every arrangement. Results go to DIR (default results/)
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

/// A result-file name: letters, digits, `-`, `_` and `.`, at most 60 characters.
pub(super) fn parse_name(s: &str) -> Result<String, String> {
    let ok = !s.is_empty()
        && s.len() <= 60
        && !s.starts_with('.')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    if ok {
        Ok(s.to_string())
    } else {
        Err(format!(
            "{s:?}: a name is 1 to 60 letters, digits, `-`, `_` or `.`, not starting with `.`"
        ))
    }
}

fn parse_faces(s: &str) -> Result<Faces, String> {
    match s {
        "assign" => Ok(Faces::Assign),
        "members" => Ok(Faces::Members),
        _ => Err(format!("unknown --faces {s:?} (assign or members)")),
    }
}

struct Loaded {
    name: String,
    library: Library,
}

fn load_libraries(paths: &[PathBuf]) -> Result<Vec<Loaded>> {
    if paths.is_empty() {
        let library = library::decode(PAPER_LIBRARY, Path::new(PAPER_LIBRARY_NAME))
            .context("the built-in library")?;
        return Ok(vec![Loaded {
            name: PAPER_LIBRARY_NAME.into(),
            library,
        }]);
    }
    paths
        .iter()
        .map(|p| {
            let library = library::read(p).map_err(|e| BadInput(e.to_string()))?;
            Ok(Loaded {
                name: p.display().to_string(),
                library,
            })
        })
        .collect()
}

/// The deck frame of a template: TEST is followed by the separator and the tail in player 1's hand.
fn frame_of(t: &Template, deck: DeckSpec) -> Result<Frame> {
    if t.test_hand != 0 || t.after.is_empty() {
        return Err(BadInput(format!(
            "template {}: assembly needs TEST in player 1's hand followed by a separator card",
            t.name
        ))
        .into());
    }
    Ok(Frame {
        separator: t.after[0],
        tail: t.after[1..].to_vec(),
        other: t.other.clone(),
        to_move: t.to_move,
        face_kinds: t.faces.clone(),
        deck,
    })
}

/// What a run tests and how it is named, validated from the arguments.
struct Setup {
    deck: DeckSpec,
    template: crate::library::TemplateInfo,
    frame: Frame,
    plan: Plan,
    lib_names: Vec<String>,
    limit: u64,
    /// The name of the result files.
    stem: String,
    /// Names the run in its checkpoint: a checkpoint is resumed only by the same run.
    fingerprint: String,
}

fn setup(args: &Args) -> Result<Setup> {
    if args.pieces == 0 || args.pieces > 8 {
        return Err(BadInput(format!("--pieces {} must be between 1 and 8", args.pieces)).into());
    }
    let deck: DeckSpec = args
        .deck
        .parse()
        .map_err(|e: crate::card::DeckError| BadInput(e.to_string()))?;
    let template = match &args.template {
        Some(p) => Template::read(p).map_err(|e| BadInput(e.to_string()))?,
        None => Template::jack(),
    };
    let around = args.rest == "all";
    if around {
        let clash = [
            (!args.libraries.is_empty(), "--library"),
            (args.faces == Faces::Members, "--faces members"),
            (args.limit.is_some(), "--limit"),
        ];
        if let Some((_, flag)) = clash.iter().find(|(c, _)| *c) {
            return Err(BadInput(format!(
                "--rest all tests every deck around the --require piece; it takes no {flag}"
            ))
            .into());
        }
    }
    let libs = if around {
        Vec::new()
    } else {
        load_libraries(&args.libraries)?
    };
    let want = crate::ansatz::find::template_info(&template);
    for l in &libs {
        if l.library.header.template.game != want.game {
            return Err(BadInput(format!(
                "{}: made for template {} ({}), not {} ({}); pass --template with the library's template",
                l.name,
                l.library.header.template.name,
                l.library.header.template.game,
                want.name,
                want.game
            ))
            .into());
        }
    }
    let pieces: Vec<Vec<Card>> = libs
        .iter()
        .flat_map(|l| l.library.pieces.iter().map(|p| p.sequence.clone()))
        .collect();
    let frame = frame_of(&template, deck)?;
    let plan = match args.require.as_deref() {
        Some(r) if around => {
            let shape = parse_shape(r).map_err(|e| BadInput(format!("--require {r:?}: {e}")))?;
            Plan::around(frame.clone(), args.pieces, shape, REST_UNITS)
        }
        Some(r) if r.contains(['X', 'x', '*']) => {
            return Err(BadInput(format!(
                "--require {r:?}: wildcard face slots need --rest all"
            ))
            .into());
        }
        r => {
            let required = r
                .map(|r| {
                    crate::notation::parse_hand(r, crate::notation::Notation::Dash)
                        .map_err(|e| BadInput(format!("--require {r:?}: {e}")))
                })
                .transpose()?;
            Plan::new(frame.clone(), &pieces, args.pieces, args.faces, required)
        }
    }
    .map_err(|e| BadInput(e.to_string()))?;
    let limit = args.limit.unwrap_or(u64::MAX);
    let lib_names: Vec<String> = libs.iter().map(|l| l.name.clone()).collect();
    let fingerprint = format!(
        "assemble v1 libraries={:?} template={} k={} faces={:?} require={:?}{} deck={} balance={} limit={} max_positions={}",
        libs.iter()
            .map(|l| library::fnv1a(&library::encode(&l.library)))
            .collect::<Vec<_>>(),
        want.game,
        args.pieces,
        args.faces,
        args.require,
        if around { " rest=all" } else { "" },
        deck,
        args.balance,
        limit,
        args.max_positions
    );
    // Runs in other templates than the built-in one name theirs, so they can share a directory.
    let template_part = if args.template.is_some() && template.name != Template::jack().name {
        format!("-{}", template.name)
    } else {
        String::new()
    };
    let stem = args.name.clone().unwrap_or_else(|| {
        format!(
            "assemble-{}{}-k{}{}{}{}",
            if around {
                "rest".to_string()
            } else {
                libs.iter()
                    .map(|l| short_name(&l.name))
                    .collect::<Vec<_>>()
                    .join("+")
            },
            template_part,
            args.pieces,
            if args.faces == Faces::Members {
                "-members"
            } else {
                ""
            },
            args.require
                .as_deref()
                .map(|r| format!("-with-{}", r.replace('-', ".")))
                .unwrap_or_default(),
            if args.balance { "-balance" } else { "" }
        )
    });
    Ok(Setup {
        deck,
        template: want,
        frame,
        plan,
        lib_names,
        limit,
        stem,
        fingerprint,
    })
}

pub fn run(args: Args) -> Result<ExitCode> {
    let started = Instant::now();
    let Setup {
        deck,
        template: want,
        frame,
        plan,
        lib_names,
        limit,
        stem,
        fingerprint,
    } = setup(&args)?;
    // Distribution (`--shard`, `--hosts`): without those flags this is the single-process run.
    let mode = args.dist.mode()?;
    let shard = mode.shard();
    // A shard keeps its own checkpoint (and fingerprint), so each array task resumes alone.
    let (ckpt_stem, fingerprint) = match shard {
        Some(s) => (
            format!("{stem}.{}", s.suffix()),
            format!("{fingerprint} shard={s}"),
        ),
        None => (stem.clone(), fingerprint),
    };
    // In a cluster only process 0 logs and writes; the others compute and exit quietly.
    let lead = mode.lead();
    let work = crate::provenance::work_dir(&args.out);
    let ckpt_path = work.join(format!("{ckpt_stem}.checkpoint"));
    let pool = super::bench::pool(args.threads)?;

    // A cluster connects first: if it never forms, no checkpoint is left behind.
    let resume = if args.resume {
        Resume::Existing
    } else {
        Resume::No
    };
    let Started {
        mut connection,
        log,
        previous,
    } = start::<Record>(&mode, &ckpt_path, &fingerprint, resume)
        .map_err(|e| BadInput(e.to_string()))?;
    let log = Arc::new(Mutex::new(log));
    let cfg = ClosureConfig {
        max_positions: args.max_positions,
        ..ClosureConfig::default()
    };
    let mut done_units = Vec::new();
    let mut done_families = BTreeMap::new();
    for r in pool.install(|| upgrade_all(previous, deck.total(), &cfg)) {
        match r {
            Record::Unit(u) => done_units.push(u),
            Record::Family(f) => {
                done_families.insert(f.cycle_key, f);
            }
            Record::FamilyWithoutReach(_) => unreachable!("upgraded"),
        }
    }
    let checkpoint_error: Arc<Mutex<Option<String>>> = Arc::new(Mutex::new(None));
    let note = {
        let log = log.clone();
        let checkpoint_error = checkpoint_error.clone();
        move |r: &Record| {
            if let Some(log) = log.lock().unwrap().as_mut()
                && let Err(e) = log.append(r)
            {
                checkpoint_error
                    .lock()
                    .unwrap()
                    .get_or_insert(e.to_string());
            }
        }
    };
    let (units, families) = if let Mode::Cluster(cluster) = &mode {
        let total = plan.total_decks().min(limit);
        let job = ClusterJob {
            plan: Arc::new(plan),
            limit,
            keep_decks: !args.balance,
            cfg,
            done_units,
            done_families,
        };
        let pb = progress::bar(total, "decks", args.quiet || args.json || !lead);
        let connection = connection.take().expect("connected above");
        let bar = pb.clone();
        match run_cluster(
            cluster,
            connection,
            fnv1a(format!("assemble {fingerprint} workers={}", cluster.workers).as_bytes()),
            job,
            Arc::new(note),
            Arc::new(move |n| bar.inc(n)),
        )
        .map_err(|e| BadInput(e.to_string()))?
        {
            None => return Ok(ExitCode::SUCCESS),
            Some(r) => {
                pb.finish_and_clear();
                r
            }
        }
    } else {
        match run_local(
            &args,
            &plan,
            &frame,
            shard,
            limit,
            &pool,
            (&done_units, &done_families),
            &cfg,
            &note,
        ) {
            Some(done) => done,
            None => return Ok(ExitCode::from(1)),
        }
    };
    if let Some(e) = checkpoint_error.lock().unwrap().take() {
        return Err(anyhow::anyhow!(
            "writing the checkpoint {}: {e}",
            ckpt_path.display()
        ));
    }

    let command = crate::provenance::this_command();
    let meta = json!({
        "command": command,
        "ansatz_version": env!("CARGO_PKG_VERSION"),
        "libraries": lib_names,
        "template": want.game,
        "pieces": args.pieces,
        "deck": deck.to_string(),
    });
    let context = RunContext {
        stem: stem.clone(),
        meta: meta.to_string(),
        other: frame.other.clone(),
        to_move: frame.to_move,
        cards: deck.total(),
        balance: args.balance,
    };
    let finish_log = || -> Result<()> {
        let log = log.lock().unwrap().take();
        if let Some(log) = log {
            log.finish().map_err(|e| anyhow::anyhow!(e.to_string()))?;
        }
        Ok(())
    };
    if let Some(s) = shard {
        let path = work.join(format!("{stem}.{}.bin", s.suffix()));
        let records: Vec<Record> = units
            .iter()
            .cloned()
            .map(Record::Unit)
            .chain(families.iter().cloned().map(Record::Family))
            .collect();
        let file = ShardFile {
            command: "assemble".into(),
            fingerprint: fingerprint_without_shard(&fingerprint),
            shard: s,
            context: encode_part(&context),
            records: encode_part(&records),
        };
        file.write(&path)
            .map_err(|e| anyhow::anyhow!(e.to_string()))?;
        finish_log()?;
        let decks: u64 = units.iter().map(|u| u.decks).sum();
        let mut out = Out::new();
        let v = json!({
            "shard": s.to_string(),
            "file": path.display().to_string(),
            "units": units.len(),
            "decks_tested": decks,
            "families": families.len(),
        });
        if args.json {
            out.json(&v)?;
        } else {
            writeln!(
                out,
                "shard {s}: {} units, {decks} decks, {} families -> {}\nmerge every shard with: ansatz merge {}",
                units.len(),
                families.len(),
                path.display(),
                work.join(format!("{stem}.shard-*-of-{}.bin", s.count))
                    .display()
            )?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let threads = pool.current_num_threads();
    let summary = finish(
        &context,
        Some(&args.out),
        &units,
        &families,
        started,
        threads,
    )?;
    finish_log()?;
    let mut out = Out::new();
    if args.json {
        out.json(&summary)?;
    } else {
        print_text(&mut out, &summary, &meta)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The run on this machine: phase 1 tests every unit of decks not yet done (of this shard), phase
/// 2 builds the family of every distinct cycle. `None` when `--stop-after-units` stopped phase 1.
#[allow(clippy::too_many_arguments)]
fn run_local(
    args: &Args,
    plan: &Plan,
    frame: &Frame,
    shard: Option<crate::run::shard::Shard>,
    limit: u64,
    pool: &rayon::ThreadPool,
    (done_units, done_families): (&[UnitDone], &BTreeMap<u128, FamilyDone>),
    cfg: &ClosureConfig,
    note: &(dyn Fn(&Record) + Sync),
) -> Option<(Vec<UnitDone>, Vec<FamilyDone>)> {
    // Phase 1: test every deck (of this shard).
    let owns = |i: u32| shard.is_none_or(|s| s.owns(i as u64));
    let pb = progress::bar(
        plan.total_decks().min(limit),
        "decks",
        args.quiet || args.json,
    );
    pb.inc(done_units.iter().map(|u| u.decks).sum());
    let finished_now = std::sync::atomic::AtomicUsize::new(0);
    let stop_after = args.stop_after_units.unwrap_or(usize::MAX);
    let units = pool.install(|| {
        plan.run_some(
            done_units,
            limit,
            !args.balance,
            &owns,
            &|u| {
                note(&Record::Unit(u.clone()));
                finished_now.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                pb.inc(u.decks);
            },
            &|| finished_now.load(std::sync::atomic::Ordering::SeqCst) >= stop_after,
        )
    });
    pb.finish_and_clear();
    let expected = plan
        .unit_limits(limit)
        .iter()
        .filter(|(i, _)| owns(*i))
        .count();
    if units.len() < expected {
        eprintln!(
            "ansatz: stopped after {} of {} units; finish with --resume",
            units.len(),
            expected
        );
        return None;
    }
    let merged = merge(&units);

    // Phase 2: the family of every distinct cycle (in cycle-key order). A shard takes the
    // families of its own cycles: a cycle several shards reach is built by each of them (a
    // family depends on the cycle alone, so they agree, and merge keeps one).
    let cycles: Vec<&CycleHit> = merged.cycles.values().collect();
    let pb = progress::bar(cycles.len() as u64, "families", args.quiet || args.json);
    let families =
        pool.install(|| families_of(&cycles, done_families, frame, cfg, note, &|| pb.inc(1)));
    pb.finish_and_clear();
    Some((units, families))
}

/// Every shard of a run shares the fingerprint of the whole run.
fn fingerprint_without_shard(f: &str) -> String {
    f.rsplit_once(" shard=").map_or(f, |(a, _)| a).to_string()
}

fn short_name(name: &str) -> String {
    Path::new(name.split_whitespace().next().unwrap_or(name))
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "library".into())
}
