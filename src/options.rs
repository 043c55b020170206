//! The engine's option table: names, types, defaults and ranges, with typed validation. The
//! protocol layer prints these in its own dialect.

use std::fmt;

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

/// One option the engine understands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// Its name as clients send it (compared case-insensitively).
    pub name: &'static str,
    /// Type and range.
    pub kind: OptionKind,
}

/// Engine-level options (protocol-specific ones such as `Ranks` or `UCI_ShowWDL` live in the
/// protocol layer).
pub const ENGINE_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "Hash",
        kind: OptionKind::Spin {
            default: 16,
            min: 1,
            max: 65_536,
        },
    },
    OptionSpec {
        name: "Threads",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    },
    OptionSpec {
        name: "Clear Hash",
        kind: OptionKind::Button,
    },
    OptionSpec {
        name: "Move Overhead",
        kind: OptionKind::Spin {
            default: 30,
            min: 0,
            max: 5_000,
        },
    },
    OptionSpec {
        name: "MultiPV",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 128,
        },
    },
    OptionSpec {
        name: "RepetitionRule",
        kind: OptionKind::Combo {
            default: "wxf",
            values: &["wxf", "check-only"],
        },
    },
    OptionSpec {
        name: "Evaluation",
        kind: OptionKind::Combo {
            default: "nnue",
            values: &["nnue", "handcrafted"],
        },
    },
    OptionSpec {
        name: "EvalFile",
        kind: OptionKind::Text {
            default: EMBEDDED_NET,
        },
    },
];

/// The `EvalFile` value naming the net embedded in the binary.
pub const EMBEDDED_NET: &str = "<embedded>";

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
                write!(f, "option {name}: value {value:?} is not {expected}")
            }
            OptionError::Rejected { name, reason } => write!(f, "option {name}: {reason}"),
        }
    }
}

impl std::error::Error for OptionError {}

impl OptionSpec {
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
}
