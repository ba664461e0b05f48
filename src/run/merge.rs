//! Joining the records of a split run (`--split K/N`, one run per part, maybe on other
//! machines) into those of one run over the whole file: `pocketfen merge` and the
//! Python package's `merge`.
//!
//! Each part numbers its games and lines from 1, and its summary's `split` says where
//! in the file it lies. A [`Merge`] is made from the parts' summaries, in the order
//! 1 to N: it checks that they are the parts of one file, unchanged, read with the same
//! options, that each ends where the next begins, and says what to add to the game
//! numbers and lines of each part's records ([`Merge::renumber`]) and what the whole
//! run's summary is ([`Merge::summary`]). A part whose stream broke (or ended in
//! trailing bytes) is where a run over the whole file would have stopped: the parts
//! after it are left out, as their games were never read.
//!
//! ```
//! use pocketfen::run::{Run, RunOptions, Task};
//! use pocketfen::stream::{Source, Split};
//! use pocketfen::run::merge::Merge;
//! use pocketfen::run::record::RunRecord;
//! let dir = std::env::temp_dir().join(format!("pocketfen-merge-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let path = dir.join("games.pgn");
//! let game = |i| format!("[Event \"{i}\"]\n\n1. e4 e5 2. Ke3 *\n\n");
//! std::fs::write(&path, (0..50).map(game).collect::<String>())?;
//! let run = |split| -> Vec<serde_json::Value> {
//!     let opts = RunOptions { split, jobs: 1, ..RunOptions::default() };
//!     Run::new(vec![Source::path(&path)], Task::Validate { all: false }, opts)
//!         .filter(|r| !matches!(r, RunRecord::Total(_)))
//!         .map(|r| serde_json::to_value(&r).unwrap())
//!         .collect()
//! };
//! let parts: Vec<_> = (1..=3).map(|k| run(Some(Split::new(k, 3).unwrap()))).collect();
//! let summaries: Vec<_> = parts.iter().map(|p| p.last().unwrap().clone()).collect();
//! let merge = Merge::new(&summaries)?;
//! let mut merged = Vec::new();
//! for (k, part) in parts.into_iter().enumerate().take(merge.parts_used()) {
//!     for mut record in part.into_iter().filter(|r| r["type"] != "summary") {
//!         merge.renumber(k, &mut record);
//!         merged.push(record);
//!     }
//! }
//! let mut whole = run(None);
//! let summary = whole.pop().unwrap();
//! assert_eq!(merged, whole);
//! assert_eq!(merge.summary().games, 50);
//! assert_eq!(merge.summary().illegal_games, summary["illegal_games"].as_u64().unwrap() as usize);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use serde_json::Value;

use crate::game::problem::{OkLine, ProblemLine};
use crate::record::{SCHEMA_VERSION, printable};
use crate::run::record::{SummaryRecord, TrailingRecord};
use crate::stream::Compression;

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
    offsets: Vec<(u64, u64)>,
    used: usize,
    /// The place among those given (from 0) of each part that counts, in part order.
    order: Vec<usize>,
    summary: SummaryRecord,
}

/// A part's summary, read.
struct Part<'a> {
    value: &'a Value,
    split: &'a serde_json::Map<String, Value>,
}

