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

use super::error::DiscoverError;
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
    /// The bare frame's pieces whose shapes are censused beside the accumulators': TEST of at
    /// most `bare_len` cards with at most `bare_faces` faces, a shape censused when its census
    /// has at most `bare_census_limit` decks (0: none).
    pub bare_len: usize,
    pub bare_faces: usize,
    pub bare_census_limit: u64,
}

/// The bare frame's pieces: every TEST of `PREFIX {TEST} S- / S-` that never ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BareDone {
    pub template: String,
    pub candidates: u64,
    /// Each piece (dash notation) with its accumulation in the bare frame.
    pub pieces: Vec<(String, u8)>,
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

/// Every piece of the bare frame `PREFIX {TEST} S- / S-` within the scope's bare lengths and
/// faces, with its accumulation. Their shapes are the last pieces of censuses beside the
/// accumulators': a cycle can pass through the frame with a last piece that plays a cycle in the
/// bare frame without accumulating there (the cycle's family, not the cycle, comes near an even
/// split), and such a piece's census is small when it holds most of the deck's faces.
pub fn bare(df: &DeckFrame, scope: &HeadScope) -> BareDone {
    let position = format!("{}{{TEST}}{}", df.prefix_text(false), df.tail_text());
    let t = template("bare", &position, None, df);
    let (candidates, pieces) =
        pieces_of(t.clone(), params(df, scope.bare_len, scope.bare_faces)).unwrap_or_default();
    BareDone {
        template: position,
        candidates,
        pieces: pieces
            .iter()
            .map(|p| (Dash(p).to_string(), accumulation(&t, p).unwrap_or(0)))
            .collect(),
    }
}

/// A filter given by hand (`--filter`), checked against the frame: dash notation of number cards
/// and the frame's piece kinds, at least one face card, and no more cards of a kind than the
/// frame leaves for its pieces after its short pieces. Returns it in canonical dash notation.
pub fn check_filter(df: &DeckFrame, text: &str) -> Result<String, DiscoverError> {
    let bad = |why: String| DiscoverError::BadFilter(text.to_string(), why);
    let cards = parse_hand(text, Notation::Dash).map_err(|e| bad(e.to_string()))?;
    if cards.iter().all(|&c| c == NUMBER) {
        return Err(bad("a filter holds at least one face card".into()));
    }
    if let Some(&c) = cards
        .iter()
        .find(|&&c| c != NUMBER && !df.piece_kinds.contains(&c))
    {
        return Err(bad(format!(
            "{} is not a kind of this frame's pieces ({})",
            symbol(c),
            df.faces_text()
        )));
    }
    let Some(mut left) = df.frame.budget(df.k) else {
        return Err(bad("the frame leaves no cards for pieces".into()));
    };
    // The head template's short pieces (all but the filter's and the head's) are number cards.
    let short = (df.separator as usize + 1) * df.k.saturating_sub(2);
    left[NUMBER as usize] = left[NUMBER as usize].saturating_sub(short as u32);
    for &c in &cards {
        let n = &mut left[c as usize];
        if *n == 0 {
            return Err(bad(format!(
                "more {} cards than the deck {} leaves for the pieces",
                if c == NUMBER {
                    "number".to_string()
                } else {
                    symbol(c).to_string()
                },
                df.deck
            )));
        }
        *n -= 1;
    }
    Ok(Dash(&cards).to_string())
}

/// The filter stage's result for a filter given by hand (already checked by [`check_filter`]):
/// nothing enumerated.
pub fn given_filter(df: &DeckFrame, text: &str) -> Result<FilterDone, DiscoverError> {
    Ok(FilterDone {
        template: format!("{}{{TEST}}{}", df.prefix_text(false), df.tail_text()),
        candidates: 0,
        pieces: 0,
        filter: Some(check_filter(df, text)?),
    })
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
            bare_len: 0,
            bare_faces: 0,
            bare_census_limit: 0,
        };
        let f = filter(&df, &scope);
        assert_eq!(f.template, "--J{TEST}J-/J- (1)");
        // Both 13-card, 4-face pieces of the bare frame (`--------A-KAA`, `--K---A----AA`) are
        // the 2024 balance-making pieces; the first in representative order is chosen.
        assert_eq!(f.filter.as_deref(), Some("--------A-KAA"));
        assert_eq!(shape_of("--K-", "Q--A"), "--X-X--X");
    }

    #[test]
    fn a_filter_given_by_hand_is_checked_against_the_frame() {
        let df = super::super::frame::derive(DeckSpec::STANDARD, None, None).unwrap();
        assert_eq!(
            check_filter(&df, "--------Q-AQ-Q-").unwrap(),
            "--------Q-AQ-Q-"
        );
        let f = given_filter(&df, "--K---A----AA").unwrap();
        assert_eq!(f.filter.as_deref(), Some("--K---A----AA"));
        assert_eq!(
            (f.template.as_str(), f.candidates),
            ("--J{TEST}J-/J- (1)", 0)
        );
        // The frame leaves 4 Q and 36 - 4 (the tail's, player 2's and Δ1's) = 32 number cards.
        assert!(check_filter(&df, &"-".repeat(32).replace("--", "Q-")).is_err());
        assert!(check_filter(&df, &format!("Q{}", "-".repeat(32))).is_ok());
        assert!(check_filter(&df, &format!("Q{}", "-".repeat(33))).is_err());
        for bad in ["", "---", "J--", "QQQQQ", "--?"] {
            assert!(
                matches!(check_filter(&df, bad), Err(DiscoverError::BadFilter(..))),
                "{bad}"
            );
        }
    }
}
