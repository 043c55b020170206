//! The text rendering of referee reports: a block per game and the closing summary. What a record
//! says (tags, move text, the input an error quotes) and file names are shown with their control
//! characters escaped, so that a record never drives the terminal.

use super::render::words::Words;
use super::render::{self, Lang};
use super::{Agreement, GameReport};
use crate::clip::printable;
use std::fmt::Write as _;
use std::time::Duration;

/// The text block for a game, in English.
pub fn report_text(r: &GameReport) -> String {
    report_text_in(r, Lang::En)
}

/// The text block for a game, in a language.
pub fn report_text_in(r: &GameReport, lang: Lang) -> String {
    let w = lang.words();
    if r.game == 0 {
        return lang.finish((w.file_error)(
            &lang.keep(&printable(&r.file)),
            &r.error().as_ref().map_or(String::new(), |e| {
                lang.keep(&printable(&render::error_kind(&e.kind, lang)))
            }),
        ));
    }
    let facts = r.facts();
    let (red, black) = (
        facts.and_then(|f| f.red.clone()),
        facts.and_then(|f| f.black.clone()),
    );
    let players = match (&red, &black) {
        (Some(a), Some(b)) => Some(format!("{a} - {b}")),
        (Some(a), None) => Some(a.clone()),
        (None, Some(b)) => Some(b.clone()),
        _ => None,
    };
    let event = facts.and_then(|f| f.event.clone());
    let title: Vec<String> = players.into_iter().chain(event).collect();
    // The record's own words and text already written in the language are kept as they are.
    let title = (!title.is_empty()).then(|| lang.keep(&printable(&title.join(w.list_separator))));
    let mut out = (w.game_title)(
        &lang.keep(&printable(&r.file)),
        r.game,
        r.line,
        title.as_deref(),
    );
    let mut what = Vec::new();
    if let Some(f) = facts {
        what.push((w.format)(f.format).to_string());
        if let Some(n) = f.notation {
            what.push((w.notation)(n).to_string());
        }
        what.push((w.encoding)(f.encoding).to_string());
    }
    what.push((w.ply_count)(r.moves().len()));
    let _ = write!(out, "\n  {}", what.join(w.list_separator));
    for line in render::explanation(r, lang).lines() {
        let _ = write!(out, "\n  {}", lang.keep(&printable(line)));
    }
    let result = facts
        .and_then(|f| f.result.as_deref())
        .map(|t| lang.keep(&printable(t)));
    let mut lines: Vec<String> = (w.record_says)(result.as_deref(), r.agreement(), r.result())
        .into_iter()
        .collect();
    lines.extend(
        render::notes(r, lang)
            .iter()
            .map(|n| (w.note_remark)(&lang.keep(&printable(n)))),
    );
    lines.extend(
        render::warnings(r, lang)
            .iter()
            .map(|x| (w.warning_remark)(&lang.keep(&printable(x)))),
    );
    if let Some(e) = r.error() {
        lines.push((w.error_remark)(
            &lang.keep(&printable(&render::record_error(e, lang))),
        ));
    }
    for line in lines {
        let _ = write!(out, "\n  {line}");
    }
    lang.finish(out)
}

/// The counts the closing summary is made of, gathered one report at a time (so reports need not
/// be kept).
#[derive(Debug, Default)]
pub struct Tally {
    games: usize,
    by_reason: Vec<(&'static str, usize)>,
    errors: usize,
    disagree: usize,
    plies: usize,
    unreadable: usize,
    /// Files found by walking a directory that hold no game.
    pub skipped: Vec<String>,
}

impl Tally {
    /// Counts one report.
    pub fn add(&mut self, r: &GameReport) {
        if r.error().is_some() {
            self.errors += 1;
        }
        if r.game == 0 {
            self.unreadable += 1;
            return;
        }
        self.games += 1;
        self.plies += r.moves().len();
        if r.agreement() == Agreement::Disagrees {
            self.disagree += 1;
        }
        if r.decision().is_some() {
            let reason = r.reason();
            match self.by_reason.iter_mut().find(|(k, _)| *k == reason) {
                Some((_, n)) => *n += 1,
                None => self.by_reason.push((reason, 1)),
            }
        }
    }

