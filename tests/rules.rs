//! Hand-made positions, one per rule of each variant.

use pocketfen::notation::fen::FenDialect;
use pocketfen::{
    CaptureMode, Color, EndReason, Fen, Move, Outcome, Piece, Position, Role, Rules, Setup,
    SetupProblemKind, Square, Variant,
};

fn pos(fen: &str, variant: Variant) -> Position {
    Position::from_setup(&fen.parse::<Setup>().unwrap(), Rules::new(variant))
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn uci_moves(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(false).to_string())
        .collect();
    v.sort();
    v
}

/// The messages of the setup problems of `kind` in `fen` read as `variant`.
fn problems_of(fen: &str, variant: Variant, kind: SetupProblemKind) -> Vec<String> {
    let setup: Setup = fen.parse().unwrap();
    Position::check_setup(&setup, Rules::new(variant))
        .into_iter()
        .filter(|p| p.kind == kind)
        .map(|p| p.message)
        .collect()
}

/// The legal move written `uci` (it must be legal).
fn legal_move(p: &Position, uci: &str) -> Move {
    *p.legal_moves()
        .iter()
        .find(|m| m.to_uci(false).to_string() == uci)
        .unwrap_or_else(|| panic!("{uci} not legal in {p:?}"))
}

fn play_uci(p: &mut Position, uci: &str) -> Option<Piece> {
    let m = legal_move(p, uci);
    p.play(m).unwrap()
}

#[test]
fn drop_interposition_saves_from_back_rank_mate() {
    let mated = pos("6k1/8/8/8/8/8/6PP/r6K[] w - - 0 1", Variant::Crazyhouse);
    assert!(mated.is_checkmate());
    let saved = pos("6k1/8/8/8/8/8/6PP/r6K[N] w - - 0 1", Variant::Crazyhouse);
    assert!(!saved.is_checkmate());
    assert_eq!(
        uci_moves(&saved),
        ["N@b1", "N@c1", "N@d1", "N@e1", "N@f1", "N@g1"]
    );
    // A pawn cannot block on the first rank.
    let pawn_only = pos("6k1/8/8/8/8/8/6PP/r6K[P] w - - 0 1", Variant::Crazyhouse);
    assert!(pawn_only.is_checkmate());
    assert_eq!(
        pawn_only.outcome(),
        Some(Outcome::Decisive {
            winner: Color::Black,
            reason: EndReason::Checkmate
        })
    );
}

#[test]
fn no_drop_evasion_against_contact_or_double_check() {
    let knight_check = pos(
        "6k1/8/8/8/8/6n1/6PP/6RK[QRBNP] w - - 0 1",
        Variant::Crazyhouse,
    );
    assert!(knight_check.is_check());
    assert!(knight_check.legal_moves().iter().all(|m| !m.is_drop()));
    assert_eq!(uci_moves(&knight_check), ["h2g3"]);
}

#[test]
fn captured_promoted_queen_goes_to_the_pocket_as_a_pawn() {
    let mut p = pos("4k3/8/8/8/8/8/8/q~2RK3/ w - - 0 1", Variant::Crazyhouse);
    play_uci(&mut p, "d1a1");
    assert_eq!(p.pockets().white.get(Role::Pawn), 1);
    assert_eq!(p.pockets().white.get(Role::Queen), 0);
    assert!(p.promoted().is_empty());
}

#[test]
fn loop_keeps_the_captured_promoted_queen() {
    let mut p = pos("4k3/8/8/8/8/8/8/q~2RK3/ w - - 0 1", Variant::Loop);
    play_uci(&mut p, "d1a1");
    assert_eq!(p.pockets().white.get(Role::Queen), 1);
    assert_eq!(p.pockets().white.get(Role::Pawn), 0);
}

#[test]
fn promotion_marks_move_with_the_piece_and_clear_on_capture() {
    let mut p = pos("4k3/1P6/8/8/8/8/8/4K3/ w - - 0 1", Variant::Crazyhouse);
    play_uci(&mut p, "b7b8q");
    assert!(p.promoted().contains(sq("b8")));
    play_uci(&mut p, "e8d7");
    play_uci(&mut p, "b8b5");
    assert_eq!(p.promoted().count(), 1);
    assert!(p.promoted().contains(sq("b5")));
}

#[test]
fn chessgi_drops_pawns_on_the_own_first_rank_only() {
    let fen = "4k3/8/8/8/8/8/8/4K3[Pp] w - - 0 1";
    let chessgi = pos(fen, Variant::Chessgi);
    let drops: Vec<String> = uci_moves(&chessgi)
        .into_iter()
        .filter(|m| m.starts_with("P@"))
        .collect();
    assert_eq!(
        drops.len(),
        62 - 7,
        "every empty square but rank 8: {drops:?}"
    );
    assert!(drops.contains(&"P@a1".to_owned()));
    assert!(!drops.iter().any(|d| d.ends_with('8')));
    let zh = pos(fen, Variant::Crazyhouse);
    assert!(!uci_moves(&zh).iter().any(|m| m == "P@a1"));
}

#[test]
fn horde_double_step_from_rank_one_gives_no_en_passant() {
    let mut p = pos("4k3/8/8/8/8/3p4/8/4P3 w - - 0 1", Variant::Horde);
    assert!(uci_moves(&p).contains(&"e1e3".to_owned()));
    play_uci(&mut p, "e1e3");
    assert_eq!(p.ep_square(), None);
    assert!(!uci_moves(&p).contains(&"d3e2".to_owned()));
    // From rank 2 the double step does give en passant.
    let mut p = pos("4k3/8/8/8/3p4/8/4P3/8 w - - 0 1", Variant::Horde);
    play_uci(&mut p, "e2e4");
    assert_eq!(p.ep_square(), Some(sq("e3")));
    assert!(uci_moves(&p).contains(&"d4e3".to_owned()));
}

