//! Replays one game through the rules engine and reports every problem with its place.
//!
//! The walk drives and a [`Visitor`] watches: it is handed the tags, the start, every
//! comment, NAG, variation and result marker, and every move resolved with the positions
//! around it. `validate` watches nothing; `replay` and `pgn convert` are visitors, so they
//! accept and refuse exactly what `validate` does.
//!
//! ```
//! use pocketfen::game::{Options, Status, validate_str};
//! let pgn = "[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Q@e4 *\n";
//! let reports = validate_str(pgn, &Options::default());
//! assert_eq!(reports[0].status, Status::Illegal);
//! assert_eq!(reports[0].problems[0].kind.name(), "not-in-pocket");
//! assert_eq!((reports[0].problems[0].line, reports[0].problems[0].column), (3, 26));
//! ```

use std::borrow::Cow;

use std::ops::ControlFlow;

use super::bpgn::TwoBoards;
use super::header::{Boards, Options, Start, Tags, read_start};
use super::problem::{
    At, GameProblemKind, GameReport, Reporter, ResultReading, nonstandard_result,
};
use super::visitor::Visitor;
use super::walk::{self, Play};
use crate::bughouse::BoardId;
use crate::moves::Move;
use crate::notation::fen::FenDialect;
use crate::opening::Classifier;
use crate::position::{EndReason, Outcome, Position};
use crate::setup::Setup;
use crate::stream::split::{GameSplitter, RawGame};
use crate::stream::token::{Tokenizer, read_result};
use crate::types::Color;
use crate::variant::Variant;

/// The visitor that watches nothing: plain validation.
struct NoVisitor;

impl Visitor<'_> for NoVisitor {}

/// Validates one game.
pub fn validate_game(game: &RawGame, opts: &Options) -> GameReport {
    visit_game(game, opts, &mut NoVisitor)
}

/// Validates every game of a PGN (or BPGN) text.
pub fn validate_str(text: &str, opts: &Options) -> Vec<GameReport> {
    GameSplitter::new(text.as_bytes())
        .map_while(Result::ok)
        .map(|g| validate_game(&g, opts))
        .collect()
}

/// A game's text as every command reads it: UTF-8 as a rule; a byte that is not (a
/// Latin-1 name from an old archive) is read as the Latin-1 character it is, so nothing
/// is lost.
///
/// ```
/// use pocketfen::game::game_text;
/// assert_eq!(game_text(b"[White \"Caf\xe9\"]"), "[White \"Café\"]");
/// assert_eq!(game_text("[White \"Café\"]".as_bytes()), "[White \"Café\"]");
/// ```
pub fn game_text(bytes: &[u8]) -> Cow<'_, str> {
    // The common case checked by SIMD (which tells no more than yes or no); std's check
    // then finds where a byte is not UTF-8.
    if let Ok(text) = simdutf8::basic::from_utf8(bytes) {
        return Cow::Borrowed(text);
    }
    let first = match std::str::from_utf8(bytes) {
        Ok(text) => return Cow::Borrowed(text),
        Err(e) => e,
    };
    let mut out = String::with_capacity(bytes.len() + 16);
    let mut rest = bytes;
    let mut bad = first;
    loop {
        let (good, after) = rest.split_at(bad.valid_up_to());
        out.push_str(std::str::from_utf8(good).unwrap_or_default());
        let Some((&byte, after)) = after.split_first() else {
            break;
        };
        out.push(char::from(byte));
        rest = after;
        match std::str::from_utf8(rest) {
            Ok(tail) => {
                out.push_str(tail);
                break;
            }
            Err(e) => bad = e,
        }
    }
    Cow::Owned(out)
}

/// Validates one game, handing the walk to `visitor`.
pub fn visit_game<V: for<'t> Visitor<'t>>(
    game: &RawGame,
    opts: &Options,
    visitor: &mut V,
) -> GameReport {
    if let Some(size) = game.too_large {
        return too_large(game, size);
    }
    let text = game_text(&game.bytes);
    let utf16 = game.bytes.starts_with(&[0xff, 0xfe]) || game.bytes.starts_with(&[0xfe, 0xff]);
    let at = (game.line, game.column.max(1));
    walk(game.number, at, &text, utf16, opts, visitor)
}

