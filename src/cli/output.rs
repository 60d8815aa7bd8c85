//! Output plumbing shared by the subcommands: a buffered stdout that reports broken pipes as
//! errors (never panics), JSON printing, and the bad-input error.

use std::io::{self, BufWriter, Write};

use serde_json::Value;

use thiserror::Error;

/// Bad input found at the edge (exit code 2); the message names the problem.
#[derive(Debug, Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// Buffered, locked stdout.
pub struct Out(BufWriter<io::StdoutLock<'static>>);

impl Out {
    pub fn new() -> Out {
        Out(BufWriter::new(io::stdout().lock()))
    }

    /// Prints one JSON value on its own line.
    pub fn json(&mut self, value: &Value) -> io::Result<()> {
        serde_json::to_writer(&mut self.0, value)?;
        self.0.write_all(b"\n")?;
        self.0.flush()
    }
}

impl Default for Out {
    fn default() -> Self {
        Self::new()
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// Whether an error chain ends in a broken pipe (e.g. `ansatz ... | head`).
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Runs `job` as `mode` says (its progress `bars` cleared at the end): the single run's answer,
/// or the exit code of a run that gives none here: a shard (its file and totals are printed,
/// exit 0), a stopped run (the message says how to resume, exit 1), a cluster process other than
/// process 0 (silent, exit 0).
pub fn run_job<J: crate::run::Job>(
    job: &J,
    mode: &crate::run::Mode,
    bars: &[&indicatif::ProgressBar],
    as_json: bool,
) -> anyhow::Result<Result<J::Answer, std::process::ExitCode>> {
    use crate::run::Done;
    use std::process::ExitCode;
    let done = crate::run::run(job, mode);
    for b in bars {
        b.finish_and_clear();
    }
    match done? {
        Done::Answer(a) => Ok(Ok(a)),
        Done::Follower => Ok(Err(ExitCode::SUCCESS)),
        Done::Stopped(stop) => {
            match &stop.report {
                Some(v) if as_json => Out::new().json(v)?,
                Some(_) => writeln!(Out::new(), "{}", stop.why)?,
                None => eprintln!("ansatz: {}", stop.why),
            }
            Ok(Err(ExitCode::from(stop.code)))
        }
        Done::Shard(s) => {
            let mut out = Out::new();
            if as_json {
                out.json(&s.summary)?;
            } else {
                let totals: Vec<String> = s
                    .summary
                    .as_object()
                    .into_iter()
                    .flatten()
                    .filter(|(k, _)| *k != "shard" && *k != "file")
                    // "150071 deals", but "method prefix-sharing" and "wins [75,80]".
                    .map(|(k, v)| match v {
                        Value::Number(n) => format!("{n} {k}"),
                        Value::String(s) => format!("{k} {s}"),
                        v => format!("{k} {v}"),
                    })
                    .collect();
                writeln!(
                    out,
                    "shard {}: {} -> {}\nmerge every shard with: ansatz merge {}",
                    s.shard,
                    totals.join(", "),
                    s.path.display(),
                    s.every
                )?;
            }
            Ok(Err(ExitCode::SUCCESS))
        }
    }
}
