//! `Rules`: how the referee rules a game — the repetition rules the judge reads, how many
//! occurrences make a repetition, whether the first ruling ends the game, the move-count rule and
//! a cap on the game's length.

use crate::judge::{self, ProtectionPolicy, RuleSet};

/// The move-count rule's default: moves by each side without a capture that draw the game. The
/// Chinese Xiangqi Association's rules (自然限着) draw after 60 moves by each side without a
/// capture (events may lower it); the Asian rules as online sites apply them use 50; 60 is the
/// common count (also 120 plies in Pikafish), and `--move-limit` sets another.
pub const DEFAULT_MOVE_LIMIT: u32 = 60;

/// The range of occurrences of a position a repetition may be set to take, on the command line
/// (`--repetitions`), in the server and in the Python module alike.
pub const REPETITIONS_RANGE: std::ops::RangeInclusive<u32> = 2..=100;

/// How the referee decides a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The body of repetition rules.
    pub set: RuleSet,
    /// How protection is judged.
    pub protection: ProtectionPolicy,
    /// How many times a position must have occurred (counting the latest) to make a repetition:
    /// 2 is the first recurrence, 3 the usual game rule.
    pub repetitions: u32,
    /// The first ruling is the game's result (the WXF case suite's convention, and what a match
    /// stops at). Otherwise a forbidden repetition obliges the violator to change moves and ends
    /// the game only if the violator keeps on or the record ends in it.
    pub first_decision: bool,
    /// Moves by each side without a capture that draw the game (`None`: no move-count rule).
    pub move_limit: Option<u32>,
    /// Plies in all after which the game is drawn (`None`: no cap); a match's guard against
    /// endless games, not a rule of the game.
    pub ply_limit: Option<u32>,
}

impl Rules {
    /// What `xq referee`, the server and the Python module apply unless told otherwise: an
    /// arbiter's reading at the game's count of occurrences ([`judge::GAME_REPETITIONS`]).
    pub const DEFAULT: Rules = Rules::arbiter(judge::GAME_REPETITIONS);

    /// The ending of a record as an arbiter reads it: WXF rules, `repetitions` occurrences, the
    /// default move-count rule.
    pub const fn arbiter(repetitions: u32) -> Rules {
        Rules {
            set: RuleSet::Wxf,
            protection: ProtectionPolicy::SurvivingScreen,
            repetitions,
            first_decision: false,
            move_limit: Some(DEFAULT_MOVE_LIMIT),
            ply_limit: None,
        }
    }

    /// The first ruling as the result, no move-count rule (the WXF case suite's convention).
    pub const fn first_decision(repetitions: u32) -> Rules {
        Rules {
            first_decision: true,
            move_limit: None,
            ..Rules::arbiter(repetitions)
        }
    }

    /// The rules `xq referee`'s options (and the server's and the Python module's arguments of
    /// the same names) choose: `repetitions` occurrences, the first decision or an arbiter's
    /// reading, and a move-count rule of `move_limit` moves (0: none; not applied with the first
    /// decision, which the WXF case suite reads without one).
    pub fn chosen(repetitions: u32, first_decision: bool, move_limit: u32) -> Rules {
        if first_decision {
            Rules::first_decision(repetitions)
        } else {
            Rules {
                move_limit: (move_limit > 0).then_some(move_limit),
                ..Rules::arbiter(repetitions)
            }
        }
    }

    /// The rules the judge's history is built with.
    pub const fn judge(&self) -> judge::Rules {
        judge::Rules {
            set: self.set,
            protection: self.protection,
        }
    }

    /// The number of plies without a capture that the move-count rule allows, if there is one.
    pub fn quiet_plies(&self) -> Option<usize> {
        self.move_limit.map(|moves| 2 * moves as usize)
    }
}

impl Default for Rules {
    /// [`Rules::DEFAULT`].
    fn default() -> Rules {
        Rules::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_arbiter_with_three_occurrences() {
        let rules = Rules::default();
        assert_eq!(rules.judge(), judge::Rules::WXF);
        assert_eq!(rules.repetitions, 3);
        assert_eq!(rules.quiet_plies(), Some(120));
        assert!(!rules.first_decision);
        let suite = Rules::first_decision(2);
        assert!(suite.first_decision && suite.move_limit.is_none());
    }
}
