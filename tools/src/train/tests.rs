//! Trainer tests: smoke run, a linear teacher, export and quantisation checks, and a gradient
//! check against finite differences of an independent double-precision forward pass.

use super::checkpoint::Checkpoint;
use super::dataset::{self, MIRROR, Sample, Split};
use super::net::{self, B0, B1, Coins, H, N_PARAMS, W1};
use super::rng::Rng;
use super::{
    Outcome, QUANT_MAX_BOUND, QUANT_MEAN_BOUND, Settings, check_engine, compare, quant, train,
};
use crate::data;
use std::sync::OnceLock;
use xq::movegen::legal_moves;
use xq::nnue::format::{self, INPUTS, KingLayout, QA, QB};
use xq::position::Position;

/// Positions from seeded random games (captures happen, so material varies), side to move
/// oriented as in the record files, with score and result zero.
fn random_positions(n: usize, seed: u64) -> Vec<Sample> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut pos = Position::startpos();
        for ply in 0..200 {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            if ply >= 4 && rng.below(3) == 0 {
                let rec = data::decode(&data::encode(&pos, 0, data::DRAW, ply))
                    .expect("encoded records decode");
                out.push(Sample::from_record(&rec));
                if out.len() == n {
                    break;
                }
            }
            pos.play(moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    out
}

/// A material teacher: piece values (pawns over the river count double) for the side to move,
/// results drawn from the logistic of the score with a band of draws.
fn label_material(samples: &mut [Sample], seed: u64) {
    const VALUE: [i32; 7] = [0, 120, 120, 400, 900, 450, 100];
    let mut rng = Rng::new(seed);
    for s in samples {
        let mut score = 0;
        for &f in s.active() {
            let (code, sq) = (usize::from(f) / 90, usize::from(f) % 90);
            let mut v = VALUE[code % 7];
            if code % 7 == 6 && (code < 7) == (sq / 9 >= 5) {
                v *= 2;
            }
            score += if code < 7 { v } else { -v };
        }
        s.score = score.clamp(-2000, 2000) as i16;
        let p = net::sigmoid(f32::from(s.score) / 400.0);
        let u = rng.unit();
        s.result = if u < p - 0.1 {
            2
        } else if u < p + 0.1 {
            1
        } else {
            0
        };
    }
}

fn split_of(mut samples: Vec<Sample>, seed: u64) -> Split {
    dataset::shuffle_dedup(&mut samples, &mut Rng::new(seed));
    dataset::split(samples).expect("enough samples")
}

fn quiet(_: &super::EpochReport, _: &Checkpoint, _: &Checkpoint) -> Result<(), String> {
    Ok(())
}

/// The settings of a two-epoch run on small data.
fn short_run(kings: KingLayout) -> Settings {
    Settings {
        epochs: 2,
        lr: 5e-3,
        lr_end: 1e-4,
        batch: 512,
        threads: 2,
        kings,
        ..Settings::default()
    }
}

/// A small run on 20 k material-labelled positions, shared by the tests that need a trained net.
fn smoke_run() -> &'static (Split, Outcome) {
    static RUN: OnceLock<(Split, Outcome)> = OnceLock::new();
    RUN.get_or_init(|| {
        let mut samples = random_positions(20_000, 11);
        label_material(&mut samples, 12);
        let mut split = split_of(samples, 13);
        let outcome =
            train(&short_run(KingLayout::Plain), &mut split, None, quiet).expect("training runs");
        (split, outcome)
    })
}

#[test]
fn smoke_validation_loss_decreases() {
    let (_, o) = smoke_run();
    let losses: Vec<f64> = o.history.iter().map(|r| r.valid_loss).collect();
    eprintln!("initial {:.5}, epochs {losses:?}", o.initial_valid_loss);
    assert_eq!(losses.len(), 2);
    assert!(losses[0] < o.initial_valid_loss);
    assert!(losses[1] < losses[0]);
    assert!(losses[1] < 0.5 * o.initial_valid_loss);
    assert!(
        o.history
            .iter()
            .all(|r| r.speed > 0.0 && r.train_loss.is_finite())
    );
}

