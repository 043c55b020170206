//! A game's moves as the rulings name them: in ICCS, in Chinese rulings with the move in Chinese
//! notation of the language's script (`炮二平五（h2e2）`), and with the record's own text where it
//! says the move another way; and a cycle's moves as the text and the HTML table both list them.

use super::words::Words;
use super::{Lang, hant};
use crate::judge::History;
use crate::moves::Move;
use crate::position::Position;
use crate::record::describe::{Script, write_chinese_in};
use crate::record::notation::normalize;
use crate::referee::report::{CycleReport, GameReport};
use std::borrow::Cow;
use std::cell::OnceCell;

/// The moves of one game, named for one language; the Chinese notation is written once, when a
/// ruling first names a move.
pub struct MoveNames<'a> {
    lang: Lang,
    script: Option<Script>,
    /// The start position, or its FEN, read only when a move is first named in Chinese.
    start: Start<'a>,
    moves: Cow<'a, [Move]>,
    recorded: &'a [String],
    native: OnceCell<Vec<Option<String>>>,
}

impl<'a> MoveNames<'a> {
    /// The moves played from `start` (`None`: not known, so no Chinese notation), with the
    /// record's texts for them (one per ply).
    fn new(
        lang: Lang,
        start: Start<'a>,
        moves: Cow<'a, [Move]>,
        recorded: &'a [String],
    ) -> MoveNames<'a> {
        let script = match lang {
            Lang::En => None,
            Lang::ZhHans => Some(Script::Simplified),
            Lang::ZhHant => Some(Script::Traditional),
        };
        MoveNames {
            lang,
            script,
            start,
            moves,
            recorded,
            native: OnceCell::new(),
        }
    }

    /// A judged game's moves, from its record's start position.
    pub fn of_report(r: &'a GameReport, lang: Lang) -> MoveNames<'a> {
        let start = r
            .facts()
            .map_or(Start::Unknown, |f| Start::Fen(&f.start_fen));
        MoveNames::new(lang, start, Cow::Borrowed(r.moves()), r.move_texts())
    }

    /// The moves of a game the judge followed (no record texts).
    pub fn of_history(history: &History, lang: Lang) -> MoveNames<'static> {
        let moves: Vec<Move> = history.records().iter().filter_map(|r| r.mv).collect();
        MoveNames::new(
            lang,
            Start::Position(Box::new(history.position_at(0).clone())),
            Cow::Owned(moves),
            &[],
        )
    }

    /// The move played at `ply`, if the game got that far.
    pub fn move_at(&self, ply: usize) -> Option<Move> {
        self.moves.get(ply.checked_sub(1)?).copied()
    }

    /// The move of `ply` in the language's notation, if it has one.
    fn native(&self, ply: usize) -> Option<&str> {
        let script = self.script?;
        let all = self.native.get_or_init(|| {
            let start = match &self.start {
                Start::Position(pos) => Some(Position::clone(pos)),
                Start::Fen(fen) => fen.parse().ok(),
                Start::Unknown => None,
            };
            let Some(mut pos) = start else {
                return Vec::new();
            };
            let mut out = Vec::with_capacity(self.moves.len());
            for &m in self.moves.iter() {
                let Some(text) = write_chinese_in(&pos, m, script) else {
                    break;
                };
                out.push(Some(text));
                pos.play(m);
            }
            out
        });
        all.get(ply.checked_sub(1)?)?.as_deref()
    }

    /// A move (`m`, played at `ply`) in words: ICCS, with the language's notation, and the
    /// record's own text where it is neither. Each name is kept as it is written.
    pub(super) fn name(&self, w: &Words, m: Move, ply: usize) -> String {
        let iccs = m.to_string();
        let native = self.native(ply);
        let recorded = ply
            .checked_sub(1)
            .and_then(|i| self.recorded.get(i))
            .filter(|t| !t.eq_ignore_ascii_case(&iccs))
            .filter(|t| native.is_none_or(|n| !same_chinese(t, n)));
        (w.move_named)(
            &iccs,
            native.map(|n| self.lang.keep(n)).as_deref(),
            recorded.map(|t| self.lang.keep(t)).as_deref(),
        )
    }
}

/// Where a game's moves start from.
enum Start<'a> {
    /// A position at hand.
    Position(Box<Position>),
    /// A record's start, as FEN.
    Fen(&'a str),
    /// Not known: no Chinese notation.
    Unknown,
}

/// Whether a record's text is the Chinese notation written (full-width digits or not, either
/// script) the way the referee writes it.
fn same_chinese(recorded: &str, written: &str) -> bool {
    // Both in the Traditional script, the cannon written one way.
    let plain = |t: &str| -> String {
        normalize(t)
            .chars()
            .map(|c| match hant::traditional(c) {
                '砲' => '炮',
                c => c,
            })
            .collect()
    };
    plain(recorded.trim()) == plain(written)
}

/// A side's own moves in its cycle, with their plies: what the text and the HTML table list.
pub(super) fn own_moves(cycle: &CycleReport) -> Vec<(usize, Move)> {
    cycle
        .moves
        .iter()
        .copied()
        .filter(|(p, _)| (p - cycle.first_ply) % 2 == 1)
        .collect()
}

/// The first and last ply of a side's own moves in its cycle.
pub(super) fn own_plies(cycle: &CycleReport) -> (usize, usize) {
    let own = own_moves(cycle);
    match (own.first(), own.last()) {
        (Some(first), Some(last)) => (first.0, last.0),
        _ => (cycle.first_ply + 1, cycle.last_ply),
    }
}

/// A cycle as a table row shows it, with the plies and the moves the text gives: the side's own
/// moves, each with its ply.
pub fn cycle_row(names: &MoveNames, cycle: &CycleReport, lang: Lang) -> (String, Vec<String>) {
    let w = lang.words();
    let (first, last) = own_plies(cycle);
    let plies = if first == last {
        first.to_string()
    } else {
        format!("{first}–{last}")
    };
    let moves = own_moves(cycle)
        .into_iter()
        .map(|(p, m)| lang.finish(format!("{p}: {}", names.name(w, m, p))))
        .collect();
    (plies, moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_in_chinese_is_the_same_move_text_in_either_script_or_digit_form() {
        assert!(same_chinese("馬８進７", "马８进７"));
        assert!(same_chinese("马8进7 ", "马８进７"));
        assert!(same_chinese("炮二平五", "砲二平五"));
        assert!(!same_chinese("C2=5", "炮二平五"));
        assert!(!same_chinese("炮二进五", "炮二平五"));
    }
}
