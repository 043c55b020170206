//! The referee's core: replays a game move by move through `Position` and the judge's `History`
//! and stops at the first decision: checkmate, stalemate (both lose in Xiangqi), or a repetition
//! ruled by the WXF rules. Record readers and the match runner build on it.
//!
//! For game records (`judge_record`, `judge_bytes`) it also reports: the verdict and its reason,
//! the ply, the violator, the chased pieces and the cycle, moves recorded past the ruling, and
//! whether the record's own result agrees.

use crate::judge::{
    History, IllegalMove, RuleConfig, Ruling, Verdict, Violation, judge_at, judge_end_of_record,
    losing_moves, occurrences,
};
use crate::movegen::no_legal_moves;
use crate::moves::Move;
use crate::piece::Piece;
use crate::position::Position;
use crate::record::encoding::Encoding;
use crate::record::notation::Notation;
use crate::record::{Format, GameRecord, RawGame, RecordError};
use crate::square::{Color, Square};
use std::fmt::{self, Write as _};

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
            },
        }
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
        let history = History::new(start, config.rules);
        let mut a = Adjudicator {
            history,
            config,
            decision: None,
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
    /// legality) but the first decision stands.
    pub fn play(&mut self, m: Move) -> Result<Option<&Decision>, IllegalMove> {
        self.history.push(m)?;
        if self.decision.is_none() {
            self.decision = self.terminal_state().or_else(|| {
                let ply = self.history.plies();
                let ruling = judge_at(&self.history, ply, self.config.occurrences);
                (ruling.verdict != Verdict::Undecided).then_some(Decision {
                    verdict: ruling.verdict,
                    ply,
                    reason: Reason::Repetition(ruling),
                })
            });
        }
        Ok(self.decision.as_ref())
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

// ---------------------------------------------------------------------------------------------
// Game records: judging whole records and reporting on them.

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
    /// The Event tag (or title).
    pub event: Option<String>,
    /// The Red player.
    pub red: Option<String>,
    /// The Black player.
    pub black: Option<String>,
    /// The container format.
    pub format: Option<Format>,
    /// The notation the moves were read in.
    pub notation: Option<Notation>,
    /// The text encoding.
    pub encoding: Option<Encoding>,
    /// The moves replayed.
    pub moves: Vec<Move>,
    /// The move texts as recorded (same length as `moves`, or longer when the record breaks off).
    pub move_texts: Vec<String>,
    /// The start position as FEN.
    pub start_fen: String,
    /// The position after the last replayed move, as FEN.
    pub final_fen: String,
    /// The referee's first decision.
    pub decision: Option<Decision>,
    /// Whether the decision rests on a move whose reply the record does not give.
    pub provisional: bool,
    /// The side whose violation lost the repetition.
    pub violator: Option<Color>,
    /// The two sides' cycles of a ruled repetition (the side to move at the ruling first).
    pub cycles: Vec<CycleReport>,
    /// The ruled position as FEN (at the decision's ply).
    pub ruled_fen: Option<String>,
    /// The plies at which the ruled position occurred (repetitions only).
    pub repeated_at: Vec<usize>,
    /// The explanation for people.
    pub explanation: String,
    /// How many recorded plies follow the ruling.
    pub past_ruling: usize,
    /// The result as the record gives it (Result tag, else the move text's result), unless `*`.
    pub record_result: Option<String>,
    /// That result as a verdict, when it is one.
    pub record_verdict: Option<Verdict>,
    /// Whether the record's result agrees with the referee.
    pub agreement: Agreement,
    /// What went wrong with the game, if anything.
    pub error: Option<RecordError>,
    /// Remarks: moves after mate, variations skipped, ...
    pub notes: Vec<String>,
    /// Marks that disagree with their moves.
    pub warnings: Vec<String>,
}

/// Reads a result as a verdict: `1-0`, `0-1`, `1/2-1/2` and the usual Chinese words; `None` for
/// `*` or anything else.
pub fn parse_result(text: &str) -> Option<Verdict> {
    let t = text.trim();
    match t {
        "1-0" => return Some(Verdict::Win(Color::Red)),
        "0-1" => return Some(Verdict::Win(Color::Black)),
        "1/2-1/2" | "½-½" | "1/2" => return Some(Verdict::Draw),
        _ => {}
    }
    let red = ["红胜", "紅勝", "红方胜", "紅方勝", "红先胜", "紅先勝"];
    let black = [
        "黑胜",
        "黑勝",
        "黑方胜",
        "黑方勝",
        "红先负",
        "紅先負",
        "红负",
        "紅負",
    ];
    let draw = ["和棋", "红先和", "紅先和", "和局", "和"];
    if red.iter().any(|w| t.contains(w)) {
        Some(Verdict::Win(Color::Red))
    } else if black.iter().any(|w| t.contains(w)) {
        Some(Verdict::Win(Color::Black))
    } else if draw.iter().any(|w| t == *w || t.starts_with(w)) {
        Some(Verdict::Draw)
    } else {
        None
    }
}

impl GameReport {
    /// A report for a game (or a whole file, `game` 0) that could not be read.
    pub fn failed(file: &str, game: usize, line: u32, error: RecordError) -> GameReport {
        GameReport {
            file: file.to_string(),
            game,
            line,
            event: None,
            red: None,
            black: None,
            format: None,
            notation: None,
            encoding: None,
            moves: Vec::new(),
            move_texts: Vec::new(),
            start_fen: String::new(),
            final_fen: String::new(),
            decision: None,
            provisional: false,
            violator: None,
            cycles: Vec::new(),
            ruled_fen: None,
            repeated_at: Vec::new(),
            explanation: format!("error: {error}"),
            past_ruling: 0,
            record_result: None,
            record_verdict: None,
            agreement: Agreement::NoRuling,
            error: Some(error),
            notes: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// The referee's result: the decision's verdict, or undecided.
    pub fn result(&self) -> Verdict {
        self.decision
            .as_ref()
            .map_or(Verdict::Undecided, |d| d.verdict)
    }

    /// The reason's name: checkmate, stalemate, perpetual check, ..., or "no ruling".
    pub fn reason(&self) -> &'static str {
        self.decision
            .as_ref()
            .map_or("no ruling", Decision::reason_name)
    }
}

/// Replays a resolved record and judges it.
pub fn judge_record(file: &str, record: &GameRecord, config: RuleConfig) -> GameReport {
    let mut report = GameReport::failed(
        file,
        record.index,
        record.line,
        RecordError {
            file: file.to_string(),
            line: None,
            game: None,
            ply: None,
            kind: crate::record::ErrorKind::NoGame,
        },
    );
    report.error = None;
    let tag = |name: &str| {
        record
            .tag(name)
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    };
    report.event = tag("Event").or_else(|| tag("Title"));
    report.red = tag("Red").or_else(|| tag("White"));
    report.black = tag("Black");
    report.format = Some(record.format);
    report.notation = record.notation;
    report.encoding = Some(record.encoding);
    report.move_texts = record.tokens.iter().map(|t| t.text.clone()).collect();
    report.start_fen = record.start.to_string();
    report.notes = record.notes.clone();
    report.warnings = record
        .warnings
        .iter()
        .map(|(ply, w)| format!("ply {ply}: {w}"))
        .collect();

    let mut game = Adjudicator::new(record.start.clone(), config);
    for (i, &m) in record.moves.iter().enumerate() {
        if let Err(e) = game.play(m) {
            report.error = Some(RecordError {
                file: file.to_string(),
                line: record.tokens.get(i).map(|t| t.line),
                game: Some(record.index),
                ply: Some(i + 1),
                kind: crate::record::ErrorKind::Format(e.to_string()),
            });
            break;
        }
        report.moves.push(m);
    }
    let history = game.history();
    let plies = history.plies();
    report.final_fen = history.position().to_string();
    let mut decision = game.decision().cloned();
    let complete = record.stop.is_none() && report.error.is_none();
    if decision.is_none()
        && complete
        && let Some(ruling) = judge_end_of_record(history, config.occurrences)
    {
        report.provisional = true;
        decision = Some(Decision {
            verdict: ruling.verdict,
            ply: ruling.ply,
            reason: Reason::Repetition(ruling),
        });
    }

    // A move that could not be read: after a mate or stalemate it is a remark, not an error.
    if let Some(stop) = &record.stop {
        let ended = decision.as_ref().is_some_and(|d| {
            d.ply == plies && matches!(d.reason, Reason::Checkmate | Reason::Stalemate)
        });
        let text = match &stop.kind {
            crate::record::ErrorKind::Move { text, .. } => Some(text.clone()),
            _ => None,
        };
        match (ended, text) {
            (true, Some(text)) => {
                let how = match decision.as_ref().map(|d| &d.reason) {
                    Some(Reason::Checkmate) => "checkmated",
                    _ => "stalemated",
                };
                report.notes.push(format!(
                    "{} is {how} at ply {plies}; the recorded move {} ({text}) is not legal",
                    history.position().side_to_move(),
                    plies + 1
                ));
            }
            _ => report.error = Some(stop.clone()),
        }
    }

    report.record_result = record
        .tag("Result")
        .or_else(|| record.tag("DhtmlXQResult"))
        .map(str::trim)
        .filter(|r| !r.is_empty() && *r != "*")
        .or(record.result.as_deref().filter(|r| *r != "*"))
        .map(str::to_string);
    report.record_verdict = report.record_result.as_deref().and_then(parse_result);

    let mut text = String::new();
    if let Some(d) = &decision {
        report.past_ruling = plies.saturating_sub(d.ply);
        report.ruled_fen = Some(history.position_at(d.ply).to_string());
        match &d.reason {
            Reason::Checkmate | Reason::Stalemate => {
                let loser = history.position_at(d.ply).side_to_move();
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
            Reason::Repetition(ruling) => {
                if let Verdict::Win(winner) = ruling.verdict {
                    report.violator = Some(winner.flip());
                }
                for cycle in ruling.cycles.iter().flatten() {
                    report.cycles.push(CycleReport {
                        color: cycle.color,
                        violation: cycle.violation,
                        first_ply: cycle.first_ply,
                        last_ply: cycle.last_ply,
                        moves: (cycle.first_ply + 1..=cycle.last_ply)
                            .filter_map(|p| history.records()[p].mv.map(|m| (p, m)))
                            .collect(),
                        chased: cycle.chased_pieces(history),
                    });
                }
                report.repeated_at = occurrences(history, d.ply);
                let _ = write!(text, "{}: {}", d.reason_name(), ruling.explain(history));
                if let Some(v) = report.violator {
                    let _ = write!(text, "\n  violator: {v}");
                }
                let plies: Vec<String> = report.repeated_at.iter().map(|p| p.to_string()).collect();
                let _ = write!(
                    text,
                    "\n  repeated position {} at plies {}",
                    history.position_at(d.ply),
                    plies.join(", ")
                );
                if report.provisional {
                    text.push_str(
                        "\n  the record ends here: the last move's reply is not recorded",
                    );
                }
            }
        }
        if report.past_ruling > 0 {
            let _ = write!(
                text,
                "\n  the record continues {} plies past the ruling",
                report.past_ruling
            );
        }
        report.agreement = match report.record_verdict {
            None => Agreement::NoRecordResult,
            Some(v) if v == d.verdict => Agreement::Agrees,
            Some(_) => Agreement::Disagrees,
        };
    } else {
        match &report.record_result {
            Some(r) => {
                let _ = write!(text, "no ruling; result from the record: {r}");
            }
            None => text.push_str("no ruling; the record gives no result"),
        }
        report.agreement = Agreement::NoRuling;
    }
    report.decision = decision;
    report.explanation = text;
    report
}

/// Reads one file's bytes and judges every game in it: what `xq referee` does for each file.
pub fn judge_bytes(file: &str, bytes: &[u8], config: RuleConfig) -> Vec<GameReport> {
    match crate::record::read_file(file, bytes) {
        Err(e) => vec![GameReport::failed(file, 0, 0, e)],
        Ok(games) => games
            .games
            .iter()
            .map(|raw| judge_raw(file, games.encoding, raw, config))
            .collect(),
    }
}

/// Resolves and judges one game as split from a file.
pub fn judge_raw(file: &str, encoding: Encoding, raw: &RawGame, config: RuleConfig) -> GameReport {
    match crate::record::resolve(file, encoding, raw) {
        Ok(record) => judge_record(file, &record, config),
        Err(e) => GameReport::failed(file, raw.index, raw.line, e),
    }
}
