//! The referee's report on one game of a file, as data: what the record says, the replay, the
//! ruling and what it rests on, built once from the judged game (or from the error that kept the
//! game from being read). It holds no words: the renderer (`render`) puts it into words for the
//! text, JSON and HTML reports; none of them judges.

use super::citation::{RuleCase, rule_case};
use super::judging::Stop;
use super::{Adjudicator, Decision, Reason, RepetitionEvent, Rules};
use crate::judge::explain::ChaseWitness;
use crate::judge::{History, Verdict, Violation, occurrences};
use crate::movegen::count_legal;
use crate::moves::Move;
use crate::piece::Piece;
use crate::position::{Outcome, Position};
use crate::record::encoding::Encoding;
use crate::record::notation::Notation;
use crate::record::{
    ErrorKind, Format, GameRecord, MoveWarning, ReaderNote, RecordError, RecordedResult,
    parse_result,
};
use crate::square::{Color, Square};

/// How many plies a game's judging goes between looks at its [`Stop`] (a look reads the clock).
pub const STOP_CHECK_PLIES: usize = 1024;

/// Whether the record's own result agrees with the referee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement {
    /// Both name the same result.
    Agrees,
    /// They differ.
    Disagrees,
    /// The referee has no ruling; the result is the record's.
    NoRuling,
    /// The referee ruled but the record gives no result (`*` or none).
    NoRecordResult,
}

impl Agreement {
    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Agreement::Agrees => "agrees",
            Agreement::Disagrees => "disagrees",
            Agreement::NoRuling => "no_ruling",
            Agreement::NoRecordResult => "no_record_result",
        }
    }
}

/// One side's part of a ruled repetition, for reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CycleReport {
    /// The side.
    pub color: Color,
    /// Perpetual check, perpetual chase or idle.
    pub violation: Violation,
    /// The ply of the earlier occurrence of the side's repeated position.
    pub first_ply: usize,
    /// The ply of the latest occurrence.
    pub last_ply: usize,
    /// The side's moves in the cycle (ICCS), with their plies.
    pub moves: Vec<(usize, Move)>,
    /// The opponent's pieces chased on every move, with their squares over the cycle.
    pub chased: Vec<(Piece, Vec<Square>)>,
    /// In an idle cycle whose every move chased, but no one piece on every move: each piece
    /// chased in turn, with its squares at the moves that chased it.
    pub chased_in_turn: Vec<(Piece, Vec<Square>)>,
    /// Why each chased piece counted as unprotected at the side's last move of the cycle.
    pub unprotected: Vec<ChaseWitness>,
}

/// A remark on a game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// A remark the record reader made (moves after the result, variations skipped, ...).
    Reader(ReaderNote),
    /// The game was already over at `ply`, `side` mated there, yet the record goes on with the
    /// move `text` (at ply `ply + 1`), which could not be read: it and any after it are not
    /// judged.
    GameOver {
        /// The ply of the mate.
        ply: usize,
        /// The side mated.
        side: Color,
        /// Checkmate or stalemate.
        how: Outcome,
        /// The recorded move after the mate, as written.
        text: String,
    },
}

/// What a game record says about itself: its tags, format and result, and the remarks made
/// while reading it.
#[derive(Clone, Debug)]
pub struct RecordFacts {
    /// The Event tag (or title).
    pub event: Option<String>,
    /// The Red player.
    pub red: Option<String>,
    /// The Black player.
    pub black: Option<String>,
    /// The container format.
    pub format: Format,
    /// The notation the moves were read in.
    pub notation: Option<Notation>,
    /// The text encoding.
    pub encoding: Encoding,
    /// The move texts as recorded (as many as the moves, or more when the record breaks off).
    pub move_texts: Vec<String>,
    /// The start position as FEN.
    pub start_fen: String,
    /// The result as the record gives it (Result tag, else the move text's result), unless `*`.
    pub result: Option<String>,
    /// That result as a verdict, when it is one.
    pub verdict: Option<Verdict>,
    /// Remarks: moves after mate, variations skipped, ...
    pub notes: Vec<Note>,
    /// Marks that disagree with their moves, each with the ply of its move.
    pub warnings: Vec<MoveWarning>,
}

