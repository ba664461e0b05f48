//! The command line behaves as the tools its users live in do (ripgrep, grep,
//! pgn-extract): live and interruptible, input as people paste it, outputs that cannot
//! hurt, and a manual. Every test drives the binary; where a terminal matters it runs in
//! a pseudo-terminal (`script`, util-linux).

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use insta_cmd::get_cargo_bin;

fn bin() -> PathBuf {
    get_cargo_bin("pocketfen")
}

mod common;

use common::{pocketfen as cmd, run, text};

fn run_in(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = cmd(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn scratch_dir(name: &str) -> PathBuf {
    common::scratch_dir(&format!("conventions-{name}"))
}

const SAMPLE: &str = "samples/lichess_standard_2025-05_sample438.pgn";
const ZH: &str = "samples/lichess_zh_2018_JannLee-CrazyAra.pgn";
const ILLEGAL: &str = "grammar-tests/pgn/err/illegal-drop.pgn";
const FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// `n` small games, the `k`-th of every `every` with an illegal move (`Qh5` from the
/// start position), each game's Event naming its number.
fn games(n: usize, every: usize) -> String {
    let mut s = String::new();
    for i in 1..=n {
        let moves = if every > 0 && i % every == 0 {
            "1. e4 e5 2. Qh6 *"
        } else {
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *"
        };
        s.push_str(&format!("[Event \"g{i}\"]\n[Result \"*\"]\n\n{moves}\n\n"));
    }
    s
}

/// The lines of `reader`, as they come, read on a thread.
fn lines_of(reader: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = BufReader::new(reader);
        loop {
            let mut line = String::new();
            match lines.read_line(&mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) => {
                    if tx.send(line).is_err() {
                        return;
                    }
                }
            }
        }
    });
    rx
}

/// The next line on `rx`, waiting up to 30 s.
fn next_line(rx: &mpsc::Receiver<String>) -> Option<String> {
    rx.recv_timeout(Duration::from_secs(30)).ok()
}

