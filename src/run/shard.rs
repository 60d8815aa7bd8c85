//! Shards for job arrays: `--shard I/N` takes a deterministic 1/N slice of a command's units (unit
//! `u` belongs to shard `u % N`) with no communication, and a self-describing shard file carries
//! the finished slice to `ansatz merge`.
//!
//! Shard file layout: magic `ANSZSHRD`, version (u32 LE), payload length (u64 LE), FNV-1a 64 of
//! the payload (u64 LE), payload (bincode 2 of [`ShardFile`]). A truncated or foreign file fails
//! the magic, length or checksum check. Files are written atomically (temp file + rename).

use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::library::{fnv1a, write_atomic};

const MAGIC: &[u8; 8] = b"ANSZSHRD";
const VERSION: u32 = 1;
const HEADER: usize = 8 + 4 + 8 + 8;

/// Slice `index` of `count` (0-based index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum ShardError {
    #[error("--shard {0:?}: expected I/N with 0 <= I < N, e.g. 0/4")]
    Syntax(String),
    #[error("--shard {index}/0: the count of slices must be at least 1")]
    NoSlices { index: u32 },
    #[error("--shard {index}/{count}: the index must be below the count (0-based: 0/{count} .. {last}/{count})", last = count - 1)]
    OutOfRange { index: u32, count: u32 },
}

impl FromStr for Shard {
    type Err = ShardError;
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let syntax = || ShardError::Syntax(s.to_string());
        let (i, n) = s.trim().split_once('/').ok_or_else(syntax)?;
        let index: u32 = i.trim().parse().map_err(|_| syntax())?;
        let count: u32 = n.trim().parse().map_err(|_| syntax())?;
        if count == 0 {
            return Err(ShardError::NoSlices { index });
        }
        if index >= count {
            return Err(ShardError::OutOfRange { index, count });
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// The whole run as one shard.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Whether unit `unit` belongs to this shard. Round-robin rather than contiguous blocks:
    /// neighbouring units cost about the same, so each shard gets a fair share of the work.
    pub fn owns(&self, unit: u64) -> bool {
        unit % self.count as u64 == self.index as u64
    }

    /// File name suffix of this shard's outputs.
    pub fn suffix(&self) -> String {
        format!("shard-{}-of-{}", self.index, self.count)
    }
}

/// `PATH.shard-I-of-N`: the shard file of a `--shard I/N` run whose single run writes `path`.
pub fn beside(path: &Path, shard: Shard) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}", shard.suffix()));
    crate::provenance::work_path(&path.with_file_name(name))
}

/// What one shard hands to `ansatz merge`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardFile {
    /// The subcommand (`assemble`, `find-pieces`, ...).
    pub command: String,
    /// The run's parameters: every shard of one run carries the same fingerprint.
    pub fingerprint: String,
    pub shard: Shard,
    /// Command-specific context needed to write the final answer (bincode 2).
    pub context: Vec<u8>,
    /// The shard's finished unit results (bincode 2 of the command's record list).
    pub records: Vec<u8>,
}

#[derive(Debug, Error)]
pub enum ShardFileError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: not an ansatz shard file")]
    NotShard { path: PathBuf },
    #[error("{path}: shard file version {found} is newer than this ansatz reads ({VERSION})")]
    Newer { path: PathBuf, found: u32 },
    #[error("{path}: truncated or corrupt shard file")]
    Corrupt { path: PathBuf },
    #[error("{path}: {what}")]
    Mismatch { path: PathBuf, what: String },
    #[error("no shard files given")]
    Empty,
    #[error("shard {missing}/{count} is missing: merge needs every shard of the run")]
    Missing { missing: u32, count: u32 },
    #[error("shard file: unreadable {0}")]
    Unreadable(String),
}

/// Encodes a shard file's context or records (bincode 2).
pub fn encode_part<T: Serialize>(value: &T) -> Vec<u8> {
    bincode::serde::encode_to_vec(value, bincode::config::standard()).expect("records serialise")
}

/// Decodes a shard file's context or records; `what` names them in the error.
pub fn decode_part<T: serde::de::DeserializeOwned>(
    bytes: &[u8],
    what: &str,
) -> Result<T, ShardFileError> {
    crate::library::bounded::decode(bytes)
        .map(|(v, _)| v)
        .map_err(|_| ShardFileError::Unreadable(what.to_string()))
}

