//! The Python module `pocketfen`: the FEN converter and checker, the rules engine and the
//! archive validator of the `pocketfen` library, at native speed.
//!
//! Long work (validation, conversion and replay of archives, perft) runs without the GIL.
//! An archive is the library's run (`pocketfen::archive::Run`), iterated here: its records
//! are the library's (`pocketfen::record`), turned into dicts by their serde form, and
//! its memory is the run's, bounded whatever the archive's size.

use std::io::{self, Read, Seek, SeekFrom};
use std::str::FromStr;
use std::sync::Mutex;

use pyo3::create_exception;
use pyo3::exceptions::{PyStopIteration, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use pythonize::{depythonize, pythonize};

use pocketfen::archive::{Run, RunOptions, Source, Split, Task};
use pocketfen::notation::diagram::diagram;
use pocketfen::notation::fen::{self, FenDialect, FenPositionError, ParseFenError};
use pocketfen::notation::mixed::resolve_move;
use pocketfen::notation::san::{DropStyle, SanPlus};
use pocketfen::pgn::{Format, Options, PlyText, Target};
use pocketfen::record::RunRecord;
use pocketfen::{ParseNameError, Rules, Variant, guess_variant};

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

fn dialect(name: &str) -> PyResult<FenDialect> {
    parse_name(name)
}

fn variant(name: &str) -> PyResult<Option<Variant>> {
    if name.eq_ignore_ascii_case("auto") {
        return Ok(None);
    }
    parse_name(name).map(Some)
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
            Some(text) => {
                let mut pos = pocketfen::Position::from_fen(text, chosen.map(Rules::new))
                    .map_err(|e| fen_position_error(py, &e))?;
                pos.set_drop_mate(drop_mate);
                pos
            }
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
        let resolved = resolve_move(r#move, pos, false).map_err(|e| (e.kind(), e.message()));
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
        Ok(self
            .pos
            .to_setup()
            .display(self::dialect(dialect)?)
            .to_string())
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
        self.pos.to_setup().display(FenDialect::Lichess).to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Position({:?}, variant={:?})\n{}",
            self.pos.to_setup().display(FenDialect::Lichess).to_string(),
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

/// Reads and seeks a Python binary file object (for a part of it), taking the GIL for
/// each call.
struct PySeekReader(PyReader);

impl Read for PySeekReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

impl Seek for PySeekReader {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        let (offset, whence) = match pos {
            SeekFrom::Start(n) => (n as i64, 0),
            SeekFrom::Current(n) => (n, 1),
            SeekFrom::End(n) => (n, 2),
        };
        Python::attach(|py| {
            self.0
                .file
                .bind(py)
                .call_method1("seek", (offset, whence))
                .and_then(|p| p.extract::<u64>())
                .map_err(|e| io::Error::other(e.to_string()))
        })
    }
}

/// The archive a source names, for reading a part of it: a path, bytes, or a binary file
/// object that can seek (a local file, an fsspec file of object storage).
fn open_split_source(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<Source> {
    if let Ok(bytes) = source.cast::<PyBytes>() {
        let data = bytes.as_bytes().to_vec();
        return Ok(Source::seekable("<bytes>", io::Cursor::new(data)));
    }
    let is_path =
        source.is_instance_of::<PyString>() || source.hasattr("__fspath__").unwrap_or(false);
    if is_path {
        let os = py.import("os")?;
        let path: std::path::PathBuf = os.call_method1("fspath", (source,))?.extract()?;
        if let Err(e) = std::fs::File::open(&path) {
            let err: PyErr = e.into();
            let _ = err
                .value(py)
                .setattr("filename", path.to_string_lossy().as_ref());
            return Err(err);
        }
        return Ok(Source::path(path));
    }
    let seekable = source.hasattr("seek")?
        && source
            .call_method0("seekable")
            .and_then(|s| s.extract::<bool>())
            .unwrap_or(true);
    if source.hasattr("read")? && seekable {
        let name = source
            .getattr("name")
            .ok()
            .and_then(|n| n.extract::<String>().ok())
            .or_else(|| {
                source
                    .getattr("path")
                    .ok()
                    .and_then(|n| n.extract::<String>().ok())
            })
            .unwrap_or_else(|| "<stream>".to_owned());
        let file = source.clone().unbind();
        return Ok(Source::seekable(name, PySeekReader(PyReader { file })));
    }
    Err(PyTypeError::new_err(
        "a part is read from a path (str or os.PathLike), bytes, or a binary file object that can seek; a stream can only be read from its start",
    ))
}

/// A part named as `"K/N"`, `(K, N)` or a dict of `splits()`.
fn parse_split(split: &Bound<'_, PyAny>) -> PyResult<Split> {
    if let Ok(text) = split.extract::<String>() {
        return text.parse().map_err(PyValueError::new_err);
    }
    if let Ok((k, n)) = split.extract::<(usize, usize)>() {
        return Split::new(k, n).map_err(PyValueError::new_err);
    }
    if let Ok(dict) = split.cast::<PyDict>()
        && let Some(text) = dict.get_item("split")?
    {
        return parse_split(&text);
    }
    Err(PyTypeError::new_err(
        "split is \"K/N\", a tuple (K, N), or an item of splits()",
    ))
}

/// An I/O error of the library as Python raises it: a file that cannot be split is a
/// ValueError, the rest OSErrors.
fn io_error(e: io::Error) -> PyErr {
    if e.kind() == io::ErrorKind::InvalidInput {
        PyValueError::new_err(e.to_string())
    } else {
        e.into()
    }
}

/// The archive a source names: a path (opened here, so that a missing file raises at
/// once), bytes, or a binary file object.
fn open_source(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<Source> {
    if let Ok(bytes) = source.cast::<PyBytes>() {
        let data = bytes.as_bytes().to_vec();
        return Ok(Source::reader("<bytes>", io::Cursor::new(data)));
    }
    let is_path =
        source.is_instance_of::<PyString>() || source.hasattr("__fspath__").unwrap_or(false);
    if is_path {
        let os = py.import("os")?;
        let path: std::path::PathBuf = os.call_method1("fspath", (source,))?.extract()?;
        let file = std::fs::File::open(&path).map_err(|e| {
            let err: PyErr = e.into();
            let _ = err
                .value(py)
                .setattr("filename", path.to_string_lossy().as_ref());
            err
        })?;
        return Ok(Source::reader(path.to_string_lossy(), file));
    }
    if source.hasattr("read")? {
        let name = source
            .getattr("name")
            .ok()
            .and_then(|n| n.extract::<String>().ok())
            .unwrap_or_else(|| "<stream>".to_owned());
        let mut reader = PyReader {
            file: source.clone().unbind(),
        };
        // The first bytes are read now, as opening a file is: a file object that cannot
        // be read (opened in text mode) raises at once.
        let mut first = vec![0; 1 << 16];
        let n = reader.read(&mut first)?;
        first.truncate(n);
        return Ok(Source::reader(name, io::Cursor::new(first).chain(reader)));
    }
    Err(PyTypeError::new_err(
        "source must be a path (str or os.PathLike), bytes, or a binary file object",
    ))
}

/// A name the library reads, or a ValueError that lists the names.
fn parse_name<T: FromStr<Err = ParseNameError>>(name: &str) -> PyResult<T> {
    name.parse()
        .map_err(|e: ParseNameError| PyValueError::new_err(e.to_string()))
}

/// What an archive iterator yields.
#[derive(Clone, Copy)]
enum Yields {
    /// `validate`: the records as dicts (games, then the summary).
    Records,
    /// `convert_pgn`: each game's text.
    Texts,
    /// `replay`: `(game number, plies)`.
    Plies,
}

/// An iterator over a run of the library's ([`Run`]): the records of `validate` as
/// dicts, the games of `convert_pgn` as strings, or those of `replay` as tuples.
#[pyclass(module = "pocketfen")]
struct RunIterator {
    run: Mutex<Run>,
    yields: Yields,
}

#[pymethods]
impl RunIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        loop {
            // The run works without the GIL.
            let next = py.detach(|| self.run.lock().ok().and_then(|mut run| run.next()));
            let Some(record) = next else {
                return Err(PyStopIteration::new_err(()));
            };
            match (self.yields, record) {
                (_, RunRecord::Total(_)) => {}
                (Yields::Records, record) => {
                    return pythonize(py, &record)
                        .map_err(|e| PyValueError::new_err(e.to_string()));
                }
                (_, RunRecord::Summary(s)) => {
                    if let Some(e) = s.stream_error {
                        return Err(pyo3::exceptions::PyOSError::new_err(format!(
                            "the stream ends in an error after {} bytes: {e}",
                            s.bytes
                        )));
                    }
                }
                (Yields::Texts, RunRecord::Converted(c)) => match (c.refused, &c.raw) {
                    (false, _) => return Ok(PyString::new(py, &c.text).into_any()),
                    (true, Some(raw)) => {
                        let text = String::from_utf8_lossy(&raw.bytes);
                        return Ok(PyString::new(py, &text).into_any());
                    }
                    (true, None) => {}
                },
                (Yields::Plies, RunRecord::Replayed(r)) => {
                    let plies = PyList::new(py, r.plies().collect::<Vec<_>>())?;
                    return Ok(PyTuple::new(
                        py,
                        [r.game.into_pyobject(py)?.into_any(), plies.into_any()],
                    )?
                    .into_any());
                }
                _ => {}
            }
        }
    }
}

/// A run of `task` over one source.
fn run(
    source: Source,
    task: Task,
    game: Options,
    jobs: usize,
    split: Option<Split>,
    timings: bool,
) -> RunIterator {
    let yields = match task {
        Task::Validate { .. } | Task::Select(..) | Task::Dedupe { .. } => Yields::Records,
        Task::Convert { .. } => Yields::Texts,
        Task::Replay { .. } => Yields::Plies,
    };
    let opts = RunOptions {
        game,
        jobs,
        split,
        timings,
        ..RunOptions::default()
    };
    RunIterator {
        run: Mutex::new(Run::new(vec![source], task, opts)),
        yields,
    }
}

/// validate(source, *, variant=None, strict=False, variations=False, drop_mate=True, jobs=0, all=False, split=None, timings=False)
/// --
///
/// Replays every game of a PGN or BPGN archive and yields the records of
/// `pocketfen validate --json` (schema version 2) as dicts: a `game` record for each game
/// with problems (every game with `all=True`), then one `summary` (with the `seconds` it
/// took when `timings=True`). `source` is a path
/// (str or os.PathLike; zstd, gzip and bzip2 are detected), bytes, or a binary file
/// object. `jobs=0` uses every core; records come in input order whatever the number.
/// The work runs without the GIL and in bounded memory.
#[pyfunction]
#[pyo3(signature = (source, *, variant = None, strict = false, variations = false, drop_mate = true, jobs = 0, all = false, split = None, timings = false))]
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
    split: Option<&Bound<'_, PyAny>>,
    timings: bool,
) -> PyResult<RunIterator> {
    let variant = match variant {
        Some(v) => self::variant(v)?,
        None => None,
    };
    let (source, split) = sources(py, source, split)?;
    let opts = Options {
        variant,
        strict,
        variations,
        drop_mate,
        format: Format::Auto,
    };
    Ok(run(
        source,
        Task::Validate { all },
        opts,
        jobs,
        split,
        timings,
    ))
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
#[pyo3(signature = (source, to, *, drop_style = None, keep_broken = false, jobs = 0, split = None))]
fn convert_pgn(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    to: &str,
    drop_style: Option<&str>,
    keep_broken: bool,
    jobs: usize,
    split: Option<&Bound<'_, PyAny>>,
) -> PyResult<RunIterator> {
    let target: Target = parse_name(to)?;
    let style = match drop_style {
        None => target.drop_style(),
        Some(name) => parse_name(name)?,
    };
    let (source, split) = sources(py, source, split)?;
    let opts = Options {
        variations: true,
        ..Options::default()
    };
    let task = Task::Convert {
        target,
        style,
        keep_broken,
        layout: Default::default(),
    };
    Ok(run(source, task, opts, jobs, split, false))
}

/// replay(source, emit="fen", *, jobs=0)
/// --
///
/// Replays every game and yields `(game number, plies)`: per mainline ply the FEN after it
/// (Lichess dialect; `emit="fen"`), its SAN (`"san"`) or UCI (`"uci"`). A game stops at
/// its first illegal move. `jobs=0` uses every core; games come in input order. A read
/// error of the stream raises OSError.
#[pyfunction]
#[pyo3(signature = (source, emit = "fen", *, jobs = 0, split = None))]
fn replay(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    emit: &str,
    jobs: usize,
    split: Option<&Bound<'_, PyAny>>,
) -> PyResult<RunIterator> {
    let text: PlyText = parse_name(emit)?;
    let (source, split) = sources(py, source, split)?;
    Ok(run(
        source,
        Task::Replay { text },
        Options::default(),
        jobs,
        split,
        false,
    ))
}

/// The source of a run, and the part of it to read.
fn sources(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    split: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Source, Option<Split>)> {
    match split {
        None => Ok((open_source(py, source)?, None)),
        Some(split) => {
            let split = parse_split(split)?;
            Ok((open_split_source(py, source)?, Some(split)))
        }
    }
}

/// splits(source, n)
/// --
///
/// The `n` parts of an archive, to be read by `validate`, `convert_pgn` or `replay`
/// with `split=` (on other processes or machines), each game in exactly one part:
/// a list of dicts with `split` (`"K/N"`), `part`, `of`, and the byte range `start` to
/// `end` of the file that the part's text is read from. `source` is a path, bytes or a
/// seekable binary file object. A compressed file must be in independent frames (pzstd,
/// pbzip2, BGZF): one that is a single stream raises ValueError, saying how to
/// recompress it.
#[pyfunction]
fn splits<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    n: usize,
) -> PyResult<Bound<'py, PyList>> {
    let src = open_split_source(py, source)?;
    let parts = py
        .detach(|| pocketfen::archive::parts(src, n))
        .map_err(io_error)?;
    let list = PyList::empty(py);
    for p in parts {
        let d = PyDict::new(py);
        d.set_item("split", p.split.to_string())?;
        d.set_item("part", p.split.part)?;
        d.set_item("of", p.split.of)?;
        d.set_item("start", p.start)?;
        d.set_item("end", p.end)?;
        list.append(d)?;
    }
    Ok(list)
}

