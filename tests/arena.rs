//! `xq match` against scripted fake engines (the hidden `xq match --fake-engine` mode): perpetual
//! check scored as a loss, crashes, hangs, time forfeits, illegal and unreadable moves, clock units
//! per protocol, and a small concurrent match through the command line with its PGN.

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use xq::arena::game::{EndKind, GameRules, Limit, Outcome, match_rules};
use xq::arena::spec::EngineSpec;
use xq::arena::stats::Points;
use xq::arena::{MatchConfig, MatchGame, MatchSummary, openings, run_match};
use xq::position::Position;
use xq::square::Color;

const XQ: &str = env!("CARGO_BIN_EXE_xq");

/// Diagram 1 of the WXF rules: Red's rook can check forever from h9 and h8.
const PERPETUAL_FEN: &str = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w";

fn fake(name: &str, settings: &str, extra: &str) -> EngineSpec {
    format!("{name}={XQ} match --fake-engine {settings}{extra}")
        .parse()
        .expect("a valid engine spec")
}

/// An in-memory traffic log.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Shared {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

/// How long an engine may take to start and answer `isready`: long enough for a machine under
/// heavy load (a test that needs it to fire sets its own).
const READY_TIMEOUT: Duration = Duration::from_secs(5);

fn rules(limit: Limit) -> GameRules {
    GameRules {
        limit,
        margin: Duration::from_millis(50),
        move_timeout: Duration::from_secs(5),
        referee: match_rules(60, 300),
        resign: None,
        draw: None,
    }
}

fn setup(
    engines: [EngineSpec; 2],
    games: u32,
    limit: Limit,
    openings_text: &str,
) -> (MatchConfig, Shared) {
    let log = Shared::default();
    let config = MatchConfig {
        engines,
        games,
        rules: rules(limit),
        openings: if openings_text.is_empty() {
            Vec::new()
        } else {
            openings::parse(openings_text, "test").expect("valid openings")
        },
        concurrency: 1,
        seed: None,
        sprt: None,
        ready_timeout: READY_TIMEOUT,
        log: Some(xq::arena::wire::TrafficLog::new(Box::new(log.clone()))),
        finished: Vec::new(),
    };
    (config, log)
}

fn play(config: &MatchConfig) -> (Vec<MatchGame>, MatchSummary) {
    let mut reports = Vec::new();
    let summary = run_match(config, |r, _| reports.push(r.clone())).expect("the match runs");
    reports.sort_by_key(|r| r.number);
    (reports, summary)
}

#[test]
fn perpetual_check_loses_over_ucci_with_banmoves() {
    let (config, log) = setup(
        [
            fake("checker", "script=h8h9/h9h8", ",proto=ucci"),
            fake("king", "script=f9f8/f8f9", ",proto=ucci"),
        ],
        1,
        Limit::Nodes(1),
        PERPETUAL_FEN,
    );
    let (reports, summary) = play(&config);
    let game = &reports[0].record;
    assert_eq!(game.outcome, Outcome::Win(Color::Black), "{game:?}");
    assert_eq!(
        game.end,
        EndKind::Referee("perpetual check"),
        "{}",
        game.detail
    );
    assert_eq!(
        game.moves.len(),
        8,
        "the king's step back after the fourth check brings the third occurrence, and every Red \
         move between the occurrences checked"
    );
    assert_eq!(reports[0].points, Points::Loss);
    assert_eq!((summary.tally.wins, summary.tally.losses), (0, 1));
    // The arbiter warned the checker: its fourth check, after which the king's step back
    // completes the perpetual, was banned.
    let traffic = log.text();
    assert!(traffic.contains("> banmoves h9h8"), "{traffic}");
    // UCCI positions start after the last capture: here the opening FEN itself.
    assert!(
        traffic.contains(
            "> position fen c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w - - 0 1 moves h8h9 f9f8"
        )
    );
}

#[test]
fn a_check_that_lets_the_opponent_complete_the_perpetual_is_banned() {
    // Red has just checked from h9. Black's king steps come first in each cycle, so Red's fourth
    // check (ply 8) brings the third occurrence of a Black-to-move position, with every Red move
    // between its occurrences a check: that check completes the perpetual and is banned.
    let (config, log) = setup(
        [
            fake("checker", "script=h9h8/h8h9", ",proto=ucci"),
            fake("king", "script=f9f8/f8f9", ",proto=ucci"),
        ],
        1,
        Limit::Nodes(1),
        "c2a1k1R1/2c1a4/b6P1/8p/9/9/9/9/4K4/9 b",
    );
    let (reports, _) = play(&config);
    let game = &reports[0].record;
    assert_eq!(
        game.end,
        EndKind::Referee("perpetual check"),
        "{}",
        game.detail
    );
    assert_eq!(game.outcome, Outcome::Win(Color::Black));
    assert_eq!(game.moves.len(), 8);
    let traffic = log.text();
    assert!(traffic.contains("> banmoves h8h9"), "{traffic}");
    assert_eq!(traffic.matches("> banmoves").count(), 1, "{traffic}");
}

