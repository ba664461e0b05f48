//! UCI move notation with drops: `e2e4`, `e7e8q`, `N@d5`, `P@e4`, `0000`; castling read as
//! king-two-squares (`e1g1`) or king-takes-rook (`e1h1`, Chess960).
//!
//! ```
//! use pocketfen::notation::uci::UciMove;
//! use pocketfen::{Position, Variant};
//! let pos = Position::start(Variant::Chess);
//! let m = "e2e4".parse::<UciMove>()?.to_move(&pos)?;
//! assert_eq!(UciMove::from_move(m, false).to_string(), "e2e4");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::str::FromStr;

use nom::Parser;
use nom::bytes::complete::tag;

use crate::moves::{CastlingSide, Move};
use crate::notation::nomerr::{self, NomErr, byte_token_column, cut_fail};
use crate::position::{IllegalMove, IllegalReason, Position};
use crate::types::{File, Piece, Role, Square};

/// A move in UCI notation, not yet checked against a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UciMove {
    /// A move from a square to a square (castling as the king's move).
    Normal {
        /// The origin.
        from: Square,
        /// The destination (the rook's square for Chess960 castling).
        to: Square,
        /// The promotion role.
        promotion: Option<Role>,
    },
    /// A drop (`N@d5`).
    Put {
        /// The dropped role.
        role: Role,
        /// The square dropped on.
        to: Square,
    },
    /// `0000`.
    Null,
}

/// A UCI token that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseUciError {
    /// 1-based character column within the token.
    pub column: usize,
    /// What was expected there.
    pub expected: &'static str,
}

impl fmt::Display for ParseUciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: expected {}", self.column, self.expected)
    }
}

impl std::error::Error for ParseUciError {}

// The grammar, over the token's bytes:
//
//     uci       = "0000" / drop / normal          ; the whole token
//     drop      = ROLE "@" square                 ; ROLE: P N B R Q, either case
//     normal    = square square [promotion]
//     promotion = "q" / "r" / "b" / "n" / "k"     ; either case
//     square    = "a"-"h" "1"-"8"

type Res<'a, T> = nomerr::Res<'a, T, &'a [u8]>;

/// `uci = "0000" / drop / normal`, then the end of the token.
fn uci(i: &[u8]) -> Res<'_, UciMove> {
    let (rest, m) = if i == b"0000" {
        (&i[4..], UciMove::Null)
    } else if i.get(1) == Some(&b'@') {
        drop(i)?
    } else {
        normal(i)?
    };
    if rest.is_empty() {
        Ok((rest, m))
    } else {
        cut_fail(rest, "the end of the move")
    }
}

/// `square = "a"-"h" "1"-"8"`
fn square<'a>(i: &'a [u8], expected: &'static str) -> Res<'a, Square> {
    match i.get(..2).map(Square::from_ascii) {
        Some(Ok(sq)) => Ok((&i[2..], sq)),
        _ => cut_fail(i, expected),
    }
}

/// `drop = ROLE "@" square`
fn drop(i: &[u8]) -> Res<'_, UciMove> {
    let role = match i.first().and_then(|&c| Role::from_char(c as char)) {
        Some(r) if r != Role::King => r,
        _ => return cut_fail(i, "a piece letter (P N B R Q) before `@`"),
    };
    let (rest, _) = tag::<_, _, NomErr<&[u8]>>("@").parse(&i[1..])?;
    let (rest, to) = square(rest, "a square after `@`")?;
    Ok((rest, UciMove::Put { role, to }))
}

/// `normal = square square [promotion]`
fn normal(i: &[u8]) -> Res<'_, UciMove> {
    let (rest, from) = square(i, "a square (or a drop such as N@d5, or 0000)")?;
    let (rest, to) = square(rest, "the destination square")?;
    let (rest, promotion) = match rest.first() {
        None => (rest, None),
        Some(&c) => match Role::from_char(c as char).filter(|&r| r != Role::Pawn) {
            Some(r) => (&rest[1..], Some(r)),
            None => {
                return cut_fail(rest, "a promotion letter (q r b n) or the end of the move");
            }
        },
    };
    let m = UciMove::Normal {
        from,
        to,
        promotion,
    };
    Ok((rest, m))
}

impl UciMove {
    /// Parses `e2e4`, `e7e8q`, `N@d5` (either case), `0000`.
    ///
    /// # Errors
    ///
    /// [`ParseUciError`] with the column and what was expected.
    pub fn from_ascii(s: &[u8]) -> Result<UciMove, ParseUciError> {
        match uci(s) {
            Ok((_, m)) => Ok(m),
            Err(nom::Err::Error(e) | nom::Err::Failure(e)) => Err(ParseUciError {
                column: byte_token_column(s, s.len() - e.at.len()),
                expected: e.expected,
            }),
            Err(nom::Err::Incomplete(_)) => Err(ParseUciError {
                column: byte_token_column(s, s.len()),
                expected: "a complete move",
            }),
        }
    }

