//! Game records: reading files in every supported format and encoding into games, and resolving
//! their move text against positions. `read_file` detects the format (XQF, DhtmlXQ, PGN-like text)
//! and the encoding and splits the file into games; `resolve` replays one game's tokens into moves,
//! trying the notations the tokens could be in and keeping the one that replays.
//!
//! Errors name the file, line, game and ply. A bad game never stops the others: each game resolves
//! on its own, and a move that cannot be resolved ends that game's move list with an error.

pub mod describe;
pub mod dhtmlxq;
pub mod encoding;
pub mod files;
pub mod notation;
pub mod pgn;
pub mod result;
pub mod stream;
pub mod xqf;

pub use result::{RecordedResult, parse_result};

use crate::fen;
use crate::moves::{Move, RankStyle};
use crate::piece::Piece;
use crate::position::{Position, Validation};
use crate::square::Color;
use encoding::Encoding;
use notation::{MarkWarning, Notation, TokenError, resolve as resolve_token, shapes};
use std::fmt;

/// The order of one side's 16 pieces in DhtmlXQ `binit` strings and XQF piece tables:
/// R N B A K A B N R C C P P P P P.
pub(crate) const PIECE_SLOTS: [crate::piece::PieceKind; 16] = {
    use crate::piece::PieceKind::*;
    [
        Rook, Horse, Elephant, Advisor, King, Advisor, Elephant, Horse, Rook, Cannon, Cannon, Pawn,
        Pawn, Pawn, Pawn, Pawn,
    ]
};

/// The container format of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// PGN with tags (xqbase XQ PGN, coordinate PGN, XBoard PGN, ...).
    Pgn,
    /// Moves without tags.
    MoveList,
    /// A DhtmlXQ/UBB block.
    DhtmlXq,
    /// An XQF binary file.
    Xqf,
}

impl Format {
    /// The name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Format::Pgn => "PGN",
            Format::MoveList => "move list",
            Format::DhtmlXq => "DhtmlXQ",
            Format::Xqf => "XQF",
        }
    }
}

/// A move as written in the record, with its line (0 when the format has no lines).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveToken {
    /// The text.
    pub text: String,
    /// The line it is on, 1-based.
    pub line: u32,
}

/// Where a game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The standard start position, Red to move.
    Standard,
    /// A FEN from the record.
    Fen(String),
    /// A board from a binary or DhtmlXQ piece table; the side to move is the owner of the piece
    /// the first move moves (Red when there is no move).
    Board(Box<[Option<Piece>; 90]>),
}

/// One game as split from a file, before its moves are resolved.
#[derive(Clone, Debug)]
pub struct RawGame {
    /// 1-based number of the game in its file.
    pub index: usize,
    /// The line where the game starts (0 for binary formats).
    pub line: u32,
    /// The container format.
    pub format: Format,
    /// The tags, in file order (unknown tags kept).
    pub tags: Vec<(String, String)>,
    /// The move tokens of the main line.
    pub tokens: Vec<MoveToken>,
    /// The result token that ended the move text, if any.
    pub result: Option<String>,
    /// The start position.
    pub start: Start,
    /// The notations the tokens are in, when the format fixes them.
    pub notations: Option<Vec<Notation>>,
    /// Remarks on the reading (variations skipped, ...).
    pub notes: Vec<ReaderNote>,
    /// A defect found while splitting (a cut-off file, an unclosed comment), reported after the
    /// moves read before it.
    pub defect: Option<Defect>,
}

/// What is wrong with a game's text, found while splitting it, and where.
#[derive(Clone, Debug)]
pub struct Defect {
    /// The line the defect starts at (`None`: just after the last move token).
    pub line: Option<u32>,
    /// What is wrong.
    pub kind: ErrorKind,
}

impl Defect {
    /// A defect at `line`.
    pub fn at(line: u32, message: String) -> Defect {
        Defect {
            line: Some(line),
            kind: ErrorKind::Format(message),
        }
    }
}

impl RawGame {
    /// The value of a tag, by case-insensitive name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag(&self.tags, name)
    }

    /// Moves every line number of the game `by` lines down (a game read from a piece of a text).
    pub fn shift_lines(&mut self, by: u32) {
        let shift = |line: &mut u32| *line = line.saturating_add(by);
        if self.line > 0 {
            shift(&mut self.line);
        }
        self.tokens.iter_mut().for_each(|t| shift(&mut t.line));
        if let Some(line) = self.defect.as_mut().and_then(|d| d.line.as_mut()) {
            shift(line);
        }
    }
}

