//! Fuzzes the text parsers (`fen::parse`, `fen::parse_lenient`, `Move::parse` in both rank styles,
//! `str::parse::<Move>`) with random strings and mutations of valid FENs and moves: nothing may
//! panic, every error has a message, whatever parses writes back to text that parses the same, and
//! a position that parses can have its moves generated and be reflected.

mod common;

use common::{Rng, perft_fens};
use std::panic::{AssertUnwindSafe, catch_unwind};
use xq::moves::{Move, RankStyle};
use xq::{fen, movegen};

/// Inputs per test.
const INPUTS: usize = 200_000;

/// Characters the mutations draw from: the FEN and move alphabets (ASCII), then a spread of ASCII
/// and multi-byte characters (accents, CJK piece names, full-width digits, odd whitespace, emoji).
const FEN_CHARS: &str = "rnbakcpRNBAKCPehEH123456789/ -wb";
const MOVE_CHARS: &str = "abcdefghiABCDEFGHI0123456789-";
const ODD_CHARS: &[char] = &[
    '\0',
    '\t',
    '\n',
    '\r',
    '\x0b',
    '\x0c',
    '\x7f',
    '0',
    '/',
    ' ',
    '-',
    '+',
    '.',
    'x',
    'j',
    'z',
    'q',
    'é',
    'ß',
    '¹',
    '²',
    '½',
    '車',
    '馬',
    '炮',
    '帥',
    '將',
    '兵',
    '卒',
    '１',
    '９',
    '　',
    '\u{a0}',
    '\u{85}',
    '\u{2028}',
    '\u{200b}',
    '\u{feff}',
    '\u{301}',
    '\u{fffd}',
    '🀄',
    '😀',
    '\u{10ffff}',
];

fn random_char(rng: &mut Rng) -> char {
    match rng.below(6) {
        0 | 1 => *rng.pick(FEN_CHARS.as_bytes()) as char,
        2 => *rng.pick(MOVE_CHARS.as_bytes()) as char,
        3 => *rng.pick(ODD_CHARS),
        4 => (rng.below(128) as u8) as char,
        _ => loop {
            // Any scalar value; surrogates are not chars and are drawn again.
            if let Some(c) = char::from_u32(rng.below(0x11_0000) as u32) {
                break c;
            }
        },
    }
}

fn random_string(rng: &mut Rng, max_len: usize) -> String {
    let len = rng.below(max_len + 1);
    (0..len).map(|_| random_char(rng)).collect()
}

/// One to four random edits of `seed`, on characters or on bytes.
fn mutate(rng: &mut Rng, seed: &str, seeds: &[String]) -> String {
    let mut chars: Vec<char> = seed.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let n = chars.len();
        match rng.below(9) {
            0 if n > 0 => {
                let i = rng.below(n);
                chars[i] = random_char(rng);
            }
            1 if n > 0 => {
                chars.remove(rng.below(n));
            }
            2 => {
                let i = rng.below(n + 1);
                chars.insert(i, random_char(rng));
            }
            3 if n > 1 => {
                let (i, j) = (rng.below(n), rng.below(n));
                chars.swap(i, j);
            }
            4 => chars.truncate(rng.below(n + 1)),
            5 if n > 0 => {
                // Repeat a slice.
                let i = rng.below(n);
                let j = i + rng.below(n - i) + 1;
                let copy: Vec<char> = chars[i..j].to_vec();
                let at = rng.below(n + 1);
                chars.splice(at..at, copy);
            }
            6 => {
                // Splice in the tail of another seed.
                let other: Vec<char> = rng.pick(seeds).chars().collect();
                let from = rng.below(other.len() + 1);
                chars.truncate(rng.below(n + 1));
                chars.extend_from_slice(&other[from..]);
            }
            7 => {
                // Flip one bit of the UTF-8 bytes; invalid sequences become U+FFFD.
                let mut bytes = chars.iter().collect::<String>().into_bytes();
                if !bytes.is_empty() {
                    let i = rng.below(bytes.len());
                    bytes[i] ^= 1 << rng.below(8);
                }
                chars = String::from_utf8_lossy(&bytes).chars().collect();
            }
            _ => {
                // Replace a field (the text after a space or slash, up to the next) with random text.
                let is_sep = |c: &char| *c == ' ' || *c == '/';
                let seps: Vec<usize> = (0..n).filter(|&i| is_sep(&chars[i])).collect();
                let start = if seps.is_empty() {
                    0
                } else {
                    rng.pick(&seps) + 1
                };
                let end = chars[start..]
                    .iter()
                    .position(is_sep)
                    .map_or(n, |p| start + p);
                let field: Vec<char> = random_string(rng, 6).chars().collect();
                chars.splice(start..end, field);
            }
        }
    }
    chars.into_iter().collect()
}

