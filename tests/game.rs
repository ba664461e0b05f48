//! One game and what it means: each problem kind located where it is (hand-made games,
//! snapshotted), variations, strict checks, bughouse's two boards, castling rights, moves
//! in UCI, results spelt otherwise, tags with unescaped quotes, and a visitor that stops
//! or skips.

mod common;

use common::{cmd, run_out, scratch_dir, without_timings};
use pocketfen::game::{Options, Status, validate_game};
use pocketfen::stream::GameSplitter;
use std::fs;

/// Runs `validate` with `args` on a grammar-test file that must fail; returns the text to
/// snapshot.
fn run_failing(path: &std::path::Path, args: &[&str]) -> String {
    let p = path.to_str().unwrap();
    let rel = &p[p.find("grammar-tests").unwrap()..];
    let mut all = vec!["validate"];
    all.extend_from_slice(args);
    all.push(rel);
    let out = cmd(&all).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{rel} must fail");
    format!(
        "exit: {:?}\n--- stdout\n{}--- stderr\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The problems `validate --json` reports for a file: (game, kind, ply, line, column).
fn reported(file: &str, args: &[&str]) -> Vec<(u64, String, Option<u64>, u64, u64)> {
    let mut all = vec!["validate", "-q", "--json", "-j", "1"];
    all.extend_from_slice(args);
    all.push(file);
    let out = cmd(&all).output().unwrap();
    let mut found = Vec::new();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["type"] != "game" {
            continue;
        }
        for p in v["problems"].as_array().unwrap() {
            found.push((
                v["game"].as_u64().unwrap(),
                p["kind"].as_str().unwrap().to_owned(),
                p["ply"].as_u64(),
                p["line"].as_u64().unwrap(),
                p["column"].as_u64().unwrap(),
            ));
        }
    }
    found
}

/// What each hand-made archive must report, stated here (the snapshots hold the words):
/// game, kind, ply, line and column of every problem.
#[test]
fn hand_made_errors_are_the_ones_their_names_say() {
    type Expected = &'static [(u64, &'static str, Option<u64>, u64, u64)];
    let pgn: &[(&str, Expected)] = &[
        ("bad-fen-tag", &[(1, "bad-fen", None, 3, 1)]),
        (
            "current-position-mismatch",
            &[(1, "current-position-mismatch", None, 3, 1)],
        ),
        (
            "drop-without-variant",
            &[
                (1, "variant-inferred", None, 4, 26),
                (1, "not-in-pocket", Some(5), 4, 26),
            ],
        ),
        (
            "en-passant-without-file",
            &[(1, "no-such-piece", Some(5), 4, 22)],
        ),
        (
            "fuzz-escaped-line-end-in-tag",
            &[(1, "unparseable-token", Some(1), 2, 1)],
        ),
        (
            "horde-standard-fen",
            &[(1, "horde-standard-fen", None, 4, 1)],
        ),
        ("illegal-drop", &[(1, "not-in-pocket", Some(5), 5, 26)]),
        ("illegal-fen-tag", &[(1, "illegal-fen", None, 3, 1)]),
        // A variation's illegal move ends that variation only: the next variation and
        // the main line are validated to their ends.
        (
            "illegal-in-variation",
            &[
                (1, "not-in-pocket", None, 5, 16),
                (1, "no-such-piece", None, 5, 44),
            ],
        ),
        (
            "illegal-in-variation-then-main-line",
            &[
                (1, "not-in-pocket", None, 5, 16),
                (1, "no-such-piece", None, 5, 44),
                (1, "no-such-piece", Some(7), 5, 67),
            ],
        ),
        ("move-after-mate", &[(1, "move-after-end", Some(5), 4, 24)]),
        (
            "result-mismatch",
            &[
                (1, "result-mismatch", None, 2, 1),
                (1, "ply-count-mismatch", None, 3, 1),
            ],
        ),
        (
            "three-games-middle-bad",
            &[(2, "no-such-piece", Some(2), 9, 7)],
        ),
        (
            "unclosed-comment",
            &[(1, "unparseable-token", Some(2), 4, 7)],
        ),
        ("unknown-variant", &[(1, "unknown-variant", None, 2, 1)]),
        (
            "unparseable-token",
            &[(1, "unparseable-token", Some(4), 4, 17)],
        ),
    ];
    let bpgn: &[(&str, Expected)] = &[
        (
            "castling-with-dropped-rook",
            &[(1, "castling-without-right", Some(7), 7, 53)],
        ),
        (
            "drop-before-capture",
            &[(1, "not-in-pocket", Some(4), 6, 26)],
        ),
        ("drop-mate-forbidden", &[(1, "drop-mate", Some(1), 7, 5)]),
        ("drop-never-passed", &[(1, "not-in-pocket", Some(5), 6, 33)]),
        (
            "drop-on-board-a-only",
            &[(1, "not-in-pocket", Some(5), 6, 37)],
        ),
        (
            "move-after-mate-on-the-other-board",
            &[(1, "move-after-end", Some(2), 8, 14)],
        ),
        ("out-of-turn", &[(1, "out-of-turn", Some(5), 6, 34)]),
        ("pawn-drop-rank-8", &[(1, "pawn-drop-rank", Some(1), 7, 5)]),
        (
            "result-neither-reading",
            &[
                (1, "clock-increase", Some(4), 7, 51),
                (1, "result-mismatch", None, 5, 1),
            ],
        ),
    ];
    let files = |dir: &str, ext: &str| -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(format!("grammar-tests/{dir}/err"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .map(|p| p.file_stem().unwrap().to_str().unwrap().to_owned())
            .collect();
        names.sort();
        names
    };
    let check = |dir: &str, table: &[(&str, Expected)], args: &[&str]| {
        let ext = dir;
        // Every file has its line in the table, and no line lacks its file.
        let names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
        assert_eq!(files(dir, ext), names, "{dir}/err and the table");
        for (name, expected) in table {
            let got = reported(&format!("grammar-tests/{dir}/err/{name}.{ext}"), args);
            let expected: Vec<_> = expected
                .iter()
                .map(|&(g, k, ply, l, c)| (g, k.to_owned(), ply, l, c))
                .collect();
            assert_eq!(got, expected, "{dir}/err/{name}.{ext}");
        }
    };
    check("pgn", pgn, &["--strict", "--variations"]);
    check("bpgn", bpgn, &["--strict", "--no-drop-mate"]);
}

