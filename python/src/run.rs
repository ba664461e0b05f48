//! The library's run over an archive, as a Python iterator that behaves as Python code
//! does: Ctrl-C interrupts it at once, an exception of the caller's file object comes
//! out unchanged, and the interpreter exits cleanly with an iterator still open.
//!
//! The run works on a thread of its own (and its workers) and hands its records over a
//! bounded channel; `__next__` waits for them in short slices without the GIL, checking
//! for signals between. No native thread runs Python code once the run is closed: when
//! the iterator is dropped, or at exit, where every open run is closed and joined.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use pyo3::exceptions::{PyOSError, PyRuntimeError, PyStopIteration, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use pythonize::pythonize;

use pocketfen::game::Options;
use pocketfen::run::dedupe::Kept;
use pocketfen::run::record::RunRecord;
use pocketfen::run::{Run, RunOptions, Task};
use pocketfen::stream::{Source, Split};

/// How long a wait lasts between two checks for signals.
pub(crate) const SLICE: Duration = Duration::from_millis(20);

/// Records on their way to the iterator.
const CHANNEL: usize = 256;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What the iterator, the run's thread and the file object's reader share.
#[derive(Default)]
pub(crate) struct Feed {
    /// The run's stop flag: no further game is read.
    pub(crate) stop: Arc<AtomicBool>,
    /// No native thread calls into Python any more.
    pub(crate) closed: AtomicBool,
    /// A native thread is calling into Python (a file object's `read()`): set before it
    /// looks at `closed`, so that once `closed` is set and this is clear, none will.
    pub(crate) in_python: AtomicBool,
    /// The first exception the file object raised.
    error: Mutex<Option<PyErr>>,
}

impl Feed {
    pub(crate) fn new() -> Arc<Feed> {
        Arc::new(Feed::default())
    }

    pub(crate) fn keep_error(&self, e: PyErr) {
        lock(&self.error).get_or_insert(e);
    }

    pub(crate) fn take_error(&self) -> Option<PyErr> {
        lock(&self.error).take()
    }

    fn close(&self) {
        self.stop.store(true, Ordering::Release);
        self.closed.store(true, Ordering::SeqCst);
    }

    /// Runs `f` (a call into Python) unless the run is closed.
    pub(crate) fn in_python<T>(&self, f: impl FnOnce() -> T) -> Option<T> {
        self.in_python.store(true, Ordering::SeqCst);
        let out = (!self.closed.load(Ordering::SeqCst)).then(f);
        self.in_python.store(false, Ordering::SeqCst);
        out
    }
}

/// A run's thread, for closing and joining at exit.
struct Live {
    feed: Arc<Feed>,
    thread: Mutex<Option<JoinHandle<()>>>,
    /// The process whose thread it is: a child forked while the run was open has its
    /// memory but not its thread.
    pid: u32,
}

/// Every run whose thread may still be working.
static LIVE: Mutex<Vec<Arc<Live>>> = Mutex::new(Vec::new());

/// Set at exit, before the interpreter finalises: from then on no thread that waits
/// without the GIL in this module takes it again.
static EXITING: AtomicBool = AtomicBool::new(false);

/// Threads in [`detached`] (until they hold the GIL again), and those of them parked
/// for good at exit.
static IN_WAIT: AtomicUsize = AtomicUsize::new(0);
static PARKED: AtomicUsize = AtomicUsize::new(0);

