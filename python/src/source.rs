//! Where an archive comes from: a path, bytes, or a Python binary file object, and the
//! errors of opening one as Python's own `open` raises them.

use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;

use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

use pocketfen::stream::Source;

use crate::run::Feed;

/// The OSError Python raises for `e` on `filename`: `FileNotFoundError(2, 'No such file
/// or directory', 'missing.pgn')` and its kin, with `errno`, `strerror` and `filename`.
pub(crate) fn os_error(py: Python<'_>, e: &io::Error, filename: &Path) -> PyErr {
    let name = filename.to_string_lossy().into_owned();
    match e.raw_os_error() {
        Some(errno) => {
            let strerror = py
                .import("os")
                .and_then(|os| os.call_method1("strerror", (errno,)))
                .and_then(|s| s.extract::<String>())
                .unwrap_or_else(|_| e.to_string());
            // OSError(errno, …) is made the subclass the errno names.
            PyOSError::new_err((errno, strerror, name))
        }
        None => PyOSError::new_err((e.to_string(), name)),
    }
}

/// An I/O error of the library as Python raises it: a file that cannot be split is a
/// ValueError, the rest OSErrors.
pub(crate) fn io_error(e: io::Error) -> PyErr {
    if e.kind() == io::ErrorKind::InvalidInput {
        PyValueError::new_err(e.to_string())
    } else {
        e.into()
    }
}

/// Reads a Python binary file object, taking the GIL for each read. An exception its
/// `read()` raises is kept in the feed, to be raised again, unchanged, once the games
/// read before it have been given; the run sees an I/O error.
pub(crate) struct PyReader {
    file: Py<PyAny>,
    /// `read1` when the file has it (a buffered file: it gives what is there, so games
    /// from a slow pipe come as they arrive), else `read`.
    method: &'static str,
    /// The descriptor of a pipe, terminal or socket under a plain file object: waited on
    /// here, outside Python, so that a read that would block never holds a thread inside
    /// Python (where the interpreter's exit could not leave it).
    wait_fd: Option<i32>,
    feed: Arc<Feed>,
    /// Bytes a `read(n)` gave beyond the `n` asked for, handed out first.
    surplus: Vec<u8>,
    at: usize,
}

impl PyReader {
    pub(crate) fn new(py: Python<'_>, file: Py<PyAny>, feed: Arc<Feed>) -> PyReader {
        let method = if file.bind(py).hasattr("read1").unwrap_or(false) {
            "read1"
        } else {
            "read"
        };
        PyReader {
            wait_fd: wait_fd(py, file.bind(py)),
            file,
            method,
            feed,
            surplus: Vec::new(),
            at: 0,
        }
    }

    fn read_python(&mut self, py: Python<'_>, buf: &mut [u8]) -> io::Result<usize> {
        let failed = |feed: &Feed, e: PyErr| {
            let text = format!("the file object's read() raised {e}");
            feed.keep_error(e);
            io::Error::other(text)
        };
        let chunk = self
            .file
            .bind(py)
            .call_method1(self.method, (buf.len(),))
            .map_err(|e| failed(&self.feed, e))?;
        // bytes as they are; a bytearray or memoryview through bytes().
        let copied;
        let bytes = if let Ok(b) = chunk.cast::<PyBytes>() {
            b
        } else if chunk.is_instance_of::<PyByteArray>()
            || chunk.is_instance_of::<pyo3::types::PyMemoryView>()
        {
            copied = py
                .get_type::<PyBytes>()
                .call1((&chunk,))
                .map_err(|e| failed(&self.feed, e))?;
            copied
                .cast::<PyBytes>()
                .map_err(|e| failed(&self.feed, e.into()))?
        } else if chunk.is_none() {
            let e = PyTypeError::new_err(
                "the file object's read() returned None: it is non-blocking and had nothing to read; pass a blocking file",
            );
            return Err(failed(&self.feed, e));
        } else {
            let e = PyTypeError::new_err(format!(
                "the file object's read() returned {}, not bytes: open the file in binary mode (\"rb\")",
                chunk
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".into(), |n| n.to_string())
            ));
            return Err(failed(&self.feed, e));
        };
        // What fits goes to `buf`; the rest, if the read gave more, waits.
        let data = bytes.as_bytes();
        let n = data.len().min(buf.len());
        buf[..n].copy_from_slice(&data[..n]);
        self.surplus.clear();
        self.surplus.extend_from_slice(&data[n..]);
        self.at = 0;
        Ok(n)
    }

    /// Copies what is left of the last read into `buf`.
    fn take_surplus(&mut self, buf: &mut [u8]) -> usize {
        let n = (self.surplus.len() - self.at).min(buf.len());
        buf[..n].copy_from_slice(&self.surplus[self.at..self.at + n]);
        self.at += n;
        if self.at == self.surplus.len() {
            self.surplus.clear();
            self.at = 0;
        }
        n
    }
}