#[test]
fn hand_made_errors_are_located() {
    let mut s = common::snapshot_settings();
    without_timings(&mut s);
    s.bind(|| {
        insta::glob!("../grammar-tests", "pgn/err/*.pgn", |path| {
            insta::assert_snapshot!(run_failing(path, &["--strict", "--variations", "-j", "1"]));
        });
    });
}

#[test]
fn hand_made_bpgn_errors_are_located() {
    let mut s = common::snapshot_settings();
    without_timings(&mut s);
    s.bind(|| {
        insta::glob!("../grammar-tests", "bpgn/err/*.bpgn", |path| {
            insta::assert_snapshot!(run_failing(
                path,
                &["--strict", "--no-drop-mate", "--json", "-j", "1"]
            ));
        });
    });
}

/// A crazyhouse game in BPGN form (four player tags, `1A.` numbers, board A
/// only) is judged by crazyhouse rules to its mate, and the variant announced is the one
/// applied; `--format bpgn` still makes it a bughouse match.
#[test]
fn a_crazyhouse_game_in_bpgn_form_is_crazyhouse() {
    use pocketfen::game::{Format, GameProblemKind};
    let bytes = fs::read("grammar-tests/pgn/ok/sunsetter_zh_bench_bpgn-form.bpgn").unwrap();
    let game = GameSplitter::new(&bytes[..]).next().unwrap().unwrap();
    for format in [Format::Auto, Format::BpgnFile] {
        let r = validate_game(
            &game,
            &Options {
                format,
                ..Options::default()
            },
        );
        assert_eq!(r.status, Status::Ok, "{format:?}: {:?}", r.problems);
        assert_eq!(
            (r.variant, r.plies),
            (Some(pocketfen::Variant::Crazyhouse), 60)
        );
        assert_eq!(r.problems.len(), 1);
        assert_eq!(r.problems[0].kind, GameProblemKind::VariantInferred);
        assert!(r.problems[0].reason.ends_with("read as crazyhouse"));
    }
    let forced = validate_game(
        &game,
        &Options {
            format: Format::Bpgn,
            ..Options::default()
        },
    );
    assert_eq!(forced.variant, Some(pocketfen::Variant::Bughouse));
    assert!(
        forced
            .problems
            .iter()
            .all(|p| p.kind != GameProblemKind::VariantInferred),
        "no crazyhouse announced for a bughouse reading: {:?}",
        forced.problems
    );
}

/// A game with no `[Variant]` tag and no crazyhouse `[Event]` whose moves drop a piece is
/// read as crazyhouse, with a `variant-inferred` warning at its first drop (a variation's
/// too); an `@` in a comment infers nothing.
#[test]
fn an_untagged_game_with_a_drop_is_crazyhouse() {
    use pocketfen::game::GameProblemKind;
    let tagged = fs::read_to_string("samples/lichess_zh_2017_knightvuillaume-JannLee.pgn").unwrap();
    let untagged = tagged
        .replace("[Variant \"Crazyhouse\"]\n", "")
        .replace("Crazyhouse Bullet Arena", "Bullet Arena");
    assert!(!untagged.contains("[Variant") && !untagged.to_lowercase().contains("crazyhouse"));
    let expected = &pocketfen::game::validate_str(&tagged, &Options::default())[0];
    assert_eq!(expected.status, Status::Ok, "{:?}", expected.problems);
    let r = &pocketfen::game::validate_str(&untagged, &Options::default())[0];
    assert_eq!(
        (r.status, r.variant, r.plies),
        (
            Status::Ok,
            Some(pocketfen::Variant::Crazyhouse),
            expected.plies
        )
    );
    assert_eq!(r.problems.len(), 1, "{:?}", r.problems);
    let p = &r.problems[0];
    assert_eq!(p.kind, GameProblemKind::VariantInferred);
    assert!(p.reason.ends_with("read as crazyhouse"), "{}", p.reason);
    // Located at the movetext's first `@` (in a variation here), which is a drop.
    let first = untagged.find('@').unwrap();
    let line_start = untagged[..first].rfind('\n').map_or(0, |i| i + 1);
    let token_start = untagged[..first].rfind(' ').unwrap() + 1;
    assert_eq!(p.token.as_deref(), Some("B@f4"));
    assert_eq!(
        (p.line, p.column),
        (
            untagged[..first].matches('\n').count() + 1,
            // Columns count characters (the line has `→`s before it).
            untagged[line_start..token_start].chars().count() + 1
        )
    );
    // An `@` outside moves infers nothing; `--variant chess` reads drops as chess.
    let chess = "[Event \"x\"]\n\n1. e4 { mail me@example.org } e5 2. Nf3 *\n";
    let r = &pocketfen::game::validate_str(chess, &Options::default())[0];
    assert_eq!(
        (r.variant, r.problems.len()),
        (Some(pocketfen::Variant::Chess), 0)
    );
    let told = Options {
        variant: Some(pocketfen::Variant::Chess),
        ..Options::default()
    };
    let r = &pocketfen::game::validate_str(&untagged, &told)[0];
    assert_eq!(r.variant, Some(pocketfen::Variant::Chess));
    assert_ne!(r.status, Status::Ok);
}

