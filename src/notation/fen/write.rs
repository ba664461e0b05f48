//! The FEN printers, one per dialect (see "Printing" in the module above).

use std::fmt::Write as _;

use super::FenDialect;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::notation::push_number;
use crate::setup::Pocket;
use crate::setup::{Fen, Setup};
use crate::types::{ByColor, Color, Piece, Role};

/// The order each dialect writes a side's pocket letters in, as its home programs write
/// them (docs/REFERENCE.md has the evidence): P N B R Q for Lichess (scalachess
/// `Pocket.forsyth`) and Xboard (xboard's holdings follow its piece enum, `common.h`);
/// Q R B N P for the bracket form (python-chess `CrazyhousePocket.__str__` and
/// Fairy-Stockfish `Position::fen` count down from the queen) and for Chess.com (its one
/// real export with a pocket, `QNrp`).
const fn pocket_order(dialect: FenDialect) -> [Role; 5] {
    match dialect {
        FenDialect::Lichess | FenDialect::Xboard => Role::POCKET,
        FenDialect::Bracket | FenDialect::Chesscom => [
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ],
    }
}

fn write_pocket_letters(out: &mut String, pockets: &ByColor<Pocket>, dialect: FenDialect) {
    for color in Color::ALL {
        for role in pocket_order(dialect) {
            let c = Piece { color, role }.char();
            for _ in 0..pockets[color].get(role) {
                out.push(c);
            }
        }
    }
}

/// The board field, rank 8 first, built in a buffer: the occupied squares of each rank are
/// visited in file order and the gaps between them written as digits.
fn write_board(out: &mut String, setup: &Setup, marks: bool) {
    // The letter on each square, from the twelve piece bitboards.
    let mut mailbox = [0u8; 64];
    for color in Color::ALL {
        for role in Role::ALL {
            let piece = Piece { color, role };
            for sq in setup.board.by_piece(piece) {
                mailbox[sq.index()] = piece.char() as u8;
            }
        }
    }
    // 64 pieces, 64 `~` and 7 `/` at most.
    let mut buf = [0u8; 136];
    let mut n = 0;
    let occupied = setup.board.occupied().0;
    let promoted = if marks { setup.promoted.0 } else { 0 };
    for rank in (0..8u8).rev() {
        let mut row = (occupied >> (rank * 8)) & 0xff;
        let mut file = 0u8;
        while row != 0 {
            let f = row.trailing_zeros() as u8;
            if f > file {
                buf[n] = b'0' + (f - file);
                n += 1;
            }
            let sq = usize::from(rank * 8 + f);
            buf[n] = mailbox[sq];
            n += 1;
            if promoted >> sq & 1 == 1 {
                buf[n] = b'~';
                n += 1;
            }
            file = f + 1;
            row &= row - 1;
        }
        if file < 8 {
            buf[n] = b'0' + (8 - file);
            n += 1;
        }
        if rank > 0 {
            buf[n] = b'/';
            n += 1;
        }
    }
    out.push_str(std::str::from_utf8(&buf[..n]).unwrap_or_default());
}

/// The board fields of positions written one after another (a game's, ply after ply),
/// each from the one before: a move changes a rank or two, and only the ranks whose
/// pieces or promoted marks changed are spelled again; the others are copied as they
/// were written. What it writes is what [`Setup::display`](crate::setup::Setup::display)
/// writes, for any boards in any order (it is only faster when they follow each other).
///
/// ```
/// use pocketfen::notation::fen::{BoardCache, FenDialect};
/// use pocketfen::{Position, Variant};
/// use pocketfen::notation::san::San;
/// let mut pos = Position::start(Variant::Crazyhouse);
/// let mut cache = BoardCache::new();
/// for san in ["e4", "d5", "exd5", "Qxd5"] {
///     let m = san.parse::<San>().unwrap().to_move(&pos).unwrap();
///     pos.play_unchecked(m);
///     let mut cached = String::new();
///     pos.to_setup().display(FenDialect::Lichess).append_with(&mut cached, &mut cache);
///     assert_eq!(cached, pos.to_setup().display(FenDialect::Lichess).to_string());
/// }
/// ```
#[derive(Debug, Clone)]
pub struct BoardCache {
    /// The board last written, and its promoted marks as written (none without marks).
    board: Board,
    marked: Bitboard,
    /// Each rank's text (rank 1 first): at most eight letters and eight `~`, then the
    /// `/` that ends it (above rank 1).
    ranks: [[u8; 24]; 8],
    lens: [u8; 8],
}

