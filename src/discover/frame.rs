//! Stage 1, the frame: what a deck gives the ansatz route. The separator is the lowest penalty
//! card kind present (a Jack in the standard deck) unless another is asked for, the other face
//! kinds fill the pieces, and the deck is `Δ1 S … Δk S - / S -` with k one less than the
//! separators, as in the 2024 jack frame. Its ends (player 1's cards after the last separator,
//! player 2's hand, who moves first) may be given instead ([`Ends`]), as the frames of
//! `templates/census/frame-*.txt`.

use crate::assemble::candidates::Frame;
use crate::card::{Card, DeckSpec, KINDS, NUMBER, symbol};
use crate::notation::{Dash, Notation, parse_hand};

use super::error::DiscoverError;

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

/// The ends of a frame: player 1's cards after the last separator (`tail`), player 2's hand
/// (`other`), and who moves first. Written `TAIL/OTHER` or `TAIL/OTHER (P)`, P 1 or 2 (1 when
/// left out): `-/J-` is the 2024 jack frame's, `--/J-` gives player 1 one number card more,
/// `-/J- (2)` lets player 2 move first. The tail holds number cards and separators only; player
/// 2's hand may hold any kind the deck has (`---/J-` with a King separator: `Δ1 K Δ2 K---/J-`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ends {
    pub tail: Vec<Card>,
    pub other: Vec<Card>,
    pub to_move: u8,
}

impl std::str::FromStr for Ends {
    type Err = DiscoverError;

    fn from_str(text: &str) -> Result<Ends, DiscoverError> {
        let bad = |why: &str| DiscoverError::BadFrame(text.to_string(), why.to_string());
        let t = text.trim();
        let (hands, to_move) = match t.strip_suffix(')').and_then(|r| r.rsplit_once('(')) {
            Some((h, p)) => match p.trim() {
                "1" => (h, 0),
                "2" => (h, 1),
                _ => return Err(bad("the player to move is (1) or (2)")),
            },
            None => (t, 0),
        };
        let Some((tail, other)) = hands.split_once('/') else {
            return Err(bad("write TAIL/OTHER, e.g. -/J-"));
        };
        let hand = |h: &str| parse_hand(h, Notation::Dash).map_err(|e| bad(&e.to_string()));
        let ends = Ends {
            tail: hand(tail)?,
            other: hand(other)?,
            to_move,
        };
        if ends.other.is_empty() {
            return Err(bad("player 2 needs at least one card"));
        }
        Ok(ends)
    }
}

impl Ends {
    /// The 2024 frame's ends for a separator demanding `pay` cards: `pay` number cards, and the
    /// separator with as many, player 1 first.
    fn standard(separator: Card) -> Ends {
        let pay = separator as usize;
        let mut other = vec![separator];
        other.extend(std::iter::repeat_n(NUMBER, pay));
        Ends {
            tail: vec![NUMBER; pay],
            other,
            to_move: 0,
        }
    }

    /// `TAIL/OTHER (P)`.
    pub fn text(&self) -> String {
        format!(
            "{}/{} ({})",
            Dash(&self.tail),
            Dash(&self.other),
            self.to_move + 1
        )
    }

    /// A part of file names: `tail` and `other` with number cards as `0`, e.g. `T00-OJ0` for
    /// `--/J-`, and `-p2` when player 2 moves first.
    pub fn name(&self) -> String {
        let w = |h: &[Card]| -> String {
            h.iter()
                .map(|&c| if c == NUMBER { '0' } else { symbol(c) })
                .collect()
        };
        format!(
            "T{}-O{}{}",
            w(&self.tail),
            w(&self.other),
            if self.to_move == 1 { "-p2" } else { "" }
        )
    }
}

/// The ends `ends` would give `deck` when they are its default (so the same run has one name and
/// one checkpoint however it is asked for), else `Some(ends)`.
pub fn unless_default(deck: DeckSpec, separator: Option<Card>, ends: Option<Ends>) -> Option<Ends> {
    let df = derive(deck, separator, None).ok()?;
    ends.filter(|e| *e != Ends::standard(df.separator))
}

