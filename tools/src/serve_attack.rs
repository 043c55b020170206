//! `xq-tools serve-attack`: an acceptance test of `xq serve` under attack on loopback. It starts
//! the server, runs bounded attacks at once (half-open connections, slow headers and bodies,
//! oversize bodies, quadratic inputs, many analyses, heavy records, oversize headers, cross-site
//! requests) while a probe measures the latency of `/api/health` and `/api/legal` and the
//! server's memory, then checks that it still serves and that SIGTERM stops it promptly.

use crate::flags::Flags;
use std::collections::{BTreeMap, VecDeque};
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, mpsc};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

const USAGE: &str = "usage: xq-tools serve-attack --xq PATH [--seconds 30] [--health-ms 200] [--legal-ms 1000] [--rss-mb 256]
  --xq         the `xq` binary; `xq serve --port 0` is started and attacked on loopback
  --seconds    how long the attack lasts (1 to 120; default 30)
  --health-ms  the slowest /api/health answer the probe accepts (default 200)
  --legal-ms   the slowest /api/legal answer the probe accepts (default 1000)
  --rss-mb     the most resident memory the server may reach (default 256)";

/// The start position, to which the quadratic input appends its fields.
const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
/// The largest body the server takes (2 MiB); the slow bodies announce one byte less.
const BODY_LIMIT: usize = 2 << 20;
/// What the slow bodies announce.
const SLOW_BODY_LENGTH: usize = BODY_LIMIT - 1;
/// How much of an answer is read; the rest is left unread.
const ANSWER_CAP: usize = 8 << 20;
/// How long an attack's request may go on past the attack's end before it is cut.
const CUT_GRACE: Duration = Duration::from_secs(3);
/// How long the probe and the checks after the attack wait for an answer.
const PROBE_WAIT: Duration = Duration::from_secs(5);
/// The probe's period, and the memory sampling's.
const PROBE_PERIOD: Duration = Duration::from_millis(100);
/// How long the server has to exit after SIGTERM.
const SHUTDOWN_LIMIT: Duration = Duration::from_secs(5);
/// How long the whole run may last past the attack's seconds.
const RUN_MARGIN: Duration = Duration::from_secs(30);
/// The socket timeout of one blocking read or write; the caller then checks its deadline.
const IO_STEP: Duration = Duration::from_millis(250);
/// How many non-JSON error answers are kept as samples.
const SAMPLES_KEPT: usize = 5;

/// Reads the flags, runs the attack and the checks, prints the report; an error lists the bar's
/// failures.
pub fn main(args: &[String]) -> Result<(), String> {
    let mut flags = Flags::new(args, USAGE);
    let mut xq = None;
    let (mut seconds, mut health_ms, mut legal_ms, mut rss_mb) = (30u64, 200u64, 1000u64, 256u64);
    while let Some(flag) = flags.next_flag()? {
        match flag {
            "--xq" => xq = Some(PathBuf::from(flags.value(flag)?)),
            "--seconds" => seconds = flags.parsed(flag)?,
            "--health-ms" => health_ms = flags.parsed(flag)?,
            "--legal-ms" => legal_ms = flags.parsed(flag)?,
            "--rss-mb" => rss_mb = flags.parsed(flag)?,
            other => return Err(format!("unknown flag {other}\n{USAGE}")),
        }
    }
    let xq = xq.ok_or_else(|| format!("--xq is needed\n{USAGE}"))?;
    if !(1..=120).contains(&seconds) {
        return Err(format!("--seconds 1 to 120\n{USAGE}"));
    }
    let bar = Bar {
        health: Duration::from_millis(health_ms),
        legal: Duration::from_millis(legal_ms),
        rss_kib: rss_mb * 1024,
    };
    let attack_time = Duration::from_secs(seconds);
    let run_end = Instant::now() + attack_time + RUN_MARGIN;
    let server = Server::start(&xq)?;
    let finished = Arc::new(AtomicBool::new(false));
    let watchdog = {
        let (child, finished) = (server.child.clone(), finished.clone());
        thread::spawn(move || watch(child, &finished, run_end))
    };
    // The run's own limits end a second before the last resort's.
    let outcome = run(&server, attack_time, run_end - Duration::from_secs(1), &bar);
    finished.store(true, Ordering::SeqCst);
    drop(server);
    let _ = watchdog.join();
    outcome
}

