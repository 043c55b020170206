//! `Move` (from, to packed in a `u16`), the fixed-capacity `MoveList`, and coordinate move text
//! (ICCS/UCCI ranks 0–9, or the 1–10 rank form of some UCI clients).

use crate::square::{File, Rank, Square};
use arrayvec::ArrayVec;
use std::fmt;

/// A move from one square to another; what it captures is read from the position.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

impl Move {
    /// The move from `from` to `to`.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move((from.index() as u16) << 7 | to.index() as u16)
    }

    /// The square the piece leaves.
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index((self.0 >> 7) as u8)
    }

    /// The square the piece goes to.
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 & 0x7f) as u8)
    }

    /// The move reflected left–right.
    pub const fn mirror(self) -> Move {
        Move::new(self.from().mirror(), self.to().mirror())
    }

    /// The move reflected top–bottom.
    pub const fn flip(self) -> Move {
        Move::new(self.from().flip(), self.to().flip())
    }

    /// The move as text in the given rank convention.
    pub fn text(self, ranks: RankStyle) -> String {
        match ranks {
            RankStyle::ZeroToNine => self.to_string(),
            RankStyle::OneToTen => format!(
                "{}{}{}{}",
                self.from().file().char(),
                self.from().rank().index() + 1,
                self.to().file().char(),
                self.to().rank().index() + 1
            ),
        }
    }

    /// Parses coordinate text in the given rank convention. Accepts either case and an optional `-`
    /// between the squares (`H2-E2`, as in ICCS game records).
    pub fn parse(text: &str, ranks: RankStyle) -> Result<Move, MoveTextError> {
        let err = |kind| MoveTextError {
            text: text.to_string(),
            kind,
        };
        if !text.is_ascii() {
            return Err(err(MoveTextErrorKind::NotAscii));
        }
        let b = text.as_bytes();
        let (from, rest) = parse_square(b, ranks).map_err(err)?;
        let rest = rest.strip_prefix(b"-").unwrap_or(rest);
        let (to, rest) = parse_square(rest, ranks).map_err(err)?;
        if !rest.is_empty() {
            return Err(err(MoveTextErrorKind::TrailingText));
        }
        if from == to {
            return Err(err(MoveTextErrorKind::NullMove));
        }
        Ok(Move::new(from, to))
    }
}

fn parse_square(b: &[u8], ranks: RankStyle) -> Result<(Square, &[u8]), MoveTextErrorKind> {
    let (&f, rest) = b.split_first().ok_or(MoveTextErrorKind::TooShort)?;
    let file = File::new(f.to_ascii_lowercase().wrapping_sub(b'a'))
        .ok_or(MoveTextErrorKind::BadFile(f as char))?;
    let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
    let max_digits = match ranks {
        RankStyle::ZeroToNine => 1,
        RankStyle::OneToTen => 2,
    };
    if digits == 0 {
        return Err(match rest.first() {
            Some(&c) => MoveTextErrorKind::BadRank((c as char).to_string()),
            None => MoveTextErrorKind::TooShort,
        });
    }
    // In the 1–10 form, "10" is the only two-digit rank; "a1a2" must read as a1 then a2.
    let take = if max_digits == 2 && digits >= 2 && rest[0] == b'1' && rest[1] == b'0' {
        2
    } else {
        1
    };
    let value: u32 = rest[..take]
        .iter()
        .fold(0, |v, &d| v * 10 + (d - b'0') as u32);
    let index = match ranks {
        RankStyle::ZeroToNine => Some(value),
        RankStyle::OneToTen => value.checked_sub(1),
    };
    let rank = index
        .and_then(|i| u8::try_from(i).ok())
        .and_then(Rank::new)
        .ok_or_else(|| {
            MoveTextErrorKind::BadRank(String::from_utf8_lossy(&rest[..take]).into_owned())
        })?;
    Ok((Square::at(file, rank), &rest[take..]))
}

