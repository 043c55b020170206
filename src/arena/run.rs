//! The run of `xq match`: plays the plan's pairings and prints each game, the running score,
//! each pairing's summary and a tournament's table, and writes the PGN file.
//!
//! When writing the terminal, the PGN file or the engine log fails, the match goes on (the games
//! under way are not thrown away, and the other outputs stay whole): a warning names the output
//! when the failure is noticed, and at the end an error names it again and the exit status is 1.

use super::cli::{MatchArgs, Plan, plan_from_args};
use super::game::Limit;
use super::spec::ClockSpec;
use super::stats::{Pentanomial, Sprt, SprtStatus, Standing, Tally};
use super::tournament::Table;
use super::wire::TrafficLog;
use super::{MatchConfig, MatchSummary, SprtOutcome, fake, pgn, resume, run_match};
use crate::record::files::read_game_file;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

/// The PGN `TimeControl` value for a limit (seconds, `base+increment`).
fn time_control(limit: Limit) -> Option<String> {
    match limit {
        Limit::Clock { base, increment } => Some(ClockSpec { base, increment }.to_string()),
        Limit::Nodes(_) | Limit::Depth(_) => None,
    }
}

/// The final score line: W-L-D and the score fraction of the first engine.
fn score_line(names: &[String; 2], t: &Tally) -> String {
    format!(
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
        names[0],
        names[1],
        t.wins,
        t.losses,
        t.draws,
        t.score(),
        t.games()
    )
}

/// The running line after each game: the score line, the pairs so far with the Elo they give,
/// and the SPRT's log-likelihood ratio with its bounds.
fn standing_line(names: &[String; 2], st: &Standing, sprt: Option<&Sprt>) -> String {
    let mut line = score_line(names, &st.tally);
    if st.pairs.pairs() > 0 {
        let elo = st.pairs.elo();
        line.push_str(&format!(" | Ptnml(0-2) {}, Elo {:+.1}", st.pairs, elo.elo));
        // No interval until the pairs have a spread to measure it by.
        if let Some(margin) = elo.margin().filter(|m| m.is_finite()) {
            line.push_str(&format!(" +/- {margin:.1}"));
        }
    }
    if let Some(sprt) = sprt {
        let (low, high) = sprt.bounds();
        line.push_str(&format!(" | LLR {:.2} ({low:.2}, {high:.2})", st.llr(sprt)));
    }
    line
}

/// The summary's SPRT line: the decision where a bound was crossed (with the log-likelihood ratio
/// over all games beside it when games in play then finished afterwards), else the last ratio.
fn sprt_line(sprt: &Sprt, outcome: &SprtOutcome, pairs: &Pentanomial, games: u32) -> String {
    let (low, high) = sprt.bounds();
    let mut line = format!(
        "SPRT elo0 {} elo1 {} alpha {} beta {} (over pairs): LLR {:.3}, bounds [{low:.3}, {high:.3}]",
        sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta, outcome.llr
    );
    if outcome.status == SprtStatus::Continue {
        line.push_str(&format!(": {}", outcome.status));
    } else {
        line.push_str(&format!(
            ": {} after {} games",
            outcome.status, outcome.games
        ));
        if games > outcome.games {
            line.push_str(&format!(
                "; the {} games in play then also finished: LLR {:.3} over {games} games",
                games - outcome.games,
                pairs.llr(sprt.elo0, sprt.elo1)
            ));
        }
    }
    line
}

/// One output of the match (the terminal, the PGN file): after a write fails, nothing more is
/// written to it, and the failure is kept for the end of the match.
struct Output {
    /// What it is, for messages: "standard output", "PGN file games.pgn".
    name: String,
    out: Box<dyn Write>,
    failure: Option<std::io::Error>,
}

impl Output {
    fn new(name: String, out: Box<dyn Write>) -> Output {
        Output {
            name,
            out,
            failure: None,
        }
    }

    /// Writes `text` and flushes it; the first failure is reported as a warning and kept.
    fn write(&mut self, text: &str) {
        if self.failure.is_some() {
            return;
        }
        if let Err(e) = self
            .out
            .write_all(text.as_bytes())
            .and_then(|_| self.out.flush())
        {
            eprintln!(
                "warning: writing the {} failed: {e}; the match goes on without it",
                self.name
            );
            self.failure = Some(e);
        }
    }

    /// Writes `text` as a line.
    fn line(&mut self, text: &str) {
        self.write(&format!("{text}\n"));
    }
}

/// Where the games and the results go, shared by the pairings of a tournament.
struct GameSink {
    terminal: Output,
    pgn: Option<Output>,
    /// The engine log, its name for messages, and whether its failure was reported yet.
    log: Option<(TrafficLog, String, bool)>,
    tags: pgn::MatchTags,
    /// Games written before the current pairing, so PGN rounds run on across pairings.
    offset: u32,
    /// Written before the first game added to a resumed PGN file that does not end in a blank
    /// line.
    pgn_separator: &'static str,
}

