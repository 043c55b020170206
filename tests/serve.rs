//! `xq serve` over real HTTP on loopback: each endpoint's answers (the WXF cases through
//! `/api/referee` and chessdb's `rulecheck` give the book's results), bad and oversized requests
//! refused with 4xx while the server keeps serving, hosts, origins and header sizes checked, a
//! busy engine pool answering 503 and an engine freed when its client leaves, and a graceful stop
//! on SIGTERM within seconds, stalled connections or not.
#![cfg(feature = "serve")]

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `xq serve` on a free loopback port.
struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xq"))
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("xq serve starts");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the listening line");
        let address = line
            .trim()
            .strip_prefix("xq serve: listening on http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        Server { child, address }
    }

    fn request(&self, method: &str, path: &str, body: &[u8]) -> (u16, Vec<u8>) {
        request(&self.address, method, path, body)
    }

    fn json(&self, method: &str, path: &str, body: &str) -> (u16, Value) {
        let (status, body) = self.request(method, path, body.as_bytes());
        let value = serde_json::from_slice(&body).unwrap_or_else(|e| {
            panic!(
                "{path}: not JSON ({e}): {:?}",
                String::from_utf8_lossy(&body)
            )
        });
        (status, value)
    }

    fn text(&self, path: &str) -> (u16, String) {
        let (status, body) = self.request("GET", path, b"");
        (status, String::from_utf8_lossy(&body).into_owned())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One request on its own connection to `address`: the status and the body.
fn request(address: &str, method: &str, path: &str, body: &[u8]) -> (u16, Vec<u8>) {
    let mut stream = TcpStream::connect(address).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        address,
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    // A server may answer (413) before it has read the whole body; that is fine.
    let _ = stream.write_all(body);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    parse_answer(&answer)
}

/// One request written as given (head and body) on its own connection: the status and the body.
fn raw(address: &str, request: &[u8]) -> (u16, Vec<u8>) {
    let mut stream = TcpStream::connect(address).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    stream.write_all(request).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    parse_answer(&answer)
}

/// Splits an HTTP/1.1 answer into status and body (plain or chunked).
fn parse_answer(answer: &[u8]) -> (u16, Vec<u8>) {
    let split = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {:?}", String::from_utf8_lossy(answer)));
    let head = String::from_utf8_lossy(&answer[..split]).to_ascii_lowercase();
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status code");
    let mut body = answer[split + 4..].to_vec();
    if head.contains("transfer-encoding: chunked") {
        let mut plain = Vec::new();
        let mut rest = &body[..];
        while let Some(end) = rest.windows(2).position(|w| w == b"\r\n") {
            let size = usize::from_str_radix(String::from_utf8_lossy(&rest[..end]).trim(), 16)
                .expect("a chunk size");
            if size == 0 {
                break;
            }
            plain.extend_from_slice(&rest[end + 2..end + 2 + size]);
            rest = &rest[end + 2 + size + 2..];
        }
        body = plain;
    }
    (status, body)
}

/// The WXF cases: (case, fen, moves, result).
fn cases() -> Vec<(String, String, Vec<String>, String)> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/wxf_cases/cases.tsv"))
        .expect("wxf_cases/cases.tsv");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            (
                cols[0].to_string(),
                cols[2].to_string(),
                cols[3].split_whitespace().map(str::to_string).collect(),
                cols[4].to_string(),
            )
        })
        .collect()
}

/// Every case as one record file, each a game with its FEN.
fn cases_record(cases: &[(String, String, Vec<String>, String)]) -> String {
    let mut record = String::new();
    for (id, fen, moves, _) in cases {
        record.push_str(&format!(
            "[Event \"case {id}\"]\n[FEN \"{fen}\"]\n\n{} *\n\n",
            moves.join(" ")
        ));
    }
    record
}

/// A FEN for a URL: spaces as %20.
fn url_fen(fen: &str) -> String {
    fen.replace(' ', "%20")
}

