//! SAN-like moves as XBoard writes them (`Che2`, `Cxh0+`, `fe3`), in either rank convention: read
//! without a position, then matched against the legal moves, with a warning when the capture or
//! check marks disagree with the move.

use super::{MarkWarning, Resolved, TokenError};
use crate::movegen::no_legal_moves;
use crate::moves::{Move, MoveList, RankStyle};
use crate::piece::PieceKind;
use crate::position::Position;
use crate::square::{File, Rank, Square};

/// A SAN-like token read without a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct San {
    kind: PieceKind,
    from_file: Option<File>,
    from_rank: Option<Rank>,
    capture: bool,
    to: Square,
    check: bool,
    mate: bool,
}

fn san_kind(c: u8) -> Option<PieceKind> {
    Some(match c {
        b'K' => PieceKind::King,
        b'A' => PieceKind::Advisor,
        b'E' | b'B' => PieceKind::Elephant,
        b'H' | b'N' => PieceKind::Horse,
        b'R' => PieceKind::Rook,
        b'C' => PieceKind::Cannon,
        b'P' => PieceKind::Pawn,
        _ => return None,
    })
}

/// Reads a rank number at the end of `b` in the given convention: (rank, digits used).
fn trailing_rank(b: &[u8], ranks: RankStyle) -> Option<(Rank, usize)> {
    let n = b.len();
    let last = *b.last()?;
    if !last.is_ascii_digit() {
        return None;
    }
    match ranks {
        RankStyle::ZeroToNine => {
            if n >= 2 && b[n - 2].is_ascii_digit() {
                return None;
            }
            Some((Rank::new(last - b'0')?, 1))
        }
        RankStyle::OneToTen => {
            if n >= 2 && b[n - 2] == b'1' && last == b'0' {
                return Some((Rank::new(9)?, 2));
            }
            if n >= 2 && b[n - 2].is_ascii_digit() {
                return None;
            }
            Some((Rank::new((last - b'0').checked_sub(1)?)?, 1))
        }
    }
}

/// Reads a SAN-like token; `None` when it does not have the shape of one.
pub(super) fn parse_san(text: &str, ranks: RankStyle) -> Option<San> {
    let mut b = text.as_bytes();
    let (mut check, mut mate) = (false, false);
    while let Some((&last, rest)) = b.split_last() {
        match last {
            b'+' => check = true,
            b'#' => mate = true,
            b'!' | b'?' => {}
            _ => break,
        }
        b = rest;
    }
    let (kind, mut rest) = match b.first() {
        Some(&c) if c.is_ascii_uppercase() => (san_kind(c)?, &b[1..]),
        Some(b'a'..=b'i') => (PieceKind::Pawn, b),
        _ => return None,
    };
    let (to_rank, used) = trailing_rank(rest, ranks)?;
    rest = &rest[..rest.len() - used];
    let (&file_char, before) = rest.split_last()?;
    let to_file = File::new(file_char.wrapping_sub(b'a'))?;
    rest = before;
    let capture = rest.last() == Some(&b'x');
    if capture {
        rest = &rest[..rest.len() - 1];
    }
    let mut from_file = None;
    if let Some((&c, tail)) = rest.split_first()
        && (b'a'..=b'i').contains(&c)
    {
        from_file = File::new(c - b'a');
        rest = tail;
    }
    let from_rank = if rest.is_empty() {
        None
    } else {
        let (rank, used) = trailing_rank(rest, ranks)?;
        if used != rest.len() {
            return None;
        }
        Some(rank)
    };
    Some(San {
        kind,
        from_file,
        from_rank,
        capture,
        to: Square::at(to_file, to_rank),
        check,
        mate,
    })
}

/// The legal move a SAN-like token names, with a note when its marks disagree with it.
pub(super) fn resolve_san(pos: &Position, san: &San) -> Result<Resolved, TokenError> {
    let mut found = MoveList::new();
    for from in pos.pieces(pos.side_to_move(), san.kind) {
        let m = Move::new(from, san.to);
        if san.from_file.is_some_and(|f| from.file() != f)
            || san.from_rank.is_some_and(|r| from.rank() != r)
            || !pos.is_legal(m)
        {
            continue;
        }
        let _ = found.try_push(m);
    }
    // A pawn move written without its file goes straight ahead (`e3`); a sideways step or a
    // capture names the file it comes from (`fe3`, `fxe3`).
    if san.kind == PieceKind::Pawn && san.from_file.is_none() && found.len() > 1 {
        found.retain(|m| m.from().file() == m.to().file());
    }
    let m = match found.as_slice() {
        [] => return Err(TokenError::NoMatch),
        [m] => *m,
        many => return Err(TokenError::Ambiguous(many.to_vec())),
    };
    let mut warning = None;
    if san.capture != pos.piece_at(m.to()).is_some() {
        warning = Some(if san.capture {
            MarkWarning::CaptureMarkWithoutCapture
        } else {
            MarkWarning::CaptureWithoutMark
        });
    } else if san.check || san.mate {
        let mut next = pos.clone();
        next.play(m);
        if san.mate && !no_legal_moves(&next) {
            warning = Some(MarkWarning::MateMarkWithLegalMoves);
        } else if san.check && !san.mate && !next.in_check() {
            warning = Some(MarkWarning::CheckMarkWithoutCheck);
        }
    }
    Ok(Resolved { mv: m, warning })
}
