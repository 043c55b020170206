//! The search: iterative deepening over PVS negamax with the WXF judge inside, on one or more
//! threads sharing a transposition table (lazy SMP). Reports go to a callback; nothing here prints.

pub mod alphabeta;
pub mod ordering;
pub mod score;
pub mod skill;
pub mod time;
pub mod tt;

use crate::eval::{EvalChoice, Evaluator};
use crate::judge::History;
use crate::movegen::legal_moves;
use crate::moves::Move;
use ordering::{Heuristics, MAX_PLY};
use score::Score;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use time::{Budget, Limits, MoveClock, Steadiness};
use tt::TranspositionTable;

/// Settings of one search.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// How many best lines to report.
    pub multipv: usize,
    /// Time kept back for communication (none unless set; the engine sets it from its
    /// `Move Overhead` option).
    pub move_overhead: Duration,
    /// Number of threads.
    pub threads: usize,
    /// The evaluation.
    pub eval: EvalChoice,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            multipv: 1,
            move_overhead: Duration::ZERO,
            threads: 1,
            eval: EvalChoice::default(),
        }
    }
}

/// One line of search progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Which line (1 = best).
    pub multipv: u32,
    /// Its score.
    pub score: Score,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Transposition table use, permille.
    pub hashfull: u32,
    /// The line.
    pub pv: Vec<Move>,
}

/// The root move the search has just started on (shown on long searches).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CurrentMove {
    /// The depth being searched.
    pub depth: u32,
    /// The root move.
    pub mv: Move,
    /// Its place in the root's order, from 1.
    pub number: u32,
}

/// What a search tells its caller while it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// A line of a completed depth. A depth's lines come together, numbered from 1 in order of
    /// score, best first.
    Line(SearchInfo),
    /// After a stop inside a depth, the line of the move the search plays, when it is not the
    /// last line 1 reported: the depth cut short found a new best move or a new score for it, and
    /// this line carries that depth.
    Cut(SearchInfo),
    /// The root move now searched, once the search has run [`SHOW_CURRENT_MOVE_AFTER`].
    CurrentMove(CurrentMove),
}

/// Searches longer than this report each root move as they start it.
pub const SHOW_CURRENT_MOVE_AFTER: Duration = Duration::from_secs(3);

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when there is no legal move.
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// The best move's score.
    pub score: Score,
    /// Completed depth.
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// The threads that searched: fewer than asked for when the system would not start more;
    /// none for a move from the book.
    pub threads: usize,
}

/// State shared by the threads of one search and the engine that started it.
#[derive(Default)]
pub struct Signals {
    /// Set to stop at once.
    pub stop: AtomicBool,
    /// Set while pondering: the search answers only after `ponderhit` (or `stop`).
    pub pondering: AtomicBool,
    /// When the move's clock started: at the search's start, or at `ponderhit`.
    pub clock: MoveClock,
    /// Nodes searched by all threads.
    pub nodes: AtomicU64,
}

/// Nodes the first iteration may always take under a node limit, however small the limit, so
/// that it finishes with a real score (it may also take 16 times the limit).
const FIRST_ITERATION_NODES: u64 = 1 << 20;

/// A root move with its last score.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub(crate) mv: Move,
    pub(crate) score: i32,
    pub(crate) previous: i32,
    pub(crate) pv: Vec<Move>,
    /// This thread's nodes under this move in the current iteration.
    pub(crate) nodes: u64,
}

/// One thread's search state.
pub struct Searcher<'a> {
    pub(crate) history: History,
    pub(crate) root_ply: usize,
    pub(crate) eval: Evaluator,
    pub(crate) tt: &'a TranspositionTable,
    pub(crate) signals: &'a Signals,
    pub(crate) heur: Box<Heuristics>,
    pub(crate) limits: Limits,
    pub(crate) budget: Budget,
    pub(crate) start: Instant,
    pub(crate) config: SearchConfig,
    pub(crate) nodes: u64,
    pub(crate) reported_nodes: u64,
    pub(crate) seldepth: usize,
    pub(crate) stopped: bool,
    pub(crate) main: bool,
    pub(crate) static_evals: [i32; MAX_PLY + 4],
    pub(crate) pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pub(crate) pv_len: [usize; MAX_PLY + 2],
    pub(crate) root_moves: Vec<RootMove>,
    pub(crate) pv_index: usize,
    pub(crate) helper_offset: i32,
    pub(crate) completed_depth: u32,
    /// The depth of the iteration being searched.
    pub(crate) iteration_depth: u32,
    /// The score and line of the last line 1 reported.
    pub(crate) reported: Option<(i32, Vec<Move>)>,
    /// Nodes between checks of the limits.
    pub(crate) check_every: u64,
}

