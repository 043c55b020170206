//! The repetitions met on the way through a game, as an arbiter sees them: each run of ruled
//! positions with the first ruling, and what came next (someone varied, the violator repeated
//! again instead of changing moves, or the record ends while it runs). A forbidden repetition
//! obliges the violator to change moves; it ends the game only if the violator keeps on or the
//! record ends in it. A violator that keeps up its check or chase on another square has not
//! changed moves: the run goes on through such moves (and the replies to them) until the violator
//! really changes or repeats again.

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
    /// there: the violator's own move, or the reply to a move that kept the violation up when
    /// the repetition that move led to is ruled there.
    pub kept_on: Option<Ruling>,
    /// The first and the last ply at which the violator, asked to change moves, played a move
    /// that kept up the same perpetual check or chase on another square (the position did not
    /// repeat): no change of moves, so the run went on through them.
    pub kept_up: Option<(usize, usize)>,
    /// Who broke the run by playing something else, and at which ply (`None`: the record ends
    /// while it runs, or it was ruled anew).
    pub varied: Option<(Color, usize)>,
    /// The ply from which the repetition went on under another ruling (the next run), when no
    /// violator changed moves to end this one.
    pub ruled_anew: Option<usize>,
}

impl RepetitionEvent {
    /// A run that begins with `ruling`.
    fn new(ruling: Ruling) -> RepetitionEvent {
        RepetitionEvent {
            last_ply: ruling.ply,
            latest: ruling.clone(),
            ruling,
            kept_on: None,
            kept_up: None,
            varied: None,
            ruled_anew: None,
        }
    }

    /// The first ply of the run.
    pub fn first_ply(&self) -> usize {
        self.ruling.ply
    }

    /// The repetition's kind: perpetual check, perpetual chase, idle repetition, ...
    pub fn kind(&self) -> &'static str {
        super::repetition_name(&self.ruling)
    }

    /// Whether `ply` lies in the run.
    pub fn covers(&self, ply: usize) -> bool {
        (self.first_ply()..=self.last_ply).contains(&ply)
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
    /// in order. When the violator of the open run moves without a ruling, `keeps_up` says
    /// whether that move keeps up its violation (asked with the run's latest ruling).
    pub fn note(
        &mut self,
        ply: usize,
        mover: Color,
        ruling: Option<Ruling>,
        keeps_up: impl FnOnce(&Ruling) -> bool,
    ) {
        let open = self
            .events
            .last_mut()
            .filter(|e| e.varied.is_none() && e.ruled_anew.is_none() && e.last_ply + 1 == ply);
        match (open, ruling) {
            // The ruling changed: a new run begins. If the violator moved, it changed moves (a
            // side that really changed is judged with the move that changed); otherwise the
            // repetition goes on under another ruling.
            (Some(event), Some(ruling)) if ruling.verdict != event.ruling.verdict => {
                if event.violator() == Some(mover) {
                    event.varied = Some((mover, ply));
                } else {
                    event.ruled_anew = Some(ply);
                }
                self.events.push(RepetitionEvent::new(ruling));
            }
            (Some(event), Some(ruling)) => {
                event.last_ply = ply;
                // The violator repeated again: its own move was ruled the same, or its move kept
                // the violation up and the repetition it led to is ruled at the reply.
                let repeated = event.violator() == Some(mover)
                    || event.kept_up.is_some_and(|(_, last)| last + 1 == ply);
                if event.kept_on.is_none() && repeated && ruling.verdict == event.ruling.verdict {
                    event.kept_on = Some(ruling.clone());
                }
                event.latest = ruling;
            }
            (Some(event), None) => {
                let violator = event.violator();
                let keeping_up = event.kept_on.is_none() && violator.is_some();
                if keeping_up && violator == Some(mover) && keeps_up(&event.latest) {
                    // No change of moves: the run goes on.
                    event.last_ply = ply;
                    let first = event.kept_up.map_or(ply, |(first, _)| first);
                    event.kept_up = Some((first, ply));
                } else if keeping_up
                    && violator != Some(mover)
                    && event.kept_up.is_some_and(|(_, last)| last + 1 == ply)
                {
                    // The reply to a move that kept the violation up: the run goes on.
                    event.last_ply = ply;
                } else {
                    event.varied = Some((mover, ply));
                }
            }
            (None, Some(ruling)) => self.events.push(RepetitionEvent::new(ruling)),
            (None, None) => {}
        }
    }

    /// Settles a keep-up noted at `ply` (the run's latest ply) now that its reply is known:
    /// `still` says whether the move still keeps up the violation with its status settled; if
    /// not, the violator changed moves there after all.
    pub fn settle(&mut self, ply: usize, still: impl FnOnce(&Ruling) -> bool) {
        let Some(event) = self.events.last_mut().filter(|e| {
            e.varied.is_none() && e.last_ply == ply && e.kept_up.is_some_and(|(_, l)| l == ply)
        }) else {
            return;
        };
        if still(&event.latest) {
            return;
        }
        let (first, _) = event.kept_up.expect("checked above");
        // The violator's keep-up before this one was two plies earlier, the reply between.
        event.kept_up = (first < ply).then(|| (first, ply - 2));
        event.last_ply = ply - 1;
        event.varied = event.violator().map(|v| (v, ply));
    }

    /// The runs so far.
    pub fn events(&self) -> &[RepetitionEvent] {
        &self.events
    }

    /// The run the game is in after `ply`, if the last ply was ruled.
    pub fn open_at(&self, ply: usize) -> Option<&RepetitionEvent> {
        self.events
            .last()
            .filter(|e| e.varied.is_none() && e.ruled_anew.is_none() && e.last_ply == ply)
    }
}
