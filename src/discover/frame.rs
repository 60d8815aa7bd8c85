//! Stage 1, the frame: what a deck gives the ansatz route. The separator is the lowest penalty
//! card kind present (a Jack in the standard deck) unless another is asked for, the other face
//! kinds fill the pieces, and the deck is `Δ1 S … Δk S - / S -` with k one less than the
//! separators, as in the 2024 jack frame.

use crate::assemble::candidates::Frame;
use crate::card::{Card, DeckSpec, KINDS, NUMBER, symbol};
use crate::notation::Dash;

use super::DiscoverError;

/// A deck and the frame derived from its face kinds.
#[derive(Clone, Debug)]
pub struct DeckFrame {
    pub deck: DeckSpec,
    /// The separator kind: the lowest penalty card kind the deck holds, or the one asked for.
    pub separator: Card,
    /// The face kinds the pieces hold (the others, ascending).
    pub piece_kinds: Vec<Card>,
    /// Pieces in player 1's hand.
    pub k: usize,
    pub frame: Frame,
}

/// Derives the frame of `deck` with the separator `separator` (the deck's lowest face kind when
/// `None`), or says why discovery cannot run on it.
pub fn derive(deck: DeckSpec, separator: Option<Card>) -> Result<DeckFrame, DiscoverError> {
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
    let separator = match separator {
        None => kinds[0],
        Some(s) if kinds.contains(&s) => s,
        Some(s) => return Err(DiscoverError::NoSeparator(deck.to_string(), symbol(s))),
    };
    let piece_kinds: Vec<Card> = kinds.iter().copied().filter(|&k| k != separator).collect();
    let seps = deck.counts[separator as usize] as usize;
    // Player 2 holds a separator and as many number cards as it demands (one for the Jack of the
    // 2024 frame, two for a Queen, ...), and player 1's tail the same number: with fewer, a Queen
    // separator ends the game before the first piece is played. A piece needs a face kind besides
    // the separator, and each piece is closed by a separator.
    let pay = separator as usize;
    if seps < 2 || (deck.counts[NUMBER as usize] as usize) < 2 * pay || piece_kinds.is_empty() {
        return Err(DiscoverError::NoFrame(deck.to_string()));
    }
    let mut other = vec![separator];
    other.extend(std::iter::repeat_n(NUMBER, pay));
    let frame = Frame {
        separator,
        tail: vec![NUMBER; pay],
        other,
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
    /// The frame as a position, e.g. `Δ1 J Δ2 J Δ3 J-/J- (1)`.
    pub fn display(&self) -> String {
        let s = symbol(self.separator);
        let pieces: Vec<String> = (1..=self.k).map(|i| format!("Δ{i} {s}")).collect();
        format!(
            "{}{}/{} (1)",
            pieces.join(" "),
            Dash(&self.frame.tail),
            Dash(&self.frame.other)
        )
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

    /// Player 1's cards before the last piece: `--S` for each piece but the last two (one number
    /// card more than the separator demands: `---Q` for a Queen, so that player 2 wins the first
    /// trick as in the 2024 frame), then the filter slot and a separator (no filter slot with
    /// fewer than two pieces).
    pub fn prefix_text(&self, with_filter: bool) -> String {
        let s = symbol(self.separator);
        let short = "-".repeat(self.separator as usize + 1);
        let mut p = String::new();
        for _ in 0..self.k.saturating_sub(2) {
            p.push_str(&format!("{short}{s}"));
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
        let f = derive(DeckSpec::STANDARD, None).unwrap();
        assert_eq!((f.separator, f.k, f.faces_text()), (1, 3, "QKA".into()));
        assert_eq!(f.frame, Frame::jack(DeckSpec::STANDARD));
        assert_eq!(f.display(), "Δ1 J Δ2 J Δ3 J-/J- (1)");
        assert_eq!(f.prefix_text(true), "--J{FILTER}J");
        let c = derive(DeckSpec::CAMICIA, None).unwrap();
        assert_eq!((c.k, c.faces_text()), (3, "QK".into()));
        let s = derive("16-2J2Q2K2A".parse().unwrap(), None).unwrap();
        assert_eq!((s.k, s.prefix_text(true)), (1, String::new()));
        let q = derive("11-3Q2K".parse().unwrap(), None).unwrap();
        assert_eq!((q.separator, q.k, q.faces_text()), (2, 2, "K".into()));
        // Another separator: the Queen of the standard deck, the pieces of J, K and A.
        let sq = derive(DeckSpec::STANDARD, Some(2)).unwrap();
        assert_eq!((sq.separator, sq.k, sq.faces_text()), (2, 3, "JKA".into()));
        assert_eq!(sq.display(), "Δ1 Q Δ2 Q Δ3 Q--/Q-- (1)");
        assert_eq!(sq.tail_text(), "Q--/Q-- (1)");
        assert_eq!(sq.prefix_text(true), "---Q{FILTER}Q");
    }

    #[test]
    fn decks_without_a_frame() {
        let e = |s: &str| derive(s.parse().unwrap(), None).unwrap_err();
        assert!(matches!(e("20-"), DiscoverError::NoPenaltyCards(_)));
        assert!(matches!(e("15-4J4Q4K4A"), DiscoverError::OddDeck(..)));
        assert!(matches!(e("10-4J"), DiscoverError::NoFrame(_)));
        assert!(matches!(e("40-4J4Q4K4A"), DiscoverError::DeckTooLarge(..)));
        let camicia_ace = derive(DeckSpec::CAMICIA, Some(4)).unwrap_err();
        assert!(matches!(camicia_ace, DiscoverError::NoSeparator(..)));
        // One Ace: no frame with the Ace as separator.
        let one_ace = derive("11-2J2Q2K1A".parse().unwrap(), Some(4)).unwrap_err();
        assert!(matches!(one_ace, DiscoverError::NoFrame(_)));
    }
}