#[test]
fn horde_white_is_never_in_check_and_loses_when_extinct() {
    let p = pos("4k3/8/8/8/8/8/8/4P3 w - - 0 1", Variant::Horde);
    assert!(!p.is_check());
    // A rook behind White's last pawn: no check (White has no king), the pawn still moves,
    // and the game goes on.
    let mut p = pos("4k3/8/8/8/8/8/3P4/4r3 b - - 0 1", Variant::Horde);
    play_uci(&mut p, "e1d1");
    assert!(!p.is_check());
    assert_eq!(p.checkers(), pocketfen::Bitboard::EMPTY);
    assert_eq!(uci_moves(&p), ["d2d3", "d2d4"]);
    assert!(!p.is_variant_end());
    assert_eq!(p.outcome(), None);
    let mut p = pos("4k3/8/8/8/8/8/8/3Pr3 b - - 0 1", Variant::Horde);
    play_uci(&mut p, "e1d1");
    assert!(p.is_variant_end());
    assert_eq!(
        p.outcome(),
        Some(Outcome::Decisive {
            winner: Color::Black,
            reason: EndReason::Extinction
        })
    );
}

#[test]
fn horde_blocked_pawns_are_stalemate() {
    let p = pos("4k3/8/8/8/p7/P7/8/8 w - - 0 1", Variant::Horde);
    assert_eq!(
        p.outcome(),
        Some(Outcome::Draw {
            reason: EndReason::Stalemate
        })
    );
}

#[test]
fn drop_mate_can_be_forbidden() {
    // Q@g7 mates (supported by the pawn on f6); Q@e8 is a check that does not mate.
    let fen = "6k1/8/5P2/8/8/8/8/K7[Q] w - - 0 1";
    let allowed = pos(fen, Variant::Crazyhouse);
    assert!(uci_moves(&allowed).contains(&"Q@g7".to_owned()));
    let mut forbidden = allowed.clone();
    forbidden.set_drop_mate(false);
    let moves = uci_moves(&forbidden);
    assert!(!moves.contains(&"Q@g7".to_owned()));
    assert!(
        moves.contains(&"Q@e8".to_owned()),
        "non-mating drop checks stay legal"
    );
    assert_eq!(allowed.count_legal(), forbidden.count_legal() + 1);
}

/// A drop that stalemates is not a mate, so forbidding drop mates leaves it legal, even
/// when the dropped piece's line to the king is only blocked (B@d5 behind b7), and also
/// when it is not (N@h1).
#[test]
fn a_stalemating_drop_is_not_a_drop_mate() {
    // Black is stalemated whatever White drops: Ka8 has no square and b7 is blocked.
    let mut p = pos("k7/1pK5/1P6/8/8/8/8/8[BN] w - - 0 1", Variant::Crazyhouse);
    p.set_drop_mate(false);
    let moves = uci_moves(&p);
    for drop in ["B@d5", "B@h1", "N@h1", "N@b8"] {
        assert!(moves.contains(&drop.to_owned()), "{drop} in {moves:?}");
        let mut after = p.clone();
        play_uci(&mut after, drop);
        assert!(after.is_stalemate(), "{drop}");
        assert!(!p.drop_mates(legal_move(&p, drop)), "{drop}");
    }
}

#[test]
fn a_pawn_drop_resets_the_half_move_clock() {
    let mut p = pos("4k3/8/8/8/8/8/8/4K3[PN] w - - 7 20", Variant::Crazyhouse);
    play_uci(&mut p, "N@c3");
    assert_eq!(p.halfmoves(), 8);
    play_uci(&mut p, "e8d8");
    play_uci(&mut p, "P@e4");
    assert_eq!(p.halfmoves(), 0);
}

#[test]
fn a_dropped_rook_cannot_castle() {
    let mut p = pos("b3k3/8/8/8/8/8/8/4K2R[RP] b K - 0 1", Variant::Crazyhouse);
    assert!(p.castling_rights().contains(sq("h1")));
    play_uci(&mut p, "a8h1");
    assert!(
        p.castling_rights().is_empty(),
        "capturing the rook removes the right"
    );
    play_uci(&mut p, "P@a3");
    play_uci(&mut p, "h1d5");
    play_uci(&mut p, "R@h1");
    play_uci(&mut p, "d5e6");
    assert!(!uci_moves(&p).contains(&"e1g1".to_owned()));
    let fen = p
        .to_setup()
        .display(pocketfen::notation::fen::FenDialect::Lichess)
        .to_string();
    assert_eq!(fen, "4k3/8/4b3/8/8/P7/8/4K2R/r w - - 3 4");
}

#[test]
fn a_dropped_rook_cannot_castle_in_crazyhouse960() {
    // King c1, rook b1: Chess960 castling on the queen side (the king stays, the rook
    // goes to d1), written king-takes-rook.
    let castles = |p: &Position| {
        p.legal_moves()
            .iter()
            .filter(|m| matches!(m, Move::Castle { .. }))
            .map(|m| m.to_uci(true).to_string())
            .collect::<Vec<_>>()
    };
    let fen = "4k3/8/8/5b2/8/8/8/1RK5[RP] w B - 0 1";
    let white_first = pos(fen, Variant::Crazyhouse);
    assert!(white_first.is_chess960());
    assert_eq!(castles(&white_first), ["c1b1"]);
    let mut p = pos(&fen.replace(" w ", " b "), Variant::Crazyhouse);
    play_uci(&mut p, "f5b1");
    assert!(p.castling_rights().is_empty());
    play_uci(&mut p, "P@a3");
    play_uci(&mut p, "b1a2");
    play_uci(&mut p, "R@b1");
    play_uci(&mut p, "e8d8");
    assert_eq!(
        p.board().piece_at(sq("b1")).map(|p| p.role),
        Some(Role::Rook)
    );
    assert!(castles(&p).is_empty(), "{:?}", castles(&p));
}

