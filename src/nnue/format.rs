//! The net file: architecture constants, the quantised weights it carries, and its byte layout
//! (header, payload, checksum) as specified in `nnue/FORMAT.md`.

use std::fmt;

/// Input features per perspective: 2 (own / opponent) × 7 piece kinds × 90 squares.
pub const INPUTS: usize = 1260;
/// Hidden neurons per perspective (accumulator width).
pub const HIDDEN: usize = 256;
/// Quantisation of the first layer (`W0`, `b0`) and of the activation range.
pub const QA: i32 = 255;
/// Quantisation of the output weights `W1`.
pub const QB: i32 = 256;
/// Output scale: centipawns = `v × SCALE / (QA × QB)`.
pub const SCALE: i32 = 400;
/// Output layers, one of which evaluates a position: chosen by the number of pieces on the board
/// ([`output_bucket`]).
pub const OUTPUT_BUCKETS: usize = 8;
/// How a net's first layer is split by where each perspective's own king stands in its palace;
/// the perspective reads one part ([`crate::nnue::features::Orientation`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KingLayout {
    /// One part whatever the king's square (format versions 1 and 2).
    #[default]
    Plain,
    /// Six parts, by the king's rank and by file d or e, a king on file f seen mirrored left to
    /// right onto file d (version 3).
    Mirrored,
    /// Nine parts, one for each square of the palace, nothing mirrored (version 4).
    Palace,
}

impl KingLayout {
    /// Every layout, in version order.
    pub const ALL: [KingLayout; 3] = [KingLayout::Plain, KingLayout::Mirrored, KingLayout::Palace];

    /// The parts of the first layer.
    pub const fn buckets(self) -> usize {
        match self {
            KingLayout::Plain => 1,
            KingLayout::Mirrored => v3::BUCKETS,
            KingLayout::Palace => v4::BUCKETS,
        }
    }

    /// Rows of the first layer: [`INPUTS`] for each part.
    pub const fn rows(self) -> usize {
        self.buckets() * INPUTS
    }

    /// Whether the first layer has more than one part.
    pub const fn is_bucketed(self) -> bool {
        !matches!(self, KingLayout::Plain)
    }

    /// The format version a net of this layout is written in.
    pub const fn version(self) -> u32 {
        match self {
            KingLayout::Plain => VERSION,
            KingLayout::Mirrored => v3::VERSION,
            KingLayout::Palace => v4::VERSION,
        }
    }

    /// The name the tools use: `plain`, `mirrored` or `palace`.
    pub const fn name(self) -> &'static str {
        match self {
            KingLayout::Plain => "plain",
            KingLayout::Mirrored => "mirrored",
            KingLayout::Palace => "palace",
        }
    }
}

/// The most parts any layout's first layer has.
pub const MAX_KING_BUCKETS: usize = v4::BUCKETS;

/// The output layer that evaluates a position with `pieces` pieces on the board (kings included,
/// 2 to 32): `(pieces − 2) / 4`, at most `OUTPUT_BUCKETS − 1`, so bucket 0 holds the bare endings
/// of 2 to 5 pieces and bucket 7 the openings of 30 to 32.
#[inline]
pub const fn output_bucket(pieces: u32) -> usize {
    let b = pieces.saturating_sub(2) as usize / 4;
    if b < OUTPUT_BUCKETS {
        b
    } else {
        OUTPUT_BUCKETS - 1
    }
}

/// The largest output weight in absolute value: `clamp(a, 0, QA) × w` must fit an i16.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;
const _: () = assert!(QA * MAX_OUTPUT_WEIGHT as i32 <= i16::MAX as i32);
/// The largest sum of the output weights' absolute values: the evaluation adds up
/// `clamp(a, 0, QA)² × w` over both halves in an i32, so `QA² × Σ|W1|` must fit one. With
/// `2 × HIDDEN × MAX_OUTPUT_WEIGHT` above this the bound is checked per file, not per weight.
pub const MAX_OUTPUT_SUM: i64 = i32::MAX as i64 / (QA as i64 * QA as i64);

/// `Σ |w|` over the weights of one output layer, the quantity [`MAX_OUTPUT_SUM`] bounds.
pub fn output_sum(w1: &[i16]) -> i64 {
    w1.iter().map(|&w| i64::from(w.unsigned_abs())).sum()
}