#[test]
fn the_page_and_the_wxf_cases_through_the_api() {
    let server = Server::start();
    let (status, page) = server.text("/");
    assert_eq!(status, 200);
    assert!(page.starts_with("<!DOCTYPE html>"), "the page");
    assert!(page.contains("@font-face") && page.contains("xq board glyphs"));
    for fetch in ["src=\"http", "href=\"http", "url(http"] {
        assert!(!page.contains(fetch), "the page fetches {fetch}");
    }
    // The words the page's script shows come from the server's table, filled in by the script.
    assert!(
        !page.contains("/*PAGE_WORDS*/"),
        "the page's words are put in"
    );
    assert!(
        page.contains("\"ply_of_move\":\"ply {ply} of {plies} ({move})\""),
        "the page's words"
    );
    assert_eq!(server.json("GET", "/api/health", "").0, 200);

    // Every case as one record file, read on the first recurrence as the whole record.
    let cases = cases();
    let record = cases_record(&cases);
    let (status, reports) = server.json("POST", "/api/referee?repetitions=2", &record);
    assert_eq!(status, 200);
    let reports = reports.as_array().expect("an array of reports");
    assert_eq!(reports.len(), cases.len());
    for ((id, _, _, result), report) in cases.iter().zip(reports) {
        assert_eq!(report["result"], result.as_str(), "case {id}: {report}");
        // The page's words, rendered by the server.
        let headline = report["headline"].as_str().expect("a headline");
        let why = report["unprotected_why"].as_array().expect("a list");
        match result.as_str() {
            "undecided" => assert_eq!(headline, "No ruling", "case {id}"),
            "draw" => assert!(headline.starts_with("Draw — "), "case {id}: {headline}"),
            _ => assert!(headline.contains(" wins — "), "case {id}: {headline}"),
        }
        assert!(
            why.iter()
                .all(|w| w.as_str().is_some_and(|w| w.starts_with("ply "))),
            "case {id}: {why:?}"
        );
    }

    // chessdb's rulecheck: the same rulings as one digit each.
    for (id, fen, moves, result) in &cases {
        let start_black = fen.split_whitespace().nth(1) == Some("b");
        let black_to_move = start_black ^ (moves.len() % 2 == 1);
        let to_move = if black_to_move { "black" } else { "red" };
        let expected = match result.as_str() {
            "undecided" => "0",
            "draw" => "1",
            r if r.starts_with(to_move) => "3",
            _ => "2",
        };
        let path = format!(
            "/chessdb.php?action=rulecheck&board={}&movelist={}",
            url_fen(fen),
            moves.join("|")
        );
        let (status, digit) = server.text(&path);
        assert_eq!(
            (status, digit.as_str()),
            (200, expected),
            "case {id} ({result})"
        );
    }
}

