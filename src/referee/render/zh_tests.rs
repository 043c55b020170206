//! Tests of the Chinese table: every template rendered in both scripts, with no English word in
//! it, and the Traditional script made from the Simplified by a map that misses no character.

use super::words::{Counted, Words};
use super::{Lang, foreign_words, hant};
use crate::judge::protection::DefenderFailure;
use crate::judge::{Verdict, Violation};
use crate::piece::{Piece, PieceKind};
use crate::position::Outcome;
use crate::record::notation::{MarkWarning, Notation, TokenError};
use crate::record::{ErrorKind, ReaderNote};
use crate::referee::citation::RuleCase;
use crate::referee::report::Agreement;
use crate::square::{Color, Square};

/// The characters of the Simplified table that are written the same in the Traditional script.
const SAME_IN_BOTH: &str = "一上下不且中之了予二五仕他以件位作佳例依保值假允全共兵其再出分判到前包卒及反取\
另可吃各合含告和器回困圈在坐士子它就局己已平度引得循必思或手才找把拒拿捉擎攻文新方是最有服未本束析果架根格棋\
次正此步死每比求法注流深炮然犯理用由的相示秒移第等答算置考而能自致色若行被裁要警象走起路跳身途那部都重限\
面高黑列表制任份入前力始定弈式拖按本案粘退集尾止化支何知歧找";

