//! What each kind of attack request got (answers by status, closes, timeouts, the slowest
//! answer, error answers without a JSON "error"), and its line of the report.

use super::SAMPLES_KEPT;
use super::http::{Answer, json_error, opening};
use super::server::lock;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One kind of attack request and what it got.
pub(super) struct Kind {
    label: &'static str,
    /// Whether its error answers are plain text by design (chessdb's `rulecheck`).
    plain_errors: bool,
    pub(super) tally: Mutex<Tally>,
}

/// What one kind of request got.
#[derive(Default)]
pub(super) struct Tally {
    /// Connections opened (held phases) or requests sent.
    pub(super) sent: u64,
    statuses: BTreeMap<u16, u64>,
    closed: u64,
    /// The first few reasons connections were closed.
    closed_why: Vec<String>,
    timed_out: u64,
    /// Requests cut at the attack's end.
    cut: u64,
    no_connection: u64,
    /// The first few reasons connections could not be made.
    no_connection_why: Vec<String>,
    slowest: Duration,
    /// The held phases: the most connections open at once, and those open at the end.
    pub(super) most_open: u64,
    pub(super) open_now: u64,
    /// The first response: status and opening.
    first: Option<String>,
    /// Error answers without a JSON "error": how many, and the first few.
    pub(super) non_json: u64,
    pub(super) samples: Vec<String>,
}

impl Kind {
    pub(super) fn new(label: &'static str) -> Arc<Kind> {
        Arc::new(Kind {
            label,
            plain_errors: false,
            tally: Mutex::new(Tally::default()),
        })
    }

    pub(super) fn plain(label: &'static str) -> Arc<Kind> {
        Arc::new(Kind {
            label,
            plain_errors: true,
            tally: Mutex::new(Tally::default()),
        })
    }

    /// Counts what a request got; `cut`: whether its deadline was the attack's end.
    pub(super) fn record(&self, answer: &Answer, cut: bool) {
        let mut tally = lock(&self.tally);
        match answer {
            Answer::Response { status, body, took } => {
                *tally.statuses.entry(*status).or_default() += 1;
                tally.slowest = tally.slowest.max(*took);
                if tally.first.is_none() {
                    tally.first = Some(format!("{status} {}", opening(body)));
                }
                if *status >= 400 && !self.plain_errors && !json_error(body) {
                    tally.non_json += 1;
                    if tally.samples.len() < SAMPLES_KEPT {
                        let sample = format!("{}: {status} {}", self.label, opening(body));
                        tally.samples.push(sample);
                    }
                }
            }
            Answer::Closed { why } => {
                tally.closed += 1;
                keep_reason(&mut tally.closed_why, why);
            }
            Answer::TimedOut if cut => tally.cut += 1,
            Answer::TimedOut => tally.timed_out += 1,
            Answer::NoConnection(why) => {
                tally.no_connection += 1;
                keep_reason(&mut tally.no_connection_why, why);
            }
        }
    }

    pub(super) fn report(&self) {
        let tally = lock(&self.tally);
        let mut parts = vec![format!("{} sent", tally.sent)];
        if tally.most_open > 0 {
            parts[0] = format!(
                "{} opened, at most {} open at once, {} open at the end",
                tally.sent, tally.most_open, tally.open_now
            );
        }
        if !tally.statuses.is_empty() {
            let statuses: Vec<String> = tally
                .statuses
                .iter()
                .map(|(status, n)| format!("{status} ×{n}"))
                .collect();
            parts.push(format!("answers {}", statuses.join(", ")));
        }
        if tally.closed > 0 {
            parts.push(format!(
                "closed or reset {} ({})",
                tally.closed,
                tally.closed_why.join("; ")
            ));
        }
        if tally.no_connection > 0 {
            parts.push(format!(
                "no connection {} ({})",
                tally.no_connection,
                tally.no_connection_why.join("; ")
            ));
        }
        for (n, words) in [
            (tally.timed_out, "no answer in time"),
            (tally.cut, "cut at the attack's end"),
            (tally.non_json, "non-JSON errors"),
        ] {
            if n > 0 {
                parts.push(format!("{words} {n}"));
            }
        }
        if !tally.statuses.is_empty() {
            parts.push(format!("slowest answer {} ms", tally.slowest.as_millis()));
        }
        println!("  {}: {}", self.label, parts.join("; "));
        if let Some(first) = &tally.first {
            println!("      first answer: {first}");
        }
    }
}

/// Keeps a reason among the first three different ones.
fn keep_reason(reasons: &mut Vec<String>, why: &str) {
    if reasons.len() < 3 && !reasons.iter().any(|r| r == why) {
        reasons.push(why.to_string());
    }
}
