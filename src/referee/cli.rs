//! `xq referee`: the front end that reads game files and directories, judges every game on all
//! cores, and prints text or JSON lines (and optionally an HTML report), a progress line on a
//! terminal and a summary. Exit status: 0 all fine, 1 some game or file had an error, 2 bad usage.

use super::json::report_json;
use super::progress::Progress;
use super::text::{Tally, report_text};
use super::{GameReport, Rules, html, judge_raw};
use crate::record::{self, ErrorKind, FileGames, RecordError};
use std::io::{BufRead, IsTerminal, Read, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Arguments of `xq referee`.
#[derive(clap::Args, Debug, Clone)]
pub struct RefereeArgs {
    /// Game files (PGN in any notation, DhtmlXQ/HTML, XQF) or directories, searched recursively;
    /// `-` reads standard input.
    #[arg(value_name = "FILE|DIR|-", required = true)]
    pub inputs: Vec<String>,
    /// How many occurrences of a position make a repetition (2 reproduces the WXF cases'
    /// convention).
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(i64::from(*super::REPETITIONS.start())..=i64::from(*super::REPETITIONS.end())))]
    pub repetitions: u32,
    /// Take the first ruling as the game's result, as the WXF case suite does (with
    /// `--repetitions 2`). Without it, a forbidden repetition obliges the violator to change moves
    /// and ends the game only if the violator repeats again or the record ends in it.
    #[arg(long)]
    pub first_decision: bool,
    /// The move-count rule: moves by each side without a capture that draw the game (0: none).
    /// 60 by default, the Chinese Xiangqi Association's natural limit; the Asian rules use 50.
    /// Not applied with `--first-decision`.
    #[arg(long, value_name = "MOVES", default_value_t = super::DEFAULT_MOVE_LIMIT)]
    pub move_limit: u32,
    /// Write one JSON object per game per line instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also write an HTML report with a board of each ruled position and the cycle's moves.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Worker threads (default and most: every core).
    #[arg(long, value_name = "N")]
    pub threads: Option<NonZeroUsize>,
    /// Measure throughput instead of reporting: judge the inputs over and over for SECONDS (3 by
    /// default) on one thread and on all, and print games/s and plies/s.
    #[arg(long, value_name = "SECONDS", num_args = 0..=1, default_missing_value = "3")]
    pub bench: Option<f64>,
}

/// What a piece of input is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Piece {
    /// A file named on the command line.
    File,
    /// A file found by walking a directory: one without any game in it is skipped, not an error.
    FoundFile,
    /// A run of lines of a stream (standard input is read a game at a time); lines before it in
    /// the stream are counted in `lines_before`.
    Stream,
}

/// A piece of input: a file, or a run of games from standard input.
struct Input {
    name: String,
    piece: Piece,
    bytes: Result<Vec<u8>, String>,
    lines_before: u32,
}

impl Input {
    fn whole(name: String, piece: Piece, bytes: Result<Vec<u8>, String>) -> Input {
        Input {
            name,
            piece,
            bytes,
            lines_before: 0,
        }
    }
}

/// Where inputs come from, before anything is read.
enum Source {
    Stdin,
    File {
        path: PathBuf,
        from_dir: bool,
    },
    /// A directory that could not be read.
    Unreadable {
        name: String,
        error: String,
    },
}

use crate::record::files::{MAX_FILE_BYTES, directory_files, read_game_file};

fn collect_sources(args: &[String]) -> Vec<Source> {
    let mut out = Vec::new();
    for arg in args {
        if arg == "-" {
            out.push(Source::Stdin);
            continue;
        }
        let path = Path::new(arg);
        if path.is_dir() {
            out.extend(
                directory_files(path)
                    .into_iter()
                    .map(|(path, error)| match error {
                        None => Source::File {
                            path,
                            from_dir: true,
                        },
                        Some(error) => Source::Unreadable {
                            name: path.display().to_string(),
                            error,
                        },
                    }),
            );
        } else {
            out.push(Source::File {
                path: path.to_path_buf(),
                from_dir: false,
            });
        }
    }
    out
}

