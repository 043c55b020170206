//! `xq-tools serve-attack`: an acceptance test of `xq serve` under attack on loopback. It starts
//! the server, runs bounded attacks at once (half-open connections, slow headers and bodies,
//! oversize bodies, quadratic inputs, many analyses, heavy records, oversize headers, cross-site
//! requests) while a probe measures the latency of `/api/health` and `/api/legal` and the
//! server's memory, then checks that it still serves and that SIGTERM stops it promptly.

mod http;
mod phases;
mod probe;
mod server;
mod tally;

use crate::flags::Flags;
use phases::Attack;
use probe::{check_after, probe, shut_down};
use server::{Server, open_files, raise_file_limit, resident_kib, server_file_limit, watch};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

const USAGE: &str = "usage: xq-tools serve-attack --xq PATH [--seconds 30] [--health-ms 200] [--legal-ms 1000] [--rss-mb 256]
  --xq         the `xq` binary; `xq serve --port 0` is started and attacked on loopback
  --seconds    how long the attack lasts (1 to 120; default 30)
  --health-ms  the slowest /api/health answer the probe accepts (default 200)
  --legal-ms   the slowest /api/legal answer the probe accepts (default 1000)
  --rss-mb     the most resident memory the server may reach (default 256)";

/// The start position, to which the quadratic input appends its fields.
const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
/// The largest body the server takes (2 MiB); the slow bodies announce one byte less.
const BODY_LIMIT: usize = 2 << 20;
/// What the slow bodies announce.
const SLOW_BODY_LENGTH: usize = BODY_LIMIT - 1;
/// How much of an answer is read; the rest is left unread.
const ANSWER_CAP: usize = 8 << 20;
/// How long an attack's request may go on past the attack's end before it is cut.
const CUT_GRACE: Duration = Duration::from_secs(3);
/// How long the probe and the checks after the attack wait for an answer.
const PROBE_WAIT: Duration = Duration::from_secs(5);
/// The probe's period, and the memory sampling's.
const PROBE_PERIOD: Duration = Duration::from_millis(100);
/// How long the server has to exit after SIGTERM.
const SHUTDOWN_LIMIT: Duration = Duration::from_secs(5);
/// How long the whole run may last past the attack's seconds.
const RUN_MARGIN: Duration = Duration::from_secs(30);
/// The socket timeout of one blocking read or write; the caller then checks its deadline.
const IO_STEP: Duration = Duration::from_millis(250);
/// How many non-JSON error answers are kept as samples.
const SAMPLES_KEPT: usize = 5;

/// Reads the flags, runs the attack and the checks, prints the report; an error lists the bar's
/// failures.
pub fn main(args: &[String]) -> Result<(), String> {
    let mut flags = Flags::new(args, USAGE);
    let mut xq = None;
    let (mut seconds, mut health_ms, mut legal_ms, mut rss_mb) = (30u64, 200u64, 1000u64, 256u64);
    while let Some(flag) = flags.next_flag()? {
        match flag {
            "--xq" => xq = Some(PathBuf::from(flags.value(flag)?)),
            "--seconds" => seconds = flags.parsed(flag)?,
            "--health-ms" => health_ms = flags.parsed(flag)?,
            "--legal-ms" => legal_ms = flags.parsed(flag)?,
            "--rss-mb" => rss_mb = flags.parsed(flag)?,
            other => return Err(format!("unknown flag {other}\n{USAGE}")),
        }
    }
    let xq = xq.ok_or_else(|| format!("--xq is needed\n{USAGE}"))?;
    if !(1..=120).contains(&seconds) {
        return Err(format!("--seconds 1 to 120\n{USAGE}"));
    }
    let bar = Bar {
        health: Duration::from_millis(health_ms),
        legal: Duration::from_millis(legal_ms),
        rss_kib: rss_mb * 1024,
    };
    let attack_time = Duration::from_secs(seconds);
    let run_end = Instant::now() + attack_time + RUN_MARGIN;
    let server = Server::start(&xq)?;
    let finished = Arc::new(AtomicBool::new(false));
    let watchdog = {
        let (child, finished) = (server.child.clone(), finished.clone());
        thread::spawn(move || watch(child, &finished, run_end))
    };
    // The run's own limits end a second before the last resort's.
    let outcome = run(&server, attack_time, run_end - Duration::from_secs(1), &bar);
    finished.store(true, Ordering::SeqCst);
    drop(server);
    let _ = watchdog.join();
    outcome
}

/// The limits the server must stay within.
struct Bar {
    health: Duration,
    legal: Duration,
    rss_kib: u64,
}

