//! The one walker over a history for repetitions, and every question asked of it: where a
//! position occurred before, the cycle of each side, the ruling at a ply, inside a search, at the
//! end of a record, and which moves would lose by repetition.
//!
//! Positions with the same side to move stand two plies apart, so the walker steps back two plies
//! at a time and stops where a capture or a forward pawn move (or the start) lies between.

use super::explain::{Ruling, SideCycle};
use super::history::{History, Record, Status};
use super::{Verdict, Violation};
use crate::movegen::legal_moves;
use crate::moves::Move;
use std::collections::HashMap;

/// The earlier plies, newest first, at which the side to move at `ply` was to move, back to the
/// last irreversible move: the only places the position at `ply` can have occurred before.
struct TurnsBack<'a> {
    records: &'a [Record],
    ply: usize,
}

impl Iterator for TurnsBack<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        let j = self.ply;
        // The two moves leading back to position j - 2 must not be irreversible.
        if j < 2 || j >= self.records.len() || self.records[j].is_cancel() {
            return None;
        }
        if self.records[j - 1].is_cancel() {
            return None;
        }
        self.ply = j - 2;
        Some(j - 2)
    }
}

/// The earlier plies, newest first, at which the position at `ply` occurred (same key, so the
/// same side to move), back to the last irreversible move.
fn earlier(history: &History, ply: usize) -> impl Iterator<Item = usize> + '_ {
    let records = history.records();
    let key = records.get(ply).map(|r| r.key);
    TurnsBack { records, ply }.filter(move |&j| Some(records[j].key) == key)
}

/// The `occurrences - 1`-th earlier occurrence of the position at `ply`: where a repetition
/// with that threshold begins.
fn cycle_start(history: &History, ply: usize, occurrences: u32) -> Option<usize> {
    let needed = occurrences.max(2) as usize - 1;
    earlier(history, ply).nth(needed - 1)
}

/// Every ply at which the position at `ply` occurred since the last irreversible move, oldest
/// first, `ply` itself last.
pub fn occurrences(history: &History, ply: usize) -> Vec<usize> {
    if ply >= history.records().len() {
        return Vec::new();
    }
    let mut out: Vec<usize> = earlier(history, ply).collect();
    out.reverse();
    out.push(ply);
    out
}

/// Whether the position at `ply` has occurred `occurrences` times in all since the last capture or
/// forward pawn move (keys only, no chase work).
pub fn repeats(history: &History, ply: usize, occurrences: u32) -> bool {
    cycle_start(history, ply, occurrences).is_some()
}

/// One side's moves in a stretch of history, added up: their statuses or-ed together and the
/// opponent's pieces chased by every chasing move.
#[derive(Clone, Copy)]
struct Tally {
    combined: Status,
    chased: u16,
    provisional: bool,
}

impl Tally {
    const EMPTY: Tally = Tally {
        combined: Status::empty(),
        chased: u16::MAX,
        provisional: false,
    };

    /// Adds the move at `ply` under the history's rules; returns its status.
    fn add(&mut self, history: &History, ply: usize) -> Status {
        let (status, pieces) = move_status(history, ply);
        self.provisional |= !history.is_settled(ply);
        self.combined |= status;
        if status == Status::CHASE {
            self.chased &= pieces;
        }
        status
    }

    /// The level of the moves added, with the pieces chased throughout (none unless a chase).
    fn classify(&self, history: &History) -> (Violation, u16) {
        let violation = history.rules().set.classify(self.combined, self.chased);
        let chased = if violation == Violation::PerpetualChase {
            self.chased
        } else {
            0
        };
        (violation, chased)
    }
}

/// The status of the move at `ply` as the history's rule set reads it (a rule set that reads no
/// chases sees only checks).
fn move_status(history: &History, ply: usize) -> (Status, u16) {
    if history.rules().set.reads_chases() {
        history.status(ply)
    } else if history.records()[ply].gives_check() {
        (Status::CHECK, 0)
    } else {
        (Status::IDLE, 0)
    }
}

