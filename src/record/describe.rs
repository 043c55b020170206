//! Describes a legal move in the terms of the relative notations (WXF, Chinese) and of SAN: piece,
//! file number from the mover's right, place among tandem pieces, direction and number. The
//! readers match tokens against these descriptions and the writers print them, so every notation
//! round-trips through one description.

use crate::bitboard::Bitboard;
use crate::movegen::no_legal_moves;
use crate::moves::{Move, RankStyle};
use crate::piece::{Piece, PieceKind};
use crate::position::Position;
use crate::square::{Color, File, Square};

/// Which way a move goes, seen from the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards the opponent (WXF `+`, 进).
    Forward,
    /// Towards the mover's own side (WXF `-`, 退).
    Backward,
    /// Along the rank (WXF `=` or `.`, 平).
    Sideways,
}

/// A move described the way relative notations see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Description {
    /// The moving piece.
    pub piece: Piece,
    /// Its square.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
    /// The origin's file number, 1–9 from the mover's right.
    pub file: u8,
    /// The direction.
    pub direction: Direction,
    /// Steps for a king, rook, cannon or pawn moving along its file; otherwise the destination's
    /// file number.
    pub number: u8,
    /// How many of the mover's pieces of this kind stand on the origin file (at least 1).
    pub on_file: u8,
    /// This piece's place among them, 1 = the frontmost.
    pub place: u8,
    /// Pawns only: the place among all pawns standing on files with two or more pawns, counted by
    /// file from the mover's right, then front to back (xqbase's `a`–`e`, Chinese 一–五); 0 when
    /// the pawn has no other pawn on its file.
    pub tandem_index: u8,
    /// Pawns only: how many files hold two or more of the mover's pawns.
    pub tandem_files: u8,
    /// Whether the move captures.
    pub capture: bool,
}

/// The WXF file number (1–9 from the side's own right) of a board file.
#[inline]
pub fn wxf_file(color: Color, file: File) -> u8 {
    match color {
        Color::Red => 9 - file.index(),
        Color::Black => file.index() + 1,
    }
}

/// The board file of a WXF file number of `color` (1–9), if in range.
#[inline]
pub fn board_file(color: Color, number: u8) -> Option<File> {
    if !(1..=9).contains(&number) {
        return None;
    }
    File::new(match color {
        Color::Red => 9 - number,
        Color::Black => number - 1,
    })
}

/// How far `sq` is towards the opponent for `color` (0 = own back rank).
#[inline]
fn advance(color: Color, sq: Square) -> u8 {
    match color {
        Color::Red => sq.rank().index(),
        Color::Black => 9 - sq.rank().index(),
    }
}

/// The pieces of `bb` on board file `x`, front to back for `color`.
fn front_to_back(color: Color, bb: Bitboard) -> impl Iterator<Item = Square> {
    let mut squares: arrayvec::ArrayVec<Square, 10> = bb.into_iter().collect();
    squares.sort_unstable_by_key(|&s| std::cmp::Reverse(advance(color, s)));
    squares.into_iter()
}

/// Whether a kind moves along files and ranks (its number counts steps when it moves along a
/// file).
#[inline]
pub fn is_straight_mover(kind: PieceKind) -> bool {
    matches!(
        kind,
        PieceKind::King | PieceKind::Rook | PieceKind::Cannon | PieceKind::Pawn
    )
}

/// The part of a description that depends only on the moving piece: worked out once per piece
/// when many of its moves are described.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OriginInfo {
    piece: Piece,
    from: Square,
    file: u8,
    on_file: u8,
    place: u8,
    tandem_index: u8,
    tandem_files: u8,
}

