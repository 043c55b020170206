//! Piece kinds and coloured pieces, with their FEN letters (including the E/H aliases).

use crate::square::Color;
use std::fmt;

/// The seven kinds of Xiangqi piece, in WXF English names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// King (general), FEN `k`.
    King = 0,
    /// Advisor (guard), FEN `a`.
    Advisor = 1,
    /// Elephant (minister, bishop), FEN `b`, also read as `e`.
    Elephant = 2,
    /// Horse (knight), FEN `n`, also read as `h`.
    Horse = 3,
    /// Rook (chariot), FEN `r`.
    Rook = 4,
    /// Cannon, FEN `c`.
    Cannon = 5,
    /// Pawn (soldier), FEN `p`.
    Pawn = 6,
}

impl PieceKind {
    /// The piece's material value in centipawns, king excluded: the exchange value that move
    /// ordering, SEE and the handcrafted evaluation's seed tables start from.
    pub const fn material(self) -> i32 {
        match self {
            PieceKind::King => 0,
            PieceKind::Advisor => 200,
            PieceKind::Elephant => 200,
            PieceKind::Horse => 420,
            PieceKind::Rook => 920,
            PieceKind::Cannon => 450,
            PieceKind::Pawn => 90,
        }
    }

    /// All kinds, king first.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::King,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Rook,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    /// Index 0..7.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Lower-case FEN letter.
    pub const fn fen_char(self) -> char {
        match self {
            PieceKind::King => 'k',
            PieceKind::Advisor => 'a',
            PieceKind::Elephant => 'b',
            PieceKind::Horse => 'n',
            PieceKind::Rook => 'r',
            PieceKind::Cannon => 'c',
            PieceKind::Pawn => 'p',
        }
    }

    /// Reads a FEN letter of either case, accepting `e` for elephant and `h` for horse.
    pub const fn from_fen_char(c: char) -> Option<PieceKind> {
        match c.to_ascii_lowercase() {
            'k' => Some(PieceKind::King),
            'a' => Some(PieceKind::Advisor),
            'b' | 'e' => Some(PieceKind::Elephant),
            'n' | 'h' => Some(PieceKind::Horse),
            'r' => Some(PieceKind::Rook),
            'c' => Some(PieceKind::Cannon),
            'p' => Some(PieceKind::Pawn),
            _ => None,
        }
    }

    /// English name, lower case.
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::King => "king",
            PieceKind::Advisor => "advisor",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Rook => "rook",
            PieceKind::Cannon => "cannon",
            PieceKind::Pawn => "pawn",
        }
    }

    /// How many of this kind a side starts with.
    pub const fn start_count(self) -> u32 {
        match self {
            PieceKind::King => 1,
            PieceKind::Pawn => 5,
            _ => 2,
        }
    }
}

/// A piece of one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Its kind.
    pub kind: PieceKind,
}

impl Piece {
    /// The piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// Index 0..14: Red kinds then Black kinds.
    #[inline]
    pub const fn index(self) -> usize {
        self.color.index() * 7 + self.kind.index()
    }

    /// FEN letter: upper case for Red.
    pub const fn fen_char(self) -> char {
        let c = self.kind.fen_char();
        match self.color {
            Color::Red => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// Reads a FEN letter (upper case = Red), with the E/H aliases.
    pub const fn from_fen_char(c: char) -> Option<Piece> {
        match PieceKind::from_fen_char(c) {
            Some(kind) => Some(Piece::new(
                if c.is_ascii_uppercase() {
                    Color::Red
                } else {
                    Color::Black
                },
                kind,
            )),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color.name(), self.kind.name())
    }
}
