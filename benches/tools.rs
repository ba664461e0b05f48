//! `pgn select`, `pgn dedupe` and `pgn split` against pgn-extract (Debian's package, the
//! archivists' tool) on the same 100 MB archive, at `-j 1`, in one run:
//! `cargo build --release && cargo bench --bench tools`.
//!
//! The archive (under `target/bench-data/`) is 100 MB of distinct random standard games
//! with Lichess's tags and a clock comment per move (pgn-extract reads no drops), one game
//! in ten followed later by a copy of an earlier one, as merged archives hold them. Each
//! row is the best of three runs, writing to a file; the ratio is pgn-extract's time over
//! pocketfen's (the target: 5 or more). The outputs are checked to hold the same games.

mod common;

use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Rng, random_game};

/// Builds the archive: random standard games, and copies of earlier ones.
fn build(path: &Path, size: usize) {
    if fs::metadata(path).is_ok_and(|m| m.len() as usize >= size) {
        return;
    }
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut rng = Rng(0x7001_5eed_2027_0001);
    let mut out = BufWriter::new(fs::File::create(path).unwrap());
    let mut kept: Vec<String> = Vec::new();
    let mut written = 0;
    while written < size {
        let game = if !kept.is_empty() && rng.below(10) == 0 {
            kept[rng.below(kept.len())].clone()
        } else {
            let mut g = String::new();
            random_game(&mut rng, &mut g, false);
            if kept.len() < 4096 {
                kept.push(g.clone());
            } else {
                let i = rng.below(kept.len());
                kept[i] = g.clone();
            }
            g
        };
        out.write_all(game.as_bytes()).unwrap();
        written += game.len();
    }
    out.flush().unwrap();
}

/// The best wall time of three runs of `program args` in `dir`.
fn best(program: &Path, args: &[&str], dir: &Path) -> Duration {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            let status = Command::new(program)
                .args(args)
                .current_dir(dir)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .unwrap();
            assert!(status.success(), "{} {args:?}", program.display());
            start.elapsed()
        })
        .min()
        .unwrap()
}

/// The `Site` tags of a file: which games it holds, in order.
fn sites(path: &Path) -> Vec<String> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("[Site "))
        .map(str::to_owned)
        .collect()
}

fn main() {
    if std::env::args().any(|a| a == "--test" || a == "--list") {
        return;
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let bin = root.join("target/release/pocketfen");
    assert!(
        bin.exists(),
        "build the release binary first: cargo build --release"
    );
    let Some(pe) = ["/usr/games/pgn-extract", "/usr/bin/pgn-extract"]
        .into_iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
    else {
        println!("pgn-extract is not installed (apt-get install pgn-extract): no peer to run");
        return;
    };
    let data = root.join("target/bench-data/tools");
    let archive = data.join("standard-100mb.pgn");
    build(&archive, 100 << 20);
    let a = archive.to_str().unwrap();
    let size = fs::metadata(&archive).unwrap().len() as f64 / 1e6;
    fs::write(data.join("elo.txt"), "WhiteElo >= \"2000\"\n").unwrap();
    println!("{size:.0} MB of standard games, -j 1, best of 3");
    println!();
    println!("| work | pgn-extract | pocketfen | ratio |");
    println!("| --- | --- | --- | --- |");
    let row = |name: &str, theirs: Duration, ours: Duration| {
        println!(
            "| {name} | {:.2} s | {:.2} s | {:.1} × |",
            theirs.as_secs_f64(),
            ours.as_secs_f64(),
            theirs.as_secs_f64() / ours.as_secs_f64()
        );
    };

    let theirs = best(&pe, &["-s", "-telo.txt", "-oselect-pe.pgn", a], &data);
    let ours = best(
        &bin,
        &[
            "pgn",
            "select",
            "-q",
            "-j",
            "1",
            "--tag",
            "WhiteElo>=2000",
            "-o",
            "select-pf.pgn",
            a,
        ],
        &data,
    );
    assert_eq!(
        sites(&data.join("select-pe.pgn")),
        sites(&data.join("select-pf.pgn"))
    );
    row("tag selection (`WhiteElo >= 2000`)", theirs, ours);

    let theirs = best(&pe, &["-s", "-D", "-odedupe-pe.pgn", a], &data);
    let ours = best(
        &bin,
        &["pgn", "dedupe", "-q", "-j", "1", "-o", "dedupe-pf.pgn", a],
        &data,
    );
    assert_eq!(
        sites(&data.join("dedupe-pe.pgn")),
        sites(&data.join("dedupe-pf.pgn"))
    );
    row("duplicate removal", theirs, ours);

    let (pe_dir, pf_dir) = (data.join("split-pe"), data.join("split-pf"));
    for d in [&pe_dir, &pf_dir] {
        let _ = fs::remove_dir_all(d);
        fs::create_dir_all(d).unwrap();
    }
    let theirs = best(&pe, &["-s", "-#1000", a], &pe_dir);
    let ours = best(
        &bin,
        &[
            "pgn",
            "split",
            "-q",
            "-j",
            "1",
            "--every",
            "1000",
            "-o",
            "{n:1}.pgn",
            a,
        ],
        &pf_dir,
    );
    for name in ["1.pgn", "7.pgn"] {
        assert_eq!(
            sites(&pe_dir.join(name)),
            sites(&pf_dir.join(name)),
            "{name}"
        );
    }
    row("split into files of 1000 games", theirs, ours);
}
