//! Every game of a run of seeded random two-player deals, one by one: its winner, tricks and cards
//! by deal index (the Python module's `random_games` arrays). The deals and the engines are those
//! of `search random` and `ansatz bench`: the 64-card lanes where the processor has them (the
//! dispatch picks the instruction set), the exact cycle engine for the games the lanes leave
//! going and for decks past 64 cards.

use crate::card::Card;
use crate::engine::Outcome;
use crate::engine::lanes::Batch;
use crate::search::random::{RandomConfig, lanes_range, play_dealt};

/// How one game went. A game that never ends has no winner; its tricks and cards count play until
/// a position first repeats, as `search random` and `play` count them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    /// 0 or 1; `None` for a cycle.
    pub winner: Option<u8>,
    pub tricks: u64,
    pub cards: u64,
}

/// A worker's reusable state: the lanes' batch (when the processor has them) and a deal's cards.
#[derive(Default)]
pub struct Scratch {
    batch: Option<Batch>,
    cards: Vec<Card>,
}

/// Plays deals `lo..hi` of `cfg` (two players: the caller checks) and calls `each(index, game)`
/// once for every one, in no particular order.
pub fn play_each(
    cfg: &RandomConfig,
    lo: u64,
    hi: u64,
    s: &mut Scratch,
    mut each: impl FnMut(u64, Game),
) {
    let n = cfg.deck.total();
    if n <= 64 && s.batch.is_none() {
        s.batch = Batch::new();
    }
    let Scratch { batch, cards } = s;
    let Some(batch) = batch.as_mut().filter(|_| n <= 64) else {
        for index in lo..hi {
            cfg.deal(index, cards);
            each(index, play_two(cards));
        }
        return;
    };
    // The lanes as `search random` runs them; the rare game past the lanes' trick limit is
    // dealt again for the exact engine.
    let long = lanes_range(cfg, lo, hi, cards, batch, |index, winner, tricks, cards| {
        each(
            index,
            Game {
                winner: Some(winner),
                tricks,
                cards,
            },
        )
    });
    for index in long {
        cfg.deal(index, cards);
        each(index, play_two(cards));
    }
}

/// A two-player deal (its cards in deal order, player 1 holding the extra card) played by the
/// cycle engine.
fn play_two(cards: &[Card]) -> Game {
    let outcome = play_dealt(cards);
    Game {
        winner: match outcome {
            Outcome::Terminates { winner, .. } => Some(winner),
            Outcome::Cycle(_) => None,
        },
        tricks: outcome.tricks(),
        cards: outcome.cards(),
    }
}
