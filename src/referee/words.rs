//! The referee's words: a ruling, its rule-book citation and the repetitions met on the way, put
//! into words once from the judge's data, for the text, JSON and HTML reports, the match
//! runner's records and the Python module alike.

use super::report::{CycleReport, RecordFacts, RulingReport};
use super::{Decision, Reason, RepetitionEvent};
use crate::judge::{History, Verdict, Violation};
use crate::moves::Move;
use std::fmt::Write as _;

/// A move as the record wrote it beside its ICCS form (`h2e2 炮二平五`), or ICCS alone when the
/// record wrote it that way.
fn move_words(m: Move, ply: usize, texts: &[String]) -> String {
    let iccs = m.to_string();
    match texts.get(ply - 1) {
        Some(t) if !t.eq_ignore_ascii_case(&iccs) => format!("{iccs} ({t})"),
        _ => iccs,
    }
}

/// How many items of a list are shown at each end when it is too long to show whole.
const LIST_ENDS: usize = 4;

/// A list joined with commas; a long one as its first and last few items around `…`, with how
/// many `things` it holds in all ("1, 5, 9, 13, …, 85, 89, 93, 97 (25 plies in all)").
fn abbreviated(items: &[String], things: &str) -> String {
    if items.len() <= 3 * LIST_ENDS {
        return items.join(", ");
    }
    format!(
        "{}, …, {} ({} {things} in all)",
        items[..LIST_ENDS].join(", "),
        items[items.len() - LIST_ENDS..].join(", "),
        items.len()
    )
}

/// The rule-book rule a ruling rests on, and the nearest diagram of the WXF manual, when one fits.
pub fn rule_citation(decision: &Decision, cycles: &[CycleReport]) -> Option<&'static str> {
    let worst = cycles.iter().map(|c| c.violation).max()?;
    let both = cycles.len() == 2 && cycles[0].violation == cycles[1].violation;
    Some(match (decision.verdict, worst, both) {
        (Verdict::Win(_), Violation::PerpetualCheck, _) => {
            "WXF rule 6: perpetual check loses (manual diagram 1)"
        }
        (Verdict::Draw, Violation::PerpetualCheck, true) => {
            "WXF rule 7: both sides checking perpetually is a draw (manual diagram 4)"
        }
        (Verdict::Draw, Violation::PerpetualCheck, false) => {
            "WXF rule 12: one side checking and the other chasing is a draw (manual diagram 13)"
        }
        (Verdict::Win(_), Violation::PerpetualChase, _) => {
            let chased = cycles
                .iter()
                .filter(|c| c.violation == Violation::PerpetualChase)
                .flat_map(|c| c.chased.iter().map(|(p, _)| p.kind))
                .min_by_key(|k| *k as u8)?;
            use crate::piece::PieceKind::*;
            match chased {
                Rook => {
                    "WXF rules 15 and 19: a rook may not be perpetually chased (manual diagram 18)"
                }
                Cannon => {
                    "WXF rule 18: an unprotected cannon may not be perpetually chased (manual diagram 32)"
                }
                Horse => {
                    "WXF rule 23: an unprotected horse may not be perpetually chased (manual diagram 49)"
                }
                _ => {
                    "WXF rule 25: an unprotected piece may not be perpetually chased (manual diagram 56)"
                }
            }
        }
        (Verdict::Draw, Violation::PerpetualChase, true) => {
            "WXF rule 24: both sides chasing perpetually is a draw (manual diagram 51)"
        }
        (_, Violation::Idle, _) if cycles.iter().any(|c| !c.chased_in_turn.is_empty()) => {
            "WXF rule 32: one piece chasing two pieces in turn, or two chasing two, is not a perpetual chase (manual diagrams 76-80)"
        }
        (_, Violation::Idle, _) => {
            "WXF rules: a repetition in which neither side violates is a draw"
        }
        _ => return None,
    })
}

/// "ply N", or "plies N-M" (the violator's moves, every other ply).
fn plies_words(first: usize, last: usize) -> String {
    if first == last {
        format!("ply {first}")
    } else {
        format!("plies {first}-{last}")
    }
}