#[test]
fn perpetual_check_loses_over_uci_with_one_to_ten_ranks() {
    let (config, log) = setup(
        [
            fake("king", "script=f10f9/f9f10:ranks=10", ",proto=uci1"),
            fake("checker", "script=h8h9/h9h8", ",proto=uci"),
        ],
        2,
        Limit::Nodes(1),
        PERPETUAL_FEN,
    );
    let (reports, _) = play(&config);
    // Game 2 has the checker as Red (game 1 has the scripts on the wrong sides and ends at once).
    let game = &reports[1].record;
    assert!(!reports[1].first_is_red);
    assert_eq!(
        game.end,
        EndKind::Referee("perpetual check"),
        "{}",
        game.detail
    );
    assert_eq!(game.outcome, Outcome::Win(Color::Black));
    assert_eq!(reports[1].points, Points::Win);
    let traffic = log.text();
    assert!(
        traffic.contains("moves h9h10 f10f9 h10h9"),
        "1-10 ranks for the uci1 engine: {traffic}"
    );
    assert!(
        traffic.contains("moves h8h9 f9f8 h9h8"),
        "0-9 ranks for the uci engine: {traffic}"
    );
    assert!(!traffic.contains("banmoves"));
}

#[test]
fn crash_loses_and_the_engine_is_restarted() {
    let (config, _) = setup(
        [
            fake("crasher", "first:crash=2", ""),
            fake("steady", "random", ",proto=uci"),
        ],
        3,
        Limit::Nodes(1),
        "",
    );
    let (reports, summary) = play(&config);
    assert_eq!(reports.len(), 3);
    for r in &reports {
        assert_eq!(r.record.end, EndKind::Crash, "{}", r.record.detail);
        assert_eq!(r.points, Points::Loss);
        assert!(r.record.detail.contains("crasher"), "{}", r.record.detail);
        // Each game got two moves out of the restarted crasher before it crashed again.
        assert_eq!(r.record.moves.len(), 4 + usize::from(!r.first_is_red));
    }
    assert_eq!(summary.tally.losses, 3);
    assert!(summary.stopped.is_none());
}

#[test]
fn an_output_flood_loses_and_the_log_stays_bounded() {
    let (mut config, log) = setup(
        [
            fake("flooder", "first:flood=1", ""),
            fake("steady", "random", ",proto=uci"),
        ],
        2,
        Limit::Nodes(1),
        "",
    );
    config.log = Some(xq::arena::wire::TrafficLog::with_limit(
        Box::new(log.clone()),
        1 << 20,
    ));
    // The flood is told by the lines and bytes read, however long reading them takes (minutes on
    // a loaded machine would do): no move timeout may end the game first.
    config.rules.move_timeout = Duration::from_secs(600);
    let (reports, summary) = play(&config);
    assert_eq!(reports.len(), 2);
    for r in &reports {
        assert_eq!(r.record.end, EndKind::OutputFlood, "{}", r.record.detail);
        assert_eq!(r.points, Points::Loss);
        assert!(
            r.record.detail.contains("flooded its output"),
            "{}",
            r.record.detail
        );
    }
    assert_eq!(summary.tally.losses, 2);
    let traffic = log.text();
    assert!(traffic.len() < (1 << 20) + 200, "{} bytes", traffic.len());
    assert!(traffic.ends_with("log cut: it reached its limit of 1048576 bytes\n"));
}

#[test]
fn hang_loses_on_time_and_by_timeout() {
    // With a clock: a time forfeit as soon as the clock and margin run out. The steady engine has
    // a clock of its own, long enough for a loaded machine, and the move timeout is longer than
    // the test may take: only the sleeper's clock can end the game.
    let (mut config, _) = setup(
        [
            fake("sleeper", "first:hang=1", ""),
            fake("steady", "random", ",tc=600"),
        ],
        2,
        Limit::Clock {
            base: Duration::from_secs(1),
            increment: Duration::ZERO,
        },
        "",
    );
    config.rules.move_timeout = Duration::from_secs(600);
    let (reports, _) = play(&config);
    for r in &reports {
        assert_eq!(r.record.end, EndKind::TimeForfeit, "{}", r.record.detail);
        assert_eq!(r.points, Points::Loss);
        // The wait ended with the sleeper's clock (what its first move left of 1 s) and margin.
        let waited: f64 = r
            .record
            .detail
            .split("no move within ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no wait in {:?}", r.record.detail));
        assert!(waited <= 1.05, "{}", r.record.detail);
    }

    // With a node limit: the move timeout.
    let (mut config, _) = setup(
        [
            fake("steady", "random", ",proto=uci"),
            fake("sleeper", "first:hang=0", ",proto=uci"),
        ],
        1,
        Limit::Nodes(100),
        "",
    );
    // Long enough for the steady engine's first move on a loaded machine.
    config.rules.move_timeout = Duration::from_secs(3);
    let (reports, _) = play(&config);
    assert_eq!(
        reports[0].record.end,
        EndKind::Hang,
        "{}",
        reports[0].record.detail
    );
    assert_eq!(reports[0].points, Points::Win);
    assert_eq!(reports[0].record.moves.len(), 1);
}

#[test]
fn slow_engine_loses_on_time_even_when_it_answers() {
    // The steady engine has a clock of its own, long enough for a loaded machine.
    let (mut config, _) = setup(
        [
            fake("slow", "first:slow=800", ""),
            fake("steady", "random", ",tc=600"),
        ],
        1,
        Limit::Clock {
            base: Duration::from_secs(2),
            increment: Duration::ZERO,
        },
        "",
    );
    config.rules.margin = Duration::from_millis(20);
    let (reports, _) = play(&config);
    let game = &reports[0].record;
    assert_eq!(game.end, EndKind::TimeForfeit, "{}", game.detail);
    assert_eq!(game.outcome, Outcome::Win(Color::Black));
    // 2 s buys two moves of 0.8 s (with 0.4 s to spare for a loaded machine); the third cannot
    // be made in time however fast the machine is.
    assert_eq!(game.moves.len(), 4, "{}", game.detail);
}