/// The limits the server must stay within.
struct Bar {
    health: Duration,
    legal: Duration,
    rss_kib: u64,
}

/// The attack, the checks after it and the report.
fn run(server: &Server, attack_time: Duration, run_end: Instant, bar: &Bar) -> Result<(), String> {
    let address = server.address;
    let files_raised = raise_file_limit();
    println!(
        "xq serve at {address} (process {}, open-file limit {}), attacked for {} s; this tool's open-file limit {files_raised}",
        server.pid,
        server_file_limit(server.pid).unwrap_or_else(|| "unknown".into()),
        attack_time.as_secs()
    );
    println!(
        "bar: health at most {} ms, legal at most {} ms, no probe failure, memory at most {} MiB, every error JSON, serving after the attack, exit 0 within 5 s of SIGTERM",
        bar.health.as_millis(),
        bar.legal.as_millis(),
        bar.rss_kib / 1024
    );
    let rss_at_start = resident_kib(server.pid);
    let fds_at_start = open_files(server.pid);
    let attack_end = Instant::now() + attack_time;
    let attack = Attack::new();
    let attackers = attack.launch(address, attack_end);
    let probe = thread::spawn(move || probe(address, attack_end));

    // Memory and descriptors while the attack lasts, until every attacker has stopped.
    let (mut rss_peak, mut fds_peak) = (rss_at_start, fds_at_start);
    let mut tick = 0u64;
    while Instant::now() < run_end
        && (!probe.is_finished() || attackers.iter().any(|a| !a.is_finished()))
    {
        thread::sleep(PROBE_PERIOD);
        rss_peak = rss_peak.max(resident_kib(server.pid));
        if tick.is_multiple_of(5) {
            fds_peak = fds_peak.max(open_files(server.pid));
        }
        tick += 1;
    }
    for attacker in attackers {
        let _ = attacker.join();
    }
    let probe = probe.join().map_err(|_| "the probe's thread failed")?;

    // The attackers' connections are closed; wait for the server to let go of them too.
    let settle_end = (Instant::now() + Duration::from_secs(5)).min(run_end);
    let baseline = fds_at_start.unwrap_or(0) + 4;
    let settling = Instant::now();
    while Instant::now() < settle_end && open_files(server.pid).is_some_and(|n| n > baseline) {
        rss_peak = rss_peak.max(resident_kib(server.pid));
        thread::sleep(PROBE_PERIOD);
    }
    let fds_after = open_files(server.pid);
    let settled = settling.elapsed();
    let rss_after = resident_kib(server.pid);
    rss_peak = rss_peak.max(rss_after);
    let after_check = check_after(address, run_end);
    let shutdown = shut_down(server, address, run_end);

    let mut failures = Vec::new();
    attack.report();
    println!(
        "probe ({} rounds, a fresh connection each request, every 100 ms unless one is slower):",
        probe.rounds
    );
    for (name, times, limit) in [
        ("GET /api/health", &probe.health, bar.health),
        ("POST /api/legal", &probe.legal, bar.legal),
    ] {
        let (median, p99, max) = spread(times);
        println!(
            "  {name}: {} good answers, median {median:.1} ms, p99 {p99:.1} ms, max {max:.1} ms",
            times.len()
        );
        if max > limit.as_secs_f64() * 1000.0 {
            failures.push(format!(
                "{name}: slowest answer {max:.1} ms, over {} ms",
                limit.as_millis()
            ));
        }
    }
    println!("  failures: {}", probe.failures.len());
    for failure in probe.failures.iter().take(SAMPLES_KEPT) {
        println!("    {failure}");
    }
    if !probe.failures.is_empty() {
        failures.push(format!("probe failures: {}", probe.failures.len()));
    }
    let kib = |k: Option<u64>| k.map_or("unknown".to_string(), |k| format!("{} MiB", k / 1024));
    let count = |n: Option<u64>| n.map_or("unknown".to_string(), |n| n.to_string());
    println!(
        "server memory: {} at the start, {} at most, {} after the attack",
        kib(rss_at_start),
        kib(rss_peak),
        kib(rss_after)
    );
    println!(
        "server descriptors: {} at the start, {} at most, {} after the attack (waited {} ms for them to close)",
        count(fds_at_start),
        count(fds_peak),
        count(fds_after),
        settled.as_millis()
    );
    match rss_peak {
        Some(peak) if peak > bar.rss_kib => failures.push(format!(
            "memory reached {} MiB, over {} MiB",
            peak / 1024,
            bar.rss_kib / 1024
        )),
        None => failures.push("the server's memory could not be read".into()),
        _ => {}
    }
    let (odd_count, odd_samples) = attack.non_json_errors();
    println!("non-JSON error answers: {odd_count}");
    for sample in &odd_samples {
        println!("  {sample}");
    }
    if odd_count > 0 {
        failures.push(format!(
            "{odd_count} error answers without a JSON \"error\""
        ));
    }
    println!("after the attack:");
    for (name, problem) in &after_check {
        println!("  {name}: {}", problem.as_deref().unwrap_or("ok"));
        if let Some(problem) = problem {
            failures.push(format!("after the attack, {name}: {problem}"));
        }
    }
    println!("shutdown: {}", shutdown.words);
    failures.extend(shutdown.failure);
    server.report_stderr();
    if failures.is_empty() {
        println!("bar: met");
        Ok(())
    } else {
        println!("bar: {} failures", failures.len());
        for failure in &failures {
            println!("  {failure}");
        }
        Err(format!(
            "serve-attack: {} failures of the bar",
            failures.len()
        ))
    }
}

