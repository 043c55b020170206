//! `Engine`: owns the game (start position, moves, judge history), the transposition table and
//! the options; runs searches on a worker thread and hands progress to a callback. It never prints.

use crate::eval::EvalChoice;
use crate::fen;
use crate::judge::{History, RuleSet, Rules};
use crate::moves::IllegalMove;
use crate::moves::Move;
use crate::nnue::Network;
use crate::options::{EMBEDDED_NET, ENGINE_OPTIONS, OptionError, OptionSpec, OptionValue};
use crate::position::Position;
use crate::search::ordering::Heuristics;
use crate::search::time::Limits;
use crate::search::tt::TranspositionTable;
use crate::search::{self, SearchConfig, SearchInfo, SearchResult, Signals};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// What a running search tells the front end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// Progress after a completed depth.
    Info(SearchInfo),
    /// The search has ended; the front end answers with this move.
    BestMove(SearchResult),
}

/// A callback receiving reports, called from the search thread.
pub type Reporter = Box<dyn FnMut(Report) + Send>;

struct State {
    tt: TranspositionTable,
    heur: Box<Heuristics>,
}

/// The engine.
pub struct Engine {
    history: History,
    banned: Vec<Move>,
    config: SearchConfig,
    hash_mb: usize,
    /// The net for the NNUE evaluation; `None` until one is needed (then the embedded net).
    net: Option<Arc<Network>>,
    /// Whether the search evaluates with the net (option `Evaluation`).
    use_nnue: bool,
    state: Arc<Mutex<State>>,
    signals: Arc<Signals>,
    worker: Option<JoinHandle<()>>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine at the start position with default options.
    pub fn new() -> Engine {
        let hash_mb = 16;
        Engine {
            history: History::new(Position::startpos(), Rules::default()),
            banned: Vec::new(),
            config: SearchConfig {
                eval: EvalChoice::Nnue(Network::embedded()),
                ..SearchConfig::default()
            },
            hash_mb,
            net: None,
            use_nnue: true,
            state: Arc::new(Mutex::new(State {
                tt: TranspositionTable::new(hash_mb),
                heur: Heuristics::new(),
            })),
            signals: Arc::new(Signals::default()),
            worker: None,
        }
    }

