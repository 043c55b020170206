//! One protocol session: reads events from the loop, turns lines into commands in the dialect
//! the first line picked, hands them to the [`Engine`] and writes every answer. Which commands
//! are accepted depends on the state (no dialect yet, idle or busy); a bad line becomes a message
//! and the session goes on.

use super::command::{Command, CommandError, Go, Setup};
use super::dialect::{self, Dialect};
use super::words::{clip, first_word};
use super::{Event, InputGate, uci};
use crate::engine::{Engine, GoError, Report};
use crate::moves::{IllegalMove, RankStyle};
use crate::search::score::{MATE, Score};
use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender};
use std::time::{Duration, Instant};

/// How long `stop` and `quit` wait for a running search to hand back its move.
const STOP_WAIT: Duration = Duration::from_secs(2);

/// A search in progress.
struct Active {
    id: u64,
    /// The search runs until `stop` (infinite or pondering).
    open_ended: bool,
    /// The opponent offers a draw.
    draw_offered: bool,
    /// The last fully searched score of the best line.
    last_score: Option<Score>,
}

/// Whether the loop goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Flow {
    Continue,
    Quit,
}

pub(super) struct Session<W: Write> {
    engine: Engine,
    out: W,
    tx: Sender<Event>,
    dialect: Option<Box<dyn Dialect>>,
    active: Option<Active>,
    next_id: u64,
    /// Lines held back while a search runs in UCCI batch mode (or while `stop` waits).
    pending: VecDeque<String>,
    /// Counts the input read but not yet handled (held back in `pending` or on the channel).
    gate: Arc<InputGate>,
    eof: bool,
    /// The last `position` line could not be read: the engine's position is not the client's, so
    /// `go` is refused until a position is accepted.
    position_rejected: bool,
}

impl<W: Write> Session<W> {
    pub fn new(out: W, tx: Sender<Event>, gate: Arc<InputGate>) -> Session<W> {
        Session {
            engine: Engine::new(),
            out,
            tx,
            dialect: None,
            active: None,
            next_id: 0,
            pending: VecDeque::new(),
            gate,
            eof: false,
            position_rejected: false,
        }
    }

    /// The main loop: until `quit`, or the end of the input once no search runs.
    pub fn serve(&mut self, rx: &Receiver<Event>) -> io::Result<()> {
        loop {
            if !self.deferring() {
                if let Some(line) = self.pending.pop_front() {
                    self.gate.leave(line.len());
                    if self.handle_line(&line, rx)? == Flow::Quit {
                        return Ok(());
                    }
                    continue;
                }
                if self.eof && self.active.is_none() {
                    return Ok(());
                }
            }
            let Ok(event) = rx.recv() else {
                return Ok(());
            };
            match event {
                Event::Line(line) => {
                    // In batch mode nothing is read until the move, not even `quit`: a batch
                    // file's last line must not cut its search short.
                    if self.deferring() {
                        self.pending.push_back(line);
                        continue;
                    }
                    self.gate.leave(line.len());
                    if self.handle_line(&line, rx)? == Flow::Quit {
                        return Ok(());
                    }
                }
                Event::TooLong(first) => self.too_long(&first)?,
                Event::Eof => {
                    self.eof = true;
                    if let Some(active) = &self.active {
                        // In batch mode a search with limits ends by itself; otherwise the end of
                        // the input is a quit.
                        if !self.batch() || active.open_ended {
                            self.engine.stop();
                        }
                    }
                }
                Event::Report(id, report) => self.on_report(id, report)?,
            }
        }
    }

