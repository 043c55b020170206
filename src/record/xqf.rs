//! XQF, XQStudio's binary game format: a 1 KiB header (piece table, result,
//! GBK strings) and a depth-first move tree from offset 0x400, encrypted from version 11 on. The
//! main line is read; variations are counted and skipped.

use super::encoding::decode_gbk;
use super::notation::Notation;
use super::{Defect, ErrorKind, Format, MoveToken, RawGame, ReaderNote, Start};
use crate::moves::RankStyle;
use crate::piece::Piece;
use crate::square::{Color, File, Rank, Square};

const HEADER: usize = 0x400;

/// Whether `bytes` look like an XQF file: `XQ` and a small version number.
pub fn detect(bytes: &[u8]) -> bool {
    bytes.len() >= 3 && &bytes[..2] == b"XQ" && (1..0x20).contains(&bytes[2])
}

/// The decryption keys of versions 11 and up.
struct Keys {
    piece: u8,
    from: u8,
    to: u8,
    comment: u32,
    stream: [u8; 32],
}

fn g(k: u8, x: u8) -> u8 {
    let k = u32::from(k);
    ((54 * k * k + 221).wrapping_mul(u32::from(x)) & 0xFF) as u8
}

impl Keys {
    fn new(h: &[u8]) -> Keys {
        let piece = g(h[13], h[13]);
        let from = g(h[14], piece);
        let to = g(h[15], from);
        let comment = (256 * u32::from(h[12]) + u32::from(h[13])) % 32000 + 767;
        let k: [u8; 4] = std::array::from_fn(|i| h[8 + i] | (h[12 + i] & h[3]));
        let mask = b"[(C) Copyright Mr. Dong Shiwei.]";
        let stream = std::array::from_fn(|j| k[j % 4] & mask[j]);
        Keys {
            piece,
            from,
            to,
            comment,
            stream,
        }
    }

    fn plain() -> Keys {
        Keys {
            piece: 0,
            from: 0,
            to: 0,
            comment: 0,
            stream: [0; 32],
        }
    }
}

fn square(byte: u8) -> Option<Square> {
    if byte > 89 {
        return None;
    }
    Some(Square::at(File::new(byte / 10)?, Rank::new(byte % 10)?))
}

fn string(h: &[u8], offset: usize, max: usize) -> String {
    let len = usize::from(h[offset]).min(max);
    decode_gbk(&h[offset + 1..offset + 1 + len])
        .trim_end_matches('\0')
        .trim()
        .to_string()
}

/// One record of the move tree.
struct Node {
    from: u8,
    to: u8,
    continues: bool,
    alternative: bool,
}

