//! The engine protocols' run loop. A reader thread turns input into lines, the search sends its
//! reports, and both arrive here as events for one [`session::Session`], which picks UCCI or UCI
//! from the first line and writes every line of output (so one thread writes, and each line is
//! flushed). The layers below: `command` (what a line asks), `words` (the shared word readers),
//! `go` (the `go` grammar), `settings` (the protocols' own options), `dialect` (what differs
//! between the protocols), `ucci` and `uci`.

mod command;
mod dialect;
mod go;
mod session;
mod settings;
mod ucci;
mod uci;
mod words;

pub use command::CommandError;

use crate::engine::Report;
use session::Session;
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};

/// The longest input line read; anything longer is answered with an error and skipped.
pub const MAX_LINE: usize = 1 << 20;

/// The most input read ahead of the session, in bytes: lines read but not yet handled (held back
/// during a batch-mode search, or while the output is not being read). The reader waits beyond
/// it, so the client's writes block instead of the engine's memory growing.
const MAX_QUEUED: usize = 4 << 20;

/// Counts the bytes of input lines read but not yet handled, and holds the reader back when they
/// would pass `MAX_QUEUED`.
#[derive(Default)]
struct InputGate {
    queued: Mutex<usize>,
    room: Condvar,
}

impl InputGate {
    /// Waits until a line of `bytes` may be queued, and counts it.
    fn enter(&self, bytes: usize) {
        let mut queued = self.queued.lock().unwrap_or_else(PoisonError::into_inner);
        while *queued > 0 && *queued + bytes > MAX_QUEUED {
            queued = self
                .room
                .wait(queued)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *queued += bytes;
    }

    /// A line of `bytes` is handled.
    fn leave(&self, bytes: usize) {
        let mut queued = self.queued.lock().unwrap_or_else(PoisonError::into_inner);
        *queued = queued.saturating_sub(bytes);
        self.room.notify_all();
    }
}

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
    let gate = Arc::new(InputGate::default());
    let reader_gate = gate.clone();
    // The reader thread is left to end with the process: it may be blocked on stdin.
    std::thread::spawn(move || read_lines(input, reader_tx, &reader_gate));
    let mut session = Session::new(output, tx, gate);
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
    /// A line longer than `MAX_LINE` was skipped; its first word.
    TooLong(String),
    /// The input has ended.
    Eof,
    /// A report from the search with this number.
    Report(u64, Report),
}

/// Reads one line ended by LF, CR or CR LF (whose LF the next call skips, `after_cr`) onto `buf`,
/// taking at most `limit` bytes; whether a line end was found, or `None` at the end of input.
fn read_line<R: BufRead>(
    input: &mut R,
    buf: &mut Vec<u8>,
    limit: usize,
    after_cr: &mut bool,
) -> std::io::Result<Option<bool>> {
    let mut any = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(any.then_some(false));
        }
        any = true;
        if std::mem::take(after_cr) && chunk[0] == b'\n' {
            input.consume(1);
            continue;
        }
        let room = limit.saturating_sub(buf.len());
        let window = &chunk[..chunk.len().min(room)];
        if let Some(end) = window.iter().position(|&b| b == b'\n' || b == b'\r') {
            *after_cr = window[end] == b'\r';
            buf.extend_from_slice(&window[..end]);
            input.consume(end + 1);
            return Ok(Some(true));
        }
        let n = window.len();
        buf.extend_from_slice(window);
        input.consume(n);
        if buf.len() >= limit {
            return Ok(Some(false));
        }
    }
}

fn read_lines<R: BufRead>(mut input: R, tx: Sender<Event>, gate: &InputGate) {
    let mut buf = Vec::new();
    let mut after_cr = false;
    loop {
        buf.clear();
        let event = match read_line(&mut input, &mut buf, MAX_LINE + 1, &mut after_cr) {
            Ok(None) | Err(_) => {
                let _ = tx.send(Event::Eof);
                return;
            }
            Ok(Some(false)) if buf.len() > MAX_LINE => {
                let head = &buf[..buf.len().min(64)];
                let first = String::from_utf8_lossy(head)
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_string();
                // Skip the rest of the overlong line.
                loop {
                    buf.clear();
                    match read_line(&mut input, &mut buf, MAX_LINE, &mut after_cr) {
                        Ok(None) | Err(_) | Ok(Some(true)) => break,
                        Ok(Some(false)) => {}
                    }
                }
                Event::TooLong(first)
            }
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf).into_owned();
                gate.enter(line.len());
                Event::Line(line)
            }
        };
        if tx.send(event).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_in_lf_cr_or_cr_lf() {
        let mut input = std::io::Cursor::new(b"uci\risready\r\nquit\n\nlast".to_vec());
        let (mut buf, mut after_cr) = (Vec::new(), false);
        let mut lines = Vec::new();
        while read_line(&mut input, &mut buf, 100, &mut after_cr)
            .unwrap()
            .is_some()
        {
            lines.push(String::from_utf8(std::mem::take(&mut buf)).unwrap());
        }
        assert_eq!(lines, ["uci", "isready", "quit", "", "last"]);
        // A line longer than the limit comes in pieces, none with an end.
        let mut input = std::io::Cursor::new(b"abcdefg\n".to_vec());
        assert_eq!(
            read_line(&mut input, &mut buf, 4, &mut after_cr).unwrap(),
            Some(false)
        );
        assert_eq!(buf, b"abcd");
    }
}
