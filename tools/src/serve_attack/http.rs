//! A raw HTTP/1.1 client for the attack and the probe: a request on a connection of its own,
//! sent and read against a deadline, and the response parsed (by length or chunks) however far
//! it came.

use super::{ANSWER_CAP, IO_STEP, PROBE_WAIT};
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A request sent on a connection of its own.
#[derive(Clone)]
pub(super) struct Request {
    method: &'static str,
    target: String,
    /// Header lines besides Host, Content-Length and Connection, each ending in CRLF.
    headers: String,
    /// The Host header; the server's address if none.
    pub(super) host: Option<String>,
    body: Arc<[u8]>,
}

impl Request {
    pub(super) fn get(target: impl Into<String>) -> Request {
        Request {
            method: "GET",
            target: target.into(),
            headers: String::new(),
            host: None,
            body: Arc::from(&b""[..]),
        }
    }

    pub(super) fn post(target: impl Into<String>, body: impl Into<Vec<u8>>) -> Request {
        Request {
            method: "POST",
            target: target.into(),
            headers: String::new(),
            host: None,
            body: Arc::from(body.into()),
        }
    }

    pub(super) fn with_header(mut self, name: &str, value: &str) -> Request {
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
pub(super) enum Answer {
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
pub(super) fn exchange(address: SocketAddr, request: &Request, until: Instant) -> Answer {
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
pub(super) enum Stop {
    /// The deadline passed.
    Deadline,
    /// The peer closed the connection.
    Eof,
    /// An error.
    Failed(std::io::Error),
}

/// Writes the parts in turn until `until` (the socket's write timeout is [`IO_STEP`]).
pub(super) fn send(stream: &mut TcpStream, parts: &[&[u8]], until: Instant) -> Result<(), Stop> {
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
pub(super) fn is_wait(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted
    )
}

/// A response read so far.
pub(super) struct Parsed {
    pub(super) status: u16,
    pub(super) body: Vec<u8>,
    /// Whether the body is whole (by its length, or its last chunk).
    pub(super) complete: bool,
}

/// The status and body of a response read so far; `None` until its head is whole.
pub(super) fn parse(data: &[u8]) -> Option<Parsed> {
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
pub(super) fn json_error(body: &[u8]) -> bool {
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
pub(super) fn opening(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(&body[..body.len().min(80)]);
    format!("{text:?}")
}
