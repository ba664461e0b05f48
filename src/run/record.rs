//! The records of archive runs ([`RunRecord`]): each game's, each archive's summary, a
//! split part's, the run's total. With the `serde` feature they serialize to the JSON
//! Lines of `--json` (schema version [`SCHEMA_VERSION`]), and in Python to the same dicts.

#[cfg(feature = "serde")]
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::game::{GameProblem, GameReport, Totals};
pub use crate::record::SCHEMA_VERSION;
use crate::stream::{Compression, RawGame, TextBreak, Trailing};

/// Bytes after the end of a compressed stream, read past.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct TrailingRecord {
    /// Their offset in the compressed file.
    pub offset: u64,
    /// How many.
    pub length: u64,
    /// Whether all are zero.
    pub zero_padding: bool,
}

impl From<&Trailing> for TrailingRecord {
    fn from(t: &Trailing) -> TrailingRecord {
        TrailingRecord {
            offset: t.offset,
            length: t.len,
            zero_padding: t.zeros,
        }
    }
}

/// A game of an archive run.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct GameRecord {
    /// The archive's name (`<stdin>` for standard input).
    pub file: String,
    /// The game's report: its number (`game`), first line, variant, plies, status,
    /// bughouse Result reading and problems.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub report: GameReport,
    /// The game's opening as Lichess names it, when the run names openings
    /// ([`RunOptions::openings`](crate::run::RunOptions::openings)) and one is named.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub opening: Option<OpeningRecord>,
    /// The game's bytes, when the run keeps them (for the HTML report's cards).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub raw: Option<RawGame>,
}

/// A game's opening in a record: its ECO code, its name, and the ply whose position is
/// named ([`crate::opening::Named`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct OpeningRecord {
    /// ECO code (`B50`).
    pub eco: String,
    /// Name (`Sicilian Defense: Modern Variations`).
    pub name: String,
    /// The ply (1 = after White's first move) whose position is named.
    pub ply: usize,
}

impl From<crate::opening::Named> for OpeningRecord {
    fn from(n: crate::opening::Named) -> OpeningRecord {
        OpeningRecord {
            eco: n.eco.to_owned(),
            name: n.name.to_owned(),
            ply: n.ply,
        }
    }
}

/// A game of `pgn convert`: its text in the target's conventions, or the reason it was
/// left out (or copied through unchanged).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct ConvertedRecord {
    /// The archive's name.
    pub file: String,
    /// 1-based number of the game.
    pub game: usize,
    /// Its first line.
    pub line: usize,
    /// The game as written for the target; the input unchanged for a refused game kept
    /// with `keep_broken`; empty for one left out.
    pub text: String,
    /// Whether `validate` refused it (`text` is then the input or nothing).
    pub refused: bool,
    /// What `validate` said of it: the warnings of a converted game, the errors of a
    /// refused one.
    pub problems: Vec<GameProblem>,
    /// A refused game's bytes, unchanged, when the run keeps broken games.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub raw: Option<RawGame>,
}

/// A game of `replay`: the text of each mainline ply, as far as it replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct ReplayedRecord {
    /// The archive's name.
    pub file: String,
    /// 1-based number of the game.
    pub game: usize,
    /// Its first line.
    pub line: usize,
    /// One line per mainline ply, each ended by `\n`: the FEN after it, its SAN or its
    /// UCI (`A `/`B ` first in a bughouse match). Serialized as the list `plies`.
    #[cfg_attr(
        feature = "serde",
        serde(
            rename = "plies",
            serialize_with = "lines_as_list",
            deserialize_with = "list_as_lines"
        )
    )]
    pub text: String,
    /// Each ply's annotations (its comments' `[%clk]`, `[%eval]`, `[%cal]` …), one entry
    /// per ply, `None` for a ply without any; empty when no ply has any, or when they
    /// were not asked for. In JSON a list beside `plies` (`null` for a ply without),
    /// absent when empty.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub annotations: Vec<Option<crate::game::Annotations>>,
    /// Its errors (the replay stopped at the first).
    pub problems: Vec<GameProblem>,
}

