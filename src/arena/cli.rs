//! The command line of `xq match`: its arguments, how they become a [`MatchConfig`], and the
//! run that prints each game, the running score and the summary, and writes the PGN file.

use super::game::{DrawRule, GameRules, Limit, ResignRule};
use super::stats::{Sprt, Tally};
use super::wire::TrafficLog;
use super::{fake, openings, pgn};

use super::spec::EngineSpec;
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
    /// An engine (give two): NAME=CMD, then any of ,proto=ucci|uci|uci1 ,units=s|ms ,opt.K=V.
    /// uci1 is UCI with ranks 1-10 (Fairy-Stockfish); units sets the UCCI clock unit (seconds
    /// unless the engine announces usemillisec); CMD may not contain commas.
    #[arg(
        long = "engine",
        value_name = "SPEC",
        required_unless_present = "fake_engine"
    )]
    pub engines: Vec<String>,
    /// Number of games [default: 2, or 20000 with --sprt].
    #[arg(long)]
    pub games: Option<u32>,
    /// Clock per side, BASE+INC in seconds (e.g. 5+0.05) [default: 10+0.1 unless --nodes or --depth].
    #[arg(long, conflicts_with_all = ["nodes", "depth"])]
    pub tc: Option<String>,
    /// Nodes per move instead of a clock.
    #[arg(long, conflicts_with = "depth")]
    pub nodes: Option<u64>,
    /// Depth per move instead of a clock.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Openings file: one FEN (optionally "FEN moves ...") or ICCS move list per line; '#' comments.
    #[arg(long)]
    pub openings: Option<PathBuf>,
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
    /// Draw after this many plies without a capture (0: off).
    #[arg(long, default_value_t = 120)]
    pub quiet_plies: u32,
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
    /// The PGN EngineOutput tag.
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

/// The longest time any option takes, in seconds (about 115 days): clock arithmetic on longer
/// times could overflow.
const MAX_SECONDS: f64 = 1e7;

/// Reads a number of seconds (fractions allowed, at most [`MAX_SECONDS`]) for the option `what`.
fn parse_seconds(text: &str, what: &str) -> Result<Duration, ArgError> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && (0.0..=MAX_SECONDS).contains(s))
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| {
            ArgError(format!(
                "bad {what} {text:?}: expected seconds from 0 to {MAX_SECONDS}, such as 5 or 0.05"
            ))
        })
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

/// Turns the command line into a match configuration (reads the openings file too).
pub fn config_from_args(args: &MatchArgs) -> Result<MatchConfig, Box<dyn std::error::Error>> {
    let specs: Vec<EngineSpec> = args
        .engines
        .iter()
        .map(|s| s.parse())
        .collect::<Result<_, _>>()?;
    let engines: [EngineSpec; 2] = specs.try_into().map_err(|v: Vec<EngineSpec>| {
        ArgError(format!(
            "a match needs exactly two --engine, not {}",
            v.len()
        ))
    })?;
    let limit = if let Some(n) = args.nodes {
        Limit::Nodes(n)
    } else if let Some(d) = args.depth {
        Limit::Depth(d)
    } else {
        let tc = args.tc.as_deref().unwrap_or("10+0.1");
        let (base, inc) = tc.split_once('+').unwrap_or((tc, "0"));
        let base = parse_seconds(base, "clock")?;
        if base.is_zero() {
            return Err(
                ArgError(format!("bad clock {tc:?}: the base time must be positive")).into(),
            );
        }
        Limit::Clock {
            base,
            increment: parse_seconds(inc, "increment")?,
        }
    };
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
    let openings = match &args.openings {
        Some(path) => openings::load(path)?,
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
    Ok(MatchConfig {
        engines,
        games: args
            .games
            .unwrap_or(if sprt.is_some() { 20_000 } else { 2 }),
        rules: GameRules {
            limit,
            margin: Duration::from_millis(args.time_margin),
            move_timeout,
            quiet_plies: args.quiet_plies,
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
    })
}

/// The PGN `TimeControl` value for a limit (seconds, `base+increment`).
fn time_control(limit: Limit) -> Option<String> {
    match limit {
        Limit::Clock { base, increment } if increment.is_zero() => {
            Some(format!("{}", base.as_secs_f64()))
        }
        Limit::Clock { base, increment } => Some(format!(
            "{}+{}",
            base.as_secs_f64(),
            increment.as_secs_f64()
        )),
        Limit::Nodes(_) | Limit::Depth(_) => None,
    }
}

/// The running score line: W-L-D and the score fraction of the first engine.
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

/// `xq match`: runs the match described by the command line and prints the results.
pub fn run_cli(args: MatchArgs) -> ExitCode {
    if let Some(settings) = &args.fake_engine {
        return fake::run(settings);
    }
    let config = match config_from_args(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut pgn_out = match &args.pgn {
        Some(path) => match File::create(path) {
            Ok(f) => Some(BufWriter::new(f)),
            Err(e) => {
                eprintln!("error: cannot create {}: {e}", path.display());
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    let names = config.engines.clone().map(|e| e.name);
    let tags = pgn::MatchTags {
        event: args.event.clone(),
        date: pgn::today(),
        time_control: time_control(config.rules.limit),
    };
    let mut endings: BTreeMap<&'static str, u32> = BTreeMap::new();
    let mut pgn_error = None;
    println!(
        "Match {} vs {}: {} games, {} opening(s), {} at a time",
        names[0],
        names[1],
        config.games,
        config.openings.len().max(1),
        config.concurrency
    );
    let result = run_match(&config, |report, tally| {
        let r = &report.record;
        println!(
            "Game {} ({} vs {}, opening line {}): {} {{{}: {}}}",
            report.number,
            r.names[0],
            r.names[1],
            report.opening_line,
            r.outcome.pgn(),
            r.end.name(),
            r.detail
        );
        println!("{}", score_line(&names, tally));
        *endings.entry(r.end.name()).or_insert(0) += 1;
        if let Some(out) = pgn_out.as_mut()
            && pgn_error.is_none()
        {
            let text = pgn::game_text(r, report.number, &tags);
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
                pgn_error = Some(e);
            }
        }
    });
    let summary = match result {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let t = summary.tally;
    println!();
    println!("{}", score_line(&names, &t));
    println!("Elo difference: {}, LOS {:.1} %", t.elo(), 100.0 * t.los());
    if let (Some(sprt), Some((llr, status))) = (config.sprt, summary.sprt) {
        let (low, high) = sprt.bounds();
        println!(
            "SPRT elo0 {} elo1 {} alpha {} beta {}: LLR {llr:.3}, bounds [{low:.3}, {high:.3}]: {status}",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
        );
    }
    let list: Vec<String> = endings.iter().map(|(k, v)| format!("{k} {v}")).collect();
    println!("Endings: {}", list.join(", "));
    if let Some(reason) = &summary.stopped {
        println!("Stopped early: {reason}");
    }
    if let Some(e) = pgn_error {
        eprintln!("error: writing the PGN file failed: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
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