#[test]
fn linear_teacher_is_fitted() {
    // A fixed, mirror-symmetric linear function of the side to move's features.
    let mut rng = Rng::new(21);
    let mut c = [0.0f32; INPUTS];
    for f in 0..INPUTS {
        let m = usize::from(MIRROR[f]);
        if m >= f {
            c[f] = rng.symmetric(0.12);
            c[m] = c[f];
        }
    }
    let mut samples = random_positions(12_000, 22);
    for s in &mut samples {
        let x: f32 = s.active().iter().map(|&f| c[usize::from(f)]).sum();
        s.score = (x * 400.0).round().clamp(-3000.0, 3000.0) as i16;
    }
    let mut split = split_of(samples, 23);
    let s = Settings {
        epochs: 12,
        lambda: 0.0,
        lr: 1e-2,
        lr_end: 1e-4,
        batch: 256,
        threads: 2,
        ..Settings::default()
    };
    let o = train(&s, &mut split, None, quiet).expect("training runs");
    let last = o.history.last().expect("epochs ran").valid_loss;
    eprintln!(
        "linear teacher: initial {:.6}, final {last:.6}",
        o.initial_valid_loss
    );
    assert!(last < 1e-4, "validation loss {last}");
    assert!(last < o.initial_valid_loss / 50.0);
}

#[test]
fn export_decodes_to_the_same_integer_forward_and_stays_close_to_float() {
    let (split, o) = smoke_run();
    let params = &o.best.params;
    let nearest = quant::quantise(params);
    let w = quant::quantise_calibrated(params, &split.train);
    // The refit touches only the output layer and keeps the kernels' ranges.
    assert_eq!((&w.w0, &w.b0), (&nearest.w0, &nearest.b0));
    assert!(w.w1.iter().all(|v| v.abs() <= 127));
    for b in 0..net::BUCKETS {
        assert!(format::output_sum(w.output_weights(b)) <= format::MAX_OUTPUT_SUM);
    }
    let bytes = format::encode(&w);
    let back = format::decode(&bytes).expect("own export decodes");
    assert_eq!(back, w);
    for s in &split.valid {
        assert_eq!(quant::eval_cp(&back, s), quant::eval_cp(&w, s));
    }
    // The engine, loading the same bytes, evaluates exactly as our integer forward pass.
    let e = check_engine(&bytes, &w, &split.valid).expect("the engine loads the export");
    assert_eq!((e.mismatch_count, e.skipped), (0, 0), "{e:?}");
    assert_eq!(e.compared, split.valid.len());
    let plain = compare(params, &nearest, &split.valid);
    let d = compare(params, &back, &split.valid);
    eprintln!(
        "quantised vs float over {} positions: nearest rounding mean {:.3} max {:.3}; calibrated mean {:.3} max {:.3}",
        d.count, plain.mean, plain.max, d.mean, d.max
    );
    assert!(
        d.mean < QUANT_MEAN_BOUND && d.max < QUANT_MAX_BOUND,
        "{d:?}"
    );
    assert!(d.mean < plain.mean);
    // The net is not trivially flat: evaluations spread over hundreds of centipawns.
    let spread = split
        .valid
        .iter()
        .map(|s| quant::eval_cp(&w, s).abs())
        .max()
        .unwrap_or(0);
    assert!(spread > 200, "largest |eval| {spread}");
}

#[test]
fn quantisation_rounds_and_clips() {
    let mut p = vec![0.0f32; N_PARAMS];
    p[0] = 1.0;
    p[1] = -0.5 / 255.0 - 1e-6;
    p[B0] = 1.98;
    p[W1] = -1.98;
    p[W1 + H] = 0.5 / QB as f32 + 1e-6;
    p[B1] = 0.25;
    let w = quant::quantise(&p);
    assert_eq!((w.w0[0], w.w0[1], w.b0[0]), (255, -1, 505));
    assert_eq!((w.w1[0], w.w1[H]), (-127, 1));
    assert_eq!(w.b1[0], (0.25 * f64::from(QA * QB)).round() as i32);
    assert_eq!(w.b1[1..], [0; net::BUCKETS - 1]);
}

/// A net whose output weights add up past what the evaluation's i32 sum holds is not written:
/// the export says why instead of leaving a file the engine refuses.
#[test]
fn export_refuses_output_weights_past_their_sum() {
    let mut p = vec![0.0f32; N_PARAMS];
    for x in &mut p[W1..B1] {
        *x = net::W1_CLIP;
    }
    let w = quant::quantise(&p);
    assert!(format::output_sum(w.output_weights(0)) > format::MAX_OUTPUT_SUM);
    let err = super::loadable(&w, std::path::Path::new("wide.nnue")).unwrap_err();
    assert!(err.starts_with("wide.nnue: not written: "), "{err}");
    assert!(err.contains("add up to"), "{err}");
    // Brought within the trainer's sum bound, the same weights export.
    for layer in p[W1..B1].chunks_exact_mut(2 * H) {
        super::adamw::project_l1(layer, net::W1_SUM_CLIP);
    }
    let w = quant::quantise(&p);
    assert!(super::loadable(&w, std::path::Path::new("wide.nnue")).is_ok());
}

