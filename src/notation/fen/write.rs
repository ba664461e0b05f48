//! The FEN printers, one per dialect (see "Printing" in the module above).

use std::fmt::Write as _;

use super::FenDialect;
use crate::setup::Pocket;
use crate::setup::{Fen, Setup};
use crate::types::{ByColor, Color, Piece, Role, Square};

fn write_pocket_letters(out: &mut String, pockets: &ByColor<Pocket>) {
    for color in Color::ALL {
        for role in Role::POCKET {
            let c = Piece { color, role }.char();
            for _ in 0..pockets[color].get(role) {
                out.push(c);
            }
        }
    }
}

fn write_board(out: &mut String, setup: &Setup, marks: bool) {
    for rank in (0..8u8).rev() {
        let mut empty = 0u8;
        for file in 0..8u8 {
            let sq = Square::new(rank * 8 + file);
            match setup.board.piece_at(sq) {
                Some(p) => {
                    if empty > 0 {
                        out.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    out.push(p.char());
                    if marks && setup.promoted.contains(sq) {
                        out.push('~');
                    }
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push((b'0' + empty) as char);
        }
        if rank > 0 {
            out.push('/');
        }
    }
}

/// Appends `setup` as `dialect` writes it.
pub fn append_setup(out: &mut String, setup: &Setup, dialect: FenDialect) {
    write_board(out, setup, dialect != FenDialect::Chesscom);
    if let Some(p) = &setup.pockets {
        match dialect {
            FenDialect::Lichess => {
                out.push('/');
                write_pocket_letters(out, p);
            }
            FenDialect::Xboard | FenDialect::Bracket => {
                out.push('[');
                if dialect == FenDialect::Xboard && p.white.is_empty() && p.black.is_empty() {
                    out.push('-');
                } else {
                    write_pocket_letters(out, p);
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
            let _ = write!(out, "{sq}");
        }
        None => out.push('-'),
    }
    // A full-move number of 0 is read as 1 (`fen check` says so), and written so.
    let _ = write!(out, " {} {}", setup.halfmoves, setup.fullmoves.max(1));
    if dialect == FenDialect::Chesscom {
        match &setup.pockets {
            Some(p) if !(p.white.is_empty() && p.black.is_empty()) || setup.promoted.any() => {
                out.push(' ');
                if p.white.is_empty() && p.black.is_empty() {
                    out.push('-');
                }
                write_pocket_letters(out, p);
            }
            _ => {}
        }
        // Promoted squares also without a pocket field (a plain FEN's `~` marks).
        for sq in setup.promoted {
            let _ = write!(out, " {sq}");
        }
    }
}

/// Appends a FEN line (one board, or a pair joined by ` | `) as `dialect` writes it.
pub fn append_fen(out: &mut String, fen: &Fen, dialect: FenDialect) {
    for (n, setup) in fen.boards().iter().enumerate() {
        if n > 0 {
            out.push_str(" | ");
        }
        append_setup(out, setup, dialect);
    }
}
