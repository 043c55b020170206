//! Search limits and time management: turns a clock, a fixed time, nodes or depth into soft and
//! hard deadlines.

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
}

/// Deadlines worked out from limits when a search starts.
#[derive(Clone, Copy, Debug)]
pub struct Deadlines {
    /// When the search started.
    pub start: Instant,
    /// Do not start a new iteration after this.
    pub soft: Option<Instant>,
    /// Stop at once after this.
    pub hard: Option<Instant>,
}

impl Deadlines {
    /// Works out deadlines; `overhead` is kept back for communication lag.
    pub fn new(limits: &Limits, overhead: Duration, start: Instant) -> Deadlines {
        // A ponder search gets the deadlines of a normal one: they apply from `ponderhit` on.
        if limits.infinite {
            return Deadlines {
                start,
                soft: None,
                hard: None,
            };
        }
        if let Some(t) = limits.movetime {
            let t = t.saturating_sub(overhead).max(Duration::from_millis(1));
            return Deadlines {
                start,
                soft: Some(start + t),
                hard: Some(start + t),
            };
        }
        let Some(clock) = limits.clock else {
            return Deadlines {
                start,
                soft: None,
                hard: None,
            };
        };
        let (soft, hard) = allocate(&clock, overhead);
        Deadlines {
            start,
            soft: Some(start + soft),
            hard: Some(start + hard),
        }
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
}
