//! Failed writes: every command that writes result files, libraries, checkpoints or shard files,
//! pointed at a folder it cannot write to (read-only) or at a full disk (a small tmpfs), exits 2
//! with a message naming the path, leaves every file that was there as it was, leaves no
//! temporary file, and a long run's checkpoint still resumes once the disk has room again.
//!
//! A full disk needs a tmpfs of the test's own, which only root may mount; a read-only folder is
//! a remounted tmpfs for root (a mode of 0555 does not stop root) and a folder of mode 0555
//! otherwise. Where neither can be had, the case is skipped with a note on stderr.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use super::common::ansatz;

const PAPER_DEAL: &str = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)";

/// How writing is made to fail.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Broken {
    ReadOnly,
    Full,
}

/// One test's output folder: a 64 MiB tmpfs of its own when this process may mount one, else a
/// plain temporary folder. Unmounted and removed when dropped.
struct Place {
    dir: PathBuf,
    tmpfs: bool,
}

impl Place {
    fn new(tag: &str) -> Place {
        let dir = crate::common::scratch_root()
            .join(format!("ansatz-writes-{tag}-{}", std::process::id()));
        let _ = Command::new("umount").arg(&dir).output();
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let tmpfs = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=64m", "tmpfs"])
            .arg(&dir)
            .output()
            .is_ok_and(|o| o.status.success());
        Place { dir, tmpfs }
    }

    fn path(&self, name: &str) -> String {
        self.dir.join(name).display().to_string()
    }

    /// Makes writing under the folder fail, or says why that cannot be done here.
    fn break_it(&self, how: Broken) -> Result<(), String> {
        match (how, self.tmpfs) {
            (Broken::ReadOnly, true) => remount(&self.dir, "ro"),
            (Broken::ReadOnly, false) => {
                set_modes(&self.dir, 0o555);
                if fs::write(self.dir.join("probe"), b"").is_ok() {
                    let _ = fs::remove_file(self.dir.join("probe"));
                    set_modes(&self.dir, 0o755);
                    return Err(
                        "a folder of mode 0555 is writable here (root without mount)".into(),
                    );
                }
                Ok(())
            }
            (Broken::Full, true) => {
                fill(&self.dir.join("filler"));
                Ok(())
            }
            (Broken::Full, false) => Err("mount is not permitted here: no small tmpfs".into()),
        }
    }

    fn heal(&self, how: Broken) {
        match (how, self.tmpfs) {
            (Broken::ReadOnly, true) => remount(&self.dir, "rw").unwrap(),
            (Broken::ReadOnly, false) => set_modes(&self.dir, 0o755),
            (Broken::Full, _) => fs::remove_file(self.dir.join("filler")).unwrap(),
        }
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        if self.tmpfs {
            let _ = Command::new("umount").arg(&self.dir).output();
        } else {
            set_modes(&self.dir, 0o755);
        }
        let _ = fs::remove_dir_all(&self.dir);
    }
}

fn remount(dir: &Path, mode: &str) -> Result<(), String> {
    let o = Command::new("mount")
        .args(["-o", &format!("remount,{mode}")])
        .arg(dir)
        .output()
        .map_err(|e| e.to_string())?;
    o.status
        .success()
        .then_some(())
        .ok_or_else(|| String::from_utf8_lossy(&o.stderr).into_owned())
}

/// Sets the mode of `dir` and of every folder under it.
fn set_modes(dir: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    if let Ok(entries) = fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                set_modes(&e.path(), mode);
            }
        }
    }
    let _ = fs::set_permissions(dir, fs::Permissions::from_mode(mode));
}

/// Writes `path` until the disk is full.
fn fill(path: &Path) {
    use std::io::Write;
    let mut f = fs::File::create(path).unwrap();
    let block = vec![0u8; 4096];
    while f.write_all(&block).is_ok() {}
    let _ = f.sync_all();
    // The last partial page is full too: a byte at a time until nothing more goes in.
    while f.write_all(&[0]).is_ok() && f.flush().is_ok() {}
}

/// Every file under `dir` (but the filler) with its bytes.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut all = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n != "filler") {
                all.insert(p.clone(), fs::read(&p).unwrap());
            }
        }
    }
    all
}

