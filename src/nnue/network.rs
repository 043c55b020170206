//! `Network`: the net's weights in aligned buffers, loaded from a net file or the embedded
//! default net, and the integer output layer.

use super::accumulator::Accumulator;
use super::features::Orientation;
use super::format::{
    self, HIDDEN, KingLayout, NetError, NetWeights, OUTPUT_BUCKETS, QA, QB, SCALE, output_bucket,
};
use super::simd::{Kernel, Lanes};
use crate::position::Position;
use crate::square::{Color, Square};
use std::fmt;
use std::path::Path;
use std::sync::{Arc, LazyLock};

/// The largest evaluation in absolute value, in centipawns: well below the search's repetition
/// and mate ranges.
pub const EVAL_LIMIT: i32 = 10_000;

/// The default net, embedded in the binary.
static DEFAULT_BYTES: &[u8] = include_bytes!("../../nnue/default.nnue");
const _: () = assert!(
    DEFAULT_BYTES.len() == format::FILE_LEN
        || DEFAULT_BYTES.len() == format::v1::FILE_LEN
        || DEFAULT_BYTES.len() == format::v3::FILE_LEN
        || DEFAULT_BYTES.len() == format::v4::FILE_LEN,
    "nnue/default.nnue has the wrong size"
);

static DEFAULT_NET: LazyLock<Arc<Network>> = LazyLock::new(|| {
    Arc::new(Network::from_bytes(DEFAULT_BYTES).expect("the embedded nnue/default.nnue is valid"))
});

/// `HIDDEN` i16 values on a 64-byte boundary: one row of first-layer weights, a bias or a half
/// of the output weights.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Row(pub Lanes);

impl Row {
    fn from_slice(values: &[i16]) -> Row {
        let mut row = Row([0; HIDDEN]);
        row.0.copy_from_slice(values);
        row
    }
}

/// A loaded net, ready to evaluate.
#[derive(Clone)]
pub struct Network {
    /// How the first layer is split by the place of each perspective's own king.
    kings: KingLayout,
    /// First layer, one row per input feature (of every king bucket, one bucket after the other).
    w0: Vec<Row>,
    /// First-layer bias.
    b0: Row,
    /// Output weights of each output layer: `[0]` for the side to move, `[1]` for the other side.
    w1: Vec<[Row; 2]>,
    /// Output bias of each output layer.
    b1: [i32; OUTPUT_BUCKETS],
    /// The kernels in use, chosen once when the net is built.
    kernel: Kernel,
    /// FNV-1a 64 of the net file's payload, to name the net in reports.
    checksum: u64,
}

impl Network {
    /// Builds a net from weights, with the fastest kernels this processor runs.
    ///
    /// # Panics
    /// If the weight vectors do not have the architecture's sizes (a programming error).
    pub fn from_weights(w: &NetWeights) -> Network {
        Network::with_kernel(w, Kernel::best())
    }

    /// Builds a net from weights with the given kernels (tests compare kernels with it).
    ///
    /// # Panics
    /// If the weight vectors do not have the architecture's sizes (a programming error).
    pub fn with_kernel(w: &NetWeights, kernel: Kernel) -> Network {
        let bytes = format::encode(w);
        Network::build(w, kernel, format::fnv1a_64(&bytes[format::HEADER_LEN..]))
    }

    /// The net of `w`, named by `checksum`.
    fn build(w: &NetWeights, kernel: Kernel, checksum: u64) -> Network {
        assert!(
            w.has_architecture_sizes(),
            "weights of the wrong shape for this architecture"
        );
        Network {
            kings: w.kings,
            w0: w.w0.chunks_exact(HIDDEN).map(Row::from_slice).collect(),
            b0: Row::from_slice(&w.b0),
            w1: w
                .w1
                .chunks_exact(2 * HIDDEN)
                .map(|layer| {
                    [
                        Row::from_slice(&layer[..HIDDEN]),
                        Row::from_slice(&layer[HIDDEN..]),
                    ]
                })
                .collect(),
            b1: w.b1,
            kernel,
            checksum,
        }
    }

