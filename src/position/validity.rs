//! Validation of a setup: every reason it is not (quite) a legal position.

use std::fmt;

use super::{Position, Severity};
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::setup::{CastlingSpec, Pocket, Setup};
use crate::types::{ByColor, Color, File, Piece, Rank, Role, Square};
use crate::variant::{Rules, Variant};

/// What is wrong with a setup. Every reason is reported, not only the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SetupProblemKind {
    /// A side without its king.
    MissingKing,
    /// A side with more than one king.
    TooManyKings,
    /// A king of a side that has none in this variant (White in Horde).
    UnexpectedKing,
    /// Pawns on a rank they can never stand on.
    PawnsOnBackrank,
    /// The side not to move is in check.
    OppositeCheck,
    /// Checkers no legal last move could have produced (ignorable).
    ImpossibleCheck,
    /// An en passant square no double step explains.
    InvalidEpSquare,
    /// A castling right without its king and rook.
    InvalidCastlingRights,
    /// A promoted mark on an empty square, a pawn or a king.
    InvalidPromotedMark,
    /// Pockets in a variant without drops.
    UnexpectedPockets,
    /// More material than a set (or two, in Horde) holds: a warning.
    TooMuchMaterial,
    /// A full-move number of 0: a warning; it is read as 1.
    InvalidFullmoves,
}

impl SetupProblemKind {
    /// Every kind, in declaration order.
    pub const ALL: [SetupProblemKind; 12] = [
        SetupProblemKind::MissingKing,
        SetupProblemKind::TooManyKings,
        SetupProblemKind::UnexpectedKing,
        SetupProblemKind::PawnsOnBackrank,
        SetupProblemKind::OppositeCheck,
        SetupProblemKind::ImpossibleCheck,
        SetupProblemKind::InvalidEpSquare,
        SetupProblemKind::InvalidCastlingRights,
        SetupProblemKind::InvalidPromotedMark,
        SetupProblemKind::UnexpectedPockets,
        SetupProblemKind::TooMuchMaterial,
        SetupProblemKind::InvalidFullmoves,
    ];

    /// The kebab-case name used in JSON output.
    pub fn name(self) -> &'static str {
        match self {
            SetupProblemKind::MissingKing => "missing-king",
            SetupProblemKind::TooManyKings => "too-many-kings",
            SetupProblemKind::UnexpectedKing => "unexpected-king",
            SetupProblemKind::PawnsOnBackrank => "pawns-on-backrank",
            SetupProblemKind::OppositeCheck => "opposite-check",
            SetupProblemKind::ImpossibleCheck => "impossible-check",
            SetupProblemKind::InvalidEpSquare => "invalid-ep-square",
            SetupProblemKind::InvalidCastlingRights => "invalid-castling-rights",
            SetupProblemKind::InvalidPromotedMark => "invalid-promoted-mark",
            SetupProblemKind::UnexpectedPockets => "unexpected-pockets",
            SetupProblemKind::TooMuchMaterial => "too-much-material",
            SetupProblemKind::InvalidFullmoves => "invalid-fullmoves",
        }
    }
}

/// One reason a setup is not (quite) a legal position.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SetupProblem {
    /// What is wrong.
    pub kind: SetupProblemKind,
    /// Error (not a legal position) or warning.
    pub severity: Severity,
    /// The explanation, naming squares and pieces.
    pub message: String,
}

impl fmt::Display for SetupProblem {
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
    /// Every problem found, errors and warnings.
    pub problems: Vec<SetupProblem>,
    pub(super) position: Box<Position>,
}

impl PositionError {
    /// The errors (warnings left out).
    pub fn errors(&self) -> impl Iterator<Item = &SetupProblem> {
        self.problems
            .iter()
            .filter(|p| p.severity == Severity::Error)
    }