/// The median, 99th percentile and maximum of some latencies, in milliseconds.
fn spread(times: &[Duration]) -> (f64, f64, f64) {
    let mut ms: Vec<f64> = times.iter().map(|t| t.as_secs_f64() * 1000.0).collect();
    ms.sort_by(f64::total_cmp);
    let at = |p: f64| {
        ms.get(((ms.len() as f64 - 1.0) * p).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    (at(0.5), at(0.99), ms.last().copied().unwrap_or(0.0))
}

// ---------------------------------------------------------------------------------------------
// The server process.

/// `xq serve --port 0`, started here; killed when dropped, if it is still running.
struct Server {
    child: Arc<Mutex<Child>>,
    pid: u32,
    address: SocketAddr,
    /// The last lines the server wrote to stderr, and how many it wrote.
    stderr: Arc<Mutex<(VecDeque<String>, u64)>>,
}

impl Server {
    /// Starts the server and reads the address it listens on from its first line.
    fn start(xq: &Path) -> Result<Server, String> {
        let mut child = Command::new(xq)
            .args(["serve", "--port", "0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", xq.display()))?;
        let pid = child.id();
        let (stdout, stderr_pipe) = (child.stdout.take(), child.stderr.take());
        let child = Arc::new(Mutex::new(child));
        let stderr = Arc::new(Mutex::new((VecDeque::new(), 0)));
        let mut server = Server {
            child,
            pid,
            address: SocketAddr::from(([127, 0, 0, 1], 0)),
            stderr: stderr.clone(),
        };
        if let Some(pipe) = stderr_pipe {
            thread::spawn(move || {
                for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                    let mut tail = lock(&stderr);
                    tail.0.push_back(line);
                    tail.1 += 1;
                    if tail.0.len() > 5 {
                        tail.0.pop_front();
                    }
                }
            });
        }
        let (sender, first_line) = mpsc::channel();
        if let Some(pipe) = stdout {
            thread::spawn(move || {
                let mut lines = BufReader::new(pipe).lines();
                let _ = sender.send(lines.next());
                // The rest is read and dropped, so the server never blocks on a full pipe.
                for _ in lines {}
            });
        }
        let line = match first_line.recv_timeout(Duration::from_secs(10)) {
            Ok(Some(Ok(line))) => line,
            Ok(_) => return Err("the server wrote nothing and closed its output".into()),
            Err(_) => return Err("the server did not say where it listens within 10 s".into()),
        };
        server.address = line
            .trim()
            .strip_prefix("xq serve: listening on http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .and_then(|a| a.parse::<SocketAddr>().ok())
            .ok_or_else(|| format!("the server's first line is not its address: {line:?}"))?;
        if !server.address.ip().is_loopback() {
            return Err(format!(
                "the server listens on {}: only a loopback address is attacked",
                server.address
            ));
        }
        Ok(server)
    }

    /// Whether the server has exited, and how.
    fn exited(&self) -> Option<ExitStatus> {
        lock(&self.child).try_wait().ok().flatten()
    }

    /// Sends SIGTERM.
    fn terminate(&self) -> Result<(), String> {
        use rustix::process::{Pid, Signal, kill_process};
        let mut child = lock(&self.child);
        if child.try_wait().ok().flatten().is_some() {
            return Err("the server had already exited".into());
        }
        kill_process(Pid::from_child(&child), Signal::TERM).map_err(|e| format!("SIGTERM: {e}"))
    }

    /// Prints what the server wrote to stderr, if anything.
    fn report_stderr(&self) {
        let tail = lock(&self.stderr);
        if tail.1 > 0 {
            println!("server stderr: {} lines, the last:", tail.1);
            for line in &tail.0 {
                println!("  {line}");
            }
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        end_child(&self.child);
    }
}

/// Kills the child (SIGKILL) if it is still running, and reaps it.
fn end_child(child: &Mutex<Child>) {
    let mut child = lock(child);
    if child.try_wait().ok().flatten().is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// The last resort: past `run_end`, the server is killed and this process exits.
fn watch(child: Arc<Mutex<Child>>, finished: &AtomicBool, run_end: Instant) {
    while !finished.load(Ordering::SeqCst) {
        if Instant::now() >= run_end {
            end_child(&child);
            eprintln!("serve-attack: the run went past its time limit; the server was killed");
            std::process::exit(1);
        }
        thread::sleep(Duration::from_millis(100));
    }
}

/// A mutex's value, even if a thread panicked holding it.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// Raises this process's open-file soft limit to the hard limit; the limit now, in words.
fn raise_file_limit() -> String {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut limit = getrlimit(Resource::Nofile);
    if limit.current != limit.maximum {
        limit.current = limit.maximum;
        let _ = setrlimit(Resource::Nofile, limit);
    }
    getrlimit(Resource::Nofile)
        .current
        .map_or("unlimited".to_string(), |n| n.to_string())
}

/// The server's open-file soft limit, from `/proc`.
fn server_file_limit(pid: u32) -> Option<String> {
    let limits = std::fs::read_to_string(format!("/proc/{pid}/limits")).ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3).map(str::to_string)
}

/// A process's resident memory in KiB, from `/proc`.
fn resident_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
}

/// How many files a process has open, from `/proc`.
fn open_files(pid: u32) -> Option<u64> {
    Some(std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?.count() as u64)
}

// ---------------------------------------------------------------------------------------------
// Requests and answers.

/// A request sent on a connection of its own.
#[derive(Clone)]
struct Request {
    method: &'static str,
    target: String,
    /// Header lines besides Host, Content-Length and Connection, each ending in CRLF.
    headers: String,
    /// The Host header; the server's address if none.
    host: Option<String>,
    body: Arc<[u8]>,
}

impl Request {
    fn get(target: impl Into<String>) -> Request {
        Request {
            method: "GET",
            target: target.into(),
            headers: String::new(),
            host: None,
            body: Arc::from(&b""[..]),
        }
    }

    fn post(target: impl Into<String>, body: impl Into<Vec<u8>>) -> Request {
        Request {
            method: "POST",
            target: target.into(),
            headers: String::new(),
            host: None,
            body: Arc::from(body.into()),
        }
    }

    fn with_header(mut self, name: &str, value: &str) -> Request {
        self.headers.push_str(&format!("{name}: {value}\r\n"));
        self
    }

    fn head(&self, address: SocketAddr) -> Vec<u8> {
        let host = self.host.clone().unwrap_or_else(|| address.to_string());
        let length = if self.method == "POST" || !self.body.is_empty() {
            format!("Content-Length: {}\r\n", self.body.len())
        } else {
            String::new()
        };
        format!(
            "{} {} HTTP/1.1\r\nHost: {host}\r\n{}{length}Connection: close\r\n\r\n",
            self.method, self.target, self.headers
        )
        .into_bytes()
    }
}

/// What came of a request.
enum Answer {
    /// A response: its status and body.
    Response {
        status: u16,
        body: Vec<u8>,
        took: Duration,
    },
    /// The connection was closed or reset before a whole response came.
    Closed { why: String },
    /// No whole response by the request's deadline.
    TimedOut,
    /// No connection.
    NoConnection(String),
}

/// Sends `request` on a fresh connection and reads the response, all before `until`.
fn exchange(address: SocketAddr, request: &Request, until: Instant) -> Answer {
    let started = Instant::now();
    let Some(left) = until
        .checked_duration_since(started)
        .filter(|d| !d.is_zero())
    else {
        return Answer::TimedOut;
    };
    let mut stream = match TcpStream::connect_timeout(&address, left.min(PROBE_WAIT)) {
        Ok(stream) => stream,
        Err(e) if e.kind() == ErrorKind::TimedOut => return Answer::TimedOut,
        Err(e) => return Answer::NoConnection(e.to_string()),
    };
    let _ = stream.set_nodelay(true);
    let _ = stream.set_read_timeout(Some(IO_STEP));
    let _ = stream.set_write_timeout(Some(IO_STEP));
    let sent = send(&mut stream, &[&request.head(address), &request.body], until);
    if let Err(Stop::Deadline) = sent {
        return Answer::TimedOut;
    }
    let (data, end) = receive(&mut stream, until);
    let took = started.elapsed();
    match parse(&data) {
        Some(answer) if answer.complete || matches!(end, Stop::Eof | Stop::Failed(_)) => {
            Answer::Response {
                status: answer.status,
                body: answer.body,
                took,
            }
        }
        _ => match (sent, end) {
            (_, Stop::Deadline) => Answer::TimedOut,
            (Err(Stop::Failed(e)), _) => Answer::Closed {
                why: format!("send: {e}"),
            },
            (_, Stop::Failed(e)) => Answer::Closed {
                why: format!("read: {e}"),
            },
            _ if data.is_empty() => Answer::Closed {
                why: "closed with no answer".into(),
            },
            _ => Answer::Closed {
                why: "closed within the answer".into(),
            },
        },
    }
}

/// Why sending or receiving stopped.
enum Stop {
    /// The deadline passed.
    Deadline,
    /// The peer closed the connection.
    Eof,
    /// An error.
    Failed(std::io::Error),
}

/// Writes the parts in turn until `until` (the socket's write timeout is [`IO_STEP`]).
fn send(stream: &mut TcpStream, parts: &[&[u8]], until: Instant) -> Result<(), Stop> {
    for part in parts {
        let mut at = 0;
        while at < part.len() {
            if Instant::now() >= until {
                return Err(Stop::Deadline);
            }
            let end = part.len().min(at + (64 << 10));
            match stream.write(&part[at..end]) {
                Ok(0) => return Err(Stop::Eof),
                Ok(n) => at += n,
                Err(e) if is_wait(&e) => {}
                Err(e) => return Err(Stop::Failed(e)),
            }
        }
    }
    Ok(())
}

/// Reads a response until it is whole, the peer closes, an error, [`ANSWER_CAP`] bytes or
/// `until`; what was read, and why it stopped (`Eof` also for a whole or capped response).
fn receive(stream: &mut TcpStream, until: Instant) -> (Vec<u8>, Stop) {
    let mut data = Vec::new();
    let mut buffer = vec![0u8; 64 << 10];
    loop {
        if Instant::now() >= until {
            return (data, Stop::Deadline);
        }
        match stream.read(&mut buffer) {
            Ok(0) => return (data, Stop::Eof),
            Ok(n) => {
                data.extend_from_slice(&buffer[..n]);
                if data.len() >= ANSWER_CAP || parse(&data).is_some_and(|a| a.complete) {
                    return (data, Stop::Eof);
                }
            }
            Err(e) if is_wait(&e) => {}
            Err(e) => return (data, Stop::Failed(e)),
        }
    }
}

/// Whether an error only means "not yet".
fn is_wait(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted
    )
}

/// A response read so far.
struct Parsed {
    status: u16,
    body: Vec<u8>,
    /// Whether the body is whole (by its length, or its last chunk).
    complete: bool,
}

/// The status and body of a response read so far; `None` until its head is whole.
fn parse(data: &[u8]) -> Option<Parsed> {
    let end = data.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&data[..end]);
    let mut lines = head.split("\r\n");
    let status: u16 = lines.next()?.split_whitespace().nth(1)?.parse().ok()?;
    let (mut length, mut chunked) = (None, false);
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let (name, value) = (name.trim(), value.trim());
        if name.eq_ignore_ascii_case("content-length") {
            length = value.parse::<usize>().ok();
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            chunked = value.to_ascii_lowercase().contains("chunked");
        }
    }
    let rest = &data[end + 4..];
    let (body, complete) = if chunked {
        dechunk(rest)
    } else if let Some(length) = length {
        (
            rest[..rest.len().min(length)].to_vec(),
            rest.len() >= length,
        )
    } else {
        let bodiless = status < 200 || status == 204 || status == 304;
        (rest.to_vec(), bodiless)
    };
    Some(Parsed {
        status,
        body,
        complete,
    })
}

