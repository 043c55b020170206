//! UCI for Xiangqi in the Pikafish dialect (`option name … type …`, `score cp|mate`, `wdl`,
//! `bestmove (none)`), with the bare Cyclone `fen …`/`startpos …` lines that UCI2WB sends, and
//! the `Ranks` option choosing between ranks 0–9 (the default) and 1–10 for all move text.

use super::command::{Command, CommandError};
use super::dialect::Dialect;
use super::go::{self, GoDialect, GoLine, GoWord, parse_go};
use super::settings::{FRONT_END_OPTIONS, Settings};
use super::words::{clip, expect_end, moves_text, parse_move, parse_setup};
use crate::engine::{Engine, MAX_PROTOCOL_PERFT, Offer};
use crate::moves::{Move, RankStyle};
use crate::options::{OptionError, OptionKind, OptionNote, OptionSpec};
use crate::position::Position;
use crate::search::score::Score;
use crate::search::{SearchInfo, SearchResult};
use crate::square::{Color, Square};
use std::time::Duration;

/// UCI, with the settings the client has made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Uci {
    pub settings: Settings,
}

impl Default for Uci {
    fn default() -> Uci {
        Uci {
            settings: Settings::new(),
        }
    }
}

/// An `option` line for an option under its UCI name.
fn option_line<T>(spec: &OptionSpec<T>) -> Option<String> {
    let head = format!("option name {} type", spec.uci?);
    Some(match &spec.kind {
        OptionKind::Spin {
            default, min, max, ..
        } => {
            format!("{head} spin default {default} min {min} max {max}")
        }
        OptionKind::Check { default, .. } => format!("{head} check default {default}"),
        OptionKind::Combo { values, .. } => {
            let values = values();
            let default = values.first().copied().unwrap_or_default();
            let mut line = format!("{head} combo default {default}");
            for v in values {
                line.push_str(" var ");
                line.push_str(v);
            }
            line
        }
        OptionKind::Button { .. } => format!("{head} button"),
        OptionKind::Text { default, .. } => {
            format!(
                "{head} string default {}",
                if default.is_empty() {
                    "<empty>"
                } else {
                    default
                }
            )
        }
    })
}

/// The answer to `uci`: `id` lines, the `option` lines of the engine's options and then the
/// protocol's, and `uciok`.
fn handshake() -> Vec<String> {
    let mut lines = vec![
        format!("id name xq {}", env!("CARGO_PKG_VERSION")),
        "id author the xq authors".to_string(),
    ];
    lines.extend(Engine::options().iter().filter_map(option_line));
    lines.extend(FRONT_END_OPTIONS.iter().filter_map(option_line));
    lines.push("uciok".to_string());
    lines
}

/// Reads one UCI line with move text in `ranks`; `side` is the side to move. Bare `fen …` and
/// `startpos …` lines (the Cyclone form) are `position`.
fn parse(line: &str, ranks: RankStyle, side: Color) -> Result<Command, CommandError> {
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    let Some((&first, rest)) = words.split_first() else {
        return Err(CommandError::Unknown(String::new()));
    };
    match first {
        "uci" => expect_end("uci", rest, Command::Hello),
        "isready" => expect_end("isready", rest, Command::IsReady),
        "ucinewgame" => expect_end("ucinewgame", rest, Command::NewGame),
        "setoption" => parse_setoption(rest),
        "position" => Ok(Command::Position(parse_setup("position", rest, ranks)?)),
        "fen" | "startpos" => Ok(Command::Position(parse_setup("position", &words, ranks)?)),
        "go" => Ok(Command::Go(parse_go(rest, &go_dialect(ranks, side))?)),
        "stop" => expect_end("stop", rest, Command::Stop),
        "ponderhit" => expect_end("ponderhit", rest, Command::PonderHit { draw: false }),
        "quit" => expect_end("quit", rest, Command::Quit),
        "bench" => super::command::parse_bench(rest),
        "d" => expect_end("d", rest, Command::Show),
        "eval" => expect_end("eval", rest, Command::Eval),
        "flip" => expect_end("flip", rest, Command::Flip),
        "debug" => match rest {
            ["on"] => Ok(Command::Debug(true)),
            ["off"] => Ok(Command::Debug(false)),
            [w, ..] => Err(CommandError::Unexpected {
                command: "debug",
                word: clip(w),
            }),
            [] => Err(CommandError::MissingValue {
                command: "debug",
                keyword: "debug".into(),
            }),
        },
        other => Err(CommandError::Unknown(clip(other))),
    }
}