impl ReplayedRecord {
    /// Each ply's text.
    pub fn plies(&self) -> impl Iterator<Item = &str> {
        self.text.lines()
    }
}

/// Lines as a list of strings.
#[cfg(feature = "serde")]
fn lines_as_list<S: Serializer>(text: &str, s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(text.lines())
}

/// A list of strings as lines, each ended by `\n`.
#[cfg(feature = "serde")]
fn list_as_lines<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let lines = Vec::<String>::deserialize(d)?;
    let mut text = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
    for line in lines {
        text.push_str(&line);
        text.push('\n');
    }
    Ok(text)
}

/// A game of `pgn select` or `pgn split`: whether it meets the selection, and its bytes.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct SelectedRecord {
    /// The archive's name.
    pub file: String,
    /// 1-based number of the game in its archive.
    pub game: usize,
    /// 1-based line of its first byte.
    pub line: usize,
    /// Whether it meets every criterion.
    pub selected: bool,
    /// The value of the tag the selection captures (`--by-tag`), when the game has it.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub captured: Option<String>,
    /// The game rewritten, when the selection rewrites its games and this one replays.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub text: Option<String>,
    /// The game exactly as it was in the input (not serialized).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub raw: RawGame,
    /// Which tag criteria name a tag the game has (see
    /// [`crate::game::Chosen::tags_present`]; not serialized).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub tags_present: u64,
    /// The names of the game's tags, when sampled (see
    /// [`crate::game::Chosen::tag_names`]; not serialized).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub tag_names: Option<String>,
}

/// A game of `pgn dedupe`: its key (see [`crate::game::game_key`]) and its bytes.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct KeyedRecord {
    /// The archive's name.
    pub file: String,
    /// 1-based number of the game in its archive.
    pub game: usize,
    /// 1-based line of its first byte.
    pub line: usize,
    /// The 128-bit key of its start, main line (and roster).
    #[cfg_attr(
        feature = "serde",
        serde(serialize_with = "hex128", deserialize_with = "from_hex128")
    )]
    pub key: u128,
    /// The game exactly as it was in the input (not serialized).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub raw: RawGame,
}

#[cfg(feature = "serde")]
fn hex128<S: Serializer>(k: &u128, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{k:032x}"))
}

#[cfg(feature = "serde")]
fn from_hex128<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
    let hex = String::deserialize(d)?;
    u128::from_str_radix(&hex, 16)
        .map_err(|e| serde::de::Error::custom(format!("a key is 32 hex digits, not `{hex}`: {e}")))
}

/// The end of one archive of a run.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct SummaryRecord {
    /// The schema version.
    pub version: u32,
    /// The archive's name.
    pub file: String,
    /// Its games, plies, invalid games and warnings (serialized as fields of the record).
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub totals: Totals,
    /// Bytes of text read (decompressed).
    pub bytes: u64,
    /// Seconds the archive took, when the run gives timings
    /// ([`RunOptions::timings`](crate::run::RunOptions::timings)).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub seconds: Option<f64>,
    /// Whether the whole archive was read (no stream error, not interrupted).
    pub complete: bool,
    /// Whether the run was stopped before the end of the archive
    /// ([`RunOptions::stop`](crate::run::RunOptions::stop)).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "std::ops::Not::not")
    )]
    pub interrupted: bool,
    /// Why the stream ended early, or could not be opened.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub stream_error: Option<String>,
    /// Bytes after the last complete compressed frame, read past.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub trailing_bytes: Option<TrailingRecord>,
    /// Where the text broke: each damaged frame stepped over (pzstd's zstd frames, as
    /// Lichess's database files hold them), and what was left out around it; each is in
    /// `stream_error` too, and the games left out are counted `lost`.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub breaks: Vec<TextBreak>,
    /// Whether the archive could be opened (`stream_error` says why not); not serialized
    /// (a summary read back counts as opened).
    #[cfg_attr(feature = "serde", serde(skip, default = "opened"))]
    pub opened: bool,
    /// Whether an error ended the stream before its end (damage that reading went on
    /// past does not count); not serialized (false in a summary read back, whose
    /// [`ending_error`](SummaryRecord::ending_error) tells it).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub ended_early: bool,
    /// The archive's compression (not serialized: the text summary names it; `none` in a
    /// summary read back).
    #[cfg_attr(feature = "serde", serde(skip, default = "no_compression"))]
    pub compression: Compression,
    /// Which part of its file this run read (`--split K/N`), and where it lies: what
    /// [`merge`](crate::run::merge) checks.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub split: Option<SplitRecord>,
}

