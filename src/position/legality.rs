//! Why a move is not legal: the engine's own explanation of a concrete [`Move`].
//!
//! SAN and UCI resolution (in `notation`) map their tokens onto these reasons; a program
//! holding a `Move` (from a GUI, a database) asks [`Position::check`] directly.
//!
//! ```
//! use pocketfen::{IllegalReason, Move, Position, Role, Variant};
//! let pos = Position::start(Variant::Crazyhouse);
//! let drop = Move::Put { role: Role::Knight, to: "e4".parse()? };
//! let err = pos.check(drop).unwrap_err();
//! assert_eq!(err.kind, IllegalReason::NotInPocket);
//! assert_eq!(err.to_string(), "not-in-pocket: no white knight in the pocket");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use super::Position;
use super::movegen::{castle_path, drop_squares};
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::attacks_of;
use crate::moves::{CastlingSide, Move};
use crate::types::{Color, Piece, Rank, Role, Square};

/// Why a move (or a SAN or UCI token) names no legal move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IllegalReason {
    /// No piece of that kind can reach the square at all.
    NoSuchPiece,
    /// Several legal moves fit (SAN without enough disambiguation).
    Ambiguous,
    /// The move would leave (or put) the own king in check.
    LeavesKingInCheck,
    /// A drop of a piece the pocket does not hold (or a variant without drops).
    NotInPocket,
    /// A pawn drop on a rank where pawns may not be dropped.
    PawnDropRank,
    /// A drop on an occupied square.
    DropOnOccupied,
    /// A drop that checkmates where drop-mate is forbidden.
    DropMate,
    /// Castling without the castling right on that side.
    CastlingWithoutRight,
    /// Castling while in check.
    CastlingOutOfCheck,
    /// Castling across or onto an attacked square.
    CastlingThroughCheck,
    /// Castling with pieces between king and rook, or on their destinations.
    CastlingBlocked,
    /// A pawn capture onto an empty square that is not the en passant square.
    EnPassantNotAvailable,
    /// A pawn reaching the last rank without a promotion piece.
    PromotionMissing,
    /// A promotion where none is possible, or to a king or a pawn.
    BadPromotion,
    /// A null move (`--`, `Z0`, `0000`), which is no move of the game.
    NullMove,
}

impl IllegalReason {
    /// The stable kebab-case name used in reports and JSON (`no-such-piece`, …).
    pub fn name(self) -> &'static str {
        match self {
            IllegalReason::NoSuchPiece => "no-such-piece",
            IllegalReason::Ambiguous => "ambiguous",
            IllegalReason::LeavesKingInCheck => "leaves-king-in-check",
            IllegalReason::NotInPocket => "not-in-pocket",
            IllegalReason::PawnDropRank => "pawn-drop-rank",
            IllegalReason::DropOnOccupied => "drop-on-occupied",
            IllegalReason::DropMate => "drop-mate",
            IllegalReason::CastlingWithoutRight => "castling-without-right",
            IllegalReason::CastlingOutOfCheck => "castling-out-of-check",
            IllegalReason::CastlingThroughCheck => "castling-through-check",
            IllegalReason::CastlingBlocked => "castling-blocked",
            IllegalReason::EnPassantNotAvailable => "en-passant-not-available",
            IllegalReason::PromotionMissing => "promotion-missing",
            IllegalReason::BadPromotion => "bad-promotion",
            IllegalReason::NullMove => "null-move",
        }
    }

    /// Every reason, in declaration order.
    pub const ALL: [IllegalReason; 15] = [
        IllegalReason::NoSuchPiece,
        IllegalReason::Ambiguous,
        IllegalReason::LeavesKingInCheck,
        IllegalReason::NotInPocket,
        IllegalReason::PawnDropRank,
        IllegalReason::DropOnOccupied,
        IllegalReason::DropMate,
        IllegalReason::CastlingWithoutRight,
        IllegalReason::CastlingOutOfCheck,
        IllegalReason::CastlingThroughCheck,
        IllegalReason::CastlingBlocked,
        IllegalReason::EnPassantNotAvailable,
        IllegalReason::PromotionMissing,
        IllegalReason::BadPromotion,
        IllegalReason::NullMove,
    ];
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A move that is not legal in its position: the reason and a sentence naming the squares
/// and pieces concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalMove {
    /// Why, as a stable kind.
    pub kind: IllegalReason,
    /// The explanation (lowercase, no trailing period).
    pub message: String,
}

