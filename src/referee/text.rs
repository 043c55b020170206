//! The text rendering of referee reports: a block per game and the closing summary. What a record
//! says (tags, move text, the input an error quotes) and file names are shown with their control
//! characters escaped, so that a record never drives the terminal.

use super::{Agreement, GameReport};
use crate::clip::printable;
use std::fmt::Write as _;
use std::time::Duration;

/// The text block for a game.
pub fn report_text(r: &GameReport) -> String {
    let mut out = String::new();
    if r.game == 0 {
        let _ = write!(
            out,
            "{}: error: {}",
            printable(&r.file),
            r.error()
                .as_ref()
                .map_or(String::new(), |e| printable(&e.kind.to_string()))
        );
        return out;
    }
    let _ = write!(out, "{} game {}", printable(&r.file), r.game);
    if r.line > 0 {
        let _ = write!(out, " (line {})", r.line);
    }
    let facts = r.facts();
    let (red, black) = (
        facts.and_then(|f| f.red.clone()),
        facts.and_then(|f| f.black.clone()),
    );
    let players = match (&red, &black) {
        (Some(a), Some(b)) => Some(format!("{a} - {b}")),
        (Some(a), None) => Some(a.clone()),
        (None, Some(b)) => Some(b.clone()),
        _ => None,
    };
    let event = facts.and_then(|f| f.event.clone());
    let title: Vec<String> = players.into_iter().chain(event).collect();
    if !title.is_empty() {
        let _ = write!(out, ": {}", printable(&title.join(", ")));
    }
    let mut what = Vec::new();
    if let Some(f) = facts {
        what.push(f.format.name().to_string());
        if let Some(n) = f.notation {
            what.push(n.name().to_string());
        }
        what.push(f.encoding.name().to_string());
    }
    what.push(format!("{} plies", r.moves().len()));
    let _ = write!(out, "\n  {}", what.join(", "));
    for line in r.explanation().lines() {
        let _ = write!(out, "\n  {}", printable(line));
    }
    match (r.agreement(), facts.and_then(|f| f.result.as_ref())) {
        (Agreement::Agrees, Some(t)) => {
            let _ = write!(out, "\n  record says {}: agrees", printable(t));
        }
        (Agreement::Disagrees, Some(t)) => {
            let _ = write!(
                out,
                "\n  record says {}: DISAGREES with the referee ({})",
                printable(t),
                r.result()
            );
        }
        (Agreement::NoRecordResult, _) => out.push_str("\n  the record gives no result"),
        _ => {}
    }
    for n in r.notes() {
        let _ = write!(out, "\n  note: {}", printable(n));
    }
    for w in facts.map_or(&[][..], |f| &f.warnings) {
        let _ = write!(out, "\n  warning: {}", printable(&w.to_string()));
    }
    if let Some(e) = r.error() {
        let _ = write!(out, "\n  error: {}", printable(&e.to_string()));
    }
    out
}

/// The counts the closing summary is made of, gathered one report at a time (so reports need not
/// be kept).
#[derive(Debug, Default)]
pub struct Tally {
    games: usize,
    by_reason: Vec<(&'static str, usize)>,
    errors: usize,
    disagree: usize,
    plies: usize,
    unreadable: usize,
    /// Files found by walking a directory that hold no game.
    pub skipped: Vec<String>,
}

impl Tally {
    /// Counts one report.
    pub fn add(&mut self, r: &GameReport) {
        if r.error().is_some() {
            self.errors += 1;
        }
        if r.game == 0 {
            self.unreadable += 1;
            return;
        }
        self.games += 1;
        self.plies += r.moves().len();
        if r.agreement() == Agreement::Disagrees {
            self.disagree += 1;
        }
        if r.decision().is_some() {
            let reason = r.reason();
            match self.by_reason.iter_mut().find(|(k, _)| *k == reason) {
                Some((_, n)) => *n += 1,
                None => self.by_reason.push((reason, 1)),
            }
        }
    }

    /// Whether some game or file had an error.
    pub fn has_errors(&self) -> bool {
        self.errors > 0
    }

    /// The games counted (not unreadable files).
    pub fn games(&self) -> usize {
        self.games
    }

    /// The closing summary.
    pub fn summary(&self, elapsed: Duration) -> String {
        let ruled: usize = self.by_reason.iter().map(|(_, n)| n).sum();
        let reasons: Vec<String> = self
            .by_reason
            .iter()
            .map(|(k, n)| format!("{n} {k}"))
            .collect();
        let secs = elapsed.as_secs_f64().max(1e-9);
        let mut s = format!(
            "summary: {} games, {ruled} ruled{}, {} without a ruling; {} with errors; {} disagree with the record",
            self.games,
            if reasons.is_empty() {
                String::new()
            } else {
                format!(" ({})", reasons.join(", "))
            },
            self.games - ruled,
            self.errors,
            self.disagree,
        );
        if self.unreadable > 0 {
            s.push_str(&format!("; {} unreadable files", self.unreadable));
        }
        if !self.skipped.is_empty() {
            s.push_str(&format!(
                "; {} files without games skipped ({})",
                self.skipped.len(),
                some_of(&self.skipped, SKIPPED_NAMED)
            ));
        }
        s.push_str(&format!(
            "; {} plies in {:.3} s ({:.0} games/s)",
            self.plies,
            secs,
            self.games as f64 / secs
        ));
        s
    }
}

/// How many of the files without games the summary names.
const SKIPPED_NAMED: usize = 3;

/// The first `named` of `names`, and how many more: "a, b, c and 2 more".
fn some_of(names: &[String], named: usize) -> String {
    let shown: Vec<String> = names.iter().take(named).map(|n| printable(n)).collect();
    match names.len().saturating_sub(named) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}
