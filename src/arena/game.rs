//! One game between two engine clients: the book moves, the clocks, the referee after every move
//! (checkmate, stalemate, WXF repetition with 3 occurrences, the move-count rule and the cap on
//! plies: every ending by the rules is the referee's), optional score-based adjudication, and
//! losses for illegal moves, crashes, hangs and time.

use super::client::{Client, ClientError, GoLimit};
use super::openings::Opening;
use super::spec::Protocol;
use super::wire::{EngineScore, MoveChoice, score_with_depth};
use crate::moves::Move;
use crate::position::Position;
use crate::referee::{self, Adjudicator, Decision, Reason};
use crate::square::Color;
use std::time::{Duration, Instant};

/// How long an engine may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// A clock per side: base time plus an increment per move.
    Clock {
        /// Time for the game.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
    /// A node budget per move.
    Nodes(u64),
    /// A depth per move.
    Depth(u32),
}

/// Adjudicate a loss when both engines agree for a while that one side is lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves of each side that must agree.
    pub moves: u32,
    /// The score (engine units, side to move) at or beyond which a side counts as lost.
    pub score: i32,
}

/// Adjudicate a draw when both engines report a score near zero for a while.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// Not before this many plies in the game.
    pub from_ply: u32,
    /// Consecutive moves of each side that must agree.
    pub moves: u32,
    /// The largest absolute score that counts as drawn.
    pub score: i32,
}

/// Everything about a game that is not the engines or the opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRules {
    /// The thinking limit.
    pub limit: Limit,
    /// How far past its clock an engine may answer before it loses on time.
    pub margin: Duration,
    /// With node or depth limits: how long to wait for a move before scoring a hang.
    pub move_timeout: Duration,
    /// The referee's rules: the first ruling ends the game, with the move-count rule and the cap
    /// on plies (book moves included) of the match.
    pub referee: referee::Rules,
    /// Score-based loss adjudication.
    pub resign: Option<ResignRule>,
    /// Score-based draw adjudication.
    pub draw: Option<DrawRule>,
}

/// How a game ended, as a short name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndKind {
    /// The referee ruled: checkmate, stalemate or a repetition (with the referee's name for it).
    Referee(&'static str),
    /// The move-count rule or the cap on plies, as the referee applies them.
    MoveLimit,
    /// Score-based adjudication.
    Adjudication,
    /// An engine ran out of time.
    TimeForfeit,
    /// An engine played an illegal or unreadable move.
    IllegalMove,
    /// An engine gave no move (or resigned).
    Resignation,
    /// An engine process exited or could not be written to.
    Crash,
    /// An engine did not answer within the move timeout.
    Hang,
    /// An engine sent more output during a move than any engine needs.
    OutputFlood,
    /// An engine could not be (re)started or made ready before the game.
    StartFailure,
}

impl EndKind {
    /// The text of the PGN `Termination` tag.
    pub fn name(self) -> &'static str {
        match self {
            EndKind::Referee(name) => name,
            EndKind::MoveLimit => "move limit",
            EndKind::Adjudication => "adjudication",
            EndKind::TimeForfeit => "time forfeit",
            EndKind::IllegalMove => "illegal move",
            EndKind::Resignation => "resignation",
            EndKind::Crash => "engine crash",
            EndKind::Hang => "engine hang",
            EndKind::OutputFlood => "engine output flood",
            EndKind::StartFailure => "engine failed to start",
        }
    }
}

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This side won.
    Win(Color),
    /// Drawn.
    Draw,
}

impl Outcome {
    /// The PGN result token.
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::Win(Color::Red) => "1-0",
            Outcome::Win(Color::Black) => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// The engine names, Red first.
    pub names: [String; 2],
    /// Where the game starts (the opening's start, before the book moves).
    pub start: Position,
    /// Every move, book moves first.
    pub moves: Vec<Move>,
    /// How many of the moves came from the book.
    pub book_plies: usize,
    /// The result.
    pub outcome: Outcome,
    /// How it ended.
    pub end: EndKind,
    /// The reason in words.
    pub detail: String,
    /// What each move's engine reported and how long it took (book moves: none).
    pub notes: Vec<Option<MoveNote>>,
    /// Red's and Black's clocks (base, increment), when the game was played on the clock.
    pub clocks: Option<[(Duration, Duration); 2]>,
}

impl PlayedGame {
    /// A game lost before it began, because `loser`'s engine could not be made ready.
    pub fn forfeit(
        names: [String; 2],
        opening: &Opening,
        loser: Color,
        error: &ClientError,
    ) -> PlayedGame {
        PlayedGame {
            names: names.clone(),
            start: opening.start.clone(),
            moves: opening.moves.clone(),
            book_plies: opening.moves.len(),
            outcome: Outcome::Win(loser.flip()),
            end: EndKind::StartFailure,
            detail: format!(
                "{loser} ({}) could not start the game: {error}",
                names[loser.index()]
            ),
            notes: vec![None; opening.moves.len()],
            clocks: None,
        }
    }
}

