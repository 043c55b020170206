//! The protocols' own options, one table entry each (`Ponder`, `UCI_ShowWDL`, `Ranks`,
//! `UCI_Variant`; UCCI `usemillisec`, `batch`, `debug`), and the session settings they change.
//! The engine's options are in its own table; both handshakes list the two tables.

use crate::moves::RankStyle;
use crate::options::{OptionKind, OptionSpec, Ucci};

/// What the client has set in the protocol layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Settings {
    /// Rank numbers in move text, for input and output (UCI `Ranks`).
    pub ranks: RankStyle,
    /// Add `wdl` to UCI `info` lines.
    pub show_wdl: bool,
    /// The client may ponder (only a hint for time use).
    pub ponder: bool,
    /// Print extra notes.
    pub debug: bool,
    /// UCCI times in `go` are milliseconds, not seconds.
    pub millis: bool,
    /// UCCI lines arriving during a search wait until it ends.
    pub batch: bool,
}

impl Settings {
    /// Every setting at its option's default.
    pub fn new() -> Settings {
        let mut settings = Settings {
            ranks: RankStyle::ZeroToNine,
            show_wdl: false,
            ponder: false,
            debug: false,
            millis: false,
            batch: false,
        };
        for spec in FRONT_END_OPTIONS {
            if let Some(value) = spec.default_value() {
                spec.apply(&mut settings, value)
                    .expect("the front end's defaults apply");
            }
        }
        settings
    }
}

/// The options the protocol layer handles itself, in the order of the UCI handshake.
pub(super) const FRONT_END_OPTIONS: &[OptionSpec<Settings>] = &[
    // Announced on by default, so clients need not send it.
    OptionSpec {
        uci: None,
        ucci: Ucci::same("usemillisec", 1),
        kind: OptionKind::Check {
            default: true,
            flag: |s| &mut s.millis,
        },
    },
    OptionSpec {
        uci: Some("Ponder"),
        ucci: Ucci::same("ponder", 4),
        kind: OptionKind::Check {
            default: false,
            flag: |s| &mut s.ponder,
        },
    },
    OptionSpec {
        uci: None,
        ucci: Ucci::same("batch", 5),
        kind: OptionKind::Check {
            default: false,
            flag: |s| &mut s.batch,
        },
    },
    // UCI has the command `debug on|off`.
    OptionSpec {
        uci: None,
        ucci: Ucci::same("debug", 6),
        kind: OptionKind::Check {
            default: false,
            flag: |s| &mut s.debug,
        },
    },
    OptionSpec {
        uci: Some("UCI_ShowWDL"),
        ucci: None,
        kind: OptionKind::Check {
            default: false,
            flag: |s| &mut s.show_wdl,
        },
    },
    OptionSpec {
        uci: Some("Ranks"),
        ucci: None,
        kind: OptionKind::Combo {
            values: || RANKS.iter().map(|(name, _)| *name).collect(),
            set: |s, name| {
                s.ranks = RANKS
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map_or(RankStyle::ZeroToNine, |(_, style)| *style);
                Ok(None)
            },
        },
    },
    // Only so that clients that require it find xiangqi; it never changes coordinates.
    OptionSpec {
        uci: Some("UCI_Variant"),
        ucci: None,
        kind: OptionKind::Combo {
            values: || vec!["xiangqi"],
            set: |_, _| Ok(None),
        },
    },
];

/// The values of `Ranks`, the default first.
const RANKS: [(&str, RankStyle); 2] = [
    ("0-9", RankStyle::ZeroToNine),
    ("1-10", RankStyle::OneToTen),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;

    #[test]
    fn defaults() {
        let s = Settings::new();
        assert!(s.millis && !s.batch && !s.ponder && !s.debug && !s.show_wdl);
        assert_eq!(s.ranks, RankStyle::ZeroToNine);
    }

    /// No two options share a name or a place in the UCCI handshake, over both tables.
    #[test]
    fn names_and_places_are_distinct() {
        let engine = Engine::options();
        let mut uci: Vec<String> = engine
            .iter()
            .filter_map(|o| o.uci)
            .chain(FRONT_END_OPTIONS.iter().filter_map(|o| o.uci))
            .map(|n| n.to_ascii_lowercase())
            .collect();
        let mut ucci: Vec<(u8, &str)> = engine
            .iter()
            .filter_map(|o| o.ucci)
            .chain(FRONT_END_OPTIONS.iter().filter_map(|o| o.ucci))
            .map(|u| (u.line, u.name))
            .collect();
        let (n_uci, n_ucci) = (uci.len(), ucci.len());
        uci.sort();
        uci.dedup();
        ucci.sort();
        ucci.dedup_by_key(|(line, _)| *line);
        assert_eq!((uci.len(), ucci.len()), (n_uci, n_ucci));
        ucci.sort_by_key(|(_, name)| *name);
        ucci.dedup_by_key(|(_, name)| *name);
        assert_eq!(ucci.len(), n_ucci);
    }
}
