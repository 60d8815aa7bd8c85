//! Games of two or more players (`docs/multiplayer-rules.md`): their position type (the
//! two-player form of `game.rs` has two hands by construction), their trick, a plain reference
//! engine (VecDeque + HashMap of seen positions, the oracle) and a player that detects cycles with
//! the one Brent loop of `cycle.rs` and reuses its buffers. With two players both agree with
//! `reference.rs`.

use std::collections::{HashMap, VecDeque};
use std::fmt;

use super::cycle::{self, Run, Tricks};
use super::trick::Step;
use crate::card::{Card, NUMBER};
use crate::notation::Dash;

/// Every hand (top card first) and the player to move (0-based). A hand that is empty at a trick
/// boundary belongs to a player who has dropped out.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MultiPosition {
    pub hands: Vec<Vec<Card>>,
    pub to_move: u8,
}

impl MultiPosition {
    /// Deals `cards` (in order) to `players` hands, as equally as possible: the first
    /// `len % players` players get one card more. Player 1 moves first.
    pub fn deal(cards: &[Card], players: usize) -> MultiPosition {
        debug_assert!(players >= 2);
        let n = cards.len();
        let mut hands = Vec::with_capacity(players);
        let mut at = 0;
        for p in 0..players {
            let size = n / players + usize::from(p < n % players);
            hands.push(cards[at..at + size].to_vec());
            at += size;
        }
        MultiPosition { hands, to_move: 0 }
    }

    /// The fixed total order of cycle ids: all cards concatenated, then the hand sizes, then the
    /// player to move (for two players, the order of `Position::key_cmp`).
    pub fn key_cmp(&self, other: &MultiPosition) -> std::cmp::Ordering {
        let a = self.hands.iter().flatten();
        let b = other.hands.iter().flatten();
        a.cmp(b)
            .then_with(|| {
                let la = self.hands.iter().map(Vec::len);
                let lb = other.hands.iter().map(Vec::len);
                la.cmp(lb)
            })
            .then(self.to_move.cmp(&other.to_move))
    }
}

impl fmt::Display for MultiPosition {
    /// `H1/H2/.../HP (n)` in dash notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, h) in self.hands.iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            write!(f, "{}", Dash(h))?;
        }
        write!(f, " ({})", self.to_move + 1)
    }
}

/// How a game of P players ends. Counting as in `rules.md`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MultiOutcome {
    Terminates {
        winner: u8,
        tricks: u64,
        cards: u64,
    },
    Cycle {
        preperiod: u64,
        period: u64,
        tricks: u64,
        cards: u64,
        cycle_cards: u64,
        cycle_id: MultiPosition,
    },
}

impl MultiOutcome {
    pub fn tricks(&self) -> u64 {
        match self {
            MultiOutcome::Terminates { tricks, .. } | MultiOutcome::Cycle { tricks, .. } => *tricks,
        }
    }
    pub fn cards(&self) -> u64 {
        match self {
            MultiOutcome::Terminates { cards, .. } | MultiOutcome::Cycle { cards, .. } => *cards,
        }
    }
}

/// Hands as queues, played in place by [`trick_in_place`].
type Hands = Vec<VecDeque<Card>>;

/// The next player after `p` in rotation who has not dropped out in this trick.
fn next_in(out: &[bool], p: usize) -> usize {
    let n = out.len();
    let mut q = (p + 1) % n;
    while out[q] {
        q = (q + 1) % n;
    }
    q
}

