//! UCCI 3.0, the Chinese chess engine protocol: `ucci`/`ucciok`, options without `name`/`value`
//! keywords, `banmoves`, `go time … opptime …` in seconds unless `usemillisec` is on, bare integer
//! scores, `bestmove … draw|resign`, `nobestmove`, `probe`/`pophash` and `bye`. Moves always use
//! ranks 0–9.

use super::command::{Command, CommandError};
use super::dialect::Dialect;
use super::go::{self, GoDialect, GoLine, GoWord, parse_go};
use super::settings::Settings;
use super::words::{clip, expect_end, moves_text, parse_moves, parse_setup};
use crate::engine::{Engine, HashProbe, Offer};
use crate::moves::{Move, RankStyle};
use crate::search::score::{MATE, MATE_BOUND, Score};
use crate::search::{SearchInfo, SearchResult};
use crate::square::Color;
use std::time::Duration;

mod options;

/// UCCI, with the settings the client has made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Ucci {
    pub settings: Settings,
}

impl Default for Ucci {
    fn default() -> Ucci {
        Ucci {
            settings: Settings::new(),
        }
    }
}

/// The answer to `ucci`: `id` lines, `option` lines and `ucciok`.
fn handshake() -> Vec<String> {
    let mut lines = vec![
        "id name xq".to_string(),
        format!("id version {}", env!("CARGO_PKG_VERSION")),
        "id author the xq authors".to_string(),
    ];
    lines.extend(options::option_lines());
    lines.push("ucciok".to_string());
    lines
}

/// Reads one UCCI line; times are milliseconds if `millis`, else seconds. `side` is the side to
/// move.
fn parse(line: &str, millis: bool, side: Color) -> Result<Command, CommandError> {
    parse_words(line, millis, side).map_err(|e| match e {
        // UCCI has no `Ranks` option to point to.
        CommandError::MoveText { error, .. } => CommandError::MoveText {
            error,
            two_digit_rank: false,
        },
        e => e,
    })
}

fn parse_words(line: &str, millis: bool, side: Color) -> Result<Command, CommandError> {
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    let Some((&first, rest)) = words.split_first() else {
        return Err(CommandError::Unknown(String::new()));
    };
    match first {
        "ucci" => expect_end("ucci", rest, Command::Hello),
        "isready" => expect_end("isready", rest, Command::IsReady),
        "setoption" => parse_setoption(rest),
        "position" => Ok(Command::Position(parse_setup(
            "position",
            rest,
            RankStyle::ZeroToNine,
        )?)),
        "banmoves" => Ok(Command::BanMoves(parse_moves(rest, RankStyle::ZeroToNine)?)),
        "go" => Ok(Command::Go(parse_go(rest, &go_dialect(millis, side))?)),
        "ponderhit" => match rest {
            [] => Ok(Command::PonderHit { draw: false }),
            ["draw"] => Ok(Command::PonderHit { draw: true }),
            [w, ..] => Err(CommandError::Unexpected {
                command: "ponderhit",
                word: clip(w),
            }),
        },
        "stop" => expect_end("stop", rest, Command::Stop),
        "probe" => Ok(Command::Probe(parse_setup(
            "probe",
            rest,
            RankStyle::ZeroToNine,
        )?)),
        "quit" => expect_end("quit", rest, Command::Quit),
        "bench" => super::command::parse_bench(rest),
        // Not in UCCI 3.0, but clients send it; UCI2WB in UCCI mode sends `uxinewgame`.
        "uccinewgame" | "uxinewgame" => expect_end("uccinewgame", rest, Command::NewGame),
        other => Err(CommandError::Unknown(clip(other))),
    }
}

/// `setoption <name> [<value>]`; the UCI form with `name`/`value` keywords is read too.
fn parse_setoption(words: &[&str]) -> Result<Command, CommandError> {
    let missing = || CommandError::MissingValue {
        command: "setoption",
        keyword: "setoption".into(),
    };
    if words.first() == Some(&"name") {
        let end = words
            .iter()
            .position(|w| *w == "value")
            .unwrap_or(words.len());
        let name = words[1..end].join(" ");
        if name.is_empty() {
            return Err(missing());
        }
        let value = (end < words.len()).then(|| words[end + 1..].join(" "));
        return Ok(Command::SetOption { name, value });
    }
    let (name, value) = words.split_first().ok_or_else(missing)?;
    let value = (!value.is_empty()).then(|| value.join(" "));
    Ok(Command::SetOption {
        name: name.to_string(),
        value,
    })
}

