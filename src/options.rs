//! The engine's option table: names, types, defaults and ranges, with typed validation. The
//! table is the one place each default is written: the engine starts from it, and the protocols
//! announce it in their own dialects.

use crate::judge::RuleSet;
use std::fmt;
use std::time::Duration;

/// The type and range of an option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// On or off.
    Check {
        /// Default value.
        default: bool,
    },
    /// One of a fixed list of words.
    Combo {
        /// Default value.
        default: &'static str,
        /// The allowed values.
        values: &'static [&'static str],
    },
    /// A command with no value.
    Button,
    /// Free text.
    Text {
        /// Default value.
        default: &'static str,
    },
}

/// Which engine option a table entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionId {
    /// Hash table size in megabytes.
    Hash,
    /// Search threads.
    Threads,
    /// Empties the hash table.
    ClearHash,
    /// Milliseconds kept back from each move's time for communication.
    MoveOverhead,
    /// How many best lines to report.
    MultiPv,
    /// Which repetition rules the search follows.
    RepetitionRule,
    /// Net or handcrafted evaluation.
    Evaluation,
    /// The net file.
    EvalFile,
    /// Play from the opening book.
    OwnBook,
    /// The book file.
    BookFile,
    /// How freely the book picks among its good moves.
    BookVariety,
    /// Strength level, 0 to 20.
    SkillLevel,
    /// Play at the strength `UCI_Elo` asks for instead of `Skill Level`.
    LimitStrength,
    /// The strength asked for with `UCI_LimitStrength`.
    Elo,
}

/// One option the engine understands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// Which option it is (protocol-only options have none).
    pub id: Option<OptionId>,
    /// Its name as clients send it (compared case-insensitively).
    pub name: &'static str,
    /// Type and range.
    pub kind: OptionKind,
}

/// Engine-level options (protocol-specific ones such as `Ranks` or `UCI_ShowWDL` live in the
/// protocol layer).
pub const ENGINE_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        id: Some(OptionId::Hash),
        name: "Hash",
        kind: OptionKind::Spin {
            default: 16,
            min: 1,
            max: 65_536,
        },
    },
    OptionSpec {
        id: Some(OptionId::Threads),
        name: "Threads",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    },
    OptionSpec {
        id: Some(OptionId::ClearHash),
        name: "Clear Hash",
        kind: OptionKind::Button,
    },
    OptionSpec {
        id: Some(OptionId::MoveOverhead),
        name: "Move Overhead",
        kind: OptionKind::Spin {
            default: 30,
            min: 0,
            max: 5_000,
        },
    },
    OptionSpec {
        id: Some(OptionId::MultiPv),
        name: "MultiPV",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 128,
        },
    },
    OptionSpec {
        id: Some(OptionId::RepetitionRule),
        name: "RepetitionRule",
        kind: OptionKind::Combo {
            default: "wxf",
            values: &["wxf", "check-only"],
        },
    },
    OptionSpec {
        id: Some(OptionId::Evaluation),
        name: "Evaluation",
        kind: OptionKind::Combo {
            default: "nnue",
            values: &["nnue", "handcrafted"],
        },
    },
    OptionSpec {
        id: Some(OptionId::EvalFile),
        name: "EvalFile",
        kind: OptionKind::Text {
            default: EMBEDDED_NET,
        },
    },
    OptionSpec {
        id: Some(OptionId::OwnBook),
        name: "OwnBook",
        kind: OptionKind::Check { default: false },
    },
    OptionSpec {
        id: Some(OptionId::BookFile),
        name: "BookFile",
        kind: OptionKind::Text {
            default: EMBEDDED_BOOK,
        },
    },
    OptionSpec {
        id: Some(OptionId::BookVariety),
        name: "BookVariety",
        kind: OptionKind::Spin {
            default: crate::book::DEFAULT_VARIETY as i64,
            min: 0,
            max: 100,
        },
    },
    OptionSpec {
        id: Some(OptionId::SkillLevel),
        name: "Skill Level",
        kind: OptionKind::Spin {
            default: crate::search::skill::MAX_LEVEL as i64,
            min: 0,
            max: crate::search::skill::MAX_LEVEL as i64,
        },
    },
    OptionSpec {
        id: Some(OptionId::LimitStrength),
        name: "UCI_LimitStrength",
        kind: OptionKind::Check { default: false },
    },
    OptionSpec {
        id: Some(OptionId::Elo),
        name: "UCI_Elo",
        kind: OptionKind::Spin {
            default: MAX_ELO,
            min: MIN_ELO,
            max: MAX_ELO,
        },
    },
];

/// The range of `UCI_Elo`: the measured strengths of level 0 and level 20 (see
/// [`crate::search::skill::ELO_OF_LEVEL`]).
pub const MIN_ELO: i64 = crate::search::skill::ELO_OF_LEVEL[0].1 as i64;
/// See [`MIN_ELO`].
pub const MAX_ELO: i64 =
    crate::search::skill::ELO_OF_LEVEL[crate::search::skill::ELO_OF_LEVEL.len() - 1].1 as i64;

