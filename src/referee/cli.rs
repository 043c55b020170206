//! `xq referee`: the front end that reads game files and directories, judges every game on all
//! cores, and prints text or JSON lines (and optionally an HTML report), a progress line on a
//! terminal and a summary. Exit status: 0 all fine, 1 some game or file had an error, 2 bad usage.

use super::json::report_json;
use super::text::{report_text, summary};
use super::{GameReport, html, judge_raw};
use crate::judge::RuleConfig;
use crate::record::{self, ErrorKind, FileGames, RecordError};
use std::collections::HashSet;
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
            walk(path, &mut files, &mut HashSet::new());
            files.sort();
            for f in files {
                let bytes = read_game_file(&f);
                out.push(Input {
                    name: f.display().to_string(),
                    from_dir: true,
                    bytes,
                });
            }
        } else {
            let bytes = read_game_file(path);
            out.push(Input {
                name: arg.clone(),
                from_dir: false,
                bytes,
            });
        }
    }
    out
}

/// Collects the game files under `dir`, each directory once however many links lead to it (so a
/// link back up the tree is no loop).
fn walk(dir: &Path, out: &mut Vec<PathBuf>, seen: &mut HashSet<PathBuf>) {
    let Ok(canonical) = std::fs::canonicalize(dir) else {
        return;
    };
    if !seen.insert(canonical) {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out, seen);
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| GAME_EXTENSIONS.iter().any(|g| g.eq_ignore_ascii_case(e)))
        {
            out.push(path);
        }
    }
}

/// The largest game file read, in bytes.
const MAX_FILE_BYTES: u64 = 256 << 20;

/// Reads a game file: only a regular file of at most `MAX_FILE_BYTES` (a FIFO or a device would
/// block or never end).
fn read_game_file(path: &Path) -> Result<Vec<u8>, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file (a FIFO, socket or device)".into());
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!(
            "{} bytes, more than the {MAX_FILE_BYTES} a game file may have",
            meta.len()
        ));
    }
    std::fs::read(path).map_err(|e| e.to_string())
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
            Err(e) => failed_files.push((f, GameReport::unreadable(&split.name, 0, 0, e.clone()))),
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
                Err(e) => GameReport::unreadable(&split.name, 0, 0, e.clone()),
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

/// The input that `path` names, if it names one (the same file, however it is spelt).
fn input_at<'a>(path: &Path, inputs: &'a [Input]) -> Option<&'a str> {
    let target = std::fs::canonicalize(path).ok()?;
    inputs
        .iter()
        .find(|i| std::fs::canonicalize(&i.name).is_ok_and(|p| p == target))
        .map(|i| i.name.as_str())
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
    if let Some(path) = &args.html
        && let Some(input) = input_at(path, &inputs)
    {
        eprintln!(
            "xq referee: --html {} would write over the game file {input}",
            path.display()
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
    let mut status = if reports.iter().any(|r| r.error().is_some()) {
        1
    } else {
        0
    };
    if let Some(path) = &args.html {
        let title = format!("xq referee: {}", args.inputs.join(" "));
        if let Err(e) = std::fs::write(path, html::report(&title, &reports, &summary)) {
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
    let plies: usize = reports.iter().map(|r| r.moves().len()).sum();
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