#[test]
fn bughouse_captures_are_handed_back_promoted_as_pawns() {
    let mut p = pos("4k3/8/8/8/8/8/8/q~2RK3/ w - - 0 1", Variant::Bughouse);
    assert_eq!(p.rules().captures, CaptureMode::Return);
    let handed = play_uci(&mut p, "d1a1");
    assert_eq!(
        handed,
        Some(Piece {
            color: Color::Black,
            role: Role::Pawn
        })
    );
    assert!(
        p.pockets().white.is_empty(),
        "nothing goes to the capturer's own pocket"
    );
    let mut p = pos("4k3/8/8/8/8/8/8/r2RK3/ w - - 0 1", Variant::Bughouse);
    assert_eq!(
        play_uci(&mut p, "d1a1"),
        Some(Piece {
            color: Color::Black,
            role: Role::Rook
        })
    );
    assert!(p.add_to_pocket(Piece {
        color: Color::Black,
        role: Role::Rook
    }));
    assert_eq!(p.pockets().black.get(Role::Rook), 1);
}

#[test]
fn setup_problems_are_all_reported() {
    let setup: Setup = "4k2K/P7/8/8/8/8/8/p3K3 w Qk e6 0 1".parse().unwrap();
    let problems = Position::check_setup(&setup, Rules::new(Variant::Chess));
    let kinds: Vec<SetupProblemKind> = problems.iter().map(|p| p.kind).collect();
    for k in [
        SetupProblemKind::TooManyKings,
        SetupProblemKind::PawnsOnBackrank,
        SetupProblemKind::InvalidCastlingRights,
        SetupProblemKind::InvalidEpSquare,
    ] {
        assert!(kinds.contains(&k), "{k:?} missing from {problems:?}");
    }
}

#[test]
fn opposite_check_and_impossible_check() {
    let setup: Setup = "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1".parse().unwrap();
    let kinds: Vec<_> = Position::check_setup(&setup, Rules::new(Variant::Chess))
        .into_iter()
        .map(|p| p.kind)
        .collect();
    assert_eq!(kinds, [SetupProblemKind::OppositeCheck]);
    let setup: Setup = "5R2/2P5/8/4k3/8/3rK2r/8/8 w - - 0 1".parse().unwrap();
    let err = Position::from_setup(&setup, Rules::new(Variant::Chess)).unwrap_err();
    assert_eq!(
        err.errors().map(|p| p.kind).collect::<Vec<_>>(),
        [SetupProblemKind::ImpossibleCheck]
    );
    assert!(err.ignore(&[SetupProblemKind::ImpossibleCheck]).is_ok());
}

#[test]
fn crazyhouse_material_beyond_two_sets_is_a_warning() {
    let setup: Setup = "4k3/8/8/8/8/8/8/4K3[QQQ] w - - 0 1".parse().unwrap();
    let problems = Position::check_setup(&setup, Rules::new(Variant::Crazyhouse));
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].kind, SetupProblemKind::TooMuchMaterial);
    assert!(Position::from_setup(&setup, Rules::new(Variant::Crazyhouse)).is_ok());
}

/// In Loop and Chessgi a captured promoted piece keeps its rank, so a role may pass its
/// set's count by as many pieces as pawns are missing: the position pocketfen itself
/// reaches by `bxa8=Q Qxa8` (three queens, fifteen pawns short) is no warning there, and
/// stays one in Crazyhouse (where the queen taken would be a pawn). More pieces beyond a
/// set's than pawns missing is still a warning.
#[test]
fn loop_and_chessgi_material_beyond_a_set_is_paid_for_by_missing_pawns() {
    let reached: Setup = "q3k3/8/8/8/8/8/8/3QK3/Rq w - - 0 2".parse().unwrap();
    let over: Setup = "qqqqkqqq/pppppppp/8/8/8/8/PPPPPPPP/QQQQKQQQ/ w - - 0 1"
        .parse()
        .unwrap();
    let kinds = |setup: &Setup, v: Variant| -> Vec<SetupProblemKind> {
        Position::check_setup(setup, Rules::new(v))
            .into_iter()
            .map(|p| p.kind)
            .collect()
    };
    for v in [Variant::Loop, Variant::Chessgi] {
        assert_eq!(kinds(&reached, v), [], "{v}");
        assert_eq!(kinds(&over, v), [SetupProblemKind::TooMuchMaterial], "{v}");
    }
    assert_eq!(
        kinds(&reached, Variant::Crazyhouse),
        [SetupProblemKind::TooMuchMaterial]
    );
    // Reached by play: pocketfen's own moves give the position it then accepts.
    let mut p = pos("r2qk3/1P6/8/8/8/8/8/3QK3/ w - - 0 1", Variant::Loop);
    for san in ["bxa8=Q", "Qxa8"] {
        let m = san
            .parse::<pocketfen::notation::san::San>()
            .unwrap()
            .to_move(&p)
            .unwrap();
        p.play_unchecked(m);
    }
    assert_eq!(p.to_setup(), reached);
}

#[test]
fn chess960_castling_round_trips_through_setup() {
    let p = pos(
        "4rrk1/pbbp2p1/1ppnp3/3n1pqp/3N1PQP/1PPNP3/PBBP2P1/4RRK1 w Ff - 0 1",
        Variant::Chess,
    );
    assert!(p.is_chess960());
    let flags: String = p.to_setup().castling.iter().map(|f| f.char()).collect();
    assert_eq!(flags, "Ff");
    // The e-rook stands on the king's path: no castling (lila#4625).
    assert!(
        p.legal_moves()
            .iter()
            .all(|m| !matches!(m, Move::Castle { .. }))
    );
}

