//! The JSON rendering of a referee report: one object per game, one game per line. Plies are
//! numbered as in the text report: ply N is the N-th recorded move, and "the position at ply N"
//! is the one after it (ply 0 is the start).

use super::render::{self, Lang};
use super::{GameReport, RepetitionEvent};
use crate::judge::Verdict;
use crate::moves::Move;
use serde_json::{Value, json};

/// The verdict's name as in reports: red_wins, black_wins, draw, undecided.
fn verdict_name(v: Verdict) -> String {
    v.to_string()
}

/// A move with its ply, in ICCS and as the record wrote it.
fn move_json(ply: usize, m: Move, texts: &[String]) -> Value {
    json!({
        "ply": ply,
        "iccs": m.to_string(),
        "text": texts.get(ply - 1),
    })
}

/// A repetition met on the way.
fn event_json(e: &RepetitionEvent, names: &render::MoveNames, lang: Lang) -> Value {
    json!({
        "kind": e.kind(),
        "first_ply": e.first_ply(),
        "last_ply": e.last_ply,
        "verdict": verdict_name(e.ruling.verdict),
        "violator": e.violator().map(|c| c.name()),
        "kept_on_ply": e.kept_on.as_ref().map(|r| r.ply),
        "kept_up_plies": e.kept_up.map(|(first, last)| [first, last]),
        "varied_by": e.varied.map(|(c, _)| c.name()),
        "varied_ply": e.varied.map(|(_, p)| p),
        "ruled_anew_ply": e.ruled_anew,
        "description": render::event(e, names, lang),
    })
}

/// One JSON object for a game, its words in English.
pub fn report_json(r: &GameReport) -> Value {
    report_json_in(r, Lang::En)
}

/// One JSON object for a game: its machine fields as always, its words (explanation, notes,
/// warnings, descriptions, the rule cited) in a language.
pub fn report_json_in(r: &GameReport, lang: Lang) -> Value {
    let ruling = r.ruling();
    let cycles = ruling.map_or(&[][..], |x| &x.cycles);
    let facts = r.facts();
    let texts = facts.map_or(&[][..], |f| &f.move_texts);
    let pieces_json = |pieces: &[(crate::piece::Piece, Vec<crate::square::Square>)]| -> Vec<Value> {
        pieces
            .iter()
            .map(|(piece, squares)| {
                let squares: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
                json!({ "piece": piece.to_string(), "squares": squares })
            })
            .collect()
    };
    let chased: Vec<Value> = cycles.iter().flat_map(|c| pieces_json(&c.chased)).collect();
    let cycles: Vec<Value> = cycles
        .iter()
        .map(|c| {
            let moves: Vec<Value> = c
                .moves
                .iter()
                .map(|&(p, m)| move_json(p, m, texts))
                .collect();
            let unprotected: Vec<Value> = c
                .unprotected
                .iter()
                .map(|w| {
                    json!({
                        "ply": w.ply,
                        "attacker": w.attacker.to_string(),
                        "from": w.from.to_string(),
                        "victim": w.victim.to_string(),
                        "square": w.square.to_string(),
                        "why": render::witness(w, lang),
                    })
                })
                .collect();
            json!({
                "side": c.color.name(),
                "violation": c.violation.name(),
                // The stretch the cycle covers: from the side's first move (its moves are every
                // other ply from there, as the text's "Red's moves at plies 5-11") to the
                // cycle's last ply; `moves` holds both sides' moves with their plies.
                "first_ply": c.first_ply + 1,
                "last_ply": c.last_ply,
                "moves": moves,
                "chased_in_turn": pieces_json(&c.chased_in_turn),
                "unprotected": unprotected,
            })
        })
        .collect();
    let judged = r.judged();
    let names = render::MoveNames::of_report(r, lang);
    let events: Vec<Value> = judged
        .map_or(&[][..], |g| &g.events)
        .iter()
        .map(|e| event_json(e, &names, lang))
        .collect();
    json!({
        "file": r.file,
        "game": r.game,
        "line": r.line,
        "event": facts.and_then(|f| f.event.as_deref()),
        "red": facts.and_then(|f| f.red.as_deref()),
        "black": facts.and_then(|f| f.black.as_deref()),
        "format": facts.map(|f| f.format.name()),
        "notation": facts.and_then(|f| f.notation).map(|n| n.name()),
        "encoding": facts.map(|f| f.encoding.name()),
        "start_fen": facts.map(|f| f.start_fen.as_str()),
        "plies": r.moves().len(),
        "moves": r.moves().iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "result": verdict_name(r.result()),
        "reason": r.reason(),
        "ply": r.decision().map(|d| d.ply),
        "provisional": ruling.is_some_and(|x| x.provisional),
        "violator": ruling.and_then(|x| x.violator).map(|c| c.name()),
        "rule": r.rule_cited().map(|case| render::rule(case, lang)),
        "chased": chased,
        "cycles": cycles,
        "ruled_fen": ruling.map(|x| x.ruled.to_string()),
        "repeated_plies": ruling.map_or(&[][..], |x| &x.repeated_at),
        "past_ruling": ruling.map_or(0, |x| x.past_ruling),
        "events": events,
        "final": judged.map(|g| json!({
            "fen": g.final_fen,
            "legal_moves": g.final_legal_moves,
            "in_check": g.final_in_check,
        })),
        "tag_result": facts.and_then(|f| f.result.as_deref()),
        "tag_verdict": facts.and_then(|f| f.verdict).map(verdict_name),
        "agreement": r.agreement().name(),
        "explanation": render::explanation(r, lang),
        "notes": render::notes(r, lang),
        "warnings": render::warnings(r, lang),
        "error": r.error().map(|e| render::record_error(e, lang)),
    })
}
