//! The engine's options, one table entry each (UCI and UCCI names, type, range, default and what
//! setting it does), and the settings they change: hash size within the memory there is, search
//! threads within the address space, evaluation and net, book and strength.

use super::Engine;
use crate::book::Book;
use crate::judge::RuleSet;
use crate::nnue::Network;
use crate::options::{OptionKind, OptionSpec, Outcome, Rejection, Ucci, UcciValue};
use crate::search::skill::{ELO_OF_LEVEL, MAX_LEVEL, Skill};
use crate::search::tt::TranspositionTable;
use std::sync::Arc;
use std::time::Duration;

/// The UCI name of the strength option, 0 to [`MAX_LEVEL`] (the server sets it by this name).
pub const SKILL_LEVEL: &str = "Skill Level";

/// The engine's options, in the order of the UCI handshake (protocol-only options such as
/// `Ranks` or `usemillisec` live in the protocol layer).
pub const ENGINE_OPTIONS: &[OptionSpec<Engine>] = &[
    OptionSpec {
        uci: Some("Hash"),
        ucci: Some(Ucci {
            name: "hashsize",
            line: 2,
            value: UcciValue::ZeroChooses {
                choose: |default, _| default,
                said: |mb| format!("the default size, {mb} MB"),
            },
        }),
        kind: OptionKind::Spin {
            default: 16,
            min: 1,
            max: 65_536,
            set: |engine, mb| Ok(engine.resize_hash(mb as usize)),
        },
    },
    OptionSpec {
        uci: Some("Threads"),
        ucci: Some(Ucci {
            name: "threads",
            line: 3,
            value: UcciValue::ZeroChooses {
                choose: |_, max| {
                    std::thread::available_parallelism().map_or(1, |n| (n.get() as i64).min(max))
                },
                said: |n| format!("one search thread per core, {n} here"),
            },
        }),
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 256,
            set: |engine, n| {
                check_thread_count(n as usize)?;
                let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
                let used = (n as usize).min(thread_cap(cores));
                engine.config.threads = used;
                Ok((used < n as usize).then(|| {
                    format!(
                        "{used} search threads used ({THREADS_PER_CORE} per core, {cores} cores here); more would only add the time to start and stop them to every move's clock"
                    )
                }))
            },
        },
    },
    OptionSpec {
        uci: Some("Clear Hash"),
        ucci: None,
        kind: OptionKind::Button {
            press: |engine| {
                engine.tt.clear();
                Ok(None)
            },
        },
    },
    OptionSpec {
        uci: Some("Move Overhead"),
        ucci: None,
        kind: OptionKind::Spin {
            default: 30,
            min: 0,
            max: 5_000,
            set: |engine, ms| {
                engine.config.move_overhead = Duration::from_millis(ms as u64);
                Ok(None)
            },
        },
    },
    OptionSpec {
        uci: Some("MultiPV"),
        ucci: None,
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 128,
            set: |engine, n| {
                engine.config.multipv = n as usize;
                Ok(None)
            },
        },
    },
    OptionSpec {
        uci: Some("RepetitionRule"),
        ucci: Ucci::same("repetitionrule", 10),
        kind: OptionKind::Combo {
            values: || RULE_SETS.map(RuleSet::name).to_vec(),
            set: |engine, name| {
                engine.set_rule_set(name.parse()?);
                Ok(None)
            },
        },
    },
    OptionSpec {
        uci: Some("Evaluation"),
        ucci: Ucci::same("evaluation", 8),
        kind: OptionKind::Combo {
            values: || Evaluation::NAMED.map(|(name, _)| name).to_vec(),
            set: |engine, name| {
                let (_, evaluation) = Evaluation::NAMED
                    .into_iter()
                    .find(|(n, _)| *n == name)
                    .ok_or_else(|| Rejection::Evaluation(name.to_string()))?;
                engine.evaluation = evaluation;
                engine.update_eval();
                Ok(None)
            },
        },
    },
    OptionSpec {
        uci: Some("EvalFile"),
        ucci: Ucci::same("evalfile", 9),
        kind: OptionKind::Text {
            default: EMBEDDED_NET,
            set: |engine, path| {
                let net = if path.is_empty() || path == EMBEDDED_NET {
                    Network::embedded()
                } else {
                    // On failure the current net stays.
                    Arc::new(Network::load(path)?)
                };
                engine.net = Some(net);
                engine.update_eval();
                Ok(None)
            },
        },
    },
    OptionSpec {
        uci: Some("OwnBook"),
        ucci: Ucci::same("usebook", 11),
        kind: OptionKind::Check {
            default: false,
            flag: |engine| &mut engine.book.on,
        },
    },
    OptionSpec {
        uci: Some("BookFile"),
        ucci: Ucci::same("bookfiles", 12),
        kind: OptionKind::Text {
            default: EMBEDDED_BOOK,
            set: |engine, path| {
                engine.book.file = if path.is_empty() || path == EMBEDDED_BOOK {
                    None
                } else {
                    // On failure the current book stays, and the error says which it is.
                    let book = Book::load(path).map_err(|error| Rejection::Book {
                        error,
                        kept: engine.book.kept(),
                    })?;
                    Some((path.to_string(), Arc::new(book)))
                };
                Ok(None)
            },
        },
    },
    // 0: the book's main line nearly always; 50: moves as often as masters played them; 100:
    // every good book move alike.
    OptionSpec {
        uci: Some("BookVariety"),
        ucci: Some(Ucci {
            name: "randomness",
            line: 13,
            value: UcciValue::Words(&[("none", 0), ("small", 25), ("medium", 50), ("large", 100)]),
        }),
        kind: OptionKind::Spin {
            default: crate::book::DEFAULT_VARIETY as i64,
            min: 0,
            max: 100,
            set: |engine, variety| {
                engine.book.variety = variety.clamp(0, 100) as u32;
                Ok(None)
            },
        },
    },
    OptionSpec {
        uci: Some(SKILL_LEVEL),
        ucci: None,
        kind: OptionKind::Spin {
            default: MAX_LEVEL as i64,
            min: 0,
            max: MAX_LEVEL as i64,
            set: |engine, level| {
                engine.strength.level = (level.max(0) as u32).min(MAX_LEVEL);
                Ok(None)
            },
        },
    },
    // Play at the strength `UCI_Elo` asks for instead of `Skill Level`.
    OptionSpec {
        uci: Some("UCI_LimitStrength"),
        ucci: None,
        kind: OptionKind::Check {
            default: false,
            flag: |engine| &mut engine.strength.limit,
        },
    },
    OptionSpec {
        uci: Some("UCI_Elo"),
        ucci: None,
        kind: OptionKind::Spin {
            default: MAX_ELO,
            min: MIN_ELO,
            max: MAX_ELO,
            set: |engine, elo| {
                engine.strength.elo = elo as i32;
                Ok(None)
            },
        },
    },
    // UCCI's new-game button (UCI has the command `ucinewgame`).
    OptionSpec {
        uci: None,
        ucci: Ucci::same("newgame", 7),
        kind: OptionKind::Button {
            press: |engine| {
                engine.new_game();
                Ok(None)
            },
        },
    },
];

