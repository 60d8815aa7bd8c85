//! Parsing and printing of hands and positions: dash `-JQKA`, playing cards, Paulhus digits.
//!
//! Parsing yields an unchecked [`Setup`] (any number of hands, any counts); `position.rs` validates it
//! once into a `Position`. Printing is always dash notation with a `(n)` suffix,
//! which parses back to the same position.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::card::{ACE, Card, JACK, KING, NUMBER, QUEEN, symbol};

/// Which notation to read. `Auto` reads dash notation when the text holds `-` or `.`, playing cards
/// otherwise; Paulhus digits only when asked for (digits collide with playing-card ranks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Notation {
    #[default]
    Auto,
    Dash,
    Cards,
    Digits,
}

impl Notation {
    fn name(self) -> &'static str {
        match self {
            Notation::Auto => "auto",
            Notation::Dash => "dash",
            Notation::Cards => "playing-card",
            Notation::Digits => "digit",
        }
    }
}

impl FromStr for Notation {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(Notation::Auto),
            "dash" => Ok(Notation::Dash),
            "cards" => Ok(Notation::Cards),
            "digits" => Ok(Notation::Digits),
            _ => Err(format!(
                "unknown notation {s:?} (expected auto, dash, cards or digits)"
            )),
        }
    }
}

/// A problem in the text of a position. Columns count characters from 1.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ParseError {
    #[error("empty position")]
    Empty,
    #[error("unknown character {ch:?} at column {column} in {notation} notation")]
    UnknownChar {
        ch: char,
        column: usize,
        notation: &'static str,
    },
    #[error(
        "{ch:?} at column {column} is not a playing card (ranks are 2-10, T, J, Q, K, A); for Paulhus digits 0-4 use --notation digits"
    )]
    AmbiguousDigit { ch: char, column: usize },
    #[error("missing '/' between the hands (write HAND1/HAND2)")]
    MissingSlash,
    #[error("expected {expected} hands separated by '/', found {found}")]
    WrongHandCount { expected: usize, found: usize },
    #[error(
        "player to move at column {column} must be (1) or (2), or another hand's number with more players, found ({found})"
    )]
    BadPlayer { found: String, column: usize },
    #[error("at most {MAX_HANDS} hands (players), found {found}")]
    TooManyHands { found: usize },
    #[error("unbalanced parenthesis at column {column}: write the player to move as (1) or (2)")]
    BadSuffix { column: usize },
    #[error("player to move marked twice, differently (column {column})")]
    ConflictingMover { column: usize },
    #[error("all hands are empty")]
    NoCards,
}

/// Parsed but unchecked position: any number of hands, player to move if given (0-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub hands: Vec<Vec<Card>>,
    pub to_move: Option<usize>,
}

/// The most hands a position may have: the player to move is written `(1)` to `(64)`.
pub const MAX_HANDS: usize = 64;

/// A character with its 1-based column in the original text.
type Located = (char, usize);

/// Parses a position `HAND1/HAND2[/...] [(n)]`, with `●` or `*` optionally marking the player to move.
pub fn parse_setup(text: &str, notation: Notation) -> Result<Setup, ParseError> {
    let chars: Vec<Located> = text
        .chars()
        .enumerate()
        .filter(|(_, c)| !c.is_whitespace())
        .map(|(i, c)| (c, i + 1))
        .collect();
    if chars.is_empty() {
        return Err(ParseError::Empty);
    }
    let (body, mut to_move) = split_suffix(&chars)?;
    let notation = match notation {
        Notation::Auto if body.iter().any(|&(c, _)| c == '-' || c == '.') => Notation::Dash,
        Notation::Auto => Notation::Cards,
        n => n,
    };
    let mut hands = Vec::new();
    for (index, part) in body.split(|&(c, _)| c == '/').enumerate() {
        let mut part = part;
        if let Some(&(c, column)) = part.first()
            && (c == '●' || c == '*')
        {
            if to_move.is_some_and(|m| m != index) {
                return Err(ParseError::ConflictingMover { column });
            }
            to_move = Some(index);
            part = &part[1..];
        }
        hands.push(parse_hand_located(part, notation)?);
    }
    if hands.len() < 2 {
        return Err(ParseError::MissingSlash);
    }
    // Marked with `*`, a hand past the 64th would print as a player `(n)` no parse reads back
    // (found by the `notation` fuzz target).
    if hands.len() > MAX_HANDS {
        return Err(ParseError::TooManyHands { found: hands.len() });
    }
    if let Some(m) = to_move
        && m >= hands.len()
    {
        let column = chars.last().map_or(0, |&(_, c)| c);
        return Err(ParseError::BadPlayer {
            found: (m + 1).to_string(),
            column,
        });
    }
    if hands.iter().all(|h| h.is_empty()) {
        return Err(ParseError::NoCards);
    }
    Ok(Setup { hands, to_move })
}

