//! Property tests: random setups print and parse back unchanged in every dialect, and
//! conversion chains lose nothing.

mod common;

use pocketfen::notation::fen::{self, FenDialect};
use pocketfen::{
    Bitboard, Board, ByColor, Castling, CastlingFlag, Color, Fen, Piece, Pocket, Role, Setup,
    Square,
};
use proptest::prelude::*;

fn piece() -> impl Strategy<Value = Piece> {
    (any::<bool>(), 0..6usize).prop_map(|(white, r)| Piece {
        color: Color::from_white(white),
        role: Role::ALL[r],
    })
}

fn pocket() -> impl Strategy<Value = Pocket> {
    prop::array::uniform5(prop_oneof![3 => Just(0u8), 2 => 0u8..4, 1 => 0u8..=40])
        .prop_map(Pocket::from_counts)
}

fn castling() -> impl Strategy<Value = Castling> {
    prop::collection::vec(
        prop::sample::select("KQkqABCDEFGHabcdefgh".chars().collect::<Vec<_>>()),
        0..6,
    )
    .prop_map(|letters| {
        let mut c = Castling::none();
        for l in letters {
            c.push(CastlingFlag::from_char(l).unwrap());
        }
        c
    })
}

prop_compose! {
    fn setup()(
        squares in prop::collection::vec(prop::option::weighted(0.4, piece()), 64),
        marks in any::<u64>(),
        pockets in prop::option::of((pocket(), pocket())),
        white in any::<bool>(),
        castling in castling(),
        ep in prop::option::of(0u8..64),
        halfmoves in prop_oneof![0u32..200, Just(u32::MAX)],
        fullmoves in prop_oneof![1u32..500, Just(0), Just(u32::MAX)],
    ) -> Setup {
        let mut board = Board::empty();
        for (i, p) in squares.into_iter().enumerate() {
            if let Some(p) = p {
                board.put(Square::new(i as u8), p);
            }
        }
        Setup {
            board,
            promoted: Bitboard(marks) & board.occupied(),
            pockets: pockets.map(|(white, black)| ByColor { white, black }),
            turn: Color::from_white(white),
            castling,
            ep_square: ep.map(Square::new),
            halfmoves,
            fullmoves,
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: if cfg!(debug_assertions) { 2000 } else { 20000 }, ..ProptestConfig::default() })]

    #[test]
    fn parse_print_round_trips(s in setup()) {
        let fen = Fen::Single(s.clone());
        for d in FenDialect::ALL {
            let printed = fen.display(d).to_string();
            let back = fen::parse(&printed, Some(d)).map_err(|e| TestCaseError::fail(format!("{printed}: {e}")))?;
            // A canonical setup prints back to the same text; one with promoted pieces but
            // no pocket is not canonical (it reads back with empty pockets).
            if s.promoted.is_empty() || s.pockets.is_some() {
                prop_assert_eq!(back.fen.display(d).to_string(), printed.clone());
            }
            let Fen::Single(back) = back.fen else { panic!("single") };
            prop_assert_eq!(&back, &common::expected_read_back(&s, d), "{}", printed);
        }
    }

    #[test]
    fn pairs_round_trip(a in setup(), b in setup()) {
        let fen = Fen::Pair(Box::new([a, b]));
        // A full-move number of 0 is read, and so written, as 1.
        let mut expected = fen.clone();
        for s in expected.boards_mut() {
            *s = common::expected_read_back(s, FenDialect::Lichess);
        }
        for d in [FenDialect::Lichess, FenDialect::Xboard, FenDialect::Bracket] {
            let printed = fen.display(d).to_string();
            let back = fen::parse(&printed, None).map_err(|e| TestCaseError::fail(format!("{printed}: {e}")))?;
            prop_assert_eq!(&back.fen, &expected);
        }
    }

    #[test]
    fn conversion_chains_keep_promoted_pieces(mut s in setup()) {
        s.pockets.get_or_insert_with(ByColor::default);
        let fen = Fen::Single(s);
        let mut text = fen.display(FenDialect::Lichess).to_string();
        for d in [FenDialect::Chesscom, FenDialect::Xboard, FenDialect::Bracket, FenDialect::Lichess] {
            let parsed = fen::parse(&text, None).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
            text = parsed.fen.display(d).to_string();
        }
        let end = fen::parse(&text, None).unwrap().fen;
        prop_assert_eq!(end.boards()[0].promoted, fen.boards()[0].promoted);
        prop_assert_eq!(&end.boards()[0], &common::expected_read_back(&fen.boards()[0], FenDialect::Chesscom));
    }
}
