//! What validation says about a game: typed problem kinds with stable names (the JSON
//! `kind` strings of the JSON records), the verdict, and the report.
//!
//! ```
//! use pocketfen::game::{GameProblemKind, Options, validate_str};
//! use pocketfen::IllegalReason;
//! let reports = validate_str("[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. Q@e4 *\n", &Options::default());
//! let report = &reports[0];
//! let p = &report.problems[0];
//! assert_eq!(p.kind, GameProblemKind::Illegal(IllegalReason::NotInPocket));
//! assert_eq!(p.kind.name(), "not-in-pocket");
//! assert_eq!(
//!     p.display_in("games.pgn", report.number).to_string(),
//!     "games.pgn:3:13: game 1, ply 3 (Q@e4): error: not-in-pocket: no white queen in the pocket"
//! );
//! ```

use std::fmt;

use crate::notation::fen::FenDialect;
use crate::notation::printable;
use crate::notation::san::DefectKind;
use crate::position::{IllegalReason, Position, Severity};
use crate::stream::token::LineIndex;
use crate::variant::Variant;

/// What kind of problem a game has. The name of each ([`GameProblemKind::name`]) is stable:
/// it is the `kind` of the JSON reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GameProblemKind {
    /// A move that is not legal, and why (`no-such-piece`, `ambiguous`, …).
    Illegal(IllegalReason),
    /// A non-canonical spelling of a legal move (`--strict`).
    Defect(DefectKind),
    /// Text that is no token of the movetext, or a token out of place.
    UnparseableToken,
    /// A move after the game ended on the board (checkmate, stalemate, …).
    MoveAfterEnd,
    /// A move after the result marker.
    MoveAfterResult,
    /// A second result marker.
    SecondResult,
    /// Variations nested deeper than [`MAX_VARIATION_DEPTH`](super::MAX_VARIATION_DEPTH).
    VariationTooDeep,
    /// A `[Variant]` pocketfen does not know.
    UnknownVariant,
    /// Text that is not UTF-8 or Latin-1 (UTF-16).
    UnsupportedEncoding,
    /// A `[FEN]` tag that does not parse.
    BadFen,
    /// A `[FEN]` tag that is not a legal position.
    IllegalFen,
    /// The Result tag or marker disagrees with the game's end.
    ResultMismatch,
    /// `[PlyCount]` disagrees with the main line.
    PlyCountMismatch,
    /// `[CurrentPosition]` (Chess.com) disagrees with the final position.
    CurrentPositionMismatch,
    /// A Horde game with the standard start FEN (a Lichess export bug of 2021).
    HordeStandardFen,
    /// No `[Variant]` tag; the variant was read from `[Event]`, or from a drop.
    VariantInferred,
    /// `[ECO]` or `[Opening]` is not the opening the moves reach, as Lichess's opening
    /// list names it (`--strict`).
    OpeningMismatch,
    /// No result marker at the end of the movetext (`--strict`).
    NoResultMarker,
    /// A move number that does not fit the position.
    MoveNumberMismatch,
    /// A bughouse move by the side not to move on its board.
    OutOfTurn,
    /// A bughouse clock that rose by more than the increment.
    ClockIncrease,
    /// Chess.com's `$146@g4` for `N@g4`.
    GarbledKnightDrop,
    /// A game larger than the splitter's limit, skipped unread.
    GameTooLarge,
    /// A second `Variant`, `FEN`, `Result` or `CurrentPosition` tag (the first is read).
    DuplicateTag,
    /// A NAG beyond `$255`.
    NagOutOfRange,
    /// A move in long algebraic notation (`e2e4`, `Ng1-f3`) or with Unicode dashes
    /// (`O‑O`), not SAN: read, with a warning (an error under `--strict`).
    NonSanMove,
    /// A result written otherwise than PGN's `1-0`, `0-1`, `1/2-1/2` (an en dash `1–0`,
    /// `½-½`): read as that result.
    NonstandardResult,
    /// A blank line inside the tag section (`--strict`); the tags after it are the game's.
    BlankLineInTags,
    /// Castling rights in a `[FEN]` tag that no king and rook allow: dropped, with a
    /// warning (an error under `--strict`), as python-chess and Lichess drop them.
    ImpossibleCastling,
    /// A tag line whose value holds quotes that are not escaped (`[White ""Socrates
    /// Expert""]`, in Lichess's study exports): read, its value everything between the
    /// first quote and the last.
    MalformedTag,
    /// A comment's command (`[%clk …]`, `[%eval …]`, `[%emt …]`, `[%cal …]`, `[%csl …]`)
    /// whose value does not read (`--strict`).
    MalformedAnnotation,
    /// `--variant` named a one-board variant for a bughouse match (two boards, in
    /// BPGN): it cannot apply, and the match is read as bughouse, with a warning.
    VariantNotApplied,
}

