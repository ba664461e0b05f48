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

pub use legality::{IllegalMove, IllegalReason};
pub use movegen::SquareMoves;

use std::fmt;

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::moves::{Move, castle_king_to, castle_rook_to};
use crate::setup::{Castling, CastlingFlag, CastlingSpec, Pocket, Setup};
use crate::types::{ByColor, Color, File, Piece, Rank, Role, Square};
use crate::variant::{CaptureMode, Rules, Variant};

/// A legal position of some variant, ready to generate and play moves.
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

/// What is wrong with a setup. Every reason is reported, not only the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ProblemKind {
    MissingKing,
    TooManyKings,
    /// A king of a side that has none in this variant (White in Horde).
    UnexpectedKing,
    PawnsOnBackrank,
    /// The side not to move is in check.
    OppositeCheck,
    /// Checkers no legal last move could have produced (ignorable).
    ImpossibleCheck,
    InvalidEpSquare,
    InvalidCastlingRights,
    InvalidPromotedMark,
    /// Pockets in a variant without drops.
    UnexpectedPockets,
    /// More material than a set (or two, in Horde) holds: a warning.
    TooMuchMaterial,
    /// A full-move number of 0: a warning; it is read as 1.
    InvalidFullmoves,
}

impl ProblemKind {
    /// The kebab-case name used in JSON output.
    pub fn name(self) -> &'static str {
        match self {
            ProblemKind::MissingKing => "missing-king",
            ProblemKind::TooManyKings => "too-many-kings",
            ProblemKind::UnexpectedKing => "unexpected-king",
            ProblemKind::PawnsOnBackrank => "pawns-on-backrank",
            ProblemKind::OppositeCheck => "opposite-check",
            ProblemKind::ImpossibleCheck => "impossible-check",
            ProblemKind::InvalidEpSquare => "invalid-ep-square",
            ProblemKind::InvalidCastlingRights => "invalid-castling-rights",
            ProblemKind::InvalidPromotedMark => "invalid-promoted-mark",
            ProblemKind::UnexpectedPockets => "unexpected-pockets",
            ProblemKind::TooMuchMaterial => "too-much-material",
            ProblemKind::InvalidFullmoves => "invalid-fullmoves",
        }
    }
}

/// One reason a setup is not (quite) a legal position.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Problem {
    pub kind: ProblemKind,
    pub severity: Severity,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}: {}",
            self.severity,
            self.kind.name(),
            self.message
        )
    }
}

/// A setup that is not a legal position: every problem found, and the position as far as
/// it could be built (for callers that choose to ignore some problems).
#[derive(Clone)]
pub struct PositionError {
    pub problems: Vec<Problem>,
    position: Box<Position>,
}

impl PositionError {
    /// The errors (warnings left out).
    pub fn errors(&self) -> impl Iterator<Item = &Problem> {
        self.problems
            .iter()
            .filter(|p| p.severity == Severity::Error)
    }

    /// Accepts the position anyway if every error is of one of `kinds`.
    ///
    /// # Errors
    ///
    /// `self` when an error of another kind remains.
    pub fn ignore(self, kinds: &[ProblemKind]) -> Result<Position, PositionError> {
        if self.errors().all(|p| kinds.contains(&p.kind)) {
            Ok(*self.position)
        } else {
            Err(self)
        }
    }
}

