//! Judging a batch of inputs on all cores, for `xq referee` and the Python module alike: every input split into games, every
//! game judged, the reports in input and game order.

use super::inputs::{Input, Kind};
use crate::record::stream::{Numbering, read_error};
use crate::record::{ErrorKind, FileGames, RecordError};
use crate::referee::progress::Progress;
use crate::referee::{GameReport, Rules, judge_raw};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A piece of input split into games, or why it could not be.
struct Split {
    name: String,
    kind: Kind,
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

/// Judges game files as `xq referee` judges the files it is given, on up to `threads` workers:
/// reports in file and game order. `files` pairs each path with whether it was found by walking a
/// directory (then a file without any game in it is skipped, not an error).
pub fn judge_files(files: &[(PathBuf, bool)], rules: Rules, threads: usize) -> Vec<GameReport> {
    let inputs: Vec<Input> = files
        .iter()
        .map(|(path, found)| Input::file(path, *found))
        .collect();
    let progress = Progress::new(None);
    judge_inputs(
        &inputs,
        rules,
        threads,
        &progress,
        &mut Numbering::default(),
    )
    .0
}

/// Splits and judges every input; reports in input order, game order, and the found files that
/// held no game. `stream` numbers the games of the stream being read in pieces through the
/// stream.
pub fn judge_inputs(
    inputs: &[Input],
    config: Rules,
    threads: usize,
    progress: &Progress,
    stream: &mut Numbering,
) -> (Vec<GameReport>, Vec<String>) {
    let none = AtomicUsize::new(0);
    let mut splits = parallel(inputs.len(), threads, &none, |i| {
        let input = &inputs[i];
        let games = match &input.content {
            Ok(piece) => piece.read(&input.name),
            Err(e) => Err(read_error(&input.name, e.clone())),
        };
        Split {
            name: input.name.clone(),
            kind: input.kind,
            games,
        }
    });
    // Number the games of a stream's pieces through the stream.
    for (split, input) in splits.iter_mut().zip(inputs) {
        if let (Kind::Stream, Ok(piece), Ok(games)) = (input.kind, &input.content, &mut split.games)
        {
            stream.number(piece.place, games);
        }
    }
    let mut skipped = Vec::new();
    let mut tasks = Vec::new();
    let mut failed_files = Vec::new();
    for (f, split) in splits.iter().enumerate() {
        match &split.games {
            Ok(games) => tasks.extend((0..games.games.len()).map(|g| (f, g))),
            Err(e) if e.kind == ErrorKind::NoGame && split.kind == Kind::FoundFile => {
                skipped.push(split.name.clone())
            }
            // A piece of a stream with no game in it (prose between games).
            Err(e) if e.kind == ErrorKind::NoGame && split.kind == Kind::Stream => {}
            Err(e) => failed_files.push((f, GameReport::unreadable(&split.name, 0, 0, e.clone()))),
        }
    }
    let total = tasks.len();
    let bytes: usize = inputs.iter().map(Input::bytes).sum();
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