/// Inputs are judged in batches of about this many bytes, so memory stays bounded however much
/// is read.
const BATCH_BYTES: usize = 4 << 20;

/// The sources, read a batch at a time.
struct Batches {
    sources: std::vec::IntoIter<Source>,
    stdin: Option<GameChunks<std::io::StdinLock<'static>>>,
}

impl Batches {
    fn new(sources: Vec<Source>) -> Batches {
        Batches {
            sources: sources.into_iter(),
            stdin: None,
        }
    }

    /// The next batch; empty when every source is read.
    fn next_batch(&mut self) -> Vec<Input> {
        let mut batch = Vec::new();
        let mut bytes = 0;
        while bytes < BATCH_BYTES {
            if let Some(chunks) = &mut self.stdin {
                match chunks.next() {
                    Some(input) => {
                        bytes += input.bytes.as_ref().map_or(0, Vec::len);
                        batch.push(input);
                        continue;
                    }
                    None => self.stdin = None,
                }
            }
            let Some(source) = self.sources.next() else {
                break;
            };
            let input = match source {
                Source::Stdin => {
                    self.stdin = Some(GameChunks::new("-", std::io::stdin().lock()));
                    continue;
                }
                Source::File { path, from_dir } => {
                    let piece = if from_dir {
                        Piece::FoundFile
                    } else {
                        Piece::File
                    };
                    Input::whole(path.display().to_string(), piece, read_game_file(&path))
                }
                Source::Unreadable { name, error } => Input::whole(name, Piece::File, Err(error)),
            };
            bytes += input.bytes.as_ref().map_or(0, Vec::len);
            batch.push(input);
        }
        batch
    }
}

/// The largest game read from a stream.
const MAX_GAME_BYTES: usize = 8 << 20;

/// A stream cut into pieces at game starts (a tag line after move text), so that it is read a
/// game at a time in bounded memory. A binary (XQF) or UTF-16 stream is read whole, up to the
/// file limit.
struct GameChunks<R> {
    name: String,
    reader: R,
    /// The start of the next piece, already read.
    pending: Vec<u8>,
    line: u32,
    done: bool,
}

impl<R: std::io::BufRead> GameChunks<R> {
    fn new(name: &str, reader: R) -> GameChunks<R> {
        GameChunks {
            name: name.to_string(),
            reader,
            pending: Vec::new(),
            line: 0,
            done: false,
        }
    }

    /// Reads one line (up to `limit` bytes) onto `out`; its length, 0 at the end.
    fn read_line(&mut self, out: &mut Vec<u8>, limit: usize) -> std::io::Result<usize> {
        let mut take = (&mut self.reader).take(limit as u64);
        take.read_until(b'\n', out)
    }

    fn error(&mut self, message: String) -> Input {
        self.done = true;
        Input {
            name: self.name.clone(),
            piece: Piece::Stream,
            bytes: Err(message),
            lines_before: self.line,
        }
    }
}

/// Whether a line starts a tag (`[Name "`), where a new game may begin.
fn starts_tag(line: &[u8]) -> bool {
    let trimmed = line.trim_ascii_start();
    trimmed.first() == Some(&b'[') && trimmed[1..].first().is_some_and(u8::is_ascii_alphabetic)
}

impl<R: std::io::BufRead> Iterator for GameChunks<R> {
    type Item = Input;

