//! What the relative notations (WXF in all its dialects, Chinese) share: a token is read as its
//! possible readings, patterns over the described legal moves, and the legal moves that fit the
//! preferred readings are kept.

use super::TokenError;
use crate::moves::{Move, MoveList};
use crate::piece::PieceKind;
use crate::position::Position;
use crate::record::describe::{Description, Direction, describe_origin, describe_to};
use arrayvec::ArrayVec;

/// How a token names the piece that moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Origin {
    /// By its file number.
    File(u8),
    /// By a tandem sign, on any file.
    Sign(Sign),
    /// By file number and tandem sign (official WXF for tandem pawns on two files: `3+.4`).
    FileSign(u8, Sign),
    /// By its place from the front on a given file (Fairy-Stockfish: `25=6`).
    Place { file: u8, place: u8 },
    /// By its place among all tandem pawns (xqbase `a`–`e`, Chinese 一–五).
    Tandem(u8),
}

/// Which of the pieces of a kind on one file is meant (front, middle, rear, and for four or more
/// pawns the front and rear ends).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sign {
    Front,
    Middle,
    Rear,
    FrontFront,
    RearRear,
}

impl Sign {
    fn fits(self, d: &Description) -> bool {
        let (n, i) = (d.on_file, d.place);
        match self {
            Sign::Front => matches!(n, 2 | 3) && i == 1 || n >= 4 && i == 2,
            Sign::Rear => matches!(n, 2 | 3) && i == n || n >= 4 && i == n - 1,
            Sign::Middle => n == 3 && i == 2 || n == 5 && i == 3,
            Sign::FrontFront => n >= 4 && i == 1,
            Sign::RearRear => n >= 4 && i == n,
        }
    }
}

/// One reading of a token's piece. Lower tiers are preferred: a reading of a higher tier is used
/// only when no lower-tier reading fits any legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pattern {
    tier: u8,
    kinds: u8,
    origin: Origin,
}

/// The bit of a piece kind in a set of kinds.
pub(super) const fn kind_bit(kind: PieceKind) -> u8 {
    1 << kind.index()
}

/// The pawn's bit: tandem pawns have forms of their own.
pub(super) const PAWN: u8 = kind_bit(PieceKind::Pawn);

impl Pattern {
    /// The tier at which the described move fits this reading, if it does.
    fn fits(&self, d: &Description) -> Option<u8> {
        if self.kinds & kind_bit(d.piece.kind) == 0 {
            return None;
        }
        match self.origin {
            Origin::File(f) => {
                if d.file != f {
                    return None;
                }
                // The file number names the piece outright when it is alone on its file, is an
                // advisor or elephant (always written by file), or is the middle one of three or
                // five pawns (official WXF); otherwise it is a loose reading.
                let odd_middle = d.piece.kind == PieceKind::Pawn
                    && !d.on_file.is_multiple_of(2)
                    && d.place == d.on_file.div_ceil(2);
                let strict = d.on_file == 1
                    || matches!(d.piece.kind, PieceKind::Advisor | PieceKind::Elephant)
                    || odd_middle;
                Some(if strict { self.tier } else { self.tier + 1 })
            }
            Origin::Sign(s) => s.fits(d).then_some(self.tier),
            Origin::FileSign(f, s) => (d.file == f && s.fits(d)).then_some(self.tier),
            Origin::Place { file, place } => {
                (d.file == file && d.place == place && d.on_file >= 2).then_some(self.tier)
            }
            Origin::Tandem(k) => (d.tandem_index == k).then_some(self.tier),
        }
    }
}

/// The readings of one token: the ways it may name the piece, with the direction and number it
/// ends with (the same for every reading).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Readings {
    direction: Direction,
    number: u8,
    patterns: ArrayVec<Pattern, 8>,
}

impl Readings {
    /// No readings yet of a token that ends with `direction` and `number`.
    pub(super) fn new(direction: Direction, number: u8) -> Readings {
        Readings {
            direction,
            number,
            patterns: ArrayVec::new(),
        }
    }

    /// Adds a reading: the piece is one of `kinds` (a set of [`kind_bit`]s), named by `origin`,
    /// preferred by its `tier` (lowest first).
    pub(super) fn add(&mut self, tier: u8, kinds: u8, origin: Origin) {
        let _ = self.patterns.try_push(Pattern {
            tier,
            kinds,
            origin,
        });
    }

    /// The readings, when there is at least one.
    pub(super) fn finish(self) -> Option<Readings> {
        (!self.patterns.is_empty()).then_some(self)
    }

    /// The tier at which the described move fits the best of these readings, if it fits one.
    fn fits(&self, d: &Description) -> Option<u8> {
        if d.direction != self.direction || d.number != self.number {
            return None;
        }
        self.patterns.iter().filter_map(|p| p.fits(d)).min()
    }

    /// The one legal move that fits the preferred readings.
    pub(super) fn resolve(&self, pos: &Position) -> Result<Move, TokenError> {
        let kinds = self.patterns.iter().fold(0u8, |acc, p| acc | p.kinds);
        let us = pos.side_to_move();
        let mut best = u8::MAX;
        let mut found = MoveList::new();
        // Only the pieces of the token's kinds are described, and legality is tested only for the
        // moves that fit.
        for kind in PieceKind::ALL {
            if kinds & kind_bit(kind) == 0 {
                continue;
            }
            for from in pos.pieces(us, kind) {
                let Some(origin) = describe_origin(pos, from) else {
                    continue;
                };
                for to in pos.pseudo_targets(from) {
                    let d = describe_to(pos, &origin, to);
                    let Some(tier) = self.fits(&d) else {
                        continue;
                    };
                    let m = Move::new(from, to);
                    if tier > best || !pos.is_legal(m) {
                        continue;
                    }
                    if tier < best {
                        best = tier;
                        found.clear();
                    }
                    let _ = found.try_push(m);
                }
            }
        }
        match found.as_slice() {
            [] => Err(TokenError::NoMatch),
            [m] => Ok(*m),
            many => Err(TokenError::Ambiguous(many.to_vec())),
        }
    }
}

/// A relative token's characters: such tokens are short (`C2=5`, `前炮二平五`).
pub(super) type TokenChars = ArrayVec<char, 8>;

/// The characters of a relative token; `None` when there are too many for one.
pub(super) fn token_chars(chars: impl Iterator<Item = char>) -> Option<TokenChars> {
    let mut out = TokenChars::new();
    for c in chars {
        out.try_push(c).ok()?;
    }
    Some(out)
}

/// A digit 1–9: a file number or a number of steps.
pub(super) fn digit(c: char) -> Option<u8> {
    c.to_digit(10)
        .filter(|d| (1..=9).contains(d))
        .map(|d| d as u8)
}
