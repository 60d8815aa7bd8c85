//! Search benchmarks: the prefix-sharing exhaustive search and the random-search chunk loop.

use ansatz::card::DeckSpec;
use ansatz::engine::cycle::play_state;
use ansatz::engine::{Game, Isa};
use ansatz::search::exhaustive::{deal_count, naive, prefix_sharing, prefix_sharing_with};
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
    // Fully fixed games in the lockstep lanes or one by one (the lanes need AVX-512 to pay).
    let deck: DeckSpec = "6-2J2Q2K2A".parse().unwrap();
    let deals = deal_count(&deck).unwrap();
    let mut g = c.benchmark_group(format!("exhaustive 6-2J2Q2K2A ({:?})", Isa::get()));
    g.throughput(Throughput::Elements(deals as u64));
    g.sample_size(10);
    g.bench_function("lanes", |b| b.iter(|| prefix_sharing_with(&deck, true)));
    g.bench_function("one by one", |b| {
        b.iter(|| prefix_sharing_with(&deck, false))
    });
    g.finish();
}

/// Cards played in every terminating game of `deals` (split evenly), by the scalar engine.
fn bitboard_cards(deals: &[Vec<u8>]) -> u64 {
    let mut cards = 0;
    for d in deals {
        let h = d.len().div_ceil(2);
        if let ansatz::engine::Outcome::Terminates { cards: c, .. } =
            play_state(&Game::<u64>::from_hands(&d[..h], &d[h..], 0))
        {
            cards += c
        }
    }
    cards
}

/// Whole games of random 26/26 deals of the standard deck: the 64-card lanes (AVX-512 only)
/// against the scalar engine.
fn lanes64(c: &mut Criterion) {
    use ansatz::engine::lanes::{self, available};
    let mut rng = ansatz::rng::SplitMix64::new(5);
    let deals: Vec<Vec<u8>> = (0..4096)
        .map(|_| {
            let mut d = vec![0u8; 36];
            d.extend([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4]);
            for i in (1..d.len()).rev() {
                d.swap(i, rng.below(i as u64 + 1) as usize);
            }
            d
        })
        .collect();
    let mut g = c.benchmark_group("games of the standard deck");
    g.throughput(Throughput::Elements(deals.len() as u64));
    if available() {
        let games: Vec<Game<u64>> = deals
            .iter()
            .map(|d| Game::<u64>::from_hands(&d[..26], &d[26..], 0))
            .collect();
        g.bench_function("lanes64", |b| {
            b.iter(|| {
                let mut cards = 0;
                lanes::run(&games, 5000, |_, f| {
                    if let ansatz::engine::Finish::Won { cards: c, .. } = f {
                        cards += c
                    }
                });
                cards
            })
        });
    }
    g.bench_function("scalar engine", |b| b.iter(|| bitboard_cards(&deals)));
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

criterion_group!(benches, exhaustive, lanes64, random);
criterion_main!(benches);