/// Runs `command` (a shell command line) in a pseudo-terminal: stdin, stdout and stderr
/// are the terminal, whose output (both streams, as a person sees them) is piped back.
fn in_terminal(command: &str) -> Child {
    Command::new("script")
        .args(["-q", "-e", "-c", command, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("script (util-linux) runs a command in a pseudo-terminal")
}

/// `pocketfen ARGS` with stdin and stdout piped: the child, its stdin, and its output
/// line by line.
fn coprocess(args: &[&str]) -> (Child, std::process::ChildStdin, mpsc::Receiver<String>) {
    let mut child = cmd(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let rx = lines_of(child.stdout.take().unwrap());
    (child, stdin, rx)
}

/// Whether `command` run in a pseudo-terminal answers `typed` with a line holding
/// `want` while its input is still open (the terminal echoes what is typed first).
fn answers_in_terminal(command: &str, typed: &[u8], want: &str) -> bool {
    let mut child = in_terminal(command);
    let mut stdin = child.stdin.take().unwrap();
    let rx = lines_of(child.stdout.take().unwrap());
    stdin.write_all(typed).unwrap();
    stdin.flush().unwrap();
    let mut answered = false;
    while let Some(line) = next_line(&rx) {
        if line.contains(want) {
            answered = true;
            break;
        }
    }
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    answered
}

fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// 26.1: in a terminal, `fen convert` answers each line as it is typed, before the input
/// ends: it can serve as a coprocess. `--line-buffered` does the same into a pipe.
#[test]
fn fen_convert_answers_each_line_at_once() {
    if !have("script") {
        eprintln!("skipped: no `script` to make a pseudo-terminal");
        return;
    }
    let command = format!("{} fen convert --to xboard", bin().display());
    // The answer comes while stdin is still open.
    assert!(
        answers_in_terminal(
            &command,
            b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1\n",
            "RNBQKBNR[-] w KQkq - 0 1"
        ),
        "no answer before the end of the input"
    );

    // Into a pipe, with --line-buffered: the same, line by line.
    let (mut child, mut stdin, rx) =
        coprocess(&["fen", "convert", "--to", "lichess", "--line-buffered"]);
    for (fen, want) in [
        (
            "8/8/8/4k3/8/8/8/4K3[Pp] w - - 0 1",
            "8/8/8/4k3/8/8/8/4K3/Pp w - - 0 1\n",
        ),
        (
            "8/8/8/4k3/8/8/8/4K3[Qq] b - - 0 1",
            "8/8/8/4k3/8/8/8/4K3/Qq b - - 0 1\n",
        ),
    ] {
        writeln!(stdin, "{fen}").unwrap();
        stdin.flush().unwrap();
        assert_eq!(next_line(&rx).as_deref(), Some(want));
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

/// `opening`, `legal` and `perft` answer each line of a pipe at once with
/// `--line-buffered` (as coprocesses; before, they had no such option and answered at the
/// end of the input), and in a terminal by themselves; `opening -` reads stdin.
#[test]
fn opening_legal_and_perft_answer_each_line_at_once() {
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    for (args, asks) in [
        (
            vec!["opening", "--line-buffered", "-"],
            [("e4 e5 Nf3", "C40\t"), ("d4 d5", "D00\t")],
        ),
        (
            vec!["perft", "1", "--line-buffered", "-"],
            [(after_e4, "20\n"), ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "5\n")],
        ),
    ] {
        let (mut child, mut stdin, rx) = coprocess(&args);
        for (ask, want) in asks {
            writeln!(stdin, "{ask}").unwrap();
            stdin.flush().unwrap();
            let got = next_line(&rx).unwrap_or_default();
            assert!(got.starts_with(want), "{args:?} {ask}: {got:?}");
        }
        drop(stdin);
        assert!(child.wait().unwrap().success(), "{args:?}");
    }
    // legal: a position's moves, then the empty line before the next one's.
    let (mut child, mut stdin, rx) = coprocess(&["legal", "--line-buffered", "-"]);
    writeln!(stdin, "7k/8/8/8/8/8/8/K7 w - - 0 1").unwrap();
    stdin.flush().unwrap();
    let moves: Vec<String> = (0..3).filter_map(|_| next_line(&rx)).collect();
    assert_eq!(moves, ["Ka2\n", "Kb1\n", "Kb2\n"]);
    drop(stdin);
    assert!(child.wait().unwrap().success());
    if have("script") {
        let command = format!("{} opening", bin().display());
        assert!(
            answers_in_terminal(&command, b"e4 e5 Nf3\n", "C40"),
            "no answer in a terminal before the end of the input"
        );
    }
}

/// 26.1: `validate --line-buffered` prints a problem as soon as its game is read, while
/// the input is still coming; `moves` answers each move typed in a terminal.
#[test]
fn problems_appear_when_found() {
    let mut child = cmd(&["validate", "-j", "1", "--line-buffered", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let rx = lines_of(child.stdout.take().unwrap());
    // A bad game, then the start of the next (which ends the first).
    stdin
        .write_all(games(1, 1).as_bytes())
        .and_then(|()| stdin.write_all(b"[Event \"next\"]\n"))
        .unwrap();
    stdin.flush().unwrap();
    let line = next_line(&rx).expect("the problem before the end of the input");
    assert!(line.contains("<stdin>:4:13: game 1, ply 3 (Qh6)"), "{line}");
    drop(stdin);
    let _ = child.wait();

    if !have("script") {
        return;
    }
    let command = format!("{} moves --variant crazyhouse", bin().display());
    let mut child = in_terminal(&command);
    let mut stdin = child.stdin.take().unwrap();
    let rx = lines_of(child.stdout.take().unwrap());
    stdin.write_all(b"1. e4 d5 2. exd5\n").unwrap();
    stdin.flush().unwrap();
    let mut seen = Vec::new();
    while let Some(line) = next_line(&rx) {
        seen.push(line.trim().to_owned());
        if seen.iter().any(|l| l == "exd5") {
            break;
        }
    }
    assert!(seen.iter().any(|l| l == "exd5"), "{seen:?}");
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
}

/// A file of `copies` copies of the standard sample, an illegal game every 200 games.
fn big_archive(dir: &Path, copies: usize) -> PathBuf {
    let sample = fs::read_to_string(SAMPLE).unwrap();
    let path = dir.join("big.pgn");
    let mut f = std::io::BufWriter::new(fs::File::create(&path).unwrap());
    for _ in 0..copies {
        f.write_all(sample.as_bytes()).unwrap();
        f.write_all(games(1, 1).as_bytes()).unwrap();
    }
    f.flush().unwrap();
    path
}

/// 26.2: in a terminal, the progress line is cleared before a problem is printed and
/// drawn again after: no line a person sees holds both; a compressed file's progress
/// gives its share and time left too.
#[test]
fn the_progress_line_never_collides() {
    if !have("script") {
        eprintln!("skipped: no `script` to make a pseudo-terminal");
        return;
    }
    let dir = scratch_dir("progress");
    let plain = big_archive(&dir, 120);
    let zst = dir.join("big.pgn.zst");
    let bytes = fs::read(&plain).unwrap();
    fs::write(&zst, zstd::encode_all(&bytes[..], 1).unwrap()).unwrap();
    for path in [&plain, &zst] {
        // Drawn after every block: the run may take under the 250 ms before a first draw.
        let command = format!(
            "POCKETFEN_PROGRESS_MS=0 {} validate -j 2 {}",
            bin().display(),
            path.display()
        );
        let out = in_terminal(&command).wait_with_output().unwrap();
        let screen = text(&out.stdout);
        // What each line of the terminal shows at the end: the text after its last CR.
        let shown: Vec<&str> = screen
            .split('\n')
            .map(|l| {
                let l = l.trim_end_matches('\r');
                l.rsplit('\r').next().unwrap_or(l)
            })
            .collect();
        let problems = shown.iter().filter(|l| l.contains("(Qh6)")).count();
        assert_eq!(problems, 120, "{}: {screen:.2000}", path.display());
        for line in &shown {
            assert!(
                !(line.contains("MB/s") && line.contains("game ")),
                "a progress line and a problem on one line: {line:?}"
            );
        }
        // Every problem starts at the line's start, the progress line wiped away before.
        for raw in screen.split('\n').filter(|l| l.contains("(Qh6)")) {
            let after = raw.trim_end_matches('\r').rsplit('\r').next().unwrap();
            assert!(after.starts_with(&*path.to_string_lossy()), "{raw:?}");
        }
        // The progress line was drawn, with its share.
        let progress: Vec<&str> = screen
            .split(['\r', '\n'])
            .filter(|l| l.contains("MB/s"))
            .collect();
        assert!(
            progress.iter().any(|l| l.contains(" %, ETA ")),
            "{}: no share and ETA in {progress:?}",
            path.display()
        );
        assert!(shown.last().is_some_and(|l| !l.contains("MB/s")));
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// What an interrupted run printed: its exit code, stdout and stderr.
struct Stopped {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// 300 games (every third illegal) and the start of one more on a pipe that stays open,
/// so that the run waits on it; once it has printed a line (on stderr when `on_stderr`),
/// `signal` stops it.
fn interrupted(args: &[&str], on_stderr: bool, signal: &str) -> Stopped {
    interrupted_on(args, on_stderr, signal, &games(300, 3))
}

/// [`interrupted`] with `input` before the game that never ends.
fn interrupted_on(args: &[&str], on_stderr: bool, signal: &str, input: &str) -> Stopped {
    let mut child = cmd(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let out = lines_of(child.stdout.take().unwrap());
    let err = lines_of(child.stderr.take().unwrap());
    stdin.write_all(input.as_bytes()).unwrap();
    // The start of one more game: the last whole one has ended, this one never will.
    stdin
        .write_all(b"[Event \"cut\"]\n[Result \"*\"]\n\n1. e4")
        .unwrap();
    stdin.flush().unwrap();
    // The run is under way (its signal handler in place) once it has printed a line.
    let Some(first) = next_line(if on_stderr { &err } else { &out }) else {
        let _ = child.kill();
        let said: String = err.try_iter().collect();
        panic!("{args:?}: no first line; stderr: {said}");
    };
    let killed = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    drop(stdin);
    let mut stopped = Stopped {
        code: status.code(),
        stdout: String::new(),
        stderr: String::new(),
    };
    if on_stderr {
        stopped.stderr.push_str(&first);
    } else {
        stopped.stdout.push_str(&first);
    }
    stopped.stdout.extend(out.iter());
    stopped.stderr.extend(err.iter());
    stopped
}

/// 26.3: SIGINT or SIGTERM stops a run with every record found, and a summary marked
/// incomplete; exit 130 or 143. The HTML report is still written; `-o` is untouched.
#[cfg(unix)]
#[test]
fn an_interrupted_run_keeps_what_it_found() {
    let bad: Vec<u64> = (1..=100).map(|i| 3 * i).collect();
    for jobs in ["1", "2"] {
        let out = interrupted(
            &["validate", "--json", "--line-buffered", "-j", jobs, "-"],
            false,
            "INT",
        );
        assert_eq!(out.code, Some(130), "-j {jobs}: {}", out.stderr);
        let records: Vec<serde_json::Value> = out
            .stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let games: Vec<u64> = records
            .iter()
            .filter(|r| r["type"] == "game")
            .map(|r| r["game"].as_u64().unwrap())
            .collect();
        let summary = records.last().unwrap();
        assert_eq!(summary["type"], "summary");
        // The games read before the stop, each reported: every third one is bad.
        let read = summary["games"].as_u64().unwrap();
        // The game being read at the stop ends there (the cut one, the 301st, too).
        assert!((3..=301).contains(&read), "{summary}");
        let expected: Vec<u64> = bad.iter().copied().filter(|&g| g <= read).collect();
        assert_eq!(games, expected, "-j {jobs}");
        assert_eq!(summary["complete"], false);
        assert_eq!(summary["interrupted"], true);
        assert!(summary.get("stream_error").is_none(), "{summary}");

        let out = interrupted(
            &["validate", "--line-buffered", "-j", jobs, "-"],
            false,
            "TERM",
        );
        assert_eq!(out.code, Some(143));
        let said = out
            .stderr
            .lines()
            .find_map(|l| l.strip_prefix("pocketfen: <stdin>: interrupted: "))
            .unwrap_or_else(|| panic!("{}", out.stderr));
        let read: usize = said.split(' ').next().unwrap().parse().unwrap();
        assert_eq!(out.stdout.lines().count(), read / 3, "{said}");
    }
    // pgn fix: the repairs found before the stop, each a whole record, and its summary.
    let out = interrupted(&["pgn", "fix", "--json", "--dry-run", "-"], false, "INT");
    assert_eq!(out.code, Some(130), "{}", out.stderr);
    let records: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let summary = records.last().unwrap();
    assert_eq!(
        (&summary["type"], &summary["complete"]),
        (&"summary".into(), &false.into())
    );
    let read = summary["games"].as_u64().unwrap();
    let unrepaired = records.iter().filter(|r| r["type"] == "unrepaired").count();
    assert_eq!(unrepaired as u64, read / 3, "{summary}");
    // The report of an interrupted run says what was found; -o is left as it was.
    let dir = scratch_dir("interrupt");
    let html = dir.join("r.html");
    let out = interrupted(
        &[
            "validate",
            "--line-buffered",
            "--html",
            html.to_str().unwrap(),
            "-",
        ],
        false,
        "INT",
    );
    assert_eq!(out.code, Some(130));
    let page = fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("Qh6") && page.contains("interrupted"),
        "the cards and the note"
    );
    let dest = dir.join("out.pgn");
    fs::write(&dest, "before\n").unwrap();
    let out = interrupted(
        &[
            "pgn",
            "convert",
            "--to",
            "lichess",
            "-o",
            dest.to_str().unwrap(),
            "-",
        ],
        true,
        "INT",
    );
    assert_eq!(out.code, Some(130));
    assert!(out.stderr.contains("not written"), "{}", out.stderr);
    assert_eq!(fs::read_to_string(&dest).unwrap(), "before\n");
    // select, dedupe and fix say so too: the counts they gave are of games read, and
    // no file holds them (their other games go to stdout, whose first line, once its
    // buffer fills, says the run is under way).
    let runs: [&[&str]; 3] = [
        &["pgn", "select", "--result", "1-0", "--rest", "-", "-o"],
        &[
            "pgn",
            "dedupe",
            "-o",
            "-",
            "--by",
            "moves-and-tags",
            "--duplicates",
        ],
        &["pgn", "fix", "-o", "-", "--rest"],
    ];
    let many = games(3000, 3);
    for args in runs {
        let mut args = args.to_vec();
        args.extend([dest.to_str().unwrap(), "-"]);
        let out = interrupted_on(&args, false, "INT", &many);
        assert_eq!(out.code, Some(130), "{args:?}: {}", out.stderr);
        let said = format!("interrupted; {} not written", dest.display());
        assert!(out.stderr.contains(&said), "{args:?}: {}", out.stderr);
        assert_eq!(fs::read_to_string(&dest).unwrap(), "before\n");
    }
    let left: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 2, "a temporary file left behind: {left:?}");
    fs::remove_dir_all(&dir).unwrap();
}

/// 26.4: `-q` leaves only the problems; "1 game"; several files get a grand total; the
/// output is the same from run to run, times appearing only with `--timings`.
#[test]
fn quiet_totals_and_reproducible_output() {
    let q = run(&["validate", "-q", ILLEGAL, ZH]);
    assert_eq!(q.status.code(), Some(1));
    assert!(q.stderr.is_empty(), "{}", text(&q.stderr));
    assert_eq!(text(&q.stdout).lines().count(), 1);

    let out = run(&["validate", ILLEGAL, ZH]);
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!(
            "{ZH}: 1 game, 73 plies, 0 illegal, 0 unreadable, 0 warnings\n"
        )),
        "{err}"
    );
    assert!(
        err.ends_with("total: 2 files, 2 games, 77 plies, 1 illegal, 0 unreadable, 0 warnings\n"),
        "{err}"
    );
    let again = run(&["validate", ILLEGAL, ZH]);
    assert_eq!((again.stdout, again.stderr), (out.stdout, out.stderr));
    let json = |args: &[&str]| {
        let o = run(args);
        text(&o.stdout)
    };
    let a = json(&["validate", "--json", "--all", ILLEGAL, ZH]);
    assert_eq!(a, json(&["validate", "--json", "--all", ILLEGAL, ZH]));
    assert!(!a.contains("seconds"));
    let total: serde_json::Value = serde_json::from_str(a.lines().last().unwrap()).unwrap();
    assert_eq!(
        (total["type"].as_str(), total["files"].as_u64()),
        (Some("total"), Some(2))
    );
    assert_eq!(total["version"], 2);

    let timed = run(&["validate", "--timings", ZH]);
    let err = text(&timed.stderr);
    assert!(
        err.contains(" s, ") && err.contains(" games/s, ") && err.contains(" MB/s"),
        "{err}"
    );
    let timed = json(&["validate", "--json", "--timings", ILLEGAL, ZH]);
    for line in timed.lines().filter(|l| !l.contains("\"type\":\"game\"")) {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(r["seconds"].as_f64().is_some(), "{line}");
    }
    // The HTML report: a time column only with --timings.
    let dir = scratch_dir("timings");
    let html = dir.join("r.html");
    for (flag, has) in [(None, false), (Some("--timings"), true)] {
        let mut args = vec!["validate", "-q", "--html", html.to_str().unwrap(), ILLEGAL];
        args.extend(flag);
        run(&args);
        assert_eq!(
            fs::read_to_string(&html).unwrap().contains("<th>time</th>"),
            has
        );
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// 26.5: `fen convert -` and `fen check -` read stdin; an unquoted FEN gets one error;
/// a Lichess analysis URL and a `[FEN]` tag line are read as their FEN.
#[test]
fn fens_as_people_paste_them() {
    let out = run_in(
        &["fen", "convert", "--to", "xboard", "-"],
        b"8/8/8/4k3/8/8/8/4K3/Pp w - - 0 1\n",
    );
    assert_eq!(text(&out.stdout), "8/8/8/4k3/8/8/8/4K3[Pp] w - - 0 1\n");
    let out = run_in(
        &["fen", "check", "-"],
        b"8/8/8/4k3/8/8/8/4K3/Pp w - - 0 1\n",
    );
    assert_eq!(text(&out.stdout), "line 1: ok: crazyhouse\n");

    let mut args = vec!["fen", "convert", "--to", "xboard"];
    args.extend(FEN.split(' '));
    for cmdline in [
        args.clone(),
        [&["fen", "check"][..], &FEN.split(' ').collect::<Vec<_>>()].concat(),
        [&["fen", "show"][..], &FEN.split(' ').collect::<Vec<_>>()].concat(),
        [
            &["perft", "1", "--fen"][..],
            &FEN.split(' ').collect::<Vec<_>>(),
        ]
        .concat(),
    ] {
        let out = run(&cmdline);
        assert_eq!(out.status.code(), Some(2), "{cmdline:?}");
        let err = text(&out.stderr);
        assert_eq!(err.lines().count(), 1, "one error: {err}");
        assert!(
            err.contains("quote it") && err.contains(&format!("'{FEN}'")),
            "{err}"
        );
        assert!(out.stdout.is_empty());
    }

    let cases = [
        // lila#16886: the path says crazyhouse, so the FEN without a pocket gets one.
        (
            "https://lichess.org/analysis/crazyhouse/rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR_w_KQkq_-_0_2",
            "rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR[-] w KQkq - 0 2",
        ),
        (
            "lichess.org/analysis/standard/rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR%20w%20KQkq%20-%200%202?color=black#3",
            "rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        ),
        (
            "https://en.lichess.org/analysis/8/8/8/4k3/8/8/8/4K3/Qp_b_-_-_3_40",
            "8/8/8/4k3/8/8/8/4K3[Qp] b - - 3 40",
        ),
        (
            r#"[FEN "8/8/8/4k3/8/8/8/4K3/Qp b - - 3 40"]"#,
            "8/8/8/4k3/8/8/8/4K3[Qp] b - - 3 40",
        ),
    ];
    for (pasted, want) in cases {
        let out = run(&["fen", "convert", "--to", "xboard", pasted]);
        assert_eq!(
            text(&out.stdout),
            format!("{want}\n"),
            "{pasted}: {}",
            text(&out.stderr)
        );
    }
    // The URL's variant counts for `fen check`, and for `--fen` of `perft`.
    let url = "https://lichess.org/analysis/horde/rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP_w_kq_-_0_1";
    assert_eq!(
        text(&run(&["fen", "check", url]).stdout),
        "line 1: ok: horde\n"
    );
    assert_eq!(text(&run(&["perft", "1", "--fen", url]).stdout), "8\n");
}

/// 26.5: `moves` reads movetext as pasted from a PGN, from the arguments or stdin.
#[test]
fn moves_reads_pasted_movetext() {
    let pasted = "[Event \"x\"]\n1. e4 {best} e5 2.Nf3 $1 Nc6!? (2... d6 3. d4) 3. Bb5 ; Ruy\n3... a6 1/2-1/2\n";
    let want = "e4\ne5\nNf3\nNc6\nBb5\na6\nr1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4\n";
    let out = run_in(&["moves"], pasted.as_bytes());
    assert_eq!(text(&out.stdout), want, "{}", text(&out.stderr));
    let out = run(&["moves", pasted]);
    assert_eq!(text(&out.stdout), want);
    // A token of 4 MB: one error, the token clipped in the message.
    let long = format!("1. e4 {}\n", "x".repeat(4 << 20));
    let out = run_in(&["moves"], long.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.len() < 1000 && err.contains("move 2 (xxxx"),
        "{:.200}",
        err
    );
}

/// 26.6: `fen url --site lichess` writes the analysis URL with the variant in its path;
/// pairs and variants Lichess has no board for are errors; the URL reads back.
#[test]
fn fen_url() {
    let cases = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
            "https://lichess.org/analysis/crazyhouse/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/_w_KQkq_-_0_1",
        ),
        (
            FEN,
            "https://lichess.org/analysis/standard/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR_w_KQkq_-_0_1",
        ),
        (
            "bnrqkbrn/pppppppp/8/8/8/8/PPPPPPPP/BNRQKBRN w GCgc - 0 1",
            "https://lichess.org/analysis/chess960/bnrqkbrn/pppppppp/8/8/8/8/PPPPPPPP/BNRQKBRN_w_GCgc_-_0_1",
        ),
        (
            "r2q1rk1/ppp2ppp/5p2/b7/8/P1NPB2b/1PP1QP1P/R3R1K1 b - - 0 16 NNPPbnp",
            "https://lichess.org/analysis/crazyhouse/r2q1rk1/ppp2ppp/5p2/b7/8/P1NPB2b/1PP1QP1P/R3R1K1/PPNNpnb_b_-_-_0_16",
        ),
    ];
    for (fen, url) in cases {
        let out = run(&["fen", "url", "--site", "lichess", fen]);
        assert_eq!(
            text(&out.stdout),
            format!("{url}\n"),
            "{fen}: {}",
            text(&out.stderr)
        );
        // And back: the URL converts to the same position.
        let back = run(&["fen", "convert", "--to", "lichess", url]);
        let direct = run(&["fen", "convert", "--to", "lichess", fen]);
        assert_eq!(text(&back.stdout), text(&direct.stdout), "{url}");
    }
    let out = run(&["fen", "url", &format!("{FEN} | {FEN}")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no bughouse board"));
    let out = run(&["fen", "url", "--variant", "loop", FEN]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no loop board"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["fen", "url", "--json", FEN]);
    let r: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    assert_eq!(r["type"], "url");
    // JSON errors: a FEN that does not parse as `fen convert` and `fen check` write it
    // (an object, located), a position Lichess has no board for as `no_board`.
    let out = run(&["fen", "url", "--json", "bad fen", &format!("{FEN} | {FEN}")]);
    assert_eq!(out.status.code(), Some(1));
    let records: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records[0]["type"], "error", "{records:?}");
    assert_eq!(
        (
            &records[0]["error"]["column"],
            &records[0]["error"]["field"]
        ),
        (&2.into(), &"board".into()),
        "{records:?}"
    );
    assert_eq!(records[1]["type"], "no_board", "{records:?}");
    assert!(
        records[1]["reason"]
            .as_str()
            .unwrap()
            .contains("no bughouse board")
    );
}

/// A Lichess URL of a variant pocketfen does not play is refused, located at the
/// variant's name, by every command that reads a pasted FEN (before, atomic and racing
/// kings were read as chess); an error in the FEN of a URL or a `[FEN "…"]` line is
/// located at its column in the line, not in the FEN.
#[test]
fn pasted_lines_refuse_other_variants_and_locate_errors_in_the_line() {
    let racing = "https://lichess.org/analysis/racingKings/8/8/8/8/8/8/krbnNBRK/qrbnNBRQ_w_-_-_0_1";
    for args in [
        vec!["fen", "convert", "--to", "xboard", racing],
        vec!["fen", "check", racing],
        vec!["fen", "url", racing],
        vec!["fen", "show", racing],
        vec!["perft", "1", racing],
        vec!["legal", racing],
    ] {
        let out = run(&args);
        let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert_ne!(out.status.code(), Some(0), "{args:?}: {said}");
        assert!(
            said.contains("column 30")
                && said.contains("a variant pocketfen plays")
                && said.contains("`racingKings`"),
            "{args:?}: {said}"
        );
    }
    for url in [
        "https://lichess.org/analysis/atomic",
        "lichess.org/analysis/notavariant/8/8/8/4k3/8/8/8/4K3_w_-_-_0_1",
    ] {
        let out = run(&["fen", "check", url]);
        assert_eq!(out.status.code(), Some(1), "{url}");
        assert!(
            text(&out.stdout).contains("a variant pocketfen plays"),
            "{url}: {}",
            text(&out.stdout)
        );
    }
    // Columns: the stray `~` after the pocket's queen.
    let tag = r#"[FEN "k7/8/8/8/8/8/8/K7/Q~ w - - 0 1"]"#;
    let url = "https://lichess.org/analysis/crazyhouse/k7/8/8/8/8/8/8/K7/Q~_w_-_-_0_1";
    // Past an escape: the text after the last field is told at its `\"`.
    let escaped = r#"  [FEN "k7/8/8/8/8/8/8/K7/Q w - - 0 1 \"x"]"#;
    // A `%xx` that decodes to no UTF-8 (read as `�`), before the error and at it: the
    // columns are still the line's (they were the FEN's).
    let bad_byte = "https://lichess.org/analysis/crazyhouse/k7/8/8/8/8/8/8/K7/Q_w_-_-_0_1_%FFx";
    let bad_before = "lichess.org/analysis/k%FF%FE6/8/8/8/8/8/8/K7_w_-_-_0_1";
    for (line, column) in [
        (tag, tag.find('~').unwrap() + 1),
        (url, url.find('~').unwrap() + 1),
        (escaped, escaped.find('\\').unwrap() + 1),
        (bad_byte, bad_byte.find('%').unwrap() + 1),
        (bad_before, bad_before.find('%').unwrap() + 1),
    ] {
        let out = run(&["fen", "convert", "--json", "--to", "xboard", line]);
        let r: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
        assert_eq!(r["type"], "error", "{line}: {r}");
        assert_eq!(r["error"]["column"], column, "{line}: {r}");
        let out = run(&["fen", "check", line]);
        assert!(
            text(&out.stdout).contains(&format!("column {column}:")),
            "{line}: {}",
            text(&out.stdout)
        );
    }
}

/// 26.7: flag values as users type them.
#[test]
fn flag_values_as_typed() {
    for alias in ["zh", "Crazyhouse", "crazy house", "House"] {
        let out = run(&["validate", "-q", "--variant", alias, ZH]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "--variant {alias}: {}",
            text(&out.stderr)
        );
    }
    let out = run(&["validate", "--json", "-j", "0", ZH]);
    assert_eq!(out.status.code(), Some(0));
    let out = run(&["validate", "-q", "--max-game-bytes", "1K", ZH]);
    assert!(text(&out.stdout).contains("game-too-large"));
    assert_eq!(
        run(&["validate", "-q", "--max-game-bytes", "1M", ZH])
            .status
            .code(),
        Some(0)
    );
    for bad in ["1Q", "M", "0", "99999999999999999999G"] {
        let out = run(&["validate", "--max-game-bytes", bad, ZH]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(text(&out.stderr).contains("--max-game-bytes"), "{bad}");
    }
}

/// 26.8: a directory stands for its archives in sorted order (hidden entries and other
/// files left out); unsupported compressions and binary files are named.
#[test]
fn directories_and_files_that_are_not_pgn() {
    let dir = scratch_dir("walk");
    fs::create_dir_all(dir.join("b")).unwrap();
    fs::create_dir_all(dir.join(".git")).unwrap();
    fs::copy(ILLEGAL, dir.join("b/z.pgn")).unwrap();
    fs::copy(ILLEGAL, dir.join(".git/x.pgn")).unwrap();
    fs::copy(ILLEGAL, dir.join(".hidden.pgn")).unwrap();
    fs::write(dir.join("notes.txt"), "not an archive").unwrap();
    let zh = fs::read(ZH).unwrap();
    fs::write(dir.join("a.PGN.zst"), zstd::encode_all(&zh[..], 3).unwrap()).unwrap();
    fs::copy(
        "grammar-tests/bpgn/err/out-of-turn.bpgn",
        dir.join("c.bpgn"),
    )
    .unwrap();
    let out = run(&["validate", "--json", dir.to_str().unwrap()]);
    let files: Vec<String> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|r| r["type"] == "summary")
        .map(|r| r["file"].as_str().unwrap().to_owned())
        .collect();
    let d = dir.to_str().unwrap();
    assert_eq!(
        files,
        [
            format!("{d}/a.PGN.zst"),
            format!("{d}/b/z.pgn"),
            format!("{d}/c.bpgn")
        ]
    );
    let empty = scratch_dir("empty");
    let out = run(&["validate", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("a directory with no archive in it"));
    // Among other inputs, an empty directory is named and the others are still read, the
    // exit 2 at the end, as for a missing file.
    let e = empty.to_str().unwrap();
    for args in [
        &["validate", "--json", "-q", ILLEGAL, e][..],
        &["validate", "--json", "-q", e, ILLEGAL][..],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let records: Vec<serde_json::Value> = text(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let summary = |file: &str| {
            records
                .iter()
                .find(|r| r["type"] == "summary" && r["file"] == file)
                .unwrap_or_else(|| panic!("no summary of {file}: {records:?}"))
                .clone()
        };
        assert_eq!(summary(e)["complete"], false);
        assert!(
            summary(e)["stream_error"]
                .as_str()
                .unwrap()
                .contains("a directory with no archive in it")
        );
        assert_eq!(summary(ILLEGAL)["complete"], true);
        assert!(summary(ILLEGAL)["games"].as_u64().unwrap() > 0);
        assert!(records.iter().any(|r| r["type"] == "game"), "{args:?}");
        assert_eq!(records.last().unwrap()["complete"], false);
    }

    let cases: [(&str, &[u8], &str); 5] = [
        (
            "d.pgn.xz",
            b"\xfd7zXZ\x00\x00\x04\xe6\xd6\xb4\x46",
            "xz-compressed input is not supported",
        ),
        (
            "d.pgn.lz4",
            b"\x04\x22\x4d\x18\x64\x40\xa7",
            "lz4-compressed input is not supported",
        ),
        (
            "d.zip",
            b"PK\x03\x04\x14\x00\x00\x00",
            "a zip archive is not supported",
        ),
        (
            "d.pgn",
            &[
                0x7f, b'E', b'L', b'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0x3e, 0, 1, 0, 0,
                0,
            ],
            "a binary file",
        ),
        (
            "u.pgn",
            b"\xff\xfe[\x00E\x00v\x00e\x00n\x00t\x00",
            "UTF-16 text is not supported",
        ),
    ];
    for (name, bytes, says) in cases {
        let path = dir.join(name);
        fs::write(&path, bytes).unwrap();
        let out = run(&["validate", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = text(&out.stderr);
        assert!(
            err.contains(&format!("{name}: ")) && err.contains(says),
            "{name}: {err}"
        );
        assert!(out.stdout.is_empty(), "{name}: read as text");
    }
    // A text archive with one stray NUL byte is still read as text.
    let mut damaged = fs::read(ZH).unwrap();
    damaged.insert(200, 0);
    let path = dir.join("nul.pgn");
    fs::write(&path, damaged).unwrap();
    assert!(!text(&run(&["validate", path.to_str().unwrap()]).stderr).contains("binary"));
    fs::remove_dir_all(&dir).unwrap();
    fs::remove_dir_all(&empty).unwrap();
}

/// 26.9: `-o` and `--html` never write onto an input, however it is reached.
#[cfg(unix)]
#[test]
fn outputs_never_destroy_inputs() {
    let dir = scratch_dir("outputs");
    let input = dir.join("in.pgn");
    fs::copy(ZH, &input).unwrap();
    let original = fs::read(&input).unwrap();
    let link = dir.join("link.pgn");
    std::os::unix::fs::symlink(&input, &link).unwrap();
    let hard = dir.join("hard.pgn");
    fs::hard_link(&input, &hard).unwrap();
    let i = input.to_str().unwrap();
    for dest in [&input, &link, &hard] {
        let d = dest.to_str().unwrap();
        for args in [
            vec!["validate", "--html", d, i],
            vec!["validate", "--html", d, ILLEGAL, i],
            vec!["pgn", "convert", "--to", "lichess", "-o", d, i],
        ] {
            let out = run(&args);
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            assert!(
                text(&out.stderr).contains("this is the input"),
                "{}",
                text(&out.stderr)
            );
            assert_eq!(
                fs::read(&input).unwrap(),
                original,
                "{args:?} changed the input"
            );
        }
    }
    // Standard input that is the destination.
    let out = cmd(&["pgn", "convert", "--to", "lichess", "-o", i, "-"])
        .stdin(fs::File::open(&input).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("standard input"));
    assert_eq!(fs::read(&input).unwrap(), original);
    // Another file is written.
    let other = dir.join("out.pgn");
    assert!(
        run(&[
            "pgn",
            "convert",
            "-q",
            "--to",
            "lichess",
            "-o",
            other.to_str().unwrap(),
            i
        ])
        .status
        .success()
    );
    assert!(
        fs::read_to_string(&other)
            .unwrap()
            .contains("[Variant \"Crazyhouse\"]")
    );

    // A file that can be written, in a directory that cannot: written in place (as `>`
    // would). Root writes any directory, so as root the run is made as `nobody`.
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout == b"0\n");
    if root && !have("runuser") {
        eprintln!("skipped the unwritable directory: root, and no runuser to be another user");
    } else {
        use std::os::unix::fs::PermissionsExt;
        let locked = dir.join("locked");
        fs::create_dir(&locked).unwrap();
        let dest = locked.join("out.pgn");
        fs::write(&dest, "").unwrap();
        fs::set_permissions(&dest, fs::Permissions::from_mode(0o666)).unwrap();
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o555)).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
        fs::set_permissions(&input, fs::Permissions::from_mode(0o644)).unwrap();
        let args = [
            "pgn",
            "convert",
            "-q",
            "--to",
            "lichess",
            "-o",
            dest.to_str().unwrap(),
            i,
        ];
        let out = if root {
            Command::new("runuser")
                .args(["-u", "nobody", "--"])
                .arg(bin())
                .args(args)
                .output()
                .unwrap()
        } else {
            run(&args)
        };
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(fs::read_to_string(&dest).unwrap().contains("[Variant"));
        assert_eq!(fs::read_dir(&locked).unwrap().count(), 1);
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// 26.3 for the line-at-a-time commands: Ctrl-C stops `fen convert` at a line, with every
/// line before it written whole, and exit 130.
#[cfg(unix)]
#[test]
fn an_interrupted_fen_convert_keeps_its_lines() {
    let mut child = cmd(&["fen", "convert", "--to", "xboard", "--line-buffered"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let out = lines_of(child.stdout.take().unwrap());
    let line = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1\n";
    stdin.write_all(line.repeat(1000).as_bytes()).unwrap();
    stdin.flush().unwrap();
    next_line(&out).expect("a first line");
    common::interrupt(&child);
    // The input stays open: the stop alone ends the run.
    let status = child.wait().unwrap();
    drop(stdin);
    assert_eq!(status.code(), Some(130));
    let lines: Vec<String> = out.iter().collect();
    assert!(lines.len() < 1001);
    assert!(
        lines
            .iter()
            .all(|l| l == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-] w KQkq - 0 1\n")
    );
}

/// 26.13: the README's install commands work on a fresh `$HOME`: the manual pages land
/// where `man` finds them for a binary `cargo install` put in `~/.cargo/bin`, with no
/// `MANPATH`, and the completions where the shells look.
#[test]
fn the_readme_install_commands_work_on_a_fresh_home() {
    let readme = fs::read_to_string("README.md").unwrap();
    let install = &readme[readme.find("## Install").unwrap()..];
    let block = install.split("```sh\n").nth(2).unwrap();
    let block = &block[..block.find("```").unwrap()];
    assert!(block.contains("pocketfen manpage"), "{block}");
    let home = scratch_dir("home");
    // Where `cargo install` puts the binary, first on PATH as rustup sets it.
    let cargo_bin = home.join(".cargo/bin");
    fs::create_dir_all(&cargo_bin).unwrap();
    fs::copy(bin(), cargo_bin.join("pocketfen")).unwrap();
    let path = format!("{}:/usr/bin:/bin", cargo_bin.display());
    let out = Command::new("sh")
        .args(["-e", "-c", block])
        .env("HOME", &home)
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{block}\n{}", text(&out.stderr));
    let man = home.join(".cargo/share/man/man1/pocketfen-validate.1");
    assert!(man.exists());
    assert!(
        home.join(".local/share/bash-completion/completions/pocketfen")
            .exists()
    );
    assert!(home.join(".zfunc/_pocketfen").exists());
    assert!(
        home.join(".config/fish/completions/pocketfen.fish")
            .exists()
    );
    if have("man") {
        let found = Command::new("man")
            .args(["-w", "pocketfen-validate"])
            .env("HOME", &home)
            .env("PATH", &path)
            .env_remove("MANPATH")
            .output()
            .unwrap();
        assert_eq!(text(&found.stdout).trim(), man.display().to_string());
    }
    fs::remove_dir_all(&home).unwrap();
}

/// A game of `n` plies of knight moves with an illegal move after it.
fn long_game(n: usize) -> String {
    let cycle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let mut s = String::from("[Event \"long\"]\n[Result \"*\"]\n\n");
    for i in 0..n {
        if i % 2 == 0 {
            s.push_str(&format!("{}. ", i / 2 + 1));
        }
        s.push_str(cycle[i % 4]);
        s.push(' ');
    }
    s.push_str(if n.is_multiple_of(2) {
        "Ke3 *\n"
    } else {
        "Ke6 *\n"
    });
    s
}

/// 26.10: a card lists the 40 moves before its problem and counts the earlier ones,
/// however long the game.
#[test]
fn report_cards_stay_small() {
    let dir = scratch_dir("html");
    let mut sizes = Vec::new();
    for n in [100, 400] {
        let pgn = dir.join(format!("g{n}.pgn"));
        fs::write(&pgn, long_game(n)).unwrap();
        let html = dir.join(format!("g{n}.html"));
        run(&[
            "validate",
            "-q",
            "--html",
            html.to_str().unwrap(),
            pgn.to_str().unwrap(),
        ]);
        let page = fs::read_to_string(&html).unwrap();
        let start = page.find("<p class=\"moves\">").expect("a move list");
        let moves = &page[start..start + page[start..].find("</p>").unwrap()];
        assert!(
            moves.contains(&format!("({} earlier moves)", n - 40)),
            "{moves}"
        );
        let sans = moves.split(' ').filter(|w| w.starts_with('N')).count();
        assert_eq!(sans, 40, "{moves}");
        sizes.push(page.len());
    }
    // The page of the game four times as long is the same size but for digits.
    assert!(sizes[1].abs_diff(sizes[0]) < 200, "{sizes:?}");
    fs::remove_dir_all(&dir).unwrap();
}

/// 26.11: `pgn convert` prints what it wrote and left out, keeps `;` comments and never
/// breaks a line inside a `[%…]` command.
#[test]
fn convert_summary_and_comments() {
    let long_cmd = "[%cal Ge2e4,Gd2d4,Gc2c4,Gb2b4,Ga2a4,Gf2f4,Gg2g4,Gh2h4,Ge7e5]";
    let mut input =
        String::from("[Event \"c\"]\n[Result \"*\"]\n\n1. e4 ; a line comment with a } in it\ne5 ");
    for i in 0..30 {
        input.push_str(&format!(
            "{{ [%clk 0:0{}:00] {long_cmd} [%eval 0.{i}] }} ",
            i % 10
        ));
    }
    input.push_str("2. Nf3 *\n\n");
    input.push_str(&games(3, 2));
    let out = run_in(
        &["pgn", "convert", "--to", "lichess", "-"],
        input.as_bytes(),
    );
    let written = text(&out.stdout);
    assert!(
        written.contains("1. e4 { a line comment with a ) in it } 1... e5"),
        "{written}"
    );
    for line in written.lines().filter(|l| !l.starts_with('[')) {
        let opens = line.matches("[%").count();
        let closes = line.matches(']').count();
        assert_eq!(opens, closes, "a command broken across lines: {line:?}");
    }
    assert_eq!(
        text(&out.stderr).lines().last(),
        Some("pocketfen: <stdin>: 3 games written, 1 left out (1 no-such-piece)")
    );
    // A `;` comment before the first move is kept too; a `%` escape line is no comment.
    let before = "[Event \"s\"]\n[Result \"*\"]\n\n; before the moves\n%escaped\n1. e4 *\n";
    let out = run_in(
        &["pgn", "convert", "-q", "--to", "lichess", "-"],
        before.as_bytes(),
    );
    assert!(
        text(&out.stdout).contains("\n{ before the moves } 1. e4 *\n"),
        "{}",
        text(&out.stdout)
    );
    assert!(!text(&out.stdout).contains("escaped"));
    let q = run_in(
        &["pgn", "convert", "-q", "--to", "lichess", "-"],
        input.as_bytes(),
    );
    assert!(!text(&q.stderr).contains("written"));
    // Several files: a total.
    let out = run(&["pgn", "convert", "--to", "xboard", ZH, ILLEGAL]);
    assert!(
        text(&out.stderr)
            .ends_with("pocketfen: total: 2 files, 1 game written, 1 left out (1 not-in-pocket)\n"),
        "{}",
        text(&out.stderr)
    );
}

/// 26.12: a pair written in two dialects names each board's.
#[test]
fn pair_dialects_in_json() {
    let pair = "8/8/8/4k3/8/8/8/4K3[Pp] w - - 0 1 | 8/8/8/4k3/8/8/8/4K3/Qq w - - 0 1";
    let out = run(&["fen", "convert", "--json", "--to", "xboard", pair]);
    let r: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    assert_eq!(
        r["board_dialects"],
        serde_json::json!(["bracket", "lichess"])
    );
    let out = run(&[
        "fen",
        "convert",
        "--json",
        "--to",
        "xboard",
        "8/8/8/4k3/8/8/8/4K3[Pp] w - - 0 1",
    ]);
    let r: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    assert!(r.get("board_dialects").is_none(), "{r}");
}

/// 26.13: a manual page per command and subcommand, with EXIT STATUS and EXAMPLES, that
/// renders cleanly; help texts that say what is so.
#[test]
fn manual_pages() {
    let dir = scratch_dir("man");
    let out = run(&["manpage", dir.join("man1").to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let listed: Vec<String> = text(&out.stdout).lines().map(str::to_owned).collect();
    for page in [
        "pocketfen",
        "pocketfen-fen",
        "pocketfen-fen-convert",
        "pocketfen-fen-check",
        "pocketfen-fen-show",
        "pocketfen-fen-url",
        "pocketfen-perft",
        "pocketfen-moves",
        "pocketfen-legal",
        "pocketfen-validate",
        "pocketfen-replay",
        "pocketfen-pgn",
        "pocketfen-pgn-convert",
        "pocketfen-pgn-select",
        "pocketfen-pgn-dedupe",
        "pocketfen-pgn-split",
        "pocketfen-merge",
        "pocketfen-completions",
        "pocketfen-manpage",
    ] {
        let path = dir.join("man1").join(format!("{page}.1"));
        assert!(
            listed.contains(&path.display().to_string()),
            "{page} not listed"
        );
        let roff = fs::read_to_string(&path).unwrap();
        assert!(roff.contains(&format!(".TH {page} 1")), "{page}");
        for section in [
            ".SH NAME",
            ".SH SYNOPSIS",
            ".SH \"EXIT STATUS\"",
            ".SH EXAMPLES",
        ] {
            assert!(roff.contains(section), "{page} lacks {section}");
        }
        if have("groff") {
            let check = Command::new("groff")
                .args(["-k", "-man", "-Tutf8", "-ww", "-z", path.to_str().unwrap()])
                .output()
                .unwrap();
            assert!(check.stderr.is_empty(), "{page}: {}", text(&check.stderr));
        }
    }
    // pocketfen(1) names the pages it refers to, and they exist.
    let main = fs::read_to_string(dir.join("man1/pocketfen.1")).unwrap();
    assert!(main.contains("pocketfen\\-validate(1)"));
    let perft = text(&run(&["perft", "--help"]).stdout);
    assert!(
        !perft.contains("fen check --help")
            && perft.contains("a black king facing no white one horde")
    );
    let legal = text(&run(&["legal", "--help"]).stdout);
    assert!(!legal.contains("a move is a drop"), "{legal}");
    fs::remove_dir_all(&dir).unwrap();
}

/// `validate --html *.pgn` (the shell puts the first archive after
/// `--html`) leaves the archive alone; a report or an empty file is replaced.
#[test]
fn html_never_replaces_an_archive() {
    let dir = scratch_dir("glob");
    let (a, b) = (dir.join("a.pgn"), dir.join("b.pgn"));
    fs::copy(ZH, &a).unwrap();
    fs::copy(ILLEGAL, &b).unwrap();
    let before = fs::read(&a).unwrap();
    let out = run(&[
        "validate",
        "--html",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("holds no HTML report"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(fs::read(&a).unwrap(), before);
    let report = dir.join("r.html");
    fs::write(&report, "").unwrap();
    for _ in 0..2 {
        let out = run(&[
            "validate",
            "-q",
            "--html",
            report.to_str().unwrap(),
            b.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        assert!(
            fs::read_to_string(&report)
                .unwrap()
                .starts_with("<!DOCTYPE html>")
        );
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// `timeout -s INT` signals the process and then its group; the
/// repeat is one interrupt, not a second one that quits with nothing.
#[cfg(unix)]
#[test]
fn one_interrupt_delivered_twice_is_one() {
    if !have("timeout") {
        return;
    }
    // Games on a pipe that stays open, so that the run is still reading at the signal.
    let mut child = Command::new("timeout")
        .args(["-s", "INT", "1"])
        .arg(bin())
        .args(["validate", "--json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(games(50, 5).as_bytes()).unwrap();
    stdin.flush().unwrap();
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    let records: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let summary = records.last().expect("the records and the summary");
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["interrupted"], true);
    assert_eq!(
        summary["games"], 50,
        "the last game ends at the stop: {summary}"
    );
    assert_eq!(records.iter().filter(|r| r["type"] == "game").count(), 10);
}

/// `replay` gives a summary and a total on stderr as `validate` does
/// (`-q`: none); `moves` says what cannot be read after the moves before it; a pasted
/// board-editor URL or a variant's analysis page is read.
#[test]
fn replay_summaries_moves_errors_and_more_urls() {
    let out = run(&["replay", "--emit", "uci", ZH, ILLEGAL]);
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!("pocketfen: {ZH}: 1 game, 73 plies")),
        "{err}"
    );
    assert!(err.contains("total: 2 files, 2 games"), "{err}");
    let quiet = run(&["replay", "-q", "--emit", "uci", ZH]);
    assert!(quiet.stderr.is_empty(), "{}", text(&quiet.stderr));

    for (movetext, says) in [
        ("1. e4 e5 {never closed", "never closed by its `}`"),
        ("1. e4 e5 1-0 2. Nf3", "`Nf3` after the result `1-0`"),
        ("1. e4 (1. d4", "`(` is never closed"),
    ] {
        let out = run(&["moves", movetext]);
        assert_eq!(out.status.code(), Some(1), "{movetext}");
        assert!(text(&out.stdout).starts_with("e4\n"), "{movetext}");
        assert!(
            text(&out.stderr).contains(says),
            "{movetext}: {}",
            text(&out.stderr)
        );
    }
    // A `;` comment ends with its argument.
    let out = run(&["moves", "e4 ; a comment", "e5"]);
    assert_eq!(text(&out.stdout).lines().nth(1), Some("e5"));
    // An unquoted --fen of moves is one error too, not its fields taken as moves.
    let mut args = vec!["moves", "--fen"];
    args.extend(FEN.split(' '));
    let out = run(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("given as 6 arguments"),
        "{}",
        text(&out.stderr)
    );

    for (url, want) in [
        (
            "https://lichess.org/analysis/crazyhouse",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-] w KQkq - 0 1\n",
        ),
        (
            "https://lichess.org/editor/8/8/8/4k3/8/8/8/4K3_w_-_-_0_1",
            "8/8/8/4k3/8/8/8/4K3 w - - 0 1\n",
        ),
    ] {
        let out = run(&["fen", "convert", "--to", "xboard", url]);
        assert_eq!(text(&out.stdout), want, "{url}: {}", text(&out.stderr));
    }
}

/// `validate` (and the other archive commands) with no file, on a terminal, says it
/// reads the terminal, as other tools do, instead of waiting silently; a
/// pipe gets no such line.
#[test]
fn reading_the_terminal_says_so() {
    if !have("script") {
        eprintln!("skipped: no `script` to make a pseudo-terminal");
        return;
    }
    let command = format!("{} validate", bin().display());
    let mut child = in_terminal(&command);
    let mut stdin = child.stdin.take().unwrap();
    let rx = lines_of(child.stdout.take().unwrap());
    let mut told = false;
    while let Some(line) = next_line(&rx) {
        if line.contains("reading PGN from the terminal: paste games and end with Ctrl-D") {
            told = true;
            break;
        }
    }
    // Ctrl-D ends the input.
    stdin.write_all(b"\x04").unwrap();
    drop(stdin);
    let _ = child.wait();
    assert!(told, "no hint on the terminal");
    let out = run_in(&["validate"], b"");
    assert!(!text(&out.stderr).contains("reading PGN from the terminal"));
}

/// One reader of file names: `-o x.pgn.zstd` writes zstd (read back by `zstd -d`), a
/// directory walk finds that file and `m.BPGN.ZSTD` beside it, and the latter is read as
/// BPGN (its games are bughouse matches), whatever the letter case.
#[test]
fn zstd_endings_are_one_name_for_writing_walking_and_reading() {
    let dir = scratch_dir("zstd-endings");
    let written = dir.join("x.pgn.zstd");
    let out = run(&[
        "pgn",
        "convert",
        "--to",
        "lichess",
        "-q",
        "-o",
        written.to_str().unwrap(),
        ZH,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let decoded = zstd::decode_all(&std::fs::read(&written).unwrap()[..]).unwrap();
    assert!(decoded.starts_with(b"[Event "), "zstd, decoded");
    let bpgn = std::fs::read("grammar-tests/bpgn/ok/bughousedb_1283326.bpgn").unwrap();
    let mut packed = zstd::Encoder::new(Vec::new(), 3).unwrap();
    packed.write_all(&bpgn).unwrap();
    std::fs::write(dir.join("m.BPGN.ZSTD"), packed.finish().unwrap()).unwrap();
    let out = run(&["validate", "--all", "--json", dir.to_str().unwrap()]);
    let records: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let files: std::collections::BTreeSet<String> = records
        .iter()
        .filter(|r| r["type"] == "summary")
        .map(|r| {
            r["file"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        files.into_iter().collect::<Vec<_>>(),
        ["m.BPGN.ZSTD", "x.pgn.zstd"]
    );
    let bughouse = records
        .iter()
        .filter(|r| r["type"] == "game" && r["file"].as_str().unwrap().ends_with("m.BPGN.ZSTD"))
        .all(|r| r["variant"] == "bughouse");
    assert!(bughouse, "{records:?}");
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// One list of result spellings: every spelling the archive commands read as a result
/// (with a warning when it is not PGN's), `moves` reads as the end of the game too, and a
/// move after it is refused as a move after the result.
#[test]
fn moves_and_validate_read_the_same_result_spellings() {
    let dir = scratch_dir("result-spellings");
    for spelling in [
        "1-0", "0-1", "1/2-1/2", "*", "½-½", "1–0", "0—1", "1−0", "0.5-0.5",
    ] {
        let path = dir.join("g.pgn");
        std::fs::write(
            &path,
            format!("[Event \"a\"]\n\n1. e4 e5 2. Nf3 {spelling}\n"),
        )
        .unwrap();
        let out = run(&["validate", "--json", "--all", path.to_str().unwrap()]);
        let game: serde_json::Value =
            serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap();
        let kinds: Vec<&str> = game["problems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["kind"].as_str().unwrap())
            .collect();
        assert!(
            kinds
                .iter()
                .all(|k| *k == "nonstandard-result" || *k == "result-mismatch"),
            "{spelling}: {kinds:?}"
        );
        assert_eq!(game["status"], "ok", "{spelling}");
        let mut child = cmd(&["moves"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        write!(child.stdin.take().unwrap(), "e4 e5 Nf3 {spelling} Nc6").unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            text(&out.stderr).contains(&format!("`Nc6` after the result `{spelling}`")),
            "{spelling}: {}",
            text(&out.stderr)
        );
    }
}

/// Each choice is named once, in the library: the Python stub's lists of names are the
/// library's (`Choice::NAMES`), and so is what `--help` offers.
#[test]
fn the_python_stub_and_the_help_name_the_librarys_choices() {
    use pocketfen::Choice;
    use pocketfen::game::{PlyText, Target};
    use pocketfen::notation::fen::FenDialect;
    use pocketfen::notation::san::DropStyle;
    // The stub for type checkers, and the package's aliases at run time.
    for (file, literal) in [
        ("python/python/pocketfen/__init__.pyi", "Literal["),
        ("python/python/pocketfen/__init__.py", "_Literal["),
    ] {
        let text = std::fs::read_to_string(file).unwrap();
        let names = |alias: &str| -> Vec<String> {
            let line = text
                .lines()
                .find(|l| l.starts_with(&format!("{alias} = {literal}")))
                .unwrap_or_else(|| panic!("{file} names {alias}"));
            line[line.find('[').unwrap() + 1..line.rfind(']').unwrap()]
                .split(", ")
                .map(|n| n.trim_matches('"').to_owned())
                .collect()
        };
        assert_eq!(names("Dialect"), FenDialect::NAMES, "{file}");
        assert_eq!(names("Target"), Target::NAMES, "{file}");
        assert_eq!(names("DropStyle"), DropStyle::NAMES, "{file}");
        assert_eq!(names("Emit"), PlyText::NAMES, "{file}");
        assert_eq!(names("VariantName"), pocketfen::Variant::NAMES, "{file}");
    }
    let help = text(&run(&["validate", "--help"]).stdout);
    let offered = help
        .lines()
        .find(|l| l.contains("[possible values: auto, chess"))
        .expect("--variant's values");
    let names = pocketfen::Variant::NAMES.join(", ");
    assert!(
        offered.contains(&format!("[possible values: auto, {names}]")),
        "{offered}"
    );
}