/// Integer forward by hand on a net with three pieces and two non-zero first-layer weights.
#[test]
fn integer_forward_follows_the_format() {
    let mut p = vec![0.0f32; N_PARAMS];
    let s = Sample::from_record(&data::Record {
        pieces: vec![(0, 4), (6, 30), (7, 85)],
        score: 0,
        result: 1,
        flags: 0,
    });
    // Side to move: own king e0 = 4, own pawn d3 = 6 * 90 + 30, enemy king e9 = 630 + 85.
    // Other side: the same kings (630 + 85 and 4) and an enemy pawn on d6: 630 + 540 + 57.
    p[4 * H] = 0.5; // both perspectives, neuron 0
    p[(6 * 90 + 30) * H] = 0.3; // side to move only
    p[(630 + 540 + 57) * H + 1] = -0.2; // other side only, neuron 1 (clamped to 0)
    p[W1] = 0.25;
    p[W1 + H] = -0.125;
    p[B1] = 0.1;
    let w = quant::quantise(&p);
    assert_eq!((w.w1[0], w.w1[H]), (64, -32));
    // us0 = 128 + 77 = 205, them0 = 128, them1 = -51 -> 0.
    let sum = 205 * 205 * 64 + 128 * 128 * (-32);
    let b1 = (0.1 * f64::from(QA * QB)).round() as i64;
    let v = i64::from(sum / 255) + b1;
    assert_eq!(quant::eval_cp(&w, &s), v * 400 / i64::from(QA * QB));
    let float = net::eval_cp(&p, &s);
    let expect = (0.8f32 * 0.8 * 0.25 - 0.5 * 0.5 * 0.125 + 0.1) * 400.0;
    assert!((float - expect).abs() < 1e-3, "{float} vs {expect}");
}

/// The output layer of a sample from its definition: (pieces − 2) / 4, at most the last.
fn reference_bucket(s: &Sample) -> usize {
    ((usize::from(s.len) - 2) / 4).min(net::BUCKETS - 1)
}

/// The first-layer rows one perspective's features `feats` sum in training, from the
/// definitions: a plain net's rows are the features; a king-bucketed net's are each feature in
/// the part of the perspective's own king and again in the shared part after the last part.
/// Six parts: rank × 2, plus 1 on file e, squares mirrored with the king on file f. Nine parts:
/// rank × 3 + file − 3, nothing mirrored.
fn reference_rows(feats: &[usize], kings: KingLayout) -> Vec<usize> {
    if kings == KingLayout::Plain {
        return feats.to_vec();
    }
    let king = feats.iter().copied().find(|&f| f < 90).expect("own king");
    let (rank, file) = (king / 9, king % 9);
    let (part, parts, mirror) = if kings == KingLayout::Mirrored {
        (rank * 2 + usize::from(file == 4), 6, file == 5)
    } else {
        (rank * 3 + file - 3, 9, false)
    };
    let seen = |f: usize| {
        if mirror {
            f / 90 * 90 + f % 90 / 9 * 9 + 8 - f % 9
        } else {
            f
        }
    };
    let mut rows: Vec<usize> = feats.iter().map(|&f| part * INPUTS + seen(f)).collect();
    rows.extend(feats.iter().map(|&f| parts * INPUTS + seen(f)));
    rows
}

/// Independent double-precision loss: features of the other side, king buckets and the output
/// layer computed from their definitions, not from the trainer's tables.
fn reference_loss(p: &[f64], samples: &[Sample], lambda: f64) -> f64 {
    let layout = net::Layout::of_len(p.len());
    let (b0, w1, b1) = (layout.b0(), layout.w1(), layout.b1());
    let mut total = 0.0;
    for s in samples {
        let stm: Vec<usize> = s.active().iter().map(|&f| usize::from(f)).collect();
        let other: Vec<usize> = stm
            .iter()
            .map(|&f| {
                let (rel, kind, sq) = (f / 630, f % 630 / 90, f % 90);
                (1 - rel) * 630 + kind * 90 + (9 - sq / 9) * 9 + sq % 9
            })
            .collect();
        let stm = reference_rows(&stm, layout.kings);
        let other = reference_rows(&other, layout.kings);
        let b = reference_bucket(s);
        let mut o = p[b1 + b];
        for (half, feats) in [(b * 2 * H, &stm), (b * 2 * H + H, &other)] {
            for i in 0..H {
                let mut a = p[b0 + i];
                for &f in feats.iter() {
                    a += p[f * H + i];
                }
                let c = a.clamp(0.0, 1.0);
                o += c * c * p[w1 + half + i];
            }
        }
        let pred = 1.0 / (1.0 + (-o).exp());
        let t = lambda * f64::from(s.result) / 2.0
            + (1.0 - lambda) / (1.0 + (-f64::from(s.score) / 400.0).exp());
        total += (pred - t) * (pred - t);
    }
    total / samples.len() as f64
}

