//! Runs over archives: every game of files or streams validated, converted or replayed,
//! on all cores, in memory bounded whatever the archives' size, read as an iterator of
//! [`RunRecord`]s in input order (each archive's games, then its summary; a total at the
//! end). This is the work of `pocketfen validate`, `pgn convert` and `replay`, and of the
//! Python package's functions of the same names: they only choose options and format the
//! records.
//!
//! ```
//! use pocketfen::archive::{Run, RunOptions, Source, Task};
//! use pocketfen::record::RunRecord;
//! let pgn = b"[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Q@e4 *\n\n[Event \"b\"]\n\n1. d4 *\n";
//! let source = Source::reader("games.pgn", &pgn[..]);
//! let records: Vec<RunRecord> = Run::new(vec![source], Task::Validate { all: false }, RunOptions::default()).collect();
//! let RunRecord::Game(game) = &records[0] else { panic!("a game record first") };
//! assert_eq!((game.report.number, game.report.problems[0].kind.name()), (1, "not-in-pocket"));
//! let RunRecord::Summary(summary) = &records[1] else { panic!("then the summary") };
//! assert_eq!((summary.games, summary.illegal_games, summary.complete), (2, 1, true));
//! assert!(matches!(records[2], RunRecord::Total(_)));
//! ```

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::notation::san::DropStyle;
use crate::pgn::input::{self, Compression, TrailingNote};
use crate::pgn::pipeline::{Ordered, Work};
use crate::pgn::split::{DEFAULT_MAX_GAME_BYTES, GameSplitter};
use crate::pgn::{
    Converted, Format, GameReport, Options, PlyText, RawGame, Target, Totals, convert_game,
    replay_game, validate_game,
};
use crate::position::Severity;
use crate::record::{
    ConvertedRecord, GameRecord, ReplayedRecord, RunRecord, SCHEMA_VERSION, SummaryRecord,
    TotalRecord, TrailingRecord,
};

/// The most worker threads a run takes.
pub const MAX_JOBS: usize = 256;

/// Where an archive comes from.
pub enum Source {
    /// A file (plain or compressed), named by its path.
    Path(PathBuf),
    /// Standard input, named `<stdin>`.
    Stdin,
    /// Any reader (bytes, a Python file object), under a name for records; the name's
    /// ending (`.bpgn`, `.zst`) counts as a file name's does.
    Reader {
        /// The name records give it.
        name: String,
        /// The bytes, plain or compressed.
        reader: Box<dyn Read + Send>,
    },
}

impl Source {
    /// A path, or standard input for `-`.
    pub fn path(path: impl Into<PathBuf>) -> Source {
        let path = path.into();
        if path == Path::new("-") {
            Source::Stdin
        } else {
            Source::Path(path)
        }
    }

    /// A reader under a name.
    pub fn reader(name: impl Into<String>, reader: impl Read + Send + 'static) -> Source {
        Source::Reader {
            name: name.into(),
            reader: Box::new(reader),
        }
    }

    /// The name records give it: the path (read lossily when it is not UTF-8), `<stdin>`,
    /// or the reader's name.
    pub fn name(&self) -> String {
        match self {
            Source::Path(p) => p.to_string_lossy().into_owned(),
            Source::Stdin => "<stdin>".to_owned(),
            Source::Reader { name, .. } => name.clone(),
        }
    }

    /// Opens the source, decoding on `jobs` threads.
    fn open(self, jobs: usize) -> io::Result<input::Decoded<'static>> {
        match self {
            Source::Path(p) => input::open_with(p, jobs),
            Source::Stdin => input::open_with("-", jobs),
            Source::Reader { reader, .. } => input::decode_with(reader, jobs),
        }
    }
}

impl fmt::Debug for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Source({:?})", self.name())
    }
}