fn run(args: &[String]) -> Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    ansatz(&args)
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `args` with writing under `place` broken `how`: exit 2, a message naming a path in the
/// folder, every file as it was and no temporary file. Returns false (with a note) when `how`
/// cannot be had here.
fn fails_cleanly(place: &Place, how: Broken, args: &[String], label: &str) -> bool {
    if let Err(why) = place.break_it(how) {
        eprintln!("note: {label}: {how:?} skipped: {why}");
        return false;
    }
    let before = files(&place.dir);
    let o = run(args);
    let after = files(&place.dir);
    place.heal(how);
    let e = err(&o);
    assert_eq!(o.status.code(), Some(2), "{label} {how:?}: {e}");
    assert!(
        e.contains(&place.dir.display().to_string()),
        "{label} {how:?}: the message names no path in the folder: {e}"
    );
    assert!(!e.contains("panicked"), "{label} {how:?}: {e}");
    for (p, bytes) in &before {
        assert!(
            after.get(p) == Some(bytes),
            "{label} {how:?}: {} changed",
            p.display()
        );
    }
    for p in after.keys() {
        assert!(
            before.contains_key(p),
            "{label} {how:?}: {} left behind",
            p.display()
        );
    }
    true
}

/// A command run well, then with its folder read-only and with the disk full (each over the
/// good run's files, which must survive), then well again.
fn check_command(tag: &str, args: impl Fn(&Place) -> Vec<String>) {
    let place = Place::new(tag);
    let args = args(&place);
    let o = run(&args);
    assert_eq!(o.status.code(), Some(0), "{tag}: {}", err(&o));
    assert!(!files(&place.dir).is_empty(), "{tag} wrote nothing");
    for how in [Broken::ReadOnly, Broken::Full] {
        fails_cleanly(&place, how, &args, tag);
    }
    let o = run(&args);
    assert_eq!(o.status.code(), Some(0), "{tag} after: {}", err(&o));
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn with(v: &[&str], out: String) -> Vec<String> {
    let mut a = strings(v);
    a.extend(["--out".to_string(), out]);
    a
}

#[test]
fn assemble_fails_cleanly() {
    check_command("assemble", |p| with(&["assemble", "-q"], p.path("")));
}

#[test]
fn find_pieces_fails_cleanly() {
    check_command("find-pieces", |p| {
        with(
            &["find-pieces", "--max-len", "13", "--max-faces", "3", "-q"],
            p.path("lib.bin"),
        )
    });
}

#[test]
fn family_fails_cleanly() {
    check_command("family", |p| {
        with(&["family", PAPER_DEAL], p.path("family.json"))
    });
}

#[test]
fn discover_fails_cleanly() {
    check_command("discover", |p| {
        with(
            &["discover", "--deck", "6-2J2Q2K2A", "--quick", "-q"],
            p.path(""),
        )
    });
}

#[test]
fn catalogue_fails_cleanly() {
    check_command("catalogue", |p| with(&["catalogue"], p.path("")));
}

#[test]
fn search_exhaustive_fails_cleanly() {
    check_command("exhaustive", |p| {
        with(
            &["search", "exhaustive", "--deck", "4-1J1Q1K1A", "-q"],
            p.path(""),
        )
    });
}

#[test]
fn search_random_fails_cleanly() {
    check_command("random", |p| {
        with(&["search", "random", "--games", "2000", "-q"], p.path(""))
    });
}

// A shard of a job array writes its shard file through the same atomic write.
#[test]
fn a_shard_fails_cleanly() {
    check_command("shard", |p| {
        with(
            &[
                "search", "random", "--games", "2000", "--shard", "0/2", "-q",
            ],
            p.path(""),
        )
    });
}

/// A long run stopped with its checkpoint (`stop` added to `args`), resumed on a full
/// disk (exit 2, the message naming the path, no temporary file), then resumed with room again:
/// the same files as a run never interrupted.
fn resumes_after_a_full_disk(tag: &str, args: impl Fn(&Place) -> Vec<String>, stop: &[&str]) {
    let whole = Place::new(&format!("{tag}-whole"));
    let o = run(&args(&whole));
    assert_eq!(o.status.code(), Some(0), "{tag}: {}", err(&o));
    let place = Place::new(tag);
    let args = args(&place);
    let mut stopped = args.clone();
    stopped.extend(strings(stop));
    // Stopped part way, as an interruption would (find-pieces exits 0, the others 1).
    let o = run(&stopped);
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{tag} stopped: {}",
        err(&o)
    );
    assert!(
        files(&place.dir)
            .keys()
            .any(|p| p.to_string_lossy().ends_with(".checkpoint")),
        "{tag}: no checkpoint"
    );
    let mut resume = args.clone();
    resume.push("--resume".into());
    if let Err(why) = place.break_it(Broken::Full) {
        eprintln!("note: {tag}: resume on a full disk skipped: {why}");
        return;
    }
    let o = run(&resume);
    let left = files(&place.dir);
    place.heal(Broken::Full);
    let e = err(&o);
    assert_eq!(o.status.code(), Some(2), "{tag} on a full disk: {e}");
    assert!(e.contains(&place.dir.display().to_string()), "{tag}: {e}");
    for p in left.keys() {
        let name = p.file_name().unwrap().to_string_lossy();
        assert!(!name.contains(".tmp"), "{tag}: {} left behind", p.display());
    }
    let o = run(&resume);
    assert_eq!(o.status.code(), Some(0), "{tag} resumed: {}", err(&o));
    // The same files as the uninterrupted run (no checkpoint left), the library byte for byte.
    let names = |dir: &Path| -> Vec<PathBuf> {
        files(dir)
            .into_keys()
            .map(|p| p.strip_prefix(dir).unwrap().to_path_buf())
            .collect()
    };
    assert_eq!(
        names(&place.dir),
        names(&whole.dir),
        "{tag}: the files of the run"
    );
    // A library records the command that made it (its --out differs): the pieces must agree.
    let lib = |dir: &Path| {
        ansatz::library::read(&dir.join("lib.bin"))
            .ok()
            .map(|l| l.pieces)
    };
    assert_eq!(lib(&place.dir), lib(&whole.dir), "{tag}: the library");
}

