//! The handlers of `xq serve`: the page and its icon, the referee on a posted record, legal moves,
//! an engine analysis, and chessdb.cn's `rulecheck`. Every answer that is not the page, the icon
//! or `rulecheck` is JSON; every error is `{"error": "..."}` with a 4xx or 5xx status naming what
//! was wrong.

use super::admission::{Cancel, out_of_time, panic_words};
use super::engines::Analysis;
use super::{MAX_BODY_BYTES, MAX_GAME_PLIES, MAX_GAMES, MAX_MOVES, MAX_SMALL_BODY_BYTES, Shared};
use crate::engine::{Limits, MAX_SKILL_LEVEL};
use crate::fen;
use crate::game::Game;
use crate::movegen::legal_moves;
use crate::moves::{IllegalMove, Move, MoveTextError};
use crate::position::{Outcome, Position};
use crate::record::describe::{Script, write_chinese_in, write_wxf};
use crate::referee::inputs::Source;
use crate::referee::judging::Halt;
use crate::referee::render::{self, Lang};
use crate::referee::{
    self, GameReport, Judging, Reason, Rules, Stop, Verdict, json::report_json_in,
};
use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{Query, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Response};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

/// Time limits of the requests that are not searches.
const REFEREE_TIME: Duration = Duration::from_secs(20);
const LEGAL_TIME: Duration = Duration::from_secs(5);
/// How long past its deadline a request's work may take to give its answer.
const ANSWER_GRACE: Duration = Duration::from_secs(1);
/// The longest analysis a request may ask for, and how long past it the request may take.
const MAX_MOVETIME: Duration = Duration::from_secs(10);
const SEARCH_GRACE: Duration = Duration::from_secs(5);
/// The analysis when a request names no limit.
const DEFAULT_MOVETIME: Duration = Duration::from_millis(1000);

/// A request refused: the status, and the words saying why.
pub struct Refusal(pub StatusCode, pub String);

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

/// An error answer.
pub fn error(status: StatusCode, message: impl Into<String>) -> Refusal {
    Refusal(status, message.into())
}

/// The answer to a request whose handling panicked outside its work (the work's own panics are
/// caught where it runs): logged, and a JSON 500; the server goes on.
pub fn panicked(payload: Box<dyn std::any::Any + Send + 'static>) -> Response {
    eprintln!("xq serve: a request failed: {}", panic_words(payload));
    error(
        StatusCode::INTERNAL_SERVER_ERROR,
        "the request failed (a fault in the server, logged); other requests are not affected",
    )
    .into_response()
}

/// `GET /[?lang=TAG]`: the page, with the board glyph font in it, in the language asked for, else
/// the first of the browser's languages the referee speaks, else English.
pub async fn page(
    Query(query): Query<HashMap<String, String>>,
    headers: axum::http::HeaderMap,
) -> Html<&'static str> {
    static PAGES: LazyLock<Vec<(Lang, String)>> =
        LazyLock::new(|| Lang::ALL.iter().map(|&l| (l, build_page(l))).collect());
    let lang = query
        .get("lang")
        .and_then(|tag| tag.parse().ok())
        .or_else(|| {
            headers
                .get(header::ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok())
                .and_then(browser_lang)
        })
        .unwrap_or_default();
    let page = PAGES
        .iter()
        .find(|(l, _)| *l == lang)
        .map_or("", |(_, p)| p);
    Html(page)
}

/// The page in a language: its labels (`{{name}}` in the HTML) and its script's words from the
/// language's table, and the board glyph font.
pub fn build_page(lang: Lang) -> String {
    let words = render::page_words(lang);
    let mut page = include_str!("page.html")
        .replace("/*PAGE_LANG*/", lang.tag())
        .replace("/*BOARD_FONT*/", referee::glyphs::font_face())
        .replace("/*PAGE_WORDS*/{}", &script_json(&words));
    for (name, text) in words.as_object().into_iter().flatten() {
        let text = text.as_str().unwrap_or_default();
        page = page.replace(&format!("{{{{{name}}}}}"), &html_text(text));
    }
    page
}

/// Text as HTML writes it in an element or a quoted attribute.
fn html_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `GET /favicon.svg` (and `/favicon.ico`): the page's icon, a red general's piece.
pub async fn favicon() -> Response {
    (
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "max-age=86400"),
        ],
        include_str!("favicon.svg"),
    )
        .into_response()
}