/// A chunked body read so far: its data, and whether the last chunk came.
fn dechunk(mut rest: &[u8]) -> (Vec<u8>, bool) {
    let mut body = Vec::new();
    loop {
        let Some(line_end) = rest.windows(2).position(|w| w == b"\r\n") else {
            return (body, false);
        };
        let size_text = String::from_utf8_lossy(&rest[..line_end]);
        let size_text = size_text.split(';').next().unwrap_or("").trim();
        let Ok(size) = usize::from_str_radix(size_text, 16) else {
            return (body, false);
        };
        if size == 0 {
            return (body, true);
        }
        let start = line_end + 2;
        let Some(chunk) = rest.get(start..start + size) else {
            body.extend_from_slice(&rest[start.min(rest.len())..]);
            return (body, false);
        };
        body.extend_from_slice(chunk);
        rest = rest.get(start + size + 2..).unwrap_or(&[]);
    }
}

/// Whether a body is a JSON object with an "error" string.
fn json_error(body: &[u8]) -> bool {
    let text = String::from_utf8_lossy(body);
    let text = text.trim();
    text.starts_with('{')
        && text.ends_with('}')
        && text.match_indices("\"error\"").any(|(at, key)| {
            text[at + key.len()..]
                .trim_start()
                .strip_prefix(':')
                .is_some_and(|value| value.trim_start().starts_with('"'))
        })
}

