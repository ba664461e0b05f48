//! Bughouse: two boards, four players, captures passed to the partner.
//!
//! White on board A partners Black on board B (team 1); Black on A partners White on B
//! (team 2). A capture goes to the partner's pocket in the partner's colour — the colour of
//! the captured piece — and a captured promoted piece arrives as a pawn. Each board is a
//! [`Position`] of [`Variant::Bughouse`], whose captures are handed back by `play`.
//!
//! ```
//! use pocketfen::bughouse::{BoardId, Match};
//! use pocketfen::notation::uci::UciMove;
//! let mut game = Match::new();
//! for (board, uci) in [(BoardId::A, "e2e4"), (BoardId::A, "d7d5"), (BoardId::A, "e4d5")] {
//!     let m = uci.parse::<UciMove>()?.to_move(game.board(board))?;
//!     game.play(board, m)?;
//! }
//! // White on A took a black pawn: it goes to Black on B.
//! assert_eq!(game.board(BoardId::B).pockets().black.get(pocketfen::Role::Pawn), 1);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use crate::moves::Move;
use crate::position::{
    IllegalMove, Outcome, Position, PositionError, SetupProblem, SetupProblemKind, Severity,
    too_much_material,
};
use crate::setup::{Fen, Setup};
use crate::types::{Color, Piece};
use crate::variant::{Rules, Variant};

/// Board A or board B.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoardId {
    /// Board A (its White partners Black on B).
    A,
    /// Board B.
    B,
}

impl BoardId {
    /// Both boards.
    pub const ALL: [BoardId; 2] = [BoardId::A, BoardId::B];

    /// The other board.
    pub fn partner(self) -> BoardId {
        match self {
            BoardId::A => BoardId::B,
            BoardId::B => BoardId::A,
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }

    /// `A` or `B` (the JSON `board`).
    pub fn name(self) -> &'static str {
        match self {
            BoardId::A => "A",
            BoardId::B => "B",
        }
    }

    /// `A` or `B`.
    pub fn letter(self) -> char {
        match self {
            BoardId::A => 'A',
            BoardId::B => 'B',
        }
    }
}

impl fmt::Display for BoardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A team: 1 is White on A with Black on B, 2 is Black on A with White on B.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Team {
    /// White on A and Black on B.
    One,
    /// Black on A and White on B.
    Two,
}

impl Team {
    /// The team of the player of `color` on `board`.
    pub fn of(board: BoardId, color: Color) -> Team {
        match (board, color) {
            (BoardId::A, Color::White) | (BoardId::B, Color::Black) => Team::One,
            _ => Team::Two,
        }
    }
}

/// The problems of a bughouse pair as a whole, beyond each board's own: more material on
/// both boards and in the four pockets than the match's sets hold (a warning).
///
/// ```
/// use pocketfen::{Setup, bughouse::check_pair};
/// let full: Setup = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/QQ w KQkq - 0 1".parse()?;
/// assert_eq!(check_pair(&full, &full).len(), 1);
/// let start = Setup::crazyhouse_start();
/// assert!(check_pair(&start, &start).is_empty());
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn check_pair(a: &Setup, b: &Setup) -> Vec<SetupProblem> {
    let pockets = |s: &Setup| s.pockets.unwrap_or_default();
    let (pa, pb) = (pockets(a), pockets(b));
    let parts = [(&a.board, a.promoted, &pa), (&b.board, b.promoted, &pb)];
    too_much_material(&parts, Variant::Bughouse)
        .map(|message| SetupProblem {
            kind: SetupProblemKind::TooMuchMaterial,
            severity: Severity::Warning,
            message,
        })
        .into_iter()
        .collect()
}

/// Every problem of a FEN line under `variant`: each board's (named `A` or `B` for a pair)
/// and, for a bughouse pair, the pair's as a whole (no board).
pub fn check_fen(fen: &Fen, variant: Variant) -> Vec<(Option<BoardId>, SetupProblem)> {
    let mut problems = Vec::new();
    let ids: &[Option<BoardId>] = match fen {
        Fen::Single(_) => &[None],
        Fen::Pair(_) => &[Some(BoardId::A), Some(BoardId::B)],
    };
    for (setup, id) in fen.boards().iter().zip(ids) {
        for p in Position::check_setup(setup, Rules::new(variant)) {
            problems.push((*id, p));
        }
    }
    if let (Fen::Pair(pair), Variant::Bughouse) = (fen, variant) {
        problems.extend(
            check_pair(&pair[0], &pair[1])
                .into_iter()
                .map(|p| (None, p)),
        );
    }
    problems
}

/// A bughouse match in progress.
#[derive(Debug, Clone)]
pub struct Match {
    boards: [Position; 2],
}

impl Default for Match {
    fn default() -> Match {
        Match::new()
    }
}

impl Match {
    /// Both boards at the start, a drop allowed to give mate (see
    /// [`with_drop_mate`](Match::with_drop_mate)).
    pub fn new() -> Match {
        let start = Setup::crazyhouse_start();
        Match::from_setups(&start, &start).expect("start positions are legal")
    }

