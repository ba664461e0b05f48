//! Bughouse PGN (BPGN): both boards' moves interleaved in time, each prefixed by its move
//! number and board letter (`12A.` White on A, `12a.` Black on A, `12B.`, `12b.`).
//!
//! Each ply is checked on its board with the pockets of that moment; move numbers must
//! follow each board's move count; clocks (`{298.21}`, `{[%clk 0:00:01.3]}`) must not rise
//! by more than the increment of `[TimeControl]`; the outcome is derived (a checkmate on a
//! board, or the final comment: `X checkmated`, `X forfeits on time`, `X resigns`, aborted
//! games) and compared with `[Result]` read both ways (bughouse-db writes it from the view
//! of the board that ended the match, others from the teams' view).

use std::borrow::Cow;
use std::ops::ControlFlow;

use super::header::{Boards, Options, Tags};
use super::problem::{At, GameProblemKind, Reporter, ResultReading};
use super::walk::Play;
use crate::bughouse::{BoardId, Match, Team};
use crate::moves::Move;
use crate::position::{EndReason, Position};
use crate::types::Color;

/// A move number token's board, colour and number (`12a.` → A, Black, 12).
fn move_label(n: &str) -> Option<(BoardId, Color, u32)> {
    let n = n.trim_end_matches('.');
    let (digits, letter) = n.split_at(n.len().checked_sub(1)?);
    let (board, color) = match letter {
        "A" => (BoardId::A, Color::White),
        "a" => (BoardId::A, Color::Black),
        "B" => (BoardId::B, Color::White),
        "b" => (BoardId::B, Color::Black),
        _ => return None,
    };
    Some((board, color, digits.parse().ok()?))
}

/// Seconds on a clock comment: `{298.21}`, `{-0.576}`, `{180}` or `{[%clk 0:00:01.3]}`.
fn clock(comment: &str) -> Option<f64> {
    let c = comment.trim();
    if let Some(rest) = c.strip_prefix("[%clk") {
        let t = rest.trim().trim_end_matches(']').trim();
        let mut secs = 0.0;
        for part in t.split(':') {
            secs = secs * 60.0 + part.parse::<f64>().ok()?;
        }
        return Some(secs);
    }
    super::annotation::seconds_comment(c)
}

/// The increment in seconds of a `[TimeControl "base+inc"]`.
fn increment(tc: Option<&str>) -> f64 {
    tc.and_then(|t| t.split_once('+'))
        .and_then(|(_, inc)| inc.trim().parse().ok())
        .unwrap_or(0.0)
}

/// How a match ended, as far as the movetext tells.
struct Ending {
    board: BoardId,
    loser: Color,
    how: &'static str,
}

/// A bughouse match, as BPGN plays it: each move on the board its number names, the
/// clocks and the final comment read for the outcome.
pub(crate) struct TwoBoards<'n> {
    game: Match,
    /// The four players, by board and colour.
    names: [(BoardId, Color, Option<&'n str>); 4],
    /// The `[TimeControl]` increment, in seconds.
    inc: f64,
    /// The last clock of each board and colour.
    clocks: [[Option<f64>; 2]; 2],
    /// The board, colour and number of the move number just read.
    label: Option<(BoardId, Color, u32)>,
    /// The board and colour of the last move (whose clock the next comment may be).
    last_played: Option<(BoardId, Color)>,
    ending: Option<Ending>,
    aborted: bool,
}

impl<'n> TwoBoards<'n> {
    pub(crate) fn new(game: Match, tags: &'n Tags<'_>) -> TwoBoards<'n> {
        TwoBoards {
            game,
            names: [
                (BoardId::A, Color::White, tags.get("WhiteA").map(|t| t.0)),
                (BoardId::A, Color::Black, tags.get("BlackA").map(|t| t.0)),
                (BoardId::B, Color::White, tags.get("WhiteB").map(|t| t.0)),
                (BoardId::B, Color::Black, tags.get("BlackB").map(|t| t.0)),
            ],
            inc: increment(tags.get("TimeControl").map(|t| t.0)),
            clocks: [[None; 2]; 2],
            label: None,
            last_played: None,
            ending: None,
            aborted: false,
        }
    }
}

