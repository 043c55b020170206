//! `datagen`: self-play at a fixed node count on several threads, writing training records
//! (tools/src/data.rs) labelled with the search score and the game result, games ruled by our
//! own WXF judge; or, with `--master`, the positions of recorded games scored the same way.

mod master;

use crate::data::{self, DRAW, LOSS, WIN};
use crate::flags::Flags;
use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use xq::arena::openings::{self, Opening};
use xq::eval::EvalChoice;
use xq::movegen::legal_moves;
use xq::moves::Move;
use xq::nnue::Network;
use xq::position::Position;
use xq::referee::{Adjudicator, Rules, Verdict};
use xq::search::ordering::Heuristics;
use xq::search::score::Score;
use xq::search::time::Limits;
use xq::search::tt::TranspositionTable;
use xq::search::{self, SearchConfig, SearchContext, SearchRequest, Signals};
use xq::square::Color;

const USAGE: &str = "usage: xq-tools datagen --out DIR [--threads N] [--nodes N] [--games N] \
[--minutes M] [--seed S] [--prefix NAME] [--net FILE.nnue] [--openings FILE [--openings-share F]] \
[--master PATH... [--skip-plies N]]
  self-play from random 6-10 ply openings, or with --openings a share F (default 0.5) of the games
  from the file's lines (list, EPD or game records) and 0-2 random plies; each thread appends
  records to DIR/NAME-tT.bin; the handcrafted evaluation plays unless --net names a net file.
  --master: instead of self-play, score the positions of the recorded games under PATH (files or
  directories) from ply N (default 8) on, each labelled with its game's recorded result";

/// Settings of a run.
#[derive(Clone, Debug)]
struct Config {
    out: PathBuf,
    threads: usize,
    nodes: u64,
    games: Option<u64>,
    minutes: Option<f64>,
    seed: u64,
    prefix: String,
    eval: EvalChoice,
    /// Opening lines self-play starts from (a share of the games).
    openings: Vec<Opening>,
    openings_share: f64,
    /// Game files and directories whose positions are scored instead of self-play.
    master: Vec<PathBuf>,
    skip_plies: usize,
}

fn parse_args(args: &[String]) -> Result<Config, String> {
    let mut c = Config {
        out: PathBuf::from("data"),
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        nodes: 5000,
        games: None,
        minutes: None,
        seed: 1,
        prefix: "gen".to_string(),
        eval: EvalChoice::Handcrafted,
        openings: Vec::new(),
        openings_share: 0.5,
        master: Vec::new(),
        skip_plies: 8,
    };
    let mut flags = Flags::new(args, USAGE);
    while let Some(flag) = flags.next_flag()? {
        match flag {
            "--out" => c.out = PathBuf::from(flags.value(flag)?),
            "--threads" => c.threads = flags.parsed(flag)?,
            "--nodes" => c.nodes = flags.parsed(flag)?,
            "--games" => c.games = Some(flags.parsed(flag)?),
            "--minutes" => c.minutes = Some(flags.parsed(flag)?),
            "--seed" => c.seed = flags.parsed(flag)?,
            "--prefix" => c.prefix = flags.value(flag)?.to_string(),
            "--net" => {
                let v = flags.value(flag)?;
                let net = Network::load(v).map_err(|e| format!("{v}: {e}"))?;
                c.eval = EvalChoice::Nnue(Arc::new(net));
            }
            "--openings" => {
                let v = flags.value(flag)?;
                c.openings =
                    openings::load(std::path::Path::new(v), None).map_err(|e| e.to_string())?;
            }
            "--openings-share" => c.openings_share = flags.parsed(flag)?,
            "--master" => c.master = flags.values(flag)?.into_iter().map(PathBuf::from).collect(),
            "--skip-plies" => c.skip_plies = flags.parsed(flag)?,
            other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
        }
    }
    if c.threads == 0 || c.nodes == 0 {
        return Err(format!("--threads and --nodes must be positive\n{USAGE}"));
    }
    if !(0.0..=1.0).contains(&c.openings_share) {
        return Err(format!("--openings-share must be within 0 and 1\n{USAGE}"));
    }
    Ok(c)
}

/// SplitMix64: a small seeded generator, one per thread.
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

/// Counters shared by the threads.
#[derive(Default)]
struct Totals {
    games: AtomicU64,
    positions: AtomicU64,
    red_wins: AtomicU64,
    black_wins: AtomicU64,
    draws: AtomicU64,
    /// Self-play games left out, by why.
    left_out: [AtomicU64; LeftOut::COUNT],
    stop: AtomicBool,
}

