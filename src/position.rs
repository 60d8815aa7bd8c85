//! Two-player `Position` (hands + player to move): validation, deck checks, the cycle-id order and
//! the packed `u128` key of positions of up to 52 cards.

use std::cmp::Ordering;
use std::fmt;

use thiserror::Error;

use crate::card::{Card, DeckSpec, KINDS};
use crate::notation::{Dash, Notation, ParseError, parse_setup};

/// Both hands, top card first, and the player to move (0 = player 1, 1 = player 2).
///
/// This is the general, checked form used at the edges (notation, JSON, results). Engines copy it
/// into their own fixed layouts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub hands: [Vec<Card>; 2],
    pub to_move: u8,
}

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PositionError {
    #[error(transparent)]
    Parse(#[from] ParseError),
    #[error("expected 2 hands separated by '/', found {0}")]
    HandCount(usize),
    #[error("cards do not match deck {deck}: {detail}")]
    DeckMismatch { deck: String, detail: String },
    #[error("position is not balanced: hands hold {0} and {1} cards")]
    Unbalanced(usize, usize),
}

/// The most cards a `u128` packed key can hold: 5^52 < 2^121, leaving 6 bits for the split and 1 for
/// the player to move.
pub const PACK_MAX_CARDS: usize = 52;

impl Position {
    pub fn new(hand1: Vec<Card>, hand2: Vec<Card>, to_move: u8) -> Position {
        debug_assert!(to_move < 2);
        Position {
            hands: [hand1, hand2],
            to_move,
        }
    }

    /// Parses and validates a two-player position.
    pub fn parse(text: &str, notation: Notation) -> Result<Position, PositionError> {
        let setup = parse_setup(text, notation)?;
        if setup.hands.len() != 2 {
            return Err(PositionError::HandCount(setup.hands.len()));
        }
        let mut hands = setup.hands.into_iter();
        let h1 = hands.next().unwrap();
        let h2 = hands.next().unwrap();
        Ok(Position::new(h1, h2, setup.to_move.unwrap_or(0) as u8))
    }

    pub fn total(&self) -> usize {
        self.hands[0].len() + self.hands[1].len()
    }

    /// The same position with the players exchanged: the rules do not tell the players apart, so
    /// its game is this game with the seats exchanged (same length, the other winner, the mirror
    /// cycle).
    pub fn mirrored(&self) -> Position {
        Position::new(
            self.hands[1].clone(),
            self.hands[0].clone(),
            1 - self.to_move,
        )
    }

    /// Counts of every card kind in both hands.
    pub fn deck(&self) -> DeckSpec {
        DeckSpec::of_cards(self.hands[0].iter().chain(&self.hands[1]))
    }

    /// Checks that the two hands together hold exactly `deck`.
    pub fn check_deck(&self, deck: &DeckSpec) -> Result<(), PositionError> {
        let have = self.deck();
        if have == *deck {
            return Ok(());
        }
        const NAMES: [&str; KINDS] = ["number cards", "Jacks", "Queens", "Kings", "Aces"];
        let detail = (0..KINDS)
            .filter(|&k| have.counts[k] != deck.counts[k])
            .map(|k| {
                format!(
                    "{} {} (expected {})",
                    have.counts[k], NAMES[k], deck.counts[k]
                )
            })
            .collect::<Vec<_>>()
            .join(", ");
        Err(PositionError::DeckMismatch {
            deck: deck.to_string(),
            detail,
        })
    }

    /// Balanced: hand sizes differ by at most one (26/26 for the standard deck).
    pub fn is_balanced(&self) -> bool {
        self.hands[0].len().abs_diff(self.hands[1].len()) <= 1
    }

    pub fn check_balanced(&self) -> Result<(), PositionError> {
        if self.is_balanced() {
            Ok(())
        } else {
            Err(PositionError::Unbalanced(
                self.hands[0].len(),
                self.hands[1].len(),
            ))
        }
    }

    /// The fixed total order used for cycle ids: both hands' cards concatenated (compared
    /// lexicographically by penalty), then the length of hand 1, then the player to move.
    /// For positions of one card count it agrees with the order of [`Position::pack`].
    pub fn key_cmp(&self, other: &Position) -> Ordering {
        key_order(
            (
                self.hands[0].iter().chain(&self.hands[1]).copied(),
                self.hands[0].len(),
                self.to_move,
            ),
            (
                other.hands[0].iter().chain(&other.hands[1]).copied(),
                other.hands[0].len(),
                other.to_move,
            ),
        )
    }

    /// Packs a position of at most 52 cards into a `u128`: the cards as base-5 digits (first card most
    /// significant), then 6 bits of split point and 1 bit of player to move. Unique among positions
    /// with the same number of cards, and ordered as [`Position::key_cmp`].
    pub fn pack(&self) -> Option<u128> {
        if self.total() > PACK_MAX_CARDS {
            return None;
        }
        Some(pack_key(
            self.hands[0].iter().chain(&self.hands[1]).copied(),
            self.hands[0].len(),
            self.to_move,
        ))
    }

    /// Inverse of [`Position::pack`] for a position of `n` cards.
    pub fn unpack(key: u128, n: usize) -> Position {
        assert!(n <= PACK_MAX_CARDS);
        let to_move = (key & 1) as u8;
        let split = ((key >> 1) & 63) as usize;
        let mut v = key >> 7;
        let mut cards = vec![0 as Card; n];
        for slot in cards.iter_mut().rev() {
            *slot = (v % 5) as Card;
            v /= 5;
        }
        let split = split.min(n);
        let h2 = cards.split_off(split);
        Position::new(cards, h2, to_move)
    }
}

/// The cycle-id order on any layout: `(cards of both hands in order, size of hand 1, mover)`,
/// compared lexicographically. Every engine layout and `Position` share this one definition.
pub fn key_order<I: Iterator<Item = Card>>(a: (I, usize, u8), b: (I, usize, u8)) -> Ordering {
    a.0.cmp(b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2))
}

