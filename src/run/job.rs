//! The contract of a splittable job, and the one place where a job becomes a run: [`run`] turns
//! it into a single run, one shard of a job array (writing its shard file), or one process of a
//! cluster, each resumable from its checkpoint; [`merge_parts`] turns the shard files of a job
//! array into the single run's answer. File names of checkpoints and shard files are made here
//! too ([`checkpoint_path`], [`shard_path`]), so every job names them alike.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::shard::{Shard, ShardFile, decode_part, encode_part};
use super::{Mode, RunError};

/// A command whose work splits into units.
///
/// - Its units: [`Job::units`]; shard `I/N` owns unit `u` when `u % N == I`, a cluster spreads
///   them over its workers.
/// - How a unit runs: [`Job::execute`] runs the units this process owns (locally, or with its
///   cluster peers), resuming from and saving to its checkpoint.
/// - What a checkpoint entry holds: [`Job::Entry`].
/// - How results merge: a run ends with a [`Job::Part`]; [`Job::finish`] folds the parts of every
///   shard (or the one part of a single run) into the answer and writes the result files.
pub trait Job {
    /// The subcommand as shard files name it (`assemble`, `search-random`, ...).
    const COMMAND: &'static str;
    /// What the checkpoint records: a finished unit's result (a log of them), or the folded state
    /// of the finished prefix of units (each in its file format, `library::checkpoint`,
    /// `search::checkpoint`, `backward::level_checkpoint`).
    type Entry;
    /// What a finished run hands on: to [`Job::finish`] directly, or in a shard file to merge.
    type Part: Serialize + DeserializeOwned;
    /// What the answer needs besides the parts (it travels in every shard file).
    type Context: Serialize + DeserializeOwned;
    /// The single run's answer.
    type Answer;

    /// The number of units of the whole run.
    fn units(&self) -> u64;
    /// What identifies the run: every shard of it carries this, and merge refuses a mix.
    fn fingerprint(&self) -> String;
    /// The context of the answer.
    fn context(&self) -> Self::Context;
    /// Where shard `shard` writes its shard file.
    fn shard_file(&self, shard: Shard) -> PathBuf;
    /// Where the single run writes its results (`None`: the job's default).
    fn out(&self) -> Option<&Path>;
    /// Runs the units this process owns in `mode`.
    fn execute(&self, mode: &Mode) -> Result<Ran<Self::Part>, RunError>;
    /// Called once the answer or the shard file is written: a checkpoint log is closed (and
    /// removed) only then, so an interruption before never loses finished work.
    fn close(&self) -> Result<(), RunError> {
        Ok(())
    }
    /// A shard's totals, for its report.
    fn summary(&self, part: &Self::Part) -> Value;
    /// The answer from the parts (one per shard, in shard order), with the result files written
    /// to `out` (`None`: where the context says).
    fn finish(
        ctx: Self::Context,
        parts: Vec<Self::Part>,
        out: Option<&Path>,
    ) -> Result<Self::Answer, RunError>;
}

/// How [`Job::execute`] ended on this process.
pub enum Ran<P> {
    /// The units it owned are done.
    Part(P),
    /// Ended without an answer: stopped before the end (a test's `--stop-after-*`; the checkpoint
    /// holds the finished work), or nothing to find (a game that ends has no family).
    Stopped(Stop),
    /// A cluster process other than process 0: it computed its share, process 0 answers.
    Follower,
}

/// How [`run`] ended.
pub enum Done<A> {
    /// The single run's answer (a single run, or process 0 of a cluster).
    Answer(A),
    /// One shard of a job array: its shard file is written.
    Shard(ShardDone),
    /// See [`Ran::Stopped`].
    Stopped(Stop),
    /// See [`Ran::Follower`].
    Follower,
}

/// Why a run gave no answer, and how it ends.
pub struct Stop {
    /// What happened and how to finish.
    pub why: String,
    /// A report of its own (printed on stdout instead of the message), if the command gives one.
    pub report: Option<Value>,
    /// The exit code.
    pub code: u8,
}

impl Stop {
    /// A run that ends with `why` on stderr and exit code 1.
    pub fn with(why: impl Into<String>) -> Stop {
        Stop {
            why: why.into(),
            report: None,
            code: 1,
        }
    }
}

/// A finished shard: its file, its totals, and the pattern of every shard's file for merge.
pub struct ShardDone {
    pub shard: Shard,
    pub path: PathBuf,
    /// The shard's totals with `shard` and `file` (its `--json` answer).
    pub summary: Value,
    /// The shard files of the whole job array, as a glob for `ansatz merge`.
    pub every: String,
}