/// `go [ponder|draw] depth <d>|infinite | nodes <n> | time <t> [movestogo <m>|increment <i>]
/// [opptime <t> [oppmovestogo <m>|oppincrement <i>]]`, keywords in any order: the words only
/// UCCI has. `time` is the side to move's.
const GO_WORDS: &[GoWord] = &[
    GoWord::new("draw", |line, _, _| {
        line.go.draw = true;
        Ok(())
    }),
    // `depth 0` asks for the static evaluation, `depth infinite` for an infinite search.
    GoWord::new("depth", |line, words, _| {
        if words.peek() == Some("infinite") {
            words.take();
            line.go.limits.infinite = true;
            return Ok(());
        }
        match go::count(words, u32::MAX as u64)? as u32 {
            0 => line.go.static_eval = true,
            d => line.go.limits.depth = Some(d),
        }
        Ok(())
    }),
    GoWord::new("time", |l, w, d| go::clock(l, w, d, d.side, false)),
    GoWord::new("increment", |l, w, d| go::clock(l, w, d, d.side, true)),
    GoWord::new("opptime", |l, w, d| go::clock(l, w, d, !d.side, false)),
    GoWord::new("oppincrement", |l, w, d| go::clock(l, w, d, !d.side, true)),
    // Checked, but the opponent's moves to go do not change how long we think.
    GoWord::new("oppmovestogo", |_, words, _| {
        go::count(words, u32::MAX as u64)?;
        Ok(())
    }),
];

/// With neither `time` nor `increment` for the side to move, `movestogo` has no clock to count
/// down; without `movestogo` the line simply has no clock.
fn no_clock(line: &GoLine, _seen: &[&str], _side: Color) -> Result<(), CommandError> {
    if line.moves_to_go.is_some() {
        return Err(CommandError::Unsupported(
            "go: 'movestogo' is given but not 'time'".into(),
        ));
    }
    Ok(())
}

/// How UCCI reads `go`: times in milliseconds if `millis`, else seconds.
fn go_dialect(millis: bool, side: Color) -> GoDialect {
    GoDialect {
        unit: if millis {
            Duration::from_millis(1)
        } else {
            Duration::from_secs(1)
        },
        ranks: RankStyle::ZeroToNine,
        side,
        words: GO_WORDS,
        no_clock,
    }
}

/// A score as UCCI prints it: a bare integer where a horse or cannon is about 100, and mates as
/// 10000 minus the plies to mate (ElephantEye's convention: beyond 9800 a mate was found).
fn score_value(score: Score) -> i32 {
    let v = score.0;
    if v >= MATE_BOUND {
        10_000 - (MATE - v).min(10_000)
    } else if v <= -MATE_BOUND {
        -(10_000 - (MATE + v).clamp(0, 10_000))
    } else {
        // The engine counts centipawns (a horse is about 430).
        (v * 10 / 43).clamp(-9_799, 9_799)
    }
}

/// An `info` line for one completed depth.
fn info_line(info: &SearchInfo) -> String {
    let mut line = format!(
        "info depth {} score {} time {} nodes {}",
        info.depth,
        score_value(info.score),
        info.time.as_millis(),
        info.nodes
    );
    if !info.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&moves_text(&info.pv, RankStyle::ZeroToNine));
    }
    line
}

/// The line ending a search: `bestmove <m> [ponder <p>] [draw|resign]`, or `nobestmove` when
/// there is no legal (or no unbanned) move.
fn best_move_line(result: &SearchResult, ponder: Option<Move>, offer: Offer) -> String {
    let Some(best) = result.best else {
        return "nobestmove".to_string();
    };
    let mut line = format!("bestmove {}", best.text(RankStyle::ZeroToNine));
    if let Some(p) = ponder {
        line.push_str(" ponder ");
        line.push_str(&p.text(RankStyle::ZeroToNine));
    }
    match offer {
        Offer::Play => {}
        Offer::Draw => line.push_str(" draw"),
        Offer::Resign => line.push_str(" resign"),
    }
    line
}

/// The answer to `probe`.
pub(super) fn pophash_line(probe: Option<HashProbe>) -> String {
    let mut line = "pophash".to_string();
    let Some(p) = probe else {
        return line;
    };
    if let Some(m) = p.best {
        line.push_str(&format!(" bestmove {}", m.text(RankStyle::ZeroToNine)));
    }
    let (v, d) = (score_value(p.score), p.depth);
    if p.lower_bound {
        line.push_str(&format!(" lowerbound {v} depth {d}"));
    }
    if p.upper_bound {
        line.push_str(&format!(" upperbound {v} depth {d}"));
    }
    line
}

impl Dialect for Ucci {
    fn parse(&self, line: &str, side: Color) -> Result<Command, CommandError> {
        parse(line, self.settings.millis, side)
    }

