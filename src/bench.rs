//! `ansatz bench`: plays seeded, uniformly shuffled standard 26/26 deals with the fast engine and the
//! exact cycle test, and measures the rate.

use std::time::Instant;

use rayon::prelude::*;

use crate::deal::random_standard_small;
use crate::engine::Outcome;
use crate::engine::cycle::play_state;

/// Deals per unit of parallel work. Fixed, so the set of deals never depends on the thread count.
pub const CHUNK: u64 = 4096;

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
pub fn run(games: u64, seed: u64, progress: &(dyn Fn(u64) + Sync)) -> BenchReport {
    let start = Instant::now();
    let chunks = games.div_ceil(CHUNK);
    let totals = (0..chunks)
        .into_par_iter()
        .map(|chunk| {
            let lo = chunk * CHUNK;
            let hi = (lo + CHUNK).min(games);
            let mut t = Totals::default();
            for index in lo..hi {
                let outcome = play_state(&random_standard_small(seed, index));
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