/// The descriptor to wait on for a file object: that of an `io.FileIO`, or of the
/// `io.BufferedReader` over one, when it is a pipe, a terminal or a socket (a regular
/// file never blocks).
fn wait_fd(py: Python<'_>, file: &Bound<'_, PyAny>) -> Option<i32> {
    let io = py.import("io").ok()?;
    let plain = ["FileIO", "BufferedReader", "BufferedRandom"]
        .iter()
        .any(|t| io.getattr(*t).is_ok_and(|t| file.get_type().is(&t)));
    if !plain {
        return None;
    }
    let fd: i32 = file.call_method0("fileno").ok()?.extract().ok()?;
    // SAFETY: fstat only writes the struct it is given.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    let regular =
        unsafe { libc::fstat(fd, &mut st) } == 0 && st.st_mode & libc::S_IFMT == libc::S_IFREG;
    (!regular).then_some(fd)
}

/// Waits until `fd` has data (or its end), checking `closed` every slice: `false` once
/// the run is closed.
fn wait_readable(fd: i32, feed: &Feed) -> bool {
    loop {
        if feed.closed.load(Ordering::SeqCst) {
            return false;
        }
        let mut p = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one pollfd, owned here.
        let n = unsafe { libc::poll(&mut p, 1, crate::run::SLICE.as_millis() as i32) };
        if n != 0 {
            // Readable, at its end, failed or interrupted: the read says which.
            return true;
        }
    }
}

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at < self.surplus.len() {
            return Ok(self.take_surplus(buf));
        }
        let closed = || io::Error::other("the run was closed");
        if let Some(fd) = self.wait_fd
            && !wait_readable(fd, &self.feed)
        {
            return Err(closed());
        }
        // The iterator is gone or the interpreter is exiting: no Python code runs.
        let feed = Arc::clone(&self.feed);
        feed.in_python(|| Python::attach(|py| self.read_python(py, buf)))
            .unwrap_or_else(|| Err(closed()))
    }
}

/// Reads and seeks a Python binary file object (for a part of it).
pub(crate) struct PySeekReader(PyReader);

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
        // What a read gave beyond what was asked is dropped: the file is elsewhere now.
        self.0.surplus.clear();
        self.0.at = 0;
        let feed = Arc::clone(&self.0.feed);
        let file = &self.0.file;
        feed.in_python(|| {
            Python::attach(|py| {
                file.bind(py)
                    .call_method1("seek", (offset, whence))
                    .and_then(|p| p.extract::<u64>())
                    .map_err(|e| {
                        let text = format!("the file object's seek() raised {e}");
                        feed.keep_error(e);
                        io::Error::other(text)
                    })
            })
        })
        .unwrap_or_else(|| Err(io::Error::other("the run was closed")))
    }
}

/// What a source argument is.
enum Given {
    Bytes(Vec<u8>),
    Path(PathBuf),
    File(Py<PyAny>, String),
}

const SOURCE_TYPES: &str = "source is a path (str or os.PathLike), bytes, or a binary file object (open(path, \"rb\"), io.BytesIO, sys.stdin.buffer)";

/// Reads a source argument. A `str` is a path, as for `open()`; one that holds PGN text
/// (a line break, or a tag or move number at its start, and no such file) is a
/// TypeError that says to pass bytes.
fn given(py: Python<'_>, source: &Bound<'_, PyAny>) -> PyResult<Given> {
    if let Ok(bytes) = source.cast::<PyBytes>() {
        return Ok(Given::Bytes(bytes.as_bytes().to_vec()));
    }
    if let Ok(bytes) = source.cast::<PyByteArray>() {
        return Ok(Given::Bytes(bytes.to_vec()));
    }
    if let Ok(text) = source.cast::<PyString>() {
        let text = text.to_cow()?;
        let start = text.trim_start();
        if text.contains('\0') {
            return Err(PyValueError::new_err("embedded null byte"));
        }
        let looks_like_pgn =
            text.contains(['\n', '\r']) || start.starts_with('[') || start.starts_with("1.");
        if looks_like_pgn && !Path::new(text.as_ref()).exists() {
            let shown: String = text.chars().take(30).collect();
            return Err(PyTypeError::new_err(format!(
                "source is a str that holds PGN text, not a path ({shown:?}…): pass the text as bytes (text.encode()), or the path of a file"
            )));
        }
        return Ok(Given::Path(PathBuf::from(text.as_ref())));
    }
    if source.hasattr("__fspath__")? {
        let os = py.import("os")?;
        let path = os.call_method1("fsdecode", (os.call_method1("fspath", (source,))?,))?;
        let path: String = path.extract()?;
        if path.contains('\0') {
            return Err(PyValueError::new_err("embedded null byte"));
        }
        return Ok(Given::Path(PathBuf::from(path)));
    }
    let io = py.import("io")?;
    if source.is_instance(&io.getattr("TextIOBase")?)? {
        return Err(PyTypeError::new_err(
            "source is a file opened in text mode: open it in binary mode (\"rb\"), or pass sys.stdin.buffer for stdin",
        ));
    }
    if source.hasattr("read")? {
        let name = ["name", "path"]
            .iter()
            .find_map(|attr| source.getattr(*attr).ok()?.extract::<String>().ok())
            .unwrap_or_else(|| "<stream>".to_owned());
        return Ok(Given::File(source.clone().unbind(), name));
    }
    Err(PyTypeError::new_err(format!(
        "{SOURCE_TYPES}, not {}",
        source.get_type().name()?
    )))
}

