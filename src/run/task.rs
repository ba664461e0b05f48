//! What a run does with each game: each task turns a game into its record, on the
//! workers, in one place ([`Task::work`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::pipeline::Work;
use super::record::{
    ConvertedRecord, ExportedRecord, FixedRecord, GameRecord, KeyedRecord, OpeningRecord,
    ReplayedRecord, RunRecord, SelectedRecord,
};
use crate::game::{
    Converted, DedupeBy, FixOptions, FixVerdict, GameReport, Options, PlyText, Rewrite, RowOptions,
    Selection, Totals, classify_game, convert_game, fix_game, game_key, game_rows,
    replay_annotated, replay_game, select_game, validate_game,
};
use crate::position::Severity;
use crate::stream::RawGame;

/// What a run does with each game.
#[derive(Debug, Clone)]
pub enum Task {
    /// `validate`: a [`RunRecord::Game`](super::RunRecord::Game) for each game with problems (each game when `all`).
    Validate {
        /// Every game gets a record, not only those with problems.
        all: bool,
    },
    /// `pgn convert`: a [`RunRecord::Converted`](super::RunRecord::Converted) for each game.
    Convert {
        /// The site, drop style and layout to write the games in.
        to: Arc<Rewrite>,
        /// A game `validate` refuses is handed back unchanged (its bytes in the
        /// record's `raw`) instead of left out.
        keep_broken: bool,
    },
    /// `replay`: a [`RunRecord::Replayed`](super::RunRecord::Replayed) for each game.
    Replay {
        /// What each ply's text is.
        text: PlyText,
        /// Each ply's annotations too (the record's `annotations`).
        annotations: bool,
    },
    /// `pgn select` and `pgn split`: a [`RunRecord::Selected`](super::RunRecord::Selected) for each game, its bytes
    /// with it, and whether it meets the selection; with a [`Rewrite`], each chosen game
    /// rewritten too (in the record's `text`; a game that does not replay keeps only its
    /// bytes).
    Select(Arc<Selection>, Option<Arc<Rewrite>>),
    /// `export`: a [`RunRecord::Exported`](super::RunRecord::Exported) for each game, its
    /// table rows.
    Export {
        /// Which rows besides the game's.
        rows: RowOptions,
    },
    /// `pgn dedupe`: a [`RunRecord::Keyed`](super::RunRecord::Keyed) for each game, its bytes with it, and its key
    /// ([`game_key`](crate::game::game_key)).
    Dedupe {
        /// What makes two games the same.
        by: DedupeBy,
    },
    /// `pgn fix`: a [`RunRecord::Fixed`](super::RunRecord::Fixed) for each game, its
    /// bytes with it, and its repairs ([`fix_game`](crate::game::fix_game)).
    Fix {
        /// The repairs asked for besides the known faults.
        fix: FixOptions,
    },
}

/// What a worker hands back for a game: its record (none for a game `validate` has
/// nothing to say of) and what it adds to the archive's counts.
pub(crate) struct Worked {
    pub(crate) record: Option<RunRecord>,
    pub(crate) counts: Totals,
}

/// One game's counts.
fn counts(report: &GameReport) -> Totals {
    let mut counts = Totals::default();
    counts.add(report);
    counts
}

