//! Standard Algebraic Notation with drops: a nom parser into an unvalidated [`San`], its
//! resolution against a [`Position`] with precise reasons, and a canonical printer.
//!
//! ```
//! use pocketfen::notation::san::{DropStyle, SanPlus};
//! use pocketfen::{Position, Variant};
//! let pos = Position::start(Variant::Crazyhouse);
//! let san: SanPlus = "Nf3".parse()?;
//! let m = san.san.to_move(&pos)?;
//! assert_eq!(SanPlus::from_move(&pos, m).to_string_with(DropStyle::Letter), "Nf3");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! # Grammar
//!
//! ```text
//! san-plus = san [ "+" / "#" ] [ glyph ]
//! san      = castle / null / drop / piece-move / pawn-move
//! castle   = "O-O-O" / "O-O" / "0-0-0" / "0-0"
//! null     = "--" / "Z0"
//! drop     = [ role ] "@" square                    ; role P N B R Q, either case
//! piece    = ROLE [ file ] [ rank ] [ "x" ] square  ; ROLE N B R Q K
//! pawn     = [ file "x" ] square [ [ "=" ] ROLE ]
//! glyph    = "!!" / "??" / "!?" / "?!" / "!" / "?"
//! ```
//!
//! # Leniencies
//!
//! Accepted always; under strict resolution each is a [`DefectKind`]: castling with zeros
//! (`0-0`), a promotion without `=` (`e8Q`), a lowercase drop or promotion letter (`n@d5`,
//! `e8=q`), over-disambiguation (`Nge2` where `Ne2` is unique), a missing or spurious `x`,
//! a missing or wrong `+`/`#`. `@e4` (no letter) is a pawn drop and is not a defect.

use std::fmt;
use std::str::FromStr;

use crate::bitboard::Bitboard;
pub use crate::moves::CastlingSide;
use crate::moves::Move;
use crate::position::{IllegalMove, IllegalReason, Position};
use crate::types::{Color, File, Rank, Role, Square};

/// A move as SAN writes it, not yet checked against a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum San {
    Normal {
        role: Role,
        file: Option<File>,
        rank: Option<Rank>,
        capture: bool,
        to: Square,
        promotion: Option<Role>,
    },
    Castle(CastlingSide),
    Put {
        role: Role,
        to: Square,
    },
    Null,
}

/// `+` or `#`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Suffix {
    Check,
    Checkmate,
}

/// A move annotation glyph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Glyph {
    Good,
    Mistake,
    Brilliant,
    Blunder,
    Speculative,
    Dubious,
}

impl Glyph {
    pub fn as_str(self) -> &'static str {
        match self {
            Glyph::Good => "!",
            Glyph::Mistake => "?",
            Glyph::Brilliant => "!!",
            Glyph::Blunder => "??",
            Glyph::Speculative => "!?",
            Glyph::Dubious => "?!",
        }
    }
}

/// Non-canonical spellings the parser accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Spelling {
    pub zero_castling: bool,
    pub promotion_without_equals: bool,
    pub lowercase_piece: bool,
}

/// A SAN token: the move, its check suffix and glyph, and how it was spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SanPlus {
    pub san: San,
    pub suffix: Option<Suffix>,
    pub glyph: Option<Glyph>,
    pub spelling: Spelling,
}

/// How to write pawn drops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DropStyle {
    /// `P@e4` (Lichess exports, Xboard, bughouse-db, Fairy-Stockfish).
    #[default]
    Letter,
    /// `@e4` (Chess.com, chessops, python-chess).
    Bare,
}

/// A SAN token that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSanError {
    /// 1-based byte column within the token.
    pub column: usize,
    pub expected: &'static str,
    pub found: String,
}

impl fmt::Display for ParseSanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "column {}: expected {}, found {}",
            self.column, self.expected, self.found
        )
    }
}

impl std::error::Error for ParseSanError {}

