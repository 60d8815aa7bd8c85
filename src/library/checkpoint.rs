//! Checkpoints of long enumerations: an append-only log of finished ranges and their pieces, and
//! the time each run had spent ([`Elapsed`]).
//!
//! Layout: magic `ANSZCKPT`, version (u32 LE), then framed records: length (u32 LE), FNV-1a 64 of
//! the payload (u64 LE), payload (bincode 2). The first record is the run's fingerprint (template
//! and parameters); every later one a record of the job (`find-pieces`: a [`RangeDone`] and the
//! run's [`Elapsed`] time; `assemble`: its own records). Each finished range is appended at once,
//! so a `kill -9` loses only ranges still running; a torn last record fails its checksum and is
//! cut off on resume. The file is created atomically (temp file + rename).

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::atomic::{fnv1a, write_atomic};
use crate::card::Card;

const MAGIC: &[u8; 8] = b"ANSZCKPT";
const VERSION: u32 = 1;

/// One finished range of an enumeration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RangeDone {
    pub index: u32,
    pub candidates: u64,
    pub pieces: Vec<Vec<Card>>,
}

/// The seconds one run (`segment`, its start in nanoseconds since the Unix epoch) had spent when
/// the record was written. A job's time is, over its runs, the sum of each run's latest record.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
pub struct Elapsed {
    pub segment: u64,
    pub seconds: f64,
}

impl Elapsed {
    /// A new run's segment id: when it started.
    pub fn segment_now() -> u64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    }

    /// The latest record of each run among `records`, in segment order.
    pub fn latest(records: impl IntoIterator<Item = Elapsed>) -> Vec<Elapsed> {
        let mut by: BTreeMap<u64, f64> = BTreeMap::new();
        for e in records {
            let s = by.entry(e.segment).or_insert(0.0);
            *s = s.max(e.seconds);
        }
        by.into_iter()
            .map(|(segment, seconds)| Elapsed { segment, seconds })
            .collect()
    }

    /// The seconds of the runs among `records`, `None` when none recorded its time.
    pub fn total(records: &[Elapsed]) -> Option<f64> {
        (!records.is_empty()).then(|| {
            Elapsed::latest(records.iter().copied())
                .iter()
                .map(|e| e.seconds)
                .sum()
        })
    }
}

#[derive(Debug, Error)]
pub enum CheckpointError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: not an ansatz checkpoint")]
    NotCheckpoint { path: PathBuf },
    #[error("{path}: checkpoint version {found} is newer than this ansatz reads")]
    Newer { path: PathBuf, found: u32 },
    #[error(
        "{path}: the checkpoint belongs to another run ({found}); this run is {expected}. Delete it or change --out"
    )]
    Mismatch {
        path: PathBuf,
        expected: String,
        found: String,
    },
    #[error(
        "{path}: a checkpoint of an unfinished run exists: add --resume to finish it, or delete it to start over"
    )]
    Exists { path: PathBuf },
}

/// An open checkpoint, appending finished units of type `T` (by default the ranges of a piece
/// enumeration; other commands log their own record types in the same framing).
pub struct Checkpoint<T = RangeDone> {
    path: PathBuf,
    file: File,
    records: PhantomData<fn(T) -> T>,
}

fn frame(payload: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(payload.len() + 12);
    v.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    v.extend_from_slice(&fnv1a(payload).to_le_bytes());
    v.extend_from_slice(payload);
    v
}

/// The payload of the next frame of `bytes[at..]`, or `None` at a missing, torn or corrupted frame.
fn next_frame(bytes: &[u8], at: usize) -> Option<&[u8]> {
    let head = bytes.get(at..at + 12)?;
    let len = u32::from_le_bytes(head[..4].try_into().unwrap()) as usize;
    let sum = u64::from_le_bytes(head[4..].try_into().unwrap());
    let payload = bytes.get(at + 12..at + 12 + len)?;
    (fnv1a(payload) == sum).then_some(payload)
}

