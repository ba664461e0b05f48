//! Archive validation speed and memory: `cargo build --release && cargo bench --bench pgn`.
//!
//! Builds a ≥ 100 MB PGN of standard and crazyhouse games by repeating the samples (under
//! `target/bench-data/`), then in one run:
//!
//! - pgn-reader's parse-only speed (a visitor that does nothing): the ceiling;
//! - a shakmaty + pgn-reader validator (each SAN resolved and played, crazyhouse games
//!   through shakmaty's Crazyhouse): the peer;
//! - `pocketfen validate` with 1 and 2 jobs (the release binary, timed as a process; peak
//!   RSS from `/usr/bin/time` when it exists);
//! - `pocketfen validate -j 2` on 1 GB streamed through stdin (the file 10 times), for RSS;
//! - `pocketfen validate` with 1 and 2 jobs on the bughouse corpus repeated to ≥ 20 MB;
//! - `pocketfen pgn convert` of the 100 MB file to each target with 1 and 2 jobs;
//! - memory (`cargo bench --bench pgn -- memory` runs only this): peak RSS of `validate`,
//!   `pgn convert` and `replay` at `-j 1` and `-j 2` on one 32 MB crazyhouse game alone,
//!   and on the same game followed by 200 MB of ordinary games (the bound: within 32 MB
//!   of the game alone), with `pgn-extract` (Debian's package, when installed) on the same
//!   two files as the peer.

use std::fs;
use std::io::{BufWriter, Write};
use std::ops::ControlFlow;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::variant::{Crazyhouse, VariantPosition};
use shakmaty::{Chess, Position};

struct ParseOnly;

impl Visitor for ParseOnly {
    type Tags = ();
    type Movetext = u64;
    type Output = u64;
    fn begin_tags(&mut self) -> ControlFlow<u64, ()> {
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, _: ()) -> ControlFlow<u64, u64> {
        ControlFlow::Continue(0)
    }
    fn san(&mut self, n: &mut u64, _: SanPlus) -> ControlFlow<u64> {
        *n += 1;
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, n: u64) -> u64 {
        n
    }
}

/// Replays every game with shakmaty; counts plies and illegal games.
struct ShakmatyValidator {
    illegal: u64,
}

impl Visitor for ShakmatyValidator {
    type Tags = bool;
    type Movetext = (Option<VariantPosition>, u64);
    type Output = u64;
    fn begin_tags(&mut self) -> ControlFlow<u64, bool> {
        ControlFlow::Continue(false)
    }
    fn tag(&mut self, zh: &mut bool, name: &[u8], value: RawTag<'_>) -> ControlFlow<u64> {
        if name == b"Variant" {
            *zh = value.as_bytes().eq_ignore_ascii_case(b"crazyhouse");
        }
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, zh: bool) -> ControlFlow<u64, Self::Movetext> {
        let pos = if zh {
            VariantPosition::Crazyhouse(Crazyhouse::default())
        } else {
            VariantPosition::Chess(Chess::default())
        };
        ControlFlow::Continue((Some(pos), 0))
    }
    fn san(&mut self, (pos, plies): &mut Self::Movetext, san: SanPlus) -> ControlFlow<u64> {
        if let Some(p) = pos {
            match san.san.to_move(p) {
                Ok(m) => {
                    p.play_unchecked(m);
                    *plies += 1;
                }
                Err(_) => {
                    self.illegal += 1;
                    *pos = None;
                }
            }
        }
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, (_, plies): Self::Movetext) -> u64 {
        plies
    }
}

fn build(path: &Path) -> u64 {
    if let Ok(m) = fs::metadata(path)
        && m.len() >= 100_000_000
    {
        return m.len();
    }
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let parts: Vec<Vec<u8>> = [
        "lichess_standard_2025-05_sample438.pgn",
        "cutechess_zh_2019_CrazyAra-vs-Stockfish.pgn",
        "lichess_zh_2018_JannLee-CrazyAra.pgn",
        "lichess_zh_2017_knightvuillaume-JannLee.pgn",
    ]
    .iter()
    .map(|f| fs::read(format!("samples/{f}")).unwrap())
    .collect();
    let mut out = BufWriter::new(fs::File::create(path).unwrap());
    let mut written = 0u64;
    while written < 100_000_000 {
        for p in &parts {
            out.write_all(p).unwrap();
            out.write_all(b"\n\n").unwrap();
            written += p.len() as u64 + 2;
        }
    }
    out.flush().unwrap();
    written
}

