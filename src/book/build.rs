//! Building a book from game records: every move of every game up to a ply limit, counted in its
//! canonical (mirror-folded) position with the game's result for the side that played it, then
//! the moves played fewer than a minimum number of times dropped.

use super::{Book, Entry, canonical};
use crate::record::{GameRecord, RecordError, RecordedResult};
use std::collections::{HashMap, HashSet};

/// What to keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildSettings {
    /// Moves from the first `max_ply` plies of each game.
    pub max_ply: usize,
    /// Keep a move only if it was played at least this often in its position.
    pub min_games: u32,
}

impl Default for BuildSettings {
    fn default() -> BuildSettings {
        BuildSettings {
            max_ply: 30,
            min_games: 3,
        }
    }
}

/// Counts gathered from games before the book is made.
#[derive(Clone, Debug, Default)]
pub struct Builder {
    counts: HashMap<(u64, u16), Entry>,
    /// Games added.
    pub games: u64,
    /// Games added without a known result (their moves count, their results do not).
    pub without_result: u64,
    /// Games not used, with why.
    pub skipped: Vec<RecordError>,
    /// Games that start from another position than the standard one (used all the same).
    pub other_starts: u64,
}

impl Builder {
    /// Adds the moves of one game, up to `settings.max_ply`. A position and move repeated within
    /// a game counts once.
    pub fn add(&mut self, game: &GameRecord, settings: &BuildSettings) {
        self.games += 1;
        if game.start != crate::position::Position::startpos() {
            self.other_starts += 1;
        }
        let result = game.recorded_result();
        if result.is_none() {
            self.without_result += 1;
        }
        let mut pos = game.start.clone();
        let mut seen = HashSet::new();
        for &mv in game.moves.iter().take(settings.max_ply) {
            let (key, stored) = canonical(&pos, mv);
            let code = super::format::move_code(stored);
            if seen.insert((key, code)) {
                let mover = pos.side_to_move();
                let e = self.counts.entry((key, code)).or_insert(Entry {
                    key,
                    mv: stored,
                    games: 0,
                    wins: 0,
                    draws: 0,
                    losses: 0,
                });
                e.games += 1;
                match result {
                    Some(RecordedResult::Draw) => e.draws += 1,
                    Some(RecordedResult::Win(c)) if c == mover => e.wins += 1,
                    Some(RecordedResult::Win(_)) => e.losses += 1,
                    None => {}
                }
            }
            pos.play(mv);
        }
    }

    /// Adds every game of a file's bytes, keeping the errors of games that cannot be read; the
    /// moves a broken game resolved before its error still count.
    pub fn add_file(&mut self, name: &str, bytes: &[u8], settings: &BuildSettings) {
        match crate::record::read_games(name, bytes) {
            Ok(games) => {
                for game in games {
                    match game {
                        Ok(g) => self.add(&g, settings),
                        Err(e) => self.skipped.push(e),
                    }
                }
            }
            Err(e) => self.skipped.push(e),
        }
    }

    /// Positions and moves counted so far (before the minimum is applied).
    pub fn distinct(&self) -> usize {
        self.counts.len()
    }

    /// The book: moves played at least `min_games` times.
    pub fn finish(self, settings: &BuildSettings) -> Book {
        Book::from_entries(
            self.counts
                .into_values()
                .filter(|e| e.games >= settings.min_games.max(1))
                .collect(),
        )
    }
}
