//! Which opponent pieces a side threatens in the WXF sense of a chase: a legal capture, by a horse,
//! rook, cannon, advisor or elephant, of an unprotected piece other than the king, that is not an
//! offer to exchange and not on an uncrossed pawn.

use super::protection::{ProtectionPolicy, is_protected};
use crate::moves::Move;
use crate::piece::PieceKind;
use crate::position::Position;
use crate::square::Square;

/// Whether the piece on `from` capturing the piece on `to` is a chase threat. The attacker's side
/// must be to move in `pos`.
pub fn is_chase_capture(
    pos: &Position,
    from: Square,
    to: Square,
    policy: ProtectionPolicy,
) -> bool {
    let (Some(attacker), Some(victim)) = (pos.piece_at(from), pos.piece_at(to)) else {
        return false;
    };
    if attacker.color != pos.side_to_move() || victim.color == attacker.color {
        return false;
    }
    if matches!(attacker.kind, PieceKind::King | PieceKind::Pawn) || victim.kind == PieceKind::King
    {
        return false;
    }
    // A pawn that has not crossed the river cannot be chased.
    if victim.kind == PieceKind::Pawn && to.on_own_side(victim.color) {
        return false;
    }
    let m = Move::new(from, to);
    if !pos.can_move(m) {
        return false;
    }
    // Same kinds that can take each other: an offer to exchange, not a chase.
    if victim.kind == attacker.kind && pos.can_move(Move::new(to, from)) {
        return false;
    }
    !is_protected(pos, m, policy)
}

/// Every chase threat of the side to move in `pos`, as (attacker square, victim square).
pub fn chase_threats(pos: &Position, policy: ProtectionPolicy) -> Vec<(Square, Square)> {
    let us = pos.side_to_move();
    let theirs = pos.color_bb(us.flip());
    let mut out = Vec::new();
    for kind in [
        PieceKind::Rook,
        PieceKind::Horse,
        PieceKind::Cannon,
        PieceKind::Advisor,
        PieceKind::Elephant,
    ] {
        for from in pos.pieces(us, kind) {
            for to in pos.pseudo_targets(from) & theirs {
                if is_chase_capture(pos, from, to, policy) {
                    out.push((from, to));
                }
            }
        }
    }
    out
}
