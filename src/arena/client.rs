//! Drives an external engine process over UCCI or UCI (ranks 0–9, or 1–10 as Fairy-Stockfish
//! speaks UCI): start-up handshake, options, new games and one search at a time. A reader thread
//! per process turns its output into lines on a channel, and every wait has a deadline, so a hung
//! or dead engine is noticed instead of blocking the match.

use crate::fen;
use crate::judge::History;
use crate::moves::{Move, MoveTextError, RankStyle};
use crate::position::Position;
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCCI 3.0: `ucci`, positions from the last capture, `banmoves`, times in seconds unless
    /// `usemillisec` is on.
    Ucci,
    /// UCI with ranks 0–9 (Pikafish).
    Uci,
    /// UCI with ranks 1–10 (Fairy-Stockfish).
    Uci1,
}

impl Protocol {
    /// The rank numbering of its move text.
    pub fn ranks(self) -> RankStyle {
        match self {
            Protocol::Uci1 => RankStyle::OneToTen,
            Protocol::Ucci | Protocol::Uci => RankStyle::ZeroToNine,
        }
    }

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Ucci => "ucci",
            Protocol::Uci => "uci",
            Protocol::Uci1 => "uci1",
        }
    }
}

/// Which unit UCCI clock values are sent in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeUnit {
    /// Milliseconds if the engine announces `usemillisec` (we then switch it on), else seconds.
    Auto,
    /// Whole seconds, whatever the engine announces.
    Seconds,
    /// Milliseconds; `usemillisec` is switched on if announced. Some engines (Debian's
    /// Fairy-Stockfish 11.1) read milliseconds without announcing the option.
    Millis,
}

/// How to start and talk to one engine: `NAME=CMD[,proto=ucci|uci|uci1][,units=s|ms][,opt.K=V]…`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name used in results and game records.
    pub name: String,
    /// The program to run.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The protocol.
    pub protocol: Protocol,
    /// The unit of UCCI clock values (ignored for UCI, which always uses milliseconds).
    pub units: TimeUnit,
    /// Options to set after the handshake, in order.
    pub options: Vec<(String, String)>,
}

/// Why an engine specification could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    /// The specification given.
    pub spec: String,
    /// What is wrong.
    pub problem: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad engine {:?}: {} (expected NAME=CMD[,proto=ucci|uci|uci1][,units=s|ms][,opt.K=V]...)",
            self.spec, self.problem
        )
    }
}

impl std::error::Error for SpecError {}

impl std::str::FromStr for EngineSpec {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<EngineSpec, SpecError> {
        let err = |problem: String| SpecError {
            spec: s.to_string(),
            problem,
        };
        let mut fields = s.split(',');
        let head = fields.next().unwrap_or("");
        let (name, cmd) = head
            .split_once('=')
            .ok_or_else(|| err("no '=' between the name and the command".into()))?;
        let name = name.trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(err(format!("the name {name:?} must be one non-empty word")));
        }
        let mut words = split_command(cmd).map_err(err)?.into_iter();
        let program = words
            .next()
            .ok_or_else(|| err("the command is empty".into()))?;
        let mut spec = EngineSpec {
            name: name.to_string(),
            program,
            args: words.collect(),
            protocol: Protocol::Ucci,
            units: TimeUnit::Auto,
            options: Vec::new(),
        };
        for field in fields {
            let (key, value) = field
                .split_once('=')
                .ok_or_else(|| err(format!("setting {field:?} has no '='")))?;
            match key.trim() {
                "proto" => {
                    spec.protocol = match value.trim() {
                        "ucci" => Protocol::Ucci,
                        "uci" => Protocol::Uci,
                        "uci1" => Protocol::Uci1,
                        other => return Err(err(format!("unknown protocol {other:?}"))),
                    }
                }
                "units" => {
                    spec.units = match value.trim() {
                        "auto" => TimeUnit::Auto,
                        "s" => TimeUnit::Seconds,
                        "ms" => TimeUnit::Millis,
                        other => return Err(err(format!("unknown time unit {other:?}"))),
                    }
                }
                k => match k.strip_prefix("opt.") {
                    Some(option) if !option.is_empty() => {
                        spec.options.push((option.to_string(), value.to_string()))
                    }
                    _ => return Err(err(format!("unknown setting {k:?}"))),
                },
            }
        }
        Ok(spec)
    }
}

