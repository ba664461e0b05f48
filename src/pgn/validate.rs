//! Replays one game through the rules engine and reports every problem with its place.

use std::borrow::Cow;

use super::split::RawGame;
use super::token::{LineIndex, TokenKind, Tokenizer};
use crate::moves::Move;
use crate::notation::fen::{self, FenDialect};
use crate::notation::san::SanPlus;
use crate::position::{EndReason, Outcome, Position, Severity};
use crate::setup::Setup;
use crate::variant::{Rules, Variant};

/// How deep variations may nest (real games stay below ten); deeper nesting is an error,
/// so that nothing that walks the move tree recursively can exhaust its stack.
pub const MAX_VARIATION_DEPTH: usize = 256;

/// How to validate.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Overrides every game's `[Variant]`.
    pub variant: Option<Variant>,
    /// Report non-canonical SAN, and a missing result marker, as warnings.
    pub strict: bool,
    /// Validate the moves of variations too (they are always parsed).
    pub variations: bool,
    /// Forbid drops that checkmate.
    pub no_drop_mate: bool,
    /// `Some(true)`: every game is BPGN (a bughouse match); `Some(false)`: none is;
    /// `None`: a game is BPGN when its variant is Bughouse, its tags name four players, or
    /// its first move number carries a board letter (`1A.`).
    pub bpgn: Option<bool>,
}

/// The verdict on a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Ok,
    /// A move is illegal or a token unreadable.
    Illegal,
    /// The game cannot be replayed at all (unknown variant, bad FEN tag).
    Error,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Illegal => "illegal",
            Status::Error => "error",
        }
    }
}

/// One problem of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameProblem {
    pub severity: Severity,
    /// Kebab-case kind (`no-such-piece`, `unparseable-token`, `result-mismatch`, …).
    pub kind: &'static str,
    /// 1-based ply of the move concerned.
    pub ply: Option<usize>,
    pub token: Option<String>,
    pub line: usize,
    pub column: usize,
    pub reason: String,
    /// The position before the move, in Lichess's dialect.
    pub fen_before: Option<String>,
}

/// What validation found in a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameReport {
    pub number: usize,
    pub line: usize,
    pub variant: Option<Variant>,
    /// Mainline plies replayed.
    pub plies: usize,
    pub status: Status,
    pub problems: Vec<GameProblem>,
    /// Bughouse: which reading of the Result tag matches the derived outcome (`board`:
    /// from the view of the board that ended the match, as bughouse-db writes it; `team`:
    /// from the teams' view; `both`), or `None`.
    pub result_reading: Option<&'static str>,
}

impl GameReport {
    pub fn has_errors(&self) -> bool {
        self.status != Status::Ok
    }
    pub fn warnings(&self) -> usize {
        self.problems
            .iter()
            .filter(|p| p.severity == Severity::Warning)
            .count()
    }
}

/// One mainline ply, handed to the caller of [`validate_game_with`].
pub struct Ply<'p> {
    /// 1-based (across both boards in bughouse).
    pub number: usize,
    /// The board, in a bughouse match.
    pub board: Option<crate::bughouse::BoardId>,
    pub before: &'p Position,
    pub m: Move,
    pub after: &'p Position,
}

/// The variant a `[Variant]` value names (the aliases of Lichess, chessops, python-chess,
/// cutechess and Xboard, case-insensitive); Chess960 spellings play as chess with
/// Chess960 castling from the FEN.
pub fn variant_from_tag(value: &str) -> Option<Variant> {
    let l = value.trim().to_ascii_lowercase();
    match l.as_str() {
        "chess960" | "chess 960" | "fischerandom" | "fischer random" | "960" => {
            Some(Variant::Chess)
        }
        _ if l.starts_with("wild/") => Some(Variant::Chess),
        _ => l.parse().ok(),
    }
}

/// A tag value with `\"` and `\\` resolved (borrowed when there are none).
pub(super) fn unescape(v: &str) -> Cow<'_, str> {
    if v.contains('\\') {
        Cow::Owned(v.replace("\\\"", "\"").replace("\\\\", "\\"))
    } else {
        Cow::Borrowed(v)
    }
}

fn fen_of(pos: &Position) -> String {
    fen::setup_to_string(&pos.to_setup(), FenDialect::Lichess)
}

