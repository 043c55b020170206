//! Scripted protocol sessions against the `xq` binary: golden UCCI and UCI transcripts (matched by
//! structure, not by search numbers), the protocol conformance checks (what real GUIs send), determinism
//! of `go nodes` around `ucinewgame`, and a fuzz run of random and mutated lines after which the
//! engine must still answer `isready`.

mod common;

use common::Rng;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};
use xq::fen;
use xq::movegen::legal_moves;
use xq::moves::{Move, RankStyle};
use xq::position::Position;

/// Longest wait for one expected line (debug builds search slowly).
const LINE_TIMEOUT: Duration = Duration::from_secs(60);

/// Longest wait for the process to exit once told to (a failure past it).
const EXIT_TIMEOUT: Duration = Duration::from_secs(30);

/// How soon what must come at once (the move after `stop`, the exit after `quit`) comes, with
/// room for a loaded machine; the search it ends would never end by itself.
const AT_ONCE: Duration = Duration::from_secs(10);

/// Red to move and checkmated: rooks on a0 and a1 against the lone king on e0.
const MATED: &str = "3k5/9/9/9/9/9/9/9/r8/r3K4 w - - 0 1";

/// Red to move and mated next move whatever it plays (the rook on i8 comes to i0).
const LOST: &str = "3k5/8r/9/P8/9/9/9/9/r8/4K4 w - - 0 1";

/// The start position without Red's rooks, Red to move: clearly worse for Red.
const NO_RED_ROOKS: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABN1 w - - 0 1";

/// A running `xq` with its output read on a thread.
struct Xq {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Receiver<String>,
    held: Option<String>,
    transcript: Vec<String>,
}

