//! Input features: which of the 1260 inputs a piece on a square switches on, seen from Red's or
//! Black's side of the board.

use crate::piece::Piece;
use crate::position::Position;
use crate::square::{Color, Square};

/// The input feature of `piece` on `sq` for `perspective`: `rel × 630 + kind × 90 + sq'`, where
/// `rel` is 0 for the perspective's own pieces and 1 for the opponent's, and `sq'` is `sq` for Red
/// and the vertically flipped square (rank r → 9 − r) for Black, so both sides see their own
/// pieces at the bottom.
#[inline]
pub fn feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    let rel = usize::from(piece.color != perspective);
    let sq = match perspective {
        Color::Red => sq.index(),
        Color::Black => sq.flip().index(),
    };
    rel * 630 + piece.kind.index() * 90 + sq
}

/// The active features of `pos` for `perspective`, in square order (at most 32).
pub fn active_features(pos: &Position, perspective: Color) -> Vec<usize> {
    pos.occupied()
        .into_iter()
        .filter_map(|sq| pos.piece_at(sq).map(|p| feature(perspective, p, sq)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::format::INPUTS;
    use crate::piece::PieceKind;

    #[test]
    fn features_cover_the_inputs_once() {
        for perspective in Color::ALL {
            let mut seen = vec![false; INPUTS];
            for color in Color::ALL {
                for kind in PieceKind::ALL {
                    for sq in Square::all() {
                        let f = feature(perspective, Piece::new(color, kind), sq);
                        assert!(!seen[f], "feature {f} twice");
                        seen[f] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn known_indices() {
        let a0 = Square::from_index(0);
        let red_rook = Piece::new(Color::Red, PieceKind::Rook);
        let black_pawn = Piece::new(Color::Black, PieceKind::Pawn);
        assert_eq!(feature(Color::Red, red_rook, a0), 4 * 90);
        assert_eq!(feature(Color::Black, red_rook, a0), 630 + 4 * 90 + 81);
        assert_eq!(feature(Color::Black, black_pawn, a0), 6 * 90 + 81);
        assert_eq!(feature(Color::Red, black_pawn, a0), 630 + 6 * 90);
    }
}
