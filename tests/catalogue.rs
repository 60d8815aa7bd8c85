//! `ansatz catalogue`: the balanced cycles of shipped result files, deduplicated across files and
//! mirror images, every deal replayed; tampered and foreign files refused.

use super::common::{ansatz, stdout};
use ansatz::notation::Notation;
use ansatz::position::Position;
use serde_json::Value;
use std::path::{Path, PathBuf};

const MAIN_JOB: &str = "results/assemble/paper-2024-k3.jsonl";
const NEW_ACCUMULATOR: &str = "results/assemble/k-accumulator.jsonl";

fn dir(name: &str) -> PathBuf {
    let d = crate::common::scratch_root().join(format!("ansatz-cat-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn catalogue(files: &[&str], out: &Path) -> Value {
    let mut args = vec!["catalogue", "--json", "--out", out.to_str().unwrap()];
    args.extend_from_slice(files);
    let o = ansatz(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_str(&stdout(&o)).unwrap()
}

// Source: arXiv:2403.13855 (2024): the published pieces give the paper's balanced deal; the main
// job's file lists it among 120 deals of 4 cycles (8 with mirror images), as results/README.md says.
#[test]
fn the_main_job_file_gives_the_four_cycles_of_the_paper() {
    let out = dir("main");
    // The same cycles listed twice (and the K-piece census lists them again) stay four entries.
    let v = catalogue(
        &[MAIN_JOB, MAIN_JOB, "results/assemble/around-kaa.jsonl"],
        &out,
    );
    assert_eq!(v["balanced_cycles"], 4);
    assert_eq!(v["balanced_cycles_with_mirrors"], 8);
    assert_eq!(v["balanced_deals"], 120);
    let deals: Vec<&str> = v["cycles"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["balanced"].as_array().unwrap())
        .map(|d| d.as_str().unwrap())
        .collect();
    assert!(deals.contains(&"---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)"));
    // The files it writes hold the same answer.
    let text = std::fs::read_to_string(out.join("balanced-cycles.txt")).unwrap();
    assert!(
        text.contains("balanced cycles   4 (8 counting mirror images apart)"),
        "{text}"
    );
    let lines = std::fs::read_to_string(out.join("balanced-cycles.jsonl")).unwrap();
    // The summary, one line per cycle, the run.
    assert_eq!(lines.lines().count(), 1 + 4 + 1);
}

/// The census around the new accumulator adds 8 cycles no earlier file has.
#[test]
fn the_new_accumulator_adds_eight_cycles() {
    let v = catalogue(&[MAIN_JOB, NEW_ACCUMULATOR], &dir("acc"));
    assert_eq!(v["balanced_cycles"], 12);
    assert_eq!(v["balanced_deals"], 120 + 169);
    for c in v["cycles"].as_array().unwrap() {
        for d in c["balanced"].as_array().unwrap() {
            let p = Position::parse(d.as_str().unwrap(), Notation::Dash).unwrap();
            assert!(p.is_balanced());
        }
    }
}

/// A cycle listed from the other side (the players exchanged) is the same entry, its deals the
/// mirror images.
#[test]
fn a_mirror_listing_is_the_same_cycle() {
    let d = dir("mirror");
    let text = std::fs::read_to_string(MAIN_JOB).unwrap();
    let mut mirrored = String::new();
    for line in text.lines() {
        let mut v: Value = serde_json::from_str(line).unwrap();
        if let Some(c) = v.get_mut("cycle") {
            let m = c["mirror_cycle_id"].as_str().unwrap().to_string();
            let deals: Vec<String> = c["balanced"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| {
                    Position::parse(x.as_str().unwrap(), Notation::Dash)
                        .unwrap()
                        .mirrored()
                        .to_string()
                })
                .collect();
            c["mirror_cycle_id"] = c["cycle_id"].clone();
            c["cycle_id"] = Value::from(m);
            c["balanced"] = Value::from(deals);
        }
        mirrored.push_str(&v.to_string());
        mirrored.push('\n');
    }
    let path = d.join("assemble-mirrored.jsonl");
    std::fs::write(&path, mirrored).unwrap();
    let v = catalogue(&[MAIN_JOB, path.to_str().unwrap()], &d.join("out"));
    assert_eq!(v["balanced_cycles"], 4);
    assert_eq!(v["balanced_deals"], 120);
    let alone = catalogue(&[path.to_str().unwrap()], &d.join("alone"));
    assert_eq!(alone["balanced_cycles"], 4);
    assert_eq!(alone["balanced_deals"], 120);
}

/// A deal that does not reach its cycle, a broken line, a missing path: exit 2 with the reason.
#[test]
fn bad_result_files_are_refused() {
    let d = dir("bad");
    let text = std::fs::read_to_string(MAIN_JOB).unwrap();
    // Exchange two cards of one deal: still 26/26, but no longer a deal of that cycle.
    let deal = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)";
    let other = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J----AK- (1)";
    assert!(text.contains(deal));
    let tampered = d.join("assemble-tampered.jsonl");
    std::fs::write(&tampered, text.replace(deal, other)).unwrap();
    let truncated = d.join("assemble-truncated.jsonl");
    std::fs::write(&truncated, &text[..text.len() / 2]).unwrap();
    for (path, says) in [
        (tampered.to_str().unwrap(), "balanced deal"),
        (truncated.to_str().unwrap(), "line"),
        ("no/such/dir", "no such file"),
    ] {
        let o = ansatz(&["catalogue", path, "--out", d.join("out").to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{path}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{path}: {err}");
    }
}
