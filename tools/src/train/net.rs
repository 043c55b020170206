//! The float network: parameter layout, initialisation, and the per-position forward and backward
//! passes (sparse first layer, SCReLU, the output layer of the position's bucket), batched over
//! threads.

use super::dataset::{MAX_ACTIVE, Sample};
use super::rng::{Rng, mix};
use xq::nnue::format::{
    HIDDEN, INPUTS, KingLayout, MAX_OUTPUT_SUM, MAX_OUTPUT_WEIGHT, OUTPUT_BUCKETS, QB, SCALE,
    output_bucket,
};

/// Hidden neurons per perspective.
pub const H: usize = HIDDEN;
/// Output layers.
pub const BUCKETS: usize = OUTPUT_BUCKETS;

/// Offset of a plain net's `b0`.
#[cfg(test)]
pub const B0: usize = Layout::PLAIN.b0();
/// Offset of a plain net's `W1`.
#[cfg(test)]
pub const W1: usize = Layout::PLAIN.w1();
/// Offset of a plain net's `b1`.
#[cfg(test)]
pub const B1: usize = Layout::PLAIN.b1();
/// Parameters of a plain net.
#[cfg(test)]
pub const N_PARAMS: usize = Layout::PLAIN.n_params();

/// The layout of a flat parameter vector (the gradient buffers and the optimiser moments use the
/// same): `W0` ([`Layout::rows`] rows of `H`), `b0`, `W1` (`2H` weights per output layer: side to
/// move's half, then the other side's, one layer after the other), `b1` (one per output layer).
/// A king-bucketed net in training has the parts the engine reads, then one more part shared by
/// all of them (the factor), which every position trains along with its own part and which
/// export adds into each part. The length of the vector tells the layouts apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// How the engine's first layer is split by the place of each perspective's own king.
    pub kings: KingLayout,
    /// Whether a second block of [`INPUTS`] rows follows, one for each piece on a square the other
    /// side attacks (a plain net only; trained, not yet read by the engine).
    pub threats: bool,
}

impl Layout {
    /// A plain net's layout.
    pub const PLAIN: Layout = Layout {
        kings: KingLayout::Plain,
        threats: false,
    };
    /// The layout of a net with six king buckets, a king on file f seen mirrored (version 3).
    pub const MIRRORED: Layout = Layout {
        kings: KingLayout::Mirrored,
        threats: false,
    };
    /// The layout of a net with a king bucket for each palace square (version 4).
    pub const PALACE: Layout = Layout {
        kings: KingLayout::Palace,
        threats: false,
    };
    /// The layout of a plain net with threat inputs.
    pub const THREATS: Layout = Layout {
        kings: KingLayout::Plain,
        threats: true,
    };
    /// Every layout.
    pub const ALL: [Layout; 4] = [
        Layout::PLAIN,
        Layout::MIRRORED,
        Layout::PALACE,
        Layout::THREATS,
    ];

    /// The training layout of an engine net of layout `kings`.
    pub const fn new(kings: KingLayout) -> Layout {
        Layout {
            kings,
            threats: false,
        }
    }

    /// The layout of a parameter vector of `len` floats.
    ///
    /// # Panics
    /// If `len` is no layout's length (a programming error: checkpoints are checked when read).
    pub fn of_len(len: usize) -> Layout {
        Layout::ALL
            .into_iter()
            .find(|l| l.n_params() == len)
            .unwrap_or_else(|| panic!("{len} parameters fit no layout"))
    }

    /// Whether the net has king buckets.
    pub const fn king_buckets(self) -> bool {
        self.kings.is_bucketed()
    }

    /// First-layer rows in training: [`INPUTS`] for a plain net, and for a king-bucketed net
    /// [`INPUTS`] for each part and for the shared one.
    pub const fn rows(self) -> usize {
        if self.king_buckets() || self.threats {
            self.kings.rows() + INPUTS
        } else {
            INPUTS
        }
    }

    /// The first row of the shared part of a king-bucketed net: the rows the engine reads come
    /// before it.
    pub const fn factor(self) -> usize {
        self.kings.rows()
    }

    /// Floats in `W0`.
    pub const fn w0_len(self) -> usize {
        self.rows() * H
    }

    /// Offset of `b0`.
    pub const fn b0(self) -> usize {
        self.w0_len()
    }

    /// Offset of `W1`.
    pub const fn w1(self) -> usize {
        self.b0() + H
    }

    /// Offset of `b1`.
    pub const fn b1(self) -> usize {
        self.w1() + BUCKETS * 2 * H
    }

    /// Number of parameters.
    pub const fn n_params(self) -> usize {
        self.b1() + BUCKETS
    }
}

