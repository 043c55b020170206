//! The book's binary form (`src/book/FORMAT.md`): a 32-byte header, then 28-byte entries sorted by
//! key and move, all integers little-endian.

use super::{Book, BookError, Entry};
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;

/// The first eight bytes of every book file.
pub const MAGIC: &[u8; 8] = b"XQBOOK\0\0";
/// The format version this code writes and reads.
pub const VERSION: u32 = 1;
/// Bytes before the first entry.
pub const HEADER_BYTES: usize = 32;
/// Bytes per entry.
pub const ENTRY_BYTES: usize = 28;

/// A move as the format stores it: `from * 90 + to`, squares numbered `rank * 9 + file` from a0.
pub fn move_code(mv: Move) -> u16 {
    (mv.from().index() * 90 + mv.to().index()) as u16
}

fn move_from_code(code: u16) -> Option<Move> {
    let (from, to) = (code / 90, code % 90);
    let from = Square::new(u8::try_from(from).ok()?)?;
    let to = Square::new(to as u8)?;
    (from != to).then(|| Move::new(from, to))
}

/// The book as bytes.
pub fn encode(book: &Book) -> Vec<u8> {
    let entries = book.entries();
    let mut out = Vec::with_capacity(HEADER_BYTES + ENTRY_BYTES * entries.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    out.extend_from_slice(&Position::startpos().key().to_le_bytes());
    out.extend_from_slice(&[0; 8]);
    for e in entries {
        out.extend_from_slice(&e.key.to_le_bytes());
        out.extend_from_slice(&move_code(e.mv).to_le_bytes());
        out.extend_from_slice(&[0; 2]);
        for n in [e.games, e.wins, e.draws, e.losses] {
            out.extend_from_slice(&n.to_le_bytes());
        }
    }
    out
}

/// Reads a book from bytes; `source` names them in errors.
pub fn decode(bytes: &[u8], source: &str) -> Result<Book, BookError> {
    let err = |problem: String| BookError {
        source: source.to_string(),
        problem,
    };
    if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
        return Err(err("not an xq opening book (no XQBOOK header)".into()));
    }
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let version = u32_at(8);
    if version != VERSION {
        return Err(err(format!(
            "book format version {version}; this program reads version {VERSION}"
        )));
    }
    let count = u32_at(12) as usize;
    if u64_at(16) != Position::startpos().key() {
        return Err(err(
            "the book was built with other position keys (its start position's key differs)".into(),
        ));
    }
    let expected = count
        .checked_mul(ENTRY_BYTES)
        .and_then(|n| n.checked_add(HEADER_BYTES));
    if expected != Some(bytes.len()) {
        return Err(err(format!(
            "{} bytes for {count} entries: the file is cut short or has extra bytes",
            bytes.len()
        )));
    }
    let mut entries = Vec::with_capacity(count);
    let mut previous: Option<(u64, u16)> = None;
    for i in 0..count {
        let at = HEADER_BYTES + i * ENTRY_BYTES;
        let key = u64_at(at);
        let code = u16::from_le_bytes([bytes[at + 8], bytes[at + 9]]);
        let mv = move_from_code(code)
            .ok_or_else(|| err(format!("entry {}: bad move code {code}", i + 1)))?;
        let [games, wins, draws, losses] = [12, 16, 20, 24].map(|o| u32_at(at + o));
        if u64::from(wins) + u64::from(draws) + u64::from(losses) > u64::from(games) {
            return Err(err(format!(
                "entry {}: more results than games ({games})",
                i + 1
            )));
        }
        if previous.is_some_and(|p| p >= (key, code)) {
            return Err(err(format!("entry {}: entries out of order", i + 1)));
        }
        previous = Some((key, code));
        entries.push(Entry {
            key,
            mv,
            games,
            wins,
            draws,
            losses,
        });
    }
    Ok(Book { entries })
}
