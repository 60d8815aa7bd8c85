//! Assembly candidates: ordered K-tuples of piece *patterns* (which cards are faces) that fit a deck's
//! budget, and every assignment of face kinds to their face slots. Working on patterns means a deck
//! is generated once however many library pieces share its shape (face swaps are the assignments).

use crate::card::{Card, DeckSpec, KINDS, NUMBER};

/// What a deck is built around: `Δ1 S Δ2 S … ΔK S TAIL / OTHER` (player `to_move` first), where `S`
/// is the separator (a Jack for the jack template).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub separator: Card,
    pub tail: Vec<Card>,
    pub other: Vec<Card>,
    pub to_move: u8,
    /// The face kinds that fill the pieces' face slots (Q, K, A for the jack template).
    pub face_kinds: Vec<Card>,
    pub deck: DeckSpec,
}

/// A piece shape: `true` where the piece holds a face card.
pub type Pattern = Vec<bool>;

/// The distinct patterns of `pieces`, sorted (shortest first, then lexicographically) so that the
/// enumeration order does not depend on library order.
pub fn patterns(pieces: &[Vec<Card>]) -> Vec<Pattern> {
    let mut v: Vec<Pattern> = pieces
        .iter()
        .map(|p| p.iter().map(|&c| c != NUMBER).collect())
        .collect();
    v.sort_by(|a: &Pattern, b: &Pattern| a.len().cmp(&b.len()).then(a.cmp(b)));
    v.dedup();
    v
}

impl Frame {
    /// The jack frame of the 2024 construction over `deck`: `Δ1 J … ΔK J- / J-`, player 1 first,
    /// pieces of number cards, Q, K and A.
    pub fn jack(deck: DeckSpec) -> Frame {
        Frame {
            separator: crate::card::JACK,
            tail: vec![NUMBER],
            other: vec![crate::card::JACK, NUMBER],
            to_move: 0,
            face_kinds: vec![2, 3, 4],
            deck,
        }
    }

    /// Face cards of each kind left for the pieces once the separators, tail and other hand are
    /// taken out of the deck, or `None` if the frame itself does not fit the deck.
    pub fn budget(&self, k: usize) -> Option<[u32; KINDS]> {
        let mut left = self.deck.counts;
        let fixed = std::iter::repeat_n(&self.separator, k)
            .chain(&self.tail)
            .chain(&self.other);
        for &c in fixed {
            left[c as usize] = left[c as usize].checked_sub(1)?;
        }
        // The pieces may only hold number cards and `face_kinds`.
        for (kind, &n) in left.iter().enumerate().skip(1) {
            if n > 0 && !self.face_kinds.contains(&(kind as Card)) {
                return None;
            }
        }
        Some(left)
    }
}

/// Every ordered `k`-tuple of pattern indices whose number and face counts fill `budget` exactly.
pub fn tuples(patterns: &[Pattern], k: usize, budget: &[u32; KINDS]) -> Vec<Vec<u32>> {
    let numbers = budget[0] as usize;
    let faces: usize = budget[1..].iter().map(|&c| c as usize).sum();
    let shape: Vec<(usize, usize)> = patterns
        .iter()
        .map(|p| {
            let f = p.iter().filter(|&&b| b).count();
            (p.len() - f, f)
        })
        .collect();
    let mut out = Vec::new();
    let mut cur = Vec::with_capacity(k);
    fn rec(
        shape: &[(usize, usize)],
        k: usize,
        numbers: usize,
        faces: usize,
        cur: &mut Vec<u32>,
        out: &mut Vec<Vec<u32>>,
    ) {
        if cur.len() == k {
            if numbers == 0 && faces == 0 {
                out.push(cur.clone());
            }
            return;
        }
        for (i, &(n, f)) in shape.iter().enumerate() {
            if n <= numbers && f <= faces {
                cur.push(i as u32);
                rec(shape, k, numbers - n, faces - f, cur, out);
                cur.pop();
            }
        }
    }
    rec(&shape, k, numbers, faces, &mut cur, &mut out);
    out
}

/// The face kinds of `budget` in ascending order: the first assignment of the face slots.
pub fn first_assignment(budget: &[u32; KINDS]) -> Vec<Card> {
    let mut v = Vec::new();
    for (kind, &n) in budget.iter().enumerate().skip(1) {
        v.extend(std::iter::repeat_n(kind as Card, n as usize));
    }
    v
}

/// Steps `v` to the next distinct permutation in lexicographic order; `false` after the last.
/// Visiting from the sorted start gives every distinct arrangement of the multiset once.
pub fn next_permutation(v: &mut [Card]) -> bool {
    if v.len() < 2 {
        return false;
    }
    let mut i = v.len() - 1;
    while i > 0 && v[i - 1] >= v[i] {
        i -= 1;
    }
    if i == 0 {
        return false;
    }
    let mut j = v.len() - 1;
    while v[j] <= v[i - 1] {
        j -= 1;
    }
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

/// Fills player 1's hand for `tuple` with the face kinds `assignment` (in slot order) into `hand1`
/// (cleared first). `placed` puts a fixed piece at a position among the tuple's pieces; the result
/// is false when a piece before it is that same piece (the deck then belongs to an earlier
/// placement).
pub fn build_hand1(
    frame: &Frame,
    patterns: &[Pattern],
    tuple: &[u32],
    assignment: &[Card],
    placed: Option<(usize, &[Card])>,
    hand1: &mut Vec<Card>,
) -> bool {
    hand1.clear();
    let mut next_face = assignment.iter();
    let pieces = tuple.len() + usize::from(placed.is_some());
    let mut next_pattern = tuple.iter();
    let mut fresh = true;
    for i in 0..pieces {
        let start = hand1.len();
        match placed {
            Some((at, fixed)) if at == i => hand1.extend_from_slice(fixed),
            _ => {
                let pi = *next_pattern.next().expect("one pattern per free position");
                for &is_face in &patterns[pi as usize] {
                    hand1.push(if is_face {
                        *next_face.next().expect("assignment covers every face slot")
                    } else {
                        NUMBER
                    });
                }
                if let Some((at, fixed)) = placed
                    && i < at
                    && hand1[start..] == *fixed
                {
                    fresh = false;
                }
            }
        }
        hand1.push(frame.separator);
    }
    hand1.extend_from_slice(&frame.tail);
    fresh
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_permutation_counts_multiset_arrangements() {
        let mut v = vec![2, 2, 3, 3, 4, 4];
        let mut n = 1;
        while next_permutation(&mut v) {
            n += 1;
        }
        assert_eq!(n, 90); // 6! / (2! 2! 2!)
    }

    #[test]
    fn jack_frame_budget_and_tuples() {
        let frame = Frame::jack(DeckSpec::STANDARD);
        let budget = frame.budget(3).unwrap();
        assert_eq!(budget, [34, 0, 4, 4, 4]);
        // The 2024 deck's pieces: --K---A----AA, --, --------K---------Q-Q-K---Q-KKQ.
        let pieces: Vec<Vec<Card>> = ["--K---A----AA", "--", "--------K---------Q-Q-K---Q-KKQ"]
            .iter()
            .map(|s| crate::notation::parse_hand(s, crate::notation::Notation::Dash).unwrap())
            .collect();
        let pats = patterns(&pieces);
        let t = tuples(&pats, 3, &budget);
        assert_eq!(t.len(), 6); // the three pieces in every order
    }
}
