//! Variants and the rule options of a game.
//!
//! The rules of each variant are data here; the move generator reads them.
//!
//! ```
//! use pocketfen::Variant;
//! assert_eq!("Crazy House".parse::<Variant>(), Ok(Variant::Crazyhouse));
//! // Chess960's starts and castling come from the FEN, whatever the variant.
//! assert_eq!("Crazyhouse960".parse::<Variant>(), Ok(Variant::Crazyhouse));
//! assert_eq!("bughouse 960".parse::<Variant>(), Ok(Variant::Bughouse));
//! assert!("horde960".parse::<Variant>().is_err());
//! assert!(Variant::Chessgi.first_rank_pawn_drops());
//! ```

use std::fmt;
use std::str::FromStr;

use crate::name::{Choice, ParseNameError, names_of};
use crate::setup::Setup;

/// A chess variant pocketfen plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Standard chess (Chess960 castling from the FEN).
    Chess,
    /// Crazyhouse: captured pieces change colour and may be dropped.
    Crazyhouse,
    /// Crazyhouse, but captured promoted pieces keep their rank.
    Loop,
    /// Loop, and pawns may also be dropped on the dropper's own first rank.
    Chessgi,
    /// 36 white pawns, no white king, against a normal black army.
    Horde,
    /// One board of a bughouse match: captures go to the partner's pocket.
    Bughouse,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 6] = [
        Variant::Chess,
        Variant::Crazyhouse,
        Variant::Loop,
        Variant::Chessgi,
        Variant::Horde,
        Variant::Bughouse,
    ];

    /// The lowercase name, as the CLI spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::Crazyhouse => "crazyhouse",
            Variant::Loop => "loop",
            Variant::Chessgi => "chessgi",
            Variant::Horde => "horde",
            Variant::Bughouse => "bughouse",
        }
    }

    /// Pieces in hand may be dropped.
    #[inline]
    pub fn has_drops(self) -> bool {
        matches!(
            self,
            Variant::Crazyhouse | Variant::Loop | Variant::Chessgi | Variant::Bughouse
        )
    }

    /// A captured promoted piece goes to the pocket as a pawn.
    #[inline]
    pub fn demotes_captured(self) -> bool {
        matches!(self, Variant::Crazyhouse | Variant::Bughouse)
    }

    /// Pawns may be dropped on the dropper's own first rank.
    #[inline]
    pub fn first_rank_pawn_drops(self) -> bool {
        self == Variant::Chessgi
    }

    /// White has no king and its pawns may double-step from rank 1 too.
    #[inline]
    pub fn is_horde(self) -> bool {
        self == Variant::Horde
    }

    /// The start position.
    pub fn start(self) -> Setup {
        match self {
            Variant::Chess => Setup::standard(),
            Variant::Horde => Setup::horde_start(),
            _ => Setup::crazyhouse_start(),
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The variant a FEN most likely belongs to: Bughouse for a pair, Crazyhouse when it
/// has a pocket or a promoted piece, Horde when White has no king but Black has one, Chess
/// otherwise.
pub fn guess_variant(fen: &crate::setup::Fen) -> Variant {
    use crate::types::Color;
    match fen {
        crate::setup::Fen::Pair(_) => Variant::Bughouse,
        crate::setup::Fen::Single(s) if s.pockets.is_some() || s.promoted.any() => {
            Variant::Crazyhouse
        }
        crate::setup::Fen::Single(s)
            if s.board.king_of(Color::White).is_none()
                && s.board.king_of(Color::Black).is_some() =>
        {
            Variant::Horde
        }
        crate::setup::Fen::Single(_) => Variant::Chess,
    }
}

impl FromStr for Variant {
    type Err = ParseNameError;
    /// Case-insensitive names and the aliases of Lichess, chessops, python-chess,
    /// cutechess and Xboard (`ZH`, `House`, `Crazy House`, `Standard`, `normal`,
    /// `From Position`, `Horde chess`, `wild/…`); the Chess960 spellings (`Chess960`,
    /// `chess 960`, `fischerandom`, `Fischer Random`, `960`, `FRC`) are chess, and
    /// pychess-variants' and Fairy-Stockfish's `Crazyhouse960` and `Bughouse960` (also
    /// `crazyhouse 960`, `bughouse-960`) are crazyhouse and bughouse: the FEN says their
    /// castling.
    fn from_str(s: &str) -> Result<Variant, ParseNameError> {
        let l = s.trim().to_ascii_lowercase();
        if let Some(v) = Variant::ALL.into_iter().find(|v| v.name() == l) {
            return Ok(v);
        }
        // The other names tags and sites give.
        Ok(match l.as_str() {
            "standard" | "normal" | "from position" | "fromposition" => Variant::Chess,
            _ if names_chess960(&l) || l.starts_with("wild/") => Variant::Chess,
            "crazy house" | "house" | "zh" => Variant::Crazyhouse,
            "horde chess" => Variant::Horde,
            "bug" => Variant::Bughouse,
            _ => match pocket960(&l) {
                Some(v) => v,
                None => return Err(Variant::unknown(s)),
            },
        })
    }
}

/// The pocket variant a lowercase `[Variant]` value names with Chess960's start
/// positions and castling (`crazyhouse960`, `bughouse 960`, `bughouse-960`).
fn pocket960(lower: &str) -> Option<Variant> {
    let base = lower.trim().strip_suffix("960")?;
    match base.trim_end_matches([' ', '-', '_']) {
        "crazyhouse" => Some(Variant::Crazyhouse),
        "bughouse" => Some(Variant::Bughouse),
        _ => None,
    }
}

/// Whether a lowercase `[Variant]` value names a variant with Chess960's start positions
/// and castling: Chess960 itself, Crazyhouse960 or Bughouse960.
pub(crate) fn names_960(lower: &str) -> bool {
    names_chess960(lower) || pocket960(lower).is_some()
}

impl Choice for Variant {
    const WHAT: &'static str = "variant";
    const NAMES: &'static [&'static str] = &names_of!(Variant::ALL);
}

/// Whether a lowercase `[Variant]` value names Chess960.
pub(crate) fn names_chess960(lower: &str) -> bool {
    matches!(
        lower.trim(),
        "chess960" | "chess 960" | "fischerandom" | "fischer random" | "960" | "frc"
    )
}

/// Where a captured piece goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CaptureMode {
    /// Into the capturer's pocket (variants with drops); nowhere otherwise.
    ToPocket,
    /// Handed back to the caller of `play` (demoted to a pawn when the variant demotes),
    /// for a bughouse match to route to the partner board.
    Return,
}

