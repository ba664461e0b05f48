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

/// Where a SAN is spelled: a `String`, or a fixed room of `N` bytes (a row's SAN, which
/// is then written in place, not through a string copied into it).
pub(crate) trait Spell {
    /// Adds a character (to a fixed room: when it fits; a SAN is at most 9 bytes).
    fn put(&mut self, c: char);
    /// Adds characters.
    fn put_str(&mut self, s: &str);
}

impl Spell for String {
    fn put(&mut self, c: char) {
        self.push(c);
    }
    fn put_str(&mut self, s: &str) {
        self.push_str(s);
    }
}

impl<const N: usize> Spell for arrayvec::ArrayString<N> {
    fn put(&mut self, c: char) {
        let _ = self.try_push(c);
    }
    fn put_str(&mut self, s: &str) {
        let _ = self.try_push_str(s);
    }
}

impl San {
    /// Appends the canonical spelling with drops written in `style`.
    pub fn append_to(&self, out: &mut String, style: DropStyle) {
        self.spell(out, style);
    }

    /// Appends the canonical spelling with drops written in `style`, to a string or a
    /// fixed room.
    pub(crate) fn spell<S: Spell>(&self, out: &mut S, style: DropStyle) {
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
                    out.put(role.upper_char());
                }
                if let Some(f) = file {
                    out.put(f.char());
                }
                if let Some(r) = rank {
                    out.put(r.char());
                }
                if capture {
                    out.put('x');
                }
                out.put(to.file().char());
                out.put(to.rank().char());
                if let Some(p) = promotion {
                    out.put('=');
                    out.put(p.upper_char());
                }
            }
            San::Castle(CastlingSide::KingSide) => out.put_str("O-O"),
            San::Castle(CastlingSide::QueenSide) => out.put_str("O-O-O"),
            San::Put { role, to } => {
                if role != Role::Pawn || style == DropStyle::Letter {
                    out.put(role.upper_char());
                }
                out.put('@');
                out.put(to.file().char());
                out.put(to.rank().char());
            }
            San::Null => out.put_str("--"),
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
