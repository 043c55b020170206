//! `train`, `quantise`, `net-check` and `fit-scale`: the NNUE trainer's commands (documented in
//! `tools/README.md`) and the epoch loop; the pieces live in `train/`.

mod adamw;
mod checkpoint;
mod dataset;
mod hce_tune;
mod net;
mod quant;
mod rng;
#[cfg(test)]
mod tests;

use crate::flags::{Flags, output_apart};
use adamw::{AdamW, cosine_lr};
use checkpoint::{Checkpoint, write_atomically};
use dataset::{Sample, Split};
use net::Coins;
use rng::{Rng, mix};
use std::path::{Path, PathBuf};
use std::time::Instant;
use xq::nnue::format::{self, KingLayout};
use xq::nnue::network::{EVAL_LIMIT, Network};

const TRAIN_USAGE: &str = "usage: xq-tools train --data FILE|DIR... [--out DIR] [--epochs N] \
[--lambda L] [--lr LR] [--lr-end LR] [--batch N] [--seed S] [--threads N] \
[--resume CKPT | --init NET.nnue] [--no-mirror] [--king-buckets | --palace-buckets | --threats] \
[--save-every N] \
[--valid FILE|DIR...]
  trains the 1260 -> 256 x2 -> 8 x 1 net on record files (a directory means all its *.bin);
  validates on 2 % of them, or with --valid on the records of those files (other games: boards
  found there are dropped from training);
  with --king-buckets, the net whose first layer has six parts chosen by each side's own
  king (format version 3: rank, file d or e, a king on file f seen mirrored), with
  --palace-buckets nine, one per square of the palace, nothing mirrored (version 4); either is
  trained with a part shared by all that export adds in; with --threats, a plain net with a
  second block of 1260 inputs, one for each piece on a square the other side attacks (pins
  ignored), which the engine does not read yet: its validation loss is reported, no net file
  is written, and --init gives a plain net's weights the new rows at zero;
  defaults: --out nets --epochs 40 --lambda 0.4 --lr 1e-3 --lr-end 1e-5 --batch 16384
  --seed 1 --threads <cores>. Writes DIR/last.ckpt after every epoch, DIR/best.ckpt whenever
  the validation loss improves, DIR/best.nnue (quantised, calibrated on training positions) at
  the end, and DIR/epoch-N.{ckpt,nnue} every --save-every epochs. --init starts from the
  weights of a net file (its float equivalent) with a fresh optimiser, --resume from a checkpoint;
  a version-3 or 4 net or checkpoint goes on with its king buckets, a plain one gains them with
  --king-buckets or --palace-buckets (its first layer the shared part, each king's own part
  zero).";

const QUANTISE_USAGE: &str = "usage: xq-tools quantise --ckpt FILE --out FILE.nnue \
[--data FILE|DIR... [--seed S] [--valid FILE|DIR...]]
  exports a float checkpoint as a quantised net file; with --data, W1 and b1 are refitted on
  training positions of the split that train makes with the same data and seed (as train does
  for best.nnue), without it every value is rounded to the nearest step";

const NET_CHECK_USAGE: &str = "usage: xq-tools net-check --ckpt FILE --net FILE.nnue \
--data FILE|DIR... [--seed S] [--valid FILE|DIR...] [--count N]
  compares the float forward pass of CKPT with the integer forward pass of NET on up to N
  (default 10000) validation positions of the split that train makes with the same data and seed";

