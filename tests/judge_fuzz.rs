//! Seeded random playouts that force repetitions, checking that the WXF judge never panics on a
//! legal history and keeps its invariants: push/pop consistency, no verdict without a repetition,
//! the in-search cutoff agreeing with the full judge, and the mirror and colour-swap symmetries.
//!
//! Each playout is reproducible from its seed; a failure prints the seed, the start FEN and the
//! moves played. `XQ_FUZZ_PLAYOUTS=N` changes the number of playouts per start kind.

mod common;

use common::Rng;
use std::panic::{AssertUnwindSafe, catch_unwind};
use xq::fen;
use xq::judge::{
    History, ProtectionPolicy, RuleSet, Rules, Ruling, Status, Verdict, Violation, judge_at,
    judge_before_reply, judge_prune, repeats, side_cycle,
};
use xq::movegen::legal_moves;
use xq::moves::Move;
use xq::position::Position;
use xq::referee::render::{self, Lang};
use xq::referee::{Decision, Reason};
use xq::square::Color;

/// A generator whose seed is mixed first, so that consecutive seeds give unrelated streams.
fn seeded(seed: u64) -> Rng {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    Rng::new((z ^ (z >> 31)) | 1)
}

/// Every protection policy under the WXF rules, and the check-only rule set.
const RULES: [Rules; 4] = [
    Rules::WXF,
    Rules {
        set: RuleSet::Wxf,
        protection: ProtectionPolicy::BeforeCapture,
    },
    Rules {
        set: RuleSet::Wxf,
        protection: ProtectionPolicy::AfterCapture,
    },
    Rules {
        set: RuleSet::ChecksOnly,
        protection: ProtectionPolicy::SurvivingScreen,
    },
];
const OCCURRENCES: [u32; 2] = [2, 3];

/// What a record says, comparable: key, move, whether it cancels, its status and chased set (read
/// provisionally for the last move), and whether that status is settled.
type RecordView = (u64, Option<Move>, bool, (Status, u16), bool);

fn views(h: &History) -> Vec<RecordView> {
    h.records()
        .iter()
        .enumerate()
        .map(|(ply, r)| (r.key, r.mv, r.is_cancel(), h.status(ply), h.is_settled(ply)))
        .collect()
}

/// Every judge entry point at `ply`, with the properties that tie them together.
fn check_ply(h: &History, ply: usize) {
    for occurrences in OCCURRENCES {
        let rep_here = repeats(h, ply, occurrences);
        let rep_before = ply > 0 && repeats(h, ply - 1, occurrences);
        assert_eq!(
            side_cycle(h, ply, occurrences).is_some(),
            rep_here,
            "ply {ply}: side_cycle vs repeats"
        );
        {
            let ruling = judge_at(h, ply, occurrences);
            if ruling.verdict != Verdict::Undecided {
                // The referee's words for the ruling, from the judge's data.
                let decision = Decision {
                    verdict: ruling.verdict,
                    ply,
                    reason: Reason::Repetition(ruling.clone()),
                };
                let text = render::decision(h, &decision, ruling.is_provisional(), &[], Lang::En);
                assert!(!text.is_empty());
            }
            let _ = ruling.is_provisional();
            let at = xq::judge::occurrences(h, ply);
            assert_eq!(at.last(), Some(&ply));
            assert_eq!(
                rep_here,
                at.len() >= occurrences as usize,
                "ply {ply}: occurrences"
            );
            let check_decides = ruling.cycles.is_some_and(|c| {
                c.iter()
                    .any(|side| side.violation == Violation::PerpetualCheck)
            });
            if !rep_here || (!rep_before && !check_decides) {
                assert_eq!(
                    ruling.verdict,
                    Verdict::Undecided,
                    "ply {ply}, N={occurrences}: verdict without a repetition"
                );
                assert!(ruling.cycles.is_none());
            } else {
                assert_ne!(
                    ruling.verdict,
                    Verdict::Undecided,
                    "ply {ply}, N={occurrences}: repetition left undecided"
                );
            }
            if let Some(cycles) = ruling.cycles {
                let mover = h.position_at(ply).side_to_move();
                assert_eq!(cycles[0].color, mover);
                assert_eq!(cycles[1].color, mover.flip());
                for c in cycles {
                    assert!(c.first_ply < c.last_ply && c.last_ply == ply);
                }
                // Both sides are judged over the same stretch, up to the repeated position: the
                // side to move from an occurrence of it, the side that moved into it from the
                // ply after one.
                assert_eq!((cycles[0].last_ply - cycles[0].first_ply) % 2, 0);
                assert_eq!(
                    (cycles[1].last_ply - cycles[1].first_ply) % 2,
                    1,
                    "ply {ply}: mover's cycle"
                );
            }
            let full = judge_prune(h, ply, occurrences, false);
            assert_eq!(
                full, ruling.verdict,
                "ply {ply}, N={occurrences}: judge_prune(false) vs judge_at"
            );
            let pruned = judge_prune(h, ply, occurrences, true);
            if pruned != full {
                // Only the side to move, whose own cycle is idle, may shortcut a win to a draw.
                assert_eq!(
                    pruned,
                    Verdict::Draw,
                    "ply {ply}: judge_prune(true) gave {pruned} for {full}"
                );
                assert_eq!(
                    full,
                    Verdict::Win(h.position_at(ply).side_to_move()),
                    "ply {ply}"
                );
            }
        }
    }
    if ply == h.plies() {
        assert_eq!(
            judge_before_reply(h, 2),
            judge_at(h, ply.saturating_sub(1), 2)
        );
    }
}