/// Derives the frame of `deck` with the separator `separator` (the deck's lowest face kind when
/// `None`) and the ends `ends` (the 2024 frame's when `None`), or says why discovery cannot run
/// on it.
pub fn derive(
    deck: DeckSpec,
    separator: Option<Card>,
    ends: Option<&Ends>,
) -> Result<DeckFrame, DiscoverError> {
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
    let given = separator;
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
    let Some(ends) = ends else {
        if seps < 2 || (deck.counts[NUMBER as usize] as usize) < 2 * pay || piece_kinds.is_empty() {
            // A deck with one card of its lowest kind (1J1Q1K1A + n) has no 2024 frame: it takes
            // the smallest frame of the sweep instead, unless a separator was asked for.
            return match given {
                None => sweep(deck)
                    .into_iter()
                    .min_by_key(|d| (whole_frame_decks(d), d.display()))
                    .ok_or_else(|| DiscoverError::NoFrame(deck.to_string())),
                Some(_) => Err(DiscoverError::NoFrame(deck.to_string())),
            };
        }
        return Ok(frame_with(
            deck,
            separator,
            piece_kinds,
            seps - 1,
            Ends::standard(separator),
        ));
    };
    let bad = |why: String| DiscoverError::BadFrame(ends.text(), why);
    let cards = || ends.tail.iter().chain(&ends.other);
    if let Some(&c) = ends.tail.iter().find(|&&c| c != NUMBER && c != separator) {
        return Err(bad(format!(
            "its tail holds {}, but player 1's tail holds number cards and the separator ({}) only",
            symbol(c),
            symbol(separator)
        )));
    }
    let held = cards().filter(|&&c| c == separator).count();
    if piece_kinds.is_empty() || seps < held + 1 {
        return Err(bad(format!(
            "deck {deck} needs a separator to close a piece beside the {held} in the ends, and \
             another face kind for the pieces"
        )));
    }
    let df = frame_with(deck, separator, piece_kinds, seps - held, ends.clone());
    if df.frame.budget(df.k).is_none() {
        return Err(bad(format!("deck {deck} has too few number cards for it")));
    }
    Ok(df)
}

/// The frames of the frame sweep: for every separator kind S, pieces closed by S and player 1's
/// tail of as many number cards as S demands (the 2024 frame's rule), player 2 holding one face
/// card of any kind with at most one number card before it and two after, player 1 to move;
/// every frame but the deck's own (the 2024 frame's ends), with at least one piece. The cycles
/// of decks with few face cards pass through such positions (one hand down to a face card and a
/// number card or two) with the other hand's cards cut by a kind other than the lowest.
pub fn sweep(deck: DeckSpec) -> Vec<DeckFrame> {
    let own = standard_frame(deck).map(|d| d.frame);
    let kinds: Vec<Card> = (1..KINDS as Card)
        .filter(|&k| deck.counts[k as usize] > 0)
        .collect();
    let mut out = Vec::new();
    for &s in &kinds {
        for &f in &kinds {
            for a in 0..=1 {
                for b in 0..=2 {
                    let mut other = vec![NUMBER; a];
                    other.push(f);
                    other.extend(std::iter::repeat_n(NUMBER, b));
                    let ends = Ends {
                        tail: vec![NUMBER; s as usize],
                        other,
                        to_move: 0,
                    };
                    let Ok(df) = derive(deck, Some(s), Some(&ends)) else {
                        continue;
                    };
                    if df.k == 0 || own.as_ref().is_some_and(|o| *o == df.frame) {
                        continue;
                    }
                    out.push(df);
                }
            }
        }
    }
    out
}

/// Where a frame of the sweep comes in the order it runs, before its size: first the frames
/// whose player 2 holds the deck's lowest face kind (as in the 2024 frame: the weakest penalty
/// card keeps the short hand short) and whose separator is another kind (the frames of the
/// lowest kind as separator differ from the deck's own frame, searched before the sweep, only in
/// player 2's number cards), then those with one of the two, then the rest. With the quick
/// scope's budget, smallest first alone reaches no King frame of 2J2Q2K2A + 30 and + 36 (their
/// frames `Δ1 K Δ2 K---/-J- (1)` and `Δ1 K Δ2 K---/-J-- (1)` come 42nd and 33rd by size); in
/// this order they come 7th and 4th.
pub fn sweep_rank(df: &DeckFrame) -> u8 {
    let lowest = (1..KINDS as Card).find(|&k| df.deck.counts[k as usize] > 0);
    let holds_lowest = df.frame.other.iter().any(|&c| Some(c) == lowest);
    let other_separator = Some(df.separator) != lowest;
    u8::from(!holds_lowest) + u8::from(!other_separator)
}