#[test]
fn gradient_matches_finite_differences() {
    gradient_check(net::Layout::PLAIN);
}

#[test]
fn king_bucketed_gradient_matches_finite_differences() {
    gradient_check(net::Layout::MIRRORED);
}

#[test]
fn palace_bucketed_gradient_matches_finite_differences() {
    gradient_check(net::Layout::PALACE);
}

fn gradient_check(layout: net::Layout) {
    let (b0, w1, b1) = (layout.b0(), layout.w1(), layout.b1());
    let mut samples = random_positions(6, 31);
    label_material(&mut samples, 32);
    let mut rng = Rng::new(33);
    let mut p = net::init_with(34, layout);
    for x in &mut p[..b0] {
        *x = if *x == 0.0 {
            rng.symmetric(0.05)
        } else {
            *x * 2.5
        };
    }
    for x in &mut p[b0..w1] {
        *x = rng.symmetric(0.3);
    }
    for x in &mut p[w1..b1] {
        *x = rng.symmetric(1.0);
    }
    for x in &mut p[b1..] {
        *x = 0.2;
    }
    let lambda = 0.4f32;
    let mut grads = vec![Vec::new()];
    let coins = Coins {
        key: None,
        first: 0,
    };
    net::batch_gradient(&p, &samples, coins, lambda, &mut grads);
    let analytic = &grads[0];

    // Coordinates: all of b0, the w1 and b1 of the output layers some position uses, and W0
    // entries of rows active in some position (both perspectives) plus one row active in none.
    // The other output layers get no gradient at all.
    let used: std::collections::BTreeSet<usize> = samples.iter().map(reference_bucket).collect();
    let mut coords: Vec<usize> = (b0..w1).collect();
    for b in 0..net::BUCKETS {
        let layer = w1 + b * 2 * H..w1 + (b + 1) * 2 * H;
        if used.contains(&b) {
            coords.extend(layer);
            coords.push(b1 + b);
        } else {
            assert!(analytic[layer].iter().all(|&g| g == 0.0), "layer {b}");
            assert_eq!(analytic[b1 + b], 0.0);
        }
    }
    // Rows each sample switches on, for both perspectives.
    let rows_of = |s: &Sample| -> Vec<usize> {
        let stm: Vec<usize> = s.active().iter().map(|&f| usize::from(f)).collect();
        let other: Vec<usize> = stm
            .iter()
            .map(|&f| usize::from(dataset::OTHER[f]))
            .collect();
        let mut rows = reference_rows(&stm, layout.kings);
        rows.extend(reference_rows(&other, layout.kings));
        rows
    };
    let mut active = std::collections::BTreeSet::new();
    let mut all_active = std::collections::BTreeSet::new();
    for s in &samples {
        let rows = rows_of(s);
        let n = s.active().len();
        // The first four pieces' rows of each perspective (and their shared rows).
        for (i, &r) in rows.iter().enumerate() {
            all_active.insert(r);
            if i % n < 4 {
                active.insert(r);
            }
        }
    }
    let inactive = (0..layout.rows())
        .find(|r| !all_active.contains(r))
        .expect("some row is inactive");
    for &row in active.iter().chain([inactive].iter()) {
        for _ in 0..6 {
            coords.push(row * H + rng.below(H as u64) as usize);
        }
    }

    let base: Vec<f64> = p.iter().map(|&x| f64::from(x)).collect();
    let eps = 1e-6;
    let mut worst = 0.0f64;
    let mut nonzero = 0;
    let mut q = base.clone();
    for &k in &coords {
        q[k] = base[k] + eps;
        let up = reference_loss(&q, &samples, f64::from(lambda));
        q[k] = base[k] - eps;
        let down = reference_loss(&q, &samples, f64::from(lambda));
        q[k] = base[k];
        let numeric = (up - down) / (2.0 * eps);
        let a = f64::from(analytic[k]);
        let err = (numeric - a).abs() / (1e-4 + numeric.abs().max(a.abs()));
        worst = worst.max(err);
        if numeric.abs() > 1e-6 {
            nonzero += 1;
        }
        assert!(
            err < 2e-2,
            "parameter {k}: analytic {a:e}, numeric {numeric:e}"
        );
    }
    for i in 0..H {
        assert_eq!(analytic[inactive * H + i], 0.0);
    }
    eprintln!(
        "gradient check: {} coordinates, {nonzero} non-zero, worst relative error {worst:.2e}",
        coords.len()
    );
    assert!(nonzero > coords.len() / 2);
}

