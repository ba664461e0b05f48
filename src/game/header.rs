//! The one game reader: how every command (`validate`, `replay`, `pgn convert`, the
//! bughouse path) reads a game's header and start from the same [`Options`].
//!
//! A game's variant comes from `--variant` (the override), else `[Variant]` (with the
//! aliases of Lichess, chessops, python-chess, cutechess and Xboard), else an `[Event]`
//! naming crazyhouse, else crazyhouse if a move drops a piece (both a `variant-inferred`
//! warning), else chess. It is a bughouse match
//! (BPGN) when the options say so, or its variant is Bughouse, its tags name four players
//! or its first move number carries a board letter (`1A.`). Its start is `[FEN]` in any
//! dialect (a pair `A | B` for a match), or the variant's start; a Horde game with the
//! standard start FEN (Lichess's 2021 export bug) warns and starts from the Horde start.

use std::borrow::Cow;

use super::problem::{At, GameProblemKind, Reporter};
use crate::bughouse::{BoardId, Match};
use crate::notation::san::{San, SanPlus};
use crate::position::Position;
use crate::setup::{Fen, Setup};
use crate::stream::token::{Token, TokenKind, Tokenizer};
use crate::variant::{Rules, Variant};

/// How deep variations may nest (real games stay below ten); deeper nesting is an error,
/// so that nothing that walks the move tree recursively can exhaust its stack.
pub const MAX_VARIATION_DEPTH: usize = 256;

/// Plain PGN or bughouse PGN.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Format {
    /// Each game decides by its tags and move numbers.
    #[default]
    Auto,
    /// Every game is PGN (never a bughouse match).
    Pgn,
    /// Every game is a bughouse match.
    Bpgn,
    /// The file's name says BPGN (`.bpgn`): every game is a bughouse match, but for a game
    /// that names a one-board pocket variant and moves on board A only (a crazyhouse game
    /// written in BPGN form, as Sunsetter writes them).
    BpgnFile,
}

impl std::str::FromStr for Format {
    type Err = crate::ParseNameError;
    /// `auto`, `pgn` or `bpgn`.
    fn from_str(s: &str) -> Result<Format, crate::ParseNameError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(Format::Auto),
            "pgn" => Ok(Format::Pgn),
            "bpgn" => Ok(Format::Bpgn),
            _ => Err(<Format as crate::Choice>::unknown(s)),
        }
    }
}

impl crate::Choice for Format {
    const WHAT: &'static str = "format";
    const NAMES: &'static [&'static str] = &["auto", "pgn", "bpgn"];
}

impl Format {
    /// The format a file name calls for: [`Format::BpgnFile`] when it ends in `.bpgn`
    /// (before any compression's ending, as [`crate::stream::is_bpgn_name`] reads it),
    /// else [`Format::Auto`].
    ///
    /// ```
    /// use pocketfen::game::Format;
    /// assert_eq!(Format::from_path("matches.BPGN.zst"), Format::BpgnFile);
    /// assert_eq!(Format::from_path("games.pgn"), Format::Auto);
    /// ```
    pub fn from_path(path: &str) -> Format {
        if crate::stream::is_bpgn_name(path) {
            Format::BpgnFile
        } else {
            Format::Auto
        }
    }
}

/// How to read and judge games: the one set of options every command takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Overrides every game's `[Variant]`.
    pub variant: Option<Variant>,
    /// Report non-canonical SAN, move numbers that do not fit and a missing result marker
    /// as warnings.
    pub strict: bool,
    /// Validate the moves of variations too (they are always parsed).
    pub variations: bool,
    /// Whether a drop may give checkmate (on by default; bughouse clubs may forbid it).
    pub drop_mate: bool,
    /// PGN, BPGN, or each game by its content.
    pub format: Format,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            variant: None,
            strict: false,
            variations: false,
            drop_mate: true,
            format: Format::Auto,
        }
    }
}