/// The text lost at a summary's breaks beyond the games counted `lost`, as far as the
/// damaged frames' headers tell ([`SummaryRecord::text_lost`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LostText {
    /// Its bytes.
    pub bytes: u64,
    /// Whether that is the count (every frame's header gave its size), else at most it
    /// (pzstd's frames hold at most four windows of text).
    pub exact: bool,
    /// The damaged frames whose headers tell nothing of their text (not counted).
    pub untold: usize,
    /// About how many games it held, at the text read's bytes a game; with that size.
    pub games: Option<(u64, u64)>,
}

impl std::fmt::Display for LostText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The games are an estimate at the average size, not a bound: a bound on the
        // bytes is none on the games when the lost ones are smaller than the average.
        let bytes = if self.exact { "" } else { "up to " };
        write!(f, "{bytes}{} bytes of text", self.bytes)?;
        if let Some((n, size)) = self.games {
            write!(
                f,
                " (about {n} game{}, the text read averaging {size} bytes a game)",
                if n == 1 { "" } else { "s" }
            )?;
        }
        if self.untold > 0 {
            write!(
                f,
                ", besides the text of {} damaged frame{} whose size is not told",
                self.untold,
                if self.untold == 1 { "" } else { "s" }
            )?;
        }
        Ok(())
    }
}

impl SummaryRecord {
    /// The text lost at the breaks beyond the games counted `lost`: what the damaged
    /// frames held after their damage, as far as their headers tell (`None` when no
    /// header tells it, or the frames' text was all read).
    pub fn text_lost(&self) -> Option<LostText> {
        let told: Vec<(u64, bool)> = self
            .breaks
            .iter()
            .filter_map(TextBreak::text_lost)
            .collect();
        let bytes = told.iter().fold(0u64, |sum, l| sum.saturating_add(l.0));
        if bytes == 0 {
            return None;
        }
        let games = self.totals.games as u64;
        let size = (games > 0 && self.bytes > 0).then(|| self.bytes.div_ceil(games));
        Some(LostText {
            bytes,
            exact: told.iter().all(|l| l.1),
            untold: self.breaks.len() - told.len(),
            games: size.map(|size| (bytes.saturating_add(size / 2) / size, size)),
        })
    }

    /// The error that ended the stream before its end, if one did: `stream_error` less
    /// the damage that reading went on past (the breaks in a compressed text, which
    /// `stream_error` names first; a Parquet file's damaged row groups, whose rows are
    /// `lost`).
    pub fn ending_error(&self) -> Option<&str> {
        let e = self.stream_error.as_deref()?;
        if self.breaks.is_empty() {
            return (self.totals.lost == 0).then_some(e);
        }
        let own = self
            .breaks
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ");
        match e.strip_prefix(own.as_str()) {
            Some(rest) => Some(rest.trim_start_matches("; ")).filter(|r| !r.is_empty()),
            None => Some(e),
        }
    }
}

#[cfg(feature = "serde")]
fn opened() -> bool {
    true
}

#[cfg(feature = "serde")]
fn no_compression() -> Compression {
    Compression::None
}

