//! Criterion benchmarks of move generation and perft (placeholder until filled in).
fn main() {}
