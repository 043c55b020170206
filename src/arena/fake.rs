//! A scripted stand-in engine for testing the match runner (`xq match --fake-engine SETTINGS`,
//! hidden from help). It speaks just enough UCCI or UCI (chosen by the first line) to play, and can
//! be told to misbehave: crash, hang, send illegal or unreadable moves, give no move or resign.
//!
//! SETTINGS are `:`-separated: a way to choose moves (`first`, the default: the first legal move
//! not banned; `random`: a legal move picked from the position key; `script=m1/m2/…`: these moves
//! in turn, legal or not, restarting at each new game), then any of `crash=N`, `hang=N`,
//! `illegal=N`, `garbage=N`, `none=N`, `resign=N`, `flood=N` (`info` lines without end; misbehave
//! from the (N+1)-th `go` on), `slow=MS`
//! (sleep before every move), `mute` (never finish the handshake), `ignoreban`, `echo` (repeat
//! each command as `info string echo …`), `millis` (announce UCCI `usemillisec`), `ranks=10`.

use crate::fen;
use crate::movegen::legal_moves;
use crate::moves::{Move, RankStyle};
use crate::position::Position;
use crate::square::Square;
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Duration;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Choose {
    First,
    Random,
    Script(Vec<String>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    Crash,
    Hang,
    Illegal,
    Garbage,
    NoMove,
    Resign,
    Flood,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Settings {
    choose: Choose,
    fault: Option<(Fault, u32)>,
    slow: Duration,
    mute: bool,
    ignore_bans: bool,
    echo: bool,
    millis: bool,
    ranks: RankStyle,
}

/// Why the fake engine's settings could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
enum SettingsError {
    /// A setting that takes a number was given something else.
    NotANumber {
        /// The setting.
        key: String,
        /// What it was given.
        value: String,
    },
    /// No setting is called so: the item as given.
    Unknown(String),
}

impl std::fmt::Display for SettingsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SettingsError::NotANumber { key, value } => {
                write!(f, "{key} needs a number, not {value:?}")
            }
            SettingsError::Unknown(item) => write!(f, "unknown fake engine setting {item:?}"),
        }
    }
}

impl std::error::Error for SettingsError {}

fn parse_settings(text: &str) -> Result<Settings, SettingsError> {
    let mut s = Settings {
        choose: Choose::First,
        fault: None,
        slow: Duration::ZERO,
        mute: false,
        ignore_bans: false,
        echo: false,
        millis: false,
        ranks: RankStyle::ZeroToNine,
    };
    for item in text.split(':').filter(|i| !i.is_empty()) {
        let (key, value) = item.split_once('=').unwrap_or((item, ""));
        let number = || {
            value.parse::<u32>().map_err(|_| SettingsError::NotANumber {
                key: key.to_string(),
                value: value.to_string(),
            })
        };
        match key {
            "first" => s.choose = Choose::First,
            "random" => s.choose = Choose::Random,
            "script" => s.choose = Choose::Script(value.split('/').map(str::to_string).collect()),
            "crash" => s.fault = Some((Fault::Crash, number()?)),
            "hang" => s.fault = Some((Fault::Hang, number()?)),
            "illegal" => s.fault = Some((Fault::Illegal, number()?)),
            "garbage" => s.fault = Some((Fault::Garbage, number()?)),
            "none" => s.fault = Some((Fault::NoMove, number()?)),
            "resign" => s.fault = Some((Fault::Resign, number()?)),
            "flood" => s.fault = Some((Fault::Flood, number()?)),
            "slow" => s.slow = Duration::from_millis(u64::from(number()?)),
            "mute" => s.mute = true,
            "ignoreban" => s.ignore_bans = true,
            "echo" => s.echo = true,
            "millis" => s.millis = true,
            "ranks" if value == "10" => s.ranks = RankStyle::OneToTen,
            _ => return Err(SettingsError::Unknown(item.to_string())),
        }
    }
    Ok(s)
}

