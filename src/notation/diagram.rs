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
    diagram_as(setup, ascii, false)
}

/// [`diagram`], with Black at the bottom when `flip` (rank 1 first, the h-file on the
/// left, White's pocket on top).
///
/// ```
/// use pocketfen::Setup;
/// use pocketfen::notation::diagram::diagram_as;
/// let setup: Setup = "4k3/8/8/8/8/8/8/4K2Q~/Pn w - - 0 1".parse()?;
/// let text = diagram_as(&setup, true, true);
/// assert!(text.contains("1 | Q~. . K . . . . |"));
/// assert!(text.find("white pocket").unwrap() < text.find("black pocket").unwrap());
/// assert!(text.contains("h g f e d c b a"));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn diagram_as(setup: &Setup, ascii: bool, flip: bool) -> String {
    let mut out = String::new();
    let (top, bottom, side) = if ascii {
        ("  +-----------------+", "  +-----------------+", '|')
    } else {
        ("  ┌─────────────────┐", "  └─────────────────┘", '│')
    };
    let (above, below) = if flip {
        (Color::White, Color::Black)
    } else {
        (Color::Black, Color::White)
    };
    if setup.pockets.is_some() {
        let _ = writeln!(
            out,
            "  {} pocket: {}",
            above.name(),
            pocket_line(setup, above, ascii)
        );
    }
    out.push_str(top);
    out.push('\n');
    for row in 0..8u8 {
        let rank = if flip { row } else { 7 - row };
        let _ = write!(out, "{} {side}", rank + 1);
        // The separator before each square: `~` after a promoted piece.
        let mut mark = ' ';
        for column in 0..8u8 {
            let file = if flip { 7 - column } else { column };
            let sq = Square::new(rank * 8 + file);
            let c = match setup.board.piece_at(sq) {
                Some(p) if ascii => p.char(),
                Some(p) => figurine(p),
                None if ascii => '.',
                None => '·',
            };
            let _ = write!(out, "{mark}{c}");
            mark = if setup.promoted.contains(sq) {
                '~'
            } else {
                ' '
            };
        }
        let _ = writeln!(out, "{mark}{side}");
    }
    out.push_str(bottom);
    out.push('\n');
    out.push_str(if flip {
        "    h g f e d c b a\n"
    } else {
        "    a b c d e f g h\n"
    });
    if setup.pockets.is_some() {
        let _ = writeln!(
            out,
            "  {} pocket: {}",
            below.name(),
            pocket_line(setup, below, ascii)
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
