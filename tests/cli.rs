//! CLI snapshots: exit code, stdout and stderr of each subcommand (insta-cmd).

mod common;

use std::io::Write as _;
use std::process::Command;

use insta_cmd::{assert_cmd_snapshot, get_cargo_bin};

fn cmd(args: &[&str]) -> Command {
    let mut c = Command::new(get_cargo_bin("pocketfen"));
    c.args(args);
    c
}

use common::piped;

fn settings() -> insta::Settings {
    common::snapshot_settings()
}

/// Snapshots a command's exit code, stdout and stderr, and asserts its exit code here in
/// the test, so that a snapshot accepted with another code still fails.
macro_rules! snap {
    ($name:literal, $cmd:expr, exit $code:expr) => {
        settings().bind(|| assert_cmd_snapshot!($name, $cmd));
        let accepted = std::fs::read_to_string(concat!("snapshots/", $name, ".snap")).unwrap();
        assert!(
            accepted.contains(&format!("exit_code: {}\n", $code)),
            "{}: expected exit code {}",
            $name,
            $code
        );
    };
}

const ZH_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1";

#[test]
fn convert_arguments_with_one_bad() {
    snap!(
        "cli_convert_arguments",
        cmd(&[
            "fen",
            "convert",
            "--to",
            "chesscom",
            "r4rk1/p2bppbp/6p1/2qpP3/5P2/2NBPQPp/PPP4P/R1B3K1[NNNrp] b - - 39 20",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "b2nkbnQ~/p1pppp1p/pP1q2p1/r7/8/R5PR/P1PP1P1P/1NBQ1BNK/R w - - 1 2",
        ]), exit 1);
}

#[test]
fn convert_stdin_sample_to_each_dialect() {
    let input = std::fs::read("samples/crazyhouse-fens.txt").unwrap();
    for to in ["lichess", "xboard", "chesscom", "bracket"] {
        let name = format!("cli_convert_sample_to_{to}");
        settings().bind(|| {
            assert_cmd_snapshot!(
                name,
                cmd(&["fen", "convert", "--to", to]).pass_stdin(input.clone())
            )
        });
    }
}

#[test]
fn convert_json_lines_with_pair_blank_line_crlf_and_error() {
    let input = format!(
        "{ZH_START} | {ZH_START}\n\n8/8/8/8/8/8/8/K6k[Q~] w - - 0 1\r\n8/8/8/8/8/8/8/K6k[Q] w - - 0 1\r\n"
    );
    snap!(
        "cli_convert_json",
        cmd(&["fen", "convert", "--to", "xboard", "--json"]).pass_stdin(input), exit 1);
}

#[test]
fn convert_skips_a_byte_order_mark() {
    let input = format!("\u{feff}{ZH_START}\n{ZH_START}\n");
    snap!(
        "cli_convert_bom",
        cmd(&["fen", "convert", "--to", "bracket"]).pass_stdin(input), exit 0);
}

#[test]
fn convert_with_a_fixed_source_dialect() {
    snap!(
        "cli_convert_from_lichess",
        cmd(&[
            "fen",
            "convert",
            "--from",
            "lichess",
            "--to",
            "bracket",
            ZH_START,
            "8/8/8/8/8/8/8/K6k[Q] w - - 0 1"
        ]), exit 1);
}

#[test]
fn check_reports_every_problem() {
    snap!(
        "cli_check_text",
        cmd(&[
            "fen",
            "check",
            "4k2K/P7/8/8/8/8/8/p3K3 w Qk e6 0 1",
            ZH_START,
            "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
            "4k3/8/8/8/8/8/8/4K3[QQQ] w - - 0 1",
            "not a fen",
        ]), exit 1);
    snap!(
        "cli_check_json",
        cmd(&[
            "fen",
            "check",
            "--json",
            "--variant",
            "chess",
            ZH_START,
            "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"
        ]), exit 1);
}

