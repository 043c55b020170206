//! Training positions in memory: loading record files, deduplication, shuffling, the train /
//! validation split, and the feature tables (other perspective, left–right mirror).

use super::rng::{Rng, mix};
use crate::data::{self, RECORD_BYTES};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use xq::attacks::{
    advisor_attacks, cannon_attacks, elephant_attacks, horse_attacks, king_attacks, pawn_attacks,
    rook_attacks,
};
use xq::bitboard::Bitboard;
use xq::nnue::features::{Orientation, mirrored};
use xq::nnue::format::{INPUTS, KingLayout};
use xq::square::{Color, Square};

/// Most active features of one perspective (pieces on the board).
pub const MAX_FEATURES: usize = 32;

/// Most first-layer rows one perspective sums in training: a king-bucketed net trains each
/// feature's row in the king's part and its row in the shared part.
pub const MAX_ACTIVE: usize = 2 * MAX_FEATURES;

/// Share of the positions held out for validation, in per cent.
pub const VALIDATION_PERCENT: usize = 2;

/// One position as the trainer keeps it: the side to move's active features, its score and the
/// game result. A piece with record code `c` on oriented square `sq` is the side to move's
/// feature `c × 90 + sq` (= `rel × 630 + kind × 90 + sq`); the other perspective's features
/// follow from [`OTHER`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Active features of the side to move; the first `len` are valid.
    pub features: [u16; MAX_FEATURES],
    /// Number of pieces.
    pub len: u8,
    /// 0 loss, 1 draw, 2 win, for the side to move.
    pub result: u8,
    /// Search score in centipawns, side to move.
    pub score: i16,
    /// Bit `i` set when the piece of `features[i]` is attacked by a piece of the other side.
    pub threats: u32,
}

impl Sample {
    /// The sample of a decoded record.
    pub fn from_record(r: &data::Record) -> Sample {
        let mut features = [0u16; MAX_FEATURES];
        for (slot, &(code, sq)) in features.iter_mut().zip(&r.pieces) {
            *slot = u16::from(code) * 90 + u16::from(sq);
        }
        let len = r.pieces.len().min(MAX_FEATURES);
        Sample {
            features,
            len: len as u8,
            result: r.result,
            score: r.score,
            threats: attacked_mask(&features[..len]),
        }
    }

    /// The record this sample came from (flags lost).
    pub fn record(&self) -> data::Record {
        data::Record {
            pieces: self
                .active()
                .iter()
                .map(|&f| ((f / 90) as u8, (f % 90) as u8))
                .collect(),
            score: self.score,
            result: self.result,
            flags: 0,
        }
    }

    /// The active features of the side to move.
    pub fn active(&self) -> &[u16] {
        &self.features[..usize::from(self.len)]
    }

    /// Writes both perspectives' features (side to move, other side), mirrored left–right when
    /// `mirror` is set; returns how many each holds. These are the first-layer rows of a plain
    /// net.
    #[inline]
    pub fn plain_rows(&self, mirror: bool, stm: &mut [u16], other: &mut [u16]) -> usize {
        let n = usize::from(self.len);
        for i in 0..n {
            let f = self.features[i];
            let f = if mirror { MIRROR[usize::from(f)] } else { f };
            stm[i] = f;
            other[i] = OTHER[usize::from(f)];
        }
        n
    }