/// The four bytes every net file starts with.
pub const MAGIC: [u8; 4] = *b"XQNN";
/// The format version this build writes; it reads [`v1`] files too.
pub const VERSION: u32 = 2;
/// The fixed description of the architecture; its FNV-1a 32 hash goes into the header, so a file
/// made for another feature set, size, activation or scale is refused.
pub const ARCHITECTURE: &str =
    "xq-nnue v2: 2x(1260->256) screlu, out 8x(512->1) by pieces (n-2)/4, QA255 QB256 SCALE400";
/// FNV-1a 32 of [`ARCHITECTURE`].
pub const ARCHITECTURE_HASH: u32 = fnv1a_32(ARCHITECTURE.as_bytes());
/// Header size in bytes; the payload starts here.
pub const HEADER_LEN: usize = 64;
/// Payload size in bytes: `W0`, `b0`, the `W1` of every output layer as i16, then their `b1` as
/// i32.
pub const PAYLOAD_LEN: usize =
    (INPUTS * HIDDEN + HIDDEN + OUTPUT_BUCKETS * 2 * HIDDEN) * 2 + 4 * OUTPUT_BUCKETS;
/// Size of a whole net file in bytes.
pub const FILE_LEN: usize = HEADER_LEN + PAYLOAD_LEN;

const _: () = assert!(FILE_LEN == 653_920);

/// Version 1 of the format: the same first layer and a single output layer, which this build
/// reads as that layer in every bucket (so a version-1 net evaluates as it always did).
pub mod v1 {
    use super::{HEADER_LEN, HIDDEN, INPUTS, fnv1a_32};
    /// The version number.
    pub const VERSION: u32 = 1;
    /// The architecture description of version 1.
    pub const ARCHITECTURE: &str =
        "xq-nnue v1: 2x(1260->256) screlu, out 512->1, QA255 QB256 SCALE400";
    /// FNV-1a 32 of [`ARCHITECTURE`].
    pub const ARCHITECTURE_HASH: u32 = fnv1a_32(ARCHITECTURE.as_bytes());
    /// Payload size in bytes: `W0`, `b0`, `W1` as i16, then `b1` as i32.
    pub const PAYLOAD_LEN: usize = (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) * 2 + 4;
    /// Size of a whole version-1 net file in bytes.
    pub const FILE_LEN: usize = HEADER_LEN + PAYLOAD_LEN;
    const _: () = assert!(FILE_LEN == 646_724);
}

/// Version 3 of the format: version 2's output layers, and a first layer for each of
/// [`v3::BUCKETS`] places of the perspective's own king, the pieces seen mirrored left to right
/// when that king stands on the right-hand file of its palace.
pub mod v3 {
    use super::{HEADER_LEN, HIDDEN, INPUTS, OUTPUT_BUCKETS, fnv1a_32};
    /// The version number.
    pub const VERSION: u32 = 3;
    /// Parts of the first layer: ranks 0 to 2 of the palace, files d and e.
    pub const BUCKETS: usize = 6;
    /// The architecture description of version 3.
    pub const ARCHITECTURE: &str = "xq-nnue v3: 2x(6x1260->256) by own king (rank, file d/e, \
         mirrored from f) screlu, out 8x(512->1) by pieces (n-2)/4, QA255 QB256 SCALE400";
    /// FNV-1a 32 of [`ARCHITECTURE`].
    pub const ARCHITECTURE_HASH: u32 = fnv1a_32(ARCHITECTURE.as_bytes());
    /// The header's `inputs` field: the rows of the first layer, all buckets together.
    pub const INPUT_ROWS: usize = BUCKETS * INPUTS;
    /// Payload size in bytes: `W0` (every bucket's rows, bucket 0 first), `b0`, the `W1` of every
    /// output layer as i16, then their `b1` as i32.
    pub const PAYLOAD_LEN: usize =
        (INPUT_ROWS * HIDDEN + HIDDEN + OUTPUT_BUCKETS * 2 * HIDDEN) * 2 + 4 * OUTPUT_BUCKETS;
    /// Size of a whole version-3 net file in bytes.
    pub const FILE_LEN: usize = HEADER_LEN + PAYLOAD_LEN;
    const _: () = assert!(FILE_LEN == 3_879_520);
}

