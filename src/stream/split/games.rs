//! Where a run's games come from: the trait a text stream's splitter and a Parquet
//! file's rows share.

use std::io::{self, BufRead};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::{GameSplitter, RawGame, gap};

/// Where a run's games come from, one by one: a text stream's [`GameSplitter`], or the
/// rows of a Parquet file.
pub(crate) trait Games: Send {
    /// The next game; `None` at the end (or once stopped).
    fn next_game(&mut self) -> io::Result<Option<RawGame>>;
    /// What could not be read while the rest was (a Parquet file's damaged row groups),
    /// once the games have ended: taken once.
    fn take_damage(&mut self) -> Option<Damage> {
        None
    }
    /// Bytes of text handed out so far.
    fn bytes_read(&self) -> u64;
    /// Whether the stop flag ended them.
    fn stopped(&self) -> bool;
    /// Stops as soon as `stop` is set.
    fn stop_on(&mut self, stop: Arc<AtomicBool>);
}

/// Games an archive held that could not be read, the others read (a Parquet file's
/// damaged row groups): where and why, and how many.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Damage {
    pub(crate) message: String,
    pub(crate) games: usize,
    /// Where a compressed text broke (a Parquet file's row groups: none).
    pub(crate) breaks: Vec<gap::TextBreak>,
}

impl<R: BufRead + Send> Games for GameSplitter<R> {
    fn next_game(&mut self) -> io::Result<Option<RawGame>> {
        GameSplitter::next_game(self)
    }
    fn take_damage(&mut self) -> Option<Damage> {
        self.take_breaks()
    }
    fn bytes_read(&self) -> u64 {
        GameSplitter::bytes_read(self)
    }
    fn stopped(&self) -> bool {
        GameSplitter::stopped(self)
    }
    fn stop_on(&mut self, stop: Arc<AtomicBool>) {
        GameSplitter::stop_on(self, stop)
    }
}
