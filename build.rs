//! Build script: records the commit the binary is built from (`ANSATZ_COMMIT`), so result files
//! name the code that made them, not whatever the checkout holds when the binary runs. A build
//! from sources that differ from that commit is stamped `COMMIT+dirty`, so a result file never
//! names a commit whose code did not make it.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let o = Command::new("git").args(args).output().ok()?;
    let s = String::from_utf8(o.stdout).ok()?.trim().to_string();
    (o.status.success() && !s.is_empty()).then_some(s)
}

fn main() {
    // Rebuild when HEAD moves: a commit, a checkout, or the branch's ref updated. Only paths that
    // exist are watched: cargo takes a missing one as changed on every build, so a clone without
    // `packed-refs` rebuilt the whole crate each time. The branch's folder (`refs/heads`) is
    // watched rather than its ref file, which a commit creates when the branch was packed.
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        let mut watch = vec![format!("{dir}/HEAD")];
        if let Some(reference) = git(&["symbolic-ref", "-q", "HEAD"]) {
            let common = git(&["rev-parse", "--git-common-dir"]).unwrap_or(dir.clone());
            let folder = reference.rsplit_once('/').map_or("", |(f, _)| f);
            watch.push(format!("{common}/{folder}"));
            watch.push(format!("{common}/packed-refs"));
        }
        for path in watch.iter().filter(|p| std::path::Path::new(p).exists()) {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    // The sources that make the binary: an edit to any of them reruns this script, so the
    // dirty mark follows the tree (cargo compares their modification times).
    const SOURCES: [&str; 4] = ["src", "Cargo.toml", "Cargo.lock", "build.rs"];
    for path in SOURCES {
        println!("cargo:rerun-if-changed={path}");
    }
    if let Some(commit) = git(&["rev-parse", "--short=12", "HEAD"]) {
        let mut args = vec!["status", "--porcelain", "--untracked-files=normal", "--"];
        args.extend(SOURCES);
        // `git status` prints nothing for a clean tree, so `git` gives None then.
        let dirty = git(&args).is_some();
        let mark = if dirty { "+dirty" } else { "" };
        println!("cargo:rustc-env=ANSATZ_COMMIT={commit}{mark}");
    }
}
