//! Piece placement: which piece stands on which square.
//!
//! ```
//! use pocketfen::{Board, Color, Square};
//! let board = Board::standard();
//! assert_eq!(board.king_of(Color::White), Some(Square::E1));
//! assert_eq!(board.occupied().count(), 32);
//! ```

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::types::{ByColor, ByRole, Color, Piece, Role, Square};

/// Piece placement, one bitboard per role and per colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    by_role: ByRole<Bitboard>,
    by_color: ByColor<Bitboard>,
    occupied: Bitboard,
}

impl Board {
    /// No pieces.
    pub const fn empty() -> Board {
        Board {
            by_role: ByRole([Bitboard::EMPTY; 6]),
            by_color: ByColor {
                white: Bitboard::EMPTY,
                black: Bitboard::EMPTY,
            },
            occupied: Bitboard::EMPTY,
        }
    }

    /// The standard start position.
    pub fn standard() -> Board {
        let mut b = Board::empty();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for (i, role) in back.into_iter().enumerate() {
            b.put(
                Square::new(i as u8),
                Piece {
                    color: Color::White,
                    role,
                },
            );
            b.put(
                Square::new(56 + i as u8),
                Piece {
                    color: Color::Black,
                    role,
                },
            );
            b.put(
                Square::new(8 + i as u8),
                Piece {
                    color: Color::White,
                    role: Role::Pawn,
                },
            );
            b.put(
                Square::new(48 + i as u8),
                Piece {
                    color: Color::Black,
                    role: Role::Pawn,
                },
            );
        }
        b
    }

    #[inline]
    /// The occupied squares.
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    #[inline]
    /// The squares of `c`'s pieces.
    pub fn by_color(&self, c: Color) -> Bitboard {
        self.by_color[c]
    }

    #[inline]
    /// The squares of the pieces of role `r`, both colours.
    pub fn by_role(&self, r: Role) -> Bitboard {
        self.by_role[r]
    }

    #[inline]
    /// The squares of piece `p`.
    pub fn by_piece(&self, p: Piece) -> Bitboard {
        self.by_role[p.role] & self.by_color[p.color]
    }

    /// Rooks and queens.
    #[inline]
    pub fn rooks_and_queens(&self) -> Bitboard {
        self.by_role[Role::Rook] | self.by_role[Role::Queen]
    }

    /// Bishops and queens.
    #[inline]
    pub fn bishops_and_queens(&self) -> Bitboard {
        self.by_role[Role::Bishop] | self.by_role[Role::Queen]
    }

    /// The square of the king of `c`, if there is exactly one.
    #[inline]
    pub fn king_of(&self, c: Color) -> Option<Square> {
        (self.by_role[Role::King] & self.by_color[c]).single_square()
    }