/// The first language of an `Accept-Language` list the referee speaks: Chinese in traditional
/// script for `zh-Hant` and the regions that write it (Taiwan, Hong Kong, Macau), in simplified
/// script for any other `zh`, English for `en`.
fn browser_lang(list: &str) -> Option<Lang> {
    list.split(',').find_map(|item| {
        let tag = item.split(';').next()?.trim().to_ascii_lowercase();
        let mut parts = tag.split('-');
        match parts.next()? {
            "en" => Some(Lang::En),
            "zh" => {
                let traditional = parts.any(|p| matches!(p, "hant" | "tw" | "hk" | "mo"));
                Some(if traditional {
                    Lang::ZhHant
                } else {
                    Lang::ZhHans
                })
            }
            _ => None,
        }
    })
}

/// The language a request asks for (`lang`, a tag such as `zh-Hans`), English when it names none.
fn asked_lang(tag: Option<&str>) -> Result<Lang, Refusal> {
    match tag {
        None => Ok(Lang::En),
        Some(tag) => tag
            .parse()
            .map_err(|e: render::UnknownLang| bad_request(format!("lang: {e}"))),
    }
}

/// A JSON value as a literal in the page's script: a `<` written as `\u003c`, so no text in it
/// can end the script.
fn script_json(value: &Value) -> String {
    value.to_string().replace('<', "\\u003c")
}

/// `GET /api/health`.
pub async fn health() -> Json<Value> {
    Json(json!({ "ok": true }))
}

/// Every refusal as `{"error": …}`, whoever made it: the handlers already answer so, and the
/// refusals the framework makes itself (a body over the limit, a method a path does not take)
/// are put into the same shape, their words kept (or said plainly for a body too large).
/// `rulecheck` keeps chessdb's plain text.
pub async fn json_errors(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let plain = path == "/chessdb.php";
    let body_limit = if path == "/api/referee" {
        format!("{} MiB", MAX_BODY_BYTES >> 20)
    } else {
        format!("{} KiB", MAX_SMALL_BODY_BYTES >> 10)
    };
    let response = next.run(request).await;
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if plain || json || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 16 << 10)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let message = match status {
        StatusCode::PAYLOAD_TOO_LARGE => {
            format!("the request body is larger than the {body_limit} this request may carry")
        }
        _ if !text.is_empty() => text,
        _ => status
            .canonical_reason()
            .unwrap_or("refused")
            .to_lowercase(),
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, Body::from(json!({ "error": message }).to_string()))
}

/// Any other path.
pub async fn not_found() -> Response {
    error(StatusCode::NOT_FOUND, "no such page or API").into_response()
}

/// A query parameter read as a number in `range`, or its default.
fn number<T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy>(
    query: &HashMap<String, String>,
    name: &str,
    default: T,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, Refusal> {
    let Some(text) = query.get(name) else {
        return Ok(default);
    };
    match text.parse::<T>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(error(
            StatusCode::BAD_REQUEST,
            format!(
                "{name}: {text:?} is not a number from {} to {}",
                range.start(),
                range.end()
            ),
        )),
    }
}

