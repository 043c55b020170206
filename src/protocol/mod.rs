//! The engine protocols' run loop. A reader thread turns input into lines, the search sends its
//! reports, and both arrive here as events for one [`session::Session`], which picks UCCI or UCI
//! from the first line and writes every line of output (so one thread writes, and each line is
//! flushed). The layers below: `command` (what a line asks), `words` (the shared word readers),
//! `dialect` (what differs between the protocols), `ucci` and `uci`.

mod command;
mod dialect;
mod session;
mod ucci;
mod uci;
mod words;

pub use command::CommandError;

use crate::engine::Report;
use session::Session;
use std::io::{BufRead, Read, Write};
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
    /// A line longer than `MAX_LINE` was skipped.
    TooLong,
    /// The input has ended.
    Eof,
    /// A report from the search with this number.
    Report(u64, Report),
}

fn read_lines<R: BufRead>(mut input: R, tx: Sender<Event>, gate: &InputGate) {
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