/// A `(` never closed is reported where it opens, and a missing result
/// marker (`--strict`) after the game's last token, not at the next game's first line.
#[test]
fn unclosed_variations_and_missing_markers_are_located_in_their_game() {
    let unclosed =
        "[Event \"x\"]\n\n1. e4 e5\n2. Nf3 (2. Nc3 Nc6\n3. Bc4 *\n\n[Event \"y\"]\n\n1. d4 *\n";
    let reports = pocketfen::game::validate_str(unclosed, &Options::default());
    let p = &reports[0].problems[0];
    assert_eq!((p.line, p.column, p.token.as_deref()), (4, 8, Some("(")));
    assert_eq!(reports[1].status, Status::Ok);
    let strict = Options {
        strict: true,
        ..Options::default()
    };
    let reports = pocketfen::game::validate_str(
        "[Event \"x\"]\n\n1. e4 e5\n\n[Event \"y\"]\n\n1. d4 *\n",
        &strict,
    );
    let p = &reports[0].problems[0];
    assert_eq!(p.kind.name(), "no-result-marker");
    assert_eq!((p.line, p.column), (3, 9));
}

/// Without `--variations`, what a variation holds is skipped unread: a stray tag or a token
/// that is no move there is no problem; with it, both are located.
#[test]
fn variations_are_read_only_when_asked() {
    use pocketfen::game::validate_str;
    let pgn = "[Event \"x\"]\n\n1. e4 (1. d4 ?! [Tag \"v\"] d5 $$ 2. c4) e5 *\n";
    let lax = &validate_str(pgn, &Options::default())[0];
    assert_eq!(
        (lax.status, lax.plies),
        (Status::Ok, 2),
        "{:?}",
        lax.problems
    );
    let read = &validate_str(
        pgn,
        &Options {
            variations: true,
            ..Options::default()
        },
    )[0];
    let first = &read.problems[0];
    assert_eq!(
        first.kind.name(),
        "unparseable-token",
        "{:?}",
        read.problems
    );
    assert_eq!(
        (first.line, first.column, first.token.as_deref()),
        (3, 14, Some("?!"))
    );
}

/// Move-number checks only under `--strict`; the reasons given for
/// over-disambiguation, blocked castling and illegal pawn moves; `has_errors`.
#[test]
fn strict_checks_and_reasons() {
    use pocketfen::IllegalReason;
    use pocketfen::game::{GameProblemKind, validate_str};
    use pocketfen::notation::san::DefectKind;
    let strict = Options {
        strict: true,
        ..Options::default()
    };
    let kinds = |pgn: &str, opts: &Options| -> Vec<GameProblemKind> {
        validate_str(pgn, opts)[0]
            .problems
            .iter()
            .map(|p| p.kind)
            .collect()
    };
    // `12...` before a White move, and a wrong number: warnings under --strict only.
    let numbers = "[Event \"x\"]\n\n1... e4 e5 3. Nf3 *\n";
    assert_eq!(
        kinds(numbers, &strict),
        [
            GameProblemKind::MoveNumberMismatch,
            GameProblemKind::MoveNumberMismatch
        ]
    );
    assert!(kinds(numbers, &Options::default()).is_empty());
    // `N1f3` is over-disambiguated (strict only).
    let over = "[Event \"x\"]\n\n1. N1f3 *\n";
    assert_eq!(
        kinds(over, &strict),
        [GameProblemKind::Defect(DefectKind::OverDisambiguated)]
    );
    assert!(kinds(over, &Options::default()).is_empty());
    // Blocked castling is blocked, not through check; a pawn cannot push onto a piece
    // nor capture on an empty square.
    for (movetext, reason) in [
        ("1. O-O *", IllegalReason::CastlingBlocked),
        ("1. e4 e5 2. e5 *", IllegalReason::NoSuchPiece),
        ("1. exd3 *", IllegalReason::EnPassantNotAvailable),
        ("1. e5 *", IllegalReason::NoSuchPiece),
        (
            "1. e4 d5 2. e5 f6 3. exd6 *",
            IllegalReason::EnPassantNotAvailable,
        ),
    ] {
        let pgn = format!("[Event \"x\"]\n\n{movetext}\n");
        let r = &validate_str(&pgn, &Options::default())[0];
        assert!(r.has_errors(), "{movetext}");
        assert_eq!(
            r.problems[0].kind,
            GameProblemKind::Illegal(reason),
            "{movetext}"
        );
    }
    let fine = &validate_str("[Event \"x\"]\n\n1. e4 e5 *\n", &Options::default())[0];
    assert!(!fine.has_errors());
}

