//! `History`: the positions of a game or search line, one `Record` per ply with its WXF status
//! (idle, chase, check, cancel) and the pieces it chased, under stable piece ids.

use super::Rules;
use super::Verdict;
use super::chase::{chase_threats, is_chase_capture};
use crate::moves::{IllegalMove, Move};
use crate::piece::PieceKind;
use crate::position::Position;
use crate::square::Color as Side;
use crate::square::{Color, Square};
use bitflags::bitflags;
use std::cell::{Cell, OnceCell};

bitflags! {
    /// What a move did, for the repetition rules. Statuses of one side's moves in a cycle are
    /// combined with bitwise or.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct Status: u8 {
        /// Neither check nor chase.
        const IDLE = 1;
        /// Threatened an unprotected piece and the reply answered the threat.
        const CHASE = 2;
        /// Gave check.
        const CHECK = 4;
        /// A capture or a forward pawn move: no repetition can span it.
        const CANCEL = 8;
    }
}

/// A piece's identity for the whole history: its colour and an index 0..16 given from the start
/// position, kept as the piece moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PieceId(u8);

impl PieceId {
    /// The piece's colour.
    pub fn color(self) -> Color {
        if self.0 < 16 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// Index 0..16 within its colour (the bit in a chased set).
    pub fn index(self) -> u8 {
        self.0 & 15
    }
}

const NO_PIECE: u8 = u8::MAX;

/// Where each piece id stands after a ply.
#[derive(Clone, PartialEq, Eq)]
struct IdBoard {
    at: [u8; 90],
    square: [u8; 32],
}

impl IdBoard {
    fn new(pos: &Position) -> IdBoard {
        let mut ids = IdBoard {
            at: [NO_PIECE; 90],
            square: [NO_PIECE; 32],
        };
        let mut next = [0u8, 16u8];
        for sq in Square::all() {
            if let Some(p) = pos.piece_at(sq) {
                let id = next[p.color.index()];
                next[p.color.index()] += 1;
                ids.at[sq.index()] = id;
                ids.square[id as usize] = sq.index() as u8;
            }
        }
        ids
    }

    fn id_at(&self, sq: Square) -> Option<PieceId> {
        let id = self.at[sq.index()];
        (id != NO_PIECE).then_some(PieceId(id))
    }

    fn square_of(&self, id: PieceId) -> Option<Square> {
        let s = self.square[id.0 as usize];
        (s != NO_PIECE).then(|| Square::from_index(s))
    }

    fn play(&mut self, m: Move) {
        let (from, to) = (m.from().index(), m.to().index());
        let captured = self.at[to];
        if captured != NO_PIECE {
            self.square[captured as usize] = NO_PIECE;
        }
        let id = self.at[from];
        self.at[to] = id;
        self.at[from] = NO_PIECE;
        if id != NO_PIECE {
            self.square[id as usize] = to as u8;
        }
    }
}

/// What a move is known to be as soon as it is played; a quiet move's chase status waits for its
/// reply and is computed only when the judge asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The start position (no move).
    Start,
    /// A capture or a forward pawn move.
    Cancel,
    /// A move that gives check.
    Check,
    /// Anything else: idle or chase.
    Quiet,
}

/// One ply: the position reached and what the move that reached it did.
#[derive(Clone, Debug)]
pub struct Record {
    /// Zobrist key of the position reached.
    pub key: u64,
    /// The move that reached it (`None` for the start position).
    pub mv: Option<Move>,
    kind: Kind,
    /// The settled chase status of a quiet move, once computed (its reply is known).
    chase: OnceCell<(Status, u16)>,
    /// The judge's verdicts at this ply once settled, three bits for each occurrence threshold
    /// from 2 to `VERDICT_SLOTS + 1` (a known bit and the verdict): a run is followed back only to
    /// where its side was really ruled a violator, which asks the verdicts at earlier plies.
    verdicts: Cell<u64>,
}

/// How many occurrence thresholds (2, 3, ...) a record keeps verdicts for.
pub(crate) const VERDICT_SLOTS: u32 = 21;

impl Record {
    /// Whether no repetition can span this move (a capture, a forward pawn move, or the start).
    #[inline]
    pub fn is_cancel(&self) -> bool {
        matches!(self.kind, Kind::Cancel | Kind::Start)
    }

    /// Whether the move gave check.
    #[inline]
    pub fn gives_check(&self) -> bool {
        self.kind == Kind::Check
    }
}