    fn next(&mut self) -> Option<Input> {
        if self.done {
            return None;
        }
        let lines_before = self.line;
        let mut piece = std::mem::take(&mut self.pending);
        if piece.is_empty() && self.line == 0 {
            // A binary record, or UTF-16 text (whose line ends are two bytes), is read whole.
            let head = match self.reader.fill_buf() {
                Ok(head) => head,
                Err(e) => return Some(self.error(format!("cannot read: {e}"))),
            };
            if record::xqf::detect(head) || record::encoding::is_utf16(head) {
                let mut all = Vec::new();
                let limit = MAX_FILE_BYTES + 1;
                self.done = true;
                return Some(match (&mut self.reader).take(limit).read_to_end(&mut all) {
                    Ok(n) if n as u64 >= limit => self.error(format!(
                        "more than the {} MiB a game file may have",
                        MAX_FILE_BYTES >> 20
                    )),
                    Ok(_) => Input::whole(self.name.clone(), Piece::Stream, Ok(all)),
                    Err(e) => self.error(format!("cannot read: {e}")),
                });
            }
        }
        let mut moves_seen = false;
        if !piece.is_empty() {
            self.line += 1;
        }
        loop {
            let start = piece.len();
            let room = MAX_GAME_BYTES.saturating_sub(start);
            let n = match self.read_line(&mut piece, room + 1) {
                Ok(n) => n,
                Err(e) => {
                    return Some(self.error(format!("line {}: cannot read: {e}", self.line + 1)));
                }
            };
            if n == 0 {
                self.done = true;
                break;
            }
            if piece.len() > MAX_GAME_BYTES {
                return Some(self.error(format!(
                    "line {}: more than {} MiB without the start of a new game; reading stopped",
                    self.line + 1,
                    MAX_GAME_BYTES >> 20
                )));
            }
            let line = &piece[start..];
            if starts_tag(line) {
                if moves_seen {
                    self.pending = piece.split_off(start);
                    break;
                }
            } else if !line.trim_ascii().is_empty() {
                moves_seen = true;
            }
            self.line += 1;
        }
        if piece.is_empty() {
            return None;
        }
        Some(Input {
            name: self.name.clone(),
            piece: Piece::Stream,
            bytes: Ok(piece),
            lines_before,
        })
    }
}

/// A piece of input split into games, or why it could not be.
struct Split {
    name: String,
    piece: Piece,
    games: Result<FileGames, RecordError>,
}

/// Runs `f(i)` for every `i < n` on up to `threads` workers (as many as the system will start;
/// the calling thread works too); results in index order. `done` counts finished items.
fn parallel<T: Send>(
    n: usize,
    threads: usize,
    done: &AtomicUsize,
    f: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let work = || {
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
    };
    let mut parts: Vec<Vec<(usize, T)>> = std::thread::scope(|s| {
        let workers: Vec<_> = (1..threads.clamp(1, n.max(1)))
            .map_while(|_| std::thread::Builder::new().spawn_scoped(s, work).ok())
            .collect();
        let mut parts = vec![work()];
        parts.extend(workers.into_iter().map(|w| w.join().unwrap_or_default()));
        parts
    });
    let mut all: Vec<(usize, T)> = parts.iter_mut().flat_map(std::mem::take).collect();
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, t)| t).collect()
}

