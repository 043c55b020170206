//! Reading a stream of game records (PGN-like text of many games, standard input, text held in
//! memory) a game at a time: where a game starts, in bounded memory. The stream is cut into
//! pieces at game starts, each piece read as a file is ([`Piece::read`]) with its lines counted
//! through the stream, and the games numbered through it ([`Numbering`]).

use super::files::{MAX_FILE_BYTES, ReadError};
use super::{ErrorKind, FileGames, RecordError, encoding, pgn, xqf};
use std::io::{BufRead, Read};
use std::sync::Arc;

/// The largest piece read from a stream: a game, or the text between two game starts.
pub const MAX_GAME_BYTES: usize = 8 << 20;

/// Where a piece stands in its stream.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// How many lines of the stream come before the piece.
    pub lines_before: u32,
    /// The line of the game start the stream was cut at after the piece (`None`: the piece runs
    /// to the end of the stream).
    pub next: Option<u32>,
}

/// A piece of a stream: whole games, the text between them, or a whole binary record. A file read
/// whole is a piece at the [`Place`] of a whole stream.
#[derive(Clone, Debug, Default)]
pub struct Piece {
    /// The bytes.
    pub bytes: Vec<u8>,
    /// Where it stands.
    pub place: Place,
}

impl Piece {
    /// The piece's games as [`super::read_file`] reads a file's (format and encoding detected on
    /// the piece), their lines counted through the stream; numbered from 1 within the piece.
    /// Past `most` games the piece is not split further.
    pub fn read(&self, name: &str, most: usize) -> Result<FileGames, RecordError> {
        super::read_at(name, &self.bytes, self.place, most)
    }
}

/// Whether a game may start at `line` of a stream: a tag line, by the one rule the PGN reader
/// reads tags by ([`pgn::is_tag_line`]), or a line that opens a DhtmlXQ block.
pub fn starts_game(line: &[u8]) -> bool {
    // A line whose first byte after blanks is another ASCII character (most move text) is neither.
    match line.trim_ascii_start().first() {
        Some(&b) if b.is_ascii() && b != b'[' && b != 0x0B => false,
        None => false,
        Some(_) => {
            let text = String::from_utf8_lossy(line);
            pgn::is_tag_line(&text) || pgn::opens_block(&text)
        }
    }
}

/// Whether `line` may hold move text: it is not blank and does not start with a comment (`{`,
/// `;`). Tags after tags and comments alone are the same game's, so the stream is not cut there.
fn may_hold_moves(line: &[u8]) -> bool {
    line.trim_ascii()
        .first()
        .is_some_and(|b| !matches!(b, b'{' | b';'))
}

/// A stream cut into [`Piece`]s at game starts (a line where [`starts_game`] after a line that
/// [`may_hold_moves`]), read a piece at a time in bounded memory. A binary (XQF) or UTF-16 stream is
/// read whole, up to the file limit. An error ends the stream: the message names the line.
pub struct GameStream<R> {
    reader: R,
    /// The start of the next piece, already read.
    pending: Vec<u8>,
    /// The lines read into pieces so far.
    line: u32,
    /// The most bytes a piece may have.
    limit: usize,
    done: bool,
}

impl<R: BufRead> GameStream<R> {
    /// A stream whose pieces may have up to [`MAX_GAME_BYTES`].
    pub fn new(reader: R) -> GameStream<R> {
        GameStream::with_limit(reader, MAX_GAME_BYTES)
    }

    /// A stream whose pieces may have up to `limit` bytes (text already in memory needs none:
    /// `usize::MAX`).
    pub fn with_limit(reader: R, limit: usize) -> GameStream<R> {
        GameStream {
            reader,
            pending: Vec::new(),
            line: 0,
            limit,
            done: false,
        }
    }

    fn error(&mut self, error: ReadError) -> Option<Result<Piece, ReadError>> {
        self.done = true;
        Some(Err(error))
    }

    /// The whole of a binary (XQF) or UTF-16 stream, if it is one: such a stream has no lines to
    /// cut at (UTF-16 line ends are two bytes).
    fn whole(&mut self) -> Option<Result<Piece, ReadError>> {
        let unreadable = |e| ReadError::Stream {
            line: None,
            error: Arc::new(e),
        };
        let head = match self.reader.fill_buf() {
            Ok(head) => head,
            Err(e) => return self.error(unreadable(e)),
        };
        if !(xqf::detect(head) || encoding::is_utf16(head)) {
            return None;
        }
        let mut all = Vec::new();
        let limit = (self.limit as u64).max(MAX_FILE_BYTES).saturating_add(1);
        self.done = true;
        Some(match (&mut self.reader).take(limit).read_to_end(&mut all) {
            Ok(n) if n as u64 >= limit => Err(ReadError::StreamTooLarge),
            Ok(_) => Ok(Piece {
                bytes: all,
                place: Place::default(),
            }),
            Err(e) => Err(unreadable(e)),
        })
    }
}

impl<R: BufRead> Iterator for GameStream<R> {
    type Item = Result<Piece, ReadError>;

