//! The handcrafted evaluation: tapered piece-square values (material included), mobility, pressure
//! on the other palace, the king's guard, pawn and rook structure and threatened pieces. Each term
//! has a midgame and an endgame weight; the weights are tuned on self-play positions
//! (`xq-tools tune-hce`, from the hand-set ones of `hce_seed.rs`) and live in `hce_weights.rs`.
//!
//! The terms are counted once, by [`collect`], into a [`Terms`] sink: the engine's sink sums the
//! weights as it goes, the tuner's records how often each term occurs, so both always agree.

pub use super::hce_seed::seed_weights;
pub use super::hce_weights::WEIGHTS;
use crate::attacks::{
    advisor_attacks, between, cannon_attacks, elephant_attacks, horse_attacks, king_attacks,
    pawn_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::piece::{Piece, PieceKind};
use crate::position::Position;
use crate::square::{Color, Square};

/// One term's weight in centipawns: in the midgame (all rooks, horses and cannons on the board)
/// and in the endgame (none left); positions in between blend the two by [`phase`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weight {
    /// Midgame weight.
    pub mg: i32,
    /// Endgame weight.
    pub eg: i32,
}

/// A weight of `mg` in the midgame and `eg` in the endgame.
pub const fn w(mg: i32, eg: i32) -> Weight {
    Weight { mg, eg }
}

/// Term indices into the weight table. Counts are taken for one side and enter with a plus sign
/// for Red and a minus sign for Black.
pub mod term {
    /// Piece-square values: kind × 50 + relative rank × 5 + file folded to the centre (0 = edge
    /// file, 4 = middle file). Rank 0 is the side's own back rank.
    pub const PST: usize = 0;
    /// Rook moves (0–17), one term per count.
    pub const ROOK_MOBILITY: usize = PST + 7 * 50;
    /// Horse moves (0–8), one term per count.
    pub const HORSE_MOBILITY: usize = ROOK_MOBILITY + 18;
    /// Cannon quiet moves (0–17), one term per count.
    pub const CANNON_MOBILITY: usize = HORSE_MOBILITY + 9;
    /// Pieces of the other side a cannon can capture.
    pub const CANNON_TARGETS: usize = CANNON_MOBILITY + 18;
    /// Attacks on the other palace, grown by the number of attacking pieces and the defender's
    /// missing advisors (one unit per four points of pressure).
    pub const PALACE_PRESSURE: usize = CANNON_TARGETS + 1;
    /// A cannon on the other king's file with 0, 1, 2, 3 or more pieces between them.
    pub const CANNON_KING_FILE: usize = PALACE_PRESSURE + 1;
    /// A rook facing the other king on an open file.
    pub const ROOK_KING_FILE: usize = CANNON_KING_FILE + 4;
    /// Own missing advisors × the other side's attacking force.
    pub const MISSING_ADVISOR: usize = ROOK_KING_FILE + 1;
    /// Own missing elephants × the other side's attacking force.
    pub const MISSING_ELEPHANT: usize = MISSING_ADVISOR + 1;
    /// The other side's pawns across the river × its attacking force.
    pub const CROSSED_PAWN_DANGER: usize = MISSING_ELEPHANT + 1;
    /// Pawns across the river side by side.
    pub const CONNECTED_PAWNS: usize = CROSSED_PAWN_DANGER + 1;
    /// A rook on a file free of its own pawns.
    pub const ROOK_OPEN_FILE: usize = CONNECTED_PAWNS + 1;
    /// A cannon on the other side's back rank.
    pub const CANNON_BACK_RANK: usize = ROOK_OPEN_FILE + 1;
    /// Pieces of the side to move, by kind, attacked and either undefended or attacked by a
    /// cheaper piece.
    pub const THREATENED: usize = CANNON_BACK_RANK + 1;
    /// The side to move has two or more threatened pieces.
    pub const MULTIPLE_THREATS: usize = THREATENED + 7;
    /// Having the move.
    pub const TEMPO: usize = MULTIPLE_THREATS + 1;
    /// Number of terms.
    pub const COUNT: usize = TEMPO + 1;
}

/// Receives the terms of a position as they are counted.
pub trait Terms {
    /// `count` more occurrences of term `index` (negative for Black's).
    fn add(&mut self, index: usize, count: i32);

    /// `piece` stands on `sq` (a piece-square term, plus for Red and minus for Black).
    #[inline]
    fn add_piece(&mut self, piece: Piece, sq: Square) {
        let sign = if piece.color == Color::Red { 1 } else { -1 };
        self.add(pst_index(piece, sq), sign);
    }
}

