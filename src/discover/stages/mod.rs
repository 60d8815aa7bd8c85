//! The stages of a discovery, one per file, each a function that takes the state it needs and
//! returns what it found (its report goes to the [`Log`](super::stage::Log)). `run.rs` runs them
//! in order: [`frame`], [`deck`] (a deck small enough played whole), the ansatz route
//! ([`heads`]: the filter and the head sweep; [`census`]; [`frames`], the frame sweep), the
//! insertion route ([`insertion`]), the split route ([`split`]: positions by composition),
//! [`balance`] (the families), and [`fill`].

pub mod balance;
pub mod census;
pub mod deck;
pub mod fill;
pub mod frame;
pub mod frames;
pub mod heads;
pub mod insertion;
pub mod split;
