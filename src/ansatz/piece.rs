//! Pieces: their classes (chains of one add, remove or swap, the operators of `mutate.rs`), class
//! representatives, and the facts a library records about each piece.

use std::collections::HashMap;

use rayon::prelude::*;

use crate::card::{Card, KINDS};
use crate::engine::Outcome;

use super::mutate::shrink_and_swap_neighbours;
use super::template::Template;

/// Orders sequences as class representatives are chosen: shorter first, then lexicographically by
/// penalty (number < J < Q < K < A).
pub fn rep_order(a: &[Card], b: &[Card]) -> std::cmp::Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

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