#[test]
fn legal_moves_and_an_analysis() {
    let server = Server::start();
    let (status, legal) = server.json("POST", "/api/legal", r#"{"moves": ["h2e2"]}"#);
    assert_eq!(status, 200);
    assert_eq!(legal["side_to_move"], "black");
    let moves = legal["legal_moves"].as_array().unwrap();
    assert!(moves.len() > 40, "{legal}");
    assert!(moves.contains(&Value::from("h9g7")));
    assert_eq!(legal["in_check"], false);
    assert_eq!(legal["mate"], false);
    assert_eq!(legal["status"], "Black to move");
    assert_eq!(legal["pieces"]["e2"], "red cannon on e2");
    assert_eq!(legal["pieces"].as_object().map(|p| p.len()), Some(32));

    // A mated side: no legal move, in check.
    let (status, mated) = server.json(
        "POST",
        "/api/legal",
        r#"{"fen": "3k5/4R4/3R5/9/9/9/9/9/9/4K4 b - - 0 1"}"#,
    );
    assert_eq!(status, 200, "{mated}");
    assert_eq!(mated["mate"], true, "{mated}");
    assert_eq!(mated["status"], "checkmate: Red wins", "{mated}");

    let (status, analysis) = server.json(
        "POST",
        "/api/analyse",
        r#"{"moves": ["h2e2"], "nodes": 3000}"#,
    );
    assert_eq!(status, 200, "{analysis}");
    let best = analysis["bestmove"].as_str().expect("a best move");
    assert!(moves.contains(&Value::from(best)), "{best}");
    assert!(analysis["score"]["cp"].is_i64() || analysis["score"]["mate"].is_i64());
    assert_eq!(analysis["pv"][0], best);
}

#[test]
fn bad_and_oversized_requests_are_refused_and_the_server_goes_on() {
    let server = Server::start();
    let refused = [
        (
            "POST",
            "/api/legal",
            "not json".to_string(),
            400,
            "JSON object",
        ),
        (
            "POST",
            "/api/legal",
            r#"{"moves": ["h2h8"]}"#.into(),
            400,
            "ply 1",
        ),
        (
            "POST",
            "/api/legal",
            r#"{"fen": "9/9 w"}"#.into(),
            400,
            "fen",
        ),
        (
            "POST",
            "/api/analyse",
            r#"{"movetime_ms": 999999}"#.into(),
            400,
            "movetime_ms",
        ),
        ("POST", "/api/referee", String::new(), 400, "no game record"),
        (
            "POST",
            "/api/referee?repetitions=1",
            "1. h2e2 *".into(),
            400,
            "repetitions",
        ),
        ("GET", "/nowhere", String::new(), 404, "no such"),
        // Refused by the framework, answered in the same shape.
        (
            "GET",
            "/api/legal",
            String::new(),
            405,
            "method not allowed",
        ),
    ];
    for (method, path, body, status, words) in refused {
        let (got, answer) = server.json(method, path, &body);
        assert_eq!(got, status, "{method} {path}: {answer}");
        assert!(
            answer["error"].as_str().unwrap_or("").contains(words),
            "{path}: {answer}"
        );
    }
    let too_many = format!(r#"{{"moves": [{}]}}"#, vec!["\"h2e2\""; 2_001].join(","));
    let (status, answer) = server.json("POST", "/api/legal", &too_many);
    assert_eq!(status, 400, "{answer}");
    let (status, text) = server.text("/chessdb.php?action=querybest&board=x");
    assert_eq!(status, 400, "{text}");

    // More games than a request may carry, each tiny: 413, judged no further.
    let many = "[Event \"x\"]\n1. h2e2 *\n".repeat(5_001);
    let (status, answer) = server.json("POST", "/api/referee", &many);
    assert_eq!(status, 413, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap_or("")
            .contains("5000 games"),
        "{answer}"
    );

    // A 20 MB body: 413 with the error in JSON, and the next request is served.
    let big = vec![b'a'; 20 << 20];
    let (status, answer) = server.request("POST", "/api/referee", &big);
    assert_eq!(status, 413);
    let answer: Value = serde_json::from_slice(&answer).expect("a JSON error");
    assert!(
        answer["error"]
            .as_str()
            .unwrap_or("")
            .contains("larger than"),
        "{answer}"
    );
    let (status, health) = server.json("GET", "/api/health", "");
    assert_eq!((status, health["ok"].as_bool()), (200, Some(true)));
}

/// Whether a text holds a word of ASCII letters other than a move or square (`h2e2`, `d7`), a
/// FEN's board (a word with `/`) or `WXF`.
fn has_english_word(text: &str) -> Option<String> {
    text.split(|c: char| c.is_whitespace() || "，、：；（）。".contains(c))
        .filter(|w| !w.contains('/'))
        .flat_map(|w| w.split(|c: char| !c.is_ascii_alphanumeric()))
        .filter(|w| w.len() >= 2 && w.chars().any(|c| c.is_ascii_alphabetic()))
        .find(|w| {
            let b = w.as_bytes();
            let square = |i: usize| {
                b.len() >= i + 2 && (b'a'..=b'i').contains(&b[i]) && b[i + 1].is_ascii_digit()
            };
            !((b.len() == 2 && square(0))
                || (b.len() == 4 && square(0) && square(2))
                || *w == "WXF")
        })
        .map(str::to_string)
}

#[test]
fn rulings_the_page_and_positions_in_chinese() {
    let server = Server::start();
    let cases = cases();
    let record = cases_record(&cases);
    for lang in ["zh-Hans", "zh-Hant"] {
        let path = format!("/api/referee?repetitions=2&lang={lang}");
        let (status, reports) = server.json("POST", &path, &record);
        assert_eq!(status, 200, "{lang}");
        let reports = reports.as_array().expect("reports");
        assert_eq!(reports.len(), cases.len());
        for ((id, _, _, result), report) in cases.iter().zip(reports) {
            // The machine fields stay as they are; the words are Chinese.
            assert_eq!(report["result"], result.as_str(), "case {id}");
            for field in ["headline", "explanation"] {
                let text = report[field].as_str().unwrap_or_default();
                assert!(!text.is_empty(), "case {id} {lang}: no {field}");
                let english = has_english_word(text);
                assert!(
                    english.is_none(),
                    "case {id} {lang} {field}: {english:?} in {text}"
                );
            }
        }
        let (status, page) = server.text(&format!("/?lang={lang}"));
        assert_eq!(status, 200);
        assert!(page.contains(&format!("<html lang=\"{lang}\">")), "{lang}");
        let (status, legal) = server.json(
            "POST",
            "/api/legal",
            &format!(r#"{{"lang": "{lang}", "moves": ["h2e2"]}}"#),
        );
        assert_eq!(status, 200);
        let words = legal["status"].as_str().unwrap_or_default();
        assert!(
            has_english_word(words).is_none() && !words.is_empty(),
            "{words}"
        );
    }
    // The browser's languages choose the page's when the address names none.
    for (accept, lang) in [
        ("zh-CN,zh;q=0.9,en;q=0.8", "zh-Hans"),
        ("zh-TW,zh;q=0.9", "zh-Hant"),
        ("fr-FR,en;q=0.5", "en"),
        ("de", "en"),
    ] {
        let head = format!(
            "GET / HTTP/1.1\r\nHost: {}\r\nAccept-Language: {accept}\r\nConnection: close\r\n\r\n",
            server.address
        );
        let (status, page) = raw(&server.address, head.as_bytes());
        assert_eq!(status, 200);
        let page = String::from_utf8_lossy(&page);
        assert!(
            page.contains(&format!("<html lang=\"{lang}\">")),
            "{accept}"
        );
    }
    let (status, answer) = server.json("POST", "/api/referee?lang=fr", "1. h2e2 *");
    assert_eq!(status, 400);
    assert!(
        answer["error"].as_str().unwrap_or("").contains("zh-Hans"),
        "{answer}"
    );
}

#[test]
fn hosts_origins_and_headers_are_checked_before_any_work() {
    let server = Server::start();
    let address = server.address.as_str();
    let port = address.rsplit(':').next().unwrap();
    let legal = |headers: &str| {
        let body = r#"{"moves":["h2e2"]}"#;
        let head = format!(
            "POST /api/legal HTTP/1.1\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        let (status, answer) = raw(address, head.as_bytes());
        let answer: Value = serde_json::from_slice(&answer).unwrap_or_else(|e| {
            panic!(
                "{headers}: not JSON ({e}): {}",
                String::from_utf8_lossy(&answer)
            )
        });
        (status, answer)
    };
    // Served: an address, localhost, the page's own origin.
    for headers in [
        format!("Host: {address}\r\n"),
        format!("Host: localhost:{port}\r\n"),
        format!("Host: localhost:{port}\r\nOrigin: http://localhost:{port}\r\n"),
    ] {
        let (status, answer) = legal(&headers);
        assert_eq!(status, 200, "{headers}: {answer}");
    }
    // Refused with the flag that would allow it named: a host name not given (DNS rebinding), a
    // page on another site (a form's text/plain post included), headers too large.
    let cookie = "a".repeat(40 << 10);
    for (headers, status, words) in [
        ("Host: evil.example\r\n".to_string(), 403, "--allowed-host"),
        (
            format!(
                "Host: {address}\r\nOrigin: http://evil.example\r\nContent-Type: text/plain\r\n"
            ),
            403,
            "--cors",
        ),
        (
            format!("Host: {address}\r\nOrigin: null\r\n"),
            403,
            "--cors",
        ),
        (
            format!("Host: {address}\r\nCookie: {cookie}\r\n"),
            431,
            "headers",
        ),
    ] {
        let (got, answer) = legal(&headers);
        assert_eq!(got, status, "{answer}");
        let error = answer["error"].as_str().unwrap_or("");
        assert!(error.contains(words), "{error}");
    }
}

#[test]
fn a_server_started_with_allowed_hosts_and_origins_serves_them() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xq"))
        .args(["serve", "--port", "0", "--allowed-host", "XQ.example"])
        .args(["--cors", "https://site.example"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("xq serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let address = line.trim()["xq serve: listening on http://".len()..]
        .trim_end_matches('/')
        .to_string();
    let (status, _) = raw(
        &address,
        b"GET /api/health HTTP/1.1\r\nHost: xq.example\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 200);
    // The preflight of an allowed origin, and the answer it may read.
    let mut stream = TcpStream::connect(&address).unwrap();
    stream
        .write_all(b"OPTIONS /api/legal HTTP/1.1\r\nHost: xq.example\r\nOrigin: https://site.example\r\nAccess-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let answer = answer.to_ascii_lowercase();
    assert!(answer.starts_with("http/1.1 200"), "{answer}");
    assert!(
        answer.contains("access-control-allow-origin: https://site.example"),
        "{answer}"
    );
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn an_analysis_whose_client_left_frees_its_engine() {
    let server = Server::start();
    let slots = std::thread::available_parallelism().map_or(1, |n| n.get());
    // Every engine on a ten-second analysis, each client gone after a moment.
    let left: Vec<TcpStream> = (0..slots)
        .map(|_| {
            let mut stream = TcpStream::connect(&server.address).unwrap();
            let body = r#"{"movetime_ms": 10000}"#;
            let head = format!(
                "POST /api/analyse HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\n\r\n{body}",
                server.address,
                body.len()
            );
            stream.write_all(head.as_bytes()).unwrap();
            stream
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    drop(left);
    // The searches stop at once: an analysis is taken well before the ten seconds are up (a
    // bound with room for a loaded machine).
    let start = Instant::now();
    loop {
        let (status, answer) = server.json("POST", "/api/analyse", r#"{"depth": 2}"#);
        if status == 200 {
            break;
        }
        assert_eq!(status, 503, "{answer}");
        assert!(
            start.elapsed() < Duration::from_secs(6),
            "the engines are still busy {:?} after their clients left",
            start.elapsed()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn sigterm_stops_the_server_with_stalled_connections_open() {
    let mut server = Server::start();
    // Connections that sent part of a request and nothing more, and a body that stops short.
    let mut stalled: Vec<TcpStream> = (0..20)
        .map(|_| {
            let mut stream = TcpStream::connect(&server.address).unwrap();
            stream.write_all(b"GET / HTTP/1.1\r\n").unwrap();
            stream
        })
        .collect();
    let mut body = TcpStream::connect(&server.address).unwrap();
    let head = format!(
        "POST /api/referee HTTP/1.1\r\nHost: {}\r\nContent-Length: 100000\r\n\r\n[Event",
        server.address
    );
    body.write_all(head.as_bytes()).unwrap();
    stalled.push(body);
    std::thread::sleep(Duration::from_millis(200));
    let pid = server.child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let start = Instant::now();
    loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            assert!(status.success(), "exit status {status}");
            break;
        }
        // The server's own limit is 3 s; the bound leaves room for a loaded machine.
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "still running 10 s after SIGTERM with stalled connections"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_busy_engine_pool_answers_503_and_sigterm_stops_the_server() {
    let mut server = Server::start();
    let slots = std::thread::available_parallelism().map_or(1, |n| n.get());
    let address = server.address.clone();
    // Searches long enough that all the requests arrive while the first still run, on a loaded
    // machine too.
    let searches: Vec<_> = (0..slots + 2)
        .map(|_| {
            let address = address.clone();
            std::thread::spawn(move || {
                request(
                    &address,
                    "POST",
                    "/api/analyse",
                    br#"{"movetime_ms": 4000}"#,
                )
                .0
            })
        })
        .collect();
    let statuses: Vec<u16> = searches.into_iter().map(|t| t.join().unwrap()).collect();
    assert!(statuses.contains(&503), "{statuses:?}");
    assert!(statuses.contains(&200), "{statuses:?}");
    assert!(
        statuses.iter().all(|s| *s == 200 || *s == 503),
        "{statuses:?}"
    );

    let pid = server.child.id().to_string();
    let sent = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(sent.success());
    // A bound with room for a loaded machine: a server that ignored the signal would never exit.
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            assert!(status.success(), "exit status {status}");
            break;
        }
        assert!(Instant::now() < until, "still serving 30 s after SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The text a person reads on a page: its elements' text, without the style, the script and the
/// tags.
fn page_text(page: &str) -> String {
    let without = |text: &str, open: &str, close: &str| {
        let mut out = String::new();
        let mut rest = text;
        while let Some(i) = rest.find(open) {
            out.push_str(&rest[..i]);
            out.push(' ');
            rest = rest[i..].split_once(close).map_or("", |(_, after)| after);
        }
        out + rest
    };
    let text = without(page, "<style", "</style>");
    let text = without(&text, "<script", "</script>");
    without(&text, "<", ">")
}

#[test]
fn move_lists_in_a_notation_and_the_ruling_with_two_repetitions() {
    let server = Server::start();
    // WXF case 3: Red's rook checks from h9 and h8 in turn; its position recurs once only.
    let record = "[FEN \"c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w - - 0 1\"]\n\n\
                  1. h8h9 f9f8 2. h9h8 f8f9 3. h8h9 f9f8 4. h9h8 *\n";
    let (status, plain) = server.json("POST", "/api/referee?repetitions=3", record);
    assert_eq!(status, 200, "{plain}");
    let plain = &plain[0];
    assert!(plain["ply"].is_null(), "{plain}");
    for field in ["move_list", "with_fewer_repetitions"] {
        assert!(plain.get(field).is_none(), "{field} not asked for: {plain}");
    }
    let path = "/api/referee?repetitions=3&fewer_repetitions=2&notation=wxf";
    let (status, asked) = server.json("POST", path, record);
    assert_eq!(status, 200, "{asked}");
    let asked = &asked[0];
    assert!(asked["ply"].is_null(), "{asked}");
    let fewer = &asked["with_fewer_repetitions"];
    assert_eq!(fewer["repetitions"], 2, "{asked}");
    assert_eq!(fewer["result"], "black_wins", "{asked}");
    assert!(fewer["ply"].as_u64().is_some_and(|p| p <= 7), "{asked}");
    let headline = fewer["headline"].as_str().unwrap_or_default();
    assert!(headline.contains("perpetual check"), "{headline}");
    assert!(fewer["rule"].as_str().is_some_and(|r| r.contains("WXF")));
    let list = asked["move_list"].as_array().expect("a move list");
    assert_eq!(list.len(), 7);
    assert_eq!(list[0], "R2+1");
    let path = "/api/referee?repetitions=3&fewer_repetitions=2&notation=chinese&lang=zh-Hant";
    let (_, hant) = server.json("POST", path, record);
    assert_eq!(hant[0]["move_list"][0], "車二進一", "{hant}");
    let rest = hant[0]["with_fewer_repetitions"]["headline"]
        .as_str()
        .unwrap_or_default();
    assert!(
        has_english_word(rest).is_none() && !rest.is_empty(),
        "{rest}"
    );
    // A game that no count of repetitions rules.
    let path = "/api/referee?repetitions=3&fewer_repetitions=2";
    let (_, none) = server.json("POST", path, "1. h2e2 h9g7 *");
    assert!(none[0]["with_fewer_repetitions"].is_null(), "{none}");
    for path in [
        "/api/referee?repetitions=2&fewer_repetitions=2",
        "/api/referee?fewer_repetitions=1",
        "/api/referee?notation=san",
    ] {
        let (status, answer) = server.json("POST", path, "1. h2e2 *");
        assert_eq!(status, 400, "{path}: {answer}");
    }

    // The played moves in a notation, from /api/legal.
    for (notation, lang, want) in [
        ("iccs", "en", ["h2e2", "h9g7"]),
        ("wxf", "en", ["C2=5", "H8+7"]),
        ("chinese", "zh-Hans", ["炮二平五", "马８进７"]),
        ("chinese", "zh-Hant", ["砲二平五", "馬８進７"]),
    ] {
        let body =
            format!(r#"{{"moves": ["h2e2", "h9g7"], "notation": "{notation}", "lang": "{lang}"}}"#);
        let (status, legal) = server.json("POST", "/api/legal", &body);
        assert_eq!(status, 200, "{legal}");
        assert_eq!(
            legal["move_list"],
            serde_json::json!(want),
            "{notation} {lang}"
        );
    }
    let (status, _) = server.json("POST", "/api/legal", r#"{"notation": 3}"#);
    assert_eq!(status, 400);
    let (_, legal) = server.json("POST", "/api/legal", r#"{"moves": ["h2e2"]}"#);
    assert!(legal.get("move_list").is_none(), "{legal}");
}

#[test]
fn the_icon() {
    let server = Server::start();
    for path in ["/favicon.svg", "/favicon.ico"] {
        let (status, icon) = server.text(path);
        assert_eq!(status, 200, "{path}");
        assert!(icon.starts_with("<svg"), "{path}: {icon}");
    }
}

#[test]
fn the_page_labels_in_its_language() {
    let server = Server::start();
    // None left unfilled; no English on a Chinese page but the names of notations, formats and
    // languages.
    let (_, english) = server.text("/?lang=en");
    assert!(english.contains("<h2>Judge a record</h2>") && english.contains("rel=\"icon\""));
    for (lang, heading) in [
        ("en", "Judge a record"),
        ("zh-Hans", "裁判棋谱"),
        ("zh-Hant", "裁判棋譜"),
    ] {
        let (status, page) = server.text(&format!("/?lang={lang}"));
        assert_eq!(status, 200);
        assert!(!page.contains("{{"), "{lang}: a label left unfilled");
        assert!(page.contains(&format!("<h2>{heading}</h2>")), "{lang}");
        if lang == "en" {
            continue;
        }
        let allowed = ["xq", "language", "English", "FEN", "ICCS"];
        let text = page_text(&page);
        let english = text
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !allowed.contains(w))
            .find_map(has_english_word);
        assert!(english.is_none(), "{lang}: {english:?} in {text}");
    }
}
