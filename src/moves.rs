//! Moves: normal moves, promotions, en passant, castling and drops.
//!
//! ```
//! use pocketfen::{Move, Role, Square};
//! let m = Move::Put { role: Role::Knight, to: "d5".parse()? };
//! assert_eq!(m.to_uci(false).to_string(), "N@d5");
//! # Ok::<_, pocketfen::ParseSquareError>(())
//! ```

use arrayvec::ArrayVec;

use crate::types::{File, Role, Square};

/// King side or queen side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Castling with the rook on the king's right (`O-O`).
    KingSide,
    /// Castling with the rook on the king's left (`O-O-O`).
    QueenSide,
}

impl CastlingSide {
    /// `king-side` or `queen-side`.
    pub fn name(self) -> &'static str {
        match self {
            CastlingSide::KingSide => "king-side",
            CastlingSide::QueenSide => "queen-side",
        }
    }
}

/// A move of any variant. Castling is stored as king square and rook square, which is
/// unambiguous in Chess960 too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// A piece moving (or capturing), a pawn perhaps promoting.
    Normal {
        /// The moving piece.
        role: Role,
        /// Where it stands.
        from: Square,
        /// The role of the piece captured on `to`, if any.
        capture: Option<Role>,
        /// Where it goes.
        to: Square,
        /// The role a pawn promotes to.
        promotion: Option<Role>,
    },
    /// A pawn capturing en passant.
    EnPassant {
        /// Where the capturing pawn stands.
        from: Square,
        /// The en passant square it goes to.
        to: Square,
    },
    /// Castling, as the king's square and the rook's.
    Castle {
        /// The king's square.
        king: Square,
        /// The square of the rook it castles with.
        rook: Square,
    },
    /// A drop from the pocket.
    Put {
        /// The dropped piece's role.
        role: Role,
        /// The empty square it is dropped on.
        to: Square,
    },
}

impl Move {
    /// The role of the moving (or dropped) piece.
    pub fn role(self) -> Role {
        match self {
            Move::Normal { role, .. } | Move::Put { role, .. } => role,
            Move::EnPassant { .. } => Role::Pawn,
            Move::Castle { .. } => Role::King,
        }
    }

    /// The origin square (`None` for drops).
    pub fn from(self) -> Option<Square> {
        match self {
            Move::Normal { from, .. } | Move::EnPassant { from, .. } => Some(from),
            Move::Castle { king, .. } => Some(king),
            Move::Put { .. } => None,
        }
    }

    /// The square the piece lands on (the king's square for castling).
    pub fn to(self) -> Square {
        match self {
            Move::Normal { to, .. } | Move::EnPassant { to, .. } | Move::Put { to, .. } => to,
            Move::Castle { king, rook } => castle_king_to(king, rook),
        }
    }

    /// The captured role, if any.
    pub fn capture(self) -> Option<Role> {
        match self {
            Move::Normal { capture, .. } => capture,
            Move::EnPassant { .. } => Some(Role::Pawn),
            _ => None,
        }
    }

    /// The promotion role, if any.
    pub fn promotion(self) -> Option<Role> {
        match self {
            Move::Normal { promotion, .. } => promotion,
            _ => None,
        }
    }

    /// Whether this is a drop from the pocket.
    pub fn is_drop(self) -> bool {
        matches!(self, Move::Put { .. })
    }
}

/// Where the king lands when castling with the rook on `rook`.
pub(crate) fn castle_king_to(king: Square, rook: Square) -> Square {
    let file = if rook > king { File::G } else { File::C };
    Square::from_coords(file, king.rank())
}

/// Where the rook lands when castling with the rook on `rook`.
pub(crate) fn castle_rook_to(king: Square, rook: Square) -> Square {
    let file = if rook > king { File::F } else { File::D };
    Square::from_coords(file, king.rank())
}

/// Room for every legal move of any position pocketfen accepts.
pub const MAX_MOVES: usize = 1024;

/// A list of moves on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;
