//! Criterion benchmarks of move generation (`legal_moves`, `count_legal`) on four positions and of
//! perft from the start position. See `bench/README.md`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use xq::fen;
use xq::movegen::{count_legal, legal_moves};
use xq::perft::perft;
use xq::position::Position;

/// The start position and three middle games from `tests/data/perft.tsv`.
const POSITIONS: [(&str, &str); 4] = [
    ("start", fen::START_FEN),
    (
        "middle_16",
        "r1ba1kb2/8C/2nac1n1r/p1p1p1p1p/4c4/2P1P3P/P5PC1/R3B4/4AN3/1NBAK3R w - - 30 16",
    ),
    (
        "middle_31",
        "2ra2b2/cC1nak1r1/7cn/P5p2/2b5p/2p6/RCPp2P1P/N3B3R/N8/2BAKA3 w - - 20 31",
    ),
    (
        "middle_46",
        "4k2cr/4a1r2/b4a2n/p3n1p1P/PR2p1b2/6P2/NpP1PC1R1/1C1AB1N2/4A4/4K1B2 w - - 19 46",
    ),
];

fn positions() -> Vec<(&'static str, Position)> {
    POSITIONS
        .iter()
        .map(|&(name, text)| (name, fen::parse(text).expect("benchmark FENs are valid")))
        .collect()
}

fn generation(c: &mut Criterion) {
    let positions = positions();
    let mut group = c.benchmark_group("legal_moves");
    for (name, pos) in &positions {
        group.bench_with_input(BenchmarkId::from_parameter(name), pos, |b, pos| {
            b.iter(|| legal_moves(black_box(pos)))
        });
    }
    group.finish();
    let mut group = c.benchmark_group("count_legal");
    for (name, pos) in &positions {
        group.bench_with_input(BenchmarkId::from_parameter(name), pos, |b, pos| {
            b.iter(|| count_legal(black_box(pos)))
        });
    }
    group.finish();
}

fn perft_start(c: &mut Criterion) {
    let pos = Position::startpos();
    let mut group = c.benchmark_group("perft_start");
    group.sample_size(10);
    for depth in [3, 4] {
        let nodes = perft(&pos, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::from_parameter(depth), &depth, |b, &depth| {
            b.iter(|| perft(black_box(&pos), depth))
        });
    }
    group.finish();
}

criterion_group!(benches, generation, perft_start);
criterion_main!(benches);