    /// The options the engine understands.
    pub fn options() -> &'static [OptionSpec] {
        ENGINE_OPTIONS
    }

    /// Sets an option by name; the value is validated. Waits for a running search first.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let spec = OptionSpec::find(ENGINE_OPTIONS, name)
            .ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let value = spec.parse(value)?;
        self.wait();
        match (spec.name, value) {
            ("Hash", OptionValue::Int(mb)) => {
                self.hash_mb = mb as usize;
                self.lock().tt = TranspositionTable::new(self.hash_mb);
            }
            ("Threads", OptionValue::Int(n)) => self.config.threads = n as usize,
            ("Clear Hash", _) => self.lock().tt.clear(),
            ("Move Overhead", OptionValue::Int(ms)) => {
                self.config.move_overhead = Duration::from_millis(ms as u64)
            }
            ("MultiPV", OptionValue::Int(n)) => self.config.multipv = n as usize,
            ("RepetitionRule", OptionValue::Text(t)) => {
                let set: RuleSet = t.parse().map_err(|reason| OptionError::Rejected {
                    name: spec.name.to_string(),
                    reason,
                })?;
                self.history.set_rules(Rules {
                    set,
                    ..self.history.rules()
                });
            }
            ("Evaluation", OptionValue::Text(t)) => {
                self.use_nnue = t == "nnue";
                self.update_eval();
            }
            ("EvalFile", OptionValue::Text(t)) => {
                let net = if t.is_empty() || t == EMBEDDED_NET {
                    Network::embedded()
                } else {
                    // On failure the current net stays.
                    Arc::new(Network::load(&t).map_err(|e| OptionError::Rejected {
                        name: spec.name.to_string(),
                        reason: e.to_string(),
                    })?)
                };
                self.net = Some(net);
                self.update_eval();
            }
            _ => {}
        }
        Ok(())
    }

    /// Makes the search settings follow the `Evaluation` and `EvalFile` options.
    fn update_eval(&mut self) {
        self.config.eval = if self.use_nnue {
            EvalChoice::Nnue(self.net.get_or_insert_with(Network::embedded).clone())
        } else {
            EvalChoice::Handcrafted
        };
    }

    /// The static evaluation of `pos` for its side to move, in centipawns, with the evaluation
    /// the search uses.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.config.eval.evaluate(pos)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Forgets everything learnt in the last game (hash table, move-ordering statistics).
    pub fn new_game(&mut self) {
        self.wait();
        let mut s = self.lock();
        s.tt.clear();
        s.heur.clear();
    }

    /// Sets the game: a start position and the moves played from it. On an illegal move the
    /// game is left at the start position and the error names the move and ply.
    pub fn set_position(&mut self, start: Position, moves: &[Move]) -> Result<(), IllegalMove> {
        self.wait();
        self.banned.clear();
        let rules = self.history.rules();
        let mut history = History::new(start.clone(), rules);
        for &m in moves {
            if let Err(e) = history.push(m) {
                self.history = History::new(start, rules);
                return Err(e);
            }
        }
        self.history = history;
        Ok(())
    }

    /// The game's current position.
    pub fn position(&self) -> &Position {
        self.history.position()
    }

    /// The game so far.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// Root moves the next search must not play (UCCI `banmoves`); cleared by `set_position`.
    pub fn set_banned_moves(&mut self, moves: Vec<Move>) {
        self.banned = moves;
    }

    /// The current search settings.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Starts a search on a worker thread. Reports arrive through `reporter`, ending with exactly
    /// one `BestMove`.
    pub fn go(&mut self, limits: Limits, mut reporter: Reporter) {
        self.wait();
        self.signals.stop.store(false, Ordering::Relaxed);
        self.signals
            .pondering
            .store(limits.ponder, Ordering::Relaxed);
        let (history, banned, config) = (
            self.history.clone(),
            self.banned.clone(),
            self.config.clone(),
        );
        let (state, signals) = (self.state.clone(), self.signals.clone());
        self.worker = Some(std::thread::spawn(move || {
            let mut guard = state.lock().unwrap_or_else(|e| e.into_inner());
            let State { tt, heur } = &mut *guard;
            let result = search::search(
                &history,
                &banned,
                &limits,
                &config,
                tt,
                &signals,
                heur,
                &mut |info| reporter(Report::Info(info)),
            );
            drop(guard);
            reporter(Report::BestMove(result));
        }));
    }

    /// Runs a search on the calling thread and returns its result (bench, tests, tools).
    pub fn search_blocking(
        &mut self,
        limits: Limits,
        report: &mut dyn FnMut(SearchInfo),
    ) -> SearchResult {
        self.wait();
        self.signals.stop.store(false, Ordering::Relaxed);
        self.signals
            .pondering
            .store(limits.ponder, Ordering::Relaxed);
        let mut guard = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let State { tt, heur } = &mut *guard;
        search::search(
            &self.history,
            &self.banned,
            &limits,
            &self.config,
            tt,
            &self.signals,
            heur,
            report,
        )
    }

    /// Asks a running search to stop; its `BestMove` report follows shortly.
    pub fn stop(&self) {
        self.signals.pondering.store(false, Ordering::Relaxed);
        self.signals.stop.store(true, Ordering::Relaxed);
    }

    /// The opponent played the pondered move: the search goes on under normal time rules.
    pub fn ponderhit(&self) {
        self.signals.pondering.store(false, Ordering::Relaxed);
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

    /// The current position as FEN.
    pub fn fen(&self) -> String {
        fen::format(self.history.position())
    }

    /// The hash-table entry for `pos` (UCCI `probe`); `None` if there is none or a search is
    /// using the table.
    pub fn probe_hash(&self, pos: &Position) -> Option<crate::search::tt::Entry> {
        self.state.try_lock().ok()?.tt.probe(pos.key())
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}
