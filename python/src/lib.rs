//! The Python module `xq`: a thin binding of the Rust crate's rules (positions, legal moves, move
//! text in ICCS, WXF and Chinese) and its referee (a game's ruling, the moves that would lose by
//! repetition, `xq referee --json`, as Python objects). Nothing is worked out
//! here that the crate does not already do.

use pyo3::create_exception;
use pyo3::exceptions::{PyFileNotFoundError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;
use xq::fen;
use xq::game::Game as GameLine;
use xq::movegen::legal_moves;
use xq::moves::{Move, RankStyle};
use xq::position::{Outcome, Position as RustPosition};
use xq::record::describe::{write_chinese, write_wxf};
use xq::record::notation::{resolve, shapes};
use xq::referee::inputs::{Source, sources_at};
use xq::referee::json::report_json_in;
use xq::referee::render::Lang;
use xq::referee::{Adjudicator, DEFAULT_MOVE_LIMIT, GameReport, Judging, REPETITIONS_RANGE, Rules};

create_exception!(xq, XqError, PyValueError, "Any error of the xq module.");
create_exception!(xq, FenError, XqError, "A FEN that cannot be read.");
create_exception!(
    xq,
    MoveError,
    XqError,
    "Move text that is not a legal move in the position."
);
create_exception!(
    xq,
    RecordError,
    XqError,
    "A game record or file that cannot be read."
);

/// Reads move text in any notation the referee reads (ICCS `h2e2`/`H2-E2`, WXF `C2.5`, Chinese
/// `炮二平五`, SAN) as a legal move of `pos`.
fn read_move(pos: &RustPosition, text: &str) -> PyResult<Move> {
    if let Ok(m) = Move::parse(text.trim(), RankStyle::ZeroToNine) {
        if pos.is_legal(m) {
            return Ok(m);
        }
        return Err(MoveError::new_err(format!(
            "{text}: not a legal move in {pos}"
        )));
    }
    let mut why = None;
    for notation in shapes(text) {
        match resolve(pos, text, notation) {
            Ok(r) => return Ok(r.mv),
            Err(e) => why = why.or(Some(e.to_string())),
        }
    }
    Err(MoveError::new_err(match why {
        Some(why) => format!("{text}: {why} in {pos}"),
        None => format!("{text}: not move text (ICCS, WXF, Chinese or SAN)"),
    }))
}

fn read_fen(text: Option<&str>) -> PyResult<RustPosition> {
    match text {
        None => Ok(RustPosition::startpos()),
        Some(t) => fen::parse(t).map_err(|e| FenError::new_err(format!("bad FEN {t:?}: {e}"))),
    }
}

/// A position: the board and the side to move.
#[pyclass(module = "xq")]
#[derive(Clone)]
struct Position {
    inner: RustPosition,
}

#[pymethods]
impl Position {
    /// The position of `fen`, or the start position.
    #[new]
    #[pyo3(signature = (fen = None))]
    fn new(fen: Option<&str>) -> PyResult<Position> {
        Ok(Position {
            inner: read_fen(fen)?,
        })
    }

    /// The position as FEN.
    fn fen(&self) -> String {
        self.inner.to_string()
    }

    /// The legal moves, in ICCS (`h2e2`).
    fn legal_moves(&self) -> Vec<String> {
        legal_moves(&self.inner)
            .iter()
            .map(|m| m.to_string())
            .collect()
    }

    /// Plays a move given in ICCS, WXF, Chinese or SAN; raises `MoveError` if it is not legal.
    fn push(&mut self, r#move: &str) -> PyResult<()> {
        let m = read_move(&self.inner, r#move)?;
        self.inner.play(m);
        Ok(())
    }

    /// The ICCS form of move text in any notation, without playing it.
    fn parse_move(&self, text: &str) -> PyResult<String> {
        Ok(read_move(&self.inner, text)?.to_string())
    }

    /// A legal move written in `notation`: "iccs", "wxf" or "chinese".
    #[pyo3(signature = (r#move, notation = "chinese"))]
    fn move_text(&self, r#move: &str, notation: &str) -> PyResult<String> {
        let m = read_move(&self.inner, r#move)?;
        let text = match notation.to_ascii_lowercase().as_str() {
            "iccs" => Some(m.to_string()),
            "wxf" => write_wxf(&self.inner, m),
            "chinese" => write_chinese(&self.inner, m),
            other => {
                return Err(XqError::new_err(format!(
                    "unknown notation {other:?}: iccs, wxf or chinese"
                )));
            }
        };
        text.ok_or_else(|| MoveError::new_err(format!("{move}: cannot be written in {notation}")))
    }

    /// Whether the side to move is in check.
    fn in_check(&self) -> bool {
        self.inner.in_check()
    }

    /// Whether the side to move is checkmated.
    fn is_checkmate(&self) -> bool {
        self.inner.outcome() == Some(Outcome::Checkmate)
    }

    /// Whether the side to move has no legal move and is not in check (a loss in Xiangqi).
    fn is_stalemate(&self) -> bool {
        self.inner.outcome() == Some(Outcome::Stalemate)
    }

    /// "red" or "black".
    #[getter]
    fn side_to_move(&self) -> &'static str {
        self.inner.side_to_move().name()
    }

    /// The Zobrist key of the board and side to move.
    #[getter]
    fn key(&self) -> u64 {
        self.inner.key()
    }

    /// A copy.
    fn copy(&self) -> Position {
        self.clone()
    }

    fn __eq__(&self, other: &Position) -> bool {
        self.inner == other.inner
    }

    fn __hash__(&self) -> u64 {
        self.inner.key()
    }

    fn __str__(&self) -> String {
        self.fen()
    }

    fn __repr__(&self) -> String {
        format!("xq.Position({:?})", self.fen())
    }
}

/// A game followed by the referee: moves pushed one by one, the ruling asked at any point.
#[pyclass(module = "xq")]
struct Game {
    line: GameLine,
    repetitions: u32,
}

#[pymethods]
impl Game {
    /// A game from `fen` (or the start position); `repetitions` is how many times a position must
    /// occur to make a repetition (3 in games, 2 for the WXF manual's diagrams).
    #[new]
    #[pyo3(signature = (fen = None, repetitions = Rules::DEFAULT.repetitions))]
    fn new(fen: Option<&str>, repetitions: u32) -> PyResult<Game> {
        check_repetitions(repetitions)?;
        let start = read_fen(fen)?;
        Ok(Game {
            line: GameLine::new(start),
            repetitions,
        })
    }

    /// Plays a move (ICCS, WXF, Chinese or SAN); returns its ICCS form.
    fn push(&mut self, r#move: &str) -> PyResult<String> {
        let m = read_move(self.line.position(), r#move)?;
        self.line
            .push(m)
            .map_err(|e| MoveError::new_err(e.to_string()))?;
        Ok(m.to_string())
    }

    /// Takes back the last move; returns it in ICCS, or None at the start.
    fn pop(&mut self) -> Option<String> {
        self.line.pop().map(|m| m.to_string())
    }

    /// The current position.
    #[getter]
    fn position(&self) -> Position {
        Position {
            inner: self.line.position().clone(),
        }
    }

    /// The moves played, in ICCS.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.line.moves().iter().map(|m| m.to_string()).collect()
    }

    /// The legal moves after which the side to move loses by repetition (what a UCCI arbiter
    /// sends as `banmoves`).
    fn losing_moves(&self) -> Vec<String> {
        self.referee()
            .losing_moves()
            .iter()
            .map(|m| m.to_string())
            .collect()
    }

    /// The referee's report on the game so far, as `xq referee --json` gives it for a record of
    /// these moves: result, reason, ply, violator, cycles, chased pieces, why each counts as
    /// unprotected, the WXF rule cited, the explanation, and the repetitions on the way.
    /// The words (explanation, notes, rule) are in `lang`: `en`, `zh-Hans` or `zh-Hant`.
    #[pyo3(signature = (lang = "en"))]
    fn report<'py>(&self, py: Python<'py>, lang: &str) -> PyResult<Bound<'py, PyAny>> {
        let lang = read_lang(lang)?;
        let r = self.judge()?;
        to_python(py, &report_json_in(&r, lang))
    }

    /// The ruling at this point: the report if the game stands decided (checkmate, stalemate or
    /// a repetition ruled, as the record ends here), else None.
    #[pyo3(signature = (lang = "en"))]
    fn ruling<'py>(&self, py: Python<'py>, lang: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
        let lang = read_lang(lang)?;
        let r = self.judge()?;
        if r.decision().is_none() {
            return Ok(None);
        }
        to_python(py, &report_json_in(&r, lang)).map(Some)
    }

    fn __repr__(&self) -> String {
        format!(
            "xq.Game({:?}, moves={})",
            self.line.start().to_string(),
            self.line.plies()
        )
    }
}

