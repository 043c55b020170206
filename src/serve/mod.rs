//! `xq serve`: the referee and the engine over HTTP — a page for people and a JSON API for sites,
//! with chessdb.cn's `rulecheck` form — bounded in body size, moves, time and engine searches,
//! and shut down gracefully on SIGINT or SIGTERM.

mod api;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::middleware;
use axum::routing::{get, post};
use std::fmt;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::sync::Semaphore;

/// The largest request body: larger ones get 413.
pub const MAX_BODY_BYTES: usize = 2 << 20;

/// The most games one record posted to `/api/referee` may hold (the answer is about a kilobyte
/// of JSON a game); more get 413.
pub const MAX_GAMES: usize = 5_000;

/// The most moves one request may carry (`/api/legal`, `/api/analyse`, `rulecheck`).
pub const MAX_MOVES: usize = 2_000;

/// What every handler shares.
#[derive(Clone)]
struct Shared {
    /// One permit per engine search that may run at once; none free means busy (503).
    searches: Arc<Semaphore>,
}

/// The service's routes.
fn router(searches: usize) -> Router {
    let shared = Shared {
        searches: Arc::new(Semaphore::new(searches.max(1))),
    };
    Router::new()
        .route("/", get(api::page))
        .route("/api/health", get(api::health))
        .route("/api/referee", post(api::referee))
        .route("/api/legal", post(api::legal))
        .route("/api/analyse", post(api::analyse))
        .route("/chessdb.php", get(api::chessdb))
        .fallback(api::not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn(api::json_errors))
        .with_state(shared)
}

/// Why the server could not start or stopped.
#[derive(Debug)]
pub enum ServeError {
    /// The server's threads could not be started.
    Threads(std::io::Error),
    /// The address could not be listened on.
    Listen {
        /// The host and port asked for.
        address: String,
        /// Why.
        error: std::io::Error,
    },
    /// The address bound could not be read.
    Address(std::io::Error),
    /// Serving failed.
    Stopped(std::io::Error),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::Threads(e) => write!(f, "cannot start the server's threads: {e}"),
            ServeError::Listen { address, error } => {
                write!(f, "cannot listen on {address}: {error}")
            }
            ServeError::Address(e) => write!(f, "cannot read the address bound: {e}"),
            ServeError::Stopped(e) => write!(f, "the server stopped: {e}"),
        }
    }
}

impl std::error::Error for ServeError {}

/// Serves on `host:port` (port 0: any free port) until SIGINT or SIGTERM. `ready` gets the
/// address bound, before the first request is taken.
pub fn run(host: &str, port: u16, ready: impl FnOnce(SocketAddr)) -> Result<(), ServeError> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // The referee, legal-move and search work runs on these threads: a bounded pool (a
        // request waits for one; its time limit still applies), not one thread per request.
        .max_blocking_threads(4 * cores)
        .build()
        .map_err(ServeError::Threads)?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((host, port))
            .await
            .map_err(|error| ServeError::Listen {
                address: format!("{host}:{port}"),
                error,
            })?;
        let address = listener.local_addr().map_err(ServeError::Address)?;
        ready(address);
        axum::serve(listener, router(cores))
            .with_graceful_shutdown(shutdown())
            .await
            .map_err(ServeError::Stopped)
    })
}

/// Resolves on SIGINT or SIGTERM: requests under way finish, new ones are refused.
async fn shutdown() {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut interrupt), Ok(mut terminate)) = (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
    ) else {
        // Without signal handling the server runs until it is killed.
        return std::future::pending().await;
    };
    tokio::select! {
        _ = interrupt.recv() => {}
        _ = terminate.recv() => {}
    }
}