/// Every name, word and template of a table, each filled with sample data (moves and squares in
/// ICCS, numbers, the table's own names).
fn every_template(w: &Words) -> Vec<String> {
    let sq = |s| Square::parse(s).expect("a square");
    let colors = [Color::Red, Color::Black];
    let mut out: Vec<String> = Vec::new();
    for color in colors {
        out.push((w.side)(color).into());
        out.push((w.no_defender)(color, sq("e5")));
        out.push((w.cycle)(color, Violation::PerpetualChase, "5", "h2e2"));
        out.push((w.event_varied)(color, 9, Some("h2e2")));
        out.push((w.event_varied)(color, 9, None));
        for how in [Outcome::Checkmate, Outcome::Stalemate] {
            out.push((w.mated)(color, 12, how));
            out.push((w.game_over)(12, color, how, 13, "h2e2"));
            for note in [
                ReaderNote::UnescapedQuotes {
                    tags: vec!["-".into()],
                },
                ReaderNote::MovesAfterResult {
                    line: 2,
                    text: "-".into(),
                },
                ReaderNote::VariationsSkipped(2),
            ] {
                out.push((w.reader_note)(&note));
            }
            let kinds = [
                ErrorKind::Io("-".into()),
                ErrorKind::NoGame,
                ErrorKind::Format("-".into()),
                ErrorKind::BadStart("-".into()),
                ErrorKind::Move {
                    text: "-".into(),
                    reason: TokenError::Unreadable,
                    notation: Some(Notation::Chinese),
                },
                ErrorKind::Move {
                    text: "-".into(),
                    reason: TokenError::NoMatch,
                    notation: None,
                },
                ErrorKind::Move {
                    text: "-".into(),
                    reason: TokenError::Ambiguous(vec!["h2e2".parse().expect("a move")]),
                    notation: None,
                },
            ];
            for mark in [
                MarkWarning::CaptureMarkWithoutCapture,
                MarkWarning::CaptureWithoutMark,
                MarkWarning::MateMarkWithLegalMoves,
                MarkWarning::CheckMarkWithoutCheck,
            ] {
                out.push((w.mark_warning)("-", mark));
            }
            for kind in kinds {
                out.push((w.error_kind)(&kind));
            }
            out.push(format!("{}{}", (w.error_line)(2), w.error_separator));
            out.push((w.error_game)(1, Some(3)));
            out.push((w.error_game)(1, None));
            out.push((w.position_status)(color, false, Some(how)));
        }
        out.push((w.position_status)(color, true, None));
        out.push((w.position_status)(color, false, None));
        for kind in PieceKind::ALL {
            let piece = Piece { color, kind };
            out.push((w.piece)(piece));
            out.push((w.piece_at)(piece, sq("h2")));
            out.push((w.piece_on)(piece, "b5"));
            out.push((w.kind)(kind).into());
            out.push((w.legend_glyph)('炮', kind));
            out.push((w.attack)(piece, sq("e7"), piece, sq("e5"), "-"));
            out.push((w.worth_more)(kind, kind));
            for failure in [
                DefenderFailure::ScreenIsAttacker,
                DefenderFailure::AttackerIsSecondScreen,
                DefenderFailure::ExposesKing,
            ] {
                out.push((w.defender_fails)(Some(kind), sq("e9"), failure, kind));
                out.push((w.defender_fails)(None, sq("e9"), failure, kind));
            }
        }
        let reason = (w.reason)("perpetual chase");
        out.push((w.kept_up_to_the_end)(
            reason,
            color,
            5,
            9,
            Some("h2e2"),
            13,
        ));
        out.push((w.kept_up_to_the_end)(reason, color, 5, 9, None, 13));
        out.push((w.repeated_again)(reason, color, 5, 13));
        out.push((w.ends_in_repetition)(reason, 13, color));
    }
    for v in [
        Violation::Idle,
        Violation::PerpetualChase,
        Violation::PerpetualCheck,
    ] {
        out.push((w.violation)(v).into());
    }
    for name in [
        "checkmate",
        "stalemate",
        "move limit",
        "ply limit",
        "perpetual check",
        "perpetual chase",
        "mutual perpetual check",
        "mutual perpetual chase",
        "idle repetition",
        "repetition",
        "no ruling",
    ] {
        let reason = (w.reason)(name);
        out.push(reason.into());
        out.push((w.repetition_draw)(reason, 7));
        out.push((w.reason_count)(3, reason));
        for violator in [None, Some(Color::Red)] {
            out.push((w.event)(7, reason, violator));
            out.push((w.event_kept_up)(violator, reason, "9", Some("h2e2")));
            out.push((w.event_kept_on)(violator, 11));
        }
    }
    let verdicts = [
        Verdict::Win(Color::Red),
        Verdict::Win(Color::Black),
        Verdict::Draw,
        Verdict::Undecided,
    ];
    let agreements = [
        Agreement::Agrees,
        Agreement::Disagrees,
        Agreement::NoRuling,
        Agreement::NoRecordResult,
    ];
    for verdict in verdicts {
        out.push((w.result)(verdict).into());
        out.push((w.game_heading)("局", 1, verdict, "-", 7));
        for reason in [None, Some("-")] {
            for ply in [0, 7] {
                out.push((w.headline)(verdict, reason, ply));
            }
        }
        for a in agreements {
            out.extend((w.record_says)(Some("1-0"), a, verdict));
            out.extend((w.record_says)(None, a, verdict));
        }
    }
    for a in agreements {
        out.push((w.agreement)(a).into());
        out.push((w.record_result)("1-0", a));
    }
    for counted in [Counted::Moves, Counted::Squares, Counted::Plies] {
        out.push((w.abbreviated)("1", "9", 12, counted));
    }
    for case in [
        RuleCase::PerpetualCheckLoses,
        RuleCase::MutualCheck,
        RuleCase::CheckAgainstChase,
        RuleCase::RookChased,
        RuleCase::CannonChased,
        RuleCase::HorseChased,
        RuleCase::PieceChased,
        RuleCase::MutualChase,
        RuleCase::ChaseInTurn,
        RuleCase::NoViolation,
    ] {
        out.push((w.rule)(case));
    }
    out.extend([
        w.list_separator.into(),
        w.clause_separator.into(),
        (w.plies)(5, 5),
        (w.plies)(5, 11),
        (w.move_named)("h2e2", Some("炮二平五"), Some("炮2平5")),
        (w.move_named)("h2e2", Some("炮二平五"), None),
        (w.move_named)("h2e2", None, Some("炮二平五")),
        (w.at_ply)(5, "-"),
        (w.no_ruling)(Some("1-0")),
        (w.no_ruling)(None),
        (w.move_limit)(120, 60),
        (w.ply_limit)(400, 400),
        (w.chased)("-"),
        (w.chased_in_turn)("-"),
        (w.unprotected)(5, "-"),
        (w.repeated_position)("4k4/9/9/9/9/9/9/9/4R4/3K5 b", "2, 6"),
        w.reply_not_recorded.into(),
        (w.past_ruling)(3),
        w.on_the_way.into(),
        (w.event_ruled_anew)(9),
        (w.event_record_ends)(9),
        (w.protected_by)(sq("e9")),
        w.unreadable.into(),
        (w.game_title)("局", 1, 3, Some("-")),
        (w.game_title)("局", 1, 0, None),
        (w.file_error)("局", "-"),
        (w.ply_count)(7),
        (w.note_remark)("-"),
        (w.warning_remark)("-"),
        (w.summary)(9, 5, "-", 4, 1, 1),
        (w.summary)(9, 5, "", 4, 1, 1),
        (w.unreadable_files)(2),
        (w.skipped_files)(2, "局"),
        (w.and_more)("局", 2),
        (w.pace)(100, 1.5, 6.0),
        (w.legend)("-", "-"),
        (w.on_the_way_remark)("-"),
        (w.error_remark)("-"),
        (w.past_ruling_remark)(3),
        (w.mate_score)(3),
        (w.mate_score)(-3),
        (w.centipawn_score)(25),
        (w.analysis)(Some("h2e2"), "-", 9, "h2e2 h9g7"),
        (w.analysis)(None, "-", 9, ""),
    ]);
    let h = &w.html;
    out.extend([h.heading, h.show, h.containing, h.search_hint].map(String::from));
    out.extend(h.games_columns.map(String::from));
    out.extend(h.cycle_columns.map(String::from));
    out.extend(h.row_kinds.map(String::from));
    out.extend(h.games_shown.map(String::from));
    out.extend(w.page.entries().map(|(_, text)| text.to_string()));
    out
}

