//! Legal move generation.
//!
//! Pins and check evasions are computed directly: each piece gets a target mask (the
//! whole board, or the check's blocking squares and the checker) narrowed to its pin line,
//! so only en passant needs a full test. One generator serves two sinks: a list of moves
//! and a counter that counts whole target sets with `popcount` (perft's leaf counting, and
//! drops, which are a pocket × squares product).

use super::Position;
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::moves::{Move, MoveList, castle_king_to, castle_rook_to};
use crate::setup::Pocket;
use crate::types::{Color, File, Piece, Rank, Role, Square};

/// Receives generated moves.
pub(crate) trait Sink {
    /// `role` from `from` to each square of `targets` (captures read off `board`).
    fn piece(&mut self, board: &Board, role: Role, from: Square, targets: Bitboard);
    /// Pawn moves to `targets`, each from `to - delta`; targets on `promo` promote.
    fn pawns(&mut self, board: &Board, targets: Bitboard, delta: i32, promo: Bitboard);
    /// Drops: non-pawn roles of `pocket` on `targets`, pawns on `pawn_targets`.
    fn drops(&mut self, pocket: Pocket, targets: Bitboard, pawn_targets: Bitboard);
    fn push(&mut self, m: Move);
}

impl<const N: usize> Sink for arrayvec::ArrayVec<Move, N> {
    #[inline]
    fn piece(&mut self, board: &Board, role: Role, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::Normal {
                role,
                from,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }

    #[inline]
    fn pawns(&mut self, board: &Board, targets: Bitboard, delta: i32, promo: Bitboard) {
        for to in targets & !promo {
            let from = Square::new((to.index() as i32 - delta) as u8);
            self.push(Move::Normal {
                role: Role::Pawn,
                from,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
        for to in targets & promo {
            let from = Square::new((to.index() as i32 - delta) as u8);
            let capture = board.role_at(to);
            for p in Role::PROMOTIONS {
                self.push(Move::Normal {
                    role: Role::Pawn,
                    from,
                    capture,
                    to,
                    promotion: Some(p),
                });
            }
        }
    }

    #[inline]
    fn drops(&mut self, pocket: Pocket, targets: Bitboard, pawn_targets: Bitboard) {
        for role in Role::POCKET {
            if pocket.get(role) > 0 {
                let t = if role == Role::Pawn {
                    pawn_targets
                } else {
                    targets
                };
                for to in t {
                    self.push(Move::Put { role, to });
                }
            }
        }
    }

    #[inline]
    fn push(&mut self, m: Move) {
        ArrayPush::push_move(self, m);
    }
}

/// Disambiguates `ArrayVec::push` from `Sink::push`.
trait ArrayPush {
    fn push_move(&mut self, m: Move);
}

impl<const N: usize> ArrayPush for arrayvec::ArrayVec<Move, N> {
    #[inline]
    fn push_move(&mut self, m: Move) {
        arrayvec::ArrayVec::push(self, m);
    }
}

/// The legal moves of one role to one square: at most 8 sliders or knights, or 3 pawns
/// with 4 promotions each, or 1 drop.
pub type SquareMoves = arrayvec::ArrayVec<Move, 32>;

/// Which moves to generate: those landing on `to`, of the roles in the bit set `roles`.
#[derive(Clone, Copy)]
pub(crate) struct Filter {
    pub to: Bitboard,
    pub roles: u8,
}

impl Filter {
    pub const ALL: Filter = Filter {
        to: Bitboard::FULL,
        roles: 0x3f,
    };

    #[inline]
    fn has(self, role: Role) -> bool {
        self.roles & (1 << role as u8) != 0
    }
}

/// Counts moves without building them.
#[derive(Default)]
pub(crate) struct Counter(pub u64);

impl Sink for Counter {
    #[inline]
    fn piece(&mut self, _: &Board, _: Role, _: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }

    #[inline]
    fn pawns(&mut self, _: &Board, targets: Bitboard, _: i32, promo: Bitboard) {
        self.0 += u64::from((targets & !promo).count()) + 4 * u64::from((targets & promo).count());
    }

    #[inline]
    fn drops(&mut self, pocket: Pocket, targets: Bitboard, pawn_targets: Bitboard) {
        let pieces = (pocket.role_mask() >> 1).count_ones();
        self.0 += u64::from(pieces * targets.count());
        if pocket.get(Role::Pawn) > 0 {
            self.0 += u64::from(pawn_targets.count());
        }
    }

    #[inline]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// Records whether there is any move, without building them.
#[derive(Default)]
struct Any(bool);

impl Sink for Any {
    #[inline]
    fn piece(&mut self, _: &Board, _: Role, _: Square, targets: Bitboard) {
        self.0 |= targets.any();
    }

    #[inline]
    fn pawns(&mut self, _: &Board, targets: Bitboard, _: i32, _: Bitboard) {
        self.0 |= targets.any();
    }

    #[inline]
    fn drops(&mut self, pocket: Pocket, targets: Bitboard, pawn_targets: Bitboard) {
        self.0 |= (pocket.role_mask() >> 1 != 0 && targets.any())
            || (pocket.get(Role::Pawn) > 0 && pawn_targets.any());
    }

    #[inline]
    fn push(&mut self, _: Move) {
        self.0 = true;
    }
}

impl Position {
    /// Generates every legal move into `sink`.
    pub(crate) fn generate<S: Sink>(&self, sink: &mut S) {
        self.generate_with(sink, true, Filter::ALL);
    }

    /// Generates the legal moves that pass `filter` into `sink`, drops only if `drops`.
    pub(crate) fn generate_with<S: Sink>(&self, sink: &mut S, drops: bool, filter: Filter) {
        let us = self.turn;
        let them = !us;
        let board = &self.board;
        let ours = board.by_color(us);
        let occ = board.occupied();
        let Some(king) = self.our_king() else {
            // No king: the Horde's White, where every pseudo-legal move is legal. There is
            // nothing to drop whatever `drops` says: only the Horde lets a side go without
            // a king, the Horde has no drops, and the setup checks (`validity`) empty the
            // pockets of a variant without drops.
            self.gen_pieces(sink, !ours & filter.to, None, Bitboard::EMPTY, filter.roles);
            if filter.has(Role::Pawn) {
                self.gen_en_passant(sink, None, filter.to);
            }
            return;
        };
        let checkers = board.attackers_to(king, them, occ);
        let pinned = self.pinned(king);
        if filter.has(Role::King) {
            self.gen_king(sink, king, filter.to);
        }
        match checkers.single_square() {
            None if checkers.is_empty() => {
                self.gen_pieces(sink, !ours & filter.to, Some(king), pinned, filter.roles);
                if filter.has(Role::King) {
                    self.gen_castling(sink, king, filter.to);
                }
                if filter.has(Role::Pawn) {
                    self.gen_en_passant(sink, Some(king), filter.to);
                }
                if drops {
                    let to = drop_squares(king, checkers, occ);
                    self.gen_drops(sink, to & filter.to, filter.roles);
                }
            }
            None => {} // double check: king moves only
            Some(checker) => {
                let block = attacks::between(king, checker);
                self.gen_pieces(
                    sink,
                    block.with(checker) & filter.to,
                    Some(king),
                    pinned,
                    filter.roles,
                );
                if filter.has(Role::Pawn) {
                    self.gen_en_passant(sink, Some(king), filter.to);
                }
                if drops {
                    let to = drop_squares(king, checkers, occ);
                    self.gen_drops(sink, to & filter.to, filter.roles);
                }
            }
        }
    }

    /// Our pieces pinned to `king`.
    #[inline]
    pub(crate) fn pinned(&self, king: Square) -> Bitboard {
        let board = &self.board;
        let them = board.by_color(!self.turn);
        let snipers = them
            & ((attacks::rook_rays(king) & board.rooks_and_queens())
                | (attacks::bishop_rays(king) & board.bishops_and_queens()));
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let b = attacks::between(king, s) & board.occupied();
            if !b.more_than_one() {
                pinned |= b;
            }
        }
        pinned & board.by_color(self.turn)
    }

    fn gen_king<S: Sink>(&self, sink: &mut S, king: Square, to: Bitboard) {
        let board = &self.board;
        let them = !self.turn;
        let occ = board.occupied() ^ Bitboard::from_square(king);
        let mut safe = Bitboard::EMPTY;
        for sq in attacks::king_attacks(king) & !board.by_color(self.turn) & to {
            if !board.is_attacked(sq, them, occ) {
                safe |= sq;
            }
        }
        sink.piece(board, Role::King, king, safe);
    }

    /// Knight, bishop, rook, queen and pawn moves to `target` (kings apart).
    fn gen_pieces<S: Sink>(
        &self,
        sink: &mut S,
        target: Bitboard,
        king: Option<Square>,
        pinned: Bitboard,
        roles: u8,
    ) {
        if target.is_empty() {
            return;
        }
        let board = &self.board;
        let us = self.turn;
        let ours = board.by_color(us);
        let occ = board.occupied();
        let pin_line = |from: Square| match king {
            Some(k) if pinned.contains(from) => attacks::line(k, from),
            _ => Bitboard::FULL,
        };
        let only = |role: Role| {
            if roles & (1 << role as u8) != 0 {
                Bitboard::FULL
            } else {
                Bitboard::EMPTY
            }
        };
        for from in board.by_role(Role::Knight) & ours & !pinned & only(Role::Knight) {
            sink.piece(
                board,
                Role::Knight,
                from,
                attacks::knight_attacks(from) & target,
            );
        }
        for role in [Role::Bishop, Role::Rook, Role::Queen] {
            for from in board.by_role(role) & ours & only(role) {
                let attacks = crate::board::attacks_of(Piece { color: us, role }, from, occ);
                sink.piece(board, role, from, attacks & target & pin_line(from));
            }
        }
        let pawns = board.by_role(Role::Pawn) & ours & only(Role::Pawn);
        self.gen_pawns(sink, pawns & !pinned, target);
        for from in pawns & pinned {
            self.gen_pawns(sink, Bitboard::from_square(from), target & pin_line(from));
        }
    }

    /// Pushes and captures (not en passant) of `pawns` to `target`.
    #[inline]
    fn gen_pawns<S: Sink>(&self, sink: &mut S, pawns: Bitboard, target: Bitboard) {
        if pawns.is_empty() {
            return;
        }
        let board = &self.board;
        let us = self.turn;
        let empty = !board.occupied();
        let theirs = board.by_color(!us);
        let promo = Bitboard::relative_rank(us, Rank::Eighth);
        let (fwd, left, right) = match us {
            Color::White => (8, 7, 9),
            Color::Black => (-8, -9, -7),
        };
        let not_a = !Bitboard::file(File::A);
        let not_h = !Bitboard::file(File::H);
        let caps_left = (pawns & not_a).shift(left) & theirs & target;
        let caps_right = (pawns & not_h).shift(right) & theirs & target;
        sink.pawns(board, caps_left, left, promo);
        sink.pawns(board, caps_right, right, promo);
        let single = pawns.shift(fwd) & empty;
        let mut mid = Bitboard::relative_rank(us, Rank::Third);
        if self.rules.variant.is_horde() {
            mid |= Bitboard::relative_rank(us, Rank::Second);
        }
        let double = (single & mid).shift(fwd) & empty;
        sink.pawns(board, single & target, fwd, promo);
        sink.pawns(board, double & target, 2 * fwd, Bitboard::EMPTY);
    }

    fn gen_en_passant<S: Sink>(&self, sink: &mut S, king: Option<Square>, to: Bitboard) {
        let Some(ep) = self.ep_square.filter(|&ep| to.contains(ep)) else {
            return;
        };
        let board = &self.board;
        let us = self.turn;
        let capturers =
            attacks::pawn_attacks(!us, ep) & board.by_role(Role::Pawn) & board.by_color(us);
        for from in capturers {
            let victim = Square::from_coords(ep.file(), from.rank());
            let legal = match king {
                None => true,
                Some(k) => {
                    let occ = (board.occupied()
                        ^ Bitboard::from_square(from)
                        ^ Bitboard::from_square(victim))
                        | ep;
                    (board.attackers_to(k, !us, occ) & !Bitboard::from_square(victim)).is_empty()
                }
            };
            if legal {
                sink.push(Move::EnPassant { from, to: ep });
            }
        }
    }

    fn gen_castling<S: Sink>(&self, sink: &mut S, king: Square, to: Bitboard) {
        let board = &self.board;
        let us = self.turn;
        let rooks =
            self.castling_rights & Bitboard::relative_rank(us, Rank::First) & board.by_color(us);
        for rook in rooks {
            // The squares between king and rook are part of the path (checked first:
            // they are what usually stands in the way).
            if attacks::between(king, rook).intersects(board.occupied()) {
                continue;
            }
            let king_to = castle_king_to(king, rook);
            if !to.contains(king_to) || castle_path(king, rook).intersects(board.occupied()) {
                continue;
            }
            let occ = board.occupied() ^ Bitboard::from_square(king) ^ Bitboard::from_square(rook);
            let mut king_path = attacks::between(king, king_to) | king_to;
            if Iterator::any(&mut king_path, |sq| board.is_attacked(sq, !us, occ)) {
                continue;
            }
            sink.push(Move::Castle { king, rook });
        }
    }

    fn gen_drops<S: Sink>(&self, sink: &mut S, targets: Bitboard, roles: u8) {
        if !self.rules.variant.has_drops() {
            return;
        }
        let us = self.turn;
        let mut pocket = self.pockets[us];
        for role in Role::POCKET {
            if roles & (1 << role as u8) == 0 {
                pocket.set(role, 0);
            }
        }
        if pocket.is_empty() || targets.is_empty() {
            return;
        }
        let pawn_targets = if self.rules.variant.first_rank_pawn_drops() {
            targets & !Bitboard::relative_rank(us, Rank::Eighth)
        } else {
            targets & !Bitboard::BACKRANKS
        };
        if self.rules.drop_mate {
            sink.drops(pocket, targets, pawn_targets);
            return;
        }
        let mut list = MoveList::new();
        list.drops(pocket, targets, pawn_targets);
        for m in list {
            if !self.drop_mates(m) {
                sink.push(m);
            }
        }
    }

    /// Whether the drop `m` gives checkmate (whatever the drop-mate option).
    pub fn drop_mates(&self, m: Move) -> bool {
        let Move::Put { role, to } = m else {
            return false;
        };
        let Some(their_king) = self.board.king_of(!self.turn) else {
            return false;
        };
        let piece = Piece {
            color: self.turn,
            role,
        };
        let occ = self.board.occupied() | to;
        if !crate::board::attacks_of(piece, to, occ).contains(their_king) {
            return false;
        }
        let mut after = self.clone();
        after.play_unchecked(m);
        !after.has_legal_moves()
    }

    /// Whether the side to move has any legal move: the king's moves first (most checks
    /// are met by one, found without the pins), then the rest, none of them built.
    pub fn has_legal_moves(&self) -> bool {
        let mut any = Any(false);
        if let Some(king) = self.our_king() {
            self.gen_king(&mut any, king, Bitboard::FULL);
            if any.0 {
                return true;
            }
        }
        self.generate(&mut any);
        any.0
    }

    /// The legal moves of `role` (drops included) that land on `to`, found without
    /// generating the others.
    pub fn legal_moves_to(&self, role: Role, to: Square) -> SquareMoves {
        let mut list = SquareMoves::new();
        let filter = Filter {
            to: Bitboard::from_square(to),
            roles: 1 << role as u8,
        };
        self.generate_with(&mut list, true, filter);
        list
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// The number of legal moves, counted without building them.
    pub fn count_legal(&self) -> u64 {
        let mut c = Counter(0);
        self.generate(&mut c);
        c.0
    }
}

/// The squares a drop may go to without leaving the king on `king`, attacked by
/// `checkers`, in check: every empty square out of check, the squares between the king
/// and a single checker, none in double check (a drop blocks, it never captures). The
/// one statement of the rule: the generator and [`Position::check`] use it.
#[inline]
pub(crate) fn drop_squares(king: Square, checkers: Bitboard, occupied: Bitboard) -> Bitboard {
    match checkers.single_square() {
        None if checkers.is_empty() => !occupied,
        None => Bitboard::EMPTY,
        Some(checker) => attacks::between(king, checker),
    }
}

/// The squares that must be empty for the king on `king` to castle with the rook on
/// `rook`: both paths and both destinations, except the two movers' own squares.
#[inline]
pub(crate) fn castle_path(king: Square, rook: Square) -> Bitboard {
    let king_to = castle_king_to(king, rook);
    let rook_to = castle_rook_to(king, rook);
    let movers = Bitboard::from_square(king) | rook;
    (attacks::between(king, king_to) | king_to | attacks::between(rook, rook_to) | rook_to)
        & !movers
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::testing::random_positions;
    use crate::variant::{Rules, Variant};

    /// `has_legal_moves` (the king's moves, then the rest, none built) says what the list
    /// of legal moves says: on random positions and every position one move after them
    /// (checks, mates), on mates and stalemates, and where only a drop would save the king
    /// or give mate, with drop mates allowed or not.
    #[test]
    fn has_legal_moves_is_whether_the_list_of_legal_moves_is_empty() {
        let mut positions = Vec::new();
        for (n, p) in random_positions().into_iter().enumerate() {
            if n % 4 == 0 {
                for m in p.legal_moves() {
                    let mut after = p.clone();
                    after.play_unchecked(m);
                    positions.push(after);
                }
            }
            positions.push(p);
        }
        for (fen, variant) in [
            (
                "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
                Variant::Chess,
            ),
            ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Variant::Chess),
            ("7k/5Q2/6K1/8/8/8/8/8/n b - - 0 1", Variant::Crazyhouse),
            ("6rk/6pp/8/8/8/8/8/K6R/r w - - 0 1", Variant::Crazyhouse),
            ("k7/8/1K6/8/8/8/8/8/Q b - - 0 1", Variant::Crazyhouse),
            ("k7/2K5/8/8/8/8/8/8/Q w - - 0 1", Variant::Crazyhouse),
            ("4k3/8/8/8/8/8/8/8 w - - 0 1", Variant::Horde),
        ] {
            let setup: crate::setup::Setup = fen.parse().unwrap();
            positions.push(Position::from_setup(&setup, Rules::new(variant)).unwrap());
        }
        let (mut none, mut checked) = (0, 0);
        for mut p in positions {
            for drop_mate in [true, false] {
                p.set_drop_mate(drop_mate);
                let want = !p.legal_moves().is_empty();
                assert_eq!(p.has_legal_moves(), want, "{p:?}");
                none += usize::from(!want);
                checked += 1;
            }
        }
        assert!(none >= 6 && checked > 10_000, "{none} of {checked}");
    }

    /// `legal_moves_to(role, to)` is exactly the legal moves of that role onto that square:
    /// drops of the other pocket pieces and moves to other squares stay out, with drop
    /// mates allowed or not.
    #[test]
    fn legal_moves_to_is_the_legal_moves_of_one_role_onto_one_square() {
        for (n, mut p) in random_positions().into_iter().enumerate().step_by(5) {
            for drop_mate in [true, false] {
                p.set_drop_mate(drop_mate);
                let all = p.legal_moves();
                for role in Role::ALL {
                    for i in 0..64 {
                        let to = Square::new(i);
                        let got: Vec<Move> = p.legal_moves_to(role, to).iter().copied().collect();
                        let want: Vec<Move> = all
                            .iter()
                            .copied()
                            .filter(|m| m.role() == role && m.to() == to)
                            .collect();
                        assert_eq!(got.len(), want.len(), "position {n}, {role:?} to {to:?}");
                        assert!(got.iter().all(|m| want.contains(m)), "{got:?} {want:?}");
                    }
                }
            }
        }
    }
}
