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
use crate::stream::token::{Token, TokenKind, Tokenizer};

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

/// What a token makes the walk do next.
enum Next {
    /// Go on with the next token.
    On,
    /// Stop: a problem ended the walk, or the visitor asked to.
    Stop,
}

impl From<ControlFlow<()>> for Next {
    #[inline]
    fn from(flow: ControlFlow<()>) -> Next {
        match flow {
            ControlFlow::Continue(()) => Next::On,
            ControlFlow::Break(()) => Next::Stop,
        }
    }
}

/// A walk in progress: where it is in the variations, what the main line has played,
/// and the result marker met.
struct Walk<'r, 'a, 'o, 't, P, V> {
    rep: &'r mut Reporter<'a>,
    play: &'r mut P,
    opts: &'o Options,
    visitor: &'r mut V,
    /// How deep in variations.
    depth: usize,
    /// Variations skipped at the visitor's request, or from a variation's illegal move
    /// on: the depth at which the first began.
    skipping: Option<usize>,
    /// The skipping is a variation's rest after its illegal move: at its `)` the
    /// variation is left as any other.
    broken: bool,
    /// Errors of variations' moves: the main line goes on after them.
    variation_errors: usize,
    /// Where the outermost open variation starts (a `(` never closed is reported there).
    outer_open: usize,
    /// Mainline plies played.
    plies: usize,
    /// The main line's result marker and its offset.
    marker: Option<(&'t str, usize)>,
    /// Whether the dead position (insufficient material) was said.
    dead_warned: bool,
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
    let mut walk = Walk {
        rep,
        play,
        opts,
        visitor,
        depth: 0,
        skipping: None,
        broken: false,
        variation_errors: 0,
        outer_open: 0,
        plies: 0,
        marker: None,
        dead_warned: false,
    };
    for t in tokens {
        if let Next::Stop = walk.token(&t) {
            return Walked {
                plies: walk.plies,
                reading: None,
            };
        }
    }
    walk.end(tags, end)
}

impl<'t, P: Play, V: Visitor<'t>> Walk<'_, '_, '_, 't, P, V> {
    /// A problem's place at the token `t`.
    #[inline]
    fn at<'x>(t: &Token<'x>, ply: Option<usize>, token: Option<&'x str>) -> At<'x> {
        At {
            ply,
            token,
            offset: t.offset,
        }
    }

    /// One token of the movetext.
    #[inline]
    fn token(&mut self, t: &Token<'t>) -> Next {
        // Inside a skipped variation only the parentheses count.
        if self.skipping.is_some()
            && !matches!(
                t.kind,
                TokenKind::VariationStart | TokenKind::VariationEnd | TokenKind::Unknown(..)
            )
        {
            return Next::On;
        }
        match t.kind {
            TokenKind::MoveNumber(n) => {
                if self.depth == 0 {
                    let ply = self.plies + 1;
                    return (self
                        .play
                        .move_number(self.rep, n, t.offset, ply, self.opts.strict))
                    .into();
                }
                Next::On
            }
            // A `;` comment; a `%` line is an escape for other programs, no comment.
            TokenKind::LineComment(c) if t.text.starts_with(';') => {
                // Its commands are read as a `{…}` comment's are (after the `;`).
                if self.opts.strict && super::annotation::has_command(c) {
                    self.annotations(t, c);
                }
                self.visitor.line_comment(c).into()
            }
            TokenKind::LineComment(_) => Next::On,
            TokenKind::Comment(c) => {
                if self.depth == 0 {
                    self.play.comment(self.rep, c, t.offset, self.plies);
                }
                if self.opts.strict && super::annotation::has_command(c) {
                    self.annotations(t, c);
                }
                self.visitor.comment(c).into()
            }
            TokenKind::Nag(n) => {
                if n[1..].parse::<u8>().is_err() {
                    self.rep.warn(
                        GameProblemKind::NagOutOfRange,
                        Self::at(t, None, Some(n)),
                        "a NAG beyond $255 (PGN's NAGs are $0 to $255); it is kept as written"
                            .to_owned(),
                        None,
                    );
                }
                self.visitor.nag(n).into()
            }
            TokenKind::VariationStart => self.variation_start(t),
            TokenKind::VariationEnd => self.variation_end(t),
            TokenKind::Result(r) => self.result(t, r),
            TokenKind::Tag { .. } | TokenKind::LooseTag { .. } | TokenKind::Unknown(..)
                if self.depth > 0 && (!self.opts.variations || self.skipping.is_some()) =>
            {
                Next::On
            }
            TokenKind::Tag { .. } | TokenKind::LooseTag { .. } => {
                self.rep.unreadable(
                    Self::at(t, Some(self.plies + 1), Some(t.text)),
                    "a tag inside the movetext (is a blank line missing between games?)".to_owned(),
                    self.play.shown(),
                );
                Next::Stop
            }
            TokenKind::Unknown(raw, why) => {
                self.rep.unreadable(
                    Self::at(t, Some(self.plies + 1), Some(raw)),
                    format!("expected {why}"),
                    self.play.shown(),
                );
                Next::Stop
            }
            TokenKind::Move(_) if self.depth > 0 && !self.opts.variations => Next::On,
            TokenKind::Move(tok) => self.mv(t, tok),
        }
    }

