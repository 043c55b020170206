//! Admission and work for `xq serve`: each kind of request has its own budget (requests admitted,
//! of them running at once, and the bytes of the bodies admitted), a request over its budget is refused at once with 503 before its body
//! is read, and the admitted work runs on the bounded blocking pool with a deadline and a cancel
//! flag the work itself checks, so work past its time or left by its client stops within a
//! fraction of a second. A panic in the work is contained: logged, answered 500, the server goes on.

use super::api::{Refusal, error};
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// One kind of request's share of the server.
#[derive(Clone)]
pub struct Budget {
    /// What the requests are, for the refusal's words.
    what: &'static str,
    /// Requests admitted (running, waiting to run, or having their body read).
    admitted: Arc<Semaphore>,
    /// Requests whose work runs at once.
    running: Arc<Semaphore>,
    /// The bodies admitted, in KiB, and the most one may claim (its Content-Length, or this
    /// when it gives none); `None` where bodies are small.
    body_kib: Option<(Arc<Semaphore>, u32)>,
}

impl Budget {
    /// A budget of `running` requests at work at once and `waiting` more admitted behind them.
    pub fn new(what: &'static str, running: usize, waiting: usize) -> Budget {
        let running = running.max(1);
        Budget {
            what,
            admitted: Arc::new(Semaphore::new(running + waiting)),
            running: Arc::new(Semaphore::new(running)),
            body_kib: None,
        }
    }

    /// Admits bodies of at most `total` bytes at once, a body of unstated length counted as
    /// `largest` (the route's body limit).
    pub fn with_bodies(mut self, total: usize, largest: usize) -> Budget {
        let kib = |bytes: usize| u32::try_from(bytes.div_ceil(1024)).unwrap_or(u32::MAX);
        self.body_kib = Some((Arc::new(Semaphore::new(kib(total) as usize)), kib(largest)));
        self
    }

    /// Runs `work` on the blocking pool once a place to run is free, by `deadline`. The work gets
    /// a [`Cancel`] that is raised when the deadline passes or the request is dropped (its client
    /// went away, or the server's own time limit ended it); the wait for its answer allows
    /// `grace` past the deadline.
    pub async fn run<T: Send + 'static>(
        &self,
        deadline: Instant,
        grace: Duration,
        work: impl FnOnce(&Cancel) -> T + Send + 'static,
    ) -> Result<T, Refusal> {
        let limit = deadline.saturating_duration_since(Instant::now());
        // A free place is taken at once; otherwise the request waits for one until its deadline.
        let place = match self.running.clone().try_acquire_owned() {
            Ok(place) => place,
            Err(_) => match tokio::time::timeout(limit, self.running.clone().acquire_owned()).await
            {
                Ok(Ok(place)) => place,
                _ => return Err(out_of_time(limit)),
            },
        };
        let cancel = Cancel {
            deadline,
            flag: Arc::new(AtomicBool::new(false)),
        };
        // Raised when this future ends, however it ends: the work then stops at its next check.
        let _raise = RaiseOnDrop(cancel.flag.clone());
        let task = tokio::task::spawn_blocking(move || {
            let _place = place;
            work(&cancel)
        });
        let wait = deadline.saturating_duration_since(Instant::now()) + grace;
        match tokio::time::timeout(wait, task).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(failure)) => {
                let what = if failure.is_panic() {
                    panic_words(failure.into_panic())
                } else {
                    "cancelled".to_string()
                };
                eprintln!("xq serve: a request's work failed: {what}");
                Err(error(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "the request's work failed (a fault in the server, logged); other requests are not affected",
                ))
            }
            Err(_) => Err(out_of_time(limit)),
        }
    }
}

/// The words of a panic's payload.
pub fn panic_words(payload: Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_string())
}

/// Raises a flag when dropped.
struct RaiseOnDrop(Arc<AtomicBool>);

