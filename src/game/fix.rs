//! Repairing the known faults of archives: the work of `pgn fix`, one game at a time.
//!
//! A game is read as `validate` reads it; each fault found is repaired by an edit of the
//! game's own text (a tag's value, a tag added, moves cut), so that the rest of the game
//! stays byte for byte as it was. The repaired game is validated again: when it is still
//! not valid, no repair is kept and the game is handed back as it was.
//!
//! ```
//! use pocketfen::game::{FixOptions, FixVerdict, Options, RepairKind, fix_game};
//! use pocketfen::stream::RawGame;
//! let pgn = "[Event \"x\"]\n[Round \"1\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 3. Kf2 1-0\n";
//! let fixed = fix_game(&RawGame::new(pgn.as_bytes().to_vec()), FixOptions::default(), &Options::default());
//! assert_eq!(fixed.verdict, FixVerdict::Repaired);
//! let kinds: Vec<_> = fixed.repairs.iter().map(|r| r.kind).collect();
//! assert_eq!(kinds, [RepairKind::MovesAfterEnd, RepairKind::Result, RepairKind::ResultMarker]);
//! assert_eq!(
//!     fixed.text.as_deref(),
//!     Some("[Event \"x\"]\n[Round \"1\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n")
//! );
//! ```

use std::ops::Range;

use super::convert::Target;
use super::header::{Options, unescape};
use super::problem::{GameProblem, GameProblemKind, GameReport};
use super::row::{BoardEnd, GameRows, RowOptions, game_rows};
use super::validate::{game_text, validate_game};
use crate::position::Position;
use crate::setup::Setup;
use crate::stream::RawGame;
use crate::stream::token::{TokenKind, Tokenizer, is_loose_value};
use crate::types::Color;
use crate::variant::{Rules, Variant};

/// The repairs asked for besides the known faults, which are always repaired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FixOptions {
    /// Leave out the games Lichess's export left unfinished: Result `*` and Termination
    /// `Abandoned`.
    pub drop_abandoned: bool,
    /// Add `[PlyCount]`, or correct it, to the number of mainline plies.
    pub plycount: bool,
}

/// What a repair mends. The name of each ([`RepairKind::name`]) is the `what` of the
/// JSON records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum RepairKind {
    /// A tag value with a quote or backslash that is not escaped, escaped.
    TagEscape,
    /// A missing `[Variant]` written: the variant the game was read as (a drop:
    /// Crazyhouse; a BPGN: Bughouse; a FICS event name) or Horde for Horde's start.
    Variant,
    /// Castling rights in `[FEN]` that no king and rook allow, dropped.
    ImpossibleCastling,
    /// `[Date]`, missing or all `?`, taken from `[UTCDate]`.
    Date,
    /// A missing `[Round]` written as `-`.
    Round,
    /// The moves after the game's end on the board, cut.
    MovesAfterEnd,
    /// The Result tag, set to the replayed end.
    Result,
    /// The movetext's result marker, set to the Result (added after the last move when
    /// the movetext has none).
    ResultMarker,
    /// `[PlyCount]` added or corrected ([`FixOptions::plycount`]).
    PlyCount,
    /// An abandoned game left out ([`FixOptions::drop_abandoned`]).
    Abandoned,
}

impl RepairKind {
    /// Every kind, in the order of the summaries.
    pub const ALL: [RepairKind; 10] = [
        RepairKind::TagEscape,
        RepairKind::Variant,
        RepairKind::ImpossibleCastling,
        RepairKind::Date,
        RepairKind::Round,
        RepairKind::MovesAfterEnd,
        RepairKind::Result,
        RepairKind::ResultMarker,
        RepairKind::PlyCount,
        RepairKind::Abandoned,
    ];