fn tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// A game with its moves resolved.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 1-based number of the game in its file.
    pub index: usize,
    /// The line where the game starts.
    pub line: u32,
    /// The container format.
    pub format: Format,
    /// The file's encoding.
    pub encoding: Encoding,
    /// The notation the moves were read in (`None` when there were no moves).
    pub notation: Option<Notation>,
    /// The tags.
    pub tags: Vec<(String, String)>,
    /// The start position.
    pub start: Position,
    /// The moves resolved, in order.
    pub moves: Vec<Move>,
    /// The tokens as written, one per move and then the rest unresolved.
    pub tokens: Vec<MoveToken>,
    /// The result token of the move text.
    pub result: Option<String>,
    /// Why the moves stop before the end of the tokens (the first move that could not be
    /// resolved), or a defect of the file after the last move.
    pub stop: Option<RecordError>,
    /// Marks that disagree with their moves (`+` without check, ...).
    pub warnings: Vec<MoveWarning>,
    /// Remarks on the reading.
    pub notes: Vec<ReaderNote>,
}

/// A move whose text carries a mark the move contradicts (`+` without check, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveWarning {
    /// The move's ply.
    pub ply: usize,
    /// The move's text, as recorded.
    pub text: String,
    /// The mark that disagrees.
    pub mark: MarkWarning,
}

impl fmt::Display for MoveWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}: {}", self.text, self.mark)
    }
}

/// A remark a reader made on a record: something it read another way, or passed over, that the
/// reader of a report should know. The referee puts it in words in its language; `Display` gives
/// the English.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReaderNote {
    /// Tags whose values hold unescaped quotes, each read up to its closing `"]`.
    UnescapedQuotes {
        /// The tags' names.
        tags: Vec<String>,
    },
    /// Moves after the game's result, not read.
    MovesAfterResult {
        /// The line they are on.
        line: u32,
        /// The text, quoted and shortened as the record has it.
        text: String,
    },
    /// Variations beside the main line, skipped.
    VariationsSkipped(usize),
}

impl fmt::Display for ReaderNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReaderNote::UnescapedQuotes { tags } => write!(
                f,
                "the {} tag's value holds unescaped quotes; read up to the closing \"]",
                tags.join(", ")
            ),
            ReaderNote::MovesAfterResult { line, text } => {
                write!(
                    f,
                    "line {line}: moves after the result are not read: {text}"
                )
            }
            ReaderNote::VariationsSkipped(n) => write!(f, "{n} variation(s) skipped"),
        }
    }
}

impl GameRecord {
    /// The record of a game played here rather than read from a file: what reading a PGN of it
    /// (its start in a `FEN` tag, its moves in ICCS, no result) gives.
    pub fn of_game(game: &crate::game::Game) -> GameRecord {
        let moves = game.moves().to_vec();
        GameRecord {
            index: 1,
            line: 1,
            format: Format::Pgn,
            encoding: Encoding::Utf8,
            notation: (!moves.is_empty()).then_some(Notation::Coordinate(RankStyle::ZeroToNine)),
            tags: vec![("FEN".to_string(), game.start().to_string())],
            start: game.start().clone(),
            tokens: moves
                .iter()
                .map(|m| MoveToken {
                    text: m.to_string(),
                    line: 3,
                })
                .collect(),
            moves,
            result: Some("*".to_string()),
            stop: None,
            warnings: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// The value of a tag, by case-insensitive name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag(&self.tags, name)
    }

    /// The result as recorded: the `Result` tag (DhtmlXQ's own tag in a DhtmlXQ block), else the
    /// result after the moves; `None` for `*` or none.
    pub fn result_text(&self) -> Option<&str> {
        self.tag("Result")
            .or_else(|| self.tag("DhtmlXQResult"))
            .map(str::trim)
            .filter(|r| !r.is_empty() && *r != "*")
            .or(self.result.as_deref().filter(|r| *r != "*"))
    }

    /// [`GameRecord::result_text`] read as a result.
    pub fn recorded_result(&self) -> Option<RecordedResult> {
        self.result_text().and_then(parse_result)
    }
}

/// What went wrong with a file or a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The file could not be read.
    Io(String),
    /// No game record was found in the file.
    NoGame,
    /// The format is broken (cut off, bad header, bad block).
    Format(String),
    /// The start position is not valid.
    BadStart(String),
    /// A move token could not be resolved.
    Move {
        /// The token.
        text: String,
        /// Why.
        reason: TokenError,
        /// The notation it was read in.
        notation: Option<Notation>,
    },
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Io(e) => write!(f, "cannot read: {e}"),
            ErrorKind::NoGame => f.write_str("no game record found"),
            ErrorKind::Format(e) => f.write_str(e),
            ErrorKind::BadStart(e) => write!(f, "bad start position: {e}"),
            ErrorKind::Move {
                text,
                reason,
                notation,
            } => {
                write!(f, "move {:?}", crate::clip::quote(text))?;
                if let Some(n) = notation {
                    write!(f, " ({})", n.name())?;
                }
                match reason {
                    TokenError::Unreadable => f.write_str(" is not a move in any known notation"),
                    TokenError::NoMatch => f.write_str(" is not legal here"),
                    TokenError::Ambiguous(_) => write!(f, " is {reason}"),
                }
            }
        }
    }
}

