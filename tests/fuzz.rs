//! The fuzz targets' findings kept: every input under `tests/data/fuzz/TARGET/` (each a crash,
//! hang or bound broken that a campaign found, and fixed since) is run through the same checks
//! as the target (`fuzz/src/checks.rs`, included here), on stable, with the ordinary suite.

#[path = "../fuzz/src/checks.rs"]
#[allow(dead_code)]
mod checks;

use std::path::PathBuf;

/// The saved inputs of `target`, sorted (none is fine: a target that never crashed).
fn inputs(target: &str) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fuzz")
        .join(target);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.file_name().is_some_and(|n| n != "README.md"));
    v.sort();
    v
}

fn replay(target: &str, check: fn(&[u8])) {
    for p in inputs(target) {
        let data = std::fs::read(&p).unwrap();
        if std::panic::catch_unwind(|| check(&data)).is_err() {
            panic!("{} fails its check again", p.display());
        }
    }
}

#[test]
fn saved_fuzz_inputs_pass_their_checks() {
    replay("notation", checks::notation);
    replay("spec", checks::spec);
    replay("library", checks::library);
    replay("checkpoint", checks::checkpoint);
    replay("shard", checks::shard);
    replay("results", checks::results);
    replay("beat_it", checks::beat_it);
}