    /// `tag-escape`, `variant`, `impossible-castling`, `date`, `round`,
    /// `moves-after-end`, `result`, `result-marker`, `plycount` or `abandoned`.
    pub fn name(self) -> &'static str {
        match self {
            RepairKind::TagEscape => "tag-escape",
            RepairKind::Variant => "variant",
            RepairKind::ImpossibleCastling => "impossible-castling",
            RepairKind::Date => "date",
            RepairKind::Round => "round",
            RepairKind::MovesAfterEnd => "moves-after-end",
            RepairKind::Result => "result",
            RepairKind::ResultMarker => "result-marker",
            RepairKind::PlyCount => "plycount",
            RepairKind::Abandoned => "abandoned",
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for RepairKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// One repair of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Repair {
    /// What it mends.
    #[cfg_attr(feature = "serde", serde(rename = "what"))]
    pub kind: RepairKind,
    /// 1-based line in the archive of the text it changes (of the tag a new tag is
    /// written before or after).
    pub line: usize,
    /// The text as it was (empty: none; for moves cut, the moves).
    pub before: String,
    /// The text as it is now (empty: none).
    pub after: String,
}

/// What became of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixVerdict {
    /// Nothing to repair: written as it was.
    Unchanged,
    /// Repaired, and valid.
    Repaired,
    /// Left out ([`FixOptions::drop_abandoned`]).
    Dropped,
    /// Not valid, and no repair makes it valid: written as it was (the repairs that
    /// were tried are listed, none made).
    Unrepaired,
}

impl FixVerdict {
    /// `unchanged`, `repaired`, `dropped` or `unrepaired`.
    pub fn name(self) -> &'static str {
        match self {
            FixVerdict::Unchanged => "unchanged",
            FixVerdict::Repaired => "repaired",
            FixVerdict::Dropped => "dropped",
            FixVerdict::Unrepaired => "unrepaired",
        }
    }
}

/// A game after [`fix_game`].
#[derive(Debug, Clone)]
pub struct Fixed {
    /// What became of it.
    pub verdict: FixVerdict,
    /// The repairs made (with [`FixVerdict::Unrepaired`]: tried, and not kept).
    pub repairs: Vec<Repair>,
    /// The repaired game ([`FixVerdict::Repaired`] only), in UTF-8.
    pub text: Option<String>,
    /// The report of the game as written: of the repaired game, or of the game as it
    /// was.
    pub report: GameReport,
}

/// A tag of the game's text, located.
struct TagAt<'t> {
    name: &'t str,
    value: &'t str,
    /// Its value's bytes (between its quotes).
    value_at: Range<usize>,
    /// From its `[` to just after its `]`.
    at: Range<usize>,
}

/// The parts of a game's text a repair edits.
struct Layout<'t> {
    text: &'t str,
    tags: Vec<TagAt<'t>>,
    /// The movetext, not tokenized yet.
    body: Tokenizer<'t>,
    /// The mainline movetext tokens: kind, and bytes (read when a repair needs them).
    mainline: std::cell::OnceCell<Vec<(TokenKind<'t>, Range<usize>)>>,
    /// The line ending of the tag lines.
    newline: &'static str,
    /// A table's row or a JSON archive's entry: its tags on its first line (line 0),
    /// its movetext after.
    row: bool,
}