impl Xq {
    fn start() -> Xq {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xq"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("xq starts");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut err = child.stderr.take().expect("stderr");
        let (etx, stderr) = mpsc::channel();
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = err.read_to_string(&mut text);
            let _ = etx.send(text);
        });
        Xq {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr,
            held: None,
            transcript: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin
            .write_all(bytes)
            .and_then(|_| stdin.flush())
            .unwrap_or_else(|e| self.fail(&format!("write: {e}")));
    }

    fn fail(&self, why: &str) -> ! {
        let tail = self.transcript.len().saturating_sub(60);
        panic!(
            "{why}\n--- transcript (last lines) ---\n{}",
            self.transcript[tail..].join("\n")
        );
    }

    fn next_line(&mut self) -> String {
        if let Some(line) = self.held.take() {
            return line;
        }
        match self.lines.recv_timeout(LINE_TIMEOUT) {
            Ok(line) => {
                self.transcript.push(format!("< {line}"));
                line
            }
            Err(_) => self.fail("no line from xq in time (or it exited)"),
        }
    }

    /// Reads lines up to and including the first that satisfies `done`.
    fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.next_line();
            let stop = done(&line);
            lines.push(line);
            if stop {
                return lines;
            }
        }
    }

    fn best_move_line(&mut self) -> String {
        let lines = self.until(|l| l.starts_with("bestmove") || l == "nobestmove");
        lines.last().cloned().unwrap_or_default()
    }

    /// Runs a golden transcript: `> line` is sent; `< pattern` must match the next line;
    /// `<* pattern` matches any number of lines; `<~ text` is a line containing `text`.
    fn script(&mut self, script: &str) {
        let mut star: Option<String> = None;
        for raw in script.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if let Some(text) = raw.strip_prefix("> ") {
                if star.is_some() {
                    self.fail(&format!(
                        "script: '<*' must be followed by '<' before {raw:?}"
                    ));
                }
                self.send(text);
            } else if let Some(pattern) = raw.strip_prefix("<* ") {
                star = Some(pattern.to_string());
            } else if let Some(rest) = raw.strip_prefix("<") {
                let (contains, pattern) = match rest.strip_prefix("~ ") {
                    Some(text) => (true, text),
                    None => (false, rest.trim_start()),
                };
                let ok = |line: &str| {
                    if contains {
                        line.contains(pattern)
                    } else {
                        matches(pattern, line)
                    }
                };
                loop {
                    let line = self.next_line();
                    if ok(&line) {
                        star = None;
                        break;
                    }
                    match &star {
                        Some(s) if matches(s, &line) => continue,
                        _ => self.fail(&format!("line {line:?} does not match {raw:?}")),
                    }
                }
            } else {
                self.fail(&format!("script: bad line {raw:?}"));
            }
        }
    }

    /// Sends `isready`; the next line must be `readyok`, so nothing else was pending.
    fn quiet(&mut self) {
        self.script("> isready\n< readyok");
    }

    /// Closes stdin and waits for the exit.
    fn close(mut self, limit: Duration) -> (ExitStatus, String, Duration) {
        drop(self.stdin.take());
        self.wait(limit)
    }

    fn wait(&mut self, limit: Duration) -> (ExitStatus, String, Duration) {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                let err = self
                    .stderr
                    .recv_timeout(Duration::from_secs(5))
                    .unwrap_or_default();
                return (status, err, start.elapsed());
            }
            if start.elapsed() > limit {
                let _ = self.child.kill();
                self.fail("xq did not exit in time");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Xq {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn is_int(t: &str) -> bool {
    let digits = t.strip_prefix('-').unwrap_or(t);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

fn is_move(t: &str, ranks: RankStyle) -> bool {
    Move::parse(t, ranks).is_ok()
        && t.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

/// Token patterns: `<int>`, `<move>`/`<move10>` (ranks 0–9 / 1–10), `<moves>`/`<moves10>` (one or
/// more moves to the end), `<ponder>`/`<ponder10>` (nothing, or `ponder` and a move, to the end),
/// `<any>` (the rest, possibly nothing); other tokens literally.
fn matches(pattern: &str, line: &str) -> bool {
    let p: Vec<&str> = pattern.split(' ').collect();
    let l: Vec<&str> = line.split(' ').collect();
    let mut i = 0;
    for (k, tok) in p.iter().enumerate() {
        match *tok {
            "<any>" => return k == p.len() - 1,
            "<ponder>" | "<ponder10>" => {
                let ranks = if *tok == "<ponder>" {
                    RankStyle::ZeroToNine
                } else {
                    RankStyle::OneToTen
                };
                let rest = &l[i.min(l.len())..];
                return k == p.len() - 1
                    && (rest.is_empty()
                        || rest.len() == 2 && rest[0] == "ponder" && is_move(rest[1], ranks));
            }
            "<moves>" | "<moves10>" => {
                let ranks = if *tok == "<moves>" {
                    RankStyle::ZeroToNine
                } else {
                    RankStyle::OneToTen
                };
                return k == p.len() - 1 && i < l.len() && l[i..].iter().all(|t| is_move(t, ranks));
            }
            _ => {}
        }
        let Some(t) = l.get(i) else { return false };
        let ok = match *tok {
            "<int>" => is_int(t),
            "<move>" => is_move(t, RankStyle::ZeroToNine),
            "<move10>" => is_move(t, RankStyle::OneToTen),
            lit => lit == *t,
        };
        if !ok {
            return false;
        }
        i += 1;
    }
    i == l.len()
}

/// The position after `moves` from `fen`.
fn play(fen_text: &str, moves: &[&str], ranks: RankStyle) -> Position {
    let mut pos = fen::parse_lenient(fen_text).expect("test FEN").0;
    for m in moves {
        let mv = Move::parse(m, ranks).expect("test move");
        assert!(pos.is_legal(mv), "{m} is legal in {pos}");
        pos.play(mv);
    }
    pos
}

/// The move of a `bestmove` line, checked to be legal in `pos`.
fn legal_best(line: &str, pos: &Position, ranks: RankStyle) -> Move {
    let text = line
        .split(' ')
        .nth(1)
        .unwrap_or_else(|| panic!("no move in {line:?}"));
    let mv = Move::parse(text, ranks).unwrap_or_else(|e| panic!("{line:?}: {e}"));
    assert!(
        legal_moves(pos).contains(&mv),
        "{line:?} is not legal in {pos}"
    );
    mv
}

#[test]
fn ucci_golden_transcript() {
    let mut xq = Xq::start();
    xq.script(
        "
        > ucci
        < id name xq
        < id version <any>
        < id author <any>
        < option usemillisec type check default true
        < option hashsize type spin min 0 max <int> default <int>
        < option threads type spin min 0 max <int> default <int>
        < option ponder type check default false
        < option batch type check default false
        < option debug type check default false
        < option newgame type button
        < option evaluation type combo var nnue var handcrafted default nnue
        < option evalfile type string default <any>
        < option repetitionrule type combo var wxf var check-only default wxf
        < option usebook type check default false
        < option bookfiles type string default <any>
        < option randomness type combo var none var small var medium var large default medium
        < ucciok
        > setoption promotion false
        > setoption ponder false
        > setoption newgame
        > setoption usemillisec true
        > setoption hashsize 8
        > setoption threads 1
        > setoption repetition 3
        < info message repetition was dropped in UCCI 3.0 and is ignored
        > setoption frobnicate 7
        < info message unknown option 'frobnicate' ignored
        > setoption style risky
        < info message style is not supported by this engine and is ignored
        > setoption hashsize lots
        < info message 'hashsize' value 'lots' is not a whole number in the announced range
        > isready
        < readyok
        > position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h9g7
        > go depth 3
        <* info depth <int> score <int> time <int> nodes <int> pv <moves>
        < bestmove <move> <ponder>
        > go time 2000 increment 0 opptime 2000 oppincrement 0
        <* info depth <int> score <int> time <int> nodes <int> pv <moves>
        < bestmove <move> <ponder>
        > go depth 0
        < info depth 0 score <int>
        < nobestmove
        > stop
        > isready
        < readyok
        > xyzzy plugh
        < info message unknown command 'xyzzy'
        > position startpos moves h2e2 h10e9
        <~ bad move text
        > go nodes 1500
        < info message go: the last position was not accepted, <any>
        < nobestmove
        > position startpos moves h2e2
        > go nodes 1500
        <* info depth <int> score <int> time <int> nodes <int> pv <moves>
        < bestmove <move> <ponder>
        > probe startpos
        < pophash <any>
        > go time 2000 frobnicate 3
        < info message <any>
        <* info depth <int> score <int> time <int> nodes <int> pv <moves>
        < bestmove <move> <ponder>
        > position fen 3k5/9/9/9/9/9/9/9/r8/r3K4 w - - 0 1
        > go depth 3
        < nobestmove
        > isready
        < readyok
        > quit
        < bye
        ",
    );
    let (status, stderr, _) = xq.wait(EXIT_TIMEOUT);
    assert!(status.success(), "exit status {status}");
    assert!(stderr.is_empty(), "stderr: {stderr}");
}

#[test]
fn uci_golden_transcript() {
    let mut xq = Xq::start();
    xq.script(
        "
        > uci
        < id name xq <any>
        < id author <any>
        <* option name <any>
        < uciok
        > isready
        < readyok
        > ucinewgame
        > position startpos moves h2e2 h9g7
        > go depth 3
        <* info depth <int> seldepth <int> multipv 1 score cp <int> nodes <int> nps <int> hashfull <int> time <int> pv <moves>
        < bestmove <move> <ponder>
        > fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves h2e2
        > go btime 3000 wtime 2900 movestogo 40
        <* info depth <int> seldepth <int> multipv 1 score <any>
        < bestmove <move> <ponder>
        > setoption name UCI_ShowWDL value true
        > position startpos
        > go depth 2
        <* info depth <int> seldepth <int> multipv 1 score cp <int> wdl <int> <int> <int> nodes <any>
        < bestmove <move> <ponder>
        > setoption name UCI_ShowWDL value maybe
        < info string option UCI_ShowWDL: value \"maybe\" is not true or false
        > position startpos moves h10g8
        <~ setoption name Ranks value 1-10
        > setoption name Ranks value 1-10
        > position startpos moves h3e3 h10g8
        > go depth 2
        <* info depth <int> seldepth <int> multipv 1 score cp <int> wdl <int> <int> <int> nodes <any>
        < bestmove <move10> <ponder10>
        > setoption name Ranks value 0-9
        > position fen 3k5/9/9/9/9/9/9/9/r8/r3K4 w
        > go depth 3
        < info depth 0 score mate 0
        < bestmove (none)
        > position startpos
        > go mate 1
        <* info depth 1 seldepth <int> multipv 1 score <any>
        < bestmove <move> <ponder>
        > go movestogo 0 wtime 1000 btime 1000
        < info string <any>
        <* info depth <int> seldepth <int> multipv 1 score <any>
        < bestmove <move> <ponder>
        > go frobnicate
        < info string <any>
        <* info depth <int> seldepth <int> multipv 1 score <any>
        < bestmove <move> <ponder>
        > go searchmoves h2e2 a0a5 depth 2
        < info string go searchmoves: a0a5 not legal in <any>
        <* info depth <int> seldepth <int> multipv 1 score <any>
        < bestmove <move> <ponder>
        > position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w
        < info string bad FEN: <any>
        > go depth 2
        < info string go: the last position was not accepted, <any>
        < bestmove (none)
        > position startpos
        > setoption name Frobnicate value 1
        < info string unknown option \"Frobnicate\"
        > frobnicate
        < info string unknown command 'frobnicate'
        > stop
        > isready
        < readyok
        > quit
        ",
    );
    let (status, stderr, _) = xq.wait(EXIT_TIMEOUT);
    assert!(status.success(), "exit status {status}");
    assert!(stderr.is_empty(), "stderr: {stderr}");
}

#[test]
fn uci_options_announced() {
    let mut xq = Xq::start();
    xq.send("uci");
    let lines = xq.until(|l| l == "uciok");
    for name in [
        "Hash",
        "Threads",
        "Ponder",
        "MultiPV",
        "Move Overhead",
        "UCI_ShowWDL",
        "Clear Hash",
        "OwnBook",
        "BookFile",
        "BookVariety",
    ] {
        let prefix = format!("option name {name} type ");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "no {name} in {lines:#?}"
        );
    }
    assert!(
        lines.contains(&"option name Ranks type combo default 0-9 var 0-9 var 1-10".to_string())
    );
}

#[test]
fn first_line_picks_the_protocol() {
    // Unknown first line: an error, and the engine still waits for its protocol.
    let mut xq = Xq::start();
    xq.script("> hello\n< info string unknown command 'hello'\n> ucci\n<* <any>\n< ucciok");
    // `uci` after UCCI was chosen does not switch.
    xq.script("> uci\n< info message unknown command 'uci'");
    xq.quiet();

    // A byte-order mark before the first line does not hide the protocol.
    let mut xq = Xq::start();
    xq.script("> \u{feff}uci\n<* <any>\n< uciok");
    xq.quiet();

    // Lines ended by CR alone (or CR LF) are lines.
    let mut xq = Xq::start();
    xq.send_bytes(b"ucci\risready\r\nisready\r");
    xq.script("<* <any>\n< ucciok\n< readyok\n< readyok");
    xq.quiet();

    // A bare FEN line: UCI in the Cyclone form, no handshake needed.
    let mut xq = Xq::start();
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r";
    xq.send(&format!("fen {fen} moves h2e2"));
    xq.send("go btime 2000 wtime 2000");
    let best = xq.best_move_line();
    legal_best(
        &best,
        &play(fen, &["h2e2"], RankStyle::ZeroToNine),
        RankStyle::ZeroToNine,
    );
    xq.quiet();

    let mut xq = Xq::start();
    xq.send("startpos moves h2e2 h9g7");
    xq.send("go depth 2");
    let best = xq.best_move_line();
    legal_best(
        &best,
        &play(fen::START_FEN, &["h2e2", "h9g7"], RankStyle::ZeroToNine),
        RankStyle::ZeroToNine,
    );
    let (status, _, _) = xq.close(EXIT_TIMEOUT);
    assert!(status.success());
}

#[test]
fn ucci_banned_moves_are_never_played() {
    let mut xq = Xq::start();
    xq.script("> ucci\n<* <any>\n< ucciok");
    let start = Position::startpos();
    let mut banned: Vec<String> = Vec::new();
    for _ in 0..4 {
        xq.send("setoption newgame");
        xq.send("position startpos");
        if !banned.is_empty() {
            xq.send(&format!("banmoves {}", banned.join(" ")));
        }
        xq.send("go depth 3");
        let best = xq.best_move_line();
        let mv = legal_best(&best, &start, RankStyle::ZeroToNine).to_string();
        assert!(!banned.contains(&mv), "{mv} was banned: {banned:?}");
        banned.push(mv);
    }
    // The next `position` clears the list: the first choice comes back.
    xq.send("setoption newgame");
    xq.send("position startpos");
    xq.send("go depth 3");
    let best = xq.best_move_line();
    assert_eq!(
        legal_best(&best, &start, RankStyle::ZeroToNine).to_string(),
        banned[0]
    );
    // A banned move that is not legal is reported; the legal ones still count.
    xq.send("position startpos");
    xq.script(&format!(
        "> banmoves a0a5 {}\n<~ banmoves: a0a5 not legal",
        banned[0]
    ));
    xq.send("go depth 3");
    let best = xq.best_move_line();
    assert_ne!(
        legal_best(&best, &start, RankStyle::ZeroToNine).to_string(),
        banned[0]
    );
}

#[test]
fn ucci_draw_offers_and_resignation() {
    let mut xq = Xq::start();
    xq.script("> ucci\n<* <any>\n< ucciok");
    // Clearly worse: accept the offered draw.
    xq.send(&format!("position fen {NO_RED_ROOKS}"));
    xq.send("go draw depth 3");
    let line = xq.best_move_line();
    assert!(line.ends_with(" draw"), "{line}");
    // Clearly better: play on.
    xq.send(&format!("position fen {NO_RED_ROOKS} moves h2e2"));
    xq.send("go draw depth 3");
    let line = xq.best_move_line();
    assert!(
        !line.ends_with(" draw") && !line.ends_with(" resign"),
        "{line}"
    );
    legal_best(
        &line,
        &play(NO_RED_ROOKS, &["h2e2"], RankStyle::ZeroToNine),
        RankStyle::ZeroToNine,
    );
    // A draw offer can also come with ponderhit.
    xq.send(&format!("position fen {NO_RED_ROOKS}"));
    xq.send("go ponder depth 2");
    xq.send("ponderhit draw");
    let line = xq.best_move_line();
    assert!(line.ends_with(" draw"), "{line}");
    // Mated next move whatever happens: resign, with a legal move.
    xq.send(&format!("position fen {LOST}"));
    xq.send("go depth 4");
    let line = xq.best_move_line();
    assert!(line.ends_with(" resign"), "{line}");
    legal_best(
        &line,
        &play(LOST, &[], RankStyle::ZeroToNine),
        RankStyle::ZeroToNine,
    );
    // Mated now: no move.
    xq.send(&format!("position fen {MATED}"));
    xq.send("go depth 4");
    assert_eq!(xq.best_move_line(), "nobestmove");
}

#[test]
fn ucci_idle_and_busy_states() {
    let mut xq = Xq::start();
    xq.script("> ucci\n<* <any>\n< ucciok");
    // Idle: stop is not answered (no search to answer for).
    xq.script("> stop\n> isready\n< readyok");
    xq.send("position startpos");
    xq.send("go infinite");
    // Busy: isready is answered, position is refused, stop gives the move at once.
    xq.script("> isready\n<* info <any>\n< readyok");
    xq.script("> position startpos moves h2e2\n<* info depth <any>\n< info message position is not accepted while thinking; send stop first");
    xq.script("> probe startpos\n<* info depth <any>\n< pophash <any>");
    xq.send("stop");
    let line = xq.best_move_line();
    legal_best(&line, &Position::startpos(), RankStyle::ZeroToNine);
    xq.quiet();
    // Stop answered: the next commands are taken at once.
    xq.send("position startpos moves h2e2");
    xq.send("go depth 2");
    let line = xq.best_move_line();
    legal_best(
        &line,
        &play(fen::START_FEN, &["h2e2"], RankStyle::ZeroToNine),
        RankStyle::ZeroToNine,
    );
}

#[test]
fn quit_during_search_exits_at_once() {
    for (hello, done, bye) in [("ucci", "ucciok", true), ("uci", "uciok", false)] {
        let mut xq = Xq::start();
        xq.send(hello);
        xq.until(|l| l == done);
        xq.send("position startpos");
        xq.send("go infinite");
        std::thread::sleep(Duration::from_millis(200));
        let start = Instant::now();
        xq.send("quit");
        if bye {
            xq.until(|l| l == "bye");
        }
        let (status, stderr, _) = xq.wait(EXIT_TIMEOUT);
        assert!(status.success() && stderr.is_empty(), "{status} {stderr}");
        assert!(start.elapsed() < AT_ONCE, "quit took {:?}", start.elapsed());
    }
}

#[test]
fn end_of_input_ends_the_session() {
    let mut xq = Xq::start();
    xq.send("uci");
    xq.send("position startpos");
    xq.send("go infinite");
    xq.until(|l| l.starts_with("info depth 2"));
    let (status, _, took) = xq.close(EXIT_TIMEOUT);
    assert!(status.success());
    assert!(took < AT_ONCE, "took {took:?}");
}

#[test]
fn pondering() {
    let mut xq = Xq::start();
    xq.script("> ucci\n<* <any>\n< ucciok");
    // Stop during ponder: the move comes at once.
    xq.send("position startpos moves h2e2");
    xq.send("go ponder time 600000");
    std::thread::sleep(Duration::from_millis(100));
    let start = Instant::now();
    xq.send("stop");
    xq.best_move_line();
    assert!(start.elapsed() < AT_ONCE, "took {:?}", start.elapsed());
    // Ponderhit: the clock of the go line runs from now, so the move comes within its share.
    xq.send("position startpos moves h2e2");
    xq.send("go ponder time 3000 increment 0");
    std::thread::sleep(Duration::from_millis(300));
    xq.script("> isready\n<* info <any>\n< readyok");
    let start = Instant::now();
    xq.send("ponderhit");
    let line = xq.best_move_line();
    legal_best(
        &line,
        &play(fen::START_FEN, &["h2e2"], RankStyle::ZeroToNine),
        RankStyle::ZeroToNine,
    );
    assert!(
        start.elapsed() < Duration::from_millis(1500),
        "took {:?}",
        start.elapsed()
    );
    // Not pondering.
    xq.script("> ponderhit\n< info message ponderhit: the engine is not pondering");
    // The move's time runs from ponderhit, however long the pondering took: the search does not
    // count the pondering against the go line's time.
    xq.send("position startpos moves h2e2");
    xq.send("go ponder movetime 400");
    std::thread::sleep(Duration::from_millis(900));
    let start = Instant::now();
    xq.send("ponderhit");
    xq.best_move_line();
    assert!(
        start.elapsed() >= Duration::from_millis(250),
        "answered {:?} after ponderhit, before its time was used",
        start.elapsed()
    );

    // A node limit reached while pondering holds the move until ponderhit.
    xq.send("position startpos moves h2e2");
    xq.send("go ponder nodes 1000");
    std::thread::sleep(Duration::from_millis(500));
    xq.send("isready");
    let lines = xq.until(|l| l == "readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "answered while pondering: {lines:?}"
    );
    xq.send("ponderhit");
    xq.best_move_line();

    // UCI: the same with a fixed depth, which ends only with ponderhit or stop.
    let mut xq = Xq::start();
    xq.script("> uci\n<* <any>\n< uciok");
    xq.send("position startpos moves h2e2");
    xq.send("go ponder depth 2");
    std::thread::sleep(Duration::from_millis(300));
    xq.script("> isready\n<* info <any>\n< readyok");
    xq.send("ponderhit");
    xq.best_move_line();
    xq.quiet();
}

#[test]
fn ucci_seconds_unless_usemillisec() {
    let mut xq = Xq::start();
    xq.script("> ucci\n<* <any>\n< ucciok");
    xq.send("setoption usemillisec false");
    xq.send("position startpos");
    let start = Instant::now();
    // Six seconds for the game: a share of it is far more than six milliseconds.
    xq.send("go time 6");
    xq.best_move_line();
    let took = start.elapsed();
    assert!(
        took >= Duration::from_millis(100),
        "go time 6 in seconds took only {took:?}"
    );
    assert!(took <= Duration::from_secs(4), "go time 6 took {took:?}");
}

/// A UCCI session in batch mode at the start position.
fn batch_session() -> Xq {
    let mut xq = Xq::start();
    xq.script("> ucci\n<* <any>\n< ucciok");
    xq.send("setoption batch true");
    xq.send("position startpos");
    xq
}

#[test]
fn ucci_batch_mode_finishes_the_search_before_quit() {
    let mut xq = batch_session();
    xq.send("go depth 9");
    xq.send("quit");
    let lines = xq.until(|l| l == "bye");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 9 ")),
        "the search was cut short: {lines:?}"
    );
    let best = lines.iter().position(|l| l.starts_with("bestmove"));
    assert!(best.is_some_and(|b| b + 1 == lines.len() - 1), "{lines:?}");
}

#[test]
fn ucci_batch_mode_holds_lines_until_the_move() {
    let mut xq = batch_session();
    xq.send("go depth 4");
    xq.send("isready");
    xq.send("position startpos moves h2e2");
    xq.send("go depth 2");
    // readyok only after the first search's move, and the second position is not refused.
    let lines = xq.until(|l| l == "readyok");
    assert!(
        lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:#?}"
    );
    let line = xq.best_move_line();
    legal_best(
        &line,
        &play(fen::START_FEN, &["h2e2"], RankStyle::ZeroToNine),
        RankStyle::ZeroToNine,
    );
    // Refused, but the client still gets a move.
    xq.script("> go infinite\n<~ cannot end in batch mode");
    xq.best_move_line();
}

#[test]
fn uci_ranks_one_to_ten_in_and_out() {
    let mut xq = Xq::start();
    xq.script("> uci\n<* <any>\n< uciok");
    xq.send("setoption name Ranks value 1-10");
    let moves = ["h3e3", "h10g8", "h1g3", "i10h10"];
    xq.send(&format!("position startpos moves {}", moves.join(" ")));
    xq.send("go depth 3");
    let lines = xq.until(|l| l.starts_with("bestmove"));
    let pos = play(fen::START_FEN, &moves, RankStyle::OneToTen);
    legal_best(lines.last().unwrap(), &pos, RankStyle::OneToTen);
    for l in &lines[..lines.len() - 1] {
        let pv = l
            .split(" pv ")
            .nth(1)
            .unwrap_or_else(|| panic!("no pv: {l}"));
        assert!(
            pv.split(' ').all(|m| is_move(m, RankStyle::OneToTen)),
            "{l}"
        );
    }
    xq.send("d");
    let board = xq.until(|l| l.starts_with("Checkers"));
    assert!(board.iter().any(|l| l.starts_with("10 ")), "{board:#?}");
    // An illegal move is named as the client wrote it (h10h3 would be h9h2 in ranks 0-9).
    xq.script("> position startpos moves h3e3 h10h3\n<~ ply 2: h10h3 is not legal in\n<~ kept the 1 moves");
}

/// The node counts and moves of a `go nodes` search, without the timing fields.
fn fixed_node_search(xq: &mut Xq, position: &str) -> Vec<String> {
    xq.send(position);
    xq.send("go nodes 6000");
    xq.until(|l| l.starts_with("bestmove"))
        .into_iter()
        .map(|l| {
            let words: Vec<&str> = l.split(' ').collect();
            let mut kept = Vec::new();
            let mut i = 0;
            while i < words.len() {
                if matches!(words[i], "time" | "nps" | "hashfull") {
                    i += 2;
                } else {
                    kept.push(words[i]);
                    i += 1;
                }
            }
            kept.join(" ")
        })
        .collect()
}

#[test]
fn uci_go_nodes_is_deterministic_around_ucinewgame() {
    let mut xq = Xq::start();
    xq.script("> uci\n<* <any>\n< uciok");
    let positions = [
        "position startpos moves h2e2 h9g7 h0g2",
        "position fen 3k5/8r/9/P8/9/9/9/9/r8/4K4 w",
    ];
    for position in positions {
        xq.send("ucinewgame");
        let first = fixed_node_search(&mut xq, position);
        xq.send("ucinewgame");
        let second = fixed_node_search(&mut xq, position);
        assert_eq!(first, second);
    }
    // A fresh process agrees too.
    let mut other = Xq::start();
    other.script("> uci\n<* <any>\n< uciok");
    other.send("ucinewgame");
    let fresh = fixed_node_search(&mut other, positions[0]);
    xq.send("ucinewgame");
    assert_eq!(fixed_node_search(&mut xq, positions[0]), fresh);
}

#[test]
fn long_move_lists_and_lenient_fen() {
    // A long game from random legal moves, sent whole (UCI) and from its last capture (UCCI).
    let mut rng = Rng::new(7);
    let mut pos = Position::startpos();
    let mut moves: Vec<Move> = Vec::new();
    let mut last_capture = (0, pos.clone());
    while moves.len() < 300 {
        let legal = legal_moves(&pos);
        if legal.is_empty() {
            break;
        }
        let quiet: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| pos.captured(m).is_none())
            .collect();
        // Mostly quiet moves, so the game lasts.
        let m = if !quiet.is_empty() && rng.chance(9, 10) {
            *rng.pick(&quiet)
        } else {
            *rng.pick(&legal)
        };
        let capture = pos.captured(m).is_some();
        pos.play(m);
        moves.push(m);
        if capture {
            last_capture = (moves.len(), pos.clone());
        }
    }
    let text: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    let mut xq = Xq::start();
    xq.script("> uci\n<* <any>\n< uciok");
    xq.send(&format!("position startpos moves {}", text.join(" ")));
    xq.send("go depth 2");
    let line = xq.best_move_line();
    if legal_moves(&pos).is_empty() {
        assert_eq!(line, "bestmove (none)");
    } else {
        legal_best(&line, &pos, RankStyle::ZeroToNine);
    }

    let mut xq = Xq::start();
    xq.script("> ucci\n<* <any>\n< ucciok");
    let (from, start) = last_capture;
    let board = fen::format(&start);
    let board = board.split(' ').take(2).collect::<Vec<_>>().join(" ");
    xq.send(&format!(
        "position fen {board} - - 0 1 moves {}",
        text[from..].join(" ")
    ));
    xq.send("go depth 2");
    let line = xq.best_move_line();
    if legal_moves(&pos).is_empty() {
        assert_eq!(line, "nobestmove");
    } else {
        legal_best(&line, &pos, RankStyle::ZeroToNine);
    }
    // E and H letters, r for Red, no counters.
    xq.send(
        "position fen rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r moves h2e2",
    );
    xq.send("go depth 2");
    let line = xq.best_move_line();
    legal_best(
        &line,
        &play(fen::START_FEN, &["h2e2"], RankStyle::ZeroToNine),
        RankStyle::ZeroToNine,
    );
    // An illegal move in the list: reported, and the moves before it are kept.
    xq.script(
        "> position startpos moves h2e2 h9g7 h2h9\n<~ illegal move at ply 3\n<~ kept the 2 moves",
    )
}

// ---------------------------------------------------------------------------------------------
// Fuzz: random and mutated command lines.

/// Whole lines, valid or nearly, the mutations start from.
const CORPUS: &[&str] = &[
    "ucci",
    "uci",
    "ucinewgame",
    "uccinewgame",
    "setoption newgame",
    "setoption usemillisec true",
    "setoption usemillisec false",
    "setoption hashsize 16",
    "setoption threads 2",
    "setoption ponder true",
    "setoption debug true",
    "setoption promotion false",
    "setoption name Hash value 8",
    "setoption name Threads value 2",
    "setoption name MultiPV value 3",
    "setoption name Move Overhead value 100",
    "setoption name UCI_ShowWDL value true",
    "setoption name Ranks value 1-10",
    "setoption name Ranks value 0-9",
    "setoption name Clear Hash",
    "setoption name UCI_Variant value xiangqi",
    "setoption name RepetitionRule value check-only",
    "position startpos",
    "position startpos moves h2e2 h9g7 h0g2 i9h9",
    "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves b2e2",
    "position fen 3k5/9/9/9/9/9/9/9/r8/r3K4 w - - 0 1",
    "position fen 3k5/8r/9/P8/9/9/9/9/r8/4K4 w",
    "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves h2e2",
    "startpos moves h3e3 h10g8",
    "banmoves h2e2 b2e2",
    "go depth 3",
    "go depth 0",
    "go nodes 2000",
    "go infinite",
    "go ponder depth 2",
    "go draw depth 2",
    "go time 2000 increment 0 opptime 2000 oppincrement 0",
    "go time 30 movestogo 10 opptime 30 oppmovestogo 10",
    "go wtime 1000 btime 1000 winc 10 binc 10",
    "go btime 300 wtime 290 movestogo 40",
    "go movetime 20",
    "go searchmoves h2e2 b2e2 depth 2",
    "go perft 2",
    "go mate 2",
    "ponderhit",
    "ponderhit draw",
    "stop",
    "probe startpos moves h2e2",
    "d",
    "eval",
    "flip",
    "debug on",
];

const WORDS: &[&str] = &[
    "go",
    "position",
    "fen",
    "startpos",
    "moves",
    "setoption",
    "name",
    "value",
    "depth",
    "nodes",
    "time",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "increment",
    "opptime",
    "ponder",
    "draw",
    "infinite",
    "searchmoves",
    "banmoves",
    "stop",
    "ponderhit",
    "probe",
    "perft",
    "movetime",
    "h2e2",
    "h9g7",
    "a0a9",
    "e0e1",
    "h10g8",
    "i9i0",
    "0000",
    "w",
    "b",
    "r",
    "-",
    "Hash",
    "Threads",
    "MultiPV",
    "Ranks",
    "1-10",
    "0-9",
    "true",
    "false",
    "on",
    "off",
    "hashsize",
    "threads",
    "newgame",
    "usemillisec",
    "ponder",
    "UCI_ShowWDL",
    "Clear",
    "rnbakabnr/9/1c5c1/p1p1p1p1p",
    "9/9/9/9/9/9/9/9/9/9",
    "3k5/9/9/9/9/9/9/9/9/4K4",
    "",
    " ",
    "\t",
];

const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "7",
    "16",
    "64",
    "1000",
    "-1",
    "-300",
    "1.5",
    "3e2",
    "+5",
    "0x10",
    "99999999999999999999999",
    "18446744073709551616",
    "NaN",
    "inf",
    "",
];

