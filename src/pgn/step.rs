//! The per-move step that PGN and BPGN share: a move token read as SAN, resolved in its
//! position (with the defects of its spelling under `--strict`), or the problem reported.
//! A token that is not SAN but long algebraic (`e2e4`, `Ng1-f3`, UCI), or SAN with Unicode
//! dashes (`O‑O`), is read too, with a `non-san-move` warning (an error under `--strict`),
//! as Lichess (and, for long algebraic, python-chess) reads it.

use super::problem::{At, GameProblemKind, Reporter};
use crate::moves::Move;
use crate::notation::san::{DropStyle, Lan, San, SanPlus, Spelling};
use crate::position::Position;

/// How a failed move is reported beyond the engine's reason.
pub(crate) struct Failure<E, C> {
    /// Why no move is possible at all (the game or match has ended), if so: the move is
    /// then reported as `move-after-end` with this reason.
    pub(crate) ended: E,
    /// Adds where the move was (a board, a variation) to the engine's reason.
    pub(crate) context: C,
}

/// Reads `token` (the move itself; `at` quotes it as reported) and resolves it in `pos`.
/// Defects are reported as warnings; a token that is no SAN, or an illegal move, is
/// reported as an error and gives `None`.
pub(crate) fn resolve<E, C>(
    rep: &mut Reporter<'_>,
    pos: &Position,
    token: &str,
    strict: bool,
    at: At<'_>,
    failure: Failure<E, C>,
) -> Option<(SanPlus, Move)>
where
    E: FnOnce() -> Option<String>,
    C: FnOnce(String) -> String,
{
    let san = match SanPlus::from_ascii(token.as_bytes()) {
        Ok(san) => san,
        Err(e) => {
            if let Ok(lan) = Lan::from_ascii(token.as_bytes()) {
                return long_algebraic(rep, pos, lan, strict, at, failure);
            }
            if let Some(dashed) = ascii_dashes(token)
                && let Ok(san) = SanPlus::from_ascii(dashed.as_bytes())
            {
                return unicode_dashes(rep, pos, san, strict, at, failure);
            }
            rep.unreadable(at, format!("not a move: {e}"), Some(pos));
            return None;
        }
    };
    match san.resolve(pos, strict) {
        Ok((m, defects)) => {
            for d in defects {
                rep.warn(GameProblemKind::Defect(d.kind), at, d.message, Some(pos));
            }
            Some((san, m))
        }
        Err(e) => {
            illegal(rep, pos, e, at, failure);
            None
        }
    }
}

/// A move in long algebraic notation: resolved, and reported as not SAN (a warning, an
/// error under `strict`), with the SAN it stands for.
fn long_algebraic<E, C>(
    rep: &mut Reporter<'_>,
    pos: &Position,
    lan: Lan,
    strict: bool,
    at: At<'_>,
    failure: Failure<E, C>,
) -> Option<(SanPlus, Move)>
where
    E: FnOnce() -> Option<String>,
    C: FnOnce(String) -> String,
{
    let m = match lan.to_move(pos) {
        Ok(m) => m,
        Err(e) => {
            illegal(rep, pos, e, at, failure);
            return None;
        }
    };
    let san = SanPlus {
        san: San::from_move(pos, m),
        suffix: lan.suffix,
        glyph: lan.glyph,
        spelling: Spelling::default(),
    };
    let reason = format!(
        "long algebraic notation, not SAN; SAN is {}",
        SanPlus::from_move(pos, m).to_string_with(DropStyle::Letter)
    );
    if strict {
        rep.illegal(GameProblemKind::NonSanMove, at, reason, Some(pos));
        return None;
    }
    rep.warn(GameProblemKind::NonSanMove, at, reason, Some(pos));
    Some((san, m))
}

/// `token` with the dashes that editors and word processors put for `-` (U+2010 to U+2015,
/// U+2212: `O‑O`, `O–O`) as ASCII hyphens, if it has any.
fn ascii_dashes(token: &str) -> Option<String> {
    let dash = |c: char| matches!(c, '\u{2010}'..='\u{2015}' | '\u{2212}');
    token.contains(dash).then(|| token.replace(dash, "-"))
}

/// A SAN written with Unicode dashes (castling as `O‑O`, which scalachess reads too):
/// resolved, and reported as not SAN (a warning, an error under `strict`).
fn unicode_dashes<E, C>(
    rep: &mut Reporter<'_>,
    pos: &Position,
    san: SanPlus,
    strict: bool,
    at: At<'_>,
    failure: Failure<E, C>,
) -> Option<(SanPlus, Move)>
where
    E: FnOnce() -> Option<String>,
    C: FnOnce(String) -> String,
{
    let m = match san.san.to_move(pos) {
        Ok(m) => m,
        Err(e) => {
            illegal(rep, pos, e, at, failure);
            return None;
        }
    };
    let reason = format!(
        "a Unicode dash for `-`, not SAN; SAN is {}",
        SanPlus::from_move(pos, m).to_string_with(DropStyle::Letter)
    );
    if strict {
        rep.illegal(GameProblemKind::NonSanMove, at, reason, Some(pos));
        return None;
    }
    rep.warn(GameProblemKind::NonSanMove, at, reason, Some(pos));
    Some((san, m))
}

/// An illegal move: `move-after-end` when the game has ended, else the engine's reason.
fn illegal<E, C>(
    rep: &mut Reporter<'_>,
    pos: &Position,
    e: crate::position::IllegalMove,
    at: At<'_>,
    failure: Failure<E, C>,
) where
    E: FnOnce() -> Option<String>,
    C: FnOnce(String) -> String,
{
    let (kind, reason) = match (failure.ended)() {
        Some(reason) => (GameProblemKind::MoveAfterEnd, reason),
        None => (
            GameProblemKind::Illegal(e.kind),
            (failure.context)(e.message),
        ),
    };
    rep.illegal(kind, at, reason, Some(pos));
}
