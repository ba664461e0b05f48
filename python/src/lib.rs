//! The Python module `pocketfen`: the FEN converter and checker, the rules engine and the
//! archive validator of the `pocketfen` library, at native speed.
//!
//! Long work (validation, conversion and replay of archives, perft) runs without the GIL;
//! archives are read by a thread of their own and their records handed over through a
//! bounded queue, so an iterator over a 1 GB archive holds a few hundred records at most.

use std::io::{self, BufRead, Read};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Instant;

use pyo3::create_exception;
use pyo3::exceptions::{PyStopIteration, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};

use pocketfen::notation::diagram::diagram;
use pocketfen::notation::fen::{self, FenDialect, FenPositionError, ParseFenError};
use pocketfen::notation::mixed::resolve_move;
use pocketfen::notation::san::{DropStyle, SanPlus};
use pocketfen::pgn::convert::{Converted, Target, convert_game};
use pocketfen::pgn::input;
use pocketfen::pgn::pipeline::run_ordered;
use pocketfen::pgn::replay::{PlyText, replay_game};
use pocketfen::pgn::{
    Format, GameProblem, GameReport, GameSplitter, Options, RawGame, Totals, validate_game,
};
use pocketfen::{Variant, guess_variant};

create_exception!(
    pocketfen,
    FenError,
    PyValueError,
    "A FEN that does not parse (`.column`, `.field`, `.expected`, `.found` say where and \
     why) or is not a legal position (those are None; `.problems` lists why)."
);
create_exception!(
    pocketfen,
    IllegalMoveError,
    PyValueError,
    "A move that does not read or is not legal: `.kind` (`syntax`, `no-such-piece`, …, \
     `game-over`) and `.reason`."
);

/// The version of the record schema (`validate --json`'s).
const SCHEMA_VERSION: u32 = 1;
/// Records waiting in the queue between the reading thread and the iterator.
const QUEUE: usize = 256;

fn dialect(name: &str) -> PyResult<FenDialect> {
    FenDialect::ALL
        .into_iter()
        .find(|d| d.name() == name)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown dialect {name:?}: expected lichess, xboard, chesscom or bracket"
            ))
        })
}

fn variant(name: &str) -> PyResult<Option<Variant>> {
    if name.eq_ignore_ascii_case("auto") {
        return Ok(None);
    }
    name.parse::<Variant>().map(Some).map_err(|_| {
        PyValueError::new_err(format!(
            "unknown variant {name:?}: expected auto, chess, crazyhouse, loop, chessgi, horde \
             or bughouse"
        ))
    })
}

fn fen_error(py: Python<'_>, e: &ParseFenError) -> PyErr {
    let err = FenError::new_err(e.to_string());
    let value = err.value(py);
    let _ = value.setattr("column", e.column);
    let _ = value.setattr("field", e.field.name());
    let _ = value.setattr("expected", e.expected);
    let _ = value.setattr("found", e.found.as_str());
    let _ = value.setattr("problems", PyList::empty(py));
    err
}

fn fen_position_error(py: Python<'_>, e: &FenPositionError) -> PyErr {
    if let FenPositionError::Parse(e) = e {
        return fen_error(py, e);
    }
    let err = FenError::new_err(e.to_string());
    let value = err.value(py);
    for attr in ["column", "field", "expected", "found"] {
        let _ = value.setattr(attr, py.None());
    }
    let problems: Vec<String> = match e {
        FenPositionError::Illegal(p) => p.errors().map(|p| p.to_string()).collect(),
        _ => vec![e.to_string()],
    };
    let _ = value.setattr("problems", problems);
    err
}