/// The attack, the checks after it and the report.
fn run(server: &Server, attack_time: Duration, run_end: Instant, bar: &Bar) -> Result<(), String> {
    let address = server.address;
    let files_raised = raise_file_limit();
    println!(
        "xq serve at {address} (process {}, open-file limit {}), attacked for {} s; this tool's open-file limit {files_raised}",
        server.pid,
        server_file_limit(server.pid).unwrap_or_else(|| "unknown".into()),
        attack_time.as_secs()
    );
    println!(
        "bar: health at most {} ms, legal at most {} ms, no probe failure, memory at most {} MiB, every error JSON, serving after the attack, exit 0 within 5 s of SIGTERM",
        bar.health.as_millis(),
        bar.legal.as_millis(),
        bar.rss_kib / 1024
    );
    let rss_at_start = resident_kib(server.pid);
    let fds_at_start = open_files(server.pid);
    let attack_end = Instant::now() + attack_time;
    let attack = Attack::new();
    let attackers = attack.launch(address, attack_end);
    let probe = thread::spawn(move || probe(address, attack_end));

    // Memory and descriptors while the attack lasts, until every attacker has stopped.
    let (mut rss_peak, mut fds_peak) = (rss_at_start, fds_at_start);
    let mut tick = 0u64;
    while Instant::now() < run_end
        && (!probe.is_finished() || attackers.iter().any(|a| !a.is_finished()))
    {
        thread::sleep(PROBE_PERIOD);
        rss_peak = rss_peak.max(resident_kib(server.pid));
        if tick.is_multiple_of(5) {
            fds_peak = fds_peak.max(open_files(server.pid));
        }
        tick += 1;
    }
    for attacker in attackers {
        let _ = attacker.join();
    }
    let probe = probe.join().map_err(|_| "the probe's thread failed")?;

    // The attackers' connections are closed; wait for the server to let go of them too.
    let settle_end = (Instant::now() + Duration::from_secs(5)).min(run_end);
    let baseline = fds_at_start.unwrap_or(0) + 4;
    let settling = Instant::now();
    while Instant::now() < settle_end && open_files(server.pid).is_some_and(|n| n > baseline) {
        rss_peak = rss_peak.max(resident_kib(server.pid));
        thread::sleep(PROBE_PERIOD);
    }
    let fds_after = open_files(server.pid);
    let settled = settling.elapsed();
    let rss_after = resident_kib(server.pid);
    rss_peak = rss_peak.max(rss_after);
    let after_check = check_after(address, run_end);
    let shutdown = shut_down(server, address, run_end);

    let mut failures = Vec::new();
    attack.report();
    println!(
        "probe ({} rounds, a fresh connection each request, every 100 ms unless one is slower):",
        probe.rounds
    );
    for (name, times, limit) in [
        ("GET /api/health", &probe.health, bar.health),
        ("POST /api/legal", &probe.legal, bar.legal),
    ] {
        let (median, p99, max) = spread(times);
        println!(
            "  {name}: {} good answers, median {median:.1} ms, p99 {p99:.1} ms, max {max:.1} ms",
            times.len()
        );
        if max > limit.as_secs_f64() * 1000.0 {
            failures.push(format!(
                "{name}: slowest answer {max:.1} ms, over {} ms",
                limit.as_millis()
            ));
        }
    }
    println!("  failures: {}", probe.failures.len());
    for failure in probe.failures.iter().take(SAMPLES_KEPT) {
        println!("    {failure}");
    }
    if !probe.failures.is_empty() {
        failures.push(format!("probe failures: {}", probe.failures.len()));
    }
    let kib = |k: Option<u64>| k.map_or("unknown".to_string(), |k| format!("{} MiB", k / 1024));
    let count = |n: Option<u64>| n.map_or("unknown".to_string(), |n| n.to_string());
    println!(
        "server memory: {} at the start, {} at most, {} after the attack",
        kib(rss_at_start),
        kib(rss_peak),
        kib(rss_after)
    );
    println!(
        "server descriptors: {} at the start, {} at most, {} after the attack (waited {} ms for them to close)",
        count(fds_at_start),
        count(fds_peak),
        count(fds_after),
        settled.as_millis()
    );
    match rss_peak {
        Some(peak) if peak > bar.rss_kib => failures.push(format!(
            "memory reached {} MiB, over {} MiB",
            peak / 1024,
            bar.rss_kib / 1024
        )),
        None => failures.push("the server's memory could not be read".into()),
        _ => {}
    }
    let (odd_count, odd_samples) = attack.non_json_errors();
    println!("non-JSON error answers: {odd_count}");
    for sample in &odd_samples {
        println!("  {sample}");
    }
    if odd_count > 0 {
        failures.push(format!(
            "{odd_count} error answers without a JSON \"error\""
        ));
    }
    println!("after the attack:");
    for (name, problem) in &after_check {
        println!("  {name}: {}", problem.as_deref().unwrap_or("ok"));
        if let Some(problem) = problem {
            failures.push(format!("after the attack, {name}: {problem}"));
        }
    }
    println!("shutdown: {}", shutdown.words);
    failures.extend(shutdown.failure);
    server.report_stderr();
    if failures.is_empty() {
        println!("bar: met");
        Ok(())
    } else {
        println!("bar: {} failures", failures.len());
        for failure in &failures {
            println!("  {failure}");
        }
        Err(format!(
            "serve-attack: {} failures of the bar",
            failures.len()
        ))
    }
}

/// The median, 99th percentile and maximum of some latencies, in milliseconds.
fn spread(times: &[Duration]) -> (f64, f64, f64) {
    let mut ms: Vec<f64> = times.iter().map(|t| t.as_secs_f64() * 1000.0).collect();
    ms.sort_by(f64::total_cmp);
    let at = |p: f64| {
        ms.get(((ms.len() as f64 - 1.0) * p).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    (at(0.5), at(0.99), ms.last().copied().unwrap_or(0.0))
}
