//! Opening lines for matches, from three kinds of file:
//!
//! - a list, one opening per line: a FEN (optionally followed by `moves …`) or ICCS moves from the
//!   start position; blank lines and lines starting with `#` are skipped;
//! - EPD (`.epd`): a board and side to move per line, operations after them ignored;
//! - game records (PGN in any notation, DhtmlXQ, XQF: a `.pgn`, `.xqf`, `.htm`/`.html` file, or any
//!   file whose first line opens a tag): each game's start position and moves.
//!
//! Openings may be cut to a number of plies. Every opening is replayed, so an illegal or already
//! decided one is reported with its file and line (and game, for records).
//!
//! The file is read as game files are: only a regular file (a FIFO or a device would block or never
//! end) of at most [`MAX_FILE_BYTES`]; a list or EPD line may have at most [`MAX_LINE_BYTES`] and a
//! move at most [`MAX_MOVE_BYTES`], and an error quotes only the start of what it refuses.

use crate::fen::{self, FenError};
use crate::game::Game;
use crate::movegen::count_legal;
use crate::moves::{IllegalMove, Move, MoveTextError};
use crate::position::Position;
use crate::record::files::MAX_FILE_BYTES;
use crate::record::{self, RecordError};
use std::fmt;
use std::io::Read;
use std::path::Path;

/// The longest line of a list or EPD file: a few thousand moves.
pub const MAX_LINE_BYTES: usize = 1 << 16;
/// The longest move token of a list (ICCS moves have at most 7 characters, `h10-e10`).
pub const MAX_MOVE_BYTES: usize = 32;
/// How much of refused text an error quotes.
const QUOTED_CHARS: usize = 40;

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
    /// The path names a FIFO, socket, device or directory, not a regular file.
    NotAFile,
    /// The file is larger than [`MAX_FILE_BYTES`] (its size in bytes).
    TooLarge(u64),
    /// A line longer than [`MAX_LINE_BYTES`]: its length and its start.
    LongLine(usize, String),
    /// A move token longer than [`MAX_MOVE_BYTES`]: its length and its start.
    LongMove(usize, String),
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
    /// A game record that could not be read (the error names its file, line and game).
    Record(Box<RecordError>),
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let OpeningErrorKind::Record(e) = &self.kind {
            return write!(f, "{e}");
        }
        if self.line > 0 {
            write!(f, "{}:{}: ", self.source, self.line)?;
        } else {
            write!(f, "{}: ", self.source)?;
        }
        match &self.kind {
            OpeningErrorKind::Io(e) => write!(f, "cannot read: {e}"),
            OpeningErrorKind::NotAFile => write!(
                f,
                "not a regular file (a FIFO, socket, device or directory); openings are read from a file"
            ),
            OpeningErrorKind::TooLarge(bytes) => write!(
                f,
                "{bytes} bytes, more than the {} MiB an openings file may have",
                MAX_FILE_BYTES >> 20
            ),
            OpeningErrorKind::LongLine(bytes, start) => write!(
                f,
                "a line of {bytes} bytes, more than the {MAX_LINE_BYTES} an opening may have (it begins {start:?})"
            ),
            OpeningErrorKind::LongMove(bytes, start) => write!(
                f,
                "a move of {bytes} bytes, more than the {MAX_MOVE_BYTES} a move may have (it begins {start:?})"
            ),
            OpeningErrorKind::Empty => write!(f, "no openings (only blank or # lines)"),
            OpeningErrorKind::Fen(e) => write!(f, "bad FEN: {e}"),
            OpeningErrorKind::MoveText(e) => write!(f, "{e}"),
            OpeningErrorKind::Illegal(e) => write!(f, "{e}"),
            OpeningErrorKind::NoMoves => write!(
                f,
                "the side to move has no legal move at the end of the line"
            ),
            OpeningErrorKind::Record(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for OpeningError {}

/// The kinds of openings file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// One FEN or move list per line.
    List,
    /// EPD: a board and side to move per line.
    Epd,
    /// Game records: PGN, DhtmlXQ or XQF.
    Records,
}

impl FileKind {
    /// The kind of a file, from its name's extension, else from its first line.
    pub fn of(path: &Path, bytes: &[u8]) -> FileKind {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match extension.as_deref() {
            Some("epd") => FileKind::Epd,
            Some("pgn" | "xqf" | "htm" | "html" | "dhtml") => FileKind::Records,
            _ => {
                let first = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)])
                    .lines()
                    .map(|l| l.trim_start_matches('\u{feff}').trim().to_string())
                    .find(|l| !l.is_empty() && !l.starts_with('#'));
                match first {
                    Some(l) if l.starts_with('[') => FileKind::Records,
                    _ => FileKind::List,
                }
            }
        }
    }
}