#[test]
fn show_draws_boards() {
    snap!(
        "cli_show_chesscom",
        cmd(&[
            "fen",
            "show",
            "r2q1r1k/2p1ppb1/p2p2pp/3P1p2/B6B/2N2NPp/1PP2P1K/3Q3q w - - 0 26 NNBRpr h1"
        ]), exit 0);
    snap!(
        "cli_show_pair_ascii",
        cmd(&[
            "fen",
            "show",
            "--ascii",
            &format!("{ZH_START} | {ZH_START}")
        ]), exit 0);
    snap!("cli_show_bad", cmd(&["fen", "show", "8/8/8"]), exit 1);
    // Black at the bottom in text too (it was dropped without a word): rank 1 on top,
    // the h-file on the left, a promoted piece's `~` after it, White's pocket on top.
    snap!(
        "cli_show_flipped_ascii",
        cmd(&[
            "fen",
            "show",
            "--ascii",
            "--flip",
            "r3k2r/8/8/8/8/8/8/Q~3K2R/Pn w Kkq - 0 1"
        ]), exit 0);
}

#[test]
fn perft_counts_and_divides() {
    snap!(
        "cli_perft_crazyhouse",
        cmd(&["perft", "--variant", "crazyhouse", "3"]), exit 0);
    snap!(
        "cli_perft_divide",
        cmd(&[
            "perft",
            "--fen",
            "2k5/8/8/8/8/8/8/4K3[Qn] w - -",
            "2",
            "--divide"
        ]), exit 0);
    snap!(
        "cli_perft_horde",
        cmd(&["perft", "--variant", "horde", "3"]), exit 0);
    snap!(
        "cli_perft_chess960_divide",
        cmd(&[
            "perft",
            "--fen",
            "4rrk1/8/8/8/8/8/8/4RRK1 w Ff - 0 1",
            "1",
            "--divide"
        ]), exit 0);
    snap!(
        "cli_perft_illegal",
        cmd(&["perft", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1", "2"]), exit 1);
    snap!(
        "cli_perft_pair",
        cmd(&["perft", "--fen", &format!("{ZH_START} | {ZH_START}"), "1"]), exit 1);
}

#[test]
fn usage_errors_exit_2() {
    snap!(
        "cli_usage_error",
        cmd(&["fen", "convert", "--to", "nowhere"]), exit 2);
}

#[test]
fn moves_converts_and_stops_at_the_first_illegal_move() {
    snap!(
        "cli_moves_san_to_uci",
        cmd(&[
            "moves", "--to", "uci", "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O"
        ]), exit 0);
    snap!(
        "cli_moves_crazyhouse_mixed",
        cmd(&[
            "moves",
            "--variant",
            "crazyhouse",
            "--drop-style",
            "at",
            "--dialect",
            "xboard"
        ])
        .pass_stdin("e2e4 d5 exd5 Qxd5 Nc3 Qa5 P@d5 Nf6 @e4\n"), exit 1);
    snap!(
        "cli_moves_illegal",
        cmd(&["moves", "e4", "e5", "Ke3", "Nc6"]), exit 1);
    snap!("cli_moves_syntax_error", cmd(&["moves", "e4", "e9"]), exit 1);
    snap!(
        "cli_moves_strict",
        cmd(&["moves", "--strict", "e4", "e5", "Ngf3", "Nc6", "0-0"]), exit 1);
    snap!(
        "cli_moves_json",
        cmd(&[
            "moves",
            "--json",
            "--fen",
            "6k1/5ppp/8/8/8/8/8/6K1/R w - - 0 1",
            "R@a8",
            "Kh8"
        ]), exit 1);
    snap!(
        "cli_moves_no_drop_mate",
        cmd(&[
            "moves",
            "--no-drop-mate",
            "--fen",
            "6k1/5ppp/8/8/8/8/8/6K1/R w - - 0 1",
            "R@a8"
        ]), exit 1);
}

#[test]
fn legal_lists_sorted_moves() {
    snap!(
        "cli_legal_drops",
        cmd(&[
            "legal",
            "--fen",
            "2k5/8/8/8/8/8/8/4K3[Qn] w - -",
            "--to",
            "uci"
        ]), exit 0);
    snap!("cli_legal_horde", cmd(&["legal", "--variant", "horde"]), exit 0);
}

/// Castling rights that no king and rook allow (an editor's `KQkq` on any board) are
/// dropped with a warning by the commands that play a position, as `validate` drops
/// them from a `[FEN]` tag; `fen check` still reports them.
#[test]
fn impossible_castling_rights_are_dropped_with_a_warning() {
    snap!(
        "cli_moves_impossible_castling",
        cmd(&[
            "moves",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            "e4",
            "e5",
            "Ke2",
        ]), exit 0);
    snap!(
        "cli_perft_impossible_castling",
        cmd(&["perft", "2", "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1"]), exit 0);
    snap!(
        "cli_check_impossible_castling",
        cmd(&["fen", "check", "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1"]), exit 1);
}

/// With `--json`, a `--fen` that gives no position is a record too (move 0), as every
/// other error of `moves` is: one JSON object a line, nothing on stderr.
#[test]
fn moves_json_says_a_bad_fen_in_a_record() {
    for (fen, kind) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            "syntax",
        ),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "missing-king"),
        (&format!("{ZH_START} | {ZH_START}"), "pair"),
    ] {
        let out = cmd(&["moves", "--json", "--fen", fen, "e4"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{fen}");
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        let records: Vec<serde_json::Value> = stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(records.len(), 1, "{stdout}");
        let r = &records[0];
        assert_eq!(
            (&r["type"], &r["index"], &r["kind"], &r["fen"]),
            (&"error".into(), &0.into(), &kind.into(), &fen.into()),
            "{stdout}"
        );
        assert!(!r["message"].as_str().unwrap().is_empty());
    }
}

#[test]
fn a_closed_stdout_ends_quietly() {
    // `pocketfen … | head -1`: the reader goes away; pocketfen exits 0 with no message.
    // Most write far more than a pipe buffers, so writing must hit the closed pipe; the
    // JSON records too (their write's error was wrapped, its kind lost: exit 2 and
    // `Broken pipe`), and the shell completions (clap_complete panicked, exit 101).
    let sample = "samples/lichess_standard_2025-05_sample438.pgn";
    let moves = "Nf3 Nf6 Ng1 Ng8 ".repeat(2000);
    let mut cases: Vec<Vec<&str>> = vec![
        vec!["replay", "--emit", "fen", sample],
        vec!["validate", "--json", "--all", sample],
        vec!["replay", "--json", sample],
        vec!["completions", "bash"],
        vec!["moves", "--json"],
    ];
    cases[4].extend(moves.split_whitespace());
    for args in &cases {
        let mut child = cmd(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            (out.status.code(), &*stderr),
            (Some(0), ""),
            "{:?}",
            &args[..2]
        );
    }
}

#[test]
fn a_failing_output_is_an_error_with_a_message() {
    // /dev/full takes nothing: every command that writes says so and exits 2.
    if !cfg!(target_os = "linux") {
        return; // /dev/full is Linux's
    }
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("Linux has /dev/full");
    let sample = "samples/lichess_standard_2025-05_sample438.pgn";
    for args in [
        &["validate", "--all", "-q", sample][..],
        &["replay", "--emit", "fen", sample],
        &["pgn", "convert", "--to", "lichess", "-q", sample],
        &[
            "fen",
            "convert",
            "--to",
            "xboard",
            "8/8/8/8/8/8/8/k6K w - - 0 1",
        ],
    ] {
        let out = cmd(args)
            .stdout(full.try_clone().unwrap())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("No space left on device"),
            "{args:?}: {stderr}"
        );
        assert!(stderr.contains("writing"), "{args:?}: {stderr}");
    }
}

#[test]
fn an_interrupted_convert_leaves_no_file() {
    // SIGINT exits 130, SIGTERM 143 (128 + the signal's number), as shells report them.
    for (signal, code) in [("INT", 130), ("TERM", 143)] {
        interrupted_convert(signal, code);
    }
}

fn interrupted_convert(signal: &str, code: i32) {
    // `pgn convert -o OUT` reading a stream that is still open, then the signal: neither
    // OUT nor the temporary file beside it may remain.
    let dir = common::scratch_dir(&format!("interrupt-{signal}"));
    let out_path = dir.join("out.pgn");
    let mut child = cmd(&[
        "pgn",
        "convert",
        "--to",
        "lichess",
        "-q",
        "-o",
        out_path.to_str().unwrap(),
        "-",
    ])
    .stdin(std::process::Stdio::piped())
    .stderr(std::process::Stdio::piped())
    .spawn()
    .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(&std::fs::read("samples/lichess_zh_2018_JannLee-CrazyAra.pgn").unwrap())
        .unwrap();
    stdin.flush().unwrap();
    // Wait for the temporary file: the run is under way.
    let started = std::time::Instant::now();
    while std::fs::read_dir(&dir).unwrap().count() == 0 {
        assert!(
            started.elapsed().as_secs() < 20,
            "no temporary file appeared"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let killed = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(out.status.code(), Some(code), "SIG{signal}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("interrupted"),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// `completions` and `manpage` are generated from the argument definitions: every
/// subcommand is completed and documented.
#[test]
fn completions_and_manpage_cover_every_subcommand() {
    let run = |args: &[&str]| {
        let out = cmd(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {:?}", out);
        String::from_utf8(out.stdout).unwrap()
    };
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = run(&["completions", shell]);
        for sub in [
            "validate", "replay", "perft", "legal", "moves", "convert", "manpage",
        ] {
            assert!(script.contains(sub), "{shell} completion lacks {sub}");
        }
        assert!(
            script.contains("no-drop-mate"),
            "{shell}: flags are completed"
        );
    }
    let man = run(&["manpage"]);
    assert!(
        man.starts_with(".ie") || man.contains(".TH pocketfen 1"),
        "{man}"
    );
    assert!(man.contains(".TH pocketfen 1"));
    for sub in ["validate", "replay", "completions"] {
        assert!(man.contains(sub), "the manual page lacks {sub}");
    }
    let bad = cmd(&["completions", "tcsh"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

/// An absurd `-j` is a usage error, and `--json` writes a summary
/// for an input it cannot open, as for a broken stream.
#[test]
fn absurd_jobs_and_unopenable_inputs() {
    for jobs in ["18446744073709551615", "4294967296", "100000", "257", "x"] {
        let out = cmd(&[
            "validate",
            "-q",
            "-j",
            jobs,
            "samples/lichess_zh_2018_JannLee-CrazyAra.pgn",
        ])
        .output()
        .unwrap();
        assert_eq!(out.status.code(), Some(2), "-j {jobs}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("from 1 to 256"),
            "-j {jobs}"
        );
    }
    let out = cmd(&[
        "validate",
        "-q",
        "--json",
        "no-such-file.pgn",
        "no-such-dir/x.pgn",
    ])
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let records: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // A summary per file, then (several files) their total.
    assert_eq!(records.len(), 3, "{stdout}");
    assert_eq!(records[2]["type"], "total");
    assert_eq!(
        (
            records[2]["files"].as_u64(),
            records[2]["complete"].as_bool()
        ),
        (Some(2), Some(false))
    );
    for (r, file) in records
        .iter()
        .zip(["no-such-file.pgn", "no-such-dir/x.pgn"])
    {
        assert_eq!(r["type"], "summary");
        assert_eq!(r["file"], file);
        assert_eq!(r["complete"], false);
        assert_eq!(r["games"], 0);
        assert!(
            r["stream_error"].as_str().is_some_and(|e| !e.is_empty()),
            "{r}"
        );
    }
}

/// `-o` writes a regular file through an unpredictable temporary file and
/// renames it only after a complete run (keeping the destination's permissions); a
/// symlink or a FIFO is written through, as `>` would; a directory is refused, leaving
/// nothing behind.
#[cfg(unix)]
#[test]
fn convert_output_files_are_safe() {
    use std::os::unix::fs::PermissionsExt;
    let sample = "samples/lichess_zh_2018_JannLee-CrazyAra.pgn";
    let dir = common::scratch_dir("o");
    let convert = |out: &std::path::Path, inputs: &[&str]| {
        let mut args = vec![
            "pgn",
            "convert",
            "--to",
            "xboard",
            "-q",
            "-o",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(inputs);
        cmd(&args).output().unwrap()
    };
    let dest = dir.join("dest.pgn");
    std::fs::write(&dest, "keep").unwrap();
    std::fs::set_permissions(&dest, std::fs::Permissions::from_mode(0o600)).unwrap();
    let failed = convert(&dest, &[sample, "no-such-file.pgn"]);
    assert_eq!(failed.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(&dest).unwrap(),
        "keep",
        "a failed run replaced it"
    );
    let done = convert(&dest, &[sample]);
    assert_eq!(done.status.code(), Some(0));
    let written = std::fs::read_to_string(&dest).unwrap();
    assert!(written.starts_with("[Event "), "{written}");
    let mode = std::fs::metadata(&dest).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let target = dir.join("target.txt");
    std::fs::write(&target, "victim").unwrap();
    let link = dir.join("link.pgn");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    assert_eq!(convert(&link, &[sample]).status.code(), Some(0));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), written);
    let sub = dir.join("somedir");
    std::fs::create_dir(&sub).unwrap();
    assert_eq!(convert(&sub, &[sample]).status.code(), Some(2));
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names.iter().all(|n| !n.contains(".tmp")),
        "left behind: {names:?}"
    );
    assert!(std::fs::read_dir(&sub).unwrap().next().is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A file name that is not UTF-8 is validated (and printed lossily); a
/// newline in a name cannot forge a report line.
#[cfg(unix)]
#[test]
fn any_file_name_is_read_and_printed_safely() {
    use std::os::unix::ffi::OsStrExt;
    let dir = common::scratch_dir("names");
    let game = "[Event \"x\"]\n\n1. e4 e5 *\n";
    let latin1 = dir.join(std::ffi::OsStr::from_bytes(b"lat\xe9.pgn"));
    let newline = dir.join("a\n/x.pgn:1:1: game 1: error: forged");
    std::fs::create_dir_all(newline.parent().unwrap()).unwrap();
    std::fs::write(&latin1, game).unwrap();
    std::fs::write(&newline, game).unwrap();
    let out = Command::new(get_cargo_bin("pocketfen"))
        .args(["validate", "--all", "-q"])
        .arg(&latin1)
        .arg(&newline)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    assert!(
        stdout.lines().all(|l| l.ends_with(": ok (chess, 2 plies)")),
        "{stdout}"
    );
    assert!(stdout.contains("lat\u{fffd}.pgn:1:1"), "{stdout}");
    assert!(stdout.contains("a\\n/x.pgn"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `moves` streams stdin (any length, one move at a time), guessing the
/// variant from its start.
#[test]
fn moves_stream_stdin() {
    let shuffle = "Nf3 Nf6 Ng1 Ng8\n".repeat(50_000);
    let out = with_stdin(&["moves", "--to", "uci"], shuffle.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 200_001);
    assert_eq!(
        stdout.lines().last(),
        Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 200000 100001")
    );
    let out = with_stdin(&["moves"], b"e4\nd5  exd5\tQxd5 P@e4");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.ends_with("/p b KQkq - 0 3\n"),
        "a crazyhouse game: {stdout}"
    );
}

/// Runs the binary with `input` on its stdin.
fn with_stdin(args: &[&str], input: &[u8]) -> std::process::Output {
    let mut child = cmd(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    out
}

/// In the words of `fen convert`: a Chess.com FEN with a promoted square and no pocket (it is crazyhouse: its empty pocket is written), an en
/// passant square without a capture (dropped) beside one with (kept), EPD lines (written
/// back with their operations), and a pocket in each dialect's order.
#[test]
fn fen_convert_dialect_details() {
    let lines = [
        "r2q1rk1/1bpp1pp1/1pn1r3/p6p/1NPp3p/P4P1P/B2BP1P1/qN1QKBNR b K - 1 17 a1",
        "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR[] w KQkq e6 0 2",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - hmvc 2; fmvn 3; bm Bb5; id \"ruy; lopez\";",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3 3;",
        "r1bBk1r1/ppp2p1p/1b1p3p/3Pp3/6N1/2PPn2n/PP2B1pP/R2Q3K[PNBRQpnbrq] w q - 0 22",
    ]
    .join("\n");
    for to in ["lichess", "xboard", "bracket", "chesscom"] {
        let name = format!("fen_convert_to_{to}");
        settings().bind(|| {
            assert_cmd_snapshot!(
                name,
                cmd(&["fen", "convert", "--to", to]).pass_stdin(lines.clone())
            )
        });
    }
    // Checked, every line is a legal position (the EPD ones too; the last has more
    // material than two sets, a warning).
    let mut check = vec!["fen", "check"];
    check.extend(lines.lines());
    let out = cmd(&check).output().unwrap();
    let said = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert_eq!(
        said.lines().filter(|l| l.contains(": ok: ")).count(),
        6,
        "{said}"
    );
}

/// `fen convert --variant` says what a FEN that names no pocket is: a pocket
/// variant writes its empty pockets, chess writes none and refuses pieces in a pocket.
#[test]
fn fen_convert_variant() {
    let plain = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let run = |variant: &str, to: &str, fen: &str| {
        let out = cmd(&["fen", "convert", "--variant", variant, "--to", to, fen])
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap().trim_end().to_owned(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    for (variant, to, expected) in [
        (
            "crazyhouse",
            "lichess",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
        ),
        (
            "loop",
            "xboard",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-] w KQkq - 0 1",
        ),
        (
            "chessgi",
            "bracket",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        ),
        ("auto", "lichess", plain),
        ("chess", "lichess", plain),
    ] {
        assert_eq!(
            run(variant, to, plain),
            (Some(0), expected.to_owned(), String::new()),
            "{variant}"
        );
    }
    let empty = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1";
    assert_eq!(run("chess", "xboard", empty).1, plain);
    let (code, out, err) = run(
        "horde",
        "lichess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qp] w KQkq - 0 1",
    );
    assert_eq!((code, out.as_str()), (Some(1), ""));
    assert_eq!(
        err,
        "pocketfen: line 1, column 44: pocket: expected no pocket with pieces (the variant has no drops), found `[Qp]`\n"
    );
}

/// FEN lines ended by a lone CR (old Mac files), CRLF or LF are lines alike,
/// a CRLF split between two reads included.
#[test]
fn fen_lines_end_at_a_lone_cr() {
    let a = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
    let b = "8/8/8/8/8/8/8/K6k[Q] w - - 0 1";
    let input = format!("{a}\r{b}\r\n\r{a}\n{b}");
    let (stdout, _, code) = piped(&["fen", "convert", "--to", "lichess"], &input);
    assert_eq!(code, Some(0));
    let lichess_a = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1";
    let lichess_b = "8/8/8/8/8/8/8/K6k/Q w - - 0 1";
    assert_eq!(
        stdout,
        format!("{lichess_a}\n{lichess_b}\n\n{lichess_a}\n{lichess_b}\n")
    );
}

/// `legal` and `perft` read the position from a FEN argument and from stdin (one per
/// line), as every command reads its input; they answered for the start
/// position before. Several positions: `legal` separates their lists by an empty line,
/// `perft` writes a count a line (an empty line for a position refused).
#[test]
fn legal_and_perft_read_fens_from_arguments_and_stdin() {
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let checked = "7k/8/8/8/8/8/8/K6q w - - 0 1";
    let start = String::from_utf8(cmd(&["legal"]).output().unwrap().stdout).unwrap();
    let (by_arg, _, code) = piped(&["legal", after_e4], "");
    assert_eq!(code, Some(0));
    assert!(
        by_arg.contains("Nc6") && !by_arg.contains("Nc3"),
        "{by_arg}"
    );
    assert_ne!(by_arg, start);
    let (by_stdin, _, _) = piped(&["legal"], &format!("{after_e4}\n"));
    assert_eq!(by_stdin, by_arg);
    let (by_flag, _, _) = piped(&["legal", "--fen", after_e4], "");
    assert_eq!(by_flag, by_arg);
    let (several, err, code) = piped(&["legal"], &format!("{after_e4}\nxx\n\n{checked}\n"));
    assert_eq!(code, Some(1));
    assert_eq!(several, format!("{by_arg}\n\nKa2\nKb2\n"));
    assert!(err.contains("pocketfen: line 2, column 1:"), "{err}");
    // perft: one count per position and line.
    let flag = |fen: &str| piped(&["perft", "2", "--fen", fen], "").0;
    let (counts, err, code) = piped(&["perft", "2"], &format!("{after_e4}\nxx\n{checked}\n"));
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(counts, format!("{}\n{}", flag(after_e4), flag(checked)));
    assert_ne!(flag(after_e4), piped(&["perft", "2"], "").0);
    let (count, _, code) = piped(&["perft", "1", checked], "");
    assert_eq!((count.as_str(), code), ("2\n", Some(0)));
    // Unquoted, the FEN is refused with the quoting it needs.
    let split: Vec<&str> = ["legal"].into_iter().chain(after_e4.split(' ')).collect();
    let (_, err, code) = piped(&split, "");
    assert_eq!(code, Some(2));
    assert!(err.contains("quote it"), "{err}");
}

/// A bughouse pair is bughouse for `fen convert --variant auto` too: both
/// boards are written with their (empty) pockets, as `--variant bughouse` writes them;
/// a pair whose boards were written in two dialects is `mixed` in `--json`.
#[test]
fn fen_convert_writes_a_pair_as_bughouse() {
    let board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    let plain = format!("{board} w KQkq - 0 1");
    let bracket = format!("{board}[-] w KQkq - 0 1");
    let convert = |args: &[&str]| String::from_utf8(cmd(args).output().unwrap().stdout).unwrap();
    let pair = format!("{plain} | {plain}");
    for to in ["lichess", "xboard"] {
        let auto = convert(&["fen", "convert", "--to", to, &pair]);
        let bughouse = convert(&["fen", "convert", "--to", to, "--variant", "bughouse", &pair]);
        assert_eq!(auto, bughouse, "{to}");
        assert_eq!(
            auto.matches(if to == "lichess" { "/ w" } else { "[-] w" })
                .count(),
            2
        );
    }
    let json = |input: &str| -> serde_json::Value {
        serde_json::from_str(&convert(&[
            "fen", "convert", "--to", "lichess", "--json", input,
        ]))
        .unwrap()
    };
    let mixed = json(&format!("{plain} | {bracket}"));
    assert_eq!(mixed["dialect"], "mixed");
    assert_eq!(
        mixed["board_dialects"],
        serde_json::json!(["plain", "xboard"])
    );
    let one = json(&format!("{bracket} | {bracket}"));
    assert_eq!(one["dialect"], "xboard");
}

/// `fen url` writes the en passant square only when a capture there is legal, as `fen
/// convert` does, and one output line per input line: an empty one for a blank or
/// refused input.
#[test]
fn fen_url_keeps_lines_and_writes_en_passant_as_convert_does() {
    let no_capture = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    let capture = "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let input = format!("{no_capture}\n{start} | {start}\n\n{capture}\n");
    let (stdout, stderr, code) = piped(&["fen", "url"], &input);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    let converted = |fen: &str| {
        let out = cmd(&["fen", "convert", "--to", "lichess", fen])
            .output()
            .unwrap();
        String::from_utf8(out.stdout)
            .unwrap()
            .trim()
            .replace(' ', "_")
    };
    assert!(lines[0].ends_with(&converted(no_capture)), "{}", lines[0]);
    assert!(lines[0].contains("_b_KQkq_-_0_1"), "{}", lines[0]);
    assert_eq!((lines[1], lines[2]), ("", ""));
    assert!(lines[3].ends_with(&converted(capture)) && lines[3].contains("_e3_"));
    assert_eq!(code, Some(1));
    assert!(stderr.contains("line 2: Lichess has no bughouse board"));
}

/// `fen show --svg --last-move` takes UCI: anything else is a usage error (exit 2) that
/// says so, with an example.
#[test]
fn last_move_is_a_usage_error_when_not_uci() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let out = cmd(&["fen", "show", "--svg", "--last-move", "Qxd7", start])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("expected a move in UCI, such as d1d7"),
        "{err}"
    );
    let out = cmd(&["fen", "show", "--svg", "--last-move", "B:e2e4", start])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = cmd(&["fen", "show", "--svg", "--last-move", "e2e4", start])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}
