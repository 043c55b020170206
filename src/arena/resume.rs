//! Resuming a match from its own PGN file (`xq match --resume`): the games the file already holds
//! are read back, checked against the schedule the command line gives (round, colours, opening,
//! clocks), counted, and not played again; the games still to play are appended to the file.
//!
//! A long schedule can so be played in parts: stop the match (the games in play are lost and
//! played again), then run the same command with `--resume`.

use super::game::Limit;
use super::spec::ClockSpec;
use super::stats::Points;
use super::{MatchConfig, Schedule};
use crate::fen;
use crate::record::{self, GameRecord, RecordError};
use std::collections::BTreeSet;
use std::fmt;

/// A game of the schedule already played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedGame {
    /// Its place in the schedule, 0-based (its PGN round less one).
    pub index: u32,
    /// The result for the first engine.
    pub points: Points,
    /// How it ended, as the PGN's `Termination` tag says (empty when it has none).
    pub ending: String,
}

/// Why a match's PGN file cannot be resumed, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResumeError {
    /// The file is not readable as game records, or one of its games is broken (as a game cut
    /// off when the match was stopped is).
    Record(RecordError),
    /// A game does not belong to the schedule of this match.
    Schedule {
        /// The file as named.
        file: String,
        /// The line where the game starts.
        line: u32,
        /// The game's number in the file, 1-based.
        game: usize,
        /// What is wrong.
        problem: Box<ScheduleProblem>,
    },
}

/// How a game of the file does not belong to the schedule of the match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScheduleProblem {
    /// The game has no `Round` tag.
    NoRound,
    /// The `Round` tag, as given, is no game number.
    BadRound(String),
    /// The round is not one of the match's games.
    NotInMatch {
        /// The round.
        round: u32,
        /// The games of the match.
        games: u32,
    },
    /// The round was played by other engines, or in other colours.
    OtherEngines {
        /// The round.
        round: u32,
        /// Red and Black as the game names them.
        played: [String; 2],
        /// Red and Black in this match.
        expected: [String; 2],
    },
    /// The round does not start from the opening this match gives it.
    OtherOpening {
        /// The round.
        round: u32,
        /// The opening's start, as FEN.
        start: String,
        /// The opening's book moves.
        book_moves: usize,
    },
    /// The round was played with another clock.
    OtherClock {
        /// The round.
        round: u32,
        /// The tag: `TimeControl`, `RedTimeControl` or `BlackTimeControl`.
        tag: &'static str,
        /// Its value in the game (`none` when missing).
        found: String,
        /// Its value in this match.
        expected: String,
    },
    /// The round was played on the clock, this match by nodes or depth: the game's `TimeControl`.
    OnTheClock {
        /// The round.
        round: u32,
        /// The game's time control.
        time_control: String,
    },
    /// The round has no finished result: its `Result` tag, if any.
    Unfinished {
        /// The round.
        round: u32,
        /// The `Result` tag.
        result: Option<String>,
    },
    /// The round's move text does not end in its result.
    CutOff(u32),
    /// The round is in the file twice.
    Twice(u32),
}

impl fmt::Display for ScheduleProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScheduleProblem::NoRound => f.write_str("no Round tag"),
            // The tag is shown as the option it was read from.
            ScheduleProblem::BadRound(tag) => {
                write!(f, "Round tag Some({tag:?}) is not a game number")
            }
            ScheduleProblem::NotInMatch { round, games } => {
                write!(f, "round {round} is not in this match of {games} games")
            }
            ScheduleProblem::OtherEngines {
                round,
                played,
                expected,
            } => write!(
                f,
                "round {round} was played by {} (Red) and {} (Black), but this match has {} Red and {} Black there",
                played[0], played[1], expected[0], expected[1]
            ),
            ScheduleProblem::OtherOpening {
                round,
                start,
                book_moves,
            } => write!(
                f,
                "round {round} does not start from this match's opening for it ({start}, \
                 {book_moves} book moves): another --seed or --openings?"
            ),
            ScheduleProblem::OtherClock {
                round,
                tag,
                found,
                expected,
            } => write!(
                f,
                "round {round} was played with {tag} {found}, this match gives {expected}"
            ),
            ScheduleProblem::OnTheClock {
                round,
                time_control,
            } => write!(
                f,
                "round {round} was played on the clock ({time_control}), this match is played \
                 by nodes or depth"
            ),
            ScheduleProblem::Unfinished { round, result } => write!(
                f,
                "round {round} has no finished result (Result {})",
                result.as_deref().unwrap_or("missing")
            ),
            ScheduleProblem::CutOff(round) => write!(
                f,
                "round {round} is cut off: its move text does not end in its result (delete the \
                 game from the file: it is played again)"
            ),
            ScheduleProblem::Twice(round) => write!(f, "round {round} is in the file twice"),
        }
    }
}