struct Cursor<'a> {
    s: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    fn eat_str(&mut self, t: &str) -> bool {
        if self.s[self.at..].starts_with(t.as_bytes()) {
            self.at += t.len();
            true
        } else {
            false
        }
    }
    fn err<T>(&self, expected: &'static str) -> Result<T, ParseSanError> {
        // Quoted briefly: a hostile token may be megabytes long.
        let rest = String::from_utf8_lossy(&self.s[self.at..]);
        let found = if rest.is_empty() {
            "end of token".to_owned()
        } else {
            crate::notation::nomerr::quote(&rest, 24)
        };
        Err(ParseSanError {
            column: self.at + 1,
            expected,
            found,
        })
    }
    /// `square = file rank`
    fn square(&mut self) -> Option<Square> {
        let sq = Square::from_ascii(self.s.get(self.at..self.at + 2)?).ok()?;
        self.at += 2;
        Some(sq)
    }
    fn file(&mut self) -> Option<File> {
        match self.peek() {
            Some(c @ b'a'..=b'h') => {
                self.at += 1;
                Some(File::new(c - b'a'))
            }
            _ => None,
        }
    }
    fn rank(&mut self) -> Option<Rank> {
        match self.peek() {
            Some(c @ b'1'..=b'8') => {
                self.at += 1;
                Some(Rank::new(c - b'1'))
            }
            _ => None,
        }
    }
}

/// `castle = "O-O-O" / "O-O" / "0-0-0" / "0-0"`
fn castle(c: &mut Cursor<'_>, spelling: &mut Spelling) -> Option<San> {
    for (text, side, zero) in [
        ("O-O-O", CastlingSide::QueenSide, false),
        ("0-0-0", CastlingSide::QueenSide, true),
        ("O-O", CastlingSide::KingSide, false),
        ("0-0", CastlingSide::KingSide, true),
    ] {
        if c.eat_str(text) {
            spelling.zero_castling = zero;
            return Some(San::Castle(side));
        }
    }
    None
}

/// `drop = [role] "@" square`
fn drop(c: &mut Cursor<'_>, spelling: &mut Spelling) -> Result<Option<San>, ParseSanError> {
    let role = match c.peek() {
        Some(b'@') => Role::Pawn,
        Some(l) if c.s.get(c.at + 1) == Some(&b'@') => match Role::from_char(l as char) {
            Some(r) => {
                spelling.lowercase_piece = l.is_ascii_lowercase();
                c.at += 1;
                r
            }
            None => return Ok(None),
        },
        _ => return Ok(None),
    };
    c.at += 1; // '@'
    match c.square() {
        Some(to) => Ok(Some(San::Put { role, to })),
        None => c.err("a square after `@`"),
    }
}

/// `promotion = ["="] ROLE`
fn promotion(c: &mut Cursor<'_>, spelling: &mut Spelling) -> Result<Option<Role>, ParseSanError> {
    let equals = c.eat(b'=');
    match c.peek().and_then(|l| {
        Role::from_char(l as char)
            .filter(|&r| r != Role::Pawn)
            .map(|r| (l, r))
    }) {
        Some((l, r)) => {
            c.at += 1;
            spelling.promotion_without_equals = !equals;
            spelling.lowercase_piece |= l.is_ascii_lowercase();
            Ok(Some(r))
        }
        None if equals => c.err("a promotion piece (Q R B N)"),
        None => Ok(None),
    }
}

/// `piece = ROLE [file] [rank] ["x"] square`
fn piece_move(c: &mut Cursor<'_>, role: Role) -> Result<San, ParseSanError> {
    // Read the longest run of file/rank/x characters, then split off the square.
    let start = c.at;
    while matches!(c.peek(), Some(b'a'..=b'h' | b'1'..=b'8' | b'x')) {
        c.at += 1;
    }
    let body = &c.s[start..c.at];
    if body.len() < 2 || Square::from_ascii(&body[body.len() - 2..]).is_err() {
        c.at = start;
        return c.err("a destination square");
    }
    let to = Square::from_ascii(&body[body.len() - 2..]).expect("square");
    let mut head = Cursor {
        s: &body[..body.len() - 2],
        at: 0,
    };
    let file = head.file();
    let rank = head.rank();
    let capture = head.eat(b'x');
    if head.at != head.s.len() {
        c.at = start + head.at;
        return c.err("a file, a rank, `x` or the destination square");
    }
    Ok(San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion: None,
    })
}

/// `pawn = [file "x"] square [promotion]`
fn pawn_move(c: &mut Cursor<'_>, spelling: &mut Spelling) -> Result<San, ParseSanError> {
    let start = c.at;
    let (file, capture) = match (c.file(), c.peek()) {
        (Some(f), Some(b'x')) => {
            c.at += 1;
            (Some(f), true)
        }
        _ => {
            c.at = start;
            (None, false)
        }
    };
    let Some(to) = c.square() else {
        return c.err("a move (a square, a piece letter, `@` or castling)");
    };
    let promotion = promotion(c, spelling)?;
    Ok(San::Normal {
        role: Role::Pawn,
        file,
        rank: None,
        capture,
        to,
        promotion,
    })
}