/// The deck's 2024 frame, if it has one (no fallback to the sweep).
fn standard_frame(deck: DeckSpec) -> Option<DeckFrame> {
    let lowest = (1..KINDS as Card).find(|&k| deck.counts[k as usize] > 0)?;
    derive(deck, Some(lowest), Some(&Ends::standard(lowest))).ok()
}

fn frame_with(
    deck: DeckSpec,
    separator: Card,
    piece_kinds: Vec<Card>,
    k: usize,
    ends: Ends,
) -> DeckFrame {
    let frame = Frame {
        separator,
        tail: ends.tail,
        other: ends.other,
        to_move: ends.to_move,
        face_kinds: piece_kinds.clone(),
        deck,
    };
    DeckFrame {
        deck,
        separator,
        piece_kinds,
        k,
        frame,
    }
}

impl DeckFrame {
    /// The frame as a position, e.g. `Δ1 J Δ2 J Δ3 J-/J- (1)`.
    pub fn display(&self) -> String {
        let s = symbol(self.separator);
        let pieces: Vec<String> = (1..=self.k).map(|i| format!("Δ{i} {s}")).collect();
        format!(
            "{}{}/{} ({})",
            pieces.join(" "),
            Dash(&self.frame.tail),
            Dash(&self.frame.other),
            self.frame.to_move + 1
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
            "{s}{}/{} ({})",
            Dash(&self.frame.tail),
            Dash(&self.frame.other),
            self.frame.to_move + 1
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

/// Arrangements of the cards a frame leaves (a multinomial), saturating.
pub fn whole_frame_decks(df: &DeckFrame) -> u64 {
    let Some(budget) = df.frame.budget(df.k) else {
        return 0;
    };
    let mut counts: Vec<u128> = budget.iter().map(|&c| c as u128).collect();
    counts[df.separator as usize] += (df.k - 1) as u128;
    let mut n = 0u128;
    let mut ways = 1u128;
    for c in counts {
        for i in 1..=c {
            n += 1;
            ways = match ways.checked_mul(n) {
                Some(w) => w / i,
                None => return u64::MAX,
            };
        }
    }
    u64::try_from(ways).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Source: results/census/cycles-30-2J2Q2K2A.txt: the cycle of 2J2Q2K2A + 30 passes through
    // `-J-/------K-A----A---------Q-Q-J---K--- (2)`, the mirror image of a deck of this frame.
    #[test]
    fn the_sweep_holds_the_king_frames_and_not_the_decks_own() {
        let deck: DeckSpec = "30-2J2Q2K2A".parse().unwrap();
        let names: Vec<String> = sweep(deck).iter().map(DeckFrame::display).collect();
        assert!(names.contains(&"Δ1 K Δ2 K---/-J- (1)".to_string()));
        assert!(!names.contains(&"Δ1 J-/J- (1)".to_string()));
        // Every frame: one face card in player 2's hand, the tail its separator's demand.
        for d in sweep(deck) {
            assert_eq!(d.frame.other.iter().filter(|&&c| c != NUMBER).count(), 1);
            assert_eq!(d.frame.tail, vec![NUMBER; d.separator as usize]);
            assert!(d.k >= 1);
        }
        // One card of each face: no 2024 frame, the sweep's smallest instead (unless a separator
        // is asked for).
        let one: DeckSpec = "26-1J1Q1K1A".parse().unwrap();
        let f = derive(one, None, None).unwrap();
        assert_eq!(f.k, 1);
        assert!(sweep(one).iter().any(|d| d.frame == f.frame));
        assert!(derive(one, Some(1), None).is_err());
    }

    #[test]
    fn frames_of_the_named_decks() {
        let f = derive(DeckSpec::STANDARD, None, None).unwrap();
        assert_eq!((f.separator, f.k, f.faces_text()), (1, 3, "QKA".into()));
        assert_eq!(f.frame, Frame::jack(DeckSpec::STANDARD));
        assert_eq!(f.display(), "Δ1 J Δ2 J Δ3 J-/J- (1)");
        assert_eq!(f.prefix_text(true), "--J{FILTER}J");
        let c = derive(DeckSpec::CAMICIA, None, None).unwrap();
        assert_eq!((c.k, c.faces_text()), (3, "QK".into()));
        let s = derive("16-2J2Q2K2A".parse().unwrap(), None, None).unwrap();
        assert_eq!((s.k, s.prefix_text(true)), (1, String::new()));
        let q = derive("11-3Q2K".parse().unwrap(), None, None).unwrap();
        assert_eq!((q.separator, q.k, q.faces_text()), (2, 2, "K".into()));
        // Another separator: the Queen of the standard deck, the pieces of J, K and A.
        let sq = derive(DeckSpec::STANDARD, Some(2), None).unwrap();
        assert_eq!((sq.separator, sq.k, sq.faces_text()), (2, 3, "JKA".into()));
        assert_eq!(sq.display(), "Δ1 Q Δ2 Q Δ3 Q--/Q-- (1)");
        assert_eq!(sq.tail_text(), "Q--/Q-- (1)");
        assert_eq!(sq.prefix_text(true), "---Q{FILTER}Q");
    }

    #[test]
    fn decks_without_a_frame() {
        let e = |s: &str| derive(s.parse().unwrap(), None, None).unwrap_err();
        assert!(matches!(e("20-"), DiscoverError::NoPenaltyCards(_)));
        assert!(matches!(e("10-4J"), DiscoverError::NoFrame(_)));
        assert!(matches!(e("40-4J4Q4K4A"), DiscoverError::DeckTooLarge(..)));
        let camicia_ace = derive(DeckSpec::CAMICIA, Some(4), None).unwrap_err();
        assert!(matches!(camicia_ace, DiscoverError::NoSeparator(..)));
        // One Ace: no frame with the Ace as separator.
        let one_ace = derive("11-2J2Q2K1A".parse().unwrap(), Some(4), None).unwrap_err();
        assert!(matches!(one_ace, DiscoverError::NoFrame(_)));
    }

    /// Frames with other ends: those of `templates/census/frame-*.txt`, written as `--frame`
    /// takes them, and the ends that do not fit.
    #[test]
    fn frames_with_other_ends() {
        let ends = |s: &str| s.parse::<Ends>().unwrap();
        let std = DeckSpec::STANDARD;
        assert_eq!(ends("-/J-"), Ends::standard(1));
        assert_eq!(ends("-/J- (1)"), Ends::standard(1));
        assert_eq!(unless_default(std, None, Some(ends("-/J-"))), None);
        let tail2 = derive(std, None, Some(&ends("--/J-"))).unwrap();
        assert_eq!(tail2.display(), "Δ1 J Δ2 J Δ3 J--/J- (1)");
        assert_eq!(tail2.tail_text(), "J--/J- (1)");
        assert_eq!(ends("--/J-").name(), "T00-OJ0");
        let p2 = derive(std, None, Some(&ends("-/J- (2)"))).unwrap();
        assert_eq!((p2.k, p2.display()), (3, "Δ1 J Δ2 J Δ3 J-/J- (2)".into()));
        assert_eq!(ends("-/J- (2)").name(), "T0-OJ0-p2");
        let tail0 = derive(std, None, Some(&ends("/J--"))).unwrap();
        assert_eq!((tail0.k, tail0.frame.tail.len()), (3, 0));
        // No separator in player 2's hand: four pieces.
        let nj = derive(std, None, Some(&ends("-/---"))).unwrap();
        assert_eq!(
            (nj.k, nj.display()),
            (4, "Δ1 J Δ2 J Δ3 J Δ4 J-/--- (1)".into())
        );
        let bad = |s: &str, sep| derive(std, sep, Some(&ends(s))).unwrap_err();
        assert!(matches!(bad("Q-/J-", None), DiscoverError::BadFrame(..)));
        // Player 2's hand may hold any kind: a Queen with the Jack separator.
        assert!(derive(std, None, Some(&ends("-/Q-"))).is_ok());
        assert!(matches!(bad("JJ/JJ-", None), DiscoverError::BadFrame(..)));
        assert!(derive(std, Some(2), Some(&ends("-/Q-"))).is_ok());
        let small = derive("4-2J2Q".parse().unwrap(), None, Some(&ends("----/J-"))).unwrap_err();
        assert!(matches!(small, DiscoverError::BadFrame(..)));
        for text in ["-J-", "-/J- (3)", "-/", "-/J-x"] {
            assert!(text.parse::<Ends>().is_err(), "{text}");
        }
    }
}
