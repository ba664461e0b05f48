//! The one movetext walker of PGN and BPGN: tokens in order, each move resolved on its
//! board, every problem reported with its place, the visitor shown the walk. What differs
//! between the two forms (one board with variations, or two boards with board labels,
//! clocks and the partners' pockets) are the hooks of [`Play`]; everything else (NAGs,
//! result markers, tags or unknown text inside the movetext, moves after the result or the
//! end, the dead-position warning) means the same in both.

use std::borrow::Cow;
use std::ops::ControlFlow;

use super::header::{Boards, MAX_VARIATION_DEPTH, MoveAt, Options, Tags};
use super::problem::{At, GameProblemKind, Reporter, ResultReading, Status};
use super::step::{Failure, resolve};
use super::visitor::{Skip, Visitor};
use crate::bughouse::BoardId;
use crate::moves::Move;
use crate::position::Position;
use crate::stream::token::{TokenKind, Tokenizer};

/// What a walk plays on, and the rules of its form: the hooks of the one walker.
pub(crate) trait Play {
    /// A move number on the main line (`12.`, `12...`, or BPGN's `12A.`); `ply` is the
    /// next mainline ply. `Break`: the walk stops (the problem is reported).
    fn move_number(
        &mut self,
        rep: &mut Reporter<'_>,
        n: &str,
        offset: usize,
        ply: usize,
        strict: bool,
    ) -> ControlFlow<()>;

