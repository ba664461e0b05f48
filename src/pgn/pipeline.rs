//! The ordered parallel pipeline: every game of a stream through a function on several
//! threads, the results handed back in input order, in memory bounded whatever the
//! stream's size.
//!
//! ```
//! use pocketfen::pgn::{GameSplitter, Options, validate_game};
//! use pocketfen::pgn::pipeline::run_ordered;
//! let pgn = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 e5 2. Ke2 *\n";
//! let mut games = GameSplitter::new(pgn.as_bytes());
//! let mut plies = Vec::new();
//! let work = |g: &pocketfen::pgn::RawGame| validate_game(g, &Options::default()).plies;
//! let stream_error = run_ordered(&mut games, 2, &work, &mut |n| {
//!     plies.push(n);
//!     Ok(())
//! }, &mut |_, _| {})?;
//! assert_eq!(plies, vec![2, 3]);
//! assert!(stream_error.is_none());
//! # Ok::<_, std::io::Error>(())
//! ```

use std::collections::BTreeMap;
use std::io::{self, BufRead};
use std::sync::Mutex;
use std::sync::mpsc::sync_channel;
use std::thread;

use super::split::{GameSplitter, RawGame};

/// Games handed to a worker at once: at most this many…
const BATCH_GAMES: usize = 256;
/// …or this many bytes.
const BATCH_BYTES: usize = 1 << 20;

/// Runs `work` on every game of `games` on `jobs` threads (1: on this thread alone) and
/// hands the results to `sink` in input order. `progress` is called with the bytes read
/// and the games split so far, from the reading thread.
///
/// Returns the error the stream ended in, if any (the games before it were handed to
/// `sink`).
///
/// # Errors
///
/// The first error of `sink` (writing the results); the run stops there.
pub fn run_ordered<R: BufRead + Send, T: Send>(
    games: &mut GameSplitter<R>,
    jobs: usize,
    work: &(dyn Fn(&RawGame) -> T + Sync),
    sink: &mut dyn FnMut(T) -> io::Result<()>,
    progress: &mut (dyn FnMut(u64, usize) + Send),
) -> io::Result<Option<io::Error>> {
    if jobs <= 1 {
        let mut count = 0;
        loop {
            match games.next_game() {
                Ok(Some(game)) => sink(work(&game))?,
                Ok(None) => return Ok(None),
                Err(e) => return Ok(Some(e)),
            }
            count += 1;
            progress(games.bytes_read(), count);
        }
    }
    // Each worker takes the next batch of games from the stream (split under a lock, a
    // short job next to validating them), works on it and sends the results; they are
    // re-ordered by batch number and handed to the sink here. No reading thread competes
    // with the workers for the cores, and the bounded result queue keeps memory flat in
    // the archive's size.
    let source = Mutex::new(Source {
        games,
        progress,
        next: 0,
        count: 0,
        done: false,
        error: None,
    });
    let (done_tx, done_rx) = sync_channel::<(usize, Vec<T>)>(jobs * 2);
    thread::scope(|scope| {
        for _ in 0..jobs {
            let done_tx = done_tx.clone();
            let source = &source;
            scope.spawn(move || {
                while let Some((n, batch)) = source.lock().ok().and_then(|mut s| s.batch()) {
                    let results = batch.iter().map(work).collect();
                    if done_tx.send((n, results)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done_tx);
        let mut pending = BTreeMap::new();
        let mut next = 0;
        let mut result = Ok(());
        for (n, results) in done_rx {
            pending.insert(n, results);
            while let Some(results) = pending.remove(&next) {
                for r in results {
                    if result.is_ok() {
                        result = sink(r);
                    }
                }
                next += 1;
            }
            if result.is_err() {
                // Stop the workers: no more batches are handed out.
                if let Ok(mut s) = source.lock() {
                    s.done = true;
                }
            }
        }
        result
    })?;
    let source = source
        .into_inner()
        .map_err(|_| io::Error::other("a worker thread panicked"))?;
    Ok(source.error)
}

/// The stream shared by the workers, and where it stands.
struct Source<'a, R> {
    games: &'a mut GameSplitter<R>,
    progress: &'a mut (dyn FnMut(u64, usize) + Send),
    /// The number of the next batch.
    next: usize,
    /// Games split so far.
    count: usize,
    done: bool,
    /// The error the stream ended in.
    error: Option<io::Error>,
}

impl<R: BufRead> Source<'_, R> {
    /// The next numbered batch of games; `None` once the stream is done.
    fn batch(&mut self) -> Option<(usize, Vec<RawGame>)> {
        if self.done {
            return None;
        }
        let mut batch = Vec::new();
        let mut bytes = 0;
        while batch.len() < BATCH_GAMES && bytes < BATCH_BYTES {
            match self.games.next_game() {
                Ok(Some(game)) => {
                    bytes += game.bytes.len();
                    batch.push(game);
                    self.count += 1;
                    (self.progress)(self.games.bytes_read(), self.count);
                }
                Ok(None) => {
                    self.done = true;
                    break;
                }
                Err(e) => {
                    self.done = true;
                    self.error = Some(e);
                    break;
                }
            }
        }
        if batch.is_empty() {
            return None;
        }
        let n = self.next;
        self.next += 1;
        Some((n, batch))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results come back in input order for any number of jobs, and a failing sink stops
    /// the run with its error.
    #[test]
    fn ordered_for_any_jobs() {
        let pgn: String = (0..2000)
            .map(|i| format!("[Event \"{i}\"]\n\n1. e4 *\n\n"))
            .collect();
        for jobs in [1, 2, 3, 7] {
            let mut games = GameSplitter::new(pgn.as_bytes());
            let mut seen = Vec::new();
            let work = |g: &RawGame| g.number;
            let err = run_ordered(
                &mut games,
                jobs,
                &work,
                &mut |n| {
                    seen.push(n);
                    Ok(())
                },
                &mut |_, _| {},
            )
            .unwrap();
            assert!(err.is_none());
            assert_eq!(seen, (1..=2000).collect::<Vec<_>>(), "jobs {jobs}");
            let mut games = GameSplitter::new(pgn.as_bytes());
            let failed = run_ordered(
                &mut games,
                jobs,
                &work,
                &mut |n| {
                    if n == 300 {
                        Err(io::Error::other("full"))
                    } else {
                        Ok(())
                    }
                },
                &mut |_, _| {},
            );
            assert_eq!(failed.unwrap_err().to_string(), "full", "jobs {jobs}");
        }
    }
}
