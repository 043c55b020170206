//! UCCI 3.0, the Chinese chess engine protocol: `ucci`/`ucciok`, options without `name`/`value`
//! keywords, `banmoves`, `go time … opptime …` in seconds unless `usemillisec` is on, bare integer
//! scores, `bestmove … draw|resign`, `nobestmove`, `probe`/`pophash` and `bye`. Moves always use
//! ranks 0–9.

use super::command::{Command, CommandError};
use super::dialect::Dialect;
use super::go::{self, GoDialect, GoLine, GoWord, parse_go};
use super::words::{clip, expect_end, moves_text, parse_moves, parse_setup};
use crate::engine::{Engine, HashProbe, Offer};
use crate::moves::{Move, RankStyle};
use crate::options::{EngineOption, OptionId, OptionKind, OptionNote, OptionSpec};
use crate::search::score::{MATE, MATE_BOUND, Score};
use crate::search::{SearchInfo, SearchResult};
use crate::square::Color;
use std::time::Duration;

/// UCCI, with the settings only it has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Ucci {
    /// Times in `go` are milliseconds (announced on by default, so clients need not send it).
    pub millis: bool,
    /// Lines arriving during a search wait until it ends.
    pub batch: bool,
    /// Print extra `info message` lines.
    pub debug: bool,
    /// The client may ponder (only a hint for time use).
    pub ponder: bool,
}

impl Default for Ucci {
    fn default() -> Ucci {
        Ucci {
            millis: true,
            batch: false,
            debug: false,
            ponder: false,
        }
    }
}

/// A spin option's (default, max) from the engine's table.
fn spin(id: OptionId) -> (i64, i64) {
    let (default, _, max) = OptionSpec::of(id)
        .spin()
        .expect("hash and threads are spin options");
    (default, max)
}

/// An `option` line for an engine option under its UCCI name (lower case). UCCI 3.0 gives
/// `hashsize` and `threads` the value 0 for "the engine chooses" (the default size; one thread
/// per core), so their ranges start at 0, and setting 0 answers with what was chosen.
fn option_line(name: &str, spec: &OptionSpec) -> String {
    match &spec.kind {
        OptionKind::Spin { default, max, .. } => {
            format!("option {name} type spin min 0 max {max} default {default}")
        }
        OptionKind::Check { default } => format!("option {name} type check default {default}"),
        OptionKind::Combo { default, values } => {
            let vars: Vec<String> = values.iter().map(|v| format!("var {v}")).collect();
            format!(
                "option {name} type combo {} default {default}",
                vars.join(" ")
            )
        }
        OptionKind::Button => format!("option {name} type button"),
        OptionKind::Text { default } => format!("option {name} type string default {default}"),
    }
}

