//! The archivist's tools: `select`, `dedupe` and `split`, thin over the library's tasks
//! (`Task::Select`, `Task::Dedupe`) and tools (`run::dedupe::Kept`,
//! `run::split_files::SplitFiles`), with keyword arguments named after the command
//! line's flags.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use pocketfen::Variant;
use pocketfen::game::{
    DedupeBy, Ending, FixOptions, Options, Reaches, Selection, TagCriterion, Target,
};
use pocketfen::run::Task;
use pocketfen::run::record::RunRecord;
use pocketfen::run::split_files::{FilePattern, SplitBy, SplitFiles, TempFiles};

use crate::run::{self, Feed, RunIterator, detached};
use crate::source::io_error;
use crate::{parse_name, sources};

/// select(source, *, tag=(), variant=None, player=(), result=(), min_plies=None, max_plies=None, position=None, board_only=False, ends_in=None, valid=False, invalid=False, strict=False, to=None, jobs=0, split=None)
/// --
///
/// Yields the games of an archive that meet every criterion, each exactly as it was read
/// (or rewritten for a site with `to`: `lichess`, `chesscom` or `xboard`), in input
/// order: the games `pocketfen pgn select` writes with the same flags. `tag` takes
/// criteria `NAME=VALUE` (exact), `NAME~REGEX` and `NAME>=N` (also `>`, `<`, `<=`;
/// numbers and `YYYY.MM.DD` dates compare as such); `variant` any name a `[Variant]` tag
/// gives; `player` names either side; `result` is any of `1-0`, `0-1`, `1/2-1/2`, `*`;
/// `position` a FEN (or a Lichess analysis URL) some position of the main line must equal
/// (`board_only`: the board alone); `ends_in` one of `mate`, `stalemate`, `drop-mate`
/// (the end on the board); `valid`/`invalid` keep the games `validate`
/// accepts or rejects (`strict` as `validate --strict`). A game over the size limit is
/// in no output. `source`, `jobs` and `split` are as `validate`'s.
#[pyfunction]
#[pyo3(signature = (source, *, tag = Vec::new(), variant = None, player = Vec::new(), result = Vec::new(), min_plies = None, max_plies = None, position = None, board_only = false, ends_in = None, valid = false, invalid = false, strict = false, to = None, jobs = 0, split = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn select(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    tag: Vec<String>,
    variant: Option<&str>,
    player: Vec<String>,
    result: Vec<String>,
    min_plies: Option<usize>,
    max_plies: Option<usize>,
    position: Option<&str>,
    board_only: bool,
    ends_in: Option<&str>,
    valid: bool,
    invalid: bool,
    strict: bool,
    to: Option<&str>,
    jobs: usize,
    split: Option<&Bound<'_, PyAny>>,
) -> PyResult<RunIterator> {
    let value = |e: String| PyValueError::new_err(e);
    if valid && invalid {
        return Err(value(
            "valid and invalid exclude each other: ask for one".to_owned(),
        ));
    }
    if board_only && position.is_none() {
        return Err(value(
            "board_only compares a position: give position too".to_owned(),
        ));
    }
    let tags = tag
        .iter()
        .map(|t| {
            t.parse::<TagCriterion>()
                .map_err(|e| value(format!("tag {e}")))
        })
        .collect::<PyResult<Vec<_>>>()?;
    for r in &result {
        // PGN's spelling of a result: the one the library reads it as.
        if pocketfen::game::read_result(r) != Some(r.as_str()) {
            return Err(value(format!(
                "result `{r}`: expected 1-0, 0-1, 1/2-1/2 or *"
            )));
        }
    }
    let position = position
        .map(|fen| Reaches::new(fen, board_only))
        .transpose()
        .map_err(|e| value(format!("position {e}")))?;
    let variant: Option<Variant> = variant.map(parse_name).transpose()?;
    let ends_in: Option<Ending> = ends_in
        .map(|e| {
            e.parse()
                .map_err(|e: pocketfen::ParseValueError| value(format!("ends_in {e}")))
        })
        .transpose()?;
    let selection = Selection {
        tags,
        variant,
        players: player,
        results: result,
        min_plies,
        max_plies,
        position,
        ends_in,
        valid: match (valid, invalid) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        },
        capture: None,
        eco: None,
        opening: Vec::new(),
        capture_opening: None,
        name_samples: None,
    };
    let rewrite = to
        .map(|to| -> PyResult<_> {
            let target: Target = parse_name(to)?;
            Ok(Arc::new(pocketfen::game::Rewrite {
                target,
                style: target.drop_style(),
                layout: Default::default(),
            }))
        })
        .transpose()?;
    let feed = Feed::new();
    let (sources, split) = sources(py, source, split, &feed)?;
    let opts = Options {
        strict,
        ..Options::default()
    };
    let task = Task::Select(Arc::new(selection), rewrite);
    Ok(run::start(sources, feed, task, opts, jobs, split, false))
}

