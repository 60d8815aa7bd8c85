//! A family as a graph: every position of a cycle's backward closure, one arrow from each to its
//! successor (so N positions have N arrows and the cycle is a ring), written as Graphviz DOT or
//! drawn by the project itself as a radial SVG (the ring in the middle, each depth a circle).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use super::{Format, PictureError, escape, write};
use crate::backward::family::play_to_cycle;
use crate::engine::CycleInfo;
use crate::engine::reference::{Trick, trick};
use crate::position::Position;

/// The most positions a graph is built for: one node each must stay drawable.
pub const MAX_NODES: usize = 200_000;

/// A cycle's backward closure with its arrows. Nodes `0..period` are the cycle in play order from
/// its id; the others follow in breadth-first order (by depth).
#[derive(Clone, Debug)]
pub struct FamilyGraph {
    pub cycle: CycleInfo,
    pub positions: Vec<Position>,
    /// The node each node's next trick leads to.
    pub successor: Vec<u32>,
    /// Tricks before the cycle is reached (0 on the cycle).
    pub depth: Vec<u32>,
}

impl FamilyGraph {
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    pub fn period(&self) -> usize {
        self.cycle.period as usize
    }

    pub fn on_cycle(&self, i: usize) -> bool {
        i < self.period()
    }

    pub fn balanced(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.len()).filter(|&i| self.positions[i].is_balanced())
    }

    pub fn max_depth(&self) -> u32 {
        self.depth.iter().copied().max().unwrap_or(0)
    }

    /// The most cards the smaller hand holds in any position (as `ansatz family` reports it).
    pub fn reach(&self) -> usize {
        self.positions
            .iter()
            .map(|p| p.hands[0].len().min(p.hands[1].len()))
            .max()
            .unwrap_or(0)
    }
}

/// Plays `pos` to its cycle and builds the cycle's family graph by breadth-first search over
/// predecessors (each checked by a forward trick). `progress` is told of every position found.
pub fn family_graph(pos: &Position, progress: &dyn Fn(u64)) -> Result<FamilyGraph, PictureError> {
    let cycle = play_to_cycle(pos)?;
    let period = cycle.period as usize;
    let mut positions = Vec::with_capacity(period);
    let mut p = cycle.cycle_id.clone();
    for _ in 0..period {
        let Trick::Next { next, .. } = trick(&p) else {
            unreachable!("a cycle does not end")
        };
        positions.push(std::mem::replace(&mut p, next));
    }
    let mut index: HashMap<Position, u32> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| (p.clone(), i as u32))
        .collect();
    let mut successor: Vec<u32> = (0..period).map(|i| ((i + 1) % period) as u32).collect();
    let mut depth = vec![0u32; period];
    progress(period as u64);
    // The queue is the node list itself: nodes are appended in breadth-first order.
    let mut next = 0;
    while next < positions.len() {
        let found = crate::backward::predecessors(&positions[next])?;
        let before = positions.len();
        for q in found {
            if index.contains_key(&q) {
                continue; // the cycle's own predecessor on the ring
            }
            if positions.len() >= MAX_NODES {
                return Err(PictureError::TooLarge(MAX_NODES));
            }
            index.insert(q.clone(), positions.len() as u32);
            positions.push(q);
            successor.push(next as u32);
            depth.push(depth[next] + 1);
        }
        progress((positions.len() - before) as u64);
        next += 1;
    }
    Ok(FamilyGraph {
        cycle,
        positions,
        successor,
        depth,
    })
}

/// Builds the family graph of `pos` and writes it to `path` (`.dot` or `.svg`).
pub fn write_graph(
    path: &Path,
    pos: &Position,
    progress: &dyn Fn(u64),
) -> Result<FamilyGraph, PictureError> {
    let format = Format::of(path, &[Format::Dot, Format::Svg])?;
    let g = family_graph(pos, progress)?;
    let text = match format {
        Format::Dot => dot(&g),
        _ => svg(&g),
    };
    write(path, text.as_bytes())?;
    Ok(g)
}

