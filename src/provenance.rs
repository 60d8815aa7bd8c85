//! Provenance of a result file, kept apart from its facts: the command as a user would type it,
//! the version, the git commit when known, threads, seconds and machine. Result files carry it
//! as one `run` object (the last line of a JSON-lines file, a `run` key of a JSON file), so two
//! runs of the same command compare equal on everything else whatever their timing.
//!
//! Also where output goes by default (`out/`, untracked) and where checkpoints and shard files
//! go when the output is the tracked `results/` tree (never beside it).

use std::path::{Component, Path, PathBuf};

use serde_json::{Value, json};

/// Where commands write by default: a folder the repository ignores.
pub const DEFAULT_OUT: &str = "out";

/// The key of the provenance object in result files.
pub const RUN_KEY: &str = "run";

/// Provenance of one run.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// The command as a user would type it (`ansatz assemble --balance`), without local paths
    /// to the binary and without the flags that only steer this invocation.
    pub command: String,
    pub version: String,
    /// The commit of the checkout the binary was built in, when it can be found.
    pub commit: Option<String>,
    pub threads: usize,
    pub seconds: f64,
    pub machine: String,
    /// Seconds of each named stage of a run made of stages (`discover`), in stage order; empty
    /// for other commands. Timing, so kept here with the provenance, never among the facts.
    pub stages: Vec<(String, f64)>,
}

impl Run {
    /// Provenance of the running process, for a command already normalised by the caller.
    pub fn here(command: String, threads: usize, seconds: f64) -> Run {
        Run {
            command,
            version: env!("CARGO_PKG_VERSION").to_string(),
            commit: commit(),
            threads,
            seconds,
            machine: machine(),
            stages: Vec::new(),
        }
    }

    /// The same provenance with the seconds of each stage.
    pub fn with_stages(mut self, stages: Vec<(String, f64)>) -> Run {
        self.stages = stages;
        self
    }

    pub fn to_json(&self) -> Value {
        let ms = |s: f64| (s * 1000.0).round() / 1000.0;
        let mut v = json!({
            "command": self.command,
            "version": self.version,
            "commit": self.commit,
            "threads": self.threads,
            "seconds": ms(self.seconds),
            "machine": self.machine,
        });
        if !self.stages.is_empty() {
            v["stage_seconds"] = self
                .stages
                .iter()
                .map(|(name, s)| json!({"stage": name, "seconds": ms(*s)}))
                .collect();
        }
        v
    }

    /// The `run` line of a JSON-lines result file.
    pub fn line(&self) -> String {
        json!({ RUN_KEY: self.to_json() }).to_string()
    }

    /// The readable block that closes a text result file.
    pub fn text_block(&self) -> String {
        let mut s = format!(
            "\nrun\n  command   {}\n  version   ansatz {}\n  commit    {}\n  threads   {}\n  seconds   {:.2}\n  machine   {}\n",
            self.command,
            self.version,
            self.commit.as_deref().unwrap_or("unknown"),
            self.threads,
            self.seconds,
            self.machine
        );
        if !self.stages.is_empty() {
            let stages: Vec<String> = self
                .stages
                .iter()
                .map(|(name, secs)| format!("{name} {secs:.1} s"))
                .collect();
            s.push_str(&format!("  stages    {}\n", stages.join(", ")));
        }
        s
    }
}

/// Flags that steer one invocation (how the work is split, resumed, shown), each with its value:
/// never part of a recorded command, so a resumed, split or clustered run records the same
/// command as a single one.
pub const STEERING_VALUE: &[&str] = &[
    "--shard",
    "--hosts",
    "--process",
    "--workers",
    "--connect-timeout",
    "--threads",
    "--stop-after-units",
    "--stop-after-ranges",
    "--stop-after-levels",
    "--checkpoint-every",
];

/// Switches that steer one invocation (see [`STEERING_VALUE`]).
pub const STEERING_SWITCH: &[&str] = &["--resume", "--json", "-q", "--quiet"];

/// The command line of this process as a user would type it (see [`user_command`]), without
/// the steering flags.
pub fn this_command() -> String {
    user_command(args(), STEERING_VALUE, STEERING_SWITCH)
}

std::thread_local! {
    /// The command line a call on this thread stands for, when it is not the process's own.
    static ARGS: std::cell::RefCell<Option<Vec<String>>> = const { std::cell::RefCell::new(None) };
}

/// The command line result files record: the process's own (`std::env::args`), or the one
/// [`with_args`] gives the calls on this thread.
pub fn args() -> Vec<String> {
    ARGS.with(|a| a.borrow().clone())
        .unwrap_or_else(|| std::env::args().collect())
}

