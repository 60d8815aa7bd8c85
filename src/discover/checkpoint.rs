//! The checkpoint of a discovery: one JSON file per finished step (the filter, each row of heads,
//! each census, the families) in a folder named by the run's fingerprint, each written atomically,
//! so that `--resume` after an interruption redoes at most the step that was under way.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::DiscoverError;
use crate::library::atomic::write_atomic;

/// The folder of one run's finished steps.
pub struct Checkpoint {
    dir: PathBuf,
}

const FINGERPRINT: &str = "fingerprint.txt";

impl Checkpoint {
    /// Opens the checkpoint `dir` of the run `fingerprint`: with `resume`, an existing one of the
    /// same run (an error if there is none); without, a fresh one (any old one is removed).
    pub fn open(dir: &Path, fingerprint: &str, resume: bool) -> Result<Checkpoint, DiscoverError> {
        let io = |e: std::io::Error| DiscoverError::Checkpoint(format!("{}: {e}", dir.display()));
        let fp = dir.join(FINGERPRINT);
        if resume {
            match std::fs::read_to_string(&fp) {
                Ok(s) if s == fingerprint => {}
                Ok(_) => {
                    return Err(DiscoverError::NoCheckpoint(format!(
                        "{} belongs to another run",
                        dir.display()
                    )));
                }
                Err(_) => return Err(DiscoverError::NoCheckpoint(dir.display().to_string())),
            }
        } else {
            if dir.exists() {
                std::fs::remove_dir_all(dir).map_err(io)?;
            }
            std::fs::create_dir_all(dir).map_err(io)?;
            write_atomic(&fp, fingerprint.as_bytes()).map_err(io)?;
        }
        Ok(Checkpoint {
            dir: dir.to_path_buf(),
        })
    }

    /// The step `name` if it finished before.
    pub fn load<T: DeserializeOwned>(&self, name: &str) -> Option<T> {
        let bytes = std::fs::read(self.dir.join(format!("{name}.json"))).ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    /// Records the finished step `name`.
    pub fn save<T: Serialize>(&self, name: &str, value: &T) -> Result<(), DiscoverError> {
        let bytes = serde_json::to_vec(value).expect("steps serialize");
        write_atomic(&self.dir.join(format!("{name}.json")), &bytes)
            .map_err(|e| DiscoverError::Checkpoint(format!("{}: {e}", self.dir.display())))
    }

    /// Removes the checkpoint once the run's results are written.
    pub fn remove(self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