/// The piece-square term of `piece` on `sq`.
pub const fn pst_index(piece: Piece, sq: Square) -> usize {
    let (f, r) = (sq.index() % 9, sq.index() / 9);
    let rank = match piece.color {
        Color::Red => r,
        Color::Black => 9 - r,
    };
    let folded = if f > 4 { 8 - f } else { f };
    term::PST + piece.kind.index() * 50 + rank * 5 + folded
}

/// Tapered piece-square weights per piece (`Piece::index`) and square, signed for Red.
static PIECE_SQUARE: [[(i32, i32); 90]; 14] = {
    let mut t = [[(0, 0); 90]; 14];
    let mut p = 0;
    while p < 14 {
        let color = if p < 7 { Color::Red } else { Color::Black };
        let piece = Piece::new(color, PieceKind::ALL[p % 7]);
        let sign = if p < 7 { 1 } else { -1 };
        let mut s = 0;
        while s < 90 {
            let wt = WEIGHTS[pst_index(piece, Square::from_index(s as u8))];
            t[p][s] = (sign * wt.mg, sign * wt.eg);
            s += 1;
        }
        p += 1;
    }
    t
};

/// The engine's sink: midgame and endgame sums of the weights.
#[derive(Default)]
struct Sum {
    mg: i32,
    eg: i32,
}

impl Terms for Sum {
    #[inline]
    fn add(&mut self, index: usize, count: i32) {
        let wt = WEIGHTS[index];
        self.mg += wt.mg * count;
        self.eg += wt.eg * count;
    }

    #[inline]
    fn add_piece(&mut self, piece: Piece, sq: Square) {
        let (mg, eg) = PIECE_SQUARE[piece.index()][sq.index()];
        self.mg += mg;
        self.eg += eg;
    }
}

/// Game phase from 256 (all rooks, horses and cannons on the board) down to 0 (none left).
pub fn phase(pos: &Position) -> i32 {
    let units = 6 * pos.kind_bb(PieceKind::Rook).count()
        + 3 * pos.kind_bb(PieceKind::Horse).count()
        + 3 * pos.kind_bb(PieceKind::Cannon).count();
    (units.min(48) * 256 / 48) as i32
}

/// Blends midgame and endgame sums by `phase`.
#[inline]
pub fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (256 - phase)) / 256
}

/// The evaluation from the side to move's point of view, in centipawns.
pub fn evaluate(pos: &Position) -> i32 {
    let mut sum = Sum::default();
    collect(pos, &mut sum);
    let red = taper(sum.mg, sum.eg, phase(pos));
    let red = red * drawish_scale(pos, red) / 16;
    if pos.side_to_move() == Color::Red {
        red
    } else {
        -red
    }
}

/// How much of a lead `red_score` (from Red's view) the leading side can hope to convert, in
/// sixteenths: a side with no rook, horse, cannon or pawn cannot mate, and a lone horse or cannon
/// rarely breaks through an advisor or elephant.
pub fn drawish_scale(pos: &Position, red_score: i32) -> i32 {
    let leader = if red_score > 0 {
        Color::Red
    } else if red_score < 0 {
        Color::Black
    } else {
        return 16;
    };
    let rooks = pos.pieces(leader, PieceKind::Rook).count();
    let pawns = pos.pieces(leader, PieceKind::Pawn).count();
    let minors = pos.pieces(leader, PieceKind::Horse).count()
        + pos.pieces(leader, PieceKind::Cannon).count();
    if rooks + pawns + minors == 0 {
        return 1;
    }
    let defender = leader.flip();
    let guards = pos.pieces(defender, PieceKind::Advisor).count()
        + pos.pieces(defender, PieceKind::Elephant).count();
    if rooks + pawns == 0 && minors == 1 && guards > 0 {
        return 4;
    }
    16
}

/// Counts every term of `pos` into `out`, from Red's point of view.
pub fn collect<T: Terms>(pos: &Position, out: &mut T) {
    for sq in pos.occupied() {
        out.add_piece(pos.piece_at(sq).expect("occupied"), sq);
    }
    let red = side_terms(pos, Color::Red, 1, out);
    let black = side_terms(pos, Color::Black, -1, out);
    match pos.side_to_move() {
        Color::Red => threat_terms(pos, Color::Red, &red, &black, 1, out),
        Color::Black => threat_terms(pos, Color::Black, &black, &red, -1, out),
    }
    out.add(
        term::TEMPO,
        if pos.side_to_move() == Color::Red {
            1
        } else {
            -1
        },
    );
}

/// The squares one side attacks, grouped by the value of the attacker.
struct Attacks {
    /// By any piece.
    all: Bitboard,
    /// By pawns.
    pawns: Bitboard,
    /// By pawns, advisors and elephants.
    guards: Bitboard,
    /// By pawns, advisors, elephants, horses and cannons.
    minors: Bitboard,
}