/// The `BookFile` value naming the book built into the binary.
pub const EMBEDDED_BOOK: &str = "<embedded>";

/// The `EvalFile` value naming the net embedded in the binary.
pub const EMBEDDED_NET: &str = "<embedded>";

/// Which evaluation the search uses (option `Evaluation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// The neural network.
    Nnue,
    /// The handcrafted evaluation.
    Handcrafted,
}

/// An engine option with a checked, typed value: what the engine applies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineOption {
    /// Hash table size in megabytes.
    Hash(usize),
    /// Search threads.
    Threads(usize),
    /// Empty the hash table.
    ClearHash,
    /// Time kept back from each move for communication.
    MoveOverhead(Duration),
    /// How many best lines to report.
    MultiPv(usize),
    /// The repetition rules the search follows.
    RepetitionRule(RuleSet),
    /// Net or handcrafted evaluation.
    Evaluation(Evaluation),
    /// The net file; [`EMBEDDED_NET`] (or empty) is the net built into the binary.
    EvalFile(String),
    /// Play from the opening book.
    OwnBook(bool),
    /// The book file; [`EMBEDDED_BOOK`] (or empty) is the book built into the binary.
    BookFile(String),
    /// 0: the book's main line nearly always; 50: moves as often as masters played them; 100:
    /// every good book move alike.
    BookVariety(u32),
    /// Strength level, 0 to 20.
    SkillLevel(u32),
    /// Play at the strength of `UCI_Elo` instead of `Skill Level`.
    LimitStrength(bool),
    /// The strength asked for with `UCI_LimitStrength`.
    Elo(i32),
}

impl EngineOption {
    /// Reads `name` and `value` as a client sends them: the name is looked up case-insensitively
    /// and the value checked against the option's type and range.
    pub fn parse(name: &str, value: &str) -> Result<EngineOption, OptionError> {
        let spec = OptionSpec::find(ENGINE_OPTIONS, name)
            .ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let id = spec
            .id
            .ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let value = spec.parse(value)?;
        let count = |v: &OptionValue| spec.int(v).map(|n| n.max(0) as usize);
        Ok(match id {
            OptionId::Hash => EngineOption::Hash(count(&value)?),
            OptionId::Threads => EngineOption::Threads(count(&value)?),
            OptionId::ClearHash => EngineOption::ClearHash,
            OptionId::MoveOverhead => {
                EngineOption::MoveOverhead(Duration::from_millis(count(&value)? as u64))
            }
            OptionId::MultiPv => EngineOption::MultiPv(count(&value)?),
            OptionId::RepetitionRule => {
                let text = spec.text(&value)?;
                EngineOption::RepetitionRule(text.parse().map_err(|reason| {
                    OptionError::Rejected {
                        name: spec.name.to_string(),
                        reason,
                    }
                })?)
            }
            OptionId::Evaluation => EngineOption::Evaluation(match spec.text(&value)? {
                "nnue" => Evaluation::Nnue,
                "handcrafted" => Evaluation::Handcrafted,
                other => return Err(spec.mismatch(&OptionValue::Text(other.to_string()))),
            }),
            OptionId::EvalFile => EngineOption::EvalFile(spec.text(&value)?.to_string()),
            OptionId::OwnBook => EngineOption::OwnBook(spec.bool(&value)?),
            OptionId::BookFile => EngineOption::BookFile(spec.text(&value)?.to_string()),
            OptionId::BookVariety => EngineOption::BookVariety(count(&value)? as u32),
            OptionId::SkillLevel => EngineOption::SkillLevel(count(&value)? as u32),
            OptionId::LimitStrength => EngineOption::LimitStrength(spec.bool(&value)?),
            OptionId::Elo => EngineOption::Elo(spec.int(&value)? as i32),
        })
    }

    /// Every engine option at its default value, in table order.
    pub fn defaults() -> Vec<EngineOption> {
        ENGINE_OPTIONS
            .iter()
            .filter_map(|spec| {
                let text = spec.default_text()?;
                Some(EngineOption::parse(spec.name, &text).expect("table defaults are valid"))
            })
            .collect()
    }
}

/// A value given for an option.
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
        reason: String,
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
            OptionError::Rejected { name, reason } => write!(f, "option {name}: {reason}"),
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

