//! Move tokens in either notation, as people paste them: SAN (`Nf3`, `exd5`, `N@f3`) or
//! UCI (`g1f3`, `e7e8q`, `0000`); drops read the same in both.
//!
//! ```
//! use pocketfen::notation::mixed::resolve_move;
//! use pocketfen::{Position, Variant};
//! let mut pos = Position::start(Variant::Crazyhouse);
//! for token in ["e4", "d7d5", "exd5", "Qxd5"] {
//!     let (m, _) = resolve_move(token, &pos, false)?;
//!     pos.play(m)?;
//! }
//! assert_eq!(pos.pockets().white.count() + pos.pockets().black.count(), 2);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use super::san::{Defect, Lan, ParseSanError, SanPlus};
use super::uci::{ParseUciError, UciMove};
use crate::moves::Move;
use crate::position::{IllegalMove, Outcome, Position};
use crate::types::Square;

/// A move token that names no legal move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveTokenError {
    /// Not SAN.
    San(ParseSanError),
    /// UCI-shaped but not UCI.
    Uci(ParseUciError),
    /// A move that is not legal here, and why.
    Illegal(IllegalMove),
    /// The game has ended: no move can be played.
    GameOver(Outcome),
}

impl MoveTokenError {
    /// The stable name of the problem: `syntax` for a token that does not read, else the
    /// engine's reason (`no-such-piece`, …).
    pub fn kind(&self) -> &'static str {
        match self {
            MoveTokenError::San(_) | MoveTokenError::Uci(_) => "syntax",
            MoveTokenError::Illegal(e) => e.kind.name(),
            MoveTokenError::GameOver(_) => "game-over",
        }
    }

    /// The explanation, without the kind.
    pub fn message(&self) -> String {
        match self {
            MoveTokenError::San(e) => e.to_string(),
            MoveTokenError::Uci(e) => e.to_string(),
            MoveTokenError::Illegal(e) => e.message.clone(),
            MoveTokenError::GameOver(o) => format!("the game has already ended ({o})"),
        }
    }
}

impl fmt::Display for MoveTokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind(), self.message())
    }
}

impl std::error::Error for MoveTokenError {}

/// Whether a token is UCI (`e2e4`, `e7e8q`, `0000`) rather than SAN.
pub fn looks_like_uci(token: &str) -> bool {
    let b = token.as_bytes();
    token == "0000"
        || (matches!(b.len(), 4 | 5)
            && Square::from_ascii(&b[0..2]).is_ok()
            && Square::from_ascii(&b[2..4]).is_ok()
            && b.get(4).is_none_or(|c| b"qrbn".contains(c)))
}

/// Reads a SAN or UCI token, or long algebraic notation (`e2-e4`, `Ng1-f3`, `e4xd5`,
/// `e7e8=Q`: what `validate` reads with a `non-san-move` warning, and python-chess's
/// `parse_san`), and resolves it in `pos`; under `strict`, the defects of a SAN
/// spelling (UCI and long algebraic notation, named square to square, have none). A game that has ended (checkmate, stalemate, a variant's
/// end, a dead position) takes no move: the one check of that before a move, for the
/// `moves` command and the Python package alike.
///
/// # Errors
///
/// [`MoveTokenError`]: the game has ended, or the token does not read, or names no legal
/// move.
pub fn resolve_move(
    token: &str,
    pos: &Position,
    strict: bool,
) -> Result<(Move, Vec<Defect>), MoveTokenError> {
    if let Some(outcome) = pos.outcome() {
        return Err(MoveTokenError::GameOver(outcome));
    }
    if looks_like_uci(token) {
        let uci: UciMove = token.parse().map_err(MoveTokenError::Uci)?;
        let m = uci.to_move(pos).map_err(MoveTokenError::Illegal)?;
        return Ok((m, Vec::new()));
    }
    let san: SanPlus = match token.parse() {
        Ok(san) => san,
        Err(e) => {
            // Not SAN: long algebraic notation, else SAN's reason.
            let lan: Lan = token.parse().map_err(|_| MoveTokenError::San(e))?;
            let m = lan.to_move(pos).map_err(MoveTokenError::Illegal)?;
            return Ok((m, Vec::new()));
        }
    };
    san.resolve(pos, strict).map_err(MoveTokenError::Illegal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::IllegalReason;
    use crate::variant::Variant;

    #[test]
    fn either_notation_and_its_errors() {
        let pos = Position::start(Variant::Crazyhouse);
        assert_eq!(
            resolve_move("g1f3", &pos, false).unwrap().0,
            resolve_move("Nf3", &pos, false).unwrap().0
        );
        assert!(looks_like_uci("e7e8q") && looks_like_uci("0000"));
        assert!(!looks_like_uci("e4") && !looks_like_uci("N@e4") && !looks_like_uci("e2e4x"));
        let e = resolve_move("g1g3", &pos, false).unwrap_err();
        assert_eq!(e.kind(), IllegalReason::NoSuchPiece.name());
        assert_eq!(e.to_string(), format!("no-such-piece: {}", e.message()));
        assert_eq!(e.message(), "no white knight from g1 can reach g3");
        let e = resolve_move("e2e9", &pos, false).unwrap_err();
        assert_eq!(
            e.to_string(),
            "syntax: column 3: expected the end of the move (after it only `+`, `#` and `!`/`?` glyphs), found `e9`"
        );
        assert_eq!(
            resolve_move("Nz3", &pos, false).unwrap_err().kind(),
            "syntax"
        );
        let (_, defects) = resolve_move("Ngf3", &pos, true).unwrap();
        assert_eq!(defects.len(), 1);
    }

    /// Long algebraic notation, as `validate` reads it: the move it names, or the
    /// engine's reason; what reads as neither keeps SAN's reason.
    #[test]
    fn long_algebraic_notation_is_read() {
        let mut pos = Position::start(Variant::Chess);
        for (lan, san) in [("e2-e4", "e4"), ("e7-e5", "e5"), ("Ng1-f3", "Nf3")] {
            let (m, defects) = resolve_move(lan, &pos, true).unwrap();
            assert_eq!(m, resolve_move(san, &pos, false).unwrap().0, "{lan}");
            assert!(defects.is_empty());
            pos.play_unchecked(m);
        }
        let e = resolve_move("d7-d4", &pos, false).unwrap_err();
        assert_eq!(e.kind(), IllegalReason::NoSuchPiece.name(), "{e}");
        let pos = Position::from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", None).unwrap();
        for lan in ["a7-a8=Q", "a7a8=Q", "a7a8Q", "Pa7-a8=Q+"] {
            let (m, _) = resolve_move(lan, &pos, false).unwrap();
            assert_eq!(m, resolve_move("a8=Q+", &pos, false).unwrap().0, "{lan}");
        }
        let e = resolve_move("Nz3-e4", &pos, false).unwrap_err();
        assert_eq!(e.kind(), "syntax");
        assert!(e.to_string().contains("column"), "{e}");
    }
}