impl Game {
    /// The referee's rules for the game: an arbiter's, with the game's repetition count.
    fn rules(&self) -> Rules {
        Rules::arbiter(self.repetitions)
    }

    /// The referee, having followed the game's moves.
    fn referee(&self) -> Adjudicator {
        let mut referee = Adjudicator::new(self.line.start().clone(), self.rules());
        for &m in self.line.moves() {
            if referee.play(m).is_err() {
                unreachable!("a game's moves were checked when pushed");
            }
        }
        referee
    }

    /// The referee's report on the game as a record ending here.
    fn judge(&self) -> PyResult<GameReport> {
        let source = Source::Game {
            name: "game".to_string(),
            game: Box::new(self.line.clone()),
        };
        Judging::new(vec![source], self.rules())
            .next()
            .ok_or_else(|| XqError::new_err("the referee gave no report on the game"))
    }
}

/// Converts JSON values to Python objects (dict, list, str, int, float, bool, None), reusing one
/// Python string for each short text (moves, colours, names of results), of which a collection
/// repeats a few thousand millions of times.
struct Converter<'py> {
    py: Python<'py>,
    short: HashMap<String, Bound<'py, PyString>>,
}

impl<'py> Converter<'py> {
    fn new(py: Python<'py>) -> Converter<'py> {
        Converter {
            py,
            short: HashMap::new(),
        }
    }

    fn text(&mut self, s: &str) -> Bound<'py, PyAny> {
        if s.len() > 12 {
            return PyString::new(self.py, s).into_any();
        }
        if let Some(cached) = self.short.get(s) {
            return cached.clone().into_any();
        }
        let made = PyString::new(self.py, s);
        self.short.insert(s.to_string(), made.clone());
        made.into_any()
    }

