//! Attack and move-shape tables for every piece kind, built at compile time, with slow reference
//! versions kept as test oracles.
//!
//! Rooks and cannons look up the occupancy of their rank (9 bits) and file (10 bits) in small tables;
//! the file's bits are gathered with two multiplications. Horses and elephants test their leg and eye
//! squares directly.

use crate::bitboard::Bitboard;
use crate::square::{Color, Square};

// ---------------------------------------------------------------------------------------------
// Line tables for rooks and cannons.

/// Squares a rook on `pos` of a line of `len` points reaches, given the line's occupancy `occ`.
const fn line_rook(pos: u32, occ: u32, len: u32) -> u16 {
    let mut out = 0u16;
    let mut i = pos + 1;
    while i < len {
        out |= 1 << i;
        if occ >> i & 1 != 0 {
            break;
        }
        i += 1;
    }
    let mut i = pos as i32 - 1;
    while i >= 0 {
        out |= 1 << i;
        if occ >> i & 1 != 0 {
            break;
        }
        i -= 1;
    }
    out
}

/// Squares a cannon on `pos` captures on: the first occupied point beyond exactly one screen.
const fn line_cannon(pos: u32, occ: u32, len: u32) -> u16 {
    let mut out = 0u16;
    let mut screen = false;
    let mut i = pos + 1;
    while i < len {
        if occ >> i & 1 != 0 {
            if screen {
                out |= 1 << i;
                break;
            }
            screen = true;
        }
        i += 1;
    }
    let mut screen = false;
    let mut i = pos as i32 - 1;
    while i >= 0 {
        if occ >> i & 1 != 0 {
            if screen {
                out |= 1 << i;
                break;
            }
            screen = true;
        }
        i -= 1;
    }
    out
}

const fn build_line<const N: usize>(len: u32, cannon: bool) -> [u16; N] {
    let mut t = [0u16; N];
    let size = 1u32 << len;
    let mut pos = 0;
    while pos < len {
        let mut occ = 0;
        while occ < size {
            t[(pos * size + occ) as usize] = if cannon {
                line_cannon(pos, occ, len)
            } else {
                line_rook(pos, occ, len)
            };
            occ += 1;
        }
        pos += 1;
    }
    t
}

static RANK_ROOK: [u16; 9 * 512] = build_line::<{ 9 * 512 }>(9, false);
static RANK_CANNON: [u16; 9 * 512] = build_line::<{ 9 * 512 }>(9, true);
static FILE_ROOK: [u16; 10 * 1024] = build_line::<{ 10 * 1024 }>(10, false);
static FILE_CANNON: [u16; 10 * 1024] = build_line::<{ 10 * 1024 }>(10, true);

/// For each 10-bit file pattern, the bitboard with those ranks set on file `a`.
static FILE_SCATTER: [u128; 1024] = {
    let mut t = [0u128; 1024];
    let mut p = 0;
    while p < 1024 {
        let mut r = 0;
        while r < 10 {
            if p >> r & 1 != 0 {
                t[p] |= 1u128 << (9 * r);
            }
            r += 1;
        }
        p += 1;
    }
    t
};

/// Bits 0, 9, 18, 27, 36: five ranks of one file.
const FIVE_RANKS: u64 = 1 | 1 << 9 | 1 << 18 | 1 << 27 | 1 << 36;
/// Multiplier moving bit 9i to bit 59 + i (i < 5); every partial product lands on its own bit.
const GATHER: u64 = 1 << 59 | 1 << 51 | 1 << 43 | 1 << 35 | 1 << 27;

/// The occupancy of file `file` as 10 bits, rank 0 lowest.
#[inline(always)]
fn file_pattern(occ: u128, file: usize) -> usize {
    let x = occ >> file;
    let lo = ((x as u64) & FIVE_RANKS).wrapping_mul(GATHER) >> 59;
    let hi = (((x >> 45) as u64) & FIVE_RANKS).wrapping_mul(GATHER) >> 59;
    (lo | hi << 5) as usize
}

#[inline(always)]
fn line_attacks(
    sq: Square,
    occ: Bitboard,
    rank_table: &[u16; 4608],
    file_table: &[u16; 10240],
) -> Bitboard {
    let s = sq.index();
    let file = s % 9;
    let rank = s / 9;
    let rank_occ = (occ.0 >> (rank * 9)) as usize & 0x1ff;
    let along_rank = (rank_table[file * 512 + rank_occ] as u128) << (rank * 9);
    let along_file =
        FILE_SCATTER[file_table[rank * 1024 + file_pattern(occ.0, file)] as usize] << file;
    Bitboard(along_rank | along_file)
}

/// Squares a rook on `sq` reaches: empty squares up to and including the first piece each way.
#[inline]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    line_attacks(sq, occ, &RANK_ROOK, &FILE_ROOK)
}