/// `POST /api/referee`: the body is a game record file; the answer is what `xq referee --json`
/// writes, one object per game, as a JSON array. Asked for, each object has more:
/// `notation=iccs|wxf|chinese` gives its moves written so in `move_list`;
/// `fewer_repetitions=N` (fewer than `repetitions`) judges each game without a ruling again with
/// N repetitions, and gives what that rules in `with_fewer_repetitions` (`null` when nothing):
/// `repetitions`, `ply`, `result`, `reason`, `headline` and `rule`.
pub async fn referee(
    State(shared): State<Arc<Shared>>,
    Query(query): Query<HashMap<String, String>>,
    body: Bytes,
) -> Response {
    let settings = (|| {
        let repetitions = number(
            &query,
            "repetitions",
            Rules::DEFAULT.repetitions,
            referee::REPETITIONS_RANGE,
        )?;
        let move_limit = number(&query, "move_limit", referee::DEFAULT_MOVE_LIMIT, 0..=1000)?;
        let first_decision = match query.get("first_decision").map(String::as_str) {
            None | Some("false" | "0") => false,
            Some("true" | "1") => true,
            Some(other) => {
                return Err(error(
                    StatusCode::BAD_REQUEST,
                    format!("first_decision: {other:?} is not true or false"),
                ));
            }
        };
        let lang = asked_lang(query.get("lang").map(String::as_str))?;
        let notation = asked_notation(query.get("notation").map(String::as_str))?;
        let fewer = match query.get("fewer_repetitions") {
            None => None,
            Some(_) => {
                let fewer = number(&query, "fewer_repetitions", 2, 2..=repetitions)?;
                (fewer < repetitions)
                    .then(|| Rules::chosen(fewer, first_decision, move_limit))
                    .ok_or_else(|| {
                        bad_request(format!(
                            "fewer_repetitions: {fewer} is not fewer than the {repetitions} \
                             repetitions asked for"
                        ))
                    })
                    .map(Some)?
            }
        };
        let asked = Asked {
            lang,
            notation,
            fewer,
        };
        Ok((
            Rules::chosen(repetitions, first_decision, move_limit),
            asked,
        ))
    })();
    let (config, asked) = match settings {
        Ok(settings) => settings,
        Err(answer) => return answer.into_response(),
    };
    if body.is_empty() {
        return error(StatusCode::BAD_REQUEST, "the request has no game record").into_response();
    }
    let deadline = Instant::now() + REFEREE_TIME;
    let work = move |cancel: &Cancel| {
        let source = Source::Bytes {
            name: "request".to_string(),
            bytes: Vec::from(body),
        };
        let mut judging = Judging::new(vec![source], config)
            .stop(Stop::at(cancel.deadline()).or_on(cancel.flag()))
            .game_limit(MAX_GAMES)
            .ply_limit(MAX_GAME_PLIES);
        // The answer written as the reports come, each report's tree dropped once written.
        let mut answer = b"[".to_vec();
        for (i, report) in judging.by_ref().enumerate() {
            if i > 0 {
                answer.push(b',');
            }
            let mut object = page_report(&report, asked.lang);
            if let Some(notation) = asked.notation {
                object["move_list"] = report_move_list(&report, notation, asked.lang).into();
            }
            if let Some(rules) = asked.fewer {
                object["with_fewer_repetitions"] = with_fewer(&report, rules, asked.lang, cancel);
            }
            answer.extend(object.to_string().bytes());
        }
        answer.push(b']');
        match judging.halt() {
            None => Ok(answer),
            Some(halt) => Err(halt),
        }
    };
    // The judging stops itself at the deadline; the wait allows a little past it for the answer.
    match shared.referee.run(deadline, ANSWER_GRACE, work).await {
        Ok(Ok(answer)) => (
            [(header::CONTENT_TYPE, "application/json")],
            Body::from(answer),
        )
            .into_response(),
        Ok(Err(Halt::Stopped)) => out_of_time(REFEREE_TIME).into_response(),
        Ok(Err(Halt::TooManyGames)) => error(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the record has more than the {MAX_GAMES} games a request may carry"),
        )
        .into_response(),
        Err(answer) => answer.into_response(),
    }
}

/// What a referee request asks for beside the rules: the language of the words, the notation of
/// the move lists, and the rules to judge the games without a ruling with again.
struct Asked {
    lang: Lang,
    notation: Option<Notation>,
    fewer: Option<Rules>,
}

/// A notation the page lists moves in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Notation {
    /// ICCS coordinates, `h2e2`.
    Iccs,
    /// WXF, `C2=5`.
    Wxf,
    /// Chinese, `炮二平五` (in the Traditional script for `zh-Hant`).
    Chinese,
}

/// The notation a request asks for (`notation`: `iccs`, `wxf` or `chinese`), if any.
fn asked_notation(name: Option<&str>) -> Result<Option<Notation>, Refusal> {
    match name {
        None => Ok(None),
        Some("iccs") => Ok(Some(Notation::Iccs)),
        Some("wxf") => Ok(Some(Notation::Wxf)),
        Some("chinese") => Ok(Some(Notation::Chinese)),
        Some(other) => Err(bad_request(format!(
            "notation: {:?} is not iccs, wxf or chinese",
            crate::clip::quote(other)
        ))),
    }
}

