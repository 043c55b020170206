//! A ruling in words: who wins and why, the rule cited, each side's cycle with the pieces chased
//! and why each counted as unprotected, the repeated position; and the repetitions met on the
//! way, each with what came after it.

use super::moves::{MoveNames, own_moves, own_plies};
use super::words::{Counted, Words};
use super::{Lang, abbreviated, listed, witness_in};
use crate::judge::History;
use crate::position::Outcome;
use crate::referee::citation::rule_case;
use crate::referee::report::RulingReport;
use crate::referee::{Decision, Reason, RepetitionEvent};

/// A decision in words, as `xq referee` explains it (the moves in ICCS, and in Chinese in Chinese
/// notation beside them), read from the judge's history of the game (`provisional`: it rests on a move whose reply is not known; `events`:
/// the repetitions met on the way, which say whether the violator kept on).
pub fn decision(
    history: &History,
    decision: &Decision,
    provisional: bool,
    events: &[RepetitionEvent],
    lang: Lang,
) -> String {
    let report = RulingReport::new(history, decision.clone(), provisional, decision.ply);
    let names = MoveNames::of_history(history, lang);
    lang.finish(ruling(lang.words(), &report, events, &names))
}

/// One repetition met on the way: the kind, who must change moves, and what happened next
/// (`names`: the game's moves, as named in the language).
pub fn event(e: &RepetitionEvent, names: &MoveNames, lang: Lang) -> String {
    lang.finish(event_in(lang.words(), e, names))
}

/// [`event`] in a language's words.
pub(super) fn event_in(w: &Words, e: &RepetitionEvent, names: &MoveNames) -> String {
    let kind = (w.reason)(e.kind());
    let violator = e.violator();
    let played = |ply: usize| names.move_at(ply).map(|m| names.name(w, m, ply));
    let mut clauses = vec![(w.event)(e.first_ply(), kind, violator)];
    if let Some((first, last)) = e.kept_up {
        clauses.push((w.event_kept_up)(
            violator,
            kind,
            &(w.plies)(first, last),
            played(first).as_deref(),
        ));
    }
    if let Some(kept) = &e.kept_on {
        clauses.push((w.event_kept_on)(violator, kept.ply));
    }
    clauses.push(match (e.varied, e.ruled_anew) {
        (None, Some(ply)) => (w.event_ruled_anew)(ply),
        (Some((side, ply)), _) => (w.event_varied)(side, ply, played(ply).as_deref()),
        (None, None) => (w.event_record_ends)(e.last_ply),
    });
    clauses.join(w.clause_separator)
}

/// The ruling in words, with the moves named as `names` names them.
pub(super) fn ruling(
    w: &Words,
    r: &RulingReport,
    events: &[RepetitionEvent],
    names: &MoveNames,
) -> String {
    let d = &r.decision;
    let mut lines = vec![match &d.reason {
        Reason::Checkmate => (w.mated)(r.ruled.side_to_move(), d.ply, Outcome::Checkmate),
        Reason::Stalemate => (w.mated)(r.ruled.side_to_move(), d.ply, Outcome::Stalemate),
        Reason::MoveLimit(moves) => (w.move_limit)(d.ply, *moves),
        Reason::PlyLimit(plies) => (w.ply_limit)(d.ply, *plies),
        Reason::Repetition(_) => repetition(w, r, events, names),
    }];
    if matches!(d.reason, Reason::Repetition(_)) {
        lines.extend(repetition_grounds(w, r, names));
    }
    if r.past_ruling > 0 {
        lines.push((w.past_ruling)(r.past_ruling));
    }
    lines.join("\n  ")
}

/// The first line of a ruled repetition: who had to change moves, what they did, who wins.
fn repetition(
    w: &Words,
    r: &RulingReport,
    events: &[RepetitionEvent],
    names: &MoveNames,
) -> String {
    let d = &r.decision;
    let reason = (w.reason)(d.reason_name());
    let event = events.iter().find(|e| e.covers(d.ply));
    // A repetition its violator had to leave, ruled there: the record's end, or (ruled at its
    // first decision) a point the record goes on past.
    let must_leave = |v| match r.past_ruling {
        0 => (w.ends_in_repetition)(reason, d.ply, v),
        past => (w.decided_at_first)(reason, d.ply, v, past),
    };
    match (r.violator, event) {
        (Some(v), Some(e)) if e.kept_on.is_none() && e.last_ply == d.ply => match e.kept_up {
            Some((first, last)) => (w.kept_up_to_the_end)(
                reason,
                v,
                e.first_ply(),
                first,
                names
                    .move_at(first)
                    .map(|m| names.name(w, m, first))
                    .as_deref(),
                d.ply.max(last),
            ),
            None => must_leave(v),
        },
        (Some(v), Some(e)) if e.kept_on.as_ref().is_some_and(|k| k.ply == d.ply) => {
            (w.repeated_again)(reason, v, e.first_ply(), d.ply)
        }
        (Some(v), _) => must_leave(v),
        (None, _) => (w.repetition_draw)(reason, d.ply),
    }
}

/// What a ruled repetition rests on, one line each: the rule cited, each side's cycle with the
/// pieces chased and why each was unprotected, the repeated position, a reply not recorded.
fn repetition_grounds(w: &Words, r: &RulingReport, names: &MoveNames) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(case) = rule_case(&r.decision, &r.cycles) {
        lines.push((w.rule)(case));
    }
    for cycle in &r.cycles {
        let words: Vec<String> = own_moves(cycle)
            .into_iter()
            .map(|(p, m)| names.name(w, m, p))
            .collect();
        let (first, last) = own_plies(cycle);
        let plies = (w.plies)(first, last);
        let mut clauses = vec![(w.cycle)(
            cycle.color,
            cycle.violation,
            &plies,
            &abbreviated(w, &words, Counted::Moves),
        )];
        for (piece, squares) in &cycle.chased {
            clauses.push((w.chased)(&(w.piece_on)(
                *piece,
                &listed(w, squares, Counted::Squares),
            )));
        }
        if !cycle.chased_in_turn.is_empty() {
            let each: Vec<String> = cycle
                .chased_in_turn
                .iter()
                .map(|(piece, squares)| (w.piece_on)(*piece, &listed(w, squares, Counted::Squares)))
                .collect();
            clauses.push((w.chased_in_turn)(&each.join(w.clause_separator)));
        }
        let mut line = clauses.join(w.clause_separator);
        for witnessed in &cycle.unprotected {
            line.push_str("\n    ");
            line.push_str(&(w.unprotected)(witnessed.ply, &witness_in(w, witnessed)));
        }
        lines.push(line);
    }
    lines.push((w.repeated_position)(
        &r.ruled.to_string(),
        &listed(w, &r.repeated_at, Counted::Plies),
    ));
    if r.provisional {
        lines.push(w.reply_not_recorded.to_string());
    }
    lines
}
