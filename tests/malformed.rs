//! The malformed-input corpus (`grammar-tests/malformed/`): every hostile or broken input
//! gets a located error or a documented acceptance, snapshotted, and nothing panics.
//!
//! - `fen.txt`: one FEN per line through `pocketfen fen check`;
//! - `san.txt`: one token per line through the SAN and UCI parsers;
//! - `pgn/`, `bpgn/`, `compressed/`: one archive each through `pocketfen validate`;
//! - generated here, too big to keep as files: a 10 MB tag value, 100 k nested
//!   variations, 100 k comments, a game of 50 k plies, a 1 MB token, 1 MB of `(` or `{`,
//!   100 k one-move games, a 1000-piece pocket in a FEN tag.

mod common;

use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::process::{Command, Stdio};

use insta_cmd::get_cargo_bin;
use pocketfen::game::{Converted, Rewrite, Target, convert_game};
use pocketfen::game::{GameReport, Options, validate_game};
use pocketfen::notation::san::{DropStyle, SanPlus};
use pocketfen::notation::uci::UciMove;
use pocketfen::stream::GameSplitter;

fn settings() -> insta::Settings {
    let mut s = common::snapshot_settings();
    s.add_filter(r"; [0-9.]+ s, [0-9]+ games/s, [0-9.]+ MB/s", "; [timing]");
    s
}

/// The lines of a corpus file, bytes as they are (the last newline ends the last line).
fn lines(path: &str) -> Vec<Vec<u8>> {
    let bytes = fs::read(path).unwrap();
    let mut lines: Vec<Vec<u8>> = bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    if lines.last().is_some_and(Vec::is_empty) {
        lines.pop();
    }
    lines
}

/// At most `n` characters of `s`, then how much was left out.
fn clip(s: &str, n: usize) -> String {
    let count = s.chars().count();
    if count <= n {
        s.to_owned()
    } else {
        let head: String = s.chars().take(n).collect();
        format!("{head}… ({} more characters)", count - n)
    }
}

#[test]
fn malformed_fens_are_located_or_accepted() {
    let input = fs::read("grammar-tests/malformed/fen.txt").unwrap();
    let mut child = Command::new(get_cargo_bin("pocketfen"))
        .args(["fen", "check"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1), "some lines are errors");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    // Every line but the blank ones (skipped, as documented) has a verdict.
    let all = lines("grammar-tests/malformed/fen.txt");
    let answered: std::collections::BTreeSet<usize> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("line ")?.split(':').next()?.parse().ok())
        .collect();
    for (i, l) in all.iter().enumerate() {
        let blank = l.iter().all(u8::is_ascii_whitespace);
        assert_eq!(answered.contains(&(i + 1)), !blank, "line {}", i + 1);
    }
    let mut snap = String::new();
    for (i, l) in all.iter().enumerate() {
        let shown = clip(&String::from_utf8_lossy(l), 80);
        writeln!(snap, "{:>3} {shown:?}", i + 1).unwrap();
        let tag = format!("line {}: ", i + 1);
        for verdict in stdout.lines().filter(|v| v.starts_with(&tag)) {
            let verdict = &verdict[tag.len()..];
            assert!(
                !verdict.contains(char::is_control),
                "unescaped: {verdict:?}"
            );
            writeln!(snap, "    {}", clip(verdict, 160)).unwrap();
        }
    }
    settings().bind(|| insta::assert_snapshot!("malformed_fen", snap));
}