/// The terms of side `us` but its threats, entered with `sign`; returns the side's attack sets.
fn side_terms<T: Terms>(pos: &Position, us: Color, sign: i32, out: &mut T) -> Attacks {
    let occ = pos.occupied();
    let own = pos.color_bb(us);
    let them = us.flip();
    let enemies = pos.color_bb(them);

    // Mobility and pressure on the other side's palace, from one attack set per piece: palace
    // squares attacked, cannons lined up on the king's file, rooks on open lines to the king,
    // growing with the number of pieces that join the attack and the defender's missing advisors.
    let king = pos.king(them);
    let palace = Bitboard::palace(them);
    let mut hits = 0i32;
    let mut attackers = 0i32;
    let mut pawn_targets = Bitboard::EMPTY;
    for sq in pos.pieces(us, PieceKind::Pawn) {
        pawn_targets |= pawn_attacks(us, sq);
    }
    let mut guards = pawn_targets;
    for sq in pos.pieces(us, PieceKind::Advisor) {
        guards |= advisor_attacks(sq);
    }
    for sq in pos.pieces(us, PieceKind::Elephant) {
        guards |= elephant_attacks(sq, occ);
    }
    let (mut minors, mut rooks) = (guards, Bitboard::EMPTY);
    for sq in pos.pieces(us, PieceKind::Rook) {
        let attacks = rook_attacks(sq, occ);
        rooks |= attacks;
        out.add(term::ROOK_MOBILITY + (attacks - own).count() as usize, sign);
        let n = (attacks & palace).count() as i32;
        if n > 0 {
            attackers += 1;
            hits += 2 * n;
        }
        if sq.file() == king.file() && (between(sq, king) & occ).is_empty() {
            out.add(term::ROOK_KING_FILE, sign);
        }
    }
    for sq in pos.pieces(us, PieceKind::Horse) {
        let attacks = horse_attacks(sq, occ);
        minors |= attacks;
        out.add(
            term::HORSE_MOBILITY + (attacks - own).count() as usize,
            sign,
        );
        let n = (attacks & palace).count() as i32;
        if n > 0 {
            attackers += 1;
            hits += 3 * n;
        }
    }
    for sq in pos.pieces(us, PieceKind::Cannon) {
        let captures = cannon_attacks(sq, occ);
        minors |= captures;
        out.add(
            term::CANNON_MOBILITY + (rook_attacks(sq, occ) - occ).count() as usize,
            sign,
        );
        out.add(
            term::CANNON_TARGETS,
            sign * (captures & enemies).count() as i32,
        );
        if sq.file() == king.file() {
            let screens = (between(sq, king) & occ).count().min(3);
            attackers += 1;
            out.add(term::CANNON_KING_FILE + screens as usize, sign);
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
    let their_missing_advisors = 2 - pos.pieces(them, PieceKind::Advisor).count().min(2) as i32;
    let weight = match attackers {
        0 | 1 => 2,
        2 => 5,
        3 => 8,
        _ => 10,
    };
    out.add(
        term::PALACE_PRESSURE,
        sign * (hits * weight * (2 + their_missing_advisors) / 4),
    );

    // The king's guard against the other side's attacking force.
    let force = (pos.pieces(them, PieceKind::Rook).count() * 2
        + pos.pieces(them, PieceKind::Horse).count()
        + pos.pieces(them, PieceKind::Cannon).count()) as i32;
    let missing_advisors = 2 - pos.pieces(us, PieceKind::Advisor).count().min(2) as i32;
    let missing_elephants = 2 - pos.pieces(us, PieceKind::Elephant).count().min(2) as i32;
    let crossed_enemy_pawns = (pos.pieces(them, PieceKind::Pawn) & Bitboard::side(us)).count();
    out.add(term::MISSING_ADVISOR, sign * missing_advisors * force);
    out.add(term::MISSING_ELEPHANT, sign * missing_elephants * force);
    out.add(
        term::CROSSED_PAWN_DANGER,
        sign * crossed_enemy_pawns as i32 * force,
    );

    // Structure: crossed pawns side by side, rooks on files free of own pawns, cannons on the
    // other side's back rank.
    let crossed = pos.pieces(us, PieceKind::Pawn) - Bitboard::side(us);
    for sq in crossed {
        if sq.file().index() < 8 && crossed.has(Square::from_index(sq.index() as u8 + 1)) {
            out.add(term::CONNECTED_PAWNS, sign);
        }
    }
    let own_pawns = pos.pieces(us, PieceKind::Pawn);
    for sq in pos.pieces(us, PieceKind::Rook) {
        if (Bitboard::file(sq.file().index()) & own_pawns).is_empty() {
            out.add(term::ROOK_OPEN_FILE, sign);
        }
    }
    let back_rank = match us {
        Color::Red => Bitboard::rank(9),
        Color::Black => Bitboard::rank(0),
    };
    out.add(
        term::CANNON_BACK_RANK,
        sign * (pos.pieces(us, PieceKind::Cannon) & back_rank).count() as i32,
    );

    Attacks {
        all: minors | rooks | king_attacks(pos.king(us)),
        pawns: pawn_targets,
        guards,
        minors,
    }
}

/// Threats against the pieces of `us`, the side to move (the other side's are the search's to
/// take), given both sides' attack sets, entered with `sign`.
fn threat_terms<T: Terms>(
    pos: &Position,
    us: Color,
    ours: &Attacks,
    theirs: &Attacks,
    sign: i32,
    out: &mut T,
) {
    let mut threatened = 0;
    for kind in PieceKind::ALL.into_iter().skip(1) {
        let cheaper = match kind {
            PieceKind::Rook => theirs.minors,
            PieceKind::Horse | PieceKind::Cannon => theirs.guards,
            PieceKind::Advisor | PieceKind::Elephant => theirs.pawns,
            PieceKind::Pawn | PieceKind::King => Bitboard::EMPTY,
        };
        let attacked = pos.pieces(us, kind) & theirs.all;
        let n = ((attacked - ours.all) | (attacked & cheaper)).count() as i32;
        if n > 0 {
            threatened += n;
            out.add(term::THREATENED + kind.index(), sign * n);
        }
    }
    if threatened >= 2 {
        out.add(term::MULTIPLE_THREATS, sign);
    }
}

/// How often each term occurs in a position (Red's point of view): what the tuner fits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// Term counts, indexed like the weights.
    pub counts: Vec<i32>,
    /// [`phase`] of the position.
    pub phase: i32,
}

impl Terms for Trace {
    fn add(&mut self, index: usize, count: i32) {
        self.counts[index] += count;
    }
}

/// The term counts of `pos`.
pub fn trace(pos: &Position) -> Trace {
    let mut t = Trace {
        counts: vec![0; term::COUNT],
        phase: phase(pos),
    };
    collect(pos, &mut t);
    t
}

/// Slow twin of [`evaluate`]: the trace's counts times the weights, tapered and scaled.
pub fn evaluate_by_trace(pos: &Position, weights: &[Weight]) -> i32 {
    let t = trace(pos);
    let (mut mg, mut eg) = (0, 0);
    for (c, wt) in t.counts.iter().zip(weights) {
        mg += c * wt.mg;
        eg += c * wt.eg;
    }
    let red = taper(mg, eg, t.phase);
    let red = red * drawish_scale(pos, red) / 16;
    if pos.side_to_move() == Color::Red {
        red
    } else {
        -red
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen;
    use crate::movegen::legal_moves;

    const FENS: [&str; 3] = [
        fen::START_FEN,
        "r1ba1kb2/8C/2nac1n1r/p1p1p1p1p/4c4/2P1P3P/P5PC1/R3B4/4AN3/1NBAK3R w - - 30 16",
        "2ra2b2/cC1nak1r1/7cn/P5p2/2b5p/2p6/RCPp2P1P/N3B3R/N8/2BAKA3 w - - 20 31",
    ];

    #[test]
    fn symmetric() {
        for f in FENS {
            let pos = fen::parse(f).unwrap();
            assert_eq!(evaluate(&pos), evaluate(&pos.mirror()), "{f}");
            assert_eq!(evaluate(&pos), evaluate(&pos.color_swap()), "{f}");
        }
        assert_eq!(
            evaluate(&fen::parse(fen::START_FEN).unwrap()),
            WEIGHTS[term::TEMPO].mg
        );
    }

    #[test]
    fn trace_agrees_with_the_fast_sum() {
        for f in FENS {
            let mut pos = fen::parse(f).unwrap();
            for ply in 0..60 {
                assert_eq!(
                    evaluate(&pos),
                    evaluate_by_trace(&pos, &WEIGHTS),
                    "{f} ply {ply}"
                );
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                let m = moves[(ply * 7 + 3) % moves.len()];
                pos.play(m);
            }
        }
    }

    #[test]
    fn lone_defenders_cannot_win() {
        // Red has only advisors and elephants left: its material lead counts for little.
        let pos = fen::parse("4k4/9/9/9/9/9/9/4B4/4A4/3AK4 w - - 0 1").unwrap();
        assert!(evaluate(&pos).abs() < 60, "{}", evaluate(&pos));
    }
}
