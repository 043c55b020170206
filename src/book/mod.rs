//! The opening book: moves played in master games, keyed by position, with how often each was
//! played and how those games ended. Positions are folded left–right (a line and its mirror image
//! share their entries), so the book finds a mirrored line too. The engine asks it for a move
//! ([`Book::choose`]): a weighted random choice among the moves masters played often enough and
//! with results close to the best, never one the caller names as a lost repetition (the moves the
//! judge rules so at the game's count of occurrences).
//!
//! The binary format is in `src/book/FORMAT.md`; the book built into the binary
//! (`src/book/master.xqb`) and how it was built are described there too.

pub mod build;
pub mod cli;
pub mod format;

use crate::moves::Move;
use crate::position::Position;
use rand::Rng;
use std::fmt;

/// Moves played and results in one position, as stored: for the canonical orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The canonical key ([`canonical`]).
    pub key: u64,
    /// The move, in the canonical orientation.
    pub mv: Move,
    /// Games in which the move was played here.
    pub games: u32,
    /// Of those, games the side that played it won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the side that played it lost.
    pub losses: u32,
}

/// A book move for a position, in that position's own orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Games in which it was played.
    pub games: u32,
    /// Games won by the side that played it.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games lost by the side that played it.
    pub losses: u32,
}

impl BookMove {
    /// The mean score of the side that played it, over the games with a known result (0.5 when
    /// none is known).
    pub fn score(&self) -> f64 {
        let n = self.wins + self.draws + self.losses;
        if n == 0 {
            0.5
        } else {
            (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
        }
    }

    /// The score pulled towards one half by [`PRIOR_GAMES`] imaginary draws, so a move with a
    /// handful of lucky games does not outrank a main line.
    pub fn shrunk_score(&self) -> f64 {
        let n = (self.wins + self.draws + self.losses) as f64;
        (self.wins as f64 + 0.5 * self.draws as f64 + 0.5 * PRIOR_GAMES) / (n + PRIOR_GAMES)
    }
}

/// Imaginary drawn games added to every move's results before comparing scores.
pub const PRIOR_GAMES: f64 = 10.0;
/// A book move is chosen only if it was played in at least this share of the position's games.
pub const MIN_SHARE: f64 = 0.05;
/// ... and if its shrunk score is at most this far below the best shrunk score among those.
pub const MAX_SCORE_DROP: f64 = 0.08;
/// The default of the `BookVariety` option.
pub const DEFAULT_VARIETY: u32 = 50;

/// The canonical form of a position and a move in it: the orientation (itself or its left–right
/// mirror) with the smaller key, the move carried along. A position that is its own mirror keeps
/// the smaller of the move and its mirror, so both count as one.
pub fn canonical(pos: &Position, mv: Move) -> (u64, Move) {
    let key = pos.key();
    let mirror_key = pos.mirror().key();
    if mirror_key < key {
        (mirror_key, mv.mirror())
    } else if mirror_key == key {
        (key, smaller(mv, mv.mirror()))
    } else {
        (key, mv)
    }
}

fn smaller(a: Move, b: Move) -> Move {
    if format::move_code(a) <= format::move_code(b) {
        a
    } else {
        b
    }
}

/// An opening book in memory: entries sorted by key, then move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<Entry>,
}

/// Why a book could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError {
    /// The file, or another name for the bytes.
    pub source: String,
    /// What is wrong.
    pub problem: String,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.source, self.problem)
    }
}

impl std::error::Error for BookError {}

/// The largest book file read (a bound on memory, far above any real book).
pub const MAX_BOOK_BYTES: u64 = 256 << 20;

impl Book {
    /// A book of these entries (sorted here).
    pub fn from_entries(mut entries: Vec<Entry>) -> Book {
        entries.sort_by_key(|e| (e.key, format::move_code(e.mv)));
        Book { entries }
    }