#[test]
fn malformed_san_and_uci_tokens_are_located_or_accepted() {
    let mut snap = String::new();
    for l in lines("grammar-tests/malformed/san.txt") {
        let shown = clip(&String::from_utf8_lossy(&l), 40);
        writeln!(snap, "{shown:?}").unwrap();
        match SanPlus::from_ascii(&l) {
            Ok(san) => {
                let printed = san.to_string_with(DropStyle::Letter);
                let again: SanPlus = printed.parse().unwrap();
                assert_eq!(again.san, san.san);
                writeln!(snap, "    san: {printed}").unwrap();
            }
            Err(e) => writeln!(snap, "    san error: {}", clip(&e.to_string(), 120)).unwrap(),
        }
        match UciMove::from_ascii(&l) {
            Ok(uci) => writeln!(snap, "    uci: {uci}").unwrap(),
            Err(e) => writeln!(snap, "    uci error: {e}").unwrap(),
        }
    }
    settings().bind(|| insta::assert_snapshot!("malformed_san", snap));
}

#[test]
fn malformed_archives_are_located_or_accepted() {
    settings().bind(|| {
        insta::glob!(
            "../grammar-tests",
            "malformed/{pgn,bpgn,compressed}/*",
            |path| {
                let p = path.to_str().unwrap();
                let rel = &p[p.find("grammar-tests").unwrap()..];
                let out = Command::new(get_cargo_bin("pocketfen"))
                    .args(["validate", "-j", "1", "--strict", "--variations", rel])
                    .output()
                    .unwrap();
                let stderr = String::from_utf8_lossy(&out.stderr);
                assert!(!stderr.contains("panicked"), "{rel}: {stderr}");
                let stdout = String::from_utf8_lossy(&out.stdout);
                assert!(
                    !stdout.contains(|c: char| c.is_control() && c != '\n'),
                    "{rel}: unescaped control characters in {stdout:?}"
                );
                // The exit code follows from what was said: 2 for a stream that broke, 1
                // for any problem (warnings count under --strict), else 0.
                let expected = if stderr.contains("the stream ends in an error") {
                    2
                } else if stdout
                    .lines()
                    .any(|l| l.contains(": error: ") || l.contains(": warning: "))
                {
                    1
                } else {
                    assert!(stdout.is_empty(), "{rel}: {stdout}");
                    0
                };
                assert_eq!(out.status.code(), Some(expected), "{rel}: {stdout}{stderr}");
                insta::assert_snapshot!(format!(
                    "exit: {:?}\n--- stdout\n{}--- stderr\n{}",
                    out.status.code(),
                    String::from_utf8_lossy(&out.stdout),
                    stderr
                ));
            }
        );
    });
}

/// Validates and converts a generated archive; the summary of each game's report.
fn run(bytes: &[u8], opts: &Options) -> String {
    let mut out = String::new();
    let mut games = 0;
    for game in GameSplitter::new(bytes) {
        let game = game.unwrap();
        games += 1;
        let report = validate_game(&game, opts);
        let converted = matches!(
            convert_game(&game, &Rewrite::to(Target::Lichess), opts),
            Converted::Game(..)
        );
        if games <= 3 {
            describe(&mut out, &report, converted);
        }
    }
    writeln!(out, "{games} games").unwrap();
    out
}

fn describe(out: &mut String, r: &GameReport, converted: bool) {
    writeln!(
        out,
        "game {} (line {}): {} plies, {}, converts: {converted}",
        r.number,
        r.line,
        r.plies,
        r.status.name()
    )
    .unwrap();
    for p in &r.problems {
        writeln!(
            out,
            "  {}:{}: {} ({}): {}",
            p.line,
            p.column,
            p.kind,
            clip(p.token.as_deref().unwrap_or(""), 50),
            clip(&p.reason, 120)
        )
        .unwrap();
    }
}