fn random_line(rng: &mut Rng, games: &[String]) -> Vec<u8> {
    // Frequent stops, so that the engine is not busy (and refusing most lines) all the time.
    if rng.chance(1, 10) {
        return b"stop".to_vec();
    }
    let mut words: Vec<String> = match rng.below(10) {
        0..=5 => rng.pick(CORPUS).split(' ').map(String::from).collect(),
        6 | 7 => rng.pick(games).split(' ').map(String::from).collect(),
        8 => (0..1 + rng.below(8))
            .map(|_| rng.pick(WORDS).to_string())
            .collect(),
        _ => {
            // Random bytes.
            let len = rng.below(40);
            let bytes: Vec<u8> = (0..len)
                .map(|_| (rng.next_u64() & 0xff) as u8)
                .filter(|&b| b != b'\n')
                .collect();
            return bytes;
        }
    };
    for _ in 0..rng.below(4) {
        let i = rng.below(words.len() + 1);
        match rng.below(9) {
            0 if !words.is_empty() => {
                words.remove(i.min(words.len() - 1));
            }
            1 => words.insert(i, rng.pick(WORDS).to_string()),
            2 => words.insert(i, rng.pick(NUMBERS).to_string()),
            3 if i < words.len() => words[i] = rng.pick(NUMBERS).to_string(),
            4 if i < words.len() => words[i] = rng.pick(WORDS).to_string(),
            5 if words.len() > 1 => {
                let j = rng.below(words.len());
                let k = rng.below(words.len());
                words.swap(j, k);
            }
            6 if i < words.len() && !words[i].is_empty() => {
                // Change one character.
                let mut chars: Vec<char> = words[i].chars().collect();
                let c = rng.below(chars.len());
                chars[c] = *rng.pick(&[
                    '0', '9', 'a', 'i', 'j', '/', 'K', 'k', 'x', 'é', '\r', '\u{0}',
                ]);
                words[i] = chars.into_iter().collect();
            }
            7 => words.truncate(i),
            _ => {
                if i < words.len() {
                    words[i] = words[i].to_uppercase();
                }
            }
        }
    }
    if rng.chance(1, 500) {
        words.push("h2e2".repeat(5000));
    }
    let mut line = words.join(" ").into_bytes();
    if rng.chance(1, 100) {
        // A byte-order mark before the line, or a CR inside it (a line end of its own).
        let shape: &[u8] = if rng.chance(1, 2) {
            "\u{feff}".as_bytes()
        } else {
            b"\r"
        };
        let at = if shape == b"\r" {
            rng.below(line.len() + 1)
        } else {
            0
        };
        line.splice(at..at, shape.iter().copied());
    }
    if rng.chance(1, 50) {
        let at = rng.below(line.len() + 1);
        line.insert(at, 0xff);
    }
    line
}