#[test]
fn threefold_repetition_is_a_claim_counted_by_key() {
    let mut p = Position::start(Variant::Crazyhouse);
    let mut reps = pocketfen::Repetitions::new();
    assert_eq!(reps.push(&p), 1);
    for round in 2..=3 {
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            play_uci(&mut p, m);
            reps.push(&p);
        }
        assert_eq!(reps.is_threefold(&p), round == 3);
    }
    assert_eq!(
        p.outcome(),
        None,
        "repetition never ends the game by itself"
    );
    // A different pocket is a different position.
    let a = pos("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", Variant::Crazyhouse);
    let b = pos("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", Variant::Crazyhouse);
    assert_ne!(a.repetition_key(), b.repetition_key());
}

#[test]
fn fifty_move_rule_is_a_claim() {
    let p = pos("4k3/8/8/8/8/8/8/4K2R[] w - - 100 80", Variant::Crazyhouse);
    assert!(p.is_fifty_move_claimable());
    assert_eq!(p.outcome(), None);
    let early = pos("4k3/8/8/8/8/8/8/4K2R[] w - - 99 80", Variant::Crazyhouse);
    assert!(!early.is_fifty_move_claimable());
}

/// The repetition key tells apart the positions met along random games (board, promoted
/// marks, pockets, turn, castling rights, a capturable en passant square), and leaves out
/// the clocks.
#[test]
fn repetition_keys_tell_positions_apart() {
    use std::collections::HashMap;
    let mut seen: HashMap<(String, u64), String> = HashMap::new();
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    for variant in [Variant::Chess, Variant::Crazyhouse, Variant::Horde] {
        for _ in 0..20 {
            let mut p = Position::start(variant);
            for _ in 0..100 {
                let mut setup = p.to_setup();
                setup.halfmoves = 0;
                setup.fullmoves = 1;
                setup.ep_square = p.legal_ep_square();
                let fen = format!("{variant:?} {}", setup.display(FenDialect::Bracket));
                let key = (format!("{variant:?}"), p.repetition_key());
                if let Some(other) = seen.insert(key, fen.clone()) {
                    assert_eq!(other, fen, "two positions with one key");
                }
                let moves = p.legal_moves();
                if moves.is_empty() || p.is_variant_end() {
                    break;
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                p.play(moves[(x % moves.len() as u64) as usize]).unwrap();
            }
        }
    }
    assert!(seen.len() > 3000, "{}", seen.len());
    // Only the side to move differs; only the en passant square differs (c6, d6, none:
    // squares 42 and 43 share all bits but the lowest).
    let keys = |fens: &[&str]| -> Vec<u64> {
        let keys: Vec<u64> = fens
            .iter()
            .map(|f| pos(f, Variant::Chess).repetition_key())
            .collect();
        for (i, k) in keys.iter().enumerate() {
            assert!(!keys[..i].contains(k), "{fens:?}");
        }
        keys
    };
    keys(&[
        "4k3/8/8/8/8/8/8/4K2R w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2R b - - 0 1",
    ]);
    keys(&[
        "4k3/8/8/1PppP3/8/8/8/4K3 w - c6 0 2",
        "4k3/8/8/1PppP3/8/8/8/4K3 w - d6 0 2",
        "4k3/8/8/1PppP3/8/8/8/4K3 w - - 0 2",
    ]);
    // The clocks are not part of it.
    assert_eq!(
        keys(&["4k3/8/8/8/8/8/8/4K2R w - - 0 1"]),
        keys(&["4k3/8/8/8/8/8/8/4K2R w - - 37 90"])
    );
}

#[test]
fn bughouse_perft_keeps_the_pocket_fixed() {
    // Captures leave a bughouse board (they go to the partner), so after a capture there
    // are fewer drops than in crazyhouse, where the capturer keeps the piece.
    let fen = "r1bqk2r/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R/Nb w KQkq - 4 4";
    let zh = pocketfen::perft::perft(&pos(fen, Variant::Crazyhouse), 3);
    let bug = pocketfen::perft::perft(&pos(fen, Variant::Bughouse), 3);
    assert!(bug < zh, "bughouse {bug} vs crazyhouse {zh}");
    assert_eq!(
        pocketfen::perft::perft(&pos(fen, Variant::Bughouse), 2),
        pocketfen::perft::perft(&pos(fen, Variant::Crazyhouse), 2)
    );
}

/// A side has at most one castling right per wing; a setup that gives two is
/// an error naming the castling field, so no command plays from it.
#[test]
fn two_castling_rights_on_one_wing_are_an_error() {
    for fen in [
        "4k2r/8/8/8/8/8/8/RR2K2R w KBQk - 0 1",
        "2rrk3/8/8/8/8/8/3PPPPP/2RK4 w cd - 0 1",
    ] {
        let setup: Setup = fen.parse().unwrap();
        let err = Position::from_setup(&setup, Rules::new(Variant::Chess)).unwrap_err();
        let errors: Vec<_> = err.errors().collect();
        assert_eq!(errors.len(), 1, "{fen}: {errors:?}");
        assert_eq!(errors[0].kind, SetupProblemKind::InvalidCastlingRights);
        assert!(
            errors[0].message.starts_with("castling field: "),
            "{}",
            errors[0]
        );
    }
    // The message names both letters, the side and the wing, on either wing.
    for (fen, message) in [
        (
            "4k3/8/8/8/8/8/8/4K1RR w KG - 0 1",
            "castling field: `K` and `G` are two castling rights for white on the king side (a side has at most one per wing)",
        ),
        (
            "rr2k3/8/8/8/8/8/8/4K3 w bq - 0 1",
            "castling field: `b` and `q` are two castling rights for black on the queen side (a side has at most one per wing)",
        ),
    ] {
        let setup: Setup = fen.parse().unwrap();
        let err = Position::from_setup(&setup, Rules::new(Variant::Chess)).unwrap_err();
        let messages: Vec<_> = err.errors().map(|p| p.message.as_str()).collect();
        assert_eq!(messages, [message], "{fen}");
    }
    // One right per wing, written either way, is fine.
    for fen in [
        "4k2r/8/8/8/8/8/8/RR2K2R w KBk - 0 1",
        "4k2r/8/8/8/8/8/8/RR2K2R w KQk - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
    ] {
        let setup: Setup = fen.parse().unwrap();
        assert!(
            Position::from_setup(&setup, Rules::new(Variant::Chess)).is_ok(),
            "{fen}"
        );
    }
}

/// Bughouse warns about too much material as crazyhouse does, counted over
/// the match (a board against the match's four sets, a pair over both boards).
#[test]
fn bughouse_material_is_counted_over_the_match() {
    use pocketfen::bughouse::{BoardId, check_fen};
    let full = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    let board: Setup = format!("{full}[QQQQ] w KQkq - 0 1").parse().unwrap();
    let kinds = |problems: Vec<pocketfen::SetupProblem>| -> Vec<SetupProblemKind> {
        problems.into_iter().map(|p| p.kind).collect()
    };
    assert_eq!(
        kinds(Position::check_setup(&board, Rules::new(Variant::Bughouse))),
        [SetupProblemKind::TooMuchMaterial]
    );
    let two: Setup = format!("{full}[QQ] w KQkq - 0 1").parse().unwrap();
    assert!(Position::check_setup(&two, Rules::new(Variant::Bughouse)).is_empty());
    // Each board of this pair is within the match's sets; together they are not.
    let pair: Fen = format!("{full}[QQ] w KQkq - 0 1 | {full}[] w KQkq - 0 1")
        .parse()
        .unwrap();
    let problems = check_fen(&pair, Variant::Bughouse);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].0, None);
    assert_eq!(problems[0].1.kind, SetupProblemKind::TooMuchMaterial);
    let start: Fen = format!("{full}[] w KQkq - 0 1 | {full}[] w KQkq - 0 1")
        .parse()
        .unwrap();
    assert!(check_fen(&start, Variant::Bughouse).is_empty());
    let one_bad: Fen = format!("{full}[QQQQ] w KQkq - 0 1 | {full}[] w KQkq - 0 1")
        .parse()
        .unwrap();
    assert!(
        check_fen(&one_bad, Variant::Bughouse)
            .iter()
            .any(|(b, _)| *b == Some(BoardId::A))
    );
}