impl GameSink {
    /// Warns once, when it is first noticed, that writing the engine log failed.
    fn check_log(&mut self) {
        if let Some((log, name, reported)) = &mut self.log
            && !*reported
            && let Some(e) = log.failure()
        {
            eprintln!("warning: writing the {name} failed: {e}; the match goes on without it");
            *reported = true;
        }
    }

    /// Every output that failed, as an error line each.
    fn failures(&mut self) -> Vec<String> {
        self.check_log();
        let mut out = Vec::new();
        for output in [Some(&self.terminal), self.pgn.as_ref()]
            .into_iter()
            .flatten()
        {
            if let Some(e) = &output.failure {
                out.push(format!("writing the {} failed: {e}", output.name));
            }
        }
        if let Some((log, name, _)) = &self.log
            && let Some(e) = log.failure()
        {
            out.push(format!("writing the {name} failed: {e}"));
        }
        out
    }
}

/// `xq match`: runs the match or tournament described by the command line and prints the results.
pub fn run_cli(args: MatchArgs) -> ExitCode {
    if let Some(settings) = &args.fake_engine {
        return fake::run(settings);
    }
    let plan = match plan_from_args(&args) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // `--resume`: the games the PGN file already holds (none when it does not exist yet).
    let mut finished = Vec::new();
    let mut separator = "";
    if args.resume
        && let Some(path) = &args.pgn
    {
        if plan.engines.len() != 2 {
            eprintln!("error: --resume continues a match of two engines, not a tournament");
            return ExitCode::from(2);
        }
        if path.exists() {
            let read = read_game_file(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))
                .and_then(|bytes| {
                    separator = resume::separator(&bytes);
                    resume::read_finished(&bytes, &path.display().to_string(), &plan.config)
                        .map_err(|e| e.to_string())
                });
            match read {
                Ok(games) => finished = games,
                Err(e) => {
                    eprintln!("error: cannot resume: {e}");
                    return ExitCode::from(2);
                }
            }
        }
    }
    let pgn = match &args.pgn {
        Some(path) => match open_pgn(path, args.resume) {
            Ok(f) => Some(Output::new(
                format!("PGN file {}", path.display()),
                Box::new(BufWriter::new(f)),
            )),
            Err(e) => {
                eprintln!("error: cannot open {}: {e}", path.display());
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    let log = plan
        .config
        .log
        .clone()
        .zip(args.log.as_ref())
        .map(|(log, path)| (log, format!("engine log {}", path.display()), false));
    let mut sink = GameSink {
        terminal: Output::new("standard output".into(), Box::new(std::io::stdout())),
        pgn,
        log,
        tags: pgn::MatchTags {
            event: args.event.clone(),
            date: pgn::today(),
            time_control: time_control(plan.config.rules.limit),
        },
        offset: 0,
        pgn_separator: separator,
    };
    let pairings = plan.pairings();
    if plan.engines.len() > 2 {
        sink.terminal.line(&format!(
            "Tournament ({}): {} engines, {} pairings of {} games",
            plan.format,
            plan.engines.len(),
            pairings.len(),
            plan.config.games
        ));
    }
    if let Some(path) = args.pgn.as_ref().filter(|_| args.resume) {
        sink.terminal.line(&format!(
            "Resuming the match in {}: {} of its {} games already played",
            path.display(),
            finished.len(),
            plan.config.games
        ));
    }
    let mut table = Table::default();
    for (a, b) in pairings {
        let mut config = plan.pairing(a, b);
        config.finished = finished.clone();
        match play_pairing(&config, &mut sink) {
            Ok(summary) => {
                sink.offset += summary.tally.games();
                table.add(a, b, &summary);
            }
            Err(e) => {
                eprintln!("error: {e}");
                for failure in sink.failures() {
                    eprintln!("error: {failure}");
                }
                return ExitCode::FAILURE;
            }
        }
    }
    if plan.engines.len() > 2 {
        print_table(&plan, &table, &mut sink.terminal);
    }
    let failures = sink.failures();
    for failure in &failures {
        eprintln!("error: {failure}");
    }
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The PGN file: made new, or opened to add games to when resuming (made if missing).
fn open_pgn(path: &Path, resume: bool) -> std::io::Result<File> {
    if resume {
        OpenOptions::new().create(true).append(true).open(path)
    } else {
        File::create(path)
    }
}

/// Plays one pairing, printing each game, the running standing and the summary.
fn play_pairing(
    config: &MatchConfig,
    sink: &mut GameSink,
) -> Result<MatchSummary, super::MatchError> {
    let names = config.engines.clone().map(|e| e.name);
    let mut endings: BTreeMap<String, u32> = BTreeMap::new();
    for g in &config.finished {
        *endings.entry(g.ending.clone()).or_insert(0) += 1;
    }
    sink.terminal.line(&format!(
        "Match {} vs {}: {} games, {} opening(s), {} at a time",
        names[0],
        names[1],
        config.games,
        config.openings.len().max(1),
        config.concurrency
    ));
    let summary = run_match(config, |report, standing| {
        let r = &report.record;
        let number = sink.offset + report.number;
        let opening = match report.opening_line {
            0 => "start position".to_string(),
            line => format!("opening line {line}"),
        };
        sink.terminal.line(&format!(
            "Game {number} ({} vs {}, {opening}): {} {{{}: {}}}",
            r.names[0],
            r.names[1],
            r.outcome.pgn(),
            r.end.name(),
            r.detail
        ));
        sink.terminal
            .line(&standing_line(&names, standing, config.sprt.as_ref()));
        *endings.entry(r.end.name().to_string()).or_insert(0) += 1;
        if let Some(out) = sink.pgn.as_mut() {
            let separator = std::mem::take(&mut sink.pgn_separator);
            out.write(&format!(
                "{separator}{}",
                pgn::game_text(r, number, &sink.tags)
            ));
        }
        sink.check_log();
    })?;
    let t = summary.tally;
    let out = &mut sink.terminal;
    out.line("");
    out.line(&score_line(&names, &t));
    out.line(&format!(
        "Elo difference: {}, LOS {:.1} % (games counted one by one)",
        t.elo(),
        100.0 * t.los()
    ));
    if summary.pairs.pairs() > 0 {
        out.line(&format!(
            "Elo difference by pairs: {} over {} pairs, Ptnml(0-2) {}",
            summary.pairs.elo(),
            summary.pairs.pairs(),
            summary.pairs
        ));
    }
    if let (Some(sprt), Some(outcome)) = (config.sprt, summary.sprt) {
        out.line(&sprt_line(&sprt, &outcome, &summary.pairs, t.games()));
    }
    let list: Vec<String> = endings.iter().map(|(k, v)| format!("{k} {v}")).collect();
    out.line(&format!("Endings: {}", list.join(", ")));
    if let Some(reason) = &summary.stopped {
        out.line(&format!("Stopped early: {reason}"));
    }
    out.line("");
    sink.check_log();
    Ok(summary)
}

/// A tournament's table: each engine's games, points, score and the Elo its score means against
/// the opponents it met, then each pairing's result.
fn print_table(plan: &Plan, table: &Table, out: &mut Output) {
    let name = |i: usize| plan.engines[i].name.as_str();
    let width = plan
        .engines
        .iter()
        .map(|e| e.name.len())
        .max()
        .unwrap_or(0)
        .max(6);
    out.line(&format!("Tournament table ({}):", plan.format));
    out.line(&format!(
        "  # {:width$}  games  points  score    Elo",
        "engine"
    ));
    for (rank, row) in table.rows(plan.engines.len()).iter().enumerate() {
        out.line(&format!(
            "{:3} {:width$}  {:5}  {:6.1}  {:5.1} %  {:+.1}",
            rank + 1,
            name(row.engine),
            row.games,
            row.half_points as f64 / 2.0,
            100.0 * row.score(),
            row.elo()
        ));
    }
    out.line("Pairings:");
    for r in &table.results {
        let (a, b) = r.engines;
        out.line(&format!(
            "  {} vs {}: {} - {} - {}  [{:.3}], Elo by pairs {:+.1}",
            name(a),
            name(b),
            r.tally.wins,
            r.tally.losses,
            r.tally.draws,
            r.tally.score(),
            r.pairs.elo().elo
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn clocks_are_written_as_pgn_time_controls() {
        let tc = time_control(Limit::Clock {
            base: Duration::from_secs(5),
            increment: Duration::from_millis(50),
        });
        assert_eq!(tc.as_deref(), Some("5+0.05"));
    }

    #[test]
    fn a_decided_sprt_is_reported_as_decided_with_the_later_games_beside_it() {
        let sprt: Sprt = "0,10".parse().unwrap();
        let pairs = Pentanomial {
            counts: [1, 0, 1, 0, 4],
        };
        let decided = SprtOutcome {
            llr: 2.95,
            status: SprtStatus::AcceptH1,
            games: 10,
        };
        let line = sprt_line(&sprt, &decided, &pairs, 12);
        assert!(line.contains("LLR 2.950"), "{line}");
        assert!(line.contains("H1 accepted after 10 games"), "{line}");
        let after = format!("{:.3}", pairs.llr(0.0, 10.0));
        assert!(
            line.contains(&format!(
                "the 2 games in play then also finished: LLR {after} over 12 games"
            )),
            "{line}"
        );
        assert!(!line.contains("no decision"), "{line}");
        let exact = sprt_line(&sprt, &decided, &pairs, 10);
        assert!(exact.ends_with("H1 accepted after 10 games"), "{exact}");
        let open = SprtOutcome {
            status: SprtStatus::Continue,
            ..decided
        };
        assert!(sprt_line(&sprt, &open, &pairs, 12).ends_with(": no decision yet"));
    }
}