    /// Accepts the position anyway if every error is of one of `kinds`.
    ///
    /// # Errors
    ///
    /// `self` when an error of another kind remains.
    pub fn ignore(self, kinds: &[SetupProblemKind]) -> Result<Position, PositionError> {
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

/// The outermost rook of `color` on its back rank on the `king_side` of `king`.
pub(super) fn outer_rook(
    board: &Board,
    color: Color,
    king: Square,
    king_side: bool,
) -> Option<Square> {
    let rooks = board.by_piece(Piece {
        color,
        role: Role::Rook,
    }) & Bitboard::relative_rank(color, Rank::First);
    let side: Bitboard = rooks.filter(|&r| (r > king) == king_side).collect();
    if king_side { side.last() } else { side.first() }
}

/// The problems a setup is found to have, in the order they are looked for.
#[derive(Default)]
struct Problems(Vec<SetupProblem>);

impl Problems {
    fn add(&mut self, kind: SetupProblemKind, severity: Severity, message: String) {
        self.0.push(SetupProblem {
            kind,
            severity,
            message,
        });
    }

    fn error(&mut self, kind: SetupProblemKind, message: String) {
        self.add(kind, Severity::Error, message);
    }
}

/// Each side's king: one, none for Horde's White.
fn check_kings(board: &Board, variant: Variant, problems: &mut Problems) {
    for color in Color::ALL {
        let kings = board
            .by_piece(Piece {
                color,
                role: Role::King,
            })
            .count();
        let horde_white = variant.is_horde() && color == Color::White;
        match kings {
            0 if !horde_white => problems.error(
                SetupProblemKind::MissingKing,
                format!("{} has no king", color.name()),
            ),
            1 if horde_white => problems.error(
                SetupProblemKind::UnexpectedKing,
                "white has a king in horde".to_owned(),
            ),
            0 | 1 => {}
            n => problems.error(
                SetupProblemKind::TooManyKings,
                format!("{} has {n} kings", color.name()),
            ),
        }
    }
}

/// Pawns on the back ranks (White's rank 1 is allowed in Horde, and each side's own
/// first rank in Chessgi, where pawns are dropped there).
fn check_backrank_pawns(board: &Board, variant: Variant, problems: &mut Problems) {
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
        problems.error(
            SetupProblemKind::PawnsOnBackrank,
            format!("pawns on the first or last rank: {}", list.join(" ")),
        );
    }
}

/// The promoted marks that stand on a piece that can be promoted (the others are
/// reported).
fn promoted_marks(setup: &Setup, problems: &mut Problems) -> Bitboard {
    let board = &setup.board;
    for sq in setup.promoted {
        match board.role_at(sq) {
            None => problems.error(
                SetupProblemKind::InvalidPromotedMark,
                format!("promoted mark on empty square {sq}"),
            ),
            Some(r @ (Role::Pawn | Role::King)) => problems.error(
                SetupProblemKind::InvalidPromotedMark,
                format!("a {} on {sq} cannot be promoted", r.name()),
            ),
            Some(_) => {}
        }
    }
    setup.promoted & board.occupied() & !board.by_role(Role::Pawn) & !board.by_role(Role::King)
}

/// The pockets, none in a variant without drops (where pieces in them are reported).
fn pockets_of(setup: &Setup, variant: Variant, problems: &mut Problems) -> ByColor<Pocket> {
    match setup.pockets {
        Some(p) if !variant.has_drops() => {
            if !(p.white.is_empty() && p.black.is_empty()) {
                problems.error(
                    SetupProblemKind::UnexpectedPockets,
                    format!("pockets in {}, which has no drops", variant.name()),
                );
            }
            ByColor::default()
        }
        Some(p) => p,
        None => ByColor::default(),
    }
}

/// The castling rights the king and rooks allow, as the rooks' squares, and whether they
/// are Chess960's (a king or rook off its standard square, or a right named by a file).
fn castling_rights(setup: &Setup, problems: &mut Problems) -> (Bitboard, bool) {
    let board = &setup.board;
    let mut rights = Bitboard::EMPTY;
    let mut chess960 = false;
    // The letter that gave each side's right on each wing (queen side, king side): a
    // side has at most one right per wing.
    let mut wings: ByColor<[Option<char>; 2]> = ByColor::default();
    for flag in setup.castling.iter() {
        let color = flag.color;
        let king = board
            .king_of(color)
            .filter(|k| k.rank() == color.back_rank());
        let rook = king.and_then(|k| match flag.spec {
            CastlingSpec::KingSide => outer_rook(board, color, k, true),
            CastlingSpec::QueenSide => outer_rook(board, color, k, false),
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
        let (Some(k), Some(r)) = (king, rook) else {
            problems.error(
                SetupProblemKind::InvalidCastlingRights,
                format!(
                    "castling right `{}` without a king and rook on the back rank",
                    flag.char()
                ),
            );
            continue;
        };
        let king_side = r > k;
        let wing = &mut wings[color][usize::from(king_side)];
        if let Some(first) = *wing {
            problems.error(
                SetupProblemKind::InvalidCastlingRights,
                format!(
                    "castling field: `{first}` and `{}` are two castling rights for {} on the {} side (a side has at most one per wing)",
                    flag.char(),
                    color.name(),
                    if king_side { "king" } else { "queen" }
                ),
            );
            continue;
        }
        *wing = Some(flag.char());
        rights |= r;
        if k.file() != File::E || (r.file() != File::A && r.file() != File::H) {
            chess960 = true;
        }
    }
    if setup
        .castling
        .iter()
        .any(|f| matches!(f.spec, CastlingSpec::File(_)))
    {
        chess960 = true;
    }
    (rights, chess960)
}

impl Position {
    pub(super) fn build(setup: &Setup, rules: Rules) -> (Position, Vec<SetupProblem>) {
        let mut problems = Problems::default();
        let variant = rules.variant;
        let board = setup.board;
        check_kings(&board, variant, &mut problems);
        check_backrank_pawns(&board, variant, &mut problems);
        let promoted = promoted_marks(setup, &mut problems);
        let pockets = pockets_of(setup, variant, &mut problems);
        // A bughouse board trades material with its partner board, so it is counted
        // against the match's two sets.
        if let Some(text) = too_much_material(&[(&board, promoted, &pockets)], variant) {
            problems.add(SetupProblemKind::TooMuchMaterial, Severity::Warning, text);
        }
        let (castling_rights, chess960) = castling_rights(setup, &mut problems);
        let fullmoves = if setup.fullmoves == 0 {
            problems.add(
                SetupProblemKind::InvalidFullmoves,
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
        pos.read_ep_square(setup, &mut problems);
        pos.check_checks(setup, &mut problems);
        (pos, problems.0)
    }

    /// En passant: the square behind a pawn that just double-stepped, kept when a pawn
    /// of the side to move can take there.
    fn read_ep_square(&mut self, setup: &Setup, problems: &mut Problems) {
        let Some(ep) = setup.ep_square else {
            return;
        };
        let (board, us) = (&self.board, setup.turn);
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
            self.ep_square = self.capturable_ep(ep);
        } else {
            problems.error(
                SetupProblemKind::InvalidEpSquare,
                format!("en passant square {ep} without a pawn that just moved two squares"),
            );
        }
    }

    /// The side not to move in check, and checks no last move can have given.
    fn check_checks(&self, setup: &Setup, problems: &mut Problems) {
        let board = &self.board;
        if let Some(their_king) = board.king_of(!self.turn)
            && board
                .attackers_to(their_king, self.turn, board.occupied())
                .any()
        {
            problems.error(
                SetupProblemKind::OppositeCheck,
                format!("{} is in check but it is not its turn", (!self.turn).name()),
            );
        }
        if let Some(why) = self.impossible_check(setup.ep_square) {
            problems.error(SetupProblemKind::ImpossibleCheck, why);
        }
    }

    /// `ep` if a pawn of the side to move attacks it (so FENs and keys mention it only then).
    pub(super) fn capturable_ep(&self, ep: Square) -> Option<Square> {
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
}

/// More material than a set holds, as a message (boards + pockets, promoted pieces
/// counted as pawns). Horde's White is allowed its 36 pawns. In pocket variants pieces
/// change sides, so both colours are counted together; a bughouse match (one of its
/// boards, or both: `parts`) against the two sets of its two boards. In Loop and Chessgi
/// a captured promoted piece keeps its rank: a role may pass its set's count by as many
/// pieces as pawns are missing.
pub(crate) fn too_much_material(
    parts: &[(&Board, Bitboard, &ByColor<Pocket>)],
    variant: Variant,
) -> Option<String> {
    let total = |role: Role| -> u32 {
        parts
            .iter()
            .map(|(board, promoted, pockets)| {
                (board.by_role(role) & !*promoted).count()
                    + u32::from(pockets.white.get(role))
                    + u32::from(pockets.black.get(role))
            })
            .sum()
    };
    if variant.has_drops() {
        let sets = if variant == Variant::Bughouse { 2 } else { 1 };
        let pawns = total(Role::Pawn) + parts.iter().map(|p| p.1.count()).sum::<u32>();
        let limits = [
            (Role::Pawn, 16, pawns),
            (Role::Knight, 4, total(Role::Knight)),
            (Role::Bishop, 4, total(Role::Bishop)),
            (Role::Rook, 4, total(Role::Rook)),
            (Role::Queen, 2, total(Role::Queen)),
        ];
        let what = if sets == 1 {
            "two sets"
        } else {
            "the four sets of a match"
        };
        let mut over: Vec<String> = if variant.demotes_captured() {
            limits
                .iter()
                .filter(|&&(_, max, n)| n > max * sets)
                .map(|&(role, max, n)| {
                    format!("{n} {}s where {what} hold {}", role.name(), max * sets)
                })
                .collect()
        } else {
            // Loop and Chessgi: a captured promoted piece keeps its rank, so a role may
            // pass its set's count, each piece over it a pawn that promoted.
            let beyond: u32 = limits[1..]
                .iter()
                .map(|&(_, max, n)| n.saturating_sub(max * sets))
                .sum();
            let room = (16 * sets).saturating_sub(pawns);
            if pawns > 16 * sets || beyond > room {
                vec![format!(
                    "{pawns} pawns and {beyond} pieces beyond a set's, {} where {what} hold {} pawns to promote",
                    pawns + beyond,
                    16 * sets
                )]
            } else {
                Vec::new()
            }
        };
        let all: u32 = parts
            .iter()
            .map(|(b, _, p)| b.occupied().count() + p.white.count() + p.black.count())
            .sum();
        if all > 32 * sets {
            over.push(format!("{all} pieces where {what} hold {}", 32 * sets));
        }
        if !over.is_empty() {
            let place = if parts.len() > 1 { "boards" } else { "board" };
            return Some(format!(
                "{place} and pockets hold {} (promoted pieces count as pawns)",
                over.join(", ")
            ));
        }
        return None;
    }
    let [(board, _, _)] = parts else {
        return None;
    };
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
