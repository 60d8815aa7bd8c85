//! The distribution flags shared by the commands that split their work (`--shard`, `--hosts`,
//! `--process`, `--workers`), their validation into a [`Mode`], the fail-stop panic hook of cluster
//! runs, and the command line as result files record it (without those flags).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::Result;

use super::output::BadInput;
use crate::run::cluster::{Cluster, parse_hosts};
use crate::run::shard::Shard;

/// Distribution flags (flattened into a command's arguments).
#[derive(clap::Args, Debug, Clone)]
pub struct DistArgs {
    /// Run the deterministic slice I of N (0-based) alone, for job arrays; writes a shard file
    /// for `ansatz merge`.
    #[arg(long, value_name = "I/N", conflicts_with = "hosts")]
    shard: Option<String>,
    /// Cluster run on timely-dataflow: a file of `host:port` lines, one per process, in process
    /// order. Private network only: the links have no authentication.
    #[arg(long, value_name = "FILE")]
    hosts: Option<PathBuf>,
    /// This process's index in the hosts file (0-based; process 0 prints the result).
    #[arg(long, value_name = "I", requires = "hosts")]
    process: Option<usize>,
    /// Worker threads per cluster process.
    #[arg(long, value_name = "W", requires = "hosts")]
    workers: Option<usize>,
    /// Seconds to wait for every cluster peer to connect.
    #[arg(long, default_value_t = 60, value_name = "SECS", requires = "hosts")]
    connect_timeout: u64,
}

pub use crate::run::Mode;

impl DistArgs {
    pub fn mode(&self) -> Result<Mode> {
        if let Some(s) = &self.shard {
            let shard: Shard = s
                .parse()
                .map_err(|e: crate::run::shard::ShardError| BadInput(e.to_string()))?;
            return Ok(Mode::Shard(shard));
        }
        let Some(path) = &self.hosts else {
            return Ok(Mode::Single);
        };
        let text = std::fs::read_to_string(path)
            .map_err(|e| BadInput(format!("--hosts {}: {e}", path.display())))?;
        let hosts =
            parse_hosts(&text).map_err(|e| BadInput(format!("--hosts {}: {e}", path.display())))?;
        let process = self.process.ok_or_else(|| {
            BadInput("--hosts needs --process I (this process's line, 0-based)".into())
        })?;
        let cluster = Cluster::new(
            hosts,
            process,
            self.workers.unwrap_or(1),
            Duration::from_secs(self.connect_timeout),
        )
        .map_err(|e| BadInput(e.to_string()))?;
        install_fail_stop();
        Ok(Mode::Cluster(cluster))
    }
}

/// Fail-stop: when a peer dies, timely's network threads panic with "timely communication
/// error"; the workers would then wait for it forever. Stop the whole process instead, with a
/// one-line message and exit code 2. Process 0's checkpoint keeps the finished units. Several
/// network threads (receiving from and sending to the dead peer) fail at once: the first one
/// reports and exits, the others (and any panic after it) wait silently for the exit.
fn install_fail_stop() {
    static STOPPING: AtomicBool = AtomicBool::new(false);
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        let peer_failed = msg.contains("timely communication error");
        if STOPPING.load(Ordering::SeqCst) || (peer_failed && STOPPING.swap(true, Ordering::SeqCst))
        {
            loop {
                std::thread::park();
            }
        }
        if peer_failed {
            eprintln!(
                "ansatz: a cluster peer failed ({msg}); the job stops. Restart every process with --resume: process 0's checkpoint keeps the finished work"
            );
            std::process::exit(2);
        }
        default(info);
    }));
}
