//! The checkpoint of a discovery: one JSON file per finished step (the filter, each row of heads,
//! each census, the families) in a folder named by the run's fingerprint, each written atomically,
//! so that `--resume` after an interruption redoes at most the step that was under way.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::error::DiscoverError;
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
        if resume {
            return match Self::run_of(dir) {
                Some(s) if s == fingerprint => Ok(Self::at(dir)),
                Some(_) => Err(DiscoverError::NoCheckpoint(format!(
                    "{} belongs to another run",
                    dir.display()
                ))),
                None => Err(DiscoverError::NoCheckpoint(dir.display().to_string())),
            };
        }
        if dir.exists() {
            std::fs::remove_dir_all(dir).map_err(|e| Self::io(dir, e))?;
        }
        Self::make(dir, fingerprint)
    }

    /// Opens the checkpoint `dir` of the run `fingerprint` that several processes share (the
    /// shards of a job array): made if there is none, joined if it is of the same run (whether
    /// or not `--resume` was given, as another shard may have made it), refused if it is of
    /// another run.
    pub fn join(dir: &Path, fingerprint: &str) -> Result<Checkpoint, DiscoverError> {
        match Self::run_of(dir) {
            Some(s) if s == fingerprint => Ok(Self::at(dir)),
            Some(_) => Err(DiscoverError::NoCheckpoint(format!(
                "{} belongs to another run; remove it or give another --out",
                dir.display()
            ))),
            None => Self::make(dir, fingerprint),
        }
    }

    /// The fingerprint of the run whose checkpoint `dir` is, if it is one.
    fn run_of(dir: &Path) -> Option<String> {
        std::fs::read_to_string(dir.join(FINGERPRINT)).ok()
    }

    /// Makes the checkpoint `dir` of the run `fingerprint`.
    fn make(dir: &Path, fingerprint: &str) -> Result<Checkpoint, DiscoverError> {
        std::fs::create_dir_all(dir).map_err(|e| Self::io(dir, e))?;
        write_atomic(&dir.join(FINGERPRINT), fingerprint.as_bytes())
            .map_err(|e| DiscoverError::Checkpoint(e.to_string()))?;
        Ok(Self::at(dir))
    }

    fn at(dir: &Path) -> Checkpoint {
        Checkpoint {
            dir: dir.to_path_buf(),
        }
    }

    fn io(dir: &Path, e: std::io::Error) -> DiscoverError {
        DiscoverError::Checkpoint(format!("{}: {e}", dir.display()))
    }

    /// The file of step `name`.
    fn step_path(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.json"))
    }

    /// Whether step `name` has finished (here or in another task sharing the folder).
    pub fn has(&self, name: &str) -> bool {
        self.step_path(name).exists()
    }

    /// Claims step `name` for this task of a job array: true if no task had claimed it. A claim
    /// only steers who starts a step; a step claimed by a task that died is still done by
    /// another (see `steps::Shared`).
    pub fn claim(&self, name: &str) -> bool {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(self.dir.join(format!("{name}.claim")))
            .is_ok()
    }

    /// The step `name` if it finished before.
    pub fn load<T: DeserializeOwned>(&self, name: &str) -> Option<T> {
        serde_json::from_slice(&self.load_bytes(name)?).ok()
    }

    /// Every file saved under a name starting with `prefix` that reads as a `T`, in name order.
    pub fn load_prefixed<T: DeserializeOwned>(&self, prefix: &str) -> Vec<T> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter_map(|f| Some(f.strip_suffix(".json")?.to_string()))
            .filter(|n| n.starts_with(prefix))
            .collect();
        names.sort();
        names.iter().filter_map(|n| self.load(n)).collect()
    }

    /// The step `name` as it was saved, if it finished before.
    pub fn load_bytes(&self, name: &str) -> Option<Vec<u8>> {
        std::fs::read(self.step_path(name)).ok()
    }

    /// Records the finished step `name`.
    pub fn save<T: Serialize>(&self, name: &str, value: &T) -> Result<(), DiscoverError> {
        self.save_bytes(name, &serde_json::to_vec(value).expect("steps serialize"))
    }

    /// Records the finished step `name` as JSON bytes (written atomically: a reader sees the
    /// whole step or none).
    pub fn save_bytes(&self, name: &str, bytes: &[u8]) -> Result<(), DiscoverError> {
        write_atomic(&self.step_path(name), bytes)
            .map_err(|e| DiscoverError::Checkpoint(e.to_string()))
    }

    /// Removes the checkpoint once the run's results are written.
    pub fn remove(self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