/// Plays one trick on `hands` (rules in docs/multiplayer-rules.md). `pile` is scratch (cleared here,
/// capacity kept). On `End` the hands are left mid-trick. `out` is scratch of one flag per player.
pub fn trick_in_place(
    hands: &mut Hands,
    to_move: &mut u8,
    pile: &mut Vec<Card>,
    out: &mut Vec<bool>,
) -> Step {
    let players = hands.len();
    out.clear();
    out.extend(hands.iter().map(VecDeque::is_empty));
    let mut alive = out.iter().filter(|&&o| !o).count();
    if alive <= 1 {
        let winner = out.iter().position(|&o| !o).unwrap_or(0) as u8;
        return Step::End { winner, cards: 0 };
    }
    pile.clear();
    let mut player = *to_move as usize;
    debug_assert!(player < players && !out[player]);
    // Lead phase: one card each in rotation until a penalty card appears. A player who must play and
    // has no card drops out; the turn passes on.
    let mut debt: Card = NUMBER;
    let mut creditor = player;
    while debt == NUMBER {
        match hands[player].pop_front() {
            None => {
                out[player] = true;
                alive -= 1;
                if alive == 1 {
                    let winner = out.iter().position(|&o| !o).unwrap() as u8;
                    return Step::End {
                        winner,
                        cards: pile.len() as u32,
                    };
                }
            }
            Some(card) => {
                pile.push(card);
                if card != NUMBER {
                    debt = card;
                    creditor = player;
                }
            }
        }
        player = next_in(out, player);
    }
    // Payment: the next player after the creditor pays; one who runs out drops out and the rest of
    // the debt passes on; a penalty card makes its player the creditor, and the next player pays.
    let mut payer = next_in(out, creditor);
    let mut paid: Card = 0;
    while paid < debt {
        if payer == creditor {
            // Everyone else has dropped out.
            return Step::End {
                winner: creditor as u8,
                cards: pile.len() as u32,
            };
        }
        match hands[payer].pop_front() {
            None => {
                out[payer] = true;
                payer = next_in(out, payer);
            }
            Some(card) => {
                pile.push(card);
                paid += 1;
                if card != NUMBER {
                    debt = card;
                    paid = 0;
                    creditor = payer;
                    payer = next_in(out, payer);
                }
            }
        }
    }
    hands[creditor].extend(pile.iter().copied());
    *to_move = creditor as u8;
    let cards = pile.len() as u32;
    if hands
        .iter()
        .enumerate()
        .all(|(p, h)| p == creditor || h.is_empty())
    {
        return Step::End {
            winner: creditor as u8,
            cards,
        };
    }
    Step::Next { cards }
}

fn hands_of(pos: &MultiPosition) -> Hands {
    pos.hands
        .iter()
        .map(|h| h.iter().copied().collect())
        .collect()
}

fn position_of(hands: &Hands, to_move: u8) -> MultiPosition {
    MultiPosition {
        hands: hands.iter().map(|h| h.iter().copied().collect()).collect(),
        to_move,
    }
}

/// The reference: remembers every position at trick boundaries in a HashMap. Slow and plain.
pub fn reference_play(pos: &MultiPosition) -> MultiOutcome {
    let mut seen: HashMap<MultiPosition, u64> = HashMap::new();
    let mut history: Vec<MultiPosition> = Vec::new();
    let mut cards_at: Vec<u64> = vec![0];
    let mut hands = hands_of(pos);
    let mut to_move = pos.to_move;
    let (mut pile, mut out) = (Vec::new(), Vec::new());
    loop {
        let t = history.len() as u64;
        let current = position_of(&hands, to_move);
        if let Some(&s) = seen.get(&current) {
            let cycle_id = history[s as usize..]
                .iter()
                .min_by(|a, b| a.key_cmp(b))
                .expect("a cycle has a position")
                .clone();
            return MultiOutcome::Cycle {
                preperiod: s,
                period: t - s,
                tricks: t,
                cards: cards_at[t as usize],
                cycle_cards: cards_at[t as usize] - cards_at[s as usize],
                cycle_id,
            };
        }
        seen.insert(current.clone(), t);
        history.push(current);
        match trick_in_place(&mut hands, &mut to_move, &mut pile, &mut out) {
            Step::Next { cards } => cards_at.push(cards_at[t as usize] + u64::from(cards)),
            Step::End { winner, cards } => {
                return MultiOutcome::Terminates {
                    winner,
                    tricks: t + u64::from(cards > 0),
                    cards: cards_at[t as usize] + u64::from(cards),
                };
            }
            Step::Unread => unreachable!("every card is known"),
        }
    }
}

/// Reusable buffers of [`play`]: cleared before use, capacity kept.
#[derive(Default)]
pub struct Scratch {
    pile: Vec<Card>,
    out: Vec<bool>,
}

/// A game state for [`play`]: hands and the player to move.
#[derive(Clone, PartialEq, Eq)]
struct St {
    hands: Hands,
    to_move: u8,
}