impl fmt::Display for ResumeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResumeError::Record(e) if e.game.is_some() => write!(
                f,
                "{e} (a game cut off when the match was stopped can be deleted from the file: \
                 it is played again)"
            ),
            ResumeError::Record(e) => write!(f, "{e}"),
            ResumeError::Schedule {
                file,
                line,
                game,
                problem,
            } => write!(f, "{file}:{line}: game {game}: {problem}"),
        }
    }
}

impl std::error::Error for ResumeError {}

impl From<RecordError> for ResumeError {
    fn from(e: RecordError) -> ResumeError {
        ResumeError::Record(e)
    }
}

/// The games of `bytes`, the PGN file `file` written by an earlier run of the match `config`
/// describes. Every game must belong to that schedule: a round within `config.games` not seen
/// before, the engines in that round's colours, that round's opening, its clocks and a result.
pub fn read_finished(
    bytes: &[u8],
    file: &str,
    config: &MatchConfig,
) -> Result<Vec<FinishedGame>, ResumeError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Vec::new());
    }
    let schedule = Schedule::new(config);
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for game in record::read_games(file, bytes)? {
        let game = game?;
        let error = |problem: ScheduleProblem| ResumeError::Schedule {
            file: file.to_string(),
            line: game.line,
            game: game.index,
            problem: Box::new(problem),
        };
        if let Some(stop) = &game.stop {
            return Err(ResumeError::Record(stop.clone()));
        }
        let finished = check_game(&game, config, &schedule).map_err(error)?;
        if !seen.insert(finished.index) {
            return Err(error(ScheduleProblem::Twice(finished.index + 1)));
        }
        out.push(finished);
    }
    Ok(out)
}

/// One game checked against the schedule.
fn check_game(
    game: &GameRecord,
    config: &MatchConfig,
    schedule: &Schedule,
) -> Result<FinishedGame, ScheduleProblem> {
    let tag = |name: &str| game.tag(name).map(str::trim);
    let round_tag = tag("Round").ok_or(ScheduleProblem::NoRound)?;
    let round: u32 = round_tag
        .parse()
        .map_err(|_| ScheduleProblem::BadRound(round_tag.to_string()))?;
    if round == 0 || round > config.games {
        return Err(ScheduleProblem::NotInMatch {
            round,
            games: config.games,
        });
    }
    let index = round - 1;
    let first_is_red = index.is_multiple_of(2);
    let [red, black] = if first_is_red { [0, 1] } else { [1, 0] };
    let names = [red, black].map(|e| config.engines[e].name.as_str());
    let played = [tag("Red").unwrap_or(""), tag("Black").unwrap_or("")];
    if played != names {
        return Err(ScheduleProblem::OtherEngines {
            round,
            played: played.map(str::to_string),
            expected: names.map(str::to_string),
        });
    }
    let opening = schedule.opening(index);
    if game.start != opening.start || !game.moves.starts_with(&opening.moves) {
        return Err(ScheduleProblem::OtherOpening {
            round,
            start: fen::format(&opening.start),
            book_moves: opening.moves.len(),
        });
    }
    if let Limit::Clock { base, increment } = config.rules.limit {
        let global = ClockSpec { base, increment };
        let clocks = [red, black].map(|e| config.engines[e].clock.unwrap_or(global));
        let mut expected = vec![("TimeControl", global.to_string())];
        if clocks[0] != clocks[1] {
            expected.push(("RedTimeControl", clocks[0].to_string()));
            expected.push(("BlackTimeControl", clocks[1].to_string()));
        }
        for (name, value) in expected {
            let found = tag(name).unwrap_or("none");
            if found != value {
                return Err(ScheduleProblem::OtherClock {
                    round,
                    tag: name,
                    found: found.to_string(),
                    expected: value,
                });
            }
        }
    } else if let Some(tc) = tag("TimeControl") {
        return Err(ScheduleProblem::OnTheClock {
            round,
            time_control: tc.to_string(),
        });
    }
    let red_points = match tag("Result") {
        Some("1-0") => Points::Win,
        Some("0-1") => Points::Loss,
        Some("1/2-1/2") => Points::Draw,
        other => {
            return Err(ScheduleProblem::Unfinished {
                round,
                result: other.map(str::to_string),
            });
        }
    };
    // The result closes the move text: a game without it was cut off while being written.
    if game.result.as_deref().map(str::trim) != tag("Result") {
        return Err(ScheduleProblem::CutOff(round));
    }
    let points = match (red_points, first_is_red) {
        (p, true) | (p @ Points::Draw, false) => p,
        (Points::Win, false) => Points::Loss,
        (Points::Loss, false) => Points::Win,
    };
    Ok(FinishedGame {
        index,
        points,
        ending: tag("Termination").unwrap_or("").to_string(),
    })
}

