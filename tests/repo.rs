//! The repository stands alone: no tracked file names the developers' side folder, every
//! known-answer file names its source, and every relative link of the README and the manual
//! resolves.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The tracked files (`git ls-files`), or, outside a git checkout, every file below the root but
/// the build and output folders.
fn tracked_files() -> Vec<PathBuf> {
    let root = root();
    if let Ok(o) = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(&root)
        .output()
        && o.status.success()
        && !o.stdout.is_empty()
    {
        return o
            .stdout
            .split(|&b| b == 0)
            .filter(|p| !p.is_empty())
            .map(|p| root.join(String::from_utf8_lossy(p).as_ref()))
            .filter(|p| p.is_file())
            .collect();
    }
    let mut out = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            let name = e.file_name();
            if name == "target" || name == ".git" || name == "out" {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out
}

#[test]
fn no_tracked_file_outside_ci_names_the_side_folder() {
    // Built from parts so that this file does not name it either.
    let needle = ["..", "/", "shared"].concat();
    let needle2 = ["shared", "/spec/"].concat();
    let needle3 = ["shared", "/data/"].concat();
    let root = root();
    let mut bad = Vec::new();
    for path in tracked_files() {
        let rel = path.strip_prefix(&root).unwrap_or(&path);
        if rel.starts_with(".ci") {
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        if text.contains(&needle) || text.contains(&needle2) || text.contains(&needle3) {
            bad.push(rel.display().to_string());
        }
    }
    assert!(
        bad.is_empty(),
        "these files refer to a folder a user's clone does not have: {bad:?}"
    );
}

#[test]
fn every_known_answer_file_names_its_source() {
    let dir = root().join("tests/data");
    let mut seen = 0;
    let mut files: Vec<PathBuf> = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        match e.path() {
            // tests/data/golden: the transcripts tests/golden.rs compares.
            d if d.is_dir() => {
                files.extend(std::fs::read_dir(&d).unwrap().flatten().map(|e| e.path()))
            }
            f => files.push(f),
        }
    }
    for path in files {
        // The header (the comment lines before the first data line) names the source.
        let text = std::fs::read_to_string(&path).unwrap();
        let header: Vec<&str> = text
            .lines()
            .take_while(|l| l.starts_with('#') || l.trim().is_empty())
            .collect();
        assert!(
            header.iter().any(|l| l.starts_with("# Source:")),
            "{}: no `# Source:` line before its first data line",
            path.display()
        );
        seen += 1;
    }
    assert!(seen >= 3, "{seen} files in tests/data");
}

/// The lines of a markdown text, each with whether it sits in a fenced code block (fences left
/// out).
fn fenced_lines(text: &str) -> Vec<(&str, bool)> {
    let mut in_code = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        } else {
            out.push((line, in_code));
        }
    }
    out
}

/// The targets of the markdown links `[text](target)` of `text`, without URLs and anchors.
fn relative_links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (line, in_code) in fenced_lines(text) {
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            let Some(j) = rest.find(')') else { break };
            let target = rest[..j].trim();
            rest = &rest[j..];
            let target = target.split('#').next().unwrap_or("");
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            out.push(target.to_string());
        }
    }
    out
}

fn check_links(file: &Path, bad: &mut Vec<String>) -> usize {
    let text = std::fs::read_to_string(file).unwrap();
    let dir = file.parent().unwrap();
    let links = relative_links(&text);
    for l in &links {
        if !dir.join(l).exists() {
            bad.push(format!("{} -> {l}", file.display()));
        }
    }
    links.len()
}

#[test]
fn relative_links_of_the_readme_and_the_manual_resolve() {
    let root = root();
    let mut bad = Vec::new();
    let mut files = vec![root.join("README.md")];
    for sub in ["docs", "results", "pieces"] {
        if let Ok(rd) = std::fs::read_dir(root.join(sub)) {
            for e in rd.flatten() {
                if e.path().extension().is_some_and(|x| x == "md") {
                    files.push(e.path());
                }
            }
        }
    }
    let mut links = 0;
    for f in &files {
        links += check_links(f, &mut bad);
    }
    assert!(bad.is_empty(), "links that do not resolve: {bad:?}");
    assert!(links > 0, "no relative link found in {} files", files.len());
}