/// Random legal games as `position` lines (both forms) for the mutations to start from.
fn random_games(rng: &mut Rng, count: usize) -> Vec<String> {
    (0..count)
        .map(|_| {
            let mut pos = Position::startpos();
            let mut moves = Vec::new();
            for _ in 0..rng.below(120) {
                let legal = legal_moves(&pos);
                if legal.is_empty() {
                    break;
                }
                let m = *rng.pick(&legal);
                pos.play(m);
                moves.push(m.to_string());
            }
            match rng.below(3) {
                0 => format!("position startpos moves {}", moves.join(" ")),
                1 => format!("fen {}", fen::format(&pos)),
                _ => format!("position fen {} moves", fen::format(&pos)),
            }
        })
        .collect()
}

/// Feeds `count` random lines after `hello`, then checks the engine still answers `isready`.
fn fuzz(hello: &str, seed: u64, count: usize) {
    let mut rng = Rng::new(seed);
    let games = random_games(&mut rng, 200);
    let mut xq = Xq::start();
    xq.send(hello);
    // Output is drained by the reader thread; count it here.
    let mut sent = 0;
    let mut lines_out = 0usize;
    let mut kinds = [0usize; 4];
    while sent < count {
        let line = random_line(&mut rng, &games);
        let first = line
            .split(|b| b.is_ascii_whitespace())
            .find(|w| !w.is_empty())
            .unwrap_or(&[]);
        // Lines the check relies on (also after a CR, which ends a line), and batch mode (it
        // holds input back by design).
        let has = |word: &[u8]| {
            line.windows(word.len())
                .any(|w| w.eq_ignore_ascii_case(word))
        };
        if matches!(first, b"quit" | b"isready")
            || line.contains(&b'\r') && (has(b"quit") || has(b"isready"))
            || has(b"batch")
        {
            continue;
        }
        let mut bytes = line;
        bytes.push(b'\n');
        xq.send_bytes(&bytes);
        sent += 1;
        while let Ok(out) = xq.lines.try_recv() {
            assert!(!out.contains("panicked"), "{out}");
            // Messages quote what they refuse, cut short: no line echoes a huge token.
            assert!(out.len() < 8192, "{} bytes: {}", out.len(), &out[..200]);
            lines_out += 1;
            tally(&mut kinds, &out);
        }
    }
    xq.send("stop");
    xq.send("isready");
    let start = Instant::now();
    while start.elapsed() < LINE_TIMEOUT {
        match xq.lines.recv_timeout(Duration::from_millis(100)) {
            Ok(line) if line == "readyok" => {
                xq.send("quit");
                let (status, stderr, _) = xq.wait(Duration::from_secs(10));
                assert!(status.success(), "exit status {status}; stderr: {stderr}");
                assert!(stderr.is_empty(), "stderr: {stderr}");
                let [moves, infos, errors, other] = kinds;
                eprintln!(
                    "fuzz {hello}: {count} lines in, {lines_out} out: {moves} moves, {infos} search infos, \
                     {errors} error or note lines, {other} other"
                );
                return;
            }
            Ok(out) => {
                lines_out += 1;
                tally(&mut kinds, &out);
            }
            Err(_) => {
                if let Ok(Some(status)) = xq.child.try_wait() {
                    let stderr = xq
                        .stderr
                        .recv_timeout(Duration::from_secs(5))
                        .unwrap_or_default();
                    panic!("xq exited with {status} during the fuzz; stderr: {stderr}");
                }
            }
        }
    }
    panic!("no readyok after {count} random lines");
}

