//! The [`Adjudicator`]: follows one game move by move through the judge's history and decides
//! every ending — checkmate, stalemate, a repetition ruled by the WXF rules (a forbidden one the
//! violator kept on with included), the move-count rule and a cap on the game's length — both as
//! the game is played and as a record that stops somewhere.

use super::events::{EventLog, RepetitionEvent};
use super::render::Lang;
use super::{Decision, Reason, Rules};
use crate::judge::{
    History, Ruling, Verdict, judge_at, judge_end_of_record, keeps_up, losing_moves,
};
use crate::moves::{IllegalMove, Move};
use crate::position::Outcome;
use crate::position::Position;
use crate::square::Color;

/// How a game record ended, as the referee reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The decision, if the referee can make one.
    pub decision: Option<Decision>,
    /// The decision rests on a move whose reply the record does not give.
    pub provisional: bool,
}

/// Follows one game and decides it: the decision that ends the game as it is played (what a
/// match stops at), the ending of a record that stops where the game stands, and every
/// repetition on the way.
#[derive(Clone)]
pub struct Adjudicator {
    history: History,
    rules: Rules,
    decision: Option<Decision>,
    /// The first decision that needs no claim (all but the move-count rule), which ends a
    /// record whose players went on past the move-count rule without claiming it.
    imposed: Option<Decision>,
    events: EventLog,
    /// Plies since the last capture (or the start).
    quiet: usize,
    /// A ruling noted before the reply that settles it, kept until the reply comes.
    pending: Option<Pending>,
}

/// A ruling at the latest ply that rests on a chase read before its reply (`Ruling::
/// is_provisional`), with what the game stood at before it was noted: when the reply shows the
/// move was no chase after all, the ply is noted again with its settled ruling, so that the
/// repetitions met and the decision rest on settled moves only.
#[derive(Clone)]
struct Pending {
    ply: usize,
    mover: Color,
    events: EventLog,
    decision: Option<Decision>,
    imposed: Option<Decision>,
    /// The move-count rule, as reached at that ply.
    move_limit: Option<Decision>,
    /// The cap on plies, as reached at that ply.
    cap: Option<Decision>,
}

impl Adjudicator {
    /// Starts a game at `start`; the side to move there may already be mated.
    pub fn new(start: Position, rules: Rules) -> Adjudicator {
        let history = History::new(start, rules.judge());
        let mut a = Adjudicator {
            history,
            rules,
            decision: None,
            imposed: None,
            events: EventLog::default(),
            quiet: 0,
            pending: None,
        };
        a.decision = a.terminal_state();
        a.imposed = a.decision.clone();
        a
    }