impl Play for TwoBoards<'_> {
    #[inline(always)]
    fn move_number(
        &mut self,
        rep: &mut Reporter<'_>,
        n: &str,
        offset: usize,
        ply: usize,
        _strict: bool,
    ) -> ControlFlow<()> {
        match move_label(n) {
            Some(l) => {
                self.label = Some(l);
                ControlFlow::Continue(())
            }
            None => {
                rep.unreadable(
                    At {
                        ply: Some(ply),
                        token: Some(n),
                        offset,
                    },
                    "a BPGN move number with its board (12A., 12a., 12B., 12b.)".to_owned(),
                    None,
                );
                ControlFlow::Break(())
            }
        }
    }

    #[inline(always)]
    fn comment(&mut self, rep: &mut Reporter<'_>, c: &str, offset: usize, plies: usize) {
        // Only bughouse-db's `{298.21}` clocks are remaining time; Chess.com's bughouse
        // `[%clk]` values are per-move times, so they are not compared.
        let remaining = clock(c).filter(|_| !c.trim_start().starts_with('['));
        if let (Some(secs), Some((b, color))) = (remaining, self.last_played) {
            let inc = self.inc;
            let slot = &mut self.clocks[b as usize][color as usize];
            if let Some(prev) = *slot
                && secs > prev + inc + 0.001
            {
                rep.warn(
                    GameProblemKind::ClockIncrease,
                    At {
                        ply: Some(plies),
                        token: Some(c.trim()),
                        offset,
                    },
                    format!(
                        "the clock of {} on board {b} rose from {prev} to {secs} s (increment {inc} s)",
                        color.name()
                    ),
                    None,
                );
            }
            *slot = Some(secs);
        } else if mentions_ending(c) {
            let (abort, end) = read_ending(c, &self.names);
            self.aborted |= abort;
            self.ending = end.or(self.ending.take());
        }
    }

    #[inline(always)]
    fn mover<'t>(
        &mut self,
        rep: &mut Reporter<'_>,
        tok: &'t str,
        at: At<'_>,
        after_result: bool,
    ) -> Option<(Option<BoardId>, Cow<'t, str>)> {
        let Some((board, color, number)) = self.label.take() else {
            rep.unreadable(
                at,
                "a move without its BPGN number and board (12A., 12a., 12B., 12b.)".to_owned(),
                None,
            );
            return None;
        };
        // Chess.com's BPGN export garbles `N@` into the NAG `$146`: repair it.
        let tok = match tok
            .strip_prefix("$146")
            .filter(|rest| rest.starts_with('@'))
        {
            Some(rest) => {
                let repaired = format!("N{rest}");
                rep.warn(
                    GameProblemKind::GarbledKnightDrop,
                    at,
                    format!(
                        "`{tok}` read as `{repaired}` (Chess.com's BPGN export writes knight drops so)"
                    ),
                    None,
                );
                Cow::Owned(repaired)
            }
            None => Cow::Borrowed(tok),
        };
        let pos = self.game.board(board);
        // A mate on either board ends the match: a move after it, on the other board
        // too, where it may be legal, is a move after the end.
        if !after_result && let Some(reason) = self.ended(0) {
            rep.illegal(GameProblemKind::MoveAfterEnd, at, reason, Some(pos));
            return None;
        }
        if after_result {
            rep.illegal(
                GameProblemKind::MoveAfterResult,
                at,
                "a move after the result marker".to_owned(),
                Some(pos),
            );
            return None;
        }
        if pos.turn() != color {
            rep.illegal(
                GameProblemKind::OutOfTurn,
                at,
                format!("it is {}'s turn on board {board}", pos.turn().name()),
                Some(pos),
            );
            return None;
        }
        if pos.fullmoves() != number {
            rep.illegal(
                GameProblemKind::MoveNumberMismatch,
                at,
                format!("board {board} is at move {}, not {number}", pos.fullmoves()),
                Some(pos),
            );
            return None;
        }
        Some((Some(board), tok))
    }

    #[inline]
    fn position(&self, board: Option<BoardId>) -> &Position {
        self.game.board(board.unwrap_or(BoardId::A))
    }

    fn shown(&self) -> Option<&Position> {
        None
    }

    #[inline]
    fn ended(&self, _depth: usize) -> Option<String> {
        self.game.outcome().map(|(b, o)| {
            format!(
                "the match has already ended ({} on board {b})",
                o.reason().name()
            )
        })
    }

    #[inline]
    fn context(&self, board: Option<BoardId>, _depth: usize, reason: String) -> String {
        format!("board {}: {reason}", board.unwrap_or(BoardId::A))
    }

    #[inline]
    fn play(&mut self, board: Option<BoardId>, m: Move, _keep_before: bool) {
        let board = board.unwrap_or(BoardId::A);
        let color = self.game.board(board).turn();
        self.game.play_unchecked(board, m);
        self.last_played = Some((board, color));
    }

    fn has_variations(&self) -> bool {
        false
    }

    fn enter_variation(&mut self) -> bool {
        false
    }

    fn leave_variation(&mut self) {}

    fn finish(
        &mut self,
        rep: &mut Reporter<'_>,
        tags: &Tags<'_>,
        _marker: Option<(&str, usize)>,
        _plies: usize,
        _opts: &Options,
        _end: usize,
    ) -> Option<ResultReading> {
        // The derived outcome: a checkmate on a board, else the final comment.
        if let Some((board, o)) = self.game.outcome() {
            let loser = self.game.board(board).turn();
            self.ending = Some(Ending {
                board,
                loser,
                how: if o.reason() == EndReason::Checkmate {
                    "checkmate"
                } else {
                    "stalemate"
                },
            });
        }
        read_result(rep, tags, self.ending.take(), self.aborted)
    }

    fn boards(&self) -> Boards<'_> {
        Boards::Two(&self.game)
    }
}

