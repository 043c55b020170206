//! The one renderer of the referee's reports: puts the report's data (rulings, their cycles and
//! rule citations, the repetitions on the way, why a chased piece was unprotected, remarks) into
//! words, for the text, JSON and HTML reports, the server's page, the match runner and the WXF
//! case files alike. The logic here is the same in every language: what is said in which order,
//! how lists are joined and shortened. The words come from one table per language (`en`, `zh`);
//! adding a language means adding a table of the same shape (`words::Words`) and a [`Lang`] for
//! it. Chinese in the Traditional script is the Simplified table's text, converted at the output
//! by [`Lang::finish`].

mod en;
pub mod hant;
mod moves;
mod ruling;
pub mod words;
mod zh;
#[cfg(test)]
mod zh_tests;

use super::Decision;
use super::citation::RuleCase;
use super::report::{Agreement, GameReport, Note, ReportBody};
use crate::judge::explain::ChaseWitness;
use crate::judge::protection::Protection;
use crate::judge::{Verdict, Violation};
use crate::piece::{Piece, PieceKind};
use crate::position::Outcome;
use crate::position::Position;
use crate::record::{ErrorKind, ReaderNote, RecordError};
use crate::square::{Color, Square};
use std::collections::{BTreeMap, HashMap};
use std::sync::{LazyLock, Mutex};
use words::{Counted, HtmlLabels, Words};

pub use moves::{MoveNames, cycle_row};
pub use ruling::{decision, event};
pub use zh::foreign_words;

/// A language the reports can be rendered in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Chinese in the Simplified script.
    ZhHans,
    /// Chinese in the Traditional script.
    ZhHant,
}

impl Lang {
    /// Every language, in the order of their tags.
    pub const ALL: [Lang; 3] = [Lang::En, Lang::ZhHans, Lang::ZhHant];

    /// The language's table of words (the Simplified table for both scripts of Chinese: the
    /// Traditional is made from its output by [`Lang::finish`]).
    pub fn words(self) -> &'static Words {
        match self {
            Lang::En => &en::EN,
            Lang::ZhHans | Lang::ZhHant => &zh::ZH,
        }
    }

    /// The language's tag, as BCP 47 writes it: `en`, `zh-Hans`, `zh-Hant`.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhHans => "zh-Hans",
            Lang::ZhHant => "zh-Hant",
        }
    }

    /// Text rendered from the language's table, as the language writes it: in the Traditional
    /// script for `zh-Hant`, as it is otherwise. Every text the renderer gives passes here.
    pub fn finish(self, text: String) -> String {
        match self {
            Lang::ZhHant => hant::to_traditional(&text, KEPT),
            _ if text.contains([KEPT.0, KEPT.1]) => text.replace([KEPT.0, KEPT.1], ""),
            _ => text,
        }
    }

    /// A record's own words, or text already finished, to be shown as it is inside a sentence
    /// of the table: marked with [`verbatim`] where [`Lang::finish`] would convert it (the
    /// Traditional script), as it is otherwise.
    pub fn keep(self, text: &str) -> String {
        match self {
            Lang::ZhHant => verbatim(text),
            Lang::En | Lang::ZhHans => text.to_string(),
        }
    }

    /// [`Lang::finish`] for the table's fixed words (names, labels), each converted once.
    pub fn finish_static(self, text: &'static str) -> &'static str {
        if self != Lang::ZhHant {
            return text;
        }
        static CONVERTED: LazyLock<Mutex<HashMap<&'static str, &'static str>>> =
            LazyLock::new(Mutex::default);
        // Only the tables' own words come here, so what is kept stays as small as they are.
        let mut converted = CONVERTED.lock().unwrap_or_else(|e| e.into_inner());
        converted
            .entry(text)
            .or_insert_with(|| Box::leak(hant::to_traditional(text, KEPT).into_boxed_str()))
    }
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.tag())
    }
}

/// The marks around a span of text [`Lang::finish`] leaves as it is (private-use characters).
const KEPT: (char, char) = ('\u{E000}', '\u{E001}');

/// Text to be shown as it is inside a sentence of the table: a record's own words (names, move
/// texts, file names) and text already finished, which the Traditional script must not convert
/// (again). [`Lang::finish`] drops the marks.
pub fn verbatim(text: &str) -> String {
    let mut kept = String::with_capacity(text.len() + 6);
    kept.push(KEPT.0);
    kept.extend(text.chars().filter(|&c| c != KEPT.0 && c != KEPT.1));
    kept.push(KEPT.1);
    kept
}

/// A language tag the referee does not speak.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLang(pub String);

