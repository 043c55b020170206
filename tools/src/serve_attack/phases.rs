//! The attack's phases: the requests and bodies each sends, the loops sending requests in turn
//! and the threads holding connections open (half-open, slow headers, slow bodies), all bounded
//! and stopping at the attack's end.

use super::http::{Answer, Request, exchange, is_wait, parse};
use super::server::lock;
use super::tally::Kind;
use super::{CUT_GRACE, IO_STEP, PROBE_WAIT, SAMPLES_KEPT, SLOW_BODY_LENGTH, START_FEN};
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Every kind of attack request, and the requests of each phase.
pub(super) struct Attack {
    half_open: Arc<Kind>,
    slow_headers: Arc<Kind>,
    slow_bodies: Arc<Kind>,
    oversize_referee: Arc<Kind>,
    oversize_legal: Arc<Kind>,
    long_fen_analyse: Arc<Kind>,
    long_fen_legal: Arc<Kind>,
    long_fen_rulecheck: Arc<Kind>,
    analyses: Arc<Kind>,
    long_game: Arc<Kind>,
    many_games: Arc<Kind>,
    big_cookie: Arc<Kind>,
    many_headers: Arc<Kind>,
    cross_site: Arc<Kind>,
    foreign_host: Arc<Kind>,
    requests: Requests,
}

/// The attack's requests, built once.
struct Requests {
    oversize_referee: Request,
    oversize_legal: Request,
    long_fen_analyse: Request,
    long_fen_legal: Request,
    long_fen_rulecheck: Request,
    analyse: Request,
    long_game: Request,
    many_games: Request,
    big_cookie: Request,
    many_headers: Request,
    cross_site: Request,
    foreign_host: Request,
}

/// How many requests one thread of a phase sends at most, and how long each may take.
const OVERSIZE_MOST: u64 = 5_000;
const OVERSIZE_WAIT: Duration = Duration::from_secs(10);
const QUADRATIC_MOST: u64 = 3_000;
const QUADRATIC_WAIT: Duration = Duration::from_secs(10);
const ANALYSES_CLIENTS: usize = 16;
const ANALYSES_MOST: u64 = 2_000;
const ANALYSES_WAIT: Duration = Duration::from_secs(20);
const HEAVY_CLIENTS: usize = 12;
const HEAVY_MOST: u64 = 500;
const HEAVY_WAIT: Duration = Duration::from_secs(30);
const HEADERS_MOST: u64 = 5_000;
const CROSS_SITE_MOST: u64 = 1_000;
const CROSS_SITE_PAUSE: Duration = Duration::from_millis(100);

impl Attack {
    pub(super) fn new() -> Attack {
        Attack {
            half_open: Kind::new("half-open connections (GET / and no more)"),
            slow_headers: Kind::new("slow headers (a byte a second)"),
            slow_bodies: Kind::new("slow bodies (2 MiB less a byte, then held)"),
            oversize_referee: Kind::new("oversize body: 3 MiB to /api/referee"),
            oversize_legal: Kind::new("oversize body: 1 MiB to /api/legal"),
            long_fen_analyse: Kind::new("long FEN (200,000 fields) to /api/analyse"),
            long_fen_legal: Kind::new("long FEN (200,000 fields) to /api/legal"),
            long_fen_rulecheck: Kind::plain("long FEN (200,000 fields) to rulecheck"),
            analyses: Kind::new("analyses (16 clients, 1,000 ms each)"),
            long_game: Kind::new("heavy referee: one game of 2 MB"),
            many_games: Kind::new("heavy referee: 90,000 one-move games"),
            big_cookie: Kind::new("100 KB cookie"),
            many_headers: Kind::new("16 KB of headers"),
            cross_site: Kind::new("cross-site POST /api/legal (Origin, text/plain)"),
            foreign_host: Kind::new("GET /api/health with Host: evil.example"),
            requests: Requests::new(),
        }
    }

