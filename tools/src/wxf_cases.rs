//! The `wxf-cases` tool: turns `wxf_cases/cases.tsv` and `wxf_cases/diagrams.tsv` into one
//! human-readable file per WXF diagram under `wxf_cases/diagrams/`, with the board, the moves, the
//! expected result and the ruling the judge gives, with its explanation.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use xq::fen;
use xq::moves::Move;
use xq::position::Position;
use xq::referee::render::{self, Lang};
use xq::referee::{Adjudicator, Decision, History, Reason, Rules, Verdict, judge_before_reply};
use xq::square::{Color, File, Rank, Square};

/// One row of `diagrams.tsv`.
#[derive(Clone, Debug)]
pub struct Diagram {
    /// The diagram number as written (`39`, `107?`, `extra-fr4`).
    pub id: String,
    /// The WXF rule it illustrates.
    pub rule: String,
    /// The diagram position.
    pub fen: String,
    /// The ruling for the diagram's own line of play (`red_loses`, `black_loses`, `draw`).
    pub ruling: String,
    /// Where the ruling comes from.
    pub source: String,
    /// How sure the position and ruling are.
    pub confidence: String,
    /// The case numbers built on this diagram, as listed.
    pub cases: Vec<String>,
    /// One-line gist of the rule.
    pub summary: String,
}

/// One row of `cases.tsv`.
#[derive(Clone, Debug)]
pub struct Case {
    /// The case number.
    pub id: String,
    /// The diagram it comes from; empty for the extra cases.
    pub diagram: String,
    /// The start position.
    pub fen: String,
    /// The moves, ICCS.
    pub moves: Vec<String>,
    /// The expected absolute result (`red_wins`, `black_wins`, `draw`, `undecided`).
    pub result: String,
}

/// Splits a TSV text into rows of columns after checking the header.
fn rows<'a>(text: &'a str, header: &[&str]) -> Result<Vec<Vec<&'a str>>, String> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let head: Vec<&str> = lines.next().ok_or("empty file")?.split('\t').collect();
    if head != header {
        return Err(format!("header {head:?}, expected {header:?}"));
    }
    lines
        .enumerate()
        .map(|(i, line)| {
            let cols: Vec<&str> = line.split('\t').collect();
            if cols.len() == header.len() {
                Ok(cols)
            } else {
                Err(format!(
                    "line {}: {} columns, expected {}",
                    i + 2,
                    cols.len(),
                    header.len()
                ))
            }
        })
        .collect()
}

/// Reads `diagrams.tsv`.
pub fn parse_diagrams(text: &str) -> Result<Vec<Diagram>, String> {
    let header = [
        "diagram",
        "rule",
        "start_fen",
        "ruling",
        "ruling_source",
        "confidence",
        "cases",
        "summary",
    ];
    let rows = rows(text, &header).map_err(|e| format!("diagrams.tsv: {e}"))?;
    Ok(rows
        .into_iter()
        .map(|c| Diagram {
            id: c[0].to_string(),
            rule: c[1].to_string(),
            fen: c[2].to_string(),
            ruling: c[3].to_string(),
            source: c[4].to_string(),
            confidence: c[5].to_string(),
            cases: c[6]
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
            summary: c[7].to_string(),
        })
        .collect())
}

/// Reads `cases.tsv`.
pub fn parse_cases(text: &str) -> Result<Vec<Case>, String> {
    let header = ["case", "diagram", "fen", "moves", "result"];
    let rows = rows(text, &header).map_err(|e| format!("cases.tsv: {e}"))?;
    Ok(rows
        .into_iter()
        .map(|c| Case {
            id: c[0].to_string(),
            diagram: c[1].to_string(),
            fen: c[2].to_string(),
            moves: c[3].split_whitespace().map(str::to_string).collect(),
            result: c[4].to_string(),
        })
        .collect())
}

/// The file written for a diagram: `diagram_039.txt`, `diagram_107_unverified.txt`,
/// `extra_fr4.txt`.
pub fn file_name(diagram: &str) -> String {
    if let Some(number) = diagram.strip_suffix('?') {
        return format!("diagram_{}_unverified.txt", pad(number));
    }
    if diagram.chars().all(|c| c.is_ascii_digit()) {
        return format!("diagram_{}.txt", pad(diagram));
    }
    format!("{}.txt", diagram.replace('-', "_"))
}