#[test]
fn link_parser_finds_relative_targets_only() {
    let t = "see [a](docs/a.md#x) and [b](https://x.org) `[c](code)`\n```\n[d](no.md)\n```\n";
    assert_eq!(relative_links(t), vec!["docs/a.md", "code"]);
}

/// The `ansatz ...` command lines shown in the code blocks of `text` (a `$ ` prompt and a
/// trailing `# comment` removed).
fn shown_commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (line, in_code) in fenced_lines(text) {
        if !in_code {
            continue;
        }
        let l = line.trim().trim_start_matches("$ ");
        if !l.starts_with("ansatz ") {
            continue;
        }
        // A comment starts at ` #` outside quotes.
        let mut quoted = false;
        let mut end = l.len();
        for (i, c) in l.char_indices() {
            match c {
                '\'' => quoted = !quoted,
                '#' if !quoted && l[..i].ends_with(' ') => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        out.push(l[..end].trim().to_string());
    }
    out
}

#[test]
fn every_command_the_readme_and_the_manual_show_parses() {
    let root = root();
    let mut files = vec![root.join("README.md")];
    if let Ok(rd) = std::fs::read_dir(root.join("docs")) {
        files.extend(
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "md")),
        );
    }
    let mut checked = 0;
    let mut bad = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for cmd in shown_commands(&text) {
            // Placeholders (I/N, ...) stand for values a reader fills in.
            if cmd.contains("...") || cmd.contains("I/N") || cmd.contains('<') || cmd.contains('|')
            {
                continue;
            }
            let Some(mut args) = ansatz::provenance::split_command(&cmd) else {
                bad.push(format!("{}: cannot split {cmd}", f.display()));
                continue;
            };
            // The shell's part of the line (a redirection, `&`, `;`) is not the command's.
            if let Some(end) = args
                .iter()
                .position(|a| [">", ">>", "2>", "&", "&&", ";"].contains(&a.as_str()))
            {
                args.truncate(end);
            }
            let o = super::common::ansatz_command()
                .args(&args[1..])
                .env("ANSATZ_PARSE_ONLY", "1")
                .output()
                .unwrap();
            if !o.status.success() {
                let err = String::from_utf8_lossy(&o.stderr);
                bad.push(format!(
                    "{}: {cmd}: {}",
                    f.display(),
                    err.lines().next().unwrap_or("")
                ));
            }
            checked += 1;
        }
    }
    assert!(
        bad.is_empty(),
        "commands that do not parse:\n{}",
        bad.join("\n")
    );
    assert!(checked >= 7, "only {checked} commands found");
}

/// Every Rust file under `src/`.
fn source_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![root().join("src")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    files
}