    /// Appends the threat rows of both perspectives after the `n` rows already in `stm` and
    /// `other`: for each attacked piece, its feature's row in the second block of [`INPUTS`]
    /// rows. Returns the rows each then holds.
    #[inline]
    pub fn threat_rows(&self, mirror: bool, stm: &mut [u16], other: &mut [u16], n: usize) -> usize {
        let mut k = n;
        let mut mask = self.threats;
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let f = self.features[i];
            let f = if mirror { MIRROR[usize::from(f)] } else { f };
            stm[k] = INPUTS as u16 + f;
            other[k] = INPUTS as u16 + OTHER[usize::from(f)];
            k += 1;
        }
        k
    }

    /// The first-layer rows of both perspectives in a net of layout `kings` as the engine reads
    /// it (each feature in the part its own king chooses, with the mirrored layout mirrored
    /// when that king stands on file f); returns how many each holds.
    #[inline]
    pub fn bucketed_rows(
        &self,
        kings: KingLayout,
        mirror: bool,
        stm: &mut [u16],
        other: &mut [u16],
    ) -> usize {
        let n = self.plain_rows(mirror, stm, other);
        for list in [&mut stm[..n], &mut other[..n]] {
            let o = orientation(kings, list);
            for f in list.iter_mut() {
                *f = o.row(usize::from(*f)) as u16;
            }
        }
        n
    }

    /// The first-layer rows of both perspectives in a net of the king-bucketed layout `kings`
    /// in training: each feature's row in its king's part, then its row in the shared part
    /// (from the layout's [`KingLayout::rows`] on); returns how many each holds (twice the
    /// pieces).
    #[inline]
    pub fn training_rows(
        &self,
        kings: KingLayout,
        mirror: bool,
        stm: &mut [u16],
        other: &mut [u16],
    ) -> usize {
        let n = self.bucketed_rows(kings, mirror, stm, other);
        let shared = kings.rows() as u16;
        for list in [&mut stm[..2 * n], &mut other[..2 * n]] {
            let (own, rest) = list.split_at_mut(n);
            for (s, &row) in rest.iter_mut().zip(own.iter()) {
                *s = shared + row % INPUTS as u16;
            }
        }
        2 * n
    }

    /// A key identifying the board (not the score or result): a 64-bit hash of the sorted
    /// feature list. Collisions are negligible at the data sizes used (≈ n² / 2⁶⁵).
    pub fn board_key(&self) -> u64 {
        let mut sorted = self.features;
        let sorted = &mut sorted[..self.active().len()];
        sorted.sort_unstable();
        let mut h = mix(u64::from(self.len) ^ 0x51_7cc1_b727_220a);
        for &f in sorted.iter() {
            h = mix(h ^ u64::from(f));
        }
        h
    }
}

/// Which of the oriented pieces `features` (side to move's codes 0–6 on ranks 0–4 as Red, the
/// other side's 7–13 as Black) stand on a square the other side attacks: bit `i` for
/// `features[i]`. Pins and the kings' facing are ignored.
pub fn attacked_mask(features: &[u16]) -> u32 {
    let square = |f: u16| Square::new((f % 90) as u8).expect("a square below 90");
    let occ: Bitboard = features.iter().map(|&f| square(f)).collect();
    let mut attacks = [Bitboard::EMPTY; 2];
    for &f in features {
        let (code, sq) = (f / 90, square(f));
        let side = usize::from(code >= 7);
        let color = if side == 0 { Color::Red } else { Color::Black };
        attacks[side] |= match code % 7 {
            0 => king_attacks(sq),
            1 => advisor_attacks(sq),
            2 => elephant_attacks(sq, occ),
            3 => horse_attacks(sq, occ),
            4 => rook_attacks(sq, occ),
            5 => cannon_attacks(sq, occ),
            _ => pawn_attacks(color, sq),
        };
    }
    let mut mask = 0u32;
    for (i, &f) in features.iter().enumerate() {
        let side = usize::from(f / 90 >= 7);
        if attacks[1 - side].has(square(f)) {
            mask |= 1 << i;
        }
    }
    mask
}

/// The orientation, in a net of layout `kings`, of a perspective whose features are `features`:
/// from its own king (the feature below 90, its square seen from its side); bucket 0
/// unmirrored if it has none.
fn orientation(kings: KingLayout, features: &[u16]) -> Orientation {
    features
        .iter()
        .find(|&&f| usize::from(f) < 90)
        .map_or(Orientation::PLAIN, |&f| {
            Orientation::of_king(kings, usize::from(f))
        })
}

/// Side-to-move feature → the same piece seen by the other side: own and opponent swapped,
/// square flipped top to bottom (rank r → 9 − r).
pub static OTHER: [u16; INPUTS] = other_table();
/// Feature → the same piece on the left–right mirrored square (file f → 8 − f).
pub static MIRROR: [u16; INPUTS] = mirror_table();

