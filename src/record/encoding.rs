//! Text encodings of game records: UTF-8 (with or without a BOM, also UTF-16 with a BOM), GB18030
//! (which covers GBK) and Big5 (CP950). A BOM or valid UTF-8 decides at once; otherwise the caller
//! decodes both Chinese encodings and keeps the one whose moves replay, since Big5 bytes often
//! decode as valid but meaningless GBK.

use std::borrow::Cow;
use std::fmt;

/// A text encoding of a record file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// UTF-8, or UTF-16 announced by a BOM.
    Utf8,
    /// GB18030, a superset of GBK and GB2312.
    Gb18030,
    /// Big5 as used on Windows (CP950).
    Big5,
    /// Not text: a binary format (XQF), whose strings are GBK.
    Binary,
}

impl Encoding {
    /// The name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Gb18030 => "GB18030",
            Encoding::Big5 => "Big5",
            Encoding::Binary => "binary",
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A decoding of some bytes.
#[derive(Clone, Debug)]
pub struct Decoded<'a> {
    /// The encoding used.
    pub encoding: Encoding,
    /// The text, with a BOM removed.
    pub text: Cow<'a, str>,
    /// Whether some bytes were not valid in the encoding (replaced by U+FFFD).
    pub had_errors: bool,
}

/// The plausible decodings of `bytes`, most likely first: just UTF-8 when a BOM or valid UTF-8
/// says so, otherwise GB18030 and then Big5.
pub fn candidates(bytes: &[u8]) -> Vec<Decoded<'_>> {
    if let Some((encoding, bom)) = encoding_rs::Encoding::for_bom(bytes) {
        let (text, had_errors) = encoding.decode_without_bom_handling(&bytes[bom..]);
        return vec![Decoded {
            encoding: Encoding::Utf8,
            text,
            had_errors,
        }];
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return vec![Decoded {
            encoding: Encoding::Utf8,
            text: Cow::Borrowed(text),
            had_errors: false,
        }];
    }
    [
        (Encoding::Gb18030, encoding_rs::GB18030),
        (Encoding::Big5, encoding_rs::BIG5),
    ]
    .into_iter()
    .map(|(encoding, codec)| {
        let (text, had_errors) = codec.decode_without_bom_handling(bytes);
        Decoded {
            encoding,
            text,
            had_errors,
        }
    })
    .collect()
}

/// Decodes GBK bytes (XQF strings), replacing invalid sequences.
pub fn decode_gbk(bytes: &[u8]) -> String {
    encoding_rs::GB18030
        .decode_without_bom_handling(bytes)
        .0
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection() {
        let utf8 = "炮二平五".as_bytes();
        assert_eq!(candidates(utf8).len(), 1);
        let with_bom = [&[0xEF, 0xBB, 0xBF][..], utf8].concat();
        let c = candidates(&with_bom);
        assert_eq!((c.len(), c[0].text.as_ref()), (1, "炮二平五"));
        // 炮二平五 in GBK.
        let gbk = [0xC5, 0xDA, 0xB6, 0xFE, 0xC6, 0xBD, 0xCE, 0xE5];
        let c = candidates(&gbk);
        assert_eq!(c.len(), 2);
        assert_eq!(
            (c[0].encoding, c[0].text.as_ref()),
            (Encoding::Gb18030, "炮二平五")
        );
        assert_eq!(c[1].encoding, Encoding::Big5);
    }
}
