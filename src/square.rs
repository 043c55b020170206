//! Squares, files, ranks and colours of the 9×10 Xiangqi board, with their coordinate text.

use std::fmt;

/// A side: Red moves first and sits on ranks 0–4, Black on ranks 5–9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side that moves first, at the bottom (ranks 0–4).
    Red = 0,
    /// The second side, at the top (ranks 5–9).
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// The other side.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// English name, lower case.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.flip()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Red => "Red",
            Color::Black => "Black",
        })
    }
}

/// A file (column), `a` to `i` from Red's left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

impl File {
    /// Number of files.
    pub const COUNT: usize = 9;

    /// The file with index `i` (0 = `a`), if on the board.
    pub const fn new(i: u8) -> Option<File> {
        if i < 9 { Some(File(i)) } else { None }
    }

    /// Index 0..9.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The letter `a`..`i`.
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }

    /// The file seen from the other side of the board's vertical axis (`a` ↔ `i`).
    pub const fn mirror(self) -> File {
        File(8 - self.0)
    }
}

/// A rank (row), 0 on Red's back rank to 9 on Black's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    /// Number of ranks.
    pub const COUNT: usize = 10;

    /// The rank with index `i`, if on the board.
    pub const fn new(i: u8) -> Option<Rank> {
        if i < 10 { Some(Rank(i)) } else { None }
    }

    /// Index 0..10.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The rank seen from the other side (0 ↔ 9).
    pub const fn flip(self) -> Rank {
        Rank(9 - self.0)
    }
}

/// One of the 90 points, numbered rank-major: index = rank × 9 + file (`a0` = 0, `i9` = 89).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of squares.
    pub const COUNT: usize = 90;

    /// The square with index `i`, if on the board.
    #[inline]
    pub const fn new(i: u8) -> Option<Square> {
        if i < 90 { Some(Square(i)) } else { None }
    }

    /// The square with index `i`; the caller guarantees `i < 90`.
    #[inline]
    pub const fn from_index(i: u8) -> Square {
        debug_assert!(i < 90);
        Square(i)
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn at(file: File, rank: Rank) -> Square {
        Square(rank.0 * 9 + file.0)
    }

    /// The square at file index `f`, rank index `r`, if both are on the board.
    #[inline]
    pub const fn from_coords(f: i32, r: i32) -> Option<Square> {
        if f >= 0 && f < 9 && r >= 0 && r < 10 {
            Some(Square((r * 9 + f) as u8))
        } else {
            None
        }
    }

    /// Index 0..90.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file.
    #[inline]
    pub const fn file(self) -> File {
        File(self.0 % 9)
    }

    /// The rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 / 9)
    }

    /// The square reflected left–right (file f → 8 − f).
    pub const fn mirror(self) -> Square {
        Square::at(self.file().mirror(), self.rank())
    }

    /// The square reflected top–bottom (rank r → 9 − r).
    pub const fn flip(self) -> Square {
        Square::at(self.file(), self.rank().flip())
    }

    /// Whether the square lies on `color`'s own half (Red: ranks 0–4).
    #[inline]
    pub const fn on_own_side(self, color: Color) -> bool {
        match color {
            Color::Red => self.0 < 45,
            Color::Black => self.0 >= 45,
        }
    }

    /// All squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..90u8).map(Square)
    }

    /// Parses `a0`..`i9` (ranks 0–9).
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let r = b[1].wrapping_sub(b'0');
        if f < 9 && r < 10 {
            Some(Square(r * 9 + f))
        } else {
            None
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
            assert_eq!(Square::at(sq.file(), sq.rank()), sq);
            assert_eq!(sq.mirror().mirror(), sq);
            assert_eq!(sq.flip().flip(), sq);
        }
        assert_eq!(Square::parse("e0").unwrap().index(), 4);
        assert_eq!(Square::parse("i9").unwrap().index(), 89);
        assert_eq!(Square::parse("j0"), None);
        assert_eq!(Square::parse("a10"), None);
    }
}
