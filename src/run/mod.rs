//! Runs over archives: every game of files or streams validated, converted or replayed,
//! on all cores, in memory bounded whatever the archives' size, read as an iterator of
//! [`RunRecord`]s in input order (each archive's games, then its summary; a total at the
//! end). This is the work of `pocketfen validate`, `pgn convert` and `replay`, and of the
//! Python package's functions of the same names: they only choose options and format the
//! records.
//!
//! ```
//! use pocketfen::run::{Run, RunOptions, Task};
//! use pocketfen::stream::Source;
//! use pocketfen::run::RunRecord;
//! let pgn = b"[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Q@e4 *\n\n[Event \"b\"]\n\n1. d4 *\n";
//! let source = Source::reader("games.pgn", &pgn[..]);
//! let records: Vec<RunRecord> = Run::new(vec![source], Task::Validate { all: false }, RunOptions::default()).collect();
//! let RunRecord::Game(game) = &records[0] else { panic!("a game record first") };
//! assert_eq!((game.report.number, game.report.problems[0].kind.name()), (1, "not-in-pocket"));
//! let RunRecord::Summary(summary) = &records[1] else { panic!("then the summary") };
//! assert_eq!((summary.totals.games, summary.totals.illegal_games, summary.complete), (2, 1, true));
//! assert!(matches!(records[2], RunRecord::Total(_)));
//! ```

use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crate::game::{Format, Totals};
use crate::stream::split::Games;
use crate::stream::{Compression, GameSplitter, PartState, Source, SplitOptions, TrailingNote};
use pipeline::Ordered;
use record::{SCHEMA_VERSION, SplitPoint, SplitRecord, SummaryRecord, TotalRecord, TrailingRecord};

pub mod dedupe;
#[cfg(feature = "serde")]
pub mod merge;
mod options;
mod pipeline;
pub mod record;
pub mod split_files;
mod task;

pub use options::{MAX_JOBS, Progress, ProgressFn, RunOptions, jobs};
pub use record::RunRecord;
pub use task::Task;
use task::Worked;

/// The archive being read.
struct Current {
    name: String,
    games: Ordered<Worked>,
    totals: Totals,
    start: Instant,
    compression: Compression,
    trailing: TrailingNote,
    /// The part of the file read, with `--split`.
    part: Option<PartState>,
    /// A fingerprint of the options the archive is read with.
    options: u64,
    /// The `split` record of a part of a Parquet file, known when it opens.
    rows_split: Option<SplitRecord>,
    /// The entries of a Chess.com JSON archive skipped (no moves).
    skipped: Option<Arc<std::sync::atomic::AtomicUsize>>,
}

