//! The line level of talking to an engine process: the reader thread that turns its output into
//! timed lines, the traffic log, and the readers of the lines an engine sends (`option`, `info`,
//! `bestmove`, refusals).

use super::spec::Protocol;
use crate::moves::{Move, MoveTextError, RankStyle};
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::ChildStdout;
use std::sync::mpsc::{Receiver, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Instant;

/// Where engine traffic is logged: one line per message, with the time since the match began.
/// At most `MAX_LOG_BYTES` are written; after a write fails nothing more is, and
/// [`TrafficLog::failure`] says why.
#[derive(Clone)]
pub struct TrafficLog {
    sink: Arc<Mutex<LogSink>>,
    origin: Instant,
}

struct LogSink {
    out: Box<dyn Write + Send>,
    written: u64,
    limit: u64,
    failure: Option<String>,
}

impl TrafficLog {
    /// A log writing to `sink`.
    pub fn new(sink: Box<dyn Write + Send>) -> TrafficLog {
        TrafficLog::with_limit(sink, MAX_LOG_BYTES)
    }

    /// A log writing at most `limit` bytes to `sink`.
    pub fn with_limit(sink: Box<dyn Write + Send>, limit: u64) -> TrafficLog {
        TrafficLog {
            sink: Arc::new(Mutex::new(LogSink {
                out: sink,
                written: 0,
                limit,
                failure: None,
            })),
            origin: Instant::now(),
        }
    }

    /// Logs one message from or to `who`; `dir` is `>`, `<` or `x`.
    pub(super) fn write(&self, who: &str, dir: &str, text: &str) {
        let ms = self.origin.elapsed().as_millis();
        let Ok(mut sink) = self.sink.lock() else {
            return;
        };
        if sink.written >= sink.limit || sink.failure.is_some() {
            return;
        }
        let line = format!("{ms:>9} {who} {dir} {text}\n");
        sink.written += line.len() as u64;
        let line = if sink.written >= sink.limit {
            format!(
                "{ms:>9} log cut: it reached its limit of {} bytes\n",
                sink.limit
            )
        } else {
            line
        };
        let written = sink.out.write_all(line.as_bytes());
        if let Err(e) = written.and_then(|_| sink.out.flush()) {
            sink.failure = Some(e.to_string());
        }
    }

    /// Why writing the log failed, if it did.
    pub fn failure(&self) -> Option<String> {
        let sink = self
            .sink
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        sink.failure.clone()
    }
}

/// An evaluation reported by the engine, from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineScore {
    /// Centipawns (UCI) or the engine's own units (UCCI: 100 = a horse or cannon).
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl EngineScore {
    /// A single number for thresholds: mates count as ±100 000.
    pub fn value(self) -> i32 {
        match self {
            EngineScore::Cp(v) => v,
            EngineScore::Mate(n) if n >= 0 => 100_000,
            EngineScore::Mate(_) => -100_000,
        }
    }
}

impl fmt::Display for EngineScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineScore::Cp(v) => write!(f, "{:+.2}", *v as f64 / 100.0),
            EngineScore::Mate(n) if *n >= 0 => write!(f, "+M{n}"),
            EngineScore::Mate(n) => write!(f, "-M{}", -n),
        }
    }
}

/// A score with the depth it came from, as match records write it: `+0.25/12`, `-M3` without a
/// depth.
pub fn score_with_depth(score: EngineScore, depth: Option<u32>) -> String {
    match depth {
        Some(depth) => format!("{score}/{depth}"),
        None => score.to_string(),
    }
}

/// What the engine chose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveChoice {
    /// A move in readable coordinates (not yet checked for legality).
    Move(Move),
    /// Text that is not a move in the engine's rank convention.
    Unreadable(MoveTextError),
    /// `nobestmove`, `bestmove (none)`, `bestmove 0000` or an empty `bestmove`.
    NoMove,
}

/// What the reader thread hands on.
pub(super) enum EngineOutput {
    Line(String, Instant),
    Closed,
}

/// The longest line we keep whole; longer output is split.
const MAX_LINE: u64 = 1 << 16;
/// How many lines may wait to be read: an engine that writes faster than they are read waits
/// on its full pipe, and memory stays bounded.
const QUEUE_LINES: usize = 256;
/// The most a traffic log holds; after that it says it was cut and stops.
const MAX_LOG_BYTES: u64 = 1 << 30;

