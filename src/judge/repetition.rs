//! The one walker over a history for repetitions, and every question asked of it: where a
//! position occurred before, the cycle of each side, the ruling at a ply, inside a search, at the
//! end of a record, and which moves would lose by repetition.
//!
//! Positions with the same side to move stand two plies apart, so the walker steps back two plies
//! at a time and stops where a capture or a forward pawn move (or the start) lies between.

mod run;

use super::explain::{Ruling, SideCycle};
use super::history::{History, Record, Status, VERDICT_SLOTS};
use super::{Verdict, Violation};
use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::square::Color;
use run::{Part, Tally, move_status, side_part};
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

/// Whether a repetition whose parts are `to_move` and `mover` counts at `ply`. A ruling that a
/// check decides (either part is a perpetual check) rests only on checks, final as soon as they
/// are played, and counts as soon as the position recurs. Otherwise the position the mover left
/// (at `ply - 1`) must have recurred as well: a chase is judged once the chased side's answers
/// have come round too, so that its cycle is complete and a chase of two pieces in turn (WXF
/// rule 32) can show itself.
fn counts(history: &History, ply: usize, occurrences: u32, parts: [Violation; 2]) -> bool {
    parts.contains(&Violation::PerpetualCheck) || repeats(history, ply - 1, occurrences)
}

/// Whether the repetition at `ply` (from `start`) can count at all, before any chase status is
/// worked out: the position before `ply` has recurred, or one side checked on every move of the
/// stretch (a part can be a perpetual check only then).
fn may_count(history: &History, start: usize, ply: usize, occurrences: u32) -> bool {
    let records = history.records();
    let all_checks = |first: usize| (first..=ply).step_by(2).all(|p| records[p].gives_check());
    repeats(history, ply - 1, occurrences) || all_checks(start + 1) || all_checks(start + 2)
}

/// Whether `color` was ruled a violator at `ply` (an earlier occurrence, so settled): the
/// judge's own verdict there, kept once worked out. A violation ruled and given up is history:
/// a run never reaches back across it. The verdicts at the earlier occurrences of the same
/// position, which that verdict may ask in turn, are worked out first, oldest first, so that no
/// judgement recurses more than one occurrence deep.
fn ruled_against(history: &History, ply: usize, occurrences: u32, color: Color) -> bool {
    if occurrences > VERDICT_SLOTS + 1 {
        // No verdicts are kept for such a threshold: the stretch ending at `ply` is judged
        // alone, neither side followed back, so that judging stays linear.
        return stretch_violator(history, ply, occurrences) == Some(color);
    }
    if history.kept_verdict(ply, occurrences).is_none() {
        let unknown: Vec<usize> = earlier(history, ply)
            .take_while(|&s| history.kept_verdict(s, occurrences).is_none())
            .collect();
        for &s in unknown.iter().rev() {
            settled_verdict(history, s, occurrences);
        }
    }
    settled_verdict(history, ply, occurrences) == Verdict::Win(color.flip())
}

/// The side ruled a violator at `ply` on the stretch ending there alone (neither side followed
/// back over its run), if the repetition counts there.
fn stretch_violator(history: &History, ply: usize, occurrences: u32) -> Option<Color> {
    let start = cycle_start(history, ply, occurrences)?;
    let (a, _) = Tally::of(history, start + 1, ply - 1).classify(history);
    let (b, _) = Tally::of(history, start + 2, ply).classify(history);
    if a == b || !counts(history, ply, occurrences, [a, b]) {
        return None;
    }
    let side_to_move = history.position_at(ply).side_to_move();
    Some(if a > b {
        side_to_move
    } else {
        side_to_move.flip()
    })
}

/// The verdict at `ply`, kept in the history once the ply is settled.
fn settled_verdict(history: &History, ply: usize, occurrences: u32) -> Verdict {
    if let Some(verdict) = history.kept_verdict(ply, occurrences) {
        return verdict;
    }
    let verdict = judge_at(history, ply, occurrences).verdict;
    history.keep_verdict(ply, occurrences, verdict);
    verdict
}

