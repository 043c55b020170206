//! The engine protocols. `run` reads commands line by line, picks UCCI or UCI from the first
//! line, turns each line into a [`Command`] (which commands are accepted depends on the state:
//! boot, idle or busy) and hands it to the [`Engine`]. A bad line becomes an `info` line and the
//! loop goes on. This is the only place engine output is written: search reports come back over a
//! channel, so one thread writes every line, and each line is flushed.

mod ucci;
mod uci;

use crate::engine::{Engine, Report};
use crate::fen::{self, FenError};
use crate::movegen::legal_moves;
use crate::moves::{IllegalMove, Move, MoveTextError, RankStyle};
use crate::options::OptionError;
use crate::position::Position;
use crate::search::score::{MATE, Score};
use crate::search::time::{Deadlines, Limits};
use crate::search::{SearchInfo, SearchResult};
use crate::square::Color;
use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufRead, Read, Write};
use std::process::ExitCode;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// The longest input line read; anything longer is answered with an error and skipped.
pub const MAX_LINE: usize = 1 << 20;

/// The deepest `go perft` the protocol runs inline (deeper counts: `xq perft`).
const MAX_PERFT_DEPTH: u32 = 4;

/// How long `stop` and `quit` wait for a running search to hand back its move.
const STOP_WAIT: Duration = Duration::from_secs(2);

/// Runs the protocol loop until `quit` or the end of the input. The first line picks the
/// protocol: `ucci` gives UCCI, `uci` gives UCI, and a bare `fen …` or `startpos …` line gives UCI
/// in the Cyclone form.
pub fn run<R, W>(input: R, output: W) -> ExitCode
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let (tx, rx) = mpsc::channel();
    let reader_tx = tx.clone();
    // The reader thread is left to end with the process: it may be blocked on stdin.
    std::thread::spawn(move || read_lines(input, reader_tx));
    let mut session = Session::new(output, tx);
    let result = session.serve(&rx);
    let hung = session.finish();
    if hung {
        // A search that does not stop must not hold the exit up.
        std::mem::forget(session);
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::FAILURE,
    }
}

/// Something the main loop reacts to.
enum Event {
    /// A line of input, without its line ending.
    Line(String),
    /// A line longer than `MAX_LINE` was skipped.
    TooLong,
    /// The input has ended.
    Eof,
    /// A report from the search with this number.
    Report(u64, Report),
}

fn read_lines<R: BufRead>(mut input: R, tx: Sender<Event>) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let read = (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf);
        let event = match read {
            Ok(0) | Err(_) => {
                let _ = tx.send(Event::Eof);
                return;
            }
            Ok(_) if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') => {
                // Skip the rest of the overlong line.
                loop {
                    buf.clear();
                    match (&mut input)
                        .take(MAX_LINE as u64)
                        .read_until(b'\n', &mut buf)
                    {
                        Ok(0) | Err(_) => break,
                        Ok(_) if buf.last() == Some(&b'\n') => break,
                        Ok(_) => {}
                    }
                }
                Event::TooLong
            }
            Ok(_) => {
                while matches!(buf.last(), Some(b'\n' | b'\r')) {
                    buf.pop();
                }
                Event::Line(String::from_utf8_lossy(&buf).into_owned())
            }
        };
        if tx.send(event).is_err() {
            return;
        }
    }
}

/// A game set up by `position` (or `probe`): where it starts and the moves since.
#[derive(Clone, Debug)]
struct Setup {
    start: Position,
    moves: Vec<Move>,
    /// Doubts about the FEN that did not stop it being read.
    warnings: Vec<String>,
}

/// What a `go` line asks for.
#[derive(Clone, Debug, Default)]
struct Go {
    limits: Limits,
    /// The opponent offers a draw (UCCI `go draw`).
    draw: bool,
    /// Only these root moves (UCI `searchmoves`); empty means all.
    search_moves: Vec<Move>,
    /// Count leaf nodes to this depth instead of searching (UCI `go perft`).
    perft: Option<u32>,
    /// Print the static evaluation and no move (UCCI `go depth 0`).
    static_eval: bool,
}

impl Go {
    /// Nodes searched for the move that answers a `go` line that could not be read.
    const FALLBACK_NODES: u64 = 20_000;

    /// The search that answers a `go` line that could not be read: short and bounded, so that the
    /// client still gets its move, whatever the clock.
    fn fallback() -> Go {
        Go {
            limits: Limits {
                nodes: Some(Go::FALLBACK_NODES),
                ..Limits::default()
            },
            ..Go::default()
        }
    }
}