const TUNE_HCE_USAGE: &str = "usage: xq-tools tune-hce --data FILE|DIR... --out FILE.rs \
[--from current|seed] [--teacher NET.nnue] [--epochs N] [--batch N] [--lr LR] [--lambda L] \
[--seed S]
  tunes the handcrafted evaluation's weights on record files and writes them as Rust source
  (the engine's table is src/eval/hce_weights.rs); starts from the engine's current weights or
  from the hand-set seed weights. The target blends each game's result (weight lambda) with the
  record's search score, or with the evaluation of the teacher net when one is given. Defaults: --from current --epochs 10 --batch 4096 --lr 1
  --lambda 0.5 --seed 1";

const NET_LOSS_USAGE: &str = "usage: xq-tools net-loss --net FILE.nnue --data FILE|DIR... \
[--exclude FILE|DIR...] [--lambda L] [--threads N]
  the training loss of a net file (its float equivalent) on every board of the record files,
  each board once, less the boards found in the --exclude files (the nets' training data):
  how nets compare on positions none of them was trained on; --lambda as train's (default 0.4)";

const FIT_SCALE_USAGE: &str = "usage: xq-tools fit-scale --data FILE|DIR...
  prints the SCALE minimising the sum of (sigmoid(score / SCALE) - result)^2 over the data";

/// Loss bounds of the quantisation check (the gate of `nnue/README.md`), in centipawns: mean
/// |float − integer|. Set at 5 (mean) and 25 (largest) for H = 128; the rounding errors of the H
/// neurons add up independently, so the error grows with √H, and at H = 256 the bounds are
/// 5·√2 and 25·√2, rounded down.
pub const QUANT_MEAN_BOUND: f64 = 7.0;
/// Largest allowed single difference.
pub const QUANT_MAX_BOUND: f64 = 35.0;

/// Settings of a training run.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Epochs in this run.
    pub epochs: u32,
    /// Weight of the game result in the target.
    pub lambda: f32,
    /// Learning rate at the first step.
    pub lr: f32,
    /// Learning rate at the last step.
    pub lr_end: f32,
    /// Positions per optimiser step.
    pub batch: usize,
    /// Seed of initialisation, shuffles and mirror coins.
    pub seed: u64,
    /// Gradient threads.
    pub threads: usize,
    /// Mirror each training position left–right with probability ½.
    pub mirror: bool,
    /// The king layout to train when starting afresh or from a plain net: plain, or
    /// king-bucketed (format version 3 with `--king-buckets`, 4 with `--palace-buckets`).
    pub kings: KingLayout,
    /// Train a plain net with threat inputs (a trainer's layout only: no net file is written).
    pub threats: bool,
}

impl Settings {
    /// The layout trained when starting afresh: plain, king-bucketed, or plain with threat inputs.
    pub fn layout(&self) -> net::Layout {
        if self.threats {
            net::Layout::THREATS
        } else {
            net::Layout::new(self.kings)
        }
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            epochs: 40,
            lambda: 0.4,
            lr: 1e-3,
            lr_end: 1e-5,
            batch: 16_384,
            seed: 1,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            mirror: true,
            kings: KingLayout::Plain,
            threats: false,
        }
    }
}

/// One epoch's numbers.
#[derive(Clone, Debug)]
pub struct EpochReport {
    /// Epoch number, counting resumed epochs.
    pub epoch: u32,
    /// Mean training loss over the epoch (with the weights of the moment).
    pub train_loss: f64,
    /// Mean validation loss after the epoch.
    pub valid_loss: f64,
    /// Training positions per second (gradient and optimiser, not validation).
    pub speed: f64,
    /// Seconds since the run began.
    pub elapsed: f64,
    /// Learning rate at the end of the epoch.
    pub lr: f32,
    /// Whether this is the best validation loss so far.
    pub best: bool,
}

/// What a run ends with.
pub struct Outcome {
    /// Checkpoint of the best validation epoch.
    pub best: Checkpoint,
    /// Validation loss before the first epoch.
    pub initial_valid_loss: f64,
    /// One report per epoch.
    pub history: Vec<EpochReport>,
}

/// Trains on `data.train`, validating on `data.valid` after each epoch. Starts from `start` (a
/// resumed checkpoint: weights and optimiser moments; the learning-rate schedule runs afresh over
/// `s.epochs`) or from a seeded initialisation. `on_epoch` sees each report and the current and
/// best checkpoints (to print and save them).
pub fn train(
    s: &Settings,
    data: &mut Split,
    start: Option<Checkpoint>,
    mut on_epoch: impl FnMut(&EpochReport, &Checkpoint, &Checkpoint) -> Result<(), String>,
) -> Result<Outcome, String> {
    if data.train.is_empty() || data.valid.is_empty() {
        return Err("no training or validation positions".to_string());
    }
    let threads = s.threads.max(1);
    let fresh = s.layout();
    let mut current = start.unwrap_or_else(|| Checkpoint {
        params: net::init_with(s.seed, fresh),
        opt: AdamW::new(fresh.n_params()),
        epochs: 0,
        lambda: s.lambda,
        valid_loss: f32::NAN,
    });
    current.lambda = s.lambda;
    let n_valid = data.valid.len() as f64;
    let initial_valid_loss =
        net::loss_sum(&current.params, &data.valid, s.lambda, threads) / n_valid;
    current.valid_loss = initial_valid_loss as f32;
    let mut best = current.clone();
    let mut grads: Vec<Vec<f32>> = vec![Vec::new(); threads];
    let batch = s.batch.max(1);
    let steps_per_epoch = data.train.len().div_ceil(batch) as u64;
    let total_steps = steps_per_epoch * u64::from(s.epochs);
    let mut step = 0u64;
    let mut rng = Rng::new(s.seed ^ 0x00e9_0c45_u64 ^ (u64::from(current.epochs) << 40));
    let run_start = Instant::now();
    let mut history = Vec::new();
    for _ in 0..s.epochs {
        let epoch = current.epochs + 1;
        let epoch_start = Instant::now();
        rng.shuffle(&mut data.train);
        let key = s
            .mirror
            .then(|| mix(s.seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ u64::from(epoch)));
        let mut loss = 0.0f64;
        let mut lr = s.lr;
        for (b, chunk) in data.train.chunks(batch).enumerate() {
            lr = cosine_lr(step, total_steps, s.lr, s.lr_end);
            let coins = Coins {
                key,
                first: (b * batch) as u64,
            };
            loss += net::batch_gradient(&current.params, chunk, coins, s.lambda, &mut grads);
            current.opt.step(&mut current.params, &grads[0], lr);
            step += 1;
        }
        let train_time = epoch_start.elapsed().as_secs_f64();
        let train_loss = loss / data.train.len() as f64;
        if !train_loss.is_finite() {
            return Err(format!(
                "epoch {epoch}: training loss is {train_loss}; try a lower --lr"
            ));
        }
        let valid_loss = net::loss_sum(&current.params, &data.valid, s.lambda, threads) / n_valid;
        current.epochs = epoch;
        current.valid_loss = valid_loss as f32;
        let is_best = valid_loss < f64::from(best.valid_loss) || best.valid_loss.is_nan();
        if is_best {
            best = current.clone();
        }
        let report = EpochReport {
            epoch,
            train_loss,
            valid_loss,
            speed: data.train.len() as f64 / train_time.max(1e-9),
            elapsed: run_start.elapsed().as_secs_f64(),
            lr,
            best: is_best,
        };
        on_epoch(&report, &current, &best)?;
        history.push(report);
    }
    Ok(Outcome {
        best,
        initial_valid_loss,
        history,
    })
}