/// The rules of one game: the variant and its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The variant.
    pub variant: Variant,
    /// A drop may give checkmate (the default). When `false`, a drop that mates is illegal;
    /// other drop checks stay legal.
    pub drop_mate: bool,
    /// Where captured pieces go.
    pub captures: CaptureMode,
}

impl Rules {
    /// The default rules of `variant` (Bughouse boards return captures to the caller).
    pub fn new(variant: Variant) -> Rules {
        let captures = if variant == Variant::Bughouse {
            CaptureMode::Return
        } else {
            CaptureMode::ToPocket
        };
        Rules {
            variant,
            drop_mate: true,
            captures,
        }
    }

    /// These rules with drop-mate allowed or forbidden.
    ///
    /// ```
    /// use pocketfen::{Rules, Variant};
    /// let rules = Rules::new(Variant::Crazyhouse).with_drop_mate(false);
    /// assert!(!rules.drop_mate);
    /// ```
    #[must_use]
    pub fn with_drop_mate(mut self, allowed: bool) -> Rules {
        self.drop_mate = allowed;
        self
    }

    /// These rules with captured pieces going where `captures` says.
    #[must_use]
    pub fn with_captures(mut self, captures: CaptureMode) -> Rules {
        self.captures = captures;
        self
    }
}

impl From<Variant> for Rules {
    fn from(v: Variant) -> Rules {
        Rules::new(v)
    }
}