impl GameProblemKind {
    /// The kinds that stand alone (not an illegal move's reason or a SAN defect).
    const OTHERS: [GameProblemKind; 30] = [
        GameProblemKind::UnparseableToken,
        GameProblemKind::MoveAfterEnd,
        GameProblemKind::MoveAfterResult,
        GameProblemKind::SecondResult,
        GameProblemKind::VariationTooDeep,
        GameProblemKind::UnknownVariant,
        GameProblemKind::UnsupportedEncoding,
        GameProblemKind::BadFen,
        GameProblemKind::IllegalFen,
        GameProblemKind::ResultMismatch,
        GameProblemKind::PlyCountMismatch,
        GameProblemKind::CurrentPositionMismatch,
        GameProblemKind::HordeStandardFen,
        GameProblemKind::VariantInferred,
        GameProblemKind::OpeningMismatch,
        GameProblemKind::NoResultMarker,
        GameProblemKind::MoveNumberMismatch,
        GameProblemKind::OutOfTurn,
        GameProblemKind::ClockIncrease,
        GameProblemKind::GarbledKnightDrop,
        GameProblemKind::GameTooLarge,
        GameProblemKind::DuplicateTag,
        GameProblemKind::NagOutOfRange,
        GameProblemKind::NonSanMove,
        GameProblemKind::NonstandardResult,
        GameProblemKind::BlankLineInTags,
        GameProblemKind::ImpossibleCastling,
        GameProblemKind::MalformedTag,
        GameProblemKind::MalformedAnnotation,
        GameProblemKind::VariantNotApplied,
    ];

    /// Every kind: each illegal move's reason, each SAN defect, then the others, in
    /// declaration order (the list docs/REFERENCE.md documents).
    pub fn all() -> impl Iterator<Item = GameProblemKind> {
        IllegalReason::ALL
            .into_iter()
            .map(GameProblemKind::Illegal)
            .chain(DefectKind::ALL.into_iter().map(GameProblemKind::Defect))
            .chain(GameProblemKind::OTHERS)
    }

    /// The stable kebab-case name (the JSON `kind`).
    pub fn name(self) -> &'static str {
        match self {
            GameProblemKind::Illegal(r) => r.name(),
            GameProblemKind::Defect(d) => d.name(),
            GameProblemKind::UnparseableToken => "unparseable-token",
            GameProblemKind::MoveAfterEnd => "move-after-end",
            GameProblemKind::MoveAfterResult => "move-after-result",
            GameProblemKind::SecondResult => "second-result",
            GameProblemKind::VariationTooDeep => "variation-too-deep",
            GameProblemKind::UnknownVariant => "unknown-variant",
            GameProblemKind::UnsupportedEncoding => "unsupported-encoding",
            GameProblemKind::BadFen => "bad-fen",
            GameProblemKind::IllegalFen => "illegal-fen",
            GameProblemKind::ResultMismatch => "result-mismatch",
            GameProblemKind::PlyCountMismatch => "ply-count-mismatch",
            GameProblemKind::CurrentPositionMismatch => "current-position-mismatch",
            GameProblemKind::HordeStandardFen => "horde-standard-fen",
            GameProblemKind::VariantInferred => "variant-inferred",
            GameProblemKind::OpeningMismatch => "opening-mismatch",
            GameProblemKind::NoResultMarker => "no-result-marker",
            GameProblemKind::MoveNumberMismatch => "move-number-mismatch",
            GameProblemKind::OutOfTurn => "out-of-turn",
            GameProblemKind::ClockIncrease => "clock-increase",
            GameProblemKind::GarbledKnightDrop => "garbled-knight-drop",
            GameProblemKind::GameTooLarge => "game-too-large",
            GameProblemKind::DuplicateTag => "duplicate-tag",
            GameProblemKind::NagOutOfRange => "nag-out-of-range",
            GameProblemKind::NonSanMove => "non-san-move",
            GameProblemKind::NonstandardResult => "nonstandard-result",
            GameProblemKind::BlankLineInTags => "blank-line-in-tags",
            GameProblemKind::ImpossibleCastling => "impossible-castling",
            GameProblemKind::MalformedTag => "malformed-tag",
            GameProblemKind::MalformedAnnotation => "malformed-annotation",
            GameProblemKind::VariantNotApplied => "variant-not-applied",
        }
    }
}