/// The split of `data` that train makes with `seed`: by position, or against the files of
/// `valid` when there are any.
fn load_split(data: &[PathBuf], valid: &[PathBuf], seed: u64) -> Result<Split, String> {
    if valid.is_empty() {
        dataset::load(data, seed)
    } else {
        dataset::load_apart(data, valid, seed)
    }
}

/// `xq-tools net-loss`.
pub fn net_loss_main(args: &[String]) -> Result<(), String> {
    let (mut net_path, mut data, mut lambda) = (None, Vec::new(), Settings::default().lambda);
    let (mut threads, mut exclude) = (Settings::default().threads, Vec::new());
    let mut flags = Flags::new(args, NET_LOSS_USAGE);
    while let Some(flag) = flags.next_flag()? {
        match flag {
            "--net" => net_path = Some(PathBuf::from(flags.value(flag)?)),
            "--data" => data.extend(paths(flags.values(flag)?)),
            "--exclude" => exclude.extend(paths(flags.values(flag)?)),
            "--lambda" => lambda = flags.parsed(flag)?,
            "--threads" => threads = flags.parsed(flag)?,
            other => return Err(format!("unknown option {other}\n{NET_LOSS_USAGE}")),
        }
    }
    let Some(net_path) = net_path else {
        return Err(NET_LOSS_USAGE.to_string());
    };
    if data.is_empty() {
        return Err(format!("--data is required\n{NET_LOSS_USAGE}"));
    }
    if !(0.0..=1.0).contains(&lambda) {
        return Err(format!("--lambda must be within 0..1, not {lambda}"));
    }
    if threads == 0 {
        return Err(format!("--threads must be positive\n{NET_LOSS_USAGE}"));
    }
    let (_, w) = read_net(&net_path)?;
    let params = quant::dequantise(&w);
    let mut stats = dataset::LoadStats::default();
    let mut samples = dataset::read_records(&dataset::expand_paths(&data)?, &mut stats)?;
    stats.duplicates = dataset::shuffle_dedup(&mut samples, &mut Rng::new(1));
    let mut excluded = 0;
    if !exclude.is_empty() {
        let files = dataset::expand_paths(&exclude)?;
        let known = dataset::read_records(&files, &mut dataset::LoadStats::default())?;
        excluded = dataset::drop_boards_of(&mut samples, &known);
    }
    if samples.is_empty() {
        return Err("no usable positions in the data".to_string());
    }
    let loss = net::loss_sum(&params, &samples, lambda, threads) / samples.len() as f64;
    println!(
        "{}: loss {loss:.6} on {} boards ({} records, {} undecodable, {} duplicate boards and {} boards of the excluded files dropped; lambda {lambda})",
        net_path.display(),
        samples.len(),
        stats.records,
        stats.bad,
        stats.duplicates,
        excluded
    );
    Ok(())
}

fn paths(values: Vec<&str>) -> Vec<PathBuf> {
    values.into_iter().map(PathBuf::from).collect()
}