#[test]
fn threads_agree_on_the_gradient() {
    let mut samples = random_positions(300, 41);
    label_material(&mut samples, 42);
    let p = net::init_with(43, net::Layout::PLAIN);
    let coins = Coins {
        key: Some(7),
        first: 100,
    };
    let mut one = vec![Vec::new()];
    let mut three = vec![Vec::new(); 3];
    let l1 = net::batch_gradient(&p, &samples, coins, 0.4, &mut one);
    let l3 = net::batch_gradient(&p, &samples, coins, 0.4, &mut three);
    assert!((l1 - l3).abs() < 1e-9 * l1.max(1.0) + 1e-6);
    let scale = one[0].iter().fold(0.0f32, |m, x| m.max(x.abs()));
    for (a, b) in one[0].iter().zip(&three[0]) {
        assert!((a - b).abs() <= 1e-5 * scale, "{a} vs {b}");
    }
}

#[test]
fn fit_scale_recovers_a_known_scale() {
    let mut rng = Rng::new(51);
    let pairs: Vec<(f32, f32)> = (0..20_000)
        .map(|_| {
            let score = rng.symmetric(1500.0);
            let p = net::sigmoid(score / 300.0);
            (score, if rng.unit() < p { 1.0 } else { 0.0 })
        })
        .collect();
    let (scale, _) = super::fit_scale(&pairs, 20.0, 5000.0);
    assert!((scale - 300.0).abs() < 30.0, "fitted {scale}");
}

#[test]
fn engine_agrees_on_random_nets() {
    let samples = random_positions(500, 61);
    use KingLayout::{Mirrored, Palace, Plain};
    for (seed, kings) in [
        (0, Plain),
        (1, Plain),
        (2, Plain),
        (3, Mirrored),
        (4, Mirrored),
        (5, Palace),
        (6, Palace),
    ] {
        let w = format::NetWeights::random_with(seed, kings);
        let e = check_engine(&format::encode(&w), &w, &samples).expect("loads");
        assert_eq!(
            (e.mismatch_count, e.skipped, e.compared),
            (0, 0, 500),
            "{e:?}"
        );
    }
}

/// The shipped net and random king-bucketed ones, read back as floats, quantise to themselves,
/// and their float forward pass is the integer one up to truncation: training can start from a
/// net without losing what it knows.
#[test]
fn nets_dequantise_to_their_own_weights() {
    let shipped = format::decode(include_bytes!("../../../nnue/default.nnue"))
        .expect("the shipped net decodes");
    let mirrored = format::NetWeights::random_with(5, KingLayout::Mirrored);
    let palace = format::NetWeights::random_with(6, KingLayout::Palace);
    for (w, layout, seed) in [
        (shipped, net::Layout::PLAIN, 31),
        (mirrored, net::Layout::MIRRORED, 37),
        (palace, net::Layout::PALACE, 36),
    ] {
        let params = quant::dequantise(&w);
        assert_eq!(params.len(), layout.n_params());
        assert_eq!(quant::quantise(&params), w);
        for s in random_positions(200, seed) {
            let float = net::eval_cp(&params, &s);
            let int = quant::eval_cp(&w, &s) as f32;
            assert!((float - int).abs() <= 2.0, "float {float} vs integer {int}");
        }
    }
}