/// Which numbers name the ranks in move text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RankStyle {
    /// ICCS/UCCI: ranks 0–9 (`h2e2`).
    #[default]
    ZeroToNine,
    /// Ranks 1–10, as Fairy-Stockfish-style UCI clients write them (`h3e3`, `a10a9`).
    OneToTen,
}

/// Why move text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveTextError {
    /// The text given.
    pub text: String,
    /// What is wrong with it.
    pub kind: MoveTextErrorKind,
}

/// The ways move text can be malformed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveTextErrorKind {
    /// Not plain ASCII.
    NotAscii,
    /// Ends before both squares are given.
    TooShort,
    /// A file letter outside `a`..`i`.
    BadFile(char),
    /// A rank outside the convention's range.
    BadRank(String),
    /// Characters after the second square.
    TrailingText,
    /// Both squares are the same.
    NullMove,
}

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad move text {:?}: ", self.text)?;
        match &self.kind {
            MoveTextErrorKind::NotAscii => write!(f, "not plain ASCII"),
            MoveTextErrorKind::TooShort => {
                write!(f, "too short; expected two squares such as h2e2")
            }
            MoveTextErrorKind::BadFile(c) => write!(f, "file {c:?} is not a letter a..i"),
            MoveTextErrorKind::BadRank(r) => write!(f, "rank {r:?} is off the board"),
            MoveTextErrorKind::TrailingText => {
                write!(f, "unexpected characters after the second square")
            }
            MoveTextErrorKind::NullMove => write!(f, "the two squares are the same"),
        }
    }
}

impl std::error::Error for MoveTextError {}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl std::str::FromStr for Move {
    type Err = MoveTextError;
    /// Parses ICCS text (ranks 0–9).
    fn from_str(s: &str) -> Result<Move, MoveTextError> {
        Move::parse(s, RankStyle::ZeroToNine)
    }
}

/// A move that cannot be played in the position it was tried in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
    /// The position it was tried in, as FEN.
    pub fen: String,
    /// The ply it would have been (1 = the first move).
    pub ply: usize,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ply {}: {} is not legal in {}",
            self.ply, self.mv, self.fen
        )
    }
}

impl std::error::Error for IllegalMove {}

/// Most moves a side can have in one position (2 rooks and 2 cannons × 17, 2 horses × 8, 5 pawns × 3,
/// 4 advisor and elephant moves each, 4 king moves: 119).
pub const MAX_MOVES: usize = 128;

/// A list of moves with fixed capacity, on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trip() {
        for from in Square::all() {
            for to in Square::all().filter(|&t| t != from) {
                let m = Move::new(from, to);
                assert_eq!(m.from(), from);
                assert_eq!(m.to(), to);
                for style in [RankStyle::ZeroToNine, RankStyle::OneToTen] {
                    assert_eq!(Move::parse(&m.text(style), style), Ok(m));
                }
            }
        }
    }

    #[test]
    fn forms() {
        let m: Move = "h2e2".parse().unwrap();
        assert_eq!(Move::parse("H2-E2", RankStyle::ZeroToNine), Ok(m));
        assert_eq!(Move::parse("h3e3", RankStyle::OneToTen), Ok(m));
        assert_eq!(
            Move::parse("a10a9", RankStyle::OneToTen)
                .unwrap()
                .to_string(),
            "a9a8"
        );
        assert_eq!(
            Move::parse("a1a2", RankStyle::OneToTen)
                .unwrap()
                .to_string(),
            "a0a1"
        );
        for bad in ["", "h2", "h2e", "j2e2", "h2e2x", "h2h2", "a0a10", "h2é2"] {
            assert!(Move::parse(bad, RankStyle::ZeroToNine).is_err(), "{bad}");
        }
        for bad in ["a0a1", "a11a1", "a10a"] {
            assert!(Move::parse(bad, RankStyle::OneToTen).is_err(), "{bad}");
        }
    }
}
