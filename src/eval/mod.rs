//! The evaluation seam: search asks an `Evaluator` for a score and never knows which evaluation
//! stands behind it.

pub mod hce;

use crate::position::Position;

/// Evaluates positions for the search.
#[derive(Clone, Debug, Default)]
pub enum Evaluator {
    /// The handcrafted evaluation.
    #[default]
    Handcrafted,
}

impl Evaluator {
    /// The score of `pos` for the side to move, in centipawns.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        match self {
            Evaluator::Handcrafted => hce::evaluate(pos),
        }
    }
}
