//! `Engine`: owns the game (start position and moves), the transposition table and
//! the options; runs searches on a worker thread and hands progress to a callback. It answers the
//! questions the protocols ask about the game (hash probes, perft, the draw or resign decision)
//! and never prints.

use crate::book::{Book, BookMove};
use crate::eval::EvalChoice;
use crate::game::Game;
use crate::judge::{History, RuleSet, Rules};
use crate::movegen::legal_moves;
use crate::moves::{IllegalMove, Move};
use crate::nnue::Network;
use crate::options::{OptionError, OptionNote, OptionSpec, OptionValue};
use crate::position::Position;
use crate::search::ordering::Heuristics;
use crate::search::score::Score;
use crate::search::tt::{Bound, TranspositionTable};
use crate::search::{
    self, CurrentMove, Progress, SearchConfig, SearchContext, SearchInfo, SearchRequest,
    SearchResult, Signals,
};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

mod offer;
mod settings;

pub use crate::search::skill::MAX_LEVEL as MAX_SKILL_LEVEL;
pub use crate::search::time::Limits;
pub use offer::Offer;
pub use settings::SKILL_LEVEL;
use settings::{BookUse, ENGINE_OPTIONS, Evaluation, Strength};

/// What a running search tells the front end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// Progress after a completed depth.
    Info(SearchInfo),
    /// The root move the search has just started on (long searches).
    CurrentMove(CurrentMove),
    /// The move comes from the opening book, with how masters fared with it; the `BestMove`
    /// report follows.
    Book(BookMove),
    /// The search has ended; the front end answers with this move.
    BestMove(SearchResult),
}

/// A callback receiving reports, called from the search thread.
pub type Reporter = Box<dyn FnMut(Report) + Send>;

/// Why a search could not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoError {
    /// Moves given for the root (to search or to ban) are not legal in the position.
    MovesNotLegal {
        /// The moves.
        moves: Vec<Move>,
        /// The position, as FEN.
        fen: String,
    },
    /// The system would not start the search's thread.
    NoThread(String),
}

/// What the hash table knows about a position (UCCI `probe`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashProbe {
    /// The best or refuting move stored, if any.
    pub best: Option<Move>,
    /// The stored score, for the side to move.
    pub score: Score,
    /// The depth it was searched to.
    pub depth: u32,
    /// The score is a lower bound (true for exact scores too).
    pub lower_bound: bool,
    /// The score is an upper bound (true for exact scores too).
    pub upper_bound: bool,
}

/// The deepest perft the engine runs for a protocol's debug command (deeper counts: `xq perft`).
pub const MAX_PROTOCOL_PERFT: u32 = 4;

