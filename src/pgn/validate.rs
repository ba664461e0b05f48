//! Replays one game through the rules engine and reports every problem with its place.
//!
//! The walk drives and a [`Visitor`] watches: it is handed the tags, the start, every
//! comment, NAG, variation and result marker, and every move resolved with the positions
//! around it. `validate` watches nothing; `replay` and `pgn convert` are visitors, so they
//! accept and refuse exactly what `validate` does.
//!
//! ```
//! use pocketfen::pgn::{Options, Status, validate_str};
//! let pgn = "[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Q@e4 *\n";
//! let reports = validate_str(pgn, &Options::default());
//! assert_eq!(reports[0].status, Status::Illegal);
//! assert_eq!(reports[0].problems[0].kind.name(), "not-in-pocket");
//! assert_eq!((reports[0].problems[0].line, reports[0].problems[0].column), (3, 26));
//! ```

use std::borrow::Cow;

use super::game::{Boards, MAX_VARIATION_DEPTH, MoveAt, Options, Start, Tags, read_start};
use super::problem::{At, GameProblemKind, GameReport, Reporter, Status};
use super::split::{GameSplitter, RawGame};
use super::step::{Failure, resolve};
use super::token::{TokenKind, Tokenizer, read_result};
use super::visitor::Visitor;
use crate::notation::fen::{self, FenDialect};
use crate::position::{EndReason, Outcome, Position};
use crate::setup::Setup;
use crate::types::Color;

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

/// The game's text: UTF-8 as a rule; anything else (Latin-1 names) is read lossily.
/// The game's text: UTF-8 as a rule; a byte that is not (a Latin-1 name from an old
/// archive) is read as the Latin-1 character it is, so nothing is lost.
pub(crate) fn decode(bytes: &[u8]) -> Cow<'_, str> {
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
    let text = decode(&game.bytes);
    let utf16 = game.bytes.starts_with(&[0xff, 0xfe]) || game.bytes.starts_with(&[0xfe, 0xff]);
    walk(game.number, game.line, &text, utf16, opts, visitor)
}

/// The report on a game the splitter skipped for its size.
fn too_large(game: &RawGame, size: u64) -> GameReport {
    let mut rep = Reporter::new("", game.line);
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
    walk(number, line, text, false, opts, visitor)
}

fn walk<'t, V: Visitor<'t>>(
    number: usize,
    line: usize,
    text: &'t str,
    utf16: bool,
    opts: &Options,
    visitor: &mut V,
) -> GameReport {
    let mut rep = Reporter::new(text, line);
    let mut tokens = Tokenizer::new(text);
    // Tag section: keep the tags validation reads (the first of each name).
    let mut tags = Tags::default();
    let mut duplicates = Vec::new();
    // The first tag after a blank line inside the tag section.
    let blank_before = tokens.tag_section(|name, value, offset| {
        if tags.insert(name, value, offset) {
            duplicates.push((name, value, offset));
        }
        visitor.tag(name, value);
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
        nonstandard_result(&mut rep, r, value, offset);
    }
    let finish = |rep: Reporter<'_>, variant, plies| GameReport {
        number,
        line,
        variant,
        plies,
        status: rep.status,
        problems: rep.problems,
        result_reading: None,
    };
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
    match read_start(&mut rep, &tags, &tokens, opts) {
        Err(variant) => finish(rep, variant, 0),
        Ok(Start::Two(game)) => {
            visitor.start(Boards::Two(&game));
            let (plies, reading) =
                super::bpgn::walk_match(&mut rep, &tags, tokens, game, opts, visitor);
            let mut report = finish(rep, Some(crate::variant::Variant::Bughouse), plies);
            report.result_reading = reading;
            report
        }
        Ok(Start::One(variant, start)) => {
            visitor.start(Boards::One(&start));
            let plies = walk_movetext(&mut rep, &tags, tokens, start, opts, visitor, text.len());
            finish(rep, Some(variant), plies)
        }
    }
}