/// Counts an output line as a move, search progress, an error or note, or anything else.
fn tally(kinds: &mut [usize; 4], line: &str) {
    let k = if line.starts_with("bestmove") || line == "nobestmove" {
        0
    } else if line.starts_with("info depth") {
        1
    } else if line.starts_with("info string") || line.starts_with("info message") {
        2
    } else {
        3
    };
    kinds[k] += 1;
}

/// How many random lines each dialect gets (`XQ_FUZZ_LINES` overrides).
fn fuzz_lines() -> usize {
    std::env::var("XQ_FUZZ_LINES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(25_000)
}

#[test]
fn fuzz_ucci_lines() {
    fuzz("ucci", 0x5eed_0001, fuzz_lines());
}

#[test]
fn fuzz_uci_lines() {
    fuzz("uci", 0x5eed_0002, fuzz_lines());
}

#[test]
fn help_says_how_to_start_the_engine() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_xq"))
        .arg("--help")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(text.contains("Without a subcommand"), "{text}");
    assert!(text.contains("first line picks the"), "{text}");
}

/// The resident memory of process `pid`, in KiB (Linux).
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A client that writes without reading the answers (or a batch-mode search that holds the
/// input back) makes the engine stop reading, not buffer without end: the client's writes block.
#[test]
fn unread_output_holds_input_back_in_bounded_memory() {
    let cases = [
        ("ucci\n", "isready\n"),
        // In batch mode a long search holds every later line back.
        (
            "ucci\nsetoption batch true\ngo depth 60\n",
            "position startpos\n",
        ),
    ];
    for (prefix, line) in cases {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xq"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("xq runs");
        let mut stdin = child.stdin.take().unwrap();
        let written = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let count = written.clone();
        let block = line.repeat(4096);
        std::thread::spawn(move || {
            let _ = stdin.write_all(prefix.as_bytes());
            while stdin.write_all(block.as_bytes()).is_ok() {
                count.fetch_add(block.len(), std::sync::atomic::Ordering::Relaxed);
            }
        });
        std::thread::sleep(Duration::from_secs(3));
        let sent = written.load(std::sync::atomic::Ordering::Relaxed);
        let rss = rss_kib(child.id());
        let _ = child.kill();
        let _ = child.wait();
        assert!(
            sent < 64 << 20,
            "{sent} bytes taken in 3 s: the input is not bounded"
        );
        if let Some(rss) = rss {
            assert!(rss < 200 << 10, "{rss} KiB resident");
        }
    }
}

/// Under an address-space limit, more search threads than fit are refused with the number that
/// does, and the search still answers (a thread that could not get memory ended the process).
#[test]
fn threads_that_do_not_fit_are_refused_and_the_search_answers() {
    let script = format!("ulimit -v 300000 && exec {}", env!("CARGO_BIN_EXE_xq"));
    let mut child = Command::new("sh")
        .args(["-c", &script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("sh runs");
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"uci\nsetoption name Threads value 256\nisready\ngo depth 5\n")
        .unwrap();
    let mut lines = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map_while(Result::ok)
    {
        let done = line.starts_with("bestmove");
        lines.push(line);
        if done {
            break;
        }
    }
    let _ = stdin.write_all(b"quit\n");
    let _ = child.kill();
    let _ = child.wait();
    let text = lines.join("\n");
    assert!(
        text.contains("option Threads rejected: 256 threads do not fit"),
        "{text}"
    );
    assert!(
        lines.last().is_some_and(|l| l.starts_with("bestmove ")),
        "{text}"
    );
}

/// A `stop` that arrives after a search has ended by itself gets no second answer in either
/// protocol: the next line the client reads answers its next command.
#[test]
fn a_stop_after_the_search_ended_adds_no_answer() {
    for (hello, ok) in [("ucci", "ucciok"), ("uci", "uciok")] {
        let mut xq = Xq::start();
        xq.script(&format!("> {hello}\n<* <any>\n< {ok}"));
        xq.send("position startpos");
        xq.send("go depth 1");
        assert!(xq.best_move_line().starts_with("bestmove "));
        xq.script("> stop\n> isready\n< readyok");
        xq.send("go depth 1");
        assert!(xq.best_move_line().starts_with("bestmove "));
    }
}

/// The UCI handshake, as a script.
const UCI_HELLO: &str = "
    > uci
    < id name xq <any>
    < id author <any>
    <* option name <any>
    < uciok
    ";

#[test]
fn an_overlong_position_line_is_refused_as_a_bad_position() {
    let mut xq = Xq::start();
    xq.script(UCI_HELLO);
    xq.send("position startpos moves h2e2");
    // Over the line limit: skipped, and the next search must not be of the position before it.
    let long = format!(
        "position startpos moves {}",
        "h0g2 h9g7 g2h0 g7h9 ".repeat(60_000)
    );
    xq.send_bytes(format!("{long}\n").as_bytes());
    xq.script(
        "
        <~ line longer than
        > go depth 1
        <~ the last position was not accepted
        < bestmove (none)
        > position startpos
        > go depth 2
        <* info depth <int> seldepth <any>
        < bestmove <move> <ponder>
        > quit
        ",
    );
    let (status, _, _) = xq.wait(EXIT_TIMEOUT);
    assert!(status.success(), "exit status {status}");
}

#[test]
fn a_book_move_with_several_threads_says_nothing_of_threads() {
    let mut xq = Xq::start();
    // Nothing is searched for a book move, so no search thread goes unstarted.
    xq.script(UCI_HELLO);
    xq.script(
        "
        > setoption name Threads value 2
        > setoption name OwnBook value true
        > position startpos
        > go movetime 100
        < info string book move <move> (played in <int> master games, scoring <any>
        < bestmove <move>
        > quit
        ",
    );
    let (status, _, _) = xq.wait(EXIT_TIMEOUT);
    assert!(status.success(), "exit status {status}");
}

#[test]
fn the_opening_book_answers_when_asked() {
    let mut xq = Xq::start();
    xq.script(
        "
        > uci
        < id name xq <any>
        < id author <any>
        <* option name <any>
        < uciok
        > setoption name OwnBook value true
        > position startpos
        > go movetime 100
        < info string book move <move> (played in <int> master games, scoring <any>
        < bestmove <move>
        > position startpos moves h2e2 h9g7
        > go wtime 1000 btime 1000
        < info string book move <move> (played in <int> master games, scoring <any>
        < bestmove <move>
        > go infinite
        > stop
        <* info depth <int> seldepth <any>
        < bestmove <move> <ponder>
        > position fen 3k5/9/9/9/9/9/9/9/4R4/4K4 w
        > go depth 2
        <* info depth <int> seldepth <any>
        < bestmove <move> <ponder>
        > setoption name BookFile value /nonexistent/book.xqb
        < info string option BookFile rejected: /nonexistent/book.xqb: cannot read: <any>
        > setoption name OwnBook value false
        > position startpos
        > go depth 2
        <* info depth <int> seldepth <any>
        < bestmove <move> <ponder>
        > quit
        ",
    );
    let (status, stderr, _) = xq.wait(EXIT_TIMEOUT);
    assert!(status.success(), "exit status {status}");
    assert!(stderr.is_empty(), "stderr: {stderr}");

    let mut xq = Xq::start();
    xq.script(
        "
        > ucci
        < id name xq
        < id version <any>
        < id author <any>
        <* option <any>
        < ucciok
        > setoption usebook true
        > setoption randomness none
        > position startpos moves h2e2
        > go time 1000
        < info message book move <move> (played in <int> master games, scoring <any>
        < bestmove <move>
        > setoption randomness wild
        < info message 'randomness' value 'wild' is not one of the allowed words
        > quit
        < bye
        ",
    );
    let (status, stderr, _) = xq.wait(EXIT_TIMEOUT);
    assert!(status.success(), "exit status {status}");
    assert!(stderr.is_empty(), "stderr: {stderr}");
}

#[test]
fn skill_levels_search_less_and_show_only_the_lines_asked_for() {
    let mut xq = Xq::start();
    xq.script(
        "
        > uci
        < id name xq <any>
        < id author <any>
        <* option name <any>
        < uciok
        > setoption name Skill Level value 0
        > position startpos moves h2e2
        > go depth 12
        < info depth 1 seldepth <int> multipv 1 score <any>
        < bestmove <move> <ponder>
        > setoption name Skill Level value 6
        > go wtime 60000 btime 60000
        <* info depth <int> seldepth <int> multipv 1 score <any>
        < bestmove <move> <ponder>
        > setoption name UCI_LimitStrength value true
        > setoption name UCI_Elo value 100000
        < info string option UCI_Elo: value \"100000\" is not an integer from <int> to <int>
        > setoption name Skill Level value 21
        < info string option Skill Level: value \"21\" is not an integer from 0 to 20
        > quit
        ",
    );
    let (status, stderr, _) = xq.wait(EXIT_TIMEOUT);
    assert!(status.success(), "exit status {status}");
    assert!(stderr.is_empty(), "stderr: {stderr}");
}

#[test]
fn a_stopped_search_ends_with_the_line_of_its_move() {
    let mut xq = Xq::start();
    xq.send("uci");
    xq.until(|l| l == "uciok");
    xq.send("position startpos moves h2e2 h9g7");
    xq.send("go infinite");
    std::thread::sleep(Duration::from_millis(700));
    xq.send("stop");
    let lines = xq.until(|l| l.starts_with("bestmove"));
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" pv "))
        .expect("info lines before the move");
    let first_pv_move = last_info
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next();
    assert_eq!(first_pv_move, Some(best.as_str()), "{lines:#?}");
    // nps is never 0 once nodes were searched.
    for l in lines
        .iter()
        .filter(|l| l.starts_with("info depth") && l.contains(" nps "))
    {
        let nps = l
            .split(" nps ")
            .nth(1)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap();
        assert_ne!(nps, "0", "{l}");
    }
    xq.send("quit");
    let (status, _, _) = xq.wait(EXIT_TIMEOUT);
    assert!(status.success());
}

/// Runs `xq` under an address-space limit (KiB) with `input` on stdin, until the line that
/// satisfies `done`; the lines before and with it, and how the process ended.
fn run_limited(
    limit_kib: u64,
    input: &str,
    done: impl Fn(&str) -> bool,
) -> (Vec<String>, ExitStatus) {
    let script = format!("ulimit -v {limit_kib} && exec {}", env!("CARGO_BIN_EXE_xq"));
    let mut child = Command::new("sh")
        .args(["-c", &script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("sh runs");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    let mut lines = Vec::new();
    let mut output = BufReader::new(child.stdout.take().unwrap()).lines();
    for line in output.by_ref().map_while(Result::ok) {
        let end = done(&line);
        lines.push(line);
        if end {
            break;
        }
    }
    let _ = stdin.write_all(b"quit\n");
    drop(stdin);
    // What it says on leaving is read, so that writing it cannot fail.
    lines.extend(output.map_while(Result::ok));
    let status = child.wait().expect("xq ends");
    (lines, status)
}

/// A hash table larger than the address space allows is made smaller, with a note naming the
/// option and the size given, instead of ending the process; the engine then searches with it.
#[test]
fn a_hash_table_that_does_not_fit_is_made_smaller() {
    for (hello, set, name) in [
        ("uci", "setoption name Hash value 8000", "Hash"),
        ("ucci", "setoption hashsize 8000", "hashsize"),
    ] {
        let input = format!("{hello}\n{set}\nisready\nposition startpos\ngo depth 3\n");
        let (lines, status) = run_limited(3_500_000, &input, |l| l.starts_with("bestmove"));
        let text = lines.join("\n");
        let note = lines
            .iter()
            .find(|l| l.contains(&format!("option {name}: a table of 8000 MB does not fit")))
            .unwrap_or_else(|| panic!("no note on the hash size:\n{text}"));
        let size: usize = note
            .split("the table is ")
            .nth(1)
            .and_then(|t| t.strip_suffix(" MB"))
            .and_then(|t| t.parse().ok())
            .unwrap_or_else(|| panic!("no size in {note:?}"));
        assert!((1..8000).contains(&size), "{note}");
        assert!(lines.iter().any(|l| l == "readyok"), "{text}");
        assert!(lines.iter().any(|l| l.starts_with("bestmove ")), "{text}");
        assert!(status.success(), "{hello}: exit status {status}\n{text}");
    }
}

/// A UCI score as a number that orders as the scores do (mates beyond every centipawn score).
fn uci_score(line: &str) -> i64 {
    let mut words = line.split(" score ").nth(1).unwrap().split(' ');
    let (kind, value) = (words.next().unwrap(), words.next().unwrap());
    let value: i64 = value.parse().unwrap();
    match kind {
        "cp" => value,
        "mate" if value > 0 => 1_000_000 - value,
        "mate" => -1_000_000 - value,
        other => panic!("score {other} in {line}"),
    }
}

fn word_after(line: &str, key: &str) -> u32 {
    line.split(&format!(" {key} "))
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("no {key} in {line}"))
}

/// The `info depth` lines of a UCI search, checked: each depth's lines come together once,
/// numbered multipv 1, 2, … with scores best first, and no more than `shown` of them.
fn check_depth_lines(lines: &[String], shown: u32) {
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth") && l.contains(" multipv "))
        .collect();
    let text = lines.join("\n");
    assert!(!infos.is_empty(), "{text}");
    let mut seen = std::collections::HashSet::new();
    let mut previous: Option<(u32, u32, i64)> = None;
    for line in infos {
        let (depth, multipv, score) = (
            line.split(' ')
                .nth(2)
                .and_then(|d| d.parse().ok())
                .unwrap_or(0),
            word_after(line, "multipv"),
            uci_score(line),
        );
        assert!(multipv <= shown, "{line}\n{text}");
        assert!(seen.insert((depth, multipv)), "{line} repeated\n{text}");
        match previous {
            Some((d, m, s)) if d == depth => {
                assert_eq!(multipv, m + 1, "{line}\n{text}");
                assert!(score <= s, "{line} scores above the line before\n{text}");
            }
            _ => assert_eq!(multipv, 1, "{line}\n{text}"),
        }
        previous = Some((depth, multipv, score));
    }
}

/// Lines of one depth are numbered best first, each depth comes once, and lines below full
/// strength are never repeated or reordered by the search cut short by the level's limits.
#[test]
fn multipv_lines_come_in_order_once_per_depth() {
    let cases: [(&[&str], &str, u32); 4] = [
        (&["MultiPV value 3"], "position startpos", 3),
        (&["MultiPV value 4"], "position startpos moves h2e2 h9g7", 4),
        (
            &["UCI_LimitStrength value true", "UCI_Elo value 1000"],
            "position startpos",
            1,
        ),
        (
            &["Skill Level value 5", "MultiPV value 3"],
            "position startpos",
            3,
        ),
    ];
    for (options, position, shown) in cases {
        let mut xq = Xq::start();
        xq.send("uci");
        xq.until(|l| l == "uciok");
        for option in options {
            xq.send(&format!("setoption name {option}"));
        }
        xq.quiet();
        xq.send(position);
        xq.send("go depth 8");
        let lines = xq.until(|l| l.starts_with("bestmove"));
        check_depth_lines(&lines, shown);
    }
    // A search stopped inside a depth: the line of its move, if it comes, opens that depth.
    let mut xq = Xq::start();
    xq.send("uci");
    xq.until(|l| l == "uciok");
    xq.send("setoption name MultiPV value 3");
    xq.send("position startpos");
    xq.send("go infinite");
    std::thread::sleep(Duration::from_millis(400));
    xq.send("stop");
    let lines = xq.until(|l| l.starts_with("bestmove"));
    check_depth_lines(&lines, 3);
}

/// `go` with an increment and no time plays on the increment (the move's budget) and ends by
/// itself; clock words that give the side to move no clock are named, and the move still comes.
#[test]
fn go_with_increments_only_ends_by_itself() {
    let mut xq = Xq::start();
    xq.send("uci");
    xq.until(|l| l == "uciok");
    xq.send("position startpos");
    for (go, error) in [
        ("go winc 5", None),
        ("go winc 200 binc 200", None),
        (
            "go binc 5",
            Some(
                "info string go: 'binc' is given but neither 'wtime' nor 'winc', the clock of Red (to move)",
            ),
        ),
        (
            "go movestogo 5",
            Some(
                "info string go: 'movestogo' is given but neither 'wtime' nor 'winc', the clock of Red (to move)",
            ),
        ),
    ] {
        let start = Instant::now();
        xq.send(go);
        let lines = xq.until(|l| l.starts_with("bestmove"));
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{go}: {lines:#?}"
        );
        let errors: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .collect();
        match error {
            None => assert!(errors.is_empty(), "{go}: {lines:#?}"),
            Some(text) => assert_eq!(errors, [text], "{go}"),
        }
        assert!(
            matches("bestmove <move> <ponder>", lines.last().unwrap()),
            "{lines:#?}"
        );
    }
    xq.send("position startpos moves h2e2");
    xq.send("go binc 100");
    xq.best_move_line();
    xq.quiet();

    let mut xq = Xq::start();
    xq.send("ucci");
    xq.until(|l| l == "ucciok");
    xq.send("position startpos");
    xq.send("go increment 100");
    let lines = xq.until(|l| l.starts_with("bestmove"));
    assert!(
        lines.iter().all(|l| !l.starts_with("info message")),
        "{lines:#?}"
    );
    xq.quiet();
}

/// `probe` reads the hash table while a search fills it, and a position set with `moves` or
/// with its FEN is the same entry.
#[test]
fn ucci_probe_answers_during_and_after_a_search() {
    let mut xq = Xq::start();
    xq.send("ucci");
    xq.until(|l| l == "ucciok");
    xq.send("position startpos moves h2e2");
    xq.send("go infinite");
    std::thread::sleep(Duration::from_millis(500));
    xq.send("probe startpos moves h2e2 h9g7");
    let during = xq.until(|l| l.starts_with("pophash"));
    assert!(
        matches("pophash bestmove <move> <any>", during.last().unwrap()),
        "{during:#?}"
    );
    xq.send("stop");
    xq.best_move_line();
    let child = play(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        &["h2e2", "h9g7"],
        RankStyle::ZeroToNine,
    );
    xq.send("probe startpos moves h2e2 h9g7");
    let by_moves = xq.until(|l| l.starts_with("pophash")).pop().unwrap();
    xq.send(&format!("probe fen {child}"));
    let by_fen = xq.until(|l| l.starts_with("pophash")).pop().unwrap();
    assert!(
        matches("pophash bestmove <move> <any>", &by_moves),
        "{by_moves}"
    );
    assert_eq!(by_moves, by_fen);
    xq.quiet();
}

/// UCCI `threads 0` and `hashsize 0` ask the engine to choose (UCCI 3.0), and it says what it
/// chose.
#[test]
fn ucci_zero_threads_or_hash_says_what_the_engine_chose() {
    let mut xq = Xq::start();
    xq.script(
        "
        > ucci
        <* <any>
        < option threads type spin min 0 max <int> default 1
        <* <any>
        < ucciok
        > setoption threads 0
        < info message threads 0: one search thread per core, <int> here
        > setoption hashsize 0
        < info message hashsize 0: the default size, 16 MB
        > isready
        < readyok
        ",
    );
}

/// A book file that cannot be read leaves the book as it was, and the message says which book
/// that is and whether it is in use.
#[test]
fn a_refused_book_file_says_which_book_stays() {
    let mut xq = Xq::start();
    xq.script(
        "
        > uci
        <* <any>
        < uciok
        > setoption name BookFile value /nonexistent/book.xqb
        <~ ; the built-in book stays the book, used once the book is switched on
        > setoption name OwnBook value true
        > setoption name BookFile value /nonexistent/book.xqb
        <~ ; the built-in book stays in use
        > position startpos
        > go depth 3
        < info string book move <any>
        < bestmove <move>
        ",
    );
    let mut xq = Xq::start();
    xq.script(
        "
        > ucci
        <* <any>
        < ucciok
        > setoption usebook true
        > setoption bookfiles /nonexistent/book.xqb
        <~ ; the built-in book stays in use
        > isready
        < readyok
        ",
    );
}

/// `movestogo 0` is read as `movestogo 1` in both protocols, with a note saying so, and the
/// search runs under the clock given.
#[test]
fn movestogo_zero_is_read_as_one_in_both_protocols() {
    for (hello, go, note, info) in [
        (
            "uci",
            "go wtime 1000 btime 1000 movestogo 0",
            "info string",
            "info depth <int> seldepth <int> multipv 1 score <any>",
        ),
        (
            "ucci",
            "go time 1000 movestogo 0 opptime 1000",
            "info message",
            "info depth <int> score <int> time <int> nodes <int> pv <moves>",
        ),
    ] {
        let mut xq = Xq::start();
        xq.script(&format!(
            "
            > {hello}
            <* <any>
            < {hello}ok
            > position startpos
            > {go}
            < {note} go: 'movestogo 0' is read as 'movestogo 1'
            <* {info}
            < bestmove <move> <ponder>
            > isready
            < readyok
            "
        ));
    }
}
