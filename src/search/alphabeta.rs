//! PVS negamax and quiescence search, with the WXF judge ruling repetitions inside the tree.

use super::ordering::{MAX_PLY, MovePicker, see, see_ge};
use super::score::{self, DRAW, INFINITE, MATE_BOUND, REPETITION_LOSS, Score};
use super::tt::Bound;
use super::{CurrentMove, Progress, SHOW_CURRENT_MOVE_AFTER, Searcher};
use crate::attacks::{horse_attackers_to, pawn_attackers_to, rook_attacks};
use crate::bitboard::Bitboard;
use crate::judge::{Verdict, judge_in_search};
use crate::movegen::{GenType, generate};
use crate::moves::{Move, MoveList};
use crate::piece::PieceKind;
use crate::position::Position;
use std::sync::OnceLock;

/// Quiescence plies after which a side in check is scored as it stands instead of searching its
/// evasions.
const QUIESCENCE_EVASION_PLIES: u32 = 8;

/// Late-move reduction table by depth and move number.
fn reductions() -> &'static [[i32; 64]; 64] {
    static TABLE: OnceLock<[[i32; 64]; 64]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [[0i32; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (n, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (n as f64).ln() / 2.25) as i32;
            }
        }
        t
    })
}

impl Searcher<'_> {
    /// Searches the root with an aspiration window around the previous score.
    pub(crate) fn search_root_with_aspiration(
        &mut self,
        depth: i32,
        report: &mut dyn FnMut(Progress),
    ) {
        let previous = self.root_moves[self.pv_index].previous;
        let mut delta = 25;
        let (mut alpha, mut beta) = if depth >= 5 && previous.abs() < MATE_BOUND {
            (
                (previous - delta).max(-INFINITE),
                (previous + delta).min(INFINITE),
            )
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let value = self.search_root(alpha, beta, depth, report);
            if self.stopped {
                return;
            }
            if value <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (value - delta).max(-INFINITE);
            } else if value >= beta {
                beta = (value + delta).min(INFINITE);
            } else {
                return;
            }
            delta += delta / 2;
            if delta > 1_000 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// One root iteration over the root moves from `pv_index` on, best previous first.
    fn search_root(
        &mut self,
        mut alpha: i32,
        beta: i32,
        depth: i32,
        report: &mut dyn FnMut(Progress),
    ) -> i32 {
        let mut best = -INFINITE;
        let in_check = self.history.position().in_check();
        for i in self.pv_index..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            if self.main && self.start.elapsed() >= SHOW_CURRENT_MOVE_AFTER {
                report(Progress::CurrentMove(CurrentMove {
                    depth: depth as u32,
                    mv: m,
                    number: i as u32 + 1,
                }));
            }
            let nodes_before = self.nodes;
            self.nodes += 1;
            self.tt.prefetch(self.history.position().key_after(m));
            self.eval.push_move(self.history.position(), m);
            self.history.push_legal(m);
            let gives_check = self.history.position().in_check();
            let new_depth = depth - 1 + i32::from(gives_check || in_check);
            let value = if i == self.pv_index {
                -self.negamax(-beta, -alpha, new_depth, 1, true)
            } else {
                let mut v = -self.negamax(-alpha - 1, -alpha, new_depth, 1, false);
                if v > alpha && v < beta && !self.stopped {
                    v = -self.negamax(-beta, -alpha, new_depth, 1, true);
                }
                v
            };
            self.history.pop();
            self.eval.pop();
            if self.stopped {
                return best;
            }
            let rm = &mut self.root_moves[i];
            rm.nodes += self.nodes - nodes_before;
            if i == self.pv_index || value > alpha {
                rm.score = value;
                let mut pv = vec![m];
                pv.extend(self.pv[1][..self.pv_len[1]].iter().flatten());
                rm.pv = pv;
            } else {
                rm.score = -INFINITE;
            }
            if value > best {
                best = value;
            }
            if value > alpha {
                alpha = value;
                // Bring the new best to the front of the lines still being searched.
                let moved = self.root_moves.remove(i);
                self.root_moves.insert(self.pv_index, moved);
                if value >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Rules a repetition at the current node, from the side to move's point of view.
    fn repetition_value(&self, ply: usize, beta: i32) -> Option<i32> {
        let us = self.history.position().side_to_move();
        match judge_in_search(&self.history, self.root_ply, DRAW >= beta) {
            Verdict::Undecided => None,
            Verdict::Draw => Some(DRAW),
            Verdict::Win(c) if c == us => Some(REPETITION_LOSS - ply as i32),
            Verdict::Win(_) => Some(-REPETITION_LOSS + ply as i32),
        }
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1];
        self.pv[ply][0] = Some(m);
        for i in 0..child_len.min(MAX_PLY - 1) {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = (child_len + 1).min(MAX_PLY);
    }

    /// PVS negamax.
    pub(crate) fn negamax(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        // Step 1. Bookkeeping and limits.
        self.pv_len[ply] = 0;
        if depth <= 0 {
            return self.quiescence(alpha, beta, ply, 0);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.should_stop() {
            return 0;
        }
        if ply >= MAX_PLY - 2 {
            return self.eval.evaluate(self.history.position());
        }

        // Step 2. Repetitions, ruled by the judge.
        if let Some(v) = self.repetition_value(ply, beta) {
            return v;
        }

        // Step 3. Mate distance pruning.
        alpha = alpha.max(Score::mated_in(ply as u32).0);
        beta = beta.min(Score::mate_in(ply as u32 + 1).0);
        if alpha >= beta {
            return alpha;
        }

        // Step 4. Transposition table.
        let key = self.history.position().key();
        let entry = self.tt.probe(key);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry
            && !pv_node
            && e.depth >= depth
            && let Some(v) = e.cutoff(alpha, beta, ply)
        {
            return v;
        }

        // Step 5. Static evaluation.
        let in_check = self.history.position().in_check();
        let static_eval = if in_check {
            -INFINITE
        } else if let Some(e) = entry {
            e.eval
        } else {
            self.eval.evaluate(self.history.position())
        };
        self.static_evals[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.static_evals[ply - 2];
        // The evaluation the pruning below trusts: the static one, or the hash score where its
        // bound says the static one is too low or too high (an ordinary score only: no mate, no
        // repetition ruling, which belong to the path that found them).
        let search_eval = entry
            .filter(|_| !in_check)
            .map(|e| (e.score_at(ply), e.bound))
            .filter(|&(v, bound)| {
                Score(v).is_ordinary()
                    && match bound {
                        Bound::Exact => true,
                        Bound::Lower => v > static_eval,
                        Bound::Upper => v < static_eval,
                    }
            })
            .map_or(static_eval, |(v, _)| v);

        if !pv_node && !in_check {
            // Step 6. Reverse futility pruning.
            if depth <= 6
                && search_eval - 85 * (depth - i32::from(improving)) >= beta
                && search_eval.abs() < MATE_BOUND
            {
                return search_eval;
            }

            // Step 7. Null move pruning (not with only pawns and defenders left).
            let us = self.history.position().side_to_move();
            let pos = self.history.position();
            let has_attackers = (pos.pieces(us, PieceKind::Rook)
                | pos.pieces(us, PieceKind::Horse)
                | pos.pieces(us, PieceKind::Cannon))
            .any();
            let after_null = self
                .history
                .records()
                .last()
                .is_some_and(|r| r.mv.is_none());
            if depth >= 3
                && search_eval >= beta
                && has_attackers
                && !after_null
                && beta.abs() < MATE_BOUND
            {
                let r = 3 + depth / 4 + ((search_eval - beta) / 200).min(3);
                self.eval.push_null();
                self.history.push_null();
                let v = -self.negamax(-beta, -beta + 1, depth - r, ply + 1, false);
                self.history.pop();
                self.eval.pop();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return if v >= MATE_BOUND { beta } else { v };
                }
            }
        }

        // Step 8. Internal iterative reduction: with no hash move from a search of depth 1 or
        // more (quiescence's moves do not count), this node was not searched before; search it
        // a little shallower.
        let searched_before = entry.is_some_and(|e| e.mv.is_some() && e.depth > 0);
        let depth = if !searched_before && depth >= 4 {
            depth - 1
        } else {
            depth
        };

        // Step 9. The move loop.
        let prev = self
            .history
            .records()
            .last()
            .and_then(|r| r.mv)
            .and_then(|m| {
                let p = self.history.position().piece_at(m.to())?;
                Some((p.index(), m.to()))
            });
        let counter = prev.and_then(|(p, sq)| self.heur.countermoves[p][sq.index()]);
        let mut picker = MovePicker::new(tt_move, self.heur.killers[ply], counter);
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut moves_searched = 0;
        let mut quiets_tried = MoveList::new();
        while let Some(m) = picker.next(self.history.position(), &self.heur) {
            let pos = self.history.position();
            let capture = pos.piece_at(m.to()).is_some();
            let is_killer = self.heur.killers[ply].contains(&Some(m));

            // Step 10. Pruning of late moves at low depth.
            if !pv_node && !in_check && best > -MATE_BOUND && moves_searched > 0 {
                // Both quiet-move conditions, once met, hold for every later quiet move (the count
                // and alpha only grow), so the picker leaves the rest out.
                if !capture {
                    if depth <= 5
                        && quiets_tried.len() as i32
                            >= 3 + depth * depth / (2 - i32::from(improving))
                    {
                        picker.skip_quiets();
                        continue;
                    }
                    if depth <= 4 && search_eval + 120 + 110 * depth <= alpha {
                        picker.skip_quiets();
                        continue;
                    }
                } else if depth <= 4 && !see_ge(pos, m, -90 * depth) {
                    continue;
                }
            }

            self.nodes += 1;
            self.tt.prefetch(self.history.position().key_after(m));
            self.eval.push_move(self.history.position(), m);
            self.history.push_legal(m);
            let gives_check = self.history.position().in_check();
            // Step 11. Extensions.
            // Evasions are extended only within twice the iteration's depth: a run of checks
            // answered by checks would otherwise keep its depth to the ply limit.
            let extension = i32::from(
                gives_check && depth >= 2 || in_check && ply < 2 * self.iteration_depth as usize,
            );
            let new_depth = depth - 1 + extension.min(1);

            // Step 12. Principal variation search with late-move reductions.
            let value = if moves_searched == 0 {
                -self.negamax(-beta, -alpha, new_depth, ply + 1, pv_node)
            } else {
                let mut r = 0;
                if depth >= 3 && !capture && !gives_check && !in_check && moves_searched >= 2 {
                    r = reductions()[depth.min(63) as usize][moves_searched.min(63)];
                    r -= i32::from(pv_node) + i32::from(is_killer);
                    r -= self
                        .heur
                        .quiet_score(self.history.position_at(self.history.plies() - 1), m)
                        / 6_000;
                    r += i32::from(!improving);
                    r = r.clamp(0, new_depth - 1);
                }
                let mut v = -self.negamax(-alpha - 1, -alpha, new_depth - r, ply + 1, false);
                if v > alpha && r > 0 && !self.stopped {
                    v = -self.negamax(-alpha - 1, -alpha, new_depth, ply + 1, false);
                }
                if v > alpha && v < beta && pv_node && !self.stopped {
                    v = -self.negamax(-beta, -alpha, new_depth, ply + 1, true);
                }
                v
            };
            self.history.pop();
            self.eval.pop();
            if self.stopped {
                return 0;
            }
            moves_searched += 1;
            if !capture {
                quiets_tried.push(m);
            }

            // Step 13. Best move so far.
            if value > best {
                best = value;
                if value > alpha {
                    best_move = Some(m);
                    alpha = value;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if value >= beta {
                        if !capture {
                            let pos = self.history.position();
                            self.heur.reward(pos, m, &quiets_tried, depth, ply, prev);
                        }
                        break;
                    }
                }
            }
        }

        // Step 14. No legal move: mated or stalemated, both lose.
        if moves_searched == 0 {
            // Moves may all have been pruned; only a truly empty list is a loss.
            if crate::movegen::count_legal(self.history.position()) == 0 {
                return Score::mated_in(ply as u32).0;
            }
            return alpha;
        }

        // Step 15. Store.
        let bound = Bound::of(best, original_alpha, beta);
        let stored_eval = if in_check { 0 } else { static_eval };
        self.tt.store(
            key,
            best_move,
            Score(best).to_tt(ply as u32),
            stored_eval,
            depth,
            bound,
        );
        best
    }

    /// Captures only (all evasions in check) until the position is quiet. `qply` counts the
    /// quiescence plies so far: on the first, quiet moves that give check are tried too; from
    /// [`QUIESCENCE_EVASION_PLIES`] on, a side in check is scored as it stands (a run of checks
    /// answered by checks has no other end short of the ply limit, and its tree grows without
    /// bound).
    fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: usize, qply: u32) -> i32 {
        let checks = qply == 0;
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        self.pv_len[ply] = 0;
        if self.should_stop() {
            return 0;
        }
        let pos = self.history.position();
        let in_check = pos.in_check();
        if ply >= MAX_PLY - 2 {
            return if in_check { 0 } else { self.eval.evaluate(pos) };
        }
        if in_check && qply >= QUIESCENCE_EVASION_PLIES {
            if crate::movegen::count_legal(pos) == 0 {
                return Score::mated_in(ply as u32).0;
            }
            return self.eval.evaluate(pos);
        }
        let key = pos.key();
        let entry = self.tt.probe(key);
        if let Some(v) = entry.and_then(|e| e.cutoff(alpha, beta, ply)) {
            return v;
        }
        let original_alpha = alpha;
        let mut best = -INFINITE;
        // Stays 0 (the stored evaluation of a side in check) when in check.
        let mut static_eval = 0;
        if !in_check {
            static_eval =
                entry.map_or_else(|| self.eval.evaluate(self.history.position()), |e| e.eval);
            if static_eval >= beta {
                if entry.is_none() {
                    self.tt
                        .store(key, None, static_eval, static_eval, -1, Bound::Lower);
                }
                return static_eval;
            }
            alpha = alpha.max(static_eval);
            best = static_eval;
        }
        let mut best_move = None;
        let mut picker = MovePicker::captures(entry.and_then(|e| e.mv));
        let mut any = false;
        // After the captures, on the first quiescence ply: quiet moves that may give check.
        let mut quiet_checks: Option<MoveList> = None;
        let mut next_check = 0;
        loop {
            let (m, is_check_try) = match picker.next(self.history.position(), &self.heur) {
                Some(m) => (m, false),
                None => {
                    if !checks || in_check || best >= beta {
                        break;
                    }
                    let list = quiet_checks
                        .get_or_insert_with(|| checking_candidates(self.history.position()));
                    let Some(&m) = list.get(next_check) else {
                        break;
                    };
                    next_check += 1;
                    (m, true)
                }
            };
            any = true;
            let pos = self.history.position();
            if !in_check && !is_check_try && (pos.piece_at(m.to()).is_none() || !see_ge(pos, m, 0))
            {
                continue;
            }
            self.tt.prefetch(self.history.position().key_after(m));
            self.eval.push_move(self.history.position(), m);
            self.history.push_legal(m);
            if is_check_try && !self.history.position().in_check() {
                self.history.pop();
                self.eval.pop();
                continue;
            }
            let value = -self.quiescence(-beta, -alpha, ply + 1, qply + 1);
            self.history.pop();
            self.eval.pop();
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    best_move = Some(m);
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && !any {
            return Score::mated_in(ply as u32).0;
        }
        // The result is kept at depth -1, never over a main-search entry: it guides later
        // quiescence here and the move order of any search, but never stands for a search of
        // depth 1 or more.
        if entry.is_some_and(|e| e.depth > 0) {
            return best;
        }
        // A stand-pat that no move improved on is kept as an upper bound only.
        let bound = match Bound::of(best, original_alpha, beta) {
            Bound::Exact if best_move.is_none() => Bound::Upper,
            bound => bound,
        };
        self.tt.store(
            key,
            best_move,
            Score(best).to_tt(ply as u32),
            static_eval,
            -1,
            bound,
        );
        best
    }
}

/// Quiet moves of rooks, cannons, horses and pawns onto squares from which they would check the
/// other king directly, not losing material by exchange. The caller confirms the check.
fn checking_candidates(pos: &Position) -> MoveList {
    let targets = check_squares(pos);
    let mut quiets = MoveList::new();
    generate(pos, GenType::Quiets, &mut quiets);
    quiets.retain(|m| {
        let Some(p) = pos.piece_at(m.from()) else {
            return false;
        };
        let candidate = match p.kind {
            PieceKind::Rook => targets.rook.has(m.to()),
            PieceKind::Cannon => targets.cannon.has(m.to()),
            PieceKind::Horse => targets.horse.has(m.to()),
            PieceKind::Pawn => targets.pawn.has(m.to()),
            _ => false,
        };
        candidate && see(pos, *m) >= 0
    });
    quiets
}

/// Squares from which each kind of piece of the side to move would check the other king directly.
struct CheckSquares {
    rook: Bitboard,
    cannon: Bitboard,
    horse: Bitboard,
    pawn: Bitboard,
}

fn check_squares(pos: &Position) -> CheckSquares {
    let us = pos.side_to_move();
    let k = pos.king(us.flip());
    let occ = pos.occupied();
    let rook = rook_attacks(k, occ);
    // A cannon checks from beyond exactly one screen: the squares a rook would reach from the king
    // once the first blockers are lifted, minus those it reaches now.
    let first = rook & occ;
    let cannon = rook_attacks(k, occ - first) - rook - first;
    CheckSquares {
        rook,
        cannon,
        horse: horse_attackers_to(k, occ),
        pawn: pawn_attackers_to(us, k),
    }
}

#[allow(dead_code)]
const _: () = assert!(score::MATE > REPETITION_LOSS + MAX_PLY as i32 && INFINITE > score::MATE);