/// One parsed input line.
#[derive(Clone, Debug)]
enum Command {
    /// `ucci` or `uci`: identify and list the options.
    Hello,
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    NewGame,
    Position(Setup),
    BanMoves(Vec<Move>),
    Go(Go),
    Stop,
    PonderHit {
        draw: bool,
    },
    Probe(Setup),
    Quit,
    /// UCI `d`: board, FEN and key.
    Show,
    /// UCI `eval`: the static evaluation.
    Eval,
    /// UCI `flip`: swap the colours of the current position.
    Flip,
    /// UCI `debug on|off`.
    Debug(bool),
}

impl Command {
    /// Whether the command is accepted while a search runs.
    fn allowed_while_busy(&self) -> bool {
        matches!(
            self,
            Command::IsReady
                | Command::Stop
                | Command::PonderHit { .. }
                | Command::Probe(_)
                | Command::Quit
                | Command::Debug(_)
        )
    }

    fn name(&self) -> &'static str {
        match self {
            Command::Hello => "the handshake",
            Command::IsReady => "isready",
            Command::SetOption { .. } => "setoption",
            Command::NewGame => "a new game",
            Command::Position(_) => "position",
            Command::BanMoves(_) => "banmoves",
            Command::Go(_) => "go",
            Command::Stop => "stop",
            Command::PonderHit { .. } => "ponderhit",
            Command::Probe(_) => "probe",
            Command::Quit => "quit",
            Command::Show => "d",
            Command::Eval => "eval",
            Command::Flip => "flip",
            Command::Debug(_) => "debug",
        }
    }
}

/// Why a line was not carried out. The protocol prints these as `info` lines and goes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The first word is no command of this protocol.
    Unknown(String),
    /// The command is not accepted while the engine is thinking.
    Busy(&'static str),
    /// A keyword lacks the value that must follow it.
    MissingValue {
        /// The command.
        command: &'static str,
        /// The keyword.
        keyword: String,
    },
    /// A value is not a number in the allowed range.
    BadNumber {
        /// The keyword it belongs to.
        keyword: String,
        /// The text given.
        text: String,
        /// What is allowed.
        expected: &'static str,
    },
    /// A word that the command does not take at this place.
    Unexpected {
        /// The command.
        command: &'static str,
        /// The word.
        word: String,
    },
    /// A keyword given twice.
    Repeated {
        /// The command.
        command: &'static str,
        /// The keyword.
        keyword: String,
    },
    /// `position` or `probe` without `fen` or `startpos`.
    NoPosition(&'static str),
    /// The FEN could not be read.
    Fen(FenError),
    /// Move text that is not a move.
    MoveText {
        /// The parse error.
        error: MoveTextError,
        /// The text has a two-digit rank while ranks are read as 0–9.
        two_digit_rank: bool,
    },
    /// The null move `0000`, which a game here cannot contain.
    NullMove,
    /// A move that is not legal where it is played.
    /// A move that is not legal where it stands, with the move as the client wrote it.
    Illegal {
        /// The error.
        error: IllegalMove,
        /// The move in the client's rank numbering.
        text: String,
    },
    /// Moves a command needs to be legal in the current position are not.
    NotLegalHere {
        /// The command.
        command: &'static str,
        /// The moves, as text.
        moves: Vec<String>,
        /// The position, as FEN.
        fen: String,
    },
    /// An option could not be set.
    Option(OptionError),
    /// A feature this engine does not have.
    Unsupported(String),
    /// A hash table larger than the memory that is free.
    HashTooLarge {
        /// Megabytes asked for.
        asked: u64,
        /// Megabytes the table may have at most now.
        limit: u64,
    },
    /// A line longer than `MAX_LINE` bytes.
    LineTooLong,
    /// `ponderhit` without a pondering search.
    NotPondering,
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Unknown(word) => write!(f, "unknown command '{word}'"),
            CommandError::Busy(what) => {
                write!(f, "{what} is not accepted while thinking; send stop first")
            }
            CommandError::MissingValue { command, keyword } => {
                write!(f, "{command}: '{keyword}' needs a value after it")
            }
            CommandError::BadNumber {
                keyword,
                text,
                expected,
            } => {
                write!(f, "'{keyword}' value '{text}' is not {expected}")
            }
            CommandError::Unexpected { command, word } => {
                write!(f, "{command}: unexpected '{word}'")
            }
            CommandError::Repeated { command, keyword } => {
                write!(f, "{command}: '{keyword}' is given twice")
            }
            CommandError::NoPosition(command) => {
                write!(f, "{command}: expected 'fen <FEN>' or 'startpos'")
            }
            CommandError::Fen(e) => write!(f, "bad FEN: {e}"),
            CommandError::MoveText {
                error,
                two_digit_rank,
            } => {
                write!(f, "{error}")?;
                if *two_digit_rank {
                    write!(
                        f,
                        "; ranks are numbered 0-9 here, for 1-10 send 'setoption name Ranks value 1-10'"
                    )?;
                }
                Ok(())
            }
            CommandError::NullMove => write!(f, "the null move 0000 cannot be part of a game here"),
            CommandError::Illegal { error, text } => write!(
                f,
                "illegal move at ply {}: {text} is not legal in {}",
                error.ply, error.fen
            ),
            CommandError::NotLegalHere {
                command,
                moves,
                fen,
            } => {
                write!(f, "{command}: {} not legal in {fen}", moves.join(" "))?;
                Ok(())
            }
            CommandError::Option(e) => write!(f, "{e}"),
            CommandError::Unsupported(what) => write!(f, "{what}"),
            CommandError::HashTooLarge { asked, limit } => write!(
                f,
                "a hash table of {asked} MB does not fit in the free memory; at most {limit} MB now"
            ),
            CommandError::LineTooLong => {
                write!(f, "line longer than {MAX_LINE} bytes skipped")
            }
            CommandError::NotPondering => write!(f, "ponderhit: the engine is not pondering"),
        }
    }
}

