//! The ordered parallel pipeline: every game of a stream through a function on several
//! threads, the results handed back in input order, in memory bounded whatever the
//! stream's size and whatever one game costs.
//!
//! Workers take numbered batches of games from the stream (split under a lock, a short
//! job beside working on them) and send their results back; the consumer re-orders them
//! by batch number. Back-pressure bounds what is held: a worker does not take batch *n*
//! while *n* is [`WINDOW_PER_JOB`] × jobs or more ahead of the next batch the consumer
//! takes, so a slow game holds up at most that many batches behind it, not the stream.

use std::collections::{BTreeMap, VecDeque};
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use crate::stream::split::{Damage, Games, RawGame};

/// Games handed to a worker at once: at most this many…
const BATCH_GAMES: usize = 256;
/// …or this many bytes.
const BATCH_BYTES: usize = 1 << 20;
/// Batches that may be taken but not yet consumed, per job.
pub(crate) const WINDOW_PER_JOB: usize = 2;

/// The work done on each game.
/// The work done on each game, which it is handed (and may keep).
pub(crate) type Work<T> = Arc<dyn Fn(RawGame) -> T + Send + Sync>;

/// A stream of games split and worked on, read in input order as an iterator.
pub(crate) struct Ordered<T> {
    inner: Inner<T>,
}

enum Inner<T> {
    /// One job: each game is split and worked on by the caller, when asked for.
    Here {
        games: Box<dyn Games>,
        work: Work<T>,
        error: Option<io::Error>,
        done: bool,
        stop: Stop,
        interrupted: bool,
    },
    /// Several jobs, on their threads.
    Threads(Box<Threads<T>>),
}

/// A flag that, once set, ends the stream before its next game: the games split before
/// are still worked on and handed out.
pub(crate) type Stop = Option<Arc<AtomicBool>>;

fn stopped(stop: &Stop) -> bool {
    stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
}

struct Threads<T> {
    shared: Arc<Shared>,
    results: Receiver<(usize, Vec<T>)>,
    /// Batches that came back before the one to hand out next.
    pending: BTreeMap<usize, Vec<T>>,
    /// The number of the next batch to hand out.
    next: usize,
    ready: VecDeque<T>,
    workers: Vec<JoinHandle<()>>,
}

/// The stream and where the run stands, shared by the workers and the consumer.
struct Shared {
    state: Mutex<State>,
    /// Signalled when the consumer moves on, or the run stops.
    room: Condvar,
    window: usize,
    /// Batches the consumer has taken (a worker may run `window` ahead of it): outside
    /// the lock, which a worker holds while it reads the stream, so that a read waiting
    /// on a pipe never holds up the results already made.
    consumed: AtomicUsize,
}

struct State {
    games: Box<dyn Games>,
    /// The number of the next batch to take.
    taken: usize,
    /// The stream has ended (or failed), or the consumer has gone.
    done: bool,
    /// The error the stream ended in.
    error: Option<io::Error>,
    /// Games split so far.
    games_split: usize,
    /// Bytes read so far.
    bytes: u64,
    stop: Stop,
    /// The stream was ended by the stop flag.
    interrupted: bool,
    /// The most games in a batch: one for a stream that comes slowly, so that each game
    /// is worked on as soon as it is read.
    batch_games: usize,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A worker that panicked holds no invariant the others need: go on.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl<T: Send + 'static> Ordered<T> {
    /// Starts working on the games of `games` with `jobs` threads (1: on the caller's
    /// thread, as results are asked for).
    pub(crate) fn new(
        games: Box<dyn Games>,
        jobs: usize,
        work: Work<T>,
        stop: Stop,
        eager: bool,
    ) -> Ordered<T> {
        let mut games = games;
        if let Some(stop) = &stop {
            // The splitter looks at the flag inside a game too: one huge or hostile game
            // does not hold up the stop.
            games.stop_on(Arc::clone(stop));
        }
        if jobs <= 1 {
            return Ordered {
                inner: Inner::Here {
                    games,
                    work,
                    error: None,
                    done: false,
                    stop,
                    interrupted: false,
                },
            };
        }
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                games,
                taken: 0,
                done: false,
                error: None,
                games_split: 0,
                bytes: 0,
                stop,
                interrupted: false,
                batch_games: if eager { 1 } else { BATCH_GAMES },
            }),
            room: Condvar::new(),
            window: jobs * WINDOW_PER_JOB,
            consumed: AtomicUsize::new(0),
        });
        let (tx, results) = channel();
        let workers = (0..jobs)
            .map(|_| {
                let shared = Arc::clone(&shared);
                let tx: Sender<(usize, Vec<T>)> = tx.clone();
                let work = Arc::clone(&work);
                thread::spawn(move || worker(&shared, &tx, &*work))
            })
            .collect();
        Ordered {
            inner: Inner::Threads(Box::new(Threads {
                shared,
                results,
                pending: BTreeMap::new(),
                next: 0,
                ready: VecDeque::new(),
                workers,
            })),
        }
    }
}