/// The moves of a game played from `start`, written in a notation (a move the writer cannot
/// write stays in ICCS).
fn move_list(start: &Position, moves: &[Move], notation: Notation, lang: Lang) -> Vec<String> {
    let mut pos = start.clone();
    let script = match lang {
        Lang::ZhHant => Script::Traditional,
        Lang::En | Lang::ZhHans => Script::Simplified,
    };
    moves
        .iter()
        .map(|&m| {
            let written = match notation {
                Notation::Iccs => None,
                Notation::Wxf => write_wxf(&pos, m),
                Notation::Chinese => write_chinese_in(&pos, m, script),
            };
            pos.play(m);
            written.unwrap_or_else(|| m.to_string())
        })
        .collect()
}

/// A judged game's moves in a notation.
fn report_move_list(r: &GameReport, notation: Notation, lang: Lang) -> Vec<String> {
    let start = r.facts().and_then(|f| start_position(&f.start_fen).ok());
    match start {
        Some(start) => move_list(&start, r.moves(), notation, lang),
        None => r.moves().iter().map(Move::to_string).collect(),
    }
}

/// For a game without a ruling, the ruling it gets under `rules` (fewer repetitions), if any:
/// the count, the ply, the result, the reason, the ruling in one line and the rule cited.
fn with_fewer(r: &GameReport, rules: Rules, lang: Lang, cancel: &Cancel) -> Value {
    if r.decision().is_some() {
        return Value::Null;
    }
    let Some(game) = r
        .facts()
        .and_then(|f| start_position(&f.start_fen).ok())
        .and_then(|start| Game::replay(start, r.moves()).ok())
    else {
        return Value::Null;
    };
    let source = Source::Game {
        name: r.file.clone(),
        game: Box::new(game),
    };
    let again = Judging::new(vec![source], rules)
        .stop(Stop::at(cancel.deadline()).or_on(cancel.flag()))
        .next();
    match again.filter(|a| a.decision().is_some()) {
        Some(again) => {
            let full = report_json_in(&again, lang);
            json!({
                "repetitions": rules.repetitions,
                "ply": full["ply"],
                "result": full["result"],
                "reason": full["reason"],
                "headline": render::headline(&again, lang),
                "rule": full["rule"],
            })
        }
        None => Value::Null,
    }
}

/// A report as `xq referee --json` writes it, with what the page shows in words rendered here:
/// the ruling in one line, and why each chased piece counted as unprotected.
fn page_report(r: &GameReport, lang: Lang) -> Value {
    let mut answer = report_json_in(r, lang);
    answer["headline"] = render::headline(r, lang).into();
    answer["unprotected_why"] = render::unprotected(r, lang).into();
    answer
}

/// A bad request: the words saying what was wrong.
fn bad_request(message: impl Into<String>) -> Refusal {
    error(StatusCode::BAD_REQUEST, message)
}

/// Reads `fen` (default: the start position) and `moves` (ICCS texts) from a JSON request, and
/// plays the moves, each checked.
fn read_line(request: &Value) -> Result<Game, Refusal> {
    let start = match request.get("fen") {
        None | Some(Value::Null) => Position::startpos(),
        Some(Value::String(text)) => {
            start_position(text).map_err(|e| bad_request(format!("fen: {e}")))?
        }
        Some(_) => return Err(bad_request("fen: not a string")),
    };
    let texts = match request.get("moves") {
        None | Some(Value::Null) => &Vec::new(),
        Some(Value::Array(list)) => list,
        Some(_) => return Err(bad_request("moves: not a list of moves")),
    };
    if texts.len() > MAX_MOVES {
        return Err(bad_request(format!(
            "moves: {} moves, more than the {MAX_MOVES} one request may carry",
            texts.len()
        )));
    }
    let texts: Vec<&str> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            t.as_str()
                .ok_or_else(|| bad_request(format!("moves: ply {} is not a string", i + 1)))
        })
        .collect::<Result<_, _>>()?;
    play(start, &texts).map_err(|e| bad_request(e.to_string()))
}

/// A start position from FEN, read as the referee reads a record's: a position no game can reach
/// (a pawn behind its start) is taken, one the rules cannot play from is refused.
fn start_position(text: &str) -> Result<Position, fen::FenError> {
    fen::parse_lenient(text).map(|(pos, _warnings)| pos)
}