/// The output layer of a sample: by its number of pieces, as the engine chooses it.
#[inline]
pub fn bucket_of(s: &Sample) -> usize {
    output_bucket(u32::from(s.len))
}

/// Every parameter is kept within ±`CLIP` (so that quantised values fit the engine's kernels).
pub const CLIP: f32 = 1.98;

/// The rows of a king-bucketed net's own parts are kept within ±`BUCKET_CLIP`: a row as the
/// engine reads it (part plus shared row) then stays within ±2.97, so that 32 of them with the
/// bias, times QA, stay inside the i16 accumulator (32 × 2.97 × 255 + 505 < 32,767).
pub const BUCKET_CLIP: f32 = 0.99;

/// Output weights are kept within ±`W1_CLIP`, so that `round(w · QB)` stays within the ±127 the
/// evaluation kernel multiplies by (127 / 256 with QB = 256).
pub const W1_CLIP: f32 = MAX_OUTPUT_WEIGHT as f32 / QB as f32;

/// Each output layer's weights are kept to an absolute sum of at most `W1_SUM_CLIP`, so that their
/// nearest rounding stays within the file format's `MAX_OUTPUT_SUM`: rounding adds at most ½ to
/// each of the 2H values `|w · QB|`, hence the H taken off.
pub const W1_SUM_CLIP: f32 = (MAX_OUTPUT_SUM - H as i64) as f32 / QB as f32;

/// `SCALE` as a float: centipawns = output × `SCALE_F`.
pub const SCALE_F: f32 = SCALE as f32;

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The training target of a sample: `λ · result + (1 − λ) · σ(score / SCALE)`, result in 0, ½, 1.
#[inline]
pub fn target(s: &Sample, lambda: f32) -> f32 {
    lambda * f32::from(s.result) * 0.5 + (1.0 - lambda) * sigmoid(f32::from(s.score) / SCALE_F)
}

/// Fresh parameters of `layout`: a plain net's `W0` uniform in ±0.5/√32 (an accumulator of about
/// 30 active rows starts with a spread of roughly 0.3), `W1` uniform in ±1/√(2H), biases zero; a
/// king-bucketed net starts with its buckets' own rows at zero and its shared rows drawn as a
/// plain net's `W0` (the same draws for the same seed).
pub fn init_with(seed: u64, layout: Layout) -> Vec<f32> {
    let mut rng = Rng::new(seed ^ 0x1417_0000);
    let mut p = vec![0.0f32; layout.n_params()];
    let w0_bound = 0.5 / 32f32.sqrt();
    let w1_bound = 1.0 / ((2 * H) as f32).sqrt();
    let shared = if layout.king_buckets() {
        layout.factor() * H..layout.w0_len()
    } else {
        0..layout.w0_len()
    };
    for x in &mut p[shared] {
        *x = rng.symmetric(w0_bound);
    }
    for x in &mut p[layout.w1()..layout.b1()] {
        *x = rng.symmetric(w1_bound);
    }
    p
}

/// The parameters of a plain net spread over the king-bucketed layout `to`: its `W0` as the shared
/// rows, each bucket's own rows zero, so that the net evaluates as the plain one (exactly with
/// the palace layout, up to the mirroring of a king on file f with the mirrored one).
pub fn bucketed_from_plain(plain: &[f32], to: Layout) -> Vec<f32> {
    let from = Layout::PLAIN;
    debug_assert_eq!(plain.len(), from.n_params());
    debug_assert!(to.king_buckets());
    let mut p = vec![0.0f32; to.n_params()];
    p[to.factor() * H..to.w0_len()].copy_from_slice(&plain[..from.w0_len()]);
    p[to.b0()..].copy_from_slice(&plain[from.b0()..]);
    p
}

/// The parameters of a plain net with a block of threat rows added, each zero, so that the net
/// evaluates as the plain one.
pub fn threats_from_plain(plain: &[f32]) -> Vec<f32> {
    let (from, to) = (Layout::PLAIN, Layout::THREATS);
    debug_assert_eq!(plain.len(), from.n_params());
    let mut p = vec![0.0f32; to.n_params()];
    p[..from.w0_len()].copy_from_slice(&plain[..from.w0_len()]);
    p[to.b0()..].copy_from_slice(&plain[from.b0()..]);
    p
}

/// Read-only view of a flat parameter (or gradient) vector.
struct View<'a> {
    /// The layout (which features a position switches on).
    layout: Layout,
    w0: &'a [[f32; H]],
    b0: &'a [f32; H],
    /// Rows of `W1`: output layer `b` has rows `2b` (side to move) and `2b + 1` (other side).
    w1: &'a [[f32; H]],
    b1: &'a [f32],
}

