//! Move tokens of every notation → moves. Relative tokens (WXF in all its dialects, Chinese) and
//! SAN are never interpreted on their own: the legal moves of the position are described
//! (`describe.rs`) and the ones that fit the token are kept; exactly one must remain.

mod chinese;
mod coordinate;
mod relative;
mod san;
mod wxf;

pub(crate) use coordinate::dhtmlxq_move;

use crate::moves::{Move, RankStyle};
use crate::position::Position;
use arrayvec::ArrayVec;
use chinese::parse_chinese;
use san::{parse_san, resolve_san};
use std::borrow::Cow;
use std::fmt;
use wxf::parse_wxf;

/// A move notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// Coordinates `h2e2` or ICCS `H2-E2`, in either rank convention.
    Coordinate(RankStyle),
    /// XBoard's SAN-like moves (`Che2`, `Cxh0+`), in either rank convention.
    San(RankStyle),
    /// WXF (`C2=5`, `C2.5`, `C25`, tandem and multi-pawn forms of every dialect).
    Wxf,
    /// Chinese (`炮二平五`, `马８进７`, simplified or traditional).
    Chinese,
    /// DhtmlXQ's four digits `x1 y1 x2 y2`, y counted from the top.
    DhtmlXq,
}

impl Notation {
    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Notation::Coordinate(RankStyle::ZeroToNine) => "coordinates (ranks 0-9)",
            Notation::Coordinate(RankStyle::OneToTen) => "coordinates (ranks 1-10)",
            Notation::San(RankStyle::ZeroToNine) => "SAN (ranks 0-9)",
            Notation::San(RankStyle::OneToTen) => "SAN (ranks 1-10)",
            Notation::Wxf => "WXF",
            Notation::Chinese => "Chinese",
            Notation::DhtmlXq => "DhtmlXQ squares",
        }
    }
}

/// Why a token does not give one legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenError {
    /// The token is not a move in the notation.
    Unreadable,
    /// No legal move fits the token.
    NoMatch,
    /// Several legal moves fit the token.
    Ambiguous(Vec<Move>),
}

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenError::Unreadable => f.write_str("not a move in this notation"),
            TokenError::NoMatch => f.write_str("no legal move fits"),
            TokenError::Ambiguous(moves) => {
                let list: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
                write!(f, "ambiguous: fits {}", list.join(", "))
            }
        }
    }
}

/// A resolved token, with a note when its check or capture marks disagree with the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The move.
    pub mv: Move,
    /// What did not agree (`+` without check, `x` without capture, ...).
    pub warning: Option<MarkWarning>,
}

/// A mark of a move's text (SAN's capture, check and mate marks) that the move contradicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkWarning {
    /// Marked as a capture, capturing nothing.
    CaptureMarkWithoutCapture,
    /// A capture without the capture mark.
    CaptureWithoutMark,
    /// Marked as mate, the opponent having a legal move.
    MateMarkWithLegalMoves,
    /// Marked as check, giving none.
    CheckMarkWithoutCheck,
}

impl fmt::Display for MarkWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MarkWarning::CaptureMarkWithoutCapture => "marked as a capture but captures nothing",
            MarkWarning::CaptureWithoutMark => "captures without the capture mark",
            MarkWarning::MateMarkWithLegalMoves => "marked `#` but the opponent has a legal move",
            MarkWarning::CheckMarkWithoutCheck => "marked `+` but gives no check",
        })
    }
}

impl Resolved {
    fn plain(mv: Move) -> Resolved {
        Resolved { mv, warning: None }
    }
}

/// Maps full-width ASCII forms (`Ｃ２＝５`) to ASCII and the minus sign to `-`; borrowed when there
/// is nothing to change.
pub fn normalize(text: &str) -> Cow<'_, str> {
    let odd = |c: char| {
        matches!(
            c,
            '\u{FF01}'..='\u{FF5E}' | '\u{2212}' | '\u{2013}' | '\u{2014}'
        )
    };
    if text.is_ascii() || !text.chars().any(odd) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| match c {
                '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
                '\u{2212}' | '\u{2013}' | '\u{2014}' => '-',
                _ => c,
            })
            .collect(),
    )
}

