//! Cards (penalty values 0–4) and deck specifications (`standard`, `camicia`, `8-2J2Q2K2A`).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// Orders card sequences as piece-class representatives are chosen: shorter first, then
/// lexicographically by penalty (number < J < Q < K < A). Here, below the ansatz and the library
/// files, because both order pieces by it.
pub fn rep_order(a: &[Card], b: &[Card]) -> std::cmp::Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

/// A card is its penalty value: 0 for a number card, 1 Jack, 2 Queen, 3 King, 4 Ace.
/// Suits and the rank of number cards never matter (rules.md, "Cards").
pub type Card = u8;

pub const NUMBER: Card = 0;
pub const JACK: Card = 1;
pub const QUEEN: Card = 2;
pub const KING: Card = 3;
pub const ACE: Card = 4;

/// Number of card kinds (number, J, Q, K, A).
pub const KINDS: usize = 5;

/// Dash-notation symbol of each kind, indexed by penalty.
pub const DASH_SYMBOLS: [char; KINDS] = ['-', 'J', 'Q', 'K', 'A'];

/// The dash-notation character of a card.
#[inline]
pub fn symbol(card: Card) -> char {
    DASH_SYMBOLS[card as usize]
}

/// How many cards of each kind a deck holds, indexed by penalty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DeckSpec {
    pub counts: [u32; KINDS],
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum DeckError {
    #[error("empty deck spec")]
    Empty,
    #[error("bad deck spec {spec:?} at column {column}: {reason}")]
    Malformed {
        spec: String,
        column: usize,
        reason: String,
    },
    #[error("deck spec {0:?} holds no cards")]
    NoCards(String),
}

impl DeckSpec {
    /// 36 number cards and four each of J, Q, K, A.
    pub const STANDARD: DeckSpec = DeckSpec {
        counts: [36, 4, 4, 4, 4],
    };
    /// The Italian Camicia deck: 40 cards, 28 numbers and four each of J, Q, K.
    pub const CAMICIA: DeckSpec = DeckSpec {
        counts: [28, 4, 4, 4, 0],
    };

    pub fn total(&self) -> usize {
        self.counts.iter().map(|&c| c as usize).sum()
    }

    /// Counts of a sequence of cards, by kind.
    pub fn of_cards<'a>(cards: impl IntoIterator<Item = &'a Card>) -> DeckSpec {
        let mut counts = [0u32; KINDS];
        for &c in cards {
            counts[c as usize] += 1;
        }
        DeckSpec { counts }
    }

    /// The deck as a sorted list of cards (numbers first).
    pub fn cards(&self) -> Vec<Card> {
        let mut v = Vec::with_capacity(self.total());
        for (kind, &n) in self.counts.iter().enumerate() {
            v.extend(std::iter::repeat_n(kind as Card, n as usize));
        }
        v
    }

    pub fn is_standard(&self) -> bool {
        *self == Self::STANDARD
    }
}

impl fmt::Display for DeckSpec {
    /// Prints the count form, e.g. `36-4J4Q4K4A`, which parses back to the same spec.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-", self.counts[0])?;
        for (&n, symbol) in self.counts.iter().zip(DASH_SYMBOLS).skip(1) {
            if n > 0 {
                write!(f, "{n}{symbol}")?;
            }
        }
        Ok(())
    }
}

impl FromStr for DeckSpec {
    type Err = DeckError;

