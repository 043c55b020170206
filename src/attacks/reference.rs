//! Slow, obviously correct versions of the attack functions, kept as test oracles: each walks the
//! board point by point from the rules of the piece instead of looking up a table.

use crate::bitboard::Bitboard;
use crate::square::{Color, Square};

fn on(f: i32, r: i32) -> Option<Square> {
    Square::from_coords(f, r)
}

fn coords(sq: Square) -> (i32, i32) {
    (sq.file().index() as i32, sq.rank().index() as i32)
}

fn in_palace(sq: Square) -> bool {
    let (f, r) = coords(sq);
    (3..=5).contains(&f) && (r <= 2 || r >= 7)
}

fn same_palace(a: Square, b: Square) -> bool {
    in_palace(a) && in_palace(b) && (a.index() < 45) == (b.index() < 45)
}

fn ray(sq: Square, occ: Bitboard, cannon: bool) -> Bitboard {
    let (f, r) = coords(sq);
    let mut out = Bitboard::EMPTY;
    for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
        let mut screen = false;
        let (mut x, mut y) = (f + df, r + dr);
        while let Some(t) = on(x, y) {
            let occupied = occ.has(t);
            if !cannon {
                out = out.with(t);
                if occupied {
                    break;
                }
            } else if occupied {
                if screen {
                    out = out.with(t);
                    break;
                }
                screen = true;
            }
            x += df;
            y += dr;
        }
    }
    out
}

/// Reference rook attacks.
pub fn rook(sq: Square, occ: Bitboard) -> Bitboard {
    ray(sq, occ, false)
}

/// Reference cannon captures.
pub fn cannon(sq: Square, occ: Bitboard) -> Bitboard {
    ray(sq, occ, true)
}

/// Reference king steps.
pub fn king(sq: Square) -> Bitboard {
    let (f, r) = coords(sq);
    [(1, 0), (-1, 0), (0, 1), (0, -1)]
        .into_iter()
        .filter_map(|(df, dr)| on(f + df, r + dr))
        .filter(|&t| same_palace(sq, t))
        .collect()
}

/// Reference advisor steps.
pub fn advisor(sq: Square) -> Bitboard {
    let (f, r) = coords(sq);
    [(1, 1), (-1, 1), (1, -1), (-1, -1)]
        .into_iter()
        .filter_map(|(df, dr)| on(f + df, r + dr))
        .filter(|&t| same_palace(sq, t))
        .collect()
}

/// Reference elephant moves.
pub fn elephant(sq: Square, occ: Bitboard) -> Bitboard {
    let (f, r) = coords(sq);
    [(1, 1), (-1, 1), (1, -1), (-1, -1)]
        .into_iter()
        .filter_map(|(df, dr)| Some((on(f + df, r + dr)?, on(f + 2 * df, r + 2 * dr)?)))
        .filter(|&(eye, t)| !occ.has(eye) && (t.index() < 45) == (sq.index() < 45))
        .map(|(_, t)| t)
        .collect()
}

/// Reference horse moves.
pub fn horse(sq: Square, occ: Bitboard) -> Bitboard {
    let (f, r) = coords(sq);
    let mut out = Bitboard::EMPTY;
    for (df, dr) in [
        (1i32, 2i32),
        (-1, 2),
        (1, -2),
        (-1, -2),
        (2, 1),
        (2, -1),
        (-2, 1),
        (-2, -1),
    ] {
        let leg = if dr.abs() == 2 {
            on(f, r + dr / 2)
        } else {
            on(f + df / 2, r)
        };
        if let (Some(leg), Some(t)) = (leg, on(f + df, r + dr))
            && !occ.has(leg)
        {
            out = out.with(t);
        }
    }
    out
}

/// Reference horse attackers: every square whose horse moves reach `sq`.
pub fn horse_attackers(sq: Square, occ: Bitboard) -> Bitboard {
    Square::all().filter(|&h| horse(h, occ).has(sq)).collect()
}

/// Reference pawn steps.
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    let (f, r) = coords(sq);
    let forward = if color == Color::Red { 1 } else { -1 };
    let mut out: Bitboard = on(f, r + forward).into_iter().collect();
    if !sq.on_own_side(color) {
        out |= [on(f + 1, r), on(f - 1, r)].into_iter().flatten().collect();
    }
    out
}
