//! `xq referee`: the front end that reads game files and directories, judges every game on all
//! cores, and prints text or JSON lines (and optionally an HTML report), a progress line on a
//! terminal and a summary. Exit status: 0 all fine, 1 some game or file had an error, 2 bad usage.

use crate::judge::{RuleConfig, Verdict};
use crate::record::{self, ErrorKind, FileGames, RecordError};
use crate::referee::{Agreement, GameReport, judge_raw};
use crate::referee_html;
use serde_json::{Value, json};
use std::io::{IsTerminal, Read, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Arguments of `xq referee`.
#[derive(clap::Args, Debug, Clone)]
pub struct RefereeArgs {
    /// Game files (PGN in any notation, DhtmlXQ/HTML, XQF) or directories, searched recursively;
    /// `-` reads standard input.
    #[arg(value_name = "FILE|DIR|-", required = true)]
    pub inputs: Vec<String>,
    /// How many occurrences of a position make a repetition (2 reproduces the WXF cases'
    /// convention).
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(2..=100))]
    pub repetitions: u32,
    /// Write one JSON object per game per line instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also write an HTML report with a board of each ruled position and the cycle's moves.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N")]
    pub threads: Option<NonZeroUsize>,
    /// Measure throughput instead of reporting: judge the inputs over and over for SECONDS (3 by
    /// default) on one thread and on all, and print games/s and plies/s.
    #[arg(long, value_name = "SECONDS", num_args = 0..=1, default_missing_value = "3")]
    pub bench: Option<f64>,
}

/// One input file.
struct Input {
    name: String,
    /// Found by walking a directory: a file without any game in it is skipped, not an error.
    from_dir: bool,
    bytes: Result<Vec<u8>, String>,
}

/// Extensions read when walking a directory.
const GAME_EXTENSIONS: [&str; 7] = ["pgn", "xqf", "txt", "htm", "html", "ubb", "cbl"];

fn collect_inputs(args: &[String]) -> Vec<Input> {
    let mut out = Vec::new();
    for arg in args {
        if arg == "-" {
            let mut bytes = Vec::new();
            let read = std::io::stdin().read_to_end(&mut bytes).map(|_| bytes);
            out.push(Input {
                name: "-".into(),
                from_dir: false,
                bytes: read.map_err(|e| e.to_string()),
            });
            continue;
        }
        let path = Path::new(arg);
        if path.is_dir() {
            let mut files = Vec::new();
            walk(path, &mut files);
            files.sort();
            for f in files {
                let bytes = std::fs::read(&f).map_err(|e| e.to_string());
                out.push(Input {
                    name: f.display().to_string(),
                    from_dir: true,
                    bytes,
                });
            }
        } else {
            let bytes = std::fs::read(path).map_err(|e| e.to_string());
            out.push(Input {
                name: arg.clone(),
                from_dir: false,
                bytes,
            });
        }
    }
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| GAME_EXTENSIONS.iter().any(|g| g.eq_ignore_ascii_case(e)))
        {
            out.push(path);
        }
    }
}

/// A file split into games, or why it could not be.
struct Split {
    name: String,
    from_dir: bool,
    games: Result<FileGames, RecordError>,
}

/// Runs `f(i)` for every `i < n` on `threads` workers; results in index order. `done` counts
/// finished items.
fn parallel<T: Send>(
    n: usize,
    threads: usize,
    done: &AtomicUsize,
    f: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let mut parts: Vec<Vec<(usize, T)>> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads.clamp(1, n.max(1)))
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            break;
                        }
                        mine.push((i, f(i)));
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_default())
            .collect()
    });
    let mut all: Vec<(usize, T)> = parts.iter_mut().flat_map(std::mem::take).collect();
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, t)| t).collect()
}

/// Splits and judges every input; reports in input order, game order.
fn judge_inputs(
    inputs: &[Input],
    config: RuleConfig,
    threads: usize,
    progress: bool,
) -> (Vec<GameReport>, usize) {
    let none = AtomicUsize::new(0);
    let splits = parallel(inputs.len(), threads, &none, |i| {
        let input = &inputs[i];
        let games = match &input.bytes {
            Ok(bytes) => record::read_file(&input.name, bytes),
            Err(e) => Err(RecordError {
                file: input.name.clone(),
                line: None,
                game: None,
                ply: None,
                kind: ErrorKind::Io(e.clone()),
            }),
        };
        Split {
            name: input.name.clone(),
            from_dir: input.from_dir,
            games,
        }
    });
    let mut skipped = 0;
    let mut tasks = Vec::new();
    let mut failed_files = Vec::new();
    for (f, split) in splits.iter().enumerate() {
        match &split.games {
            Ok(games) => tasks.extend((0..games.games.len()).map(|g| (f, g))),
            Err(e) if split.from_dir && e.kind == ErrorKind::NoGame => skipped += 1,
            Err(e) => failed_files.push((f, GameReport::failed(&split.name, 0, 0, e.clone()))),
        }
    }
    let done = AtomicUsize::new(0);
    let finished = AtomicBool::new(false);
    let total = tasks.len();
    let reports = std::thread::scope(|s| {
        if progress {
            s.spawn(|| {
                while !finished.load(Ordering::Relaxed) {
                    eprint!("\rjudging: {}/{total} games", done.load(Ordering::Relaxed));
                    std::thread::sleep(Duration::from_millis(200));
                }
                eprint!("\r{}\r", " ".repeat(40));
            });
        }
        let reports = parallel(total, threads, &done, |i| {
            let (f, g) = tasks[i];
            let split = &splits[f];
            match &split.games {
                Ok(games) => judge_raw(&split.name, games.encoding, &games.games[g], config),
                Err(e) => GameReport::failed(&split.name, 0, 0, e.clone()),
            }
        });
        finished.store(true, Ordering::Relaxed);
        reports
    });
    // Interleave file-level failures at their file's place.
    let mut out = Vec::with_capacity(reports.len() + failed_files.len());
    let mut failed = failed_files.into_iter().peekable();
    for (report, &(f, _)) in reports.into_iter().zip(&tasks) {
        while failed.peek().is_some_and(|(ff, _)| *ff < f) {
            out.extend(failed.next().map(|(_, r)| r));
        }
        out.push(report);
    }
    out.extend(failed.map(|(_, r)| r));
    (out, skipped)
}