/// convert_fen(fen, to, from_=None, variant="auto")
/// --
///
/// The FEN (or bughouse pair `A | B`, or EPD line) in the dialect `to`: `lichess`,
/// `xboard`, `chesscom` or `bracket`. `from_` names the dialect to read (None or `auto`:
/// any). `variant` says what the position is: a pocket variant writes its pockets even
/// when empty. Raises FenError when it does not parse.
#[pyfunction]
#[pyo3(signature = (fen, to, from_ = None, variant = "auto"))]
fn convert_fen(
    py: Python<'_>,
    fen: &str,
    to: &str,
    from_: Option<&str>,
    variant: &str,
) -> PyResult<String> {
    let conv = fen::Conversion {
        from: match from_ {
            None | Some("auto") => None,
            Some(name) => Some(dialect(name)?),
        },
        to: dialect(to)?,
        variant: self::variant(variant)?,
    };
    let mut out = String::with_capacity(fen.len() + 8);
    fen::convert_line(fen, &conv, &mut out).map_err(|e| fen_error(py, &e))?;
    Ok(out)
}

/// check_fen(fen, variant="auto")
/// --
///
/// The problems of a position (or pair) as dicts: `board` (`A`, `B` or None), `severity`
/// (`error` or `warning`), `kind` and `message`; an empty list for a legal position.
/// `variant="auto"` reads the variant off the FEN. Raises FenError when it does not parse.
#[pyfunction]
#[pyo3(signature = (fen, variant = "auto"))]
fn check_fen<'py>(py: Python<'py>, fen: &str, variant: &str) -> PyResult<Bound<'py, PyList>> {
    let chosen = self::variant(variant)?;
    let parsed = fen::parse(fen, None).map_err(|e| fen_error(py, &e))?;
    let variant = chosen.unwrap_or_else(|| guess_variant(&parsed.fen));
    let list = PyList::empty(py);
    for (board, p) in pocketfen::bughouse::check_fen(&parsed.fen, variant) {
        let d = PyDict::new(py);
        d.set_item("board", board.map(|b| b.letter().to_string()))?;
        d.set_item("severity", p.severity.name())?;
        d.set_item("kind", p.kind.name())?;
        d.set_item("message", &p.message)?;
        list.append(d)?;
    }
    Ok(list)
}

/// Position(fen=None, variant="chess", drop_mate=True)
/// --
///
/// A legal position of one board: the variant's start when `fen` is None, else the FEN in
/// any dialect. `variant` is `chess`, `crazyhouse`, `loop`, `chessgi`, `horde`,
/// `bughouse` (one board) or `auto` (read off the FEN). `drop_mate=False` forbids drops
/// that checkmate. Raises FenError for a FEN that does not parse or is not legal.
#[pyclass(name = "Position", module = "pocketfen")]
#[derive(Clone)]
struct PyPosition {
    pos: pocketfen::Position,
}

#[pymethods]
impl PyPosition {
    #[new]
    #[pyo3(signature = (fen = None, variant = "chess", drop_mate = true))]
    fn new(py: Python<'_>, fen: Option<&str>, variant: &str, drop_mate: bool) -> PyResult<Self> {
        let chosen = self::variant(variant)?;
        let pos = match fen {
            Some(text) => pocketfen::Position::from_fen(text, chosen, drop_mate)
                .map_err(|e| fen_position_error(py, &e))?,
            None => {
                let mut pos = pocketfen::Position::start(chosen.unwrap_or(Variant::Chess));
                pos.set_drop_mate(drop_mate);
                pos
            }
        };
        Ok(PyPosition { pos })
    }

    /// legal_moves(fmt="san")
    /// --
    ///
    /// The legal moves, in SAN (`fmt="san"`, drops as `P@e4`) or UCI (`fmt="uci"`).
    #[pyo3(signature = (fmt = "san"))]
    fn legal_moves(&self, fmt: &str) -> PyResult<Vec<String>> {
        let pos = &self.pos;
        let moves = pos.legal_moves();
        match fmt {
            "san" => Ok(moves
                .iter()
                .map(|&m| SanPlus::from_move(pos, m).to_string_with(DropStyle::Letter))
                .collect()),
            "uci" => Ok(moves
                .iter()
                .map(|m| m.to_uci(pos.is_chess960()).to_string())
                .collect()),
            _ => Err(PyValueError::new_err(format!(
                "unknown move format {fmt:?}: expected san or uci"
            ))),
        }
    }

