//! The canonical SAN printer: least disambiguation, `+`/`#`, drops in either style.

use super::{CastlingSide, DropStyle, San, SanPlus, Spelling, Suffix};
use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Role, Square};

impl SanPlus {
    /// The SAN of legal move `m` in `pos`, with its check or mate suffix.
    pub fn from_move(pos: &Position, m: Move) -> SanPlus {
        let san = San::from_move(pos, m);
        let mut after = pos.clone();
        after.play_unchecked(m);
        let suffix = if after.is_checkmate() {
            Some(Suffix::Checkmate)
        } else if after.is_check() {
            Some(Suffix::Check)
        } else {
            None
        };
        SanPlus {
            san,
            suffix,
            glyph: None,
            spelling: Spelling::default(),
        }
    }

    /// Appends the canonical spelling (no glyph) with drops written in `style`.
    pub fn append_to(&self, out: &mut String, style: DropStyle) {
        self.san.append_to(out, style);
        match self.suffix {
            Some(Suffix::Check) => out.push('+'),
            Some(Suffix::Checkmate) => out.push('#'),
            None => {}
        }
    }

    /// The canonical spelling with drops written in `style`.
    pub fn to_string_with(&self, style: DropStyle) -> String {
        let mut s = String::with_capacity(8);
        self.append_to(&mut s, style);
        s
    }
}

impl San {
    /// Appends the canonical spelling with drops written in `style`.
    pub fn append_to(&self, out: &mut String, style: DropStyle) {
        match *self {
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    out.push(role.upper_char());
                }
                if let Some(f) = file {
                    out.push(f.char());
                }
                if let Some(r) = rank {
                    out.push(r.char());
                }
                if capture {
                    out.push('x');
                }
                out.push(to.file().char());
                out.push(to.rank().char());
                if let Some(p) = promotion {
                    out.push('=');
                    out.push(p.upper_char());
                }
            }
            San::Castle(CastlingSide::KingSide) => out.push_str("O-O"),
            San::Castle(CastlingSide::QueenSide) => out.push_str("O-O-O"),
            San::Put { role, to } => {
                if role != Role::Pawn || style == DropStyle::Letter {
                    out.push(role.upper_char());
                }
                out.push('@');
                out.push(to.file().char());
                out.push(to.rank().char());
            }
            San::Null => out.push_str("--"),
        }
    }

    /// The SAN of legal move `m` in `pos`, with the least disambiguation.
    pub fn from_move(pos: &Position, m: Move) -> San {
        match m {
            Move::Normal {
                role: Role::Pawn,
                from,
                capture,
                to,
                promotion,
            } => San::Normal {
                role: Role::Pawn,
                file: capture.is_some().then(|| from.file()),
                rank: None,
                capture: capture.is_some(),
                to,
                promotion,
            },
            Move::EnPassant { from, to } => San::Normal {
                role: Role::Pawn,
                file: Some(from.file()),
                rank: None,
                capture: true,
                to,
                promotion: None,
            },
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } if (pos.pseudo_origins(role, to) & !Bitboard::from_square(from)).is_empty() => {
                // No other piece of the role even reaches the square: no disambiguation.
                San::plain(role, capture, to, promotion)
            }
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                let others: Bitboard = pos
                    .legal_moves_to(role, to)
                    .iter()
                    .filter_map(|o| match *o {
                        Move::Normal { from: f, .. } if f != from => Some(f),
                        _ => None,
                    })
                    .collect();
                let (file, rank) = if others.is_empty() || role == Role::King {
                    (None, None)
                } else if (others & Bitboard::file(from.file())).is_empty() {
                    (Some(from.file()), None)
                } else if (others & Bitboard::rank(from.rank())).is_empty() {
                    (None, Some(from.rank()))
                } else {
                    (Some(from.file()), Some(from.rank()))
                };
                San::Normal {
                    role,
                    file,
                    rank,
                    capture: capture.is_some(),
                    to,
                    promotion,
                }
            }
            Move::Castle { king, rook } => San::Castle(if rook > king {
                CastlingSide::KingSide
            } else {
                CastlingSide::QueenSide
            }),
            Move::Put { role, to } => San::Put { role, to },
        }
    }

    /// A normal move written with no disambiguation.
    fn plain(role: Role, capture: Option<Role>, to: Square, promotion: Option<Role>) -> San {
        San::Normal {
            role,
            file: None,
            rank: None,
            capture: capture.is_some(),
            to,
            promotion,
        }
    }

    /// The canonical SAN of `m`, the move this SAN resolved to in `pos`. A piece move that
    /// resolved without disambiguation had a single legal candidate, so its canonical SAN
    /// needs none either and the candidates are not looked up again.
    pub fn canonical(&self, pos: &Position, m: Move) -> San {
        match (*self, m) {
            (
                San::Normal {
                    role,
                    file: None,
                    rank: None,
                    ..
                },
                Move::Normal {
                    capture,
                    to,
                    promotion,
                    ..
                },
            ) if role != Role::Pawn => San::plain(role, capture, to, promotion),
            _ => San::from_move(pos, m),
        }
    }
}