/// Describes the piece on `from` as an origin; `None` if the square is empty.
pub fn describe_origin(pos: &Position, from: Square) -> Option<OriginInfo> {
    let piece = pos.piece_at(from)?;
    let color = piece.color;
    let a0 = advance(color, from);
    let same = pos.pieces(color, piece.kind);
    let on_this_file = same & Bitboard::file(from.file().index());
    let on_file = on_this_file.count() as u8;
    let place = 1 + on_this_file
        .into_iter()
        .filter(|&s| advance(color, s) > a0)
        .count() as u8;
    let (mut tandem_index, mut tandem_files) = (0u8, 0u8);
    if piece.kind == PieceKind::Pawn && on_file >= 2 {
        let mut index = 0u8;
        for number in 1..=9u8 {
            let Some(file) = board_file(color, number) else {
                continue;
            };
            let pawns = same & Bitboard::file(file.index());
            if pawns.count() < 2 {
                continue;
            }
            tandem_files += 1;
            for s in front_to_back(color, pawns) {
                index += 1;
                if s == from {
                    tandem_index = index;
                }
            }
        }
    }
    Some(OriginInfo {
        piece,
        from,
        file: wxf_file(color, from.file()),
        on_file,
        place,
        tandem_index,
        tandem_files,
    })
}

/// Describes the move of the piece `origin` describes to `to`.
pub fn describe_to(pos: &Position, origin: &OriginInfo, to: Square) -> Description {
    let OriginInfo {
        piece,
        from,
        file,
        on_file,
        place,
        tandem_index,
        tandem_files,
    } = *origin;
    let color = piece.color;
    let (a0, a1) = (advance(color, from), advance(color, to));
    let direction = match a1.cmp(&a0) {
        std::cmp::Ordering::Greater => Direction::Forward,
        std::cmp::Ordering::Less => Direction::Backward,
        std::cmp::Ordering::Equal => Direction::Sideways,
    };
    let number = if direction != Direction::Sideways && is_straight_mover(piece.kind) {
        a0.abs_diff(a1)
    } else {
        wxf_file(color, to.file())
    };
    Description {
        piece,
        from,
        to,
        file,
        direction,
        number,
        on_file,
        place,
        tandem_index,
        tandem_files,
        capture: pos.piece_at(to).is_some(),
    }
}

/// Describes `m` in `pos`; `None` if no piece stands on its origin. The move is not checked for
/// legality.
pub fn describe(pos: &Position, m: Move) -> Option<Description> {
    describe_origin(pos, m.from()).map(|o| describe_to(pos, &o, m.to()))
}

/// How a writer names the origin of a described move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    /// By file number.
    File(u8),
    /// Front of two or three (`+`, 前).
    Front,
    /// Middle of three (by file number in WXF, 中 in Chinese).
    Middle,
    /// Rear of two or three (`-`, 后).
    Rear,
    /// Four or five pawns on a file, or tandem pawns on two files: the place 1–5 (WXF signs and
    /// file numbers, Chinese 一–五).
    Tandem(u8),
}

fn origin(d: &Description) -> Origin {
    if d.on_file < 2 || matches!(d.piece.kind, PieceKind::Advisor | PieceKind::Elephant) {
        return Origin::File(d.file);
    }
    if d.piece.kind == PieceKind::Pawn && (d.on_file >= 4 || d.tandem_files >= 2) {
        return Origin::Tandem(d.tandem_index);
    }
    match (d.on_file, d.place) {
        (_, 1) => Origin::Front,
        (3, 2) => Origin::Middle,
        _ => Origin::Rear,
    }
}

/// WXF piece letter (upper case).
pub fn wxf_letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::King => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Rook => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Pawn => 'P',
    }
}

fn wxf_direction(d: Direction) -> char {
    match d {
        Direction::Forward => '+',
        Direction::Backward => '-',
        Direction::Sideways => '=',
    }
}

