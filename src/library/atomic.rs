//! The one home of file writes: every result file, library, checkpoint, shard file and picture
//! goes through [`write_atomic`], which writes a temporary file in the same directory, flushes it
//! to disk and renames it over the target. A reader sees the old file or the new one, never a
//! half-written one; on any failure (a full disk, a directory that cannot be written) the
//! temporary file is removed and the error names the destination.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use thiserror::Error;

/// A write that failed: the file it was for, and why. The old file at `path`, if any, is intact
/// and no temporary file is left.
#[derive(Debug, Error)]
#[error("writing {}: {source}", path.display())]
pub struct WriteError {
    pub path: PathBuf,
    #[source]
    pub source: io::Error,
}

/// Writes `bytes` to `path` atomically, creating the parent directory when needed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    let fail = |source| WriteError {
        path: path.to_path_buf(),
        source,
    };
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(dir) = dir {
        fs::create_dir_all(dir).map_err(fail)?;
    }
    let tmp = temp_path(path);
    let written = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if let Err(e) = written {
        // The temporary file may not exist (File::create failed); either way none is left.
        let _ = fs::remove_file(&tmp);
        return Err(fail(e));
    }
    // The rename is durable once the directory is flushed too. The new file is in place even
    // when this fails (some file systems refuse to sync a directory), so it is not an error.
    if let Ok(d) = File::open(dir.unwrap_or(Path::new("."))) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// `NAME.tmpPID-N` beside `path`: unique per process and per write, so two writers (processes
/// of a cluster, or threads) never share a temporary file.
fn temp_path(path: &Path) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    name.push(format!(".tmp{}-{n}", std::process::id()));
    path.with_file_name(name)
}

/// FNV-1a, 64 bits: the checksum of library files and checkpoint records (it detects truncation
/// and corruption; it is not meant to resist tampering).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ansatz-atomic-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_write_replaces_the_file_whole_and_leaves_no_temporary() {
        let dir = scratch("ok");
        let path = dir.join("a.json");
        write_atomic(&path, b"old").unwrap();
        write_atomic(&path, b"new").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, [std::ffi::OsString::from("a.json")]);
        fs::remove_dir_all(dir).unwrap();
    }

    /// A write into folders that do not exist yet makes them (results go to `--out` folders
    /// that a first run has not made).
    #[test]
    fn a_write_makes_its_missing_folders() {
        let dir = scratch("nested");
        let path = dir.join("a").join("b").join("c.json");
        write_atomic(&path, b"deep").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"deep");
        fs::remove_dir_all(dir).unwrap();
    }

    // A rename onto a directory fails after the temporary file was written: it is removed, and
    // the error names the destination.
    #[test]
    fn a_failed_write_names_the_path_and_removes_its_temporary() {
        let dir = scratch("fail");
        let path = dir.join("taken");
        fs::create_dir(&path).unwrap();
        fs::write(path.join("inside"), b"x").unwrap();
        let e = write_atomic(&path, b"bytes").unwrap_err();
        assert_eq!(e.path, path);
        assert!(e.to_string().contains(&path.display().to_string()), "{e}");
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, [std::ffi::OsString::from("taken")]);
        fs::remove_dir_all(dir).unwrap();
    }
}
