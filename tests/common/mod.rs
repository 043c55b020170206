//! Helpers shared by the integration tests: the perft data file, a small seeded PRNG and the
//! message of a caught panic.

// Each test binary compiles this module and uses a different part of it.
#![allow(dead_code)]

use std::path::PathBuf;

/// One row of `tests/data/perft.tsv`.
#[derive(Clone, Debug)]
pub struct PerftRow {
    /// Line number in the file, 1-based.
    pub line: usize,
    /// The position, possibly without move counters.
    pub fen: String,
    /// Depth in plies.
    pub depth: u32,
    /// Expected leaf count.
    pub nodes: u64,
}

/// The path of the perft data file.
pub fn perft_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/perft.tsv")
}

/// Reads `tests/data/perft.tsv` (columns fen, depth, nodes; a header line). Malformed lines are
/// reported, all of them, as one panic.
pub fn perft_rows() -> Vec<PerftRow> {
    let path = perft_path();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut lines = text.lines().enumerate();
    let header = lines.next().map(|(_, l)| l);
    assert_eq!(
        header,
        Some("fen\tdepth\tnodes"),
        "{}:1: unexpected header",
        path.display()
    );
    let mut rows = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in lines {
        let line_no = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let parsed = match cols.as_slice() {
            [fen, depth, nodes] => {
                depth
                    .parse()
                    .ok()
                    .zip(nodes.parse().ok())
                    .map(|(depth, nodes)| PerftRow {
                        line: line_no,
                        fen: fen.to_string(),
                        depth,
                        nodes,
                    })
            }
            _ => None,
        };
        match parsed {
            Some(row) => rows.push(row),
            None => errors.push(format!(
                "{}:{line_no}: malformed row {line:?}",
                path.display()
            )),
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    assert!(!rows.is_empty(), "{}: no rows", path.display());
    rows
}

/// The distinct FENs of the perft data file, in file order.
pub fn perft_fens() -> Vec<String> {
    let mut fens: Vec<String> = Vec::new();
    for row in perft_rows() {
        if !fens.contains(&row.fen) {
            fens.push(row.fen);
        }
    }
    fens
}

/// xorshift64*: a tiny deterministic generator, so every run sees the same inputs.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value; zero is replaced).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }

    /// A random element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The message a caught panic carries (empty if it carries none).
pub fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}
