//! How a run reads and judges its games, and how it tells its progress.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::game::Options;
use crate::stream::{DEFAULT_MAX_GAME_BYTES, Split};

/// The most worker threads a run takes.
pub const MAX_JOBS: usize = 256;

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
    /// How every game is read and judged; [`Format::Auto`](crate::game::Format::Auto) takes each archive's format
    /// from its name (`.bpgn`).
    pub game: Options,
    /// Worker threads: 0 for every core; at most [`MAX_JOBS`]. With 1, every game is
    /// read and worked on by the thread that asks for records.
    pub jobs: usize,
    /// A game larger than this is skipped unread (`game-too-large`).
    pub max_game_bytes: usize,
    /// Told of the progress of the reading.
    pub progress: Option<ProgressFn>,
    /// Read only this part of each archive (a path or a [`Source::Seekable`](crate::stream::Source::Seekable)); its
    /// summary says where the part lies, for [`crate::run::merge`].
    pub split: Option<Split>,
    /// Whether summaries and the total give the seconds they took (`seconds`): without,
    /// a run's records are the same from run to run.
    pub timings: bool,
    /// Once set (by a signal handler, another thread…), the run reads no further game:
    /// the games already read are worked on and their records given, then the archive's
    /// summary and the total, marked `interrupted` and not `complete`; no further
    /// archive is opened.
    pub stop: Option<Arc<AtomicBool>>,
    /// `validate` keeps the bytes of each game with problems in its record (`raw`), until
    /// [`Run::stop_keeping_bytes`](super::Run::stop_keeping_bytes): the HTML report
    /// draws its cards from them.
    pub keep_bytes: bool,
    /// Hand each game to a worker as soon as it is read, not in batches: for input that
    /// comes slowly (a pipe, a terminal), whose records should come as its games do. It
    /// costs throughput on input that comes fast.
    pub eager: bool,
    /// `validate` names each Standard and Crazyhouse game's opening during its walk, as
    /// Lichess names it ([`crate::opening`]), in its record (`opening`): 14 % more CPU on
    /// 20 MB of Lichess games (docs/PERFORMANCE.md), so only when asked.
    pub openings: bool,
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
            keep_bytes: false,
            openings: false,
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
