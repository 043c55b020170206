//! Criterion benchmarks of the WXF judge on a 300-ply game full of repetitions: pushing the moves
//! into a `History`, working out every move's chase status, `judge_at` at every ply and the
//! in-search `judge_prune` cutoff; and how judging a record grows with its length, on shuffles of
//! 10^4 to 10^6 plies. See `bench/README.md`.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use xq::judge::{History, Rules, Status, Verdict, judge_at, judge_prune, repeats};
use xq::movegen::legal_moves;
use xq::moves::Move;
use xq::piece::PieceKind;
use xq::position::Position;

/// Length of the benchmark game.
const PLIES: usize = 300;

/// A central-cannon opening against two screen horses, without captures.
const OPENING: &str =
    "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 a9b9 a0b0 c6c5 h0h4 b7a7 c3c4 g6g5 b2b6 c9e7 f0e1 f9e8";

/// The repetition threshold in the benchmarks: the first recurrence counts, as inside search.
const OCCURRENCES: u32 = 2;

/// xorshift64: deterministic choices while building the game.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn reverse(m: Move) -> Move {
    Move::new(m.to(), m.from())
}

/// A move that neither captures nor moves a pawn (either would end every repetition).
fn reversible(pos: &Position, m: Move) -> bool {
    pos.captured(m).is_none()
        && pos
            .piece_at(m.from())
            .is_some_and(|p| p.kind != PieceKind::Pawn)
}

/// Moves of the side to move worth repeating, best kind first: checks, then moves after which the
/// moved piece attacks an enemy piece (possible chases), then any reversible move.
fn candidates(pos: &Position) -> Vec<Move> {
    let mut checks = Vec::new();
    let mut attacks = Vec::new();
    let mut quiet = Vec::new();
    for m in legal_moves(pos).into_iter().filter(|&m| reversible(pos, m)) {
        let mut next = pos.clone();
        next.play(m);
        if next.in_check() {
            checks.push(m);
        } else if let Some(view) = next.pass()
            && (view.pseudo_targets(m.to()) & view.color_bb(pos.side_to_move().flip())).any()
        {
            attacks.push(m);
        } else {
            quiet.push(m);
        }
    }
    [checks, attacks, quiet]
        .into_iter()
        .find(|v| !v.is_empty())
        .unwrap_or_default()
}

/// Plays `m` on `pos` if it is legal.
fn step(pos: &mut Position, m: Move) -> bool {
    let ok = pos.is_legal(m);
    if ok {
        pos.play(m);
    }
    ok
}

/// The benchmark game: the opening, then blocks in which one side checks or attacks and the other
/// answers, both moving back and forth until the position has occurred three times; now and then
/// a free move breaks the pattern so the next block repeats a new position.
fn game() -> (Position, Vec<Move>) {
    let start = Position::startpos();
    let mut pos = start.clone();
    let mut moves: Vec<Move> = Vec::new();
    for text in OPENING.split_whitespace() {
        let m: Move = text.parse().expect("opening moves parse");
        assert!(step(&mut pos, m), "opening move {text} is legal");
        moves.push(m);
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    'blocks: while moves.len() < PLIES {
        let ours = candidates(&pos);
        if ours.is_empty() {
            // Nothing reversible (in check, say): play on with any legal move.
            let all = legal_moves(&pos);
            assert!(!all.is_empty(), "the game ended at ply {}", moves.len());
            let m = all[rng.below(all.len())];
            pos.play(m);
            moves.push(m);
            continue;
        }
        assert!(
            !ours.is_empty(),
            "a reversible move exists at ply {}",
            moves.len()
        );
        // Try a few pairs (our move, their answer) that can be played back and forth.
        for _ in 0..50 {
            let a = ours[rng.below(ours.len())];
            let mut after_a = pos.clone();
            after_a.play(a);
            let theirs: Vec<Move> = legal_moves(&after_a)
                .into_iter()
                .filter(|&m| reversible(&after_a, m))
                .collect();
            if theirs.is_empty() {
                continue;
            }
            let b = theirs[rng.below(theirs.len())];
            let cycle = [a, b, reverse(a), reverse(b)];
            let mut trial = pos.clone();
            if !(0..2).all(|_| cycle.iter().all(|&m| step(&mut trial, m)))
                || trial.key() != pos.key()
            {
                continue;
            }
            for _ in 0..2 {
                for m in cycle {
                    if moves.len() == PLIES {
                        break 'blocks;
                    }
                    pos.play(m);
                    moves.push(m);
                }
            }
            // Break the pattern with one more move of ours, a capture when there is one, so the
            // board opens up and the next block repeats a new position.
            let all = legal_moves(&pos);
            let captures: Vec<Move> = all
                .iter()
                .copied()
                .filter(|&m| pos.captured(m).is_some())
                .collect();
            let pool: Vec<Move> = if captures.is_empty() {
                candidates(&pos)
            } else {
                captures
            };
            if !pool.is_empty() {
                let m = pool[rng.below(pool.len())];
                pos.play(m);
                moves.push(m);
            }
            continue 'blocks;
        }
        // No pair found: move on with one of the candidates.
        let m = ours[rng.below(ours.len())];
        pos.play(m);
        moves.push(m);
    }
    moves.truncate(PLIES);
    (start, moves)
}

