//! Drives an external engine process over UCCI or UCI (ranks 0–9, or 1–10 as Fairy-Stockfish
//! speaks UCI): start-up handshake, options, new games and one search at a time. A reader thread
//! per process turns its output into lines on a channel, and every wait has a deadline, so a hung
//! or dead engine is noticed instead of blocking the match. Each engine runs in its own process
//! group, ended as a whole when the match is done with it, so nothing it started outlives it
//! ([`super::process`]); the `position` and `go` of a search are written by [`super::commands`].

use super::commands::{go_command, position_command};
use super::process::{QUIT_GRACE, end_group, spawn, wait_exit};
use super::spec::{EngineSpec, Protocol, TimeUnit};
use super::wire::{
    EngineOutput, EngineScore, MoveChoice, TrafficLog, is_best_move, is_refusal, option_name,
    read_best_move, read_info, read_lines,
};
use crate::moves::Move;
use crate::position::Position;
use std::fmt;
use std::io::Write;
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

pub use super::commands::GoLimit;

/// What went wrong with an engine process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientError {
    /// The process could not be started.
    Spawn {
        /// Engine name.
        engine: String,
        /// The program.
        program: String,
        /// The operating system's message.
        error: String,
    },
    /// The process exited or closed its output.
    Died {
        /// Engine name.
        engine: String,
        /// What we were waiting for.
        waiting_for: &'static str,
    },
    /// No expected answer before the deadline.
    Timeout {
        /// Engine name.
        engine: String,
        /// What we were waiting for.
        waiting_for: &'static str,
        /// How long we waited.
        after: Duration,
    },
    /// The engine does not take an option the match asked for (it did not announce it, or
    /// answered the `setoption` with a refusal): the comparison would not be what was asked.
    Option {
        /// Engine name.
        engine: String,
        /// The option.
        name: String,
        /// Why it did not apply.
        reason: String,
    },
    /// The engine sent more output while we waited for one answer than any engine needs: a
    /// misbehaving engine, stopped before it fills memory or the log.
    Flood {
        /// Engine name.
        engine: String,
        /// What we were waiting for.
        waiting_for: &'static str,
        /// Lines read while waiting.
        lines: usize,
        /// Bytes read while waiting.
        bytes: usize,
    },
    /// A command could not be written to the engine.
    Write {
        /// Engine name.
        engine: String,
        /// The operating system's message.
        error: String,
    },
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Spawn {
                engine,
                program,
                error,
            } => {
                write!(f, "engine {engine}: could not start {program:?}: {error}")
            }
            ClientError::Died {
                engine,
                waiting_for,
            } => {
                write!(
                    f,
                    "engine {engine} exited while we waited for {waiting_for}"
                )
            }
            ClientError::Timeout {
                engine,
                waiting_for,
                after,
            } => write!(
                f,
                "engine {engine} sent no {waiting_for} within {:.3} s",
                after.as_secs_f64()
            ),
            ClientError::Flood {
                engine,
                waiting_for,
                lines,
                bytes,
            } => write!(
                f,
                "engine {engine} flooded its output: {lines} lines ({bytes} bytes) while we waited for {waiting_for}, more than the {MAX_WAIT_LINES} lines or {MAX_WAIT_BYTES} bytes allowed"
            ),
            ClientError::Write { engine, error } => {
                write!(f, "engine {engine}: cannot send a command: {error}")
            }
            ClientError::Option {
                engine,
                name,
                reason,
            } => write!(
                f,
                "engine {engine}: option {name:?} did not apply: {reason}; the match is stopped"
            ),
        }
    }
}

impl std::error::Error for ClientError {}

/// The engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The line as received.
    pub line: String,
    /// The move, or why there is none.
    pub choice: MoveChoice,
    /// The engine resigned (`bestmove … resign`).
    pub resign: bool,
    /// The last score it reported during the search.
    pub score: Option<EngineScore>,
    /// The last depth it reported.
    pub depth: Option<u32>,
    /// From sending `go` to reading the reply.
    pub elapsed: Duration,
}

/// The most lines an engine may send while we wait for one answer (a search's `info` lines): far
/// more than any engine sends in a move.
const MAX_WAIT_LINES: usize = 200_000;
/// The most bytes it may send meanwhile.
const MAX_WAIT_BYTES: usize = 32 << 20;

/// A running engine process.
pub struct Client {
    spec: EngineSpec,
    child: Child,
    stdin: ChildStdin,
    events: Receiver<EngineOutput>,
    log: Option<TrafficLog>,
    who: String,
    options: Vec<String>,
    millis: bool,
    searching: bool,
    broken: bool,
}