    /// Reads a net file's bytes (`nnue/FORMAT.md`), of any version; the net is named by the
    /// checksum in the file's header.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let w = format::decode(bytes)?;
        // `decode` has checked the header's checksum against the payload.
        let stored = u64::from_le_bytes(bytes[40..48].try_into().unwrap_or_default());
        Ok(Network::build(&w, Kernel::best(), stored))
    }

    /// Reads a net file from disk: only a regular file, and no more than a net's length of it (a
    /// FIFO, a device or a huge file is refused, not waited on or swallowed).
    pub fn load(path: impl AsRef<Path>) -> Result<Network, NetError> {
        use std::io::Read;
        let path = path.as_ref();
        let io = |message: String| NetError::Io {
            path: path.display().to_string(),
            message,
        };
        let meta = std::fs::metadata(path).map_err(|e| io(e.to_string()))?;
        if !meta.is_file() {
            return Err(io("not a regular file (a FIFO, socket or device)".into()));
        }
        if meta.len() > format::MAX_FILE_LEN as u64 {
            return Err(io(format!(
                "{} bytes, but a net file of this build has at most {}",
                meta.len(),
                format::MAX_FILE_LEN
            )));
        }
        let mut bytes = Vec::with_capacity(format::MAX_FILE_LEN);
        std::fs::File::open(path)
            .and_then(|f| {
                f.take(format::MAX_FILE_LEN as u64 + 1)
                    .read_to_end(&mut bytes)
            })
            .map_err(|e| io(e.to_string()))?;
        Network::from_bytes(&bytes)
    }

    /// The default net embedded in the binary, parsed on first use and shared after.
    pub fn embedded() -> Arc<Network> {
        DEFAULT_NET.clone()
    }

    /// The weights back in file order.
    pub fn weights(&self) -> NetWeights {
        NetWeights {
            kings: self.kings,
            w0: self.w0.iter().flat_map(|r| r.0).collect(),
            b0: self.b0.0.to_vec(),
            w1: self.w1.iter().flatten().flat_map(|r| r.0).collect(),
            b1: self.b1,
        }
    }

    /// The first-layer weights of row `row` (a feature as [`Orientation::row`] places it).
    #[inline]
    pub fn row(&self, row: usize) -> &Lanes {
        &self.w0[row].0
    }

    /// Whether the net has king buckets (format version 3 or 4).
    #[inline]
    pub fn has_king_buckets(&self) -> bool {
        self.kings.is_bucketed()
    }

    /// How the first layer is split by the place of each perspective's own king.
    #[inline]
    pub fn king_layout(&self) -> KingLayout {
        self.kings
    }

    /// The part of the first layer `perspective` reads with its king on `king`:
    /// [`Orientation::PLAIN`] for a net without king buckets.
    #[inline]
    pub fn orientation(&self, perspective: Color, king: Square) -> Orientation {
        Orientation::of(self.kings, perspective, king)
    }

    /// The first-layer bias.
    #[inline]
    pub fn bias(&self) -> &Lanes {
        &self.b0.0
    }

    /// The kernels this net runs with.
    #[inline]
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// FNV-1a 64 of the net's payload, as stored in its file header.
    pub fn checksum(&self) -> u64 {
        self.checksum
    }

    /// The evaluation in centipawns for `side` (normally the side to move) of a position with
    /// `pieces` pieces on the board, from accumulators that are up to date: the output layer of
    /// [`output_bucket`]`(pieces)`, `v = sum / QA + b1`, `cp = v × SCALE / (QA × QB)`, clamped to
    /// ±[`EVAL_LIMIT`].
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, side: Color, pieces: u32) -> i32 {
        let bucket = output_bucket(pieces);
        let [w_us, w_them] = &self.w1[bucket];
        let sum = self.kernel.screlu_dot(
            acc.values(side),
            acc.values(side.flip()),
            &w_us.0,
            &w_them.0,
        );
        let v = i64::from(sum) / i64::from(QA) + i64::from(self.b1[bucket]);
        let cp = v * i64::from(SCALE) / i64::from(QA * QB);
        cp.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
    }

    /// The evaluation of `pos` for the side to move, from freshly built accumulators (slow; for
    /// single positions, tests and tools).
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        self.evaluate(
            &Accumulator::refresh(self, pos),
            pos.side_to_move(),
            pos.occupied().count(),
        )
    }
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("checksum", &format_args!("{:#018x}", self.checksum))
            .field("kernel", &self.kernel.name())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::format::INPUTS;

    #[test]
    fn embedded_net_loads() {
        let net = Network::embedded();
        assert!(Arc::ptr_eq(&net, &Network::embedded()));
        let weights = format::decode(DEFAULT_BYTES).unwrap();
        assert_eq!(net.weights(), weights);
    }

    #[test]
    fn rows_are_aligned() {
        let net = Network::from_weights(&NetWeights::random(5));
        for feature in [0, 1, 629, INPUTS - 1] {
            assert_eq!(net.row(feature).as_ptr() as usize % 64, 0);
        }
        assert_eq!(net.bias().as_ptr() as usize % 64, 0);
    }

    #[test]
    fn load_reports_a_missing_file() {
        let err = Network::load("/nonexistent/dir/net.nnue").unwrap_err();
        assert!(matches!(err, NetError::Io { .. }), "{err}");
    }

    #[test]
    fn load_refuses_devices_fifos_and_oversized_files() {
        let err = Network::load("/dev/zero").unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
        let dir = std::env::temp_dir().join(format!("xq-net-load-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("net.fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let err = Network::load(&fifo).unwrap_err();
            assert!(err.to_string().contains("not a regular file"), "{err}");
        }
        let big = dir.join("big.nnue");
        let mut bytes = DEFAULT_BYTES.to_vec();
        bytes.resize(format::MAX_FILE_LEN + 1, 0);
        std::fs::write(&big, &bytes).unwrap();
        let err = Network::load(&big).unwrap_err();
        assert!(err.to_string().contains("bytes, but a net file"), "{err}");
        let exact = dir.join("net.nnue");
        std::fs::write(&exact, DEFAULT_BYTES).unwrap();
        assert!(Network::load(&exact).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
