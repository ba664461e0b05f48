//! Archive validation: the corpus validates, hand-made illegal games give their located
//! diagnostics (snapshotted), output is identical for any number of jobs, compressed
//! input, replay.

mod common;

use std::fs;
use std::io::Write;
use std::process::Command;

use insta_cmd::{assert_cmd_snapshot, get_cargo_bin};
use pocketfen::game::{Options, Status, validate_game};
use pocketfen::stream::GameSplitter;

fn settings() -> insta::Settings {
    common::snapshot_settings()
}

fn cmd(args: &[&str]) -> Command {
    let mut c = Command::new(get_cargo_bin("pocketfen"));
    c.args(args);
    c.env("NO_COLOR", "1");
    c
}

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

/// The summary line carries timings; keep only its counts.
fn without_timings(s: &mut insta::Settings) {
    s.add_filter(r"; [0-9.]+ s, [0-9]+ games/s, [0-9.]+ MB/s", "; [timing]");
    s.add_filter(r#""seconds":[0-9.]+"#, r#""seconds":"[timing]""#);
}

#[test]
fn every_corpus_game_validates() {
    let mut files: Vec<_> = fs::read_dir("grammar-tests/pgn/ok")
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.push("samples/lichess_standard_2025-05_sample438.pgn".into());
    let mut games = 0;
    let mut warnings = Vec::new();
    for path in files {
        let bytes = fs::read(&path).unwrap();
        for game in GameSplitter::new(&bytes[..]) {
            let game = game.unwrap();
            let report = validate_game(
                &game,
                &Options {
                    variations: true,
                    ..Options::default()
                },
            );
            assert_eq!(
                report.status,
                Status::Ok,
                "{}: game {}: {:?}",
                path.display(),
                game.number,
                report.problems
            );
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            for p in &report.problems {
                warnings.push((name.clone(), game.number, p.kind.name()));
            }
            games += 1;
        }
    }
    // The only warnings of the corpus: the two games without a `[Variant]` tag whose
    // Event names crazyhouse.
    warnings.sort();
    assert_eq!(
        warnings,
        [
            (
                "fics_zh_2001_no-variant-tag_scalachess.pgn".to_owned(),
                1,
                "variant-inferred"
            ),
            (
                "sunsetter_zh_bench_bpgn-form.bpgn".to_owned(),
                1,
                "variant-inferred"
            ),
        ]
    );
    assert_eq!(
        games,
        // The Lichess sample, the cutechess and FICS files, the single games, two fuzz
        // regressions, the four Chess960 games and the crazyhouse game in BPGN form.
        438 + 102 + 100 + 81 + 2 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 4 + 1
    );
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
            &[(1, "not-in-pocket", Some(5), 4, 26)],
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
        ("illegal-in-variation", &[(1, "not-in-pocket", None, 5, 16)]),
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
    let mut s = settings();
    without_timings(&mut s);
    s.bind(|| {
        insta::glob!("../grammar-tests", "pgn/err/*.pgn", |path| {
            insta::assert_snapshot!(run_failing(path, &["--strict", "--variations", "-j", "1"]));
        });
    });
}

#[test]
fn output_is_identical_for_one_and_two_jobs() {
    let files = [
        "grammar-tests/pgn/err/three-games-middle-bad.pgn",
        "samples/cutechess_zh_2019_CrazyAra-vs-Stockfish.pgn",
    ];
    let mut big = Vec::new();
    for _ in 0..40 {
        for f in files {
            big.extend(fs::read(f).unwrap());
            big.push(b'\n');
        }
    }
    let run = |jobs: &str| {
        let mut child = cmd(&[
            "validate", "-q", "--json", "--all", "--strict", "-j", jobs, "-",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let data = big.clone();
        let writer = std::thread::spawn(move || stdin.write_all(&data).unwrap());
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        // Drop the summary's timing.
        text.lines()
            .filter(|l| !l.contains("\"type\":\"summary\""))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let one = run("1");
    assert!(one.len() > 4000, "{}", one.len());
    assert_eq!(one, run("2"));
    assert_eq!(one, run("3"));
}

#[test]
fn cli_text_json_compressed_and_replay() {
    let mut s = settings();
    without_timings(&mut s);
    let dir = std::env::temp_dir().join(format!("pocketfen-test-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let src = fs::read("grammar-tests/pgn/err/three-games-middle-bad.pgn").unwrap();
    let gz = dir.join("games.pgn.gz");
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(&src).unwrap();
    fs::write(&gz, e.finish().unwrap()).unwrap();
    let truncated = dir.join("truncated.pgn.zst");
    // A streamed frame (no content size, as `zstd` writes from a pipe): its blocks decode
    // one by one before the cut.
    let big = fs::read("samples/lichess_standard_2025-05_sample438.pgn").unwrap();
    let mut enc = zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
    enc.write_all(&big).unwrap();
    let zst = enc.finish().unwrap();
    fs::write(&truncated, &zst[..zst.len() / 2]).unwrap();
    s.add_filter(&regex_escape(dir.to_str().unwrap()), "[TMP]");
    s.bind(|| {
        assert_cmd_snapshot!(
            "validate_text",
            cmd(&[
                "validate",
                "-q",
                "grammar-tests/pgn/err/three-games-middle-bad.pgn"
            ])
        );
        assert_cmd_snapshot!(
            "validate_json_all",
            cmd(&[
                "validate",
                "-q",
                "--json",
                "--all",
                "grammar-tests/pgn/err/three-games-middle-bad.pgn"
            ])
        );
        assert_cmd_snapshot!(
            "validate_gzip",
            cmd(&["validate", "-q", gz.to_str().unwrap()])
        );
        assert_cmd_snapshot!(
            "validate_truncated_zstd",
            cmd(&["validate", "-q", "-j", "1", truncated.to_str().unwrap()])
        );
        assert_cmd_snapshot!(
            "validate_missing_file",
            cmd(&["validate", "-q", "no/such/file.pgn"])
        );
        assert_cmd_snapshot!(
            "validate_variant_override",
            cmd(&[
                "validate",
                "-q",
                "--variant",
                "crazyhouse",
                "grammar-tests/pgn/err/drop-without-variant.pgn"
            ])
        );
        assert_cmd_snapshot!(
            "replay_san",
            cmd(&[
                "replay",
                "--emit",
                "san",
                "--drop-style",
                "at",
                "grammar-tests/pgn/ok/chesscom_zh_2016_eekarf-JannLeeCrazyhouse_scalachess.pgn"
            ])
        );
        assert_cmd_snapshot!(
            "replay_fen_bad_game",
            cmd(&[
                "replay",
                "--emit",
                "fen",
                "--dialect",
                "xboard",
                "grammar-tests/pgn/err/illegal-drop.pgn"
            ])
        );
        assert_cmd_snapshot!(
            "replay_bpgn_fen",
            cmd(&[
                "replay",
                "--emit",
                "fen",
                "grammar-tests/bpgn/ok/bpgn-standard-sample_movetext-only_wikipedia.bpgn"
            ])
        );
        assert_cmd_snapshot!(
            "validate_bpgn_json",
            cmd(&[
                "validate",
                "-q",
                "--json",
                "--all",
                "grammar-tests/bpgn/ok/bughousedb_1934301.bpgn",
                "grammar-tests/bpgn/ok/chesscom_bughouse_2022_bugchess-example.bpgn"
            ])
        );
        assert_cmd_snapshot!(
            "perft_bughouse_board",
            cmd(&[
                "perft",
                "--variant",
                "bughouse",
                "--fen",
                "r1bqk2r/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R/Nb w KQkq - 4 4",
                "2"
            ])
        );
        assert_cmd_snapshot!(
            "pgn_convert_broken_left_out",
            cmd(&[
                "pgn",
                "convert",
                "--to",
                "chesscom",
                "-j",
                "2",
                "grammar-tests/pgn/err/three-games-middle-bad.pgn"
            ])
        );
        assert_cmd_snapshot!(
            "pgn_convert_keep_broken",
            cmd(&[
                "pgn",
                "convert",
                "--to",
                "xboard",
                "--keep-broken",
                "grammar-tests/pgn/err/three-games-middle-bad.pgn"
            ])
        );
        let out = dir.join("out.pgn");
        assert_cmd_snapshot!(
            "pgn_convert_to_file",
            cmd(&[
                "pgn",
                "convert",
                "--to",
                "lichess",
                "--drop-style",
                "at",
                "-o",
                out.to_str().unwrap(),
                "grammar-tests/pgn/ok/lichess_zh_2018_JannLee-CrazyAra.pgn"
            ])
        );
        let written = fs::read_to_string(&out).unwrap();
        assert!(
            written.contains("@") && written.starts_with("[Event"),
            "{written}"
        );
        assert_eq!(
            fs::read_dir(&dir)
                .unwrap()
                .filter(|e| e
                    .as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .contains(".tmp"))
                .count(),
            0,
            "no temporary file is left"
        );
        assert_cmd_snapshot!(
            "replay_uci_horde",
            cmd(&[
                "replay",
                "--emit",
                "uci",
                "grammar-tests/pgn/ok/lichess_horde_2022_Daymon_Rivera-pripredi.pgn"
            ])
        );
    });
    fs::remove_dir_all(&dir).unwrap();
}

fn regex_escape(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '/' || c == '-' {
                c.to_string()
            } else {
                format!("\\{c}")
            }
        })
        .collect()
}

#[test]
fn every_bpgn_corpus_match_validates_with_its_outcome() {
    // The Result reading that matches the derived outcome: bughouse-db writes the result
    // from the view of the board that ended the match.
    let expected = [
        (
            "bpgn-standard-sample_movetext-only_wikipedia.bpgn",
            vec![None],
        ),
        ("bughousedb_1283326.bpgn", vec![None]),
        ("bughousedb_1921708_bugaboo.bpgn", vec![Some("board")]),
        ("bughousedb_1934301.bpgn", vec![Some("board")]),
        ("bughousedb_1934461.bpgn", vec![Some("board")]),
        ("bughousedb_1934587.bpgn", vec![Some("both")]),
        ("bughousedb_1934660.bpgn", vec![Some("board")]),
        (
            "chesscom_bughouse_2022_bugchess-example.bpgn",
            vec![Some("both")],
        ),
        (
            "handmade_crlf-latin1-no-moves.bpgn",
            vec![None, Some("both")],
        ),
    ];
    assert_eq!(
        fs::read_dir("grammar-tests/bpgn/ok").unwrap().count(),
        expected.len()
    );
    for (file, readings) in expected {
        let bytes = fs::read(format!("grammar-tests/bpgn/ok/{file}")).unwrap();
        let reports: Vec<_> = GameSplitter::new(&bytes[..])
            .map(|g| validate_game(&g.unwrap(), &Options::default()))
            .collect();
        for r in &reports {
            assert_eq!(r.status, Status::Ok, "{file}: {:?}", r.problems);
            assert_eq!(r.variant, Some(pocketfen::Variant::Bughouse));
        }
        assert_eq!(
            reports
                .iter()
                .map(|r| r.result_reading.map(|r| r.name()))
                .collect::<Vec<_>>(),
            readings,
            "{file}"
        );
    }
}

#[test]
fn hand_made_bpgn_errors_are_located() {
    let mut s = settings();
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

// Archives as other programs write them.

/// The JSON records of `validate --json --all ARGS`, and its exit code.
fn json_records(args: &[&str]) -> (Vec<serde_json::Value>, Option<i32>) {
    let mut all = vec!["validate", "-q", "--json", "--all"];
    all.extend_from_slice(args);
    let out = cmd(&all).output().unwrap();
    let records = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (records, out.status.code())
}

/// The game records without their file name, and the summary without its timing.
fn games_and_summary(
    mut records: Vec<serde_json::Value>,
) -> (Vec<serde_json::Value>, serde_json::Value) {
    let mut summary = records.pop().expect("a summary");
    assert_eq!(summary["type"], "summary");
    for r in records.iter_mut().chain([&mut summary]) {
        r.as_object_mut().unwrap().remove("file");
        r.as_object_mut().unwrap().remove("seconds");
    }
    (records, summary)
}

/// A temporary folder of this test process.
fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pocketfen-{name}-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// The real `pzstd` (Debian package `zstd`; `.ci/run` installs it).
fn pzstd(args: &[&str]) -> std::process::Output {
    Command::new("pzstd")
        .args(args)
        .output()
        .expect("pzstd (Debian package zstd) is needed for this test: `.ci/run` installs it")
}

/// How many zstd frames a pzstd file holds, each announced by a skippable frame that
/// carries its compressed size (pzstd's layout; `None` for any other layout).
fn pzstd_frames(bytes: &[u8]) -> Option<usize> {
    let u32_at = |i: usize| Some(u32::from_le_bytes(bytes.get(i..i + 4)?.try_into().ok()?));
    let (mut at, mut frames) = (0, 0);
    while at < bytes.len() {
        if !(0x184D_2A50..=0x184D_2A5F).contains(&u32_at(at)?) || u32_at(at + 4)? != 4 {
            return None;
        }
        let size = u32_at(at + 8)? as usize;
        if u32_at(at + 12)? != 0xFD2F_B528 {
            return None;
        }
        at += 12 + size;
        frames += 1;
    }
    (at == bytes.len()).then_some(frames)
}

/// An archive as Lichess writes its database files (pzstd: a skippable frame
/// before each of several zstd frames) gives exactly the records of its text, for any
/// number of jobs, made with the real pzstd.
#[test]
fn pzstd_archives_are_read_frame_by_frame() {
    let dir = temp_dir("pzstd");
    let plain = dir.join("games.pgn");
    let sample = fs::read("samples/lichess_standard_2025-05_sample438.pgn").unwrap();
    let copies = 6;
    let mut text = Vec::new();
    for _ in 0..copies {
        text.extend_from_slice(&sample);
        text.push(b'\n');
    }
    fs::write(&plain, &text).unwrap();
    let zst = dir.join("games.pgn.zst");
    let out = pzstd(&[
        "-q",
        "-f",
        "-1",
        "-p",
        "2",
        plain.to_str().unwrap(),
        "-o",
        zst.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let bytes = fs::read(&zst).unwrap();
    assert_eq!(
        &bytes[..4],
        &[0x50, 0x2a, 0x4d, 0x18],
        "pzstd starts with a skippable frame"
    );
    let frames = pzstd_frames(&bytes).expect("pzstd's layout");
    assert!(frames >= 3, "{frames} frames: the test needs several");
    let (expected, plain_summary) =
        games_and_summary(json_records(&["-j", "1", plain.to_str().unwrap()]).0);
    assert_eq!(expected.len(), copies * 438);
    for jobs in ["1", "2"] {
        let (records, code) = json_records(&["-j", jobs, zst.to_str().unwrap()]);
        assert_eq!(code, Some(0));
        let (games, summary) = games_and_summary(records);
        assert_eq!(games, expected, "-j {jobs}");
        assert_eq!(summary["complete"], true);
        assert_eq!(summary["games"], plain_summary["games"]);
        assert!(summary.get("trailing_bytes").is_none());
    }
}

/// The bundled pzstd sample (the README's first command) reads as its
/// decompressed text reads.
#[test]
fn the_bundled_lichess_sample_is_read_whole() {
    let path = "samples/lichess_zh_2022-2025_bots75.pgn.zst";
    let bytes = fs::read(path).unwrap();
    assert_eq!(pzstd_frames(&bytes), Some(1));
    let decompressed = pzstd(&["-q", "-d", "-c", path]);
    assert!(decompressed.status.success());
    let dir = temp_dir("sample");
    let plain = dir.join("sample.pgn");
    fs::write(&plain, &decompressed.stdout).unwrap();
    let (ours, code) = json_records(&[path]);
    assert_eq!(code, Some(0));
    let (games, summary) = games_and_summary(ours);
    let (expected, plain_summary) = games_and_summary(json_records(&[plain.to_str().unwrap()]).0);
    assert_eq!(games, expected);
    assert_eq!(summary["games"], 75);
    assert_eq!(summary["plies"], plain_summary["plies"]);
    assert_eq!(summary["complete"], true);
}

/// Bytes after the last complete frame (a tape's zero padding, junk) keep
/// every game before them, are reported once with their offset, and exit 0; a second
/// frame that starts but breaks is still an error (exit 2).
#[test]
fn trailing_bytes_keep_every_game() {
    let dir = temp_dir("trailing");
    let sample = fs::read("samples/cutechess_zh_2019_CrazyAra-vs-Stockfish.pgn").unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&sample).unwrap();
    let gz = gz.finish().unwrap();
    let zst = zstd::encode_all(&sample[..], 3).unwrap();
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    bz.write_all(&sample).unwrap();
    let bz = bz.finish().unwrap();
    let plain = dir.join("plain.pgn");
    fs::write(&plain, &sample).unwrap();
    let (expected, _) = games_and_summary(json_records(&[plain.to_str().unwrap()]).0);
    assert_eq!(expected.len(), 100);
    let cases: [(&str, &[u8], &[u8], bool); 3] = [
        ("padded.pgn.gz", &gz, &[0; 10_240], true),
        ("junk.pgn.zst", &zst, b"<html>not found</html>\n", false),
        ("junk.pgn.bz2", &bz, b"\x00\x01\x02", false),
    ];
    for (name, stream, tail, zeros) in cases {
        let path = dir.join(name);
        fs::write(&path, [stream, tail].concat()).unwrap();
        let (records, code) = json_records(&["-j", "2", path.to_str().unwrap()]);
        assert_eq!(code, Some(0), "{name}");
        let (games, summary) = games_and_summary(records);
        assert_eq!(games, expected, "{name}: every game, the last one too");
        assert_eq!(summary["complete"], true, "{name}");
        assert_eq!(
            summary["trailing_bytes"],
            serde_json::json!({"offset": stream.len(), "length": tail.len(), "zero_padding": zeros}),
            "{name}"
        );
        let text = cmd(&["validate", "-q", path.to_str().unwrap()])
            .output()
            .unwrap();
        let stderr = String::from_utf8(text.stderr).unwrap();
        assert_eq!(stderr.matches("trailing byte").count(), 1, "{stderr}");
        assert!(
            stderr.contains(&format!("(from byte {})", stream.len())),
            "{stderr}"
        );
    }
    // A second member that starts and is cut: the first member's games, then exit 2.
    let path = dir.join("broken.pgn.gz");
    fs::write(&path, [&gz[..], &gz[..gz.len() / 2]].concat()).unwrap();
    let (records, code) = json_records(&[path.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    let (games, summary) = games_and_summary(records);
    assert!(games.len() >= 100, "{}", games.len());
    assert_eq!(&games[..100], &expected[..]);
    assert_eq!(summary["complete"], false);
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
    let dir = temp_dir("castling");
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
    let dir = temp_dir("uci");
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
            pocketfen::game::Target::Lichess,
            pocketfen::notation::san::DropStyle::Letter,
            &Options::default(),
        ) else {
            panic!("{marker} does not convert");
        };
        assert!(text.contains(&format!("[Result \"{result}\"]")), "{text}");
        assert!(text.ends_with(&format!("e5 {result}\n\n")), "{text}");
    }
}

/// A game as (number, first line, status, problems as (line, column, kind)).
type GameSaid = (usize, usize, Status, Vec<(usize, usize, String)>);

/// In the library: a BOM between games and tokens, lone CRs and a blank
/// line in the tag section give the games the plain file gives, at the same lines.
#[test]
fn boms_lone_crs_and_blank_tag_lines_change_nothing() {
    let text = fs::read_to_string("grammar-tests/pgn/err/three-games-middle-bad.pgn").unwrap();
    let reports = |t: &str| -> Vec<GameSaid> {
        let strict = Options {
            strict: true,
            ..Options::default()
        };
        pocketfen::game::validate_str(t, &strict)
            .into_iter()
            .map(|r| {
                let p = r
                    .problems
                    .iter()
                    .map(|p| (p.line, p.column, p.kind.name().to_owned()))
                    .collect();
                (r.number, r.line, r.status, p)
            })
            .collect()
    };
    let expected = reports(&text);
    assert_eq!(expected.len(), 3);
    assert!(expected.iter().any(|g| !g.3.is_empty()));
    let without_columns = |games: Vec<GameSaid>| -> Vec<GameSaid> {
        games
            .into_iter()
            .map(|(n, l, s, p)| (n, l, s, p.into_iter().map(|(l, _, k)| (l, 0, k)).collect()))
            .collect()
    };
    // A BOM is a character: the columns after one on its line move by one.
    let bom = text
        .replace("\n[Event", "\n\u{feff}[Event")
        .replace(" 2.", "\u{feff} 2.");
    assert_ne!(bom, text);
    assert_eq!(
        without_columns(reports(&bom)),
        without_columns(expected.clone())
    );
    assert_eq!(reports(&text.replace('\n', "\r")), expected);
    assert_eq!(reports(&text.replace('\n', "\r\n")), expected);
    // A blank line between two tags of each game: the same games, each with a
    // blank-line-in-tags warning under --strict, the lines after it one further down.
    let blank = text.replace("\"]\n[Result", "\"]\n\n[Result");
    assert_ne!(blank, text);
    let games = reports(&blank);
    assert_eq!(games.len(), 3);
    for (got, want) in games.iter().zip(&expected) {
        assert_eq!((got.0, got.2), (want.0, want.2));
        let kinds: Vec<&str> = got.3.iter().map(|p| p.2.as_str()).collect();
        let mut wanted: Vec<&str> = want.3.iter().map(|p| p.2.as_str()).collect();
        wanted.insert(0, "blank-line-in-tags");
        assert_eq!(kinds, wanted);
    }
}

/// Files that other programs wrote (`grammar-tests/pgn/real`, provenance in its
/// SOURCES.md) validate without error; what is said of each is snapshotted.
#[test]
fn real_files_of_other_programs_validate() {
    let mut s = settings();
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

// Archives at database scale.

/// A real compression tool of Debian's (`.ci/run` installs them), run on `args`.
fn tool(name: &str, args: &[&str]) -> std::process::Output {
    let out = Command::new(name)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{name} is needed for this test (`.ci/run` installs it): {e}"));
    assert!(out.status.success(), "{name} {args:?}: {out:?}");
    out
}

/// Some megabytes of standard and crazyhouse games, different from one copy to the next
/// (an Event tag numbers them), so that every compressor makes many frames of them.
fn games_text(copies: usize) -> Vec<u8> {
    let parts = [
        fs::read("samples/lichess_standard_2025-05_sample438.pgn").unwrap(),
        fs::read("samples/cutechess_zh_2019_CrazyAra-vs-Stockfish.pgn").unwrap(),
    ];
    let mut text = Vec::new();
    for i in 0..copies {
        for p in &parts {
            text.extend_from_slice(format!("[Event \"copy {i}\"]\n").as_bytes());
            text.extend_from_slice(p);
            text.extend_from_slice(b"\n\n");
        }
    }
    text
}

/// The plain file compressed by the real pbzip2 (streams of 100 kB) and pzstd, and as
/// BGZF by `pgn convert`: each whole, with junk after its frames, and cut short.
fn framed_cases(dir: &std::path::Path, plain: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let p = plain.to_str().unwrap();
    let bz2 = tool("pbzip2", &["-c", "-1", "-b1", "-p2", p]).stdout;
    assert!(
        memchr::memmem::find_iter(&bz2, b"BZh1").count() >= 10,
        "pbzip2 wrote few streams"
    );
    let zst = tool("pzstd", &["-q", "-c", "-1", "-p", "2", p]).stdout;
    let bgzf_path = dir.join("games-bgzf.pgn.gz");
    let out = cmd(&[
        "pgn",
        "convert",
        "-q",
        "--to",
        "lichess",
        "-o",
        bgzf_path.to_str().unwrap(),
        p,
    ])
    .output()
    .unwrap();
    assert!(out.status.success(), "{out:?}");
    let bgzf = fs::read(&bgzf_path).unwrap();
    [("bz2", bz2), ("zst", zst), ("bgzf.gz", bgzf)]
        .iter()
        .flat_map(|(name, bytes)| damaged_cases(name, bytes))
        .collect()
}

/// A compressed file whole, with junk after its frames, and cut short.
fn damaged_cases(name: &str, bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    vec![
        (format!("whole.{name}"), bytes.to_vec()),
        (
            format!("junk.{name}"),
            [bytes, b"\0\0\0junk after the frames"].concat(),
        ),
        (format!("cut.{name}"), bytes[..bytes.len() * 2 / 3].to_vec()),
    ]
}

/// JSON Lines without the summaries' time.
fn untimed(out: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("seconds");
            v.to_string()
        })
        .collect()
}

/// Archives compressed by the real pbzip2 (one stream per block), pzstd
/// (frames after skippable frames), gzip (one member) and as BGZF (`pgn convert -o
/// x.gz`), whole, with trailing junk, or cut short, give with three jobs (the frames
/// decoded side by side) exactly the records of one.
#[test]
fn parallel_decoding_gives_the_records_of_one_thread() {
    let dir = temp_dir("parallel");
    let plain = dir.join("games.pgn");
    fs::write(&plain, games_text(3)).unwrap();
    let p = plain.to_str().unwrap();
    let gz = tool("gzip", &["-c", "-1", p]).stdout;
    let mut cases = framed_cases(&dir, &plain);
    cases.extend(damaged_cases("gz", &gz));
    for (name, bytes) in &cases {
        let path = dir.join(format!("games-{name}"));
        fs::write(&path, bytes).unwrap();
        let path = path.to_str().unwrap();
        let (one, code_one) = json_records(&["-j", "1", path]);
        let (three, code_three) = json_records(&["-j", "3", path]);
        let (one, three) = (games_and_summary(one), games_and_summary(three));
        assert_eq!(code_one, code_three, "{name}");
        assert!(
            one == three,
            "{name}: -j 3 read {} games, -j 1 {}",
            three.0.len(),
            one.0.len()
        );
        let summary = &one.1;
        match name.split('.').next() {
            Some("whole") => assert_eq!(
                (code_one, summary["complete"].clone()),
                (Some(0), true.into()),
                "{name}"
            ),
            Some("junk") => assert_eq!(summary["trailing_bytes"]["length"], 24, "{name}"),
            _ => assert_eq!(
                (code_one, summary["complete"].clone()),
                (Some(2), false.into()),
                "{name}"
            ),
        }
    }
}

/// `pgn convert -o FILE.zst|.gz|.bz2` compresses by the extension, in frames
/// the real tools read back (pzstd's layout for zstd), at the level asked for; a level
/// out of range, or one for plain output, is refused.
#[test]
fn pgn_convert_writes_compressed_frames() {
    let dir = temp_dir("packed");
    let plain = dir.join("games.pgn");
    fs::write(&plain, games_text(12)).unwrap();
    let p = plain.to_str().unwrap();
    let expected = cmd(&["pgn", "convert", "-q", "--to", "chesscom", "-j", "2", p])
        .output()
        .unwrap();
    assert!(expected.status.success());
    assert!(expected.stdout.len() > 2 * pocketfen::stream::ZSTD_INPUT);
    let mut sizes = Vec::new();
    for (ext, level, decoder) in [
        ("zst", "1", ["pzstd", "-q", "-d", "-c"]),
        ("zst", "19", ["pzstd", "-q", "-d", "-c"]),
        ("gz", "6", ["gzip", "-d", "-c", "-q"]),
        ("bz2", "9", ["bzip2", "-d", "-c", "-q"]),
    ] {
        let out_path = dir.join(format!("out-{level}.pgn.{ext}"));
        let o = out_path.to_str().unwrap();
        let run = cmd(&[
            "pgn", "convert", "-q", "--to", "chesscom", "-j", "2", "--level", level, "-o", o, p,
        ])
        .output()
        .unwrap();
        assert!(run.status.success(), "{ext}: {run:?}");
        let bytes = fs::read(&out_path).unwrap();
        if ext == "zst" {
            let frames = pzstd_frames(&bytes).expect("pzstd's layout");
            assert!(frames >= 3, "{frames} frames");
            sizes.push(bytes.len());
        }
        let mut args: Vec<&str> = decoder[1..].to_vec();
        args.push(o);
        let back = tool(decoder[0], &args).stdout;
        assert!(
            back == expected.stdout,
            "{ext} at level {level} does not read back"
        );
    }
    assert!(
        sizes[1] < sizes[0],
        "level 19 compresses more than level 1: {sizes:?}"
    );
    for (args, says) in [
        (
            vec!["--level", "30", "-o", "x.pgn.zst"],
            "zstd takes levels 1 to 22, not 30",
        ),
        (
            vec!["--level", "0", "-o", "x.pgn.bz2"],
            "bzip2 takes levels 1 to 9, not 0",
        ),
        (vec!["--level", "3"], "--level 3 compresses nothing"),
    ] {
        let mut all = vec!["pgn", "convert", "-q", "--to", "lichess"];
        all.extend(args);
        all.push(p);
        let out = cmd(&all).current_dir(&dir).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{all:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{all:?}: {err}");
        assert!(!dir.join("x.pgn.zst").exists() && !dir.join("x.pgn.bz2").exists());
    }
}

/// Runs pocketfen with `args`, returning stdout, stderr and the exit code.
fn run_out(args: &[&str]) -> (Vec<u8>, String, Option<i32>) {
    let out = cmd(args).output().unwrap();
    (
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

/// `--split K/N` on files the real tools wrote (pbzip2's streams, pzstd's
/// frames, BGZF blocks; whole, with trailing junk and cut short) and on plain text:
/// `pocketfen merge` of the parts' `--json` is byte for byte what one run writes (but
/// for the time), its `--text` is `validate`'s text, and one-stream files are refused.
#[test]
fn split_parts_merge_to_one_run() {
    let dir = temp_dir("split");
    let plain = dir.join("games.pgn");
    fs::write(&plain, games_text(8)).unwrap();
    let p = plain.to_str().unwrap();
    let mut cases = vec![("plain.pgn".to_owned(), fs::read(&plain).unwrap())];
    cases.extend(framed_cases(&dir, &plain));
    let zst = &cases.iter().find(|(n, _)| n == "whole.zst").unwrap().1;
    assert!(pzstd_frames(zst) >= Some(3), "pzstd wrote few frames");
    for (name, bytes) in &cases {
        let path = dir.join(format!("games-{name}"));
        fs::write(&path, bytes).unwrap();
        let path = path.to_str().unwrap();
        let (whole, _, code) = run_out(&["validate", "-q", "--json", "--all", "-j", "2", path]);
        let (text, text_err, _) = run_out(&["validate", "--all", "-j", "1", path]);
        let n = 4;
        let mut parts = Vec::new();
        for k in 1..=n {
            let split = format!("{k}/{n}");
            let (out, err, _) = run_out(&[
                "validate", "-q", "--json", "--all", "-j", "2", "--split", &split, path,
            ]);
            let part = dir.join(format!("part-{name}-{k}.jsonl"));
            fs::write(&part, &out).unwrap();
            assert!(!out.is_empty(), "{name} part {k}: {err}");
            parts.push(part.to_str().unwrap().to_owned());
        }
        let mut args = vec!["merge"];
        args.extend(parts.iter().map(String::as_str));
        let (merged, err, merged_code) = run_out(&args);
        assert_eq!(merged_code, code, "{name}: {err}");
        assert!(
            untimed(&merged) == untimed(&whole),
            "{name}: merged records differ"
        );
        // The text form: validate's stdout, and its summary on stderr (but the time).
        args.push("--text");
        let (merged_text, merged_err, _) = run_out(&args);
        assert_eq!(
            String::from_utf8_lossy(&merged_text),
            String::from_utf8_lossy(&text),
            "{name}"
        );
        let counts = |s: &str| {
            s.lines()
                .map(|l| l.split(';').next().unwrap().to_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(counts(&merged_err), counts(&text_err), "{name}");
    }
    // Files of one stream cannot be split, and say how to make one that can.
    let single_zst = tool("zstd", &["-q", "-c", "-3", p]).stdout;
    let gz = tool("gzip", &["-c", "-1", p]).stdout;
    for (name, bytes, what) in [
        ("one.zst", &single_zst, "one zstd frame"),
        ("one.gz", &gz, "one gzip stream"),
    ] {
        let path = dir.join(name);
        fs::write(&path, bytes).unwrap();
        let (out, err, code) = run_out(&[
            "validate",
            "-q",
            "--json",
            "--split",
            "2/3",
            path.to_str().unwrap(),
        ]);
        assert_eq!(code, Some(2), "{name}: {err}");
        assert!(
            err.contains(&format!("cannot split it: it is {what}")) && err.contains("pzstd -3"),
            "{name}: {err}"
        );
        let part = dir.join(format!("refused-{name}.jsonl"));
        fs::write(&part, &out).unwrap();
        let (_, err, code) = run_out(&["merge", part.to_str().unwrap()]);
        assert_eq!(code, Some(2));
        assert!(
            err.contains("the part could not be read: cannot split it"),
            "{err}"
        );
    }
    // Usage: a part out of range, stdin, several files.
    let (_, err, code) = run_out(&["validate", "--split", "5/4", p]);
    assert_eq!(code, Some(2));
    assert!(err.contains("there is no part 5 of 4"), "{err}");
    let (_, err, code) = run_out(&["validate", "--split", "1/4", "-"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("standard input can only be read from its start"),
        "{err}"
    );
    let (_, err, code) = run_out(&["validate", "--split", "1/4", p, p]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("reads a part of one file, and 2 are given"),
        "{err}"
    );
    // A file without a point where a game surely starts (old Mac line ends: no LF) is
    // all in part 1, and the other parts say why they have no games.
    let mac = dir.join("mac.pgn");
    fs::write(
        &mac,
        fs::read(&plain)
            .unwrap()
            .iter()
            .map(|&b| if b == b'\n' { b'\r' } else { b })
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    let m = mac.to_str().unwrap();
    let (_, err, code) = run_out(&["validate", "-q", "--json", "--split", "2/3", m]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("part 2/3: no game starts in this part"),
        "{err}"
    );
    let (out, _, _) = run_out(&["validate", "-q", "--json", "--split", "1/3", m]);
    let (whole, _, _) = run_out(&["validate", "-q", "--json", m]);
    let games = |out: &[u8]| {
        String::from_utf8_lossy(out)
            .lines()
            .last()
            .unwrap()
            .split("\"games\":")
            .nth(1)
            .unwrap()
            .split(',')
            .next()
            .unwrap()
            .to_owned()
    };
    assert_eq!(games(&out), games(&whole));
    // A part's output cut short (its run interrupted) has no summary.
    let cut = dir.join("cut-part.jsonl");
    let (out, _, _) = run_out(&["validate", "-q", "--json", "--all", "--split", "1/2", p]);
    fs::write(&cut, &out[..out.len() / 2]).unwrap();
    let (_, err, code) = run_out(&["merge", cut.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("cut-part.jsonl")
            && (err.contains("no summary record") || err.contains("not a JSON record")),
        "{err}"
    );
}

/// `pgn convert --split` parts, joined, are the whole conversion (its
/// output carries no numbers), and `replay --json --split` parts merge to one replay,
/// also in its text form.
#[test]
fn split_convert_and_replay() {
    let dir = temp_dir("split-convert");
    let plain = dir.join("games.pgn");
    fs::write(&plain, games_text(2)).unwrap();
    let p = plain.to_str().unwrap();
    let (whole, _, code) = run_out(&["pgn", "convert", "-q", "--to", "xboard", p]);
    assert_eq!(code, Some(0));
    let mut joined = Vec::new();
    for k in 1..=3 {
        let (out, _, code) = run_out(&[
            "pgn",
            "convert",
            "-q",
            "--to",
            "xboard",
            "--split",
            &format!("{k}/3"),
            p,
        ]);
        assert_eq!(code, Some(0));
        assert!(out.len() < whole.len());
        joined.extend_from_slice(&out);
    }
    assert_eq!(
        String::from_utf8_lossy(&joined),
        String::from_utf8_lossy(&whole)
    );
    let (replay_json, _, _) = run_out(&["replay", "--emit", "san", "--json", p]);
    let (replay_text, _, _) = run_out(&["replay", "--emit", "san", p]);
    let mut parts = Vec::new();
    for k in 1..=3 {
        let (out, _, _) = run_out(&[
            "replay",
            "--emit",
            "san",
            "--json",
            "--split",
            &format!("{k}/3"),
            p,
        ]);
        let part = dir.join(format!("replay-{k}.jsonl"));
        fs::write(&part, &out).unwrap();
        parts.push(part.to_str().unwrap().to_owned());
    }
    let mut args = vec!["merge"];
    args.extend(parts.iter().map(String::as_str));
    let (merged, err, code) = run_out(&args);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(untimed(&merged), untimed(&replay_json));
    args.push("--text");
    let (text, _, _) = run_out(&args);
    assert_eq!(
        String::from_utf8_lossy(&text),
        String::from_utf8_lossy(&replay_text)
    );
}

/// `merge` reads each part once and puts the parts in order itself: twelve parts named as a shell sorts them (`part-10` before `part-2`), and the
/// same parts through pipes (`<(…)`, which could not be read twice: every game record was
/// dropped), merge to one run's records.
#[test]
fn merge_takes_parts_in_any_order_and_from_pipes() {
    let dir = temp_dir("merge-order");
    let plain = dir.join("games.pgn");
    fs::write(&plain, games_text(4)).unwrap();
    let p = plain.to_str().unwrap();
    let (whole, _, code) = run_out(&["validate", "-q", "--json", "--all", "-j", "1", p]);
    let mut parts = Vec::new();
    for k in 1..=12 {
        let split = format!("{k}/12");
        let (out, err, _) = run_out(&[
            "validate", "-q", "--json", "--all", "-j", "1", "--split", &split, p,
        ]);
        assert!(!out.is_empty(), "part {k}: {err}");
        let part = dir.join(format!("part-{k}.jsonl"));
        fs::write(&part, &out).unwrap();
        parts.push(part.to_str().unwrap().to_owned());
    }
    // As `part-*.jsonl` expands.
    let mut sorted = parts.clone();
    sorted.sort();
    assert_ne!(sorted, parts);
    let mut args = vec!["merge"];
    args.extend(sorted.iter().map(String::as_str));
    let (merged, err, merged_code) = run_out(&args);
    assert_eq!(merged_code, code, "{err}");
    assert!(untimed(&merged) == untimed(&whole), "merged records differ");
    // Through pipes.
    let script = format!(
        "exec \"$0\" merge {}",
        sorted
            .iter()
            .map(|p| format!("<(cat '{p}')"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let out = Command::new("bash")
        .args(["-c", &script, get_cargo_bin("pocketfen").to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), code, "{err}");
    assert!(
        untimed(&out.stdout) == untimed(&whole),
        "merged from pipes: {} records against {}",
        untimed(&out.stdout).len(),
        untimed(&whole).len()
    );
    // A part given twice, and one missing, are named.
    let mut twice = vec!["merge"];
    twice.extend(parts.iter().map(String::as_str));
    twice[3] = parts[1].as_str();
    let (out, err, code) = run_out(&twice);
    assert_eq!((out.is_empty(), code), (true, Some(2)), "{err}");
    assert!(
        err.contains("part-2.jsonl: it is part 2, as part 2 given is: each part once"),
        "{err}"
    );
    twice.remove(3);
    let (_, err, _) = run_out(&twice);
    assert!(err.contains("(missing: 3)"), "{err}");
    fs::remove_dir_all(&dir).unwrap();
}

/// A tag line whose value holds unescaped quotes (`[White ""Socrates Expert""]`, as
/// Lichess's study exports write names in quotes) is a located `malformed-tag` warning
/// of the tag section: the movetext is still replayed (it was an illegal game at ply 1),
/// and `pgn convert` writes the value escaped.
#[test]
fn a_tag_value_with_unescaped_quotes_is_read_with_a_warning() {
    let dir = temp_dir("malformed-tag");
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

/// The binary-file check judges the same first 4 KiB however the decoder hands them out
///: a zstd file whose first frame is 22 bytes of PGN and the rest binary
/// was validated with `-j 1` and refused as binary with `-j 4`; now every `-j` refuses
/// it, and a text file made of many tiny frames is read by every `-j`.
#[test]
fn the_binary_check_is_the_same_for_every_job_count() {
    let dir = temp_dir("binary-check");
    let mut bytes = zstd::encode_all(&b"[Event \"x\"]\n\n1. e4 *\n"[..], 3).unwrap();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let noise: Vec<u8> = (0..64 * 1024)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    for chunk in noise.chunks(8192) {
        bytes.extend(zstd::encode_all(chunk, 3).unwrap());
    }
    let binary = dir.join("binary.pgn.zst");
    fs::write(&binary, &bytes).unwrap();
    let mut tiny = Vec::new();
    for i in 0..400 {
        let game = format!("[Event \"{i}\"]\n\n1. e4 *\n\n");
        tiny.extend(zstd::encode_all(game.as_bytes(), 3).unwrap());
    }
    let text = dir.join("tiny-frames.pgn.zst");
    fs::write(&text, &tiny).unwrap();
    for jobs in ["1", "2", "4"] {
        let (_, err, code) = run_out(&["validate", "-j", jobs, binary.to_str().unwrap()]);
        assert_eq!(code, Some(2), "-j {jobs}: {err}");
        assert!(
            err.contains("a binary file, not PGN text"),
            "-j {jobs}: {err}"
        );
        let (_, err, code) = run_out(&["validate", "-j", jobs, text.to_str().unwrap()]);
        assert_eq!(code, Some(0), "-j {jobs}: {err}");
        assert!(err.contains("400 games"), "-j {jobs}: {err}");
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// Archives of different formats joined with `cat` (`cat a.pgn.gz b.pgn.zst`) are read
/// whole, as concatenated archives of one format are, by every `-j`: the
/// zstd frame after gzip members was taken for trailing bytes, its illegal game never
/// checked (exit 0).
#[test]
fn concatenated_archives_of_different_formats_are_read_whole() {
    let dir = temp_dir("mixed-formats");
    let good = "[Event \"a\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n".repeat(50);
    let bad = "[Event \"b\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n";
    let gz = |text: &str| {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(text.as_bytes()).unwrap();
        e.finish().unwrap()
    };
    let zst = |text: &str| zstd::encode_all(text.as_bytes(), 3).unwrap();
    let bz2 = |text: &str| {
        let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
        e.write_all(text.as_bytes()).unwrap();
        e.finish().unwrap()
    };
    let cases = [
        ("gz-zst.pgn.gz", [gz(&good), zst(bad), bz2(&good)].concat()),
        (
            "zst-bz2.pgn.zst",
            [zst(&good), bz2(bad), gz(&good)].concat(),
        ),
        ("bz2-gz.pgn.bz2", [bz2(&good), gz(bad), zst(&good)].concat()),
    ];
    for (name, bytes) in cases {
        let path = dir.join(name);
        fs::write(&path, bytes).unwrap();
        for jobs in ["1", "4"] {
            let (out, err, code) = run_out(&[
                "validate",
                "--json",
                "-q",
                "-j",
                jobs,
                path.to_str().unwrap(),
            ]);
            assert_eq!(code, Some(1), "{name} -j {jobs}: {err}");
            let summary: serde_json::Value =
                serde_json::from_str(String::from_utf8(out).unwrap().lines().last().unwrap())
                    .unwrap();
            assert_eq!(summary["games"], 101, "{name} -j {jobs}");
            assert_eq!(summary["illegal_games"], 1, "{name} -j {jobs}");
            assert_eq!(summary["complete"], true, "{name} -j {jobs}");
            assert!(summary.get("trailing_bytes").is_none(), "{name} -j {jobs}");
        }
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// The share of a file a progress line shows follows the work done, not the compressed
/// bytes the parallel decoder has read ahead (once "56 %, ETA 0 s" at 8 % of the work on
/// a pzstd file): at every report, the share of the file is within a few
/// percent of the share of the text split so far.
#[test]
fn progress_follows_the_work_not_the_read_ahead() {
    use pocketfen::run::{Progress, Run, RunOptions, Task};
    use pocketfen::stream::Source;
    use std::sync::{Arc, Mutex};
    let dir = temp_dir("progress-share");
    let plain = dir.join("games.pgn");
    let text = games_text(16);
    fs::write(&plain, &text).unwrap();
    let zst = tool(
        "pzstd",
        &["-q", "-c", "-1", "-p", "2", plain.to_str().unwrap()],
    )
    .stdout;
    let path = dir.join("games.pgn.zst");
    fs::write(&path, &zst).unwrap();
    for jobs in [1, 4] {
        let seen: Arc<Mutex<Vec<Progress>>> = Arc::default();
        let log = Arc::clone(&seen);
        let opts = RunOptions {
            jobs,
            progress: Some(Arc::new(move |p| log.lock().unwrap().push(p))),
            ..RunOptions::default()
        };
        let records = Run::new(
            vec![Source::path(&path)],
            Task::Validate { all: false },
            opts,
        )
        .count();
        assert!(records > 0);
        let seen = seen.lock().unwrap();
        assert!(seen.len() > 100, "-j {jobs}: {} reports", seen.len());
        let mut worst = 0.0f64;
        for p in seen.iter() {
            let (read, size) = p.file_bytes.expect("a file's size");
            let file_share = read as f64 / size as f64;
            let work_share = p.bytes as f64 / text.len() as f64;
            worst = worst.max(file_share - work_share);
        }
        assert!(
            worst < 0.05,
            "-j {jobs}: the file's share ran {:.0} % ahead of the work",
            worst * 100.0
        );
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// A part's text output says which part its lines count in: `FILE (part
/// 3/3):LINE`, as its lines and games count from the part's start; a one-frame file too
/// small to be worth splitting says so, with a recompression that makes frames; a part
/// of a compressed file in which no game starts is explained by its frames.
#[test]
fn split_parts_say_where_their_lines_count() {
    let dir = temp_dir("split-lines");
    let plain = dir.join("games.pgn");
    let illegal = fs::read_to_string("grammar-tests/pgn/err/illegal-drop.pgn").unwrap();
    let mut text = String::from_utf8(games_text(1)).unwrap();
    text.push_str(&illegal);
    fs::write(&plain, &text).unwrap();
    let p = plain.to_str().unwrap();
    let (out, _, _) = run_out(&["validate", "--split", "3/3", p]);
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.starts_with(&format!("{p} (part 3/3):")) && out.contains("not-in-pocket"),
        "{out}"
    );
    // The whole file's line, which merge gives, is the part's plus the lines before it.
    let (whole, _, _) = run_out(&["validate", p]);
    let line_of = |s: &str| -> usize { s.split(':').nth(1).unwrap().parse().unwrap() };
    let whole = String::from_utf8(whole).unwrap();
    let part_line = line_of(&out.replace(" (part 3/3)", ""));
    assert!(line_of(&whole) > part_line);
    // One frame, and small: read it whole; how to make frames.
    let one = dir.join("one.pgn.zst");
    fs::write(&one, zstd::encode_all(text.as_bytes(), 3).unwrap()).unwrap();
    let (_, err, code) = run_out(&["validate", "--split", "2/3", one.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("is read whole in moments: read it without --split")
            && err.contains("pzstd -3"),
        "{err}"
    );
    // Frames larger than the parts leave parts empty, and the note says so.
    let big = dir.join("big.pgn");
    fs::write(&big, games_text(12)).unwrap();
    let zst = tool(
        "pzstd",
        &["-q", "-c", "-1", "-p", "2", big.to_str().unwrap()],
    )
    .stdout;
    let framed = dir.join("framed.pgn.zst");
    fs::write(&framed, &zst).unwrap();
    let mut noted = 0;
    for k in 1..=40 {
        let split = format!("{k}/40");
        let (_, err, _) = run_out(&["validate", "--split", &split, framed.to_str().unwrap()]);
        if err.contains("no game starts in this part") {
            assert!(err.contains("zstd frames that start in its bytes"), "{err}");
            noted += 1;
        }
    }
    assert!(noted > 0, "no empty part among 40");
    fs::remove_dir_all(&dir).unwrap();
}