/// The positions since the start, with one record per ply.
#[derive(Clone)]
pub struct History {
    positions: Vec<Position>,
    ids: Vec<IdBoard>,
    records: Vec<Record>,
    rules: Rules,
}

impl History {
    /// A history starting at `start`, its moves' statuses worked out under `rules`.
    pub fn new(start: Position, rules: Rules) -> History {
        let record = Record {
            key: start.key(),
            mv: None,
            kind: Kind::Start,
            chase: OnceCell::new(),
            verdicts: Cell::new(0u64),
        };
        History {
            ids: vec![IdBoard::new(&start)],
            positions: vec![start],
            records: vec![record],
            rules,
        }
    }

    /// The rules the statuses are worked out under.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Changes the rules; statuses already worked out are worked out again when next asked.
    pub fn set_rules(&mut self, rules: Rules) {
        if rules != self.rules {
            self.rules = rules;
            for record in &mut self.records {
                record.chase.take();
                record.verdicts.set(0);
            }
        }
    }

    /// The current position.
    #[inline]
    pub fn position(&self) -> &Position {
        self.positions
            .last()
            .expect("a history has a start position")
    }

    /// The position after `ply` moves (0 = start).
    pub fn position_at(&self, ply: usize) -> &Position {
        &self.positions[ply]
    }

    /// Number of moves played.
    #[inline]
    pub fn plies(&self) -> usize {
        self.records.len() - 1
    }

    /// The records, index = ply (0 = start).
    #[inline]
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The square of a piece after `ply` moves, if it is still on the board.
    pub fn square_of(&self, ply: usize, id: PieceId) -> Option<Square> {
        self.ids[ply].square_of(id)
    }

    /// The id of the piece on `sq` after `ply` moves.
    pub fn id_at(&self, ply: usize, sq: Square) -> Option<PieceId> {
        self.ids[ply].id_at(sq)
    }

    /// The piece id of colour `color` and index `index`.
    pub fn piece_id(color: Color, index: u8) -> PieceId {
        PieceId(color.index() as u8 * 16 + (index & 15))
    }

    /// Plays a move after checking that it is legal.
    pub fn push(&mut self, m: Move) -> Result<(), IllegalMove> {
        self.position().check_legal(m, self.plies() + 1)?;
        self.push_legal(m);
        Ok(())
    }

    /// Plays a move known to be legal (search). Only the cheap part of its status is found now:
    /// cancel, check or quiet. Whether a quiet move chased is worked out when the judge asks.
    #[inline]
    pub fn push_legal(&mut self, m: Move) {
        let mover = self
            .position()
            .piece_at(m.from())
            .expect("a legal move starts on a piece");
        // The new position and ids are copied into their slots and played there, not built
        // beside and moved in: one copy each instead of two.
        let last = self.positions.len() - 1;
        self.positions.extend_from_within(last..);
        let next = &mut self.positions[last + 1];
        let captured = next.play(m);
        let last = self.ids.len() - 1;
        self.ids.extend_from_within(last..);
        self.ids[last + 1].play(m);
        let forward_pawn = mover.kind == PieceKind::Pawn && m.from().rank() != m.to().rank();
        let kind = if captured.is_some() || forward_pawn {
            Kind::Cancel
        } else if next.in_check() {
            Kind::Check
        } else {
            Kind::Quiet
        };
        self.records.push(Record {
            key: next.key(),
            mv: Some(m),
            kind,
            chase: OnceCell::new(),
            verdicts: Cell::new(0u64),
        });
    }

    /// Passes the move to the other side (a null move, for search). It is recorded as irreversible,
    /// so no repetition spans it. The side to move must not be in check.
    pub fn push_null(&mut self) {
        let next = self.position().pass().expect("no null move while in check");
        let ids = self.ids.last().expect("ids for every ply").clone();
        self.records.push(Record {
            key: next.key(),
            mv: None,
            kind: Kind::Cancel,
            chase: OnceCell::new(),
            verdicts: Cell::new(0u64),
        });
        self.positions.push(next);
        self.ids.push(ids);
    }

    /// Takes back the last move; returns it.
    pub fn pop(&mut self) -> Option<Move> {
        if self.records.len() <= 1 {
            return None;
        }
        let record = self.records.pop().expect("checked above");
        self.positions.pop();
        self.ids.pop();
        // The move before is waiting for its reply again.
        if let Some(last) = self.records.last_mut() {
            last.chase.take();
            last.verdicts.set(0);
        }
        record.mv
    }