/// Splits off a trailing `(n)`, returning the body and the 0-based player.
fn split_suffix(chars: &[Located]) -> Result<(&[Located], Option<usize>), ParseError> {
    let Some(&(last, last_col)) = chars.last() else {
        return Err(ParseError::Empty);
    };
    if last != ')' {
        if let Some(&(_, column)) = chars.iter().find(|&&(c, _)| c == '(' || c == ')') {
            return Err(ParseError::BadSuffix { column });
        }
        return Ok((chars, None));
    }
    let Some(open) = chars.iter().rposition(|&(c, _)| c == '(') else {
        return Err(ParseError::BadSuffix { column: last_col });
    };
    let inner: String = chars[open + 1..chars.len() - 1]
        .iter()
        .map(|&(c, _)| c)
        .collect();
    let column = chars[open].1;
    // Players beyond 2 are accepted here; the caller checks them against the hand count.
    let player = match inner.parse::<usize>() {
        Ok(n) if (1..=MAX_HANDS).contains(&n) => n - 1,
        _ => {
            return Err(ParseError::BadPlayer {
                found: inner,
                column,
            });
        }
    };
    let body = &chars[..open];
    if let Some(&(_, column)) = body.iter().find(|&&(c, _)| c == '(' || c == ')') {
        return Err(ParseError::BadSuffix { column });
    }
    Ok((body, Some(player)))
}

/// Parses one hand (no `/`) in the given notation; `Auto` is resolved on the hand alone.
pub fn parse_hand(text: &str, notation: Notation) -> Result<Vec<Card>, ParseError> {
    let chars: Vec<Located> = text
        .chars()
        .enumerate()
        .filter(|(_, c)| !c.is_whitespace())
        .map(|(i, c)| (c, i + 1))
        .collect();
    let notation = match notation {
        Notation::Auto if chars.iter().any(|&(c, _)| c == '-' || c == '.') => Notation::Dash,
        Notation::Auto if chars.is_empty() => Notation::Dash,
        Notation::Auto => Notation::Cards,
        n => n,
    };
    parse_hand_located(&chars, notation)
}

fn parse_hand_located(chars: &[Located], notation: Notation) -> Result<Vec<Card>, ParseError> {
    let unknown = |(ch, column): Located| ParseError::UnknownChar {
        ch,
        column,
        notation: notation.name(),
    };
    let mut hand = Vec::with_capacity(chars.len());
    match notation {
        Notation::Dash | Notation::Auto => {
            for &lc in chars {
                hand.push(match lc.0.to_ascii_uppercase() {
                    '-' | '.' => NUMBER,
                    'J' => JACK,
                    'Q' => QUEEN,
                    'K' => KING,
                    'A' => ACE,
                    _ => return Err(unknown(lc)),
                });
            }
        }
        Notation::Digits => {
            for &lc in chars {
                match lc.0.to_digit(10) {
                    Some(d) if d <= 4 => hand.push(d as Card),
                    _ => return Err(unknown(lc)),
                }
            }
        }
        Notation::Cards => {
            let mut i = 0;
            while i < chars.len() {
                let lc = chars[i];
                let card = match lc.0.to_ascii_uppercase() {
                    '2'..='9' | 'T' => NUMBER,
                    '1' if chars.get(i + 1).is_some_and(|&(c, _)| c == '0') => {
                        i += 1;
                        NUMBER
                    }
                    '0' | '1' => {
                        return Err(ParseError::AmbiguousDigit {
                            ch: lc.0,
                            column: lc.1,
                        });
                    }
                    'J' => JACK,
                    'Q' => QUEEN,
                    'K' => KING,
                    'A' => ACE,
                    _ => return Err(unknown(lc)),
                };
                hand.push(card);
                i += 1;
                if let Some(&(s, _)) = chars.get(i)
                    && matches!(
                        s,
                        '♣' | '♦' | '♥' | '♠' | 'C' | 'D' | 'H' | 'S' | 'c' | 'd' | 'h' | 's'
                    )
                {
                    i += 1;
                }
            }
        }
    }
    Ok(hand)
}

/// Writes a hand in dash notation.
pub fn format_hand(hand: &[Card]) -> String {
    Dash(hand).to_string()
}

/// Display adapter for a hand in dash notation.
pub struct Dash<'a>(pub &'a [Card]);

impl fmt::Display for Dash<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &c in self.0 {
            fmt::Write::write_char(f, symbol(c))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Setup, ParseError> {
        parse_setup(s, Notation::Auto)
    }

