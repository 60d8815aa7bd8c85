//! Build script: records the commit the binary is built from (`ANSATZ_COMMIT`), so result files
//! name the code that made them, not whatever the checkout holds when the binary runs.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let o = Command::new("git").args(args).output().ok()?;
    let s = String::from_utf8(o.stdout).ok()?.trim().to_string();
    (o.status.success() && !s.is_empty()).then_some(s)
}

fn main() {
    // Rebuild when HEAD moves: a commit, a checkout, or the branch's ref updated.
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        if let Some(reference) = git(&["symbolic-ref", "-q", "HEAD"]) {
            let common = git(&["rev-parse", "--git-common-dir"]).unwrap_or(dir.clone());
            println!("cargo:rerun-if-changed={common}/{reference}");
            println!("cargo:rerun-if-changed={common}/packed-refs");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
    if let Some(commit) = git(&["rev-parse", "--short=12", "HEAD"]) {
        println!("cargo:rustc-env=ANSATZ_COMMIT={commit}");
    }
}