#[test]
fn illegal_unreadable_and_missing_moves_lose() {
    for (fault, end, text) in [
        ("illegal=3", EndKind::IllegalMove, "illegal move"),
        ("garbage=0", EndKind::IllegalMove, "unreadable move"),
        ("none=1", EndKind::Resignation, "gave no move"),
        // The record keeps the resigning engine's own last score and depth.
        ("resign=2", EndKind::Resignation, "resigned at ply"),
        ("resign=2", EndKind::Resignation, ", scoring it +0.00/1"),
    ] {
        let (config, _) = setup(
            [
                fake("bad", &format!("first:{fault}"), ""),
                fake("steady", "random", ",proto=uci"),
            ],
            2,
            Limit::Nodes(1),
            "",
        );
        let (reports, _) = play(&config);
        for r in &reports {
            assert_eq!(r.record.end, end, "{fault}: {}", r.record.detail);
            assert!(
                r.record.detail.contains(text),
                "{fault}: {}",
                r.record.detail
            );
            assert_eq!(r.points, Points::Loss, "{fault}");
        }
    }
}

#[test]
fn clock_units_follow_the_protocol() {
    let clock = Limit::Clock {
        base: Duration::from_secs(3),
        increment: Duration::from_millis(1500),
    };
    let cases = [
        (
            "first",
            ",proto=ucci",
            "go time 3 increment 1 opptime 3 oppincrement 1",
        ),
        (
            "first:millis",
            ",proto=ucci",
            "go time 3000 increment 1500 opptime 3000 oppincrement 1500",
        ),
        (
            "first",
            ",proto=ucci,units=ms",
            "go time 3000 increment 1500 opptime 3000 oppincrement 1500",
        ),
        (
            "first",
            ",proto=uci",
            "go wtime 3000 btime 3000 winc 1500 binc 1500",
        ),
    ];
    for (settings, extra, expected) in cases {
        let (mut config, log) = setup(
            [fake("a", settings, extra), fake("b", "first", extra)],
            1,
            clock,
            "h2e2 h9g7",
        );
        config.rules.referee.ply_limit = Some(4);
        let (reports, _) = play(&config);
        assert_eq!(
            reports[0].record.end,
            EndKind::MoveLimit,
            "{}",
            reports[0].record.detail
        );
        let traffic = log.text();
        assert!(
            traffic.contains(&format!("> {expected}\n")),
            "{settings}{extra}: {traffic}"
        );
        if settings.contains("millis") {
            assert!(traffic.contains("> setoption usemillisec true"));
        }
    }
}

/// Time odds: an engine's own `tc=` clock is sent, counted and written, in both protocols and
/// with either colour.
#[test]
fn an_engine_with_its_own_clock_plays_time_odds() {
    let clock = Limit::Clock {
        base: Duration::from_secs(3),
        increment: Duration::from_millis(100),
    };
    for (extra, red_first, black_first) in [
        (
            ",proto=uci",
            "go wtime 3000 btime 12000 winc 100 binc 400",
            "go wtime 12000 btime 3000 winc 400 binc 100",
        ),
        (
            ",proto=ucci,units=ms",
            "go time 3000 increment 100 opptime 12000 oppincrement 400",
            "go time 12000 increment 400 opptime 3000 oppincrement 100",
        ),
    ] {
        let (mut config, log) = setup(
            [
                fake("quick", "first", extra),
                fake("slow", "first", &format!("{extra},tc=12+0.4")),
            ],
            2,
            clock,
            "h2e2 h9g7",
        );
        config.rules.referee.ply_limit = Some(4);
        let (reports, _) = play(&config);
        let traffic = log.text();
        // Game 1: "quick" has Red, and Red is to move after the two book moves.
        assert!(
            traffic.contains(&format!("> {red_first}\n")),
            "{extra}: {traffic}"
        );
        // Game 2: colours swapped, "slow" has Red.
        assert!(
            traffic.contains(&format!("> {black_first}\n")),
            "{extra}: {traffic}"
        );
        let clocks: Vec<_> = reports.iter().map(|r| r.record.clocks).collect();
        let quick = (Duration::from_secs(3), Duration::from_millis(100));
        let slow = (Duration::from_secs(12), Duration::from_millis(400));
        assert_eq!(clocks, vec![Some([quick, slow]), Some([slow, quick])]);
        let tags = xq::arena::pgn::game_text(
            &reports[0].record,
            1,
            &xq::arena::pgn::MatchTags {
                event: "odds".into(),
                date: "2026.11.25".into(),
                time_control: Some("3+0.1".into()),
            },
        );
        assert!(tags.contains("[RedTimeControl \"3+0.1\"]"), "{tags}");
        assert!(tags.contains("[BlackTimeControl \"12+0.4\"]"), "{tags}");
    }
    // A clock of its own needs a match on the clock.
    let out = std::process::Command::new(XQ)
        .args([
            "match",
            "--nodes",
            "100",
            "--engine",
            "a=x",
            "--engine",
            "b=y,tc=5+0.1",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("tc= gives it a clock"));
}

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("xq-arena-{}-{name}", std::process::id()))
}

