//! `xq-tools serve-load`: a bounded load test of `xq serve` on loopback. A number of clients, each
//! on its own thread, send requests for a number of seconds — in turn a WXF case record to
//! `POST /api/referee` and the same line to chessdb's `rulecheck` — and check every answer; then
//! requests per second, latency percentiles, errors and the server's memory over the run.

use crate::flags::Flags;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

const USAGE: &str =
    "usage: xq-tools serve-load --address 127.0.0.1:PORT [--clients 32] [--seconds 20] [--pid PID]
  --address  where `xq serve` listens (a loopback address only)
  --clients  clients sending at once (1 to 256; default 32)
  --seconds  how long they send (1 to 120; default 20)
  --pid      the server's process id, to report its resident memory over the run";

/// Case 119 of the WXF suite (diagram 80): a rook perpetually chases a cannon; Black wins, and
/// the record ends with Red's move (`rulecheck` 3: the side that just moved lost by rule).
const FEN: &str = "3rkabc1/4a3R/4b4/9/9/9/9/B8/1R2A4/c1BAK4 w - - 0 1";
const MOVES: [&str; 7] = ["b1a1", "a0b0", "a1b1", "b0a0", "b1a1", "a0b0", "a1b1"];

pub fn main(args: &[String]) -> Result<(), String> {
    let mut flags = Flags::new(args, USAGE);
    let (mut address, mut clients, mut seconds, mut pid) = (None, 32usize, 20u64, None);
    while let Some(flag) = flags.next_flag()? {
        match flag {
            "--address" => address = Some(flags.parsed::<SocketAddr>(flag)?),
            "--clients" => clients = flags.parsed(flag)?,
            "--seconds" => seconds = flags.parsed(flag)?,
            "--pid" => pid = Some(flags.parsed::<u32>(flag)?),
            other => return Err(format!("unknown flag {other}\n{USAGE}")),
        }
    }
    let address = address.ok_or_else(|| format!("--address is needed\n{USAGE}"))?;
    if !address.ip().is_loopback() {
        return Err(format!(
            "--address {address}: only a loopback address is load-tested"
        ));
    }
    if !(1..=256).contains(&clients) || !(1..=120).contains(&seconds) {
        return Err(format!(
            "--clients 1 to 256 and --seconds 1 to 120\n{USAGE}"
        ));
    }
    let record = format!("[FEN \"{FEN}\"]\n\n{} *\n", MOVES.join(" "));
    let rulecheck = format!(
        "/chessdb.php?action=rulecheck&board={}&movelist={}",
        FEN.replace(' ', "%20"),
        MOVES.join("|")
    );
    let memory_at_start = pid.and_then(resident_kib);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let workers: Vec<_> = (0..clients)
        .map(|i| {
            let (record, rulecheck) = (record.clone(), rulecheck.clone());
            std::thread::spawn(move || client(address, i, deadline, &record, &rulecheck))
        })
        .collect();
    let mut memory_peak = memory_at_start;
    while Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(500));
        memory_peak = memory_peak.max(pid.and_then(resident_kib));
    }
    let mut latencies = Vec::new();
    let mut errors = Vec::new();
    for worker in workers {
        let (times, failed) = worker.join().map_err(|_| "a client thread failed")?;
        latencies.extend(times);
        errors.extend(failed);
    }
    let elapsed = started.elapsed().as_secs_f64();
    let memory_at_end = pid.and_then(resident_kib);
    latencies.sort();
    let percentile = |p: f64| -> f64 {
        latencies
            .get(((latencies.len() as f64 - 1.0) * p).round() as usize)
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    println!(
        "{} requests from {clients} clients in {elapsed:.1} s: {:.0} requests/s, latency p50 {:.2} ms, p99 {:.2} ms, {} errors",
        latencies.len() + errors.len(),
        latencies.len() as f64 / elapsed,
        percentile(0.5),
        percentile(0.99),
        errors.len()
    );
    if let (Some(start), Some(peak), Some(end)) = (memory_at_start, memory_peak, memory_at_end) {
        println!(
            "server resident memory: {start} KiB at the start, {peak} KiB at most, {end} KiB at the end"
        );
    }
    for e in errors.iter().take(5) {
        println!("error: {e}");
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!("{} requests failed", errors.len()))
    }
}

/// One client: requests in turn until the deadline; the latencies of the good answers and the
/// failures in words.
fn client(
    address: SocketAddr,
    index: usize,
    deadline: Instant,
    record: &str,
    rulecheck: &str,
) -> (Vec<Duration>, Vec<String>) {
    let (mut times, mut failures) = (Vec::new(), Vec::new());
    let mut turn = index;
    while Instant::now() < deadline {
        let sent = Instant::now();
        let answer = if turn.is_multiple_of(2) {
            request(
                address,
                "POST",
                "/api/referee?repetitions=2",
                record.as_bytes(),
            )
            .and_then(|(status, body)| {
                let ok = status == 200 && body.contains("\"result\":\"black_wins\"");
                ok.then_some(()).ok_or(format!("referee: status {status}"))
            })
        } else {
            request(address, "GET", rulecheck, b"").and_then(|(status, body)| {
                let ok = status == 200 && body.trim() == "3";
                ok.then_some(())
                    .ok_or(format!("rulecheck: status {status}, {body:?}"))
            })
        };
        match answer {
            Ok(()) => times.push(sent.elapsed()),
            Err(e) => failures.push(e),
        }
        turn += 1;
    }
    (times, failures)
}

/// One request on its own connection: the status and the body as text.
fn request(
    address: SocketAddr,
    method: &str,
    path: &str,
    body: &[u8],
) -> Result<(u16, String), String> {
    let mut stream = TcpStream::connect_timeout(&address, Duration::from_secs(5))
        .map_err(|e| format!("connect: {e}"))?;
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(body))
        .map_err(|e| format!("send: {e}"))?;
    let mut answer = Vec::new();
    stream
        .read_to_end(&mut answer)
        .map_err(|e| format!("read: {e}"))?;
    let text = String::from_utf8_lossy(&answer);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or("no status line")?;
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    Ok((status, body))
}

/// A process's resident memory in KiB, from `/proc`.
fn resident_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
}