/// The shapes most moves in real games take (`e4`, `Nf3`, `exd5`, `Nxe5`, each with an
/// optional `+` or `#`), read without the general parser; `None` for anything else.
/// Reads exactly what [`SanPlus::parse`] reads for these shapes.
#[inline]
fn common_shape(s: &[u8]) -> Option<SanPlus> {
    let (body, suffix) = match s {
        [body @ .., b'+'] => (body, Some(Suffix::Check)),
        [body @ .., b'#'] => (body, Some(Suffix::Checkmate)),
        _ => (s, None),
    };
    let file = |c: u8| matches!(c, b'a'..=b'h').then(|| File::new(c - b'a'));
    let role = |c: u8| match c {
        b'N' => Some(Role::Knight),
        b'B' => Some(Role::Bishop),
        b'R' => Some(Role::Rook),
        b'Q' => Some(Role::Queen),
        b'K' => Some(Role::King),
        _ => None,
    };
    let (role, from_file, capture, to) = match *body {
        [f, r] => (Role::Pawn, None, false, [f, r]),
        [p, f, r] => (role(p)?, None, false, [f, r]),
        [p, b'x', f, r] => match role(p) {
            Some(role) => (role, None, true, [f, r]),
            None => (Role::Pawn, Some(file(p)?), true, [f, r]),
        },
        _ => return None,
    };
    Some(SanPlus {
        san: San::Normal {
            role,
            file: from_file,
            rank: None,
            capture,
            to: Square::from_ascii(&to).ok()?,
            promotion: None,
        },
        suffix,
        glyph: None,
        spelling: Spelling::default(),
    })
}

impl SanPlus {
    /// Parses one SAN token.
    ///
    /// # Errors
    ///
    /// [`ParseSanError`] with the column in the token and what was expected.
    #[inline]
    pub fn from_ascii(s: &[u8]) -> Result<SanPlus, ParseSanError> {
        match common_shape(s) {
            Some(san) => Ok(san),
            None => SanPlus::parse(s),
        }
    }

    fn parse(s: &[u8]) -> Result<SanPlus, ParseSanError> {
        let mut c = Cursor { s, at: 0 };
        let mut spelling = Spelling::default();
        // Dispatch on the first byte; drops are the only form with `@` second or first.
        let first = c.peek();
        let san = if matches!(first, Some(b'-' | b'Z')) && (c.eat_str("--") || c.eat_str("Z0")) {
            San::Null
        } else if let Some(san) = matches!(first, Some(b'O' | b'0'))
            .then(|| castle(&mut c, &mut spelling))
            .flatten()
        {
            san
        } else if let Some(san) = (first == Some(b'@') || s.get(1) == Some(&b'@'))
            .then(|| drop(&mut c, &mut spelling))
            .transpose()?
            .flatten()
        {
            san
        } else {
            match c.peek() {
                Some(l @ (b'N' | b'B' | b'R' | b'Q' | b'K')) => {
                    c.at += 1;
                    piece_move(&mut c, Role::from_char(l as char).expect("role"))?
                }
                _ => pawn_move(&mut c, &mut spelling)?,
            }
        };
        let suffix = if c.eat(b'#') {
            Some(Suffix::Checkmate)
        } else if c.eat(b'+') {
            Some(Suffix::Check)
        } else {
            None
        };
        let glyph = match &s[c.at..] {
            [] => None,
            rest => {
                let g = match rest {
                    [b'!', b'!', ..] => Some((2, Glyph::Brilliant)),
                    [b'?', b'?', ..] => Some((2, Glyph::Blunder)),
                    [b'!', b'?', ..] => Some((2, Glyph::Speculative)),
                    [b'?', b'!', ..] => Some((2, Glyph::Dubious)),
                    [b'!', ..] => Some((1, Glyph::Good)),
                    [b'?', ..] => Some((1, Glyph::Mistake)),
                    _ => None,
                };
                g.map(|(n, g)| {
                    c.at += n;
                    g
                })
            }
        };
        if c.at != s.len() {
            return c.err("the end of the move (after it only `+`, `#` and `!`/`?` glyphs)");
        }
        Ok(SanPlus {
            san,
            suffix,
            glyph,
            spelling,
        })
    }

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

impl FromStr for SanPlus {
    type Err = ParseSanError;
    fn from_str(s: &str) -> Result<SanPlus, ParseSanError> {
        SanPlus::from_ascii(s.as_bytes())
    }
}

impl fmt::Display for SanPlus {
    /// The canonical spelling, pawn drops as `P@e4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_with(DropStyle::Letter))
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

