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
use std::io::{self, Read, Seek};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crate::notation::san::DropStyle;
use crate::pgn::input::{self, Compression, TrailingNote};
use crate::pgn::part::{self, NextStart, PartInfo, PartReader};
use crate::pgn::pipeline::{Ordered, Work};
use crate::pgn::split::PartEnd;
use crate::pgn::split::{DEFAULT_MAX_GAME_BYTES, GameSplitter};
use crate::pgn::{
    Chosen, Converted, DedupeBy, Format, GameReport, Layout, Options, PlyText, RawGame, Selection,
    Target, Totals, convert_game_with, game_key, replay_game, select_game, validate_game,
};
use crate::position::Severity;
use crate::record::{
    ConvertedRecord, GameRecord, KeyedRecord, ReplayedRecord, RunRecord, SCHEMA_VERSION,
    SelectedRecord, SummaryRecord, TotalRecord, TrailingRecord,
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
    /// A reader that can seek (an open file, a Python file object from object storage):
    /// as [`Source::Reader`], and a part of it can be read ([`RunOptions::split`]).
    Seekable {
        /// The name records give it.
        name: String,
        /// The bytes, plain or compressed.
        reader: Box<dyn SeekRead>,
    },
}

pub use crate::pgn::part::SeekRead;

mod dirs;
mod parts;
pub use dirs::{archives_under, is_archive_name};
use parts::{Part, PartState};
pub use parts::{PartRange, Split, parts};

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

    /// A reader that can seek, under a name: a part of it can be read.
    pub fn seekable(name: impl Into<String>, reader: impl Read + Seek + Send + 'static) -> Source {
        Source::Seekable {
            name: name.into(),
            reader: Box::new(reader),
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
            Source::Reader { name, .. } | Source::Seekable { name, .. } => name.clone(),
        }
    }

    /// Opens the source, decoding on `jobs` threads; a file counts its bytes read in
    /// `read` (a compressed file's progress).
    fn open(self, jobs: usize, read: &Arc<AtomicU64>) -> io::Result<input::Decoded<'static>> {
        match self {
            Source::Path(p) => {
                let file = std::fs::File::open(&p)?;
                let size = file.metadata().ok().map(|m| m.len());
                let counted = Counted {
                    inner: file,
                    read: Arc::clone(read),
                };
                let mut decoded = crate::pgn::decode_with(counted, jobs)?;
                decoded.size = size;
                Ok(decoded)
            }
            Source::Stdin => crate::pgn::open_with("-", jobs),
            Source::Reader { reader, .. } => crate::pgn::decode_with(reader, jobs),
            Source::Seekable { reader, .. } => crate::pgn::decode_with(reader, jobs),
        }
    }

    /// The source as a file parts of it can be read from, and its modification time
    /// (nanoseconds since 1970, for a path).
    fn into_file(self) -> io::Result<(part::SharedFile, Option<u64>)> {
        match self {
            Source::Path(p) => {
                let f = std::fs::File::open(&p)?;
                let modified = f
                    .metadata()
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map(|d| d.as_nanos() as u64);
                Ok((part::SharedFile::new(Box::new(f)), modified))
            }
            Source::Seekable { reader, .. } => Ok((part::SharedFile::new(reader), None)),
            Source::Stdin | Source::Reader { .. } => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "cannot read a part of {}: --split needs a file, which can be read from anywhere, not a stream",
                    self.name()
                ),
            )),
        }
    }

    /// Opens part `split` of the source, as [`Part`] says.
    fn open_part(self, split: Split, max_game_bytes: usize) -> io::Result<Part> {
        let (file, modified) = self.into_file()?;
        let plan = part::plan(&file, split.part, split.of)?;
        let from = file.reader_from(plan.begin);
        let trailing;
        let (reader, next): (Box<dyn io::BufRead + Send>, NextStart) = match plan.compression {
            Compression::None => {
                trailing = TrailingNote::default();
                let next = plan
                    .end
                    .map_or(NextStart::Last, |e| NextStart::Known(e - plan.begin));
                (Box::new(io::BufReader::with_capacity(1 << 16, from)), next)
            }
            #[cfg(feature = "compression")]
            kind => {
                let cell = Arc::new(std::sync::OnceLock::new());
                let mark = plan.end.map(|e| (e - plan.begin, Arc::clone(&cell)));
                let decoded = input::decode_part(from, kind, plan.begin, mark)?;
                trailing = decoded.trailing;
                let next = plan.end.map_or(NextStart::Last, |_| NextStart::Told(cell));
                (decoded.reader, next)
            }
            #[cfg(not(feature = "compression"))]
            _ => unreachable!("the plan refuses compressed files without the feature"),
        };
        let end = Arc::new(PartEnd::new());
        let info = Arc::new(std::sync::Mutex::new(PartInfo::default()));
        let reader = PartReader::new(
            reader,
            split.part == 1,
            next,
            Arc::clone(&end),
            Arc::clone(&info),
        );
        let boxed: Box<dyn io::BufRead + Send> = Box::new(reader);
        let mut games = GameSplitter::with_max_game_bytes(boxed, max_game_bytes);
        games.end_at(Arc::clone(&end));
        Ok(Part {
            games,
            trailing,
            state: PartState {
                split,
                plan,
                modified,
                end,
                info,
            },
        })
    }
}

