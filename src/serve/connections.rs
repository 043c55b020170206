//! The connections of `xq serve`: accepted up to a cap (at the cap, the connection idle longest —
//! no request under way — is closed for the new one), each given hyper's time limit on reading a
//! request's headers (which also ends a keep-alive connection left idle), and all of them closed
//! within a time limit once the server is told to stop.

use axum::Router;
use axum::body::Body;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::BTreeMap;
use std::future::Future;
use std::pin::pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{Notify, watch};
use tokio::task::JoinSet;
use tower::ServiceExt;

/// How long a client may take to send a request's headers, and how long a keep-alive connection
/// may stay idle before its next request.
pub const HEADER_TIME: Duration = Duration::from_secs(10);

/// How long the requests under way may take to finish once the server is told to stop.
pub const SHUTDOWN_TIME: Duration = Duration::from_secs(3);

/// The bytes hyper buffers of a request's head at most (longer heads are refused by hyper
/// itself with a bare 431; heads over the policy's limit but under this get a JSON one).
const MAX_HEAD_BUFFER: usize = 256 << 10;

/// One open connection, as the cap sees it.
struct Open {
    /// Requests under way on it.
    in_flight: AtomicUsize,
    /// Notified to close it at once.
    close: Notify,
}

/// The open connections, oldest first.
#[derive(Default)]
struct Registry {
    next: u64,
    open: BTreeMap<u64, Arc<Open>>,
}

impl Registry {
    /// Closes the connection idle longest, if any is idle; whether one was.
    fn close_idlest(&mut self) -> bool {
        let idle = self
            .open
            .iter()
            .find(|(_, c)| c.in_flight.load(Ordering::Relaxed) == 0)
            .map(|(&id, _)| id);
        match idle.and_then(|id| self.open.remove(&id)) {
            Some(open) => {
                open.close.notify_one();
                true
            }
            None => false,
        }
    }
}

/// Counts a request under way on a connection while it lives.
struct InFlight(Arc<Open>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Serves `router` on `listener`, at most `cap` connections at once, until `stop` resolves; then
/// stops taking connections, lets the requests under way finish for up to [`SHUTDOWN_TIME`] and
/// closes what is left.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    cap: usize,
    stop: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let registry = Arc::new(Mutex::new(Registry::default()));
    let (stopping, stopped) = watch::channel(false);
    let mut tasks = JoinSet::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIME)
        .max_buf_size(MAX_HEAD_BUFFER)
        .keep_alive(true);
    let mut stop = pin!(stop);
    loop {
        let (stream, _) = tokio::select! {
            _ = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of descriptors or a connection reset before it was taken: wait a moment
                    // (an idle connection closed makes room) and go on.
                    eprintln!("xq serve: accepting a connection: {e}");
                    registry.lock().map(|mut r| r.close_idlest()).ok();
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
        };
        // Reap finished connections so the set does not grow.
        while tasks.try_join_next().is_some() {}
        let open = Arc::new(Open {
            in_flight: AtomicUsize::new(0),
            close: Notify::new(),
        });
        let id = {
            let Ok(mut registry) = registry.lock() else {
                continue;
            };
            if registry.open.len() >= cap && !registry.close_idlest() {
                // Every connection has a request under way: this one is closed at once.
                continue;
            }
            registry.next += 1;
            let id = registry.next;
            registry.open.insert(id, open.clone());
            id
        };
        let service = {
            let (router, open) = (router.clone(), open.clone());
            hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
                open.in_flight.fetch_add(1, Ordering::Relaxed);
                let in_flight = InFlight(open.clone());
                let answer = router.clone().oneshot(request.map(Body::new));
                async move {
                    let _in_flight = in_flight;
                    answer.await
                }
            })
        };
        let connection = http.serve_connection(TokioIo::new(stream), service);
        let (registry, mut stopped) = (registry.clone(), stopped.clone());
        tasks.spawn(async move {
            let mut connection = pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                _ = open.close.notified() => {}
                _ = async { stopped.wait_for(|s| *s).await.map(|_| ()) } => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.as_mut().await;
                }
            }
            if let Ok(mut registry) = registry.lock() {
                registry.open.remove(&id);
            }
        });
    }
    drop(listener);
    let _ = stopping.send(true);
    if tokio::time::timeout(SHUTDOWN_TIME, async {
        while tasks.join_next().await.is_some() {}
    })
    .await
    .is_err()
    {
        tasks.abort_all();
    }
    Ok(())
}
