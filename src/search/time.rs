//! Search limits and time management: turns a clock or a fixed time into soft and hard budgets,
//! counted from when the clock starts (the search's start, or `ponderhit` for a ponder search).

use crate::moves::Move;
use std::sync::LazyLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The side to move's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Clock {
    /// Time left.
    pub remaining: Duration,
    /// Added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
}

/// What bounds one search.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Limits {
    /// Stop after this depth.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Think exactly this long.
    pub movetime: Option<Duration>,
    /// Manage this clock.
    pub clock: Option<Clock>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Pondering: no deadline until `ponderhit`.
    pub ponder: bool,
    /// Only these root moves; empty means all.
    pub search_moves: Vec<Move>,
}

impl Limits {
    /// A search to `depth` plies and no other limit.
    pub fn to_depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }
}

/// How long one move may take, counted from when its clock starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub soft: Option<Duration>,
    /// Stop at once after this.
    pub hard: Option<Duration>,
}

impl Budget {
    /// Works out the budget; `overhead` is kept back for communication lag. A ponder search gets
    /// the budget of a normal one: its clock starts at `ponderhit`.
    pub fn new(limits: &Limits, overhead: Duration) -> Budget {
        if limits.infinite {
            return Budget {
                soft: None,
                hard: None,
            };
        }
        if let Some(t) = limits.movetime {
            let t = t.saturating_sub(overhead).max(Duration::from_millis(1));
            return Budget {
                soft: Some(t),
                hard: Some(t),
            };
        }
        match limits.clock {
            Some(clock) => {
                let (soft, hard) = allocate(&clock, overhead);
                Budget {
                    soft: Some(soft),
                    hard: Some(hard),
                }
            }
            None => Budget {
                soft: None,
                hard: None,
            },
        }
    }
}

/// When a search's clock started, shared between the engine (which starts it at `ponderhit`) and
/// the search threads (which read it). Not started while pondering.
#[derive(Debug)]
pub struct MoveClock {
    /// Nanoseconds from a process-wide epoch, plus one; 0 while the clock has not started.
    started: AtomicU64,
}

impl Default for MoveClock {
    fn default() -> MoveClock {
        // The epoch is fixed before any clock can start, so no start time precedes it.
        LazyLock::force(&EPOCH);
        MoveClock {
            started: AtomicU64::new(0),
        }
    }
}

static EPOCH: LazyLock<Instant> = LazyLock::new(Instant::now);

fn stamp(at: Instant) -> u64 {
    at.saturating_duration_since(*EPOCH).as_nanos() as u64 + 1
}

impl MoveClock {
    /// Starts the clock at `at`.
    pub fn start(&self, at: Instant) {
        self.started.store(stamp(at), Ordering::Relaxed);
    }

    /// Stops the clock until the next `start` (a ponder search).
    pub fn reset(&self) {
        self.started.store(0, Ordering::Relaxed);
    }

    /// Time on the clock so far; `None` while it has not started.
    pub fn elapsed(&self) -> Option<Duration> {
        match self.started.load(Ordering::Relaxed) {
            0 => None,
            t => Some(Duration::from_nanos(
                stamp(Instant::now()).saturating_sub(t),
            )),
        }
    }

    /// Whether the clock has run past `limit`.
    pub fn past(&self, limit: Option<Duration>) -> bool {
        limit.is_some_and(|l| self.elapsed().is_some_and(|e| e >= l))
    }
}

/// Soft and hard budgets for one move.
fn allocate(clock: &Clock, overhead: Duration) -> (Duration, Duration) {
    let left = clock.remaining.saturating_sub(overhead);
    let moves = clock.moves_to_go.unwrap_or(30).clamp(1, 50);
    // Spend an even share plus most of the increment; never plan to use more than a fraction of
    // what is left, so a flag fall is impossible even when the increment is zero.
    let share = left / (moves + 2) + clock.increment * 3 / 4;
    let soft = share.min(left / 4);
    let hard = (share * 3).min(left / 2).max(soft);
    (
        soft.max(Duration::from_millis(1)),
        hard.max(Duration::from_millis(1)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_stay_inside_the_clock() {
        for ms in [10u64, 100, 1_000, 10_000, 600_000] {
            for inc in [0u64, 50, 1_000] {
                let clock = Clock {
                    remaining: Duration::from_millis(ms),
                    increment: Duration::from_millis(inc),
                    moves_to_go: None,
                };
                let (soft, hard) = allocate(&clock, Duration::from_millis(5));
                assert!(soft <= hard);
                assert!(hard <= Duration::from_millis(ms / 2).max(Duration::from_millis(1)));
            }
        }
    }

    #[test]
    fn the_clock_runs_only_once_started() {
        let clock = MoveClock::default();
        assert_eq!(clock.elapsed(), None);
        assert!(!clock.past(Some(Duration::ZERO)));
        std::thread::sleep(Duration::from_millis(60));
        clock.start(Instant::now() - Duration::from_millis(50));
        assert!(clock.past(Some(Duration::from_millis(40))));
        assert!(!clock.past(Some(Duration::from_secs(3600))));
        assert!(!clock.past(None));
        clock.reset();
        assert_eq!(clock.elapsed(), None);
    }
}
