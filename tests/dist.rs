//! Distribution: job-array shards merged into the single-run answer, and a 3-process cluster on
//! loopback (timely-dataflow) giving the single-process answer; bad hosts files, bad indices and
//! peers that never come up exit 2 instead of hanging.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::common::{ansatz, stdout, wait_all};

/// A small assembly with several cycles and a decks file (no --balance).
const LIMITED: &[&str] = &["assemble", "--limit", "400000", "--json", "-q"];
/// A small assembly whose cycles hold balanced deals (the required piece of the 2024 paper).
const BALANCED: &[&str] = &[
    "assemble",
    "--require=--K---A----AA",
    "--balance",
    "--json",
    "-q",
];

fn tmp(name: &str) -> PathBuf {
    let d =
        crate::common::scratch_root().join(format!("ansatz-dist-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn with(base: &[&str], more: &[&str]) -> Vec<String> {
    base.iter().chain(more).map(|s| s.to_string()).collect()
}

fn run_ok(args: &[String]) -> Value {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = ansatz(&args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_str(&stdout(&o)).unwrap()
}

/// The answer without its wall time (and, for a merge, the count of shards it sums).
fn answer(mut v: Value) -> Value {
    v.as_object_mut().unwrap().remove("seconds");
    v.as_object_mut()
        .unwrap()
        .remove("seconds_summed_over_shards");
    v
}

/// Asserts two answers are equal, naming only their totals when they differ (they are long).
fn same(got: &Value, want: &Value, what: &str) {
    let short = |v: &Value| {
        format!(
            "decks {} non-terminating {} cycles {} balanced {}",
            v["decks_tested"], v["non_terminating"], v["cycles_found"], v["balanced_total"]
        )
    };
    assert!(
        got == want,
        "{what}: got {}, want {}",
        short(got),
        short(want)
    );
}

/// The result files of a run: their facts, without the `run` line (command line, wall time).
fn result_files(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.ends_with(".jsonl") || n.ends_with("-decks.txt")
        })
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let kept: Vec<&str> = text
                .lines()
                .filter(|l| !l.starts_with("{\"run\""))
                .collect();
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                kept.join("\n"),
            )
        })
        .collect();
    files.sort();
    files
}

/// Runs the `n` shards of `base` (with `more`, e.g. `--out`) and returns their JSON summaries,
/// last shard first: merge must not depend on the order it is given the files in.
fn run_shards(base: &[&str], n: usize, more: &[&str]) -> Vec<Value> {
    let mut shards: Vec<Value> = (0..n)
        .map(|i| {
            run_ok(&with(
                base,
                &[more, &["--shard", &format!("{i}/{n}")]].concat(),
            ))
        })
        .collect();
    shards.reverse();
    shards
}

/// The shard files the summaries name.
fn files_of(shards: &[Value]) -> Vec<String> {
    shards
        .iter()
        .map(|v| v["file"].as_str().unwrap().to_string())
        .collect()
}

/// `ansatz merge --json [--out OUT] FILES`, which must succeed.
fn merge_ok(files: &[String], out: Option<&Path>) -> Value {
    let mut args = vec!["merge".to_string(), "--json".into()];
    if let Some(o) = out {
        args.extend(["--out".into(), o.display().to_string()]);
    }
    args.extend(files.iter().cloned());
    run_ok(&args)
}

/// The single run of `base` (2 threads, into `DIR/single`) and its 3 shards (1 thread each)
/// merged into `DIR/merged`: the single run's answer, the merged answer and the shard files.
fn single_and_merged(base: &[&str], dir: &Path) -> (Value, Value, Vec<String>) {
    let out = |name: &str| dir.join(name).display().to_string();
    let want = run_ok(&with(base, &["--out", &out("single"), "--threads", "2"]));
    let files = files_of(&run_shards(
        base,
        3,
        &["--out", &out("shards"), "--threads", "1"],
    ));
    let got = merge_ok(&files, Some(&dir.join("merged")));
    (want, got, files)
}