impl<'t> Layout<'t> {
    fn new(text: &'t str, row: bool) -> Layout<'t> {
        let mut tokens = Tokenizer::new(text);
        let mut tags = Vec::new();
        let base = text.as_ptr() as usize;
        tokens.tag_section(|name, value, offset| {
            let start = value.as_ptr() as usize - base;
            let value_at = start..start + value.len();
            // The `]` after the closing quote.
            let close = text[value_at.end..]
                .find(']')
                .map_or(text.len(), |i| value_at.end + i + 1);
            tags.push(TagAt {
                name,
                value,
                value_at,
                at: offset..close,
            });
        });
        let body = tokens;
        // The line ending of the game's first line.
        let newline = match memchr::memchr(b'\n', text.as_bytes()) {
            Some(i) if i > 0 && text.as_bytes()[i - 1] == b'\r' => "\r\n",
            _ => "\n",
        };
        Layout {
            text,
            tags,
            body,
            mainline: std::cell::OnceCell::new(),
            newline,
            row,
        }
    }

    /// The mainline movetext tokens, read the first time they are asked for.
    fn mainline(&self) -> &[(TokenKind<'t>, Range<usize>)] {
        self.mainline.get_or_init(|| {
            let mut mainline = Vec::new();
            let mut depth = 0usize;
            for t in self.body.clone() {
                match t.kind {
                    TokenKind::VariationStart => depth += 1,
                    TokenKind::VariationEnd => depth = depth.saturating_sub(1),
                    kind if depth == 0 => {
                        mainline.push((kind, t.offset..t.offset + t.text.len()));
                    }
                    _ => {}
                }
            }
            mainline
        })
    }

    fn tag(&self, name: &str) -> Option<&TagAt<'t>> {
        self.tags.iter().find(|t| t.name == name)
    }

    /// The result marker ending the main line (comments, NAGs or variations may follow
    /// it).
    fn marker(&self) -> Option<(&'t str, Range<usize>)> {
        self.mainline()
            .iter()
            .rev()
            .find_map(|(kind, at)| match kind {
                TokenKind::Result(r) => Some((*r, at.clone())),
                _ => None,
            })
    }

    /// Whether the text ends with a result marker outside a comment, told from its last
    /// line alone: the common case, without reading the movetext's tokens. (A `}` cannot
    /// be left open before a marker in a game without errors.)
    fn ends_with_marker(&self) -> bool {
        let text = self.text.trim_end().as_bytes();
        let line = &text[memchr::memrchr2(b'\n', b'\r', text).map_or(0, |n| n + 1)..];
        memchr::memchr(b';', line).is_none()
            && !line.starts_with(b"%")
            && crate::stream::split::ends_with_result(text)
    }

    /// The last token of the movetext, at any depth (a variation's `)` too): its kind
    /// and where it ends.
    fn last_token(&self) -> Option<(TokenKind<'t>, usize)> {
        self.body
            .clone()
            .last()
            .map(|t| (t.kind, t.offset + t.text.len()))
    }

    /// Where a new tag goes after `after` (the first of them the game has), or before
    /// `before`, or at the end of the tags: the offset, and the text around the tag.
    fn insertion(&self, after: &[&str], before: &[&str]) -> (usize, &'static str, &'static str) {
        let text = self.text;
        let after_tag = after.iter().find_map(|n| self.tag(n));
        if after_tag.is_none()
            && let Some(t) = before.iter().find_map(|n| self.tag(n))
        {
            if self.row {
                return (t.at.start, "", " ");
            }
            return (t.at.start, "", self.newline);
        }
        if let Some(t) = after_tag.or_else(|| self.tags.last()) {
            if self.row {
                // A table's row has all its tags on its first line.
                return (t.at.end, " ", "");
            }
            let rest = &text[t.at.end..];
            let line_end = rest.find('\n').map_or(rest.len(), |i| i + 1);
            if rest[..line_end].trim().is_empty() && line_end > 0 {
                return (t.at.end + line_end, "", self.newline);
            }
            return (t.at.end, " ", "");
        }
        if self.row {
            return (0, "", "");
        }
        (0, "", self.newline)
    }
}

/// An edit of the game's text: the bytes `at` replaced by `text`.
#[derive(Clone)]
struct Edit {
    at: Range<usize>,
    text: String,
}

/// The edits applied to `text`, in order of their place (insertions at one place in the
/// order they were made).
fn apply(text: &str, edits: &[Edit]) -> String {
    let mut order: Vec<&Edit> = edits.iter().collect();
    order.sort_by_key(|e| e.at.start);
    let mut out = String::with_capacity(text.len() + 64);
    let mut at = 0;
    for e in order {
        if e.at.start < at {
            continue;
        }
        out.push_str(&text[at..e.at.start]);
        out.push_str(&e.text);
        at = e.at.end;
    }
    out.push_str(&text[at..]);
    out
}

/// `value` escaped for a tag: `"` and `\` after a backslash.
fn escaped(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 4);
    for c in value.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The repairs of a game, collected as edits of its text.
struct Repairs<'t> {
    layout: Layout<'t>,
    /// The game's first line, and the column of its first byte on it.
    first_line: usize,
    first_column: usize,
    edits: Vec<Edit>,
    repairs: Vec<Repair>,
}

impl<'t> Repairs<'t> {
    fn line(&self, offset: usize) -> usize {
        self.first_line + line_ends(&self.layout.text.as_bytes()[..offset]).count()
    }

    /// Writes `result` as the movetext's marker after its last token when it has none
    /// (a game without moves is left as it is).
    fn add_marker(&mut self, result: &str) {
        if self.layout.ends_with_marker()
            || self.layout.marker().is_some()
            || !self
                .layout
                .mainline()
                .iter()
                .any(|(kind, _)| matches!(kind, TokenKind::Move(_)))
        {
            return;
        }
        let Some((last, end)) = self.layout.last_token() else {
            return;
        };
        // Moves cut after the end up to there: the marker takes their place.
        let cut = self
            .edits
            .iter()
            .position(|e| e.at.start < end && e.at.end >= end && e.text.is_empty());
        let line = match cut {
            Some(i) => {
                let start = self.edits[i].at.start;
                self.edits[i].text = result.to_owned();
                self.line(start)
            }
            None => {
                // A `;` comment runs to the end of its line: the marker goes on the next.
                let space = match last {
                    TokenKind::LineComment(_) => self.layout.newline,
                    _ => " ",
                };
                self.edits.push(Edit {
                    at: end..end,
                    text: format!("{space}{result}"),
                });
                self.line(end) + usize::from(space != " ")
            }
        };
        self.repairs.push(Repair {
            kind: RepairKind::ResultMarker,
            line,
            before: String::new(),
            after: result.to_owned(),
        });
    }