fn history(start: &Position, moves: &[Move]) -> History {
    let mut h = History::new(start.clone(), Rules::default());
    for &m in moves {
        h.push(m).expect("benchmark moves are legal");
    }
    h
}

/// Prints what the game holds, so the benchmark's workload is on record.
fn describe(h: &History) {
    let plies = h.plies();
    let repeated = (0..=plies).filter(|&p| repeats(h, p, 2)).count();
    let verdicts: Vec<Verdict> = (0..=plies)
        .map(|p| judge_at(h, p, OCCURRENCES).verdict)
        .collect();
    let wins = verdicts
        .iter()
        .filter(|v| matches!(v, Verdict::Win(_)))
        .count();
    let draws = verdicts.iter().filter(|&&v| v == Verdict::Draw).count();
    let statuses: Vec<Status> = (1..=plies).map(|p| h.status(p).0).collect();
    let count = |s: Status| statuses.iter().filter(|&&x| x == s).count();
    eprintln!(
        "judge benchmark game: {plies} plies, {repeated} positions repeated, rulings: {wins} wins, \
         {draws} draws; \
         moves: {} checks, {} chases, {} idle, {} cancels",
        count(Status::CHECK),
        count(Status::CHASE),
        count(Status::IDLE),
        count(Status::CANCEL)
    );
}