    /// play(move)
    /// --
    ///
    /// Plays a move given in SAN or UCI and returns its canonical SAN. Raises
    /// IllegalMoveError (`.kind`, `.reason`) when it does not read, is not legal, or the
    /// game has ended; the position is then unchanged.
    fn play(&mut self, py: Python<'_>, r#move: &str) -> PyResult<String> {
        let pos = &mut self.pos;
        let resolved = match pos.outcome() {
            Some(outcome) => Err((
                "game-over",
                format!(
                    "the game has ended ({}, {})",
                    outcome.reason().name(),
                    outcome.result()
                ),
            )),
            None => resolve_move(r#move, pos, false).map_err(|e| (e.kind(), e.message())),
        };
        match resolved {
            Ok((m, _)) => {
                let san = SanPlus::from_move(pos, m).to_string_with(DropStyle::Letter);
                pos.play_unchecked(m);
                Ok(san)
            }
            Err((kind, reason)) => {
                let err =
                    IllegalMoveError::new_err(format!("{move}: {kind}: {reason}", move = r#move));
                let value = err.value(py);
                value.setattr("kind", kind)?;
                value.setattr("reason", reason)?;
                Err(err)
            }
        }
    }

    /// fen(dialect="lichess")
    /// --
    ///
    /// The FEN in a dialect: `lichess`, `xboard`, `chesscom` or `bracket`.
    #[pyo3(signature = (dialect = "lichess"))]
    fn fen(&self, dialect: &str) -> PyResult<String> {
        Ok(self.pos.fen(self::dialect(dialect)?))
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.pos.is_check()
    }

    /// The result when the game has ended on the board (`1-0`, `0-1`, `1/2-1/2`:
    /// checkmate, stalemate, a variant's end, insufficient material in chess), else None.
    fn outcome(&self) -> Option<&'static str> {
        self.pos.outcome().map(|o| o.result())
    }

    /// perft(depth)
    /// --
    ///
    /// The number of move sequences of `depth` plies (without the GIL).
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let pos = self.pos.clone();
        py.detach(move || pocketfen::perft::perft(&pos, depth))
    }

    /// A copy that plays on independently.
    fn copy(&self) -> Self {
        self.clone()
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// The variant's name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.pos.variant().name()
    }

    /// `white` or `black`.
    #[getter]
    fn turn(&self) -> &'static str {
        self.pos.turn().name()
    }

    fn __str__(&self) -> String {
        self.pos.fen(FenDialect::Lichess)
    }

    fn __repr__(&self) -> String {
        format!(
            "Position({:?}, variant={:?})\n{}",
            self.pos.fen(FenDialect::Lichess),
            self.pos.variant().name(),
            diagram(&self.pos.to_setup(), false).trim_end()
        )
    }

    fn __eq__(&self, other: &Self) -> bool {
        self.pos.to_setup() == other.pos.to_setup()
    }
}

// Sources: a path, bytes, or a binary file object.

/// Reads a Python binary file object, taking the GIL for each read.
struct PyReader {
    file: Py<PyAny>,
}

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let chunk = self
                .file
                .bind(py)
                .call_method1("read", (buf.len(),))
                .map_err(|e| io::Error::other(e.to_string()))?;
            let bytes = chunk.cast::<PyBytes>().map_err(|_| {
                io::Error::other(
                    "the file object's read() returned text, not bytes: open it in binary mode",
                )
            })?;
            let data = bytes.as_bytes();
            let n = data.len().min(buf.len());
            buf[..n].copy_from_slice(&data[..n]);
            Ok(n)
        })
    }
}

type Reader = Box<dyn BufRead + Send>;