impl IllegalMove {
    pub(crate) fn new(kind: IllegalReason, message: String) -> IllegalMove {
        IllegalMove { kind, message }
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.message)
    }
}

impl std::error::Error for IllegalMove {}

/// `white knight`, `black pawn`, … for the side to move.
pub(crate) fn who(pos: &Position, role: Role) -> String {
    format!("{} {}", pos.turn().name(), role.name())
}

impl Position {
    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        match m {
            Move::Normal { role, to, .. } | Move::Put { role, to } => {
                self.legal_moves_to(role, to).contains(&m)
            }
            Move::EnPassant { to, .. } => self.legal_moves_to(Role::Pawn, to).contains(&m),
            // Castling moves are generated whatever the destination filter.
            Move::Castle { .. } => self.legal_moves_to(Role::King, m.to()).contains(&m),
        }
    }

    /// Checks `m` against the rules and says why it is not legal.
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] with the reason and a sentence naming the squares concerned.
    pub fn check(&self, m: Move) -> Result<(), IllegalMove> {
        match m {
            Move::Put { role, to } => self.check_put(role, to),
            Move::Castle { king, rook } => self.check_castle(king, rook),
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                self.check_promotion(role, to, promotion)?;
                if self.is_legal(m) {
                    return Ok(());
                }
                let on_to = self.board().role_at(to);
                if capture != on_to && !self.board().by_color(self.turn()).contains(to) {
                    let holds = on_to.map_or("nothing".to_owned(), |r| format!("a {}", r.name()));
                    return Err(IllegalMove::new(
                        IllegalReason::NoSuchPiece,
                        format!("{to} holds {holds}, not what the move captures"),
                    ));
                }
                self.explain_normal(role, from, to)
            }
            Move::EnPassant { from, to } => {
                if self.is_legal(m) {
                    return Ok(());
                }
                self.explain_normal(Role::Pawn, from, to)
            }
        }
    }

    /// Why the normal move of `role` from `from` to `to`, which is not legal, is not: no
    /// such piece can get there, an en passant capture that is not available, or the king.
    fn explain_normal(&self, role: Role, from: Square, to: Square) -> Result<(), IllegalMove> {
        if role == Role::Pawn
            && from.file() != to.file()
            && !self.board().occupied().contains(to)
            && self.ep_square() != Some(to)
        {
            return Err(IllegalMove::new(
                IllegalReason::EnPassantNotAvailable,
                format!("nothing to capture on {to}, and en passant is not available there"),
            ));
        }
        if !self.pseudo_origins(role, to).contains(from) {
            return Err(self.no_such_piece(role, &format!(" from {from}"), to));
        }
        Err(self.leaves_king_in_check(role, to))
    }

    /// `no white knight{whence} can reach e5`, noting when `to` holds one of ours.
    pub(crate) fn no_such_piece(&self, role: Role, whence: &str, to: Square) -> IllegalMove {
        let us = self.turn();
        let blocked = if self.board().by_color(us).contains(to) {
            format!(" ({to} holds a {} piece)", us.name())
        } else {
            String::new()
        };
        IllegalMove::new(
            IllegalReason::NoSuchPiece,
            format!("no {}{whence} can reach {to}{blocked}", who(self, role)),
        )
    }

    /// A move a piece could make but for the own king: why it may not.
    pub(crate) fn leaves_king_in_check(&self, role: Role, to: Square) -> IllegalMove {
        let why = if role == Role::King {
            format!("the king would stand in check on {to}")
        } else if self.is_check() {
            "the move does not get the king out of check".to_owned()
        } else {
            "the piece is pinned: the move would leave the king in check".to_owned()
        };
        IllegalMove::new(IllegalReason::LeavesKingInCheck, why)
    }

    /// The promotion rules: only pawns promote, only on the last rank, never to a king,
    /// and a pawn that can reach the last rank must promote.
    pub(crate) fn check_promotion(
        &self,
        role: Role,
        to: Square,
        promotion: Option<Role>,
    ) -> Result<(), IllegalMove> {
        let last_rank = to.rank() == self.turn().relative_rank(Rank::Eighth);
        if role != Role::Pawn {
            return match promotion {
                Some(p) => Err(IllegalMove::new(
                    IllegalReason::BadPromotion,
                    format!(
                        "only pawns promote, not a {} (to a {})",
                        role.name(),
                        p.name()
                    ),
                )),
                None => Ok(()),
            };
        }
        match promotion {
            Some(Role::King | Role::Pawn) => Err(IllegalMove::new(
                IllegalReason::BadPromotion,
                format!(
                    "a pawn cannot promote to a {}",
                    promotion.map_or("", Role::name)
                ),
            )),
            Some(p) if !last_rank => Err(IllegalMove::new(
                IllegalReason::BadPromotion,
                format!(
                    "promotion to a {} on {to}, which is not the last rank",
                    p.name()
                ),
            )),
            None if last_rank && !self.pseudo_origins(role, to).is_empty() => {
                Err(IllegalMove::new(
                    IllegalReason::PromotionMissing,
                    format!("a pawn reaching {to} must promote (=Q, =R, =B or =N)"),
                ))
            }
            _ => Ok(()),
        }
    }

    /// The squares from which a piece of `role` of the side to move could move to `to`,
    /// ignoring checks and pins.
    pub(crate) fn pseudo_origins(&self, role: Role, to: Square) -> Bitboard {
        let board = self.board();
        let us = self.turn();
        let ours = board.by_piece(Piece { color: us, role });
        if board.by_color(us).contains(to) {
            return Bitboard::EMPTY;
        }
        if role != Role::Pawn {
            // Attacks are symmetric for every piece but the pawn.
            return ours & attacks_of(Piece { color: us, role }, to, board.occupied());
        }
        let mut from = Bitboard::EMPTY;
        let back = if us == Color::White { -8 } else { 8 };
        if board.occupied().contains(to) || self.ep_square() == Some(to) {
            from |= attacks::pawn_attacks(!us, to) & ours;
        } else if let Some(one) = to.offset(back) {
            if ours.contains(one) {
                from |= one;
            } else if !board.occupied().contains(one)
                && let Some(two) = one.offset(back)
            {
                let mut start_ranks = Bitboard::relative_rank(us, Rank::Second);
                if self.variant().is_horde() {
                    start_ranks |= Bitboard::relative_rank(us, Rank::First);
                }
                from |= Bitboard::from_square(two) & ours & start_ranks;
            }
        }
        from
    }

    /// The castling move on `side`, if the side to move still has that right.
    ///
    /// # Errors
    ///
    /// [`IllegalReason::CastlingWithoutRight`] when it has not.
    pub fn castling_move(&self, side: CastlingSide) -> Result<Move, IllegalMove> {
        let us = self.turn();
        let rook = self.board().king_of(us).and_then(|k| {
            (self.castling_rights() & Bitboard::relative_rank(us, Rank::First))
                .find(|&r| (r > k) == (side == CastlingSide::KingSide))
                .map(|r| (k, r))
        });
        match rook {
            Some((king, rook)) => Ok(Move::Castle { king, rook }),
            None => Err(IllegalMove::new(
                IllegalReason::CastlingWithoutRight,
                format!("{} has no {} castling right", us.name(), side.name()),
            )),
        }
    }

    fn check_castle(&self, king: Square, rook: Square) -> Result<(), IllegalMove> {
        let side = if rook > king {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        };
        let m = Move::Castle { king, rook };
        if self.castling_move(side)? != m {
            return Err(IllegalMove::new(
                IllegalReason::CastlingWithoutRight,
                format!(
                    "{} has no {} castling right with the king on {king} and the rook on {rook}",
                    self.turn().name(),
                    side.name()
                ),
            ));
        }
        if self.is_legal(m) {
            return Ok(());
        }
        let name = side.name();
        if self.is_check() {
            return Err(IllegalMove::new(
                IllegalReason::CastlingOutOfCheck,
                "castling out of check".to_owned(),
            ));
        }
        if (castle_path(king, rook) & self.board().occupied()).any() {
            return Err(IllegalMove::new(
                IllegalReason::CastlingBlocked,
                format!("pieces stand between king and rook ({name})"),
            ));
        }
        Err(IllegalMove::new(
            IllegalReason::CastlingThroughCheck,
            format!("the king would pass through or land on an attacked square ({name})"),
        ))
    }

    fn check_put(&self, role: Role, to: Square) -> Result<(), IllegalMove> {
        let us = self.turn();
        let variant = self.variant();
        if role == Role::King {
            return Err(IllegalMove::new(
                IllegalReason::NotInPocket,
                "kings never go into a pocket".to_owned(),
            ));
        }
        if !variant.has_drops() {
            return Err(IllegalMove::new(
                IllegalReason::NotInPocket,
                format!("{variant} has no drops"),
            ));
        }
        if self.pockets()[us].get(role) == 0 {
            return Err(IllegalMove::new(
                IllegalReason::NotInPocket,
                format!("no {} in the pocket", who(self, role)),
            ));
        }
        if self.board().occupied().contains(to) {
            return Err(IllegalMove::new(
                IllegalReason::DropOnOccupied,
                format!("{to} is occupied"),
            ));
        }
        if role == Role::Pawn {
            let last = to.rank() == us.relative_rank(Rank::Eighth);
            let first = to.rank() == us.relative_rank(Rank::First);
            if last || (first && !variant.first_rank_pawn_drops()) {
                let rule = if variant.first_rank_pawn_drops() {
                    "the last rank"
                } else {
                    "the first or last rank"
                };
                return Err(IllegalMove::new(
                    IllegalReason::PawnDropRank,
                    format!("pawns cannot be dropped on {rule} ({to})"),
                ));
            }
        }
        let m = Move::Put { role, to };
        // Decided from the checkers by the generator's own rule, without generating
        // moves (unless drop-mate is forbidden, which the generator also weighs).
        if self.rules().drop_mate
            && let Some(king) = self.board().king_of(us)
        {
            let occupied = self.board().occupied();
            let checkers = self.board().attackers_to(king, !us, occupied);
            if drop_squares(king, checkers, occupied).contains(to) {
                return Ok(());
            }
        }
        if self.legal_moves_to(role, to).contains(&m) {
            return Ok(());
        }
        if !self.rules().drop_mate && self.drop_mates(m) {
            return Err(IllegalMove::new(
                IllegalReason::DropMate,
                format!(
                    "{}@{to} would checkmate, and drop-mate is forbidden",
                    role.upper_char()
                ),
            ));
        }
        Err(IllegalMove::new(
            IllegalReason::LeavesKingInCheck,
            "the drop does not get the king out of check".to_owned(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::Setup;
    use crate::variant::{Rules, Variant};

    fn pos(fen: &str, variant: Variant) -> Position {
        let setup: Setup = fen.parse().unwrap();
        Position::from_setup(&setup, Rules::new(variant)).unwrap()
    }

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn every_reason_has_a_distinct_name() {
        let mut names: Vec<&str> = IllegalReason::ALL.iter().map(|r| r.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), IllegalReason::ALL.len());
    }

    #[test]
    fn concrete_moves_are_explained() {
        let start = Position::start(Variant::Chess);
        let cases: [(Move, IllegalReason); 6] = [
            (
                Move::Normal {
                    role: Role::Knight,
                    from: sq("g1"),
                    capture: None,
                    to: sq("g3"),
                    promotion: None,
                },
                IllegalReason::NoSuchPiece,
            ),
            (
                Move::Put {
                    role: Role::Knight,
                    to: sq("e4"),
                },
                IllegalReason::NotInPocket,
            ),
            (
                Move::Castle {
                    king: sq("e1"),
                    rook: sq("h1"),
                },
                IllegalReason::CastlingBlocked,
            ),
            (
                Move::Normal {
                    role: Role::Pawn,
                    from: sq("e2"),
                    capture: None,
                    to: sq("d3"),
                    promotion: None,
                },
                IllegalReason::EnPassantNotAvailable,
            ),
            (
                Move::Normal {
                    role: Role::Knight,
                    from: sq("g1"),
                    capture: None,
                    to: sq("f3"),
                    promotion: Some(Role::Queen),
                },
                IllegalReason::BadPromotion,
            ),
            (
                Move::Normal {
                    role: Role::Pawn,
                    from: sq("e2"),
                    capture: None,
                    to: sq("e4"),
                    promotion: Some(Role::Queen),
                },
                IllegalReason::BadPromotion,
            ),
        ];
        for (m, kind) in cases {
            assert_eq!(start.check(m).map_err(|e| e.kind), Err(kind), "{m:?}");
            assert!(!start.is_legal(m));
            let mut p = start.clone();
            assert_eq!(p.play(m).map_err(|e| e.kind), Err(kind));
            assert_eq!(p, start, "an illegal move leaves the position unchanged");
        }
        for m in start.legal_moves() {
            assert_eq!(start.check(m), Ok(()));
        }
    }

    #[test]
    fn pins_checks_and_castling_reasons() {
        // The e2 knight is pinned by the e8 rook; castling passes f1, attacked by the h3
        // bishop.
        let p = pos("4r1k1/8/8/8/8/7b/4N3/4K2R w K - 0 1", Variant::Chess);
        let knight = Move::Normal {
            role: Role::Knight,
            from: sq("e2"),
            capture: None,
            to: sq("c3"),
            promotion: None,
        };
        let e = p.check(knight).unwrap_err();
        assert_eq!(e.kind, IllegalReason::LeavesKingInCheck);
        assert!(e.message.contains("pinned"), "{e}");
        let castle = Move::Castle {
            king: sq("e1"),
            rook: sq("h1"),
        };
        assert_eq!(
            p.check(castle).map_err(|e| e.kind),
            Err(IllegalReason::CastlingThroughCheck)
        );
        let long = Move::Castle {
            king: sq("e1"),
            rook: sq("a1"),
        };
        assert_eq!(
            p.check(long).map_err(|e| e.kind),
            Err(IllegalReason::CastlingWithoutRight)
        );
        let checked = pos("4k3/8/8/8/8/8/8/r3K2R w K - 0 1", Variant::Chess);
        assert_eq!(
            checked.check(castle).map_err(|e| e.kind),
            Err(IllegalReason::CastlingOutOfCheck)
        );
    }

    #[test]
    fn drop_reasons() {
        let zh = pos("4k3/8/8/8/8/8/8/4K3/PPr w - - 0 1", Variant::Crazyhouse);
        let put = |role, to: &str| Move::Put { role, to: sq(to) };
        assert_eq!(
            zh.check(put(Role::Pawn, "a8")).map_err(|e| e.kind),
            Err(IllegalReason::PawnDropRank)
        );
        assert_eq!(
            zh.check(put(Role::Pawn, "e1")).map_err(|e| e.kind),
            Err(IllegalReason::DropOnOccupied)
        );
        assert_eq!(
            zh.check(put(Role::Rook, "e4")).map_err(|e| e.kind),
            Err(IllegalReason::NotInPocket)
        );
        assert_eq!(
            zh.check(put(Role::King, "e4")).map_err(|e| e.kind),
            Err(IllegalReason::NotInPocket)
        );
        assert_eq!(zh.check(put(Role::Pawn, "e4")), Ok(()));
        let chess = Position::start(Variant::Chess);
        assert_eq!(
            chess.check(put(Role::Pawn, "e4")).map_err(|e| e.kind),
            Err(IllegalReason::NotInPocket)
        );
    }

    #[test]
    fn reasons_and_moves_display_as_their_names() {
        for r in IllegalReason::ALL {
            assert_eq!(r.to_string(), r.name());
        }
        let e = IllegalMove::new(IllegalReason::DropMate, "Q@e8 would mate".to_owned());
        assert_eq!(e.to_string(), "drop-mate: Q@e8 would mate");
    }

    #[test]
    fn a_claimed_capture_of_nothing_is_no_such_piece() {
        let start = Position::start(Variant::Chess);
        let m = Move::Normal {
            role: Role::Knight,
            from: sq("g1"),
            capture: Some(Role::Pawn),
            to: sq("f3"),
            promotion: None,
        };
        let e = start.check(m).unwrap_err();
        assert_eq!(e.kind, IllegalReason::NoSuchPiece);
        assert_eq!(e.message, "f3 holds nothing, not what the move captures");
    }

    #[test]
    fn promotion_reasons() {
        let p = pos("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", Variant::Chess);
        let push = |promotion| Move::Normal {
            role: Role::Pawn,
            from: sq("e7"),
            capture: None,
            to: sq("e8"),
            promotion,
        };
        let kind = |m| p.check(m).map_err(|e: IllegalMove| e.kind);
        assert_eq!(kind(push(None)), Err(IllegalReason::PromotionMissing));
        assert_eq!(
            kind(push(Some(Role::King))),
            Err(IllegalReason::BadPromotion)
        );
        assert_eq!(
            kind(push(Some(Role::Pawn))),
            Err(IllegalReason::BadPromotion)
        );
        assert_eq!(kind(push(Some(Role::Knight))), Ok(()));
        // No pawn can reach d8: the move is of a missing piece, not a missing promotion.
        let from_d6 = Move::Normal {
            role: Role::Pawn,
            from: sq("d6"),
            capture: None,
            to: sq("d8"),
            promotion: None,
        };
        assert_eq!(kind(from_d6), Err(IllegalReason::NoSuchPiece));
    }

    #[test]
    fn castling_blocked_on_any_square_of_either_path() {
        // Each position has one piece on one square that the king or the rook must cross
        // or reach, and no attacker: the reason is always a blocked path.
        let cases = [
            ("r3k2r/8/8/8/8/8/8/R3K1NR w KQkq - 0 1", "e1", "h1"), // king's target
            ("r3k2r/8/8/8/8/8/8/R3KN1R w KQkq - 0 1", "e1", "h1"), // rook's target
            ("r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", "e1", "a1"), // rook's path only
            ("r3k2r/8/8/8/8/8/8/R1N1K2R w KQkq - 0 1", "e1", "a1"), // king's target
            ("r3k2r/8/8/8/8/8/8/R2NK2R w KQkq - 0 1", "e1", "a1"), // both paths
            // Chess960: king b1, rook a1; the king goes to c1, the rook to d1.
            ("1k6/8/8/8/8/8/8/RK1N4 w A - 0 1", "b1", "a1"),
            ("1k6/8/8/8/8/8/8/RKN5 w A - 0 1", "b1", "a1"),
            // King g1, rook h1 (kingside, the king stays): the rook's target f1.
            ("6k1/8/8/8/8/8/8/5NKR w H - 0 1", "g1", "h1"),
        ];
        for (fen, king, rook) in cases {
            let p = pos(fen, Variant::Chess);
            let m = Move::Castle {
                king: sq(king),
                rook: sq(rook),
            };
            assert_eq!(
                p.check(m).map_err(|e| e.kind),
                Err(IllegalReason::CastlingBlocked),
                "{fen}"
            );
        }
        // The same squares free, one of the king's squares attacked.
        let p = pos("1k6/8/8/8/8/8/2r5/RK6 w A - 0 1", Variant::Chess);
        let m = Move::Castle {
            king: sq("b1"),
            rook: sq("a1"),
        };
        assert_eq!(
            p.check(m).map_err(|e| e.kind),
            Err(IllegalReason::CastlingThroughCheck)
        );
    }

    #[test]
    fn a_mating_drop_that_leaves_the_king_in_check_is_not_called_drop_mate() {
        // White is in check from a1; Q@e8 would mate but does not answer the check.
        let mut p = pos("7k/6pp/8/8/8/8/8/r6K[Q] w - - 0 1", Variant::Crazyhouse);
        let m = Move::Put {
            role: Role::Queen,
            to: sq("e8"),
        };
        assert!(p.drop_mates(m));
        assert_eq!(
            p.check(m).map_err(|e| e.kind),
            Err(IllegalReason::LeavesKingInCheck)
        );
        p.set_drop_mate(false);
        assert_eq!(p.check(m).map_err(|e| e.kind), Err(IllegalReason::DropMate));
    }

    /// `pseudo_origins` computed forwards, from each piece of the role: the squares from
    /// which it attacks or (a pawn) pushes to `to`, ignoring pins and checks.
    fn origins_forwards(p: &Position, role: Role, to: Square) -> Bitboard {
        let board = p.board();
        let us = p.turn();
        let occ = board.occupied();
        let mut from = Bitboard::EMPTY;
        if board.by_color(us).contains(to) {
            return from;
        }
        for sq in board.by_piece(Piece { color: us, role }) {
            let reaches = if role != Role::Pawn {
                attacks_of(Piece { color: us, role }, sq, occ).contains(to)
            } else if occ.contains(to) || p.ep_square() == Some(to) {
                attacks::pawn_attacks(us, sq).contains(to)
            } else {
                let step: i32 = if us == Color::White { 8 } else { -8 };
                let one = sq.offset(step);
                let two = one.and_then(|s| s.offset(step));
                let start = sq.rank() == us.relative_rank(Rank::Second)
                    || (p.variant().is_horde() && sq.rank() == us.relative_rank(Rank::First));
                one == Some(to)
                    || (start && two == Some(to) && one.is_some_and(|s| !occ.contains(s)))
            };
            if reaches {
                from |= sq;
            }
        }
        from
    }

    #[test]
    fn pseudo_origins_agree_with_each_piece_s_own_moves() {
        let positions = super::super::testing::random_positions();
        assert!(positions.len() > 2000, "{}", positions.len());
        let mut with_ep = 0;
        for p in &positions {
            with_ep += usize::from(p.ep_square().is_some());
            for role in Role::ALL {
                for to in Square::all() {
                    let origins = p.pseudo_origins(role, to);
                    assert_eq!(
                        origins,
                        origins_forwards(p, role, to),
                        "{role:?} to {to} in {p:?}"
                    );
                    for m in p.legal_moves_to(role, to) {
                        if let Some(from) = m.from().filter(|_| !matches!(m, Move::Castle { .. })) {
                            assert!(origins.contains(from), "{m:?} in {p:?}");
                        }
                    }
                }
            }
        }
        assert!(
            with_ep > 20,
            "only {with_ep} positions with an en passant square"
        );
    }

    #[test]
    fn check_accepts_exactly_the_legal_moves() {
        // Every move of a piece of the side to move to any square, and every drop of any
        // role on any square: `check` says yes exactly when the move is legal.
        for p in super::super::testing::random_positions().iter().step_by(7) {
            let legal = p.legal_moves();
            let board = p.board();
            let mut candidates: Vec<Move> = Vec::new();
            for to in Square::all() {
                for role in Role::ALL {
                    candidates.push(Move::Put { role, to });
                }
                for from in board.by_color(p.turn()) {
                    let role = board.role_at(from).unwrap();
                    let last = to.rank() == p.turn().relative_rank(Rank::Eighth);
                    let promotion = (role == Role::Pawn && last).then_some(Role::Queen);
                    candidates.push(Move::Normal {
                        role,
                        from,
                        capture: board.role_at(to),
                        to,
                        promotion,
                    });
                }
            }
            candidates.extend(legal.iter().copied());
            for m in candidates {
                let is_legal = legal.contains(&m);
                assert_eq!(p.is_legal(m), is_legal, "{m:?} in {p:?}");
                match p.check(m) {
                    Ok(()) => assert!(is_legal, "{m:?} accepted in {p:?}"),
                    Err(e) => assert!(!is_legal, "{m:?} refused ({e}) in {p:?}"),
                }
            }
        }
    }
}
