//! FEN text ↔ `Position`, and the position's text traits (`Display`, `Debug`, `FromStr`, the start
//! position) so that `position` needs nothing from here. Lenient on input: `E`/`H` as aliases of
//! `B`/`N`, `r` for Red to move, missing counters and `-` fields may be left out.

use crate::piece::Piece;
use crate::position::{Position, PositionError, Validation};
use crate::square::{Color, Square};
use std::fmt;

/// The standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why FEN text could not become a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text is empty.
    Empty,
    /// The board field does not have ten rows separated by `/`.
    RowCount(usize),
    /// A row (numbered from 1 at the top, rank 9) does not describe exactly nine points.
    RowWidth {
        /// Row number from the top, 1-based.
        row: usize,
        /// How many points it describes.
        width: usize,
    },
    /// A character that is neither a piece letter nor a digit 1–9.
    BadBoardChar {
        /// Row number from the top, 1-based.
        row: usize,
        /// The character.
        ch: char,
    },
    /// The side-to-move field is not `w`, `r` or `b`.
    BadSide(String),
    /// A counter that is not a non-negative number.
    BadCounter(String),
    /// Extra fields after the counters.
    TrailingFields(String),
    /// The board is not a playable position.
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::RowCount(1) => {
                write!(
                    f,
                    "the board has 1 row; a FEN board has 10 separated by '/'"
                )
            }
            FenError::RowCount(n) => write!(
                f,
                "the board has {n} rows; a FEN board has 10 separated by '/'"
            ),
            FenError::RowWidth { row, width } => {
                let points = if *width == 1 { "point" } else { "points" };
                write!(
                    f,
                    "row {row} (rank {}) describes {width} {points} instead of 9",
                    10 - row
                )
            }
            FenError::BadBoardChar { row, ch } => {
                write!(
                    f,
                    "row {row} (rank {}) has {ch:?}, which is not a piece letter or digit 1-9",
                    10 - row
                )
            }
            FenError::BadSide(s) => write!(f, "side to move {s:?} is not w, r or b"),
            FenError::BadCounter(s) => write!(f, "move counter {s:?} is not a number"),
            FenError::TrailingFields(s) => {
                write!(f, "unexpected text after the move counters: {s:?}")
            }
            FenError::Position(e) => write!(f, "impossible position: {e}"),
        }
    }
}

impl std::error::Error for FenError {}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Position(e)
    }
}

/// Parses FEN strictly: a piece on a square it can never reach is an error.
pub fn parse(text: &str) -> Result<Position, FenError> {
    parse_with(text, Validation::Strict).map(|(p, _)| p)
}

/// Parses FEN, reporting pieces on unreachable squares as warnings instead of errors (diagrams and
/// composed problems have them).
pub fn parse_lenient(text: &str) -> Result<(Position, Vec<PositionError>), FenError> {
    parse_with(text, Validation::Lenient)
}

fn parse_with(
    text: &str,
    validation: Validation,
) -> Result<(Position, Vec<PositionError>), FenError> {
    let mut fields = text.split_ascii_whitespace();
    let board_text = fields.next().ok_or(FenError::Empty)?;
    let rows: Vec<&str> = board_text.split('/').collect();
    if rows.len() != 10 {
        return Err(FenError::RowCount(rows.len()));
    }
    let mut board = [None; 90];
    for (i, row) in rows.iter().enumerate() {
        let rank = 9 - i;
        let mut file = 0usize;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                file += d as usize;
            } else if let Some(p) = Piece::from_fen_char(ch) {
                if file < 9 {
                    board[rank * 9 + file] = Some(p);
                }
                file += 1;
            } else {
                return Err(FenError::BadBoardChar { row: i + 1, ch });
            }
            if file > 9 {
                break;
            }
        }
        if file != 9 {
            return Err(FenError::RowWidth {
                row: i + 1,
                width: file,
            });
        }
    }
    let side = match fields.next() {
        None | Some("w" | "W" | "r" | "R") => Color::Red,
        Some("b" | "B") => Color::Black,
        Some(other) => return Err(FenError::BadSide(other.to_string())),
    };
    // Castling and en-passant fields, always '-' in Xiangqi; some writers leave them out.
    let rest: Vec<&str> = fields.collect();
    let dashes = rest.iter().take_while(|&&field| field == "-").count();
    let rest = &rest[dashes..];
    let counter = |s: Option<&&str>, default: u32| -> Result<u32, FenError> {
        match s {
            None => Ok(default),
            Some(s) => s.parse().map_err(|_| FenError::BadCounter(s.to_string())),
        }
    };
    let halfmoves = counter(rest.first(), 0)?;
    let fullmoves = counter(rest.get(1), 1)?;
    if rest.len() > 2 {
        return Err(FenError::TrailingFields(rest[2..].join(" ")));
    }
    Ok(Position::from_board(
        board, side, halfmoves, fullmoves, validation,
    )?)
}