fn best_of<T>(n: usize, mut f: impl FnMut() -> T) -> (T, Duration) {
    let mut best = Duration::MAX;
    let mut out = None;
    for _ in 0..n {
        let t = Instant::now();
        out = Some(f());
        best = best.min(t.elapsed());
    }
    (out.unwrap(), best)
}

/// Runs the binary; returns wall time and peak RSS in MB (if `/usr/bin/time` exists).
fn run_pocketfen(
    bin: &Path,
    args: &[&str],
    stdin_repeats: Option<(&Path, usize)>,
) -> (Duration, Option<f64>) {
    let time = Path::new("/usr/bin/time");
    let mut cmd = if time.exists() {
        let mut c = Command::new(time);
        c.args(["-f", "RSS_KB=%M"]).arg(bin);
        c
    } else {
        Command::new(bin)
    };
    cmd.args(args).stdout(Stdio::null()).stderr(Stdio::piped());
    cmd.stdin(if stdin_repeats.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    let start = Instant::now();
    let mut child = cmd.spawn().unwrap();
    if let Some((file, times)) = stdin_repeats {
        let mut stdin = child.stdin.take().unwrap();
        let data = fs::read(file).unwrap();
        for _ in 0..times {
            stdin.write_all(&data).unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    let elapsed = start.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let rss = stderr
        .lines()
        .find_map(|l| l.strip_prefix("RSS_KB="))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .map(|kb| kb / 1024.0);
    (elapsed, rss)
}

fn main() {
    if std::env::args().any(|a| a == "--test" || a == "--list") {
        return;
    }
    let path = Path::new("target/bench-data/mix-100mb.pgn");
    let bytes = build(path) as f64;
    let bin = Path::new("target/release/pocketfen");
    // `cargo bench --bench pgn -- report`: only the cost of `validate --html`.
    if std::env::args().any(|a| a == "report") {
        html_report_cost(bin, path);
        return;
    }
    // `cargo bench --bench pgn -- memory`: only the memory rows.
    if std::env::args().any(|a| a == "memory") {
        memory(bin, path);
        return;
    }
    let data = fs::read(path).unwrap();
    println!("{:.1} MB of standard and crazyhouse games", bytes / 1e6);
    let mbs = |t: Duration| bytes / 1e6 / t.as_secs_f64();

    let (games, t_parse) = best_of(3, || {
        Reader::new(&data[..]).read_games(&mut ParseOnly).count()
    });
    let ((plies, illegal), t_peer) = best_of(3, || {
        let mut v = ShakmatyValidator { illegal: 0 };
        let plies: u64 = Reader::new(&data[..])
            .read_games(&mut v)
            .map(|r| r.unwrap())
            .sum();
        (plies, v.illegal)
    });
    assert_eq!(illegal, 0);
    println!("{games} games, {plies} plies");
    println!("| validator | MB/s | vs shakmaty + pgn-reader | peak RSS |");
    println!("| --- | --- | --- | --- |");
    println!(
        "| pgn-reader, parse only (ceiling) | {:.0} | {:.2} | |",
        mbs(t_parse),
        t_peer.as_secs_f64() / t_parse.as_secs_f64()
    );
    println!(
        "| shakmaty + pgn-reader, in process | {:.0} | 1.00 | |",
        mbs(t_peer)
    );
    if !bin.exists() {
        println!(
            "(build target/release/pocketfen with `cargo build --release` for the pocketfen rows)"
        );
        return;
    }
    let file = path.to_str().unwrap();
    let mut one = Duration::MAX;
    let mut validate_time = [Duration::MAX; 2];
    for (k, jobs) in ["1", "2"].into_iter().enumerate() {
        // Best of 5: this 2-core machine is noisy, and -j 2 suffers most from it.
        let mut best = (Duration::MAX, None);
        for _ in 0..5 {
            let r = run_pocketfen(bin, &["validate", "-q", "-j", jobs, file], None);
            if r.0 < best.0 {
                best = r;
            }
        }
        if jobs == "1" {
            one = best.0;
        }
        validate_time[k] = best.0;
        let rss = best.1.map_or("n/a".to_owned(), |r| format!("{r:.1} MB"));
        println!(
            "| pocketfen validate -j {jobs} | {:.0} | {:.2} (vs -j 1: {:.2}) | {rss} |",
            mbs(best.0),
            t_peer.as_secs_f64() / best.0.as_secs_f64(),
            one.as_secs_f64() / best.0.as_secs_f64()
        );
    }
    // `pgn convert` of the same file to each target (target: half of validate's speed).
    for target in ["lichess", "chesscom", "xboard"] {
        for (k, jobs) in ["1", "2"].into_iter().enumerate() {
            let args = ["pgn", "convert", "-q", "--to", target, "-j", jobs, file];
            let t = (0..3)
                .map(|_| run_pocketfen(bin, &args, None).0)
                .min()
                .unwrap();
            println!(
                "| pocketfen pgn convert --to {target} -j {jobs} | {:.0} | {:.2} × validate -j {jobs} | |",
                mbs(t),
                validate_time[k].as_secs_f64() / t.as_secs_f64()
            );
        }
    }
    // BPGN: the bughouse corpus repeated to ≥ 20 MB (no peer exists).
    let bpgn = Path::new("target/bench-data/bughouse-20mb.bpgn");
    let mut corpus = Vec::new();
    for entry in fs::read_dir("grammar-tests/bpgn/ok").unwrap() {
        let path = entry.unwrap().path();
        // The movetext-only sample has no tags: concatenated, it would join the game before.
        if path.to_str().unwrap().contains("movetext-only") {
            continue;
        }
        corpus.extend(fs::read(path).unwrap());
        corpus.extend_from_slice(b"\n\n");
    }
    let mut big = Vec::with_capacity(21_000_000);
    while big.len() < 20_000_000 {
        big.extend_from_slice(&corpus);
    }
    fs::write(bpgn, &big).unwrap();
    for jobs in ["1", "2"] {
        let t = (0..3)
            .map(|_| {
                run_pocketfen(
                    bin,
                    &["validate", "-q", "-j", jobs, bpgn.to_str().unwrap()],
                    None,
                )
                .0
            })
            .min()
            .unwrap();
        println!(
            "| pocketfen validate -j {jobs}, {:.0} MB of BPGN | {:.0} | | |",
            big.len() as f64 / 1e6,
            big.len() as f64 / 1e6 / t.as_secs_f64()
        );
    }
    let (t, rss) = run_pocketfen(bin, &["validate", "-q", "-j", "2", "-"], Some((path, 10)));
    let rss = rss.map_or("n/a".to_owned(), |r| format!("{r:.1} MB"));
    println!(
        "| pocketfen validate -j 2, {:.1} GB on stdin | {:.0} | | {rss} |",
        bytes * 10.0 / 1e9,
        bytes * 10.0 / 1e6 / t.as_secs_f64()
    );
    hostile(bin, mbs(one));
    html_report_cost(bin, path);
    memory(bin, path);
}

/// A crazyhouse game of `size` bytes: the knights going out and back (legal however long,
/// as repetition is only a claim), eight moves to a line.
fn knight_shuffle(size: usize) -> Vec<u8> {
    let mut game =
        b"[Event \"knight shuffle\"]\n[Variant \"Crazyhouse\"]\n[Result \"*\"]\n\n".to_vec();
    let mut number = 1;
    while game.len() < size {
        let (white, black) = if number % 2 == 1 {
            ("Nf3", "Nf6")
        } else {
            ("Ng1", "Ng8")
        };
        write!(game, "{number}. {white} {black}").unwrap();
        game.push(if number % 4 == 0 { b'\n' } else { b' ' });
        number += 1;
    }
    game.extend_from_slice(b"*\n\n");
    game
}

/// Peak RSS with one slow game: `validate`, `pgn convert` and `replay` at 1 and 2 jobs on
/// a 32 MB crazyhouse game alone, then on it followed by 200 MB of ordinary games (the
/// 100 MB archive twice). Workers that raced ahead of the slow game would hold their
/// finished games until it is done: the pipeline's back-pressure bounds that to a few
/// batches, so the second column may pass the first by at most 32 MB. `pgn convert`
/// of the game alone should stay within twice its size plus 16 MB.
fn memory(bin: &Path, archive: &Path) {
    let dir = Path::new("target/bench-data");
    let slow = dir.join("slow-32mb.pgn");
    let mixed = dir.join("slow-then-200mb.pgn");
    let game = knight_shuffle(32_000_000);
    fs::write(&slow, &game).unwrap();
    {
        let ordinary = fs::read(archive).unwrap();
        let mut out = BufWriter::new(fs::File::create(&mixed).unwrap());
        out.write_all(&game).unwrap();
        for _ in 0..2 {
            out.write_all(&ordinary).unwrap();
            out.write_all(b"\n\n").unwrap();
        }
        out.flush().unwrap();
    }
    let mb = |n: usize| n as f64 / 1e6;
    let mixed_size = fs::metadata(&mixed).unwrap().len() as usize;
    println!();
    println!(
        "peak RSS: one {:.0} MB crazyhouse game alone, then followed by {:.0} MB of ordinary games",
        mb(game.len()),
        mb(mixed_size - game.len())
    );
    println!("| command | -j | the game alone | then 200 MB | difference (bound 32 MB) |");
    println!("| --- | --- | --- | --- | --- |");
    let show = |r: Option<f64>| r.map_or("n/a".to_owned(), |r| format!("{r:.1} MB"));
    let commands: [(&str, &[&str]); 3] = [
        ("validate", &["validate", "-q"]),
        (
            "pgn convert --to lichess",
            &["pgn", "convert", "-q", "--to", "lichess"],
        ),
        ("replay --emit san", &["replay", "--emit", "san"]),
    ];
    let mut convert_alone = None;
    for (name, args) in commands {
        for jobs in ["1", "2"] {
            let rss = |file: &Path| {
                let mut all = args.to_vec();
                all.extend(["-j", jobs, "--max-game-bytes", "100000000"]);
                all.push(file.to_str().unwrap());
                run_pocketfen(bin, &all, None).1
            };
            let (alone, then) = (rss(&slow), rss(&mixed));
            if name.starts_with("pgn convert") && jobs == "1" {
                convert_alone = alone;
            }
            let difference = match (alone, then) {
                (Some(a), Some(t)) => {
                    let d = t - a;
                    let verdict = if d <= 32.0 { "within" } else { "OVER" };
                    format!("{d:+.1} MB ({verdict})")
                }
                _ => "n/a".to_owned(),
            };
            println!(
                "| pocketfen {name} | {jobs} | {} | {} | {difference} |",
                show(alone),
                show(then)
            );
        }
    }
    let peer = ["/usr/games/pgn-extract", "/usr/bin/pgn-extract"]
        .into_iter()
        .map(Path::new)
        .find(|p| p.exists());
    match peer {
        Some(peer) => {
            let rss = |file: &Path| {
                let mut cmd = Command::new("/usr/bin/time");
                cmd.args(["-f", "RSS_KB=%M"]).arg(peer);
                cmd.args(["-s", "-o", "/dev/null"]).arg(file);
                let out = cmd
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .output()
                    .unwrap();
                String::from_utf8_lossy(&out.stderr)
                    .lines()
                    .find_map(|l| l.strip_prefix("RSS_KB="))
                    .and_then(|v| v.trim().parse::<f64>().ok())
                    .map(|kb| kb / 1024.0)
            };
            let (alone, then) = (rss(&slow), rss(&mixed));
            println!(
                "| pgn-extract -s -o /dev/null (peer) | 1 | {} | {} | |",
                show(alone),
                show(then)
            );
        }
        None => println!("(install Debian's pgn-extract for the peer's row)"),
    }
    if let Some(c) = convert_alone {
        let bound = 2.0 * mb(game.len()) + 16.0;
        println!(
            "pgn convert of the game alone: {c:.1} MB against a bound of twice its size plus 16 MB ({bound:.0} MB): {}",
            if c <= bound { "within" } else { "OVER" }
        );
    }
    let _ = fs::remove_file(&mixed);
}

/// The cost of `validate --html` on the archive with a few illegal games: the
/// `grammar-tests/pgn/err` games inserted 20 times over (about one game in 150 has a
/// problem), best of 5 each, the two commands alternating.
fn html_report_cost(bin: &Path, archive: &Path) {
    let mut bad = Vec::new();
    let mut names: Vec<_> = fs::read_dir("grammar-tests/pgn/err")
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    for name in names {
        bad.extend(fs::read(name).unwrap());
        bad.extend_from_slice(b"\n\n");
    }
    let data = fs::read(archive).unwrap();
    let mut mixed = Vec::with_capacity(data.len() + 20 * bad.len());
    // Cut the archive at game starts into 20 pieces, the bad games after each.
    let starts: Vec<usize> = game_starts(&data);
    for k in 0..20 {
        let (a, b) = (
            starts[k * starts.len() / 20],
            starts.get((k + 1) * starts.len() / 20),
        );
        mixed.extend_from_slice(&data[a..b.copied().unwrap_or(data.len())]);
        mixed.extend_from_slice(&bad);
    }
    let path = Path::new("target/bench-data/mix-100mb-some-illegal.pgn");
    fs::write(path, &mixed).unwrap();
    let report = Path::new("target/bench-data/report.html");
    let file = path.to_str().unwrap();
    println!();
    println!(
        "| `validate` on {:.0} MB with a few illegal games | plain | with `--html` | cost |",
        mixed.len() as f64 / 1e6
    );
    println!("| --- | --- | --- | --- |");
    for jobs in ["1", "2"] {
        let (mut plain, mut html) = (Duration::MAX, Duration::MAX);
        for _ in 0..5 {
            plain = plain.min(run_pocketfen(bin, &["validate", "-q", "-j", jobs, file], None).0);
            let args = [
                "validate",
                "-q",
                "-j",
                jobs,
                "--html",
                report.to_str().unwrap(),
                file,
            ];
            html = html.min(run_pocketfen(bin, &args, None).0);
        }
        println!(
            "| -j {jobs} | {:.2} s | {:.2} s | {:+.1} % |",
            plain.as_secs_f64(),
            html.as_secs_f64(),
            (html.as_secs_f64() / plain.as_secs_f64() - 1.0) * 100.0
        );
    }
}

/// The offsets where games start (a `[Event` at the start of a line).
fn game_starts(data: &[u8]) -> Vec<usize> {
    let mut starts = vec![0];
    let mut i = 0;
    while let Some(k) = data[i..].windows(8).position(|w| w == b"\n\n[Event") {
        starts.push(i + k + 2);
        i += k + 2;
    }
    starts
}

/// One unit of each hostile input (repeated to the size measured), and the options it is
/// validated with.
fn hostile_units() -> Vec<(&'static str, Vec<u8>, &'static [&'static str])> {
    let game = |tags: &str, movetext: &str| format!("{tags}\n\n{movetext}\n\n").into_bytes();
    vec![
        (
            "a 1 MB tag value",
            game(
                &format!("[Event \"{}\"]", "x".repeat(1 << 20)),
                "1. e4 e5 *",
            ),
            &[],
        ),
        (
            "variations 256 deep, with --variations",
            game(
                "[Event \"deep\"]",
                &format!("1. e4 {} e5 *", "(1. d4 ".repeat(256) + &")".repeat(256)),
            ),
            &["--variations"],
        ),
        (
            "100 k comments in a game",
            game(
                "[Event \"comments\"]",
                &format!("1. e4 {}e5 *", "{ a comment } ".repeat(100_000)),
            ),
            &[],
        ),
        (
            "games of 50 k plies",
            game(
                "[Event \"long\"]\n[Variant \"crazyhouse\"]",
                &format!("{}*", "Nf3 Nf6 Ng1 Ng8 ".repeat(12_500)),
            ),
            &[],
        ),
        (
            "a 1 MB token",
            game(
                "[Event \"token\"]",
                &format!("1. {} *", "N".repeat(1 << 20)),
            ),
            &[],
        ),
        (
            "1 MB of `(`",
            game(
                "[Event \"parens\"]",
                &format!("1. e4 {}", "(".repeat(1 << 20)),
            ),
            &[],
        ),
        (
            "1 MB of `{`",
            game(
                "[Event \"braces\"]",
                &format!("1. e4 {}", "{".repeat(1 << 20)),
            ),
            &[],
        ),
        ("one-move games", game("[Event \"short\"]", "1. e4 *"), &[]),
    ]
}

/// Hostile inputs at 10 and 20 MB through `validate -j 1`: MB/s against the normal
/// archive's, and the time ratio between the two sizes (2.0 is linear).
fn hostile(bin: &Path, normal_mbs: f64) {
    println!();
    println!(
        "| hostile input, validate -j 1 | MB/s at 20 MB | vs the archive above | time 20 MB / 10 MB |"
    );
    println!("| --- | --- | --- | --- |");
    for (name, unit, extra) in hostile_units() {
        let mut times = Vec::new();
        let mut size = 0;
        for mb in [10, 20] {
            let path = Path::new("target/bench-data/hostile.pgn");
            let mut data = Vec::with_capacity(mb << 20 | unit.len());
            while data.len() < mb << 20 {
                data.extend_from_slice(&unit);
            }
            fs::write(path, &data).unwrap();
            size = data.len();
            let mut args = vec!["validate", "-q", "-j", "1"];
            args.extend_from_slice(extra);
            args.push(path.to_str().unwrap());
            let t = (0..3)
                .map(|_| run_pocketfen(bin, &args, None).0)
                .min()
                .unwrap();
            times.push((t, data.len()));
        }
        let (t10, n10) = times[0];
        let (t20, n20) = times[1];
        let mbs = size as f64 / 1e6 / t20.as_secs_f64();
        println!(
            "| {name} | {mbs:.0} | {:.2} | {:.2} |",
            mbs / normal_mbs,
            (t20.as_secs_f64() / n20 as f64) / (t10.as_secs_f64() / n10 as f64) * 2.0
        );
    }
    long_line(bin);
}

/// One game whose comment is a single line of 20 MB, then of 80 MB, through `validate`,
/// `pgn convert` and `replay`: the time ratio (4.0 is linear; a splitter that searched a
/// long line again after each refill took quadratic time).
fn long_line(bin: &Path) {
    println!();
    println!("| one line, 80 MB against 20 MB | time 80 MB / 20 MB (4.0 is linear) |");
    println!("| --- | --- |");
    let path = Path::new("target/bench-data/long-line.pgn");
    for (name, args) in [
        ("validate -j 1", &["validate", "-q", "-j", "1"][..]),
        (
            "pgn convert --to lichess -j 1",
            &["pgn", "convert", "--to", "lichess", "-q", "-j", "1"][..],
        ),
        ("replay --emit san", &["replay", "--emit", "san"][..]),
    ] {
        let mut times = Vec::new();
        for mb in [20, 80] {
            let mut game = b"[Event \"long line\"]\n\n1. e4 {".to_vec();
            game.resize(game.len() + (mb << 20), b'a');
            game.extend_from_slice(b"} e5 *\n");
            fs::write(path, &game).unwrap();
            // Above the default size limit, so the game is read, not skipped.
            let mut all = args.to_vec();
            all.extend(["--max-game-bytes", "200000000", path.to_str().unwrap()]);
            let t = (0..3)
                .map(|_| run_pocketfen(bin, &all, None).0)
                .min()
                .unwrap();
            times.push(t.as_secs_f64());
        }
        println!("| {name} | {:.2} |", times[1] / times[0]);
    }
    let _ = fs::remove_file(path);
}
