//! Longer games grown backwards: from every position on a terminating game's path, play backwards
//! as deep as the tree goes and keep the balanced positions whose games run longest.
//!
//! Every position of that tree reaches the path, so its game length is known without playing it:
//! the tricks and cards back to the path plus what remains of the original game from there. Every
//! balanced position found is still replayed by the forward engine and must agree.

use std::time::Instant;

use rayon::prelude::*;
use thiserror::Error;

use super::closure::{self, Config, Node, Seed};
use super::compact::{COMPACT_MAX_CARDS, Compact};
use crate::engine::lanes::Batch;
use crate::engine::trick::Step;
use crate::engine::{CycleInfo, Finish, Outcome};
use crate::position::Position;

/// The longest known game: 1164 tricks and 8344 cards (Nessler, 2022; ansatz.md).
pub const RECORD_TRICKS: u64 = 1164;
pub const RECORD_CARDS: u64 = 8344;

/// Limits of an extension; `Default` gives the defaults documented on each field.
#[derive(Clone, Copy, Debug)]
pub struct ExtendConfig {
    /// How many games to report by cards and by tricks. Default 10.
    pub top: usize,
    /// Stop the backward search after this many positions. Default 20 million.
    pub max_positions: u64,
}

impl Default for ExtendConfig {
    fn default() -> Self {
        ExtendConfig {
            top: 10,
            max_positions: 20_000_000,
        }
    }
}

/// A terminating game, verified by the forward engine. `winner` is 0-based.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub position: Position,
    pub winner: u8,
    pub tricks: u64,
    pub cards: u64,
}

impl Game {
    /// Longer than the record, by cards or by tricks.
    pub fn beats_record(&self) -> bool {
        self.longer_than(RECORD_CARDS, RECORD_TRICKS)
    }

    /// More than `cards` cards or more than `tricks` tricks.
    pub fn longer_than(&self, cards: u64, tricks: u64) -> bool {
        self.cards > cards || self.tricks > tricks
    }
}

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ExtendError {
    #[error(
        "never ends (preperiod {}, period {}): nothing to extend; see `ansatz family`",
        .0.preperiod, .0.period
    )]
    Cycle(Box<CycleInfo>),
    #[error("position holds {0} cards; backward play handles at most {COMPACT_MAX_CARDS}")]
    TooManyCards(usize),
    /// The forward engine disagrees with the length the backward tree gave: a bug.
    #[error("internal error: {position} plays {got}, the backward tree said {expected}")]
    Unverified {
        position: String,
        expected: String,
        got: String,
    },
}

/// What an extension found.
#[derive(Clone, Debug)]
pub struct Extension {
    /// The game extended.
    pub game: Game,
    /// Positions on its path (the seeds of the backward search).
    pub path: u64,
    /// Positions of the backward tree, the path included.
    pub closure_size: u64,
    /// The most tricks any position of the tree stands before the path.
    pub max_depth: u64,
    /// Balanced positions in the tree, off the path.
    pub balanced: u64,
    /// The `top` longest balanced games by cards (then tricks), and by tricks (then cards).
    pub by_cards: Vec<Game>,
    pub by_tricks: Vec<Game>,
    /// False when `max_positions` stopped the search.
    pub complete: bool,
    pub seconds: f64,
}

