//! The reference engine: VecDeque hands and a HashMap of seen positions, written as the rules read.
//! It is slow on purpose and is the oracle the fast engine and backward play are tested against.

use std::collections::{HashMap, VecDeque};

use super::{CycleInfo, Finish, Outcome};
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

/// Plays on from any move boundary, one card at a time, as the rules read, until the game ends
/// or has played `limit` tricks: `hands` top first, `pile` the cards of the trick in progress
/// (first played first), `next` the player to play and `debt` what they owe (0 in the lead
/// phase). The oracle of the lanes, which take games in the middle of a trick too (`play` starts
/// only at trick boundaries); the trick in progress counts as a trick when it is taken.
pub fn play_on(hands: [&[Card]; 2], pile: &[Card], next: u8, debt: u8, limit: u64) -> Finish {
    let mut hands: [VecDeque<Card>; 2] = hands.map(|h| h.iter().copied().collect());
    let mut pile: Vec<Card> = pile.to_vec();
    let (mut player, mut debt) = (next as usize & 1, debt);
    if pile.is_empty()
        && debt == 0
        && let Some(p) = hands.iter().position(VecDeque::is_empty)
    {
        return Finish::Won {
            winner: 1 - p as u8,
            tricks: 0,
            cards: 0,
        };
    }
    let (mut tricks, mut cards) = (0u64, 0u64);
    loop {
        let other = 1 - player;
        let Some(card) = hands[player].pop_front() else {
            // A player who must play and has no card loses; an unfinished pile is a last trick.
            return Finish::Won {
                winner: other as u8,
                tricks: tricks + u64::from(!pile.is_empty()),
                cards: cards + pile.len() as u64,
            };
        };
        pile.push(card);
        if card != NUMBER {
            debt = card;
            player = other;
        } else if debt == 0 {
            player = other;
        } else {
            debt -= 1;
            if debt == 0 {
                // Paid in full with number cards: the other player takes the pile and leads.
                tricks += 1;
                cards += pile.len() as u64;
                hands[other].extend(pile.drain(..));
                player = other;
                if hands[1 - other].is_empty() {
                    return Finish::Won {
                        winner: other as u8,
                        tricks,
                        cards,
                    };
                }
                if tricks >= limit {
                    return Finish::TooLong;
                }
            }
        }
    }
}

/// Checks a lane's finish `f` of position `p` against the reference engine's outcome `want`:
/// the same winner, tricks and cards, or a game left going after `limit` tricks that the
/// reference engine plays that long (or forever).
#[cfg(test)]
pub(crate) fn agrees(p: &Position, want: &Outcome, f: Finish, limit: u64) {
    match (want, f) {
        (
            &Outcome::Terminates {
                winner,
                tricks,
                cards,
            },
            Finish::Won {
                winner: w,
                tricks: t,
                cards: c,
            },
        ) => assert_eq!((winner, tricks, cards), (w, t, c), "{p}"),
        (&Outcome::Terminates { tricks, .. }, Finish::TooLong) => {
            assert!(tricks >= limit, "{p}")
        }
        (Outcome::Cycle(_), Finish::TooLong) => {}
        (want, got) => panic!("{p}: {want:?} vs {got:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::game::random_positions;

    /// From trick boundaries, playing on agrees with playing: the same end, or a game still
    /// going at the limit that `play` plays at least that long (or forever).
    #[test]
    fn playing_on_from_a_boundary_is_playing() {
        for p in random_positions(17, 5_000, 64) {
            let on = play_on([&p.hands[0], &p.hands[1]], &[], p.to_move, 0, 1000);
            agrees(&p, &play(&p), on, 1000);
        }
    }

    /// In the middle of a trick: playing on from the position after each card of a trick's
    /// first cards agrees with playing the whole trick (the end of the trick is the same
    /// position, its cards counted from the pile).
    #[test]
    fn playing_on_mid_trick_is_the_rest_of_the_trick() {
        let p = Position::new(vec![0, 0, 3, 0, 0], vec![0, 0, 0, 0, 0, 1], 0);
        // Player 1 plays -, player 2 -, player 1 -, player 2 -, player 1 K; player 2 pays -, -, -.
        let whole = play_on([&p.hands[0], &p.hands[1]], &[], 0, 0, 1000);
        let mid = play_on([&[3, 0, 0], &[0, 0, 0, 1]], &[0, 0, 0, 0], 0, 0, 1000);
        let paying = play_on([&[0, 0], &[0, 0, 1]], &[0, 0, 0, 0, 3, 0], 1, 2, 1000);
        agrees(&p, &play(&p), whole, 1000);
        assert!(matches!(whole, Finish::Won { .. }));
        assert_eq!(mid, whole);
        assert_eq!(paying, whole);
        assert_eq!(
            play_on([&p.hands[0], &p.hands[1]], &[], 0, 0, 1),
            Finish::TooLong
        );
    }
}