/// A worker: takes the next batch when there is room for it, works on it, sends it back.
fn worker<T>(shared: &Shared, tx: &Sender<(usize, Vec<T>)>, work: &dyn Fn(RawGame) -> T) {
    loop {
        let (n, batch) = {
            let mut s = shared.lock();
            // The consumer moves on without the lock: a wake-up it sends between the
            // check and the wait is missed, and the timeout makes up for it.
            while !s.done && s.taken >= shared.consumed.load(Ordering::Acquire) + shared.window {
                s = shared
                    .room
                    .wait_timeout(s, Duration::from_millis(20))
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
            }
            if s.done {
                return;
            }
            let batch = s.split_batch();
            if s.done {
                // The others need not wait for room any more.
                shared.room.notify_all();
            }
            if batch.is_empty() {
                return;
            }
            let n = s.taken;
            s.taken += 1;
            (n, batch)
        };
        let results =
            panic::catch_unwind(AssertUnwindSafe(|| batch.into_iter().map(work).collect()));
        let Ok(results) = results else {
            // A game the work could not cope with (a bug): the run ends there, with an
            // error, rather than waiting forever for this batch.
            let mut s = shared.lock();
            s.done = true;
            s.error
                .get_or_insert_with(|| io::Error::other("a worker thread panicked"));
            shared.room.notify_all();
            return;
        };
        if tx.send((n, results)).is_err() {
            return;
        }
    }
}

impl State {
    /// The next batch of games (empty at the end of the stream, which it marks done).
    fn split_batch(&mut self) -> Vec<RawGame> {
        let mut batch = Vec::new();
        let mut bytes = 0;
        while batch.len() < self.batch_games && bytes < BATCH_BYTES {
            if stopped(&self.stop) {
                self.done = true;
                self.interrupted = true;
                break;
            }
            match self.games.next_game() {
                Ok(Some(game)) => {
                    bytes += game.bytes.len();
                    batch.push(game);
                    self.games_split += 1;
                }
                Ok(None) => {
                    self.done = true;
                    self.interrupted = self.games.stopped();
                    break;
                }
                Err(e) => {
                    self.done = true;
                    self.error = Some(e);
                    break;
                }
            }
        }
        self.bytes = self.games.bytes_read();
        batch
    }
}

impl<T> Ordered<T> {
    /// Bytes read from the stream so far.
    pub(crate) fn bytes_read(&self) -> u64 {
        match &self.inner {
            Inner::Here { games, .. } => games.bytes_read(),
            Inner::Threads(t) => t.shared.lock().bytes,
        }
    }

    /// Whether the stop flag ended the stream before its end.
    pub(crate) fn interrupted(&self) -> bool {
        match &self.inner {
            Inner::Here { interrupted, .. } => *interrupted,
            Inner::Threads(t) => t.shared.lock().interrupted,
        }
    }

    /// What the stream could not read while it read the rest (a Parquet file's damaged
    /// row groups), once the iterator has ended (taken once).
    pub(crate) fn take_damage(&mut self) -> Option<Damage> {
        match &mut self.inner {
            Inner::Here { games, .. } => games.take_damage(),
            Inner::Threads(t) => t.shared.lock().games.take_damage(),
        }
    }