const fn other_table() -> [u16; INPUTS] {
    let mut t = [0u16; INPUTS];
    let mut f = 0;
    while f < INPUTS {
        let (rel, kind, sq) = (f / 630, f % 630 / 90, f % 90);
        let flipped = (9 - sq / 9) * 9 + sq % 9;
        t[f] = ((1 - rel) * 630 + kind * 90 + flipped) as u16;
        f += 1;
    }
    t
}

const fn mirror_table() -> [u16; INPUTS] {
    let mut t = [0u16; INPUTS];
    let mut f = 0;
    while f < INPUTS {
        t[f] = mirrored(f) as u16;
        f += 1;
    }
    t
}

/// What loading found.
#[derive(Clone, Debug, Default)]
pub struct LoadStats {
    /// Files read.
    pub files: usize,
    /// Records read (decodable or not).
    pub records: usize,
    /// Records that did not decode.
    pub bad: usize,
    /// Boards seen before (dropped).
    pub duplicates: usize,
    /// Bytes after the last whole record, summed over files.
    pub trailing_bytes: usize,
}

/// The files named by `paths`: a file as given, a directory as all its `*.bin` files in name
/// order.
pub fn expand_paths(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let entries = std::fs::read_dir(p).map_err(|e| format!("{}: {e}", p.display()))?;
            let mut found: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|q| q.is_file() && q.extension().is_some_and(|x| x == "bin"))
                .collect();
            if found.is_empty() {
                return Err(format!("{}: no *.bin files in this directory", p.display()));
            }
            found.sort();
            out.extend(found);
        } else if p.is_file() {
            out.push(p.clone());
        } else {
            return Err(format!("{}: no such file or directory", p.display()));
        }
    }
    if out.is_empty() {
        return Err("no data files given (--data FILE|DIR ...)".to_string());
    }
    Ok(out)
}

/// Undecodable records reported one by one per file; the rest only counted.
const REPORT_BAD: usize = 5;

/// Reads every record of `files` in order. Undecodable records are skipped and reported with
/// their file and index; a partial record at the end of a file (one still being written) is
/// ignored with a note.
pub fn read_records(files: &[PathBuf], stats: &mut LoadStats) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    for path in files {
        read_file(path, stats, &mut samples)?;
    }
    Ok(samples)
}

fn read_file(path: &Path, stats: &mut LoadStats, out: &mut Vec<Sample>) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    stats.files += 1;
    let (chunks, rest) = bytes.as_chunks::<RECORD_BYTES>();
    if !rest.is_empty() {
        eprintln!(
            "{}: {} trailing bytes after record {} ignored (partial record)",
            path.display(),
            rest.len(),
            chunks.len()
        );
        stats.trailing_bytes += rest.len();
    }
    let mut bad_here = 0;
    out.reserve(chunks.len());
    for (i, chunk) in chunks.iter().enumerate() {
        stats.records += 1;
        match data::decode(chunk) {
            Ok(r) => out.push(Sample::from_record(&r)),
            Err(e) => {
                bad_here += 1;
                if bad_here <= REPORT_BAD {
                    eprintln!("{}: record {i} skipped: {e}", path.display());
                }
            }
        }
    }
    if bad_here > REPORT_BAD {
        eprintln!(
            "{}: {} undecodable records skipped in all ({} not listed)",
            path.display(),
            bad_here,
            bad_here - REPORT_BAD
        );
    }
    stats.bad += bad_here;
    Ok(())
}

/// Shuffles (Fisher–Yates, seeded), then keeps the first occurrence of each board in shuffled
/// order — so a random one of the records of a repeated board survives, with its own score and
/// result — preserving the shuffled order. Returns the number dropped.
pub fn shuffle_dedup(samples: &mut Vec<Sample>, rng: &mut Rng) -> usize {
    rng.shuffle(samples);
    let before = samples.len();
    let mut seen = HashSet::with_capacity(samples.len());
    samples.retain(|s| seen.insert(s.board_key()));
    before - samples.len()
}

/// Training and validation positions.
pub struct Split {
    /// 98 % of the data ([`load`]), or all the training files ([`load_apart`]).
    pub train: Vec<Sample>,
    /// 2 % of the data (at least one position), or all the validation files.
    pub valid: Vec<Sample>,
}