/// The packed `u128` key of at most 52 cards (both hands in order), hand 1's size and the mover.
pub fn pack_key(cards: impl Iterator<Item = Card>, split: usize, to_move: u8) -> u128 {
    let mut v: u128 = 0;
    for c in cards {
        v = v * 5 + c as u128;
    }
    (v << 7) | ((split as u128) << 1) | to_move as u128
}

impl fmt::Display for Position {
    /// Dash notation with the player-to-move suffix: `HAND1/HAND2 (n)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{} ({})",
            Dash(&self.hands[0]),
            Dash(&self.hands[1]),
            self.to_move + 1
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrored_exchanges_the_hands_and_the_player_to_move() {
        let p = Position::parse("J--/-Q (1)", Notation::Auto).unwrap();
        let m = p.mirrored();
        assert_eq!(m.to_string(), "-Q/J-- (2)");
        assert_eq!(m.mirrored(), p);
    }

    #[test]
    fn balanced_means_hands_within_one_card() {
        let p = |t: &str| Position::parse(t, Notation::Auto).unwrap();
        for (text, balanced) in [
            ("J-/Q- (1)", true),
            ("J--/Q- (1)", true),
            ("J-/Q-- (2)", true),
            ("J--/Q (1)", false),
            ("/JQ- (2)", false),
        ] {
            assert_eq!(p(text).is_balanced(), balanced, "{text}");
            assert_eq!(p(text).check_balanced().is_ok(), balanced, "{text}");
        }
        assert!(matches!(
            p("J---/Q (1)").check_balanced(),
            Err(PositionError::Unbalanced(4, 1))
        ));
    }

    #[test]
    fn display_round_trips() {
        let p = Position::parse(
            "---K---Q-KQAJ-----AAJ--J--/●----------Q----KQ-J-----KA",
            Notation::Auto,
        )
        .unwrap();
        assert_eq!(p.to_move, 1);
        let s = p.to_string();
        assert_eq!(
            s,
            "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (2)"
        );
        assert_eq!(Position::parse(&s, Notation::Auto).unwrap(), p);
        p.check_deck(&DeckSpec::STANDARD).unwrap();
        assert!(p.is_balanced());
    }

    #[test]
    fn pack_round_trips_and_orders() {
        let p = Position::parse(
            "--K---A----AAJ--J--------K---------Q-Q-K---Q-KAQJ-/J- (1)",
            Notation::Auto,
        )
        .unwrap();
        let k = p.pack().unwrap();
        assert_eq!(Position::unpack(k, 52), p);
        let q = Position::parse(
            "--K---A----AAJ--J--------K---------Q-Q-K---Q-KAQJ-J/- (2)",
            Notation::Auto,
        )
        .unwrap();
        assert_eq!(p.key_cmp(&q), p.pack().cmp(&q.pack()));
    }

    #[test]
    fn total_counts_both_hands_and_bounds_the_packing() {
        let p = Position::parse("J--/Q- (1)", Notation::Auto).unwrap();
        assert_eq!(p.total(), 5);
        let big = Position::new(vec![0; PACK_MAX_CARDS], vec![1], 0);
        assert_eq!(big.total(), PACK_MAX_CARDS + 1);
        assert_eq!(
            big.pack(),
            None,
            "past {PACK_MAX_CARDS} cards a key would not fit"
        );
    }

    #[test]
    fn deck_mismatch_names_the_counts() {
        let p = Position::parse("--J/Q (1)", Notation::Auto).unwrap();
        let e = p.check_deck(&DeckSpec::STANDARD).unwrap_err().to_string();
        assert!(
            e.contains("3 number cards") || e.contains("2 number cards"),
            "{e}"
        );
    }
}