/// The graph in Graphviz DOT: node `nI` labelled by its depth, with the position as tooltip; the
/// cycle red, balanced deals gold boxes.
pub fn dot(g: &FamilyGraph) -> String {
    let mut out = String::new();
    let balanced = g.balanced().count();
    let _ = writeln!(out, "// The family of cycle {}", g.cycle.cycle_id);
    let _ = writeln!(
        out,
        "// {} positions, {} arrows (each position to its successor); the cycle's {} positions are red, {balanced} balanced deals are gold; labels are depths.",
        g.len(),
        g.len(),
        g.period()
    );
    out.push_str("digraph family {\n  graph [layout=twopi, overlap=false, ranksep=1.2];\n");
    out.push_str("  node [shape=circle, style=filled, fillcolor=\"#9ecae1\", width=0.25, fixedsize=true, fontsize=8];\n");
    out.push_str("  edge [arrowsize=0.4, color=\"#777777\"];\n");
    if g.period() > 0 {
        out.push_str("  root = n0;\n");
    }
    for i in 0..g.len() {
        let p = &g.positions[i];
        let mut attrs = format!(
            "label=\"{}\", tooltip=\"{}\"",
            g.depth[i],
            escape(&p.to_string())
        );
        if g.on_cycle(i) {
            attrs.push_str(", fillcolor=\"#d62728\", fontcolor=white");
        }
        if p.is_balanced() {
            attrs.push_str(", shape=box, fillcolor=\"#ffbf00\", penwidth=2");
        }
        let _ = writeln!(out, "  n{i} [{attrs}];");
    }
    for i in 0..g.len() {
        let s = g.successor[i];
        let extra = if g.on_cycle(i) {
            " [color=\"#d62728\", penwidth=2]"
        } else {
            ""
        };
        let _ = writeln!(out, "  n{i} -> n{s}{extra};");
    }
    out.push_str("}\n");
    out
}

/// Where the radial layout puts each node: the angle (radians) and the radius.
struct Layout {
    angle: Vec<f64>,
    radius: Vec<f64>,
    /// The inner radius of each depth's band.
    ring: Vec<f64>,
}

/// Node dot radius in the SVG, in pixels.
const DOT: f64 = 2.5;
/// Room along its band for each dot, in pixels.
const ARC: f64 = 7.0;
/// A crowded depth is spread over up to this many concentric lanes, neighbours alternating.
const MAX_LANES: usize = 6;
const LANE_GAP: f64 = 8.0;

/// The radial layout: each cycle position gets an angular sector in proportion to the leaves of
/// its in-tree, each tree node the middle of its share of its parent's sector. Depth d sits in
/// band d, out from the ring; a crowded depth is spread over a few lanes (neighbours alternate
/// between them) so a few thousand positions fit in about a thousand pixels, nothing collapsed.
fn layout(g: &FamilyGraph) -> Layout {
    let n = g.len();
    let period = g.period();
    let mut children: Vec<Vec<u32>> = vec![Vec::new(); n];
    for i in period..n {
        children[g.successor[i] as usize].push(i as u32);
    }
    // Leaves under each node; nodes come in breadth-first order, so children follow parents.
    let mut leaves = vec![0f64; n];
    for i in (0..n).rev() {
        let sum: f64 = children[i].iter().map(|&c| leaves[c as usize]).sum();
        leaves[i] = sum.max(1.0);
    }
    let max_depth = g.max_depth() as usize;
    let mut per_depth = vec![0usize; max_depth + 1];
    for &d in &g.depth {
        per_depth[d as usize] += 1;
    }
    // Bands at least 28 px apart (less for very deep families, so the picture stays a few
    // thousand pixels wide).
    let gap = 28f64.min((2400.0 / max_depth.max(1) as f64).max(3.0));
    let mut ring = Vec::with_capacity(max_depth + 1);
    let mut lanes = Vec::with_capacity(max_depth + 1);
    let mut next_free = 0f64;
    for (d, &count) in per_depth.iter().enumerate() {
        let length = count as f64 * ARC;
        let (r, k) = if d == 0 {
            // The cycle is one ring.
            ((length / std::f64::consts::TAU).max(60.0), 1)
        } else {
            let r = next_free + gap;
            let k = ((length / (std::f64::consts::TAU * r)).ceil() as usize).clamp(1, MAX_LANES);
            (r.max(length / (std::f64::consts::TAU * k as f64)), k)
        };
        ring.push(r);
        lanes.push(k);
        next_free = r + (k - 1) as f64 * LANE_GAP;
    }
    let mut angle = vec![0f64; n];
    let mut radius = vec![0f64; n];
    let total: f64 = (0..period).map(|i| leaves[i]).sum();
    let mut start = -std::f64::consts::FRAC_PI_2;
    // Sectors, handed down from each node to its children in order.
    let mut sector = vec![(0f64, 0f64); n];
    for i in 0..period {
        let width = leaves[i] / total * std::f64::consts::TAU;
        sector[i] = (start, width);
        start += width;
    }
    // Breadth-first order is angular order within a depth: the rank picks the lane.
    let mut rank = vec![0usize; max_depth + 1];
    for i in 0..n {
        let (from, width) = sector[i];
        let d = g.depth[i] as usize;
        angle[i] = from + width / 2.0;
        radius[i] = ring[d] + (rank[d] % lanes[d]) as f64 * LANE_GAP;
        rank[d] += 1;
        let mut at = from;
        for &c in &children[i] {
            let w = width * leaves[c as usize] / leaves[i];
            sector[c as usize] = (at, w);
            at += w;
        }
    }
    Layout {
        angle,
        radius,
        ring,
    }
}