/// What a run does with each game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    /// `validate`: a [`RunRecord::Game`] for each game with problems (each game when `all`).
    Validate {
        /// Every game gets a record, not only those with problems.
        all: bool,
    },
    /// `pgn convert`: a [`RunRecord::Converted`] for each game.
    Convert {
        /// The site to write for.
        target: Target,
        /// How pawn drops are written.
        style: DropStyle,
        /// A game `validate` refuses is handed back unchanged (its bytes in the
        /// record's `raw`) instead of left out.
        keep_broken: bool,
    },
    /// `replay`: a [`RunRecord::Replayed`] for each game.
    Replay {
        /// What each ply's text is.
        text: PlyText,
    },
}

/// How far a run has read, for a progress line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// The archive being read: 1 for the run's first.
    pub file: usize,
    /// Bytes of text read from it.
    pub bytes: u64,
    /// Games split from it.
    pub games: usize,
}

/// Called as games are split, from whichever thread splits them.
pub type ProgressFn = Arc<dyn Fn(Progress) + Send + Sync>;

/// How a run reads and judges its games.
#[derive(Clone)]
pub struct RunOptions {
    /// How every game is read and judged; [`Format::Auto`] takes each archive's format
    /// from its name (`.bpgn`).
    pub game: Options,
    /// Worker threads: 0 for every core; at most [`MAX_JOBS`]. With 1, every game is
    /// read and worked on by the thread that asks for records.
    pub jobs: usize,
    /// A game larger than this is skipped unread (`game-too-large`).
    pub max_game_bytes: usize,
    /// Told of the progress of the reading.
    pub progress: Option<ProgressFn>,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            game: Options::default(),
            jobs: 0,
            max_game_bytes: DEFAULT_MAX_GAME_BYTES,
            progress: None,
        }
    }
}

impl fmt::Debug for RunOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunOptions")
            .field("game", &self.game)
            .field("jobs", &self.jobs)
            .field("max_game_bytes", &self.max_game_bytes)
            .finish_non_exhaustive()
    }
}

/// The number of worker threads `jobs` asks for: 0 is every core, and no more than
/// [`MAX_JOBS`].
pub fn jobs(jobs: usize) -> usize {
    if jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        jobs.min(MAX_JOBS)
    }
}

/// What a worker hands back for a game.
enum Item {
    Validated(GameReport, Option<RawGame>),
    Converted(Converted, Option<RawGame>),
    Replayed(GameReport, String),
}

/// The archive being read.
struct Current {
    name: String,
    games: Ordered<Item>,
    totals: Totals,
    start: Instant,
    compression: Compression,
    trailing: TrailingNote,
}

/// A run over archives: an iterator of [`RunRecord`]s, in input order whatever the
/// number of jobs. See also the [module documentation](self).
///
/// Converting to Lichess's dialect with two workers, keeping what each game was:
///
/// ```
/// use pocketfen::archive::{Run, RunOptions, Source, Task};
/// use pocketfen::notation::san::DropStyle;
/// use pocketfen::pgn::Target;
/// use pocketfen::record::RunRecord;
/// let pgn = "[Variant \"Crazyhouse\"]\n[FEN \"8/8/8/4k3/8/8/8/4K3[Pp] w - - 0 1\"]\n\n1. @e4 *\n";
/// let task = Task::Convert { target: Target::Lichess, style: DropStyle::Letter, keep_broken: false };
/// let opts = RunOptions { jobs: 2, ..RunOptions::default() };
/// let mut run = Run::new(vec![Source::reader("zh.pgn", pgn.as_bytes())], task, opts);
/// let Some(RunRecord::Converted(game)) = run.next() else { panic!("a converted game first") };
/// assert!(game.text.contains("[FEN \"8/8/8/4k3/8/8/8/4K3/Pp w - - 0 1\"]"), "{}", game.text);
/// assert!(game.text.contains("1. P@e4 *"), "{}", game.text);
/// assert!(matches!(run.next(), Some(RunRecord::Summary(s)) if s.games == 1));
/// ```
pub struct Run {
    sources: VecDeque<Source>,
    task: Task,
    opts: RunOptions,
    jobs: usize,
    current: Option<Current>,
    /// Records due before the next game (a summary for a source that did not open).
    queued: VecDeque<RunRecord>,
    total: Totals,
    bytes: u64,
    files: usize,
    complete: bool,
    start: Instant,
    /// Whether `validate` keeps the bytes of games with problems in their records.
    keep_bytes: Arc<AtomicBool>,
    finished: bool,
}