/// A correct Chess.com `CurrentPosition` gives no warning; a wrong board, side
/// to move or pocket does.
#[test]
fn current_position_is_compared() {
    use pocketfen::game::{GameProblemKind, validate_str};
    let text = fs::read_to_string(
        "grammar-tests/pgn/ok/chesscom_zh_2016_eekarf-JannLeeCrazyhouse_scalachess.pgn",
    )
    .unwrap();
    let mismatches = |text: &str| {
        validate_str(text, &Options::default())[0]
            .problems
            .iter()
            .filter(|p| p.kind == GameProblemKind::CurrentPositionMismatch)
            .count()
    };
    assert_eq!(mismatches(&text), 0);
    let start = text.find("[CurrentPosition \"").unwrap() + "[CurrentPosition \"".len();
    let end = start + text[start..].find('"').unwrap();
    let current = &text[start..end];
    let fields: Vec<&str> = current.split(' ').collect();
    let other_turn = if fields[1] == "w" { "b" } else { "w" };
    let mut turned = fields.clone();
    turned[1] = other_turn;
    let board_changed = current.replacen("R2Q3K", "R2Q2K1", 1);
    assert_ne!(board_changed, current);
    for wrong in [
        turned.join(" "),
        format!("{} {}", fields[..6].join(" "), "QQQQ"),
        board_changed,
    ] {
        let tampered = format!("{}{wrong}{}", &text[..start], &text[end..]);
        assert_eq!(mismatches(&tampered), 1, "{wrong}");
    }
    // A position without a pocket field matches empty pockets only: here White holds the
    // pawn taken on d5 (and Black's pocket is empty).
    let board = "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2";
    for (current, expected) in [(board.to_owned(), 1), (format!("{board} P"), 0)] {
        let game = format!(
            "[Variant \"Crazyhouse\"]\n[CurrentPosition \"{current}\"]\n\n1. e4 d5 2. exd5 *\n"
        );
        assert_eq!(mismatches(&game), expected, "{current}");
    }
}

/// `replay_game` hands over the main line's plies only, even when variations are read.
#[test]
fn replay_sees_the_main_line_only() {
    use pocketfen::game::{PlyText, replay_game};
    let pgn = b"[Event \"x\"]\n\n1. e4 (1. d4 d5 2. c4) e5 2. Nf3 (2. Nc3) Nc6 *\n";
    let game = GameSplitter::new(&pgn[..]).next().unwrap().unwrap();
    let mut lines = Vec::new();
    let report = replay_game(
        &game,
        &Options {
            variations: true,
            ..Options::default()
        },
        PlyText::Uci,
        &mut |line| lines.push(line.to_owned()),
    );
    assert_eq!(report.status, Status::Ok, "{:?}", report.problems);
    assert_eq!(lines, ["e2e4", "e7e5", "g1f3", "b8c6"]);
}

/// The Horde warning about the standard start FEN is for Horde games only.
#[test]
fn a_standard_fen_warns_only_in_horde() {
    use pocketfen::game::{GameProblemKind, validate_str};
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for (variant, warned) in [("Standard", false), ("Crazyhouse", false), ("Horde", true)] {
        let pgn = format!("[Variant \"{variant}\"]\n[FEN \"{fen}\"]\n\n1. e4 *\n");
        let r = &validate_str(&pgn, &Options::default())[0];
        let kinds: Vec<_> = r.problems.iter().map(|p| p.kind).collect();
        assert_eq!(
            kinds.contains(&GameProblemKind::HordeStandardFen),
            warned,
            "{variant}: {kinds:?}"
        );
    }
}

/// In a `.bpgn` file, a crazyhouse game written in BPGN form is crazyhouse only while it
/// moves on board A; a move on board B makes it a bughouse match.
#[test]
fn a_bpgn_file_game_with_board_b_is_bughouse() {
    use pocketfen::game::{Format, validate_str};
    let opts = Options {
        format: Format::BpgnFile,
        ..Options::default()
    };
    let a_only = "[Event \"Crazyhouse match\"]\n\n1A. e4 1a. e5 2A. Nf3 *\n";
    let both = "[Event \"Crazyhouse match\"]\n\n1A. e4 1B. d4 1a. e5 *\n";
    assert_eq!(
        validate_str(a_only, &opts)[0].variant,
        Some(pocketfen::Variant::Crazyhouse)
    );
    assert_eq!(
        validate_str(both, &opts)[0].variant,
        Some(pocketfen::Variant::Bughouse)
    );
}