fn hms(seconds: f64) -> String {
    let s = seconds.max(0.0) as u64;
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// An error naming `path` if its checkpoint is of a layout no net file holds (threat inputs).
fn exportable(c: &Checkpoint, path: &Path) -> Result<(), String> {
    if net::Layout::of_len(c.params.len()).threats {
        return Err(format!(
            "{}: a net with threat inputs has no net file format yet",
            path.display()
        ));
    }
    Ok(())
}

/// Writes the quantised net of `params`, calibrated on `calibration` (nearest rounding if empty);
/// a net with threat inputs, which has no file format yet, is not written.
fn write_net(path: &Path, params: &[f32], calibration: &[Sample]) -> Result<(), String> {
    if net::Layout::of_len(params.len()).threats {
        return Ok(());
    }
    let w = quant::quantise_calibrated(params, calibration);
    write_atomically(path, &loadable(&w, path)?)
}

/// The file bytes of `w`, or an error naming `path` if the engine would refuse them.
fn loadable(w: &format::NetWeights, path: &Path) -> Result<Vec<u8>, String> {
    let bytes = format::encode(w);
    format::decode(&bytes).map_err(|e| format!("{}: not written: {e}", path.display()))?;
    Ok(bytes)
}

/// How the net `w` relates to the nearest rounding of `params`.
fn describe_export(params: &[f32], w: &format::NetWeights) -> String {
    let nearest = quant::quantise(params);
    if *w == nearest {
        return "every value is the nearest rounding of the checkpoint".to_string();
    }
    let differ = |a: &[i16], b: &[i16]| a.iter().zip(b).filter(|(x, y)| x != y).count();
    format!(
        "values differing from the nearest rounding of the checkpoint: W0 {}, b0 {}, W1 {} of {}, b1 {:?} vs {:?}",
        differ(&w.w0, &nearest.w0),
        differ(&w.b0, &nearest.b0),
        differ(&w.w1, &nearest.w1),
        w.w1.len(),
        w.b1,
        nearest.b1
    )
}

/// The bytes of the net file at `path` and its weights, checked to be of the shape this build
/// trains.
fn read_net(path: &Path) -> Result<(Vec<u8>, format::NetWeights), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let w = format::decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    if !w.has_architecture_sizes() {
        return Err(format!("{}: weights of the wrong shape", path.display()));
    }
    Ok((bytes, w))
}

/// A checkpoint holding the float equivalent of the net file at `path`, with a fresh optimiser
/// and no epochs done; a plain net is spread over the king-bucketed layout `kings` when one is
/// asked for (its first layer becoming the shared rows).
fn start_from_net(
    path: &Path,
    lambda: f32,
    kings: KingLayout,
    threats: bool,
) -> Result<Checkpoint, String> {
    let (_, w) = read_net(path)?;
    let mut params = quant::dequantise(&w);
    if threats && !w.kings.is_bucketed() {
        params = net::threats_from_plain(&params);
    }
    if kings.is_bucketed() && !w.kings.is_bucketed() {
        params = net::bucketed_from_plain(&params, net::Layout::new(kings));
    }
    let layout = net::Layout::of_len(params.len());
    eprintln!(
        "starting from the weights of {} ({} king layout)",
        path.display(),
        layout.kings.name()
    );
    Ok(Checkpoint {
        opt: AdamW::new(params.len()),
        params,
        epochs: 0,
        lambda,
        valid_loss: f32::NAN,
    })
}