/// One repetition met on the way, in the arbiter's words: the kind, who must change moves, and
/// what happened next.
pub fn describe_event(e: &RepetitionEvent, moves: &[Move], texts: &[String]) -> String {
    let kind = e.kind();
    let mut out = format!("ply {}: {kind}", e.first_ply());
    match e.violator() {
        Some(v) => {
            let _ = write!(out, "; {v} must change moves");
        }
        None => out.push_str(" (allowed: a draw if the players go on repeating)"),
    }
    let violator = e
        .violator()
        .map_or("the violator".to_string(), |v| v.to_string());
    if let Some((first, last)) = e.kept_up {
        let _ = write!(
            out,
            "; {violator} kept up the {kind} on other squares at {}",
            plies_words(first, last)
        );
        if let Some(&m) = moves.get(first - 1) {
            let _ = write!(out, " ({})", move_words(m, first, texts));
        }
    }
    if let Some(kept) = &e.kept_on {
        let _ = write!(
            out,
            "; {violator} repeated again at ply {} instead",
            kept.ply
        );
    }
    match (e.varied, e.ruled_anew) {
        (None, Some(ply)) => {
            let _ = write!(
                out,
                "; from ply {ply} the repetition goes on under a new ruling"
            );
        }
        (Some((side, ply)), _) => {
            let _ = write!(out, "; {side} varied at ply {ply}");
            if let Some(&m) = moves.get(ply - 1) {
                let _ = write!(out, " with {}", move_words(m, ply, texts));
            }
        }
        (None, None) => {
            let _ = write!(out, "; the record ends in it at ply {}", e.last_ply);
        }
    }
    out
}

/// The repetitions met before the ending (all of them when there is none).
pub fn on_the_way<'a>(
    ruling: Option<&RulingReport>,
    events: &'a [RepetitionEvent],
) -> Vec<&'a RepetitionEvent> {
    events
        .iter()
        .filter(|e| ruling.is_none_or(|r| !e.covers(r.decision.ply)))
        .collect()
}

/// The explanation for people: the ending and what it rests on (or that there is none), then
/// the repetitions met on the way.
pub fn explain(
    ruling: Option<&RulingReport>,
    events: &[RepetitionEvent],
    moves: &[Move],
    facts: &RecordFacts,
) -> String {
    let mut text = String::new();
    let record_result = facts.result.as_deref();
    match ruling {
        None => match record_result {
            Some(result) => {
                let _ = write!(text, "no ruling; result from the record: {result}");
            }
            None => text.push_str("no ruling; the record gives no result"),
        },
        Some(r) => explain_ruling(&mut text, r, events, &facts.move_texts),
    }
    let on_the_way = on_the_way(ruling, events);
    if !on_the_way.is_empty() {
        text.push_str("\n  repetitions on the way:");
        for e in on_the_way {
            let _ = write!(
                text,
                "\n    {}",
                describe_event(e, moves, &facts.move_texts)
            );
        }
    }
    text
}

/// A decision in words, as `xq referee` explains it with the moves in ICCS, read from the judge's
/// history of the game (`provisional`: it rests on a move whose reply is not known; `events`:
/// the repetitions met on the way, which say whether the violator kept on).
pub fn decision_words(
    history: &History,
    decision: &Decision,
    provisional: bool,
    events: &[RepetitionEvent],
) -> String {
    let report = RulingReport::new(history, decision.clone(), provisional, decision.ply);
    let mut text = String::new();
    explain_ruling(&mut text, &report, events, &[]);
    text
}