impl OptionSpec {
    /// The engine option `id`'s entry in the table.
    pub fn of(id: OptionId) -> &'static OptionSpec {
        ENGINE_OPTIONS
            .iter()
            .find(|o| o.id == Some(id))
            .expect("every engine option has a table entry")
    }

    /// A spin option's default, smallest and largest values.
    pub fn spin(&self) -> Option<(i64, i64, i64)> {
        match self.kind {
            OptionKind::Spin { default, min, max } => Some((default, min, max)),
            _ => None,
        }
    }

    /// The default as a client would send it; `None` for a button.
    pub fn default_text(&self) -> Option<String> {
        match &self.kind {
            OptionKind::Spin { default, .. } => Some(default.to_string()),
            OptionKind::Check { default } => Some(default.to_string()),
            OptionKind::Combo { default, .. } | OptionKind::Text { default } => {
                Some(default.to_string())
            }
            OptionKind::Button => None,
        }
    }

    fn mismatch(&self, value: &OptionValue) -> OptionError {
        OptionError::BadValue {
            name: self.name.to_string(),
            value: format!("{value:?}"),
            expected: format!("a value of type {:?}", self.kind),
        }
    }

    /// A parsed value as an integer.
    fn int(&self, value: &OptionValue) -> Result<i64, OptionError> {
        match value {
            OptionValue::Int(n) => Ok(*n),
            other => Err(self.mismatch(other)),
        }
    }

    /// A parsed value as on or off.
    fn bool(&self, value: &OptionValue) -> Result<bool, OptionError> {
        match value {
            OptionValue::Bool(b) => Ok(*b),
            other => Err(self.mismatch(other)),
        }
    }

    /// A parsed value as text.
    fn text<'v>(&self, value: &'v OptionValue) -> Result<&'v str, OptionError> {
        match value {
            OptionValue::Text(t) => Ok(t),
            other => Err(self.mismatch(other)),
        }
    }

    /// Finds an option by name, case-insensitively.
    pub fn find<'a>(table: &'a [OptionSpec], name: &str) -> Option<&'a OptionSpec> {
        table
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
    }

    /// Checks a value given as text against this option's type.
    pub fn parse(&self, text: &str) -> Result<OptionValue, OptionError> {
        let text = text.trim();
        let bad = |expected: String| OptionError::BadValue {
            name: self.name.to_string(),
            value: text.to_string(),
            expected,
        };
        match &self.kind {
            OptionKind::Spin { min, max, .. } => match text.parse::<i64>() {
                Ok(v) if (*min..=*max).contains(&v) => Ok(OptionValue::Int(v)),
                _ => Err(bad(format!("an integer from {min} to {max}"))),
            },
            OptionKind::Check { .. } => match text.to_ascii_lowercase().as_str() {
                "true" | "on" | "1" => Ok(OptionValue::Bool(true)),
                "false" | "off" | "0" => Ok(OptionValue::Bool(false)),
                _ => Err(bad("true or false".to_string())),
            },
            OptionKind::Combo { values, .. } => values
                .iter()
                .find(|v| v.eq_ignore_ascii_case(text))
                .map(|v| OptionValue::Text(v.to_string()))
                .ok_or_else(|| bad(format!("one of {}", values.join(", ")))),
            OptionKind::Button => Ok(OptionValue::Press),
            OptionKind::Text { .. } => Ok(OptionValue::Text(text.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation() {
        let hash = OptionSpec::find(ENGINE_OPTIONS, "hash").unwrap();
        assert_eq!(hash.parse("64"), Ok(OptionValue::Int(64)));
        assert!(hash.parse("0").is_err());
        assert!(hash.parse("lots").is_err());
        let rule = OptionSpec::find(ENGINE_OPTIONS, "RepetitionRule").unwrap();
        assert_eq!(
            rule.parse("Check-Only"),
            Ok(OptionValue::Text("check-only".into()))
        );
        assert!(rule.parse("none").is_err());
        assert!(OptionSpec::find(ENGINE_OPTIONS, "Nope").is_none());
    }

    #[test]
    fn typed_options_and_defaults() {
        assert_eq!(
            EngineOption::parse("move overhead", "50"),
            Ok(EngineOption::MoveOverhead(Duration::from_millis(50)))
        );
        assert_eq!(
            EngineOption::parse("RepetitionRule", "check-only"),
            Ok(EngineOption::RepetitionRule(RuleSet::ChecksOnly))
        );
        assert!(matches!(
            EngineOption::parse("Ranks", "1-10"),
            Err(OptionError::Unknown(_))
        ));
        let defaults = EngineOption::defaults();
        assert!(defaults.contains(&EngineOption::Hash(16)));
        assert!(defaults.contains(&EngineOption::Evaluation(Evaluation::Nnue)));
        assert!(!defaults.contains(&EngineOption::ClearHash));
        for id in [
            OptionId::Hash,
            OptionId::Threads,
            OptionId::ClearHash,
            OptionId::MoveOverhead,
            OptionId::MultiPv,
            OptionId::RepetitionRule,
            OptionId::Evaluation,
            OptionId::EvalFile,
            OptionId::OwnBook,
            OptionId::BookFile,
            OptionId::BookVariety,
            OptionId::SkillLevel,
            OptionId::LimitStrength,
            OptionId::Elo,
        ] {
            assert_eq!(OptionSpec::of(id).id, Some(id));
        }
    }
}
