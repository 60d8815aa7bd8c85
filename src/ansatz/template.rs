//! Templates: a position with a `{TEST}` slot (and optionally a `{FILTER}` slot), read from the
//! `key = value` files under `templates/`, and the positions they make once TEST is filled.

use std::path::Path;

use thiserror::Error;

use crate::card::{Card, JACK, NUMBER, symbol};
use crate::notation::{Dash, Notation, parse_hand};
use crate::position::Position;

/// The default template, built into the binary so `find-pieces` works from any directory.
pub const JACK_TEMPLATE: &str = include_str!("../../templates/jack.txt");

/// A checked template: the position around TEST, split so TEST can be put in without parsing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    /// `name = ...` (default: the file stem, or `unnamed`).
    pub name: String,
    /// The `position = ...` line as written, with its slots.
    pub position: String,
    /// The piece put in `{FILTER}` (empty when the position has no such slot).
    pub filter: Vec<Card>,
    /// The face kinds a TEST sequence may hold, by penalty, ascending (`faces = QKA` gives 2, 3, 4).
    pub faces: Vec<Card>,
    /// The hand that holds TEST (0 or 1).
    pub test_hand: u8,
    /// That hand's cards above TEST and below it.
    pub before: Vec<Card>,
    pub after: Vec<Card>,
    /// The other hand.
    pub other: Vec<Card>,
    /// The player to move (0-based).
    pub to_move: u8,
}

/// A malformed template: the line (from 1; 0 for the file as a whole) and the reason.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("template {source_name}, line {line}: {reason}")]
pub struct TemplateError {
    pub source_name: String,
    pub line: usize,
    pub reason: String,
}

impl Template {
    /// The built-in jack template (`templates/jack.txt`).
    pub fn jack() -> Template {
        Template::parse(JACK_TEMPLATE, "templates/jack.txt").expect("the built-in template parses")
    }

