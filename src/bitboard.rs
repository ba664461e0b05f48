//! Sets of squares as 64-bit words: bit `i` is square `i` (`a1` = bit 0, `h8` = bit 63).
//!
//! ```
//! use pocketfen::{Bitboard, Square};
//! let bb = Bitboard::from_square(Square::E1) | Bitboard::from_square(Square::A1);
//! assert_eq!(bb.count(), 2);
//! assert_eq!(bb.first(), Some(Square::A1));
//! ```

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::types::{Color, File, Rank, Square};

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(!0);
    /// Ranks 1 and 8.
    pub const BACKRANKS: Bitboard = Bitboard(0xff00_0000_0000_00ff);
    /// The light squares (h1 is light).
    pub const LIGHT_SQUARES: Bitboard = Bitboard(0x55aa_55aa_55aa_55aa);
    /// The dark squares (a1 is dark).
    pub const DARK_SQUARES: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);

    #[inline]
    /// The set holding `sq` alone.
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    #[inline]
    /// The squares of rank `r`.
    pub const fn rank(r: Rank) -> Bitboard {
        Bitboard(0xff << (8 * r as u32))
    }

    #[inline]
    /// The squares of file `f`.
    pub const fn file(f: File) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << f as u32)
    }

    /// The rank `r` as seen from `color` (rank 1 of Black is rank 8).
    #[inline]
    pub const fn relative_rank(color: Color, r: Rank) -> Bitboard {
        Bitboard::rank(color.relative_rank(r))
    }

    #[inline]
    /// Whether no square is in the set.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    /// Whether some square is in the set.
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline]
    /// Whether the two sets share a square.
    pub const fn intersects(self, other: Bitboard) -> bool {
        self.0 & other.0 != 0
    }

    #[inline]
    /// Whether `sq` is in the set.
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    #[inline]
    /// How many squares are in the set.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new(self.0.trailing_zeros() as u8))
        }
    }

    /// The highest square.
    #[inline]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new(63 - self.0.leading_zeros() as u8))
        }
    }

    /// The only square, if there is exactly one.
    #[inline]
    pub const fn single_square(self) -> Option<Square> {
        if self.0 != 0 && !self.more_than_one() {
            self.first()
        } else {
            None
        }
    }

    #[inline]
    /// The set with `sq` added.
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }

    #[inline]
    /// The set with `sq` removed.
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    #[inline]
    /// Adds `sq` to the set (`on`) or removes it.
    pub fn set(&mut self, sq: Square, on: bool) {
        if on {
            self.0 |= 1 << sq.index();
        } else {
            self.0 &= !(1 << sq.index());
        }
    }

    /// Shifts every square `delta` ranks*8+files up (negative: down); bits leaving the board vanish.
    #[inline]
    pub const fn shift(self, delta: i32) -> Bitboard {
        if delta >= 0 {
            Bitboard(self.0 << delta)
        } else {
            Bitboard(self.0 >> -delta)
        }
    }

    /// Mirrors ranks (a1 ↔ a8).
    #[inline]
    pub const fn flip_vertical(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl<T: Into<Bitboard>> $tr<T> for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: T) -> Bitboard {
                Bitboard(self.0 $op rhs.into().0)
            }
        }
        impl<T: Into<Bitboard>> $atr<T> for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: T) {
                self.0 = self.0 $op rhs.into().0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    /// An 8×8 diagram, rank 8 first, `1` for a member square.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            for file in 0..8 {
                let sq = Square::new(rank * 8 + file);
                f.write_str(if self.contains(sq) { "1" } else { "." })?;
                f.write_str(if file < 7 { " " } else { "\n" })?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterate_in_square_order() {
        let bb = Bitboard(0x8000_0000_0000_0101);
        let v: Vec<String> = bb.map(|s| s.to_string()).collect();
        assert_eq!(v, ["a1", "a2", "h8"]);
    }

    #[test]
    fn ranks_files_and_shifts() {
        assert_eq!(Bitboard::rank(Rank::Eighth).count(), 8);
        assert_eq!(
            Bitboard::file(File::H) & Bitboard::rank(Rank::First),
            Bitboard::from_square(Square::H1)
        );
        assert_eq!(
            Bitboard::rank(Rank::First).shift(8),
            Bitboard::rank(Rank::Second)
        );
        assert_eq!(Bitboard::rank(Rank::First).shift(-8), Bitboard::EMPTY);
        assert!(Bitboard(6).more_than_one());
        assert_eq!(Bitboard(4).single_square(), Some(Square::C1));
    }
}