    fn replace(&mut self, kind: RepairKind, at: Range<usize>, after: String) {
        let before = self.layout.text[at.clone()].to_owned();
        self.repairs.push(Repair {
            kind,
            line: self.line(at.start),
            before,
            after: after.clone(),
        });
        self.edits.push(Edit { at, text: after });
    }

    /// Sets tag `name` to `value` (kept escaped as given), adding it where `place`
    /// says when the game has none.
    fn set_tag(&mut self, kind: RepairKind, name: &str, value: &str, place: (&[&str], &[&str])) {
        if let Some(t) = self.layout.tag(name) {
            let at = t.value_at.clone();
            self.replace(kind, at, value.to_owned());
            return;
        }
        let (offset, lead, trail) = self.layout.insertion(place.0, place.1);
        let line = self.line(offset);
        let text = format!("{lead}[{name} \"{value}\"]{trail}");
        self.repairs.push(Repair {
            kind,
            line,
            before: String::new(),
            after: value.to_owned(),
        });
        self.edits.push(Edit {
            at: offset..offset,
            text,
        });
    }
}

/// Whether the report has a problem of `kind`.
fn has(report: &GameReport, kind: GameProblemKind) -> Option<&GameProblem> {
    report.problems.iter().find(|p| p.kind == kind)
}

/// The byte offset of a problem's line and column in `text` (the game's first byte at
/// line `first.0`, column `first.1`).
fn offset_of(text: &str, first: (usize, usize), p: &GameProblem) -> Option<usize> {
    let skip = p.line.checked_sub(first.0)?;
    let (start, column) = match skip.checked_sub(1) {
        None => (0, p.column.checked_sub(first.1)?),
        Some(n) => (line_ends(text.as_bytes()).nth(n)?, p.column.checked_sub(1)?),
    };
    let line = &text[start..];
    let col = line
        .char_indices()
        .nth(column)
        .map_or(line.len(), |(i, _)| i);
    Some(start + col)
}

/// Where each line of `bytes` after the first starts: after `\n`, `\r\n`, or a lone `\r`,
/// the line ends the validator counts.
fn line_ends(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr2_iter(b'\n', b'\r', bytes).filter_map(|i| match bytes[i] {
        // A `\r` before a `\n` ends its line with that `\n`.
        b'\r' if bytes.get(i + 1) == Some(&b'\n') => None,
        _ => Some(i + 1),
    })
}

/// The result the board's end gives, if the game ended on the board. A bughouse match's
/// is from the view of the board it ended on, as bughousedb and Chess.com write it.
fn replayed_result(made: &GameRows) -> Option<&'static str> {
    let row = &made.game;
    match row.end? {
        BoardEnd::Stalemate | BoardEnd::InsufficientMaterial => Some("1/2-1/2"),
        BoardEnd::Checkmate | BoardEnd::DropMate | BoardEnd::Extinction => match row.winner? {
            Color::White => Some("1-0"),
            Color::Black => Some("0-1"),
        },
    }
}

