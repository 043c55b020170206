//! `xq match`: engine-vs-engine games adjudicated by our WXF referee. Each opening is played twice,
//! once with each engine as Red; games run `--concurrency` at a time, each worker with its own pair
//! of engine processes, restarted when one dies or hangs. Results go to the terminal (W/D/L, score,
//! Elo with a 95 % interval, optional SPRT) and to a PGN file; a match stopped part way is
//! continued from that file with `--resume` ([`resume`]).
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
//!   `banmoves` for the moves that would complete a repetition they lose. The referee also applies
//!   the move-count rule, 60 moves by each side without a capture (`--move-limit`), and the cap of
//!   300 plies in all, book moves included (`--max-plies`); 0 switches either off;
//! - optional score adjudication (`--resign`, `--draw`), on the scores the engines print, in their
//!   own units (UCI centipawns; UCCI: 100 = a horse or cannon); mates count as ±100000;
//! - the engine to move loses for an illegal or unreadable move, for giving no move or resigning,
//!   for exceeding its clock by more than `--time-margin` ms, for not answering within
//!   `--move-timeout` under `--nodes`/`--depth`, and when its process dies.

pub mod cli;
pub mod client;
pub mod commands;
pub mod fake;
pub mod game;
pub mod openings;
pub mod pgn;
mod process;
pub mod resume;
pub mod run;
pub mod spec;
pub mod stats;
pub mod tournament;
pub mod wire;

use client::{Client, ClientError};
use game::{GameRules, Outcome, PlayedGame};
use openings::Opening;
use spec::EngineSpec;
use stats::{Pentanomial, Points, Sprt, SprtStatus, Standing, Tally};
use wire::TrafficLog;

use crate::square::Color;
use std::collections::BTreeSet;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

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
    /// Games of this schedule already played (read back from the match's PGN file by
    /// `--resume`): counted, and not played again.
    pub finished: Vec<resume::FinishedGame>,
}

/// Which opening each game of a match starts from: the openings in file order, or shuffled by the
/// seed; games `2k` and `2k + 1` (0-based) share the `k`-th, the first engine Red in even games.
pub struct Schedule {
    openings: Vec<Opening>,
    order: Vec<usize>,
}

impl Schedule {
    /// The schedule of `config`'s games (the start position when it has no openings).
    pub fn new(config: &MatchConfig) -> Schedule {
        let openings = if config.openings.is_empty() {
            vec![Opening::startpos()]
        } else {
            config.openings.clone()
        };
        let mut order: Vec<usize> = (0..openings.len()).collect();
        if let Some(seed) = config.seed {
            shuffle(&mut order, seed);
        }
        Schedule { openings, order }
    }

    /// The opening of game `i` (0-based).
    pub fn opening(&self, i: u32) -> &Opening {
        &self.openings[self.order[(i / 2) as usize % self.order.len()]]
    }
}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// 1-based game number, in schedule order.
    pub number: u32,
    /// Whether the first engine played Red.
    pub first_is_red: bool,
    /// The opening's line in its file (0: start position).
    pub opening_line: usize,
    /// The game.
    pub record: PlayedGame,
    /// The result for the first engine.
    pub points: Points,
}

/// The end of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSummary {
    /// Results for the first engine.
    pub tally: Tally,
    /// The same results by pairs of games on one opening.
    pub pairs: Pentanomial,
    /// The SPRT's outcome, if one ran.
    pub sprt: Option<SprtOutcome>,
    /// Why the match stopped before all games were played, if it did.
    pub stopped: Option<String>,
}

/// Where a match's SPRT stood when it ended: at the first bound crossed, or after the last game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtOutcome {
    /// The log-likelihood ratio (over pairs) at that point.
    pub llr: f64,
    /// The decision: the first bound crossed, or [`SprtStatus::Continue`] if none was.
    pub status: SprtStatus,
    /// Games counted at that point. Games already in play when a bound is crossed still finish
    /// and count in the tally, but they do not change the decision.
    pub games: u32,
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