/// Splits a command line into words at blanks; single or double quotes group words.
fn split_command(cmd: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote = None;
    for c in cmd.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            None => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err("unbalanced quote in the command".into());
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// Where engine traffic is logged: one line per message, with the time since the match began.
#[derive(Clone)]
pub struct TrafficLog {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
    origin: Instant,
}

impl TrafficLog {
    /// A log writing to `sink`.
    pub fn new(sink: Box<dyn Write + Send>) -> TrafficLog {
        TrafficLog {
            sink: Arc::new(Mutex::new(sink)),
            origin: Instant::now(),
        }
    }

    fn write(&self, who: &str, dir: &str, text: &str) {
        let ms = self.origin.elapsed().as_millis();
        if let Ok(mut sink) = self.sink.lock() {
            let _ = writeln!(sink, "{ms:>9} {who} {dir} {text}");
            let _ = sink.flush();
        }
    }
}

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

/// An evaluation reported by the engine, from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (UCI) or the engine's own units (UCCI: 100 = a horse or cannon).
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// A single number for thresholds: mates count as ±100 000.
    pub fn value(self) -> i32 {
        match self {
            Score::Cp(v) => v,
            Score::Mate(n) if n >= 0 => 100_000,
            Score::Mate(_) => -100_000,
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(v) => write!(f, "{:+.2}", *v as f64 / 100.0),
            Score::Mate(n) if *n >= 0 => write!(f, "+M{n}"),
            Score::Mate(n) => write!(f, "-M{}", -n),
        }
    }
}

/// What the engine chose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// A move in readable coordinates (not yet checked for legality).
    Move(Move),
    /// Text that is not a move in the engine's rank convention.
    Unreadable(MoveTextError),
    /// `nobestmove`, `bestmove (none)`, `bestmove 0000` or an empty `bestmove`.
    NoMove,
}

/// The engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The line as received.
    pub line: String,
    /// The move, or why there is none.
    pub choice: Choice,
    /// The engine resigned (`bestmove … resign`).
    pub resign: bool,
    /// The last score it reported during the search.
    pub score: Option<Score>,
    /// The last depth it reported.
    pub depth: Option<u32>,
    /// From sending `go` to reading the reply.
    pub elapsed: Duration,
}

/// The clock state sent with `go`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoLimit {
    /// Both clocks and increments, by colour index (Red = 0).
    Clock {
        /// Time left for Red and Black.
        left: [Duration; 2],
        /// Increment per move.
        increment: Duration,
    },
    /// A node budget per move.
    Nodes(u64),
    /// A depth per move.
    Depth(u32),
}

enum Event {
    Line(String, Instant),
    Closed,
}

/// The longest line we keep whole; longer output is split.
const MAX_LINE: u64 = 1 << 16;

