//! Pieces: their classes (chains of one add, remove or swap, the operators of `mutate.rs`), class
//! representatives, and the facts a library records about each piece.

use std::collections::HashMap;

use rayon::prelude::*;

use crate::card::{Card, KINDS};
use crate::engine::Outcome;

use super::mutate::shrink_and_swap_neighbours;
use super::template::Template;

pub use crate::card::rep_order;

/// The class of each piece: two pieces share a class when a chain of single adds, removes or swaps
/// (over `alphabet`) through pieces of the set links them. Classes are numbered from 0 in the order
/// of their representatives (the [`rep_order`]-smallest member).
pub fn classes(pieces: &[Vec<Card>], alphabet: &[Card]) -> Vec<u32> {
    let index: HashMap<&[Card], usize> = pieces
        .iter()
        .enumerate()
        .map(|(i, p)| (p.as_slice(), i))
        .collect();
    let mut parent: Vec<usize> = (0..pieces.len()).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let links: Vec<(usize, usize)> = pieces
        .par_iter()
        .enumerate()
        .flat_map_iter(|(i, p)| {
            shrink_and_swap_neighbours(p, alphabet)
                .into_iter()
                .filter_map(|q| index.get(q.as_slice()).map(|&j| (i, j)))
                .collect::<Vec<_>>()
        })
        .collect();
    for (i, j) in links {
        let (a, b) = (find(&mut parent, i), find(&mut parent, j));
        if a != b {
            // Keep the representative-order smallest member as the root.
            if rep_order(&pieces[a], &pieces[b]).is_le() {
                parent[b] = a;
            } else {
                parent[a] = b;
            }
        }
    }
    let roots: Vec<usize> = (0..pieces.len()).map(|i| find(&mut parent, i)).collect();
    let mut reps: Vec<usize> = roots.clone();
    reps.sort_unstable_by(|&a, &b| rep_order(&pieces[a], &pieces[b]));
    reps.dedup();
    let id: HashMap<usize, u32> = reps
        .iter()
        .enumerate()
        .map(|(k, &r)| (r, k as u32))
        .collect();
    roots.iter().map(|r| id[r]).collect()
}

/// What a library records about one piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceFacts {
    pub sequence: Vec<Card>,
    pub class: u32,
    /// Cards of each kind, by penalty.
    pub counts: [u32; KINDS],
    /// Preperiod and period (tricks) of the template game; `None` when it ends (possible only for
    /// imported sequences that are not pieces of this template).
    pub preperiod: Option<u64>,
    pub period: Option<u64>,
}

/// The most cards the other hand (the one without TEST) holds at the start of any trick of the
/// template game's cycle with `piece` as TEST; `None` when that game ends. The 2024 long piece
/// is an *accumulator*: in its cycle player 2's `J-` grows to 22 cards, and only from there does
/// backward play reach a 26/26 deal, so a large value marks a piece worth assembling for balance.
pub fn accumulation(template: &Template, piece: &[Card]) -> Option<u8> {
    let Outcome::Cycle(info) = crate::engine::play(&template.fill(piece)) else {
        return None;
    };
    let other = 1 - template.test_hand as usize;
    crate::backward::family::cycle_positions(&info)
        .iter()
        .map(|p| p.hand(other).len() as u8)
        .max()
}

/// Sorts pieces in representative order, plays each template game once for its period, and
/// assigns classes.
pub fn describe(template: &Template, mut pieces: Vec<Vec<Card>>) -> Vec<PieceFacts> {
    pieces.sort_unstable_by(|a, b| rep_order(a, b));
    pieces.dedup();
    let class = classes(&pieces, &template.alphabet());
    pieces
        .into_par_iter()
        .zip(class)
        .map(|(sequence, class)| {
            let (preperiod, period) = match crate::engine::play(&template.fill(&sequence)) {
                Outcome::Cycle(c) => (Some(c.preperiod), Some(c.period)),
                Outcome::Terminates { .. } => (None, None),
            };
            let mut counts = [0u32; KINDS];
            for &c in &sequence {
                counts[c as usize] += 1;
            }
            PieceFacts {
                sequence,
                class,
                counts,
                preperiod,
                period,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{Notation, parse_hand};

    fn dash(s: &str) -> Vec<Card> {
        parse_hand(s, Notation::Dash).unwrap()
    }

    #[test]
    fn the_2024_long_piece_accumulates() {
        // Source: tests/data/pieces-2024.txt (arXiv:2403.13855, Appendix C), the long piece with one King as an Ace as in the
        // 2024 deck; `ansatz play --trace` on its template game shows player 2 with 22 cards.
        let t = Template::jack();
        assert_eq!(
            accumulation(&t, &dash("--------K---------Q-Q-K---Q-KAQ")),
            Some(22)
        );
        // A short published piece keeps player 2 small; a sequence that is no piece has no cycle.
        assert!(accumulation(&t, &dash("--")).unwrap() <= 12);
        assert_eq!(accumulation(&t, &dash("Q")), None);
    }
}
