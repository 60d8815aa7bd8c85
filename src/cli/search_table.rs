//! `ansatz search table`: gathers `search exhaustive` result files into the census table
//! (`NAME.jsonl` and `NAME.md`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use super::output::{BadInput, Out};
use crate::run::table::write_table;

/// Gather exhaustive-search result files into one census table (JSON lines and markdown).
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Examples:
  ansatz search table out/table1/exhaustive-*.json --out out/table1
  ansatz search table out/table1/exhaustive-*.json --out results/census --notes results/census/table1-notes.md
  ansatz search table results/census/table1.jsonl out/table1/exhaustive-23-*.json --out results/census --notes results/census/table1-notes.md

Each row is a result file's object as written, its `run` (command, seconds, machine) included, so
`ansatz reproduce NAME.jsonl` checks the table row by row. Rows are ordered by face set, number
cards and the holder of the extra card; a deck given twice is refused (exit 2).
scripts/table1.sh runs every deck of the census and then this command.")]
pub struct TableArgs {
    /// Result files of `ansatz search exhaustive` (two players), or earlier tables (`.jsonl`,
    /// whose rows are taken as they are: a fresh clone adds decks to the committed table).
    #[arg(value_name = "FILES", required = true)]
    files: Vec<PathBuf>,
    /// Directory for NAME.jsonl and NAME.md.
    #[arg(long, default_value = crate::provenance::DEFAULT_OUT, value_name = "DIR")]
    out: PathBuf,
    /// Name of the table files.
    #[arg(long, default_value = "table1", value_parser = super::assemble::parse_name)]
    name: String,
    /// A markdown file of findings to append to the page.
    #[arg(long, value_name = "FILE")]
    notes: Option<PathBuf>,
}

pub fn run(a: TableArgs) -> Result<ExitCode> {
    let notes = match &a.notes {
        Some(p) => {
            std::fs::read_to_string(p).map_err(|e| BadInput(format!("{}: {e}", p.display())))?
        }
        None => String::new(),
    };
    let (rows, path, md) = write_table(&a.files, &a.out, &a.name, &notes)?;
    let mut out = Out::new();
    writeln!(
        out,
        "{rows} rows -> {} and {}",
        path.display(),
        md.display()
    )?;
    Ok(ExitCode::SUCCESS)
}
