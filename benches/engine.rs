//! Forward-engine benchmarks: games per second of the bitboard, ring and reference engines and of
//! the 64-card lanes in each instruction-set form, on the same seeded standard deals (criterion
//! prints the rates; compare them for the ratios). A lanes game still going after 256 tricks is
//! finished by the bitboard engine, as in `ansatz bench`.

use ansatz::deal::random_standard_small;
use ansatz::engine::cycle::play_state;
use ansatz::engine::fast::{Large, Ring64, Small};
use ansatz::engine::lanes::{Finish, Isa};
use ansatz::engine::lanes64::{self, Deal64};
use ansatz::engine::reference;
use ansatz::position::Position;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

const GAMES: u64 = 2000;

fn deals() -> (Vec<Small>, Vec<Position>) {
    let small: Vec<Small> = (0..GAMES).map(|i| random_standard_small(42, i)).collect();
    let pos = small.iter().map(|s| s.to_position()).collect();
    (small, pos)
}

fn engines(c: &mut Criterion) {
    let (small, pos) = deals();
    let ring: Vec<Ring64> = pos.iter().map(Ring64::from_position).collect();
    let large: Vec<Large> = pos.iter().map(Large::from_position).collect();
    let mut g = c.benchmark_group("standard_deals");
    g.throughput(Throughput::Elements(GAMES));
    g.bench_function("bits", |b| {
        b.iter(|| {
            small
                .iter()
                .map(|s| play_state(black_box(s)).cards())
                .sum::<u64>()
        })
    });
    g.bench_function("ring64", |b| {
        b.iter(|| {
            ring.iter()
                .map(|s| play_state(black_box(s)).cards())
                .sum::<u64>()
        })
    });
    g.bench_function("large", |b| {
        b.iter(|| {
            large
                .iter()
                .map(|s| play_state(black_box(s)).cards())
                .sum::<u64>()
        })
    });
    let deals: Vec<Deal64> = (0..GAMES)
        .map(|i| Deal64::deal(&ansatz::deal::random_standard_cards(42, i)))
        .collect();
    for (name, isa) in [
        ("lanes64_avx512", Isa::Avx512),
        ("lanes64_avx2", Isa::Avx2),
        ("lanes64_portable", Isa::Portable),
    ] {
        if !lanes64::run_with_isa(isa, &deals[..1], 256, |_, _| {}) {
            continue;
        }
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut sum = 0;
                lanes64::run_with_isa(isa, black_box(&deals), 256, |i, f| match f {
                    Finish::Won { cards, .. } => sum += cards,
                    Finish::TooLong => sum += play_state(&small[i]).cards(),
                });
                sum
            })
        });
    }
    g.sample_size(10);
    g.bench_function("reference", |b| {
        b.iter(|| {
            pos.iter()
                .map(|p| reference::play(black_box(p)).cards())
                .sum::<u64>()
        })
    });
    g.finish();
}

fn cycle(c: &mut Criterion) {
    let p = Position::parse(
        "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)",
        ansatz::notation::Notation::Auto,
    )
    .unwrap();
    let s = Small::from_position(&p);
    c.bench_function("paper_deal_cycle_detection", |b| {
        b.iter(|| play_state(black_box(&s)))
    });
}

criterion_group!(benches, engines, cycle);
criterion_main!(benches);
