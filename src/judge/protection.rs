//! Whether a threatened piece is protected, in the WXF sense: a defender can legally recapture.
//! The one place the protection policy lives.

use crate::attacks::{
    advisor_attacks, cannon_attacks, elephant_attacks, horse_attackers_to, king_attacks,
    pawn_attackers_to, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::piece::PieceKind;
use crate::position::Position;
use crate::square::Square;

/// Which board the rook and cannon defenders are judged on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub enum ProtectionPolicy {
    /// Every defender is judged on the board after the capture (a real root), so a rook retakes
    /// along the line the capture opens; but a cannon protects only when its line does not depend
    /// on the attacker's square: not when the attacker is its screen (the screen leaves with the
    /// capture: a false root, WXF rule 34), and not when the attacker is a second screen that
    /// the capture takes away (the rulings of WXF rules 19 and 26 count no such root).
    #[default]
    SurvivingScreen,
    /// The reference paper's reading: rook and cannon defenders found with the occupancy before
    /// the capture, a cannon screened by the attacker included.
    BeforeCapture,
    /// Every defender is judged on the board after the capture ("real root" only).
    AfterCapture,
}

impl ProtectionPolicy {
    /// The name used on command lines and in test settings.
    pub fn name(self) -> &'static str {
        match self {
            ProtectionPolicy::SurvivingScreen => "surviving-screen",
            ProtectionPolicy::BeforeCapture => "before",
            ProtectionPolicy::AfterCapture => "after",
        }
    }
}

/// A protection policy name that names none: the name given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPolicy(pub String);

impl std::fmt::Display for UnknownPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown protection policy {:?} (surviving-screen, before or after)",
            self.0
        )
    }
}

impl std::error::Error for UnknownPolicy {}

impl std::str::FromStr for ProtectionPolicy {
    type Err = UnknownPolicy;

    fn from_str(s: &str) -> Result<ProtectionPolicy, UnknownPolicy> {
        [
            ProtectionPolicy::SurvivingScreen,
            ProtectionPolicy::BeforeCapture,
            ProtectionPolicy::AfterCapture,
        ]
        .into_iter()
        .find(|p| p.name() == s)
        .ok_or_else(|| UnknownPolicy(s.to_string()))
    }
}

/// Value of a piece for the rule that a piece worth more than its attacker is never protected
/// (a horse or cannon attacking a rook).
pub const fn chase_value(kind: PieceKind) -> u32 {
    match kind {
        PieceKind::Rook => 800,
        PieceKind::Horse | PieceKind::Cannon => 400,
        PieceKind::Advisor | PieceKind::Elephant | PieceKind::Pawn => 200,
        PieceKind::King => 10_000,
    }
}

/// Why the victim of a capture is, or is not, protected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Protection {
    /// The piece on this square can legally take back.
    Protected(Square),
    /// The victim is worth more than its attacker (a rook attacked by a horse or cannon): never
    /// protected.
    WorthMore,
    /// No piece of the victim's side reaches its square.
    NoDefender,
    /// Pieces reach the square but none can take back, each for the reason given.
    DefendersFail(Vec<(Square, DefenderFailure)>),
}

/// Why a piece that reaches the victim's square cannot take back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefenderFailure {
    /// A cannon whose screen would be the attacker itself, which leaves with the capture (a false
    /// root).
    ScreenIsAttacker,
    /// A cannon that would reach the square only once the capture takes the attacker out of its
    /// line, where the attacker is a second screen: a root that depends on the attacker's own
    /// square, which the rule book's rulings do not count (see `SurvivingScreen`).
    AttackerIsSecondScreen,
    /// Taking back would leave its own king in check or facing the other king.
    ExposesKing,
}

impl Protection {
    /// Whether the victim counts as protected.
    pub fn is_protected(&self) -> bool {
        matches!(self, Protection::Protected(_))
    }
}

/// The board after a capture, with the pieces of the victim's side that reach its square there
/// (`defenders`) and, under [`ProtectionPolicy::SurvivingScreen`], the cannons whose line to it
/// depends on the attacker's square (`screened`, not defenders, each with why).
struct Recapture {
    after: Position,
    defenders: Bitboard,
    screened: Vec<(Square, DefenderFailure)>,
}

/// The recapture of `m`, when the victim is worth no more than its attacker.
fn recapture(pos: &Position, m: Move, policy: ProtectionPolicy) -> Option<Recapture> {
    let (from, to) = (m.from(), m.to());
    let (Some(attacker), Some(victim)) = (pos.piece_at(from), pos.piece_at(to)) else {
        return None;
    };
    if chase_value(victim.kind) > chase_value(attacker.kind) {
        return None;
    }
    let mut after = pos.clone();
    after.play(m);
    let defender_side = victim.color;
    let occ_before = pos.occupied();
    let occ_after = after.occupied();
    let mine = |kind| after.pieces(defender_side, kind);
    // The lines before and after the capture differ only on the attacker's square.
    let rook_occ = match policy {
        ProtectionPolicy::BeforeCapture => occ_before,
        ProtectionPolicy::SurvivingScreen | ProtectionPolicy::AfterCapture => occ_after,
    };
    let cannons_before = cannon_attacks(to, occ_before) & mine(PieceKind::Cannon);
    let cannons_after = cannon_attacks(to, occ_after) & mine(PieceKind::Cannon);
    let mut screened = Vec::new();
    let cannons = match policy {
        ProtectionPolicy::BeforeCapture => cannons_before,
        ProtectionPolicy::AfterCapture => cannons_after,
        ProtectionPolicy::SurvivingScreen => {
            // A cannon reached before the capture but not after it used the attacker as its
            // screen; one reached only after it had the attacker as a second screen.
            screened.extend(
                (cannons_before & !cannons_after)
                    .into_iter()
                    .map(|sq| (sq, DefenderFailure::ScreenIsAttacker)),
            );
            screened.extend(
                (cannons_after & !cannons_before)
                    .into_iter()
                    .map(|sq| (sq, DefenderFailure::AttackerIsSecondScreen)),
            );
            cannons_before & cannons_after
        }
    };
    let defenders = (advisor_attacks(to) & mine(PieceKind::Advisor))
        | (elephant_attacks(to, occ_after) & mine(PieceKind::Elephant))
        | (horse_attackers_to(to, occ_after) & mine(PieceKind::Horse))
        | (pawn_attackers_to(defender_side, to) & mine(PieceKind::Pawn))
        | (king_attacks(to) & mine(PieceKind::King))
        | (rook_attacks(to, rook_occ) & mine(PieceKind::Rook))
        | cannons;
    Some(Recapture {
        after,
        defenders,
        screened,
    })
}