/// Runs `xq referee`.
pub fn run_cli(args: RefereeArgs) -> ExitCode {
    let config = RuleConfig::with_occurrences(args.repetitions);
    let threads = args
        .threads
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, NonZeroUsize::get);
    let inputs = collect_inputs(&args.inputs);
    if inputs.is_empty() {
        eprintln!(
            "xq referee: no game files found in {}",
            args.inputs.join(", ")
        );
        return ExitCode::from(2);
    }
    if let Some(seconds) = args.bench {
        return bench(&inputs, config, threads, seconds);
    }
    let start = Instant::now();
    let progress = std::io::stderr().is_terminal();
    let (reports, skipped) = judge_inputs(&inputs, config, threads, progress);
    let elapsed = start.elapsed();

    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for r in &reports {
        let written = if args.json {
            writeln!(out, "{}", report_json(r))
        } else {
            writeln!(out, "{}", report_text(r))
        };
        if written.is_err() {
            // Standard output closed (a pager quit): nothing more to say.
            return ExitCode::from(1);
        }
    }
    let summary = summary(&reports, skipped, elapsed);
    let _ = if args.json {
        writeln!(std::io::stderr(), "{summary}")
    } else {
        writeln!(out, "{summary}")
    };
    let _ = out.flush();
    let mut status = if reports.iter().any(|r| r.error.is_some()) {
        1
    } else {
        0
    };
    if let Some(path) = &args.html {
        let title = format!("xq referee: {}", args.inputs.join(" "));
        if let Err(e) = std::fs::write(path, referee_html::report(&title, &reports, &summary)) {
            eprintln!("xq referee: cannot write {}: {e}", path.display());
            status = 1;
        }
    }
    ExitCode::from(status)
}

/// Judges the inputs repeatedly for `seconds` on one thread and on `threads`, and prints the
/// throughput.
fn bench(inputs: &[Input], config: RuleConfig, threads: usize, seconds: f64) -> ExitCode {
    let (reports, _) = judge_inputs(inputs, config, threads, false);
    let games = reports.iter().filter(|r| r.game > 0).count();
    let plies: usize = reports.iter().map(|r| r.moves.len()).sum();
    if games == 0 {
        eprintln!("xq referee --bench: no games in the inputs");
        return ExitCode::from(1);
    }
    println!(
        "referee bench: {games} games, {plies} plies ({:.1} plies a game), {} repetitions rule",
        plies as f64 / games as f64,
        config.occurrences
    );
    let mut counts = vec![1];
    if threads > 1 {
        counts.push(threads);
    }
    for t in counts {
        let start = Instant::now();
        let mut rounds = 0u64;
        while rounds == 0 || start.elapsed().as_secs_f64() < seconds {
            let _ = judge_inputs(inputs, config, t, false);
            rounds += 1;
        }
        let secs = start.elapsed().as_secs_f64();
        let g = (games as u64 * rounds) as f64 / secs;
        let p = (plies as u64 * rounds) as f64 / secs;
        println!("threads {t}: {rounds} rounds in {secs:.2} s: {g:.0} games/s, {p:.0} plies/s");
    }
    ExitCode::SUCCESS
}

/// The verdict's name as in reports: red_wins, black_wins, draw, undecided.
fn verdict_name(v: Verdict) -> String {
    v.to_string()
}

