//! Move generation invariants over positions reached by seeded random playouts from the start
//! position and every FEN in `tests/data/perft.tsv`: `is_legal` agrees with the generator on all
//! 90×90 from→to pairs, the generator agrees with a slow reference built on
//! `attacks::reference`, captures and quiets split the legal moves, incremental state (and the key
//! a move leads to, known before it is played) matches a recomputation, FEN round-trips,
//! reflections keep perft, and the two horse functions agree.

mod common;

use common::{Rng, perft_fens};
use std::collections::HashSet;
use std::sync::OnceLock;
use xq::attacks::{self, reference};
use xq::bitboard::Bitboard;
use xq::fen;
use xq::movegen::{self, GenType};
use xq::moves::{Move, MoveList};
use xq::perft::perft;
use xq::piece::{Piece, PieceKind};
use xq::position::Position;
use xq::square::{Color, Square};

/// Random playouts per starting FEN.
const PLAYOUTS: usize = 10;
/// Longest playout, in plies.
const PLAYOUT_PLIES: usize = 60;

/// Every position visited by the playouts (starting positions included), built once per test
/// binary. Moves come from the reference rules, not the generator under test, and a quarter of them
/// are checks where one exists.
fn sample() -> &'static [Position] {
    static SAMPLE: OnceLock<Vec<Position>> = OnceLock::new();
    SAMPLE.get_or_init(|| {
        let mut fens = perft_fens();
        if !fens.iter().any(|f| f == fen::START_FEN) {
            fens.insert(0, fen::START_FEN.to_string());
        }
        let mut out = Vec::new();
        for (i, text) in fens.iter().enumerate() {
            let (root, _) = fen::parse_lenient(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            out.push(root.clone());
            for p in 0..PLAYOUTS {
                let mut rng = Rng::new(0x5eed_0000 + (i * 1000 + p) as u64);
                let mut pos = root.clone();
                for _ in 0..PLAYOUT_PLIES {
                    let moves = reference_legal_moves(&pos);
                    if moves.is_empty() {
                        break;
                    }
                    // Prefer checks now and then, so that evasions are well covered.
                    let checks: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|&m| {
                            let mut child = pos.clone();
                            child.play(m);
                            child.in_check()
                        })
                        .collect();
                    let m = if !checks.is_empty() && rng.chance(1, 4) {
                        *rng.pick(&checks)
                    } else {
                        *rng.pick(&moves)
                    };
                    pos.play(m);
                    out.push(pos.clone());
                }
            }
        }
        out
    })
}

/// Collects failures and reports the first few of them, with the total.
struct Failures {
    what: &'static str,
    count: usize,
    shown: Vec<String>,
}

impl Failures {
    fn new(what: &'static str) -> Failures {
        Failures {
            what,
            count: 0,
            shown: Vec::new(),
        }
    }

    fn check(&mut self, ok: bool, message: impl FnOnce() -> String) {
        if !ok {
            self.count += 1;
            if self.shown.len() < 20 {
                self.shown.push(message());
            }
        }
    }

    fn finish(self) {
        assert!(
            self.count == 0,
            "{}: {} failures, the first {}:\n{}",
            self.what,
            self.count,
            self.shown.len(),
            self.shown.join("\n")
        );
    }
}

fn move_set(moves: &[Move]) -> HashSet<Move> {
    moves.iter().copied().collect()
}

fn generated(pos: &Position, gen_type: GenType) -> MoveList {
    let mut list = MoveList::new();
    movegen::generate(pos, gen_type, &mut list);
    list
}

#[test]
fn sample_is_varied() {
    let sample = sample();
    let in_check = sample.iter().filter(|p| p.in_check()).count();
    let black = sample
        .iter()
        .filter(|p| p.side_to_move() == Color::Black)
        .count();
    assert!(sample.len() >= 3000, "only {} positions", sample.len());
    let stuck = sample.iter().filter(|p| movegen::no_legal_moves(p)).count();
    assert!(
        in_check >= sample.len() / 20,
        "only {in_check} positions in check"
    );
    assert!(stuck > 0, "no position without legal moves");
    assert!(black >= sample.len() / 3, "only {black} with Black to move");
}

#[test]
fn is_legal_agrees_with_generator() {
    let mut f = Failures::new("is_legal vs generated legal moves");
    for pos in sample() {
        let legal = movegen::legal_moves(pos);
        let set = move_set(&legal);
        f.check(set.len() == legal.len(), || {
            format!("{pos}: duplicate moves in {legal:?}")
        });
        for from in Square::all() {
            for to in Square::all() {
                let m = Move::new(from, to);
                let gen_has = set.contains(&m);
                f.check(pos.is_legal(m) == gen_has, || {
                    format!("{pos}: {m} generated {gen_has}, is_legal {}", !gen_has)
                });
            }
        }
    }
    f.finish();
}

