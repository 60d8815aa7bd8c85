//! Stages 2 and 3, the filter and the head sweep: the pieces of the bare frame give the filter
//! (the piece with the most faces, as `--K---A----AA` in the 2024 jack template); then every head
//! `a number cards, one face, b number cards` in `PREFIX {FILTER} S HEAD {TEST} S- / S-` has its
//! pieces enumerated exactly, and each piece's accumulation (the most cards the other hand holds
//! on its template game's cycle) picks out the accumulators.

use std::convert::Infallible;

use serde::{Deserialize, Serialize};

use crate::ansatz::enumerate::Params;
use crate::ansatz::find::{FindConfig, Method, Search, run};
use crate::ansatz::piece::accumulation;
use crate::ansatz::template::Template;
use crate::card::{Card, NUMBER, rep_order, symbol};
use crate::notation::{Dash, Notation, parse_hand};

use super::frame::DeckFrame;

/// Ranges each template's candidates are cut into (threads take ranges).
const RANGES: u64 = 64;

/// What the head sweep enumerates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeadScope {
    /// Number cards before and after the head's face: 0..=max_around each.
    pub max_around: usize,
    /// TEST sequences of 1..=max_len cards with at most max_faces faces.
    pub max_len: usize,
    pub max_faces: usize,
    /// The bare frame's pieces searched for the filter: lengths and faces.
    pub filter_len: usize,
    pub filter_faces: usize,
}

/// The filter stage's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilterDone {
    pub template: String,
    pub candidates: u64,
    pub pieces: u64,
    /// The chosen filter (dash notation), if the bare frame has a piece.
    pub filter: Option<String>,
}

/// One head's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeadDone {
    /// `HEAD` in dash notation.
    pub head: String,
    pub candidates: u64,
    pub pieces: u64,
    /// The most any piece of this head accumulates (0 without pieces).
    pub accumulation: u8,
    /// Whether the template games exceed what the engines hold (the head is skipped).
    pub too_large: bool,
    /// Pieces (TEST, dash notation) that accumulate at least the threshold, with their value.
    pub accumulators: Vec<(String, u8)>,
}

fn params(df: &DeckFrame, max_len: usize, max_faces: usize) -> Params {
    Params {
        min_len: 1,
        max_len,
        max_faces,
        max_per_kind: df
            .piece_kinds
            .iter()
            .map(|&k| df.deck.counts[k as usize] as usize)
            .max()
            .unwrap_or(0),
        kinds: df.piece_kinds.clone(),
        exact: None,
    }
}

fn template(name: &str, position: &str, filter: Option<&str>, df: &DeckFrame) -> Template {
    let mut text = format!("name = {name}\nposition = {position}\n");
    if let Some(f) = filter {
        text.push_str(&format!("filter = {f}\n"));
    }
    text.push_str(&format!("faces = {}\n", df.faces_text()));
    Template::parse(&text, name).expect("discover builds well-formed templates")
}

/// Every piece of `t` under `p`, sorted; `None` when the games are too large for the engines.
fn pieces_of(t: Template, p: Params) -> Option<(u64, Vec<Vec<Card>>)> {
    let search = Search::new(FindConfig {
        template: t,
        params: p,
        method: Method::Exact,
        ranges: RANGES,
    })
    .ok()?;
    let report = run::<Infallible>(&search, Vec::new(), &|_| Ok(()), None, &|_| {})
        .unwrap_or_else(|e| match e {});
    let mut pieces = report.pieces;
    pieces.sort_by(|a, b| rep_order(a, b));
    pieces.dedup();
    Some((report.candidates, pieces))
}

/// The filter: among the pieces of the bare frame `PREFIX {TEST} S- / S-`, one with the most face
/// cards, then the longest, then the first in representative order.
pub fn filter(df: &DeckFrame, scope: &HeadScope) -> FilterDone {
    let position = format!("{}{{TEST}}{}", df.prefix_text(false), df.tail_text());
    let t = template("bare", &position, None, df);
    let (candidates, pieces) =
        pieces_of(t, params(df, scope.filter_len, scope.filter_faces)).unwrap_or_default();
    let faces = |p: &[Card]| p.iter().filter(|&&c| c != NUMBER).count();
    let best = pieces
        .iter()
        .max_by(|a, b| {
            (faces(a), a.len())
                .cmp(&(faces(b), b.len()))
                .then(rep_order(b, a))
        })
        .map(|p| Dash(p).to_string());
    FilterDone {
        template: position,
        candidates,
        pieces: pieces.len() as u64,
        filter: best,
    }
}

/// Every head of the scope, in sweep order: face kind, then a, then b.
pub fn heads(df: &DeckFrame, scope: &HeadScope) -> Vec<String> {
    let mut v = Vec::new();
    for &f in &df.piece_kinds {
        for a in 0..=scope.max_around {
            for b in 0..=scope.max_around {
                v.push(format!("{}{}{}", "-".repeat(a), symbol(f), "-".repeat(b)));
            }
        }
    }
    v
}

/// The head template's position: `PREFIX {FILTER} S HEAD {TEST} S- / S-`.
pub fn head_position(df: &DeckFrame, head: &str, with_filter: bool) -> String {
    format!(
        "{}{head}{{TEST}}{}",
        df.prefix_text(with_filter),
        df.tail_text()
    )
}

/// Enumerates one head's pieces and measures their accumulation; pieces reaching `threshold`
/// are kept.
pub fn sweep_one(
    df: &DeckFrame,
    scope: &HeadScope,
    filter: Option<&str>,
    head: &str,
    threshold: u8,
) -> HeadDone {
    let t = template(
        &format!("head{head}"),
        &head_position(df, head, filter.is_some()),
        filter,
        df,
    );
    let Some((candidates, pieces)) =
        pieces_of(t.clone(), params(df, scope.max_len, scope.max_faces))
    else {
        return HeadDone {
            head: head.into(),
            candidates: 0,
            pieces: 0,
            accumulation: 0,
            too_large: true,
            accumulators: Vec::new(),
        };
    };
    let mut best = 0u8;
    let mut accumulators = Vec::new();
    for p in &pieces {
        let acc = accumulation(&t, p).unwrap_or(0);
        best = best.max(acc);
        if acc >= threshold {
            accumulators.push((Dash(p).to_string(), acc));
        }
    }
    HeadDone {
        head: head.into(),
        candidates,
        pieces: pieces.len() as u64,
        accumulation: best,
        too_large: false,
        accumulators,
    }
}

/// An accumulator's shape: `HEAD + TEST` with every face written `X`.
pub fn shape_of(head: &str, test: &str) -> String {
    let cards = parse_hand(&format!("{head}{test}"), Notation::Dash)
        .expect("heads and pieces are dash notation");
    cards
        .iter()
        .map(|&c| if c == NUMBER { '-' } else { 'X' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::DeckSpec;

    #[test]
    fn the_standard_filter_is_a_balance_making_piece() {
        let df = super::super::frame::derive(DeckSpec::STANDARD, None, None).unwrap();
        let scope = HeadScope {
            max_around: 0,
            max_len: 0,
            max_faces: 0,
            filter_len: 13,
            filter_faces: 4,
        };
        let f = filter(&df, &scope);
        assert_eq!(f.template, "--J{TEST}J-/J- (1)");
        // Both 13-card, 4-face pieces of the bare frame (`--------A-KAA`, `--K---A----AA`) are
        // the 2024 balance-making pieces; the first in representative order is chosen.
        assert_eq!(f.filter.as_deref(), Some("--------A-KAA"));
        assert_eq!(shape_of("--K-", "Q--A"), "--X-X--X");
    }
}