/// The repetition rule sets `RepetitionRule` offers, the default first.
const RULE_SETS: [RuleSet; 2] = [RuleSet::Wxf, RuleSet::ChecksOnly];

/// The range of `UCI_Elo`: the measured strengths of level 0 and level 20 (see
/// [`ELO_OF_LEVEL`]).
const MIN_ELO: i64 = ELO_OF_LEVEL[0].1 as i64;
/// See [`MIN_ELO`].
const MAX_ELO: i64 = ELO_OF_LEVEL[ELO_OF_LEVEL.len() - 1].1 as i64;

/// The `BookFile` value naming the book built into the binary (as does an empty one).
const EMBEDDED_BOOK: &str = "<embedded>";

/// The `EvalFile` value naming the net embedded in the binary (as does an empty one).
const EMBEDDED_NET: &str = "<embedded>";

/// Which evaluation the search uses (option `Evaluation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Evaluation {
    /// The neural network.
    Nnue,
    /// The handcrafted evaluation.
    Handcrafted,
}

impl Evaluation {
    /// Each with the name the option gives it, the default first.
    const NAMED: [(&'static str, Evaluation); 2] = [
        ("nnue", Evaluation::Nnue),
        ("handcrafted", Evaluation::Handcrafted),
    ];
}

/// The book settings (options `OwnBook`, `BookFile`, `BookVariety`).
#[derive(Default)]
pub(super) struct BookUse {
    pub on: bool,
    /// A book read from a file, with the file's name; `None` is the built-in book.
    pub file: Option<(String, Arc<Book>)>,
    pub variety: u32,
}

impl BookUse {
    /// Which book stays when another cannot be read, and whether it is in use.
    fn kept(&self) -> String {
        let which = match &self.file {
            None => "the built-in book".to_string(),
            Some((path, _)) => format!("the book {path}"),
        };
        if self.on {
            format!("{which} stays in use")
        } else {
            format!("{which} stays the book, used once the book is switched on")
        }
    }
}

/// The strength options: `Skill Level`, or `UCI_Elo` when `UCI_LimitStrength` is on.
#[derive(Clone, Copy, Default)]
pub(super) struct Strength {
    level: u32,
    limit: bool,
    elo: i32,
}

impl Strength {
    pub fn skill(self) -> Skill {
        if self.limit {
            Skill::for_elo(self.elo)
        } else {
            Skill::new(self.level)
        }
    }
}

impl Engine {
    /// Gives the hash table `mb` megabytes or, when that does not fit (in the free memory, or
    /// under the process's memory or address-space limit), the largest of `mb / 2`, `mb / 4`, …
    /// that does; the old table stays in use while the new one is sought, and stays if none fits.
    /// A note says what was done when the table is not `mb` megabytes.
    fn resize_hash(&mut self, mb: usize) -> Option<String> {
        let free = hash_limit_mb();
        let mut size = mb.max(1);
        while free.is_some_and(|limit| size > limit) && size > 1 {
            size /= 2;
        }
        loop {
            match TranspositionTable::try_new(size) {
                Ok(table) => {
                    // No search runs (`apply` waited), so the old table goes now.
                    self.tt = Arc::new(table);
                    if size == mb {
                        return None;
                    }
                    return Some(format!(
                        "a table of {mb} MB does not fit in this process's memory; the table is {size} MB"
                    ));
                }
                Err(_) if size > 1 => size /= 2,
                Err(_) => {
                    let kept = self.tt.megabytes();
                    return Some(format!(
                        "a table of {mb} MB does not fit in this process's memory, nor any smaller one; the table stays at {kept} MB"
                    ));
                }
            }
        }
    }
}

/// The largest hash table, in megabytes, that fits in the memory free now; `None` if unknown. The
/// process's own limits are found by asking for the memory (see `Engine::resize_hash`).
fn hash_limit_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_ascii_whitespace().nth(1)?.parse().ok()?;
    // The old table is still there while the new one is filled; keep half the free memory, so
    // that filling the table (which touches every page) cannot exhaust it.
    Some((kb / 1024 / 2).max(16))
}