    /// A comment of the main line; `plies` have been played.
    fn comment(&mut self, _rep: &mut Reporter<'_>, _text: &str, _offset: usize, _plies: usize) {}

    /// A move token: the board it is on and the move as it reads (after the form's checks
    /// of its number and side, and its repairs). `None`: the walk stops (reported).
    fn mover<'t>(
        &mut self,
        rep: &mut Reporter<'_>,
        tok: &'t str,
        at: At<'_>,
        after_result: bool,
    ) -> Option<(Option<BoardId>, Cow<'t, str>)>;

    /// The position a move on `board` is played in.
    fn position(&self, board: Option<BoardId>) -> &Position;

    /// The position a problem that is no move is shown with (none for a match).
    fn shown(&self) -> Option<&Position>;

    /// Why no move can be played any more (the game or match has ended), if so.
    fn ended(&self, depth: usize) -> Option<String>;

    /// The engine's reason for an illegal move, with where the move was.
    fn context(&self, board: Option<BoardId>, depth: usize, reason: String) -> String;

    /// Plays a legal move on `board`; the position before it is kept for a variation
    /// when `keep_before`.
    fn play(&mut self, board: Option<BoardId>, m: Move, keep_before: bool);

    /// `(`: whether the form has variations (a BPGN match has none: it is unreadable).
    fn has_variations(&self) -> bool;

    /// Enters a variation that is validated: the position goes back to before the last
    /// move. `false`: there was no move to go back from.
    fn enter_variation(&mut self) -> bool;

    /// Leaves the variation entered last: the position it branched from comes back.
    fn leave_variation(&mut self);

    /// The checks of the end of a movetext that replayed without error (the Result tag
    /// and marker against the outcome, …); `end` is the movetext's end offset.
    fn finish(
        &mut self,
        rep: &mut Reporter<'_>,
        tags: &Tags<'_>,
        marker: Option<(&str, usize)>,
        plies: usize,
        opts: &Options,
        end: usize,
    ) -> Option<ResultReading>;

    /// The boards as the visitor sees them.
    fn boards(&self) -> Boards<'_>;
}

/// What the walk found: mainline plies, and (bughouse) the Result reading that fits.
pub(crate) struct Walked {
    pub(crate) plies: usize,
    pub(crate) reading: Option<ResultReading>,
}

/// Walks the movetext of `tokens` on `play`, reporting to `rep` and showing `visitor`.
pub(crate) fn walk<'t, P: Play, V: Visitor<'t>>(
    rep: &mut Reporter<'_>,
    tags: &Tags<'_>,
    tokens: Tokenizer<'t>,
    play: &mut P,
    opts: &Options,
    visitor: &mut V,
    end: usize,
) -> Walked {
    let mut depth = 0usize;
    // Variations skipped at the visitor's request: the depth at which the first began.
    let mut skipping: Option<usize> = None;
    // Where the outermost open variation starts (a `(` never closed is reported there).
    let mut outer_open = 0usize;
    let mut plies = 0usize;
    let mut marker: Option<(&str, usize)> = None;
    let mut dead_warned = false;
    let walked = |plies, reading| Walked { plies, reading };
    for t in tokens {
        let here = |ply, token| At {
            ply,
            token,
            offset: t.offset,
        };
        // Inside a skipped variation only the parentheses count.
        if skipping.is_some()
            && !matches!(
                t.kind,
                TokenKind::VariationStart | TokenKind::VariationEnd | TokenKind::Unknown(..)
            )
        {
            continue;
        }
        let flow = match t.kind {
            TokenKind::MoveNumber(n) => {
                if depth == 0 {
                    play.move_number(rep, n, t.offset, plies + 1, opts.strict)
                } else {
                    ControlFlow::Continue(())
                }
            }
            // A `;` comment; a `%` line is an escape for other programs, no comment.
            TokenKind::LineComment(c) if t.text.starts_with(';') => visitor.line_comment(c),
            TokenKind::LineComment(_) => ControlFlow::Continue(()),
            TokenKind::Comment(c) => {
                if depth == 0 {
                    play.comment(rep, c, t.offset, plies);
                }
                visitor.comment(c)
            }
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
                visitor.nag(n)
            }
            TokenKind::VariationStart => {
                if !play.has_variations() {
                    rep.unreadable(
                        here(Some(plies + 1), Some("(")),
                        "variations are not part of BPGN".to_owned(),
                        None,
                    );
                    break;
                }
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
                if skipping.is_some() {
                    continue;
                }
                match visitor.begin_variation() {
                    ControlFlow::Break(()) => break,
                    ControlFlow::Continue(Skip(true)) => {
                        skipping = Some(depth);
                        continue;
                    }
                    ControlFlow::Continue(Skip(false)) => {}
                }
                if opts.variations && !play.enter_variation() {
                    rep.unreadable(
                        here(None, Some("(")),
                        "a variation before any move".to_owned(),
                        None,
                    );
                    break;
                }
                ControlFlow::Continue(())
            }
            TokenKind::VariationEnd => {
                if depth == 0 {
                    let at = here((!play.has_variations()).then_some(plies + 1), Some(")"));
                    let why = if play.has_variations() {
                        "a `)` without its `(`"
                    } else {
                        "variations are not part of BPGN"
                    };
                    rep.unreadable(at, why.to_owned(), None);
                    break;
                }
                depth -= 1;
                match skipping {
                    Some(d) if depth + 1 > d => continue,
                    Some(_) => {
                        skipping = None;
                        continue;
                    }
                    None => {}
                }
                if opts.variations {
                    play.leave_variation();
                }
                visitor.end_variation()
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
                    super::problem::nonstandard_result(rep, r, t.text, t.offset);
                }
                visitor.result(r)
            }
            TokenKind::Tag { .. } | TokenKind::LooseTag { .. } | TokenKind::Unknown(..)
                if depth > 0 && (!opts.variations || skipping.is_some()) =>
            {
                ControlFlow::Continue(())
            }
            TokenKind::Tag { .. } | TokenKind::LooseTag { .. } => {
                rep.unreadable(
                    here(Some(plies + 1), Some(t.text)),
                    "a tag inside the movetext (is a blank line missing between games?)".to_owned(),
                    play.shown(),
                );
                break;
            }
            TokenKind::Unknown(raw, why) => {
                rep.unreadable(
                    here(Some(plies + 1), Some(raw)),
                    format!("expected {why}"),
                    play.shown(),
                );
                break;
            }
            TokenKind::Move(_) if depth > 0 && !opts.variations => ControlFlow::Continue(()),
            TokenKind::Move(tok) => {
                let at = here((depth == 0).then_some(plies + 1), Some(tok));
                let after_result = depth == 0 && marker.is_some();
                let Some((board, tok)) = play.mover(rep, tok, at, after_result) else {
                    break;
                };
                let pos = play.position(board);
                let failure = Failure {
                    ended: || play.ended(depth),
                    context: |reason| play.context(board, depth, reason),
                };
                // A dead position (insufficient material) has ended the game, though moves
                // are still legal: said once, as `moves` refuses to play on.
                let dead = depth == 0 && !dead_warned && pos.is_insufficient_material();
                let Some((san, m)) = resolve(rep, pos, &tok, opts.strict, at, failure) else {
                    break;
                };
                if dead {
                    dead_warned = true;
                    rep.warn(
                        GameProblemKind::MoveAfterEnd,
                        at,
                        "the game had already ended (insufficient-material, 1/2-1/2)".to_owned(),
                        Some(pos),
                    );
                }
                let ply = if depth == 0 { plies + 1 } else { 0 };
                if visitor.san(pos, &san, m, MoveAt { ply, board }).is_break() {
                    break;
                }
                play.play(board, m, opts.variations);
                plies += usize::from(depth == 0);
                visitor.played(play.position(board))
            }
        };
        if flow.is_break() {
            return walked(plies, None);
        }
    }
    if rep.status != Status::Ok {
        return walked(plies, None);
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
        return walked(plies, None);
    }
    let reading = play.finish(rep, tags, marker, plies, opts, end);
    if rep.status == Status::Ok {
        visitor.end(play.boards());
    }
    walked(plies, reading)
}