/// The generated inputs, each with what pocketfen says about it.
fn generated() -> Vec<(&'static str, Vec<u8>)> {
    let game = |tags: &str, movetext: &str| format!("{tags}\n\n{movetext}\n\n").into_bytes();
    let shuffle = "Nf3 Nf6 Ng1 Ng8 ";
    vec![
        (
            // One long line is read once, not again after each refill.
            "one 5 MB line of comment",
            game(
                "[Event \"long line\"]",
                &format!("1. e4 {{{}}} e5 *", "a".repeat(5 << 20)),
            ),
        ),
        (
            "a 10 MB tag value",
            game(
                &format!("[Event \"{}\"]", "x".repeat(10 << 20)),
                "1. e4 e5 *",
            ),
        ),
        (
            "100 k nested variations",
            game(
                "[Event \"deep\"]",
                &format!(
                    "1. e4 {} e5 *",
                    "(1. d4 ".repeat(100_000) + &")".repeat(100_000)
                ),
            ),
        ),
        (
            "100 k comments",
            game(
                "[Event \"comments\"]",
                &format!("1. e4 {}e5 *", "{ a comment } ".repeat(100_000)),
            ),
        ),
        (
            "a game of 50 k plies",
            game(
                "[Event \"long\"]\n[Variant \"crazyhouse\"]",
                &format!("{}*", shuffle.repeat(12_500)),
            ),
        ),
        (
            "a 1 MB token",
            game(
                "[Event \"token\"]",
                &format!("1. {} *", "N".repeat(1 << 20)),
            ),
        ),
        (
            "1 MB of `(`",
            game(
                "[Event \"parens\"]",
                &format!("1. e4 {}", "(".repeat(1 << 20)),
            ),
        ),
        (
            "1 MB of `{`",
            game(
                "[Event \"braces\"]",
                &format!("1. e4 {}", "{".repeat(1 << 20)),
            ),
        ),
        (
            "100 k one-move games",
            game("[Event \"short\"]", "1. e4 *").repeat(100_000),
        ),
        (
            "a 1000-piece pocket in a FEN tag",
            game(
                &format!(
                    "[Variant \"crazyhouse\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[{}] w KQkq - 0 1\"]",
                    "Q".repeat(1000)
                ),
                "1. Q@e3 *",
            ),
        ),
    ]
}

#[test]
fn huge_generated_inputs_are_located_or_accepted() {
    let mut snap = String::new();
    for (name, bytes) in generated() {
        writeln!(snap, "== {name} ({} bytes)", bytes.len()).unwrap();
        snap.push_str(&run(&bytes, &Options::default()));
        if name.contains("variations") {
            let opts = Options {
                variations: true,
                ..Options::default()
            };
            writeln!(snap, "-- with --variations").unwrap();
            snap.push_str(&run(&bytes, &opts));
        }
    }
    settings().bind(|| insta::assert_snapshot!("malformed_generated", snap));
}