/// Whether a comment may say how the match ended (checked without allocating: most
/// comments are clocks).
fn mentions_ending(comment: &str) -> bool {
    let b = comment.as_bytes();
    ["checkmated", "forfeits", "resigns", "abort"]
        .iter()
        .any(|w| {
            b.windows(w.len())
                .any(|x| x.eq_ignore_ascii_case(w.as_bytes()))
        })
}

/// What a comment says of the match's end: whether it was aborted, and who lost how
/// (`X checkmated`, `X forfeits on time`, `X resigns`, `X forfeits by disconnection`).
fn read_ending(
    comment: &str,
    names: &[(BoardId, Color, Option<&str>); 4],
) -> (bool, Option<Ending>) {
    // Words, not lines: a comment may be wrapped anywhere (as `pgn convert` wraps).
    let lower = comment
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase();
    let aborted = lower.contains("aborted") || lower.contains("abort the game");
    let mut ending = None;
    for (how, word) in [
        ("checkmate", "checkmated"),
        ("time", "forfeits on time"),
        ("resignation", "resigns"),
        ("disconnection", "forfeits by disconnection"),
    ] {
        if let Some(name) = lower.trim().strip_suffix(word).map(str::trim)
            && let Some(&(board, loser, _)) = names
                .iter()
                .find(|(_, _, n)| n.is_some_and(|n| n.eq_ignore_ascii_case(name)))
        {
            ending = Some(Ending { board, loser, how });
        }
    }
    (aborted, ending)
}

/// Compares the Result tag with the derived ending, read both ways.
fn read_result(
    rep: &mut Reporter<'_>,
    tags: &Tags<'_>,
    ending: Option<Ending>,
    aborted: bool,
) -> Option<ResultReading> {
    let result = tags.result();
    let Some(end) = ending else {
        if let Some((r, offset)) = result
            && aborted
            && r != "*"
        {
            rep.warn(
                GameProblemKind::ResultMismatch,
                At::tag(r, offset),
                format!("the match was aborted but the Result tag says {r}"),
                None,
            );
        }
        return None;
    };
    let board_view = if end.loser == Color::White {
        "0-1"
    } else {
        "1-0"
    };
    let team_view = if Team::of(end.board, end.loser) == Team::One {
        "0-1"
    } else {
        "1-0"
    };
    let (r, offset) = result?;
    match (r == board_view, r == team_view) {
        (true, true) => Some(ResultReading::Both),
        (true, false) => Some(ResultReading::Board),
        (false, true) => Some(ResultReading::Team),
        (false, false) => {
            rep.warn(
                GameProblemKind::ResultMismatch,
                At::tag(r, offset),
                format!(
                    "{} lost on board {} by {}: the Result would be {board_view} from that board's view or {team_view} from the teams' view, not {r}",
                    end.loser.name(),
                    end.board,
                    end.how
                ),
                None,
            );
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_clocks() {
        assert_eq!(move_label("12a."), Some((BoardId::A, Color::Black, 12)));
        assert_eq!(move_label("1B."), Some((BoardId::B, Color::White, 1)));
        assert_eq!(move_label("3."), None);
        assert_eq!(clock("298.21"), Some(298.21));
        assert_eq!(clock("-0.576"), Some(-0.576));
        assert_eq!(clock("[%clk 0:00:01.3]"), Some(1.3));
        assert_eq!(clock("[%clk 1:02:03]"), Some(3723.0));
        assert_eq!(clock("C: This is game number 1"), None);
        assert_eq!(increment(Some("120+2")), 2.0);
        assert_eq!(increment(Some("180")), 0.0);
    }
}
