//! Tuning the handcrafted evaluation's weights on training records: each position's term counts
//! (the evaluation's own trace) against a blend of the game result and the search score, fitted
//! by minibatch Adam on the squared error of the predicted result, then rounded and written as
//! the engine's weight table.

use super::dataset::Sample;
use super::net::{SCALE_F, sigmoid};
use super::rng::Rng;
use xq::eval::hce::{self, Weight, term};
use xq::nnue::network::Network;

/// One position reduced to what the evaluation's weights act on.
pub struct Traced {
    /// Offset of this position's terms in `Traces::terms`.
    start: u32,
    /// Number of terms.
    len: u16,
    /// Midgame share: phase / 256.
    mg_share: f32,
    /// Drawish scale (sixteenths) when Red leads and when Black leads.
    scale: [u8; 2],
    /// +1 when Red is to move, −1 otherwise.
    sign: f32,
    /// Target result for the side to move, 0..1.
    target: f32,
}

/// The traces of many positions, their terms packed in one array.
#[derive(Default)]
pub struct Traces {
    /// `(term index, count)` of every position in turn.
    terms: Vec<(u16, i16)>,
    /// The positions.
    pub positions: Vec<Traced>,
}

impl Traces {
    /// Traces `samples` with targets `λ × result + (1 − λ) × σ(score / SCALE)`, the score being
    /// the record's search score or, with a `teacher` net, that net's evaluation; positions that
    /// do not decode are skipped and counted in the second value.
    pub fn build(samples: &[Sample], lambda: f32, teacher: Option<&Network>) -> (Traces, usize) {
        let mut out = Traces::default();
        let mut skipped = 0;
        for s in samples {
            let Some(pos) = s.record().position() else {
                skipped += 1;
                continue;
            };
            let t = hce::trace(&pos);
            let start = out.terms.len() as u32;
            for (i, &c) in t.counts.iter().enumerate() {
                if c != 0 {
                    out.terms.push((i as u16, c.clamp(-32768, 32767) as i16));
                }
            }
            let score =
                teacher.map_or(f32::from(s.score), |net| net.evaluate_position(&pos) as f32);
            let target =
                lambda * f32::from(s.result) * 0.5 + (1.0 - lambda) * sigmoid(score / SCALE_F);
            out.positions.push(Traced {
                start,
                len: (out.terms.len() as u32 - start) as u16,
                mg_share: t.phase as f32 / 256.0,
                scale: [
                    hce::drawish_scale(&pos, 1) as u8,
                    hce::drawish_scale(&pos, -1) as u8,
                ],
                sign: if pos.side_to_move() == xq::square::Color::Red {
                    1.0
                } else {
                    -1.0
                },
                target,
            });
        }
        (out, skipped)
    }

    fn terms_of(&self, p: &Traced) -> &[(u16, i16)] {
        &self.terms[p.start as usize..p.start as usize + usize::from(p.len)]
    }

    /// The evaluation of `p` for the side to move under `params` (mg at 2i, eg at 2i + 1), and the
    /// factor that carries a change of the Red-view linear sum into it.
    fn eval(&self, p: &Traced, params: &[f32]) -> (f32, f32) {
        let eg_share = 1.0 - p.mg_share;
        let mut red = 0.0;
        for &(i, c) in self.terms_of(p) {
            let i = usize::from(i);
            red += f32::from(c) * (params[2 * i] * p.mg_share + params[2 * i + 1] * eg_share);
        }
        let scale = f32::from(p.scale[usize::from(red < 0.0)]) / 16.0;
        (p.sign * red * scale, p.sign * scale)
    }

    /// Mean squared error of the predicted results over all positions.
    pub fn loss(&self, params: &[f32]) -> f64 {
        let mut sum = 0.0f64;
        for p in &self.positions {
            let e = sigmoid(self.eval(p, params).0 / SCALE_F) - p.target;
            sum += f64::from(e * e);
        }
        sum / self.positions.len().max(1) as f64
    }