/// The first bytes of a body, as text.
fn opening(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(&body[..body.len().min(80)]);
    format!("{text:?}")
}

// ---------------------------------------------------------------------------------------------
// The attack's phases and what they got.

/// One kind of attack request and what it got.
struct Kind {
    label: &'static str,
    /// Whether its error answers are plain text by design (chessdb's `rulecheck`).
    plain_errors: bool,
    tally: Mutex<Tally>,
}

/// What one kind of request got.
#[derive(Default)]
struct Tally {
    /// Connections opened (held phases) or requests sent.
    sent: u64,
    statuses: BTreeMap<u16, u64>,
    closed: u64,
    /// The first few reasons connections were closed.
    closed_why: Vec<String>,
    timed_out: u64,
    /// Requests cut at the attack's end.
    cut: u64,
    no_connection: u64,
    /// The first few reasons connections could not be made.
    no_connection_why: Vec<String>,
    slowest: Duration,
    /// The held phases: the most connections open at once, and those open at the end.
    most_open: u64,
    open_now: u64,
    /// The first response: status and opening.
    first: Option<String>,
    /// Error answers without a JSON "error": how many, and the first few.
    non_json: u64,
    samples: Vec<String>,
}

impl Kind {
    fn new(label: &'static str) -> Arc<Kind> {
        Arc::new(Kind {
            label,
            plain_errors: false,
            tally: Mutex::new(Tally::default()),
        })
    }