/// What to write before the first game added to a file that holds `bytes`, so that it starts on
/// a line of its own after a blank line.
pub fn separator(bytes: &[u8]) -> &'static str {
    if bytes.iter().all(u8::is_ascii_whitespace) || bytes.ends_with(b"\n\n") {
        ""
    } else if bytes.ends_with(b"\n") {
        "\n"
    } else {
        "\n\n"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::game::{GameRules, match_rules};
    use crate::arena::openings;
    use std::time::Duration;

    fn config(games: u32) -> MatchConfig {
        MatchConfig {
            engines: ["one=/bin/true", "two=/bin/true"].map(|s| s.parse().expect("spec")),
            games,
            rules: GameRules {
                limit: Limit::Nodes(1),
                margin: Duration::ZERO,
                move_timeout: Duration::from_secs(1),
                referee: match_rules(60, 300),
                resign: None,
                draw: None,
            },
            openings: openings::parse("h2e2\n", "book").expect("opening"),
            concurrency: 1,
            seed: None,
            sprt: None,
            ready_timeout: Duration::from_secs(1),
            log: None,
            finished: Vec::new(),
        }
    }

    fn game(round: u32, red: &str, black: &str, result: &str, moves: &str) -> String {
        format!(
            "[Event \"xq match\"]\n[Round \"{round}\"]\n[Red \"{red}\"]\n[Black \"{black}\"]\n\
             [Result \"{result}\"]\n[Termination \"checkmate\"]\n\n{moves} {result}\n\n"
        )
    }

    #[test]
    fn results_are_read_for_the_first_engine_in_either_colour() {
        let text = [
            game(2, "two", "one", "1-0", "1. H2-E2 {book} H9-G7"),
            game(1, "one", "two", "0-1", "1. H2-E2 {book} H7-E7"),
            game(4, "two", "one", "1/2-1/2", "1. H2-E2 {book}"),
        ]
        .concat();
        let games = read_finished(text.as_bytes(), "m.pgn", &config(4)).expect("resumable");
        let got: Vec<(u32, Points)> = games.iter().map(|g| (g.index, g.points)).collect();
        assert_eq!(
            got,
            [(1, Points::Loss), (0, Points::Loss), (3, Points::Draw)]
        );
        assert_eq!(games[0].ending, "checkmate");
        assert_eq!(read_finished(b"\n \n", "m.pgn", &config(4)), Ok(Vec::new()));
    }

    #[test]
    fn games_of_another_schedule_are_refused_with_where() {
        let refused = |text: String, games: u32, why: &str| {
            let e = read_finished(text.as_bytes(), "m.pgn", &config(games))
                .expect_err("refused")
                .to_string();
            assert!(e.starts_with("m.pgn:"), "{e}");
            assert!(e.contains(why), "{e}");
        };
        let twice = game(1, "one", "two", "1-0", "1. H2-E2").repeat(2);
        for (text, why) in [
            (
                game(3, "one", "two", "1-0", "1. H2-E2"),
                "not in this match of 2 games",
            ),
            (
                game(1, "two", "one", "1-0", "1. H2-E2"),
                "this match has one Red",
            ),
            (
                game(1, "one", "two", "1-0", "1. C3-C4"),
                "another --seed or --openings",
            ),
            (game(1, "one", "two", "*", "1. H2-E2"), "no finished result"),
            (twice, "round 1 is in the file twice"),
        ] {
            refused(text, 2, why);
        }
        let cut = game(1, "one", "two", "1-0", "1. H2-E2 H9-G7");
        refused(cut.replace(" 1-0\n", "\n"), 2, "cut off");
    }

    #[test]
    fn added_games_start_after_a_blank_line() {
        assert_eq!(separator(b""), "");
        assert_eq!(separator(b"1-0\n\n"), "");
        assert_eq!(separator(b"1-0\n"), "\n");
        assert_eq!(separator(b"1-0"), "\n\n");
    }
}