/// dedupe(source, *, by="moves", jobs=0, split=None)
/// --
///
/// Yields each game of an archive once, exactly as it was read, in input order, leaving
/// out its later copies: the games `pocketfen pgn dedupe` writes. `by` is what makes two
/// games the same: `moves` (the start position and the main line) or `moves-and-tags`
/// (those and the seven-tag roster). A game over the size limit is in no output.
/// `source`, `jobs` and `split` are as `validate`'s (with `split`, copies are found
/// within the part).
#[pyfunction]
#[pyo3(signature = (source, *, by = "moves", jobs = 0, split = None))]
pub(crate) fn dedupe(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    by: &str,
    jobs: usize,
    split: Option<&Bound<'_, PyAny>>,
) -> PyResult<RunIterator> {
    let by: DedupeBy = by
        .parse()
        .map_err(|e: pocketfen::ParseValueError| PyValueError::new_err(format!("by {e}")))?;
    let feed = Feed::new();
    let (sources, split) = sources(py, source, split, &feed)?;
    let task = Task::Dedupe { by };
    Ok(run::start(
        sources,
        feed,
        task,
        Options::default(),
        jobs,
        split,
        false,
    ))
}

/// fix(source, *, drop_abandoned=False, plycount=False, jobs=0, split=None)
/// --
///
/// Yields each game of an archive as `pocketfen pgn fix` writes it, in input order: a
/// dict with `file`, `game`, `line`, `verdict` (`unchanged`, `repaired`, `dropped` or
/// `unrepaired`), `text` (the game repaired, or as it was read; None when dropped),
/// `repairs` (dicts with `what`, `line`, `before` and `after`; for an `unrepaired` game
/// the repairs tried and not made) and `error` (the first error of a game left as it
/// was, as `validate` gives problems; else None). `drop_abandoned` leaves out Lichess's
/// abandoned `*` games; `plycount` adds or corrects `[PlyCount]`. A game over the size
/// limit is in no output. `source`, `jobs` and `split` are as `validate`'s.
#[pyfunction]
#[pyo3(signature = (source, *, drop_abandoned = false, plycount = false, jobs = 0, split = None))]
pub(crate) fn fix(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    drop_abandoned: bool,
    plycount: bool,
    jobs: usize,
    split: Option<&Bound<'_, PyAny>>,
) -> PyResult<RunIterator> {
    let feed = Feed::new();
    let (sources, split) = sources(py, source, split, &feed)?;
    let task = Task::Fix {
        fix: FixOptions {
            drop_abandoned,
            plycount,
        },
    };
    Ok(run::start(
        sources,
        feed,
        task,
        Options::default(),
        jobs,
        split,
        false,
    ))
}

/// split(source, output, *, every=None, by_tag=None, jobs=0)
/// --
///
/// Writes the games of an archive into files, each game exactly as it was read, as
/// `pocketfen pgn split` does: `every=N` games to a file, named by `output` with `{n}`
/// (`{n:W}`: W digits) for the file's number (`part-{n}.pgn`), or with `by_tag="Site"` a
/// file per value of the tag, named with `{value}` (`by-{value}.pgn`; values made safe
/// for every file system, games without the tag in `%none`). A file ending in `.zst`,
/// `.gz` or `.bz2` is compressed. Files are written through temporary files beside them
/// and never over the source. Returns `(path, games)` for each file written. A game over
/// the size limit is in no file. Ctrl-C stops the run; the files keep the games read.
#[pyfunction]
#[pyo3(signature = (source, output, *, every = None, by_tag = None, jobs = 0))]
pub(crate) fn split(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    output: PathBuf,
    every: Option<u64>,
    by_tag: Option<String>,
    jobs: usize,
) -> PyResult<Vec<(PathBuf, u64)>> {
    let by = match (every, &by_tag) {
        (Some(0), _) => return Err(PyValueError::new_err("every is at least 1 game")),
        (Some(n), None) => SplitBy::Every(n),
        (None, Some(tag)) => SplitBy::Tag(tag.clone()),
        _ => {
            return Err(PyValueError::new_err(
                "give every=N (numbered files of N games) or by_tag=NAME (a file per value), one of them",
            ));
        }
    };
    let text = output.to_string_lossy().into_owned();
    let pattern = FilePattern::new(&text, by_tag.is_some())
        .map_err(|e| PyValueError::new_err(format!("output '{text}': {e}")))?;
    let inputs: Vec<PathBuf> = source.extract::<PathBuf>().into_iter().collect();
    let feed = Feed::new();
    let (sources, _) = sources(py, source, None, &feed)?;
    let selection = Selection {
        capture: by_tag,
        ..Selection::default()
    };
    let task = Task::Select(Arc::new(selection), None);
    let games = run::start(sources, feed, task, Options::default(), jobs, None, false);
    let mut files = SplitFiles::new(pattern, by, TempFiles::new(inputs));
    let read = write_all(py, &games, &mut files);
    // The files keep the games read, whatever stopped the run.
    let written = detached(py, move || files.finish(true)).map_err(io_error)?;
    read.map(|()| written)
}

/// Writes every game of `games` into `files`: a file object's exception, a stream error
/// or Ctrl-C ends it.
fn write_all(py: Python<'_>, games: &RunIterator, files: &mut SplitFiles) -> PyResult<()> {
    while let Some(record) = games.next_record_or_end(py)? {
        match record {
            RunRecord::Selected(g) if g.raw.too_large.is_none() => {
                detached(py, || files.write(&g)).map_err(io_error)?;
            }
            RunRecord::Summary(s) => run::stream_error(py, &s)?,
            _ => {}
        }
    }
    Ok(())
}