    /// The commands of the comment `c` (`--strict`): each that does not read is reported
    /// where it stands, with the move it follows.
    #[cold]
    fn annotations(&mut self, t: &Token<'t>, c: &'t str) {
        let ply = (self.depth == 0 && self.plies > 0).then_some(self.plies);
        for e in super::annotation::read_annotations(c).1 {
            let end = c[e.offset..]
                .find(']')
                .map_or(c.len(), |n| e.offset + n + 1);
            self.rep.warn(
                GameProblemKind::MalformedAnnotation,
                At {
                    ply,
                    token: Some(&c[e.offset..end]),
                    // After the comment's `{` (or `;`).
                    offset: t.offset + 1 + e.offset,
                },
                format!(
                    "a comment's command that does not read: expected {}",
                    e.expected
                ),
                None,
            );
        }
    }

    /// `(`: a variation begins (validated, skipped, or refused in BPGN or too deep).
    fn variation_start(&mut self, t: &Token<'t>) -> Next {
        if !self.play.has_variations() {
            self.rep.unreadable(
                Self::at(t, Some(self.plies + 1), Some("(")),
                "variations are not part of BPGN".to_owned(),
                None,
            );
            return Next::Stop;
        }
        if self.depth == 0 {
            self.outer_open = t.offset;
        }
        self.depth += 1;
        if self.depth > MAX_VARIATION_DEPTH {
            self.rep.illegal(
                GameProblemKind::VariationTooDeep,
                Self::at(t, None, Some("(")),
                format!("variations nested more than {MAX_VARIATION_DEPTH} deep"),
                None,
            );
            return Next::Stop;
        }
        if self.skipping.is_some() {
            return Next::On;
        }
        match self.visitor.begin_variation() {
            ControlFlow::Break(()) => return Next::Stop,
            ControlFlow::Continue(Skip(true)) => {
                self.skipping = Some(self.depth);
                return Next::On;
            }
            ControlFlow::Continue(Skip(false)) => {}
        }
        if self.opts.variations && !self.play.enter_variation() {
            self.rep.unreadable(
                Self::at(t, None, Some("(")),
                "a variation before any move".to_owned(),
                None,
            );
            return Next::Stop;
        }
        Next::On
    }

    /// `)`: the variation entered last ends.
    fn variation_end(&mut self, t: &Token<'t>) -> Next {
        if self.depth == 0 {
            let bpgn = !self.play.has_variations();
            let at = Self::at(t, bpgn.then_some(self.plies + 1), Some(")"));
            let why = if bpgn {
                "variations are not part of BPGN"
            } else {
                "a `)` without its `(`"
            };
            self.rep.unreadable(at, why.to_owned(), None);
            return Next::Stop;
        }
        self.depth -= 1;
        match self.skipping {
            Some(d) if self.depth + 1 > d => return Next::On,
            Some(_) => {
                self.skipping = None;
                if !std::mem::take(&mut self.broken) {
                    return Next::On;
                }
            }
            None => {}
        }
        if self.opts.variations {
            self.play.leave_variation();
        }
        self.visitor.end_variation().into()
    }

