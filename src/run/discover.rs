//! `discover` as a run: the route of [`crate::discover`] on one machine, its checkpoint under
//! `DIR/work/`, and its result files `DIR/NAME.jsonl` and `DIR/NAME.txt`.

use std::path::Path;
use std::time::Instant;

use serde_json::json;

use super::RunError;
use super::random::write;
use crate::card::DeckSpec;
use crate::discover::{Config, DiscoverError, Discovery, Observer};
use crate::provenance::Run;

/// A finished discovery: what it found, the result files, its wall time and threads.
pub struct DiscoverAnswer {
    pub found: Discovery,
    pub files: Vec<String>,
    pub seconds: f64,
    pub threads: usize,
}

/// The name of a discovery's files: `discover-DECK[-quick]`.
pub fn name(deck: DeckSpec, quick: bool) -> String {
    format!(
        "discover-{}{}",
        if deck.is_standard() {
            "standard".to_string()
        } else if deck == DeckSpec::CAMICIA {
            "camicia".to_string()
        } else {
            deck.to_string()
        },
        if quick { "-quick" } else { "" }
    )
}

/// Runs the discovery of `config` (resuming from its checkpoint with `resume`) and writes its
/// result files to `out`. A stop before the end (`DiscoverError::Stopped`) is returned as it is.
pub fn run(
    config: &Config,
    out: &Path,
    quick: bool,
    resume: bool,
    threads: Option<usize>,
    observer: &dyn Observer,
) -> Result<Result<DiscoverAnswer, DiscoverError>, RunError> {
    let started = Instant::now();
    let name = name(config.deck, quick);
    let work = super::job::checkpoint_path(&out.join("work"), &name, None, "checkpoint");
    let pool = super::pool(threads)?;
    let found = match pool.install(|| crate::discover::run(config, &work, resume, observer)) {
        Ok(d) => d,
        Err(e @ (DiscoverError::Checkpoint(_) | DiscoverError::Replay(_))) => {
            return Err(RunError::failed(e));
        }
        Err(e @ DiscoverError::Stopped(_)) => return Ok(Err(e)),
        Err(e) => return Err(RunError::input(e)),
    };
    let seconds = started.elapsed().as_secs_f64();
    let threads = pool.current_num_threads();
    let run = Run::here(crate::provenance::this_command(), threads, seconds);
    let files = write_files(out, &name, &found, &run)?;
    Ok(Ok(DiscoverAnswer {
        found,
        files,
        seconds,
        threads,
    }))
}

/// The readable report (without the run).
pub fn text(d: &Discovery) -> String {
    let mut s = format!(
        "deck      {}\nscope     {}\nframe     {}\nfilter    {}\n",
        d.deck,
        d.scope,
        d.frame,
        d.filter.as_deref().unwrap_or("none")
    );
    s.push_str(&format!(
        "accumulators (accumulation >= {}): {}\n",
        d.accumulation_threshold,
        d.accumulators.len()
    ));
    for a in &d.accumulators {
        s.push_str(&format!(
            "  {}  accumulation {}  (head {}, piece {})\n",
            a.shape, a.accumulation, a.head, a.piece
        ));
    }
    s.push_str("censuses\n");
    for c in &d.censuses {
        s.push_str(&format!(
            "  {}  {} decks, {} never end, {} cycles{}\n",
            c.shape,
            c.decks,
            c.non_terminating,
            c.cycles,
            c.skipped
                .as_deref()
                .map(|r| format!(" (skipped: {r})"))
                .unwrap_or_default()
        ));
    }
    s.push_str(&format!("cycles by reach  {:?}\n", d.reach_histogram));
    let deals: usize = d.balanced_cycles.iter().map(|b| b.balanced.len()).sum();
    s.push_str(&format!(
        "balanced cycles  {} (up to exchanging the players), {deals} deals\n",
        d.balanced_cycles.len()
    ));
    for (i, b) in d.balanced_cycles.iter().enumerate() {
        s.push_str(&format!(
            "  {:>3}  {}  period {}  closure {}  {} deals  (census {})\n",
            i + 1,
            b.cycle_id,
            b.period,
            b.closure_size,
            b.balanced.len(),
            b.census
        ));
    }
    s
}

/// DIR/NAME.jsonl (a summary line, one line per balanced cycle with its deals, one per stage, the
/// run line) and DIR/NAME.txt.
fn write_files(dir: &Path, name: &str, d: &Discovery, run: &Run) -> Result<Vec<String>, RunError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| RunError::failed(format!("creating {}: {e}", dir.display())))?;
    let mut lines = vec![
        json!({"summary": {
            "deck": d.deck, "scope": d.scope, "frame": d.frame, "filter": d.filter,
            "accumulation_threshold": d.accumulation_threshold,
            "accumulators": d.accumulators, "censuses": d.censuses,
            "reach_histogram": d.reach_histogram,
            "balanced_cycles": d.balanced_cycles.len(),
            "balanced_deals": d.balanced_cycles.iter().map(|b| b.balanced.len()).sum::<usize>(),
        }})
        .to_string(),
    ];
    lines.extend(
        d.balanced_cycles
            .iter()
            .map(|b| json!({ "cycle": b }).to_string()),
    );
    lines.extend(d.stages.iter().map(|s| {
        json!({"stage": {"name": s.name, "work": s.work, "unit": s.unit, "cycles": s.cycles,
            "balanced_cycles": s.balanced_cycles, "reach_histogram": s.reach_histogram,
            "summary": s.summary}})
        .to_string()
    }));
    lines.push(run.line());
    let jsonl = dir.join(format!("{name}.jsonl"));
    let txt = dir.join(format!("{name}.txt"));
    write(&jsonl, (lines.join("\n") + "\n").as_bytes())?;
    let mut t = text(d);
    for b in &d.balanced_cycles {
        t.push_str(&format!(
            "\ncycle {}  (mirror {})\n",
            b.cycle_id, b.mirror_cycle_id
        ));
        for deal in &b.balanced {
            t.push_str(&format!("  {deal}\n"));
        }
    }
    t.push_str(&run.text_block());
    write(&txt, t.as_bytes())?;
    Ok(vec![jsonl.display().to_string(), txt.display().to_string()])
}
