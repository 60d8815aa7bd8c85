//! Forward-engine benchmarks: games per second of the scalar engine (bit planes, one game at a
//! time) and the reference engine, and of the 64-card lanes in each instruction-set form, on the
//! same seeded standard deals (criterion prints the rates; compare them for the ratios). A lanes
//! game still going after 256 tricks is finished by the scalar engine, as in `ansatz bench`.

use ansatz::deal::random_standard_game;
use ansatz::engine::cycle::play_state;
use ansatz::engine::lanes;
use ansatz::engine::{Finish, Game, Isa, reference};
use ansatz::position::Position;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

const GAMES: u64 = 2000;

fn engines(c: &mut Criterion) {
    let games: Vec<Game<u64>> = (0..GAMES).map(|i| random_standard_game(42, i)).collect();
    let pos: Vec<Position> = games.iter().map(Game::to_position).collect();
    let mut g = c.benchmark_group("standard_deals");
    g.throughput(Throughput::Elements(GAMES));
    g.bench_function("scalar", |b| {
        b.iter(|| {
            games
                .iter()
                .map(|s| play_state(black_box(s)).cards())
                .sum::<u64>()
        })
    });
    for (name, isa) in [
        ("lanes_avx512", Isa::Avx512),
        ("lanes_avx2", Isa::Avx2),
        ("lanes_portable", Isa::Portable),
    ] {
        if lanes::run_with_isa(isa, &games[..1], 256, |_, _| {}).is_none() {
            continue;
        }
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut sum = 0;
                lanes::run_with_isa(isa, black_box(&games), 256, |i, f| match f {
                    Finish::Won { cards, .. } => sum += cards,
                    Finish::TooLong => sum += play_state(&games[i]).cards(),
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
    let s = Game::<u64>::from_position(&p);
    c.bench_function("paper_deal_cycle_detection", |b| {
        b.iter(|| play_state(black_box(&s)))
    });
}

criterion_group!(benches, engines, cycle);
criterion_main!(benches);
