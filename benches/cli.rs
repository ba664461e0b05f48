//! How the command line scales with its input (issue 26): `cargo build --release &&
//! cargo bench --bench cli`. Each row runs the release binary on an input and on one four
//! times as large, in the same run, and prints the ratios of time and peak RSS (RSS from
//! `/usr/bin/time` when it exists): linear work gives about 4, quadratic work 16.
//!
//! - `moves` reading one token of 8 MB and of 32 MB from stdin (it used to rescan the
//!   token at every read: 13.7 × the time for 4 × the token);
//! - `validate --strict --html` on one crazyhouse game of 10 000 and of 40 000 plies with
//!   a warning at every ply (each card used to scan the whole game: 14.8 × for 4 ×), with
//!   `--html-max 1` and with the default 1,000 cards, and the report's size.
//!
//! `POCKETFEN_BIN=/path/to/pocketfen cargo bench --bench cli` measures another build.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `bin args` with `stdin` fed; best wall time of three, and peak RSS in MB.
fn measure(bin: &Path, args: &[&str], stdin: Option<&Path>) -> (Duration, Option<f64>) {
    let mut best = Duration::MAX;
    let mut rss = None;
    for _ in 0..3 {
        let time = Path::new("/usr/bin/time");
        let mut cmd = if time.exists() {
            let mut c = Command::new(time);
            c.args(["-f", "RSS_KB=%M"]).arg(bin);
            c
        } else {
            Command::new(bin)
        };
        cmd.args(args).stdout(Stdio::null()).stderr(Stdio::piped());
        cmd.stdin(match stdin {
            Some(p) => Stdio::from(fs::File::open(p).unwrap()),
            None => Stdio::null(),
        });
        let start = Instant::now();
        let out = cmd.output().unwrap();
        best = best.min(start.elapsed());
        rss = String::from_utf8_lossy(&out.stderr)
            .lines()
            .find_map(|l| l.strip_prefix("RSS_KB="))
            .and_then(|v| v.trim().parse::<f64>().ok())
            .map(|kb| kb / 1024.0);
    }
    (best, rss)
}

/// A crazyhouse game of `plies` knight moves, each over-disambiguated (a `--strict`
/// warning at every ply).
fn shuffle(plies: usize) -> String {
    let cycle = ["Ng1f3", "Ng8f6", "Nf3g1", "Nf6g8"];
    let mut s = String::from("[Event \"shuffle\"]\n[Variant \"Crazyhouse\"]\n[Result \"*\"]\n\n");
    for i in 0..plies {
        if i % 2 == 0 {
            s.push_str(&format!("{}. ", i / 2 + 1));
        }
        s.push_str(cycle[i % 4]);
        s.push(' ');
    }
    s.push_str("*\n");
    s
}

fn row(name: &str, small: (Duration, Option<f64>), large: (Duration, Option<f64>), extra: &str) {
    let ratio = large.0.as_secs_f64() / small.0.as_secs_f64().max(1e-9);
    let rss = match (small.1, large.1) {
        (Some(a), Some(b)) => format!("{a:.1} → {b:.1} MB ({:.2} ×)", b / a),
        _ => "n/a".to_owned(),
    };
    println!(
        "| {name} | {:.3} s → {:.3} s | {ratio:.2} × | {rss} |{extra}",
        small.0.as_secs_f64(),
        large.0.as_secs_f64()
    );
}

fn main() {
    if std::env::args().any(|a| a == "--test" || a == "--list") {
        return;
    }
    // `POCKETFEN_BIN` measures another build (an earlier commit's, for a before/after).
    let bin = std::env::var_os("POCKETFEN_BIN").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/release/pocketfen"),
        PathBuf::from,
    );
    assert!(
        bin.exists(),
        "build the release binary first: cargo build --release"
    );
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-data/cli");
    fs::create_dir_all(&dir).unwrap();

    println!("| input, 1 → 4 × | time | time ratio | peak RSS |");
    println!("| --- | --- | --- | --- |");
    let mut tokens = Vec::new();
    for mb in [8, 32] {
        let path = dir.join(format!("token-{mb}.txt"));
        let mut f = fs::File::create(&path).unwrap();
        f.write_all(b"e4 ").unwrap();
        f.write_all(&vec![b'x'; mb << 20]).unwrap();
        f.write_all(b"\n").unwrap();
        tokens.push(path);
    }
    let small = measure(&bin, &["moves"], Some(&tokens[0]));
    let large = measure(&bin, &["moves"], Some(&tokens[1]));
    row("`moves`, one token of 8 → 32 MB on stdin", small, large, "");

    let mut games = Vec::new();
    for plies in [10_000, 40_000] {
        let path = dir.join(format!("shuffle-{plies}.pgn"));
        fs::write(&path, shuffle(plies)).unwrap();
        games.push(path);
    }
    let html = dir.join("report.html");
    for max in ["1", "1000"] {
        let mut sizes = Vec::new();
        let mut runs = Vec::new();
        for game in &games {
            let args = [
                "validate",
                "-q",
                "-j",
                "1",
                "--strict",
                "--html",
                html.to_str().unwrap(),
                "--html-max",
                max,
                game.to_str().unwrap(),
            ];
            runs.push(measure(&bin, &args, None));
            sizes.push(fs::metadata(&html).unwrap().len());
        }
        row(
            &format!("`validate --strict --html --html-max {max}`, 10 000 → 40 000 plies"),
            runs[0],
            runs[1],
            &format!(
                " report {:.2} → {:.2} MB",
                sizes[0] as f64 / 1e6,
                sizes[1] as f64 / 1e6
            ),
        );
    }
}
