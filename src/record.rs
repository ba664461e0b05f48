//! The records pocketfen reports: one type per record of every command's `--json` output
//! (JSON Lines, schema version [`SCHEMA_VERSION`], each object tagged by `type`), and of
//! the library's archive runs. The command line and the Python package only format these:
//! with the `serde` feature they serialize to the documented JSON (and, in Python, to the
//! same dicts), field for field.
//!
//! ```
//! # #[cfg(feature = "serde")] {
//! use pocketfen::notation::fen;
//! use pocketfen::record::{ConvertRecord, LineDialect};
//! let mut out = String::new();
//! let line = "8/8/8/8/8/8/8/K6k[Q] w - - 0 1";
//! let dialect = fen::convert_line(line, &fen::Conversion::to(fen::FenDialect::Lichess), &mut out)?;
//! let dialect = LineDialect::of(dialect, None);
//! let record = ConvertRecord::Converted { line: 1, input: line, dialect, output: &out, board_dialects: None };
//! assert_eq!(
//!     serde_json::to_string(&record)?,
//!     r#"{"type":"converted","line":1,"input":"8/8/8/8/8/8/8/K6k[Q] w - - 0 1","dialect":"bracket","output":"8/8/8/8/8/8/8/K6k/Q w - - 0 1"}"#
//! );
//! # }
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

#[cfg(feature = "serde")]
use serde::{Serialize, Serializer};

use crate::bughouse::BoardId;
use crate::notation::fen::{FenDialect, FenField, ParseFenError};
use crate::pgn::input::{Compression, Trailing};
use crate::pgn::{GameProblem, GameReport, RawGame};
use crate::position::{SetupProblem, SetupProblemKind, Severity};
use crate::variant::Variant;

/// A name (a file's, a tag's) as text output prints it: control characters escaped
/// (`\u{1b}`), so that a newline or an escape sequence in a name can neither forge a
/// report line nor drive the reader's terminal. JSON output needs none of this: JSON
/// escapes them itself.
///
/// ```
/// use pocketfen::record::printable;
/// assert_eq!(printable("games.pgn"), "games.pgn");
/// assert_eq!(printable("a\nb.pgn"), "a\\nb.pgn");
/// ```
pub fn printable(name: &str) -> std::borrow::Cow<'_, str> {
    crate::notation::escape_controls(name)
}

/// The version of the JSON Lines schema: the `version` of `summary` and `total` records.
pub const SCHEMA_VERSION: u32 = 2;

/// The names pocketfen's vocabulary serializes to: the stable kebab-case names of the
/// docs/REFERENCE.md (`no-such-piece`, `crazyhouse`, `error`, …).
#[cfg(feature = "serde")]
macro_rules! serialize_as_name {
    ($($t:ty),* $(,)?) => {$(
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }
    )*};
}

#[cfg(feature = "serde")]
serialize_as_name!(
    Variant,
    FenDialect,
    FenField,
    Severity,
    SetupProblemKind,
    BoardId,
    Compression,
    crate::pgn::Status,
    crate::pgn::GameProblemKind,
    crate::pgn::ResultReading,
);

/// A FEN line's dialect as `fen convert --json` names it: `plain` when it has no pocket.
/// The dialect a FEN line's pockets were written in, as a `converted` record names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineDialect {
    /// No board has a pocket (`plain`).
    Plain,
    /// Every pocket in this dialect.
    One(FenDialect),
    /// A bughouse pair whose boards are written in two dialects (`mixed`; one may have
    /// no pocket): the record's `board_dialects` names each.
    Mixed,
}

impl LineDialect {
    /// The dialect of a line [`crate::notation::fen::convert_line`] read as `dialect`,
    /// with a pair's `boards` (`[A, B]`), which may differ.
    pub fn of(dialect: Option<FenDialect>, boards: Option<[Option<FenDialect>; 2]>) -> LineDialect {
        match (dialect, boards) {
            (_, Some([a, b])) if a != b => LineDialect::Mixed,
            (Some(d), _) => LineDialect::One(d),
            (None, _) => LineDialect::Plain,
        }
    }

    /// Its name: `plain`, a dialect's name, or `mixed`.
    pub fn name(self) -> &'static str {
        match self {
            LineDialect::Plain => "plain",
            LineDialect::One(d) => d.name(),
            LineDialect::Mixed => "mixed",
        }
    }
}

#[cfg(feature = "serde")]
impl Serialize for LineDialect {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(feature = "serde")]
fn board_dialect_names<S: Serializer>(
    d: &Option<[Option<FenDialect>; 2]>,
    s: S,
) -> Result<S::Ok, S::Error> {
    let names = d.map(|b| b.map(|d| d.map_or("plain", FenDialect::name)));
    names.serialize(s)
}