#[test]
fn shards_merge_into_the_single_run_answer() {
    for base in [LIMITED, BALANCED] {
        let dir = tmp(&format!("shards-{}", base.len()));
        let (want, got, files) = single_and_merged(base, &dir);
        same(
            &answer(got.clone()),
            &answer(want.clone()),
            &format!("merge {base:?}"),
        );
        assert!(
            result_files(&dir.join("merged")) == result_files(&dir.join("single")),
            "merged result files differ"
        );

        // A missing or doubled shard is refused.
        let o = ansatz(&["merge", &files[0], &files[1]]);
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains("missing"));
        let o = ansatz(&[
            "merge",
            &files[0],
            files[0].as_str(),
            files[1].as_str(),
            files[2].as_str(),
        ]);
        assert_eq!(o.status.code(), Some(2));

        // --partial merges the shards given (here the last two; files are last shard first),
        // says which, and writes nothing; with every shard it gives the whole answer.
        let merge_partial = |fs: &[&String]| {
            let fs: Vec<&str> = fs.iter().map(|f| f.as_str()).collect();
            run_ok(&with(&["merge", "--partial", "--json"], &fs))
        };
        let shard_decks = |f: &String| {
            let v = merge_partial(&[f]);
            assert_eq!(v["partial"]["of"], 3);
            v["decks_tested"].as_u64().unwrap()
        };
        let some = merge_partial(&[&files[0], &files[1]]);
        assert_eq!(some["partial"], json!({"shards": [1, 2], "of": 3}));
        assert_eq!(
            some["decks_tested"].as_u64().unwrap(),
            shard_decks(&files[0]) + shard_decks(&files[1])
        );
        assert_eq!(
            some["decks_tested"].as_u64().unwrap() + shard_decks(&files[2]),
            want["decks_tested"].as_u64().unwrap()
        );
        let mut all = merge_partial(&files.iter().collect::<Vec<_>>());
        assert_eq!(all["partial"]["shards"], json!([0, 1, 2]));
        all.as_object_mut().unwrap().remove("partial");
        same(
            &answer(all),
            &answer(want.clone()),
            "partial of every shard",
        );
        let o = ansatz(&["merge", "--partial", &files[0], &files[0]]);
        assert_eq!(o.status.code(), Some(2));

        // The merge's seconds are the shards' own summed (each shard's, as a partial merge of
        // it alone reports), not the merge's time, and it says over how many.
        assert_eq!(got["seconds_summed_over_shards"], json!(3));
        assert_eq!(want.get("seconds_summed_over_shards"), None);
        let summed: f64 = files
            .iter()
            .map(|f| merge_partial(&[f])["seconds"].as_f64().unwrap())
            .sum();
        let secs = got["seconds"].as_f64().unwrap();
        assert!(
            (secs - summed).abs() <= 1e-9 * summed.max(1.0),
            "{secs} vs {summed}"
        );
    }
}

/// The time records of an assemble shard file.
fn shard_elapsed(path: &str) -> Vec<ansatz::assemble::records::Elapsed> {
    use ansatz::assemble::records::Record;
    let f = ansatz::run::shard::ShardFile::read(Path::new(path)).unwrap();
    let records: Vec<Record> = ansatz::run::shard::decode_part(&f.records, "records").unwrap();
    records
        .into_iter()
        .filter_map(|r| match r {
            Record::Elapsed(e) => Some(e),
            _ => None,
        })
        .collect()
}

