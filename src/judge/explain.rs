//! Explanations of rulings: who violates, how, which pieces were chased and where, and over which
//! plies.

use super::history::History;
use super::{Verdict, Violation};
use crate::piece::{Piece, PieceKind};
use crate::square::{Color, Square};
use std::fmt::Write as _;

/// One side's part of a repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideCycle {
    /// The side.
    pub color: Color,
    /// How serious its moves in the cycle were.
    pub violation: Violation,
    /// The ply of the earlier occurrence of the repeated position.
    pub first_ply: usize,
    /// The ply of the latest occurrence.
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
    /// Whether any part of the ruling rests on a move whose reply is not known yet.
    pub fn is_provisional(&self) -> bool {
        self.cycles.is_some_and(|c| c.iter().any(|s| s.provisional))
    }

    /// A paragraph for people: the verdict, each side's violation, the chased pieces with their
    /// squares over the cycle, and the cycle's moves.
    pub fn explain(&self, history: &History) -> String {
        let mut out = String::new();
        let Some(cycles) = self.cycles else {
            let _ = write!(out, "no repetition at ply {}", self.ply);
            return out;
        };
        let _ = match self.verdict {
            Verdict::Draw => write!(out, "draw by repetition at ply {}", self.ply),
            Verdict::Win(c) => write!(out, "{c} wins by repetition at ply {}", self.ply),
            Verdict::Undecided => write!(out, "undecided at ply {}", self.ply),
        };
        if self.is_provisional() {
            out.push_str(" (provisional: the last move's reply is not known)");
        }
        for cycle in cycles {
            let _ = write!(
                out,
                "\n  {}: {} over plies {}-{}",
                cycle.color,
                cycle.violation.name(),
                cycle.first_ply + 1,
                cycle.last_ply
            );
            // The side's own moves in the cycle (it is to move at `first_ply`).
            let moves: Vec<String> = (cycle.first_ply + 1..=cycle.last_ply)
                .step_by(2)
                .filter_map(|p| history.records().get(p).and_then(|r| r.mv))
                .map(|m| m.to_string())
                .collect();
            let _ = write!(out, " with {}", moves.join(" "));
            for (piece, squares) in cycle.chased_pieces(history) {
                let squares: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
                let _ = write!(out, "; chased {piece} {}", squares.join(", "));
            }
        }
        out
    }
}