/// Starts a thread that turns the engine's output into lines on a channel, each with the time it
/// arrived, and `Closed` when the output ends. Lines longer than `MAX_LINE` are split; at most
/// `QUEUE_LINES` wait.
pub(super) fn read_lines(
    stdout: ChildStdout,
    engine: &str,
) -> (
    Receiver<EngineOutput>,
    std::io::Result<thread::JoinHandle<()>>,
) {
    let (tx, events) = sync_channel(QUEUE_LINES);
    let reader = thread::Builder::new()
        .name(format!("{engine} output"))
        .spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(EngineOutput::Closed);
                        return;
                    }
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(EngineOutput::Line(line, Instant::now())).is_err() {
                            return;
                        }
                    }
                }
            }
        });
    (events, reader)
}

/// The name an `option` line announces.
pub(super) fn option_name(protocol: Protocol, line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match protocol {
        Protocol::Ucci => words.get(1).map(|w| w.to_string()),
        Protocol::Uci | Protocol::Uci1 => {
            let start = words.iter().position(|&w| w == "name")? + 1;
            let end = words
                .iter()
                .position(|&w| w == "type")
                .unwrap_or(words.len());
            (start < end).then(|| words[start..end].join(" "))
        }
    }
}

/// Whether a line ends a search.
pub(super) fn is_best_move(line: &str) -> bool {
    matches!(
        line.split_whitespace().next(),
        Some("bestmove" | "nobestmove")
    )
}

/// A UCCI score: past ±9,800 a mate, in 10,000 less the score plies (the convention UCCI engines
/// share); below it the engine's own units.
fn ucci_score(value: i32) -> EngineScore {
    const MATE_SCORE: i32 = 10_000;
    const MATE_PLIES: i32 = 200;
    let plies = MATE_SCORE - value.abs();
    if (0..=MATE_PLIES).contains(&plies) {
        let moves = (plies + 1) / 2;
        EngineScore::Mate(if value > 0 { moves } else { -moves })
    } else {
        EngineScore::Cp(value)
    }
}

/// Takes the score and depth from an `info` line, keeping the last ones seen.
pub(super) fn read_info(line: &str, score: &mut Option<EngineScore>, depth: &mut Option<u32>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            // Everything after these is free text or a move list.
            "string" | "pv" | "message" => return,
            "depth" => {
                if let Some(d) = words.get(i + 1).and_then(|w| w.parse().ok()) {
                    *depth = Some(d);
                }
                i += 2;
            }
            "score" => {
                let parsed = match words.get(i + 1) {
                    Some(&"cp") => words
                        .get(i + 2)
                        .and_then(|w| w.parse().ok())
                        .map(EngineScore::Cp),
                    Some(&"mate") => words
                        .get(i + 2)
                        .and_then(|w| w.parse().ok())
                        .map(EngineScore::Mate),
                    // UCCI: a bare number.
                    Some(w) => w.parse().ok().map(ucci_score),
                    None => None,
                };
                if parsed.is_some() {
                    *score = parsed;
                }
                i += 2;
            }
            _ => i += 1,
        }
    }
}

/// The move in a `bestmove` line, and whether the engine resigned with it.
pub(super) fn read_best_move(line: &str, ranks: RankStyle) -> (MoveChoice, bool) {
    let mut words = line.split_whitespace();
    let resign = line.split_whitespace().skip(2).any(|w| w == "resign");
    if words.next() == Some("nobestmove") {
        return (MoveChoice::NoMove, resign);
    }
    let choice = match words.next() {
        None | Some("(none)" | "0000" | "none" | "null") => MoveChoice::NoMove,
        Some(text) => match Move::parse(text, ranks) {
            Ok(m) => MoveChoice::Move(m),
            Err(e) => MoveChoice::Unreadable(e),
        },
    };
    (choice, resign)
}

