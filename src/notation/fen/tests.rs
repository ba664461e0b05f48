use super::*;

fn conv(s: &str, d: FenDialect) -> String {
    parse(s, None).unwrap().fen.display(d).to_string()
}

#[test]
fn lichess_to_every_dialect() {
    let s = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/Pq w KQkq - 0 1";
    assert_eq!(conv(s, FenDialect::Lichess), s);
    assert_eq!(
        conv(s, FenDialect::Xboard),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pq] w KQkq - 0 1"
    );
    assert_eq!(
        conv(s, FenDialect::Chesscom),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 Pq"
    );
}

#[test]
fn empty_pockets_per_dialect() {
    let s = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1";
    assert_eq!(
        conv(s, FenDialect::Xboard),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-] w KQkq - 0 1"
    );
    assert_eq!(
        conv(s, FenDialect::Bracket),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
    );
    assert_eq!(
        conv(s, FenDialect::Chesscom),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(
        conv("8/8/8/8/8/8/8/8[-] w - - 0 1", FenDialect::Lichess),
        "8/8/8/8/8/8/8/8/ w - - 0 1"
    );
}

#[test]
fn chesscom_promoted_squares_become_marks() {
    let s = "r2q1r1k/2p1ppb1/p2p2pp/3P1p2/B6B/2N2NPp/1PP2P1K/3Q3q w - - 0 26 NNBRpr h1";
    let p = parse(s, None).unwrap();
    assert_eq!(p.dialect, Some(FenDialect::Chesscom));
    // Written in Q R B N P order, as Chess.com's one real export (`QNrp`) has it.
    assert_eq!(
        p.fen.display(FenDialect::Chesscom).to_string(),
        "r2q1r1k/2p1ppb1/p2p2pp/3P1p2/B6B/2N2NPp/1PP2P1K/3Q3q w - - 0 26 RBNNrp h1"
    );
    assert_eq!(
        p.fen.display(FenDialect::Lichess).to_string(),
        "r2q1r1k/2p1ppb1/p2p2pp/3P1p2/B6B/2N2NPp/1PP2P1K/3Q3q~/NNBRpr w - - 0 26"
    );
    for joined in ["h1a8", "h1,a8"] {
        let fen = format!("r6k/8/8/8/8/8/8/7q w - - 0 26 Q {joined}");
        let p = parse(&fen, None).unwrap();
        assert_eq!(p.fen.boards()[0].promoted.count(), 2, "{joined}");
    }
    let p = parse("r6k/8/8/8/8/8/8/7q w - - 0 26 Q h1 a8", None).unwrap();
    assert_eq!(p.fen.boards()[0].promoted.count(), 2);
    // Squares after fewer fields (no clocks, or the half-move clock alone), as the
    // reference promises: they follow the last field there is.
    for (fen, halfmoves) in [
        ("r6k/8/8/8/8/8/8/7q w - - h1", 0),
        ("r6k/8/8/8/8/8/8/7q w - - 3 h1", 3),
    ] {
        let p = parse(fen, None).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let board = &p.fen.boards()[0];
        assert_eq!(
            (board.promoted.count(), board.halfmoves, p.dialect),
            (1, halfmoves, Some(FenDialect::Chesscom)),
            "{fen}"
        );
    }
}

