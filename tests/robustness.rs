//! Nothing panics on input: arbitrary text through every parser, arbitrary bytes through
//! the archive validator, arbitrary moves through the engine's checked `play`.

use pocketfen::game::{Options, validate_game};
use pocketfen::notation::fen;
use pocketfen::notation::san::SanPlus;
use pocketfen::notation::uci::UciMove;
use pocketfen::stream::GameSplitter;
use pocketfen::{Position, Rules, Setup, Variant};
use proptest::prelude::*;

fn cases() -> u32 {
    if cfg!(debug_assertions) { 3000 } else { 30000 }
}

/// Text made of the characters FEN, SAN and PGN use, so the parsers get deep.
fn chess_text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            prop::sample::select(
                " /[]-~_|@+#=!?xO0123456789abcdefghKQRBNPkqrbnpwW.{}();$\"%*\n\r\t"
                    .chars()
                    .collect::<Vec<_>>()
            ),
            any::<char>(),
        ],
        0..120,
    )
    .prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn fen_parser_never_panics(s in chess_text()) {
        if let Ok(p) = fen::parse(&s, None) {
            // Whatever parses prints and parses again.
            for d in fen::FenDialect::ALL {
                let printed = p.fen.display(d).to_string();
                prop_assert!(fen::parse(&printed, Some(d)).is_ok(), "{printed}");
            }
            // A setup is a position exactly when its checks find no error.
            for setup in p.fen.boards() {
                for v in Variant::ALL {
                    let problems = Position::check_setup(setup, Rules::new(v));
                    let errors = problems.iter().any(|p| p.severity == pocketfen::Severity::Error);
                    prop_assert_eq!(Position::from_setup(setup, Rules::new(v)).is_ok(), !errors);
                }
            }
        }
    }

    #[test]
    fn san_and_uci_parsers_never_panic(s in chess_text()) {
        let pos = Position::start(Variant::Crazyhouse);
        let legal = pos.legal_moves();
        if let Ok(san) = s.parse::<SanPlus>() {
            // A move it resolves to is legal; a refusal means no legal move has that SAN.
            match san.resolve(&pos, true) {
                Ok((m, _)) => prop_assert!(legal.contains(&m), "{s}"),
                Err(_) => prop_assert!(
                    legal.iter().all(|m| pocketfen::notation::san::San::from_move(&pos, *m) != san.san),
                    "{s}"
                ),
            }
            let again: SanPlus = san.to_string().parse().unwrap();
            prop_assert_eq!(again.san, san.san);
        }
        if let Ok(uci) = s.parse::<UciMove>() {
            match uci.to_move(&pos) {
                Ok(m) => prop_assert!(legal.contains(&m), "{s}"),
                Err(_) => prop_assert!(legal.iter().all(|m| m.to_uci(false) != uci), "{s}"),
            }
        }
    }

    #[test]
    fn validator_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400), text in chess_text()) {
        let mut input = b"[Event \"x\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 ".to_vec();
        input.extend(text.bytes());
        input.extend(bytes);
        for game in GameSplitter::new(&input[..]) {
            let game = game.unwrap();
            for variations in [false, true] {
                let report = validate_game(&game, &Options { strict: true, variations, ..Options::default() });
                for p in report.problems {
                    prop_assert!(p.line >= game.line && p.column >= 1);
                }
            }
        }
    }

    #[test]
    fn checked_play_takes_exactly_the_legal_moves(
        from in 0u8..64, to in 0u8..64, role in 0usize..6, kind in 0u8..4, plies in 0usize..12
    ) {
        // Arbitrary moves, most of them illegal, through `play`: it accepts a move exactly
        // when it is legal, and leaves the position as it was when it refuses.
        let mut pos = Position::start(Variant::Crazyhouse);
        for _ in 0..plies {
            let m = pos.legal_moves()[0];
            pos.play_unchecked(m);
        }
        let (from, to) = (pocketfen::Square::new(from), pocketfen::Square::new(to));
        let role = pocketfen::Role::ALL[role];
        let m = match kind {
            0 => pocketfen::Move::Normal { role, from, capture: pos.board().role_at(to), to, promotion: None },
            1 => pocketfen::Move::Put { role, to },
            2 => pocketfen::Move::EnPassant { from, to },
            _ => pocketfen::Move::Castle { king: from, rook: to },
        };
        let legal = pos.legal_moves().contains(&m);
        let before = pos.clone();
        let played = pos.play(m);
        prop_assert_eq!(played.is_ok(), legal, "{:?}", m);
        prop_assert_eq!(before.check(m).is_ok(), legal);
        if !legal {
            prop_assert_eq!(&pos, &before);
        }
    }

    #[test]
    fn legal_play_keeps_material_in_crazyhouse(seed in any::<u64>()) {
        // Random legal games: board + pockets always hold 32 pieces (promoted ones counted
        // as the pawns they were), and every position's setup is valid again.
        let mut pos = Position::start(Variant::Crazyhouse);
        let mut x = seed | 1;
        for _ in 0..150 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let m = moves[(x % moves.len() as u64) as usize];
            prop_assert!(pos.clone().play(m).is_ok());
            pos.play_unchecked(m);
            let total = pos.board().occupied().count() + pos.pockets().white.count() + pos.pockets().black.count();
            prop_assert_eq!(total, 32);
            let setup: Setup = pos.to_setup();
            prop_assert!(Position::from_setup(&setup, Rules::new(Variant::Crazyhouse)).is_ok(), "{:?}", pos);
        }
    }
}
