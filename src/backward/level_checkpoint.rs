//! Level checkpoints of a closure search: the frontier and the totals at a level boundary, saved
//! atomically (temp file + rename) so an interrupted `family` continues from the saved level.
//!
//! The BFS is level-synchronous, so the whole state between two levels is the next level to expand
//! (in its fixed order) and the totals so far. Layout: magic `ANSZLEVL`, version (u32 LE),
//! fingerprint length (u32 LE) and bytes, payload length (u64 LE), FNV-1a 64 of the payload
//! (u64 LE), payload (bincode 2 of `Saved`). Positions are packed `u128` keys, so at most 52
//! cards.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use super::closure::LevelState;
use super::closure::{Closure, Node};
use super::compact::Compact;
use crate::library::{bounded, fnv1a, write_atomic};
use crate::position::{PACK_MAX_CARDS, Position};

const MAGIC: &[u8; 8] = b"ANSZLEVL";
/// Version 2 added the reach; a version-1 checkpoint cannot be continued (its reach is unknown).
/// Version 3 added the seconds the job had spent; a version-2 checkpoint still loads, its time
/// unknown (0).
const VERSION: u32 = 3;

impl LevelState {
    /// The state of a search after a level: `out`'s totals and `frontier`.
    pub fn of(out: &Closure, frontier: &[Node]) -> LevelState {
        LevelState {
            size: out.size,
            max_depth: out.max_depth,
            reach: out.reach,
            balanced: out.balanced.clone(),
            frontier: frontier.to_vec(),
        }
    }
}

#[derive(Debug, Error)]
pub enum LevelCheckpointError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: not an ansatz family checkpoint, or a damaged one")]
    NotCheckpoint { path: PathBuf },
    #[error("{path}: checkpoint version {found} is newer than this ansatz reads")]
    Newer { path: PathBuf, found: u32 },
    #[error(
        "{path}: checkpoint version {found} was written by an older ansatz and lacks the closure's reach; delete it and run again"
    )]
    Older { path: PathBuf, found: u32 },
    #[error(
        "{path}: the checkpoint belongs to another run ({found}); this run is {expected}. Delete it or change --out"
    )]
    Mismatch {
        path: PathBuf,
        expected: String,
        found: String,
    },
    #[error(
        "positions of {0} cards do not fit a checkpoint's packed keys (at most {PACK_MAX_CARDS})"
    )]
    TooManyCards(usize),
}

/// A node as saved: packed position, tricks and cards to the cycle.
type Wire = (u128, u32, u32);

/// The payload: the state, and the seconds the job had spent, its earlier runs included.
/// Bincode writes a struct as its fields one after another, so this is the version-2 payload
/// ([`SavedV2`]) with the seconds after it.
#[derive(Serialize, Deserialize)]
struct Saved {
    state: SavedV2,
    seconds: f64,
}

/// The payload of version 2: the card count (to unpack the keys) and the state.
#[derive(Clone, Serialize, Deserialize)]
struct SavedV2 {
    cards: u32,
    size: u64,
    max_depth: u32,
    reach: u8,
    balanced: Vec<Wire>,
    frontier: Vec<Wire>,
}

fn to_wire(n: &Node) -> Wire {
    (n.pos.pack(), n.tricks, n.cards)
}

fn from_wire(w: &Wire, cards: usize) -> Option<Node> {
    // A key beyond 5^cards would not unpack to a position of `cards` cards.
    let pos = Position::unpack(w.0, cards);
    (pos.pack() == Some(w.0)).then_some(())?;
    Some(Node {
        pos: Compact::from_position(&pos)?,
        tricks: w.1,
        cards: w.2,
    })
}