impl std::error::Error for CommandError {}

impl From<FenError> for CommandError {
    fn from(e: FenError) -> CommandError {
        CommandError::Fen(e)
    }
}

impl From<OptionError> for CommandError {
    fn from(e: OptionError) -> CommandError {
        CommandError::Option(e)
    }
}

/// What parsing needs to know about the session.
#[derive(Clone, Copy, Debug)]
struct Context {
    /// How move text numbers the ranks.
    ranks: RankStyle,
    /// UCCI times are milliseconds (else seconds).
    millis: bool,
    /// The side to move in the current position (UCI `wtime` is Red's).
    side: Color,
}

/// The protocol picked by the first line, with its settings.
enum Dialect {
    Ucci(ucci::Settings),
    Uci(uci::Settings),
}

/// A search in progress.
struct Active {
    id: u64,
    limits: Limits,
    /// The root position.
    root: Position,
    /// The opponent offers a draw.
    draw_offered: bool,
    /// The last fully searched score of the best line.
    last_score: Option<Score>,
}

/// Whether the loop goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

struct Session<W: Write> {
    engine: Engine,
    out: W,
    tx: Sender<Event>,
    dialect: Option<Dialect>,
    active: Option<Active>,
    next_id: u64,
    /// Lines held back while a search runs in UCCI batch mode (or while `stop` waits).
    pending: VecDeque<String>,
    /// When to stop a search that was pondering and got `ponderhit`.
    deadline: Option<Instant>,
    eof: bool,
}

impl<W: Write> Session<W> {
    fn new(out: W, tx: Sender<Event>) -> Session<W> {
        Session {
            engine: Engine::new(),
            out,
            tx,
            dialect: None,
            active: None,
            next_id: 0,
            pending: VecDeque::new(),
            deadline: None,
            eof: false,
        }
    }

    /// The main loop.
    fn serve(&mut self, rx: &Receiver<Event>) -> io::Result<()> {
        loop {
            if !self.deferring() {
                if let Some(line) = self.pending.pop_front() {
                    if self.handle_line(&line, rx)? == Flow::Quit {
                        return Ok(());
                    }
                    continue;
                }
                if self.eof && self.active.is_none() {
                    return Ok(());
                }
            }
            let event = match self.deadline {
                Some(d) => match rx.recv_timeout(d.saturating_duration_since(Instant::now())) {
                    Ok(e) => e,
                    Err(RecvTimeoutError::Timeout) => {
                        self.deadline = None;
                        if self.active.is_some() {
                            self.engine.stop();
                        }
                        continue;
                    }
                    Err(RecvTimeoutError::Disconnected) => return Ok(()),
                },
                None => match rx.recv() {
                    Ok(e) => e,
                    Err(_) => return Ok(()),
                },
            };
            match event {
                Event::Line(line) => {
                    // In batch mode nothing is read until the move, not even `quit`: a batch
                    // file's last line must not cut its search short.
                    if self.deferring() {
                        self.pending.push_back(line);
                    } else if self.handle_line(&line, rx)? == Flow::Quit {
                        return Ok(());
                    }
                }
                Event::TooLong => self.error(&CommandError::LineTooLong)?,
                Event::Eof => {
                    self.eof = true;
                    if let Some(active) = &self.active {
                        // In batch mode a search with limits ends by itself; otherwise the end of
                        // the input is a quit.
                        let finite = !active.limits.infinite && !active.limits.ponder;
                        if !(self.batch() && finite) {
                            self.engine.stop();
                        }
                    }
                }
                Event::Report(id, report) => self.on_report(id, report)?,
            }
        }
    }

