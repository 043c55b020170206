//! Quoting text that came from outside (a move token, a FEN, a tag line) in a message: cut to a
//! readable length, so that a token of megabytes never becomes a message of megabytes, and shown
//! with its control characters escaped, so that it never drives the terminal it is printed on.

/// The longest quoted text, in characters, before it is cut.
pub const QUOTE_CHARS: usize = 60;

/// `text` cut to `max` characters, with `…` when cut.
pub fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// `text` cut to [`QUOTE_CHARS`].
pub fn quote(text: &str) -> String {
    clip(text, QUOTE_CHARS)
}

/// `text` with its control characters (ESC, NUL, line breaks, …) and the invisible marks that
/// reorder a line (bidirectional overrides) written as escapes: `\x1b`, `\u{202e}`. A
/// backslash stays as it is.
pub fn printable(text: &str) -> String {
    if !text.chars().any(hidden) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !hidden(c) {
            out.push(c);
        } else if (c as u32) < 0x100 {
            out.push_str(&format!("\\x{:02x}", c as u32));
        } else {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        }
    }
    out
}

/// Whether a character acts on the terminal or the line instead of showing.
fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_on_character_boundaries() {
        assert_eq!(clip("h2e2", 4), "h2e2");
        assert_eq!(clip("炮二平五", 2), "炮二…");
        assert_eq!(quote(&"x".repeat(1 << 20)).chars().count(), QUOTE_CHARS + 1);
    }

    #[test]
    fn control_characters_are_shown_escaped() {
        assert_eq!(printable("炮二平五 h2e2"), "炮二平五 h2e2");
        assert_eq!(printable("a\u{1b}[2Jb\0c\n"), "a\\x1b[2Jb\\x00c\\x0a");
        assert_eq!(printable("\u{202e}x\u{85}"), "\\u{202e}x\\x85");
        assert_eq!(printable("a\\b"), "a\\b");
    }
}
