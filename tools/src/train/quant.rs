//! Quantisation of float parameters into the engine's net weights, and the engine's integer
//! forward pass restated here as the reference for export checks.

use super::dataset::{MAX_FEATURES, Sample};
use super::net::{BUCKETS, H, Layout, bucket_of};
use xq::nnue::format::{
    INPUTS, MAX_OUTPUT_SUM, MAX_OUTPUT_WEIGHT, NetWeights, QA, QB, SCALE, output_sum,
};

fn to_i16(x: f32, scale: i32) -> i16 {
    (f64::from(x) * f64::from(scale))
        .round()
        .clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16
}

/// The first layer as the engine reads it, in floats: a plain net's `W0` as it is; for a
/// king-bucketed net each bucket's rows plus the shared rows.
fn engine_w0(params: &[f32]) -> Vec<f32> {
    let layout = Layout::of_len(params.len());
    if !layout.king_buckets() {
        return params[..layout.w0_len()].to_vec();
    }
    let shared = &params[layout.factor() * H..layout.w0_len()];
    params[..layout.factor() * H]
        .chunks_exact(INPUTS * H)
        .flat_map(|bucket| bucket.iter().zip(shared).map(|(a, b)| a + b))
        .collect()
}

/// `W0` (each king bucket's rows with the shared rows added), `b0` → round(x·QA); `W1` →
/// round(x·QB) within ±`MAX_OUTPUT_WEIGHT`; `b1` → round(x·QA·QB) (rounding half away from zero).
/// The layout gives the version: 2 for a plain net, 3 or 4 for a king-bucketed one.
pub fn quantise(params: &[f32]) -> NetWeights {
    let layout = Layout::of_len(params.len());
    let (b0, w1, b1) = (layout.b0(), layout.w1(), layout.b1());
    NetWeights {
        kings: layout.kings,
        w0: engine_w0(params).iter().map(|&x| to_i16(x, QA)).collect(),
        b0: params[b0..w1].iter().map(|&x| to_i16(x, QA)).collect(),
        w1: params[w1..b1]
            .iter()
            .map(|&x| to_i16(x, QB).clamp(-MAX_OUTPUT_WEIGHT, MAX_OUTPUT_WEIGHT))
            .collect(),
        b1: std::array::from_fn(|b| {
            (f64::from(params[b1 + b]) * f64::from(QA * QB))
                .round()
                .clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32
        }),
    }
}

/// The float parameters a quantised net stands for: the inverse of [`quantise`] (`W0`, `b0` over
/// QA, `W1` over QB, `b1` over QA·QB), so that training can start from a shipped net; a
/// king-bucketed net's shared rows are the mean of its buckets' rows, each bucket's own rows what
/// it differs from that mean. `quantise(&dequantise(w)) == w` for every net of any layout.
pub fn dequantise(w: &NetWeights) -> Vec<f32> {
    debug_assert!(w.has_architecture_sizes());
    let layout = Layout::new(w.kings);
    let mut params = Vec::with_capacity(layout.n_params());
    let (qa, qb) = (f64::from(QA), f64::from(QB));
    if w.kings.is_bucketed() {
        let parts = w.kings.buckets();
        let part = INPUTS * H;
        let mean: Vec<f64> = (0..part)
            .map(|i| {
                (0..parts)
                    .map(|b| f64::from(w.w0[b * part + i]))
                    .sum::<f64>()
                    / parts as f64
            })
            .collect();
        for b in 0..parts {
            params
                .extend((0..part).map(|i| ((f64::from(w.w0[b * part + i]) - mean[i]) / qa) as f32));
        }
        params.extend(mean.iter().map(|&m| (m / qa) as f32));
    } else {
        params.extend(w.w0.iter().map(|&x| (f64::from(x) / qa) as f32));
    }
    params.extend(w.b0.iter().map(|&x| (f64::from(x) / qa) as f32));
    params.extend(w.w1.iter().map(|&x| (f64::from(x) / qb) as f32));
    params.extend(w.b1.iter().map(|&x| (f64::from(x) / (qa * qb)) as f32));
    params
}

/// Both perspectives' first-layer rows of `s` in the net `w` (plain or king-bucketed).
fn engine_rows(w: &NetWeights, s: &Sample, stm: &mut [u16], other: &mut [u16]) -> usize {
    if w.kings.is_bucketed() {
        s.bucketed_rows(w.kings, false, stm, other)
    } else {
        s.plain_rows(false, stm, other)
    }
}

/// The i16 accumulator `b0 + Σ W0[f]` (wrapping, as the engine's SIMD adds would).
fn accumulate(w: &NetWeights, features: &[u16], acc: &mut [i16; H]) {
    acc.copy_from_slice(&w.b0[..H]);
    for &f in features {
        let row = &w.w0[usize::from(f) * H..usize::from(f) * H + H];
        for i in 0..H {
            acc[i] = acc[i].wrapping_add(row[i]);
        }
    }
}

