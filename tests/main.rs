//! The integration tests, built as one binary; one module per area.

mod common;
/// Engines: known answers from shared/data, fast vs reference property tests, notation round trips.
mod engine;
/// Search: exhaustive known answers, prefix sharing vs every deal, multi-player engine, resume, bad input.
mod search;
