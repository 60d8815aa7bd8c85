//! Decks around one required piece (`assemble --require PIECE --rest all`): the piece (its wildcard
//! face slots filled in every way the deck allows) goes last, `Δ1 S … Δ(K−1) S PIECE S TAIL`, and
//! everything before it is every arrangement of the rest of the deck, separators included.
//!
//! Library pieces can only find the decks their libraries hold; this finds every deck that holds
//! the piece, so it settles what a piece can take part in (e.g. every non-terminating deck with
//! the 2024 paper's long piece, whatever the other pieces are). The rest is enumerated by the
//! same prefix-sharing walk as `find-pieces --fill` ([`crate::ansatz::enumerate`]), once per
//! wildcard assignment, split into ranges that are the assembly's units.

use crate::ansatz::enumerate::{Enumerator, Params};
use crate::ansatz::template::Template;
use crate::card::{Card, KINDS, NUMBER};
use crate::notation::{Dash, Notation, parse_hand};

use super::PlanError;
use super::candidates::Frame;

/// A required piece: `None` marks a wildcard face slot (written `X` or `*`).
pub type Shape = Vec<Option<Card>>;

/// Parses a required piece in dash notation in which `X` or `*` stand for any face kind.
pub fn parse_shape(text: &str) -> Result<Shape, String> {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            'X' | 'x' | '*' => Ok(None),
            _ => parse_hand(&c.to_string(), Notation::Dash)
                .map_err(|e| e.to_string())
                .and_then(|v| match v.as_slice() {
                    [card] => Ok(Some(*card)),
                    _ => Err(format!("{c:?} is not one card")),
                }),
        })
        .collect()
}

/// The decks around one piece: every assignment of its wildcards, each with the rest of the deck.
#[derive(Clone, Debug)]
pub struct Rest {
    pub frame: Frame,
    pub k: usize,
    pub shape: Shape,
    /// The face kinds of the wildcard slots (in slot order), one list per assignment.
    pub assignments: Vec<Vec<Card>>,
    /// About how many ranges each assignment's rest is cut into.
    pub ranges_each: u64,
}

impl Rest {
    /// Plans the decks of `k` pieces (at least 2) around `shape`; the rest of each is cut into
    /// about `units / assignments` ranges (at least one).
    pub fn new(frame: Frame, k: usize, shape: Shape, units: u64) -> Result<Rest, PlanError> {
        if k < 2 {
            return Err(PlanError::RestNeedsTwoPieces);
        }
        let text = || shape_text(&shape);
        let budget = frame
            .budget(k)
            .ok_or_else(|| PlanError::FrameDoesNotFit(frame.deck.to_string()))?;
        // What the wildcards may take: the budget less the piece's fixed cards.
        let mut room = budget;
        for card in shape.iter().flatten() {
            let slot = &mut room[*card as usize];
            *slot = slot
                .checked_sub(1)
                .ok_or_else(|| PlanError::RequiredDoesNotFit(text()))?;
        }
        let wild = shape.iter().filter(|c| c.is_none()).count();
        let mut assignments = Vec::new();
        wildcard_assignments(
            &frame.face_kinds,
            &mut room,
            wild,
            &mut Vec::new(),
            &mut assignments,
        );
        if assignments.is_empty() {
            return Err(PlanError::RequiredDoesNotFit(text()));
        }
        let ranges_each = (units / assignments.len() as u64).max(1);
        Ok(Rest {
            frame,
            k,
            shape,
            assignments,
            ranges_each,
        })
    }

    /// The piece with assignment `a` in its wildcard slots.
    pub fn piece(&self, a: usize) -> Vec<Card> {
        let mut faces = self.assignments[a].iter();
        self.shape
            .iter()
            .map(|c| c.unwrap_or_else(|| *faces.next().expect("one kind per wildcard")))
            .collect()
    }

    /// The rest of the deck for assignment `a` as a template game with TEST before the piece, and
    /// the enumeration of every arrangement of those cards.
    pub fn enumerator(&self, a: usize) -> Enumerator {
        let f = &self.frame;
        let piece = self.piece(a);
        let mut after = vec![f.separator];
        after.extend_from_slice(&piece);
        after.push(f.separator);
        after.extend_from_slice(&f.tail);
        let budget = f.budget(self.k).expect("checked in new");
        let mut counts = [0u8; KINDS];
        for (kind, slot) in counts.iter_mut().enumerate() {
            let in_piece = piece.iter().filter(|&&c| c as usize == kind).count() as u32;
            *slot = (budget[kind] - in_piece) as u8;
        }
        // The separators between the pieces before this one.
        counts[f.separator as usize] += (self.k - 2) as u8;
        let params = Params::fill(counts);
        let template = test_before("rest", f, after, &params);
        Enumerator::new(&template, &params, self.ranges_each)
            .expect("a deck of at most 52 cards fits the enumeration")
    }
}