    /// Adds the gradient of the summed squared error over `batch` into `grad`; returns that sum.
    fn gradient(&self, batch: &[u32], params: &[f32], grad: &mut [f32]) -> f64 {
        let mut sum = 0.0f64;
        for &k in batch {
            let p = &self.positions[k as usize];
            let (e, dred) = self.eval(p, params);
            let s = sigmoid(e / SCALE_F);
            let err = s - p.target;
            sum += f64::from(err * err);
            let g = 2.0 * err * s * (1.0 - s) / SCALE_F * dred;
            let (gm, ge) = (g * p.mg_share, g * (1.0 - p.mg_share));
            for &(i, c) in self.terms_of(p) {
                let i = usize::from(i);
                grad[2 * i] += gm * f32::from(c);
                grad[2 * i + 1] += ge * f32::from(c);
            }
        }
        sum
    }
}

/// Settings of one tuning run.
pub struct Settings {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per step.
    pub batch: usize,
    /// Adam step size in centipawns, decayed along a cosine to a twentieth.
    pub lr: f32,
    /// Shuffling seed.
    pub seed: u64,
}

/// Weights as the tuner's flat parameters (mg, eg per term).
pub fn to_params(weights: &[Weight]) -> Vec<f32> {
    weights
        .iter()
        .flat_map(|w| [w.mg as f32, w.eg as f32])
        .collect()
}

/// Parameters rounded to the engine's integer weights.
pub fn to_weights(params: &[f32]) -> Vec<Weight> {
    params
        .chunks(2)
        .map(|c| hce::w(c[0].round() as i32, c[1].round() as i32))
        .collect()
}

/// Tunes `params` on `train`, printing the training and validation loss after each epoch.
pub fn tune(params: &mut [f32], train: &Traces, valid: &Traces, s: &Settings) {
    let n = params.len();
    let (mut m, mut v) = (vec![0.0f32; n], vec![0.0f32; n]);
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut order: Vec<u32> = (0..train.positions.len() as u32).collect();
    let mut rng = Rng::new(s.seed ^ 0x7e_e7);
    let steps_per_epoch = order.len().div_ceil(s.batch.max(1));
    let total = (steps_per_epoch * s.epochs).max(1);
    let mut step = 0usize;
    let mut grad = vec![0.0f32; n];
    for epoch in 1..=s.epochs {
        rng.shuffle(&mut order);
        let mut sum = 0.0f64;
        for batch in order.chunks(s.batch.max(1)) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            sum += train.gradient(batch, params, &mut grad);
            step += 1;
            let progress = step as f32 / total as f32;
            let lr = s.lr * (0.05 + 0.95 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
            let inv = 1.0 / batch.len() as f32;
            let (c1, c2) = (1.0 - b1.powi(step as i32), 1.0 - b2.powi(step as i32));
            for i in 0..n {
                let g = grad[i] * inv;
                m[i] = b1 * m[i] + (1.0 - b1) * g;
                v[i] = b2 * v[i] + (1.0 - b2) * g * g;
                params[i] -= lr * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
            }
        }
        println!(
            "epoch {epoch:3}: train {:.6}  valid {:.6}",
            sum / train.positions.len().max(1) as f64,
            valid.loss(params)
        );
    }
}

/// Names of the term groups, for the comments of the written table.
const GROUPS: [(&str, usize); 21] = [
    ("king placement", term::PST),
    ("advisor placement", term::PST + 50),
    ("elephant placement", term::PST + 100),
    ("horse placement", term::PST + 150),
    ("rook placement", term::PST + 200),
    ("cannon placement", term::PST + 250),
    ("pawn placement", term::PST + 300),
    ("rook mobility", term::ROOK_MOBILITY),
    ("horse mobility", term::HORSE_MOBILITY),
    ("cannon mobility", term::CANNON_MOBILITY),
    ("cannon targets", term::CANNON_TARGETS),
    ("palace pressure", term::PALACE_PRESSURE),
    (
        "cannon on the king's file, by screens 0..3+",
        term::CANNON_KING_FILE,
    ),
    ("rook on the king's open file", term::ROOK_KING_FILE),
    (
        "missing advisors, elephants; crossed pawns (each x force)",
        term::MISSING_ADVISOR,
    ),
    ("connected crossed pawns", term::CONNECTED_PAWNS),
    ("rook on a file free of own pawns", term::ROOK_OPEN_FILE),
    ("cannon on the back rank", term::CANNON_BACK_RANK),
    (
        "threatened pieces of the side to move, by kind",
        term::THREATENED,
    ),
    ("two or more threatened", term::MULTIPLE_THREATS),
    ("tempo", term::TEMPO),
];

