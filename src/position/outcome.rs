//! How a game ends: checkmate, stalemate, Horde's extinction, insufficient material.

use super::Position;
use crate::bitboard::Bitboard;
use crate::types::{Color, Role};
use crate::variant::Variant;

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move.
    Stalemate,
    /// Horde: White has no pieces left.
    Extinction,
    /// Chess: neither side can ever mate.
    InsufficientMaterial,
}

impl EndReason {
    /// `checkmate`, `stalemate`, `extinction` or `insufficient-material`.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::Extinction => "extinction",
            EndReason::InsufficientMaterial => "insufficient-material",
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// A side won.
    Decisive {
        /// The winner.
        winner: Color,
        /// How.
        reason: EndReason,
    },
    /// Nobody won.
    Draw {
        /// Why.
        reason: EndReason,
    },
}

impl Outcome {
    /// Why the game ended.
    pub fn reason(self) -> EndReason {
        match self {
            Outcome::Decisive { reason, .. } | Outcome::Draw { reason } => reason,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(self) -> &'static str {
        match self {
            Outcome::Decisive {
                winner: Color::White,
                ..
            } => "1-0",
            Outcome::Decisive {
                winner: Color::Black,
                ..
            } => "0-1",
            Outcome::Draw { .. } => "1/2-1/2",
        }
    }
}

impl std::fmt::Display for Outcome {
    /// `checkmate, 1-0`: why, and the result.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}, {}", self.reason().name(), self.result())
    }
}

impl Position {
    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        !self.is_variant_end() && self.is_check() && !self.has_legal_moves()
    }

    /// No legal move and not in check (and the game not already over by a variant rule).
    pub fn is_stalemate(&self) -> bool {
        !self.is_variant_end() && !self.is_check() && !self.has_legal_moves()
    }

    /// Chess only: neither side can ever mate (no pawns, rooks or queens, and at most one
    /// minor piece, or only bishops all on one colour). Never in variants with pockets,
    /// where material does not leave the game.
    pub fn is_insufficient_material(&self) -> bool {
        if self.rules.variant != Variant::Chess {
            return false;
        }
        let b = &self.board;
        if (b.by_role(Role::Pawn) | b.rooks_and_queens()).any() {
            return false;
        }
        let minors = b.by_role(Role::Knight) | b.by_role(Role::Bishop);
        if minors.count() <= 1 {
            return true;
        }
        let bishops = b.by_role(Role::Bishop);
        b.by_role(Role::Knight).is_empty()
            && ((bishops & Bitboard::DARK_SQUARES).is_empty()
                || (bishops & Bitboard::LIGHT_SQUARES).is_empty())
    }

    /// Horde: White has lost every piece.
    pub fn is_variant_end(&self) -> bool {
        self.rules.variant.is_horde() && self.board.by_color(Color::White).is_empty()
    }

    /// How the game has ended, if it has. Threefold repetition and the 50-move rule are
    /// claims, never automatic: see [`Position::is_fifty_move_claimable`].
    pub fn outcome(&self) -> Option<Outcome> {
        if self.is_variant_end() {
            return Some(Outcome::Decisive {
                winner: Color::Black,
                reason: EndReason::Extinction,
            });
        }
        if !self.has_legal_moves() {
            return Some(if self.is_check() {
                Outcome::Decisive {
                    winner: !self.turn,
                    reason: EndReason::Checkmate,
                }
            } else {
                Outcome::Draw {
                    reason: EndReason::Stalemate,
                }
            });
        }
        if self.is_insufficient_material() {
            return Some(Outcome::Draw {
                reason: EndReason::InsufficientMaterial,
            });
        }
        None
    }
}
