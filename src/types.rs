//! The vocabulary of the board: colours, roles, pieces, files, ranks and squares.
//!
//! ```
//! use pocketfen::{Color, Piece, Role, Square};
//! let sq: Square = "e4".parse()?;
//! assert_eq!(sq.to_string(), "e4");
//! assert_eq!(Piece::from_char('q'), Some(Piece { color: Color::Black, role: Role::Queen }));
//! # Ok::<_, pocketfen::ParseSquareError>(())
//! ```

use std::fmt;
use std::ops::{Index, IndexMut, Not};
use std::str::FromStr;

/// White or Black.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// White.
    White = 0,
    /// Black.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// `White` for `true`.
    #[inline]
    pub const fn from_white(white: bool) -> Color {
        if white { Color::White } else { Color::Black }
    }

    /// The FEN letter of the side to move: `w` or `b`.
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// `white` or `black`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// The rank a piece of this colour starts on: rank 1 for White.
    #[inline]
    pub const fn back_rank(self) -> Rank {
        match self {
            Color::White => Rank::First,
            Color::Black => Rank::Eighth,
        }
    }

    /// The rank `r` as seen from this side (White sees ranks as they are).
    #[inline]
    pub const fn relative_rank(self, r: Rank) -> Rank {
        match self {
            Color::White => r,
            Color::Black => Rank::new(7 - r as u8),
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// The kind of a piece, without its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl Role {
    /// All roles, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// The roles a pocket can hold, in the order P N B R Q.
    pub const POCKET: [Role; 5] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ];

    /// The roles a pawn may promote to, in the order Q R B N.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// The lowercase letter of the role (`p n b r q k`).
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// The uppercase letter of the role (`P N B R Q K`).
    pub const fn upper_char(self) -> char {
        self.char().to_ascii_uppercase()
    }

    /// The role for a letter of either case.
    pub const fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_lowercase() {
            'p' => Role::Pawn,
            'n' => Role::Knight,
            'b' => Role::Bishop,
            'r' => Role::Rook,
            'q' => Role::Queen,
            'k' => Role::King,
            _ => return None,
        })
    }

    /// `pawn`, `knight`, …
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        }
    }
}

/// A coloured piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// Which piece.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: uppercase for White.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    /// The piece for a FEN letter.
    pub const fn from_char(c: char) -> Option<Piece> {
        match Role::from_char(c) {
            Some(role) => Some(Piece {
                color: Color::from_white(c.is_ascii_uppercase()),
                role,
            }),
            None => None,
        }
    }
}

/// A file, `a` to `h`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum File {
    /// The a-file.
    A = 0,
    /// The b-file.
    B,
    /// The c-file.
    C,
    /// The d-file.
    D,
    /// The e-file.
    E,
    /// The f-file.
    F,
    /// The g-file.
    G,
    /// The h-file.
    H,
}

impl File {
    /// Every file, a to h.
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    /// The file with index `i` (0 = a).
    ///
    /// # Panics
    ///
    /// When `i > 7`.
    #[inline]
    pub const fn new(i: u8) -> File {
        File::ALL[i as usize]
    }

    /// The file for a letter `a`–`h` (either case).
    pub const fn from_char(c: char) -> Option<File> {
        let l = c.to_ascii_lowercase();
        if l >= 'a' && l <= 'h' {
            Some(File::new(l as u8 - b'a'))
        } else {
            None
        }
    }

    /// The lowercase letter.
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }
}

/// A rank, `1` to `8`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Rank {
    /// Rank 1.
    First = 0,
    /// Rank 2.
    Second,
    /// Rank 3.
    Third,
    /// Rank 4.
    Fourth,
    /// Rank 5.
    Fifth,
    /// Rank 6.
    Sixth,
    /// Rank 7.
    Seventh,
    /// Rank 8.
    Eighth,
}