    /// Starts every phase; each stops by itself at `end`.
    pub(super) fn launch(&self, address: SocketAddr, end: Instant) -> Vec<JoinHandle<()>> {
        let mut threads = Vec::new();
        let holds = [
            Hold {
                kind: self.half_open.clone(),
                threads: 5,
                connections: 1_500,
                most_opens: 15_000,
                payload: Arc::from(&b"GET / HTTP/1.1\r\n"[..]),
                pace: None,
            },
            Hold {
                kind: self.slow_headers.clone(),
                threads: 1,
                connections: 20,
                most_opens: 200,
                payload: Arc::from(slow_header(address).into_bytes()),
                pace: Some(Duration::from_secs(1)),
            },
            Hold {
                kind: self.slow_bodies.clone(),
                threads: 1,
                connections: 100,
                most_opens: 1_000,
                payload: Arc::from(slow_body(address)),
                pace: None,
            },
        ];
        for plan in holds {
            let plan = Arc::new(plan);
            for share in 0..plan.threads {
                let plan = plan.clone();
                threads.push(thread::spawn(move || hold(address, &plan, share, end)));
            }
        }
        let r = &self.requests;
        let mut loop_on = |turns: Vec<(Arc<Kind>, Request)>, most, wait, pause| {
            let turns = Loop {
                turns,
                most,
                wait,
                pause,
            };
            threads.push(thread::spawn(move || repeat(address, &turns, end)));
        };
        for i in 0..2 {
            let mut turns = vec![
                (self.oversize_referee.clone(), r.oversize_referee.clone()),
                (self.oversize_legal.clone(), r.oversize_legal.clone()),
            ];
            turns.rotate_left(i);
            loop_on(turns, OVERSIZE_MOST, OVERSIZE_WAIT, Duration::ZERO);
        }
        let quadratic = vec![
            (self.long_fen_analyse.clone(), r.long_fen_analyse.clone()),
            (self.long_fen_legal.clone(), r.long_fen_legal.clone()),
            (
                self.long_fen_rulecheck.clone(),
                r.long_fen_rulecheck.clone(),
            ),
        ];
        loop_on(quadratic, QUADRATIC_MOST, QUADRATIC_WAIT, Duration::ZERO);
        for _ in 0..ANALYSES_CLIENTS {
            let turns = vec![(self.analyses.clone(), r.analyse.clone())];
            loop_on(turns, ANALYSES_MOST, ANALYSES_WAIT, Duration::ZERO);
        }
        for i in 0..HEAVY_CLIENTS {
            let mut turns = vec![
                (self.long_game.clone(), r.long_game.clone()),
                (self.many_games.clone(), r.many_games.clone()),
            ];
            turns.rotate_left(i % 2);
            loop_on(turns, HEAVY_MOST, HEAVY_WAIT, Duration::ZERO);
        }
        let headers = vec![
            (self.big_cookie.clone(), r.big_cookie.clone()),
            (self.many_headers.clone(), r.many_headers.clone()),
        ];
        loop_on(headers, HEADERS_MOST, PROBE_WAIT, Duration::ZERO);
        let cross_site = vec![
            (self.cross_site.clone(), r.cross_site.clone()),
            (self.foreign_host.clone(), r.foreign_host.clone()),
        ];
        loop_on(cross_site, CROSS_SITE_MOST, PROBE_WAIT, CROSS_SITE_PAUSE);
        threads
    }

    fn kinds(&self) -> [(&str, &Arc<Kind>); 15] {
        [
            ("1", &self.half_open),
            ("2", &self.slow_headers),
            ("3", &self.slow_bodies),
            ("4", &self.oversize_referee),
            ("4", &self.oversize_legal),
            ("5", &self.long_fen_analyse),
            ("5", &self.long_fen_legal),
            ("5", &self.long_fen_rulecheck),
            ("6", &self.analyses),
            ("7", &self.long_game),
            ("7", &self.many_games),
            ("8", &self.big_cookie),
            ("8", &self.many_headers),
            ("9", &self.cross_site),
            ("9", &self.foreign_host),
        ]
    }

    pub(super) fn report(&self) {
        println!("attack, by phase:");
        let mut phase = "";
        for (number, kind) in self.kinds() {
            if number != phase {
                println!(" phase {number}");
                phase = number;
            }
            kind.report();
        }
    }

    /// How many error answers had no JSON "error", and the first few.
    pub(super) fn non_json_errors(&self) -> (u64, Vec<String>) {
        let (mut count, mut samples) = (0, Vec::new());
        for (_, kind) in self.kinds() {
            let tally = lock(&kind.tally);
            count += tally.non_json;
            samples.extend(tally.samples.iter().cloned());
        }
        samples.truncate(SAMPLES_KEPT);
        (count, samples)
    }
}