/// Resolves one token in `pos`. The token is normalized first (full-width forms).
pub fn resolve(pos: &Position, text: &str, notation: Notation) -> Result<Resolved, TokenError> {
    let text = normalize(text.trim());
    let text = text.as_ref();
    match notation {
        Notation::Coordinate(ranks) => coordinate::resolve_iccs(pos, text, ranks),
        Notation::DhtmlXq => coordinate::resolve_dhtmlxq(pos, text),
        Notation::San(ranks) => {
            let san = parse_san(text, ranks).ok_or(TokenError::Unreadable)?;
            resolve_san(pos, &san)
        }
        Notation::Wxf => {
            let readings = parse_wxf(text).ok_or(TokenError::Unreadable)?;
            readings.resolve(pos).map(Resolved::plain)
        }
        Notation::Chinese => {
            let readings = parse_chinese(text).ok_or(TokenError::Unreadable)?;
            readings.resolve(pos).map(Resolved::plain)
        }
    }
}

/// Which notations a token has the shape of (without a position), most specific first.
pub fn shapes(text: &str) -> ArrayVec<Notation, 6> {
    let text = normalize(text.trim());
    let text = text.as_ref();
    let mut out = ArrayVec::new();
    if !text.is_ascii() {
        if parse_chinese(text).is_some() {
            out.push(Notation::Chinese);
        }
        return out;
    }
    let coordinate_zero = Move::parse(text, RankStyle::ZeroToNine).is_ok();
    let coordinate_one = Move::parse(text, RankStyle::OneToTen).is_ok();
    // `E4e2` is SAN, not a coordinate move: coordinates are written in one case.
    let one_case = !(text.bytes().any(|b| b.is_ascii_uppercase())
        && text.bytes().any(|b| b.is_ascii_lowercase()));
    if one_case && (coordinate_zero || coordinate_one) {
        if coordinate_zero {
            out.push(Notation::Coordinate(RankStyle::ZeroToNine));
        }
        if coordinate_one {
            out.push(Notation::Coordinate(RankStyle::OneToTen));
        }
    }
    if parse_wxf(text).is_some() {
        out.push(Notation::Wxf);
    }
    if parse_san(text, RankStyle::ZeroToNine).is_some() {
        out.push(Notation::San(RankStyle::ZeroToNine));
    }
    if parse_san(text, RankStyle::OneToTen).is_some() {
        out.push(Notation::San(RankStyle::OneToTen));
    }
    out
}

