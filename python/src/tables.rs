//! Games as tables: `games_table` and `plies_table` (the package wraps `_table`) hand
//! the library's Arrow record batches to pyarrow through the Arrow C stream interface (an
//! object with `__arrow_c_stream__`, no copy through Python objects); `export` writes
//! the Parquet files `pocketfen export` writes.

use std::ffi::CString;
use std::path::PathBuf;
use std::sync::Mutex;

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchIterator};
use arrow_schema::SchemaRef;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyDict};

use pocketfen::game::{Options, RowOptions};
use pocketfen::run::Task;
use pocketfen::run::record::RunRecord;
use pocketfen::run::split_files::TempFiles;
use pocketfen::table::{
    Codec, ExportFiles, ExportTargets, GamesBuilder, Partition, PliesBuilder, Rows,
};

use crate::run::{self, Feed, RunIterator, detached};
use crate::{parse_name, sources};

/// Rows per record batch handed to Arrow.
const BATCH_ROWS: usize = 1 << 16;

/// A finished table, given once to an Arrow reader through the Arrow C stream interface
/// (`pyarrow.RecordBatchReader.from_stream`, `polars.from_arrow`, DuckDB).
#[pyclass(module = "pocketfen")]
pub(crate) struct ArrowStream {
    schema: SchemaRef,
    batches: Mutex<Option<Vec<RecordBatch>>>,
}

#[pymethods]
impl ArrowStream {
    /// The table as an `ArrowArrayStream` capsule (it can be taken once).
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        // The schema is the table's own; a request for another is not honoured (the
        // interface lets a producer ignore it).
        let _ = requested_schema;
        let batches = self
            .batches
            .lock()
            .map_err(|_| PyRuntimeError::new_err("the table's lock is poisoned"))?
            .take()
            .ok_or_else(|| PyRuntimeError::new_err("this table stream was already read"))?;
        let reader = RecordBatchIterator::new(batches.into_iter().map(Ok), self.schema.clone());
        let stream = FFI_ArrowArrayStream::new(Box::new(reader));
        let name = CString::new("arrow_array_stream").expect("no NUL in the capsule's name");
        PyCapsule::new(py, stream, Some(name))
    }
}

/// The options a game is read with.
fn reading(strict: bool) -> Options {
    Options {
        strict,
        ..Options::default()
    }
}

/// _table(source, table="games", *, fen=False, strict=False, jobs=0, split=None)
/// --
///
/// The games table (`table="games"`) or the plies table (`"plies"`) of an archive as an
/// Arrow stream: what `pocketfen.games_table` and `pocketfen.plies_table` read into a
/// `pyarrow.Table`.
#[pyfunction]
#[pyo3(signature = (source, table = "games", *, fen = false, strict = false, jobs = 0, split = None, openings = false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn _table(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    table: &str,
    fen: bool,
    strict: bool,
    jobs: usize,
    split: Option<&Bound<'_, PyAny>>,
    openings: bool,
) -> PyResult<ArrowStream> {
    let plies = match table {
        "games" => false,
        "plies" => true,
        _ => {
            return Err(PyValueError::new_err(format!(
                "table '{table}': expected games or plies"
            )));
        }
    };
    let feed = Feed::new();
    let (sources, split) = sources(py, source, split, &feed)?;
    let rows = RowOptions {
        plies,
        fen,
        openings,
        site_only: plies,
    };
    let run = run::start(
        sources,
        feed,
        Task::Export { rows },
        reading(strict),
        jobs,
        split,
        false,
    );
    if plies {
        collect(py, &run, PliesBuilder::new(fen))
    } else {
        collect(py, &run, GamesBuilder::new())
    }
}

/// Every game's rows of `run`, in batches.
fn collect(py: Python<'_>, run: &RunIterator, mut rows: impl Rows) -> PyResult<ArrowStream> {
    let mut batches = Vec::new();
    let arrow = |e: arrow_schema::ArrowError| PyRuntimeError::new_err(e.to_string());
    while let Some(record) = run.next_record_or_end(py)? {
        match record {
            RunRecord::Exported(e) if e.too_large.is_none() => {
                rows.push(&e);
                if rows.len() >= BATCH_ROWS {
                    batches.push(rows.finish().map_err(arrow)?);
                }
            }
            RunRecord::Summary(s) => run::stream_error(py, &s)?,
            _ => {}
        }
    }
    if !rows.is_empty() || batches.is_empty() {
        batches.push(rows.finish().map_err(arrow)?);
    }
    Ok(ArrowStream {
        schema: rows.schema(),
        batches: Mutex::new(Some(batches)),
    })
}