/// The report on a game the splitter skipped for its size.
fn too_large(game: &RawGame, size: u64) -> GameReport {
    let mut rep = Reporter::new("", game.line, game.column.max(1));
    rep.unplayable(
        GameProblemKind::GameTooLarge,
        At {
            ply: None,
            token: None,
            offset: 0,
        },
        format!(
            "the game is {size} bytes, over the size limit (--max-game-bytes); it was skipped unread"
        ),
    );
    GameReport {
        number: game.number,
        line: game.line,
        variant: None,
        plies: 0,
        status: rep.status,
        problems: rep.problems,
        result_reading: None,
    }
}

/// Validates the game in `text` (game `number`, starting on line `line`), handing the
/// walk to `visitor`, whose events borrow from `text`.
pub fn visit_text<'t, V: Visitor<'t>>(
    number: usize,
    line: usize,
    text: &'t str,
    opts: &Options,
    visitor: &mut V,
) -> GameReport {
    walk(number, (line, 1), text, false, opts, visitor)
}

/// [`visit_text`] of a game whose first byte is at `(line, column)`.
pub(crate) fn visit_text_at<'t, V: Visitor<'t>>(
    number: usize,
    at: (usize, usize),
    text: &'t str,
    opts: &Options,
    visitor: &mut V,
) -> GameReport {
    walk(number, at, text, false, opts, visitor)
}

fn walk<'t, V: Visitor<'t>>(
    number: usize,
    (line, column): (usize, usize),
    text: &'t str,
    utf16: bool,
    opts: &Options,
    visitor: &mut V,
) -> GameReport {
    let mut rep = Reporter::new(text, line, column);
    let mut tokens = Tokenizer::new(text);
    let (tags, stopped) = read_tags(&mut rep, &mut tokens, text, opts, visitor);
    let finish = |rep: Reporter<'_>, variant, plies| GameReport {
        number,
        line,
        variant,
        plies,
        status: rep.status,
        problems: rep.problems,
        result_reading: None,
    };
    if stopped {
        return finish(rep, None, 0);
    }
    if utf16 {
        rep.unplayable(
            GameProblemKind::UnsupportedEncoding,
            At {
                ply: None,
                token: None,
                offset: 0,
            },
            "UTF-16 text (it starts with a UTF-16 byte-order mark); pocketfen reads UTF-8: convert it first (iconv -f UTF-16 -t UTF-8)".to_owned(),
        );
        return finish(rep, None, 0);
    }
    let (variant, walked) = match read_start(&mut rep, &tags, &tokens, opts) {
        Err(variant) => return finish(rep, variant, 0),
        Ok(Start::Two(game)) => {
            if visitor.start(Boards::Two(&game)).is_break() {
                return finish(rep, Some(Variant::Bughouse), 0);
            }
            let mut play = TwoBoards::new(game, &tags);
            let walked = walk::walk(
                &mut rep,
                &tags,
                tokens,
                &mut play,
                opts,
                visitor,
                text.len(),
            );
            (Variant::Bughouse, walked)
        }
        Ok(Start::One(variant, start)) => {
            if visitor.start(Boards::One(&start)).is_break() {
                return finish(rep, Some(variant), 0);
            }
            let mut play = OneBoard::new(start);
            // Under `strict`, an `[ECO]` or `[Opening]` tag is checked against the moves.
            if opts.strict && (tags.get("ECO").is_some() || tags.get("Opening").is_some()) {
                play.opening = Classifier::new(&play.pos);
            }
            let walked = walk::walk(
                &mut rep,
                &tags,
                tokens,
                &mut play,
                opts,
                visitor,
                text.len(),
            );
            (variant, walked)
        }
    };
    let mut report = finish(rep, Some(variant), walked.plies);
    report.result_reading = walked.reading;
    report
}