/// `--variant` of one board given for a bughouse match of two boards cannot apply: the
/// match is read as bughouse, as without it, and a `variant-not-applied` warning at its
/// first move number says so (it was silent). `--variant bughouse`, or a one-board
/// variant for a game on board A only, says nothing.
#[test]
fn a_one_board_variant_for_a_match_is_warned_of() {
    use pocketfen::game::{Format, validate_str};
    let both = "[WhiteA \"wa\"][BlackA \"ba\"]\n[WhiteB \"wb\"][BlackB \"bb\"]\n\n1A. e4 1B. d4 1a. e5 *\n";
    let plain = validate_str(both, &Options::default()).remove(0);
    assert_eq!(plain.variant, Some(pocketfen::Variant::Bughouse));
    assert!(plain.problems.is_empty(), "{:?}", plain.problems);
    for v in [pocketfen::Variant::Chess, pocketfen::Variant::Crazyhouse] {
        let r = validate_str(
            both,
            &Options {
                variant: Some(v),
                ..Options::default()
            },
        )
        .remove(0);
        assert_eq!(
            (r.variant, r.plies, r.status),
            (plain.variant, 3, Status::Ok)
        );
        let said: Vec<_> = r
            .problems
            .iter()
            .map(|p| (p.kind.name(), p.severity, p.line, p.column))
            .collect();
        assert_eq!(
            said,
            [("variant-not-applied", pocketfen::Severity::Warning, 4, 1)],
            "{v}"
        );
        assert!(
            r.problems[0]
                .reason
                .contains(&format!("the variant asked for ({v}) is of one board"))
        );
    }
    let quiet = |text: &str, variant, format| {
        let opts = Options {
            variant: Some(variant),
            format,
            ..Options::default()
        };
        validate_str(text, &opts).remove(0).problems.is_empty()
    };
    assert!(quiet(both, pocketfen::Variant::Bughouse, Format::Auto));
    let a_only = "[Event \"x\"]\n\n1A. e4 1a. e5 2A. Nf3 *\n";
    assert!(quiet(
        a_only,
        pocketfen::Variant::Crazyhouse,
        Format::BpgnFile
    ));
}

/// A bughouse clock may rise by the increment (plus a millisecond of rounding), no more.
#[test]
fn bughouse_clocks_rise_by_the_increment_at_most() {
    use pocketfen::game::{GameProblemKind, validate_str};
    for (second, warned) in [
        ("117.5", false),
        ("118.5", false),
        // exactly the increment plus the millisecond of rounding: still allowed
        ("118.501", false),
        ("118.52", true),
        ("119.1", true),
    ] {
        let pgn = format!(
            "[WhiteA \"wa\"][BlackA \"ba\"]\n[WhiteB \"wb\"][BlackB \"bb\"]\n[TimeControl \"120+2\"]\n\n\
             1A. e4{{119.5}} 1a. e5{{119.1}} 2A. Nf3{{116.5}} 2a. Nc6{{118.0}} 3A. Nc3{{{second}}} *\n"
        );
        let r = &validate_str(&pgn, &Options::default())[0];
        let rose: Vec<_> = r
            .problems
            .iter()
            .filter(|p| p.kind == GameProblemKind::ClockIncrease)
            .map(|p| (p.ply, p.token.clone()))
            .collect();
        let expected = if warned {
            vec![(Some(5), Some(second.to_owned()))]
        } else {
            vec![]
        };
        assert_eq!(rose, expected, "{second}: {:?}", r.problems);
    }
}

/// The bughouse Result against the match's end: a mate on a board is named as such, and an
/// aborted match has no result but `*`.
#[test]
fn bughouse_result_against_mate_and_abort() {
    use pocketfen::game::{GameProblemKind, validate_str};
    let players = "[WhiteA \"wa\"][BlackA \"ba\"]\n[WhiteB \"wb\"][BlackB \"bb\"]\n";
    let mate = format!("{players}[Result \"1/2-1/2\"]\n\n1A. f3 1a. e5 2A. g4 2a. Qh4# 1/2-1/2\n");
    let r = &validate_str(&mate, &Options::default())[0];
    let reasons: Vec<_> = r
        .problems
        .iter()
        .filter(|p| p.kind == GameProblemKind::ResultMismatch)
        .map(|p| p.reason.as_str())
        .collect();
    assert_eq!(reasons.len(), 1, "{:?}", r.problems);
    assert!(
        reasons[0].starts_with("white lost on board A by checkmate"),
        "{}",
        reasons[0]
    );
    for (result, warned) in [("1-0", true), ("*", false)] {
        let aborted =
            format!("{players}[Result \"{result}\"]\n\n1A. e4 1a. e5 {{Game aborted}} {result}\n");
        let r = &validate_str(&aborted, &Options::default())[0];
        let mismatch = r
            .problems
            .iter()
            .any(|p| p.kind == GameProblemKind::ResultMismatch);
        assert_eq!(mismatch, warned, "{result}: {:?}", r.problems);
    }
}

/// The problems (kind, severity, ply) of the one game in `text`.
/// A problem as (kind, severity, ply).
type Said = (String, String, Option<usize>);

fn problems_of(text: &str, strict: bool) -> (Status, Vec<Said>, usize) {
    let opts = Options {
        strict,
        ..Options::default()
    };
    let r = &pocketfen::game::validate_str(text, &opts)[0];
    let problems = r
        .problems
        .iter()
        .map(|p| {
            (
                p.kind.name().to_owned(),
                p.severity.name().to_owned(),
                p.ply,
            )
        })
        .collect();
    (r.status, problems, r.plies)
}

