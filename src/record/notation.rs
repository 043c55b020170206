//! Move tokens of every notation → moves. Relative tokens (WXF in all its dialects, Chinese) and
//! SAN are never interpreted on their own: the legal moves of the position are described
//! (`describe.rs`) and the ones that fit the token are kept; exactly one must remain.

use super::describe::{Description, Direction, describe_origin, describe_to};
use crate::movegen::no_legal_moves;
use crate::moves::{Move, MoveList, RankStyle};
use crate::piece::PieceKind;
use crate::position::Position;
use crate::square::{File, Rank, Square};
use arrayvec::ArrayVec;
use std::borrow::Cow;
use std::fmt;

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
    pub warning: Option<&'static str>,
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
        Notation::Coordinate(ranks) => {
            let m = Move::parse(text, ranks).map_err(|_| TokenError::Unreadable)?;
            if pos.is_legal(m) {
                Ok(Resolved::plain(m))
            } else {
                Err(TokenError::NoMatch)
            }
        }
        Notation::DhtmlXq => {
            let m = dhtmlxq_move(text).ok_or(TokenError::Unreadable)?;
            if pos.is_legal(m) {
                Ok(Resolved::plain(m))
            } else {
                Err(TokenError::NoMatch)
            }
        }
        Notation::San(ranks) => {
            let san = parse_san(text, ranks).ok_or(TokenError::Unreadable)?;
            resolve_san(pos, &san)
        }
        Notation::Wxf => {
            let patterns = parse_wxf(text).ok_or(TokenError::Unreadable)?;
            resolve_patterns(pos, &patterns).map(Resolved::plain)
        }
        Notation::Chinese => {
            let patterns = parse_chinese(text).ok_or(TokenError::Unreadable)?;
            resolve_patterns(pos, &patterns).map(Resolved::plain)
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

// ---------------------------------------------------------------------------------------------
// Relative notations: patterns over described moves.

/// How a token names the piece that moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    /// By its file number.
    File(u8),
    /// By a tandem sign, on any file.
    Sign(Sign),
    /// By file number and tandem sign (official WXF for tandem pawns on two files: `3+.4`).
    FileSign(u8, Sign),
    /// By its place from the front on a given file (Fairy-Stockfish: `25=6`).
    Place { file: u8, place: u8 },
    /// By its place among all tandem pawns (xqbase `a`–`e`, Chinese 一–五).
    Tandem(u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sign {
    Front,
    Middle,
    Rear,
    FrontFront,
    RearRear,
}

impl Sign {
    fn fits(self, d: &Description) -> bool {
        let (n, i) = (d.on_file, d.place);
        match self {
            Sign::Front => matches!(n, 2 | 3) && i == 1 || n >= 4 && i == 2,
            Sign::Rear => matches!(n, 2 | 3) && i == n || n >= 4 && i == n - 1,
            Sign::Middle => n == 3 && i == 2 || n == 5 && i == 3,
            Sign::FrontFront => n >= 4 && i == 1,
            Sign::RearRear => n >= 4 && i == n,
        }
    }
}

/// One reading of a token. Lower tiers are preferred: a reading of a higher tier is used only when
/// no lower-tier reading fits any legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pattern {
    tier: u8,
    kinds: u8,
    origin: Origin,
    direction: Direction,
    number: u8,
}

type Patterns = ArrayVec<Pattern, 8>;

const fn kind_bit(kind: PieceKind) -> u8 {
    1 << kind.index()
}
const PAWN: u8 = kind_bit(PieceKind::Pawn);

impl Pattern {
    /// The tier at which the described move fits this reading, if it does.
    fn fits(&self, d: &Description) -> Option<u8> {
        if self.kinds & kind_bit(d.piece.kind) == 0
            || d.direction != self.direction
            || d.number != self.number
        {
            return None;
        }
        match self.origin {
            Origin::File(f) => {
                if d.file != f {
                    return None;
                }
                // The file number names the piece outright when it is alone on its file, is an
                // advisor or elephant (always written by file), or is the middle one of three or
                // five pawns (official WXF); otherwise it is a loose reading.
                let odd_middle = d.piece.kind == PieceKind::Pawn
                    && !d.on_file.is_multiple_of(2)
                    && d.place == d.on_file.div_ceil(2);
                let strict = d.on_file == 1
                    || matches!(d.piece.kind, PieceKind::Advisor | PieceKind::Elephant)
                    || odd_middle;
                Some(if strict { self.tier } else { self.tier + 1 })
            }
            Origin::Sign(s) => s.fits(d).then_some(self.tier),
            Origin::FileSign(f, s) => (d.file == f && s.fits(d)).then_some(self.tier),
            Origin::Place { file, place } => {
                (d.file == file && d.place == place && d.on_file >= 2).then_some(self.tier)
            }
            Origin::Tandem(k) => (d.tandem_index == k).then_some(self.tier),
        }
    }
}

fn resolve_patterns(pos: &Position, patterns: &Patterns) -> Result<Move, TokenError> {
    let kinds = patterns.iter().fold(0u8, |acc, p| acc | p.kinds);
    let us = pos.side_to_move();
    let mut best = u8::MAX;
    let mut found = MoveList::new();
    // Only the pieces of the token's kinds are described, and legality is tested only for the
    // moves that fit.
    for kind in PieceKind::ALL {
        if kinds & kind_bit(kind) == 0 {
            continue;
        }
        for from in pos.pieces(us, kind) {
            let Some(origin) = describe_origin(pos, from) else {
                continue;
            };
            for to in pos.pseudo_targets(from) {
                let d = describe_to(pos, &origin, to);
                let Some(tier) = patterns.iter().filter_map(|p| p.fits(&d)).min() else {
                    continue;
                };
                let m = Move::new(from, to);
                if tier > best || !pos.is_legal(m) {
                    continue;
                }
                if tier < best {
                    best = tier;
                    found.clear();
                }
                let _ = found.try_push(m);
            }
        }
    }
    match found.as_slice() {
        [] => Err(TokenError::NoMatch),
        [m] => Ok(*m),
        many => Err(TokenError::Ambiguous(many.to_vec())),
    }
}

fn letter_kinds(c: char) -> Option<u8> {
    Some(match c.to_ascii_uppercase() {
        'K' => kind_bit(PieceKind::King),
        'A' => kind_bit(PieceKind::Advisor),
        'E' | 'B' | 'M' => kind_bit(PieceKind::Elephant),
        'H' | 'N' => kind_bit(PieceKind::Horse),
        'R' => kind_bit(PieceKind::Rook),
        'C' => kind_bit(PieceKind::Cannon),
        'P' | 'S' => PAWN,
        'G' => kind_bit(PieceKind::Advisor) | kind_bit(PieceKind::King),
        _ => return None,
    })
}

/// xqbase's keypad digits 1–7 = K A B N R C P.
fn keypad_kinds(c: char) -> Option<u8> {
    let d = c.to_digit(10)?;
    (1..=7)
        .contains(&d)
        .then(|| kind_bit(PieceKind::ALL[d as usize - 1]))
}

fn digit(c: char) -> Option<u8> {
    c.to_digit(10)
        .filter(|d| (1..=9).contains(d))
        .map(|d| d as u8)
}

fn wxf_direction(c: char) -> Option<Direction> {
    match c {
        '+' => Some(Direction::Forward),
        '-' => Some(Direction::Backward),
        '.' | '=' => Some(Direction::Sideways),
        _ => None,
    }
}

fn sign(c: char) -> Option<Sign> {
    match c {
        '+' => Some(Sign::Front),
        '-' => Some(Sign::Rear),
        '.' => Some(Sign::Middle),
        _ => None,
    }
}

/// Reads a WXF token in any of the dialects as its possible readings.
fn parse_wxf(text: &str) -> Option<Patterns> {
    let mut chars: ArrayVec<char, 8> = ArrayVec::new();
    for c in text.chars() {
        chars.try_push(c).ok()?;
    }
    while chars.len() > 3 && matches!(chars.last(), Some('!' | '?')) {
        chars.pop();
    }
    if chars.len() == 5 && matches!(chars.last(), Some('+' | '#')) {
        chars.pop();
    }
    let mut out = Patterns::new();
    let mut add = |tier, kinds, origin, direction, number| {
        let _ = out.try_push(Pattern {
            tier,
            kinds,
            origin,
            direction,
            number,
        });
    };
    match *chars.as_slice() {
        // Older books: no direction means sideways (`C25`).
        [a, b, d] => {
            let kinds = letter_kinds(a)?;
            add(
                0,
                kinds,
                Origin::File(digit(b)?),
                Direction::Sideways,
                digit(d)?,
            );
        }
        [a, b, c, d] => {
            let direction = wxf_direction(c)?;
            let number = digit(d)?;
            if let (Some('f' | 'r'), Some(kinds)) = (Some(a), letter_kinds(b))
                && !b.is_ascii_digit()
            {
                // `fC+2`, `rC+2`: front and rear in older English texts.
                let s = if a == 'f' { Sign::Front } else { Sign::Rear };
                add(0, kinds, Origin::Sign(s), direction, number);
            } else if let Some(kinds) = letter_kinds(a) {
                if let Some(f) = digit(b) {
                    add(0, kinds, Origin::File(f), direction, number);
                } else if let Some(s) = sign(b) {
                    add(0, kinds, Origin::Sign(s), direction, number);
                } else if ('a'..='e').contains(&b) {
                    add(
                        0,
                        kinds,
                        Origin::Tandem(b as u8 - b'a' + 1),
                        direction,
                        number,
                    );
                } else {
                    return None;
                }
            } else if let Some(s) = sign(a).filter(|_| a != '.') {
                if let Some(kinds) = letter_kinds(b) {
                    add(0, kinds, Origin::Sign(s), direction, number);
                } else if b == a {
                    let s = if a == '+' {
                        Sign::FrontFront
                    } else {
                        Sign::RearRear
                    };
                    add(0, PAWN, Origin::Sign(s), direction, number);
                } else {
                    return None;
                }
            } else if let Some(first) = digit(a) {
                if let Some(s) = sign(b) {
                    add(0, PAWN, Origin::FileSign(first, s), direction, number);
                } else if let Some(second) = digit(b) {
                    // Official `33.4` (file 3, middle pawn) against Fairy-Stockfish `25=6` (second
                    // pawn of file 5): the separator says which dialect comes first.
                    let (official, fairy) = if c == '=' { (1, 0) } else { (0, 1) };
                    if first == second {
                        add(
                            official,
                            PAWN,
                            Origin::FileSign(first, Sign::Middle),
                            direction,
                            number,
                        );
                    }
                    if first <= 5 {
                        let origin = Origin::Place {
                            file: second,
                            place: first,
                        };
                        add(fairy, PAWN, origin, direction, number);
                    }
                    if let Some(kinds) = keypad_kinds(a) {
                        add(2, kinds, Origin::File(second), direction, number);
                    }
                } else {
                    return None;
                }
                if let (Some(kinds), Some(s)) = (keypad_kinds(a), sign(b)) {
                    add(2, kinds, Origin::Sign(s), direction, number);
                }
            } else {
                return None;
            }
        }
        _ => return None,
    }
    (!out.is_empty()).then_some(out)
}

fn chinese_kinds(c: char) -> Option<u8> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => kind_bit(PieceKind::King),
        '仕' | '士' => kind_bit(PieceKind::Advisor),
        '相' | '象' => kind_bit(PieceKind::Elephant),
        '马' | '馬' | '傌' | '瑪' => kind_bit(PieceKind::Horse),
        '车' | '車' | '俥' | '伡' => kind_bit(PieceKind::Rook),
        '炮' | '砲' | '包' => kind_bit(PieceKind::Cannon),
        '兵' | '卒' => PAWN,
        _ => return None,
    })
}

