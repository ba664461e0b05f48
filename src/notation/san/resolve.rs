//! Resolution: the legal move a SAN names in a position, or the engine's reason why
//! there is none, and the defects of its spelling under strict resolution.

use super::{CastlingSide, Defect, DefectKind, DropStyle, San, SanPlus};
use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::position::{IllegalMove, IllegalReason, Position};
use crate::types::{Color, File, Rank, Role, Square};

impl super::Lan {
    /// The legal move this long-algebraic move names in `pos`: the move from its origin to
    /// its destination (castling as the king's move), of the piece its letter names.
    ///
    /// # Errors
    ///
    /// [`IllegalMove`] with the precise reason (a letter that is not the piece on the
    /// origin is `no-such-piece`).
    pub fn to_move(&self, pos: &Position) -> Result<Move, IllegalMove> {
        if let (Some(role), Some(piece)) = (self.role, pos.board().piece_at(self.from))
            && piece.role != role
            && piece.color == pos.turn()
        {
            return Err(IllegalMove::new(
                IllegalReason::NoSuchPiece,
                format!(
                    "the piece on {} is a {}, not a {}",
                    self.from,
                    piece.role.name(),
                    role.name()
                ),
            ));
        }
        crate::notation::uci::UciMove::Normal {
            from: self.from,
            to: self.to,
            promotion: self.promotion,
        }
        .to_move(pos)
    }
}

