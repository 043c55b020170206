//! PGN-like text records: xqbase XQ PGN, coordinate PGN, WXF and Chinese move text, XBoard PGN and
//! bare move lists. Splits a text into games: tags, move tokens with their lines, the result token.
//! Comments (`{…}` across lines, `;` to the end of the line), variations (nested `(…)`), move
//! numbers, NAGs and anything between a result and the next tag (xqbase's advertisement block) are
//! skipped. Tokens are not interpreted here (`notation.rs` does that against positions).

use super::notation::{looks_like_move, normalize};
use super::{Format, MoveToken, RawGame, Start};

#[derive(Default)]
struct Builder {
    line: u32,
    tags: Vec<(String, String)>,
    tokens: Vec<MoveToken>,
    result: Option<String>,
}

impl Builder {
    fn has_movetext(&self) -> bool {
        !self.tokens.is_empty() || self.result.is_some()
    }
}

struct Scanner {
    games: Vec<RawGame>,
    current: Option<Builder>,
    in_comment: bool,
    variation_depth: u32,
    ended: bool,
}

/// Splits `text` into games. Text before the first tag that does not start with a move (a title,
/// prose) is not a game.
pub fn split(text: &str) -> Vec<RawGame> {
    let mut s = Scanner {
        games: Vec::new(),
        current: None,
        in_comment: false,
        variation_depth: 0,
        ended: false,
    };
    for (i, line) in text.lines().enumerate() {
        let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
        s.line(line, number);
    }
    s.finish();
    s.games
}

impl Scanner {
    fn line(&mut self, line: &str, number: u32) {
        let trimmed = line.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}');
        if trimmed.starts_with('[')
            && let Some(tags) = parse_tag_line(trimmed)
        {
            if self.current.as_ref().is_some_and(Builder::has_movetext) || self.ended {
                self.finish();
            }
            let b = self.current.get_or_insert_with(|| Builder {
                line: number,
                ..Builder::default()
            });
            b.tags.extend(tags);
            // A well-formed tag line ends any comment or variation left open by a broken game.
            self.in_comment = false;
            self.variation_depth = 0;
            return;
        }
        if self.ended {
            return;
        }
        let mut token = String::new();
        for c in line.chars() {
            if self.in_comment {
                if c == '}' {
                    self.in_comment = false;
                }
                continue;
            }
            match c {
                '{' => {
                    self.token(&mut token, number);
                    self.in_comment = true;
                }
                ';' => {
                    self.token(&mut token, number);
                    break;
                }
                '(' | '（' => {
                    self.token(&mut token, number);
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
                return;
            }
        }
        self.token(&mut token, number);
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

    fn finish(&mut self) {
        self.in_comment = false;
        self.variation_depth = 0;
        self.ended = false;
        let Some(b) = self.current.take() else {
            return;
        };
        if b.tags.is_empty() && !b.tokens.first().is_some_and(|t| looks_like_move(&t.text)) {
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
            notes: Vec::new(),
            defect: None,
        });
    }
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
}