/// Outcomes worth counting, so that a test can show its inputs reached the interesting paths.
#[derive(Default)]
struct Tally {
    fen_ok: usize,
    move_ok: usize,
}

/// Runs every parser on `input`, checking the properties; returns a description of what went
/// wrong, if anything.
fn check_input(input: &str, tally: &mut Tally) -> Result<(), String> {
    // FEN, strict.
    let strict = fen::parse(input);
    match &strict {
        Ok(pos) => {
            tally.fen_ok += 1;
            let text = fen::format(pos);
            let again = fen::parse(&text);
            if again.as_ref() != Ok(pos) {
                return Err(format!(
                    "strict FEN round trip: {text:?} reads back as {again:?}"
                ));
            }
        }
        Err(e) if e.to_string().is_empty() => return Err(format!("empty message for {e:?}")),
        Err(_) => {}
    }
    // FEN, lenient: accepts a superset, and agrees with strict where strict accepts.
    match fen::parse_lenient(input) {
        Ok((pos, warnings)) => {
            let text = fen::format(&pos);
            match fen::parse_lenient(&text) {
                Ok((again, again_warnings)) if again == pos && again_warnings == warnings => {}
                other => {
                    return Err(format!(
                        "lenient FEN round trip: {text:?} reads back as {other:?}"
                    ));
                }
            }
            // A position read from outside must be safe to generate moves for and to reflect.
            let moves = movegen::legal_moves(&pos);
            if movegen::count_legal(&pos) != moves.len() as u64 {
                return Err(format!("count_legal differs from legal_moves in {text}"));
            }
            let (mirrored, swapped) = (pos.mirror(), pos.color_swap());
            if mirrored.mirror() != pos || swapped.color_swap() != pos {
                return Err(format!("reflecting twice changes {text}"));
            }
            if let Some(w) = warnings.iter().find(|w| w.to_string().is_empty()) {
                return Err(format!("empty message for warning {w:?}"));
            }
            match &strict {
                Ok(p) if *p != pos || !warnings.is_empty() => {
                    return Err("strict and lenient FEN readers disagree".into());
                }
                Err(e) if warnings.is_empty() => {
                    return Err(format!(
                        "strict rejects ({e}) what lenient accepts without warnings"
                    ));
                }
                _ => {}
            }
        }
        Err(e) => {
            if e.to_string().is_empty() {
                return Err(format!("empty message for {e:?}"));
            }
            if let Ok(p) = &strict {
                return Err(format!("lenient rejects ({e}) what strict accepts: {p}"));
            }
        }
    }
    // Moves, in both rank styles.
    for style in [RankStyle::ZeroToNine, RankStyle::OneToTen] {
        match Move::parse(input, style) {
            Ok(m) => {
                tally.move_ok += 1;
                let text = m.text(style);
                let again = Move::parse(&text, style);
                if again != Ok(m) {
                    return Err(format!(
                        "{style:?} move round trip: {text:?} reads back as {again:?}"
                    ));
                }
            }
            Err(e) if e.to_string().is_empty() => return Err(format!("empty message for {e:?}")),
            Err(_) => {}
        }
    }
    let from_str = input.parse::<Move>();
    if from_str != Move::parse(input, RankStyle::ZeroToNine) {
        return Err(format!("str::parse gives {from_str:?}, unlike Move::parse"));
    }
    Ok(())
}