    /// Accepts `standard`, `camicia`, or counts: `8-2J2Q2K2A` (8 number cards, 2 of each face).
    /// The number-card count and its `-` may be omitted (`2J2Q` has no number cards); a face kind
    /// may appear once.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if t.is_empty() {
            return Err(DeckError::Empty);
        }
        match t.to_ascii_lowercase().as_str() {
            "standard" => return Ok(Self::STANDARD),
            "camicia" => return Ok(Self::CAMICIA),
            _ => {}
        }
        let bad = |column: usize, reason: &str| DeckError::Malformed {
            spec: s.to_string(),
            column,
            reason: reason.to_string(),
        };
        let chars: Vec<char> = t.chars().collect();
        let mut counts = [0u32; KINDS];
        let mut seen = [false; KINDS];
        let mut i = 0;
        while i < chars.len() {
            let start = i;
            let mut n: u64 = 0;
            while i < chars.len() && chars[i].is_ascii_digit() {
                n = n * 10 + chars[i].to_digit(10).unwrap() as u64;
                if n > 100_000 {
                    return Err(bad(start + 1, "count too large"));
                }
                i += 1;
            }
            if i == start {
                return Err(bad(i + 1, "expected a count (digits) before a card kind"));
            }
            if i == chars.len() {
                return Err(bad(i + 1, "count without a kind: end with -, J, Q, K or A"));
            }
            let kind = match chars[i].to_ascii_uppercase() {
                '-' => 0,
                'J' => 1,
                'Q' => 2,
                'K' => 3,
                'A' => 4,
                c => {
                    return Err(bad(
                        i + 1,
                        &format!("unknown card kind {c:?} (expected -, J, Q, K or A)"),
                    ));
                }
            };
            if seen[kind] {
                return Err(bad(i + 1, "card kind given twice"));
            }
            seen[kind] = true;
            counts[kind] = n as u32;
            i += 1;
        }
        let spec = DeckSpec { counts };
        if spec.total() == 0 {
            return Err(DeckError::NoCards(s.to_string()));
        }
        Ok(spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_named_and_count_specs() {
        assert_eq!("standard".parse(), Ok(DeckSpec::STANDARD));
        assert_eq!("Camicia".parse::<DeckSpec>().unwrap().total(), 40);
        let d: DeckSpec = "8-2J2Q2K2A".parse().unwrap();
        assert_eq!(d.counts, [8, 2, 2, 2, 2]);
        assert_eq!("2J2Q".parse::<DeckSpec>().unwrap().counts, [0, 2, 2, 0, 0]);
        assert_eq!(DeckSpec::STANDARD.to_string(), "36-4J4Q4K4A");
        assert_eq!(
            DeckSpec::STANDARD.to_string().parse(),
            Ok(DeckSpec::STANDARD)
        );
    }

    #[test]
    fn counts_up_to_100000_a_kind() {
        let most: DeckSpec = "100000-1J".parse().unwrap();
        assert_eq!(most.counts, [100_000, 1, 0, 0, 0]);
        let e = "100001-1J".parse::<DeckSpec>().unwrap_err().to_string();
        assert!(
            e.contains("count too large") && e.contains("column 1"),
            "{e}"
        );
    }

    #[test]
    fn cards_lists_the_deck_sorted() {
        let d: DeckSpec = "2-1J2A".parse().unwrap();
        assert_eq!(d.cards(), vec![0, 0, 1, 4, 4]);
        assert_eq!(DeckSpec::of_cards(&d.cards()), d);
    }

    #[test]
    fn a_malformed_spec_names_the_column_of_its_fault() {
        for (spec, column, reason) in [
            ("8-2X", 4, "unknown card kind"),
            ("8", 2, "count without a kind"),
            ("2J2J", 4, "given twice"),
            ("J", 1, "expected a count"),
            ("8-100001J", 3, "count too large"),
        ] {
            match spec.parse::<DeckSpec>() {
                Err(DeckError::Malformed {
                    column: c,
                    reason: r,
                    ..
                }) => assert!(c == column && r.contains(reason), "{spec:?}: {c} {r}"),
                other => panic!("{spec:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn display_leaves_out_the_kinds_a_deck_lacks() {
        let d: DeckSpec = "2J2Q".parse().unwrap();
        assert_eq!(d.to_string(), "0-2J2Q");
        assert_eq!("8-1A".parse::<DeckSpec>().unwrap().to_string(), "8-1A");
    }

    #[test]
    fn only_the_standard_counts_are_standard() {
        assert!(DeckSpec::STANDARD.is_standard());
        assert!("36-4J4Q4K4A".parse::<DeckSpec>().unwrap().is_standard());
        assert!(!"8-2J2Q2K2A".parse::<DeckSpec>().unwrap().is_standard());
        assert!(!DeckSpec::CAMICIA.is_standard());
    }

    #[test]
    fn symbols_are_dash_notation() {
        let all: String = (0..KINDS as Card).map(symbol).collect();
        assert_eq!(all, "-JQKA");
    }

    #[test]
    fn rejects_bad_specs() {
        for bad in ["", "8-2X", "8", "J", "2J2J", "0-", "8-2J2Q2K2A5"] {
            assert!(bad.parse::<DeckSpec>().is_err(), "{bad:?}");
        }
    }
}
