//! Checkpoints of long searches: the configuration, how many units of work are finished and the
//! merged state so far, written atomically (temp file, fsync, rename) so that a crash or `kill -9`
//! leaves either the previous checkpoint or the new one, never a torn file.

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Serialize, de::DeserializeOwned};
use serde_json::Value;
use thiserror::Error;

use crate::library::{WriteError, write_atomic};

/// First field of every checkpoint, so that foreign files are rejected.
pub const MAGIC: &str = "ansatz-checkpoint";
/// Bumped whenever the layout of a checkpoint changes.
pub const VERSION: u32 = 1;

#[derive(Debug, Error)]
pub enum CheckpointError {
    #[error("no checkpoint at {0}: run without --resume first")]
    Missing(PathBuf),
    #[error("reading checkpoint {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0} is not an ansatz checkpoint (or is damaged)")]
    Foreign(PathBuf),
    #[error("checkpoint {path} has version {found}; this ansatz reads version {VERSION}")]
    Version { path: PathBuf, found: u64 },
    #[error("checkpoint {path} is for another search: {detail}")]
    Mismatch { path: PathBuf, detail: String },
    #[error(
        "{0}: a checkpoint of an unfinished run exists: add --resume to finish it, or delete it to start over"
    )]
    Unfinished(PathBuf),
}

/// Saves a checkpoint: `kind` names the search, `config` must match on resume, `done` counts the
/// finished units (a prefix of the work), `state` is the merged result so far, `seconds` the wall
/// time the job has spent so far over all its runs.
pub fn save<C: Serialize, S: Serialize>(
    path: &Path,
    kind: &str,
    config: &C,
    done: u64,
    state: &S,
    seconds: f64,
) -> Result<(), WriteError> {
    let v = serde_json::json!({
        "magic": MAGIC,
        "version": VERSION,
        "kind": kind,
        "config": config,
        "done": done,
        "state": state,
        "seconds": seconds,
    });
    let bytes = serde_json::to_vec(&v).map_err(|e| WriteError {
        path: path.to_path_buf(),
        source: std::io::Error::other(e),
    })?;
    write_atomic(path, &bytes)
}

/// What a checkpoint holds: the units done, the state, and the seconds its runs spent.
#[derive(Debug, PartialEq)]
pub struct Loaded<S> {
    pub done: u64,
    pub state: S,
    /// 0 for checkpoints written before the time was kept (the field is optional, so both old
    /// and new builds read each other's files).
    pub seconds: f64,
}

/// Loads a checkpoint of search `kind` made with `config`.
pub fn load<C: Serialize, S: DeserializeOwned>(
    path: &Path,
    kind: &str,
    config: &C,
) -> Result<Loaded<S>, CheckpointError> {
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(CheckpointError::Missing(path.to_path_buf()));
        }
        Err(source) => {
            return Err(CheckpointError::Io {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let foreign = || CheckpointError::Foreign(path.to_path_buf());
    let v: Value = serde_json::from_slice(&bytes).map_err(|_| foreign())?;
    if v.get("magic").and_then(Value::as_str) != Some(MAGIC) {
        return Err(foreign());
    }
    let version = v
        .get("version")
        .and_then(Value::as_u64)
        .ok_or_else(foreign)?;
    if version != VERSION as u64 {
        return Err(CheckpointError::Version {
            path: path.to_path_buf(),
            found: version,
        });
    }
    let mismatch = |detail: String| CheckpointError::Mismatch {
        path: path.to_path_buf(),
        detail,
    };
    let found_kind = v.get("kind").and_then(Value::as_str).unwrap_or("?");
    if found_kind != kind {
        return Err(mismatch(format!("it is a {found_kind} search")));
    }
    let want = serde_json::to_value(config).map_err(|_| foreign())?;
    if v.get("config") != Some(&want) {
        return Err(mismatch(format!(
            "saved with {}, asked for {want}",
            v.get("config").unwrap_or(&Value::Null)
        )));
    }
    let done = v.get("done").and_then(Value::as_u64).ok_or_else(foreign)?;
    let state = serde_json::from_value(v["state"].clone()).map_err(|_| foreign())?;
    let seconds = v.get("seconds").and_then(Value::as_f64).unwrap_or(0.0);
    Ok(Loaded {
        done,
        state,
        seconds,
    })
}

/// Serde for a [`DeckSpec`](crate::card::DeckSpec) as its count form (`16-2J2Q2K2A`), for
/// configurations saved in checkpoints: `#[serde(with = "deck_text")]`.
pub mod deck_text {
    use crate::card::DeckSpec;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(deck: &DeckSpec, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(deck)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<DeckSpec, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}
