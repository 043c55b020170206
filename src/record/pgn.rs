//! PGN-like text records: xqbase XQ PGN, coordinate PGN, WXF and Chinese move text, XBoard PGN and
//! bare move lists. Splits a text into games: tags, move tokens with their lines, the result token.
//! Comments (`{…}` across lines, `;` to the end of the line), variations (nested `(…)`), move
//! numbers, NAGs and anything between a result and the next tag (xqbase's advertisement block) are
//! skipped. Tokens are not interpreted here (`notation.rs` does that against positions).

use super::dhtmlxq::{self, find_ignore_case};
use super::notation::{looks_like_move, normalize};
use super::stream::Place;
use super::{Defect, Format, MoveToken, RawGame, ReaderNote, Start};
use crate::clip::quote;

#[derive(Default)]
struct Builder {
    line: u32,
    tags: Vec<(String, String)>,
    tokens: Vec<MoveToken>,
    result: Option<String>,
    notes: Vec<ReaderNote>,
    defect: Option<Defect>,
    /// Whether moves after the result were found (and noted).
    moves_after_result: bool,
}

impl Builder {
    fn has_movetext(&self) -> bool {
        !self.tokens.is_empty() || self.result.is_some()
    }

    /// Whether this is a game (tags, or move text that starts with a move), not prose.
    fn is_game(&self) -> bool {
        !self.tags.is_empty()
            || self
                .tokens
                .first()
                .is_some_and(|t| looks_like_move(&t.text))
    }

    /// Records the first defect of the game.
    fn defect(&mut self, defect: Defect) {
        self.defect.get_or_insert(defect);
    }
}

struct Scanner {
    games: Vec<RawGame>,
    current: Option<Builder>,
    /// The line of the `{` of the comment the scan is in.
    comment_from: Option<u32>,
    variation_depth: u32,
    /// The line of the outermost open `(`.
    variation_from: u32,
    ended: bool,
}

/// What scanning a piece of a line found.
enum Scan {
    /// The piece is read.
    Done,
    /// A DhtmlXQ block starts at this byte of the piece.
    Block(usize),
}

/// The text that opens a DhtmlXQ block.
const BLOCK_OPEN: &str = "[dhtmlxq]";
/// The text that closes one.
const BLOCK_CLOSE: &str = "[/dhtmlxq]";

/// Splits `text` into games. Text before the first tag that does not start with a move (a title,
/// prose, an HTML page around DhtmlXQ blocks) is not a game. A DhtmlXQ block is read as a game of
/// its own wherever it stands, except inside a game's comment, variation or tag. Lines may end in
/// LF, CR LF or CR alone.
pub fn split(text: &str) -> Vec<RawGame> {
    split_at(text, Place::default(), usize::MAX)
}

/// Splits `text`, a piece of a stream standing at `place`, as [`split`] would read it in the whole
/// stream: its lines are counted after the lines before it, and a comment or variation left open
/// at its end is open up to the game start the stream was cut at. Splitting stops once more than
/// `most` games are found (a reader that takes no more needs no more to refuse the text).
pub(crate) fn split_at(text: &str, place: Place, most: usize) -> Vec<RawGame> {
    let mut s = Scanner {
        games: Vec::new(),
        current: None,
        comment_from: None,
        variation_depth: 0,
        variation_from: 0,
        ended: false,
    };
    let mut offset = 0;
    let mut number = place.lines_before;
    // Whether the piece at `offset` continues a line already counted (after a block's end).
    let mut continued = false;
    while offset < text.len() && s.games.len() <= most {
        let rest = &text[offset..];
        let (len, eol) = match rest.find(['\n', '\r']) {
            Some(i) if rest[i..].starts_with("\r\n") => (i, 2),
            Some(i) => (i, 1),
            None => (rest.len(), 0),
        };
        let at_start = !continued;
        if at_start {
            number = number.saturating_add(1);
        }
        continued = false;
        match s.line(&rest[..len], number, at_start) {
            Scan::Done => offset += len + eol,
            Scan::Block(at) => {
                let start = offset + at;
                let end = find_ignore_case(text, BLOCK_CLOSE, start + BLOCK_OPEN.len())
                    .map_or(text.len(), |c| c + BLOCK_CLOSE.len());
                let block = &text[start..end];
                s.finish();
                for mut game in dhtmlxq::read(block) {
                    game.shift_lines(number - 1);
                    game.index = s.games.len() + 1;
                    s.games.push(game);
                }
                number = number.saturating_add(line_breaks(block));
                offset = end;
                continued = true;
            }
        }
    }
    if let Some(next) = place.next {
        s.close_open(Some(next));
    }
    s.finish();
    s.games
}