    fn plain(label: &'static str) -> Arc<Kind> {
        Arc::new(Kind {
            label,
            plain_errors: true,
            tally: Mutex::new(Tally::default()),
        })
    }

    /// Counts what a request got; `cut`: whether its deadline was the attack's end.
    fn record(&self, answer: &Answer, cut: bool) {
        let mut tally = lock(&self.tally);
        match answer {
            Answer::Response { status, body, took } => {
                *tally.statuses.entry(*status).or_default() += 1;
                tally.slowest = tally.slowest.max(*took);
                if tally.first.is_none() {
                    tally.first = Some(format!("{status} {}", opening(body)));
                }
                if *status >= 400 && !self.plain_errors && !json_error(body) {
                    tally.non_json += 1;
                    if tally.samples.len() < SAMPLES_KEPT {
                        let sample = format!("{}: {status} {}", self.label, opening(body));
                        tally.samples.push(sample);
                    }
                }
            }
            Answer::Closed { why } => {
                tally.closed += 1;
                keep_reason(&mut tally.closed_why, why);
            }
            Answer::TimedOut if cut => tally.cut += 1,
            Answer::TimedOut => tally.timed_out += 1,
            Answer::NoConnection(why) => {
                tally.no_connection += 1;
                keep_reason(&mut tally.no_connection_why, why);
            }
        }
    }

