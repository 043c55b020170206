//! The optimiser: AdamW with decoupled weight decay on the weight matrices, clipping of every
//! parameter after each step (and of the output weights' absolute sum), and the cosine
//! learning-rate schedule.

#[cfg(test)]
use super::net::{B1, N_PARAMS, W1};
use super::net::{BUCKET_CLIP, CLIP, H, Layout, W1_CLIP, W1_SUM_CLIP};

/// AdamW state: first and second moments per parameter and the step count.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    /// First moment (mean of gradients).
    pub m: Vec<f32>,
    /// Second moment (mean of squared gradients).
    pub v: Vec<f32>,
    /// Steps taken.
    pub t: u64,
}

/// β₁.
pub const BETA1: f32 = 0.9;
/// β₂.
pub const BETA2: f32 = 0.999;
/// Added to √v̂.
pub const EPS: f32 = 1e-8;
/// Decoupled weight decay, applied to `W0` and `W1` only (the biases are not decayed).
pub const WEIGHT_DECAY: f32 = 0.01;

impl AdamW {
    /// Zero moments for `n` parameters.
    pub fn new(n: usize) -> AdamW {
        AdamW {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    /// One step on every parameter (dense: all 1260 rows of `W0` are updated, touched or not;
    /// at this size that costs about as much as a few hundred positions), then clipping to ±CLIP
    /// (±`W1_CLIP` for `W1`, each output layer's absolute sum then brought within `W1_SUM_CLIP`).
    pub fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        self.t += 1;
        let bc1 = 1.0 - BETA1.powf(self.t as f32);
        let bc2 = 1.0 - BETA2.powf(self.t as f32);
        let (step1, step2) = (lr / bc1, 1.0 / bc2);
        let layout = Layout::of_len(params.len());
        let (w1, b1) = (layout.w1(), layout.b1());
        // A king-bucketed net's own rows of each bucket are held closer than its shared rows.
        let own = if layout.king_buckets() {
            layout.factor() * H
        } else {
            0
        };
        let segments = [
            (0, own, true, BUCKET_CLIP),
            (own, layout.w0_len(), true, CLIP),
            (layout.b0(), w1, false, CLIP),
            (w1, b1, true, W1_CLIP),
            (b1, layout.n_params(), false, CLIP),
        ];
        for (start, end, decay, clip) in segments {
            let keep = if decay { 1.0 - lr * WEIGHT_DECAY } else { 1.0 };
            let p = &mut params[start..end];
            let g = &grad[start..end];
            let m = &mut self.m[start..end];
            let v = &mut self.v[start..end];
            for i in 0..p.len() {
                m[i] = BETA1 * m[i] + (1.0 - BETA1) * g[i];
                v[i] = BETA2 * v[i] + (1.0 - BETA2) * g[i] * g[i];
                let update = step1 * m[i] / ((v[i] * step2).sqrt() + EPS);
                p[i] = (p[i] * keep - update).clamp(-clip, clip);
            }
        }
        for layer in params[w1..b1].chunks_exact_mut(2 * H) {
            project_l1(layer, W1_SUM_CLIP);
        }
    }
}

/// Moves `v` to the nearest point (in Euclidean distance) whose absolute values add up to at most
/// `bound`: when the sum is over, every |v_i| is lowered by the same θ ≥ 0 (and stops at zero),
/// with θ chosen so that the sum comes out at `bound`. Signs are kept; `v` within the bound is
/// left alone.
pub fn project_l1(v: &mut [f32], bound: f32) {
    let sum: f64 = v.iter().map(|x| f64::from(x.abs())).sum();
    if sum <= f64::from(bound) {
        return;
    }
    let mut mags: Vec<f64> = v.iter().map(|x| f64::from(x.abs())).collect();
    mags.sort_unstable_by(|a, b| b.total_cmp(a));
    // θ = (Σ of the k largest − bound) / k for the largest k whose k-th value stays above θ.
    let (mut prefix, mut theta) = (0.0f64, 0.0f64);
    for (k, &m) in mags.iter().enumerate() {
        prefix += m;
        let t = (prefix - f64::from(bound)) / (k + 1) as f64;
        if m > t {
            theta = t;
        } else {
            break;
        }
    }
    for x in v.iter_mut() {
        let m = (f64::from(x.abs()) - theta).max(0.0) as f32;
        *x = m.copysign(*x);
    }
}

/// Cosine schedule from `start` at step 0 to `end` at step `total`.
pub fn cosine_lr(step: u64, total: u64, start: f32, end: f32) -> f32 {
    let x = if total == 0 {
        1.0
    } else {
        (step as f64 / total as f64).min(1.0)
    };
    let c = 0.5 * (1.0 + (std::f64::consts::PI * x).cos());
    (f64::from(end) + (f64::from(start) - f64::from(end)) * c) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn king_buckets_own_rows_are_held_closer_than_the_shared_rows() {
        for layout in [Layout::MIRRORED, Layout::PALACE] {
            let shared = layout.factor() * H;
            let mut p = vec![0.0; layout.n_params()];
            let mut g = vec![0.0; layout.n_params()];
            p[0] = 1.5;
            p[shared - 1] = 1.5;
            p[shared] = 1.5;
            g[1] = -1.0;
            AdamW::new(p.len()).step(&mut p, &g, 2.0);
            assert_eq!(p[0], BUCKET_CLIP);
            assert_eq!(p[1], BUCKET_CLIP);
            assert_eq!(p[shared - 1], BUCKET_CLIP);
            assert!(p[shared] > BUCKET_CLIP && p[shared] <= CLIP);
        }
    }

    #[test]
    fn schedule_ends() {
        assert!((cosine_lr(0, 100, 1e-3, 1e-5) - 1e-3).abs() < 1e-9);
        assert!((cosine_lr(100, 100, 1e-3, 1e-5) - 1e-5).abs() < 1e-9);
        assert!((cosine_lr(50, 100, 1e-3, 1e-5) - 0.505e-3).abs() < 1e-8);
    }

    #[test]
    fn first_step_moves_by_lr_and_clips() {
        let mut p = vec![0.0; N_PARAMS];
        p[W1] = 1.98;
        let mut g = vec![0.0; N_PARAMS];
        g[0] = 3.0;
        g[B1] = -0.5;
        g[W1] = -1.0;
        let mut opt = AdamW::new(N_PARAMS);
        opt.step(&mut p, &g, 0.01);
        assert!((p[0] + 0.01).abs() < 1e-5);
        assert!((p[B1] - 0.01).abs() < 1e-5);
        assert_eq!(p[W1], W1_CLIP);
        assert_eq!(p[1], 0.0);
    }

    /// The slow twin of `project_l1`: bisection on θ.
    fn project_by_bisection(v: &[f32], bound: f32) -> Vec<f32> {
        let total = |t: f64| {
            v.iter()
                .map(|x| (f64::from(x.abs()) - t).max(0.0))
                .sum::<f64>()
        };
        if total(0.0) <= f64::from(bound) {
            return v.to_vec();
        }
        let (mut lo, mut hi) = (
            0.0f64,
            v.iter().map(|x| f64::from(x.abs())).fold(0.0, f64::max),
        );
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if total(mid) > f64::from(bound) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        v.iter()
            .map(|x| ((f64::from(x.abs()) - hi).max(0.0) as f32).copysign(*x))
            .collect()
    }

    #[test]
    fn l1_projection_meets_the_bound_and_matches_bisection() {
        let mut rng = super::super::rng::Rng::new(7);
        for case in 0..50 {
            let n = 1 + case * 13 % 600;
            let v: Vec<f32> = (0..n).map(|_| rng.symmetric(0.5)).collect();
            let sum: f32 = v.iter().map(|x| x.abs()).sum();
            let bound = sum * (0.1 + 0.02 * case as f32);
            let mut p = v.clone();
            project_l1(&mut p, bound);
            let after: f32 = p.iter().map(|x| x.abs()).sum();
            assert!(
                after <= bound * 1.0001 + 1e-6,
                "case {case}: {after} > {bound}"
            );
            let slow = project_by_bisection(&v, bound);
            for (i, (a, b)) in p.iter().zip(&slow).enumerate() {
                assert!((a - b).abs() < 1e-5, "case {case} [{i}]: {a} vs {b}");
                assert!(*a == 0.0 || a.signum() == v[i].signum());
            }
        }
    }

    #[test]
    fn a_step_keeps_the_output_weights_within_their_sum() {
        let mut p = vec![0.0; N_PARAMS];
        for x in &mut p[W1..B1] {
            *x = W1_CLIP;
        }
        let g = vec![0.0; N_PARAMS];
        AdamW::new(N_PARAMS).step(&mut p, &g, 0.0);
        for layer in p[W1..B1].chunks_exact(2 * H) {
            let sum: f32 = layer.iter().map(|x| x.abs()).sum();
            assert!(sum <= W1_SUM_CLIP * 1.0001, "{sum} > {W1_SUM_CLIP}");
        }
        assert!(p[W1..B1].iter().all(|&x| x > 0.0));
    }
}
