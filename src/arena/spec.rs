//! Engine specifications for `xq match`:
//! `NAME=COMMAND[,proto=ucci|uci|uci1][,units=…][,tc=BASE+INC][,opt.K=V…]` read into the program,
//! its arguments, its protocol, its own clock (for time odds) and the options to set; and the
//! clock text `BASE+INC` (seconds) that `--tc` and `tc=` share.

use crate::moves::RankStyle;
use std::fmt;
use std::time::Duration;

/// The longest time any setting takes, in seconds (about 115 days): clock arithmetic on longer
/// times could overflow.
pub const MAX_SECONDS: f64 = 1e7;

/// A clock: base time and increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockSpec {
    /// The time each side starts with.
    pub base: Duration,
    /// Added after each move.
    pub increment: Duration,
}

impl ClockSpec {
    /// Reads `BASE+INC` or `BASE` in seconds (`10+0.1`, `40`); the base must be positive.
    pub fn parse(text: &str) -> Result<ClockSpec, ClockError> {
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        let base = seconds(base, "clock")?;
        if base.is_zero() {
            return Err(ClockError::ZeroBase(text.to_string()));
        }
        Ok(ClockSpec {
            base,
            increment: seconds(increment, "increment")?,
        })
    }
}

impl fmt::Display for ClockSpec {
    /// As PGN's `TimeControl` writes it: `base+increment` in seconds, or `base` alone.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.increment.is_zero() {
            write!(f, "{}", self.base.as_secs_f64())
        } else {
            write!(
                f,
                "{}+{}",
                self.base.as_secs_f64(),
                self.increment.as_secs_f64()
            )
        }
    }
}

/// Why a clock `BASE+INC` could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClockError {
    /// The base or the increment is no number of seconds in range.
    Seconds(BadSeconds),
    /// The base time is zero: the clock as given.
    ZeroBase(String),
}

impl fmt::Display for ClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClockError::Seconds(e) => write!(f, "{e}"),
            ClockError::ZeroBase(text) => {
                write!(f, "bad clock {text:?}: the base time must be positive")
            }
        }
    }
}

impl std::error::Error for ClockError {}

impl From<BadSeconds> for ClockError {
    fn from(e: BadSeconds) -> ClockError {
        ClockError::Seconds(e)
    }
}

/// A time that is no number of seconds from 0 to [`MAX_SECONDS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadSeconds {
    /// What the time is for (`clock`, `increment`, `--timeout`).
    pub what: String,
    /// The text given.
    pub text: String,
}

impl fmt::Display for BadSeconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad {} {:?}: expected seconds from 0 to {MAX_SECONDS}, such as 5 or 0.05",
            self.what, self.text
        )
    }
}

impl std::error::Error for BadSeconds {}

/// Seconds from 0 to [`MAX_SECONDS`], with a fraction.
pub fn seconds(text: &str, what: &str) -> Result<Duration, BadSeconds> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && (0.0..=MAX_SECONDS).contains(s))
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| BadSeconds {
            what: what.to_string(),
            text: text.to_string(),
        })
}

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCCI 3.0: `ucci`, positions from the last capture, `banmoves`, times in seconds unless
    /// `usemillisec` is on.
    Ucci,
    /// UCI with ranks 0–9 (Pikafish).
    Uci,
    /// UCI with ranks 1–10 (Fairy-Stockfish).
    Uci1,
}

impl Protocol {
    /// The rank numbering of its move text.
    pub fn ranks(self) -> RankStyle {
        match self {
            Protocol::Uci1 => RankStyle::OneToTen,
            Protocol::Ucci | Protocol::Uci => RankStyle::ZeroToNine,
        }
    }

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Ucci => "ucci",
            Protocol::Uci => "uci",
            Protocol::Uci1 => "uci1",
        }
    }
}

/// Which unit UCCI clock values are sent in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeUnit {
    /// Milliseconds if the engine announces `usemillisec` (we then switch it on), else seconds.
    Auto,
    /// Whole seconds, whatever the engine announces.
    Seconds,
    /// Milliseconds; `usemillisec` is switched on if announced. Some engines (Debian's
    /// Fairy-Stockfish 11.1) read milliseconds without announcing the option.
    Millis,
}

/// How to start and talk to one engine:
/// `NAME=CMD[,proto=ucci|uci|uci1][,units=s|ms][,tc=BASE+INC][,opt.K=V]…`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name used in results and game records.
    pub name: String,
    /// The program to run.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The protocol.
    pub protocol: Protocol,
    /// The unit of UCCI clock values (ignored for UCI, which always uses milliseconds).
    pub units: TimeUnit,
    /// Options to set after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// Its own clock (`tc=`), instead of the match's: time odds.
    pub clock: Option<ClockSpec>,
}