/// A FEN that did not parse, as `--json` gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct FenErrorRecord<'a> {
    /// 1-based column (in characters) in the line.
    pub column: usize,
    /// The field it is in.
    pub field: FenField,
    /// What was expected there.
    pub expected: &'static str,
    /// What stands there.
    pub found: &'a str,
    /// The whole message.
    pub message: String,
}

impl<'a> From<&'a ParseFenError> for FenErrorRecord<'a> {
    fn from(e: &'a ParseFenError) -> FenErrorRecord<'a> {
        FenErrorRecord {
            column: e.column,
            field: e.field,
            expected: e.expected,
            found: &e.found,
            message: e.to_string(),
        }
    }
}

/// One line of `fen convert --json`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize),
    serde(tag = "type", rename_all = "snake_case")
)]
pub enum ConvertRecord<'a> {
    /// A line converted.
    Converted {
        /// 1-based input line.
        line: usize,
        /// The line as read.
        input: &'a str,
        /// The dialect its pocket was written in (`plain`: none; `mixed`: a pair's boards
        /// in two, named in `board_dialects`).
        dialect: LineDialect,
        /// The line in the target dialect.
        output: &'a str,
        /// Of a bughouse pair, each board's dialect (`[A, B]`, `plain` for a board without
        /// a pocket): a pair may be written in two.
        #[cfg_attr(
            feature = "serde",
            serde(
                skip_serializing_if = "Option::is_none",
                serialize_with = "board_dialect_names"
            )
        )]
        board_dialects: Option<[Option<FenDialect>; 2]>,
    },
    /// A line that did not parse.
    Error {
        /// 1-based input line.
        line: usize,
        /// The line as read.
        input: &'a str,
        /// Where and why.
        error: FenErrorRecord<'a>,
    },
}

/// One line of `fen url --json`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize),
    serde(tag = "type", rename_all = "snake_case")
)]
pub enum UrlRecord<'a> {
    /// The analysis URL of a line's position.
    Url {
        /// 1-based input line.
        line: usize,
        /// The line as read.
        input: &'a str,
        /// The URL.
        url: &'a str,
    },
    /// A line that has no URL: it does not parse, or the site has no board for it.
    Error {
        /// 1-based input line.
        line: usize,
        /// The line as read.
        input: &'a str,
        /// Why.
        error: &'a str,
    },
}

/// One problem of a position, and its board in a bughouse pair.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct BoardProblem<'a> {
    /// The board (`A`, `B`), for a pair; none for a single board or the pair as a whole.
    pub board: Option<BoardId>,
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong.
    pub kind: SetupProblemKind,
    /// The explanation.
    pub message: &'a str,
}

impl<'a> BoardProblem<'a> {
    /// The problem `p` of `board`.
    pub fn new(board: Option<BoardId>, p: &'a SetupProblem) -> BoardProblem<'a> {
        BoardProblem {
            board,
            severity: p.severity,
            kind: p.kind,
            message: &p.message,
        }
    }
}

/// One line of `fen check --json`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize),
    serde(tag = "type", rename_all = "snake_case")
)]
pub enum CheckRecord<'a> {
    /// A position checked.
    Checked {
        /// 1-based input line.
        line: usize,
        /// The line as read.
        input: &'a str,
        /// The variant whose rules applied.
        variant: Variant,
        /// Whether it has no error.
        valid: bool,
        /// Every problem, errors and warnings.
        problems: Vec<BoardProblem<'a>>,
    },
    /// A line that did not parse.
    Error {
        /// 1-based input line.
        line: usize,
        /// The line as read.
        input: &'a str,
        /// Where and why.
        error: FenErrorRecord<'a>,
    },
}

/// One record of `moves --json`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize),
    serde(tag = "type", rename_all = "snake_case")
)]
pub enum MoveRecord<'a> {
    /// A move played.
    Move {
        /// 1-based move number in the input.
        index: usize,
        /// The token as given.
        token: &'a str,
        /// Its canonical SAN.
        san: String,
        /// Its UCI.
        uci: String,
        /// The FEN after it.
        fen: String,
        /// Its spelling's defects (`--strict`).
        defects: Vec<String>,
    },
    /// The move that could not be played, which ends the run.
    Error {
        /// 1-based move number in the input.
        index: usize,
        /// The token as given.
        token: &'a str,
        /// `syntax`, `game-over` or the engine's reason.
        kind: &'static str,
        /// Why.
        message: String,
        /// The position it was tried in.
        fen: String,
    },
    /// The end: every move played.
    End {
        /// Plies played.
        plies: usize,
        /// The final position.
        fen: String,
        /// `1-0`, `0-1` or `1/2-1/2` when the game has ended.
        outcome: Option<&'static str>,
    },
}

