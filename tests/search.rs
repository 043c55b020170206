//! Search behaviour: mates are found, WXF repetition rulings steer the choice of move, and the
//! bench node count matches its recorded signature.

use xq::engine::Engine;
use xq::fen;
use xq::moves::Move;
use xq::search::score::REPETITION_LOSS;
use xq::search::time::Limits;

fn search(fen_text: &str, moves: &[&str], depth: u32) -> xq::search::SearchResult {
    let mut engine = Engine::new();
    let (pos, _) = fen::parse_lenient(fen_text).unwrap();
    let moves: Vec<Move> = moves.iter().map(|m| m.parse().unwrap()).collect();
    engine.set_position(pos, &moves).unwrap();
    engine
        .search_blocking(Limits::to_depth(depth), &mut |_| {})
        .expect("no move limits")
}

#[test]
fn finds_mate_in_one() {
    // The rook on a8 holds rank 8; the other rook mates on rank 9.
    let result = search("3k5/R8/9/9/9/9/9/9/9/1R2K4 w", &[], 4);
    assert_eq!(result.score.mate_moves(), Some(1), "{result:?}");
    let pos = fen::parse("3k5/R8/9/9/9/9/9/9/9/1R2K4 w").unwrap();
    let mut after = pos.clone();
    after.play(result.best.unwrap());
    assert!(xq::movegen::no_legal_moves(&after), "{result:?}");
}

#[test]
fn no_legal_move_reports_none() {
    // Black is checkmated: no best move.
    let result = search("1R1k5/R8/9/9/9/9/9/9/9/4K4 b", &[], 3);
    assert_eq!(result.best, None);
}

#[test]
fn avoids_completing_a_perpetual_check() {
    // WXF diagram 1: Red's rook checks on h9 and h8 while Black's advisor steps back and forth.
    // After two full cycles a third check would be a perpetual check, which loses; Red must pick
    // something else even though it is worse on the board.
    let fen_text = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w";
    let cycles = [
        "h8h9", "f9f8", "h9h8", "f8f9", "h8h9", "f9f8", "h9h8", "f8f9",
    ];
    let result = search(fen_text, &cycles, 8);
    assert_ne!(result.best.unwrap().to_string(), "h8h9", "{result:?}");
    assert!(result.score.0 > -REPETITION_LOSS + 500, "{result:?}");
    // Before any cycle, the same check is a fine move.
    let fresh = search(fen_text, &[], 8);
    assert!(fresh.score.0 > -REPETITION_LOSS + 500, "{fresh:?}");
}

#[test]
fn wins_by_the_rules_when_breaking_off_and_going_on_both_lose() {
    // WXF diagram 34 (case 50): Black's cannon dodges Red's rook between h7 and c7, each time
    // threatening mate on the back rank; Red may not chase the unprotected cannon for ever, and
    // breaking off allows the mate. After two full cycles Black goes on (h7c7) and wins by the
    // rules: the position recurs a third time with Red's perpetual chase against Black's idle moves.
    let fen_text = "3aka3/7R1/7c1/9/9/9/9/9/4A4/3AK1p2 b";
    let cycles = [
        "h7c7", "h8c8", "c7h7", "c8h8", "h7c7", "h8c8", "c7h7", "c8h8",
    ];
    let black = search(fen_text, &cycles, 8);
    assert_eq!(black.best.unwrap().to_string(), "h7c7", "{black:?}");
    assert!(black.score.0 >= REPETITION_LOSS - 10, "{black:?}");
    // One ply later Red sees it has lost whatever it does: the chase loses by the rules and
    // anything else is mated, which is worse.
    let mut moves = cycles.to_vec();
    moves.push("h7c7");
    let red = search(fen_text, &moves, 8);
    assert!(red.score.0 <= -REPETITION_LOSS + 10, "{red:?}");
}

#[test]
fn same_choice_with_colours_swapped() {
    let pos = fen::parse_lenient("c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w")
        .unwrap()
        .0
        .color_swap();
    let cycles: Vec<Move> = [
        "h8h9", "f9f8", "h9h8", "f8f9", "h8h9", "f9f8", "h9h8", "f8f9",
    ]
    .iter()
    .map(|m| m.parse::<Move>().unwrap().flip())
    .collect();
    let mut engine = Engine::new();
    engine.set_position(pos, &cycles).unwrap();
    let result = engine
        .search_blocking(Limits::to_depth(8), &mut |_| {})
        .expect("no move limits");
    assert_ne!(
        result.best.unwrap(),
        "h8h9".parse::<Move>().unwrap().flip(),
        "{result:?}"
    );
    assert!(result.score.0 > -REPETITION_LOSS + 500, "{result:?}");
}

#[test]
fn bench_signature() {
    let expected: u64 = include_str!("../bench/signature")
        .trim()
        .parse()
        .expect("a number in bench/signature");
    let result = xq::bench::run(xq::bench::DEFAULT_DEPTH);
    assert_eq!(
        result.nodes, expected,
        "bench signature changed: update bench/signature and say `Bench: N` in the commit"
    );
}
