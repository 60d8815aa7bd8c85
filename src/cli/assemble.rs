//! `ansatz assemble`: decks from library pieces, their cycles, and the balanced deals of each cycle's
//! family, with checkpoints, resume and results files.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::cluster::{DistArgs, Mode};
use super::merge::decode;
use super::output::{BadInput, Out};
use super::progress;
use crate::ansatz::template::Template;
use crate::assemble::candidates::Frame;
use crate::assemble::cluster::{ClusterJob, run_cluster};
use crate::assemble::records::{FamilyDone, Record, families_of, mirror_cycles, upgrade_all};
use crate::assemble::rest::parse_shape;
use crate::assemble::{CycleHit, Faces, Plan, UnitDone, merge};
use crate::backward::closure::Config as ClosureConfig;
use crate::card::{Card, DeckSpec};
use crate::dist::shard::{ShardFile, encode_part};
use crate::dist::start::{Resume, Started, start};
use crate::library::fnv1a;
use crate::library::{self, Library, write_atomic};
use crate::position::Position;

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
  ansatz assemble --library a.bin --library b.bin --out results/run1 --resume
  ansatz assemble --limit 100000                    # the first 100000 decks only
  ansatz assemble --library pieces/len24-faces6.bin --faces members --balance   # pieces as they are
  ansatz assemble --library pieces/len24-faces7.bin --require=--K---A----AA --balance
  ansatz assemble --require=--------X---------X-X-X---X-XXX --rest all --balance   # every deck
  ansatz assemble --balance --shard 2/8 --out shards   # slice 2 of a job array; then ansatz merge
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
    /// Directory for results and the checkpoint.
    #[arg(long, default_value = "results", value_name = "DIR")]
    out: PathBuf,
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