impl Tricks for St {
    type Scratch = Scratch;
    fn play_trick(&mut self, s: &mut Scratch) -> Step {
        trick_in_place(&mut self.hands, &mut self.to_move, &mut s.pile, &mut s.out)
    }
    /// [`MultiPosition::key_cmp`]'s order, on the queues.
    fn key_cmp(&self, other: &St) -> std::cmp::Ordering {
        let (a, b) = (self.hands.iter().flatten(), other.hands.iter().flatten());
        a.cmp(b)
            .then_with(|| {
                let la = self.hands.iter().map(VecDeque::len);
                let lb = other.hands.iter().map(VecDeque::len);
                la.cmp(lb)
            })
            .then(self.to_move.cmp(&other.to_move))
    }
}

/// Plays a game of any number of players: Brent's cycle detection (`cycle.rs`) compares whole
/// positions, so it is exact, and it stores no history. Agrees with [`reference_play`].
pub fn play(pos: &MultiPosition, scratch: &mut Scratch) -> MultiOutcome {
    let start = St {
        hands: hands_of(pos),
        to_move: pos.to_move,
    };
    match cycle::run(&start, scratch) {
        Run::Ends {
            winner,
            tricks,
            cards,
        } => MultiOutcome::Terminates {
            winner,
            tricks,
            cards,
        },
        Run::Cycle(f) => MultiOutcome::Cycle {
            preperiod: f.preperiod,
            period: f.period,
            tricks: f.preperiod + f.period,
            cards: f.cards,
            cycle_cards: f.cycle_cards,
            cycle_id: position_of(&f.least.hands, f.least.to_move),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deal_splits_as_equally_as_possible() {
        let p = MultiPosition::deal(&[0, 1, 2, 3, 4, 0, 0], 3);
        assert_eq!(p.hands, vec![vec![0, 1, 2], vec![3, 4], vec![0, 0]]);
        assert_eq!(p.to_string(), "-JQ/KA/-- (1)");
    }

    #[test]
    fn the_last_player_left_in_the_lead_phase_wins() {
        // Three number cards go down in turn; then players 1 and 2 must lead and have no card,
        // so they drop out one after the other, and player 3 wins with the three cards on the
        // pile (its King never played).
        let p = MultiPosition {
            hands: vec![vec![0], vec![0], vec![0, 0, 3]],
            to_move: 0,
        };
        let mut hands = hands_of(&p);
        let mut to_move = 0;
        let step = trick_in_place(&mut hands, &mut to_move, &mut Vec::new(), &mut Vec::new());
        assert_eq!(
            step,
            Step::End {
                winner: 2,
                cards: 3
            }
        );
    }

    /// A three-player cycle (deal 37 of `ansatz search random --deck 8-2J2Q2K --players 3
    /// --games 200000 --seed 1`): its tricks are its preperiod and one period (where the repeat
    /// is seen) and its cards those played by then, as the reference player counts them.
    #[test]
    fn a_three_player_cycle_counts_its_preperiod_and_one_period() {
        let p = MultiPosition {
            hands: vec![vec![1, 3, 0, 2, 0], vec![0, 2, 0, 3, 0], vec![0, 1, 0, 0]],
            to_move: 0,
        };
        assert_eq!(p.to_string(), "JK-Q-/-Q-K-/-J-- (1)");
        let want = reference_play(&p);
        let MultiOutcome::Cycle {
            preperiod,
            period,
            tricks,
            cards,
            cycle_cards,
            ..
        } = &want
        else {
            panic!("{want:?}")
        };
        assert_eq!(
            (*preperiod, *period, *tricks, *cards, *cycle_cards),
            (3, 10, 13, 86, 70)
        );
        assert_eq!(play(&p, &mut Scratch::default()), want);
    }

    #[test]
    fn debt_passes_to_the_next_player() {
        // Player 1 leads a King; player 2 pays one card and runs out; player 3 pays the other two.
        // Player 1 takes K - - - and player 2 has dropped out.
        let p = MultiPosition {
            hands: vec![vec![3, 0], vec![0], vec![0, 0, 0]],
            to_move: 0,
        };
        let mut hands = hands_of(&p);
        let mut to_move = 0;
        let step = trick_in_place(&mut hands, &mut to_move, &mut Vec::new(), &mut Vec::new());
        assert_eq!(step, Step::Next { cards: 4 });
        assert_eq!(position_of(&hands, to_move).to_string(), "-K---//- (1)");
    }
}