    /// The legal move this SAN names in `pos`.
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] with the precise reason.
    pub fn to_move(&self, pos: &Position) -> Result<Move, IllegalMove> {
        match *self {
            San::Normal {
                role,
                file,
                rank,
                capture: _,
                to,
                promotion,
            } => normal_to_move(pos, role, file, rank, to, promotion),
            San::Castle(side) => castle_to_move(pos, side),
            San::Put { role, to } => put_to_move(pos, role, to),
            San::Null => Err(IllegalMove::new(
                IllegalReason::NullMove,
                "a null move is not a move".to_owned(),
            )),
        }
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.append_to(&mut s, DropStyle::Letter);
        f.write_str(&s)
    }
}

/// The fast path of resolution: when exactly one piece of `role` fitting the SAN can reach
/// `to` (ignoring checks) and the mover's king is not attacked once the move is made, the
/// move is legal without generating anything. `None`: take the full path (which also
/// explains why a move is illegal). En passant, whose capture empties a third square,
/// always takes the full path.
fn single_candidate(
    pos: &Position,
    role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    to: Square,
    promotion: Option<Role>,
) -> Option<Move> {
    if role == Role::Pawn && pos.ep_square() == Some(to) {
        return None;
    }
    let mut origins = pos.pseudo_origins(role, to);
    if let Some(f) = file {
        origins &= Bitboard::file(f);
    } else if role == Role::Pawn {
        origins &= Bitboard::file(to.file());
    }
    if let Some(r) = rank {
        origins &= Bitboard::rank(r);
    }
    let from = origins.single_square()?;
    let board = pos.board();
    let us = pos.turn();
    if let Some(king) = board.king_of(us) {
        // The board after the move: `from` empty, `to` ours (a piece captured there
        // attacks nothing any more).
        let to_bb = Bitboard::from_square(to);
        let occ = (board.occupied() & !Bitboard::from_square(from)) | to_bb;
        let target = if role == Role::King { to } else { king };
        if (board.attackers_to(target, !us, occ) & !to_bb).any() {
            return None;
        }
    }
    Some(Move::Normal {
        role,
        from,
        capture: board.role_at(to),
        to,
        promotion,
    })
}

/// Resolves a piece or pawn move: SAN's own questions (a pawn push onto an occupied
/// square, ambiguity, no piece fitting the description) here, the rest by the engine.
fn normal_to_move(
    pos: &Position,
    role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    to: Square,
    promotion: Option<Role>,
) -> Result<Move, IllegalMove> {
    let fits = |from: Square| {
        file.is_none_or(|f| from.file() == f) && rank.is_none_or(|r| from.rank() == r)
    };
    pos.check_promotion(role, to, promotion)?;
    // Without a file, a pawn SAN is a push from the same file.
    if role == Role::Pawn && file.is_none() && pos.board().occupied().contains(to) {
        return Err(IllegalMove::new(
            IllegalReason::NoSuchPiece,
            format!(
                "{to} is occupied, and a pawn move without a file is a push (a capture names the pawn's file)"
            ),
        ));
    }
    if let Some(m) = single_candidate(pos, role, file, rank, to, promotion) {
        return Ok(m);
    }
    let candidates = pos.legal_moves_to(role, to);
    let mut fitting = candidates.iter().filter(|m| match **m {
        Move::Normal {
            from, promotion: p, ..
        } => {
            fits(from)
                && p == promotion
                && (role != Role::Pawn || file.is_some() || from.file() == to.file())
        }
        Move::EnPassant { from, .. } => fits(from) && promotion.is_none(),
        _ => false,
    });
    match (fitting.next(), fitting.next()) {
        (Some(m), None) => return Ok(*m),
        (None, _) => {}
        (Some(_), Some(_)) => {
            let many: Vec<Move> = candidates
                .iter()
                .copied()
                .filter(|m| m.from().is_some_and(fits) && m.promotion() == promotion)
                .collect();
            let list: Vec<String> = many
                .iter()
                .map(|m| San::from_move(pos, *m).to_string())
                .collect();
            return Err(IllegalMove::new(
                IllegalReason::Ambiguous,
                format!("{} moves fit: {}", many.len(), list.join(", ")),
            ));
        }
    }
    // No legal move fits: the engine explains the move of a piece that fits the SAN (a
    // pawn capture names its origin by its file alone).
    let pawn_capture_origin = || {
        let empty = !pos.board().occupied().contains(to) && pos.ep_square() != Some(to);
        let f = file.filter(|&f| role == Role::Pawn && f != to.file() && empty)?;
        let behind = to.offset(if pos.turn() == Color::White { -8 } else { 8 })?;
        Some(Square::from_coords(f, behind.rank()))
    };
    let origin = pos
        .pseudo_origins(role, to)
        .find(|&f| fits(f) && (role != Role::Pawn || file.is_some() || f.file() == to.file()))
        .or_else(pawn_capture_origin);
    let Some(from) = origin else {
        let whence = match (file, rank) {
            (Some(f), Some(r)) => format!(" from {}", Square::from_coords(f, r)),
            (Some(f), None) => format!(" from the {}-file", f.char()),
            (None, Some(r)) => format!(" from rank {}", r.char()),
            (None, None) => String::new(),
        };
        return Err(pos.no_such_piece(role, &whence, to));
    };
    let m = if role == Role::Pawn && pos.ep_square() == Some(to) && from.file() != to.file() {
        Move::EnPassant { from, to }
    } else {
        Move::Normal {
            role,
            from,
            capture: pos.board().role_at(to),
            to,
            promotion,
        }
    };
    pos.check(m).map(|()| m)
}