/// Whether a token has the shape of a move in some notation.
pub fn looks_like_move(text: &str) -> bool {
    !shapes(text).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;
    use crate::record::describe::{Script, write_chinese_in, write_san, write_wxf};

    fn resolve_text(pos: &Position, text: &str, notation: Notation) -> String {
        resolve(pos, text, notation)
            .map(|r| r.mv.to_string())
            .unwrap_or_else(|e| e.to_string())
    }

    #[test]
    fn dialects_of_one_move() {
        let pos = Position::startpos();
        for text in ["C2=5", "C2.5", "C25", "Ｃ２＝５", "c2=5", "62.5"] {
            assert_eq!(resolve_text(&pos, text, Notation::Wxf), "h2e2", "{text}");
        }
        assert_eq!(resolve_text(&pos, "炮二平五", Notation::Chinese), "h2e2");
        assert_eq!(resolve_text(&pos, "砲2平5", Notation::Chinese), "h2e2");
        assert_eq!(
            resolve_text(&pos, "Che2", Notation::San(RankStyle::ZeroToNine)),
            "h2e2"
        );
        assert_eq!(
            resolve_text(&pos, "Che3", Notation::San(RankStyle::OneToTen)),
            "h2e2"
        );
        assert_eq!(
            resolve_text(&pos, "H2-E2", Notation::Coordinate(RankStyle::ZeroToNine)),
            "h2e2"
        );
        assert_eq!(
            resolve_text(&pos, "h3e3", Notation::Coordinate(RankStyle::OneToTen)),
            "h2e2"
        );
        assert_eq!(resolve_text(&pos, "7747", Notation::DhtmlXq), "h2e2");
        assert_eq!(resolve_text(&pos, "H2+3", Notation::Wxf), "h0g2");
        assert_eq!(resolve_text(&pos, "P5+1", Notation::Wxf), "e3e4");
        assert_eq!(
            resolve_text(&pos, "C2+9", Notation::Wxf),
            "no legal move fits"
        );
    }

    #[test]
    fn tandem_forms() {
        // Red rooks on h4 and h6 (file 2); pawns: e6, e5, e4 (file 5) and c6, c5 (file 7).
        let pos: Position = "4k4/9/9/2P1P2R1/2P1P4/4P2R1/9/9/9/4K4 w".parse().unwrap();
        assert_eq!(resolve_text(&pos, "R+=1", Notation::Wxf), "h6i6");
        assert_eq!(resolve_text(&pos, "R-.1", Notation::Wxf), "h4i4");
        assert_eq!(resolve_text(&pos, "+R=1", Notation::Wxf), "h6i6");
        assert_eq!(resolve_text(&pos, "fR=1", Notation::Wxf), "h6i6");
        assert!(resolve_text(&pos, "R2=1", Notation::Wxf).starts_with("ambiguous"));
        assert_eq!(resolve_text(&pos, "前车平一", Notation::Chinese), "h6i6");
        assert_eq!(resolve_text(&pos, "後車平一", Notation::Chinese), "h4i4");
        assert_eq!(resolve_text(&pos, "5+.6", Notation::Wxf), "e6d6");
        assert_eq!(resolve_text(&pos, "55.6", Notation::Wxf), "e5d5");
        assert_eq!(resolve_text(&pos, "25=6", Notation::Wxf), "e5d5");
        assert_eq!(
            resolve_text(&pos, "35=6", Notation::Wxf),
            "no legal move fits"
        );
        assert_eq!(resolve_text(&pos, "P5=6", Notation::Wxf), "e5d5");
        assert!(resolve_text(&pos, "P+=6", Notation::Wxf).starts_with("ambiguous"));
        assert_eq!(resolve_text(&pos, "Pb=6", Notation::Wxf), "e5d5");
        assert_eq!(resolve_text(&pos, "二兵平六", Notation::Chinese), "e5d5");
        assert_eq!(
            resolve_text(&pos, "7-+1", Notation::Wxf),
            "no legal move fits"
        );
    }

    #[test]
    fn writers_round_trip_from_the_start() {
        let mut pos = Position::startpos();
        let line = [
            "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "h0h6", "b7a7", "h6g6",
        ];
        for text in line {
            for m in legal_moves(&pos) {
                let w = write_wxf(&pos, m).unwrap();
                assert_eq!(resolve(&pos, &w, Notation::Wxf).map(|r| r.mv), Ok(m), "{w}");
                for script in [Script::Simplified, Script::Traditional] {
                    let c = write_chinese_in(&pos, m, script).unwrap();
                    assert_eq!(
                        resolve(&pos, &c, Notation::Chinese).map(|r| r.mv),
                        Ok(m),
                        "{c}"
                    );
                }
                for ranks in [RankStyle::ZeroToNine, RankStyle::OneToTen] {
                    let s = write_san(&pos, m, ranks).unwrap();
                    let r = resolve(&pos, &s, Notation::San(ranks)).unwrap();
                    assert_eq!((r.mv, r.warning), (m, None), "{s}");
                }
            }
            pos.play(text.parse().unwrap());
        }
    }

    #[test]
    fn shapes_tell_notations_apart() {
        assert_eq!(
            shapes("h2e2")[0],
            Notation::Coordinate(RankStyle::ZeroToNine)
        );
        assert!(!shapes("E4e2").contains(&Notation::Coordinate(RankStyle::ZeroToNine)));
        assert!(shapes("E4e2").contains(&Notation::San(RankStyle::ZeroToNine)));
        assert_eq!(shapes("Ｃ２＝５").as_slice(), &[Notation::Wxf]);
        assert_eq!(shapes("马８进７").as_slice(), &[Notation::Chinese]);
        assert!(shapes("Permission").is_empty());
        assert!(shapes("1-0").is_empty());
    }
}
