//! `xq serve`: the referee and the engine over HTTP — a page for people and a JSON API for sites,
//! with chessdb.cn's `rulecheck` form — bounded for the open internet: every request admitted
//! within its kind's budget or refused at once, its body, its headers and its work limited in
//! size and time, the connections capped, hosts and origins checked, a fault in one request kept
//! to it, and a stop on SIGINT or SIGTERM within seconds.

mod admission;
mod api;
mod connections;
mod engines;
mod policy;

pub use policy::Policy;

use admission::Budget;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::middleware;
use axum::routing::{get, post};
use std::fmt;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::timeout::{RequestBodyDeadlineLayer, TimeoutLayer};

/// The largest game record `/api/referee` takes: larger ones get 413.
pub const MAX_BODY_BYTES: usize = 2 << 20;

/// The bytes of the referee requests' bodies admitted at once (small records admitted by the
/// dozen, records near the limit a few at a time).
pub const REFEREE_BODIES_BYTES: usize = 12 << 20;

/// The largest body of the other requests (a FEN and moves as JSON).
pub const MAX_SMALL_BODY_BYTES: usize = 64 << 10;

/// The most games one record posted to `/api/referee` may hold (the answer is about a kilobyte
/// of JSON a game); more get 413.
pub const MAX_GAMES: usize = 5_000;

/// The most plies of one game `/api/referee` judges (a game's judging holds about a kilobyte a
/// ply); a longer game is judged up to there, its report saying so.
pub const MAX_GAME_PLIES: usize = 10_000;

/// The most moves one request may carry (`/api/legal`, `/api/analyse`, `rulecheck`).
pub const MAX_MOVES: usize = 2_000;

/// How long a request's body may take to arrive.
pub const BODY_TIME: Duration = Duration::from_secs(10);

/// The longest any request may take, all told (its own limits are shorter).
pub const REQUEST_TIME: Duration = Duration::from_secs(40);

/// The most connections open at once (fewer where the process may open fewer files).
pub const MAX_CONNECTIONS: usize = 2_048;

/// What every handler shares.
struct Shared {
    /// Requests for legal moves and `rulecheck`: quick, many at once.
    quick: Budget,
    /// Referee requests: up to seconds each, a few at once.
    referee: Budget,
    /// Engine searches: one per core, none waiting.
    analyse: Budget,
    /// Engines kept warm between analyses.
    engines: Arc<engines::Engines>,
}

/// The service's routes, each kind of request in its own budget.
fn router(cores: usize, policy: Policy) -> Router {
    let shared = Shared {
        quick: Budget::new("requests for legal moves and rule checks", 4 * cores, 64),
        referee: Budget::new("referee requests", 2 * cores, 64)
            .with_bodies(REFEREE_BODIES_BYTES, MAX_BODY_BYTES),
        analyse: Budget::new("analyses", cores, 0),
        engines: Arc::new(engines::Engines::new(cores)),
    };
    let within = |budget: &Budget| middleware::from_fn_with_state(budget.clone(), admission::admit);
    let small = DefaultBodyLimit::max(MAX_SMALL_BODY_BYTES);
    let policy = Arc::new(policy);
    Router::new()
        .route("/", get(api::page))
        .route("/favicon.svg", get(api::favicon))
        .route("/favicon.ico", get(api::favicon))
        .route("/api/health", get(api::health))
        .route(
            "/api/referee",
            post(api::referee)
                .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
                .layer(within(&shared.referee)),
        )
        .route(
            "/api/legal",
            post(api::legal).layer(small).layer(within(&shared.quick)),
        )
        .route(
            "/api/analyse",
            post(api::analyse)
                .layer(small)
                .layer(within(&shared.analyse)),
        )
        .route(
            "/chessdb.php",
            get(api::chessdb).layer(within(&shared.quick)),
        )
        .fallback(api::not_found)
        .with_state(Arc::new(shared))
        .layer(RequestBodyDeadlineLayer::new(BODY_TIME))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::SERVICE_UNAVAILABLE,
            REQUEST_TIME,
        ))
        .layer(CatchPanicLayer::custom(api::panicked))
        .layer(tower::util::option_layer(
            (!policy.cors.is_empty()).then(|| policy::cors(&policy)),
        ))
        .layer(middleware::from_fn_with_state(policy, policy::guard))
        .layer(middleware::from_fn(api::json_errors))
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

/// Serves on `host:port` (port 0: any free port) under `policy` until SIGINT or SIGTERM. `ready`
/// gets the address bound, before the first request is taken.
pub fn run(
    host: &str,
    port: u16,
    policy: Policy,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // The referee, legal-move and search work runs on these threads; the budgets admit no
        // more work than they hold.
        .max_blocking_threads(4 * cores + 8)
        .build()
        .map_err(ServeError::Threads)?;
    let cap = connection_cap();
    let served = runtime.block_on(async {
        let listener = listen(host, port)
            .await
            .map_err(|error| ServeError::Listen {
                address: format!("{host}:{port}"),
                error,
            })?;
        let address = listener.local_addr().map_err(ServeError::Address)?;
        ready(address);
        connections::serve(listener, router(cores, policy), cap, shutdown())
            .await
            .map_err(ServeError::Stopped)
    });
    // Work still running past the shutdown's time limit (a search, a judging) is not waited for.
    runtime.shutdown_timeout(Duration::from_millis(500));
    served
}

/// Connections the kernel may hold for the server before it takes them (the kernel may cap it).
const BACKLOG: u32 = 4_096;

/// Listens on the first address `host:port` names, with room for a burst of connections.
async fn listen(host: &str, port: u16) -> std::io::Result<tokio::net::TcpListener> {
    let mut last = std::io::Error::new(std::io::ErrorKind::NotFound, "no address");
    for address in tokio::net::lookup_host((host, port)).await? {
        let socket = if address.is_ipv4() {
            tokio::net::TcpSocket::new_v4()?
        } else {
            tokio::net::TcpSocket::new_v6()?
        };
        socket.set_reuseaddr(true)?;
        match socket.bind(address).and_then(|()| socket.listen(BACKLOG)) {
            Ok(listener) => return Ok(listener),
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// The connection cap: [`MAX_CONNECTIONS`], or fewer where the process may not open so many
/// files (the limit on them raised to the most allowed first).
fn connection_cap() -> usize {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut files = getrlimit(Resource::Nofile);
    if let Some(most) = files.maximum
        && files.current.is_some_and(|now| now < most)
    {
        files.current = Some(most);
        if setrlimit(Resource::Nofile, files).is_err() {
            files = getrlimit(Resource::Nofile);
        }
    }
    let files = files.current.map_or(usize::MAX, |n| n as usize);
    // Room for the listener, standard streams, the engines' files and the blocking pool.
    MAX_CONNECTIONS.min(files.saturating_sub(64)).max(16)
}

/// Resolves on SIGINT or SIGTERM: new connections are refused, requests under way finish within
/// the shutdown's time limit.
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