/// How many line breaks (LF, CR LF or CR) `text` holds.
fn line_breaks(text: &str) -> u32 {
    let bytes = text.as_bytes();
    let n = bytes
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
        .count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// How a tag line reads.
enum TagLine {
    /// One or more `[Name "value"]` tags filling the line.
    Tags(Vec<(String, String)>),
    /// A line that starts like a tag (`[`, a name, a space or tab and a quote) but is not one
    /// (a value with unescaped quotes, a tag not closed).
    Broken,
}

/// The blanks (and a byte-order mark) a line may start with.
fn trim_line_start(line: &str) -> &str {
    line.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}')
}

/// Reads `line` (blanks at its start trimmed) as a tag line, if it is one.
fn read_tag_line(line: &str) -> Option<TagLine> {
    if !line.starts_with('[') {
        return None;
    }
    match parse_tag_line(line) {
        Some(tags) => Some(TagLine::Tags(tags)),
        None => starts_like_tag(line).then_some(TagLine::Broken),
    }
}

/// Whether `line` is a tag line: after blanks (and a byte-order mark), one or more
/// `[Name "value"]` tags, or a line that starts like one. This is the one rule for where tags
/// are read, here and where a stream is cut into games ([`super::stream`]).
pub(crate) fn is_tag_line(line: &str) -> bool {
    read_tag_line(trim_line_start(line)).is_some()
}

/// Whether `line` opens a DhtmlXQ block at its start (after blanks): a game of its own.
pub(crate) fn opens_block(line: &str) -> bool {
    trim_line_start(line)
        .as_bytes()
        .get(..BLOCK_OPEN.len())
        .is_some_and(|w| w.eq_ignore_ascii_case(BLOCK_OPEN.as_bytes()))
}

/// A word of move text without the move number glued to its front (`1.h2e2`, `12...`).
fn move_text(word: &str) -> &str {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return word;
    }
    word[digits..].trim_start_matches(['.', '…', '。', '．'])
}

/// Whether a line opens a move list at its first move: `1.` (or `1.` glued to the move), then a
/// move.
fn starts_move_list(line: &str) -> bool {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return false;
    };
    let Some(rest) = first.strip_prefix('1') else {
        return false;
    };
    let after = rest.trim_start_matches(['.', '…', '。', '．']);
    if after.len() == rest.len() {
        return false;
    }
    let mv = if after.is_empty() {
        words.next().unwrap_or("")
    } else {
        after
    };
    looks_like_move(mv)
}

/// Whether `line` starts like a tag: `[`, a name, a space or tab and a quote.
fn starts_like_tag(line: &str) -> bool {
    let Some(rest) = line.strip_prefix('[') else {
        return false;
    };
    let name = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(rest.len());
    name > 0 && rest[name..].trim_start().starts_with('"') && rest[name..].starts_with([' ', '\t'])
}