    /// A result marker (`r` as PGN spells it): a second one on the main line ends the
    /// walk.
    fn result(&mut self, t: &Token<'t>, r: &'t str) -> Next {
        if self.depth == 0 {
            if let Some((first, _)) = self.marker {
                self.rep.second_result(first, r, t.offset);
                return Next::Stop;
            }
            self.marker = Some((r, t.offset));
        }
        if t.text != r {
            super::problem::nonstandard_result(self.rep, r, t.text, t.offset);
        }
        self.visitor.result(r).into()
    }

    /// A move: resolved on its board and played, or the reason it cannot be.
    #[inline]
    fn mv(&mut self, t: &Token<'t>, tok: &'t str) -> Next {
        let depth = self.depth;
        let at = Self::at(t, (depth == 0).then_some(self.plies + 1), Some(tok));
        let after_result = depth == 0 && self.marker.is_some();
        let Some((board, tok)) = self.play.mover(self.rep, tok, at, after_result) else {
            return Next::Stop;
        };
        let play = &*self.play;
        let pos = play.position(board);
        let failure = Failure {
            ended: || play.ended(depth),
            context: |reason| play.context(board, depth, reason),
        };
        // A dead position (insufficient material) has ended the game, though moves are
        // still legal: said once, as `moves` refuses to play on.
        let dead = depth == 0 && !self.dead_warned && pos.is_insufficient_material();
        let (problems, status) = (self.rep.problems.len(), self.rep.status);
        let Some((san, m)) = resolve(self.rep, pos, &tok, self.opts.strict, at, failure) else {
            if depth == 0 {
                return Next::Stop;
            }
            return self.variation_broken(problems, status);
        };
        if dead {
            self.dead_warned = true;
            self.rep.warn(
                GameProblemKind::MoveAfterEnd,
                at,
                "the game had already ended (insufficient-material, 1/2-1/2)".to_owned(),
                Some(pos),
            );
        }
        let ply = if depth == 0 { self.plies + 1 } else { 0 };
        if self
            .visitor
            .san(pos, &san, m, MoveAt { ply, board })
            .is_break()
        {
            return Next::Stop;
        }
        self.play.play(board, m, self.opts.variations);
        self.plies += usize::from(depth == 0);
        self.visitor.played(self.play.position(board)).into()
    }

    /// A variation's move that is illegal or unreadable (its problems from `problems`
    /// on, the game's status before them `status`): the rest of the variation is
    /// skipped, and the main line goes on; the problems stay errors unless the visitor
    /// keeps the variation up to the move (never under `--strict`, where a game is
    /// kept only whole: `pgn convert --strict` refuses it for them as errors).
    #[cold]
    #[inline(never)]
    fn variation_broken(&mut self, problems: usize, status: Status) -> Next {
        // (An unreadable move's reason does not say where it stands yet.)
        for p in &mut self.rep.problems[problems..] {
            if !p.reason.ends_with(" (in a variation)") {
                p.reason.push_str(" (in a variation)");
            }
        }
        if !self.opts.strict && self.visitor.variation_broken() {
            self.rep
                .demote(problems, status, "; the variation is kept up to this move");
        } else {
            self.variation_errors += self.rep.errors_from(problems);
        }
        self.skipping = Some(self.depth);
        self.broken = true;
        Next::On
    }

    /// The end of the movetext: a variation left open, then the form's checks of the
    /// end (the result against the outcome) and the visitor's end.
    fn end(self, tags: &Tags<'_>, end: usize) -> Walked {
        let walked = |plies, reading| Walked { plies, reading };
        // (Variations' illegal moves aside: the main line was played to its end.)
        let only_variations = self.variation_errors > 0
            && self.rep.status == Status::Illegal
            && self.rep.errors_from(0) == self.variation_errors;
        if self.rep.status != Status::Ok && !only_variations {
            return walked(self.plies, None);
        }
        if self.depth > 0 {
            self.rep.unreadable(
                At {
                    ply: None,
                    token: Some("("),
                    offset: self.outer_open,
                },
                "a variation `(` is never closed".to_owned(),
                None,
            );
            return walked(self.plies, None);
        }
        let reading = self
            .play
            .finish(self.rep, tags, self.marker, self.plies, self.opts, end);
        if self.rep.status == Status::Ok {
            self.visitor.end(self.play.boards());
        }
        walked(self.plies, reading)
    }
}