    /// The judge's history of the game so far (statuses, pieces' identities).
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The rules the game is decided by.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.history.position()
    }

    /// How many moves have been played.
    pub fn plies(&self) -> usize {
        self.history.plies()
    }

    /// The decision that ends the game as it is played, once there is one: checkmate or
    /// stalemate; a repetition (with `first_decision`, the first one ruled; otherwise a forbidden
    /// repetition the violator kept on with); the move-count rule; the cap on plies.
    pub fn decision(&self) -> Option<&Decision> {
        self.decision.as_ref()
    }

    /// Plays a move. After the game is decided, moves are still replayed (and checked for
    /// legality) and their repetitions noted, but the first decision stands.
    pub fn play(&mut self, m: Move) -> Result<Option<&Decision>, IllegalMove> {
        let mover = self.history.position().side_to_move();
        let capture = self.history.position().captured(m).is_some();
        self.history.push(m)?;
        self.quiet = if capture { 0 } else { self.quiet + 1 };
        let ply = self.history.plies();
        // The move before has its reply now: a ruling read before it is judged again.
        self.settle_pending(ply - 1);
        let history = &self.history;
        // A keep-up read before its reply is settled too.
        self.events.settle(ply - 1, |latest| {
            latest
                .violator_cycle()
                .is_some_and(|cycle| keeps_up(history, ply - 1, cycle))
        });
        let terminal = self.terminal_state();
        let ruling = match terminal {
            Some(_) => None,
            None => Some(judge_at(&self.history, ply, self.rules.repetitions))
                .filter(|r| r.verdict != Verdict::Undecided),
        };
        if ruling.as_ref().is_some_and(Ruling::is_provisional) {
            self.pending = Some(Pending {
                ply,
                mover,
                events: self.events.clone(),
                decision: self.decision.clone(),
                imposed: self.imposed.clone(),
                move_limit: self.move_limit_at_end(),
                cap: self.ply_limit(),
            });
        }
        self.note(ply, mover, ruling.clone());
        let ruled = terminal.or_else(|| self.ruled_ending(ruling, ply));
        if self.decision.is_none() {
            self.decision = ruled.clone().or_else(|| self.limit_reached());
        }
        if self.imposed.is_none() {
            self.imposed = ruled.or_else(|| self.ply_limit());
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
        losing_moves(&self.history, self.rules.repetitions)
    }

    /// A decision in the referee's words, as `xq referee` explains it (moves in ICCS): who wins
    /// and why, the rule cited, each side's cycle and the pieces chased.
    pub fn explain(&self, decision: &Decision) -> String {
        super::render::decision(&self.history, decision, false, self.events(), Lang::En)
    }

    /// How a record that stops here ended; `complete` says the record really ends here (every
    /// recorded move was read and replayed), so that a repetition it ends in can be ruled.
    ///
    /// The decision that ended the game first decides it, as it would have as the game was
    /// played: a mate or stalemate; with `first_decision` the first repetition ruled, otherwise
    /// a forbidden repetition the violator kept on with; the cap on plies; and the move-count
    /// rule where it was reached, if no capture follows it in the record. The move-count draw is
    /// claimed, not imposed: a record that makes a capture after reaching it shows that nobody
    /// claimed it and the game went on, so it decides nothing there (a match, which stops at
    /// [`Adjudicator::decision`], never goes on past it). Failing those, what the record ends
    /// in: with `first_decision` a repetition judged with the last move's reply unknown
    /// (provisional); otherwise a repetition (or a violation kept up on other squares) the
    /// record ends in, as an arbiter reads it; else nothing (the record's result stands).
    pub fn ending(&self, complete: bool) -> Ending {
        // On a tie the imposed decision comes first, as it does in play.
        let first = [self.imposed.clone(), self.move_limit_at_end()]
            .into_iter()
            .flatten()
            .min_by_key(|d| d.ply);
        if let Some(d) = first {
            return Ending {
                decision: Some(d),
                provisional: false,
            };
        }
        if self.rules.first_decision {
            return self.end_of_record(complete);
        }
        let plies = self.plies();
        if complete
            && let Some(open) = self
                .events()
                .last()
                .filter(|e| e.varied.is_none() && e.ruled_anew.is_none() && e.last_ply == plies)
        {
            return match open.kept_up {
                // The violator kept its violation up on other squares to the end of the record;
                // a keep-up at the last move rests on a move whose reply is unknown.
                Some((_, last)) => Ending {
                    decision: Some(repetition(&open.latest, plies)),
                    provisional: last == plies && !self.history.is_settled(last),
                },
                None => Ending {
                    decision: Some(repetition(&open.latest, open.latest.ply)),
                    provisional: false,
                },
            };
        }
        self.end_of_record(complete)
    }

    /// A repetition the record ends in, judged with the last move's reply unknown.
    fn end_of_record(&self, complete: bool) -> Ending {
        match judge_end_of_record(&self.history, self.rules.repetitions) {
            Some(ruling) if complete && ruling.verdict != Verdict::Undecided => Ending {
                provisional: ruling.is_provisional(),
                decision: Some(repetition(&ruling, ruling.ply)),
            },
            _ => Ending {
                decision: None,
                provisional: false,
            },
        }
    }

    /// Notes the ruling (or none) at `ply`, played by `mover`, in the repetitions met.
    fn note(&mut self, ply: usize, mover: Color, ruling: Option<Ruling>) {
        let history = &self.history;
        self.events.note(ply, mover, ruling, |latest| {
            latest
                .violator_cycle()
                .is_some_and(|cycle| keeps_up(history, ply, cycle))
        });
    }

    /// Judges `ply` again now that its move has its reply, if its ruling was read before the
    /// reply: the ply is noted and decided again with the settled ruling.
    fn settle_pending(&mut self, ply: usize) {
        let Some(pending) = self.pending.take().filter(|p| p.ply == ply) else {
            return;
        };
        let settled = Some(judge_at(&self.history, ply, self.rules.repetitions))
            .filter(|r| r.verdict != Verdict::Undecided);
        self.events = pending.events;
        self.decision = pending.decision;
        self.imposed = pending.imposed;
        self.note(ply, pending.mover, settled.clone());
        let ruled = self.ruled_ending(settled, ply);
        if self.decision.is_none() {
            self.decision = ruled.clone().or(pending.move_limit).or(pending.cap.clone());
        }
        if self.imposed.is_none() {
            self.imposed = ruled.or(pending.cap);
        }
    }

    /// The ending a ruling makes as the game is played: with `first_decision` every ruling,
    /// otherwise only a forbidden repetition the violator kept on with.
    fn ruled_ending(&self, ruling: Option<Ruling>, ply: usize) -> Option<Decision> {
        if self.rules.first_decision {
            return ruling.map(|r| repetition(&r, r.ply));
        }
        self.events()
            .iter()
            .find_map(|e| e.kept_on.as_ref().filter(|k| k.ply == ply))
            .map(|kept| repetition(kept, ply))
    }

    /// The move-count rule or the cap on plies, reached with the move just played.
    fn limit_reached(&self) -> Option<Decision> {
        self.move_limit_at_end().or_else(|| self.ply_limit())
    }

    /// The move-count rule, if the stretch without a capture the game stands in has reached it:
    /// decided at the ply where it was reached.
    fn move_limit_at_end(&self) -> Option<Decision> {
        self.move_limit_decision(self.quiet)
    }

    fn move_limit_decision(&self, quiet: usize) -> Option<Decision> {
        let limit = self.rules.move_limit?;
        let needed = 2 * limit as usize;
        (quiet >= needed).then(|| Decision {
            verdict: Verdict::Draw,
            ply: self.plies() - quiet + needed,
            reason: Reason::MoveLimit(limit),
        })
    }

    /// The cap on plies, once the game has reached it.
    fn ply_limit(&self) -> Option<Decision> {
        let cap = self.rules.ply_limit?;
        (self.plies() >= cap as usize).then_some(Decision {
            verdict: Verdict::Draw,
            ply: cap as usize,
            reason: Reason::PlyLimit(cap),
        })
    }

    fn terminal_state(&self) -> Option<Decision> {
        let pos = self.history.position();
        let outcome = pos.outcome()?;
        Some(Decision {
            verdict: Verdict::Win(pos.side_to_move().flip()),
            ply: self.history.plies(),
            reason: match outcome {
                Outcome::Checkmate => Reason::Checkmate,
                Outcome::Stalemate => Reason::Stalemate,
            },
        })
    }
}

