//! The progress line of `xq referee` on a terminal's standard error, shown once a run has taken
//! more than a second: a bar over the bytes of the files to read (when standard input is among
//! the inputs its size is unknown, and only counts are shown), the games judged and the time.
//! Reports written to the same terminal take the line away first, so the two never mix.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long a run goes before the line appears.
const QUIET: Duration = Duration::from_secs(1);
/// How often the line is redrawn.
const TICK: Duration = Duration::from_millis(250);
/// The bar's width in characters.
const BAR: usize = 24;

/// The counts the line is drawn from, updated by the workers and the batch loop.
pub struct Progress {
    start: Instant,
    /// The bytes of all inputs, when known.
    total_bytes: Option<u64>,
    /// The bytes of the batches already judged.
    bytes_done: AtomicU64,
    /// The bytes and games of the batch being judged, and the games judged before it.
    batch_bytes: AtomicU64,
    batch_games: AtomicUsize,
    batch_base: AtomicUsize,
    /// Games judged so far (the workers count here).
    pub games: AtomicUsize,
    finished: AtomicBool,
    /// Whether the line is on the screen; held while reports are written.
    shown: Mutex<usize>,
}

impl Progress {
    /// A run over `total_bytes` of input (`None`: unknown), starting now.
    pub fn new(total_bytes: Option<u64>) -> Progress {
        Progress {
            start: Instant::now(),
            total_bytes,
            bytes_done: AtomicU64::new(0),
            batch_bytes: AtomicU64::new(0),
            batch_games: AtomicUsize::new(0),
            batch_base: AtomicUsize::new(0),
            games: AtomicUsize::new(0),
            finished: AtomicBool::new(false),
            shown: Mutex::new(0),
        }
    }

    /// A batch of `bytes` holding `games` games is about to be judged.
    pub fn start_batch(&self, bytes: u64, games: usize) {
        self.batch_base
            .store(self.games.load(Ordering::Relaxed), Ordering::Relaxed);
        self.batch_games.store(games, Ordering::Relaxed);
        self.batch_bytes.store(bytes, Ordering::Relaxed);
    }

    /// The batch is judged.
    pub fn end_batch(&self) {
        let bytes = self.batch_bytes.swap(0, Ordering::Relaxed);
        self.bytes_done.fetch_add(bytes, Ordering::Relaxed);
        self.batch_games.store(0, Ordering::Relaxed);
    }

    /// The share of the input judged, when the input's size is known.
    fn fraction(&self) -> Option<f64> {
        let total = self.total_bytes.filter(|&t| t > 0)?;
        let games = self.games.load(Ordering::Relaxed);
        let in_batch = games.saturating_sub(self.batch_base.load(Ordering::Relaxed));
        let batch_games = self.batch_games.load(Ordering::Relaxed).max(1);
        let batch_bytes = self.batch_bytes.load(Ordering::Relaxed) as f64;
        let done = self.bytes_done.load(Ordering::Relaxed) as f64
            + batch_bytes * (in_batch.min(batch_games) as f64 / batch_games as f64);
        Some((done / total as f64).clamp(0.0, 1.0))
    }

    /// Takes the line off the screen and keeps it off while the guard lives (reports are written
    /// meanwhile).
    pub fn pause(&self) -> MutexGuard<'_, usize> {
        let mut shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
        clear(&mut shown);
        shown
    }

    /// Draws the line every tick once the run is past a second, until `finish`; then takes it
    /// away.
    pub fn run(&self) {
        while !self.finished.load(Ordering::Relaxed) {
            std::thread::sleep(TICK);
            let elapsed = self.start.elapsed();
            if elapsed < QUIET || self.finished.load(Ordering::Relaxed) {
                continue;
            }
            let line = render(elapsed, self.fraction(), self.games.load(Ordering::Relaxed));
            let mut shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
            let pad = shown.saturating_sub(line.chars().count());
            eprint!("\r{line}{}", " ".repeat(pad));
            *shown = line.chars().count();
        }
        clear(&mut self.shown.lock().unwrap_or_else(|e| e.into_inner()));
    }

    /// Ends `run`.
    pub fn finish(&self) {
        self.finished.store(true, Ordering::Relaxed);
    }
}

fn clear(shown: &mut usize) {
    if *shown > 0 {
        eprint!("\r{}\r", " ".repeat(*shown));
        *shown = 0;
    }
}

/// The line: `[########----------------]  34%  7,012 games  1.4 s`, or without the bar and the
/// share when the input's size is unknown.
pub fn render(elapsed: Duration, fraction: Option<f64>, games: usize) -> String {
    let mut line = String::from("judging ");
    if let Some(f) = fraction {
        let filled = ((f * BAR as f64).round() as usize).min(BAR);
        line.push('[');
        line.push_str(&"#".repeat(filled));
        line.push_str(&"-".repeat(BAR - filled));
        line.push_str(&format!("] {:3.0}%  ", f * 100.0));
    }
    line.push_str(&format!(
        "{} games  {:.1} s",
        thousands(games),
        elapsed.as_secs_f64()
    ));
    line
}

/// 22365 as 22,365.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_shows_the_bar_when_the_size_is_known() {
        let t = Duration::from_millis(1400);
        assert_eq!(
            render(t, Some(0.5), 22365),
            "judging [############------------]  50%  22,365 games  1.4 s"
        );
        assert_eq!(render(t, None, 7), "judging 7 games  1.4 s");
        assert_eq!(thousands(1_000_000), "1,000,000");
        assert_eq!(thousands(999), "999");
    }

    #[test]
    fn the_share_follows_the_batches() {
        let p = Progress::new(Some(1000));
        assert_eq!(p.fraction(), Some(0.0));
        p.start_batch(600, 3);
        p.games.fetch_add(1, Ordering::Relaxed);
        assert_eq!(p.fraction(), Some(0.2));
        p.games.fetch_add(2, Ordering::Relaxed);
        p.end_batch();
        assert_eq!(p.fraction(), Some(0.6));
        p.start_batch(400, 0);
        p.end_batch();
        assert_eq!(p.fraction(), Some(1.0));
        assert_eq!(Progress::new(None).fraction(), None);
    }
}