#[test]
fn command_line_match_writes_pgn() {
    let book = temp_path("book.txt");
    std::fs::write(&book, "# two openings\nh2e2 h9g7\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b\n")
        .unwrap();
    let pgn = temp_path("games.pgn");
    let out = Command::new(XQ)
        .args([
            "match",
            "--games",
            "4",
            "--concurrency",
            "2",
            "--nodes",
            "1",
            "--seed",
            "3",
        ])
        .arg("--engine")
        .arg(format!("one={XQ} match --fake-engine random,proto=ucci"))
        .arg("--engine")
        .arg(format!("two={XQ} match --fake-engine first,proto=uci"))
        .arg("--openings")
        .arg(&book)
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("Elo difference:"), "{stdout}");
    let last = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with("Score of one vs two:"))
        .unwrap();
    assert!(last.ends_with(" 4"), "{last}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Result ").count(), 4, "{text}");
    assert_eq!(text.matches("[Format \"ICCS\"]").count(), 4);
    // The second opening is a FEN with Black to move; its games say so.
    assert_eq!(
        text.matches(
            "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1\"]"
        )
        .count(),
        2
    );
    assert_eq!(text.matches("1. H2-E2 H9-G7 {book}").count(), 2, "{text}");
    // Each engine move carries its score, depth and time: `2. H0-G2 {+0.00/1 0.003s}`.
    for after_book in text.split("{book} ").skip(1) {
        let tokens: Vec<&str> = after_book.split_whitespace().take(4).collect();
        assert_eq!(tokens[0], "2.", "{after_book}");
        assert_eq!(tokens[2], "{+0.00/1", "{after_book}");
        let time = tokens[3].strip_suffix("s}").expect(after_book);
        assert!(time.parse::<f64>().is_ok_and(|t| t >= 0.0), "{after_book}");
    }
    assert_eq!(check_pgn(&pgn), 4);
    let _ = std::fs::remove_file(&book);
    let _ = std::fs::remove_file(&pgn);

    // A command that cannot start fails the match at once.
    let out = Command::new(XQ)
        .args(["match", "--engine", "a=/nonexistent/engine", "--engine"])
        .arg(format!("b={XQ} match --fake-engine first"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("could not start"));
}

/// Runs `xq match` with two scripted engines (the second with a clock of its own) and `extra`
/// arguments: exit status, standard output, standard error.
fn resumable_match(
    book: &std::path::Path,
    pgn: &std::path::Path,
    extra: &[&str],
) -> (i32, String, String) {
    let out = Command::new(XQ)
        .args(["match", "--concurrency", "2"])
        .arg("--engine")
        .arg(format!("one={XQ} match --fake-engine random,proto=ucci"))
        .arg("--engine")
        .arg(format!(
            "two={XQ} match --fake-engine first,proto=uci,tc=40+0.4"
        ))
        .arg("--openings")
        .arg(book)
        .arg("--pgn")
        .arg(pgn)
        .args(extra)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The last running score line and the endings line of a match's output.
fn final_lines(stdout: &str) -> (String, String) {
    let last = |prefix: &str| {
        stdout
            .lines()
            .rev()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} in {stdout}"))
            .to_string()
    };
    (last("Score of one vs two:"), last("Endings:"))
}

