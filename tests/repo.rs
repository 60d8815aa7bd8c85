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
            // tests/data/fuzz: inputs a fuzz target found (bytes, no header); its README says
            // where they come from.
            d if d.ends_with("fuzz") => files.push(d.join("README.md")),
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

/// One home for writes: outside their tests, only `library::atomic` creates, writes or renames
/// files (the append-only checkpoint log and a discover step's claim open theirs in place), so
/// every result file, library, checkpoint and shard file is written whole or not at all, and a
/// failed write leaves no temporary file (tests/writes.rs).
#[test]
fn every_write_goes_through_the_atomic_module() {
    let allowed = ["library/atomic.rs"];
    for p in source_files() {
        let text = std::fs::read_to_string(&p).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap();
        let rel = p
            .strip_prefix(root().join("src"))
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if allowed.contains(&rel.as_str()) {
            continue;
        }
        for banned in ["fs::write(", "File::create(", "fs::rename(", "fs::copy("] {
            assert!(
                !code.contains(banned),
                "src/{rel} calls {banned}: write through library::write_atomic"
            );
        }
    }
}

/// The one dispatch point: every `#[target_feature]` and every feature check of `src/` is in
/// `engine/isa.rs`, written once there (the feature lists of its `features!` macro generate the
/// detection and the entry points), and no file silences the compiler's unused-code warnings for
/// a processor with a blanket `allow`.
#[test]
fn one_file_names_the_instruction_sets() {
    for p in source_files() {
        let text = std::fs::read_to_string(&p).unwrap();
        let name = p.strip_prefix(root()).unwrap().display().to_string();
        let (features, checks) = (
            text.matches("target_feature(enable").count(),
            text.matches("is_x86_feature_detected!").count(),
        );
        if name == "src/engine/isa.rs" {
            assert_eq!(
                (features, checks),
                (1, 1),
                "{name}: one entry macro, one check macro"
            );
        } else {
            assert_eq!(
                (features, checks),
                (0, 0),
                "{name} names an instruction set's features"
            );
        }
        assert!(
            !text.contains("cfg_attr(\n    not(target_arch")
                && !text.contains("allow(dead_code, unused"),
            "{name}: a blanket allow"
        );
    }
}