fn castle_to_move(pos: &Position, side: CastlingSide) -> Result<Move, IllegalMove> {
    let m = pos.castling_move(side)?;
    pos.check(m).map(|()| m)
}

fn put_to_move(pos: &Position, role: Role, to: Square) -> Result<Move, IllegalMove> {
    let m = Move::Put { role, to };
    pos.check(m).map(|()| m)
}

/// A spelling that strict resolution reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DefectKind {
    /// `Nge2` where `Ne2` names the move.
    OverDisambiguated,
    /// A capture written without `x`.
    MissingCapture,
    /// `x` on a move that captures nothing.
    SpuriousCapture,
    /// A check or mate written without `+`/`#`.
    MissingCheck,
    /// `+` on a mate, or `#` on a check that is not mate.
    WrongCheck,
    /// `+` or `#` on a move that gives no check.
    SpuriousCheck,
    /// `e8Q` for `e8=Q`.
    PromotionWithoutEquals,
    /// `0-0` for `O-O`.
    ZeroCastling,
    /// A lowercase piece letter (`n@d5`, `e8=q`).
    LowercasePiece,
}

impl DefectKind {
    pub fn name(self) -> &'static str {
        match self {
            DefectKind::OverDisambiguated => "over-disambiguated",
            DefectKind::MissingCapture => "missing-capture",
            DefectKind::SpuriousCapture => "spurious-capture",
            DefectKind::MissingCheck => "missing-check",
            DefectKind::WrongCheck => "wrong-check",
            DefectKind::SpuriousCheck => "spurious-check",
            DefectKind::PromotionWithoutEquals => "promotion-without-equals",
            DefectKind::ZeroCastling => "zero-castling",
            DefectKind::LowercasePiece => "lowercase-piece",
        }
    }
}

/// A non-canonical spelling of a legal move, found by strict resolution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defect {
    pub kind: DefectKind,
    pub message: String,
}

impl fmt::Display for Defect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.message)
    }
}

