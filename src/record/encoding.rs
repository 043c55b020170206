//! Text encodings of game records: UTF-8 (with or without a BOM), UTF-16 (with a BOM, or told by
//! its zero bytes), GB18030 (which covers GBK) and Big5 (CP950). A BOM, UTF-16's zero bytes or
//! valid UTF-8 decide at once; otherwise the caller
//! decodes both Chinese encodings and keeps the one whose moves replay, since Big5 bytes often
//! decode as valid but meaningless GBK.

use std::borrow::Cow;
use std::fmt;

/// A text encoding of a record file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// UTF-8.
    Utf8,
    /// UTF-16, little-endian.
    Utf16Le,
    /// UTF-16, big-endian.
    Utf16Be,
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
            Encoding::Utf16Le => "UTF-16LE",
            Encoding::Utf16Be => "UTF-16BE",
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
    let (codec, skip) = match encoding_rs::Encoding::for_bom(bytes) {
        Some((codec, bom)) => (Some(codec), bom),
        None => (utf16_without_bom(bytes), 0),
    };
    if let Some(codec) = codec {
        let (text, had_errors) = codec.decode_without_bom_handling(&bytes[skip..]);
        let encoding = if codec == encoding_rs::UTF_16LE {
            Encoding::Utf16Le
        } else if codec == encoding_rs::UTF_16BE {
            Encoding::Utf16Be
        } else {
            Encoding::Utf8
        };
        return vec![Decoded {
            encoding,
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

/// Whether `bytes` start like UTF-16 text (a UTF-16 BOM, or the zero bytes of UTF-16 ASCII).
pub fn is_utf16(bytes: &[u8]) -> bool {
    match encoding_rs::Encoding::for_bom(bytes) {
        Some((codec, _)) => codec != encoding_rs::UTF_8,
        None => utf16_without_bom(bytes).is_some(),
    }
}

/// UTF-16 without a BOM, told by its zero bytes: record text is mostly ASCII, whose UTF-16 has a
/// zero in every other byte (odd places: little-endian, even places: big-endian), while no 8-bit
/// encoding of text has zeros.
fn utf16_without_bom(bytes: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    let head = &bytes[..bytes.len().min(4096) & !1];
    if head.len() < 4 {
        return None;
    }
    let pairs = head.len() / 2;
    let zeros = |parity: usize| {
        head.iter()
            .skip(parity)
            .step_by(2)
            .filter(|&&b| b == 0)
            .count()
    };
    let (even, odd) = (zeros(0), zeros(1));
    if odd * 10 >= pairs * 4 && even * 20 < pairs {
        Some(encoding_rs::UTF_16LE)
    } else if even * 10 >= pairs * 4 && odd * 20 < pairs {
        Some(encoding_rs::UTF_16BE)
    } else {
        None
    }
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

    #[test]
    fn utf16_with_and_without_a_bom() {
        let text = "[Event \"A\"]\n1. 炮二平五 h9g7 1-0\n";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        for (bytes, encoding) in [(le, Encoding::Utf16Le), (be, Encoding::Utf16Be)] {
            let with_bom: Vec<u8> = match encoding {
                Encoding::Utf16Le => [&[0xFF, 0xFE][..], &bytes].concat(),
                _ => [&[0xFE, 0xFF][..], &bytes].concat(),
            };
            for b in [&bytes, &with_bom] {
                let c = candidates(b);
                assert_eq!(c.len(), 1);
                assert_eq!((c[0].encoding, c[0].text.as_ref()), (encoding, text));
            }
        }
        assert_eq!(candidates(text.as_bytes())[0].encoding, Encoding::Utf8);
    }
}