/// Writes the position as FEN (`w`/`b`, `- -`, both counters).
pub fn format(pos: &Position) -> String {
    let mut out = String::with_capacity(90);
    for rank in (0..10u8).rev() {
        let mut empty = 0;
        for file in 0..9u8 {
            match pos.piece_at(Square::from_index(rank * 9 + file)) {
                Some(p) => {
                    if empty > 0 {
                        out.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    out.push(p.fen_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push((b'0' + empty) as char);
        }
        if rank > 0 {
            out.push('/');
        }
    }
    let side = match pos.side_to_move() {
        Color::Red => 'w',
        Color::Black => 'b',
    };
    format!("{out} {side} - - {} {}", pos.halfmoves(), pos.fullmoves())
}

impl Position {
    /// The standard start position, Red to move.
    pub fn startpos() -> Position {
        parse(START_FEN).expect("the start position is valid")
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", format(self))
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format(self))
    }
}

impl std::str::FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, Self::Err> {
        parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trip() {
        let pos = parse(START_FEN).unwrap();
        assert_eq!(format(&pos), START_FEN);
    }

    #[test]
    fn lenient_forms() {
        let a = parse("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r").unwrap();
        assert_eq!(format(&a), START_FEN);
        let b = parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w 0 1").unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn any_number_of_dash_fields_is_read_in_one_pass() {
        // 200,000 fields: skipped one by one from the front, this took seconds.
        let dashes = format!("{START_FEN}{}", " -".repeat(200_000));
        let pos = parse(&dashes.replace(" - - 0 1", "")).unwrap();
        assert_eq!(format(&pos), START_FEN);
        let counted = format!("{} 3 7", dashes.replace(" - - 0 1", ""));
        let pos = parse(&counted).unwrap();
        assert_eq!(format(&pos), START_FEN.replace(" 0 1", " 3 7"));
    }

    #[test]
    fn one_row_and_one_point_are_counted_in_the_singular() {
        assert_eq!(
            parse("9 w").unwrap_err().to_string(),
            "the board has 1 row; a FEN board has 10 separated by '/'"
        );
        assert_eq!(
            parse("9/9/9").unwrap_err().to_string(),
            "the board has 3 rows; a FEN board has 10 separated by '/'"
        );
        let one_point = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1 w";
        assert_eq!(
            parse(one_point).unwrap_err().to_string(),
            "row 10 (rank 0) describes 1 point instead of 9"
        );
    }

    #[test]
    fn typed_errors() {
        let cases = [
            ("", FenError::Empty),
            ("9/9/9", FenError::RowCount(3)),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
                FenError::RowWidth { row: 10, width: 8 },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
                FenError::RowWidth { row: 10, width: 10 },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1x1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                FenError::BadBoardChar { row: 4, ch: 'x' },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
                FenError::BadSide("x".into()),
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - z 1",
                FenError::BadCounter("z".into()),
            ),
            (
                "rnbaqabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                FenError::BadBoardChar { row: 1, ch: 'q' },
            ),
            (
                "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                FenError::Position(PositionError::MissingKing(Color::Black)),
            ),
            (
                "4k4/9/9/9/9/9/9/9/9/4K4 w",
                FenError::Position(PositionError::FacingKings),
            ),
            (
                "3k5/9/9/9/9/9/9/9/9/3KR4 w",
                FenError::Position(PositionError::FacingKings),
            ),
            (
                "3k4R/9/9/9/9/9/9/9/9/4K4 w",
                FenError::Position(PositionError::OpponentInCheck(Color::Black)),
            ),
            (
                "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 x",
                FenError::TrailingFields("x".into()),
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(parse(text).err(), Some(expected), "{text}");
        }
        assert!(parse("3k4R/9/9/9/9/9/9/9/9/4K4 b").unwrap().in_check());
    }

    #[test]
    fn unreachable_pieces() {
        // A black pawn behind its start rank (as in one WXF diagram): strict rejects, lenient warns.
        let fen = "3k5/8p/9/9/9/9/9/9/9/4K4 w";
        assert!(matches!(
            parse(fen),
            Err(FenError::Position(PositionError::Unreachable(..)))
        ));
        let (_, warnings) = parse_lenient(fen).unwrap();
        assert_eq!(warnings.len(), 1);
        assert!(
            parse("3k5/9/9/9/9/9/9/9/9/B3K4 w").is_err(),
            "elephant on a0"
        );
        assert!(
            parse("3k5/9/9/9/9/9/9/9/4A4/4K4 w").is_ok(),
            "advisor on e1"
        );
        assert!(
            parse("3k5/9/9/9/9/9/9/9/3A5/4K4 w").is_err(),
            "advisor on d1"
        );
        assert!(
            parse("3k5/9/9/9/9/9/9/9/9/2K6 w").is_err(),
            "king outside palace"
        );
    }
}
