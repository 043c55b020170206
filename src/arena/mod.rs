//! `xq match`: engine-vs-engine games adjudicated by our WXF referee. Each opening is played twice,
//! once with each engine as Red; games run `--concurrency` at a time, each worker with its own pair
//! of engine processes, restarted when one dies or hangs. Results go to the terminal (W/D/L, score,
//! Elo with a 95 % interval, optional SPRT) and to a PGN file.
//!
//! ```text
//! xq match --engine fs=/usr/games/fairy-stockfish,proto=uci1 \
//!          --engine xq=target/release/xq,proto=ucci \
//!          --games 100 --tc 5+0.05 --concurrency 2 --openings tools/openings.txt --pgn games.pgn
//! ```
//!
//! How games end:
//! - the referee ([`crate::referee::Adjudicator`], 3 occurrences) after every move: checkmate and
//!   stalemate lose; perpetual check or chase loses; other repetitions draw. UCCI engines are sent
//!   `banmoves` for the moves that would complete a repetition they lose;
//! - the move-count draw: 120 plies without a capture (`--quiet-plies`) or 300 plies in all, book
//!   moves included (`--max-plies`); 0 switches either off;
//! - optional score adjudication (`--resign`, `--draw`), on the scores the engines print, in their
//!   own units (UCI centipawns; UCCI: 100 = a horse or cannon); mates count as ±100000;
//! - the engine to move loses for an illegal or unreadable move, for giving no move or resigning,
//!   for exceeding its clock by more than `--time-margin` ms, for not answering within
//!   `--move-timeout` under `--nodes`/`--depth`, and when its process dies.

pub mod client;
pub mod fake;
pub mod game;
pub mod openings;
pub mod pgn;
pub mod stats;

use client::{Client, ClientError, EngineSpec, TrafficLog};
use game::{DrawRule, GameRecord, GameRules, Limit, Outcome, ResignRule};
use openings::Opening;
use stats::{Points, Sprt, SprtStatus, Tally};

use crate::square::Color;
use std::collections::BTreeMap;
use std::fmt;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Mutex, PoisonError};
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

/// Everything a match needs.
#[derive(Clone)]
pub struct MatchConfig {
    /// The two engines; results are counted for the first.
    pub engines: [EngineSpec; 2],
    /// Number of games (at most; an SPRT may stop earlier).
    pub games: u32,
    /// Clock, move-count and adjudication rules.
    pub rules: GameRules,
    /// Openings, used in pairs of games.
    pub openings: Vec<Opening>,
    /// Games at the same time.
    pub concurrency: usize,
    /// Shuffle the openings with this seed.
    pub seed: Option<u64>,
    /// Stop when this test decides.
    pub sprt: Option<Sprt>,
    /// Wait this long for a handshake or readyok.
    pub ready_timeout: Duration,
    /// Engine traffic log.
    pub log: Option<TrafficLog>,
}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// 1-based game number, in schedule order.
    pub number: u32,
    /// Whether the first engine played Red.
    pub first_is_red: bool,
    /// The opening's line in its file (0: start position).
    pub opening_line: usize,
    /// The game.
    pub record: GameRecord,
    /// The result for the first engine.
    pub points: Points,
}

/// The end of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSummary {
    /// Results for the first engine.
    pub tally: Tally,
    /// The SPRT's log-likelihood ratio and state, if one ran.
    pub sprt: Option<(f64, SprtStatus)>,
    /// Why the match stopped before all games were played, if it did.
    pub stopped: Option<String>,
}

