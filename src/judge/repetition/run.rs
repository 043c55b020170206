//! One side's part in a repetition: its moves between two occurrences of a position added up
//! (`Tally`), and followed back over the run of repetitions they belong to (`side_part`), to the
//! last irreversible move, a real change of moves or an occurrence where the side was ruled a
//! violator.

use super::{earlier, ruled_against};
use crate::judge::Violation;
use crate::judge::explain::SideCycle;
use crate::judge::history::{History, Status};
use crate::square::Color;

/// One side's moves in a stretch of history, added up: their statuses or-ed together and the
/// opponent's pieces chased by every chasing move.
#[derive(Clone, Copy)]
pub(super) struct Tally {
    combined: Status,
    chased: u16,
    provisional: bool,
}

impl Tally {
    const EMPTY: Tally = Tally {
        combined: Status::empty(),
        chased: u16::MAX,
        provisional: false,
    };

    /// Adds the move at `ply` under the history's rules; returns its status. A chase read before
    /// its reply (every threat taken as answered) makes the tally provisional; a check, or a
    /// quiet move with no threat at all, is final as soon as it is played.
    fn add(&mut self, history: &History, ply: usize) -> Status {
        let (status, pieces) = move_status(history, ply);
        self.provisional |= status == Status::CHASE && !history.is_settled(ply);
        self.combined |= status;
        if status == Status::CHASE {
            self.chased &= pieces;
        }
        status
    }

    /// Adds the moves of another tally.
    fn merge(&mut self, other: &Tally) {
        self.combined |= other.combined;
        self.chased &= other.chased;
        self.provisional |= other.provisional;
    }

    /// The moves `first`, `first + 2`, ... up to `last` (none if `first > last`).
    pub(super) fn of(history: &History, first: usize, last: usize) -> Tally {
        let mut tally = Tally::EMPTY;
        if first <= last {
            for ply in (first..=last).step_by(2) {
                tally.add(history, ply);
            }
        }
        tally
    }

    /// The level of the moves added, with the pieces chased throughout (none unless a chase).
    pub(super) fn classify(&self, history: &History) -> (Violation, u16) {
        let violation = history.rules().set.classify(self.combined, self.chased);
        let chased = if violation == Violation::PerpetualChase {
            self.chased
        } else {
            0
        };
        (violation, chased)
    }
}

/// The status of the move at `ply` as the history's rule set reads it (a rule set that reads no
/// chases sees only checks).
pub(super) fn move_status(history: &History, ply: usize) -> (Status, u16) {
    if history.rules().set.reads_chases() {
        history.status(ply)
    } else if history.records()[ply].gives_check() {
        (Status::CHECK, 0)
    } else {
        (Status::IDLE, 0)
    }
}

/// Which side's moves of a stretch between two occurrences of a position a part holds.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Part {
    /// The side to move at the occurrences: its moves follow them (first move at `start + 1`).
    ToMove,
    /// The side that moved into them (first move at `start + 2`, last the move that completed
    /// the repetition).
    Mover,
}

impl Part {
    fn offset(self) -> usize {
        match self {
            Part::ToMove => 1,
            Part::Mover => 2,
        }
    }
}

/// Follows one side's part of a repetition back over the run of repetitions it belongs to:
/// through the earlier occurrences of the position at `start`, newest first. The run begins at
/// the last irreversible move, after a real change of moves (a move of the side's that neither
/// checks nor chases), or at an occurrence where the side was ruled a violator (a violation
/// ruled and given up is history; one kept up is judged the same either way). Within the run,
/// chasing other pieces in turn is part of the pattern: the chased sets are intersected over it
/// (WXF rules 32 and 33). Returns the run's first occurrence.
fn extend_run(
    history: &History,
    tally: &mut Tally,
    start: usize,
    part: Part,
    occurrences: u32,
    color: Color,
) -> usize {
    if tally.classify(history).0 == Violation::Idle {
        // Any longer stretch holds the same idle moves: nothing to gain.
        return start;
    }
    let offset = part.offset();
    let mut start = start;
    for earlier_start in earlier(history, start) {
        if ruled_against(history, start, occurrences, color) {
            break;
        }
        // The earlier stretch joins the run only as a violation of its own: all checks, or all
        // chases with a piece chased throughout. Pieces chased in turn from one stretch to the
        // next are the pattern of rule 32; a stretch that on its own already changed (an idle
        // move, or chases of different pieces that came to an end) begins the run after it.
        let stretch = Tally::of(history, earlier_start + offset, start + offset - 2);
        if stretch.classify(history).0 == Violation::Idle {
            break;
        }
        tally.merge(&stretch);
        start = earlier_start;
    }
    start
}

/// One side's part of the repetition at `ply` (from `start`, the earlier occurrence of the
/// position it counts from), followed back over its run and classified.
pub(super) fn side_part(
    history: &History,
    ply: usize,
    start: usize,
    part: Part,
    occurrences: u32,
) -> SideCycle {
    let side_to_move = history.position_at(ply).side_to_move();
    let color = match part {
        Part::ToMove => side_to_move,
        Part::Mover => side_to_move.flip(),
    };
    let offset = part.offset();
    let mut tally = Tally::of(history, start + offset, ply + offset - 2);
    let first = extend_run(history, &mut tally, start, part, occurrences, color);
    let (violation, chased) = tally.classify(history);
    SideCycle {
        color,
        violation,
        first_ply: first + offset - 1,
        last_ply: ply,
        chased,
        provisional: tally.provisional,
    }
}