impl std::fmt::Display for UnknownLang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tags: Vec<&str> = Lang::ALL.iter().map(|l| l.tag()).collect();
        write!(
            f,
            "unknown language {:?}: the languages are {}",
            self.0,
            tags.join(", ")
        )
    }
}

impl std::error::Error for UnknownLang {}

impl std::str::FromStr for Lang {
    type Err = UnknownLang;

    fn from_str(text: &str) -> Result<Lang, UnknownLang> {
        Lang::ALL
            .into_iter()
            .find(|lang| lang.tag().eq_ignore_ascii_case(text))
            .ok_or_else(|| UnknownLang(text.to_string()))
    }
}

/// How many items of a list are shown at each end when it is too long to show whole.
const LIST_ENDS: usize = 4;

/// A list joined; a long one as its first and last few items, with how many it holds in all
/// ("1, 5, 9, 13, …, 85, 89, 93, 97 (25 plies in all)").
fn abbreviated(w: &Words, items: &[String], counted: Counted) -> String {
    if items.len() <= 3 * LIST_ENDS {
        return items.join(w.list_separator);
    }
    (w.abbreviated)(
        &items[..LIST_ENDS].join(w.list_separator),
        &items[items.len() - LIST_ENDS..].join(w.list_separator),
        items.len(),
        counted,
    )
}

/// Anything shown in turn (squares, plies), abbreviated when long.
fn listed<T: ToString>(w: &Words, items: &[T], counted: Counted) -> String {
    let items: Vec<String> = items.iter().map(T::to_string).collect();
    abbreviated(w, &items, counted)
}

/// The explanation of a report: the ending and what it rests on (or that there is none), then
/// the repetitions met on the way; for an unreadable game, that it was not judged.
pub fn explanation(r: &GameReport, lang: Lang) -> String {
    let w = lang.words();
    let ReportBody::Judged { game, .. } = &r.body else {
        return lang.finish(w.unreadable.to_string());
    };
    let facts = &game.facts;
    let names = MoveNames::of_report(r, lang);
    let mut text = match &game.ruling {
        None => (w.no_ruling)(facts.result.as_deref().map(|t| lang.keep(t)).as_deref()),
        Some(ruling) => ruling::ruling(w, ruling, &game.events, &names),
    };
    let on_the_way = r.repetitions_on_the_way();
    if !on_the_way.is_empty() {
        text.push_str("\n  ");
        text.push_str(w.on_the_way);
        for e in on_the_way {
            text.push_str("\n    ");
            text.push_str(&ruling::event_in(w, e, &names));
        }
    }
    lang.finish(text)
}

/// The rule-book rule a ruling rests on, with the nearest diagrams of the WXF manual.
pub fn rule(case: RuleCase, lang: Lang) -> String {
    lang.finish((lang.words().rule)(case))
}

/// Why a chased piece counted as unprotected: the attack, and what defended it or why nothing
/// could ("red rook h2 attacks black cannon h7: no black piece can take back on h7").
pub fn witness(witness: &ChaseWitness, lang: Lang) -> String {
    lang.finish(witness_in(lang.words(), witness))
}

/// [`witness`] in a language's words.
fn witness_in(w: &Words, witness: &ChaseWitness) -> String {
    let kind_on = |sq| {
        witness
            .defenders
            .iter()
            .find(|(d, _)| *d == sq)
            .map(|(_, p): &(_, Piece)| p.kind)
    };
    let why = match &witness.protection {
        Protection::Protected(d) => (w.protected_by)(*d),
        Protection::WorthMore => (w.worth_more)(witness.victim.kind, witness.attacker.kind),
        Protection::NoDefender => (w.no_defender)(witness.victim.color, witness.square),
        Protection::DefendersFail(failures) => failures
            .iter()
            .map(|&(d, failure)| (w.defender_fails)(kind_on(d), d, failure, witness.attacker.kind))
            .collect::<Vec<_>>()
            .join(w.clause_separator),
    };
    (w.attack)(
        witness.attacker,
        witness.from,
        witness.victim,
        witness.square,
        &why,
    )
}

/// A remark on a record.
pub fn note(note: &Note, lang: Lang) -> String {
    match note {
        Note::Reader(reader) => {
            lang.finish((lang.words().reader_note)(&keep_record_text(reader, lang)))
        }
        Note::GameOver {
            ply,
            side,
            how,
            text,
        } => lang.finish((lang.words().game_over)(
            *ply,
            *side,
            *how,
            ply + 1,
            &lang.keep(text),
        )),
    }
}