impl Task {
    /// The work of the task on one game of the archive `file`, read under `opts`;
    /// `keep_bytes` says whether `validate` keeps the bytes of a game with problems.
    pub(crate) fn work(
        &self,
        file: &str,
        opts: Options,
        keep_bytes: &Arc<AtomicBool>,
        openings: bool,
    ) -> Work<Worked> {
        let file: Arc<str> = Arc::from(file);
        match self.clone() {
            Task::Validate { all } => {
                let keep = Arc::clone(keep_bytes);
                Arc::new(move |g: RawGame| {
                    let (report, opening) = if openings {
                        let (report, named) = classify_game(&g, &opts);
                        (report, named.map(OpeningRecord::from))
                    } else {
                        (validate_game(&g, &opts), None)
                    };
                    if !all && report.problems.is_empty() {
                        return Worked {
                            record: None,
                            counts: counts(&report),
                        };
                    }
                    let raw =
                        (!report.problems.is_empty() && keep.load(Ordering::Relaxed)).then_some(g);
                    let counts = counts(&report);
                    let record = RunRecord::Game(GameRecord {
                        file: file.to_string(),
                        report,
                        opening,
                        raw,
                    });
                    Worked {
                        record: Some(record),
                        counts,
                    }
                })
            }
            Task::Convert { to, keep_broken } => Arc::new(move |g: RawGame| {
                let converted = convert_game(&g, &to, &opts);
                // A game over the size limit has no bytes to copy: it is refused whatever
                // `keep_broken` says, and its record says so (no `raw`).
                let (report, text, refused) = match converted {
                    Converted::Game(text, report) => (report, text, false),
                    Converted::Refused(report) => (report, String::new(), true),
                };
                let raw = (keep_broken && g.too_large.is_none() && refused).then_some(g);
                let counts = counts(&report);
                let record = RunRecord::Converted(ConvertedRecord {
                    file: file.to_string(),
                    game: report.number,
                    line: report.line,
                    text,
                    refused,
                    problems: report.problems,
                    raw,
                });
                Worked {
                    record: Some(record),
                    counts,
                }
            }),
            Task::Replay { text, annotations } => Arc::new(move |g: RawGame| {
                let mut plies = String::new();
                let mut line = |line: &str| {
                    plies.push_str(line);
                    plies.push('\n');
                };
                let (mut report, mut notes) = if annotations {
                    replay_annotated(&g, &opts, text, &mut line)
                } else {
                    (replay_game(&g, &opts, text, &mut line), Vec::new())
                };
                if notes.iter().all(Option::is_none) {
                    notes.clear();
                }
                let counts = counts(&report);
                report.problems.retain(|p| p.severity == Severity::Error);
                let record = RunRecord::Replayed(ReplayedRecord {
                    file: file.to_string(),
                    game: report.number,
                    line: report.line,
                    text: plies,
                    annotations: notes,
                    problems: report.problems,
                });
                Worked {
                    record: Some(record),
                    counts,
                }
            }),
            Task::Select(sel, rewrite) => Arc::new(move |g: RawGame| {
                let chosen = select_game(&g, &sel, &opts);
                let text = match (&rewrite, chosen.selected) {
                    (Some(r), true) => match convert_game(&g, r, &opts) {
                        Converted::Game(text, _) => Some(text),
                        Converted::Refused(_) => None,
                    },
                    _ => None,
                };
                let counts = counts(&chosen.report);
                let record = RunRecord::Selected(SelectedRecord {
                    file: file.to_string(),
                    game: g.number,
                    line: g.line,
                    selected: chosen.selected,
                    captured: chosen.captured,
                    text,
                    raw: g,
                    tags_present: chosen.tags_present,
                    tag_names: chosen.tag_names,
                });
                Worked {
                    record: Some(record),
                    counts,
                }
            }),
            Task::Export { rows } => Arc::new(move |g: RawGame| {
                let made = game_rows(&g, &opts, rows);
                let counts = counts(&made.report);
                Worked {
                    record: Some(RunRecord::Exported(Box::new(ExportedRecord {
                        file: file.to_string(),
                        game: made.report.number,
                        line: made.report.line,
                        row: made.game,
                        plies: made.plies,
                        fens: made.fens,
                        too_large: g.too_large,
                    }))),
                    counts,
                }
            }),
            Task::Dedupe { by } => Arc::new(move |g: RawGame| {
                let (key, report) = game_key(&g, by, &opts);
                let record = RunRecord::Keyed(KeyedRecord {
                    file: file.to_string(),
                    game: g.number,
                    line: g.line,
                    key,
                    raw: g,
                });
                Worked {
                    record: Some(record),
                    counts: counts(&report),
                }
            }),
            Task::Fix { fix } => Arc::new(move |g: RawGame| {
                let fixed = fix_game(&g, fix, &opts);
                let error = (fixed.verdict == FixVerdict::Unrepaired)
                    .then(|| {
                        fixed
                            .report
                            .problems
                            .iter()
                            .find(|p| p.severity == Severity::Error)
                            .cloned()
                    })
                    .flatten();
                let record = RunRecord::Fixed(Box::new(FixedRecord {
                    file: file.to_string(),
                    game: g.number,
                    line: g.line,
                    verdict: fixed.verdict,
                    repairs: fixed.repairs,
                    text: fixed.text,
                    error,
                    raw: g,
                }));
                Worked {
                    record: Some(record),
                    counts: counts(&fixed.report),
                }
            }),
        }
    }
}
