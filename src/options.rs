//! What an option table entry is: the option's names in UCI and UCCI, its type, range and
//! default, and what setting it does; with the reading of values by type. Each option is one
//! entry in one table, kept beside what it sets: the engine's options in `engine/settings.rs`,
//! the protocols' own (`Ranks`, `usemillisec`, …) in `protocol/settings.rs`. The handshakes,
//! `setoption` in both protocols and the engine's start-up defaults all read the tables.

use crate::book::BookError;
use crate::judge::UnknownRuleSet;
use crate::nnue::NetError;
use std::fmt;

/// What setting an option did: `Ok(None)` when set as asked; `Ok(Some(text))` when set
/// otherwise than asked, `text` saying how (a hash table that did not fit and was made smaller);
/// `Err(reason)` when it could not be set (a net file that does not load).
pub type Outcome = Result<Option<String>, Rejection>;

/// Why a value of the right type could not be used: the reason of [`OptionError::Rejected`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// More search threads than fit under the process's address-space limit.
    Threads {
        /// The threads asked for.
        asked: usize,
        /// The most that fit now.
        limit: usize,
    },
    /// No repetition rule set has the name.
    RuleSet(UnknownRuleSet),
    /// No evaluation has this name.
    Evaluation(String),
    /// The net file does not load.
    Net(NetError),
    /// The book file does not load.
    Book {
        /// Why.
        error: BookError,
        /// Which book stays, and whether it is in use, as a clause.
        kept: String,
    },
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::Threads { asked, limit } => write!(
                f,
                "{asked} threads do not fit in this process's address-space limit; at most {limit} now"
            ),
            Rejection::RuleSet(e) => write!(f, "{e}"),
            Rejection::Evaluation(name) => write!(f, "unknown evaluation {name:?}"),
            Rejection::Net(e) => write!(f, "{e}"),
            Rejection::Book { error, kept } => write!(f, "{error}; {kept}"),
        }
    }
}

impl std::error::Error for Rejection {}

impl From<UnknownRuleSet> for Rejection {
    fn from(e: UnknownRuleSet) -> Rejection {
        Rejection::RuleSet(e)
    }
}

impl From<NetError> for Rejection {
    fn from(e: NetError) -> Rejection {
        Rejection::Net(e)
    }
}

/// The type, range and default of an option, with what setting a value does to `T`.
pub enum OptionKind<T> {
    /// An integer in `min..=max`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
        /// Sets a value from the range.
        set: fn(&mut T, i64) -> Outcome,
    },
    /// On or off: a flag in `T`.
    Check {
        /// Default value.
        default: bool,
        /// The flag.
        flag: fn(&mut T) -> &mut bool,
    },
    /// One of a fixed list of words. The first is the default (some clients echo back the first
    /// value of a combo).
    Combo {
        /// The allowed values, the default first.
        values: fn() -> Vec<&'static str>,
        /// Sets one of the values.
        set: fn(&mut T, &str) -> Outcome,
    },
    /// A command with no value.
    Button {
        /// Carries out the command.
        press: fn(&mut T) -> Outcome,
    },
    /// Free text.
    Text {
        /// Default value.
        default: &'static str,
        /// Sets the text.
        set: fn(&mut T, &str) -> Outcome,
    },
}

/// One option: its names, its type and what it sets in `T`.
pub struct OptionSpec<T> {
    /// Its UCI name (compared case-insensitively); `None` for an option only UCCI has.
    pub uci: Option<&'static str>,
    /// Its UCCI form; `None` for an option only UCI has.
    pub ucci: Option<Ucci>,
    /// Type, range, default and setter.
    pub kind: OptionKind<T>,
}

/// An option under UCCI.
#[derive(Clone, Copy, Debug)]
pub struct Ucci {
    /// Its UCCI name: one lower-case word.
    pub name: &'static str,
    /// The place of its `option` line in the UCCI handshake, counted over all tables.
    pub line: u8,
    /// How UCCI announces and reads it where that differs from UCI.
    pub value: UcciValue,
}

impl Ucci {
    /// An option UCCI announces and reads with its own type and range, under `name`, as the
    /// handshake's `line`th option.
    pub const fn same(name: &'static str, line: u8) -> Option<Ucci> {
        Some(Ucci {
            name,
            line,
            value: UcciValue::Same,
        })
    }
}

/// How UCCI announces and reads an option's value.
#[derive(Clone, Copy, Debug)]
pub enum UcciValue {
    /// With the option's own type and range.
    Same,
    /// A spin announced from 0, where 0 asks the engine to choose (UCCI 3.0 `hashsize` and
    /// `threads`).
    ZeroChooses {
        /// The value chosen, from the option's default and maximum.
        choose: fn(i64, i64) -> i64,
        /// What the value chosen is, for a note to the client.
        said: fn(i64) -> String,
    },
    /// A spin given as one of these words, each standing for a value; the word for the spin's
    /// default is the default.
    Words(&'static [(&'static str, i64)]),
}

/// A value given for an option, checked against its type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// An integer.
    Int(i64),
    /// On or off.
    Bool(bool),
    /// A word or text.
    Text(String),
    /// A button press.
    Press,
}