impl fmt::Debug for Run {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Run")
            .field("task", &self.task)
            .field("jobs", &self.jobs)
            .field("files", &self.files)
            .finish_non_exhaustive()
    }
}

impl Run {
    /// A run of `task` over `sources`, read in order.
    pub fn new(sources: Vec<Source>, task: Task, opts: RunOptions) -> Run {
        Run {
            jobs: jobs(opts.jobs),
            sources: sources.into(),
            task,
            opts,
            current: None,
            queued: VecDeque::new(),
            total: Totals::default(),
            bytes: 0,
            files: 0,
            complete: true,
            start: Instant::now(),
            keep_bytes: Arc::new(AtomicBool::new(false)),
            finished: false,
        }
    }

    /// `validate` keeps the bytes of each game with problems in its record (`raw`), until
    /// [`Run::stop_keeping_bytes`]: the HTML report draws its cards from them.
    pub fn keep_bytes(self) -> Run {
        self.keep_bytes.store(true, Ordering::Relaxed);
        self
    }

    /// Stops keeping games' bytes (the games already worked on may still carry theirs).
    pub fn stop_keeping_bytes(&self) {
        self.keep_bytes.store(false, Ordering::Relaxed);
    }

    /// Opens the next source; `false` when there is none left.
    fn open_next(&mut self) -> bool {
        let Some(source) = self.sources.pop_front() else {
            return false;
        };
        self.files += 1;
        let name = source.name();
        let start = Instant::now();
        let mut game = self.opts.game;
        if game.format == Format::Auto {
            game.format = Format::from_path(&name);
        }
        let decoded = match source.open(self.jobs) {
            Ok(d) => d,
            Err(e) => {
                self.complete = false;
                self.queued.push_back(RunRecord::Summary(SummaryRecord {
                    version: SCHEMA_VERSION,
                    file: name,
                    games: 0,
                    plies: 0,
                    illegal_games: 0,
                    error_games: 0,
                    warnings: 0,
                    bytes: 0,
                    seconds: 0.0,
                    complete: false,
                    stream_error: Some(e.to_string()),
                    trailing_bytes: None,
                    opened: false,
                    compression: Compression::None,
                }));
                return true;
            }
        };
        let mut splitter =
            GameSplitter::with_max_game_bytes(decoded.reader, self.opts.max_game_bytes);
        if let Some(progress) = &self.opts.progress {
            let (progress, file) = (Arc::clone(progress), self.files);
            splitter.on_progress(move |bytes, games| progress(Progress { file, bytes, games }));
        }
        let work = self.work(game);
        self.current = Some(Current {
            name,
            games: Ordered::new(splitter, self.jobs, work),
            totals: Totals::default(),
            start,
            compression: decoded.compression,
            trailing: decoded.trailing,
        });
        true
    }

    /// The work of the task on one game, under `opts`.
    fn work(&self, opts: Options) -> Work<Item> {
        match self.task {
            Task::Validate { .. } => {
                let keep = Arc::clone(&self.keep_bytes);
                Arc::new(move |g: &RawGame| {
                    let report = validate_game(g, &opts);
                    let raw = (!report.problems.is_empty() && keep.load(Ordering::Relaxed))
                        .then(|| g.clone());
                    Item::Validated(report, raw)
                })
            }
            Task::Convert {
                target,
                style,
                keep_broken,
            } => Arc::new(move |g: &RawGame| {
                let converted = convert_game(g, target, style, &opts);
                let raw =
                    (keep_broken && matches!(converted, Converted::Refused(_))).then(|| g.clone());
                Item::Converted(converted, raw)
            }),
            Task::Replay { text } => Arc::new(move |g: &RawGame| {
                let mut plies = String::new();
                let report = replay_game(g, &opts, text, &mut |line| {
                    plies.push_str(line);
                    plies.push('\n');
                });
                Item::Replayed(report, plies)
            }),
        }
    }

