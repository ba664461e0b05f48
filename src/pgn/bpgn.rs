//! Bughouse PGN (BPGN): both boards' moves interleaved in time, each prefixed by its move
//! number and board letter (`12A.` White on A, `12a.` Black on A, `12B.`, `12b.`).
//!
//! Each ply is checked on its board with the pockets of that moment; move numbers must
//! follow each board's move count; clocks (`{298.21}`, `{[%clk 0:00:01.3]}`) must not rise
//! by more than the increment of `[TimeControl]`; the outcome is derived (a checkmate on a
//! board, or the final comment: `X checkmated`, `X forfeits on time`, `X resigns`, aborted
//! games) and compared with `[Result]` read both ways (bughouse-db writes it from the view
//! of the board that ended the match, others from the teams' view).

use super::token::{TokenKind, Tokenizer};
use super::validate::{Options, Ply, Reporter, Status, Tags};
use crate::bughouse::{BoardId, Match, Team};
use crate::notation::san::SanPlus;
use crate::position::Severity;
use crate::setup::{Fen, Setup};
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
    c.parse::<f64>().ok()
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

/// Validates a bughouse match; returns the plies played and which reading of the Result
/// tag matches the derived outcome.
pub(super) fn validate_match<'t>(
    rep: &mut Reporter<'_>,
    tags: &Tags<'_>,
    tokens: Tokenizer<'t>,
    opts: &Options,
    on_ply: &mut Option<&mut dyn FnMut(Ply<'_>)>,
) -> (usize, Option<&'static str>) {
    let drop_mate = !opts.no_drop_mate;
    let mut game = match tags.get("FEN") {
        None => Match::new(drop_mate),
        Some((value, offset)) => {
            let pair = match value.parse::<Fen>() {
                Ok(Fen::Pair(p)) => Some(*p),
                Ok(Fen::Single(s)) => {
                    rep.tag(
                        Severity::Warning,
                        "bad-fen",
                        value,
                        offset,
                        "a single FEN for a bughouse match; board B starts from the start position"
                            .to_owned(),
                    );
                    Some([s, Setup::crazyhouse_start()])
                }
                Err(e) => {
                    rep.bad_fen("bad-fen", value, offset, e);
                    None
                }
            };
            let Some([a, b]) = pair else { return (0, None) };
            match Match::from_setups(&a, &b, drop_mate) {
                Ok(m) => m,
                Err((board, e)) => {
                    rep.bad_fen(
                        "illegal-fen",
                        value,
                        offset,
                        format_args!("board {board}: {e}"),
                    );
                    return (0, None);
                }
            }
        }
    };
    let names: [(BoardId, Color, Option<&str>); 4] = [
        (BoardId::A, Color::White, tags.get("WhiteA").map(|t| t.0)),
        (BoardId::A, Color::Black, tags.get("BlackA").map(|t| t.0)),
        (BoardId::B, Color::White, tags.get("WhiteB").map(|t| t.0)),
        (BoardId::B, Color::Black, tags.get("BlackB").map(|t| t.0)),
    ];
    let inc = increment(tags.get("TimeControl").map(|t| t.0));
    let mut clocks = [[None::<f64>; 2]; 2];
    let mut label: Option<(BoardId, Color, u32, &str)> = None;
    let mut last_played: Option<(BoardId, Color)> = None;
    let mut ending: Option<Ending> = None;
    let mut aborted = false;
    let mut marker: Option<&str> = None;
    let mut plies = 0;
    for t in tokens {
        match t.kind {
            TokenKind::MoveNumber(n) => match move_label(n) {
                Some((b, c, num)) => label = Some((b, c, num, n)),
                None => {
                    rep.illegal(
                        "unparseable-token",
                        Some(plies + 1),
                        Some(n),
                        t.offset,
                        "a BPGN move number with its board (12A., 12a., 12B., 12b.)".to_owned(),
                        None,
                    );
                    break;
                }
            },
            TokenKind::Nag(_) => {}
            TokenKind::Comment(c) => {
                // Only bughouse-db's `{298.21}` clocks are remaining time; Chess.com's bughouse
                // `[%clk]` values are per-move times, so they are not compared.
                let remaining = clock(c).filter(|_| !c.trim_start().starts_with('['));
                if let (Some(secs), Some((b, color))) = (remaining, last_played) {
                    let slot = &mut clocks[b as usize][color as usize];
                    if let Some(prev) = *slot
                        && secs > prev + inc + 0.001
                    {
                        rep.add(Severity::Warning, "clock-increase", Some(plies), Some(c.trim()), t.offset, format!("the clock of {} on board {b} rose from {prev} to {secs} s (increment {inc} s)", color.name()), None);
                    }
                    *slot = Some(secs);
                } else {
                    let lower = c.to_ascii_lowercase();
                    if lower.contains("aborted") || lower.contains("abort the game") {
                        aborted = true;
                    }
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
                }
            }
            TokenKind::LineComment(_) | TokenKind::Tag { .. } => {}
            TokenKind::Result(r) => {
                if let Some(first) = marker {
                    rep.second_result(first, r, t.offset);
                    break;
                }
                marker = Some(r);
            }
            TokenKind::VariationStart | TokenKind::VariationEnd => {
                rep.illegal(
                    "unparseable-token",
                    Some(plies + 1),
                    Some(t.text),
                    t.offset,
                    "variations are not part of BPGN".to_owned(),
                    None,
                );
                break;
            }
            TokenKind::Unknown(raw, why) => {
                rep.unreadable(plies + 1, raw, t.offset, why, None);
                break;
            }
            TokenKind::Move(tok) => {
                let ply = plies + 1;
                let Some((board, color, number, label_text)) = label.take() else {
                    rep.illegal(
                        "unparseable-token",
                        Some(ply),
                        Some(tok),
                        t.offset,
                        "a move without its BPGN number and board (12A., 12a., 12B., 12b.)"
                            .to_owned(),
                        None,
                    );
                    break;
                };
                // The token as reported: its number and the move (built only for a report).
                let shown = || format!("{label_text} {tok}");
                // Chess.com's BPGN export garbles `N@` into the NAG `$146`: repair it.
                let repaired;
                let tok = match tok
                    .strip_prefix("$146")
                    .filter(|rest| rest.starts_with('@'))
                {
                    Some(rest) => {
                        repaired = format!("N{rest}");
                        rep.add(Severity::Warning, "garbled-knight-drop", Some(ply), Some(&shown()), t.offset, format!("`{tok}` read as `{repaired}` (Chess.com's BPGN export writes knight drops so)"), None);
                        repaired.as_str()
                    }
                    None => tok,
                };
                let pos = game.board(board);
                if marker.is_some() {
                    rep.illegal(
                        "move-after-result",
                        Some(ply),
                        Some(&shown()),
                        t.offset,
                        "a move after the result marker".to_owned(),
                        Some(pos),
                    );
                    break;
                }
                if pos.turn() != color {
                    rep.illegal(
                        "out-of-turn",
                        Some(ply),
                        Some(&shown()),
                        t.offset,
                        format!("it is {}'s turn on board {board}", pos.turn().name()),
                        Some(pos),
                    );
                    break;
                }
                if pos.fullmoves() != number {
                    rep.illegal(
                        "move-number-mismatch",
                        Some(ply),
                        Some(&shown()),
                        t.offset,
                        format!("board {board} is at move {}, not {number}", pos.fullmoves()),
                        Some(pos),
                    );
                    break;
                }
                let san: SanPlus = match tok.parse() {
                    Ok(s) => s,
                    Err(e) => {
                        rep.not_a_move(Some(ply), &shown(), t.offset, &e, pos);
                        break;
                    }
                };
                match san.resolve(pos, opts.strict) {
                    Ok((m, defects)) => {
                        for d in defects {
                            rep.add(
                                Severity::Warning,
                                d.kind.name(),
                                Some(ply),
                                Some(&shown()),
                                t.offset,
                                d.message,
                                Some(pos),
                            );
                        }
                        let before = on_ply.is_some().then(|| pos.clone());
                        game.play_unchecked(board, m);
                        plies += 1;
                        if let (Some(f), Some(before)) = (on_ply.as_mut(), &before) {
                            f(Ply {
                                number: plies,
                                board: Some(board),
                                before,
                                m,
                                after: game.board(board),
                            });
                        }
                        last_played = Some((board, color));
                    }
                    Err(e) => {
                        let (kind, reason) = match game.outcome() {
                            Some((b, o)) => (
                                "move-after-end",
                                format!(
                                    "the match has already ended ({} on board {b})",
                                    o.reason().name()
                                ),
                            ),
                            None => (e.kind.name(), format!("board {board}: {}", e.message)),
                        };
                        rep.illegal(
                            kind,
                            Some(ply),
                            Some(&shown()),
                            t.offset,
                            reason,
                            Some(game.board(board)),
                        );
                        break;
                    }
                }
            }
        }
    }
    if rep.status != Status::Ok {
        return (plies, None);
    }
    // The derived outcome: a checkmate on a board, else the final comment.
    if let Some((board, o)) = game.outcome() {
        let loser = game.board(board).turn();
        ending = Some(Ending {
            board,
            loser,
            how: if o.reason().name() == "checkmate" {
                "checkmate"
            } else {
                "stalemate"
            },
        });
    }
    let result = tags.get("Result");
    let Some(end) = ending else {
        if let Some((r, offset)) = result
            && aborted
            && r != "*"
        {
            rep.tag(
                Severity::Warning,
                "result-mismatch",
                r,
                offset,
                format!("the match was aborted but the Result tag says {r}"),
            );
        }
        return (plies, None);
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
    let Some((r, offset)) = result else {
        return (plies, None);
    };
    let reading = match (r == board_view, r == team_view) {
        (true, true) => Some("both"),
        (true, false) => Some("board"),
        (false, true) => Some("team"),
        (false, false) => {
            rep.tag(
                Severity::Warning,
                "result-mismatch",
                r,
                offset,
                format!(
                    "{} lost on board {} by {}: the Result would be {board_view} from that board's view or {team_view} from the teams' view, not {r}",
                    end.loser.name(),
                    end.board,
                    end.how
                ),
            );
            None
        }
    };
    (plies, reading)
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
