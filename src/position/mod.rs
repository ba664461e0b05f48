//! Playable positions of every variant: validation, legal moves, play and outcome.
//!
//! A [`Position`] is built only from a [`Setup`] that passes validation; one type serves
//! every variant, whose rules are the data in [`Rules`].
//!
//! ```
//! use pocketfen::{Position, Rules, Setup, Variant};
//! let pos = Position::from_setup(&Setup::crazyhouse_start(), Rules::new(Variant::Crazyhouse))?;
//! assert_eq!(pos.legal_moves().len(), 20);
//! # Ok::<_, pocketfen::PositionError>(())
//! ```

mod legality;
mod movegen;
mod outcome;
#[cfg(test)]
pub(crate) mod testing;
mod validity;

pub use legality::{IllegalMove, IllegalReason};
pub use movegen::SquareMoves;
pub use outcome::{EndReason, Outcome};
pub(crate) use validity::too_much_material;
pub use validity::{PositionError, SetupProblem, SetupProblemKind};

use std::fmt;

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::moves::{Move, castle_king_to, castle_rook_to};
use crate::setup::{Castling, CastlingFlag, CastlingSpec, Pocket, Setup};
use crate::types::{ByColor, Color, Piece, Rank, Role, Square};
use crate::variant::{CaptureMode, Rules, Variant};

/// A legal position of some variant, ready to generate and play moves.
///
/// Made from a FEN ([`Position::from_fen`]), a [`Setup`] ([`Position::from_setup`]) or
/// a variant's start ([`Position::start`]); printed back through
/// [`to_setup`](Position::to_setup) and [`Setup::display`].
///
/// ```
/// use pocketfen::notation::fen::FenDialect;
/// use pocketfen::notation::san::SanPlus;
/// use pocketfen::{Position, Role, Variant};
/// let mut pos = Position::start(Variant::Crazyhouse);
/// for san in ["e4", "d5", "exd5", "Qxd5", "Nc3"] {
///     let m = san.parse::<SanPlus>()?.san.to_move(&pos)?;
///     pos.play(m)?;
/// }
/// // White took a pawn, Black took one back: each has a pawn in hand.
/// assert_eq!(pos.pockets().black.get(Role::Pawn), 1);
/// assert_eq!(pos.legal_moves().len(), 47 + 32); // 47 on the board, 32 pawn drops
/// assert_eq!(
///     pos.to_setup().display(FenDialect::Lichess).to_string(),
///     "rnb1kbnr/ppp1pppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR/Pp b KQkq - 1 3"
/// );
/// assert_eq!(pos.outcome(), None);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    promoted: Bitboard,
    pockets: ByColor<Pocket>,
    turn: Color,
    /// Rook squares that still carry a castling right.
    castling_rights: Bitboard,
    /// Set after a double step, only when a pawn could take en passant.
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    rules: Rules,
    /// Castling is written Chess960-style (king takes rook, file letters).
    chess960: bool,
}

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// Worth knowing; the input is still valid.
    Warning,
    /// The input is not valid.
    Error,
}

impl Severity {
    /// Both severities.
    pub const ALL: [Severity; 2] = [Severity::Warning, Severity::Error];

    /// `warning` or `error`.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Position {
    /// Validates `setup` under `rules`.
    ///
    /// # Errors
    ///
    /// [`PositionError`] listing every problem, when any of them is an error.
    pub fn from_setup(setup: &Setup, rules: Rules) -> Result<Position, PositionError> {
        let (position, problems) = Position::build(setup, rules);
        if problems.iter().any(|p| p.severity == Severity::Error) {
            Err(PositionError {
                problems,
                position: Box::new(position),
            })
        } else {
            Ok(position)
        }
    }

    /// Every problem with `setup` under `rules`, errors and warnings.
    pub fn check_setup(setup: &Setup, rules: Rules) -> Vec<SetupProblem> {
        Position::build(setup, rules).1
    }