impl Requests {
    fn new() -> Requests {
        let long_fen = format!("{START_FEN}{}", " -".repeat(200_000));
        let long_fen_json = format!("{{\"fen\":\"{long_fen}\"}}");
        let mut oversize_legal = String::from("{\"moves\":[\"h2e2\"],\"padding\":\"");
        oversize_legal.push_str(&"a".repeat((1 << 20) - oversize_legal.len() - 2));
        oversize_legal.push_str("\"}");
        let mut big_cookie = String::from("a=");
        big_cookie.push_str(&"x".repeat(100 * 1024 - 2));
        let mut many_headers = Request::get("/api/health");
        for i in 0..16 {
            many_headers = many_headers.with_header(&format!("X-Padding-{i}"), &"x".repeat(1000));
        }
        let mut foreign_host = Request::get("/api/health");
        foreign_host.host = Some("evil.example".into());
        Requests {
            oversize_referee: Request::post("/api/referee", long_game(3 << 20)),
            oversize_legal: Request::post("/api/legal", oversize_legal),
            long_fen_analyse: Request::post("/api/analyse", long_fen_json.clone()),
            long_fen_legal: Request::post("/api/legal", long_fen_json),
            long_fen_rulecheck: Request::get(format!(
                "/chessdb.php?action=rulecheck&board={}",
                long_fen.replace(' ', "%20")
            )),
            analyse: Request::post("/api/analyse", "{\"movetime_ms\":1000}"),
            long_game: Request::post("/api/referee", long_game(2_000_000)),
            many_games: Request::post("/api/referee", many_games(2_000_000)),
            big_cookie: Request::get("/api/health").with_header("Cookie", &big_cookie),
            many_headers,
            cross_site: Request::post("/api/legal", "{\"moves\":[\"h2e2\"]}")
                .with_header("Origin", "http://evil.example")
                .with_header("Content-Type", "text/plain"),
            foreign_host,
        }
    }
}

/// One game of rook moves back and forth (`1. h2e2 h9g7 2. e2h2 g7h9 …`), about `size` bytes.
fn long_game(size: usize) -> Vec<u8> {
    let mut record = String::from("[Event \"x\"]\n");
    let mut number = 1u64;
    while record.len() + 20 < size {
        let pair = if number % 2 == 1 {
            "h2e2 h9g7"
        } else {
            "e2h2 g7h9"
        };
        record.push_str(&format!("{number}. {pair} "));
        number += 1;
    }
    record.push_str("*\n");
    record.into_bytes()
}

/// One-move games (`[Event "x"]\n1. h2e2 *\n`) to just under `size` bytes.
fn many_games(size: usize) -> Vec<u8> {
    let game = "[Event \"x\"]\n1. h2e2 *\n";
    game.repeat((size - 1) / game.len()).into_bytes()
}

/// A request head too long to finish at a byte a second within the attack.
fn slow_header(address: SocketAddr) -> String {
    format!(
        "GET /api/health HTTP/1.1\r\nHost: {address}\r\nX-Padding: {}\r\n\r\n",
        "x".repeat(200)
    )
}

/// A referee request announcing [`SLOW_BODY_LENGTH`] bytes and carrying all but the last.
pub(super) fn slow_body(address: SocketAddr) -> Vec<u8> {
    let mut request = format!(
        "POST /api/referee HTTP/1.1\r\nHost: {address}\r\nContent-Length: {SLOW_BODY_LENGTH}\r\n\r\n"
    )
    .into_bytes();
    request.resize(request.len() + SLOW_BODY_LENGTH - 1, b' ');
    request
}

/// A phase of requests in turn, each on a connection of its own.
struct Loop {
    turns: Vec<(Arc<Kind>, Request)>,
    /// The most requests sent.
    most: u64,
    /// How long one request may take.
    wait: Duration,
    /// The pause after each.
    pause: Duration,
}

/// Sends the loop's requests in turn until `end` or its count; a request under way at `end` may
/// go on for [`CUT_GRACE`].
fn repeat(address: SocketAddr, plan: &Loop, end: Instant) {
    let cut_at = end + CUT_GRACE;
    for (sent, (kind, request)) in plan.turns.iter().cycle().enumerate() {
        if Instant::now() >= end || sent as u64 >= plan.most {
            break;
        }
        lock(&kind.tally).sent += 1;
        let own = Instant::now() + plan.wait;
        let answer = exchange(address, request, own.min(cut_at));
        kind.record(&answer, cut_at < own);
        if !plan.pause.is_zero() {
            thread::sleep(plan.pause);
        }
    }
}