/// Version 4 of the format: version 2's output layers, and a first layer for each of the nine
/// squares of the perspective's own palace, nothing mirrored, so that a plain net copied into
/// every part evaluates exactly as it did.
pub mod v4 {
    use super::{HEADER_LEN, HIDDEN, INPUTS, OUTPUT_BUCKETS, fnv1a_32};
    /// The version number.
    pub const VERSION: u32 = 4;
    /// Parts of the first layer: the palace's nine squares.
    pub const BUCKETS: usize = 9;
    /// The architecture description of version 4.
    pub const ARCHITECTURE: &str = "xq-nnue v4: 2x(9x1260->256) by own king's palace square \
         screlu, out 8x(512->1) by pieces (n-2)/4, QA255 QB256 SCALE400";
    /// FNV-1a 32 of [`ARCHITECTURE`].
    pub const ARCHITECTURE_HASH: u32 = fnv1a_32(ARCHITECTURE.as_bytes());
    /// The header's `inputs` field: the rows of the first layer, all buckets together.
    pub const INPUT_ROWS: usize = BUCKETS * INPUTS;
    /// Payload size in bytes: `W0` (every bucket's rows, bucket 0 first), `b0`, the `W1` of every
    /// output layer as i16, then their `b1` as i32.
    pub const PAYLOAD_LEN: usize =
        (INPUT_ROWS * HIDDEN + HIDDEN + OUTPUT_BUCKETS * 2 * HIDDEN) * 2 + 4 * OUTPUT_BUCKETS;
    /// Size of a whole version-4 net file in bytes.
    pub const FILE_LEN: usize = HEADER_LEN + PAYLOAD_LEN;
    const _: () = assert!(FILE_LEN == 5_814_880);
}

/// The largest net file this build reads, of any version.
pub const MAX_FILE_LEN: usize = v4::FILE_LEN;
const _: () =
    assert!(v4::FILE_LEN > v3::FILE_LEN && v3::FILE_LEN > FILE_LEN && FILE_LEN > v1::FILE_LEN);

/// FNV-1a, 32 bits.
pub const fn fnv1a_32(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u32;
        h = h.wrapping_mul(0x0100_0193);
        i += 1;
    }
    h
}

/// FNV-1a, 64 bits (the payload checksum).
pub const fn fnv1a_64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    h
}

/// Quantised weights, the payload of a net file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetWeights {
    /// How the first layer is split by the place of the perspective's own king: one part for
    /// all (versions 1 and 2), six (version 3) or nine (version 4).
    pub kings: KingLayout,
    /// First layer, `rows × HIDDEN` ([`NetWeights::first_layer_rows`]): one row of `HIDDEN` per
    /// input, the buckets' parts one after the other.
    pub w0: Vec<i16>,
    /// First-layer bias, `HIDDEN`.
    pub b0: Vec<i16>,
    /// Output weights, `OUTPUT_BUCKETS × 2 × HIDDEN`, one output layer after the other: in each,
    /// the first half multiplies the side to move's activations, the second half the other side's.
    pub w1: Vec<i16>,
    /// Output biases, one per output layer, scaled by `QA × QB`.
    pub b1: [i32; OUTPUT_BUCKETS],
}

impl NetWeights {
    /// A deterministic small random net of version 2 for tests and development:
    /// `|w0|, |b0| ≤ 0.3 × QA`, `|w1| ≤ 127`, `|b1| ≤ QA × QB`.
    pub fn random(seed: u64) -> NetWeights {
        NetWeights::random_with(seed, KingLayout::Plain)
    }