/// `xq-tools train`.
pub fn main(args: &[String]) -> Result<(), String> {
    let mut s = Settings::default();
    let mut data = Vec::new();
    let mut out = PathBuf::from("nets");
    let mut resume = None;
    let mut init = None;
    let mut save_every = None;
    let mut valid = Vec::new();
    let mut flags = Flags::new(args, TRAIN_USAGE);
    while let Some(flag) = flags.next_flag()? {
        match flag {
            "--data" => data.extend(paths(flags.values(flag)?)),
            "--valid" => valid.extend(paths(flags.values(flag)?)),
            "--out" => out = PathBuf::from(flags.value(flag)?),
            "--epochs" => s.epochs = flags.parsed(flag)?,
            "--lambda" => s.lambda = flags.parsed(flag)?,
            "--lr" => s.lr = flags.parsed(flag)?,
            "--lr-end" => s.lr_end = flags.parsed(flag)?,
            "--batch" => s.batch = flags.parsed(flag)?,
            "--seed" => s.seed = flags.parsed(flag)?,
            "--threads" => s.threads = flags.parsed(flag)?,
            "--resume" => resume = Some(PathBuf::from(flags.value(flag)?)),
            "--init" => init = Some(PathBuf::from(flags.value(flag)?)),
            "--no-mirror" => s.mirror = false,
            "--king-buckets" => s.kings = KingLayout::Mirrored,
            "--palace-buckets" => s.kings = KingLayout::Palace,
            "--threats" => s.threats = true,
            "--save-every" => save_every = Some(flags.parsed::<u32>(flag)?),
            other => return Err(format!("unknown option {other}\n{TRAIN_USAGE}")),
        }
    }
    if data.is_empty() {
        return Err(format!("--data is required\n{TRAIN_USAGE}"));
    }
    if !(0.0..=1.0).contains(&s.lambda) {
        return Err(format!("--lambda must be within 0..1, not {}", s.lambda));
    }
    if s.epochs == 0 || s.batch == 0 || s.threads == 0 || save_every == Some(0) {
        return Err(format!(
            "--epochs, --batch, --threads and --save-every must be positive\n{TRAIN_USAGE}"
        ));
    }
    if !(s.lr > 0.0 && s.lr_end > 0.0 && s.lr.is_finite() && s.lr_end.is_finite()) {
        return Err("--lr and --lr-end must be positive".to_string());
    }
    if s.threats && s.kings.is_bucketed() {
        return Err("--threats is for a plain net".to_string());
    }
    let start = match (resume.as_deref(), init.as_deref()) {
        (Some(_), Some(_)) => return Err("--resume and --init exclude each other".to_string()),
        (Some(path), None) => Some(Checkpoint::read(path)?),
        (None, Some(path)) => Some(start_from_net(path, s.lambda, s.kings, s.threats)?),
        (None, None) => None,
    };
    let layout = start
        .as_ref()
        .map_or(s.layout(), |c| net::Layout::of_len(c.params.len()));
    if s.kings.is_bucketed() && layout.kings != s.kings {
        return Err(format!(
            "--{}-buckets: the net or checkpoint started from has the {} king layout",
            if s.kings == KingLayout::Palace {
                "palace"
            } else {
                "king"
            },
            layout.kings.name()
        ));
    }
    if s.threats && !layout.threats {
        return Err(
            "--threats: the net or checkpoint started from has no threat inputs".to_string(),
        );
    }
    if let Some(c) = start.as_ref().filter(|_| resume.is_some()) {
        eprintln!(
            "resuming after epoch {} ({} optimiser steps, validation loss {:.6} then)",
            c.epochs, c.opt.t, c.valid_loss
        );
    }
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut split = load_split(&data, &valid, s.seed)?;
    let calibration: Vec<Sample> = quant::calibration_set(&split.train);
    eprintln!(
        "training: {}, {} epochs, batch {}, lambda {}, lr {:e} -> {:e}, {} threads, mirror {}, seed {}",
        match layout.kings {
            KingLayout::Plain if layout.threats => "plain, threat inputs",
            KingLayout::Plain => "plain",
            KingLayout::Mirrored => "six king buckets, mirrored",
            KingLayout::Palace => "nine king buckets, one per palace square",
        },
        s.epochs,
        s.batch,
        s.lambda,
        s.lr,
        s.lr_end,
        s.threads,
        if s.mirror { "on" } else { "off" },
        s.seed
    );
    let outcome = train(&s, &mut split, start, |r, current, best| {
        println!(
            "epoch {:3}  train {:.6}  valid {:.6}  {:7.1} kpos/s  lr {:.2e}  {}{}",
            r.epoch,
            r.train_loss,
            r.valid_loss,
            r.speed / 1e3,
            r.lr,
            hms(r.elapsed),
            if r.best { "  best" } else { "" }
        );
        current.write(&out.join("last.ckpt"))?;
        if r.best {
            best.write(&out.join("best.ckpt"))?;
        }
        if save_every.is_some_and(|k| r.epoch % k == 0) {
            current.write(&out.join(format!("epoch-{}.ckpt", r.epoch)))?;
            let path = out.join(format!("epoch-{}.nnue", r.epoch));
            write_net(&path, &current.params, &calibration)?;
        }
        Ok(())
    })?;
    outcome.best.write(&out.join("best.ckpt"))?;
    write_net(&out.join("best.nnue"), &outcome.best.params, &calibration)?;
    let written = out.join(if layout.threats {
        "best.ckpt"
    } else {
        "best.nnue"
    });
    println!(
        "{} epochs; validation loss {:.6} before, best {:.6} at epoch {}; wrote {}",
        outcome.history.len(),
        outcome.initial_valid_loss,
        outcome.best.valid_loss,
        outcome.best.epochs,
        written.display()
    );
    Ok(())
}

