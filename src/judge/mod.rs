//! The WXF repetition judge: classifies each side's part of a repeated cycle as perpetual check,
//! perpetual chase or idle, and rules the repetition a win, loss or draw.
//!
//! A side's cycle runs from an earlier occurrence of the position it moved into back to that
//! position now. Its moves in the cycle are a perpetual check if every one gave check, a perpetual
//! chase if every one chased and some piece was chased by all of them, and idle otherwise. The more
//! serious violation loses (check > chase > idle); equal levels draw. No repetition can span a
//! capture or a forward pawn move.

pub mod chase;
pub mod explain;
pub mod history;
pub mod protection;

pub use explain::{Ruling, SideCycle};
pub use history::{History, IllegalMove, PieceId, Record, Status};
pub use protection::ProtectionPolicy;

use crate::square::Color;

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
    /// The level of a cycle from its moves' statuses or-ed together and the intersection of the
    /// pieces they chased: every move a check is perpetual check; every move a chase with some
    /// piece chased throughout is perpetual chase; anything else is idle.
    pub fn classify(combined: Status, chased: u16) -> Violation {
        if combined == Status::CHECK {
            Violation::PerpetualCheck
        } else if combined == Status::CHASE && chased != 0 {
            Violation::PerpetualChase
        } else {
            Violation::Idle
        }
    }

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

/// The judge's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleConfig {
    /// How many times a position must have occurred (counting the latest) to make a repetition:
    /// 2 is the first recurrence, 3 the usual game rule.
    pub occurrences: u32,
    /// How protection is judged, for histories built from this configuration (the referee and
    /// the engine create their `History` with it). The judging functions read the statuses the
    /// `History` worked out under its own policy (`History::policy`).
    pub protection: ProtectionPolicy,
}

impl Default for RuleConfig {
    fn default() -> RuleConfig {
        RuleConfig {
            occurrences: 3,
            protection: ProtectionPolicy::default(),
        }
    }
}

/// Classifies the cycle of the side to move at `ply`: walks back two plies at a time to the
/// `occurrences - 1`-th earlier occurrence of that position (the same side to move), combining the
/// statuses of the side's moves made inside the cycle and intersecting the pieces they chased.
/// Every such move has had its reply, so every status used is settled. `None` if there is no such
/// repetition since the last capture or forward pawn move.
pub fn side_cycle(history: &History, ply: usize, occurrences: u32) -> Option<SideCycle> {
    cycle(history, ply, occurrences, false)
}

/// Like `side_cycle`, but reading only checks: every move that is not a check counts as idle, so no
/// chase work is done. The "perpetual check loses, all else draws" rule, kept for comparison.
pub fn side_cycle_checks_only(
    history: &History,
    ply: usize,
    occurrences: u32,
) -> Option<SideCycle> {
    cycle(history, ply, occurrences, true)
}

fn cycle(history: &History, ply: usize, occurrences: u32, checks_only: bool) -> Option<SideCycle> {
    let records = history.records();
    if ply >= records.len() {
        return None;
    }
    let key = records[ply].key;
    let needed = occurrences.max(2) - 1;
    let mut found = 0;
    let mut combined = Status::empty();
    let mut chased = u16::MAX;
    let mut provisional = false;
    let mut j = ply;
    while j >= 2 {
        // The two moves leading back to position j - 2 must not be irreversible.
        if records[j].is_cancel() || records[j - 1].is_cancel() {
            return None;
        }
        j -= 2;
        // The side's move made from position j.
        let (status, set) = if checks_only {
            (
                if records[j + 1].gives_check() {
                    Status::CHECK
                } else {
                    Status::IDLE
                },
                0,
            )
        } else {
            history.status(j + 1)
        };
        provisional |= !history.is_settled(j + 1);
        combined |= status;
        if status == Status::CHASE {
            chased &= set;
        }
        if records[j].key == key {
            found += 1;
            if found == needed {
                let violation = Violation::classify(combined, chased);
                let color = history.position_at(ply).side_to_move();
                return Some(SideCycle {
                    color,
                    violation,
                    first_ply: j,
                    last_ply: ply,
                    chased: if violation == Violation::PerpetualChase {
                        chased
                    } else {
                        0
                    },
                    provisional,
                });
            }
        }
    }
    None
}

/// The verdict between two sides' cycles: equal levels draw, the more serious violation loses.
fn compare(a: &SideCycle, b: &SideCycle) -> Verdict {
    match a.violation.cmp(&b.violation) {
        std::cmp::Ordering::Equal => Verdict::Draw,
        std::cmp::Ordering::Greater => Verdict::Win(b.color),
        std::cmp::Ordering::Less => Verdict::Win(a.color),
    }
}

/// Judges the repetition at `ply`: the cycle of the side to move there and the cycle of the other
/// side, which was to move one ply earlier, must both exist. Only moves before `ply` are used, and
/// their statuses are all settled.
pub fn judge_at(history: &History, ply: usize, config: &RuleConfig) -> Ruling {
    let undecided = Ruling {
        verdict: Verdict::Undecided,
        ply,
        cycles: None,
    };
    if ply == 0 {
        return undecided;
    }
    let Some(to_move) = side_cycle(history, ply, config.occurrences) else {
        return undecided;
    };
    let Some(other) = side_cycle(history, ply - 1, config.occurrences) else {
        return undecided;
    };
    let verdict = compare(&to_move, &other);
    Ruling {
        verdict,
        ply,
        cycles: Some([to_move, other]),
    }
}

