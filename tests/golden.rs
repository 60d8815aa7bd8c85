//! Outputs held against those of an earlier build, kept in `tests/data/golden/`: the main job,
//! job arrays (`--shard`) with their merge, cluster runs and resumed runs of every splittable
//! command. A case runs its commands in a fresh directory with relative paths, then writes a
//! transcript: each command's exit code and standard output, and every file left behind (shard
//! files and checkpoints aside). Only what differs between two runs of the same build by design is
//! masked: wall time, thread counts, rates and the `run` provenance (version, commit, machine).
//! Everything else must match byte for byte.
//!
//! `ANSATZ_BLESS=1 cargo test --release golden` rewrites the golden files; do it only when an
//! output is meant to change, and say why in the commit.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use super::common::wait_all;
use std::time::Duration;

use serde_json::Value;

/// Keys masked wherever they appear in a JSON value: they differ between two runs of one build.
const VOLATILE: &[&str] = &[
    "run",
    "seconds",
    "threads",
    "workers",
    "duplicates",
    "games_per_second",
    "games_per_second_per_thread",
    "positions_per_second",
    "candidates_per_second",
    "decks_per_second",
];

/// Keys dropped wherever they appear: what this processor ran in (the instruction set and the
/// lanes' loop, `isa` and `lanes`), which differ between machines, not between builds.
const MACHINE: &[&str] = &["isa", "lanes"];

