use super::*;
use std::io;

/// The `raw` bytes of each game record of a `validate --all` run over two games, the
/// first legal and the second not.
fn raws(keep: bool) -> Vec<Option<usize>> {
    let pgn = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 Ke7 2. Ke3 *\n";
    let opts = RunOptions {
        jobs: 1,
        ..RunOptions::default()
    };
    let run = Run::new(
        vec![Source::reader("t.pgn", pgn.as_bytes())],
        Task::Validate { all: true },
        opts,
    );
    let run = if keep { run.keep_bytes() } else { run };
    run.filter_map(|r| match r {
        RunRecord::Game(g) => Some(g.raw.map(|raw| raw.number)),
        _ => None,
    })
    .collect()
}

#[test]
fn only_games_with_problems_keep_their_bytes_and_only_when_asked() {
    assert_eq!(raws(true), [None, Some(2)]);
    assert_eq!(raws(false), [None, None]);
}

/// A stream that, once its text is read, sets the stop flag and ends: as standard
/// input read as it comes ends when the run is stopped while it waits.
struct EndsOnStop {
    text: &'static [u8],
    stop: Arc<AtomicBool>,
}

impl io::Read for EndsOnStop {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.text.is_empty() {
            self.stop.store(true, Ordering::Relaxed);
            return Ok(0);
        }
        let n = self.text.len().min(buf.len());
        buf[..n].copy_from_slice(&self.text[..n]);
        self.text = &self.text[n..];
        Ok(n)
    }
}

#[test]
fn a_stream_that_ends_because_the_run_stopped_is_interrupted() {
    let stop = Arc::new(AtomicBool::new(false));
    let reader = EndsOnStop {
        // Blank lines (read when the stream is opened, to tell its compression):
        // the stop comes while the next read waits, and the stream ends with no
        // game begun, as if it had ended on its own.
        text: b"\n\n",
        stop: Arc::clone(&stop),
    };
    let opts = RunOptions {
        jobs: 1,
        stop: Some(stop),
        ..RunOptions::default()
    };
    let records: Vec<_> = Run::new(
        vec![Source::reader("-", reader)],
        Task::Validate { all: false },
        opts,
    )
    .collect();
    let Some(RunRecord::Summary(s)) = records.first() else {
        panic!("a summary first: {records:?}")
    };
    assert!(s.interrupted && !s.complete, "{s:?}");
    assert_eq!(s.games, 0);
}
