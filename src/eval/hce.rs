//! The handcrafted evaluation: material, piece-square tables built at compile time, mobility of the
//! long-range pieces and the state of each king's guard.

use crate::attacks::{between, cannon_attacks, horse_attacks, pawn_attacks, rook_attacks};
use crate::bitboard::Bitboard;
use crate::piece::PieceKind;
use crate::position::Position;
use crate::square::{Color, Square};

/// Material values in centipawns, king excluded.
pub const fn material(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::King => 0,
        PieceKind::Advisor => 200,
        PieceKind::Elephant => 200,
        PieceKind::Horse => 420,
        PieceKind::Rook => 920,
        PieceKind::Cannon => 450,
        PieceKind::Pawn => 90,
    }
}

/// Positional value of `kind` on file `f`, rank `r`, from Red's side (rank 0 = own back rank).
const fn placement(kind: PieceKind, f: i32, r: i32) -> i32 {
    let centre = 4 - if f > 4 { f - 4 } else { 4 - f }; // 0 on the edge files, 4 in the middle
    match kind {
        PieceKind::King => -12 * r + if f == 4 { 5 } else { 0 },
        PieceKind::Advisor => {
            if f == 4 && r == 1 {
                8
            } else {
                0
            }
        }
        PieceKind::Elephant => {
            if f == 4 && r == 2 {
                8
            } else if r == 2 {
                -4
            } else {
                0
            }
        }
        PieceKind::Horse => {
            let advance = match r {
                0 => -15,
                1 => -5,
                2..=4 => 5,
                5..=7 => 25,
                8 => 15,
                _ => -5,
            };
            advance + 4 * centre - if f == 0 || f == 8 { 15 } else { 0 }
        }
        PieceKind::Rook => {
            let advance = match r {
                0 => -10,
                1..=4 => 0,
                5 => 10,
                6..=7 => 25,
                8 => 20,
                _ => 5,
            };
            advance + if f == 3 || f == 5 { 8 } else { 0 }
        }
        PieceKind::Cannon => {
            let file = if f == 4 {
                18
            } else if f == 1 || f == 7 {
                5
            } else {
                0
            };
            let rank = match r {
                2 => 6,
                7 => 12,
                9 => 8,
                _ => 0,
            };
            file + rank
        }
        PieceKind::Pawn => {
            if r < 5 {
                if r == 4 { 10 } else { 0 }
            } else {
                let advance = match r {
                    5 => 80,
                    6 => 100,
                    7 => 115,
                    8 => 110,
                    _ => 20,
                };
                advance
                    + if r >= 6 && r <= 8 {
                        6 * centre
                    } else {
                        2 * centre
                    }
            }
        }
    }
}

/// Material plus placement for each piece (index `Piece::index`) and square, from that piece's
/// side's point of view.
static PIECE_SQUARE: [[i32; 90]; 14] = {
    let mut t = [[0i32; 90]; 14];
    let kinds = PieceKind::ALL;
    let mut k = 0;
    while k < 7 {
        let mut s = 0;
        while s < 90 {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            let v = material(kinds[k]) + placement(kinds[k], f, r);
            t[k][s] = v; // Red
            t[7 + k][s] = {
                // Black sees the board flipped top to bottom.
                let (bf, br) = (f, 9 - r);
                material(kinds[k]) + placement(kinds[k], bf, br)
            };
            s += 1;
        }
        k += 1;
    }
    t
};

const TEMPO: i32 = 10;

/// The evaluation from the side to move's point of view, in centipawns.
pub fn evaluate(pos: &Position) -> i32 {
    let red = side_score(pos, Color::Red);
    let black = side_score(pos, Color::Black);
    let score = red - black;
    TEMPO
        + if pos.side_to_move() == Color::Red {
            score
        } else {
            -score
        }
}

