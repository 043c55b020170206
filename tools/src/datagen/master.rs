//! `datagen --master`: the positions of recorded games (the master collection), each scored by our
//! own search and labelled with the game's recorded result, so a net sees the positions people
//! play and not only those self-play reaches.

use super::Player;
use crate::data::{self, DRAW, LOSS, WIN};
use std::path::PathBuf;
use xq::moves::Move;
use xq::position::Position;
use xq::record::{self, RecordedResult};
use xq::referee::{Adjudicator, Rules};

/// A recorded game with a result: where it starts, its moves, who won.
#[derive(Clone, Debug)]
pub struct MasterGame {
    pub start: Position,
    pub moves: Vec<Move>,
    pub result: RecordedResult,
}

/// What reading the game files gave: the games with a result and what was left out, with why.
#[derive(Debug, Default)]
pub struct Collection {
    pub games: Vec<MasterGame>,
    pub without_result: usize,
    /// Files or games that could not be read, each with its error text.
    pub unreadable: Vec<String>,
}

/// Reads every game of the given files and directories (PGN in any notation, DhtmlXQ, XQF). A
/// game with no recorded result is left out, since its positions would have no label.
pub fn load(inputs: &[PathBuf]) -> Collection {
    let mut out = Collection::default();
    for (path, error) in record::files::expand(inputs) {
        let name = path.display().to_string();
        match error.map_or_else(|| record::files::read_game_file(&path), Err) {
            Ok(bytes) => add_file(&name, &bytes, &mut out),
            Err(e) => out.unreadable.push(format!("{name}: {e}")),
        }
    }
    out
}

fn add_file(name: &str, bytes: &[u8], out: &mut Collection) {
    let games = match record::read_games(name, bytes) {
        Ok(games) => games,
        Err(e) => {
            out.unreadable.push(e.to_string());
            return;
        }
    };
    for game in games {
        match game {
            Ok(g) => match g.recorded_result() {
                Some(result) => out.games.push(MasterGame {
                    start: g.start,
                    moves: g.moves,
                    result,
                }),
                None => out.without_result += 1,
            },
            Err(e) => out.unreadable.push(e.to_string()),
        }
    }
}

/// Scores the positions of one game from ply `skip` on with `nodes` nodes each, keeping those
/// that pass the self-play filter (`super::keep`). The replay stops where the judge ends the game
/// or a recorded move is illegal.
pub fn score_game(
    game: &MasterGame,
    player: &mut Player,
    nodes: u64,
    skip: usize,
) -> Vec<[u8; 32]> {
    player.new_game();
    let mut replay = Adjudicator::new(game.start.clone(), Rules::first_decision(3));
    let mut records = Vec::new();
    for (ply, &recorded) in game.moves.iter().enumerate() {
        if replay.decision().is_some() {
            break;
        }
        let pos = replay.history().position();
        if ply >= skip
            && !pos.in_check()
            && let Some((m, score)) = player.think(&replay, nodes)
            && super::keep(pos, m, score)
        {
            let result = match game.result {
                RecordedResult::Draw => DRAW,
                RecordedResult::Win(c) if c == pos.side_to_move() => WIN,
                RecordedResult::Win(_) => LOSS,
            };
            let plies = replay.history().plies();
            records.push(data::encode(pos, score as i16, result, plies));
        }
        if replay.play(recorded).is_err() {
            break;
        }
    }
    records
}

#[cfg(test)]
mod tests {
    use super::*;
    use xq::eval::EvalChoice;

    const PGN: &str = r#"[Event "t"]
[Result "0-1"]
1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. b0c2 *

[Event "u"]
[Result "*"]
1. h2e2 h9g7 *
"#;

    #[test]
    fn games_are_labelled_by_their_recorded_result() {
        let mut c = Collection::default();
        add_file("t.pgn", PGN.as_bytes(), &mut c);
        assert_eq!((c.games.len(), c.without_result), (1, 1));
        let first = &c.games[0];
        assert_eq!(first.moves.len(), 7);
        assert_eq!(first.result, RecordedResult::Win(xq::square::Color::Black));

        let mut player = Player::new(EvalChoice::Handcrafted);
        let records = score_game(first, &mut player, 200, 2);
        assert!(!records.is_empty() && records.len() <= 5);
        // Black won: positions with Black to move are wins, those with Red to move losses.
        let results: Vec<u8> = records
            .iter()
            .map(|b| data::decode(b).expect("valid record").result)
            .collect();
        assert!(results.iter().all(|&r| r == WIN || r == LOSS));

        let drawn = MasterGame {
            result: RecordedResult::Draw,
            ..first.clone()
        };
        let records = score_game(&drawn, &mut player, 200, 0);
        assert!(!records.is_empty() && records.len() <= 7);
        let results: Vec<u8> = records
            .iter()
            .map(|b| data::decode(b).expect("valid record").result)
            .collect();
        assert!(results.iter().all(|&r| r == DRAW));
    }
}