/// `xq-tools quantise`.
pub fn quantise_main(args: &[String]) -> Result<(), String> {
    let (mut ckpt, mut out, mut data, mut seed) = (None, None, Vec::new(), 1u64);
    let mut valid = Vec::new();
    let mut flags = Flags::new(args, QUANTISE_USAGE);
    while let Some(flag) = flags.next_flag()? {
        match flag {
            "--ckpt" => ckpt = Some(PathBuf::from(flags.value(flag)?)),
            "--out" => out = Some(PathBuf::from(flags.value(flag)?)),
            "--data" => data.extend(paths(flags.values(flag)?)),
            "--valid" => valid.extend(paths(flags.values(flag)?)),
            "--seed" => seed = flags.parsed(flag)?,
            other => return Err(format!("unknown option {other}\n{QUANTISE_USAGE}")),
        }
    }
    let (Some(ckpt), Some(out)) = (ckpt, out) else {
        return Err(QUANTISE_USAGE.to_string());
    };
    if data.is_empty() && !valid.is_empty() {
        return Err(format!("--valid goes with --data\n{QUANTISE_USAGE}"));
    }
    output_apart(&out, &[std::slice::from_ref(&ckpt), &data, &valid].concat())?;
    let c = Checkpoint::read(&ckpt)?;
    exportable(&c, &ckpt)?;
    let w = if data.is_empty() {
        quant::quantise(&c.params)
    } else {
        let split = load_split(&data, &valid, seed)?;
        quant::quantise_calibrated(&c.params, &split.train)
    };
    println!("{}", describe_export(&c.params, &w));
    let bytes = loadable(&w, &out)?;
    write_atomically(&out, &bytes)?;
    let max_abs = |v: &[i16]| v.iter().map(|x| x.unsigned_abs()).max().unwrap_or(0);
    println!(
        "{}: epoch {}, validation loss {:.6}; max |W0| {}, |b0| {}, |W1| {}, b1 {:?}; {} bytes, checksum {:016x}",
        out.display(),
        c.epochs,
        c.valid_loss,
        max_abs(&w.w0),
        max_abs(&w.b0),
        max_abs(&w.w1),
        w.b1,
        bytes.len(),
        format::fnv1a_64(&bytes[format::HEADER_LEN..])
    );
    Ok(())
}

/// Differences between the float and the quantised evaluation, in centipawns.
#[derive(Clone, Copy, Debug)]
pub struct Diff {
    /// Positions compared.
    pub count: usize,
    /// Mean |float − integer|.
    pub mean: f64,
    /// Largest |float − integer|.
    pub max: f64,
    /// The float evaluation where the largest difference occurred, in centipawns.
    pub max_at: f64,
}

/// Compares the float forward pass of `params` with the integer pass of `w` on `samples`.
pub fn compare(params: &[f32], w: &format::NetWeights, samples: &[Sample]) -> Diff {
    let (mut sum, mut max, mut max_at) = (0.0f64, 0.0f64, 0.0f64);
    for s in samples {
        let float = f64::from(net::eval_cp(params, s));
        let d = (float - quant::eval_cp(w, s) as f64).abs();
        sum += d;
        if d > max {
            (max, max_at) = (d, float);
        }
    }
    Diff {
        count: samples.len(),
        mean: sum / samples.len().max(1) as f64,
        max,
        max_at,
    }
}

/// How the engine's own evaluation (`xq::nnue::network`) agrees with [`quant::eval_cp`].
#[derive(Clone, Debug, Default)]
pub struct EngineCheck {
    /// Positions compared.
    pub compared: usize,
    /// Positions the engine's board could not be built for.
    pub skipped: usize,
    /// `(position number, ours, engine's)` for the first disagreements.
    pub mismatches: Vec<(usize, i64, i32)>,
    /// Number of disagreements.
    pub mismatch_count: usize,
}

/// Evaluates `samples` with the engine's network built from `w` (its file bytes, through its own
/// loader) and compares with our integer forward pass (clamped like the engine's to
/// ±`EVAL_LIMIT`).
pub fn check_engine(
    bytes: &[u8],
    w: &format::NetWeights,
    samples: &[Sample],
) -> Result<EngineCheck, String> {
    let engine = Network::from_bytes(bytes).map_err(|e| format!("engine loader: {e}"))?;
    let limit = i64::from(EVAL_LIMIT);
    let mut check = EngineCheck::default();
    for (i, s) in samples.iter().enumerate() {
        let Some(pos) = s.record().position() else {
            check.skipped += 1;
            continue;
        };
        let ours = quant::eval_cp(w, s).clamp(-limit, limit);
        let theirs = engine.evaluate_position(&pos);
        check.compared += 1;
        if ours != i64::from(theirs) {
            check.mismatch_count += 1;
            if check.mismatches.len() < 10 {
                check.mismatches.push((i, ours, theirs));
            }
        }
    }
    Ok(check)
}