/// `f` without the GIL, as `py.detach`, except at exit: a thread that comes back from
/// `f` once the interpreter is exiting (a daemon thread of the caller's) never takes the
/// GIL again, and waits for the process to end. (CPython ends a thread that takes the
/// GIL during finalisation by unwinding its stack, which aborts the process when the
/// stack holds native frames.)
pub(crate) fn detached<T, F>(py: Python<'_>, f: F) -> T
where
    F: Send + FnOnce() -> T,
    T: Send,
{
    IN_WAIT.fetch_add(1, Ordering::AcqRel);
    let out = py.detach(|| {
        let out = f();
        if EXITING.load(Ordering::Acquire) {
            PARKED.fetch_add(1, Ordering::AcqRel);
            loop {
                std::thread::park();
            }
        }
        out
    });
    IN_WAIT.fetch_sub(1, Ordering::AcqRel);
    out
}

/// In a child just forked (`os.fork`, multiprocessing's fork start): the parent's
/// threads are not in it, so none of them waits in this module, and none of the runs it
/// inherited has a thread to wait for (see [`Live::pid`]).
#[pyfunction]
pub(crate) fn _after_fork_in_child() {
    IN_WAIT.store(0, Ordering::Release);
    PARKED.store(0, Ordering::Release);
}

/// Closes every open run and waits for its threads: called by `atexit`, before the
/// interpreter finalises, so that no native thread touches it after. A run whose read
/// of a file object has not returned is waited for, as Python waits for its own
/// threads at exit; Ctrl-C stops the wait.
#[pyfunction]
pub(crate) fn _close_runs(py: Python<'_>) {
    EXITING.store(true, Ordering::Release);
    let mut live = std::mem::take(&mut *lock(&LIVE));
    // Runs inherited over a fork have no thread in this process.
    live.retain(|l| l.pid == std::process::id());
    for l in &live {
        l.feed.close();
    }
    // Done once no run's thread is in a call into Python (one waiting for a pipe's data
    // does so outside Python, and never enters it again) and every thread of the
    // caller's that waited in this module is parked; meanwhile without the GIL, so that
    // those blocked on it come back from their waits (and park).
    let done = || {
        live.iter().all(|l| {
            lock(&l.thread).as_ref().is_none_or(|t| t.is_finished())
                || !l.feed.in_python.load(Ordering::SeqCst)
        }) && IN_WAIT.load(Ordering::Acquire) == PARKED.load(Ordering::Acquire)
    };
    while !done() {
        py.detach(|| std::thread::sleep(Duration::from_millis(1)));
        if py.check_signals().is_err() {
            break;
        }
    }
    for l in &live {
        let mut thread = lock(&l.thread);
        if thread.as_ref().is_some_and(|t| t.is_finished())
            && let Some(t) = thread.take()
        {
            let _ = t.join();
        }
    }
}

/// What an archive iterator yields.
#[derive(Clone, Copy)]
pub(crate) enum Yields {
    /// `validate`: the records as dicts (games, then the summary).
    Records,
    /// `convert_pgn`: each game's text.
    Texts,
    /// `replay`: `(game number, plies)`, or `(game number, plies, annotations)`.
    Plies { annotations: bool },
    /// `select`: the text of each game chosen.
    Chosen,
    /// `dedupe`: the text of each game whose key is new.
    Kept,
    /// `fix`: a dict per game, its text as `pgn fix` writes it and its repairs.
    Fixed,
    /// Table rows, which the Rust side reads (`next_record_or_end`): the iteration gives
    /// none.
    Rows,
}

/// The items of a run over an archive: the records of `validate` as dicts, the games of
/// `convert_pgn`, `select` and `dedupe` as strings, or those of `replay` as
/// `(game, plies)` tuples, in input order. Ctrl-C interrupts it at once (the items already read still come, then a
/// summary marked interrupted); `close()`, or leaving a `with` block, stops the run.
#[pyclass(module = "pocketfen")]
pub(crate) struct RunIterator {
    records: Mutex<Receiver<RunRecord>>,
    /// A record received as a signal came: given by the next call.
    pending: Mutex<Option<RunRecord>>,
    live: Arc<Live>,
    yields: Yields,
    done: AtomicBool,
    /// `dedupe`'s games kept so far.
    kept: Mutex<Kept>,
}

/// Sends a record unless the run is closed; `false` when it is, or the iterator gone.
fn send(tx: &SyncSender<RunRecord>, feed: &Feed, mut record: RunRecord) -> bool {
    loop {
        if feed.closed.load(Ordering::Acquire) {
            return false;
        }
        match tx.try_send(record) {
            Ok(()) => return true,
            Err(TrySendError::Disconnected(_)) => return false,
            Err(TrySendError::Full(r)) => {
                record = r;
                std::thread::sleep(Duration::from_millis(2));
            }
        }
    }
}

impl RunIterator {
    /// Starts `run` on a thread of its own.
    fn start(run: Run, feed: Arc<Feed>, yields: Yields) -> RunIterator {
        let (tx, rx) = sync_channel(CHANNEL);
        let thread_feed = Arc::clone(&feed);
        let thread = std::thread::spawn(move || {
            for record in run {
                if !send(&tx, &thread_feed, record) {
                    break;
                }
            }
            // Dropping the run joins its workers.
        });
        let live = Arc::new(Live {
            feed,
            thread: Mutex::new(Some(thread)),
            pid: std::process::id(),
        });
        {
            let mut all = lock(&LIVE);
            all.retain(|l| lock(&l.thread).as_ref().is_some_and(|t| !t.is_finished()));
            all.push(Arc::clone(&live));
        }
        RunIterator {
            records: Mutex::new(rx),
            pending: Mutex::new(None),
            live,
            yields,
            done: AtomicBool::new(false),
            kept: Mutex::new(Kept::default()),
        }
    }

    /// The iterator has ended: StopIteration, or the file object's exception.
    fn end(&self, py: Python<'_>) -> PyErr {
        self.done.store(true, Ordering::Release);
        // The guard is dropped before the wait: a thread that holds the GIL may want it.
        let thread = lock(&self.live.thread).take();
        if let Some(t) = thread {
            detached(py, || {
                let _ = t.join();
            });
        }
        match self.live.feed.take_error() {
            Some(e) => as_raised(py, e),
            None => PyStopIteration::new_err(()),
        }
    }

    /// The next record of the run, waiting in slices and checking for signals between: a
    /// KeyboardInterrupt (or any exception a signal handler raises) stops the run, which
    /// then gives what it has, marked interrupted, to the iterations that follow.
    fn next_record(&self, py: Python<'_>) -> PyResult<Option<RunRecord>> {
        if self.live.pid != std::process::id() {
            self.done.store(true, Ordering::Release);
            return Err(PyRuntimeError::new_err(
                "this iterator was started in the parent process, before a fork: its run's thread is not in this process; start a new one here",
            ));
        }
        if let Some(record) = lock(&self.pending).take() {
            return Ok(Some(record));
        }
        loop {
            let got = detached(py, || lock(&self.records).recv_timeout(SLICE));
            match got {
                Ok(record) => {
                    // A signal that came during the wait is handled here, not in the
                    // caller's loop: the run stops, and the record waits for the next
                    // call.
                    if let Err(e) = py.check_signals() {
                        self.live.feed.stop.store(true, Ordering::Release);
                        *lock(&self.pending) = Some(record);
                        return Err(e);
                    }
                    return Ok(Some(record));
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        self.live.feed.stop.store(true, Ordering::Release);
                        return Err(e);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
            }
        }
    }
}

impl RunIterator {
    /// The next record for work done in Rust (`split`): `None` at the end of the run
    /// (its thread joined); the file object's own exception in place of the summary of
    /// the stream it cut short; KeyboardInterrupt at Ctrl-C (the run stops).
    pub(crate) fn next_record_or_end(&self, py: Python<'_>) -> PyResult<Option<RunRecord>> {
        match self.next_record(py)? {
            Some(RunRecord::Summary(s)) if s.stream_error.is_some() => {
                match self.live.feed.take_error() {
                    Some(e) => {
                        self.done.store(true, Ordering::Release);
                        self.live.feed.close();
                        Err(as_raised(py, e))
                    }
                    None => Ok(Some(RunRecord::Summary(s))),
                }
            }
            Some(record) => Ok(Some(record)),
            None => {
                let e = self.end(py);
                if e.is_instance_of::<PyStopIteration>(py) {
                    Ok(None)
                } else {
                    Err(e)
                }
            }
        }
    }
}

impl Drop for RunIterator {
    fn drop(&mut self) {
        // The thread ends on its own, without calling into Python again.
        self.live.feed.close();
    }
}

#[pymethods]
impl RunIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// Stops the run: no further game is read or worked on, and the iteration ends (as
    /// a generator's `close()`). Leaving a `with` block closes it too.
    fn close(&self) {
        self.live.feed.close();
        self.done.store(true, Ordering::Release);
        lock(&self.pending).take();
    }

    /// `RunIterator[T]` in annotations.
    #[classmethod]
    fn __class_getitem__<'py>(
        cls: &Bound<'py, pyo3::types::PyType>,
        _item: &Bound<'py, PyAny>,
    ) -> Bound<'py, pyo3::types::PyType> {
        cls.clone()
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __exit__(
        &self,
        _kind: &Bound<'_, PyAny>,
        _value: &Bound<'_, PyAny>,
        _traceback: &Bound<'_, PyAny>,
    ) -> bool {
        self.close();
        false
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if self.done.load(Ordering::Acquire) {
            return Err(PyStopIteration::new_err(()));
        }
        loop {
            let Some(record) = self.next_record(py)? else {
                return Err(self.end(py));
            };
            match (self.yields, record) {
                (_, RunRecord::Total(_)) => {}
                (_, RunRecord::Summary(s)) if s.stream_error.is_some() => {
                    // The file object's own exception, unchanged, in place of the summary
                    // of a stream it cut short; the games read before it came first.
                    if let Some(e) = self.live.feed.take_error() {
                        self.done.store(true, Ordering::Release);
                        self.live.feed.close();
                        return Err(as_raised(py, e));
                    }
                    if let Yields::Records = self.yields {
                        return to_python(py, &RunRecord::Summary(s));
                    }
                    let e = s.stream_error.clone().unwrap_or_default();
                    if s.ending_error().is_none() {
                        // Rows of damaged row groups lost, or games at breaks in a
                        // compressed text, the rest read: go on.
                        lost_rows(py, &s, &e)?;
                        continue;
                    }
                    return Err(PyOSError::new_err(format!(
                        "the stream ends in an error after {} bytes: {e}",
                        s.bytes
                    )));
                }
                (Yields::Records, record) => return to_python(py, &record),
                (Yields::Texts, RunRecord::Converted(c)) => match (c.refused, &c.raw) {
                    (false, _) => return Ok(PyString::new(py, &c.text).into_any()),
                    (true, Some(raw)) => {
                        let text = copied_text(&raw.bytes, c.line);
                        return Ok(PyString::new(py, &text).into_any());
                    }
                    (true, None) => {}
                },
                // A game over the size limit was never read: it is in no output.
                (Yields::Chosen, RunRecord::Selected(g))
                    if g.selected && g.raw.too_large.is_none() =>
                {
                    return Ok(match &g.text {
                        Some(text) => PyString::new(py, text),
                        None => PyString::new(py, &copied_text(&g.raw.bytes, g.line)),
                    }
                    .into_any());
                }
                (Yields::Kept, RunRecord::Keyed(g))
                    if g.raw.too_large.is_none() && lock(&self.kept).first_of(&g).is_none() =>
                {
                    let text = copied_text(&g.raw.bytes, g.line);
                    return Ok(PyString::new(py, &text).into_any());
                }
                (Yields::Fixed, RunRecord::Fixed(f)) if f.raw.too_large.is_none() => {
                    return fixed_dict(py, &f);
                }
                (Yields::Plies { annotations }, RunRecord::Replayed(r)) => {
                    let plies = PyList::new(py, r.plies().collect::<Vec<_>>())?;
                    let count = plies.len();
                    let mut items = vec![r.game.into_pyobject(py)?.into_any(), plies.into_any()];
                    if annotations {
                        // One entry per ply, however many the record carries (none when
                        // no ply has any).
                        let notes = (0..count)
                            .map(|i| match r.annotations.get(i) {
                                Some(Some(n)) => pythonize(py, n)
                                    .map_err(|e| PyValueError::new_err(e.to_string())),
                                _ => Ok(py.None().into_bound(py)),
                            })
                            .collect::<PyResult<Vec<_>>>()?;
                        items.push(PyList::new(py, notes)?.into_any());
                    }
                    return Ok(PyTuple::new(py, items)?.into_any());
                }
                _ => {}
            }
        }
    }
}