/// The ruling in words: who wins and why, the rule cited, each side's cycle with the pieces
/// chased and why each counted as unprotected, the repeated position; the record's own move
/// texts (`texts`, one per ply) beside the moves where they differ from ICCS.
fn explain_ruling(
    text: &mut String,
    r: &RulingReport,
    events: &[RepetitionEvent],
    texts: &[String],
) {
    let d = &r.decision;
    match &d.reason {
        Reason::Checkmate | Reason::Stalemate => {
            let loser = r.ruled.side_to_move();
            let how = if d.reason == Reason::Checkmate {
                "is checkmated: in check with no legal move"
            } else {
                "is stalemated: no legal move, not in check (a loss in Xiangqi)"
            };
            let _ = write!(
                text,
                "{} wins at ply {}: {loser} {how}",
                loser.flip(),
                d.ply
            );
        }
        Reason::MoveLimit(moves) => {
            let _ = write!(
                text,
                "draw at ply {}: {moves} moves by each side without a capture (the move-count rule)",
                d.ply
            );
        }
        Reason::PlyLimit(plies) => {
            let _ = write!(
                text,
                "draw at ply {}: the game reached the cap of {plies} plies",
                d.ply
            );
        }
        Reason::Repetition(_) => {
            let event = events.iter().find(|e| e.covers(d.ply));
            match (r.violator, event) {
                (Some(v), Some(e))
                    if e.kept_on.is_none() && e.kept_up.is_some() && e.last_ply == d.ply =>
                {
                    let (first, last) = e.kept_up.expect("checked above");
                    let _ = write!(
                        text,
                        "{}: {v} had to change moves after ply {}, kept the {} up on other squares instead (from ply {first}{}), and the record ends in it at ply {}; {} wins",
                        d.reason_name(),
                        e.first_ply(),
                        d.reason_name(),
                        texts
                            .get(first - 1)
                            .map_or(String::new(), |t| format!(", {t}")),
                        d.ply.max(last),
                        v.flip()
                    );
                }
                (Some(v), Some(e)) if e.kept_on.as_ref().is_some_and(|k| k.ply == d.ply) => {
                    let _ = write!(
                        text,
                        "{}: {v} had to change moves after ply {} and repeated again at ply {}; {} wins",
                        d.reason_name(),
                        e.first_ply(),
                        d.ply,
                        v.flip()
                    );
                }
                (Some(v), _) => {
                    let _ = write!(
                        text,
                        "{} at ply {}: {v} must change moves, and the record ends in the repetition; {} wins",
                        d.reason_name(),
                        d.ply,
                        v.flip()
                    );
                }
                (None, _) => {
                    let _ = write!(text, "{} at ply {}: a draw", d.reason_name(), d.ply);
                }
            }
            if let Some(rule) = rule_citation(d, &r.cycles) {
                let _ = write!(text, "\n  {rule}");
            }
            for cycle in &r.cycles {
                let own: Vec<(usize, Move)> = cycle
                    .moves
                    .iter()
                    .copied()
                    .filter(|(p, _)| (p - cycle.first_ply) % 2 == 1)
                    .collect();
                let words: Vec<String> =
                    own.iter().map(|&(p, m)| move_words(m, p, texts)).collect();
                let plies = match (own.first(), own.last()) {
                    (Some(first), Some(last)) if first.0 != last.0 => {
                        format!("plies {}-{}", first.0, last.0)
                    }
                    (Some(only), _) => format!("ply {}", only.0),
                    _ => format!("plies {}-{}", cycle.first_ply + 1, cycle.last_ply),
                };
                let _ = write!(
                    text,
                    "\n  {}: {} with {}'s moves at {plies}: {}",
                    cycle.color,
                    cycle.violation.name(),
                    cycle.color,
                    abbreviated(&words, "moves")
                );
                for (piece, squares) in &cycle.chased {
                    let squares: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
                    let _ = write!(
                        text,
                        "; chased {piece} {}",
                        abbreviated(&squares, "squares")
                    );
                }
                if !cycle.chased_in_turn.is_empty() {
                    let each: Vec<String> = cycle
                        .chased_in_turn
                        .iter()
                        .map(|(piece, squares)| {
                            let squares: Vec<String> =
                                squares.iter().map(|s| s.to_string()).collect();
                            format!("{piece} {}", abbreviated(&squares, "squares"))
                        })
                        .collect();
                    let _ = write!(
                        text,
                        "; chased in turn: {} (no single piece on every move: no perpetual chase)",
                        each.join("; ")
                    );
                }
                for (witness, words) in &cycle.unprotected {
                    let _ = write!(text, "\n    unprotected at ply {}: {words}", witness.ply);
                }
            }
            let plies: Vec<String> = r.repeated_at.iter().map(|p| p.to_string()).collect();
            let _ = write!(
                text,
                "\n  repeated position {} at plies {}",
                r.ruled,
                abbreviated(&plies, "plies")
            );
            if r.provisional {
                text.push_str("\n  the record ends here: the last move's reply is not recorded");
            }
        }
    }
    if r.past_ruling > 0 {
        let _ = write!(
            text,
            "\n  the record continues {} plies past the ruling",
            r.past_ruling
        );
    }
}