impl Default for BoardCache {
    fn default() -> BoardCache {
        BoardCache::new()
    }
}

impl BoardCache {
    /// A cache whose last board is the standard start (where most games begin: their
    /// first move spells two ranks again).
    pub fn new() -> BoardCache {
        let rank = |text: &[u8]| {
            let mut r = [0u8; 24];
            r[..text.len()].copy_from_slice(text);
            r
        };
        let eight = rank(b"8/");
        BoardCache {
            board: Board::standard(),
            marked: Bitboard::EMPTY,
            ranks: [
                rank(b"RNBQKBNR"),
                rank(b"PPPPPPPP/"),
                eight,
                eight,
                eight,
                eight,
                rank(b"pppppppp/"),
                rank(b"rnbqkbnr/"),
            ],
            lens: [8, 9, 2, 2, 2, 2, 9, 9],
        }
    }

    /// Appends `board`'s field, with a `~` after each piece of `marked`.
    fn append(&mut self, out: &mut String, board: &Board, marked: Bitboard) {
        let marked = marked & board.occupied();
        let old = &self.board;
        // A square whose role, colour (a piece of one role taken by one of the same) or
        // mark changed; White's squares tell every change of colour.
        let mut changed =
            (board.by_color(Color::White) ^ old.by_color(Color::White)) | (marked ^ self.marked);
        for role in Role::ALL {
            changed |= board.by_role(role) ^ old.by_role(role);
        }
        // Eight ranks of 17 bytes at most (with their `/`), and room for the last copy.
        let mut buf = [0u8; 8 * 17 + 8];
        let mut n = 0;
        for rank in (0..8).rev() {
            if (changed.0 >> (8 * rank)) as u8 != 0 {
                let (text, len) = spell_rank(board, marked, rank);
                self.ranks[rank] = text;
                self.lens[rank] = len;
            }
            if let Some(room) = buf.get_mut(n..n + 24) {
                room.copy_from_slice(&self.ranks[rank]);
            }
            n += usize::from(self.lens[rank]);
        }
        self.board = *board;
        self.marked = marked;
        out.push_str(std::str::from_utf8(&buf[..n]).unwrap_or_default());
    }
}

/// For each byte: a word with `0x01` in the bytes of its set bits (bit `f`, byte `f`).
const SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut f = 0;
        while f < 8 {
            if b >> f & 1 == 1 {
                table[b] |= 1 << (8 * f);
            }
            f += 1;
        }
        b += 1;
    }
    table
};

/// The letters of a rank's pieces, a byte a square (file a lowest, 0 for an empty one):
/// each role's squares spread to bytes and multiplied by its letter, lowered for Black's.
fn rank_letters(board: &Board, rank: usize) -> u64 {
    let spread = |b: Bitboard| SPREAD[usize::from((b.0 >> (8 * rank)) as u8)];
    let mut letters = spread(board.by_color(Color::Black)) * 0x20;
    for role in Role::ALL {
        letters |= spread(board.by_role(role)) * u64::from(role.upper_char() as u8);
    }
    letters
}

/// One rank's text: its pieces' letters (each followed by `~` when marked) and the
/// lengths of its runs of empty squares, then a `/` above rank 1.
fn spell_rank(board: &Board, marked: Bitboard, rank: usize) -> ([u8; 24], u8) {
    let mut text = [0u8; 24];
    let mut n = 0;
    let letters = rank_letters(board, rank);
    let mut row = (board.occupied().0 >> (8 * rank)) as u8;
    let marks = (marked.0 >> (8 * rank)) as u8;
    let mut file = 0u8;
    while row != 0 {
        let f = row.trailing_zeros() as u8;
        if f > file {
            text[n] = b'0' + (f - file);
            n += 1;
        }
        text[n] = (letters >> (8 * f)) as u8;
        n += 1;
        if marks >> f & 1 == 1 {
            text[n] = b'~';
            n += 1;
        }
        file = f + 1;
        row &= row - 1;
    }
    if file < 8 {
        text[n] = b'0' + (8 - file);
        n += 1;
    }
    if rank > 0 {
        text[n] = b'/';
        n += 1;
    }
    (text, n as u8)
}