/// `Σ clamp(a, 0, QA)² · w` in i32 (wrapping; no overflow while Σ|W1| ≤ `MAX_OUTPUT_SUM`).
fn screlu_dot(acc: &[i16; H], w: &[i16]) -> i32 {
    let mut sum = 0i32;
    for i in 0..H {
        let c = i32::from(acc[i]).clamp(0, QA);
        sum = sum.wrapping_add((c * c).wrapping_mul(i32::from(w[i])));
    }
    sum
}

/// The integer evaluation in centipawns, for the side to move (`nnue/FORMAT.md`):
/// `v = sum / QA + b1`, `cp = v · SCALE / (QA · QB)`, both divisions truncating toward zero (the
/// last step in i64 so that no value overflows). `w` must have the architecture's shape.
pub fn eval_cp(w: &NetWeights, s: &Sample) -> i64 {
    let mut stm = [0u16; MAX_FEATURES];
    let mut other = [0u16; MAX_FEATURES];
    let n = engine_rows(w, s, &mut stm, &mut other);
    let mut us = [0i16; H];
    let mut them = [0i16; H];
    accumulate(w, &stm[..n], &mut us);
    accumulate(w, &other[..n], &mut them);
    let b = bucket_of(s);
    let w1 = w.output_weights(b);
    let sum = screlu_dot(&us, &w1[..H]).wrapping_add(screlu_dot(&them, &w1[H..]));
    let v = i64::from(sum / QA) + i64::from(w.b1[b]);
    v * i64::from(SCALE) / i64::from(QA * QB)
}

/// Lower Cholesky factor `L` of the symmetric `n × n` matrix `a` (row-major, a = L Lᵀ); `None`
/// if `a` is not positive definite.
fn cholesky(a: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let (ri, rj) = (&l[i * n..i * n + j], &l[j * n..j * n + j]);
            let s = a[i * n + j] - ri.iter().zip(rj).map(|(x, y)| x * y).sum::<f64>();
            if i == j {
                if s <= 0.0 || !s.is_finite() {
                    return None;
                }
                l[i * n + i] = s.sqrt();
            } else {
                l[i * n + j] = s / l[j * n + j];
            }
        }
    }
    Some(l)
}

/// Solves `L Lᵀ x = b` for the Cholesky factor `l`.
fn cholesky_solve(l: &[f64], n: usize, b: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; n];
    for i in 0..n {
        let s: f64 = (0..i).map(|k| l[i * n + k] * y[k]).sum();
        y[i] = (b[i] - s) / l[i * n + i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|k| l[k * n + i] * x[k]).sum();
        x[i] = (y[i] - s) / l[i * n + i];
    }
    x
}

/// Rounds `target` to integers `q` (entry `i` on the grid `1 / step(i).0`, within
/// ±`step(i).1`) so as to keep `(t − q/step)ᵀ G (t − q/step)` small, with `G = L Lᵀ`: Babai's
/// nearest-plane rounding in the basis `Lᵀ`. Entries are rounded from the last to the first,
/// each shifted first by the error that the entries already rounded leave in its direction; the
/// first entry, rounded last, absorbs the rest.
fn nearest_plane(
    l: &[f64],
    n: usize,
    target: &[f64],
    step: impl Fn(usize) -> (f64, f64),
) -> Vec<f64> {
    let mut q = vec![0.0; n];
    let mut resid = vec![0.0; n];
    for i in (0..n).rev() {
        let corr: f64 = (i + 1..n).map(|j| l[j * n + i] * resid[j]).sum();
        let (grid, limit) = step(i);
        let v = ((target[i] + corr / l[i * n + i]) * grid)
            .round()
            .clamp(-limit, limit);
        q[i] = v;
        resid[i] = target[i] - v / grid;
    }
    q
}

/// Adds 1 % of the mean diagonal to the diagonal of the `n × n` matrix `g` (so that directions the
/// data never visits stay at their trained values); returns the amount added.
fn damp(g: &mut [f64], n: usize) -> f64 {
    let d = 0.01 * (0..n).map(|i| g[i * n + i]).sum::<f64>() / n as f64 + 1e-12;
    for i in 0..n {
        g[i * n + i] += d;
    }
    d
}

/// Fills the upper triangle of the `n × n` matrix `g` from its lower one and divides by `count`.
fn symmetrise(g: &mut [f64], n: usize, count: f64) {
    for i in 0..n {
        for j in 0..=i {
            g[i * n + j] /= count;
            g[j * n + i] = g[i * n + j];
        }
    }
}

/// Calibration positions of each output layer used by [`quantise_calibrated`] at most.
pub const CALIBRATION_POSITIONS: usize = 16_384;

/// Up to [`CALIBRATION_POSITIONS`] positions of each output layer from `samples`, in order.
pub fn calibration_set(samples: &[Sample]) -> Vec<Sample> {
    let mut taken = [0usize; BUCKETS];
    let mut out = Vec::new();
    for s in samples {
        let b = bucket_of(s);
        if taken[b] < CALIBRATION_POSITIONS {
            taken[b] += 1;
            out.push(*s);
        }
        if taken.iter().all(|&t| t == CALIBRATION_POSITIONS) {
            break;
        }
    }
    out
}

