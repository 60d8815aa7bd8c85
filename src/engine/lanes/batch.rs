//! The random batch: games waiting for the lanes, each with a payload (the cards that name it),
//! played to the games' ends or a trick limit; only the games still going are handed back, in
//! the order they were pushed, for the exact cycle engine. Or numbered random deals, shuffled
//! while the lanes play.

use super::random::{self, Deals, LIMIT};
use super::shape::{self, Shape};
use crate::card::Card;
use crate::engine::{Finish, Game};

/// Games a batch holds: enough that the eight lanes rarely wait.
const BATCH: usize = 1024;

/// The batch: positions at a trick boundary, and each game's payload.
pub struct Batch {
    games: Vec<Game<u64>>,
    /// The payloads, end to end; `ends[i]` is where game `i`'s ends.
    items: Vec<Card>,
    ends: Vec<usize>,
    long: Vec<usize>,
    /// What the last run ran in.
    shape: Option<Shape>,
}

impl Batch {
    /// A batch when this processor has the lanes, else `None` (games are then played one by
    /// one by the caller).
    pub fn new() -> Option<Batch> {
        shape::available().then(|| Batch {
            games: Vec::with_capacity(BATCH),
            items: Vec::with_capacity(BATCH * 52),
            ends: Vec::with_capacity(BATCH),
            long: Vec::new(),
            shape: None,
        })
    }

    /// Adds a game; true when the batch is full and must be flushed.
    #[inline]
    pub fn push(&mut self, game: Game<u64>, item: &[Card]) -> bool {
        self.games.push(game);
        self.items.extend_from_slice(item);
        self.ends.push(self.items.len());
        self.games.len() == BATCH
    }

    /// Plays every waiting game and calls `long(game, payload)` for each one still going after
    /// `LIMIT` tricks, in the order they were pushed; then empties the batch.
    pub fn flush(&mut self, long: impl FnMut(&Game<u64>, &[Card])) {
        self.flush_all(|_, _| {}, long);
    }

    /// Plays the numbered deals `indices` in batches of this one (which must be empty):
    /// `deal(index)` gives a deal's position; `each(index, finish)` hears of every game, those
    /// that ended in no particular order, and [`Finish::TooLong`] for the ones the caller must
    /// finish with the cycle engine. (Random search of balanced deals; the other random deals take
    /// [`Batch::play_shuffled`].)
    pub fn play_deals(
        &mut self,
        indices: std::ops::Range<u64>,
        mut deal: impl FnMut(u64) -> Game<u64>,
        mut each: impl FnMut(u64, Finish),
    ) {
        let index_of = |b: &[Card]| u64::from_le_bytes(b.try_into().expect("an index payload"));
        let mut report = |batch: &mut Batch| {
            let mut long = Vec::new();
            batch.flush_all(|b, f| each(index_of(b), f), |_, b| long.push(index_of(b)));
            for index in long {
                each(index, Finish::TooLong);
            }
        };
        for index in indices {
            if self.push(deal(index), &index.to_le_bytes()) {
                report(self);
            }
        }
        report(self);
    }

    /// Plays the deals `indices` under `seed` of a deck in deal order (`deck`'s first `n`
    /// slots, the rest number cards), each shuffled by `deal::shuffle64` and dealt by
    /// [`Game::from_deal_order`], the shuffles made while the lanes play (`source::Dealer`);
    /// `each` as for [`Batch::play_deals`] (which gives the same reports for these deals). The
    /// batch is not used and stays empty.
    pub fn play_shuffled(
        &mut self,
        deck: &[Card; 64],
        n: usize,
        seed: u64,
        indices: std::ops::Range<u64>,
        mut each: impl FnMut(u64, Finish),
    ) {
        let lo = indices.start;
        let deals = Deals {
            deck: *deck,
            n,
            seed,
            range: indices,
        };
        self.long.clear();
        let long = &mut self.long;
        self.shape = Some(random::run_deals(deals, LIMIT, |i, f| {
            if f == Finish::TooLong {
                long.push(i);
            } else {
                each(lo + i as u64, f);
            }
        }));
        for &i in long.iter() {
            each(lo + i as u64, Finish::TooLong);
        }
    }

    /// What the last run of this batch ran in.
    pub fn shape(&self) -> Option<Shape> {
        self.shape
    }

    /// [`Batch::flush`] that also reports every game that ended, `ended(payload, finish)`, in no
    /// particular order (before the long ones).
    fn flush_all(
        &mut self,
        mut ended: impl FnMut(&[Card], Finish),
        mut long: impl FnMut(&Game<u64>, &[Card]),
    ) {
        let Batch {
            games,
            items,
            ends,
            long: slow,
            shape,
        } = self;
        let item = |i: usize| {
            let start = if i == 0 { 0 } else { ends[i - 1] };
            start..ends[i]
        };
        slow.clear();
        *shape = Some(random::run(games, LIMIT, |i, f| {
            if f == Finish::TooLong {
                slow.push(i);
            } else {
                ended(&items[item(i)], f);
            }
        }));
        slow.sort_unstable();
        for &i in slow.iter() {
            long(&games[i], &items[item(i)]);
        }
        games.clear();
        items.clear();
        ends.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::DeckSpec;
    use crate::engine::{Outcome, reference};
    use crate::position::Position;
    use crate::rng::SplitMix64;

    /// `play_deals` reports every deal once, under its own index, with the finish the reference
    /// engine gives it; the deals cross a batch boundary, so the payloads of later games in a
    /// batch are read back too.
    #[test]
    fn play_deals_reports_each_deal_as_the_reference_plays_it() {
        let Some(mut batch) = Batch::new() else {
            eprintln!("skipped: this processor has no lanes");
            return;
        };
        let cards = DeckSpec::STANDARD.cards();
        let position = |index: u64| {
            // Shuffled here, not by `deal` (which builds on the engine).
            let mut c = cards.clone();
            SplitMix64::for_index(11, index).shuffle(&mut c);
            let h2 = c.split_off(26);
            Position::new(c, h2, 0)
        };
        let n = BATCH as u64 * 2 + 37;
        let mut seen = vec![None; n as usize];
        batch.play_deals(
            0..n,
            |i| Game::from_position(&position(i)),
            |i, f| {
                assert!(seen[i as usize].replace(f).is_none(), "deal {i} twice");
            },
        );
        for (i, f) in seen.into_iter().enumerate() {
            let f = f.unwrap_or_else(|| panic!("deal {i} not reported"));
            match (reference::play(&position(i as u64)), f) {
                (_, Finish::TooLong) => {}
                (
                    Outcome::Terminates {
                        winner,
                        tricks,
                        cards,
                    },
                    f,
                ) => {
                    assert_eq!(
                        f,
                        Finish::Won {
                            winner,
                            tricks,
                            cards
                        },
                        "deal {i}"
                    )
                }
                (Outcome::Cycle(_), f) => panic!("deal {i} never ends, reported {f:?}"),
            }
        }
    }
}