/// merge(parts)
/// --
///
/// Joins the records of the parts of a split run (`parts`: one list of records per part,
/// parts 1 to N in order, as `validate(..., split=...)` yields them, or the JSON Lines
/// of `--split` runs read back) into the records of one run over the whole file: games
/// renumbered from the file's start, the summaries summed. Raises ValueError naming the
/// part that does not fit: another file, a file changed between parts, other options,
/// parts out of order or missing.
#[pyfunction]
fn merge<'py>(py: Python<'py>, parts: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    let mut values: Vec<Vec<serde_json::Value>> = Vec::new();
    for part in parts.try_iter()? {
        let part = part?;
        let mut records = Vec::new();
        for record in part.try_iter()? {
            let record = record?;
            records.push(depythonize::<serde_json::Value>(&record).map_err(|e| {
                PyTypeError::new_err(format!(
                    "a record of part {} is not a record: {e}",
                    values.len() + 1
                ))
            })?);
        }
        values.push(records);
    }
    let mut summaries = Vec::with_capacity(values.len());
    for (i, records) in values.iter().enumerate() {
        let summary = records
            .iter()
            .find(|r| r.get("type").and_then(serde_json::Value::as_str) == Some("summary"))
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "part {} given has no summary record: its run did not finish",
                    i + 1
                ))
            })?;
        summaries.push(summary.clone());
    }
    let merge = pocketfen::merge::Merge::new(&summaries)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let out = PyList::empty(py);
    for (index, records) in values.into_iter().enumerate().take(merge.parts_used()) {
        for mut record in records {
            if matches!(
                record.get("type").and_then(serde_json::Value::as_str),
                Some("summary" | "total")
            ) {
                continue;
            }
            merge.renumber(index, &mut record);
            out.append(pythonize(py, &record).map_err(|e| PyValueError::new_err(e.to_string()))?)?;
        }
    }
    let summary = RunRecord::Summary(merge.summary().clone());
    out.append(pythonize(py, &summary).map_err(|e| PyValueError::new_err(e.to_string()))?)?;
    Ok(out)
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
    m.add_function(wrap_pyfunction!(splits, m)?)?;
    m.add_function(wrap_pyfunction!(merge, m)?)?;
    m.add_class::<PyPosition>()?;
    m.add_class::<RunIterator>()?;
    Ok(())
}
