//! The referee's report on one game of a file, as data: what the record says, the replay, the
//! ruling and its explanation, built once from the judged game (or from the error that kept the
//! game from being read). The text, JSON and HTML renderings read it; none of them judges.

use super::{Adjudicator, Decision, Reason, RefereeConfig, RepetitionEvent};
use crate::judge::explain::ChaseWitness;
use crate::judge::{History, Verdict, Violation, judge_end_of_record, occurrences};
use crate::movegen::count_legal;
use crate::moves::Move;
use crate::piece::Piece;
use crate::position::Position;
use crate::record::encoding::Encoding;
use crate::record::notation::Notation;
use crate::record::{ErrorKind, Format, GameRecord, RecordError, RecordedResult, parse_result};
use crate::square::{Color, Square};
use std::fmt::Write as _;

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
    /// Why each chased piece counted as unprotected at the side's last move of the cycle, with
    /// the reason in words.
    pub unprotected: Vec<(ChaseWitness, String)>,
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
    pub notes: Vec<String>,
    /// Marks that disagree with their moves.
    pub warnings: Vec<String>,
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
    /// The explanation for people.
    pub explanation: String,
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
    pub fn judge(file: &str, record: &GameRecord, config: RefereeConfig) -> GameReport {
        let mut game = Adjudicator::new(record.start.clone(), config.rules);
        let mut replay_error = None;
        for (i, &m) in record.moves.iter().enumerate() {
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
        let (decision, provisional) = if config.first_decision {
            first_decision(&game, complete)
        } else {
            record_ending(&game, complete, config.move_limit)
        };

        let mut notes = record.notes.clone();
        let mut error = replay_error;
        // A move that could not be read: after a mate or stalemate it is a remark, not an error.
        if let Some(stop) = &record.stop {
            let ended = decision.as_ref().is_some_and(|d| {
                d.ply == plies && matches!(d.reason, Reason::Checkmate | Reason::Stalemate)
            });
            match (ended, &stop.kind) {
                (true, ErrorKind::Move { text, .. }) => {
                    let how = match decision.as_ref().map(|d| &d.reason) {
                        Some(Reason::Checkmate) => "checkmated",
                        _ => "stalemated",
                    };
                    notes.push(format!(
                        "the game was already over at ply {plies} ({} {how}); the recorded move {} ({text}) and any after it are not judged",
                        history.position().side_to_move(),
                        plies + 1
                    ));
                }
                _ => error = Some(stop.clone()),
            }
        }

        let facts = record_facts(record, notes);
        let ruling = decision.map(|d| ruling_report(history, d, provisional, plies));
        let agreement = match (&ruling, facts.verdict) {
            (None, _) => Agreement::NoRuling,
            (Some(_), None) => Agreement::NoRecordResult,
            (Some(r), Some(v)) if v == r.decision.verdict => Agreement::Agrees,
            (Some(_), Some(_)) => Agreement::Disagrees,
        };
        let events = game.events().to_vec();
        let explanation = explain(ruling.as_ref(), &events, &record.moves[..plies], &facts);
        GameReport {
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
                    explanation,
                }),
                stopped: error,
            },
        }
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

    /// The rule-book rule the ruling rests on, with the nearest WXF manual diagram, when one fits.
    pub fn rule_cited(&self) -> Option<&'static str> {
        let ruling = self.ruling()?;
        rule_citation(&ruling.decision, &ruling.cycles)
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

    /// The explanation for people; for an unreadable game, the error.
    pub fn explanation(&self) -> String {
        match &self.body {
            ReportBody::Judged { game, .. } => game.explanation.clone(),
            ReportBody::Unreadable(_) => "not judged: the record could not be read".to_string(),
        }
    }

    /// The repetitions met on the way to the ending (not the one that is the ending), each
    /// described in the arbiter's words.
    pub fn repetitions_on_the_way(&self) -> Vec<String> {
        self.judged().map_or(Vec::new(), |g| {
            on_the_way(g.ruling.as_ref(), &g.events)
                .into_iter()
                .map(|e| describe_event(e, &g.moves, &g.facts.move_texts))
                .collect()
        })
    }

    /// The remarks made while reading the record.
    pub fn notes(&self) -> &[String] {
        self.facts().map_or(&[], |f| &f.notes)
    }
}

