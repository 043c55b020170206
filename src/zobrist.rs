//! Zobrist keys, generated at compile time from a fixed splitmix64 stream.

use crate::piece::Piece;
use crate::square::Square;

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

static PIECE_SQUARE: [[u64; 90]; 14] = {
    let mut t = [[0u64; 90]; 14];
    let mut state = 0x5851_f42d_4c95_7f2d_u64;
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < 90 {
            let (next, value) = splitmix(state);
            state = next;
            t[p][s] = value;
            s += 1;
        }
        p += 1;
    }
    t
};

/// Key of a piece standing on a square.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    PIECE_SQUARE[piece.index()][sq.index()]
}

/// Key toggled when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix(0x2545_f491_4f6c_dd1d).1;

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct() {
        let mut seen = HashSet::new();
        for row in PIECE_SQUARE.iter() {
            for &k in row {
                assert!(seen.insert(k));
            }
        }
        assert!(seen.insert(BLACK_TO_MOVE));
    }
}
