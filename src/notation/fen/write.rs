//! The FEN printers, one per dialect (see "Printing" in the module above).

use std::fmt::Write as _;

use super::FenDialect;
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

/// Appends `setup` as `dialect` writes it.
pub(super) fn append_setup(out: &mut String, setup: &Setup, dialect: FenDialect) {
    append_fields(out, setup, dialect, true);
}

/// Appends `setup` as `dialect` writes it, with the half-move clock and full-move number
/// (six fields) or without them (EPD's four, and Chess.com's `CurrentPosition` of a game
/// without pockets).
pub(crate) fn append_fields(out: &mut String, setup: &Setup, dialect: FenDialect, clocks: bool) {
    write_board(out, setup, dialect != FenDialect::Chesscom);
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

/// Appends a FEN line (one board, or a pair joined by ` | `) as `dialect` writes it.
pub(super) fn append_fen(out: &mut String, fen: &Fen, dialect: FenDialect) {
    for (n, setup) in fen.boards().iter().enumerate() {
        if n > 0 {
            out.push_str(" | ");
        }
        append_setup(out, setup, dialect);
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
}