/// An error with where it happened: file, line, game and ply where known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The file's name as given.
    pub file: String,
    /// The line, 1-based, where known.
    pub line: Option<u32>,
    /// The game, 1-based, where known.
    pub game: Option<usize>,
    /// The ply (1 = the first move), where known.
    pub ply: Option<usize>,
    /// What went wrong.
    pub kind: ErrorKind,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some(line) = self.line.filter(|&l| l > 0) {
            write!(f, ":{line}")?;
        }
        f.write_str(": ")?;
        if let Some(game) = self.game {
            write!(f, "game {game}")?;
            if let Some(ply) = self.ply {
                write!(f, ", ply {ply}")?;
            }
            f.write_str(": ")?;
        }
        write!(f, "{}", self.kind)
    }
}

impl std::error::Error for RecordError {}

/// The games of one file, split but not resolved.
#[derive(Clone, Debug)]
pub struct FileGames {
    /// The encoding the text was read in.
    pub encoding: Encoding,
    /// The games, in file order.
    pub games: Vec<RawGame>,
}

/// How many games of a file are replayed to choose between two text encodings.
const ENCODING_TRIAL_GAMES: usize = 3;

/// Detects the format and encoding of a file's bytes and splits it into games. `name` is used in
/// errors.
pub fn read_file(name: &str, bytes: &[u8]) -> Result<FileGames, RecordError> {
    read_at(name, bytes, stream::Place::default(), usize::MAX)
}

/// Reads the bytes of a piece of a stream standing at `place` as [`read_file`] reads a file's;
/// once more than `most` games are found, the rest is not split.
fn read_at(
    name: &str,
    bytes: &[u8],
    place: stream::Place,
    most: usize,
) -> Result<FileGames, RecordError> {
    let error = |kind| RecordError {
        file: name.to_string(),
        line: None,
        game: None,
        ply: None,
        kind,
    };
    if xqf::detect(bytes) {
        let game = xqf::read(bytes).map_err(error)?;
        return Ok(FileGames {
            encoding: Encoding::Binary,
            games: vec![game],
        });
    }
    let decodings = encoding::candidates(bytes);
    let mut best: Option<(usize, FileGames)> = None;
    let several = decodings.len() > 1;
    for decoded in decodings {
        let games = pgn::split_at(&decoded.text, place, most);
        // Score a decoding by the plies its first games replay.
        let score = if several {
            games
                .iter()
                .take(ENCODING_TRIAL_GAMES)
                .filter_map(|g| resolve(name, decoded.encoding, g).ok())
                .map(|r| 1 + r.moves.len())
                .sum()
        } else {
            0
        };
        let candidate = FileGames {
            encoding: decoded.encoding,
            games,
        };
        if best.as_ref().is_none_or(|(s, _)| score > *s) {
            best = Some((score, candidate));
        }
    }
    match best {
        Some((_, found)) if !found.games.is_empty() => Ok(found),
        _ => Err(error(ErrorKind::NoGame)),
    }
}

/// Reads and resolves every game of a file.
pub fn read_games(
    name: &str,
    bytes: &[u8],
) -> Result<Vec<Result<GameRecord, RecordError>>, RecordError> {
    let file = read_file(name, bytes)?;
    Ok(file
        .games
        .iter()
        .map(|g| resolve(name, file.encoding, g))
        .collect())
}

/// The notations to try for a game's tokens, most likely first.
fn notation_candidates(raw: &RawGame) -> Vec<Notation> {
    if let Some(fixed) = &raw.notations {
        return fixed.clone();
    }
    let Some(first) = raw.tokens.first() else {
        return Vec::new();
    };
    let mut out: Vec<Notation> = shapes(&first.text).into_iter().collect();
    if out.is_empty() {
        out = vec![
            Notation::Chinese,
            Notation::Wxf,
            Notation::Coordinate(RankStyle::ZeroToNine),
            Notation::San(RankStyle::ZeroToNine),
        ];
    }
    let prefer = |out: &mut Vec<Notation>, n: Notation| {
        if let Some(i) = out.iter().position(|&x| x == n) {
            let n = out.remove(i);
            out.insert(0, n);
        }
    };
    match raw.tag("Format").map(str::to_ascii_uppercase).as_deref() {
        Some("ICCS") => prefer(&mut out, Notation::Coordinate(RankStyle::ZeroToNine)),
        Some("WXF") => prefer(&mut out, Notation::Wxf),
        _ => {}
    }
    // A rank 10 can only be the 1–10 convention.
    let ten = raw
        .tokens
        .iter()
        .any(|t| t.text.is_ascii() && t.text.contains("10"));
    if ten {
        prefer(&mut out, Notation::San(RankStyle::OneToTen));
        prefer(&mut out, Notation::Coordinate(RankStyle::OneToTen));
    }
    out
}