/// Appends `setup` as `dialect` writes it, its board written from `cache` when there is
/// one.
pub(super) fn append_setup(
    out: &mut String,
    setup: &Setup,
    dialect: FenDialect,
    cache: Option<&mut BoardCache>,
) {
    fields(out, setup, dialect, true, cache);
}

/// Appends `setup` as `dialect` writes it, with the half-move clock and full-move number
/// (six fields) or without them (EPD's four, and Chess.com's `CurrentPosition` of a game
/// without pockets).
pub(crate) fn append_fields(out: &mut String, setup: &Setup, dialect: FenDialect, clocks: bool) {
    fields(out, setup, dialect, clocks, None);
}

/// [`append_fields`], the board written from `cache` when there is one.
fn fields(
    out: &mut String,
    setup: &Setup,
    dialect: FenDialect,
    clocks: bool,
    cache: Option<&mut BoardCache>,
) {
    let marks = dialect != FenDialect::Chesscom;
    match cache {
        Some(cache) => {
            let marked = if marks {
                setup.promoted
            } else {
                Bitboard::EMPTY
            };
            cache.append(out, &setup.board, marked);
        }
        None => write_board(out, setup, marks),
    }
    if let Some(p) = &setup.pockets {
        match dialect {
            FenDialect::Lichess => {
                out.push('/');
                write_pocket_letters(out, p, dialect);
            }
            FenDialect::Xboard | FenDialect::Bracket => {
                out.push('[');
                if dialect == FenDialect::Xboard && p.white.is_empty() && p.black.is_empty() {
                    out.push('-');
                } else {
                    write_pocket_letters(out, p, dialect);
                }
                out.push(']');
            }
            FenDialect::Chesscom => {}
        }
    }
    out.push(' ');
    out.push(setup.turn.char());
    out.push(' ');
    if setup.castling.is_empty() {
        out.push('-');
    }
    for f in setup.castling.iter() {
        out.push(f.char());
    }
    out.push(' ');
    match setup.ep_square {
        Some(sq) => {
            out.push(sq.file().char());
            out.push(sq.rank().char());
        }
        None => out.push('-'),
    }
    // A full-move number of 0 is read as 1 (`fen check` says so), and written so.
    if clocks {
        out.push(' ');
        push_number(out, setup.halfmoves);
        out.push(' ');
        push_number(out, setup.fullmoves.max(1));
    }
    if dialect == FenDialect::Chesscom {
        // An empty pocket is not written; the promoted squares follow the last field
        // either way.
        if let Some(p) = &setup.pockets
            && !(p.white.is_empty() && p.black.is_empty())
        {
            out.push(' ');
            write_pocket_letters(out, p, dialect);
        }
        for sq in setup.promoted {
            let _ = write!(out, " {sq}");
        }
    }
}

