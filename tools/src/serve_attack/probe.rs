//! The probe measuring `/api/health` and `/api/legal` during the attack, the checks that the
//! server still serves after it, and its shutdown on SIGTERM with connections held open.

use super::http::{Answer, Request, exchange, opening, send};
use super::phases::slow_body;
use super::server::{Server, end_child};
use super::{IO_STEP, PROBE_PERIOD, PROBE_WAIT, SHUTDOWN_LIMIT};
use std::io::Write;
use std::net::{SocketAddr, TcpStream};
use std::thread;
use std::time::{Duration, Instant};

/// What the probe measured: the latencies of good answers, and the failures in words.
pub(super) struct Probe {
    pub(super) rounds: u64,
    pub(super) health: Vec<Duration>,
    pub(super) legal: Vec<Duration>,
    pub(super) failures: Vec<String>,
}

/// Every [`PROBE_PERIOD`] until `end`: `GET /api/health` and `POST /api/legal`, each on a fresh
/// connection, each within [`PROBE_WAIT`].
pub(super) fn probe(address: SocketAddr, end: Instant) -> Probe {
    let health = Request::get("/api/health");
    let legal = Request::post("/api/legal", "{\"moves\":[\"h2e2\"]}");
    let started = Instant::now();
    let mut result = Probe {
        rounds: 0,
        health: Vec::new(),
        legal: Vec::new(),
        failures: Vec::new(),
    };
    let mut next = Instant::now();
    while next < end {
        if let Some(wait) = next.checked_duration_since(Instant::now()) {
            thread::sleep(wait);
        }
        next += PROBE_PERIOD;
        result.rounds += 1;
        let at = started.elapsed().as_secs_f64();
        match served(address, &health, "", Instant::now() + PROBE_WAIT) {
            Ok(took) => result.health.push(took),
            Err(e) => result.failures.push(format!("at {at:.1} s, health: {e}")),
        }
        match served(address, &legal, "legal_moves", Instant::now() + PROBE_WAIT) {
            Ok(took) => result.legal.push(took),
            Err(e) => result.failures.push(format!("at {at:.1} s, legal: {e}")),
        }
        next = next.max(Instant::now());
    }
    result
}

/// A request that must get 200 with `needed` in its body: how long it took, or what was wrong.
fn served(
    address: SocketAddr,
    request: &Request,
    needed: &str,
    until: Instant,
) -> Result<Duration, String> {
    match exchange(address, request, until) {
        Answer::Response { status, body, took } => {
            let text = String::from_utf8_lossy(&body);
            if status == 200 && text.contains(needed) {
                Ok(took)
            } else {
                Err(format!(
                    "status {status} after {} ms, {}",
                    took.as_millis(),
                    opening(&body)
                ))
            }
        }
        Answer::Closed { why } => Err(format!("connection closed: {why}")),
        Answer::TimedOut => Err("no answer in time".into()),
        Answer::NoConnection(e) => Err(format!("no connection: {e}")),
    }
}

/// After the attack: health, legal moves and a small record, each with what was wrong if
/// anything.
pub(super) fn check_after(
    address: SocketAddr,
    run_end: Instant,
) -> Vec<(&'static str, Option<String>)> {
    /// What a good answer's body holds.
    type Good = fn(&str) -> bool;
    let checks: [(&str, Request, Good); 3] = [
        ("GET /api/health", Request::get("/api/health"), |body| {
            body.contains("\"ok\"")
        }),
        (
            "POST /api/legal",
            Request::post("/api/legal", "{\"moves\":[\"h2e2\"]}"),
            |body| body.contains("legal_moves"),
        ),
        (
            "POST /api/referee",
            Request::post("/api/referee", "[Event \"x\"]\n1. h2e2 h9g7 *\n"),
            |body| body.trim_start().starts_with('['),
        ),
    ];
    checks
        .into_iter()
        .map(|(name, request, good)| {
            let until = (Instant::now() + PROBE_WAIT).min(run_end);
            let problem = match exchange(address, &request, until) {
                Answer::Response { status, body, .. }
                    if status == 200 && good(&String::from_utf8_lossy(&body)) =>
                {
                    None
                }
                Answer::Response { status, body, .. } => {
                    Some(format!("status {status}, {}", opening(&body)))
                }
                Answer::Closed { why } => Some(format!("connection closed: {why}")),
                Answer::TimedOut => Some("no answer in time".into()),
                Answer::NoConnection(e) => Some(format!("no connection: {e}")),
            };
            (name, problem)
        })
        .collect()
}

/// How shutdown went: in words, and the bar's failure if any.
pub(super) struct Shutdown {
    pub(super) words: String,
    pub(super) failure: Option<String>,
}

/// Opens 20 half-open connections and one slow body, sends SIGTERM, and times the exit.
pub(super) fn shut_down(server: &Server, address: SocketAddr, run_end: Instant) -> Shutdown {
    let mut held = Vec::new();
    for _ in 0..20 {
        if let Ok(mut stream) = TcpStream::connect_timeout(&address, Duration::from_secs(1)) {
            let _ = stream.set_read_timeout(Some(IO_STEP));
            let _ = stream.set_write_timeout(Some(IO_STEP));
            if stream.write_all(b"GET / HTTP/1.1\r\n").is_ok() {
                held.push(stream);
            }
        }
    }
    let half_open = held.len();
    let mut slow_body_sent = false;
    if let Ok(mut stream) = TcpStream::connect_timeout(&address, Duration::from_secs(1)) {
        let _ = stream.set_read_timeout(Some(IO_STEP));
        let _ = stream.set_write_timeout(Some(IO_STEP));
        let until = (Instant::now() + Duration::from_secs(3)).min(run_end);
        slow_body_sent = send(&mut stream, &[&slow_body(address)], until).is_ok();
        held.push(stream);
    }
    thread::sleep(Duration::from_millis(200));
    let held_words = format!(
        "{half_open} half-open connections and {} slow body held",
        if slow_body_sent { "a" } else { "no" }
    );
    if let Err(e) = server.terminate() {
        return Shutdown {
            failure: Some(format!("shutdown: {e}")),
            words: format!("{held_words}; {e}"),
        };
    }
    let sent = Instant::now();
    let limit = (sent + SHUTDOWN_LIMIT).min(run_end);
    let status = loop {
        if let Some(status) = server.exited() {
            break Some(status);
        }
        if Instant::now() >= limit {
            break None;
        }
        thread::sleep(Duration::from_millis(10));
    };
    let took = sent.elapsed();
    drop(held);
    match status {
        Some(status) if status.success() => Shutdown {
            words: format!(
                "{held_words}; exited {} ms after SIGTERM, status 0",
                took.as_millis()
            ),
            failure: (took > SHUTDOWN_LIMIT)
                .then(|| format!("shutdown took {} ms, over 5 s", took.as_millis())),
        },
        Some(status) => Shutdown {
            words: format!(
                "{held_words}; exited {} ms after SIGTERM, {status}",
                took.as_millis()
            ),
            failure: Some(format!("the server exited with {status} after SIGTERM")),
        },
        None => {
            end_child(&server.child);
            Shutdown {
                words: format!(
                    "{held_words}; still running {} ms after SIGTERM, killed",
                    took.as_millis()
                ),
                failure: Some(format!(
                    "the server did not exit within {} ms of SIGTERM",
                    took.as_millis()
                )),
            }
        }
    }
}