/// The verdicts at every ply, for each occurrence threshold.
fn verdicts(h: &History) -> Vec<Ruling> {
    let mut out = Vec::new();
    for occurrences in OCCURRENCES {
        for ply in 0..=h.plies() {
            out.push(judge_at(h, ply, occurrences));
        }
    }
    out
}

fn build(start: &Position, moves: &[Move], rules: Rules) -> History {
    let mut h = History::new(start.clone(), rules);
    for (i, &m) in moves.iter().enumerate() {
        h.push(m)
            .unwrap_or_else(|e| panic!("rebuilding ply {}: {e}", i + 1));
    }
    h
}

/// The next move: most often the side's previous move played backwards (to force repetitions),
/// sometimes the move it made two turns ago again, otherwise any legal move.
fn choose(rng: &mut Rng, pos: &Position, moves: &[Move]) -> Option<Move> {
    let n = moves.len();
    if n >= 2 && rng.chance(80, 100) {
        let prev = moves[n - 2];
        let back = Move::new(prev.to(), prev.from());
        if pos.is_legal(back) {
            return Some(back);
        }
    }
    if n >= 4 && rng.chance(30, 100) && pos.is_legal(moves[n - 4]) {
        return Some(moves[n - 4]);
    }
    let legal = legal_moves(pos);
    (!legal.is_empty()).then(|| legal[rng.below(legal.len())])
}

/// One playout: `prefix` first, then up to `plies` chosen moves, checking every ply, probing
/// with push/pop, and rebuilding from scratch now and then. The moves played go to `played`.
fn playout(
    seed: u64,
    start: &Position,
    prefix: &[Move],
    plies: usize,
    played: &mut Vec<Move>,
) -> Tally {
    let mut rng = seeded(seed);
    let mut hs: Vec<History> = RULES
        .iter()
        .map(|&r| History::new(start.clone(), r))
        .collect();
    for h in &hs {
        check_ply(h, 0);
    }
    let mut prefix = prefix.iter().copied();
    for _ in 0..prefix.len() + plies {
        let pos = hs[0].position().clone();
        let next = match prefix.next() {
            Some(m) => Some(m),
            None => choose(&mut rng, &pos, played),
        };
        let Some(m) = next else { break };
        played.push(m);
        for h in &mut hs {
            h.push(m)
                .unwrap_or_else(|e| panic!("pushing a legal move: {e}"));
            let ply = h.plies();
            check_ply(h, ply);
            check_ply(h, ply - 1);
        }

        // A search-like probe: push a move, judge, take it back; nothing earlier may change.
        if rng.chance(40, 100) {
            let legal = legal_moves(hs[0].position());
            if !legal.is_empty() {
                let probe = if rng.chance(50, 100) && played.len() >= 2 {
                    let prev = played[played.len() - 2];
                    let back = Move::new(prev.to(), prev.from());
                    if hs[0].position().is_legal(back) {
                        back
                    } else {
                        legal[rng.below(legal.len())]
                    }
                } else {
                    legal[rng.below(legal.len())]
                };
                for h in &mut hs {
                    let records = views(h);
                    let ply = h.plies();
                    let earlier: Vec<Ruling> = (ply.saturating_sub(8)..=ply)
                        .flat_map(|p| OCCURRENCES.map(|n| judge_at(h, p, n)))
                        .collect();
                    h.push(probe)
                        .unwrap_or_else(|e| panic!("pushing a legal probe: {e}"));
                    check_ply(h, ply + 1);
                    assert_eq!(h.pop(), Some(probe));
                    assert_eq!(
                        views(h),
                        records,
                        "records changed by push/pop of {probe} at ply {ply}"
                    );
                    let again: Vec<Ruling> = (ply.saturating_sub(8)..=ply)
                        .flat_map(|p| OCCURRENCES.map(|n| judge_at(h, p, n)))
                        .collect();
                    assert_eq!(
                        again, earlier,
                        "rulings changed by push/pop of {probe} at ply {ply}"
                    );
                }
            }
        }

        // A history rebuilt from the moves agrees with the one that went through probes.
        if rng.chance(5, 100) {
            for h in &hs {
                let rebuilt = build(start, played, h.rules());
                assert_eq!(
                    views(&rebuilt),
                    views(h),
                    "rebuilt history differs at ply {}",
                    h.plies()
                );
            }
        }
    }

    // Popping the whole line back gives, at each length, what a rebuilt history gives.
    for h in &mut hs {
        let rules = h.rules();
        let full = verdicts(h);
        let mut rebuilt = build(start, played, rules);
        assert_eq!(verdicts(&rebuilt), full);
        let cut = played.len() - played.len().min(1 + rng.below(6));
        while rebuilt.plies() > cut {
            h.pop();
            rebuilt = build(start, &played[..h.plies()], rules);
            assert_eq!(views(h), views(&rebuilt), "pop back to ply {}", h.plies());
        }
    }

    check_symmetry(start, played)
}

