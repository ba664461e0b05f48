//! Standard Algebraic Notation with drops: a nom parser into an unvalidated [`San`], its
//! resolution against a [`Position`](crate::Position) with precise reasons, and a canonical printer.
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

mod parse;
mod resolve;
mod write;

use std::fmt;
use std::str::FromStr;

pub use crate::moves::CastlingSide;
use crate::types::{File, Rank, Role, Square};
pub(crate) use write::Spell;

/// A move as SAN writes it, not yet checked against a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum San {
    /// A piece or pawn move.
    Normal {
        /// The moving piece (a pawn when no letter is written).
        role: Role,
        /// The origin file, when written.
        file: Option<File>,
        /// The origin rank, when written.
        rank: Option<Rank>,
        /// Whether `x` is written.
        capture: bool,
        /// The destination square.
        to: Square,
        /// The promotion role, when written.
        promotion: Option<Role>,
    },
    /// `O-O` or `O-O-O`.
    Castle(CastlingSide),
    /// A drop (`N@d5`, `@e4`).
    Put {
        /// The dropped role (a pawn for `@e4`).
        role: Role,
        /// The square dropped on.
        to: Square,
    },
    /// A null move (`--`, `Z0`).
    Null,
}

/// `+` or `#`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `+`
    Check,
    /// `#`
    Checkmate,
}

/// A move annotation glyph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Glyph {
    /// `!`
    Good,
    /// `?`
    Mistake,
    /// `!!`
    Brilliant,
    /// `??`
    Blunder,
    /// `!?`
    Speculative,
    /// `?!`
    Dubious,
}

impl Glyph {
    /// The glyph as written.
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

    /// The NAG that means the same (`!` is `$1`, `?!` is `$6`).
    pub fn nag(self) -> u8 {
        match self {
            Glyph::Good => 1,
            Glyph::Mistake => 2,
            Glyph::Brilliant => 3,
            Glyph::Blunder => 4,
            Glyph::Speculative => 5,
            Glyph::Dubious => 6,
        }
    }
}

/// Non-canonical spellings the parser accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Spelling {
    /// `0-0` for `O-O`.
    pub zero_castling: bool,
    /// `e8Q` for `e8=Q`.
    pub promotion_without_equals: bool,
    /// A lowercase drop or promotion letter.
    pub lowercase_piece: bool,
}

/// A SAN token: the move, its check suffix and glyph, and how it was spelled.
///
/// ```
/// use pocketfen::notation::san::{DropStyle, SanPlus};
/// use pocketfen::{Position, Variant};
/// let pos: Position = Position::from_fen(
///     "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR/ w KQkq - 0 3",
///     Some(Variant::Crazyhouse.into()),
/// )?;
/// // A token keeps its glyph; the move it names is resolved against the position …
/// let token: SanPlus = "exd5!".parse()?;
/// assert!(token.glyph.is_some());
/// let m = token.san.to_move(&pos)?;
/// // … and printed canonically, a pawn drop in the style the site expects.
/// assert_eq!(SanPlus::from_move(&pos, m).to_string_with(DropStyle::Letter), "exd5");
/// let mut pos = pos;
/// pos.play(m)?;
/// pos.play("Qxd5".parse::<SanPlus>()?.san.to_move(&pos)?)?;
/// let drop = "@d6".parse::<SanPlus>()?.san.to_move(&pos)?;
/// assert_eq!(SanPlus::from_move(&pos, drop).to_string_with(DropStyle::Letter), "P@d6");
/// assert_eq!(SanPlus::from_move(&pos, drop).to_string_with(DropStyle::Bare), "@d6");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SanPlus {
    /// The move.
    pub san: San,
    /// `+` or `#`, when written.
    pub suffix: Option<Suffix>,
    /// An annotation glyph, when written.
    pub glyph: Option<Glyph>,
    /// The leniencies the token used.
    pub spelling: Spelling,
}