impl fmt::Debug for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Source({:?})", self.name())
    }
}

/// What a run does with each game.
#[derive(Debug, Clone)]
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
        /// What the games keep, and how their lines are laid out.
        layout: Arc<Layout>,
    },
    /// `replay`: a [`RunRecord::Replayed`] for each game.
    Replay {
        /// What each ply's text is.
        text: PlyText,
    },
    /// `pgn select` and `pgn split`: a [`RunRecord::Selected`] for each game, its bytes
    /// with it, and whether it meets the selection; with a [`Rewrite`], each chosen game
    /// rewritten too (in the record's `text`; a game that does not replay keeps only its
    /// bytes).
    Select(Arc<Selection>, Option<Arc<Rewrite>>),
    /// `pgn dedupe`: a [`RunRecord::Keyed`] for each game, its bytes with it, and its key
    /// ([`game_key`]).
    Dedupe {
        /// What makes two games the same.
        by: DedupeBy,
    },
}

/// A 64-bit FNV-1a fingerprint of `bytes` (the one a split's records give in hex).
pub fn fingerprint(bytes: &[u8]) -> u64 {
    part::fnv1a(bytes)
}

/// How `pgn select` rewrites the games it chooses: for a site, laid out as asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewrite {
    /// The site to write for.
    pub target: Target,
    /// How pawn drops are written.
    pub style: DropStyle,
    /// What the games keep, and how their lines are laid out.
    pub layout: Layout,
}

/// A reader that counts the bytes read from it.
struct Counted<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
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
    /// Bytes read from the file itself (for a compressed file, fewer than `bytes`), and
    /// the file's size: how far through the file the run is. `None` for a stream or a
    /// part.
    pub file_bytes: Option<(u64, u64)>,
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
    /// Read only this part of each archive (a path or a [`Source::Seekable`]); its
    /// summary says where the part lies, for [`crate::merge`].
    pub split: Option<Split>,
    /// Whether summaries and the total give the seconds they took (`seconds`): without,
    /// a run's records are the same from run to run.
    pub timings: bool,
    /// Once set (by a signal handler, another thread…), the run reads no further game:
    /// the games already read are worked on and their records given, then the archive's
    /// summary and the total, marked `interrupted` and not `complete`; no further
    /// archive is opened.
    pub stop: Option<Arc<AtomicBool>>,
    /// Hand each game to a worker as soon as it is read, not in batches: for input that
    /// comes slowly (a pipe, a terminal), whose records should come as its games do. It
    /// costs throughput on input that comes fast.
    pub eager: bool,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            game: Options::default(),
            jobs: 0,
            max_game_bytes: DEFAULT_MAX_GAME_BYTES,
            progress: None,
            split: None,
            timings: false,
            stop: None,
            eager: false,
        }
    }
}

