//! Coordinate notations, where a token names both squares: ICCS (`h2e2`, `H2-E2`, in either rank
//! convention) and DhtmlXQ's four digits.

use super::{Resolved, TokenError};
use crate::moves::{Move, RankStyle};
use crate::position::Position;
use crate::square::{File, Rank, Square};

/// Resolves an ICCS token (`h2e2`, `H2-E2`).
pub(super) fn resolve_iccs(
    pos: &Position,
    text: &str,
    ranks: RankStyle,
) -> Result<Resolved, TokenError> {
    let m = Move::parse(text, ranks).map_err(|_| TokenError::Unreadable)?;
    legal(pos, m)
}

/// Resolves a DhtmlXQ token (`7747`).
pub(super) fn resolve_dhtmlxq(pos: &Position, text: &str) -> Result<Resolved, TokenError> {
    let m = dhtmlxq_move(text).ok_or(TokenError::Unreadable)?;
    legal(pos, m)
}

/// The move a coordinate token names, when it is legal in `pos`.
fn legal(pos: &Position, m: Move) -> Result<Resolved, TokenError> {
    if pos.is_legal(m) {
        Ok(Resolved::plain(m))
    } else {
        Err(TokenError::NoMatch)
    }
}

/// DhtmlXQ's `x1y1x2y2`, y from the top.
pub(crate) fn dhtmlxq_move(text: &str) -> Option<Move> {
    let b = text.as_bytes();
    if b.len() != 4 || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let square = |x: u8, y: u8| {
        let file = File::new(x - b'0')?;
        let rank = Rank::new(9u8.checked_sub(y - b'0')?)?;
        Some(Square::at(file, rank))
    };
    let (from, to) = (square(b[0], b[1])?, square(b[2], b[3])?);
    (from != to).then(|| Move::new(from, to))
}
