//! What a ruling rests on, as data for explanations: who violates, how, which pieces were chased
//! and where, over which plies, and why each chased piece counted as unprotected.

use super::chase::chase_threats;
use super::history::{History, Status};
use super::protection::{Protection, protection};
use super::{Verdict, Violation};
use crate::moves::Move;
use crate::piece::{Piece, PieceKind};
use crate::square::{Color, Square};

/// One side's part of a repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideCycle {
    /// The side.
    pub color: Color,
    /// How serious its moves in the cycle were.
    pub violation: Violation,
    /// The ply of the earlier occurrence of the repeated position.
    pub first_ply: usize,
    /// The ply of the latest occurrence; for a side that really changed moves with the move that
    /// completed the repetition, the ply of that move.
    pub last_ply: usize,
    /// For a perpetual chase: the indices of the opponent's pieces chased on every move.
    pub chased: u16,
    /// Whether the last move's status was read before its reply (threats taken as answered).
    pub provisional: bool,
}

impl SideCycle {
    /// The opponent's pieces this side chased on every move of its cycle, each with its squares
    /// at the side's turns over the cycle (first to last occurrence of the repeated position).
    pub fn chased_pieces(&self, history: &History) -> Vec<(Piece, Vec<Square>)> {
        let mut out = Vec::new();
        for index in 0..16u8 {
            if self.chased >> index & 1 == 0 {
                continue;
            }
            let id = History::piece_id(self.color.flip(), index);
            let squares: Vec<Square> = (self.first_ply..=self.last_ply)
                .step_by(2)
                .filter_map(|p| history.square_of(p, id))
                .collect();
            let kind = squares
                .first()
                .and_then(|&s| history.position_at(self.first_ply).piece_at(s))
                .map_or(PieceKind::Pawn, |p| p.kind);
            out.push((Piece::new(self.color.flip(), kind), squares));
        }
        out
    }

    /// The side's own moves in the cycle: plies `first_ply + 1`, `first_ply + 3`, ... up to
    /// `last_ply`.
    pub fn move_plies(&self) -> impl Iterator<Item = usize> + use<> {
        (self.first_ply + 1..=self.last_ply).step_by(2)
    }

    /// For an idle cycle in which every move of the side chased, but no one piece on every move
    /// (one piece chasing two in turn, or two chasing two, WXF rule 32): each piece chased, with
    /// its squares at the side's chasing moves. Empty otherwise.
    pub fn chased_in_turn(&self, history: &History) -> Vec<(Piece, Vec<Square>)> {
        if self.violation != Violation::Idle || !history.rules().set.reads_chases() {
            return Vec::new();
        }
        let mut each = Vec::new();
        for ply in self.move_plies() {
            match history.status(ply) {
                (Status::CHASE, pieces) => each.push((ply, pieces)),
                _ => return Vec::new(),
            }
        }
        let all = each.iter().fold(0u16, |acc, &(_, pieces)| acc | pieces);
        let mut out = Vec::new();
        for index in (0..16u8).filter(|i| all >> i & 1 == 1) {
            let id = History::piece_id(self.color.flip(), index);
            let plies: Vec<usize> = each
                .iter()
                .filter(|&&(_, pieces)| pieces >> index & 1 == 1)
                .map(|&(ply, _)| ply)
                .collect();
            let squares: Vec<Square> = plies
                .iter()
                .filter_map(|&ply| history.square_of(ply, id))
                .collect();
            let kind = plies
                .first()
                .zip(squares.first())
                .and_then(|(&ply, &square)| history.position_at(ply).piece_at(square))
                .map_or(PieceKind::Pawn, |p| p.kind);
            out.push((Piece::new(self.color.flip(), kind), squares));
        }
        out
    }

    /// Why each piece this side chased counted as unprotected, at the side's last move of the
    /// cycle: every attack on it that was a chase threat there, with the protection found.
    pub fn why_unprotected(&self, history: &History) -> Vec<ChaseWitness> {
        let mut out = Vec::new();
        let Some(ply) = self.move_plies().last() else {
            return out;
        };
        let Some(view) = history.position_at(ply).pass() else {
            return out;
        };
        let policy = history.rules().protection;
        let threats = chase_threats(&view, policy);
        for index in (0..16u8).filter(|i| self.chased >> i & 1 == 1) {
            let id = History::piece_id(self.color.flip(), index);
            let Some(square) = history.square_of(ply, id) else {
                continue;
            };
            for &(from, _) in threats.iter().filter(|(_, v)| *v == square) {
                let (Some(attacker), Some(victim)) = (view.piece_at(from), view.piece_at(square))
                else {
                    continue;
                };
                let protection = protection(&view, Move::new(from, square), policy);
                let defenders = match &protection {
                    Protection::Protected(d) => vec![*d],
                    Protection::DefendersFail(failures) => {
                        failures.iter().map(|&(d, _)| d).collect()
                    }
                    Protection::WorthMore | Protection::NoDefender => Vec::new(),
                }
                .into_iter()
                .filter_map(|d| view.piece_at(d).map(|p| (d, p)))
                .collect();
                out.push(ChaseWitness {
                    ply,
                    attacker,
                    from,
                    victim,
                    square,
                    protection,
                    defenders,
                });
            }
        }
        out
    }
}

/// An attack that made a chase, and why its victim counted as unprotected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChaseWitness {
    /// The ply of the chasing move.
    pub ply: usize,
    /// The attacking piece.
    pub attacker: Piece,
    /// The attacker's square.
    pub from: Square,
    /// The chased piece.
    pub victim: Piece,
    /// The chased piece's square.
    pub square: Square,
    /// Why the victim was not protected.
    pub protection: Protection,
    /// The pieces `protection` names, by square: the one that takes back, or each that cannot.
    pub defenders: Vec<(Square, Piece)>,
}

/// A ruling with what it rests on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruling {
    /// The verdict.
    pub verdict: Verdict,
    /// The ply judged.
    pub ply: usize,
    /// The two sides' cycles (the side that moved into the judged position first), when there is a
    /// repetition.
    pub cycles: Option<[SideCycle; 2]>,
}

impl Ruling {
    /// The cycle of the side the ruling goes against, if it goes against one.
    pub fn violator_cycle(&self) -> Option<&SideCycle> {
        let Verdict::Win(winner) = self.verdict else {
            return None;
        };
        self.cycles.as_ref()?.iter().find(|c| c.color != winner)
    }

    /// Whether any part of the ruling rests on a move whose reply is not known yet.
    pub fn is_provisional(&self) -> bool {
        self.cycles.is_some_and(|c| c.iter().any(|s| s.provisional))
    }
}