/// Why a request's moves could not be played.
#[derive(Debug)]
enum LineError {
    /// A move's text is not ICCS.
    Text {
        ply: usize,
        text: String,
        error: MoveTextError,
    },
    /// A move is not legal where it is played.
    Illegal(IllegalMove),
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::Text { ply, text, error } => {
                write!(f, "ply {ply}: move {:?}: {error}", crate::clip::quote(text))
            }
            LineError::Illegal(e) => e.fmt(f),
        }
    }
}

/// The game of move texts (ICCS) played from `start`, each checked.
fn play(start: Position, texts: &[&str]) -> Result<Game, LineError> {
    let moves = texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            text.parse::<Move>().map_err(|error| LineError::Text {
                ply: i + 1,
                text: text.to_string(),
                error,
            })
        })
        .collect::<Result<Vec<Move>, LineError>>()?;
    Game::replay(start, &moves).map_err(LineError::Illegal)
}

/// Parses a JSON request body.
fn read_json(body: &Bytes) -> Result<Value, Refusal> {
    serde_json::from_slice::<Value>(body)
        .ok()
        .filter(Value::is_object)
        .ok_or_else(|| error(StatusCode::BAD_REQUEST, "the body is not a JSON object"))
}

/// `POST /api/legal`: the legal moves after a line, with check, mate and stalemate. With
/// `"notation"` (`"iccs"`, `"wxf"` or `"chinese"`) the answer's `move_list` has the line's moves
/// written in it.
pub async fn legal(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    let work = move |_: &Cancel| {
        let request = read_json(&body)?;
        let lang = asked_lang(request.get("lang").and_then(Value::as_str))?;
        let notation = match request.get("notation") {
            None | Some(Value::Null) => None,
            Some(Value::String(name)) => asked_notation(Some(name))?,
            Some(_) => return Err(bad_request("notation: not a string")),
        };
        let line = read_line(&request)?;
        let pos = line.position();
        let moves: Vec<String> = legal_moves(pos).iter().map(|m| m.to_string()).collect();
        let outcome = pos.outcome();
        let mut answer = json!({
            "fen": pos.to_string(),
            "side_to_move": pos.side_to_move().name(),
            "legal_moves": moves,
            "in_check": pos.in_check(),
            "mate": outcome == Some(Outcome::Checkmate),
            "stalemate": outcome == Some(Outcome::Stalemate),
            "status": render::position_status(pos, outcome, lang),
            "pieces": render::pieces_at(pos, lang),
        });
        if let Some(notation) = notation {
            answer["move_list"] = move_list(line.start(), line.moves(), notation, lang).into();
        }
        Ok(answer)
    };
    let deadline = Instant::now() + LEGAL_TIME;
    match shared.quick.run(deadline, ANSWER_GRACE, work).await {
        Ok(Ok(answer)) => Json::<Value>(answer).into_response(),
        Ok(Err(refusal)) | Err(refusal) => refusal.into_response(),
    }
}

/// A non-negative integer field of a JSON request, if present.
fn field(request: &Value, name: &str, max: u64) -> Result<Option<u64>, Refusal> {
    match request.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) if n <= max => Ok(Some(n)),
            _ => Err(bad_request(format!(
                "{name}: not a whole number from 0 to {max}"
            ))),
        },
    }
}

/// The limits and strength an analysis request asks for.
fn analysis_settings(request: &Value) -> Result<(Limits, Option<u64>), Refusal> {
    let movetime = field(request, "movetime_ms", MAX_MOVETIME.as_millis() as u64)?;
    let nodes = field(request, "nodes", 100_000_000)?;
    let depth = field(request, "depth", 64)?;
    let skill = field(request, "skill", u64::from(MAX_SKILL_LEVEL))?;
    let movetime = match (movetime, nodes, depth) {
        (Some(ms), ..) => Duration::from_millis(ms.max(1)),
        (None, None, None) => DEFAULT_MOVETIME,
        // A node or depth limit still ends within the longest analysis.
        _ => MAX_MOVETIME,
    };
    let limits = Limits {
        movetime: Some(movetime),
        nodes,
        depth: depth.map(|d| d.max(1) as u32),
        ..Limits::default()
    };
    Ok((limits, skill))
}