fn pad(number: &str) -> String {
    format!("{number:0>3}")
}

/// The file holding the cases that have no diagram.
pub const EXTRA_CASES_FILE: &str = "extra_cases.txt";

/// The board as text: rank 9 at the top, files a to i, FEN letters (upper case Red), `.` empty.
pub fn board_text(pos: &Position) -> String {
    let mut out = String::new();
    for r in (0..Rank::COUNT as u8).rev() {
        let rank = Rank::new(r).expect("rank in range");
        let _ = write!(out, "{r} ");
        for f in 0..File::COUNT as u8 {
            let sq = Square::at(File::new(f).expect("file in range"), rank);
            let c = pos.piece_at(sq).map_or('.', |p| p.fen_char());
            let _ = write!(out, " {c}");
        }
        out.push('\n');
    }
    out.push_str("  ");
    for f in 0..File::COUNT as u8 {
        let _ = write!(out, " {}", File::new(f).expect("file in range").char());
    }
    out.push('\n');
    out
}

/// The moves numbered in pairs, Red's then Black's (`1. ... x` when Black moves first), eight
/// pairs to a line.
pub fn numbered_moves(first: Color, moves: &[String]) -> String {
    let mut numbered = Vec::new();
    let mut number = 1;
    let mut pending = String::new();
    let mut side = first;
    if first == Color::Black {
        pending = "1. ...".to_string();
    }
    for m in moves {
        if side == Color::Red {
            pending = format!("{number}. {m}");
        } else {
            pending = format!("{pending} {m}");
            numbered.push(std::mem::take(&mut pending));
            number += 1;
        }
        side = side.flip();
    }
    if !pending.is_empty() {
        numbered.push(pending);
    }
    numbered
        .chunks(8)
        .map(|line| line.join(" "))
        .collect::<Vec<_>>()
        .join("\n    ")
}

fn position_block(out: &mut String, label: &str, fen_text: &str) -> Result<Position, String> {
    let (pos, warnings) =
        fen::parse_lenient(fen_text).map_err(|e| format!("{label} {fen_text}: {e}"))?;
    let _ = writeln!(out, "{label}: {fen_text}");
    for w in &warnings {
        let _ = writeln!(out, "FEN warning (loaded anyway): {w}");
    }
    let _ = writeln!(out, "{} to move.\n", pos.side_to_move());
    out.push_str(&board_text(&pos));
    out.push('\n');
    Ok(pos)
}

/// The text for one case: its moves, the expected result, the judge's ruling with its explanation,
/// and the referee's move-by-move decision.
fn case_text(out: &mut String, case: &Case, diagram_fen: Option<&str>) -> Result<(), String> {
    let _ = writeln!(out, "Case {}", case.id);
    let _ = writeln!(out, "{}", "-".repeat(5 + case.id.len()));
    let start = if diagram_fen == Some(case.fen.as_str()) {
        fen::parse_lenient(&case.fen)
            .map_err(|e| format!("case {}: {e}", case.id))?
            .0
    } else {
        let label = match diagram_fen {
            Some(_) => "Start FEN (differs from the diagram's)",
            None => "Start FEN",
        };
        position_block(out, label, &case.fen)?
    };
    let config = Rules::first_decision(2);
    let mut history = History::new(start.clone(), config.judge());
    let mut referee = Adjudicator::new(start.clone(), config);
    for (i, text) in case.moves.iter().enumerate() {
        let m: Move = text
            .parse()
            .map_err(|e| format!("case {} ply {}: {e}", case.id, i + 1))?;
        history
            .push(m)
            .map_err(|e| format!("case {}: {e}", case.id))?;
        referee
            .play(m)
            .map_err(|e| format!("case {}: {e}", case.id))?;
    }
    if case.moves.is_empty() {
        let _ = writeln!(out, "Moves: none");
    } else {
        let _ = writeln!(
            out,
            "Moves ({} plies, {} first):\n    {}",
            case.moves.len(),
            start.side_to_move(),
            numbered_moves(start.side_to_move(), &case.moves)
        );
    }
    let _ = writeln!(out, "Expected result: {}", case.result);
    let ruling = judge_before_reply(&history, config.repetitions);
    let got = ruling.verdict.to_string();
    let agreement = if got == case.result {
        "agrees"
    } else {
        "DIFFERS from the expected result"
    };
    let _ = writeln!(
        out,
        "Judge (position before the last move): {got} ({agreement})"
    );
    let words = match ruling.verdict {
        Verdict::Undecided => format!("no repetition at ply {}", ruling.ply),
        verdict => {
            // Judged as a record that ends at the ruled position.
            let provisional = ruling.is_provisional();
            let decision = Decision {
                verdict,
                ply: ruling.ply,
                reason: Reason::Repetition(ruling),
            };
            render::decision(&history, &decision, provisional, &[], Lang::En)
        }
    };
    for line in words.lines() {
        let _ = writeln!(out, "    {line}");
    }
    let referee_text = referee
        .decision()
        .map_or("no decision".to_string(), |d| d.to_string());
    let _ = writeln!(
        out,
        "Referee (move by move, first decision): {referee_text}\n"
    );
    Ok(())
}