/// Bytes after the end of a compressed stream, read past.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
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
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct GameRecord {
    /// The archive's name (`<stdin>` for standard input).
    pub file: String,
    /// The game's report: its number (`game`), first line, variant, plies, status,
    /// bughouse Result reading and problems.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub report: GameReport,
    /// The game's bytes, when the run keeps them (for the HTML report's cards).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub raw: Option<RawGame>,
}

/// A game of `pgn convert`: its text in the target's conventions, or the reason it was
/// left out (or copied through unchanged).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
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
#[cfg_attr(feature = "serde", derive(Serialize))]
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
        serde(rename = "plies", serialize_with = "lines_as_list")
    )]
    pub text: String,
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

/// A game of `pgn select` or `pgn split`: whether it meets the selection, and its bytes.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
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
    /// [`crate::pgn::Chosen::tags_present`]; not serialized).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub tags_present: u64,
    /// The names of the game's tags, when sampled (see
    /// [`crate::pgn::Chosen::tag_names`]; not serialized).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub tag_names: Option<String>,
}

/// A game of `pgn dedupe`: its key (see [`crate::pgn::game_key`]) and its bytes.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct KeyedRecord {
    /// The archive's name.
    pub file: String,
    /// 1-based number of the game in its archive.
    pub game: usize,
    /// 1-based line of its first byte.
    pub line: usize,
    /// The 128-bit key of its start, main line (and roster).
    #[cfg_attr(feature = "serde", serde(serialize_with = "hex128"))]
    pub key: u128,
    /// The game exactly as it was in the input (not serialized).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub raw: RawGame,
}

#[cfg(feature = "serde")]
fn hex128<S: Serializer>(k: &u128, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{k:032x}"))
}

/// The end of one archive of a run.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct SummaryRecord {
    /// The schema version.
    pub version: u32,
    /// The archive's name.
    pub file: String,
    /// Games read.
    pub games: usize,
    /// Mainline plies replayed.
    pub plies: u64,
    /// Games with an illegal move or unreadable text.
    pub illegal_games: usize,
    /// Games that could not be replayed.
    pub error_games: usize,
    /// Warnings.
    pub warnings: usize,
    /// Bytes of text read (decompressed).
    pub bytes: u64,
    /// Seconds the archive took, when the run gives timings
    /// ([`RunOptions::timings`](crate::archive::RunOptions::timings)).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub seconds: Option<f64>,
    /// Whether the whole archive was read (no stream error, not interrupted).
    pub complete: bool,
    /// Whether the run was stopped before the end of the archive
    /// ([`RunOptions::stop`](crate::archive::RunOptions::stop)).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "std::ops::Not::not"))]
    pub interrupted: bool,
    /// Why the stream ended early, or could not be opened.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub stream_error: Option<String>,
    /// Bytes after the last complete compressed frame, read past.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub trailing_bytes: Option<TrailingRecord>,
    /// Whether the archive could be opened (`stream_error` says why not); not serialized.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub opened: bool,
    /// The archive's compression (not serialized: the text summary names it).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub compression: Compression,
    /// Which part of its file this run read (`--split K/N`), and where it lies: what
    /// [`merge`](crate::merge) checks.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub split: Option<SplitRecord>,
}

/// Where one part of a split archive lies in its file, and what it read past its end
/// (the `split` of a part's `summary`). Parts that meet agree: part K's `end` is part
/// K+1's `start`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
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
}

/// A game's place in a split file: the byte of the file (a frame's first when it is
/// compressed) from which the part's text is read, how many bytes of that text come
/// before the game, and a fingerprint of the file's 4 KiB at `offset` (hex).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
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
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct TotalRecord {
    /// The schema version.
    pub version: u32,
    /// Archives read.
    pub files: usize,
    /// Games read.
    pub games: usize,
    /// Mainline plies replayed.
    pub plies: u64,
    /// Games with an illegal move or unreadable text.
    pub illegal_games: usize,
    /// Games that could not be replayed.
    pub error_games: usize,
    /// Warnings.
    pub warnings: usize,
    /// Bytes of text read.
    pub bytes: u64,
    /// Seconds the run took, when it gives timings.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub seconds: Option<f64>,
    /// Whether every archive was read whole (and the run was not interrupted).
    pub complete: bool,
    /// Whether the run was stopped before the end of its input.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "std::ops::Not::not"))]
    pub interrupted: bool,
}

/// A record of an archive run ([`crate::archive::Run`]), in input order: the games of
/// each archive, then its summary; a total at the end of the run.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize),
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
    /// The end of an archive.
    Summary(SummaryRecord),
    /// The end of the run.
    Total(TotalRecord),
}
