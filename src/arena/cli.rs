//! The command line of `xq match`: its arguments and how they become a [`Plan`] — a
//! [`MatchConfig`] for each pairing (two engines, or a round robin or gauntlet of more). The run
//! itself is `run`.

use super::game::{DrawRule, GameRules, Limit, ResignRule, match_rules};
use super::openings;
use super::stats::Sprt;
use super::tournament::{self, Format};
use super::wire::TrafficLog;

use super::MatchConfig;
use super::spec::{self, ClockSpec, EngineSpec};
use std::fmt;
use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;
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
    /// Write the games to this PGN file (ICCS movetext, each engine move with its score, depth
    /// and time as a comment).
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
    /// Continue the match in the --pgn file: its games (checked against this command's schedule:
    /// rounds, colours, openings, clocks) are counted and not played again, and the games still to
    /// play are added to it. Two engines only.
    #[arg(long, requires = "pgn")]
    pub resume: bool,
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
    spec::seconds(text, what).map_err(|e| ArgError(e.to_string()))
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
    let format = args
        .tournament
        .parse::<Format>()
        .map_err(|e| ArgError(e.to_string()))?;
    if specs.len() > 2 && args.sprt.is_some() {
        return Err(ArgError("--sprt compares two engines, not a tournament".into()).into());
    }
    let engines = [specs[0].clone(), specs[1].clone()];
    let limit = if let Some(n) = args.nodes {
        Limit::Nodes(n)
    } else if let Some(d) = args.depth {
        Limit::Depth(d)
    } else {
        let clock = ClockSpec::parse(args.tc.as_deref().unwrap_or("10+0.1"))
            .map_err(|e| ArgError(e.to_string()))?;
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
            referee: match_rules(args.move_limit, args.max_plies),
            resign,
            draw,
        },
        openings,
        concurrency: args.concurrency.max(1),
        seed: args.seed,
        sprt,
        ready_timeout: timeout,
        log,
        finished: Vec::new(),
    };
    Ok(Plan {
        engines: specs,
        format,
        config,
    })
}

pub use super::run::run_cli;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_seconds() {
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
    }
}
