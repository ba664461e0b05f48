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
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread;

use super::split::{GameSplitter, RawGame};

/// Games handed to a worker at once: at most this many…
const BATCH_GAMES: usize = 256;
/// …or this many bytes.
const BATCH_BYTES: usize = 1 << 20;

type Batch = (usize, Vec<RawGame>);

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
    // Reader thread → bounded work queue → workers → results, re-ordered by batch number
    // and handed to the sink here. Bounded queues keep memory flat in the archive's size.
    let (work_tx, work_rx): (SyncSender<Batch>, Receiver<Batch>) = sync_channel(jobs * 2);
    let (done_tx, done_rx) = sync_channel::<(usize, Vec<T>)>(jobs * 2);
    let work_rx = Arc::new(Mutex::new(work_rx));
    thread::scope(|scope| {
        for _ in 0..jobs {
            let work_rx = Arc::clone(&work_rx);
            let done_tx = done_tx.clone();
            scope.spawn(move || {
                loop {
                    let next = work_rx.lock().map(|rx| rx.recv());
                    let Ok(Ok((n, batch))) = next else { return };
                    let results = batch.iter().map(work).collect();
                    if done_tx.send((n, results)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done_tx);
        let reader = scope.spawn(move || read_batches(games, &work_tx, progress));
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
        }
        let stream_error = reader
            .join()
            .unwrap_or_else(|_| Some(io::Error::other("the reading thread panicked")));
        result.map(|()| stream_error)
    })
}

/// Splits games into numbered batches for the workers; returns the stream's error.
fn read_batches<R: BufRead>(
    games: &mut GameSplitter<R>,
    work_tx: &SyncSender<Batch>,
    progress: &mut (dyn FnMut(u64, usize) + Send),
) -> Option<io::Error> {
    let mut batch = Vec::new();
    let mut batch_bytes = 0;
    let mut n = 0;
    let mut count = 0;
    let stream_error = loop {
        match games.next_game() {
            Ok(Some(game)) => {
                batch_bytes += game.bytes.len();
                batch.push(game);
                count += 1;
                if batch.len() >= BATCH_GAMES || batch_bytes >= BATCH_BYTES {
                    if work_tx.send((n, std::mem::take(&mut batch))).is_err() {
                        break None;
                    }
                    n += 1;
                    batch_bytes = 0;
                }
            }
            Ok(None) => break None,
            Err(e) => break Some(e),
        }
        progress(games.bytes_read(), count);
    };
    if !batch.is_empty() {
        let _ = work_tx.send((n, batch));
    }
    stream_error
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
