//! The records pocketfen reports: one type per record of every command's `--json` output
//! (JSON Lines, schema version [`SCHEMA_VERSION`], each object tagged by `type`): here
//! those of the FEN and move commands and the names they share; the archive runs' are
//! [`crate::run::record`]'s. The command line and the Python package only format these:
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
//! let record = ConvertRecord::Converted { line: 1, input: line.into(), dialect, output: out.as_str().into(), board_dialects: None };
//! assert_eq!(
//!     serde_json::to_string(&record)?,
//!     r#"{"type":"converted","line":1,"input":"8/8/8/8/8/8/8/K6k[Q] w - - 0 1","dialect":"bracket","output":"8/8/8/8/8/8/8/K6k/Q w - - 0 1"}"#
//! );
//! # }
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;

#[cfg(feature = "serde")]
use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[cfg(feature = "serde")]
use crate::name::Named;

use crate::bughouse::BoardId;
use crate::notation::fen::{FenDialect, FenField, ParseFenError};
use crate::position::{SetupProblem, SetupProblemKind, Severity};
use crate::variant::Variant;

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

// Each kind of name records carry, and its list of every value.
#[cfg(feature = "serde")]
crate::name::named! {
    crate::Variant: "variant", crate::Variant::ALL;
    crate::Severity: "severity", crate::Severity::ALL;
    crate::stream::Compression: "compression", crate::stream::Compression::ALL;
    crate::game::Status: "status", crate::game::Status::ALL;
    crate::game::ResultReading: "result reading", crate::game::ResultReading::ALL;
    crate::game::GameProblemKind: "problem kind", crate::game::GameProblemKind::all();
    crate::notation::fen::FenDialect: "dialect", crate::notation::fen::FenDialect::ALL;
    crate::notation::fen::FenField: "FEN field", crate::notation::fen::FenField::ALL;
    crate::SetupProblemKind: "setup problem kind", crate::SetupProblemKind::ALL;
    crate::bughouse::BoardId: "board", crate::bughouse::BoardId::ALL;
}

/// The names records are written with and read back by: each exact name, as [`Named`]
/// lists them.
#[cfg(feature = "serde")]
macro_rules! serde_as_name {
    ($($t:ty),* $(,)?) => {$(
        serialize_as_name!($t);

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let name = String::deserialize(d)?;
                <$t as Named>::from_name(&name).ok_or_else(|| {
                    serde::de::Error::custom(format!(
                        "unknown {} `{}`",
                        <$t as Named>::WHAT,
                        crate::notation::printable(&name)
                    ))
                })
            }
        }
    )*};
}

