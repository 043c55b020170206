//! The efficiently updatable neural network evaluation: net file format, input features,
//! accumulators and the integer forward pass. It reads positions and moves and knows nothing of
//! the search; `nnue/FORMAT.md` specifies the net file.

pub mod accumulator;
pub mod features;
pub mod format;
pub mod network;
pub mod simd;

pub use accumulator::{Accumulator, AccumulatorStack, MoveChange};
pub use format::{NetError, NetWeights};
pub use network::Network;