/// A FEN names the en passant square only when an en-passant capture there is
/// legal (Lichess writes it so), in every dialect.
#[test]
fn the_ep_square_is_written_only_when_the_capture_is_legal() {
    use pocketfen::notation::fen::FenDialect;
    use pocketfen::notation::mixed::resolve_move;
    let play = |fen: &str, token: &str| {
        let mut pos = Position::from_fen(fen, None).unwrap();
        let (m, _) = resolve_move(token, &pos, false).unwrap();
        pos.play(m).unwrap();
        pos
    };
    // The only capture, exd6, would leave the e-file open from the e6 queen to the white
    // king on e1: no legal capture, so no square.
    let pinned = play(
        "r1b1k2r/2pp1ppp/1np1q3/p3P3/2P5/PP6/1B1Q1PPP/R3KB1R b KQkq - 0 13",
        "d5",
    );
    assert_eq!(pinned.legal_ep_square(), None);
    for d in FenDialect::ALL {
        assert!(
            pinned
                .to_setup()
                .display(d)
                .to_string()
                .contains(" w KQkq - 0 14"),
            "{d}: {}",
            pinned.to_setup().display(d)
        );
    }
    let free = play(
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
        "f5",
    );
    assert_eq!(free.legal_ep_square(), Some("f6".parse().unwrap()));
    for d in FenDialect::ALL {
        assert!(
            free.to_setup()
                .display(d)
                .to_string()
                .contains(" w KQkq f6 0 3"),
            "{d}: {}",
            free.to_setup().display(d)
        );
    }
}

/// Insufficient material ends a chess game (both `moves` and `validate` say
/// so) and never a pocket game, where material does not leave the game.
#[test]
fn insufficient_material_ends_chess_only() {
    use pocketfen::game::{GameProblemKind, Options, Status, validate_str};
    let fen = "8/8/8/4k3/8/8/8/4K2N b - - 0 1";
    let chess = Position::from_fen(fen, Some(Variant::Chess.into())).unwrap();
    assert!(chess.is_insufficient_material());
    assert_eq!(
        chess.outcome(),
        Some(Outcome::Draw {
            reason: EndReason::InsufficientMaterial
        })
    );
    let zh = Position::from_fen(fen, Some(Variant::Crazyhouse.into())).unwrap();
    assert!(!zh.is_insufficient_material());
    assert_eq!(zh.outcome(), None);
    for (variant, warned) in [("Standard", true), ("Crazyhouse", false)] {
        let pgn = format!("[Variant \"{variant}\"]\n[FEN \"{fen}\"]\n\n1... Kd4 2. Ke2 Kc3 *\n");
        let r = &validate_str(&pgn, &Options::default())[0];
        assert_eq!(r.status, Status::Ok, "{variant}: {:?}", r.problems);
        let after_end: Vec<_> = r
            .problems
            .iter()
            .filter(|p| p.kind == GameProblemKind::MoveAfterEnd)
            .collect();
        assert_eq!(
            after_end.len(),
            usize::from(warned),
            "{variant}: {:?}",
            r.problems
        );
        if warned {
            assert_eq!(
                (after_end[0].ply, after_end[0].token.as_deref()),
                (Some(1), Some("Kd4"))
            );
        }
    }
    // Moves in a variation of the dead position are not warned about again.
    let pgn = format!("[FEN \"{fen}\"]\n\n1... Kd4 (1... Kd5 2. Kd2) 2. Ke2 (2. Kd2) Kc3 *\n");
    let r = &validate_str(
        &pgn,
        &Options {
            variations: true,
            ..Options::default()
        },
    )[0];
    let warned: Vec<_> = r
        .problems
        .iter()
        .map(|p| (p.kind, p.ply, p.token.as_deref()))
        .collect();
    assert_eq!(
        warned,
        [(GameProblemKind::MoveAfterEnd, Some(1), Some("Kd4"))]
    );
}

