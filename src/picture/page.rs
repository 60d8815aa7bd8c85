//! The catalogue of balanced cycles as a static page: `index.html` with inline CSS and inline
//! hand-size plots, and each family's SVG beside it; nothing is loaded from elsewhere, so it works
//! offline from the file system in any browser.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::graph::{FamilyGraph, family_graph, svg as graph_svg};
use super::{PictureError, escape, game, write};
use crate::assemble::catalogue::{Catalogue, Entry};
use crate::notation::Notation;
use crate::position::Position;

/// What one cycle of the page shows, besides its catalogue entry.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CycleFigures {
    /// The anchor of its section, `cycle-N`.
    pub anchor: String,
    pub cycle_id: String,
    pub period: u64,
    pub cycle_cards: u64,
    /// Positions (and arrows) of the drawn family.
    pub closure_size: usize,
    pub max_depth: u32,
    pub reach: usize,
    pub balanced: usize,
    /// The family picture's file name, beside the page.
    pub family_svg: String,
}

/// What [`write_page`] wrote.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PageSummary {
    pub index: PathBuf,
    pub cycles: Vec<CycleFigures>,
}

const CSS: &str = "
body { font-family: sans-serif; margin: 2em auto; max-width: 1250px; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: right; }
th { background: #f3f3f3; }
td.id, td.how { text-align: left; font-family: monospace; }
section { border-top: 2px solid #ddd; margin-top: 2em; padding-top: 1em; }
dl { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dt { font-weight: bold; }
dd { margin: 0; font-family: monospace; word-break: break-all; }
.family img { width: 100%; max-width: 1100px; border: 1px solid #eee; }
.plot svg { width: 100%; height: auto; max-width: 1200px; }
textarea.deals { width: 100%; font-family: monospace; font-size: 0.9em; }
";

/// Writes `dir/index.html` and `dir/family-N.svg` for every cycle of `cat`; `progress` is told of
/// each cycle done.
pub fn write_page(
    dir: &Path,
    cat: &Catalogue,
    progress: &dyn Fn(u64),
) -> Result<PageSummary, PictureError> {
    let mut cycles = Vec::with_capacity(cat.entries.len());
    let mut sections = String::new();
    for (i, e) in cat.entries.iter().enumerate() {
        let n = i + 1;
        let pos = Position::parse(&e.cycle_id, Notation::Auto)
            .map_err(|err| PictureError::Position(e.cycle_id.clone(), err.to_string()))?;
        let g = family_graph(&pos, &|_| {})?;
        let family_svg = format!("family-{n}.svg");
        write(&dir.join(&family_svg), graph_svg(&g).as_bytes())?;
        // The cycle alone: its id starts it, so the plot shows two periods and no preperiod.
        let plot = game::svg(&e.cycle_id, &game::series(&pos))?;
        let fig = CycleFigures {
            anchor: format!("cycle-{n}"),
            cycle_id: e.cycle_id.clone(),
            period: e.period,
            cycle_cards: g.cycle.cycle_cards,
            closure_size: g.len(),
            max_depth: g.max_depth(),
            reach: g.reach(),
            balanced: e.balanced.len(),
            family_svg,
        };
        section(&mut sections, n, e, &fig, &g, &plot);
        cycles.push(fig);
        progress(1);
    }
    let mut html = String::new();
    html.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    html.push_str("<title>ansatz: the catalogue of balanced cycles</title>\n");
    let _ = writeln!(html, "<style>{CSS}</style>\n</head>\n<body>");
    html.push_str("<h1>The catalogue of balanced cycles</h1>\n");
    let _ = writeln!(
        html,
        "<p id=\"summary\">{} balanced cycles ({} counting mirror images apart), {} balanced deals ({} with their mirror images), from {} result files; every deal replayed. Made by ansatz {}.</p>",
        cat.cycles(),
        cat.cycles_with_mirrors(),
        cat.deals(),
        cat.deals_with_mirrors(),
        cat.files.len(),
        env!("CARGO_PKG_VERSION")
    );
    html.push_str("<p>Period: tricks in one turn of the cycle. Closure: positions whose game reaches the cycle, the cycle's own included. Reach: the most cards the smaller hand holds in any of them (26 exactly when there are balanced deals). Depth: the most tricks any of them stands before the cycle.</p>\n");
    html.push_str("<table id=\"cycles\">\n<tr><th>#</th><th>period (tricks)</th><th>cards per period</th><th>closure</th><th>reach</th><th>depth</th><th>balanced deals</th><th>cycle id</th></tr>\n");
    for (i, f) in cycles.iter().enumerate() {
        let _ = writeln!(
            html,
            "<tr><td><a href=\"#{a}\">{n}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"id\">{}</td></tr>",
            f.period,
            f.cycle_cards,
            f.closure_size,
            f.reach,
            f.max_depth,
            f.balanced,
            escape(&f.cycle_id),
            a = f.anchor,
            n = i + 1
        );
    }
    html.push_str("</table>\n");
    html.push_str(&sections);
    html.push_str("</body>\n</html>\n");
    let index = dir.join("index.html");
    write(&index, html.as_bytes())?;
    Ok(PageSummary { index, cycles })
}

/// One cycle's section.
fn section(out: &mut String, n: usize, e: &Entry, f: &CycleFigures, g: &FamilyGraph, plot: &str) {
    let _ = writeln!(
        out,
        "<section id=\"{}\" data-cycle-id=\"{}\">\n<h2>Cycle {n}</h2>\n<dl>",
        f.anchor,
        escape(&e.cycle_id)
    );
    let rows = [
        ("cycle id", escape(&e.cycle_id)),
        ("mirror image", escape(&e.mirror_cycle_id)),
        (
            "period",
            format!("{} tricks, {} cards", e.period, g.cycle.cycle_cards),
        ),
        (
            "closure",
            format!(
                "{} positions (the catalogue lists {}), depth up to {}",
                f.closure_size, e.closure_size, f.max_depth
            ),
        ),
        ("reach", format!("{} cards in the smaller hand", f.reach)),
        ("deck", escape(&e.deck)),
        ("found by", escape(&e.command)),
        ("listed in", escape(&e.files.join(", "))),
    ];
    for (k, v) in rows {
        let _ = writeln!(out, "<dt>{k}</dt><dd>{v}</dd>");
    }
    out.push_str("</dl>\n");
    let _ = writeln!(
        out,
        "<h3>Its family</h3>\n<p class=\"family\"><a href=\"{s}\"><img src=\"{s}\" alt=\"the family of cycle {n}: {} positions and as many arrows\"></a></p>",
        f.closure_size,
        s = f.family_svg
    );
    out.push_str("<h3>Hand sizes along the cycle</h3>\n<div class=\"plot\">");
    // plotters writes an XML-free SVG fragment, fit to embed as it is.
    out.push_str(plot);
    out.push_str("</div>\n");
    let _ = writeln!(
        out,
        "<h3>Its {} balanced deals</h3>\n<textarea class=\"deals\" readonly rows=\"{}\">{}</textarea>\n</section>",
        e.balanced.len(),
        e.balanced.len().clamp(2, 40),
        escape(&e.balanced.join("\n"))
    );
}
