//! FEN conversion speed: `cargo bench --bench fen`.
//!
//! Builds a file of 1 048 576 crazyhouse FENs (random playouts from the start and from the
//! sample positions, each FEN written in one of the four dialects in turn) under
//! `target/bench-data/`, then measures on one core:
//!
//! - the library path of `fen convert` (`notation::fen::convert_line`) over the lines in
//!   memory, to each target dialect;
//! - the `pocketfen fen convert` binary end to end, reading the file on stdin and writing
//!   to /dev/null (when `target/release/pocketfen` exists: `cargo build --release`).
//!
//! Target: ≥ 1 M lines/s on one core (python-chess does about 11 k lines/s here).

use std::fs;
use std::hint::black_box;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pocketfen::notation::fen::{self, FenDialect};
use pocketfen::{Position, Rules, Setup, Variant};

const LINES: usize = 1 << 20;

fn build_corpus(path: &Path) -> Vec<String> {
    let samples: Vec<String> = fs::read_to_string("samples/crazyhouse-fens.txt")
        .expect("samples")
        .lines()
        .map(str::to_owned)
        .collect();
    let mut starts: Vec<Position> = vec![Position::start(Variant::Crazyhouse)];
    for s in &samples {
        if let Ok(setup) = s.parse::<Setup>()
            && let Ok(p) = Position::from_setup(&setup, Rules::new(Variant::Crazyhouse))
        {
            starts.push(p);
        }
    }
    let mut rng: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut lines = Vec::with_capacity(LINES);
    let mut game = 0;
    while lines.len() < LINES {
        let mut pos = starts[game % starts.len()].clone();
        game += 1;
        for _ in 0..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() || lines.len() == LINES {
                break;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            pos.play_unchecked(moves[(rng % moves.len() as u64) as usize]);
            let d = FenDialect::ALL[lines.len() % 4];
            lines.push(pos.to_setup().display(d).to_string());
        }
    }
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut f = std::io::BufWriter::new(fs::File::create(path).unwrap());
    for l in &lines {
        writeln!(f, "{l}").unwrap();
    }
    f.flush().unwrap();
    lines
}

fn main() {
    if std::env::args().any(|a| a == "--test" || a == "--list") {
        return;
    }
    let path = Path::new("target/bench-data/zh-fens.txt");
    let lines = build_corpus(path);
    let bytes: usize = lines.iter().map(|l| l.len() + 1).sum();
    println!(
        "{} crazyhouse FENs, {:.1} MB, all four dialects mixed",
        lines.len(),
        bytes as f64 / 1e6
    );
    println!("| path | target | lines/s (best of 5) | MB/s |");
    println!("| --- | --- | --- | --- |");
    for to in FenDialect::ALL {
        let mut best = Duration::MAX;
        for _ in 0..5 {
            let mut out = String::with_capacity(128);
            let mut total = 0usize;
            let start = Instant::now();
            for l in &lines {
                out.clear();
                fen::convert_line(l, &fen::Conversion::to(to), &mut out).expect("valid");
                total += out.len();
            }
            black_box(total);
            best = best.min(start.elapsed());
        }
        let secs = best.as_secs_f64();
        println!(
            "| library `convert_line` | {to} | {:.0} | {:.0} |",
            lines.len() as f64 / secs,
            bytes as f64 / secs / 1e6
        );
    }
    let bin = Path::new("target/release/pocketfen");
    if !bin.exists() {
        println!(
            "(build target/release/pocketfen with `cargo build --release` for the end-to-end row)"
        );
        return;
    }
    let mut best = Duration::MAX;
    for _ in 0..5 {
        let start = Instant::now();
        let status = Command::new(bin)
            .args(["fen", "convert", "--to", "lichess"])
            .stdin(fs::File::open(path).unwrap())
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
        best = best.min(start.elapsed());
    }
    let secs = best.as_secs_f64();
    println!(
        "| `pocketfen fen convert` binary, stdin → /dev/null | lichess | {:.0} | {:.0} |",
        lines.len() as f64 / secs,
        bytes as f64 / secs / 1e6
    );
}