/// Splits shuffled samples: the last 2 % (at least one) for validation.
pub fn split(mut samples: Vec<Sample>) -> Result<Split, String> {
    if samples.len() < 2 {
        return Err(format!(
            "{} usable positions: need at least 2 (one to train on, one to validate)",
            samples.len()
        ));
    }
    let n_valid = (samples.len() * VALIDATION_PERCENT / 100).max(1);
    let valid = samples.split_off(samples.len() - n_valid);
    Ok(Split {
        train: samples,
        valid,
    })
}

/// Loads, shuffles, deduplicates and splits `paths` with `seed`, printing a summary line. The
/// same files and seed always give the same split.
pub fn load(paths: &[PathBuf], seed: u64) -> Result<Split, String> {
    let files = expand_paths(paths)?;
    let mut stats = LoadStats::default();
    let mut samples = read_records(&files, &mut stats)?;
    let mut rng = Rng::new(seed ^ 0x5eed_da7a);
    stats.duplicates = shuffle_dedup(&mut samples, &mut rng);
    let mut results = [0usize; 3];
    for s in &samples {
        results[usize::from(s.result.min(2))] += 1;
    }
    let share = |k: usize| 100.0 * results[k] as f64 / samples.len().max(1) as f64;
    let mean_abs_score = samples
        .iter()
        .map(|s| f64::from(s.score).abs())
        .sum::<f64>()
        / samples.len().max(1) as f64;
    eprintln!(
        "data: results for the side to move: {:.1} % wins, {:.1} % draws, {:.1} % losses; mean |score| {:.0} cp",
        share(2),
        share(1),
        share(0),
        mean_abs_score
    );
    let result = split(samples)?;
    eprintln!(
        "data: {} files, {} records, {} undecodable, {} duplicate boards dropped -> {} train, {} validation",
        stats.files,
        stats.records,
        stats.bad,
        stats.duplicates,
        result.train.len(),
        result.valid.len()
    );
    Ok(result)
}

/// Drops from `samples` every board that is also one of `known`'s; returns how many.
pub fn drop_boards_of(samples: &mut Vec<Sample>, known: &[Sample]) -> usize {
    let held: HashSet<u64> = known.iter().map(Sample::board_key).collect();
    let before = samples.len();
    samples.retain(|s| !held.contains(&s.board_key()));
    before - samples.len()
}