/// Where one part of a split archive lies in its file, and what it read past its end
/// (the `split` of a part's `summary`). Parts that meet agree: part K's `end` is part
/// K+1's `start`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct SplitRecord {
    /// The part, from 1.
    pub part: usize,
    /// The number of parts.
    pub of: usize,
    /// The file's size in bytes.
    pub size: u64,
    /// The file's modification time, in nanoseconds since 1970 (none for a stream).
    pub modified: Option<u64>,
    /// A fingerprint of the file's first 4 KiB (hex).
    pub head: String,
    /// The file's compression.
    pub compression: Compression,
    /// Where the part's first game is (none: no game starts in it).
    pub start: Option<SplitPoint>,
    /// Where the next part's first game is, up to which this part read (none: this
    /// part read to the end of the file).
    pub end: Option<SplitPoint>,
    /// Whether the game before `end` ended there (`false`: the parts cannot be merged).
    pub aligned: bool,
    /// Lines read, from the part's first game up to `end`: the next part's line 1 is
    /// the whole file's line `lines + 1` after the parts before.
    pub lines: usize,
    /// A fingerprint of the options the part was read with (hex).
    pub options: String,
    /// The part is row groups of a Parquet file (those that start in its bytes), not text.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "std::ops::Not::not")
    )]
    pub row_groups: bool,
}

/// A game's place in a split file: the byte of the file (a frame's first when it is
/// compressed) from which the part's text is read, how many bytes of that text come
/// before the game, and a fingerprint of the file's 4 KiB at `offset` (hex).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct SplitPoint {
    /// The file's byte where the part's text starts.
    pub offset: u64,
    /// Bytes of text before the game.
    pub skip: u64,
    /// A fingerprint of the file's 4 KiB at `offset`.
    pub print: String,
}

/// The end of a run over several archives: their sums.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct TotalRecord {
    /// The schema version.
    pub version: u32,
    /// Archives read.
    pub files: usize,
    /// Their games, plies, invalid games and warnings (serialized as fields of the
    /// record).
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub totals: Totals,
    /// Bytes of text read.
    pub bytes: u64,
    /// Seconds the run took, when it gives timings.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub seconds: Option<f64>,
    /// Whether every archive was read whole (and the run was not interrupted).
    pub complete: bool,
    /// Whether the run was stopped before the end of its input.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "std::ops::Not::not")
    )]
    pub interrupted: bool,
}

/// A game of `export`: its row of the games table and its rows of the plies table.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportedRecord {
    /// The archive's name.
    pub file: String,
    /// 1-based number of the game.
    pub game: usize,
    /// Its first line.
    pub line: usize,
    /// The game's row.
    pub row: crate::game::GameRow,
    /// A row per mainline ply, when asked for.
    pub plies: Vec<crate::game::PlyRow>,
    /// The FEN after each ply, when asked for.
    pub fens: crate::game::Fens,
    /// The size of a game over the size limit, which was skipped unread.
    pub too_large: Option<u64>,
}

/// A game of `pgn fix`: what became of it, its repairs, and its bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct FixedRecord {
    /// The archive's name.
    pub file: String,
    /// 1-based number of the game.
    pub game: usize,
    /// Its first line.
    pub line: usize,
    /// What became of it.
    pub verdict: crate::game::FixVerdict,
    /// The repairs made (tried, with [`crate::game::FixVerdict::Unrepaired`]).
    pub repairs: Vec<crate::game::Repair>,
    /// The repaired game ([`crate::game::FixVerdict::Repaired`]).
    pub text: Option<String>,
    /// The first error of a game left as it was ([`crate::game::FixVerdict::Unrepaired`]).
    pub error: Option<crate::game::GameProblem>,
    /// The game exactly as it was in the input.
    pub raw: RawGame,
}