/// The names of a record's format, notation and encoding, which keep the names they have
/// (`PGN`, `UTF-8`) beside the ones the table writes in Chinese.
fn record_names(w: &Words) -> Vec<String> {
    use crate::moves::RankStyle;
    use crate::record::Format;
    use crate::record::encoding::Encoding;
    use crate::record::notation::Notation;
    let mut out: Vec<String> = [Format::Pgn, Format::MoveList, Format::DhtmlXq, Format::Xqf]
        .map(|f| (w.format)(f).to_string())
        .into();
    for style in [RankStyle::ZeroToNine, RankStyle::OneToTen] {
        out.push((w.notation)(Notation::Coordinate(style)).into());
        out.push((w.notation)(Notation::San(style)).into());
    }
    for n in [Notation::Wxf, Notation::Chinese, Notation::DhtmlXq] {
        out.push((w.notation)(n).into());
    }
    for e in [
        Encoding::Utf8,
        Encoding::Utf16Le,
        Encoding::Utf16Be,
        Encoding::Gb18030,
        Encoding::Big5,
        Encoding::Binary,
    ] {
        out.push((w.encoding)(e).into());
    }
    out
}

fn chinese(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c)
}

#[test]
fn every_template_is_chinese_in_both_scripts() {
    let hans = every_template(Lang::ZhHans.words());
    for text in &hans {
        // The page's places to fill ({move}) are the script's, not words.
        let words = text.replace("{move}", "").replace("{plies}", "");
        let words = [
            "{ply}",
            "{game}",
            "{event}",
            "{status}",
            "{ruling}",
            "{level}",
            "{seconds}",
        ]
        .iter()
        .fold(words, |t, place| t.replace(place, ""));
        assert!(foreign_words(&words).is_empty(), "{words}");
    }
    assert!(
        hans.iter()
            .filter(|t| !["-", "1", "9"].iter().any(|x| t == x))
            .all(|t| t.chars().any(chinese) || t == "、" || t == "；"),
        "a template without Chinese"
    );
    let names = [
        "PGN", "DhtmlXQ", "XQF", "SAN", "UTF", "LE", "BE", "GB", "Big",
    ];
    for name in record_names(Lang::ZhHans.words()) {
        let english = foreign_words(&name);
        assert!(english.iter().all(|w| names.contains(w)), "{name}");
    }
    for text in hans.iter().chain(&record_names(Lang::ZhHans.words())) {
        let hant = Lang::ZhHant.finish(text.clone());
        let left: String = hant
            .chars()
            .filter(|&c| hant::is_simplified_only(c))
            .collect();
        assert!(left.is_empty(), "{left} left in {hant}");
        let unmapped: String = text
            .chars()
            .filter(|&c| chinese(c) && !hant::is_simplified_only(c) && !SAME_IN_BOTH.contains(c))
            .collect();
        assert!(
            unmapped.is_empty(),
            "{unmapped} neither mapped nor known the same: {text}"
        );
    }
}

#[test]
fn english_words_are_found_beside_moves_squares_and_fens() {
    assert!(foreign_words("第5步：h2e2（炮二平五）；红车b5、b6").is_empty());
    assert!(foreign_words("重复局面 4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1；WXF 规则").is_empty());
    assert_eq!(foreign_words("红方 wins at ply 5"), ["wins", "at", "ply"]);
    assert_eq!(foreign_words("h2e2x1 ICCS"), ["ICCS"]);
}

#[test]
fn languages_are_read_from_and_written_as_their_tags() {
    for lang in Lang::ALL {
        assert_eq!(lang.tag().parse::<Lang>(), Ok(lang));
        assert_eq!(lang.to_string(), lang.tag());
    }
    let error = "fr".parse::<Lang>().expect_err("no French");
    assert!(
        error.to_string().contains("en, zh-Hans, zh-Hant"),
        "{error}"
    );
}