    /// Stops any search before the session ends; true if it did not stop in time.
    fn finish(&mut self) -> bool {
        if self.active.is_none() {
            return false;
        }
        self.engine.stop();
        let start = Instant::now();
        while self.engine.is_searching() {
            if start.elapsed() > STOP_WAIT {
                return true;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        false
    }

    fn batch(&self) -> bool {
        matches!(&self.dialect, Some(Dialect::Ucci(s)) if s.batch)
    }

    /// Whether input lines wait until the running search ends (UCCI batch mode).
    fn deferring(&self) -> bool {
        self.active.is_some() && self.batch()
    }

    fn write_line(&mut self, line: &str) -> io::Result<()> {
        // Echoed input may hold control characters; a client must only ever see whole lines.
        let clean: String = line
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        self.out.write_all(clean.as_bytes())?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }

    fn error(&mut self, e: &CommandError) -> io::Result<()> {
        let line = match &self.dialect {
            Some(Dialect::Ucci(_)) => ucci::message_line(&e.to_string()),
            _ => uci::string_line(&e.to_string()),
        };
        self.write_line(&line)
    }

    fn note(&mut self, text: &str) -> io::Result<()> {
        let line = match &self.dialect {
            Some(Dialect::Ucci(_)) => ucci::message_line(text),
            _ => uci::string_line(text),
        };
        self.write_line(&line)
    }

    fn context(&self) -> Context {
        let (ranks, millis) = match &self.dialect {
            Some(Dialect::Uci(s)) => (s.ranks, true),
            Some(Dialect::Ucci(s)) => (RankStyle::ZeroToNine, s.millis),
            None => (RankStyle::ZeroToNine, true),
        };
        Context {
            ranks,
            millis,
            side: self.engine.position().side_to_move(),
        }
    }

    fn ranks(&self) -> RankStyle {
        self.context().ranks
    }

    fn handle_line(&mut self, line: &str, rx: &Receiver<Event>) -> io::Result<Flow> {
        let line = line.trim();
        let Some(first) = first_word(line) else {
            return Ok(Flow::Continue);
        };
        if self.dialect.is_none() {
            match first {
                "ucci" => self.dialect = Some(Dialect::Ucci(ucci::Settings::default())),
                "uci" | "fen" | "startpos" => {
                    self.dialect = Some(Dialect::Uci(uci::Settings::default()))
                }
                "quit" => return Ok(Flow::Quit),
                _ => {
                    self.error(&CommandError::Unknown(clip(first)))?;
                    return Ok(Flow::Continue);
                }
            }
        }
        let ctx = self.context();
        let parsed = match &self.dialect {
            Some(Dialect::Ucci(_)) => ucci::parse(line, &ctx),
            _ => uci::parse(line, &ctx),
        };
        let command = match parsed {
            Ok(c) => c,
            Err(e) => {
                self.error(&e)?;
                if first == "go" && self.active.is_none() {
                    // A client waits for a move after every `go`: answer after a short search.
                    return self.execute(Command::Go(Go::fallback()), rx);
                }
                return Ok(Flow::Continue);
            }
        };
        if self.active.is_some() && !command.allowed_while_busy() {
            self.error(&CommandError::Busy(command.name()))?;
            return Ok(Flow::Continue);
        }
        self.execute(command, rx)
    }

    fn execute(&mut self, command: Command, rx: &Receiver<Event>) -> io::Result<Flow> {
        match command {
            Command::Hello => {
                let lines = match &self.dialect {
                    Some(Dialect::Ucci(_)) => ucci::handshake(),
                    _ => uci::handshake(),
                };
                for line in lines {
                    self.write_line(&line)?;
                }
            }
            Command::IsReady => self.write_line("readyok")?,
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref())?,
            Command::NewGame => self.engine.new_game(),
            Command::Position(setup) => self.set_position(setup)?,
            Command::BanMoves(moves) => self.ban_moves(moves)?,
            Command::Go(go) => self.go(go)?,
            Command::Stop => {
                if self.active.is_some() {
                    self.engine.stop();
                    self.wait_for_best_move(rx)?;
                } else if let Some(Dialect::Ucci(_)) = &self.dialect {
                    // UCCI answers every stop, so a client never waits for nothing.
                    self.write_line("nobestmove")?;
                }
            }
            Command::PonderHit { draw } => self.ponder_hit(draw)?,
            Command::Probe(setup) => self.probe(setup)?,
            Command::Quit => {
                if self.active.is_some() {
                    self.engine.stop();
                    self.wait_for_best_move(rx)?;
                }
                if let Some(Dialect::Ucci(_)) = &self.dialect {
                    self.write_line("bye")?;
                }
                return Ok(Flow::Quit);
            }
            Command::Show => self.show()?,
            Command::Eval => {
                let pos = self.engine.position().clone();
                let value = self.engine.evaluate(&pos);
                self.write_line(&format!(
                    "Static evaluation: {value} cp for {} (side to move)",
                    pos.side_to_move().name()
                ))?;
            }
            Command::Flip => {
                let flipped = self.engine.position().color_swap();
                if let Err(e) = self.engine.set_position(flipped, &[]) {
                    self.error(&self.illegal(e))?;
                }
            }
            Command::Debug(on) => {
                if let Some(Dialect::Uci(s)) = &mut self.dialect {
                    s.debug = on;
                }
            }
        }
        Ok(Flow::Continue)
    }

    /// After `stop` or `quit`: handles reports until the running search's move is out, holding
    /// input lines back for later.
    fn wait_for_best_move(&mut self, rx: &Receiver<Event>) -> io::Result<()> {
        let start = Instant::now();
        while self.active.is_some() {
            let Some(left) = STOP_WAIT.checked_sub(start.elapsed()) else {
                return Ok(());
            };
            match rx.recv_timeout(left) {
                Ok(Event::Report(id, report)) => self.on_report(id, report)?,
                Ok(Event::Line(line)) => self.pending.push_back(line),
                Ok(Event::TooLong) => self.error(&CommandError::LineTooLong)?,
                Ok(Event::Eof) => self.eof = true,
                Err(_) => return Ok(()),
            }
        }
        Ok(())
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> io::Result<()> {
        let result = match &mut self.dialect {
            Some(Dialect::Ucci(s)) => ucci::set_option(s, &mut self.engine, name, value),
            Some(Dialect::Uci(s)) => uci::set_option(s, &mut self.engine, name, value),
            None => Ok(None),
        };
        match result {
            Ok(Some(note)) => self.note(&note),
            Ok(None) => Ok(()),
            Err(e) => self.error(&e),
        }
    }

    /// The error for an illegal move, naming it as the client writes moves.
    fn illegal(&self, error: IllegalMove) -> CommandError {
        let text = error.mv.text(self.ranks());
        CommandError::Illegal { error, text }
    }

    fn set_position(&mut self, setup: Setup) -> io::Result<()> {
        for w in &setup.warnings {
            self.note(&format!("position: {w}"))?;
        }
        if let Err(e) = self.engine.set_position(setup.start.clone(), &setup.moves) {
            // Keep the legal moves before the bad one.
            let kept = e.ply.saturating_sub(1).min(setup.moves.len());
            let _ = self.engine.set_position(setup.start, &setup.moves[..kept]);
            self.error(&self.illegal(e))?;
            self.note(&format!("position: kept the {kept} moves before it"))?;
        }
        Ok(())
    }

    fn ban_moves(&mut self, moves: Vec<Move>) -> io::Result<()> {
        let legal = legal_moves(self.engine.position());
        let (ok, bad): (Vec<Move>, Vec<Move>) = moves.into_iter().partition(|m| legal.contains(m));
        if !bad.is_empty() {
            let e = CommandError::NotLegalHere {
                command: "banmoves",
                moves: bad.iter().map(|m| m.text(RankStyle::ZeroToNine)).collect(),
                fen: self.engine.fen(),
            };
            self.error(&e)?;
        }
        self.engine.set_banned_moves(ok);
        Ok(())
    }

    fn go(&mut self, go: Go) -> io::Result<()> {
        let pos = self.engine.position().clone();
        let ranks = self.ranks();
        if let Some(depth) = go.perft {
            let mut total = 0u64;
            for (m, n) in crate::perft::divide(&pos, depth) {
                self.write_line(&format!("{}: {n}", m.text(ranks)))?;
                total += n;
            }
            self.write_line("")?;
            return self.write_line(&format!("Nodes searched: {total}"));
        }
        if go.static_eval {
            let line = ucci::static_eval_line(self.engine.evaluate(&pos));
            self.write_line(&line)?;
            return self.write_line("nobestmove");
        }
        if self.batch() && (go.limits.infinite || go.limits.ponder) {
            return self.error(&CommandError::Unsupported(
                "go: an infinite or pondering search cannot end in batch mode; give a depth, nodes or time".into(),
            ));
        }
        if !go.search_moves.is_empty() {
            let legal = legal_moves(&pos);
            let bad: Vec<String> = go
                .search_moves
                .iter()
                .filter(|m| !legal.contains(m))
                .map(|m| m.text(ranks))
                .collect();
            if !bad.is_empty() {
                return self.error(&CommandError::NotLegalHere {
                    command: "go searchmoves",
                    moves: bad,
                    fen: fen::format(&pos),
                });
            }
            let others = legal
                .into_iter()
                .filter(|m| !go.search_moves.contains(m))
                .collect();
            self.engine.set_banned_moves(others);
        }
        if let Some(Dialect::Ucci(s)) = &self.dialect
            && s.debug
        {
            let text = format!("go: {:?}", go.limits);
            self.note(&text)?;
        }
        self.next_id += 1;
        let id = self.next_id;
        let tx = self.tx.clone();
        self.active = Some(Active {
            id,
            limits: go.limits.clone(),
            root: pos,
            draw_offered: go.draw,
            last_score: None,
        });
        self.engine.go(
            go.limits,
            Box::new(move |report| {
                let _ = tx.send(Event::Report(id, report));
            }),
        );
        if !go.search_moves.is_empty() {
            // `searchmoves` holds for this search only; the engine has taken its copy.
            self.engine.set_banned_moves(Vec::new());
        }
        Ok(())
    }

    fn ponder_hit(&mut self, draw: bool) -> io::Result<()> {
        let Some(active) = &mut self.active else {
            return self.error(&CommandError::NotPondering);
        };
        if draw {
            active.draw_offered = true;
        }
        if active.limits.ponder {
            active.limits.ponder = false;
            self.engine.ponderhit();
            // The clock from the `go` line runs from now. The search worked out no deadlines
            // while pondering, so the loop stops it when the share of the clock is used.
            let overhead = self.engine.config().move_overhead;
            let deadlines = Deadlines::new(&active.limits, overhead, Instant::now());
            self.deadline = deadlines.soft.or(deadlines.hard);
        }
        Ok(())
    }

    fn probe(&mut self, setup: Setup) -> io::Result<()> {
        let mut pos = setup.start;
        for (i, &m) in setup.moves.iter().enumerate() {
            if !pos.is_legal(m) {
                let e = IllegalMove {
                    mv: m,
                    fen: fen::format(&pos),
                    ply: i + 1,
                };
                return self.error(&self.illegal(e));
            }
            pos.play(m);
        }
        let entry = self.engine.probe_hash(&pos);
        let line = ucci::pophash_line(entry);
        self.write_line(&line)
    }

    fn show(&mut self) -> io::Result<()> {
        let pos = self.engine.position().clone();
        let ranks = self.ranks();
        for line in board_diagram(&pos, ranks) {
            self.write_line(&line)?;
        }
        self.write_line(&format!("Fen: {}", fen::format(&pos)))?;
        self.write_line(&format!("Key: {:016X}", pos.key()))?;
        let checkers: Vec<String> = pos
            .checkers()
            .into_iter()
            .map(|sq| sq.to_string())
            .collect();
        self.write_line(&format!("Checkers: {}", checkers.join(" ")))
    }

    fn on_report(&mut self, id: u64, report: Report) -> io::Result<()> {
        let Some(active) = &mut self.active else {
            return Ok(());
        };
        if active.id != id {
            return Ok(());
        }
        match report {
            Report::Info(info) => {
                if info.multipv == 1 && info.score.0.abs() <= MATE {
                    active.last_score = Some(info.score);
                }
                let line = match &self.dialect {
                    Some(Dialect::Ucci(_)) => ucci::info_line(&info),
                    Some(Dialect::Uci(s)) => uci::info_line(&info, s),
                    None => return Ok(()),
                };
                self.write_line(&line)
            }
            Report::BestMove(result) => {
                let Some(active) = self.active.take() else {
                    return Ok(());
                };
                self.deadline = None;
                let ponder = usable_ponder(&active.root, &result);
                let lines = match &self.dialect {
                    Some(Dialect::Ucci(_)) => vec![ucci::best_move_line(&result, ponder, &active)],
                    Some(Dialect::Uci(s)) => uci::best_move_lines(&result, ponder, s),
                    None => Vec::new(),
                };
                for line in lines {
                    self.write_line(&line)?;
                }
                Ok(())
            }
        }
    }
}

/// The ponder move to announce: the expected reply, unless it ends the game (a client would then
/// ponder on a position with no move).
fn usable_ponder(root: &Position, result: &SearchResult) -> Option<Move> {
    let (best, ponder) = (result.best?, result.ponder?);
    if !root.is_legal(best) {
        return None;
    }
    let mut pos = root.clone();
    pos.play(best);
    if !pos.is_legal(ponder) {
        return None;
    }
    pos.play(ponder);
    (!legal_moves(&pos).is_empty()).then_some(ponder)
}

/// The board as text, Black at the top, with file letters and rank numbers.
fn board_diagram(pos: &Position, ranks: RankStyle) -> Vec<String> {
    let mut lines = Vec::new();
    for rank in (0..10u8).rev() {
        let label = match ranks {
            RankStyle::ZeroToNine => rank as u32,
            RankStyle::OneToTen => rank as u32 + 1,
        };
        let mut row = format!("{label:>2} ");
        for file in 0..9u8 {
            let sq = crate::square::Square::from_coords(file as i32, rank as i32);
            let c = sq
                .and_then(|s| pos.piece_at(s))
                .map_or('.', |p| p.fen_char());
            row.push(' ');
            row.push(c);
        }
        lines.push(row);
    }
    lines.push("    a b c d e f g h i".to_string());
    lines
}

fn first_word(line: &str) -> Option<&str> {
    line.split_ascii_whitespace().next()
}

/// `c` if no words follow the command, else an error naming the first extra word.
fn expect_end(command: &'static str, rest: &[&str], c: Command) -> Result<Command, CommandError> {
    match rest.first() {
        None => Ok(c),
        Some(w) => Err(CommandError::Unexpected {
            command,
            word: clip(w),
        }),
    }
}

/// A word from the input, shortened for an error message.
fn clip(word: &str) -> String {
    const MAX: usize = 40;
    if word.chars().count() <= MAX {
        word.to_string()
    } else {
        let mut s: String = word.chars().take(MAX).collect();
        s.push('…');
        s
    }
}

/// Reads `fen <FEN> | startpos` and an optional `moves …` list from `words`.
fn parse_setup(
    command: &'static str,
    words: &[&str],
    ranks: RankStyle,
) -> Result<Setup, CommandError> {
    let (start, warnings, rest) = match words.first() {
        Some(&"startpos") => (Position::startpos(), Vec::new(), &words[1..]),
        Some(&"fen") => {
            let end = words
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(words.len());
            let text = words[1..end].join(" ");
            if text.is_empty() {
                return Err(CommandError::MissingValue {
                    command,
                    keyword: "fen".into(),
                });
            }
            let (pos, warnings) = fen::parse_lenient(&text)?;
            (
                pos,
                warnings
                    .iter()
                    .map(|w| format!("FEN warning: {w}"))
                    .collect(),
                &words[end..],
            )
        }
        Some(other) => {
            return Err(CommandError::Unexpected {
                command,
                word: clip(other),
            });
        }
        None => return Err(CommandError::NoPosition(command)),
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&"moves", list)) => parse_moves(list, ranks)?,
        Some((other, _)) => {
            return Err(CommandError::Unexpected {
                command,
                word: clip(other),
            });
        }
    };
    Ok(Setup {
        start,
        moves,
        warnings,
    })
}

