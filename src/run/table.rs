//! The census table's result files: `DIR/NAME.jsonl` (one row a line) and `DIR/NAME.md` (the
//! table for people, with the notes appended), gathered from exhaustive-search result files and
//! earlier tables.

use std::path::{Path, PathBuf};

use super::RunError;
use super::write;
use crate::search::table::{jsonl, markdown, row, sort};

/// The title of the census page.
const TITLE: &str = "The census of small decks (Paulhus's Table 1, finished)";

/// Reads the result files, sorts their rows and writes the table files; returns the row count and
/// the two paths.
pub fn write_table(
    files: &[PathBuf],
    dir: &Path,
    name: &str,
    notes: &str,
) -> Result<(usize, PathBuf, PathBuf), RunError> {
    let mut rows = Vec::with_capacity(files.len());
    for f in files {
        let name = f.display().to_string();
        let text =
            std::fs::read_to_string(f).map_err(|e| RunError::Input(format!("{name}: {e}")))?;
        // A table of earlier rows (NAME.jsonl, one row a line) extends like its result files, so
        // a fresh clone adds a deck to the committed table without rerunning the others.
        if name.ends_with(".jsonl") {
            for (i, line) in text
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
            {
                let at = format!("{name}:{}", i + 1);
                let value = serde_json::from_str(line)
                    .map_err(|e| RunError::Input(format!("{at}: not JSON: {e}")))?;
                rows.push(row(&at, value).map_err(RunError::input)?);
            }
            continue;
        }
        let value = serde_json::from_str(&text)
            .map_err(|e| RunError::Input(format!("{name}: not JSON: {e}")))?;
        rows.push(row(&name, value).map_err(RunError::input)?);
    }
    let rows = sort(rows).map_err(RunError::input)?;
    let path = dir.join(format!("{name}.jsonl"));
    write(&path, jsonl(&rows).as_bytes())?;
    let md = dir.join(format!("{name}.md"));
    write(&md, markdown(&rows, TITLE, notes).as_bytes())?;
    Ok((rows.len(), path, md))
}