/// Grows the terminating game from `pos` backwards; see the module documentation.
pub fn extend(
    pos: &Position,
    cfg: &ExtendConfig,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Extension, ExtendError> {
    if pos.total() > COMPACT_MAX_CARDS {
        return Err(ExtendError::TooManyCards(pos.total()));
    }
    let (winner, tricks, cards) = match crate::engine::play(pos) {
        Outcome::Cycle(info) => return Err(ExtendError::Cycle(Box::new(info))),
        Outcome::Terminates {
            winner,
            tricks,
            cards,
        } => (winner, tricks, cards),
    };
    let game = Game {
        position: pos.clone(),
        winner,
        tricks,
        cards,
    };
    let seeds = path_seeds(pos, tricks, cards);
    let start = Instant::now();
    let found = closure::closure(
        &seeds,
        &Config {
            max_positions: cfg.max_positions,
            seeds_balanced: false,
            visited_set: false,
        },
        progress,
    );
    // Every balanced position is replayed forward, in parallel, and must agree with the tree.
    verify_all(&found.balanced, winner)?;
    let mut by_cards: Vec<Node> = found.balanced.clone();
    by_cards.sort_unstable_by(|a, b| {
        (b.cards, b.tricks)
            .cmp(&(a.cards, a.tricks))
            .then(a.pos.key_cmp(&b.pos))
    });
    by_cards.truncate(cfg.top);
    let mut by_tricks = found.balanced.clone();
    by_tricks.sort_unstable_by(|a, b| {
        (b.tricks, b.cards)
            .cmp(&(a.tricks, a.cards))
            .then(a.pos.key_cmp(&b.pos))
    });
    by_tricks.truncate(cfg.top);
    let game_of = |n: &Node| Game {
        position: n.pos.to_position(),
        winner,
        tricks: n.tricks as u64,
        cards: n.cards as u64,
    };
    Ok(Extension {
        game,
        path: seeds.len() as u64,
        closure_size: found.size,
        max_depth: found.max_depth as u64,
        balanced: found.balanced.len() as u64,
        by_cards: by_cards.iter().map(game_of).collect(),
        by_tricks: by_tricks.iter().map(game_of).collect(),
        complete: found.complete,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The positions of the game from `pos` (which ends after `tricks` tricks and `cards` cards, at
/// most 64 cards), each with what remains of the game from it and its predecessor on the path.
pub fn path_seeds(pos: &Position, tricks: u64, cards: u64) -> Vec<Seed> {
    let mut state = crate::engine::Game::<u64>::from_position(pos);
    let mut seeds: Vec<Seed> = Vec::new();
    let mut played = 0u64;
    loop {
        let here = Compact::from_position(&state.to_position()).expect("checked size");
        seeds.push(Seed {
            node: Node {
                pos: here,
                tricks: (tricks - seeds.len() as u64) as u32,
                cards: (cards - played) as u32,
            },
            skip: seeds.last().map(|s| s.node.pos),
        });
        match state.trick() {
            Step::Next { cards: c } => played += u64::from(c),
            _ => return seeds,
        }
    }
}

/// Balanced positions replayed together: one batch of the lanes per chunk, chunks in parallel.
const VERIFY_CHUNK: usize = 4096;

/// Replays every node forward and checks the length the tree gave it: in the 64-card lanes where
/// the processor has them (the fastest exact path, issue 19), the rare game past their trick
/// limit, and every game on a processor without them, by the cycle engine. A disagreement is the
/// error of the first such node of its chunk.
fn verify_all(nodes: &[Node], winner: u8) -> Result<(), ExtendError> {
    nodes.par_chunks(VERIFY_CHUNK).try_for_each(|chunk| {
        let Some(mut batch) = Batch::new() else {
            return chunk.iter().try_for_each(|n| verified(n, winner));
        };
        let mut first_bad: Option<(usize, Finish)> = None;
        batch.play_deals(
            0..chunk.len() as u64,
            |i| {
                let n = &chunk[i as usize];
                crate::engine::Game::<u64>::from_hands(n.pos.hand(0), n.pos.hand(1), n.pos.to_move)
            },
            |i, f| {
                let i = i as usize;
                let ok = match f {
                    Finish::Won {
                        winner: w,
                        tricks,
                        cards,
                    } => (w, tricks, cards) == expected(&chunk[i], winner),
                    Finish::TooLong => verified(&chunk[i], winner).is_ok(),
                };
                if !ok && first_bad.is_none_or(|(b, _)| i < b) {
                    first_bad = Some((i, f));
                }
            },
        );
        match first_bad {
            None => Ok(()),
            Some((i, f)) => Err(unverified(
                &chunk[i],
                winner,
                format!("{f:?} (in the lanes)"),
            )),
        }
    })
}

/// The winner, tricks and cards the tree gave `n`.
fn expected(n: &Node, winner: u8) -> (u8, u64, u64) {
    (winner, n.tricks as u64, n.cards as u64)
}

fn unverified(n: &Node, winner: u8, got: String) -> ExtendError {
    let (winner, tricks, cards) = expected(n, winner);
    ExtendError::Unverified {
        position: n.pos.to_position().to_string(),
        expected: format!(
            "{:?}",
            Outcome::Terminates {
                winner,
                tricks,
                cards
            }
        ),
        got,
    }
}

/// Plays `n` forward with the cycle engine and checks the length the tree gave it.
fn verified(n: &Node, winner: u8) -> Result<(), ExtendError> {
    let got = crate::engine::cycle::play_state(&crate::engine::Game::<u64>::from_hands(
        n.pos.hand(0),
        n.pos.hand(1),
        n.pos.to_move,
    ));
    let (winner, tricks, cards) = expected(n, winner);
    if got
        != (Outcome::Terminates {
            winner,
            tricks,
            cards,
        })
    {
        return Err(unverified(n, winner, format!("{got:?}")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::Notation;

    /// Source: tests/data/record-game.txt (Nessler 2022, 1164 tricks): past the lanes' 256 tricks.
    const RECORD: &str = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A--- (1)";
    /// A 37-trick game (tests/backward.rs), all of whose tree stays within the lanes' limit.
    const SHORT: &str = "--K---Q----A-----J-----A-Q/--J---K----K---J-AQ--A-- (1)";

    /// Longer means more cards or more tricks than the record: equal to it on both is not
    /// longer, one more of either is.
    #[test]
    fn longer_than_the_record_needs_more_cards_or_more_tricks() {
        let game = |cards, tricks| Game {
            position: Position::parse(RECORD, Notation::Auto).unwrap(),
            winner: 0,
            tricks,
            cards,
        };
        assert!(!game(RECORD_CARDS, RECORD_TRICKS).beats_record());
        assert!(game(RECORD_CARDS + 1, RECORD_TRICKS).beats_record());
        assert!(game(RECORD_CARDS, RECORD_TRICKS + 1).beats_record());
        assert!(!game(RECORD_CARDS - 1, RECORD_TRICKS).beats_record());
    }

    /// The balanced nodes of `text`'s backward tree (at most `max` positions) and its winner.
    fn tree(text: &str, max: u64) -> (Vec<Node>, u8) {
        let pos = Position::parse(text, Notation::Auto).unwrap();
        let Outcome::Terminates {
            winner,
            tricks,
            cards,
        } = crate::engine::play(&pos)
        else {
            panic!("{text} ends");
        };
        let cfg = Config {
            max_positions: max,
            seeds_balanced: false,
            visited_set: false,
        };
        let found = closure::closure(&path_seeds(&pos, tricks, cards), &cfg, &|_| {});
        (found.balanced, winner)
    }

    #[test]
    fn the_lanes_verify_what_the_cycle_engine_verifies_and_catch_a_wrong_length() {
        for (text, least, long) in [(SHORT, 154, false), (RECORD, 1791, true)] {
            let (nodes, winner) = tree(text, 1_000_000);
            assert_eq!(
                nodes.len(),
                least,
                "{text}: the whole tree's balanced nodes"
            );
            // Repeated to fill more than one chunk.
            let nodes = nodes.repeat(VERIFY_CHUNK / least + 2);
            assert_eq!(nodes.iter().any(|n| n.tricks > 256), long);
            assert!(nodes.iter().all(|n| verified(n, winner).is_ok()));
            assert_eq!(verify_all(&nodes, winner), Ok(()));
            // A wrong length, in a lane's game and (for the record) in one past the lanes' limit.
            let mut wrong = vec![nodes.len() / 2 + 1];
            wrong.extend(nodes.iter().position(|n| n.tricks > 256));
            for i in wrong {
                for tamper in [|n: &mut Node| n.tricks += 1, |n: &mut Node| n.cards -= 1] {
                    let mut bad = nodes.clone();
                    tamper(&mut bad[i]);
                    let Err(ExtendError::Unverified { position, .. }) = verify_all(&bad, winner)
                    else {
                        panic!("{text}: node {i} tampered and not caught");
                    };
                    assert_eq!(position, bad[i].pos.to_position().to_string());
                    assert!(verified(&bad[i], winner).is_err());
                }
            }
            let other = 1 - winner;
            assert!(
                verify_all(&nodes, other).is_err(),
                "{text}: the wrong winner"
            );
        }
    }
}