    /// A deterministic small random net of any layout, drawn as [`NetWeights::random`] draws.
    pub fn random_with(seed: u64, kings: KingLayout) -> NetWeights {
        let mut state = seed;
        let mut next = move || {
            // SplitMix64.
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut uniform = |bound: i32| -> i32 {
            let span = (2 * bound + 1) as u64;
            (next() % span) as i32 - bound
        };
        let first = QA * 3 / 10;
        let w0 = (0..kings.rows() * HIDDEN)
            .map(|_| uniform(first) as i16)
            .collect();
        let b0 = (0..HIDDEN).map(|_| uniform(first) as i16).collect();
        // Within ±100 the sum of |W1| (about 100 · HIDDEN) stays well inside MAX_OUTPUT_SUM.
        let w1 = (0..OUTPUT_BUCKETS * 2 * HIDDEN)
            .map(|_| uniform(100) as i16)
            .collect();
        let b1 = std::array::from_fn(|_| uniform(QA * QB));
        NetWeights {
            kings,
            w0,
            b0,
            w1,
            b1,
        }
    }

    /// Rows of the first layer: [`INPUTS`] for each part of its layout.
    pub fn first_layer_rows(&self) -> usize {
        self.kings.rows()
    }

    /// The format version this net is written in: 2, 3 or 4 by its layout.
    pub fn version(&self) -> u32 {
        self.kings.version()
    }

    /// Whether the vectors have the sizes the architecture needs.
    pub fn has_architecture_sizes(&self) -> bool {
        self.w0.len() == self.first_layer_rows() * HIDDEN
            && self.b0.len() == HIDDEN
            && self.w1.len() == OUTPUT_BUCKETS * 2 * HIDDEN
    }

    /// The `2 × HIDDEN` output weights of output layer `bucket`.
    pub fn output_weights(&self, bucket: usize) -> &[i16] {
        &self.w1[bucket * 2 * HIDDEN..(bucket + 1) * 2 * HIDDEN]
    }
}

/// Why a byte string is not a net this build can use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// Shorter than the header, or than the payload the header announces.
    Truncated {
        /// Bytes present.
        len: usize,
        /// Bytes needed.
        needed: usize,
    },
    /// The file does not start with `XQNN`.
    BadMagic {
        /// The first four bytes.
        found: [u8; 4],
    },
    /// A format version this build does not read.
    BadVersion {
        /// The version in the file.
        found: u32,
    },
    /// The file was made for another architecture.
    BadArchitecture {
        /// The hash in the file.
        found: u32,
        /// The hash of this build's architecture.
        expected: u32,
    },
    /// A layer size or scale differs from this build's.
    BadDimensions {
        /// Which header field: `inputs`, `hidden`, `QA`, `QB` or `SCALE`.
        field: &'static str,
        /// The value in the file.
        found: u32,
        /// The value this build needs.
        expected: u32,
    },
    /// The reserved header bytes are not all zero.
    BadReserved,
    /// The payload length (declared or actual) is not the architecture's.
    BadLength {
        /// The length found.
        found: u64,
        /// The length needed.
        expected: u64,
    },
    /// An output weight outside ±127, the range the 16-bit output kernel needs.
    BadWeight {
        /// Its index in `W1` (all output layers, one after the other).
        index: usize,
        /// Its value.
        value: i16,
    },
    /// The absolute values of one output layer's weights add up past [`MAX_OUTPUT_SUM`], so the
    /// evaluation's i32 sum could overflow.
    BadOutputSum {
        /// The output layer.
        bucket: usize,
        /// Σ|W1| of that layer in the file.
        sum: i64,
    },
    /// The payload does not match its checksum.
    BadChecksum {
        /// The checksum in the header.
        stored: u64,
        /// The checksum of the payload present.
        computed: u64,
    },
    /// A net file could not be read.
    Io {
        /// The path.
        path: String,
        /// The system's message.
        message: String,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Truncated { len, needed } => {
                write!(f, "net file truncated: {len} bytes, need {needed}")
            }
            NetError::BadMagic { found } => {
                write!(f, "not a net file: magic {found:02x?}, expected \"XQNN\"")
            }
            NetError::BadVersion { found } => {
                write!(
                    f,
                    "net format version {found}, this build reads {} to {}",
                    v1::VERSION,
                    v4::VERSION
                )
            }
            NetError::BadArchitecture { found, expected } => write!(
                f,
                "net architecture hash {found:#010x}, this build expects {expected:#010x}"
            ),
            NetError::BadDimensions {
                field,
                found,
                expected,
            } => write!(
                f,
                "net header field {field} is {found}, expected {expected}"
            ),
            NetError::BadReserved => f.write_str("net header reserved bytes are not zero"),
            NetError::BadLength { found, expected } => {
                write!(f, "net payload length {found}, expected {expected}")
            }
            NetError::BadChecksum { stored, computed } => write!(
                f,
                "net payload checksum {computed:#018x} does not match the header's {stored:#018x}"
            ),
            NetError::BadWeight { index, value } => write!(
                f,
                "net output weight W1[{index}] = {value} is outside -127..=127"
            ),
            NetError::BadOutputSum { bucket, sum } => write!(
                f,
                "net output layer {bucket}: weights add up to {sum} in absolute value, more than {MAX_OUTPUT_SUM}"
            ),
            NetError::Io { path, message } => write!(f, "cannot read net file {path}: {message}"),
        }
    }
}