/// `xq-tools net-check`.
pub fn net_check_main(args: &[String]) -> Result<(), String> {
    let (mut ckpt, mut net_path, mut data, mut seed, mut count) =
        (None, None, Vec::new(), 1u64, 10_000usize);
    let mut valid = Vec::new();
    let mut flags = Flags::new(args, NET_CHECK_USAGE);
    while let Some(flag) = flags.next_flag()? {
        match flag {
            "--ckpt" => ckpt = Some(PathBuf::from(flags.value(flag)?)),
            "--net" => net_path = Some(PathBuf::from(flags.value(flag)?)),
            "--data" => data.extend(paths(flags.values(flag)?)),
            "--valid" => valid.extend(paths(flags.values(flag)?)),
            "--seed" => seed = flags.parsed(flag)?,
            "--count" => count = flags.parsed(flag)?,
            other => return Err(format!("unknown option {other}\n{NET_CHECK_USAGE}")),
        }
    }
    let (Some(ckpt), Some(net_path)) = (ckpt, net_path) else {
        return Err(NET_CHECK_USAGE.to_string());
    };
    if data.is_empty() {
        return Err(format!("--data is required\n{NET_CHECK_USAGE}"));
    }
    let c = Checkpoint::read(&ckpt)?;
    exportable(&c, &ckpt)?;
    let (bytes, w) = read_net(&net_path)?;
    println!("{}: {}", net_path.display(), describe_export(&c.params, &w));
    let split = load_split(&data, &valid, seed)?;
    let samples = &split.valid[..split.valid.len().min(count)];
    let nearest = compare(&c.params, &quant::quantise(&c.params), samples);
    println!(
        "float vs nearest rounding on {} validation positions: mean |dcp| {:.3}, max |dcp| {:.3} (at {:.0} cp)",
        nearest.count, nearest.mean, nearest.max, nearest.max_at
    );
    let d = compare(&c.params, &w, samples);
    println!(
        "float vs {} on {} validation positions: mean |dcp| {:.3}, max |dcp| {:.3} (at {:.0} cp; bounds {} / {})",
        net_path.display(),
        d.count,
        d.mean,
        d.max,
        d.max_at,
        QUANT_MEAN_BOUND,
        QUANT_MAX_BOUND
    );
    let e = check_engine(&bytes, &w, samples)?;
    println!(
        "engine evaluation (xq::nnue::network::Network::evaluate_position) vs ours: {} positions, {} equal, {} different, {} skipped (no legal board)",
        e.compared,
        e.compared - e.mismatch_count,
        e.mismatch_count,
        e.skipped
    );
    for (i, ours, theirs) in &e.mismatches {
        println!("  validation position {i}: ours {ours} cp, engine {theirs} cp");
    }
    if e.mismatch_count > 0 {
        return Err(
            "net-check FAILED: the engine's evaluation differs from the integer forward pass"
                .to_string(),
        );
    }
    if d.mean >= QUANT_MEAN_BOUND || d.max >= QUANT_MAX_BOUND {
        return Err("net-check FAILED: quantisation error above the bounds".to_string());
    }
    println!("net-check passed");
    Ok(())
}