impl fmt::Display for GameProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The verdict on a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// Every move is legal (warnings aside).
    Ok,
    /// A move is illegal or a token unreadable.
    Illegal,
    /// The game cannot be replayed at all (unknown variant, bad FEN tag).
    Error,
}

impl Status {
    /// Every verdict.
    pub const ALL: [Status; 3] = [Status::Ok, Status::Illegal, Status::Error];

    /// `ok`, `illegal` or `error`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Illegal => "illegal",
            Status::Error => "error",
        }
    }
}

/// Which reading of a bughouse match's Result tag fits the derived outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResultReading {
    /// From the view of the board that ended the match (as bughouse-db writes it).
    Board,
    /// From the teams' view (team 1: White on A with Black on B).
    Team,
    /// Both readings give the same result.
    Both,
}

impl ResultReading {
    /// Every reading.
    pub const ALL: [ResultReading; 3] = [
        ResultReading::Board,
        ResultReading::Team,
        ResultReading::Both,
    ];

    /// `board`, `team` or `both` (the JSON `result_reading`).
    pub fn name(self) -> &'static str {
        match self {
            ResultReading::Board => "board",
            ResultReading::Team => "team",
            ResultReading::Both => "both",
        }
    }
}

/// Where a game is in its archive: its number in a text archive (PGN, BPGN), or its row
/// in a table (Parquet), whose problems are placed by line and column inside the row's
/// movetext.
///
/// ```
/// use pocketfen::game::GameAt;
/// // A table's games have no line of their own: line 0 says a row.
/// assert_eq!(GameAt::of(7, 0), GameAt::Row(7));
/// assert_eq!(GameAt::of(7, 120), GameAt::Game(7));
/// assert_eq!(GameAt::from(3), GameAt::Game(3));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameAt {
    /// The N-th game of a text archive (from 1).
    Game(usize),
    /// Row N of a table (from 1).
    Row(usize),
}

impl GameAt {
    /// The place of a game numbered `number` whose first line is `line`: line 0 is a
    /// table's row (a game read from Parquet has no line in a file).
    pub fn of(number: usize, line: usize) -> GameAt {
        if line == 0 {
            GameAt::Row(number)
        } else {
            GameAt::Game(number)
        }
    }
}

impl From<usize> for GameAt {
    fn from(number: usize) -> GameAt {
        GameAt::Game(number)
    }
}

/// One problem of a game, with its place.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameProblem {
    /// Error (the game is not valid) or warning.
    pub severity: Severity,
    /// What is wrong.
    pub kind: GameProblemKind,
    /// 1-based ply of the move concerned (main line; across both boards in bughouse).
    pub ply: Option<usize>,
    /// The token concerned, clipped to its first line and 40 characters.
    pub token: Option<String>,
    /// 1-based line in the archive.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// Why, in a sentence (lowercase, no trailing period).
    pub reason: String,
    /// The position before the move, in Lichess's dialect.
    pub fen_before: Option<String>,
}

impl GameProblem {
    /// The problem as `validate` prints it:
    /// `FILE:LINE:COL: game N, ply P (TOKEN): SEVERITY: KIND: REASON`; in a table's row,
    /// `FILE: row N, movetext LINE:COL, ply P (TOKEN): …` (a tag's problem: `FILE: row N,
    /// ply …`).
    pub fn display_in<'a>(
        &'a self,
        file: &'a str,
        game: impl Into<GameAt>,
    ) -> impl fmt::Display + 'a {
        Located {
            problem: self,
            file,
            game: game.into(),
            severity: true,
        }
    }

    /// As [`display_in`](Self::display_in) without the severity (`replay`'s messages,
    /// which report errors only).
    pub fn display_error_in<'a>(
        &'a self,
        file: &'a str,
        game: impl Into<GameAt>,
    ) -> impl fmt::Display + 'a {
        Located {
            problem: self,
            file,
            game: game.into(),
            severity: false,
        }
    }
}

struct Located<'a> {
    problem: &'a GameProblem,
    file: &'a str,
    game: GameAt,
    severity: bool,
}