/// Reads the move tree: the nodes in file order, or the nodes read before the data ran out with
/// what went wrong.
fn nodes(body: &[u8], version: u8, keys: &Keys) -> (Vec<Node>, Option<String>) {
    let mut out = Vec::new();
    let mut at = 0usize;
    let read_u32 = |at: usize| -> Option<u32> {
        let b = body.get(at..at + 4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    loop {
        let Some(rec) = body.get(at..at + 4) else {
            let error =
                (at < body.len()).then(|| format!("record at 0x{:X} is cut off", HEADER + at));
            return (out, error);
        };
        let (from, to, tag) = (rec[0], rec[1], rec[2]);
        at += 4;
        let (continues, alternative, has_comment) = if version < 11 {
            (tag & 0xF0 != 0, tag & 0x0F != 0, true)
        } else {
            (tag & 0x80 != 0, tag & 0x40 != 0, tag & 0x20 != 0)
        };
        if has_comment {
            let Some(raw) = read_u32(at) else {
                return (
                    out,
                    Some(format!("comment length at 0x{:X} is cut off", HEADER + at)),
                );
            };
            let len = raw.wrapping_sub(keys.comment) as usize;
            at += 4;
            if len > body.len() - at.min(body.len()) {
                return (
                    out,
                    Some(format!(
                        "comment at 0x{:X} runs past the end of the file",
                        HEADER + at
                    )),
                );
            }
            at += len;
        }
        out.push(Node {
            from: from.wrapping_sub(24).wrapping_sub(keys.from),
            to: to.wrapping_sub(32).wrapping_sub(keys.to),
            continues,
            alternative,
        });
        if at >= body.len() {
            return (out, None);
        }
    }
}

/// Reads an XQF file as one game (its main line).
pub fn read(bytes: &[u8]) -> Result<RawGame, ErrorKind> {
    if bytes.len() < HEADER {
        return Err(ErrorKind::Format(format!(
            "XQF header cut off: {} bytes, expected at least {HEADER}",
            bytes.len()
        )));
    }
    let h = &bytes[..HEADER];
    let version = h[2];
    let keys = if version >= 11 {
        Keys::new(h)
    } else {
        Keys::plain()
    };

    let mut board = Box::new([None; 90]);
    for i in 0..32usize {
        let value = h[0x10 + i].wrapping_sub(keys.piece);
        let slot = if version >= 12 {
            (usize::from(keys.piece) + 1 + i) % 32
        } else {
            i
        };
        let Some(sq) = square(value) else {
            continue;
        };
        let color = if slot < 16 { Color::Red } else { Color::Black };
        if board[sq.index()].is_some() {
            return Err(ErrorKind::Format(format!(
                "XQF piece table puts two pieces on {sq}"
            )));
        }
        board[sq.index()] = Some(Piece::new(color, super::PIECE_SLOTS[slot % 16]));
    }

    let mut body = bytes[HEADER..].to_vec();
    for (j, b) in body.iter_mut().enumerate() {
        *b = b.wrapping_sub(keys.stream[j % 32]);
    }
    let (nodes, cut) = nodes(&body, version, &keys);
    let mut tokens = Vec::new();
    let mut main_line_end = nodes.len();
    if let Some(root) = nodes.first()
        && root.continues
    {
        for (i, node) in nodes.iter().enumerate().skip(1) {
            let text = match (square(node.from), square(node.to)) {
                (Some(f), Some(t)) => format!("{f}{t}"),
                _ => format!("squares {}-{}", node.from, node.to),
            };
            tokens.push(MoveToken { text, line: 0 });
            if !node.continues {
                main_line_end = i + 1;
                break;
            }
        }
    } else {
        main_line_end = 1;
    }
    let variations = nodes.iter().filter(|n| n.alternative).count();
    let mut notes = Vec::new();
    if variations > 0 {
        notes.push(ReaderNote::VariationsSkipped(variations));
    }
    let defect = cut
        .filter(|_| main_line_end >= nodes.len())
        .map(|e| Defect {
            line: None,
            kind: ErrorKind::Format(format!(
                "XQF main line cut off after {} moves: {e}",
                tokens.len()
            )),
        });

    let mut tags = vec![(
        "Format".to_string(),
        format!("XQF {}.{}", version / 10, version % 10),
    )];
    for (name, offset, max) in [
        ("Title", 0x50, 63),
        ("Event", 0xD0, 63),
        ("Date", 0x110, 15),
        ("Site", 0x120, 15),
        ("Red", 0x130, 15),
        ("Black", 0x140, 15),
        ("Annotator", 0x1D0, 15),
        ("Author", 0x1E0, 15),
    ] {
        let value = string(h, offset, max);
        if !value.is_empty() {
            tags.push((name.to_string(), value));
        }
    }
    let result = match h[0x33] {
        1 => Some("1-0"),
        2 => Some("0-1"),
        3 | 4 => Some("1/2-1/2"),
        _ => None,
    };
    if let Some(r) = result {
        tags.push(("Result".to_string(), r.to_string()));
    }
    Ok(RawGame {
        index: 1,
        line: 0,
        format: Format::Xqf,
        tags,
        tokens,
        result: None,
        start: Start::Board(board),
        notations: Some(vec![Notation::Coordinate(RankStyle::ZeroToNine)]),
        notes,
        defect,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A version 10 (plain) file written by hand: the start position and the one move h2e2.
    #[test]
    fn plain_version_ten() {
        let mut bytes = vec![0u8; HEADER];
        bytes[..3].copy_from_slice(b"XQ\x0a");
        let table: [u8; 32] = [
            80, 70, 60, 50, 40, 30, 20, 10, 0, 72, 12, 83, 63, 43, 23, 3, 9, 19, 29, 39, 49, 59,
            69, 79, 89, 17, 77, 6, 26, 46, 66, 86,
        ];
        bytes[0x10..0x30].copy_from_slice(&table);
        bytes[0x33] = 1;
        bytes[0x130] = 3;
        bytes[0x131..0x134].copy_from_slice(b"Red");
        // Root record (no move, more follows), then h2e2 (7,2) -> (4,2), the last record.
        bytes.extend_from_slice(&[24, 32, 0xF0, 0, 0, 0, 0, 0]);
        bytes.extend_from_slice(&[72 + 24, 42 + 32, 0, 0, 0, 0, 0, 0]);
        assert!(detect(&bytes));
        let game = read(&bytes).expect("a plain XQF file");
        let texts: Vec<&str> = game.tokens.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(texts, ["h2e2"]);
        assert!(game.defect.is_none());
        let tag = |k: &str| {
            game.tags
                .iter()
                .find(|(n, _)| n == k)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!((tag("Red"), tag("Result")), (Some("Red"), Some("1-0")));
        let Start::Board(board) = &game.start else {
            panic!("a board");
        };
        let start = crate::position::Position::startpos();
        for sq in (0..90u8).filter_map(Square::new) {
            assert_eq!(board[sq.index()], start.piece_at(sq), "{sq}");
        }
        // Cut off inside the second record: the move read so far and a defect.
        let game = read(&bytes[..HEADER + 10]).expect("header is whole");
        assert!(game.defect.is_some());
        assert!(read(&bytes[..100]).is_err());
    }
}