/// Plays the match; `on_game` sees each game as it finishes, with the results so far.
pub fn run_match(
    config: &MatchConfig,
    mut on_game: impl FnMut(&MatchGame, &Standing),
) -> Result<MatchSummary, MatchError> {
    // Start both engines once up front, so a bad command fails the match at once.
    let mut first_slots: [Option<Client>; 2] = [None, None];
    for (slot, spec) in first_slots.iter_mut().zip(&config.engines) {
        *slot = Some(
            Client::start(spec, config.log.clone(), config.ready_timeout)
                .map_err(MatchError::Engine)?,
        );
    }
    let schedule = Schedule::new(config);
    // Games already played (`--resume`) count first, and are skipped below.
    let mut standing = Standing::default();
    let mut done = BTreeSet::new();
    for g in &config.finished {
        if g.index < config.games && done.insert(g.index) {
            standing.add(g.index, g.points);
        }
    }
    let mut sprt_state = None;
    if let Some(sprt) = config.sprt
        && !done.is_empty()
    {
        let llr = standing.llr(&sprt);
        let status = sprt.decide(llr);
        let games = standing.tally.games();
        sprt_state = Some(SprtOutcome { llr, status, games });
    }
    let decided = sprt_state.is_some_and(|o| o.status != SprtStatus::Continue);
    let next = AtomicU32::new(0);
    let stop = AtomicBool::new(decided);
    let abort: Mutex<Option<String>> = Mutex::new(None);
    let (tx, rx) = channel::<MatchGame>();
    let left = config.games.saturating_sub(done.len() as u32).max(1);
    let workers = config.concurrency.max(1).min(left as usize);
    std::thread::scope(|scope| {
        let mut first_slots = Some(first_slots);
        for _ in 0..workers {
            let slots = first_slots.take().unwrap_or([None, None]);
            let tx = tx.clone();
            let (next, stop, abort, schedule, done) = (&next, &stop, &abort, &schedule, &done);
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
                    if done.contains(&i) {
                        continue;
                    }
                    let opening = schedule.opening(i);
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
            standing.add(report.number - 1, report.points);
            on_game(&report, &standing);
            if let Some(sprt) = config.sprt
                && sprt_state.is_none_or(|o: SprtOutcome| o.status == SprtStatus::Continue)
            {
                let llr = standing.llr(&sprt);
                let status = sprt.decide(llr);
                let games = standing.tally.games();
                sprt_state = Some(SprtOutcome { llr, status, games });
                if status != SprtStatus::Continue {
                    stop.store(true, Ordering::SeqCst);
                }
            }
        }
    });
    let mut stopped = abort.into_inner().unwrap_or_else(PoisonError::into_inner);
    if stopped.is_none()
        && let Some(outcome) = sprt_state
        && outcome.status != SprtStatus::Continue
        && outcome.games < config.games
    {
        stopped = Some(format!("SPRT: {}", outcome.status));
    }
    Ok(MatchSummary {
        tally: standing.tally,
        pairs: standing.pairs,
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
    fn play(&mut self, i: u32, opening: &Opening) -> MatchGame {
        let first_is_red = i.is_multiple_of(2);
        let order = if first_is_red { [0, 1] } else { [1, 0] };
        let names = order.map(|e| self.config.engines[e].name.clone());
        let mut forfeit = None;
        for (color, &engine) in Color::ALL.iter().zip(&order) {
            if let Err(e) = self.prepare(engine) {
                forfeit = Some(PlayedGame::forfeit(names.clone(), opening, *color, &e));
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
                        PlayedGame::forfeit(names, opening, Color::Red, &e)
                    }
                }
            }
        };
        let points = match record.outcome {
            Outcome::Draw => Points::Draw,
            Outcome::Win(c) if (c == Color::Red) == first_is_red => Points::Win,
            Outcome::Win(_) => Points::Loss,
        };
        MatchGame {
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
}