const PREAMBLE: &str = concat!(
    "Generated from wxf_cases/cases.tsv and wxf_cases/diagrams.tsv by\n",
    "`cargo run -p xq-tools -- wxf-cases`; do not edit by hand. Results are absolute (red_wins,\n",
    "black_wins, draw, undecided). The judge rules the position before the last move, at the first\n",
    "recurrence (see wxf_cases/README.md). Ply N is the N-th move of a case.\n",
);

/// Generates every file: (file name, text), diagrams in the order of `diagrams.tsv`, then the
/// extra cases.
pub fn generate(cases_tsv: &str, diagrams_tsv: &str) -> Result<Vec<(String, String)>, String> {
    let diagrams = parse_diagrams(diagrams_tsv)?;
    let cases = parse_cases(cases_tsv)?;
    let mut files = Vec::new();
    for d in &diagrams {
        let mine: Vec<&Case> = cases.iter().filter(|c| c.diagram == d.id).collect();
        let listed: BTreeSet<&str> = d.cases.iter().map(String::as_str).collect();
        let found: BTreeSet<&str> = mine.iter().map(|c| c.id.as_str()).collect();
        if listed != found {
            return Err(format!(
                "diagram {}: lists cases {listed:?}, cases.tsv has {found:?}",
                d.id
            ));
        }
        let mut out = String::new();
        let title = format!("WXF diagram {}", d.id);
        let _ = writeln!(out, "{title}\n{}\n{PREAMBLE}", "=".repeat(title.len()));
        let _ = writeln!(out, "Rule: {}", d.rule);
        let _ = writeln!(out, "Ruling: {}", d.ruling);
        let _ = writeln!(out, "Ruling source: {}", d.source);
        let _ = writeln!(out, "Confidence: {}", d.confidence);
        let _ = writeln!(out, "Summary: {}", d.summary);
        let _ = writeln!(out, "Cases: {}\n", d.cases.join(", "));
        position_block(&mut out, "Start FEN", &d.fen)?;
        for case in ordered(mine) {
            case_text(&mut out, case, Some(&d.fen))?;
        }
        files.push((file_name(&d.id), end_text(out)));
    }
    let extra: Vec<&Case> = cases.iter().filter(|c| c.diagram.is_empty()).collect();
    let mut out = String::new();
    let title = "WXF cases without a diagram";
    let _ = writeln!(out, "{title}\n{}\n{PREAMBLE}", "=".repeat(title.len()));
    let ids: Vec<&str> = ordered(extra.clone())
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    let _ = writeln!(out, "Cases: {}\n", ids.join(", "));
    for case in ordered(extra) {
        case_text(&mut out, case, None)?;
    }
    files.push((EXTRA_CASES_FILE.to_string(), end_text(out)));
    let unknown: Vec<&str> = cases
        .iter()
        .filter(|c| !c.diagram.is_empty() && !diagrams.iter().any(|d| d.id == c.diagram))
        .map(|c| c.id.as_str())
        .collect();
    if !unknown.is_empty() {
        return Err(format!(
            "cases with an unknown diagram: {}",
            unknown.join(", ")
        ));
    }
    Ok(files)
}

/// The text with exactly one newline at the end.
fn end_text(mut text: String) -> String {
    text.truncate(text.trim_end().len());
    text.push('\n');
    text
}

