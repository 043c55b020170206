//! Fuzzes every game-record reader with mutated inputs: pieces of the sample files (cut off,
//! bytes flipped, inserted or deleted, lines shuffled, re-encoded), random bytes, mutated XQF
//! headers and move areas, and single move tokens of every notation against random positions.
//! Nothing may panic, and every error must name its file.
//!
//! The run is seeded and reproducible; `XQ_FUZZ_INPUTS=N` changes the number of inputs per kind.

mod common;

use common::Rng;
use std::panic::{AssertUnwindSafe, catch_unwind};
use xq::movegen::legal_moves;
use xq::moves::RankStyle;
use xq::position::Position;
use xq::record::describe::{write_chinese, write_san, write_wxf};
use xq::record::notation::{Notation, resolve};
use xq::referee::Rules;
use xq::referee::judge_bytes;

fn inputs(default: usize) -> usize {
    std::env::var("XQ_FUZZ_INPUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

const GAMES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/games/");

fn sample(path: &str) -> Vec<u8> {
    std::fs::read(format!("{GAMES}{path}")).unwrap_or_else(|e| panic!("{path}: {e}"))
}

const TEXT_SAMPLES: [&str; 9] = [
    "ccpd/masters_national_20.utf8.pgn",
    "ccpd/big5/national_00000001.big5.pgn",
    "wukong/bulk_games_uci_15games.pgn",
    "wukong/xqdb_international_15games.pgn",
    "wukong/116.html",
    "wukong/xboard/wukongjs_vs_maxqi_checkmate.pgn",
    "xqbase/ccgc_2006_5games.utf8.pgn",
    "xqbase/xqf/SAMPLE.PGN",
    "xboard/fsf_vs_maxqi_stalemate.pgn",
];

/// Bytes that matter to the readers: PGN punctuation, digits, notation letters, UTF-8 and GBK
/// lead bytes.
const INTERESTING: &[u8] =
    b"[]{}()\";.-+=*/0123456789abcdefghiKAEHRCPBN \n\r\t\x00\xff\xe4\xe8\xa1\xb3\xef\xbc";

fn mutate(rng: &mut Rng, data: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(4) {
        let len = data.len();
        match rng.below(7) {
            0 if len > 0 => {
                let i = rng.below(len);
                data[i] ^= 1 << rng.below(8);
            }
            1 => {
                let i = rng.below(len + 1);
                data.insert(i, INTERESTING[rng.below(INTERESTING.len())]);
            }
            2 if len > 0 => {
                let i = rng.below(len);
                let n = 1 + rng.below(8.min(len - i));
                data.drain(i..i + n);
            }
            3 => data.truncate(rng.below(len + 1)),
            4 if len > 0 => {
                let i = rng.below(len);
                data[i] = INTERESTING[rng.below(INTERESTING.len())];
            }
            5 if len > 8 => {
                // Copy a chunk elsewhere (duplicated tags, moves, blocks).
                let i = rng.below(len - 4);
                let n = 1 + rng.below(64.min(len - i));
                let chunk = data[i..i + n].to_vec();
                let at = rng.below(len);
                data.splice(at..at, chunk);
            }
            _ => {}
        }
    }
}

fn check(name: &str, bytes: &[u8], config: Rules) -> Result<(), String> {
    let reports = catch_unwind(AssertUnwindSafe(|| judge_bytes(name, bytes, config)))
        .map_err(|_| format!("panic on {:?}", String::from_utf8_lossy(bytes)))?;
    if reports.is_empty() {
        return Err(format!(
            "no report for {:?}",
            String::from_utf8_lossy(bytes)
        ));
    }
    for r in &reports {
        if let Some(e) = r.error() {
            let text = e.to_string();
            if !text.starts_with(name) || text.len() <= name.len() + 2 {
                return Err(format!("error without its file: {text:?}"));
            }
        }
        if r.moves().len() > r.move_texts().len() {
            return Err(format!("more moves than tokens in {name}"));
        }
    }
    Ok(())
}

const CONFIG: Rules = Rules::arbiter(3);

#[test]
fn text_readers_survive_mutations() {
    let samples: Vec<Vec<u8>> = TEXT_SAMPLES.iter().map(|p| sample(p)).collect();
    let mut rng = Rng::new(0x5EED_0001);
    for i in 0..inputs(150_000) {
        let source = &samples[rng.below(samples.len())];
        // A window of the file: usually part of one or two games, sometimes cut mid-character.
        let start = rng.below(source.len());
        let max = if rng.below(20) == 0 { 2_000 } else { 300 };
        let len = 1 + rng.below(max);
        let mut data = source[start..(start + len).min(source.len())].to_vec();
        if rng.below(3) == 0 {
            // Start at a tag so that whole games are read.
            data.splice(0..0, b"[Event \"x\"]\n".iter().copied());
        }
        mutate(&mut rng, &mut data);
        check("fuzz.pgn", &data, CONFIG).unwrap_or_else(|e| panic!("input {i}: {e}"));
    }
}

#[test]
fn random_bytes_and_encodings_survive() {
    let mut rng = Rng::new(0x5EED_0002);
    for i in 0..inputs(80_000) {
        let len = rng.below(200);
        let mut data: Vec<u8> = (0..len)
            .map(|_| {
                if rng.below(2) == 0 {
                    INTERESTING[rng.below(INTERESTING.len())]
                } else {
                    rng.next_u64() as u8
                }
            })
            .collect();
        match rng.below(5) {
            0 => data.splice(0..0, [0xEF, 0xBB, 0xBF]).for_each(drop),
            1 => data.splice(0..0, [0xFF, 0xFE]).for_each(drop),
            2 => data.splice(0..0, b"XQ\x12".iter().copied()).for_each(drop),
            3 => data
                .splice(0..0, b"[DhtmlXQ][DhtmlXQ_movelist]".iter().copied())
                .for_each(drop),
            _ => {}
        }
        check("random.bin", &data, CONFIG).unwrap_or_else(|e| panic!("input {i}: {e}"));
    }
}

/// Hostile shapes of text records: format markers inside comments and tags (they must not change
/// the games read), comments and variations left open, tags cut off, CR-only and mixed line ends.
#[test]
fn markers_in_comments_and_broken_brackets_survive() {
    let base = String::from_utf8(sample("xqbase/ccgc_2006_5games.utf8.pgn")).unwrap();
    let plies = |text: &str| -> Vec<usize> {
        judge_bytes("shape.pgn", text.as_bytes(), CONFIG)
            .iter()
            .map(|r| r.moves().len())
            .collect()
    };
    let expected = plies(&base);
    let spaces: Vec<usize> = base.match_indices(' ').map(|(i, _)| i).collect();
    let mut rng = Rng::new(0x5EED_0006);
    for i in 0..inputs(3_000) {
        // A marker in a comment, after a random space: the same games and moves.
        let at = spaces[rng.below(spaces.len())];
        let marker = ["{see [DhtmlXQ]}", "{[DhtmlXQ_movelist]7747}", "{XQ\u{12}}"][rng.below(3)];
        let text = format!("{} {marker}{}", &base[..at], &base[at..]);
        if !base[..at].ends_with(['{', '[']) && base[..at].rfind('{') <= base[..at].rfind('}') {
            let line = &base[base[..at].rfind('\n').map_or(0, |n| n + 1)..at];
            if !line.trim_start().starts_with('[') {
                assert_eq!(plies(&text), expected, "input {i}: marker at byte {at}");
            }
        }
        // Brackets dropped or added, line ends changed: no panic, errors name their file.
        let mut broken = text.into_bytes();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(broken.len());
            match rng.below(4) {
                0 => broken.insert(at, b"{([\""[rng.below(4)]),
                1 => {
                    if matches!(broken[at], b'}' | b')' | b']' | b'"') {
                        broken.remove(at);
                    }
                }
                _ => {}
            }
        }
        if rng.below(3) == 0 {
            broken = String::from_utf8_lossy(&broken)
                .replace("\r\n", "\r")
                .replace('\n', "\r")
                .into_bytes();
        }
        check("shape.pgn", &broken, CONFIG).unwrap_or_else(|e| panic!("input {i}: {e}"));
    }
}

#[test]
fn xqf_reader_survives_mutations() {
    let samples: Vec<Vec<u8>> = [
        "xqbase/xqf/SAMPLE.XQF",
        "xqbase/xqf/XQFEXAMA.XQF",
        "xqbase/xqf/XQFEXAMB.XQF",
    ]
    .iter()
    .map(|p| sample(p))
    .collect();
    let mut rng = Rng::new(0x5EED_0003);
    for i in 0..inputs(60_000) {
        let mut data = samples[rng.below(samples.len())].clone();
        // Keep the move area short: a cut-off file is one of the cases to survive.
        let keep = 0x400 + rng.below(120);
        if rng.below(4) != 0 {
            data.truncate(keep);
        }
        for _ in 0..1 + rng.below(3) {
            let len = data.len();
            let i = if rng.below(2) == 0 {
                rng.below(0x40.min(len))
            } else {
                rng.below(len)
            };
            data[i] = rng.next_u64() as u8;
        }
        if rng.below(8) == 0 {
            data[2] = [10, 11, 12, 18][rng.below(4)];
        }
        check("fuzz.xqf", &data, CONFIG).unwrap_or_else(|e| panic!("input {i}: {e}"));
    }
}

/// Every legal move written in WXF, Chinese and SAN resolves back to itself; mutated tokens never
/// panic and resolve only to legal moves.
#[test]
fn move_tokens_survive_mutations() {
    let mut rng = Rng::new(0x5EED_0004);
    let notations = [
        Notation::Wxf,
        Notation::Chinese,
        Notation::San(RankStyle::ZeroToNine),
        Notation::San(RankStyle::OneToTen),
        Notation::Coordinate(RankStyle::ZeroToNine),
        Notation::Coordinate(RankStyle::OneToTen),
        Notation::DhtmlXq,
    ];
    let alphabet: Vec<char> = "KAEHRCPBNMGSkaehrcpbn123456789+-.=#xabcdefghi前后後中进進退平车車马馬炮兵卒帅将士象一二三四五六七八九１２３４５＋－＝".chars().collect();
    let mut done = 0;
    let mut pos = Position::startpos();
    while done < inputs(250_000) {
        let moves = legal_moves(&pos);
        if moves.is_empty() || pos.halfmoves() > 150 {
            pos = Position::startpos();
            continue;
        }
        for &m in &moves {
            let written = [
                (write_wxf(&pos, m), Notation::Wxf),
                (write_chinese(&pos, m), Notation::Chinese),
                (
                    write_san(&pos, m, RankStyle::ZeroToNine),
                    Notation::San(RankStyle::ZeroToNine),
                ),
            ];
            for (text, notation) in written {
                let text = text.expect("a legal move has a description");
                let got = resolve(&pos, &text, notation).map(|r| r.mv);
                assert_eq!(got, Ok(m), "{text} in {pos}");
                // Mutate the token and resolve it in every notation.
                let mut chars: Vec<char> = text.chars().collect();
                for _ in 0..1 + rng.below(2) {
                    let c = alphabet[rng.below(alphabet.len())];
                    match rng.below(3) {
                        0 if !chars.is_empty() => {
                            let i = rng.below(chars.len());
                            chars[i] = c;
                        }
                        1 => chars.insert(rng.below(chars.len() + 1), c),
                        _ if !chars.is_empty() => {
                            chars.remove(rng.below(chars.len()));
                        }
                        _ => {}
                    }
                }
                let mutated: String = chars.into_iter().collect();
                for n in notations {
                    let result = catch_unwind(AssertUnwindSafe(|| resolve(&pos, &mutated, n)))
                        .unwrap_or_else(|_| panic!("panic on {mutated:?} ({n:?}) in {pos}"));
                    if let Ok(r) = result {
                        assert!(
                            pos.is_legal(r.mv),
                            "{mutated:?} gave an illegal move in {pos}"
                        );
                    }
                    done += 1;
                }
            }
        }
        pos.play(moves[rng.below(moves.len())]);
    }
}
