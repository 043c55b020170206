//! The `go` grammar of both protocols: the words they share are read here, once, and each dialect
//! brings a table of its own words (UCCI `time … opptime …`, UCI `wtime … searchmoves …`) and
//! says what a line that gives the side to move no clock means.

use super::command::{CommandError, Go};
use super::words::{clip, parse_count, parse_time};
use crate::moves::RankStyle;
use crate::search::time::Clock;
use crate::square::Color;
use std::time::Duration;

/// The command name in error messages.
pub(super) const GO: &str = "go";

/// The words of a `go` line after `go`, read front to back.
pub(super) struct GoWords<'a> {
    words: &'a [&'a str],
    next: usize,
    /// The keyword being read, for error messages.
    keyword: &'a str,
}

impl<'a> GoWords<'a> {
    /// The next word without taking it.
    pub fn peek(&self) -> Option<&'a str> {
        self.words.get(self.next).copied()
    }

    /// Takes the next word (a keyword's value); `None` at the end of the line.
    pub fn take(&mut self) -> Option<&'a str> {
        let word = self.peek();
        self.next += usize::from(word.is_some());
        word
    }
}

/// What a `go` line has said so far.
#[derive(Default)]
pub(super) struct GoLine {
    pub go: Go,
    /// Time left on each side's clock, Red's first.
    pub time: [Option<Duration>; 2],
    /// Each side's increment, Red's first.
    pub increment: [Option<Duration>; 2],
    /// Moves until the next time control.
    pub moves_to_go: Option<u32>,
}

/// How a keyword is read: from the words after it, into the line.
type Read = fn(&mut GoLine, &mut GoWords, &GoDialect) -> Result<(), CommandError>;

/// One keyword of the grammar and how it is read.
pub(super) struct GoWord {
    word: &'static str,
    read: Read,
}

impl GoWord {
    pub const fn new(word: &'static str, read: Read) -> GoWord {
        GoWord { word, read }
    }
}

/// How a dialect reads `go`: its time unit, its move text, the side to move, its own words and
/// its answer to a line whose clock words give the side to move no clock.
pub(super) struct GoDialect {
    /// What a time of 1 means.
    pub unit: Duration,
    /// Rank numbers in move text.
    pub ranks: RankStyle,
    /// The side to move.
    pub side: Color,
    /// The dialect's own words, read before the shared ones (a word in both is the dialect's).
    pub words: &'static [GoWord],
    /// Called when the side to move has neither a time nor an increment; `seen` holds the
    /// keywords in the order given.
    pub no_clock: fn(&GoLine, &[&str], Color) -> Result<(), CommandError>,
}

impl GoDialect {
    fn word(&self, word: &str) -> Option<&GoWord> {
        self.words
            .iter()
            .chain(SHARED_WORDS)
            .find(|w| w.word == word)
    }

    /// Whether `word` is a keyword of this dialect's `go` (it ends a move list).
    pub fn is_keyword(&self, word: &str) -> bool {
        self.word(word).is_some()
    }

    /// Reads the keyword's time, in the dialect's unit.
    pub fn time(&self, words: &mut GoWords) -> Result<Duration, CommandError> {
        parse_time(words.keyword, words.take().as_ref(), GO, self.unit)
    }
}

/// Reads the keyword's whole number, at most `max`.
pub(super) fn count(words: &mut GoWords, max: u64) -> Result<u64, CommandError> {
    parse_count(words.keyword, words.take().as_ref(), GO, max)
}

/// A clock word: sets `side`'s time, or its increment if `increment`.
pub(super) fn clock(
    line: &mut GoLine,
    words: &mut GoWords,
    dialect: &GoDialect,
    side: Color,
    increment: bool,
) -> Result<(), CommandError> {
    let value = Some(dialect.time(words)?);
    match increment {
        false => line.time[side.index()] = value,
        true => line.increment[side.index()] = value,
    }
    Ok(())
}

/// The words both protocols read alike.
const SHARED_WORDS: &[GoWord] = &[
    GoWord::new("ponder", |line, _, _| {
        line.go.limits.ponder = true;
        Ok(())
    }),
    GoWord::new("infinite", |line, _, _| {
        line.go.limits.infinite = true;
        Ok(())
    }),
    GoWord::new("depth", |line, words, _| {
        line.go.limits.depth = Some(count(words, u32::MAX as u64)? as u32);
        Ok(())
    }),
    GoWord::new("nodes", |line, words, _| {
        line.go.limits.nodes = Some(count(words, u64::MAX)?);
        Ok(())
    }),
    GoWord::new("movetime", |line, words, dialect| {
        line.go.limits.movetime = Some(dialect.time(words)?);
        Ok(())
    }),
    // `movestogo 0` would be a time control already reached; it is read as 1, the move to be
    // played now being the last before the control, and the client is told.
    GoWord::new("movestogo", |line, words, _| {
        let m = count(words, u32::MAX as u64)? as u32;
        if m == 0 {
            line.go
                .notes
                .push("go: 'movestogo 0' is read as 'movestogo 1'".to_string());
        }
        line.moves_to_go = Some(m.max(1));
        Ok(())
    }),
];

/// Reads the words after `go`, keywords in any order, each at most once.
pub(super) fn parse_go(words: &[&str], dialect: &GoDialect) -> Result<Go, CommandError> {
    let mut cursor = GoWords {
        words,
        next: 0,
        keyword: "",
    };
    let mut line = GoLine::default();
    let mut seen: Vec<&str> = Vec::new();
    while let Some(word) = cursor.take() {
        if seen.contains(&word) {
            return Err(CommandError::Repeated {
                command: GO,
                keyword: word.to_string(),
            });
        }
        seen.push(word);
        let Some(keyword) = dialect.word(word) else {
            return Err(CommandError::Unexpected {
                command: GO,
                word: clip(word),
            });
        };
        cursor.keyword = word;
        (keyword.read)(&mut line, &mut cursor, dialect)?;
    }
    let ours = dialect.side.index();
    match (line.time[ours], line.increment[ours]) {
        (Some(remaining), increment) => {
            line.go.limits.clock = Some(Clock {
                remaining,
                increment: increment.unwrap_or_default(),
                moves_to_go: line.moves_to_go,
            });
        }
        // An increment and no time: a game played on the increment alone (so many seconds a
        // move), so the increment is this move's budget, as with `movetime`.
        (None, Some(increment)) => {
            line.go.limits.movetime.get_or_insert(increment);
        }
        (None, None) => (dialect.no_clock)(&line, &seen, dialect.side)?,
    }
    Ok(line.go)
}
