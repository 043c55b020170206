//! The protocol a session speaks, picked by its first line: one trait that UCCI and UCI each
//! implement, so the session carries out commands without asking which protocol it speaks.

use super::command::{Command, CommandError};
use super::{ucci, uci};
use crate::engine::{Engine, Offer};
use crate::moves::{Move, RankStyle};
use crate::search::{CurrentMove, SearchInfo, SearchResult};
use crate::square::Color;

/// What differs between the protocols: how lines are read and written, and the settings only one
/// of them has.
pub(super) trait Dialect {
    /// Reads one line. `side` is the side to move in the current position (UCI `wtime` is Red's).
    fn parse(&self, line: &str, side: Color) -> Result<Command, CommandError>;

    /// The answer to the handshake: `id` lines, `option` lines and the closing line.
    fn handshake(&self) -> Vec<String>;

    /// A line carrying a note or an error for the client.
    fn message(&self, text: &str) -> String;

    /// Carries out `setoption`; `Ok(Some(text))` is a note for the client.
    fn set_option(
        &mut self,
        engine: &mut Engine,
        name: &str,
        value: Option<&str>,
    ) -> Result<Option<String>, CommandError>;

    /// How move text numbers the ranks, for input and output.
    fn ranks(&self) -> RankStyle;

    /// An `info` line for one completed depth and line.
    fn info_line(&self, info: &SearchInfo) -> String;

    /// An `info` line naming the root move a long search has just started on.
    fn current_move_line(&self, current: &CurrentMove) -> String {
        format!(
            "info depth {} currmove {} currmovenumber {}",
            current.depth,
            current.mv.text(self.ranks()),
            current.number
        )
    }

    /// The lines ending a search: the best move with what the engine offers, or the protocol's
    /// answer when there is no move.
    fn best_move_lines(
        &self,
        result: &SearchResult,
        ponder: Option<Move>,
        offer: Offer,
    ) -> Vec<String>;

    /// The line answering `go` without a move.
    fn no_move_line(&self) -> &'static str;

    /// The answer to a request for the static evaluation (UCCI `go depth 0`).
    fn static_eval_lines(&self, cp: i32) -> Vec<String>;

    /// Whether lines arriving during a search wait until it ends (UCCI batch mode).
    fn batch(&self) -> bool;

    /// Whether the client asked for extra notes.
    fn debug(&self) -> bool;

    /// Turns extra notes on or off (UCI `debug`).
    fn set_debug(&mut self, on: bool);

    /// The line sent before quitting, if the protocol has one.
    fn farewell(&self) -> Option<&'static str>;
}

/// The protocol a first word picks: `ucci` gives UCCI; `uci`, and the bare `fen …` or
/// `startpos …` lines of the Cyclone form, give UCI.
pub(super) fn pick(first_word: &str) -> Option<Box<dyn Dialect>> {
    match first_word {
        "ucci" => Some(Box::new(ucci::Ucci::default())),
        "uci" | "fen" | "startpos" => Some(Box::new(uci::Uci::default())),
        _ => None,
    }
}