/// Why an option could not be set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown(String),
    /// The value does not fit the option's type or range.
    BadValue {
        /// The option.
        name: String,
        /// The value given.
        value: String,
        /// What is allowed.
        expected: String,
    },
    /// The value has the right type but could not be used (a net file that does not load).
    Rejected {
        /// The option.
        name: String,
        /// Why.
        reason: Rejection,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(n) => write!(f, "unknown option {n:?}"),
            OptionError::BadValue {
                name,
                value,
                expected,
            } => {
                write!(
                    f,
                    "option {name}: value {:?} is not {expected}",
                    crate::clip::quote(value)
                )
            }
            OptionError::Rejected { name, reason } => write!(f, "option {name} rejected: {reason}"),
        }
    }
}

impl std::error::Error for OptionError {}

/// How an option was set when it could not be set quite as asked (a hash table that did not fit
/// and was made smaller), for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionNote {
    /// The option.
    pub name: String,
    /// What was done instead, and why.
    pub text: String,
}

impl fmt::Display for OptionNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option {}: {}", self.name, self.text)
    }
}

impl<T> OptionSpec<T> {
    /// The name in messages: the UCI name, or the UCCI name of an option only UCCI has.
    pub fn name(&self) -> &'static str {
        self.uci
            .or(self.ucci.map(|u| u.name))
            .expect("every option has a name")
    }

    /// Finds an option by its UCI name, case-insensitively.
    pub fn find_uci<'a>(table: &'a [OptionSpec<T>], name: &str) -> Option<&'a OptionSpec<T>> {
        let name = name.trim();
        table
            .iter()
            .find(|o| o.uci.is_some_and(|n| n.eq_ignore_ascii_case(name)))
    }

    /// Finds an option by its UCCI name, case-insensitively.
    pub fn find_ucci<'a>(table: &'a [OptionSpec<T>], name: &str) -> Option<&'a OptionSpec<T>> {
        let name = name.trim();
        table
            .iter()
            .find(|o| o.ucci.is_some_and(|u| u.name.eq_ignore_ascii_case(name)))
    }

    /// A spin option's default, smallest and largest values.
    pub fn spin(&self) -> Option<(i64, i64, i64)> {
        match self.kind {
            OptionKind::Spin {
                default, min, max, ..
            } => Some((default, min, max)),
            _ => None,
        }
    }

    /// The default value; `None` for a button.
    pub fn default_value(&self) -> Option<OptionValue> {
        match &self.kind {
            OptionKind::Spin { default, .. } => Some(OptionValue::Int(*default)),
            OptionKind::Check { default, .. } => Some(OptionValue::Bool(*default)),
            OptionKind::Combo { values, .. } => {
                values().first().map(|v| OptionValue::Text(v.to_string()))
            }
            OptionKind::Text { default, .. } => Some(OptionValue::Text(default.to_string())),
            OptionKind::Button { .. } => None,
        }
    }

    /// Checks a value given as text against this option's type and range.
    pub fn parse(&self, text: &str) -> Result<OptionValue, OptionError> {
        let text = text.trim();
        let bad = |expected: String| OptionError::BadValue {
            name: self.name().to_string(),
            value: text.to_string(),
            expected,
        };
        match &self.kind {
            OptionKind::Spin { min, max, .. } => match text.parse::<i64>() {
                Ok(v) if (*min..=*max).contains(&v) => Ok(OptionValue::Int(v)),
                _ => Err(bad(format!("an integer from {min} to {max}"))),
            },
            OptionKind::Check { .. } => parse_check(text)
                .map(OptionValue::Bool)
                .ok_or_else(|| bad("true or false".to_string())),
            OptionKind::Combo { values, .. } => {
                let values = values();
                values
                    .iter()
                    .find(|v| v.eq_ignore_ascii_case(text))
                    .map(|v| OptionValue::Text(v.to_string()))
                    .ok_or_else(|| bad(format!("one of {}", values.join(", "))))
            }
            OptionKind::Button { .. } => Ok(OptionValue::Press),
            OptionKind::Text { .. } => Ok(OptionValue::Text(text.to_string())),
        }
    }

    /// Sets a checked value on `target`. For the engine's options use `Engine::apply`, which
    /// first waits for a running search.
    pub(crate) fn apply(
        &self,
        target: &mut T,
        value: OptionValue,
    ) -> Result<Option<OptionNote>, OptionError> {
        let outcome = match (&self.kind, value) {
            (OptionKind::Spin { set, .. }, OptionValue::Int(n)) => set(target, n),
            (OptionKind::Check { flag, .. }, OptionValue::Bool(b)) => {
                *flag(target) = b;
                Ok(None)
            }
            (
                OptionKind::Combo { set, .. } | OptionKind::Text { set, .. },
                OptionValue::Text(t),
            ) => set(target, &t),
            (OptionKind::Button { press }, _) => press(target),
            (_, value) => {
                return Err(OptionError::BadValue {
                    name: self.name().to_string(),
                    value: format!("{value:?}"),
                    expected: "a value of the option's type".to_string(),
                });
            }
        };
        let name = self.name().to_string();
        match outcome {
            Ok(note) => Ok(note.map(|text| OptionNote { name, text })),
            Err(reason) => Err(OptionError::Rejected { name, reason }),
        }
    }
}

/// Reads on or off: `true`, `on`, `1` or `false`, `off`, `0`, in any case (UCI2WB sends 1 and 0
/// for options it does not know to be checks).
pub fn parse_check(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "true" | "on" | "1" => Some(true),
        "false" | "off" | "0" => Some(false),
        _ => None,
    }
}