/// Judges the latest settled position: the one before the last move, whose reply (the last move)
/// settles the chase status of the move before it. This is the convention of the WXF case suite.
pub fn judge_before_reply(history: &History, config: &RuleConfig) -> Ruling {
    match history.plies() {
        0 => Ruling {
            verdict: Verdict::Undecided,
            ply: 0,
            cycles: None,
        },
        n => judge_at(history, n - 1, config),
    }
}

/// The judge inside search, with the beta cutoff of the reference paper (its section 5.2): rules
/// the position at `ply` from the point of view of the side to move there. If that side's own
/// cycle is idle (it cannot lose the repetition) and a draw already reaches beta
/// (`draw_reaches_beta`), a plain repetition test of the other side's position is enough: the
/// result can only be a draw or better, and a draw already cuts off.
pub fn judge_prune(
    history: &History,
    ply: usize,
    config: &RuleConfig,
    draw_reaches_beta: bool,
) -> Verdict {
    if ply == 0 {
        return Verdict::Undecided;
    }
    let Some(ours) = side_cycle(history, ply, config.occurrences) else {
        return Verdict::Undecided;
    };
    if ours.violation == Violation::Idle && draw_reaches_beta {
        return if repeats(history, ply - 1, config.occurrences) {
            Verdict::Draw
        } else {
            Verdict::Undecided
        };
    }
    let Some(theirs) = side_cycle(history, ply - 1, config.occurrences) else {
        return Verdict::Undecided;
    };
    compare(&ours, &theirs)
}

/// The "perpetual check loses, all else draws" judge: rules the position at `ply` like `judge_at`
/// but with `side_cycle_checks_only`. Used only to measure what the full rules cost and gain.
pub fn judge_checks_only(history: &History, ply: usize, occurrences: u32) -> Verdict {
    if ply == 0 {
        return Verdict::Undecided;
    }
    let (Some(ours), Some(theirs)) = (
        side_cycle_checks_only(history, ply, occurrences),
        side_cycle_checks_only(history, ply - 1, occurrences),
    ) else {
        return Verdict::Undecided;
    };
    compare(&ours, &theirs)
}

/// Whether the position at `ply` has occurred `occurrences` times in all since the last capture or
/// forward pawn move (keys only, no chase work).
pub fn repeats(history: &History, ply: usize, occurrences: u32) -> bool {
    let records = history.records();
    if ply >= records.len() {
        return false;
    }
    let key = records[ply].key;
    let needed = occurrences.max(2) - 1;
    let mut found = 0;
    let mut j = ply;
    while j >= 2 {
        if records[j].is_cancel() || records[j - 1].is_cancel() {
            return false;
        }
        j -= 2;
        if records[j].key == key {
            found += 1;
            if found == needed {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen;
    use crate::moves::Move;

    fn play(fen_text: &str, moves: &str) -> History {
        let (pos, _) = fen::parse_lenient(fen_text).unwrap();
        let mut h = History::new(pos, ProtectionPolicy::default());
        for m in moves.split_whitespace() {
            h.push(m.parse::<Move>().unwrap()).unwrap();
        }
        h
    }

    const CONFIG: RuleConfig = RuleConfig {
        occurrences: 2,
        protection: ProtectionPolicy::BeforeCapture,
    };

    #[test]
    fn prune_agrees_with_full_judge() {
        // Diagram 1: Red checks perpetually with the rook; Black's king steps are idle.
        let h = play(
            "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w",
            "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8",
        );
        for ply in 0..=h.plies() {
            let full = judge_at(&h, ply, &CONFIG).verdict;
            assert_eq!(judge_prune(&h, ply, &CONFIG, false), full, "ply {ply}");
            let pruned = judge_prune(&h, ply, &CONFIG, true);
            // With a draw enough for a cutoff, only a side that cannot lose may shortcut to a draw.
            if pruned != full {
                assert_eq!(pruned, Verdict::Draw);
                assert_eq!(full, Verdict::Win(h.position_at(ply).side_to_move()));
            }
        }
        assert_eq!(
            judge_at(&h, 6, &CONFIG).verdict,
            Verdict::Win(crate::square::Color::Black)
        );
    }

    #[test]
    fn no_repetition_is_undecided() {
        let h = play(fen::START_FEN, "h2e2 h9g7 h0g2 i9h9");
        for ply in 0..=h.plies() {
            assert_eq!(judge_at(&h, ply, &CONFIG).verdict, Verdict::Undecided);
            assert!(!repeats(&h, ply, 2));
        }
    }

    #[test]
    fn explanation_names_the_chased_piece() {
        // Case 57 (diagram 39): Red's rook keeps attacking Black's immobilised rook.
        let h = play(
            "2baka3/C4rN2/4b1n2/1Rp5p/6p2/2P6/4c1P1c/4B3C/4A4/4KAB2 w",
            "b6b8 f9e8 b8b6 e8f9 b6b8 f9e8 b8b6",
        );
        let ruling = judge_at(&h, 6, &CONFIG);
        assert_eq!(ruling.verdict, Verdict::Win(crate::square::Color::Black));
        let text = ruling.explain(&h);
        assert!(text.contains("perpetual chase"), "{text}");
        assert!(text.contains("chased black rook"), "{text}");
    }
}
