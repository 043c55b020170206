//! The command line of `xq match`: its arguments, how they become a [`MatchConfig`] for each
//! pairing (two engines, or a round robin or gauntlet of more), and the run that prints each game,
//! the running score, each pairing's summary and a tournament's table, and writes the PGN file.
//!
//! When writing the terminal, the PGN file or the engine log fails, the match goes on (the games
//! under way are not thrown away, and the other outputs stay whole): a warning names the output
//! when the failure is noticed, and at the end an error names it again and the exit status is 1.

use super::game::{DrawRule, GameRules, Limit, ResignRule};
use super::stats::{Sprt, Standing, Tally};
use super::tournament::{self, Format, Table};
use super::wire::TrafficLog;
use super::{MatchSummary, fake, openings, pgn};

use super::spec::{self, ClockSpec, EngineSpec};
use super::{MatchConfig, run_match};
use std::collections::BTreeMap;
use std::fmt;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Command-line arguments of `xq match`.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// An engine (give two, or more for a tournament): NAME=CMD, then any of ,proto=ucci|uci|uci1
    /// ,units=s|ms ,tc=BASE+INC ,opt.K=V. uci1 is UCI with ranks 1-10 (Fairy-Stockfish); units sets
    /// the UCCI clock unit (seconds unless the engine announces usemillisec); tc gives the engine
    /// its own clock instead of --tc (time odds); CMD may not contain commas.
    #[arg(
        long = "engine",
        value_name = "SPEC",
        required_unless_present = "fake_engine"
    )]
    pub engines: Vec<String>,
    /// Number of games of each pairing, at least 1 [default: 2, or 20000 with --sprt].
    #[arg(long)]
    pub games: Option<u32>,
    /// With more than two engines: roundrobin (everyone meets everyone) or gauntlet (the first
    /// engine meets each of the others).
    #[arg(long, default_value = "roundrobin")]
    pub tournament: String,
    /// Clock per side, BASE+INC in seconds (e.g. 5+0.05) [default: 10+0.1 unless --nodes or --depth].
    #[arg(long, conflicts_with_all = ["nodes", "depth"])]
    pub tc: Option<String>,
    /// Nodes per move instead of a clock.
    #[arg(long, conflicts_with = "depth")]
    pub nodes: Option<u64>,
    /// Depth per move instead of a clock.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Openings file: a list (one FEN, "FEN moves ...", or ICCS move list per line; '#'
    /// comments), EPD (.epd), or game records (.pgn, .xqf, DhtmlXQ; every game's moves).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Play at most this many plies of each opening.
    #[arg(long, value_name = "PLIES")]
    pub opening_plies: Option<usize>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Write the games to this PGN file (ICCS movetext).
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Shuffle the openings with this seed (file order without it).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Stop when a sequential probability ratio test decides: ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA
    /// (alpha and beta default to 0.05).
    #[arg(long, value_name = "ELO0,ELO1")]
    pub sprt: Option<String>,
    /// Milliseconds an engine may overrun its clock before it loses on time.
    #[arg(long, default_value_t = 100)]
    pub time_margin: u64,
    /// The move-count rule: draw after this many moves by each side without a capture (0: off).
    #[arg(long, value_name = "MOVES", default_value_t = crate::referee::DEFAULT_MOVE_LIMIT)]
    pub move_limit: u32,
    /// Draw after this many plies in all, book moves included (0: off).
    #[arg(long, default_value_t = 300)]
    pub max_plies: u32,
    /// Adjudicate a loss when both engines score one side at -SCORE or worse for MOVES moves each.
    #[arg(long, value_name = "MOVES,SCORE")]
    pub resign: Option<String>,
    /// Adjudicate a draw from ply PLY when both engines score within SCORE for MOVES moves each.
    #[arg(long, value_name = "PLY,MOVES,SCORE")]
    pub draw: Option<String>,
    /// Seconds to wait for an engine's handshake, readyok, or the end of a stopped search.
    #[arg(long, default_value_t = 10.0)]
    pub timeout: f64,
    /// Seconds to wait for a move under --nodes or --depth before the engine loses as hung.
    #[arg(long, default_value_t = 60.0)]
    pub move_timeout: f64,
    /// Log all engine traffic to this file.
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// The PGN Event tag.
    #[arg(long, default_value = "xq match")]
    pub event: String,
    /// Act as a scripted test engine instead (see `arena::fake`).
    #[arg(long, hide = true)]
    pub fake_engine: Option<String>,
}

