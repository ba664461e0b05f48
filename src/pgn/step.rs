//! The per-move step that PGN and BPGN share: a move token read as SAN, resolved in its
//! position (with the defects of its spelling under `--strict`), or the problem reported.

use super::problem::{At, GameProblemKind, Reporter};
use crate::moves::Move;
use crate::notation::san::SanPlus;
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
            let (kind, reason) = match (failure.ended)() {
                Some(reason) => (GameProblemKind::MoveAfterEnd, reason),
                None => (
                    GameProblemKind::Illegal(e.kind),
                    (failure.context)(e.message),
                ),
            };
            rep.illegal(kind, at, reason, Some(pos));
            None
        }
    }
}
