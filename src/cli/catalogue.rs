//! `ansatz catalogue`: the balanced cycles of every `assemble` result file under the given paths,
//! replayed, deduplicated up to mirror images, and written as one catalogue.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use super::output::{BadInput, Out};
use crate::assemble::catalogue::{build, result_files};
use crate::run::catalogue::write_catalogue;

/// Gather every balanced cycle of `assemble` result files into one verified catalogue.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz catalogue                          # every assemble result file under results/
  ansatz catalogue results/assemble --json
  ansatz catalogue --out results/balanced   # rewrite the tracked catalogue
  ansatz catalogue a.jsonl b.jsonl --out /tmp/cat
  ansatz catalogue results/assemble --html out/catalogue   # open out/catalogue/index.html

Reads the JSON lines that `ansatz assemble` and `ansatz merge` write (standard deck), keeps the
cycles with balanced deals, and replays every balanced deal and its mirror image with the
reference engine: a deal that is not a 26/26 standard deal, ends, or reaches another cycle than
the file says is an error (exit 2). A cycle and its mirror image (the players exchanged) are one
entry. Writes OUT/balanced-cycles.jsonl (a summary line, then one line per cycle with all its
deals, then the run line) and OUT/balanced-cycles.txt (readable), OUT by default out/. Exit code 1 when no balanced cycle is found.")]
pub struct Args {
    /// Result files or directories (searched for assemble result files). Default: results.
    #[arg(value_name = "PATHS")]
    paths: Vec<PathBuf>,
    /// Directory for balanced-cycles.jsonl and balanced-cycles.txt.
    #[arg(long, default_value = crate::provenance::DEFAULT_OUT, value_name = "DIR")]
    out: PathBuf,
    /// Print one JSON object (the summary and every cycle).
    #[arg(long)]
    json: bool,
    /// Also write the catalogue as a static page: DIR/index.html (summary table, every cycle's
    /// figures, plot and balanced deals) and DIR/family-N.svg beside it. Works offline.
    #[arg(long, value_name = "DIR")]
    html: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let started = std::time::Instant::now();
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from("results")]
    } else {
        args.paths.clone()
    };
    for p in &paths {
        if !p.exists() {
            return Err(BadInput(format!("{}: no such file or directory", p.display())).into());
        }
    }
    let files = result_files(&paths).map_err(|e| BadInput(e.to_string()))?;
    let cat = build(&files).map_err(|e| BadInput(e.to_string()))?;
    let (summary, text) = write_catalogue(
        &cat,
        &args.out,
        crate::provenance::this_command(),
        started.elapsed().as_secs_f64(),
    )?;
    if let Some(dir) = &args.html {
        let pb = super::progress::bar(cat.entries.len() as u64, "cycles drawn", args.json);
        crate::picture::page::write_page(dir, &cat, &|n| pb.inc(n))
            .map_err(|e| BadInput(e.to_string()))?;
        pb.finish_and_clear();
    }
    let mut out = Out::new();
    if args.json {
        let mut v = summary;
        v["cycles"] = serde_json::to_value(&cat.entries)?;
        out.json(&v)?;
    } else {
        out.write_all(&text)?;
        out.flush()?;
    }
    Ok(if cat.entries.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