    #[inline]
    /// The colour of the piece on `sq`, if any.
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color.white.contains(sq) {
            Some(Color::White)
        } else if self.by_color.black.contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    #[inline]
    /// The role of the piece on `sq`, if any.
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied.contains(sq) {
            return None;
        }
        // Branch-free: the one role bitboard holding the square.
        let bit = |r: Role| u8::from(self.by_role[r].contains(sq)) * (r as u8 + 1);
        let n = bit(Role::Pawn)
            | bit(Role::Knight)
            | bit(Role::Bishop)
            | bit(Role::Rook)
            | bit(Role::Queen)
            | bit(Role::King);
        n.checked_sub(1).map(|i| Role::ALL[i as usize])
    }

    #[inline]
    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Some(Piece {
            role: self.role_at(sq)?,
            color: self.color_at(sq)?,
        })
    }

    /// Puts `piece` on `sq`, replacing whatever stood there.
    #[inline]
    pub fn put(&mut self, sq: Square, piece: Piece) {
        self.remove(sq);
        self.put_on_empty(sq, piece);
    }

    /// Puts `piece` on `sq`, which must be empty.
    #[inline]
    pub(crate) fn put_on_empty(&mut self, sq: Square, piece: Piece) {
        let bb = Bitboard::from_square(sq);
        self.by_role[piece.role] |= bb;
        self.by_color[piece.color] |= bb;
        self.occupied |= bb;
    }

    /// Removes and returns the piece on `sq`.
    #[inline]
    pub fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.discard(sq, piece);
        Some(piece)
    }

    /// Removes `piece`, known to stand on `sq`.
    #[inline]
    pub(crate) fn discard(&mut self, sq: Square, piece: Piece) {
        let bb = !Bitboard::from_square(sq);
        self.by_role[piece.role] &= bb;
        self.by_color[piece.color] &= bb;
        self.occupied &= bb;
    }

    /// Every piece of `attacker` that attacks `sq`, with blockers `occupied`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        self.by_color[attacker]
            & ((attacks::rook_attacks(sq, occupied) & self.rooks_and_queens())
                | (attacks::bishop_attacks(sq, occupied) & self.bishops_and_queens())
                | (attacks::knight_attacks(sq) & self.by_role[Role::Knight])
                | (attacks::king_attacks(sq) & self.by_role[Role::King])
                | (attacks::pawn_attacks(!attacker, sq) & self.by_role[Role::Pawn]))
    }

    /// Whether a piece of `attacker` attacks `sq`, with blockers `occupied`: what
    /// [`attackers_to`](Board::attackers_to) says is not empty, found with the steppers
    /// first and a slider's table only when one stands on the square's empty-board lines.
    #[inline]
    pub fn is_attacked(&self, sq: Square, attacker: Color, occupied: Bitboard) -> bool {
        self.is_attacked_among(sq, attacker, Bitboard::FULL, occupied)
    }

    /// [`is_attacked`](Board::is_attacked) by the pieces of `attacker` on `among` only (a
    /// piece about to be captured attacks nothing).
    #[inline]
    pub(crate) fn is_attacked_among(
        &self,
        sq: Square,
        attacker: Color,
        among: Bitboard,
        occupied: Bitboard,
    ) -> bool {
        let them = self.by_color[attacker] & among;
        if ((attacks::knight_attacks(sq) & self.by_role[Role::Knight])
            | (attacks::king_attacks(sq) & self.by_role[Role::King])
            | (attacks::pawn_attacks(!attacker, sq) & self.by_role[Role::Pawn]))
            .intersects(them)
        {
            return true;
        }
        let rooks = self.rooks_and_queens() & them;
        if attacks::rook_rays(sq).intersects(rooks)
            && attacks::rook_attacks(sq, occupied).intersects(rooks)
        {
            return true;
        }
        let bishops = self.bishops_and_queens() & them;
        attacks::bishop_rays(sq).intersects(bishops)
            && attacks::bishop_attacks(sq, occupied).intersects(bishops)
    }

    /// The squares the piece on `sq` attacks (empty for an empty square).
    pub fn attacks_from(&self, sq: Square) -> Bitboard {
        match self.piece_at(sq) {
            Some(p) => attacks_of(p, sq, self.occupied),
            None => Bitboard::EMPTY,
        }
    }

    /// Iterates over `(square, piece)` from a1 to h8.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied
            .map(move |sq| (sq, self.piece_at(sq).expect("occupied")))
    }
}

/// The squares `piece` on `sq` attacks with blockers `occupied`.
#[inline]
pub fn attacks_of(piece: Piece, sq: Square, occupied: Bitboard) -> Bitboard {
    match piece.role {
        Role::Pawn => attacks::pawn_attacks(piece.color, sq),
        Role::Knight => attacks::knight_attacks(sq),
        Role::Bishop => attacks::bishop_attacks(sq, occupied),
        Role::Rook => attacks::rook_attacks(sq, occupied),
        Role::Queen => attacks::queen_attacks(sq, occupied),
        Role::King => attacks::king_attacks(sq),
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in (0..8).rev() {
            for file in 0..8 {
                let sq = Square::new(rank * 8 + file);
                let c = self.piece_at(sq).map_or('.', Piece::char);
                write!(f, "{c}{}", if file < 7 { ' ' } else { '\n' })?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::testing::random_positions;

    /// `is_attacked` (steppers first, sliders only when one is on the square's lines) says
    /// what `attackers_to` says, for every square, both colours, the board's occupancy and
    /// one with a piece lifted (as the king's moves and castling ask), and without the
    /// attackers of one square.
    #[test]
    fn is_attacked_is_whether_there_are_attackers() {
        let mut attacked = 0;
        for pos in random_positions() {
            let board = pos.board();
            for lifted in [None, board.king_of(pos.turn())] {
                let occ = match lifted {
                    Some(sq) => board.occupied() ^ Bitboard::from_square(sq),
                    None => board.occupied(),
                };
                for i in 0..64 {
                    let sq = Square::new(i);
                    for color in [Color::White, Color::Black] {
                        let expected = board.attackers_to(sq, color, occ).any();
                        assert_eq!(
                            board.is_attacked(sq, color, occ),
                            expected,
                            "{board:?} {sq}"
                        );
                        attacked += usize::from(expected);
                        // Without the pieces of one square (a capture's victim).
                        for j in [i ^ 1, i ^ 8, i ^ 9, ((u16::from(i) * 7 + 3) % 64) as u8] {
                            let among = !Bitboard::from_square(Square::new(j));
                            assert_eq!(
                                board.is_attacked_among(sq, color, among, occ),
                                (board.attackers_to(sq, color, occ) & among).any(),
                                "{board:?} {sq} without {}",
                                Square::new(j)
                            );
                        }
                    }
                }
            }
        }
        assert!(
            attacked > 1000,
            "the positions attack few squares: {attacked}"
        );
    }
}