impl Scanner {
    /// Scans one line (or the rest of one after a DhtmlXQ block); `at_start` when the piece starts
    /// its line.
    fn line(&mut self, line: &str, number: u32, at_start: bool) -> Scan {
        let trimmed = trim_line_start(line);
        if at_start && let Some(read) = read_tag_line(trimmed) {
            let first = match &read {
                TagLine::Tags(tags) => tags.first().map(|(k, _)| k.as_str()),
                TagLine::Broken => None,
            };
            self.tag_line(number, first);
            let b = self.current.get_or_insert_with(|| Builder {
                line: number,
                ..Builder::default()
            });
            match read {
                TagLine::Tags(tags) => b.tags.extend(tags),
                TagLine::Broken => match parse_quoted_tag(trimmed) {
                    Some(tags) => {
                        b.notes.push(ReaderNote::UnescapedQuotes {
                            tags: tags.iter().map(|(k, _)| k.clone()).collect(),
                        });
                        b.tags.extend(tags);
                    }
                    None => b.defect(Defect::at(
                        number,
                        format!("tag not closed: {}", quote(trimmed)),
                    )),
                },
            }
            return Scan::Done;
        }
        if self.ended {
            // Between games: a block counts unless a comment opened on the line holds it.
            if let Some(at) = find_ignore_case(line, BLOCK_OPEN, 0)
                && line[..at].matches('{').count() <= line[..at].matches('}').count()
            {
                return Scan::Block(at);
            }
            // After a game, a move list from its first move is the next game, tags or not; other
            // moves after the result are not read, and the game says so. After prose that held a
            // result-like token (a `*` in a box of stars), text is passed over up to a tag.
            let after_game = self.current.as_ref().is_some_and(Builder::is_game);
            if !(after_game && at_start && starts_move_list(trimmed)) {
                self.after_result(line, number);
                return Scan::Done;
            }
            self.finish();
        }
        let mut token = String::new();
        for (i, c) in line.char_indices() {
            if c == '['
                && line.as_bytes()[i..]
                    .get(..BLOCK_OPEN.len())
                    .is_some_and(|w| w.eq_ignore_ascii_case(BLOCK_OPEN.as_bytes()))
                && (self.comment_from.is_none() && self.variation_depth == 0
                    || !self.current.as_ref().is_some_and(Builder::is_game))
            {
                self.token(&mut token, number);
                return Scan::Block(i);
            }
            if self.comment_from.is_some() {
                if c == '}' {
                    self.comment_from = None;
                }
                continue;
            }
            match c {
                '{' => {
                    self.token(&mut token, number);
                    self.comment_from = Some(number);
                }
                ';' => {
                    self.token(&mut token, number);
                    // Outside a game (an HTML page: `&nbsp;`), a block later on the line counts.
                    if !self.current.as_ref().is_some_and(Builder::is_game)
                        && let Some(at) = find_ignore_case(line, BLOCK_OPEN, i)
                    {
                        return Scan::Block(at);
                    }
                    break;
                }
                '(' | '（' => {
                    self.token(&mut token, number);
                    if self.variation_depth == 0 {
                        self.variation_from = number;
                    }
                    self.variation_depth += 1;
                }
                ')' | '）' => {
                    self.token(&mut token, number);
                    self.variation_depth = self.variation_depth.saturating_sub(1);
                }
                c if c.is_whitespace() => self.token(&mut token, number),
                c => token.push(c),
            }
            if self.ended {
                self.after_result(&line[i + c.len_utf8()..], number);
                return Scan::Done;
            }
        }
        self.token(&mut token, number);
        Scan::Done
    }

    /// Text after the current game's result (on the result's line or on a later one): if it holds
    /// moves, the game notes once that the moves after its result, from this line, are not read.
    /// Other text (prose, a site's advertisement) is passed over.
    fn after_result(&mut self, text: &str, number: u32) {
        let Some(b) = self.current.as_mut() else {
            return;
        };
        if b.moves_after_result
            || !text
                .split_whitespace()
                .any(|w| looks_like_move(move_text(w)))
        {
            return;
        }
        b.moves_after_result = true;
        b.notes.push(ReaderNote::MovesAfterResult {
            line: number,
            text: quote(text.trim()),
        });
    }

    /// A tag line at `number` whose first tag is `first`: ends the game before it if that game
    /// has move text, or already has that tag (a record of tags without moves), and closes any
    /// comment or variation left open (naming it as the defect of the game it was open in).
    fn tag_line(&mut self, number: u32, first: Option<&str>) {
        self.close_open(Some(number));
        let repeated = |b: &Builder| {
            first.is_some_and(|name| b.tags.iter().any(|(k, _)| k.eq_ignore_ascii_case(name)))
        };
        if self
            .current
            .as_ref()
            .is_some_and(|b| b.has_movetext() || repeated(b))
            || self.ended
        {
            self.finish();
        }
    }