#[cfg(feature = "serde")]
serde_as_name!(
    FenDialect,
    FenField,
    SetupProblemKind,
    BoardId,
    Variant,
    Severity,
    crate::stream::Compression,
    crate::game::Status,
    crate::game::GameProblemKind,
    crate::game::ResultReading,
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

/// A line's dialect or `plain`, read from its name.
#[cfg(feature = "serde")]
fn dialect_or_plain<E: serde::de::Error>(name: &str) -> Result<Option<FenDialect>, E> {
    match name {
        "plain" => Ok(None),
        _ => FenDialect::from_name(name).map(Some).ok_or_else(|| {
            E::custom(format!(
                "unknown dialect `{}`",
                crate::notation::printable(name)
            ))
        }),
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for LineDialect {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Ok(match name.as_str() {
            "mixed" => LineDialect::Mixed,
            _ => dialect_or_plain(&name)?.map_or(LineDialect::Plain, LineDialect::One),
        })
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

#[cfg(feature = "serde")]
fn board_dialects_named<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<[Option<FenDialect>; 2]>, D::Error> {
    let Some([a, b]) = Option::<[String; 2]>::deserialize(d)? else {
        return Ok(None);
    };
    Ok(Some([dialect_or_plain(&a)?, dialect_or_plain(&b)?]))
}

/// A FEN that did not parse, as `--json` gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct FenErrorRecord<'a> {
    /// 1-based column (in characters) in the line.
    pub column: usize,
    /// The field it is in.
    pub field: FenField,
    /// What was expected there.
    pub expected: Cow<'static, str>,
    /// What stands there.
    pub found: Cow<'a, str>,
    /// The whole message.
    pub message: String,
}

impl<'a> From<&'a ParseFenError> for FenErrorRecord<'a> {
    fn from(e: &'a ParseFenError) -> FenErrorRecord<'a> {
        FenErrorRecord {
            column: e.column,
            field: e.field,
            expected: e.expected.into(),
            found: e.found.as_str().into(),
            message: e.to_string(),
        }
    }
}

/// One line of `fen convert --json`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize, Deserialize),
    serde(tag = "type", rename_all = "snake_case")
)]
pub enum ConvertRecord<'a> {
    /// A line converted.
    Converted {
        /// 1-based input line.
        line: usize,
        /// The line as read.
        input: Cow<'a, str>,
        /// The dialect its pocket was written in (`plain`: none; `mixed`: a pair's boards
        /// in two, named in `board_dialects`).
        dialect: LineDialect,
        /// The line in the target dialect.
        output: Cow<'a, str>,
        /// Of a bughouse pair, each board's dialect (`[A, B]`, `plain` for a board without
        /// a pocket): a pair may be written in two.
        #[cfg_attr(
            feature = "serde",
            serde(
                default,
                skip_serializing_if = "Option::is_none",
                serialize_with = "board_dialect_names",
                deserialize_with = "board_dialects_named"
            )
        )]
        board_dialects: Option<[Option<FenDialect>; 2]>,
    },
    /// A line that did not parse.
    Error {
        /// 1-based input line.
        line: usize,
        /// The line as read.
        input: Cow<'a, str>,
        /// Where and why.
        error: FenErrorRecord<'a>,
    },
}

/// One line of `fen url --json`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize, Deserialize),
    serde(tag = "type", rename_all = "snake_case")
)]
pub enum UrlRecord<'a> {
    /// The analysis URL of a line's position.
    Url {
        /// 1-based input line.
        line: usize,
        /// The line as read.
        input: Cow<'a, str>,
        /// The URL.
        url: Cow<'a, str>,
    },
    /// A line that does not parse (as `fen convert`'s and `fen check`'s errors).
    Error {
        /// 1-based input line.
        line: usize,
        /// The line as read.
        input: Cow<'a, str>,
        /// Where and why.
        error: FenErrorRecord<'a>,
    },
    /// A position the site has no board for (a bughouse pair, Loop, Chessgi).
    NoBoard {
        /// 1-based input line.
        line: usize,
        /// The line as read.
        input: Cow<'a, str>,
        /// Why.
        reason: Cow<'a, str>,
    },
}

/// One problem of a position, and its board in a bughouse pair.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct BoardProblem<'a> {
    /// The board (`A`, `B`), for a pair; none for a single board or the pair as a whole.
    pub board: Option<BoardId>,
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong.
    pub kind: SetupProblemKind,
    /// The explanation.
    pub message: Cow<'a, str>,
}

impl<'a> BoardProblem<'a> {
    /// The problem `p` of `board`.
    pub fn new(board: Option<BoardId>, p: &'a SetupProblem) -> BoardProblem<'a> {
        BoardProblem {
            board,
            severity: p.severity,
            kind: p.kind,
            message: p.message.as_str().into(),
        }
    }
}

/// One line of `fen check --json`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize, Deserialize),
    serde(tag = "type", rename_all = "snake_case")
)]
pub enum CheckRecord<'a> {
    /// A position checked.
    Checked {
        /// 1-based input line.
        line: usize,
        /// The line as read.
        input: Cow<'a, str>,
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
        input: Cow<'a, str>,
        /// Where and why.
        error: FenErrorRecord<'a>,
    },
}

