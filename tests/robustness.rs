//! Nothing panics on input: arbitrary text through every parser, arbitrary bytes through
//! the archive validator, arbitrary moves through the engine's checked `play`.

use pocketfen::notation::fen;
use pocketfen::notation::san::SanPlus;
use pocketfen::notation::uci::UciMove;
use pocketfen::pgn::split::GameSplitter;
use pocketfen::pgn::{Options, validate_game};
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
                let printed = fen::to_string(&p.fen, d);
                prop_assert!(fen::parse(&printed, Some(d)).is_ok(), "{printed}");
            }
            for setup in p.fen.boards() {
                for v in Variant::ALL {
                    let _ = Position::check_setup(setup, Rules::new(v));
                }
            }
        }
    }

    #[test]
    fn san_and_uci_parsers_never_panic(s in chess_text()) {
        let pos = Position::start(Variant::Crazyhouse);
        if let Ok(san) = s.parse::<SanPlus>() {
            let _ = san.resolve(&pos, true);
            let again: SanPlus = san.to_string().parse().unwrap();
            prop_assert_eq!(again.san, san.san);
        }
        if let Ok(uci) = s.parse::<UciMove>() {
            let _ = uci.to_move(&pos);
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