/// The engine.
pub struct Engine {
    game: Game,
    /// The repetition rules the judge reads in search (option `RepetitionRule`).
    rules: Rules,
    banned: Vec<Move>,
    config: SearchConfig,
    /// The net for the NNUE evaluation; `None` until one is needed (then the embedded net).
    net: Option<Arc<Network>>,
    /// Net or handcrafted (option `Evaluation`).
    evaluation: Evaluation,
    /// The opening book and how it is used (options `OwnBook`, `BookFile`, `BookVariety`).
    book: BookUse,
    strength: Strength,
    /// Random numbers for the book and for play below full strength.
    rng: SmallRng,
    /// The hash table, shared with the running search; lock-free, so `probe` reads it while a
    /// search writes it.
    tt: Arc<TranspositionTable>,
    /// The move-ordering statistics, held by the running search.
    heur: Arc<Mutex<Box<Heuristics>>>,
    signals: Arc<Signals>,
    worker: Option<JoinHandle<()>>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine at the start position with every option at its default.
    pub fn new() -> Engine {
        let mut engine = Engine {
            game: Game::new(Position::startpos()),
            rules: Rules::default(),
            banned: Vec::new(),
            config: SearchConfig::default(),
            net: None,
            // These settings, the search's and the hash table follow the option table's defaults,
            // applied below.
            evaluation: Evaluation::Nnue,
            book: BookUse::default(),
            strength: Strength::default(),
            // Seeded from the clock, so games from the same position differ.
            rng: SmallRng::seed_from_u64(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64),
            ),
            tt: Arc::new(TranspositionTable::new(1)),
            heur: Arc::new(Mutex::new(Heuristics::new())),
            signals: Arc::new(Signals::default()),
            worker: None,
        };
        for spec in ENGINE_OPTIONS {
            if let Some(value) = spec.default_value() {
                engine
                    .apply(spec, value)
                    .expect("the option table's defaults apply");
            }
        }
        engine
    }

    /// The options the engine understands.
    pub fn options() -> &'static [OptionSpec<Engine>] {
        ENGINE_OPTIONS
    }

    /// Sets an option by its UCI name; the value is validated. Waits for a running search
    /// first. A note says how the option was set when it could not be set quite as asked.
    pub fn set_option(
        &mut self,
        name: &str,
        value: &str,
    ) -> Result<Option<OptionNote>, OptionError> {
        let spec = OptionSpec::find_uci(ENGINE_OPTIONS, name)
            .ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let value = spec.parse(value)?;
        self.apply(spec, value)
    }

    /// Sets one of the engine's options (from [`Engine::options`]) to a checked value. Waits for
    /// a running search first. A note says how the option was set when it could not be set
    /// quite as asked (a hash table that did not fit).
    pub fn apply(
        &mut self,
        spec: &OptionSpec<Engine>,
        value: OptionValue,
    ) -> Result<Option<OptionNote>, OptionError> {
        self.wait();
        spec.apply(self, value)
    }

    /// Makes the judge, and with it the search, follow the rule set.
    fn set_rule_set(&mut self, set: RuleSet) {
        self.rules.set = set;
    }

    /// The repetition rules the judge reads in search.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The game as the judge's history, for the search and the book's repetition check.
    fn judge_history(&self) -> History {
        let mut history = History::new(self.game.start().clone(), self.rules);
        for &m in self.game.moves() {
            history.push_legal(m);
        }
        history
    }

    /// The book move `go` would play now, if the book is on and has one: not for an infinite or
    /// pondering search, nor when the root moves are restricted; never a banned move or one the
    /// judge rules a lost repetition.
    fn book_move(&mut self, limits: &Limits) -> Option<BookMove> {
        if !self.book.on || limits.infinite || limits.ponder || !limits.search_moves.is_empty() {
            return None;
        }
        let book = self
            .book
            .file
            .as_ref()
            .map_or_else(|| Book::embedded(), |(_, book)| book.as_ref());
        let losing =
            crate::judge::losing_moves(&self.judge_history(), crate::judge::GAME_REPETITIONS);
        book.choose(
            self.game.position(),
            &self.banned,
            &losing,
            self.book.variety,
            &mut self.rng,
        )
    }

    /// Makes the search settings follow the `Evaluation` and `EvalFile` options.
    fn update_eval(&mut self) {
        self.config.eval = match self.evaluation {
            Evaluation::Nnue => {
                EvalChoice::Nnue(self.net.get_or_insert_with(Network::embedded).clone())
            }
            Evaluation::Handcrafted => EvalChoice::Handcrafted,
        };
    }

    /// The static evaluation of `pos` for its side to move, in centipawns, with the evaluation
    /// the search uses.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.config.eval.evaluate(pos)
    }

    fn lock_heuristics(&self) -> std::sync::MutexGuard<'_, Box<Heuristics>> {
        self.heur.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Forgets everything learnt in the last game (hash table, move-ordering statistics).
    pub fn new_game(&mut self) {
        self.wait();
        self.tt.clear();
        self.lock_heuristics().clear();
    }

    /// Sets the game: a start position and the moves played from it. On an illegal move the
    /// game keeps the legal moves before it, and the error names the move and its ply.
    pub fn set_position(&mut self, start: Position, moves: &[Move]) -> Result<(), IllegalMove> {
        self.wait();
        self.banned.clear();
        let mut game = Game::new(start);
        let mut outcome = Ok(());
        for &m in moves {
            if let Err(e) = game.push(m) {
                outcome = Err(e);
                break;
            }
        }
        self.game = game;
        outcome
    }

    /// Swaps the colours of the current position (a debug command); the moves before it are
    /// dropped.
    pub fn flip(&mut self) {
        let flipped = self.position().color_swap();
        // The mirror of a legal position is legal, and no moves are replayed.
        let _ = self.set_position(flipped, &[]);
    }

    /// The search threads asked for (the `Threads` option).
    pub fn threads(&self) -> usize {
        self.config.threads.max(1)
    }

    /// The game's current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The game so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Root moves the next search must not play (UCCI `banmoves`); cleared by `set_position`.
    /// Moves that are not legal here are refused, and the legal ones still banned.
    pub fn ban_moves(&mut self, moves: Vec<Move>) -> Result<(), GoError> {
        let legal = legal_moves(self.position());
        let (ok, bad): (Vec<Move>, Vec<Move>) = moves.into_iter().partition(|m| legal.contains(m));
        self.banned = ok;
        if bad.is_empty() {
            Ok(())
        } else {
            Err(self.not_legal(bad))
        }
    }

    fn not_legal(&self, moves: Vec<Move>) -> GoError {
        GoError::MovesNotLegal {
            moves,
            fen: self.position().to_string(),
        }
    }

    /// Leaf counts after each legal move of the current position, to `depth` plies (at most
    /// [`MAX_PROTOCOL_PERFT`]; deeper asks are cut to it).
    pub fn perft_divide(&self, depth: u32) -> Vec<(Move, u64)> {
        crate::perft::divide(self.position(), depth.min(MAX_PROTOCOL_PERFT))
    }

    /// Starts a search on a worker thread. Reports arrive through `reporter`, ending with exactly
    /// one `BestMove`. Refused, with nothing started, if `limits.search_moves` holds a move that
    /// is not legal here.
    pub fn go(&mut self, limits: Limits, mut reporter: Reporter) -> Result<(), GoError> {
        self.wait();
        let legal = legal_moves(self.position());
        let bad: Vec<Move> = limits
            .search_moves
            .iter()
            .copied()
            .filter(|m| !legal.contains(m))
            .collect();
        if !bad.is_empty() {
            return Err(self.not_legal(bad));
        }
        if let Some(choice) = self.book_move(&limits) {
            let worker = std::thread::Builder::new().spawn(move || {
                reporter(Report::Book(choice));
                reporter(Report::BestMove(SearchResult {
                    best: Some(choice.mv),
                    ponder: None,
                    score: Score(0),
                    depth: 0,
                    nodes: 0,
                    // Nothing was searched.
                    threads: 0,
                }));
            });
            self.worker = Some(worker.map_err(|e| GoError::NoThread(e.to_string()))?);
            return Ok(());
        }
        self.signals.stop.store(false, Ordering::Relaxed);
        self.signals
            .pondering
            .store(limits.ponder, Ordering::Relaxed);
        self.signals.clock.reset();
        let (history, banned, mut config) = (
            self.judge_history(),
            self.banned.clone(),
            self.config.clone(),
        );
        // Below full strength: capped limits and more lines to choose from; the client still
        // sees only the lines it asked for.
        let skill = self.strength.skill();
        let limits = skill.limit(limits);
        let shown = config.multipv;
        config.multipv = config.multipv.max(skill.lines());
        let mut rng = SmallRng::from_rng(&mut self.rng);
        let (tt, heur, signals) = (self.tt.clone(), self.heur.clone(), self.signals.clone());
        let worker = std::thread::Builder::new().spawn(move || {
            let mut heur = heur.lock().unwrap_or_else(|e| e.into_inner());
            let mut lines: Vec<SearchInfo> = Vec::new();
            let request = SearchRequest {
                banned: &banned,
                limits: &limits,
                config: &config,
            };
            let context = SearchContext {
                tt: &tt,
                signals: &signals,
            };
            let mut report = |progress: Progress| match progress {
                Progress::Line(info) => {
                    if !skill.is_full() {
                        // Each depth's lines come together, best first.
                        if info.multipv == 1 {
                            lines.clear();
                        }
                        lines.push(info.clone());
                    }
                    if info.multipv as usize <= shown {
                        reporter(Report::Info(info));
                    }
                }
                // Below full strength the move is chosen from the last completed depth's
                // lines, so a line from a depth cut short says nothing about it.
                Progress::Cut(info) => {
                    if skill.is_full() {
                        reporter(Report::Info(info));
                    }
                }
                Progress::CurrentMove(current) => reporter(Report::CurrentMove(current)),
            };
            let mut result = search::search(&history, &request, context, &mut heur, &mut report);
            drop(heur);
            if let Some(line) = skill.choose(&lines, &mut rng).and_then(|i| lines.get(i))
                && let Some(&first) = line.pv.first()
            {
                result.best = Some(first);
                result.ponder = line.pv.get(1).copied();
                result.score = line.score;
            }
            reporter(Report::BestMove(result));
        });
        self.worker = Some(worker.map_err(|e| GoError::NoThread(e.to_string()))?);
        Ok(())
    }

    /// Runs a search through [`Engine::go`] and waits for its result, handing progress to
    /// `report` on the calling thread (bench, tests, tools).
    pub fn search_blocking(
        &mut self,
        limits: Limits,
        report: &mut dyn FnMut(SearchInfo),
    ) -> Result<SearchResult, GoError> {
        let (tx, rx) = mpsc::channel();
        self.go(
            limits,
            Box::new(move |r| {
                let _ = tx.send(r);
            }),
        )?;
        let mut best = None;
        for r in rx {
            match r {
                Report::Info(info) => report(info),
                Report::Book(_) | Report::CurrentMove(_) => {}
                Report::BestMove(result) => best = Some(result),
            }
        }
        self.wait();
        Ok(best.expect("every search ends with its best move"))
    }

    /// Asks a running search to stop; its `BestMove` report follows shortly.
    pub fn stop(&self) {
        self.signals.pondering.store(false, Ordering::Relaxed);
        self.signals.stop.store(true, Ordering::Relaxed);
    }

    /// The opponent played the pondered move: the move's clock starts now and the search goes on
    /// under the time rules of its `go` line.
    pub fn ponderhit(&self) {
        if self.signals.pondering.load(Ordering::Relaxed) {
            self.signals.clock.start(Instant::now());
            self.signals.pondering.store(false, Ordering::Relaxed);
        }
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.worker.as_ref().is_some_and(|w| !w.is_finished())
    }

    /// Waits for a running search to finish (it must have been told to stop or have limits).
    pub fn wait(&mut self) {
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }

    /// The hash-table entry for the position after `moves` from `start` (UCCI `probe`); `None`
    /// if there is none. A running search goes on filling the table meanwhile. The game is not
    /// changed.
    pub fn probe(
        &self,
        start: &Position,
        moves: &[Move],
    ) -> Result<Option<HashProbe>, IllegalMove> {
        let mut pos = start.clone();
        for (i, &m) in moves.iter().enumerate() {
            if !pos.is_legal(m) {
                return Err(IllegalMove {
                    mv: m,
                    fen: pos.to_string(),
                    ply: i + 1,
                });
            }
            pos.play(m);
        }
        let Some(entry) = self.tt.probe(pos.key()) else {
            return Ok(None);
        };
        Ok(Some(HashProbe {
            best: entry.mv,
            score: Score::from_tt(entry.score, 0),
            depth: entry.depth.max(0) as u32,
            lower_bound: matches!(entry.bound, Bound::Lower | Bound::Exact),
            upper_bound: matches!(entry.bound, Bound::Upper | Bound::Exact),
        }))
    }

    /// The ponder move to announce with a search's best move: the expected reply, unless it
    /// ends the game (a client would then ponder on a position with no move).
    pub fn ponder_move(&self, result: &SearchResult) -> Option<Move> {
        let (best, ponder) = (result.best?, result.ponder?);
        let mut pos = self.position().clone();
        if !pos.is_legal(best) {
            return None;
        }
        pos.play(best);
        if !pos.is_legal(ponder) {
            return None;
        }
        pos.play(ponder);
        crate::movegen::has_legal_move(&pos).then_some(ponder)
    }

    /// What to add to the move just found in the current position, given the last fully searched
    /// score of its line (our view) and whether the opponent offers a draw. Resign only when the
    /// search has proved a mate against us; accept an offered draw when we are not better (or
    /// barely, in a blocked game); offer a draw in a blocked game that we do not lead.
    pub fn offer(&self, score: Option<Score>, draw_offered: bool) -> Offer {
        offer::offer(score, self.position().halfmoves(), draw_offered)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_move_keeps_the_legal_prefix() {
        let mut engine = Engine::new();
        let moves: Vec<Move> = ["h2e2", "h9g7", "h2h9"]
            .iter()
            .map(|t| t.parse().unwrap())
            .collect();
        let e = engine
            .set_position(Position::startpos(), &moves)
            .unwrap_err();
        assert_eq!(e.ply, 3);
        assert_eq!(engine.game().plies(), 2);
    }

    #[test]
    fn search_moves_limit_the_root() {
        let mut engine = Engine::new();
        let only: Move = "a0a1".parse().unwrap();
        let limits = Limits {
            depth: Some(3),
            search_moves: vec![only],
            ..Limits::default()
        };
        let result = engine.search_blocking(limits, &mut |_| {}).unwrap();
        assert_eq!(result.best, Some(only));
        let illegal = Limits {
            depth: Some(1),
            search_moves: vec!["a0a5".parse().unwrap()],
            ..Limits::default()
        };
        assert!(matches!(
            engine.search_blocking(illegal, &mut |_| {}),
            Err(GoError::MovesNotLegal { .. })
        ));
    }
}