/// The SCALE minimising Σ (σ(score / S) − result)² over `pairs` of (score, result 0/½/1), by
/// golden-section search on [`lo`, `hi`]; returns (S, mean squared error).
pub fn fit_scale(pairs: &[(f32, f32)], lo: f64, hi: f64) -> (f64, f64) {
    let err = |scale: f64| -> f64 {
        pairs
            .iter()
            .map(|&(s, r)| {
                let p = 1.0 / (1.0 + (-f64::from(s) / scale).exp());
                (p - f64::from(r)).powi(2)
            })
            .sum::<f64>()
            / pairs.len().max(1) as f64
    };
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (lo, hi);
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (err(c), err(d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = err(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = err(d);
        }
    }
    let s = (a + b) / 2.0;
    (s, err(s))
}

/// `xq-tools fit-scale`.
pub fn fit_scale_main(args: &[String]) -> Result<(), String> {
    let mut data = Vec::new();
    let mut flags = Flags::new(args, FIT_SCALE_USAGE);
    while let Some(flag) = flags.next_flag()? {
        match flag {
            "--data" => data.extend(paths(flags.values(flag)?)),
            other => return Err(format!("unknown option {other}\n{FIT_SCALE_USAGE}")),
        }
    }
    if data.is_empty() {
        return Err(FIT_SCALE_USAGE.to_string());
    }
    let split = dataset::load(&data, 1)?;
    let pairs: Vec<(f32, f32)> = split
        .train
        .iter()
        .chain(&split.valid)
        .map(|s| (f32::from(s.score), f32::from(s.result) * 0.5))
        .collect();
    let (scale, mse) = fit_scale(&pairs, 20.0, 5000.0);
    let (_, mse_400) = fit_scale(&pairs, 400.0, 400.0);
    println!(
        "fitted SCALE {scale:.1} (mean squared error {mse:.6}; at SCALE {} it is {mse_400:.6}) over {} positions",
        format::SCALE,
        pairs.len()
    );
    Ok(())
}

/// `xq-tools tune-hce`.
pub fn tune_hce_main(args: &[String]) -> Result<(), String> {
    let (mut data, mut out, mut from_seed, mut teacher) = (Vec::new(), None, false, None);
    let (mut lambda, mut seed) = (0.5f32, 1u64);
    let mut s = hce_tune::Settings {
        epochs: 10,
        batch: 4096,
        lr: 1.0,
        seed: 1,
    };
    let mut flags = Flags::new(args, TUNE_HCE_USAGE);
    while let Some(flag) = flags.next_flag()? {
        match flag {
            "--data" => data.extend(paths(flags.values(flag)?)),
            "--out" => out = Some(PathBuf::from(flags.value(flag)?)),
            "--from" => {
                from_seed = match flags.value(flag)? {
                    "seed" => true,
                    "current" => false,
                    v => return Err(format!("--from {v:?}: current or seed\n{TUNE_HCE_USAGE}")),
                }
            }
            "--teacher" => {
                let path = flags.value(flag)?;
                let net = Network::load(path).map_err(|e| format!("{path}: {e}"))?;
                teacher = Some((path.to_string(), net));
            }
            "--epochs" => s.epochs = flags.parsed(flag)?,
            "--batch" => s.batch = flags.parsed(flag)?,
            "--lr" => s.lr = flags.parsed(flag)?,
            "--lambda" => lambda = flags.parsed(flag)?,
            "--seed" => seed = flags.parsed(flag)?,
            other => return Err(format!("unknown option {other}\n{TUNE_HCE_USAGE}")),
        }
    }
    let Some(out) = out else {
        return Err(TUNE_HCE_USAGE.to_string());
    };
    if data.is_empty() {
        return Err(TUNE_HCE_USAGE.to_string());
    }
    let teacher_file = teacher.iter().map(|(path, _)| PathBuf::from(path));
    output_apart(
        &out,
        &data.iter().cloned().chain(teacher_file).collect::<Vec<_>>(),
    )?;
    if !(0.0..=1.0).contains(&lambda) || s.batch == 0 {
        return Err(format!(
            "--lambda must be within 0..1 and --batch above 0\n{TUNE_HCE_USAGE}"
        ));
    }
    s.seed = seed;
    let started = Instant::now();
    let split = dataset::load(&data, seed)?;
    let net = teacher.as_ref().map(|(_, net)| net);
    let (train, skipped_t) = hce_tune::Traces::build(&split.train, lambda, net);
    let (valid, skipped_v) = hce_tune::Traces::build(&split.valid, lambda, net);
    println!(
        "traced {} training and {} validation positions ({} undecodable) in {:.1} s",
        train.positions.len(),
        valid.positions.len(),
        skipped_t + skipped_v,
        started.elapsed().as_secs_f64()
    );
    let start_weights = if from_seed {
        xq::eval::hce::seed_weights()
    } else {
        xq::eval::hce::WEIGHTS.to_vec()
    };
    let mut params = hce_tune::to_params(&start_weights);
    let start_loss = valid.loss(&params);
    println!(
        "start ({}): valid {start_loss:.6}",
        if from_seed { "seed" } else { "current" }
    );
    hce_tune::tune(&mut params, &train, &valid, &s);
    let weights = hce_tune::to_weights(&params);
    let rounded = valid.loss(&hce_tune::to_params(&weights));
    println!("rounded: valid {rounded:.6} (start {start_loss:.6})");
    let provenance = format!(
        "Tuned from the {} weights on {} positions ({}), teacher {}, {} epochs, batch {}, lr {},\n\
         lambda {}, seed {}: validation loss {start_loss:.6} -> {rounded:.6}.",
        if from_seed { "seed" } else { "previous" },
        train.positions.len(),
        data.iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(" "),
        teacher
            .as_ref()
            .map_or("none (search scores)", |(path, _)| path.as_str()),
        s.epochs,
        s.batch,
        s.lr,
        lambda,
        seed
    );
    write_atomically(
        &out,
        hce_tune::weights_source(&weights, &provenance).as_bytes(),
    )?;
    println!(
        "wrote {} in {}",
        out.display(),
        hms(started.elapsed().as_secs_f64())
    );
    Ok(())
}
