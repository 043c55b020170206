//! The repetitions met on the way through a game, as an arbiter sees them: each run of ruled
//! positions with the first ruling, and what came next (someone varied, the violator repeated
//! again instead of changing moves, or the record ends while it runs). A forbidden repetition
//! obliges the violator to change moves; it ends the game only if the violator keeps on or the
//! record ends in it.

use crate::judge::{Ruling, Verdict};
use crate::square::Color;

/// One run of consecutive plies whose positions the judge ruled a repetition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepetitionEvent {
    /// The ruling at the run's first ply.
    pub ruling: Ruling,
    /// The last ply of the run.
    pub last_ply: usize,
    /// The ruling at the last ply.
    pub latest: Ruling,
    /// The ply at which the violator repeated again instead of changing moves, with the ruling
    /// there.
    pub kept_on: Option<Ruling>,
    /// Who broke the run by playing something else, and at which ply (`None`: the record ends
    /// while it runs).
    pub varied: Option<(Color, usize)>,
}

impl RepetitionEvent {
    /// The first ply of the run.
    pub fn first_ply(&self) -> usize {
        self.ruling.ply
    }

    /// The repetition's kind: perpetual check, perpetual chase, idle repetition, ...
    pub fn kind(&self) -> &'static str {
        super::repetition_name(&self.ruling)
    }

    /// The side that must change moves (the one the ruling goes against), if any.
    pub fn violator(&self) -> Option<Color> {
        match self.ruling.verdict {
            Verdict::Win(winner) => Some(winner.flip()),
            _ => None,
        }
    }
}

/// Collects the runs ply by ply.
#[derive(Clone, Debug, Default)]
pub struct EventLog {
    events: Vec<RepetitionEvent>,
}

impl EventLog {
    /// The ruling (or none) for the position after `ply`, played by `mover`; every ply is noted,
    /// in order.
    pub fn note(&mut self, ply: usize, mover: Color, ruling: Option<Ruling>) {
        let open = self
            .events
            .last_mut()
            .filter(|e| e.varied.is_none() && e.last_ply + 1 == ply);
        match (open, ruling) {
            (Some(event), Some(ruling)) => {
                event.last_ply = ply;
                if event.kept_on.is_none()
                    && event.violator() == Some(mover)
                    && ruling.verdict == event.ruling.verdict
                {
                    event.kept_on = Some(ruling.clone());
                }
                event.latest = ruling;
            }
            (Some(event), None) => event.varied = Some((mover, ply)),
            (None, Some(ruling)) => {
                self.events.push(RepetitionEvent {
                    last_ply: ply,
                    latest: ruling.clone(),
                    ruling,
                    kept_on: None,
                    varied: None,
                });
            }
            (None, None) => {}
        }
    }

    /// The runs so far.
    pub fn events(&self) -> &[RepetitionEvent] {
        &self.events
    }

    /// The run the game is in after `ply`, if the last ply was ruled.
    pub fn open_at(&self, ply: usize) -> Option<&RepetitionEvent> {
        self.events
            .last()
            .filter(|e| e.varied.is_none() && e.last_ply == ply)
    }
}
