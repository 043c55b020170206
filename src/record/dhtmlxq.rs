//! DhtmlXQ / UBB blocks (`[DhtmlXQ]…[/DhtmlXQ]`, often inside HTML): `binit` (the 32 pieces'
//! squares, optional), `movelist` (four digits a ply, y from the top) and the text keys. Unknown
//! keys and variation keys are ignored.

use super::notation::Notation;
use super::{Defect, ErrorKind, Format, MoveToken, RawGame, Start};
use crate::piece::Piece;
use crate::square::{Color, File, Rank, Square};

/// The first place at or after `from` where `needle` (lowercase ASCII) occurs in `text`, ignoring
/// ASCII case.
pub(super) fn find_ignore_case(text: &str, needle: &str, from: usize) -> Option<usize> {
    let hay = text.as_bytes();
    let needle = needle.as_bytes();
    if from > hay.len() {
        return None;
    }
    hay[from..]
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
        .map(|p| p + from)
}

/// Line numbers of offsets in a text, asked for in increasing order: each newline is counted
/// once, so numbering every block of a file stays linear in its length.
struct Lines<'a> {
    text: &'a [u8],
    offset: usize,
    newlines: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        Lines {
            text: text.as_bytes(),
            offset: 0,
            newlines: 0,
        }
    }

    /// The 1-based line of `offset`.
    fn line_of(&mut self, offset: usize) -> u32 {
        let offset = offset.min(self.text.len());
        if offset < self.offset {
            // Asked out of order: count again from the start.
            self.offset = 0;
            self.newlines = 0;
        }
        self.newlines += self.text[self.offset..offset]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.offset = offset;
        u32::try_from(self.newlines + 1).unwrap_or(u32::MAX)
    }
}

/// The value of `[DhtmlXQ_key]…[/DhtmlXQ_key]` inside `block`, with its offset in the block.
fn value<'a>(block: &'a str, key: &str) -> Option<(&'a str, usize)> {
    let open = format!("[dhtmlxq_{key}]");
    let close = format!("[/dhtmlxq_{key}]");
    let start = find_ignore_case(block, &open, 0)? + open.len();
    let end = find_ignore_case(block, &close, start).unwrap_or(block.len());
    Some((block.get(start..end)?, start))
}

fn binit_board(text: &str) -> Result<Box<[Option<Piece>; 90]>, String> {
    let digits: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if digits.len() != 64 || !digits.iter().all(u8::is_ascii_digit) {
        return Err(format!(
            "binit must be 64 digits, found {:?}",
            crate::clip::quote(text)
        ));
    }
    let mut board = Box::new([None; 90]);
    for (slot, pair) in digits.chunks(2).enumerate() {
        let (x, y) = (pair[0] - b'0', pair[1] - b'0');
        if x == 9 && y == 9 {
            continue;
        }
        let (Some(file), Some(rank)) = (File::new(x), Rank::new(9 - y.min(9))) else {
            return Err(format!("binit square {x}{y} is off the board"));
        };
        let color = if slot < 16 { Color::Red } else { Color::Black };
        let sq = Square::at(file, rank);
        if board[sq.index()].is_some() {
            return Err(format!("binit puts two pieces on {sq}"));
        }
        board[sq.index()] = Some(Piece::new(color, super::PIECE_SLOTS[slot % 16]));
    }
    Ok(board)
}

/// Reads every DhtmlXQ block of `text` as a game.
pub fn read(text: &str) -> Vec<RawGame> {
    let mut games = Vec::new();
    let mut lines = Lines::new(text);
    let mut from = 0;
    while let Some(start) = find_ignore_case(text, "[dhtmlxq]", from) {
        let body_start = start + "[dhtmlxq]".len();
        let end = find_ignore_case(text, "[/dhtmlxq]", body_start).unwrap_or(text.len());
        let block = text.get(body_start..end).unwrap_or("");
        from = end.max(body_start);
        let line = lines.line_of(start);
        let mut tags = vec![("Format".to_string(), "DhtmlXQ".to_string())];
        for (key, tag) in [
            ("title", "Title"),
            ("event", "Event"),
            ("date", "Date"),
            ("place", "Site"),
            ("round", "Round"),
            ("redteam", "RedTeam"),
            ("red", "Red"),
            ("blackteam", "BlackTeam"),
            ("black", "Black"),
            ("result", "DhtmlXQResult"),
        ] {
            if let Some((v, _)) = value(block, key) {
                tags.push((tag.to_string(), v.trim().to_string()));
            }
        }
        let mut defect = None;
        let start_position = match value(block, "binit") {
            Some((v, _)) if !v.trim().is_empty() => match binit_board(v) {
                Ok(board) => Start::Board(board),
                Err(e) => {
                    defect = Some(Defect {
                        line: Some(line),
                        kind: ErrorKind::Format(e),
                    });
                    Start::Standard
                }
            },
            _ => Start::Standard,
        };
        let mut tokens = Vec::new();
        if let Some((list, offset)) = value(block, "movelist") {
            let move_line = lines.line_of(body_start + offset);
            let digits: Vec<char> = list.chars().filter(|c| !c.is_whitespace()).collect();
            for chunk in digits.chunks(4) {
                tokens.push(MoveToken {
                    text: chunk.iter().collect(),
                    line: move_line,
                });
            }
        }
        let result = tags
            .iter()
            .find(|(k, _)| k == "DhtmlXQResult")
            .map(|(_, v)| v.clone());
        games.push(RawGame {
            index: games.len() + 1,
            line,
            format: Format::DhtmlXq,
            tags,
            tokens,
            result,
            start: start_position,
            notations: Some(vec![Notation::DhtmlXq]),
            notes: Vec::new(),
            defect,
        });
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_in_html() {
        let html = "<html>\n<div>[DhtmlXQ][DhtmlXQ_red]A[/DhtmlXQ_red][DhtmlXQ_binit]8979695949392919097717866646260600102030405060708012720323436383[/DhtmlXQ_binit]\n[DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist][/DhtmlXQ]</div>";
        let games = read(html);
        assert_eq!(games.len(), 1);
        let texts: Vec<&str> = games[0].tokens.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(texts, ["7747", "7062"]);
        assert_eq!(games[0].tokens[0].line, 3);
        assert!(matches!(games[0].start, Start::Board(_)));
        assert!(games[0].defect.is_none());
    }

    #[test]
    fn lines_counted_once_agree_with_a_full_count() {
        let block = "[DhtmlXQ]\n[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n\n";
        let text = block.repeat(50);
        let games = read(&text);
        assert_eq!(games.len(), 50);
        for (i, g) in games.iter().enumerate() {
            assert_eq!(g.line as usize, 4 * i + 1);
            assert_eq!(g.tokens[0].line as usize, 4 * i + 2);
        }
        let mut lines = Lines::new(&text);
        let full = |offset: usize| text[..offset].matches('\n').count() as u32 + 1;
        for offset in [30, 10, 200, 5, 400] {
            assert_eq!(lines.line_of(offset), full(offset));
        }
    }
}