/// The first decision as the result (the WXF case suite's convention); with none, a repetition
/// the record ends in, judged with the last move's reply unknown (provisional).
fn first_decision(game: &Adjudicator, complete: bool) -> (Option<Decision>, bool) {
    if let Some(d) = game.decision() {
        return (Some(d.clone()), false);
    }
    end_of_record(game, complete)
}

/// A repetition the record ends in, judged with the last move's reply unknown.
fn end_of_record(game: &Adjudicator, complete: bool) -> (Option<Decision>, bool) {
    let history = game.history();
    match judge_end_of_record(history, game.config().occurrences) {
        Some(ruling) if complete && ruling.verdict != Verdict::Undecided => (
            Some(Decision {
                verdict: ruling.verdict,
                ply: ruling.ply,
                reason: Reason::Repetition(ruling),
            }),
            true,
        ),
        _ => (None, false),
    }
}

/// How the recorded game ended, as an arbiter reads it: a mate or stalemate on the board at the
/// end; else a forbidden repetition the violator kept on with; else a repetition the record ends
/// in; else the move-count rule; else nothing (the record's result stands).
fn record_ending(
    game: &Adjudicator,
    complete: bool,
    move_limit: Option<u32>,
) -> (Option<Decision>, bool) {
    let history = game.history();
    let plies = history.plies();
    if let Some(end) = game.terminal() {
        return (Some(end), false);
    }
    let repetition = |ruling: &crate::judge::Ruling| Decision {
        verdict: ruling.verdict,
        ply: ruling.ply,
        reason: Reason::Repetition(ruling.clone()),
    };
    if let Some(kept) = game.events().iter().find_map(|e| e.kept_on.as_ref()) {
        return (Some(repetition(kept)), false);
    }
    if complete
        && let Some(open) = game
            .events()
            .last()
            .filter(|e| e.varied.is_none() && e.ruled_anew.is_none() && e.last_ply == plies)
    {
        return match open.kept_up {
            // The violator kept its violation up on other squares to the end of the record; a
            // keep-up at the last move rests on a move whose reply is unknown.
            Some((_, last)) => (
                Some(Decision {
                    ply: plies,
                    ..repetition(&open.latest)
                }),
                last == plies && !history.is_settled(last),
            ),
            None => (Some(repetition(&open.latest)), false),
        };
    }
    let (end, provisional) = end_of_record(game, complete);
    if end.is_some() {
        return (end, provisional);
    }
    if let Some(limit) = move_limit {
        let quiet = plies_without_capture(history);
        let needed = 2 * limit as usize;
        if quiet >= needed {
            return (
                Some(Decision {
                    verdict: Verdict::Draw,
                    ply: plies - quiet + needed,
                    reason: Reason::MoveLimit(limit),
                }),
                false,
            );
        }
    }
    (None, false)
}

/// How many plies at the end of the game have captured nothing.
fn plies_without_capture(history: &History) -> usize {
    let records = history.records();
    (1..records.len())
        .rev()
        .take_while(|&ply| {
            records[ply]
                .mv
                .is_some_and(|m| history.position_at(ply - 1).piece_at(m.to()).is_none())
        })
        .count()
}

/// The facts a record gives about itself, with the remarks made while reading and replaying it.
fn record_facts(record: &GameRecord, notes: Vec<String>) -> RecordFacts {
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
        warnings: record
            .warnings
            .iter()
            .map(|(ply, w)| format!("ply {ply}: {w}"))
            .collect(),
    }
}

