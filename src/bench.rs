//! `ansatz bench`: plays seeded, uniformly shuffled standard 26/26 deals with the fast engine and the
//! exact cycle test, and measures the rate.

use std::time::Instant;

use rayon::prelude::*;

use crate::deal::{STANDARD64, random_standard_small};
use crate::engine::batch64::Batch;
use crate::engine::cycle::play_state;
use crate::engine::fast::{Large, Ring64};
use crate::engine::lanes::Finish;
use crate::engine::{Outcome, reference};

pub use crate::deal::CHUNK;

/// Which engine plays the deals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// The bitboard engine (`engine::bits`), what every search uses.
    #[default]
    Bits,
    /// The per-card ring engine on the stack (`engine::fast::Ring64`).
    Ring,
    /// The per-card ring engine on the heap, the general path for any deck size.
    Large,
    /// The VecDeque + HashMap oracle.
    Reference,
    /// The 64-card lanes (`engine::lanes64`): sixteen standard deals at a time in AVX-512
    /// registers (with VBMI2), eight in AVX2 ones; the rare game past their trick limit is
    /// finished by the bitboard engine.
    Lanes,
}

impl Engine {
    fn play(self, index: u64, seed: u64) -> Outcome {
        let deal = random_standard_small(seed, index);
        match self {
            Engine::Bits => play_state(&deal),
            Engine::Ring => play_state(&Ring64::from_position(&deal.to_position())),
            Engine::Large => play_state(&Large::from_position(&deal.to_position())),
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
}

/// Plays deals `0..games` under `seed` on the current rayon pool. `progress` is called with the
/// number of games finished by each chunk.
pub fn run(games: u64, seed: u64, engine: Engine, progress: &(dyn Fn(u64) + Sync)) -> BenchReport {
    let start = Instant::now();
    let chunks = games.div_ceil(CHUNK);
    let totals = (0..chunks)
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
                return t;
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
            t
        })
        .reduce(Totals::default, |a, b| a.add(&b));
    BenchReport {
        totals,
        seconds: start.elapsed().as_secs_f64(),
        threads: rayon::current_num_threads(),
    }
}

/// Deals `lo..hi` in the 64-card lanes; the rare game past their limit is played by the bitboard
/// engine.
fn lanes_chunk(batch: &mut Batch, seed: u64, lo: u64, hi: u64) -> Totals {
    let mut t = Totals::default();
    let mut long = Vec::new();
    batch.play_shuffled(
        &STANDARD64,
        52,
        seed,
        lo..hi,
        crate::deal::draws,
        |index, f| match f {
            Finish::Won { tricks, cards, .. } => {
                t.games += 1;
                t.cards += cards;
                t.tricks += tricks;
            }
            Finish::TooLong => long.push(index),
        },
    );
    for index in long {
        let outcome = Engine::Bits.play(index, seed);
        t.games += 1;
        t.cards += outcome.cards();
        t.tricks += outcome.tricks();
        t.cycles += u64::from(matches!(outcome, Outcome::Cycle(_)));
    }
    t
}