impl San {
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
        if board.is_attacked_among(target, !us, !to_bb, occ) {
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
    // A piece fits the SAN's file and rank; a pawn without a file is a push, so from the
    // destination's file (every pawn capture, en passant too, names the pawn's file).
    let fits = |from: Square| {
        file.is_none_or(|f| from.file() == f)
            && rank.is_none_or(|r| from.rank() == r)
            && (role != Role::Pawn || file.is_some() || from.file() == to.file())
    };
    // A piece's move without a promotion needs no promotion check (most moves).
    if role == Role::Pawn || promotion.is_some() {
        pos.check_promotion(role, to, promotion)?;
    }
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
    let fitting = |m: &&Move| match **m {
        Move::Normal {
            from, promotion: p, ..
        } => fits(from) && p == promotion,
        Move::EnPassant { from, .. } => fits(from) && promotion.is_none(),
        _ => false,
    };
    let mut fit = candidates.iter().filter(fitting);
    match (fit.next(), fit.next()) {
        (Some(m), None) => return Ok(*m),
        (None, _) => {}
        (Some(_), Some(_)) => {
            let many: Vec<Move> = candidates.iter().filter(fitting).copied().collect();
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
        .find(|&f| fits(f))
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
    use crate::position::testing::random_positions;

    /// A pawn reaching the last rank must name its promotion, and a piece cannot name
    /// one: both are refused while the SAN is resolved.
    #[test]
    fn promotions_are_checked_for_pawns_and_pieces() {
        let pos = Position::from_fen("4k3/P7/8/8/8/8/8/4K1N1 w - - 0 1", None).unwrap();
        let reason = |san: &str| {
            SanPlus::from_ascii(san.as_bytes())
                .unwrap()
                .san
                .to_move(&pos)
                .map_err(|e| e.kind)
        };
        assert_eq!(reason("a8"), Err(IllegalReason::PromotionMissing));
        // SAN's grammar has no `Nf3=Q`; a `San` built so is refused.
        let knight = San::Normal {
            role: Role::Knight,
            file: None,
            rank: None,
            capture: false,
            to: "f3".parse().unwrap(),
            promotion: Some(Role::Queen),
        };
        assert_eq!(
            knight.to_move(&pos).map_err(|e| e.kind),
            Err(IllegalReason::BadPromotion)
        );
        assert!(reason("a8=Q").is_ok());
        assert!(reason("Nf3").is_ok());
    }

    /// The fast path answers exactly when one piece fitting the SAN's description can
    /// reach the square (ignoring pins and checks) and its move is legal, and then with
    /// that move; en passant always takes the full path.
    #[test]
    fn the_fast_path_answers_exactly_for_a_single_legal_candidate() {
        let mut answered = 0;
        for pos in random_positions().iter().step_by(3) {
            let legal = pos.legal_moves();
            for &m in legal.iter() {
                let Move::Normal {
                    role,
                    from,
                    to,
                    promotion,
                    ..
                } = m
                else {
                    continue;
                };
                for (file, rank) in [
                    (None, None),
                    (Some(from.file()), None),
                    (None, Some(from.rank())),
                    (Some(from.file()), Some(from.rank())),
                ] {
                    let fitting = pos
                        .pseudo_origins(role, to)
                        .into_iter()
                        .filter(|o| {
                            file.is_none_or(|f| o.file() == f)
                                && rank.is_none_or(|r| o.rank() == r)
                                && (file.is_some() || role != Role::Pawn || o.file() == to.file())
                        })
                        .count();
                    let ep = role == Role::Pawn && pos.ep_square() == Some(to);
                    let fits = file.is_some() || role != Role::Pawn || from.file() == to.file();
                    let expected = (fitting == 1 && fits && !ep).then_some(m);
                    let got = single_candidate(pos, role, file, rank, to, promotion);
                    assert_eq!(got, expected, "{m:?} {file:?} {rank:?} in {pos:?}");
                    answered += usize::from(got.is_some());
                }
            }
            // A move whose piece is pinned or whose king would stand in check: the only
            // candidate, yet the fast path must not answer.
            for role in Role::ALL {
                for to in crate::types::Square::all() {
                    let origins = pos.pseudo_origins(role, to);
                    let Some(from) = origins.single_square() else {
                        continue;
                    };
                    let m = Move::Normal {
                        role,
                        from,
                        capture: pos.board().role_at(to),
                        to,
                        promotion: None,
                    };
                    if role == Role::Pawn
                        && (from.file() != to.file()
                            || to.rank() == Rank::First
                            || to.rank() == Rank::Eighth)
                    {
                        continue;
                    }
                    if !legal.contains(&m) {
                        assert_eq!(
                            single_candidate(pos, role, None, None, to, None),
                            None,
                            "{m:?} in {pos:?}"
                        );
                    }
                }
            }
        }
        assert!(answered > 10_000, "{answered}");
    }

    fn resolve(fen: &str, san: &str) -> Result<Move, IllegalMove> {
        let setup: crate::setup::Setup = fen.parse().unwrap();
        let pos = Position::from_setup(
            &setup,
            crate::variant::Rules::new(crate::variant::Variant::Chess),
        )
        .unwrap();
        san.parse::<SanPlus>().unwrap().san.to_move(&pos)
    }

    /// When the fast path cannot answer, the slow path matches candidates against the
    /// SAN's file and rank: both must fit.
    #[test]
    fn disambiguation_on_the_slow_path() {
        // Knights on b1, b3 and f3 all reach d2.
        let fen = "4k3/8/8/8/8/1N3N2/8/1N2K3 w - - 0 1";
        let e = resolve(fen, "Nbd2").unwrap_err();
        assert_eq!(e.kind, IllegalReason::Ambiguous);
        assert_eq!(e.message, "2 moves fit: N1d2, Nb3d2");
        let e = resolve(fen, "N3d2").unwrap_err();
        assert_eq!(e.message, "2 moves fit: Nb3d2, Nfd2");
        let m = resolve(fen, "Nb3d2").unwrap();
        assert_eq!(m.from(), Some("b3".parse().unwrap()));
        // The f3 knight is pinned by the h5 bishop against the e2 king.
        let pinned = "4k3/8/8/7b/8/5N2/4K3/1N6 w - - 0 1";
        let m = resolve(pinned, "Nd2").unwrap();
        assert_eq!(m.from(), Some("b1".parse().unwrap()));
        // The other way round: the b1 knight, the first on the board, is pinned by the h1
        // rook against the a1 king, so `Nd2` is the f3 knight's.
        let pinned = "4k3/8/8/8/8/5N2/8/KN5r w - - 0 1";
        let m = resolve(pinned, "Nd2").unwrap();
        assert_eq!(m.from(), Some("f3".parse().unwrap()));
    }

    /// Every piece and pawn SAN of the side to move (each role, each square, with no
    /// disambiguation or the file, rank or square of one of its pieces, or a file without
    /// one) resolves as the legal moves decide: the one fitting move, `ambiguous` for
    /// several, and otherwise the reason of the rules that applies.
    #[test]
    fn every_san_resolves_or_gets_the_reason_that_applies() {
        let mut kinds = std::collections::BTreeMap::new();
        for pos in random_positions().iter().step_by(40) {
            let legal = pos.legal_moves();
            let board = pos.board();
            let us = pos.turn();
            for role in Role::ALL {
                let mut descriptions = vec![(None, None), (Some(File::A), None)];
                for o in board.by_piece(crate::types::Piece { color: us, role }) {
                    descriptions.push((Some(o.file()), None));
                    descriptions.push((None, Some(o.rank())));
                    descriptions.push((Some(o.file()), Some(o.rank())));
                }
                for to in crate::types::Square::all() {
                    let last = to.rank() == us.relative_rank(Rank::Eighth);
                    let promotion = (role == Role::Pawn && last).then_some(Role::Queen);
                    for &(file, rank) in &descriptions {
                        let fits = |from: Square| {
                            file.is_none_or(|f| from.file() == f)
                                && rank.is_none_or(|r| from.rank() == r)
                                && (role != Role::Pawn
                                    || file.is_some()
                                    || from.file() == to.file())
                        };
                        let san = San::Normal {
                            role,
                            file,
                            rank,
                            capture: false,
                            to,
                            promotion,
                        };
                        let fitting: Vec<Move> = legal
                            .iter()
                            .copied()
                            .filter(|m| {
                                m.role() == role
                                    && m.to() == to
                                    && !matches!(m, Move::Castle { .. } | Move::Put { .. })
                                    && m.from().is_some_and(fits)
                                    && m.promotion() == promotion
                            })
                            .collect();
                        let result = san.to_move(pos);
                        let what = format!("{san} in {pos:?}");
                        let e = match result {
                            Ok(m) => {
                                assert_eq!(fitting, [m], "{what}");
                                continue;
                            }
                            Err(e) => e,
                        };
                        *kinds.entry(e.kind.name()).or_insert(0) += 1;
                        if e.kind == IllegalReason::Ambiguous {
                            assert!(fitting.len() >= 2, "{what}: {e}");
                            assert!(
                                e.message
                                    .starts_with(&format!("{} moves fit", fitting.len())),
                                "{what}: {e}"
                            );
                            continue;
                        }
                        assert!(fitting.is_empty(), "{what}: {e}");
                        let occupied = board.occupied().contains(to);
                        let reachable = Iterator::any(&mut pos.pseudo_origins(role, to), fits);
                        let expected = if role == Role::Pawn && file.is_none() && occupied {
                            IllegalReason::NoSuchPiece
                        } else if reachable {
                            IllegalReason::LeavesKingInCheck
                        } else if role == Role::Pawn
                            && file.is_some_and(|f| f != to.file())
                            && !occupied
                            && pos.ep_square() != Some(to)
                            && to.rank() != us.relative_rank(Rank::First)
                        {
                            IllegalReason::EnPassantNotAvailable
                        } else {
                            IllegalReason::NoSuchPiece
                        };
                        assert_eq!(e.kind, expected, "{what}: {e}");
                        // The words name the piece the SAN moves.
                        let piece = format!("{} {}", us.name(), role.name());
                        match e.kind {
                            IllegalReason::NoSuchPiece
                                if !occupied || role != Role::Pawn || file.is_some() =>
                            {
                                assert!(e.message.contains(&piece), "{what}: {e}");
                            }
                            IllegalReason::LeavesKingInCheck if role == Role::King => {
                                assert_eq!(
                                    e.message,
                                    format!("the king would stand in check on {to}"),
                                    "{what}"
                                );
                            }
                            IllegalReason::LeavesKingInCheck => {
                                assert!(!e.message.contains("king would stand"), "{what}: {e}");
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
        for kind in [
            "ambiguous",
            "no-such-piece",
            "leaves-king-in-check",
            "en-passant-not-available",
        ] {
            assert!(kinds.get(kind).is_some_and(|&n| n > 10), "{kinds:?}");
        }
    }

    /// The words of `no-such-piece`: which pieces were looked for.
    #[test]
    fn no_such_piece_names_the_description() {
        let fen = "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1";
        for (san, message) in [
            ("Nd3", "no white knight can reach d3"),
            ("Ncd2", "no white knight from the c-file can reach d2"),
            ("N3d2", "no white knight from rank 3 can reach d2"),
            ("Nc3d2", "no white knight from c3 can reach d2"),
            (
                "Nbe1",
                "no white knight from the b-file can reach e1 (e1 holds a white piece)",
            ),
        ] {
            let e = resolve(fen, san).unwrap_err();
            assert_eq!(
                (e.kind, e.message.as_str()),
                (IllegalReason::NoSuchPiece, message),
                "{san}"
            );
        }
        let e = resolve("4k3/8/8/3p4/8/8/8/4K3 w - - 0 1", "exd6").unwrap_err();
        assert_eq!(e.kind, IllegalReason::EnPassantNotAvailable);
        let e = resolve("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "exd6");
        assert!(matches!(e, Ok(Move::EnPassant { .. })), "{e:?}");
        // Not by a pawn of another file, nor as a push.
        for san in ["cxd6", "d6"] {
            let e = resolve("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", san).unwrap_err();
            assert_eq!(e.kind, IllegalReason::NoSuchPiece, "{san}: {e}");
        }
        // A pinned knight onto the en passant square (the e5 pawn may take there): the
        // knight's reason, not a pawn's.
        let e = resolve("4b1k1/8/8/1N1pP3/K7/8/8/8 w - d6 0 2", "Nd6").unwrap_err();
        assert_eq!(e.kind, IllegalReason::LeavesKingInCheck, "{e}");
        let e = resolve("4k3/8/8/8/8/8/4p3/4K3 w - - 0 1", "e2").unwrap_err();
        assert!(e.message.starts_with("e2 is occupied"), "{e}");
    }
}