/// Squares a cannon on `sq` captures on: the first piece beyond exactly one screen, each way.
/// Its quiet moves are `rook_attacks(sq, occ) - occ`.
#[inline]
pub fn cannon_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    line_attacks(sq, occ, &RANK_CANNON, &FILE_CANNON)
}

/// The squares strictly between `a` and `b` when they share a rank or file; empty otherwise.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    if a.rank() != b.rank() && a.file() != b.file() {
        return Bitboard::EMPTY;
    }
    rook_attacks(a, Bitboard::from_square(b)) & rook_attacks(b, Bitboard::from_square(a))
}

// ---------------------------------------------------------------------------------------------
// Leaper and step tables.

const fn bit(f: i32, r: i32) -> u128 {
    if f >= 0 && f < 9 && r >= 0 && r < 10 {
        1u128 << (r * 9 + f)
    } else {
        0
    }
}

const RED_PALACE: u128 = Bitboard::RED_PALACE.0;
const BLACK_PALACE: u128 = Bitboard::BLACK_PALACE.0;

const fn palace_of(s: usize) -> u128 {
    if RED_PALACE >> s & 1 != 0 {
        RED_PALACE
    } else if BLACK_PALACE >> s & 1 != 0 {
        BLACK_PALACE
    } else {
        0
    }
}

static KING_STEPS: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        t[s] = (bit(f + 1, r) | bit(f - 1, r) | bit(f, r + 1) | bit(f, r - 1)) & palace_of(s);
        s += 1;
    }
    t
};

static ADVISOR_STEPS: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        t[s] = (bit(f + 1, r + 1) | bit(f - 1, r + 1) | bit(f + 1, r - 1) | bit(f - 1, r - 1))
            & palace_of(s);
        s += 1;
    }
    t
};

/// For each square and each diagonal direction: (eye bit, target bit), zero when off the board or
/// across the river.
static ELEPHANT_STEPS: [[(u128, u128); 4]; 90] = {
    let mut t = [[(0u128, 0u128); 4]; 90];
    let dirs = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let side = if s < 45 {
            Bitboard::RED_SIDE.0
        } else {
            Bitboard::BLACK_SIDE.0
        };
        let mut d = 0;
        while d < 4 {
            let (df, dr) = dirs[d];
            let target = bit(f + 2 * df, r + 2 * dr) & side;
            if target != 0 {
                t[s][d] = (bit(f + df, r + dr), target);
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// For each square and each orthogonal leg: (leg bit, the two targets beyond it).
static HORSE_STEPS: [[(u128, u128); 4]; 90] = {
    let mut t = [[(0u128, 0u128); 4]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        t[s][0] = (bit(f, r + 1), bit(f + 1, r + 2) | bit(f - 1, r + 2));
        t[s][1] = (bit(f, r - 1), bit(f + 1, r - 2) | bit(f - 1, r - 2));
        t[s][2] = (bit(f + 1, r), bit(f + 2, r + 1) | bit(f + 2, r - 1));
        t[s][3] = (bit(f - 1, r), bit(f - 2, r + 1) | bit(f - 2, r - 1));
        let mut d = 0;
        while d < 4 {
            if t[s][d].0 == 0 {
                t[s][d].1 = 0;
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// For each square and each diagonal neighbour: (that neighbour's bit, the two squares from which a
/// horse whose leg is that neighbour attacks the square).
static HORSE_SOURCES: [[(u128, u128); 4]; 90] = {
    let mut t = [[(0u128, 0u128); 4]; 90];
    let dirs = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = dirs[d];
            let leg = bit(f + df, r + dr);
            if leg != 0 {
                t[s][d] = (leg, bit(f + 2 * df, r + dr) | bit(f + df, r + 2 * dr));
            }
            d += 1;
        }
        s += 1;
    }
    t
};

static PAWN_STEPS: [[u128; 90]; 2] = {
    let mut t = [[0u128; 90]; 2];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        t[0][s] = bit(f, r + 1)
            | if s >= 45 {
                bit(f + 1, r) | bit(f - 1, r)
            } else {
                0
            };
        t[1][s] = bit(f, r - 1)
            | if s < 45 {
                bit(f + 1, r) | bit(f - 1, r)
            } else {
                0
            };
        s += 1;
    }
    t
};

static PAWN_SOURCES: [[u128; 90]; 2] = {
    let mut t = [[0u128; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut from = 0;
        while from < 90 {
            let mut targets = PAWN_STEPS[c][from];
            while targets != 0 {
                let to = targets.trailing_zeros() as usize;
                t[c][to] |= 1u128 << from;
                targets &= targets - 1;
            }
            from += 1;
        }
        c += 1;
    }
    t
};

/// King steps from `sq`: one point orthogonally, inside the palace `sq` is in.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING_STEPS[sq.index()])
}

/// Advisor steps from `sq`: one point diagonally, inside the palace.
#[inline]
pub fn advisor_attacks(sq: Square) -> Bitboard {
    Bitboard(ADVISOR_STEPS[sq.index()])
}

/// Elephant moves from `sq`: two points diagonally when the eye is empty, never across the river.
#[inline]
pub fn elephant_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let mut out = 0;
    for &(eye, target) in &ELEPHANT_STEPS[sq.index()] {
        if eye & occ.0 == 0 {
            out |= target;
        }
    }
    Bitboard(out)
}

/// Horse moves from `sq`: one point orthogonally (the leg, which must be empty) then one diagonally.
#[inline]
pub fn horse_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let mut out = 0;
    for &(leg, targets) in &HORSE_STEPS[sq.index()] {
        if leg & occ.0 == 0 {
            out |= targets;
        }
    }
    Bitboard(out)
}

/// Squares from which a horse attacks `sq` (the leg is then a diagonal neighbour of `sq`).
#[inline]
pub fn horse_attackers_to(sq: Square, occ: Bitboard) -> Bitboard {
    let mut out = 0;
    for &(leg, sources) in &HORSE_SOURCES[sq.index()] {
        if leg & occ.0 == 0 {
            out |= sources;
        }
    }
    Bitboard(out)
}

/// The leg square of a horse on `from` jumping to `to` (which must be a horse step away).
#[inline]
pub fn horse_leg(from: Square, to: Square) -> Square {
    let (ff, fr) = (from.file().index() as i32, from.rank().index() as i32);
    let (tf, tr) = (to.file().index() as i32, to.rank().index() as i32);
    let (df, dr) = (tf - ff, tr - fr);
    let leg = if dr.abs() == 2 {
        Square::from_coords(ff, fr + dr / 2)
    } else {
        Square::from_coords(ff + df / 2, fr)
    };
    leg.expect("a horse step has its leg on the board")
}

/// Pawn steps of `color` from `sq`: forward, and sideways once across the river.
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_STEPS[color.index()][sq.index()])
}