    fn report(&self) {
        let tally = lock(&self.tally);
        let mut parts = vec![format!("{} sent", tally.sent)];
        if tally.most_open > 0 {
            parts[0] = format!(
                "{} opened, at most {} open at once, {} open at the end",
                tally.sent, tally.most_open, tally.open_now
            );
        }
        if !tally.statuses.is_empty() {
            let statuses: Vec<String> = tally
                .statuses
                .iter()
                .map(|(status, n)| format!("{status} ×{n}"))
                .collect();
            parts.push(format!("answers {}", statuses.join(", ")));
        }
        if tally.closed > 0 {
            parts.push(format!(
                "closed or reset {} ({})",
                tally.closed,
                tally.closed_why.join("; ")
            ));
        }
        if tally.no_connection > 0 {
            parts.push(format!(
                "no connection {} ({})",
                tally.no_connection,
                tally.no_connection_why.join("; ")
            ));
        }
        for (n, words) in [
            (tally.timed_out, "no answer in time"),
            (tally.cut, "cut at the attack's end"),
            (tally.non_json, "non-JSON errors"),
        ] {
            if n > 0 {
                parts.push(format!("{words} {n}"));
            }
        }
        if !tally.statuses.is_empty() {
            parts.push(format!("slowest answer {} ms", tally.slowest.as_millis()));
        }
        println!("  {}: {}", self.label, parts.join("; "));
        if let Some(first) = &tally.first {
            println!("      first answer: {first}");
        }
    }
}

/// Keeps a reason among the first three different ones.
fn keep_reason(reasons: &mut Vec<String>, why: &str) {
    if reasons.len() < 3 && !reasons.iter().any(|r| r == why) {
        reasons.push(why.to_string());
    }
}

