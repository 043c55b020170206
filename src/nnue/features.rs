//! Input features: which of the 1260 inputs a piece on a square switches on, seen from Red's or
//! Black's side of the board, and for a king-bucketed net which part of the first layer a
//! perspective reads, chosen by where its own king stands.

use super::format::{INPUTS, KingLayout};
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

/// The feature `f` (an index below [`INPUTS`]) of the same piece on the left–right mirrored square
/// (file f → 8 − f).
#[inline]
pub const fn mirrored(f: usize) -> usize {
    let (piece, sq) = (f / 90, f % 90);
    piece * 90 + sq / 9 * 9 + (8 - sq % 9)
}

/// Which part of a king-bucketed first layer a perspective reads, and whether it sees the board
/// mirrored left to right; both follow from the net's [`KingLayout`] and from where the
/// perspective's own king stands in its palace, seen from its own side (rank 0 its back rank).
/// [`KingLayout::Mirrored`]: a king on file f is seen mirrored, on file d; the bucket is then
/// `rank × 2 + 1` on file e and `rank × 2` on file d, six in all. [`KingLayout::Palace`]: the
/// bucket is `rank × 3 + (file − d)`, nine in all, nothing mirrored. A net without king buckets
/// reads [`Orientation::PLAIN`] whatever the king's square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Orientation {
    /// The bucket's first row: bucket × [`INPUTS`].
    base: usize,
    /// Whether squares are mirrored left to right.
    mirror: bool,
}

impl Orientation {
    /// The one part of a net without king buckets, unmirrored.
    pub const PLAIN: Orientation = Orientation {
        base: 0,
        mirror: false,
    };

    /// The orientation, in a net of layout `kings`, of a perspective whose own king stands on
    /// `king`, an index below 90 on the board as that perspective sees it (its back rank is
    /// rank 0). Squares outside the palace, which no legal position has, fall into the nearest
    /// bucket.
    #[inline]
    pub const fn of_king(kings: KingLayout, king: usize) -> Orientation {
        let (rank, file) = (king / 9, king % 9);
        let rank = if rank > 2 { 2 } else { rank };
        match kings {
            KingLayout::Plain => Orientation::PLAIN,
            KingLayout::Mirrored => Orientation {
                base: (rank * 2 + (file == 4) as usize) * INPUTS,
                mirror: file > 4,
            },
            KingLayout::Palace => {
                let file = if file < 3 {
                    0
                } else if file > 5 {
                    2
                } else {
                    file - 3
                };
                Orientation {
                    base: (rank * 3 + file) * INPUTS,
                    mirror: false,
                }
            }
        }
    }

    /// The orientation, in a net of layout `kings`, of `perspective` with its king on `king` (a
    /// square of the board).
    #[inline]
    pub fn of(kings: KingLayout, perspective: Color, king: Square) -> Orientation {
        let seen = match perspective {
            Color::Red => king.index(),
            Color::Black => king.flip().index(),
        };
        Orientation::of_king(kings, seen)
    }

    /// The bucket, 0 to the layout's [`KingLayout::buckets`] − 1.
    #[inline]
    pub const fn bucket(self) -> usize {
        self.base / INPUTS
    }

    /// Whether the squares are mirrored.
    #[inline]
    pub const fn is_mirrored(self) -> bool {
        self.mirror
    }

    /// The first-layer row of feature `f` (an index below [`INPUTS`], as [`feature`] gives it).
    #[inline]
    pub const fn row(self, f: usize) -> usize {
        self.base + if self.mirror { mirrored(f) } else { f }
    }
}

const _: () = assert!(
    Orientation::of_king(KingLayout::Mirrored, 3 * 9 + 5).bucket()
        == KingLayout::Mirrored.buckets() - 2
);
const _: () = assert!(
    Orientation::of_king(KingLayout::Palace, 3 * 9 + 6).bucket()
        == KingLayout::Palace.buckets() - 1
);

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
    fn orientations_cover_the_palace() {
        let palace: Vec<usize> = (0..3)
            .flat_map(|rank| (3..6).map(move |file| rank * 9 + file))
            .collect();
        let mirrored_layout = KingLayout::Mirrored;
        let mut seen = [0; KingLayout::Mirrored.buckets()];
        for &k in &palace {
            let o = Orientation::of_king(mirrored_layout, k);
            assert!(o.bucket() < mirrored_layout.buckets());
            seen[o.bucket()] += 1;
            assert_eq!(o.is_mirrored(), k % 9 == 5);
            // A king and its mirror image read the same bucket.
            let m = k / 9 * 9 + 8 - k % 9;
            assert_eq!(
                Orientation::of_king(mirrored_layout, m).bucket(),
                o.bucket()
            );
        }
        // File e has one square a rank, files d and f share a bucket.
        for (b, n) in seen.iter().enumerate() {
            assert_eq!(*n, if b % 2 == 1 { 1 } else { 2 }, "bucket {b}");
        }
        // The palace layout gives each square its own bucket and mirrors nothing.
        let mut buckets: Vec<usize> = palace
            .iter()
            .map(|&k| {
                let o = Orientation::of_king(KingLayout::Palace, k);
                assert!(!o.is_mirrored());
                o.bucket()
            })
            .collect();
        buckets.sort_unstable();
        assert_eq!(
            buckets,
            (0..KingLayout::Palace.buckets()).collect::<Vec<_>>()
        );
        // A plain net reads its one part everywhere.
        for k in 0..90 {
            assert_eq!(
                Orientation::of_king(KingLayout::Plain, k),
                Orientation::PLAIN
            );
        }
        // Rows stay within the bucket and mirroring is an involution.
        for kings in KingLayout::ALL {
            for &k in &palace {
                let o = Orientation::of_king(kings, k);
                for f in 0..INPUTS {
                    let r = o.row(f);
                    assert!(r / INPUTS == o.bucket());
                    assert!(r < kings.rows());
                    assert_eq!(mirrored(mirrored(f)), f);
                }
            }
        }
        // Black's king on e9 is its own e0.
        let e9 = Square::parse("e9").unwrap();
        let e0 = Square::parse("e0").unwrap();
        for kings in KingLayout::ALL {
            assert_eq!(
                Orientation::of(kings, Color::Black, e9),
                Orientation::of(kings, Color::Red, e0)
            );
        }
        assert_eq!(Orientation::of(mirrored_layout, Color::Red, e0).bucket(), 1);
        assert_eq!(
            Orientation::of(KingLayout::Palace, Color::Red, e0).bucket(),
            1
        );
        let f8 = Square::parse("f8").unwrap();
        // Black's king on f8 is on its rank 1, file f.
        assert_eq!(
            Orientation::of(KingLayout::Palace, Color::Black, f8).bucket(),
            5
        );
        assert_eq!(Orientation::PLAIN.row(77), 77);
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