pub(super) struct Reporter<'t> {
    pub(super) index: LineIndex<'t>,
    pub(super) problems: Vec<GameProblem>,
    pub(super) status: Status,
}

impl Reporter<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn add(
        &mut self,
        severity: Severity,
        kind: &'static str,
        ply: Option<usize>,
        token: Option<&str>,
        offset: usize,
        reason: String,
        before: Option<&Position>,
    ) {
        let (line, column) = self.index.locate(offset);
        // A token is quoted on one line and briefly (an unclosed comment runs far).
        let token = token.map(|t| {
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
            ply,
            token,
            line,
            column,
            reason,
            fen_before: before.map(fen_of),
        });
    }
}

impl Reporter<'_> {
    /// A problem with a tag (no ply, no position).
    pub(super) fn tag(
        &mut self,
        severity: Severity,
        kind: &'static str,
        value: &str,
        offset: usize,
        reason: String,
    ) {
        self.add(severity, kind, None, Some(value), offset, reason, None);
        if severity == Severity::Error {
            self.status = Status::Error;
        }
    }

    /// A `[FEN]` tag that does not parse or is not a legal position (`kind`): the game
    /// cannot be replayed.
    pub(super) fn bad_fen(
        &mut self,
        kind: &'static str,
        value: &str,
        offset: usize,
        why: impl std::fmt::Display,
    ) {
        self.tag(
            Severity::Error,
            kind,
            value,
            offset,
            format!("FEN tag: {why}"),
        );
    }

    /// Text the tokenizer could not read, at ply `ply`.
    pub(super) fn unreadable(
        &mut self,
        ply: usize,
        raw: &str,
        offset: usize,
        why: &str,
        pos: Option<&Position>,
    ) {
        self.illegal(
            "unparseable-token",
            Some(ply),
            Some(raw),
            offset,
            format!("expected {why}"),
            pos,
        );
    }

    /// A move token that is no SAN (`err` says where and why).
    pub(super) fn not_a_move(
        &mut self,
        ply: Option<usize>,
        token: &str,
        offset: usize,
        err: &crate::notation::san::ParseSanError,
        pos: &Position,
    ) {
        self.illegal(
            "unparseable-token",
            ply,
            Some(token),
            offset,
            format!("not a move: {err}"),
            Some(pos),
        );
    }

    /// A result marker after the one that ended the movetext.
    pub(super) fn second_result(&mut self, first: &str, token: &str, offset: usize) {
        self.illegal(
            "second-result",
            None,
            Some(token),
            offset,
            format!("a second result marker (the movetext already ended with {first})"),
            None,
        );
    }

    /// An error in the movetext: the game is illegal from here on.
    pub(super) fn illegal(
        &mut self,
        kind: &'static str,
        ply: Option<usize>,
        token: Option<&str>,
        offset: usize,
        reason: String,
        pos: Option<&Position>,
    ) {
        self.add(Severity::Error, kind, ply, token, offset, reason, pos);
        self.status = Status::Illegal;
    }
}