/// The shipped plain net spread over a king-bucketed layout evaluates as before, in floats and
/// once exported, in the engine too: everywhere with the palace layout, and with the mirrored one
/// wherever neither king stands on file f.
#[test]
fn a_plain_net_spread_over_king_buckets_evaluates_as_before() {
    let bytes = include_bytes!("../../../nnue/default.nnue");
    let plain = format::decode(bytes).expect("the shipped net decodes");
    let params = quant::dequantise(&plain);
    for layout in [net::Layout::MIRRORED, net::Layout::PALACE] {
        let spread = net::bucketed_from_plain(&params, layout);
        let w = quant::quantise(&spread);
        assert_eq!(w.kings, layout.kings);
        assert_eq!(w.first_layer_rows(), layout.kings.buckets() * INPUTS);
        let (mut compared, mut on_f) = (0, 0);
        for s in random_positions(400, 38) {
            let kings_off_f = s.active().iter().all(|&f| {
                let code = usize::from(f) / 90;
                !(code == 0 || code == 7) || usize::from(f) % 9 != 5
            });
            if !kings_off_f {
                on_f += 1;
                if layout == net::Layout::MIRRORED {
                    continue;
                }
            }
            assert_eq!(net::eval_cp(&spread, &s), net::eval_cp(&params, &s));
            assert_eq!(quant::eval_cp(&w, &s), quant::eval_cp(&plain, &s));
            compared += 1;
        }
        assert!(compared > 200, "only {compared} positions");
        assert!(on_f > 20, "only {on_f} positions with a king on file f");
        let samples = random_positions(300, 39);
        let e = check_engine(&format::encode(&w), &w, &samples).expect("loads");
        assert_eq!((e.mismatch_count, e.skipped), (0, 0), "{e:?}");
    }
}

/// A short run of a king-bucketed net of each layout from the material teacher's positions: the
/// loss falls, the export loads in the engine, which evaluates as the trainer's integer pass.
#[test]
fn king_bucketed_training_runs_and_exports() {
    for (kings, file_len) in [
        (KingLayout::Mirrored, format::v3::FILE_LEN),
        (KingLayout::Palace, format::v4::FILE_LEN),
    ] {
        king_bucketed_training_run(kings, file_len);
    }
}

fn king_bucketed_training_run(kings: KingLayout, file_len: usize) {
    let mut samples = random_positions(6_000, 71);
    label_material(&mut samples, 72);
    let mut split = split_of(samples, 73);
    let o = train(&short_run(kings), &mut split, None, quiet).expect("training runs");
    let last = o.history.last().expect("epochs ran").valid_loss;
    assert!(
        last < o.initial_valid_loss,
        "{last} vs {}",
        o.initial_valid_loss
    );
    let w = quant::quantise_calibrated(&o.best.params, &split.train);
    assert_eq!(w.kings, kings);
    let bytes = super::loadable(&w, std::path::Path::new("kb.nnue")).expect("loadable");
    assert_eq!(bytes.len(), file_len);
    let e = check_engine(&bytes, &w, &split.valid).expect("the engine loads the export");
    assert_eq!((e.mismatch_count, e.skipped), (0, 0), "{e:?}");
    let d = compare(&o.best.params, &w, &split.valid);
    assert!(
        d.mean < QUANT_MEAN_BOUND && d.max < QUANT_MAX_BOUND,
        "{d:?}"
    );
}

/// A plain net given threat rows at zero evaluates as before; training moves those rows, and a
/// threat-input checkpoint is refused by export.
#[test]
fn threat_inputs_start_from_the_plain_net_and_train() {
    let bytes = include_bytes!("../../../nnue/default.nnue");
    let params = quant::dequantise(&format::decode(bytes).expect("the shipped net decodes"));
    let with_threats = net::threats_from_plain(&params);
    assert_eq!(
        net::Layout::of_len(with_threats.len()),
        net::Layout::THREATS
    );
    let samples = random_positions(400, 40);
    assert!(samples.iter().filter(|s| s.threats != 0).count() > 100);
    for s in &samples {
        assert_eq!(net::eval_cp(&with_threats, s), net::eval_cp(&params, s));
    }
    let mut labelled = random_positions(4_000, 41);
    label_material(&mut labelled, 42);
    let mut split = split_of(labelled, 43);
    let settings = Settings {
        threats: true,
        ..short_run(KingLayout::Plain)
    };
    let o = train(&settings, &mut split, None, quiet).expect("training runs");
    let best = &o.best.params;
    assert_eq!(net::Layout::of_len(best.len()), net::Layout::THREATS);
    let threat_rows = &best[INPUTS * H..2 * INPUTS * H];
    assert!(threat_rows.iter().any(|&w| w != 0.0));
    let c = Checkpoint {
        params: with_threats,
        ..o.best.clone()
    };
    assert!(super::exportable(&c, std::path::Path::new("t.ckpt")).is_err());
}
