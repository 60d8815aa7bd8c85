//! Search benchmarks: the prefix-sharing exhaustive search and the random-search chunk loop.

use ansatz::card::DeckSpec;
use ansatz::search::exhaustive::{deal_count, naive, prefix_sharing};
use ansatz::search::random::{RandomConfig, Scratch, play_range};
use ansatz::search::stats::GameStats;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn exhaustive(c: &mut Criterion) {
    let deck: DeckSpec = "4-2J2Q2K2A".parse().unwrap();
    let deals = deal_count(&deck).unwrap();
    let mut g = c.benchmark_group("exhaustive 4-2J2Q2K2A");
    g.throughput(Throughput::Elements(deals as u64));
    g.sample_size(10);
    g.bench_function("prefix sharing", |b| b.iter(|| prefix_sharing(&deck)));
    g.bench_function("every deal", |b| b.iter(|| naive(&deck, 2, 0..deals)));
    g.finish();
}

fn random(c: &mut Criterion) {
    let mut g = c.benchmark_group("random standard deals");
    g.throughput(Throughput::Elements(4096));
    g.sample_size(10);
    for players in [2, 4] {
        let cfg = RandomConfig {
            deck: DeckSpec::STANDARD,
            players,
            balanced_faces: false,
            seed: 1,
            games: 4096,
            top: 10,
        };
        g.bench_function(format!("{players} players, 4096 deals"), |b| {
            b.iter(|| {
                let mut stats = GameStats::new(players, 10);
                play_range(&cfg, 0, 4096, &mut stats, &mut Scratch::default());
                stats.games
            })
        });
    }
    g.finish();
}

criterion_group!(benches, exhaustive, random);
criterion_main!(benches);