/// Squares from which a pawn of `color` attacks `sq`.
#[inline]
pub fn pawn_attackers_to(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_SOURCES[color.index()][sq.index()])
}

/// Slow, obviously correct versions of the attack functions, kept as test oracles.
pub mod reference;

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator for sampled occupancies.
    fn sample_occupancies(n: usize) -> Vec<Bitboard> {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        (0..n)
            .map(|i| {
                let a = next() as u128 | (next() as u128) << 64;
                let b = next() as u128 | (next() as u128) << 64;
                // Vary the density: sparse, medium and dense boards.
                let bits = match i % 3 {
                    0 => a & b,
                    1 => a,
                    _ => a | b,
                };
                Bitboard(bits) & Bitboard::FULL
            })
            .collect()
    }

    #[test]
    fn sliders_match_reference() {
        for occ in sample_occupancies(300) {
            for sq in Square::all() {
                assert_eq!(rook_attacks(sq, occ), reference::rook(sq, occ), "rook {sq}");
                assert_eq!(
                    cannon_attacks(sq, occ),
                    reference::cannon(sq, occ),
                    "cannon {sq}"
                );
            }
        }
    }

    #[test]
    fn leapers_match_reference() {
        for occ in sample_occupancies(60) {
            for sq in Square::all() {
                assert_eq!(
                    horse_attacks(sq, occ),
                    reference::horse(sq, occ),
                    "horse {sq}"
                );
                assert_eq!(
                    horse_attackers_to(sq, occ),
                    reference::horse_attackers(sq, occ),
                    "horse attackers {sq}"
                );
                assert_eq!(
                    elephant_attacks(sq, occ),
                    reference::elephant(sq, occ),
                    "elephant {sq}"
                );
            }
        }
        for sq in Square::all() {
            assert_eq!(king_attacks(sq), reference::king(sq));
            assert_eq!(advisor_attacks(sq), reference::advisor(sq));
            for c in Color::ALL {
                assert_eq!(pawn_attacks(c, sq), reference::pawn(c, sq));
                let sources: Bitboard = Square::all()
                    .filter(|&p| reference::pawn(c, p).has(sq))
                    .collect();
                assert_eq!(pawn_attackers_to(c, sq), sources);
            }
        }
    }

    #[test]
    fn horse_legs() {
        for from in Square::all() {
            for to in horse_attacks(from, Bitboard::EMPTY) {
                let leg = horse_leg(from, to);
                assert!(!horse_attacks(from, Bitboard::from_square(leg)).has(to));
            }
        }
    }

    #[test]
    fn between_squares() {
        let a0 = Square::parse("a0").unwrap();
        let a9 = Square::parse("a9").unwrap();
        assert_eq!(between(a0, a9).count(), 8);
        assert_eq!(between(a0, Square::parse("b1").unwrap()), Bitboard::EMPTY);
        assert_eq!(between(a0, Square::parse("i0").unwrap()).count(), 7);
    }
}