/// The part of the side to move at `ply` in the repetition there: its moves from the
/// `occurrences - 1`-th earlier occurrence of that position to `ply`, followed back over the run
/// it belongs to (`extend_run`). Every such move has had its reply, so every status used is
/// settled. `None` if there is no such repetition since the last capture or forward pawn move.
pub fn side_cycle(history: &History, ply: usize, occurrences: u32) -> Option<SideCycle> {
    let first = cycle_start(history, ply, occurrences)?;
    Some(side_part(history, ply, first, Part::ToMove, occurrences))
}

/// Both sides' parts of the repetition at `ply`, over the same stretch: from the
/// `occurrences - 1`-th earlier occurrence of the position at `ply` to `ply`. The side to move
/// made the moves `start + 1 ... ply - 1`, the other side `start + 2 ... ply`; its last move is
/// read before its reply when the reply is not known (a chase then provisional; a check, or a
/// move that threatens nothing, is final).
fn parts(history: &History, ply: usize, occurrences: u32) -> Option<[SideCycle; 2]> {
    if ply == 0 {
        return None;
    }
    let start = cycle_start(history, ply, occurrences)?;
    Some([
        side_part(history, ply, start, Part::ToMove, occurrences),
        side_part(history, ply, start, Part::Mover, occurrences),
    ])
}

/// Judges the repetition at `ply`: the position there has occurred `occurrences` times since the
/// last capture or forward pawn move, and both sides' moves between its last two counted
/// occurrences are classified and compared (`parts`). The repetition counts when a check decides
/// it, or when the position before `ply` has recurred too (`counts`). Only moves up to `ply` are
/// used.
pub fn judge_at(history: &History, ply: usize, occurrences: u32) -> Ruling {
    let undecided = Ruling {
        verdict: Verdict::Undecided,
        ply,
        cycles: None,
    };
    if ply == 0 {
        return undecided;
    }
    let Some(start) = cycle_start(history, ply, occurrences) else {
        return undecided;
    };
    if !may_count(history, start, ply, occurrences) {
        return undecided;
    }
    let to_move = side_part(history, ply, start, Part::ToMove, occurrences);
    let other = side_part(history, ply, start, Part::Mover, occurrences);
    if !counts(
        history,
        ply,
        occurrences,
        [to_move.violation, other.violation],
    ) {
        return undecided;
    }
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
/// point of view of the side to move there. If that side's own part is idle (it cannot lose the
/// repetition), a draw already reaches beta (`draw_reaches_beta`) and the position before `ply`
/// has recurred too (so the repetition counts), a plain repetition test is enough: the result can
/// only be a draw or better, and a draw already cuts off.
pub fn judge_prune(
    history: &History,
    ply: usize,
    occurrences: u32,
    draw_reaches_beta: bool,
) -> Verdict {
    if ply == 0 {
        return Verdict::Undecided;
    }
    let Some(start) = cycle_start(history, ply, occurrences) else {
        return Verdict::Undecided;
    };
    if !may_count(history, start, ply, occurrences) {
        return Verdict::Undecided;
    }
    let ours = side_part(history, ply, start, Part::ToMove, occurrences);
    if ours.violation == Violation::Idle
        && draw_reaches_beta
        && repeats(history, ply - 1, occurrences)
    {
        return Verdict::Draw;
    }
    let theirs = side_part(history, ply, start, Part::Mover, occurrences);
    if !counts(
        history,
        ply,
        occurrences,
        [ours.violation, theirs.violation],
    ) {
        return Verdict::Undecided;
    }
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

/// The ruling for a repetition that a record's last move completes, whether or not it counts
/// yet (`judge_at`): the record ends in it. The mover's last move is read before its reply (a
/// chase then marks the ruling provisional). `None` unless the final position occurs for the
/// `occurrences`-th time.
pub fn judge_end_of_record(history: &History, occurrences: u32) -> Option<Ruling> {
    let n = history.plies();
    let [to_move, other] = parts(history, n, occurrences)?;
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
    use Color;

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
        // With the root before the earlier occurrence (ply 4 of the eight plies), once is
        // enough: the perpetual check is ruled.
        let eight = at8;
        assert_eq!(eight.plies(), 8);
        assert_eq!(
            judge_in_search(&eight, 2, false),
            judge_prune(&eight, 8, 2, false)
        );
        assert_eq!(
            judge_in_search(&eight, 2, false),
            Verdict::Win(Color::Black)
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
