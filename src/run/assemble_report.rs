//! What an `ansatz assemble` run reports: the summary JSON of finished units and families, the
//! result files (JSON lines, readable text, the decks), the text view, and the merge of shard files
//! into the single-run answer.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::RunError;
use super::shard::ShardFile;
use super::shard::decode_part;
use super::write;
use crate::assemble::records::{Elapsed, FamilyDone, Record, mirror_cycles, upgrade_all};
use crate::assemble::{CycleHit, UnitDone, merge};
use crate::backward::closure::Config as ClosureConfig;
use crate::card::Card;
use crate::position::Position;
use crate::provenance::{Run, normalize_command};

/// What `ansatz merge` needs, besides the records, to write the single-run answer.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct RunContext {
    pub stem: String,
    pub meta: String,
    pub other: Vec<Card>,
    pub to_move: u8,
    pub cards: usize,
    pub balance: bool,
}

/// Merges the shard files of one `assemble` run into its single-run answer: the same JSON, the
/// same result files (in `out`). Returns the summary and the meta of the run. Without `out`, the
/// files may be some of the shards only (`merge --partial`): the summary then names them and no
/// result file is written.
pub fn merge_shards(files: &[ShardFile], out: Option<&Path>) -> Result<(Value, Value), RunError> {
    let started = Instant::now();
    let bad = |what: &str| RunError::Input(format!("shard file: {what}"));
    let context: RunContext =
        decode_part(&files[0].context, "assemble context").map_err(RunError::input)?;
    let mut units = Vec::new();
    let mut families = BTreeMap::new();
    // Each shard's own time (the sum of its runs), when its file records it.
    let mut timed = Vec::new();
    let mut untimed = Vec::new();
    for f in files {
        let records: Vec<Record> =
            decode_part(&f.records, "assemble records").map_err(RunError::input)?;
        let mut elapsed = Vec::new();
        collect(
            records,
            context.cards,
            &mut units,
            &mut families,
            &mut elapsed,
        );
        match Elapsed::total(&elapsed) {
            Some(s) => timed.push(s),
            None => untimed.push(f.shard.index),
        }
    }
    units.sort_by_key(|u| u.index);
    if units.windows(2).any(|w| w[0].index == w[1].index) {
        return Err(bad("a unit appears in two shards"));
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
    let threads = rayon::current_num_threads();
    // The job array's time is the sum of its shards' (as the census rows' are); shard files
    // written before they recorded their time leave the merge's own.
    let seconds = if timed.is_empty() {
        None
    } else {
        Some(timed.iter().sum::<f64>())
    };
    let mut summary = finish(
        &context,
        out,
        &units,
        &families,
        seconds.unwrap_or_else(|| started.elapsed().as_secs_f64()),
        threads,
    )?;
    if seconds.is_some() {
        summary["seconds_summed_over_shards"] = json!(timed.len());
    }
    if !untimed.is_empty() {
        summary["shards_without_seconds"] = json!(untimed);
    }
    // With `out`, `read_set` has checked that every shard is here.
    if out.is_none() {
        let shards: Vec<u32> = files.iter().map(|f| f.shard.index).collect();
        summary["partial"] = json!({"shards": shards, "of": files[0].shard.count});
    }
    let meta: Value = serde_json::from_str(&context.meta).map_err(|_| bad("bad meta"))?;
    Ok((summary, meta))
}

/// Sorts `records` into finished units and the families of their cycles (one a cycle). Shard
/// files and checkpoints do not record the closure limit: families written before the reach are
/// built again with the default one (or, when partial, with the limit that stops where they did).
pub fn collect(
    records: Vec<Record>,
    cards: usize,
    units: &mut Vec<UnitDone>,
    families: &mut BTreeMap<u128, FamilyDone>,
    elapsed: &mut Vec<Elapsed>,
) {
    for r in upgrade_all(records, cards, &ClosureConfig::default()) {
        match r {
            Record::Unit(u) => units.push(u),
            Record::Family(f) => {
                families.entry(f.cycle_key).or_insert(f);
            }
            Record::Elapsed(e) => elapsed.push(e),
            Record::FamilyWithoutReach(_) => unreachable!("upgraded"),
        }
    }
}

/// How many of the unbalanced cycles that come closest to balance the summary lists.
const NEAREST: usize = 10;

/// Builds the summary of finished units and the families of their cycles (in cycle-key order)
/// and writes the result files.
pub fn finish(
    ctx: &RunContext,
    dir: Option<&Path>,
    units: &[UnitDone],
    families: &[FamilyDone],
    seconds: f64,
    threads: usize,
) -> Result<Value, RunError> {
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
        "seconds": seconds,
        "cycles": cycle_json,
    });
    if let Some(dir) = dir {
        let meta: Value = serde_json::from_str(&ctx.meta).map_err(RunError::input)?;
        // Runs of older versions recorded the program path and the steering flags.
        let command = normalize_command(meta["command"].as_str().unwrap_or("ansatz assemble"));
        let run = Run::here(command, threads, seconds);
        write_results(dir, &ctx.stem, &meta, &summary, units, !ctx.balance, &run)?;
    }
    Ok(summary)
}

