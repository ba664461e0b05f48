//! Output formats: the JSON Lines records (schema version 1, documented in the README)
//! and the board diagram of `fen show`.

use std::fmt::Write as _;

use serde::Serialize;

use pocketfen::notation::fen::ParseFenError;
use pocketfen::{Color, Piece, Problem, Role, Setup, Severity, Square};

/// A parse error as JSON.
#[derive(Debug, Serialize)]
pub struct FenErrorDto {
    pub column: usize,
    pub field: &'static str,
    pub expected: &'static str,
    pub found: String,
    pub message: String,
}

impl From<&ParseFenError> for FenErrorDto {
    fn from(e: &ParseFenError) -> FenErrorDto {
        FenErrorDto {
            column: e.column,
            field: e.field.name(),
            expected: e.expected,
            found: e.found.clone(),
            message: e.to_string(),
        }
    }
}

/// One line of `fen convert --json`.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ConvertRecord<'a> {
    Converted {
        line: usize,
        input: &'a str,
        dialect: &'static str,
        output: &'a str,
    },
    Error {
        line: usize,
        input: &'a str,
        error: FenErrorDto,
    },
}

/// A setup problem as JSON.
#[derive(Debug, Serialize)]
pub struct ProblemDto {
    pub board: Option<&'static str>,
    pub severity: &'static str,
    pub kind: &'static str,
    pub message: String,
}

impl ProblemDto {
    pub fn new(board: Option<&'static str>, p: &Problem) -> ProblemDto {
        ProblemDto {
            board,
            severity: severity_name(p.severity),
            kind: p.kind.name(),
            message: p.message.clone(),
        }
    }
}

pub fn severity_name(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// One line of `fen check --json`.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum CheckRecord<'a> {
    Checked {
        line: usize,
        input: &'a str,
        variant: &'static str,
        valid: bool,
        problems: Vec<ProblemDto>,
    },
    Error {
        line: usize,
        input: &'a str,
        error: FenErrorDto,
    },
}

/// One line of `moves --json`.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum MoveRecord<'a> {
    Move {
        index: usize,
        token: &'a str,
        san: String,
        uci: String,
        fen: String,
        defects: Vec<String>,
    },
    Error {
        index: usize,
        token: &'a str,
        kind: &'static str,
        message: String,
        fen: String,
    },
    End {
        plies: usize,
        fen: String,
        outcome: Option<&'static str>,
    },
}

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
/// the other FEN fields.
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
