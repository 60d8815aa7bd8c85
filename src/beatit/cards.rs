//! Cards, hands and positions in text: `AQT98.KJ` (hearts, a dot, spades, highest first),
//! positions `HAND1/HAND2 (m)`, and the table as cards oldest first (`8h Jh 8s`).

use thiserror::Error;

/// Rank letters from the Ace down; a suit of length `n` uses the first `n`.
const RANKS: &[u8; 13] = b"AKQJT98765432";
/// The longest suit (the real game).
pub const MAX_SUIT: usize = 13;

/// Bad notation or an impossible position; the message names the problem.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum NotationError {
    #[error("bad position {0:?}: expected HAND1/HAND2 (1|2), hands like AQT98.KJ")]
    Syntax(String),
    #[error("bad card {0:?}: expected a rank (AKQJT98765432) and a suit (h or s), like Ks")]
    BadCard(String),
    #[error("card {0} appears twice")]
    Duplicate(String),
    #[error("card {0} is missing: every card of both suits must be in a hand or on the table")]
    Missing(String),
    #[error("card {card} is outside a suit of {n} cards ({range})")]
    OutsideSuit {
        card: String,
        n: usize,
        range: String,
    },
    #[error("suit length {0} is outside 1..=13")]
    SuitLength(usize),
    #[error("the game is over: player {0} has no cards left")]
    EmptyHand(u8),
    #[error(
        "unbalanced layout {0}: each hand must hold n cards, player 2 holding in spades the ranks player 1 holds in hearts"
    )]
    Unbalanced(String),
}

/// A card: suit 0 (hearts) or 1 (spades) and a rank 0 (the deuce) ..= 12 (the Ace).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card {
    pub suit: u8,
    pub rank: u8,
}

impl Card {
    /// Bit index of the card in a suit of length `n`: spades above hearts, low ranks first.
    pub fn index(self, n: usize) -> usize {
        self.suit as usize * n + self.rank as usize + n - 13
    }

    /// The card at bit `i` in a suit of length `n`.
    pub fn from_index(i: usize, n: usize) -> Card {
        Card {
            suit: (i / n) as u8,
            rank: (i % n + 13 - n) as u8,
        }
    }

    pub fn rank_char(self) -> char {
        RANKS[12 - self.rank as usize] as char
    }

    /// Parses `Ks`, `8h` (suit letters in either case).
    pub fn parse(s: &str) -> Result<Card, NotationError> {
        let b = s.as_bytes();
        let bad = || NotationError::BadCard(s.to_string());
        if b.len() != 2 {
            return Err(bad());
        }
        let rank = rank_of(b[0]).ok_or_else(bad)?;
        let suit = match b[1].to_ascii_lowercase() {
            b'h' => 0,
            b's' => 1,
            _ => return Err(bad()),
        };
        Ok(Card { suit, rank })
    }
}

impl std::fmt::Display for Card {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = if self.suit == 0 { 'h' } else { 's' };
        write!(f, "{}{s}", self.rank_char())
    }
}

fn rank_of(c: u8) -> Option<u8> {
    let c = c.to_ascii_uppercase();
    RANKS.iter().position(|&r| r == c).map(|p| (12 - p) as u8)
}

/// A hand as a bit mask (see [`Card::index`]) written `AQT98.KJ`.
pub fn format_hand(mask: u32, n: usize) -> String {
    let mut s = String::new();
    for suit in 0..2 {
        if suit == 1 {
            s.push('.');
        }
        for r in (0..n).rev() {
            if mask >> (suit * n + r) & 1 == 1 {
                s.push(Card::from_index(suit * n + r, n).rank_char());
            }
        }
    }
    s
}

/// A hand's cards, in the order written, unchecked against any suit length.
fn parse_hand(s: &str, whole: &str) -> Result<Vec<Card>, NotationError> {
    let (hearts, spades) = s
        .split_once('.')
        .ok_or_else(|| NotationError::Syntax(whole.to_string()))?;
    let mut cards = Vec::new();
    for (suit, part) in [(0u8, hearts), (1u8, spades)] {
        for c in part.bytes() {
            let rank = rank_of(c).ok_or_else(|| NotationError::Syntax(whole.to_string()))?;
            cards.push(Card { suit, rank });
        }
    }
    Ok(cards)
}

/// A checked position in absolute terms: both hands, the table oldest first, the player to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSetup {
    pub n: usize,
    pub hands: [u32; 2],
    pub table: Vec<Card>,
    /// 1 or 2.
    pub to_move: u8,
}