    fn next(&mut self) -> Option<Result<Piece, ReadError>> {
        if self.done {
            return None;
        }
        let lines_before = self.line;
        let mut piece = std::mem::take(&mut self.pending);
        if piece.is_empty()
            && self.line == 0
            && let Some(whole) = self.whole()
        {
            return Some(whole);
        }
        let mut next = None;
        let mut content_seen = false;
        if !piece.is_empty() {
            self.line += 1;
        }
        loop {
            let start = piece.len();
            let room = self.limit.saturating_sub(start);
            let read = (&mut self.reader)
                .take(room.saturating_add(1) as u64)
                .read_until(b'\n', &mut piece);
            let n = match read {
                Ok(n) => n,
                Err(e) => {
                    return self.error(ReadError::Stream {
                        line: Some(self.line + 1),
                        error: Arc::new(e),
                    });
                }
            };
            if n == 0 {
                self.done = true;
                break;
            }
            if piece.len() > self.limit {
                return self.error(ReadError::NoGameStart {
                    line: self.line + 1,
                    limit: self.limit,
                });
            }
            let line = &piece[start..];
            if starts_game(line) {
                if content_seen {
                    self.pending = piece.split_off(start);
                    next = Some(self.line + 1);
                    break;
                }
            } else if may_hold_moves(line) {
                content_seen = true;
            }
            self.line += 1;
        }
        if piece.is_empty() {
            return None;
        }
        Some(Ok(Piece {
            bytes: piece,
            place: Place { lines_before, next },
        }))
    }
}

/// Numbers the games of a stream's pieces through the stream.
#[derive(Clone, Debug, Default)]
pub struct Numbering {
    games: usize,
}

impl Numbering {
    /// Numbers the games of the piece at `place` (as [`Piece::read`] read them) after the games
    /// before it; a piece at the head of a stream starts the count again.
    pub fn number(&mut self, place: Place, games: &mut FileGames) {
        if place.lines_before == 0 {
            self.games = 0;
        }
        for game in &mut games.games {
            game.index += self.games;
        }
        self.games += games.games.len();
    }
}

/// The error of a file or stream named `name` that could not be read (on).
pub fn read_error(name: &str, error: ReadError) -> RecordError {
    stream_error(name, ErrorKind::Io(error.to_string()))
}

/// An error of the stream named `name` as a whole.
pub fn stream_error(name: &str, kind: ErrorKind) -> RecordError {
    RecordError {
        file: name.to_string(),
        line: None,
        game: None,
        ply: None,
        kind,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(text: &str) -> Vec<(String, Place)> {
        GameStream::new(text.as_bytes())
            .map(|p| {
                let p = p.unwrap();
                (String::from_utf8(p.bytes).unwrap(), p.place)
            })
            .collect()
    }

    #[test]
    fn a_stream_is_cut_at_tag_lines_and_block_openings_after_other_lines() {
        let text = "[Event \"A\"]\n[Red \"R\"]\n1. h2e2 h9g7 1-0\n\n[Event \"B\"]\n1. h2e2\n\
                    [DhtmlXQ]\n[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n";
        let got = pieces(text);
        assert_eq!(got.len(), 3, "{got:?}");
        assert!(got[0].0.starts_with("[Event \"A\"]") && got[0].0.ends_with("1-0\n\n"));
        assert_eq!(
            got[0].1,
            Place {
                lines_before: 0,
                next: Some(5)
            }
        );
        assert_eq!(
            got[1].1,
            Place {
                lines_before: 4,
                next: Some(7)
            }
        );
        assert!(got[2].0.starts_with("[DhtmlXQ]"));
        assert_eq!(
            got[2].1,
            Place {
                lines_before: 6,
                next: None
            }
        );
    }

    #[test]
    fn only_tag_lines_cut_not_other_bracketed_lines() {
        // Lines in brackets that are no tags (a remark, a DhtmlXQ field on a line of its own after
        // a comment running over lines) do not start a game; blanks, a byte-order mark and a
        // space after `[` before a tag do not hide one.
        let text = "[Event \"A\"]\n1. h2e2 {a\n[see above]\n} h9g7 1-0\n[Round 1]\n\
                    \u{FEFF}[Event \"B\"]\n1. h2e2 1-0\n\u{3000}[ Event \"C\"]\n1. h2e2 1-0\n\
                    [DhtmlXQ]\n[DhtmlXQ_comment1]a\nb\n[/DhtmlXQ_comment1]\n[DhtmlXQ_result]1-0\n";
        let got = pieces(text);
        let starts: Vec<u32> = got.iter().map(|(_, p)| p.lines_before).collect();
        assert_eq!(starts, vec![0, 5, 7, 9], "{got:?}");
    }

    #[test]
    fn a_stream_without_a_game_start_for_too_long_is_cut_off() {
        let text = "y\n".repeat(40);
        let mut stream = GameStream::with_limit(text.as_bytes(), 30);
        let error = stream.next().unwrap().unwrap_err().to_string();
        assert_eq!(
            error,
            "line 16: more than 0 MiB without the start of a new game; reading stopped"
        );
        assert!(stream.next().is_none());
    }
}
