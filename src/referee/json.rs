//! The JSON rendering of a referee report: one object per game, one game per line.

use super::GameReport;
use crate::judge::Verdict;
use serde_json::{Value, json};

/// The verdict's name as in reports: red_wins, black_wins, draw, undecided.
fn verdict_name(v: Verdict) -> String {
    v.to_string()
}

/// One JSON object for a game.
pub fn report_json(r: &GameReport) -> Value {
    let ruling = r.ruling();
    let cycles = ruling.map_or(&[][..], |x| &x.cycles);
    let facts = r.facts();
    let chased: Vec<Value> = cycles
        .iter()
        .flat_map(|c| &c.chased)
        .map(|(piece, squares)| {
            let squares: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
            json!({ "piece": piece.to_string(), "squares": squares })
        })
        .collect();
    let cycles: Vec<Value> = cycles
        .iter()
        .map(|c| {
            let moves: Vec<String> = c.moves.iter().map(|(_, m)| m.to_string()).collect();
            json!({
                "side": c.color.name(),
                "violation": c.violation.name(),
                "first_ply": c.first_ply,
                "last_ply": c.last_ply,
                "moves": moves,
            })
        })
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
        "plies": r.moves().len(),
        "result": verdict_name(r.result()),
        "reason": r.reason(),
        "ply": r.decision().map(|d| d.ply),
        "provisional": ruling.is_some_and(|x| x.provisional),
        "violator": ruling.and_then(|x| x.violator).map(|c| c.name()),
        "chased": chased,
        "cycles": cycles,
        "ruled_fen": ruling.map(|x| x.ruled.to_string()),
        "repeated_plies": ruling.map_or(&[][..], |x| &x.repeated_at),
        "past_ruling": ruling.map_or(0, |x| x.past_ruling),
        "tag_result": facts.and_then(|f| f.result.as_deref()),
        "tag_verdict": facts.and_then(|f| f.verdict).map(verdict_name),
        "agreement": r.agreement().name(),
        "explanation": r.explanation(),
        "notes": r.notes(),
        "warnings": facts.map_or(&[][..], |f| &f.warnings),
        "error": r.error().map(|e| e.to_string()),
    })
}