/// The CPU seconds (user and system) that `pocketfen args` takes and its peak resident
/// memory in KB, the least of three runs each; a run is killed and the test fails past
/// `limit` seconds.
#[cfg(unix)]
#[allow(clippy::zombie_processes, reason = "wait4 reaps the child")]
fn cpu_and_memory(args: &[&str], limit: u64) -> (f64, i64) {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let (mut best, mut rss) = (f64::MAX, i64::MAX);
    for _ in 0..3 {
        let child = common::pocketfen(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let pid = child.id() as libc::pid_t;
        let done = Arc::new(AtomicBool::new(false));
        let watch = {
            let done = Arc::clone(&done);
            std::thread::spawn(move || {
                let start = std::time::Instant::now();
                while !done.load(Ordering::SeqCst) {
                    if start.elapsed().as_secs() >= limit {
                        // SAFETY: signals the child, which is not yet reaped.
                        unsafe { libc::kill(pid, libc::SIGKILL) };
                        return true;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                false
            })
        };
        let mut status = 0;
        // SAFETY: a zeroed rusage is valid; wait4 reaps the child and fills it.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        done.store(true, Ordering::SeqCst);
        assert_eq!(reaped, pid);
        assert!(!watch.join().unwrap(), "{args:?} took over {limit} s");
        let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
        best = best.min(secs(usage.ru_utime) + secs(usage.ru_stime));
        rss = rss.min(usage.ru_maxrss);
    }
    (best, rss)
}

/// A tag section of many lines with a brace on a line now and then (a comment among the
/// tags) is split about as fast as one without: the splitter's runs of tag lines stop at
/// such a line and go on after it, and never look again at the lines before it. (When a
/// brace anywhere in a run turned the whole run down, every line before it started a run
/// of its own again: 0.10 s for 1 MB against nothing.)
#[cfg(unix)]
#[test]
fn tag_lines_with_braces_among_them_split_as_fast_as_without() {
    let dir = common::scratch_dir("braces");
    let section = |brace_every: usize| {
        let mut s = String::new();
        let mut i = 0;
        while s.len() < 16 << 20 {
            if i % brace_every == brace_every - 1 {
                writeln!(s, "[B{i} \"v\"] {{c}}").unwrap();
            } else {
                writeln!(s, "[T{i} \"v\"]").unwrap();
            }
            i += 1;
        }
        s.push_str("\n1. e4 *\n");
        s
    };
    let mut times = Vec::new();
    // A brace every 20,000 lines (about 250 KB, the splitter's block), and none.
    for brace_every in [20_000, usize::MAX] {
        let path = dir.join("braces.pgn");
        fs::write(&path, section(brace_every)).unwrap();
        let path = path.to_str().unwrap();
        times.push(cpu_and_memory(&["validate", "-q", "-j", "1", path], 120).0);
    }
    eprintln!("with braces {:.3} s, without {:.3} s", times[0], times[1]);
    assert!(
        times[0] < 4.0 * times[1] + 0.1,
        "with braces {:.3} s, without {:.3} s",
        times[0],
        times[1]
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// Shapes of input that once took quadratic time: the time of an input four times as
/// large is about four times as much (linear), never sixteen times (quadratic). Time is
/// counted as the child's CPU time, so that other tests running beside it change little.
#[cfg(unix)]
#[test]
fn hostile_shapes_take_linear_time() {
    let dir = common::scratch_dir("linear");
    // Each shape gives an input of about `n` bytes.
    type Shape = (&'static str, fn(usize) -> Vec<u8>, usize);
    let shapes: [Shape; 4] = [
        (
            "tag lines, each after a blank line, and no movetext",
            |n| {
                let mut s = String::new();
                while s.len() < n {
                    write!(s, "[T{} \"v\"]\n\n", s.len()).unwrap();
                }
                s.into_bytes()
            },
            4 << 20,
        ),
        (
            "one line of spaces, over the size limit",
            |n| vec![b' '; n],
            64 << 20,
        ),
        (
            "blank lines after a game",
            |n| {
                let mut s = b"[Event \"e\"]\n\n1. e4 *\n".to_vec();
                s.resize(n, b'\n');
                s
            },
            8 << 20,
        ),
        (
            "a line of spaces after a game's movetext",
            |n| {
                let mut s = b"[Event \"e\"]\n\n1. e4 *\n\n[Event \"f\"]\n\n1. d4".to_vec();
                s.resize(n, b' ');
                s
            },
            64 << 20,
        ),
    ];
    for (name, make, n) in shapes {
        let mut times = Vec::new();
        for size in [n, 4 * n] {
            let path = dir.join("shape.pgn");
            fs::write(&path, make(size)).unwrap();
            let path = path.to_str().unwrap();
            times.push(cpu_and_memory(&["validate", "-q", "-j", "1", path], 120).0);
        }
        // Linear work gives 4 (the instruction counts grow with the size), quadratic 16;
        // a larger input's caches miss more, so its time runs above 4 (about 5 for the
        // tag lines, whose names fill a hash set), and a busy machine adds noise (up to
        // 1.5 × seen at twice the size): the line is drawn at 10, far from both.
        let ratio = times[1] / times[0].max(0.005);
        eprintln!("{name}: {:.3} s, {:.3} s", times[0], times[1]);
        assert!(
            ratio < 10.0,
            "{name}: {:.3} s for {n} bytes, {:.3} s for four times as many ({ratio:.2} ×)",
            times[0],
            times[1]
        );
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// A stop (SIGINT, SIGTERM) is honoured inside a game too: a FIFO that
/// never ends one hostile game is read until the signal, then the run ends within a
/// second, its summary `interrupted`.
#[cfg(unix)]
#[test]
fn a_stop_is_honoured_inside_an_endless_game() {
    let dir = common::scratch_dir("stop-inside");
    for (name, piece) in [
        ("spaces", &b"        "[..]),
        (
            "tag lines after blank lines",
            &b"[Name \"v\"]\n\n[Other \"w\"]\n\n"[..],
        ),
    ] {
        let fifo = dir.join("endless.pgn");
        let _ = fs::remove_file(&fifo);
        let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let writer = {
            let fifo = fifo.clone();
            let piece = piece.repeat(8192);
            std::thread::spawn(move || {
                let mut f = fs::OpenOptions::new().write(true).open(fifo).unwrap();
                // Until the reader goes (EPIPE).
                while f.write_all(&piece).is_ok() {}
            })
        };
        let mut child = common::pocketfen(&[
            "validate",
            "-j",
            "1",
            "--max-game-bytes",
            "1000000000000",
            fifo.to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(1500));
        common::interrupt(&child);
        let signalled = std::time::Instant::now();
        let mut ended = None;
        while signalled.elapsed().as_secs() < 10 {
            if let Some(status) = child.try_wait().unwrap() {
                ended = Some((status, signalled.elapsed()));
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let Some((status, took)) = ended else {
            let _ = child.kill();
            let _ = child.wait();
            writer.join().unwrap();
            panic!("{name}: the run went on 10 s after SIGINT");
        };
        let mut stderr = String::new();
        std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
        writer.join().unwrap();
        assert!(took.as_secs_f64() < 1.0, "{name}: {took:?} after SIGINT");
        assert_eq!(status.code(), Some(130), "{name}: {stderr}");
        assert!(stderr.contains("interrupted"), "{name}: {stderr}");
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// `validate --html` holds what its cards show, not the games they are drawn from (issue
/// 33.3): a game of 1.4 million plies with one problem costs about as much memory with
/// the report as without (it held about 135 bytes a ply: 197 MB against 22 MB).
#[cfg(unix)]
#[test]
fn a_report_card_costs_the_same_however_long_its_game() {
    let dir = common::scratch_dir("card-memory");
    let mut game = String::from("[Event \"long\"]\n[Result \"*\"]\n\n");
    let cycles = 350_000;
    for i in 0..cycles {
        write!(game, "{}. Nf3 Nf6 {}. Ng1 Ng8 ", 2 * i + 1, 2 * i + 2).unwrap();
    }
    writeln!(game, "{}. Qh5 *", 2 * cycles + 1).unwrap();
    let path = dir.join("long.pgn");
    fs::write(&path, &game).unwrap();
    let html = dir.join("report.html");
    let path = path.to_str().unwrap();
    let (_, plain) = cpu_and_memory(&["validate", "-q", "-j", "1", path], 120);
    let (_, report) = cpu_and_memory(
        &[
            "validate",
            "-q",
            "-j",
            "1",
            "--html",
            html.to_str().unwrap(),
            path,
        ],
        120,
    );
    // The card is there, with the moves just before its problem and the earlier ones
    // counted.
    let page = fs::read_to_string(&html).unwrap();
    assert!(page.contains("no white queen can reach h5"), "no card");
    assert!(
        page.contains("(1399960 earlier moves)") && page.contains("700000. Ng1 Ng8"),
        "the card's moves"
    );
    assert!(
        report < plain + 16 * 1024,
        "{report} KB with --html against {plain} KB without"
    );
    fs::remove_dir_all(&dir).unwrap();
}
