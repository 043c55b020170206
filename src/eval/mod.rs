//! The evaluation seam: search asks an `Evaluator` for a score and never knows which evaluation
//! stands behind it. The handcrafted evaluation reads the position alone; the net follows the
//! search move by move through the push and pop hooks, which cost nothing for the handcrafted one.

pub mod endgame;
pub mod hce;
mod hce_seed;
mod hce_weights;

use crate::moves::Move;
use crate::nnue::{Accumulator, AccumulatorStack, Network};
use crate::position::Position;
use std::sync::Arc;

/// Which evaluation a search uses (part of the search settings).
#[derive(Clone, Debug, Default)]
pub enum EvalChoice {
    /// The handcrafted evaluation.
    #[default]
    Handcrafted,
    /// The neural network evaluation with this net.
    Nnue(Arc<Network>),
}

impl EvalChoice {
    /// The evaluation of a single position for the side to move, in centipawns (slow for the
    /// net, which builds its accumulators from scratch).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let raw = match self {
            EvalChoice::Handcrafted => hce::evaluate(pos),
            EvalChoice::Nnue(net) => net.evaluate_position(pos),
        };
        endgame::apply(pos, raw)
    }
}

/// The net with the accumulators that follow one search.
#[derive(Clone, Debug)]
pub struct NnueState {
    net: Arc<Network>,
    stack: AccumulatorStack,
}

/// Evaluates positions for the search.
#[derive(Clone, Debug, Default)]
pub enum Evaluator {
    /// The handcrafted evaluation.
    #[default]
    Handcrafted,
    /// The neural network evaluation with its accumulator stack.
    Nnue(Box<NnueState>),
}

impl Evaluator {
    /// An evaluator of kind `choice` whose root is `root`.
    pub fn new(choice: &EvalChoice, root: &Position) -> Evaluator {
        match choice {
            EvalChoice::Handcrafted => Evaluator::Handcrafted,
            EvalChoice::Nnue(net) => Evaluator::Nnue(Box::new(NnueState {
                stack: AccumulatorStack::new(net, root),
                net: net.clone(),
            })),
        }
    }

    /// The score of `pos` for the side to move, in centipawns. For the net, `pos` must be the
    /// position the pushes and pops since the root have led to.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        let raw = match self {
            Evaluator::Handcrafted => hce::evaluate(pos),
            Evaluator::Nnue(state) => {
                let acc = state.stack.current(&state.net);
                debug_assert!(
                    *acc == Accumulator::refresh(&state.net, pos),
                    "accumulators out of step with the position"
                );
                state
                    .net
                    .evaluate(acc, pos.side_to_move(), pos.occupied().count())
            }
        };
        endgame::apply(pos, raw)
    }

    /// Starts again from a new root position.
    pub fn reset(&mut self, root: &Position) {
        if let Evaluator::Nnue(state) = self {
            state.stack.reset(&state.net, root);
        }
    }

    /// Hook: `m` is about to be played in `pos`.
    #[inline]
    pub fn push_move(&mut self, pos: &Position, m: Move) {
        if let Evaluator::Nnue(state) = self {
            state.stack.push_move(pos, m);
        }
    }

    /// Hook: a null move is about to be played.
    #[inline]
    pub fn push_null(&mut self) {
        if let Evaluator::Nnue(state) = self {
            state.stack.push_null();
        }
    }

    /// Hook: the last move or null move was taken back.
    #[inline]
    pub fn pop(&mut self) {
        if let Evaluator::Nnue(state) = self {
            state.stack.pop();
        }
    }
}