/// Opens a path now, so that a missing file raises at once, as `open()` would.
fn open_file(py: Python<'_>, path: &Path) -> PyResult<std::fs::File> {
    let file = std::fs::File::open(path).map_err(|e| os_error(py, &e, path))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        // A directory opens, but cannot be read: open() refuses it at once.
        let errno: i32 = py.import("errno")?.getattr("EISDIR")?.extract()?;
        return Err(os_error(
            py,
            &std::io::Error::from_raw_os_error(errno),
            path,
        ));
    }
    Ok(file)
}

/// The archives a source names, each read from its start: a directory's, in the order
/// the command line walks them ([`pocketfen::stream::archives_under`]); else the one.
/// `-` is the file of that name (stdin is `sys.stdin.buffer`).
pub(crate) fn open_sources(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    feed: &Arc<Feed>,
) -> PyResult<Vec<Source>> {
    match given(py, source)? {
        // Seekable sources, so that a Parquet file is told from text by its first bytes
        // (which are read again).
        Given::Bytes(data) => Ok(vec![Source::seekable("<bytes>", io::Cursor::new(data))]),
        Given::Path(path) if path.is_dir() => {
            let found =
                pocketfen::stream::archives_under(&path).map_err(|e| os_error(py, &e, &path))?;
            if found.is_empty() {
                return Err(PyValueError::new_err(format!(
                    "{}: {}",
                    path.display(),
                    pocketfen::stream::NO_ARCHIVE
                )));
            }
            // Each opened when its turn comes, as the command line opens them (a file
            // that cannot be opened gets a summary that says why).
            Ok(found.into_iter().map(Source::path).collect())
        }
        Given::Path(path) => {
            let file = open_file(py, &path)?;
            if file.metadata().is_ok_and(|m| m.is_file()) {
                return Ok(vec![Source::seekable(path.to_string_lossy(), file)]);
            }
            Ok(vec![Source::reader(path.to_string_lossy(), file)])
        }
        Given::File(file, name) => {
            // Nothing is read before the iteration: a pipe may have nothing yet. A file
            // object that can seek is looked at for Parquet's first bytes first.
            let f = file.bind(py);
            let seekable = f.hasattr("seek")?
                && f.call_method0("seekable")
                    .and_then(|s| s.extract::<bool>())
                    .unwrap_or(false);
            let reader = PyReader::new(py, file, Arc::clone(feed));
            if seekable {
                return Ok(vec![Source::seekable(name, PySeekReader(reader))]);
            }
            Ok(vec![Source::reader(name, reader)])
        }
    }
}

/// The archive a source names, for reading a part of it: a path, bytes, or a binary file
/// object that can seek (a local file, an fsspec file of object storage).
pub(crate) fn open_split_source(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    feed: &Arc<Feed>,
) -> PyResult<Source> {
    match given(py, source)? {
        Given::Bytes(data) => Ok(Source::seekable("<bytes>", io::Cursor::new(data))),
        Given::Path(path) => {
            let file = open_file(py, &path)?;
            if path == Path::new("-") {
                // The library reads a path `-` as stdin; here it is the file.
                return Ok(Source::seekable("-", file));
            }
            Ok(Source::path(path))
        }
        Given::File(file, name) => {
            let f = file.bind(py);
            let seekable = f.hasattr("seek")?
                && f.call_method0("seekable")
                    .and_then(|s| s.extract::<bool>())
                    .unwrap_or(true);
            if !seekable {
                return Err(PyTypeError::new_err(
                    "a part is read from a path (str or os.PathLike), bytes, or a binary file object that can seek; a stream can only be read from its start",
                ));
            }
            let reader = PyReader::new(py, file, Arc::clone(feed));
            Ok(Source::seekable(name, PySeekReader(reader)))
        }
    }
}
