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
        problem: String,
    },
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
        let error = |problem: String| ResumeError::Schedule {
            file: file.to_string(),
            line: game.line,
            game: game.index,
            problem,
        };
        if let Some(stop) = &game.stop {
            return Err(ResumeError::Record(stop.clone()));
        }
        let finished = check_game(&game, config, &schedule).map_err(error)?;
        if !seen.insert(finished.index) {
            return Err(error(format!(
                "round {} is in the file twice",
                finished.index + 1
            )));
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
) -> Result<FinishedGame, String> {
    let tag = |name: &str| game.tag(name).map(str::trim);
    let round: u32 = tag("Round")
        .ok_or("no Round tag")?
        .parse()
        .map_err(|_| format!("Round tag {:?} is not a game number", tag("Round")))?;
    if round == 0 || round > config.games {
        return Err(format!(
            "round {round} is not in this match of {} games",
            config.games
        ));
    }
    let index = round - 1;
    let first_is_red = index.is_multiple_of(2);
    let [red, black] = if first_is_red { [0, 1] } else { [1, 0] };
    let names = [red, black].map(|e| config.engines[e].name.as_str());
    let played = [tag("Red").unwrap_or(""), tag("Black").unwrap_or("")];
    if played != names {
        return Err(format!(
            "round {round} was played by {} (Red) and {} (Black), but this match has {} Red and {} Black there",
            played[0], played[1], names[0], names[1]
        ));
    }
    let opening = schedule.opening(index);
    if game.start != opening.start || !game.moves.starts_with(&opening.moves) {
        return Err(format!(
            "round {round} does not start from this match's opening for it ({}, {} book moves): \
             another --seed or --openings?",
            fen::format(&opening.start),
            opening.moves.len()
        ));
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
                return Err(format!(
                    "round {round} was played with {name} {found}, this match gives {value}"
                ));
            }
        }
    } else if let Some(tc) = tag("TimeControl") {
        return Err(format!(
            "round {round} was played on the clock ({tc}), this match is played by nodes or depth"
        ));
    }
    let red_points = match tag("Result") {
        Some("1-0") => Points::Win,
        Some("0-1") => Points::Loss,
        Some("1/2-1/2") => Points::Draw,
        other => {
            return Err(format!(
                "round {round} has no finished result (Result {})",
                other.unwrap_or("missing")
            ));
        }
    };
    // The result closes the move text: a game without it was cut off while being written.
    if game.result.as_deref().map(str::trim) != tag("Result") {
        return Err(format!(
            "round {round} is cut off: its move text does not end in its result (delete the game \
             from the file: it is played again)"
        ));
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