impl std::error::Error for NetError {}

/// Writes `w` as a net file: the 64-byte header, then the payload (`nnue/FORMAT.md`).
///
/// # Panics
/// If the weight vectors do not have the architecture's sizes (a programming error).
pub fn encode(w: &NetWeights) -> Vec<u8> {
    assert!(
        w.has_architecture_sizes(),
        "weights of the wrong shape for this architecture"
    );
    let (payload_len, arch) = match w.kings {
        KingLayout::Plain => (PAYLOAD_LEN, ARCHITECTURE_HASH),
        KingLayout::Mirrored => (v3::PAYLOAD_LEN, v3::ARCHITECTURE_HASH),
        KingLayout::Palace => (v4::PAYLOAD_LEN, v4::ARCHITECTURE_HASH),
    };
    let mut payload = Vec::with_capacity(payload_len);
    for v in w.w0.iter().chain(&w.b0).chain(&w.w1) {
        payload.extend_from_slice(&v.to_le_bytes());
    }
    for b in w.b1 {
        payload.extend_from_slice(&b.to_le_bytes());
    }
    debug_assert_eq!(payload.len(), payload_len);

    let mut out = Vec::with_capacity(HEADER_LEN + payload_len);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&w.version().to_le_bytes());
    out.extend_from_slice(&arch.to_le_bytes());
    for v in header_dimensions(w.first_layer_rows()) {
        out.extend_from_slice(&v.1.to_le_bytes());
    }
    out.extend_from_slice(&(payload_len as u64).to_le_bytes());
    out.extend_from_slice(&fnv1a_64(&payload).to_le_bytes());
    out.resize(HEADER_LEN, 0);
    out.extend_from_slice(&payload);
    out
}

