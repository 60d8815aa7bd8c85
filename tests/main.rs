//! The integration tests, built as one binary; one module per area.

/// Assembly: the main job, reproducibility, resume, bad libraries.
mod assemble;
/// Backward play: predecessors, closures, families, extension.
mod backward;
/// Beat It or Eat It: Taylor's sample game, solvers vs the reference, census, CLI and play.
mod beatit;
/// The catalogue of balanced cycles over result files.
mod catalogue;
mod common;
/// Discovery: small decks end to end, the head route, thread counts, resume, bad input.
mod discover;
/// Distribution: job-array shards and `merge`, clusters on timely-dataflow (3 processes on loopback).
mod dist;
/// Engines: known answers from tests/data, fast vs reference property tests, notation round trips.
mod engine;
/// Replays every input a fuzz target found a crash with (tests/data/fuzz/), on stable.
mod fuzz;
/// Golden outputs: every splittable command's files and answers against an earlier build's.
mod golden;
/// The 64-card lanes: every instruction-set form against the portable one and the reference engine.
mod lanes;
/// Pictures: game plots, family graphs (DOT, SVG) against the closure, the catalogue page in Chromium.
mod pictures;
/// Pieces: enumeration vs naive checker, templates, classes, libraries, checkpoints, mutate.
mod pieces;
/// The repository stands alone: no reference outside it, sources named, links resolve.
mod repo;
/// Results: reproduce on the tracked files, tampered copies, a clean clone after the main job.
mod results;
/// Search: exhaustive known answers, prefix sharing vs every deal, multi-player engine, resume, bad input.
mod search;
/// Failed writes: a read-only folder and a full disk (tmpfs) for every command that writes.
mod writes;
