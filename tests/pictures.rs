//! Pictures: the game plot, the family graph (DOT and SVG) checked by their structure against the
//! family's closure, and the catalogue page loaded in headless Chromium.

use super::common::{ansatz, data_lines, stdout};
use ansatz::engine::Outcome;
use ansatz::engine::reference::{Trick, trick};
use ansatz::notation::Notation;
use ansatz::picture::{game, graph};
use ansatz::position::Position;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const PAPER_DEAL: &str = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)";

fn dir(name: &str) -> PathBuf {
    let d = crate::common::scratch_root().join(format!("ansatz-pic-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The record game of `tests/data/record-game.txt`: position, tricks, cards.
fn record() -> (Position, u64, u64) {
    let line = &data_lines("record-game.txt")[0];
    let f: Vec<&str> = line.split('\t').collect();
    (
        Position::parse(f[0], Notation::Auto).unwrap(),
        f[1].parse().unwrap(),
        f[2].parse().unwrap(),
    )
}

/// Checks that `text` is well-formed XML (tags nest and close, attributes are quoted, `&` starts
/// an entity) and returns how many elements it holds.
fn check_xml(text: &str) -> usize {
    let b = text.as_bytes();
    let mut stack: Vec<String> = Vec::new();
    let (mut i, mut elements) = (0, 0);
    let entity = |at: usize| {
        let rest = &text[at + 1..];
        let end = rest.find(';').expect("an entity ends with ;");
        let name = &rest[..end];
        assert!(
            ["amp", "lt", "gt", "quot", "apos"].contains(&name)
                || name.strip_prefix('#').is_some_and(|n| {
                    n.chars().all(|c| c.is_ascii_digit()) || n.starts_with('x')
                }),
            "bad entity &{name};"
        );
    };
    while i < b.len() {
        match b[i] {
            b'<' if text[i..].starts_with("<!--") => {
                i += text[i..].find("-->").expect("comment closes") + 3;
            }
            b'<' if text[i..].starts_with("<?") => {
                i += text[i..].find("?>").expect("declaration closes") + 2;
            }
            b'<' => {
                let end = i + text[i..].find('>').expect("tag closes");
                let tag = &text[i + 1..end];
                if let Some(name) = tag.strip_prefix('/') {
                    let open = stack
                        .pop()
                        .unwrap_or_else(|| panic!("</{name}> closes nothing"));
                    assert_eq!(open, name.trim(), "mismatched tags");
                } else {
                    elements += 1;
                    let closed = tag.ends_with('/');
                    let body = tag.trim_end_matches('/');
                    let name_end = body.find(char::is_whitespace).unwrap_or(body.len());
                    let name = &body[..name_end];
                    assert!(!name.is_empty(), "empty tag name at {i}");
                    // Attributes: name="value" pairs, values without '<', quotes even.
                    let attrs = &body[name_end..];
                    assert_eq!(
                        attrs.matches('"').count() % 2,
                        0,
                        "unquoted attribute in <{tag}>"
                    );
                    for (k, _) in attrs.match_indices('&') {
                        entity(i + 1 + name_end + k);
                    }
                    if !closed {
                        stack.push(name.to_string());
                    }
                }
                i = end + 1;
            }
            b'&' => {
                entity(i);
                i += 1;
            }
            _ => i += 1,
        }
    }
    assert!(stack.is_empty(), "unclosed elements: {stack:?}");
    elements
}

#[test]
fn the_record_game_series_follows_every_trick_to_the_collapse() {
    let (pos, tricks, cards) = record();
    let s = game::series(&pos);
    assert_eq!(
        s.outcome,
        Outcome::Terminates {
            winner: 1,
            tricks,
            cards
        }
    );
    // One row before each trick, and one after the last.
    assert_eq!(s.hands.len() as u64, tricks + 1);
    assert!(
        s.hands.iter().all(|h| h[0] + h[1] == 52),
        "the pile is empty between tricks"
    );
    assert_eq!(s.hands.last(), Some(&[0, 52]));
    assert_eq!(s.deck_faces, 16);
    assert_eq!(s.faces.last(), Some(&[0, 0, 0, 0]));
    // The collapse starts at the loser's last even-or-better moment, and never goes back.
    let from = s.collapse_from.unwrap();
    assert!(s.hands[from][0] >= s.hands[from][1]);
    assert!(s.hands[from + 1..].iter().all(|h| h[0] < h[1]));
    // Each row is the reference engine's position, trick after trick.
    let mut p = pos.clone();
    for t in 0..tricks as usize - 1 {
        assert_eq!(
            s.hands[t],
            [p.hands[0].len() as u32, p.hands[1].len() as u32]
        );
        let Trick::Next { next, .. } = trick(&p) else {
            panic!("ends early")
        };
        p = next;
    }
}

#[test]
fn play_plot_draws_the_record_game_as_svg_and_png() {
    let d = dir("play");
    let (pos, _, _) = record();
    let text = pos.to_string();
    let svg = d.join("record.svg");
    let o = ansatz(&["play", "--plot", svg.to_str().unwrap(), &text]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(check_xml(&svg) > 100);
    for t in [
        "player 2 wins after 1164 tricks, 8344 cards",
        "final collapse",
        "player 1",
        "aces",
    ] {
        assert!(svg.contains(t), "{t}");
    }
    let png = d.join("paper.PNG");
    let o = ansatz(&["play", "--plot", png.to_str().unwrap(), PAPER_DEAL]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let reader = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()))
        .read_info()
        .unwrap();
    assert_eq!((reader.info().width, reader.info().height), game::SIZE);
    // The cycle's marks, in the SVG of the same game.
    let s = game::series(&Position::parse(PAPER_DEAL, Notation::Auto).unwrap());
    let svg = game::svg("t", &s).unwrap();
    check_xml(&svg);
    assert!(svg.contains("preperiod (4 tricks)") && svg.contains("one period (62 tricks)"));
    assert_eq!(s.hands.len(), 4 + 2 * 62 + 1);
    std::fs::remove_dir_all(d).unwrap();
}

/// `ansatz family --json` for `pos`: the closure the graph must match.
fn family_json(pos: &str) -> Value {
    let o = ansatz(&["family", "--json", "--threads", "2", pos]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_str(&stdout(&o)).unwrap()
}

#[test]
fn the_family_graph_has_one_arrow_per_position_into_its_successor() {
    let pos = Position::parse(PAPER_DEAL, Notation::Auto).unwrap();
    let g = graph::family_graph(&pos, &|_| {}).unwrap();
    let f = family_json(PAPER_DEAL);
    // Against the parallel closure: the same size, depth, reach and balanced deals.
    assert_eq!(g.len() as u64, f["closure_size"].as_u64().unwrap());
    assert_eq!(g.max_depth() as u64, f["max_depth"].as_u64().unwrap());
    assert_eq!(g.reach() as u64, f["reach"].as_u64().unwrap());
    let mut balanced: Vec<String> = g.balanced().map(|i| g.positions[i].to_string()).collect();
    balanced.sort();
    let want: Vec<String> = f["balanced"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert_eq!(balanced, want);
    // Every arrow is a forward trick, depths count tricks to the cycle, and the cycle is a ring.
    for i in 0..g.len() {
        let s = g.successor[i] as usize;
        let Trick::Next { next, .. } = trick(&g.positions[i]) else {
            panic!("a family position ends")
        };
        assert_eq!(next, g.positions[s], "arrow {i} -> {s}");
        if g.on_cycle(i) {
            assert!(g.on_cycle(s) && g.depth[i] == 0);
        } else {
            assert_eq!(g.depth[i], g.depth[s] + 1);
        }
    }
    let mut at = 0;
    for _ in 0..g.period() {
        at = g.successor[at] as usize;
    }
    assert_eq!(at, 0, "the cycle closes after its period");
    assert_eq!(g.positions[0], g.cycle.cycle_id);
}

/// Nodes and arrows of a DOT file: `nI [...]` and `nI -> nJ` statements, inside one balanced graph.
fn dot_counts(dot: &str) -> (usize, usize, Vec<(usize, usize)>) {
    assert_eq!(dot.matches('{').count(), 1);
    assert_eq!(dot.matches('}').count(), 1);
    assert!(dot.contains("digraph family {"));
    let (mut nodes, mut arrows) = (0, Vec::new());
    for line in dot.lines().map(str::trim) {
        // Statements about nodes `nI`; the defaults (`node [...]`, `edge [...]`) are not nodes.
        if !line
            .strip_prefix('n')
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
        {
            continue;
        }
        assert!(line.ends_with(';'), "{line}");
        if let Some((a, b)) = line.split_once(" -> ") {
            let num = |s: &str| -> usize {
                s.trim_start_matches('n')
                    .split(|c: char| !c.is_ascii_digit())
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap()
            };
            arrows.push((num(a), num(b)));
        } else {
            assert!(line.contains(" [label="), "{line}");
            assert_eq!(line.matches('"').count() % 2, 0, "{line}");
            nodes += 1;
        }
    }
    (nodes, arrows.len(), arrows)
}

#[test]
fn family_graph_files_count_one_node_and_one_arrow_per_position() {
    let d = dir("family");
    let f = family_json(PAPER_DEAL);
    let size = f["closure_size"].as_u64().unwrap() as usize;
    let balanced = f["balanced_count"].as_u64().unwrap() as usize;
    let (dot, svg) = (d.join("fam.dot"), d.join("fam.svg"));
    for path in [&dot, &svg] {
        let o = ansatz(&[
            "family",
            "-q",
            "--graph",
            path.to_str().unwrap(),
            PAPER_DEAL,
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(stdout(&o).contains(&format!("closure_size  {size} positions")));
    }
    let (nodes, arrows, pairs) = dot_counts(&std::fs::read_to_string(&dot).unwrap());
    assert_eq!((nodes, arrows), (size, size));
    // Each node has exactly one arrow out.
    let mut out = vec![0; size];
    for (a, b) in pairs {
        assert!(b < size);
        out[a] += 1;
    }
    assert!(out.iter().all(|&n| n == 1));
    let svg = std::fs::read_to_string(&svg).unwrap();
    check_xml(&svg);
    assert_eq!(svg.matches("<circle class=\"node").count(), size);
    assert_eq!(svg.matches("<line class=\"arrow").count(), size);
    assert_eq!(svg.matches("class=\"node cycle").count(), 62);
    assert_eq!(svg.matches("<line class=\"arrow cycle").count(), 62);
    assert_eq!(svg.matches("balanced\"").count(), balanced);
    assert!(svg.contains(&format!("{size} positions, {size} arrows")));
    std::fs::remove_dir_all(d).unwrap();
}

#[test]
fn bad_picture_paths_exit_2_with_a_message() {
    let d = dir("bad");
    let file = d.join("a-file");
    std::fs::write(&file, b"").unwrap();
    let under_file = file.join("x.svg");
    let cases: Vec<Vec<String>> = vec![
        vec![
            "play".into(),
            "--plot".into(),
            d.join("x.jpg").display().to_string(),
        ],
        vec![
            "play".into(),
            "--plot".into(),
            under_file.display().to_string(),
        ],
        vec![
            "family".into(),
            "-q".into(),
            "--graph".into(),
            d.join("x.png").display().to_string(),
        ],
        vec![
            "family".into(),
            "-q".into(),
            "--graph".into(),
            under_file.display().to_string(),
        ],
        vec![
            "catalogue".into(),
            "results/assemble/paper-2024-k3.jsonl".into(),
            "--out".into(),
            d.display().to_string(),
            "--html".into(),
            file.display().to_string(),
        ],
    ];
    for args in cases {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = ansatz(&a);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(d.to_str().unwrap()),
            "{args:?} names the path: {err}"
        );
    }
    // A game that ends has no family to draw: exit 1, as `family` says.
    let g = d.join("g.svg");
    let o = ansatz(&["family", "-q", "--graph", g.to_str().unwrap(), "J-/--"]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("no cycle"));
    assert!(!g.exists());
    std::fs::remove_dir_all(d).unwrap();
}

/// Headless Chromium, or `None` (the test then skips; under CI it fails instead).
fn chromium() -> Option<PathBuf> {
    for name in ["chromium", "chromium-browser"] {
        for dir in std::env::var("PATH").unwrap_or_default().split(':') {
            let p = Path::new(dir).join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI is set but chromium is not installed (.ci/run installs it)"
    );
    eprintln!("skipped: chromium is not installed");
    None
}

/// Runs headless Chromium on `url` with `args` (a fresh profile each time); its stdout.
fn run_chromium(bin: &Path, profile: &Path, args: &[&str], url: &str) -> String {
    let o = Command::new(bin)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            &format!("--user-data-dir={}", profile.display()),
        ])
        .args(args)
        .arg(url)
        .output()
        .expect("running chromium");
    assert!(
        o.status.success(),
        "chromium: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn the_catalogue_page_shows_every_cycle_in_a_real_browser() {
    let d = dir("page");
    let html = d.join("html");
    let o = ansatz(&[
        "catalogue",
        "results/assemble",
        "--json",
        "--out",
        d.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let cat: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let cycles = cat["cycles"].as_array().unwrap();
    assert_eq!(cycles.len(), 16, "the shipped catalogue");
    let page = std::fs::read_to_string(html.join("index.html")).unwrap();
    // Self-contained: nothing fetched from elsewhere.
    // (The inline plots name the SVG namespace, an identifier, not a fetch.)
    for outside in [
        "src=\"http",
        "href=\"http",
        "url(http",
        "<script",
        "<link",
        "@import",
    ] {
        assert!(!page.contains(outside), "{outside}");
    }
    for (i, c) in cycles.iter().enumerate() {
        let n = i + 1;
        let size = c["closure_size"].as_u64().unwrap() as usize;
        let svg = std::fs::read_to_string(html.join(format!("family-{n}.svg"))).unwrap();
        check_xml(&svg);
        assert_eq!(
            svg.matches("<circle class=\"node").count(),
            size,
            "cycle {n}"
        );
        assert_eq!(
            svg.matches("<line class=\"arrow").count(),
            size,
            "cycle {n}"
        );
        assert_eq!(
            svg.matches("balanced\"").count(),
            c["balanced"].as_array().unwrap().len()
        );
    }
    let Some(bin) = chromium() else {
        std::fs::remove_dir_all(d).unwrap();
        return;
    };
    let url = format!("file://{}", html.join("index.html").display());
    let dom = run_chromium(&bin, &d.join("profile-dom"), &["--dump-dom"], &url);
    assert!(dom.contains("The catalogue of balanced cycles"));
    assert_eq!(dom.matches("<section id=\"cycle-").count(), cycles.len());
    for (i, c) in cycles.iter().enumerate() {
        let id = c["cycle_id"].as_str().unwrap();
        assert!(
            dom.contains(&format!(
                "<section id=\"cycle-{}\" data-cycle-id=\"{id}\"",
                i + 1
            )),
            "cycle {id}"
        );
        assert!(dom.contains(&format!("<img src=\"family-{}.svg\"", i + 1)));
        for deal in c["balanced"].as_array().unwrap() {
            assert!(dom.contains(deal.as_str().unwrap()), "deal {deal}");
        }
    }
    // The browser's own XML parser reads a family picture without complaint.
    let svg_url = format!("file://{}", html.join("family-1.svg").display());
    let svg_dom = run_chromium(&bin, &d.join("profile-svg"), &["--dump-dom"], &svg_url);
    assert!(
        svg_dom.contains("<svg") && !svg_dom.contains("parsererror"),
        "{}",
        &svg_dom[..svg_dom.len().min(400)]
    );
    assert_eq!(
        svg_dom.matches("class=\"node").count(),
        cycles[0]["closure_size"].as_u64().unwrap() as usize
    );
    // A screenshot that is not blank: the table, the family picture and the plot draw colour.
    let shot = d.join("shot.png");
    run_chromium(
        &bin,
        &d.join("profile-shot"),
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1300,2400",
        ],
        &url,
    );
    let mut reader =
        png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()))
            .read_info()
            .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let px = info.color_type.samples();
    let pixels = &buf[..info.buffer_size()];
    let count = |f: &dyn Fn(&[u8]) -> bool| pixels.chunks(px).filter(|p| f(p)).count();
    let dark = count(&|p| p[..3].iter().all(|&v| v < 100));
    let red = count(&|p| p[0] > 180 && p[1] < 80 && p[2] < 80);
    let gold = count(&|p| p[0] > 230 && p[1] > 170 && p[1] < 210 && p[2] < 40);
    let total = pixels.len() / px;
    assert!(
        dark > total / 200,
        "text is drawn ({dark} dark pixels of {total})"
    );
    assert!(red > 200, "the cycle ring is drawn ({red} red pixels)");
    assert!(gold > 50, "balanced deals are drawn ({gold} gold pixels)");
    std::fs::remove_dir_all(d).unwrap();
}
