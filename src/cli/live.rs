//! What keeps a run live and interruptible: SIGINT and SIGTERM stop it with what it has
//! found (a second signal quits at once), standard input is read so that a stop ends
//! it, the progress line on a terminal, and an output that flushes per record when a
//! person (or a coprocess) is waiting for it, without colliding with the progress line.

use std::fmt::Display;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::{Duration, Instant};

use pocketfen::run::{Progress, ProgressFn};

/// Set by the first SIGINT or SIGTERM: the run reads no further game.
static STOP: LazyLock<Arc<AtomicBool>> = LazyLock::new(|| Arc::new(AtomicBool::new(false)));
/// The signal that stopped the run (0: none).
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// The temporary output file to remove when a second signal quits at once.
static PARTIAL: Mutex<Option<PathBuf>> = Mutex::new(None);
/// More of them (`pgn split --by-tag` writes many files at once).
static PARTIALS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Catches SIGINT and SIGTERM from now on: the first sets the returned flag (the run
/// stops reading and ends with what it found), a second quits at once with 128 + the
/// signal, removing the temporary output file if there is one.
pub fn catch_signals() -> Arc<AtomicBool> {
    static HANDLER: std::sync::Once = std::sync::Once::new();
    #[cfg(unix)]
    HANDLER.call_once(|| {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
            return;
        };
        std::thread::spawn(move || {
            let mut first: Option<Instant> = None;
            for signal in signals.forever() {
                if SIGNAL
                    .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok()
                {
                    STOP.store(true, Ordering::SeqCst);
                    first = Some(Instant::now());
                    continue;
                }
                // One interrupt may arrive twice at once (`timeout` signals the process and
                // then its group): a second one counts only after a moment.
                if first.is_some_and(|t| t.elapsed() < Duration::from_millis(300)) {
                    continue;
                }
                if let Some(path) = PARTIAL.lock().ok().and_then(|mut p| p.take()) {
                    let _ = std::fs::remove_file(path);
                }
                if let Ok(mut paths) = PARTIALS.lock() {
                    for path in paths.drain(..) {
                        let _ = std::fs::remove_file(path);
                    }
                }
                eprintln!("\npocketfen: interrupted again; quitting at once");
                std::process::exit(128 + signal);
            }
        });
    });
    #[cfg(not(unix))]
    HANDLER.call_once(|| {});
    Arc::clone(&STOP)
}

/// Whether a signal has asked the run to stop.
pub fn stopped() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// The signal that stopped the run, if one did: the exit code is then 128 + it.
pub fn signal() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// Sets the temporary file a second signal removes (`None` once it is renamed or gone).
pub fn set_partial(temp: Option<&Path>) {
    if let Ok(mut partial) = PARTIAL.lock() {
        *partial = temp.map(Path::to_owned);
    }
}

/// The lock on the set of temporary files a second signal removes, beside
/// [`set_partial`]'s one: held while a file is created and added, and to take one out
/// once it is renamed or gone.
pub fn partials_lock() -> Option<std::sync::MutexGuard<'static, Vec<PathBuf>>> {
    PARTIALS.lock().ok()
}

/// The lock on the temporary file's name, held while the file is created, so that a
/// signal between its creation and [`set_partial`] cannot leave it behind.
pub fn partial_lock() -> Option<std::sync::MutexGuard<'static, Option<PathBuf>>> {
    PARTIAL.lock().ok()
}

/// Standard input, read on a thread of its own, so that a stop ends a read that waits
/// on a terminal or a pipe: the input then ends there (the run ends, `interrupted`).
pub struct Stdin {
    chunks: Receiver<io::Result<Vec<u8>>>,
    chunk: Vec<u8>,
    at: usize,
    stop: Arc<AtomicBool>,
    ended: bool,
}

