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

/// The longest input line read; anything longer is answered with an error and skipped.
pub const MAX_LINE: usize = 1 << 20;

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