impl Drop for RaiseOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// What admitted work checks to know it should stop: its deadline passed, or its request is gone.
#[derive(Clone, Debug)]
pub struct Cancel {
    deadline: Instant,
    flag: Arc<AtomicBool>,
}

impl Cancel {
    /// Whether the work should stop now.
    pub fn raised(&self) -> bool {
        self.flag.load(Ordering::Relaxed) || Instant::now() >= self.deadline
    }

    /// The deadline.
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// The flag raised when the request is gone.
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.flag.clone()
    }
}

/// The answer to a request whose work ran past `limit`.
pub fn out_of_time(limit: Duration) -> Refusal {
    error(
        StatusCode::SERVICE_UNAVAILABLE,
        format!(
            "the request took longer than {} s",
            limit.as_secs_f64().round()
        ),
    )
}

/// Admits a request within its budget before anything of it is read, or refuses it at once with
/// 503 when the budget is full (its place is held until the answer is made).
pub async fn admit(State(budget): State<Budget>, request: Request, next: Next) -> Response {
    let busy = || {
        error(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "busy: the server is working on as many {} as it takes at once; try again shortly",
                budget.what
            ),
        )
        .into_response()
    };
    let Ok(_admitted) = budget.admitted.clone().try_acquire_owned() else {
        return busy();
    };
    let _body = match &budget.body_kib {
        None => None,
        Some((room, largest)) => {
            let stated = request
                .headers()
                .get(header::CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
            // A body over the limit is refused by the limit itself (413); it claims no more.
            let kib = stated.map_or(*largest, |bytes| {
                u32::try_from(bytes.div_ceil(1024)).map_or(*largest, |k| k.min(*largest))
            });
            match room.clone().try_acquire_many_owned(kib) {
                Ok(claim) => Some(claim),
                Err(_) => return busy(),
            }
        }
    };
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime")
    }

    #[test]
    fn work_past_its_deadline_is_told_to_stop_and_refused() {
        let budget = Budget::new("tests", 1, 0);
        let stopped = Arc::new(AtomicBool::new(false));
        let seen = stopped.clone();
        let deadline = Instant::now() + Duration::from_millis(100);
        let answer = runtime().block_on(budget.run(deadline, Duration::from_secs(2), move |c| {
            while !c.raised() {
                std::thread::sleep(Duration::from_millis(5));
            }
            seen.store(true, Ordering::Relaxed);
        }));
        assert!(answer.is_ok(), "the work stopped itself at its deadline");
        assert!(stopped.load(Ordering::Relaxed));
    }

    #[test]
    fn a_dropped_request_raises_its_cancel() {
        let budget = Budget::new("tests", 1, 0);
        let (tx, rx) = std::sync::mpsc::channel();
        let rt = runtime();
        rt.block_on(async {
            let deadline = Instant::now() + Duration::from_secs(60);
            let run = budget.run(deadline, Duration::ZERO, move |c| {
                let start = Instant::now();
                while !c.raised() {
                    std::thread::sleep(Duration::from_millis(5));
                }
                let _ = tx.send(start.elapsed());
            });
            // The request ends (its client gone) after 50 ms.
            let _ = tokio::time::timeout(Duration::from_millis(50), run).await;
        });
        let stopped_after = rx.recv_timeout(Duration::from_secs(5)).expect("stopped");
        assert!(stopped_after < Duration::from_secs(2), "{stopped_after:?}");
    }

    #[test]
    fn a_panic_in_the_work_is_an_error_answer() {
        let budget = Budget::new("tests", 1, 0);
        let deadline = Instant::now() + Duration::from_secs(5);
        let answer = runtime()
            .block_on(budget.run(deadline, Duration::ZERO, |_| -> u8 { panic!("a fault") }));
        let Err(Refusal(status, words)) = answer else {
            panic!("a panic is not an answer");
        };
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
        assert!(words.contains("logged"), "{words}");
    }
}