/// A castling right given by its file (Shredder-FEN, X-FEN) needs a rook of that colour on
/// that file of the back rank: a knight, an empty square or the other side's rook there
/// is an error naming the letter.
#[test]
fn a_castling_file_needs_its_rook() {
    for (fen, letter) in [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w G - 0 1", 'G'),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK3 w F - 0 1", 'F'),
        ("4k3/8/8/8/8/8/8/r3K3 w A - 0 1", 'A'),
        ("4k3/8/8/8/8/8/8/R3K3 w a - 0 1", 'a'),
    ] {
        assert_eq!(
            problems_of(fen, Variant::Chess, SetupProblemKind::InvalidCastlingRights),
            [format!(
                "castling right `{letter}` without a king and rook on the back rank"
            )],
            "{fen}"
        );
    }
    let setup: Setup = "4k3/8/8/8/8/8/8/R3K3 w A - 0 1".parse().unwrap();
    assert!(Position::check_setup(&setup, Rules::new(Variant::Chess)).is_empty());
}

/// `PositionError` shows every error, in order and separated by `; `, and its Debug names
/// the problems.
#[test]
fn position_error_display_and_debug() {
    let setup: Setup = "8/8/8/8/8/8/8/8 w - - 0 1".parse().unwrap();
    let err = Position::from_setup(&setup, Rules::new(Variant::Chess)).unwrap_err();
    assert_eq!(err.to_string(), "white has no king; black has no king");
    let debug = format!("{err:?}");
    assert!(
        debug.starts_with("PositionError { problems: [") && debug.contains("MissingKing"),
        "{debug}"
    );
}

/// Which checks a position can have come from: at most two checkers, two of them only
/// with a long-range one off the other's line, and after a double step only checks that
/// step gave (by the pawn itself or by the piece it uncovered).
#[test]
fn impossible_checks_are_refused_and_possible_ones_kept() {
    let why = |fen: &str| problems_of(fen, Variant::Chess, SetupProblemKind::ImpossibleCheck);
    for (fen, message) in [
        ("4k3/8/8/8/8/3n1n2/8/r3K3 w - - 0 1", "3 checkers"),
        (
            "4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1",
            "two checkers and neither is a long-range piece",
        ),
        (
            "4k3/8/8/8/8/8/8/r3K2r w - - 0 1",
            "two checkers on one line",
        ),
        (
            "4k3/8/8/3p4/8/8/8/r3K3 w - d6 0 1",
            "a check the last double step could not have given",
        ),
    ] {
        assert_eq!(why(fen), [message], "{fen}");
    }
    for fen in [
        // Double checks by a knight and each long-range piece.
        "4k3/8/8/8/4q3/3n4/8/4K3 w - - 0 1",
        "4k3/8/8/8/4r3/3n4/8/4K3 w - - 0 1",
        "4k3/8/8/8/7b/3n4/8/4K3 w - - 0 1",
        // After d7-d5: the pawn's own check, and the bishop's it uncovered.
        "4k3/8/8/3p4/4K3/8/8/8 w - d6 0 1",
        "2b1k3/8/8/3p4/8/7K/8/8 w - d6 0 1",
    ] {
        assert_eq!(why(fen), Vec::<String>::new(), "{fen}");
    }
}