/// The referee's ruling in a game and what it rests on.
#[derive(Clone, Debug)]
pub struct RulingReport {
    /// The first decision.
    pub decision: Decision,
    /// The decision rests on a move whose reply the record does not give.
    pub provisional: bool,
    /// The side whose violation lost the repetition.
    pub violator: Option<Color>,
    /// The two sides' cycles of a ruled repetition (the side to move at the ruling first).
    pub cycles: Vec<CycleReport>,
    /// The ruled position (at the decision's ply).
    pub ruled: Position,
    /// The plies at which the ruled position occurred (repetitions only).
    pub repeated_at: Vec<usize>,
    /// How many recorded plies follow the ruling.
    pub past_ruling: usize,
}

/// A game that was read and replayed.
#[derive(Clone, Debug)]
pub struct JudgedGame {
    /// What the record says.
    pub facts: RecordFacts,
    /// The moves replayed (up to an illegal one, if the record has one).
    pub moves: Vec<Move>,
    /// The position after the last replayed move, as FEN.
    pub final_fen: String,
    /// How many legal moves the side to move has there.
    pub final_legal_moves: u64,
    /// Whether the side to move is in check there.
    pub final_in_check: bool,
    /// How the game ended, if the referee can say: its ruling.
    pub ruling: Option<RulingReport>,
    /// The repetitions met on the way, each with what came after it.
    pub events: Vec<RepetitionEvent>,
    /// Whether the record's result agrees with the referee.
    pub agreement: Agreement,
}

/// What a report holds: a judged game, or why there is none.
#[derive(Clone, Debug)]
pub enum ReportBody {
    /// The game (or the whole file) could not be read.
    Unreadable(RecordError),
    /// The game was read and judged.
    Judged {
        /// The judged game.
        game: Box<JudgedGame>,
        /// Where the replay or the reading of the moves stopped, if it stopped early.
        stopped: Option<RecordError>,
    },
}

/// What the referee found in one game of a file.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The file, as named on the command line.
    pub file: String,
    /// 1-based number of the game in the file (0 when the file could not be read at all).
    pub game: usize,
    /// The line where the game starts (0 when unknown or binary).
    pub line: u32,
    /// The judged game, or why there is none.
    pub body: ReportBody,
}

impl GameReport {
    /// A report for a game (or a whole file, `game` 0) that could not be read.
    pub fn unreadable(file: &str, game: usize, line: u32, error: RecordError) -> GameReport {
        GameReport {
            file: file.to_string(),
            game,
            line,
            body: ReportBody::Unreadable(error),
        }
    }

    /// Replays a resolved record and judges it.
    pub fn judge(file: &str, record: &GameRecord, rules: Rules) -> GameReport {
        Self::judge_until(file, record, rules, &Stop::default())
            .expect("judging without a stop runs to its end")
    }

    /// Replays a resolved record and judges it, unless `stop` is reached on the way (checked
    /// every [`STOP_CHECK_PLIES`] plies): then `None`.
    pub fn judge_until(
        file: &str,
        record: &GameRecord,
        rules: Rules,
        stop: &Stop,
    ) -> Option<GameReport> {
        let mut game = Adjudicator::new(record.start.clone(), rules);
        let mut replay_error = None;
        for (i, &m) in record.moves.iter().enumerate() {
            if i % STOP_CHECK_PLIES == STOP_CHECK_PLIES - 1 && stop.reached() {
                return None;
            }
            if let Err(e) = game.play(m) {
                replay_error = Some(RecordError {
                    file: file.to_string(),
                    line: record.tokens.get(i).map(|t| t.line),
                    game: Some(record.index),
                    ply: Some(i + 1),
                    kind: ErrorKind::Format(e.to_string()),
                });
                break;
            }
        }
        let history = game.history();
        let plies = history.plies();
        // Every recorded move was replayed: the record really ends here.
        let complete = record.stop.is_none() && replay_error.is_none();
        let ending = game.ending(complete);
        let (decision, provisional) = (ending.decision, ending.provisional);

        let mut notes: Vec<Note> = record.notes.iter().cloned().map(Note::Reader).collect();
        let mut error = replay_error;
        // A move that could not be read: after a mate or stalemate it is a remark, not an error.
        if let Some(stop) = &record.stop {
            let ended = decision.as_ref().is_some_and(|d| {
                d.ply == plies && matches!(d.reason, Reason::Checkmate | Reason::Stalemate)
            });
            match (ended, &stop.kind) {
                (true, ErrorKind::Move { text, .. }) => notes.push(Note::GameOver {
                    ply: plies,
                    side: history.position().side_to_move(),
                    how: match decision.as_ref().map(|d| &d.reason) {
                        Some(Reason::Checkmate) => Outcome::Checkmate,
                        _ => Outcome::Stalemate,
                    },
                    text: text.clone(),
                }),
                _ => error = Some(stop.clone()),
            }
        }

        let facts = record_facts(record, notes);
        let ruling = decision.map(|d| RulingReport::new(history, d, provisional, plies));
        let agreement = match (&ruling, facts.verdict) {
            (None, _) => Agreement::NoRuling,
            (Some(_), None) => Agreement::NoRecordResult,
            (Some(r), Some(v)) if v == r.decision.verdict => Agreement::Agrees,
            (Some(_), Some(_)) => Agreement::Disagrees,
        };
        let events = game.events().to_vec();
        Some(GameReport {
            file: file.to_string(),
            game: record.index,
            line: record.line,
            body: ReportBody::Judged {
                game: Box::new(JudgedGame {
                    moves: record.moves[..plies].to_vec(),
                    final_fen: history.position().to_string(),
                    final_legal_moves: count_legal(history.position()),
                    final_in_check: history.position().in_check(),
                    facts,
                    ruling,
                    events,
                    agreement,
                }),
                stopped: error,
            },
        })
    }

