//! The catalogue of balanced cycles: every cycle with balanced deals in a set of result files
//! (`*.jsonl` of `assemble` and of `discover` on the standard deck), told apart by cycle id, each
//! pair of mirror images counted once, and every balanced deal replayed with the reference engine
//! before it is listed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::card::DeckSpec;
use crate::engine::Outcome;
use crate::notation::Notation;
use crate::position::Position;

/// Why a result file cannot be read, or a listed deal does not hold.
#[derive(Debug, Error)]
pub enum CatalogueError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}, line {line}: {reason}")]
    Format {
        path: PathBuf,
        line: usize,
        reason: String,
    },
    #[error("{path}: balanced deal {deal}: {reason}")]
    Deal {
        path: PathBuf,
        deal: String,
        reason: String,
    },
}

/// One line of an `assemble` or `discover` result file, as far as the catalogue reads it.
#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum Line {
    Meta(Meta),
    Summary(serde::de::IgnoredAny),
    Cycle(CycleLine),
    Stage(serde::de::IgnoredAny),
    Run(Meta),
}

/// The first line of a `discover` result file, as far as telling its deck.
#[derive(Deserialize)]
struct DiscoverHead {
    summary: DiscoverSummary,
}

#[derive(Deserialize)]
struct DiscoverSummary {
    deck: String,
    scope: String,
}

/// The command of a result file: in its `run` line (or, written by older versions, its meta).
#[derive(Deserialize)]
struct Meta {
    command: Option<String>,
}

#[derive(Deserialize)]
struct CycleLine {
    cycle_id: String,
    period: u64,
    deck: String,
    closure_size: u64,
    balanced: Vec<String>,
}

/// A balanced cycle of the catalogue and where it was found.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Entry {
    pub cycle_id: String,
    /// The cycle with the players exchanged; its balanced deals are the mirror images of these.
    pub mirror_cycle_id: String,
    pub period: u64,
    pub closure_size: u64,
    /// A deck of the frame that plays into the cycle.
    pub deck: String,
    /// Every balanced deal of the family, sorted.
    pub balanced: Vec<String>,
    /// The result files that list the cycle (or its mirror image), and the first one's command.
    pub files: Vec<String>,
    pub command: String,
}

/// The catalogue: one entry per balanced cycle up to exchanging the players.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Catalogue {
    /// Result files read, in the order read.
    pub files: Vec<String>,
    pub entries: Vec<Entry>,
}

impl Catalogue {
    /// Balanced cycles, counting a cycle and its mirror image once.
    pub fn cycles(&self) -> usize {
        self.entries.len()
    }

    /// Balanced cycles counting mirror images apart (a cycle can be its own mirror image).
    pub fn cycles_with_mirrors(&self) -> usize {
        self.entries
            .iter()
            .map(|e| {
                if e.cycle_id == e.mirror_cycle_id {
                    1
                } else {
                    2
                }
            })
            .sum()
    }

    pub fn deals(&self) -> usize {
        self.entries.iter().map(|e| e.balanced.len()).sum()
    }

    pub fn deals_with_mirrors(&self) -> usize {
        self.entries
            .iter()
            .map(|e| {
                e.balanced.len()
                    * if e.cycle_id == e.mirror_cycle_id {
                        1
                    } else {
                        2
                    }
            })
            .sum()
    }
}

/// Every result file under `paths` (files as given; in directories, every `*.jsonl` whose first
/// line is an assemble meta line or the summary of a discovery on the standard deck), sorted.
pub fn result_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, CatalogueError> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out)?;
        } else {
            out.push(p.clone());
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), CatalogueError> {
    let io = |source| CatalogueError::Io {
        path: dir.to_path_buf(),
        source,
    };
    for e in std::fs::read_dir(dir).map_err(io)? {
        let path = e.map_err(io)?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else if path.extension().is_some_and(|x| x == "jsonl") && is_result_file(&path) {
            out.push(path);
        }
    }
    Ok(())
}

/// Whether a file opens with an `assemble` meta line, or is a discovery on the standard deck
/// (other decks' balanced deals are not 26/26 standard deals).
fn is_result_file(path: &Path) -> bool {
    use std::io::BufRead;
    let mut first = String::new();
    let read =
        std::fs::File::open(path).and_then(|f| std::io::BufReader::new(f).read_line(&mut first));
    if read.is_err() {
        return false;
    }
    first.starts_with("{\"meta\":{")
        || serde_json::from_str::<DiscoverHead>(&first).is_ok_and(|h| {
            !h.summary.scope.is_empty()
                && h.summary
                    .deck
                    .parse::<DeckSpec>()
                    .is_ok_and(|d| d.is_standard())
        })
}

