//! The integration tests, built as one binary; one module per area.

mod common;
/// Engines: known answers from shared/data, fast vs reference property tests, notation round trips.
mod engine;
/// Backward play: predecessors, closures, families, extension.
mod backward;
/// Pieces: enumeration vs naive checker, templates, classes, libraries, checkpoints, mutate.
mod pieces;