/// Quantisation that compensates the output layers' rounding on `calibration` positions: `W0`
/// and `b0` are rounded to the nearest step exactly as in [`quantise`]; then each output layer's
/// `W1` and `b1` are refitted, on the calibration positions of that layer, so that the integer
/// network reproduces the float network's outputs. With φ the integer network's activations
/// (clamp(acc, 0, QA)² / QA², plus 1 for the bias) and y the float outputs, the real-valued fit is
/// `(ΦᵀΦ/N + δI)⁻¹ (Φᵀy/N + δw)` (δ, 1 % of the mean diagonal, pulls toward the trained weights
/// `w` where the data says little); it is rounded one weight at a time by nearest-plane rounding,
/// the error of each rounded weight passed on to the weights not yet rounded (as in GPTQ), `b1`
/// last on its fine grid. Values keep their meaning (`x·QB`, `x·QA·QB`) and ranges (|W1| ≤ 127).
/// Needed because with H = 128 and QB = 64 a trained `W1` spans only a few dozen steps and plain
/// rounding leaves a systematic error of several centipawns.
///
/// An output layer keeps [`quantise`]'s rounding when `calibration` holds none of its positions,
/// its system is singular, or its refitted weights would add up past `MAX_OUTPUT_SUM` in absolute
/// value.
pub fn quantise_calibrated(params: &[f32], calibration: &[Sample]) -> NetWeights {
    let mut w = quantise(params);
    for bucket in 0..BUCKETS {
        let positions: Vec<Sample> = calibration
            .iter()
            .filter(|s| bucket_of(s) == bucket)
            .take(CALIBRATION_POSITIONS)
            .copied()
            .collect();
        if let Some((w1, b1)) = output_layer(params, &w, &positions, bucket)
            && output_sum(&w1) <= MAX_OUTPUT_SUM
        {
            w.w1[bucket * 2 * H..(bucket + 1) * 2 * H].copy_from_slice(&w1);
            w.b1[bucket] = b1;
        }
    }
    w
}

/// The refit of [`quantise_calibrated`] for output layer `bucket`, on positions of that layer;
/// row 0 is `b1`, rows `1..=2H` are `W1`.
fn output_layer(
    params: &[f32],
    w: &NetWeights,
    positions: &[Sample],
    bucket: usize,
) -> Option<(Vec<i16>, i32)> {
    const N: usize = 2 * H + 1;
    if positions.is_empty() {
        return None;
    }
    let mut gram = vec![0.0f64; N * N];
    let mut rhs = vec![0.0f64; N];
    let mut phi = [0.0f64; N];
    let mut active = [0usize; N];
    let mut stm = [0u16; MAX_FEATURES];
    let mut other = [0u16; MAX_FEATURES];
    let (mut us, mut them) = ([0i16; H], [0i16; H]);
    let qa2 = f64::from(QA * QA);
    for s in positions {
        let n = engine_rows(w, s, &mut stm, &mut other);
        accumulate(w, &stm[..n], &mut us);
        accumulate(w, &other[..n], &mut them);
        phi[0] = 1.0;
        for i in 0..H {
            let c = f64::from(i32::from(us[i]).clamp(0, QA));
            let d = f64::from(i32::from(them[i]).clamp(0, QA));
            phi[1 + i] = c * c / qa2;
            phi[1 + H + i] = d * d / qa2;
        }
        let y = f64::from(super::net::eval_cp(params, s)) / f64::from(SCALE);
        let mut len = 0;
        for (i, &x) in phi.iter().enumerate() {
            if x != 0.0 {
                active[len] = i;
                len += 1;
            }
        }
        let active = &active[..len];
        for (a, &i) in active.iter().enumerate() {
            rhs[i] += phi[i] * y;
            let row = &mut gram[i * N..i * N + N];
            for &j in &active[..=a] {
                row[j] += phi[i] * phi[j];
            }
        }
    }
    let count = positions.len() as f64;
    symmetrise(&mut gram, N, count);
    for r in &mut rhs {
        *r /= count;
    }
    let d = damp(&mut gram, N);
    let layout = Layout::of_len(params.len());
    rhs[0] += d * f64::from(params[layout.b1() + bucket]);
    for i in 0..2 * H {
        rhs[1 + i] += d * f64::from(params[layout.w1() + bucket * 2 * H + i]);
    }
    let l = cholesky(&gram, N)?;
    let fit = cholesky_solve(&l, N, &rhs);
    let q = nearest_plane(&l, N, &fit, |i| {
        if i == 0 {
            (f64::from(QA * QB), f64::from(i32::MAX))
        } else {
            (f64::from(QB), 127.0)
        }
    });
    Some((q[1..].iter().map(|&v| v as i16).collect(), q[0] as i32))
}