/// `setoption name <name words> [value <value words>]`.
fn parse_setoption(words: &[&str]) -> Result<Command, CommandError> {
    match words.first() {
        Some(&"name") => {}
        Some(w) => {
            return Err(CommandError::Unexpected {
                command: "setoption",
                word: clip(w),
            });
        }
        None => {
            return Err(CommandError::MissingValue {
                command: "setoption",
                keyword: "name".into(),
            });
        }
    }
    let end = words
        .iter()
        .position(|w| *w == "value")
        .unwrap_or(words.len());
    let name = words[1..end].join(" ");
    if name.is_empty() {
        return Err(CommandError::MissingValue {
            command: "setoption",
            keyword: "name".into(),
        });
    }
    let value = (end < words.len()).then(|| words[end + 1..].join(" "));
    Ok(Command::SetOption { name, value })
}

/// `go [searchmoves …] [ponder] [wtime] [btime] [winc] [binc] [movestogo] [depth] [nodes]
/// [movetime] [mate] [infinite] [perft]`: the words only UCI has. `wtime` and `winc` are Red's.
const GO_WORDS: &[GoWord] = &[
    // The moves run to the next keyword.
    GoWord::new("searchmoves", |line, words, dialect| {
        while let Some(w) = words.peek().filter(|w| !dialect.is_keyword(w)) {
            words.take();
            line.go
                .limits
                .search_moves
                .push(parse_move(w, dialect.ranks)?);
        }
        if line.go.limits.search_moves.is_empty() {
            return Err(CommandError::MissingValue {
                command: go::GO,
                keyword: "searchmoves".into(),
            });
        }
        Ok(())
    }),
    GoWord::new("wtime", |l, w, d| go::clock(l, w, d, Color::Red, false)),
    GoWord::new("btime", |l, w, d| go::clock(l, w, d, Color::Black, false)),
    GoWord::new("winc", |l, w, d| go::clock(l, w, d, Color::Red, true)),
    GoWord::new("binc", |l, w, d| go::clock(l, w, d, Color::Black, true)),
    GoWord::new("perft", |line, words, _| {
        let depth = go::count(words, u32::MAX as u64)? as u32;
        if depth > MAX_PROTOCOL_PERFT {
            return Err(CommandError::Unsupported(format!(
                "go perft: at most depth {MAX_PROTOCOL_PERFT} here; for deeper counts run `xq perft {depth}`"
            )));
        }
        line.go.perft = Some(depth);
        Ok(())
    }),
    // A mate in N moves is found by a search of 2N - 1 plies.
    GoWord::new("mate", |line, words, _| {
        let n = go::count(words, u32::MAX as u64 / 2)? as u32;
        line.go.limits.depth = Some((2 * n).saturating_sub(1).max(1));
        Ok(())
    }),
];

/// Only the other side's clock, or `movestogo` alone: the first clock word given is named.
fn no_clock(_line: &GoLine, seen: &[&str], side: Color) -> Result<(), CommandError> {
    let clock_words = ["wtime", "btime", "winc", "binc", "movestogo"];
    let Some(given) = seen.iter().find(|w| clock_words.contains(w)) else {
        return Ok(());
    };
    let (missing, side) = match side {
        Color::Red => (["wtime", "winc"], "Red"),
        Color::Black => (["btime", "binc"], "Black"),
    };
    Err(CommandError::NoClock {
        command: go::GO,
        given: given.to_string(),
        missing: missing.iter().map(|w| w.to_string()).collect(),
        side,
    })
}

/// How UCI reads `go`: times in milliseconds, moves in `ranks`.
fn go_dialect(ranks: RankStyle, side: Color) -> GoDialect {
    GoDialect {
        unit: Duration::from_millis(1),
        ranks,
        side,
        words: GO_WORDS,
        no_clock,
    }
}

/// Carries out `setoption`: the protocol's own options here, the rest by the engine; a note
/// when the engine could not set its option quite as asked.
fn set_option(
    settings: &mut Settings,
    engine: &mut Engine,
    name: &str,
    text: &str,
) -> Result<Option<OptionNote>, OptionError> {
    match OptionSpec::find_uci(FRONT_END_OPTIONS, name) {
        Some(spec) => spec.apply(settings, spec.parse(text)?),
        None => engine.set_option(name, text),
    }
}

/// Win, draw and loss chances in per mille for the side to move, from a score: a logistic model
/// where an even score is mostly a draw and about two pawns is an even chance of winning.
fn wdl(score: Score) -> (u32, u32, u32) {
    if let Some(m) = score.mate_moves() {
        return if m > 0 { (1000, 0, 0) } else { (0, 0, 1000) };
    }
    let x = score.0 as f64;
    let chance = |v: f64| 1000.0 / (1.0 + ((200.0 - v) / 80.0).exp());
    let win = chance(x).round() as u32;
    let loss = chance(-x).round() as u32;
    let win = win.min(1000);
    let loss = loss.min(1000 - win);
    (win, 1000 - win - loss, loss)
}

