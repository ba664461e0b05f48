//! The native module `pocketfen._pocketfen`, which the package `pocketfen` re-exports:
//! the FEN converter and checker, the rules engine and the archive validator of the
//! `pocketfen` library, at native speed.
//!
//! Long work (validation, conversion and replay of archives, perft) runs without the GIL
//! and stops at Ctrl-C. An archive is the library's run (`pocketfen::run::Run`),
//! iterated here ([`run`]): its records are the library's (`pocketfen::record`), turned
//! into dicts by their serde form, and its memory is the run's, bounded whatever the
//! archive's size.

mod bughouse;
mod interop;
mod position;
mod run;
mod source;
mod tables;
mod tools;
mod values;

use std::str::FromStr;
use std::sync::Arc;

use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use pythonize::{depythonize, pythonize};

use pocketfen::game::{Format, Options, PlyText, Target};
use pocketfen::notation::fen::{self, FenDialect, FenPositionError, ParseFenError};
use pocketfen::run::Task;
use pocketfen::run::record::RunRecord;
use pocketfen::stream::{Source, Split};
use pocketfen::{ParseNameError, Variant, guess_variant};

use run::{Feed, RunIterator};
use source::{io_error, open_sources, open_split_source};

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

pub(crate) fn dialect(name: &str) -> PyResult<FenDialect> {
    parse_name(name)
}