fn ordered(mut cases: Vec<&Case>) -> Vec<&Case> {
    cases.sort_by_key(|c| c.id.parse::<u32>().unwrap_or(u32::MAX));
    cases
}

/// The case folder: `wxf_cases` beside the crate being built, or beside its parent (the tools
/// crate sits one level below the workspace root).
pub fn default_dir() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    [manifest.join("wxf_cases"), manifest.join("../wxf_cases")]
        .into_iter()
        .find(|p| p.join("cases.tsv").is_file())
        .unwrap_or_else(|| manifest.join("../wxf_cases"))
}

/// Reads the two TSV files in `dir` and generates the files for `dir/diagrams`.
pub fn generate_from(dir: &Path) -> Result<Vec<(String, String)>, String> {
    let read = |name: &str| {
        let path = dir.join(name);
        std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
    };
    generate(&read("cases.tsv")?, &read("diagrams.tsv")?)
}

/// Writes the files into `dir/diagrams`, removing `.txt` files there that are no longer
/// generated. Returns how many were written.
pub fn write(dir: &Path) -> Result<usize, String> {
    let files = generate_from(dir)?;
    let out_dir = dir.join("diagrams");
    std::fs::create_dir_all(&out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    for stale in txt_files(&out_dir)? {
        if !files.iter().any(|(name, _)| *name == stale) {
            let path = out_dir.join(&stale);
            std::fs::remove_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    for (name, text) in &files {
        let path = out_dir.join(name);
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(files.len())
}

/// The names of the `.txt` files in `dir`, sorted.
fn txt_files(dir: &Path) -> Result<Vec<String>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.ends_with(".txt"))
        .collect();
    names.sort();
    Ok(names)
}

/// The `wxf-cases` command: `xq-tools wxf-cases [DIR]`, DIR defaulting to the workspace's
/// `wxf_cases` folder.
pub fn main(args: &[String]) -> Result<(), String> {
    let dir = match args {
        [] => default_dir(),
        [dir] => PathBuf::from(dir),
        _ => return Err("usage: xq-tools wxf-cases [DIR]".to_string()),
    };
    let n = write(&dir)?;
    println!("wrote {n} files to {}", dir.join("diagrams").display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed files are exactly what the generator writes now: regenerate with
    /// `cargo run -p xq-tools -- wxf-cases` after changing the data or the judge.
    #[test]
    fn committed_files_are_current() {
        let dir = default_dir();
        let files = generate_from(&dir).expect("the case files generate");
        let out_dir = dir.join("diagrams");
        let mut stale = Vec::new();
        for (name, text) in &files {
            match std::fs::read_to_string(out_dir.join(name)) {
                Ok(committed) if committed == *text => {}
                Ok(_) => stale.push(format!("{name} differs")),
                Err(e) => stale.push(format!("{name}: {e}")),
            }
        }
        for name in txt_files(&out_dir).expect("the diagrams folder is readable") {
            if !files.iter().any(|(n, _)| *n == name) {
                stale.push(format!("{name} is not generated any more"));
            }
        }
        assert!(
            stale.is_empty(),
            "wxf_cases/diagrams is stale (run `cargo run -p xq-tools -- wxf-cases`):\n{}",
            stale.join("\n")
        );
    }

    #[test]
    fn file_names() {
        assert_eq!(file_name("7"), "diagram_007.txt");
        assert_eq!(file_name("106"), "diagram_106.txt");
        assert_eq!(file_name("107?"), "diagram_107_unverified.txt");
        assert_eq!(file_name("extra-fr4"), "extra_fr4.txt");
    }

    #[test]
    fn moves_are_numbered_in_pairs() {
        let moves: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        assert_eq!(numbered_moves(Color::Red, &moves), "1. a b 2. c");
        assert_eq!(numbered_moves(Color::Black, &moves), "1. ... a 2. b c");
    }

    #[test]
    fn board_has_ten_ranks_and_file_letters() {
        let text = board_text(&Position::startpos());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 11);
        assert_eq!(lines[0], "9  r n b a k a b n r");
        assert_eq!(lines[9], "0  R N B A K A B N R");
        assert_eq!(lines[10], "   a b c d e f g h i");
    }
}