/// Reads an openings file of any kind, each opening cut to at most `plies` moves.
pub fn load(path: &Path, plies: Option<usize>) -> Result<Vec<Opening>, OpeningError> {
    let source = path.display().to_string();
    let io = |e| OpeningError {
        source: source.clone(),
        line: 0,
        kind: OpeningErrorKind::Io(e),
    };
    let bytes = read_bounded(path).map_err(at_line(&source, 0))?;
    let kind = FileKind::of(path, &bytes);
    let text = || {
        String::from_utf8(bytes.clone()).map_err(|e| {
            io(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("not UTF-8 text ({e})"),
            ))
        })
    };
    match kind {
        FileKind::List => parse_with(&text()?, &source, plies),
        FileKind::Epd => parse_epd(&text()?, &source),
        FileKind::Records => parse_records(&bytes, &source, plies),
    }
}

/// The bytes of an openings file: only a regular file of at most [`MAX_FILE_BYTES`], checked before
/// it is opened (opening a FIFO would wait for a writer) and again while reading (it may grow).
fn read_bounded(path: &Path) -> Result<Vec<u8>, OpeningErrorKind> {
    let meta = std::fs::metadata(path).map_err(OpeningErrorKind::Io)?;
    if !meta.is_file() {
        return Err(OpeningErrorKind::NotAFile);
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(OpeningErrorKind::TooLarge(meta.len()));
    }
    let file = std::fs::File::open(path).map_err(OpeningErrorKind::Io)?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(OpeningErrorKind::Io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(OpeningErrorKind::TooLarge(bytes.len() as u64));
    }
    Ok(bytes)
}

/// The start of a long text, for an error.
fn quoted_start(text: &str) -> String {
    text.chars().take(QUOTED_CHARS).collect()
}

/// Refuses a line longer than [`MAX_LINE_BYTES`].
fn bounded_line(line: &str) -> Result<&str, OpeningErrorKind> {
    if line.len() > MAX_LINE_BYTES {
        return Err(OpeningErrorKind::LongLine(line.len(), quoted_start(line)));
    }
    Ok(line)
}

/// Reads an EPD file: each line's board and side to move (operations after them are ignored).
pub fn parse_epd(text: &str, source: &str) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim().trim_start_matches('\u{feff}');
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = at_line(source, i + 1);
        let line = bounded_line(line).map_err(&err)?;
        let mut fields = line.split_ascii_whitespace();
        let board = fields.next().unwrap_or("");
        let side = fields.next().unwrap_or("").trim_end_matches(';');
        let (start, _) = fen::parse_lenient(&format!("{board} {side}"))
            .map_err(|e| err(OpeningErrorKind::Fen(e)))?;
        if count_legal(&start) == 0 {
            return Err(err(OpeningErrorKind::NoMoves));
        }
        out.push(Opening {
            start,
            moves: Vec::new(),
            line: i + 1,
        });
    }
    non_empty(out, source)
}

/// Reads game records (PGN, DhtmlXQ, XQF): each game's start and its moves, cut to `plies`.
pub fn parse_records(
    bytes: &[u8],
    source: &str,
    plies: Option<usize>,
) -> Result<Vec<Opening>, OpeningError> {
    let record_error = |e: RecordError| OpeningError {
        source: source.to_string(),
        line: e.line.unwrap_or(0) as usize,
        kind: OpeningErrorKind::Record(Box::new(e)),
    };
    let games = record::read_games(source, bytes).map_err(record_error)?;
    let mut out = Vec::new();
    for game in games {
        let game = game.map_err(record_error)?;
        let wanted = plies.unwrap_or(usize::MAX);
        // Moves past a broken one are not needed when the cut comes first.
        if let Some(stop) = game.stop.clone()
            && game.moves.len() < wanted
        {
            return Err(record_error(stop));
        }
        let mut moves = game.moves.clone();
        moves.truncate(wanted);
        let line = game.line as usize;
        let opening = checked(game.start.clone(), moves, line).map_err(at_line(source, line))?;
        out.push(opening);
    }
    non_empty(out, source)
}

/// The opening of `moves` from `start`, replayed: an illegal move or a line that leaves no move
/// to play is refused.
fn checked(start: Position, moves: Vec<Move>, line: usize) -> Result<Opening, OpeningErrorKind> {
    let game = Game::replay(start.clone(), &moves).map_err(OpeningErrorKind::Illegal)?;
    if count_legal(game.position()) == 0 {
        return Err(OpeningErrorKind::NoMoves);
    }
    Ok(Opening { start, moves, line })
}