#[test]
fn a_stopped_match_resumes_from_its_pgn() {
    let book = temp_path("resume-book.txt");
    std::fs::write(&book, "h2e2 h9g7\nb2d2 b9c7\nh2e2 h7e7\nc3c4\n").unwrap();
    let pgn = temp_path("resume.pgn");
    // Clocks that the fake engines' instant moves never run out of, on a loaded machine too: the
    // games are the same in every run.
    let base = ["--games", "6", "--seed", "5", "--tc", "20+0.2"];
    let (code, whole, err) = resumable_match(&book, &pgn, &base);
    assert_eq!(code, 0, "{whole}\n{err}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Result ").count(), 6, "{text}");

    // Stopped after three games (the second pair broken), resumed with the same command.
    let starts: Vec<usize> = text.match_indices("[Event ").map(|(i, _)| i).collect();
    let first_three = text[..starts[3]].to_string();
    assert_eq!(first_three.matches("[Result ").count(), 3, "{text}");
    std::fs::write(&pgn, &first_three).unwrap();
    let resume: Vec<&str> = base.iter().copied().chain(["--resume"]).collect();
    let (code, resumed, err) = resumable_match(&book, &pgn, &resume);
    assert_eq!(code, 0, "{resumed}\n{err}");
    assert!(
        resumed.contains("3 of its 6 games already played"),
        "{resumed}"
    );
    assert_eq!(resumed.matches("\nGame ").count(), 3, "{resumed}");
    // The scripted engines play each game as before, so the totals are the whole match's.
    assert_eq!(final_lines(&resumed), final_lines(&whole));
    let after = std::fs::read_to_string(&pgn).unwrap();
    assert!(after.starts_with(&first_three));
    let mut rounds: Vec<u32> = after
        .lines()
        .filter_map(|l| {
            l.strip_prefix("[Round \"")?
                .strip_suffix("\"]")?
                .parse()
                .ok()
        })
        .collect();
    rounds.sort();
    assert_eq!(rounds, [1, 2, 3, 4, 5, 6]);
    assert_eq!(check_pgn(&pgn), 6);

    // A finished match resumed plays nothing more.
    let (code, again, err) = resumable_match(&book, &pgn, &resume);
    assert_eq!(code, 0, "{again}\n{err}");
    assert!(again.contains("6 of its 6 games already played"), "{again}");
    assert!(!again.contains("\nGame "), "{again}");
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), after);

    // Games from another schedule, or cut off, are refused with where and why; the file is kept.
    let refused = |extra: &[&str], why: &str| {
        let (code, out, err) = resumable_match(&book, &pgn, extra);
        assert_eq!(code, 2, "{extra:?}: {out}\n{err}");
        assert!(err.contains(why), "{extra:?}: {err}");
        assert!(err.contains(": game "), "{extra:?}: {err}");
    };
    fn other<'a>(args: &[&'a str], from: &str, to: &'a str) -> Vec<&'a str> {
        args.iter()
            .map(|&a| if a == from { to } else { a })
            .collect()
    }
    refused(&other(&resume, "5", "6"), "another --seed or --openings");
    refused(&other(&resume, "6", "4"), "not in this match of 4 games");
    refused(
        &other(&resume, "20+0.2", "30+0.3"),
        "TimeControl 20+0.2, this match gives 30+0.3",
    );
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), after);
    // Cut inside the last game's move text, and just before its result.
    for trim in [40, 6] {
        let cut = &first_three[..first_three.len() - trim];
        std::fs::write(&pgn, cut).unwrap();
        refused(&resume, "cut off");
        assert_eq!(std::fs::read_to_string(&pgn).unwrap(), cut);
    }
    // A file whose last game lacks its closing blank line is continued on a line of its own.
    std::fs::write(&pgn, first_three.trim_end()).unwrap();
    let (code, out, err) = resumable_match(&book, &pgn, &resume);
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(final_lines(&out), final_lines(&whole));
    assert_eq!(check_pgn(&pgn), 6);
    let _ = std::fs::remove_file(&book);
    let _ = std::fs::remove_file(&pgn);
}

#[test]
fn silent_engine_fails_the_handshake() {
    let (mut config, _) = setup(
        [fake("mute", "mute", ""), fake("b", "first", "")],
        1,
        Limit::Nodes(1),
        "",
    );
    config.ready_timeout = Duration::from_millis(300);
    let err = run_match(&config, |_, _| {}).unwrap_err();
    assert!(err.to_string().contains("no ucciok"), "{err}");
}

#[test]
fn xq_against_itself_over_ucci_and_uci() {
    let a: EngineSpec = format!("ucci-xq={XQ},proto=ucci").parse().unwrap();
    let b: EngineSpec = format!("uci-xq={XQ},proto=uci").parse().unwrap();
    let (mut config, log) = setup([a, b], 2, Limit::Nodes(1000), "h2e2 h9g7\n");
    // Short games: this checks the two protocols end to end, not the engine's play.
    config.rules.referee.ply_limit = Some(80);
    // A mated engine may search well past its node budget before it resigns.
    config.rules.move_timeout = Duration::from_secs(30);
    let (reports, summary) = play(&config);
    assert_eq!(summary.tally.games(), 2);
    for r in &reports {
        assert!(
            matches!(
                r.record.end,
                EndKind::Referee(_) | EndKind::MoveLimit | EndKind::Resignation
            ),
            "game {} ended by {}: {}",
            r.number,
            r.record.end.name(),
            r.record.detail
        );
        assert!(r.record.moves.len() > 2);
    }
    let traffic = log.text();
    assert!(
        traffic.contains("< ucciok") && traffic.contains("< uciok"),
        "{traffic}"
    );
    assert!(traffic.contains("> setoption usemillisec true"));
}

/// A top-level field of one JSON line from `xq referee --json` (strings and numbers only).
/// A top-level field of a JSON line, as text (a string's value without quotes).
fn json_field(line: &str, name: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
    match value.get(name) {
        Some(serde_json::Value::String(text)) => text.clone(),
        Some(other) => other.to_string(),
        None => panic!("no {name} in {line}"),
    }
}