/// Saves `state` of the run named by `fingerprint` at `path`, atomically, with the `seconds` the
/// job has spent so far (its earlier runs included).
pub fn save(
    path: &Path,
    fingerprint: &str,
    state: &LevelState,
    seconds: f64,
) -> Result<(), LevelCheckpointError> {
    let cards = state.frontier.first().map_or(0, |n| n.pos.total());
    if cards > PACK_MAX_CARDS {
        return Err(LevelCheckpointError::TooManyCards(cards));
    }
    let saved = SavedV2 {
        cards: cards as u32,
        size: state.size,
        max_depth: state.max_depth,
        reach: state.reach,
        balanced: state.balanced.iter().map(to_wire).collect(),
        frontier: state.frontier.iter().map(to_wire).collect(),
    };
    let saved = Saved {
        state: saved,
        seconds,
    };
    let payload = bincode::serde::encode_to_vec(&saved, bincode::config::standard())
        .expect("a level state encodes");
    let bytes = file_bytes(VERSION, fingerprint, &payload);
    write_atomic(path, &bytes).map_err(|e| LevelCheckpointError::Io {
        path: e.path,
        source: e.source,
    })
}

/// A checkpoint file of `version` holding `payload` (the layout in the module head).
fn file_bytes(version: u32, fingerprint: &str, payload: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(payload.len() + fingerprint.len() + 40);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&version.to_le_bytes());
    bytes.extend_from_slice(&(fingerprint.len() as u32).to_le_bytes());
    bytes.extend_from_slice(fingerprint.as_bytes());
    bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&fnv1a(payload).to_le_bytes());
    bytes.extend_from_slice(payload);
    bytes
}