/// A FEN's en passant square is kept only when a pawn of the side to move attacks it.
#[test]
fn an_en_passant_square_is_kept_only_with_a_capturer() {
    let ep = |fen: &str| pos(fen, Variant::Chess).ep_square();
    assert_eq!(
        ep("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
        None
    );
    assert_eq!(
        ep("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
        Some(sq("e3"))
    );
}

/// Without pockets, each side's material is checked against one set: 8 pawns and 16
/// pieces, and 36 pawns for the Horde's White (not for its Black).
#[test]
fn one_sides_material_against_one_set() {
    let warning =
        |fen: &str, variant: Variant| problems_of(fen, variant, SetupProblemKind::TooMuchMaterial);
    assert_eq!(
        warning("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", Variant::Chess),
        ["white has 10 pieces (9 pawns): more than a set holds"]
    );
    assert_eq!(
        warning("4k3/8/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", Variant::Chess),
        Vec::<String>::new()
    );
    assert_eq!(
        warning(
            "rnbqkbnr/pppppppp/p7/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
            Variant::Horde
        ),
        ["black has 17 pieces (9 pawns): more than a set holds"]
    );
    assert_eq!(
        warning(
            "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
            Variant::Horde
        ),
        Vec::<String>::new()
    );
}

/// The setup checks behind `fen check`, each reported with its kind.
#[test]
fn setup_checks_report_their_kind() {
    let kinds = |fen: &str, variant: Variant| -> Vec<SetupProblemKind> {
        let setup: Setup = fen.parse().unwrap();
        Position::check_setup(&setup, Rules::new(variant))
            .into_iter()
            .filter(|p| p.severity == pocketfen::Severity::Error)
            .map(|p| p.kind)
            .collect()
    };
    // A promoted pawn.
    assert_eq!(
        kinds("4k3/8/8/8/8/8/4P~3/4K3/ w - - 0 1", Variant::Crazyhouse),
        [SetupProblemKind::InvalidPromotedMark]
    );
    // An en passant square whose pawn's origin is occupied: no double step made it.
    assert_eq!(
        kinds("4k3/3n4/8/3pP3/8/8/8/4K3 w - d6 0 2", Variant::Chess),
        [SetupProblemKind::InvalidEpSquare]
    );
    assert!(kinds("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", Variant::Chess).is_empty());
    // A white king in Horde.
    assert!(
        kinds(
            "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPKPPP w kq - 0 1",
            Variant::Horde
        )
        .contains(&SetupProblemKind::UnexpectedKing)
    );
    // A Chessgi pawn on its last rank (its first rank is allowed).
    assert_eq!(
        kinds("3Pk3/8/8/8/8/8/8/4K3/ w - - 0 1", Variant::Chessgi),
        [SetupProblemKind::PawnsOnBackrank]
    );
    assert!(kinds("4k3/8/8/8/8/8/8/3PK3/ w - - 0 1", Variant::Chessgi).is_empty());
    // Pockets in standard chess.
    assert_eq!(
        kinds("4k3/8/8/8/8/8/8/4K3/Q w - - 0 1", Variant::Chess),
        [SetupProblemKind::UnexpectedPockets]
    );
}

/// The repetition key tells promoted pieces apart; 17.10: the capture mode
/// decides where a capture goes.
#[test]
fn repetition_keys_and_capture_modes() {
    let plain = Position::from_fen("4k3/8/8/8/8/8/8/Q3K3/ w - - 0 1", None).unwrap();
    let promoted = Position::from_fen("4k3/8/8/8/8/8/8/Q~3K3/ w - - 0 1", None).unwrap();
    assert_eq!(plain.variant(), Variant::Crazyhouse);
    assert_ne!(plain.repetition_key(), promoted.repetition_key());
    let mut again = Position::from_fen("4k3/8/8/8/8/8/8/Q3K3/ w - - 0 1", None).unwrap();
    assert_eq!(plain.repetition_key(), again.repetition_key());
    // A capture goes to the capturer's pocket, or back to the caller.
    let capture = |pos: &mut Position| {
        let m = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.capture().is_some())
            .unwrap();
        pos.play(m).unwrap()
    };
    let fen = "4k3/8/8/8/8/q~7/7R/4K3/ b - - 0 1";
    let mut to_pocket = Position::from_fen(fen, None).unwrap();
    let mut to_caller = to_pocket.clone();
    to_caller.set_capture_mode(CaptureMode::Return);
    // Black's promoted queen goes to b2, where White's rook takes it.
    for pos in [&mut to_pocket, &mut to_caller] {
        let m = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.to() == "b2".parse().unwrap() && m.capture().is_none())
            .unwrap();
        pos.play(m).unwrap();
    }
    assert_eq!(capture(&mut to_pocket), None);
    assert_eq!(
        to_pocket.pockets().white.get(Role::Pawn),
        1,
        "demoted to a pawn"
    );
    assert_eq!(
        capture(&mut to_caller),
        Some(Piece {
            color: Color::Black,
            role: Role::Pawn
        })
    );
    assert!(to_caller.pockets().white.is_empty());
    again.set_drop_mate(false);
    assert!(!again.rules().drop_mate);
}

/// Which material is insufficient in chess, case by case (found by cargo-mutants: the
/// bishop-colour rule could be broken with every test green).
#[test]
fn insufficient_material_case_by_case() {
    let cases = [
        ("k7/8/8/8/8/8/8/4K3 w - - 0 1", true, "bare kings"),
        ("k7/8/8/8/8/8/8/4K1N1 w - - 0 1", true, "one knight"),
        ("k7/8/8/8/8/8/8/4KB2 w - - 0 1", true, "one bishop"),
        ("k7/8/8/8/8/8/8/4KNN1 w - - 0 1", false, "two knights"),
        (
            "k7/8/8/8/8/8/8/2B1KN2 w - - 0 1",
            false,
            "bishop and knight",
        ),
        (
            "k7/8/8/8/8/8/8/2B1KB2 w - - 0 1",
            false,
            "bishops on both colours",
        ),
        (
            "k7/8/8/8/8/8/1B6/2B1K3 w - - 0 1",
            true,
            "two bishops on dark squares",
        ),
        (
            "k7/8/8/8/8/8/2B5/1B2K3 w - - 0 1",
            true,
            "two bishops on light squares",
        ),
        (
            "k7/8/4b3/8/8/8/8/4KB2 w - - 0 1",
            true,
            "one light bishop each",
        ),
        (
            "k7/8/3b4/8/8/8/8/4KB2 w - - 0 1",
            false,
            "bishops of both colours, one each",
        ),
        ("k7/8/8/8/8/8/4P3/4K3 w - - 0 1", false, "a pawn"),
        ("k7/8/8/8/8/8/8/4K2R w - - 0 1", false, "a rook"),
        ("k7/8/8/8/8/8/8/3QK3 w - - 0 1", false, "a queen"),
        (
            "k7/8/8/8/8/8/4P3/4K2R w - - 0 1",
            false,
            "a pawn and a rook",
        ),
    ];
    for (fen, insufficient, what) in cases {
        let pos = Position::from_fen(fen, Some(Variant::Chess.into())).unwrap();
        assert_eq!(
            pos.is_insufficient_material(),
            insufficient,
            "{what}: {fen}"
        );
    }
}