/// A record error in words: where it is (file, line, game, ply) and what went wrong. The file
/// and the record's text in it are kept as written; a reader's or the system's own message
/// inside it (a broken format, a bad FEN, a file that cannot be opened) stays in English.
pub fn record_error(e: &RecordError, lang: Lang) -> String {
    let w = lang.words();
    let mut out = lang.keep(&e.file);
    if let Some(line) = e.line.filter(|&l| l > 0) {
        out.push_str(&(w.error_line)(line));
    }
    out.push_str(w.error_separator);
    if let Some(game) = e.game {
        out.push_str(&(w.error_game)(game, e.ply));
        out.push_str(w.error_separator);
    }
    out.push_str(&error_kind_in(lang, &e.kind));
    lang.finish(out)
}

/// What went wrong in a record, in words, without where.
pub fn error_kind(kind: &ErrorKind, lang: Lang) -> String {
    lang.finish(error_kind_in(lang, kind))
}

fn error_kind_in(lang: Lang, kind: &ErrorKind) -> String {
    let kept = match kind {
        ErrorKind::Io(e) => ErrorKind::Io(lang.keep(e)),
        ErrorKind::Format(e) => ErrorKind::Format(lang.keep(e)),
        ErrorKind::BadStart(e) => ErrorKind::BadStart(lang.keep(e)),
        // The table quotes the move's text itself, keeping it as written.
        ErrorKind::Move { .. } | ErrorKind::NoGame => kind.clone(),
    };
    (lang.words().error_kind)(&kept)
}

/// A reader's remark with its record text marked to be kept as the record has it.
fn keep_record_text(note: &ReaderNote, lang: Lang) -> ReaderNote {
    match note {
        ReaderNote::UnescapedQuotes { tags } => ReaderNote::UnescapedQuotes {
            tags: tags.iter().map(|t| lang.keep(t)).collect(),
        },
        ReaderNote::MovesAfterResult { line, text } => ReaderNote::MovesAfterResult {
            line: *line,
            text: lang.keep(text),
        },
        ReaderNote::VariationsSkipped(n) => ReaderNote::VariationsSkipped(*n),
    }
}

/// A report's remarks, in words.
pub fn notes(r: &GameReport, lang: Lang) -> Vec<String> {
    r.notes().iter().map(|n| note(n, lang)).collect()
}

/// A report's warnings (marks that disagree with their moves), each with its ply.
pub fn warnings(r: &GameReport, lang: Lang) -> Vec<String> {
    let w = lang.words();
    r.warnings()
        .iter()
        .map(|m| lang.finish((w.at_ply)(m.ply, &(w.mark_warning)(&m.text, m.mark))))
        .collect()
}

/// Why each chased piece of a report's ruling counted as unprotected, each with its ply.
pub fn unprotected(r: &GameReport, lang: Lang) -> Vec<String> {
    let w = lang.words();
    r.ruling()
        .map_or(&[][..], |x| &x.cycles)
        .iter()
        .flat_map(|c| &c.unprotected)
        .map(|u| lang.finish((w.at_ply)(u.ply, &witness_in(w, u))))
        .collect()
}

/// A piece on a square, as a board's tooltip names it ("red rook on h2").
pub fn piece_at(piece: Piece, square: Square, lang: Lang) -> String {
    lang.finish((lang.words().piece_at)(piece, square))
}

/// Every piece of a position by its square, as a board's tooltips name them.
pub fn pieces_at(pos: &Position, lang: Lang) -> BTreeMap<String, String> {
    Square::all()
        .filter_map(|sq| {
            pos.piece_at(sq)
                .map(|p| (sq.to_string(), piece_at(p, sq, lang)))
        })
        .collect()
}

/// A side, as the subject of a sentence ("Red").
pub fn side(color: Color, lang: Lang) -> &'static str {
    lang.finish_static((lang.words().side)(color))
}

/// A side's part of a repetition, in words ("perpetual check").
pub fn violation(v: Violation, lang: Lang) -> &'static str {
    lang.finish_static((lang.words().violation)(v))
}

/// Pieces, each with all its squares ("red rook b5, b6; red cannon h7").
pub fn pieces_on(pieces: &[(Piece, Vec<Square>)], lang: Lang) -> String {
    let w = lang.words();
    let each: Vec<String> = pieces
        .iter()
        .map(|(piece, squares)| {
            let squares: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
            (w.piece_on)(*piece, &squares.join(w.list_separator))
        })
        .collect();
    lang.finish(clauses(&each, lang))
}

/// Clauses (remarks, pieces) joined in one sentence.
pub fn clauses(items: &[String], lang: Lang) -> String {
    items.join(lang.words().clause_separator)
}

