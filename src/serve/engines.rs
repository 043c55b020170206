//! The engines of `xq serve`'s analyses: kept warm between requests (the net loaded, the hash
//! table allocated and kept), one taken per analysis and given back after it; a search is
//! stopped as soon as its request is cancelled.

use super::admission::Cancel;
use crate::engine::{Engine, Limits, MAX_SKILL_LEVEL, Report, SKILL_LEVEL};
use crate::game::Game;
use crate::search::SearchInfo;
use crate::search::score::Score;
use std::sync::Mutex;
use std::sync::mpsc;
use std::time::Duration;

/// Engines not searching, up to a number kept.
pub struct Engines {
    idle: Mutex<Vec<Engine>>,
    keep: usize,
}

/// What an analysis found.
pub struct Analysis {
    /// The best move, if the position has one.
    pub best: Option<crate::moves::Move>,
    /// The score, from the side to move's view.
    pub score: Score,
    /// The principal variation, starting with the best move.
    pub pv: Vec<crate::moves::Move>,
    /// The depth completed.
    pub depth: u32,
    /// The nodes searched.
    pub nodes: u64,
}

impl Engines {
    /// A pool keeping up to `keep` engines.
    pub fn new(keep: usize) -> Engines {
        Engines {
            idle: Mutex::new(Vec::new()),
            keep,
        }
    }

    /// An engine from the pool, or a new one.
    fn take(&self) -> Engine {
        self.idle
            .lock()
            .ok()
            .and_then(|mut idle| idle.pop())
            .unwrap_or_default()
    }

    /// Gives an engine back for the next analysis.
    fn give_back(&self, engine: Engine) {
        if let Ok(mut idle) = self.idle.lock()
            && idle.len() < self.keep
        {
            idle.push(engine);
        }
    }

    /// Searches the position after `line` within `limits` at `skill` (full strength when
    /// `None`), stopping early when `cancel` is raised.
    pub fn analyse(
        &self,
        line: &Game,
        limits: Limits,
        skill: Option<u64>,
        cancel: &Cancel,
    ) -> Result<Analysis, String> {
        let mut engine = self.take();
        let answer = search(&mut engine, line, limits, skill, cancel);
        // An engine whose search did not end cleanly is not reused.
        if answer.is_ok() && !engine.is_searching() {
            self.give_back(engine);
        }
        answer
    }
}

/// One search on `engine`.
fn search(
    engine: &mut Engine,
    line: &Game,
    limits: Limits,
    skill: Option<u64>,
    cancel: &Cancel,
) -> Result<Analysis, String> {
    let level = skill.unwrap_or(u64::from(MAX_SKILL_LEVEL));
    engine
        .set_option(SKILL_LEVEL, &level.to_string())
        .map_err(|e| format!("skill: {e}"))?;
    engine
        .set_position(line.start().clone(), line.moves())
        .map_err(|e| e.to_string())?;
    let (tx, rx) = mpsc::channel();
    engine
        .go(
            limits,
            Box::new(move |r| {
                let _ = tx.send(r);
            }),
        )
        .map_err(|e| format!("the search could not start: {e:?}"))?;
    let mut best_line: Option<SearchInfo> = None;
    let mut stopped = false;
    let result = loop {
        match rx.recv_timeout(Duration::from_millis(20)) {
            Ok(Report::Info(info)) if info.multipv == 1 => best_line = Some(info),
            Ok(Report::BestMove(result)) => break Some(result),
            Ok(_) => {}
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if !stopped && cancel.raised() {
                    engine.stop();
                    stopped = true;
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break None,
        }
    };
    engine.wait();
    let result = result.ok_or("the search ended without a move")?;
    let pv = best_line
        .filter(|l| l.pv.first() == result.best.as_ref())
        .map_or_else(|| result.best.iter().copied().collect(), |l| l.pv);
    Ok(Analysis {
        best: result.best,
        score: result.score,
        pv,
        depth: result.depth,
        nodes: result.nodes,
    })
}