impl Stdin {
    /// Starts reading standard input; `stop` ends the reading.
    pub fn new(stop: Arc<AtomicBool>) -> Stdin {
        let (tx, chunks): (SyncSender<io::Result<Vec<u8>>>, _) = sync_channel(4);
        std::thread::spawn(move || {
            let mut stdin = io::stdin().lock();
            loop {
                let mut buf = vec![0; 1 << 16];
                match stdin.read(&mut buf) {
                    Ok(n) => {
                        buf.truncate(n);
                        if tx.send(Ok(buf)).is_err() || n == 0 {
                            return;
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                }
            }
        });
        Stdin {
            chunks,
            chunk: Vec::new(),
            at: 0,
            stop,
            ended: false,
        }
    }
}

impl Read for Stdin {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.chunk.len() {
            if self.ended {
                return Ok(0);
            }
            // A stop ends the input: the game read so far is the last one.
            if self.stop.load(Ordering::Relaxed) {
                return Ok(0);
            }
            match self.chunks.recv_timeout(Duration::from_millis(50)) {
                Ok(Ok(chunk)) => {
                    self.ended = chunk.is_empty();
                    self.chunk = chunk;
                    self.at = 0;
                }
                Ok(Err(e)) => return Err(e),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => self.ended = true,
            }
        }
        let n = buf.len().min(self.chunk.len() - self.at);
        buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The progress line on stderr, when stderr is a terminal: bytes, games, speed and,
/// when the file's size is known (plain or compressed), the share read and the time
/// left. It is cleared before anything else is printed to the terminal and drawn again
/// after.
pub struct ProgressLine {
    start: Instant,
    last: Instant,
    /// Each plain file's size, for a part (its share) or when the run does not know it.
    sizes: Vec<Option<u64>>,
    file: usize,
    /// The text on the terminal now (empty: none).
    shown: String,
    /// The text last drawn, drawn again after a record.
    text: String,
    /// The least time between two draws: 250 ms, or `POCKETFEN_PROGRESS_MS`.
    every: Duration,
}

/// The least time between two draws of the progress line: 250 ms unless
/// `POCKETFEN_PROGRESS_MS` says otherwise (0 draws it after every block read, which lets
/// a test see the line on a run shorter than 250 ms).
fn progress_every() -> Duration {
    std::env::var("POCKETFEN_PROGRESS_MS")
        .ok()
        .and_then(|ms| ms.trim().parse().ok())
        .map_or(Duration::from_millis(250), Duration::from_millis)
}

/// The progress line, shared by the thread that reads and the one that prints.
pub type Shared = Arc<Mutex<ProgressLine>>;

impl ProgressLine {
    /// The progress of a run over `paths` (the part `share` of each: 1 for all), if a
    /// line is wanted, and the callback that draws it.
    pub fn start(
        quiet: bool,
        paths: &[PathBuf],
        share: u64,
    ) -> (Option<Shared>, Option<ProgressFn>) {
        if quiet || !io::stderr().is_terminal() {
            return (None, None);
        }
        let now = Instant::now();
        let line = Arc::new(Mutex::new(ProgressLine {
            start: now,
            last: now,
            sizes: paths
                .iter()
                .map(|p| plain_size(p).map(|s| s / share.max(1)))
                .collect(),
            file: 0,
            shown: String::new(),
            text: String::new(),
            every: progress_every(),
        }));
        let l = Arc::clone(&line);
        let callback: ProgressFn = Arc::new(move |t| {
            if let Ok(mut l) = l.lock() {
                l.tick(t);
            }
        });
        (Some(line), Some(callback))
    }

    fn tick(&mut self, t: Progress) {
        if t.file != self.file {
            self.file = t.file;
            self.start = Instant::now();
        }
        if self.last.elapsed() < self.every {
            return;
        }
        self.last = Instant::now();
        let secs = self.start.elapsed().as_secs_f64().max(1e-9);
        let rate = t.bytes as f64 / secs;
        // How far through the file: its own bytes read against its size (a compressed
        // file's), else the text read against a plain file's size.
        let through = match t.file_bytes {
            Some((read, size)) if size > 0 => Some((read, size)),
            _ => self
                .sizes
                .get(t.file.wrapping_sub(1))
                .copied()
                .flatten()
                .map(|size| (t.bytes, size)),
        };
        let share = match through {
            Some((read, size)) if read > 0 => {
                let done = (read as f64 / size as f64).min(1.0);
                let left = secs * (1.0 - done) / done;
                format!(", {:.1} %, ETA {}", done * 100.0, eta(left))
            }
            _ => String::new(),
        };
        self.text = format!(
            "{:.1} MB, {} {}, {:.1} MB/s{share}",
            t.bytes as f64 / 1e6,
            t.games,
            if t.games == 1 { "game" } else { "games" },
            rate / 1e6
        );
        self.draw();
    }

    /// Draws the line's text, over the one shown, cut to the terminal's width (a line
    /// that wrapped could not be drawn over).
    fn draw(&mut self) {
        if let Some(width) = terminal_width()
            && self.text.chars().count() >= width
        {
            let cut = self
                .text
                .char_indices()
                .nth(width.saturating_sub(1))
                .map_or(self.text.len(), |(i, _)| i);
            self.text.truncate(cut);
        }
        let mut err = io::stderr().lock();
        let pad = self
            .shown
            .chars()
            .count()
            .saturating_sub(self.text.chars().count());
        let _ = write!(err, "\r{}{:pad$}", self.text, "");
        if pad > 0 {
            let _ = write!(err, "\r{}", self.text);
        }
        let _ = err.flush();
        self.shown.clone_from(&self.text);
    }

    /// Clears the line from the terminal.
    fn clear(&mut self) {
        if !self.shown.is_empty() {
            let n = self.shown.chars().count();
            let _ = write!(io::stderr().lock(), "\r{:n$}\r", "");
            self.shown.clear();
        }
    }

    /// Clears the line for good (before a summary).
    pub fn done(&mut self) {
        self.clear();
        self.text.clear();
    }
}

/// The width of the terminal stderr is, in columns.
fn terminal_width() -> Option<usize> {
    #[cfg(unix)]
    {
        // SAFETY: TIOCGWINSZ writes a `winsize` into the struct it is given, and nothing
        // else; the descriptor is stderr's, open for the process's life.
        let mut ws: libc::winsize = unsafe { std::mem::zeroed() };
        let ok = unsafe { libc::ioctl(libc::STDERR_FILENO, libc::TIOCGWINSZ, &mut ws) } == 0;
        (ok && ws.ws_col > 0).then_some(usize::from(ws.ws_col))
    }
    #[cfg(not(unix))]
    None
}

/// A time left, as a person reads it.
fn eta(secs: f64) -> String {
    let s = secs.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {:02} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, s / 60 % 60),
    }
}

/// A file's size, when it is a plain (uncompressed) file: its bytes measure the progress.
fn plain_size(path: &Path) -> Option<u64> {
    if path == Path::new("-") {
        return None;
    }
    let mut file = std::fs::File::open(path).ok()?;
    let size = file.metadata().ok()?.len();
    let mut head = [0u8; 4];
    let n = file.read(&mut head).ok()?;
    (pocketfen::stream::Compression::detect(&head[..n]) == pocketfen::stream::Compression::None)
        .then_some(size)
}

/// Runs `f` with the progress line off the terminal, and draws it again after.
pub fn without_line<T>(line: Option<&Shared>, f: impl FnOnce() -> T) -> T {
    let Some(line) = line else {
        return f();
    };
    let mut l = line.lock().unwrap_or_else(|e| e.into_inner());
    let was = !l.shown.is_empty();
    l.clear();
    let value = f();
    if was && !l.text.is_empty() {
        l.draw();
    }
    value
}

/// Clears the progress line for good.
pub fn end_line(line: Option<&Shared>) {
    if let Some(l) = line {
        l.lock().unwrap_or_else(|e| e.into_inner()).done();
    }
}

/// A message on stderr (`pocketfen: …`), with the progress line out of its way.
pub fn note(line: Option<&Shared>, message: impl Display) {
    without_line(line, || eprintln!("pocketfen: {message}"));
}

/// Whether standard input may come slowly: a terminal, a pipe or a socket (not a file).
pub fn stdin_is_slow() -> bool {
    if io::stdin().is_terminal() {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::FileTypeExt;
        let Ok(fd) = io::stdin().as_fd().try_clone_to_owned() else {
            return false;
        };
        std::fs::File::from(fd)
            .metadata()
            .is_ok_and(|m| m.file_type().is_fifo() || m.file_type().is_socket())
    }
    #[cfg(not(unix))]
    false
}

/// Whether output is flushed per record: when stdout is a terminal, or `--line-buffered`.
pub fn line_buffered(forced: bool) -> bool {
    forced || io::stdout().is_terminal()
}

/// Standard output, buffered; per record, when `live`, flushed (with the progress line
/// off the terminal while a record goes out, when stdout is the terminal too).
pub struct Out {
    w: io::BufWriter<Box<dyn Write>>,
    live: bool,
    /// The progress line, when stdout shares its terminal.
    line: Option<Shared>,
}

impl Out {
    /// Standard output; flushed per record when `live`.
    pub fn stdout(live: bool, line: Option<&Shared>) -> Out {
        Out::to(Box::new(io::stdout().lock()), live, line)
    }

    /// Any writer (a file of `-o`); the progress line is never in its way.
    pub fn to(w: Box<dyn Write>, live: bool, line: Option<&Shared>) -> Out {
        let shares_terminal = io::stdout().is_terminal();
        Out {
            w: io::BufWriter::with_capacity(1 << 16, w),
            live,
            line: line.filter(|_| shares_terminal).cloned(),
        }
    }

    /// Writes one record (with `f`), flushed when the output is live.
    pub fn record(&mut self, f: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
        if !self.live {
            return f(&mut self.w);
        }
        let w = &mut self.w;
        without_line(self.line.as_ref(), || {
            f(w)?;
            w.flush()
        })
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.w.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        let w = &mut self.w;
        without_line(
            self.line.as_ref().filter(|_| !w.buffer().is_empty()),
            || w.flush(),
        )
    }
}
