//! Unvalidated positions, as FEN writes them.
//!
//! A [`Setup`] holds whatever a FEN said, legal or not; only
//! [`Position::from_setup`](crate::Position::from_setup) decides whether it is a position
//! that can be played from.
//!
//! ```
//! use pocketfen::{Role, Setup};
//! let mut setup = Setup::crazyhouse_start();
//! setup.pockets.as_mut().unwrap().white.add(Role::Queen);
//! assert_eq!(setup.pockets.unwrap().white.count(), 1);
//! ```

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::types::{ByColor, Color, File, Piece, Role, Square};

/// The pieces one side holds in hand: a count per role, P N B R Q (kings never).
///
/// ```
/// use pocketfen::{Pocket, Role};
/// let mut pocket = Pocket::from_counts([2, 0, 0, 0, 1]);
/// assert!(pocket.add(Role::Knight));
/// assert!(!pocket.add(Role::King));
/// assert_eq!((pocket.get(Role::Pawn), pocket.count()), (2, 4));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Pocket([u8; 5]);

impl Pocket {
    /// A pocket holding nothing.
    pub const EMPTY: Pocket = Pocket([0; 5]);

    /// A pocket from its counts of pawns, knights, bishops, rooks and queens.
    pub const fn from_counts(counts: [u8; 5]) -> Pocket {
        Pocket(counts)
    }

    /// The counts of pawns, knights, bishops, rooks and queens.
    pub const fn counts(&self) -> [u8; 5] {
        self.0
    }

    /// Sets the count of `role`. Returns `false` (and sets nothing) for a king.
    pub fn set(&mut self, role: Role, count: u8) -> bool {
        if role == Role::King {
            return false;
        }
        self.0[role as usize] = count;
        true
    }

    /// How many pieces of `role` (0 for kings).
    #[inline]
    pub fn get(&self, role: Role) -> u8 {
        if role == Role::King {
            0
        } else {
            self.0[role as usize]
        }
    }

    /// Adds one piece of `role`. Returns `false` (and adds nothing) for a king or when the
    /// count would pass 255.
    #[inline]
    pub fn add(&mut self, role: Role) -> bool {
        if role == Role::King {
            return false;
        }
        match self.0[role as usize].checked_add(1) {
            Some(n) => {
                self.0[role as usize] = n;
                true
            }
            None => false,
        }
    }

    /// Takes one piece of `role` out. Returns `false` if there was none.
    #[inline]
    pub fn take(&mut self, role: Role) -> bool {
        if role == Role::King || self.0[role as usize] == 0 {
            return false;
        }
        self.0[role as usize] -= 1;
        true
    }

    /// The number of pieces held.
    pub fn count(&self) -> u32 {
        self.0.iter().map(|&n| u32::from(n)).sum()
    }

    /// Whether the pocket holds nothing.
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 5]
    }

    /// A bit per role held (bit `role as usize`).
    #[inline]
    pub fn role_mask(&self) -> u8 {
        let mut m = 0;
        for (i, &n) in self.0.iter().enumerate() {
            if n > 0 {
                m |= 1 << i;
            }
        }
        m
    }
}

/// Which castling a FEN letter names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CastlingSpec {
    /// `K`/`k`: the outermost rook on the king's h-side.
    KingSide,
    /// `Q`/`q`: the outermost rook on the king's a-side.
    QueenSide,
    /// A file letter (X-FEN/Shredder-FEN): the rook on that file.
    File(File),
}

/// One castling right as written in a FEN: a colour and what its letter names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CastlingFlag {
    /// Whose right it is.
    pub color: Color,
    /// Which rook: the outermost on a wing, or the one on a file.
    pub spec: CastlingSpec,
}

impl CastlingFlag {
    /// The FEN letter.
    pub fn char(self) -> char {
        let c = match self.spec {
            CastlingSpec::KingSide => 'k',
            CastlingSpec::QueenSide => 'q',
            CastlingSpec::File(f) => f.char(),
        };
        match self.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// The flag for a FEN letter.
    pub fn from_char(c: char) -> Option<CastlingFlag> {
        let color = Color::from_white(c.is_ascii_uppercase());
        let spec = match c.to_ascii_lowercase() {
            'k' => CastlingSpec::KingSide,
            'q' => CastlingSpec::QueenSide,
            l => CastlingSpec::File(File::from_char(l)?),
        };
        Some(CastlingFlag { color, spec })
    }
}

/// The castling field as written: up to four distinct letters, in their written order, so
/// that standard, X-FEN and Shredder-FEN spellings all print back as they were read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Castling {
    len: u8,
    flags: [CastlingFlag; 4],
}