/// `POST /api/analyse`: the engine's best move, score and line after a line of moves, on an
/// engine kept warm (its budget admits one analysis per core and none waiting).
pub async fn analyse(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    let engines = shared.engines.clone();
    let work = move |cancel: &Cancel| {
        let request = read_json(&body)?;
        let lang = asked_lang(request.get("lang").and_then(Value::as_str))?;
        let (limits, skill) = analysis_settings(&request)?;
        let line = read_line(&request)?;
        let found = engines
            .analyse(&line, limits, skill, cancel)
            .map_err(|e| error(StatusCode::INTERNAL_SERVER_ERROR, e))?;
        Ok(analysis_json(&found, lang))
    };
    // The longest analysis and its grace; the search's own limits end it sooner.
    let deadline = Instant::now() + MAX_MOVETIME + SEARCH_GRACE;
    match shared.analyse.run(deadline, ANSWER_GRACE, work).await {
        Ok(Ok(answer)) => Json::<Value>(answer).into_response(),
        Ok(Err(refusal)) | Err(refusal) => refusal.into_response(),
    }
}

/// An analysis as the API gives it.
fn analysis_json(found: &Analysis, lang: Lang) -> Value {
    let score = match found.score.mate_moves() {
        Some(m) => json!({ "mate": m }),
        None => json!({ "cp": found.score.0 }),
    };
    let pv: Vec<String> = found.pv.iter().map(|m| m.to_string()).collect();
    let best = found.best.map(|m| m.to_string());
    // For the page, which shows only words the server rendered.
    let summary = render::analysis(
        best.as_deref(),
        found.score.mate_moves(),
        found.score.0,
        found.depth,
        &pv,
        lang,
    );
    json!({
        "bestmove": best,
        "score": score,
        "pv": pv,
        "depth": found.depth,
        "nodes": found.nodes,
        "summary": summary,
    })
}

/// `GET /chessdb.php?action=rulecheck&board=FEN&movelist=m1|m2|...`: chessdb.cn's rule check,
/// one digit as plain text: 0 no ruling, 1 a draw by rule, 2 the side to move is the violator and
/// must change moves, 3 the side that just moved has lost by rule. The moves are read as
/// `xq referee --repetitions 2` reads a record (the first recurrence counts, as the WXF case
/// suite does), repetition rules only.
pub async fn chessdb(
    State(shared): State<Arc<Shared>>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let text = |status: StatusCode, body: String| {
        (
            status,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            body,
        )
            .into_response()
    };
    match query.get("action").map(String::as_str) {
        Some("rulecheck") => {}
        other => {
            return text(
                StatusCode::BAD_REQUEST,
                format!(
                    "unknown action {:?}: only rulecheck is served",
                    other.unwrap_or("")
                ),
            );
        }
    }
    let work = move |_: &Cancel| {
        let board = query.get("board").ok_or("board: missing".to_string())?;
        let start = start_position(board).map_err(|e| format!("board: {e}"))?;
        let list = query.get("movelist").map_or("", String::as_str);
        let texts: Vec<&str> = list.split('|').filter(|t| !t.is_empty()).collect();
        if texts.len() > MAX_MOVES {
            return Err(format!("movelist: more than {MAX_MOVES} moves"));
        }
        let line = play(start, &texts).map_err(|e| format!("movelist: {e}"))?;
        Ok(rule_check(line))
    };
    let deadline = Instant::now() + LEGAL_TIME;
    match shared.quick.run(deadline, ANSWER_GRACE, work).await {
        Ok(Ok(digit)) => text(StatusCode::OK, digit.to_string()),
        Ok(Err(words)) => text(StatusCode::BAD_REQUEST, words),
        Err(Refusal(status, words)) => text(status, words),
    }
}

/// The `rulecheck` digit for a game: the referee's ending of the record of its moves, under the
/// repetition rules alone, read at the first recurrence.
fn rule_check(line: Game) -> u8 {
    let rules = Rules {
        move_limit: None,
        ..Rules::arbiter(2)
    };
    let to_move = line.position().side_to_move();
    let source = Source::Game {
        name: "movelist".to_string(),
        game: Box::new(line),
    };
    let Some(report) = Judging::new(vec![source], rules).next() else {
        return 0;
    };
    let Some(decision) = report.decision() else {
        return 0;
    };
    if !matches!(decision.reason, Reason::Repetition(_)) {
        return 0;
    }
    match decision.verdict {
        Verdict::Draw => 1,
        Verdict::Win(winner) if winner == to_move => 3,
        Verdict::Win(_) => 2,
        Verdict::Undecided => 0,
    }
}
