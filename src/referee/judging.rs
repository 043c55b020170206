//! One path from bytes to reports: [`Judging`] takes the sources (files, a directory's files,
//! standard input or text read as a stream, a request's bytes, a game's moves) and the rules, and
//! gives the reports in source and game order, each game judged on up to the threads asked for.
//! `xq referee`, the server and the Python module all judge through it; a [`Stop`] ends the work
//! early (a deadline, or a flag another thread raises).

use super::inputs::{Batches, Content, Input, Kind, Source};
use super::progress::Progress;
use super::{GameReport, Rules};
use crate::game::Game;
use crate::record::stream::{Numbering, read_error, stream_error};
use crate::record::{ErrorKind, FileGames, GameRecord, RecordError};
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

/// When judging stops before every game is judged: at a deadline, or once a flag is raised.
#[derive(Clone, Debug, Default)]
pub struct Stop {
    deadline: Option<Instant>,
    flag: Option<Arc<AtomicBool>>,
}

impl Stop {
    /// Stops at `deadline`.
    pub fn at(deadline: Instant) -> Stop {
        Stop {
            deadline: Some(deadline),
            flag: None,
        }
    }

    /// Stops once `flag` is raised.
    pub fn on(flag: Arc<AtomicBool>) -> Stop {
        Stop {
            deadline: None,
            flag: Some(flag),
        }
    }

    /// Stops also once `flag` is raised (in place of any flag given before).
    pub fn or_on(mut self, flag: Arc<AtomicBool>) -> Stop {
        self.flag = Some(flag);
        self
    }