/// Castling letters of a one-board FEN `value` that `rules` allow no king and rook for,
/// removed: the new value, if any was.
fn clean_fen(value: &str, rules: Rules) -> Option<String> {
    let setup: Setup = value.trim().parse().ok()?;
    let (_, dropped) = Position::clean_castling(&setup, rules);
    if dropped.is_empty() {
        return None;
    }
    // The castling field: the third of the fields separated by blanks.
    let mut fields: Vec<String> = value.split(' ').map(str::to_owned).collect();
    let index = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.is_empty())
        .nth(2)
        .map(|(i, _)| i)?;
    let mut castling = fields[index].clone();
    for flag in dropped {
        if let Some(i) = castling.find(flag.char()) {
            castling.remove(i);
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    fields[index] = castling;
    Some(fields.join(" "))
}

/// A Lichess `*` game whose Termination says it was abandoned.
fn abandoned(layout: &Layout<'_>) -> bool {
    layout.tag("Result").is_some_and(|t| t.value.trim() == "*")
        && layout
            .tag("Termination")
            .is_some_and(|t| t.value.trim().eq_ignore_ascii_case("abandoned"))
}

/// The repairs of the tags and the cut of moves after the end, found in the game as it
/// was (`report` is its report).
fn first_repairs(r: &mut Repairs<'_>, report: &GameReport, opts: &Options) {
    let layout_tags: Vec<(Range<usize>, &str)> = r
        .layout
        .tags
        .iter()
        .filter(|t| is_loose_value(t.value))
        .map(|t| (t.value_at.clone(), t.value))
        .collect();
    for (at, value) in layout_tags {
        r.replace(RepairKind::TagEscape, at, escaped(&unescape(value)));
    }
    // The variant, when the game has no tag for it.
    let mut variant = report.variant;
    if r.layout.tag("Variant").is_none() {
        let horde = r
            .layout
            .tag("FEN")
            .and_then(|t| t.value.trim().parse::<Setup>().ok())
            .is_some_and(|s| s.board == Setup::horde_start().board);
        let told = match opts.variant {
            Some(v) => Some(v),
            None if horde => Some(Variant::Horde),
            None if has(report, GameProblemKind::VariantInferred).is_some() => report.variant,
            None if report.variant == Some(Variant::Bughouse) => Some(Variant::Bughouse),
            None => None,
        };
        if let Some(v) = told.filter(|&v| v != Variant::Chess) {
            variant = Some(v);
            let name = Target::Lichess.variant_name(v).unwrap_or(v.name());
            r.set_tag(
                RepairKind::Variant,
                "Variant",
                name,
                (&[], &["FEN", "SetUp", "TimeControl", "ECO", "Termination"]),
            );
        }
    }
    // Castling rights that no king and rook allow (each board of a pair).
    if let (Some(t), Some(v)) = (r.layout.tag("FEN"), variant) {
        let rules = Rules::new(v);
        let parts: Vec<&str> = t.value.split('|').collect();
        let cleaned: Vec<Option<String>> = parts.iter().map(|p| clean_fen(p, rules)).collect();
        if cleaned.iter().any(Option::is_some) {
            let value = parts
                .iter()
                .zip(cleaned)
                .map(|(p, c)| c.unwrap_or_else(|| (*p).to_owned()))
                .collect::<Vec<_>>()
                .join("|");
            let at = t.value_at.clone();
            r.replace(RepairKind::ImpossibleCastling, at, value);
        }
    }
    // The date, from UTCDate.
    let unknown = |v: &str| v.trim().chars().all(|c| c == '?' || c == '.');
    if let Some(utc) = r
        .layout
        .tag("UTCDate")
        .map(|t| t.value)
        .filter(|v| !unknown(v))
        && r.layout.tag("Date").is_none_or(|t| unknown(t.value))
    {
        r.set_tag(
            RepairKind::Date,
            "Date",
            utc,
            (&["Site", "Event"], &["Round", "White", "Black", "Result"]),
        );
    }
    if r.layout.tag("Round").is_none() {
        r.set_tag(
            RepairKind::Round,
            "Round",
            "-",
            (&["Date", "Site", "Event"], &["White", "Black", "Result"]),
        );
    }
    // Moves after the end, cut up to the result marker.
    let text = r.layout.text;
    if let Some(p) = has(report, GameProblemKind::MoveAfterEnd)
        && let Some(offset) = offset_of(text, (r.first_line, r.first_column), p)
        && let Some(i) = r
            .layout
            .mainline()
            .iter()
            .position(|(_, at)| at.start == offset)
    {
        let mut start = offset;
        if i > 0 && matches!(r.layout.mainline()[i - 1].0, TokenKind::MoveNumber(_)) {
            start = r.layout.mainline()[i - 1].1.start;
        }
        let end = match r.layout.marker() {
            Some((_, at)) if at.start > start => at.start,
            _ => text.trim_end().len(),
        };
        let cut = text[start..end].trim_end().to_owned();
        r.repairs.push(Repair {
            kind: RepairKind::MovesAfterEnd,
            line: r.line(start),
            before: cut,
            after: String::new(),
        });
        r.edits.push(Edit {
            at: start..end,
            text: String::new(),
        });
    }
}

/// The repairs of the result and the ply count, found in the game after the first
/// repairs (`made` its rows), made on the game as it was.
fn end_repairs(
    r: &mut Repairs<'_>,
    report: &GameReport,
    rows: impl FnOnce() -> GameRows,
    fix: FixOptions,
) {
    if report.has_errors() {
        return;
    }
    let tag = r
        .layout
        .tag("Result")
        .map(|t| (t.value, t.value_at.clone()));
    let standard = |v: &str| matches!(v, "1-0" | "0-1" | "1/2-1/2");
    if has(report, GameProblemKind::ResultMismatch).is_some() {
        // The end on the board, from a walk that keeps it (only for these games).
        let made = rows();
        let result =
            replayed_result(&made).or(tag.as_ref().map(|(v, _)| *v).filter(|v| standard(v)));
        if let Some(result) = result {
            // A tag spelt otherwise (`1–0`, `½-½`) is read as its result, and rewritten.
            if let Some((value, at)) = tag
                && crate::stream::token::read_result(value.trim()).is_some_and(standard)
                && value != result
            {
                r.replace(RepairKind::Result, at, result.to_owned());
            }
            if let Some((m, at)) = r.layout.marker()
                && m != result
            {
                r.replace(RepairKind::ResultMarker, at, result.to_owned());
            }
            r.add_marker(result);
        }
    } else if let Some((value, _)) = &tag
        && let Some(result) = crate::stream::token::read_result(value)
    {
        // No disagreement: a missing marker is the Result tag's (`*` too).
        r.add_marker(result);
    }
    if fix.plycount {
        let plies = report.plies.to_string();
        if r.layout
            .tag("PlyCount")
            .is_none_or(|t| t.value.trim() != plies)
        {
            r.set_tag(RepairKind::PlyCount, "PlyCount", &plies, (&[], &[]));
        }
    }
}

/// Repairs `game`'s known faults (see [`RepairKind`]), read under `opts`.
pub fn fix_game(game: &RawGame, fix: FixOptions, opts: &Options) -> Fixed {
    let first = validate_game(game, opts);
    if game.too_large.is_some() {
        return Fixed {
            verdict: FixVerdict::Unrepaired,
            repairs: Vec::new(),
            text: None,
            report: first,
        };
    }
    let text = game_text(&game.bytes);
    let mut r = Repairs {
        layout: Layout::new(&text, game.line == 0),
        first_line: game.line,
        first_column: game.column.max(1),
        edits: Vec::new(),
        repairs: Vec::new(),
    };
    if fix.drop_abandoned && abandoned(&r.layout) {
        let at = r.layout.tag("Result").map_or(0..0, |t| t.value_at.clone());
        r.repairs.push(Repair {
            kind: RepairKind::Abandoned,
            line: r.line(at.start),
            before: "*".to_owned(),
            after: String::new(),
        });
        return Fixed {
            verdict: FixVerdict::Dropped,
            repairs: r.repairs,
            text: None,
            report: first,
        };
    }
    first_repairs(&mut r, &first, opts);
    let no_tags = r.layout.tags.is_empty() && game.line > 0;
    let newline = r.layout.newline;
    let again = |edits: &[Edit]| {
        let mut edits = edits.to_vec();
        if no_tags && edits.iter().any(|e| e.at == (0..0)) {
            // Tags for a game that had none: a blank line between them and the moves.
            edits.push(Edit {
                at: 0..0,
                text: newline.to_owned(),
            });
        }
        RawGame {
            bytes: apply(&text, &edits).into_bytes(),
            ..game.clone()
        }
    };
    let cut = (!r.edits.is_empty()).then(|| again(&r.edits));
    let second = cut.as_ref().map(|g| validate_game(g, opts));
    let rows = || game_rows(cut.as_ref().unwrap_or(game), opts, RowOptions::default());
    end_repairs(&mut r, second.as_ref().unwrap_or(&first), rows, fix);
    if r.edits.is_empty() {
        let verdict = if first.has_errors() {
            FixVerdict::Unrepaired
        } else {
            FixVerdict::Unchanged
        };
        return Fixed {
            verdict,
            repairs: Vec::new(),
            text: None,
            report: first,
        };
    }
    let repaired = again(&r.edits);
    let report = validate_game(&repaired, opts);
    if report.has_errors() {
        return Fixed {
            verdict: FixVerdict::Unrepaired,
            repairs: r.repairs,
            text: None,
            report: first,
        };
    }
    r.repairs.sort_by_key(|rep| rep.kind);
    Fixed {
        verdict: FixVerdict::Repaired,
        repairs: r.repairs,
        text: String::from_utf8(repaired.bytes).ok(),
        report,
    }
}

#[cfg(test)]
mod tests;