    /// The UCI of `m`: castling as king-takes-rook when `chess960`, else king-two-squares.
    pub fn from_move(m: Move, chess960: bool) -> UciMove {
        match m {
            Move::Normal {
                from,
                to,
                promotion,
                ..
            } => UciMove::Normal {
                from,
                to,
                promotion,
            },
            Move::EnPassant { from, to } => UciMove::Normal {
                from,
                to,
                promotion: None,
            },
            Move::Castle { king, rook } => UciMove::Normal {
                from: king,
                to: if chess960 { rook } else { m.to() },
                promotion: None,
            },
            Move::Put { role, to } => UciMove::Put { role, to },
        }
    }

    /// The legal move this UCI names in `pos` (both castling spellings are read).
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] with the engine's reason (the same kinds as for SAN).
    pub fn to_move(&self, pos: &Position) -> Result<Move, IllegalMove> {
        let m = match *self {
            UciMove::Null => {
                return Err(IllegalMove::new(
                    IllegalReason::NullMove,
                    "a null move is not a move".to_owned(),
                ));
            }
            UciMove::Put { role, to } => Move::Put { role, to },
            UciMove::Normal {
                from,
                to,
                promotion,
            } => {
                let board = pos.board();
                let Some(piece) = board.piece_at(from) else {
                    return Err(IllegalMove::new(
                        IllegalReason::NoSuchPiece,
                        format!("no piece on {from}"),
                    ));
                };
                if piece.color != pos.turn() {
                    return Err(IllegalMove::new(
                        IllegalReason::NoSuchPiece,
                        format!(
                            "the piece on {from} is {}'s, and it is {}'s turn",
                            piece.color.name(),
                            pos.turn().name()
                        ),
                    ));
                }
                if piece.role == Role::King
                    && promotion.is_none()
                    && let Some(castle) = castling(pos, from, to)
                {
                    return castle;
                }
                if piece.role == Role::Pawn
                    && pos.ep_square() == Some(to)
                    && from.file() != to.file()
                {
                    Move::EnPassant { from, to }
                } else {
                    Move::Normal {
                        role: piece.role,
                        from,
                        capture: board.role_at(to),
                        to,
                        promotion,
                    }
                }
            }
        };
        pos.check(m).map(|()| m)
    }
}

/// A king move `from` → `to` read as castling: king-two-squares (`e1g1`; in Chess960
/// too when the king goes more than a file, which no other king move does, as with
/// rights written `HAha`) or king-takes-own-rook (`e1h1`). `None`: not castling, an
/// ordinary king move.
fn castling(pos: &Position, from: Square, to: Square) -> Option<Result<Move, IllegalMove>> {
    let far = (from.file() as i8 - to.file() as i8).abs() > 1;
    let legal = pos
        .legal_moves_to(Role::King, Square::from_coords(File::G, from.rank()))
        .into_iter()
        .chain(pos.legal_moves_to(Role::King, Square::from_coords(File::C, from.rank())))
        .find(|m| match *m {
            Move::Castle { king, rook } => {
                king == from && (rook == to || (m.to() == to && (!pos.is_chess960() || far)))
            }
            _ => false,
        });
    if let Some(m) = legal {
        return Some(Ok(m));
    }
    let own_rook = Piece {
        color: pos.turn(),
        role: Role::Rook,
    };
    if pos.board().piece_at(to) != Some(own_rook) {
        return None;
    }
    let side = if to > from {
        CastlingSide::KingSide
    } else {
        CastlingSide::QueenSide
    };
    Some(
        pos.castling_move(side)
            .and_then(|m| pos.check(m).map(|()| m)),
    )
}

impl Move {
    /// The move in UCI notation: castling as king-two-squares (`e1g1`) unless `chess960`,
    /// where it is king-takes-rook (`e1h1`); drops as `N@d5` and `P@e4`.
    pub fn to_uci(self, chess960: bool) -> UciMove {
        UciMove::from_move(self, chess960)
    }
}

impl FromStr for UciMove {
    type Err = ParseUciError;
    fn from_str(s: &str) -> Result<UciMove, ParseUciError> {
        UciMove::from_ascii(s.as_bytes())
    }
}