/// The decision a repetition ruling makes, decided at `ply`.
fn repetition(ruling: &Ruling, ply: usize) -> Decision {
    Decision {
        verdict: ruling.verdict,
        ply,
        reason: Reason::Repetition(ruling.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(rules: Rules, moves: &str) -> Adjudicator {
        played_from(Position::startpos(), rules, moves)
    }

    fn played_from(start: Position, rules: Rules, moves: &str) -> Adjudicator {
        let mut game = Adjudicator::new(start, rules);
        for m in moves.split_whitespace() {
            game.play(m.parse().expect("a move")).expect("a legal move");
        }
        game
    }

    #[test]
    fn the_move_count_rule_and_the_cap_end_a_game_at_the_ply_they_are_reached() {
        let rules = Rules {
            move_limit: Some(2),
            ..Rules::first_decision(3)
        };
        // Four plies without a capture: two moves by each side.
        let game = played(rules, "h2e2 h9g7 h0g2 i9i8 i0h0");
        let d = game.decision().expect("decided");
        assert_eq!((d.ply, &d.reason), (4, &Reason::MoveLimit(2)));
        assert_eq!(d.winner(), None);
        // A capture starts the count again.
        let game = played(rules, "h2e2 h9g7 e2e6 i9i8 h0g2");
        assert_eq!(game.decision(), None);
        // A record read as an arbiter reads it: decided where the rule was reached.
        let arbiter = Rules {
            move_limit: Some(2),
            ..Rules::arbiter(3)
        };
        let ending = played(arbiter, "h2e2 h9g7 h0g2 i9i8 i0h0").ending(true);
        let d = ending.decision.expect("decided");
        assert_eq!((d.ply, d.reason), (4, Reason::MoveLimit(2)));
        assert!(!ending.provisional);
        // The cap on plies, a match's guard.
        let capped = played(
            Rules {
                ply_limit: Some(3),
                ..Rules::first_decision(3)
            },
            "h2e2 h9g7 e2e6 i9i8",
        );
        let d = capped.decision().expect("decided");
        assert_eq!((d.ply, &d.reason), (3, &Reason::PlyLimit(3)));
        let words = capped.explain(d);
        assert!(words.contains("the cap of 3 plies"), "{words}");
    }

    #[test]
    fn the_draw_reached_first_decides_a_record_that_stays_without_a_capture() {
        let arbiter = Rules {
            move_limit: Some(2),
            ..Rules::arbiter(3)
        };
        // The horses shuffle with no capture: the move-count rule is reached at ply 4, and the
        // start position recurs a third time at ply 8. A record ending there, or one more ply
        // on, is drawn where the rule was reached, as a match is.
        let shuffle = "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9";
        for tail in ["", " h0g2"] {
            let game = played(arbiter, &format!("{shuffle}{tail}"));
            let ending = game.ending(true);
            let d = ending.decision.expect("decided");
            assert_eq!((d.ply, &d.reason), (4, &Reason::MoveLimit(2)), "{tail}");
            assert_eq!(Some(&d), game.decision(), "{tail}");
            assert!(!ending.provisional);
        }
        // A capture after it shows the draw went unclaimed and the game went on: the record is
        // not drawn by the rule, though a match would have stopped at it.
        let game = played(arbiter, &format!("{shuffle} h2h9"));
        assert_eq!(game.ending(true).decision, None);
        assert_eq!(
            game.decision().map(|d| (d.ply, &d.reason)),
            Some((4, &Reason::MoveLimit(2)))
        );
        // What the game then meets decides it: here a mate, five plies after the rule was
        // reached and passed over with a capture.
        let start: Position = "4k4/9/9/9/9/9/9/p8/R7R/3K5 w".parse().expect("a position");
        let game = played_from(
            start,
            arbiter,
            "a1b1 e9e8 b1a1 e8e9 a1a2 e9f9 i1i8 f9e9 a2a9",
        );
        let d = game.ending(true).decision.expect("decided");
        assert_eq!((d.ply, &d.reason), (9, &Reason::Checkmate));
        assert_eq!(d.winner(), Some(Color::Red));
        assert_eq!(game.decision().map(|d| d.ply), Some(4));
    }

    #[test]
    fn a_forbidden_repetition_kept_on_ends_a_game_as_it_is_played() {
        // Red checks with the rook from h8/h9 while Black's king steps between f8 and f9.
        let start: Position = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w"
            .parse()
            .expect("a position");
        let moves = "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8";
        let arbiter = played_from(start.clone(), Rules::arbiter(3), moves);
        let first = played_from(start, Rules::first_decision(3), moves);
        // The first decision rules at the first repetition; the arbiter only once Red repeats
        // again after being told to change.
        let (at_first, kept_on) = (
            first.decision().expect("ruled").ply,
            arbiter.decision().expect("ruled").ply,
        );
        assert!(at_first < kept_on, "{at_first} < {kept_on}");
        assert_eq!(
            arbiter.decision().and_then(Decision::winner),
            Some(Color::Black)
        );
        assert_eq!(arbiter.ending(true).decision.as_ref(), arbiter.decision());
    }
}