/// Loads `train_paths` for training and `valid_paths` for validation, each shuffled and
/// deduplicated with `seed`; a training board that is also a validation board is dropped from
/// training. With validation positions from other games than the training ones (another datagen
/// run), the validation loss shows how a net does on games it has not seen — which a split by
/// position cannot, since a game's positions then sit on both sides.
pub fn load_apart(
    train_paths: &[PathBuf],
    valid_paths: &[PathBuf],
    seed: u64,
) -> Result<Split, String> {
    let mut stats = LoadStats::default();
    let mut rng = Rng::new(seed ^ 0x5eed_da7a);
    let mut train = read_records(&expand_paths(train_paths)?, &mut stats)?;
    stats.duplicates = shuffle_dedup(&mut train, &mut rng);
    let mut valid_stats = LoadStats::default();
    let mut valid = read_records(&expand_paths(valid_paths)?, &mut valid_stats)?;
    valid_stats.duplicates = shuffle_dedup(&mut valid, &mut rng);
    let shared = drop_boards_of(&mut train, &valid);
    if train.is_empty() || valid.is_empty() {
        return Err(format!(
            "{} training and {} validation positions: need at least one of each",
            train.len(),
            valid.len()
        ));
    }
    eprintln!(
        "data: {} files, {} records, {} undecodable, {} duplicate boards dropped, {} boards also in the validation files dropped -> {} train",
        stats.files,
        stats.records,
        stats.bad,
        stats.duplicates,
        shared,
        train.len()
    );
    eprintln!(
        "validation data: {} files, {} records, {} undecodable, {} duplicate boards dropped -> {} validation",
        valid_stats.files,
        valid_stats.records,
        valid_stats.bad,
        valid_stats.duplicates,
        valid.len()
    );
    Ok(Split { train, valid })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_involutions_and_match_the_definition() {
        for f in 0..INPUTS {
            assert_eq!(usize::from(OTHER[usize::from(OTHER[f])]), f);
            assert_eq!(usize::from(MIRROR[usize::from(MIRROR[f])]), f);
        }
        // Own rook on a0 (code 4): the opponent sees an enemy rook on a9.
        assert_eq!(OTHER[4 * 90], 630 + 4 * 90 + 81);
        // Opponent pawn (code 13) on i5 = 5 * 9 + 8 = 53: seen by the other side as its own pawn
        // on i4 = 44.
        assert_eq!(OTHER[13 * 90 + 53], 6 * 90 + 44);
        assert_eq!(MIRROR[4 * 90], 4 * 90 + 8);
    }

    #[test]
    fn attacked_pieces_agree_with_the_moves_that_capture_them() {
        let mut pos = xq::position::Position::startpos();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut checked = 0;
        for _ in 0..2_000 {
            let moves = xq::movegen::legal_moves(&pos);
            if moves.is_empty() || pos.occupied().count() < 6 {
                pos = xq::position::Position::startpos();
                continue;
            }
            let stm = pos.side_to_move();
            let rec = data::decode(&data::encode(&pos, 0, 1, 0)).expect("record");
            let s = Sample::from_record(&rec);
            let mut expected = Vec::new();
            for sq in pos.occupied() {
                let piece = pos.piece_at(sq).expect("occupied");
                let attacked = pos
                    .color_bb(piece.color.flip())
                    .into_iter()
                    .any(|from| pos.pseudo_targets(from).has(sq));
                if attacked {
                    let f = u16::from(data::code(piece, stm)) * 90
                        + data::orient(sq, stm).index() as u16;
                    expected.push(f);
                }
            }
            let mut got: Vec<u16> = (0..s.active().len())
                .filter(|&i| s.threats & (1 << i) != 0)
                .map(|i| s.features[i])
                .collect();
            expected.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, expected, "{pos}");
            checked += usize::from(!got.is_empty());
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let m = moves[(seed >> 33) as usize % moves.len()];
            pos.play(m);
        }
        assert!(checked > 500, "{checked} positions with a threat");
    }

    #[test]
    fn samples_agree_with_records() {
        let rec = data::Record {
            pieces: vec![(0, 4), (7, 85), (4, 0), (13, 53)],
            score: -12,
            result: 1,
            flags: 0,
        };
        let s = Sample::from_record(&rec);
        let mut stm = [0; MAX_FEATURES];
        let mut other = [0; MAX_FEATURES];
        assert_eq!(s.plain_rows(false, &mut stm, &mut other), 4);
        assert_eq!(&stm[..4], &[4, 7 * 90 + 85, 4 * 90, 13 * 90 + 53]);
        assert_eq!(&other[..4], &[630 + 85, 4, 630 + 4 * 90 + 81, 6 * 90 + 44]);
        // Mirroring agrees with Record::mirrored.
        let m = Sample::from_record(&rec.mirrored());
        s.plain_rows(true, &mut stm, &mut other);
        let mut a = stm[..4].to_vec();
        let mut b = m.active().to_vec();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
        assert_eq!(s.board_key(), Sample { score: 5, ..s }.board_key());
        assert_ne!(s.board_key(), m.board_key());
    }

    #[test]
    fn king_bucketed_rows_follow_each_perspectives_king() {
        // Red's king on e0 (bucket 1), Black's on f9: Black sees its own king on f0, mirrored to
        // d0 (bucket 0), and every square mirrored.
        let rec = data::Record {
            pieces: vec![(0, 4), (7, 86), (4, 0), (13, 53)],
            score: 0,
            result: 1,
            flags: 0,
        };
        let s = Sample::from_record(&rec);
        let (mut stm, mut other) = ([0; MAX_ACTIVE], [0; MAX_ACTIVE]);
        let (mut plain_s, mut plain_o) = ([0; MAX_ACTIVE], [0; MAX_ACTIVE]);
        s.plain_rows(false, &mut plain_s, &mut plain_o);
        let kings = KingLayout::Mirrored;
        assert_eq!(s.bucketed_rows(kings, false, &mut stm, &mut other), 4);
        for i in 0..4 {
            assert_eq!(stm[i], INPUTS as u16 + plain_s[i]);
            assert_eq!(other[i], MIRROR[usize::from(plain_o[i])]);
        }
        let bucketed = (stm, other);
        assert_eq!(s.training_rows(kings, false, &mut stm, &mut other), 8);
        let factor = kings.rows() as u16;
        for i in 0..4 {
            assert_eq!(stm[i], bucketed.0[i]);
            assert_eq!(other[i], bucketed.1[i]);
            assert_eq!(stm[4 + i], factor + bucketed.0[i] - INPUTS as u16);
            assert_eq!(other[4 + i], factor + bucketed.1[i]);
        }
        // Mirroring the position first: Red's king stays on e0, Black's moves to d9 (d0 as Black
        // sees it, bucket 0 unmirrored), so Black reads the same rows as before.
        s.bucketed_rows(kings, true, &mut stm, &mut other);
        let (mut a, mut b) = (other[..4].to_vec(), bucketed.1[..4].to_vec());
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
        // The palace layout: Red's king on e0 is bucket 1, Black's on f9 (its own f0) bucket 2,
        // nothing mirrored; mirroring the position moves Black's king to d9, bucket 0.
        let kings = KingLayout::Palace;
        assert_eq!(s.bucketed_rows(kings, false, &mut stm, &mut other), 4);
        for i in 0..4 {
            assert_eq!(stm[i], INPUTS as u16 + plain_s[i]);
            assert_eq!(other[i], 2 * INPUTS as u16 + plain_o[i]);
        }
        assert_eq!(s.training_rows(kings, false, &mut stm, &mut other), 8);
        for i in 0..4 {
            assert_eq!(stm[4 + i], kings.rows() as u16 + plain_s[i]);
            assert_eq!(other[4 + i], kings.rows() as u16 + plain_o[i]);
        }
        s.bucketed_rows(kings, true, &mut stm, &mut other);
        for i in 0..4 {
            assert_eq!(other[i], MIRROR[usize::from(plain_o[i])]);
        }
    }

    #[test]
    fn dedup_keeps_one_per_board() {
        let rec = data::Record {
            pieces: vec![(0, 3), (7, 85)],
            score: 0,
            result: 1,
            flags: 0,
        };
        let a = Sample::from_record(&rec);
        let b = Sample::from_record(&rec.mirrored());
        let mut v = vec![a, b, Sample { score: 9, ..a }, a];
        assert_eq!(shuffle_dedup(&mut v, &mut Rng::new(1)), 2);
        assert_eq!(v.len(), 2);
    }

    #[test]
    fn validation_files_stay_apart_from_training() {
        use xq::position::Position;
        // Boards along one line of play; the validation file shares two of the training file's.
        let mut pos = Position::startpos();
        let mut boards = vec![pos.clone()];
        for i in 0..6 {
            let moves = xq::movegen::legal_moves(&pos);
            pos.play(moves[i * 7 % moves.len()]);
            boards.push(pos.clone());
        }
        let dir = std::env::temp_dir().join(format!("xq-load-apart-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let write = |name: &str, boards: &[Position]| {
            let path = dir.join(name);
            let bytes: Vec<u8> = boards
                .iter()
                .enumerate()
                .flat_map(|(ply, b)| data::encode(b, 7, 1, ply))
                .collect();
            std::fs::write(&path, bytes).expect("a record file");
            path
        };
        let train_file = write("train.bin", &boards[..5]);
        let valid_file = write("valid.bin", &boards[3..]);
        let split = load_apart(&[train_file], &[valid_file], 1).expect("a split");
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(split.valid.len(), 4);
        assert_eq!(split.train.len(), 3);
        let held: HashSet<u64> = split.valid.iter().map(Sample::board_key).collect();
        assert!(split.train.iter().all(|s| !held.contains(&s.board_key())));
        let expected: HashSet<u64> = boards[..3]
            .iter()
            .map(|b| {
                Sample::from_record(&data::decode(&data::encode(b, 7, 1, 0)).expect("decodes"))
                    .board_key()
            })
            .collect();
        let got: HashSet<u64> = split.train.iter().map(Sample::board_key).collect();
        assert_eq!(got, expected);
    }
}