/// The start position of a game, before any move.
fn start_position(raw: &RawGame) -> Result<Position, ErrorKind> {
    match &raw.start {
        Start::Standard => Ok(Position::startpos()),
        Start::Fen(text) => fen::parse_lenient(text)
            .map(|(p, _)| p)
            .map_err(|e| ErrorKind::BadStart(format!("FEN {:?}: {e}", crate::clip::quote(text)))),
        Start::Board(board) => {
            let first = raw.tokens.first().and_then(|t| {
                let notations = raw.notations.clone().unwrap_or_default();
                notations.into_iter().find_map(|n| {
                    let text = notation::normalize(&t.text).into_owned();
                    match n {
                        Notation::DhtmlXq | Notation::Coordinate(_) => {
                            // Read the squares against an empty-move check: only the origin matters.
                            let m = match n {
                                Notation::Coordinate(r) => Move::parse(&text, r).ok(),
                                _ => notation::dhtmlxq_move(&text),
                            }?;
                            board[m.from().index()].map(|p| p.color)
                        }
                        _ => None,
                    }
                })
            });
            let side = first.unwrap_or(Color::Red);
            Position::from_board(**board, side, 0, 1, Validation::Lenient)
                .map(|(p, _)| p)
                .map_err(|e| ErrorKind::BadStart(e.to_string()))
        }
    }
}

/// One attempt at replaying tokens in a notation.
struct Replay {
    moves: Vec<Move>,
    warnings: Vec<MoveWarning>,
    failure: Option<(usize, TokenError)>,
}

fn replay(start: &Position, tokens: &[MoveToken], notation: Notation) -> Replay {
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(tokens.len());
    let mut warnings = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        match resolve_token(&pos, &token.text, notation) {
            Ok(r) => {
                if let Some(mark) = r.warning {
                    warnings.push(MoveWarning {
                        ply: i + 1,
                        text: token.text.clone(),
                        mark,
                    });
                }
                pos.play(r.mv);
                moves.push(r.mv);
            }
            Err(e) => {
                return Replay {
                    moves,
                    warnings,
                    failure: Some((i, e)),
                };
            }
        }
    }
    Replay {
        moves,
        warnings,
        failure: None,
    }
}

/// Resolves a game's tokens into moves: tries each notation the tokens could be in and keeps the
/// first that replays every token, or else the one that replays the most. An error only when the
/// game cannot start (bad start position); a move that cannot be resolved is reported in
/// `GameRecord::stop`.
pub fn resolve(file: &str, encoding: Encoding, raw: &RawGame) -> Result<GameRecord, RecordError> {
    let error = |line: u32, ply, kind| RecordError {
        file: file.to_string(),
        line: Some(line),
        game: Some(raw.index),
        ply,
        kind,
    };
    let start = start_position(raw).map_err(|kind| error(raw.line, None, kind))?;
    let mut best: Option<(Notation, Replay)> = None;
    for notation in notation_candidates(raw) {
        let attempt = replay(&start, &raw.tokens, notation);
        let done = attempt.failure.is_none();
        if best
            .as_ref()
            .is_none_or(|(_, b)| attempt.moves.len() > b.moves.len())
        {
            best = Some((notation, attempt));
        }
        if done {
            break;
        }
    }
    let (notation, replayed) = match best {
        Some((n, r)) => (Some(n), r),
        None => (
            None,
            Replay {
                moves: Vec::new(),
                warnings: Vec::new(),
                failure: None,
            },
        ),
    };
    let stop = match replayed.failure {
        Some((i, reason)) => {
            let token = &raw.tokens[i];
            Some(error(
                token.line,
                Some(i + 1),
                ErrorKind::Move {
                    text: token.text.clone(),
                    reason,
                    notation,
                },
            ))
        }
        None => raw.defect.clone().map(|defect| {
            let line = defect
                .line
                .unwrap_or_else(|| raw.tokens.last().map_or(raw.line, |t| t.line));
            error(line, Some(replayed.moves.len() + 1), defect.kind)
        }),
    };
    Ok(GameRecord {
        index: raw.index,
        line: raw.line,
        format: raw.format,
        encoding,
        notation,
        tags: raw.tags.clone(),
        start,
        moves: replayed.moves,
        tokens: raw.tokens.clone(),
        result: raw.result.clone(),
        stop,
        warnings: replayed.warnings,
        notes: raw.notes.clone(),
    })
}