/// Why a match could not run.
#[derive(Debug)]
pub enum MatchError {
    /// An engine could not be started or did not complete its handshake.
    Engine(ClientError),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Engine(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for MatchError {}

/// A worker gives up on an engine that fails to start this many times in a row.
const START_FAILURES: u32 = 3;

/// Plays the match; `on_game` sees each game as it finishes, with the tally so far.
pub fn run_match(
    config: &MatchConfig,
    mut on_game: impl FnMut(&GameReport, &Tally),
) -> Result<MatchSummary, MatchError> {
    // Start both engines once up front, so a bad command fails the match at once.
    let mut first_slots: [Option<Client>; 2] = [None, None];
    for (slot, spec) in first_slots.iter_mut().zip(&config.engines) {
        *slot = Some(
            Client::start(spec, config.log.clone(), config.ready_timeout)
                .map_err(MatchError::Engine)?,
        );
    }
    let openings = if config.openings.is_empty() {
        vec![Opening::startpos()]
    } else {
        config.openings.clone()
    };
    let mut order: Vec<usize> = (0..openings.len()).collect();
    if let Some(seed) = config.seed {
        shuffle(&mut order, seed);
    }
    let next = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let abort: Mutex<Option<String>> = Mutex::new(None);
    let (tx, rx) = channel::<GameReport>();
    let workers = config.concurrency.max(1).min(config.games.max(1) as usize);
    let mut tally = Tally::default();
    let mut sprt_state = None;
    std::thread::scope(|scope| {
        let mut first_slots = Some(first_slots);
        for _ in 0..workers {
            let slots = first_slots.take().unwrap_or([None, None]);
            let tx = tx.clone();
            let (next, stop, abort, openings, order) = (&next, &stop, &abort, &openings, &order);
            scope.spawn(move || {
                let mut worker = Worker {
                    config,
                    slots,
                    failures: [0; 2],
                };
                while !stop.load(Ordering::SeqCst) {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= config.games {
                        break;
                    }
                    let opening = &openings[order[(i / 2) as usize % order.len()]];
                    let report = worker.play(i, opening);
                    if let Some(reason) = worker.give_up() {
                        *abort.lock().unwrap_or_else(PoisonError::into_inner) = Some(reason);
                        stop.store(true, Ordering::SeqCst);
                    }
                    if tx.send(report).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for report in rx {
            tally.add(report.points);
            on_game(&report, &tally);
            if let Some(sprt) = config.sprt {
                let status = sprt.status(&tally);
                sprt_state = Some((tally.llr(sprt.elo0, sprt.elo1), status));
                if status != SprtStatus::Continue {
                    stop.store(true, Ordering::SeqCst);
                }
            }
        }
    });
    let mut stopped = abort.into_inner().unwrap_or_else(PoisonError::into_inner);
    if stopped.is_none()
        && let Some((_, status)) = sprt_state
        && status != SprtStatus::Continue
        && tally.games() < config.games
    {
        stopped = Some(format!("SPRT: {status}"));
    }
    Ok(MatchSummary {
        tally,
        sprt: sprt_state,
        stopped,
    })
}

struct Worker<'a> {
    config: &'a MatchConfig,
    slots: [Option<Client>; 2],
    failures: [u32; 2],
}

impl Worker<'_> {
    /// Plays game `i` (0-based): the first engine is Red in even games.
    fn play(&mut self, i: u32, opening: &Opening) -> GameReport {
        let first_is_red = i.is_multiple_of(2);
        let order = if first_is_red { [0, 1] } else { [1, 0] };
        let names = order.map(|e| self.config.engines[e].name.clone());
        let mut forfeit = None;
        for (color, &engine) in Color::ALL.iter().zip(&order) {
            if let Err(e) = self.prepare(engine) {
                forfeit = Some(GameRecord::forfeit(names.clone(), opening, *color, &e));
                break;
            }
        }
        let record = match forfeit {
            Some(record) => record,
            None => {
                let [a, b] = &mut self.slots;
                let (red, black) = if first_is_red { (a, b) } else { (b, a) };
                match (red.as_mut(), black.as_mut()) {
                    (Some(red), Some(black)) => {
                        game::play([red, black], opening, &self.config.rules)
                    }
                    _ => {
                        let e = ClientError::Died {
                            engine: names[0].clone(),
                            waiting_for: "a new game",
                        };
                        GameRecord::forfeit(names, opening, Color::Red, &e)
                    }
                }
            }
        };
        let points = match record.outcome {
            Outcome::Draw => Points::Draw,
            Outcome::Win(c) if (c == Color::Red) == first_is_red => Points::Win,
            Outcome::Win(_) => Points::Loss,
        };
        GameReport {
            number: i + 1,
            first_is_red,
            opening_line: opening.line,
            record,
            points,
        }
    }

    /// Makes engine `e` ready for a new game, restarting it if it is broken or unresponsive.
    fn prepare(&mut self, e: usize) -> Result<(), ClientError> {
        let timeout = self.config.ready_timeout;
        let slot = &mut self.slots[e];
        if let Some(client) = slot
            && client.new_game(timeout).is_ok()
        {
            self.failures[e] = 0;
            return Ok(());
        }
        // Dropping the old client kills its process.
        *slot = None;
        let result = Client::start(&self.config.engines[e], self.config.log.clone(), timeout)
            .and_then(|mut c| c.new_game(timeout).map(|_| c));
        match result {
            Ok(client) => {
                *slot = Some(client);
                self.failures[e] = 0;
                Ok(())
            }
            Err(err) => {
                self.failures[e] += 1;
                Err(err)
            }
        }
    }

    fn give_up(&self) -> Option<String> {
        (0..2)
            .find(|&e| self.failures[e] >= START_FAILURES)
            .map(|e| {
                format!(
                    "engine {} failed to start {START_FAILURES} times in a row",
                    self.config.engines[e].name
                )
            })
    }
}

/// Fisher–Yates with a SplitMix64 stream: the same seed gives the same order everywhere.
fn shuffle(items: &mut [usize], seed: u64) {
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    for i in (1..items.len()).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

fn parse_seconds(text: &str, what: &str) -> Result<Duration, ArgError> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| {
            ArgError(format!(
                "bad {what} {text:?}: expected seconds, such as 5 or 0.05"
            ))
        })
}

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
    let timeout = parse_seconds(&args.timeout.to_string(), "--timeout")?;
    let move_timeout = parse_seconds(&args.move_timeout.to_string(), "--move-timeout")?;
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
    fn shuffle_is_a_seeded_permutation() {
        let mut a: Vec<usize> = (0..50).collect();
        let mut b = a.clone();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        assert_ne!(a, (0..50).collect::<Vec<_>>());
        b.sort();
        assert_eq!(b, (0..50).collect::<Vec<_>>());
    }

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
        let tc = time_control(Limit::Clock {
            base: Duration::from_secs(5),
            increment: Duration::from_millis(50),
        });
        assert_eq!(tc.as_deref(), Some("5+0.05"));
    }
}