    /// The verdict kept for `ply` under `occurrences`, if it was worked out once settled.
    pub(crate) fn kept_verdict(&self, ply: usize, occurrences: u32) -> Option<Verdict> {
        let slot = occurrences.checked_sub(2).filter(|&s| s < VERDICT_SLOTS)?;
        let bits = self.records[ply].verdicts.get() >> (3 * slot) & 7;
        (bits & 1 == 1).then_some(match bits >> 1 {
            0 => Verdict::Undecided,
            1 => Verdict::Draw,
            2 => Verdict::Win(Side::Red),
            _ => Verdict::Win(Side::Black),
        })
    }

    /// Keeps the verdict at `ply` under `occurrences`, when the ply is settled (the verdict can no
    /// longer change) and the threshold has a slot.
    pub(crate) fn keep_verdict(&self, ply: usize, occurrences: u32, verdict: Verdict) {
        let Some(slot) = occurrences.checked_sub(2).filter(|&s| s < VERDICT_SLOTS) else {
            return;
        };
        if !self.is_settled(ply) {
            return;
        }
        let code = match verdict {
            Verdict::Undecided => 0,
            Verdict::Draw => 1,
            Verdict::Win(Side::Red) => 2,
            Verdict::Win(Side::Black) => 3,
        };
        let cell = &self.records[ply].verdicts;
        cell.set(cell.get() & !(7u64 << (3 * slot)) | (code << 1 | 1) << (3 * slot));
    }

    /// Whether the status of the move at `ply` is final (its reply has been played).
    pub fn is_settled(&self, ply: usize) -> bool {
        ply < self.plies()
    }

    /// The status of the move at `ply` and the indices of the opponent's pieces it chased. A quiet
    /// move whose reply is not known yet is read provisionally: every threat counts as answered.
    pub fn status(&self, ply: usize) -> (Status, u16) {
        let record = &self.records[ply];
        match record.kind {
            Kind::Start | Kind::Cancel => (Status::CANCEL, 0),
            Kind::Check => (Status::CHECK, 0),
            Kind::Quiet if self.is_settled(ply) => {
                *record.chase.get_or_init(|| self.chase_status(ply))
            }
            Kind::Quiet => self.chase_status(ply),
        }
    }

    /// Works out whether the quiet move at `ply` chased: the threats its side has after it that
    /// it did not have before it (a threat that stood before the move is not created by it), and,
    /// if the reply is known, which of them the reply answered (the capture is no longer a legal
    /// capture of an unprotected piece).
    fn chase_status(&self, ply: usize) -> (Status, u16) {
        let Some(view) = self.positions[ply].pass() else {
            return (Status::IDLE, 0);
        };
        let policy = self.rules.protection;
        let ids = &self.ids[ply];
        // The same side was to move before its move.
        let before = &self.positions[ply - 1];
        let before_ids = &self.ids[ply - 1];
        let next = self.positions.get(ply + 1).zip(self.ids.get(ply + 1));
        let pairs = |pos: &Position, ids: &IdBoard| -> Vec<(PieceId, PieceId)> {
            chase_threats(pos, policy)
                .into_iter()
                .filter_map(|(a, v)| Some((ids.id_at(a)?, ids.id_at(v)?)))
                .collect()
        };
        let threats = pairs(&view, ids);
        if threats.is_empty() {
            return (Status::IDLE, 0);
        }
        // The threats the mover had before its move (with it to move then, ids as they were).
        let before_threats = pairs(before, before_ids);
        // A threat is new unless it stood before, or its victim could already be taken for free
        // before the move by another attacker that still can after it: a move that only adds an
        // attacker to such a piece creates no threat (the capture was there to make; the piece
        // was in effect offered).
        let stood = |attacker: PieceId, victim: PieceId| {
            before_threats
                .iter()
                .any(|&(a, v)| v == victim && (a == attacker || threats.contains(&(a, victim))))
        };
        let mut chased = 0u16;
        for &(attacker, victim) in &threats {
            if stood(attacker, victim) {
                continue;
            }
            let answered = match next {
                None => true,
                Some((pos, next_ids)) => {
                    match (next_ids.square_of(attacker), next_ids.square_of(victim)) {
                        (Some(a), Some(v)) => !is_chase_capture(pos, a, v, policy),
                        _ => true,
                    }
                }
            };
            if answered {
                chased |= 1 << victim.index();
            }
        }
        (
            if chased != 0 {
                Status::CHASE
            } else {
                Status::IDLE
            },
            chased,
        )
    }
}
