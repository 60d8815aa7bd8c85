//! Backward play as plainly as rules.md reads: the oracle the fast predecessors (`predecessors.rs`)
//! and the parallel closure (`closure.rs`) are tested against, and the path for positions too large
//! for [`super::Compact`].

use std::collections::{HashSet, VecDeque};

use crate::card::{Card, NUMBER};
use crate::engine::reference::{Trick, trick};
use crate::position::Position;

/// Replays the rules over `pile` with `leader` playing first and every player always holding the
/// next pile card. Returns who played each card and the trick's winner when the trick ends exactly
/// at the pile's last card; `None` when it ends earlier or is still open after it.
pub fn replay(pile: &[Card], leader: usize) -> Option<(Vec<usize>, usize)> {
    let mut owner = Vec::with_capacity(pile.len());
    let mut cards = pile.iter();
    let mut player = leader;
    let mut debt = NUMBER;
    let mut last_penalty = leader;
    while debt == NUMBER {
        let &card = cards.next()?;
        owner.push(player);
        if card != NUMBER {
            debt = card;
            last_penalty = player;
        }
        player ^= 1;
    }
    let mut paid = 0;
    while paid < debt {
        let &card = cards.next()?;
        owner.push(player);
        paid += 1;
        if card != NUMBER {
            debt = card;
            paid = 0;
            last_penalty = player;
            player ^= 1;
        }
    }
    (owner.len() == pile.len()).then_some((owner, last_penalty))
}

/// Every predecessor of `pos`: for every suffix of the winner's hand and both leaders, replay the
/// rules; keep the candidates that end exactly at the suffix's end with the winner's penalty card,
/// and (belt and braces) whose forward trick gives `pos` back. Ordered by pile length, then leader.
pub fn predecessors(pos: &Position) -> Vec<Position> {
    let w = pos.to_move as usize;
    let hw = &pos.hands[w];
    let mut out = Vec::new();
    for len in 1..=hw.len() {
        let split = hw.len() - len;
        let pile = &hw[split..];
        for leader in 0..2 {
            let Some((owner, winner)) = replay(pile, leader) else {
                continue;
            };
            if winner != w {
                continue;
            }
            let mut hands: [Vec<Card>; 2] = [Vec::new(), Vec::new()];
            for (&c, &o) in pile.iter().zip(&owner) {
                hands[o].push(c);
            }
            hands[w].extend_from_slice(&hw[..split]);
            hands[w ^ 1].extend_from_slice(&pos.hands[w ^ 1]);
            let cand = Position {
                hands,
                to_move: leader as u8,
            };
            if matches!(trick(&cand), Trick::Next { ref next, .. } if next == pos) {
                out.push(cand);
            }
        }
    }
    out
}

/// What [`closure`] finds: the size, the deepest level, and every balanced position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReferenceClosure {
    pub size: u64,
    pub max_depth: u64,
    /// Balanced positions as strings, sorted.
    pub balanced: Vec<String>,
    /// The most cards the smaller hand holds in any position found.
    pub reach: u8,
}

/// Breadth-first search over predecessors from `seeds` with a visited set of whole positions:
/// the backward closure, counting the seeds. Balanced positions come sorted by their strings.
pub fn closure(seeds: &[Position]) -> ReferenceClosure {
    let mut seen: HashSet<Position> = seeds.iter().cloned().collect();
    let mut queue: VecDeque<(Position, u64)> = seen.iter().map(|p| (p.clone(), 0)).collect();
    let mut max_depth = 0;
    let mut balanced = Vec::new();
    let mut reach = 0;
    while let Some((p, d)) = queue.pop_front() {
        max_depth = max_depth.max(d);
        reach = reach.max(p.hands[0].len().min(p.hands[1].len()) as u8);
        if p.is_balanced() {
            balanced.push(p.to_string());
        }
        for q in predecessors(&p) {
            if seen.insert(q.clone()) {
                queue.push_back((q, d + 1));
            }
        }
    }
    balanced.sort();
    ReferenceClosure {
        size: seen.len() as u64,
        max_depth,
        balanced,
        reach,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Who played each card of a pile, by hand from rules.md: player 1 leads a Jack, player 2
    /// answers with a Queen, player 1 with a King, and player 2 pays three number cards: player 1
    /// takes it. Each face card in a payment passes the turn back to the other player.
    #[test]
    fn replay_gives_each_card_its_player() {
        assert_eq!(
            replay(&[1, 2, 3, 0, 0, 0], 0),
            Some((vec![0, 1, 0, 1, 1, 1], 0))
        );
        assert_eq!(replay(&[0, 0, 2, 0, 0], 1), Some((vec![1, 0, 1, 0, 0], 1)));
        // The trick ends before the pile's last card, or is still open after it.
        assert_eq!(replay(&[1, 0, 0], 0), None);
        assert_eq!(replay(&[1, 2, 0], 0), None);
    }
}