impl UciMove {
    /// Appends the move as [`Display`](fmt::Display) writes it, without the formatting
    /// machinery (for a hot path).
    pub fn push_to(self, out: &mut impl fmt::Write) {
        fn square(out: &mut impl fmt::Write, s: Square) {
            let _ = out.write_char(s.file().char());
            let _ = out.write_char(s.rank().char());
        }
        match self {
            UciMove::Normal {
                from,
                to,
                promotion,
            } => {
                square(out, from);
                square(out, to);
                if let Some(p) = promotion {
                    let _ = out.write_char(p.char());
                }
            }
            UciMove::Put { role, to } => {
                let _ = out.write_char(role.upper_char());
                let _ = out.write_char('@');
                square(out, to);
            }
            UciMove::Null => {
                let _ = out.write_str("0000");
            }
        }
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UciMove::Normal {
                from,
                to,
                promotion,
            } => {
                write!(f, "{from}{to}")?;
                if let Some(p) = promotion {
                    write!(f, "{}", p.char())?;
                }
                Ok(())
            }
            UciMove::Put { role, to } => write!(f, "{}@{to}", role.upper_char()),
            UciMove::Null => f.write_str("0000"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `push_to` writes what `Display` writes: every legal move of positions with
    /// drops, promotions and castling, and the null move.
    #[test]
    fn push_to_is_display() {
        for fen in [
            "r3k2r/pPpp1ppp/8/8/8/8/PpPP1PPP/R3K2R/QNp w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
        ] {
            let setup: crate::setup::Setup = fen.parse().unwrap();
            let pos = Position::from_setup(
                &setup,
                crate::variant::Rules::new(crate::variant::Variant::Crazyhouse),
            )
            .unwrap();
            for chess960 in [false, true] {
                for m in pos.legal_moves() {
                    let uci = m.to_uci(chess960);
                    let mut pushed = String::new();
                    uci.push_to(&mut pushed);
                    assert_eq!(pushed, uci.to_string());
                }
            }
        }
        let mut null = String::new();
        UciMove::Null.push_to(&mut null);
        assert_eq!(null, "0000");
    }

    #[test]
    fn parse_print() {
        for s in ["e2e4", "e7e8q", "N@d5", "P@e4", "0000", "e1h1"] {
            assert_eq!(s.parse::<UciMove>().unwrap().to_string(), s);
        }
        assert_eq!("p@e4".parse::<UciMove>().unwrap().to_string(), "P@e4");
        for (s, col) in [
            ("e2", 3),
            ("e2e9", 3),
            ("e7e8x", 5),
            ("K@e4", 1),
            ("e2e4q5", 6),
            ("", 1),
            ("N@d5x", 5),
            ("N@d", 3),
            ("N@z5", 3),
        ] {
            assert_eq!(s.parse::<UciMove>().unwrap_err().column, col, "{s}");
        }
        let e = "N@d5x".parse::<UciMove>().unwrap_err();
        assert_eq!(e.to_string(), "column 5: expected the end of the move");
    }

    /// The chess position of `fen`.
    fn chess(fen: &str) -> Position {
        let setup: crate::setup::Setup = fen.parse().unwrap();
        Position::from_setup(
            &setup,
            crate::variant::Rules::new(crate::variant::Variant::Chess),
        )
        .unwrap()
    }

    /// King takes own rook without the right on that wing is refused, even when castling
    /// on the other wing is legal.
    #[test]
    fn castling_onto_a_rook_needs_that_wing_s_right() {
        use crate::position::IllegalReason;
        for (fen, uci, legal) in [
            ("r3k2r/8/8/8/8/8/8/R3K2R w Q - 0 1", "e1h1", false),
            ("r3k2r/8/8/8/8/8/8/R3K2R w Q - 0 1", "e1a1", true),
            ("r3k2r/8/8/8/8/8/8/R3K2R w K - 0 1", "e1a1", false),
            ("r3k2r/8/8/8/8/8/8/R3K2R w K - 0 1", "e1h1", true),
        ] {
            let p = chess(fen);
            let m = uci.parse::<UciMove>().unwrap().to_move(&p);
            if legal {
                assert!(matches!(m, Ok(Move::Castle { .. })), "{fen} {uci}: {m:?}");
                assert_eq!(
                    m.unwrap().to_uci(p.is_chess960()).to_string(),
                    if uci == "e1h1" { "e1g1" } else { "e1c1" }
                );
            } else {
                assert_eq!(
                    m.map_err(|e| e.kind),
                    Err(IllegalReason::CastlingWithoutRight),
                    "{fen} {uci}"
                );
            }
        }
    }

    /// Rights written by file (`HAha`) make the position Chess960's, whose castling UCI
    /// is king-takes-rook; king-two-squares is castling there too when the king goes
    /// more than a file (no other king move does), and a king's step next to it stays a
    /// step.
    #[test]
    fn king_two_squares_is_castling_in_chess960_when_no_step_can_be_meant() {
        let shredder = chess("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
        assert!(shredder.is_chess960());
        for (uci, rook) in [
            ("e1g1", "h1"),
            ("e1h1", "h1"),
            ("e1c1", "a1"),
            ("e1a1", "a1"),
        ] {
            let m = uci.parse::<UciMove>().unwrap().to_move(&shredder);
            assert!(
                matches!(m, Ok(Move::Castle { rook: r, .. }) if r.to_string() == rook),
                "{uci}: {m:?}"
            );
        }
        // King f1, rook h1: f1g1 is the king's step, not castling.
        let step = chess("4k3/8/8/8/8/8/8/5K1R w H - 0 1");
        let m = "f1g1".parse::<UciMove>().unwrap().to_move(&step);
        assert!(matches!(m, Ok(Move::Normal { .. })), "{m:?}");
        let m = "f1h1".parse::<UciMove>().unwrap().to_move(&step);
        assert!(matches!(m, Ok(Move::Castle { .. })), "{m:?}");
    }
}