pub fn run(args: Args) -> Result<ExitCode> {
    let started = Instant::now();
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
    let stem = format!(
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
    );
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
    let ckpt_path = args.out.join(format!("{ckpt_stem}.checkpoint"));
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
    let total = plan.total_decks().min(limit);

    let (units, families) = if let Mode::Cluster(cluster) = &mode {
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
        // Phase 1: test every deck (of this shard).
        let owns = |i: u32| shard.is_none_or(|s| s.owns(i as u64));
        let pb = progress::bar(total, "decks", args.quiet || args.json);
        pb.inc(done_units.iter().map(|u| u.decks).sum());
        let finished_now = std::sync::atomic::AtomicUsize::new(0);
        let stop_after = args.stop_after_units.unwrap_or(usize::MAX);
        let units = pool.install(|| {
            plan.run_some(
                &done_units,
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
            return Ok(ExitCode::from(1));
        }
        let merged = merge(&units);

        // Phase 2: the family of every distinct cycle (in cycle-key order). A shard takes the
        // families of its own cycles: a cycle several shards reach is built by each of them (a
        // family depends on the cycle alone, so they agree, and merge keeps one).
        let cycles: Vec<&CycleHit> = merged.cycles.values().collect();
        let pb = progress::bar(cycles.len() as u64, "families", args.quiet || args.json);
        let families = pool
            .install(|| families_of(&cycles, &done_families, &frame, &cfg, &note, &|| pb.inc(1)));
        pb.finish_and_clear();
        (units, families)
    };
    if let Some(e) = checkpoint_error.lock().unwrap().take() {
        return Err(anyhow::anyhow!(
            "writing the checkpoint {}: {e}",
            ckpt_path.display()
        ));
    }

    let command = std::env::args().collect::<Vec<_>>().join(" ");
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
        let path = args.out.join(format!("{stem}.{}.bin", s.suffix()));
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
                args.out
                    .join(format!("{stem}.shard-*-of-{}.bin", s.count))
                    .display()
            )?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let summary = finish(&context, Some(&args.out), &units, &families, started)?;
    finish_log()?;
    let mut out = Out::new();
    if args.json {
        out.json(&summary)?;
    } else {
        print_text(&mut out, &summary, &meta)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// What `ansatz merge` needs, besides the records, to write the single-run answer.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub(super) struct RunContext {
    stem: String,
    meta: String,
    other: Vec<Card>,
    to_move: u8,
    cards: usize,
    balance: bool,
}

/// Every shard of a run shares the fingerprint of the whole run.
fn fingerprint_without_shard(f: &str) -> String {
    f.rsplit_once(" shard=").map_or(f, |(a, _)| a).to_string()
}

/// Merges the shard files of one `assemble` run into its single-run answer: the same JSON, the
/// same result files (in `out`). Returns the summary and the meta of the run. Without `out`, the
/// files may be some of the shards only (`merge --partial`): the summary then names them and no
/// result file is written.
pub(super) fn merge_shards(files: &[ShardFile], out: Option<&Path>) -> Result<(Value, Value)> {
    let started = Instant::now();
    let bad = |what: &str| BadInput(format!("shard file: {what}"));
    let context: RunContext = decode(&files[0].context, "assemble context")?;
    let mut units = Vec::new();
    let mut families = BTreeMap::new();
    // Shard files do not record the closure limit: families written before the reach are built
    // again with the default one (or, when partial, with the limit that stops where they did).
    let cfg = ClosureConfig::default();
    for f in files {
        let records: Vec<Record> = decode(&f.records, "assemble records")?;
        for r in upgrade_all(records, context.cards, &cfg) {
            match r {
                Record::Unit(u) => units.push(u),
                Record::Family(fam) => {
                    families.entry(fam.cycle_key).or_insert(fam);
                }
                Record::FamilyWithoutReach(_) => unreachable!("upgraded"),
            }
        }
    }
    units.sort_by_key(|u| u.index);
    if units.windows(2).any(|w| w[0].index == w[1].index) {
        return Err(bad("a unit appears in two shards").into());
    }
    let merged = merge(&units);
    let families: Vec<FamilyDone> = merged
        .cycles
        .keys()
        .map(|k| {
            families
                .get(k)
                .cloned()
                .ok_or_else(|| bad("a cycle has no family (a shard is incomplete)"))
        })
        .collect::<Result<_, _>>()?;
    let mut summary = finish(&context, out, &units, &families, started)?;
    // With `out`, `read_set` has checked that every shard is here.
    if out.is_none() {
        let shards: Vec<u32> = files.iter().map(|f| f.shard.index).collect();
        summary["partial"] = json!({"shards": shards, "of": files[0].shard.count});
    }
    let meta: Value = serde_json::from_str(&context.meta).map_err(|_| bad("bad meta"))?;
    Ok((summary, meta))
}

/// How many of the unbalanced cycles that come closest to balance the summary lists.
const NEAREST: usize = 10;

/// Builds the summary of finished units and the families of their cycles (in cycle-key order)
/// and writes the result files.
fn finish(
    ctx: &RunContext,
    dir: Option<&Path>,
    units: &[UnitDone],
    families: &[FamilyDone],
    started: Instant,
) -> Result<Value> {
    let merged = merge(units);
    let by_key: BTreeMap<u128, &FamilyDone> = families.iter().map(|f| (f.cycle_key, f)).collect();
    let cycles: Vec<(&CycleHit, &FamilyDone)> = merged
        .cycles
        .values()
        .map(|hit| (hit, by_key[&hit.cycle_key]))
        .collect();
    // The players' mirror image of a balanced cycle is another cycle of positions, reached from
    // the mirror images of its balanced deals (those with player 2 to move become legal deals
    // with player 1 to move). Counted apart, since it is the same game with the seats exchanged.
    let balanced_keys: Vec<u128> = cycles
        .iter()
        .filter(|(_, f)| !f.balanced.is_empty())
        .map(|(hit, _)| hit.cycle_key)
        .collect();
    let mirrors = mirror_cycles(&balanced_keys, ctx.cards);
    let mut with_mirrors: BTreeMap<u128, usize> = BTreeMap::new();
    for (hit, f) in &cycles {
        if let Some(&m) = mirrors.get(&hit.cycle_key) {
            with_mirrors.insert(hit.cycle_key, f.balanced.len());
            with_mirrors.entry(m).or_insert(f.balanced.len());
        }
    }
    let cycle_json: Vec<Value> = cycles
        .iter()
        .filter(|(_, f)| !ctx.balance || !f.balanced.is_empty())
        .map(|(hit, f)| {
            let mirror = mirrors
                .get(&hit.cycle_key)
                .map(|&m| Position::unpack(m, ctx.cards).to_string());
            json!({
                "cycle_id": Position::unpack(hit.cycle_key, ctx.cards).to_string(),
                "mirror_cycle_id": mirror,
                "period": hit.period,
                "deck": Position::new(hit.deck.clone(), ctx.other.clone(), ctx.to_move).to_string(),
                "decks": hit.decks,
                "closure_size": f.closure_size,
                "closure_complete": f.complete,
                "max_depth": f.max_depth,
                "reach": f.reach,
                "balanced": f.balanced,
            })
        })
        .collect();
    // How close the cycles' families come to balance: cycles by reach (largest first), and the
    // unbalanced cycles that come closest, where a search for new balanced cycles would look.
    let mut by_reach: BTreeMap<std::cmp::Reverse<u8>, usize> = BTreeMap::new();
    for (_, f) in &cycles {
        *by_reach.entry(std::cmp::Reverse(f.reach)).or_default() += 1;
    }
    let mut nearest: Vec<&(&CycleHit, &FamilyDone)> = cycles
        .iter()
        .filter(|(_, f)| f.balanced.is_empty())
        .collect();
    nearest.sort_by_key(|(_, f)| std::cmp::Reverse(f.reach));
    let nearest: Vec<Value> = nearest
        .iter()
        .take(NEAREST)
        .map(|(hit, f)| {
            json!({
                "cycle_id": Position::unpack(hit.cycle_key, ctx.cards).to_string(),
                "period": hit.period,
                "reach": f.reach,
                "closure_size": f.closure_size,
                "deck": Position::new(hit.deck.clone(), ctx.other.clone(), ctx.to_move).to_string(),
            })
        })
        .collect();
    let balanced_total: usize = cycles.iter().map(|(_, f)| f.balanced.len()).sum();
    let balanced_cycles = cycles
        .iter()
        .filter(|(_, f)| !f.balanced.is_empty())
        .count();
    let summary = json!({
        "decks_tested": merged.decks,
        "non_terminating": merged.non_terminating,
        "cycles_found": merged.cycles.len(),
        "balanced_cycles": balanced_cycles,
        "balanced_total": balanced_total,
        "balanced_cycles_with_mirrors": with_mirrors.len(),
        "balanced_total_with_mirrors": with_mirrors.values().sum::<usize>(),
        "reach_histogram": by_reach
            .iter()
            .map(|(r, n)| json!({"reach": r.0, "cycles": n}))
            .collect::<Vec<_>>(),
        "nearest_unbalanced": nearest,
        "seconds": started.elapsed().as_secs_f64(),
        "cycles": cycle_json,
    });
    if let Some(dir) = dir {
        let meta: Value = serde_json::from_str(&ctx.meta)?;
        write_results(dir, &ctx.stem, &meta, &summary, units, !ctx.balance)?;
    }
    Ok(summary)
}

fn short_name(name: &str) -> String {
    Path::new(name.split_whitespace().next().unwrap_or(name))
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "library".into())
}

/// `DIR/STEM.jsonl` (a meta line, a summary line, one line per reported cycle), `DIR/STEM.txt`
/// (readable), and without `--balance` `DIR/STEM-decks.txt` (every non-terminating deck).
fn write_results(
    dir: &Path,
    stem: &str,
    meta: &Value,
    summary: &Value,
    units: &[UnitDone],
    all_decks: bool,
) -> Result<()> {
    let mut jsonl = String::new();
    jsonl.push_str(&json!({"meta": meta}).to_string());
    jsonl.push('\n');
    let mut head = summary.clone();
    head.as_object_mut().unwrap().remove("cycles");
    jsonl.push_str(&json!({"summary": head}).to_string());
    jsonl.push('\n');
    for c in summary["cycles"].as_array().unwrap() {
        jsonl.push_str(&json!({"cycle": c}).to_string());
        jsonl.push('\n');
    }
    let path = dir.join(format!("{stem}.jsonl"));
    write_atomic(&path, jsonl.as_bytes()).with_context(|| format!("writing {}", path.display()))?;
    let mut text = Vec::new();
    print_text(&mut text, summary, meta)?;
    let path = dir.join(format!("{stem}.txt"));
    write_atomic(&path, &text).with_context(|| format!("writing {}", path.display()))?;
    if all_decks {
        let mut decks = String::new();
        for u in units {
            for d in &u.non_terminating_decks {
                decks.push_str(&crate::notation::format_hand(d));
                decks.push('\n');
            }
        }
        let path = dir.join(format!("{stem}-decks.txt"));
        write_atomic(&path, decks.as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

pub(super) fn print_text(out: &mut dyn Write, s: &Value, meta: &Value) -> std::io::Result<()> {
    writeln!(out, "# {}", meta["command"].as_str().unwrap_or(""))?;
    writeln!(
        out,
        "# ansatz {}; libraries {}; template {}",
        meta["ansatz_version"].as_str().unwrap_or(""),
        meta["libraries"],
        meta["template"].as_str().unwrap_or("")
    )?;
    writeln!(out, "decks tested      {}", s["decks_tested"])?;
    writeln!(out, "non-terminating   {}", s["non_terminating"])?;
    writeln!(out, "distinct cycles   {}", s["cycles_found"])?;
    writeln!(
        out,
        "balanced cycles   {} ({} with their mirror images, the players exchanged)",
        s["balanced_cycles"], s["balanced_cycles_with_mirrors"]
    )?;
    writeln!(
        out,
        "balanced deals    {} ({} with their mirror images)",
        s["balanced_total"], s["balanced_total_with_mirrors"]
    )?;
    let reach: Vec<String> = s["reach_histogram"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| format!("{}: {}", r["reach"], r["cycles"]))
        .collect();
    writeln!(
        out,
        "cycles by reach   {} (reach: the most cards the smaller hand holds in any position of the family)",
        reach.join(", ")
    )?;
    writeln!(
        out,
        "seconds           {:.2}",
        s["seconds"].as_f64().unwrap_or(0.0)
    )?;
    if let Some(p) = s.get("partial") {
        writeln!(
            out,
            "partial           shards {} of {} only",
            p["shards"], p["of"]
        )?;
    }
    let nearest = s["nearest_unbalanced"].as_array().filter(|n| !n.is_empty());
    if let Some(nearest) = nearest {
        writeln!(out)?;
        writeln!(out, "unbalanced cycles closest to balance:")?;
        for c in nearest {
            writeln!(
                out,
                "  reach {:>2}  period {:>4}  closure {:>8}  deck {}",
                c["reach"],
                c["period"],
                c["closure_size"],
                c["deck"].as_str().unwrap_or("")
            )?;
        }
    }
    for c in s["cycles"].as_array().into_iter().flatten() {
        writeln!(out)?;
        writeln!(out, "cycle {}", c["cycle_id"].as_str().unwrap_or(""))?;
        writeln!(
            out,
            "  period {} tricks; {} decks reach it; closure {} positions, reach {}{}",
            c["period"],
            c["decks"],
            c["closure_size"],
            c["reach"],
            if c["closure_complete"] == true {
                ""
            } else {
                " (partial)"
            }
        )?;
        writeln!(out, "  deck     {}", c["deck"].as_str().unwrap_or(""))?;
        if let Some(m) = c["mirror_cycle_id"].as_str() {
            writeln!(
                out,
                "  mirror   {m} (the mirror image of each deal below reaches it)"
            )?;
        }
        let balanced = c["balanced"].as_array().map_or(0, Vec::len);
        writeln!(out, "  balanced deals: {balanced}")?;
        for b in c["balanced"].as_array().into_iter().flatten() {
            writeln!(out, "    {}", b.as_str().unwrap_or(""))?;
        }
    }
    Ok(())
}
