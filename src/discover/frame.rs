//! Stage 1, the frame: what a deck gives the ansatz route. The lowest penalty card kind present
//! is the separator (a Jack in the standard deck), the other face kinds fill the pieces, and the
//! deck is `Δ1 S … Δk S - / S -` with k one less than the separators, as in the 2024 jack frame.

use crate::assemble::candidates::Frame;
use crate::card::{Card, DeckSpec, KINDS, NUMBER, symbol};
use crate::notation::Dash;

use super::DiscoverError;

/// A deck and the frame derived from its face kinds.
#[derive(Clone, Debug)]
pub struct DeckFrame {
    pub deck: DeckSpec,
    /// The separator kind: the lowest penalty card kind the deck holds.
    pub separator: Card,
    /// The face kinds the pieces hold (the others, ascending).
    pub piece_kinds: Vec<Card>,
    /// Pieces in player 1's hand.
    pub k: usize,
    pub frame: Frame,
}

/// Derives the frame of `deck`, or says why discovery cannot run on it.
pub fn derive(deck: DeckSpec) -> Result<DeckFrame, DiscoverError> {
    let total = deck.total();
    if total > crate::position::PACK_MAX_CARDS {
        return Err(DiscoverError::DeckTooLarge(deck.to_string(), total));
    }
    let kinds: Vec<Card> = (1..KINDS as Card)
        .filter(|&k| deck.counts[k as usize] > 0)
        .collect();
    if kinds.is_empty() {
        return Err(DiscoverError::NoPenaltyCards(deck.to_string()));
    }
    if total % 2 == 1 {
        return Err(DiscoverError::OddDeck(deck.to_string(), total));
    }
    let separator = kinds[0];
    let piece_kinds = kinds[1..].to_vec();
    let seps = deck.counts[separator as usize] as usize;
    // The frame takes one separator and one number card for player 2, one number card for the
    // tail, and one separator after each piece; a piece needs a face kind besides the separator.
    if seps < 2 || deck.counts[NUMBER as usize] < 2 || piece_kinds.is_empty() {
        return Err(DiscoverError::NoFrame(deck.to_string()));
    }
    let frame = Frame {
        separator,
        tail: vec![NUMBER],
        other: vec![separator, NUMBER],
        to_move: 0,
        face_kinds: piece_kinds.clone(),
        deck,
    };
    Ok(DeckFrame {
        deck,
        separator,
        piece_kinds,
        k: seps - 1,
        frame,
    })
}

impl DeckFrame {
    /// The frame as a position, e.g. `Δ1 J Δ2 J Δ3 J- / J- (1)`.
    pub fn display(&self) -> String {
        let s = symbol(self.separator);
        let pieces: Vec<String> = (1..=self.k).map(|i| format!("Δ{i} {s}")).collect();
        format!("{} -/{s}- (1)", pieces.join(" ")).replace(" -/", "-/")
    }

    /// The face kinds as a template's `faces` line (e.g. `QKA`).
    pub fn faces_text(&self) -> String {
        self.piece_kinds.iter().map(|&c| symbol(c)).collect()
    }

    /// The tail of every template: TEST, then a separator, then the frame's tail and the other hand.
    pub fn tail_text(&self) -> String {
        let s = symbol(self.separator);
        format!(
            "{s}{}/{} (1)",
            Dash(&self.frame.tail),
            Dash(&self.frame.other)
        )
    }

    /// Player 1's cards before the last piece: `--S` for each piece but the last two, then the
    /// filter slot and a separator (no filter slot with fewer than two pieces).
    pub fn prefix_text(&self, with_filter: bool) -> String {
        let s = symbol(self.separator);
        let mut p = String::new();
        for _ in 0..self.k.saturating_sub(2) {
            p.push_str(&format!("--{s}"));
        }
        if with_filter && self.k >= 2 {
            p.push_str(&format!("{{FILTER}}{s}"));
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_of_the_named_decks() {
        let f = derive(DeckSpec::STANDARD).unwrap();
        assert_eq!((f.separator, f.k, f.faces_text()), (1, 3, "QKA".into()));
        assert_eq!(f.frame, Frame::jack(DeckSpec::STANDARD));
        assert_eq!(f.display(), "Δ1 J Δ2 J Δ3 J-/J- (1)");
        assert_eq!(f.prefix_text(true), "--J{FILTER}J");
        let c = derive(DeckSpec::CAMICIA).unwrap();
        assert_eq!((c.k, c.faces_text()), (3, "QK".into()));
        let s = derive("16-2J2Q2K2A".parse().unwrap()).unwrap();
        assert_eq!((s.k, s.prefix_text(true)), (1, String::new()));
        let q = derive("11-3Q2K".parse().unwrap()).unwrap();
        assert_eq!((q.separator, q.k, q.faces_text()), (2, 2, "K".into()));
    }

    #[test]
    fn decks_without_a_frame() {
        let e = |s: &str| derive(s.parse().unwrap()).unwrap_err();
        assert!(matches!(e("20-"), DiscoverError::NoPenaltyCards(_)));
        assert!(matches!(e("15-4J4Q4K4A"), DiscoverError::OddDeck(..)));
        assert!(matches!(e("10-4J"), DiscoverError::NoFrame(_)));
        assert!(matches!(e("40-4J4Q4K4A"), DiscoverError::DeckTooLarge(..)));
    }
}