/// The tag section: the tags validation reads (the first of each name), each shown to
/// the visitor, and their problems reported (a blank line among them under `--strict`,
/// malformed and duplicate tags, a Result spelt otherwise than PGN's); whether the
/// visitor asked to stop.
fn read_tags<'t, V: Visitor<'t>>(
    rep: &mut Reporter<'_>,
    tokens: &mut Tokenizer<'t>,
    text: &'t str,
    opts: &Options,
    visitor: &mut V,
) -> (Tags<'t>, bool) {
    // Tag section: keep the tags validation reads (the first of each name).
    let mut tags = Tags::default();
    let mut duplicates = Vec::new();
    // The first tag after a blank line inside the tag section.
    let mut stopped = false;
    let blank_before = tokens.tag_section(|name, value, offset| {
        if tags.insert(name, value, offset) {
            duplicates.push((name, value, offset));
        }
        stopped = stopped || visitor.tag(name, value).is_break();
    });
    if let (true, Some((name, offset))) = (opts.strict, blank_before) {
        rep.warn(
            GameProblemKind::BlankLineInTags,
            At {
                ply: None,
                token: Some(name),
                offset,
            },
            format!("a blank line inside the tag section: [{name}] and the tags after it are read as this game's"),
            None,
        );
    }
    // Tag lines read loosely (rare): which, read again.
    let mut malformed = Vec::new();
    if tokens.loose_tags() > 0 {
        Tokenizer::new(text).tag_section(|name, value, offset| {
            if crate::stream::token::is_loose_value(value) {
                malformed.push((name, value, offset));
            }
        });
    }
    for (name, value, offset) in malformed {
        rep.warn(
            GameProblemKind::MalformedTag,
            At {
                ply: None,
                token: Some(name),
                offset,
            },
            format!(
                "[{name}] is no well-formed tag pair (a `\"` or `\\` in its value is not escaped as `\\\"` or `\\\\`): its value is read as `{value}`, all between its first quote and its last (pgn convert writes it escaped)"
            ),
            None,
        );
    }
    for (name, value, offset) in duplicates {
        rep.warn(
            GameProblemKind::DuplicateTag,
            At::tag(value, offset),
            format!("a second [{name}] tag: the first is read, and pgn convert drops this one"),
            None,
        );
    }
    if let Some((value, offset)) = tags.get("Result")
        && !matches!(value, "1-0" | "0-1" | "1/2-1/2" | "*")
        && let Some(r) = read_result(value)
    {
        nonstandard_result(rep, r, value, offset);
    }
    (tags, stopped)
}

/// One board, as PGN plays it: with variations, each replayed from its branch point.
struct OneBoard {
    pos: Position,
    /// The position before the last move (kept while variations are validated).
    before: Option<Position>,
    /// At each `(`: the position, and the one before its last move.
    stack: Vec<(Position, Option<Position>)>,
    /// The main line's opening, when its tags are to be checked.
    opening: Option<Classifier>,
}

impl OneBoard {
    fn new(start: Position) -> OneBoard {
        OneBoard {
            pos: start,
            before: None,
            stack: Vec::new(),
            opening: None,
        }
    }
}

/// `reason`, saying that the move is in a variation when it is.
fn in_variation(depth: usize, mut reason: String) -> String {
    if depth > 0 {
        reason.push_str(" (in a variation)");
    }
    reason
}

impl Play for OneBoard {
    #[inline]
    fn move_number(
        &mut self,
        rep: &mut Reporter<'_>,
        n: &str,
        offset: usize,
        ply: usize,
        strict: bool,
    ) -> ControlFlow<()> {
        if strict {
            check_move_number(rep, n, offset, &self.pos, ply);
        }
        ControlFlow::Continue(())
    }

    #[inline]
    fn mover<'t>(
        &mut self,
        rep: &mut Reporter<'_>,
        tok: &'t str,
        at: At<'_>,
        after_result: bool,
    ) -> Option<(Option<BoardId>, Cow<'t, str>)> {
        if after_result {
            rep.illegal(
                GameProblemKind::MoveAfterResult,
                at,
                "a move after the result marker".to_owned(),
                Some(&self.pos),
            );
            return None;
        }
        Some((None, Cow::Borrowed(tok)))
    }

    #[inline]
    fn position(&self, _: Option<BoardId>) -> &Position {
        &self.pos
    }

    fn shown(&self) -> Option<&Position> {
        Some(&self.pos)
    }

    #[inline]
    fn ended(&self, depth: usize) -> Option<String> {
        self.pos
            .outcome()
            .map(|o| in_variation(depth, format!("the game has already ended ({o})")))
    }

    #[inline]
    fn context(&self, _: Option<BoardId>, depth: usize, reason: String) -> String {
        in_variation(depth, reason)
    }

    #[inline]
    fn play(&mut self, _: Option<BoardId>, m: Move, keep_before: bool) {
        // Written only when it changes: moving a whole `Option<Position>` on every ply
        // costs more than the test.
        if keep_before {
            self.before = Some(self.pos.clone());
        } else if self.before.is_some() {
            self.before = None;
        }
        self.pos.play_unchecked(m);
        if let (true, Some(c)) = (self.stack.is_empty(), &mut self.opening) {
            c.push(&self.pos);
        }
    }

    fn has_variations(&self) -> bool {
        true
    }

    fn enter_variation(&mut self) -> bool {
        let Some(before) = self.before.take() else {
            return false;
        };
        let current = std::mem::replace(&mut self.pos, before.clone());
        self.stack.push((current, Some(before)));
        true
    }

    fn leave_variation(&mut self) {
        if let Some((pos, before)) = self.stack.pop() {
            self.pos = pos;
            self.before = before;
        }
    }

    fn finish(
        &mut self,
        rep: &mut Reporter<'_>,
        tags: &Tags<'_>,
        marker: Option<(&str, usize)>,
        plies: usize,
        opts: &Options,
        end: usize,
    ) -> Option<ResultReading> {
        // The stack discipline of variations has restored the main line's final position.
        check_end(rep, tags, &self.pos, marker, plies, opts.strict, end);
        if let Some(c) = &self.opening {
            check_opening(rep, tags, c);
        }
        None
    }

    fn boards(&self) -> Boards<'_> {
        Boards::One(&self.pos)
    }
}

