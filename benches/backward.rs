//! Backward play benchmarks: predecessors per second, and closure throughput (positions per second)
//! on the 2024 deal's family (one small closure) and on the backward trees of 200 random terminating
//! games (many closures at once, as `assemble` and `extend` run them), with 1 and 2 worker threads.

use std::hint::black_box;

use ansatz::backward::Compact;
use ansatz::backward::closure::{self, Config, Seed};
use ansatz::backward::extend::path_seeds;
use ansatz::backward::family::{cycle_positions, cycle_seeds};
use ansatz::backward::predecessors::for_each_predecessor;
use ansatz::card::DeckSpec;
use ansatz::deal::random_deal;
use ansatz::engine::{Outcome, play};
use ansatz::notation::Notation;
use ansatz::position::Position;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rayon::prelude::*;

const PAPER_DEAL: &str = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)";

fn family_seeds() -> Vec<Seed> {
    let p = Position::parse(PAPER_DEAL, Notation::Auto).unwrap();
    let Outcome::Cycle(info) = play(&p) else {
        unreachable!("the 2024 deal cycles")
    };
    cycle_seeds(&cycle_positions(&info))
}

/// The paths of `n` seeded random standard deals that terminate, one seed set per game.
fn game_seeds(n: u64) -> Vec<Vec<Seed>> {
    (0..n)
        .filter_map(|i| {
            let p = random_deal(&DeckSpec::STANDARD, 7, i);
            match play(&p) {
                Outcome::Terminates { tricks, cards, .. } => Some(path_seeds(&p, tricks, cards)),
                Outcome::Cycle(_) => None,
            }
        })
        .collect()
}

fn closure_size(seeds: &[Seed]) -> u64 {
    closure::closure(seeds, &Config::default(), &|_| {}).size
}

fn bench(c: &mut Criterion) {
    let family = family_seeds();
    let games = game_seeds(200);
    let family_size = closure_size(&family);
    let games_size: u64 = games.iter().map(|s| closure_size(s)).sum();

    // Every position of those trees, to time the predecessor step alone.
    let mut all: Vec<Compact> = Vec::new();
    for seeds in &games {
        all.extend(seeds.iter().map(|s| s.node.pos));
        let mut frontier: Vec<Compact> = Vec::new();
        for s in seeds {
            for_each_predecessor(&s.node.pos, |q, _| {
                if s.skip != Some(*q) {
                    frontier.push(*q)
                }
            });
        }
        while !frontier.is_empty() {
            all.extend(&frontier);
            let mut next = Vec::new();
            for p in &frontier {
                for_each_predecessor(p, |q, _| next.push(*q));
            }
            frontier = next;
        }
    }
    let mut g = c.benchmark_group("predecessors");
    g.throughput(Throughput::Elements(all.len() as u64));
    g.bench_function("tree_positions", |b| {
        b.iter(|| {
            let mut n = 0u64;
            for p in &all {
                for_each_predecessor(black_box(p), |q, pile| {
                    n += q.len0 as u64 + pile as u64;
                });
            }
            n
        })
    });
    g.finish();

    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut g = c.benchmark_group(format!("closure_{threads}_threads"));
        g.throughput(Throughput::Elements(family_size));
        g.bench_function("family_2024", |b| {
            b.iter(|| pool.install(|| closure_size(black_box(&family))))
        });
        let visited = Config {
            visited_set: true,
            ..Config::default()
        };
        g.bench_function("family_2024_visited_set", |b| {
            b.iter(|| pool.install(|| closure::closure(black_box(&family), &visited, &|_| {}).size))
        });
        g.throughput(Throughput::Elements(games_size));
        g.bench_function("random_game_trees", |b| {
            b.iter(|| {
                pool.install(|| {
                    games
                        .par_iter()
                        .map(|s| closure_size(black_box(s)))
                        .sum::<u64>()
                })
            })
        });
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
