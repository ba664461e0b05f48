//! A text diagram of a position: the board rank 8 first, both pockets, promoted pieces
//! marked `~`, and the other FEN fields; Unicode figurines or ASCII letters.
//!
//! ```
//! use pocketfen::Setup;
//! use pocketfen::notation::diagram::diagram;
//! let setup: Setup = "4k3/8/8/8/8/8/8/4K2Q~/Pn w - - 0 1".parse()?;
//! let text = diagram(&setup, true);
//! assert!(text.contains("1 | . . . . K . . Q~|"));
//! assert!(text.contains("white pocket: P"));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::fmt::Write as _;

use crate::setup::Setup;
use crate::types::{Color, Piece, Role, Square};

fn figurine(p: Piece) -> char {
    match (p.color, p.role) {
        (Color::White, Role::King) => '♔',
        (Color::White, Role::Queen) => '♕',
        (Color::White, Role::Rook) => '♖',
        (Color::White, Role::Bishop) => '♗',
        (Color::White, Role::Knight) => '♘',
        (Color::White, Role::Pawn) => '♙',
        (Color::Black, Role::King) => '♚',
        (Color::Black, Role::Queen) => '♛',
        (Color::Black, Role::Rook) => '♜',
        (Color::Black, Role::Bishop) => '♝',
        (Color::Black, Role::Knight) => '♞',
        (Color::Black, Role::Pawn) => '♟',
    }
}

fn pocket_line(setup: &Setup, color: Color, ascii: bool) -> String {
    let Some(pockets) = &setup.pockets else {
        return "-".to_owned();
    };
    let mut s = String::new();
    for role in Role::POCKET {
        let piece = Piece { color, role };
        for _ in 0..pockets[color].get(role) {
            s.push(if ascii { piece.char() } else { figurine(piece) });
        }
    }
    if s.is_empty() {
        "(empty)".to_owned()
    } else {
        s
    }
}

/// The board drawn rank 8 first, with both pockets, promoted pieces followed by `~`, and
/// the other FEN fields; ASCII letters when `ascii`, else Unicode figurines.
pub fn diagram(setup: &Setup, ascii: bool) -> String {
    let mut out = String::new();
    let (top, bottom, side) = if ascii {
        ("  +-----------------+", "  +-----------------+", '|')
    } else {
        ("  ┌─────────────────┐", "  └─────────────────┘", '│')
    };
    if setup.pockets.is_some() {
        let _ = writeln!(
            out,
            "  black pocket: {}",
            pocket_line(setup, Color::Black, ascii)
        );
    }
    out.push_str(top);
    out.push('\n');
    for rank in (0..8u8).rev() {
        let _ = write!(out, "{} {side}", rank + 1);
        for file in 0..8u8 {
            let sq = Square::new(rank * 8 + file);
            let c = match setup.board.piece_at(sq) {
                Some(p) if ascii => p.char(),
                Some(p) => figurine(p),
                None if ascii => '.',
                None => '·',
            };
            let mark = if setup.promoted.contains(sq) {
                '~'
            } else {
                ' '
            };
            let _ = write!(
                out,
                "{}{c}",
                if file == 0 {
                    ' '
                } else {
                    mark_before(setup, sq)
                }
            );
            if file == 7 {
                let _ = writeln!(out, "{mark}{side}");
            }
        }
    }
    out.push_str(bottom);
    out.push('\n');
    out.push_str("    a b c d e f g h\n");
    if setup.pockets.is_some() {
        let _ = writeln!(
            out,
            "  white pocket: {}",
            pocket_line(setup, Color::White, ascii)
        );
    }
    let castling: String = setup.castling.iter().map(|f| f.char()).collect();
    let _ = writeln!(
        out,
        "  {} to move, castling {}, en passant {}, half-moves {}, move {}",
        if setup.turn == Color::White {
            "white"
        } else {
            "black"
        },
        if castling.is_empty() {
            "-".to_owned()
        } else {
            castling
        },
        setup.ep_square.map_or("-".to_owned(), |s| s.to_string()),
        setup.halfmoves,
        setup.fullmoves,
    );
    if setup.promoted.any() {
        let list: Vec<String> = setup.promoted.map(|s| s.to_string()).collect();
        let _ = writeln!(out, "  promoted (~): {}", list.join(" "));
    }
    out
}

/// The separator before the square `sq`: `~` when the piece to its left is promoted.
fn mark_before(setup: &Setup, sq: Square) -> char {
    let left = Square::new(sq.index() as u8 - 1);
    if setup.promoted.contains(left) {
        '~'
    } else {
        ' '
    }
}
