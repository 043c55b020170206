//! The rule-book rule a ruling rests on, as data: which case of the WXF rules applies, with the
//! rules' numbers and the nearest diagrams of the WXF manual. The words are the renderer's.

use super::Decision;
use super::report::CycleReport;
use crate::judge::{Verdict, Violation};
use crate::piece::PieceKind;

/// Which case of the WXF repetition rules a ruling is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleCase {
    /// Perpetual check loses.
    PerpetualCheckLoses,
    /// Both sides checking perpetually is a draw.
    MutualCheck,
    /// One side checking and the other chasing is a draw.
    CheckAgainstChase,
    /// A rook may not be perpetually chased.
    RookChased,
    /// An unprotected cannon may not be perpetually chased.
    CannonChased,
    /// An unprotected horse may not be perpetually chased.
    HorseChased,
    /// An unprotected piece (advisor, elephant, pawn) may not be perpetually chased.
    PieceChased,
    /// Both sides chasing perpetually is a draw.
    MutualChase,
    /// One piece chasing two pieces in turn, or two chasing two, is not a perpetual chase.
    ChaseInTurn,
    /// A repetition in which neither side violates is a draw.
    NoViolation,
}

impl RuleCase {
    /// The numbers of the rule-book rules for the case (none for the rules as a whole).
    pub fn rules(self) -> &'static [u32] {
        match self {
            RuleCase::PerpetualCheckLoses => &[6],
            RuleCase::MutualCheck => &[7],
            RuleCase::CheckAgainstChase => &[12],
            RuleCase::RookChased => &[15, 19],
            RuleCase::CannonChased => &[18],
            RuleCase::HorseChased => &[23],
            RuleCase::PieceChased => &[25],
            RuleCase::MutualChase => &[24],
            RuleCase::ChaseInTurn => &[32],
            RuleCase::NoViolation => &[],
        }
    }

    /// The first and last number of the WXF manual's diagrams nearest the case, if any.
    pub fn diagrams(self) -> Option<(u32, u32)> {
        match self {
            RuleCase::PerpetualCheckLoses => Some((1, 1)),
            RuleCase::MutualCheck => Some((4, 4)),
            RuleCase::CheckAgainstChase => Some((13, 13)),
            RuleCase::RookChased => Some((18, 18)),
            RuleCase::CannonChased => Some((32, 32)),
            RuleCase::HorseChased => Some((49, 49)),
            RuleCase::PieceChased => Some((56, 56)),
            RuleCase::MutualChase => Some((51, 51)),
            RuleCase::ChaseInTurn => Some((76, 80)),
            RuleCase::NoViolation => None,
        }
    }
}

/// The case of the rule book a ruled repetition rests on, when one fits: read from the decision
/// and both sides' cycles (the most serious violation, whether both sides committed it, and for
/// a perpetual chase the most valuable kind of piece chased).
pub fn rule_case(decision: &Decision, cycles: &[CycleReport]) -> Option<RuleCase> {
    let worst = cycles.iter().map(|c| c.violation).max()?;
    let both = cycles.len() == 2 && cycles[0].violation == cycles[1].violation;
    Some(match (decision.verdict, worst, both) {
        (Verdict::Win(_), Violation::PerpetualCheck, _) => RuleCase::PerpetualCheckLoses,
        (Verdict::Draw, Violation::PerpetualCheck, true) => RuleCase::MutualCheck,
        (Verdict::Draw, Violation::PerpetualCheck, false) => RuleCase::CheckAgainstChase,
        (Verdict::Win(_), Violation::PerpetualChase, _) => {
            let chased = cycles
                .iter()
                .filter(|c| c.violation == Violation::PerpetualChase)
                .flat_map(|c| c.chased.iter().map(|(p, _)| p.kind))
                .min_by_key(|k| *k as u8)?;
            match chased {
                PieceKind::Rook => RuleCase::RookChased,
                PieceKind::Cannon => RuleCase::CannonChased,
                PieceKind::Horse => RuleCase::HorseChased,
                _ => RuleCase::PieceChased,
            }
        }
        (Verdict::Draw, Violation::PerpetualChase, true) => RuleCase::MutualChase,
        (_, Violation::Idle, _) if cycles.iter().any(|c| !c.chased_in_turn.is_empty()) => {
            RuleCase::ChaseInTurn
        }
        (_, Violation::Idle, _) => RuleCase::NoViolation,
        _ => return None,
    })
}