/// Loads the state saved at `path`, which must belong to the run named by `fingerprint`, and the
/// seconds the job had spent (0 in a version-2 checkpoint, which did not save them).
pub fn load(path: &Path, fingerprint: &str) -> Result<(LevelState, f64), LevelCheckpointError> {
    let bad = || LevelCheckpointError::NotCheckpoint {
        path: path.to_path_buf(),
    };
    let bytes = std::fs::read(path).map_err(|source| LevelCheckpointError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    if bytes.len() < 16 || &bytes[..8] != MAGIC {
        return Err(bad());
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
    if version > VERSION {
        return Err(LevelCheckpointError::Newer {
            path: path.to_path_buf(),
            found: version,
        });
    }
    if version < VERSION - 1 {
        return Err(LevelCheckpointError::Older {
            path: path.to_path_buf(),
            found: version,
        });
    }
    let fp_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let fp = bytes.get(16..16 + fp_len).ok_or_else(bad)?;
    if fp != fingerprint.as_bytes() {
        return Err(LevelCheckpointError::Mismatch {
            path: path.to_path_buf(),
            expected: fingerprint.to_string(),
            found: String::from_utf8_lossy(fp).into_owned(),
        });
    }
    let at = 16 + fp_len;
    let head = bytes.get(at..at + 16).ok_or_else(bad)?;
    let len = u64::from_le_bytes(head[..8].try_into().unwrap());
    let sum = u64::from_le_bytes(head[8..].try_into().unwrap());
    let payload = usize::try_from(len)
        .ok()
        .and_then(|len| bytes.get(at + 16..(at + 16).checked_add(len)?))
        .ok_or_else(bad)?;
    if fnv1a(payload) != sum || bytes.len() != at + 16 + payload.len() {
        return Err(bad());
    }
    let decoded = if version == VERSION {
        bounded::decode(payload).map(|(s, _)| s)
    } else {
        bounded::decode(payload).map(|(state, _): (SavedV2, _)| Saved {
            state,
            seconds: 0.0,
        })
    };
    let Saved {
        state: saved,
        seconds,
    } = decoded.map_err(|_| bad())?;
    let cards = saved.cards as usize;
    if cards > PACK_MAX_CARDS || saved.frontier.is_empty() {
        return Err(bad());
    }
    let nodes = |ws: &[Wire]| -> Result<Vec<Node>, LevelCheckpointError> {
        ws.iter()
            .map(|w| from_wire(w, cards).ok_or_else(bad))
            .collect()
    };
    let state = LevelState {
        size: saved.size,
        max_depth: saved.max_depth,
        reach: saved.reach,
        balanced: nodes(&saved.balanced)?,
        frontier: nodes(&saved.frontier)?,
    };
    Ok((state, seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(text: &str, tricks: u32) -> Node {
        let p = Position::parse(text, crate::notation::Notation::Dash).unwrap();
        Node {
            pos: Compact::from_position(&p).unwrap(),
            tricks,
            cards: tricks * 3,
        }
    }

    #[test]
    fn saves_and_loads_and_refuses_damage() {
        let dir = std::env::temp_dir().join(format!("ansatz-levelck-{}", std::process::id()));
        let path = dir.join("f.checkpoint");
        let state = LevelState {
            size: 17,
            max_depth: 2,
            reach: 1,
            balanced: vec![node("J-/-Q (2)", 2)],
            frontier: vec![node("J-/-Q (2)", 2), node("-J/Q- (1)", 2)],
        };
        save(&path, "job a", &state, 12.5).unwrap();
        assert_eq!(load(&path, "job a").unwrap(), (state.clone(), 12.5));
        assert!(matches!(
            load(&path, "job b"),
            Err(LevelCheckpointError::Mismatch { .. })
        ));
        let bytes = std::fs::read(&path).unwrap();
        for cut in [0, 10, 20, bytes.len() - 1] {
            std::fs::write(&path, &bytes[..cut]).unwrap();
            assert!(matches!(
                load(&path, "job a"),
                Err(LevelCheckpointError::NotCheckpoint { .. })
            ));
        }
        let mut flipped = bytes.clone();
        *flipped.last_mut().unwrap() ^= 1;
        std::fs::write(&path, &flipped).unwrap();
        assert!(load(&path, "job a").is_err());
        // A version-2 checkpoint (no seconds) loads, its time unknown.
        let v2 = SavedV2 {
            cards: state.frontier[0].pos.total() as u32,
            size: state.size,
            max_depth: state.max_depth,
            reach: state.reach,
            balanced: state.balanced.iter().map(to_wire).collect(),
            frontier: state.frontier.iter().map(to_wire).collect(),
        };
        let payload = bincode::serde::encode_to_vec(&v2, bincode::config::standard()).unwrap();
        std::fs::write(&path, file_bytes(2, "job a", &payload)).unwrap();
        assert_eq!(load(&path, "job a").unwrap(), (state.clone(), 0.0));
        // A state with no frontier (nothing left to expand: a finished closure is never saved),
        // or with more cards than a key holds, is refused, each alone.
        let empty = SavedV2 {
            frontier: Vec::new(),
            ..v2.clone()
        };
        let wide = SavedV2 {
            cards: PACK_MAX_CARDS as u32 + 1,
            ..v2.clone()
        };
        for bad in [empty, wide] {
            let payload = bincode::serde::encode_to_vec(&bad, bincode::config::standard()).unwrap();
            std::fs::write(&path, file_bytes(2, "job a", &payload)).unwrap();
            assert!(matches!(
                load(&path, "job a"),
                Err(LevelCheckpointError::NotCheckpoint { .. })
            ));
        }
        // A payload whose checksum is right and whose list of balanced nodes claims 2^40 of
        // them is refused, not reserved.
        let mut huge = bincode::serde::encode_to_vec(
            (v2.cards, v2.size, v2.max_depth, v2.reach),
            bincode::config::standard(),
        )
        .unwrap();
        huge.push(0xfd);
        huge.extend_from_slice(&(1u64 << 40).to_le_bytes());
        std::fs::write(&path, file_bytes(2, "job a", &huge)).unwrap();
        assert!(load(&path, "job a").is_err());
        // Other versions are refused by name, older (no reach) and newer alike.
        for (version, older) in [(1, true), (VERSION + 1, false)] {
            let mut other = bytes.clone();
            other[8..12].copy_from_slice(&version.to_le_bytes());
            std::fs::write(&path, &other).unwrap();
            let e = load(&path, "job a").unwrap_err();
            assert_eq!(
                matches!(e, LevelCheckpointError::Older { .. }),
                older,
                "{e}"
            );
            assert_eq!(
                matches!(e, LevelCheckpointError::Newer { .. }),
                !older,
                "{e}"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