fn view(p: &[f32]) -> View<'_> {
    let layout = Layout::of_len(p.len());
    let (rows, _) = p[..layout.b1()].as_chunks::<H>();
    let (w0, tail) = rows.split_at(layout.rows());
    let (b0, w1) = tail.split_at(1);
    View {
        layout,
        w0,
        b0: &b0[0],
        w1,
        b1: &p[layout.b1()..],
    }
}

/// Mutable view of a gradient vector.
struct ViewMut<'a> {
    w0: &'a mut [[f32; H]],
    b0: &'a mut [f32; H],
    w1: &'a mut [[f32; H]],
    b1: &'a mut [f32],
}

fn view_mut(g: &mut [f32]) -> ViewMut<'_> {
    let layout = Layout::of_len(g.len());
    let (head, b1) = g.split_at_mut(layout.b1());
    let (rows, _) = head.as_chunks_mut::<H>();
    let (w0, tail) = rows.split_at_mut(layout.rows());
    let (b0, w1) = tail.split_at_mut(1);
    ViewMut {
        w0,
        b0: &mut b0[0],
        w1,
        b1,
    }
}

/// `acc = b0 + Σ W0[f]` over `features`.
#[inline]
fn accumulate(v: &View, features: &[u16], acc: &mut [f32; H]) {
    *acc = *v.b0;
    for &f in features {
        let row = &v.w0[usize::from(f)];
        for i in 0..H {
            acc[i] += row[i];
        }
    }
}

/// `Σ clamp(a, 0, 1)² · w`, with eight independent partial sums so that it vectorises.
#[inline]
fn screlu_dot(a: &[f32; H], w: &[f32; H]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let (ac, _) = a.as_chunks::<8>();
    let (wc, _) = w.as_chunks::<8>();
    for (ac, wc) in ac.iter().zip(wc) {
        for l in 0..8 {
            let x = ac[l].clamp(0.0, 1.0);
            lanes[l] += x * x * wc[l];
        }
    }
    lanes.iter().sum()
}

/// Accumulators of both perspectives for one position, and the rows they were summed from.
pub struct Scratch {
    stm: [u16; MAX_ACTIVE],
    other: [u16; MAX_ACTIVE],
    /// Rows in `stm` and in `other`.
    n: usize,
    acc_s: [f32; H],
    acc_n: [f32; H],
}

impl Scratch {
    /// Zeroed scratch space.
    pub fn new() -> Scratch {
        Scratch {
            stm: [0; MAX_ACTIVE],
            other: [0; MAX_ACTIVE],
            n: 0,
            acc_s: [0.0; H],
            acc_n: [0.0; H],
        }
    }
}

/// The raw output `o` for `s` (mirrored or not); centipawns are `o × SCALE`.
fn forward(v: &View, s: &Sample, mirror: bool, x: &mut Scratch) -> f32 {
    let n = if v.layout.king_buckets() {
        s.training_rows(v.layout.kings, mirror, &mut x.stm, &mut x.other)
    } else {
        s.plain_rows(mirror, &mut x.stm, &mut x.other)
    };
    let n = if v.layout.threats {
        s.threat_rows(mirror, &mut x.stm, &mut x.other, n)
    } else {
        n
    };
    x.n = n;
    accumulate(v, &x.stm[..n], &mut x.acc_s);
    accumulate(v, &x.other[..n], &mut x.acc_n);
    let b = bucket_of(s);
    screlu_dot(&x.acc_s, &v.w1[2 * b]) + screlu_dot(&x.acc_n, &v.w1[2 * b + 1]) + v.b1[b]
}

/// The float evaluation of `s` in centipawns (output × SCALE), without mirroring.
pub fn eval_cp(params: &[f32], s: &Sample) -> f32 {
    forward(&view(params), s, false, &mut Scratch::new()) * SCALE_F
}

/// Adds the gradient of `weight · (σ(o) − t)²` for one position into `g`; returns the
/// unweighted loss.
fn backward(
    v: &View,
    g: &mut ViewMut,
    s: &Sample,
    mirror: bool,
    lambda: f32,
    weight: f32,
    x: &mut Scratch,
) -> f32 {
    let o = forward(v, s, mirror, x);
    let p = sigmoid(o);
    let err = p - target(s, lambda);
    let d = 2.0 * err * p * (1.0 - p) * weight;
    let b = bucket_of(s);
    g.b1[b] += d;
    output_and_hidden_grad(d, &mut x.acc_s, &v.w1[2 * b], &mut g.w1[2 * b]);
    output_and_hidden_grad(d, &mut x.acc_n, &v.w1[2 * b + 1], &mut g.w1[2 * b + 1]);
    // Now acc_s and acc_n hold ∂loss/∂accumulator.
    for i in 0..H {
        g.b0[i] += x.acc_s[i] + x.acc_n[i];
    }
    let n = x.n;
    for &f in &x.stm[..n] {
        add_row(&mut g.w0[usize::from(f)], &x.acc_s);
    }
    for &f in &x.other[..n] {
        add_row(&mut g.w0[usize::from(f)], &x.acc_n);
    }
    err * err
}