/// Writes a move in WXF notation: `=` for sideways moves and the official tandem forms (`R+=4`,
/// `C--1`, `P3=4` for the middle of three pawns, `++=4`/`--=4` for the outer pawns of four or
/// five, `3+=4` for tandem pawns on two files). `None` if no piece stands on the origin.
pub fn write_wxf(pos: &Position, m: Move) -> Option<String> {
    let d = describe(pos, m)?;
    let letter = wxf_letter(d.piece.kind);
    let dir = wxf_direction(d.direction);
    let n = d.number;
    Some(match origin(&d) {
        Origin::File(f) => format!("{letter}{f}{dir}{n}"),
        Origin::Front => format!("{letter}+{dir}{n}"),
        Origin::Middle => format!("{letter}{}{dir}{n}", d.file),
        Origin::Rear => format!("{letter}-{dir}{n}"),
        Origin::Tandem(_) if d.tandem_files >= 2 => {
            let sign = match (d.on_file, d.place) {
                (_, 1) => "+".to_string(),
                (3, 2) => d.file.to_string(),
                _ => "-".to_string(),
            };
            format!("{}{sign}{dir}{n}", d.file)
        }
        Origin::Tandem(_) => {
            let head = match (d.on_file, d.place) {
                (_, 1) => "++".to_string(),
                (_, 2) => "P+".to_string(),
                (5, 3) => format!("P{}", d.file),
                (k, p) if p == k => "--".to_string(),
                _ => "P-".to_string(),
            };
            format!("{head}{dir}{n}")
        }
    })
}

const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const BLACK_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// The script Chinese move text is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Script {
    /// Simplified characters: 车马炮, 进, 后.
    Simplified,
    /// Traditional characters: 車馬砲 (`砲二平五`), 進, 後.
    Traditional,
}

/// The Chinese character of a piece in a script (the usual Red/Black forms).
pub fn chinese_piece_in(piece: Piece, script: Script) -> char {
    let traditional = script == Script::Traditional;
    match (piece.color, piece.kind) {
        (Color::Red, PieceKind::King) if traditional => '帥',
        (Color::Red, PieceKind::King) => '帅',
        (Color::Black, PieceKind::King) if traditional => '將',
        (Color::Black, PieceKind::King) => '将',
        (Color::Red, PieceKind::Advisor) => '仕',
        (Color::Black, PieceKind::Advisor) => '士',
        (Color::Red, PieceKind::Elephant) => '相',
        (Color::Black, PieceKind::Elephant) => '象',
        (_, PieceKind::Horse) if traditional => '馬',
        (_, PieceKind::Horse) => '马',
        (_, PieceKind::Rook) if traditional => '車',
        (_, PieceKind::Rook) => '车',
        (_, PieceKind::Cannon) if traditional => '砲',
        (_, PieceKind::Cannon) => '炮',
        (Color::Red, PieceKind::Pawn) => '兵',
        (Color::Black, PieceKind::Pawn) => '卒',
    }
}

/// Writes a move in Chinese notation as xqbase does: Chinese numerals for Red, full-width digits
/// for Black, 前/中/后 for two or three tandem pieces, 一–五 for four or five tandem pawns.
pub fn write_chinese(pos: &Position, m: Move) -> Option<String> {
    write_chinese_in(pos, m, Script::Simplified)
}

/// [`write_chinese`] in a script (`炮二平五` / `砲二平五`, `马２进３` / `馬２進３`).
pub fn write_chinese_in(pos: &Position, m: Move, script: Script) -> Option<String> {
    let d = describe(pos, m)?;
    let traditional = script == Script::Traditional;
    let numerals = match d.piece.color {
        Color::Red => &RED_NUMERALS,
        Color::Black => &BLACK_DIGITS,
    };
    let num = |n: u8| numerals[(n as usize).clamp(1, 9) - 1];
    let piece = chinese_piece_in(d.piece, script);
    let dir = match (d.direction, traditional) {
        (Direction::Forward, false) => '进',
        (Direction::Forward, true) => '進',
        (Direction::Backward, _) => '退',
        (Direction::Sideways, _) => '平',
    };
    let head: String = match origin(&d) {
        Origin::File(f) => [piece, num(f)].into_iter().collect(),
        Origin::Front => ['前', piece].into_iter().collect(),
        Origin::Middle => ['中', piece].into_iter().collect(),
        Origin::Rear => [if traditional { '後' } else { '后' }, piece]
            .into_iter()
            .collect(),
        Origin::Tandem(i) => [RED_NUMERALS[(i as usize).clamp(1, 5) - 1], piece]
            .into_iter()
            .collect(),
    };
    Some(format!("{head}{dir}{}", num(d.number)))
}