    /// Records a comment or variation still open as the current game's defect, and closes it.
    /// `before`: the tag line that ends it (`None`: the end of the text).
    fn close_open(&mut self, before: Option<u32>) {
        let open = match (self.comment_from, self.variation_depth) {
            (Some(line), _) => Some((line, "comment `{`")),
            (None, d) if d > 0 => Some((self.variation_from, "variation `(`")),
            _ => None,
        };
        self.comment_from = None;
        self.variation_depth = 0;
        let (Some((line, what)), Some(b)) = (open, self.current.as_mut()) else {
            return;
        };
        let end = match before {
            Some(n) => format!("the tag at line {n}"),
            None => "the end of the text".to_string(),
        };
        b.defect(Defect::at(
            line,
            format!("{what} opened at line {line} is not closed before {end}; the moves after it are lost"),
        ));
    }

    fn token(&mut self, token: &mut String, line: u32) {
        if token.is_empty() {
            return;
        }
        let text = std::mem::take(token);
        if self.variation_depth > 0 || self.ended {
            return;
        }
        let mut t = text.as_str();
        // Move numbers, possibly glued to the move: `12.`, `12...`, `1.h2e2`, `19…`.
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 {
            let rest = &t[digits..];
            let after = rest.trim_start_matches(['.', '…', '。', '．']);
            if (after.len() < rest.len() || rest.is_empty())
                && (after.is_empty() || after.starts_with(|c: char| !c.is_ascii_digit()))
            {
                t = after;
            }
        }
        let normalized = normalize(t);
        let n = normalized.as_ref();
        if n.is_empty()
            || n.starts_with('$')
            || n.chars().all(|c| matches!(c, '.' | '…' | '!' | '?'))
            || n.chars().all(|c| c.is_ascii_digit())
        {
            return;
        }
        if matches!(n, "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*" | "1/2") {
            let b = self.current.get_or_insert_with(|| Builder {
                line,
                ..Builder::default()
            });
            b.result = Some(n.to_string());
            self.ended = true;
            return;
        }
        let b = self.current.get_or_insert_with(|| Builder {
            line,
            ..Builder::default()
        });
        // Chinese moves written without a space between them.
        let chars: Vec<char> = t.chars().collect();
        if chars.len() == 8 && !t.is_ascii() {
            let (first, second): (String, String) =
                (chars[..4].iter().collect(), chars[4..].iter().collect());
            if looks_like_move(&first) && looks_like_move(&second) {
                b.tokens.push(MoveToken { text: first, line });
                b.tokens.push(MoveToken { text: second, line });
                return;
            }
        }
        b.tokens.push(MoveToken {
            text: t.to_string(),
            line,
        });
    }

    /// Ends the current game: kept if it is a game, not prose.
    fn finish(&mut self) {
        if !self.ended {
            self.close_open(None);
        }
        self.comment_from = None;
        self.variation_depth = 0;
        self.ended = false;
        let Some(b) = self.current.take() else {
            return;
        };
        if !b.is_game() {
            return;
        }
        let tag = |name: &str| {
            b.tags
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.trim().to_string())
        };
        let start = match tag("FEN") {
            Some(fen) if !fen.is_empty() => Start::Fen(fen),
            _ => Start::Standard,
        };
        let format = if b.tags.is_empty() {
            Format::MoveList
        } else {
            Format::Pgn
        };
        self.games.push(RawGame {
            index: self.games.len() + 1,
            line: b.line,
            format,
            start,
            tags: b.tags,
            tokens: b.tokens,
            result: b.result,
            notations: None,
            notes: b.notes,
            defect: b.defect,
        });
    }
}

/// Reads a line holding one tag whose value has unescaped quotes in it (`[Event "the "X" cup"]`):
/// the value runs from the first quote to the quote before the line's closing `]`.
fn parse_quoted_tag(line: &str) -> Option<Vec<(String, String)>> {
    let inner = line
        .trim_end()
        .strip_prefix('[')?
        .strip_suffix(']')?
        .trim_end();
    let name_len = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(inner.len());
    let value = inner[name_len..]
        .trim_start()
        .strip_prefix('"')?
        .strip_suffix('"')?;
    (name_len > 0).then(|| vec![(inner[..name_len].to_string(), value.to_string())])
}