/// Why a self-play game was left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LeftOut {
    /// The opening ended the game, or a line's move was illegal.
    Opening,
    /// The opening position was already won for one side (more than 400 centipawns).
    Unbalanced,
    /// A search was cut before its first iteration ended, so it had no score.
    SearchCut,
    /// The search returned a move the game refused.
    IllegalMove,
}

impl LeftOut {
    const COUNT: usize = 4;
}

const _: () = assert!(LeftOut::IllegalMove as usize + 1 == LeftOut::COUNT);

/// One thread's searcher state.
struct Player {
    tt: TranspositionTable,
    heur: Box<Heuristics>,
    config: SearchConfig,
}

impl Player {
    fn new(eval: EvalChoice) -> Player {
        Player {
            tt: TranspositionTable::new(16),
            heur: Heuristics::new(),
            config: SearchConfig {
                eval,
                ..SearchConfig::default()
            },
        }
    }

    fn new_game(&mut self) {
        self.tt.clear();
        self.heur = Heuristics::new();
    }

    /// Searches the game's current position with a node limit: best move and score for the side
    /// to move; none when the search was cut before its first iteration ended (it has no score).
    fn think(&mut self, game: &Adjudicator, nodes: u64) -> Option<(Move, i32)> {
        let signals = Signals::default();
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let request = SearchRequest {
            banned: &[],
            limits: &limits,
            config: &self.config,
        };
        let context = SearchContext {
            tt: &self.tt,
            signals: &signals,
        };
        let result = search::search(
            game.history(),
            &request,
            context,
            &mut self.heur,
            &mut |_| {},
        );
        if result.depth == 0 {
            return None;
        }
        result.best.map(|m| (m, result.score.0))
    }
}

/// The referee's rules for a generated game: the first ruling ends it (the default count of
/// occurrences makes a repetition), and it is drawn at 300 plies.
const RULES: Rules = Rules {
    ply_limit: Some(300),
    ..Rules::first_decision(Rules::DEFAULT.repetitions)
};

/// The start of a game: with probability `share` a line of `lines` and 0-2 random plies, else
/// 6-10 random plies from the start position; `None` if a side got mated on the way or a line's
/// move is illegal.
fn random_opening(rng: &mut SplitMix, lines: &[Opening], share: f64) -> Option<Adjudicator> {
    let from_lines = !lines.is_empty() && (rng.below(1 << 20) as f64) < share * f64::from(1 << 20);
    let (mut game, plies) = if from_lines {
        let line = &lines[rng.below(lines.len() as u64) as usize];
        let mut game = Adjudicator::new(line.start.clone(), RULES);
        for &m in &line.moves {
            if game.play(m).ok()?.is_some() {
                return None;
            }
        }
        (game, rng.below(3))
    } else {
        let game = Adjudicator::new(Position::startpos(), RULES);
        (game, 6 + rng.below(5))
    };
    for _ in 0..plies {
        let moves = legal_moves(game.history().position());
        if moves.is_empty() {
            return None;
        }
        let m = moves[rng.below(moves.len() as u64) as usize];
        if game.play(m).ok()?.is_some() {
            return None;
        }
    }
    Some(game)
}

/// A game's records and result, or why the game was left out.
type Batch = Result<(Vec<[u8; 32]>, Verdict), LeftOut>;

