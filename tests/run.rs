//! Whole archives: the corpus validates, the records are the same for any number of
//! jobs, text and JSON output, and parts of a file (`--split K/N`) merged into one run's
//! records (property tests over random archives, plain and framed).

mod common;

use common::{
    cmd, framed_cases, games_text, pzstd_frames, run_out, scratch_dir, tool, without_timings,
};
use insta_cmd::{assert_cmd_snapshot, get_cargo_bin};
use pocketfen::game::{Options, Status, validate_game};
use pocketfen::stream::GameSplitter;
use std::fs;
use std::io::Write;
use std::process::Command;

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
    let mut s = common::snapshot_settings();
    without_timings(&mut s);
    let dir = scratch_dir("compressed-replay");
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
                "chess",
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

/// The guard against tests sharing a folder: a name asked for twice panics (a shared
/// folder, emptied by one test while another read from it, made the damaged-archive test
/// below fail now and then).
#[test]
#[should_panic(expected = "two tests ask for the scratch folder `asked-twice`")]
fn a_scratch_folder_is_handed_out_once() {
    let first = scratch_dir("asked-twice");
    assert!(first.is_dir());
    scratch_dir("asked-twice");
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

/// `--split K/N` on files the real tools wrote (pbzip2's streams, pzstd's
/// frames, BGZF blocks; whole, with trailing junk and cut short) and on plain text:
/// `pocketfen merge` of the parts' `--json` is byte for byte what one run writes (but
/// for the time), its `--text` is `validate`'s text, and one-stream files are refused.
#[test]
fn split_parts_merge_to_one_run() {
    let dir = scratch_dir("split");
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
    // A file without a point where a game surely starts (no blank line after a game's
    // movetext) is all in part 1, and the other parts say why they have no games.
    let unspaced = dir.join("unspaced.pgn");
    let mut bytes = fs::read(&plain).unwrap();
    bytes.dedup_by(|b, a| *a == b'\n' && *b == b'\n');
    fs::write(&unspaced, bytes).unwrap();
    let u = unspaced.to_str().unwrap();
    let (_, err, code) = run_out(&["validate", "-q", "--json", "--split", "2/3", u]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("part 2/3: no game starts in this part"),
        "{err}"
    );
    let games = |out: &[u8]| -> u64 {
        let last = String::from_utf8_lossy(out)
            .lines()
            .last()
            .unwrap()
            .to_owned();
        serde_json::from_str::<serde_json::Value>(&last).unwrap()["games"]
            .as_u64()
            .unwrap()
    };
    let (out, _, _) = run_out(&["validate", "-q", "--json", "--split", "1/3", u]);
    let (whole, _, _) = run_out(&["validate", "-q", "--json", u]);
    assert_eq!(games(&out), games(&whole));
    assert_eq!(
        games(&whole),
        games(&run_out(&["validate", "-q", "--json", p]).0)
    );
    // Old Mac line ends (a lone CR, no LF) are split like any other.
    let mac = dir.join("mac.pgn");
    let bytes = fs::read(&plain).unwrap();
    fs::write(
        &mac,
        bytes
            .iter()
            .map(|&b| if b == b'\n' { b'\r' } else { b })
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    let m = mac.to_str().unwrap();
    let parts: Vec<u64> = (1..=3)
        .map(|k| games(&run_out(&["validate", "-q", "--json", "--split", &format!("{k}/3"), m]).0))
        .collect();
    assert!(parts.iter().all(|&g| g > 0), "{parts:?}");
    assert_eq!(parts.iter().sum::<u64>(), games(&whole));
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
    let dir = scratch_dir("split-convert");
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

/// Chess.com's bughouse export wraps its comments at 80 columns, inside a command too
/// (`{[%clk⏎0:00:01.6]}`): every `[%clk]` of the real file reaches `replay --json` (as
/// the time the move took: Chess.com's bughouse clocks are per-move times), and
/// `validate --strict` finds none malformed (before, 8 of its 41 were lost so).
#[test]
fn clocks_wrapped_across_lines_are_read() {
    let sample = "grammar-tests/bpgn/ok/chesscom_bughouse_2022_bugchess-example.bpgn";
    let text = fs::read_to_string(sample).unwrap();
    let commands = text.matches("[%clk").count();
    assert!(
        text.contains("[%clk\n") || text.contains("[%clk\r\n"),
        "the sample wraps a command"
    );
    let (out, err, code) = run_out(&["replay", "--json", sample]);
    assert_eq!(code, Some(0), "{err}");
    let record: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out).lines().next().unwrap()).unwrap();
    let clocks = record["annotations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["elapsed"].is_number() && n["clock"].is_null())
        .count();
    assert_eq!(clocks, commands);
    let (_, err, _) = run_out(&["validate", "--strict", sample]);
    assert!(!err.contains("malformed-annotation"), "{err}");
}

/// `replay --json` carries each ply's annotations: on a real Lichess crazyhouse game with
/// an eval and a clock after every move, a second comment on some moves (the analysis's
/// words) and variations, each ply's clock and eval equal the `[%clk]` and `[%eval]` of
/// the text after its move (read here by plain string search), a ply without one is
/// null, variations lend nothing, and two comments on one move merge.
#[test]
fn replay_json_carries_each_plys_annotations() {
    let sample = "samples/lichess_zh_2018_JannLee-CrazyAra.pgn";
    let (out, err, code) = run_out(&["replay", "--json", "--emit", "uci", sample]);
    assert_eq!(code, Some(0), "{err}");
    let record: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out).lines().next().unwrap()).unwrap();
    let plies = record["plies"].as_array().unwrap();
    let notes = record["annotations"].as_array().unwrap();
    assert_eq!(notes.len(), plies.len());
    // The main line's comments, by string search: the text between `{` `}` outside
    // parentheses, after each move.
    let text = fs::read_to_string(sample).unwrap();
    let movetext = &text[text.find("\n\n").unwrap()..];
    let (mut depth, mut comment, mut in_comment) = (0, String::new(), false);
    let mut mainline_comments = Vec::new();
    for c in movetext.chars() {
        match (in_comment, c) {
            (false, '{') => {
                in_comment = true;
                comment.clear();
            }
            (true, '}') => {
                in_comment = false;
                if depth == 0 {
                    mainline_comments.push(comment.clone());
                }
            }
            (true, c) => comment.push(c),
            (false, '(') => depth += 1,
            (false, ')') => depth -= 1,
            _ => {}
        }
    }
    let value = |c: &str, cmd: &str| -> Option<String> {
        let at = c.find(&format!("[%{cmd} "))? + cmd.len() + 3;
        Some(c[at..at + c[at..].find(']').unwrap()].to_owned())
    };
    let clocks: Vec<f64> = mainline_comments
        .iter()
        .filter_map(|c| value(c, "clk"))
        .map(|t| {
            t.split(':')
                .fold(0.0, |s, f| s * 60.0 + f.parse::<f64>().unwrap())
        })
        .collect();
    let evals: Vec<i64> = mainline_comments
        .iter()
        .filter_map(|c| value(c, "eval"))
        .filter(|e| !e.starts_with('#'))
        .map(|e| (e.parse::<f64>().unwrap() * 100.0).round() as i64)
        .collect();
    assert_eq!(clocks.len(), plies.len(), "a clock after every move");
    let got_clocks: Vec<f64> = notes.iter().map(|n| n["clock"].as_f64().unwrap()).collect();
    assert_eq!(got_clocks, clocks);
    let got_evals: Vec<i64> = notes.iter().filter_map(|n| n["cp"].as_i64()).collect();
    assert_eq!(got_evals, evals);
    assert!(evals.len() > 20);

    // Hand-made: a ply without any is null, a variation's comment lends nothing, two
    // comments merge (the later eval wins, arrows add up), and an unread one is left out.
    let dir = scratch_dir("replay-annotations");
    let game = dir.join("g.pgn");
    fs::write(
        &game,
        "[Variant \"Crazyhouse\"]\n\n1. e4 { [%cal Ge2e4] [%eval 0.2] } { [%eval #-3,18] [%cal Rd7d5] [%csl Yd4] } \
         1... d5 (1... e5 { [%clk 0:01:00] }) 2. exd5 { [%clk 0:00:59.5] [%emt 0:00:01] [%clkc 1:00:00:00] [%eval x] } \
         2... Qxd5 3. P@e4 { [%eval -1.25] } *\n",
    )
    .unwrap();
    let (out, err, code) = run_out(&["replay", "--json", "--emit", "san", game.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let record: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out).lines().next().unwrap()).unwrap();
    assert_eq!(
        record["annotations"],
        serde_json::json!([
            {"mate": -3, "depth": 18, "arrows": ["Ge2e4", "Rd7d5"], "highlights": ["Yd4"]},
            null,
            {"clock": 59.5, "elapsed": 1.0, "correspondence_clock": 86400.0},
            null,
            {"cp": -125},
        ])
    );
    // Without annotations the record has no such list, and text output is unchanged.
    let (out, _, _) = run_out(&[
        "replay",
        "--json",
        "--emit",
        "san",
        "samples/cutechess_zh_2019_CrazyAra-vs-Stockfish.pgn",
    ]);
    let first: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out).lines().next().unwrap()).unwrap();
    assert!(first.get("annotations").is_none(), "{first}");
}