/// A running engine process.
pub struct Client {
    spec: EngineSpec,
    child: Child,
    stdin: ChildStdin,
    events: Receiver<Event>,
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
        let mut child = Command::new(&spec.program)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| ClientError::Spawn {
                engine: spec.name.clone(),
                program: spec.program.clone(),
                error: e.to_string(),
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(ClientError::Spawn {
                engine: spec.name.clone(),
                program: spec.program.clone(),
                error: "no pipes to the process".into(),
            });
        };
        let (tx, events) = channel();
        let reader = thread::Builder::new()
            .name(format!("{} output", spec.name))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => {
                            let _ = tx.send(Event::Closed);
                            return;
                        }
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                            if tx.send(Event::Line(line, Instant::now())).is_err() {
                                return;
                            }
                        }
                    }
                }
            });
        if let Err(e) = reader {
            let _ = child.kill();
            let _ = child.wait();
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

    /// Whether UCCI clock values go out in milliseconds.
    pub fn uses_millis(&self) -> bool {
        self.millis
    }

    /// Whether the process should be replaced: it died, hung, or left a search unfinished that it
    /// would not stop.
    pub fn is_broken(&self) -> bool {
        self.broken
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

    /// Sends the game so far and `go`, and waits for the move until `deadline`. On a timeout it
    /// sends `stop` and leaves the search marked unfinished for [`Client::new_game`] to clear.
    /// `banned` goes out as UCCI `banmoves` (UCI has no such command).
    pub fn search(
        &mut self,
        history: &History,
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
        let position = self.position_command(history);
        self.send(&position)?;
        if self.spec.protocol == Protocol::Ucci && !banned.is_empty() {
            let list: Vec<String> = banned.iter().map(|m| m.to_string()).collect();
            self.send(&format!("banmoves {}", list.join(" ")))?;
        }
        let red_to_move = history.position().side_to_move() == crate::square::Color::Red;
        let go = self.go_command(limit, red_to_move);
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

    fn position_command(&self, history: &History) -> String {
        let moves: Vec<Move> = history.records()[1..].iter().filter_map(|r| r.mv).collect();
        let from = match self.spec.protocol {
            Protocol::Ucci => last_capture(history, &moves),
            Protocol::Uci | Protocol::Uci1 => 0,
        };
        let base = history.position_at(from);
        let mut cmd = if from == 0 && is_start(base) {
            "position startpos".to_string()
        } else {
            format!("position fen {}", fen::format(base))
        };
        if from < moves.len() {
            cmd.push_str(" moves");
            for m in &moves[from..] {
                cmd.push(' ');
                cmd.push_str(&m.text(self.spec.protocol.ranks()));
            }
        }
        cmd
    }

    fn go_command(&self, limit: GoLimit, red_to_move: bool) -> String {
        match limit {
            GoLimit::Nodes(n) => format!("go nodes {n}"),
            GoLimit::Depth(d) => format!("go depth {d}"),
            GoLimit::Clock { left, increment } => {
                let ms = |d: Duration| d.as_millis().max(1);
                match self.spec.protocol {
                    Protocol::Uci | Protocol::Uci1 => format!(
                        "go wtime {} btime {} winc {} binc {}",
                        ms(left[0]),
                        ms(left[1]),
                        increment.as_millis(),
                        increment.as_millis()
                    ),
                    Protocol::Ucci => {
                        let (own, opp) = if red_to_move {
                            (left[0], left[1])
                        } else {
                            (left[1], left[0])
                        };
                        // Seconds are rounded down (an increment under a second becomes 0), as
                        // UCCI arbiters do; never round a clock up past what is left.
                        let t = |d: Duration| {
                            if self.millis {
                                ms(d)
                            } else {
                                u128::from(d.as_secs())
                            }
                        };
                        let inc = if self.millis {
                            increment.as_millis()
                        } else {
                            u128::from(increment.as_secs())
                        };
                        format!(
                            "go time {} increment {inc} opptime {} oppincrement {inc}",
                            t(own),
                            t(opp)
                        )
                    }
                }
            }
        }
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

    /// Reads lines until `done` accepts one, the process closes its output, or `deadline`.
    fn wait_for(
        &mut self,
        waiting_for: &'static str,
        deadline: Instant,
        budget: Duration,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<(String, Instant), ClientError> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(Event::Line(line, at)) => {
                    if let Some(log) = &self.log {
                        log.write(&self.who, "<", &line);
                    }
                    if done(&line) {
                        return Ok((line, at));
                    }
                }
                Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
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
            let until = Instant::now() + Duration::from_millis(500);
            while Instant::now() < until {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                thread::sleep(Duration::from_millis(10));
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether `pos` is the standard start position (move counters aside).
pub fn is_start(pos: &Position) -> bool {
    pos.key() == Position::startpos().key()
}

/// The number of moves up to and including the last capture (0 if none).
fn last_capture(history: &History, moves: &[Move]) -> usize {
    (0..moves.len())
        .rev()
        .find(|&i| history.position_at(i).captured(moves[i]).is_some())
        .map_or(0, |i| i + 1)
}

fn option_name(protocol: Protocol, line: &str) -> Option<String> {
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

fn is_best_move(line: &str) -> bool {
    matches!(
        line.split_whitespace().next(),
        Some("bestmove" | "nobestmove")
    )
}

fn read_info(line: &str, score: &mut Option<Score>, depth: &mut Option<u32>) {
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
                    Some(&"cp") => words.get(i + 2).and_then(|w| w.parse().ok()).map(Score::Cp),
                    Some(&"mate") => words
                        .get(i + 2)
                        .and_then(|w| w.parse().ok())
                        .map(Score::Mate),
                    // UCCI: a bare number.
                    Some(w) => w.parse().ok().map(Score::Cp),
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

fn read_best_move(line: &str, ranks: RankStyle) -> (Choice, bool) {
    let mut words = line.split_whitespace();
    let resign = line.split_whitespace().skip(2).any(|w| w == "resign");
    if words.next() == Some("nobestmove") {
        return (Choice::NoMove, resign);
    }
    let choice = match words.next() {
        None | Some("(none)" | "0000" | "none" | "null") => Choice::NoMove,
        Some(text) => match Move::parse(text, ranks) {
            Ok(m) => Choice::Move(m),
            Err(e) => Choice::Unreadable(e),
        },
    };
    (choice, resign)
}

/// Whether an engine's line refuses a `setoption`: the words engines use for an unknown option or
/// a bad value (xq's `info string` / `info message` errors, Stockfish-family "No such option").
fn is_refusal(line: &str) -> bool {
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
            ]
            .iter()
            .any(|w| lower.contains(w)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        let s: EngineSpec =
            "fs=/usr/games/fairy-stockfish,proto=uci1,opt.Hash=64,opt.Skill Level=3"
                .parse()
                .unwrap();
        assert_eq!(s.name, "fs");
        assert_eq!(s.program, "/usr/games/fairy-stockfish");
        assert!(s.args.is_empty());
        assert_eq!(s.protocol, Protocol::Uci1);
        assert_eq!(
            s.options,
            vec![
                ("Hash".into(), "64".into()),
                ("Skill Level".into(), "3".into())
            ]
        );
        let s: EngineSpec = "x=xq match --fake-engine 'script=a b',units=ms"
            .parse()
            .unwrap();
        assert_eq!(s.args, vec!["match", "--fake-engine", "script=a b"]);
        assert_eq!((s.protocol, s.units), (Protocol::Ucci, TimeUnit::Millis));
        for bad in [
            "",
            "noequals",
            "=cmd",
            "a=",
            "a=b,proto=xboard",
            "a=b,foo=1",
            "a=b,junk",
            "a='b",
        ] {
            assert!(bad.parse::<EngineSpec>().is_err(), "{bad}");
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
        assert_eq!((score, depth), (Some(Score::Cp(-144)), Some(7)));
        read_info("info depth 8 score 35 pv h2e2", &mut score, &mut depth);
        assert_eq!(score, Some(Score::Cp(35)));
        read_info("info depth 9 score mate -3 nodes 5", &mut score, &mut depth);
        assert_eq!((score, depth), (Some(Score::Mate(-3)), Some(9)));
        read_info("info string depth 99 score 1", &mut score, &mut depth);
        assert_eq!(depth, Some(9));
        let h2e2: Move = "h2e2".parse().unwrap();
        assert_eq!(
            read_best_move("bestmove h2e2 ponder h9g7", RankStyle::ZeroToNine),
            (Choice::Move(h2e2), false)
        );
        assert_eq!(
            read_best_move("bestmove h3e3", RankStyle::OneToTen),
            (Choice::Move(h2e2), false)
        );
        assert_eq!(
            read_best_move("bestmove h2e2 resign", RankStyle::ZeroToNine),
            (Choice::Move(h2e2), true)
        );
        assert_eq!(
            read_best_move("bestmove (none)", RankStyle::ZeroToNine).0,
            Choice::NoMove
        );
        assert_eq!(
            read_best_move("nobestmove", RankStyle::ZeroToNine).0,
            Choice::NoMove
        );
        assert!(matches!(
            read_best_move("bestmove zz99", RankStyle::ZeroToNine).0,
            Choice::Unreadable(_)
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