/// Runs `job` as `mode` says: its units (those this process owns), then the shard file of a
/// shard, or the answer of a single run (on a cluster, at process 0).
pub fn run<J: Job>(job: &J, mode: &Mode) -> Result<Done<J::Answer>, RunError> {
    // A shard past the last unit would own nothing: a job array of more tasks than the run has
    // units is a mistake worth saying at once.
    if let Some(s) = mode.shard() {
        let units = job.units();
        if u64::from(s.index) >= units {
            return Err(RunError::Input(format!(
                "--shard {s}: this run has {units} units, so shard {} would own none; use at most {units} shards",
                s.index
            )));
        }
    }
    let part = match job.execute(mode)? {
        Ran::Part(p) => p,
        Ran::Stopped(why) => return Ok(Done::Stopped(why)),
        Ran::Follower => return Ok(Done::Follower),
    };
    let Some(shard) = mode.shard() else {
        let answer = J::finish(job.context(), vec![part], job.out())?;
        job.close()?;
        return Ok(Done::Answer(answer));
    };
    let path = job.shard_file(shard);
    let file = ShardFile {
        command: J::COMMAND.into(),
        fingerprint: job.fingerprint(),
        shard,
        context: encode_part(&job.context()),
        records: encode_part(&part),
    };
    file.write(&path).map_err(RunError::failed)?;
    job.close()?;
    let mut summary = job.summary(&part);
    summary["shard"] = json!(shard.to_string());
    summary["file"] = json!(path.display().to_string());
    let every = path
        .display()
        .to_string()
        .replace(&shard.suffix(), &format!("shard-*-of-{}", shard.count));
    Ok(Done::Shard(ShardDone {
        shard,
        path,
        summary,
        every,
    }))
}

/// The single run's answer from the shard files of a job array (checked by
/// [`super::shard::read_set`] to be every shard of one run), written to `out`.
pub fn merge_parts<J: Job>(files: &[ShardFile], out: Option<&Path>) -> Result<J::Answer, RunError> {
    let (ctx, parts) = decode_parts::<J>(files)?;
    J::finish(ctx, parts, out)
}

/// `name`, the stem of a run's result files as a shard file's context records it, if it is a
/// plain file name: a damaged or forged one naming a path (`/`, `..`) would have the merge write
/// outside the results directory.
pub fn plain_name(name: &str) -> Result<&str, RunError> {
    let plain = !name.is_empty()
        && !name.contains(['/', '\\', '\0'])
        && Path::new(name).file_name() == Some(std::ffi::OsStr::new(name));
    if plain {
        Ok(name)
    } else {
        Err(RunError::Input(format!(
            "shard file: the run's name {name:?} is not a plain file name"
        )))
    }
}

/// The context and the parts (in the files' order) that the shard files of `J` carry.
pub fn decode_parts<J: Job>(files: &[ShardFile]) -> Result<(J::Context, Vec<J::Part>), RunError> {
    let what = J::COMMAND.replace('-', " ");
    let ctx: J::Context =
        decode_part(&files[0].context, &format!("{what} context")).map_err(RunError::input)?;
    let parts = files
        .iter()
        .map(|f| decode_part(&f.records, &format!("{what} records")).map_err(RunError::input))
        .collect::<Result<Vec<J::Part>, RunError>>()?;
    Ok((ctx, parts))
}

/// `DIR/STEM.EXT`, or `DIR/STEM.shard-I-of-N.EXT` for a shard (which keeps its own, so each task
/// of a job array resumes alone), with DIR moved out of `results/` ([`crate::provenance::work_dir`]).
pub fn checkpoint_path(dir: &Path, stem: &str, shard: Option<Shard>, ext: &str) -> PathBuf {
    crate::provenance::work_dir(dir).join(match shard {
        Some(s) => format!("{stem}.{}.{ext}", s.suffix()),
        None => format!("{stem}.{ext}"),
    })
}

/// `DIR/STEM.shard-I-of-N.bin`: the shard file of a job whose results go to directory `dir`.
pub fn shard_path(dir: &Path, stem: &str, shard: Shard) -> PathBuf {
    crate::provenance::work_dir(dir).join(format!("{stem}.{}.bin", shard.suffix()))
}

/// `FILE.checkpoint` beside the file a run writes (`--out FILE`), moved out of `results/` like
/// [`checkpoint_path`]; a shard's file is `FILE.shard-I-of-N` ([`super::shard::beside`]), so its
/// checkpoint is `FILE.shard-I-of-N.checkpoint`.
pub fn checkpoint_beside(file: &Path) -> PathBuf {
    let mut name = file.file_name().unwrap_or_default().to_os_string();
    name.push(".checkpoint");
    crate::provenance::work_path(&file.with_file_name(name))
}

/// Names what ran in a report's JSON: `isa`, the instruction set the dispatch chose (the best the
/// processor has, or `ANSATZ_ISA`'s), and `lanes`, the loop the lanes played in (as
/// `engine::lanes::Shape` spells it), or null where games were played one by one.
pub fn ran_in(v: &mut Value, lanes: Option<crate::engine::lanes::Shape>) {
    let isa = lanes.map_or_else(crate::engine::Isa::get, |s| s.isa);
    v["isa"] = json!(isa.name());
    v["lanes"] = json!(lanes.map(|s| s.to_string()));
}

#[cfg(test)]
mod tests {
    use super::plain_name;

    #[test]
    fn a_run_name_is_a_plain_file_name() {
        for ok in [
            "random-standard-2p-seed7",
            "discover-28-4J4Q4K-quick",
            "a..b",
        ] {
            assert_eq!(plain_name(ok).ok(), Some(ok));
        }
        for bad in ["", ".", "..", "../x", "a/b", "/etc/x", "a\\b", "a\0b"] {
            assert!(plain_name(bad).is_err(), "{bad:?}");
        }
    }
}
