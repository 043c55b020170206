//! Legal move generation: pure functions over `&Position`, selected by `GenType`.
//!
//! Moves are generated pseudo-legally piece by piece, then filtered. Before generating, the king's
//! lines are examined once: a move needs the full "is my king attacked afterwards" test only if the
//! side is in check, the king moves, the piece leaves a square that shields the king (from a rook or
//! the other king behind one piece, a cannon behind two, or a horse through its leg), or it lands
//! between the king and a cannon with nothing in between (becoming the cannon's screen). Every other
//! pseudo-legal move is legal.

use crate::attacks::{
    advisor_attacks, between, cannon_attacks, elephant_attacks, horse_attackers_to, horse_attacks,
    horse_leg, king_attacks, pawn_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveList};
use crate::piece::PieceKind;
use crate::position::Position;
use crate::square::Square;

/// Which legal moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenType {
    /// Every legal move (evasions when in check).
    Legal,
    /// Legal captures only.
    Captures,
    /// Legal non-captures only.
    Quiets,
}

/// Where the king's safety constrains moves.
struct KingShield {
    /// Our pieces that may be shielding the king: moving them needs the full test.
    shields: Bitboard,
    /// Empty squares between the king and a cannon with nothing in between: landing there needs the
    /// full test.
    open_cannon_lines: Bitboard,
}

fn king_shield(pos: &Position) -> KingShield {
    let us = pos.side_to_move();
    let them = us.flip();
    let k = pos.king(us);
    let occ = pos.occupied();
    let ours = pos.color_bb(us);
    let theirs = pos.color_bb(them);
    let rook_like = (pos.kind_bb(PieceKind::Rook) | pos.kind_bb(PieceKind::King)) & theirs;
    let cannons = pos.kind_bb(PieceKind::Cannon) & theirs;
    let first = rook_attacks(k, occ) & occ;
    let mut shields = Bitboard::EMPTY;
    // A rook or the other king behind exactly one piece.
    for p in cannon_attacks(k, occ) & rook_like {
        shields |= between(k, p);
    }
    // A cannon behind exactly two pieces.
    for p in cannon_attacks(k, occ - first) & cannons {
        shields |= between(k, p);
    }
    // A horse whose leg is occupied.
    for h in horse_attackers_to(k, Bitboard::EMPTY) & pos.pieces(them, PieceKind::Horse) {
        shields = shields.with(horse_leg(h, k));
    }
    let mut open_cannon_lines = Bitboard::EMPTY;
    for p in first & cannons {
        open_cannon_lines |= between(k, p);
    }
    KingShield {
        shields: shields & ours,
        open_cannon_lines,
    }
}

/// Receives generated moves.
trait Sink {
    /// Moves from `from` to each of `targets`, all known to be legal.
    fn add_all(&mut self, from: Square, targets: Bitboard);
    /// One legal move.
    fn add(&mut self, m: Move);
}

impl Sink for MoveList {
    #[inline(always)]
    fn add_all(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new(from, to));
        }
    }
    #[inline(always)]
    fn add(&mut self, m: Move) {
        self.push(m);
    }
}

struct Counter(u64);

impl Sink for Counter {
    #[inline(always)]
    fn add_all(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn add(&mut self, _m: Move) {
        self.0 += 1;
    }
}

#[inline(always)]
fn add_tested<S: Sink>(pos: &Position, sink: &mut S, from: Square, targets: Bitboard) {
    for to in targets {
        let m = Move::new(from, to);
        if pos.leaves_king_safe(m) {
            sink.add(m);
        }
    }
}

#[inline(always)]
fn generate_into<S: Sink>(pos: &Position, gen_type: GenType, sink: &mut S) {
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let ours = pos.color_bb(us);
    let theirs = pos.color_bb(us.flip());
    let mask = match gen_type {
        GenType::Legal => !ours,
        GenType::Captures => theirs,
        GenType::Quiets => !occ,
    };
    let in_check = pos.in_check();
    let shield = if in_check {
        KingShield {
            shields: Bitboard::FULL,
            open_cannon_lines: Bitboard::FULL,
        }
    } else {
        king_shield(pos)
    };

    let emit = |sink: &mut S, from: Square, targets: Bitboard| {
        if shield.shields.has(from) {
            add_tested(pos, sink, from, targets);
        } else {
            let risky = targets & shield.open_cannon_lines;
            sink.add_all(from, targets - risky);
            add_tested(pos, sink, from, risky);
        }
    };

    for from in pos.pieces(us, PieceKind::Rook) {
        emit(sink, from, rook_attacks(from, occ) & mask);
    }
    for from in pos.pieces(us, PieceKind::Cannon) {
        let mut targets = Bitboard::EMPTY;
        if gen_type != GenType::Captures {
            targets |= rook_attacks(from, occ) - occ;
        }
        if gen_type != GenType::Quiets {
            targets |= cannon_attacks(from, occ) & theirs;
        }
        emit(sink, from, targets);
    }
    for from in pos.pieces(us, PieceKind::Horse) {
        emit(sink, from, horse_attacks(from, occ) & mask);
    }
    for from in pos.pieces(us, PieceKind::Pawn) {
        emit(sink, from, pawn_attacks(us, from) & mask);
    }
    for from in pos.pieces(us, PieceKind::Advisor) {
        emit(sink, from, advisor_attacks(from) & mask);
    }
    for from in pos.pieces(us, PieceKind::Elephant) {
        emit(sink, from, elephant_attacks(from, occ) & mask);
    }
    let k = pos.king(us);
    add_tested(pos, sink, k, king_attacks(k) & mask);
}

/// Appends the legal moves of the given type to `list`.
pub fn generate(pos: &Position, gen_type: GenType, list: &mut MoveList) {
    generate_into(pos, gen_type, list);
}

/// All legal moves.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_into(pos, GenType::Legal, &mut list);
    list
}

/// The number of legal moves, without listing them.
pub fn count_legal(pos: &Position) -> u64 {
    let mut counter = Counter(0);
    generate_into(pos, GenType::Legal, &mut counter);
    counter.0
}

/// Whether the side to move has a legal move: stops at the first one found, which is what the
/// referee asks after every move, (the same test as `Position::is_legal`, piece by piece).
pub fn has_legal_move(pos: &Position) -> bool {
    let us = pos.side_to_move();
    [
        PieceKind::Rook,
        PieceKind::Horse,
        PieceKind::Cannon,
        PieceKind::Pawn,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::King,
    ]
    .into_iter()
    .flat_map(|kind| pos.pieces(us, kind))
    .any(|from| {
        pos.pseudo_targets(from)
            .into_iter()
            .any(|to| pos.is_legal(Move::new(from, to)))
    })
}

/// Whether the side to move has no legal move (checkmated or stalemated; both lose in Xiangqi).
pub fn no_legal_moves(pos: &Position) -> bool {
    !has_legal_move(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn has_legal_move_agrees_with_the_generator() {
        // A seeded random walk through many positions, including mates and stalemates.
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..200 {
            let mut pos = Position::startpos();
            for _ in 0..300 {
                assert_eq!(has_legal_move(&pos), count_legal(&pos) > 0, "{pos}");
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                pos.play(moves[(next() % moves.len() as u64) as usize]);
            }
        }
    }
}