/// Stalemate, against checkmate, an ordinary position and Horde's end.
#[test]
fn stalemate_is_no_move_and_no_check() {
    let stalemate = Position::from_fen(
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        Some(Variant::Chess.into()),
    )
    .unwrap();
    assert!(stalemate.is_stalemate() && !stalemate.is_checkmate());
    let mate = Position::from_fen(
        "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
        Some(Variant::Chess.into()),
    )
    .unwrap();
    assert!(mate.is_checkmate() && !mate.is_stalemate());
    let start = Position::start(Variant::Chess);
    assert!(!start.is_stalemate() && !start.is_checkmate());
    // A crazyhouse king with no move but a drop in hand is not stalemated.
    let zh = Position::from_fen(
        "7k/5Q2/6K1/8/8/8/8/8/n b - - 0 1",
        Some(Variant::Crazyhouse.into()),
    )
    .unwrap();
    assert!(!zh.is_stalemate());
    let zh_empty = Position::from_fen(
        "7k/5Q2/6K1/8/8/8/8/8/ b - - 0 1",
        Some(Variant::Crazyhouse.into()),
    )
    .unwrap();
    assert!(zh_empty.is_stalemate());
    // Horde: White without pieces has no move, but the game ended by extinction.
    let horde =
        Position::from_fen("4k3/8/8/8/8/8/8/8 w - - 0 1", Some(Variant::Horde.into())).unwrap();
    assert!(horde.is_variant_end() && !horde.is_stalemate() && !horde.is_checkmate());
}

/// Chess960 castling rights print as `KQkq` when the rook is the outermost on its wing,
/// else as the rook's file (Shredder letters).
#[test]
fn chess960_castling_letters() {
    for (fen, castling) in [
        (
            "bnrbkrqn/pppppppp/8/8/8/8/PPPPPPPP/BNRBKRQN w KQkq - 0 1",
            "KQkq",
        ),
        ("rr2k1rr/8/8/8/8/8/8/RR2K1RR w GBgb - 0 1", "GBgb"),
        ("rr2k1rr/8/8/8/8/8/8/RR2K1RR w HAgb - 0 1", "KQgb"),
        ("1r2k1r1/8/8/8/8/8/8/RR2K1RR w HAgb - 0 1", "KQkq"),
    ] {
        let p = Position::from_fen(fen, Some(Variant::Chess.into())).unwrap();
        assert!(p.is_chess960(), "{fen}");
        let printed = p.to_setup().display(FenDialect::Bracket).to_string();
        assert_eq!(
            printed.split(' ').nth(2),
            Some(castling),
            "{fen}: {printed}"
        );
        // The setup itself names the rights as the canonical FEN does.
        let canonical: Setup = printed.parse().unwrap();
        assert_eq!(p.to_setup().castling, canonical.castling, "{fen}");
    }
}

/// Every variant is read back from its own name (any case), an unknown name is an error
/// that quotes it, and each variant starts from its own position.
#[test]
fn variant_names_and_start_positions() {
    for v in Variant::ALL {
        assert_eq!(v.name().parse::<Variant>(), Ok(v));
        assert_eq!(v.name().to_uppercase().parse::<Variant>(), Ok(v));
    }
    let err = "atomic".parse::<Variant>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown variant `atomic`: expected chess, crazyhouse, loop, chessgi, horde or bughouse"
    );
    let start = |v: Variant| v.start().display(FenDialect::Lichess).to_string();
    assert_eq!(
        start(Variant::Chess),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    for v in [
        Variant::Crazyhouse,
        Variant::Loop,
        Variant::Chessgi,
        Variant::Bughouse,
    ] {
        assert_eq!(
            start(v),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
            "{v}"
        );
    }
    assert_eq!(
        start(Variant::Horde),
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"
    );
}

/// What a move says of itself: its capture (a pawn for en passant, nothing for castling,
/// a drop or a quiet move) and whether it is a drop.
#[test]
fn a_move_names_its_capture_and_whether_it_drops() {
    let p = pos(
        "4k3/n7/8/3pP3/8/8/8/R3K3[N] w Q d6 0 2",
        Variant::Crazyhouse,
    );
    for (uci, capture, drop) in [
        ("e5d6", Some(Role::Pawn), false),
        ("e1c1", None, false),
        ("N@f3", None, true),
        ("a1a7", Some(Role::Knight), false),
        ("a1a6", None, false),
    ] {
        let m = legal_move(&p, uci);
        assert_eq!((m.capture(), m.is_drop()), (capture, drop), "{uci}");
    }
}

/// A board lists its pieces from a1 to h8, and names the squares a piece on a square
/// attacks (none from an empty square).
#[test]
fn a_board_lists_its_pieces_and_their_attacks() {
    let setup: Setup = "4k3/8/8/8/8/2n5/8/R3K3 w - - 0 1".parse().unwrap();
    let pieces: Vec<String> = setup
        .board
        .pieces()
        .map(|(s, p)| format!("{s}{}", p.char()))
        .collect();
    assert_eq!(pieces, ["a1R", "e1K", "c3n", "e8k"]);
    let attacked = |s: &str| -> Vec<String> {
        setup
            .board
            .attacks_from(sq(s))
            .into_iter()
            .map(|s| s.to_string())
            .collect()
    };
    assert_eq!(
        attacked("a1"),
        [
            "b1", "c1", "d1", "e1", "a2", "a3", "a4", "a5", "a6", "a7", "a8"
        ]
    );
    assert_eq!(
        attacked("c3"),
        ["b1", "d1", "a2", "e2", "a4", "e4", "b5", "d5"]
    );
    assert!(attacked("h8").is_empty());
    // Its Debug is a diagram, rank 8 first.
    assert_eq!(
        format!("{:?}", setup.board),
        ". . . . k . . .\n\
         . . . . . . . .\n\
         . . . . . . . .\n\
         . . . . . . . .\n\
         . . . . . . . .\n\
         . . n . . . . .\n\
         . . . . . . . .\n\
         R . . . K . . .\n"
    );
}