    /// The en passant square a FEN of `setup` writes: the one written, when an en passant
    /// capture there is legal (Lichess writes it only then, and python-chess's and
    /// shakmaty's FENs by default); for a setup that is no legal position, when a pawn of
    /// the side to move attacks it after a double step that could have been played.
    ///
    /// ```
    /// use pocketfen::{Position, Rules, Setup, Variant};
    /// let setup: Setup = "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 2".parse()?;
    /// assert_eq!(Position::fen_ep_square(&setup, Rules::new(Variant::Chess)), None);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn fen_ep_square(setup: &Setup, rules: Rules) -> Option<Square> {
        setup.ep_square?;
        let (pos, problems) = Position::build(setup, rules);
        if problems.iter().any(|p| p.severity == Severity::Error) {
            pos.ep_square
        } else {
            pos.legal_ep_square()
        }
    }

    /// `setup` without the castling rights that its kings and rooks do not allow (no king
    /// on its back rank, no rook for the letter, a second right on one wing), and the
    /// rights dropped, in the order written: what python-chess's `clean_castling_rights`
    /// and Lichess drop from a FEN.
    ///
    /// ```
    /// use pocketfen::{Position, Rules, Setup, Variant};
    /// let setup: Setup = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1".parse()?;
    /// let (clean, dropped) = Position::clean_castling(&setup, Rules::new(Variant::Chess));
    /// assert_eq!(dropped.iter().map(|f| f.char()).collect::<String>(), "K");
    /// assert!(Position::from_setup(&clean, Rules::new(Variant::Chess)).is_ok());
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn clean_castling(setup: &Setup, rules: Rules) -> (Setup, Vec<CastlingFlag>) {
        let invalid = |s: &Setup| {
            Position::build(s, rules)
                .1
                .iter()
                .any(|p| p.kind == SetupProblemKind::InvalidCastlingRights)
        };
        let mut clean = setup.clone();
        clean.castling = Castling::none();
        let mut dropped = Vec::new();
        for flag in setup.castling.iter() {
            let mut tried = clean.clone();
            tried.castling.push(flag);
            if invalid(&tried) {
                dropped.push(flag);
            } else {
                clean = tried;
            }
        }
        (clean, dropped)
    }

    /// What [`Position::clean_castling`] dropped, as messages say it (`castling rights
    /// `KQ` without a king and rook for them`), for `validate`'s `[FEN]` tag and the
    /// commands that play a pasted FEN alike.
    pub fn dropped_castling(dropped: &[CastlingFlag]) -> String {
        let letters: String = dropped.iter().map(|f| f.char()).collect();
        let (rights, them) = if dropped.len() == 1 {
            ("right", "it")
        } else {
            ("rights", "them")
        };
        format!("castling {rights} `{letters}` without a king and rook for {them}")
    }

    /// The start position of `variant` with its default rules.
    pub fn start(variant: Variant) -> Position {
        Position::start_with(Rules::new(variant))
    }

    /// The start position of `rules`' variant under `rules`. The start positions of the
    /// default rules are built once and copied: an archive of short games builds one a
    /// game, and building checks the whole setup (about 900 instructions).
    pub(crate) fn start_with(rules: Rules) -> Position {
        static STARTS: std::sync::OnceLock<Vec<Position>> = std::sync::OnceLock::new();
        let build = |rules: Rules| {
            Position::from_setup(&rules.variant.start(), rules).expect("start positions are legal")
        };
        let starts = STARTS.get_or_init(|| {
            Variant::ALL
                .into_iter()
                .map(|v| build(Rules::new(v)))
                .collect()
        });
        match starts.iter().find(|p| p.rules == rules) {
            Some(start) => start.clone(),
            None => build(rules),
        }
    }

    // ----- accessors -----

    /// The pieces on the board.
    pub fn board(&self) -> &Board {
        &self.board
    }
    /// The squares of promoted pieces (pocket variants).
    pub fn promoted(&self) -> Bitboard {
        self.promoted
    }
    /// Both pockets (empty in variants without drops).
    pub fn pockets(&self) -> &ByColor<Pocket> {
        &self.pockets
    }
    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }
    /// The rules played under.
    pub fn rules(&self) -> Rules {
        self.rules
    }
    /// The variant played.
    pub fn variant(&self) -> Variant {
        self.rules.variant
    }
    /// Rook squares that still carry a castling right.
    pub fn castling_rights(&self) -> Bitboard {
        self.castling_rights
    }
    /// The en passant square, set only when a capture there is pseudo-legal.
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }
    /// Half-moves since the last capture or pawn move.
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }
    /// The full-move number, starting at 1.
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }
    /// Whether castling is written Chess960-style.
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Marks the position as Chess960's (a game whose `[Variant]` says so): castling is
    /// then written in UCI as the king taking its rook (`e1h1`), though the king and rooks
    /// stand where chess has them (18 of the 960 start positions, among them the
    /// standard one), which the position alone cannot tell.
    pub fn set_chess960(&mut self) {
        self.chess960 = true;
    }

    /// Sets whether a drop may give checkmate.
    pub fn set_drop_mate(&mut self, allowed: bool) {
        self.rules.drop_mate = allowed;
    }

    /// Sets where captured pieces go.
    pub fn set_capture_mode(&mut self, mode: CaptureMode) {
        self.rules.captures = mode;
    }

    /// Adds a piece to a pocket (a bughouse partner's capture). Returns `false` if the
    /// variant has no pockets, the piece is a king or the count is full.
    pub fn add_to_pocket(&mut self, piece: Piece) -> bool {
        self.rules.variant.has_drops() && self.pockets[piece.color].add(piece.role)
    }

    #[inline]
    fn our_king(&self) -> Option<Square> {
        self.board.king_of(self.turn)
    }

    /// The pieces giving check to the side to move.
    pub fn checkers(&self) -> Bitboard {
        match self.our_king() {
            Some(k) => self
                .board
                .attackers_to(k, !self.turn, self.board.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        // Not the checkers: whether there is one (the steppers first, a slider's table
        // only when one stands on the king's lines).
        self.our_king()
            .is_some_and(|k| self.board.is_attacked(k, !self.turn, self.board.occupied()))
    }

    /// A key equal for positions that count as the same for threefold repetition: same
    /// pieces on the same squares, promoted marks, pockets, side to move, castling rights
    /// and en passant square (kept only when a capture there is possible). Clocks are left
    /// out. Collisions are possible but rare (a 64-bit mix of the parts).
    pub fn repetition_key(&self) -> u64 {
        let mut h = self.placement_key();
        h = key_mix(h, self.promoted.0);
        for color in Color::ALL {
            let [p, n, b, r, q] = self.pockets[color].counts();
            h = key_mix(h, u64::from_le_bytes([0, 0, 0, p, n, b, r, q]));
        }
        h
    }

    /// A key of what the pieces on the board, the castling rights, the side to move and
    /// the en passant square (kept only when a capture there is possible) make: the
    /// [`Position::repetition_key`] without pockets and promoted marks. Lichess names
    /// openings by it, so that a crazyhouse game is named as the chess game on its board.
    pub fn placement_key(&self) -> u64 {
        let b = &self.board;
        let mut h = key_mix(0, b.by_color(Color::White).0);
        for role in Role::ALL {
            h = key_mix(h, b.by_role(role).0);
        }
        h = key_mix(h, self.castling_rights.0);
        let ep = self.legal_ep_square();
        key_mix(
            h,
            u64::from(self.turn == Color::White) | (ep.map_or(64, |s| s.index() as u64) << 1),
        )
    }

    /// The en passant square when an en-passant capture there is legal (the square a FEN
    /// names: Lichess writes it only then, and so do python-chess's and shakmaty's
    /// defaults).
    pub fn legal_ep_square(&self) -> Option<Square> {
        self.ep_square.filter(|&sq| {
            self.legal_moves_to(Role::Pawn, sq)
                .iter()
                .any(|m| matches!(m, Move::EnPassant { .. }))
        })
    }

    /// A draw may be claimed under the 50-move rule.
    pub fn is_fifty_move_claimable(&self) -> bool {
        self.halfmoves >= 100
    }

    /// Plays `m` if it is legal; returns the piece a capture hands to the caller
    /// ([`CaptureMode::Return`]).
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] with the reason when `m` is not legal; the position is unchanged.
    pub fn play(&mut self, m: Move) -> Result<Option<Piece>, IllegalMove> {
        self.check(m)?;
        Ok(self.play_unchecked(m))
    }

    /// Plays `m`, which must be legal (an illegal move leaves an inconsistent position but
    /// never panics). Returns the captured piece when captures are handed to the caller,
    /// demoted to a pawn if it was promoted and the variant demotes.
    pub fn play_unchecked(&mut self, m: Move) -> Option<Piece> {
        let us = self.turn;
        let them = !us;
        let mut handed = None;
        self.ep_square = None;
        self.halfmoves = self.halfmoves.saturating_add(1);
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                if role == Role::Pawn || capture.is_some() {
                    self.halfmoves = 0;
                }
                if role == Role::King {
                    self.castling_rights &= !Bitboard::relative_rank(us, Rank::First);
                }
                self.castling_rights &= !(Bitboard::from_square(from) | to);
                // The move names the pieces: discard them without looking them up.
                if let Some(cap) = capture {
                    let victim = Piece {
                        color: them,
                        role: cap,
                    };
                    self.board.discard(to, victim);
                    let was_promoted = self.promoted.contains(to);
                    handed = self.take_capture(victim, was_promoted);
                }
                let moved_promoted = self.promoted.contains(from);
                self.board.discard(from, Piece { color: us, role });
                self.promoted.set(from, false);
                self.promoted.set(to, false);
                let lands = promotion.unwrap_or(role);
                self.board.put_on_empty(
                    to,
                    Piece {
                        color: us,
                        role: lands,
                    },
                );
                if self.rules.variant.has_drops() && (promotion.is_some() || moved_promoted) {
                    self.promoted.set(to, true);
                }
                if role == Role::Pawn
                    && from.rank() == us.relative_rank(Rank::Second)
                    && to.rank() == us.relative_rank(Rank::Fourth)
                {
                    let mid = Square::from_coords(from.file(), us.relative_rank(Rank::Third));
                    self.turn = them;
                    self.ep_square = self.capturable_ep(mid);
                    self.turn = us;
                }
            }
            Move::EnPassant { from, to } => {
                self.halfmoves = 0;
                let victim_sq = Square::from_coords(to.file(), from.rank());
                if let Some(victim) = self.board.remove(victim_sq) {
                    handed = self.take_capture(victim, false);
                }
                self.board.remove(from);
                self.board.put(
                    to,
                    Piece {
                        color: us,
                        role: Role::Pawn,
                    },
                );
            }
            Move::Castle { king, rook } => {
                self.castling_rights &= !Bitboard::relative_rank(us, Rank::First);
                self.board.remove(king);
                self.board.remove(rook);
                self.promoted.set(rook, false);
                self.board.put(
                    castle_king_to(king, rook),
                    Piece {
                        color: us,
                        role: Role::King,
                    },
                );
                self.board.put(
                    castle_rook_to(king, rook),
                    Piece {
                        color: us,
                        role: Role::Rook,
                    },
                );
            }
            Move::Put { role, to } => {
                if role == Role::Pawn {
                    self.halfmoves = 0;
                }
                self.pockets[us].take(role);
                self.board.put(to, Piece { color: us, role });
            }
        }
        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = them;
        handed
    }

    /// Puts a captured piece where the rules send it; returns it if handed to the caller.
    #[inline]
    fn take_capture(&mut self, victim: Piece, was_promoted: bool) -> Option<Piece> {
        if !self.rules.variant.has_drops() {
            return None;
        }
        let role = if was_promoted && self.rules.variant.demotes_captured() {
            Role::Pawn
        } else {
            victim.role
        };
        match self.rules.captures {
            CaptureMode::ToPocket => {
                self.pockets[self.turn].add(role);
                None
            }
            CaptureMode::Return => Some(Piece {
                color: victim.color,
                role,
            }),
        }
    }

    /// The position as a [`Setup`] (castling written `KQkq` where the rook is the
    /// outermost one, else by its file letter).
    pub fn to_setup(&self) -> Setup {
        self.setup_with(false)
    }

    /// The position as a [`Setup`] whose castling rights name their rooks' files
    /// (Shredder-FEN, `HAha`), as Chess.com writes Chess960 positions.
    pub fn to_shredder_setup(&self) -> Setup {
        self.setup_with(true)
    }

    fn setup_with(&self, files: bool) -> Setup {
        let mut castling = Castling::none();
        for color in Color::ALL {
            let rooks = self.castling_rights & Bitboard::relative_rank(color, Rank::First);
            let Some(king) = self.board.king_of(color) else {
                continue;
            };
            let king_side = rooks.filter(|&r| r > king);
            let queen_side = rooks.filter(|&r| r < king);
            for rook in king_side.chain(queen_side) {
                let king_side = rook > king;
                let spec = if !files
                    && (!self.chess960
                        || validity::outer_rook(&self.board, color, king, king_side) == Some(rook))
                {
                    if king_side {
                        CastlingSpec::KingSide
                    } else {
                        CastlingSpec::QueenSide
                    }
                } else {
                    CastlingSpec::File(rook.file())
                };
                castling.push(CastlingFlag { color, spec });
            }
        }
        Setup {
            board: self.board,
            promoted: self.promoted,
            pockets: self.rules.variant.has_drops().then_some(self.pockets),
            turn: self.turn,
            castling,
            ep_square: self.legal_ep_square(),
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }
}

/// Counts positions of a game to tell when threefold repetition may be claimed (never
/// automatic).
#[derive(Debug, Clone, Default)]
pub struct Repetitions {
    seen: std::collections::HashMap<u64, u32>,
}

impl Repetitions {
    /// No positions yet.
    pub fn new() -> Repetitions {
        Repetitions::default()
    }

    /// Records `pos`; returns how often it has now occurred.
    pub fn push(&mut self, pos: &Position) -> u32 {
        let n = self.seen.entry(pos.repetition_key()).or_insert(0);
        *n += 1;
        *n
    }

    /// Whether `pos` has occurred at least three times.
    pub fn is_threefold(&self, pos: &Position) -> bool {
        self.seen
            .get(&pos.repetition_key())
            .is_some_and(|&n| n >= 3)
    }
}

/// One step of the position keys: a rotation, the value XORed in and an odd multiplier, so
/// that every bit of every part reaches the key.
fn key_mix(h: u64, v: u64) -> u64 {
    (h.rotate_left(29) ^ v).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}
