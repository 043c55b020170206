//! Whether the engine adds a draw offer or a resignation to its move: from the score of its
//! line, the plies since the last capture and whether the opponent offers a draw.

use crate::search::score::{MATE_BOUND, Score};

/// What the engine adds to its move (UCCI `bestmove … draw|resign`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// Nothing: play on.
    Play,
    /// Offer or accept a draw.
    Draw,
    /// Resign.
    Resign,
}

/// Accept a draw offer when the score (centipawns, our view) is at most this.
const ACCEPT_DRAW_AT_MOST: i32 = 0;
/// Plies without a capture after which a game counts as blocked.
const BLOCKED_PLIES: u32 = 60;
/// In a blocked game, accept and offer draws when the score is at most this.
const BLOCKED_DRAW_AT_MOST: i32 = 30;

/// What to add to a move whose line scores `score` (our view), `quiet_plies` after the last
/// capture; see `Engine::offer`.
pub(super) fn offer(score: Option<Score>, quiet_plies: u32, draw_offered: bool) -> Offer {
    let Some(score) = score else {
        return Offer::Play;
    };
    if score.0 <= -MATE_BOUND {
        return Offer::Resign;
    }
    let blocked = quiet_plies >= BLOCKED_PLIES;
    if draw_offered
        && (score.0 <= ACCEPT_DRAW_AT_MOST || blocked && score.0 <= BLOCKED_DRAW_AT_MOST)
    {
        return Offer::Draw;
    }
    if blocked && score.0.abs() <= BLOCKED_DRAW_AT_MOST {
        return Offer::Draw;
    }
    Offer::Play
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offers() {
        assert_eq!(offer(Some(Score::mated_in(4)), 0, false), Offer::Resign);
        assert_eq!(offer(Some(Score(-50)), 0, true), Offer::Draw);
        assert_eq!(offer(Some(Score(120)), 0, true), Offer::Play);
        assert_eq!(offer(Some(Score(10)), 80, false), Offer::Draw);
        assert_eq!(offer(Some(Score(10)), 10, false), Offer::Play);
        assert_eq!(offer(None, 100, true), Offer::Play);
    }
}