impl SanPlus {
    /// Resolves the move in `pos` and, under `strict`, lists every defect of its spelling
    /// (the canonical SAN is named in each message).
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] when the move is not legal (in both modes).
    pub fn resolve(
        &self,
        pos: &Position,
        strict: bool,
    ) -> Result<(Move, Vec<Defect>), IllegalMove> {
        let m = self.san.to_move(pos)?;
        if !strict {
            return Ok((m, Vec::new()));
        }
        let canonical = SanPlus::from_move(pos, m);
        let canon = canonical.to_string_with(DropStyle::Letter);
        let mut defects = Vec::new();
        let mut add = |kind, what: &str| {
            defects.push(Defect {
                kind,
                message: format!("{what}; canonical SAN is {canon}"),
            })
        };
        if self.spelling.zero_castling {
            add(DefectKind::ZeroCastling, "castling written with zeros");
        }
        if self.spelling.promotion_without_equals {
            add(
                DefectKind::PromotionWithoutEquals,
                "promotion written without `=`",
            );
        }
        if self.spelling.lowercase_piece {
            add(DefectKind::LowercasePiece, "lowercase piece letter");
        }
        if let (
            San::Normal {
                role,
                file,
                rank,
                capture,
                ..
            },
            San::Normal {
                file: cf,
                rank: cr,
                capture: cc,
                ..
            },
        ) = (self.san, canonical.san)
        {
            if role != Role::Pawn
                && (file.is_some() && cf.is_none() || rank.is_some() && cr.is_none())
            {
                add(
                    DefectKind::OverDisambiguated,
                    "more disambiguation than needed",
                );
            }
            if cc && !capture {
                add(DefectKind::MissingCapture, "a capture written without `x`");
            }
            if capture && !cc {
                add(
                    DefectKind::SpuriousCapture,
                    "`x` on a move that captures nothing",
                );
            }
        }
        match (self.suffix, canonical.suffix) {
            (None, Some(_)) => add(
                DefectKind::MissingCheck,
                "the move gives check but has no `+`/`#`",
            ),
            (Some(_), None) => add(
                DefectKind::SpuriousCheck,
                "`+`/`#` on a move that gives no check",
            ),
            (Some(a), Some(b)) if a != b => add(DefectKind::WrongCheck, "`+` and `#` confused"),
            _ => {}
        }
        Ok((m, defects))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcut reads every token up to five bytes over the SAN alphabet exactly as
    /// the general parser does, and takes the common shapes.
    #[test]
    fn common_shapes_read_as_the_general_parser_reads_them() {
        const ALPHABET: &[u8] = b"aeh18NKxP+#=Q@-O!";
        let mut taken = 0;
        let mut token = Vec::new();
        fn walk(token: &mut Vec<u8>, taken: &mut usize) {
            if let Some(fast) = common_shape(token) {
                assert_eq!(
                    Ok(fast),
                    SanPlus::parse(token),
                    "{:?}",
                    String::from_utf8_lossy(token)
                );
                *taken += 1;
            }
            if token.len() == 5 {
                return;
            }
            for &c in ALPHABET {
                token.push(c);
                walk(token, taken);
                token.pop();
            }
        }
        walk(&mut token, &mut taken);
        for common in ["e4", "Nf3", "exd5", "Nxe5+", "Kxh1#", "a8", "Qh5"] {
            assert!(common_shape(common.as_bytes()).is_some(), "{common}");
        }
        assert!(taken > 100, "{taken}");
    }

    #[test]
    fn parse_and_print_forms() {
        for (input, canonical) in [
            ("e4", "e4"),
            ("exd5", "exd5"),
            ("e8=Q+", "e8=Q+"),
            ("e8Q", "e8=Q"),
            ("bxa1=n#", "bxa1=N#"),
            ("Nbd2", "Nbd2"),
            ("R1a3", "R1a3"),
            ("Qh4xe1", "Qh4xe1"),
            ("O-O", "O-O"),
            ("0-0-0+", "O-O-O+"),
            ("N@d5", "N@d5"),
            ("@e4", "P@e4"),
            ("P@e4!?", "P@e4"),
            ("n@f7#", "N@f7#"),
            ("--", "--"),
            ("Z0", "--"),
            ("Kxe2??", "Kxe2"),
        ] {
            let san: SanPlus = input.parse().unwrap_or_else(|e| panic!("{input}: {e}"));
            assert_eq!(san.to_string(), canonical, "{input}");
        }
        assert_eq!(
            "@e4"
                .parse::<SanPlus>()
                .unwrap()
                .to_string_with(DropStyle::Bare),
            "@e4"
        );
    }

    #[test]
    fn parse_errors_have_columns() {
        for (input, column) in [
            ("", 1),
            ("e9", 1),
            ("Nz3", 2),
            ("e8=", 4),
            ("N@", 3),
            ("e4x", 3),
            ("Nf3 ", 4),
            ("O-O-", 4),
        ] {
            let e = input.parse::<SanPlus>().unwrap_err();
            assert_eq!(e.column, column, "{input}: {e}");
        }
    }
}