/// The answer to `ucci`: `id` lines, `option` lines and `ucciok`.
fn handshake() -> Vec<String> {
    let engine_line = |name: &str, id: OptionId| option_line(name, OptionSpec::of(id));
    vec![
        "id name xq".to_string(),
        format!("id version {}", env!("CARGO_PKG_VERSION")),
        "id author the xq authors".to_string(),
        "option usemillisec type check default true".to_string(),
        engine_line("hashsize", OptionId::Hash),
        engine_line("threads", OptionId::Threads),
        "option ponder type check default false".to_string(),
        "option batch type check default false".to_string(),
        "option debug type check default false".to_string(),
        "option newgame type button".to_string(),
        engine_line("evaluation", OptionId::Evaluation),
        engine_line("evalfile", OptionId::EvalFile),
        engine_line("repetitionrule", OptionId::RepetitionRule),
        "option usebook type check default false".to_string(),
        engine_line("bookfiles", OptionId::BookFile),
        "option randomness type combo var none var small var medium var large default medium"
            .to_string(),
        "ucciok".to_string(),
    ]
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

fn parse_check(name: &str, value: Option<&str>) -> Result<bool, CommandError> {
    let text = value.ok_or_else(|| CommandError::MissingValue {
        command: "setoption",
        keyword: name.to_string(),
    })?;
    // UCI2WB sends 1 and 0 for options it does not know to be checks (it compares names
    // case-sensitively with its own list).
    match text.to_ascii_lowercase().as_str() {
        "true" | "on" | "1" => Ok(true),
        "false" | "off" | "0" => Ok(false),
        _ => Err(CommandError::BadNumber {
            keyword: name.to_string(),
            text: clip(text),
            expected: "true or false",
        }),
    }
}

fn parse_spin(name: &str, value: Option<&str>, max: i64) -> Result<u64, CommandError> {
    let text = value.ok_or_else(|| CommandError::MissingValue {
        command: "setoption",
        keyword: name.to_string(),
    })?;
    text.parse::<u64>()
        .ok()
        .filter(|&v| v <= max as u64)
        .ok_or_else(|| CommandError::BadNumber {
            keyword: name.to_string(),
            text: clip(text),
            expected: "a whole number in the announced range",
        })
}

fn parse_combo(name: &str, value: Option<&str>, values: &[&str]) -> Result<(), CommandError> {
    let text = value.ok_or_else(|| CommandError::MissingValue {
        command: "setoption",
        keyword: name.to_string(),
    })?;
    if values.iter().any(|v| v.eq_ignore_ascii_case(text)) {
        Ok(())
    } else {
        Err(CommandError::BadNumber {
            keyword: name.to_string(),
            text: clip(text),
            expected: "one of the allowed words",
        })
    }
}

/// Sets the engine option `id` from a UCCI value.
fn set_engine_option(
    engine: &mut Engine,
    id: OptionId,
    value: Option<&str>,
) -> Result<(), CommandError> {
    engine.set_option(OptionSpec::of(id).name, value.unwrap_or(""))?;
    Ok(())
}

/// A note from the engine on how it set an option, under the option's UCCI name `key`.
fn ucci_note(key: &str, note: Option<OptionNote>) -> Option<String> {
    note.map(|n| {
        OptionNote {
            name: key.to_string(),
            ..n
        }
        .to_string()
    })
}

/// Carries out `setoption`; `Ok(Some(text))` is a note for the client.
fn set_option(
    s: &mut Ucci,
    engine: &mut Engine,
    name: &str,
    value: Option<&str>,
) -> Result<Option<String>, CommandError> {
    let key = name.to_ascii_lowercase();
    let key = key.as_str();
    match key {
        "usemillisec" => s.millis = parse_check(key, value)?,
        "batch" => s.batch = parse_check(key, value)?,
        "debug" => s.debug = parse_check(key, value)?,
        "ponder" => s.ponder = parse_check(key, value)?,
        "hashsize" => {
            // 0 asks the engine to choose (UCCI 3.0): its default size.
            let (default, max) = spin(OptionId::Hash);
            let asked = parse_spin(key, value, max)?;
            let mb = if asked == 0 { default as u64 } else { asked };
            let note = engine.apply(EngineOption::Hash(mb as usize))?;
            if asked == 0 && note.is_none() {
                return Ok(Some(format!("hashsize 0: the default size, {mb} MB")));
            }
            return Ok(ucci_note(key, note));
        }
        "threads" => {
            // 0 asks the engine to choose (UCCI 3.0): one thread per core.
            let (_, max) = spin(OptionId::Threads);
            let asked = parse_spin(key, value, max)?;
            let n = if asked == 0 {
                std::thread::available_parallelism()
                    .map_or(1, |n| n.get() as u64)
                    .min(max as u64)
            } else {
                asked
            };
            engine.apply(EngineOption::Threads(n as usize))?;
            if asked == 0 {
                return Ok(Some(format!(
                    "threads 0: one search thread per core, {n} here"
                )));
            }
        }
        "newgame" => engine.new_game(),
        "evalfile" => set_engine_option(engine, OptionId::EvalFile, value)?,
        "evaluation" => set_engine_option(engine, OptionId::Evaluation, value)?,
        "repetitionrule" => set_engine_option(engine, OptionId::RepetitionRule, value)?,
        "promotion" => {
            if parse_check(key, value)? {
                return Ok(Some(
                    "promotion is not supported; the standard rules apply".into(),
                ));
            }
        }
        "usebook" => {
            engine.apply(EngineOption::OwnBook(parse_check(key, value)?))?;
        }
        "bookfiles" => set_engine_option(engine, OptionId::BookFile, value)?,
        // How freely the book picks among its good moves.
        "randomness" => {
            let words = ["none", "small", "medium", "large"];
            parse_combo(key, value, &words)?;
            let word = value.unwrap_or("medium").to_ascii_lowercase();
            let variety = match word.as_str() {
                "none" => 0,
                "small" => 25,
                "medium" => 50,
                _ => 100,
            };
            engine.apply(EngineOption::BookVariety(variety))?;
        }
        "useegtb" => {
            if parse_check(key, value)? {
                return Ok(Some(format!("{key}: this engine has no endgame tables")));
            }
        }
        "egtbpaths" | "evalapi" => {
            return Ok(Some(format!("{key} is not used by this engine")));
        }
        // UCCI 3.0 options this engine does not announce: read, then said to change nothing.
        "idle" | "pruning" | "knowledge" | "style" => {
            let words: &[&str] = if key == "style" {
                &["solid", "normal", "risky"]
            } else {
                &["none", "small", "medium", "large"]
            };
            parse_combo(key, value, words)?;
            return Ok(Some(format!(
                "{key} is not supported by this engine and is ignored"
            )));
        }
        "repetition" | "drawmoves" | "selectivity" => {
            return Ok(Some(format!(
                "{key} was dropped in UCCI 3.0 and is ignored"
            )));
        }
        _ => return Ok(Some(format!("unknown option '{}' ignored", clip(name)))),
    }
    Ok(None)
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
        parse(line, self.millis, side)
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
        set_option(self, engine, name, value)
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
        self.batch
    }

    fn debug(&self) -> bool {
        self.debug
    }

    fn set_debug(&mut self, on: bool) {
        self.debug = on;
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