/// A record of an archive run ([`crate::run::Run`]), in input order: the games of
/// each archive, then its summary; a total at the end of the run.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize, Deserialize),
    serde(tag = "type", rename_all = "snake_case")
)]
pub enum RunRecord {
    /// A game `validate` reports.
    Game(GameRecord),
    /// A game of `pgn convert`.
    Converted(ConvertedRecord),
    /// A game of `replay`.
    Replayed(ReplayedRecord),
    /// A game of `pgn select` or `pgn split`.
    Selected(SelectedRecord),
    /// A game of `pgn dedupe`.
    Keyed(KeyedRecord),
    /// A game of `export`: its table rows (not part of the JSON records).
    #[cfg_attr(feature = "serde", serde(skip))]
    Exported(Box<ExportedRecord>),
    /// A game of `pgn fix` (not part of the JSON records: `pgn fix --json` writes its
    /// repairs).
    #[cfg_attr(feature = "serde", serde(skip))]
    Fixed(Box<FixedRecord>),
    /// The end of an archive.
    Summary(SummaryRecord),
    /// The end of the run.
    Total(TotalRecord),
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use super::{LostText, RunRecord, SummaryRecord};

    /// A summary of 1,000 games read from 2,000,000 bytes of text, with these breaks'
    /// `text_read` and `text`.
    fn summary(breaks: &[(u64, serde_json::Value)]) -> SummaryRecord {
        let breaks: Vec<serde_json::Value> = breaks
            .iter()
            .enumerate()
            .map(|(i, (read, text))| {
                let mut b = serde_json::json!({
                    "offset": 1000 * i, "length": 500, "reason": "Data corruption detected",
                    "text_read": read, "line": 10 * i + 1,
                });
                if !text.is_null() {
                    b["text"] = text.clone();
                }
                b
            })
            .collect();
        let record = serde_json::json!({
            "type": "summary", "version": 2, "file": "a.pgn.zst", "games": 1000,
            "plies": 0, "illegal_games": 0, "error_games": 0, "warnings": 0, "lost": 2,
            "bytes": 2_000_000, "complete": false, "stream_error": "damaged",
            "breaks": breaks,
        });
        match serde_json::from_value(record).unwrap() {
            RunRecord::Summary(s) => s,
            other => panic!("{other:?}"),
        }
    }

    /// The text lost is summed over the breaks whose headers tell it: exact when every
    /// header gave its size, else a bound; the games at the text read's average; the
    /// frames untold named; nothing when nothing is lost.
    #[test]
    fn the_text_lost_is_summed_over_the_breaks() {
        let pzstd = |n: u64| serde_json::json!({"by": "pzstd", "bytes": n});
        let header = |n: u64| serde_json::json!({"by": "header", "bytes": n});
        let lost = summary(&[(1000, header(21_000)), (0, header(4000))]).text_lost();
        assert_eq!(
            lost,
            Some(LostText {
                bytes: 24_000,
                exact: true,
                untold: 0,
                games: Some((12, 2000)),
            })
        );
        assert_eq!(
            lost.unwrap().to_string(),
            "24000 bytes of text (about 12 games, the text read averaging 2000 bytes a game)"
        );
        let lost = summary(&[
            (1000, header(21_000)),
            (500, pzstd(4096)),
            (7, serde_json::Value::Null),
        ])
        .text_lost()
        .unwrap();
        assert_eq!((lost.bytes, lost.exact, lost.untold), (23_596, false, 1));
        assert_eq!(
            lost.to_string(),
            "up to 23596 bytes of text (about 12 games, the text read averaging 2000 bytes a game), besides the text of 1 damaged frame whose size is not told"
        );
        // All read (the damage found by a checksum), or nothing told.
        assert_eq!(summary(&[(4096, pzstd(4096))]).text_lost(), None);
        assert_eq!(summary(&[(9, serde_json::Value::Null)]).text_lost(), None);
        // A header that says less than was read tells nothing.
        assert_eq!(summary(&[(5000, header(4000))]).text_lost(), None);
    }
}
