//! Endgame knowledge the evaluations cannot learn from their data: material with which the side
//! ahead cannot force mate, or as good as never can, applied as a scale on any evaluation's score
//! (handcrafted or net). From endgame theory:
//!
//! - no rook, horse, cannon or pawn: advisors and elephants never cross the river, so there is
//!   no mate (scale 0);
//! - a lone rook against both advisors and both elephants (单车难破士象全): a draw;
//! - a lone horse or a lone cannon against both advisors and both elephants: a draw;
//! - a lone cannon with no advisor or elephant of its own against a bare king: it has no screen
//!   to check over, no mate;
//! - a lone pawn on the last rank (老兵): it can no longer reach the palace's inside, no mate;
//! - a lone pawn against both advisors (单兵难胜双士): a draw.
//!
//! "Lone" means the side ahead has no other rook, horse, cannon or pawn; its own advisors and
//! elephants do not change these results.

use crate::piece::PieceKind;
use crate::position::Position;
use crate::square::Color;

/// A scale of `FULL` leaves the score as it is.
pub const FULL: i32 = 64;

/// The scale for a score that favours `strong`, out of [`FULL`].
pub fn scale(pos: &Position, strong: Color) -> i32 {
    let weak = strong.flip();
    let ours = pos.color_bb(strong);
    let attackers = ours
        & (pos.kind_bb(PieceKind::Rook)
            | pos.kind_bb(PieceKind::Horse)
            | pos.kind_bb(PieceKind::Cannon)
            | pos.kind_bb(PieceKind::Pawn));
    // Two attacking pieces of any kind: no rule below applies (the common case, kept cheap).
    if attackers.more_than_one() {
        return FULL;
    }
    let Some(attacker) = attackers.first() else {
        return 0;
    };
    let count = |color, kind| pos.pieces(color, kind).count();
    let Some(kind) = pos.piece_at(attacker).map(|piece| piece.kind) else {
        return FULL;
    };
    let advisors = count(weak, PieceKind::Advisor);
    let full_defence = advisors == 2 && count(weak, PieceKind::Elephant) == 2;
    match kind {
        PieceKind::Rook if full_defence => 8,
        PieceKind::Horse | PieceKind::Cannon if full_defence => 4,
        PieceKind::Cannon => {
            let own_screens =
                count(strong, PieceKind::Advisor) + count(strong, PieceKind::Elephant);
            let weak_bare = pos.color_bb(weak).count() == 1;
            if own_screens == 0 && weak_bare {
                0
            } else {
                FULL
            }
        }
        PieceKind::Pawn => {
            let last_rank = match strong {
                Color::Red => 9,
                Color::Black => 0,
            };
            if attacker.rank().index() == last_rank {
                0
            } else if advisors == 2 {
                8
            } else {
                FULL
            }
        }
        _ => FULL,
    }
}

/// `eval` (from the side to move's point of view) scaled for the material on the board.
#[inline]
pub fn apply(pos: &Position, eval: i32) -> i32 {
    let us = pos.side_to_move();
    let strong = if eval >= 0 { us } else { us.flip() };
    match scale(pos, strong) {
        FULL => eval,
        s => eval * s / FULL,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{EvalChoice, Evaluator};
    use crate::fen;

    fn scale_of(text: &str, strong: Color) -> i32 {
        scale(&fen::parse(text).unwrap(), strong)
    }

    #[test]
    fn known_draws_are_scaled_down() {
        // A lone rook against advisors and elephants, with and without its own defenders.
        let rook = "2bakab2/9/9/9/9/9/9/9/R8/3K5 w - - 0 1";
        assert_eq!(scale_of(rook, Color::Red), 8);
        assert_eq!(
            scale_of("2bakab2/9/9/9/9/9/9/4B4/4R4/3AKA3 w", Color::Red),
            8
        );
        // One elephant fewer: the rook wins, no scale.
        assert_eq!(scale_of("3akab2/9/9/9/9/9/9/9/R8/3K5 w", Color::Red), FULL);
        // A rook and a pawn: no rule.
        assert_eq!(
            scale_of("2bakab2/9/9/4P4/9/9/9/9/4R4/4K4 w", Color::Red),
            FULL
        );
        // A lone horse or cannon against full defenders.
        assert_eq!(scale_of("2bakab2/9/9/9/9/9/9/9/4N4/4K4 w", Color::Red), 4);
        assert_eq!(scale_of("2bakab2/9/9/9/9/9/9/9/4C4/4K4 b", Color::Red), 4);
        // A lone cannon against a bare king, with no screen of its own; with an advisor it mates.
        assert_eq!(scale_of("4k4/9/9/9/9/9/9/9/4C4/3K5 w", Color::Red), 0);
        assert_eq!(scale_of("4k4/9/9/9/9/9/9/4C4/4A4/3K5 w", Color::Red), FULL);
        // Pawns: on the last rank no mate; against two advisors a draw; against one a win.
        assert_eq!(scale_of("3k1P3/9/9/9/9/9/9/9/9/4K4 w", Color::Red), 0);
        assert_eq!(scale_of("3aka3/9/4P4/9/9/9/9/9/9/4K4 w", Color::Red), 8);
        assert_eq!(scale_of("4ka3/9/4P4/9/9/9/9/9/9/4K4 w", Color::Red), FULL);
        // Black's last rank is rank 0.
        assert_eq!(scale_of("4k4/9/9/9/9/9/9/9/9/3K1p3 b", Color::Black), 0);
        // Only advisors and elephants: never a mate.
        assert_eq!(scale_of("3k5/9/9/9/9/9/9/9/9/2BAKAB2 w", Color::Red), 0);
        // The opening position: no rule.
        assert_eq!(scale(&Position::startpos(), Color::Red), FULL);
    }

    #[test]
    fn both_evaluations_see_a_lone_rook_as_drawn() {
        let pos = fen::parse("2bakab2/9/9/9/9/9/9/9/R8/3K5 w - - 0 1").unwrap();
        let choices = [
            ("handcrafted", EvalChoice::Handcrafted),
            ("net", EvalChoice::Nnue(crate::nnue::Network::embedded())),
        ];
        for (name, choice) in choices {
            let score = Evaluator::new(&choice, &pos).evaluate(&pos);
            assert!(score.abs() < 100, "{name}: {score}");
            assert_eq!(score, choice.evaluate(&pos), "{name}");
        }
    }

    #[test]
    fn the_scale_keeps_the_sign() {
        let pos = fen::parse("2bakab2/9/9/9/9/9/9/9/R8/3K5 b - - 0 1").unwrap();
        // Black to move and behind: a negative score stays negative, only smaller.
        assert_eq!(apply(&pos, -400), -50);
        assert_eq!(apply(&pos, 0), 0);
        // A score for Black, who has nothing to mate with, comes to nothing.
        assert_eq!(apply(&pos, 300), 0);
    }
}