impl fmt::Display for Located<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.problem;
        ProblemLine {
            file: self.file,
            line: p.line,
            column: p.column,
            game: self.game,
            ply: p.ply,
            token: p.token.as_deref(),
            severity: self.severity.then(|| p.severity.name()),
            kind: p.kind.name(),
            reason: &p.reason,
        }
        .fmt(f)
    }
}

/// A problem's line of text from its parts: `FILE:LINE:COL: game N, ply P (TOKEN):
/// SEVERITY: KIND: REASON`, or `FILE: row N, movetext LINE:COL, ply …` in a table (what
/// `validate` prints, and `merge --text` from records).
pub(crate) struct ProblemLine<'a> {
    pub(crate) file: &'a str,
    pub(crate) line: usize,
    pub(crate) column: usize,
    pub(crate) game: GameAt,
    pub(crate) ply: Option<usize>,
    pub(crate) token: Option<&'a str>,
    pub(crate) severity: Option<&'a str>,
    pub(crate) kind: &'a str,
    pub(crate) reason: &'a str,
}

impl fmt::Display for ProblemLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.game {
            GameAt::Game(n) => write!(f, "{}:{}:{}: game {n}", self.file, self.line, self.column)?,
            GameAt::Row(n) => {
                write!(f, "{}: row {n}", self.file)?;
                // Line 0 is the row's tags: a column, not a place in the movetext.
                if self.line > 0 {
                    write!(f, ", movetext {}:{}", self.line, self.column)?;
                }
            }
        }
        if let Some(ply) = self.ply {
            write!(f, ", ply {ply}")?;
        }
        if let Some(tok) = self.token {
            write!(f, " ({})", printable(tok))?;
        }
        if let Some(severity) = self.severity {
            write!(f, ": {severity}")?;
        }
        write!(f, ": {}: {}", self.kind, self.reason)
    }
}

/// What validation found in a game (serialized as the `game` record's fields).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameReport {
    /// 1-based number of the game in its archive.
    #[cfg_attr(feature = "serde", serde(rename = "game"))]
    pub number: usize,
    /// 1-based line of the game's first byte.
    pub line: usize,
    /// The variant it was validated as (`None` when it could not be told).
    pub variant: Option<Variant>,
    /// Mainline plies replayed.
    pub plies: usize,
    /// The verdict.
    pub status: Status,
    /// Bughouse: which reading of the Result tag matches the derived outcome.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub result_reading: Option<ResultReading>,
    /// Every problem, in input order.
    pub problems: Vec<GameProblem>,
}

/// A valid game's line of text: `FILE:LINE:1: game N: ok (VARIANT, P plies)`, or
/// `FILE: row N: ok (…)` in a table (what `validate --all` prints, and `merge --text`
/// from records).
pub(crate) struct OkLine<'a> {
    pub(crate) file: &'a str,
    pub(crate) line: usize,
    pub(crate) game: usize,
    pub(crate) variant: &'a str,
    pub(crate) plies: usize,
}

impl fmt::Display for OkLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match GameAt::of(self.game, self.line) {
            GameAt::Game(n) => write!(f, "{}:{}:1: game {n}", self.file, self.line)?,
            GameAt::Row(n) => write!(f, "{}: row {n}", self.file)?,
        }
        write!(f, ": ok ({}, {} plies)", self.variant, self.plies)
    }
}

impl GameReport {
    /// The game's line as `validate --all` prints it when it has no problem:
    /// `FILE:LINE:1: game N: ok (VARIANT, P plies)`.
    pub fn display_ok_in<'a>(&'a self, file: &'a str) -> impl fmt::Display + 'a {
        OkLine {
            file,
            line: self.line,
            game: self.number,
            variant: self.variant.map_or("?", Variant::name),
            plies: self.plies,
        }
    }

    /// Whether the game is not valid (an illegal move, an unreadable token, or no replay).
    pub fn has_errors(&self) -> bool {
        self.status != Status::Ok
    }

    /// How many problems are warnings.
    pub fn warnings(&self) -> usize {
        self.problems
            .iter()
            .filter(|p| p.severity == Severity::Warning)
            .count()
    }
}

/// The counts of a validation run over some games: what `validate`'s summary reports.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Totals {
    /// Games read.
    pub games: usize,
    /// Mainline plies replayed.
    pub plies: u64,
    /// Games with an illegal move (`Status::Illegal`).
    pub illegal_games: usize,
    /// Games that could not be replayed (`Status::Error`).
    pub error_games: usize,
    /// Warnings.
    pub warnings: usize,
    /// Entries of a Chess.com JSON archive that hold no game to read (its bughouse
    /// records, which carry a FEN and no moves): counted, not read.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub skipped: usize,
    /// Games that could not be read while the others were: the rows of a Parquet file's
    /// damaged row groups (the summary's `stream_error` says which).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub lost: usize,
}