/// Plays one game; returns its records (result bytes filled in) and the winner, if any, or why
/// it was left out.
fn play_game(rng: &mut SplitMix, player: &mut Player, config: &Config) -> Batch {
    let nodes = config.nodes;
    let mut game =
        random_opening(rng, &config.openings, config.openings_share).ok_or(LeftOut::Opening)?;
    player.new_game();
    let (_, opening_score) = player.think(&game, 1000).ok_or(LeftOut::SearchCut)?;
    if opening_score.abs() > 400 {
        return Err(LeftOut::Unbalanced);
    }
    // Positions kept, with their side to move.
    let mut kept: Vec<([u8; 32], Color)> = Vec::new();
    let mut win_run = 0u32; // consecutive plies with |score| >= 2000 agreeing on the winner
    let mut win_side = Color::Red;
    let mut quiet_run = 0u32;
    let verdict = loop {
        if let Some(d) = game.decision() {
            break d.verdict;
        }
        let ply = game.plies();
        let pos = game.history().position().clone();
        let stm = pos.side_to_move();
        // No move with a score (the adjudicator has already decided when there is no legal
        // move): the game is left out.
        let (m, score) = player.think(&game, nodes).ok_or(LeftOut::SearchCut)?;
        if !pos.in_check() && keep(&pos, m, score) {
            kept.push((data::encode(&pos, score as i16, DRAW, ply), stm));
        }
        // Adjudication by score.
        let leader = if score >= 0 { stm } else { stm.flip() };
        if score.abs() >= 2000 {
            if win_run > 0 && leader == win_side {
                win_run += 1;
            } else {
                win_run = 1;
                win_side = leader;
            }
        } else {
            win_run = 0;
        }
        if win_run >= 6 {
            break Verdict::Win(win_side);
        }
        if ply >= 120 && score.abs() <= 20 {
            quiet_run += 1;
        } else {
            quiet_run = 0;
        }
        if quiet_run >= 20 {
            break Verdict::Draw;
        }
        if game.play(m).is_err() {
            // The search returned an illegal move: keep nothing from this game.
            return Err(LeftOut::IllegalMove);
        }
    };
    let records = kept
        .into_iter()
        .map(|(mut rec, stm)| {
            rec[30] = match verdict {
                Verdict::Win(c) if c == stm => WIN,
                Verdict::Win(_) => LOSS,
                _ => DRAW,
            };
            rec
        })
        .collect();
    Ok((records, verdict))
}

/// Whether a searched position makes a training record: the search's move is no capture and the
/// score is no mate, no repetition ruling and below 2,500 (the position's check is the caller's).
fn keep(pos: &Position, best: Move, score: i32) -> bool {
    let mate = Score(score).is_mate() || score.abs() >= xq::search::score::REPETITION_LOSS;
    pos.captured(best).is_none() && !mate && score.abs() < 2500
}

/// The recorded games of a `--master` run, shared by the threads, each taken once.
struct MasterQueue {
    games: Vec<master::MasterGame>,
    next: AtomicUsize,
}

/// The next batch of records of a worker: a self-play game, or the next recorded game's
/// positions; `None` when the recorded games are all done.
fn next_batch(
    rng: &mut SplitMix,
    player: &mut Player,
    config: &Config,
    queue: Option<&MasterQueue>,
) -> Option<Batch> {
    match queue {
        None => Some(play_game(rng, player, config)),
        Some(q) => {
            let game = q.games.get(q.next.fetch_add(1, Ordering::Relaxed))?;
            let records = master::score_game(game, player, config.nodes, config.skip_plies);
            let verdict = match game.result {
                xq::record::RecordedResult::Win(c) => Verdict::Win(c),
                xq::record::RecordedResult::Draw => Verdict::Draw,
            };
            Some(Ok((records, verdict)))
        }
    }
}