/// A tag value with `\"` and `\\` resolved (borrowed when there are none).
pub(crate) fn unescape(v: &str) -> Cow<'_, str> {
    if v.contains('\\') {
        Cow::Owned(v.replace("\\\"", "\"").replace("\\\\", "\\"))
    } else {
        Cow::Borrowed(v)
    }
}

/// The slot of a tag name in [`SLOTS`], from its length and its first and last bytes,
/// a letter's two cases alike: the last's by `| 0x20`, and the first's because the bit
/// that tells them, 32, counts 32 × 22 = 11 × 64 (nothing, modulo 64).
const fn slot(len: usize, first: u8, last: u8) -> usize {
    (len.wrapping_mul(14) + first as usize * 22 + (last as usize | 0x20)) & 63
}

/// Each slot's place in [`Tags::READ`], or 255; building it fails to compile if two
/// names share a slot.
static SLOTS: [u8; 64] = {
    let mut slots = [u8::MAX; 64];
    let mut i = 0;
    while i < Tags::READ.len() {
        let b = Tags::READ[i].as_bytes();
        let s = slot(b.len(), b[0], b[b.len() - 1]);
        assert!(slots[s] == u8::MAX, "two tag names share a slot");
        slots[s] = i as u8;
        i += 1;
    }
    slots
};

