//! UCCI's options: the handshake's `option` lines, in UCCI order over the protocol's and the
//! engine's tables, and `setoption` read by UCCI's rules (a spin's 0 asks the engine to choose,
//! words stand for a spin's values), with the UCCI 3.0 options this engine does not have.

use crate::engine::Engine;
use crate::options::{self, OptionKind, OptionNote, OptionSpec, OptionValue, UcciValue};
use crate::protocol::command::CommandError;
use crate::protocol::settings::{FRONT_END_OPTIONS, Settings};
use crate::protocol::words::clip;

/// An `option` line for an option under its UCCI name. UCCI 3.0 gives `hashsize` and `threads`
/// the value 0 for "the engine chooses" (the default size; one thread per core), so their ranges
/// start at 0, and setting 0 answers with what was chosen.
fn option_line<T>(spec: &OptionSpec<T>) -> Option<(u8, String)> {
    let ucci = spec.ucci?;
    let name = ucci.name;
    let combo = |values: &[&str], default: &str| {
        let vars: Vec<String> = values.iter().map(|v| format!("var {v}")).collect();
        format!(
            "option {name} type combo {} default {default}",
            vars.join(" ")
        )
    };
    let line = match (&spec.kind, ucci.value) {
        (OptionKind::Spin { default, max, .. }, UcciValue::ZeroChooses { .. }) => {
            format!("option {name} type spin min 0 max {max} default {default}")
        }
        (OptionKind::Spin { default, .. }, UcciValue::Words(words)) => {
            let names: Vec<&str> = words.iter().map(|(w, _)| *w).collect();
            let default = words
                .iter()
                .find(|(_, v)| v == default)
                .map_or("", |(w, _)| w);
            combo(&names, default)
        }
        (
            OptionKind::Spin {
                default, min, max, ..
            },
            _,
        ) => {
            format!("option {name} type spin min {min} max {max} default {default}")
        }
        (OptionKind::Check { default, .. }, _) => {
            format!("option {name} type check default {default}")
        }
        (OptionKind::Combo { values, .. }, _) => {
            let values = values();
            combo(&values, values.first().copied().unwrap_or_default())
        }
        (OptionKind::Button { .. }, _) => format!("option {name} type button"),
        (OptionKind::Text { default, .. }, _) => {
            format!("option {name} type string default {default}")
        }
    };
    Some((ucci.line, line))
}

/// The `option` lines of the protocol's and the engine's options, in their UCCI order.
pub(super) fn option_lines() -> Vec<String> {
    let mut options: Vec<(u8, String)> = FRONT_END_OPTIONS
        .iter()
        .filter_map(option_line)
        .chain(Engine::options().iter().filter_map(option_line))
        .collect();
    options.sort();
    options.into_iter().map(|(_, line)| line).collect()
}

fn parse_check(name: &str, value: Option<&str>) -> Result<bool, CommandError> {
    let text = value.ok_or_else(|| CommandError::MissingValue {
        command: "setoption",
        keyword: name.to_string(),
    })?;
    options::parse_check(text).ok_or_else(|| CommandError::BadNumber {
        keyword: name.to_string(),
        text: clip(text),
        expected: "true or false",
    })
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

/// Reads one of `values`, in any case; the value as listed.
fn parse_combo<'v>(
    name: &str,
    value: Option<&str>,
    values: &[&'v str],
) -> Result<&'v str, CommandError> {
    let text = value.ok_or_else(|| CommandError::MissingValue {
        command: "setoption",
        keyword: name.to_string(),
    })?;
    values
        .iter()
        .find(|v| v.eq_ignore_ascii_case(text))
        .copied()
        .ok_or_else(|| CommandError::BadNumber {
            keyword: name.to_string(),
            text: clip(text),
            expected: "one of the allowed words",
        })
}

/// Reads a value for an option under its UCCI name `key`: checks, spins announced from 0 and
/// words for spins by UCCI's rules, other values as UCI reads them. With the value, a note when
/// 0 asked the engine to choose.
fn read_value<T>(
    spec: &OptionSpec<T>,
    key: &str,
    value: Option<&str>,
) -> Result<(OptionValue, Option<String>), CommandError> {
    let form = spec.ucci.map_or(UcciValue::Same, |u| u.value);
    Ok(match (&spec.kind, form) {
        (OptionKind::Spin { default, max, .. }, UcciValue::ZeroChooses { choose, said }) => {
            match parse_spin(key, value, *max)? {
                0 => {
                    let chosen = choose(*default, *max);
                    let note = format!("{key} 0: {}", said(chosen));
                    (OptionValue::Int(chosen), Some(note))
                }
                n => (OptionValue::Int(n as i64), None),
            }
        }
        (OptionKind::Spin { .. }, UcciValue::Words(words)) => {
            let names: Vec<&str> = words.iter().map(|(w, _)| *w).collect();
            let word = parse_combo(key, value, &names)?;
            let n = words
                .iter()
                .find(|(w, _)| *w == word)
                .map_or(0, |(_, n)| *n);
            (OptionValue::Int(n), None)
        }
        (OptionKind::Check { .. }, _) => (OptionValue::Bool(parse_check(key, value)?), None),
        (OptionKind::Button { .. }, _) => (OptionValue::Press, None),
        _ => (spec.parse(value.unwrap_or(""))?, None),
    })
}

/// What to tell the client after setting `key`: how the option was set when not as asked, or
/// else what 0 chose.
fn said(key: &str, note: Option<OptionNote>, chosen: Option<String>) -> Option<String> {
    match note {
        Some(n) => Some(
            OptionNote {
                name: key.to_string(),
                ..n
            }
            .to_string(),
        ),
        None => chosen,
    }
}

/// Carries out `setoption`; `Ok(Some(text))` is a note for the client.
pub(super) fn set_option(
    settings: &mut Settings,
    engine: &mut Engine,
    name: &str,
    value: Option<&str>,
) -> Result<Option<String>, CommandError> {
    let key = name.to_ascii_lowercase();
    let key = key.as_str();
    if let Some(spec) = OptionSpec::find_ucci(FRONT_END_OPTIONS, key) {
        let (value, chosen) = read_value(spec, key, value)?;
        let note = spec.apply(settings, value)?;
        return Ok(said(key, note, chosen));
    }
    if let Some(spec) = OptionSpec::find_ucci(Engine::options(), key) {
        let (value, chosen) = read_value(spec, key, value)?;
        let note = engine.apply(spec, value)?;
        return Ok(said(key, note, chosen));
    }
    unsupported_option(key, name, value)
}

/// UCCI 3.0 options this engine does not announce: read, then said to change nothing; and the
/// answer to any other name.
fn unsupported_option(
    key: &str,
    name: &str,
    value: Option<&str>,
) -> Result<Option<String>, CommandError> {
    match key {
        "promotion" => {
            if parse_check(key, value)? {
                return Ok(Some(
                    "promotion is not supported; the standard rules apply".into(),
                ));
            }
        }
        "useegtb" => {
            if parse_check(key, value)? {
                return Ok(Some(format!("{key}: this engine has no endgame tables")));
            }
        }
        "egtbpaths" | "evalapi" => {
            return Ok(Some(format!("{key} is not used by this engine")));
        }
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
