use super::*;

#[test]
fn a_standard_start_is_named_as_it_is_written() {
    for v in Variant::ALL {
        let start = Position::start(v);
        let written = start.to_setup().display(FenDialect::Lichess).to_string();
        match standard_start_fen(&start) {
            Some(fen) => assert_eq!(fen, written, "{v:?}"),
            None => assert!(matches!(v, Variant::Horde | Variant::Bughouse), "{v:?}"),
        }
    }
    // Anything else is written out.
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/P w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ~KBNR/ w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1",
    ] {
        let setup: Fen = fen.parse().unwrap();
        let variant = if fen.contains("/ w") || fen.contains("/P w") || fen.contains('~') {
            Variant::Crazyhouse
        } else {
            Variant::Chess
        };
        let rules = crate::variant::Rules::new(variant);
        let pos = Position::from_setup(&setup.boards()[0], rules).unwrap();
        assert_eq!(standard_start_fen(&pos), None, "{fen}");
    }
}

#[test]
fn each_ply_has_the_fen_after_it_in_one_text() {
    let pgn = "[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@d4 \
               e5 5. dxe5 Bb4 6. a3 Bxc3 7. bxc3 N@e4 *\n";
    let game = RawGame::new(pgn.as_bytes().to_vec());
    let asked = RowOptions {
        plies: true,
        fen: true,
        openings: false,
        site_only: false,
    };
    let rows = game_rows(&game, &Options::default(), asked);
    assert_eq!(rows.plies.len(), 14);
    assert_eq!(rows.fens.len(), rows.plies.len());
    assert!(!rows.fens.is_empty());
    // Each FEN is the position after its ply, replayed here apart.
    let mut pos = Position::start(Variant::Crazyhouse);
    let mut total = 0;
    for (i, (ply, fen)) in rows.plies.iter().zip(rows.fens.iter()).enumerate() {
        let text = ply.san_text();
        let san: San = text.trim_end_matches(['+', '#']).parse().unwrap();
        assert_eq!(san, ply.san, "{text}");
        let m = san.to_move(&pos).unwrap();
        assert_eq!(ply.uci_text().as_str(), m.to_uci(false).to_string());
        pos.play_unchecked(m);
        let suffix = match (pos.is_checkmate(), pos.is_check()) {
            (true, _) => "#",
            (false, true) => "+",
            _ => "",
        };
        assert_eq!(&text[text.trim_end_matches(['+', '#']).len()..], suffix);
        let expected = pos.to_setup().display(FenDialect::Lichess).to_string();
        assert_eq!(fen, expected, "ply {}", ply.ply);
        assert_eq!(rows.fens.get(i), Some(expected.as_str()));
        total += expected.len();
    }
    assert_eq!(rows.fens.text_len(), total);
    assert_eq!(rows.fens.get(rows.plies.len()), None);
    // Not asked for: no place for any.
    let rows = game_rows(
        &game,
        &Options::default(),
        RowOptions {
            fen: false,
            ..asked
        },
    );
    assert!(rows.fens.is_empty() && rows.fens.text_len() == 0);
    assert_eq!(rows.plies.len(), 14);
}

/// A row of the Site alone has the plies, the FENs and the verdict of the whole
/// row, and none of the other tags, the movetext or the start FEN.
#[test]
fn a_site_only_row_has_the_same_plies() {
    let pgn = "[Event \"Rated\"]\n[Site \"https://lichess.org/abc\"]\n[WhiteElo \"?\"]\n\
               [Variant \"Crazyhouse\"]\n\n1. e4 { [%clk 0:03:00] } d5 2. exd5 Qxd5 \
               3. Nc3 Qa5 4. P@d4 e5 5. Ke3 *\n";
    let game = RawGame::new(pgn.as_bytes().to_vec());
    let asked = RowOptions {
        plies: true,
        fen: true,
        ..RowOptions::default()
    };
    let whole = game_rows(&game, &Options::default(), asked);
    let bare = game_rows(
        &game,
        &Options::default(),
        RowOptions {
            site_only: true,
            ..asked
        },
    );
    assert_eq!(bare.plies, whole.plies);
    assert_eq!(bare.fens, whole.fens);
    assert_eq!(bare.report, whole.report);
    assert_eq!(bare.plies.len(), 8);
    assert_eq!(bare.plies[0].clock, Some(180.0));
    assert!(!whole.game.valid && whole.game.problems == 1);
    let (b, w) = (&bare.game, &whole.game);
    assert_eq!(b.site.as_deref(), Some("https://lichess.org/abc"));
    assert_eq!(b.site, w.site);
    assert_eq!(
        (b.valid, b.problems, b.plies),
        (w.valid, w.problems, w.plies)
    );
    assert_eq!(b.first_problem, w.first_problem);
    assert_eq!(w.event.as_deref(), Some("Rated"));
    assert_eq!(w.unfit, ["WhiteElo"]);
    assert!(w.fen.is_some() && !w.movetext.is_empty());
    assert_eq!((&b.event, &b.fen, b.movetext.as_str()), (&None, &None, ""));
    assert!(b.unfit.is_empty());
}

/// The first problem's columns name the first error, not a warning before it (a
/// Lichess crazyhouse table's `variant-inferred`), and the first warning when the
/// game has no error.
#[test]
fn the_first_problem_is_the_first_error() {
    let asked = RowOptions::default();
    let row = |pgn: &str| {
        let game = RawGame::new(pgn.as_bytes().to_vec());
        game_rows(&game, &Options::default(), asked).game
    };
    let illegal = row("[Event \"Rated Crazyhouse game\"]\n\n1. e4 e5 2. P@e3 *\n");
    assert_eq!(illegal.problems, 2);
    let first = illegal.first_problem.expect("a problem");
    assert_eq!(
        (first.kind, first.line, first.column, first.ply),
        ("not-in-pocket", 3, 13, Some(3))
    );
    let valid = row("[Event \"Rated Crazyhouse game\"]\n\n1. e4 e5 *\n");
    assert!(valid.valid && valid.problems == 1);
    let first = valid.first_problem.expect("a warning");
    assert_eq!(
        (first.kind, first.line, first.ply),
        ("variant-inferred", 1, None)
    );
}

/// A comment after the result is no move's: the last ply keeps its own clock and eval,
/// in the plies table and in `replay`'s annotations.
#[test]
fn a_comment_after_the_result_is_no_moves() {
    let pgn = "[Event \"x\"]\n\n1. e4 { [%eval 0.3] [%clk 0:03:00] } e5 { [%clk 0:02:59] } \
               1-0 { [%clk 0:00:07] [%eval #-2] }\n";
    let game = RawGame::new(pgn.as_bytes().to_vec());
    let asked = RowOptions {
        plies: true,
        ..RowOptions::default()
    };
    let rows = game_rows(&game, &Options::default(), asked);
    assert_eq!(rows.plies.len(), 2);
    assert_eq!(rows.plies[1].clock, Some(179.0));
    assert_eq!(rows.plies[1].eval, None);
    assert_eq!(rows.plies[0].clock, Some(180.0));
    let (_, notes) = crate::game::replay_annotated(
        &game,
        &Options::default(),
        crate::game::PlyText::Uci,
        &mut |_| {},
    );
    let last = notes[1].as_ref().expect("the last ply's clock");
    assert_eq!(last.clock, Some(std::time::Duration::from_secs(179)));
    assert_eq!(last.eval, None);
}