/// Runs the fake engine on stdin and stdout until `quit` or the end of input.
pub fn run(settings: &str) -> ExitCode {
    let settings = match parse_settings(settings) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut say = |text: &str| {
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    };
    let mut pos = Position::startpos();
    let mut bans: Vec<Move> = Vec::new();
    let mut searches = 0u32;
    let mut script_index = 0usize;
    let mut hung = false;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if hung {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if settings.echo && !words.is_empty() {
            say(&format!("info string echo {line}"));
        }
        match words.first().copied() {
            Some("ucci") if !settings.mute => {
                say("id name xq-fake");
                if settings.millis {
                    say("option usemillisec type check default false");
                }
                say("option newgame type button");
                say("ucciok");
            }
            Some("uci") if !settings.mute => {
                say("id name xq-fake");
                say("option name UCI_Variant type combo default xiangqi var xiangqi");
                say("uciok");
            }
            Some("isready") if !settings.mute => say("readyok"),
            Some("ucinewgame") => script_index = 0,
            Some("setoption") if words.get(1) == Some(&"newgame") => script_index = 0,
            Some("position") => {
                bans.clear();
                if let Some(p) = read_position(&words[1..], settings.ranks) {
                    pos = p;
                }
            }
            Some("banmoves") => {
                bans = words[1..]
                    .iter()
                    .filter_map(|w| Move::parse(w, settings.ranks).ok())
                    .collect();
            }
            Some("go") => {
                let fault = settings
                    .fault
                    .filter(|&(_, after)| searches >= after)
                    .map(|(f, _)| f);
                searches += 1;
                std::thread::sleep(settings.slow);
                let legal = legal_moves(&pos);
                let allowed: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| settings.ignore_bans || !bans.contains(m))
                    .collect();
                let pick = match &settings.choose {
                    Choose::Script(list) if !list.is_empty() => {
                        let text = list[script_index % list.len()].clone();
                        script_index += 1;
                        Some(text)
                    }
                    Choose::Random if !allowed.is_empty() => {
                        let i = (pos.key() ^ (pos.key() >> 29)) % allowed.len() as u64;
                        Some(allowed[i as usize].text(settings.ranks))
                    }
                    _ => allowed
                        .first()
                        .or(legal.first())
                        .map(|m| m.text(settings.ranks)),
                };
                let best = match fault {
                    Some(Fault::Crash) => std::process::exit(3),
                    Some(Fault::Hang) => {
                        hung = true;
                        continue;
                    }
                    Some(Fault::Illegal) => illegal_move(&pos).map(|m| m.text(settings.ranks)),
                    Some(Fault::Garbage) => Some("zz99".to_string()),
                    Some(Fault::NoMove) => None,
                    Some(Fault::Resign) => pick.map(|m| format!("{m} resign")),
                    Some(Fault::Flood) => {
                        // `info` lines without end, until the pipe is closed.
                        let line =
                            format!("info depth 1 score 0 nodes 1 pv {}\n", "h2e2 ".repeat(40));
                        let mut out = std::io::stdout().lock();
                        while out.write_all(line.as_bytes()).is_ok() {}
                        std::process::exit(4);
                    }
                    None => pick,
                };
                say("info depth 1 score 0 nodes 1");
                say(&format!("bestmove {}", best.as_deref().unwrap_or("(none)")));
            }
            Some("quit") => {
                say("bye");
                return ExitCode::SUCCESS;
            }
            _ => {}
        }
    }
    ExitCode::SUCCESS
}

fn read_position(words: &[&str], ranks: RankStyle) -> Option<Position> {
    let split = words
        .iter()
        .position(|&w| w == "moves")
        .unwrap_or(words.len());
    let mut pos = match *words.first()? {
        "startpos" => Position::startpos(),
        "fen" => fen::parse_lenient(&words[1..split].join(" ")).ok()?.0,
        _ => return None,
    };
    for w in words.iter().skip(split + 1) {
        let m = Move::parse(w, ranks).ok()?;
        if !pos.is_legal(m) {
            return None;
        }
        pos.play(m);
    }
    Some(pos)
}

/// A move of one of the mover's pieces that is not legal.
fn illegal_move(pos: &Position) -> Option<Move> {
    let us = pos.side_to_move();
    Square::all()
        .filter(|&s| pos.piece_at(s).is_some_and(|p| p.color == us))
        .flat_map(|from| {
            Square::all()
                .filter(move |&to| to != from)
                .map(move |to| Move::new(from, to))
        })
        .find(|&m| !pos.is_legal(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings() {
        let s = parse_settings("script=h8h9/h9h8:crash=2:ranks=10:echo").unwrap();
        assert_eq!(s.choose, Choose::Script(vec!["h8h9".into(), "h9h8".into()]));
        assert_eq!(s.fault, Some((Fault::Crash, 2)));
        assert_eq!(s.ranks, RankStyle::OneToTen);
        assert!(s.echo);
        assert_eq!(
            parse_settings("bogus").unwrap_err().to_string(),
            "unknown fake engine setting \"bogus\""
        );
        assert_eq!(
            parse_settings("hang=x").unwrap_err().to_string(),
            "hang needs a number, not \"x\""
        );
    }

    #[test]
    fn positions_and_illegal_moves() {
        let p = read_position(
            &["startpos", "moves", "h2e2", "h9g7"],
            RankStyle::ZeroToNine,
        )
        .unwrap();
        assert_eq!(
            p.to_string(),
            "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
        );
        let fen_words = ["fen", "3k5/9/9/9/9/9/9/9/9/4K4", "w", "moves", "e1e2"];
        let p = read_position(&fen_words, RankStyle::OneToTen).unwrap();
        assert_eq!(p.king(crate::square::Color::Red).to_string(), "e1");
        let m = illegal_move(&Position::startpos()).unwrap();
        assert!(!Position::startpos().is_legal(m));
    }
}
