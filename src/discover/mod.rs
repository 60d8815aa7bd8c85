//! `ansatz discover`: balanced cycles found automatically on any deck. The pipeline ([`mod@run`])
//! runs the stages of [`stages`], one per file, each a function of the state it needs; what they
//! share (the run's context, the report bookkeeping, census plans and families in steps) is
//! [`stage`]. The stages' work lives in its own files: [`frame`] (the frame from the deck's face
//! kinds), [`heads`] (the filter and the head sweep: pieces and their accumulation), [`census`]
//! (every deck around each accumulator shape), [`insertion`] (cycles grown card by card),
//! [`whole`] (a small deck played whole), [`split`] (positions by composition, no frame), [`balance`] (families by backward play, mirror pairs,
//! replay), [`fill`] (every deck around the balance-making pieces of the balanced cycles found).
//! Each step's result goes to a [`checkpoint`], so an interrupted run resumes to the same answer;
//! every step merges its parallel work in a fixed order, so the answer does not depend on the
//! thread count.

pub mod balance;
pub mod census;
pub mod checkpoint;
pub mod clock;
pub mod config;
pub mod error;
pub mod fill;
pub mod frame;
pub mod heads;
pub mod insertion;
pub mod options;
pub mod report;
pub mod run;
pub mod scope;
pub mod split;
pub mod stage;
pub mod stages;
pub mod steps;
pub mod whole;

pub use config::{Config, DEFAULT_MAX_POSITIONS, check};
pub use error::DiscoverError;
pub use report::{Accumulator, CensusSummary, Discovery, Observer, Silent, StageReport};
pub use run::{run, run_steps, run_timed};
pub use scope::{Route, Scope};
