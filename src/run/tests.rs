use super::*;
use std::io;

/// The `raw` bytes of each game record of a `validate --all` run over two games, the
/// first legal and the second not.
fn raws(keep: bool) -> Vec<Option<usize>> {
    let pgn = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 Ke7 2. Ke3 *\n";
    let opts = RunOptions {
        jobs: 1,
        keep_bytes: keep,
        ..RunOptions::default()
    };
    let run = Run::new(
        vec![Source::reader("t.pgn", pgn.as_bytes())],
        Task::Validate { all: true },
        opts,
    );
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
    assert_eq!(s.totals.games, 0);
}

/// Every record a run gives reads back from its JSON as the same record, and writes the
/// same JSON again (what `merge` relies on): games of every task, with problems of many
/// kinds, replayed plies, keys, summaries of a part and of a whole file, and the total.
#[cfg(feature = "serde")]
#[test]
fn records_read_back_from_their_json_unchanged() {
    let mut paths = vec![std::path::PathBuf::from(
        "samples/lichess_zh_2017_knightvuillaume-JannLee.pgn",
    )];
    for dir in ["grammar-tests/pgn/err", "grammar-tests/bpgn/err"] {
        paths.extend(crate::stream::archives_under(std::path::Path::new(dir)).unwrap());
    }
    assert!(paths.len() > 20, "the samples are there: {paths:?}");
    let tasks = [
        Task::Validate { all: true },
        Task::Convert {
            to: Arc::new(crate::game::Rewrite {
                target: crate::game::Target::Xboard,
                style: crate::notation::san::DropStyle::Bare,
                layout: Default::default(),
            }),
            keep_broken: true,
        },
        Task::Replay {
            text: crate::game::PlyText::Uci,
            annotations: true,
        },
        Task::Dedupe {
            by: crate::game::DedupeBy::Moves,
        },
    ];
    let mut kinds = std::collections::BTreeSet::new();
    for task in tasks {
        for split in [None, Some(crate::stream::Split::new(1, 2).unwrap())] {
            let opts = RunOptions {
                jobs: 1,
                split,
                timings: true,
                ..RunOptions::default()
            };
            let sources = paths.iter().map(Source::path).collect();
            for record in Run::new(sources, task.clone(), opts) {
                let json = serde_json::to_string(&record).unwrap();
                let back: RunRecord = serde_json::from_str(&json)
                    .unwrap_or_else(|e| panic!("{json} does not read back: {e}"));
                assert_eq!(serde_json::to_string(&back).unwrap(), json);
                // What JSON leaves out (bytes kept for the report, the compression) is
                // all that differs.
                let comparable = |r: &RunRecord| -> RunRecord {
                    let mut r = r.clone();
                    match &mut r {
                        RunRecord::Game(g) => g.raw = None,
                        RunRecord::Converted(c) => c.raw = None,
                        RunRecord::Keyed(k) => k.raw = Default::default(),
                        RunRecord::Summary(s) => s.compression = crate::stream::Compression::None,
                        _ => {}
                    }
                    r
                };
                assert_eq!(comparable(&back), comparable(&record), "{json}");
                kinds.insert(json.split('"').nth(3).unwrap().to_owned());
            }
        }
    }
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        ["converted", "game", "keyed", "replayed", "summary", "total"]
    );
}