/// An `info` line for one completed depth and line.
fn info_line(info: &SearchInfo, s: &Settings) -> String {
    let ms = info.time.as_millis();
    // From microseconds, so a search of under a millisecond still shows a rate, never 0 for
    // nodes searched.
    let micros = info.time.as_micros().max(1);
    let nps = (info.nodes as u128 * 1_000_000 / micros).max(u128::from(info.nodes > 0));
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {}",
        info.depth, info.seldepth, info.multipv, info.score
    );
    if s.show_wdl {
        let (w, d, l) = wdl(info.score);
        line.push_str(&format!(" wdl {w} {d} {l}"));
    }
    line.push_str(&format!(
        " nodes {} nps {nps} hashfull {} time {ms}",
        info.nodes, info.hashfull
    ));
    if !info.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&moves_text(&info.pv, s.ranks));
    }
    line
}

/// The lines ending a search: `bestmove <m> [ponder <p>]`, or with no legal move
/// `info depth 0 score mate 0` and `bestmove (none)`.
fn best_move_lines(result: &SearchResult, ponder: Option<Move>, s: &Settings) -> Vec<String> {
    let Some(best) = result.best else {
        return vec![
            "info depth 0 score mate 0".to_string(),
            "bestmove (none)".to_string(),
        ];
    };
    let mut line = format!("bestmove {}", best.text(s.ranks));
    if let Some(p) = ponder {
        line.push_str(" ponder ");
        line.push_str(&p.text(s.ranks));
    }
    vec![line]
}

/// An `info string` line.
pub(super) fn string_line(text: &str) -> String {
    format!("info string {text}")
}

/// The answer to `d`: the board as text, Black at the top, with file letters and rank numbers,
/// then the FEN, the key and the checking pieces.
pub(super) fn board_lines(pos: &Position, ranks: RankStyle) -> Vec<String> {
    let mut lines = Vec::new();
    for rank in (0..10u8).rev() {
        let label = match ranks {
            RankStyle::ZeroToNine => rank as u32,
            RankStyle::OneToTen => rank as u32 + 1,
        };
        let mut row = format!("{label:>2} ");
        for file in 0..9u8 {
            let c = Square::from_coords(file as i32, rank as i32)
                .and_then(|s| pos.piece_at(s))
                .map_or('.', |p| p.fen_char());
            row.push(' ');
            row.push(c);
        }
        lines.push(row);
    }
    lines.push("    a b c d e f g h i".to_string());
    lines.push(format!("Fen: {pos}"));
    lines.push(format!("Key: {:016X}", pos.key()));
    let checkers: Vec<String> = pos
        .checkers()
        .into_iter()
        .map(|sq| sq.to_string())
        .collect();
    lines.push(format!("Checkers: {}", checkers.join(" ")));
    lines
}

impl Dialect for Uci {
    fn parse(&self, line: &str, side: Color) -> Result<Command, CommandError> {
        parse(line, self.settings.ranks, side)
    }

    fn handshake(&self) -> Vec<String> {
        handshake()
    }

    fn message(&self, text: &str) -> String {
        string_line(text)
    }

    fn set_option(
        &mut self,
        engine: &mut Engine,
        name: &str,
        value: Option<&str>,
    ) -> Result<Option<String>, CommandError> {
        let note = set_option(&mut self.settings, engine, name, value.unwrap_or(""))?;
        Ok(note.map(|n| n.to_string()))
    }

    fn ranks(&self) -> RankStyle {
        self.settings.ranks
    }

    fn info_line(&self, info: &SearchInfo) -> String {
        info_line(info, &self.settings)
    }

    fn best_move_lines(
        &self,
        result: &SearchResult,
        ponder: Option<Move>,
        _offer: Offer,
    ) -> Vec<String> {
        best_move_lines(result, ponder, &self.settings)
    }