/// Runs `f` with `args` (program name first) as the command line its result files record. A
/// program that embeds the library (the Python module) calls it with the `ansatz` command
/// equivalent to the call, so `ansatz reproduce` can rerun what it wrote.
pub fn with_args<T>(args: Vec<String>, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<Vec<String>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            ARGS.with(|a| *a.borrow_mut() = self.0.take());
        }
    }
    let _restore = Restore(ARGS.with(|a| a.borrow_mut().replace(args)));
    f()
}

/// A command recorded by an older ansatz (the program as invoked, arguments joined by spaces),
/// written as [`this_command`] would write it.
pub fn normalize_command(cmd: &str) -> String {
    let args =
        split_command(cmd).unwrap_or_else(|| cmd.split_whitespace().map(String::from).collect());
    user_command(args, STEERING_VALUE, STEERING_SWITCH)
}

/// The command line as a user would type it: the program is `ansatz` whatever path ran it, an
/// absolute path inside the working directory is written relative to it, and an argument with
/// spaces or shell characters is single-quoted. `skip_value` flags are dropped with their value,
/// `skip_switch` flags alone.
pub fn user_command(
    args: impl IntoIterator<Item = String>,
    skip_value: &[&str],
    skip_switch: &[&str],
) -> String {
    let cwd = std::env::current_dir().ok();
    let mut out = vec!["ansatz".to_string()];
    let mut it = args.into_iter().skip(1);
    while let Some(a) = it.next() {
        if skip_switch.contains(&a.as_str()) {
            continue;
        }
        if skip_value.contains(&a.as_str()) {
            it.next();
            continue;
        }
        if a.split_once('=')
            .is_some_and(|(f, _)| skip_value.contains(&f))
        {
            continue;
        }
        out.push(quote(&relative(&a, cwd.as_deref())));
    }
    out.join(" ")
}

fn relative(arg: &str, cwd: Option<&Path>) -> String {
    let (flag, value) = match arg.split_once('=') {
        Some((f, v)) if f.starts_with("--") => (Some(f), v),
        _ => (None, arg),
    };
    let p = Path::new(value);
    let rel = match cwd {
        Some(cwd) if p.is_absolute() => p
            .strip_prefix(cwd)
            .ok()
            .map(|r| r.display().to_string())
            .filter(|r| !r.is_empty()),
        _ => None,
    };
    match (flag, rel) {
        (Some(f), Some(r)) => format!("{f}={r}"),
        (None, Some(r)) => r,
        _ => arg.to_string(),
    }
}

/// Quotes an argument for a POSIX shell when it needs it.
pub fn quote(a: &str) -> String {
    let plain = !a.is_empty()
        && a.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_=./:,+@%^".contains(c));
    if plain {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', r"'\''"))
    }
}

/// Splits a command recorded by [`user_command`] back into arguments (single quotes only).
pub fn split_command(cmd: &str) -> Option<Vec<String>> {
    let mut args = Vec::new();
    let mut cur = String::new();
    let mut has = false;
    let mut chars = cmd.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                has = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        x => cur.push(x),
                    }
                }
            }
            '\\' => {
                has = true;
                cur.push(chars.next()?);
            }
            c if c.is_whitespace() => {
                if has {
                    args.push(std::mem::take(&mut cur));
                    has = false;
                }
            }
            c => {
                has = true;
                cur.push(c);
            }
        }
    }
    if has {
        args.push(cur);
    }
    Some(args)
}

/// "CPU model, N cores", read from the system.
pub fn machine() -> String {
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    format!("{model}, {cores} cores")
}

/// The commit the binary was built from (recorded by `build.rs`); for a build outside git, the
/// commit of a git checkout that holds the running binary, when there is one.
fn commit() -> Option<String> {
    if let Some(c) = option_env!("ANSATZ_COMMIT") {
        return Some(c.to_string());
    }
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?;
    let o = std::process::Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(dir)
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let s = String::from_utf8(o.stdout).ok()?.trim().to_string();
    (o.status.success() && !s.is_empty()).then_some(s)
}

/// Where a run whose results go to `out` keeps its checkpoint and shard files: beside the
/// results, except inside the tracked `results/` tree, where they go to the same path under
/// `out/work/` instead (a result file there is written only when finished).
pub fn work_dir(out: &Path) -> PathBuf {
    if in_results(out) {
        let clean: PathBuf = out
            .components()
            .filter(|c| !matches!(c, Component::CurDir))
            .collect();
        Path::new(DEFAULT_OUT).join("work").join(clean)
    } else {
        out.to_path_buf()
    }
}