/// Extends a side's violation back over the whole run of repetitions it belongs to: through the
/// earlier occurrences of the position at `start`, oldest last, as long as the side's moves in
/// each added stretch all check or chase (a move that does neither is a real change of moves, and
/// the run begins after it). Chasing another piece in turn is part of the pattern: the chased
/// sets are intersected over the whole run. `offset` is 1 when the side is to move at the
/// occurrences (its moves follow them) and 2 when it moved into them. Returns the new start.
fn extend_run(history: &History, tally: &mut Tally, start: usize, offset: usize) -> usize {
    if tally.classify(history).0 == Violation::Idle {
        // Any longer stretch holds the same idle moves: nothing to gain.
        return start;
    }
    let mut start = start;
    for earlier_start in earlier(history, start) {
        let mut longer = *tally;
        let changed = (earlier_start + offset..=start + offset - 2)
            .step_by(2)
            .any(|ply| longer.add(history, ply) == Status::IDLE);
        if changed {
            break;
        }
        *tally = longer;
        start = earlier_start;
    }
    start
}

/// The cycle of the side to move at `ply`: from the `occurrences - 1`-th earlier occurrence of
/// that position to `ply`, with the side's moves made inside it classified, and a violation
/// followed back over the whole run of repetitions it belongs to (`extend_run`). Every such move
/// has had its reply, so every status used is settled. `None` if there is no such repetition
/// since the last capture or forward pawn move.
pub fn side_cycle(history: &History, ply: usize, occurrences: u32) -> Option<SideCycle> {
    let first = cycle_start(history, ply, occurrences)?;
    let mut tally = Tally::EMPTY;
    for p in (first + 1..ply).step_by(2) {
        tally.add(history, p);
    }
    let first = extend_run(history, &mut tally, first, 1);
    let (violation, chased) = tally.classify(history);
    Some(SideCycle {
        color: history.position_at(ply).side_to_move(),
        violation,
        first_ply: first,
        last_ply: ply,
        chased,
        provisional: tally.provisional,
    })
}

/// The cycle of the side that moved into the position at `ply`: its cycle at `ply - 1`, and,
/// when its move at `ply` is a real change of moves (neither a check nor a chase, which its
/// reply cannot make otherwise), that move too: a side that has stopped is judged with the move
/// that stopped, not on its earlier window.
fn mover_cycle(history: &History, ply: usize, occurrences: u32) -> Option<SideCycle> {
    let mut cycle = side_cycle(history, ply - 1, occurrences)?;
    if cycle.violation != Violation::Idle && move_status(history, ply).0 == Status::IDLE {
        cycle.violation = Violation::Idle;
        cycle.chased = 0;
        cycle.last_ply = ply;
    }
    Some(cycle)
}

/// Judges the repetition at `ply`: the cycle of the side to move at `ply` and the cycle of the
/// other side, which was to move one ply earlier, must both exist. Only moves up to `ply` are
/// used; the move at `ply` only when it is a real change of moves, whose status is final.
pub fn judge_at(history: &History, ply: usize, occurrences: u32) -> Ruling {
    let undecided = Ruling {
        verdict: Verdict::Undecided,
        ply,
        cycles: None,
    };
    if ply == 0 {
        return undecided;
    }
    let Some(to_move) = side_cycle(history, ply, occurrences) else {
        return undecided;
    };
    let Some(other) = mover_cycle(history, ply, occurrences) else {
        return undecided;
    };
    Ruling {
        verdict: history.rules().set.compare(&to_move, &other),
        ply,
        cycles: Some([to_move, other]),
    }
}

/// Judges the latest settled position: the one before the last move, whose reply (the last move)
/// settles the chase status of the move before it. This is the convention of the WXF case suite.
pub fn judge_before_reply(history: &History, occurrences: u32) -> Ruling {
    judge_at(history, history.plies().saturating_sub(1), occurrences)
}

/// Whether the move at `ply`, by the side of `cycle` (a perpetual check or chase), keeps up that
/// violation on another square instead of changing moves: it checks again, or it chases again a
/// piece chased throughout the cycle. An arbiter asks the violator to stop the pattern, not to
/// move it. The move's status is provisional while its reply is unknown.
pub fn keeps_up(history: &History, ply: usize, cycle: &SideCycle) -> bool {
    let Some(record) = history.records().get(ply) else {
        return false;
    };
    if record.is_cancel() || history.position_at(ply - 1).side_to_move() != cycle.color {
        return false;
    }
    let (status, chased) = move_status(history, ply);
    match cycle.violation {
        Violation::PerpetualCheck => status == Status::CHECK,
        Violation::PerpetualChase => status == Status::CHASE && chased & cycle.chased != 0,
        Violation::Idle => false,
    }
}