impl<'a> Searcher<'a> {
    /// A thread's searcher of `history` (its own copy of the game), the main thread's when `main`;
    /// `start` is when the search started.
    fn new(
        history: History,
        request: &SearchRequest<'_>,
        context: SearchContext<'a>,
        heur: Box<Heuristics>,
        main: bool,
        start: Instant,
    ) -> Searcher<'a> {
        let SearchContext { tt, signals } = context;
        let (limits, config) = (request.limits.clone(), request.config.clone());
        let root_ply = history.plies();
        let root_moves: Vec<RootMove> = legal_moves(history.position())
            .into_iter()
            .filter(|m| !request.banned.contains(m))
            .filter(|m| limits.search_moves.is_empty() || limits.search_moves.contains(m))
            .map(|mv| RootMove {
                mv,
                score: -score::INFINITE,
                previous: -score::INFINITE,
                pv: vec![mv],
                nodes: 0,
            })
            .collect();
        let budget = Budget::new(&limits, config.move_overhead);
        let check_every = limits.nodes.map_or(1024, |n| (n / 16).clamp(16, 1024));
        let eval = Evaluator::new(&config.eval, history.position());
        Searcher {
            history,
            root_ply,
            eval,
            tt,
            signals,
            heur,
            limits,
            budget,
            start,
            config,
            nodes: 0,
            reported_nodes: 0,
            seldepth: 0,
            stopped: false,
            main,
            static_evals: [0; MAX_PLY + 4],
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 2],
            root_moves,
            pv_index: 0,
            helper_offset: 0,
            completed_depth: 0,
            iteration_depth: 0,
            reported: None,
            check_every,
        }
    }

    /// Counts a node and checks limits now and then; true once the search must stop.
    #[inline]
    pub(crate) fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        // Every 1024 nodes or so (the counter moves by more than one between calls), more often
        // under a small node limit so that it is kept.
        if self.nodes - self.reported_nodes >= self.check_every {
            let new = self.nodes - self.reported_nodes;
            self.reported_nodes = self.nodes;
            let total = self.signals.nodes.fetch_add(new, Ordering::Relaxed) + new;
            if self.main && self.completed_depth == 0 {
                // The first iteration finishes, so there is a move and a score to give, unless
                // the hard deadline passes first, or a node limit many times over (a long chain
                // of checks answered by checks can grow even a depth-1 tree without bound): the
                // clock and the limit outrank the score, and the best root move searched so far
                // (the first in move order if none) is played.
                let runaway = self
                    .limits
                    .nodes
                    .is_some_and(|n| total >= n.saturating_mul(16).max(FIRST_ITERATION_NODES));
                if runaway || self.signals.clock.past(self.budget.hard) {
                    self.stopped = true;
                    self.signals.stop.store(true, Ordering::Relaxed);
                }
            } else if self.signals.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            } else if self.main {
                let over_nodes = self.limits.nodes.is_some_and(|n| total >= n);
                let over_time = self.signals.clock.past(self.budget.hard);
                if over_nodes || over_time {
                    self.stopped = true;
                    self.signals.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        self.stopped
    }

    fn flush_nodes(&mut self) {
        let new = self.nodes - self.reported_nodes;
        self.reported_nodes = self.nodes;
        self.signals.nodes.fetch_add(new, Ordering::Relaxed);
    }

    /// Iterative deepening. The main thread reports after each completed depth.
    fn iterate(&mut self, report: &mut dyn FnMut(Progress)) -> (u32, usize) {
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 4)
            .clamp(1, MAX_PLY as u32 - 4) as i32;
        let mut completed = 0;
        let mut best_index = 0;
        if self.root_moves.is_empty() {
            return (0, 0);
        }
        let multipv = self.config.multipv.clamp(1, self.root_moves.len());
        let mut steadiness = Steadiness::default();
        for depth in (1 + self.helper_offset)..=max_depth {
            self.iteration_depth = depth as u32;
            for rm in &mut self.root_moves {
                rm.previous = rm.score;
                rm.nodes = 0;
            }
            for pv_index in 0..multipv {
                self.pv_index = pv_index;
                self.seldepth = 0;
                self.search_root_with_aspiration(depth, report);
                if self.stopped {
                    break;
                }
                // Keep lines above pv_index sorted best first.
                self.root_moves[pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            }
            if self.stopped {
                // A partial iteration still counts if its first move was searched fully.
                break;
            }
            // Each line was searched with the better ones left out, so a later line can come out
            // a little above an earlier one: the lines are ordered by score (mates included, as
            // scores order them) before they are numbered. A stable sort keeps ties in search
            // order, and one line is already in order.
            self.root_moves[..multipv].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            completed = depth as u32;
            self.completed_depth = completed;
            best_index = 0;
            if self.main {
                self.flush_nodes();
                self.reported = Some((self.root_moves[0].score, self.root_moves[0].pv.clone()));
                for i in 0..multipv {
                    let rm = &self.root_moves[i];
                    report(Progress::Line(SearchInfo {
                        depth: depth as u32,
                        seldepth: self.seldepth.max(depth as usize) as u32,
                        multipv: i as u32 + 1,
                        score: Score(rm.score),
                        nodes: self.signals.nodes.load(Ordering::Relaxed),
                        time: self.start.elapsed(),
                        hashfull: self.tt.hashfull(),
                        pv: rm.pv.clone(),
                    }));
                }
                // With one line, how settled the search is scales a clock's soft budget; with
                // several (strength levels among them) the budget stays as the clock gives it.
                let scale = if multipv == 1 && self.budget.scalable {
                    let best = &self.root_moves[0];
                    let total: u64 = self.root_moves.iter().map(|rm| rm.nodes).sum();
                    let share = best.nodes as f64 / total.max(1) as f64;
                    steadiness.record(best.mv, best.score, share)
                } else {
                    1.0
                };
                if self.time_to_stop_after_iteration(scale) {
                    break;
                }
            }
            // A mate either way is settled once the search is well past its distance.
            let best = self.root_moves[0].score;
            if Score(best).is_mate() && depth > 2 * (score::MATE - best.abs()) + 2 {
                break;
            }
        }
        (completed, best_index)
    }

    /// Whether the clock has passed the soft budget scaled by `scale` (never past the hard one).
    fn time_to_stop_after_iteration(&self, scale: f64) -> bool {
        let soft = self
            .budget
            .soft
            .map(|soft| soft.mul_f64(scale).min(self.budget.hard.unwrap_or(soft)));
        self.signals.clock.past(soft)
    }
}