impl fmt::Debug for RunOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunOptions")
            .field("game", &self.game)
            .field("jobs", &self.jobs)
            .field("max_game_bytes", &self.max_game_bytes)
            .field("split", &self.split)
            .field("timings", &self.timings)
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
    Selected(Chosen, RawGame, Option<String>),
    Keyed(u128, GameReport, RawGame),
}

/// The archive being read.
struct Current {
    name: String,
    games: Ordered<Item>,
    totals: Totals,
    start: Instant,
    compression: Compression,
    trailing: TrailingNote,
    /// The part of the file read, with `--split`.
    part: Option<PartState>,
    /// A fingerprint of the options the archive is read with.
    options: u64,
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
/// let task = Task::Convert { target: Target::Lichess, style: DropStyle::Letter, keep_broken: false, layout: Default::default() };
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
    /// Whether the stop flag ended the run early.
    interrupted: bool,
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
            interrupted: false,
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

    /// Whether the stop flag is set.
    fn stopped(&self) -> bool {
        self.opts
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Seconds since `start`, when the run gives timings.
    fn seconds(&self, start: Instant) -> Option<f64> {
        self.opts
            .timings
            .then(|| round_ms(start.elapsed().as_secs_f64()))
    }

    /// Opens the next source; `false` when there is none left (or the run is stopped).
    fn open_next(&mut self) -> bool {
        if self.stopped() {
            self.interrupted = true;
            self.complete = false;
            return false;
        }
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
        let mut read = Arc::new(AtomicU64::new(0));
        let mut size = None;
        let opened = match self.opts.split {
            Some(split) => source
                .open_part(split, self.opts.max_game_bytes)
                .map(|p| (p.games, p.state.plan.compression, p.trailing, Some(p.state))),
            None => source.open(self.jobs, &Arc::clone(&read)).map(|d| {
                size = d.size;
                // A decoder that reads ahead says how far its text reaches.
                if let Some(reached) = &d.reached {
                    read = Arc::clone(reached);
                }
                let games = GameSplitter::with_max_game_bytes(d.reader, self.opts.max_game_bytes);
                (games, d.compression, d.trailing, None)
            }),
        };
        let (mut splitter, compression, trailing, part) = match opened {
            Ok(o) => o,
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
                    seconds: self.opts.timings.then_some(0.0),
                    complete: false,
                    interrupted: false,
                    stream_error: Some(e.to_string()),
                    trailing_bytes: None,
                    opened: false,
                    compression: Compression::None,
                    split: None,
                }));
                return true;
            }
        };
        if let Some(progress) = &self.opts.progress {
            let (progress, file) = (Arc::clone(progress), self.files);
            splitter.on_progress(move |bytes, games| {
                let file_bytes = size.map(|size| (read.load(Ordering::Relaxed), size));
                progress(Progress {
                    file,
                    bytes,
                    games,
                    file_bytes,
                });
            });
        }
        let options = part::fnv1a(
            format!("{:?} {:?} {}", self.task, game, self.opts.max_game_bytes).as_bytes(),
        );
        let work = self.work(game);
        self.current = Some(Current {
            name,
            games: Ordered::new(
                splitter,
                self.jobs,
                work,
                self.opts.stop.clone(),
                self.opts.eager,
            ),
            totals: Totals::default(),
            start,
            compression,
            trailing,
            part,
            options,
        });
        true
    }

    /// The work of the task on one game, under `opts`.
    fn work(&self, opts: Options) -> Work<Item> {
        match self.task.clone() {
            Task::Validate { .. } => {
                let keep = Arc::clone(&self.keep_bytes);
                Arc::new(move |g: RawGame| {
                    let report = validate_game(&g, &opts);
                    let raw =
                        (!report.problems.is_empty() && keep.load(Ordering::Relaxed)).then_some(g);
                    Item::Validated(report, raw)
                })
            }
            Task::Convert {
                target,
                style,
                keep_broken,
                layout,
            } => Arc::new(move |g: RawGame| {
                let converted = convert_game_with(&g, target, style, &opts, &layout);
                // A game over the size limit has no bytes to copy: it is refused whatever
                // `keep_broken` says, and its record says so (no `raw`).
                let raw = (keep_broken
                    && g.too_large.is_none()
                    && matches!(converted, Converted::Refused(_)))
                .then_some(g);
                Item::Converted(converted, raw)
            }),
            Task::Replay { text } => Arc::new(move |g: RawGame| {
                let mut plies = String::new();
                let report = replay_game(&g, &opts, text, &mut |line| {
                    plies.push_str(line);
                    plies.push('\n');
                });
                Item::Replayed(report, plies)
            }),
            Task::Select(sel, rewrite) => Arc::new(move |g: RawGame| {
                let chosen = select_game(&g, &sel, &opts);
                let text = match (&rewrite, chosen.selected) {
                    (Some(r), true) => {
                        match convert_game_with(&g, r.target, r.style, &opts, &r.layout) {
                            Converted::Game(text, _) => Some(text),
                            Converted::Refused(_) => None,
                        }
                    }
                    _ => None,
                };
                Item::Selected(chosen, g, text)
            }),
            Task::Dedupe { by } => Arc::new(move |g: RawGame| {
                let (key, report) = game_key(&g, by, &opts);
                Item::Keyed(key, report, g)
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
            Item::Selected(chosen, raw, text) => {
                current.totals.add(&chosen.report);
                Some(RunRecord::Selected(SelectedRecord {
                    file: current.name.clone(),
                    game: raw.number,
                    line: raw.line,
                    selected: chosen.selected,
                    captured: chosen.captured,
                    text,
                    raw,
                    tags_present: chosen.tags_present,
                    tag_names: chosen.tag_names,
                }))
            }
            Item::Keyed(key, report, raw) => {
                current.totals.add(&report);
                Some(RunRecord::Keyed(KeyedRecord {
                    file: current.name.clone(),
                    game: raw.number,
                    line: raw.line,
                    key,
                    raw,
                }))
            }
        }
    }

    /// The summary of the archive just read.
    fn summary(&mut self) -> Option<RunRecord> {
        let mut current = self.current.take()?;
        let error = current.games.take_error();
        // A stream that ends, or fails, once the run is stopped ended because of it (a
        // stream read as it comes gives up when told to stop).
        let interrupted = current.games.interrupted() || self.stopped();
        let error = error.filter(|_| !interrupted);
        let mut bytes = current.games.bytes_read();
        let split = current.part.as_ref().map(|p| {
            let (read, record) = p.record(current.options, bytes);
            bytes = read;
            record
        });
        let t = current.totals;
        self.total.merge(&t);
        self.bytes += bytes;
        self.complete &= error.is_none() && !interrupted;
        self.interrupted |= interrupted;
        let seconds = self.seconds(current.start);
        Some(RunRecord::Summary(SummaryRecord {
            version: SCHEMA_VERSION,
            file: current.name,
            games: t.games,
            plies: t.plies,
            illegal_games: t.illegal_games,
            error_games: t.error_games,
            warnings: t.warnings,
            bytes,
            seconds,
            complete: error.is_none() && !interrupted,
            interrupted,
            stream_error: error.map(|e| e.to_string()),
            trailing_bytes: current.trailing.get().map(TrailingRecord::from),
            opened: true,
            compression: current.compression,
            split,
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
            seconds: self.seconds(self.start),
            complete: self.complete,
            interrupted: self.interrupted,
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

#[cfg(test)]
mod tests;