/// Why an engine specification could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    /// The specification given.
    pub spec: String,
    /// What is wrong.
    pub problem: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad engine {:?}: {} (expected NAME=CMD[,proto=ucci|uci|uci1][,units=s|ms][,tc=BASE+INC][,opt.K=V]...)",
            self.spec, self.problem
        )
    }
}

impl std::error::Error for SpecError {}

impl std::str::FromStr for EngineSpec {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<EngineSpec, SpecError> {
        let err = |problem: String| SpecError {
            spec: s.to_string(),
            problem,
        };
        let mut fields = s.split(',');
        let head = fields.next().unwrap_or("");
        let (name, cmd) = head
            .split_once('=')
            .ok_or_else(|| err("no '=' between the name and the command".into()))?;
        let name = name.trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(err(format!("the name {name:?} must be one non-empty word")));
        }
        let mut words = split_command(cmd)
            .map_err(|e| err(e.to_string()))?
            .into_iter();
        let program = words
            .next()
            .ok_or_else(|| err("the command is empty".into()))?;
        let mut spec = EngineSpec {
            name: name.to_string(),
            program,
            args: words.collect(),
            protocol: Protocol::Ucci,
            units: TimeUnit::Auto,
            options: Vec::new(),
            clock: None,
        };
        for field in fields {
            let (key, value) = field
                .split_once('=')
                .ok_or_else(|| err(format!("setting {field:?} has no '='")))?;
            match key.trim() {
                "proto" => {
                    spec.protocol = match value.trim() {
                        "ucci" => Protocol::Ucci,
                        "uci" => Protocol::Uci,
                        "uci1" => Protocol::Uci1,
                        other => return Err(err(format!("unknown protocol {other:?}"))),
                    }
                }
                "units" => {
                    spec.units = match value.trim() {
                        "auto" => TimeUnit::Auto,
                        "s" => TimeUnit::Seconds,
                        "ms" => TimeUnit::Millis,
                        other => return Err(err(format!("unknown time unit {other:?}"))),
                    }
                }
                "tc" => {
                    let clock = ClockSpec::parse(value.trim()).map_err(|e| err(e.to_string()))?;
                    spec.clock = Some(clock);
                }
                k => match k.strip_prefix("opt.") {
                    Some(option) if !option.is_empty() => {
                        spec.options.push((option.to_string(), value.to_string()))
                    }
                    _ => return Err(err(format!("unknown setting {k:?}"))),
                },
            }
        }
        Ok(spec)
    }
}

/// A command line with a quote left open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct UnbalancedQuote;

impl fmt::Display for UnbalancedQuote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unbalanced quote in the command")
    }
}

impl std::error::Error for UnbalancedQuote {}

/// Splits a command line into words at blanks; single or double quotes group words.
fn split_command(cmd: &str) -> Result<Vec<String>, UnbalancedQuote> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote = None;
    for c in cmd.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            None => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(UnbalancedQuote);
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        let s: EngineSpec =
            "fs=/usr/games/fairy-stockfish,proto=uci1,opt.Hash=64,opt.Skill Level=3"
                .parse()
                .unwrap();
        assert_eq!(s.name, "fs");
        assert_eq!(s.program, "/usr/games/fairy-stockfish");
        assert!(s.args.is_empty());
        assert_eq!(s.protocol, Protocol::Uci1);
        assert_eq!(
            s.options,
            vec![
                ("Hash".into(), "64".into()),
                ("Skill Level".into(), "3".into())
            ]
        );
        let s: EngineSpec = "x=xq match --fake-engine 'script=a b',units=ms"
            .parse()
            .unwrap();
        assert_eq!(s.args, vec!["match", "--fake-engine", "script=a b"]);
        assert_eq!((s.protocol, s.units), (Protocol::Ucci, TimeUnit::Millis));
        let s: EngineSpec = "fs=fairy-stockfish,proto=uci1,tc=40+0.4".parse().unwrap();
        assert_eq!(
            s.clock,
            Some(ClockSpec {
                base: Duration::from_secs(40),
                increment: Duration::from_millis(400)
            })
        );
        assert_eq!(s.clock.unwrap().to_string(), "40+0.4");
        for bad in [
            "",
            "noequals",
            "=cmd",
            "a=",
            "a=b,proto=xboard",
            "a=b,foo=1",
            "a=b,junk",
            "a='b",
            "a=b,tc=0+1",
            "a=b,tc=x",
        ] {
            assert!(bad.parse::<EngineSpec>().is_err(), "{bad}");
        }
        let problem = |spec: &str| spec.parse::<EngineSpec>().unwrap_err().problem;
        assert_eq!(problem("a='b"), "unbalanced quote in the command");
        assert_eq!(
            problem("a=b,tc=0+1"),
            "bad clock \"0+1\": the base time must be positive"
        );
        assert_eq!(
            problem("a=b,tc=1+x"),
            "bad increment \"x\": expected seconds from 0 to 10000000, such as 5 or 0.05"
        );
    }
}