    fn no_move_line(&self) -> &'static str {
        "bestmove (none)"
    }

    fn static_eval_lines(&self, cp: i32) -> Vec<String> {
        vec![
            format!("info depth 0 score {}", Score(cp)),
            "bestmove (none)".to_string(),
        ]
    }

    fn batch(&self) -> bool {
        false
    }

    fn debug(&self) -> bool {
        self.settings.debug
    }

    fn set_debug(&mut self, on: bool) {
        self.settings.debug = on;
    }

    fn farewell(&self) -> Option<&'static str> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::command::Go;

    fn go(line: &str, side: Color) -> Result<Go, CommandError> {
        match parse(line, RankStyle::ZeroToNine, side)? {
            Command::Go(g) => Ok(g),
            other => panic!("not a go: {other:?}"),
        }
    }

    #[test]
    fn wtime_is_reds() {
        let line = "go btime 300000 wtime 290000 winc 1000 binc 2000 movestogo 40";
        let red = go(line, Color::Red).unwrap().limits.clock.unwrap();
        assert_eq!(
            (red.remaining, red.increment),
            (Duration::from_millis(290_000), Duration::from_secs(1))
        );
        let black = go(line, Color::Black).unwrap().limits.clock.unwrap();
        assert_eq!(
            (black.remaining, black.moves_to_go),
            (Duration::from_secs(300), Some(40))
        );
        let e = go("go wtime 1000", Color::Black).unwrap_err();
        assert_eq!(
            e.to_string(),
            "go: 'wtime' is given but neither 'btime' nor 'binc', the clock of Black (to move)"
        );
        let e = go("go binc 5", Color::Red).unwrap_err().to_string();
        assert!(
            e.starts_with("go: 'binc' is given but neither 'wtime' nor 'winc'"),
            "{e}"
        );
        let e = go("go movestogo 5", Color::Red).unwrap_err().to_string();
        assert!(e.starts_with("go: 'movestogo' is given"), "{e}");
        // The increment alone is the move's budget.
        let g = go("go winc 5", Color::Red).unwrap();
        assert_eq!(
            (g.limits.clock, g.limits.movetime),
            (None, Some(Duration::from_millis(5)))
        );
        let g = go("go btime 900 binc 2000 winc 1000", Color::Red).unwrap();
        assert_eq!(g.limits.movetime, Some(Duration::from_secs(1)));
        let g = go("go winc 500 movetime 80", Color::Red).unwrap();
        assert_eq!(g.limits.movetime, Some(Duration::from_millis(80)));
        assert_eq!(
            go("go wtime -50", Color::Red)
                .unwrap()
                .limits
                .clock
                .unwrap()
                .remaining,
            Duration::ZERO
        );
    }

    #[test]
    fn movestogo_zero_is_read_as_one() {
        let g = go("go movestogo 0 wtime 1000 btime 1000", Color::Black).unwrap();
        assert_eq!(g.limits.clock.unwrap().moves_to_go, Some(1));
        assert_eq!(g.notes, ["go: 'movestogo 0' is read as 'movestogo 1'"]);
        let g = go("go wtime 1000 movestogo 2", Color::Red).unwrap();
        assert!(g.notes.is_empty());
    }

    #[test]
    fn go_forms() {
        let g = go("go searchmoves h2e2 b0c2 depth 3", Color::Red).unwrap();
        assert_eq!((g.limits.search_moves.len(), g.limits.depth), (2, Some(3)));
        assert!(go("go infinite", Color::Red).unwrap().limits.infinite);
        assert!(
            go("go ponder movetime 100", Color::Red)
                .unwrap()
                .limits
                .ponder
        );
        assert!(go("go perft 9", Color::Red).is_err());
        assert_eq!(go("go mate 3", Color::Red).unwrap().limits.depth, Some(5));
        assert!(go("go depth", Color::Red).is_err());
        assert!(go("go searchmoves", Color::Red).is_err());
    }

    #[test]
    fn options_and_cyclone_lines() {
        let parse = |line| parse(line, RankStyle::ZeroToNine, Color::Red);
        let cmd = parse("setoption name Move Overhead value 50").unwrap();
        assert!(
            matches!(cmd, Command::SetOption { ref name, value: Some(ref v) } if name == "Move Overhead" && v == "50")
        );
        let cmd =
            parse("fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves h2e2")
                .unwrap();
        assert!(matches!(cmd, Command::Position(ref s) if s.moves.len() == 1));
        assert!(matches!(parse("startpos").unwrap(), Command::Position(_)));
        let ranks = handshake()
            .into_iter()
            .find(|l| l.contains("Ranks"))
            .unwrap();
        assert_eq!(
            ranks,
            "option name Ranks type combo default 0-9 var 0-9 var 1-10"
        );
    }

    #[test]
    fn wdl_adds_up() {
        for cp in [-3000, -400, -50, 0, 50, 200, 400, 3000] {
            let (w, d, l) = wdl(Score(cp));
            assert_eq!(w + d + l, 1000);
            assert!(cp <= 0 || w >= l);
        }
        assert_eq!(wdl(Score::mate_in(3)), (1000, 0, 0));
        assert_eq!(wdl(Score::mated_in(2)), (0, 0, 1000));
    }
}