/// Checks every input from `inputs`, catching panics, and fails listing the first few bad inputs.
fn run(what: &str, mut inputs: impl FnMut(usize) -> String) -> Tally {
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for i in 0..INPUTS {
        let input = inputs(i);
        match catch_unwind(AssertUnwindSafe(|| check_input(&input, &mut tally))) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => failures.push(format!("input {input:?}: {e}")),
            Err(panic) => {
                let message = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                failures.push(format!("input {input:?}: panicked: {message}"));
            }
        }
        if failures.len() >= 10 {
            break;
        }
    }
    assert!(failures.is_empty(), "{what}:\n{}", failures.join("\n"));
    tally
}

/// Valid FENs in the forms the reader accepts: as written, without counters, with the `r` side
/// letter and the E/H piece letters.
fn fen_seeds() -> Vec<String> {
    let mut seeds = perft_fens();
    seeds.push(fen::START_FEN.to_string());
    let mut variants = Vec::new();
    for s in &seeds {
        let board = s.split(' ').next().unwrap_or_default();
        variants.push(format!("{board} b"));
        variants.push(format!("{board} r - - 0 1"));
        variants.push(format!("{board} w 12 40"));
        variants.push(board.replace('B', "E").replace('n', "h"));
    }
    seeds.extend(variants);
    seeds
}

/// Valid move texts: every from→to pair in a sample, in both rank styles, with and without `-`.
fn move_seeds() -> Vec<String> {
    let mut rng = Rng::new(0x4d0e);
    let mut seeds = vec![
        "h2e2".to_string(),
        "H2-E2".to_string(),
        "a10a9".to_string(),
        "i9i0".to_string(),
    ];
    for _ in 0..200 {
        let (from, to) = (rng.below(90) as u8, rng.below(90) as u8);
        if from == to {
            continue;
        }
        let m = Move::new(
            xq::square::Square::from_index(from),
            xq::square::Square::from_index(to),
        );
        seeds.push(m.text(RankStyle::ZeroToNine));
        seeds.push(m.text(RankStyle::OneToTen));
        let t = m.text(RankStyle::OneToTen).to_uppercase();
        let split = if t.as_bytes()[2].is_ascii_digit() {
            3
        } else {
            2
        };
        seeds.push(format!("{}-{}", &t[..split], &t[split..]));
    }
    seeds
}

#[test]
fn mutated_fens() {
    let seeds = fen_seeds();
    let mut rng = Rng::new(0xfe11);
    let tally = run("mutated FENs", |i| {
        // Keep a few inputs exactly valid so the round trip paths run often.
        if i % 16 == 0 {
            rng.pick(&seeds).clone()
        } else {
            let seed = rng.pick(&seeds).clone();
            mutate(&mut rng, &seed, &seeds)
        }
    });
    assert!(
        tally.fen_ok > INPUTS / 20,
        "only {} FENs parsed",
        tally.fen_ok
    );
}

#[test]
fn mutated_moves() {
    let seeds = move_seeds();
    let mut rng = Rng::new(0x3017e);
    let tally = run("mutated moves", |_| {
        let seed = rng.pick(&seeds).clone();
        mutate(&mut rng, &seed, &seeds)
    });
    assert!(
        tally.move_ok > INPUTS / 20,
        "only {} moves parsed",
        tally.move_ok
    );
}

#[test]
fn random_strings() {
    let mut rng = Rng::new(0xabcd);
    run("random strings", |i| {
        let max_len = if i % 4 == 0 { 200 } else { 12 };
        random_string(&mut rng, max_len)
    });
}
