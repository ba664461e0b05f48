//! Joining the records of a split run (`--split K/N`, one run per part, maybe on other
//! machines) into those of one run over the whole file: `pocketfen merge` and the
//! Python package's `merge`.
//!
//! Each part numbers its games and lines from 1, and its summary's `split` says where
//! in the file it lies. The parts' records are typed ([`RunRecord`], read back from
//! JSON with serde). A [`Merge`] is made from the parts' summaries, in any order: it
//! checks that they are the parts of one file, unchanged, read with the same options,
//! that each ends where the next begins, and says what to add to the game numbers and
//! lines of each part's records ([`Merge::renumber`]) and what the whole run's summary
//! is ([`Merge::summary`]). A part whose stream broke (or ended in
//! trailing bytes) is where a run over the whole file would have stopped: the parts
//! after it are left out, as their games were never read. (A Parquet part that lost a
//! damaged row group's rows went on past them, as a whole run does: it ends nothing.)
//!
//! ```
//! use pocketfen::run::merge::Merge;
//! use pocketfen::run::record::RunRecord;
//! use pocketfen::run::{Run, RunOptions, Task};
//! use pocketfen::stream::{Source, Split};
//! let dir = std::env::temp_dir().join(format!("pocketfen-merge-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let path = dir.join("games.pgn");
//! let game = |i| format!("[Event \"{i}\"]\n\n1. e4 e5 2. Ke3 *\n\n");
//! std::fs::write(&path, (0..50).map(game).collect::<String>())?;
//! let run = |split| -> Vec<RunRecord> {
//!     let opts = RunOptions { split, jobs: 1, ..RunOptions::default() };
//!     Run::new(vec![Source::path(&path)], Task::Validate { all: false }, opts)
//!         .filter(|r| !matches!(r, RunRecord::Total(_)))
//!         .collect()
//! };
//! let summary = |records: &[RunRecord]| match records.last() {
//!     Some(RunRecord::Summary(s)) => s.clone(),
//!     _ => unreachable!("a run's records end in its summary"),
//! };
//! let parts: Vec<_> = (1..=3).map(|k| run(Some(Split::new(k, 3).unwrap()))).collect();
//! let summaries: Vec<_> = parts.iter().map(|p| summary(p)).collect();
//! let merge = Merge::new(&summaries)?;
//! let mut merged = Vec::new();
//! for (k, part) in parts.into_iter().enumerate().take(merge.parts_used()) {
//!     for mut record in part.into_iter().filter(|r| !matches!(r, RunRecord::Summary(_))) {
//!         merge.renumber(k, &mut record);
//!         merged.push(record);
//!     }
//! }
//! let mut whole = run(None);
//! let RunRecord::Summary(summary) = whole.pop().unwrap() else { unreachable!() };
//! assert_eq!(merged, whole);
//! assert_eq!(merge.summary().totals.games, 50);
//! assert_eq!(merge.summary().totals, summary.totals);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use crate::notation::printable;
use crate::record::SCHEMA_VERSION;
use crate::run::record::{RunRecord, SplitPoint, SplitRecord, SummaryRecord};
use crate::stream::TextBreak;

/// Why parts cannot be merged: which part (1-based, in the order given) and what does
/// not match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeError {
    /// The part's place among those given, from 1.
    pub part: usize,
    /// What is wrong, in a sentence.
    pub message: String,
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "part {} given: {}", self.part, self.message)
    }
}

impl std::error::Error for MergeError {}

/// The parts of a split run, checked, and what their records need to become those of
/// one run. See the [module documentation](self).
#[derive(Debug, Clone)]
pub struct Merge {
    /// Games and lines before each part.
    offsets: Vec<(usize, usize)>,
    used: usize,
    /// The place among those given (from 0) of each part that counts, in part order.
    order: Vec<usize>,
    summary: SummaryRecord,
}

/// A part's summary and its `split`.
#[derive(Clone, Copy)]
struct Part<'a> {
    summary: &'a SummaryRecord,
    split: &'a SplitRecord,
}

