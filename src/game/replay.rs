//! `replay`: the text of each mainline ply of a game (the FEN after it, its SAN or its
//! UCI), written as the walk goes.
//!
//! ```
//! use pocketfen::game::{PlyText, replay_game};
//! use pocketfen::game::Options;
//! use pocketfen::stream::RawGame;
//! let game = RawGame::new(b"[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 *\n".to_vec());
//! let mut lines = Vec::new();
//! replay_game(&game, &Options::default(), PlyText::Uci, &mut |l| lines.push(l.to_owned()));
//! assert_eq!(lines, ["e2e4", "d7d5", "e4d5", "d8d5"]);
//! ```

use std::fmt::Write as _;
use std::ops::ControlFlow;

use super::annotation::{Annotations, move_notes};
use super::header::{Boards, MoveAt, Options};
use super::problem::GameReport;
use super::validate::visit_game;
use super::visitor::{Skip, Visitor};
use crate::bughouse::BoardId;
use crate::moves::Move;
use crate::notation::fen::{BoardCache, FenDialect};
use crate::notation::san::{DropStyle, SanPlus};
use crate::position::Position;
use crate::stream::split::RawGame;

/// What `replay` writes per mainline ply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlyText {
    /// The FEN after the move, in a dialect.
    Fen(FenDialect),
    /// The move's SAN, pawn drops in a style.
    San(DropStyle),
    /// The move's UCI.
    Uci,
}

impl std::str::FromStr for PlyText {
    type Err = crate::ParseNameError;
    /// `fen` (Lichess's dialect), `san` (`P@e4`) or `uci`.
    fn from_str(s: &str) -> Result<PlyText, crate::ParseNameError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "fen" => Ok(PlyText::Fen(FenDialect::Lichess)),
            "san" => Ok(PlyText::San(DropStyle::Letter)),
            "uci" => Ok(PlyText::Uci),
            _ => Err(<PlyText as crate::Choice>::unknown(s)),
        }
    }
}

impl crate::Choice for PlyText {
    const WHAT: &'static str = "emit value";
    const NAMES: &'static [&'static str] = &["fen", "san", "uci"];
}

struct Lines<'f> {
    text: PlyText,
    line: &'f mut dyn FnMut(&str),
    buf: String,
    /// The board of the last FEN written (when FENs are written).
    board: Option<BoardCache>,
    /// A mainline move whose FEN is written once it is played.
    pending: bool,
    /// Each mainline ply's annotations, when asked for.
    notes: Option<Vec<Option<Annotations>>>,
    /// How deep in variations the walk is.
    depth: usize,
    /// A bughouse match: `[%clk]` is the time the move took, a plain number its clock.
    bughouse: bool,
    /// The result has been read: comments after it are no move's.
    over: bool,
}

impl<'t> Visitor<'t> for Lines<'_> {
    fn comment(&mut self, text: &'t str) -> ControlFlow<()> {
        if self.over {
            return ControlFlow::Continue(());
        }
        let (Some(notes), 0) = (&mut self.notes, self.depth) else {
            return ControlFlow::Continue(());
        };
        if let Some(last) = notes.last_mut()
            && let Some(read) = move_notes(text, self.bughouse)
        {
            last.get_or_insert_with(Annotations::default).merge(read);
        }
        ControlFlow::Continue(())
    }

    fn start(&mut self, boards: Boards<'_>) -> ControlFlow<()> {
        self.bughouse = matches!(boards, Boards::Two(_));
        ControlFlow::Continue(())
    }

    fn result(&mut self, _marker: &'t str) -> ControlFlow<()> {
        self.over |= self.depth == 0;
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self) -> ControlFlow<(), Skip> {
        self.depth += 1;
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self) -> ControlFlow<()> {
        self.depth = self.depth.saturating_sub(1);
        ControlFlow::Continue(())
    }

    fn san(&mut self, before: &Position, _: &SanPlus, m: Move, at: MoveAt) -> ControlFlow<()> {
        self.pending = false;
        if !at.is_mainline() {
            return ControlFlow::Continue(());
        }
        if let Some(notes) = &mut self.notes {
            notes.push(None);
        }
        self.buf.clear();
        match at.board {
            Some(BoardId::A) => self.buf.push_str("A "),
            Some(BoardId::B) => self.buf.push_str("B "),
            None => {}
        }
        match self.text {
            PlyText::Fen(_) => self.pending = true,
            PlyText::San(style) => {
                SanPlus::from_move(before, m).append_to(&mut self.buf, style);
                (self.line)(&self.buf);
            }
            PlyText::Uci => {
                let _ = write!(self.buf, "{}", m.to_uci(before.is_chess960()));
                (self.line)(&self.buf);
            }
        }
        ControlFlow::Continue(())
    }

    fn played(&mut self, after: &Position) -> ControlFlow<()> {
        if let (true, PlyText::Fen(dialect)) = (self.pending, self.text) {
            self.pending = false;
            let fen = after.to_setup();
            match &mut self.board {
                Some(board) => fen.display(dialect).append_with(&mut self.buf, board),
                None => fen.display(dialect).append_to(&mut self.buf),
            }
            (self.line)(&self.buf);
        }
        ControlFlow::Continue(())
    }
}

/// Replays one game and hands `line` the text of each mainline ply, prefixed `A ` or `B `
/// in a bughouse match. Like `validate`, the walk stops at the first error, which the
/// report gives. No position is copied: the text is written as the walk goes.
pub fn replay_game(
    game: &RawGame,
    opts: &Options,
    text: PlyText,
    line: &mut dyn FnMut(&str),
) -> GameReport {
    let mut lines = Lines {
        text,
        line,
        buf: String::with_capacity(96),
        board: matches!(text, PlyText::Fen(_)).then(BoardCache::new),
        pending: false,
        notes: None,
        depth: 0,
        bughouse: false,
        over: false,
    };
    visit_game(game, opts, &mut lines)
}

/// [`replay_game`], and each mainline ply's annotations: the commands of the comments
/// that follow it ([`read_annotations`](super::read_annotations)), one entry per ply
/// (`None` for a ply without any). A command that does not read is left out
/// (`validate --strict` reports it).
///
/// ```
/// use pocketfen::game::{Eval, Options, PlyText, replay_annotated};
/// use pocketfen::stream::RawGame;
/// let game = RawGame::new(b"1. e4 { [%eval 0.3] [%clk 0:03:00] } e5 2. Nf3 { [%clk 0:02:58] } *\n".to_vec());
/// let (report, notes) = replay_annotated(&game, &Options::default(), PlyText::Uci, &mut |_| {});
/// assert_eq!(report.plies, 3);
/// assert_eq!(notes[0].as_ref().and_then(|n| n.eval), Some(Eval::Centipawns(30)));
/// assert!(notes[1].is_none());
/// assert_eq!(notes[2].as_ref().and_then(|n| n.clock).map(|c| c.as_secs()), Some(178));
/// ```
pub fn replay_annotated(
    game: &RawGame,
    opts: &Options,
    text: PlyText,
    line: &mut dyn FnMut(&str),
) -> (GameReport, Vec<Option<Annotations>>) {
    let mut lines = Lines {
        text,
        line,
        buf: String::with_capacity(96),
        board: matches!(text, PlyText::Fen(_)).then(BoardCache::new),
        pending: false,
        notes: Some(Vec::new()),
        depth: 0,
        bughouse: false,
        over: false,
    };
    let report = visit_game(game, opts, &mut lines);
    (report, lines.notes.unwrap_or_default())
}