/// The archive a source names, its name in records, and the format its name implies.
fn open_source(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<(Reader, String, Format)> {
    if let Ok(bytes) = source.cast::<PyBytes>() {
        let data = bytes.as_bytes().to_vec();
        let reader = input::decode(io::Cursor::new(data))?.reader;
        return Ok((reader, "<bytes>".to_owned(), Format::Auto));
    }
    let is_path =
        source.is_instance_of::<PyString>() || source.hasattr("__fspath__").unwrap_or(false);
    if is_path {
        let os = py.import("os")?;
        let path: std::path::PathBuf = os.call_method1("fspath", (source,))?.extract()?;
        let reader = input::open(&path)
            .map_err(|e| {
                let err: PyErr = e.into();
                let _ = err
                    .value(py)
                    .setattr("filename", path.to_string_lossy().as_ref());
                err
            })?
            .reader;
        let name = path.to_string_lossy().into_owned();
        let format = Format::from_path(&name);
        return Ok((reader, name, format));
    }
    if source.hasattr("read")? {
        let name = source
            .getattr("name")
            .ok()
            .and_then(|n| n.extract::<String>().ok())
            .unwrap_or_else(|| "<stream>".to_owned());
        let format = Format::from_path(&name);
        let reader = input::decode(PyReader {
            file: source.clone().unbind(),
        })?
        .reader;
        return Ok((reader, name, format));
    }
    Err(PyTypeError::new_err(
        "source must be a path (str or os.PathLike), bytes, or a binary file object",
    ))
}

fn jobs(n: usize) -> usize {
    if n == 0 {
        thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        n.min(256)
    }
}

// The records of `validate`.

enum Record {
    Game {
        report: GameReport,
    },
    Summary {
        totals: Totals,
        bytes: u64,
        seconds: f64,
        stream_error: Option<String>,
    },
}

fn problem_dict<'py>(py: Python<'py>, p: &GameProblem) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("severity", p.severity.name())?;
    d.set_item("kind", p.kind.name())?;
    d.set_item("ply", p.ply)?;
    d.set_item("token", p.token.as_deref())?;
    d.set_item("line", p.line)?;
    d.set_item("column", p.column)?;
    d.set_item("reason", &p.reason)?;
    d.set_item("fen_before", p.fen_before.as_deref())?;
    Ok(d)
}

fn record_dict<'py>(py: Python<'py>, file: &str, r: &Record) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    match r {
        Record::Game { report } => {
            d.set_item("type", "game")?;
            d.set_item("file", file)?;
            d.set_item("game", report.number)?;
            d.set_item("line", report.line)?;
            d.set_item("variant", report.variant.map(Variant::name))?;
            d.set_item("plies", report.plies)?;
            d.set_item("status", report.status.name())?;
            if let Some(reading) = report.result_reading {
                d.set_item("result_reading", reading.name())?;
            }
            let problems = PyList::empty(py);
            for p in &report.problems {
                problems.append(problem_dict(py, p)?)?;
            }
            d.set_item("problems", problems)?;
        }
        Record::Summary {
            totals,
            bytes,
            seconds,
            stream_error,
        } => {
            d.set_item("type", "summary")?;
            d.set_item("version", SCHEMA_VERSION)?;
            d.set_item("file", file)?;
            d.set_item("games", totals.games)?;
            d.set_item("plies", totals.plies)?;
            d.set_item("illegal_games", totals.illegal_games)?;
            d.set_item("error_games", totals.error_games)?;
            d.set_item("warnings", totals.warnings)?;
            d.set_item("bytes", bytes)?;
            d.set_item("seconds", (seconds * 1000.0).round() / 1000.0)?;
            d.set_item("complete", stream_error.is_none())?;
            if let Some(e) = stream_error {
                d.set_item("stream_error", e)?;
            }
        }
    }
    Ok(d)
}

/// Runs `work` over the games of `reader` on `jobs` threads, in a thread of its own, and
/// sends what it returns, in input order; `finish` sends the last items (with the stream
/// error, if any, and the bytes read). The thread stops when the receiver is dropped.
fn spawn<T, W, F>(reader: Reader, jobs: usize, work: W, finish: F) -> Receiver<T>
where
    T: Send + 'static,
    W: Fn(&RawGame) -> Option<T> + Sync + Send + 'static,
    F: FnOnce(&SyncSender<T>, Option<io::Error>, u64) + Send + 'static,
{
    let (tx, rx) = sync_channel(QUEUE);
    thread::spawn(move || {
        let mut splitter = GameSplitter::new(reader);
        let sent = run_ordered(
            &mut splitter,
            jobs,
            &work,
            &mut |item| match item {
                Some(item) => tx
                    .send(item)
                    .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "dropped")),
                None => Ok(()),
            },
            &mut |_, _| {},
        );
        // A dropped iterator ends the run (Err); a stream error is reported.
        if let Ok(stream_error) = sent {
            finish(&tx, stream_error, splitter.bytes_read());
        }
    });
    rx
}