/// What an engine reported with one move, for the record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNote {
    /// The last score it reported, from its own side.
    pub score: Option<EngineScore>,
    /// The last depth it reported.
    pub depth: Option<u32>,
    /// The time from `go` to its move, as its clock was charged.
    pub time: Duration,
}

/// Keeps track of score streaks for adjudication.
#[derive(Default)]
struct ScoreWatch {
    losing: [u32; 2],
    winning: [u32; 2],
    even: [u32; 2],
}

impl ScoreWatch {
    fn update(&mut self, side: Color, score: Option<EngineScore>, rules: &GameRules) {
        let i = side.index();
        let Some(v) = score.map(EngineScore::value) else {
            *self = ScoreWatch {
                losing: [0; 2],
                winning: [0; 2],
                even: [0; 2],
            };
            return;
        };
        if let Some(r) = rules.resign {
            self.losing[i] = if v <= -r.score { self.losing[i] + 1 } else { 0 };
            self.winning[i] = if v >= r.score { self.winning[i] + 1 } else { 0 };
        }
        if let Some(d) = rules.draw {
            self.even[i] = if v.abs() <= d.score {
                self.even[i] + 1
            } else {
                0
            };
        }
    }

    fn verdict(&self, plies: usize, rules: &GameRules) -> Option<(Outcome, String)> {
        if let Some(r) = rules.resign {
            for loser in Color::ALL {
                let (l, w) = (loser.index(), loser.flip().index());
                if self.losing[l] >= r.moves && self.winning[w] >= r.moves {
                    return Some((
                        Outcome::Win(loser.flip()),
                        format!(
                            "{loser} lost by adjudication: both engines scored it at -{} or worse for {} moves each",
                            r.score, r.moves
                        ),
                    ));
                }
            }
        }
        if let Some(d) = rules.draw
            && plies >= d.from_ply as usize
            && self.even.iter().all(|&n| n >= d.moves)
        {
            return Some((
                Outcome::Draw,
                format!(
                    "draw by adjudication: both engines scored within {} for {} moves each",
                    d.score, d.moves
                ),
            ));
        }
        None
    }
}