/// Whether `color`'s king on `board` is attacked, by walking every enemy piece with the reference
/// attack functions. The enemy king attacks like a rook (the flying general); kings never share a
/// rank, so that only ever means along the file.
fn reference_king_attacked(board: &[Option<Piece>; 90], color: Color) -> bool {
    let occ: Bitboard = Square::all()
        .filter(|s| board[s.index()].is_some())
        .collect();
    let king = Square::all()
        .find(|s| board[s.index()] == Some(Piece::new(color, PieceKind::King)))
        .expect("a king");
    Square::all().any(|s| match board[s.index()] {
        Some(p) if p.color != color => match p.kind {
            PieceKind::Rook | PieceKind::King => reference::rook(s, occ).has(king),
            PieceKind::Cannon => reference::cannon(s, occ).has(king),
            PieceKind::Horse => reference::horse(s, occ).has(king),
            PieceKind::Pawn => reference::pawn(p.color, s).has(king),
            PieceKind::Advisor | PieceKind::Elephant => false,
        },
        _ => false,
    })
}

/// The legal moves by the rules, slowly: every reference target, kept if the mover's king is not
/// attacked on the board after the move. In from, to order.
fn reference_legal_moves(pos: &Position) -> Vec<Move> {
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let ours = pos.color_bb(us);
    let theirs = pos.color_bb(us.flip());
    let board: [Option<Piece>; 90] =
        std::array::from_fn(|i| pos.piece_at(Square::from_index(i as u8)));
    let mut out = Vec::new();
    for from in ours {
        let targets = match board[from.index()].expect("our piece").kind {
            PieceKind::King => reference::king(from),
            PieceKind::Advisor => reference::advisor(from),
            PieceKind::Elephant => reference::elephant(from, occ),
            PieceKind::Horse => reference::horse(from, occ),
            PieceKind::Rook => reference::rook(from, occ),
            PieceKind::Cannon => {
                (reference::rook(from, occ) - occ) | (reference::cannon(from, occ) & theirs)
            }
            PieceKind::Pawn => reference::pawn(us, from),
        };
        for to in targets - ours {
            let mut after = board;
            after[to.index()] = after[from.index()].take();
            if !reference_king_attacked(&after, us) {
                out.push(Move::new(from, to));
            }
        }
    }
    out
}

#[test]
fn generator_matches_reference_rules() {
    let mut f = Failures::new("generator vs reference rules");
    for pos in sample() {
        let expected = move_set(&reference_legal_moves(pos));
        let actual = move_set(&movegen::legal_moves(pos));
        f.check(actual == expected, || {
            let mut missing: Vec<_> = expected.difference(&actual).collect();
            let mut extra: Vec<_> = actual.difference(&expected).collect();
            missing.sort_by_key(|m| m.to_string());
            extra.sort_by_key(|m| m.to_string());
            format!("{pos}: missing {missing:?}, extra {extra:?}")
        });
    }
    f.finish();
}

#[test]
fn captures_and_quiets_split_legal_moves() {
    let mut f = Failures::new("Captures and Quiets vs Legal");
    for pos in sample() {
        let legal = move_set(&generated(pos, GenType::Legal));
        let captures = generated(pos, GenType::Captures);
        let quiets = generated(pos, GenType::Quiets);
        let them = pos.side_to_move().flip();
        for &m in &captures {
            let victim = pos.captured(m);
            f.check(victim.is_some_and(|p| p.color == them), || {
                format!("{pos}: capture {m} lands on {victim:?}")
            });
        }
        for &m in &quiets {
            f.check(pos.piece_at(m.to()).is_none(), || {
                format!("{pos}: quiet move {m} lands on a piece")
            });
        }
        let captures = move_set(&captures);
        let quiets = move_set(&quiets);
        f.check(captures.is_disjoint(&quiets), || {
            format!("{pos}: a move is both a capture and a quiet move")
        });
        let union: HashSet<Move> = captures.union(&quiets).copied().collect();
        f.check(union == legal, || {
            format!("{pos}: captures ∪ quiets {union:?} differ from legal {legal:?}")
        });
    }
    f.finish();
}

#[test]
fn count_legal_matches_list() {
    let mut f = Failures::new("count_legal vs legal_moves");
    for pos in sample() {
        let (count, listed) = (movegen::count_legal(pos), movegen::legal_moves(pos).len());
        f.check(count == listed as u64, || {
            format!("{pos}: count_legal {count}, legal_moves {listed}")
        });
        f.check(movegen::no_legal_moves(pos) == (listed == 0), || {
            format!("{pos}: no_legal_moves disagrees with {listed} moves")
        });
    }
    f.finish();
}