/// The five dimension fields of the header, in file order, with this build's values for a net
/// whose first layer has `rows` rows.
fn header_dimensions(rows: usize) -> [(&'static str, u32); 5] {
    [
        ("inputs", rows as u32),
        ("hidden", HIDDEN as u32),
        ("QA", QA as u32),
        ("QB", QB as u32),
        ("SCALE", SCALE as u32),
    ]
}

fn read_u32(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

fn read_u64(bytes: &[u8], at: usize) -> u64 {
    let mut b = [0; 8];
    b.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(b)
}

/// Reads a net file of any version, checking every header field and the checksum; never
/// panics. A version-1 file's single output layer is copied into every bucket.
pub fn decode(bytes: &[u8]) -> Result<NetWeights, NetError> {
    if bytes.len() < HEADER_LEN {
        return Err(NetError::Truncated {
            len: bytes.len(),
            needed: HEADER_LEN,
        });
    }
    let mut magic = [0; 4];
    magic.copy_from_slice(&bytes[0..4]);
    if magic != MAGIC {
        return Err(NetError::BadMagic { found: magic });
    }
    let version = read_u32(bytes, 4);
    let (expected_arch, payload_len, layers, kings) = match version {
        VERSION => (
            ARCHITECTURE_HASH,
            PAYLOAD_LEN,
            OUTPUT_BUCKETS,
            KingLayout::Plain,
        ),
        v1::VERSION => (v1::ARCHITECTURE_HASH, v1::PAYLOAD_LEN, 1, KingLayout::Plain),
        v3::VERSION => (
            v3::ARCHITECTURE_HASH,
            v3::PAYLOAD_LEN,
            OUTPUT_BUCKETS,
            KingLayout::Mirrored,
        ),
        v4::VERSION => (
            v4::ARCHITECTURE_HASH,
            v4::PAYLOAD_LEN,
            OUTPUT_BUCKETS,
            KingLayout::Palace,
        ),
        found => return Err(NetError::BadVersion { found }),
    };
    let rows = kings.rows();
    let arch = read_u32(bytes, 8);
    if arch != expected_arch {
        return Err(NetError::BadArchitecture {
            found: arch,
            expected: expected_arch,
        });
    }
    for (i, (field, expected)) in header_dimensions(rows).into_iter().enumerate() {
        let found = read_u32(bytes, 12 + 4 * i);
        if found != expected {
            return Err(NetError::BadDimensions {
                field,
                found,
                expected,
            });
        }
    }
    let declared = read_u64(bytes, 32);
    if declared != payload_len as u64 {
        return Err(NetError::BadLength {
            found: declared,
            expected: payload_len as u64,
        });
    }
    let stored = read_u64(bytes, 40);
    if bytes[48..HEADER_LEN].iter().any(|&b| b != 0) {
        return Err(NetError::BadReserved);
    }
    let payload = &bytes[HEADER_LEN..];
    if payload.len() < payload_len {
        return Err(NetError::Truncated {
            len: bytes.len(),
            needed: HEADER_LEN + payload_len,
        });
    }
    if payload.len() > payload_len {
        return Err(NetError::BadLength {
            found: payload.len() as u64,
            expected: payload_len as u64,
        });
    }
    let computed = fnv1a_64(payload);
    if computed != stored {
        return Err(NetError::BadChecksum { stored, computed });
    }

    let mut values = payload
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]));
    let w0: Vec<i16> = values.by_ref().take(rows * HIDDEN).collect();
    let b0: Vec<i16> = values.by_ref().take(HIDDEN).collect();
    let w1: Vec<i16> = values.by_ref().take(layers * 2 * HIDDEN).collect();
    let biases: Vec<i32> = payload[payload_len - 4 * layers..]
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    if let Some((index, &value)) = w1
        .iter()
        .enumerate()
        .find(|(_, w)| !(-MAX_OUTPUT_WEIGHT..=MAX_OUTPUT_WEIGHT).contains(*w))
    {
        return Err(NetError::BadWeight { index, value });
    }
    for (bucket, layer) in w1.chunks_exact(2 * HIDDEN).enumerate() {
        let sum = output_sum(layer);
        if sum > MAX_OUTPUT_SUM {
            return Err(NetError::BadOutputSum { bucket, sum });
        }
    }
    // A version-1 file has one layer: every bucket gets a copy.
    let w1 = w1.repeat(OUTPUT_BUCKETS / layers);
    let b1 = std::array::from_fn(|bucket| biases[bucket * layers / OUTPUT_BUCKETS]);
    Ok(NetWeights {
        kings,
        w0,
        b0,
        w1,
        b1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_reference_values() {
        // Published FNV-1a test vectors.
        assert_eq!(fnv1a_32(b""), 0x811c_9dc5);
        assert_eq!(fnv1a_32(b"a"), 0xe40c_292c);
        assert_eq!(fnv1a_64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a_64(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn round_trip() {
        let w = NetWeights::random(7);
        let bytes = encode(&w);
        assert_eq!(bytes.len(), FILE_LEN);
        assert_eq!(decode(&bytes), Ok(w));
    }

    #[test]
    fn king_bucketed_nets_round_trip_as_versions_3_and_4() {
        for (kings, file_len) in [
            (KingLayout::Mirrored, v3::FILE_LEN),
            (KingLayout::Palace, v4::FILE_LEN),
        ] {
            let w = NetWeights::random_with(8, kings);
            assert_eq!(w.first_layer_rows(), kings.buckets() * INPUTS);
            let bytes = encode(&w);
            assert_eq!(bytes.len(), file_len);
            assert_eq!(read_u32(&bytes, 4), kings.version());
            assert_eq!(read_u32(&bytes, 12), (kings.buckets() * INPUTS) as u32);
            assert_eq!(decode(&bytes), Ok(w));
            // This version's header on a version-2 payload, and the other way round, are
            // refused.
            let mut bad = encode(&NetWeights::random(8));
            bad[4..8].copy_from_slice(&kings.version().to_le_bytes());
            assert!(matches!(
                decode(&bad),
                Err(NetError::BadArchitecture { .. })
            ));
            let arch = read_u32(&bytes, 8);
            bad[8..12].copy_from_slice(&arch.to_le_bytes());
            assert!(matches!(
                decode(&bad),
                Err(NetError::BadDimensions {
                    field: "inputs",
                    ..
                })
            ));
            let mut bad = bytes.clone();
            bad[4..8].copy_from_slice(&VERSION.to_le_bytes());
            assert!(matches!(
                decode(&bad),
                Err(NetError::BadArchitecture { .. })
            ));
        }
        // Versions 3 and 4 do not read each other's files.
        let mut bad = encode(&NetWeights::random_with(9, KingLayout::Palace));
        bad[4..8].copy_from_slice(&v3::VERSION.to_le_bytes());
        assert!(matches!(
            decode(&bad),
            Err(NetError::BadArchitecture { .. })
        ));
        bad[8..12].copy_from_slice(&v3::ARCHITECTURE_HASH.to_le_bytes());
        assert!(matches!(
            decode(&bad),
            Err(NetError::BadDimensions {
                field: "inputs",
                ..
            })
        ));
    }

    #[test]
    fn layouts_name_their_versions_and_sizes() {
        let versions: Vec<u32> = KingLayout::ALL.iter().map(|k| k.version()).collect();
        assert_eq!(versions, [VERSION, v3::VERSION, v4::VERSION]);
        let rows: Vec<usize> = KingLayout::ALL.iter().map(|k| k.rows()).collect();
        assert_eq!(rows, [INPUTS, v3::INPUT_ROWS, v4::INPUT_ROWS]);
        assert!(
            KingLayout::ALL
                .iter()
                .all(|k| k.buckets() <= MAX_KING_BUCKETS)
        );
        assert!(!KingLayout::Plain.is_bucketed() && KingLayout::Palace.is_bucketed());
    }

    #[test]
    fn random_is_deterministic_and_in_range() {
        let a = NetWeights::random(3);
        assert_eq!(a, NetWeights::random(3));
        assert_ne!(a, NetWeights::random(4));
        let bound = (QA * 3 / 10) as i16;
        assert!(a.w0.iter().chain(&a.b0).all(|v| v.abs() <= bound));
        assert!(a.w1.iter().all(|v| v.abs() <= 127));
    }

    /// A valid file with the byte at `at` XORed with `flip`.
    fn corrupted(at: usize, flip: u8) -> Vec<u8> {
        let mut bytes = encode(&NetWeights::random(1));
        bytes[at] ^= flip;
        bytes
    }

    #[test]
    fn each_header_field_has_its_error() {
        assert!(matches!(
            decode(&corrupted(0, 1)),
            Err(NetError::BadMagic { .. })
        ));
        assert_eq!(
            decode(&corrupted(4, 4)),
            Err(NetError::BadVersion { found: 6 })
        );
        // Version 1 with a version-2 architecture hash.
        assert!(matches!(
            decode(&corrupted(4, 3)),
            Err(NetError::BadArchitecture { .. })
        ));
        assert!(matches!(
            decode(&corrupted(9, 1)),
            Err(NetError::BadArchitecture { .. })
        ));
        let fields = ["inputs", "hidden", "QA", "QB", "SCALE"];
        for (i, name) in fields.into_iter().enumerate() {
            match decode(&corrupted(12 + 4 * i + 3, 1)) {
                Err(NetError::BadDimensions { field, .. }) => assert_eq!(field, name),
                other => panic!("field {name}: {other:?}"),
            }
        }
        assert!(matches!(
            decode(&corrupted(33, 0xff)),
            Err(NetError::BadLength { .. })
        ));
        assert!(matches!(
            decode(&corrupted(41, 1)),
            Err(NetError::BadChecksum { .. })
        ));
        assert_eq!(decode(&corrupted(50, 1)), Err(NetError::BadReserved));
        assert!(matches!(
            decode(&corrupted(HEADER_LEN + 1000, 0x55)),
            Err(NetError::BadChecksum { .. })
        ));
    }

    #[test]
    fn output_weights_beyond_127_are_refused() {
        let mut w = NetWeights::random(2);
        w.w1[200] = 128;
        assert_eq!(
            decode(&encode(&w)),
            Err(NetError::BadWeight {
                index: 200,
                value: 128
            })
        );
        w.w1[200] = -127;
        assert!(decode(&encode(&w)).is_ok());
    }

    #[test]
    fn output_weights_adding_up_past_the_i32_bound_are_refused() {
        let mut w = NetWeights::random(5);
        let n = 2 * HIDDEN as i64;
        if n * i64::from(MAX_OUTPUT_WEIGHT) <= MAX_OUTPUT_SUM {
            return; // the per-weight bound already keeps the sum in range at this width
        }
        let per = (MAX_OUTPUT_SUM / n + 1) as i16;
        let bucket = 3;
        let layer = &mut w.w1[bucket * 2 * HIDDEN..(bucket + 1) * 2 * HIDDEN];
        layer.iter_mut().for_each(|x| *x = per);
        let sum = i64::from(per) * n;
        assert_eq!(
            decode(&encode(&w)),
            Err(NetError::BadOutputSum { bucket, sum })
        );
        // Zero just enough weights to come back within the bound.
        let excess = sum - MAX_OUTPUT_SUM;
        let zeroed = (excess + i64::from(per) - 1) / i64::from(per);
        let layer = &mut w.w1[bucket * 2 * HIDDEN..(bucket + 1) * 2 * HIDDEN];
        layer[..zeroed as usize].iter_mut().for_each(|x| *x = 0);
        assert!(decode(&encode(&w)).is_ok());
    }

    /// A version-1 file (one output layer) holding `w0`, `b0`, `w1` and `b1`.
    fn encode_v1(w0: &[i16], b0: &[i16], w1: &[i16], b1: i32) -> Vec<u8> {
        let mut payload = Vec::new();
        for v in w0.iter().chain(b0).chain(w1) {
            payload.extend_from_slice(&v.to_le_bytes());
        }
        payload.extend_from_slice(&b1.to_le_bytes());
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&v1::VERSION.to_le_bytes());
        out.extend_from_slice(&v1::ARCHITECTURE_HASH.to_le_bytes());
        for (_, v) in header_dimensions(INPUTS) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&fnv1a_64(&payload).to_le_bytes());
        out.resize(HEADER_LEN, 0);
        out.extend_from_slice(&payload);
        out
    }

    #[test]
    fn a_version_1_file_has_its_output_layer_in_every_bucket() {
        let w = NetWeights::random(9);
        let layer = w.output_weights(2);
        let bytes = encode_v1(&w.w0, &w.b0, layer, w.b1[2]);
        assert_eq!(bytes.len(), v1::FILE_LEN);
        let read = decode(&bytes).unwrap();
        assert_eq!((&read.w0, &read.b0), (&w.w0, &w.b0));
        for bucket in 0..OUTPUT_BUCKETS {
            assert_eq!(read.output_weights(bucket), layer);
            assert_eq!(read.b1[bucket], w.b1[2]);
        }
        // Its own length, checksum and output bounds are checked as a version-2 file's are.
        assert!(matches!(
            decode(&bytes[..bytes.len() - 1]),
            Err(NetError::Truncated { .. })
        ));
        let mut big = layer.to_vec();
        big[7] = -128;
        assert_eq!(
            decode(&encode_v1(&w.w0, &w.b0, &big, 0)),
            Err(NetError::BadWeight {
                index: 7,
                value: -128
            })
        );
    }

    #[test]
    fn output_buckets_follow_the_piece_count() {
        let buckets: Vec<usize> = (2..=32).map(output_bucket).collect();
        assert_eq!(buckets[0], 0);
        assert_eq!(buckets[30], OUTPUT_BUCKETS - 1);
        assert!(buckets.windows(2).all(|p| p[1] == p[0] || p[1] == p[0] + 1));
        for b in 0..OUTPUT_BUCKETS {
            assert!(buckets.contains(&b), "bucket {b} is never used");
        }
        assert_eq!(output_bucket(0), 0);
        assert_eq!(output_bucket(90), OUTPUT_BUCKETS - 1);
    }

    #[test]
    fn wrong_lengths_are_refused() {
        let bytes = encode(&NetWeights::random(1));
        for len in [0, 3, 4, 63, 64, 65, FILE_LEN - 1] {
            assert!(
                matches!(decode(&bytes[..len]), Err(NetError::Truncated { .. })),
                "length {len}"
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(decode(&longer), Err(NetError::BadLength { .. })));
    }
}