/// A bad command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgError(pub String);

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ArgError {}

/// Reads a number of seconds (fractions allowed, at most [`spec::MAX_SECONDS`]) for the option
/// `what`.
fn parse_seconds(text: &str, what: &str) -> Result<Duration, ArgError> {
    spec::seconds(text, what).map_err(ArgError)
}

/// Reads N comma-separated whole numbers, none negative, for the option `what`.
fn parse_numbers<const N: usize>(text: &str, what: &str) -> Result<[i64; N], ArgError> {
    let err = || {
        ArgError(format!(
            "bad {what} {text:?}: expected {N} comma-separated integers"
        ))
    };
    let values: Vec<i64> = text
        .split(',')
        .map(|v| v.trim().parse::<i64>().map_err(|_| err()))
        .collect::<Result<_, _>>()?;
    let values: [i64; N] = values.try_into().map_err(|_| err())?;
    if values.iter().any(|&v| v < 0 || v > i64::from(i32::MAX)) {
        return Err(err());
    }
    Ok(values)
}

/// What the command line asks to play: the engines, who meets whom, and the settings every
/// pairing shares.
#[derive(Clone)]
pub struct Plan {
    /// Every engine, in command-line order.
    pub engines: Vec<EngineSpec>,
    /// Who meets whom when there are more than two.
    pub format: Format,
    /// The settings; its engines are the first pairing's.
    pub config: MatchConfig,
}

impl Plan {
    /// The pairings, by engine index, in the order they are played.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        tournament::pairings(self.format, self.engines.len())
    }

    /// The match between engines `a` (counted as first) and `b`.
    pub fn pairing(&self, a: usize, b: usize) -> MatchConfig {
        let mut config = self.config.clone();
        config.engines = [self.engines[a].clone(), self.engines[b].clone()];
        config
    }
}