/// A fresh working directory for one case.
fn workdir(case: &str) -> PathBuf {
    let d =
        crate::common::scratch_root().join(format!("ansatz-golden-{}-{case}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn command(dir: &Path, args: &[&str]) -> Command {
    let mut c = super::common::ansatz_command();
    c.args(args).current_dir(dir);
    c
}

/// A JSON value with the volatile keys masked.
fn mask(v: &mut Value) {
    match v {
        Value::Object(o) => {
            for k in VOLATILE {
                if let Some(x) = o.get_mut(*k) {
                    *x = Value::String("~".into());
                }
            }
            for k in MACHINE {
                o.remove(*k);
            }
            o.values_mut().for_each(mask);
        }
        Value::Array(a) => a.iter_mut().for_each(mask),
        _ => {}
    }
}

/// A text output with the volatile parts masked: JSON lines are masked key by key, and a text
/// file's closing `run` block goes.
fn masked(text: &str) -> String {
    let text = text.split("\nrun\n  command").next().unwrap_or("");
    let mut out = String::new();
    for line in text.lines() {
        match serde_json::from_str::<Value>(line) {
            Ok(mut v) if v.is_object() => {
                mask(&mut v);
                out.push_str(&v.to_string());
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// The transcript of a case: what its commands printed, and the files they left.
struct Transcript {
    dir: PathBuf,
    text: String,
}

impl Transcript {
    fn new(case: &str) -> Transcript {
        Transcript {
            dir: workdir(case),
            text: String::new(),
        }
    }

    fn record(&mut self, args: &[&str], o: &Output) -> Value {
        let stdout = String::from_utf8_lossy(&o.stdout);
        self.text.push_str(&format!(
            "$ ansatz {}\nexit {}\n{}",
            args.join(" "),
            o.status.code().map_or("signal".into(), |c| c.to_string()),
            masked(&stdout)
        ));
        serde_json::from_str(&stdout).unwrap_or(Value::Null)
    }

    /// Runs one command; its JSON output (null if none).
    fn run(&mut self, args: &[&str]) -> Value {
        let o = command(&self.dir, args).output().expect("running ansatz");
        assert!(
            o.status.code().is_some_and(|c| c < 2),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        self.record(args, &o)
    }

    /// Runs the `n` shards of `base`, then merges them with `merge` (more flags); the merge's
    /// output.
    fn shards_and_merge(&mut self, base: &[&str], n: usize, merge: &[&str]) -> Value {
        let mut files = Vec::new();
        for i in 0..n {
            let shard = format!("{i}/{n}");
            let v = self.run(&[base, &["--shard", &shard]].concat());
            files.push(
                v["file"]
                    .as_str()
                    .expect("a shard names its file")
                    .to_string(),
            );
        }
        let mut args = vec!["merge", "--json"];
        args.extend(merge);
        args.extend(files.iter().map(String::as_str));
        self.run(&args)
    }

    /// Runs `base` as a cluster of `n` processes of one worker on loopback; process `i` writes to
    /// `pI` (which the transcript lists) unless `base` names `--out`.
    fn cluster(&mut self, base: &[&str], n: usize) {
        let own_out = !base.contains(&"--out");
        std::fs::write(self.dir.join("hosts"), free_hosts(n)).unwrap();
        let args: Vec<Vec<String>> = (0..n)
            .map(|i| {
                let flags = [
                    "--hosts",
                    "hosts",
                    "--process",
                    &i.to_string(),
                    "--workers",
                    "1",
                    "--connect-timeout",
                    "20",
                ]
                .map(String::from);
                let out = ["--out".to_string(), format!("p{i}")];
                let out = own_out.then_some(out).into_iter().flatten();
                base.iter()
                    .map(|s| s.to_string())
                    .chain(flags)
                    .chain(out)
                    .collect()
            })
            .collect();
        let children: Vec<Child> = args
            .iter()
            .map(|a| {
                command(&self.dir, &a.iter().map(String::as_str).collect::<Vec<_>>())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("starting ansatz")
            })
            .collect();
        let outs = wait_all(children, Duration::from_secs(120));
        for (i, o) in outs.iter().enumerate() {
            assert!(
                o.status.success(),
                "{base:?} process {i}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            let a: Vec<&str> = args[i].iter().map(String::as_str).collect();
            // The hosts file's ports differ from run to run; the recorded line names it only.
            self.record(&a, o);
        }
    }

    /// The transcript with every file left in the directory (checkpoints, shard files and the
    /// hosts file aside: their bytes hold wall times or ports by design).
    fn finish(mut self) -> String {
        let mut files = Vec::new();
        list(&self.dir, &self.dir, &mut files);
        files.sort();
        for rel in files {
            let bytes = std::fs::read(self.dir.join(&rel)).unwrap();
            self.text.push_str(&format!("== {rel}\n"));
            match String::from_utf8(bytes.clone()) {
                Ok(t) => self.text.push_str(&masked(&t)),
                Err(_) => self.text.push_str(&format!(
                    "binary {} bytes, fnv1a {:016x}\n",
                    bytes.len(),
                    fnv(&bytes)
                )),
            }
        }
        let _ = std::fs::remove_dir_all(&self.dir);
        self.text
    }
}

fn list(root: &Path, dir: &Path, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let rel = p.strip_prefix(root).unwrap().display().to_string();
        if p.is_dir() {
            list(root, &p, out);
        } else if !(rel == "hosts" || rel.contains(".checkpoint") || rel.contains(".shard-")) {
            out.push(rel);
        }
    }
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

fn free_hosts(n: usize) -> String {
    let mut hosts = String::new();
    // Port 0 asks the system for a free port; the listener closes before the cluster binds it.
    for _ in 0..n {
        let l = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        hosts.push_str(&format!("{}\n", l.local_addr().unwrap()));
    }
    hosts
}

/// Compares a case's transcript with its golden file (or writes it, with ANSATZ_BLESS=1).
fn check(case: &str, got: String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/golden")
        .join(format!("{case}.txt"));
    let header = "# Source: ansatz's own outputs before the run layer (commit 7d652d0), written by \
                  tests/golden.rs with ANSATZ_BLESS=1\n";
    if std::env::var_os("ANSATZ_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, format!("{header}{got}")).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let want = want.split_once('\n').map_or("", |(_, rest)| rest);
    if want != got {
        let (w, g): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
        let at = w
            .iter()
            .zip(&g)
            .position(|(a, b)| a != b)
            .unwrap_or(w.len().min(g.len()));
        panic!(
            "{case}: the outputs differ from {} at line {}:\n  want {}\n  got  {}",
            path.display(),
            at + 2,
            w.get(at).unwrap_or(&"(end)"),
            g.get(at).unwrap_or(&"(end)")
        );
    }
}

/// The main job of the README, and a resumed assembly.
#[test]
fn golden_assemble() {
    let mut t = Transcript::new("assemble");
    t.run(&["assemble", "--balance", "--json", "-q", "--out", "main"]);
    let base = ["assemble", "--balance", "--limit", "400000", "--json", "-q"];
    t.run(
        &[
            &base[..],
            &[
                "--out",
                "stopped",
                "--stop-after-units",
                "3",
                "--threads",
                "1",
            ],
        ]
        .concat(),
    );
    t.run(&[&base[..], &["--out", "stopped", "--resume"]].concat());
    t.shards_and_merge(
        &[&base[..], &["--out", "shards"]].concat(),
        3,
        &["--out", "merged"],
    );
    t.cluster(&base, 2);
    check("assemble", t.finish());
}

/// `search random` and `search exhaustive`: single, shards with merge, cluster.
#[test]
fn golden_search() {
    let mut t = Transcript::new("search");
    let random = [
        "search",
        "random",
        "--deck",
        "6-2J2Q2K2A",
        "--games",
        "30000",
        "--json",
        "-q",
    ];
    let exhaustive = ["search", "exhaustive", "--deck", "9-2J2Q2K", "--json", "-q"];
    let odd = [
        "search",
        "exhaustive",
        "--deck",
        "7-2J2Q2K2A",
        "--extra-card",
        "2",
        "--json",
        "-q",
    ];
    // The every-deal path, so that its shards say which path counted them.
    let naive = [
        "search",
        "exhaustive",
        "--deck",
        "8-2J2Q2K",
        "--naive",
        "--json",
        "-q",
    ];
    for (tag, base) in [
        ("random", &random[..]),
        ("exhaustive", &exhaustive),
        ("odd", &odd),
        ("naive", &naive),
    ] {
        let single = format!("{tag}-single");
        let shards = format!("{tag}-shards");
        let merged = format!("{tag}-merged");
        t.run(&[base, &["--out", &single]].concat());
        t.shards_and_merge(
            &[base, &["--out", &shards]].concat(),
            3,
            &["--out", &merged],
        );
    }
    t.cluster(&exhaustive, 2);
    check("search", t.finish());
}

/// `family`: single, stopped and resumed, shards with merge, cluster.
#[test]
fn golden_family() {
    let mut t = Transcript::new("family");
    let base = ["family", "--json", "-q"];
    t.run(&[&base[..], &["--out", "single.json"]].concat());
    t.run(
        &[
            &base[..],
            &[
                "--out",
                "stopped.json",
                "--stop-after-levels",
                "3",
                "--checkpoint-every",
                "0",
            ],
        ]
        .concat(),
    );
    t.run(&[&base[..], &["--out", "stopped.json", "--resume"]].concat());
    t.shards_and_merge(&[&base[..], &["--out", "sharded.json"]].concat(), 3, &[]);
    t.cluster(&base, 2);
    check("family", t.finish());
}

/// `find-pieces`: single, stopped and resumed, shards with merge, cluster (the library files are
/// compared byte for byte).
#[test]
fn golden_find_pieces() {
    let mut t = Transcript::new("find-pieces");
    let base = ["find-pieces", "--max-len", "13", "--json", "-q"];
    t.run(&[&base[..], &["--out", "single.bin"]].concat());
    t.run(
        &[
            &base[..],
            &["--out", "stopped.bin", "--stop-after-ranges", "2"],
        ]
        .concat(),
    );
    t.run(&[&base[..], &["--out", "stopped.bin", "--resume"]].concat());
    t.shards_and_merge(&[&base[..], &["--out", "sharded.bin"]].concat(), 3, &[]);
    t.cluster(&[&base[..], &["--out", "cluster.bin"]].concat(), 2);
    check("find-pieces", t.finish());
}
