//! The board glyph font: the few Chinese characters a board draws (the fourteen piece glyphs and
//! 楚河漢界), a subset of Noto Serif CJK TC Bold under the SIL Open Font License 1.1
//! (`board_glyphs.OFL.txt`, built by `tools/board_glyphs.py`), embedded so that a page shows its
//! pieces on a machine without a CJK font.

use std::sync::LazyLock;

/// The font file (WOFF2).
pub const FONT: &[u8] = include_bytes!("board_glyphs.woff2");

/// The CSS family name boards ask for first.
pub const FAMILY: &str = "xq board glyphs";

/// The CSS `font-family` list for board glyphs: the embedded font, then installed CJK fonts.
pub const FONT_STACK: &str = "'xq board glyphs', 'Noto Serif CJK TC', 'Noto Serif CJK SC', 'Songti TC', 'PMingLiU', 'SimSun', serif";

/// The `@font-face` rule that declares the embedded font, as a data URL.
pub fn font_face() -> &'static str {
    static RULE: LazyLock<String> = LazyLock::new(|| {
        format!(
            "@font-face {{ font-family: '{FAMILY}'; font-weight: bold; src: url(data:font/woff2;base64,{}) format('woff2'); }}",
            base64(FONT)
        )
    });
    &RULE
}

/// Standard base64 (RFC 4648, with padding).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_rfc_vectors() {
        for (input, expected) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(input.as_bytes()), expected);
        }
    }

    #[test]
    fn the_font_is_woff2_and_declared() {
        assert_eq!(&FONT[..4], b"wOF2");
        assert!(font_face().contains(FAMILY));
        assert!(FONT_STACK.starts_with(&format!("'{FAMILY}'")));
    }
}
