//! Quoting text that came from outside (a move token, a FEN, a tag line) in a message: cut to a
//! readable length, so that a token of megabytes never becomes a message of megabytes.

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_on_character_boundaries() {
        assert_eq!(clip("h2e2", 4), "h2e2");
        assert_eq!(clip("炮二平五", 2), "炮二…");
        assert_eq!(quote(&"x".repeat(1 << 20)).chars().count(), QUOTE_CHARS + 1);
    }
}
