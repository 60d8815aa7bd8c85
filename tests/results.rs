//! Results a user can rerun: `ansatz reproduce` on the tracked result files, a tampered copy
//! reported as different, bad input, and a clean clone staying clean after the main job.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::common::{ansatz, stdout};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tmp(name: &str) -> PathBuf {
    let d =
        crate::common::scratch_root().join(format!("ansatz-results-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Every JSON or JSON-lines file under `results/`.
fn result_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            result_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "jsonl" || x == "json") {
            out.push(p);
        }
    }
}

/// Runs `ansatz reproduce` from the repository root (recorded commands name files relative to it).
fn reproduce(args: &[&str]) -> std::process::Output {
    super::common::ansatz_command()
        .arg("reproduce")
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

#[test]
fn every_cheap_tracked_result_file_reproduces() {
    let mut files = Vec::new();
    result_files(&root().join("results"), &mut files);
    files.sort();
    let names: Vec<String> = files
        .iter()
        .map(|p| p.strip_prefix(root()).unwrap().display().to_string())
        .collect();
    let mut args: Vec<&str> = names.iter().map(String::as_str).collect();
    args.extend(["--max-seconds", "10", "--json"]);
    let o = reproduce(&args);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&o.stderr));
    });
    assert_eq!(o.status.code(), Some(0), "{v:#}");
    assert_eq!(v["differs"], 0);
    let same: Vec<&str> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["status"] == "same")
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    // The main job and the catalogue at least (each well under 10 s).
    assert!(
        same.contains(&"results/assemble/paper-2024-k3.jsonl"),
        "{same:?}"
    );
    assert!(
        same.contains(&"results/balanced/balanced-cycles.jsonl"),
        "{same:?}"
    );
    assert_eq!(v["files"].as_array().unwrap().len(), files.len());
}