/// A source file's module path (`src/search/exhaustive/node.rs` is `search::exhaustive::node`; a
/// `mod.rs`, `lib.rs` or `main.rs` is its folder's).
fn module_path(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(root().join("src")).unwrap();
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| {
            c.as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The code of a file for its imports: comments, string literals and the inline test modules at
/// its end (whose `super` is the file itself) left out.
fn code_of(text: &str) -> String {
    let mut code = String::new();
    let mut test = false;
    for line in text.lines() {
        let t = line.trim_start();
        let inline_mod =
            t.trim_start_matches("pub(crate) ").starts_with("mod ") && t.ends_with('{');
        if inline_mod && (test || t.starts_with("mod tests")) {
            break;
        }
        test = t == "#[cfg(test)]";
        if t.starts_with("//") {
            continue;
        }
        let mut in_str = false;
        let mut prev = ' ';
        for c in line.chars() {
            if c == '"' && prev != '\\' {
                in_str = !in_str;
            } else if !in_str {
                code.push(c);
            }
            prev = c;
        }
        code.push('\n');
    }
    code
}

/// The paths of a `use` tree (`a::{b, c::{d, e}}` is `a::b`, `a::c::d`, `a::c::e`).
fn use_paths(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap().trim();
        return vec![path.trim_end_matches("::self").to_string()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap()];
    let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(use_paths)
        .map(|p| match p.as_str() {
            "self" => prefix.trim_end_matches("::").to_string(),
            _ => format!("{prefix}{p}"),
        })
        .collect()
}

/// The file-level import graph of `src/`: each file and the files whose items it names (through
/// `crate::`, `super::`, `self::` or a child module's name; a folder's re-exports followed to the
/// file that defines the item). An index's (`mod.rs`) own re-exports (`pub use child::X`) are
/// not imports, nor are `mod` declarations.
fn file_imports() -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    use std::collections::{BTreeMap, BTreeSet};
    let files = source_files();
    let module_of: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(root()).unwrap().display().to_string();
            (module_path(f), rel)
        })
        .collect();
    let word = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    // Per file: its child modules, its re-exports (name -> absolute path) and its import paths.
    let mut reexports: BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    let mut imports: Vec<(String, Vec<Vec<String>>)> = Vec::new();
    for f in &files {
        let here = module_path(f);
        let code = code_of(&std::fs::read_to_string(f).unwrap());
        let children: BTreeSet<String> = code
            .lines()
            .filter_map(|l| {
                let l = l.trim();
                let rest = l
                    .strip_prefix("pub ")
                    .or_else(|| l.strip_prefix("pub(crate) "));
                let rest = rest.unwrap_or(l);
                rest.strip_prefix("mod ")
                    .filter(|r| r.ends_with(';'))
                    .map(word)
            })
            .collect();
        let absolute = |path: &str| -> Option<Vec<String>> {
            let segs: Vec<&str> = path.split("::").map(str::trim).collect();
            let mut base = here.clone();
            let mut rest = &segs[..];
            match segs[0] {
                "crate" => {
                    base.clear();
                    rest = &segs[1..];
                }
                "self" => rest = &segs[1..],
                "super" => {
                    while rest.first() == Some(&"super") {
                        base.pop();
                        rest = &rest[1..];
                    }
                }
                name if children.contains(name) => {}
                _ => return None,
            }
            base.extend(rest.iter().map(|s| s.to_string()));
            Some(base)
        };
        let mut paths = Vec::new();
        // The `use` statements' spans, which the inline scan below skips.
        let mut spans = Vec::new();
        let mut rest = code.as_str();
        while let Some(i) = rest.find("use ") {
            let before = rest[..i].chars().last();
            let line_start = rest[..i].rfind('\n').map_or(0, |n| n + 1);
            let head = rest[line_start..i].trim();
            let end = rest[i..].find(';').map_or(rest.len(), |e| i + e);
            let tree = &rest[i + 4..end];
            let at = code.len() - rest.len();
            spans.push(at + i..at + end);
            if before.is_none_or(|c| !c.is_ascii_alphanumeric() && c != '_') {
                // Only an index (`mod.rs`, `lib.rs`) re-exports without importing: a file
                // with code of its own that re-exports a child's item uses it too.
                let index = f.ends_with("mod.rs") || f.ends_with("lib.rs");
                let reexport = index && head.starts_with("pub") && head.len() <= "pub(crate)".len();
                for p in use_paths(tree) {
                    let Some(abs) = absolute(&p) else { continue };
                    let names_child = children.contains(&abs[here.len().min(abs.len() - 1)]);
                    if reexport && abs.starts_with(&here) && names_child {
                        let name = p.rsplit("::").next().unwrap().to_string();
                        let name = tree
                            .split(" as ")
                            .nth(1)
                            .filter(|_| !tree.contains('{'))
                            .map_or(name, |a| a.trim().to_string());
                        reexports.entry(here.clone()).or_default().insert(name, abs);
                    } else {
                        paths.push(abs);
                    }
                }
            }
            rest = &rest[end.min(rest.len())..];
            if rest.is_empty() {
                break;
            }
            rest = &rest[1..];
        }
        // Paths written inline in the code, outside `use`.
        for start in ["crate::", "super::", "self::"]
            .into_iter()
            .map(String::from)
            .chain(children.iter().map(|c| format!("{c}::")))
        {
            for (i, _) in code.match_indices(&start) {
                let prev = code[..i].chars().last();
                let in_use = spans.iter().any(|s| s.contains(&i));
                if in_use || prev.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
                {
                    continue;
                }
                let path: String = code[i..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                if let Some(abs) = absolute(path.trim_end_matches(':')) {
                    paths.push(abs);
                }
            }
        }
        let rel = f.strip_prefix(root()).unwrap().display().to_string();
        imports.push((rel, paths));
    }
    // A path names the file of its longest module prefix, through re-exports.
    let resolve = |mut path: Vec<String>| -> Option<String> {
        for _ in 0..8 {
            let (module, next) = (1..=path.len())
                .rev()
                .map(|k| path[..k].to_vec())
                .find(|m| module_of.contains_key(m))
                .map(|m| {
                    let next = path
                        .get(m.len())
                        .and_then(|name| reexports.get(&m)?.get(name))
                        .map(|target| {
                            let mut t = target.clone();
                            t.extend(path[m.len() + 1..].iter().cloned());
                            t
                        });
                    (m, next)
                })?;
            match next {
                Some(t) => path = t,
                None => return module_of.get(&module).cloned(),
            }
        }
        None
    };
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (file, paths) in imports {
        let entry = graph.entry(file.clone()).or_default();
        for p in paths {
            if let Some(target) = resolve(p)
                && target != file
            {
                entry.insert(target);
            }
        }
    }
    graph
}