/// What a search of a game is asked: the root moves it leaves out, its limits and its settings.
#[derive(Clone, Copy, Debug)]
pub struct SearchRequest<'a> {
    /// Root moves not to play (besides those `limits.search_moves` leaves out).
    pub banned: &'a [Move],
    /// When to stop, and which root moves to search.
    pub limits: &'a Limits,
    /// The lines, threads and evaluation.
    pub config: &'a SearchConfig,
}

/// What the threads of a search share with each other and with the engine that started it.
#[derive(Clone, Copy)]
pub struct SearchContext<'a> {
    /// The transposition table.
    pub tt: &'a TranspositionTable,
    /// Stop, ponder, the move's clock and the node count.
    pub signals: &'a Signals,
}

/// Runs a search of `history`'s position to completion on the calling thread plus
/// `config.threads - 1` helpers and returns the best move. `heur` carries the move-ordering
/// heuristics from one search to the next; `report` receives progress from the main thread.
pub fn search(
    history: &History,
    request: &SearchRequest<'_>,
    context: SearchContext<'_>,
    heur: &mut Box<Heuristics>,
    report: &mut dyn FnMut(Progress),
) -> SearchResult {
    let SearchContext { tt, signals } = context;
    let (limits, config) = (request.limits, request.config);
    let start = Instant::now();
    if !limits.ponder {
        // A ponder search's clock starts at `ponderhit`, which the engine signals.
        signals.clock.start(start);
    }
    tt.new_search();
    signals.nodes.store(0, Ordering::Relaxed);
    let threads = config.threads.max(1);
    let main_heur = std::mem::replace(heur, Heuristics::new());
    let (result, main_heur_back) = std::thread::scope(|scope| {
        let mut helpers = Vec::new();
        for t in 1..threads {
            let history = history.clone();
            // A helper the system cannot start (a thread or memory limit) is done without.
            let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                let mut s =
                    Searcher::new(history, request, context, Heuristics::new(), false, start);
                // Helpers search on until the main thread stops them; odd helpers skip the first
                // depth so the threads spread over the tree.
                s.limits.depth = None;
                s.helper_offset = (t % 2) as i32;
                s.iterate(&mut |_| {});
                s.flush_nodes();
            });
            match spawned {
                Ok(helper) => helpers.push(helper),
                Err(_) => break,
            }
        }
        let threads = 1 + helpers.len();
        let mut main = Searcher::new(history.clone(), request, context, main_heur, true, start);
        let (depth, best_index) = main.iterate(report);
        // A ponder search answers only after ponderhit or stop (both end the pondering), even when
        // it reached its depth or node limit first; an infinite search waits for stop.
        while signals.pondering.load(Ordering::Relaxed)
            || (limits.infinite && !signals.stop.load(Ordering::Relaxed))
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        signals.stop.store(true, Ordering::Relaxed);
        for h in helpers {
            let _ = h.join();
        }
        main.flush_nodes();
        let rm = main.root_moves.get(best_index);
        // A search stopped inside an iteration ends with the line it will play, so a client
        // that shows the last line shows the move that comes; nothing is repeated when the cut
        // depth changed nothing.
        if main.stopped
            && depth > 0
            && let Some(rm) = rm
            && main
                .reported
                .as_ref()
                .is_none_or(|(score, pv)| *score != rm.score || *pv != rm.pv)
        {
            report(Progress::Cut(SearchInfo {
                depth: depth + 1,
                seldepth: main.seldepth.max(depth as usize) as u32,
                multipv: 1,
                score: Score(rm.score),
                nodes: signals.nodes.load(Ordering::Relaxed),
                time: start.elapsed(),
                hashfull: tt.hashfull(),
                pv: rm.pv.clone(),
            }));
        }
        let result = SearchResult {
            best: rm.map(|r| r.mv),
            ponder: rm.and_then(|r| r.pv.get(1).copied()),
            score: Score(rm.map_or(score::Score::mated_in(0).0, |r| r.score)),
            depth,
            nodes: signals.nodes.load(Ordering::Relaxed),
            threads,
        };
        let h = std::mem::replace(&mut main.heur, Heuristics::new());
        (result, h)
    });
    *heur = main_heur_back;
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Rules;
    use crate::position::Position;

    /// The first iteration is cut at the hard deadline (not at the soft one, and not by a node
    /// count), so a search that starts with too little time still answers in time.
    #[test]
    fn the_hard_deadline_cuts_the_first_iteration() {
        let history = History::new(Position::startpos(), Rules::default());
        let tt = TranspositionTable::new(1);
        let signals = Signals::default();
        // One set of signals for each node-limit case below.
        let fresh: Vec<Signals> = (0..5).map(|_| Signals::default()).collect();
        let within = |ms| Limits {
            movetime: Some(Duration::from_millis(ms)),
            ..Limits::default()
        };
        let start = Instant::now();
        let config = SearchConfig::default();
        let searcher = |signals, limits| {
            let request = SearchRequest {
                banned: &[],
                limits: &limits,
                config: &config,
            };
            let context = SearchContext { tt: &tt, signals };
            Searcher::new(
                history.clone(),
                &request,
                context,
                Heuristics::new(),
                true,
                start,
            )
        };
        // Before the deadline the first iteration goes on, however many nodes it takes.
        signals.clock.start(Instant::now());
        let mut s = searcher(&signals, within(60_000));
        s.nodes = 1 << 20;
        assert!(!s.should_stop());
        // A node limit lets it run on to a score, but not without end.
        let nodes = |n| Limits {
            nodes: Some(n),
            ..Limits::default()
        };
        let cases = [
            (1, 1 << 19, false),
            (5_000, FIRST_ITERATION_NODES - 1_000, false),
            (5_000, FIRST_ITERATION_NODES + 1_000, true),
            (1 << 20, 15 << 20, false),
            (1 << 20, 17 << 20, true),
        ];
        for (signals, (limit, taken, stops)) in fresh.iter().zip(cases) {
            let mut s = searcher(signals, nodes(limit));
            s.nodes = taken;
            assert_eq!(s.should_stop(), stops, "limit {limit}, {taken} nodes");
        }
        // Past it, the first iteration stops and tells the helpers.
        std::thread::sleep(Duration::from_millis(10));
        let mut s = searcher(&signals, within(5));
        s.nodes = 4096;
        assert!(s.should_stop());
        assert!(signals.stop.load(Ordering::Relaxed));
        // A root iteration cut at once still leaves a legal move to play.
        let (depth, best) = s.iterate(&mut |_| {});
        assert_eq!(depth, 0);
        assert!(history.position().is_legal(s.root_moves[best].mv));
    }
}