#[test]
fn an_interrupted_shard_counts_the_time_of_both_runs() {
    let dir = tmp("shard-time");
    let out = dir.display().to_string();
    let base = with(
        LIMITED,
        &["--out", &out, "--threads", "1", "--shard", "0/2"],
    );
    let base: Vec<&str> = base.iter().map(String::as_str).collect();
    let first = with(&base, &["--stop-after-units", "2"]);
    let stopped = ansatz(&first.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(stopped.status.code(), Some(1), "an interrupted run exits 1");
    let done = run_ok(&with(&base, &["--resume"]));
    // Two runs, each with its own time: the first up to its last unit, the second whole.
    let elapsed = shard_elapsed(done["file"].as_str().unwrap());
    let runs = ansatz::assemble::records::Elapsed::latest(elapsed.iter().copied());
    assert_eq!(runs.len(), 2, "{elapsed:?}");
    let total: f64 = runs.iter().map(|e| e.seconds).sum();
    let reported = done["seconds"].as_f64().unwrap();
    assert!((reported - total).abs() <= 1e-9, "{reported} vs {total}");

    // A shard file written before shards recorded their time still merges, and is named.
    let old = "shards/around-kaa/assemble-rest-k3-with-..K...A....AA-balance.shard-0-of-8.bin";
    let v = run_ok(&with(&["merge", "--partial", "--json"], &[old]));
    assert_eq!(v["shards_without_seconds"], json!([0]));
    assert_eq!(v.get("seconds_summed_over_shards"), None);
}

#[test]
fn merge_refuses_foreign_and_truncated_files() {
    let dir = tmp("foreign");
    let v = run_ok(&with(
        LIMITED,
        &["--out", dir.to_str().unwrap(), "--shard", "0/1"],
    ));
    let file = v["file"].as_str().unwrap();
    let bytes = std::fs::read(file).unwrap();
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &bytes[..bytes.len() - 3]).unwrap();
    let other = dir.join("other.bin");
    std::fs::write(&other, b"J--/-J-\n").unwrap();
    for (f, msg) in [(&cut, "truncated"), (&other, "not an ansatz shard")] {
        let o = ansatz(&["merge", f.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains(msg));
    }
    // Shards of different runs do not mix.
    let v2 = run_ok(&with(
        BALANCED,
        &["--out", dir.to_str().unwrap(), "--shard", "1/2"],
    ));
    let o = ansatz(&["merge", file, v2["file"].as_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    for bad in ["2/2", "x", "1"] {
        let o = ansatz(&["assemble", "--limit", "10", "--shard", bad]);
        assert_eq!(o.status.code(), Some(2), "--shard {bad}");
    }
}

/// `n` loopback addresses on free ports for the processes of one cluster.
///
/// The ports come from below Linux's ephemeral range (32768 and up), walked from a start that
/// depends on the test process, each checked free by binding it. A port bound to 0 and released
/// would be an ephemeral one, which another test's outgoing connection can take before the
/// cluster listens on it ("Address already in use", seen under load).
fn free_hosts(n: usize) -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let start = 20_000 + (std::process::id() % 500) * 20;
    let mut hosts = String::new();
    let mut found = 0;
    while found < n {
        let port = start + NEXT.fetch_add(1, Ordering::Relaxed) % 2_700;
        if let Ok(l) = TcpListener::bind(("127.0.0.1", port as u16)) {
            hosts.push_str(&format!("{}\n", l.local_addr().unwrap()));
            found += 1;
        }
    }
    hosts
}

fn spawn(args: &[String]) -> Child {
    super::common::ansatz_command()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting ansatz")
}

/// Runs `base` as a cluster of `n` processes with `workers` threads each on loopback.
fn cluster(base: &[&str], n: usize, workers: usize, dir: &Path, extra: &[&str]) -> Vec<Output> {
    wait_all(
        spawn_cluster(base, n, workers, dir, extra),
        Duration::from_secs(60),
    )
}

/// Runs `base` as a cluster (as [`cluster`]) that must succeed: every process exits 0, process 0
/// alone prints, and only the result, which this returns.
fn cluster_ok(base: &[&str], n: usize, workers: usize, dir: &Path, extra: &[&str]) -> Value {
    let outs = cluster(base, n, workers, dir, extra);
    for (i, o) in outs.iter().enumerate() {
        assert!(
            o.status.success(),
            "{base:?} process {i}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(i == 0 || o.stdout.is_empty(), "process {i} printed");
    }
    serde_json::from_str(&stdout(&outs[0])).unwrap()
}

/// Starts `base` as a cluster of `n` processes with `workers` threads each on loopback (fresh
/// ports); process `i` writes to `dir/pI` unless `extra` names `--out`.
fn spawn_cluster(
    base: &[&str],
    n: usize,
    workers: usize,
    dir: &Path,
    extra: &[&str],
) -> Vec<Child> {
    let hosts = dir.join("hosts");
    std::fs::write(&hosts, free_hosts(n)).unwrap();
    (0..n)
        .map(|i| {
            let mut more = vec![
                "--hosts".to_string(),
                hosts.display().to_string(),
                "--process".into(),
                i.to_string(),
                "--workers".into(),
                workers.to_string(),
                "--connect-timeout".into(),
                "20".into(),
            ];
            if !extra.contains(&"--out") {
                more.push("--out".into());
                more.push(dir.join(format!("p{i}")).display().to_string());
            }
            more.extend(extra.iter().map(|s| s.to_string()));
            spawn(&with(
                base,
                &more.iter().map(String::as_str).collect::<Vec<_>>(),
            ))
        })
        .collect()
}

#[test]
fn three_processes_on_loopback_give_the_single_process_answer() {
    for (base, workers) in [(LIMITED, 2), (BALANCED, 1)] {
        let dir = tmp(&format!("cluster-{}", base.len()));
        let single = dir.join("single");
        let want = answer(run_ok(&with(
            base,
            &["--out", single.to_str().unwrap(), "--threads", "1"],
        )));
        // Process 0 alone prints, and only the result.
        let got = cluster_ok(base, 3, workers, &dir, &[]);
        same(&answer(got), &want, &format!("cluster {base:?}"));
        assert!(
            result_files(&dir.join("p0")) == result_files(&single),
            "cluster result files differ"
        );
        assert!(!dir.join("p1").exists(), "only process 0 writes");
    }
}

#[test]
fn a_cluster_resumes_from_process_0s_checkpoint() {
    let dir = tmp("cluster-resume");
    let p0 = dir.join("p0");
    // An interrupted single run leaves finished units in the checkpoint ...
    let o = ansatz(
        &with(
            LIMITED,
            &[
                "--out",
                p0.to_str().unwrap(),
                "--stop-after-units",
                "2",
                "--threads",
                "1",
            ],
        )
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>(),
    );
    assert_eq!(o.status.code(), Some(1));
    // ... which a cluster run with --resume skips, giving the whole answer.
    let got = cluster_ok(LIMITED, 3, 1, &dir, &["--resume"]);
    let want = answer(run_ok(&with(
        LIMITED,
        &["--out", dir.join("single").to_str().unwrap()],
    )));
    same(&answer(got), &want, "resumed cluster");
}

/// Complete records in a checkpoint log (`library::checkpoint`: magic, version, then frames of
/// length, checksum and payload; the first record is the run's fingerprint).
fn checkpoint_records(path: &Path) -> usize {
    let Ok(bytes) = std::fs::read(path) else {
        return 0;
    };
    let (mut at, mut n) = (12, 0);
    while at + 12 <= bytes.len() {
        let len = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        if at + 12 + len > bytes.len() {
            break;
        }
        at += 12 + len;
        n += 1;
    }
    n
}

// Fail-stop: a process killed with SIGKILL mid-run stops the others (exit 2, a one-line message,
// no hang); process 0's checkpoint keeps the units finished before, and a restarted cluster with
// --resume ends with the single run's answer. A resumed run that played its logged units again
// would count their decks twice, so the equal answer also shows that they were skipped.
#[test]
fn a_killed_process_stops_the_cluster_and_resume_finishes_the_job() {
    // The first 800000 decks (24 units, their cycles and families: about 2 s of one core): long
    // enough to be killed mid-run.
    let base: &[&str] = &["assemble", "--balance", "--limit", "800000", "--json", "-q"];
    let dir = tmp("fail-stop");
    let ckpt = dir.join("p0/assemble-paper-2024-k3-balance.checkpoint");
    let mut children = spawn_cluster(base, 3, 1, &dir, &[]);
    let start = Instant::now();
    // Kill process 2 once process 0 has logged a finished unit (after the fingerprint record).
    while checkpoint_records(&ckpt) < 2 {
        let ended = children.iter_mut().any(|c| c.try_wait().unwrap().is_some());
        if ended || start.elapsed() > Duration::from_secs(60) {
            for c in &mut children {
                let _ = c.kill();
            }
            panic!("the cluster ended or logged nothing before the kill (ended: {ended})");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    children[2].kill().unwrap();
    let killed = Instant::now();
    let outs = wait_all(children, Duration::from_secs(60));
    assert!(
        killed.elapsed() < Duration::from_secs(30),
        "the others took {:?} to stop",
        killed.elapsed()
    );
    assert!(!outs[2].status.success());
    for (i, o) in outs[..2].iter().enumerate() {
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "process {i}: {err}");
        assert!(
            err.contains("cluster peer failed") && err.contains("--resume"),
            "process {i}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "process {i}: {err}");
        assert!(o.stdout.is_empty(), "process {i} printed a result");
    }
    let logged = checkpoint_records(&ckpt);
    assert!(logged >= 2, "the finished units were lost");

    let got = cluster_ok(base, 3, 1, &dir, &["--resume"]);
    let want = answer(run_ok(&with(
        base,
        &[
            "--out",
            dir.join("single").to_str().unwrap(),
            "--threads",
            "2",
        ],
    )));
    same(&answer(got), &want, "resumed after a kill");
    assert!(
        result_files(&dir.join("p0")) == result_files(&dir.join("single")),
        "resumed result files differ"
    );
}

#[test]
fn bad_clusters_exit_2_without_hanging() {
    let dir = tmp("bad-cluster");
    let hosts = dir.join("hosts");
    std::fs::write(&hosts, free_hosts(2)).unwrap();
    let bad = dir.join("bad");
    std::fs::write(&bad, "127.0.0.1:4000\nno-port-here\n").unwrap();
    let h = hosts.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--hosts", bad.to_str().unwrap(), "--process", "0"],
            "line 2",
        ),
        (vec!["--hosts", h, "--process", "2"], "out of range"),
        (vec!["--hosts", h], "--process"),
        (
            vec!["--hosts", "/nonexistent/hosts", "--process", "0"],
            "--hosts",
        ),
        (
            vec!["--hosts", h, "--process", "0", "--workers", "0"],
            "--workers",
        ),
        // Process 1 never comes up: a clear error after the timeout, not a hang.
        (
            vec!["--hosts", h, "--process", "0", "--connect-timeout", "1"],
            "did not connect",
        ),
    ];
    for (args, msg) in cases {
        let out = dir.join("out");
        let mut all = vec![
            "assemble",
            "--limit",
            "1000",
            "-q",
            "--out",
            out.to_str().unwrap(),
        ];
        all.extend(&args);
        let start = Instant::now();
        let o = ansatz(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(msg), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(o.stdout.is_empty());
        assert!(start.elapsed() < Duration::from_secs(20));
        // Nothing is left behind: the same command runs again without --resume.
        assert!(!out.exists(), "{args:?} left {}", out.display());
    }
}

/// `args` as owned strings.
fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// find-pieces over small lengths: many ranges, a few dozen pieces.
const FIND: &[&str] = &["find-pieces", "--max-len", "13", "--json", "-q"];

#[test]
fn find_pieces_shards_and_clusters_write_the_single_run_library() {
    let dir = tmp("find");
    let lib = dir.join("lib.bin");
    let l = lib.to_str().unwrap();
    // Each run writes the same path (the library records its command line, --out included).
    let take = |name: &str| {
        let to = dir.join(name);
        std::fs::rename(&lib, &to).unwrap();
        std::fs::read(to).unwrap()
    };
    let want = answer(run_ok(&with(FIND, &["--out", l])));
    let single = take("single.bin");

    let shards = run_shards(FIND, 3, &["--out", l]);
    let files = files_of(&shards);

    // --partial writes the library of the shards given to an --out of its own (never the run's
    // library), and says which shards it covers; with every shard it holds the run's pieces.
    let part = dir.join("part.bin");
    let p = part.to_str().unwrap();
    let merge_partial = |fs: &[&str]| {
        run_ok(&strings(
            &[&["merge", "--partial", "--json", "--out", p][..], fs].concat(),
        ))
    };
    let v = merge_partial(&[&files[0], &files[1]]);
    assert_eq!(v["partial"], json!({"shards": [1, 2], "of": 3}));
    let shard_pieces = |i: usize| shards[i]["pieces"].as_u64().unwrap();
    assert_eq!(
        v["pieces"].as_u64().unwrap(),
        shard_pieces(0) + shard_pieces(1)
    );
    let i = run_ok(&strings(&["inspect", "--json", p]));
    assert!(
        i["header"]["enumeration"]["method"]
            .as_str()
            .unwrap()
            .contains("partial: shards 1, 2 of 3"),
        "{i}"
    );
    for bad in [vec![], vec!["--out", l]] {
        let o = ansatz(&[&["merge", "--partial"][..], &bad, &[files[0].as_str()]].concat());
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert!(!lib.exists());
    }
    let all = merge_partial(&[&files[0], &files[1], &files[2]]);
    assert_eq!(all["pieces"], want["pieces"]);
    assert_eq!(all["candidates"], want["candidates"]);

    // A merge's seconds are the shards' summed (the job array's machine time), and it says so;
    // the single run's answer does not carry the count.
    let merged = merge_ok(&files, None);
    assert_eq!(merged["seconds_summed_over_shards"], json!(3));
    assert_eq!(want.get("seconds_summed_over_shards"), None);
    let summed: f64 = shards.iter().map(|s| s["seconds"].as_f64().unwrap()).sum();
    let secs = merged["seconds"].as_f64().unwrap();
    assert!(
        (secs - summed).abs() <= 1e-6 * summed.max(1.0),
        "{secs} vs {summed}"
    );
    let without_time = |v: Value| {
        let mut v = answer(v);
        for k in ["candidates_per_second", "seconds_summed_over_shards"] {
            v.as_object_mut().unwrap().remove(k);
        }
        v
    };
    let mut w = want.clone();
    w.as_object_mut().unwrap().remove("candidates_per_second");
    assert_eq!(without_time(merged), w);
    assert!(take("merged.bin") == single, "merged library differs");

    let got = without_time(cluster_ok(FIND, 3, 2, &dir, &["--out", l]));
    assert_eq!(got, w);
    assert!(take("cluster.bin") == single, "cluster library differs");
}

#[test]
fn processes_of_different_jobs_stop_with_exit_2() {
    let dir = tmp("mismatch");
    let hosts = dir.join("hosts");
    std::fs::write(&hosts, free_hosts(2)).unwrap();
    let h = hosts.display().to_string();
    let children: Vec<Child> = ["1000", "2000"]
        .iter()
        .enumerate()
        .map(|(i, limit)| {
            let out = dir.join(format!("p{i}")).display().to_string();
            let args: Vec<String> = [
                "assemble",
                "--limit",
                limit,
                "-q",
                "--out",
                &out,
                "--hosts",
                &h,
                "--process",
                &i.to_string(),
            ]
            .iter()
            .map(|s| s.to_string())
            .collect();
            spawn(&args)
        })
        .collect();
    for o in wait_all(children, Duration::from_secs(60)) {
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains("different jobs"));
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn family_on_three_processes_equals_the_single_process_family() {
    let dir = tmp("family");
    let base: &[&str] = &["family", "--json", "-q"];
    let strip = |mut v: Value| {
        for k in ["seconds", "positions_per_second", "threads"] {
            v.as_object_mut().unwrap().remove(k);
        }
        v
    };
    let want = strip(run_ok(&with(base, &["--threads", "1"])));
    let got = cluster_ok(base, 3, 2, &dir, &[]);
    assert_eq!(got["threads"], 6);
    assert_eq!(strip(got), want);
}

/// A family answer without its timing fields (and the thread count, which differs by design).
fn family_answer(mut v: Value) -> Value {
    for k in [
        "seconds",
        "positions_per_second",
        "threads",
        "duplicates",
        "run",
    ] {
        v.as_object_mut().unwrap().remove(k);
    }
    v
}

#[test]
fn family_shards_merge_into_the_single_run_answer() {
    // Source: arXiv:2403.13855 (2024), Appendix C (tests/data/games-2024.txt): its first game.
    let first = super::common::data_lines("games-2024.txt")[0].clone();
    // The 2024 paper's balanced deal (the default position), and the first constructed game.
    for (position, n) in [(None, 3), (Some(first.as_str()), 4)] {
        let dir = tmp(&format!("family-shards-{n}"));
        let base: Vec<&str> = ["family", "--json", "-q"]
            .into_iter()
            .chain(position)
            .collect();
        let single = dir.join("single.json");
        let want = run_ok(&with(&base, &["--out", single.to_str().unwrap()]));
        assert!(want["closure_size"].as_u64().unwrap() > 1000);
        let out = dir.join("family.json");
        let shards = run_shards(&base, n, &["--out", out.to_str().unwrap()]);
        let files = files_of(&shards);
        // The shards' parts are disjoint and make the whole closure.
        let sizes: u64 = shards
            .iter()
            .map(|v| v["closure_size"].as_u64().unwrap())
            .sum();
        assert_eq!(sizes, want["closure_size"].as_u64().unwrap());
        assert!(!out.exists(), "a shard writes only its shard file");
        let got = merge_ok(&files, None);
        assert_eq!(family_answer(got), family_answer(want.clone()));
        // merge writes the single run's --out file (the same command, without --shard).
        let read = |p: &Path| -> Value {
            serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
        };
        let (saved, merged) = (read(&single), read(&out));
        assert_eq!(family_answer(merged.clone()), family_answer(saved));
        let command = merged["run"]["command"].as_str().unwrap();
        assert!(command.starts_with("ansatz family") && !command.contains("--shard"));
        // A missing shard is refused.
        let o = ansatz(&["merge", &files[0]]);
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains("missing"));
    }
}

/// A random search with a few cycles, and an exhaustive one with cycles (both well under a second).
const RANDOM: &[&str] = &[
    "search",
    "random",
    "--deck",
    "6-2J2Q2K2A",
    "--games",
    "20000",
    "--json",
    "-q",
];
const EXHAUSTIVE: &[&str] = &["search", "exhaustive", "--deck", "8-2J2Q2K", "--json", "-q"];

/// A search answer without its timing fields (wall time, threads, rates) and what this run ran in
/// (`isa`, `lanes`: a single run names them, a merge of shards made anywhere does not).
fn search_answer(mut v: Value) -> Value {
    let o = v.as_object_mut().unwrap();
    for k in [
        "isa",
        "lanes",
        "seconds",
        "threads",
        "games_per_second",
        "games_per_second_per_thread",
        "run",
    ] {
        o.remove(k);
    }
    v
}

/// The result files of a search (not checkpoints), without the command line and timing fields.
fn search_files(dir: &Path) -> Vec<(String, Vec<String>)> {
    let mut files: Vec<(String, Vec<String>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            !n.contains("checkpoint") && !n.ends_with(".bin")
        })
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            // Facts only: a text file's run block (its last lines) and JSON's `run` differ.
            let lines = text
                .lines()
                .take_while(|l| *l != "run")
                .map(|l| match serde_json::from_str::<Value>(l) {
                    Ok(v) if v.is_object() => search_answer(v).to_string(),
                    _ => l.to_string(),
                })
                .collect();
            (p.file_name().unwrap().to_string_lossy().into_owned(), lines)
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no result files in {}", dir.display());
    files
}

#[test]
fn search_shards_merge_into_the_single_run_answer() {
    for (base, tag) in [(RANDOM, "random"), (EXHAUSTIVE, "exhaustive")] {
        let dir = tmp(&format!("search-shards-{tag}"));
        let (want, got, files) = single_and_merged(base, &dir);
        let (want, got) = (search_answer(want), search_answer(got));
        assert!(got == want, "{tag}: merged answer differs:\n{got}\n{want}");
        assert!(
            search_files(&dir.join("merged")) == search_files(&dir.join("single")),
            "{tag}: merged result files differ"
        );
        let o = ansatz(&["merge", &files[0], &files[1]]);
        assert_eq!(o.status.code(), Some(2));
        if tag == "random" {
            // --partial is not for random shards (their games are not a census to follow).
            let o = ansatz(&["merge", "--partial", &files[0], &files[1]]);
            assert_eq!(o.status.code(), Some(2));
            assert!(String::from_utf8_lossy(&o.stderr).contains("--partial"));
            continue;
        }
        // An exhaustive job array still running: the census of the shards given, which writes
        // no result file; of every shard, the whole answer.
        let none = dir.join("partial").display().to_string();
        let partial = |fs: &[&String]| {
            let fs: Vec<&str> = fs.iter().map(|f| f.as_str()).collect();
            let v = run_ok(&with(
                &["merge", "--partial", "--json", "--out", &none],
                &fs,
            ));
            (v["partial"].clone(), search_answer(v))
        };
        let (shards, some) = partial(&[&files[0], &files[1]]);
        assert_eq!(shards, json!({"shards": [1, 2], "of": 3}));
        assert_eq!(some["deals_of_deck"], want["deals"]);
        let (_, one) = partial(&[&files[2]]);
        assert_eq!(
            some["deals"].as_u64().unwrap() + one["deals"].as_u64().unwrap(),
            want["deals"].as_u64().unwrap(),
            "the shards' deals add up"
        );
        let (shards, mut all) = partial(&files.iter().collect::<Vec<_>>());
        assert_eq!(shards["shards"], json!([0, 1, 2]));
        for k in ["partial", "deals_of_deck"] {
            all.as_object_mut().unwrap().remove(k);
        }
        assert!(all == want, "partial of every shard:\n{all}\n{want}");
        assert!(
            !dir.join("partial").exists(),
            "a partial merge writes no result file"
        );
    }
    // The cycles really were split over the shards (the test would be weak without them).
    let v = run_ok(&with(
        RANDOM,
        &["--out", tmp("search-cycles").to_str().unwrap()],
    ));
    assert!(!v["cycles"].as_array().unwrap().is_empty());
}

#[test]
fn search_on_three_processes_gives_the_single_process_answer() {
    for (base, workers, tag) in [(RANDOM, 2, "random"), (EXHAUSTIVE, 1, "exhaustive")] {
        let dir = tmp(&format!("search-cluster-{tag}"));
        let single = dir.join("single");
        let want = search_answer(run_ok(&with(
            base,
            &["--out", single.to_str().unwrap(), "--threads", "1"],
        )));
        let got = cluster_ok(base, 3, workers, &dir, &[]);
        assert_eq!(got["threads"], 3 * workers, "{tag}");
        assert!(search_answer(got) == want, "{tag}: cluster answer differs");
        assert!(
            search_files(&dir.join("p0")) == search_files(&single),
            "{tag}: cluster result files differ"
        );
        assert!(!dir.join("p1").exists(), "only process 0 writes");
    }
}

#[test]
fn search_refuses_what_a_split_run_cannot_do() {
    let dir = tmp("search-bad");
    let out = dir.display().to_string();
    // A plot needs every deal; bad shard specs.
    for args in [
        with(
            RANDOM,
            &["--out", &out, "--shard", "0/2", "--plot", "x.svg"],
        ),
        with(RANDOM, &["--out", &out, "--shard", "2/2"]),
        with(EXHAUSTIVE, &["--out", &out, "--shard", "a/2"]),
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = ansatz(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
    // 20000 games are 5 chunks of 4096: a sixth shard would own nothing.
    let o = ansatz(
        &with(RANDOM, &["--out", &out, "--shard", "5/6"])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("5 units"));
}

#[test]
fn search_checkpoints_resume_across_single_and_cluster_runs() {
    for (base, tag) in [(RANDOM, "random"), (EXHAUSTIVE, "exhaustive")] {
        let dir = tmp(&format!("search-resume-{tag}"));
        // A cluster resumes from a single run's checkpoint ...
        let p0 = dir.join("p0");
        let want = search_answer(run_ok(&with(base, &["--out", p0.to_str().unwrap()])));
        let got = cluster_ok(base, 2, 1, &dir, &["--resume"]);
        assert!(
            search_answer(got) == want,
            "{tag}: resumed cluster answer differs"
        );
        // ... and a single run from a cluster's.
        let c = dir.join("c");
        std::fs::create_dir_all(&c).unwrap();
        cluster_ok(base, 2, 1, &c, &[]);
        let got = search_answer(run_ok(&with(
            base,
            &["--out", c.join("p0").to_str().unwrap(), "--resume"],
        )));
        assert!(
            got == want,
            "{tag}: single run resumed from a cluster differs"
        );
        // Without a checkpoint, --resume is bad input at process 0, before it waits for peers.
        let hosts = dir.join("hosts");
        std::fs::write(&hosts, free_hosts(2)).unwrap();
        let e = dir.join("empty").display().to_string();
        let h = hosts.display().to_string();
        let more = ["--hosts", &h, "--process", "0", "--out", &e, "--resume"];
        let outs = wait_all(vec![spawn(&with(base, &more))], Duration::from_secs(10));
        assert_eq!(outs[0].status.code(), Some(2), "{tag}");
        assert!(String::from_utf8_lossy(&outs[0].stderr).contains("checkpoint"));
    }
}

// A cluster family stopped after some levels (process 0 saves the frontier, gathered from every
// worker, at each level boundary) and resumed on another worker count gives the single answer;
// the finished run leaves no checkpoint.
#[test]
fn family_cluster_stopped_and_resumed_equals_the_single_process_family() {
    let dir = tmp("family-resume");
    let base: &[&str] = &["family", "--json", "-q"];
    let want = family_answer(run_ok(&with(base, &["--threads", "1"])));
    let extra = ["--stop-after-levels", "3", "--checkpoint-every", "0"];
    let outs = cluster(base, 3, 2, &dir, &extra);
    assert_eq!(
        outs[0].status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&outs[0].stderr)
    );
    assert!(outs[1..].iter().all(|o| o.status.success()));
    let ck = dir.join("p0.checkpoint");
    assert!(ck.exists());
    let got = cluster_ok(base, 3, 1, &dir, &["--resume"]);
    assert_eq!(family_answer(got), want);
    assert!(!ck.exists());
}

/// A discovery's answer without what depends on how it ran (times, threads, files).
fn discover_answer(mut v: Value) -> Value {
    for k in ["seconds", "threads", "files"] {
        v.as_object_mut().unwrap().remove(k);
    }
    for s in v["stages"].as_array_mut().unwrap() {
        s["seconds"] = json!(0);
    }
    v
}

#[test]
fn discover_tasks_alone_side_by_side_after_a_dead_task_and_on_a_cluster_give_the_single_answer() {
    let base = &["discover", "--deck", "8-2J2Q2K2A", "--json", "-q"];
    let dir = tmp("discover");
    let out = |name: &str| dir.join(name).display().to_string();
    let want = discover_answer(run_ok(&with(base, &["--out", &out("single")])));
    assert!(!want["balanced_cycles"].as_array().unwrap().is_empty());
    let facts = result_files(&dir.join("single"));

    // Three tasks one after the other: the first does everything, the others find it done.
    let files = files_of(&run_shards(
        base,
        3,
        &["--out", &out("seq"), "--threads", "1"],
    ));
    let got = merge_ok(&files, Some(&dir.join("seq-merged")));
    assert_eq!(discover_answer(got), want, "tasks one after the other");
    assert_eq!(result_files(&dir.join("seq-merged")), facts);

    // Two tasks side by side share the steps through their folder.
    let side: Vec<Child> = (0..2)
        .map(|i| {
            spawn(&with(
                base,
                &["--out", &out("side"), "--shard", &format!("{i}/2")],
            ))
        })
        .collect();
    let outs = wait_all(side, Duration::from_secs(60));
    let mut files = Vec::new();
    for o in &outs {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: Value = serde_json::from_str(&stdout(o)).unwrap();
        files.push(v["file"].as_str().unwrap().to_string());
    }
    assert_eq!(
        discover_answer(merge_ok(&files, None)),
        want,
        "tasks side by side"
    );

    // A task that dies after one step leaves its other steps claimed but undone: the other task
    // still finishes the whole discovery alone, and the dead one, run again, finds it done.
    let dead = ansatz(
        &[
            base,
            &[
                "--out",
                &out("dead"),
                "--shard",
                "0/2",
                "--stop-after-censuses",
                "1",
            ][..],
        ]
        .concat(),
    );
    assert_eq!(
        dead.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&dead.stderr)
    );
    let alive = run_ok(&with(base, &["--out", &out("dead"), "--shard", "1/2"]));
    let again = run_ok(&with(base, &["--out", &out("dead"), "--shard", "0/2"]));
    let files = files_of(&[again, alive]);
    assert_eq!(
        discover_answer(merge_ok(&files, None)),
        want,
        "after a dead task"
    );

    // Shard files of another deck do not merge with these.
    let other = run_ok(&strings(&[
        "discover",
        "--deck",
        "6-2J2Q2K2A",
        "--json",
        "-q",
        "--out",
        &out("other"),
        "--shard",
        "1/2",
    ]));
    let mixed = [
        files[0].clone(),
        other["file"].as_str().unwrap().to_string(),
    ];
    let o = ansatz(
        &[
            &["merge"][..],
            &mixed.iter().map(String::as_str).collect::<Vec<_>>(),
        ]
        .concat(),
    );
    assert_eq!(o.status.code(), Some(2));

    // Two processes of a cluster.
    let got = cluster_ok(base, 2, 1, &dir, &[]);
    assert_eq!(discover_answer(got), want, "cluster");
    let _ = std::fs::remove_dir_all(dir);
}