/// Parses move words in the given rank convention.
fn parse_moves(words: &[&str], ranks: RankStyle) -> Result<Vec<Move>, CommandError> {
    words.iter().map(|w| parse_move(w, ranks)).collect()
}

fn parse_move(word: &str, ranks: RankStyle) -> Result<Move, CommandError> {
    if word == "0000" {
        return Err(CommandError::NullMove);
    }
    Move::parse(word, ranks).map_err(|mut error| {
        let two_digit_rank = ranks == RankStyle::ZeroToNine
            && word
                .as_bytes()
                .windows(2)
                .any(|w| w[0].is_ascii_digit() && w[1].is_ascii_digit());
        error.text = clip(&error.text);
        CommandError::MoveText {
            error,
            two_digit_rank,
        }
    })
}

/// Reads a whole number for `keyword` in `min..=max`.
fn parse_count(
    keyword: &str,
    text: Option<&&str>,
    command: &'static str,
    max: u64,
) -> Result<u64, CommandError> {
    let text = text.ok_or_else(|| CommandError::MissingValue {
        command,
        keyword: keyword.to_string(),
    })?;
    text.parse::<u64>()
        .ok()
        .filter(|&n| n <= max)
        .ok_or_else(|| CommandError::BadNumber {
            keyword: keyword.to_string(),
            text: clip(text),
            expected: "a whole number in range",
        })
}