#[test]
fn leniencies() {
    let canon = "r4rk1/p2bppbp/6p1/2qpP3/5P2/2NBPQPp/PPP4P/R1B3K1[NNNrp] b - - 39 20";
    for s in [
        "r4rk1/p2bppbp/6p1/2qpP3/5P2/2NBPQPp/PPP4P/R1B3K1[rN2Np] b - - 39 20",
        "r4rk1/p2bppbp/6p1/2qpP3/5P2/2NBPQPp/PPP4P/R1B3K1[NNNrp]_b_-_-_39_20",
        "  r4rk1/p2bppbp/6p1/2qpP3/5P2/2NBPQPp/PPP4P/R1B3K1[NNNrp]   b  -  - 39 20  ",
        "r4rk1/p2bppbp/6p1/2qpP3/5P2/2NBPQPp/PPP4P/R1B3K1[NNNrp] b - - 3+3 39 20",
        "r4rk1/p2bppbp/6p1/2qpP3/5P2/2NBPQPp/PPP4P/R1B3K1[NNNrp] b - - 39 20 +0+2",
    ] {
        assert_eq!(conv(s, FenDialect::Bracket), canon, "{s}");
    }
    assert_eq!(
        conv("8/8/8/8/8/8/8/K6k b - -", FenDialect::Lichess),
        "8/8/8/8/8/8/8/K6k b - - 0 1"
    );
    assert_eq!(
        conv(
            "8/5p2/5Pkq/2pp1Q2/6P1/3p3P/1PP4K/r7 b - - QNrp",
            FenDialect::Lichess
        ),
        "8/5p2/5Pkq/2pp1Q2/6P1/3p3P/1PP4K/r7/NQpr b - - 0 1"
    );
}