/// The tags validation reads, with the byte offset of each (the first of each name).
#[derive(Default)]
pub(crate) struct Tags<'t> {
    values: [Option<(Cow<'t, str>, usize)>; 13],
}

impl<'t> Tags<'t> {
    const READ: [&'static str; 13] = [
        "Variant",
        "Event",
        "FEN",
        "Result",
        "PlyCount",
        "CurrentPosition",
        "WhiteA",
        "BlackA",
        "WhiteB",
        "BlackB",
        "TimeControl",
        "ECO",
        "Opening",
    ];

    /// The place in [`READ`](Self::READ) of a name, in any case: the name's length and
    /// its first and last letters hash to one slot of [`SLOTS`] (no two names of the list
    /// share one), whose name one comparison then confirms. Most tags of a game are none
    /// of these, and the common ones (the Seven Tag Roster, Lichess's and FIDE's) all
    /// meet an empty slot.
    fn index(name: &str) -> Option<usize> {
        let b = name.as_bytes();
        let (&first, &last) = (b.first()?, b.last()?);
        let i = usize::from(SLOTS[slot(b.len(), first, last)]);
        Self::READ.get(i)?.eq_ignore_ascii_case(name).then_some(i)
    }

    /// Keeps the first tag of each name read; `true` for a second `Variant`, `FEN`,
    /// `Result` or `CurrentPosition` (a value that a re-export cannot keep).
    pub(crate) fn insert(&mut self, name: &str, value: &'t str, offset: usize) -> bool {
        let Some(i) = Self::index(name) else {
            return false;
        };
        if self.values[i].is_some() {
            return matches!(
                Self::READ[i],
                "Variant" | "FEN" | "Result" | "CurrentPosition"
            );
        }
        self.values[i] = Some((unescape(value), offset));
        false
    }

    /// The Result tag's value, read as a result where it spells one (`1–0` as `1-0`), and
    /// its offset.
    pub(crate) fn result(&self) -> Option<(&str, usize)> {
        self.get("Result").map(|(v, o)| match v {
            "1-0" | "0-1" | "1/2-1/2" | "*" => (v, o),
            _ => (crate::stream::token::read_result(v).unwrap_or(v), o),
        })
    }

    /// The value and offset of a tag validation reads.
    pub(crate) fn get(&self, name: &str) -> Option<(&str, usize)> {
        let i = Self::index(name).expect("a tag validation reads");
        self.values[i].as_ref().map(|(v, o)| (v.as_ref(), *o))
    }
}

/// The boards of a game: one position, or a bughouse match.
#[derive(Debug, Clone, Copy)]
pub enum Boards<'a> {
    /// A game on one board.
    One(&'a Position),
    /// A bughouse match.
    Two(&'a Match),
}

/// A game's start, as the header gives it.
#[derive(Debug, Clone)]
pub(crate) enum Start {
    One(Variant, Position),
    Two(Match),
}

/// Reads a game's variant, format and start from its tags and the start of its movetext.
///
/// # Errors
///
/// When the game cannot be replayed (the reason is reported): the variant, if it was told.
pub(crate) fn read_start(
    rep: &mut Reporter<'_>,
    tags: &Tags<'_>,
    movetext: &Tokenizer<'_>,
    opts: &Options,
) -> Result<Start, Option<Variant>> {
    let tag = |name: &str| tags.get(name);
    // The variant, and the Event tag or the drop it was inferred from (reported only if
    // the game is then read with that variant's rules).
    let (variant, inferred) = match (opts.variant, tag("Variant")) {
        (Some(v), _) => (v, None),
        (None, Some((value, offset))) => match value.parse::<Variant>() {
            Ok(v) => (v, None),
            Err(_) => {
                rep.unplayable(
                    GameProblemKind::UnknownVariant,
                    At::tag(value, offset),
                    format!(
                        "unknown variant `{}`; give --variant to validate it",
                        crate::notation::printable(value)
                    ),
                );
                return Err(None);
            }
        },
        (None, None) => match tag("Event") {
            Some((event, offset))
                if event
                    .as_bytes()
                    .windows(10)
                    .any(|w| w.eq_ignore_ascii_case(b"crazyhouse")) =>
            {
                (Variant::Crazyhouse, Some(Inferred::Event(event, offset)))
            }
            _ => match first_drop(movetext) {
                Some(drop) => (Variant::Crazyhouse, Some(Inferred::Drop(drop))),
                None => (Variant::Chess, None),
            },
        },
    };
    // A one-board pocket variant named (by `--variant`, `[Variant]` or `[Event]`) and
    // moves on board A only (Sunsetter's crazyhouse games): that variant's game, whatever
    // the tags and move numbers look like. A drop does not name one: a bughouse match
    // whose moves are on board A only, a drop among them, stays a match (its drop is
    // judged by bughouse's pockets).
    let named = !matches!(inferred, Some(Inferred::Drop(_)));
    let one_board =
        || named && variant.has_drops() && variant != Variant::Bughouse && board_a_only(movetext);
    let bpgn = match opts.format {
        Format::Bpgn => true,
        Format::Pgn => false,
        Format::BpgnFile => !one_board(),
        Format::Auto => looks_like_bpgn(variant, tag("WhiteA").is_some(), movetext) && !one_board(),
    };
    match (bpgn, inferred) {
        (false, Some(Inferred::Event(event, offset))) => rep.warn(
            GameProblemKind::VariantInferred,
            At::tag(event, offset),
            format!(
                "no [Variant] tag; the Event names crazyhouse, so the game is read as {variant}"
            ),
            None,
        ),
        (false, Some(Inferred::Drop(drop))) => rep.warn(
            GameProblemKind::VariantInferred,
            At {
                ply: None,
                token: Some(drop.text),
                offset: drop.offset,
            },
            format!("no [Variant] tag, and a piece is dropped, so the game is read as {variant}"),
            None,
        ),
        _ => {}
    }
    // A `[Variant]` of Chess960's (Chess960, Crazyhouse960, Bughouse960) marks the
    // boards as Chess960's, whatever the start (UCI castling is then king-takes-rook).
    let chess960 =
        tag("Variant").is_some_and(|(v, _)| crate::variant::names_960(&v.to_ascii_lowercase()));
    if bpgn {
        // `--variant` of one board cannot make a match one game: it is read as the
        // match it is, and the run says so (it was silent).
        if let Some(v) = opts.variant.filter(|&v| v != Variant::Bughouse) {
            let first = movetext
                .clone()
                .find(|t| matches!(t.kind, TokenKind::MoveNumber(_) | TokenKind::Move(_)));
            let at = match (first, tag("WhiteA")) {
                (Some(t), _) => At {
                    ply: None,
                    token: Some(t.text),
                    offset: t.offset,
                },
                (None, Some((value, offset))) => At::tag(value, offset),
                (None, None) => At {
                    ply: None,
                    token: None,
                    offset: 0,
                },
            };
            rep.warn(
                GameProblemKind::VariantNotApplied,
                at,
                format!(
                    "the variant asked for ({v}) is of one board, but the game is a bughouse match (two boards): read as bughouse"
                ),
                None,
            );
        }
        return read_match_start(rep, tags, opts)
            .map(|m| if chess960 { m.with_chess960() } else { m })
            .map(Start::Two)
            .ok_or(Some(Variant::Bughouse));
    }
    let mut rules = Rules::new(variant);
    rules.drop_mate = opts.drop_mate;
    let marked = |mut p: Position| {
        if chess960 {
            p.set_chess960();
        }
        p
    };
    let Some((value, offset)) = tag("FEN") else {
        return Ok(Start::One(variant, marked(Position::start_with(rules))));
    };
    let setup: Setup = match value.parse() {
        Ok(s) => s,
        Err(e) => {
            bad_fen(rep, GameProblemKind::BadFen, value, offset, e);
            return Err(Some(variant));
        }
    };
    let setup = if variant.is_horde() && setup == Setup::standard() {
        rep.warn(
            GameProblemKind::HordeStandardFen,
            At::tag(value, offset),
            "a Horde game with the standard start FEN (a Lichess export bug of 2021); the Horde start is used".to_owned(),
            None,
        );
        Setup::horde_start()
    } else {
        setup
    };
    let setup = match clean_castling(rep, &setup, rules, value, offset, opts.strict) {
        Ok(clean) => clean.unwrap_or(setup),
        Err(()) => return Err(Some(variant)),
    };
    match Position::from_setup(&setup, rules) {
        Ok(p) => Ok(Start::One(variant, marked(p))),
        Err(e) => {
            bad_fen(rep, GameProblemKind::IllegalFen, value, offset, e);
            Err(Some(variant))
        }
    }
}

/// A `[FEN]` board with castling rights that its kings and rooks do not allow (Caissa's
/// editor wrote `KQkq` regardless; Lichess's November 2023 Chess960 rematches,
/// lichess-org/database#54): without them, the board is played as python-chess and
/// Lichess play it, with an `impossible-castling` warning naming the rights dropped;
/// under `strict` that is an error and the game is not replayed. `Ok(None)`: nothing to
/// drop.
fn clean_castling(
    rep: &mut Reporter<'_>,
    setup: &Setup,
    rules: Rules,
    value: &str,
    offset: usize,
    strict: bool,
) -> Result<Option<Setup>, ()> {
    let (clean, dropped) = Position::clean_castling(setup, rules);
    if dropped.is_empty() {
        return Ok(None);
    }
    let why = Position::dropped_castling(&dropped);
    if strict {
        rep.unplayable(
            GameProblemKind::ImpossibleCastling,
            At::tag(value, offset),
            format!("FEN tag: {why}"),
        );
        return Err(());
    }
    rep.warn(
        GameProblemKind::ImpossibleCastling,
        At::tag(value, offset),
        format!("FEN tag: {why}: dropped, and the game replayed without them"),
        None,
    );
    Ok(Some(clean))
}

/// A `[FEN]` tag that does not parse or is not a legal position: the game cannot be
/// replayed.
fn bad_fen(
    rep: &mut Reporter<'_>,
    kind: GameProblemKind,
    value: &str,
    offset: usize,
    why: impl std::fmt::Display,
) {
    rep.unplayable(kind, At::tag(value, offset), format!("FEN tag: {why}"));
}

/// A bughouse match's start: the start position on both boards, or a `[FEN]` pair.
fn read_match_start(rep: &mut Reporter<'_>, tags: &Tags<'_>, opts: &Options) -> Option<Match> {
    let Some((value, offset)) = tags.get("FEN") else {
        return Some(Match::new().with_drop_mate(opts.drop_mate));
    };
    let [a, b] = match value.parse::<Fen>() {
        Ok(Fen::Pair(p)) => *p,
        Ok(Fen::Single(s)) => {
            rep.warn(
                GameProblemKind::BadFen,
                At::tag(value, offset),
                "a single FEN for a bughouse match; board B starts from the start position"
                    .to_owned(),
                None,
            );
            [s, Setup::crazyhouse_start()]
        }
        Err(e) => {
            bad_fen(rep, GameProblemKind::BadFen, value, offset, e);
            return None;
        }
    };
    let rules = Rules {
        drop_mate: opts.drop_mate,
        ..Rules::new(Variant::Bughouse)
    };
    let mut boards = [a, b];
    for board in &mut boards {
        match clean_castling(rep, board, rules, value, offset, opts.strict) {
            Ok(Some(clean)) => *board = clean,
            Ok(None) => {}
            Err(()) => return None,
        }
    }
    let [a, b] = boards;
    match Match::from_setups(&a, &b).map(|m| m.with_drop_mate(opts.drop_mate)) {
        Ok(m) => Some(m),
        Err((board, e)) => {
            bad_fen(
                rep,
                GameProblemKind::IllegalFen,
                value,
                offset,
                format_args!("board {board}: {e}"),
            );
            None
        }
    }
}

/// Whether a game is a bughouse match: its variant is Bughouse, its tags name four
/// players (`has_white_a`), or its first move number carries a board letter (`1A.`);
/// `movetext` stands at the movetext's start.
fn looks_like_bpgn(variant: Variant, has_white_a: bool, movetext: &Tokenizer<'_>) -> bool {
    variant == Variant::Bughouse
        || has_white_a
        || movetext
            .clone()
            .find(|t| matches!(t.kind, TokenKind::MoveNumber(_) | TokenKind::Move(_)))
            .is_some_and(|t| {
                matches!(t.kind, TokenKind::MoveNumber(n)
                    if n.trim_end_matches('.').ends_with(['A', 'a', 'B', 'b']))
            })
}

/// What an untagged game's variant was inferred from.
enum Inferred<'a> {
    /// An `[Event]` naming crazyhouse (FICS's `rated crazyhouse match`): its value and
    /// offset.
    Event(&'a str, usize),
    /// The movetext's first drop.
    Drop(Token<'a>),
}

/// The first drop (`N@f3`, `@e4`) of the movetext, in the main line or a variation: a
/// move token that reads as a drop, so that an `@` in a comment or in a garbled token
/// infers nothing. Almost every game has no `@` at all, and one search of the bytes says
/// so.
fn first_drop<'a>(movetext: &Tokenizer<'a>) -> Option<Token<'a>> {
    memchr::memchr(b'@', movetext.rest().as_bytes())?;
    movetext.clone().find(|t| {
        matches!(t.kind, TokenKind::Move(m) if m.contains('@')
            && SanPlus::from_ascii(m.as_bytes()).is_ok_and(|s| matches!(s.san, San::Put { .. })))
    })
}

/// Whether no move number of the movetext names board B (`1B.`, `1b.`).
fn board_a_only(movetext: &Tokenizer<'_>) -> bool {
    !movetext.clone().any(|t| {
        matches!(t.kind, TokenKind::MoveNumber(n)
            if n.trim_end_matches('.').ends_with(['B', 'b']))
    })
}

/// Where a move is played: its mainline ply (0 in a variation) and board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveAt {
    /// 1-based mainline ply (across both boards in bughouse); 0 inside a variation.
    pub ply: usize,
    /// The board, in a bughouse match.
    pub board: Option<BoardId>,
}

