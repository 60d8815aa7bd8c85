//! Beyond one machine: deterministic shards for job arrays (`--shard I/N` + `ansatz merge`) and
//! cluster runs on timely-dataflow (`--hosts`, `--process`, `--workers`).

pub mod closure;
pub mod cluster;
pub mod family;
pub mod lockstep;
pub mod owner;
pub mod shard;
pub mod start;

/// How a run is split: one process, one shard of a job array, or one process of a cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    Single,
    Shard(shard::Shard),
    Cluster(cluster::Cluster),
}

impl Mode {
    /// The shard of a job-array run.
    pub fn shard(&self) -> Option<shard::Shard> {
        match self {
            Mode::Shard(s) => Some(*s),
            _ => None,
        }
    }

    /// Whether this process keeps the run's log and gives the answer: every process but the
    /// non-zero processes of a cluster.
    pub fn lead(&self) -> bool {
        !matches!(self, Mode::Cluster(c) if c.process != 0)
    }
}
