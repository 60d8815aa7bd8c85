//! Piece libraries (`pieces/*.bin`): the header, the piece records, and reading and writing them;
//! also the checkpoints of long enumerations (`checkpoint.rs`) and atomic writes (`atomic.rs`).
//!
//! File layout (all integers little-endian):
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `ANSZPLIB` |
//! | 4 | format version ([`VERSION`]) |
//! | 8 | length of the whole file (tells a cut file from a changed one) |
//! | 8 | length H of the header |
//! | H | the [`Header`], bincode 2 (standard configuration) |
//! | 8 | number N of piece records |
//! | ... | N [`PieceRecord`]s, bincode 2, one after another |
//! | 8 | FNV-1a 64 checksum of every byte before it |

pub mod atomic;
pub mod bounded;
pub mod checkpoint;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::card::{Card, KINDS};
use crate::notation::Dash;

pub use atomic::{WriteError, fnv1a, write_atomic};

pub const MAGIC: &[u8; 8] = b"ANSZPLIB";
/// Bumped on any change of the encoding; readers refuse newer files.
pub const VERSION: u32 = 1;

/// The template a library's pieces were tested in; `assemble` checks it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TemplateInfo {
    pub name: String,
    /// The `position = ...` line, with its slots.
    pub position: String,
    /// The filter piece in dash notation (empty without a filter slot).
    pub filter: String,
    /// Face kinds a piece may hold, e.g. `QKA`.
    pub faces: String,
    /// The filled template, e.g. `--J--K---A----AAJ{TEST}J-/J- (1)`.
    pub game: String,
}

/// How the pieces were found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Enumeration {
    /// `exact` (every candidate tested), `faces-as K` (heuristic), `naive` (exact, one game per
    /// candidate) or `import FILE`.
    pub method: String,
    pub min_len: u32,
    pub max_len: u32,
    pub max_faces: u32,
    pub max_per_kind: u32,
    /// Candidates tested (0 for an import).
    pub candidates: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    pub template: TemplateInfo,
    pub enumeration: Enumeration,
    /// The command line that made the library.
    pub command: String,
    /// `CARGO_PKG_VERSION` of the ansatz that wrote it.
    pub ansatz_version: String,
}

/// One piece.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceRecord {
    /// The cards, top first (penalties 0–4).
    pub sequence: Vec<Card>,
    /// Class id: classes are numbered from 0 in the order of their representatives.
    pub class: u32,
    pub length: u32,
    /// Cards of each kind, indexed by penalty (number, J, Q, K, A).
    pub counts: [u32; KINDS],
    /// Preperiod and period (tricks) of the template game with this piece as TEST.
    pub preperiod: u64,
    pub period: u64,
}

impl PieceRecord {
    /// The piece in dash notation.
    pub fn dash(&self) -> String {
        Dash(&self.sequence).to_string()
    }
    pub fn faces(&self) -> u32 {
        self.counts[1..].iter().sum()
    }
}

/// A whole library in memory. Pieces are sorted shortest first, then lexicographically.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Library {
    pub header: Header,
    pub pieces: Vec<PieceRecord>,
}

/// A class of pieces: its id, representative (shortest, then lexicographically smallest) and size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassInfo {
    pub id: u32,
    pub representative: Vec<Card>,
    pub size: usize,
}

impl Library {
    /// The classes, by id.
    pub fn classes(&self) -> Vec<ClassInfo> {
        let mut out: Vec<ClassInfo> = Vec::new();
        let n = self
            .pieces
            .iter()
            .map(|p| p.class as usize + 1)
            .max()
            .unwrap_or(0);
        let mut slots: Vec<Option<ClassInfo>> = vec![None; n];
        for p in &self.pieces {
            let slot = &mut slots[p.class as usize];
            match slot {
                None => {
                    *slot = Some(ClassInfo {
                        id: p.class,
                        representative: p.sequence.clone(),
                        size: 1,
                    })
                }
                Some(c) => {
                    c.size += 1;
                    if crate::card::rep_order(&p.sequence, &c.representative).is_lt() {
                        c.representative = p.sequence.clone();
                    }
                }
            }
        }
        out.extend(slots.into_iter().flatten());
        out
    }
}

/// Why a library could not be read or written. Every variant names the file.
#[derive(Debug, Error)]
pub enum LibraryError {
    #[error("{path}: cannot read or write: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: not an ansatz piece library (no ANSZPLIB magic bytes)")]
    NotLibrary { path: PathBuf },
    #[error(
        "{path}: library format version {found} is newer than this ansatz reads ({supported}); upgrade ansatz"
    )]
    Newer {
        path: PathBuf,
        found: u32,
        supported: u32,
    },
    #[error("{path}: truncated library ({detail})")]
    Truncated { path: PathBuf, detail: String },
    #[error("{path}: corrupted library ({detail})")]
    Corrupt { path: PathBuf, detail: String },
}

fn config() -> bincode::config::Configuration {
    bincode::config::standard()
}

/// The most bytes one header or piece record may claim while it is decoded. Bincode reserves a
/// string's or a list's declared length before reading it, so without a limit a few bytes
/// claiming a 70 GB string abort the process (found by the `library` fuzz target); a real header
/// or record claims a few hundred bytes.
const RECORD_LIMIT: usize = 1 << 20;