#[cfg(feature = "serde")]
fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Totals {
    /// Counts one more game.
    pub fn add(&mut self, r: &GameReport) {
        self.games += 1;
        self.plies += r.plies as u64;
        self.illegal_games += usize::from(r.status == Status::Illegal);
        self.error_games += usize::from(r.status == Status::Error);
        self.warnings += r.warnings();
    }

    /// Adds another run's counts.
    pub fn merge(&mut self, other: &Totals) {
        self.games += other.games;
        self.plies += other.plies;
        self.illegal_games += other.illegal_games;
        self.error_games += other.error_games;
        self.warnings += other.warnings;
        self.skipped += other.skipped;
        self.lost += other.lost;
    }
}

/// Where a problem is: its ply, the token as reported, and its byte offset in the game.
#[derive(Debug, Clone, Copy)]
pub(crate) struct At<'a> {
    pub(crate) ply: Option<usize>,
    pub(crate) token: Option<&'a str>,
    pub(crate) offset: usize,
}

impl<'a> At<'a> {
    /// A tag's value at `offset` (no ply).
    pub(crate) fn tag(value: &'a str, offset: usize) -> At<'a> {
        At {
            ply: None,
            token: Some(value),
            offset,
        }
    }
}

/// Collects a game's problems, locating byte offsets as line and column.
pub(crate) struct Reporter<'t> {
    index: LineIndex<'t>,
    pub(crate) problems: Vec<GameProblem>,
    pub(crate) status: Status,
}

impl<'t> Reporter<'t> {
    pub(crate) fn new(text: &'t str, first_line: usize, first_column: usize) -> Reporter<'t> {
        Reporter {
            index: LineIndex::at(text, first_line, first_column),
            problems: Vec::new(),
            status: Status::Ok,
        }
    }

    /// How many bytes of white space stand right before `end` in the game's text.
    pub(crate) fn trailing_space(&self, end: usize) -> usize {
        let text = self.index.text().as_bytes();
        let end = end.min(text.len());
        text[..end]
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_whitespace())
            .count()
    }

    /// Records a problem; an error makes the game `Illegal` (a tag error: `Error`).
    pub(crate) fn add(
        &mut self,
        severity: Severity,
        kind: GameProblemKind,
        at: At<'_>,
        reason: String,
        before: Option<&Position>,
    ) {
        let (line, column) = self.index.locate(at.offset);
        // A token is quoted on one line and briefly (an unclosed comment runs far).
        let token = at.token.map(|t| {
            let first = t.lines().next().unwrap_or("");
            let short: String = first.chars().take(40).collect();
            if short.len() < t.len() {
                format!("{short}…")
            } else {
                short
            }
        });
        self.problems.push(GameProblem {
            severity,
            kind,
            ply: at.ply,
            token,
            line,
            column,
            reason,
            fen_before: before.map(|p| p.to_setup().display(FenDialect::Lichess).to_string()),
        });
    }

    /// A warning.
    pub(crate) fn warn(
        &mut self,
        kind: GameProblemKind,
        at: At<'_>,
        reason: String,
        before: Option<&Position>,
    ) {
        self.add(Severity::Warning, kind, at, reason, before);
    }

    /// An error in the movetext: the game is illegal from here on.
    pub(crate) fn illegal(
        &mut self,
        kind: GameProblemKind,
        at: At<'_>,
        reason: String,
        before: Option<&Position>,
    ) {
        self.add(Severity::Error, kind, at, reason, before);
        self.status = Status::Illegal;
    }

    /// An error in the tags: the game cannot be replayed.
    pub(crate) fn unplayable(&mut self, kind: GameProblemKind, at: At<'_>, reason: String) {
        self.add(Severity::Error, kind, at, reason, None);
        self.status = Status::Error;
    }

    /// The errors recorded from problem `from` on made warnings, the game's status back
    /// to `status` (a variation's illegal move, when the visitor keeps the variation up
    /// to it): `note` is added to each one's reason.
    pub(crate) fn demote(&mut self, from: usize, status: Status, note: &str) {
        for p in &mut self.problems[from..] {
            if p.severity == Severity::Error {
                p.severity = Severity::Warning;
                p.reason.push_str(note);
            }
        }
        self.status = status;
    }