/// Under `strict`: the `[ECO]` and `[Opening]` tags against the opening the moves name as
/// Lichess names it (`?` for none), each located at its tag. A tag that says it does not
/// know (`?`, `-`, empty: PGN's unknown value) claims nothing to check.
fn check_opening(rep: &mut Reporter<'_>, tags: &Tags<'_>, classifier: &Classifier) {
    let named = classifier.opening();
    for (tag, ours) in [
        ("ECO", named.map_or("?", |n| n.eco)),
        ("Opening", named.map_or("?", |n| n.name)),
    ] {
        let Some((value, offset)) = tags.get(tag) else {
            continue;
        };
        if matches!(value.trim(), "?" | "-" | "") {
            continue;
        }
        if value.trim() != ours {
            rep.warn(
                GameProblemKind::OpeningMismatch,
                At::tag(value, offset),
                match named {
                    Some(n) => format!(
                        "the {tag} tag says {value} but the moves reach {} {} (after ply {}), as Lichess's opening list names it",
                        n.eco, n.name, n.ply
                    ),
                    None => format!(
                        "the {tag} tag says {value} but no position of the moves is named in Lichess's opening list"
                    ),
                },
                None,
            );
        }
    }
}

/// The checks of a game's end: the Result tag and marker against the outcome, PlyCount,
/// CurrentPosition, and under `strict` a missing result marker.
fn check_end(
    rep: &mut Reporter<'_>,
    tags: &Tags<'_>,
    pos: &Position,
    marker: Option<(&str, usize)>,
    plies: usize,
    strict: bool,
    end: usize,
) {
    let outcome = pos.outcome();
    let result_tag = tags.result();
    // The end of the movetext: after its last token, not the blank lines that follow.
    let end = end - rep.trailing_space(end);
    if let (Some(o), Some((r, offset))) = (outcome, result_tag)
        && matches!(r, "1-0" | "0-1" | "1/2-1/2")
        && r != o.result()
    {
        rep.warn(
            GameProblemKind::ResultMismatch,
            At::tag(r, offset),
            format!(
                "the Result tag says {r} but the game ends in {} ({})",
                describe(o),
                o.result()
            ),
            None,
        );
    }
    match (marker, result_tag) {
        (Some((m, offset)), Some((r, _))) if m != r => {
            rep.warn(
                GameProblemKind::ResultMismatch,
                At::tag(m, offset),
                format!("the movetext ends with {m} but the Result tag says {r}"),
                None,
            );
        }
        (None, _) if strict => {
            rep.warn(
                GameProblemKind::NoResultMarker,
                At {
                    ply: None,
                    token: None,
                    offset: end,
                },
                "the movetext has no result marker (1-0, 0-1, 1/2-1/2 or *)".to_owned(),
                None,
            );
        }
        _ => {}
    }
    if let Some((value, offset)) = tags.get("PlyCount")
        && value.trim().parse::<usize>().ok() != Some(plies)
    {
        rep.warn(
            GameProblemKind::PlyCountMismatch,
            At::tag(value, offset),
            format!("PlyCount says {value} but the main line has {plies} plies"),
            None,
        );
    }
    if let Some((value, offset)) = tags.get("CurrentPosition") {
        let why = match value.parse::<Setup>() {
            Ok(current) => {
                let ours = pos.to_setup();
                let empty = |s: &Setup| {
                    s.pockets
                        .is_none_or(|p| p.white.is_empty() && p.black.is_empty())
                };
                let same = current.board == ours.board
                    && current.turn == ours.turn
                    && (current.pockets == ours.pockets || (empty(&current) && empty(&ours)));
                (!same).then(|| {
                    format!(
                        "CurrentPosition differs from the final position {}",
                        ours.display(FenDialect::Lichess)
                    )
                })
            }
            Err(e) => Some(format!("CurrentPosition does not parse: {e}")),
        };
        if let Some(why) = why {
            rep.warn(
                GameProblemKind::CurrentPositionMismatch,
                At::tag(value, offset),
                why,
                None,
            );
        }
    }
}