    #[test]
    fn dash_and_suffix() {
        let s = p("--K-/J- (2)").unwrap();
        assert_eq!(s.hands, vec![vec![0, 0, 3, 0], vec![1, 0]]);
        assert_eq!(s.to_move, Some(1));
        assert_eq!(p("..A/J.").unwrap().hands[0], vec![0, 0, 4]);
        assert_eq!(p("-/●J-").unwrap().to_move, Some(1));
        assert_eq!(p("*-/J-").unwrap().to_move, Some(0));
    }

    #[test]
    fn every_notation_is_read_by_its_name() {
        for n in [
            Notation::Auto,
            Notation::Dash,
            Notation::Cards,
            Notation::Digits,
        ] {
            let name = match n {
                Notation::Auto => "auto",
                Notation::Dash => "dash",
                Notation::Cards => "cards",
                Notation::Digits => "digits",
            };
            assert_eq!(name.parse::<Notation>(), Ok(n));
        }
        assert!("digit".parse::<Notation>().is_err());
    }

    #[test]
    fn playing_cards() {
        let s = p("10S 9♣ KH/2 3♦ J♥ T").unwrap();
        assert_eq!(s.hands, vec![vec![0, 0, 3], vec![0, 0, 1, 0]]);
        // `24` in auto is two number cards; in digits, a Queen and an Ace.
        assert_eq!(p("24/3").unwrap().hands[0], vec![0, 0]);
        let d = parse_setup("24/3", Notation::Digits).unwrap();
        assert_eq!(d.hands, vec![vec![2, 4], vec![3]]);
    }

    #[test]
    fn errors_name_the_problem_and_column() {
        assert_eq!(p(""), Err(ParseError::Empty));
        assert_eq!(p("   "), Err(ParseError::Empty));
        assert_eq!(p("--J-"), Err(ParseError::MissingSlash));
        assert!(matches!(
            p("-X/J"),
            Err(ParseError::UnknownChar {
                ch: 'X',
                column: 2,
                ..
            })
        ));
        // The message names the notation the hand was read in (auto resolves to one of them).
        let message = |s: &str, n: Notation| parse_setup(s, n).unwrap_err().to_string();
        assert!(message("-X/J", Notation::Auto).ends_with("in dash notation"));
        assert!(message("KH X/2", Notation::Cards).ends_with("in playing-card notation"));
        assert!(message("12/9", Notation::Digits).ends_with("in digit notation"));
        // A hand read alone: auto reads playing cards where it sees no dash, and a 1 is a
        // number card only as the 1 of a 10.
        assert_eq!(parse_hand("10S KH", Notation::Auto), Ok(vec![0, 3]));
        assert_eq!(parse_hand("", Notation::Auto), Ok(vec![]));
        assert!(matches!(
            parse_hand("1S", Notation::Cards),
            Err(ParseError::AmbiguousDigit { ch: '1', column: 1 })
        ));
        assert_eq!(format_hand(&[0, 1, 2, 3, 4]), "-JQKA");
        // A hand read alone counts its columns from 1 too, blanks included.
        assert!(matches!(
            parse_hand(" -X", Notation::Auto),
            Err(ParseError::UnknownChar { column: 3, .. })
        ));
        // The player named is the one the text gave, counted from 1.
        assert!(matches!(
            p("--/J- (3)"),
            Err(ParseError::BadPlayer { found, column: 9 }) if found == "3"
        ));
        assert!(matches!(p("--/J- (x)"), Err(ParseError::BadPlayer { .. })));
        // 64 hands are read, the last marked to move; 65 are refused, marked or not.
        let hands = |n: usize| vec!["J"; n].join("/");
        assert_eq!(p(&format!("{} (64)", hands(64))).unwrap().to_move, Some(63));
        let marked = format!("{}/*J", hands(64));
        assert!(matches!(
            p(&marked),
            Err(ParseError::TooManyHands { found: 65 })
        ));
        assert!(matches!(
            p(&hands(65)),
            Err(ParseError::TooManyHands { found: 65 })
        ));
        assert!(matches!(p("--/J- (1"), Err(ParseError::BadSuffix { .. })));
        assert!(matches!(
            p("0213/2"),
            Err(ParseError::AmbiguousDigit { ch: '0', column: 1 })
        ));
        assert!(matches!(
            p("●-/●J- "),
            Err(ParseError::ConflictingMover { .. })
        ));
        assert!(matches!(
            p("●-/J- (2)"),
            Err(ParseError::ConflictingMover { .. })
        ));
        assert_eq!(p("/"), Err(ParseError::NoCards));
    }
}