/// Splits and judges every input; reports in input order, game order, and the found files that
/// held no game. `stream_games` counts the games of the stream being read in pieces, so that they
/// are numbered through the stream.
fn judge_inputs(
    inputs: &[Input],
    config: Rules,
    threads: usize,
    progress: &Progress,
    stream_games: &mut usize,
) -> (Vec<GameReport>, Vec<String>) {
    let none = AtomicUsize::new(0);
    let mut splits = parallel(inputs.len(), threads, &none, |i| {
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
            piece: input.piece,
            games,
        }
    });
    // Number the games of a stream's pieces, and their lines, through the stream.
    for (split, input) in splits.iter_mut().zip(inputs) {
        if input.piece != Piece::Stream {
            continue;
        }
        if input.lines_before == 0 {
            *stream_games = 0;
        }
        if let Ok(games) = &mut split.games {
            for game in &mut games.games {
                game.shift_lines(input.lines_before);
                game.index += *stream_games;
            }
            *stream_games += games.games.len();
        }
    }
    let mut skipped = Vec::new();
    let mut tasks = Vec::new();
    let mut failed_files = Vec::new();
    for (f, split) in splits.iter().enumerate() {
        match &split.games {
            Ok(games) => tasks.extend((0..games.games.len()).map(|g| (f, g))),
            Err(e) if e.kind == ErrorKind::NoGame && split.piece == Piece::FoundFile => {
                skipped.push(split.name.clone())
            }
            // A piece of a stream with no game in it (prose between games).
            Err(e) if e.kind == ErrorKind::NoGame && split.piece == Piece::Stream => {}
            Err(e) => failed_files.push((f, GameReport::unreadable(&split.name, 0, 0, e.clone()))),
        }
    }
    let total = tasks.len();
    let bytes: usize = inputs
        .iter()
        .map(|i| i.bytes.as_ref().map_or(0, Vec::len))
        .sum();
    progress.start_batch(bytes as u64, total);
    let reports = parallel(total, threads, &progress.games, |i| {
        let (f, g) = tasks[i];
        let split = &splits[f];
        match &split.games {
            Ok(games) => judge_raw(&split.name, games.encoding, &games.games[g], config),
            Err(e) => GameReport::unreadable(&split.name, 0, 0, e.clone()),
        }
    });
    progress.end_batch();
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

/// The game file that `path` is (however it is named: a link, another spelling, a file found in
/// a directory given), if it is one.
fn input_at(path: &Path, sources: &[Source]) -> Option<String> {
    let inputs = sources.iter().filter_map(|source| match source {
        Source::File { path, .. } => Some(path.as_path()),
        _ => None,
    });
    crate::record::files::input_written_by(path, inputs).map(|p| p.display().to_string())
}

/// Where reports are written, and how.
struct Output<W> {
    writer: W,
    json: bool,
}

/// Writes reports, counts them, and keeps them when `kept` asks; false when standard output was
/// closed (a pager quit), so there is nothing more to say.
fn write_reports<W: Write>(
    reports: Vec<GameReport>,
    out: &mut Output<W>,
    tally: &mut Tally,
    kept: &mut Option<Vec<GameReport>>,
) -> bool {
    for r in reports {
        let text = if out.json {
            report_json(&r).to_string()
        } else {
            report_text(&r)
        };
        if writeln!(out.writer, "{text}").is_err() {
            return false;
        }
        tally.add(&r);
        if let Some(kept) = kept {
            kept.push(r);
        }
    }
    true
}

