//! `xq bench`: fixed positions searched to a fixed depth on one thread with a cleared hash table,
//! through the same position-and-go path the protocols use. The node total is the search's
//! signature.

use crate::engine::Engine;
use crate::fen;
use crate::search::time::Limits;
use std::time::Instant;

/// The bench positions, one FEN per line (`bench/positions.txt`, embedded).
pub const POSITIONS: &str = include_str!("../bench/positions.txt");

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 9;

/// Result of a bench run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes per position.
    pub per_position: Vec<u64>,
    /// Total nodes.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub millis: u128,
}

/// Runs the bench at `depth` with default options (one thread, 16 MB hash).
pub fn run(depth: u32) -> BenchResult {
    run_with(depth, &[])
}

/// Runs the bench with extra engine options given as (name, value).
pub fn run_with(depth: u32, options: &[(&str, &str)]) -> BenchResult {
    let mut engine = Engine::new();
    for (name, value) in options {
        engine
            .set_option(name, value)
            .expect("bench options are valid");
    }
    let start = Instant::now();
    let mut per_position = Vec::new();
    for line in POSITIONS.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let pos = fen::parse(line).expect("bench positions are valid");
        engine.new_game();
        engine.set_position(pos, &[]).expect("no moves");
        let limits = Limits::to_depth(depth);
        let result = engine
            .search_blocking(limits, &mut |_| {})
            .expect("bench searches have no move limits");
        per_position.push(result.nodes);
    }
    BenchResult {
        nodes: per_position.iter().sum(),
        per_position,
        millis: start.elapsed().as_millis(),
    }
}