pub(crate) fn variant(name: &str) -> PyResult<Option<Variant>> {
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

pub(crate) fn fen_position_error(py: Python<'_>, e: &FenPositionError) -> PyErr {
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

/// A part named as `"K/N"`, `(K, N)` or a dict of `splits()`.
fn parse_split(split: &Bound<'_, PyAny>) -> PyResult<Split> {
    if let Ok(text) = split.extract::<String>() {
        return text
            .parse()
            .map_err(|e: pocketfen::ParseValueError| PyValueError::new_err(e.to_string()));
    }
    if let Ok((k, n)) = split.extract::<(usize, usize)>() {
        return Split::new(k, n).map_err(|e| PyValueError::new_err(e.to_string()));
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

/// A name the library reads, or a ValueError that lists the names.
pub(crate) fn parse_name<T: FromStr<Err = ParseNameError>>(name: &str) -> PyResult<T> {
    name.parse()
        .map_err(|e: ParseNameError| PyValueError::new_err(e.to_string()))
}

/// validate(source, *, variant=None, strict=False, variations=False, drop_mate=True, jobs=0, all=False, split=None, timings=False, openings=False)
/// --
///
/// Replays every game of a PGN or BPGN archive and yields the records of
/// `pocketfen validate --json` (schema version 2) as dicts: a `game` record for each game
/// with problems (every game with `all=True`), then one `summary` (with the `seconds` it
/// took when `timings=True`). `source` is a path
/// (str or os.PathLike; zstd, gzip and bzip2 are detected; a directory stands for the
/// archives under it, walked as the command line walks it, a summary each), bytes, or a
/// binary file object. `jobs=0` uses every core; records come in input order whatever
/// the number. `openings=True` names each Standard and Crazyhouse game's opening from its
/// moves, as Lichess does, in its record (`opening`: `eco`, `name`, `ply`).
/// The work runs without the GIL and in bounded memory.
#[pyfunction]
#[pyo3(signature = (source, *, variant = None, strict = false, variations = false, drop_mate = true, jobs = 0, all = false, split = None, timings = false, openings = false))]
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
    openings: bool,
) -> PyResult<RunIterator> {
    let variant = match variant {
        Some(v) => self::variant(v)?,
        None => None,
    };
    let feed = Feed::new();
    let (sources, split) = sources(py, source, split, &feed)?;
    let opts = Options {
        variant,
        strict,
        variations,
        drop_mate,
        format: Format::Auto,
    };
    Ok(run::start_naming(
        sources,
        feed,
        Task::Validate { all },
        opts,
        jobs,
        split,
        timings,
        openings,
    ))
}

/// convert_pgn(source, to, *, drop_style=None, keep_broken=False, jobs=0, split=None)
/// --
///
/// Re-exports an archive for a site (`to`: `lichess`, `chesscom` or `xboard`), one game
/// per item, in input order, laid out as the site's own exports (one line of movetext
/// for Lichess and Chess.com, 75 columns for XBoard). A game `validate` rejects (with
/// variations on) is left out, or passed through unchanged with `keep_broken=True` (but
/// for a game over the size limit, which was never read whole). `drop_style` is `p-at`
/// (`P@e4`) or `at` (`@e4`); None takes the site's. `jobs=0` uses every core; `split`
/// reads one part, as `validate`'s. A read error of the stream raises OSError after the
/// games before it; rows lost in a Parquet file's damaged row groups, and games lost
/// where a compressed text breaks at a damaged frame, are a UserWarning, the others read.
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
    let feed = Feed::new();
    let (sources, split) = sources(py, source, split, &feed)?;
    let opts = Options {
        variations: true,
        ..Options::default()
    };
    let task = Task::Convert {
        to: std::sync::Arc::new(pocketfen::game::Rewrite {
            target,
            style,
            layout: Default::default(),
        }),
        keep_broken,
    };
    Ok(run::start(sources, feed, task, opts, jobs, split, false))
}

/// replay(source, emit="fen", *, annotations=False, jobs=0, split=None)
/// --
///
/// Replays every game and yields `(game number, plies)`: per mainline ply the FEN after it
/// (Lichess dialect; `emit="fen"`), its SAN (`"san"`) or UCI (`"uci"`). With
/// `annotations=True` it yields `(game number, plies, annotations)`: per ply a dict of
/// what its comments' commands say (`clock`, `correspondence_clock` and `elapsed` in
/// seconds, `cp` or `mate`, `depth`, `arrows` as `"Ge2e4"`, `highlights` as `"Rd4"`;
/// only those present), or None. A game stops at its first illegal move. `jobs=0` uses
/// every core; games come in input order; `split` reads one part, as `validate`'s. A
/// read error of the stream raises OSError; rows lost in a Parquet file's damaged row
/// groups, and games lost where a compressed text breaks at a damaged frame, are a
/// UserWarning, the others read.
#[pyfunction]
#[pyo3(signature = (source, emit = "fen", *, annotations = false, jobs = 0, split = None))]
fn replay(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    emit: &str,
    annotations: bool,
    jobs: usize,
    split: Option<&Bound<'_, PyAny>>,
) -> PyResult<RunIterator> {
    let text: PlyText = parse_name(emit)?;
    let feed = Feed::new();
    let (sources, split) = sources(py, source, split, &feed)?;
    Ok(run::start(
        sources,
        feed,
        Task::Replay { text, annotations },
        Options::default(),
        jobs,
        split,
        false,
    ))
}

/// The sources of a run (a directory's archives, as the command line walks them, or
/// one), and the part of it to read.
pub(crate) fn sources(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    split: Option<&Bound<'_, PyAny>>,
    feed: &Arc<Feed>,
) -> PyResult<(Vec<Source>, Option<Split>)> {
    match split {
        None => Ok((open_sources(py, source, feed)?, None)),
        Some(split) => {
            let split = parse_split(split)?;
            Ok((vec![open_split_source(py, source, feed)?], Some(split)))
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
    let feed = Feed::new();
    let src = open_split_source(py, source, &feed)?;
    let parts = run::detached(py, || pocketfen::stream::parts(src, n));
    let parts = match parts {
        Ok(parts) => parts,
        Err(e) => return Err(feed.take_error().unwrap_or_else(|| io_error(e))),
    };
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
/// parts 1 to N in any order, as `validate(..., split=...)` yields them, or the JSON
/// Lines of `--split` runs read back) into the records of one run over the whole file:
/// parts put in order by the number their summaries give, games renumbered from the
/// file's start, the summaries summed. Raises ValueError naming the part that does not
/// fit: another file, a file changed between parts, other options, parts missing or
/// given twice.
#[pyfunction]
fn merge<'py>(py: Python<'py>, parts: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    let mut given: Vec<Vec<RunRecord>> = Vec::new();
    for part in parts.try_iter()? {
        let part = part?;
        let mut records = Vec::new();
        for (i, record) in part.try_iter()?.enumerate() {
            let record = record?;
            records.push(depythonize::<RunRecord>(&record).map_err(|e| {
                PyTypeError::new_err(format!(
                    "record {} of part {} is not a record of pocketfen: {e}",
                    i + 1,
                    given.len() + 1
                ))
            })?);
        }
        given.push(records);
    }
    let mut summaries = Vec::with_capacity(given.len());
    for (i, records) in given.iter().enumerate() {
        let summary = records
            .iter()
            .find_map(|r| match r {
                RunRecord::Summary(s) => Some(s.clone()),
                _ => None,
            })
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "part {} given has no summary record: its run did not finish",
                    i + 1
                ))
            })?;
        summaries.push(summary);
    }
    let merge = pocketfen::run::merge::Merge::new(&summaries)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let out = PyList::empty(py);
    let mut given: Vec<Option<Vec<RunRecord>>> = given.into_iter().map(Some).collect();
    for (index, &at) in merge.order().iter().enumerate() {
        for mut record in given[at].take().unwrap_or_default() {
            if matches!(record, RunRecord::Summary(_) | RunRecord::Total(_)) {
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

/// pocketfen: FEN dialects, a rules engine and an archive validator for pocket chess
/// variants (Crazyhouse, Loop, Chessgi, Horde, Bughouse), at native speed.
#[pymodule]
#[pyo3(name = "_pocketfen")]
fn pocketfen_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("FenError", py.get_type::<FenError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add_function(wrap_pyfunction!(convert_fen, m)?)?;
    m.add_function(wrap_pyfunction!(check_fen, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(convert_pgn, m)?)?;
    m.add_function(wrap_pyfunction!(replay, m)?)?;
    m.add_function(wrap_pyfunction!(tables::_table, m)?)?;
    m.add_function(wrap_pyfunction!(tables::export, m)?)?;
    m.add_class::<tables::ArrowStream>()?;
    m.add_function(wrap_pyfunction!(tools::select, m)?)?;
    m.add_function(wrap_pyfunction!(tools::dedupe, m)?)?;
    m.add_function(wrap_pyfunction!(tools::fix, m)?)?;
    m.add_function(wrap_pyfunction!(tools::split, m)?)?;
    m.add_function(wrap_pyfunction!(splits, m)?)?;
    m.add_function(wrap_pyfunction!(merge, m)?)?;
    m.add_class::<position::PyPosition>()?;
    m.add_class::<bughouse::PyMatch>()?;
    m.add_class::<position::LegalMoves>()?;
    m.add_class::<values::PyMove>()?;
    m.add_class::<values::PyPiece>()?;
    m.add_class::<values::PyPocket>()?;
    m.add_class::<values::PyOutcome>()?;
    m.add_class::<values::Termination>()?;
    m.add_class::<RunIterator>()?;
    // Every open run is closed and joined before the interpreter finalises.
    let close = wrap_pyfunction!(run::_close_runs, m)?;
    py.import("atexit")?.call_method1("register", (close,))?;
    // A child forked while a thread waited in an iterator has none of the parent's
    // threads: it is told so, and exits as any process does.
    let after_fork = wrap_pyfunction!(run::_after_fork_in_child, m)?;
    let kwargs = pyo3::types::PyDict::new(py);
    kwargs.set_item("after_in_child", after_fork)?;
    py.import("os")?
        .call_method("register_at_fork", (), Some(&kwargs))?;
    Ok(())
}
