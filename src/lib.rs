//! `xq`: a Xiangqi engine and WXF repetition referee. This crate root lists the modules, from the
//! board types up.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod arena;
pub mod attacks;
pub mod bench;
pub mod bitboard;
pub mod book;
pub mod clip;
pub mod engine;
pub mod eval;
pub mod fen;
pub mod game;
pub mod judge;
pub mod movegen;
pub mod moves;
pub mod nnue;
pub mod options;
pub mod perft;
pub mod piece;
pub mod position;
pub mod protocol;
pub mod record;
pub mod referee;
pub mod search;
#[cfg(feature = "serve")]
pub mod serve;
pub mod square;
pub mod zobrist;