/// An iterator over the records of `validate` (dicts).
#[pyclass(module = "pocketfen")]
struct RecordIterator {
    file: String,
    rx: Mutex<Receiver<Record>>,
}

#[pymethods]
impl RecordIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let next = py.detach(|| self.rx.lock().ok().and_then(|rx| rx.recv().ok()));
        match next {
            Some(record) => record_dict(py, &self.file, &record),
            _ => Err(PyStopIteration::new_err(())),
        }
    }
}

/// validate(source, *, variant=None, strict=False, variations=False, drop_mate=True, jobs=0, all=False)
/// --
///
/// Replays every game of a PGN or BPGN archive and yields the records of
/// `pocketfen validate --json` (schema version 1) as dicts: a `game` record for each game
/// with problems (every game with `all=True`), then one `summary`. `source` is a path
/// (str or os.PathLike; zstd, gzip and bzip2 are detected), bytes, or a binary file
/// object. `jobs=0` uses every core; records come in input order whatever the number.
/// The work runs without the GIL and in constant memory.
#[pyfunction]
#[pyo3(signature = (source, *, variant = None, strict = false, variations = false, drop_mate = true, jobs = 0, all = false))]
#[allow(clippy::too_many_arguments)]
fn validate(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    variant: Option<&str>,
    strict: bool,
    variations: bool,
    drop_mate: bool,
    jobs: usize,
    all: bool,
) -> PyResult<RecordIterator> {
    let variant = match variant {
        Some(v) => self::variant(v)?,
        None => None,
    };
    let (reader, file, format) = open_source(py, source)?;
    let opts = Options {
        variant,
        strict,
        variations,
        drop_mate,
        format,
    };
    let totals = Arc::new(Mutex::new(Totals::default()));
    let counted = Arc::clone(&totals);
    let start = Instant::now();
    // The worker counts every game (under a lock taken once per game) and sends the ones
    // to report; the totals go into the summary.
    let work = move |g: &RawGame| {
        let report = validate_game(g, &opts);
        if let Ok(mut t) = counted.lock() {
            t.add(&report);
        }
        (all || !report.problems.is_empty()).then_some(Record::Game { report })
    };
    let finish = move |tx: &SyncSender<Record>, stream_error: Option<io::Error>, bytes: u64| {
        let t = totals
            .lock()
            .map(|mut t| std::mem::take(&mut *t))
            .unwrap_or_default();
        let _ = tx.send(Record::Summary {
            totals: t,
            bytes,
            seconds: start.elapsed().as_secs_f64(),
            stream_error: stream_error.map(|e| e.to_string()),
        });
    };
    let rx = spawn(reader, self::jobs(jobs), work, finish);
    Ok(RecordIterator {
        file,
        rx: Mutex::new(rx),
    })
}

/// What the text iterators yield.
enum Item {
    Text(String),
    Plies(usize, Vec<String>),
    Error(String),
}

/// An iterator over converted games (str) or replayed games (tuples).
#[pyclass(module = "pocketfen")]
struct GameIterator {
    rx: Mutex<Receiver<Item>>,
}

#[pymethods]
impl GameIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let next = py.detach(|| self.rx.lock().ok().and_then(|rx| rx.recv().ok()));
        match next {
            Some(Item::Text(text)) => Ok(PyString::new(py, &text).into_any()),
            Some(Item::Plies(n, plies)) => Ok(PyTuple::new(
                py,
                [
                    n.into_pyobject(py)?.into_any(),
                    PyList::new(py, plies)?.into_any(),
                ],
            )?
            .into_any()),
            Some(Item::Error(e)) => Err(pyo3::exceptions::PyOSError::new_err(e)),
            _ => Err(PyStopIteration::new_err(())),
        }
    }
}

