//! Checking a result file by running its command again: reading the file's facts and recorded
//! command, pointing the command's output at a scratch folder, and comparing the facts of the
//! new file with the old. Spawning the process is the caller's (the CLI's) business.

use std::path::{Path, PathBuf};

use serde_json::Value;
use thiserror::Error;

use crate::provenance::{RUN_KEY, split_command, split_facts};

/// Why a file cannot be checked.
#[derive(Debug, Error, PartialEq)]
pub enum ReproduceError {
    #[error("{0}: not a result file (JSON or JSON lines with a `run` object)")]
    NotResult(String),
    #[error("{0}: no command in its `run` object")]
    NoCommand(String),
    #[error("{0}: the recorded command {1:?} is not an ansatz command")]
    BadCommand(String, String),
}

/// A result file as read for checking: its facts and how to make it again.
#[derive(Clone, Debug, PartialEq)]
pub struct Recorded {
    pub path: PathBuf,
    /// The facts: every line but the `run` line (one value for a JSON file).
    pub facts: Vec<Value>,
    /// The recorded command's arguments, without the program name.
    pub args: Vec<String>,
    /// Seconds the recorded run took (0 when not recorded).
    pub seconds: f64,
}

/// One result file to check: a whole file, or one row of a table whose rows each carry their own
/// `run` (such as the census tables).
#[derive(Clone, Debug, PartialEq)]
pub enum Check {
    File(Recorded),
    Rows(Vec<Recorded>),
}

fn recorded(path: &Path, facts: Vec<Value>, run: &Value) -> Result<Recorded, ReproduceError> {
    let name = path.display().to_string();
    let command = run["command"]
        .as_str()
        .ok_or_else(|| ReproduceError::NoCommand(name.clone()))?;
    let args = split_command(command)
        .filter(|a| a.len() >= 2 && a[0] == "ansatz")
        .ok_or_else(|| ReproduceError::BadCommand(name.clone(), command.to_string()))?;
    Ok(Recorded {
        path: path.to_path_buf(),
        facts,
        args: args[1..].to_vec(),
        seconds: run["seconds"].as_f64().unwrap_or(0.0),
    })
}

/// Reads a result file's text: a file with one `run`, or a table whose every row has its own.
pub fn read(path: &Path, text: &str) -> Result<Check, ReproduceError> {
    let name = path.display().to_string();
    let (facts, run) = split_facts(text).ok_or_else(|| ReproduceError::NotResult(name.clone()))?;
    if let Some(run) = run {
        return Ok(Check::File(recorded(path, facts, &run)?));
    }
    let rows: Option<Vec<Recorded>> = (!facts.is_empty())
        .then(|| {
            facts
                .iter()
                .map(|row| {
                    let mut row = row.clone();
                    let run = row.as_object_mut()?.remove(RUN_KEY)?;
                    recorded(path, vec![row], &run).ok()
                })
                .collect()
        })
        .flatten();
    rows.map(Check::Rows).ok_or(ReproduceError::NotResult(name))
}

/// Subcommands whose `--out` names a file rather than a folder.
const OUT_IS_FILE: &[&str] = &["family", "find-pieces"];

/// The arguments that rerun `r` with its output in `scratch`: the recorded `--out` replaced (a
/// file keeps its name), or added when the command used its default.
pub fn rerun_args(r: &Recorded, scratch: &Path) -> Vec<String> {
    let out_is_file = r
        .args
        .first()
        .is_some_and(|c| OUT_IS_FILE.contains(&c.as_str()));
    let mut args = Vec::with_capacity(r.args.len() + 2);
    let mut old_out = None;
    let mut it = r.args.iter();
    while let Some(a) = it.next() {
        if a == "--out" {
            old_out = it.next().cloned();
        } else if let Some(v) = a.strip_prefix("--out=") {
            old_out = Some(v.to_string());
        } else {
            args.push(a.clone());
        }
    }
    let target = if out_is_file {
        let name = old_out
            .as_deref()
            .and_then(|o| Path::new(o).file_name().map(|n| n.to_os_string()))
            .unwrap_or_else(|| "result.json".into());
        scratch.join(name)
    } else {
        scratch.to_path_buf()
    };
    args.push("--out".into());
    args.push(target.display().to_string());
    args
}

