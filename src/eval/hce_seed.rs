//! The seed weights of the handcrafted evaluation: the hand-set starting point that
//! `xq-tools tune-hce` tuned into `hce_weights.rs`, kept to document it and to tune again from
//! scratch.

use super::hce::{Weight, term, w};
use crate::piece::PieceKind;

/// The hand-set weights the tuning started from: material plus simple placement rules, mobility
/// per move, and fixed bonuses and penalties. Kept to document the starting point and to tune
/// again from scratch.
pub fn seed_weights() -> Vec<Weight> {
    let mut out = vec![w(0, 0); term::COUNT];
    for kind in PieceKind::ALL {
        for r in 0..10 {
            for f in 0..5 {
                let v = kind.material() + seed_placement(kind, f, r);
                let eg = match kind {
                    PieceKind::Horse => v + 40,
                    PieceKind::Cannon => v - 40,
                    _ => v,
                };
                out[term::PST + kind.index() * 50 + r as usize * 5 + f as usize] = w(v, eg);
            }
        }
    }
    for n in 0..18 {
        out[term::ROOK_MOBILITY + n] = w(3 * n as i32, 3 * n as i32);
        out[term::CANNON_MOBILITY + n] = w(n as i32, n as i32);
    }
    for n in 0..9 {
        out[term::HORSE_MOBILITY + n] = w(5 * n as i32, 5 * n as i32);
    }
    out[term::CANNON_TARGETS] = w(2, 2);
    out[term::PALACE_PRESSURE] = w(1, 1);
    for (i, v) in [135, 15, 60, 15].into_iter().enumerate() {
        out[term::CANNON_KING_FILE + i] = w(v, v);
    }
    out[term::ROOK_KING_FILE] = w(75, 75);
    out[term::MISSING_ADVISOR] = w(-6, -6);
    out[term::MISSING_ELEPHANT] = w(-4, -4);
    out[term::CROSSED_PAWN_DANGER] = w(-2, -2);
    out[term::CONNECTED_PAWNS] = w(20, 20);
    out[term::ROOK_OPEN_FILE] = w(12, 12);
    out[term::CANNON_BACK_RANK] = w(15, 15);
    for (kind, v) in [
        (PieceKind::Advisor, -10),
        (PieceKind::Elephant, -10),
        (PieceKind::Horse, -30),
        (PieceKind::Rook, -60),
        (PieceKind::Cannon, -30),
        (PieceKind::Pawn, -10),
    ] {
        out[term::THREATENED + kind.index()] = w(v, v);
    }
    out[term::MULTIPLE_THREATS] = w(-40, -40);
    out[term::TEMPO] = w(10, 10);
    out
}

/// Placement from the side's own view: `f` is the file folded to the centre (0 edge, 4 middle),
/// `r` the rank (0 = own back rank).
fn seed_placement(kind: PieceKind, f: i32, r: i32) -> i32 {
    let centre = f;
    match kind {
        PieceKind::King => -12 * r + if f == 4 { 5 } else { 0 },
        PieceKind::Advisor => i32::from(f == 4 && r == 1) * 8,
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
            advance + 4 * centre - if f == 0 { 15 } else { 0 }
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
            advance + if f == 3 { 8 } else { 0 }
        }
        PieceKind::Cannon => {
            let file = match f {
                4 => 18,
                1 => 5,
                _ => 0,
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
                advance + if (6..=8).contains(&r) { 6 } else { 2 } * centre
            }
        }
    }
}
