//! The per-move step that PGN and BPGN share: a move token read as SAN, resolved in its
//! position (with the defects of its spelling under `--strict`), or the problem reported.
//! A token that is not SAN but long algebraic (`e2e4`, `Ng1-f3`, UCI), or SAN with Unicode
//! dashes (`O‑O`), is read too, with a `non-san-move` warning (an error under `--strict`),
//! as Lichess (and, for long algebraic, python-chess) reads it.

use super::problem::{At, GameProblemKind, Reporter};
use crate::moves::Move;
use crate::notation::san::{DropStyle, Lan, ParseSanError, San, SanPlus, Spelling};
use crate::position::{IllegalMove, Position};

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
    // The common shapes are resolved on a path of their own, so that the SAN read fast
    // goes straight to resolution (joined with the general parser's result, it was
    // written out a byte at a time and read back as wider words, which stalls the
    // processor on every move).
    if let Some(san) = SanPlus::from_common_shape(token.as_bytes()) {
        return resolved(rep, pos, san, strict, at, failure);
    }
    let san = match SanPlus::from_ascii(token.as_bytes()) {
        Ok(san) => san,
        Err(e) => match not_san(rep, pos, token, e, strict, at) {
            Ok(san) => san,
            Err(Some(e)) => {
                illegal(rep, pos, e, at, failure);
                return None;
            }
            Err(None) => return None,
        },
    };
    resolved(rep, pos, san, strict, at, failure)
}

/// The move `san` names in `pos`, its defects reported as warnings; an illegal move
/// reported as an error gives `None`.
#[inline(always)]
fn resolved<E, C>(
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

/// A token that is not SAN: long algebraic notation, or SAN with Unicode dashes (`O‑O`),
/// gives the SAN of the move it names when that move is legal, with a `non-san-move`
/// warning (an error under `strict`: `Err(None)`, reported). A long-algebraic move that is
/// not legal is the engine's `Err(Some(reason))`; a SAN with dashes goes on to be
/// explained as SAN. Anything else is unreadable (`Err(None)`, reported).
#[cold]
#[inline(never)]
fn not_san(
    rep: &mut Reporter<'_>,
    pos: &Position,
    token: &str,
    e: ParseSanError,
    strict: bool,
    at: At<'_>,
) -> Result<SanPlus, Option<IllegalMove>> {
    let (san, what) = if let Ok(lan) = Lan::from_ascii(token.as_bytes()) {
        let m = lan.to_move(pos).map_err(Some)?;
        let plus = SanPlus {
            san: San::from_move(pos, m),
            suffix: lan.suffix,
            glyph: lan.glyph,
            spelling: Spelling::default(),
        };
        (plus, "long algebraic notation")
    } else if let Some(dashed) = ascii_dashes(token)
        && let Ok(san) = SanPlus::from_ascii(dashed.as_bytes())
    {
        (san, "a Unicode dash for `-`")
    } else {
        rep.unreadable(at, format!("not a move: {e}"), Some(pos));
        return Err(None);
    };
    let Ok(m) = san.san.to_move(pos) else {
        return Ok(san);
    };
    let reason = format!(
        "{what}, not SAN; SAN is {}",
        SanPlus::from_move(pos, m).to_string_with(DropStyle::Letter)
    );
    if strict {
        rep.illegal(GameProblemKind::NonSanMove, at, reason, Some(pos));
        return Err(None);
    }
    rep.warn(GameProblemKind::NonSanMove, at, reason, Some(pos));
    Ok(san)
}

/// `token` with the dashes that editors and word processors put for `-` (U+2010 to U+2015,
/// U+2212: `O‑O`, `O–O`) as ASCII hyphens, if it has any.
fn ascii_dashes(token: &str) -> Option<String> {
    let dash = |c: char| matches!(c, '\u{2010}'..='\u{2015}' | '\u{2212}');
    token.contains(dash).then(|| token.replace(dash, "-"))
}

/// An illegal move: `move-after-end` when the game has ended, else the engine's reason.
fn illegal<E, C>(
    rep: &mut Reporter<'_>,
    pos: &Position,
    e: IllegalMove,
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