/// The file object's exception as the iteration raises it: unchanged, except a
/// StopIteration, which would end the iteration as if the archive had ended there: a
/// RuntimeError caused by it, as a generator's (PEP 479).
fn as_raised(py: Python<'_>, e: PyErr) -> PyErr {
    if e.is_instance_of::<PyStopIteration>(py) {
        let err = PyRuntimeError::new_err("the file object's read() raised StopIteration");
        err.set_cause(py, Some(e));
        return err;
    }
    e
}

/// The error a run's summary says its stream ended in, as an OSError naming the file
/// (for work done in Rust: `split`, tables). Rows lost in a Parquet file's damaged row
/// groups, the others read, are a `UserWarning` instead (an error under a warnings
/// filter that says so): the work goes on with the rows read.
pub(crate) fn stream_error(
    py: Python<'_>,
    s: &pocketfen::run::record::SummaryRecord,
) -> PyResult<()> {
    match &s.stream_error {
        Some(e) if s.ending_error().is_none() => lost_rows(py, s, e),
        Some(e) => Err(PyOSError::new_err(format!(
            "{}: the stream ends in an error after {} bytes: {e}",
            s.file, s.bytes
        ))),
        None => Ok(()),
    }
}

/// Warns that a Parquet file's damaged row groups lost rows, or that a compressed text
/// broke at damaged frames and lost games: where, and how many.
fn lost_rows(py: Python<'_>, s: &pocketfen::run::record::SummaryRecord, e: &str) -> PyResult<()> {
    let unit = match (s.breaks.is_empty(), s.totals.lost == 1) {
        (true, true) => "row",
        (true, false) => "rows",
        (false, true) => "game",
        (false, false) => "games",
    };
    let message = std::ffi::CString::new(format!(
        "{}: {} games read, {} {unit} lost{}: {e}",
        s.file,
        s.totals.games,
        s.totals.lost,
        s.text_lost()
            .map_or(String::new(), |t| format!(", and {t}")),
    ))
    .unwrap_or_default();
    PyErr::warn(
        py,
        &py.get_type::<pyo3::exceptions::PyUserWarning>(),
        &message,
        1,
    )
}

