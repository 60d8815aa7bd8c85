//! The reference engine: VecDeque hands and a HashMap of seen positions, written as the rules read.
//! It is slow on purpose and is the oracle the fast engine and backward play are tested against.

use std::collections::{HashMap, VecDeque};

use super::{CycleInfo, Outcome};
use crate::card::{Card, NUMBER};
use crate::position::Position;

/// The result of one trick from a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trick {
    /// The trick was taken; the game goes on from `next`.
    Next { next: Position, cards: u64 },
    /// The game ended in this trick (or before it, when a hand was already empty).
    End { winner: u8, cards: u64 },
}

/// Plays one trick from `pos`, as rules.md "One trick" and "The end of a game" describe.
pub fn trick(pos: &Position) -> Trick {
    let mut hands: [VecDeque<Card>; 2] = [
        pos.hands[0].iter().copied().collect(),
        pos.hands[1].iter().copied().collect(),
    ];
    // A position with an empty hand is already over: that player lost right after the last trick.
    if let Some(p) = hands.iter().position(VecDeque::is_empty) {
        return Trick::End {
            winner: 1 - p as u8,
            cards: 0,
        };
    }
    let mut pile: Vec<Card> = Vec::new();
    let mut player = pos.to_move as usize;
    // Phase 1: alternate one card each until a penalty card is played.
    let mut debt: Card = NUMBER;
    let mut last_penalty_player = player;
    while debt == NUMBER {
        let Some(card) = hands[player].pop_front() else {
            return Trick::End {
                winner: 1 - player as u8,
                cards: pile.len() as u64,
            };
        };
        pile.push(card);
        if card != NUMBER {
            debt = card;
            last_penalty_player = player;
        }
        player = 1 - player;
    }
    // Phase 2: `player` pays `debt` cards; a penalty card among them swaps the roles.
    let mut paid = 0;
    while paid < debt {
        let Some(card) = hands[player].pop_front() else {
            return Trick::End {
                winner: 1 - player as u8,
                cards: pile.len() as u64,
            };
        };
        pile.push(card);
        paid += 1;
        if card != NUMBER {
            debt = card;
            paid = 0;
            last_penalty_player = player;
            player = 1 - player;
        }
    }
    let winner = last_penalty_player;
    hands[winner].extend(pile.iter().copied());
    let cards = pile.len() as u64;
    if hands[1 - winner].is_empty() {
        return Trick::End {
            winner: winner as u8,
            cards,
        };
    }
    Trick::Next {
        next: Position::new(
            hands[0].iter().copied().collect(),
            hands[1].iter().copied().collect(),
            winner as u8,
        ),
        cards,
    }
}

/// Plays `pos` to its end or to the first repeated position, remembering every position seen.
pub fn play(pos: &Position) -> Outcome {
    let mut seen: HashMap<Position, u64> = HashMap::new();
    let mut history: Vec<Position> = Vec::new();
    // cards_at[t] = cards played before the position at trick boundary t.
    let mut cards_at: Vec<u64> = vec![0];
    let mut current = pos.clone();
    loop {
        let t = history.len() as u64;
        if let Some(&s) = seen.get(&current) {
            let cycle_id = history[s as usize..]
                .iter()
                .min_by(|a, b| a.key_cmp(b))
                .expect("a cycle has at least one position")
                .clone();
            return Outcome::Cycle(CycleInfo {
                preperiod: s,
                period: t - s,
                tricks: t,
                cards: cards_at[t as usize],
                cycle_cards: cards_at[t as usize] - cards_at[s as usize],
                cycle_id,
            });
        }
        seen.insert(current.clone(), t);
        history.push(current.clone());
        match trick(&current) {
            Trick::Next { next, cards } => {
                cards_at.push(cards_at[t as usize] + cards);
                current = next;
            }
            Trick::End { winner, cards } => {
                return Outcome::Terminates {
                    winner,
                    tricks: t + u64::from(cards > 0),
                    cards: cards_at[t as usize] + cards,
                };
            }
        }
    }
}
