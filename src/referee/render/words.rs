//! The shape of a language's table of words for the referee's reports: names for the things a
//! report holds (sides, pieces, violations, results) and the templates of its sentences, each a
//! function of the data it puts into words. `en` fills it in English; another language fills
//! one more table of the same shape.

use crate::judge::protection::DefenderFailure;
use crate::judge::{Verdict, Violation};
use crate::piece::{Piece, PieceKind};
use crate::position::Outcome;
use crate::record::encoding::Encoding;
use crate::record::notation::{MarkWarning, Notation};
use crate::record::{ErrorKind, Format, ReaderNote};
use crate::referee::citation::RuleCase;
use crate::referee::report::Agreement;
use crate::square::{Color, Square};

/// What an abbreviated list counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counted {
    /// Moves.
    Moves,
    /// Squares.
    Squares,
    /// Plies.
    Plies,
}

/// One language's words. Texts given to a template (moves as recorded, lists already joined)
/// are put in as they are.
pub struct Words {
    // Names.
    /// A side, as the subject of a sentence ("Red").
    pub side: fn(Color) -> &'static str,
    /// A piece with its side ("red rook").
    pub piece: fn(Piece) -> String,
    /// A piece on a square ("red rook on h2").
    pub piece_at: fn(Piece, Square) -> String,
    /// A kind of piece ("rook").
    pub kind: fn(PieceKind) -> &'static str,
    /// A side's part of a repetition ("perpetual check", "idle").
    pub violation: fn(Violation) -> &'static str,
    /// A reason for a ruling, from its name in the JSON report ("perpetual chase").
    pub reason: fn(&'static str) -> &'static str,
    /// A result ("Red wins", "draw", "no ruling").
    pub result: fn(Verdict) -> &'static str,
    /// How the record's own result compares with the ruling.
    pub agreement: fn(Agreement) -> &'static str,

    // Lists.
    /// Between the items of a list.
    pub list_separator: &'static str,
    /// Between the clauses of a sentence.
    pub clause_separator: &'static str,
    /// A long list shown by its first and last items (each already joined), with how many it
    /// holds in all.
    pub abbreviated: fn(first: &str, last: &str, all: usize, Counted) -> String,
    /// A stretch of plies: "ply 5", or "plies 5-11".
    pub plies: fn(first: usize, last: usize) -> String,
    /// A move in ICCS, with the language's own notation for it (`native`: Chinese notation in
    /// Chinese, none in English) and the text the record wrote it in where that is neither.
    pub move_named: fn(iccs: &str, native: Option<&str>, recorded: Option<&str>) -> String,
    /// Something said of a ply: "ply 5: ...".
    pub at_ply: fn(usize, &str) -> String,

    // The ruling.
    /// No ruling, with the record's own result if it gives one.
    pub no_ruling: fn(record_result: Option<&str>) -> String,
    /// The side to move mated at a ply.
    pub mated: fn(loser: Color, ply: usize, Outcome) -> String,
    /// A draw by the move-count rule.
    pub move_limit: fn(ply: usize, moves: u32) -> String,
    /// A draw at the cap on plies.
    pub ply_limit: fn(ply: usize, plies: u32) -> String,
    /// A violator that kept its violation up on other squares to the end of the record.
    pub kept_up_to_the_end: fn(
        reason: &str,
        violator: Color,
        told: usize,
        from: usize,
        text: Option<&str>,
        end: usize,
    ) -> String,
    /// A violator that repeated again after being told to change moves.
    pub repeated_again: fn(reason: &str, violator: Color, told: usize, ply: usize) -> String,
    /// A record that ends in a repetition its violator must leave.
    pub ends_in_repetition: fn(reason: &str, ply: usize, violator: Color) -> String,
    /// A repetition its violator had to leave, ruled at its first decision (`--first-decision`)
    /// while the record goes on `past` plies after it.
    pub decided_at_first: fn(reason: &str, ply: usize, violator: Color, past: usize) -> String,
    /// A repetition ruled a draw.
    pub repetition_draw: fn(reason: &str, ply: usize) -> String,
    /// The rule-book rule a ruling rests on.
    pub rule: fn(RuleCase) -> String,
    /// One side's cycle: its violation, the plies and its moves.
    pub cycle: fn(side: Color, Violation, plies: &str, moves: &str) -> String,
    /// A piece with its squares.
    pub piece_on: fn(Piece, squares: &str) -> String,
    /// The pieces chased on every move (each a `piece_on`).
    pub chased: fn(&str) -> String,
    /// The pieces chased in turn (each a `piece_on`, joined by the clause separator).
    pub chased_in_turn: fn(&str) -> String,
    /// Why a chased piece counted as unprotected, at a ply.
    pub unprotected: fn(ply: usize, why: &str) -> String,
    /// The ruled position and the plies it occurred at.
    pub repeated_position: fn(fen: &str, plies: &str) -> String,
    /// A ruling on a move whose reply the record does not give.
    pub reply_not_recorded: &'static str,
    /// Moves recorded past the ruling.
    pub past_ruling: fn(plies: usize) -> String,
    /// The heading of the repetitions met on the way.
    pub on_the_way: &'static str,

    // A repetition on the way.
    /// Its first ply, kind and who must change moves (none: it is allowed).
    pub event: fn(ply: usize, kind: &str, violator: Option<Color>) -> String,
    /// The violator kept the violation up on other squares, with the first such move.
    pub event_kept_up:
        fn(violator: Option<Color>, kind: &str, plies: &str, first_move: Option<&str>) -> String,
    /// The violator repeated again.
    pub event_kept_on: fn(violator: Option<Color>, ply: usize) -> String,
    /// The repetition went on under a new ruling.
    pub event_ruled_anew: fn(ply: usize) -> String,
    /// A side varied, with its move.
    pub event_varied: fn(Color, ply: usize, first_move: Option<&str>) -> String,
    /// The record ends in the repetition.
    pub event_record_ends: fn(ply: usize) -> String,

    // Why a chased piece counted as unprotected.
    /// The attack and why.
    pub attack:
        fn(attacker: Piece, from: Square, victim: Piece, square: Square, why: &str) -> String,
    /// Protected by the piece on a square.
    pub protected_by: fn(Square) -> String,
    /// The victim is worth more than its attacker.
    pub worth_more: fn(victim: PieceKind, attacker: PieceKind) -> String,
    /// No piece of the victim's side can take back.
    pub no_defender: fn(Color, Square) -> String,
    /// A piece that reaches the square but cannot take back (its kind, if known).
    pub defender_fails:
        fn(Option<PieceKind>, Square, DefenderFailure, attacker: PieceKind) -> String,

    // Remarks.
    /// The game was over before the record's last moves.
    pub game_over: fn(ply: usize, side: Color, Outcome, next_ply: usize, text: &str) -> String,
    /// A move's text (as recorded, the table's to quote) with a mark the move contradicts.
    pub mark_warning: fn(text: &str, MarkWarning) -> String,
    /// A remark the record reader made (its record text kept as it is).
    pub reader_note: fn(&ReaderNote) -> String,
    /// A game that could not be read.
    pub unreadable: &'static str,

    // The text report.
    /// The heading of a game: its file, its number, the line it starts at (0: not known), and
    /// its players and event.
    pub game_title: fn(file: &str, game: usize, line: u32, title: Option<&str>) -> String,
    /// A file that could not be read.
    pub file_error: fn(file: &str, error: &str) -> String,
    /// How many plies a game has.
    pub ply_count: fn(usize) -> String,
    /// A record's container format ("PGN").
    pub format: fn(Format) -> &'static str,
    /// The notation a record's moves were read in.
    pub notation: fn(Notation) -> &'static str,
    /// A record's text encoding.
    pub encoding: fn(Encoding) -> &'static str,
    /// The record's own result (as written) against the referee's (none to say when the referee
    /// has no ruling).
    pub record_says: fn(text: Option<&str>, Agreement, referee: Verdict) -> Option<String>,
    /// A remark on a record.
    pub note_remark: fn(&str) -> String,
    /// A warning about a record.
    pub warning_remark: fn(&str) -> String,
    /// The closing summary: games, games ruled and by which reasons (already listed), games
    /// without a ruling, games with errors, games whose record disagrees.
    pub summary: fn(
        games: usize,
        ruled: usize,
        reasons: &str,
        unruled: usize,
        errors: usize,
        disagree: usize,
    ) -> String,
    /// How many games a reason decided.
    pub reason_count: fn(games: usize, reason: &str) -> String,
    /// Files that could not be read.
    pub unreadable_files: fn(usize) -> String,
    /// Files without games, skipped, some of them named.
    pub skipped_files: fn(usize, named: &str) -> String,
    /// Some names, and how many more there are.
    pub and_more: fn(named: &str, more: usize) -> String,
    /// How many plies were judged, in how long, how many games a second.
    pub pace: fn(plies: usize, seconds: f64, games_per_second: f64) -> String,

    // The HTML report and the page.
    /// The legend under the boards, each side's glyphs already listed.
    pub legend: fn(red: &str, black: &str) -> String,
    /// One glyph of the legend.
    pub legend_glyph: fn(glyph: char, PieceKind) -> String,
    /// A remark on a repetition on the way.
    pub on_the_way_remark: fn(&str) -> String,
    /// A remark on an error.
    pub error_remark: fn(&str) -> String,
    /// The line of a record error, after its file's name (":12").
    pub error_line: fn(u32) -> String,
    /// The game of a record error, and its ply where known ("game 1, ply 3").
    pub error_game: fn(game: usize, ply: Option<usize>) -> String,
    /// What separates the parts of where a record error is, and what went wrong (": ").
    pub error_separator: &'static str,
    /// What went wrong in a record (its messages marked to be kept as written; a move's text is
    /// the table's to quote).
    pub error_kind: fn(&ErrorKind) -> String,
    /// A remark on moves recorded past the ruling.
    pub past_ruling_remark: fn(plies: usize) -> String,
    /// The record's own result, compared with the ruling.
    pub record_result: fn(&str, Agreement) -> String,
    /// The heading of a ruled game.
    pub game_heading: fn(file: &str, game: usize, Verdict, reason: &str, ply: usize) -> String,
    /// A ruling in one line, for the page ("Red wins — perpetual check at ply 12").
    pub headline: fn(Verdict, reason: Option<&str>, ply: usize) -> String,
    /// The side to move on the page's board: to move, in check, or mated.
    pub position_status: fn(side: Color, in_check: bool, mated: Option<Outcome>) -> String,
    /// An engine's score for the side to move: mate in so many moves (negative: being mated).
    pub mate_score: fn(i32) -> String,
    /// An engine's score for the side to move, in centipawns.
    pub centipawn_score: fn(i32) -> String,
    /// An engine's analysis: the best move (none when there is no legal move), the score
    /// (already in words), the depth and the line.
    pub analysis: fn(best: Option<&str>, score: &str, depth: u32, line: &str) -> String,
    /// The labels of the HTML report.
    pub html: HtmlLabels,
    /// The words the page's script shows.
    pub page: PageWords,
}

/// The words of the page: its fixed labels, and the messages and templates its script shows as it
/// works, whose `{name}` places the script fills in (with the text it has: plies, moves, game
/// numbers, events, rulings).
pub struct PageWords {
    /// While a record is judged.
    pub judging: &'static str,
    /// A record without games.
    pub no_game: &'static str,
    /// While the engine searches for its move.
    pub thinking: &'static str,
    /// While the engine analyses.
    pub analysing: &'static str,
    /// The engine's move: `{move}`.
    pub engine_move: &'static str,
    /// Where the board stands in the game: `{ply}` of `{plies}`.
    pub ply_of: &'static str,
    /// The same after a move: `{ply}` of `{plies}`, and the `{move}` that reached it.
    pub ply_of_move: &'static str,
    /// A game of a judged record, in the list of games: `{game}`.
    pub game: &'static str,
    /// The same with the record's event: `{game}`, `{event}`.
    pub game_event: &'static str,
    /// A refusal that came without the server's words: its `{status}` code and reason.
    pub refused: &'static str,
    /// An answer that could not be read.
    pub unreadable_answer: &'static str,
    /// The ruling a game without one would get with 2 repetitions: `{ruling}`.
    pub with_two_repetitions: &'static str,
    /// The button that judges the record again with 2 repetitions.
    pub judge_with_two: &'static str,
    /// The strongest engine level in the list of levels: `{level}`.
    pub full_strength: &'static str,
    /// A thinking time in the list of times: `{seconds}`.
    pub seconds: &'static str,