#[test]
fn incremental_state_after_every_move() {
    let mut f = Failures::new("incremental state after play");
    for pos in sample() {
        f.check(pos.key() == pos.recompute_key(), || {
            format!("{pos}: key differs from recomputed key")
        });
        for &m in &movegen::legal_moves(pos) {
            let mut child = pos.clone();
            let captured = child.play(m);
            f.check(captured == pos.captured(m), || {
                format!("{pos}: {m} returned {captured:?}")
            });
            f.check(child.key() == child.recompute_key(), || {
                format!("{pos}: after {m} key differs from recomputed key")
            });
            f.check(pos.key_after(m) == child.key(), || {
                format!("{pos}: key_after({m}) differs from the key after playing it")
            });
            let us = child.side_to_move();
            let checkers = child.attackers_to(child.king(us), us.flip(), child.occupied());
            f.check(child.checkers() == checkers, || {
                format!("{pos}: after {m} checkers differ from recomputed")
            });
            // Equality covers every field, so this compares all incremental state with a rebuild.
            let rebuilt = fen::parse_lenient(&fen::format(&child)).map(|(p, _)| p);
            f.check(rebuilt.as_ref() == Ok(&child), || {
                format!("{pos}: after {m} the position differs from its FEN rebuilt: {rebuilt:?}")
            });
        }
    }
    f.finish();
}

#[test]
fn fen_round_trip() {
    let mut f = Failures::new("FEN round trip");
    for pos in sample() {
        let text = fen::format(pos);
        let parsed = fen::parse_lenient(&text).map(|(p, _)| p);
        f.check(parsed.as_ref() == Ok(pos), || {
            format!("{text}: parses to {parsed:?}")
        });
        f.check(pos.to_string() == text, || {
            format!("{text}: Display differs")
        });
    }
    f.finish();
}

#[test]
fn reflections_keep_moves_and_perft() {
    let mut f = Failures::new("mirror and color_swap");
    for pos in sample() {
        let legal = move_set(&movegen::legal_moves(pos));
        let n = perft(pos, 2);
        let mirror = ("mirror", pos.mirror(), Move::mirror as fn(Move) -> Move);
        let color_swap = (
            "color_swap",
            pos.color_swap(),
            Move::flip as fn(Move) -> Move,
        );
        for (name, reflected, map) in [mirror, color_swap] {
            let moves: HashSet<Move> = legal.iter().map(|&m| map(m)).collect();
            f.check(move_set(&movegen::legal_moves(&reflected)) == moves, || {
                format!("{pos}: {name} {reflected} has different moves")
            });
            let rn = perft(&reflected, 2);
            f.check(rn == n, || {
                format!("{pos}: perft(2) {n}, {name} {reflected} perft(2) {rn}")
            });
        }
        f.check(pos.mirror().mirror() == *pos, || {
            format!("{pos}: mirror twice")
        });
        f.check(pos.color_swap().color_swap() == *pos, || {
            format!("{pos}: color_swap twice")
        });
    }
    f.finish();
}

/// Occupancies to test attack functions on: every sampled position's, and random boards from
/// sparse to dense.
fn occupancies() -> Vec<Bitboard> {
    let mut rng = Rng::new(0x0cc0_u64);
    let mut out: Vec<Bitboard> = sample().iter().step_by(4).map(|p| p.occupied()).collect();
    for i in 0..600 {
        let mut random = || Bitboard(rng.next_u64() as u128 | (rng.next_u64() as u128) << 64);
        let (a, b, c) = (random(), random(), random());
        let bits = match i % 4 {
            0 => a & b & c,
            1 => a & b,
            2 => a,
            _ => a | b,
        };
        out.push(bits & Bitboard::FULL);
    }
    out.push(Bitboard::EMPTY);
    out.push(Bitboard::FULL);
    out
}

#[test]
fn horse_attackers_mirror_horse_attacks() {
    let mut f = Failures::new("horse_attackers_to vs horse_attacks");
    for occ in occupancies() {
        let attacks: Vec<Bitboard> = Square::all()
            .map(|h| attacks::horse_attacks(h, occ))
            .collect();
        for sq in Square::all() {
            let attackers = attacks::horse_attackers_to(sq, occ);
            for h in Square::all() {
                let forward = attacks[h.index()].has(sq);
                f.check(attackers.has(h) == forward, || {
                    format!("occupancy {occ:?}: horse on {h} attacks {sq}: {forward}, attackers_to says {}", !forward)
                });
            }
        }
    }
    f.finish();
}

#[test]
fn attack_tables_match_reference() {
    let mut f = Failures::new("attack tables vs reference");
    for occ in occupancies().into_iter().step_by(3) {
        for sq in Square::all() {
            let pairs = [
                (
                    "rook",
                    attacks::rook_attacks(sq, occ),
                    reference::rook(sq, occ),
                ),
                (
                    "cannon",
                    attacks::cannon_attacks(sq, occ),
                    reference::cannon(sq, occ),
                ),
                (
                    "horse",
                    attacks::horse_attacks(sq, occ),
                    reference::horse(sq, occ),
                ),
                (
                    "elephant",
                    attacks::elephant_attacks(sq, occ),
                    reference::elephant(sq, occ),
                ),
                (
                    "horse attackers",
                    attacks::horse_attackers_to(sq, occ),
                    reference::horse_attackers(sq, occ),
                ),
            ];
            for (name, fast, slow) in pairs {
                f.check(fast == slow, || {
                    format!("{name} on {sq}, occupancy {occ:?}: {fast:?} vs reference {slow:?}")
                });
            }
        }
    }
    f.finish();
}