/// Under `--strict`, a move number that does not fit the position (`12.` before a white
/// move of move 12, `12...` before a black one) is a warning.
fn check_move_number(rep: &mut Reporter<'_>, n: &str, offset: usize, pos: &Position, ply: usize) {
    let digits = n.trim_end_matches('.');
    let expected = pos.fullmoves();
    // `12.` also stands before a black move after a comment; `12...` only before one.
    let black_only = n.len() - digits.len() > 1;
    let fits =
        digits.parse::<u32>().ok() == Some(expected) && !(black_only && pos.turn() == Color::White);
    if !fits {
        let side = pos.turn().name();
        rep.warn(
            GameProblemKind::MoveNumberMismatch,
            At {
                ply: Some(ply),
                token: Some(n),
                offset,
            },
            format!("the next move is {side}'s move {expected}"),
            None,
        );
    }
}

fn describe(o: Outcome) -> String {
    match o {
        Outcome::Decisive {
            winner,
            reason: EndReason::Checkmate,
        } => format!("checkmate by {}", winner.name()),
        Outcome::Decisive {
            reason: EndReason::Extinction,
            ..
        } => "the capture of every white piece".to_owned(),
        Outcome::Decisive { winner, reason } => {
            format!("a {} win ({})", winner.name(), reason.name())
        }
        Outcome::Draw { reason } => reason.name().to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::game_text;

    /// A byte string's text read a character at a time: a valid UTF-8 character where
    /// one starts, else the byte as its Latin-1 character.
    fn char_by_char(bytes: &[u8]) -> String {
        let mut out = String::new();
        let mut i = 0;
        while i < bytes.len() {
            let whole = (1..=4)
                .filter(|k| i + k <= bytes.len())
                .find_map(|k| std::str::from_utf8(&bytes[i..i + k]).ok().map(|s| (k, s)));
            match whole {
                Some((k, s)) => {
                    out.push_str(s);
                    i += k;
                }
                None => {
                    out.push(char::from(bytes[i]));
                    i += 1;
                }
            }
        }
        out
    }

    /// Games' texts of every length to 300 bytes (the SIMD check's blocks and tails),
    /// ASCII with now and then a character of two to four bytes, a stray byte, a
    /// sequence cut short, or one overlong: read as a character at a time reads them.
    #[test]
    fn a_game_text_reads_as_its_characters_read_one_at_a_time() {
        let pieces: [&[u8]; 10] = [
            b"1. e4 { [%clk 0:03:00] } ",
            "Café".as_bytes(),
            "ß€😀".as_bytes(),
            b"\xe9",
            b"\xff",
            b"\xe2\x82",
            b"\xc0\xaf",
            b"\xed\xa0\x80",
            b"[White \"x\"]\n",
            b"\xf0\x9f\x98",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut bad = 0;
        for len in 0..300 {
            for _ in 0..20 {
                let mut bytes = Vec::new();
                while bytes.len() < len {
                    let r = next();
                    // Mostly ASCII, as games are.
                    let piece = if r % 4 == 0 {
                        pieces[(r >> 8) as usize % 10]
                    } else {
                        pieces[0]
                    };
                    bytes.extend_from_slice(piece);
                }
                bytes.truncate(len);
                let text = game_text(&bytes);
                assert_eq!(text, char_by_char(&bytes), "{bytes:?}");
                bad += usize::from(std::str::from_utf8(&bytes).is_err());
            }
        }
        // Both paths were taken, many times.
        assert!(bad > 1000, "{bad}");
    }
}
