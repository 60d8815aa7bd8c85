//! `ansatz bench`: plays seeded, uniformly shuffled standard 26/26 deals with the fast engine and the
//! exact cycle test, and measures the rate.

use std::time::Instant;

use rayon::prelude::*;

use crate::deal::{STANDARD64, random_standard_cards};
use crate::engine::cycle::play_state;
use crate::engine::lanes::{Batch, Shape};
use crate::engine::{Finish, Game, Outcome, reference};

pub use crate::deal::CHUNK;

/// Which engine plays the deals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// The scalar engine: one game at a time in bit planes (`engine::game`, `engine::trick`),
    /// what every single game plays.
    #[default]
    Bits,
    /// The VecDeque + HashMap oracle.
    Reference,
    /// The lanes (`engine::lanes`): sixteen standard deals at a time in AVX-512 registers
    /// (with VBMI2), eight in AVX2 ones; the rare game past their trick limit is finished by
    /// the scalar engine.
    Lanes,
}

impl Engine {
    fn play(self, index: u64, seed: u64) -> Outcome {
        // The plain shuffle, as the one-by-one engines play: no vector forms to dispatch to.
        let cards = random_standard_cards(seed, index);
        let deal = Game::<u64>::from_hands(&cards[..26], &cards[26..], 0);
        match self {
            Engine::Bits => play_state(&deal),
            Engine::Reference => reference::play(&deal.to_position()),
            Engine::Lanes => unreachable!("the lanes play whole chunks"),
        }
    }
}

/// Totals over a run of games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub games: u64,
    pub cycles: u64,
    pub cards: u64,
    pub tricks: u64,
}

impl Totals {
    fn add(mut self, o: &Totals) -> Totals {
        self.games += o.games;
        self.cycles += o.cycles;
        self.cards += o.cards;
        self.tricks += o.tricks;
        self
    }
}

#[derive(Clone, Debug)]
pub struct BenchReport {
    pub totals: Totals,
    pub seconds: f64,
    pub threads: usize,
    /// The loop the lanes played in (as the batches report it), or `None`: one game at a time.
    pub lanes: Option<Shape>,
}

/// Plays deals `0..games` under `seed` on the current rayon pool. `progress` is called with the
/// number of games finished by each chunk.
pub fn run(games: u64, seed: u64, engine: Engine, progress: &(dyn Fn(u64) + Sync)) -> BenchReport {
    let start = Instant::now();
    let chunks = games.div_ceil(CHUNK);
    let (totals, lanes) = (0..chunks)
        .into_par_iter()
        .map_init(Batch::new, |batch, chunk| {
            let lo = chunk * CHUNK;
            let hi = (lo + CHUNK).min(games);
            if engine == Engine::Lanes {
                let batch = batch
                    .as_mut()
                    .expect("checked: the lanes need AVX-512 or AVX2");
                let t = lanes_chunk(batch, seed, lo, hi);
                progress(hi - lo);
                return (t, batch.shape());
            }
            let mut t = Totals::default();
            for index in lo..hi {
                let outcome = engine.play(index, seed);
                t.games += 1;
                t.cards += outcome.cards();
                t.tricks += outcome.tricks();
                t.cycles += u64::from(matches!(outcome, Outcome::Cycle(_)));
            }
            progress(hi - lo);
            (t, None)
        })
        .reduce(
            || (Totals::default(), None),
            |a, b| (a.0.add(&b.0), a.1.or(b.1)),
        );
    BenchReport {
        totals,
        lanes,
        seconds: start.elapsed().as_secs_f64(),
        threads: rayon::current_num_threads(),
    }
}

/// Deals `lo..hi` in the 64-card lanes; the rare game past their limit is played by the scalar
/// engine.
fn lanes_chunk(batch: &mut Batch, seed: u64, lo: u64, hi: u64) -> Totals {
    let mut t = Totals::default();
    let mut long = Vec::new();
    batch.play_shuffled(&STANDARD64, 52, seed, lo..hi, |index, f| match f {
        Finish::Won { tricks, cards, .. } => {
            t.games += 1;
            t.cards += cards;
            t.tricks += tricks;
        }
        Finish::TooLong => long.push(index),
    });
    for index in long {
        let outcome = Engine::Bits.play(index, seed);
        t.games += 1;
        t.cards += outcome.cards();
        t.tricks += outcome.tricks();
        t.cycles += u64::from(matches!(outcome, Outcome::Cycle(_)));
    }
    t
}