    /// The error the stream ended in, once the iterator has ended (taken once).
    pub(crate) fn take_error(&mut self) -> Option<io::Error> {
        match &mut self.inner {
            Inner::Here { error, .. } => error.take(),
            Inner::Threads(t) => t.shared.lock().error.take(),
        }
    }
}

impl<T> Iterator for Ordered<T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        match &mut self.inner {
            Inner::Here {
                games,
                work,
                error,
                done,
                stop,
                interrupted,
            } => {
                if *done {
                    return None;
                }
                if stopped(stop) {
                    *done = true;
                    *interrupted = true;
                    return None;
                }
                match games.next_game() {
                    Ok(Some(game)) => Some(work(game)),
                    Ok(None) => {
                        *done = true;
                        *interrupted = games.stopped();
                        None
                    }
                    Err(e) => {
                        *done = true;
                        *error = Some(e);
                        None
                    }
                }
            }
            Inner::Threads(t) => t.next(),
        }
    }
}

impl<T> Threads<T> {
    fn next(&mut self) -> Option<T> {
        loop {
            if let Some(item) = self.ready.pop_front() {
                return Some(item);
            }
            if let Some(batch) = self.pending.remove(&self.next) {
                self.ready.extend(batch);
                self.next += 1;
                // There is room for one more batch.
                self.shared.consumed.store(self.next, Ordering::Release);
                self.shared.room.notify_all();
                continue;
            }
            match self.results.recv() {
                Ok((n, batch)) => {
                    self.pending.insert(n, batch);
                }
                // Every worker has gone: the stream has ended.
                Err(_) => return None,
            }
        }
    }
}

impl<T> Drop for Threads<T> {
    fn drop(&mut self) {
        // Stop the workers and wait for them: none outlives the run.
        self.shared.lock().done = true;
        self.shared.room.notify_all();
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

impl<T> std::fmt::Debug for Ordered<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ordered").finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    fn splitter(text: String) -> Box<dyn Games> {
        Box::new(crate::stream::GameSplitter::new(io::Cursor::new(
            text.into_bytes(),
        )))
    }

    fn games(n: usize) -> String {
        (0..n)
            .map(|i| format!("[Event \"{i}\"]\n\n1. e4 *\n\n"))
            .collect()
    }

    /// Results come back in input order for any number of jobs.
    #[test]
    fn ordered_for_any_jobs() {
        for jobs in [1, 2, 3, 7] {
            let work: Work<usize> = Arc::new(|g: RawGame| g.number);
            let seen: Vec<usize> =
                Ordered::new(splitter(games(2000)), jobs, work, None, false).collect();
            assert_eq!(seen, (1..=2000).collect::<Vec<_>>(), "jobs {jobs}");
        }
    }

    /// Issue 24.2: while the first game is slow, the workers take at most the window of
    /// batches: the others wait instead of racing ahead and filling memory.
    #[test]
    fn a_slow_game_holds_at_most_the_window() {
        let jobs = 3;
        let started = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&started);
        let work: Work<usize> = Arc::new(move |g: RawGame| {
            counter.fetch_add(1, Ordering::SeqCst);
            if g.number == 1 {
                thread::sleep(Duration::from_millis(300));
            }
            g.number
        });
        // 256 games per batch: the stream holds 40 batches.
        let mut run = Ordered::new(splitter(games(40 * 256)), jobs, work, None, false);
        thread::sleep(Duration::from_millis(150));
        let worked = started.load(Ordering::SeqCst);
        let window = jobs * WINDOW_PER_JOB;
        assert!(
            worked <= window * 256,
            "{worked} games worked on while the first was slow (window {window} batches)"
        );
        assert!(worked > 256, "the other workers went on ({worked})");
        assert_eq!(run.next(), Some(1));
        assert_eq!(run.by_ref().count(), 40 * 256 - 1);
        assert!(run.take_error().is_none());
    }

    /// Dropping the iterator early stops and joins the workers.
    #[test]
    fn dropping_early_stops_the_workers() {
        let work: Work<usize> = Arc::new(|g: RawGame| g.number);
        let mut run = Ordered::new(splitter(games(20_000)), 4, work, None, false);
        assert_eq!(run.next(), Some(1));
        drop(run);
    }
}