/// Plays one game. Both clients must be ready for a new game (see [`Client::new_game`]);
/// `clients` is Red's engine then Black's.
pub fn play(clients: [&mut Client; 2], opening: &Opening, rules: &GameRules) -> PlayedGame {
    let names = [
        clients[0].spec().name.clone(),
        clients[1].spec().name.clone(),
    ];
    let mut adjudicator = Adjudicator::new(opening.start.clone(), rules.referee);
    let mut record = PlayedGame {
        names: names.clone(),
        start: opening.start.clone(),
        moves: Vec::new(),
        book_plies: opening.moves.len(),
        outcome: Outcome::Draw,
        end: EndKind::MoveLimit,
        detail: String::new(),
        notes: Vec::new(),
        clocks: None,
    };
    let who = |c: Color| format!("{c} ({})", names[c.index()]);
    for &m in &opening.moves {
        if adjudicator.play(m).is_err() {
            // Openings are replayed when loaded; this cannot happen.
            break;
        }
        record.moves.push(m);
        record.notes.push(None);
    }
    // Each side's clock: its engine's own (`tc=`, time odds), else the match's.
    let clocks = match rules.limit {
        Limit::Clock { base, increment } => Some([0, 1].map(|side| {
            clients[side]
                .spec()
                .clock
                .map_or((base, increment), |c| (c.base, c.increment))
        })),
        _ => None,
    };
    record.clocks = clocks;
    let mut clock = clocks.map_or([Duration::ZERO; 2], |c| [c[0].0, c[1].0]);
    let increments = clocks.map_or([Duration::ZERO; 2], |c| [c[0].1, c[1].1]);
    let mut watch = ScoreWatch::default();
    let finish = |mut record: PlayedGame, outcome, end, detail| {
        record.outcome = outcome;
        record.end = end;
        record.detail = detail;
        record
    };
    loop {
        if let Some(d) = adjudicator.decision() {
            let (outcome, detail) = describe(d, &adjudicator);
            let end = match d.reason {
                Reason::MoveLimit(_) | Reason::PlyLimit(_) => EndKind::MoveLimit,
                _ => EndKind::Referee(d.reason_name()),
            };
            return finish(record, outcome, end, detail);
        }
        let plies = adjudicator.plies();
        if let Some((outcome, detail)) = watch.verdict(plies, rules) {
            return finish(record, outcome, EndKind::Adjudication, detail);
        }

        let side = adjudicator.position().side_to_move();
        let client = &mut *clients[side.index()];
        let banned = if client.spec().protocol == Protocol::Ucci {
            adjudicator.losing_moves()
        } else {
            Vec::new()
        };
        let (limit, budget) = match rules.limit {
            Limit::Clock { .. } => (
                GoLimit::Clock {
                    left: clock,
                    increment: increments,
                },
                clock[side.index()] + rules.margin,
            ),
            Limit::Nodes(n) => (GoLimit::Nodes(n), rules.move_timeout),
            Limit::Depth(d) => (GoLimit::Depth(d), rules.move_timeout),
        };
        let deadline = Instant::now() + budget;
        let ply = plies + 1;
        let reply = match client.search(&record.start, &record.moves, &banned, limit, deadline) {
            Ok(reply) => reply,
            Err(e) => {
                let (end, detail) = match &e {
                    ClientError::Timeout { .. } => match rules.limit {
                        Limit::Clock { .. } => (
                            EndKind::TimeForfeit,
                            format!(
                                "{} lost on time at ply {ply}: no move within {:.3} s ({:.3} s left, margin {:.3} s)",
                                who(side),
                                budget.as_secs_f64(),
                                clock[side.index()].as_secs_f64(),
                                rules.margin.as_secs_f64()
                            ),
                        ),
                        _ => (
                            EndKind::Hang,
                            format!(
                                "{} sent no move at ply {ply} within {:.1} s",
                                who(side),
                                budget.as_secs_f64()
                            ),
                        ),
                    },
                    ClientError::Flood { .. } => (
                        EndKind::OutputFlood,
                        format!("{} lost at ply {ply}: {e}", who(side)),
                    ),
                    _ => (
                        EndKind::Crash,
                        format!("{} crashed at ply {ply}: {e}", who(side)),
                    ),
                };
                return finish(record, Outcome::Win(side.flip()), end, detail);
            }
        };
        if let Limit::Clock { .. } = rules.limit {
            let increment = increments[side.index()];
            let left = clock[side.index()];
            if reply.elapsed > left + rules.margin {
                let detail = format!(
                    "{} lost on time at ply {ply}: used {:.3} s with {:.3} s left (margin {:.3} s)",
                    who(side),
                    reply.elapsed.as_secs_f64(),
                    left.as_secs_f64(),
                    rules.margin.as_secs_f64()
                );
                return finish(
                    record,
                    Outcome::Win(side.flip()),
                    EndKind::TimeForfeit,
                    detail,
                );
            }
            clock[side.index()] = left.saturating_sub(reply.elapsed) + increment;
        }
        let m = match reply.choice {
            MoveChoice::Move(m) if !reply.resign => m,
            choice => {
                let (end, detail) = match choice {
                    _ if reply.resign => (
                        EndKind::Resignation,
                        format!(
                            "{} resigned at ply {ply}{}",
                            who(side),
                            own_score(reply.score, reply.depth)
                        ),
                    ),
                    MoveChoice::Unreadable(err) => (
                        EndKind::IllegalMove,
                        format!("{} sent an unreadable move at ply {ply}: {err}", who(side)),
                    ),
                    _ => (
                        EndKind::Resignation,
                        format!(
                            "{} gave no move at ply {ply} ({:?}) with legal moves available",
                            who(side),
                            reply.line
                        ),
                    ),
                };
                return finish(record, Outcome::Win(side.flip()), end, detail);
            }
        };
        let position = adjudicator.position().clone();
        if adjudicator.play(m).is_err() {
            let detail = format!(
                "{} played the illegal move {} ({:?}) at ply {ply} in {}",
                who(side),
                m,
                reply.line,
                position
            );
            return finish(
                record,
                Outcome::Win(side.flip()),
                EndKind::IllegalMove,
                detail,
            );
        }
        record.moves.push(m);
        record.notes.push(Some(MoveNote {
            score: reply.score,
            depth: reply.depth,
            time: reply.elapsed,
        }));
        watch.update(side, reply.score, rules);
    }
}

/// The score a resigning engine last gave, for the record: `, scoring it -M3/14`, or nothing
/// when it printed none.
fn own_score(score: Option<EngineScore>, depth: Option<u32>) -> String {
    score.map_or(String::new(), |score| {
        format!(", scoring it {}", score_with_depth(score, depth))
    })
}

/// The referee's rules for a match game: the first ruling ends the game (the default count of
/// occurrences makes a repetition, UCCI engines being sent the moves that would lose one), with a move-count rule of
/// `move_limit` moves by each side and a cap of `max_plies` plies (0: none).
pub fn match_rules(move_limit: u32, max_plies: u32) -> referee::Rules {
    referee::Rules {
        move_limit: (move_limit > 0).then_some(move_limit),
        ply_limit: (max_plies > 0).then_some(max_plies),
        ..referee::Rules::first_decision(referee::Rules::DEFAULT.repetitions)
    }
}

/// The result of a referee's decision and the decision in the referee's words, on one line.
fn describe(d: &Decision, adjudicator: &Adjudicator) -> (Outcome, String) {
    let outcome = d.winner().map_or(Outcome::Draw, Outcome::Win);
    let detail = adjudicator
        .explain(d)
        .lines()
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("; ");
    (outcome, detail)
}