/// Writes a move in XBoard's SAN-like notation: piece letter (none for pawns), the origin's file,
/// rank or both when another piece of the kind could go to the same square, `x` for captures, the
/// destination, `+` for check and `#` when the opponent is left without a legal move. `None` if the
/// move is not legal.
pub fn write_san(pos: &Position, m: Move, ranks: RankStyle) -> Option<String> {
    if !pos.is_legal(m) {
        return None;
    }
    let piece = pos.piece_at(m.from())?;
    let rank_text = |s: Square| match ranks {
        RankStyle::ZeroToNine => s.rank().index().to_string(),
        RankStyle::OneToTen => (s.rank().index() + 1).to_string(),
    };
    let mut out = String::new();
    if piece.kind != PieceKind::Pawn {
        out.push(wxf_letter(piece.kind));
    }
    let rivals: Vec<Square> = crate::movegen::legal_moves(pos)
        .into_iter()
        .filter(|r| r.to() == m.to() && r.from() != m.from())
        .filter(|r| pos.piece_at(r.from()) == Some(piece))
        .map(|r| r.from())
        .collect();
    let capture = pos.piece_at(m.to()).is_some();
    if !rivals.is_empty() {
        let same_file = rivals.iter().any(|s| s.file() == m.from().file());
        let same_rank = rivals.iter().any(|s| s.rank() == m.from().rank());
        if !same_file {
            out.push(m.from().file().char());
        } else if !same_rank {
            out.push_str(&rank_text(m.from()));
        } else {
            out.push(m.from().file().char());
            out.push_str(&rank_text(m.from()));
        }
    } else if piece.kind == PieceKind::Pawn && (capture || m.from().file() != m.to().file()) {
        out.push(m.from().file().char());
    }
    if capture {
        out.push('x');
    }
    out.push(m.to().file().char());
    out.push_str(&rank_text(m.to()));
    let mut next = pos.clone();
    next.play(m);
    if no_legal_moves(&next) {
        out.push('#');
    } else if next.in_check() {
        out.push('+');
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    #[test]
    fn start_position_moves() {
        let pos = Position::startpos();
        assert_eq!(write_wxf(&pos, mv("h2e2")).unwrap(), "C2=5");
        assert_eq!(write_chinese(&pos, mv("h2e2")).unwrap(), "炮二平五");
        assert_eq!(write_wxf(&pos, mv("h0g2")).unwrap(), "H2+3");
        assert_eq!(write_wxf(&pos, mv("c0e2")).unwrap(), "E7+5");
        assert_eq!(
            write_san(&pos, mv("h2e2"), RankStyle::ZeroToNine).unwrap(),
            "Che2"
        );
        assert_eq!(
            write_san(&pos, mv("h2h9"), RankStyle::ZeroToNine).unwrap(),
            "Cxh9"
        );
        let mut pos = pos;
        pos.play(mv("h2e2"));
        assert_eq!(write_wxf(&pos, mv("h7e7")).unwrap(), "C8=5");
        assert_eq!(
            write_chinese_in(&pos, mv("h9g7"), Script::Traditional).unwrap(),
            "馬８進７"
        );
        assert_eq!(
            write_chinese_in(&pos, mv("h7e7"), Script::Traditional).unwrap(),
            "砲８平５"
        );
        let start = Position::startpos();
        assert_eq!(
            write_chinese_in(&start, mv("h2e2"), Script::Traditional).unwrap(),
            "砲二平五"
        );
        assert_eq!(write_chinese(&pos, mv("h9g7")).unwrap(), "马８进７");
    }

    #[test]
    fn tandem_pawns() {
        // Red pawns: three on the e-file (file 5), two on the c-file (file 7).
        let pos: Position = "4k4/9/9/2P1P4/2P1P4/4P4/9/9/9/4K4 w".parse().unwrap();
        let d = describe(&pos, mv("e6d6")).unwrap();
        assert_eq!(
            (d.on_file, d.place, d.tandem_files, d.tandem_index),
            (3, 1, 2, 1)
        );
        assert_eq!(write_wxf(&pos, mv("e6d6")).unwrap(), "5+=6");
        assert_eq!(write_wxf(&pos, mv("e5d5")).unwrap(), "55=6");
        assert_eq!(write_chinese(&pos, mv("c6c7")).unwrap(), "四兵进一");
    }
}