/// The ruling at `ply` with the beta cutoff of the reference paper (its section 5.2), from the
/// point of view of the side to move there. If that side's own cycle is idle (it cannot lose the
/// repetition) and a draw already reaches beta (`draw_reaches_beta`), a plain repetition test of
/// the other side's position is enough: the result can only be a draw or better, and a draw
/// already cuts off.
pub fn judge_prune(
    history: &History,
    ply: usize,
    occurrences: u32,
    draw_reaches_beta: bool,
) -> Verdict {
    if ply == 0 {
        return Verdict::Undecided;
    }
    let Some(ours) = side_cycle(history, ply, occurrences) else {
        return Verdict::Undecided;
    };
    if ours.violation == Violation::Idle && draw_reaches_beta {
        return if repeats(history, ply - 1, occurrences) {
            Verdict::Draw
        } else {
            Verdict::Undecided
        };
    }
    let Some(theirs) = mover_cycle(history, ply, occurrences) else {
        return Verdict::Undecided;
    };
    history.rules().set.compare(&ours, &theirs)
}

/// The ruling inside a search, at the current position of `history`, whose moves after
/// `root_ply` are the search's own. A position that occurred once strictly after the root is a
/// repetition; one whose last occurrence is at or before the root must have occurred twice
/// before, so that game history is not misjudged by a single recurrence. Once it counts, each
/// side's latest cycle is judged, with the cutoff of `judge_prune`.
pub fn judge_in_search(history: &History, root_ply: usize, draw_reaches_beta: bool) -> Verdict {
    let ply = history.plies();
    let Some(last) = earlier(history, ply).next() else {
        return Verdict::Undecided;
    };
    if last <= root_ply && !repeats(history, ply, 3) {
        return Verdict::Undecided;
    }
    judge_prune(history, ply, 2, draw_reaches_beta)
}

/// The ruling for a repetition that a record's last move completes before the reply that would
/// settle it: the mover's last move has its threats treated as answered (the ruling is marked
/// provisional). `None` unless the final position occurs for the `occurrences`-th time.
pub fn judge_end_of_record(history: &History, occurrences: u32) -> Option<Ruling> {
    let n = history.plies();
    if n == 0 {
        return None;
    }
    let to_move = side_cycle(history, n, occurrences)?;
    // The mover of ply n made the moves start + 2, start + 4, ..., n inside the same cycle.
    let start = cycle_start(history, n, occurrences)?;
    let mut tally = Tally::EMPTY;
    for p in (start + 2..=n).step_by(2) {
        tally.add(history, p);
    }
    let start = extend_run(history, &mut tally, start, 2);
    let (violation, chased) = tally.classify(history);
    let other = SideCycle {
        color: to_move.color.flip(),
        violation,
        first_ply: start + 1,
        last_ply: n,
        chased,
        provisional: tally.provisional,
    };
    Some(Ruling {
        verdict: history.rules().set.compare(&to_move, &other),
        ply: n,
        cycles: Some([to_move, other]),
    })
}

