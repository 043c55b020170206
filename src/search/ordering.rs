//! Move ordering: a staged picker (hash move, good captures by MVV-LVA, killers, countermove,
//! quiets by history, bad captures), the heuristics it reads, and static exchange evaluation.

use crate::attacks::{
    advisor_attacks, cannon_attacks, elephant_attacks, horse_attackers_to, king_attacks,
    pawn_attackers_to, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::movegen::{GenType, generate};
use crate::moves::{MAX_MOVES, Move, MoveList};
use crate::piece::PieceKind;
use crate::position::Position;
use crate::square::{Color, Square};
use arrayvec::ArrayVec;

/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;

/// Killer moves, history scores and countermoves, kept per search thread.
pub struct Heuristics {
    /// Two quiet moves per ply that caused cutoffs.
    pub killers: [[Option<Move>; 2]; MAX_PLY + 2],
    /// Quiet-move success scores by (piece index, destination).
    pub history: [[i32; 90]; 14],
    /// The quiet reply that refuted (piece index, destination) of the previous move.
    pub countermoves: [[Option<Move>; 90]; 14],
}

impl Heuristics {
    /// Empty tables, boxed (they are large).
    pub fn new() -> Box<Heuristics> {
        Box::new(Heuristics {
            killers: [[None; 2]; MAX_PLY + 2],
            history: [[0; 90]; 14],
            countermoves: [[None; 90]; 14],
        })
    }

    /// Clears everything (new game).
    pub fn clear(&mut self) {
        *self = *Heuristics::new();
    }

    /// Rewards a quiet move that caused a cutoff and punishes the quiets tried before it.
    pub fn reward(
        &mut self,
        pos: &Position,
        best: Move,
        tried: &[Move],
        depth: i32,
        ply: usize,
        prev: Option<(usize, Square)>,
    ) {
        let bonus = (depth * depth * 8).min(1600);
        let k = &mut self.killers[ply];
        if k[0] != Some(best) {
            k[1] = k[0];
            k[0] = Some(best);
        }
        if let Some((piece, sq)) = prev {
            self.countermoves[piece][sq.index()] = Some(best);
        }
        for &m in tried {
            let Some(p) = pos.piece_at(m.from()) else {
                continue;
            };
            let h = &mut self.history[p.index()][m.to().index()];
            let delta = if m == best { bonus } else { -bonus };
            *h += delta - *h * delta.abs() / 16_384;
        }
    }

    /// History score of a quiet move.
    #[inline]
    pub fn quiet_score(&self, pos: &Position, m: Move) -> i32 {
        pos.piece_at(m.from())
            .map_or(0, |p| self.history[p.index()][m.to().index()])
    }
}

/// Every piece of `side` that attacks `sq` with occupancy `occ`, the king by its palace steps.
fn attackers_of(pos: &Position, sq: Square, side: Color, occ: Bitboard) -> Bitboard {
    let mine = |kind| pos.pieces(side, kind) & occ;
    (rook_attacks(sq, occ) & mine(PieceKind::Rook))
        | (cannon_attacks(sq, occ) & mine(PieceKind::Cannon))
        | (horse_attackers_to(sq, occ) & mine(PieceKind::Horse))
        | (pawn_attackers_to(side, sq) & mine(PieceKind::Pawn))
        | (advisor_attacks(sq) & mine(PieceKind::Advisor))
        | (elephant_attacks(sq, occ) & mine(PieceKind::Elephant))
        | (king_attacks(sq) & mine(PieceKind::King))
}

const KING_SEE: i32 = 5_000;

fn see_value(kind: PieceKind) -> i32 {
    if kind == PieceKind::King {
        KING_SEE
    } else {
        kind.material()
    }
}

/// Static exchange evaluation of `m`: the material balance of the best sequence of recaptures on
/// its destination, each side taking with its least valuable attacker (pins ignored).
pub fn see(pos: &Position, m: Move) -> i32 {
    let (from, to) = (m.from(), m.to());
    let Some(mover) = pos.piece_at(from) else {
        return 0;
    };
    let mut gain = [0i32; 40];
    gain[0] = pos.piece_at(to).map_or(0, |p| see_value(p.kind));
    let mut occ = pos.occupied().without(from).with(to);
    let mut on_square = see_value(mover.kind);
    let mut side = mover.color.flip();
    let mut d = 0;
    const ORDER: [PieceKind; 7] = [
        PieceKind::Pawn,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Cannon,
        PieceKind::Rook,
        PieceKind::King,
    ];
    loop {
        let attackers = attackers_of(pos, to, side, occ);
        if attackers.is_empty() || d + 1 >= gain.len() {
            break;
        }
        let Some((kind, sq)) = ORDER
            .iter()
            .find_map(|&k| (attackers & pos.kind_bb(k)).first().map(|sq| (k, sq)))
        else {
            break;
        };
        // The king may only take last.
        if kind == PieceKind::King && attackers_of(pos, to, side.flip(), occ.without(sq)).any() {
            break;
        }
        d += 1;
        gain[d] = on_square - gain[d - 1];
        if gain[d].max(-gain[d - 1]) < 0 {
            break;
        }
        on_square = see_value(kind);
        occ = occ.without(sq);
        side = side.flip();
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// Whether the static exchange evaluation of `m` is at least `threshold`, the same answer as
/// `see(pos, m) >= threshold`. Without playing out the exchange where the two pieces settle it:
/// the exchange is worth at most the piece taken (the other side may decline to recapture) and
/// at least that piece less the mover (taking the mover back ends the other side's gain).
#[inline]
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let victim = pos.piece_at(m.to()).map_or(0, |p| see_value(p.kind));
    let mover = pos.piece_at(m.from()).map_or(0, |p| see_value(p.kind));
    if victim - mover >= threshold {
        return true;
    }
    if victim < threshold {
        return false;
    }
    see(pos, m) >= threshold
}

/// MVV-LVA score of a capture.
#[inline]
fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let victim = pos.piece_at(m.to()).map_or(0, |p| see_value(p.kind));
    let attacker = pos.piece_at(m.from()).map_or(0, |p| see_value(p.kind));
    victim * 16 - attacker / 16
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    HashMove,
    MakeCaptures,
    GoodCaptures,
    Killer1,
    Killer2,
    Counter,
    MakeQuiets,
    Quiets,
    BadCaptures,
    Done,
}

/// Yields legal moves best-first, generating quiet moves only when they are reached.
pub struct MovePicker {
    stage: Stage,
    hash_move: Option<Move>,
    killers: [Option<Move>; 2],
    counter: Option<Move>,
    captures_only: bool,
    /// Set when the search prunes every quiet move still to come before the quiet stages are
    /// reached: the good captures are then followed straight by the losing ones.
    skip_quiets: bool,
    list: MoveList,
    /// The score of each move of `list`, in the same order (filled as the list is made, not
    /// zeroed first).
    scores: ArrayVec<i32, MAX_MOVES>,
    next: usize,
    bad: MoveList,
    bad_next: usize,
}

impl MovePicker {
    /// A picker for the main search.
    pub fn new(
        hash_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter: Option<Move>,
    ) -> MovePicker {
        MovePicker {
            stage: Stage::HashMove,
            hash_move,
            killers,
            counter,
            captures_only: false,
            skip_quiets: false,
            list: MoveList::new(),
            scores: ArrayVec::new(),
            next: 0,
            bad: MoveList::new(),
            bad_next: 0,
        }
    }

    /// A picker for quiescence: captures only (all legal moves when in check).
    pub fn captures(hash_move: Option<Move>) -> MovePicker {
        let mut p = MovePicker::new(hash_move, [None; 2], None);
        p.captures_only = true;
        p
    }

    /// Leaves out the quiet moves not yet returned (killers and countermove included): the
    /// caller would prune each of them.
    pub fn skip_quiets(&mut self) {
        if (Stage::Killer1..=Stage::Quiets).contains(&self.stage) {
            self.stage = Stage::BadCaptures;
        } else {
            self.skip_quiets = true;
        }
    }

    fn is_special(&self, m: Move) -> bool {
        Some(m) == self.hash_move
            || (!self.captures_only
                && (Some(m) == self.killers[0]
                    || Some(m) == self.killers[1]
                    || Some(m) == self.counter))
    }

    fn pick_best(&mut self) -> Option<Move> {
        if self.next < self.list.len() {
            let mut best = self.next;
            for i in self.next + 1..self.list.len() {
                if self.scores[i] > self.scores[best] {
                    best = i;
                }
            }
            self.list.swap(self.next, best);
            self.scores.swap(self.next, best);
            let m = self.list[self.next];
            self.next += 1;
            return Some(m);
        }
        None
    }

    /// The next move, or `None` when all are done.
    pub fn next(&mut self, pos: &Position, heur: &Heuristics) -> Option<Move> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    self.stage = Stage::MakeCaptures;
                    if let Some(m) = self.hash_move
                        && pos.is_legal(m)
                        && (!self.captures_only || pos.in_check() || pos.piece_at(m.to()).is_some())
                    {
                        return Some(m);
                    }
                    self.hash_move = None;
                }
                Stage::MakeCaptures => {
                    self.list.clear();
                    self.next = 0;
                    let gen_type = if self.captures_only && pos.in_check() {
                        GenType::Legal
                    } else {
                        GenType::Captures
                    };
                    generate(pos, gen_type, &mut self.list);
                    self.scores.clear();
                    for &m in &self.list {
                        self.scores.push(if pos.piece_at(m.to()).is_some() {
                            mvv_lva(pos, m) + 1_000_000
                        } else {
                            heur.quiet_score(pos, m)
                        });
                    }
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => match self.pick_best() {
                    Some(m) if Some(m) == self.hash_move => continue,
                    Some(m) => {
                        // Losing captures wait until after the quiet moves (main search only).
                        if !self.captures_only
                            && pos.piece_at(m.to()).is_some()
                            && !see_ge(pos, m, 0)
                        {
                            self.bad.push(m);
                            continue;
                        }
                        return Some(m);
                    }
                    None => {
                        self.stage = if self.captures_only {
                            Stage::Done
                        } else if self.skip_quiets {
                            Stage::BadCaptures
                        } else {
                            Stage::Killer1
                        };
                    }
                },
                Stage::Killer1 | Stage::Killer2 | Stage::Counter => {
                    let candidate = match self.stage {
                        Stage::Killer1 => self.killers[0],
                        Stage::Killer2 => self.killers[1],
                        _ => self.counter,
                    };
                    let earlier = match self.stage {
                        Stage::Killer1 => false,
                        Stage::Killer2 => candidate == self.killers[0],
                        _ => candidate == self.killers[0] || candidate == self.killers[1],
                    };
                    self.stage = match self.stage {
                        Stage::Killer1 => Stage::Killer2,
                        Stage::Killer2 => Stage::Counter,
                        _ => Stage::MakeQuiets,
                    };
                    if let Some(m) = candidate
                        && !earlier
                        && Some(m) != self.hash_move
                        && pos.piece_at(m.to()).is_none()
                        && pos.is_legal(m)
                    {
                        return Some(m);
                    }
                }
                Stage::MakeQuiets => {
                    self.list.clear();
                    self.next = 0;
                    generate(pos, GenType::Quiets, &mut self.list);
                    self.scores.clear();
                    for &m in &self.list {
                        self.scores.push(heur.quiet_score(pos, m));
                    }
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => match self.pick_best() {
                    Some(m) if self.is_special(m) => continue,
                    Some(m) => return Some(m),
                    None => self.stage = Stage::BadCaptures,
                },
                Stage::BadCaptures => {
                    if self.bad_next < self.bad.len() {
                        self.bad_next += 1;
                        return Some(self.bad[self.bad_next - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen;
    use crate::movegen::legal_moves;
    use std::collections::HashSet;

    /// The picker yields exactly the legal moves, once each, whatever hints it is given.
    #[test]
    fn picker_perft() {
        let fens = [
            fen::START_FEN,
            "r1ba1kb2/8C/2nac1n1r/p1p1p1p1p/4c4/2P1P3P/P5PC1/R3B4/4AN3/1NBAK3R w - - 30 16",
            "2ra2b2/cC1nak1r1/7cn/P5p2/2b5p/2p6/RCPp2P1P/N3B3R/N8/2BAKA3 w - - 20 31",
            "3aka3/6R2/7c1/9/9/9/9/9/4A4/3AK1p2 w",
        ];
        let heur = Heuristics::new();
        for f in fens {
            let pos = fen::parse(f).unwrap();
            let legal: HashSet<Move> = legal_moves(&pos).into_iter().collect();
            let some = legal.iter().next().copied();
            let bogus = Move::new(Square::new(0).unwrap(), Square::new(89).unwrap());
            for hints in [
                (None, [None, None], None),
                (some, [some, Some(bogus)], Some(bogus)),
            ] {
                let mut picker = MovePicker::new(hints.0, hints.1, hints.2);
                let mut seen = HashSet::new();
                while let Some(m) = picker.next(&pos, &heur) {
                    assert!(legal.contains(&m), "{f}: {m} not legal");
                    assert!(seen.insert(m), "{f}: {m} twice");
                }
                assert_eq!(seen, legal, "{f}");
            }
        }
    }

    /// Once told to skip quiet moves, the picker yields only captures: the moves it gave before
    /// and after together are every capture once and no quiet move after the call.
    #[test]
    fn skipped_quiets_leave_the_captures() {
        let fens = [
            "r1ba1kb2/8C/2nac1n1r/p1p1p1p1p/4c4/2P1P3P/P5PC1/R3B4/4AN3/1NBAK3R w - - 30 16",
            "2ra2b2/cC1nak1r1/7cn/P5p2/2b5p/2p6/RCPp2P1P/N3B3R/N8/2BAKA3 w - - 20 31",
        ];
        let heur = Heuristics::new();
        for f in fens {
            let pos = fen::parse(f).unwrap();
            let legal = legal_moves(&pos);
            let captures: HashSet<Move> = legal
                .iter()
                .copied()
                .filter(|m| pos.piece_at(m.to()).is_some())
                .collect();
            let killer = legal
                .iter()
                .copied()
                .find(|m| pos.piece_at(m.to()).is_none());
            // Skip from the start, and after the first quiet move.
            for skip_after_quiets in [0, 1] {
                let mut picker = MovePicker::new(None, [killer, None], None);
                let mut seen = HashSet::new();
                let mut quiets = 0;
                if skip_after_quiets == 0 {
                    picker.skip_quiets();
                }
                while let Some(m) = picker.next(&pos, &heur) {
                    assert!(seen.insert(m), "{f}: {m} twice");
                    if pos.piece_at(m.to()).is_none() {
                        quiets += 1;
                        assert!(quiets <= skip_after_quiets, "{f}: {m} after the skip");
                        picker.skip_quiets();
                    }
                }
                let seen_captures: HashSet<Move> = seen
                    .iter()
                    .copied()
                    .filter(|m| pos.piece_at(m.to()).is_some())
                    .collect();
                assert_eq!(seen_captures, captures, "{f}");
                assert_eq!(quiets, skip_after_quiets, "{f}");
            }
        }
    }

    /// `see_ge` gives the answer of the full exchange for every move and threshold met in
    /// random play.
    #[test]
    fn see_ge_agrees_with_see() {
        let mut pos = fen::parse(fen::START_FEN).unwrap();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut compared = 0;
        for _ in 0..3_000 {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                pos = fen::parse(fen::START_FEN).unwrap();
                continue;
            }
            for &m in &moves {
                let v = see(&pos, m);
                for t in [-1_000, -360, -270, -180, -90, -1, 0, 1, 90, 200, 450, 1_000] {
                    assert_eq!(see_ge(&pos, m, t), v >= t, "{pos} {m} {t}: see {v}");
                    compared += 1;
                }
            }
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            pos.play(moves[(seed >> 33) as usize % moves.len()]);
        }
        assert!(compared > 100_000, "{compared}");
    }

    #[test]
    fn exchanges() {
        // Rook takes a pawn defended by a horse: loses the rook for a pawn.
        let pos = fen::parse("3k5/9/9/9/4p4/2n6/9/9/4R4/4K4 w").unwrap();
        let m: Move = "e1e5".parse().unwrap();
        assert!(see(&pos, m) < 0, "{}", see(&pos, m));
        // Undefended pawn: wins it.
        let pos = fen::parse("3k5/9/9/9/4p4/9/9/9/4R4/4K4 w").unwrap();
        assert_eq!(see(&pos, m), PieceKind::Pawn.material());
    }
}