impl Part<'_> {
    /// Whether the part broke off: a run over the whole file would have stopped in it.
    /// (Rows lost in a Parquet file's damaged row groups, or breaks in a compressed
    /// text, leave a part incomplete, but its reading went on past them, as a whole
    /// run's does.)
    fn broken(&self) -> bool {
        let s = self.summary;
        let went_on = s.stream_error.is_some() && s.ending_error().is_none() && !s.interrupted;
        (!s.complete && !went_on) || s.trailing_bytes.is_some()
    }
}

/// Builds a [`MergeError`] of the part given at `part` (from 1).
fn err(part: usize, message: String) -> MergeError {
    MergeError { part, message }
}

impl Merge {
    /// Checks the summaries of parts 1 to N of one split run, given in any order: each
    /// part's summary says its number, and the parts are put in order by it
    /// ([`Merge::order`]). A shell's `part-*.jsonl` puts `part-10` before `part-2`.
    ///
    /// # Errors
    ///
    /// The first part that does not fit (by its place among those given): not a part's
    /// summary, a part given twice or missing, a part of another file, of a file that
    /// changed between parts (size, modification time, first bytes, or the bytes where
    /// two parts meet), read with other options, or that does not end where the next
    /// begins.
    pub fn new(summaries: &[SummaryRecord]) -> Result<Merge, MergeError> {
        if summaries.is_empty() {
            return Err(err(0, "no parts to merge".to_owned()));
        }
        let parts = read_parts(summaries)?;
        let order = part_order(&parts)?;
        let parts: Vec<Part<'_>> = order.iter().map(|&i| parts[i]).collect();
        let given = |k: usize| order[k - 1] + 1;
        check_parts(&parts).map_err(|(k, message)| err(given(k), message))?;
        let used = parts_that_meet(&parts).map_err(|(k, message)| err(given(k), message))?;
        let used_parts = &parts[..used];
        let mut offsets = Vec::with_capacity(used);
        let (mut games, mut lines) = (0, 0);
        for p in used_parts {
            offsets.push((games, lines));
            // A game is numbered by its row in a Parquet part, and the text left out at a
            // break in a compressed text takes numbers too: lost games count.
            games += p.summary.totals.games + p.summary.totals.lost;
            lines += p.split.lines;
        }
        let mut order = order;
        order.truncate(used);
        let summary = whole_summary(used_parts, &offsets);
        Ok(Merge {
            offsets,
            used,
            order,
            summary,
        })
    }

    /// How many of the parts count, from part 1: all of them, unless one broke off (a
    /// stream error or trailing bytes, not rows lost in a Parquet file's damaged row
    /// groups), which is then the last.
    pub fn parts_used(&self) -> usize {
        self.used
    }

    /// Where each part that counts was given (its place among the summaries given to
    /// [`Merge::new`], from 0), in part order: part 1's place first. Their records are
    /// renumbered with their place in this list ([`Merge::renumber`]).
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// Makes a record of part `index` (from 0: part 1 is 0) that of the whole run: its
    /// game number and its lines (the game's and its problems') count from the file's
    /// start. Records other than games are left as they are.
    pub fn renumber(&self, index: usize, record: &mut RunRecord) {
        let Some(&(games, lines)) = self.offsets.get(index) else {
            return;
        };
        let (game, line, problems) = match record {
            RunRecord::Game(g) => (
                &mut g.report.number,
                &mut g.report.line,
                &mut g.report.problems,
            ),
            RunRecord::Converted(c) => (&mut c.game, &mut c.line, &mut c.problems),
            RunRecord::Replayed(r) => (&mut r.game, &mut r.line, &mut r.problems),
            RunRecord::Selected(s) => {
                s.game += games;
                s.line += lines;
                return;
            }
            RunRecord::Keyed(k) => {
                k.game += games;
                k.line += lines;
                return;
            }
            RunRecord::Exported(e) => {
                e.game += games;
                e.line += lines;
                if let Some(p) = &mut e.row.first_problem {
                    p.line += lines as u64;
                }
                return;
            }
            RunRecord::Fixed(f) => {
                f.game += games;
                f.line += lines;
                for r in &mut f.repairs {
                    r.line += lines;
                }
                if let Some(p) = &mut f.error {
                    p.line += lines;
                }
                return;
            }
            RunRecord::Summary(_) | RunRecord::Total(_) => return,
        };
        *game += games;
        *line += lines;
        for p in problems {
            p.line += lines;
        }
    }

