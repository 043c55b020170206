//! The referee's core: replays a game move by move through `Position` and the judge's `History`
//! and stops at the first decision: checkmate, stalemate (both lose in Xiangqi), or a repetition
//! ruled by the WXF rules. Record readers and the match runner build on it.

use crate::judge::{History, IllegalMove, Ruling, RuleConfig, Verdict, judge_at};
use crate::movegen::{count_legal, legal_moves};
use crate::moves::Move;
use crate::position::Position;
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
        use crate::judge::Violation;
        match &self.reason {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::Repetition(r) => match (r.verdict, r.cycles) {
                (Verdict::Win(_), Some(c)) => c.iter().map(|s| s.violation).max().map_or("repetition", |v| match v {
                    Violation::PerpetualCheck => "perpetual check",
                    Violation::PerpetualChase => "perpetual chase",
                    Violation::Idle => "repetition",
                }),
                (Verdict::Draw, Some(c)) => match c[0].violation {
                    Violation::PerpetualCheck => "mutual perpetual check",
                    Violation::PerpetualChase => "mutual perpetual chase",
                    Violation::Idle => "idle repetition",
                },
                _ => "repetition",
            },
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} by {} at ply {}", self.verdict, self.reason_name(), self.ply)
    }
}

/// Follows one game and decides it.
#[derive(Clone)]
pub struct Adjudicator {
    history: History,
    config: RuleConfig,
    decision: Option<Decision>,
}

impl Adjudicator {
    /// Starts a game at `start`; the side to move there may already be mated.
    pub fn new(start: Position, config: RuleConfig) -> Adjudicator {
        let history = History::new(start, config.protection);
        let mut a = Adjudicator { history, config, decision: None };
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
    /// legality) but the first decision stands.
    pub fn play(&mut self, m: Move) -> Result<Option<&Decision>, IllegalMove> {
        self.history.push(m)?;
        if self.decision.is_none() {
            self.decision = self.terminal_state().or_else(|| {
                let ply = self.history.plies();
                let ruling = judge_at(&self.history, ply, &self.config);
                (ruling.verdict != Verdict::Undecided).then(|| Decision {
                    verdict: ruling.verdict,
                    ply,
                    reason: Reason::Repetition(ruling),
                })
            });
        }
        Ok(self.decision.as_ref())
    }

    fn terminal_state(&self) -> Option<Decision> {
        let pos = self.history.position();
        if count_legal(pos) > 0 {
            return None;
        }
        Some(Decision {
            verdict: Verdict::Win(pos.side_to_move().flip()),
            ply: self.history.plies(),
            reason: if pos.in_check() { Reason::Checkmate } else { Reason::Stalemate },
        })
    }

    /// The legal moves that would complete a repetition the mover loses (what a UCCI arbiter sends
    /// as `banmoves`).
    pub fn losing_repetition_moves(&self) -> Vec<Move> {
        let us = self.history.position().side_to_move();
        let mut h = self.history.clone();
        legal_moves(self.history.position())
            .into_iter()
            .filter(|&m| {
                if h.push(m).is_err() {
                    return false;
                }
                let ruling = judge_at(&h, h.plies(), &self.config);
                h.pop();
                ruling.verdict == Verdict::Win(us.flip())
            })
            .collect()
    }
}