impl GameSetup {
    /// Parses `HAND1/HAND2 (m)` (the mover defaults to 1) and the table `8h Jh ...` oldest
    /// first; the suit length is the longer suit's count, and every card must appear once.
    pub fn parse(position: &str, table: &str) -> Result<GameSetup, NotationError> {
        let syntax = || NotationError::Syntax(position.to_string());
        let p = position.trim();
        let (hands_part, to_move) = match p.split_once('(') {
            Some((h, m)) => {
                let m = m.trim().strip_suffix(')').ok_or_else(syntax)?.trim();
                let m = match m {
                    "1" => 1,
                    "2" => 2,
                    _ => return Err(syntax()),
                };
                (h.trim(), m)
            }
            None => (p, 1),
        };
        let (h1, h2) = hands_part.split_once('/').ok_or_else(syntax)?;
        let hand1 = parse_hand(h1.trim(), position)?;
        let hand2 = parse_hand(h2.trim(), position)?;
        let table = table
            .split_whitespace()
            .map(Card::parse)
            .collect::<Result<Vec<_>, _>>()?;
        let all: Vec<Card> = hand1.iter().chain(&hand2).chain(&table).copied().collect();
        let n = (0..2)
            .map(|s| all.iter().filter(|c| c.suit == s).count())
            .max()
            .unwrap_or(0);
        if n == 0 || n > MAX_SUIT {
            return Err(NotationError::SuitLength(n));
        }
        let lowest = Card::from_index(0, n).rank_char();
        let mut seen = 0u32;
        for c in &all {
            if (c.rank as usize) < 13 - n {
                return Err(NotationError::OutsideSuit {
                    card: c.to_string(),
                    n,
                    range: format!("A down to {lowest}"),
                });
            }
            let bit = 1u32 << c.index(n);
            if seen & bit != 0 {
                return Err(NotationError::Duplicate(c.to_string()));
            }
            seen |= bit;
        }
        if let Some(i) = (0..2 * n).find(|&i| seen >> i & 1 == 0) {
            return Err(NotationError::Missing(Card::from_index(i, n).to_string()));
        }
        let mask = |cards: &[Card]| cards.iter().fold(0u32, |m, c| m | 1 << c.index(n));
        let hands = [mask(&hand1), mask(&hand2)];
        if let Some(p) = (0..2).find(|&p| hands[p] == 0) {
            return Err(NotationError::EmptyHand(p as u8 + 1));
        }
        Ok(GameSetup {
            n,
            hands,
            table,
            to_move,
        })
    }

    /// The symmetric layout of a suit of length `n` in which player 1 holds the ranks of `set`
    /// (bit `r` = the `r`-th lowest rank) in hearts, with `leader` to move and an empty table.
    pub fn layout(n: usize, set: u32, leader: u8) -> GameSetup {
        let full = (1u32 << n) - 1;
        let set = set & full;
        GameSetup {
            n,
            hands: [set | (full & !set) << n, (full & !set) | set << n],
            table: Vec::new(),
            to_move: leader,
        }
    }

    /// Parses a layout `HAND1/HAND2` (any mover suffix is kept) and checks it is symmetric:
    /// player 2 holds in spades exactly the ranks player 1 holds in hearts, and the reverse.
    pub fn parse_layout(position: &str) -> Result<GameSetup, NotationError> {
        let g = GameSetup::parse(position, "")?;
        let full = (1u32 << g.n) - 1;
        let set = g.hands[0] & full;
        let expect = GameSetup::layout(g.n, set, g.to_move);
        if g.hands != expect.hands {
            return Err(NotationError::Unbalanced(position.to_string()));
        }
        Ok(g)
    }

    /// `HAND1/HAND2 (m)`.
    pub fn position_string(&self) -> String {
        format!(
            "{}/{} ({})",
            format_hand(self.hands[0], self.n),
            format_hand(self.hands[1], self.n),
            self.to_move
        )
    }

    /// The table, oldest first, as `8h Jh 8s`.
    pub fn table_string(&self) -> String {
        let v: Vec<String> = self.table.iter().map(Card::to_string).collect();
        v.join(" ")
    }

    /// The card the player to move must beat or eat: the top card when the table holds an odd
    /// number of cards (a lead waiting for an answer).
    pub fn card_to_beat(&self) -> Option<Card> {
        if self.table.len() % 2 == 1 {
            self.table.last().copied()
        } else {
            None
        }
    }
}