/// Reads one or more `[Name "value"]` tags filling a line (`\"` and `\\` escapes in the value);
/// `None` if the line is anything else.
fn parse_tag_line(line: &str) -> Option<Vec<(String, String)>> {
    let mut tags = Vec::new();
    let mut rest = line.trim_end();
    while !rest.is_empty() {
        rest = rest.strip_prefix('[')?.trim_start();
        let name_len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(rest.len());
        if name_len == 0 {
            return None;
        }
        let name = &rest[..name_len];
        rest = rest[name_len..].trim_start().strip_prefix('"')?;
        let mut value = String::new();
        let mut chars = rest.char_indices();
        let end = loop {
            let (i, c) = chars.next()?;
            match c {
                '\\' => {
                    if let Some((_, next)) = chars.next() {
                        value.push(next);
                    }
                }
                '"' => break i,
                c => value.push(c),
            }
        };
        rest = rest[end + 1..].trim_start().strip_prefix(']')?.trim_start();
        tags.push((name.to_string(), value));
    }
    (!tags.is_empty()).then_some(tags)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(g: &RawGame) -> Vec<&str> {
        g.tokens.iter().map(|t| t.text.as_str()).collect()
    }

    #[test]
    fn games_comments_variations() {
        let text = "[Event \"A\"] [Red \"R \\\"x\\\"\"]\n\n1. h2e2 {a\ncomment} h9g7 (2. h0g2 (2. b0c2)) 2.h0g2 $1 i9h9 1-0\n====\nadvert 1. a0a1\n\
                    [Event \"B\"]\n1. 炮二平五 马８进７\n19.          车２平３ 1/2-1/2\n";
        let games = split(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tags[1], ("Red".to_string(), "R \"x\"".to_string()));
        assert_eq!(texts(&games[0]), ["h2e2", "h9g7", "h0g2", "i9h9"]);
        assert_eq!(games[0].tokens[1].line, 4);
        assert_eq!(games[0].result.as_deref(), Some("1-0"));
        assert_eq!(texts(&games[1]), ["炮二平五", "马８进７", "车２平３"]);
        assert_eq!(games[1].line, 7);
    }

    #[test]
    fn bare_move_lists_and_prose() {
        assert_eq!(split("h2e2 h9g7 h0g2\n").len(), 1);
        assert!(split("Permission is hereby granted\n").is_empty());
        assert!(split("").is_empty());
        assert_eq!(
            texts(&split("1.炮二平五马８进７\n")[0]),
            ["炮二平五", "马８进７"]
        );
    }

    fn defect(g: &RawGame) -> Option<(u32, String)> {
        g.defect
            .as_ref()
            .map(|d| (d.line.unwrap_or(0), d.kind.to_string()))
    }

    #[test]
    fn tag_values_with_inner_quotes_are_read_to_the_closing_bracket() {
        let games = split("[Event \"第二屆\"嘉豐\"杯\"]\n[Red \"A\"]\n1. h2e2 h9g7 1-0\n");
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].tags[0].1, "第二屆\"嘉豐\"杯");
        assert_eq!(games[0].tags[1].1, "A");
        assert!(games[0].defect.is_none());
        assert_eq!(games[0].notes.len(), 1);
    }

    #[test]
    fn an_unterminated_tag_is_a_defect_at_its_line() {
        let games = split("[Event \"A\"]\n1. h2e2 h9g7 1-0\n\n[Event \"B\n1. h2e2 h9g7 1-0\n");
        assert_eq!(games.len(), 2);
        assert_eq!(texts(&games[1]), ["h2e2", "h9g7"]);
        let (line, message) = defect(&games[1]).unwrap();
        assert_eq!(line, 4);
        assert!(message.contains("tag not closed"), "{message}");
    }

    #[test]
    fn unclosed_comments_and_variations_are_defects_where_they_open() {
        let games = split(
            "[Event \"A\"]\n1. h2e2 {oops\nh9g7 1-0\n\n[Event \"B\"]\n1. h2e2 (1. b0c2\nh9g7 1-0\n\n[Event \"C\"]\n1. h2e2 h9g7 1-0\n",
        );
        assert_eq!(games.len(), 3);
        let (line, message) = defect(&games[0]).unwrap();
        assert_eq!(line, 2);
        assert!(message.contains("comment"), "{message}");
        let (line, message) = defect(&games[1]).unwrap();
        assert_eq!(line, 6);
        assert!(message.contains("variation"), "{message}");
        assert!(games[2].defect.is_none());
        let games = split("1. h2e2 {never closed h9g7\n");
        assert!(defect(&games[0]).unwrap().1.contains("end of the text"));
    }

    #[test]
    fn a_dhtmlxq_marker_in_a_comment_is_not_a_block() {
        let games = split("[Event \"A\"]\n1. h2e2 {see [DhtmlXQ]} h9g7 1-0\n");
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].format, Format::Pgn);
        assert_eq!(texts(&games[0]), ["h2e2", "h9g7"]);
        let games = split("[Event \"see [DhtmlXQ]\"]\n1. h2e2 h9g7 1-0\n");
        assert_eq!((games.len(), games[0].format), (1, Format::Pgn));
        let games = split("1. h2e2 h9g7 1-0 {see [DhtmlXQ]}\n");
        assert_eq!((games.len(), games[0].format), (1, Format::MoveList));
    }

    #[test]
    fn blocks_and_pgn_games_in_one_text_each_keep_their_format() {
        let text = "[Event \"A\"]\n1. h2e2 h9g7 1-0\n<p>{css} x</p>\n<div style=\"a;\">[DhtmlXQ]\n[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]\n[/DhtmlXQ]</div> tail\n[Event \"B\"]\n1. h2e2 1-0\n";
        let games = split(text);
        let formats: Vec<Format> = games.iter().map(|g| g.format).collect();
        assert_eq!(formats, [Format::Pgn, Format::DhtmlXq, Format::Pgn]);
        assert_eq!(games.iter().map(|g| g.index).collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!((games[1].line, games[1].tokens[0].line), (4, 5));
        assert_eq!(games[2].line, 7);
    }

    #[test]
    fn tagless_games_after_a_result_are_games() {
        let games = split("1. h2e2 *\n\n1. h0g2 *\n\n1.b0c2 1-0\n");
        let moves: Vec<&str> = games.iter().map(|g| g.tokens[0].text.as_str()).collect();
        assert_eq!(moves, ["h2e2", "h0g2", "b0c2"]);
        assert_eq!(games[2].result.as_deref(), Some("1-0"));
        assert!(games.iter().all(|g| g.notes.is_empty()));
    }

    #[test]
    fn moves_after_a_result_are_noted_not_lost_silently() {
        let games = split("[Event \"x\"]\n1. h2e2 h9g7 1-0 2. h0g2 i9h9\n3. b0c2 *\n");
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].tokens.len(), 2);
        assert_eq!(games[0].notes.len(), 1, "{:?}", games[0].notes);
        let note = games[0].notes[0].to_string();
        assert!(
            note.starts_with("line 2: moves after the result are not read: ")
                && note.contains("h0g2"),
            "{:?}",
            games[0].notes
        );
        // Prose after a result (a site's notice) is passed over without a note.
        let games = split("[Event \"x\"]\n1. h2e2 *\n本棋谱由某网站提供\nwww.example.com\n");
        assert!(games[0].notes.is_empty(), "{:?}", games[0].notes);
    }

    #[test]
    fn cr_only_line_ends_and_records_without_moves() {
        let games = split("[Event \"A\"]\r[Red \"x\"]\r1. h2e2 h9g7\r1-0\r");
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].tokens[1].line, 3);
        let games =
            split("[Game \"A\"]\n[Event \"A\"]\n\n[Game \"B\"]\n[Event \"B\"]\n1. h2e2 1-0\n");
        assert_eq!(games.len(), 2);
        assert!(games[0].tokens.is_empty());
        assert_eq!(texts(&games[1]), ["h2e2"]);
    }
}
