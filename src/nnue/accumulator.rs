//! Accumulators: the first layer's output for Red's and Black's perspective, rebuilt from a
//! position or updated from a move's (piece, from, to, captured), and the stack of them that
//! follows the search ply by ply.

use super::features::feature;
use super::network::Network;
use super::simd::Lanes;
use crate::moves::Move;
use crate::piece::Piece;
use crate::position::Position;
use crate::square::{Color, Square};

/// The hidden values of both perspectives, indexed by colour (Red, Black), not by side to move.
#[derive(Clone, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    values: [Lanes; 2],
}

impl Accumulator {
    /// Built from scratch: the bias plus the row of every active feature, for both
    /// perspectives. This is the oracle the incremental updates are tested against.
    pub fn refresh(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator {
            values: [*net.bias(); 2],
        };
        for sq in pos.occupied() {
            let Some(piece) = pos.piece_at(sq) else {
                continue;
            };
            for perspective in Color::ALL {
                let row = net.row(feature(perspective, piece, sq));
                let lanes = &mut acc.values[perspective.index()];
                for (v, w) in lanes.iter_mut().zip(row) {
                    *v = v.wrapping_add(*w);
                }
            }
        }
        acc
    }

    /// The hidden values of `perspective`.
    #[inline]
    pub fn values(&self, perspective: Color) -> &Lanes {
        &self.values[perspective.index()]
    }

    /// Writes into `self` the accumulator after `change`, given `before`, the accumulator of
    /// the position the move is played from: one fused add and subtract per perspective.
    #[inline]
    pub fn update_from(&mut self, net: &Network, before: &Accumulator, change: &MoveChange) {
        let kernel = net.kernel();
        for perspective in Color::ALL {
            let i = perspective.index();
            let add = net.row(feature(perspective, change.piece, change.to));
            let sub = net.row(feature(perspective, change.piece, change.from));
            match change.captured {
                None => kernel.add_sub(&mut self.values[i], &before.values[i], add, sub),
                Some(captured) => {
                    let sub2 = net.row(feature(perspective, captured, change.to));
                    kernel.add_sub_sub(&mut self.values[i], &before.values[i], add, sub, sub2)
                }
            }
        }
    }
}

impl std::fmt::Debug for Accumulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Accumulator")
            .field("red", &&self.values[0][..8])
            .field("black", &&self.values[1][..8])
            .finish_non_exhaustive()
    }
}

/// What a move changes on the board, as far as the net is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveChange {
    /// The piece that moves.
    pub piece: Piece,
    /// Where it starts.
    pub from: Square,
    /// Where it lands.
    pub to: Square,
    /// What stood on `to`, if anything.
    pub captured: Option<Piece>,
}

impl MoveChange {
    /// The change `m` makes when played in `pos`.
    ///
    /// # Panics
    /// If no piece stands on `m.from()` (the move cannot come from `pos`).
    #[inline]
    pub fn new(pos: &Position, m: Move) -> MoveChange {
        MoveChange {
            piece: pos
                .piece_at(m.from())
                .expect("a move starts from an occupied square"),
            from: m.from(),
            to: m.to(),
            captured: pos.piece_at(m.to()),
        }
    }
}

/// One ply of the stack: how it was reached and, once computed, its accumulator.
#[derive(Clone, Debug)]
struct Entry {
    acc: Accumulator,
    /// The move that led here; `None` for the root and after a null move (a plain copy).
    change: Option<MoveChange>,
    /// Whether `acc` is up to date. The root always is; other entries are computed when
    /// first evaluated, so nodes that are never evaluated cost no update.
    computed: bool,
}

/// Accumulators by ply, following the search's copy-make: push on every move and null move, pop
/// on the way back. Updates are lazy: a push only records the move, and an evaluation brings
/// the accumulators up to date from the nearest computed ancestor.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    entries: Vec<Entry>,
    top: usize,
}

impl AccumulatorStack {
    /// A stack holding the root `pos`.
    pub fn new(net: &Network, pos: &Position) -> AccumulatorStack {
        let root = Entry {
            acc: Accumulator::refresh(net, pos),
            change: None,
            computed: true,
        };
        let mut entries = Vec::with_capacity(128);
        entries.push(root);
        AccumulatorStack { entries, top: 0 }
    }

    /// Empties the stack down to a new root, `pos`.
    pub fn reset(&mut self, net: &Network, pos: &Position) {
        self.top = 0;
        self.entries[0].acc = Accumulator::refresh(net, pos);
    }

    /// Plies above the root.
    pub fn height(&self) -> usize {
        self.top
    }

    fn push(&mut self, change: Option<MoveChange>) {
        self.top += 1;
        match self.entries.get_mut(self.top) {
            Some(e) => {
                e.change = change;
                e.computed = false;
            }
            None => {
                let acc = self.entries[0].acc.clone();
                self.entries.push(Entry {
                    acc,
                    change,
                    computed: false,
                });
            }
        }
    }

    /// Follows `m`, about to be played in `pos`.
    #[inline]
    pub fn push_move(&mut self, pos: &Position, m: Move) {
        self.push(Some(MoveChange::new(pos, m)));
    }

    /// Follows a null move: the board, and so the accumulator, is unchanged.
    #[inline]
    pub fn push_null(&mut self) {
        self.push(None);
    }

    /// Goes back one ply.
    ///
    /// # Panics
    /// At the root.
    #[inline]
    pub fn pop(&mut self) {
        assert!(self.top > 0, "accumulator stack popped at the root");
        self.top -= 1;
    }

    /// The accumulator of the current ply, brought up to date.
    pub fn current(&mut self, net: &Network) -> &Accumulator {
        let mut base = self.top;
        while !self.entries[base].computed {
            base -= 1;
        }
        for i in base + 1..=self.top {
            let (done, rest) = self.entries.split_at_mut(i);
            let before = &done[i - 1].acc;
            let entry = &mut rest[0];
            match &entry.change {
                Some(change) => entry.acc.update_from(net, before, change),
                None => entry.acc.clone_from(before),
            }
            entry.computed = true;
        }
        &self.entries[self.top].acc
    }

    /// The evaluation of the current ply for `side` (its side to move), with `pieces` pieces on
    /// the board, in centipawns.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, side: Color, pieces: u32) -> i32 {
        let acc = self.current(net);
        net.evaluate(acc, side, pieces)
    }
}