impl ShardFile {
    pub fn encode(&self) -> Vec<u8> {
        let payload = bincode::serde::encode_to_vec(self, bincode::config::standard())
            .expect("shard files serialise");
        let mut out = Vec::with_capacity(HEADER + payload.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    pub fn decode(bytes: &[u8], path: &Path) -> Result<ShardFile, ShardFileError> {
        let path = path.to_path_buf();
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(ShardFileError::NotShard { path });
        }
        if bytes.len() < HEADER {
            return Err(ShardFileError::Corrupt { path });
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
        if version > VERSION {
            return Err(ShardFileError::Newer {
                path,
                found: version,
            });
        }
        let len = u64::from_le_bytes(bytes[12..20].try_into().unwrap());
        let sum = u64::from_le_bytes(bytes[20..28].try_into().unwrap());
        let payload = &bytes[HEADER..];
        if payload.len() as u64 != len || fnv1a(payload) != sum {
            return Err(ShardFileError::Corrupt { path });
        }
        let (file, used): (ShardFile, usize) = crate::library::bounded::decode(payload)
            .map_err(|_| ShardFileError::Corrupt { path: path.clone() })?;
        if used != payload.len() || file.shard.count == 0 || file.shard.index >= file.shard.count {
            return Err(ShardFileError::Corrupt { path });
        }
        Ok(file)
    }

    pub fn write(&self, path: &Path) -> Result<(), ShardFileError> {
        write_atomic(path, &self.encode()).map_err(|e| ShardFileError::Io {
            path: e.path,
            source: e.source,
        })
    }

    pub fn read(path: &Path) -> Result<ShardFile, ShardFileError> {
        let bytes = std::fs::read(path).map_err(|source| ShardFileError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        ShardFile::decode(&bytes, path)
    }
}

/// Reads shard files and checks that they are exactly the shards 0..N of one run (same command,
/// fingerprint and N; no shard missing or given twice). Returns them in shard order.
pub fn read_set(paths: &[PathBuf]) -> Result<Vec<ShardFile>, ShardFileError> {
    read_checked(paths, true)
}

/// [`read_set`] that lets shards be missing (a job array still running): the files given must
/// still be distinct shards of one run.
pub fn read_some(paths: &[PathBuf]) -> Result<Vec<ShardFile>, ShardFileError> {
    read_checked(paths, false)
}

fn read_checked(paths: &[PathBuf], every: bool) -> Result<Vec<ShardFile>, ShardFileError> {
    let mut files: Vec<(PathBuf, ShardFile)> = Vec::new();
    for p in paths {
        files.push((p.clone(), ShardFile::read(p)?));
    }
    let Some((first_path, first)) = files.first().cloned() else {
        return Err(ShardFileError::Empty);
    };
    for (p, f) in &files[1..] {
        let what = if f.command != first.command {
            Some(format!(
                "a shard of `{}`, not of `{}` like {}",
                f.command,
                first.command,
                first_path.display()
            ))
        } else if f.fingerprint != first.fingerprint {
            Some(format!(
                "a shard of another run than {} ({} vs {})",
                first_path.display(),
                f.fingerprint,
                first.fingerprint
            ))
        } else if f.shard.count != first.shard.count {
            Some(format!(
                "shard {} but {} is shard {}",
                f.shard,
                first_path.display(),
                first.shard
            ))
        } else {
            None
        };
        if let Some(what) = what {
            return Err(ShardFileError::Mismatch {
                path: p.clone(),
                what,
            });
        }
    }
    files.sort_by_key(|(_, f)| f.shard.index);
    for w in files.windows(2) {
        if w[0].1.shard.index == w[1].1.shard.index {
            return Err(ShardFileError::Mismatch {
                path: w[1].0.clone(),
                what: format!(
                    "shard {} is given twice (also {})",
                    w[1].1.shard,
                    w[0].0.display()
                ),
            });
        }
    }
    let count = first.shard.count;
    if !every {
        return Ok(files.into_iter().map(|(_, f)| f).collect());
    }
    for (i, (_, f)) in files.iter().enumerate() {
        if f.shard.index != i as u32 {
            return Err(ShardFileError::Missing {
                missing: i as u32,
                count,
            });
        }
    }
    if files.len() as u32 != count {
        return Err(ShardFileError::Missing {
            missing: files.len() as u32,
            count,
        });
    }
    Ok(files.into_iter().map(|(_, f)| f).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_shards() {
        assert_eq!("2/5".parse(), Ok(Shard { index: 2, count: 5 }));
        assert!(matches!(
            "5/5".parse::<Shard>(),
            Err(ShardError::OutOfRange { .. })
        ));
        assert!(matches!(
            "0/0".parse::<Shard>(),
            Err(ShardError::NoSlices { index: 0 })
        ));
        for bad in ["", "1", "a/2", "1/b", "-1/3", "1/2/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn shards_partition_units() {
        let shards: Vec<Shard> = (0..3).map(|i| Shard { index: i, count: 3 }).collect();
        for u in 0..100 {
            assert_eq!(shards.iter().filter(|s| s.owns(u)).count(), 1);
        }
    }

    #[test]
    fn files_round_trip_and_reject_damage() {
        let f = ShardFile {
            command: "assemble".into(),
            fingerprint: "fp".into(),
            shard: Shard { index: 1, count: 2 },
            context: vec![1, 2, 3],
            records: vec![4, 5],
        };
        let bytes = f.encode();
        let p = Path::new("x");
        assert_eq!(ShardFile::decode(&bytes, p).unwrap(), f);
        for cut in [0, 5, 20, bytes.len() - 1] {
            assert!(ShardFile::decode(&bytes[..cut], p).is_err(), "cut {cut}");
        }
        let mut flipped = bytes.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(matches!(
            ShardFile::decode(&flipped, p),
            Err(ShardFileError::Corrupt { .. })
        ));
        let mut newer = bytes;
        newer[8] = 9;
        assert!(matches!(
            ShardFile::decode(&newer, p),
            Err(ShardFileError::Newer { .. })
        ));
    }

    #[test]
    fn a_payload_claiming_more_than_it_holds_is_corrupt_not_an_abort() {
        // A shard file whose checksum is right and whose command string declares 2^40 bytes:
        // without the bound (library/bounded.rs), bincode reserves them and the process aborts.
        let mut payload = vec![0xfd];
        payload.extend_from_slice(&(1u64 << 40).to_le_bytes());
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        bytes.extend_from_slice(&payload);
        assert!(matches!(
            ShardFile::decode(&bytes, Path::new("x")),
            Err(ShardFileError::Corrupt { .. })
        ));
        assert!(matches!(
            decode_part::<Vec<String>>(&payload, "records"),
            Err(ShardFileError::Unreadable(_))
        ));
    }
}