/// Reads a time for `keyword` in units of `unit`. A negative time (clients send them when a clock
/// has run out) counts as no time left; fractions are allowed.
fn parse_time(
    keyword: &str,
    text: Option<&&str>,
    command: &'static str,
    unit: Duration,
) -> Result<Duration, CommandError> {
    let text = text.ok_or_else(|| CommandError::MissingValue {
        command,
        keyword: keyword.to_string(),
    })?;
    let bad = || CommandError::BadNumber {
        keyword: keyword.to_string(),
        text: clip(text),
        expected: "a time (a number, at most about 30 years)",
    };
    let value: f64 = if let Ok(n) = text.parse::<i64>() {
        n as f64
    } else if text
        .bytes()
        .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-')
    {
        text.parse::<f64>().map_err(|_| bad())?
    } else {
        return Err(bad());
    };
    if !value.is_finite() {
        return Err(bad());
    }
    let seconds = value.max(0.0) * unit.as_secs_f64();
    if seconds > 1e9 {
        return Err(bad());
    }
    Duration::try_from_secs_f64(seconds).map_err(|_| bad())
}

/// The largest hash table, in megabytes, that fits in the memory free now; `None` if unknown.
fn hash_limit_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_ascii_whitespace().nth(1)?.parse().ok()?;
    // The old table is still there while the new one is filled; keep half the free memory.
    Some((kb / 1024 / 2).max(16))
}

