//! Training records: one position in 32 bytes, oriented to the side to move, with its search score
//! and the game's result (the layout given in `nnue/README.md`).

use xq::piece::{Piece, PieceKind};
use xq::position::{Position, Validation};
use xq::square::{Color, Square};

/// Bytes in one record.
pub const RECORD_BYTES: usize = 32;

/// Game result from the side to move's point of view.
pub const LOSS: u8 = 0;
/// A drawn game.
pub const DRAW: u8 = 1;
/// A won game.
pub const WIN: u8 = 2;

/// One decoded record. Squares are oriented: the side to move sits on ranks 0–4 (Black's
/// positions are flipped top to bottom), and piece codes 0–6 are the side to move's king, advisor,
/// elephant, horse, rook, cannon, pawn, 7–13 the opponent's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// `(code, square)` for each piece, in square order.
    pub pieces: Vec<(u8, u8)>,
    /// Search score in centipawns for the side to move.
    pub score: i16,
    /// `LOSS`, `DRAW` or `WIN` for the side to move.
    pub result: u8,
    /// Free byte: the game ply divided by 8, saturated.
    pub flags: u8,
}

/// Why bytes are not a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// More than 32 occupied squares.
    TooManyPieces(u32),
    /// A piece code above 13.
    BadCode(u8),
    /// A result byte above 2.
    BadResult(u8),
    /// An occupancy bit beyond square 89.
    BadOccupancy,
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordError::TooManyPieces(n) => write!(f, "{n} pieces (at most 32)"),
            RecordError::BadCode(c) => write!(f, "piece code {c} (0-13)"),
            RecordError::BadResult(r) => write!(f, "result byte {r} (0-2)"),
            RecordError::BadOccupancy => write!(f, "occupancy bit beyond square 89"),
        }
    }
}

/// The oriented square of `sq` for a record whose side to move is `stm`.
#[inline]
pub fn orient(sq: Square, stm: Color) -> Square {
    match stm {
        Color::Red => sq,
        Color::Black => sq.flip(),
    }
}

/// The piece code of `piece` for a record whose side to move is `stm`.
#[inline]
pub fn code(piece: Piece, stm: Color) -> u8 {
    let rel = if piece.color == stm { 0 } else { 7 };
    rel + piece.kind.index() as u8
}

/// Encodes `pos` with its score and result (both for the side to move) and the game ply.
pub fn encode(pos: &Position, score: i16, result: u8, ply: usize) -> [u8; RECORD_BYTES] {
    let stm = pos.side_to_move();
    let mut pieces: Vec<(u8, u8)> = Square::all()
        .filter_map(|sq| {
            pos.piece_at(sq)
                .map(|p| (code(p, stm), orient(sq, stm).index() as u8))
        })
        .collect();
    pieces.sort_by_key(|&(_, sq)| sq);
    let mut out = [0u8; RECORD_BYTES];
    let mut occ: u128 = 0;
    for (i, &(c, sq)) in pieces.iter().enumerate() {
        occ |= 1u128 << sq;
        out[12 + i / 2] |= c << (4 * (i % 2));
    }
    out[..12].copy_from_slice(&occ.to_le_bytes()[..12]);
    out[28..30].copy_from_slice(&score.to_le_bytes());
    out[30] = result;
    out[31] = (ply / 8).min(255) as u8;
    out
}

/// Decodes one record.
pub fn decode(bytes: &[u8; RECORD_BYTES]) -> Result<Record, RecordError> {
    let mut occ_bytes = [0u8; 16];
    occ_bytes[..12].copy_from_slice(&bytes[..12]);
    let occ = u128::from_le_bytes(occ_bytes);
    if occ >> 90 != 0 {
        return Err(RecordError::BadOccupancy);
    }
    let count = occ.count_ones();
    if count > 32 {
        return Err(RecordError::TooManyPieces(count));
    }
    let mut pieces = Vec::with_capacity(count as usize);
    let mut rest = occ;
    let mut i = 0;
    while rest != 0 {
        let sq = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let c = (bytes[12 + i / 2] >> (4 * (i % 2))) & 15;
        if c > 13 {
            return Err(RecordError::BadCode(c));
        }
        pieces.push((c, sq));
        i += 1;
    }
    let result = bytes[30];
    if result > WIN {
        return Err(RecordError::BadResult(result));
    }
    Ok(Record {
        pieces,
        score: i16::from_le_bytes([bytes[28], bytes[29]]),
        result,
        flags: bytes[31],
    })
}

impl Record {
    /// The position the record describes, with the side to move as Red (oriented boards are
    /// always seen from the side to move).
    pub fn position(&self) -> Option<Position> {
        let mut board = [None; 90];
        for &(c, sq) in &self.pieces {
            let color = if c < 7 { Color::Red } else { Color::Black };
            let kind = PieceKind::ALL[(c % 7) as usize];
            board[sq as usize] = Some(Piece::new(color, kind));
        }
        Position::from_board(board, Color::Red, 0, 1, Validation::Lenient)
            .ok()
            .map(|(pos, _)| pos)
    }

    /// The same record reflected left–right (file f → 8 − f); the trainer mirrors its own
    /// samples, so this serves the tests that check it does so correctly.
    #[cfg(test)]
    pub fn mirrored(&self) -> Record {
        let mut pieces: Vec<(u8, u8)> = self
            .pieces
            .iter()
            .map(|&(c, sq)| (c, Square::from_index(sq).mirror().index() as u8))
            .collect();
        pieces.sort_by_key(|&(_, sq)| sq);
        Record {
            pieces,
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xq::fen;

    #[test]
    fn round_trip_keeps_pieces_score_and_result() {
        let pos =
            fen::parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1")
                .unwrap();
        let bytes = encode(&pos, -37, WIN, 17);
        let rec = decode(&bytes).unwrap();
        assert_eq!(rec.pieces.len(), 32);
        assert_eq!((rec.score, rec.result, rec.flags), (-37, WIN, 2));
        // Black to move: Black's king (own king, code 0) is flipped onto rank 0.
        assert!(rec.pieces.contains(&(0, 4)));
        assert!(rec.pieces.contains(&(7, 85)));
    }
}