/// A phase of held connections.
struct Hold {
    kind: Arc<Kind>,
    /// The threads holding them, each its share (so that a slow connect holds up only a share).
    threads: usize,
    /// How many are held at once.
    connections: usize,
    /// The most opened in all.
    most_opens: u64,
    /// What each sends: the whole at once, or a byte each `pace`.
    payload: Arc<[u8]>,
    pace: Option<Duration>,
}

/// One held connection.
struct Held {
    stream: TcpStream,
    opened: Instant,
    sent: usize,
    next_write: Instant,
    received: Vec<u8>,
}

/// Holds share `share` of the phase's connections until `end`, opening another for each the
/// server closes.
fn hold(address: SocketAddr, plan: &Hold, share: usize, end: Instant) {
    let held =
        plan.connections / plan.threads + usize::from(share < plan.connections % plan.threads);
    let most_opens = plan.most_opens / plan.threads as u64;
    let mut slots: Vec<Option<Held>> = (0..held).map(|_| None).collect();
    let mut retry_at = vec![Instant::now(); held];
    let mut opens = 0u64;
    while Instant::now() < end {
        let mut writing = false;
        for (slot, retry) in slots.iter_mut().zip(&mut retry_at) {
            let now = Instant::now();
            if now >= end {
                break;
            }
            if slot.is_none() && opens < most_opens && now >= *retry {
                opens += 1;
                lock(&plan.kind.tally).sent += 1;
                match open_held(address) {
                    Ok(held) => {
                        *slot = Some(held);
                        let mut tally = lock(&plan.kind.tally);
                        tally.open_now += 1;
                        tally.most_open = tally.most_open.max(tally.open_now);
                    }
                    Err(answer) => {
                        plan.kind.record(&answer, false);
                        *retry = now + Duration::from_millis(500);
                    }
                }
            }
            if let Some(held) = slot {
                match held.step(plan) {
                    Ok(wrote) => writing |= wrote,
                    Err(answer) => {
                        plan.kind.record(&answer, false);
                        lock(&plan.kind.tally).open_now -= 1;
                        *slot = None;
                        *retry = Instant::now() + Duration::from_millis(100);
                    }
                }
            }
        }
        thread::sleep(Duration::from_millis(if writing { 2 } else { 100 }));
    }
}

/// A new held connection, not blocking.
fn open_held(address: SocketAddr) -> Result<Held, Answer> {
    let stream = TcpStream::connect_timeout(&address, Duration::from_secs(1))
        .map_err(|e| Answer::NoConnection(e.to_string()))?;
    let _ = stream.set_read_timeout(Some(IO_STEP));
    let _ = stream.set_write_timeout(Some(IO_STEP));
    stream
        .set_nonblocking(true)
        .map_err(|e| Answer::NoConnection(e.to_string()))?;
    let now = Instant::now();
    Ok(Held {
        stream,
        opened: now,
        sent: 0,
        next_write: now,
        received: Vec::new(),
    })
}

impl Held {
    /// Sends what is due and reads what came: whether it wrote, or how the connection ended.
    fn step(&mut self, plan: &Hold) -> Result<bool, Answer> {
        let now = Instant::now();
        let mut wrote = false;
        let mut ended = None;
        if self.sent < plan.payload.len() && now >= self.next_write {
            let size = plan.pace.map_or(64 << 10, |_| 1);
            let end = plan.payload.len().min(self.sent + size);
            match self.stream.write(&plan.payload[self.sent..end]) {
                Ok(0) => ended = Some("send: closed".to_string()),
                Ok(n) => {
                    self.sent += n;
                    wrote = plan.pace.is_none();
                    self.next_write = now + plan.pace.unwrap_or_default();
                }
                Err(e) if is_wait(&e) => {}
                Err(e) => ended = Some(format!("send: {e}")),
            }
        }
        let mut buffer = [0u8; 16 << 10];
        loop {
            match self.stream.read(&mut buffer) {
                Ok(0) => {
                    ended.get_or_insert_with(|| "closed".into());
                    break;
                }
                Ok(n) => {
                    if self.received.len() < (64 << 10) {
                        self.received.extend_from_slice(&buffer[..n]);
                    }
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if is_wait(&e) => break,
                Err(e) => {
                    ended.get_or_insert_with(|| format!("read: {e}"));
                    break;
                }
            }
        }
        let took = self.opened.elapsed();
        match (parse(&self.received), ended) {
            (Some(answer), ended) if answer.complete || ended.is_some() => Err(Answer::Response {
                status: answer.status,
                body: answer.body,
                took,
            }),
            (_, Some(why)) => Err(Answer::Closed { why }),
            _ => Ok(wrote),
        }
    }
}