/// Reads our PGN back with `xq referee --json`: games ended by the referee get the same ruling, at
/// the last move; games ended otherwise (forfeits, move limit) get no ruling, or only a provisional
/// one at the end of the record. Returns the number of games.
fn check_pgn(path: &std::path::Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let terminations: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("[Termination \"")?.strip_suffix("\"]"))
        .collect();
    let out = Command::new(XQ)
        .arg("referee")
        .arg("--json")
        .arg(path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let rulings: Vec<&str> = stdout.lines().filter(|l| l.starts_with('{')).collect();
    assert_eq!(rulings.len(), terminations.len(), "{stdout}");
    for (i, (line, termination)) in rulings.iter().zip(&terminations).enumerate() {
        let by_referee = !matches!(
            *termination,
            "move limit"
                | "adjudication"
                | "time forfeit"
                | "illegal move"
                | "resignation"
                | "engine crash"
                | "engine hang"
                | "engine failed to start"
        );
        let agreement = json_field(line, "agreement");
        if by_referee {
            assert_eq!(agreement, "agrees", "game {}: {line}", i + 1);
            assert_eq!(json_field(line, "reason"), *termination, "game {}", i + 1);
            assert_eq!(
                json_field(line, "ply"),
                json_field(line, "plies"),
                "game {}",
                i + 1
            );
            assert_eq!(json_field(line, "past_ruling"), "0", "game {}", i + 1);
            assert_eq!(json_field(line, "provisional"), "false", "game {}", i + 1);
        } else if json_field(line, "reason") == "move limit" {
            // The arena's quiet-move limit and the referee's move-count rule (both 60 moves by
            // each side without a capture) end the game at the same ply.
            assert_eq!(*termination, "move limit", "game {}: {line}", i + 1);
            assert_eq!(agreement, "agrees", "game {}: {line}", i + 1);
            assert_eq!(
                json_field(line, "ply"),
                json_field(line, "plies"),
                "game {}",
                i + 1
            );
        } else {
            // A game ended otherwise reaches no ruling, except a provisional one at the end of the
            // record (the referee then treats the last move's threats as answered).
            assert!(
                agreement == "no_ruling" || json_field(line, "provisional") == "true",
                "game {}: {termination}, yet the referee rules: {line}",
                i + 1
            );
        }
    }
    rulings.len()
}

#[test]
fn shipped_openings_load() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tools/openings.txt");
    let book = openings::load(&path, None).unwrap();
    assert!(book.len() >= 300, "{}", book.len());
    assert!(
        book.iter()
            .all(|o| o.moves.len() == 8 && o.start == Position::startpos())
    );
}

#[test]
fn our_pgn_reads_back_with_the_same_results() {
    // Perpetual check (a referee ending) and an illegal move (not one).
    let (config, _) = setup(
        [
            fake("checker", "script=h8h9/h9h8", ",proto=ucci"),
            fake("king", "script=f9f8/f8f9", ",proto=ucci"),
        ],
        2,
        Limit::Nodes(1),
        PERPETUAL_FEN,
    );
    let (reports, _) = play(&config);
    let tags = xq::arena::pgn::MatchTags {
        event: "t".into(),
        date: "2024.01.01".into(),
        time_control: None,
    };
    let text: String = reports
        .iter()
        .map(|r| xq::arena::pgn::game_text(&r.record, r.number, &tags))
        .collect();
    assert!(text.contains("[Termination \"perpetual check\"]"), "{text}");
    let path = temp_path("perpetual.pgn");
    std::fs::write(&path, &text).unwrap();
    assert_eq!(check_pgn(&path), 2);
    let _ = std::fs::remove_file(&path);
}

#[test]
#[ignore = "plays Fairy-Stockfish (Debian package fairy-stockfish) against itself for a minute"]
fn fairy_stockfish_against_itself() {
    let fs = "/usr/games/fairy-stockfish";
    assert!(
        std::path::Path::new(fs).exists(),
        "install the Debian package fairy-stockfish"
    );
    let pgn = temp_path("fs.pgn");
    let book = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tools/openings.txt");
    let out = Command::new(XQ)
        .args([
            "match",
            "--games",
            "4",
            "--concurrency",
            "2",
            "--tc",
            "2+0.05",
            "--seed",
            "5",
        ])
        .arg("--engine")
        .arg(format!("fs-uci={fs},proto=uci1"))
        .arg("--engine")
        .arg(format!("fs-ucci={fs},proto=ucci,units=ms"))
        .arg("--openings")
        .arg(&book)
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    for bad in [
        "time forfeit",
        "illegal move",
        "engine crash",
        "engine hang",
        "failed to start",
    ] {
        assert!(!stdout.contains(bad), "{stdout}");
    }
    assert_eq!(check_pgn(&pgn), 4);
    let _ = std::fs::remove_file(&pgn);
}

/// A one-game match of xq against xq whose second engine is `second`.
fn against(first: &str, second: &str) -> (MatchConfig, Shared) {
    let a: EngineSpec = format!("wxf={XQ},{first}").parse().unwrap();
    let b: EngineSpec = format!("checks={XQ},{second}").parse().unwrap();
    let (mut config, log) = setup([a, b], 1, Limit::Nodes(100), "");
    config.rules.referee.ply_limit = Some(20);
    (config, log)
}

#[test]
fn an_option_the_engine_does_not_take_stops_the_match() {
    // An option the engine does not announce, and a value it refuses: no match without them.
    for (second, option, why) in [
        (
            "proto=ucci,opt.Frobnicate=1",
            "Frobnicate",
            "does not announce",
        ),
        (
            "proto=uci,opt.RepetitionRule=sometimes",
            "RepetitionRule",
            "answered",
        ),
        // A value of the right type that cannot be used: a net file that is not there.
        (
            "proto=uci,opt.EvalFile=/nonexistent/net.nnue",
            "EvalFile",
            "answered",
        ),
        (
            "proto=ucci,opt.EvalFile=/nonexistent/net.nnue",
            "EvalFile",
            "answered",
        ),
    ] {
        let (config, _) = against("proto=ucci", second);
        let err = run_match(&config, |_, _| {}).unwrap_err().to_string();
        assert!(err.contains(option) && err.contains(why), "{err}");
    }
    // A value the engine takes plays on, over either protocol.
    let (config, _) = against("proto=uci", "proto=ucci,opt.RepetitionRule=check-only");
    let (_, summary) = play(&config);
    assert_eq!(summary.tally.games(), 1);
}

