//! The integration tests, built as one binary; one module per area.

/// Backward play: predecessors, closures, families, extension.
mod backward;
mod common;
/// Engines: known answers from shared/data, fast vs reference property tests, notation round trips.
mod engine;