/// The mirrored line gives the same verdicts; the colour-swapped line gives the same verdicts
/// with the winner swapped. Cycles match in side, kind, extent and number of chased pieces.
fn check_symmetry(start: &Position, moves: &[Move]) -> Tally {
    let mut tally = Tally::default();
    let mirrored: Vec<Move> = moves.iter().map(|m| m.mirror()).collect();
    let swapped: Vec<Move> = moves.iter().map(|m| m.flip()).collect();
    for rules in RULES {
        let h = build(start, moves, rules);
        let hm = build(&start.mirror(), &mirrored, rules);
        let hs = build(&start.color_swap(), &swapped, rules);
        for (a, (b, c)) in verdicts(&h)
            .iter()
            .zip(verdicts(&hm).iter().zip(verdicts(&hs).iter()))
        {
            tally.add(a);
            assert_eq!(a.verdict, b.verdict, "mirror: ply {}", a.ply);
            let swap = |v: Verdict| match v {
                Verdict::Win(c) => Verdict::Win(c.flip()),
                v => v,
            };
            assert_eq!(swap(a.verdict), c.verdict, "colour swap: ply {}", a.ply);
            let shape = |r: &Ruling, flip: bool| {
                r.cycles.map(|cs| {
                    cs.map(|s| {
                        let color = if flip { s.color.flip() } else { s.color };
                        (
                            color,
                            s.violation,
                            s.first_ply,
                            s.last_ply,
                            s.chased.count_ones(),
                            s.provisional,
                        )
                    })
                })
            };
            assert_eq!(
                shape(a, false),
                shape(b, false),
                "mirror cycles: ply {}",
                a.ply
            );
            assert_eq!(
                shape(a, false),
                shape(c, true),
                "colour swap cycles: ply {}",
                a.ply
            );
        }
    }
    tally
}

/// How many rulings of each kind the playouts produced, so that a change that stops them forcing
/// repetitions is noticed.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    rulings: usize,
    draws: usize,
    wins: usize,
    perpetual_checks: usize,
    perpetual_chases: usize,
}

impl Tally {
    fn add(&mut self, r: &Ruling) {
        self.rulings += 1;
        match r.verdict {
            Verdict::Draw => self.draws += 1,
            Verdict::Win(_) => self.wins += 1,
            Verdict::Undecided => {}
        }
        for c in r.cycles.iter().flatten() {
            match c.violation {
                Violation::PerpetualCheck => self.perpetual_checks += 1,
                Violation::PerpetualChase => self.perpetual_chases += 1,
                Violation::Idle => {}
            }
        }
    }

    fn merge(&mut self, o: Tally) {
        self.rulings += o.rulings;
        self.draws += o.draws;
        self.wins += o.wins;
        self.perpetual_checks += o.perpetual_checks;
        self.perpetual_chases += o.perpetual_chases;
    }
}

struct Start {
    name: String,
    position: Position,
    prefix: Vec<Move>,
}

