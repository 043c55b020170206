//! Criterion benchmarks of the referee on real master games (`tests/data/games/`): the whole path
//! of `xq referee` for one file (decode, split, resolve the moves, replay and judge), for Chinese,
//! WXF and coordinate notation, and the judging alone on games already resolved. See
//! `bench/README.md`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use xq::record::{self, GameRecord};
use xq::referee::{GameReport, Rules, judge_bytes};

const CONFIG: Rules = Rules::arbiter(3);

/// Master games: 20 national-championship games (Chinese notation, traditional characters) and
/// 15 games in each of three notations.
const FILES: [(&str, &str); 4] = [
    ("ccpd_chinese_20", "ccpd/masters_national_20.utf8.pgn"),
    ("wukong_chinese_15", "wukong/xqdb_traditional_15games.pgn"),
    ("wukong_wxf_15", "wukong/xqdb_international_15games.pgn"),
    ("wukong_coordinates_15", "wukong/bulk_games_uci_15games.pgn"),
];

fn read(path: &str) -> Vec<u8> {
    let full = format!("{}/tests/data/games/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn referee(c: &mut Criterion) {
    let mut group = c.benchmark_group("referee_file");
    for (name, path) in FILES {
        let bytes = read(path);
        let games = judge_bytes(path, &bytes, CONFIG);
        assert!(
            games.iter().all(|g| g.error().is_none()),
            "{path} judges cleanly"
        );
        // Throughput in games: criterion reports elements/s = games/s.
        group.throughput(Throughput::Elements(games.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| judge_bytes(path, black_box(&bytes), CONFIG))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("referee_judge_only");
    let path = FILES[0].1;
    let records: Vec<GameRecord> = record::read_games(path, &read(path))
        .expect("readable")
        .into_iter()
        .map(|g| g.expect("resolvable"))
        .collect();
    let plies: usize = records.iter().map(|r| r.moves.len()).sum();
    group.throughput(Throughput::Elements(plies as u64));
    group.bench_function("ccpd_chinese_20_plies", |b| {
        b.iter(|| {
            for r in &records {
                black_box(GameReport::judge(path, black_box(r), CONFIG));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, referee);
criterion_main!(benches);