/// Appends a FEN line (one board, or a pair joined by ` | `) as `dialect` writes it, the
/// boards written from `cache` when there is one.
pub(super) fn append_fen(
    out: &mut String,
    fen: &Fen,
    dialect: FenDialect,
    mut cache: Option<&mut BoardCache>,
) {
    for (n, setup) in fen.boards().iter().enumerate() {
        if n > 0 {
            out.push_str(" | ");
        }
        append_setup(out, setup, dialect, cache.as_deref_mut());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;
    use crate::board::Board;
    use crate::types::Square;

    /// The board field as a square-by-square walk writes it.
    fn square_by_square(setup: &Setup, marks: bool) -> String {
        let mut out = String::new();
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                let sq = Square::new(rank * 8 + file);
                match setup.board.piece_at(sq) {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(piece.char());
                        if marks && setup.promoted.contains(sq) {
                            out.push('~');
                        }
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }

    /// The board writer (a mailbox, then the occupied squares rank by rank) agrees with
    /// a square-by-square walk on boards of every density: empty, full, and random ones
    /// with promoted marks anywhere.
    #[test]
    fn boards_are_written_as_a_square_by_square_walk_writes_them() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..3000 {
            let mut setup = Setup::empty();
            let mut board = Board::empty();
            let density = round % 66;
            for sq in 0..64u8 {
                if next() % 64 < density {
                    let r = next();
                    let piece = Piece {
                        color: Color::ALL[(r % 2) as usize],
                        role: Role::ALL[(r / 2 % 6) as usize],
                    };
                    board.put(Square::new(sq), piece);
                }
            }
            setup.board = board;
            setup.promoted = Bitboard(next() & next());
            for marks in [true, false] {
                let mut out = String::new();
                write_board(&mut out, &setup, marks);
                assert_eq!(out, square_by_square(&setup, marks));
            }
        }
    }

    /// The cache writes what the board writer writes: for boards that follow each other
    /// (a piece moved, taken, dropped, promoted, as moves change them), for unrelated
    /// ones, with marks and without, its ranks changed in every combination.
    #[test]
    fn a_cached_board_is_written_as_the_board_writer_writes_it() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let random_piece = |r: u64| Piece {
            color: Color::ALL[(r % 2) as usize],
            role: Role::ALL[(r / 2 % 6) as usize],
        };
        let mut cache = BoardCache::new();
        let mut setup = Setup::empty();
        let mut empty_written = false;
        for step in 0..20_000u32 {
            let r = next();
            let sq = Square::new((r >> 8) as u8 % 64);
            let other = Square::new((r >> 16) as u8 % 64);
            match r % 16 {
                // A new board of any density (the empty one among them).
                0 => {
                    setup.board = Board::empty();
                    let density = next() % 66;
                    for s in 0..64u8 {
                        if next() % 64 < density {
                            setup.board.put(Square::new(s), random_piece(next()));
                        }
                    }
                    setup.promoted = Bitboard(next() & next() & next());
                }
                // A piece moved, maybe taking.
                1..=9 => {
                    if let Some(piece) = setup.board.remove(sq) {
                        setup.board.put(other, piece);
                        let was = setup.promoted.contains(sq);
                        setup.promoted.0 &= !(1 << sq.index() | 1 << other.index());
                        if was {
                            setup.promoted.0 |= 1 << other.index();
                        }
                    }
                }
                // A drop.
                10..=12 => {
                    if !setup.board.occupied().contains(sq) {
                        setup.board.put(sq, random_piece(next()));
                    }
                }
                // A piece promoted, or a mark on an empty square (never written).
                13 => setup.promoted.0 |= 1 << sq.index(),
                14 => setup.promoted.0 &= !(1 << sq.index()),
                _ => {
                    setup.board.remove(sq);
                }
            }
            empty_written |= setup.board.occupied().0 == 0;
            let marks = step % 7 != 3;
            let mut cached = String::from("x");
            let marked = if marks {
                setup.promoted
            } else {
                Bitboard::EMPTY
            };
            cache.append(&mut cached, &setup.board, marked);
            let mut plain = String::from("x");
            write_board(&mut plain, &setup, marks);
            assert_eq!(cached, plain, "step {step}");
            assert_eq!(cached[1..], square_by_square(&setup, marks), "step {step}");
        }
        assert!(empty_written, "the empty board among them");
        // Ranks of eight marked pieces (sixteen bytes before the `/`).
        for s in 0..64u8 {
            setup.board.put(Square::new(s), random_piece(next()));
        }
        setup.promoted = Bitboard(!0);
        let mut cached = String::new();
        cache.append(&mut cached, &setup.board, setup.promoted);
        assert_eq!(cached, square_by_square(&setup, true));
        assert_eq!(cached.len(), 8 * 16 + 7);
    }

    /// Only the ranks a change touches are spelled again: the others are copied as they
    /// were (a rank's text put in the cache by hand comes back unchanged).
    #[test]
    fn unchanged_ranks_are_copied_not_spelled() {
        let mut cache = BoardCache::new();
        let mut board = Board::standard();
        // Marks that stay on rank 8 from one board to the next.
        let marked = Bitboard(1 << 56);
        let mut out = String::new();
        cache.append(&mut out, &board, marked);
        assert_eq!(out, "r~nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
        // Ranks 1 and 8 told apart from what they hold.
        cache.ranks[0][..8].copy_from_slice(b"xxxxxxxx");
        cache.ranks[7][..9].copy_from_slice(b"yyyyyyyyy");
        let pawn = board.remove(Square::new(12)).expect("the e-pawn");
        board.put(Square::new(28), pawn);
        out.clear();
        cache.append(&mut out, &board, marked);
        assert_eq!(out, "yyyyyyyyy/pppppppp/8/8/4P3/8/PPPP1PPP/xxxxxxxx");
    }
}
