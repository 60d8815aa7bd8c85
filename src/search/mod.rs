//! Searches over many deals: random deals with statistics ([`random`], [`stats`]), every deal of a
//! small deck ([`exhaustive`], split with [`multiset`] ranks), resumable [`checkpoint`]s (run alone, in shards or on a cluster by `run::search`) and the length
//! histogram [`plot`].

pub mod checkpoint;
pub mod exhaustive;
pub mod multiset;
pub mod ordered;
pub mod plot;
pub mod random;
pub mod stats;
pub mod table;