/// The ruling with the cycles, the violator and the repeated position read from the history.
fn ruling_report(
    history: &History,
    decision: Decision,
    provisional: bool,
    plies: usize,
) -> RulingReport {
    let (violator, cycles, repeated_at) = match &decision.reason {
        Reason::Checkmate | Reason::Stalemate | Reason::MoveLimit(_) => {
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
                    unprotected: cycle
                        .why_unprotected(history)
                        .into_iter()
                        .map(|w| {
                            let words = w.describe(history);
                            (w, words)
                        })
                        .collect(),
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

/// A move as the record wrote it beside its ICCS form (`h2e2 炮二平五`), or ICCS alone when the
/// record wrote it that way.
fn move_words(m: Move, ply: usize, texts: &[String]) -> String {
    let iccs = m.to_string();
    match texts.get(ply - 1) {
        Some(t) if !t.eq_ignore_ascii_case(&iccs) => format!("{iccs} ({t})"),
        _ => iccs,
    }
}

/// How many items of a list are shown at each end when it is too long to show whole.
const LIST_ENDS: usize = 4;

/// A list joined with commas; a long one as its first and last few items around `…`, with how
/// many `things` it holds in all ("1, 5, 9, 13, …, 85, 89, 93, 97 (25 plies in all)").
fn abbreviated(items: &[String], things: &str) -> String {
    if items.len() <= 3 * LIST_ENDS {
        return items.join(", ");
    }
    format!(
        "{}, …, {} ({} {things} in all)",
        items[..LIST_ENDS].join(", "),
        items[items.len() - LIST_ENDS..].join(", "),
        items.len()
    )
}

/// The rule-book rule a ruling rests on, and the nearest diagram of the WXF manual, when one fits.
fn rule_citation(decision: &Decision, cycles: &[CycleReport]) -> Option<&'static str> {
    let worst = cycles.iter().map(|c| c.violation).max()?;
    let both = cycles.len() == 2 && cycles[0].violation == cycles[1].violation;
    Some(match (decision.verdict, worst, both) {
        (Verdict::Win(_), Violation::PerpetualCheck, _) => {
            "WXF rule 6: perpetual check loses (manual diagram 1)"
        }
        (Verdict::Draw, Violation::PerpetualCheck, true) => {
            "WXF rule 7: both sides checking perpetually is a draw (manual diagram 4)"
        }
        (Verdict::Draw, Violation::PerpetualCheck, false) => {
            "WXF rule 12: one side checking and the other chasing is a draw (manual diagram 13)"
        }
        (Verdict::Win(_), Violation::PerpetualChase, _) => {
            let chased = cycles
                .iter()
                .filter(|c| c.violation == Violation::PerpetualChase)
                .flat_map(|c| c.chased.iter().map(|(p, _)| p.kind))
                .min_by_key(|k| *k as u8)?;
            use crate::piece::PieceKind::*;
            match chased {
                Rook => {
                    "WXF rules 15 and 19: a rook may not be perpetually chased (manual diagram 18)"
                }
                Cannon => {
                    "WXF rule 18: an unprotected cannon may not be perpetually chased (manual diagram 32)"
                }
                Horse => {
                    "WXF rule 23: an unprotected horse may not be perpetually chased (manual diagram 49)"
                }
                _ => {
                    "WXF rule 25: an unprotected piece may not be perpetually chased (manual diagram 56)"
                }
            }
        }
        (Verdict::Draw, Violation::PerpetualChase, true) => {
            "WXF rule 24: both sides chasing perpetually is a draw (manual diagram 51)"
        }
        (_, Violation::Idle, _) if cycles.iter().any(|c| !c.chased_in_turn.is_empty()) => {
            "WXF rule 32: one piece chasing two pieces in turn, or two chasing two, is not a perpetual chase (manual diagrams 76-80)"
        }
        (_, Violation::Idle, _) => {
            "WXF rules: a repetition in which neither side violates is a draw"
        }
        _ => return None,
    })
}

/// "ply N", or "plies N-M" (the violator's moves, every other ply).
fn plies_words(first: usize, last: usize) -> String {
    if first == last {
        format!("ply {first}")
    } else {
        format!("plies {first}-{last}")
    }
}

/// One repetition met on the way, in the arbiter's words: the kind, who must change moves, and
/// what happened next.
pub(super) fn describe_event(e: &RepetitionEvent, moves: &[Move], texts: &[String]) -> String {
    let kind = e.kind();
    let mut out = format!("ply {}: {kind}", e.first_ply());
    match e.violator() {
        Some(v) => {
            let _ = write!(out, "; {v} must change moves");
        }
        None => out.push_str(" (allowed: a draw if the players go on repeating)"),
    }
    let violator = e
        .violator()
        .map_or("the violator".to_string(), |v| v.to_string());
    if let Some((first, last)) = e.kept_up {
        let _ = write!(
            out,
            "; {violator} kept up the {kind} on other squares at {}",
            plies_words(first, last)
        );
        if let Some(&m) = moves.get(first - 1) {
            let _ = write!(out, " ({})", move_words(m, first, texts));
        }
    }
    if let Some(kept) = &e.kept_on {
        let _ = write!(
            out,
            "; {violator} repeated again at ply {} instead",
            kept.ply
        );
    }
    match (e.varied, e.ruled_anew) {
        (None, Some(ply)) => {
            let _ = write!(
                out,
                "; from ply {ply} the repetition goes on under a new ruling"
            );
        }
        (Some((side, ply)), _) => {
            let _ = write!(out, "; {side} varied at ply {ply}");
            if let Some(&m) = moves.get(ply - 1) {
                let _ = write!(out, " with {}", move_words(m, ply, texts));
            }
        }
        (None, None) => {
            let _ = write!(out, "; the record ends in it at ply {}", e.last_ply);
        }
    }
    out
}

/// The repetitions met before the ending (all of them when there is none).
fn on_the_way<'a>(
    ruling: Option<&RulingReport>,
    events: &'a [RepetitionEvent],
) -> Vec<&'a RepetitionEvent> {
    events
        .iter()
        .filter(|e| ruling.is_none_or(|r| !e.covers(r.decision.ply)))
        .collect()
}