/// The circles of a graph: for each file on one, a path back to it.
fn circles(
    graph: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for start in graph.keys() {
        // Breadth first, keeping each file's predecessor, for the shortest way back.
        let mut from: std::collections::BTreeMap<&String, &String> = Default::default();
        let mut queue: std::collections::VecDeque<&String> = graph[start].iter().collect();
        for n in &graph[start] {
            from.insert(n, start);
        }
        while let Some(n) = queue.pop_front() {
            if n == start {
                let mut path = vec![start.clone()];
                let mut at = from[start];
                while at != start {
                    path.push(at.clone());
                    at = from[at];
                }
                path.reverse();
                found.push(path);
                break;
            }
            for m in graph.get(n).into_iter().flatten() {
                if !from.contains_key(m) {
                    from.insert(m, n);
                    queue.push_back(m);
                }
            }
        }
    }
    found
}

#[test]
fn no_file_of_src_is_on_an_import_circle() {
    let graph = file_imports();
    let edges: usize = graph.values().map(|s| s.len()).sum();
    assert!(
        graph.len() > 100 && edges > 300,
        "{} files, {edges} imports",
        graph.len()
    );
    // The reader sees what it must: a child naming its sibling, a folder's re-export followed.
    let node = &graph["src/search/exhaustive/walk.rs"];
    assert!(node.contains("src/search/exhaustive/node.rs"), "{node:?}");
    let game = &graph["src/search/exhaustive/fixed.rs"];
    assert!(game.contains("src/engine/game.rs"), "{game:?}");
    let found = circles(&graph);
    assert!(
        found.is_empty(),
        "import circles (each file, then the files back to it):\n{}",
        found
            .iter()
            .map(|c| c.join(" -> "))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_circle_finder_finds_circles() {
    let g = |edges: &[(&str, &str)]| {
        let mut m: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
            Default::default();
        for (a, b) in edges {
            m.entry(a.to_string()).or_default().insert(b.to_string());
            m.entry(b.to_string()).or_default();
        }
        m
    };
    assert!(circles(&g(&[("a", "b"), ("b", "c")])).is_empty());
    assert_eq!(circles(&g(&[("a", "b"), ("b", "c"), ("c", "a")])).len(), 3);
    assert_eq!(
        use_paths("super::{a::{b, c}, d as e, self}"),
        ["super::a::b", "super::a::c", "super::d", "super"]
    );
}

/// The discovery's files and functions stay short enough to read whole (no file over 800
/// lines, no function over 150), and its files import one another in layers: no loop of
/// `super::` / `crate::discover::` imports between them (each `mod.rs` only declares and
/// re-exports, so it is no layer).
#[test]
fn the_discovery_is_in_short_files_and_functions_without_import_loops() {
    use std::collections::{BTreeMap, BTreeSet};
    let dir = root().join("src/discover");
    let files: Vec<PathBuf> = source_files()
        .into_iter()
        .filter(|p| p.starts_with(&dir))
        .collect();
    assert!(files.len() >= 10, "{files:?}");
    // Each file's module name: `heads`, `stages/heads`; a folder's mod.rs is the folder.
    let name = |p: &Path| {
        let rel = p.strip_prefix(&dir).unwrap().with_extension("");
        let s = rel.to_string_lossy().replace('\\', "/");
        s.trim_end_matches("/mod").to_string()
    };
    let names: BTreeSet<String> = files.iter().map(|p| name(p)).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut long = Vec::new();
    for p in &files {
        let text = std::fs::read_to_string(p).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        if lines.len() > 800 {
            long.push(format!("{}: {} lines", name(p), lines.len()));
        }
        for (i, line) in lines.iter().enumerate() {
            let t = line.trim_start();
            let ind = &line[..line.len() - t.len()];
            let sig = t
                .trim_start_matches("pub ")
                .trim_start_matches("pub(crate) ")
                .trim_start_matches("pub(super) ")
                .trim_start_matches("const ");
            if !sig.starts_with("fn ") {
                continue;
            }
            let opens = lines[i..]
                .iter()
                .position(|l| l.ends_with('{') || l.ends_with(';'));
            let Some(o) = opens.filter(|&o| lines[i + o].ends_with('{')) else {
                continue;
            };
            let close = format!("{ind}}}");
            let end = lines[i + o..].iter().position(|l| *l == close).unwrap() + i + o;
            if end - i + 1 > 150 {
                long.push(format!("{}:{}: {} lines", name(p), i + 1, end - i + 1));
            }
        }
        // The modules this file imports (comments and doc links aside), resolved from its own
        // folder.
        let code: String = lines
            .iter()
            .filter(|l| !l.trim_start().starts_with("//"))
            .map(|l| format!("{l}\n"))
            .collect();
        let me = name(p);
        let parent = match (p.file_name().unwrap() == "mod.rs", me.rsplit_once('/')) {
            (false, Some((folder, _))) => format!("{folder}/"),
            _ => String::new(),
        };
        let mut uses = BTreeSet::new();
        for (prefix, base) in [("super::", parent.as_str()), ("crate::discover::", "")] {
            for (k, _) in code.match_indices(prefix) {
                let rest = &code[k + prefix.len()..];
                let group = match rest.strip_prefix('{') {
                    Some(g) => g[..g.find('}').unwrap_or(g.len())].to_string(),
                    None => rest.to_string(),
                };
                let firsts: Vec<&str> = if rest.starts_with('{') {
                    group.split(',').collect()
                } else {
                    vec![&group[..]]
                };
                for f in firsts {
                    let m: String = f
                        .trim()
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    let full = format!("{base}{m}");
                    if names.contains(&full) && full != me {
                        uses.insert(full);
                    }
                }
            }
        }
        if p.file_name().unwrap() != "mod.rs" {
            graph.insert(me, uses);
        }
    }
    assert!(long.is_empty(), "too long: {long:?}");
    // A folder (its mod.rs) stands for every file in it.
    let expand = |m: &String| -> Vec<String> {
        let inside: Vec<String> = graph
            .keys()
            .filter(|k| k.starts_with(&format!("{m}/")))
            .cloned()
            .collect();
        if inside.is_empty() {
            vec![m.clone()]
        } else {
            inside
        }
    };
    for start in graph.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<String> = graph[start].iter().flat_map(expand).collect();
        while let Some(m) = stack.pop() {
            assert!(
                m != *start,
                "src/discover/{start} imports itself through a loop"
            );
            if seen.insert(m.clone()) {
                stack.extend(graph.get(&m).into_iter().flatten().flat_map(expand));
            }
        }
    }
    assert!(graph["stages/fill"].contains("stages/balance"), "{graph:?}");
    assert!(graph["run"].contains("stages"), "{graph:?}");
}