/// `X` for wildcards, dash symbols otherwise.
pub fn shape_text(shape: &Shape) -> String {
    shape
        .iter()
        .map(|c| c.map_or('X', crate::card::symbol))
        .collect()
}

/// Every sequence of `slots` face kinds from `kinds` within `room` (by kind), in lexicographic order.
fn wildcard_assignments(
    kinds: &[Card],
    room: &mut [u32; KINDS],
    slots: usize,
    cur: &mut Vec<Card>,
    out: &mut Vec<Vec<Card>>,
) {
    if cur.len() == slots {
        out.push(cur.clone());
        return;
    }
    for &k in kinds {
        if k != NUMBER && room[k as usize] > 0 {
            room[k as usize] -= 1;
            cur.push(k);
            wildcard_assignments(kinds, room, slots, cur, out);
            cur.pop();
            room[k as usize] += 1;
        }
    }
}

/// The template game of frame `f` with TEST in front of `after` in player 1's hand: the rest of a
/// deck enumerated around fixed cards (a piece here, the whole hand in `discover`).
pub fn test_before(name: &str, f: &Frame, after: Vec<Card>, params: &Params) -> Template {
    Template {
        name: name.into(),
        position: format!(
            "{{TEST}}{}/{} ({})",
            Dash(&after),
            Dash(&f.other),
            f.to_move + 1
        ),
        filter: Vec::new(),
        faces: params.kinds.clone(),
        test_hand: 0,
        before: Vec::new(),
        after,
        other: f.other.clone(),
        to_move: f.to_move,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::DeckSpec;

    fn jack_frame() -> Frame {
        Frame::jack(DeckSpec::STANDARD)
    }

    #[test]
    fn shapes_parse_with_wildcards() {
        assert_eq!(
            parse_shape("-X-K*").unwrap(),
            vec![Some(0), None, Some(0), Some(3), None]
        );
        assert!(parse_shape("-Z").is_err());
    }

    #[test]
    fn assignments_respect_the_deck() {
        // Four wildcards with 4 Q, 4 K, 4 A free: 3^4 sequences.
        let r = Rest::new(jack_frame(), 3, parse_shape("X-X-X-X").unwrap(), 1).unwrap();
        assert_eq!(r.assignments.len(), 81);
        // Next to three fixed Aces only one A is left for the wildcards.
        let r = Rest::new(jack_frame(), 3, parse_shape("AAAXX").unwrap(), 1).unwrap();
        assert_eq!(r.assignments.len(), 8); // QQ QK QA KQ KK KA AQ AK
        assert!(matches!(
            Rest::new(jack_frame(), 3, parse_shape("AAAAA").unwrap(), 1),
            Err(PlanError::RequiredDoesNotFit(_))
        ));
        assert!(matches!(
            Rest::new(jack_frame(), 1, parse_shape("--").unwrap(), 1),
            Err(PlanError::RestNeedsTwoPieces)
        ));
    }

    #[test]
    fn the_rest_fills_the_deck() {
        let r = Rest::new(jack_frame(), 3, parse_shape("--K---A----AA").unwrap(), 1).unwrap();
        let e = r.enumerator(0);
        // The other pieces and one separator: 34 - 9 = 25 number cards, J, Q4 K3 A1.
        assert_eq!(e.total_candidates(), multinomial(&[25, 1, 4, 3, 1]));
        let deck = e.template().fill(&[0; 34]);
        assert_eq!(deck.hands[0].len() + deck.hands[1].len(), 52);
        assert_eq!(
            e.template().display(),
            "{TEST}J--K---A----AAJ-/J- (1)",
            "the piece goes last"
        );
    }

    fn multinomial(parts: &[u64]) -> u64 {
        let mut n = 0;
        let mut ways = 1u64;
        for &p in parts {
            for i in 1..=p {
                n += 1;
                ways = ways * n / i;
            }
        }
        ways
    }
}