fn read_config() -> impl bincode::config::Config {
    config().with_limit::<RECORD_LIMIT>()
}

/// Encodes a library in the file layout above.
pub fn encode(lib: &Library) -> Vec<u8> {
    let header = bincode::serde::encode_to_vec(&lib.header, config()).expect("header encodes");
    let mut out = Vec::with_capacity(64 + header.len() + lib.pieces.len() * 40);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&[0; 8]); // The file length, filled in below.
    out.extend_from_slice(&(header.len() as u64).to_le_bytes());
    out.extend_from_slice(&header);
    out.extend_from_slice(&(lib.pieces.len() as u64).to_le_bytes());
    for p in &lib.pieces {
        bincode::serde::encode_into_std_write(p, &mut out, config()).expect("record encodes");
    }
    let total = out.len() as u64 + 8;
    out[12..20].copy_from_slice(&total.to_le_bytes());
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Decodes a library; `path` only names the file in errors.
pub fn decode(bytes: &[u8], path: &Path) -> Result<Library, LibraryError> {
    let path = path.to_path_buf();
    let truncated = |detail: &str| LibraryError::Truncated {
        path: path.clone(),
        detail: detail.to_string(),
    };
    let corrupt = |detail: String| LibraryError::Corrupt {
        path: path.clone(),
        detail,
    };
    if bytes.len() < 8 || &bytes[..8] != MAGIC {
        // A prefix of the magic is a library cut short, not a foreign file.
        if !bytes.is_empty() && bytes.len() < 8 && MAGIC.starts_with(bytes) {
            return Err(truncated("ends inside the magic bytes"));
        }
        return Err(LibraryError::NotLibrary { path });
    }
    if bytes.len() < 12 {
        return Err(truncated("ends inside the version"));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
    if version > VERSION {
        return Err(LibraryError::Newer {
            path,
            found: version,
            supported: VERSION,
        });
    }
    if version == 0 {
        return Err(corrupt("format version 0".into()));
    }
    if bytes.len() < 20 {
        return Err(truncated("ends inside the file length"));
    }
    let declared = u64::from_le_bytes(bytes[12..20].try_into().unwrap());
    if (bytes.len() as u64) < declared {
        return Err(truncated(&format!("{} of {declared} bytes", bytes.len())));
    }
    if bytes.len() as u64 > declared {
        return Err(corrupt(format!(
            "{} bytes, but the file says {declared}",
            bytes.len()
        )));
    }
    if bytes.len() < 20 + 8 + 8 + 8 {
        return Err(corrupt("too short for a header".into()));
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    if fnv1a(body) != u64::from_le_bytes(sum.try_into().unwrap()) {
        return Err(corrupt("checksum mismatch: the file was changed".into()));
    }
    let header_len = u64::from_le_bytes(body[20..28].try_into().unwrap());
    if header_len > (body.len() - 28) as u64 {
        return Err(corrupt("header length out of range".into()));
    }
    let h_end = 28 + header_len as usize;
    let (header, used): (Header, usize) =
        bincode::serde::decode_from_slice(&body[28..h_end], read_config())
            .map_err(|e| corrupt(format!("bad header: {e}")))?;
    if used != header_len as usize {
        return Err(corrupt("header length mismatch".into()));
    }
    if body.len() < h_end + 8 {
        return Err(corrupt("no room for the piece count".into()));
    }
    let count = u64::from_le_bytes(body[h_end..h_end + 8].try_into().unwrap());
    let mut rest = &body[h_end + 8..];
    // The count is untrusted: every record takes at least one byte, so the bytes left bound it
    // (a 44-byte file claiming 2^64 pieces must not reserve a million records up front).
    let mut pieces = Vec::with_capacity(count.min(rest.len() as u64) as usize);
    for i in 0..count {
        let (p, used): (PieceRecord, usize) =
            bincode::serde::decode_from_slice(rest, read_config())
                .map_err(|e| corrupt(format!("bad piece record {i}: {e}")))?;
        rest = &rest[used..];
        // Checked so that users of a library can index by class and trust the counts.
        if p.sequence.iter().any(|&c| c as usize >= KINDS)
            || p.length as usize != p.sequence.len()
            || p.class as u64 >= count
            || p.counts != crate::card::DeckSpec::of_cards(&p.sequence).counts
        {
            return Err(corrupt(format!("piece record {i} is inconsistent")));
        }
        pieces.push(p);
    }
    if !rest.is_empty() {
        return Err(corrupt(format!(
            "{} stray bytes after the records",
            rest.len()
        )));
    }
    Ok(Library { header, pieces })
}

/// Reads a library file.
pub fn read(path: &Path) -> Result<Library, LibraryError> {
    let bytes = std::fs::read(path).map_err(|source| LibraryError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    decode(&bytes, path)
}

/// Writes a library file atomically.
pub fn write(path: &Path, lib: &Library) -> Result<(), LibraryError> {
    write_atomic(path, &encode(lib)).map_err(|e| LibraryError::Io {
        path: e.path,
        source: e.source,
    })
}