fn side_score(pos: &Position, us: Color) -> i32 {
    let occ = pos.occupied();
    let own = pos.color_bb(us);
    let mut score = 0;
    for sq in own {
        let p = pos.piece_at(sq).expect("occupied");
        score += PIECE_SQUARE[p.index()][sq.index()];
    }

    // Mobility and pressure on the other side's palace, from one attack set per piece: palace
    // squares attacked, cannons lined up on the king's file, rooks on open lines to the king,
    // growing with the number of pieces that join the attack and the defender's missing advisors.
    let them = us.flip();
    let king = pos.king(them);
    let palace = Bitboard::palace(them);
    let mut hits = 0i32;
    let mut attackers = 0i32;
    let mut bonus = 0i32;
    for sq in pos.pieces(us, PieceKind::Rook) {
        let attacks = rook_attacks(sq, occ);
        score += 3 * (attacks - own).count() as i32;
        let n = (attacks & palace).count() as i32;
        if n > 0 {
            attackers += 1;
            hits += 2 * n;
        }
        if sq.file() == king.file() && (between(sq, king) & occ).is_empty() {
            bonus += 25;
        }
    }
    for sq in pos.pieces(us, PieceKind::Horse) {
        let attacks = horse_attacks(sq, occ);
        score += 5 * (attacks - own).count() as i32;
        let n = (attacks & palace).count() as i32;
        if n > 0 {
            attackers += 1;
            hits += 3 * n;
        }
    }
    for sq in pos.pieces(us, PieceKind::Cannon) {
        let captures = cannon_attacks(sq, occ);
        score += ((rook_attacks(sq, occ) - occ).count() + 2 * captures.count()) as i32;
        if sq.file() == king.file() {
            let screens = (between(sq, king) & occ).count();
            attackers += 1;
            bonus += match screens {
                0 => 45,
                2 => 20,
                _ => 5,
            };
        }
        let n = (captures & palace).count() as i32;
        if n > 0 {
            attackers += 1;
            hits += 2 * n;
        }
    }
    for sq in pos.pieces(us, PieceKind::Pawn) - Bitboard::side(us) {
        if (pawn_attacks(us, sq) & palace).any() {
            attackers += 1;
            hits += 2;
        }
    }
    let missing_advisors = 2 - pos.pieces(them, PieceKind::Advisor).count().min(2) as i32;
    let weight = match attackers {
        0 | 1 => 2,
        2 => 5,
        3 => 8,
        _ => 10,
    };
    let pressure = 3 * bonus + hits * weight * (2 + missing_advisors) * 3 / 8;
    score + pressure + guard_score(pos, us) + phase_adjustment(pos, us) + structure_score(pos, us)
}

/// Pawn and rook structure: crossed pawns side by side support each other; a rook on a file free
/// of its own pawns is worth more; a cannon on the other side's back rank pins the defence.
fn structure_score(pos: &Position, us: Color) -> i32 {
    let mut score = 0;
    let crossed = pos.pieces(us, PieceKind::Pawn) - Bitboard::side(us);
    for sq in crossed {
        let f = sq.file().index();
        if f < 8 && crossed.has(Square::from_index(sq.index() as u8 + 1)) {
            score += 20;
        }
    }
    let own_pawns = pos.pieces(us, PieceKind::Pawn);
    for sq in pos.pieces(us, PieceKind::Rook) {
        if (Bitboard::file(sq.file().index()) & own_pawns).is_empty() {
            score += 12;
        }
    }
    let back_rank = match us {
        Color::Red => Bitboard::rank(9),
        Color::Black => Bitboard::rank(0),
    };
    score += 15 * (pos.pieces(us, PieceKind::Cannon) & back_rank).count() as i32;
    score
}

/// Game phase from 256 (all rooks, horses and cannons on the board) down to 0 (none left).
fn phase(pos: &Position) -> i32 {
    let units = 6 * pos.kind_bb(PieceKind::Rook).count()
        + 3 * pos.kind_bb(PieceKind::Horse).count()
        + 3 * pos.kind_bb(PieceKind::Cannon).count();
    (units.min(48) * 256 / 48) as i32
}

/// Horses gain and cannons lose value as the board empties.
fn phase_adjustment(pos: &Position, us: Color) -> i32 {
    let endgame = 256 - phase(pos);
    let horses = pos.pieces(us, PieceKind::Horse).count() as i32;
    let cannons = pos.pieces(us, PieceKind::Cannon).count() as i32;
    (horses * 40 - cannons * 40) * endgame / 256
}

/// A king short of advisors or elephants is weaker the more attackers the other side has left.
fn guard_score(pos: &Position, us: Color) -> i32 {
    let them = us.flip();
    let attackers = (pos.pieces(them, PieceKind::Rook).count() * 2
        + pos.pieces(them, PieceKind::Horse).count()
        + pos.pieces(them, PieceKind::Cannon).count()) as i32;
    let missing_advisors = 2 - pos.pieces(us, PieceKind::Advisor).count().min(2) as i32;
    let missing_elephants = 2 - pos.pieces(us, PieceKind::Elephant).count().min(2) as i32;
    let crossed_pawns = (pos.pieces(them, PieceKind::Pawn) & Bitboard::side(us)).count() as i32;
    -(missing_advisors * 6 + missing_elephants * 4) * attackers - 4 * crossed_pawns * attackers / 2
}

/// The value a capture on `sq` wins, for move ordering and exchange evaluation.
#[inline]
pub fn piece_value(pos: &Position, sq: Square) -> i32 {
    pos.piece_at(sq).map_or(0, |p| material(p.kind))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen;

    #[test]
    fn symmetric() {
        let fens = [
            fen::START_FEN,
            "r1ba1kb2/8C/2nac1n1r/p1p1p1p1p/4c4/2P1P3P/P5PC1/R3B4/4AN3/1NBAK3R w - - 30 16",
            "2ra2b2/cC1nak1r1/7cn/P5p2/2b5p/2p6/RCPp2P1P/N3B3R/N8/2BAKA3 w - - 20 31",
        ];
        for f in fens {
            let pos = fen::parse(f).unwrap();
            assert_eq!(evaluate(&pos), evaluate(&pos.mirror()), "{f}");
            assert_eq!(evaluate(&pos), evaluate(&pos.color_swap()), "{f}");
        }
        assert_eq!(evaluate(&fen::parse(fen::START_FEN).unwrap()), TEMPO);
    }
}