fn worker(
    id: usize,
    config: &Config,
    totals: &Totals,
    queue: Option<&MasterQueue>,
) -> Result<(), String> {
    let path = config.out.join(format!("{}-t{}.bin", config.prefix, id));
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = BufWriter::new(file);
    let mut rng = SplitMix::new(config.seed.wrapping_mul(1_000_003).wrapping_add(id as u64));
    let mut player = Player::new(config.eval.clone());
    while !totals.stop.load(Ordering::Relaxed) {
        let Some(batch) = next_batch(&mut rng, &mut player, config, queue) else {
            break;
        };
        let (records, verdict) = match batch {
            Ok(game) => game,
            Err(why) => {
                totals.left_out[why as usize].fetch_add(1, Ordering::Relaxed);
                continue;
            }
        };
        for r in &records {
            out.write_all(r)
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
        out.flush()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        totals
            .positions
            .fetch_add(records.len() as u64, Ordering::Relaxed);
        match verdict {
            Verdict::Win(Color::Red) => &totals.red_wins,
            Verdict::Win(Color::Black) => &totals.black_wins,
            _ => &totals.draws,
        }
        .fetch_add(1, Ordering::Relaxed);
        let games = totals.games.fetch_add(1, Ordering::Relaxed) + 1;
        if config.games.is_some_and(|g| games >= g) {
            totals.stop.store(true, Ordering::Relaxed);
        }
    }
    Ok(())
}

/// Runs the tool.
pub fn main(args: &[String]) -> Result<(), String> {
    let config = parse_args(args)?;
    std::fs::create_dir_all(&config.out).map_err(|e| format!("{}: {e}", config.out.display()))?;
    let queue = if config.master.is_empty() {
        None
    } else {
        let collection = master::load(&config.master);
        for e in &collection.unreadable {
            eprintln!("not used: {e}");
        }
        eprintln!(
            "{} recorded games with a result ({} without one left out, {} unreadable)",
            collection.games.len(),
            collection.without_result,
            collection.unreadable.len()
        );
        let mut games = collection.games;
        // The same seed gives the same order, so a run cut short covers a random sample.
        let mut rng = SplitMix::new(config.seed);
        for i in (1..games.len()).rev() {
            games.swap(i, rng.below(i as u64 + 1) as usize);
        }
        Some(MasterQueue {
            games,
            next: AtomicUsize::new(0),
        })
    };
    let totals = Arc::new(Totals::default());
    let start = Instant::now();
    let deadline = config
        .minutes
        .map(|m| start + Duration::from_secs_f64(m * 60.0));
    let errors = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..config.threads)
            .map(|id| {
                let (config, totals, queue) = (&config, &totals, queue.as_ref());
                scope.spawn(move || worker(id, config, totals, queue))
            })
            .collect();
        let mut last_report = 0;
        while !handles.iter().all(|h| h.is_finished()) {
            std::thread::sleep(Duration::from_millis(500));
            if deadline.is_some_and(|d| Instant::now() >= d) {
                totals.stop.store(true, Ordering::Relaxed);
            }
            let minutes = start.elapsed().as_secs() / 60;
            if minutes > last_report {
                last_report = minutes;
                progress(&totals, start);
            }
        }
        handles
            .into_iter()
            .filter_map(|h| h.join().ok().and_then(Result::err))
            .collect::<Vec<_>>()
    });
    progress(&totals, start);
    if let Some(e) = errors.first() {
        return Err(e.clone());
    }
    Ok(())
}

fn progress(totals: &Totals, start: Instant) {
    let secs = start.elapsed().as_secs_f64().max(1e-3);
    let positions = totals.positions.load(Ordering::Relaxed);
    let left_out = |why: LeftOut| totals.left_out[why as usize].load(Ordering::Relaxed);
    eprintln!(
        "{:.0}s games {} (red {} black {} draw {}) positions {} ({:.0}/s); left out: \
         opening {} unbalanced {} search cut {} illegal move {}",
        secs,
        totals.games.load(Ordering::Relaxed),
        totals.red_wins.load(Ordering::Relaxed),
        totals.black_wins.load(Ordering::Relaxed),
        totals.draws.load(Ordering::Relaxed),
        positions,
        positions as f64 / secs,
        left_out(LeftOut::Opening),
        left_out(LeftOut::Unbalanced),
        left_out(LeftOut::SearchCut),
        left_out(LeftOut::IllegalMove),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_yield_decodable_records_labelled_by_the_result() {
        let mut rng = SplitMix::new(7);
        let mut player = Player::new(EvalChoice::Handcrafted);
        let mut played = 0;
        let config = parse_args(&["--nodes".to_string(), "300".to_string()]).unwrap();
        for _ in 0..20 {
            let Ok((records, verdict)) = play_game(&mut rng, &mut player, &config) else {
                continue;
            };
            played += 1;
            for bytes in &records {
                let rec = data::decode(bytes).expect("datagen writes valid records");
                assert!(rec.pieces.iter().filter(|&&(c, _)| c % 7 == 0).count() == 2);
                assert!(rec.score.abs() < 2500);
                if verdict == Verdict::Draw {
                    assert_eq!(rec.result, DRAW);
                } else {
                    assert_ne!(rec.result, DRAW);
                }
            }
            if played == 2 {
                break;
            }
        }
        assert!(played > 0);
    }

    #[test]
    fn openings_start_a_share_of_the_games() {
        let lines = openings::parse("h2e2 h9g7 h0g2 i9h9\n", "test").unwrap();
        let mut rng = SplitMix::new(3);
        for _ in 0..20 {
            let from_line = random_opening(&mut rng, &lines, 1.0).unwrap();
            assert!((4..=6).contains(&from_line.history().plies()));
            if let Some(random) = random_opening(&mut rng, &lines, 0.0) {
                assert!((6..=10).contains(&random.history().plies()));
            }
        }
    }
}
