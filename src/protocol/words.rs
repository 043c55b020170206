//! The word readers both protocols share: positions and move lists, counts and times, and the
//! shortening of echoed input in error messages.

use super::command::{Command, CommandError, Setup};
use crate::fen;
use crate::moves::{Move, RankStyle};
use crate::position::Position;
use std::time::Duration;

pub(super) fn first_word(line: &str) -> Option<&str> {
    line.split_ascii_whitespace().next()
}

/// `c` if no words follow the command, else an error naming the first extra word.
pub(super) fn expect_end(
    command: &'static str,
    rest: &[&str],
    c: Command,
) -> Result<Command, CommandError> {
    match rest.first() {
        None => Ok(c),
        Some(w) => Err(CommandError::Unexpected {
            command,
            word: clip(w),
        }),
    }
}

/// A word from the input, shortened for an error message.
pub(super) fn clip(word: &str) -> String {
    crate::clip::clip(word, 40)
}

/// Reads `fen <FEN> | startpos` and an optional `moves …` list from `words`.
pub(super) fn parse_setup(
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
pub(super) fn parse_moves(words: &[&str], ranks: RankStyle) -> Result<Vec<Move>, CommandError> {
    words.iter().map(|w| parse_move(w, ranks)).collect()
}

pub(super) fn parse_move(word: &str, ranks: RankStyle) -> Result<Move, CommandError> {
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
pub(super) fn parse_count(
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
pub(super) fn parse_time(
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

/// Moves as text, separated by spaces.
pub(super) fn moves_text(moves: &[Move], ranks: RankStyle) -> String {
    moves
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
