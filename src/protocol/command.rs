//! The commands both protocols read, what a `go` line asks for, and why a line was not carried
//! out.

use super::MAX_LINE;
use crate::fen::FenError;
use crate::moves::{IllegalMove, Move, MoveTextError};
use crate::options::OptionError;
use crate::position::Position;
use crate::search::time::Limits;
use std::fmt;

/// A game set up by `position` (or `probe`): where it starts and the moves since.
#[derive(Clone, Debug)]
pub(super) struct Setup {
    pub start: Position,
    pub moves: Vec<Move>,
    /// Doubts about the FEN that did not stop it being read.
    pub warnings: Vec<String>,
}

/// What a `go` line asks for.
#[derive(Clone, Debug, Default)]
pub(super) struct Go {
    /// Depth, nodes, time, pondering and the root moves to search (UCI `searchmoves`).
    pub limits: Limits,
    /// The opponent offers a draw (UCCI `go draw`).
    pub draw: bool,
    /// Count leaf nodes to this depth instead of searching (UCI `go perft`).
    pub perft: Option<u32>,
    /// Print the static evaluation and no move (UCCI `go depth 0`).
    pub static_eval: bool,
    /// What the client should know about how the line was read (a value taken otherwise than
    /// given).
    pub notes: Vec<String>,
}

impl Go {
    /// Nodes searched for the move that answers a `go` line that could not be carried out.
    const FALLBACK_NODES: u64 = 20_000;

    /// The search that answers a `go` line that could not be carried out: short and bounded, so
    /// that the client still gets its move, whatever the clock.
    pub fn fallback() -> Go {
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
pub(super) enum Command {
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
    /// `bench [depth]`: the bench positions searched on a fresh engine; the node signature.
    Bench(Option<u32>),
}

impl Command {
    /// Whether the command is accepted while a search runs.
    pub fn allowed_while_busy(&self) -> bool {
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

    /// The command's name in error messages.
    pub fn name(&self) -> &'static str {
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
            Command::Bench(_) => "bench",
        }
    }
}

/// Reads `bench [depth]` (the words after `bench`).
pub(super) fn parse_bench(rest: &[&str]) -> Result<Command, CommandError> {
    match rest {
        [] => Ok(Command::Bench(None)),
        [depth] => super::words::parse_count("depth", Some(depth), "bench", MAX_BENCH_DEPTH as u64)
            .map(|d| Command::Bench(Some(d as u32))),
        [_, extra, ..] => Err(CommandError::Unexpected {
            command: "bench",
            word: super::words::clip(extra),
        }),
    }
}

/// The deepest `bench` the protocols run (a deeper one would hold the session for minutes).
pub(super) const MAX_BENCH_DEPTH: u32 = 16;

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
    /// Clock words that leave the side to move without a clock: only the other side's time or
    /// increment, or `movestogo` alone.
    NoClock {
        /// The command.
        command: &'static str,
        /// The first clock word given.
        given: String,
        /// The words that would give the side to move a clock.
        missing: Vec<String>,
        /// The side to move.
        side: &'static str,
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
            CommandError::NoClock {
                command,
                given,
                missing,
                side,
            } => {
                let missing: Vec<String> = missing.iter().map(|w| format!("'{w}'")).collect();
                write!(
                    f,
                    "{command}: '{given}' is given but neither {}, the clock of {side} (to move)",
                    missing.join(" nor ")
                )
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
            } => write!(f, "{command}: {} not legal in {fen}", moves.join(" ")),
            CommandError::Option(e) => write!(f, "{e}"),
            CommandError::Unsupported(what) => write!(f, "{what}"),
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