    /// The judged game, if the game could be read.
    pub fn judged(&self) -> Option<&JudgedGame> {
        match &self.body {
            ReportBody::Judged { game, .. } => Some(game),
            ReportBody::Unreadable(_) => None,
        }
    }

    /// Why the game could not be read, or where its replay stopped.
    pub fn error(&self) -> Option<&RecordError> {
        match &self.body {
            ReportBody::Judged { stopped, .. } => stopped.as_ref(),
            ReportBody::Unreadable(e) => Some(e),
        }
    }

    /// What the record says, if it could be read.
    pub fn facts(&self) -> Option<&RecordFacts> {
        self.judged().map(|j| &j.facts)
    }

    /// The moves replayed.
    pub fn moves(&self) -> &[Move] {
        self.judged().map_or(&[], |j| &j.moves)
    }

    /// The move texts as recorded.
    pub fn move_texts(&self) -> &[String] {
        self.facts().map_or(&[], |f| &f.move_texts)
    }

    /// The ruling, if there is one.
    pub fn ruling(&self) -> Option<&RulingReport> {
        self.judged().and_then(|j| j.ruling.as_ref())
    }

    /// The referee's first decision.
    pub fn decision(&self) -> Option<&Decision> {
        self.ruling().map(|r| &r.decision)
    }

    /// The case of the rule book the ruling rests on (its rules and the nearest WXF manual
    /// diagrams), when one fits.
    pub fn rule_cited(&self) -> Option<RuleCase> {
        let ruling = self.ruling()?;
        rule_case(&ruling.decision, &ruling.cycles)
    }

    /// The referee's result: the decision's verdict, or undecided.
    pub fn result(&self) -> Verdict {
        self.decision().map_or(Verdict::Undecided, |d| d.verdict)
    }

    /// The reason's name: checkmate, stalemate, perpetual check, ..., or "no ruling".
    pub fn reason(&self) -> &'static str {
        self.decision().map_or("no ruling", Decision::reason_name)
    }

    /// Whether the record's result agrees with the referee (no ruling for an unreadable game).
    pub fn agreement(&self) -> Agreement {
        self.judged().map_or(Agreement::NoRuling, |j| j.agreement)
    }

    /// The repetitions met on the way to the ending (not the one that is the ending).
    pub fn repetitions_on_the_way(&self) -> Vec<&RepetitionEvent> {
        self.judged()
            .map_or(Vec::new(), |g| on_the_way(g.ruling.as_ref(), &g.events))
    }

    /// The remarks made while reading the record.
    pub fn notes(&self) -> &[Note] {
        self.facts().map_or(&[], |f| &f.notes)
    }

    /// The marks that disagree with their moves, each with the ply of its move.
    pub fn warnings(&self) -> &[MoveWarning] {
        self.facts().map_or(&[], |f| &f.warnings)
    }
}