/// The Rust source of the weight table `weights`, with `provenance` in its header.
pub fn weights_source(weights: &[Weight], provenance: &str) -> String {
    let mut out = String::new();
    out.push_str(
        "//! Tuned weights of the handcrafted evaluation (written by `xq-tools tune-hce`).\n",
    );
    out.push_str("//!\n");
    for line in provenance.lines() {
        out.push_str(&format!("//! {line}\n"));
    }
    out.push_str("\nuse super::hce::{Weight, term, w};\n\n");
    out.push_str("/// The weight of each term, indexed as in [`term`].\n");
    out.push_str("#[rustfmt::skip]\n");
    out.push_str("pub const WEIGHTS: [Weight; term::COUNT] = [\n");
    for (g, &(name, start)) in GROUPS.iter().enumerate() {
        let end = GROUPS.get(g + 1).map_or(term::COUNT, |&(_, s)| s);
        out.push_str(&format!("    // {name}\n"));
        let row = if start < term::ROOK_MOBILITY { 5 } else { 6 };
        for chunk in weights[start..end].chunks(row) {
            let cells: Vec<String> = chunk
                .iter()
                .map(|w| format!("w({}, {})", w.mg, w.eg))
                .collect();
            out.push_str(&format!("    {},\n", cells.join(", ")));
        }
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data;
    use xq::fen;

    fn sample(fen_text: &str, score: i16, result: u8) -> Sample {
        let pos = fen::parse(fen_text).unwrap();
        let bytes = data::encode(&pos, score, result, 10);
        Sample::from_record(&data::decode(&bytes).unwrap())
    }

    #[test]
    fn traced_evaluation_matches_the_engine() {
        let fens = [
            fen::START_FEN,
            "r1ba1kb2/8C/2nac1n1r/p1p1p1p1p/4c4/2P1P3P/P5PC1/R3B4/4AN3/1NBAK3R w - - 30 16",
            "2ra2b2/cC1nak1r1/7cn/P5p2/2b5p/2p6/RCPp2P1P/N3B3R/N8/2BAKA3 b - - 20 31",
        ];
        let samples: Vec<Sample> = fens.iter().map(|f| sample(f, 0, 1)).collect();
        let (traces, skipped) = Traces::build(&samples, 0.5, None);
        assert_eq!(skipped, 0);
        let params = to_params(&hce::WEIGHTS);
        for (p, s) in traces.positions.iter().zip(&samples) {
            let engine = hce::evaluate(&s.record().position().unwrap());
            let tuned = traces.eval(p, &params).0;
            assert!((engine as f32 - tuned).abs() <= 1.0, "{engine} vs {tuned}");
        }
    }

    #[test]
    fn tuning_lowers_the_loss_and_the_table_round_trips() {
        let fens = [
            "4k4/9/9/9/9/9/9/9/4A4/R3K4 w - - 0 1",
            "4k4/9/9/9/9/9/9/9/4A4/C3K4 w - - 0 1",
            "r3k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1",
        ];
        let samples: Vec<Sample> = fens
            .iter()
            .zip([(900, 2), (300, 1), (-900, 0)])
            .map(|(f, (score, result))| sample(f, score, result))
            .collect();
        let (traces, _) = Traces::build(&samples, 0.5, None);
        let mut params = vec![0.0f32; 2 * term::COUNT];
        let before = traces.loss(&params);
        let s = Settings {
            epochs: 50,
            batch: 2,
            lr: 5.0,
            seed: 1,
        };
        tune(&mut params, &traces, &traces, &s);
        assert!(traces.loss(&params) < before / 2.0);
        let text = weights_source(&to_weights(&params), "test");
        assert_eq!(text.matches("w(").count(), term::COUNT);
    }
}