/// The legal moves after which the side to move loses a repetition, either at once or after some
/// reply (what a UCCI arbiter sends as `banmoves`). The second kind matters with 3 occurrences: a
/// perpetual checker's last check can bring about the third occurrence of the position it leads
/// to while its own cycle is still one move short, and the opponent's idle reply then completes
/// the ruling against it. Only worked out when positions of both sides to move already occurred
/// often enough to be repeated, and never every legal move (the side must still move).
pub fn losing_moves(history: &History, occurrences: u32) -> Vec<Move> {
    let needed = occurrences.max(2) - 1;
    let mut seen: HashMap<u64, u32> = HashMap::new();
    let mut repeated = [false; 2];
    for (ply, record) in history.records().iter().enumerate() {
        let n = seen.entry(record.key).or_insert(0);
        *n += 1;
        repeated[ply % 2] |= *n >= needed;
    }
    if !(repeated[0] && repeated[1]) {
        return Vec::new();
    }
    let us = history.position().side_to_move();
    let loses =
        |h: &History| judge_at(h, h.plies(), occurrences).verdict == Verdict::Win(us.flip());
    let mut h = history.clone();
    let legal = legal_moves(history.position());
    let mut banned = Vec::new();
    for &m in &legal {
        h.push_legal(m);
        let ruling = judge_at(&h, h.plies(), occurrences).verdict;
        let lost = ruling == Verdict::Win(us.flip())
            || (ruling == Verdict::Undecided
                && legal_moves(h.position()).iter().any(|&reply| {
                    h.push_legal(reply);
                    let lost = loses(&h);
                    h.pop();
                    lost
                }));
        h.pop();
        if lost {
            banned.push(m);
        }
    }
    if banned.len() == legal.len() {
        Vec::new()
    } else {
        banned
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen;
    use crate::judge::Rules;
    use crate::square::Color;

    fn play(fen_text: &str, moves: &str) -> History {
        let (pos, _) = fen::parse_lenient(fen_text).unwrap();
        let mut h = History::new(pos, Rules::default());
        for m in moves.split_whitespace() {
            h.push(m.parse::<Move>().unwrap()).unwrap();
        }
        h
    }

    #[test]
    fn prune_agrees_with_full_judge() {
        // Red checks perpetually with the rook; Black's king steps are idle.
        let h = play(
            "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w",
            "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8",
        );
        for ply in 0..=h.plies() {
            let full = judge_at(&h, ply, 2).verdict;
            assert_eq!(judge_prune(&h, ply, 2, false), full, "ply {ply}");
            let pruned = judge_prune(&h, ply, 2, true);
            // With a draw enough for a cutoff, only a side that cannot lose may shortcut to a draw.
            if pruned != full {
                assert_eq!(pruned, Verdict::Draw);
                assert_eq!(full, Verdict::Win(h.position_at(ply).side_to_move()));
            }
        }
        assert_eq!(judge_at(&h, 6, 2).verdict, Verdict::Win(Color::Black));
        assert_eq!(occurrences(&h, 6), vec![2, 6]);
        assert_eq!(occurrences(&h, 7), vec![3, 7]);
    }

    #[test]
    fn no_repetition_is_undecided() {
        let h = play(fen::START_FEN, "h2e2 h9g7 h0g2 i9h9");
        for ply in 0..=h.plies() {
            assert_eq!(judge_at(&h, ply, 2).verdict, Verdict::Undecided);
            assert!(!repeats(&h, ply, 2));
            assert_eq!(occurrences(&h, ply), vec![ply]);
        }
        assert_eq!(judge_end_of_record(&h, 2), None);
        assert!(losing_moves(&h, 2).is_empty());
    }

    #[test]
    fn the_chaser_names_the_chased_piece() {
        // Red's rook keeps attacking Black's rook, immobilised by a horse.
        let h = play(
            "2baka3/C4rN2/4b1n2/1Rp5p/6p2/2P6/4c1P1c/4B3C/4A4/4KAB2 w",
            "b6b8 f9e8 b8b6 e8f9 b6b8 f9e8 b8b6",
        );
        let ruling = judge_at(&h, 6, 2);
        assert_eq!(ruling.verdict, Verdict::Win(Color::Black));
        let chaser = ruling.violator_cycle().expect("a violator");
        assert_eq!(chaser.violation, Violation::PerpetualChase);
        let chased = chaser.chased_pieces(&h);
        assert_eq!(chased.len(), 1, "{chased:?}");
        assert_eq!(chased[0].0.to_string(), "black rook");
    }

    #[test]
    fn in_search_needs_two_earlier_occurrences_before_the_root() {
        let h = play(
            "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w",
            "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9 h8h9",
        );
        // Ply 8 repeats plies 4 and 0: with the root at ply 8, one earlier occurrence at or before
        // the root is not enough, two are.
        let mut short = h.clone();
        while short.plies() > 4 {
            short.pop();
        }
        assert_eq!(judge_in_search(&short, 4, false), Verdict::Undecided);
        let mut at8 = h.clone();
        at8.pop();
        assert_ne!(judge_in_search(&at8, 8, false), Verdict::Undecided);
        // With the root before the earlier occurrence, once is enough.
        assert_eq!(
            judge_in_search(&short, 0, false),
            judge_prune(&short, 4, 2, false)
        );
    }

    #[test]
    fn perpetual_checker_is_banned_from_the_next_check() {
        // Red has checked with h8h9 twice; playing it again completes a perpetual check.
        let h = play(
            "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w",
            "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9",
        );
        let banned = losing_moves(&h, 3);
        assert!(banned.contains(&"h8h9".parse().unwrap()), "{banned:?}");
        assert!(losing_moves(&h, 3).len() < legal_moves(h.position()).len());
    }
}