/// One record of `moves --json`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(Serialize, Deserialize),
    serde(tag = "type", rename_all = "snake_case")
)]
pub enum MoveRecord<'a> {
    /// A move played.
    Move {
        /// 1-based move number in the input.
        index: usize,
        /// The token as given.
        token: Cow<'a, str>,
        /// Its canonical SAN.
        san: String,
        /// Its UCI.
        uci: String,
        /// The FEN after it.
        fen: String,
        /// Its spelling's defects (`--strict`).
        defects: Vec<String>,
    },
    /// The move that could not be played, which ends the run; or (`index` 0) the
    /// `--fen` that gives no position to play from.
    Error {
        /// 1-based move number in the input; 0 for the `--fen`.
        index: usize,
        /// The token as given (the `--fen`'s text for index 0).
        token: Cow<'a, str>,
        /// `syntax`, `game-over` or the engine's reason; for the `--fen`, `syntax`,
        /// `pair` or the position's first error (`missing-king`…).
        kind: Cow<'static, str>,
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
        outcome: Option<Cow<'static, str>>,
    },
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use super::*;
    use crate::bughouse::check_fen;
    use crate::notation::fen;

    /// Writes `record`, reads it back, and writes it again: the same record and bytes.
    fn round_trip<T>(record: &T) -> String
    where
        T: Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        let json = serde_json::to_string(record).unwrap();
        let back: T = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{json}: {e}"));
        assert_eq!(&back, record, "{json}");
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
        json
    }

    /// The FEN and move commands' records read back from their JSON unchanged, every
    /// variant of each, names of dialects, fields, problem kinds and boards included.
    #[test]
    fn the_fen_and_move_records_read_back_from_their_json() {
        let bad = fen::parse("8/8/8/8/8/8/8/K6k w - - 0 1 x", None).unwrap_err();
        let error = FenErrorRecord::from(&bad);
        let pair = "8/8/8/4k3/8/8/8/4K3[Q] w - - 0 1 | 8/8/8/4k3/8/8/8/4K3/ b - - 0 1";
        let mixed = [Some(FenDialect::Bracket), Some(FenDialect::Lichess)];
        let converted = ConvertRecord::Converted {
            line: 3,
            input: pair.into(),
            dialect: LineDialect::of(Some(FenDialect::Bracket), Some(mixed)),
            output: "out".into(),
            board_dialects: Some([Some(FenDialect::Bracket), None]),
        };
        let json = round_trip(&converted);
        assert!(
            json.contains(r#""board_dialects":["bracket","plain"]"#),
            "{json}"
        );
        round_trip(&ConvertRecord::Error {
            line: 1,
            input: "x".into(),
            error: error.clone(),
        });
        round_trip(&UrlRecord::Url {
            line: 1,
            input: "a".into(),
            url: "https://lichess.org/analysis/a".into(),
        });
        round_trip(&UrlRecord::Error {
            line: 2,
            input: "b".into(),
            error: error.clone(),
        });
        let json = round_trip(&UrlRecord::NoBoard {
            line: 3,
            input: "c".into(),
            reason: "why".into(),
        });
        assert!(json.starts_with(r#"{"type":"no_board","#), "{json}");
        let problems = check_fen(&pair.parse().unwrap(), Variant::Bughouse);
        let problems: Vec<BoardProblem<'_>> = problems
            .iter()
            .map(|(b, p)| BoardProblem::new(*b, p))
            .collect();
        round_trip(&CheckRecord::Checked {
            line: 1,
            input: pair.into(),
            variant: Variant::Bughouse,
            valid: false,
            problems,
        });
        round_trip(&CheckRecord::Error {
            line: 1,
            input: "x".into(),
            error,
        });
        round_trip(&MoveRecord::Move {
            index: 1,
            token: "P@e4".into(),
            san: "P@e4".into(),
            uci: "P@e4".into(),
            fen: "f".into(),
            defects: vec!["lowercase-piece".into()],
        });
        round_trip(&MoveRecord::Error {
            index: 2,
            token: "Kh8".into(),
            kind: "game-over".into(),
            message: "m".into(),
            fen: "f".into(),
        });
        round_trip(&MoveRecord::End {
            plies: 2,
            fen: "f".into(),
            outcome: Some("1-0".into()),
        });
    }
}
