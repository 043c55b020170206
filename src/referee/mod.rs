//! The referee: the one owner of how a game ends. The [`Adjudicator`] replays a game move by
//! move through the judge's `History` under the referee's [`Rules`] and decides every ending:
//! checkmate, stalemate (both lose in Xiangqi), a repetition ruled by the WXF rules, the
//! move-count rule and a cap on plies. The match runner, the record readers, the server and the
//! Python module drive it.
//!
//! For game records ([`Judging`]: files, streams, bytes or a game's moves in, reports out) it
//! builds a [`GameReport`] (`report`): the verdict and its reason, the ply, the violator, the
//! chased pieces and the cycle, moves recorded past the ruling, and whether the record's own
//! result agrees, as data; `citation` names the rule-book rule a ruling rests on. `render` puts
//! reports into words, one table of words per language, for every reader: `text`, `json` and
//! `html` lay reports out; `cli` is `xq referee`.

pub mod adjudicator;
pub mod citation;
pub mod cli;
pub mod events;
pub mod glyphs;
pub mod html;
pub mod inputs;
pub mod json;
pub mod judging;
pub mod progress;
pub mod render;
pub mod report;
pub mod rules;
pub mod text;

pub use adjudicator::{Adjudicator, Ending};
pub use events::{EventLog, RepetitionEvent};
pub use judging::{Judging, Stop, judge_bytes};
pub use report::{
    Agreement, CycleReport, GameReport, JudgedGame, RecordFacts, ReportBody, RulingReport,
};
pub use rules::{DEFAULT_MOVE_LIMIT, REPETITIONS_RANGE, Rules};

/// What fronts and tools ask of the judge, through the referee: the verdict, and for the WXF case
/// suite's reading of a move list, the history and the ruling before the last move's reply.
pub use crate::judge::{History, Verdict, judge_before_reply};

use crate::judge::Ruling;
use crate::square::Color;
use std::fmt;

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The side to move is in check with no legal move.
    Checkmate,
    /// The side to move is not in check but has no legal move (a loss in Xiangqi).
    Stalemate,
    /// A repetition, ruled by the judge.
    Repetition(Ruling),
    /// This many moves by each side without a capture (a draw).
    MoveLimit(u32),
    /// The game reached this many plies in all (a draw): a match's cap, not a rule of the game.
    PlyLimit(u32),
}

/// The first decision in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// Who wins, or a draw.
    pub verdict: Verdict,
    /// The ply at which it was decided (number of moves played).
    pub ply: usize,
    /// Why.
    pub reason: Reason,
}

impl Decision {
    /// The side that wins, or `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        match self.verdict {
            Verdict::Win(c) => Some(c),
            Verdict::Draw | Verdict::Undecided => None,
        }
    }

    /// A one-line name for the reason: checkmate, stalemate, perpetual check, perpetual chase,
    /// mutual perpetual check, mutual perpetual chase, or repetition.
    pub fn reason_name(&self) -> &'static str {
        match &self.reason {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::MoveLimit(_) => "move limit",
            Reason::PlyLimit(_) => "ply limit",
            Reason::Repetition(r) => repetition_name(r),
        }
    }
}

/// The kind of a ruled repetition: perpetual check, perpetual chase, mutual perpetual check,
/// mutual perpetual chase, idle repetition, or repetition.
pub fn repetition_name(r: &Ruling) -> &'static str {
    use crate::judge::Violation;
    match (r.verdict, r.cycles) {
        (Verdict::Win(_), Some(c)) => {
            c.iter()
                .map(|s| s.violation)
                .max()
                .map_or("repetition", |v| match v {
                    Violation::PerpetualCheck => "perpetual check",
                    Violation::PerpetualChase => "perpetual chase",
                    Violation::Idle => "repetition",
                })
        }
        (Verdict::Draw, Some(c)) => match c[0].violation {
            Violation::PerpetualCheck => "mutual perpetual check",
            Violation::PerpetualChase => "mutual perpetual chase",
            Violation::Idle => "idle repetition",
        },
        _ => "repetition",
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} by {} at ply {}",
            self.verdict,
            self.reason_name(),
            self.ply
        )
    }
}