fn stream_error(tx: &SyncSender<Item>, e: Option<io::Error>, bytes: u64) {
    if let Some(e) = e {
        let _ = tx.send(Item::Error(format!(
            "the stream ends in an error after {bytes} bytes: {e}"
        )));
    }
}

/// convert_pgn(source, to, *, drop_style=None, keep_broken=False, jobs=0)
/// --
///
/// Re-exports an archive for a site (`to`: `lichess`, `chesscom` or `xboard`), one game
/// per item, in input order. A game `validate` rejects (with variations on) is left out,
/// or passed through unchanged with `keep_broken=True`. `drop_style` is `p-at` (`P@e4`)
/// or `at` (`@e4`); None takes the site's. `jobs=0` uses every core. A read error of the
/// stream raises OSError after the games before it.
#[pyfunction]
#[pyo3(signature = (source, to, *, drop_style = None, keep_broken = false, jobs = 0))]
fn convert_pgn(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    to: &str,
    drop_style: Option<&str>,
    keep_broken: bool,
    jobs: usize,
) -> PyResult<GameIterator> {
    let target = match to {
        "lichess" => Target::Lichess,
        "chesscom" => Target::Chesscom,
        "xboard" => Target::Xboard,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown target {to:?}: expected lichess, chesscom or xboard"
            )));
        }
    };
    let style = match drop_style {
        None => target.drop_style(),
        Some("p-at") => DropStyle::Letter,
        Some("at") => DropStyle::Bare,
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "unknown drop style {other:?}: expected p-at or at"
            )));
        }
    };
    let (reader, _, format) = open_source(py, source)?;
    let opts = Options {
        variations: true,
        format,
        ..Options::default()
    };
    let work = move |g: &RawGame| match convert_game(g, target, style, &opts) {
        Converted::Game(text, _) => Some(Item::Text(text)),
        Converted::Refused(_) if keep_broken => {
            Some(Item::Text(String::from_utf8_lossy(&g.bytes).into_owned()))
        }
        Converted::Refused(_) => None,
    };
    let rx = spawn(reader, self::jobs(jobs), work, stream_error);
    Ok(GameIterator { rx: Mutex::new(rx) })
}

/// replay(source, emit="fen", *, jobs=0)
/// --
///
/// Replays every game and yields `(game number, plies)`: per mainline ply the FEN after it
/// (Lichess dialect; `emit="fen"`), its SAN (`"san"`) or UCI (`"uci"`). A game stops at
/// its first illegal move. `jobs=0` uses every core; games come in input order. A read
/// error of the stream raises OSError.
#[pyfunction]
#[pyo3(signature = (source, emit = "fen", *, jobs = 0))]
fn replay(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    emit: &str,
    jobs: usize,
) -> PyResult<GameIterator> {
    let text = match emit {
        "fen" => PlyText::Fen(FenDialect::Lichess),
        "san" => PlyText::San(DropStyle::Letter),
        "uci" => PlyText::Uci,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown emit {emit:?}: expected fen, san or uci"
            )));
        }
    };
    let (reader, _, format) = open_source(py, source)?;
    let opts = Options {
        format,
        ..Options::default()
    };
    let work = move |g: &RawGame| {
        let mut plies = Vec::new();
        replay_game(g, &opts, text, &mut |line| plies.push(line.to_owned()));
        Some(Item::Plies(g.number, plies))
    };
    let rx = spawn(reader, self::jobs(jobs), work, stream_error);
    Ok(GameIterator { rx: Mutex::new(rx) })
}

#[pymodule]
#[pyo3(name = "pocketfen")]
fn pocketfen_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("FenError", m.py().get_type::<FenError>())?;
    m.add("IllegalMoveError", m.py().get_type::<IllegalMoveError>())?;
    m.add_function(wrap_pyfunction!(convert_fen, m)?)?;
    m.add_function(wrap_pyfunction!(check_fen, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(convert_pgn, m)?)?;
    m.add_function(wrap_pyfunction!(replay, m)?)?;
    m.add_class::<PyPosition>()?;
    m.add_class::<RecordIterator>()?;
    m.add_class::<GameIterator>()?;
    Ok(())
}