    /// The summary of the whole run: the parts' counts summed (their seconds too), and
    /// the stream error or trailing bytes of the part that broke off.
    pub fn summary(&self) -> &SummaryRecord {
        &self.summary
    }
}

/// Each summary with its `split`, or the first that is no part's.
fn read_parts(summaries: &[SummaryRecord]) -> Result<Vec<Part<'_>>, MergeError> {
    summaries
        .iter()
        .enumerate()
        .map(|(i, summary)| match &summary.split {
            Some(split) => Ok(Part { summary, split }),
            None => Err(err(
                i + 1,
                match &summary.stream_error {
                    Some(e) => format!("the part could not be read: {e}"),
                    None => format!(
                        "{} was read whole, not as a part: its summary has no `split` (read parts with --split K/N --json)",
                        printable(&summary.file)
                    ),
                },
            )),
        })
        .collect()
}

/// Where each part was given (from 0), in part order; a part given twice is an error.
fn part_order(parts: &[Part<'_>]) -> Result<Vec<usize>, MergeError> {
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by_key(|&i| parts[i].split.part);
    for pair in order.windows(2) {
        let number = parts[pair[1]].split.part;
        if parts[pair[0]].split.part == number {
            let (a, b) = (pair[0].min(pair[1]), pair[0].max(pair[1]));
            return Err(err(
                b + 1,
                format!(
                    "it is part {number}, as part {} given is: each part once",
                    a + 1
                ),
            ));
        }
    }
    Ok(order)
}

/// Checks that the parts, in part order, are parts 1 to N of one unchanged file read
/// with the same options: the first that is not, by its number, and why.
fn check_parts(parts: &[Part<'_>]) -> Result<(), (usize, String)> {
    let first = &parts[0];
    let n = parts.len();
    let of = first.split.of;
    if of != n {
        let mut missing: Vec<String> = (1..=of)
            .filter(|k| !parts.iter().any(|p| p.split.part == *k))
            .map(|k| k.to_string())
            .collect();
        if missing.len() > 10 {
            let more = missing.len() - 10;
            missing.truncate(10);
            missing.push(format!("and {more} more"));
        }
        let missing = if missing.is_empty() {
            String::new()
        } else {
            format!(" (missing: {})", missing.join(", "))
        };
        return Err((
            1,
            format!(
                "the file was split into {of} parts, and {n} are given{missing}: merge needs all of them, 1 to {of}"
            ),
        ));
    }
    for (i, p) in parts.iter().enumerate() {
        let k = i + 1;
        let (part, its_of) = (p.split.part, p.split.of);
        if its_of != of {
            return Err((
                k,
                format!(
                    "it is part {part} of {its_of}, not of {of} as part 1 is: the parts were split differently"
                ),
            ));
        }
        if part != k {
            return Err((
                k,
                format!(
                    "it is part {part} of {of}, and part {k} is missing: merge needs all of them, 1 to {of}"
                ),
            ));
        }
        let t = &p.summary.totals;
        let counts = [
            t.games as u64,
            t.plies,
            t.illegal_games as u64,
            t.error_games as u64,
            t.warnings as u64,
            t.skipped as u64,
            t.lost as u64,
            p.summary.bytes,
        ];
        // (Counts a run writes stay far below 2^53, which no sum of parts overflows.)
        if counts.iter().any(|&n| n > 1 << 53) || t.illegal_games + t.error_games > t.games {
            return Err((
                k,
                "its summary's counts are none a run writes (one above 2^53, or more illegal and unreadable games than games): it was changed".to_owned(),
            ));
        }
        if p.summary.file != first.summary.file {
            return Err((
                k,
                format!(
                    "it is a part of {}, not of {} (part 1)",
                    printable(&p.summary.file),
                    printable(&first.summary.file)
                ),
            ));
        }
        let (a, b) = (p.split, first.split);
        let changed = if a.size != b.size {
            Some((
                "its size",
                format!("{} bytes", a.size),
                format!("{} bytes", b.size),
            ))
        } else if a.modified != b.modified {
            let shown = |m: Option<u64>| m.map_or_else(|| "none".to_owned(), utc);
            Some((
                "its modification time",
                shown(a.modified),
                shown(b.modified),
            ))
        } else if a.head != b.head {
            Some((
                "its first 4 KiB",
                format!("\"{}\"", a.head),
                format!("\"{}\"", b.head),
            ))
        } else {
            None
        };
        if let Some((what, here, there)) = changed {
            return Err((
                k,
                format!(
                    "the file changed between parts: {what} is {here} here and {there} in part 1"
                ),
            ));
        }
        if a.options != b.options {
            return Err((k, "it was read with other options than part 1 (variant, format, strictness, --all, the task or --max-game-bytes): every part needs the same".to_owned()));
        }
    }
    Ok(())
}

/// How many parts count, from part 1: up to the first that broke off, each ending where
/// the next begins. A pair that does not meet is an error, by the number of the part
/// at fault.
fn parts_that_meet(parts: &[Part<'_>]) -> Result<usize, (usize, String)> {
    for (i, pair) in parts.windows(2).enumerate() {
        let (a, b) = (&pair[0], &pair[1]);
        if a.broken() {
            return Ok(i + 1);
        }
        if !a.split.aligned {
            return Err((
                i + 1,
                format!(
                    "its last game does not end where part {} begins (a game or comment runs across the point where they meet): split into another number of parts",
                    i + 2
                ),
            ));
        }
        let (end, start) = (&a.split.end, &b.split.start);
        let meet = match (end, start) {
            (None, None) => b.summary.totals.games == 0,
            (Some(e), Some(s)) => e == s,
            _ => false,
        };
        if !meet {
            let at = |p: &Option<SplitPoint>| match p {
                Some(p) => format!(
                    "byte {} of the file and {} bytes of text on",
                    p.offset, p.skip
                ),
                None => "the end of the file".to_owned(),
            };
            return Err((
                i + 2,
                format!(
                    "it begins at {}, but part {} ended at {}: the parts do not meet (the file changed between them, or they are not of one split)",
                    at(start),
                    i + 1,
                    at(end)
                ),
            ));
        }
    }
    Ok(parts.len())
}

/// What a merged summary's `stream_error` tells, in the file's order.
enum Told {
    Break(TextBreak),
    Error(String),
}

/// The whole file's summary from the parts that count: their counts summed, their
/// seconds too when every part gave them, and how the last one ended.
fn whole_summary(used: &[Part<'_>], offsets: &[(usize, usize)]) -> SummaryRecord {
    let (first, last) = (used[0], used[used.len() - 1]);
    // Each part's breaks in its text and rows lost (a Parquet file's damaged row
    // groups), then how the last one ended: as a whole run tells them, in the file's
    // order. A break is told with the whole file's game numbers and lines.
    let mut told: Vec<Told> = Vec::new();
    for (p, &(games, lines)) in used.iter().zip(offsets) {
        if p.summary.breaks.is_empty() {
            told.extend(p.summary.stream_error.clone().map(Told::Error));
            continue;
        }
        for b in &p.summary.breaks {
            let b = b.shifted(games, lines);
            // A break where one part ends and the next starts is told by both: the game
            // it cut short by the first, the text after it by the second.
            match told.last_mut() {
                Some(Told::Break(last)) if (last.offset, last.length) == (b.offset, b.length) => {
                    debug_assert!(
                        last.rest.is_none() && b.cut.is_none(),
                        "{last:?} then {b:?}"
                    );
                    last.cut = last.cut.or(b.cut);
                    last.rest = last.rest.or(b.rest);
                }
                _ => told.push(Told::Break(b)),
            }
        }
        told.extend(p.summary.ending_error().map(|e| Told::Error(e.to_owned())));
    }
    let errors: Vec<String> = told
        .iter()
        .map(|t| match t {
            Told::Break(b) => b.to_string(),
            Told::Error(e) => e.clone(),
        })
        .collect();
    let breaks: Vec<TextBreak> = told
        .into_iter()
        .filter_map(|t| match t {
            Told::Break(b) => Some(b),
            Told::Error(_) => None,
        })
        .collect();
    let mut totals = crate::game::Totals::default();
    for p in used {
        totals.merge(&p.summary.totals);
    }
    // Timings only when every part gave them (`--timings`).
    let seconds: Option<f64> = used.iter().map(|p| p.summary.seconds).sum();
    SummaryRecord {
        version: SCHEMA_VERSION,
        file: first.summary.file.clone(),
        totals,
        bytes: used.iter().map(|p| p.summary.bytes).sum(),
        seconds: seconds.map(|s| (s * 1000.0).round() / 1000.0),
        complete: used.iter().all(|p| p.summary.complete),
        interrupted: used.iter().any(|p| p.summary.interrupted),
        stream_error: Some(errors.join("; ")).filter(|e| !e.is_empty()),
        trailing_bytes: last.summary.trailing_bytes,
        breaks,
        opened: true,
        ended_early: used.iter().any(|p| p.summary.ended_early),
        compression: first.split.compression,
        split: None,
    }
}

/// A time in nanoseconds since 1970 as a UTC date and time.
fn utc(ns: u64) -> String {
    let secs = ns / 1_000_000_000;
    let (days, rest) = ((secs / 86_400) as i64, secs % 86_400);
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02}.{:03} UTC",
        rest / 3600,
        rest / 60 % 60,
        rest % 60,
        ns / 1_000_000 % 1000
    )
}

/// The text `validate` prints for a `game` record (its problems, one per line, or its
/// `ok` line when it has none), as `merge --text` writes it; none for other records.
pub fn game_text(record: &RunRecord) -> Option<String> {
    let RunRecord::Game(game) = record else {
        return None;
    };
    let file = printable(&game.file);
    let report = &game.report;
    if report.problems.is_empty() {
        return Some(format!("{}\n", report.display_ok_in(&file)));
    }
    let mut out = String::new();
    for p in &report.problems {
        out.push_str(
            &p.display_in(&file, crate::game::GameAt::of(report.number, report.line))
                .to_string(),
        );
        out.push('\n');
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn times_are_shown_as_utc() {
        assert_eq!(super::utc(0), "1970-01-01 00:00:00.000 UTC");
        assert_eq!(
            super::utc(978_307_200_000_000_000),
            "2001-01-01 00:00:00.000 UTC"
        );
        assert_eq!(
            super::utc(951_782_400_000_000_000),
            "2000-02-29 00:00:00.000 UTC"
        );
        assert_eq!(
            super::utc(1_796_130_844_855_272_635),
            "2026-12-01 13:14:04.855 UTC"
        );
        // Century and 400-year boundaries.
        for (secs, date) in [
            (4_102_358_400u64, "2099-12-31"),
            (4_107_456_000, "2100-02-28"),
            (4_107_542_400, "2100-03-01"),
            (7_263_216_000, "2200-03-01"),
            (13_569_379_200, "2399-12-31"),
            (13_574_563_200, "2400-02-29"),
        ] {
            assert_eq!(
                super::utc(secs * 1_000_000_000),
                format!("{date} 00:00:00.000 UTC")
            );
        }
    }
}