    /// Whether the work should stop now.
    pub fn reached(&self) -> bool {
        self.flag
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Why judging ended before every game was judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Halt {
    /// The [`Stop`] said so.
    Stopped,
    /// The sources hold more games than the limit set ([`Judging::game_limit`]); none past
    /// the batch that would exceed it is judged.
    TooManyGames,
}

/// The reports of one batch of inputs, and the files found in a directory that held no game.
#[derive(Debug, Default)]
pub struct Batch {
    /// The reports, in source and game order.
    pub reports: Vec<GameReport>,
    /// Files found by walking a directory that hold no game (skipped, not errors).
    pub skipped: Vec<String>,
    /// How many games were judged (reports on inputs that could not be read are not games).
    pub games: usize,
}

/// Sources judged under rules, a batch at a time or a report at a time (as an iterator).
pub struct Judging {
    batches: Batches,
    rules: Rules,
    threads: usize,
    stop: Stop,
    streams: Vec<StreamState>,
    /// Reports not yet taken by the iterator.
    pending: VecDeque<GameReport>,
    /// The most games to judge, and how many have been.
    game_limit: Option<usize>,
    /// The most plies of a game to judge.
    ply_limit: Option<usize>,
    games: usize,
    halt: Option<Halt>,
    finished: bool,
}

impl Judging {
    /// Judges `sources` under `rules`, on one thread, without a stop.
    pub fn new(sources: Vec<Source>, rules: Rules) -> Judging {
        Judging {
            batches: Batches::new(sources),
            rules,
            threads: 1,
            stop: Stop::default(),
            streams: Vec::new(),
            pending: VecDeque::new(),
            game_limit: None,
            ply_limit: None,
            games: 0,
            halt: None,
            finished: false,
        }
    }

    /// Judges on up to `threads` workers (the calling thread is one of them).
    pub fn threads(mut self, threads: usize) -> Judging {
        self.threads = threads.max(1);
        self
    }

    /// Stops early when `stop` says so.
    pub fn stop(mut self, stop: Stop) -> Judging {
        self.stop = stop;
        self
    }

    /// Judges at most `games` games: sources that hold more end the work (see
    /// [`Judging::halt`]) before the batch that would pass the limit is judged.
    pub fn game_limit(mut self, games: usize) -> Judging {
        self.game_limit = Some(games);
        self
    }

    /// Judges at most `plies` plies of a game: a longer game is judged up to there, its report
    /// saying where its judging stopped and why.
    pub fn ply_limit(mut self, plies: usize) -> Judging {
        self.ply_limit = Some(plies);
        self
    }

    /// Why judging ended before every game was judged, if it did.
    pub fn halt(&self) -> Option<Halt> {
        self.halt
    }

    /// The next batch of reports, its progress counted on `progress`; `None` when every source
    /// is judged, or the work ended early (see [`Judging::halt`]).
    pub fn next_batch(&mut self, progress: &Progress) -> Option<Batch> {
        if self.finished {
            return None;
        }
        let inputs = self.batches.next_batch();
        self.streams
            .resize_with(self.batches.streams().len(), StreamState::default);
        if inputs.is_empty() {
            self.finished = true;
            return self.streams_without_games();
        }
        let bounds = Bounds {
            games: self
                .game_limit
                .map(|limit| limit.saturating_sub(self.games)),
            plies: self.ply_limit,
        };
        match judge_inputs(
            &inputs,
            self.rules,
            self.threads,
            progress,
            &mut self.streams,
            &self.stop,
            bounds,
        ) {
            Ok(batch) => {
                self.games += batch.games;
                Some(batch)
            }
            Err(halt) => {
                self.halt = Some(halt);
                self.finished = true;
                None
            }
        }
    }

    /// Every input of the sources, read (for judging the same inputs over and over).
    pub fn read_all(mut self) -> Inputs {
        let mut inputs = Vec::new();
        loop {
            let batch = self.batches.next_batch();
            if batch.is_empty() {
                break;
            }
            inputs.extend(batch);
        }
        Inputs {
            inputs,
            streams: self.batches.streams().len(),
        }
    }

    /// At the end: a report that a stream held no game, for each stream that gave no report.
    fn streams_without_games(&self) -> Option<Batch> {
        let reports: Vec<GameReport> = self
            .batches
            .streams()
            .iter()
            .zip(&self.streams)
            .filter(|(_, state)| !state.reported)
            .map(|(name, _)| {
                GameReport::unreadable(name, 0, 0, stream_error(name, ErrorKind::NoGame))
            })
            .collect();
        (!reports.is_empty()).then(|| Batch {
            reports,
            ..Batch::default()
        })
    }
}

impl Iterator for Judging {
    type Item = GameReport;

    fn next(&mut self) -> Option<GameReport> {
        loop {
            if let Some(report) = self.pending.pop_front() {
                return Some(report);
            }
            let batch = self.next_batch(&Progress::new(None))?;
            self.pending.extend(batch.reports);
        }
    }
}

/// Reads one file's bytes and judges every game in it, on this thread: what `xq referee` does for
/// a file.
pub fn judge_bytes(name: &str, bytes: &[u8], rules: Rules) -> Vec<GameReport> {
    let source = Source::Bytes {
        name: name.to_string(),
        bytes: bytes.to_vec(),
    };
    Judging::new(vec![source], rules).collect()
}

/// Runs `f(i)` for every `i < n` on up to `threads` workers (as many as the system will start;
/// the calling thread works too) until `stop`; results in index order, or [`Halt::Stopped`] when
/// the work stopped before every item was done (an item that stopped part way gives `None`).
/// `done` counts finished items.
fn parallel<T: Send>(
    n: usize,
    threads: usize,
    done: &AtomicUsize,
    stop: &Stop,
    f: impl Fn(usize) -> Option<T> + Sync,
) -> Result<Vec<T>, Halt> {
    let next = AtomicUsize::new(0);
    let work = || {
        let mut mine = Vec::new();
        loop {
            if stop.reached() {
                break;
            }
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= n {
                break;
            }
            let Some(item) = f(i) else {
                break;
            };
            mine.push((i, item));
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
    if all.len() < n {
        return Err(Halt::Stopped);
    }
    all.sort_by_key(|(i, _)| *i);
    Ok(all.into_iter().map(|(_, t)| t).collect())
}

/// What an input became once read: its games, a game, or why it could not be read.
enum Read<'a> {
    Games(Result<FileGames, RecordError>),
    Game(&'a Game),
}

/// One game to judge: a game as split from an input's bytes, or a game given.
#[derive(Clone, Copy)]
enum Task<'a> {
    /// The input's name, its games and which of them.
    Split(&'a str, &'a FileGames, usize),
    /// The input's name and the game.
    Given(&'a str, &'a Game),
}

/// A stream's games numbered through it, and whether it gave any report.
#[derive(Default)]
struct StreamState {
    numbering: Numbering,
    reported: bool,
}

/// The inputs of a batch read once, each with the stream it is a piece of (for judging the same
/// inputs over and over).
pub struct Inputs {
    inputs: Vec<(Input, Option<usize>)>,
    streams: usize,
}

impl Inputs {
    /// Judges every input again from the start: the reports in input and game order.
    pub fn judge(&self, rules: Rules, threads: usize) -> Vec<GameReport> {
        let mut streams = Vec::new();
        streams.resize_with(self.streams, StreamState::default);
        let progress = Progress::new(None);
        judge_inputs(
            &self.inputs,
            rules,
            threads,
            &progress,
            &mut streams,
            &Stop::default(),
            Bounds::default(),
        )
        .map_or_else(|_| Vec::new(), |batch| batch.reports)
    }
}

/// Splits and judges every input of a batch (each with the stream it is a piece of, if any);
/// reports in input order and game order, and the found files that held no game. The games of a
/// stream's pieces are numbered through the stream on `streams`. A batch of more games than
/// its bounds allow is not judged.
fn judge_inputs(
    inputs: &[(Input, Option<usize>)],
    rules: Rules,
    threads: usize,
    progress: &Progress,
    streams: &mut [StreamState],
    stop: &Stop,
    bounds: Bounds,
) -> Result<Batch, Halt> {
    let room = bounds.games;
    let none = AtomicUsize::new(0);
    let mut reads = parallel(inputs.len(), threads, &none, stop, |i| {
        let (input, _) = &inputs[i];
        Some(match &input.content {
            Content::Bytes(Ok(piece)) => {
                Read::Games(piece.read(&input.name, room.unwrap_or(usize::MAX)))
            }
            Content::Bytes(Err(e)) => Read::Games(Err(read_error(&input.name, e.clone()))),
            Content::Game(game) => Read::Game(game),
        })
    })?;
    // Number the games of a stream's pieces through the stream; note the streams that gave a
    // report (a piece with a game, or an error other than a piece without games).
    for (read, (input, stream)) in reads.iter_mut().zip(inputs) {
        let (Some(s), Read::Games(games)) = (stream, read) else {
            continue;
        };
        match (games, &input.content) {
            (Ok(games), Content::Bytes(Ok(piece))) => {
                streams[*s].numbering.number(piece.place, games)
            }
            (Err(e), _) if e.kind == ErrorKind::NoGame => continue,
            _ => {}
        }
        streams[*s].reported = true;
    }
    let mut batch = Batch::default();
    let mut tasks = Vec::new();
    let mut failed = Vec::new();
    for (f, (read, (input, _))) in reads.iter().zip(inputs).enumerate() {
        let name = input.name.as_str();
        match read {
            Read::Game(game) => tasks.push((f, Task::Given(name, game))),
            Read::Games(Ok(games)) => {
                tasks.extend((0..games.games.len()).map(|g| (f, Task::Split(name, games, g))))
            }
            Read::Games(Err(e)) if e.kind == ErrorKind::NoGame && input.kind == Kind::FoundFile => {
                batch.skipped.push(input.name.clone())
            }
            // A piece of a stream with no game in it (prose between games).
            Read::Games(Err(e)) if e.kind == ErrorKind::NoGame && input.kind == Kind::Stream => {}
            Read::Games(Err(e)) => failed.push((f, GameReport::unreadable(name, 0, 0, e.clone()))),
        }
    }
    if room.is_some_and(|room| tasks.len() > room) {
        return Err(Halt::TooManyGames);
    }
    batch.games = tasks.len();
    let bytes: usize = inputs.iter().map(|(input, _)| input.bytes()).sum();
    progress.start_batch(bytes as u64, tasks.len());
    let reports = parallel(
        tasks.len(),
        threads,
        &progress.games,
        stop,
        |i| match tasks[i].1 {
            Task::Split(name, games, g) => judge_raw(name, games, g, rules, stop, bounds.plies),
            Task::Given(name, game) => {
                let record = within(name, GameRecord::of_game(game), bounds.plies);
                GameReport::judge_until(name, &record, rules, stop)
            }
        },
    );
    progress.end_batch();
    let reports = reports?;
    // Interleave input-level failures at their input's place.
    batch.reports.reserve(reports.len() + failed.len());
    let mut failed = failed.into_iter().peekable();
    for (report, &(f, _)) in reports.into_iter().zip(&tasks) {
        while failed.peek().is_some_and(|(ff, _)| *ff < f) {
            batch.reports.extend(failed.next().map(|(_, r)| r));
        }
        batch.reports.push(report);
    }
    batch.reports.extend(failed.map(|(_, r)| r));
    Ok(batch)
}

/// The bounds of one batch's work: the games it may hold, the plies of a game judged.
#[derive(Clone, Copy, Debug, Default)]
struct Bounds {
    games: Option<usize>,
    plies: Option<usize>,
}

/// A record cut to its first `plies` plies, if it has more: its replay stops there, the stop
/// saying why.
fn within(name: &str, mut record: GameRecord, plies: Option<usize>) -> GameRecord {
    let Some(plies) = plies.filter(|&p| record.moves.len() > p) else {
        return record;
    };
    let line = record.tokens.get(plies).map(|t| t.line);
    let moves = record.moves.len();
    record.moves.truncate(plies);
    record.stop = Some(RecordError {
        file: name.to_string(),
        line,
        game: Some(record.index),
        ply: Some(plies + 1),
        kind: ErrorKind::Format(format!(
            "the game has {moves} plies; the first {plies} are judged here"
        )),
    });
    record
}

/// Resolves and judges the `g`-th game as split from a file, up to `plies` plies; `None` if
/// `stop` came first.
fn judge_raw(
    name: &str,
    games: &FileGames,
    g: usize,
    rules: Rules,
    stop: &Stop,
    plies: Option<usize>,
) -> Option<GameReport> {
    let raw = &games.games[g];
    match crate::record::resolve(name, games.encoding, raw) {
        Ok(record) => GameReport::judge_until(name, &within(name, record, plies), rules, stop),
        Err(e) => Some(GameReport::unreadable(name, raw.index, raw.line, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    const TWO_GAMES: &str = "[Event \"one\"]\n1. h2e2 h9g7 *\n\n[Event \"two\"]\n1. b2e2 *\n";

    #[test]
    fn bytes_a_stream_and_a_game_give_the_same_reports() {
        let bytes = judge_bytes("games.pgn", TWO_GAMES.as_bytes(), Rules::DEFAULT);
        let stream: Vec<GameReport> = Judging::new(
            vec![Source::text("games.pgn", TWO_GAMES.into())],
            Rules::DEFAULT,
        )
        .threads(2)
        .collect();
        assert_eq!(bytes.len(), 2);
        assert_eq!(stream.len(), 2);
        for (a, b) in bytes.iter().zip(&stream) {
            assert_eq!(
                (a.game, a.moves(), a.result()),
                (b.game, b.moves(), b.result())
            );
        }
        let moves = bytes[0].moves().to_vec();
        let game = Game::replay(Position::startpos(), &moves).expect("legal moves");
        let given: Vec<GameReport> = Judging::new(
            vec![Source::Game {
                name: "game".into(),
                game: Box::new(game),
            }],
            Rules::DEFAULT,
        )
        .collect();
        assert_eq!(given.len(), 1);
        assert_eq!(given[0].moves(), &moves[..]);
    }

    #[test]
    fn games_are_numbered_and_lined_through_a_stream() {
        let text = "[Event \"A\"]\n1. h2e2 h9g7 1-0\nprose\n[Event \"B\"]\n1. h2e2 {open\n\
                    [Event \"C\"]\n1. h2e2 1-0\n";
        let stream: Vec<GameReport> =
            Judging::new(vec![Source::text("-", text.into())], Rules::DEFAULT).collect();
        let places: Vec<(usize, u32)> = stream.iter().map(|r| (r.game, r.line)).collect();
        assert_eq!(places, vec![(1, 1), (2, 4), (3, 6)]);
        // Read whole, the text gives the same games and the same defect.
        let whole = judge_bytes("-", text.as_bytes(), Rules::DEFAULT);
        let errors = |reports: &[GameReport]| -> Vec<String> {
            reports.iter().map(|r| format!("{:?}", r.error())).collect()
        };
        assert_eq!(errors(&stream), errors(&whole));
        assert!(errors(&whole)[1].contains("before the tag at line 6"));
        // Tags, a comment and more tags are one game, in pieces as whole.
        let text = "[Event \"A\"]\n{c}\n[Site \"B\"]\n1. h2e2 h9g7 *\n";
        let one: Vec<GameReport> =
            Judging::new(vec![Source::text("-", text.into())], Rules::DEFAULT).collect();
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].moves().len(), 2);
    }

    #[test]
    fn a_stream_without_games_is_one_error_at_the_end() {
        let sources = vec![
            Source::text("empty", Vec::new()),
            Source::Bytes {
                name: "games.pgn".into(),
                bytes: TWO_GAMES.into(),
            },
        ];
        let reports: Vec<GameReport> = Judging::new(sources, Rules::DEFAULT).collect();
        assert_eq!(reports.len(), 3);
        assert_eq!(reports[2].file, "empty");
        assert_eq!(
            reports[2].error().map(|e| e.kind.clone()),
            Some(ErrorKind::NoGame)
        );
    }

    #[test]
    fn sources_with_more_games_than_the_limit_are_not_judged() {
        let source = || Source::Bytes {
            name: "games.pgn".into(),
            bytes: TWO_GAMES.into(),
        };
        let mut judging = Judging::new(vec![source()], Rules::DEFAULT).game_limit(1);
        assert!(judging.next().is_none());
        assert_eq!(judging.halt(), Some(Halt::TooManyGames));
        let mut judging = Judging::new(vec![source()], Rules::DEFAULT).game_limit(2);
        assert_eq!(judging.by_ref().count(), 2);
        assert_eq!(judging.halt(), None);
    }

    #[test]
    fn a_game_past_the_ply_limit_is_judged_up_to_it_and_says_so() {
        let text = format!(
            "[Event \"x\"]\n{}*\n",
            "1. h0g2 h9g7 2. g2h0 g7h9 ".repeat(10)
        );
        let source = || Source::Bytes {
            name: "long.pgn".into(),
            bytes: text.clone().into_bytes(),
        };
        let whole: Vec<GameReport> = Judging::new(vec![source()], Rules::DEFAULT).collect();
        assert_eq!(whole[0].moves().len(), 40);
        assert!(whole[0].error().is_none());
        let cut: Vec<GameReport> = Judging::new(vec![source()], Rules::DEFAULT)
            .ply_limit(6)
            .collect();
        assert_eq!(cut[0].moves().len(), 6);
        let error = cut[0].error().expect("where the judging stopped");
        assert_eq!(error.ply, Some(7));
        assert!(error.to_string().contains("40 plies"), "{error}");
    }

    #[test]
    fn reading_stops_past_the_game_limit() {
        let text = "[Event \"x\"]\n1. h2e2 *\n".repeat(50);
        let piece = crate::record::read_file("many.pgn", text.as_bytes()).expect("games");
        assert_eq!(piece.games.len(), 50);
        let cut = crate::record::pgn::split_at(&text, Default::default(), 3);
        // The games past the limit, and the one under way where splitting stopped.
        assert_eq!(cut.len(), 5, "split no further than just past the limit");
        let mut judging = Judging::new(
            vec![Source::Bytes {
                name: "many.pgn".into(),
                bytes: text.into_bytes(),
            }],
            Rules::DEFAULT,
        )
        .game_limit(3);
        assert!(judging.next().is_none());
        assert_eq!(judging.halt(), Some(Halt::TooManyGames));
    }

    #[test]
    fn a_raised_stop_ends_the_work_without_reports() {
        let flag = Arc::new(AtomicBool::new(true));
        let source = Source::Bytes {
            name: "games.pgn".into(),
            bytes: TWO_GAMES.into(),
        };
        let mut judging = Judging::new(vec![source], Rules::DEFAULT).stop(Stop::on(flag));
        assert!(judging.next().is_none());
        assert_eq!(judging.halt(), Some(Halt::Stopped));
        let past = Stop::at(Instant::now());
        assert!(past.reached());
        assert!(!Stop::default().reached());
    }
}