/// Refuses a hash size that would exhaust memory (allocation failure aborts the process).
fn check_hash_size(mb: u64) -> Result<(), CommandError> {
    match hash_limit_mb() {
        Some(limit) if mb > limit => Err(CommandError::HashTooLarge { asked: mb, limit }),
        _ => Ok(()),
    }
}

/// A search line as move text.
fn pv_text(info: &SearchInfo, ranks: RankStyle) -> String {
    info.pv
        .iter()
        .map(|m| m.text(ranks))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_parse_strictly() {
        let ms = Duration::from_millis(1);
        assert_eq!(
            parse_time("time", Some(&"1500"), "go", ms),
            Ok(Duration::from_millis(1500))
        );
        assert_eq!(
            parse_time("time", Some(&"-20"), "go", ms),
            Ok(Duration::ZERO)
        );
        assert_eq!(
            parse_time("time", Some(&"1.5"), "go", Duration::from_secs(1)),
            Ok(Duration::from_millis(1500))
        );
        assert!(parse_time("time", Some(&"abc"), "go", ms).is_err());
        assert!(parse_time("time", Some(&"1e400"), "go", ms).is_err());
        assert!(parse_time("time", Some(&"99999999999999999999999"), "go", ms).is_err());
        assert!(parse_time("time", None, "go", ms).is_err());
    }

    #[test]
    fn setups() {
        let s = parse_setup(
            "position",
            &["startpos", "moves", "h2e2", "h9g7"],
            RankStyle::ZeroToNine,
        )
        .unwrap();
        assert_eq!(s.moves.len(), 2);
        let fen: Vec<&str> =
            "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves"
                .split(' ')
                .collect();
        assert!(
            parse_setup("position", &fen, RankStyle::ZeroToNine)
                .unwrap()
                .moves
                .is_empty()
        );
        assert!(parse_setup("position", &["startpos", "junk"], RankStyle::ZeroToNine).is_err());
        assert!(parse_setup("position", &[], RankStyle::ZeroToNine).is_err());
        let e = parse_setup(
            "position",
            &["startpos", "moves", "h10g8"],
            RankStyle::ZeroToNine,
        )
        .unwrap_err();
        assert!(e.to_string().contains("Ranks"), "{e}");
        let s = parse_setup(
            "position",
            &["startpos", "moves", "h3e3", "h10g8"],
            RankStyle::OneToTen,
        )
        .unwrap();
        assert_eq!(s.moves[1].text(RankStyle::ZeroToNine), "h9g7");
    }
}