/// Turns the command line into a plan (reads the openings file too).
pub fn plan_from_args(args: &MatchArgs) -> Result<Plan, Box<dyn std::error::Error>> {
    let specs: Vec<EngineSpec> = args
        .engines
        .iter()
        .map(|s| s.parse())
        .collect::<Result<_, _>>()?;
    if specs.len() < 2 {
        return Err(ArgError(format!(
            "a match needs at least two --engine, not {}",
            specs.len()
        ))
        .into());
    }
    let mut seen = std::collections::BTreeSet::new();
    if let Some(twice) = specs.iter().find(|e| !seen.insert(e.name.as_str())) {
        return Err(ArgError(format!(
            "two engines are named {:?}: give each its own NAME",
            twice.name
        ))
        .into());
    }
    let format: Format = args.tournament.parse().map_err(ArgError)?;
    if specs.len() > 2 && args.sprt.is_some() {
        return Err(ArgError("--sprt compares two engines, not a tournament".into()).into());
    }
    let engines = [specs[0].clone(), specs[1].clone()];
    let limit = if let Some(n) = args.nodes {
        Limit::Nodes(n)
    } else if let Some(d) = args.depth {
        Limit::Depth(d)
    } else {
        let clock = ClockSpec::parse(args.tc.as_deref().unwrap_or("10+0.1")).map_err(ArgError)?;
        Limit::Clock {
            base: clock.base,
            increment: clock.increment,
        }
    };
    if !matches!(limit, Limit::Clock { .. })
        && let Some(spec) = specs.iter().find(|s| s.clock.is_some())
    {
        return Err(ArgError(format!(
            "engine {}: tc= gives it a clock, but the match plays by --nodes or --depth",
            spec.name
        ))
        .into());
    }
    let resign = match &args.resign {
        Some(t) => {
            let [moves, score] = parse_numbers::<2>(t, "--resign")?;
            Some(ResignRule {
                moves: moves as u32,
                score: score as i32,
            })
        }
        None => None,
    };
    let draw = match &args.draw {
        Some(t) => {
            let [from_ply, moves, score] = parse_numbers::<3>(t, "--draw")?;
            Some(DrawRule {
                from_ply: from_ply as u32,
                moves: moves as u32,
                score: score as i32,
            })
        }
        None => None,
    };
    let sprt = args.sprt.as_deref().map(str::parse::<Sprt>).transpose()?;
    if args.games == Some(0) {
        return Err(ArgError("--games 0: a match needs at least one game".into()).into());
    }
    let openings = match &args.openings {
        Some(path) => openings::load(path, args.opening_plies)?,
        None => Vec::new(),
    };
    let log = match &args.log {
        Some(path) => {
            let file = File::create(path)
                .map_err(|e| ArgError(format!("cannot create {}: {e}", path.display())))?;
            Some(TrafficLog::new(Box::new(BufWriter::new(file))))
        }
        None => None,
    };
    let timeout = parse_seconds(&format!("{:?}", args.timeout), "--timeout")?;
    let move_timeout = parse_seconds(&format!("{:?}", args.move_timeout), "--move-timeout")?;
    let config = MatchConfig {
        engines,
        games: args
            .games
            .unwrap_or(if sprt.is_some() { 20_000 } else { 2 }),
        rules: GameRules {
            limit,
            margin: Duration::from_millis(args.time_margin),
            move_timeout,
            move_limit: args.move_limit,
            max_plies: args.max_plies,
            resign,
            draw,
        },
        openings,
        concurrency: args.concurrency.max(1),
        seed: args.seed,
        sprt,
        ready_timeout: timeout,
        log,
    };
    Ok(Plan {
        engines: specs,
        format,
        config,
    })
}

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
    let pgn = match &args.pgn {
        Some(path) => match File::create(path) {
            Ok(f) => Some(Output::new(
                format!("PGN file {}", path.display()),
                Box::new(BufWriter::new(f)),
            )),
            Err(e) => {
                eprintln!("error: cannot create {}: {e}", path.display());
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
    let mut table = Table::default();
    for (a, b) in pairings {
        let config = plan.pairing(a, b);
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

/// Plays one pairing, printing each game, the running standing and the summary.
fn play_pairing(
    config: &MatchConfig,
    sink: &mut GameSink,
) -> Result<MatchSummary, super::MatchError> {
    let names = config.engines.clone().map(|e| e.name);
    let mut endings: BTreeMap<&'static str, u32> = BTreeMap::new();
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
        *endings.entry(r.end.name()).or_insert(0) += 1;
        if let Some(out) = sink.pgn.as_mut() {
            out.write(&pgn::game_text(r, number, &sink.tags));
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
    if let (Some(sprt), Some((llr, status))) = (config.sprt, summary.sprt) {
        let (low, high) = sprt.bounds();
        out.line(&format!(
            "SPRT elo0 {} elo1 {} alpha {} beta {} (over pairs): LLR {llr:.3}, bounds [{low:.3}, {high:.3}]: {status}",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
        ));
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

    #[test]
    fn numbers_and_clocks() {
        assert_eq!(parse_numbers::<2>("4,1000", "x").unwrap(), [4, 1000]);
        assert!(parse_numbers::<2>("4", "x").is_err());
        assert!(parse_numbers::<3>("1,2,-3", "x").is_err());
        assert_eq!(
            parse_seconds("0.05", "x").unwrap(),
            Duration::from_millis(50)
        );
        assert!(parse_seconds("-1", "x").is_err());
        assert!(parse_seconds("1e300", "x").is_err());
        assert!(parse_seconds("1e7", "x").is_ok());
        let tc = time_control(Limit::Clock {
            base: Duration::from_secs(5),
            increment: Duration::from_millis(50),
        });
        assert_eq!(tc.as_deref(), Some("5+0.05"));
    }
}
