//! The referee on real game records (`tests/data/games/`, see its README for sources and licences)
//! and on the WXF case suite written as a PGN file: every sample parses and replays, the same games
//! in three notations and two encodings give the same moves, and the rulings are the expected ones.

use xq::judge::Verdict;
use xq::moves::Move;
use xq::record::{self, GameRecord};
use xq::referee::render::{self, Lang};
use xq::referee::{GameReport, Rules, judge_bytes};
use xq::square::Color;

const GAMES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/games/");

fn bytes(path: &str) -> Vec<u8> {
    std::fs::read(format!("{GAMES}{path}")).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn records(path: &str) -> Vec<GameRecord> {
    record::read_games(path, &bytes(path))
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .map(|g| g.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

fn judge(path: &str, occurrences: u32) -> Vec<GameReport> {
    let config = Rules::arbiter(occurrences);
    judge_bytes(path, &bytes(path), config)
}

fn moves(g: &GameRecord) -> Vec<String> {
    g.moves.iter().map(Move::to_string).collect()
}

const SAMPLES: [(&str, usize); 20] = [
    ("ccpd/masters_national_20.utf8.pgn", 20),
    ("ccpd/big5/national_00000001.big5.pgn", 1),
    ("ccpd/big5/national_00000002.big5.pgn", 1),
    ("ccpd/big5/national_00000003.big5.pgn", 1),
    ("ccpd/big5/human_vs_computer_00000001.big5.pgn", 1),
    ("ccpd/big5/human_vs_computer_00000002.big5.pgn", 1),
    ("wukong/bulk_games_uci_15games.pgn", 15),
    ("wukong/xqdb_international_15games.pgn", 15),
    ("wukong/xqdb_traditional_15games.pgn", 15),
    ("wukong/116.html", 1),
    ("wukong/125.html", 1),
    ("wukong/xboard/wukongjs_vs_maxqi_stalemate.pgn", 1),
    ("wukong/xboard/wukongjs_vs_maxqi_checkmate.pgn", 1),
    ("wukong/xboard/wukongjs_vs_maxqi_repetition.pgn", 1),
    ("xqbase/ccgc_2006_5games.utf8.pgn", 5),
    ("xqbase/xqf/SAMPLE.XQF", 1),
    ("xqbase/xqf/SAMPLE.PGN", 1),
    ("xqbase/xqf/XQFEXAMA.XQF", 1),
    ("xqbase/xqf/XQFEXAMB.XQF", 1),
    ("xboard/fsf_vs_maxqi_stalemate.pgn", 1),
];

#[test]
fn every_sample_parses_and_replays() {
    let mut games = 0;
    for (path, count) in SAMPLES
        .iter()
        .chain(&[("xboard/fsf_vs_maxqi_stalemate.iccs.txt", 1)])
    {
        let reports = judge(path, 3);
        assert_eq!(reports.len(), *count, "{path}");
        for r in &reports {
            assert!(
                r.error().is_none(),
                "{path}: {:?}",
                r.error().map(ToString::to_string)
            );
            assert!(
                r.moves().len() >= 20,
                "{path} game {}: {} plies",
                r.game,
                r.moves().len()
            );
            assert_eq!(
                r.moves().len(),
                r.move_texts().len(),
                "{path} game {}: every token is a move",
                r.game
            );
            games += 1;
        }
    }
    assert_eq!(games, 86);
}

#[test]
fn files_without_games_are_reported() {
    for path in ["README.md", "wukong/LICENSE.MIT.txt", "xqbase/xqf/XQF.TXT"] {
        let reports = judge(path, 3);
        assert_eq!(reports.len(), 1);
        let error = reports[0].error().expect("an error").to_string();
        assert!(error.contains("no game record found"), "{path}: {error}");
    }
}

#[test]
fn three_notations_give_the_same_moves() {
    let coordinates = records("wukong/bulk_games_uci_15games.pgn");
    let wxf = records("wukong/xqdb_international_15games.pgn");
    let chinese = records("wukong/xqdb_traditional_15games.pgn");
    assert_eq!((coordinates.len(), wxf.len(), chinese.len()), (15, 15, 15));
    for ((c, w), z) in coordinates.iter().zip(&wxf).zip(&chinese) {
        assert!(c.stop.is_none() && w.stop.is_none() && z.stop.is_none());
        assert_eq!(moves(w), moves(z), "game {}: WXF and Chinese", c.index);
        if c.index == 2 {
            // The known difference (games/README.md): at ply 71 the WXF and Chinese files say
            // "rear pawn" (e3) where the coordinate file plays the front pawn (e5).
            let (cm, wm) = (moves(c), moves(w));
            let differ: Vec<usize> = (0..cm.len())
                .filter(|&i| cm[i] != wm[i])
                .map(|i| i + 1)
                .collect();
            assert_eq!(differ, [71], "game 2 differs only at ply 71");
            assert_eq!((cm[70].as_str(), wm[70].as_str()), ("e5e6", "e3e4"));
        } else {
            assert_eq!(moves(c), moves(w), "game {}: coordinates and WXF", c.index);
        }
    }
}

#[test]
fn big5_and_utf8_give_the_same_games() {
    let utf8 = records("ccpd/masters_national_20.utf8.pgn");
    for i in 1..=3 {
        let path = format!("ccpd/big5/national_0000000{i}.big5.pgn");
        let big5 = records(&path);
        assert_eq!(big5[0].encoding, record::encoding::Encoding::Big5, "{path}");
        assert_eq!(moves(&big5[0]), moves(&utf8[i - 1]), "{path}");
        assert_eq!(big5[0].tags, utf8[i - 1].tags, "{path}");
    }
}

#[test]
fn xqf_matches_its_pgn_conversion() {
    let xqf = records("xqbase/xqf/SAMPLE.XQF");
    let pgn = records("xqbase/xqf/SAMPLE.PGN");
    assert_eq!(pgn[0].encoding, record::encoding::Encoding::Gb18030);
    assert_eq!(xqf[0].start, pgn[0].start, "nine-piece handicap start");
    assert_eq!(
        xqf[0].start.to_string(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1"
    );
    assert_eq!(moves(&xqf[0]), moves(&pgn[0]));
    assert_eq!(xqf[0].tag("Red"), Some("许银川"));
    let a = judge("xqbase/xqf/XQFEXAMA.XQF", 3);
    assert_eq!(
        a[0].facts().and_then(|f| f.verdict),
        Some(Verdict::Win(Color::Black))
    );
    let b = judge("xqbase/xqf/XQFEXAMB.XQF", 3);
    assert_eq!(b[0].facts().and_then(|f| f.verdict), Some(Verdict::Draw));
    assert!(
        render::notes(&b[0], Lang::En)
            .iter()
            .any(|n| n.contains("19 variation")),
        "{:?}",
        b[0].notes()
    );
}

fn outcome(r: &GameReport) -> (String, &'static str, Option<usize>) {
    (
        r.result().to_string(),
        r.reason(),
        r.decision().as_ref().map(|d| d.ply),
    )
}

#[test]
fn endings_are_ruled() {
    let ccgc = judge("xqbase/ccgc_2006_5games.utf8.pgn", 3);
    let got: Vec<_> = ccgc.iter().map(outcome).collect();
    assert_eq!(got[0], ("undecided".into(), "no ruling", None));
    assert_eq!(got[2], ("black_wins".into(), "checkmate", Some(116)));
    assert_eq!(got[3], ("red_wins".into(), "stalemate", Some(123)));
    assert_eq!(got[4], ("red_wins".into(), "checkmate", Some(105)));
    for r in &ccgc[2..] {
        assert_eq!(r.agreement(), xq::referee::Agreement::Agrees);
    }
    let wukong = judge("wukong/bulk_games_uci_15games.pgn", 3);
    for r in &wukong {
        let expected = if r.game == 7 {
            "checkmate"
        } else {
            "no ruling"
        };
        assert_eq!(r.reason(), expected, "game {}", r.game);
    }
    let fsf = judge("xboard/fsf_vs_maxqi_stalemate.pgn", 3);
    assert_eq!(outcome(&fsf[0]).1, "stalemate");
    assert_eq!(fsf[0].result(), Verdict::Win(Color::Black));
    let final_fen = &fsf[0].judged().expect("judged").final_fen;
    assert!(
        final_fen.starts_with("4ka3/9/4b4/9/9/9/9/2n2p3/9/4KA2r w"),
        "{final_fen}"
    );
    let iccs = judge("xboard/fsf_vs_maxqi_stalemate.iccs.txt", 3);
    assert_eq!(iccs[0].moves(), fsf[0].moves());
    for (path, reason) in [
        ("wukong/xboard/wukongjs_vs_maxqi_stalemate.pgn", "stalemate"),
        ("wukong/xboard/wukongjs_vs_maxqi_checkmate.pgn", "checkmate"),
    ] {
        let r = &judge(path, 3)[0];
        assert_eq!(
            (r.result(), r.reason()),
            (Verdict::Win(Color::Red), reason),
            "{path}"
        );
    }
    // Master games end by resignation or agreement: no ruling, and never an invented result.
    let masters = judge("ccpd/masters_national_20.utf8.pgn", 3);
    for r in masters.iter().filter(|r| r.game != 5) {
        assert_eq!(
            r.result(),
            Verdict::Undecided,
            "game {}: {}",
            r.game,
            render::explanation(r, Lang::En)
        );
        assert!(
            render::explanation(r, Lang::En).starts_with("no ruling; result from the record"),
            "{}",
            render::explanation(r, Lang::En)
        );
    }
}

#[test]
fn a_perpetual_chase_in_a_master_game() {
    // As the first decision (the case suite's convention): ruled when the position first occurs
    // three times.
    let path = "ccpd/masters_national_20.utf8.pgn";
    let first = Rules::first_decision(3);
    let r = &judge_bytes(path, &bytes(path), first)[4];
    assert_eq!(outcome(r), ("red_wins".into(), "perpetual chase", Some(93)));
    assert_eq!(r.ruling().and_then(|x| x.violator), Some(Color::Black));
    assert_eq!(r.ruling().map_or(0, |x| x.past_ruling), 143 - 93);
    assert_eq!(r.ruling().map_or(&[][..], |x| &x.repeated_at), [85, 89, 93]);
    // As an arbiter reads the record: Black had to change moves and played the chasing move
    // again at ply 94, which ends the game there (Red won, as the record says).
    let masters = judge(path, 3);
    let r = &masters[4];
    assert_eq!(outcome(r), ("red_wins".into(), "perpetual chase", Some(94)));
    assert_eq!(r.agreement(), xq::referee::Agreement::Agrees);
    let text = render::explanation(r, Lang::En);
    for part in [
        "Black had to change moves after ply 93 and repeated again at ply 94; Red wins",
        "WXF rules 15 and 19: a rook may not be perpetually chased",
        "c7d5 (馬３進４)",
        "chased red rook b6, b5, b6, b5",
        "unprotected at ply 94: black horse c7 attacks red rook b5: a rook is worth more than a horse",
        "the record continues 49 plies past the ruling",
    ] {
        assert!(text.contains(part), "{part:?} in {text}");
    }
    assert_eq!(r.ruling().map_or(&[][..], |x| &x.repeated_at), [86, 90, 94]);
}

/// Repetitions the violator left are events on the way, not the ending; an ending is ruled only
/// where the record ends in the repetition or the violator keeps on.
#[test]
fn repetitions_on_the_way_are_events_not_endings() {
    // Red checks with the rook on h9 and h8; once the position after a check has occurred three
    // times with every Red move between a check (ply 9), Red must change moves, and does.
    let start = "[FEN \"3k5/9/9/p8/9/9/9/9/9/4K2R1 w - - 0 1\"]\n";
    let cycle = "h0h9 d9d8 h9h8 d8d9 h8h9 d9d8 h9h8 d8d9 h8h9 d9d8 ";
    let varied = format!("{start}{cycle}h9h5 a6a5 1-0\n");
    let r = &judge_bytes("varied.pgn", varied.as_bytes(), Rules::default())[0];
    assert_eq!(
        r.reason(),
        "no ruling",
        "{}",
        render::explanation(r, Lang::En)
    );
    let events = &r.judged().unwrap().events;
    assert_eq!(events.len(), 1, "{}", render::explanation(r, Lang::En));
    assert_eq!(events[0].violator(), Some(Color::Red));
    assert_eq!(events[0].varied, Some((Color::Red, 11)));
    assert!(
        render::explanation(r, Lang::En).contains(
            "ply 9: perpetual check; Red must change moves; Red varied at ply 11 with h9h5"
        ),
        "{}",
        render::explanation(r, Lang::En)
    );
    // JSON numbers the plies as the text does.
    let json = xq::referee::json::report_json(r);
    let event = &json["events"][0];
    assert_eq!(
        (
            event["kind"].as_str(),
            event["first_ply"].as_u64(),
            event["violator"].as_str(),
            event["varied_by"].as_str(),
            event["varied_ply"].as_u64(),
        ),
        (
            Some("perpetual check"),
            Some(9),
            Some("red"),
            Some("red"),
            Some(11)
        ),
        "{json}"
    );
    // Red: rook h5 (17 squares), king e0 to e1 or f0 (d0 faces the king on d8); Fairy-Stockfish
    // counts 19 as well.
    assert_eq!(json["final"]["legal_moves"].as_u64(), Some(19), "{json}");
    // Red checks again at ply 11 instead: Red loses there, though the record goes on.
    let kept = format!("{start}{cycle}h9h8 d8d9 h8h5 a6a5 0-1\n");
    let r = &judge_bytes("kept.pgn", kept.as_bytes(), Rules::default())[0];
    assert_eq!(
        (r.result(), r.reason(), r.decision().map(|d| d.ply)),
        (Verdict::Win(Color::Black), "perpetual check", Some(11)),
        "{}",
        render::explanation(r, Lang::En)
    );
    assert!(
        render::explanation(r, Lang::En)
            .contains("Red had to change moves after ply 9 and repeated again at ply 11"),
        "{}",
        render::explanation(r, Lang::En)
    );
    let json = xq::referee::json::report_json(r);
    assert_eq!(json["ply"].as_u64(), Some(11), "{json}");
    assert_eq!(
        json["events"][0]["kept_on_ply"].as_u64(),
        Some(11),
        "{json}"
    );
    // A cycle's first ply is its side's first move's, as in the text ("Black's moves at plies
    // 4-10").
    let red = &json["cycles"][0];
    assert_eq!(
        (red["first_ply"].as_u64(), red["moves"][0]["ply"].as_u64()),
        (Some(4), Some(4)),
        "{json}"
    );
    // The record ends in the repetition: Red's loss.
    let ends = format!("{start}{cycle}0-1\n");
    let r = &judge_bytes("ends.pgn", ends.as_bytes(), Rules::default())[0];
    assert_eq!(
        r.result(),
        Verdict::Win(Color::Black),
        "{}",
        render::explanation(r, Lang::En)
    );
    assert_eq!(r.reason(), "perpetual check");
    assert!(
        render::explanation(r, Lang::En).contains("WXF rule 6: perpetual check loses"),
        "{}",
        render::explanation(r, Lang::En)
    );
    // What was decided and why, not an order to the violator that reads as a warning.
    let first_line = render::explanation(r, Lang::En)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string();
    assert!(
        first_line.contains("ruled against Red: Red had to change moves")
            && first_line.contains("before Red did; Black wins")
            && !first_line.contains("must change"),
        "{first_line}"
    );
}

#[test]
fn a_repetition_claim_is_checked() {
    // The engines called this a draw by repetition; under the WXF rules Red's perpetual check
    // loses. The record ends on the move that completes the third occurrence; a ruling that
    // checks decide needs no reply, so it is not provisional.
    let r = &judge("wukong/xboard/wukongjs_vs_maxqi_repetition.pgn", 3)[0];
    assert_eq!(
        outcome(r),
        ("black_wins".into(), "perpetual check", Some(98))
    );
    assert!(r.ruling().is_some_and(|x| !x.provisional));
    assert_eq!(r.ruling().and_then(|x| x.violator), Some(Color::Red));
    assert_eq!(r.agreement(), xq::referee::Agreement::Disagrees);
}

#[test]
fn moves_after_a_mate_are_a_remark() {
    let text =
        "[Event \"x\"]\n[Result \"1-0\"]\n[FEN \"3k5/3R5/4R4/9/9/9/9/9/9/3K5 b\"]\n1... d9e9 *\n";
    let config = Rules::arbiter(3);
    let r = &judge_bytes("mate.pgn", text.as_bytes(), config)[0];
    assert!(r.error().is_none(), "{:?}", r.error());
    assert_eq!(r.reason(), "checkmate");
    assert!(
        render::notes(r, Lang::En)[0].contains(
            "the game was already over at ply 0 (Black checkmated); the recorded move 1 (d9e9)"
        ),
        "{:?}",
        r.notes()
    );
}

#[test]
fn bad_moves_name_file_line_game_and_ply() {
    let text =
        "[Event \"a\"]\n1. h2e2 h9g7\n2. h0g2 i9i5\n\n[Event \"b\"]\n1. h2e2 h9g7\n2. h0h9 *\n";
    let config = Rules::arbiter(3);
    let reports = judge_bytes("bad.pgn", text.as_bytes(), config);
    assert_eq!(reports.len(), 2);
    let e = reports[0].error().unwrap().to_string();
    assert_eq!(
        e,
        "bad.pgn:3: game 1, ply 4: move \"i9i5\" (coordinates (ranks 0-9)) is not legal here"
    );
    let e = reports[1].error().unwrap().to_string();
    assert!(
        e.starts_with("bad.pgn:7: game 2, ply 3: move \"h0h9\""),
        "{e}"
    );
}

/// The 173 WXF cases as one PGN file with FEN tags, with each case's number and result.
fn wxf_cases_pgn() -> (String, Vec<(String, String)>) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/wxf_cases/cases.tsv");
    let tsv = std::fs::read_to_string(path).expect("wxf_cases/cases.tsv");
    let mut pgn = String::new();
    let mut expected = Vec::new();
    for line in tsv.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 5, "{line}");
        pgn.push_str(&format!(
            "[Event \"case {}\"]\n[FEN \"{}\"]\n\n{} *\n\n",
            cols[0], cols[2], cols[3]
        ));
        expected.push((cols[0].to_string(), cols[4].to_string()));
    }
    (pgn, expected)
}

/// The 173 WXF cases as one PGN file with FEN tags, judged as `xq referee --repetitions 2` does.
#[test]
fn wxf_cases_through_the_referee() {
    let (pgn, expected) = wxf_cases_pgn();
    assert_eq!(expected.len(), 173);
    // The suite's convention: the first ruling is the result (`--first-decision`).
    let config = Rules::first_decision(2);
    let reports = judge_bytes("cases.pgn", pgn.as_bytes(), config);
    assert_eq!(reports.len(), 173);
    let mut wrong = Vec::new();
    for (r, (id, result)) in reports.iter().zip(&expected) {
        assert!(r.error().is_none(), "case {id}: {:?}", r.error());
        if r.result().to_string() != *result {
            wrong.push(format!(
                "case {id}: got {} expected {result}: {}",
                r.result(),
                render::explanation(r, Lang::En)
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of 173 wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// Every WXF case's ruling in Chinese, in both scripts: the explanation, the headline, the notes,
/// the repetitions on the way and the rule cited, each there and without a word of English (moves
/// and squares in ICCS, FENs and the name WXF aside), the Traditional without a Simplified
/// character the map converts.
#[test]
fn wxf_rulings_in_chinese() {
    let (pgn, _) = wxf_cases_pgn();
    let reports = judge_bytes("cases.pgn", pgn.as_bytes(), Rules::first_decision(2));
    assert_eq!(reports.len(), 173);
    let mut ruled = 0;
    for (i, r) in reports.iter().enumerate() {
        for lang in [Lang::ZhHans, Lang::ZhHant] {
            let mut texts = vec![render::explanation(r, lang), render::headline(r, lang)];
            texts.extend(render::notes(r, lang));
            texts.extend(render::unprotected(r, lang));
            let events = r.judged().map_or(&[][..], |g| &g.events);
            let names = render::MoveNames::of_report(r, lang);
            texts.extend(events.iter().map(|e| render::event(e, &names, lang)));
            if let Some(case) = r.rule_cited() {
                texts.push(render::rule(case, lang));
                ruled += 1;
            }
            for text in texts {
                assert!(!text.trim().is_empty(), "case {}: an empty text", i + 1);
                let english = render::foreign_words(&text);
                assert!(english.is_empty(), "case {}: {english:?} in {text}", i + 1);
                assert!(text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)));
                if lang == Lang::ZhHant {
                    let left: String = text
                        .chars()
                        .filter(|&c| render::hant::is_simplified_only(c))
                        .collect();
                    assert!(left.is_empty(), "case {}: {left} in {text}", i + 1);
                }
            }
        }
    }
    assert!(ruled > 300, "{ruled} rule citations");
}

#[test]
fn pychess_style_ranks_one_to_ten() {
    // The same opening in SAN with ranks 1-10 (no rank 10 written, so both readings are tried),
    // in coordinates with ranks 1-10, and in xqbase's ICCS.
    let config = Rules::arbiter(3);
    let san = "[Variant \"Xiangqi\"]\n1. Che3 Hg8 2. Hg3 Ri9 *\n";
    let coordinates = "[Variant \"Xiangqi\"]\n1. h3e3 h10g8 2. h1g3 i10i9 *\n";
    let iccs = "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n1. H2-E2 H9-G7\n2. H0-G2 I9-I8\n*\n";
    let expected = ["h2e2", "h9g7", "h0g2", "i9i8"];
    for text in [san, coordinates, iccs] {
        let r = &judge_bytes("pychess.pgn", text.as_bytes(), config)[0];
        assert!(r.error().is_none(), "{:?}", r.error());
        let got: Vec<String> = r.moves().iter().map(Move::to_string).collect();
        assert_eq!(got, expected, "{text}");
    }
}

/// `xq referee` itself: exit status, JSON lines, the HTML report.
#[test]
fn command_line() {
    use std::process::Command;
    let xq = env!("CARGO_BIN_EXE_xq");
    let out = Command::new(xq)
        .args(["referee", GAMES])
        .output()
        .expect("xq runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("summary: 86 games"), "{text}");
    assert!(text.contains("files without games skipped"), "{text}");

    let html = std::env::temp_dir().join(format!("xq-referee-test-{}.html", std::process::id()));
    let path = format!("{GAMES}xqbase/ccgc_2006_5games.utf8.pgn");
    let out = Command::new(xq)
        .args(["referee", "--json", "--html"])
        .arg(&html)
        .arg(&path)
        .output()
        .expect("xq runs");
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 5);
    for key in [
        "file",
        "game",
        "result",
        "reason",
        "ply",
        "violator",
        "chased",
        "tag_result",
        "error",
    ] {
        assert!(lines.iter().all(|l| l.get(key).is_some()), "field {key}");
    }
    assert_eq!(lines[2]["result"], "black_wins");
    assert_eq!(lines[2]["reason"], "checkmate");
    assert_eq!(lines[2]["ply"], 116);
    assert_eq!(lines[2]["tag_result"], "0-1");
    let page = std::fs::read_to_string(&html).expect("the HTML report");
    let _ = std::fs::remove_file(&html);
    assert!(
        page.starts_with("<!DOCTYPE html>") && page.contains("<svg"),
        "HTML with boards"
    );
    assert_eq!(
        page.matches("<svg").count(),
        3,
        "a board for each of the three ruled games"
    );

    let bad = std::env::temp_dir().join(format!("xq-referee-bad-{}.pgn", std::process::id()));
    std::fs::write(&bad, "[Event \"x\"]\n1. h2e2 h9h2\n").expect("temp file");
    let out = Command::new(xq)
        .arg("referee")
        .arg(&bad)
        .output()
        .expect("xq runs");
    let _ = std::fs::remove_file(&bad);
    assert_eq!(out.status.code(), Some(1), "a game with an error");
    assert!(String::from_utf8_lossy(&out.stdout).contains("game 1, ply 2: move \"h9h2\""));

    let out = Command::new(xq)
        .args(["referee", "--repetitions", "1", GAMES])
        .output()
        .expect("xq runs");
    assert_eq!(out.status.code(), Some(2), "bad usage");
}

/// Ruled at its first decision with moves recorded after it, a perpetual check does not say the
/// record ends in the repetition, which the next line (the record goes on) would contradict.
#[test]
fn a_first_decision_before_the_end_says_the_record_goes_on() {
    use std::process::Command;
    // The text `xq referee --first-decision --repetitions 2` writes for Red's checks, given as
    // the move text after the start position.
    let judged = |moves: &str| {
        let record = std::env::temp_dir().join(format!("xq-first-{}.pgn", std::process::id()));
        std::fs::write(
            &record,
            format!("[Event \"x\"]\n[FEN \"c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w\"]\n{moves} *\n"),
        )
        .expect("temp file");
        let out = Command::new(env!("CARGO_BIN_EXE_xq"))
            .args(["referee", "--first-decision", "--repetitions", "2"])
            .arg(&record)
            .output()
            .expect("xq runs");
        let _ = std::fs::remove_file(&record);
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let text = judged("1. h8h9 f9f8 2. h9h8 f8f9 3. h8h9 f9f8 4. h9h8 f8f9 5. h8h9 f9f8");
    assert!(
        text.contains("perpetual check at ply 4, ruled against Red: Red had to change moves, and this first decision is taken as the result, with the record going on 6 plies after it; Black wins"),
        "{text}"
    );
    assert!(
        !text.contains("the record ends in the repetition"),
        "{text}"
    );
    // One ply past the ruling, in the singular.
    let text = judged("1. h8h9 f9f8 2. h9h8 f8f9 3. h8h9");
    assert!(
        text.contains("with the record going on 1 ply after it; Black wins"),
        "{text}"
    );
}

/// A directory with links back to itself and a FIFO among its game files: each game is judged
/// once and the FIFO is named, instead of a walk without end or a read that blocks.
#[cfg(unix)]
#[test]
fn directory_links_and_fifos_end() {
    let dir = std::env::temp_dir().join(format!("xq-referee-walk-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.pgn"), "1. h2e2 h9g7 1-0\n").unwrap();
    std::os::unix::fs::symlink(".", dir.join("l1")).unwrap();
    std::os::unix::fs::symlink(".", dir.join("l2")).unwrap();
    let fifo = std::process::Command::new("mkfifo")
        .arg(dir.join("x.pgn"))
        .status()
        .is_ok_and(|s| s.success());
    let (_, text) = referee_within(&[dir.to_str().unwrap()], None);
    assert!(text.contains("summary: 1 game,"), "{text}");
    if fifo {
        assert!(
            text.contains("x.pgn: error: cannot read: not a regular file"),
            "{text}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `xq referee ARGS`, feeding `stdin` when given (closed otherwise), and fails the test if
/// it runs past 20 s; its exit code and standard output.
fn referee_within(args: &[&str], stdin: Option<Vec<u8>>) -> (Option<i32>, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_xq"))
        .arg("referee")
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .spawn()
        .expect("xq runs");
    let feeder = stdin.map(|bytes| {
        let mut pipe = child.stdin.take().unwrap();
        // The referee may stop reading early: a broken pipe is expected then.
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        })
    });
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut text);
        text
    });
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > std::time::Duration::from_secs(20) {
            let _ = child.kill();
            panic!("the referee did not finish");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    if let Some(f) = feeder {
        let _ = f.join();
    }
    (status.code(), reader.join().unwrap())
}

#[test]
fn standard_input_is_read_a_game_at_a_time() {
    let games = "[Event \"A\"]\n1. h2e2 h9g7 1-0\n\n[Event \"B\"]\n1. h2e2 h9g7\n2. h0g2 zz 0-1\n";
    let (code, text) = referee_within(&["-"], Some(games.as_bytes().to_vec()));
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("- game 2 (line 4): B"), "{text}");
    assert!(
        text.contains("error: -:6: game 2, ply 4: move \"zz\""),
        "{text}"
    );
    // A stream with no game boundary for megabytes is cut off with an error, in bounded memory.
    let (code, text) = referee_within(&["-"], Some(b"y\n".repeat(5 << 20)));
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("MiB without the start of a new game"),
        "{text}"
    );
    let (code, text) = referee_within(&["-"], Some(b"hello\n".to_vec()));
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("-: error: no game record found"), "{text}");
}

/// Standard input is cut into games by the rule the PGN reader reads tags by, so a record piped
/// in reads as the same file read whole: a bracketed line in a comment or a DhtmlXQ field on a
/// line of its own is no game start, and a comment left open names the tag that ends it.
#[test]
fn standard_input_reads_as_the_file_read_whole() {
    let dir = std::env::temp_dir().join(format!("xq-referee-stream-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let texts = [
        "[Event \"A\"]\n1. h2e2 h9g7 {a comment\n[note this]\n} 2. h0g2 1-0\n\n\
         [Event \"B\"]\n1. h2e2 h9g7 1-0\n",
        "[Event \"A\"]\n1. h2e2 h9g7 1-0\n[Event \"B\"]\n1. h2e2 h9g7 {unclosed\n\n\
         [Event \"C\"]\n1. h2e2 h9g7 1-0\n",
        "[DhtmlXQ]\n[DhtmlXQ_title]T1[/DhtmlXQ_title]\n[DhtmlXQ_movelist]77477242[/DhtmlXQ_movelist]\n\
         [DhtmlXQ_comment1]first line\nsecond line\n[/DhtmlXQ_comment1]\n\
         [DhtmlXQ_comment2]other[/DhtmlXQ_comment2]\n[DhtmlXQ_result]1-0[/DhtmlXQ_result]\n\
         [/DhtmlXQ]\n[DhtmlXQ]\n[DhtmlXQ_title]T2[/DhtmlXQ_title]\n\
         [DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n",
        "[Event \"A\"]\n{a remark}\n[Site \"S\"]\n1. h2e2 h9g7 *\n\u{FEFF}[Event \"B\"]\n1. h2e2 1-0\n",
    ];
    // The reports without the summary's timing.
    let reports = |text: &str| -> String {
        text.lines()
            .map(|line| line.split(" plies in ").next().unwrap_or(line))
            .collect::<Vec<_>>()
            .join("\n")
    };
    for (i, text) in texts.iter().enumerate() {
        let path = dir.join(format!("{i}.pgn"));
        std::fs::write(&path, text).unwrap();
        let name = path.display().to_string();
        let (file_code, whole) = referee_within(&[&name], None);
        let (code, piped) = referee_within(&["-"], Some(text.as_bytes().to_vec()));
        assert_eq!(code, file_code, "{piped}");
        assert_eq!(
            reports(&piped.replace("- game", "game")),
            reports(
                &whole
                    .replace(&format!("{name} game"), "game")
                    .replace(&name, "-")
            ),
            "text {i}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn broken_text_is_an_error_at_its_line_and_markers_in_comments_stay_comments() {
    let dir = std::env::temp_dir().join(format!("xq-referee-broken-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let marker = dir.join("m.pgn");
    std::fs::write(&marker, "[Event \"A\"]\n1. h2e2 {see [DhtmlXQ]} h9g7 1-0\n").unwrap();
    let (code, text) = referee_within(&[marker.to_str().unwrap()], None);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("summary: 1 game,"), "{text}");
    let broken = dir.join("b.pgn");
    std::fs::write(
        &broken,
        "[Event \"A\n1. h2e2 h9g7 1-0\n\n[Event \"B\"]\n1. h2e2 {never closed\nh9g7 1-0\n",
    )
    .unwrap();
    let (code, text) = referee_within(&[broken.to_str().unwrap()], None);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("b.pgn:1: game 1, ply 3: tag not closed"),
        "{text}"
    );
    assert!(
        text.contains("b.pgn:5: game 2, ply 2: comment `{` opened at line 5"),
        "{text}"
    );
    // A subdirectory that cannot be read is an error, not skipped (when permissions apply).
    let locked = dir.join("locked");
    std::fs::create_dir_all(&locked).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::read_dir(&locked).is_err() {
        let (code, text) = referee_within(&[dir.to_str().unwrap()], None);
        assert_eq!(code, Some(1), "{text}");
        assert!(text.contains("cannot read directory"), "{text}");
    }
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// More worker threads than cores are not started (they only cost memory): under an
/// address-space limit the referee still judges with `--threads 2000`.
#[test]
fn many_threads_under_a_memory_limit() {
    let path = format!("{GAMES}xqbase/ccgc_2006_5games.utf8.pgn");
    let script = format!(
        "ulimit -v 300000 && exec {} referee --threads 2000 {path}",
        env!("CARGO_BIN_EXE_xq")
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &script])
        .output()
        .expect("sh runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("summary: 5 games"), "{text}");
}

/// Random directory trees with links back up and across (to directories, to files, dangling),
/// FIFOs, device links and game files: the walk ends, names what it cannot read, and judges each
/// game file once however many directory links lead to it.
#[cfg(unix)]
#[test]
fn random_trees_with_links_fifos_and_devices_end() {
    let root = std::env::temp_dir().join(format!("xq-referee-trees-{}", std::process::id()));
    let mut seed = 0x7EE5_u64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for round in 0..12 {
        let _ = std::fs::remove_dir_all(&root);
        let mut dirs = vec![root.clone()];
        for d in 0..4 {
            let parent = dirs[next(dirs.len())].clone();
            let dir = parent.join(format!("d{d}"));
            std::fs::create_dir_all(&dir).unwrap();
            dirs.push(dir);
        }
        let mut games = 0;
        for (i, dir) in dirs.clone().iter().enumerate() {
            if next(2) == 0 {
                std::fs::write(dir.join(format!("g{i}.pgn")), "1. h2e2 h9g7 1-0\n").unwrap();
                games += 1;
            }
            let target = dirs[next(dirs.len())].clone();
            let link = dir.join(format!("l{i}"));
            match next(4) {
                0 => std::os::unix::fs::symlink(&target, &link).unwrap(),
                // Up a level, but never out of the tree.
                1 if i > 0 => std::os::unix::fs::symlink("..", &link).unwrap(),
                1 => std::os::unix::fs::symlink(".", &link).unwrap(),
                2 => {
                    std::os::unix::fs::symlink("/dev/zero", dir.join(format!("z{i}.pgn"))).unwrap()
                }
                _ => std::os::unix::fs::symlink("missing", dir.join(format!("m{i}.pgn"))).unwrap(),
            }
            if next(3) == 0 {
                let _ = std::process::Command::new("mkfifo")
                    .arg(dir.join(format!("f{i}.pgn")))
                    .status();
            }
        }
        let (_, text) = referee_within(&[root.to_str().unwrap()], None);
        let summary = text.lines().last().unwrap_or_default();
        let judged: usize = summary
            .strip_prefix("summary: ")
            .and_then(|s| s.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("round {round}: {text}"));
        assert_eq!(judged, games, "round {round}: {summary}");
        for line in text.lines().filter(|l| l.contains(": error:")) {
            assert!(
                line.contains("not a regular file") || line.contains("No such file"),
                "round {round}: {line}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// A fresh empty directory under the system's temporary one.
fn fresh_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("xq-referee-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// However the game file is named (another spelling of its path, a hard link to it, or found
/// inside a directory given), the HTML report is refused before anything is written.
#[cfg(unix)]
#[test]
fn the_html_report_never_writes_over_a_game_file_by_another_name() {
    let dir = fresh_dir("html-link");
    let game = dir.join("g.pgn");
    let text = "[Event \"A\"]\n1. h2e2 h9g7 1-0\n";
    std::fs::write(&game, text).unwrap();
    std::fs::hard_link(&game, dir.join("h.pgn")).unwrap();
    for (html, input) in [
        (dir.join(".").join("g.pgn"), game.clone()),
        (dir.join("h.pgn"), game.clone()),
        (game.clone(), dir.clone()),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_xq"))
            .arg("referee")
            .arg("--html")
            .arg(&html)
            .arg(&input)
            .output()
            .expect("xq runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("would write over"), "{stderr}");
        assert_eq!(std::fs::read_to_string(&game).unwrap(), text);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A tree thousands of folders deep is walked in time in proportion to its size: the game at the
/// bottom is found well within the time limit.
#[test]
fn a_deep_tree_is_walked_to_the_bottom() {
    let dir = fresh_dir("deep");
    let mut bottom = dir.clone();
    for _ in 0..2000 {
        bottom.push("d");
    }
    std::fs::create_dir_all(&bottom).unwrap();
    std::fs::write(bottom.join("g.pgn"), "1. h2e2 h9g7 1-0\n").unwrap();
    let found = xq::record::files::directory_files(&dir);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].0.ends_with("d/g.pgn") && found[0].1.is_none());
    let (code, text) = referee_within(&[dir.to_str().unwrap()], None);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("summary: 1 game,"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Files without games found in a directory are named in the summary, a few of them; the HTML
/// report written into the directory judged is not read as a game file when the run is repeated.
#[test]
fn skipped_files_are_named_and_a_run_can_be_repeated() {
    let dir = fresh_dir("rerun");
    std::fs::write(dir.join("g.pgn"), "[Event \"A\"]\n1. h2e2 h9g7 1-0\n").unwrap();
    for i in 1..=5 {
        std::fs::write(dir.join(format!("notes{i}.txt")), "no game here\n").unwrap();
    }
    let report = dir.join("report.html");
    let run = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_xq"))
            .arg("referee")
            .arg("--html")
            .arg(&report)
            .arg(&dir)
            .output()
            .expect("xq runs")
    };
    for _ in 0..2 {
        let out = run();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
        assert!(stdout.contains("summary: 1 game,"), "{stdout}");
        assert!(!stdout.contains("report.html"), "{stdout}");
        let named = format!(
            "5 files without games skipped ({}, {}, {} and 2 more)",
            dir.join("notes1.txt").display(),
            dir.join("notes2.txt").display(),
            dir.join("notes3.txt").display()
        );
        assert!(stdout.contains(&named), "{stdout}");
        assert!(std::fs::read_to_string(&report).unwrap().contains("g.pgn"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Control characters in what a record says (tags, move text) are shown escaped in the text
/// report, never sent raw to the terminal.
#[test]
fn control_characters_from_records_are_escaped_in_text() {
    let text = "[Event \"E\u{1b}[2Jvil\"]\n[Red \"R\u{0}ed\"]\n[Black \"B\u{7}\"]\n[Result \"1-0\u{1b}\"]\n1. h2e2 h9g7 1-0\n";
    let reports = judge_bytes("ctl.pgn", text.as_bytes(), Rules::default());
    let shown = xq::referee::text::report_text(&reports[0]);
    assert!(
        !shown.chars().any(|c| c.is_control() && c != '\n'),
        "{shown:?}"
    );
    assert!(shown.contains("E\\x1b[2Jvil"), "{shown}");
    assert!(shown.contains("R\\x00ed - B\\x07"), "{shown}");
    // An error quoting the input.
    let bad = "[Event \"A\"]\n1. h2e2 h9\u{1b}g7 1-0\n";
    let reports = judge_bytes("bad.pgn", bad.as_bytes(), Rules::default());
    let shown = xq::referee::text::report_text(&reports[0]);
    assert!(
        !shown.chars().any(|c| c.is_control() && c != '\n'),
        "{shown:?}"
    );
    let (_, out) = referee_within(&["-"], Some(text.as_bytes().to_vec()));
    assert!(!out.chars().any(|c| c.is_control() && c != '\n'), "{out:?}");
}

/// A cycle names the plies of its side's own moves, and long lists of plies and moves are cut
/// short with their count, so a record of thousands of repeated moves stays readable.
#[test]
fn a_cycle_names_its_sides_moves_and_long_lists_are_cut_short() {
    let start = "[FEN \"3k5/9/9/p8/9/9/9/9/9/4K2R1 w - - 0 1\"]\n";
    let cycle = "h0h9 d9d8 h9h8 d8d9 h8h9 d9d8 h9h8 d8d9 h8h9 d9d8 ";
    let ends = format!("{start}{cycle}0-1\n");
    let r = &judge_bytes("ends.pgn", ends.as_bytes(), Rules::default())[0];
    let text = render::explanation(r, Lang::En);
    assert!(!text.contains("over plies"), "{text}");
    assert!(
        text.contains("Red: perpetual check with Red's moves at plies 3-9: h9h8, h8h9"),
        "{text}"
    );
    assert!(
        text.contains("Black: idle with Black's moves at plies 4-10: d8d9"),
        "{text}"
    );
    // 10,000 plies of horses going out and back.
    let moves = "h0g2 h9g7 g2h0 g7h9 ".repeat(2500);
    let long = format!("{moves}1/2-1/2\n");
    let config = Rules {
        move_limit: None,
        ..Rules::default()
    };
    let r = &judge_bytes("long.pgn", long.as_bytes(), config)[0];
    let text = render::explanation(r, Lang::En);
    assert!(
        text.lines().all(|line| line.len() < 400),
        "{}",
        &text[..text.len().min(2000)]
    );
    assert!(text.contains("…"), "{text}");
    assert!(text.contains("in all)"), "{text}");
}

#[test]
fn a_game_played_here_is_the_record_its_pgn_reads_as() {
    // The Python `Game` and the server report on games held as start and moves, without writing
    // them out and reading them back: the record made from the game must be the one read.
    let lines = [
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "",
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7",
        ),
        (
            "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w - - 0 1",
            "h8h9 f9f8 h9h8 f8f9 h8h9",
        ),
    ];
    for (fen, moves) in lines {
        let start = xq::fen::parse(fen).expect("a FEN");
        let moves: Vec<Move> = moves
            .split_whitespace()
            .map(|m| m.parse().expect("a move"))
            .collect();
        let game = xq::game::Game::replay(start, &moves).expect("legal moves");
        let text = format!(
            "[FEN \"{fen}\"]\n\n{} *\n",
            moves
                .iter()
                .map(Move::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        );
        let file = record::read_file("game", text.as_bytes()).expect("a record");
        let read = record::resolve("game", file.encoding, &file.games[0]).expect("resolved");
        assert_eq!(
            format!("{:?}", GameRecord::of_game(&game)),
            format!("{read:?}"),
            "{text}"
        );
    }
}

/// `xq referee --lang`: the WXF cases ruled in Chinese, as text and as JSON whose machine fields
/// stay as they are; an unknown language is bad usage.
#[test]
fn command_line_in_chinese() {
    use std::process::Command;
    let xq = env!("CARGO_BIN_EXE_xq");
    let path = std::env::temp_dir().join(format!("xq-referee-zh-{}.pgn", std::process::id()));
    std::fs::write(&path, wxf_cases_pgn().0).expect("the cases written");
    let referee = |more: &[&str]| {
        Command::new(xq)
            .args(["referee", "--repetitions", "2", "--first-decision"])
            .args(more)
            .arg(&path)
            .output()
            .expect("xq runs")
    };
    let out = referee(&["--lang", "zh-Hans"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    for words in [
        "长捉，判红方负：红方必须变着",
        "以这第一次判决为结果（棋谱此后还有1步）；黑方胜",
        "WXF 规则第15条和第19条",
        "总计：173局",
    ] {
        assert!(text.contains(words), "{words} in {text}");
    }
    let out = referee(&["--lang", "zh-Hant", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 173);
    let case = &lines[29];
    assert_eq!(case["result"], "black_wins");
    assert_eq!(case["reason"], "perpetual chase");
    assert_eq!(case["violator"], "red");
    let explanation = case["explanation"].as_str().expect("an explanation");
    assert!(
        explanation.contains("長捉，判紅方負：紅方必須變著"),
        "{explanation}"
    );
    assert!(
        case["rule"]
            .as_str()
            .expect("a rule")
            .contains("不得長捉車")
    );
    let out = referee(&["--lang", "fr"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("en, zh-Hans, zh-Hant"));
    let _ = std::fs::remove_file(&path);
}