#[test]
fn find_pieces_resumes_after_a_full_disk() {
    resumes_after_a_full_disk(
        "find-resume",
        |p| {
            with(
                &[
                    "find-pieces",
                    "--max-len",
                    "13",
                    "--max-faces",
                    "3",
                    "-q",
                    "--ranges",
                    "300",
                ],
                p.path("lib.bin"),
            )
        },
        &["--stop-after-ranges", "3", "--threads", "1"],
    );
}

#[test]
fn assemble_resumes_after_a_full_disk() {
    resumes_after_a_full_disk(
        "assemble-resume",
        |p| with(&["assemble", "-q"], p.path("")),
        &["--stop-after-units", "1", "--threads", "1"],
    );
}

#[test]
fn family_resumes_after_a_full_disk() {
    resumes_after_a_full_disk(
        "family-resume",
        |p| {
            with(
                &["family", PAPER_DEAL, "--checkpoint-every", "0"],
                p.path("family.json"),
            )
        },
        &["--stop-after-levels", "3"],
    );
}

// A finished search keeps its checkpoint (docs/formats.md: `--resume` of a finished search
// answers from it): resumed on a full disk it fails to write its results, and the checkpoint
// still answers once there is room.
#[test]
fn a_finished_search_resumes_after_a_full_disk() {
    for (tag, v) in [
        (
            "ex-resume",
            &["search", "exhaustive", "--deck", "4-1J1Q1K1A", "-q"][..],
        ),
        (
            "rnd-resume",
            &["search", "random", "--games", "2000", "-q"][..],
        ),
    ] {
        let place = Place::new(tag);
        let args = with(v, place.path(""));
        assert_eq!(run(&args).status.code(), Some(0), "{tag}");
        let mut resume = args.clone();
        resume.push("--resume".into());
        if !fails_cleanly(&place, Broken::Full, &resume, tag) {
            return;
        }
        let o = run(&resume);
        assert_eq!(o.status.code(), Some(0), "{tag} resumed: {}", err(&o));
    }
}