/// Whether the victim of the capture `m` (legal for the attacker's side, which is to move in `pos`)
/// counts as protected: it is worth no more than its attacker and, after the capture, one of its
/// side's pieces can legally take back on its square.
pub fn is_protected(pos: &Position, m: Move, policy: ProtectionPolicy) -> bool {
    recapture(pos, m, policy).is_some_and(|r| {
        r.defenders
            .into_iter()
            .any(|d| r.after.leaves_king_safe(Move::new(d, m.to())))
    })
}

/// Why the victim of the capture `m` is or is not protected (as [`is_protected`] decides, with
/// the reasons).
pub fn protection(pos: &Position, m: Move, policy: ProtectionPolicy) -> Protection {
    if pos.piece_at(m.from()).is_none() || pos.piece_at(m.to()).is_none() {
        return Protection::NoDefender;
    }
    let Some(r) = recapture(pos, m, policy) else {
        return Protection::WorthMore;
    };
    let mut failures = Vec::new();
    for d in r.defenders {
        if r.after.leaves_king_safe(Move::new(d, m.to())) {
            return Protection::Protected(d);
        }
        failures.push((d, DefenderFailure::ExposesKing));
    }
    failures.extend(r.screened);
    if failures.is_empty() {
        Protection::NoDefender
    } else {
        failures.sort_by_key(|(sq, _)| sq.index());
        Protection::DefendersFail(failures)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy_names_round_trip() {
        for policy in [
            ProtectionPolicy::SurvivingScreen,
            ProtectionPolicy::BeforeCapture,
            ProtectionPolicy::AfterCapture,
        ] {
            assert_eq!(policy.name().parse(), Ok(policy));
        }
        assert_eq!(
            "real".parse::<ProtectionPolicy>().unwrap_err().to_string(),
            "unknown protection policy \"real\" (surviving-screen, before or after)"
        );
    }

    #[test]
    fn a_cannon_screened_by_the_attacker_is_a_false_root() {
        // The red rook on e7 takes the black horse on e5; the black cannon on e9 reaches e5 only
        // over the rook, which the capture takes away.
        let pos = crate::fen::parse("4ck3/9/4R4/9/4n4/9/9/9/9/3K5 w - - 0 1").unwrap();
        let m: Move = "e7e5".parse().unwrap();
        let e9 = Square::parse("e9").unwrap();
        assert_eq!(
            protection(&pos, m, ProtectionPolicy::SurvivingScreen),
            Protection::DefendersFail(vec![(e9, DefenderFailure::ScreenIsAttacker)])
        );
        assert_eq!(
            protection(&pos, m, ProtectionPolicy::BeforeCapture),
            Protection::Protected(e9)
        );
        assert_eq!(
            protection(&pos, m, ProtectionPolicy::AfterCapture),
            Protection::NoDefender
        );
    }

    #[test]
    fn a_rook_takes_back_along_the_line_the_capture_opens() {
        // The red rook on g5 takes the black cannon on c5; the black rook on i5 stands behind it
        // and retakes once g5 is empty.
        let pos = crate::fen::parse("4k4/9/9/9/2c3R1r/9/9/9/9/3K5 w - - 0 1").unwrap();
        let m: Move = "g5c5".parse().unwrap();
        let i5 = Square::parse("i5").unwrap();
        for policy in [
            ProtectionPolicy::SurvivingScreen,
            ProtectionPolicy::AfterCapture,
        ] {
            assert_eq!(protection(&pos, m, policy), Protection::Protected(i5));
        }
        assert_eq!(
            protection(&pos, m, ProtectionPolicy::BeforeCapture),
            Protection::NoDefender
        );
    }

    #[test]
    fn a_cannon_whose_second_screen_is_the_attacker_is_no_root() {
        // The black cannon on i5 reaches c5 over the red pawn on h5 only once the capture takes
        // the red rook on g5 out of its line.
        let pos = crate::fen::parse("4k4/9/9/9/2c3RPc/9/9/9/9/3K5 w - - 0 1").unwrap();
        let m: Move = "g5c5".parse().unwrap();
        let i5 = Square::parse("i5").unwrap();
        assert_eq!(
            protection(&pos, m, ProtectionPolicy::SurvivingScreen),
            Protection::DefendersFail(vec![(i5, DefenderFailure::AttackerIsSecondScreen)])
        );
        assert_eq!(
            protection(&pos, m, ProtectionPolicy::AfterCapture),
            Protection::Protected(i5)
        );
    }
}