fn judge(c: &mut Criterion) {
    let (start, moves) = game();
    // Statuses are worked out lazily and kept; `fresh` has never been judged.
    let fresh = history(&start, &moves);
    describe(&fresh.clone());
    let warm = fresh.clone();
    for p in 0..=warm.plies() {
        black_box(judge_at(&warm, p, OCCURRENCES));
    }

    let mut group = c.benchmark_group("judge");
    group.throughput(Throughput::Elements(PLIES as u64));
    group.bench_function("push_300", |b| {
        b.iter(|| history(black_box(&start), black_box(&moves)))
    });
    group.bench_function("push_300_and_status", |b| {
        b.iter(|| {
            let h = history(black_box(&start), black_box(&moves));
            (1..=h.plies()).map(|p| h.status(p).1 as u32).sum::<u32>()
        })
    });
    group.bench_function("judge_at_every_ply_cold", |b| {
        b.iter_batched_ref(
            || fresh.clone(),
            |h| {
                (0..=h.plies())
                    .map(|p| judge_at(h, p, OCCURRENCES))
                    .filter(|r| r.cycles.is_some())
                    .count()
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("judge_at_every_ply_warm", |b| {
        b.iter(|| {
            let h = black_box(&warm);
            (0..=h.plies())
                .map(|p| judge_at(h, p, OCCURRENCES))
                .filter(|r| r.cycles.is_some())
                .count()
        })
    });
    group.bench_function("judge_prune_every_ply_cold", |b| {
        b.iter_batched_ref(
            || fresh.clone(),
            |h| {
                (0..=h.plies())
                    .filter(|&p| judge_prune(h, p, OCCURRENCES, true) != Verdict::Undecided)
                    .count()
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("judge_prune_every_ply_warm", |b| {
        b.iter(|| {
            let h = black_box(&warm);
            (0..=h.plies())
                .filter(|&p| judge_prune(h, p, OCCURRENCES, true) != Verdict::Undecided)
                .count()
        })
    });
    group.finish();
}

/// Manual diagram 18 (rule 15): a red cannon chases a black rook back and forth, Black's rook
/// escaping between d3 and d7; a perpetual chase ruled against Red.
const CHASE_FEN: &str = "2bakab2/3r5/2n1c2c1/p1R1p1p2/7np/2P2CP2/P2rP3P/2N1C1N2/4A4/2B1KAB1R w";
const CHASE_OPENING: &str = "f4f3 d3d7";
const CHASE_CYCLE: &str = "f3f7 d7d3 f7f3 d3d7";

/// The repetition threshold for the long records: the referee's default, three occurrences.
const LONG_OCCURRENCES: u32 = 3;

/// The start position: horses out and back, an idle repetition.
const IDLE_CYCLE: &str = "h0g2 h9g7 g2h0 g7h9";

/// A record of `plies` moves: `opening`, then `cycle` over and over.
fn shuffle(fen: &str, opening: &str, cycle: &str, plies: usize) -> (Position, Vec<Move>) {
    let (start, _) = xq::fen::parse_lenient(fen).expect("a valid FEN");
    let parse = |text: &str| -> Vec<Move> {
        text.split_whitespace()
            .map(|m| m.parse().expect("an ICCS move"))
            .collect()
    };
    let cycle = parse(cycle);
    let mut moves = parse(opening);
    let rest = plies.saturating_sub(moves.len());
    moves.extend(cycle.iter().cycle().take(rest));
    (start, moves)
}

/// How judging grows with a record's length, on records of 10^4, 10^5 and 10^6 plies:
/// `judge_*` asks `judge_at` at every ply (with 3 occurrences, the referee's default) of a history whose
/// moves are pushed but whose chase statuses are not yet worked out, so every status is worked
/// out once on the way, as the referee does; `push_and_judge_*` pushes the moves too. Linear time
/// shows as the same time per ply (throughput) at every length.
fn long_records(c: &mut Criterion) {
    let mut group = c.benchmark_group("judge_long");
    group.sample_size(10);
    for (name, fen, opening, cycle) in [
        ("chase", CHASE_FEN, CHASE_OPENING, CHASE_CYCLE),
        ("idle", xq::fen::START_FEN, "", IDLE_CYCLE),
    ] {
        for plies in [10_000, 100_000, 1_000_000] {
            let (start, moves) = shuffle(fen, opening, cycle, plies);
            let mut pushed = History::new(start.clone(), Rules::default());
            for &m in &moves {
                pushed.push_legal(m);
            }
            let judge_every_ply = |h: &History| {
                let mut ruled = 0usize;
                for ply in 0..=h.plies() {
                    if judge_at(h, ply, LONG_OCCURRENCES).verdict != Verdict::Undecided {
                        ruled += 1;
                    }
                }
                ruled
            };
            group.throughput(Throughput::Elements(plies as u64));
            group.bench_function(format!("judge_{name}_{plies}"), |b| {
                b.iter_batched_ref(
                    || pushed.clone(),
                    |h| judge_every_ply(h),
                    BatchSize::LargeInput,
                )
            });
            group.bench_function(format!("push_and_judge_{name}_{plies}"), |b| {
                b.iter(|| {
                    let mut h = History::new(start.clone(), Rules::default());
                    for &m in &moves {
                        h.push_legal(m);
                    }
                    judge_every_ply(&h)
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, judge, long_records);
criterion_main!(benches);