#[test]
fn a_count_changed_by_hand_is_reported() {
    let dir = tmp("tampered");
    let text =
        std::fs::read_to_string(root().join("results/assemble/paper-2024-k3.jsonl")).unwrap();
    let changed = text.replacen("\"cycles_found\":6304", "\"cycles_found\":6305", 1);
    assert_ne!(changed, text, "the count to change is in the file");
    let copy = dir.join("paper-2024-k3.jsonl");
    std::fs::write(&copy, changed).unwrap();
    let o = reproduce(&[copy.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["files"][0]["status"], "differs");
    let diff = v["files"][0]["difference"].as_str().unwrap();
    assert!(
        diff.contains("cycles_found") && diff.contains("6305"),
        "{diff}"
    );
}

#[test]
fn files_that_are_not_results_are_bad_input() {
    let dir = tmp("bad");
    let no_command = dir.join("x.json");
    std::fs::write(&no_command, "{\"deals\":1,\"run\":{\"seconds\":1}}\n").unwrap();
    for f in [
        root().join("README.md"),
        no_command,
        dir.join("missing.jsonl"),
    ] {
        let o = ansatz(&["reproduce", f.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{}", f.display());
        assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
    }
    let o = ansatz(&["reproduce"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn the_main_job_leaves_a_clone_clean() {
    // A small stand-in for a clone: the tracked results and the ignore file, committed.
    let dir = tmp("clean");
    let git = |args: &[&str]| {
        let o = Command::new("git")
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("git");
        assert!(
            o.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    std::fs::copy(root().join(".gitignore"), dir.join(".gitignore")).unwrap();
    let src = root().join("results/assemble");
    std::fs::create_dir_all(dir.join("results/assemble")).unwrap();
    for e in std::fs::read_dir(&src).unwrap().flatten() {
        std::fs::copy(e.path(), dir.join("results/assemble").join(e.file_name())).unwrap();
    }
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&[
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@t",
        "commit",
        "-qm",
        "x",
    ]);
    let o = super::common::ansatz_command()
        .args(["assemble", "--balance", "-q"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        dir.join("out/assemble-paper-2024-k3-balance.jsonl")
            .exists()
    );
    assert_eq!(
        git(&["status", "--porcelain"]),
        "",
        "the main job dirtied the clone"
    );
}

#[test]
fn checkpoints_and_shard_files_never_go_under_results() {
    let dir = tmp("work");
    let run = |args: &[&str]| {
        let o = super::common::ansatz_command()
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    run(&[
        "search",
        "exhaustive",
        "--deck",
        "6-2J2Q",
        "--shard",
        "0/2",
        "--out",
        "results/s",
        "-q",
    ]);
    run(&[
        "assemble",
        "--balance",
        "--shard",
        "0/3",
        "--out",
        "results/a",
        "-q",
    ]);
    run(&[
        "find-pieces",
        "--max-len",
        "8",
        "--shard",
        "0/2",
        "--out",
        "results/p/x.bin",
        "-q",
    ]);
    let mut under_results = Vec::new();
    let mut stack = vec![dir.join("results")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            if e.path().is_dir() {
                stack.push(e.path());
            } else {
                under_results.push(e.path());
            }
        }
    }
    assert!(under_results.is_empty(), "{under_results:?}");
    let work = dir.join("out/work/results");
    assert!(work.join("s").read_dir().unwrap().count() >= 1);
    assert!(work.join("a").read_dir().unwrap().count() >= 1);
    assert!(work.join("p").read_dir().unwrap().count() >= 1);
}

/// The deals of a census row that never end, listed by cycle in `results/census/cycles-*.txt`
/// (`scripts/census-cycles.sh`): every one replayed with the reference engine reaches the cycle
/// it is listed under, and the counts are the census row's (issue 25: a cycle past 32 cards is
/// listed with its deals).
#[test]
fn the_listed_census_cycles_replay_with_the_reference_engine() {
    for row in &census_cycles_rows() {
        listed_cycles_replay(row);
    }
}

/// Each `results/census/cycles-*.txt` is exactly what `scripts/census-cycles.sh` writes from the
/// committed census (its row in `table1.jsonl`, or the slices in `shards/census/`) and backward
/// play, its count check included: the listing can be remade from the clone, and a census that
/// disagreed with backward play would make the script fail.
#[test]
fn the_census_cycles_files_are_what_the_script_writes() {
    for row in &census_cycles_rows() {
        let name = format!("cycles-{}.txt", row.name);
        let mut args = vec![row.deck.clone()];
        if let Some(extra) = row.extra {
            args.extend(["--extra-card".to_string(), extra.to_string()]);
        }
        let o = census_cycles(&args);
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let want = std::fs::read_to_string(root().join("results/census").join(&name)).unwrap();
        assert_eq!(String::from_utf8(o.stdout).unwrap(), want, "{name}");
    }
}

/// The script refuses a row that does not exist, with exit 2: an odd deck without its extra
/// card, an even deck with one.
#[test]
fn the_census_cycles_script_refuses_a_row_that_does_not_exist() {
    for args in [
        &["23-2J2Q2K2A"][..],
        &["30-2J2Q2K2A", "--extra-card", "1"],
        &["23-2J2Q2K2A", "--extra-card", "3"],
        &["standard"],
    ] {
        let o = census_cycles(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.starts_with("census-cycles: "), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

/// `scripts/census-cycles.sh ARGS` run from the clone with the built binary.
fn census_cycles<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> std::process::Output {
    Command::new("bash")
        .arg("scripts/census-cycles.sh")
        .args(args)
        .current_dir(root())
        .env("ANSATZ", env!("CARGO_BIN_EXE_ansatz"))
        .output()
        .unwrap()
}

/// Every script in `scripts/` answers `--help` with its header comment, usage line included,
/// without running anything (no binary is needed for it).
#[test]
fn every_script_answers_help() {
    let dir = root().join("scripts");
    let mut scripts: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sh"))
        .collect();
    scripts.sort();
    assert!(scripts.len() >= 5, "{scripts:?}");
    for script in &scripts {
        let o = Command::new("bash")
            .arg(script)
            .arg("--help")
            .current_dir(root())
            .env("ANSATZ", "/nonexistent/ansatz")
            .output()
            .unwrap();
        let out = String::from_utf8(o.stdout).unwrap();
        assert!(o.status.success(), "{script:?}: {out}");
        assert!(out.contains("Usage: scripts/"), "{script:?}: {out}");
        assert!(!out.contains("set -euo"), "{script:?}: {out}");
    }
}

/// One census row with a `results/census/cycles-NAME.txt`: NAME is the deck, with `-extra1` or
/// `-extra2` for an odd deck's rows (the extra card with player 1 or 2).
struct CyclesRow {
    name: String,
    deck: String,
    extra: Option<u8>,
}

/// The rows with a `results/census/cycles-*.txt`, sorted by name (n = 30 and n = 23's first row
/// at least).
fn census_cycles_rows() -> Vec<CyclesRow> {
    let mut rows: Vec<CyclesRow> = std::fs::read_dir(root().join("results/census"))
        .unwrap()
        .filter_map(|e| {
            let file = e.unwrap().file_name().into_string().unwrap();
            let name = file.strip_prefix("cycles-")?.strip_suffix(".txt")?;
            let (deck, extra) = match name.rsplit_once("-extra") {
                Some((deck, k)) => (deck, Some(k.parse().unwrap())),
                None => (name, None),
            };
            Some(CyclesRow {
                name: name.to_string(),
                deck: deck.to_string(),
                extra,
            })
        })
        .collect();
    rows.sort_by(|a, b| a.name.cmp(&b.name));
    let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    assert!(names.contains(&"30-2J2Q2K2A"), "{names:?}");
    assert!(names.contains(&"23-2J2Q2K2A-extra1"), "{names:?}");
    rows
}

/// [`the_listed_census_cycles_replay_with_the_reference_engine`] for one row: its deals are
/// half the cards each (an even deck) or one more for the player holding the extra card, and
/// player 1 moves first.
fn listed_cycles_replay(row: &CyclesRow) {
    use ansatz::card::DeckSpec;
    use ansatz::engine::{Outcome, reference};
    use ansatz::notation::Notation;
    use ansatz::position::Position;
    let deck = row.deck.as_str();
    let text =
        std::fs::read_to_string(root().join(format!("results/census/cycles-{}.txt", row.name)))
            .unwrap();
    let spec: DeckSpec = deck.parse().unwrap();
    let (small, big) = (spec.total() / 2, spec.total().div_ceil(2));
    let hands = match row.extra {
        None => (small, small),
        Some(1) => (big, small),
        Some(_) => (small, big),
    };
    assert_eq!(hands.0 + hands.1, spec.total(), "{}", row.name);
    let pos = |s: &str| Position::parse(s.trim(), Notation::Dash).unwrap();
    // (cycle, period, listed count, deals)
    let mut listed: Vec<(Position, u64, usize, Vec<Position>)> = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        if let Some(rest) = line.strip_prefix("cycle ") {
            let (id, tail) = rest.split_once("  period ").unwrap();
            let words: Vec<&str> = tail.split_whitespace().collect();
            listed.push((
                pos(id),
                words[0].parse().unwrap(),
                words[4].parse().unwrap(),
                Vec::new(),
            ));
        } else {
            listed.last_mut().unwrap().3.push(pos(line));
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    for (cycle, period, count, deals) in &listed {
        assert_eq!(deals.len(), *count, "{cycle}");
        for d in deals {
            assert!(seen.insert(d.to_string()), "{d} listed twice");
            assert_eq!(d.deck(), spec, "{d}");
            assert_eq!(
                (d.hands[0].len(), d.hands[1].len(), d.to_move),
                (hands.0, hands.1, 0),
                "{d}"
            );
            let Outcome::Cycle(c) = reference::play(d) else {
                panic!("{d} ends");
            };
            assert_eq!((&c.cycle_id, c.period), (cycle, *period), "{d}");
        }
    }
    // The census row: the same deals in all, and the same count for each cycle.
    let table = std::fs::read_to_string(root().join("results/census/table1.jsonl")).unwrap();
    let row: serde_json::Value = table
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|v| v["deck"] == deck && v["extra_card"].as_u64() == row.extra.map(u64::from))
        .unwrap_or_else(|| panic!("{}: no such row in table1.jsonl", row.name));
    assert_eq!(
        row["non_terminating"].as_u64().unwrap() as usize,
        seen.len()
    );
    let by_row: Vec<(String, u64)> = row["distinct_cycles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["cycle_id"].as_str().unwrap().to_string(),
                c["deals"].as_u64().unwrap(),
            )
        })
        .collect();
    let by_list: Vec<(String, u64)> = listed
        .iter()
        .map(|(c, _, n, _)| (c.to_string(), *n as u64))
        .collect();
    assert_eq!(by_list, by_row);
}