    /// Whether some game or file had an error.
    pub fn has_errors(&self) -> bool {
        self.errors > 0
    }

    /// The games counted (not unreadable files).
    pub fn games(&self) -> usize {
        self.games
    }

    /// The closing summary, in a language.
    pub fn summary(&self, elapsed: Duration, lang: Lang) -> String {
        let w = lang.words();
        let ruled: usize = self.by_reason.iter().map(|(_, n)| n).sum();
        let reasons: Vec<String> = self
            .by_reason
            .iter()
            .map(|(k, n)| (w.reason_count)(*n, (w.reason)(k)))
            .collect();
        let secs = elapsed.as_secs_f64().max(1e-9);
        let mut s = (w.summary)(
            self.games,
            ruled,
            &reasons.join(w.list_separator),
            self.games - ruled,
            self.errors,
            self.disagree,
        );
        if self.unreadable > 0 {
            s.push_str(&(w.unreadable_files)(self.unreadable));
        }
        if !self.skipped.is_empty() {
            s.push_str(&(w.skipped_files)(
                self.skipped.len(),
                &some_of(w, &self.skipped, SKIPPED_NAMED, lang),
            ));
        }
        s.push_str(&(w.pace)(self.plies, secs, self.games as f64 / secs));
        lang.finish(s)
    }
}

/// How many of the files without games the summary names.
const SKIPPED_NAMED: usize = 3;

/// The first `named` of `names`, and how many more: "a, b, c and 2 more".
fn some_of(w: &Words, names: &[String], named: usize, lang: Lang) -> String {
    // One more is named rather than counted: "and 1 more" would hide it for no room saved.
    let named = if names.len() == named + 1 {
        names.len()
    } else {
        named
    };
    let shown: Vec<String> = names
        .iter()
        .take(named)
        .map(|n| lang.keep(&printable(n)))
        .collect();
    match names.len().saturating_sub(named) {
        0 => shown.join(w.list_separator),
        more => (w.and_more)(&shown.join(w.list_separator), more),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reports of a record's games, judged under `rules`.
    fn judged(file: &str, record: &str, rules: crate::referee::Rules) -> Vec<GameReport> {
        crate::referee::judge_bytes(file, record.as_bytes(), rules)
    }

    #[test]
    fn the_records_own_words_stay_as_written_in_the_traditional_script() {
        let record = "[Event \"全国象棋个人赛\"]\n[Red \"许银川\"]\n[Black \"吕钦\"]\n\
                      [FEN \"c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w\"]\n\
                      1. 车二进一 将６进１ 2. 车二退一 将６退１ 3. 車二進一 0-1\n";
        let reports = judged("许.pgn", record, crate::referee::Rules::arbiter(2));
        let hant = report_text_in(&reports[0], Lang::ZhHant);
        // The names, the event and the file name as the record gives them; the referee's own
        // words and its Chinese notation in the Traditional script.
        for kept in ["许.pgn", "许银川", "全国象棋个人赛"] {
            assert!(hant.contains(kept), "{kept} in {hant}");
        }
        assert!(
            hant.contains("長將") && hant.contains("車二進一（h8h9）"),
            "{hant}"
        );
        // A move the record wrote another way is shown as written, beside the referee's own.
        assert!(!hant.contains("記譜"), "{hant}");
        for lang in Lang::ALL {
            let text = report_text_in(&reports[0], lang);
            assert!(!text.contains(['\u{E000}', '\u{E001}']), "{text}");
        }
    }

    #[test]
    fn a_readers_remark_is_in_the_reports_language() {
        let record = "[Event \"x\"]\n1. h2e2 h9g7 1-0 2. h0g2 i9h9\n";
        let reports =
            crate::referee::judge_bytes("x.pgn", record.as_bytes(), crate::referee::Rules::DEFAULT);
        let en = report_text_in(&reports[0], Lang::En);
        assert!(
            en.contains("line 2: moves after the result are not read: "),
            "{en}"
        );
        let hans = report_text_in(&reports[0], Lang::ZhHans);
        assert!(hans.contains("第2行：结果之后的着法没有读入："), "{hans}");
        assert!(!hans.contains("moves after"), "{hans}");
        let hant = report_text_in(&reports[0], Lang::ZhHant);
        assert!(hant.contains("第2行：結果之後的著法沒有讀入："), "{hant}");
    }

    #[test]
    fn a_record_error_is_in_the_reports_language_its_record_text_as_written() {
        let record = "[Event \"x\"]\n1. h2e2 h9g7 2. 炮八平九 *\n";
        let reports =
            crate::referee::judge_bytes("x.pgn", record.as_bytes(), crate::referee::Rules::DEFAULT);
        let en = report_text_in(&reports[0], Lang::En);
        assert!(
            en.contains("error: x.pgn:2: game 1, ply 3: move \"炮八平九\" (coordinates (ranks 0-9)) is not a move in any known notation"),
            "{en}"
        );
        let hans = report_text_in(&reports[0], Lang::ZhHans);
        assert!(
            hans.contains("错误：x.pgn第2行：第1局第3步：着法“炮八平九”（坐标（横线0–9））不是任何已知记法的着法"),
            "{hans}"
        );
        let hant = report_text_in(&reports[0], Lang::ZhHant);
        assert!(hant.contains("著法“炮八平九”"), "{hant}");
    }

    #[test]
    fn a_mark_its_move_contradicts_is_warned_of_in_the_reports_language() {
        let record = "[Event \"x\"]\n1. Che2+ Ng7 2. Ng2 Rh9 *\n";
        let reports =
            crate::referee::judge_bytes("x.pgn", record.as_bytes(), crate::referee::Rules::DEFAULT);
        let en = report_text_in(&reports[0], Lang::En);
        assert!(
            en.contains("warning: ply 1: \"Che2+\": marked `+` but gives no check"),
            "{en}"
        );
        let hans = report_text_in(&reports[0], Lang::ZhHans);
        assert!(
            hans.contains("警告：第1步：“Che2+”：标有将军记号 +，却没有将军"),
            "{hans}"
        );
    }

    #[test]
    fn one_more_name_is_named_not_counted() {
        let w = Lang::En.words();
        let names: Vec<String> = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
        assert_eq!(
            Lang::En.finish(some_of(w, &names[..4], 3, Lang::En)),
            "a, b, c, d"
        );
        assert_eq!(
            Lang::En.finish(some_of(w, &names, 3, Lang::En)),
            "a, b, c and 2 more"
        );
        assert_eq!(
            Lang::En.finish(some_of(w, &names[..2], 3, Lang::En)),
            "a, b"
        );
    }

    #[test]
    fn one_game_and_one_file_are_counted_in_the_singular() {
        let w = Lang::En.words();
        let one = (w.summary)(1, 0, "", 1, 0, 0);
        assert!(one.starts_with("summary: 1 game, 0 ruled"), "{one}");
        let two = (w.summary)(2, 0, "", 2, 0, 0);
        assert!(two.starts_with("summary: 2 games, "), "{two}");
        assert_eq!((w.unreadable_files)(1), "; 1 unreadable file");
        assert_eq!((w.ply_count)(1), "1 ply");
        assert_eq!((w.ply_count)(2), "2 plies");
        assert_eq!(
            (w.past_ruling)(1),
            "the record continues 1 ply past the ruling"
        );
        assert_eq!(
            (w.skipped_files)(1, "x.txt"),
            "; 1 file without games skipped (x.txt)"
        );
    }
}