const NO_FLAG: CastlingFlag = CastlingFlag {
    color: Color::White,
    spec: CastlingSpec::KingSide,
};

impl Default for Castling {
    fn default() -> Castling {
        Castling::none()
    }
}

impl Castling {
    /// `-`.
    pub const fn none() -> Castling {
        Castling {
            len: 0,
            flags: [NO_FLAG; 4],
        }
    }

    /// `KQkq`.
    pub const fn standard() -> Castling {
        Castling {
            len: 4,
            flags: [
                CastlingFlag {
                    color: Color::White,
                    spec: CastlingSpec::KingSide,
                },
                CastlingFlag {
                    color: Color::White,
                    spec: CastlingSpec::QueenSide,
                },
                CastlingFlag {
                    color: Color::Black,
                    spec: CastlingSpec::KingSide,
                },
                CastlingFlag {
                    color: Color::Black,
                    spec: CastlingSpec::QueenSide,
                },
            ],
        }
    }

    /// Adds a flag, in its place: the rights are kept in the order FENs write them,
    /// whatever order they were read in (`qK` is `Kq`): White's, then Black's, each from
    /// the king's side to the queen's (`K`, then file letters from h to a, then `Q`:
    /// `KQkq`, `HAha`). Returns `false` if it is already present or four are held.
    pub fn push(&mut self, flag: CastlingFlag) -> bool {
        let key = |f: &CastlingFlag| {
            let wing = match f.spec {
                CastlingSpec::KingSide => 0,
                CastlingSpec::File(file) => 8 - file as u8,
                CastlingSpec::QueenSide => 9,
            };
            (f.color != Color::White, wing)
        };
        let len = self.len as usize;
        // Rights come in their order from a position: after the last, a new one is
        // neither held already nor out of place.
        if len < 4
            && self.flags[..len]
                .last()
                .is_none_or(|last| key(last) < key(&flag))
        {
            self.flags[len] = flag;
            self.len += 1;
            return true;
        }
        if self.len == 4 || self.iter().any(|f| f == flag) {
            return false;
        }
        let at = self.flags[..len].partition_point(|f| key(f) <= key(&flag));
        self.flags.copy_within(at..len, at + 1);
        self.flags[at] = flag;
        self.len += 1;
        true
    }

    /// The rights, in the order FENs write them.
    pub fn iter(&self) -> impl Iterator<Item = CastlingFlag> + '_ {
        self.flags[..self.len as usize].iter().copied()
    }

    /// Whether there is no right.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many rights there are.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Keeps only the flags for which `keep` is true.
    pub fn retain(&mut self, mut keep: impl FnMut(CastlingFlag) -> bool) {
        let mut out = Castling::none();
        for f in self.iter().filter(|&f| keep(f)) {
            out.push(f);
        }
        *self = out;
    }
}

/// An unvalidated position: everything a FEN can say.
///
/// Parsed from any dialect (`str::parse`, or [`notation::fen::parse`] to learn the
/// dialect), printed in any with [`display`](Setup::display), checked by
/// [`Position::from_setup`](crate::Position::from_setup).
///
/// ```
/// use pocketfen::notation::fen::FenDialect;
/// use pocketfen::{Role, Setup};
/// let setup: Setup = "r3k2r/8/8/8/8/8/8/R3K2R[Qp] w KQkq - 0 1".parse()?;
/// assert_eq!(setup.pockets.map(|p| p.white.get(Role::Queen)), Some(1));
/// assert_eq!(
///     setup.display(FenDialect::Chesscom).to_string(),
///     "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 Qp"
/// );
/// # Ok::<_, pocketfen::notation::fen::ParseFenError>(())
/// ```
///
/// [`notation::fen::parse`]: crate::notation::fen::parse
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The pieces.
    pub board: Board,
    /// Squares whose pieces are promoted pawns (`Q~`; Chess.com's square list).
    pub promoted: Bitboard,
    /// The pockets, or `None` when the FEN has no pocket at all (a standard FEN).
    pub pockets: Option<ByColor<Pocket>>,
    /// The side to move.
    pub turn: Color,
    /// The castling rights as written.
    pub castling: Castling,
    /// The en passant square as written.
    pub ep_square: Option<Square>,
    /// Half-moves since the last capture or pawn move.
    pub halfmoves: u32,
    /// The full-move number.
    pub fullmoves: u32,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::empty()
    }
}