    fn handshake(&self) -> Vec<String> {
        handshake()
    }

    fn message(&self, text: &str) -> String {
        format!("info message {text}")
    }

    fn set_option(
        &mut self,
        engine: &mut Engine,
        name: &str,
        value: Option<&str>,
    ) -> Result<Option<String>, CommandError> {
        options::set_option(&mut self.settings, engine, name, value)
    }

    fn ranks(&self) -> RankStyle {
        RankStyle::ZeroToNine
    }

    fn info_line(&self, info: &SearchInfo) -> String {
        info_line(info)
    }

    fn best_move_lines(
        &self,
        result: &SearchResult,
        ponder: Option<Move>,
        offer: Offer,
    ) -> Vec<String> {
        vec![best_move_line(result, ponder, offer)]
    }

    fn no_move_line(&self) -> &'static str {
        "nobestmove"
    }

    fn static_eval_lines(&self, cp: i32) -> Vec<String> {
        vec![
            format!("info depth 0 score {}", score_value(Score(cp))),
            "nobestmove".to_string(),
        ]
    }

    fn batch(&self) -> bool {
        self.settings.batch
    }

    fn debug(&self) -> bool {
        self.settings.debug
    }

    fn set_debug(&mut self, on: bool) {
        self.settings.debug = on;
    }

    fn farewell(&self) -> Option<&'static str> {
        Some("bye")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::command::Go;

    fn go(line: &str, millis: bool) -> Result<Go, CommandError> {
        match parse(line, millis, Color::Red)? {
            Command::Go(g) => Ok(g),
            other => panic!("not a go: {other:?}"),
        }
    }

    #[test]
    fn go_keywords_in_any_order() {
        let g = go(
            "go draw time 300000 increment 2000 opptime 290000 oppincrement 2000",
            true,
        )
        .unwrap();
        assert!(g.draw);
        let clock = g.limits.clock.unwrap();
        assert_eq!(clock.remaining, Duration::from_secs(300));
        assert_eq!(clock.increment, Duration::from_secs(2));
        let g = go("go opptime 290000 movestogo 40 time 300000", true).unwrap();
        assert_eq!(g.limits.clock.unwrap().moves_to_go, Some(40));
        // Seconds unless usemillisec.
        let g = go("go time 6", false).unwrap();
        assert_eq!(g.limits.clock.unwrap().remaining, Duration::from_secs(6));
        assert!(go("go depth 0", true).unwrap().static_eval);
        assert!(go("go depth infinite", true).unwrap().limits.infinite);
        assert!(go("go time", true).is_err());
        assert!(go("go time 5 time 6", true).is_err());
        // The increment alone is the move's budget; movestogo needs a time.
        let g = go("go increment 5", false).unwrap();
        assert_eq!(
            (g.limits.clock, g.limits.movetime),
            (None, Some(Duration::from_secs(5)))
        );
        let e = go("go movestogo 5", true).unwrap_err().to_string();
        assert_eq!(e, "go: 'movestogo' is given but not 'time'");
        assert!(go("go depth -3", true).is_err());
        assert!(go("go sideways", true).is_err());
    }

    #[test]
    fn movestogo_zero_is_read_as_one() {
        let g = go("go time 60000 movestogo 0", true).unwrap();
        assert_eq!(g.limits.clock.unwrap().moves_to_go, Some(1));
        assert_eq!(g.notes, ["go: 'movestogo 0' is read as 'movestogo 1'"]);
        assert!(
            go("go time 60000 movestogo 3", true)
                .unwrap()
                .notes
                .is_empty()
        );
    }

    #[test]
    fn scores() {
        assert_eq!(score_value(Score::mate_in(3)), 9_997);
        assert_eq!(score_value(Score::mated_in(2)), -9_998);
        assert_eq!(score_value(Score(430)), 100);
        assert_eq!(score_value(Score(-430)), -100);
    }

    fn parse_red(line: &str, millis: bool) -> Result<Command, CommandError> {
        parse(line, millis, Color::Red)
    }

    #[test]
    fn setoption_forms() {
        let c = parse_red("setoption hashsize 64", true).unwrap();
        assert!(
            matches!(c, Command::SetOption { ref name, value: Some(ref v) } if name == "hashsize" && v == "64")
        );
        let c = parse_red("setoption newgame", true).unwrap();
        assert!(matches!(c, Command::SetOption { value: None, .. }));
        let c = parse_red("setoption name threads value 2", true).unwrap();
        assert!(
            matches!(c, Command::SetOption { ref name, value: Some(ref v) } if name == "threads" && v == "2")
        );
        assert!(parse_red("setoption", true).is_err());
    }
}