    /// The record of a worked-on game (none for a game `validate` has nothing to say of).
    fn record(&mut self, item: Item) -> Option<RunRecord> {
        let current = self.current.as_mut()?;
        let file = || current.name.clone();
        match item {
            Item::Validated(report, raw) => {
                current.totals.add(&report);
                let all = matches!(self.task, Task::Validate { all: true });
                (all || !report.problems.is_empty()).then(|| {
                    RunRecord::Game(GameRecord {
                        file: file(),
                        report,
                        raw,
                    })
                })
            }
            Item::Converted(converted, raw) => {
                let (report, text, refused) = match converted {
                    Converted::Game(text, report) => (report, text, false),
                    Converted::Refused(report) => (report, String::new(), true),
                };
                current.totals.add(&report);
                Some(RunRecord::Converted(ConvertedRecord {
                    file: current.name.clone(),
                    game: report.number,
                    line: report.line,
                    text,
                    refused,
                    problems: report.problems,
                    raw,
                }))
            }
            Item::Replayed(mut report, plies) => {
                current.totals.add(&report);
                report.problems.retain(|p| p.severity == Severity::Error);
                Some(RunRecord::Replayed(ReplayedRecord {
                    file: current.name.clone(),
                    game: report.number,
                    line: report.line,
                    text: plies,
                    problems: report.problems,
                }))
            }
        }
    }

    /// The summary of the archive just read.
    fn summary(&mut self) -> Option<RunRecord> {
        let mut current = self.current.take()?;
        let error = current.games.take_error();
        let bytes = current.games.bytes_read();
        let t = current.totals;
        self.total.merge(&t);
        self.bytes += bytes;
        self.complete &= error.is_none();
        Some(RunRecord::Summary(SummaryRecord {
            version: SCHEMA_VERSION,
            file: current.name,
            games: t.games,
            plies: t.plies,
            illegal_games: t.illegal_games,
            error_games: t.error_games,
            warnings: t.warnings,
            bytes,
            seconds: round_ms(current.start.elapsed().as_secs_f64()),
            complete: error.is_none(),
            stream_error: error.map(|e| e.to_string()),
            trailing_bytes: current.trailing.get().map(TrailingRecord::from),
            opened: true,
            compression: current.compression,
        }))
    }

    /// The total of the run.
    fn total(&self) -> RunRecord {
        let t = self.total;
        RunRecord::Total(TotalRecord {
            version: SCHEMA_VERSION,
            files: self.files,
            games: t.games,
            plies: t.plies,
            illegal_games: t.illegal_games,
            error_games: t.error_games,
            warnings: t.warnings,
            bytes: self.bytes,
            seconds: round_ms(self.start.elapsed().as_secs_f64()),
            complete: self.complete,
        })
    }
}

/// Seconds to the millisecond, as records give them.
fn round_ms(secs: f64) -> f64 {
    (secs * 1000.0).round() / 1000.0
}

impl Iterator for Run {
    type Item = RunRecord;

    fn next(&mut self) -> Option<RunRecord> {
        loop {
            if let Some(r) = self.queued.pop_front() {
                return Some(r);
            }
            if self.finished {
                return None;
            }
            let Some(current) = &mut self.current else {
                if !self.open_next() {
                    self.finished = true;
                    return Some(self.total());
                }
                continue;
            };
            match current.games.next() {
                Some(item) => {
                    if let Some(r) = self.record(item) {
                        return Some(r);
                    }
                }
                None => return self.summary(),
            }
        }
    }
}
