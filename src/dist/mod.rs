//! Beyond one machine: deterministic shards for job arrays (`--shard I/N` + `ansatz merge`) and
//! cluster runs on timely-dataflow (`--hosts`, `--process`, `--workers`).

pub mod closure;
pub mod cluster;
pub mod family;
pub mod owner;
pub mod shard;