/// The file of the rerun that corresponds to `original`: the same name in `scratch`, else the
/// one file there with the same extension, else the one JSON or JSON-lines file (a table row's
/// command writes a file of its own); checkpoints and shard files aside.
pub fn produced(original: &Path, scratch: &Path) -> Option<PathBuf> {
    let same = scratch.join(original.file_name()?);
    if same.is_file() {
        return Some(same);
    }
    let files: Vec<PathBuf> = std::fs::read_dir(scratch)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let n = p.file_name().unwrap_or_default().to_string_lossy();
            p.is_file() && !n.contains(".checkpoint") && !n.contains(".shard-")
        })
        .collect();
    let only = |keep: &dyn Fn(&Path) -> bool| {
        let mut found: Vec<&PathBuf> = files.iter().filter(|p| keep(p)).collect();
        (found.len() == 1).then(|| found.remove(0).clone())
    };
    only(&|p| p.extension() == original.extension())
        .or_else(|| only(&|p| p.extension().is_some_and(|x| x == "json" || x == "jsonl")))
}

/// The first difference between two lists of facts, as a readable path and the two values;
/// `None` when they are equal.
pub fn first_difference(old: &[Value], new: &[Value]) -> Option<String> {
    for (i, (a, b)) in old.iter().zip(new).enumerate() {
        if let Some(d) = diff_value(a, b, String::new()) {
            return Some(format!("line {}: {d}", i + 1));
        }
    }
    (old.len() != new.len())
        .then(|| format!("{} fact lines recorded, {} now", old.len(), new.len()))
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 80 {
        format!("{}…", s.chars().take(77).collect::<String>())
    } else {
        s
    }
}

fn diff_value(a: &Value, b: &Value, path: String) -> Option<String> {
    let at = |p: &str| {
        if p.is_empty() {
            "(top)".to_string()
        } else {
            p.to_string()
        }
    };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match y.get(k) {
                    Some(vb) => {
                        if let Some(d) = diff_value(va, vb, p) {
                            return Some(d);
                        }
                    }
                    None => return Some(format!("{p}: recorded {}, now missing", short(va))),
                }
            }
            y.keys().find(|k| !x.contains_key(*k)).map(|k| {
                format!(
                    "{}: not recorded, now {}",
                    at(&format!("{path}.{k}")),
                    short(&y[k])
                )
            })
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                if let Some(d) = diff_value(va, vb, format!("{path}[{i}]")) {
                    return Some(d);
                }
            }
            (x.len() != y.len())
                .then(|| format!("{}: {} items recorded, {} now", at(&path), x.len(), y.len()))
        }
        _ => (a != b).then(|| format!("{}: recorded {}, now {}", at(&path), short(a), short(b))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_file_and_its_rerun_arguments() {
        let text = "{\"meta\":{\"deck\":\"x\"}}\n{\"summary\":{\"n\":1}}\n{\"run\":{\"command\":\"ansatz assemble --balance --out results/assemble --name paper\",\"seconds\":4.5}}\n";
        let Check::File(r) = read(Path::new("a.jsonl"), text).unwrap() else {
            panic!("a file")
        };
        assert_eq!(r.facts.len(), 2);
        assert_eq!(r.seconds, 4.5);
        assert_eq!(
            rerun_args(&r, Path::new("/tmp/s")),
            [
                "assemble",
                "--balance",
                "--name",
                "paper",
                "--out",
                "/tmp/s"
            ]
        );
    }

    #[test]
    fn rows_each_with_a_run() {
        let text = "{\"deck\":\"6-2J2Q2K2A\",\"run\":{\"command\":\"ansatz search exhaustive --deck 6-2J2Q2K2A\"}}\n{\"deck\":\"0-2J2Q2K2A\",\"run\":{\"command\":\"ansatz search exhaustive --deck 0-2J2Q2K2A\"}}\n";
        let Check::Rows(rows) = read(Path::new("t.jsonl"), text).unwrap() else {
            panic!("rows")
        };
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].facts, vec![json!({"deck": "0-2J2Q2K2A"})]);
    }

    #[test]
    fn files_without_a_command_are_refused() {
        assert!(matches!(
            read(Path::new("x"), "not json"),
            Err(ReproduceError::NotResult(_))
        ));
        assert!(matches!(
            read(Path::new("x"), "{\"a\":1}\n"),
            Err(ReproduceError::NotResult(_))
        ));
        assert!(matches!(
            read(Path::new("x"), "{\"a\":1,\"run\":{\"seconds\":1}}"),
            Err(ReproduceError::NoCommand(_))
        ));
    }

    #[test]
    fn differences_name_their_place() {
        let old = vec![json!({"summary": {"n": 1, "l": [1, 2]}})];
        let new = vec![json!({"summary": {"n": 1, "l": [1, 3]}})];
        assert_eq!(
            first_difference(&old, &new).unwrap(),
            "line 1: summary.l[1]: recorded 2, now 3"
        );
        assert_eq!(first_difference(&old, &old), None);
        assert!(
            first_difference(&old, &[])
                .unwrap()
                .contains("1 fact lines")
        );
    }
}