/// A move in long algebraic notation: the origin square always written (`e2e4`, `e2-e4`,
/// `Ng1-f3`, `Nf3xe5`, `e7e8=Q`, `e7e8q`), as engines, WinBoard's engine lines and some
/// GUIs write PGN movetext; UCI's moves are its shortest form. Lichess (scalachess) and
/// python-chess read it in PGN; pocketfen reads it where a token is not SAN.
///
/// ```text
/// lan = [ ROLE / "P" ] square [ "-" / "x" ] square [ promotion ] [ "+" / "#" ] [ glyph ]
/// ```
///
/// ```
/// use pocketfen::notation::san::Lan;
/// use pocketfen::{Position, Variant};
/// let pos = Position::start(Variant::Chess);
/// let lan: Lan = "Ng1-f3".parse()?;
/// assert_eq!(lan.to_move(&pos)?, "Nf3".parse::<pocketfen::notation::san::San>()?.to_move(&pos)?);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Lan {
    /// The moving piece's letter, when written (`P` included).
    pub role: Option<Role>,
    /// The origin square.
    pub from: Square,
    /// Whether `x` is written.
    pub capture: bool,
    /// The destination square (castling: the king's, or its rook's).
    pub to: Square,
    /// The promotion role, when written.
    pub promotion: Option<Role>,
    /// `+` or `#`, when written.
    pub suffix: Option<Suffix>,
    /// An annotation glyph, when written.
    pub glyph: Option<Glyph>,
}

impl FromStr for Lan {
    type Err = ParseSanError;
    fn from_str(s: &str) -> Result<Lan, ParseSanError> {
        Lan::from_ascii(s.as_bytes())
    }
}

impl FromStr for San {
    type Err = ParseSanError;
    /// Parses a SAN token, dropping its suffix and glyph.
    fn from_str(s: &str) -> Result<San, ParseSanError> {
        SanPlus::from_ascii(s.as_bytes()).map(|p| p.san)
    }
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

impl DropStyle {
    /// Both styles.
    pub const ALL: [DropStyle; 2] = [DropStyle::Letter, DropStyle::Bare];

    /// `p-at` (`P@e4`) or `at` (`@e4`).
    pub const fn name(self) -> &'static str {
        match self {
            DropStyle::Letter => "p-at",
            DropStyle::Bare => "at",
        }
    }
}

impl FromStr for DropStyle {
    type Err = crate::name::ParseNameError;
    /// `p-at` or `at`.
    fn from_str(s: &str) -> Result<DropStyle, crate::name::ParseNameError> {
        let l = s.trim().to_ascii_lowercase();
        DropStyle::ALL
            .into_iter()
            .find(|d| d.name() == l)
            .ok_or_else(|| <DropStyle as crate::Choice>::unknown(s))
    }
}

impl crate::Choice for DropStyle {
    const WHAT: &'static str = "drop style";
    const NAMES: &'static [&'static str] = &crate::name::names_of!(DropStyle::ALL);
}

/// A SAN token that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSanError {
    /// 1-based character column within the token.
    pub column: usize,
    /// What was expected there.
    pub expected: &'static str,
    /// What stands there, quoted briefly (or `end of token`).
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

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.append_to(&mut s, DropStyle::Letter);
        f.write_str(&s)
    }
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
    /// Every defect, in declaration order.
    pub const ALL: [DefectKind; 9] = [
        DefectKind::OverDisambiguated,
        DefectKind::MissingCapture,
        DefectKind::SpuriousCapture,
        DefectKind::MissingCheck,
        DefectKind::WrongCheck,
        DefectKind::SpuriousCheck,
        DefectKind::PromotionWithoutEquals,
        DefectKind::ZeroCastling,
        DefectKind::LowercasePiece,
    ];

    /// The stable kebab-case name (`over-disambiguated`, …).
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
    /// What is not canonical.
    pub kind: DefectKind,
    /// The explanation, naming the canonical SAN.
    pub message: String,
}

impl fmt::Display for Defect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