/// A result in an arbiter's words ("Red wins", "draw", "no ruling").
pub fn result(verdict: Verdict, lang: Lang) -> &'static str {
    lang.finish_static((lang.words().result)(verdict))
}

/// A reason for a ruling (as `Decision::reason_name` names it), in words.
pub fn reason(name: &'static str, lang: Lang) -> &'static str {
    lang.finish_static((lang.words().reason)(name))
}

/// How a record's own result compares with the ruling, in words.
pub fn agreement(agreement: Agreement, lang: Lang) -> &'static str {
    lang.finish_static((lang.words().agreement)(agreement))
}

/// A report's ruling in one line, for the page: the result, the reason and the ply.
pub fn headline(r: &GameReport, lang: Lang) -> String {
    let w = lang.words();
    let reason = r.decision().map(|d| (w.reason)(d.reason_name()));
    lang.finish((w.headline)(
        r.result(),
        reason,
        r.decision().map_or(0, |d| d.ply),
    ))
}

/// The side to move on a board, in words: to move (in check or not), or mated (`outcome`, as
/// [`Position::outcome`] gives it).
pub fn position_status(pos: &Position, outcome: Option<Outcome>, lang: Lang) -> String {
    lang.finish((lang.words().position_status)(
        pos.side_to_move(),
        pos.in_check(),
        outcome,
    ))
}

/// The words of the page (its labels, and the messages and templates its script shows), as a JSON
/// object of strings by name (the templates' `{name}` places filled in by the script).
pub fn page_words(lang: Lang) -> serde_json::Value {
    let words = lang.words().page.entries().map(|(name, text)| {
        (
            name.to_string(),
            serde_json::Value::from(lang.finish_static(text)),
        )
    });
    serde_json::Value::Object(words.into_iter().collect())
}

/// An engine's analysis in words: the best move (if any), the score for the side to move (mate
/// in so many moves, else centipawns), the depth and the line.
pub fn analysis(
    best: Option<&str>,
    mate: Option<i32>,
    centipawns: i32,
    depth: u32,
    line: &[String],
    lang: Lang,
) -> String {
    let w = lang.words();
    let score = match mate {
        Some(moves) => (w.mate_score)(moves),
        None => (w.centipawn_score)(centipawns),
    };
    lang.finish((w.analysis)(best, &score, depth, &line.join(" ")))
}

/// The legend under the HTML report's boards: each glyph (as `glyph` draws it) with its piece.
pub fn legend(glyph: fn(Piece) -> char, lang: Lang) -> String {
    let w = lang.words();
    let side = |color| {
        PieceKind::ALL
            .iter()
            .map(|&kind| (w.legend_glyph)(glyph(Piece { color, kind }), kind))
            .collect::<Vec<_>>()
            .join(w.list_separator)
    };
    lang.finish((w.legend)(&side(Color::Red), &side(Color::Black)))
}

/// The remarks on a game in the HTML report's table: the record's notes, the repetitions on the
/// way, the error, moves recorded past the ruling.
pub fn remarks(r: &GameReport, lang: Lang) -> Vec<String> {
    let w = lang.words();
    let mut remarks = notes(r, lang);
    let names = MoveNames::of_report(r, lang);
    remarks.extend(
        r.repetitions_on_the_way()
            .into_iter()
            .map(|e| lang.finish((w.on_the_way_remark)(&ruling::event_in(w, e, &names)))),
    );
    if let Some(e) = r.error() {
        remarks.push(lang.finish((w.error_remark)(&lang.keep(&record_error(e, lang)))));
    }
    let past_ruling = r.ruling().map_or(0, |x| x.past_ruling);
    if past_ruling > 0 {
        remarks.push(lang.finish((w.past_ruling_remark)(past_ruling)));
    }
    remarks
}

/// The record's own result with how it compares with the ruling, if the record gives one.
pub fn record_result(r: &GameReport, lang: Lang) -> Option<String> {
    let text = r.facts()?.result.as_deref()?;
    Some(lang.finish((lang.words().record_result)(
        &lang.keep(text),
        r.agreement(),
    )))
}

/// The heading of a ruled game in the HTML report.
pub fn game_heading(r: &GameReport, decision: &Decision, lang: Lang) -> String {
    let w = lang.words();
    lang.finish((w.game_heading)(
        &lang.keep(&r.file),
        r.game,
        decision.verdict,
        (w.reason)(decision.reason_name()),
        decision.ply,
    ))
}