/// The facts of a run's meta: what was assembled, without the command and version (provenance).
pub(crate) fn meta_facts(meta: &Value) -> Value {
    let mut m = meta.clone();
    if let Some(o) = m.as_object_mut() {
        o.remove("command");
        o.remove("ansatz_version");
    }
    m
}

/// `DIR/STEM.jsonl` (a meta line, a summary line, one line per reported cycle: the facts; then
/// the `run` line, the provenance), `DIR/STEM.txt` (readable, the run last), and without
/// `--balance` `DIR/STEM-decks.txt` (every non-terminating deck).
fn write_results(
    dir: &Path,
    stem: &str,
    meta: &Value,
    summary: &Value,
    units: &[UnitDone],
    all_decks: bool,
    run: &Run,
) -> Result<(), RunError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| RunError::failed(format!("creating {}: {e}", dir.display())))?;
    let facts = meta_facts(meta);
    let mut jsonl = String::new();
    jsonl.push_str(&json!({"meta": facts}).to_string());
    jsonl.push('\n');
    let mut head = summary.clone();
    head.as_object_mut().unwrap().remove("cycles");
    head.as_object_mut().unwrap().remove("seconds");
    jsonl.push_str(&json!({"summary": head}).to_string());
    jsonl.push('\n');
    for c in summary["cycles"].as_array().unwrap() {
        jsonl.push_str(&json!({"cycle": c}).to_string());
        jsonl.push('\n');
    }
    jsonl.push_str(&run.line());
    jsonl.push('\n');
    let path = dir.join(format!("{stem}.jsonl"));
    write(&path, jsonl.as_bytes())?;
    let mut text = Vec::new();
    let mut facts_summary = summary.clone();
    facts_summary.as_object_mut().unwrap().remove("seconds");
    print_text(&mut text, &facts_summary, &facts).map_err(RunError::failed)?;
    text.extend_from_slice(run.text_block().as_bytes());
    let path = dir.join(format!("{stem}.txt"));
    write(&path, &text)?;
    if all_decks {
        let mut decks = String::new();
        for u in units {
            for d in &u.non_terminating_decks {
                decks.push_str(&crate::notation::format_hand(d));
                decks.push('\n');
            }
        }
        let path = dir.join(format!("{stem}-decks.txt"));
        write(&path, decks.as_bytes())?;
    }
    Ok(())
}

/// The readable summary: on stdout with the seconds, in a result file without them (its run
/// block closes the file instead).
pub fn print_text(out: &mut dyn Write, s: &Value, meta: &Value) -> std::io::Result<()> {
    writeln!(
        out,
        "# ansatz assemble: deck {}; libraries {}; template {}; {} pieces",
        meta["deck"].as_str().unwrap_or(""),
        meta["libraries"],
        meta["template"].as_str().unwrap_or(""),
        meta["pieces"]
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
    if let Some(secs) = s.get("seconds").and_then(Value::as_f64) {
        let over = s["seconds_summed_over_shards"]
            .as_u64()
            .map_or(String::new(), |n| format!(" (summed over {n} shards)"));
        writeln!(out, "seconds           {secs:.2}{over}")?;
    }
    if let Some(list) = s["shards_without_seconds"].as_array() {
        let list: Vec<String> = list.iter().map(Value::to_string).collect();
        writeln!(
            out,
            "untimed shards    {} (written before shard files recorded their time)",
            list.join(", ")
        )?;
    }
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
