//! A game as a plain record: where it starts and the moves played, each checked for legality,
//! with the position after every move. The arena, the book, the engine's game state and the
//! Python module hold one; the judge builds its own history (with the statuses it needs) from it.

use crate::moves::{IllegalMove, Move};
use crate::position::Position;

/// The start position and the legal moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// `positions[ply]` is the position after `ply` moves; `positions[0]` is the start.
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Game {
    /// A game at `start` with no moves yet.
    pub fn new(start: Position) -> Game {
        Game {
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The game of `moves` played from `start`, each checked; the first illegal one is the error.
    pub fn replay(start: Position, moves: &[Move]) -> Result<Game, IllegalMove> {
        let mut game = Game::new(start);
        for &m in moves {
            game.push(m)?;
        }
        Ok(game)
    }

    /// Where the game starts.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game has a start position")
    }

    /// The position after `ply` moves (0 = the start).
    pub fn position_at(&self, ply: usize) -> &Position {
        &self.positions[ply]
    }

    /// The moves played, the first move first.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// How many moves have been played.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// Plays a move after checking that it is legal.
    pub fn push(&mut self, m: Move) -> Result<(), IllegalMove> {
        let pos = self.position();
        pos.check_legal(m, self.plies() + 1)?;
        let mut next = pos.clone();
        next.play(m);
        self.positions.push(next);
        self.moves.push(m);
        Ok(())
    }

    /// Takes back the last move; returns it.
    pub fn pop(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        Some(m)
    }

    /// The number of moves up to and including the last capture (0 when nothing was captured):
    /// the ply of the last position no repetition can reach back past through a capture.
    pub fn last_capture(&self) -> usize {
        (0..self.moves.len())
            .rev()
            .find(|&i| self.positions[i].captured(self.moves[i]).is_some())
            .map_or(0, |i| i + 1)
    }

    /// How many plies at the end of the game have captured nothing.
    pub fn plies_without_capture(&self) -> usize {
        self.plies() - self.last_capture()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        s.parse().expect("a move")
    }

    #[test]
    fn replay_checks_every_move_and_counts_captures() {
        let moves = [mv("h2e2"), mv("h9g7"), mv("e2e6"), mv("g6g5")];
        let game = Game::replay(Position::startpos(), &moves).expect("legal moves");
        assert_eq!(game.plies(), 4);
        assert_eq!(game.last_capture(), 3, "the cannon takes the pawn at ply 3");
        assert_eq!(game.plies_without_capture(), 1);
        assert_eq!(game.position_at(0), &Position::startpos());
        let err = Game::replay(Position::startpos(), &[mv("h2e2"), mv("e2e3")])
            .expect_err("black is to move");
        assert_eq!(err.ply, 2);
    }

    #[test]
    fn pop_takes_back_the_last_move() {
        let mut game = Game::new(Position::startpos());
        game.push(mv("b2e2")).expect("legal");
        assert_eq!(game.pop(), Some(mv("b2e2")));
        assert_eq!(game.pop(), None);
        assert_eq!(game.position(), &Position::startpos());
    }
}