/// The explanation for people: the ending and what it rests on (or that there is none), then
/// the repetitions met on the way.
fn explain(
    ruling: Option<&RulingReport>,
    events: &[RepetitionEvent],
    moves: &[Move],
    facts: &RecordFacts,
) -> String {
    let mut text = String::new();
    let record_result = facts.result.as_deref();
    match ruling {
        None => match record_result {
            Some(result) => {
                let _ = write!(text, "no ruling; result from the record: {result}");
            }
            None => text.push_str("no ruling; the record gives no result"),
        },
        Some(r) => explain_ruling(&mut text, r, events, facts),
    }
    let on_the_way = on_the_way(ruling, events);
    if !on_the_way.is_empty() {
        text.push_str("\n  repetitions on the way:");
        for e in on_the_way {
            let _ = write!(
                text,
                "\n    {}",
                describe_event(e, moves, &facts.move_texts)
            );
        }
    }
    text
}

fn explain_ruling(
    text: &mut String,
    r: &RulingReport,
    events: &[RepetitionEvent],
    facts: &RecordFacts,
) {
    let d = &r.decision;
    match &d.reason {
        Reason::Checkmate | Reason::Stalemate => {
            let loser = r.ruled.side_to_move();
            let how = if d.reason == Reason::Checkmate {
                "is checkmated: in check with no legal move"
            } else {
                "is stalemated: no legal move, not in check (a loss in Xiangqi)"
            };
            let _ = write!(
                text,
                "{} wins at ply {}: {loser} {how}",
                loser.flip(),
                d.ply
            );
        }
        Reason::MoveLimit(moves) => {
            let _ = write!(
                text,
                "draw at ply {}: {moves} moves by each side without a capture (the move-count rule)",
                d.ply
            );
        }
        Reason::Repetition(_) => {
            let event = events.iter().find(|e| e.covers(d.ply));
            match (r.violator, event) {
                (Some(v), Some(e))
                    if e.kept_on.is_none() && e.kept_up.is_some() && e.last_ply == d.ply =>
                {
                    let (first, last) = e.kept_up.expect("checked above");
                    let _ = write!(
                        text,
                        "{}: {v} had to change moves after ply {}, kept the {} up on other squares instead (from ply {first}{}), and the record ends in it at ply {}; {} wins",
                        d.reason_name(),
                        e.first_ply(),
                        d.reason_name(),
                        facts
                            .move_texts
                            .get(first - 1)
                            .map_or(String::new(), |t| format!(", {t}")),
                        d.ply.max(last),
                        v.flip()
                    );
                }
                (Some(v), Some(e)) if e.kept_on.as_ref().is_some_and(|k| k.ply == d.ply) => {
                    let _ = write!(
                        text,
                        "{}: {v} had to change moves after ply {} and repeated again at ply {}; {} wins",
                        d.reason_name(),
                        e.first_ply(),
                        d.ply,
                        v.flip()
                    );
                }
                (Some(v), _) => {
                    let _ = write!(
                        text,
                        "{} at ply {}: {v} must change moves, and the record ends in the repetition; {} wins",
                        d.reason_name(),
                        d.ply,
                        v.flip()
                    );
                }
                (None, _) => {
                    let _ = write!(text, "{} at ply {}: a draw", d.reason_name(), d.ply);
                }
            }
            if let Some(rule) = rule_citation(d, &r.cycles) {
                let _ = write!(text, "\n  {rule}");
            }
            for cycle in &r.cycles {
                let own: Vec<(usize, Move)> = cycle
                    .moves
                    .iter()
                    .copied()
                    .filter(|(p, _)| (p - cycle.first_ply) % 2 == 1)
                    .collect();
                let words: Vec<String> = own
                    .iter()
                    .map(|&(p, m)| move_words(m, p, &facts.move_texts))
                    .collect();
                let plies = match (own.first(), own.last()) {
                    (Some(first), Some(last)) if first.0 != last.0 => {
                        format!("plies {}-{}", first.0, last.0)
                    }
                    (Some(only), _) => format!("ply {}", only.0),
                    _ => format!("plies {}-{}", cycle.first_ply + 1, cycle.last_ply),
                };
                let _ = write!(
                    text,
                    "\n  {}: {} with {}'s moves at {plies}: {}",
                    cycle.color,
                    cycle.violation.name(),
                    cycle.color,
                    abbreviated(&words, "moves")
                );
                for (piece, squares) in &cycle.chased {
                    let squares: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
                    let _ = write!(
                        text,
                        "; chased {piece} {}",
                        abbreviated(&squares, "squares")
                    );
                }
                if !cycle.chased_in_turn.is_empty() {
                    let each: Vec<String> = cycle
                        .chased_in_turn
                        .iter()
                        .map(|(piece, squares)| {
                            let squares: Vec<String> =
                                squares.iter().map(|s| s.to_string()).collect();
                            format!("{piece} {}", abbreviated(&squares, "squares"))
                        })
                        .collect();
                    let _ = write!(
                        text,
                        "; chased in turn: {} (no single piece on every move: no perpetual chase)",
                        each.join("; ")
                    );
                }
                for (witness, words) in &cycle.unprotected {
                    let _ = write!(text, "\n    unprotected at ply {}: {words}", witness.ply);
                }
            }
            let plies: Vec<String> = r.repeated_at.iter().map(|p| p.to_string()).collect();
            let _ = write!(
                text,
                "\n  repeated position {} at plies {}",
                r.ruled,
                abbreviated(&plies, "plies")
            );
            if r.provisional {
                text.push_str("\n  the record ends here: the last move's reply is not recorded");
            }
        }
    }
    if r.past_ruling > 0 {
        let _ = write!(
            text,
            "\n  the record continues {} plies past the ruling",
            r.past_ruling
        );
    }
}
