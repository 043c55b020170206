//! `Position`: the board, the side to move and the counters (what a FEN holds), plus derived caches
//! (Zobrist key, checkers). `play` is the only code that changes a position.

use crate::attacks::{
    advisor_attacks, cannon_attacks, elephant_attacks, horse_attackers_to, horse_attacks,
    king_attacks, pawn_attackers_to, pawn_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::moves::{IllegalMove, Move};
use crate::piece::{Piece, PieceKind};
use crate::square::{Color, Square};
use crate::zobrist;
use std::fmt;

/// A Xiangqi position. A value: clone it to keep the old one (copy-make).
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    board: [Option<Piece>; 90],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 7],
    side: Color,
    key: u64,
    halfmoves: u32,
    fullmoves: u32,
    checkers: Bitboard,
}

/// How a game stands on the board when the side to move has no legal move. Either way the side
/// to move has lost (in Xiangqi a stalemate loses too).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// In check with no legal move.
    Checkmate,
    /// Not in check, with no legal move.
    Stalemate,
}

/// Why a board cannot be a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A side has no king.
    MissingKing(Color),
    /// More pieces of a kind than a side starts with.
    TooMany {
        /// The piece.
        piece: Piece,
        /// How many stand on the board.
        count: u32,
    },
    /// A king outside its own palace.
    KingOutsidePalace(Color, Square),
    /// The two kings face each other on an open file.
    FacingKings,
    /// The side that just moved has its king in check.
    OpponentInCheck(Color),
    /// A piece stands where it can never get to (only with strict checking).
    Unreachable(Piece, Square),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::MissingKing(c) => write!(f, "{c} has no king"),
            PositionError::TooMany { piece, count } => write!(
                f,
                "{count} {}s on the board; a side has at most {}",
                piece,
                piece.kind.start_count()
            ),
            PositionError::KingOutsidePalace(c, sq) => {
                write!(f, "the {} king on {sq} is outside its palace", c.name())
            }
            PositionError::FacingKings => write!(f, "the kings face each other on an open file"),
            PositionError::OpponentInCheck(c) => {
                write!(f, "{c} is not to move but its king is in check")
            }
            PositionError::Unreachable(p, sq) => write!(f, "a {p} can never stand on {sq}"),
        }
    }
}

impl std::error::Error for PositionError {}

/// How strictly a board is checked when it becomes a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Validation {
    /// Pieces on squares they can never reach are errors.
    Strict,
    /// Pieces on squares they can never reach are reported as warnings (real diagrams have them).
    Lenient,
}

/// Whether `piece` can ever stand on `sq` in a game from the start position.
pub fn reachable(piece: Piece, sq: Square) -> bool {
    let own_side = sq.on_own_side(piece.color);
    let rel_rank = match piece.color {
        Color::Red => sq.rank().index(),
        Color::Black => 9 - sq.rank().index(),
    };
    let file = sq.file().index();
    match piece.kind {
        PieceKind::King => Bitboard::palace(piece.color).has(sq),
        PieceKind::Advisor => {
            Bitboard::palace(piece.color).has(sq)
                && (file + rel_rank) % 2 == 1
                && (file == 4) == (rel_rank == 1)
        }
        PieceKind::Elephant => {
            own_side && matches!((file, rel_rank), (2 | 6, 0 | 4) | (0 | 4 | 8, 2))
        }
        PieceKind::Pawn => rel_rank >= 5 || (rel_rank >= 3 && file.is_multiple_of(2)),
        PieceKind::Horse | PieceKind::Rook | PieceKind::Cannon => true,
    }
}

