//! Writes finished match games as XQ PGN with ICCS movetext (`[Format "ICCS"]`, `H2-E2`): the
//! seven-tag roster first and in its order (`Event`, `Site`, `Date`, `Round`, `Red` for White,
//! `Black`, `Result`), then `Game`, `Format`, a `FEN`
//! tag when the game does not start from the standard position, and the reason for the result in
//! the `Termination` tag and a closing comment. Each engine move carries a comment with the
//! engine's score, depth and time (`{+0.25/12 0.534s}`); the last book move carries `{book}`.

use super::commands::is_start;
use super::game::{MoveNote, PlayedGame};
use super::spec::ClockSpec;
use super::wire::score_with_depth;
use crate::fen;
use crate::moves::Move;
use crate::square::Color;
use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

/// Tags that do not come from the game itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchTags {
    /// The `Event` tag.
    pub event: String,
    /// The `Date` tag (`yyyy.mm.dd`).
    pub date: String,
    /// The `TimeControl` tag, if the match used a clock (`base+increment` in seconds).
    pub time_control: Option<String>,
}

/// Today's date (UTC) as PGN writes it.
pub fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Converts days since 1970-01-01 to (year, month, day) in the proleptic Gregorian calendar.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// ICCS text of a move as XQ PGN writes it: `H2-E2`.
pub fn iccs(m: Move) -> String {
    format!("{}-{}", m.from(), m.to()).to_uppercase()
}

fn quote(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A move's comment as match tools write it: the engine's score from its own side divided by 100
/// (pawns for a UCI engine, its own units for a UCCI one; `+M5`, `-M3` for mates) with its depth,
/// then the time it took: `{+0.25/12 0.534s}`.
fn comment(note: &MoveNote) -> String {
    let mut text = String::from("{");
    if let Some(score) = note.score {
        text.push_str(&score_with_depth(score, note.depth));
        text.push(' ');
    }
    let _ = write!(text, "{:.3}s}}", note.time.as_secs_f64());
    text
}

/// One game as PGN text, ending with a blank line.
pub fn game_text(game: &PlayedGame, round: u32, tags: &MatchTags) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{name} \"{}\"]", quote(value));
    };
    tag("Event", &tags.event);
    tag("Site", "?");
    tag("Date", &tags.date);
    tag("Round", &round.to_string());
    tag("Red", &game.names[0]);
    tag("Black", &game.names[1]);
    tag("Result", game.outcome.pgn());
    tag("Game", "Chinese Chess");
    tag("Format", "ICCS");
    if !is_start(&game.start) {
        tag("FEN", &fen::format(&game.start));
    }
    if let Some(tc) = &tags.time_control {
        tag("TimeControl", tc);
    }
    // With time odds, each side's own clock.
    if let Some([red, black]) = game.clocks.filter(|[red, black]| red != black) {
        let words = |(base, increment)| ClockSpec { base, increment }.to_string();
        tag("RedTimeControl", &words(red));
        tag("BlackTimeControl", &words(black));
    }
    tag("PlyCount", &game.moves.len().to_string());
    tag("Termination", game.end.name());
    out.push('\n');

    let mut tokens = Vec::new();
    let mut number = game.start.fullmoves().max(1);
    let mut side = game.start.side_to_move();
    for (i, &m) in game.moves.iter().enumerate() {
        match side {
            Color::Red => tokens.push(format!("{number}.")),
            Color::Black if i == 0 => tokens.push(format!("{number}...")),
            Color::Black => {}
        }
        tokens.push(iccs(m));
        if let Some(note) = game.notes.get(i).copied().flatten() {
            tokens.push(comment(&note));
        }
        if side == Color::Black {
            number += 1;
        }
        side = side.flip();
        if i + 1 == game.book_plies {
            tokens.push("{book}".to_string());
        }
    }
    tokens.push(format!("{{{}}}", game.detail.replace(['{', '}'], "")));
    tokens.push(game.outcome.pgn().to_string());
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::game::{EndKind, Outcome};
    use crate::arena::wire::EngineScore;
    use crate::position::Position;
    use std::time::Duration;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(today().len(), 10);
    }

    #[test]
    fn writes_tags_and_movetext() {
        let moves: Vec<Move> = ["h2e2", "h9g7", "h0g2"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let game = PlayedGame {
            names: ["a".into(), "b \"q\"".into()],
            start: Position::startpos(),
            moves,
            book_plies: 2,
            outcome: Outcome::Win(Color::Red),
            end: EndKind::TimeForfeit,
            detail: "Black (b) lost on time {really}".into(),
            notes: vec![
                None,
                None,
                Some(MoveNote {
                    score: Some(EngineScore::Cp(25)),
                    depth: Some(12),
                    time: Duration::from_millis(534),
                }),
            ],
            clocks: None,
        };
        let tags = MatchTags {
            event: "t".into(),
            date: "2024.01.01".into(),
            time_control: Some("5+0.05".into()),
        };
        let text = game_text(&game, 7, &tags);
        assert!(
            text.starts_with(
                "[Event \"t\"]\n[Site \"?\"]\n[Date \"2024.01.01\"]\n[Round \"7\"]\n[Red \"a\"]\n\
                 [Black \"b \\\"q\\\"\"]\n[Result \"1-0\"]\n[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n"
            ),
            "{text}"
        );
        assert!(!text.contains("[FEN"));
        assert!(text.contains("[Termination \"time forfeit\"]"));
        assert!(
            text.ends_with(
                "1. H2-E2 H9-G7 {book} 2. H0-G2 {+0.25/12 0.534s}\n{Black (b) lost on time really} 1-0\n\n"
            ),
            "{text}"
        );

        let mut black = game.clone();
        black.start = fen::parse("4k4/9/9/9/9/9/9/9/4A4/3AK4 b - - 0 12").unwrap();
        black.moves = vec!["e9d9".parse().unwrap(), "e0f0".parse().unwrap()];
        black.book_plies = 0;
        black.notes = vec![
            Some(MoveNote {
                score: Some(EngineScore::Mate(-3)),
                depth: None,
                time: Duration::from_millis(20),
            }),
            Some(MoveNote {
                score: None,
                depth: Some(4),
                time: Duration::from_micros(1_500_250),
            }),
        ];
        let text = game_text(&black, 1, &tags);
        assert!(
            text.contains("[FEN \"4k4/9/9/9/9/9/9/9/4A4/3AK4 b - - 0 12\"]"),
            "{text}"
        );
        assert!(
            text.contains("\n12... E9-D9 {-M3 0.020s} 13. E0-F0 {1.500s} {"),
            "{text}"
        );
    }
}
