//! Pictures for people who would rather look than read: a game's hand sizes per trick
//! ([`game`]), a family drawn as a graph in DOT or self-drawn SVG ([`graph`]), and the catalogue of
//! balanced cycles as one static HTML page ([`page`]).
//!
//! Nothing here prints: each entry point writes its file atomically and returns what it drew.

pub mod game;
pub mod graph;
pub mod page;

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::backward::{FamilyError, Unverified};

/// Why a picture cannot be made.
#[derive(Debug, Error)]
pub enum PictureError {
    /// The file name's extension names no format this picture is drawn in.
    #[error("{path}: unknown picture format (use a name ending in {expected})")]
    UnknownFormat { path: PathBuf, expected: String },
    #[error("writing {path}: {detail}")]
    Write { path: PathBuf, detail: String },
    #[error("drawing {0}")]
    Draw(String),
    #[error(transparent)]
    Family(#[from] FamilyError),
    #[error(transparent)]
    Unverified(#[from] Unverified),
    #[error("the family holds more than {0} positions: too many to draw one node each")]
    TooLarge(usize),
    #[error("bad position {0:?} in the catalogue: {1}")]
    Position(String, String),
}

/// The format of a picture file, by its extension (any case).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
    Dot,
}

impl Format {
    /// The format `path` names among `allowed`, else [`PictureError::UnknownFormat`].
    pub fn of(path: &Path, allowed: &[Format]) -> Result<Format, PictureError> {
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        let found = match ext.as_deref() {
            Some("svg") => Some(Format::Svg),
            Some("png") => Some(Format::Png),
            Some("dot" | "gv") => Some(Format::Dot),
            _ => None,
        };
        match found {
            Some(f) if allowed.contains(&f) => Ok(f),
            _ => Err(PictureError::UnknownFormat {
                path: path.to_path_buf(),
                expected: allowed
                    .iter()
                    .map(|f| match f {
                        Format::Svg => ".svg",
                        Format::Png => ".png",
                        Format::Dot => ".dot",
                    })
                    .collect::<Vec<_>>()
                    .join(" or "),
            }),
        }
    }
}

/// Writes `bytes` to `path` atomically, naming the file on failure.
fn write(path: &Path, bytes: &[u8]) -> Result<(), PictureError> {
    crate::library::write_atomic(path, bytes).map_err(|e| PictureError::Write {
        path: e.path,
        detail: e.source.to_string(),
    })
}

/// Text made safe inside XML and HTML elements and double-quoted attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
