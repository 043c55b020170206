//! The commands that start a search: `position`, sent to UCCI engines from the last capture
//! (no repetition reaches back past it), and `go` with the limit in each protocol's terms and
//! units.

use super::spec::Protocol;
use crate::fen;
use crate::game::Game;
use crate::moves::Move;
use crate::position::Position;
use crate::square::Color;
use std::time::Duration;

/// The clock state sent with `go`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoLimit {
    /// Both clocks and increments, by colour index (Red = 0).
    Clock {
        /// Time left for Red and Black.
        left: [Duration; 2],
        /// Increment per move for Red and Black (they differ with time odds).
        increment: [Duration; 2],
    },
    /// A node budget per move.
    Nodes(u64),
    /// A depth per move.
    Depth(u32),
}

/// The `position` command for `moves` played from `start`: `startpos` or a FEN, then the moves in
/// the protocol's ranks.
pub fn position_command(protocol: Protocol, start: &Position, moves: &[Move]) -> String {
    // UCCI engines are sent the position after the last capture: a repetition cannot reach
    // back past it.
    let (from, base) = match protocol {
        Protocol::Ucci => match Game::replay(start.clone(), moves) {
            Ok(game) => {
                let from = game.last_capture();
                (from, game.position_at(from).clone())
            }
            // Not a legal game: sent whole, for the engine to refuse.
            Err(_) => (0, start.clone()),
        },
        Protocol::Uci | Protocol::Uci1 => (0, start.clone()),
    };
    let mut cmd = if from == 0 && is_start(&base) {
        "position startpos".to_string()
    } else {
        format!("position fen {}", fen::format(&base))
    };
    if from < moves.len() {
        cmd.push_str(" moves");
        for m in &moves[from..] {
            cmd.push(' ');
            cmd.push_str(&m.text(protocol.ranks()));
        }
    }
    cmd
}

/// The `go` command for `limit` when `to_move` is to move; `millis`: a UCCI engine takes its times
/// in milliseconds (`usemillisec`), else in seconds.
pub fn go_command(protocol: Protocol, millis: bool, limit: GoLimit, to_move: Color) -> String {
    match limit {
        GoLimit::Nodes(n) => format!("go nodes {n}"),
        GoLimit::Depth(d) => format!("go depth {d}"),
        GoLimit::Clock { left, increment } => {
            let ms = |d: Duration| d.as_millis().max(1);
            match protocol {
                Protocol::Uci | Protocol::Uci1 => format!(
                    "go wtime {} btime {} winc {} binc {}",
                    ms(left[0]),
                    ms(left[1]),
                    increment[0].as_millis(),
                    increment[1].as_millis()
                ),
                Protocol::Ucci => {
                    let (us, them) = (to_move.index(), to_move.flip().index());
                    // Seconds are rounded down (an increment under a second becomes 0), as
                    // UCCI arbiters do; never round a clock up past what is left.
                    let t = |d: Duration| {
                        if millis {
                            ms(d)
                        } else {
                            u128::from(d.as_secs())
                        }
                    };
                    let inc = |d: Duration| {
                        if millis {
                            d.as_millis()
                        } else {
                            u128::from(d.as_secs())
                        }
                    };
                    format!(
                        "go time {} increment {} opptime {} oppincrement {}",
                        t(left[us]),
                        inc(increment[us]),
                        t(left[them]),
                        inc(increment[them])
                    )
                }
            }
        }
    }
}

/// Whether `pos` is the standard start position (move counters aside).
pub fn is_start(pos: &Position) -> bool {
    pos.key() == Position::startpos().key()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ucci_positions_start_after_the_last_capture() {
        let start = Position::startpos();
        // The cannon takes the pawn on e6 at ply 3.
        let moves: Vec<Move> = ["h2e2", "h9g7", "e2e6", "g6g5"]
            .iter()
            .map(|text| text.parse().unwrap())
            .collect();
        assert_eq!(
            position_command(Protocol::Uci, &start, &moves),
            "position startpos moves h2e2 h9g7 e2e6 g6g5"
        );
        assert_eq!(
            position_command(Protocol::Uci1, &start, &moves[..1]),
            "position startpos moves h3e3"
        );
        let mut after = start.clone();
        for &m in &moves[..3] {
            after.play(m);
        }
        assert_eq!(
            position_command(Protocol::Ucci, &start, &moves),
            format!("position fen {} moves g6g5", fen::format(&after))
        );
        assert_eq!(
            position_command(Protocol::Ucci, &start, &moves[..2]),
            "position startpos moves h2e2 h9g7"
        );
    }

    #[test]
    fn go_sends_the_clocks_in_each_protocols_terms() {
        let secs = Duration::from_secs_f64;
        let limit = GoLimit::Clock {
            left: [secs(10.5), secs(3.2)],
            increment: [secs(1.5), secs(0.5)],
        };
        assert_eq!(
            go_command(Protocol::Uci, false, limit, Color::Black),
            "go wtime 10500 btime 3200 winc 1500 binc 500"
        );
        assert_eq!(
            go_command(Protocol::Ucci, false, limit, Color::Black),
            "go time 3 increment 0 opptime 10 oppincrement 1"
        );
        assert_eq!(
            go_command(Protocol::Ucci, true, limit, Color::Red),
            "go time 10500 increment 1500 opptime 3200 oppincrement 500"
        );
        assert_eq!(
            go_command(Protocol::Ucci, true, GoLimit::Nodes(5000), Color::Red),
            "go nodes 5000"
        );
    }
}