impl Position {
    /// Builds a position from a board and the counters, checking that it can be played from.
    /// Returns the position and, with lenient validation, the pieces on unreachable squares.
    pub fn from_board(
        board: [Option<Piece>; 90],
        side: Color,
        halfmoves: u32,
        fullmoves: u32,
        validation: Validation,
    ) -> Result<(Position, Vec<PositionError>), PositionError> {
        let mut pos = Position {
            board: [None; 90],
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 7],
            side,
            key: if side == Color::Black {
                zobrist::BLACK_TO_MOVE
            } else {
                0
            },
            halfmoves,
            fullmoves: fullmoves.max(1),
            checkers: Bitboard::EMPTY,
        };
        let mut warnings = Vec::new();
        for sq in Square::all() {
            if let Some(p) = board[sq.index()] {
                pos.put(p, sq);
                if !reachable(p, sq) && p.kind != PieceKind::King {
                    match validation {
                        Validation::Strict => return Err(PositionError::Unreachable(p, sq)),
                        Validation::Lenient => warnings.push(PositionError::Unreachable(p, sq)),
                    }
                }
            }
        }
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let count = pos.pieces(color, kind).count();
                if kind == PieceKind::King && count == 0 {
                    return Err(PositionError::MissingKing(color));
                }
                if count > kind.start_count() {
                    return Err(PositionError::TooMany {
                        piece: Piece::new(color, kind),
                        count,
                    });
                }
            }
            let k = pos.king(color);
            if !Bitboard::palace(color).has(k) {
                return Err(PositionError::KingOutsidePalace(color, k));
            }
        }
        let (rk, bk) = (pos.king(Color::Red), pos.king(Color::Black));
        if rk.file() == bk.file() && (crate::attacks::between(rk, bk) & pos.occupied()).is_empty() {
            return Err(PositionError::FacingKings);
        }
        let waiting = side.flip();
        if pos
            .attackers_to(pos.king(waiting), side, pos.occupied())
            .any()
        {
            return Err(PositionError::OpponentInCheck(waiting));
        }
        pos.checkers = pos.attackers_to(pos.king(side), waiting, pos.occupied());
        Ok((pos, warnings))
    }

    #[inline]
    fn put(&mut self, p: Piece, sq: Square) {
        let b = Bitboard::from_square(sq);
        self.board[sq.index()] = Some(p);
        self.by_color[p.color.index()] ^= b;
        self.by_kind[p.kind.index()] ^= b;
        self.key ^= zobrist::piece_key(p, sq);
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The Zobrist key of the board and side to move.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The Zobrist key after a pseudo-legal move `m`, without playing it.
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.board[from.index()] else {
            return self.key;
        };
        let captured = self.board[to.index()].map_or(0, |c| zobrist::piece_key(c, to));
        self.key
            ^ captured
            ^ zobrist::piece_key(piece, from)
            ^ zobrist::piece_key(piece, to)
            ^ zobrist::BLACK_TO_MOVE
    }

    /// Plies since the last capture.
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// Move number, starting at 1 and rising after each Black move.
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of all pieces of `kind`, both colours.
    #[inline]
    pub fn kind_bb(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// The squares of `color`'s pieces of `kind`.
    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }

    /// The square of `color`'s king.
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        self.pieces(color, PieceKind::King)
            .first()
            .expect("a position always has both kings")
    }

    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// Checkmate or stalemate when the side to move has no legal move; `None` while it has one.
    pub fn outcome(&self) -> Option<Outcome> {
        if crate::movegen::has_legal_move(self) {
            None
        } else if self.in_check() {
            Some(Outcome::Checkmate)
        } else {
            Some(Outcome::Stalemate)
        }
    }

    /// Pieces of `by` that attack `sq` when the board's occupancy is `occ`. The king counts as a rook
    /// along its file (the flying general), which is only ever reachable against the other king.
    #[inline]
    pub fn attackers_to(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let theirs = self.by_color[by.index()] & occ;
        let k = &self.by_kind;
        ((rook_attacks(sq, occ) & (k[PieceKind::Rook as usize] | k[PieceKind::King as usize]))
            | (cannon_attacks(sq, occ) & k[PieceKind::Cannon as usize])
            | (horse_attackers_to(sq, occ) & k[PieceKind::Horse as usize])
            | (pawn_attackers_to(by, sq) & k[PieceKind::Pawn as usize]))
            & theirs
    }

    /// Whether a piece of `by` in `theirs` attacks `sq` with occupancy `occ`.
    #[inline]
    pub(crate) fn attacked_by(
        &self,
        sq: Square,
        theirs: Bitboard,
        by: Color,
        occ: Bitboard,
    ) -> bool {
        let k = &self.by_kind;
        ((rook_attacks(sq, occ)
            & (k[PieceKind::Rook as usize] | k[PieceKind::King as usize])
            & theirs)
            .any())
            || ((cannon_attacks(sq, occ) & k[PieceKind::Cannon as usize] & theirs).any())
            || ((horse_attackers_to(sq, occ) & k[PieceKind::Horse as usize] & theirs).any())
            || ((pawn_attackers_to(by, sq) & k[PieceKind::Pawn as usize] & theirs).any())
    }

    /// Whether the pseudo-legal move `m` leaves the mover's king safe. The slow, general test. The
    /// mover is the colour of the piece on `m.from()`, whichever side is to move.
    #[inline]
    pub(crate) fn leaves_king_safe(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.board[from.index()] else {
            return false;
        };
        let us = piece.color;
        let occ = (self.occupied() - Bitboard::from_square(from)).with(to);
        let theirs = self.by_color[us.flip().index()].without(to);
        let ksq = if piece.kind == PieceKind::King {
            to
        } else {
            self.king(us)
        };
        !self.attacked_by(ksq, theirs, us.flip(), occ)
    }

    /// Whether the piece on `m.from()` could legally make `m` if its side were to move (the move
    /// shape fits and its own king is not left attacked). Used to ask what the side that just moved
    /// threatens.
    pub fn can_move(&self, m: Move) -> bool {
        self.pseudo_targets(m.from()).has(m.to()) && self.leaves_king_safe(m)
    }

    /// The squares the piece on `from` could move to, ignoring whether its own king is left in
    /// check (pseudo-legal targets); empty if `from` is empty.
    pub fn pseudo_targets(&self, from: Square) -> Bitboard {
        let Some(p) = self.board[from.index()] else {
            return Bitboard::EMPTY;
        };
        let occ = self.occupied();
        let not_ours = !self.by_color[p.color.index()];
        let targets = match p.kind {
            PieceKind::King => king_attacks(from),
            PieceKind::Advisor => advisor_attacks(from),
            PieceKind::Elephant => elephant_attacks(from, occ),
            PieceKind::Horse => horse_attacks(from, occ),
            PieceKind::Rook => rook_attacks(from, occ),
            PieceKind::Cannon => {
                (rook_attacks(from, occ) - occ)
                    | (cannon_attacks(from, occ) & self.by_color[p.color.flip().index()])
            }
            PieceKind::Pawn => pawn_attacks(p.color, from),
        };
        targets & not_ours
    }

    /// Whether `m` is a legal move for the side to move. Agrees exactly with the move generator.
    pub fn is_legal(&self, m: Move) -> bool {
        match self.board[m.from().index()] {
            Some(p) if p.color == self.side => {
                self.pseudo_targets(m.from()).has(m.to()) && self.leaves_king_safe(m)
            }
            _ => false,
        }
    }

    /// `m` if it is legal here, else the error naming it, this position and `ply` (the ply the
    /// move would have been in its game).
    pub fn check_legal(&self, m: Move, ply: usize) -> Result<Move, IllegalMove> {
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(IllegalMove {
                mv: m,
                fen: self.to_string(),
                ply,
            })
        }
    }

    /// The piece `m` would capture, if any.
    #[inline]
    pub fn captured(&self, m: Move) -> Option<Piece> {
        self.board[m.to().index()]
    }

    /// Plays a legal move, returning the captured piece. The move must be legal (see `is_legal`);
    /// debug builds check it and recompute every incremental field afterwards.
    #[inline]
    pub fn play(&mut self, m: Move) -> Option<Piece> {
        debug_assert!(self.is_legal(m), "illegal move {m} in {self}");
        let (from, to) = (m.from(), m.to());
        let piece = self.board[from.index()].expect("a move starts on a piece");
        let captured = self.board[to.index()];
        let from_to = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.key = self.key_after(m);
        if let Some(c) = captured {
            let tb = Bitboard::from_square(to);
            self.by_color[c.color.index()] ^= tb;
            self.by_kind[c.kind.index()] ^= tb;
            self.halfmoves = 0;
        } else {
            self.halfmoves = self.halfmoves.saturating_add(1);
        }
        self.by_color[piece.color.index()] ^= from_to;
        self.by_kind[piece.kind.index()] ^= from_to;
        self.board[from.index()] = None;
        self.board[to.index()] = Some(piece);
        if self.side == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.side = self.side.flip();
        self.checkers = self.attackers_to(self.king(self.side), self.side.flip(), self.occupied());
        #[cfg(debug_assertions)]
        self.check_incremental_state();
        captured
    }

    /// Recomputes the key, bitboards and checkers from the mailbox and compares (debug builds).
    #[cfg(debug_assertions)]
    fn check_incremental_state(&self) {
        let mut key = if self.side == Color::Black {
            zobrist::BLACK_TO_MOVE
        } else {
            0
        };
        let mut by_color = [Bitboard::EMPTY; 2];
        let mut by_kind = [Bitboard::EMPTY; 7];
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                key ^= zobrist::piece_key(p, sq);
                by_color[p.color.index()] = by_color[p.color.index()].with(sq);
                by_kind[p.kind.index()] = by_kind[p.kind.index()].with(sq);
            }
        }
        assert_eq!(key, self.key, "incremental key");
        assert_eq!(by_color, self.by_color, "colour bitboards");
        assert_eq!(by_kind, self.by_kind, "kind bitboards");
        let checkers = self.attackers_to(self.king(self.side), self.side.flip(), self.occupied());
        assert_eq!(checkers, self.checkers, "checkers");
    }

    /// The same board with the other side to move ("passing"), as used to ask what the side that
    /// just moved threatens. `None` when the side to move is in check, since the other side could
    /// then capture the king.
    pub fn pass(&self) -> Option<Position> {
        if self.in_check() {
            return None;
        }
        let mut p = self.clone();
        p.side = self.side.flip();
        p.key ^= zobrist::BLACK_TO_MOVE;
        p.checkers = p.attackers_to(p.king(p.side), self.side, p.occupied());
        Some(p)
    }

    /// The key recomputed from scratch (for tests).
    pub fn recompute_key(&self) -> u64 {
        let mut key = if self.side == Color::Black {
            zobrist::BLACK_TO_MOVE
        } else {
            0
        };
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                key ^= zobrist::piece_key(p, sq);
            }
        }
        key
    }

    /// The position reflected left–right (same side to move).
    pub fn mirror(&self) -> Position {
        self.transformed(Square::mirror, false)
    }

    /// The position reflected top–bottom with colours and side to move swapped.
    pub fn color_swap(&self) -> Position {
        self.transformed(Square::flip, true)
    }

    fn transformed(&self, map: fn(Square) -> Square, swap: bool) -> Position {
        let mut board = [None; 90];
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                let color = if swap { p.color.flip() } else { p.color };
                board[map(sq).index()] = Some(Piece::new(color, p.kind));
            }
        }
        let side = if swap { self.side.flip() } else { self.side };
        Position::from_board(
            board,
            side,
            self.halfmoves,
            self.fullmoves,
            Validation::Lenient,
        )
        .expect("a reflected position is as valid as the original")
        .0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reachable_squares_counted() {
        for color in Color::ALL {
            let count = |kind| {
                Square::all()
                    .filter(|&sq| reachable(Piece::new(color, kind), sq))
                    .count()
            };
            assert_eq!(count(PieceKind::Advisor), 5);
            assert_eq!(count(PieceKind::Elephant), 7);
            assert_eq!(count(PieceKind::Pawn), 45 + 10);
            assert_eq!(count(PieceKind::King), 9);
        }
    }
}
