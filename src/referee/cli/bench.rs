//! `xq referee --bench`: judges the inputs over and over on one thread and on all, and prints the
//! throughput in games and plies a second.

use crate::referee::Rules;
use crate::referee::judging::Inputs;
use std::process::ExitCode;
use std::time::Instant;

/// Judges the inputs repeatedly for `seconds` on one thread and on `threads`, and prints the
/// throughput.
pub(super) fn bench(inputs: &Inputs, config: Rules, threads: usize, seconds: f64) -> ExitCode {
    let judge = |threads| inputs.judge(config, threads);
    let reports = judge(threads);
    let games = reports.iter().filter(|r| r.game > 0).count();
    let plies: usize = reports.iter().map(|r| r.moves().len()).sum();
    if games == 0 {
        eprintln!("xq referee --bench: no games in the inputs");
        return ExitCode::from(1);
    }
    println!(
        "referee bench: {games} games, {plies} plies ({:.1} plies a game), {} repetitions rule",
        plies as f64 / games as f64,
        config.repetitions
    );
    let mut counts = vec![1];
    if threads > 1 {
        counts.push(threads);
    }
    for t in counts {
        let start = Instant::now();
        let mut rounds = 0u64;
        while rounds == 0 || start.elapsed().as_secs_f64() < seconds {
            let _ = judge(t);
            rounds += 1;
        }
        let secs = start.elapsed().as_secs_f64();
        let g = (games as u64 * rounds) as f64 / secs;
        let p = (plies as u64 * rounds) as f64 / secs;
        println!("threads {t}: {rounds} rounds in {secs:.2} s: {g:.0} games/s, {p:.0} plies/s");
    }
    ExitCode::SUCCESS
}