/// Castling rights that the FEN tag's kings and rooks do not allow are
/// dropped with a warning naming them, and every move is still checked (castling then is
/// illegal); under --strict the FEN is an error. The Lichess database's November 2023
/// Chess960 FEN (lichess-org/database#54) replays with `-`.
#[test]
fn impossible_castling_rights_are_dropped_and_the_game_replayed() {
    let game = "[Event \"Caissa\"]\n[SetUp \"1\"]\n\
        [FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBN1 w KQkq - 0 1\"]\n\n\
        1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. O-O *\n";
    let (status, problems, plies) = problems_of(game, false);
    assert_eq!(status, Status::Illegal);
    assert_eq!(plies, 6);
    assert_eq!(
        problems,
        [
            ("impossible-castling".into(), "warning".into(), None),
            ("castling-without-right".into(), "error".into(), Some(7)),
        ]
    );
    let report = &pocketfen::game::validate_str(game, &Options::default())[0];
    assert!(
        report.problems[0].reason.contains("castling rights `KQ`"),
        "{}",
        report.problems[0].reason
    );
    let (status, problems, plies) = problems_of(game, true);
    assert_eq!((status, plies), (Status::Error, 0));
    assert_eq!(
        problems,
        [("impossible-castling".into(), "error".into(), None)]
    );
    // lichess-org/database#54, game 89569 of the 2023-11 Chess960 dump (its FEN).
    let fen = "rkrnnbbq/pppppppp/8/8/8/8/PPPPPPPP/RKRNNBBQ w HEhe - 0 1";
    let game = format!(
        "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n1. e4 e5 2. Nf3 Nf6 *\n"
    );
    let (status, problems, plies) = problems_of(&game, false);
    assert_eq!((status, plies), (Status::Ok, 4));
    assert_eq!(
        problems,
        [("impossible-castling".into(), "warning".into(), None)]
    );
    let dir = scratch_dir("castling");
    let path = dir.join("960.pgn");
    fs::write(&path, &game).unwrap();
    let out = cmd(&["pgn", "convert", "--to", "lichess", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let written = String::from_utf8(out.stdout).unwrap();
    assert!(
        written.contains("[FEN \"rkrnnbbq/pppppppp/8/8/8/8/PPPPPPPP/RKRNNBBQ w - - 0 1\"]"),
        "{written}"
    );
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("impossible-castling")
    );
}

/// A real game's moves written as UCI (`replay --emit uci`) read as the same
/// game, each with a non-san-move warning, and convert to the same SAN; under --strict
/// the first is an error.
#[test]
fn uci_movetext_reads_as_its_san() {
    let dir = scratch_dir("uci");
    let source = "grammar-tests/pgn/ok/lichess_zh_2018_JannLee-CrazyAra.pgn";
    let replay = |path: &str, emit: &str| {
        let out = cmd(&["replay", "--emit", emit, path]).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let plies: Vec<String> = replay(source, "uci")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_owned)
        .collect();
    assert!(plies.len() > 40);
    let movetext = plies.join(" ");
    let uci_game = dir.join("uci.pgn");
    fs::write(
        &uci_game,
        format!("[Event \"uci\"]\n[Variant \"Crazyhouse\"]\n\n{movetext} *\n"),
    )
    .unwrap();
    let uci_path = uci_game.to_str().unwrap();
    let san_of = |path: &str| -> Vec<String> {
        replay(path, "san")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(san_of(uci_path), san_of(source));
    let (status, problems, read) = problems_of(&fs::read_to_string(&uci_game).unwrap(), false);
    assert_eq!((status, read), (Status::Ok, plies.len()));
    // Drops (`P@e4`) are SAN already; every other move is reported.
    let drops = plies.iter().filter(|p| p.contains('@')).count();
    assert!(drops > 0);
    assert_eq!(problems.len(), plies.len() - drops);
    assert!(
        problems
            .iter()
            .all(|(k, s, _)| k == "non-san-move" && s == "warning")
    );
    let (status, problems, _) = problems_of(&fs::read_to_string(&uci_game).unwrap(), true);
    assert_eq!(status, Status::Illegal);
    assert_eq!(problems, [("non-san-move".into(), "error".into(), Some(1))]);
    // A wrong piece letter or a missing promotion is no move.
    let promotion = "[FEN \"8/4P3/8/8/8/8/k7/4K3 w - - 0 1\"]\n\n1. e7e8 *";
    for (text, kind) in [
        (
            "\n1. e2-e4 Pe7-e5 2. Bf1-c4 Nb8-c6 3. Bb1-c3 *",
            "no-such-piece",
        ),
        (promotion, "promotion-missing"),
    ] {
        let (_, problems, _) = problems_of(&format!("[Event \"x\"]\n{text}\n"), false);
        assert_eq!(problems.last().unwrap().0, kind, "{text}: {problems:?}");
    }
}

/// A result with an en dash or `½` is that result, with a warning; the
/// game stays legal and converts with PGN's spelling.
#[test]
fn unicode_results_are_read() {
    for (tag, marker, result) in [
        ("1–0", "1–0", "1-0"),
        ("½–½", "½-½", "1/2-1/2"),
        ("0—1", "0−1", "0-1"),
    ] {
        let game = format!("[Event \"x\"]\n[Result \"{tag}\"]\n\n1. e4 e5 {marker}\n");
        let (status, problems, _) = problems_of(&game, false);
        assert_eq!(status, Status::Ok, "{marker}");
        assert_eq!(problems.len(), 2, "{marker}: {problems:?}");
        assert!(
            problems
                .iter()
                .all(|(k, s, _)| k == "nonstandard-result" && s == "warning")
        );
        let g = GameSplitter::new(game.as_bytes()).next().unwrap().unwrap();
        let pocketfen::game::Converted::Game(text, _) = pocketfen::game::convert_game(
            &g,
            &pocketfen::game::Rewrite::to(pocketfen::game::Target::Lichess),
            &Options::default(),
        ) else {
            panic!("{marker} does not convert");
        };
        assert!(text.contains(&format!("[Result \"{result}\"]")), "{text}");
        assert!(text.ends_with(&format!("e5 {result}\n\n")), "{text}");
    }
}

/// Files that other programs wrote (`grammar-tests/pgn/real`, provenance in its
/// SOURCES.md) validate without error; what is said of each is snapshotted.
#[test]
fn real_files_of_other_programs_validate() {
    let mut s = common::snapshot_settings();
    without_timings(&mut s);
    s.bind(|| {
        insta::glob!("../grammar-tests/pgn/real", "*.pgn", |path| {
            let p = path.to_str().unwrap();
            let rel = &p[p.find("grammar-tests").unwrap()..];
            let out = cmd(&["validate", "-j", "1", "--variations", rel])
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(0), "{rel}");
            insta::assert_snapshot!(format!(
                "--- stdout\n{}--- stderr\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        });
    });
}

/// One walker for PGN and BPGN. Each problem kind that both forms can have
/// means the same in both: the same kind, severity, ply and token, for the same moves
/// written as a PGN game and as a match on board A.
#[test]
fn every_problem_kind_means_the_same_in_pgn_and_bpgn() {
    let cases = [
        (
            "nag-out-of-range",
            "1. e4 $300 e5 *",
            "1A. e4 $300 1a. e5 *",
        ),
        (
            "unparseable-token",
            "1. e4 [Site \"x\"] e5 *",
            "1A. e4 [Site \"x\"] 1a. e5 *",
        ),
        ("unparseable-token", "1. e4 } e5 *", "1A. e4 } 1a. e5 *"),
        ("second-result", "1. e4 e5 * 1-0", "1A. e4 1a. e5 * 1-0"),
        ("move-after-result", "1. e4 * e5", "1A. e4 * 1a. e5"),
        ("nonstandard-result", "1. e4 e5 ½-½", "1A. e4 1a. e5 ½-½"),
        ("non-san-move", "1. e2e4 e5 *", "1A. e2e4 1a. e5 *"),
        (
            "non-san-move",
            "1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. O‑O *",
            "1A. e4 1a. e5 2A. Nf3 2a. Nf6 3A. Bc4 3a. Bc5 4A. O‑O *",
        ),
        ("no-such-piece", "1. e4 e4 *", "1A. e4 1a. e4 *"),
        ("not-in-pocket", "1. N@e4 *", "1A. N@e4 *"),
        ("castling-blocked", "1. O-O *", "1A. O-O *"),
    ];
    let opts = Options::default();
    let said = |text: String| -> Vec<(String, String, Option<usize>, Option<String>)> {
        let r = &pocketfen::game::validate_str(&text, &opts)[0];
        r.problems
            .iter()
            .map(|p| {
                (
                    p.kind.name().to_owned(),
                    p.severity.name().to_owned(),
                    p.ply,
                    p.token.clone(),
                )
            })
            .collect()
    };
    for (kind, pgn, bpgn) in cases {
        let one = said(format!(
            "[Event \"x\"]\n[Variant \"Crazyhouse\"]\n\n{pgn}\n"
        ));
        let two = said(format!(
            "[Event \"x\"]\n[WhiteA \"a\"][BlackA \"b\"][WhiteB \"c\"][BlackB \"d\"]\n\n{bpgn}\n"
        ));
        let of_kind = |all: &[(String, String, Option<usize>, Option<String>)]| {
            all.iter()
                .filter(|p| p.0 == kind)
                .cloned()
                .collect::<Vec<_>>()
        };
        assert!(!of_kind(&one).is_empty(), "{kind}: PGN {pgn}: {one:?}");
        assert_eq!(of_kind(&one), of_kind(&two), "{kind}: {pgn} / {bpgn}");
    }
    // The form's own rules: variations are PGN's, board labels BPGN's.
    let two = said(
        "[WhiteA \"a\"][BlackA \"b\"][WhiteB \"c\"][BlackB \"d\"]\n\n1A. e4 (1A. d4) *\n".into(),
    );
    assert_eq!(two[0].0, "unparseable-token");
    let two =
        said("[WhiteA \"a\"][BlackA \"b\"][WhiteB \"c\"][BlackB \"d\"]\n\n1A. e4 e5 *\n".into());
    assert_eq!(
        (two[0].0.as_str(), two[0].3.as_deref()),
        ("unparseable-token", Some("e5"))
    );
}

/// A visitor stops the walk, or skips a variation (whose moves are then not
/// validated, nor shown).
#[test]
fn visitors_stop_and_skip() {
    use pocketfen::game::{Boards, MoveAt, Skip, Visitor, visit_game};
    use pocketfen::stream::RawGame;
    use pocketfen::{Move, Position};
    use std::ops::ControlFlow;
    #[derive(Default)]
    struct Watch {
        sans: Vec<String>,
        stop_after: Option<usize>,
        skip: bool,
        comments: usize,
    }
    impl Visitor<'_> for Watch {
        fn comment(&mut self, _: &str) -> ControlFlow<()> {
            self.comments += 1;
            ControlFlow::Continue(())
        }
        fn begin_variation(&mut self) -> ControlFlow<(), Skip> {
            ControlFlow::Continue(Skip(self.skip))
        }
        fn san(
            &mut self,
            before: &Position,
            _: &pocketfen::notation::san::SanPlus,
            m: Move,
            _: MoveAt,
        ) -> ControlFlow<()> {
            self.sans
                .push(pocketfen::notation::san::SanPlus::from_move(before, m).to_string());
            match self.stop_after {
                Some(n) if self.sans.len() >= n => ControlFlow::Break(()),
                _ => ControlFlow::Continue(()),
            }
        }
        fn start(&mut self, _: Boards<'_>) -> ControlFlow<()> {
            ControlFlow::Continue(())
        }
    }
    let text = b"[Event \"x\"]\n\n1. e4 e5 (1... Ke9 {bad}) 2. Nf3 { a comment } Nc6 3. Ke3 *\n";
    let game = RawGame::new(text.to_vec());
    let variations = Options {
        variations: true,
        ..Options::default()
    };
    // Skipping the variation: its illegal move is neither validated nor shown; the main
    // line's illegal third move still is.
    let mut skip = Watch {
        skip: true,
        ..Watch::default()
    };
    let report = visit_game(&game, &variations, &mut skip);
    assert_eq!(skip.sans, ["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(skip.comments, 1);
    assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
    assert_eq!(report.problems[0].ply, Some(5));
    // Not skipping: the variation's move is the first problem.
    let mut all = Watch::default();
    let report = visit_game(&game, &variations, &mut all);
    assert_eq!(report.problems[0].token.as_deref(), Some("Ke9"));
    // Stopping at the second move: it is not played, and nothing after it is read.
    let mut stop = Watch {
        stop_after: Some(2),
        ..Watch::default()
    };
    let report = visit_game(&game, &Options::default(), &mut stop);
    assert_eq!(stop.sans, ["e4", "e5"]);
    assert!(report.problems.is_empty());
    assert_eq!(report.plies, 1);
}

/// A tag line whose value holds unescaped quotes (`[White ""Socrates Expert""]`, as
/// Lichess's study exports write names in quotes) is a located `malformed-tag` warning
/// of the tag section: the movetext is still replayed (it was an illegal game at ply 1),
/// and `pgn convert` writes the value escaped.
#[test]
fn a_tag_value_with_unescaped_quotes_is_read_with_a_warning() {
    let dir = scratch_dir("malformed-tag");
    let path = dir.join("study.pgn");
    fs::write(
        &path,
        "[Event \"Mate in 3\"]\n[White \"\"Socrates Expert\"\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# *\n",
    )
    .unwrap();
    let p = path.to_str().unwrap();
    let (out, err, code) = run_out(&["validate", "--json", "-q", p]);
    assert_eq!(code, Some(0), "{err}");
    let records: Vec<serde_json::Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let game = &records[0];
    assert_eq!(game["plies"], 7);
    assert_eq!(game["problems"].as_array().unwrap().len(), 1, "{game}");
    let problem = &game["problems"][0];
    assert_eq!(problem["kind"], "malformed-tag");
    assert_eq!(problem["severity"], "warning");
    assert_eq!(
        (problem["line"].as_u64(), problem["column"].as_u64()),
        (Some(2), Some(1))
    );
    let (converted, _, code) = run_out(&["pgn", "convert", "--to", "lichess", "-q", p]);
    assert_eq!(code, Some(0));
    let converted = String::from_utf8(converted).unwrap();
    assert!(
        converted.contains("[White \"\\\"Socrates Expert\\\"\"]"),
        "{converted}"
    );
    // The escaped form reads back as the same name, with no warning.
    let again = dir.join("again.pgn");
    fs::write(&again, &converted).unwrap();
    let (out, _, code) = run_out(&["validate", "--json", "-q", "--all", again.to_str().unwrap()]);
    assert_eq!(code, Some(0));
    assert!(String::from_utf8(out).unwrap().contains("\"problems\":[]"));
    fs::remove_dir_all(&dir).unwrap();
}

/// A comment's commands (a `{…}` comment's or a `;` comment's) are read under
/// `--strict`: a clock, evaluation, arrow or marked square that does not read is a
/// `malformed-annotation` warning at its `[`, with the move it follows; well-formed ones, unknown ones and any outside `--strict` say
/// nothing.
#[test]
fn malformed_annotations_are_located_under_strict() {
    let pgn = "[Event \"a\"]\n\n1. e4 { [%eval 0.2] [%clk 0:03:00] } 1... e5 { [%eval x] [%timestamp 3] }\n2. Nf3 { [%cal Ge2e4,Ge2] [%csl Rd4] } ; [%clk 0:75:00]\n*\n";
    let strict = Options {
        strict: true,
        ..Options::default()
    };
    let report = &pocketfen::game::validate_str(pgn, &strict)[0];
    // Severity, ply, line, column and token of each.
    type Said<'a> = (&'a str, Option<usize>, usize, usize, Option<&'a str>);
    let found: Vec<Said<'_>> = report
        .problems
        .iter()
        .filter(|p| p.kind.name() == "malformed-annotation")
        .map(|p| {
            (
                p.severity.name(),
                p.ply,
                p.line,
                p.column,
                p.token.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("warning", Some(2), 3, 48, Some("[%eval x]")),
            ("warning", Some(3), 4, 10, Some("[%cal Ge2e4,Ge2]")),
            // A `;` comment's command, read as a `{…}` comment's.
            ("warning", Some(3), 4, 42, Some("[%clk 0:75:00]")),
        ]
    );
    let plain = &pocketfen::game::validate_str(pgn, &Options::default())[0];
    assert!(plain.problems.is_empty(), "{:?}", plain.problems);
}