fn starts() -> Vec<Start> {
    let mut out = vec![Start {
        name: "start position".into(),
        position: Position::startpos(),
        prefix: Vec::new(),
    }];
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/wxf_cases/cases.tsv");
    let text = std::fs::read_to_string(path).expect("wxf_cases/cases.tsv is readable");
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (position, _) = fen::parse_lenient(cols[2]).expect("case FENs load");
        let prefix = cols[3]
            .split_whitespace()
            .map(|m| m.parse().expect("case moves parse"))
            .collect();
        out.push(Start {
            name: format!("case {}", cols[0]),
            position,
            prefix,
        });
    }
    out
}

#[test]
fn judge_survives_random_repetitive_playouts() {
    let per_start: u64 = std::env::var("XQ_FUZZ_PLAYOUTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6);
    let starts = starts();
    let mut failures = Vec::new();
    let mut plies_checked = 0usize;
    let mut tally = Tally::default();
    for (i, start) in starts.iter().enumerate() {
        // The start position gets more playouts, since it has no case line to begin with.
        let count = if i == 0 { per_start * 40 } else { per_start };
        for k in 0..count {
            let seed = (i as u64) << 32 | k;
            let mut rng = seeded(seed ^ 0xA5A5);
            // From a case: half the time its own line first, then a shorter playout.
            let prefix: &[Move] = if rng.chance(50, 100) {
                &start.prefix
            } else {
                &[]
            };
            let plies = if i == 0 {
                120 + rng.below(120)
            } else {
                40 + rng.below(80)
            };
            let mut played = Vec::new();
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                playout(seed, &start.position, prefix, plies, &mut played)
            }));
            plies_checked += played.len();
            match outcome {
                Ok(t) => tally.merge(t),
                Err(panic) => {
                    let msg = common::panic_message(&*panic);
                    let moves: Vec<String> = played.iter().map(|m| m.to_string()).collect();
                    failures.push(format!(
                        "{} seed {seed:#x}: {msg}\n  fen: {}\n  moves: {}",
                        start.name,
                        start.position,
                        moves.join(" ")
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failing playouts:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("{plies_checked} plies played; rulings over all plies: {tally:?}");
    assert!(plies_checked > 10_000, "only {plies_checked} plies checked");
    assert!(
        tally.draws > 100 && tally.wins > 100,
        "too few repetitions: {tally:?}"
    );
    assert!(
        tally.perpetual_checks > 10 && tally.perpetual_chases > 10,
        "too few violations: {tally:?}"
    );
}

/// Both colours appear as the side to move at the start (case FENs include Black to move).
#[test]
fn starts_cover_both_sides_to_move() {
    let starts = starts();
    assert!(
        starts
            .iter()
            .any(|s| s.position.side_to_move() == Color::Black)
    );
    assert!(
        starts
            .iter()
            .any(|s| s.position.side_to_move() == Color::Red)
    );
}

/// The reasons given for protection (`protection`) agree with the yes/no the judge uses
/// (`is_protected`) on every capture of random games, under every policy, and every reason kind
/// occurs.
#[test]
fn protection_reasons_agree_with_the_judge() {
    use xq::judge::protection::{DefenderFailure, Protection, is_protected, protection};
    let mut rng = seeded(7);
    let mut seen = [0usize; 5];
    for _ in 0..300 {
        let mut pos = Position::startpos();
        for _ in 0..160 {
            let legal = legal_moves(&pos);
            if legal.is_empty() {
                break;
            }
            for &m in legal.iter().filter(|m| pos.piece_at(m.to()).is_some()) {
                for policy in [
                    ProtectionPolicy::SurvivingScreen,
                    ProtectionPolicy::BeforeCapture,
                    ProtectionPolicy::AfterCapture,
                ] {
                    let why = protection(&pos, m, policy);
                    assert_eq!(
                        is_protected(&pos, m, policy),
                        why.is_protected(),
                        "{} {m} {policy:?}: {why:?}",
                        fen::format(&pos)
                    );
                    let kind = match &why {
                        Protection::Protected(_) => 0,
                        Protection::WorthMore => 1,
                        Protection::NoDefender => 2,
                        Protection::DefendersFail(f) => {
                            if f.iter()
                                .any(|(_, w)| *w == DefenderFailure::ScreenIsAttacker)
                            {
                                3
                            } else {
                                4
                            }
                        }
                    };
                    seen[kind] += 1;
                }
            }
            // Captures are preferred, so that boards thin out and every reason turns up.
            let captures: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| pos.piece_at(m.to()).is_some())
                .collect();
            let m = if !captures.is_empty() && rng.chance(60, 100) {
                captures[rng.below(captures.len())]
            } else {
                legal[rng.below(legal.len())]
            };
            pos.play(m);
        }
    }
    eprintln!("reasons seen: {seen:?}");
    assert!(seen.iter().all(|&n| n > 0), "reasons seen: {seen:?}");
}
