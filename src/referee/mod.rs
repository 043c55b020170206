//! The referee: the [`Adjudicator`] replays a game move by move through `Position` and the
//! judge's `History` and stops at the first decision: checkmate, stalemate (both lose in
//! Xiangqi), or a repetition ruled by the WXF rules. The match runner and the record readers
//! build on it.
//!
//! For game records (`judge_bytes`, `judge_raw`) it builds a [`GameReport`] (`report`): the
//! verdict and its reason, the ply, the violator, the chased pieces and the cycle, moves recorded
//! past the ruling, and whether the record's own result agrees. `text`, `json` and `html` render
//! reports; `cli` is `xq referee`.

pub mod cli;
pub mod events;
pub mod glyphs;
pub mod html;
pub mod json;
pub mod progress;
pub mod report;
pub mod text;

pub use events::{EventLog, RepetitionEvent};
pub use report::{
    Agreement, CycleReport, GameReport, JudgedGame, RecordFacts, ReportBody, RulingReport,
};

use crate::judge::{History, RuleConfig, Ruling, Verdict, judge_at, keeps_up, losing_moves};
use crate::movegen::no_legal_moves;
use crate::moves::{IllegalMove, Move};
use crate::position::Position;
use crate::record::RawGame;
use crate::record::encoding::Encoding;
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
}

/// The move-count rule's default: moves by each side without a capture that draw the game. The
/// Chinese Xiangqi Association's rules (自然限着) draw after 60 moves by each side without a
/// capture (events may lower it); the Asian rules as online sites apply them use 50; 60 is the
/// common count (also 120 plies in Pikafish), and `--move-limit` sets another.
pub const DEFAULT_MOVE_LIMIT: u32 = 60;

/// The numbers of occurrences of a position a repetition may be set to take, on the command line
/// (`--repetitions`) and in the Python module alike.
pub const REPETITIONS: std::ops::RangeInclusive<u32> = 2..=100;

/// How the referee decides a game record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefereeConfig {
    /// The repetition rules and threshold.
    pub rules: RuleConfig,
    /// The first ruling is the game's result (the WXF case suite's convention). Otherwise a
    /// forbidden repetition obliges the violator to change moves and ends the game only if the
    /// violator keeps on or the record ends in it.
    pub first_decision: bool,
    /// Moves by each side without a capture that draw the game (`None`: no move-count rule).
    pub move_limit: Option<u32>,
}

impl RefereeConfig {
    /// The ending of a record as an arbiter reads it, with the default move-count rule.
    pub fn new(rules: RuleConfig) -> RefereeConfig {
        RefereeConfig {
            rules,
            first_decision: false,
            move_limit: Some(DEFAULT_MOVE_LIMIT),
        }
    }

    /// The first ruling as the result, no move-count rule (the WXF case suite's convention).
    pub fn first_decision(rules: RuleConfig) -> RefereeConfig {
        RefereeConfig {
            rules,
            first_decision: true,
            move_limit: None,
        }
    }
}

impl From<RuleConfig> for RefereeConfig {
    fn from(rules: RuleConfig) -> RefereeConfig {
        RefereeConfig::new(rules)
    }
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
    /// A one-line name for the reason: checkmate, stalemate, perpetual check, perpetual chase,
    /// mutual perpetual check, mutual perpetual chase, or repetition.
    pub fn reason_name(&self) -> &'static str {
        match &self.reason {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::MoveLimit(_) => "move limit",
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

/// Follows one game and decides it: the first decision (what a match stops at), and every
/// repetition on the way (what a record's report tells).
#[derive(Clone)]
pub struct Adjudicator {
    history: History,
    config: RuleConfig,
    decision: Option<Decision>,
    events: EventLog,
}

impl Adjudicator {
    /// Starts a game at `start`; the side to move there may already be mated.
    pub fn new(start: Position, config: RuleConfig) -> Adjudicator {
        let history = History::new(start, config.rules);
        let mut a = Adjudicator {
            history,
            config,
            decision: None,
            events: EventLog::default(),
        };
        a.decision = a.terminal_state();
        a
    }

    /// The game so far.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The rule settings.
    pub fn config(&self) -> &RuleConfig {
        &self.config
    }

    /// The first decision, once there is one.
    pub fn decision(&self) -> Option<&Decision> {
        self.decision.as_ref()
    }

    /// Plays a move. After the game is decided, moves are still replayed (and checked for
    /// legality) and their repetitions noted, but the first decision stands.
    pub fn play(&mut self, m: Move) -> Result<Option<&Decision>, IllegalMove> {
        let mover = self.history.position().side_to_move();
        self.history.push(m)?;
        let ply = self.history.plies();
        let history = &self.history;
        // The move before has its reply now: a keep-up read before it is settled.
        self.events.settle(ply - 1, |latest| {
            latest
                .violator_cycle()
                .is_some_and(|cycle| keeps_up(history, ply - 1, cycle))
        });
        let terminal = self.terminal_state();
        let ruling = match terminal {
            Some(_) => None,
            None => Some(judge_at(&self.history, ply, self.config.occurrences))
                .filter(|r| r.verdict != Verdict::Undecided),
        };
        let history = &self.history;
        self.events.note(ply, mover, ruling.clone(), |latest| {
            latest
                .violator_cycle()
                .is_some_and(|cycle| keeps_up(history, ply, cycle))
        });
        if self.decision.is_none() {
            self.decision = terminal.or_else(|| {
                ruling.map(|ruling| Decision {
                    verdict: ruling.verdict,
                    ply,
                    reason: Reason::Repetition(ruling),
                })
            });
        }
        Ok(self.decision.as_ref())
    }

    /// The repetitions met so far, each with what came after it.
    pub fn events(&self) -> &[RepetitionEvent] {
        self.events.events()
    }

    /// Whether the side to move has no legal move now: mated or stalemated, with the decision.
    pub fn terminal(&self) -> Option<Decision> {
        self.terminal_state()
    }

    /// The moves of the side to move that would complete a repetition it loses (sent to UCCI
    /// engines as `banmoves`).
    pub fn losing_moves(&self) -> Vec<Move> {
        losing_moves(&self.history, self.config.occurrences)
    }

    fn terminal_state(&self) -> Option<Decision> {
        let pos = self.history.position();
        if !no_legal_moves(pos) {
            return None;
        }
        Some(Decision {
            verdict: Verdict::Win(pos.side_to_move().flip()),
            ply: self.history.plies(),
            reason: if pos.in_check() {
                Reason::Checkmate
            } else {
                Reason::Stalemate
            },
        })
    }
}

/// Reads one file's bytes and judges every game in it: what `xq referee` does for each file.
pub fn judge_bytes(file: &str, bytes: &[u8], config: impl Into<RefereeConfig>) -> Vec<GameReport> {
    let config = config.into();
    match crate::record::read_file(file, bytes) {
        Err(e) => vec![GameReport::unreadable(file, 0, 0, e)],
        Ok(games) => games
            .games
            .iter()
            .map(|raw| judge_raw(file, games.encoding, raw, config))
            .collect(),
    }
}

/// Resolves and judges one game as split from a file.
pub fn judge_raw(
    file: &str,
    encoding: Encoding,
    raw: &RawGame,
    config: RefereeConfig,
) -> GameReport {
    match crate::record::resolve(file, encoding, raw) {
        Ok(record) => GameReport::judge(file, &record, config),
        Err(e) => GameReport::unreadable(file, raw.index, raw.line, e),
    }
}
