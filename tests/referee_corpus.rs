//! The referee over the shared corpus of 22,365 master games (`../shared/games/ccpd/`, CC BY 4.0,
//! read where it lies, not carried in the repository): every game is read with the moves, players
//! and result its manifest lists, none has an ending the referee could rule (no game ends in mate,
//! stalemate or a repetition; none runs 60 moves without a capture to its end) and none contains a
//! threefold repetition. Where the corpus is absent the test says so and checks nothing.

use std::collections::HashMap;
use std::path::Path;
use xq::referee::{Rules, judge_bytes};

const CORPUS: &str = "../shared/games/ccpd";

/// One manifest row: file, index, source, Red, Black, Result, plies.
struct Row {
    red: String,
    black: String,
    result: String,
    plies: usize,
}

fn manifest(dir: &Path) -> HashMap<(String, usize), Row> {
    let text = std::fs::read_to_string(dir.join("MANIFEST.tsv")).expect("MANIFEST.tsv");
    text.lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 7, "manifest line {line:?}");
            (
                (f[0].to_string(), f[1].parse().expect("index")),
                Row {
                    red: f[3].to_string(),
                    black: f[4].to_string(),
                    result: f[5].to_string(),
                    plies: f[6].parse().expect("plies"),
                },
            )
        })
        .collect()
}

#[test]
fn every_master_game_is_read_and_none_has_an_ending() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(CORPUS);
    if !dir.join("MANIFEST.tsv").is_file() {
        eprintln!(
            "the shared corpus is not at {}: nothing checked",
            dir.display()
        );
        return;
    }
    let rows = manifest(&dir);
    let config = Rules::default();
    let mut files: Vec<String> = rows.keys().map(|(f, _)| f.clone()).collect();
    files.sort();
    files.dedup();
    let mut games = 0;
    let mut problems = Vec::new();
    for file in &files {
        let bytes = std::fs::read(dir.join(file)).expect("corpus file");
        for r in judge_bytes(file, &bytes, config) {
            games += 1;
            let Some(row) = rows.get(&(file.clone(), r.game)) else {
                problems.push(format!("{file} game {}: not in the manifest", r.game));
                continue;
            };
            let facts = r.facts();
            let tag = |v: Option<&String>| v.cloned().unwrap_or_default();
            let found = (
                r.moves().len(),
                tag(facts.and_then(|f| f.red.as_ref())),
                tag(facts.and_then(|f| f.black.as_ref())),
                tag(facts.and_then(|f| f.result.as_ref())),
            );
            let listed = (
                row.plies,
                row.red.trim().to_string(),
                row.black.trim().to_string(),
                row.result.clone(),
            );
            if let Some(e) = r.error() {
                problems.push(format!("{file} game {}: {e}", r.game));
            } else if found != listed {
                problems.push(format!(
                    "{file} game {}: read {found:?}, manifest {listed:?}",
                    r.game
                ));
            } else if r.reason() != "no ruling" {
                problems.push(format!(
                    "{file} game {}: {}",
                    r.game,
                    xq::referee::render::explanation(&r, xq::referee::render::Lang::En)
                ));
            } else if !r.judged().expect("judged").events.is_empty() {
                problems.push(format!(
                    "{file} game {}: a repetition on the way: {}",
                    r.game,
                    xq::referee::render::explanation(&r, xq::referee::render::Lang::En)
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} of {games} games:\n{}",
        problems.len(),
        problems[..problems.len().min(20)].join("\n")
    );
    assert_eq!(games, rows.len(), "games read against manifest rows");
    assert_eq!(games, 22_365);
}