impl fmt::Debug for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PositionError")
            .field("problems", &self.problems)
            .finish()
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for p in self.errors() {
            if !first {
                f.write_str("; ")?;
            }
            first = false;
            write!(f, "{}", p.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for PositionError {}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    Checkmate,
    Stalemate,
    /// Horde: White has no pieces left.
    Extinction,
    /// Chess: neither side can ever mate.
    InsufficientMaterial,
}

impl EndReason {
    /// `checkmate`, `stalemate`, `extinction` or `insufficient-material`.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::Extinction => "extinction",
            EndReason::InsufficientMaterial => "insufficient-material",
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Decisive { winner: Color, reason: EndReason },
    Draw { reason: EndReason },
}

impl Outcome {
    pub fn reason(self) -> EndReason {
        match self {
            Outcome::Decisive { reason, .. } | Outcome::Draw { reason } => reason,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(self) -> &'static str {
        match self {
            Outcome::Decisive {
                winner: Color::White,
                ..
            } => "1-0",
            Outcome::Decisive {
                winner: Color::Black,
                ..
            } => "0-1",
            Outcome::Draw { .. } => "1/2-1/2",
        }
    }
}

/// The outermost rook of `color` on its back rank on the `king_side` of `king`.
fn outer_rook(board: &Board, color: Color, king: Square, king_side: bool) -> Option<Square> {
    let rooks = board.by_piece(Piece {
        color,
        role: Role::Rook,
    }) & Bitboard::relative_rank(color, Rank::First);
    let side: Bitboard = rooks.filter(|&r| (r > king) == king_side).collect();
    if king_side { side.last() } else { side.first() }
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
    pub fn check_setup(setup: &Setup, rules: Rules) -> Vec<Problem> {
        Position::build(setup, rules).1
    }

    /// The start position of `variant` with its default rules.
    pub fn start(variant: Variant) -> Position {
        Position::from_setup(&variant.start(), Rules::new(variant))
            .expect("start positions are legal")
    }

    fn build(setup: &Setup, rules: Rules) -> (Position, Vec<Problem>) {
        let mut problems = Vec::new();
        let mut problem = |kind, severity, message: String| {
            problems.push(Problem {
                kind,
                severity,
                message,
            })
        };
        let err = Severity::Error;
        let variant = rules.variant;
        let board = setup.board;

        // Kings.
        for color in Color::ALL {
            let kings = board
                .by_piece(Piece {
                    color,
                    role: Role::King,
                })
                .count();
            let horde_white = variant.is_horde() && color == Color::White;
            match kings {
                0 if !horde_white => problem(
                    ProblemKind::MissingKing,
                    err,
                    format!("{} has no king", color.name()),
                ),
                1 if horde_white => problem(
                    ProblemKind::UnexpectedKing,
                    err,
                    "white has a king in horde".to_owned(),
                ),
                0 | 1 => {}
                n => problem(
                    ProblemKind::TooManyKings,
                    err,
                    format!("{} has {n} kings", color.name()),
                ),
            }
        }

        // Pawns on the back ranks (White's rank 1 is allowed in Horde, and each side's own
        // first rank in Chessgi, where pawns are dropped there).
        let mut backrank = board.by_role(Role::Pawn) & Bitboard::BACKRANKS;
        if variant.is_horde() {
            backrank &= !(board.by_color(Color::White) & Bitboard::rank(Rank::First));
        }
        if variant.first_rank_pawn_drops() {
            for color in Color::ALL {
                backrank &= !(board.by_color(color) & Bitboard::relative_rank(color, Rank::First));
            }
        }
        if backrank.any() {
            let list: Vec<String> = backrank.map(|s| s.to_string()).collect();
            problem(
                ProblemKind::PawnsOnBackrank,
                err,
                format!("pawns on the first or last rank: {}", list.join(" ")),
            );
        }

        // Promoted marks.
        for sq in setup.promoted {
            match board.role_at(sq) {
                None => problem(
                    ProblemKind::InvalidPromotedMark,
                    err,
                    format!("promoted mark on empty square {sq}"),
                ),
                Some(r @ (Role::Pawn | Role::King)) => problem(
                    ProblemKind::InvalidPromotedMark,
                    err,
                    format!("a {} on {sq} cannot be promoted", r.name()),
                ),
                Some(_) => {}
            }
        }
        let promoted = setup.promoted
            & board.occupied()
            & !board.by_role(Role::Pawn)
            & !board.by_role(Role::King);

        // Pockets.
        let pockets = match setup.pockets {
            Some(p) if !variant.has_drops() => {
                if !(p.white.is_empty() && p.black.is_empty()) {
                    problem(
                        ProblemKind::UnexpectedPockets,
                        err,
                        format!("pockets in {}, which has no drops", variant.name()),
                    );
                }
                ByColor::default()
            }
            Some(p) => p,
            None => ByColor::default(),
        };
        // Bughouse boards trade material with the partner board, so one board alone has
        // no limit.
        let material = (variant != Variant::Bughouse)
            .then(|| too_much_material(&board, promoted, &pockets, variant));
        if let Some(problem_text) = material.flatten() {
            problem(
                ProblemKind::TooMuchMaterial,
                Severity::Warning,
                problem_text,
            );
        }

        // Castling rights.
        let mut castling_rights = Bitboard::EMPTY;
        let mut chess960 = false;
        for flag in setup.castling.iter() {
            let color = flag.color;
            let king = board
                .king_of(color)
                .filter(|k| k.rank() == color.back_rank());
            let rook = king.and_then(|k| match flag.spec {
                CastlingSpec::KingSide => outer_rook(&board, color, k, true),
                CastlingSpec::QueenSide => outer_rook(&board, color, k, false),
                CastlingSpec::File(f) => {
                    let sq = Square::from_coords(f, color.back_rank());
                    (board.piece_at(sq)
                        == Some(Piece {
                            color,
                            role: Role::Rook,
                        })
                        && sq != k)
                        .then_some(sq)
                }
            });
            match (king, rook) {
                (Some(k), Some(r)) => {
                    castling_rights |= r;
                    if k.file() != File::E || (r.file() != File::A && r.file() != File::H) {
                        chess960 = true;
                    }
                }
                _ => problem(
                    ProblemKind::InvalidCastlingRights,
                    err,
                    format!(
                        "castling right `{}` without a king and rook on the back rank",
                        flag.char()
                    ),
                ),
            }
        }
        if setup
            .castling
            .iter()
            .any(|f| matches!(f.spec, CastlingSpec::File(_)))
        {
            chess960 = true;
        }

        let fullmoves = if setup.fullmoves == 0 {
            problem(
                ProblemKind::InvalidFullmoves,
                Severity::Warning,
                "full-move number 0, read as 1".to_owned(),
            );
            1
        } else {
            setup.fullmoves
        };

        let mut pos = Position {
            board,
            promoted: if variant.has_drops() {
                promoted
            } else {
                Bitboard::EMPTY
            },
            pockets,
            turn: setup.turn,
            castling_rights,
            ep_square: None,
            halfmoves: setup.halfmoves,
            fullmoves,
            rules,
            chess960,
        };

        // En passant: the square behind a pawn that just double-stepped.
        if let Some(ep) = setup.ep_square {
            let us = setup.turn;
            let pushed = Square::from_coords(ep.file(), us.relative_rank(Rank::Fifth));
            let origin = Square::from_coords(ep.file(), us.relative_rank(Rank::Seventh));
            let ok = ep.rank() == us.relative_rank(Rank::Sixth)
                && board.piece_at(pushed)
                    == Some(Piece {
                        color: !us,
                        role: Role::Pawn,
                    })
                && !board.occupied().contains(ep)
                && !board.occupied().contains(origin);
            if ok {
                pos.ep_square = pos.capturable_ep(ep);
            } else {
                problem(
                    ProblemKind::InvalidEpSquare,
                    err,
                    format!("en passant square {ep} without a pawn that just moved two squares"),
                );
            }
        }

        // Checks.
        if let Some(their_king) = board.king_of(!pos.turn)
            && board
                .attackers_to(their_king, pos.turn, board.occupied())
                .any()
        {
            problem(
                ProblemKind::OppositeCheck,
                err,
                format!("{} is in check but it is not its turn", (!pos.turn).name()),
            );
        }
        if let Some(why) = pos.impossible_check(setup.ep_square) {
            problem(ProblemKind::ImpossibleCheck, err, why);
        }
        (pos, problems)
    }

    /// `ep` if a pawn of the side to move attacks it (so FENs and keys mention it only then).
    fn capturable_ep(&self, ep: Square) -> Option<Square> {
        let capturers = attacks::pawn_attacks(!self.turn, ep)
            & self.board.by_piece(Piece {
                color: self.turn,
                role: Role::Pawn,
            });
        capturers.any().then_some(ep)
    }

    /// Why the checkers could not come from any legal last move, if so.
    fn impossible_check(&self, ep: Option<Square>) -> Option<String> {
        let king = self.our_king()?;
        let checkers = self.checkers();
        if checkers.count() > 2 {
            return Some(format!("{} checkers", checkers.count()));
        }
        let sliders = self.board.rooks_and_queens() | self.board.bishops_and_queens();
        if checkers.count() == 2 {
            if (checkers & sliders).is_empty() {
                return Some("two checkers and neither is a long-range piece".to_owned());
            }
            let mut it = checkers;
            let (a, b) = (it.next()?, it.next()?);
            if attacks::aligned(a, b, king) {
                return Some("two checkers on one line".to_owned());
            }
        }
        if let (Some(ep), true) = (ep, checkers.any()) {
            // The last move was a double step: its pawn, or a piece it uncovered, gives check.
            let pushed = Square::from_coords(ep.file(), self.turn.relative_rank(Rank::Fifth));
            let origin = Square::from_coords(ep.file(), self.turn.relative_rank(Rank::Seventh));
            let explained = checkers
                .into_iter()
                .all(|c| c == pushed || attacks::between(king, c).contains(origin));
            if !explained {
                return Some("a check the last double step could not have given".to_owned());
            }
        }
        None
    }

    // ----- accessors -----

    pub fn board(&self) -> &Board {
        &self.board
    }
    pub fn promoted(&self) -> Bitboard {
        self.promoted
    }
    pub fn pockets(&self) -> &ByColor<Pocket> {
        &self.pockets
    }
    pub fn turn(&self) -> Color {
        self.turn
    }
    pub fn rules(&self) -> Rules {
        self.rules
    }
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
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }
    /// Whether castling is written Chess960-style.
    pub fn is_chess960(&self) -> bool {
        self.chess960
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

    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    pub fn is_checkmate(&self) -> bool {
        !self.is_variant_end() && self.is_check() && !self.has_legal_moves()
    }

    /// No legal move and not in check (and the game not already over by a variant rule).
    pub fn is_stalemate(&self) -> bool {
        !self.is_variant_end() && !self.is_check() && !self.has_legal_moves()
    }

    /// Chess only: neither side can ever mate (no pawns, rooks or queens, and at most one
    /// minor piece, or only bishops all on one colour). Never in variants with pockets,
    /// where material does not leave the game.
    pub fn is_insufficient_material(&self) -> bool {
        if self.rules.variant != Variant::Chess {
            return false;
        }
        let b = &self.board;
        if (b.by_role(Role::Pawn) | b.rooks_and_queens()).any() {
            return false;
        }
        let minors = b.by_role(Role::Knight) | b.by_role(Role::Bishop);
        if minors.count() <= 1 {
            return true;
        }
        let bishops = b.by_role(Role::Bishop);
        b.by_role(Role::Knight).is_empty()
            && ((bishops & Bitboard::DARK_SQUARES).is_empty()
                || (bishops & Bitboard::LIGHT_SQUARES).is_empty())
    }

    /// Horde: White has lost every piece.
    pub fn is_variant_end(&self) -> bool {
        self.rules.variant.is_horde() && self.board.by_color(Color::White).is_empty()
    }

    /// How the game has ended, if it has. Threefold repetition and the 50-move rule are
    /// claims, never automatic: see [`Position::is_fifty_move_claimable`].
    pub fn outcome(&self) -> Option<Outcome> {
        if self.is_variant_end() {
            return Some(Outcome::Decisive {
                winner: Color::Black,
                reason: EndReason::Extinction,
            });
        }
        if !self.has_legal_moves() {
            return Some(if self.is_check() {
                Outcome::Decisive {
                    winner: !self.turn,
                    reason: EndReason::Checkmate,
                }
            } else {
                Outcome::Draw {
                    reason: EndReason::Stalemate,
                }
            });
        }
        if self.is_insufficient_material() {
            return Some(Outcome::Draw {
                reason: EndReason::InsufficientMaterial,
            });
        }
        None
    }

    /// A key equal for positions that count as the same for threefold repetition: same
    /// pieces on the same squares, promoted marks, pockets, side to move, castling rights
    /// and en passant square (kept only when a capture there is possible). Clocks are left
    /// out. Collisions are possible but rare (a 64-bit mix of the parts).
    pub fn repetition_key(&self) -> u64 {
        fn mix(h: u64, v: u64) -> u64 {
            let h = (h ^ v).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            h ^ (h >> 29)
        }
        let b = &self.board;
        let mut h = mix(0, b.by_color(Color::White).0);
        for role in Role::ALL {
            h = mix(h, b.by_role(role).0);
        }
        h = mix(h, self.promoted.0);
        for color in Color::ALL {
            h = mix(
                h,
                u64::from_le_bytes([
                    0,
                    0,
                    0,
                    self.pockets[color].0[0],
                    self.pockets[color].0[1],
                    self.pockets[color].0[2],
                    self.pockets[color].0[3],
                    self.pockets[color].0[4],
                ]),
            );
        }
        h = mix(h, self.castling_rights.0);
        let ep = self.ep_square.filter(|_| {
            let mut list = crate::moves::MoveList::new();
            self.generate(&mut list);
            list.iter().any(|m| matches!(m, Move::EnPassant { .. }))
        });
        mix(
            h,
            u64::from(self.turn == Color::White) | (ep.map_or(64, |s| s.index() as u64) << 1),
        )
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
                let spec = if !self.chess960
                    || outer_rook(&self.board, color, king, king_side) == Some(rook)
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
            ep_square: self.ep_square,
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

/// More material than a set holds, as a message (board + pockets, promoted pieces counted
/// as pawns). Horde's White is allowed its 36 pawns.
fn too_much_material(
    board: &Board,
    promoted: Bitboard,
    pockets: &ByColor<Pocket>,
    variant: Variant,
) -> Option<String> {
    let total = |role: Role| {
        let on_board = (board.by_role(role) & !promoted).count();
        on_board + u32::from(pockets.white.get(role)) + u32::from(pockets.black.get(role))
    };
    if variant.has_drops() {
        // Pieces change sides: count both colours against two sets.
        let pawns = total(Role::Pawn) + promoted.count();
        let limits = [
            (Role::Pawn, 16, pawns),
            (Role::Knight, 4, total(Role::Knight)),
            (Role::Bishop, 4, total(Role::Bishop)),
            (Role::Rook, 4, total(Role::Rook)),
            (Role::Queen, 2, total(Role::Queen)),
        ];
        let mut over: Vec<String> = limits
            .iter()
            .filter(|&&(_, max, n)| n > max)
            .map(|&(role, max, n)| format!("{n} {}s where two sets hold {max}", role.name()))
            .collect();
        let all = board.occupied().count() + pockets.white.count() + pockets.black.count();
        if all > 32 {
            over.push(format!("{all} pieces where two sets hold 32"));
        }
        if !over.is_empty() {
            return Some(format!(
                "board and pockets hold {} (promoted pieces count as pawns)",
                over.join(", ")
            ));
        }
        return None;
    }
    for color in Color::ALL {
        let ours = board.by_color(color);
        let pawns = (ours & board.by_role(Role::Pawn)).count();
        let (max_pieces, max_pawns) = if variant.is_horde() && color == Color::White {
            (36, 36)
        } else {
            (16, 8)
        };
        if ours.count() > max_pieces || pawns > max_pawns {
            return Some(format!(
                "{} has {} pieces ({pawns} pawns): more than a set holds",
                color.name(),
                ours.count()
            ));
        }
    }
    None
}
