//! Candidates per second of the piece enumeration: prefix sharing against the naive checker (one
//! game per candidate), single-threaded, on the jack template; with AVX-512, also with the
//! candidates' games in the 64-card lanes.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use ansatz::ansatz::enumerate::{Enumerator, Params};
use ansatz::ansatz::template::Template;

fn enumerate(c: &mut Criterion) {
    let t = Template::jack();
    let params = Params {
        min_len: 1,
        max_len: 16,
        max_faces: 4,
        max_per_kind: 4,
        kinds: vec![2, 3, 4],
        exact: None,
    };
    let e = Enumerator::new(&t, &params, 4096).unwrap();
    let mut g = c.benchmark_group("find_pieces_len16_faces4");
    g.throughput(Throughput::Elements(e.total_candidates()));
    g.sample_size(10);
    g.bench_function("prefix_sharing", |b| {
        b.iter(|| {
            (0..e.ranges())
                .map(|i| black_box(e.run_range_with(i, false)).len())
                .sum::<usize>()
        })
    });
    if ansatz::engine::lanes::available() {
        g.bench_function("prefix_sharing_lanes64", |b| {
            b.iter(|| {
                (0..e.ranges())
                    .map(|i| black_box(e.run_range_with(i, true)).len())
                    .sum::<usize>()
            })
        });
    }
    g.bench_function("naive", |b| {
        b.iter(|| {
            (0..e.ranges())
                .map(|i| black_box(e.run_range_naive(i)).len())
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(benches, enumerate);
criterion_main!(benches);