impl MoveAt {
    /// Whether the move is on the main line.
    pub fn is_mainline(self) -> bool {
        self.ply > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tag's place is found by a hash of its length and its first and last letters
    /// first: the same place as a scan of every name, in any case, and none for the names
    /// validation does not read.
    #[test]
    fn a_tag_is_found_by_its_length_and_name() {
        let scan = |name: &str| Tags::READ.iter().position(|r| r.eq_ignore_ascii_case(name));
        let mut names: Vec<String> = Vec::new();
        for name in Tags::READ {
            names.extend([
                name.to_owned(),
                name.to_ascii_lowercase(),
                name.to_ascii_uppercase(),
            ]);
        }
        for name in [
            "White",
            "Black",
            "Site",
            "Date",
            "Round",
            "WhiteElo",
            "BlackElo",
            "UTCDate",
            "UTCTime",
            "Termination",
            "Annotator",
            "SetUp",
            "Fen",
            "WhiteB2",
            "Whitea",
            "",
            "CurrentPositio",
            "TimeControls",
            "EC0",
        ] {
            names.push(name.to_owned());
        }
        for name in &names {
            assert_eq!(Tags::index(name), scan(name), "{name}");
        }
        assert_eq!(Tags::index("fen"), Some(2));
        assert_eq!(Tags::index("blackb"), Some(9));
        assert_eq!(Tags::index("vArIaNt"), Some(0));
        assert_eq!(Tags::index("White"), None);
        // The tags of nearly every game meet an empty slot: no comparison is made.
        for name in [
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "UTCDate",
            "UTCTime",
            "WhiteElo",
            "BlackElo",
            "WhiteRatingDiff",
            "BlackRatingDiff",
            "Termination",
            "WhiteTitle",
            "BlackTitle",
            "Annotator",
            "SetUp",
            "EventDate",
        ] {
            let b = name.as_bytes();
            assert_eq!(
                SLOTS[slot(b.len(), b[0], b[b.len() - 1])],
                u8::MAX,
                "{name}"
            );
        }
    }

    /// A game without a `[Variant]` tag whose Event names crazyhouse, in any case, and
    /// whose moves drop nothing, is read as crazyhouse because of its Event; another
    /// Event leaves it chess.
    #[test]
    fn an_event_naming_crazyhouse_in_any_case_makes_a_crazyhouse_game() {
        use crate::stream::RawGame;
        let read = |event: &str| {
            let text = format!("[Event \"{event}\"]\n\n1. e4 e5 *\n");
            let r =
                super::super::validate_game(&RawGame::new(text.into_bytes()), &Options::default());
            let why: Vec<String> = r.problems.iter().map(|p| p.reason.clone()).collect();
            (r.variant, why)
        };
        for event in ["rated CRAZYHOUSE match", "Crazyhouse", "blitz crazyHouse"] {
            let (variant, why) = read(event);
            assert_eq!(variant, Some(Variant::Crazyhouse), "{event}");
            assert!(
                why.iter().any(|w| w.contains("the Event names crazyhouse")),
                "{why:?}"
            );
        }
        for event in ["Rated Blitz game", "crazy house", "crazyhous"] {
            assert_eq!(read(event), (Some(Variant::Chess), vec![]), "{event}");
        }
    }

    #[test]
    fn a_bpgn_file_name_calls_for_bpgn() {
        for (path, format) in [
            ("matches.bpgn", Format::BpgnFile),
            ("dir.pgn/matches.BPGN.zst", Format::BpgnFile),
            ("matches.bpgn.gz", Format::BpgnFile),
            ("matches.bpgn.bz2", Format::BpgnFile),
            ("games.pgn", Format::Auto),
            ("games.pgn.zst", Format::Auto),
            ("bpgn", Format::Auto),
            ("-", Format::Auto),
        ] {
            assert_eq!(Format::from_path(path), format, "{path}");
        }
    }
}
