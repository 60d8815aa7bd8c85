//! Helpers shared by the integration tests: the known-answer files in `tests/data` and running the binary.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A known-answer file in `tests/data` (each opens with a `# Source:` header).
pub fn test_data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// The folder of this test process's scratch files: `ansatz-tests/PID` in cargo's scratch
/// folder for integration tests (`target/tmp`, in the ignored build folder), so that a run leaves
/// nothing in the system's temporary folder. The first call also removes the folders of earlier
/// runs whose process has ended (where `/proc` says which are running), so they do not pile up.
pub fn scratch_root() -> PathBuf {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ansatz-tests");
        let running = |pid: &str| Path::new("/proc").join(pid).exists();
        if running("self") {
            for entry in std::fs::read_dir(&base).into_iter().flatten().flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.parse::<u32>().is_ok() && !running(&name) {
                    let _ = std::fs::remove_dir_all(entry.path());
                }
            }
        }
        // A folder of this process id already there is an earlier run's (the id reused).
        let root = base.join(std::process::id().to_string());
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root)
            .unwrap_or_else(|e| panic!("creating {}: {e}", root.display()));
        root
    })
    .clone()
}

/// Lines of a known-answer file, without comments and blank lines.
pub fn data_lines(name: &str) -> Vec<String> {
    let path = test_data(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

/// The `ansatz` binary as a command, started through `ANSATZ_TEST_RUNNER` when it is set (a
/// program and its arguments, split at spaces: `qemu-aarch64 -L /usr/aarch64-linux-gnu` runs the
/// tests built for ARM on an x86 machine, as `scripts/test-aarch64.sh` does).
pub fn ansatz_command() -> Command {
    let bin = env!("CARGO_BIN_EXE_ansatz");
    match std::env::var("ANSATZ_TEST_RUNNER") {
        Ok(runner) if !runner.trim().is_empty() => {
            let mut words = runner.split_whitespace();
            let mut c = Command::new(words.next().unwrap());
            c.args(words).arg(bin);
            c
        }
        _ => Command::new(bin),
    }
}

/// Runs the `ansatz` binary with `args`.
pub fn ansatz(args: &[&str]) -> Output {
    ansatz_command()
        .args(args)
        .output()
        .expect("running ansatz")
}

/// Runs the `ansatz` binary with `args` and `ANSATZ_ISA=isa`; its JSON output without the keys
/// `drop` (timings and rates, which differ between runs).
pub fn json_with_isa(isa: &str, args: &[&str], drop: &[&str]) -> serde_json::Value {
    let o = ansatz_command()
        .args(args)
        .env("ANSATZ_ISA", isa)
        .output()
        .expect("running ansatz");
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    for k in drop {
        v.as_object_mut().unwrap().remove(*k);
    }
    v
}

/// The instruction sets a test of `ANSATZ_ISA` can ask for here, best first: each one the
/// processor has. Each it lacks is named on stderr, as skipped by `test`.
pub fn isas_here(test: &str) -> Vec<&'static str> {
    ansatz::engine::Isa::ALL
        .into_iter()
        .filter(|isa| {
            let here = isa.supported();
            if !here {
                eprintln!(
                    "{test}: skipped {}: the processor does not have it",
                    isa.name()
                );
            }
            here
        })
        .map(|isa| isa.name())
        .collect()
}

/// [`json_with_isa`], checking first that the report names `isa` as the instruction set that ran
/// (so a run that ignored `ANSATZ_ISA` fails); `isa`, `lanes` and the keys `drop` are removed.
pub fn json_ran_in(isa: &str, args: &[&str], drop: &[&str]) -> serde_json::Value {
    let mut v = json_with_isa(isa, args, drop);
    assert_eq!(
        v["isa"], isa,
        "{args:?} under ANSATZ_ISA={isa} ran in {}",
        v["isa"]
    );
    let o = v.as_object_mut().unwrap();
    o.remove("isa");
    o.remove("lanes");
    v
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Waits for every child, killing them all if the time limit passes (then the test fails). Their
/// output is read as it comes (by a thread per pipe), so a child printing more than a pipe holds
/// never blocks.
pub fn wait_all(children: Vec<Child>, limit: Duration) -> Vec<Output> {
    use std::io::Read;
    use std::thread::JoinHandle;
    fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    }
    let start = Instant::now();
    type Running = (Child, JoinHandle<Vec<u8>>, JoinHandle<Vec<u8>>);
    let mut children: Vec<Running> = children
        .into_iter()
        .map(|mut c| {
            let out = drain(c.stdout.take());
            let err = drain(c.stderr.take());
            (c, out, err)
        })
        .collect();
    while children
        .iter_mut()
        .any(|(c, _, _)| c.try_wait().unwrap().is_none())
    {
        if start.elapsed() > limit {
            for (c, _, _) in children.iter_mut() {
                let _ = c.kill();
            }
            panic!("the cluster did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    children
        .into_iter()
        .map(|(mut c, out, err)| Output {
            status: c.wait().unwrap(),
            stdout: out.join().unwrap(),
            stderr: err.join().unwrap(),
        })
        .collect()
}

/// Appends `record` to the checkpoint log at `path` (as a later run of the job would) and
/// returns the records it held: the fingerprint is read from the file itself.
pub fn add_to_checkpoint<R>(path: &std::path::Path, record: R) -> Vec<R>
where
    R: serde::Serialize + serde::de::DeserializeOwned,
{
    use ansatz::library::checkpoint::Checkpoint;
    // The first frame (length, checksum, payload after the 12-byte header) is the fingerprint.
    let bytes = std::fs::read(path).unwrap();
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let fingerprint = String::from_utf8(bytes[24..24 + len].to_vec()).unwrap();
    let (mut log, records) = Checkpoint::<R>::resume(path, &fingerprint).unwrap();
    log.append(&record).unwrap();
    records
}