fn chinese_number(c: char) -> Option<u8> {
    Some(match c {
        '一' => 1,
        '二' => 2,
        '三' => 3,
        '四' => 4,
        '五' => 5,
        '六' => 6,
        '七' => 7,
        '八' => 8,
        '九' => 9,
        _ => return digit(c),
    })
}

fn chinese_direction(c: char) -> Option<Direction> {
    match c {
        '进' | '進' => Some(Direction::Forward),
        '退' => Some(Direction::Backward),
        '平' => Some(Direction::Sideways),
        _ => None,
    }
}

fn chinese_sign(c: char) -> Option<Sign> {
    match c {
        '前' => Some(Sign::Front),
        '中' => Some(Sign::Middle),
        '后' | '後' => Some(Sign::Rear),
        _ => None,
    }
}

/// Reads a Chinese token: piece + file + direction + number, or a tandem position (前/中/后, or
/// 一–五 among tandem pawns) + piece + direction + number, optionally with the file after the
/// piece.
fn parse_chinese(text: &str) -> Option<Patterns> {
    let mut chars: ArrayVec<char, 8> = ArrayVec::new();
    for c in text.chars().filter(|c| !matches!(c, '+' | '#' | '!' | '?')) {
        chars.try_push(c).ok()?;
    }
    let mut out = Patterns::new();
    let mut add = |tier, kinds, origin, direction, number| {
        let _ = out.try_push(Pattern {
            tier,
            kinds,
            origin,
            direction,
            number,
        });
    };
    match *chars.as_slice() {
        [a, b, c, d] => {
            let direction = chinese_direction(c)?;
            let number = chinese_number(d)?;
            if let (Some(kinds), Some(f)) = (chinese_kinds(a), chinese_number(b)) {
                add(0, kinds, Origin::File(f), direction, number);
            } else if let (Some(s), Some(kinds)) = (chinese_sign(a), chinese_kinds(b)) {
                add(0, kinds, Origin::Sign(s), direction, number);
            } else if let (Some(kinds), Some(s)) = (chinese_kinds(a), chinese_sign(b)) {
                add(0, kinds, Origin::Sign(s), direction, number);
            } else if let (Some(k), Some(kinds)) = (chinese_number(a), chinese_kinds(b)) {
                if k > 5 {
                    return None;
                }
                add(0, kinds, Origin::Tandem(k), direction, number);
            } else {
                return None;
            }
        }
        [a, b, c, d, e] => {
            let direction = chinese_direction(d)?;
            let number = chinese_number(e)?;
            let s = chinese_sign(a)?;
            let kinds = chinese_kinds(b)?;
            add(
                0,
                kinds,
                Origin::FileSign(chinese_number(c)?, s),
                direction,
                number,
            );
        }
        _ => return None,
    }
    Some(out)
}

// ---------------------------------------------------------------------------------------------
// SAN.

/// A SAN-like token read without a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct San {
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

fn parse_san(text: &str, ranks: RankStyle) -> Option<San> {
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

fn resolve_san(pos: &Position, san: &San) -> Result<Resolved, TokenError> {
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
            "marked as a capture but captures nothing"
        } else {
            "captures without the capture mark"
        });
    } else if san.check || san.mate {
        let mut next = pos.clone();
        next.play(m);
        if san.mate && !no_legal_moves(&next) {
            warning = Some("marked `#` but the opponent has a legal move");
        } else if san.check && !san.mate && !next.in_check() {
            warning = Some("marked `+` but gives no check");
        }
    }
    Ok(Resolved { mv: m, warning })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;
    use crate::record::describe::{write_chinese, write_san, write_wxf};

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
                let c = write_chinese(&pos, m).unwrap();
                assert_eq!(
                    resolve(&pos, &c, Notation::Chinese).map(|r| r.mv),
                    Ok(m),
                    "{c}"
                );
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