impl Client {
    /// Starts the engine and completes the handshake (`ucci`/`uci`, options, `isready`), each
    /// answer within `timeout`.
    pub fn start(
        spec: &EngineSpec,
        log: Option<TrafficLog>,
        timeout: Duration,
    ) -> Result<Client, ClientError> {
        let mut child = spawn(spec).map_err(|e| ClientError::Spawn {
            engine: spec.name.clone(),
            program: spec.program.clone(),
            error: e.to_string(),
        })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            end_group(&mut child);
            return Err(ClientError::Spawn {
                engine: spec.name.clone(),
                program: spec.program.clone(),
                error: "no pipes to the process".into(),
            });
        };
        let (events, reader) = read_lines(stdout, &spec.name);
        if let Err(e) = reader {
            end_group(&mut child);
            return Err(ClientError::Spawn {
                engine: spec.name.clone(),
                program: spec.program.clone(),
                error: format!("cannot start a reader thread: {e}"),
            });
        }
        let who = format!("{}#{}", spec.name, child.id());
        let mut client = Client {
            spec: spec.clone(),
            child,
            stdin,
            events,
            log,
            who,
            options: Vec::new(),
            millis: false,
            searching: false,
            broken: false,
        };
        client.handshake(timeout)?;
        Ok(client)
    }

    fn handshake(&mut self, timeout: Duration) -> Result<(), ClientError> {
        let deadline = Instant::now() + timeout;
        let (hello, ok) = match self.spec.protocol {
            Protocol::Ucci => ("ucci", "ucciok"),
            Protocol::Uci | Protocol::Uci1 => ("uci", "uciok"),
        };
        self.send(hello)?;
        let mut options = Vec::new();
        let protocol = self.spec.protocol;
        self.wait_for(ok, deadline, timeout, |line| {
            match line.split_whitespace().next() {
                Some("option") => {
                    options.extend(option_name(protocol, line));
                    false
                }
                Some(w) => w == ok,
                None => false,
            }
        })?;
        self.options = options;
        match self.spec.protocol {
            Protocol::Ucci => {
                let announced = self.announces("usemillisec");
                self.millis = match self.spec.units {
                    TimeUnit::Auto => announced,
                    TimeUnit::Seconds => false,
                    TimeUnit::Millis => true,
                };
                if announced {
                    let value = if self.millis { "true" } else { "false" };
                    self.send(&format!("setoption usemillisec {value}"))?;
                }
            }
            Protocol::Uci | Protocol::Uci1 => {
                self.millis = true;
                let variant_set = self
                    .spec
                    .options
                    .iter()
                    .any(|(k, _)| k.eq_ignore_ascii_case("UCI_Variant"));
                if self.announces("UCI_Variant") && !variant_set {
                    self.send("setoption name UCI_Variant value xiangqi")?;
                }
            }
        }
        for (name, value) in self.spec.options.clone() {
            if !self.announces(&name) {
                return Err(ClientError::Option {
                    engine: self.spec.name.clone(),
                    name,
                    reason: format!(
                        "the engine does not announce it over {}",
                        self.spec.protocol.name()
                    ),
                });
            }
            let line = match self.spec.protocol {
                Protocol::Ucci => format!("setoption {name} {value}"),
                Protocol::Uci | Protocol::Uci1 => format!("setoption name {name} value {value}"),
            };
            self.send(&line)?;
            // Whatever the engine says before `readyok` is its answer to this line.
            self.send("isready")?;
            let mut refusal = None;
            self.wait_for("readyok", deadline, timeout, |l| {
                if l.trim() == "readyok" {
                    return true;
                }
                if refusal.is_none() && is_refusal(l) {
                    refusal = Some(l.trim().to_string());
                }
                false
            })?;
            if let Some(reply) = refusal {
                return Err(ClientError::Option {
                    engine: self.spec.name.clone(),
                    name,
                    reason: format!("the engine answered {reply:?}"),
                });
            }
        }
        self.sync(deadline, timeout)
    }

    fn announces(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    /// The specification it was started from.
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// Prepares for a new game: ends a search left running (`stop`, then its `bestmove`), sends
    /// `ucinewgame` (UCI) or `setoption newgame` (UCCI, if announced), and waits for `readyok`.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), ClientError> {
        if self.broken {
            return Err(ClientError::Died {
                engine: self.spec.name.clone(),
                waiting_for: "a new game",
            });
        }
        let deadline = Instant::now() + timeout;
        if self.searching {
            self.send("stop")?;
            self.wait_for("bestmove after stop", deadline, timeout, |l| {
                is_best_move(l)
            })?;
            self.searching = false;
        }
        match self.spec.protocol {
            Protocol::Ucci => {
                if self.announces("newgame") {
                    self.send("setoption newgame")?;
                }
            }
            Protocol::Uci | Protocol::Uci1 => self.send("ucinewgame")?,
        }
        self.sync(deadline, timeout)
    }

    fn sync(&mut self, deadline: Instant, timeout: Duration) -> Result<(), ClientError> {
        self.send("isready")?;
        self.wait_for("readyok", deadline, timeout, |l| l.trim() == "readyok")?;
        Ok(())
    }

    /// Sends the game so far (`moves` from `start`) and `go`, and waits for the move until
    /// `deadline`. On a timeout it sends `stop` and leaves the search marked unfinished for
    /// [`Client::new_game`] to clear. `banned` goes out as UCCI `banmoves` (UCI has no such
    /// command).
    pub fn search(
        &mut self,
        start: &Position,
        moves: &[Move],
        banned: &[Move],
        limit: GoLimit,
        deadline: Instant,
    ) -> Result<Reply, ClientError> {
        if self.broken {
            return Err(ClientError::Died {
                engine: self.spec.name.clone(),
                waiting_for: "bestmove",
            });
        }
        let position = position_command(self.spec.protocol, start, moves);
        self.send(&position)?;
        if self.spec.protocol == Protocol::Ucci && !banned.is_empty() {
            let list: Vec<String> = banned.iter().map(|m| m.to_string()).collect();
            self.send(&format!("banmoves {}", list.join(" ")))?;
        }
        let to_move = if moves.len().is_multiple_of(2) {
            start.side_to_move()
        } else {
            start.side_to_move().flip()
        };
        let go = go_command(self.spec.protocol, self.millis, limit, to_move);
        self.send(&go)?;
        let sent = Instant::now();
        self.searching = true;
        let mut score = None;
        let mut depth = None;
        let started = Instant::now();
        let total = deadline.saturating_duration_since(started);
        let result = self.wait_for("bestmove", deadline, total, |line| {
            if line.starts_with("info") {
                read_info(line, &mut score, &mut depth);
                false
            } else {
                is_best_move(line)
            }
        });
        let (line, at) = match result {
            Ok(found) => found,
            Err(e) => {
                if matches!(e, ClientError::Timeout { .. }) {
                    // Best effort: a healthy engine answers `stop` with a bestmove we read later.
                    let _ = self.send("stop");
                }
                return Err(e);
            }
        };
        self.searching = false;
        let (choice, resign) = read_best_move(&line, self.spec.protocol.ranks());
        Ok(Reply {
            line,
            choice,
            resign,
            score,
            depth,
            elapsed: at.saturating_duration_since(sent),
        })
    }

    fn send(&mut self, line: &str) -> Result<(), ClientError> {
        if let Some(log) = &self.log {
            log.write(&self.who, ">", line);
        }
        let result = writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush());
        result.map_err(|e| {
            self.broken = true;
            ClientError::Write {
                engine: self.spec.name.clone(),
                error: e.to_string(),
            }
        })
    }

    /// Reads lines until `done` accepts one, the process closes its output, or `deadline`; more
    /// than `MAX_WAIT_LINES` lines or `MAX_WAIT_BYTES` bytes meanwhile is a flood.
    fn wait_for(
        &mut self,
        waiting_for: &'static str,
        deadline: Instant,
        budget: Duration,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<(String, Instant), ClientError> {
        let (mut lines, mut bytes) = (0, 0);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(EngineOutput::Line(line, at)) => {
                    if let Some(log) = &self.log {
                        log.write(&self.who, "<", &line);
                    }
                    if done(&line) {
                        return Ok((line, at));
                    }
                    lines += 1;
                    bytes += line.len() + 1;
                    if lines > MAX_WAIT_LINES || bytes > MAX_WAIT_BYTES {
                        self.broken = true;
                        if let Some(log) = &self.log {
                            log.write(&self.who, "x", "output flood");
                        }
                        return Err(ClientError::Flood {
                            engine: self.spec.name.clone(),
                            waiting_for,
                            lines,
                            bytes,
                        });
                    }
                }
                Ok(EngineOutput::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    self.broken = true;
                    if let Some(log) = &self.log {
                        log.write(&self.who, "x", "output closed");
                    }
                    return Err(ClientError::Died {
                        engine: self.spec.name.clone(),
                        waiting_for,
                    });
                }
                Err(RecvTimeoutError::Timeout) => {
                    if waiting_for != "bestmove" {
                        self.broken = true;
                    }
                    if let Some(log) = &self.log {
                        log.write(
                            &self.who,
                            "x",
                            &format!("timeout waiting for {waiting_for}"),
                        );
                    }
                    return Err(ClientError::Timeout {
                        engine: self.spec.name.clone(),
                        waiting_for,
                        after: budget,
                    });
                }
            }
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if !self.broken && !self.searching {
            let _ = self.send("quit");
            wait_exit(&mut self.child, QUIT_GRACE);
        }
        end_group(&mut self.child);
    }
}