impl Rank {
    /// Every rank, 1 to 8.
    pub const ALL: [Rank; 8] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
        Rank::Seventh,
        Rank::Eighth,
    ];

    /// The rank with index `i` (0 = rank 1).
    ///
    /// # Panics
    ///
    /// When `i > 7`.
    #[inline]
    pub const fn new(i: u8) -> Rank {
        Rank::ALL[i as usize]
    }

    /// The rank for a digit `1`–`8`.
    pub const fn from_char(c: char) -> Option<Rank> {
        if c >= '1' && c <= '8' {
            Some(Rank::new(c as u8 - b'1'))
        } else {
            None
        }
    }

    /// The digit.
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }
}

/// A square, `a1` = 0 to `h8` = 63.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with index `i` (`a1` = 0, `b1` = 1, …, `h8` = 63).
    ///
    /// # Panics
    ///
    /// When `i > 63`.
    #[inline]
    pub const fn new(i: u8) -> Square {
        assert!(i < 64);
        Square(i)
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank as u8 * 8 + file as u8)
    }

    /// The index, 0 to 63.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    /// The square's file.
    pub const fn file(self) -> File {
        File::new(self.0 & 7)
    }

    #[inline]
    /// The square's rank.
    pub const fn rank(self) -> Rank {
        Rank::new(self.0 >> 3)
    }

    /// The square `delta` indices away, if that stays on the board (no wrap check).
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let i = self.0 as i32 + delta;
        if i >= 0 && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// The same square seen from the other side (a1 ↔ a8).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// Whether the square is light (`h1` is light).
    pub const fn is_light(self) -> bool {
        (self.0 as u32 / 8 + self.0 as u32 % 8) % 2 == 1
    }

    /// a1
    pub const A1: Square = Square(0);
    /// c1
    pub const C1: Square = Square(2);
    /// d1
    pub const D1: Square = Square(3);
    /// e1
    pub const E1: Square = Square(4);
    /// f1
    pub const F1: Square = Square(5);
    /// g1
    pub const G1: Square = Square(6);
    /// h1
    pub const H1: Square = Square(7);
    /// e8
    pub const E8: Square = Square(60);

    /// Iterates all 64 squares from a1 to h8.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// Parses `e4`-style names from bytes.
    pub fn from_ascii(s: &[u8]) -> Result<Square, ParseSquareError> {
        match *s {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Ok(Square((r - b'1') * 8 + (f - b'a'))),
            _ => Err(ParseSquareError),
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A square name was not `a1`–`h8`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid square name")
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.as_bytes())
    }
}

/// One value per colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ByColor<T> {
    /// White's.
    pub white: T,
    /// Black's.
    pub black: T,
}

impl<T> ByColor<T> {
    /// Builds both values from a function of the colour.
    pub fn new_with(mut f: impl FnMut(Color) -> T) -> ByColor<T> {
        ByColor {
            white: f(Color::White),
            black: f(Color::Black),
        }
    }

    #[inline]
    /// `c`'s value.
    pub const fn get(&self, c: Color) -> &T {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    #[inline]
    /// `c`'s value, to change.
    pub fn get_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, c: Color) -> &T {
        self.get(c)
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, c: Color) -> &mut T {
        self.get_mut(c)
    }
}

/// One value per role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ByRole<T>(pub [T; 6]);

impl<T> Index<Role> for ByRole<T> {
    type Output = T;
    #[inline]
    fn index(&self, r: Role) -> &T {
        &self.0[r as usize]
    }
}

impl<T> IndexMut<Role> for ByRole<T> {
    #[inline]
    fn index_mut(&mut self, r: Role) -> &mut T {
        &mut self.0[r as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        for bad in ["", "e", "i1", "a9", "a0", "E4", "e44"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }

    #[test]
    fn piece_letters() {
        for c in "PNBRQKpnbrqk".chars() {
            assert_eq!(Piece::from_char(c).unwrap().char(), c);
        }
        assert_eq!(Piece::from_char('x'), None);
    }

    #[test]
    fn relative_rank_and_colors() {
        assert_eq!(Color::Black.relative_rank(Rank::First), Rank::Eighth);
        assert_eq!(Color::White.relative_rank(Rank::Third), Rank::Third);
        assert_eq!(!Color::White, Color::Black);
        assert!(Square::H1.is_light());
        assert!(!Square::A1.is_light());
    }
}