/// The movetext of a game on one board, then the checks of its end; returns the plies.
fn walk_movetext<'t, V: Visitor<'t>>(
    rep: &mut Reporter<'_>,
    tags: &Tags<'_>,
    tokens: Tokenizer<'t>,
    start: Position,
    opts: &Options,
    visitor: &mut V,
    end: usize,
) -> usize {
    let mut pos = start;
    let mut before: Option<Position> = None;
    // Variations: the position and the position before its last move, saved at each `(`.
    let mut stack: Vec<(Position, Option<Position>)> = Vec::new();
    let mut depth = 0usize;
    // Where the outermost open variation starts (a `(` never closed is reported there).
    let mut outer_open = 0usize;
    let mut plies = 0usize;
    let mut marker: Option<(&str, usize)> = None;
    let mut stopped = false;
    let mut dead_warned = false;
    for t in tokens {
        let live = depth == 0 || opts.variations;
        let here = |ply, token| At {
            ply,
            token,
            offset: t.offset,
        };
        match t.kind {
            TokenKind::MoveNumber(n) => {
                if opts.strict && depth == 0 && !stopped {
                    check_move_number(rep, n, t.offset, &pos, plies + 1);
                }
            }
            TokenKind::LineComment(_) => {}
            TokenKind::Comment(c) => visitor.comment(c),
            TokenKind::Nag(n) => {
                if n[1..].parse::<u8>().is_err() {
                    rep.warn(
                        GameProblemKind::NagOutOfRange,
                        here(None, Some(n)),
                        "a NAG beyond $255 (PGN's NAGs are $0 to $255); it is kept as written"
                            .to_owned(),
                        None,
                    );
                }
                visitor.nag(n);
            }
            TokenKind::VariationStart => {
                if depth == 0 {
                    outer_open = t.offset;
                }
                depth += 1;
                if depth > MAX_VARIATION_DEPTH {
                    rep.illegal(
                        GameProblemKind::VariationTooDeep,
                        here(None, Some("(")),
                        format!("variations nested more than {MAX_VARIATION_DEPTH} deep"),
                        None,
                    );
                    break;
                }
                visitor.begin_variation();
                if opts.variations && !stopped {
                    match before.clone() {
                        Some(b) => {
                            let current = std::mem::replace(&mut pos, b);
                            stack.push((current, before.take()));
                        }
                        None => {
                            rep.unreadable(
                                here(None, Some("(")),
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
                    rep.unreadable(
                        here(None, Some(")")),
                        "a `)` without its `(`".to_owned(),
                        None,
                    );
                    break;
                }
                depth -= 1;
                visitor.end_variation();
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
                if t.text != r {
                    nonstandard_result(rep, r, t.text, t.offset);
                }
                visitor.result(r);
            }
            TokenKind::Tag { .. } | TokenKind::Unknown(..) if !live => {}
            TokenKind::Tag { .. } => {
                rep.unreadable(
                    here(Some(plies + 1), Some(t.text)),
                    "a tag inside the movetext (is a blank line missing between games?)".to_owned(),
                    Some(&pos),
                );
                break;
            }
            TokenKind::Unknown(raw, why) => {
                rep.unreadable(
                    here(Some(plies + 1), Some(raw)),
                    format!("expected {why}"),
                    Some(&pos),
                );
                break;
            }
            TokenKind::Move(_) if !live || stopped => {}
            TokenKind::Move(tok) => {
                let at = here((depth == 0).then_some(plies + 1), Some(tok));
                if depth == 0 && marker.is_some() {
                    rep.illegal(
                        GameProblemKind::MoveAfterResult,
                        at,
                        "a move after the result marker".to_owned(),
                        Some(&pos),
                    );
                    break;
                }
                let in_variation = |mut reason: String| {
                    if depth > 0 {
                        reason.push_str(" (in a variation)");
                    }
                    reason
                };
                let failure = Failure {
                    ended: || {
                        pos.outcome().map(|o| {
                            in_variation(format!(
                                "the game has already ended ({}, {})",
                                o.reason().name(),
                                o.result()
                            ))
                        })
                    },
                    context: &in_variation,
                };
                // A dead position (insufficient material) has ended the game, though moves
                // are still legal: said once, as `moves` refuses to play on.
                let dead = depth == 0 && !dead_warned && pos.is_insufficient_material();
                let Some((san, m)) = resolve(rep, &pos, tok, opts.strict, at, failure) else {
                    break;
                };
                if dead {
                    dead_warned = true;
                    rep.warn(
                        GameProblemKind::MoveAfterEnd,
                        at,
                        "the game had already ended (insufficient-material, 1/2-1/2)".to_owned(),
                        Some(&pos),
                    );
                }
                let ply = if depth == 0 { plies + 1 } else { 0 };
                visitor.san(&pos, &san, m, MoveAt { ply, board: None });
                let prev = opts.variations.then(|| pos.clone());
                pos.play_unchecked(m);
                visitor.played(&pos);
                plies += usize::from(depth == 0);
                before = prev;
            }
        }
    }
    if rep.status != Status::Ok {
        return plies;
    }
    if depth > 0 {
        rep.unreadable(
            At {
                ply: None,
                token: Some("("),
                offset: outer_open,
            },
            "a variation `(` is never closed".to_owned(),
            None,
        );
        return plies;
    }
    // Variations may have replaced `pos`; the main line's final position is restored by the
    // stack discipline above.
    check_end(rep, tags, &pos, marker, plies, opts.strict, end);
    if rep.status == Status::Ok {
        visitor.end(Boards::One(&pos));
    }
    plies
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
                        fen::setup_to_string(&ours, FenDialect::Lichess)
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
