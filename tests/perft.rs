//! perft suites from `grammar-tests/perft/` (provenance in its SOURCES.md).
//!
//! Debug builds check the lines up to a node cap; `cargo test --release --test perft`
//! (run by `.ci/run`) raises the caps: every line of every variant suite and of the
//! tricky chess suite, and the random and Chess960 lines up to 1 M nodes (their deepest
//! lines hold 4·10^12 nodes in all, hours of work).

use std::fs;

use pocketfen::{Position, Rules, Setup, SetupProblemKind, Variant, perft::perft};

fn cap(debug: u64, release: u64) -> u64 {
    if cfg!(debug_assertions) {
        debug
    } else {
        release
    }
}

fn position(fen: &str, variant: Variant) -> Position {
    let setup: Setup = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
    Position::from_setup(&setup, Rules::new(variant))
        .or_else(|e| e.ignore(&[SetupProblemKind::ImpossibleCheck]))
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Runs an `id`/`epd`/`perft` file; returns how many lines were checked.
fn run_suite(file: &str, variant: Variant, limit: u64) -> usize {
    let text = fs::read_to_string(format!("grammar-tests/perft/{file}")).expect("suite");
    let mut pos = None;
    let mut id = String::new();
    let mut checked = 0;
    for line in text.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("id ") {
            id = rest.to_owned();
        } else if let Some(fen) = line.strip_prefix("epd ") {
            pos = Some(position(fen, variant));
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut it = rest
                .split_whitespace()
                .map(|n| n.parse::<u64>().expect("number"));
            let (depth, nodes) = (it.next().expect("depth"), it.next().expect("nodes"));
            if nodes <= limit {
                let pos = pos.as_ref().expect("epd before perft");
                assert_eq!(
                    perft(pos, depth as u32),
                    nodes,
                    "{file} {id} depth {depth}: {pos:?}"
                );
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn chess_tricky() {
    assert!(run_suite("chess-tricky.perft", Variant::Chess, cap(100_000, u64::MAX)) >= 60);
}

#[test]
fn chess_random() {
    assert!(run_suite("chess-random.perft", Variant::Chess, cap(10_000, 1_000_000)) >= 16_000);
}

#[test]
fn chess960() {
    assert!(run_suite("chess960.perft", Variant::Chess, cap(100_000, 1_000_000)) >= 2_800);
}

#[test]
fn crazyhouse_suites() {
    let limit = cap(1_000_000, u64::MAX);
    for file in [
        "crazyhouse.perft",
        "crazyhouse-python-chess.perft",
        "crazyhouse-scalachess.perft",
    ] {
        assert!(run_suite(file, Variant::Crazyhouse, limit) >= 10, "{file}");
    }
}

#[test]
fn horde_suites() {
    for file in ["horde.perft", "horde-scalachess.perft"] {
        assert_eq!(run_suite(file, Variant::Horde, u64::MAX), 12, "{file}");
    }
}

#[test]
fn fairy_stockfish_suite() {
    let text = fs::read_to_string("grammar-tests/perft/fairy-stockfish.tsv").expect("suite");
    let limit = cap(2_000_000, u64::MAX);
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split('\t').collect();
        let Ok(variant) = cols[0].parse::<Variant>() else {
            continue;
        };
        let (depth, nodes): (u32, u64) = (cols[2].parse().unwrap(), cols[3].parse().unwrap());
        if nodes > limit {
            continue;
        }
        let pos = if cols[1] == "startpos" {
            Position::start(variant)
        } else {
            position(cols[1], variant)
        };
        assert_eq!(perft(&pos, depth), nodes, "{line}");
        checked += 1;
    }
    assert!(checked >= 10, "{checked}");
}