/// Whether an engine's line refuses a `setoption`: the words engines use for an unknown option, a
/// bad value, or a value that could not be used as asked (a file that does not load, a hash table
/// that does not fit and was made smaller): xq's `info string` /
/// `info message` errors, Stockfish-family "No such option" and `info string ERROR:` lines.
pub(super) fn is_refusal(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    let is_info = lower.starts_with("info string") || lower.starts_with("info message");
    lower.starts_with("no such option")
        || (is_info
            && [
                "unknown option",
                "ignored",
                "is not",
                "invalid",
                "rejected",
                "not supported",
                "error",
                "cannot",
                "failed",
                "not fit",
            ]
            .iter()
            .any(|w| lower.contains(w)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_of_an_option() {
        for line in [
            "No such option: Frobnicate",
            "info string unknown option \"Frobnicate\"",
            "info string option Hash: value \"x\" is not an integer in 1..65536",
            "info message option EvalFile rejected: cannot read net file /x.nnue: not found",
            "info string ERROR: network file x.nnue was not loaded",
            "info string Failed to open x.bin",
            "info string option Hash: a table of 65536 MB does not fit in this process's memory; \
             the table is 8192 MB",
        ] {
            assert!(is_refusal(line), "{line}");
        }
        for line in [
            "readyok",
            "info string NNUE evaluation using xiangqi.nnue enabled",
            "info depth 3 score cp 12 pv h2e2",
        ] {
            assert!(!is_refusal(line), "{line}");
        }
    }

    #[test]
    fn info_and_bestmove_lines() {
        let (mut score, mut depth) = (None, None);
        read_info(
            "info depth 7 seldepth 9 multipv 1 score cp -144 upperbound nodes 4735 pv h7c7",
            &mut score,
            &mut depth,
        );
        assert_eq!((score, depth), (Some(EngineScore::Cp(-144)), Some(7)));
        // UCCI mates: 10,000 less the plies to mate.
        for (line, mate) in [
            ("info depth 9 score 9995 pv h2e2", 3),
            ("info depth 11 score -9996 pv h2e2", -2),
            ("info depth 3 score 9999", 1),
        ] {
            let (mut score, mut depth) = (None, None);
            read_info(line, &mut score, &mut depth);
            assert_eq!(score, Some(EngineScore::Mate(mate)), "{line}");
        }
        let (mut score, mut depth) = (None, None);
        read_info("info depth 9 score 9799", &mut score, &mut depth);
        assert_eq!(score, Some(EngineScore::Cp(9799)));
        assert_eq!(score_with_depth(EngineScore::Mate(3), Some(9)), "+M3/9");
        read_info("info depth 8 score 35 pv h2e2", &mut score, &mut depth);
        assert_eq!(score, Some(EngineScore::Cp(35)));
        read_info("info depth 9 score mate -3 nodes 5", &mut score, &mut depth);
        assert_eq!((score, depth), (Some(EngineScore::Mate(-3)), Some(9)));
        read_info("info string depth 99 score 1", &mut score, &mut depth);
        assert_eq!(depth, Some(9));
        let h2e2: Move = "h2e2".parse().unwrap();
        assert_eq!(
            read_best_move("bestmove h2e2 ponder h9g7", RankStyle::ZeroToNine),
            (MoveChoice::Move(h2e2), false)
        );
        assert_eq!(
            read_best_move("bestmove h3e3", RankStyle::OneToTen),
            (MoveChoice::Move(h2e2), false)
        );
        assert_eq!(
            read_best_move("bestmove h2e2 resign", RankStyle::ZeroToNine),
            (MoveChoice::Move(h2e2), true)
        );
        assert_eq!(
            read_best_move("bestmove (none)", RankStyle::ZeroToNine).0,
            MoveChoice::NoMove
        );
        assert_eq!(
            read_best_move("nobestmove", RankStyle::ZeroToNine).0,
            MoveChoice::NoMove
        );
        assert!(matches!(
            read_best_move("bestmove zz99", RankStyle::ZeroToNine).0,
            MoveChoice::Unreadable(_)
        ));
        assert_eq!(
            option_name(
                Protocol::Uci,
                "option name Skill Level type spin default 20"
            ),
            Some("Skill Level".into())
        );
        assert_eq!(
            option_name(Protocol::Ucci, "option usemillisec type check default true"),
            Some("usemillisec".into())
        );
    }
}