/// Address space a search thread takes: its stack and what its searcher allocates, with room.
const THREAD_ADDRESS_SPACE: u64 = 8 << 20;
/// Address space kept free for everything else once the threads are started.
const ADDRESS_SPACE_RESERVE: u64 = 64 << 20;

/// How many search threads fit under the process's address-space limit; `None` when there is no
/// limit (or it cannot be read).
fn thread_limit() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let soft: u64 = line
        .trim_start_matches("Max address space")
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let used_kb: u64 = status
        .lines()
        .find(|l| l.starts_with("VmSize:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    let free = soft.saturating_sub(used_kb * 1024 + ADDRESS_SPACE_RESERVE);
    Some(
        usize::try_from(free / THREAD_ADDRESS_SPACE)
            .unwrap_or(usize::MAX)
            .max(1),
    )
}

/// The most search threads used per core: past it a thread adds no search, only the time to start
/// and stop it, which every move pays on its clock.
const THREADS_PER_CORE: usize = 4;

/// The most search threads used on `cores` cores.
fn thread_cap(cores: usize) -> usize {
    THREADS_PER_CORE * cores.max(1)
}

/// Refuses more search threads than the process may start (a thread that cannot get memory ends
/// the process).
fn check_thread_count(n: usize) -> Outcome {
    match thread_limit() {
        Some(limit) if n > limit => Err(Rejection::Threads { asked: n, limit }),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{OptionError, OptionValue};

    #[test]
    fn threads_past_four_per_core_are_capped_with_a_note() {
        assert_eq!(thread_cap(2), 8);
        assert_eq!(thread_cap(0), 4);
        let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
        let mut engine = Engine::new();
        let said = engine.set_option("Threads", "256").expect("accepted");
        if thread_cap(cores) < 256 {
            assert_eq!(engine.threads(), thread_cap(cores));
            let note = said.expect("a note of the threads used");
            assert!(note.text.contains("search threads used"), "{note}");
        }
        assert!(
            engine
                .set_option("Threads", "2")
                .expect("accepted")
                .is_none()
        );
        assert_eq!(engine.threads(), 2.min(thread_cap(cores)));
    }

    #[test]
    fn validation() {
        let hash = OptionSpec::find_uci(ENGINE_OPTIONS, "hash").unwrap();
        assert_eq!(hash.parse("64"), Ok(OptionValue::Int(64)));
        assert!(hash.parse("0").is_err());
        assert!(hash.parse("lots").is_err());
        let rule = OptionSpec::find_uci(ENGINE_OPTIONS, "RepetitionRule").unwrap();
        assert_eq!(
            rule.parse("Check-Only"),
            Ok(OptionValue::Text("check-only".into()))
        );
        assert!(rule.parse("none").is_err());
        assert!(OptionSpec::find_uci(ENGINE_OPTIONS, "Nope").is_none());
        assert!(OptionSpec::find_uci(ENGINE_OPTIONS, "newgame").is_none());
        assert!(OptionSpec::find_ucci(ENGINE_OPTIONS, "newgame").is_some());
    }

    #[test]
    fn options_set_the_engine() {
        let mut engine = Engine::new();
        assert_eq!(engine.set_option("move overhead", "50"), Ok(None));
        assert_eq!(engine.config.move_overhead, Duration::from_millis(50));
        assert_eq!(engine.set_option("RepetitionRule", "check-only"), Ok(None));
        assert_eq!(engine.rules().set, RuleSet::ChecksOnly);
        assert!(matches!(
            engine.set_option("Ranks", "1-10"),
            Err(OptionError::Unknown(_))
        ));
        assert!(matches!(
            engine.set_option("Evaluation", "hce"),
            Err(OptionError::BadValue { .. })
        ));
        engine.set_option("Evaluation", "handcrafted").unwrap();
        assert_eq!(engine.evaluation, Evaluation::Handcrafted);
    }

    #[test]
    fn defaults() {
        let engine = Engine::new();
        assert_eq!(engine.tt.megabytes(), 16);
        assert_eq!(engine.evaluation, Evaluation::Nnue);
        assert_eq!(engine.rules().set, RuleSet::default());
        assert_eq!(RULE_SETS[0], RuleSet::default());
        assert_eq!(engine.book.variety, crate::book::DEFAULT_VARIETY);
        assert!(engine.strength.skill().is_full());
        for set in RULE_SETS {
            assert_eq!(set.name().parse(), Ok(set));
        }
    }

    /// A spin read in UCCI as words has a word for its default.
    #[test]
    fn ucci_words_cover_the_default() {
        for o in ENGINE_OPTIONS {
            if let Some(Ucci {
                value: UcciValue::Words(words),
                ..
            }) = o.ucci
            {
                let (default, ..) = o.spin().unwrap();
                assert!(words.iter().any(|(_, v)| *v == default));
            }
        }
    }
}