    fn convert(&mut self, value: &Value) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        Ok(match value {
            Value::Null => py.None().into_bound(py),
            Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
            Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    i.into_pyobject(py)?.into_any()
                } else if let Some(u) = n.as_u64() {
                    u.into_pyobject(py)?.into_any()
                } else {
                    n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
                }
            }
            Value::String(s) => self.text(s),
            Value::Array(items) => {
                let list = PyList::empty(py);
                for item in items {
                    list.append(self.convert(item)?)?;
                }
                list.into_any()
            }
            Value::Object(map) => {
                let dict = PyDict::new(py);
                for (k, v) in map {
                    let key = self.text(k);
                    dict.set_item(key, self.convert(v)?)?;
                }
                dict.into_any()
            }
        })
    }
}

fn to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Converter::new(py).convert(value)
}

/// The number of occurrences that make a repetition, checked against the command line's range.
fn check_repetitions(repetitions: u32) -> PyResult<()> {
    let range = REPETITIONS_RANGE;
    if range.contains(&repetitions) {
        Ok(())
    } else {
        Err(XqError::new_err(format!(
            "repetitions {repetitions}: from {} to {}",
            range.start(),
            range.end()
        )))
    }
}

/// The referee's settings from the keyword arguments.
fn referee_config(repetitions: u32, first_decision: bool, move_limit: u32) -> PyResult<Rules> {
    check_repetitions(repetitions)?;
    Ok(Rules::chosen(repetitions, first_decision, move_limit))
}

/// Whether a string that names no file reads as the text of a record: tags, a line break, move
/// numbers or a result.
fn looks_like_record_text(text: &str) -> bool {
    text.contains('\n')
        || text.trim_start().starts_with('[')
        || text.split_whitespace().count() > 1
            && text.split_whitespace().any(|token| {
                matches!(token, "*" | "1-0" | "0-1" | "1/2-1/2")
                    || token
                        .strip_suffix('.')
                        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            })
}

/// The sources `source` names, selected as `xq referee` selects them: a file as given, a
/// directory's game files in name order (its own HTML reports left out).
fn sources_of(source: &Bound<'_, PyAny>) -> PyResult<Vec<Source>> {
    let path: PathBuf = source.extract()?;
    if !path.exists() {
        if let Some(text) = path.to_str().filter(|t| looks_like_record_text(t)) {
            return Err(XqError::new_err(format!(
                "{:?} is no file or directory but reads as record text: judge record text with \
                 xq.referee_text(text)",
                xq::clip::quote(text)
            )));
        }
        return Err(PyFileNotFoundError::new_err(format!(
            "{}: no such file or directory",
            path.display()
        )));
    }
    Ok(sources_at(&path))
}

/// The name of record text in reports.
const TEXT: &str = "text";

/// Judging the sources under `config` on the machine's cores.
fn judging(sources: Vec<Source>, config: Rules) -> Judging {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    Judging::new(sources, config).threads(threads)
}

/// Record text, read as `xq referee -` reads a stream: a piece of whole games at a time.
fn text_source(text: &str) -> Source {
    Source::text(TEXT, text.as_bytes().to_vec())
}

/// A list of Python objects from the reports.
fn report_list<'py>(py: Python<'py>, values: &[Value]) -> PyResult<Bound<'py, PyList>> {
    let mut converter = Converter::new(py);
    let list = PyList::empty(py);
    for v in values {
        list.append(converter.convert(v)?)?;
    }
    Ok(list)
}