impl<T: Serialize + DeserializeOwned> Checkpoint<T> {
    /// Starts a checkpoint at `path` for a run named by `fingerprint`. Refuses to overwrite the
    /// checkpoint of an unfinished run.
    pub fn create(path: &Path, fingerprint: &str) -> Result<Checkpoint<T>, CheckpointError> {
        if path.exists() {
            return Err(CheckpointError::Exists {
                path: path.to_path_buf(),
            });
        }
        let io = |source| CheckpointError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&frame(fingerprint.as_bytes()));
        write_atomic(path, &bytes).map_err(|e| io(e.source))?;
        let file = OpenOptions::new().append(true).open(path).map_err(io)?;
        Ok(Checkpoint {
            path: path.to_path_buf(),
            file,
            records: PhantomData,
        })
    }

    /// Opens the checkpoint at `path` (creating it when there is none) and returns the ranges it
    /// holds. A torn or corrupted tail is cut off.
    pub fn resume(
        path: &Path,
        fingerprint: &str,
    ) -> Result<(Checkpoint<T>, Vec<T>), CheckpointError> {
        if !path.exists() {
            return Ok((Checkpoint::create(path, fingerprint)?, Vec::new()));
        }
        let io = |source| CheckpointError::Io {
            path: path.to_path_buf(),
            source,
        };
        let bytes = std::fs::read(path).map_err(io)?;
        if bytes.len() < 12 || &bytes[..8] != MAGIC {
            return Err(CheckpointError::NotCheckpoint {
                path: path.to_path_buf(),
            });
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
        if version > VERSION {
            return Err(CheckpointError::Newer {
                path: path.to_path_buf(),
                found: version,
            });
        }
        let Some(fp) = next_frame(&bytes, 12) else {
            return Err(CheckpointError::NotCheckpoint {
                path: path.to_path_buf(),
            });
        };
        if fp != fingerprint.as_bytes() {
            return Err(CheckpointError::Mismatch {
                path: path.to_path_buf(),
                expected: fingerprint.to_string(),
                found: String::from_utf8_lossy(fp).into_owned(),
            });
        }
        let mut at = 12 + 12 + fp.len();
        let mut done = Vec::new();
        while let Some(payload) = next_frame(&bytes, at) {
            let Ok((r, _)) = crate::library::bounded::decode::<T>(payload) else {
                break;
            };
            done.push(r);
            at += 12 + payload.len();
        }
        let file = OpenOptions::new().write(true).open(path).map_err(io)?;
        file.set_len(at as u64).map_err(io)?;
        drop(file);
        let file = OpenOptions::new().append(true).open(path).map_err(io)?;
        Ok((
            Checkpoint {
                path: path.to_path_buf(),
                file,
                records: PhantomData,
            },
            done,
        ))
    }

    /// Appends one finished unit (one `write` call, so a crash tears at most this record).
    pub fn append(&mut self, record: &T) -> Result<(), CheckpointError> {
        let payload = bincode::serde::encode_to_vec(record, bincode::config::standard())
            .expect("record encodes");
        self.file
            .write_all(&frame(&payload))
            .map_err(|source| CheckpointError::Io {
                path: self.path.clone(),
                source,
            })
    }

    /// Deletes the checkpoint once the final output is written.
    pub fn finish(self) -> Result<(), CheckpointError> {
        let Checkpoint { path, file, .. } = self;
        drop(file);
        std::fs::remove_file(&path).map_err(|source| CheckpointError::Io { path, source })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each run has a segment of its own, later runs larger: a resumed job's time is the sum of
    /// its runs' (`Elapsed::latest`), so two runs with one id would count only the longer.
    #[test]
    fn each_run_gets_a_later_segment() {
        let first = Elapsed::segment_now();
        // After 2020 in nanoseconds since the epoch.
        assert!(first > 1_577_836_800_000_000_000, "{first}");
        std::thread::sleep(std::time::Duration::from_millis(2));
        let second = Elapsed::segment_now();
        assert!(second > first, "{first} then {second}");
        let runs = Elapsed::latest([
            Elapsed {
                segment: first,
                seconds: 3.0,
            },
            Elapsed {
                segment: second,
                seconds: 5.0,
            },
            Elapsed {
                segment: first,
                seconds: 4.0,
            },
        ]);
        assert_eq!(runs.iter().map(|e| e.seconds).sum::<f64>(), 9.0);
    }
}