/// With `a` one perspective's accumulator: `gw1 += d · SCReLU(a)`, and `a` is replaced by
/// `∂/∂a = d · w1 · 2a` inside (0, 1), zero outside.
#[inline]
fn output_and_hidden_grad(d: f32, a: &mut [f32; H], w1: &[f32; H], gw1: &mut [f32; H]) {
    for i in 0..H {
        let x = a[i];
        let c = x.clamp(0.0, 1.0);
        gw1[i] += d * c * c;
        a[i] = if x > 0.0 && x < 1.0 {
            2.0 * d * w1[i] * x
        } else {
            0.0
        };
    }
}

#[inline]
fn add_row(row: &mut [f32; H], delta: &[f32; H]) {
    for i in 0..H {
        row[i] += delta[i];
    }
}

/// Which positions of a batch are mirrored: a coin per (key, position number), independent of how
/// the batch is split over threads.
#[derive(Clone, Copy, Debug)]
pub struct Coins {
    /// Mixed from the seed and the epoch; `None` disables mirroring.
    pub key: Option<u64>,
    /// Position number of the batch's first sample.
    pub first: u64,
}

impl Coins {
    #[inline]
    fn mirror(&self, i: usize) -> bool {
        match self.key {
            Some(k) => {
                mix(k ^ (self.first + i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)) & 1 == 1
            }
            None => false,
        }
    }
}

/// Gradient of the batch's mean loss, computed over `grads.len()` threads (each filling its own
/// buffer for its part of the batch) and summed into `grads[0]`. Returns the summed loss.
pub fn batch_gradient(
    params: &[f32],
    batch: &[Sample],
    coins: Coins,
    lambda: f32,
    grads: &mut [Vec<f32>],
) -> f64 {
    let threads = grads.len().max(1);
    let weight = 1.0 / batch.len().max(1) as f32;
    let per = batch.len().div_ceil(threads).max(1);
    let part = |g: &mut Vec<f32>, start: usize| -> f64 {
        g.clear();
        g.resize(params.len(), 0.0);
        let end = (start + per).min(batch.len());
        let start = start.min(end);
        let v = view(params);
        let mut gv = view_mut(g);
        let mut x = Scratch::new();
        let mut loss = 0.0f64;
        for (i, s) in batch[start..end].iter().enumerate() {
            let mirror = coins.mirror(start + i);
            loss += f64::from(backward(&v, &mut gv, s, mirror, lambda, weight, &mut x));
        }
        loss
    };
    let loss = if grads.len() <= 1 {
        grads.iter_mut().map(|g| part(g, 0)).sum()
    } else {
        std::thread::scope(|scope| {
            let (first, rest) = grads.split_at_mut(1);
            let handles: Vec<_> = rest
                .iter_mut()
                .enumerate()
                .map(|(t, g)| {
                    let part = &part;
                    scope.spawn(move || part(g, (t + 1) * per))
                })
                .collect();
            let mut loss = part(&mut first[0], 0);
            for h in handles {
                loss += h.join().unwrap_or(f64::NAN);
            }
            loss
        })
    };
    if let Some((first, rest)) = grads.split_first_mut() {
        for g in rest.iter() {
            for (a, b) in first.iter_mut().zip(g) {
                *a += b;
            }
        }
    }
    loss
}

/// Summed loss over `samples` (no mirroring), on `threads` threads.
pub fn loss_sum(params: &[f32], samples: &[Sample], lambda: f32, threads: usize) -> f64 {
    let threads = threads.max(1);
    let per = samples.len().div_ceil(threads).max(1);
    let part = |chunk: &[Sample]| -> f64 {
        let v = view(params);
        let mut x = Scratch::new();
        chunk
            .iter()
            .map(|s| {
                let e = sigmoid(forward(&v, s, false, &mut x)) - target(s, lambda);
                f64::from(e * e)
            })
            .sum()
    };
    if threads == 1 {
        return part(samples);
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(per)
            .map(|c| {
                let part = &part;
                scope.spawn(move || part(c))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(f64::NAN))
            .sum()
    })
}
