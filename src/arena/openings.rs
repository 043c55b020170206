//! Opening lines for matches, one per line: a FEN (optionally followed by `moves …`) or a list of
//! ICCS moves from the start position. Blank lines and lines starting with `#` are skipped. Every
//! line is replayed, so an illegal or already decided opening is reported with its line number.

use crate::fen::{self, FenError};
use crate::judge::{History, Rules};
use crate::movegen::count_legal;
use crate::moves::{IllegalMove, Move, MoveTextError};
use crate::position::Position;
use std::fmt;
use std::path::Path;

/// A start position and the moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The position the game record starts from.
    pub start: Position,
    /// The book moves, played for both engines.
    pub moves: Vec<Move>,
    /// The line in the openings file (1-based; 0 for the built-in start position).
    pub line: usize,
}

impl Opening {
    /// The standard start position with no book moves.
    pub fn startpos() -> Opening {
        Opening {
            start: Position::startpos(),
            moves: Vec::new(),
            line: 0,
        }
    }
}

/// Why an openings file could not be used.
#[derive(Debug)]
pub struct OpeningError {
    /// The file (or another name for the text).
    pub source: String,
    /// The line, 1-based (0 when the whole file is at fault).
    pub line: usize,
    /// What is wrong.
    pub kind: OpeningErrorKind,
}

/// The ways an opening line can be wrong.
#[derive(Debug)]
pub enum OpeningErrorKind {
    /// The file could not be read.
    Io(std::io::Error),
    /// The file has no openings.
    Empty,
    /// Bad FEN.
    Fen(FenError),
    /// Bad move text.
    MoveText(MoveTextError),
    /// A move that is not legal where it is played.
    Illegal(IllegalMove),
    /// The side to move has no legal move at the end of the line.
    NoMoves,
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "{}:{}: ", self.source, self.line)?;
        } else {
            write!(f, "{}: ", self.source)?;
        }
        match &self.kind {
            OpeningErrorKind::Io(e) => write!(f, "cannot read: {e}"),
            OpeningErrorKind::Empty => write!(f, "no openings (only blank or # lines)"),
            OpeningErrorKind::Fen(e) => write!(f, "bad FEN: {e}"),
            OpeningErrorKind::MoveText(e) => write!(f, "{e}"),
            OpeningErrorKind::Illegal(e) => write!(f, "{e}"),
            OpeningErrorKind::NoMoves => write!(
                f,
                "the side to move has no legal move at the end of the line"
            ),
        }
    }
}

impl std::error::Error for OpeningError {}

/// Reads an openings file.
pub fn load(path: &Path) -> Result<Vec<Opening>, OpeningError> {
    let source = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| OpeningError {
        source: source.clone(),
        line: 0,
        kind: OpeningErrorKind::Io(e),
    })?;
    parse(&text, &source)
}

/// Reads openings from text; `source` names it in errors.
pub fn parse(text: &str, source: &str) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |kind| OpeningError {
            source: source.to_string(),
            line: i + 1,
            kind,
        };
        let (start, move_text) = if line.contains('/') {
            let (fen_text, moves) = match line.split_once(" moves") {
                Some((f, m)) => (f, m),
                None => (line, ""),
            };
            let (pos, _) =
                fen::parse_lenient(fen_text).map_err(|e| err(OpeningErrorKind::Fen(e)))?;
            (pos, moves)
        } else {
            (Position::startpos(), line)
        };
        let mut history = History::new(start.clone(), Rules::default());
        let mut moves = Vec::new();
        // Move numbers ("1.") may separate the moves.
        for token in move_text.split_whitespace().filter(|t| !t.ends_with('.')) {
            let m: Move = token
                .parse()
                .map_err(|e| err(OpeningErrorKind::MoveText(e)))?;
            history
                .push(m)
                .map_err(|e| err(OpeningErrorKind::Illegal(e)))?;
            moves.push(m);
        }
        if count_legal(history.position()) == 0 {
            return Err(err(OpeningErrorKind::NoMoves));
        }
        out.push(Opening {
            start,
            moves,
            line: i + 1,
        });
    }
    if out.is_empty() {
        return Err(OpeningError {
            source: source.to_string(),
            line: 0,
            kind: OpeningErrorKind::Empty,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        let text = "# comment\n\nh2e2 h9g7\n1. h2e2 h9g7 2. h0g2\n\
                    rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2\n\
                    c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w\n";
        let o = parse(text, "t").unwrap();
        assert_eq!(o.len(), 4);
        assert_eq!(o[0].line, 3);
        assert_eq!(o[0].moves.len(), 2);
        assert_eq!(o[1].moves.len(), 3);
        assert_eq!(o[2].moves.len(), 1);
        assert!(o[3].moves.is_empty());
        assert_eq!(
            o[3].start.to_string(),
            "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w - - 0 1"
        );
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse("h2e2\nh2e2 h2e3\n", "book.txt").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.to_string().starts_with("book.txt:2: "), "{e}");
        assert!(matches!(e.kind, OpeningErrorKind::Illegal(_)));
        assert!(matches!(
            parse("h2e2 zz\n", "b").unwrap_err().kind,
            OpeningErrorKind::MoveText(_)
        ));
        assert!(matches!(
            parse("9/9 w\n", "b").unwrap_err().kind,
            OpeningErrorKind::Fen(_)
        ));
        assert!(matches!(
            parse("# x\n", "b").unwrap_err().kind,
            OpeningErrorKind::Empty
        ));
    }
}
