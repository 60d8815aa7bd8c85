//! Pieces from outside the enumeration: a published list of pieces checked in a template
//! (`find-pieces --from-text`), and the parameters of a fill (`find-pieces --fill`): exactly the
//! cards a deck leaves once the template's own are out.

use thiserror::Error;

use super::enumerate::Params;
use super::template::Template;
use crate::card::{Card, DeckSpec, KINDS, NUMBER, symbol};
use crate::library::Enumeration;
use crate::notation::{Notation, parse_hand};

#[derive(Debug, Error, PartialEq, Eq)]
pub enum ImportError {
    #[error("{file}, line {line}: bad piece {text:?}: {why}")]
    Syntax {
        file: String,
        line: usize,
        text: String,
        why: String,
    },
    #[error("{file}, line {line}: {text:?} holds {card}, which the template's pieces may not")]
    Card {
        file: String,
        line: usize,
        text: String,
        card: char,
    },
    #[error("{file}, line {line}: {text:?} is not a piece of template {template}: its game ends")]
    Ends {
        file: String,
        line: usize,
        text: String,
        template: String,
    },
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum FillError {
    #[error("--fill: template {template} holds {held} {kind} but deck {deck} has only {has}")]
    Short {
        template: String,
        held: u32,
        kind: String,
        deck: String,
        has: u32,
    },
    #[error(
        "--fill: deck {deck} leaves {left} {kind} for TEST, but template {template} lets TEST hold only {faces}"
    )]
    Kind {
        deck: String,
        left: u32,
        kind: String,
        template: String,
        faces: String,
    },
    #[error("--fill: deck {0} is too large")]
    Large(String),
    #[error("--fill: template {template} already holds all of deck {deck}")]
    Nothing { template: String, deck: String },
}

/// `number cards`, or a face kind's letter, for messages.
fn kind_name(kind: Card) -> String {
    if kind == NUMBER {
        "number cards".into()
    } else {
        symbol(kind).to_string()
    }
}

/// The parameters of a fill: exactly the cards `deck` leaves once the template's own are out.
pub fn fill_params(template: &Template, deck: DeckSpec) -> Result<Params, FillError> {
    let fixed = DeckSpec::of_cards(
        template
            .before
            .iter()
            .chain(&template.after)
            .chain(&template.other),
    );
    let mut left = [0u8; KINDS];
    for (kind, slot) in left.iter_mut().enumerate() {
        let n = deck.counts[kind]
            .checked_sub(fixed.counts[kind])
            .ok_or_else(|| FillError::Short {
                template: template.name.clone(),
                held: fixed.counts[kind],
                kind: kind_name(kind as Card),
                deck: deck.to_string(),
                has: deck.counts[kind],
            })?;
        if n > 0 && kind != NUMBER as usize && !template.faces.contains(&(kind as Card)) {
            return Err(FillError::Kind {
                deck: deck.to_string(),
                left: n,
                kind: kind_name(kind as Card),
                template: template.name.clone(),
                faces: super::find::template_info(template).faces,
            });
        }
        *slot = u8::try_from(n).map_err(|_| FillError::Large(deck.to_string()))?;
    }
    if left.iter().all(|&n| n == 0) {
        return Err(FillError::Nothing {
            template: template.name.clone(),
            deck: deck.to_string(),
        });
    }
    Ok(Params::fill(left))
}

/// The pieces listed in `text` (one a line in dash notation, `#` comments), each checked to be a
/// piece of `template`, and the enumeration record of the import (`file` names the list).
pub fn import_pieces(
    template: &Template,
    text: &str,
    file: &str,
) -> Result<(Vec<Vec<Card>>, Enumeration), ImportError> {
    let mut pieces = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at =
            |e: &dyn Fn(String, usize, String) -> ImportError| e(file.into(), i + 1, line.into());
        let seq = parse_hand(line, Notation::Dash).map_err(|e| {
            at(&|file, line, text| ImportError::Syntax {
                file,
                line,
                text,
                why: e.to_string(),
            })
        })?;
        if let Some(&c) = seq
            .iter()
            .find(|&&c| c != NUMBER && !template.faces.contains(&c))
        {
            return Err(at(&|file, line, text| ImportError::Card {
                file,
                line,
                text,
                card: symbol(c),
            }));
        }
        if !crate::engine::play(&template.fill(&seq)).is_cycle() {
            return Err(at(&|file, line, text| ImportError::Ends {
                file,
                line,
                text,
                template: template.display().to_string(),
            }));
        }
        pieces.push(seq);
    }
    let n = pieces.len();
    let enumeration = Enumeration {
        method: format!("import {file}"),
        min_len: pieces.iter().map(|p| p.len()).min().unwrap_or(0) as u32,
        max_len: pieces.iter().map(|p| p.len()).max().unwrap_or(0) as u32,
        // The limits the imported pieces actually reach.
        max_faces: pieces
            .iter()
            .map(|p| p.iter().filter(|&&c| c != NUMBER).count())
            .max()
            .unwrap_or(0) as u32,
        max_per_kind: pieces
            .iter()
            .flat_map(|p| {
                template
                    .faces
                    .iter()
                    .map(|&k| p.iter().filter(|&&c| c == k).count())
            })
            .max()
            .unwrap_or(0) as u32,
        candidates: n as u64,
    };
    Ok((pieces, enumeration))
}