    // The page's fixed labels, put in by the server.
    /// The page's heading and title, after the program's name.
    pub heading: &'static str,
    /// The paragraph under the heading.
    pub intro: &'static str,
    /// The buttons' tooltips: to the start, back a ply, forward a ply, to the end.
    pub to_start: &'static str,
    /// Back a ply.
    pub back: &'static str,
    /// Forward a ply.
    pub forward: &'static str,
    /// To the end.
    pub to_end: &'static str,
    /// The button to the ruled position.
    pub to_ruling: &'static str,
    /// The heading of the record's part.
    pub judge_heading: &'static str,
    /// The words in the place a file is dropped or chosen.
    pub drop_file: &'static str,
    /// The label of the repetition count.
    pub repetitions: &'static str,
    /// The button that judges the record.
    pub judge: &'static str,
    /// The label of the list of games.
    pub games: &'static str,
    /// The heading of the playing part.
    pub play_heading: &'static str,
    /// What an empty FEN field stands for.
    pub start_position: &'static str,
    /// The button that sets up the FEN's position.
    pub set_up: &'static str,
    /// The button that takes the board's position into the FEN field.
    pub from_board: &'static str,
    /// The label of the engine's level.
    pub level: &'static str,
    /// The label of the engine's thinking time.
    pub time: &'static str,
    /// The label of the box that makes the engine answer each move.
    pub engine_replies: &'static str,
    /// The button that makes the engine move.
    pub engine_move_button: &'static str,
    /// The button that asks for an analysis.
    pub analyse: &'static str,
    /// The label of the move list's notation.
    pub notation: &'static str,
    /// The Chinese notation's name in the list of notations.
    pub chinese_notation: &'static str,
    /// The label of the move list.
    pub moves: &'static str,
}

impl PageWords {
    /// Every word of the page, by the name the page and its script know it by.
    pub fn entries(&self) -> [(&'static str, &'static str); 39] {
        [
            ("judging", self.judging),
            ("no_game", self.no_game),
            ("thinking", self.thinking),
            ("analysing", self.analysing),
            ("engine_move", self.engine_move),
            ("ply_of", self.ply_of),
            ("ply_of_move", self.ply_of_move),
            ("game", self.game),
            ("game_event", self.game_event),
            ("refused", self.refused),
            ("unreadable_answer", self.unreadable_answer),
            ("with_two_repetitions", self.with_two_repetitions),
            ("judge_with_two", self.judge_with_two),
            ("full_strength", self.full_strength),
            ("seconds", self.seconds),
            ("heading", self.heading),
            ("intro", self.intro),
            ("to_start", self.to_start),
            ("back", self.back),
            ("forward", self.forward),
            ("to_end", self.to_end),
            ("to_ruling", self.to_ruling),
            ("judge_heading", self.judge_heading),
            ("drop_file", self.drop_file),
            ("repetitions", self.repetitions),
            ("judge", self.judge),
            ("games", self.games),
            ("play_heading", self.play_heading),
            ("start_position", self.start_position),
            ("set_up", self.set_up),
            ("from_board", self.from_board),
            ("level", self.level),
            ("time", self.time),
            ("engine_replies", self.engine_replies),
            ("engine_move_button", self.engine_move_button),
            ("analyse", self.analyse),
            ("notation", self.notation),
            ("chinese_notation", self.chinese_notation),
            ("moves", self.moves),
        ]
    }
}

/// The labels of the HTML report: its language, heading, column headers and filter.
pub struct HtmlLabels {
    /// The page's language tag (`lang` of the `html` element).
    pub lang: &'static str,
    /// The page's heading.
    pub heading: &'static str,
    /// The summary table's columns: file, game, players, plies, result, reason, ply, the
    /// record's result, remarks.
    pub games_columns: [&'static str; 9],
    /// A cycle table's columns: side, violation, plies, the cycle's moves, the pieces chased.
    pub cycle_columns: [&'static str; 5],
    /// The filter's label before the kinds of row.
    pub show: &'static str,
    /// The kinds of row: all games, ruled games, disagreements with the record, errors.
    pub row_kinds: [&'static str; 4],
    /// The filter's label before the text to look for.
    pub containing: &'static str,
    /// What the text to look for may be.
    pub search_hint: &'static str,
    /// How many rows the filter shows: the words before, between and after the two counts.
    pub games_shown: [&'static str; 3],
}