    /// Both boards from setups (a FEN pair).
    ///
    /// # Errors
    ///
    /// The [`PositionError`] of the first board that is not legal, and which board.
    pub fn from_setups(a: &Setup, b: &Setup) -> Result<Match, (BoardId, PositionError)> {
        let rules = Rules::new(Variant::Bughouse);
        let pa = Position::from_setup(a, rules).map_err(|e| (BoardId::A, e))?;
        let pb = Position::from_setup(b, rules).map_err(|e| (BoardId::B, e))?;
        Ok(Match { boards: [pa, pb] })
    }

    /// This match with drop-mate allowed or forbidden on both boards (a per-match option:
    /// when forbidden, a drop that mates is illegal; other drop checks stay legal).
    #[must_use]
    pub fn with_drop_mate(mut self, allowed: bool) -> Match {
        for board in &mut self.boards {
            board.set_drop_mate(allowed);
        }
        self
    }

    /// Both boards marked as Chess960's ([`Position::set_chess960`]).
    pub fn with_chess960(mut self) -> Match {
        for board in &mut self.boards {
            board.set_chess960();
        }
        self
    }

    /// The rules both boards play by.
    pub fn rules(&self) -> Rules {
        self.boards[0].rules()
    }

    /// The position on board `id`.
    pub fn board(&self, id: BoardId) -> &Position {
        &self.boards[id.index()]
    }

    /// Plays a legal move on `board`; a captured piece goes to the partner board.
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] when `m` is not legal on that board now.
    pub fn play(&mut self, board: BoardId, m: Move) -> Result<(), IllegalMove> {
        let handed = self.boards[board.index()].play(m)?;
        self.pass(board, handed);
        Ok(())
    }

    /// Plays `m` on `board` without checking it.
    pub fn play_unchecked(&mut self, board: BoardId, m: Move) {
        let handed = self.boards[board.index()].play_unchecked(m);
        self.pass(board, handed);
    }

    fn pass(&mut self, board: BoardId, handed: Option<Piece>) {
        if let Some(piece) = handed {
            self.boards[board.partner().index()].add_to_pocket(piece);
        }
    }

    /// A checkmate on either board ends the match: the board and the outcome there.
    pub fn outcome(&self) -> Option<(BoardId, Outcome)> {
        [BoardId::A, BoardId::B].into_iter().find_map(|id| {
            let pos = self.board(id);
            pos.is_checkmate()
                .then(|| (id, pos.outcome().expect("checkmate is an outcome")))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Role, Square};

    /// Plays the legal move given as its destination square (`e4`), its origin and
    /// destination (`e4d5`), or a drop (`P@e5`).
    fn play(game: &mut Match, board: BoardId, text: &str) {
        let pos = game.board(board);
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let m = pos
            .legal_moves()
            .into_iter()
            .find(|m| match (text.len(), text.split_once('@')) {
                (_, Some((role, to))) => {
                    *m == Move::Put {
                        role: Role::from_char(role.chars().next().unwrap()).unwrap(),
                        to: sq(to),
                    }
                }
                (2, None) => !m.is_drop() && m.to() == sq(text),
                _ => m.from() == Some(sq(&text[..2])) && m.to() == sq(&text[2..]),
            })
            .unwrap_or_else(|| panic!("{text} is not legal"));
        game.play(board, m).unwrap();
    }

    #[test]
    fn an_illegal_move_is_refused_with_its_reason() {
        let mut g = Match::new();
        let drop = Move::Put {
            role: Role::Knight,
            to: "e4".parse().unwrap(),
        };
        let e = g.play(BoardId::A, drop).unwrap_err();
        assert_eq!(e.kind, crate::position::IllegalReason::NotInPocket);
        assert_eq!(
            g.board(BoardId::A).turn(),
            Color::White,
            "nothing was played"
        );
    }

    #[test]
    fn captures_go_to_the_partner_in_the_captured_colour() {
        let mut g = Match::new();
        play(&mut g, BoardId::B, "e4");
        play(&mut g, BoardId::B, "d5");
        play(&mut g, BoardId::B, "e4d5");
        assert_eq!(g.board(BoardId::A).pockets().black.get(Role::Pawn), 1);
        assert!(g.board(BoardId::B).pockets().white.is_empty());
        // Black on A can drop it now; White on A cannot.
        play(&mut g, BoardId::A, "e4");
        play(&mut g, BoardId::A, "P@e5");
        assert!(g.board(BoardId::A).pockets().black.is_empty());
    }

    #[test]
    fn a_captured_promoted_piece_goes_to_the_partner_as_a_pawn() {
        let a: Setup = "4k3/8/8/8/8/8/8/q~2RK3/ w - - 0 1".parse().unwrap();
        let mut g = Match::from_setups(&a, &Setup::crazyhouse_start()).unwrap();
        play(&mut g, BoardId::A, "d1a1");
        assert_eq!(g.board(BoardId::B).pockets().black.get(Role::Pawn), 1);
        assert_eq!(g.board(BoardId::B).pockets().black.get(Role::Queen), 0);
        assert!(g.board(BoardId::A).pockets().white.is_empty());
    }

    #[test]
    fn teams() {
        assert_eq!(Team::of(BoardId::A, Color::White), Team::One);
        assert_eq!(Team::of(BoardId::B, Color::Black), Team::One);
        assert_eq!(Team::of(BoardId::B, Color::White), Team::Two);
    }
}