    /// The errors recorded from problem `from` on.
    pub(crate) fn errors_from(&self, from: usize) -> usize {
        self.problems[from..]
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .count()
    }

    /// A token out of place or unreadable (`unparseable-token`).
    pub(crate) fn unreadable(&mut self, at: At<'_>, reason: String, before: Option<&Position>) {
        self.illegal(GameProblemKind::UnparseableToken, at, reason, before);
    }

    /// A result marker after the one that ended the movetext.
    pub(crate) fn second_result(&mut self, first: &str, token: &str, offset: usize) {
        self.illegal(
            GameProblemKind::SecondResult,
            At {
                ply: None,
                token: Some(token),
                offset,
            },
            format!("a second result marker (the movetext already ended with {first})"),
            None,
        );
    }
}

/// A result marker or Result tag that spells `result` otherwise (`1–0`): read as it, with a
/// warning.
pub(crate) fn nonstandard_result(rep: &mut Reporter<'_>, result: &str, text: &str, offset: usize) {
    rep.warn(
        GameProblemKind::NonstandardResult,
        At::tag(text, offset),
        format!("`{text}` is read as the result {result} (PGN writes results with ASCII hyphens and 1/2)"),
        None,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_schema_strings() {
        assert_eq!(
            GameProblemKind::Illegal(IllegalReason::DropMate).name(),
            "drop-mate"
        );
        assert_eq!(
            GameProblemKind::Defect(DefectKind::ZeroCastling).to_string(),
            "zero-castling"
        );
        assert_eq!(GameProblemKind::OutOfTurn.name(), "out-of-turn");
        assert_eq!(ResultReading::Team.name(), "team");
        assert_eq!(Status::Illegal.name(), "illegal");
    }

    /// The list of every kind names each once, and every name reads back as its kind
    /// (what a record read back from JSON holds).
    #[cfg(feature = "serde")]
    #[test]
    fn every_kind_is_listed_once_and_reads_back_by_name() {
        use crate::name::Named;
        let all: Vec<GameProblemKind> = GameProblemKind::all().collect();
        let names: std::collections::HashSet<&str> = all.iter().map(|k| k.name()).collect();
        assert_eq!(names.len(), all.len(), "one name per kind");
        assert_eq!(
            all.len(),
            IllegalReason::ALL.len() + DefectKind::ALL.len() + 30
        );
        for kind in all {
            assert_eq!(GameProblemKind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(GameProblemKind::from_name("no-such-kind"), None);
    }

    /// Totals count games, plies, illegal and unplayable games and warnings, and two runs'
    /// totals add up to the totals of both.
    #[test]
    fn totals_add_and_merge() {
        let reports = crate::game::validate_str(
            "[Event \"a\"]\n\n1. e4 e5 2. Nf3 *\n\n\
             [Event \"b\"]\n\n1. e4 e5 2. Ke3 *\n\n\
             [Event \"c\"]\n[Variant \"Nonsense\"]\n\n1. e4 *\n\n\
             [Event \"d\"]\n\n1... e4 2. e5 *\n",
            &crate::game::Options {
                strict: true,
                ..crate::game::Options::default()
            },
        );
        let statuses: Vec<Status> = reports.iter().map(|r| r.status).collect();
        assert_eq!(
            statuses,
            [Status::Ok, Status::Illegal, Status::Error, Status::Ok]
        );
        assert_eq!(
            reports
                .iter()
                .map(GameReport::has_errors)
                .collect::<Vec<_>>(),
            [false, true, true, false]
        );
        let mut first = Totals::default();
        let mut second = Totals::default();
        for r in &reports[..1] {
            first.add(r);
        }
        for r in &reports[1..] {
            second.add(r);
        }
        assert_eq!(
            (
                first.games,
                first.plies,
                first.illegal_games,
                first.error_games
            ),
            (1, 3, 0, 0)
        );
        let per_game: Vec<usize> = reports.iter().map(GameReport::warnings).collect();
        assert_eq!(per_game, [0, 0, 0, 2], "{reports:?}");
        let warnings = 2;
        let mut all = first;
        all.merge(&second);
        let mut at_once = Totals::default();
        for r in &reports {
            at_once.add(r);
        }
        assert_eq!(all, at_once);
        assert_eq!(
            (all.games, all.illegal_games, all.error_games, all.warnings),
            (4, 1, 1, warnings)
        );
    }
}