/// Issue 23.13: EPD's four fields and its operations, in the standard's form and the
/// perft suites'; `hmvc`/`fmvn` are the clocks; a broken operation is located.
#[test]
fn epd_lines() {
    let p = parse(
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - hmvc 2; fmvn 3; bm Bb5 Bc4; id \"a; b\";",
        None,
    )
    .unwrap();
    let Fen::Single(setup) = &p.fen else {
        panic!("one board")
    };
    assert_eq!((setup.halfmoves, setup.fullmoves), (2, 3));
    let epd = p.epd.unwrap();
    assert!(!epd.clocks);
    let ops: Vec<(&str, Vec<&str>)> = epd
        .operations
        .iter()
        .map(|o| {
            (
                o.opcode.as_str(),
                o.operands.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        ops,
        [
            ("hmvc", vec!["2"]),
            ("fmvn", vec!["3"]),
            ("bm", vec!["Bb5", "Bc4"]),
            ("id", vec!["\"a; b\""])
        ]
    );
    let perft = parse("8/8/8/8/8/8/8/K6k w - - 5 9 ;D1 3 ;D2 9", None).unwrap();
    let epd = perft.epd.unwrap();
    assert!(epd.clocks);
    assert_eq!(epd.operations.len(), 2);
    assert_eq!(perft.fen.boards()[0].fullmoves, 9);
    // A plain FEN is no EPD.
    assert!(
        parse("8/8/8/8/8/8/8/K6k w - - 0 1", None)
            .unwrap()
            .epd
            .is_none()
    );
    for (line, column, expected) in [
        (
            "8/8/8/8/8/8/8/K6k w - - bm Kb1;; id 1;",
            32,
            "an EPD opcode",
        ),
        ("8/8/8/8/8/8/8/K6k w - - 1bm Kb1;", 25, "an EPD opcode"),
        ("8/8/8/8/8/8/8/K6k w - - id \"open;", 28, "a `\"`"),
        (
            "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;4D 9",
            36,
            "an EPD opcode",
        ),
    ] {
        let e = parse(line, None).unwrap_err();
        assert_eq!(
            (e.column, e.field),
            (column, FenField::Operations),
            "{line}: {e}"
        );
        assert!(e.expected.starts_with(expected), "{line}: {e}");
    }
    let e = parse(
        "8/8/8/8/8/8/8/K6k w - - id 1; | 8/8/8/8/8/8/8/K6k w - -",
        None,
    )
    .unwrap_err();
    assert_eq!(e.field, FenField::Record, "{e}");
}

/// Issue 23.14: each dialect writes the pocket in its home programs' order (Lichess and
/// Xboard P N B R Q, the bracket form and Chess.com Q R B N P), white's letters first.
#[test]
fn pocket_order_per_dialect() {
    let s = "4k3/8/8/8/8/8/8/4K3/qrbnpQRBNP w - - 0 1";
    let fen = parse(s, None).unwrap().fen;
    for (d, pocket) in [
        (FenDialect::Lichess, "/PNBRQpnbrq "),
        (FenDialect::Xboard, "[PNBRQpnbrq] "),
        (FenDialect::Bracket, "[QRBNPqrbnp] "),
        (FenDialect::Chesscom, " 0 1 QRBNPqrbnp"),
    ] {
        let printed = fen.display(d).to_string();
        assert!(printed.contains(pocket), "{d}: {printed}");
    }
}

#[test]
fn bughouse_pair() {
    let a = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1";
    let s = format!("{a} | {a}");
    let p = parse(&s, None).unwrap();
    assert_eq!(p.fen.boards().len(), 2);
    assert_eq!(p.fen.display(FenDialect::Lichess).to_string(), s);
    assert!(parse(&format!("{s} | {a}"), None).is_err());
}

#[test]
fn errors_name_column_and_field() {
    let cases = [
        (
            "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            18,
            FenField::Board,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
            35,
            FenField::Board,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            45,
            FenField::Turn,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkX - 0 1",
            50,
            FenField::Castling,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
            52,
            FenField::EnPassant,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Kq] w KQkq - 0 1",
            45,
            FenField::Pocket,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[q w KQkq - 0 1",
            46,
            FenField::Pocket,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x",
            56,
            FenField::Clocks,
        ),
    ];
    for (s, col, f) in cases {
        let e = parse(s, None).unwrap_err();
        assert_eq!((e.column, e.field), (col, f), "{s}: {e}");
    }
}

/// After the en passant square: what each place expects, and a number after the
/// full-move number is read as a Chess.com pocket count (which needs its piece).
#[test]
fn the_fields_after_en_passant_say_what_they_expect() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    for (tail, column, field, expected) in [
        (
            " x",
            54,
            FenField::Clocks,
            "a half-move clock, a three-check counter or a Chess.com pocket",
        ),
        (
            " 0 x",
            56,
            FenField::Clocks,
            "a full-move number or a Chess.com pocket",
        ),
        (
            " 0 1 7",
            59,
            FenField::Pocket,
            "a pocket piece letter after the count",
        ),
        (
            " 0 1 !",
            58,
            FenField::Pocket,
            "a Chess.com pocket (P N B R Q, either case) or the end of the FEN",
        ),
        // A pocket's letters where a clock stands, a number after them: the clock is
        // what is wrong (Fairy-Stockfish's test of a bad half-move clock), not the
        // promoted squares that a Chess.com pocket there would have after it.
        (" b 1", 54, FenField::Clocks, "a half-move clock"),
        (" 0 b 1", 56, FenField::Clocks, "a full-move number"),
    ] {
        let s = format!("{start}{tail}");
        let e = parse(&s, None).unwrap_err();
        assert_eq!(
            (e.column, e.field, e.expected),
            (column, field, expected),
            "{s}: {e}"
        );
    }
}

/// A `~` that follows no piece (a second one, one after empty squares) is told as such,
/// at its column, not as a rank of the wrong length.
#[test]
fn a_stray_promoted_mark_is_told_at_its_column() {
    for (rank, column) in [("K~~7", 3), ("K6~", 3), ("K1~6", 3), ("1Q~~6", 4)] {
        let s = format!("{rank}/8/8/8/8/8/8/k7 w - - 0 1");
        let e = parse(&s, None).unwrap_err();
        assert_eq!(
            (e.column, e.field, e.expected),
            (
                column,
                FenField::Board,
                "a piece letter, a digit 1-8 or `/` (a `~` marks the piece just before it, once)"
            ),
            "{s}"
        );
    }
    // One after a piece is its mark.
    assert!(parse("K~7/8/8/8/8/8/8/k7 w - - 0 1", None).is_ok());
}

/// A pocket count must be followed by the piece it counts, whatever the count (1 too),
/// in each pocket style; the error is after the digits.
#[test]
fn a_pocket_count_needs_its_piece() {
    let board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    for (pocket, after) in [
        ("[P1]", 47),
        ("[1]", 46),
        ("[P30]", 48),
        ("/Q2 ", 47),
        ("/1 ", 46),
    ] {
        let s = format!("{board}{pocket} w KQkq - 0 1");
        let e = parse(&s, None).unwrap_err();
        assert_eq!(
            (e.column, e.field, e.expected),
            (
                after,
                FenField::Pocket,
                "a pocket piece letter after the count"
            ),
            "{s}: {e}"
        );
    }
}

#[test]
fn dialect_is_enforced_when_given() {
    let s = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
    assert!(parse(s, Some(FenDialect::Xboard)).is_ok());
    let e = parse(s, Some(FenDialect::Lichess)).unwrap_err();
    assert_eq!((e.column, e.field), (44, FenField::Pocket));
}

/// Issue 14.7: a Chess.com pocket where another dialect is expected is located where
/// the pocket starts.
#[test]
fn a_foreign_pocket_is_located_where_it_starts() {
    let line = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 Pq";
    let e = parse(line, Some(FenDialect::Lichess)).unwrap_err();
    assert_eq!((e.column, e.field), (58, FenField::Pocket));
    assert_eq!(e.found, "`Pq`");
    let e = parse(&format!("{line} a1"), Some(FenDialect::Xboard)).unwrap_err();
    assert_eq!(e.column, 58);
    let squares = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 a1";
    assert_eq!(
        parse(squares, Some(FenDialect::Lichess))
            .unwrap_err()
            .column,
        58
    );
}

/// `read_back` says what a print parses back as, in every dialect, for the positions
/// of random games (with and without pockets, promoted pieces and en passant squares)
/// and for a full-move number of 0.
#[test]
fn read_back_is_what_a_print_parses_as() {
    let mut setups: Vec<Setup> = crate::position::testing::random_positions()
        .iter()
        .step_by(5)
        .map(Position::to_setup)
        .collect();
    let mut zero = setups[0].clone();
    zero.fullmoves = 0;
    setups.push(zero);
    let mut empty_pockets = Position::start(crate::variant::Variant::Crazyhouse).to_setup();
    setups.push(empty_pockets.clone());
    empty_pockets.fullmoves = 0;
    setups.push(empty_pockets);
    let mut changed = 0;
    for setup in &setups {
        for d in FenDialect::ALL {
            let printed = setup.display(d).to_string();
            let back: Setup = printed.parse().unwrap();
            assert_eq!(back, read_back(setup, d), "{printed}");
            changed += usize::from(back != *setup);
        }
    }
    assert!(changed >= 4, "{changed}");
}

#[test]
fn position_errors_and_debug_say_what_they_are() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let e = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x", None).unwrap_err();
    let parse_error = parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x", None).unwrap_err();
    assert_eq!(e.to_string(), parse_error.to_string());
    assert!(e.to_string().contains("side to move"), "{e}");
    let pair = format!("{start} | {start}");
    let e = Position::from_fen(&pair, None).unwrap_err();
    assert_eq!(e.to_string(), "a bughouse pair; give board A or B");
    let e = Position::from_fen("4k3/8/8/8/8/8/8/4K2K w - - 0 1", None).unwrap_err();
    assert!(matches!(e, FenPositionError::Illegal(_)));
    assert!(e.to_string().contains("king"), "{e}");
    let p = Position::from_fen(start, None).unwrap();
    assert_eq!(
        format!("{p:?}"),
        format!(
            "Position(rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1, {:?})",
            p.rules()
        )
    );
    // A pair read as one board is refused at its `|`.
    let e = pair.parse::<Setup>().unwrap_err();
    assert_eq!(e.column, start.len() + 2);
    assert_eq!(e.field, FenField::Record);
}

/// Columns count characters, as PGN problems do: the `é`s of an EPD string operand
/// before the error are one column each, not two.
#[test]
fn error_columns_count_characters() {
    let ascii = parse(r#"4k3/8/8/8/8/8/8/4K3 w - - id "ee"; c0 "x"#, None).unwrap_err();
    let accents = parse(r#"4k3/8/8/8/8/8/8/4K3 w - - id "éé"; c0 "x"#, None).unwrap_err();
    assert_eq!((ascii.column, accents.column), (39, 39));
    assert_eq!(accents.field, FenField::Operations);
}
