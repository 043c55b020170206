//! Perft: counting the leaves of the legal move tree, the exactness and speed check of move
//! generation.

use crate::movegen::{count_legal, legal_moves};
use crate::moves::Move;
use crate::position::Position;

/// The number of leaf nodes `depth` plies below `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal(pos),
        _ => legal_moves(pos)
            .iter()
            .map(|&m| {
                let mut child = pos.clone();
                child.play(m);
                perft(&child, depth - 1)
            })
            .sum(),
    }
}

/// Perft split by root move, in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    legal_moves(pos)
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play(m);
            (m, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}