impl Setup {
    /// An empty board, White to move, no pockets.
    pub fn empty() -> Setup {
        Setup {
            board: Board::empty(),
            promoted: Bitboard::EMPTY,
            pockets: None,
            turn: Color::White,
            castling: Castling::none(),
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// The standard start position.
    pub fn standard() -> Setup {
        Setup {
            board: Board::standard(),
            castling: Castling::standard(),
            ..Setup::empty()
        }
    }

    /// The standard start position with empty pockets.
    pub fn crazyhouse_start() -> Setup {
        Setup {
            pockets: Some(ByColor::default()),
            ..Setup::standard()
        }
    }

    /// The Horde start: 36 white pawns against a full black army.
    pub fn horde_start() -> Setup {
        let mut board = Board::empty();
        let pawns = Bitboard(0x0000_0066_ffff_ffff);
        for sq in pawns {
            board.put(
                sq,
                Piece {
                    color: Color::White,
                    role: Role::Pawn,
                },
            );
        }
        for sq in Board::standard().by_color(Color::Black) {
            board.put(sq, Board::standard().piece_at(sq).expect("piece"));
        }
        let mut castling = Castling::none();
        castling.push(CastlingFlag {
            color: Color::Black,
            spec: CastlingSpec::KingSide,
        });
        castling.push(CastlingFlag {
            color: Color::Black,
            spec: CastlingSpec::QueenSide,
        });
        Setup {
            board,
            castling,
            ..Setup::empty()
        }
    }
}

/// What one FEN line holds: one board, or a bughouse pair `A | B`.
///
/// ```
/// use pocketfen::Fen;
/// use pocketfen::notation::fen::FenDialect;
/// let line = "8/8/8/8/8/8/8/K6k/Q w - - 0 1 | 8/8/8/8/8/8/8/K6k/ b - - 0 1";
/// let fen: Fen = line.parse()?;
/// assert_eq!(fen.boards().len(), 2);
/// assert_eq!(
///     fen.display(FenDialect::Xboard).to_string(),
///     "8/8/8/8/8/8/8/K6k[Q] w - - 0 1 | 8/8/8/8/8/8/8/K6k[-] b - - 0 1"
/// );
/// # Ok::<_, pocketfen::notation::fen::ParseFenError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Fen {
    /// One board.
    Single(Setup),
    /// A bughouse pair: boards A and B.
    Pair(Box<[Setup; 2]>),
}

impl Fen {
    /// The boards: one, or A then B.
    pub fn boards(&self) -> &[Setup] {
        match self {
            Fen::Single(s) => std::slice::from_ref(s),
            Fen::Pair(p) => &p[..],
        }
    }

