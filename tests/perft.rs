//! Perft counts from `tests/data/perft.tsv`: shallow rows by default, deep rows on request
//! (`cargo test --release -- --ignored`), and `divide` agreeing with `perft`.

mod common;

use common::{PerftRow, perft_rows};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use xq::{fen, movegen, perft};

/// Rows up to this many nodes run in the default test; larger ones only with `--ignored`.
const SHALLOW_LIMIT: u64 = 10_000_000;

/// Rows up to this many nodes also check that `divide` sums to the count.
const DIVIDE_LIMIT: u64 = 100_000;

fn position(row: &PerftRow) -> Result<xq::position::Position, String> {
    fen::parse_lenient(&row.fen)
        .map(|(pos, _warnings)| pos)
        .map_err(|e| format!("line {}: bad FEN {:?}: {e}", row.line, row.fen))
}

/// Checks one row, returning a description of the failure if any.
fn check_row(row: &PerftRow) -> Option<String> {
    let pos = match position(row) {
        Ok(pos) => pos,
        Err(e) => return Some(e),
    };
    let nodes = perft::perft(&pos, row.depth);
    (nodes != row.nodes).then(|| {
        format!(
            "line {}: perft({}) of {} is {nodes}, expected {}",
            row.line, row.depth, row.fen, row.nodes
        )
    })
}

/// Checks the rows on all cores, largest first, and fails listing every row that is wrong.
fn check_rows(mut rows: Vec<PerftRow>) {
    assert!(!rows.is_empty(), "no rows selected");
    rows.sort_by_key(|r| std::cmp::Reverse(r.nodes));
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads.min(rows.len()) {
            s.spawn(|| {
                while let Some(row) = rows.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if let Some(f) = check_row(row) {
                        failures.lock().unwrap().push((row.line, f));
                    }
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    let report: Vec<String> = failures.into_iter().map(|(_, f)| f).collect();
    assert!(
        report.is_empty(),
        "{} of {} perft rows failed:\n{}",
        report.len(),
        rows.len(),
        report.join("\n")
    );
}

#[test]
fn shallow_rows() {
    check_rows(
        perft_rows()
            .into_iter()
            .filter(|r| r.nodes <= SHALLOW_LIMIT)
            .collect(),
    );
}

#[test]
#[ignore = "deep perft: run with cargo test --release -- --ignored"]
fn deep_rows() {
    check_rows(
        perft_rows()
            .into_iter()
            .filter(|r| r.nodes > SHALLOW_LIMIT)
            .collect(),
    );
}

#[test]
fn start_position_is_in_the_data() {
    // The reference counts the rest of the file is trusted against.
    let expected = [(1, 44), (2, 1_920), (3, 79_666), (4, 3_290_240)];
    let rows = perft_rows();
    for (depth, nodes) in expected {
        assert!(
            rows.iter()
                .any(|r| r.fen == fen::START_FEN && r.depth == depth && r.nodes == nodes),
            "start position depth {depth} = {nodes} missing from the data"
        );
    }
}

#[test]
fn divide_sums_to_perft() {
    let mut failures = Vec::new();
    for row in perft_rows()
        .iter()
        .filter(|r| r.depth >= 1 && r.nodes <= DIVIDE_LIMIT)
    {
        let pos = match position(row) {
            Ok(pos) => pos,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        let split = perft::divide(&pos, row.depth);
        let total: u64 = split.iter().map(|&(_, n)| n).sum();
        if total != row.nodes {
            failures.push(format!(
                "line {}: divide({}) of {} sums to {total}, expected {}",
                row.line, row.depth, row.fen, row.nodes
            ));
        }
        let moves: Vec<_> = split.iter().map(|&(m, _)| m).collect();
        if moves != movegen::legal_moves(&pos).as_slice() {
            failures.push(format!(
                "line {}: divide's root moves differ from the legal moves of {}",
                row.line, row.fen
            ));
        }
        for &(m, n) in &split {
            let mut child = pos.clone();
            child.play(m);
            let expected = perft::perft(&child, row.depth - 1);
            if n != expected {
                failures.push(format!(
                    "line {}: divide({}) of {} gives {m}: {n}, but perft({}) after {m} is {expected}",
                    row.line,
                    row.depth,
                    row.fen,
                    row.depth - 1
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