/// Whether `out` is the tracked `results/` tree or a folder in it (a path relative to the
/// repository root, as the commands that write there are run).
pub fn in_results(out: &Path) -> bool {
    let mut parts = out.components().filter(|c| !matches!(c, Component::CurDir));
    matches!(parts.next(), Some(Component::Normal(first)) if first == RESULTS)
}

/// The tracked results tree, relative to the repository root.
pub const RESULTS: &str = "results";

/// Where the catalogue of balanced cycles lives in the results tree.
pub const CATALOGUE_DIR: &str = "results/balanced";

/// Where the checkpoint or shard file `path` of a run goes: [`work_dir`] of its folder.
pub fn work_path(path: &Path) -> PathBuf {
    let dir = path.parent().unwrap_or(Path::new(""));
    work_dir(dir).join(path.file_name().unwrap_or_default())
}

/// Splits a result file's text into its facts and its `run` object: the lines of a JSON-lines
/// file other than the `run` line, or a JSON object without its `run` key.
pub fn split_facts(text: &str) -> Option<(Vec<Value>, Option<Value>)> {
    let mut facts = Vec::new();
    let mut run = None;
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') && !trimmed.contains("}\n{") {
        // One JSON object (possibly pretty-printed).
        if let Ok(mut v) = serde_json::from_str::<Value>(text) {
            run = v.as_object_mut().and_then(|o| o.remove(RUN_KEY));
            facts.push(v);
            return Some((facts, run));
        }
    }
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut v: Value = serde_json::from_str(line).ok()?;
        let is_run = v
            .as_object()
            .is_some_and(|o| o.len() == 1 && o.contains_key(RUN_KEY));
        if is_run {
            run = v.as_object_mut().and_then(|o| o.remove(RUN_KEY));
        } else {
            facts.push(v);
        }
    }
    Some((facts, run))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_round_trip_through_quoting() {
        let args: Vec<String> = [
            "/x/target/release/ansatz",
            "play",
            "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)",
            "--require=--K---A----AA",
            "it's",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let cmd = user_command(args.clone(), &[], &[]);
        assert!(cmd.starts_with("ansatz play '---K"));
        let back = split_command(&cmd).unwrap();
        assert_eq!(back[0], "ansatz");
        assert_eq!(&back[1..], &args[1..]);
    }

    #[test]
    fn steering_flags_are_dropped() {
        let args = [
            "ansatz",
            "assemble",
            "--shard",
            "0/8",
            "--resume",
            "--threads=2",
            "-q",
        ]
        .iter()
        .map(|s| s.to_string());
        assert_eq!(
            user_command(args, &["--shard", "--threads"], &["--resume", "-q"]),
            "ansatz assemble"
        );
    }

    #[test]
    fn checkpoints_of_tracked_results_go_under_out() {
        assert_eq!(
            work_dir(Path::new("results/assemble")),
            Path::new("out/work/results/assemble")
        );
        assert_eq!(
            work_dir(Path::new("./results")),
            Path::new("out/work/results")
        );
        assert_eq!(work_dir(Path::new("out/x")), Path::new("out/x"));
        assert_eq!(work_dir(Path::new("/tmp/r")), Path::new("/tmp/r"));
    }

    #[test]
    fn stage_seconds_go_with_the_run_only_when_there_are_stages() {
        let plain = Run::here("ansatz play X".into(), 1, 0.5);
        assert!(plain.to_json().get("stage_seconds").is_none());
        assert!(!plain.text_block().contains("stages"));
        let staged = plain.with_stages(vec![("heads".into(), 12.3456), ("census".into(), 0.04)]);
        assert_eq!(
            staged.to_json()["stage_seconds"],
            json!([{"stage": "heads", "seconds": 12.346}, {"stage": "census", "seconds": 0.04}])
        );
        assert!(
            staged
                .text_block()
                .ends_with("  stages    heads 12.3 s, census 0.0 s\n")
        );
    }

    #[test]
    fn facts_leave_out_the_run() {
        let jsonl = "{\"meta\":{\"a\":1}}\n{\"summary\":{\"n\":2}}\n{\"run\":{\"seconds\":3}}\n";
        let (facts, run) = split_facts(jsonl).unwrap();
        assert_eq!(facts.len(), 2);
        assert_eq!(run.unwrap()["seconds"], 3);
        let json = "{\"deals\":5,\"run\":{\"seconds\":1}}";
        let (facts, run) = split_facts(json).unwrap();
        assert_eq!(facts, vec![json!({"deals": 5})]);
        assert!(run.is_some());
    }
}