    /// The entries, sorted by key then move.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The book built into the binary, from the shared master games.
    pub fn embedded() -> &'static Book {
        static BOOK: std::sync::OnceLock<Book> = std::sync::OnceLock::new();
        BOOK.get_or_init(|| {
            format::decode(include_bytes!("master.xqb"), "the built-in book")
                .expect("the built-in book is valid")
        })
    }

    /// Reads a book file (regular files only, up to [`MAX_BOOK_BYTES`]).
    pub fn load(path: &str) -> Result<Book, BookError> {
        let err = |problem: String| BookError {
            source: path.to_string(),
            problem,
        };
        let meta = std::fs::metadata(path).map_err(|e| err(format!("cannot read: {e}")))?;
        if !meta.is_file() {
            return Err(err("not a regular file".into()));
        }
        if meta.len() > MAX_BOOK_BYTES {
            return Err(err(format!(
                "{} bytes, more than any book ({MAX_BOOK_BYTES})",
                meta.len()
            )));
        }
        let bytes = std::fs::read(path).map_err(|e| err(format!("cannot read: {e}")))?;
        format::decode(&bytes, path)
    }

    /// The book moves of `pos` that are legal there, most played first.
    pub fn probe(&self, pos: &Position) -> Vec<BookMove> {
        let key = pos.key();
        let mirror_key = pos.mirror().key();
        let (wanted, mirrored) = if mirror_key < key {
            (mirror_key, true)
        } else {
            (key, false)
        };
        let start = self.entries.partition_point(|e| e.key < wanted);
        let mut moves: Vec<BookMove> = self.entries[start..]
            .iter()
            .take_while(|e| e.key == wanted)
            .map(|e| BookMove {
                mv: if mirrored { e.mv.mirror() } else { e.mv },
                games: e.games,
                wins: e.wins,
                draws: e.draws,
                losses: e.losses,
            })
            .filter(|m| pos.is_legal(m.mv))
            .collect();
        moves.sort_by(|a, b| b.games.cmp(&a.games).then(b.wins.cmp(&a.wins)));
        moves
    }

    /// The moves [`Book::choose`] picks from, with their weights for `variety` (0–100): moves
    /// played in at least [`MIN_SHARE`] of the position's games whose shrunk score is within
    /// [`MAX_SCORE_DROP`] of the best, less the moves in `avoid` and in `losing` (those that would
    /// complete a repetition the side to move loses). The weight is `games ^ (2 - variety / 50)`: at 0 the main line nearly always,
    /// at 50 in proportion to how often masters played each, at 100 all alike.
    pub fn candidates(
        &self,
        pos: &Position,
        avoid: &[Move],
        losing: &[Move],
        variety: u32,
    ) -> Vec<(BookMove, f64)> {
        let moves = self.probe(pos);
        let total: u32 = moves.iter().map(|m| m.games).sum();
        let often: Vec<BookMove> = moves
            .into_iter()
            .filter(|m| m.games as f64 >= MIN_SHARE * total as f64)
            .collect();
        let best = often
            .iter()
            .map(BookMove::shrunk_score)
            .fold(f64::NEG_INFINITY, f64::max);
        let power = 2.0 - variety.min(100) as f64 / 50.0;
        often
            .into_iter()
            .filter(|m| m.shrunk_score() >= best - MAX_SCORE_DROP)
            .filter(|m| !avoid.contains(&m.mv) && !losing.contains(&m.mv))
            .map(|m| (m, (m.games as f64).powf(power)))
            .collect()
    }

    /// A move for `pos` from [`Book::candidates`], or `None` when the book has none worth playing.
    pub fn choose(
        &self,
        pos: &Position,
        avoid: &[Move],
        losing: &[Move],
        variety: u32,
        rng: &mut impl Rng,
    ) -> Option<BookMove> {
        let candidates = self.candidates(pos, avoid, losing, variety);
        let total: f64 = candidates.iter().map(|(_, w)| w).sum();
        if candidates.is_empty() || total.is_nan() || total <= 0.0 {
            return None;
        }
        let mut pick = rng.random::<f64>() * total;
        let mut chosen = candidates.last().map(|(m, _)| *m)?;
        for (m, w) in &candidates {
            if pick < *w {
                chosen = *m;
                break;
            }
            pick -= w;
        }
        // In a position that is its own mirror image the book keeps one of each pair of mirrored
        // moves; either side of the board is the same move, so pick one at random.
        if pos.key() == pos.mirror().key() && rng.random::<bool>() {
            let mirrored = chosen.mv.mirror();
            if pos.is_legal(mirrored) && !avoid.contains(&mirrored) {
                chosen.mv = mirrored;
            }
        }
        Some(chosen)
    }
}

#[cfg(test)]
mod tests;