    /// Stops any search before the session ends; true if it did not stop in time.
    pub fn finish(&mut self) -> bool {
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
        self.dialect.as_ref().is_some_and(|d| d.batch())
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

    fn write_lines(&mut self, lines: Vec<String>) -> io::Result<()> {
        lines.iter().try_for_each(|line| self.write_line(line))
    }

    /// A line too long to read, skipped: a position it set is refused as a position that could not
    /// be read is, so the next `go` does not search the position before it.
    fn too_long(&mut self, first: &str) -> io::Result<()> {
        if matches!(first, "position" | "fen" | "startpos") && self.active.is_none() {
            self.position_rejected = true;
        }
        self.error(&CommandError::LineTooLong)
    }

    fn error(&mut self, e: &CommandError) -> io::Result<()> {
        self.note(&e.to_string())
    }

    /// A message in the session's dialect (UCI's before the first line has picked one).
    fn note(&mut self, text: &str) -> io::Result<()> {
        let line = match &self.dialect {
            Some(d) => d.message(text),
            None => uci::string_line(text),
        };
        self.write_line(&line)
    }

    fn ranks(&self) -> RankStyle {
        self.dialect
            .as_ref()
            .map_or(RankStyle::ZeroToNine, |d| d.ranks())
    }

    fn handle_line(&mut self, line: &str, rx: &Receiver<Event>) -> io::Result<Flow> {
        // A byte-order mark some clients put before their first line is not part of the command.
        let line = line.trim_start_matches('\u{feff}').trim();
        let Some(first) = first_word(line) else {
            return Ok(Flow::Continue);
        };
        let dialect = match &self.dialect {
            Some(d) => d,
            None => match dialect::pick(first) {
                Some(d) => self.dialect.insert(d),
                None if first == "quit" => return Ok(Flow::Quit),
                None => {
                    self.error(&CommandError::Unknown(clip(first)))?;
                    return Ok(Flow::Continue);
                }
            },
        };
        let command = match dialect.parse(line, self.engine.position().side_to_move()) {
            Ok(c) => c,
            Err(e) => {
                self.error(&e)?;
                if matches!(first, "position" | "fen" | "startpos") && self.active.is_none() {
                    self.position_rejected = true;
                }
                if first == "go" && self.active.is_none() {
                    return self.fallback(rx);
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

    /// A client waits for a move after every `go`: when the line could not be carried out, the
    /// answer comes from a short search.
    fn fallback(&mut self, rx: &Receiver<Event>) -> io::Result<Flow> {
        self.execute(Command::Go(Go::fallback()), rx)
    }

    fn execute(&mut self, command: Command, rx: &Receiver<Event>) -> io::Result<Flow> {
        let Some(dialect) = self.dialect.as_mut() else {
            return Ok(Flow::Continue);
        };
        match command {
            Command::Hello => {
                let lines = dialect.handshake();
                self.write_lines(lines)?;
            }
            Command::IsReady => self.write_line("readyok")?,
            Command::SetOption { name, value } => {
                match dialect.set_option(&mut self.engine, &name, value.as_deref()) {
                    Ok(Some(note)) => self.note(&note)?,
                    Ok(None) => {}
                    Err(e) => self.error(&e)?,
                }
            }
            Command::NewGame => self.engine.new_game(),
            Command::Position(setup) => {
                self.position_rejected = false;
                self.set_position(setup)?;
            }
            Command::BanMoves(moves) => {
                if let Err(e) = self.engine.ban_moves(moves) {
                    self.error(&self.not_legal("banmoves", e))?;
                }
            }
            Command::Go(go) if self.position_rejected => {
                let line = dialect.no_move_line();
                for note in &go.notes {
                    self.note(note)?;
                }
                self.error(&CommandError::Unsupported(
                    "go: the last position was not accepted, so this is not the client's position; send a valid position first".into(),
                ))?;
                self.write_line(line)?;
            }
            Command::Go(go) => {
                for note in &go.notes {
                    self.note(note)?;
                }
                let Some(dialect) = self.dialect.as_ref() else {
                    return Ok(Flow::Continue);
                };
                if dialect.debug() {
                    let text = format!("go: {:?}", go.limits);
                    self.note(&text)?;
                }
                if !self.answer_at_once(&go)?
                    && let Err(e) = self.start_search(go)
                {
                    self.error(&e)?;
                    return self.fallback(rx);
                }
            }
            // Only a running search is answered: every `go` gets exactly one answer, so a `stop`
            // that crosses the natural end of a search must not add a second one (a client would
            // pair it with its next `go`; UCCI arbiters score `nobestmove` as a resignation).
            Command::Stop => {
                if self.active.is_some() {
                    self.engine.stop();
                    self.wait_for_best_move(rx)?;
                }
            }
            Command::PonderHit { draw } => self.ponder_hit(draw)?,
            Command::Probe(setup) => self.probe(setup)?,
            Command::Quit => {
                let farewell = dialect.farewell();
                if self.active.is_some() {
                    self.engine.stop();
                    self.wait_for_best_move(rx)?;
                }
                if let Some(line) = farewell {
                    self.write_line(line)?;
                }
                return Ok(Flow::Quit);
            }
            Command::Show => {
                let lines = uci::board_lines(self.engine.position(), dialect.ranks());
                self.write_lines(lines)?;
            }
            Command::Eval => {
                let pos = self.engine.position();
                let line = format!(
                    "Static evaluation: {} cp for {} (side to move)",
                    self.engine.evaluate(pos),
                    pos.side_to_move().name()
                );
                self.write_line(&line)?;
            }
            Command::Flip => self.engine.flip(),
            Command::Debug(on) => dialect.set_debug(on),
            Command::Bench(depth) => {
                let depth = depth.unwrap_or(crate::bench::DEFAULT_DEPTH);
                let result = crate::bench::run(depth);
                let nps = result.nodes as u128 * 1000 / result.millis.max(1);
                let lines = vec![
                    dialect.message(&format!(
                        "bench depth {depth}: {} positions, {} ms",
                        result.per_position.len(),
                        result.millis
                    )),
                    dialect.message(&format!("Nodes searched: {}", result.nodes)),
                    dialect.message(&format!("{} nodes {nps} nps", result.nodes)),
                ];
                self.write_lines(lines)?;
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
                Ok(Event::TooLong(first)) => self.too_long(&first)?,
                Ok(Event::Eof) => self.eof = true,
                Err(_) => return Ok(()),
            }
        }
        Ok(())
    }

    /// The error for an illegal move, naming it as the client writes moves.
    fn illegal(&self, error: IllegalMove) -> CommandError {
        let text = error.mv.text(self.ranks());
        CommandError::Illegal { error, text }
    }

    /// The error for moves a command needs legal here, named as the client writes moves.
    fn not_legal(&self, command: &'static str, e: GoError) -> CommandError {
        match e {
            GoError::MovesNotLegal { moves, fen } => CommandError::NotLegalHere {
                command,
                moves: moves.iter().map(|m| m.text(self.ranks())).collect(),
                fen,
            },
            GoError::NoThread(error) => CommandError::Unsupported(format!(
                "{command}: the search thread could not be started: {error}"
            )),
        }
    }

    fn set_position(&mut self, setup: Setup) -> io::Result<()> {
        for w in &setup.warnings {
            self.note(&format!("position: {w}"))?;
        }
        if let Err(e) = self.engine.set_position(setup.start, &setup.moves) {
            self.error(&self.illegal(e))?;
            let kept = self.engine.game().plies();
            self.note(&format!("position: kept the {kept} moves before it"))?;
        }
        Ok(())
    }

    /// Answers a `go` line that asks for no search (perft, the static evaluation); false if it
    /// asks for a search.
    fn answer_at_once(&mut self, go: &Go) -> io::Result<bool> {
        let Some(dialect) = self.dialect.as_ref() else {
            return Ok(true);
        };
        let lines = if let Some(depth) = go.perft {
            let ranks = dialect.ranks();
            let divide = self.engine.perft_divide(depth);
            let total: u64 = divide.iter().map(|(_, n)| n).sum();
            let mut lines: Vec<String> = divide
                .iter()
                .map(|(m, n)| format!("{}: {n}", m.text(ranks)))
                .collect();
            lines.push(String::new());
            lines.push(format!("Nodes searched: {total}"));
            lines
        } else if go.static_eval {
            dialect.static_eval_lines(self.engine.evaluate(self.engine.position()))
        } else {
            return Ok(false);
        };
        self.write_lines(lines)?;
        Ok(true)
    }

    /// Starts the search a `go` line asks for. An error means nothing was started, and the
    /// client still waits for a move.
    fn start_search(&mut self, go: Go) -> Result<(), CommandError> {
        if self.batch() && (go.limits.infinite || go.limits.ponder) {
            return Err(CommandError::Unsupported(
                "go: an infinite or pondering search cannot end in batch mode; give a depth, nodes or time".into(),
            ));
        }
        self.next_id += 1;
        let id = self.next_id;
        let tx = self.tx.clone();
        let open_ended = go.limits.infinite || go.limits.ponder;
        self.engine
            .go(
                go.limits,
                Box::new(move |report| {
                    let _ = tx.send(Event::Report(id, report));
                }),
            )
            .map_err(|e| self.not_legal("go searchmoves", e))?;
        self.active = Some(Active {
            id,
            open_ended,
            draw_offered: go.draw,
            last_score: None,
        });
        Ok(())
    }

    fn ponder_hit(&mut self, draw: bool) -> io::Result<()> {
        let Some(active) = &mut self.active else {
            return self.error(&CommandError::NotPondering);
        };
        if draw {
            active.draw_offered = true;
        }
        active.open_ended = false;
        // The engine starts the move's clock now; the search keeps its own time from here.
        self.engine.ponderhit();
        Ok(())
    }

    fn probe(&mut self, setup: Setup) -> io::Result<()> {
        match self.engine.probe(&setup.start, &setup.moves) {
            Ok(probe) => {
                let line = super::ucci::pophash_line(probe);
                self.write_line(&line)
            }
            Err(e) => self.error(&self.illegal(e)),
        }
    }

    fn on_report(&mut self, id: u64, report: Report) -> io::Result<()> {
        let (Some(active), Some(dialect)) = (&mut self.active, &self.dialect) else {
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
                let line = dialect.info_line(&info);
                self.write_line(&line)
            }
            Report::CurrentMove(current) => {
                let line = dialect.current_move_line(&current);
                self.write_line(&line)
            }
            Report::Book(choice) => {
                let line = dialect.message(&format!(
                    "book move {} (played in {} master games, scoring {:.1} %)",
                    choice.mv.text(dialect.ranks()),
                    choice.games,
                    100.0 * choice.score()
                ));
                self.write_line(&line)
            }
            Report::BestMove(result) => {
                let offer = self.engine.offer(active.last_score, active.draw_offered);
                let ponder = self.engine.ponder_move(&result);
                let lines = dialect.best_move_lines(&result, ponder, offer);
                self.active = None;
                let asked = self.engine.threads();
                // A book move searched nothing: no thread was asked to start.
                if result.threads > 0 && result.threads < asked {
                    self.note(&format!(
                        "only {} of the {asked} search threads could be started",
                        result.threads
                    ))?;
                }
                self.write_lines(lines)
            }
        }
    }
}