/// One JSON object for a game.
pub fn report_json(r: &GameReport) -> Value {
    let chased: Vec<Value> = r
        .cycles
        .iter()
        .flat_map(|c| &c.chased)
        .map(|(piece, squares)| {
            let squares: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
            json!({ "piece": piece.to_string(), "squares": squares })
        })
        .collect();
    let cycles: Vec<Value> = r
        .cycles
        .iter()
        .map(|c| {
            let moves: Vec<String> = c.moves.iter().map(|(_, m)| m.to_string()).collect();
            json!({
                "side": c.color.name(),
                "violation": c.violation.name(),
                "first_ply": c.first_ply,
                "last_ply": c.last_ply,
                "moves": moves,
            })
        })
        .collect();
    json!({
        "file": r.file,
        "game": r.game,
        "line": r.line,
        "event": r.event,
        "red": r.red,
        "black": r.black,
        "format": r.format.map(|f| f.name()),
        "notation": r.notation.map(|n| n.name()),
        "encoding": r.encoding.map(|e| e.name()),
        "plies": r.moves.len(),
        "result": verdict_name(r.result()),
        "reason": r.reason(),
        "ply": r.decision.as_ref().map(|d| d.ply),
        "provisional": r.provisional,
        "violator": r.violator.map(|c| c.name()),
        "chased": chased,
        "cycles": cycles,
        "ruled_fen": r.ruled_fen,
        "repeated_plies": r.repeated_at,
        "past_ruling": r.past_ruling,
        "tag_result": r.record_result,
        "tag_verdict": r.record_verdict.map(verdict_name),
        "agreement": r.agreement.name(),
        "explanation": r.explanation,
        "notes": r.notes,
        "warnings": r.warnings,
        "error": r.error.as_ref().map(|e| e.to_string()),
    })
}

/// The text block for a game.
pub fn report_text(r: &GameReport) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    if r.game == 0 {
        let _ = write!(
            out,
            "{}: error: {}",
            r.file,
            r.error
                .as_ref()
                .map_or(String::new(), |e| e.kind.to_string())
        );
        return out;
    }
    let _ = write!(out, "{} game {}", r.file, r.game);
    if r.line > 0 {
        let _ = write!(out, " (line {})", r.line);
    }
    let players = match (&r.red, &r.black) {
        (Some(a), Some(b)) => Some(format!("{a} - {b}")),
        (Some(a), None) => Some(a.clone()),
        (None, Some(b)) => Some(b.clone()),
        _ => None,
    };
    let title: Vec<String> = players.into_iter().chain(r.event.clone()).collect();
    if !title.is_empty() {
        let _ = write!(out, ": {}", title.join(", "));
    }
    let mut what = Vec::new();
    if let Some(f) = r.format {
        what.push(f.name().to_string());
    }
    if let Some(n) = r.notation {
        what.push(n.name().to_string());
    }
    if let Some(e) = r.encoding {
        what.push(e.name().to_string());
    }
    what.push(format!("{} plies", r.moves.len()));
    let _ = write!(out, "\n  {}", what.join(", "));
    for line in r.explanation.lines() {
        let _ = write!(out, "\n  {line}");
    }
    match (r.agreement, &r.record_result) {
        (Agreement::Agrees, Some(t)) => {
            let _ = write!(out, "\n  record says {t}: agrees");
        }
        (Agreement::Disagrees, Some(t)) => {
            let _ = write!(
                out,
                "\n  record says {t}: DISAGREES with the referee ({})",
                r.result()
            );
        }
        (Agreement::NoRecordResult, _) => out.push_str("\n  the record gives no result"),
        _ => {}
    }
    for n in &r.notes {
        let _ = write!(out, "\n  note: {n}");
    }
    for w in &r.warnings {
        let _ = write!(out, "\n  warning: {w}");
    }
    if let Some(e) = &r.error {
        let _ = write!(out, "\n  error: {e}");
    }
    out
}

/// The closing summary.
pub fn summary(reports: &[GameReport], skipped: usize, elapsed: Duration) -> String {
    let games: Vec<&GameReport> = reports.iter().filter(|r| r.game > 0).collect();
    let mut by_reason: Vec<(&str, usize)> = Vec::new();
    for r in games.iter().filter(|r| r.decision.is_some()) {
        let reason = r.reason();
        match by_reason.iter_mut().find(|(k, _)| *k == reason) {
            Some((_, n)) => *n += 1,
            None => by_reason.push((reason, 1)),
        }
    }
    let ruled: usize = by_reason.iter().map(|(_, n)| n).sum();
    let reasons: Vec<String> = by_reason.iter().map(|(k, n)| format!("{n} {k}")).collect();
    let errors = reports.iter().filter(|r| r.error.is_some()).count();
    let disagree = games
        .iter()
        .filter(|r| r.agreement == Agreement::Disagrees)
        .count();
    let plies: usize = games.iter().map(|r| r.moves.len()).sum();
    let secs = elapsed.as_secs_f64().max(1e-9);
    let mut s = format!(
        "summary: {} games, {ruled} ruled{}, {} without a ruling; {errors} with errors; {disagree} disagree with the record",
        games.len(),
        if reasons.is_empty() {
            String::new()
        } else {
            format!(" ({})", reasons.join(", "))
        },
        games.len() - ruled,
    );
    let unreadable = reports.len() - games.len();
    if unreadable > 0 {
        s.push_str(&format!("; {unreadable} unreadable files"));
    }
    if skipped > 0 {
        s.push_str(&format!("; {skipped} files without games skipped"));
    }
    s.push_str(&format!(
        "; {plies} plies in {:.3} s ({:.0} games/s)",
        secs,
        games.len() as f64 / secs
    ));
    s
}
