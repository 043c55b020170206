//! `Score`: search values in centipawns, with mate distances encoded near the ends of the range.

use super::ordering::MAX_PLY;
use std::fmt;

/// A search value from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(pub i32);

/// The largest absolute value: mate at the root.
pub const MATE: i32 = 30_000;
/// Values at or beyond this (in absolute value) are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// A repetition lost under the WXF rules: a large value short of the mate range, so that a real
/// mate is still preferred and mate distances stay exact.
pub const REPETITION_LOSS: i32 = 20_000;
/// Values beyond this (in absolute value) are repetition rulings or mates: they belong to the
/// path that found them, not to the position alone.
pub const RULING_BOUND: i32 = REPETITION_LOSS - MAX_PLY as i32;
/// Outside every real value.
pub const INFINITE: i32 = 32_000;
/// The draw value.
pub const DRAW: i32 = 0;

impl Score {
    /// Being mated `ply` plies from the root.
    #[inline]
    pub const fn mated_in(ply: u32) -> Score {
        Score(-MATE + ply as i32)
    }

    /// Mating in `ply` plies from the root.
    #[inline]
    pub const fn mate_in(ply: u32) -> Score {
        Score(MATE - ply as i32)
    }

    /// Whether this is a mate score.
    #[inline]
    pub const fn is_mate(self) -> bool {
        self.0 >= MATE_BOUND || self.0 <= -MATE_BOUND
    }

    /// Whether this is an ordinary score: neither a mate nor a repetition ruling.
    #[inline]
    pub const fn is_ordinary(self) -> bool {
        self.0.abs() < RULING_BOUND
    }

    /// Moves (not plies) to mate, positive when the side to move mates, for protocol output.
    pub fn mate_moves(self) -> Option<i32> {
        if self.0 >= MATE_BOUND {
            Some((MATE - self.0 + 1) / 2)
        } else if self.0 <= -MATE_BOUND {
            Some(-(MATE + self.0) / 2)
        } else {
            None
        }
    }

    /// Stores a score in the transposition table: mate scores relative to the node, not the root.
    #[inline]
    pub const fn to_tt(self, ply: u32) -> i32 {
        if self.0 >= MATE_BOUND {
            self.0 + ply as i32
        } else if self.0 <= -MATE_BOUND {
            self.0 - ply as i32
        } else {
            self.0
        }
    }

    /// Reads a score stored with `to_tt` back at `ply`.
    #[inline]
    pub const fn from_tt(value: i32, ply: u32) -> Score {
        if value >= MATE_BOUND {
            Score(value - ply as i32)
        } else if value <= -MATE_BOUND {
            Score(value + ply as i32)
        } else {
            Score(value)
        }
    }
}

impl fmt::Display for Score {
    /// UCI style: `cp N` or `mate N`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mate_moves() {
            Some(m) => write!(f, "mate {m}"),
            None => write!(f, "cp {}", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_encoding() {
        assert_eq!(Score::mate_in(1).mate_moves(), Some(1));
        assert_eq!(Score::mate_in(3).mate_moves(), Some(2));
        assert_eq!(Score::mated_in(2).mate_moves(), Some(-1));
        assert_eq!(Score(150).mate_moves(), None);
        assert!(!Score(REPETITION_LOSS).is_mate());
        assert!(!Score(REPETITION_LOSS - 5).is_ordinary());
        assert!(!Score::mated_in(3).is_ordinary());
        assert!(Score(1_500).is_ordinary());
        let s = Score::mate_in(7);
        assert_eq!(Score::from_tt(s.to_tt(4), 4), s);
    }
}