    /// The boards, mutable.
    pub fn boards_mut(&mut self) -> &mut [Setup] {
        match self {
            Fen::Single(s) => std::slice::from_mut(s),
            Fen::Pair(p) => &mut p[..],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `boards_mut` reaches the very boards `boards` shows: one, or A then B.
    #[test]
    fn a_fens_boards_can_be_changed_in_place() {
        let mut single = Fen::Single(Setup::standard());
        let mut pair = Fen::Pair(Box::new([Setup::standard(), Setup::standard()]));
        for (fen, n) in [(&mut single, 1), (&mut pair, 2)] {
            assert_eq!(fen.boards_mut().len(), n);
            for (i, b) in fen.boards_mut().iter_mut().enumerate() {
                b.halfmoves = 10 + i as u32;
            }
            let clocks: Vec<u32> = fen.boards().iter().map(|b| b.halfmoves).collect();
            assert_eq!(clocks, (10..10 + n as u32).collect::<Vec<_>>());
        }
    }

    /// Castling rights hold at most four flags, each once, in the order FENs write them;
    /// `retain` keeps that order.
    #[test]
    fn castling_rights_are_a_small_ordered_set() {
        let flag = |color, spec| CastlingFlag { color, spec };
        let mut c = Castling::none();
        assert_eq!(c.len(), 0);
        assert!(c.push(flag(Color::Black, CastlingSpec::QueenSide)));
        assert!(!c.push(flag(Color::Black, CastlingSpec::QueenSide)));
        assert_eq!(c.len(), 1);
        for spec in [CastlingSpec::KingSide, CastlingSpec::File(File::B)] {
            assert!(c.push(flag(Color::White, spec)));
        }
        assert!(c.push(flag(Color::Black, CastlingSpec::KingSide)));
        assert!(
            !c.push(flag(Color::White, CastlingSpec::QueenSide)),
            "a fifth"
        );
        assert_eq!(c.len(), 4);
        // Kept in the order FENs write them, whatever the order they came in.
        let all: Vec<char> = c.iter().map(|f| f.char()).collect();
        assert_eq!(all, ['K', 'B', 'k', 'q']);
        c.retain(|f| f.spec != CastlingSpec::KingSide);
        let left: Vec<char> = c.iter().map(|f| f.char()).collect();
        assert_eq!(left, ['B', 'q']);
        assert_eq!(c.len(), 2);
    }

    #[test]
    fn pocket_counts_saturate_and_refuse_kings() {
        let mut p = Pocket::default();
        assert!(!p.add(Role::King));
        for _ in 0..255 {
            assert!(p.add(Role::Pawn));
        }
        assert!(!p.add(Role::Pawn));
        assert_eq!(p.get(Role::Pawn), 255);
        assert!(p.take(Role::Pawn));
        assert!(!p.take(Role::Queen));
    }

    #[test]
    fn castling_flags_keep_order_and_refuse_duplicates() {
        let mut c = Castling::none();
        for ch in "HAha".chars() {
            assert!(c.push(CastlingFlag::from_char(ch).unwrap()));
        }
        assert!(!c.push(CastlingFlag::from_char('H').unwrap()));
        assert_eq!(c.iter().map(CastlingFlag::char).collect::<String>(), "HAha");
    }

    /// Whatever order rights come in, in order or not, with repeats, the set holds each
    /// once in the order FENs write them.
    #[test]
    fn castling_rights_in_any_order_are_kept_in_fen_order() {
        for (rights, order) in [("KQkq", "KQkq"), ("HBhb", "HBhb"), ("KAqh", "KAhq")] {
            let flags: Vec<CastlingFlag> = rights
                .chars()
                .map(|ch| CastlingFlag::from_char(ch).unwrap())
                .collect();
            // Every order of the four (Heap's algorithm would do; 4^4 choices with
            // repeats cover the permutations and more).
            for n in 0..256usize {
                let picks: Vec<usize> = (0..4).map(|i| n >> (2 * i) & 3).collect();
                let mut c = Castling::none();
                let mut held = Vec::new();
                for &i in &picks {
                    assert_eq!(c.push(flags[i]), !held.contains(&i), "{rights} {picks:?}");
                    if !held.contains(&i) {
                        held.push(i);
                    }
                }
                let mut want: Vec<char> = order.chars().collect();
                want.retain(|ch| {
                    held.iter()
                        .any(|&i| flags[i] == CastlingFlag::from_char(*ch).unwrap())
                });
                let got: Vec<char> = c.iter().map(CastlingFlag::char).collect();
                assert_eq!(got, want, "{rights} pushed as {picks:?}");
            }
        }
    }

    /// A fifth right is refused even when it comes after the four held, in order.
    #[test]
    fn a_fifth_right_in_order_is_refused() {
        let flag = |color, spec| CastlingFlag { color, spec };
        let mut c = Castling::none();
        for f in [
            flag(Color::White, CastlingSpec::KingSide),
            flag(Color::White, CastlingSpec::File(File::B)),
            flag(Color::White, CastlingSpec::QueenSide),
            flag(Color::Black, CastlingSpec::KingSide),
        ] {
            assert!(c.push(f));
        }
        assert!(!c.push(flag(Color::Black, CastlingSpec::QueenSide)));
        let all: Vec<char> = c.iter().map(CastlingFlag::char).collect();
        assert_eq!(all, ['K', 'B', 'Q', 'k']);
    }

    #[test]
    fn horde_start_has_36_pawns() {
        let s = Setup::horde_start();
        assert_eq!(s.board.by_color(Color::White).count(), 36);
        assert_eq!(s.board.king_of(Color::White), None);
    }
}