/// The tags validation reads, with the byte offset of each (the first of each name).
#[derive(Default)]
pub(super) struct Tags<'t> {
    values: [Option<(Cow<'t, str>, usize)>; 11],
}

impl<'t> Tags<'t> {
    const READ: [&'static str; 11] = [
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
    ];

    fn insert(&mut self, name: &str, value: &'t str, offset: usize) {
        if let Some(i) = Self::READ.iter().position(|r| r.eq_ignore_ascii_case(name)) {
            self.values[i].get_or_insert_with(|| (unescape(value), offset));
        }
    }

    /// The value and offset of a tag validation reads.
    pub(super) fn get(&self, name: &str) -> Option<(&str, usize)> {
        let i = Self::READ
            .iter()
            .position(|r| *r == name)
            .expect("a tag validation reads");
        self.values[i].as_ref().map(|(v, o)| (v.as_ref(), *o))
    }
}

/// Validates one game.
pub fn validate_game(game: &RawGame, opts: &Options) -> GameReport {
    validate(game, opts, None)
}

/// Validates one game, handing every mainline ply to `on_ply` (for `replay`).
pub fn validate_game_with(
    game: &RawGame,
    opts: &Options,
    on_ply: &mut dyn FnMut(Ply<'_>),
) -> GameReport {
    validate(game, opts, Some(on_ply))
}

fn validate(
    game: &RawGame,
    opts: &Options,
    mut on_ply: Option<&mut dyn FnMut(Ply<'_>)>,
) -> GameReport {
    // The position before the last move is kept only for variations and `on_ply`.
    let keep_before = opts.variations || on_ply.is_some();
    // UTF-8 as a rule; anything else (Latin-1 names) is read lossily, never an error.
    let text = match std::str::from_utf8(&game.bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(&game.bytes),
    };
    let mut rep = Reporter {
        index: LineIndex::new(&text, game.line),
        problems: Vec::new(),
        status: Status::Ok,
    };
    let mut tokens = Tokenizer::new(&text);

    // Tag section: keep the tags validation reads (the first of each name).
    let mut tags = Tags::default();
    tokens.tag_section(|name, value, offset| tags.insert(name, value, offset));
    let tag = |name: &str| tags.get(name);

    let finish = |rep: Reporter<'_>, variant, plies| GameReport {
        number: game.number,
        line: game.line,
        variant,
        plies,
        status: rep.status,
        problems: rep.problems,
        result_reading: None,
    };

    if game.bytes.starts_with(&[0xff, 0xfe]) || game.bytes.starts_with(&[0xfe, 0xff]) {
        rep.add(
            Severity::Error,
            "unsupported-encoding",
            None,
            None,
            0,
            "UTF-16 text (it starts with a UTF-16 byte-order mark); pocketfen reads UTF-8: convert it first (iconv -f UTF-16 -t UTF-8)".to_owned(),
            None,
        );
        rep.status = Status::Error;
        return finish(rep, None, 0);
    }

    // Variant.
    let variant = match (opts.variant, tag("Variant")) {
        (Some(v), _) => v,
        (None, Some((value, offset))) => match variant_from_tag(value) {
            Some(v) => v,
            None => {
                rep.tag(
                    Severity::Error,
                    "unknown-variant",
                    value,
                    offset,
                    format!(
                        "unknown variant `{}`; give --variant to validate it",
                        crate::notation::escape_controls(value)
                    ),
                );
                return finish(rep, None, 0);
            }
        },
        (None, None) => match tag("Event") {
            Some((event, offset)) if event.to_ascii_lowercase().contains("crazyhouse") => {
                rep.tag(Severity::Warning, "variant-inferred", event, offset, "no [Variant] tag; the Event names crazyhouse, so the game is read as crazyhouse".to_owned());
                Variant::Crazyhouse
            }
            _ => Variant::Chess,
        },
    };
    let is_bpgn = opts
        .bpgn
        .unwrap_or_else(|| looks_like_bpgn(variant, tag("WhiteA").is_some(), &tokens));
    if is_bpgn {
        let (plies, reading) =
            super::bpgn::validate_match(&mut rep, &tags, tokens, opts, &mut on_ply);
        let mut report = finish(rep, Some(Variant::Bughouse), plies);
        report.result_reading = reading;
        return report;
    }
    let mut rules = Rules::new(variant);
    rules.drop_mate = !opts.no_drop_mate;

    // Start position.
    let start = match tag("FEN") {
        None => Position::from_setup(&variant.start(), rules).expect("start positions are legal"),
        Some((value, offset)) => {
            let setup: Setup = match value.parse() {
                Ok(s) => s,
                Err(e) => {
                    rep.bad_fen("bad-fen", value, offset, e);
                    return finish(rep, Some(variant), 0);
                }
            };
            let setup = if variant.is_horde() && setup == Setup::standard() {
                rep.tag(Severity::Warning, "horde-standard-fen", value, offset, "a Horde game with the standard start FEN (a Lichess export bug of 2021); the Horde start is used".to_owned());
                Setup::horde_start()
            } else {
                setup
            };
            match Position::from_setup(&setup, rules) {
                Ok(p) => p,
                Err(e) => {
                    rep.bad_fen("illegal-fen", value, offset, e);
                    return finish(rep, Some(variant), 0);
                }
            }
        }
    };

    // Movetext.
    let mut pos = start;
    let mut before: Option<Position> = None;
    // Variations: the position and the position before its last move, saved at each `(`.
    let mut stack: Vec<(Position, Option<Position>)> = Vec::new();
    let mut depth = 0usize;
    let mut plies = 0usize;
    let mut marker: Option<(&str, usize)> = None;
    let mut stopped = false;
    for t in tokens {
        let live = depth == 0 || opts.variations;
        match t.kind {
            TokenKind::MoveNumber(n) => {
                if opts.strict && depth == 0 && !stopped {
                    check_move_number(&mut rep, n, t.offset, &pos, plies + 1);
                }
            }
            TokenKind::Comment(_) | TokenKind::LineComment(_) | TokenKind::Nag(_) => {}
            TokenKind::VariationStart => {
                depth += 1;
                if depth > MAX_VARIATION_DEPTH {
                    rep.illegal(
                        "variation-too-deep",
                        None,
                        Some("("),
                        t.offset,
                        format!("variations nested more than {MAX_VARIATION_DEPTH} deep"),
                        None,
                    );
                    break;
                }
                if opts.variations && !stopped {
                    match before.clone() {
                        Some(b) => {
                            let current = std::mem::replace(&mut pos, b);
                            stack.push((current, before.take()));
                        }
                        None => {
                            rep.illegal(
                                "unparseable-token",
                                None,
                                Some("("),
                                t.offset,
                                "a variation before any move".to_owned(),
                                None,
                            );
                            stopped = true;
                        }
                    }
                }
            }
            TokenKind::VariationEnd => {
                if depth == 0 {
                    rep.illegal(
                        "unparseable-token",
                        None,
                        Some(")"),
                        t.offset,
                        "a `)` without its `(`".to_owned(),
                        None,
                    );
                    break;
                }
                depth -= 1;
                if opts.variations
                    && !stopped
                    && let Some((p, b)) = stack.pop()
                {
                    pos = p;
                    before = b;
                }
            }
            TokenKind::Result(r) => {
                if depth == 0 {
                    if let Some((first, _)) = marker {
                        rep.second_result(first, r, t.offset);
                        break;
                    }
                    marker = Some((r, t.offset));
                }
            }
            TokenKind::Tag { .. } | TokenKind::Unknown(..) if !live => {}
            TokenKind::Tag { .. } => {
                rep.illegal(
                    "unparseable-token",
                    Some(plies + 1),
                    Some(t.text),
                    t.offset,
                    "a tag inside the movetext (is a blank line missing between games?)".to_owned(),
                    Some(&pos),
                );
                break;
            }
            TokenKind::Unknown(raw, why) => {
                rep.unreadable(plies + 1, raw, t.offset, why, Some(&pos));
                break;
            }
            TokenKind::Move(_) if !live || stopped => {}
            TokenKind::Move(tok) => {
                let ply = if depth == 0 { plies + 1 } else { 0 };
                let ply_field = (depth == 0).then_some(ply);
                if depth == 0 && marker.is_some() {
                    rep.illegal(
                        "move-after-result",
                        ply_field,
                        Some(tok),
                        t.offset,
                        "a move after the result marker".to_owned(),
                        Some(&pos),
                    );
                    break;
                }
                let san: SanPlus = match tok.parse() {
                    Ok(s) => s,
                    Err(e) => {
                        rep.not_a_move(ply_field, tok, t.offset, &e, &pos);
                        break;
                    }
                };
                match san.resolve(&pos, opts.strict) {
                    Ok((m, defects)) => {
                        for d in defects {
                            rep.add(
                                Severity::Warning,
                                d.kind.name(),
                                ply_field,
                                Some(tok),
                                t.offset,
                                d.message,
                                Some(&pos),
                            );
                        }
                        let prev = keep_before.then(|| pos.clone());
                        pos.play_unchecked(m);
                        if depth == 0 {
                            plies += 1;
                            if let (Some(f), Some(prev)) = (on_ply.as_mut(), &prev) {
                                f(Ply {
                                    number: plies,
                                    board: None,
                                    before: prev,
                                    m,
                                    after: &pos,
                                });
                            }
                        }
                        before = prev;
                    }
                    Err(e) => {
                        let (kind, mut reason) = match pos.outcome() {
                            Some(o) => (
                                "move-after-end",
                                format!(
                                    "the game has already ended ({}, {})",
                                    o.reason().name(),
                                    o.result()
                                ),
                            ),
                            None => (e.kind.name(), e.message),
                        };
                        if depth > 0 {
                            reason.push_str(" (in a variation)");
                        }
                        rep.illegal(kind, ply_field, Some(tok), t.offset, reason, Some(&pos));
                        break;
                    }
                }
            }
        }
    }
    if rep.status != Status::Ok {
        return finish(rep, Some(variant), plies);
    }
    // The main line's end: result consistency.
    let end = text.len();
    if depth > 0 {
        rep.illegal(
            "unparseable-token",
            None,
            None,
            end,
            "a variation `(` is never closed".to_owned(),
            None,
        );
        return finish(rep, Some(variant), plies);
    }
    // Variations may have replaced `pos`; the main line's final position is restored by the
    // stack discipline above.
    let outcome = pos.outcome();
    let result_tag = tag("Result");
    if let (Some(o), Some((r, offset))) = (outcome, result_tag)
        && matches!(r, "1-0" | "0-1" | "1/2-1/2")
        && r != o.result()
    {
        rep.tag(
            Severity::Warning,
            "result-mismatch",
            r,
            offset,
            format!(
                "the Result tag says {r} but the game ends in {} ({})",
                describe(o),
                o.result()
            ),
        );
    }
    match (marker, result_tag) {
        (Some((m, offset)), Some((r, _))) if m != r => {
            rep.tag(
                Severity::Warning,
                "result-mismatch",
                m,
                offset,
                format!("the movetext ends with {m} but the Result tag says {r}"),
            );
        }
        (None, _) if opts.strict => {
            rep.add(
                Severity::Warning,
                "no-result-marker",
                None,
                None,
                end,
                "the movetext has no result marker (1-0, 0-1, 1/2-1/2 or *)".to_owned(),
                None,
            );
        }
        _ => {}
    }
    if let Some((value, offset)) = tag("PlyCount")
        && value.trim().parse::<usize>().ok() != Some(plies)
    {
        rep.tag(
            Severity::Warning,
            "ply-count-mismatch",
            value,
            offset,
            format!("PlyCount says {value} but the main line has {plies} plies"),
        );
    }
    if let Some((value, offset)) = tag("CurrentPosition") {
        match value.parse::<Setup>() {
            Ok(current) => {
                let ours = pos.to_setup();
                let empty = |s: &Setup| {
                    s.pockets
                        .is_none_or(|p| p.white.is_empty() && p.black.is_empty())
                };
                let same = current.board == ours.board
                    && current.turn == ours.turn
                    && (current.pockets == ours.pockets || (empty(&current) && empty(&ours)));
                if !same {
                    rep.tag(
                        Severity::Warning,
                        "current-position-mismatch",
                        value,
                        offset,
                        format!(
                            "CurrentPosition differs from the final position {}",
                            fen_of(&pos)
                        ),
                    );
                }
            }
            Err(e) => {
                rep.tag(
                    Severity::Warning,
                    "current-position-mismatch",
                    value,
                    offset,
                    format!("CurrentPosition does not parse: {e}"),
                );
            }
        }
    }
    finish(rep, Some(variant), plies)
}

/// Whether a game is a bughouse match: its variant is Bughouse, its tags name four
/// players (`has_white_a`), or its first move number carries a board letter (`1A.`);
/// `movetext` stands at the movetext's start.
pub(super) fn looks_like_bpgn(
    variant: Variant,
    has_white_a: bool,
    movetext: &Tokenizer<'_>,
) -> bool {
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

/// Under `--strict`, a move number that does not fit the position (`12.` before a white
/// move of move 12, `12...` before a black one) is a warning.
fn check_move_number(rep: &mut Reporter<'_>, n: &str, offset: usize, pos: &Position, ply: usize) {
    let digits = n.trim_end_matches('.');
    let expected = pos.fullmoves();
    // `12.` also stands before a black move after a comment; `12...` only before one.
    let black_only = n.len() - digits.len() > 1;
    let fits = digits.parse::<u32>().ok() == Some(expected)
        && !(black_only && pos.turn() == crate::types::Color::White);
    if !fits {
        let side = pos.turn().name();
        rep.add(
            Severity::Warning,
            "move-number-mismatch",
            Some(ply),
            Some(n),
            offset,
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