/// Every kind of attack request, and the requests of each phase.
struct Attack {
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
    fn new() -> Attack {
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
    fn launch(&self, address: SocketAddr, end: Instant) -> Vec<JoinHandle<()>> {
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

    fn report(&self) {
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
    fn non_json_errors(&self) -> (u64, Vec<String>) {
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
fn slow_body(address: SocketAddr) -> Vec<u8> {
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

// ---------------------------------------------------------------------------------------------
// The probe, the checks after the attack, and shutdown.

/// What the probe measured: the latencies of good answers, and the failures in words.
struct Probe {
    rounds: u64,
    health: Vec<Duration>,
    legal: Vec<Duration>,
    failures: Vec<String>,
}

/// Every [`PROBE_PERIOD`] until `end`: `GET /api/health` and `POST /api/legal`, each on a fresh
/// connection, each within [`PROBE_WAIT`].
fn probe(address: SocketAddr, end: Instant) -> Probe {
    let health = Request::get("/api/health");
    let legal = Request::post("/api/legal", "{\"moves\":[\"h2e2\"]}");
    let started = Instant::now();
    let mut result = Probe {
        rounds: 0,
        health: Vec::new(),
        legal: Vec::new(),
        failures: Vec::new(),
    };
    let mut next = Instant::now();
    while next < end {
        if let Some(wait) = next.checked_duration_since(Instant::now()) {
            thread::sleep(wait);
        }
        next += PROBE_PERIOD;
        result.rounds += 1;
        let at = started.elapsed().as_secs_f64();
        match served(address, &health, "", Instant::now() + PROBE_WAIT) {
            Ok(took) => result.health.push(took),
            Err(e) => result.failures.push(format!("at {at:.1} s, health: {e}")),
        }
        match served(address, &legal, "legal_moves", Instant::now() + PROBE_WAIT) {
            Ok(took) => result.legal.push(took),
            Err(e) => result.failures.push(format!("at {at:.1} s, legal: {e}")),
        }
        next = next.max(Instant::now());
    }
    result
}

/// A request that must get 200 with `needed` in its body: how long it took, or what was wrong.
fn served(
    address: SocketAddr,
    request: &Request,
    needed: &str,
    until: Instant,
) -> Result<Duration, String> {
    match exchange(address, request, until) {
        Answer::Response { status, body, took } => {
            let text = String::from_utf8_lossy(&body);
            if status == 200 && text.contains(needed) {
                Ok(took)
            } else {
                Err(format!(
                    "status {status} after {} ms, {}",
                    took.as_millis(),
                    opening(&body)
                ))
            }
        }
        Answer::Closed { why } => Err(format!("connection closed: {why}")),
        Answer::TimedOut => Err("no answer in time".into()),
        Answer::NoConnection(e) => Err(format!("no connection: {e}")),
    }
}

/// After the attack: health, legal moves and a small record, each with what was wrong if
/// anything.
fn check_after(address: SocketAddr, run_end: Instant) -> Vec<(&'static str, Option<String>)> {
    /// What a good answer's body holds.
    type Good = fn(&str) -> bool;
    let checks: [(&str, Request, Good); 3] = [
        ("GET /api/health", Request::get("/api/health"), |body| {
            body.contains("\"ok\"")
        }),
        (
            "POST /api/legal",
            Request::post("/api/legal", "{\"moves\":[\"h2e2\"]}"),
            |body| body.contains("legal_moves"),
        ),
        (
            "POST /api/referee",
            Request::post("/api/referee", "[Event \"x\"]\n1. h2e2 h9g7 *\n"),
            |body| body.trim_start().starts_with('['),
        ),
    ];
    checks
        .into_iter()
        .map(|(name, request, good)| {
            let until = (Instant::now() + PROBE_WAIT).min(run_end);
            let problem = match exchange(address, &request, until) {
                Answer::Response { status, body, .. }
                    if status == 200 && good(&String::from_utf8_lossy(&body)) =>
                {
                    None
                }
                Answer::Response { status, body, .. } => {
                    Some(format!("status {status}, {}", opening(&body)))
                }
                Answer::Closed { why } => Some(format!("connection closed: {why}")),
                Answer::TimedOut => Some("no answer in time".into()),
                Answer::NoConnection(e) => Some(format!("no connection: {e}")),
            };
            (name, problem)
        })
        .collect()
}

/// How shutdown went: in words, and the bar's failure if any.
struct Shutdown {
    words: String,
    failure: Option<String>,
}

/// Opens 20 half-open connections and one slow body, sends SIGTERM, and times the exit.
fn shut_down(server: &Server, address: SocketAddr, run_end: Instant) -> Shutdown {
    let mut held = Vec::new();
    for _ in 0..20 {
        if let Ok(mut stream) = TcpStream::connect_timeout(&address, Duration::from_secs(1)) {
            let _ = stream.set_read_timeout(Some(IO_STEP));
            let _ = stream.set_write_timeout(Some(IO_STEP));
            if stream.write_all(b"GET / HTTP/1.1\r\n").is_ok() {
                held.push(stream);
            }
        }
    }
    let half_open = held.len();
    let mut slow_body_sent = false;
    if let Ok(mut stream) = TcpStream::connect_timeout(&address, Duration::from_secs(1)) {
        let _ = stream.set_read_timeout(Some(IO_STEP));
        let _ = stream.set_write_timeout(Some(IO_STEP));
        let until = (Instant::now() + Duration::from_secs(3)).min(run_end);
        slow_body_sent = send(&mut stream, &[&slow_body(address)], until).is_ok();
        held.push(stream);
    }
    thread::sleep(Duration::from_millis(200));
    let held_words = format!(
        "{half_open} half-open connections and {} slow body held",
        if slow_body_sent { "a" } else { "no" }
    );
    if let Err(e) = server.terminate() {
        return Shutdown {
            failure: Some(format!("shutdown: {e}")),
            words: format!("{held_words}; {e}"),
        };
    }
    let sent = Instant::now();
    let limit = (sent + SHUTDOWN_LIMIT).min(run_end);
    let status = loop {
        if let Some(status) = server.exited() {
            break Some(status);
        }
        if Instant::now() >= limit {
            break None;
        }
        thread::sleep(Duration::from_millis(10));
    };
    let took = sent.elapsed();
    drop(held);
    match status {
        Some(status) if status.success() => Shutdown {
            words: format!(
                "{held_words}; exited {} ms after SIGTERM, status 0",
                took.as_millis()
            ),
            failure: (took > SHUTDOWN_LIMIT)
                .then(|| format!("shutdown took {} ms, over 5 s", took.as_millis())),
        },
        Some(status) => Shutdown {
            words: format!(
                "{held_words}; exited {} ms after SIGTERM, {status}",
                took.as_millis()
            ),
            failure: Some(format!("the server exited with {status} after SIGTERM")),
        },
        None => {
            end_child(&server.child);
            Shutdown {
                words: format!(
                    "{held_words}; still running {} ms after SIGTERM, killed",
                    took.as_millis()
                ),
                failure: Some(format!(
                    "the server did not exit within {} ms of SIGTERM",
                    took.as_millis()
                )),
            }
        }
    }
}