/// A run over archives: an iterator of [`RunRecord`]s, in input order whatever the
/// number of jobs. See also the [module documentation](self).
///
/// Converting to Lichess's dialect with two workers, keeping what each game was:
///
/// ```
/// use pocketfen::run::{Run, RunOptions, Task};
/// use pocketfen::stream::Source;
/// use pocketfen::notation::san::DropStyle;
/// use pocketfen::game::{Rewrite, Target};
/// use pocketfen::run::RunRecord;
/// let pgn = "[Variant \"Crazyhouse\"]\n[FEN \"8/8/8/4k3/8/8/8/4K3[Pp] w - - 0 1\"]\n\n1. @e4 *\n";
/// let to = Rewrite { target: Target::Lichess, style: DropStyle::Letter, layout: Default::default() };
/// let task = Task::Convert { to: to.into(), keep_broken: false };
/// let opts = RunOptions { jobs: 2, ..RunOptions::default() };
/// let mut run = Run::new(vec![Source::reader("zh.pgn", pgn.as_bytes())], task, opts);
/// let Some(RunRecord::Converted(game)) = run.next() else { panic!("a converted game first") };
/// assert!(game.text.contains("[FEN \"8/8/8/4k3/8/8/8/4K3/Pp w - - 0 1\"]"), "{}", game.text);
/// assert!(game.text.contains("1. P@e4 *"), "{}", game.text);
/// assert!(matches!(run.next(), Some(RunRecord::Summary(s)) if s.totals.games == 1));
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
        let keep_bytes = Arc::new(AtomicBool::new(opts.keep_bytes));
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
            keep_bytes,
            finished: false,
        }
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
        let Some(mut source) = self.sources.pop_front() else {
            return false;
        };
        self.files += 1;
        let name = source.name();
        let start = Instant::now();
        let mut game = self.opts.game;
        if game.format == Format::Auto {
            game.format = Format::from_path(&name);
        }
        #[cfg(feature = "parquet")]
        if crate::stream::parquet::is_parquet(&mut source) {
            self.open_parquet(source, name, start, game);
            return true;
        }
        #[cfg(not(feature = "parquet"))]
        let _ = &mut source;
        #[cfg(feature = "serde")]
        if self.opts.split.is_some() && crate::stream::chesscom_file(&source) {
            let e = std::io::Error::other(
                "a Chess.com JSON archive is read whole: read it without --split",
            );
            self.unopened(name, &e);
            return true;
        }
        let mut read = Arc::new(AtomicU64::new(0));
        let mut size = None;
        let opened = match self.opts.split {
            Some(split) => source
                .open_part(split, self.opts.max_game_bytes)
                .map(|p| (p.games, p.state.plan.compression, p.trailing, Some(p.state))),
            None => match source.open(self.jobs, &Arc::clone(&read)) {
                Ok(d) => {
                    #[cfg(feature = "serde")]
                    let mut d = d;
                    #[cfg(feature = "serde")]
                    {
                        let (json, reader) = crate::stream::chesscom::peek(d.reader);
                        if json {
                            self.open_chesscom(reader, name, start, game, d.compression);
                            return true;
                        }
                        d.reader = reader;
                    }
                    size = d.size;
                    // A decoder that reads ahead says how far its text reaches.
                    if let Some(reached) = &d.reached {
                        read = Arc::clone(reached);
                    }
                    let games = GameSplitter::with_options(
                        d.reader,
                        SplitOptions {
                            max_game_bytes: self.opts.max_game_bytes,
                            ..SplitOptions::default()
                        },
                    );
                    Ok((games, d.compression, d.trailing, None))
                }
                Err(e) => Err(e),
            },
        };
        let (mut splitter, compression, trailing, part) = match opened {
            Ok(o) => o,
            Err(e) => {
                self.unopened(name, &e);
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
        self.current = Some(Current {
            compression,
            trailing,
            part,
            ..self.reading(name, Box::new(splitter), game, start)
        });
        true
    }

    /// The archive `name` about to be read: its `games` worked on as the task says,
    /// under `game`'s options (a plain stream, until the caller says otherwise).
    fn reading(
        &self,
        name: String,
        games: Box<dyn Games>,
        game: crate::game::Options,
        start: Instant,
    ) -> Current {
        let options = crate::stream::fingerprint(
            format!("{:?} {:?} {}", self.task, game, self.opts.max_game_bytes).as_bytes(),
        );
        let work = self
            .task
            .work(&name, game, &self.keep_bytes, self.opts.openings);
        Current {
            name,
            games: Ordered::new(
                games,
                self.jobs,
                work,
                self.opts.stop.clone(),
                self.opts.eager,
            ),
            totals: Totals::default(),
            start,
            compression: Compression::None,
            trailing: TrailingNote::default(),
            part: None,
            options,
            rows_split: None,
            skipped: None,
        }
    }

    /// The summary of a source that did not open.
    fn unopened(&mut self, name: String, e: &std::io::Error) {
        self.complete = false;
        self.queued.push_back(RunRecord::Summary(SummaryRecord {
            version: SCHEMA_VERSION,
            file: name,
            totals: Totals::default(),
            bytes: 0,
            seconds: self.opts.timings.then_some(0.0),
            complete: false,
            interrupted: false,
            stream_error: Some(e.to_string()),
            trailing_bytes: None,
            breaks: Vec::new(),
            opened: false,
            ended_early: true,
            compression: Compression::None,
            split: None,
        }));
    }

    /// Reads a Chess.com JSON archive's entries as its games.
    #[cfg(feature = "serde")]
    fn open_chesscom(
        &mut self,
        reader: impl std::io::Read,
        name: String,
        start: Instant,
        game: crate::game::Options,
        compression: Compression,
    ) {
        use crate::stream::chesscom::JsonGames;
        let skipped = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let games = match JsonGames::read(reader, self.opts.max_game_bytes, &skipped) {
            Ok(g) => g,
            Err(e) => return self.unopened(name, &e),
        };
        self.current = Some(Current {
            compression,
            skipped: Some(skipped),
            ..self.reading(name, Box::new(games), game, start)
        });
    }

    /// Opens a Parquet file's rows as its games (a part's row groups with `--split`).
    #[cfg(feature = "parquet")]
    fn open_parquet(
        &mut self,
        source: Source,
        name: String,
        start: Instant,
        game: crate::game::Options,
    ) {
        use crate::stream::parquet::ParquetGames;
        let (mut games, part) =
            match ParquetGames::open(source, self.opts.split, self.opts.max_game_bytes) {
                Ok(o) => o,
                Err(e) => return self.unopened(name, &e),
            };
        if let Some(progress) = &self.opts.progress {
            let (progress, file) = (Arc::clone(progress), self.files);
            games.on_progress(move |bytes, games| {
                progress(Progress {
                    file,
                    bytes,
                    games,
                    file_bytes: None,
                });
            });
        }
        let mut current = self.reading(name, Box::new(games), game, start);
        let hex = |h: u64| format!("{h:016x}");
        let point = |p: Option<(u64, u64)>| {
            p.map(|(offset, print)| SplitPoint {
                offset,
                skip: 0,
                print: hex(print),
            })
        };
        current.rows_split = self.opts.split.zip(part).map(|(split, part)| SplitRecord {
            part: split.part,
            of: split.of,
            size: part.size,
            modified: part.modified,
            head: hex(part.head),
            compression: Compression::None,
            start: point(part.start),
            end: point(part.end),
            aligned: true,
            // A game's lines are its movetext's: the parts add none to the next.
            lines: 0,
            options: hex(current.options),
            row_groups: true,
        });
        self.current = Some(current);
    }

    /// The record of a worked-on game (none for a game `validate` has nothing to say
    /// of), its counts added to the archive's.
    fn record(&mut self, worked: Worked) -> Option<RunRecord> {
        let current = self.current.as_mut()?;
        current.totals.merge(&worked.counts);
        worked.record
    }

    /// The summary of the archive just read.
    fn summary(&mut self) -> Option<RunRecord> {
        let mut current = self.current.take()?;
        let error = current.games.take_error();
        // A stream that ends, or fails, once the run is stopped ended because of it (a
        // stream read as it comes gives up when told to stop).
        let interrupted = current.games.interrupted() || self.stopped();
        let mut error = error.filter(|_| !interrupted);
        let ended_early = error.is_some();
        // Rows that could not be read, the rest read (stopped or not): the archive is not
        // complete, and its summary says where and how many.
        let mut damage = current.games.take_damage();
        if let Some(d) = &damage {
            // What was lost first (in the file's order), then how the stream ended.
            let message = match &error {
                Some(e) => format!("{}; {e}", d.message),
                None => d.message.clone(),
            };
            error = Some(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                message,
            ));
        }
        let breaks = damage.as_mut().map(|d| std::mem::take(&mut d.breaks));
        let mut bytes = current.games.bytes_read();
        let split = current.part.as_ref().map(|p| {
            let (read, record) = split_record(p, current.options, bytes);
            bytes = read;
            record
        });
        let split = split.or(current.rows_split.take());
        let mut t = current.totals;
        t.lost += damage.map_or(0, |d| d.games);
        if let Some(skipped) = &current.skipped {
            t.skipped += skipped.load(Ordering::Relaxed);
        }
        self.total.merge(&t);
        self.bytes += bytes;
        self.complete &= error.is_none() && !interrupted;
        self.interrupted |= interrupted;
        let seconds = self.seconds(current.start);
        // A part that stopped where the next part's text begins tells no trailing bytes:
        // its decoder, reading on to end its last game, may have met those after the
        // next part's text, which that part tells. A part whose text ended (at trailing
        // bytes or at the file's end) tells them, as a whole run does.
        let trailing = current
            .trailing
            .get()
            .filter(|_| current.part.as_ref().is_none_or(|p| p.end.stop().is_none()));
        Some(RunRecord::Summary(SummaryRecord {
            version: SCHEMA_VERSION,
            file: current.name,
            totals: t,
            bytes,
            seconds,
            complete: error.is_none() && !interrupted,
            interrupted,
            stream_error: error.map(|e| e.to_string()),
            trailing_bytes: trailing.map(TrailingRecord::from),
            breaks: breaks.unwrap_or_default(),
            opened: true,
            ended_early,
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
            totals: t,
            bytes: self.bytes,
            seconds: self.seconds(self.start),
            complete: self.complete,
            interrupted: self.interrupted,
        })
    }
}