/// Judges game files as `xq referee --json` does and returns one dict per game. `path` is a file
/// or a directory, whose game files are selected as the command line selects them. Files are
/// judged on all cores with the interpreter's lock released. Record text is judged by
/// `referee_text`.
#[pyfunction]
#[pyo3(signature = (path, repetitions = Rules::DEFAULT.repetitions, first_decision = false, move_limit = DEFAULT_MOVE_LIMIT, lang = "en"))]
fn referee<'py>(
    py: Python<'py>,
    path: &Bound<'py, PyAny>,
    repetitions: u32,
    first_decision: bool,
    move_limit: u32,
    lang: &str,
) -> PyResult<Bound<'py, PyList>> {
    let config = referee_config(repetitions, first_decision, move_limit)?;
    let lang = read_lang(lang)?;
    let sources = sources_of(path)?;
    let values = py.detach(|| judge_all(sources, config, lang));
    report_list(py, &values)
}

/// Judges the games in the text of a record (PGN in any notation, DhtmlXQ) as `referee` judges a
/// file's.
#[pyfunction]
#[pyo3(signature = (text, repetitions = Rules::DEFAULT.repetitions, first_decision = false, move_limit = DEFAULT_MOVE_LIMIT, lang = "en"))]
fn referee_text<'py>(
    py: Python<'py>,
    text: &str,
    repetitions: u32,
    first_decision: bool,
    move_limit: u32,
    lang: &str,
) -> PyResult<Bound<'py, PyList>> {
    let config = referee_config(repetitions, first_decision, move_limit)?;
    let lang = read_lang(lang)?;
    let source = text_source(text);
    let values = py.detach(|| judge_all(vec![source], config, lang));
    report_list(py, &values)
}

/// Every report of the sources, as JSON with its words in `lang`, in source and game order.
fn judge_all(sources: Vec<Source>, config: Rules, lang: Lang) -> Vec<Value> {
    judging(sources, config)
        .map(|r| report_json_in(&r, lang))
        .collect()
}

/// A language from its tag (`en`, `zh-Hans`, `zh-Hant`).
fn read_lang(tag: &str) -> PyResult<Lang> {
    tag.parse()
        .map_err(|e: xq::referee::render::UnknownLang| XqError::new_err(e.to_string()))
}

/// An iterator over the reports of a collection's games, judged a batch of inputs at a time,
/// for collections too large to hold at once.
#[pyclass(module = "xq")]
struct GameReports {
    judging: Judging,
    lang: Lang,
}

#[pymethods]
impl GameReports {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let (judging, lang) = (&mut self.judging, self.lang);
        match py.detach(|| judging.next().map(|r| report_json_in(&r, lang))) {
            Some(v) => to_python(py, &v).map(Some),
            None => Ok(None),
        }
    }
}

/// Like `referee`, but yields the reports one by one, reading one file at a time.
#[pyfunction]
#[pyo3(signature = (path, repetitions = Rules::DEFAULT.repetitions, first_decision = false, move_limit = DEFAULT_MOVE_LIMIT, lang = "en"))]
fn iter_referee(
    path: &Bound<'_, PyAny>,
    repetitions: u32,
    first_decision: bool,
    move_limit: u32,
    lang: &str,
) -> PyResult<GameReports> {
    let config = referee_config(repetitions, first_decision, move_limit)?;
    Ok(GameReports {
        judging: judging(sources_of(path)?, config),
        lang: read_lang(lang)?,
    })
}

/// Like `referee_text`, but yields the reports one by one, judging the text a piece of whole games
/// at a time.
#[pyfunction]
#[pyo3(signature = (text, repetitions = Rules::DEFAULT.repetitions, first_decision = false, move_limit = DEFAULT_MOVE_LIMIT, lang = "en"))]
fn iter_referee_text(
    text: &str,
    repetitions: u32,
    first_decision: bool,
    move_limit: u32,
    lang: &str,
) -> PyResult<GameReports> {
    let config = referee_config(repetitions, first_decision, move_limit)?;
    Ok(GameReports {
        judging: judging(vec![text_source(text)], config),
        lang: read_lang(lang)?,
    })
}

/// The WXF Xiangqi referee and the rules, from the xq engine.
#[pymodule(name = "xq")]
fn xq_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Position>()?;
    m.add_class::<Game>()?;
    m.add_class::<GameReports>()?;
    m.add_function(wrap_pyfunction!(referee, m)?)?;
    m.add_function(wrap_pyfunction!(iter_referee, m)?)?;
    m.add_function(wrap_pyfunction!(referee_text, m)?)?;
    m.add_function(wrap_pyfunction!(iter_referee_text, m)?)?;
    let py = m.py();
    m.add("XqError", py.get_type::<XqError>())?;
    m.add("FenError", py.get_type::<FenError>())?;
    m.add("MoveError", py.get_type::<MoveError>())?;
    m.add("RecordError", py.get_type::<RecordError>())?;
    Ok(())
}