/// Reads `files` (standard-deck `assemble` and `discover` results) and builds the catalogue. Each balanced deal is
/// checked: a standard deck dealt 26/26, whose game (reference engine) never ends and reaches the
/// cycle listed; its mirror image reaches the mirror cycle. A cycle listed in several files, or
/// listed in one and its mirror image in another, is one entry whose deals are the union.
pub fn build(files: &[PathBuf]) -> Result<Catalogue, CatalogueError> {
    let mut cat = Catalogue::default();
    // Keyed by the smaller of the cycle id and its mirror's, so both sides land on one entry.
    let mut by_key: BTreeMap<String, Entry> = BTreeMap::new();
    for path in files {
        let text = std::fs::read_to_string(path).map_err(|source| CatalogueError::Io {
            path: path.clone(),
            source,
        })?;
        let name = path.display().to_string();
        let bad = |i: usize, reason: String| CatalogueError::Format {
            path: path.clone(),
            line: i + 1,
            reason,
        };
        let mut lines = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line: Line =
                serde_json::from_str(raw).map_err(|e| bad(i, format!("not a result line: {e}")))?;
            lines.push(line);
        }
        if !matches!(lines.first(), Some(Line::Meta(_) | Line::Summary(_))) {
            return Err(bad(
                0,
                "the first line is neither a meta nor a summary line".into(),
            ));
        }
        let command = lines
            .iter()
            .rev()
            .find_map(|l| match l {
                Line::Run(m) | Line::Meta(m) => m.command.clone(),
                _ => None,
            })
            .map(|c| crate::provenance::normalize_command(&c))
            .ok_or_else(|| bad(0, "no command in the file".into()))?;
        let command = &command;
        for line in lines {
            let Line::Cycle(c) = line else { continue };
            if c.balanced.is_empty() {
                continue;
            }
            let checked = check_cycle(path, &c)?;
            let key = checked
                .cycle_id
                .clone()
                .min(checked.mirror_cycle_id.clone());
            let entry = by_key.entry(key).or_insert_with(|| Entry {
                files: Vec::new(),
                command: command.clone(),
                ..checked.clone()
            });
            // Seen from the mirror side, the deals are the mirror images of this side's.
            let deals: Vec<String> = if checked.cycle_id == entry.cycle_id {
                checked.balanced
            } else {
                checked
                    .balanced
                    .iter()
                    .map(|d| mirror(d).to_string())
                    .collect()
            };
            entry.balanced.extend(deals);
            entry.balanced.sort();
            entry.balanced.dedup();
            if !entry.files.contains(&name) {
                entry.files.push(name.clone());
            }
        }
        cat.files.push(name);
    }
    let mut entries: Vec<Entry> = by_key.into_values().collect();
    // Most balanced deals first, then by cycle id: a stable order for the files and the diff.
    entries.sort_by(|a, b| {
        b.balanced
            .len()
            .cmp(&a.balanced.len())
            .then(a.cycle_id.cmp(&b.cycle_id))
    });
    cat.entries = entries;
    Ok(cat)
}

fn mirror(deal: &str) -> Position {
    Position::parse(deal, Notation::Dash)
        .expect("checked")
        .mirrored()
}

/// Replays every balanced deal of one cycle line (reference engine) and fills in the mirror cycle.
fn check_cycle(path: &Path, c: &CycleLine) -> Result<Entry, CatalogueError> {
    let standard: DeckSpec = "standard".parse().expect("the standard deck");
    let fail = |deal: &str, reason: String| CatalogueError::Deal {
        path: path.to_path_buf(),
        deal: deal.to_string(),
        reason,
    };
    let mut mirror_id = None;
    let mut balanced = Vec::with_capacity(c.balanced.len());
    for d in &c.balanced {
        let pos = Position::parse(d, Notation::Dash).map_err(|e| fail(d, e.to_string()))?;
        pos.check_deck(&standard)
            .map_err(|e| fail(d, e.to_string()))?;
        pos.check_balanced().map_err(|e| fail(d, e.to_string()))?;
        let reaches = |p: &Position| match crate::engine::reference::play(p) {
            Outcome::Cycle(info) => Ok(info.cycle_id.to_string()),
            Outcome::Terminates { .. } => Err(fail(d, "the game ends".into())),
        };
        let id = reaches(&pos)?;
        if id != c.cycle_id {
            return Err(fail(d, format!("reaches {id}, not {}", c.cycle_id)));
        }
        let m = reaches(&pos.mirrored())?;
        if mirror_id.get_or_insert_with(|| m.clone()) != &m {
            return Err(fail(d, "its mirror image reaches another cycle".into()));
        }
        balanced.push(pos.to_string());
    }
    balanced.sort();
    Ok(Entry {
        cycle_id: c.cycle_id.clone(),
        mirror_cycle_id: mirror_id.expect("at least one deal"),
        period: c.period,
        closure_size: c.closure_size,
        deck: c.deck.clone(),
        balanced,
        files: Vec::new(),
        command: String::new(),
    })
}