/// The text bytes of a part's games, and its `split` record.
fn split_record(state: &PartState, options: u64, read: u64) -> (u64, SplitRecord) {
    let info = state.info.lock().unwrap_or_else(|e| e.into_inner());
    let stop = state.end.stop();
    let at = state.end.at.load(Ordering::Acquire);
    let hex = |h: u64| format!("{h:016x}");
    let end = match (stop, state.plan.end, info.end, info.next) {
        (Some(_), Some(offset), Some(p1), Some(t)) => Some(SplitPoint {
            offset,
            skip: p1 - t,
            print: hex(state.plan.end_print.unwrap_or(0)),
        }),
        _ => None,
    };
    let record = SplitRecord {
        part: state.split.part,
        of: state.split.of,
        size: state.plan.size,
        modified: state.modified,
        head: hex(state.plan.head),
        compression: state.plan.compression,
        start: info.start.map(|skip| SplitPoint {
            offset: state.plan.begin,
            skip,
            print: hex(state.plan.begin_print),
        }),
        end,
        aligned: stop.is_none_or(|(offset, _)| offset == at),
        lines: stop.map_or_else(
            || state.end.lines.load(Ordering::Acquire),
            |(_, line)| line - 1,
        ),
        options: hex(options),
        row_groups: false,
    };
    (stop.map_or(read, |(offset, _)| offset), record)
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