/// The labels of the HTML report, as the language writes them, with its tag for the page.
pub fn html_labels(lang: Lang) -> HtmlLabels {
    let labels = &lang.words().html;
    let f = |text| lang.finish_static(text);
    HtmlLabels {
        lang: lang.tag(),
        heading: f(labels.heading),
        games_columns: labels.games_columns.map(f),
        cycle_columns: labels.cycle_columns.map(f),
        show: f(labels.show),
        row_kinds: labels.row_kinds.map(f),
        containing: f(labels.containing),
        search_hint: f(labels.search_hint),
        games_shown: labels.games_shown.map(f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::protection::DefenderFailure;

    #[test]
    fn rule_citations_name_their_rules_and_diagrams() {
        for (case, words) in [
            (
                RuleCase::PerpetualCheckLoses,
                "WXF rule 6: perpetual check loses (manual diagram 1)",
            ),
            (
                RuleCase::RookChased,
                "WXF rules 15 and 19: a rook may not be perpetually chased (manual diagram 18)",
            ),
            (
                RuleCase::ChaseInTurn,
                "WXF rule 32: one piece chasing two pieces in turn, or two chasing two, is not a perpetual chase (manual diagrams 76-80)",
            ),
            (
                RuleCase::NoViolation,
                "WXF rules: a repetition in which neither side violates is a draw",
            ),
        ] {
            assert_eq!(rule(case, Lang::En), words);
        }
    }

    #[test]
    fn long_lists_are_shortened_with_their_count() {
        let w = Lang::En.words();
        let plies: Vec<usize> = (1..=25).map(|i| 4 * i - 3).collect();
        assert_eq!(
            listed(w, &plies, Counted::Plies),
            "1, 5, 9, 13, …, 85, 89, 93, 97 (25 plies in all)"
        );
        assert_eq!(listed(w, &plies[..3], Counted::Plies), "1, 5, 9");
    }

    #[test]
    fn a_witness_names_each_defender_that_cannot_take_back() {
        let sq = |s| Square::parse(s).expect("a square");
        let witnessed = ChaseWitness {
            ply: 7,
            attacker: Piece::new(Color::Red, PieceKind::Rook),
            from: sq("e7"),
            victim: Piece::new(Color::Black, PieceKind::Horse),
            square: sq("e5"),
            protection: Protection::DefendersFail(vec![(
                sq("e9"),
                DefenderFailure::ScreenIsAttacker,
            )]),
            defenders: vec![(sq("e9"), Piece::new(Color::Black, PieceKind::Cannon))],
        };
        assert_eq!(
            witness(&witnessed, Lang::En),
            "red rook e7 attacks black horse e5: the cannon on e9 would take back over the rook as its screen, which the capture removes (a false root)"
        );
    }

    #[test]
    fn the_status_names_the_side_to_move_or_the_winner() {
        for (fen, words) in [
            (crate::fen::START_FEN, "Red to move"),
            ("4k4/9/9/9/9/9/9/9/4R4/3K5 b", "Black to move, in check"),
            ("3k5/2P6/9/9/9/9/9/9/9/3RK4 b", "checkmate: Red wins"),
            ("3k5/2P6/9/9/9/9/9/9/9/4K4 b", "stalemate: Red wins"),
        ] {
            let pos = crate::fen::parse(fen).unwrap();
            assert_eq!(
                position_status(&pos, pos.outcome(), Lang::En),
                words,
                "{fen}"
            );
        }
    }

    #[test]
    fn the_page_words_fill_only_the_places_the_script_fills() {
        for lang in Lang::ALL {
            the_page_words_fill_only_the_places_the_script_fills_in(lang);
        }
    }

    fn the_page_words_fill_only_the_places_the_script_fills_in(lang: Lang) {
        let words = page_words(lang);
        let fills = [
            "ply", "plies", "move", "game", "event", "status", "ruling", "level", "seconds",
        ];
        for (name, text) in words.as_object().expect("an object") {
            let text = text.as_str().expect("a string");
            for place in text.split('{').skip(1) {
                let place = place.split('}').next().unwrap_or_default();
                assert!(fills.contains(&place), "{name}: {{{place}}}");
            }
        }
    }

    #[test]
    fn an_analysis_gives_the_move_the_score_and_the_line() {
        let line = ["h2e2".to_string(), "h9g7".to_string()];
        assert_eq!(
            analysis(Some("h2e2"), None, 0, 12, &line, Lang::En),
            "best h2e2, +0 cp for the side to move, depth 12, line h2e2 h9g7"
        );
        assert_eq!(
            analysis(None, Some(-3), 0, 5, &[], Lang::En),
            "best —, mate -3 for the side to move, depth 5, line "
        );
    }
}
