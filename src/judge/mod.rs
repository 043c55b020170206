//! The WXF repetition judge: classifies each side's part of a repeated cycle as perpetual check,
//! perpetual chase or idle, and rules the repetition a win, loss or draw.
//!
//! A repetition is a position occurring again; both sides are judged on their moves between its
//! two occurrences, each followed back over the run it belongs to (`repetition`). Under the WXF
//! rules a side's moves are a perpetual check if every one gave check, a perpetual chase if
//! every one chased and some piece was chased by all of them, and idle otherwise. The more
//! serious violation loses (check > chase > idle); equal levels draw. No repetition can span a
//! capture or a forward pawn move.
//!
//! The judge is the one place that walks a game's history for repetitions: search, referee and
//! arena ask the functions of `repetition`.

pub mod chase;
pub mod explain;
pub mod history;
pub mod protection;
pub mod repetition;

pub use explain::{Ruling, SideCycle};
pub use history::{History, PieceId, Record, Status};
pub use protection::{ProtectionPolicy, UnknownPolicy};
pub use repetition::{
    judge_at, judge_before_reply, judge_end_of_record, judge_in_search, judge_prune, keeps_up,
    losing_moves, occurrences, repeats, side_cycle,
};

use crate::square::Color;
use std::fmt;
use std::str::FromStr;

/// How many occurrences of a position make a repetition in a game: the position's third
/// occurrence (what the referee, the match runner, the engine and the book count by default).
pub const GAME_REPETITIONS: u32 = 3;

/// How serious one side's part of a repetition is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Violation {
    /// Neither perpetual check nor perpetual chase: allowed.
    Idle = 0,
    /// Every move chased, one piece throughout.
    PerpetualChase = 1,
    /// Every move gave check.
    PerpetualCheck = 2,
}

impl Violation {
    /// Plain-words name.
    pub fn name(self) -> &'static str {
        match self {
            Violation::Idle => "idle",
            Violation::PerpetualChase => "perpetual chase",
            Violation::PerpetualCheck => "perpetual check",
        }
    }
}

/// The outcome of judging a repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// No repetition (yet).
    Undecided,
    /// Both sides' violations are equal.
    Draw,
    /// This side wins: the other side's violation is the more serious.
    Win(Color),
}

/// Which body of repetition rules decides what a cycle of moves amounts to. The walker over the
/// history is the same for every rule set; a rule set only says which statuses it reads and how
/// it classifies and compares cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub enum RuleSet {
    /// The WXF rules: perpetual check and perpetual chase lose, check outranking chase; any other
    /// mixture of moves (one check and one chase alternating included, WXF rule 12) is idle.
    #[default]
    Wxf,
    /// "Perpetual check loses, all else draws": no chase is ever read. Kept to measure what the
    /// full rules cost and gain.
    ChecksOnly,
}

impl RuleSet {
    /// Whether the rule set needs the chase statuses of quiet moves (the costly part).
    #[inline]
    pub fn reads_chases(self) -> bool {
        self == RuleSet::Wxf
    }

    /// The level of a cycle from its moves' statuses or-ed together and the intersection of the
    /// pieces they chased.
    pub fn classify(self, combined: Status, chased: u16) -> Violation {
        if combined == Status::CHECK {
            Violation::PerpetualCheck
        } else if self == RuleSet::Wxf && combined == Status::CHASE && chased != 0 {
            Violation::PerpetualChase
        } else {
            Violation::Idle
        }
    }

    /// The verdict between two sides' cycles: equal levels draw, the more serious violation
    /// loses.
    pub fn compare(self, a: &SideCycle, b: &SideCycle) -> Verdict {
        match a.violation.cmp(&b.violation) {
            std::cmp::Ordering::Equal => Verdict::Draw,
            std::cmp::Ordering::Greater => Verdict::Win(b.color),
            std::cmp::Ordering::Less => Verdict::Win(a.color),
        }
    }

    /// The name used by options and command lines.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Wxf => "wxf",
            RuleSet::ChecksOnly => "check-only",
        }
    }
}

/// A rule set name that names none: the name given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRuleSet(pub String);

impl fmt::Display for UnknownRuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown repetition rule set {:?} (wxf or check-only)",
            self.0
        )
    }
}

impl std::error::Error for UnknownRuleSet {}

impl FromStr for RuleSet {
    type Err = UnknownRuleSet;

    fn from_str(s: &str) -> Result<RuleSet, UnknownRuleSet> {
        match s {
            "wxf" => Ok(RuleSet::Wxf),
            "check-only" => Ok(RuleSet::ChecksOnly),
            other => Err(UnknownRuleSet(other.to_string())),
        }
    }
}

/// What a history's statuses mean: the rule set and how protection is judged. A `History` holds
/// its `Rules` (the statuses it works out depend on them), and every judging function reads them
/// from there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct Rules {
    /// The body of rules.
    pub set: RuleSet,
    /// How protection is judged.
    pub protection: ProtectionPolicy,
}

impl Rules {
    /// The WXF rules with the default protection policy (the same as `Rules::default()`).
    pub const WXF: Rules = Rules {
        set: RuleSet::Wxf,
        protection: ProtectionPolicy::SurvivingScreen,
    };
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Undecided => f.write_str("undecided"),
            Verdict::Draw => f.write_str("draw"),
            Verdict::Win(Color::Red) => f.write_str("red_wins"),
            Verdict::Win(Color::Black) => f.write_str("black_wins"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_rules_are_the_wxf_constant() {
        assert_eq!(Rules::default(), Rules::WXF);
    }

    #[test]
    fn rule_set_names_round_trip() {
        for set in [RuleSet::Wxf, RuleSet::ChecksOnly] {
            assert_eq!(set.name().parse::<RuleSet>(), Ok(set));
        }
        assert_eq!(
            "asian".parse::<RuleSet>().unwrap_err().to_string(),
            "unknown repetition rule set \"asian\" (wxf or check-only)"
        );
    }
}