#[test]
fn absurd_times_are_refused_not_crashed_on() {
    for args in [
        ["--tc", "1e300+0"],
        ["--tc", "10+1e300"],
        ["--timeout", "1e300"],
        ["--move-timeout", "1e300"],
    ] {
        let out = std::process::Command::new(XQ)
            .args([
                "match",
                "--engine",
                "a=/bin/true",
                "--engine",
                "b=/bin/true",
            ])
            .args(args)
            .output()
            .expect("xq runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("expected seconds"), "{args:?}: {stderr}");
    }
}

#[test]
fn a_round_robin_of_three_with_openings_from_game_records() {
    // Openings from a PGN file in Chinese notation, cut to two plies.
    let book = temp_path("book.pgn");
    std::fs::write(
        &book,
        "[Event \"a\"]\n\n1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ 1-0\n",
    )
    .unwrap();
    let pgn = temp_path("tournament.pgn");
    let out = Command::new(XQ)
        .args([
            "match",
            "--games",
            "2",
            "--nodes",
            "1",
            "--opening-plies",
            "2",
        ])
        .arg("--engine")
        .arg(format!("one={XQ} match --fake-engine first"))
        .arg("--engine")
        .arg(format!("two={XQ} match --fake-engine random"))
        .arg("--engine")
        .arg(format!("three={XQ} match --fake-engine random,proto=ucci"))
        .arg("--openings")
        .arg(&book)
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("Tournament (round robin): 3 engines, 3 pairings of 2 games"));
    for pairing in ["one vs two:", "one vs three:", "two vs three:"] {
        assert!(
            stdout.contains(&format!("  {pairing} ")),
            "{pairing}\n{stdout}"
        );
    }
    // Every engine played four games, and the points add up to the six games played.
    let table: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("Tournament table"))
        .skip(2)
        .take(3)
        .collect();
    let mut points = 0.0;
    for row in &table {
        let fields: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(fields[2], "4", "{row}");
        points += fields[3].parse::<f64>().unwrap();
    }
    assert_eq!(points, 6.0, "{stdout}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Result ").count(), 6, "{text}");
    for round in 1..=6 {
        assert!(text.contains(&format!("[Round \"{round}\"]")), "{round}");
    }
    assert_eq!(text.matches("1. H2-E2 H9-G7 {book}").count(), 6, "{text}");
    assert!(!text.contains("H0-G2 {book}"), "{text}");
    assert_eq!(check_pgn(&pgn), 6);
    // An SPRT needs exactly two engines.
    let out = Command::new(XQ)
        .args(["match", "--sprt", "0,5"])
        .args(["--engine", "a=x", "--engine", "b=y", "--engine", "c=z"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--sprt compares two engines"));
    let _ = std::fs::remove_file(&book);
    let _ = std::fs::remove_file(&pgn);
}

/// Runs `xq` with `args`, killing it if it has not finished within `limit`: `None` when it had to
/// be killed.
fn run_within(args: &[&std::ffi::OsStr], limit: Duration) -> Option<std::process::Output> {
    let mut child = Command::new(XQ)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("xq starts");
    let until = Instant::now() + limit;
    while Instant::now() < until {
        if child.try_wait().expect("xq can be waited for").is_some() {
            return Some(child.wait_with_output().expect("xq's output"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// `xq match --openings PATH` with engines that are never started: the openings are read first.
fn match_with_openings(path: &std::path::Path) -> Option<std::process::Output> {
    let args: Vec<&std::ffi::OsStr> = [
        "match",
        "--engine",
        "a=/bin/true",
        "--engine",
        "b=/bin/true",
        "--openings",
    ]
    .iter()
    .map(std::ffi::OsStr::new)
    .chain([path.as_os_str()])
    .collect();
    run_within(&args, Duration::from_secs(30))
}

#[test]
fn openings_from_devices_fifos_and_huge_files_are_refused() {
    // A device that never ends, and a FIFO that nobody writes: refused without reading.
    let fifo = temp_path("openings.fifo");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    for path in [PathBuf::from("/dev/zero"), fifo.clone()] {
        let out = match_with_openings(&path).unwrap_or_else(|| panic!("{path:?}: still reading"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{path:?}: {stderr}");
        assert!(
            stderr.contains(&path.display().to_string()) && stderr.contains("not a regular file"),
            "{stderr}"
        );
    }
    let _ = std::fs::remove_file(&fifo);

    // A file just over the bound for game files (sparse, so nothing is written) is refused by its
    // size before it is read.
    let huge = temp_path("huge-openings.txt");
    let file = std::fs::File::create(&huge).unwrap();
    file.set_len(xq::record::files::MAX_FILE_BYTES + 1).unwrap();
    drop(file);
    let out = match_with_openings(&huge).expect("refused at once");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("huge-openings.txt") && stderr.contains("more than the 64 MiB"),
        "{stderr}"
    );
    let _ = std::fs::remove_file(&huge);
}

/// The start of a long message, for assertions.
fn head(text: &str) -> String {
    text.chars().take(300).collect()
}

#[test]
fn a_huge_opening_token_or_line_is_named_not_copied() {
    // A move of a thousand bytes: the error names the line and shows only the token's start.
    let text = format!("h2e2 h9g7\nh2e2 {}\n", "h".repeat(1000));
    let e = openings::parse(&text, "book.txt").unwrap_err();
    let message = e.to_string();
    assert!(message.starts_with("book.txt:2: "), "{}", head(&message));
    assert!(message.len() < 300, "{}...", head(&message));
    assert!(message.contains("a move of 1000 bytes"), "{message}");
    // A FEN line of a mebibyte: the line is refused as a whole.
    let fen_line = format!(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR {}\n",
        "w".repeat(1 << 20)
    );
    let e = openings::parse(&format!("h2e2\n{fen_line}"), "book.txt").unwrap_err();
    let message = e.to_string();
    assert!(message.starts_with("book.txt:2: "), "{}", head(&message));
    assert!(message.len() < 300, "{}...", head(&message));
    assert!(message.contains("a line of 1048636 bytes"), "{message}");
    let e = openings::parse_epd(&fen_line, "book.epd").unwrap_err();
    assert!(
        e.to_string().starts_with("book.epd:1: a line of"),
        "{}",
        head(&e.to_string())
    );
}

/// `xq match` between two fake engines at one node a move, with `extra` arguments.
fn fake_match(extra: &[&str]) -> Command {
    let mut command = Command::new(XQ);
    command
        .args(["match", "--nodes", "1"])
        .arg("--engine")
        .arg(format!("a={XQ} match --fake-engine first"))
        .arg("--engine")
        .arg(format!("b={XQ} match --fake-engine random"))
        .args(extra);
    command
}

#[test]
fn write_failures_are_reported_and_the_match_goes_on() {
    for (option, what) in [("--log", "engine log"), ("--pgn", "PGN file")] {
        let out = fake_match(&["--games", "2", option, "/dev/full"])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{option}: {stdout}\n{stderr}");
        assert!(
            stderr.contains(&format!("writing the {what} /dev/full failed"))
                && stderr.contains("No space left on device"),
            "{option}: {stderr}"
        );
        // Both games were still played and counted.
        assert!(
            stdout.contains("Score of a vs b: ") && stdout.contains("] 2\n"),
            "{stdout}"
        );
    }
    // The terminal itself: no panic, an error and a failing status.
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = fake_match(&["--games", "2"]).stdout(full).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("writing the standard output failed") && !stderr.contains("panicked"),
        "{stderr}"
    );
}

/// Whether process `pid` is still running (a zombie waiting to be reaped has ended).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let state = stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .next();
        state != Some("Z")
    })
}

#[test]
fn an_engine_that_ignores_quit_and_term_leaves_no_process_behind() {
    // The engine ignores TERM, starts a helper that ignores it too, and after `quit` goes on
    // running; the helper's pid goes to a file.
    let pids = temp_path("helper.pids");
    let script = temp_path("stubborn-engine.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ntrap '' TERM\nsleep 1000 &\necho $! >> \"$1\"\n{XQ} match --fake-engine first\nwhile :; do sleep 1; done\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let _ = std::fs::remove_file(&pids);
    let stubborn: EngineSpec = format!("stubborn={} {}", script.display(), pids.display())
        .parse()
        .unwrap();
    let (config, _) = setup([stubborn, fake("b", "first", "")], 2, Limit::Nodes(1), "");
    let (_, summary) = play(&config);
    assert_eq!(summary.tally.games(), 2);
    let helpers: Vec<u32> = std::fs::read_to_string(&pids)
        .unwrap()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect();
    assert!(!helpers.is_empty());
    let until = Instant::now() + Duration::from_secs(10);
    while helpers.iter().any(|&p| running(p)) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    let left: Vec<u32> = helpers.iter().copied().filter(|&p| running(p)).collect();
    for &pid in &left {
        let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
    }
    assert!(left.is_empty(), "still running after the match: {left:?}");
    let _ = std::fs::remove_file(&pids);
    let _ = std::fs::remove_file(&script);
}

#[test]
fn one_pair_gives_no_interval_and_the_pgn_carries_its_event() {
    let pgn = temp_path("event.pgn");
    let out = fake_match(&["--games", "2", "--event", "Spring test"])
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    // One pair (and two games, both drawn or split) gives an estimate but no interval yet.
    assert!(!stdout.contains("+/- 0.0"), "{stdout}");
    assert!(!stdout.contains(".. +0.0)"), "{stdout}");
    assert!(stdout.contains("no 95 % interval yet"), "{stdout}");
    // Without an openings file the games start from the start position, and say so.
    assert!(
        stdout.contains("Game 1 (a vs b, start position): "),
        "{stdout}"
    );
    assert!(!stdout.contains("opening line 0"), "{stdout}");
    // The PGN opens with the seven-tag roster, in its order, the event first.
    let text = std::fs::read_to_string(&pgn).unwrap();
    let tags: Vec<&str> = text
        .lines()
        .take(7)
        .map(|l| l.split_whitespace().next().unwrap_or(""))
        .collect();
    assert_eq!(
        tags,
        [
            "[Event", "[Site", "[Date", "[Round", "[Red", "[Black", "[Result"
        ],
        "{text}"
    );
    assert!(text.starts_with("[Event \"Spring test\"]\n"), "{text}");
    assert!(!text.contains("EngineOutput"), "{text}");
    assert_eq!(text.matches("[Event \"Spring test\"]").count(), 2);
    let _ = std::fs::remove_file(&pgn);

    // No games at all is refused.
    let out = fake_match(&["--games", "0"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--games 0"), "{stderr}");
}
