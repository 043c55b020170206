//! Tests of the opening book: counts from a tiny collection, the mirror fold, the probe, the
//! choice and its repetition guard, and the binary form.

use super::build::{BuildSettings, Builder};
use super::cli::losing_moves;
use super::*;
use crate::fen;
use crate::game::Game;
use rand::SeedableRng;
use rand::rngs::SmallRng;

const GAMES: &str = "\
[Result \"1-0\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 1-0\n\n\
[Result \"0-1\"]\n\n1. h2e2 h9g7 2. h0g2 g6g5 0-1\n\n\
[Result \"1/2-1/2\"]\n\n1. b2e2 b9c7 2. b0c2 1/2-1/2\n\n\
[Result \"*\"]\n\n1. c3c4 *\n";

fn book_of(text: &str, settings: BuildSettings) -> Book {
    let mut builder = Builder::default();
    builder.add_file("t.pgn", text.as_bytes(), &settings);
    assert!(builder.skipped.is_empty(), "{:?}", builder.skipped);
    builder.finish(&settings)
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

fn all() -> BuildSettings {
    BuildSettings {
        max_ply: 100,
        min_games: 1,
    }
}

#[test]
fn a_tiny_collection_gives_exact_counts() {
    let book = book_of(GAMES, all());
    let start = Position::startpos();
    // h2e2 and its mirror b2e2 are one move in the symmetric start position: 3 games, 1 won,
    // 1 drawn, 1 lost for Red; c3c4 once, result unknown.
    let moves = book.probe(&start);
    assert_eq!(moves.len(), 2, "{moves:?}");
    let central = moves[0];
    assert!(central.mv == mv("h2e2") || central.mv == mv("b2e2"));
    assert_eq!(
        (central.games, central.wins, central.draws, central.losses),
        (3, 1, 1, 1)
    );
    assert_eq!((moves[1].mv, moves[1].games), (mv("c3c4"), 1));
    assert_eq!(moves[1].wins + moves[1].draws + moves[1].losses, 0);
    assert_eq!(moves[1].score(), 0.5);
    // After h2e2 the reply h9g7 was played twice (Black won one, lost one); after the mirror
    // b2e2, the mirror reply b9c7 once. Each is found from either side.
    let mut pos = start.clone();
    pos.play(mv("h2e2"));
    let replies = book.probe(&pos);
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert_eq!(replies[0].mv, mv("h9g7"));
    assert_eq!(
        (
            replies[0].games,
            replies[0].wins,
            replies[0].losses,
            replies[0].draws
        ),
        (3, 1, 1, 1)
    );
    let mut mirrored = start.clone();
    mirrored.play(mv("b2e2"));
    let replies = book.probe(&mirrored);
    assert_eq!(replies[0].mv, mv("b9c7"));
    assert_eq!(replies[0].games, 3);
    // Deeper, the lines differ: g6g5 only after h2e2 h9g7 h0g2.
    let mut pos =
        fen::parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w").unwrap();
    for m in ["h2e2", "h9g7", "h0g2"] {
        pos.play(mv(m));
    }
    let moves: Vec<(Move, u32)> = book.probe(&pos).iter().map(|m| (m.mv, m.games)).collect();
    assert_eq!(moves, [(mv("g6g5"), 1), (mv("i9h9"), 1)]);
}

#[test]
fn limits_drop_rare_and_late_moves() {
    let book = book_of(
        GAMES,
        BuildSettings {
            max_ply: 2,
            min_games: 2,
        },
    );
    // Kept: the central cannon (3 games) and the horse reply (3); not c3c4 (1 game) nor any
    // third ply.
    assert_eq!(book.entries().len(), 2, "{:?}", book.entries());
    assert!(book.entries().iter().all(|e| e.games == 3));
}

#[test]
fn the_binary_form_round_trips_and_refuses_damage() {
    let book = book_of(GAMES, all());
    let bytes = format::encode(&book);
    assert_eq!(
        bytes.len(),
        format::HEADER_BYTES + format::ENTRY_BYTES * book.entries().len()
    );
    assert_eq!(format::decode(&bytes, "b").unwrap(), book);
    let problem = |bytes: &[u8]| format::decode(bytes, "b.xqb").unwrap_err().to_string();
    assert!(problem(b"garbage").contains("not an xq opening book"));
    assert!(problem(&bytes[..bytes.len() - 1]).contains("cut short"));
    let mut version = bytes.clone();
    version[8] = 9;
    assert!(problem(&version).contains("version 9"));
    let mut keys = bytes.clone();
    keys[16] ^= 1;
    assert!(problem(&keys).contains("other position keys"));
    let mut order = bytes.clone();
    let (h, e) = (format::HEADER_BYTES, format::ENTRY_BYTES);
    let (first, second) = order[h..h + 2 * e].split_at_mut(e);
    first.swap_with_slice(second);
    assert!(problem(&order).contains("out of order"));
    let mut counts = bytes.clone();
    counts[h + 16] = 200;
    assert!(problem(&counts).contains("more results than games"));
    assert!(problem(b"").starts_with("b.xqb: "));
}

#[test]
fn the_choice_follows_variety_and_never_repeats_into_a_loss() {
    let book = Book::embedded();
    let start = Position::startpos();
    let mut rng = SmallRng::seed_from_u64(1);
    // Variety 50: several first moves over many draws, each one the book offers.
    let offered: Vec<Move> = book
        .candidates(&start, &[], &[], DEFAULT_VARIETY)
        .iter()
        .map(|(m, _)| m.mv)
        .collect();
    assert!(offered.len() >= 2, "{offered:?}");
    let mut seen = std::collections::HashSet::new();
    for _ in 0..200 {
        let m = book
            .choose(&start, &[], &[], DEFAULT_VARIETY, &mut rng)
            .unwrap();
        // The start position is its own mirror: either side's move may come.
        assert!(offered.contains(&m.mv) || offered.contains(&m.mv.mirror()));
        seen.insert(m.mv);
    }
    assert_eq!(seen.len(), 2 * offered.len(), "{seen:?}");
    // Variety 0 favours the most played move strongly; moves to avoid are never chosen.
    let main = book.probe(&start)[0].mv;
    let main_share = (0..200)
        .map(|_| book.choose(&start, &[], &[], 0, &mut rng).unwrap().mv)
        .filter(|&m| m == main || m == main.mirror())
        .count();
    assert!(main_share > 150, "{main_share}");
    for _ in 0..50 {
        let m = book.choose(&start, &[main, main.mirror()], &[], 50, &mut rng);
        assert!(m.is_some_and(|m| m.mv != main && m.mv != main.mirror()));
    }
    // A position the book does not know: no move.
    let unknown = fen::parse("3k5/9/9/9/9/9/9/9/4R4/4K4 w").unwrap();
    assert_eq!(book.choose(&unknown, &[], &[], 50, &mut rng), None);
}

#[test]
fn a_book_move_that_loses_by_repetition_is_not_chosen() {
    // A book whose only move in Diagram 1's position is the perpetual check h8h9, and a game
    // in which Red has already checked back and forth: h8h9 would now lose by repetition.
    let start = fen::parse("c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w").unwrap();
    let mut game = Game::new(start.clone());
    for m in [
        "h8h9", "f9f8", "h9h8", "f8f9", "h8h9", "f9f8", "h9h8", "f8f9",
    ] {
        game.push(mv(m)).unwrap();
    }
    let (key, stored) = canonical(game.position(), mv("h8h9"));
    let book = Book::from_entries(vec![Entry {
        key,
        mv: stored,
        games: 10,
        wins: 10,
        draws: 0,
        losses: 0,
    }]);
    assert_eq!(book.probe(game.position())[0].mv, mv("h8h9"));
    let losing = losing_moves(&game);
    assert!(
        losing.contains(&mv("h8h9")),
        "the judge rules h8h9 a losing repetition here"
    );
    let mut rng = SmallRng::seed_from_u64(2);
    assert_eq!(
        book.choose(game.position(), &[], &losing, 50, &mut rng),
        None
    );
    // From the start of that game the same move is fine.
    let fresh = Game::new(start);
    assert_eq!(
        book.choose(fresh.position(), &[], &losing_moves(&fresh), 50, &mut rng)
            .map(|m| m.mv),
        Some(mv("h8h9"))
    );
}

#[test]
fn the_built_in_book_is_the_shared_collection() {
    let book = Book::embedded();
    assert!(book.entries().len() > 10_000, "{}", book.entries().len());
    // The most played first move of the master games is the central cannon.
    let first = book.probe(&Position::startpos())[0];
    assert!(first.mv == mv("h2e2") || first.mv == mv("b2e2"));
    assert!(first.games > 10_000);
}