/// The top-level modules of `src/` (files and folders) and the other top-level modules each one
/// names as `crate::NAME`.
fn module_imports() -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let mut out: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    let src = root().join("src");
    for p in source_files() {
        {
            let rel = p.strip_prefix(&src).unwrap();
            let first = rel
                .components()
                .next()
                .unwrap()
                .as_os_str()
                .to_string_lossy();
            let top = first.trim_end_matches(".rs").to_string();
            if top == "lib" || top == "main" {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            let entry = out.entry(top.clone()).or_default();
            for (i, _) in text.match_indices("crate::") {
                let name: String = text[i + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if name != top && !name.is_empty() {
                    entry.insert(name);
                }
            }
        }
    }
    out
}

#[test]
fn the_top_level_modules_form_no_loop() {
    let graph = module_imports();
    assert!(graph.len() >= 10, "{graph:?}");
    for start in graph.keys() {
        let mut seen = std::collections::BTreeSet::new();
        let mut stack: Vec<&String> = graph[start].iter().collect();
        while let Some(m) = stack.pop() {
            assert!(
                m != start,
                "{start} imports itself through a loop: {graph:?}"
            );
            if seen.insert(m.clone())
                && let Some(next) = graph.get(m)
            {
                stack.extend(next.iter());
            }
        }
    }
    // Only the command-line face imports the CLI; nothing below it prints.
    for (m, imports) in &graph {
        assert!(m == "cli" || !imports.contains("cli"), "{m} imports cli");
    }
}

/// The run layer sits above every pipeline: only the command-line face imports it, and it never
/// imports the face.
#[test]
fn only_the_face_imports_the_run_layer() {
    let graph = module_imports();
    assert!(graph.contains_key("run"), "{graph:?}");
    for (m, imports) in &graph {
        assert!(
            m == "cli" || !imports.contains("run"),
            "{m} imports the run layer: the pipelines must not know how they are run"
        );
    }
}

/// The CLI is a face: at most 15% of the source lines, no file over 300 lines, and no checkpoint
/// or result-file writing of its own (the run layer does that).
#[test]
fn the_cli_is_a_thin_face() {
    let src = root().join("src");
    let lines = |p: &Path| std::fs::read_to_string(p).unwrap().lines().count();
    let (mut all, mut cli) = (0, 0);
    for p in source_files() {
        let n = lines(&p);
        all += n;
        if p.starts_with(src.join("cli")) {
            cli += n;
            assert!(n <= 300, "{} has {n} lines (at most 300)", p.display());
            let text = std::fs::read_to_string(&p).unwrap();
            for banned in ["write_atomic", "Checkpoint", "ShardFile", "library::write("] {
                assert!(
                    !text.contains(banned),
                    "{} uses {banned}: checkpoints and result files belong to the run layer",
                    p.display()
                );
            }
        }
    }
    assert!(
        cli * 100 <= all * 15,
        "src/cli is {cli} of {all} lines ({:.1}%, at most 15%)",
        100.0 * cli as f64 / all as f64
    );
}

/// The quoted names in `text` after each `marker` (as `has!("avx2")` or `enable = "a,b"`),
/// each split at commas.
fn quoted_after(text: &str, marker: &str) -> Vec<Vec<String>> {
    text.match_indices(marker)
        .filter_map(|(at, _)| {
            let rest = &text[at + marker.len()..];
            let end = rest.find('"')?;
            Some(
                rest[..end]
                    .split(',')
                    .map(|s| s.trim().to_owned())
                    .collect(),
            )
        })
        .collect()
}

/// One feature list per instruction set: every `#[target_feature]` in `src/` enables exactly the
/// features `engine/isa.rs` checks for a form (AVX2; AVX-512; AVX-512 with VBMI2, which
/// `Isa::vbmi2` checks), so no vector code runs on a processor that lacks one of its features
/// and no check asks for a feature no code uses.
#[test]
fn every_target_feature_list_is_one_the_dispatch_checks() {
    use std::collections::BTreeSet;
    let isa = std::fs::read_to_string(root().join("src/engine/isa.rs")).unwrap();
    let checked = |from: &str, to: &str| -> BTreeSet<String> {
        let (a, b) = (isa.find(from).unwrap(), isa.find(to).unwrap());
        quoted_after(&isa[a..b], "has!(\"")
            .into_iter()
            .flatten()
            .collect()
    };
    // `detect`: the AVX2 list, then the AVX-512 additions. (The AVX-512 lists leave `avx2` out:
    // `avx512f` implies it, for rustc as for the processor.)
    let avx2 = checked("let avx2 =", "if avx2\n");
    let avx512: BTreeSet<String> = avx2
        .iter()
        .filter(|f| *f != "avx2")
        .cloned()
        .chain(checked("if avx2\n", "return Isa::Avx512"))
        .collect();
    assert!(
        avx2.contains("avx2") && avx512.contains("avx512f"),
        "{avx2:?} {avx512:?}"
    );
    let mut vbmi2 = avx512.clone();
    vbmi2.insert("avx512vbmi2".to_owned());
    assert!(isa.contains("is_x86_feature_detected!(\"avx512vbmi2\")"));
    let forms = [&avx2, &avx512, &vbmi2];
    let mut used = BTreeSet::new();
    for p in source_files() {
        let text = std::fs::read_to_string(&p).unwrap();
        // rustfmt may put `enable` on a line of its own: every `#[target_feature(` has one.
        let lists = quoted_after(&text, "enable = \"");
        assert_eq!(
            lists.len(),
            text.matches("#[target_feature(").count(),
            "{}",
            p.display()
        );
        for list in lists {
            let set: BTreeSet<String> = list.into_iter().collect();
            let form = forms.iter().position(|f| **f == set);
            assert!(
                form.is_some(),
                "{}: #[target_feature] enables {set:?}, not a list engine/isa.rs checks",
                p.display()
            );
            used.extend(form);
        }
    }
    assert_eq!(used.len(), forms.len(), "a form no code is compiled for");
}