    /// Reads a template file.
    pub fn read(path: &Path) -> Result<Template, TemplateError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| TemplateError {
            source_name: name.clone(),
            line: 0,
            reason: format!("cannot read: {e}"),
        })?;
        let mut t = Template::parse(&text, &name)?;
        if t.name == "unnamed"
            && let Some(stem) = path.file_stem()
        {
            t.name = stem.to_string_lossy().into_owned();
        }
        Ok(t)
    }

    /// The template a library records in its header (`library::TemplateInfo`), rebuilt from its
    /// position, filter and face kinds.
    pub fn from_info(info: &crate::library::TemplateInfo) -> Result<Template, TemplateError> {
        let mut text = format!("name = {}\nposition = {}\n", info.name, info.position);
        if !info.filter.is_empty() {
            text.push_str(&format!("filter = {}\n", info.filter));
        }
        if !info.faces.is_empty() {
            text.push_str(&format!("faces = {}\n", info.faces));
        }
        Template::parse(&text, &format!("the library's template {}", info.name))
    }

    /// Parses the text of a template file; `source_name` names it in errors.
    pub fn parse(text: &str, source_name: &str) -> Result<Template, TemplateError> {
        let err = |line: usize, reason: String| TemplateError {
            source_name: source_name.to_string(),
            line,
            reason,
        };
        let mut name = None;
        let mut position: Option<(usize, String)> = None;
        let mut filter: Option<(usize, String)> = None;
        let mut faces: Option<(usize, String)> = None;
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let body = raw.split('#').next().unwrap_or("").trim();
            if body.is_empty() {
                continue;
            }
            let Some((key, value)) = body.split_once('=') else {
                return Err(err(line, format!("expected `key = value`, found {body:?}")));
            };
            let (key, value) = (key.trim(), value.trim().to_string());
            let slot = match key {
                "name" => {
                    if name.replace(value).is_some() {
                        return Err(err(line, "`name` given twice".into()));
                    }
                    continue;
                }
                "position" => &mut position,
                "filter" => &mut filter,
                "faces" => &mut faces,
                other => {
                    return Err(err(
                        line,
                        format!("unknown key {other:?} (expected name, position, filter or faces)"),
                    ));
                }
            };
            if slot.replace((line, value)).is_some() {
                return Err(err(line, format!("`{key}` given twice")));
            }
        }
        let Some((pline, ptext)) = position else {
            return Err(err(0, "no `position = ...` line".into()));
        };
        let faces_kinds = match &faces {
            None => vec![2, 3, 4],
            Some((line, f)) => parse_faces(f).map_err(|r| err(*line, r))?,
        };
        let filter_cards = match (&filter, ptext.matches("{FILTER}").count()) {
            (None, 0) => Vec::new(),
            (Some((line, _)), 0) => {
                return Err(err(
                    *line,
                    "`filter` given but the position has no {FILTER} slot".into(),
                ));
            }
            (None, _) => {
                return Err(err(
                    pline,
                    "the position has a {FILTER} slot but no `filter = ...` line".into(),
                ));
            }
            (Some((line, f)), 1) => {
                let cards = parse_hand(f, Notation::Dash)
                    .map_err(|e| err(*line, format!("bad filter {f:?}: {e}")))?;
                if cards.is_empty() {
                    return Err(err(*line, "empty filter".into()));
                }
                cards
            }
            (Some(_), n) => return Err(err(pline, format!("{n} {{FILTER}} slots (at most one)"))),
        };
        let filled = ptext.replace("{FILTER}", &Dash(&filter_cards).to_string());
        let slots = filled.matches("{TEST}").count();
        if slots != 1 {
            return Err(err(
                pline,
                format!("the position needs exactly one {{TEST}} slot, found {slots}"),
            ));
        }
        let at = filled.find("{TEST}").unwrap();
        let whole = Position::parse(&filled.replace("{TEST}", ""), Notation::Dash)
            .map_err(|e| err(pline, format!("bad position {ptext:?}: {e}")))?;
        let test_hand = filled[..at].matches('/').count();
        if test_hand > 1 {
            return Err(err(pline, "{TEST} must be in one of the two hands".into()));
        }
        // Cards of the TEST hand above the slot: the text from the hand's start to the slot.
        let hand_start = filled[..at].rfind('/').map_or(0, |i| i + 1);
        let above = filled[hand_start..at].trim_start_matches(['●', '*', ' ']);
        let offset = if above.trim().is_empty() {
            0
        } else {
            parse_hand(above, Notation::Dash)
                .map_err(|e| err(pline, format!("bad cards before {{TEST}}: {e}")))?
                .len()
        };
        let hand = &whole.hands[test_hand];
        if offset > hand.len() {
            return Err(err(pline, "cannot place {TEST} in its hand".into()));
        }
        Ok(Template {
            name: name.unwrap_or_else(|| "unnamed".into()),
            position: ptext,
            filter: filter_cards,
            faces: faces_kinds,
            test_hand: test_hand as u8,
            before: hand[..offset].to_vec(),
            after: hand[offset..].to_vec(),
            other: whole.hands[1 - test_hand].clone(),
            to_move: whole.to_move,
        })
    }

    /// The template game of a TEST sequence.
    pub fn fill(&self, test: &[Card]) -> Position {
        let mut hand = Vec::with_capacity(self.before.len() + test.len() + self.after.len());
        hand.extend_from_slice(&self.before);
        hand.extend_from_slice(test);
        hand.extend_from_slice(&self.after);
        let other = self.other.clone();
        let hands = if self.test_hand == 0 {
            [hand, other]
        } else {
            [other, hand]
        };
        Position {
            hands,
            to_move: self.to_move,
        }
    }

    /// Cards of the template without TEST.
    pub fn fixed_cards(&self) -> usize {
        self.before.len() + self.after.len() + self.other.len()
    }

    /// The card kinds a TEST sequence is made of: number cards, then the face kinds.
    pub fn alphabet(&self) -> Vec<Card> {
        std::iter::once(NUMBER)
            .chain(self.faces.iter().copied())
            .collect()
    }

    /// The position with TEST shown as `{TEST}`, e.g. `--J--K---A----AAJ{TEST}J-/J- (1)`.
    pub fn display(&self) -> String {
        let mut p = self.fill(&[]);
        let h = self.test_hand as usize;
        let mut hand = Dash(&self.before).to_string();
        hand.push_str("{TEST}");
        hand.push_str(&Dash(&self.after).to_string());
        p.hands[h].clear();
        let other = Dash(&p.hands[1 - h]).to_string();
        let (a, b) = if h == 0 { (hand, other) } else { (other, hand) };
        format!("{a}/{b} ({})", self.to_move + 1)
    }
}

/// `QKA`, `JKA`, ...: distinct face kinds, returned ascending by penalty.
fn parse_faces(text: &str) -> Result<Vec<Card>, String> {
    let mut kinds = Vec::new();
    for ch in text.chars().filter(|c| !c.is_whitespace()) {
        let k = match ch.to_ascii_uppercase() {
            'J' => JACK,
            'Q' => 2,
            'K' => 3,
            'A' => 4,
            c => {
                return Err(format!(
                    "unknown face kind {c:?} in faces (expected J, Q, K or A)"
                ));
            }
        };
        if kinds.contains(&k) {
            return Err(format!("face kind {} given twice", symbol(k)));
        }
        kinds.push(k);
    }
    if kinds.is_empty() {
        return Err("`faces` is empty".into());
    }
    kinds.sort_unstable();
    Ok(kinds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ansatz::find::template_info;

    #[test]
    fn a_library_header_gives_its_template_back() {
        for path in [
            "templates/jack.txt",
            "templates/queen.txt",
            "templates/census/frame-tail2.txt",
        ] {
            let t = Template::read(Path::new(path)).unwrap();
            let back = Template::from_info(&template_info(&t)).unwrap();
            assert_eq!(back.display(), t.display(), "{path}");
            assert_eq!(back.faces, t.faces, "{path}");
            assert_eq!(back.fill(&[0, 2]), t.fill(&[0, 2]), "{path}");
        }
    }
}