/// Makes errors at `line` of `source`.
fn at_line(source: &str, line: usize) -> impl Fn(OpeningErrorKind) -> OpeningError + '_ {
    move |kind| OpeningError {
        source: source.to_string(),
        line,
        kind,
    }
}

fn non_empty(out: Vec<Opening>, source: &str) -> Result<Vec<Opening>, OpeningError> {
    if out.is_empty() {
        return Err(OpeningError {
            source: source.to_string(),
            line: 0,
            kind: OpeningErrorKind::Empty,
        });
    }
    Ok(out)
}

/// Reads openings from a list (one per line); `source` names it in errors.
pub fn parse(text: &str, source: &str) -> Result<Vec<Opening>, OpeningError> {
    parse_with(text, source, None)
}

/// [`parse`], each opening cut to at most `plies` moves.
pub fn parse_with(
    text: &str,
    source: &str,
    plies: Option<usize>,
) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = at_line(source, i + 1);
        let line = bounded_line(line).map_err(&err)?;
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
        let mut moves = Vec::new();
        // Move numbers ("1.") may separate the moves.
        for token in move_text.split_whitespace().filter(|t| !t.ends_with('.')) {
            if token.len() > MAX_MOVE_BYTES {
                return Err(err(OpeningErrorKind::LongMove(
                    token.len(),
                    quoted_start(token),
                )));
            }
            let m: Move = token
                .parse()
                .map_err(|e| err(OpeningErrorKind::MoveText(e)))?;
            moves.push(m);
        }
        moves.truncate(plies.unwrap_or(usize::MAX));
        out.push(checked(start, moves, i + 1).map_err(err)?);
    }
    non_empty(out, source)
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

    #[test]
    fn epd_lines_give_positions() {
        let text = "# two positions\n\
                    rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - bm h2e2; id \"start\";\n\
                    \n\
                    c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 b;\n";
        let o = parse_epd(text, "t.epd").unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].start, Position::startpos());
        assert_eq!((o[0].line, o[1].line), (2, 4));
        assert!(o.iter().all(|o| o.moves.is_empty()));
        assert_eq!(o[1].start.side_to_move(), crate::square::Color::Black);
        let e = parse_epd("9/9 w\n", "t.epd").unwrap_err();
        assert!(e.to_string().starts_with("t.epd:1: bad FEN"), "{e}");
    }

    #[test]
    fn game_records_give_their_moves_cut_to_plies() {
        let pgn = "[Event \"a\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 1-0\n\n\
                   [Event \"b\"]\n\n1. 炮二平五 馬８進７ 2. 馬二進三 *\n";
        let all = parse_records(pgn.as_bytes(), "g.pgn", None).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!((all[0].moves.len(), all[1].moves.len()), (4, 3));
        assert_eq!(all[0].line, 1);
        // The Chinese notation reads to the same moves.
        assert_eq!(all[1].moves[..], all[0].moves[..3]);
        let cut = parse_records(pgn.as_bytes(), "g.pgn", Some(2)).unwrap();
        assert!(cut.iter().all(|o| o.moves.len() == 2));
        // A broken move is an error naming the game, unless the cut comes before it.
        let broken = "[Event \"a\"]\n\n1. h2e2 h9g7 2. h2h9 *\n";
        let e = parse_records(broken.as_bytes(), "g.pgn", None).unwrap_err();
        assert!(
            e.to_string().contains("g.pgn") && e.to_string().contains("game 1"),
            "{e}"
        );
        assert_eq!(
            parse_records(broken.as_bytes(), "g.pgn", Some(2)).unwrap()[0]
                .moves
                .len(),
            2
        );
    }

    #[test]
    fn file_kinds_from_names_and_first_lines() {
        let kind = |name: &str, text: &str| FileKind::of(Path::new(name), text.as_bytes());
        assert_eq!(kind("o.epd", "x"), FileKind::Epd);
        assert_eq!(kind("o.PGN", "h2e2"), FileKind::Records);
        assert_eq!(kind("o.txt", "# c\n\n[Event \"x\"]\n"), FileKind::Records);
        assert_eq!(kind("o.txt", "h2e2 h9g7\n"), FileKind::List);
        let cut = parse_with("h2e2 h9g7 h0g2\n", "t", Some(1)).unwrap();
        assert_eq!(cut[0].moves.len(), 1);
    }
}
