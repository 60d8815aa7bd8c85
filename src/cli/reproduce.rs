//! `ansatz reproduce`: reruns the command recorded in result files into a scratch folder and
//! compares the facts, file by file.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use anyhow::{Context, Result};
use serde_json::{Value, json};

use super::output::{BadInput, Out};
use crate::provenance::split_facts;
use crate::reproduce::{Check, Recorded, first_difference, produced, read, rerun_args};

/// Rerun the command recorded in result files and check that their facts come out the same.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz reproduce results/assemble/paper-2024-k3.jsonl
  ansatz reproduce results/*/*.jsonl --max-seconds 10
  ansatz reproduce results/census/table1.jsonl --max-seconds 60 --json

Each result file keeps its facts (counts, cycles, deals) apart from its provenance (the `run`
object: command, version, commit, threads, seconds, machine). reproduce reruns the recorded
command with its output in a scratch folder and compares the facts of the new file with the old;
timings and threads are not compared. A table whose rows each carry a `run` (the census tables)
is checked row by row. Run it from the repository root: recorded commands name files relative to
it. Files whose recorded run took longer than --max-seconds are listed as skipped.
Exit code 0 when every file checked is the same, 1 when one differs, 2 on bad input.")]
pub struct Args {
    /// Result files (JSON or JSON lines with a `run` object).
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// Skip files (or table rows) whose recorded run took longer than S seconds.
    #[arg(long, value_name = "S")]
    max_seconds: Option<f64>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// The verdict on one file.
struct Verdict {
    status: &'static str,
    seconds: f64,
    difference: Option<String>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    if let Some(s) = args.max_seconds
        && (s.is_nan() || s < 0.0)
    {
        return Err(BadInput(format!("--max-seconds {s}: must be 0 or more")).into());
    }
    // Every file is read and understood before anything runs: bad input stops at once.
    let mut checks = Vec::with_capacity(args.files.len());
    for f in &args.files {
        let text =
            std::fs::read_to_string(f).map_err(|e| BadInput(format!("{}: {e}", f.display())))?;
        checks.push(read(f, &text).map_err(|e| BadInput(e.to_string()))?);
    }
    let exe = std::env::current_exe().context("finding the ansatz binary")?;
    let scratch_root =
        std::env::temp_dir().join(format!("ansatz-reproduce-{}", std::process::id()));
    let mut out = Out::new();
    let mut rows = Vec::new();
    let mut differs = false;
    for (n, (file, check)) in args.files.iter().zip(&checks).enumerate() {
        let scratch = scratch_root.join(n.to_string());
        let v = verdict(&exe, check, &scratch, args.max_seconds)?;
        differs |= v.status == "differs";
        if !args.json {
            let note = v
                .difference
                .as_deref()
                .map(|d| format!(": {d}"))
                .unwrap_or_default();
            writeln!(
                out,
                "{:<8} {} ({:.1} s){note}",
                v.status,
                file.display(),
                v.seconds
            )?;
            out.flush()?;
        }
        rows.push(json!({
            "file": file.display().to_string(),
            "status": v.status,
            "seconds": v.seconds,
            "difference": v.difference,
        }));
    }
    let _ = std::fs::remove_dir_all(&scratch_root);
    if args.json {
        let count = |s: &str| rows.iter().filter(|r| r["status"] == s).count();
        let v = json!({
            "same": count("same"),
            "differs": count("differs"),
            "skipped": count("skipped"),
            "files": rows,
        });
        out.json(&v)?;
    }
    Ok(if differs {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn verdict(exe: &Path, check: &Check, scratch: &Path, max: Option<f64>) -> Result<Verdict> {
    let over = |r: &Recorded| max.is_some_and(|m| r.seconds > m);
    match check {
        Check::File(r) => {
            if over(r) {
                return Ok(Verdict {
                    status: "skipped",
                    seconds: r.seconds,
                    difference: None,
                });
            }
            let (diff, secs) = rerun(exe, r, scratch)?;
            Ok(Verdict {
                status: if diff.is_some() { "differs" } else { "same" },
                seconds: secs,
                difference: diff,
            })
        }
        Check::Rows(rows) => {
            let (mut secs, mut checked, mut skipped) = (0.0, 0, 0);
            for (i, r) in rows.iter().enumerate() {
                if over(r) {
                    skipped += 1;
                    continue;
                }
                let (diff, s) = rerun(exe, r, &scratch.join(format!("row{i}")))?;
                secs += s;
                checked += 1;
                if let Some(d) = diff {
                    return Ok(Verdict {
                        status: "differs",
                        seconds: secs,
                        difference: Some(format!("row {}: {d}", i + 1)),
                    });
                }
            }
            Ok(Verdict {
                status: if checked == 0 { "skipped" } else { "same" },
                seconds: secs,
                difference: (skipped > 0 && checked > 0)
                    .then(|| format!("{checked} rows checked, {skipped} skipped")),
            })
        }
    }
}

/// Reruns one recorded command; the first difference of its facts (or why it could not be
/// compared), and the seconds the rerun took.
fn rerun(exe: &Path, r: &Recorded, scratch: &Path) -> Result<(Option<String>, f64)> {
    let _ = std::fs::remove_dir_all(scratch);
    std::fs::create_dir_all(scratch).with_context(|| format!("creating {}", scratch.display()))?;
    let started = Instant::now();
    let o = Command::new(exe)
        .args(rerun_args(r, scratch))
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("running {}", exe.display()))?;
    let secs = started.elapsed().as_secs_f64();
    // Exit 1 means "nothing found", which some recorded runs are.
    if !matches!(o.status.code(), Some(0 | 1)) {
        let err = String::from_utf8_lossy(&o.stderr);
        let last = err.lines().last().unwrap_or("").to_string();
        return Ok((
            Some(format!("the rerun failed ({}): {last}", o.status)),
            secs,
        ));
    }
    let Some(new_file) = produced(&r.path, scratch) else {
        return Ok((Some("the rerun wrote no matching result file".into()), secs));
    };
    let text = std::fs::read_to_string(&new_file)
        .with_context(|| format!("reading {}", new_file.display()))?;
    let new_facts: Vec<Value> = match split_facts(&text) {
        Some((facts, _)) => facts,
        None => return Ok((Some("the rerun's file is not JSON".into()), secs)),
    };
    Ok((first_difference(&r.facts, &new_facts), secs))
}