impl Part<'_> {
    fn u64(&self, key: &str) -> u64 {
        self.value.get(key).and_then(Value::as_u64).unwrap_or(0)
    }

    fn split_u64(&self, key: &str) -> Option<u64> {
        self.split.get(key).and_then(Value::as_u64)
    }

    fn str(&self, key: &str) -> &str {
        self.value.get(key).and_then(Value::as_str).unwrap_or("")
    }

    fn broken(&self) -> bool {
        self.value.get("complete") != Some(&Value::Bool(true))
            || self.value.get("trailing_bytes").is_some()
    }
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
    pub fn new(summaries: &[Value]) -> Result<Merge, MergeError> {
        let err = |part: usize, message: String| MergeError { part, message };
        if summaries.is_empty() {
            return Err(err(0, "no parts to merge".to_owned()));
        }
        let mut parts = Vec::with_capacity(summaries.len());
        for (i, value) in summaries.iter().enumerate() {
            if value.get("type").and_then(Value::as_str) != Some("summary") {
                return Err(err(i + 1, "this is no summary record".to_owned()));
            }
            let Some(split) = value.get("split").and_then(Value::as_object) else {
                if let Some(e) = value.get("stream_error").and_then(Value::as_str) {
                    return Err(err(i + 1, format!("the part could not be read: {e}")));
                }
                return Err(err(
                    i + 1,
                    format!(
                        "{} was read whole, not as a part: its summary has no `split` (read parts with --split K/N --json)",
                        printable(value.get("file").and_then(Value::as_str).unwrap_or("?"))
                    ),
                ));
            };
            parts.push(Part { value, split });
        }
        // Parts in order of their numbers; `given(k)` is where part k was given.
        let mut order: Vec<usize> = (0..parts.len()).collect();
        order.sort_by_key(|&i| parts[i].split_u64("part").unwrap_or(0));
        for pair in order.windows(2) {
            let number = parts[pair[1]].split_u64("part").unwrap_or(0);
            if parts[pair[0]].split_u64("part").unwrap_or(0) == number {
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
        let parts: Vec<Part<'_>> = order
            .iter()
            .map(|&i| Part {
                value: parts[i].value,
                split: parts[i].split,
            })
            .collect();
        let given = |k: usize| order[k - 1] + 1;
        let err = |k: usize, message: String| err(given(k), message);
        let first = &parts[0];
        let n = parts.len() as u64;
        let of = first.split_u64("of").unwrap_or(0);
        if of != n {
            let mut missing: Vec<String> = (1..=of)
                .filter(|k| !parts.iter().any(|p| p.split_u64("part") == Some(*k)))
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
            return Err(err(
                1,
                format!(
                    "the file was split into {of} parts, and {n} are given{missing}: merge needs all of them, 1 to {of}"
                ),
            ));
        }
        for (i, p) in parts.iter().enumerate() {
            let k = i + 1;
            let (part, its_of) = (
                p.split_u64("part").unwrap_or(0),
                p.split_u64("of").unwrap_or(0),
            );
            if its_of != of {
                return Err(err(
                    k,
                    format!(
                        "it is part {part} of {its_of}, not of {of} as part 1 is: the parts were split differently"
                    ),
                ));
            }
            if part != k as u64 {
                return Err(err(
                    k,
                    format!(
                        "it is part {part} of {of}, and part {k} is missing: merge needs all of them, 1 to {of}"
                    ),
                ));
            }
            if p.str("file") != first.str("file") {
                return Err(err(
                    k,
                    format!(
                        "it is a part of {}, not of {} (part 1)",
                        printable(p.str("file")),
                        printable(first.str("file"))
                    ),
                ));
            }
            for (key, what) in [
                ("size", "its size"),
                ("modified", "its modification time"),
                ("head", "its first 4 KiB"),
            ] {
                if p.split.get(key) != first.split.get(key) {
                    let shown = |v: Option<&Value>| match v.and_then(Value::as_u64) {
                        Some(ns) if key == "modified" => utc(ns),
                        Some(n) if key == "size" => format!("{n} bytes"),
                        _ => v.map_or_else(|| "none".to_owned(), Value::to_string),
                    };
                    return Err(err(
                        k,
                        format!(
                            "the file changed between parts: {what} is {} here and {} in part 1",
                            shown(p.split.get(key)),
                            shown(first.split.get(key))
                        ),
                    ));
                }
            }
            if p.split.get("options") != first.split.get("options") {
                return Err(err(k, "it was read with other options than part 1 (variant, format, strictness, --all, the task or --max-game-bytes): every part needs the same".to_owned()));
            }
        }
        // The parts meet: each ends where the next begins.
        let mut used = parts.len();
        for (i, pair) in parts.windows(2).enumerate() {
            let (a, b) = (&pair[0], &pair[1]);
            if a.broken() {
                used = i + 1;
                break;
            }
            if a.split.get("aligned") != Some(&Value::Bool(true)) {
                return Err(err(
                    i + 1,
                    format!(
                        "its last game does not end where part {} begins (a game or comment runs across the point where they meet): split into another number of parts",
                        i + 2
                    ),
                ));
            }
            let (end, start) = (a.split.get("end"), b.split.get("start"));
            let meet = match (end, start) {
                (Some(Value::Null) | None, Some(Value::Null) | None) => b.u64("games") == 0,
                (Some(e), Some(s)) => e == s,
                _ => false,
            };
            if !meet {
                let at = |v: Option<&Value>| match v {
                    Some(Value::Object(o)) => format!(
                        "byte {} of the file and {} bytes of text on",
                        o.get("offset").map_or("?".into(), Value::to_string),
                        o.get("skip").map_or("?".into(), Value::to_string)
                    ),
                    _ => "the end of the file".to_owned(),
                };
                return Err(err(
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
        let used_parts = &parts[..used];
        let mut offsets = Vec::with_capacity(used);
        let (mut games, mut lines) = (0u64, 0u64);
        for p in used_parts {
            offsets.push((games, lines));
            games += p.u64("games");
            lines += p.split_u64("lines").unwrap_or(0);
        }
        let sum = |key: &str| used_parts.iter().map(|p| p.u64(key)).sum::<u64>();
        // Timings only when every part gave them (`--timings`).
        let seconds: Option<f64> = used_parts
            .iter()
            .map(|p| p.value.get("seconds").and_then(Value::as_f64))
            .sum();
        let last = &used_parts[used - 1];
        let trailing = last.value.get("trailing_bytes").and_then(|t| {
            Some(TrailingRecord {
                offset: t.get("offset")?.as_u64()?,
                length: t.get("length")?.as_u64()?,
                zero_padding: t.get("zero_padding")?.as_bool()?,
            })
        });
        let compression = match first.split.get("compression").and_then(Value::as_str) {
            Some("zstd") => Compression::Zstd,
            Some("gzip") => Compression::Gzip,
            Some("bzip2") => Compression::Bzip2,
            _ => Compression::None,
        };
        let summary = SummaryRecord {
            version: SCHEMA_VERSION,
            file: first.str("file").to_owned(),
            games: sum("games") as usize,
            plies: sum("plies"),
            illegal_games: sum("illegal_games") as usize,
            error_games: sum("error_games") as usize,
            warnings: sum("warnings") as usize,
            bytes: sum("bytes"),
            seconds: seconds.map(|s| (s * 1000.0).round() / 1000.0),
            complete: used_parts
                .iter()
                .all(|p| p.value.get("complete") == Some(&Value::Bool(true))),
            interrupted: used_parts
                .iter()
                .any(|p| p.value.get("interrupted") == Some(&Value::Bool(true))),
            stream_error: last
                .value
                .get("stream_error")
                .and_then(Value::as_str)
                .map(str::to_owned),
            trailing_bytes: trailing,
            opened: true,
            compression,
            split: None,
        };
        order.truncate(used);
        Ok(Merge {
            offsets,
            used,
            order,
            summary,
        })
    }

    /// How many of the parts count, from part 1: all of them, unless one broke off (a
    /// stream error or trailing bytes), which is then the last.
    pub fn parts_used(&self) -> usize {
        self.used
    }

    /// Where each part that counts was given (its place among the summaries given to
    /// [`Merge::new`], from 0), in part order: part 1's place first. Their records are
    /// renumbered with their place in this list ([`Merge::renumber`]).
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// Makes a record of part `index` (from 0: part 1 is 0) that of the whole run: its game number
    /// and its lines (the game's and its problems') count from the file's start.
    /// Records other than games (`game`, `converted`, `replayed`) are left as they are.
    pub fn renumber(&self, index: usize, record: &mut Value) {
        let Some(&(games, lines)) = self.offsets.get(index) else {
            return;
        };
        let is_game = matches!(
            record.get("type").and_then(Value::as_str),
            Some("game" | "converted" | "replayed")
        );
        if !is_game {
            return;
        }
        let add = |v: &mut Value, by: u64| {
            if let Some(n) = v.as_u64() {
                *v = Value::from(n + by);
            }
        };
        if let Some(v) = record.get_mut("game") {
            add(v, games);
        }
        if let Some(v) = record.get_mut("line") {
            add(v, lines);
        }
        if let Some(Value::Array(problems)) = record.get_mut("problems") {
            for p in problems {
                if let Some(v) = p.get_mut("line") {
                    add(v, lines);
                }
            }
        }
    }

    /// The summary of the whole run: the parts' counts summed (their seconds too), and
    /// the stream error or trailing bytes of the part that broke off.
    pub fn summary(&self) -> &SummaryRecord {
        &self.summary
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
pub fn game_text(record: &Value) -> Option<String> {
    if record.get("type").and_then(Value::as_str) != Some("game") {
        return None;
    }
    let file = printable(record.get("file")?.as_str()?).into_owned();
    let number = |v: &Value, key: &str| v.get(key).and_then(Value::as_u64).unwrap_or(0) as usize;
    let game = number(record, "game");
    let problems = record.get("problems")?.as_array()?;
    if problems.is_empty() {
        let line = OkLine {
            file: &file,
            line: number(record, "line"),
            game,
            variant: record.get("variant").and_then(Value::as_str).unwrap_or("?"),
            plies: number(record, "plies"),
        };
        return Some(format!("{line}\n"));
    }
    let mut out = String::new();
    for p in problems {
        let text = |key: &str| p.get(key).and_then(Value::as_str);
        let line = ProblemLine {
            file: &file,
            line: number(p, "line"),
            column: number(p, "column"),
            game,
            ply: p.get("ply").and_then(Value::as_u64).map(|n| n as usize),
            token: text("token"),
            severity: text("severity"),
            kind: text("kind").unwrap_or("?"),
            reason: text("reason").unwrap_or(""),
        };
        out.push_str(&line.to_string());
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
