//! `ansatz assemble`: the main job on the built-in published pieces, reproducibility, resume, and
//! bad libraries.

use super::common::{add_to_checkpoint, ansatz, json_with_isa, stdout};
use ansatz::engine::Outcome;
use ansatz::notation::Notation;
use ansatz::position::Position;
use serde_json::Value;
use std::path::Path;

const PAPER_DEAL: &str = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)";

fn run_json(args: &[&str]) -> Value {
    let o = ansatz(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_str(&stdout(&o)).unwrap()
}

fn tmp(name: &str) -> String {
    let d =
        crate::common::scratch_root().join(format!("ansatz-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d.display().to_string()
}

// Source: arXiv:2403.13855 (2024): the balanced deal is found from the published pieces.
#[test]
fn main_job_finds_the_2024_balanced_deal() {
    let out = tmp("main");
    let v = run_json(&["assemble", "--balance", "--json", "--out", &out]);
    assert!(v["decks_tested"].as_u64().unwrap() > 1_000_000);
    assert!(v["balanced_total"].as_u64().unwrap() >= 28);
    let cycles = v["cycles"].as_array().unwrap();
    assert!(!cycles.is_empty());
    let all: Vec<&str> = cycles
        .iter()
        .flat_map(|c| c["balanced"].as_array().unwrap())
        .map(|b| b.as_str().unwrap())
        .collect();
    assert!(all.contains(&PAPER_DEAL), "the 2024 deal is among {all:?}");
    for c in cycles {
        assert_eq!(c["period"], 62);
        assert!(c["closure_size"].as_u64().unwrap() > 0);
        assert_eq!(c["reach"], 26, "a family with balanced deals reaches 26/26");
    }
    // Cycles by reach count every cycle once, largest reach first, the balanced ones at 26; the
    // closest unbalanced cycles come below 26, in order, and their families say so.
    let hist = v["reach_histogram"].as_array().unwrap();
    let reach = |x: &Value| x["reach"].as_u64().unwrap();
    assert!(hist.windows(2).all(|w| reach(&w[0]) > reach(&w[1])));
    assert_eq!(
        hist.iter()
            .map(|h| h["cycles"].as_u64().unwrap())
            .sum::<u64>(),
        v["cycles_found"].as_u64().unwrap()
    );
    assert_eq!(
        (reach(&hist[0]), &hist[0]["cycles"]),
        (26, &v["balanced_cycles"])
    );
    let nearest = v["nearest_unbalanced"].as_array().unwrap();
    assert!(!nearest.is_empty());
    assert!(nearest.windows(2).all(|w| reach(&w[0]) >= reach(&w[1])));
    assert_eq!(reach(&nearest[0]), reach(&hist[1]));
    let f = run_json(&["family", "--json", nearest[0]["deck"].as_str().unwrap()]);
    assert_eq!(
        (&f["reach"], f["balanced_count"].as_u64()),
        (&nearest[0]["reach"], Some(0))
    );
    // Every balanced deal really never ends and is a 26/26 standard deal.
    for b in &all {
        let p = run_json(&["play", "--json", "--deck", "standard", b]);
        assert_eq!(p["outcome"], "cycle", "{b}");
        let hands: Vec<&str> = b.split(' ').next().unwrap().split('/').collect();
        assert_eq!((hands[0].len(), hands[1].len()), (26, 26));
    }
    // The mirror image of every balanced deal (players exchanged) reaches the reported mirror
    // cycle, and the counts with mirrors count the distinct cycles of both kinds.
    let mut ids: std::collections::BTreeSet<&str> = cycles
        .iter()
        .map(|c| c["cycle_id"].as_str().unwrap())
        .collect();
    let mut with_mirrors = 0;
    for c in cycles {
        let mirror = c["mirror_cycle_id"].as_str().expect("a mirror cycle id");
        if ids.insert(mirror) {
            with_mirrors += c["balanced"].as_array().unwrap().len();
        }
        for b in c["balanced"].as_array().unwrap() {
            let p = Position::parse(b.as_str().unwrap(), Notation::Auto).unwrap();
            match ansatz::engine::play(&p.mirrored()) {
                Outcome::Cycle(m) => assert_eq!(m.cycle_id.to_string(), mirror, "{b}"),
                o => panic!("the mirror of {b} ends: {o:?}"),
            }
        }
    }
    assert_eq!(v["balanced_cycles_with_mirrors"], ids.len());
    assert_eq!(
        v["balanced_total_with_mirrors"],
        v["balanced_total"].as_u64().unwrap() as usize + with_mirrors
    );
    assert!(
        Path::new(&out)
            .join("assemble-paper-2024-k3-balance.jsonl")
            .exists()
    );
    let text = std::fs::read_to_string(Path::new(&out).join("assemble-paper-2024-k3-balance.txt"))
        .unwrap();
    assert!(text.contains(PAPER_DEAL));
    assert!(text.contains("assemble"), "the summary names its command");
}

fn strip_seconds(mut v: Value) -> Value {
    v.as_object_mut().unwrap().remove("seconds");
    v
}

#[test]
fn same_answer_for_any_thread_count_and_after_resume() {
    let a = tmp("t1");
    let b = tmp("t2");
    let c = tmp("resume");
    let args = |dir: &str, threads: &str| {
        vec![
            "assemble".to_string(),
            "--limit".into(),
            "400000".into(),
            "--json".into(),
            "--out".into(),
            dir.into(),
            "--threads".into(),
            threads.into(),
        ]
    };
    let run = |v: Vec<String>| {
        let refs: Vec<&str> = v.iter().map(String::as_str).collect();
        strip_seconds(run_json(&refs))
    };
    let one = run(args(&a, "1"));
    let two = run(args(&b, "2"));
    assert_eq!(one, two);
    assert!(one["non_terminating"].as_u64().unwrap() > 0);
    // Interrupted after 3 units (as a kill would leave it), then resumed.
    let mut first = args(&c, "2");
    first.extend(["--stop-after-units".to_string(), "3".into()]);
    let refs: Vec<&str> = first.iter().map(String::as_str).collect();
    let o = ansatz(&refs);
    assert_eq!(o.status.code(), Some(1), "an interrupted run exits 1");
    // Exactly 3 with two threads: a unit counts when it starts, not when it ends.
    let said = String::from_utf8_lossy(&o.stderr);
    assert!(said.contains("stopped after 3 of"), "{said}");
    let again = ansatz(&args(&c, "2").iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(
        again.status.code(),
        Some(2),
        "a checkpoint exists: --resume is needed"
    );
    // The stopped run left its time in the checkpoint; make it 1000 s. The resumed run counts
    // it with its own.
    add_earlier_run(&c, 1000.0);
    let mut resumed = args(&c, "1");
    resumed.push("--resume".into());
    let refs: Vec<&str> = resumed.iter().map(String::as_str).collect();
    let v = run_json(&refs);
    let secs = v["seconds"].as_f64().unwrap();
    assert!((1000.0..1100.0).contains(&secs), "{secs}");
    assert_eq!(strip_seconds(v), one);
}

/// Appends to the assemble checkpoint in `dir` the time record of one more earlier run.
fn add_earlier_run(dir: &str, seconds: f64) {
    use ansatz::assemble::records::{Elapsed, Record};
    let path = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "checkpoint"))
        .expect("a checkpoint");
    let earlier = add_to_checkpoint(
        &path,
        Record::Elapsed(Elapsed {
            segment: 1,
            seconds,
        }),
    );
    assert!(earlier.iter().any(|r| matches!(r, Record::Elapsed(_))));
}

#[test]
fn bad_libraries_exit_2_with_the_path() {
    let dir = tmp("bad");
    std::fs::create_dir_all(&dir).unwrap();
    let junk = Path::new(&dir).join("junk.bin");
    std::fs::write(&junk, b"not a library at all").unwrap();
    let junk = junk.display().to_string();
    for lib in [junk.as_str(), "/nonexistent/pieces.bin"] {
        let o = ansatz(&["assemble", "--library", lib, "--out", &dir]);
        assert_eq!(o.status.code(), Some(2), "{lib}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(lib), "{err}");
    }
    let o = ansatz(&["assemble", "--resume", "--out", &dir]);
    assert_eq!(o.status.code(), Some(2), "--resume without a checkpoint");
}

// Source: arXiv:2403.13855 (2024), Appendix C: the 16 constructed games are assembled from their own
// pieces in `--faces members` mode (pieces as they are, every order).
#[test]
fn members_mode_rebuilds_the_16_published_games() {
    let dir = tmp("members");
    std::fs::create_dir_all(&dir).unwrap();
    let games = super::common::data_lines("games-2024.txt");
    let mut pieces: Vec<String> = games
        .iter()
        .flat_map(|g| {
            let h1 = g.split('/').next().unwrap();
            let parts: Vec<&str> = h1.split('J').collect();
            parts[..parts.len() - 1]
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    pieces.sort();
    pieces.dedup();
    let text = Path::new(&dir).join("pieces.txt");
    std::fs::write(&text, pieces.join("\n")).unwrap();
    let lib = Path::new(&dir).join("pieces.bin").display().to_string();
    let o = ansatz(&[
        "find-pieces",
        "--from-text",
        &text.display().to_string(),
        "--out",
        &lib,
        "-q",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v = run_json(&[
        "assemble",
        "--library",
        &lib,
        "--faces",
        "members",
        "--json",
        "--out",
        &dir,
    ]);
    assert!(v["decks_tested"].as_u64().unwrap() >= 16);
    let decks =
        std::fs::read_to_string(Path::new(&dir).join("assemble-pieces-k3-members-decks.txt"))
            .unwrap();
    let decks: Vec<&str> = decks.lines().collect();
    for g in &games {
        let h1 = g.split('/').next().unwrap();
        assert!(decks.contains(&h1), "{h1} is assembled and never ends");
    }
}

// Source: arXiv:2403.13855 (2024), §6: `--K---A----AA` is the piece that makes balance possible;
// requiring it finds the same balanced cycles as the full run over the published pieces.
#[test]
fn require_keeps_a_piece_in_every_deck() {
    let dir = tmp("require");
    let v = run_json(&[
        "assemble",
        "--require=--K---A----AA",
        "--balance",
        "--json",
        "--out",
        &dir,
    ]);
    let full = run_json(&["assemble", "--balance", "--json", "--out", &dir]);
    let ids = |v: &Value| {
        let mut ids: Vec<String> = v["cycles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["cycle_id"].as_str().unwrap().to_string())
            .collect();
        ids.sort();
        ids
    };
    assert_eq!(ids(&v), ids(&full));
    assert!(v["decks_tested"].as_u64().unwrap() < full["decks_tested"].as_u64().unwrap());
    let o = ansatz(&["assemble", "--require=--KKKKKA", "--out", &dir]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "a required piece that does not fit the deck"
    );
}

// `--rest all` against the plain definition: every wildcard assignment, every arrangement of the
// rest of the deck (multiset permutations in lexicographic order), each deck played alone.
#[test]
fn rest_all_equals_every_deck_around_the_piece_played_alone() {
    use ansatz::assemble::candidates::{Frame, next_permutation};
    use ansatz::assemble::rest::parse_shape;
    use ansatz::assemble::{Plan, merge};
    use ansatz::engine::{Outcome, play};
    use ansatz::position::Position;
    use std::collections::BTreeMap;

    let frame = Frame::jack("12-4J2Q2K2A".parse().unwrap());
    let shape = parse_shape("--X-X").unwrap();
    let plan = Plan::around(frame.clone(), 3, shape, 64).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let units = pool.install(|| plan.run(&[], u64::MAX, true, &|_| {}, &|| false));
    let got = merge(&units);

    let mut decks = 0u64;
    let mut never_end = 0u64;
    let mut cycles: BTreeMap<u128, u64> = BTreeMap::new();
    for (i, j) in [
        (2, 2),
        (2, 3),
        (2, 4),
        (3, 2),
        (3, 3),
        (3, 4),
        (4, 2),
        (4, 3),
        (4, 4),
    ] {
        // The rest: 10 - 3 numbers, one J between the other two pieces, the faces left.
        let mut rest = vec![0u8; 7];
        rest.push(1);
        for kind in 2..=4u8 {
            let used = u8::from(i == kind) + u8::from(j == kind);
            rest.extend(std::iter::repeat_n(kind, 2 - used as usize));
        }
        rest.sort();
        loop {
            decks += 1;
            let mut hand = rest.clone();
            hand.extend([1, 0, 0, i, 0, j, 1, 0]);
            if let Outcome::Cycle(c) = play(&Position::new(hand, vec![1, 0], 0)) {
                never_end += 1;
                *cycles.entry(c.cycle_id.pack().unwrap()).or_default() += 1;
            }
            if !next_permutation(&mut rest) {
                break;
            }
        }
    }
    assert_eq!(got.decks, decks);
    assert_eq!(decks, 356_400);
    assert_eq!(got.non_terminating, never_end);
    assert!(never_end > 0, "the case must have decks that never end");
    let got_cycles: BTreeMap<u128, u64> = got.cycles.iter().map(|(k, h)| (*k, h.decks)).collect();
    assert_eq!(got_cycles, cycles);
}

#[test]
fn rest_all_bad_input_exits_2() {
    let dir = tmp("rest-bad");
    let cases: [&[&str]; 6] = [
        &["--rest", "all"],
        &["--require=--X"],
        &[
            "--require=--X",
            "--rest",
            "all",
            "--library",
            "pieces/paper-2024.bin",
        ],
        &["--require=--X", "--rest", "all", "--limit", "5"],
        &["--require=--X", "--rest", "all", "--pieces", "1"],
        &["--require=AAAAA", "--rest", "all"],
    ];
    for case in cases {
        let mut args = vec!["assemble", "--out", &dir];
        args.extend_from_slice(case);
        let o = ansatz(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// Every deck of `12-4J2Q2K2A` around `--X-X`.
const REST_SMALL: [&str; 6] = [
    "assemble",
    "--deck",
    "12-4J2Q2K2A",
    "--require=--X-X",
    "--rest",
    "all",
];

/// [`REST_SMALL`] (`more`: further arguments), into `dir`.
fn rest_small(dir: &str, more: &[&str]) -> Value {
    run_json(&[&REST_SMALL[..], &["--json", "--out", dir], more].concat())
}

#[test]
fn rest_all_json_counts_a_small_deck() {
    let v = rest_small(&tmp("rest-small"), &[]);
    assert_eq!(v["decks_tested"], 356_400);
    assert_eq!(v["non_terminating"], 180);
    assert_eq!(v["cycles_found"], 48);
}

// Source: shards/around-kaa/, shard 0 of 8 of `ansatz assemble --require=--K---A----AA
// --rest all --balance`, written before families carried their reach (35 cycles, 1 balanced: the
// 2024 paper's relative with 34 deals; results/README.md). Its families are read and rebuilt.
#[test]
fn shard_files_from_before_the_reach_still_merge() {
    use ansatz::assemble::records::{Record, upgrade_all};
    use ansatz::backward::closure::Config;
    use ansatz::run::shard::{ShardFile, decode_part};
    let path =
        Path::new("shards/around-kaa/assemble-rest-k3-with-..K...A....AA-balance.shard-0-of-8.bin");
    let file = ShardFile::read(path).unwrap();
    let records: Vec<Record> = decode_part(&file.records, "records").unwrap();
    let old = records
        .iter()
        .filter(|r| matches!(r, Record::FamilyWithoutReach(_)))
        .count();
    assert_eq!(old, 35, "the committed shard predates the reach");
    let families: Vec<_> = upgrade_all(records, 52, &Config::default())
        .into_iter()
        .filter_map(|r| match r {
            Record::Family(f) => Some(f),
            Record::Unit(_) | Record::Elapsed(_) => None,
            Record::FamilyWithoutReach(_) => panic!("not upgraded"),
        })
        .collect();
    assert_eq!(families.len(), 35);
    let balanced: Vec<_> = families.iter().filter(|f| !f.balanced.is_empty()).collect();
    assert_eq!(balanced.len(), 1);
    assert_eq!((balanced[0].balanced.len(), balanced[0].reach), (34, 26));
    assert!(families.iter().all(|f| f.complete));
    assert!(
        families
            .iter()
            .all(|f| (f.reach == 26) != f.balanced.is_empty())
    );
}

#[test]
fn runs_in_other_templates_name_theirs() {
    let dir = tmp("templates");
    let run = |template: &str| rest_small(&dir, &["--template", template]);
    let jack = run("templates/jack.txt");
    let other = run("templates/census/frame-tail2.txt");
    assert_ne!(jack["decks_tested"], other["decks_tested"]);
    for (stem, v) in [
        ("assemble-rest-k3-with-..X.X", &jack),
        ("assemble-rest-frame-tail2-k3-with-..X.X", &other),
    ] {
        let text = std::fs::read_to_string(Path::new(&dir).join(format!("{stem}.jsonl"))).unwrap();
        let summary: Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
        assert_eq!(
            summary["summary"]["decks_tested"], v["decks_tested"],
            "{stem}"
        );
    }
}

/// `ANSATZ_ISA` decides whether decks are played in the 64-card lanes (AVX-512) or one by one;
/// the answer is the same either way, for library assemblies and for every deck around a piece.
#[test]
fn assemble_answer_does_not_depend_on_the_isa() {
    let run = |isa: &str, args: &[&str]| {
        let dir = tmp(&format!("isa-{isa}"));
        let v = json_with_isa(
            isa,
            &[args, &["--json", "--quiet", "--out", &dir]].concat(),
            &["seconds"],
        );
        let _ = std::fs::remove_dir_all(&dir);
        v
    };
    for args in [
        &["assemble", "--limit", "300000", "--balance"][..],
        &REST_SMALL[..],
    ] {
        let best = run("avx512", args);
        assert!(best["non_terminating"].as_u64().unwrap() > 0, "{args:?}");
        assert_eq!(run("avx2", args), best, "{args:?}");
    }
}