/// `merge` reads each part once and puts the parts in order itself: twelve parts named as a shell sorts them (`part-10` before `part-2`), and the
/// same parts through pipes (`<(…)`, which could not be read twice: every game record was
/// dropped), merge to one run's records.
#[test]
fn merge_takes_parts_in_any_order_and_from_pipes() {
    let dir = scratch_dir("merge-order");
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

/// The share of a file a progress line shows follows the work done, not the compressed
/// bytes the parallel decoder has read ahead (once "56 %, ETA 0 s" at 8 % of the work on
/// a pzstd file): at every report, the share of the file is within a few
/// percent of the share of the text split so far.
#[test]
fn progress_follows_the_work_not_the_read_ahead() {
    use pocketfen::run::{Progress, Run, RunOptions, Task};
    use pocketfen::stream::Source;
    use std::sync::{Arc, Mutex};
    let dir = scratch_dir("progress-share");
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
    let dir = scratch_dir("split-lines");
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

/// Game-aligned splits. For random archives (comments across lines, blank
/// lines and tag lines inside comments, tag-only games, `%` and `;` lines, CRLF and lone
/// CR, byte-order marks, illegal moves) and any number of parts, the parts' records
/// merged equal one run over the whole file, plain and in independent compressed
/// frames cut anywhere.
mod parts {
    use std::io::Write;
    use std::path::{Path, PathBuf};

    use pocketfen::run::merge::Merge;
    use pocketfen::run::record::{RunRecord, SummaryRecord};
    use pocketfen::run::{Run, RunOptions, Task};
    use pocketfen::stream::{Source, Split};
    use proptest::prelude::*;
    use serde_json::Value;

    use super::common::Rng;

    const MOVETEXT: &[&str] = &[
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *",
        "1. e4 e5 2. Ke3 *",
        "1. d4 d5 2. c4 dxc4 3. e3 b5 4. a4 c6 5. axb5 cxb5 6. Qf3 1-0",
        "1. e4 {a comment} d5 2. exd5 Qxd5 (2... Nf6) 3. Nc3 $1 Qa5 *",
        "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0",
        "1. e4 zz9 2. d4 *",
    ];

    const ZH: &[&str] = &[
        "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@b4 Qxb4 *",
        "1. e4 d5 2. exd5 Qxd5 3. Q@e4 *",
    ];

    /// One line end: LF, CRLF or a lone CR (old Mac files) throughout, or mostly LF,
    /// some CRLF, now and then a lone CR.
    fn eol(rng: &mut Rng, style: usize) -> &'static str {
        match style {
            0 => "\n",
            1 => "\r\n",
            3 => "\r",
            _ => match rng.below(20) {
                0 => "\r",
                1..=5 => "\r\n",
                _ => "\n",
            },
        }
    }

    /// A random archive of about `games` games.
    fn archive(rng: &mut Rng, games: usize) -> Vec<u8> {
        archive_in(rng, games, None)
    }

    /// [`archive`] with its line ends in `style` ([`eol`]'s), when given.
    fn archive_in(rng: &mut Rng, games: usize, style: Option<usize>) -> Vec<u8> {
        let style = style.unwrap_or_else(|| rng.below(3));
        let mut out = String::new();
        if rng.one_in(4) {
            out.push('\u{feff}');
        }
        for i in 0..games {
            let zh = rng.one_in(3);
            let blank_lines = rng.below(3);
            for _ in 0..blank_lines {
                if rng.one_in(5) {
                    out.push_str(" \t");
                }
                if rng.one_in(30) {
                    out.push('\u{feff}');
                }
                out.push_str(eol(rng, style));
            }
            if !rng.one_in(15) {
                if rng.one_in(25) {
                    // A byte-order mark before a tag line (files joined with `cat`).
                    out.push('\u{feff}');
                }
                out.push_str(&format!("[Event \"game {i}\"]"));
                if rng.one_in(20) {
                    // Not a tag: an error on the game's first line, located by its column.
                    out.push_str(" [Bad");
                }
                out.push_str(eol(rng, style));
                if zh {
                    out.push_str(&format!("[Variant \"Crazyhouse\"]{}", eol(rng, style)));
                }
                if rng.one_in(6) {
                    // A blank line inside the tag section.
                    out.push_str(eol(rng, style));
                    out.push_str(&format!("[Site \"s{i}\"]{}", eol(rng, style)));
                }
                if rng.one_in(8) {
                    out.push_str(&format!("% an escape line{}", eol(rng, style)));
                }
            }
            if rng.one_in(12) {
                // A tag-only game.
                out.push_str(eol(rng, style));
                continue;
            }
            out.push_str(eol(rng, style));
            if rng.one_in(10) {
                out.push_str(&format!("; a comment line{}", eol(rng, style)));
            }
            let text = if zh {
                ZH[rng.below(ZH.len())]
            } else {
                MOVETEXT[rng.below(MOVETEXT.len())]
            };
            let (head, tail) = text.split_at(text.find(' ').unwrap_or(0));
            out.push_str(head);
            if rng.one_in(6) {
                // A comment across lines, with a blank line and a tag line inside it (and
                // sometimes never closed).
                out.push_str(" {a long");
                out.push_str(eol(rng, style));
                out.push_str(eol(rng, style));
                out.push_str("[Event \"inside\"]");
                out.push_str(eol(rng, style));
                if !rng.one_in(4) {
                    out.push('}');
                }
            }
            for word in tail.split(' ') {
                out.push_str(if rng.one_in(8) { eol(rng, style) } else { " " });
                out.push_str(word);
            }
            if rng.one_in(20) {
                out.push_str(&" 1. e4".repeat(300));
            }
            // Files joined by `cat`, this one without its last line end: what follows
            // (the next game's tags, a byte-order mark, blank lines) goes on the line of
            // its result.
            if !rng.one_in(8) {
                out.push_str(eol(rng, style));
            }
        }
        out.into_bytes()
    }

    /// Cuts `text` at random places into independent frames of `kind` (0 zstd, 1 zstd in
    /// pzstd's layout, 2 bzip2).
    fn frames(rng: &mut Rng, text: &[u8], kind: usize) -> Vec<u8> {
        let mut out = Vec::new();
        let mut at = 0;
        while at < text.len() {
            let len = (1 + rng.below(text.len() / 3 + 1)).min(text.len() - at);
            let piece = &text[at..at + len];
            at += len;
            match kind {
                0 | 1 => {
                    let frame = zstd::encode_all(piece, 1).unwrap();
                    if kind == 1 {
                        out.extend_from_slice(&0x184d_2a50u32.to_le_bytes());
                        out.extend_from_slice(&4u32.to_le_bytes());
                        out.extend_from_slice(&(frame.len() as u32).to_le_bytes());
                    }
                    out.extend_from_slice(&frame);
                }
                _ => {
                    let mut e =
                        bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::new(1));
                    e.write_all(piece).unwrap();
                    out.extend_from_slice(&e.finish().unwrap());
                }
            }
        }
        out
    }

    /// The records of a run, as JSON, without the total and the summary's time.
    fn run(path: &Path, split: Option<Split>, jobs: usize) -> Vec<Value> {
        run_max(path, split, jobs, pocketfen::stream::DEFAULT_MAX_GAME_BYTES)
    }

    /// [`run`] with a game size limit.
    fn run_max(
        path: &Path,
        split: Option<Split>,
        jobs: usize,
        max_game_bytes: usize,
    ) -> Vec<Value> {
        records(path, split, jobs, max_game_bytes)
            .iter()
            .map(|r| serde_json::to_value(r).unwrap())
            .collect()
    }

    /// The records of a run, without the total.
    fn records(
        path: &Path,
        split: Option<Split>,
        jobs: usize,
        max_game_bytes: usize,
    ) -> Vec<RunRecord> {
        let opts = RunOptions {
            split,
            jobs,
            max_game_bytes,
            ..RunOptions::default()
        };
        Run::new(vec![Source::path(path)], Task::Validate { all: true }, opts)
            .filter(|r| !matches!(r, RunRecord::Total(_)))
            .collect()
    }

    /// The summary at the end of a run's records.
    fn summary_of(records: &[RunRecord]) -> SummaryRecord {
        match records.last() {
            Some(RunRecord::Summary(s)) => s.clone(),
            other => panic!("a run's records end in its summary, not {other:?}"),
        }
    }

    fn untimed(mut v: Value) -> Value {
        if let Some(o) = v.as_object_mut() {
            o.remove("seconds");
        }
        v
    }

    /// Parts 1..N merged, as `pocketfen merge` writes them.
    fn merged(path: &Path, n: usize, jobs: usize) -> Result<Vec<Value>, String> {
        merged_max(path, n, jobs, pocketfen::stream::DEFAULT_MAX_GAME_BYTES)
    }

    /// [`merged`] with a game size limit.
    fn merged_max(path: &Path, n: usize, jobs: usize, max: usize) -> Result<Vec<Value>, String> {
        let parts: Vec<Vec<RunRecord>> = (1..=n)
            .map(|k| records(path, Some(Split::new(k, n).unwrap()), jobs, max))
            .collect();
        let summaries: Vec<SummaryRecord> = parts.iter().map(|p| summary_of(p)).collect();
        let merge = Merge::new(&summaries).map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        for (k, part) in parts.into_iter().enumerate().take(merge.parts_used()) {
            for mut r in part {
                if matches!(r, RunRecord::Summary(_)) {
                    continue;
                }
                merge.renumber(k, &mut r);
                out.push(serde_json::to_value(&r).unwrap());
            }
        }
        out.push(serde_json::to_value(RunRecord::Summary(merge.summary().clone())).unwrap());
        Ok(out.into_iter().map(untimed).collect())
    }

    /// A file of this module's own scratch folder (the tests of the binary run side by
    /// side: a folder shared with another test may be emptied under this one).
    fn temp(name: &str, bytes: &[u8]) -> PathBuf {
        static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
        let path = DIR
            .get_or_init(|| crate::common::scratch_dir("parts"))
            .join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    fn check(path: &Path, n: usize, jobs: usize) -> Result<(), TestCaseError> {
        check_max(path, n, jobs, pocketfen::stream::DEFAULT_MAX_GAME_BYTES)
    }

    fn check_max(path: &Path, n: usize, jobs: usize, max: usize) -> Result<(), TestCaseError> {
        let whole: Vec<Value> = run_max(path, None, 1, max)
            .into_iter()
            .map(untimed)
            .collect();
        let merged = merged_max(path, n, jobs, max).map_err(TestCaseError::fail)?;
        prop_assert_eq!(
            merged.len(),
            whole.len(),
            "records of {} in {} parts",
            path.display(),
            n
        );
        for (m, w) in merged.iter().zip(&whole) {
            prop_assert_eq!(m, w, "{} in {} parts", path.display(), n);
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// Plain archives, any number of parts, one or two jobs.
        #[test]
        fn merging_the_parts_of_a_plain_archive_equals_one_run(
            seed in 1u64.., games in 1usize..120, n in 1usize..9, jobs in 1usize..3
        ) {
            let mut rng = Rng(seed);
            let text = archive(&mut rng, games);
            let path = temp(&format!("plain-{seed}.pgn"), &text);
            check(&path, n, jobs)?;
            std::fs::remove_file(path).unwrap();
        }

        /// Old Mac files, every line ended by a lone CR.
        #[test]
        fn merging_the_parts_of_a_lone_cr_archive_equals_one_run(
            seed in 1u64.., games in 1usize..120, n in 2usize..9
        ) {
            let mut rng = Rng(seed);
            let text = archive_in(&mut rng, games, Some(3));
            let path = temp(&format!("cr-{seed}.pgn"), &text);
            check(&path, n, 1)?;
            std::fs::remove_file(path).unwrap();
        }

        /// With a small game size limit, games over it are skipped the same way in the
        /// parts as in one run, wherever the parts' blocks fall.
        #[test]
        fn merging_parts_with_a_small_game_size_limit_equals_one_run(
            seed in 1u64.., games in 600usize..2000, n in 2usize..9, max in 150usize..3000
        ) {
            let mut rng = Rng(seed);
            let text = archive(&mut rng, games);
            let path = temp(&format!("limit-{seed}.pgn"), &text);
            check_max(&path, n, 1, max)?;
            std::fs::remove_file(path).unwrap();
        }

        /// Archives in independent zstd frames (with and without pzstd's skippable frames)
        /// and bzip2 streams, cut at random bytes, not at games.
        #[test]
        fn merging_the_parts_of_a_framed_archive_equals_one_run(
            seed in 1u64.., games in 20usize..120, n in 2usize..7, kind in 0usize..3
        ) {
            let mut rng = Rng(seed);
            let text = archive(&mut rng, games);
            let packed = frames(&mut rng, &text, kind);
            let ext = if kind == 2 { "bz2" } else { "zst" };
            let path = temp(&format!("framed-{seed}.pgn.{ext}"), &packed);
            check(&path, n, 1)?;
            std::fs::remove_file(path).unwrap();
        }
    }

    /// Parts that do not fit are refused, each with what does not match.
    #[test]
    fn parts_that_do_not_fit_are_refused() {
        let mut rng = Rng(7);
        let text = archive(&mut rng, 200);
        let a = temp("a.pgn", &text);
        let max = pocketfen::stream::DEFAULT_MAX_GAME_BYTES;
        let part =
            |path: &Path, k, n| summary_of(&records(path, Some(Split::new(k, n).unwrap()), 1, max));
        let err = |parts: &[SummaryRecord]| Merge::new(parts).unwrap_err().to_string();
        let (p1, p2, p3) = (part(&a, 1, 3), part(&a, 2, 3), part(&a, 3, 3));
        assert!(Merge::new(&[p1.clone(), p2.clone(), p3.clone()]).is_ok());
        // Given in any order, parts are taken in theirs (a shell puts `part-10` before
        // `part-2`); given twice, missing, from another split.
        let shuffled = Merge::new(&[p3.clone(), p1.clone(), p2.clone()]).unwrap();
        assert_eq!(shuffled.order(), [1, 2, 0]);
        let e = err(&[p2.clone(), p1.clone(), p2.clone()]);
        assert!(
            e.contains("part 3 given: it is part 2, as part 1 given is: each part once"),
            "{e}"
        );
        let e = err(&[p1.clone(), p3.clone()]);
        assert!(
            e.contains("split into 3 parts, and 2 are given (missing: 2)"),
            "{e}"
        );
        let e = err(&[p1.clone(), part(&a, 2, 4), p3.clone()]);
        assert!(e.contains("part 2 of 4, not of 3"), "{e}");
        // Another file.
        let b = temp("b.pgn", &text);
        let e = err(&[p1.clone(), part(&b, 2, 3), p3.clone()]);
        assert!(
            e.contains("b.pgn, not of") && e.contains("a.pgn (part 1)"),
            "{e}"
        );
        // The file changed between parts.
        let mut longer = text.clone();
        longer.extend_from_slice(b"\n[Event \"new\"]\n\n1. e4 *\n");
        std::fs::write(&a, &longer).unwrap();
        let e = err(&[p1.clone(), p2.clone(), part(&a, 3, 3)]);
        assert!(
            e.contains("part 3 given: the file changed between parts: its size is"),
            "{e}"
        );
        // Other options.
        std::fs::write(&a, &text).unwrap();
        let strict = {
            let mut opts = RunOptions {
                split: Some(Split::new(2, 3).unwrap()),
                jobs: 1,
                ..RunOptions::default()
            };
            opts.game.strict = true;
            let records: Vec<RunRecord> =
                Run::new(vec![Source::path(&a)], Task::Validate { all: true }, opts)
                    .filter(|r| !matches!(r, RunRecord::Total(_)))
                    .collect();
            summary_of(&records)
        };
        let e = err(&[part(&a, 1, 3), strict, part(&a, 3, 3)]);
        assert!(
            e.contains("part 2 given: it was read with other options"),
            "{e}"
        );
        // Counts no run writes (a summary edited by hand): refused, not summed round.
        for (field, n) in [("games", u64::MAX), ("plies", 1 << 60), ("illegal", 10_000)] {
            let mut edited = p2.clone();
            match field {
                "games" => edited.totals.games = n as usize,
                "plies" => edited.totals.plies = n,
                _ => edited.totals.illegal_games = n as usize,
            }
            let e = err(&[p1.clone(), edited, p3.clone()]);
            assert!(
                e.contains("part 2 given: its summary's counts are none a run writes"),
                "{field}: {e}"
            );
        }
        // Not a part at all, and a part out of range.
        let whole = summary_of(&records(&a, None, 1, max));
        assert!(err(&[whole]).contains("read whole, not as a part"));
        let e = Split::new(4, 3).unwrap_err();
        assert_eq!(
            (e.what, e.to_string().as_str()),
            (
                "part",
                "there is no part 4 of 3: parts are numbered 1 to N (K/N, 1 <= K <= N)"
            )
        );
        assert!("0/3".parse::<Split>().is_err() && "a/3".parse::<Split>().is_err());
    }

    /// The first record that differs between two runs' records, to tell what went
    /// another way.
    fn first_difference(a: &[Value], b: &[Value]) -> String {
        let at_record = a.iter().zip(b).position(|(x, y)| x != y);
        at_record.map_or_else(
            || format!("{} records against {}", a.len(), b.len()),
            |i| format!("record {i}: {} against {}", a[i], b[i]),
        )
    }

    /// A part that broke off (a stream error) ends the merge there, as one run would end.
    #[test]
    fn a_broken_stream_ends_the_merge_where_one_run_ends() {
        let mut rng = Rng(11);
        let text = archive(&mut rng, 300);
        let mut packed = frames(&mut rng, &text, 1);
        // Cut 40 bytes out of the middle of the file: a frame there breaks off.
        let at = packed.len() / 2;
        packed.drain(at..at + 40);
        let path = temp("broken.pgn.zst", &packed);
        let whole: Vec<Value> = run(&path, None, 1).into_iter().map(untimed).collect();
        let summary = whole.last().unwrap();
        assert_eq!(summary["complete"], false, "the damage is found: {summary}");
        let merged = merged(&path, 4, 1).unwrap();
        assert_eq!(merged.last().unwrap()["complete"], false);
        assert_eq!(merged.last().unwrap()["games"], summary["games"]);
        assert_eq!(merged, whole);
    }

    /// The bundled Lichess sample in pzstd's layout, in frames of `size` bytes of text:
    /// the file, and each zstd frame's offset (after its announcement) and size.
    fn announced_frames(size: usize) -> (Vec<u8>, Vec<(usize, usize)>) {
        let text = std::fs::read("samples/lichess_standard_2025-05_sample438.pgn").unwrap();
        announced_frames_of(&text, size)
    }

    /// [`announced_frames`] of `text`.
    fn announced_frames_of(text: &[u8], size: usize) -> (Vec<u8>, Vec<(usize, usize)>) {
        let mut packed = Vec::new();
        let mut frames = Vec::new();
        for piece in text.chunks(size) {
            let frame = zstd::encode_all(piece, 1).unwrap();
            packed.extend_from_slice(&0x184d_2a50u32.to_le_bytes());
            packed.extend_from_slice(&4u32.to_le_bytes());
            packed.extend_from_slice(&(frame.len() as u32).to_le_bytes());
            frames.push((packed.len(), frame.len()));
            packed.extend_from_slice(&frame);
        }
        (packed, frames)
    }

    /// Notes in `failures` where `-j 3`, or 2, 3 or 5 parts merged, differ from `one`, the
    /// records of one run of `path` (`what` names the case).
    fn same_as_one_run(path: &Path, one: &[Value], what: &str, failures: &mut Vec<String>) {
        let three: Vec<Value> = run(path, None, 3).into_iter().map(untimed).collect();
        if three != one {
            failures.push(format!(
                "{what}: -j 3 differs, {}",
                first_difference(one, &three)
            ));
        }
        for n in [2, 3, 5] {
            match merged(path, n, 1) {
                Ok(parts) if parts == one => {}
                Ok(parts) => failures.push(format!(
                    "{what}: {n} parts merged differ, {}",
                    first_difference(&parts, one)
                )),
                Err(e) => failures.push(format!("{what}: {n} parts do not merge: {e}")),
            }
        }
    }

    /// Old Mac files (every line ended by a lone CR) are read in parts and past a damaged
    /// frame as the same games with LF line ends are: each part finds its first game
    /// (part 1 read them all before), a damaged frame loses only its own games (the rest
    /// of the file before), and `-j` and parts give one run's records.
    #[test]
    fn lone_cr_archives_read_in_parts_and_past_damage_as_lf_ones() {
        let lf = std::fs::read("samples/lichess_standard_2025-05_sample438.pgn").unwrap();
        let cr: Vec<u8> = lf
            .iter()
            .map(|&b| if b == b'\n' { b'\r' } else { b })
            .collect();
        let per_part = |path: &Path| -> Vec<u64> {
            (1..=4)
                .map(|k| {
                    let part = run(path, Some(Split::new(k, 4).unwrap()), 1);
                    part.last().unwrap()["games"].as_u64().unwrap()
                })
                .collect()
        };
        let lf_path = temp("lf.pgn", &lf);
        let cr_path = temp("cr.pgn", &cr);
        let parts = per_part(&lf_path);
        assert!(parts.iter().all(|&g| g > 0), "{parts:?}");
        assert_eq!(per_part(&cr_path), parts);
        check(&cr_path, 4, 2).unwrap();
        // The third frame damaged in its middle: the same games read, the same lost.
        let said = |text: &[u8], name: &str| -> Value {
            let (mut packed, frames) = announced_frames_of(text, 61_000);
            let (at, len) = frames[2];
            for b in &mut packed[at + len / 2..at + len / 2 + 24] {
                *b ^= 0x5a;
            }
            let path = temp(name, &packed);
            let one: Vec<Value> = run(&path, None, 1).into_iter().map(untimed).collect();
            let three: Vec<Value> = run(&path, None, 3).into_iter().map(untimed).collect();
            assert_eq!(three, one, "{name}: -j 3");
            assert_eq!(merged(&path, 3, 1).unwrap(), one, "{name}: 3 parts");
            let summary = one.last().unwrap();
            let b = &summary["breaks"][0];
            serde_json::json!([
                summary["games"],
                summary["plies"],
                summary["lost"],
                summary["breaks"].as_array().map(Vec::len),
                b["line"],
                b["cut"],
                b["rest"],
            ])
        };
        let lf_said = said(&lf, "lf-damaged.pgn.zst");
        assert!(lf_said[0].as_u64().unwrap() > 300, "{lf_said}");
        assert_eq!(said(&cr, "cr-damaged.pgn.zst"), lf_said);
    }

    /// A file that is not text (binary data, UTF-16) is refused by every part of it in
    /// the whole run's words, and its parts merge to the whole run's refusal: a part
    /// judges the file's first bytes, not its own (before, a binary file's first part
    /// read it as a game, an illegal one, and merged to that). Plain, and in pzstd's
    /// layout (the first 4 KiB of decoded text are judged), and in pzstd's layout with its
    /// first frame damaged: the whole run tells that break, then refuses the text after
    /// it, and so does the first part (before, it stepped over the frame unsaid, and the
    /// parts merged to a refusal without the break).
    #[test]
    fn a_file_that_is_not_text_is_refused_by_every_part() {
        let mut noise = Vec::new();
        let mut x = 0x2545_f491_4f6c_dd1du64;
        while noise.len() < 20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            noise.extend_from_slice(&x.to_le_bytes());
        }
        let sample = std::fs::read("samples/lichess_zh_2018_JannLee-CrazyAra.pgn").unwrap();
        let utf16: Vec<u8> = [0xff, 0xfe]
            .into_iter()
            .chain(sample.iter().flat_map(|&b| [b, 0]))
            .collect();
        let (packed, frames) = announced_frames_of(&noise, 3_000);
        // The first frame's header damaged (its descriptor's reserved bit set): pzstd
        // announced its size, so it is stepped over.
        let mut damaged = packed.clone();
        damaged[frames[0].0 + 4] = 0xff;
        for (name, bytes, breaks) in [
            ("noise.pgn", noise.clone(), 0),
            ("utf16.pgn", utf16, 0),
            ("noise.pgn.zst", packed, 0),
            ("noise-damaged.pgn.zst", damaged, 1),
        ] {
            let path = temp(name, &bytes);
            let whole = summary_of(&records(
                &path,
                None,
                1,
                pocketfen::stream::DEFAULT_MAX_GAME_BYTES,
            ));
            let error = whole
                .ending_error()
                .unwrap_or_else(|| panic!("{name}: the whole run refuses it: {whole:?}"));
            assert!(
                error.contains("not PGN text") || error.contains("UTF-16"),
                "{error}"
            );
            assert_eq!(whole.breaks.len(), breaks, "{name}: {whole:?}");
            for n in [2, 3] {
                for k in 1..=n {
                    let part = summary_of(&records(
                        &path,
                        Some(Split::new(k, n).unwrap()),
                        1,
                        pocketfen::stream::DEFAULT_MAX_GAME_BYTES,
                    ));
                    assert_eq!(part.ending_error(), Some(error), "{name} {k}/{n}");
                    // The first part tells the breaks before the text it refuses.
                    let told = if k == 1 { &whole.breaks[..] } else { &[][..] };
                    assert_eq!(part.breaks, told, "{name} {k}/{n}");
                    assert_eq!((part.totals.games, part.bytes), (0, 0), "{name} {k}/{n}");
                }
                check(&path, n, 1).unwrap();
            }
        }
    }

    /// A part of a file of a compression or archive that pocketfen does not read (xz,
    /// zip, …) refuses it by name, as a whole run does, rather than reading it as text
    /// (before, a part judged it as text: mostly a binary file, and a zip that stores its
    /// text uncompressed was read as games).
    #[test]
    fn a_part_refuses_an_unread_compression_by_name() {
        let sample = std::fs::read("samples/lichess_zh_2018_JannLee-CrazyAra.pgn").unwrap();
        // A zip that stores its one file uncompressed: the local header, then the text.
        let mut zip = b"PK\x03\x04\x0a\x00\x00\x00\x00\x00".to_vec();
        zip.extend_from_slice(&[0; 16]);
        zip.extend_from_slice(&(7u16).to_le_bytes());
        zip.extend_from_slice(&0u16.to_le_bytes());
        zip.extend_from_slice(b"**a.pgn");
        zip.extend_from_slice(&sample);
        let mut xz = vec![0xfd, b'7', b'z', b'X', b'Z', 0];
        xz.extend_from_slice(&sample[..5_000]);
        for (name, bytes, what) in [
            ("stored.pgn.zip", zip, "a zip archive is not supported"),
            ("text.pgn.xz", xz, "xz-compressed input is not supported"),
        ] {
            let path = temp(name, &bytes);
            let whole = summary_of(&records(
                &path,
                None,
                1,
                pocketfen::stream::DEFAULT_MAX_GAME_BYTES,
            ));
            let error = whole.stream_error.expect("the whole run refuses it");
            assert!(error.contains(what), "{name}: {error}");
            for n in [1, 2, 3] {
                for k in 1..=n {
                    let part = summary_of(&records(
                        &path,
                        Some(Split::new(k, n).unwrap()),
                        1,
                        pocketfen::stream::DEFAULT_MAX_GAME_BYTES,
                    ));
                    assert_eq!(part.stream_error.as_ref(), Some(&error), "{name} {k}/{n}");
                    assert_eq!(
                        (part.totals.games, part.bytes, part.split.is_some()),
                        (0, 0, false),
                        "{name} {k}/{n}"
                    );
                }
            }
        }
    }

    /// A byte-order mark that a line's first 1,024 bytes cut in two (after 1,022 or
    /// 1,023 spaces) tells nothing to the search for a sync point: the tag line it
    /// starts goes on its game's tag section in the whole file, and no part may start a
    /// game at the next tag line (taking the cut mark for movetext, one did: the parts
    /// then held a game the whole file has not, and did not merge). With that line after
    /// 16 to 25 games, so that it falls at ten places against the boundaries of 2, 3 and
    /// 4 parts, the parts merge to one run.
    #[test]
    fn a_byte_order_mark_the_prefix_cuts_starts_no_part() {
        let game =
            |i: usize| format!("[Event \"g{i}\"]\n[Site \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n");
        for spaces in [1022, 1023] {
            for before in 16..26 {
                let mut text: String = (0..before).map(game).collect();
                text += "[Event \"t\"]\n";
                text += &" ".repeat(spaces);
                text += "\u{feff}[Round \"3\"]\n\n[White \"h\"]\n\n1. d4 d5 *\n\n";
                text.extend((0..20).map(game));
                let path = temp(&format!("bom-{spaces}-{before}.pgn"), text.as_bytes());
                for n in [2, 3, 4] {
                    check(&path, n, 1).unwrap();
                }
            }
        }
    }

    /// A damaged frame of a pzstd archive is stepped over alike by one run, by `-j 3` and
    /// by parts, wherever it lies against the parts' boundaries: the last frame of a
    /// part (a break the next part never sees), the first of a part, any other. Every
    /// frame in turn is made undecodable from its first block (it gives no text), in its
    /// middle (it gives some first) or in its magic number (it starts no frame), or its
    /// announcement's magic number or size field is damaged (nothing is lost), or, of
    /// the first frame, all of its announcement and its magic (the frame is lost), or
    /// junk comes before its announcement, alone or with a frame pzstd did not announce
    /// after it (the frames after them are read); the parts always merge, to one run's
    /// records.
    #[test]
    fn a_damaged_pzstd_frame_anywhere_merges_to_one_run() {
        let (packed, frames) = announced_frames(61_000);
        let mut failures = Vec::new();
        for (k, &(at, len)) in frames.iter().enumerate() {
            for middle in [
                "first block",
                "middle",
                "magic number",
                "announcement",
                "size field",
                "both",
                "junk",
                "junk and a frame not announced",
            ] {
                let mut damaged = packed.clone();
                match middle {
                    // Bytes that start no frame and announce none, between the frame
                    // before and this one's announcement: stepped over to it.
                    "junk" if k > 0 => {
                        damaged.splice(at - 12..at - 12, b"JUNK".repeat(k + 3));
                    }
                    // The same, then a frame pzstd did not announce: stepped over with
                    // the junk (a part never starts at it).
                    "junk and a frame not announced" if k > 0 => {
                        let bare =
                            zstd::encode_all(&b"[Event \"x\"]\n\n1. e4 *\n\n"[..], 1).unwrap();
                        let junk = [&b"JUNK!"[..], &bare].concat();
                        damaged.splice(at - 12..at - 12, junk);
                    }
                    "junk" | "junk and a frame not announced" => continue,
                    "middle" => {
                        for b in &mut damaged[at + len / 2..at + len / 2 + 24] {
                            *b ^= 0x5a;
                        }
                    }
                    "magic number" => damaged[at + 1] ^= 0x41,
                    // pzstd's announcement of the frame: read as one still (the first
                    // frame's too, which says what the file is).
                    "announcement" => damaged[at - 11] ^= 0x41,
                    "size field" => damaged[at - 8] ^= 0x41,
                    // Nothing tells the first frame: stepped over to the next announced
                    // one (a later frame's damage so ends the text, as other tests show).
                    "both" if k == 0 => {
                        for b in &mut damaged[at - 12..at + 4] {
                            *b ^= 0xa5;
                        }
                    }
                    "both" => continue,
                    _ => crate::common::break_first_block(&mut damaged, at),
                }
                let path = temp(
                    &format!("frame-{k}-{}.pgn.zst", middle.replace(' ', "-")),
                    &damaged,
                );
                let one: Vec<Value> = run(&path, None, 1).into_iter().map(untimed).collect();
                let summary = one.last().unwrap();
                let breaks = usize::from(!matches!(middle, "announcement" | "size field"));
                assert!(
                    summary["breaks"].as_array().map_or(0, Vec::len) == breaks
                        && summary.get("trailing_bytes").is_none(),
                    "frame {k} ({middle}): {summary}"
                );
                same_as_one_run(&path, &one, &format!("frame {k} ({middle})"), &mut failures);
                let _ = std::fs::remove_file(&path);
            }
        }
        assert!(failures.is_empty(), "{failures:#?}");
    }

    /// A damaged BGZF block (pocketfen's own gzip output) is stepped over alike by one
    /// run, by `-j 3` and by parts, wherever it lies against the parts' boundaries: every
    /// block in turn is damaged in its middle; the break names it, and the parts always
    /// merge, to one run's records.
    #[test]
    fn a_damaged_bgzf_block_anywhere_merges_to_one_run() {
        let text = std::fs::read("samples/lichess_standard_2025-05_sample438.pgn").unwrap();
        let mut w = pocketfen::stream::CompressedWriter::new(
            Vec::new(),
            pocketfen::stream::Compression::Gzip,
            None,
            1,
        )
        .unwrap();
        w.write_all(&text).unwrap();
        let packed = w.finish().unwrap();
        let mut blocks = Vec::new();
        let mut at = 0;
        while at < packed.len() {
            let len = usize::from(u16::from_le_bytes([packed[at + 16], packed[at + 17]])) + 1;
            blocks.push((at, len));
            at += len;
        }
        // The blocks with text (the last is BGZF's empty end-of-file block).
        let blocks = &blocks[..blocks.len() - 1];
        assert!(blocks.len() >= 5, "{} blocks", blocks.len());
        let mut failures = Vec::new();
        for (k, &(at, len)) in blocks.iter().enumerate() {
            let mut damaged = packed.clone();
            for b in &mut damaged[at + len / 2..at + len / 2 + 24] {
                *b ^= 0x5a;
            }
            let path = temp(&format!("block-{k}.pgn.gz"), &damaged);
            let one: Vec<Value> = run(&path, None, 1).into_iter().map(untimed).collect();
            let summary = one.last().unwrap();
            let told = &summary["breaks"][0];
            if summary["breaks"].as_array().map(Vec::len) != Some(1)
                || (
                    told["compression"].as_str(),
                    told["offset"].as_u64(),
                    told["length"].as_u64(),
                    told["text"]["by"].as_str(),
                ) != (
                    Some("gzip"),
                    Some(at as u64),
                    Some(len as u64),
                    Some("trailer"),
                )
            {
                failures.push(format!("block {k}: {summary}"));
                continue;
            }
            same_as_one_run(&path, &one, &format!("block {k}"), &mut failures);
            let _ = std::fs::remove_file(&path);
        }
        assert!(failures.is_empty(), "{failures:#?}");
    }

    /// Trailing bytes after a damaged last stream are told by the part whose text ends
    /// at them only: a part before it that stopped where the next begins, its decoder
    /// reading on into that stream, met them too, and `merge` took that part for the one
    /// the run broke off in
    /// (the parts after it left out: a merged run with neither the break nor the game
    /// it lost, told complete). The last two streams of small pbzip2 streams damaged
    /// byte after byte, junk after them: 2 to 5 parts merge to one run.
    #[test]
    fn trailing_bytes_are_told_by_the_part_whose_text_ends_there() {
        use std::io::Write;
        let text: Vec<u8> = std::fs::read("samples/lichess_standard_2025-05_sample438.pgn")
            .unwrap()[..20_000]
            .iter()
            .map(|&b| if b == b'\n' { b'\r' } else { b })
            .collect();
        let (mut packed, mut streams) = (Vec::new(), Vec::new());
        for piece in text.chunks(1280) {
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::new(1));
            e.write_all(piece).unwrap();
            streams.push(packed.len());
            packed.extend_from_slice(&e.finish().unwrap());
        }
        let from = streams[streams.len() - 2];
        let mut failures = Vec::new();
        for at in (from..packed.len()).step_by(5) {
            let mut damaged = packed.clone();
            damaged[at] ^= 0x20;
            damaged.extend_from_slice(b"junk");
            let path = temp("trailing.pgn.bz2", &damaged);
            let one: Vec<Value> = run(&path, None, 1).into_iter().map(untimed).collect();
            for n in [2, 3, 4, 5] {
                match merged(&path, n, 1) {
                    Ok(parts) if parts == one => {}
                    Ok(parts) => failures.push(format!(
                        "byte {at}, {n} parts: {}",
                        first_difference(&parts, &one)
                    )),
                    Err(e) => failures.push(format!("byte {at}, {n} parts: {e}")),
                }
            }
        }
        assert!(failures.is_empty(), "{failures:#?}");
    }

    /// A damaged bzip2 stream of pbzip2's layout is stepped over alike by one run, by `-j
    /// 3` and by parts, wherever it lies against the parts' boundaries: every stream in
    /// turn is damaged in its middle (found as it is decoded, or only by its block's
    /// check at its end); the parts always merge, to one run's records.
    #[test]
    fn a_damaged_bzip2_stream_anywhere_merges_to_one_run() {
        use std::io::Write;
        let text = std::fs::read("samples/lichess_standard_2025-05_sample438.pgn").unwrap();
        let (mut packed, mut streams) = (Vec::new(), Vec::new());
        for piece in text.chunks(90_000) {
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::new(1));
            e.write_all(piece).unwrap();
            let stream = e.finish().unwrap();
            streams.push((packed.len(), stream.len()));
            packed.extend_from_slice(&stream);
        }
        assert!(streams.len() >= 5, "{} streams", streams.len());
        let mut failures = Vec::new();
        for (k, &(at, len)) in streams.iter().enumerate() {
            let mut damaged = packed.clone();
            for b in &mut damaged[at + len / 2..at + len / 2 + 24] {
                *b ^= 0x5a;
            }
            let path = temp(&format!("stream-{k}.pgn.bz2"), &damaged);
            let one: Vec<Value> = run(&path, None, 1).into_iter().map(untimed).collect();
            let summary = one.last().unwrap();
            let told = &summary["breaks"][0];
            if summary["breaks"].as_array().map(Vec::len) != Some(1)
                || (
                    told["compression"].as_str(),
                    told["offset"].as_u64(),
                    told["length"].as_u64(),
                ) != (Some("bzip2"), Some(at as u64), Some(len as u64))
            {
                failures.push(format!("stream {k}: {summary}"));
                continue;
            }
            same_as_one_run(&path, &one, &format!("stream {k}"), &mut failures);
            let _ = std::fs::remove_file(&path);
        }
        assert!(failures.is_empty(), "{failures:#?}");
    }

    /// A part of a pzstd archive starts with the skippable frame that announces its first
    /// frame's size, also when its byte range starts inside that skippable frame: so a
    /// damaged first frame is stepped over by the part as by a run that reads into it.
    #[test]
    fn parts_of_a_pzstd_archive_start_at_an_announcement() {
        let (packed, frames) = announced_frames(9_000);
        let announcements: Vec<u64> = frames.iter().map(|&(at, _)| at as u64 - 12).collect();
        let path = temp("announced.pgn.zst", &packed);
        let size = packed.len() as u64;
        let mut inside = 0;
        for n in 2..=60 {
            let ranges = pocketfen::stream::parts(Source::path(&path), n).unwrap();
            for (k, r) in ranges.iter().enumerate().skip(1) {
                let cut = size * k as u64 / n as u64;
                inside += usize::from(announcements.iter().any(|&a| a < cut && cut < a + 12));
                assert!(
                    announcements.contains(&r.start),
                    "{n} parts: part {} starts at {}, at no announcement",
                    k + 1,
                    r.start
                );
            }
        }
        assert!(inside > 0, "no range started inside a skippable frame");
    }

    /// Damaged archives give one run's records for every `-j` and for split + merge (issue
    /// 33.10): each frame's bytes reach its decoder in the same pieces however it is read
    /// (from the file's start, a part's, or a chunk's re-read), so the text decoded before
    /// the damage is the same. Real games in BGZF (pocketfen's own gzip output), plain
    /// multi-member gzip, pzstd-style zstd frames and bzip2 streams, each damaged at random
    /// places in three ways (a flipped byte, 40 zeroed bytes, 37 bytes cut out).
    #[test]
    fn damaged_archives_give_one_runs_records_for_any_jobs_and_parts() {
        let text = std::fs::read("samples/lichess_standard_2025-05_sample438.pgn").unwrap();
        let mut rng = Rng(33);
        let bgzf = {
            let mut w = pocketfen::stream::CompressedWriter::new(
                Vec::new(),
                pocketfen::stream::Compression::Gzip,
                None,
                1,
            )
            .unwrap();
            w.write_all(&text).unwrap();
            w.finish().unwrap()
        };
        let members = {
            let mut out = Vec::new();
            for piece in text.chunks(70_000) {
                let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
                e.write_all(piece).unwrap();
                out.extend(e.finish().unwrap());
            }
            out
        };
        let zstd = frames(&mut rng, &text, 1);
        let bzip2 = frames(&mut rng, &text, 2);
        let mut failures = Vec::new();
        for (name, packed) in [
            ("bgzf.pgn.gz", bgzf),
            ("members.pgn.gz", members),
            ("frames.pgn.zst", zstd),
            ("streams.pgn.bz2", bzip2),
        ] {
            for trial in 0..60 {
                let mut damaged = packed.clone();
                let at = 64 + rng.below(damaged.len() - 200);
                match trial % 3 {
                    0 => damaged[at] ^= 0xff,
                    1 => damaged[at..at + 40].fill(0),
                    _ => {
                        damaged.drain(at..at + 37);
                    }
                }
                let path = temp(&format!("damaged-{trial}-{name}"), &damaged);
                let one: Vec<Value> = run(&path, None, 1).into_iter().map(untimed).collect();
                let four: Vec<Value> = run(&path, None, 4).into_iter().map(untimed).collect();
                if one != four {
                    failures.push(format!(
                        "{name} damaged at {at} ({trial}): -j 4 differs, {}",
                        first_difference(&one, &four)
                    ));
                }
                match merged(&path, 4, 2) {
                    Ok(parts) if parts != one => failures.push(format!(
                        "{name} damaged at {at} ({trial}): 4 parts merged give {} games, one run {}; {}",
                        parts.last().unwrap()["games"],
                        one.last().unwrap()["games"],
                        first_difference(&parts, &one),
                    )),
                    // A part whose own start is damaged cannot be merged: it says so.
                    _ => {}
                }
                let _ = std::fs::remove_file(&path);
            }
        }
        assert!(failures.is_empty(), "{failures:#?}");
    }
}
