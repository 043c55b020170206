//! `Bitboard`: a set of squares as a `u128`, one bit per point (bits ≥ 90 always zero).

use crate::square::{Color, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

/// A set of squares. Bit `i` is the square with index `i`; bits 90..128 are always zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

/// The 90 bits that are on the board.
const BOARD_BITS: u128 = (1u128 << 90) - 1;

const fn file_a_bits() -> u128 {
    let mut b = 0u128;
    let mut r = 0;
    while r < 10 {
        b |= 1u128 << (r * 9);
        r += 1;
    }
    b
}

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 90 squares.
    pub const FULL: Bitboard = Bitboard(BOARD_BITS);
    /// Red's half, ranks 0–4.
    pub const RED_SIDE: Bitboard = Bitboard((1u128 << 45) - 1);
    /// Black's half, ranks 5–9.
    pub const BLACK_SIDE: Bitboard = Bitboard(BOARD_BITS ^ ((1u128 << 45) - 1));
    /// File `a`.
    pub const FILE_A: Bitboard = Bitboard(file_a_bits());
    /// Rank 0.
    pub const RANK_0: Bitboard = Bitboard(0x1ff);
    /// Red's palace (d0–f2).
    pub const RED_PALACE: Bitboard =
        Bitboard((0b111u128 << 3) | (0b111u128 << 12) | (0b111u128 << 21));
    /// Black's palace (d7–f9).
    pub const BLACK_PALACE: Bitboard =
        Bitboard((0b111u128 << 66) | (0b111u128 << 75) | (0b111u128 << 84));

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has two or more squares.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index(self.0.trailing_zeros() as u8))
        }
    }

    /// The highest square, if any.
    #[inline]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index((127 - self.0.leading_zeros()) as u8))
        }
    }

    /// The set with `sq` added.
    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1u128 << sq.index())
    }

    /// The set with `sq` removed.
    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << sq.index()))
    }

    /// The file `f` (0 = `a`).
    #[inline]
    pub const fn file(f: u8) -> Bitboard {
        Bitboard(file_a_bits() << f)
    }

    /// The rank `r` (0 = Red's back rank).
    #[inline]
    pub const fn rank(r: u8) -> Bitboard {
        Bitboard(0x1ffu128 << (9 * r as u32))
    }

    /// The half of the board that belongs to `color`.
    #[inline]
    pub const fn side(color: Color) -> Bitboard {
        match color {
            Color::Red => Bitboard::RED_SIDE,
            Color::Black => Bitboard::BLACK_SIDE,
        }
    }

    /// The palace of `color`.
    #[inline]
    pub const fn palace(color: Color) -> Bitboard {
        match color {
            Color::Red => Bitboard::RED_PALACE,
            Color::Black => Bitboard::BLACK_PALACE,
        }
    }

    /// The set reflected left–right.
    pub fn mirror(self) -> Bitboard {
        self.into_iter().map(Square::mirror).collect()
    }

    /// The set reflected top–bottom.
    pub fn flip(self) -> Bitboard {
        self.into_iter().map(Square::flip).collect()
    }
}

/// Iterates over the squares of a set, lowest first.
#[derive(Clone, Copy)]
pub struct Squares(u128);

impl Iterator for Squares {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::from_index(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        Some(sq)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;
    #[inline]
    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! binary_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
binary_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binary_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binary_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    /// Set difference.
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    /// Complement within the 90 squares.
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & BOARD_BITS)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard(")?;
        for r in (0..10u8).rev() {
            for file in 0..9u8 {
                let sq = Square::from_index(r * 9 + file);
                f.write_str(if self.has(sq) { "X" } else { "." })?;
            }
            writeln!(f)?;
        }
        write!(f, ")")
    }
}

/// Draws a bitboard from ten rows of nine `X`/`.` characters, rank 9 first (for tests and docs).
///
/// ```
/// use xq::bitboard;
/// let b = bitboard!(
///     ". . . . . . . . ."
///     ". . . . . . . . ."
///     ". . . . . . . . ."
///     ". . . . . . . . ."
///     ". . . . . . . . ."
///     ". . . . . . . . ."
///     ". . . . . . . . ."
///     ". . . . . . . . ."
///     ". . . . . . . . ."
///     "X . . . . . . . X"
/// );
/// assert_eq!(b.count(), 2);
/// ```
#[macro_export]
macro_rules! bitboard {
    ($($row:literal)*) => {{
        let rows: &[&str] = &[$($row),*];
        assert_eq!(rows.len(), 10, "a bitboard has ten rows");
        let mut bits = 0u128;
        for (i, row) in rows.iter().enumerate() {
            let rank = 9 - i;
            let cells: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
            assert_eq!(cells.len(), 9, "a row has nine cells");
            for (file, c) in cells.iter().enumerate() {
                if *c == 'X' {
                    bits |= 1u128 << (rank * 9 + file);
                }
            }
        }
        $crate::bitboard::Bitboard(bits)
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(Bitboard::FULL.count(), 90);
        assert_eq!(Bitboard::RED_SIDE.count(), 45);
        assert_eq!((Bitboard::RED_SIDE | Bitboard::BLACK_SIDE), Bitboard::FULL);
        assert_eq!(Bitboard::FILE_A.count(), 10);
        assert_eq!(Bitboard::RED_PALACE.count(), 9);
        assert_eq!(Bitboard::BLACK_PALACE, Bitboard::RED_PALACE.flip());
        assert_eq!(!Bitboard::EMPTY, Bitboard::FULL);
        let b: Bitboard = [Square::parse("a0").unwrap(), Square::parse("i9").unwrap()]
            .into_iter()
            .collect();
        assert_eq!(b.into_iter().count(), 2);
        assert_eq!(b.last().unwrap().to_string(), "i9");
    }
}