/// export(source, games=None, plies=None, *, fen=False, output_dir=None, partition="year/month", compression="zstd", strict=False, jobs=0, split=None)
/// --
///
/// Writes the Parquet files `pocketfen export` writes: the games table to `games`, the
/// plies table to `plies` (with the FEN after each ply when `fen`), the games table by
/// month in Lichess's layout into `output_dir` (`partition="year"`: by year). Pages are
/// compressed by `compression`: `"zstd"` (level 1), `"zstd:LEVEL"` (1 to 22), `"snappy"`
/// (larger files, cheaper to write and read) or `"none"`. Each file
/// is written beside its destination and renamed over it at the end; after Ctrl-C or a
/// file object's exception the files keep the games read before it. Returns a dict:
/// `games` (rows of the games table), `plies` (rows of the plies table), `files` (the
/// paths written). A game over the size limit is in no table.
#[pyfunction]
#[pyo3(signature = (source, games = None, plies = None, *, fen = false, output_dir = None, partition = "year/month", compression = "zstd", strict = false, jobs = 0, split = None, openings = false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn export<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    games: Option<PathBuf>,
    plies: Option<PathBuf>,
    fen: bool,
    output_dir: Option<PathBuf>,
    partition: &str,
    compression: &str,
    strict: bool,
    jobs: usize,
    split: Option<&Bound<'py, PyAny>>,
    openings: bool,
) -> PyResult<Bound<'py, PyDict>> {
    if games.is_none() && plies.is_none() && output_dir.is_none() {
        return Err(PyValueError::new_err(
            "say what to write: games=PATH (a row per game), plies=PATH (a row per ply) or output_dir=DIR (the games table by month)",
        ));
    }
    if fen && plies.is_none() {
        return Err(PyValueError::new_err(
            "fen=True adds a column to the plies table: give plies=PATH",
        ));
    }
    let partition: Partition = parse_name(partition)?;
    let codec: Codec = compression
        .parse()
        .map_err(|e: pocketfen::ParseValueError| PyValueError::new_err(e.to_string()))?;
    let inputs: Vec<PathBuf> = source.extract::<PathBuf>().into_iter().collect();
    let feed = Feed::new();
    let (sources, split) = sources(py, source, split, &feed)?;
    let targets = ExportTargets {
        games,
        games_dir: output_dir,
        partition: Some(partition),
        plies,
        fen,
        codec: Some(codec),
        split,
        encoders: ExportTargets::encoders_for(pocketfen::run::jobs(jobs)),
    };
    let mut files = ExportFiles::open(Box::new(TempFiles::new(inputs)), &targets)
        .map_err(|e| PyOSError::new_err(e.to_string()))?;
    let rows = RowOptions {
        plies: targets.plies(),
        fen,
        openings,
        site_only: !targets.games(),
    };
    let run = run::start(
        sources,
        feed,
        Task::Export { rows },
        reading(strict),
        jobs,
        split,
        false,
    );
    let (mut game_rows, mut ply_rows) = (0usize, 0usize);
    let result = read_into(py, &run, &mut files, &mut game_rows, &mut ply_rows);
    let paths = files.paths();
    // The files keep the games read, whatever stopped the run.
    detached(py, move || files.finish(true)).map_err(|e| PyOSError::new_err(e.to_string()))?;
    result?;
    let out = PyDict::new(py);
    out.set_item("games", game_rows)?;
    out.set_item("plies", if targets.plies() { ply_rows } else { 0 })?;
    let paths: Vec<String> = paths
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    out.set_item("files", paths)?;
    Ok(out)
}

/// Hands every game's rows of `run` to `files`, counting them: a file object's
/// exception, a stream error or Ctrl-C ends it.
fn read_into(
    py: Python<'_>,
    run: &RunIterator,
    files: &mut ExportFiles,
    game_rows: &mut usize,
    ply_rows: &mut usize,
) -> PyResult<()> {
    while let Some(record) = run.next_record_or_end(py)? {
        match record {
            RunRecord::Exported(e) if e.too_large.is_none() => {
                *game_rows += 1;
                *ply_rows += e.plies.len();
                detached(py, || files.push(*e)).map_err(|e| PyOSError::new_err(e.to_string()))?;
            }
            RunRecord::Summary(s) => run::stream_error(py, &s)?,
            _ => {}
        }
    }
    Ok(())
}
