//! Search limits and time management: turns a clock or a fixed time into soft and hard budgets,
//! counted from when the clock starts (the search's start, or `ponderhit` for a ponder search).

use super::score::Score;
use crate::moves::Move;
use arrayvec::ArrayVec;
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
    /// Whether the soft budget may be scaled by how settled the search is ([`Steadiness`]): so
    /// for a clock, not for a fixed time a move.
    pub scalable: bool,
}

impl Budget {
    /// Works out the budget; `overhead` is kept back for communication lag. A ponder search gets
    /// the budget of a normal one: its clock starts at `ponderhit`.
    pub fn new(limits: &Limits, overhead: Duration) -> Budget {
        if limits.infinite {
            return Budget {
                soft: None,
                hard: None,
                scalable: false,
            };
        }
        if let Some(t) = limits.movetime {
            let t = t.saturating_sub(overhead).max(Duration::from_millis(1));
            return Budget {
                soft: Some(t),
                hard: Some(t),
                scalable: false,
            };
        }
        match limits.clock {
            Some(clock) => {
                let (soft, hard) = allocate(&clock, overhead);
                Budget {
                    soft: Some(soft),
                    hard: Some(hard),
                    scalable: true,
                }
            }
            None => Budget {
                soft: None,
                hard: None,
                scalable: false,
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
    let moves = clock.moves_to_go.unwrap_or(40).clamp(1, 50);
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

/// What the completed iterations of one search say about how settled its best move is; from
/// that, how far to stretch or shrink a clock's soft budget. A best move that keeps changing, a
/// score that falls from one iteration to the next, and a best move that took few of the
/// iteration's nodes (its rivals were hard to refute) each ask for more time; a best move that
/// stays, a rising score and a best move that took nearly all the nodes, for less.
#[derive(Clone, Debug, Default)]
pub struct Steadiness {
    /// Changes of the best move, the count halved at each later iteration.
    changes: f64,
    /// The best move of the last iteration.
    best: Option<Move>,
    /// The scores of the last iterations, latest last.
    scores: ArrayVec<i32, 3>,
}

/// The least and most a soft budget is scaled by.
const SCALE_RANGE: (f64, f64) = (0.5, 2.5);

impl Steadiness {
    /// Records a completed iteration: its best move, that move's score, and the share of the
    /// iteration's root nodes the best move took (0 to 1). Returns the factor for the soft budget.
    pub fn record(&mut self, best: Move, score: i32, best_share: f64) -> f64 {
        self.changes /= 2.0;
        if self.best.is_some_and(|m| m != best) {
            self.changes += 1.0;
        }
        self.best = Some(best);
        let ordinary = |v: i32| Score(v).is_ordinary();
        let fall = if ordinary(score)
            && !self.scores.is_empty()
            && self.scores.iter().all(|&v| ordinary(v))
        {
            let reference =
                self.scores.iter().map(|&v| f64::from(v)).sum::<f64>() / self.scores.len() as f64;
            reference - f64::from(score)
        } else {
            0.0
        };
        if self.scores.is_full() {
            self.scores.remove(0);
        }
        self.scores.push(score);
        let instability = 1.0 + 0.8 * self.changes;
        let falling = (1.0 + fall / 250.0).clamp(0.8, 1.5);
        let contested = 1.3 - 0.6 * best_share.clamp(0.0, 1.0);
        (instability * falling * contested).clamp(SCALE_RANGE.0, SCALE_RANGE.1)
    }
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

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn a_settled_search_gets_less_time_and_an_unsettled_one_more() {
        // Same best move at each iteration, steady score, the best move taking most nodes.
        let mut settled = Steadiness::default();
        let mut factor = 0.0;
        for _ in 0..6 {
            factor = settled.record(mv("h2e2"), 30, 0.85);
        }
        assert!(factor < 1.0, "{factor}");
        // The best move changing at each iteration.
        let mut changing = Steadiness::default();
        for (i, m) in ["h2e2", "b2e2", "h2e2", "b2e2", "h2e2", "b2e2"]
            .into_iter()
            .enumerate()
        {
            factor = changing.record(mv(m), 30, 0.85);
            if i == 0 {
                assert!(factor < 1.0);
            }
        }
        assert!(factor > 1.3, "{factor}");
        // The score falling.
        let mut falling = Steadiness::default();
        for v in [100, 100, 100, 0] {
            factor = falling.record(mv("h2e2"), v, 0.85);
        }
        let mut steady = Steadiness::default();
        let mut steady_factor = 0.0;
        for v in [100, 100, 100, 100] {
            steady_factor = steady.record(mv("h2e2"), v, 0.85);
        }
        assert!(factor > steady_factor * 1.3, "{factor} {steady_factor}");
        // A rival that took many nodes.
        let mut contested = Steadiness::default();
        for _ in 0..4 {
            factor = contested.record(mv("h2e2"), 100, 0.3);
        }
        assert!(factor > steady_factor, "{factor} {steady_factor}");
    }

    #[test]
    fn mates_and_rulings_leave_the_score_trend_out() {
        let mut a = Steadiness::default();
        let mut b = Steadiness::default();
        let mut fa = 0.0;
        let mut fb = 0.0;
        for v in [50, 50, 50, -Score::mate_in(5).0] {
            fa = a.record(mv("h2e2"), v, 0.7);
        }
        for v in [50, 50, 50, 50] {
            fb = b.record(mv("h2e2"), v, 0.7);
        }
        assert_eq!(fa, fb);
    }

    #[test]
    fn the_scale_stays_in_its_range() {
        let mut s = Steadiness::default();
        let moves = ["h2e2", "b2e2"];
        for i in 0..40 {
            let f = s.record(mv(moves[i % 2]), if i % 2 == 0 { 900 } else { -900 }, 0.0);
            assert!((SCALE_RANGE.0..=SCALE_RANGE.1).contains(&f));
        }
        let mut s = Steadiness::default();
        for i in 0..40 {
            let f = s.record(mv("h2e2"), i * 200, 1.0);
            assert!((SCALE_RANGE.0..=SCALE_RANGE.1).contains(&f));
        }
    }

    #[test]
    fn only_a_clock_budget_scales() {
        let clock = Limits {
            clock: Some(Clock {
                remaining: Duration::from_secs(10),
                increment: Duration::from_millis(100),
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        assert!(Budget::new(&clock, Duration::ZERO).scalable);
        let fixed = Limits {
            movetime: Some(Duration::from_secs(1)),
            ..Limits::default()
        };
        assert!(!Budget::new(&fixed, Duration::ZERO).scalable);
        assert!(!Budget::new(&Limits::to_depth(5), Duration::ZERO).scalable);
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
