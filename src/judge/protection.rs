//! Whether a threatened piece is protected, in the WXF sense: a defender can legally recapture.
//! The one place the protection policy lives.

use crate::attacks::{
    advisor_attacks, cannon_attacks, elephant_attacks, horse_attackers_to, king_attacks,
    pawn_attackers_to, rook_attacks,
};
use crate::moves::Move;
use crate::piece::PieceKind;
use crate::position::Position;

/// Which board the rook and cannon defenders are judged on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub enum ProtectionPolicy {
    /// Rook and cannon defenders are found with the occupancy before the capture (attacker still
    /// on its square), as the reference paper does, except that a cannon whose screen is the
    /// attacker itself is no protection: the screen leaves with the capture, so the cannon cannot
    /// take back (a false root, WXF rule 34). Leapers and legality use the board after it.
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

impl std::str::FromStr for ProtectionPolicy {
    type Err = String;

    fn from_str(s: &str) -> Result<ProtectionPolicy, String> {
        [
            ProtectionPolicy::SurvivingScreen,
            ProtectionPolicy::BeforeCapture,
            ProtectionPolicy::AfterCapture,
        ]
        .into_iter()
        .find(|p| p.name() == s)
        .ok_or_else(|| {
            format!("unknown protection policy {s:?} (surviving-screen, before or after)")
        })
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

/// Whether the victim of the capture `m` (legal for the attacker's side, which is to move in `pos`)
/// counts as protected: it is worth no more than its attacker and, after the capture, one of its
/// side's pieces can legally take back on its square.
pub fn is_protected(pos: &Position, m: Move, policy: ProtectionPolicy) -> bool {
    let (from, to) = (m.from(), m.to());
    let (Some(attacker), Some(victim)) = (pos.piece_at(from), pos.piece_at(to)) else {
        return false;
    };
    if chase_value(victim.kind) > chase_value(attacker.kind) {
        return false;
    }
    let mut after = pos.clone();
    after.play(m);
    let defender_side = victim.color;
    let occ_after = after.occupied();
    let line_occ = match policy {
        ProtectionPolicy::SurvivingScreen | ProtectionPolicy::BeforeCapture => pos.occupied(),
        ProtectionPolicy::AfterCapture => occ_after,
    };
    let mine = |kind| after.pieces(defender_side, kind);
    let mut cannons = cannon_attacks(to, line_occ) & mine(PieceKind::Cannon);
    if policy == ProtectionPolicy::SurvivingScreen {
        // The lines differ only on the attacker's square: a cannon reached before the capture but
        // not after it used the attacker as its screen.
        cannons &= cannon_attacks(to, occ_after);
    }
    let defenders = (advisor_attacks(to) & mine(PieceKind::Advisor))
        | (elephant_attacks(to, occ_after) & mine(PieceKind::Elephant))
        | (horse_attackers_to(to, occ_after) & mine(PieceKind::Horse))
        | (pawn_attackers_to(defender_side, to) & mine(PieceKind::Pawn))
        | (king_attacks(to) & mine(PieceKind::King))
        | (rook_attacks(to, line_occ) & mine(PieceKind::Rook))
        | cannons;
    defenders
        .into_iter()
        .any(|d| after.leaves_king_safe(Move::new(d, to)))
}