/// The repetitions met before the ending (all of them when there is none).
pub fn on_the_way<'a>(
    ruling: Option<&RulingReport>,
    events: &'a [RepetitionEvent],
) -> Vec<&'a RepetitionEvent> {
    events
        .iter()
        .filter(|e| ruling.is_none_or(|r| !e.covers(r.decision.ply)))
        .collect()
}

/// The facts a record gives about itself, with the remarks made while reading and replaying it.
fn record_facts(record: &GameRecord, notes: Vec<Note>) -> RecordFacts {
    let tag = |name: &str| {
        record
            .tag(name)
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    };
    let result = record.result_text().map(str::to_string);
    RecordFacts {
        event: tag("Event").or_else(|| tag("Title")),
        red: tag("Red").or_else(|| tag("White")),
        black: tag("Black"),
        format: record.format,
        notation: record.notation,
        encoding: record.encoding,
        move_texts: record.tokens.iter().map(|t| t.text.clone()).collect(),
        start_fen: record.start.to_string(),
        verdict: result.as_deref().and_then(parse_result).map(|r| match r {
            RecordedResult::Win(c) => Verdict::Win(c),
            RecordedResult::Draw => Verdict::Draw,
        }),
        result,
        notes,
        warnings: record.warnings.clone(),
    }
}

impl RulingReport {
    /// The ruling with the cycles, the violator and the repeated position read from the
    /// history; `plies` is how many plies the game has in all.
    pub fn new(
        history: &History,
        decision: Decision,
        provisional: bool,
        plies: usize,
    ) -> RulingReport {
        let (violator, cycles, repeated_at) = match &decision.reason {
            Reason::Checkmate | Reason::Stalemate | Reason::MoveLimit(_) | Reason::PlyLimit(_) => {
                (None, Vec::new(), Vec::new())
            }
            Reason::Repetition(ruling) => {
                let violator = match ruling.verdict {
                    Verdict::Win(winner) => Some(winner.flip()),
                    _ => None,
                };
                let cycles = ruling
                    .cycles
                    .iter()
                    .flatten()
                    .map(|cycle| CycleReport {
                        color: cycle.color,
                        violation: cycle.violation,
                        first_ply: cycle.first_ply,
                        last_ply: cycle.last_ply,
                        moves: (cycle.first_ply + 1..=cycle.last_ply)
                            .filter_map(|p| history.records()[p].mv.map(|m| (p, m)))
                            .collect(),
                        chased: cycle.chased_pieces(history),
                        chased_in_turn: cycle.chased_in_turn(history),
                        unprotected: cycle.why_unprotected(history),
                    })
                    .collect();
                (violator, cycles, occurrences(history, ruling.ply))
            }
        };
        // The repeated position (for a violation kept up without repeating, the last repetition).
        let ruled_ply = match &decision.reason {
            Reason::Repetition(ruling) => ruling.ply,
            _ => decision.ply,
        };
        RulingReport {
            provisional,
            violator,
            cycles,
            ruled: history.position_at(ruled_ply).clone(),
            repeated_at,
            past_ruling: plies.saturating_sub(decision.ply),
            decision,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    /// A game of `plies` plies of two horses going out and back.
    fn shuffle(plies: usize) -> GameRecord {
        let cycle: Vec<Move> = ["h0g2", "h9g7", "g2h0", "g7h9"]
            .iter()
            .map(|m| m.parse().expect("a move"))
            .collect();
        let moves: Vec<Move> = cycle.iter().copied().cycle().take(plies).collect();
        let game = Game::replay(Position::startpos(), &moves).expect("legal moves");
        GameRecord::of_game(&game)
    }

    #[test]
    fn a_stop_is_seen_inside_a_long_game() {
        let raised = Stop::on(Arc::new(AtomicBool::new(true)));
        let long = shuffle(4 * STOP_CHECK_PLIES);
        assert!(GameReport::judge_until("long", &long, Rules::DEFAULT, &raised).is_none());
        // A game shorter than the stretch between looks is judged whole.
        let short = shuffle(STOP_CHECK_PLIES / 2);
        let report = GameReport::judge_until("short", &short, Rules::DEFAULT, &raised)
            .expect("judged before any look");
        assert_eq!(report.moves().len(), STOP_CHECK_PLIES / 2);
    }
}