/// Runs `xq referee`.
pub fn run_cli(args: RefereeArgs) -> ExitCode {
    let config = Rules {
        first_decision: args.first_decision,
        move_limit: (args.move_limit > 0 && !args.first_decision).then_some(args.move_limit),
        ..Rules::arbiter(args.repetitions)
    };
    // Judging is bound by the processor: more threads than cores only cost memory.
    let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    let threads = args.threads.map_or(cores, |t| t.get().min(cores));
    let sources = collect_sources(&args.inputs);
    if sources.is_empty() {
        eprintln!(
            "xq referee: no game files found in {}",
            args.inputs.join(", ")
        );
        return ExitCode::from(2);
    }
    if let Some(path) = &args.html
        && let Some(input) = input_at(path, &sources)
    {
        eprintln!(
            "xq referee: --html {} would write over the game file {input}",
            path.display()
        );
        return ExitCode::from(2);
    }
    let reads_stdin = sources.iter().any(|s| matches!(s, Source::Stdin));
    // The size of the input, for the progress bar (unknown with standard input).
    let total_bytes = (!reads_stdin).then(|| {
        sources
            .iter()
            .map(|s| match s {
                Source::File { path, .. } => std::fs::metadata(path).map_or(0, |m| m.len()),
                _ => 0,
            })
            .sum::<u64>()
    });
    let mut batches = Batches::new(sources);
    if let Some(seconds) = args.bench {
        let mut inputs = Vec::new();
        loop {
            let batch = batches.next_batch();
            if batch.is_empty() {
                break;
            }
            inputs.extend(batch);
        }
        return bench(&inputs, config, threads, seconds);
    }
    let start = Instant::now();
    let stdout = std::io::stdout();
    let mut out = Output {
        writer: std::io::BufWriter::new(stdout.lock()),
        json: args.json,
    };
    let mut tally = Tally::default();
    // Kept only for the HTML report, which lists every game.
    let mut kept = args.html.is_some().then(Vec::new);
    let mut stream_games = 0;
    let mut stdin_reports = 0;
    let progress = Progress::new(total_bytes);
    let completed = std::thread::scope(|s| {
        if std::io::stderr().is_terminal() {
            // Without a thread for it, there is just no progress line.
            let _ = std::thread::Builder::new().spawn_scoped(s, || progress.run());
        }
        let completed = loop {
            let batch = batches.next_batch();
            if batch.is_empty() {
                break true;
            }
            let (reports, skipped) =
                judge_inputs(&batch, config, threads, &progress, &mut stream_games);
            tally.skipped.extend(skipped);
            stdin_reports += reports.iter().filter(|r| r.file == "-").count();
            let _screen = progress.pause();
            if !write_reports(reports, &mut out, &mut tally, &mut kept) {
                break false;
            }
            // What is written shows before the progress line comes back.
            if out.writer.flush().is_err() {
                break false;
            }
        };
        progress.finish();
        completed
    });
    if !completed {
        return ExitCode::from(1);
    }
    if reads_stdin && stdin_reports == 0 {
        let error = RecordError {
            file: "-".into(),
            line: None,
            game: None,
            ply: None,
            kind: ErrorKind::NoGame,
        };
        let report = GameReport::unreadable("-", 0, 0, error);
        if !write_reports(vec![report], &mut out, &mut tally, &mut kept) {
            return ExitCode::from(1);
        }
    }
    let summary = tally.summary(start.elapsed());
    let _ = if args.json {
        writeln!(std::io::stderr(), "{summary}")
    } else {
        writeln!(out.writer, "{summary}")
    };
    let _ = out.writer.flush();
    let mut status = u8::from(tally.has_errors());
    if let Some(path) = &args.html {
        let title = format!("xq referee: {}", args.inputs.join(" "));
        if let Err(e) = std::fs::write(
            path,
            html::report(&title, kept.as_deref().unwrap_or_default(), &summary),
        ) {
            eprintln!("xq referee: cannot write {}: {e}", path.display());
            status = 1;
        }
    }
    ExitCode::from(status)
}

/// Judges the inputs repeatedly for `seconds` on one thread and on `threads`, and prints the
/// throughput.
fn bench(inputs: &[Input], config: Rules, threads: usize, seconds: f64) -> ExitCode {
    let (reports, _) = judge_inputs(inputs, config, threads, &Progress::new(None), &mut 0);
    let games = reports.iter().filter(|r| r.game > 0).count();
    let plies: usize = reports.iter().map(|r| r.moves().len()).sum();
    if games == 0 {
        eprintln!("xq referee --bench: no games in the inputs");
        return ExitCode::from(1);
    }
    println!(
        "referee bench: {games} games, {plies} plies ({:.1} plies a game), {} repetitions rule",
        plies as f64 / games as f64,
        config.repetitions
    );
    let mut counts = vec![1];
    if threads > 1 {
        counts.push(threads);
    }
    for t in counts {
        let start = Instant::now();
        let mut rounds = 0u64;
        while rounds == 0 || start.elapsed().as_secs_f64() < seconds {
            let _ = judge_inputs(inputs, config, t, &Progress::new(None), &mut 0);
            rounds += 1;
        }
        let secs = start.elapsed().as_secs_f64();
        let g = (games as u64 * rounds) as f64 / secs;
        let p = (plies as u64 * rounds) as f64 / secs;
        println!("threads {t}: {rounds} rounds in {secs:.2} s: {g:.0} games/s, {p:.0} plies/s");
    }
    ExitCode::SUCCESS
}