fn to_python<'py>(py: Python<'py>, record: &RunRecord) -> PyResult<Bound<'py, PyAny>> {
    pythonize(py, record).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A run of `task` over its sources (one, or a directory's archives), started.
pub(crate) fn start(
    sources: Vec<Source>,
    feed: Arc<Feed>,
    task: Task,
    game: Options,
    jobs: usize,
    split: Option<Split>,
    timings: bool,
) -> RunIterator {
    start_naming(sources, feed, task, game, jobs, split, timings, false)
}

/// As [`start`], and with `openings` each `validate` record names its game's opening.
#[allow(clippy::too_many_arguments)]
pub(crate) fn start_naming(
    sources: Vec<Source>,
    feed: Arc<Feed>,
    task: Task,
    game: Options,
    jobs: usize,
    split: Option<Split>,
    timings: bool,
    openings: bool,
) -> RunIterator {
    let yields = match task {
        Task::Validate { .. } => Yields::Records,
        Task::Convert { .. } => Yields::Texts,
        Task::Replay { annotations, .. } => Yields::Plies { annotations },
        Task::Select(..) => Yields::Chosen,
        Task::Dedupe { .. } => Yields::Kept,
        Task::Fix { .. } => Yields::Fixed,
        Task::Export { .. } => Yields::Rows,
    };
    let opts = RunOptions {
        game,
        jobs,
        split,
        timings,
        openings,
        stop: Some(Arc::clone(&feed.stop)),
        ..RunOptions::default()
    };
    RunIterator::start(Run::new(sources, task, opts), feed, yields)
}

/// A game of `fix` as a dict (see `tools::fix`).
fn fixed_dict<'py>(
    py: Python<'py>,
    f: &pocketfen::run::record::FixedRecord,
) -> PyResult<Bound<'py, PyAny>> {
    use pocketfen::game::FixVerdict;
    let d = PyDict::new(py);
    d.set_item("file", &f.file)?;
    d.set_item("game", f.game)?;
    d.set_item("line", f.line)?;
    d.set_item("verdict", f.verdict.name())?;
    let text = match (&f.verdict, &f.text) {
        (FixVerdict::Dropped, _) => None,
        (FixVerdict::Repaired, Some(text)) => Some(copied_text(text.as_bytes(), f.line)),
        _ => Some(copied_text(&f.raw.bytes, f.line)),
    };
    d.set_item("text", text)?;
    let repairs = PyList::empty(py);
    for r in &f.repairs {
        let item = PyDict::new(py);
        item.set_item("what", r.kind.name())?;
        item.set_item("line", r.line)?;
        item.set_item("before", &r.before)?;
        item.set_item("after", &r.after)?;
        repairs.append(item)?;
    }
    d.set_item("repairs", repairs)?;
    match &f.error {
        Some(p) => d.set_item(
            "error",
            pythonize(py, p).map_err(|e| PyValueError::new_err(e.to_string()))?,
        )?,
        None => d.set_item("error", py.None())?,
    }
    Ok(d.into_any())
}

/// A game's text as it was read, its Latin-1 bytes read as the characters they are (as
/// every command reads them); a table's row (line 0, its tags on one line) as PGN writes
/// a game, a tag per line.
fn copied_text(bytes: &[u8], line: usize) -> String {
    pocketfen::game::game_text(&pocketfen::stream::copied_game(bytes, line)).into_owned()
}
