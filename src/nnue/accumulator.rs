//! Accumulators: the first layer's output for Red's and Black's perspective, rebuilt from a
//! position or updated from a move's (piece, from, to, captured), and the stack of them that
//! follows the search ply by ply. With a king-bucketed net a perspective whose king moves into
//! another bucket (or across the palace's middle file) is rebuilt from the board instead.

use super::features::{Orientation, feature};
use super::network::Network;
use super::simd::Lanes;
use crate::moves::Move;
use crate::piece::{Piece, PieceKind};
use crate::position::Position;
use crate::square::{Color, Square};
use arrayvec::ArrayVec;

/// The pieces on a board with their squares (at most 32).
pub type Board = ArrayVec<(Piece, Square), 32>;

/// The hidden values of both perspectives, indexed by colour (Red, Black), not by side to move,
/// with the part of the first layer each was read from.
#[derive(Clone, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    values: [Lanes; 2],
    orientation: [Orientation; 2],
}

impl Accumulator {
    /// Built from scratch: the bias plus the row of every active feature, for both
    /// perspectives. This is the oracle the incremental updates are tested against.
    pub fn refresh(net: &Network, pos: &Position) -> Accumulator {
        let board = board_of(pos);
        let mut acc = Accumulator {
            values: [*net.bias(); 2],
            orientation: [Orientation::PLAIN; 2],
        };
        for perspective in Color::ALL {
            let orientation = net.orientation(perspective, pos.king(perspective));
            acc.rebuild(net, &board, perspective, orientation);
        }
        acc
    }

    /// Rebuilds `perspective` from the pieces of `board`, reading the first layer's part
    /// `orientation`.
    fn rebuild(
        &mut self,
        net: &Network,
        board: &[(Piece, Square)],
        perspective: Color,
        orientation: Orientation,
    ) {
        let i = perspective.index();
        self.orientation[i] = orientation;
        self.values[i] = *net.bias();
        let lanes = &mut self.values[i];
        for &(piece, sq) in board {
            let row = net.row(orientation.row(feature(perspective, piece, sq)));
            for (v, w) in lanes.iter_mut().zip(row) {
                *v = v.wrapping_add(*w);
            }
        }
    }

    /// The hidden values of `perspective`.
    #[inline]
    pub fn values(&self, perspective: Color) -> &Lanes {
        &self.values[perspective.index()]
    }

    /// Writes into `self` the accumulator after `change`, given `before`, the accumulator of
    /// the position the move is played from: one fused add and subtract per perspective, except
    /// for a perspective whose own king moves to another part of a king-bucketed first layer,
    /// which is rebuilt from `after`, the pieces once the move is played (read only then, so it
    /// may be empty for any other move).
    #[inline]
    pub fn update_from(
        &mut self,
        net: &Network,
        before: &Accumulator,
        change: &MoveChange,
        after: &[(Piece, Square)],
    ) {
        let kernel = net.kernel();
        for perspective in Color::ALL {
            let i = perspective.index();
            let orientation = before.orientation[i];
            if change.piece.kind == PieceKind::King && change.piece.color == perspective {
                let moved = net.orientation(perspective, change.to);
                if moved != orientation {
                    debug_assert!(!after.is_empty(), "a king move carries the board after it");
                    self.rebuild(net, after, perspective, moved);
                    continue;
                }
            }
            self.orientation[i] = orientation;
            let add = net.row(orientation.row(feature(perspective, change.piece, change.to)));
            let sub = net.row(orientation.row(feature(perspective, change.piece, change.from)));
            match change.captured {
                None => kernel.add_sub(&mut self.values[i], &before.values[i], add, sub),
                Some(captured) => {
                    let sub2 = net.row(orientation.row(feature(perspective, captured, change.to)));
                    kernel.add_sub_sub(&mut self.values[i], &before.values[i], add, sub, sub2)
                }
            }
        }
    }
}

/// The pieces of `pos` with their squares.
fn board_of(pos: &Position) -> Board {
    pos.occupied()
        .into_iter()
        .filter_map(|sq| pos.piece_at(sq).map(|p| (p, sq)))
        .collect()
}

/// The pieces of `pos` once `change` is played: the mover on its new square, a captured piece
/// gone.
fn board_after(pos: &Position, change: &MoveChange) -> Board {
    pos.occupied()
        .into_iter()
        .filter(|&sq| sq != change.to)
        .filter_map(|sq| {
            let p = pos.piece_at(sq)?;
            Some(if sq == change.from {
                (p, change.to)
            } else {
                (p, sq)
            })
        })
        .collect()
}

impl std::fmt::Debug for Accumulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Accumulator")
            .field("red", &&self.values[0][..8])
            .field("black", &&self.values[1][..8])
            .field("orientation", &self.orientation)
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
    /// After a king move, the board it leads to, from which a king-bucketed net rebuilds the
    /// king's perspective when the king changes bucket; empty otherwise.
    board: Board,
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
    /// Whether the net has king buckets, so that a king move keeps the board it leads to.
    king_buckets: bool,
}

impl AccumulatorStack {
    /// A stack holding the root `pos`.
    pub fn new(net: &Network, pos: &Position) -> AccumulatorStack {
        let root = Entry {
            acc: Accumulator::refresh(net, pos),
            change: None,
            board: Board::new(),
            computed: true,
        };
        let mut entries = Vec::with_capacity(128);
        entries.push(root);
        AccumulatorStack {
            entries,
            top: 0,
            king_buckets: net.has_king_buckets(),
        }
    }

    /// Empties the stack down to a new root, `pos`.
    pub fn reset(&mut self, net: &Network, pos: &Position) {
        self.top = 0;
        self.king_buckets = net.has_king_buckets();
        self.entries[0].acc = Accumulator::refresh(net, pos);
    }

    /// Plies above the root.
    pub fn height(&self) -> usize {
        self.top
    }

    /// Pushes an entry reached by `change` and returns it.
    fn push(&mut self, change: Option<MoveChange>) -> &mut Entry {
        self.top += 1;
        if self.entries.len() <= self.top {
            let acc = self.entries[0].acc.clone();
            self.entries.push(Entry {
                acc,
                change: None,
                board: Board::new(),
                computed: false,
            });
        }
        let e = &mut self.entries[self.top];
        e.change = change;
        e.computed = false;
        e.board.clear();
        e
    }

    /// Follows `m`, about to be played in `pos`.
    #[inline]
    pub fn push_move(&mut self, pos: &Position, m: Move) {
        let change = MoveChange::new(pos, m);
        let keep_board = self.king_buckets && change.piece.kind == PieceKind::King;
        let e = self.push(Some(change));
        if keep_board {
            e.board = board_after(pos, &change);
        }
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
                Some(change) => entry.acc.update_from(net, before, change, &entry.board),
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