/// The graph drawn as SVG, every position a dot and every arrow a line: nothing is collapsed.
/// Nodes carry `class="node ..."`, arrows `class="arrow ..."`; each node's `<title>` is its position
/// and depth, shown when the pointer rests on it.
pub fn svg(g: &FamilyGraph) -> String {
    let l = layout(g);
    let outer = l.radius.iter().copied().fold(60.0, f64::max) + 60.0;
    let header = 110.0;
    let size = (2.0 * outer).max(1000.0);
    let (cx, cy) = (size / 2.0, header + size / 2.0);
    let xy = |i: usize| {
        (
            cx + l.radius[i] * l.angle[i].cos(),
            cy + l.radius[i] * l.angle[i].sin(),
        )
    };
    let mut out = String::with_capacity(g.len() * 220 + 4096);
    let balanced = g.balanced().count();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" font-family=\"sans-serif\">",
        w = size,
        h = size + header
    );
    out.push_str(concat!(
        "<defs><marker id=\"head\" viewBox=\"0 0 6 6\" refX=\"6\" refY=\"3\" markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\">",
        "<path d=\"M0,0 L6,3 L0,6 z\" fill=\"#888\"/></marker>",
        "<marker id=\"headc\" viewBox=\"0 0 6 6\" refX=\"6\" refY=\"3\" markerWidth=\"4\" markerHeight=\"4\" orient=\"auto\">",
        "<path d=\"M0,0 L6,3 L0,6 z\" fill=\"#d62728\"/></marker></defs>\n",
        "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    ));
    let _ = writeln!(
        out,
        "<text x=\"20\" y=\"32\" font-size=\"22\">The family of cycle {}</text>",
        escape(&g.cycle.cycle_id.to_string())
    );
    let _ = writeln!(
        out,
        "<text x=\"20\" y=\"60\" font-size=\"14\">{} positions, {} arrows (each position to the one its next trick gives). Red ring: the cycle ({} positions, {} tricks). Gold: the {balanced} balanced deals.</text>",
        g.len(),
        g.len(),
        g.period(),
        g.cycle.period
    );
    let _ = writeln!(
        out,
        "<text x=\"20\" y=\"86\" font-size=\"14\">Grey circles: depth (tricks before the cycle), 0 to {}. Every position is drawn; nothing is collapsed. Rest the pointer on a dot to read its position.</text>",
        g.max_depth()
    );
    for (d, r) in l.ring.iter().enumerate() {
        let _ = writeln!(
            out,
            "<circle class=\"guide\" cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\" fill=\"none\" stroke=\"#ccc\" stroke-dasharray=\"3 3\"/><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" fill=\"#777\">depth {d}</text>",
            // Labels along the upper-left diagonal, where each band's label has a row of its own.
            cx - r * std::f64::consts::FRAC_1_SQRT_2 - 50.0,
            cy - r * std::f64::consts::FRAC_1_SQRT_2
        );
    }
    // Arrows first, so the dots sit on top of them; each stops at the edge of its target's dot.
    for i in 0..g.len() {
        let (x1, y1) = xy(i);
        let s = g.successor[i] as usize;
        let (x2, y2) = xy(s);
        let (dx, dy) = (x2 - x1, y2 - y1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-9);
        let stop = (DOT + 1.0).min(len / 2.0);
        let (x2, y2) = (x2 - dx / len * stop, y2 - dy / len * stop);
        let (class, style) = if g.on_cycle(i) {
            (
                "arrow cycle",
                "stroke=\"#d62728\" stroke-width=\"2\" marker-end=\"url(#headc)\"",
            )
        } else {
            (
                "arrow",
                "stroke=\"#aaa\" stroke-width=\"0.8\" marker-end=\"url(#head)\"",
            )
        };
        let _ = writeln!(
            out,
            "<line class=\"{class}\" x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" {style}/>"
        );
    }
    // Plain dots first, then the cycle, then the balanced deals, so the marked ones stay visible.
    let mut order: Vec<usize> = (0..g.len()).collect();
    order.sort_by_key(|&i| (g.positions[i].is_balanced(), g.on_cycle(i)));
    for i in order {
        let (x, y) = xy(i);
        let p = &g.positions[i];
        let (class, r, style) = if p.is_balanced() {
            (
                if g.on_cycle(i) {
                    "node cycle balanced"
                } else {
                    "node balanced"
                },
                DOT * 2.0,
                "fill=\"#ffbf00\" stroke=\"black\" stroke-width=\"1.2\"",
            )
        } else if g.on_cycle(i) {
            ("node cycle", DOT * 1.3, "fill=\"#d62728\"")
        } else {
            ("node", DOT, "fill=\"#3182bd\"")
        };
        let _ = writeln!(
            out,
            "<circle class=\"{class}\" cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{r:.1}\" {style}><title>{} (depth {})</title></circle>",
            escape(&p.to_string()),
            g.depth[i]
        );
    }
    out.push_str("</svg>\n");
    out
}
